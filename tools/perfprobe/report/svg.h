/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report's charts, as SVG written by hand: a line chart (log axes
 * for sizes and latencies), grouped horizontal bars with a whisker for
 * the spread, and a diverging chart of changes in percent.  Every chart
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

#endif /* PP_SVG_H */
