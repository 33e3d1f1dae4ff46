/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The vendor performance guide's document made of runs (perfprobe report
 * --guide): its sections in its order, each table under the guide's
 * metric names and units with the perfprobe command beside it, one
 * column per board and kernel, the machines' facts on top, a section no
 * run has figures for left out with a note.  Documentation/report.rst.
 */
#ifndef PP_GUIDEDOC_H
#define PP_GUIDEDOC_H

#include <stdio.h>

#include "report/guide.h"
#include "results.h"

/* The document as HTML (one page) or Markdown: 0 or -ENOMEM. */
int pp_guide_doc_write(FILE *f, enum pp_guide_fmt fmt, const struct pp_run *runs,
		       size_t nruns);

#endif /* PP_GUIDEDOC_H */
