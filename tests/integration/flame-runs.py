#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Results files with sampled profiles made up for report.t: the same
figures every time, so that what the report draws of them is known.

    flame-runs.py TEMPLATE DIR

TEMPLATE is a results file with lat_syscall-null, -read, -write,
-stat, -fstat and lat_pipe (tests/fixtures/emulation/icount-A-1.json); DIR gets the sides
base/ and new/, runs 1.json and 2.json in each, labelled "base" and
"new": compare pools a side's two runs.  Each side's runs have the same figures, half the
side's samples each:

  lat_syscall-null   1.5 times slower, profiles on both sides: the new
                     side's stacks go through syscall_trace_enter and
                     __seccomp_filter (600 samples, none before), and
                     syscall_exit_to_user_mode has 40 where it had 400;
                     __x64_sys_getppid is the same (400)
  lat_syscall-write  0.6 times the time, profiles on both sides:
                     vfs_write has 100 where it had 600
  lat_syscall-read   1.5 times slower, a profile on the base side alone
  lat_pipe           the same, the same profiles on both sides
  lat_syscall-stat   the same time, its kernel code moved: 300 ns/op
                     from filename_lookup to getname_flags (a graph)
  lat_syscall-fstat  the same time, 40 ns/op of it new code: beyond the
                     sampling error, below the 5% threshold (no graph)

The emulation is taken out of the runs (the template's runs were
emulated); a sample stands for 1 ms of CPU time, a run sampled 10^6
operations: 2 samples of a side are 1 ns a operation.
"""
import copy
import json
import os
import sys

FRAMES = [
    "main",                              # 0, user space
    "entry_SYSCALL_64_after_hwframe",    # 1
    "do_syscall_64",                     # 2
    "__x64_sys_getppid",                 # 3
    "syscall_exit_to_user_mode",         # 4
    "syscall_trace_enter",               # 5
    "__seccomp_filter",                  # 6
    "[JIT code kallsyms does not list]", # 7
    "ksys_write",                        # 8
    "vfs_write",                         # 9
    "pipe_write",                        # 10
    "vfs_statx",                         # 11
    "filename_lookup",                   # 12
    "getname_flags",                     # 13
    "vfs_fstat",                         # 14
    "security_inode_getattr",            # 15
]

# per key and side: (count of one run, frames root first, user frames first)
STACKS = {
    ("lat_syscall-null", "base"): [
        (200, [0, 1, 2, 3]), (200, [0, 1, 2, 4]), (50, [0, 1, 2]), (150, [0])],
    ("lat_syscall-null", "new"): [
        (200, [0, 1, 2, 3]), (20, [0, 1, 2, 4]), (50, [0, 1, 2]),
        (200, [0, 1, 2, 5, 6, 7]), (100, [0, 1, 2, 5, 6]), (150, [0])],
    ("lat_syscall-write", "base"): [
        (300, [0, 1, 2, 8, 9]), (100, [0, 1, 2, 8]), (100, [0])],
    ("lat_syscall-write", "new"): [
        (50, [0, 1, 2, 8, 9]), (100, [0, 1, 2, 8]), (100, [0])],
    ("lat_syscall-read", "base"): [(100, [0, 1, 2]), (100, [0])],
    ("lat_pipe", "base"): [(100, [0, 1, 2, 8, 9, 10]), (100, [0])],
    ("lat_pipe", "new"): [(100, [0, 1, 2, 8, 9, 10]), (100, [0])],
    # the same time, its kernel code moved: 300 ns/op of 1000 from one
    # path to another (a graph: beyond the error and the 5% threshold)
    ("lat_syscall-stat", "base"): [(300, [0, 1, 2, 11, 12]), (100, [0])],
    ("lat_syscall-stat", "new"): [(300, [0, 1, 2, 11, 13]), (100, [0])],
    # the same time, 40 ns/op of new code: beyond the error, below 5%
    ("lat_syscall-fstat", "base"): [(300, [0, 1, 2, 14]), (100, [0])],
    ("lat_syscall-fstat", "new"): [(300, [0, 1, 2, 14]), (40, [0, 1, 2, 15]), (100, [0])],
}

FACTOR = {"lat_syscall-null": 1.5, "lat_syscall-write": 0.6, "lat_syscall-read": 1.5}


def profile(stacks, op_ns):
    kernel = sum(c for c, f in stacks if len(f) > 1)
    user = sum(c for c, f in stacks if len(f) == 1)
    return {
        "event": "cpu-clock", "period": 1000000, "samples": kernel + user,
        "kernel_samples": kernel, "user_samples": user, "lost": 0,
        "sample_ns": 1e6, "ops": 1e6, "op_ns": op_ns,
        "frames": FRAMES,
        "stacks": ["%d 1 %s" % (c, " ".join(map(str, f))) for c, f in stacks],
    }


def main():
    tmpl, out = sys.argv[1], sys.argv[2]
    run = json.load(open(tmpl))
    run["meta"].pop("emulation", None)
    for side in ("base", "new"):
        os.makedirs(os.path.join(out, side), exist_ok=True)
        for n in (1, 2):
            r = copy.deepcopy(run)
            r["meta"]["label"] = side
            r["meta"]["date"] = "2026-12-0%dT10:0%d:00Z" % (4 if side == "base" else 5, n)
            for res in r["results"]:
                f = FACTOR.get(res["key"], 1) if side == "new" else 1
                # about 1 us, as the fixtures' spread has it
                scale = f / res["value"]
                res["samples"] = [v * scale for v in res["samples"]]
                res["value"] *= scale
                for k in ("min", "max", "mean", "median", "stddev"):
                    res["stats"][k] *= scale
                st = STACKS.get((res["key"], side))
                if st:
                    res["kernel"] = {"source": "bpf", "scope": "perfprobe and its children",
                                     "profile": profile(st, 1000 * f)}
            json.dump(r, open(os.path.join(out, side, "%d.json" % n), "w"), indent=1)


main()
