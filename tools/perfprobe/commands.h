/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The commands that live beside their feature code, for cli.c's table:
 * kernel/ (kmod, copy, timer, trace), net/ (netserver) and report/
 * (compare).
 */
#ifndef PP_COMMANDS_H
#define PP_COMMANDS_H

#include "cli.h"

int pp_cmd_kmod(struct pp_cli *cli, int argc, char **argv);
int pp_cmd_copy(struct pp_cli *cli, int argc, char **argv);
int pp_cmd_timer(struct pp_cli *cli, int argc, char **argv);
int pp_cmd_trace(struct pp_cli *cli, int argc, char **argv);
/* perfprobe kernel-view status (kernel/kvstatus.c) */
int pp_cmd_kernel_view(struct pp_cli *cli, int argc, char **argv);
/* perfprobe compare [options] BASE NEW... (report/comparecmd.c) */
int pp_cmd_compare(struct pp_cli *cli, int argc, char **argv);
/* perfprobe import lmbench FILE... (report/importcmd.c) */
int pp_cmd_import(struct pp_cli *cli, int argc, char **argv);
/* perfprobe export --csv RUNS... (report/export.c) */
int pp_cmd_export(struct pp_cli *cli, int argc, char **argv);
/* perfprobe report [--format html|svg] RUNS... -o OUT (report/reportcmd.c) */
int pp_cmd_report(struct pp_cli *cli, int argc, char **argv);
/* perfprobe netserver [--bind ADDR]... [--port N] [--max-tests N] */
int pp_cmd_netserver(struct pp_cli *cli, int argc, char **argv);

#endif /* PP_COMMANDS_H */
