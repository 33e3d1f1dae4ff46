/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report's charts, as SVG written by hand: a line chart (log axes
 * for sizes and latencies), grouped horizontal bars with a whisker for
 * the spread, a diverging chart of changes in percent, and flame graphs
 * of call stacks (a differential one coloured by the change).  Every chart
 * has its title, axis labels with units and a legend; labels that would
 * not fit are shortened (the whole text in a <title> tooltip), never
 * drawn over each other.  Documentation/report.rst.
 */
#ifndef PP_SVG_H
#define PP_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define PP_SVG_WIDTH	720	/* the viewBox; the page scales it */

/* Text for HTML and SVG: & < > " escaped. */
void pp_html_esc(FILE *f, const char *s);

/* One line: n points (x, y); a point whose y is not finite is a gap. */
struct pp_svg_series {
	const char *name;
	const double *x, *y;
	size_t n;
	bool dashed;
};

/* A labelled vertical line at x (a detected cache size). */
struct pp_svg_mark {
	double x;
	const char *label;
	bool alt;		/* drawn the other way (what the system says) */
};

struct pp_svg_axes {
	const char *id;		/* the <svg> element's id */
	const char *title, *xlabel, *ylabel;
	bool xbytes;		/* x is a size in bytes: log2 axis, 4K 1M ... */
	bool ylog;		/* log10 y axis */
};

/* 0, or -EINVAL when no series has a point to draw. */
int pp_svg_lines(FILE *f, const struct pp_svg_axes *a,
		 const struct pp_svg_series *s, size_t ns,
		 const struct pp_svg_mark *m, size_t nm);

/*
 * Horizontal bars: a row per category, a bar per series (a run) in it;
 * v, lo, hi are [cat * nser + ser], NAN for none (lo/hi NULL: no
 * whiskers).  unit goes on the value axis.
 */
struct pp_svg_bars {
	const char *id, *title, *unit;
	const char *const *cats;
	size_t ncat;
	const char *const *series;
	size_t nser;
	const double *v, *lo, *hi;
};

int pp_svg_bars(FILE *f, const struct pp_svg_bars *b);

/*
 * Changes in percent, one row a key: a bar from 0 to pct, the interval
 * lo..hi as a whisker, coloured by cls: 'r' regression, 'i'
 * improvement, 'n' noisy, 's' no change.
 */
struct pp_svg_change {
	const char *key;
	double pct, lo, hi;
	char cls;
};

struct pp_svg_changes {
	const char *id, *title;
	const struct pp_svg_change *rows;
	size_t n;
};

/* 0, or -EINVAL when there is no row. */
int pp_svg_changes(FILE *f, const struct pp_svg_changes *c);

/*
 * A flame graph: a box a frame of the call stacks, a row a depth, the
 * root at the bottom across the whole width.  A frame is as wide as its
 * w, its children side by side on it by name (their w within its); one
 * under half a pixel is left out with its children.  The label is the
 * name where it fits in its box (cut with "..." where part of it does,
 * none where not even that), never beyond it; the tooltip is tip()'s.
 */
#define PP_SVG_ROOT	((size_t)-1)

struct pp_svg_frame {
	const char *name;
	size_t parent;		/* an earlier frame; PP_SVG_ROOT for frame 0 alone */
	double w;
	char fill[8];		/* "#rrggbb" */
};

struct pp_svg_flame {
	const char *id, *title;
	const struct pp_svg_frame *f;
	size_t n;
	bool diff;		/* the legend: pp_svg_diff_fill()'s scale */
	const char *legend;	/* else: one line under the graph, or NULL */
	/* frame i's tooltip, written escaped (pp_html_esc()) */
	void (*tip)(FILE *f, size_t i, const void *arg);
	const void *arg;
};

/* 0, or -EINVAL when the root has no width. */
int pp_svg_flame(FILE *f, const struct pp_svg_flame *g);

/*
 * A differential flame graph's colour for a change rel of the scale
 * (-1: shrank by all of it, +1: grew by all of it; beyond: as much), NAN
 * or 0 for none: grey, blue for shrank, red for grew, more saturated
 * the larger.  buf: at least 8 bytes.
 */
void pp_svg_diff_fill(char *buf, double rel);

/* An ordinary flame graph's colour for a name: warm, the same for the same name. */
void pp_svg_name_fill(char *buf, const char *name);

#endif /* PP_SVG_H */
