// SPDX-License-Identifier: GPL-2.0
/*
 * SVG charts for the report (svg.h).  Plain text out: every element with
 * its own attributes, so a chart reads the same inline in the HTML page
 * and as a file of its own.  Text widths are estimated (0.6 em a
 * character, DejaVu Sans' average), which is what keeps labels apart.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print.h"
#include "report/svg.h"
#include "util.h"

#define FONT		12
#define CHAR_W		(0.6 * FONT)
#define LABEL_MAX_W	230.0
#define LEGEND_ROW	18

/* Okabe-Ito: told apart with every kind of colour vision */
static const char *const palette[] = {
	"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00",
	"#000000", "#F0E442",
};

static const char *colour(size_t i)
{
	return palette[i % ARRAY_SIZE(palette)];
}

void pp_html_esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

static double text_w(const char *s)
{
	return (double)strlen(s) * CHAR_W;
}

/* s cut to fit w pixels, with "..." when cut. */
static void fit(char *buf, size_t size, const char *s, double w)
{
	size_t max = (size_t)(w / CHAR_W);

	if (strlen(s) <= max || max < 4) {
		snprintf(buf, size, "%s", s);
		return;
	}
	snprintf(buf, size, "%.*s...", (int)(max - 3), s);
}

/*
 * A linear axis's tick: lo plus steps, where the sum's rounding error
 * would show as a figure (1e-17 for zero).
 */
static void fmt_tick(char *buf, size_t size, double v, double step)
{
	pp_fmt_num(buf, size, fabs(v) < step * 1e-6 ? 0 : v);
}

static void fmt_bytes(char *buf, size_t size, double b)
{
	static const char *const unit[] = { "", "K", "M", "G", "T" };
	char num[PP_NUM_LEN];
	unsigned int u = 0;

	while (b >= 1024 && u + 1 < ARRAY_SIZE(unit)) {
		b /= 1024;
		u++;
	}
	pp_fmt_num(num, sizeof(num), b);
	snprintf(buf, size, "%s%s", num, unit[u]);
}

/* A round step near range / n: 1, 2 or 5 times a power of ten. */
static double nice_step(double range, int n)
{
	double raw = range / n, p = pow(10, floor(log10(raw))), m = raw / p;

	if (m <= 1)
		return p;
	if (m <= 2)
		return 2 * p;
	if (m <= 5)
		return 5 * p;
	return 10 * p;
}

static void svg_open(FILE *f, const char *id, const char *title, double h)
{
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"%s\" class=\"chart\" "
		"viewBox=\"0 0 %d %.0f\" width=\"%d\" height=\"%.0f\" role=\"img\" "
		"style=\"font: %dpx 'DejaVu Sans', sans-serif\" aria-label=\"", id, PP_SVG_WIDTH,
		h, PP_SVG_WIDTH, h, FONT);
	pp_html_esc(f, title);
	fputs("\">\n<title>", f);
	pp_html_esc(f, title);
	fprintf(f, "</title>\n<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%.0f\" fill=\"#fff\"/>\n",
		PP_SVG_WIDTH, h);
	fprintf(f, "<text x=\"%d\" y=\"20\" text-anchor=\"middle\" font-size=\"14\" "
		"font-weight=\"bold\">", PP_SVG_WIDTH / 2);
	pp_html_esc(f, title);
	fputs("</text>\n", f);
}

static void text_at(FILE *f, double x, double y, const char *anchor, const char *s,
		    const char *extra)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s%s>", x, y, anchor,
		extra ? " " : "", extra ? extra : "");
	pp_html_esc(f, s);
	fputs("</text>\n", f);
}

/* A legend's columns: as many as fit across, each as wide as the widest name. */
struct legend_cols {
	double colw;
	size_t cols;
};

static struct legend_cols legend_cols(const char *const *names, size_t n)
{
	struct legend_cols lc = { 0, 0 };
	double w = PP_SVG_WIDTH - 32;
	size_t i;

	for (i = 0; i < n; i++)
		if (text_w(names[i]) + 34 > lc.colw)
			lc.colw = text_w(names[i]) + 34;
	if (lc.colw > w)
		lc.colw = w;
	lc.cols = (size_t)(w / lc.colw);
	if (!lc.cols)
		lc.cols = 1;
	return lc;
}

/* The height a legend of n names takes. */
static double legend_height(const char *const *names, size_t n)
{
	struct legend_cols lc = legend_cols(names, n);

	return (double)((n + lc.cols - 1) / lc.cols) * LEGEND_ROW;
}

/*
 * A legend of names under y0.  kind: 'l' a line swatch (dashed for
 * dash[i]), 'b' a box.
 */
static void legend_draw(FILE *f, double y0, const char *const *names, const bool *dash,
			size_t n, char kind)
{
	struct legend_cols lc = legend_cols(names, n);
	double x0 = 16;
	size_t i;

	for (i = 0; i < n; i++) {
		double x = x0 + (double)(i % lc.cols) * lc.colw;
		double y = y0 + (double)(i / lc.cols) * LEGEND_ROW;
		char name[160];

		if (kind == 'l')
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
				"stroke-width=\"2\"%s/>\n", x, y - 4, x + 22, y - 4, colour(i),
				dash && dash[i] ? " stroke-dasharray=\"5 3\"" : "");
		else
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"%s\"/>\n",
				x + 4, y - 10, colour(i));
		fit(name, sizeof(name), names[i], lc.colw - 34);
		text_at(f, x + 28, y, "start", name, NULL);
	}
}

/* --- lines --- */

struct axis {
	double lo, hi;		/* in axis units (log2 bytes, log10 y, or y) */
	double px0, px1;	/* pixels */
};

static double ax_map(const struct axis *a, double v)
{
	if (a->hi <= a->lo)
		return (a->px0 + a->px1) / 2;
	return a->px0 + (v - a->lo) / (a->hi - a->lo) * (a->px1 - a->px0);
}

static bool range_of(const struct pp_svg_series *s, size_t ns, bool x, bool logv,
		     double *lo, double *hi)
{
	size_t i, j;
	bool any = false;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (i = 0; i < ns; i++)
		for (j = 0; j < s[i].n; j++) {
			double v = x ? s[i].x[j] : s[i].y[j];

			if (!isfinite(s[i].y[j]) || !isfinite(s[i].x[j]) || (logv && v <= 0))
				continue;
			v = logv ? (x ? log2(v) : log10(v)) : v;
			*lo = fmin(*lo, v);
			*hi = fmax(*hi, v);
			any = true;
		}
	return any;
}

/* A line chart's plot area, in pixels; the x axis's labels and name, the legend under it. */
#define LINES_LEFT	70.0
#define LINES_RIGHT	24.0
#define LINES_TOP	40.0
#define LINES_PLOT_H	300.0
#define LINES_BOTTOM	(LINES_TOP + LINES_PLOT_H)

struct lines_plot {
	const struct pp_svg_axes *a;
	struct axis ax, ay;
};

/* The axes' ranges, rounded out to whole steps, and their pixels; false: no point. */
static bool lines_scale(struct lines_plot *p, const struct pp_svg_series *s, size_t ns)
{
	const struct pp_svg_axes *a = p->a;
	struct axis *ax = &p->ax, *ay = &p->ay;
	double step;

	if (!range_of(s, ns, true, a->xbytes, &ax->lo, &ax->hi) ||
	    !range_of(s, ns, false, a->ylog, &ay->lo, &ay->hi))
		return false;
	if (a->ylog) {
		ay->lo = floor(ay->lo);
		ay->hi = ceil(ay->hi);
		if (ay->hi == ay->lo)
			ay->hi += 1;
	} else {
		step = nice_step(ay->hi > 0 ? ay->hi : 1, 5);
		ay->lo = 0;
		ay->hi = ceil(ay->hi / step) * step;
		if (ay->hi <= 0)
			ay->hi = step;
	}
	if (ax->hi == ax->lo) {
		ax->lo -= 1;
		ax->hi += 1;
	}
	ax->px0 = LINES_LEFT;
	ax->px1 = PP_SVG_WIDTH - LINES_RIGHT;
	ay->px0 = LINES_BOTTOM;
	ay->px1 = LINES_TOP;
	return true;
}

/* The y grid and its labels: 1, 2 and 5 a decade on a log axis (1 alone past four). */
static void lines_ygrid(FILE *f, const struct lines_plot *p)
{
	const struct axis *ay = &p->ay;
	double e, step;
	char buf[64];

	if (p->a->ylog) {
		for (e = ay->lo; e <= ay->hi + 1e-9; e++) {
			static const double mult[] = { 1, 2, 5 };
			unsigned int k;

			for (k = 0; k < ARRAY_SIZE(mult); k++) {
				double v = log10(mult[k]) + e, py = ax_map(ay, v);

				if (v > ay->hi + 1e-9 || (k && ay->hi - ay->lo > 4))
					continue;
				fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" "
					"stroke=\"#ddd\"/>\n", LINES_LEFT, py, p->ax.px1, py);
				pp_fmt_num(buf, sizeof(buf), mult[k] * pow(10, e));
				text_at(f, LINES_LEFT - 6, py + 4, "end", buf, NULL);
			}
		}
		return;
	}
	step = nice_step(ay->hi - ay->lo, 5);
	for (e = ay->lo; e <= ay->hi + step / 2; e += step) {
		double py = ax_map(ay, e);

		fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" "
			"stroke=\"#ddd\"/>\n", LINES_LEFT, py, p->ax.px1, py);
		fmt_tick(buf, sizeof(buf), e, step);
		text_at(f, LINES_LEFT - 6, py + 4, "end", buf, NULL);
	}
}

/* The x grid and its labels: powers of two for sizes, at most ten. */
static void lines_xgrid(FILE *f, const struct lines_plot *p)
{
	const struct axis *ax = &p->ax;
	double e, step;
	char buf[64];

	if (p->a->xbytes) {
		double first = ceil(ax->lo), last = floor(ax->hi);

		step = ceil((last - first + 1) / 10);
		if (step < 1)
			step = 1;
		for (e = first; e <= last; e += step) {
			double px = ax_map(ax, e);

			fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" "
				"stroke=\"#ddd\"/>\n", px, LINES_TOP, px, LINES_BOTTOM);
			fmt_bytes(buf, sizeof(buf), pow(2, e));
			text_at(f, px, LINES_BOTTOM + 16, "middle", buf, NULL);
		}
		return;
	}
	step = nice_step(ax->hi - ax->lo, 8);
	for (e = ceil(ax->lo / step) * step; e <= ax->hi + step / 2; e += step) {
		double px = ax_map(ax, e);

		fmt_tick(buf, sizeof(buf), e, step);
		text_at(f, px, LINES_BOTTOM + 16, "middle", buf, NULL);
	}
}

/* The axes' names: x's under its labels, y's turned, along the left edge. */
static void lines_axis_names(FILE *f, const struct lines_plot *p)
{
	char buf[64];

	text_at(f, (LINES_LEFT + p->ax.px1) / 2, LINES_BOTTOM + 36, "middle", p->a->xlabel, NULL);
	snprintf(buf, sizeof(buf), "rotate(-90 16 %.0f)", LINES_TOP + LINES_PLOT_H / 2);
	fprintf(f, "<text x=\"16\" y=\"%.0f\" text-anchor=\"middle\" transform=\"%s\">",
		LINES_TOP + LINES_PLOT_H / 2, buf);
	pp_html_esc(f, p->a->ylabel);
	fputs("</text>\n", f);
}

/*
 * The marks: dashed verticals, labels in two rows so they do not meet;
 * under the legend (y0), what the two kinds of line are.
 */
static void lines_marks(FILE *f, const struct lines_plot *p, const struct pp_svg_mark *m,
			size_t nm, double y0)
{
	size_t i;

	for (i = 0; i < nm; i++) {
		double v = p->a->xbytes ? log2(m[i].x) : m[i].x, px;

		if (!(m[i].x > 0) || v < p->ax.lo || v > p->ax.hi)
			continue;
		px = ax_map(&p->ax, v);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"%s\" "
			"stroke-dasharray=\"%s\"><title>", px, LINES_TOP, px, LINES_BOTTOM,
			m[i].alt ? "#999" : "#444", m[i].alt ? "2 4" : "6 3");
		pp_html_esc(f, m[i].label);
		fputs("</title></line>\n", f);
		text_at(f, px + 3, LINES_TOP + 12 + (m[i].alt ? 14 : 0), "start", m[i].label,
			m[i].alt ? "fill=\"#777\"" : "fill=\"#333\"");
	}
	if (nm)
		text_at(f, 16, y0 + 12, "start",
			"dashed: the sizes the curve shows; dotted, grey: what the system says",
			"fill=\"#555\"");
}

/* Each series a path; a point that cannot be drawn (not finite, or <= 0 on a log axis) a gap. */
static void lines_series(FILE *f, const struct lines_plot *p, const struct pp_svg_series *s,
			 size_t ns)
{
	const struct pp_svg_axes *a = p->a;
	size_t i, j;

	for (i = 0; i < ns; i++) {
		bool pen = false;

		fprintf(f, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s d=\"", colour(i),
			s[i].dashed ? " stroke-dasharray=\"5 3\"" : "");
		for (j = 0; j < s[i].n; j++) {
			double x = s[i].x[j], y = s[i].y[j];

			if (!isfinite(x) || !isfinite(y) || (a->xbytes && x <= 0) ||
			    (a->ylog && y <= 0)) {
				pen = false;
				continue;
			}
			fprintf(f, "%c%.1f %.1f ", pen ? 'L' : 'M',
				ax_map(&p->ax, a->xbytes ? log2(x) : x),
				ax_map(&p->ay, a->ylog ? log10(y) : y));
			pen = true;
		}
		fputs("\"><title>", f);
		pp_html_esc(f, s[i].name);
		fputs("</title></path>\n", f);
	}
}

int pp_svg_lines(FILE *f, const struct pp_svg_axes *a,
		 const struct pp_svg_series *s, size_t ns,
		 const struct pp_svg_mark *m, size_t nm)
{
	const double legend_y = LINES_BOTTOM + 56;
	struct lines_plot p = { .a = a };
	const char **names;
	bool *dash;
	double leg;
	size_t i;
	int ret = -ENOMEM;

	if (!lines_scale(&p, s, ns))
		return -EINVAL;
	names = calloc(ns ? ns : 1, sizeof(*names));
	dash = calloc(ns ? ns : 1, sizeof(*dash));
	if (!names || !dash)
		goto free_legend;
	for (i = 0; i < ns; i++) {
		names[i] = s[i].name;
		dash[i] = s[i].dashed;
	}
	leg = legend_height(names, ns);
	svg_open(f, a->id, a->title, legend_y + leg + (nm ? LEGEND_ROW : 0));
	fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" "
		"stroke=\"#888\"/>\n", LINES_LEFT, LINES_TOP, p.ax.px1 - LINES_LEFT, LINES_PLOT_H);
	lines_ygrid(f, &p);
	lines_xgrid(f, &p);
	lines_axis_names(f, &p);
	lines_marks(f, &p, m, nm, legend_y + leg);
	lines_series(f, &p, s, ns);
	legend_draw(f, legend_y, names, dash, ns, 'l');
	fputs("</svg>\n", f);
	ret = 0;
free_legend:
	free(names);
	free(dash);
	return ret;
}

/* --- bars --- */

/* The labels' column: the widest label, up to LABEL_MAX_W, and a margin. */
static double label_room(double widest)
{
	return fmin(widest, LABEL_MAX_W) + 12;
}

static double label_col(const char *const *labels, size_t n)
{
	double w = 0;
	size_t i;

	for (i = 0; i < n; i++)
		w = fmax(w, text_w(labels[i]));
	return label_room(w);
}

/* Where value v goes on a bar axis (log10 when logx), clamped to it. */
static double bar_x(const struct axis *ax, double v, bool logx)
{
	double a = logx ? (v > 0 ? log10(v) : ax->lo) : v;

	return ax_map(ax, fmin(fmax(a, ax->lo), ax->hi));
}

/* A bar chart's geometry: its top, a bar's height, the gap between categories. */
#define BARS_TOP	36.0
#define BAR_H		12.0
#define BAR_GAP		10.0
#define BARS_RIGHT	80.0

struct bars_plot {
	const struct pp_svg_bars *b;
	struct axis ax;		/* the values', along x */
	double step;		/* between its ticks */
	bool logx;
	double y, plot_h;	/* where the categories start, their height */
};

/* The height of a category: a bar per series, and the gap. */
static double bars_cat_h(const struct pp_svg_bars *b)
{
	return (double)b->nser * (BAR_H + 2) + BAR_GAP;
}

/* The value axis: from 0, or log10 when the values are three decades apart; false: no value. */
static bool bars_scale(struct bars_plot *p)
{
	const struct pp_svg_bars *b = p->b;
	double max = 0, min = INFINITY;
	size_t c;

	for (c = 0; c < b->ncat * b->nser; c++) {
		if (isfinite(b->v[c]) && b->v[c] > 0) {
			max = fmax(max, b->v[c]);
			min = fmin(min, b->v[c]);
		}
		if (b->hi && isfinite(b->hi[c]))
			max = fmax(max, b->hi[c]);
	}
	if (!(max > 0))
		return false;
	/* values three decades apart: a log axis, or the small ones vanish */
	p->logx = max / min > 1000;
	if (p->logx) {
		p->ax.lo = floor(log10(min));
		p->ax.hi = ceil(log10(max));
		p->step = 1;
	} else {
		p->step = nice_step(max, 5);
		p->ax.lo = 0;
		p->ax.hi = ceil(max / p->step) * p->step;
	}
	p->ax.px0 = label_col(b->cats, b->ncat);
	p->ax.px1 = PP_SVG_WIDTH - BARS_RIGHT;
	return true;
}

/* The value axis's grid, its labels and its unit under them. */
static void bars_value_axis(FILE *f, const struct bars_plot *p)
{
	double e, bottom = p->y + p->plot_h;
	char buf[160];

	for (e = p->ax.lo; e <= p->ax.hi + p->step / 2; e += p->step) {
		double px = ax_map(&p->ax, e);

		fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#ddd\"/>\n",
			px, p->y, px, bottom);
		if (p->logx)
			pp_fmt_num(buf, sizeof(buf), pow(10, e));
		else
			fmt_tick(buf, sizeof(buf), e, p->step);
		text_at(f, px, bottom + 16, "middle", buf, NULL);
	}
	snprintf(buf, sizeof(buf), "%s%s", p->b->unit, p->logx ? " (log scale)" : "");
	text_at(f, (p->ax.px0 + p->ax.px1) / 2, bottom + 34, "middle", buf, NULL);
}

/* Series r's bar of value i at by: its tooltip, its whisker, its figure at the end. */
static void bars_bar(FILE *f, const struct bars_plot *p, size_t i, size_t r, double by)
{
	const struct pp_svg_bars *b = p->b;
	double end, v = b->v[i];
	char val[64], lo[64], hi[64];

	if (!isfinite(v))
		return;
	end = bar_x(&p->ax, v, p->logx);
	fprintf(f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%.0f\" fill=\"%s\"><title>", p->ax.px0, by,
		fmax(end - p->ax.px0, 0.5), BAR_H, colour(r));
	/* the value has its own buffer: it is the figure drawn at the end */
	pp_fmt_num(val, sizeof(val), v);
	pp_html_esc(f, b->series[r]);
	fprintf(f, ": %s %s", val, b->unit);
	if (b->lo && isfinite(b->lo[i]) && isfinite(b->hi[i])) {
		pp_fmt_num(lo, sizeof(lo), b->lo[i]);
		pp_fmt_num(hi, sizeof(hi), b->hi[i]);
		fprintf(f, " (%s..%s)", lo, hi);
	}
	fputs("</title></rect>\n", f);
	if (b->lo && isfinite(b->lo[i]) && isfinite(b->hi[i]) && b->hi[i] > b->lo[i]) {
		double x0 = bar_x(&p->ax, b->lo[i], p->logx);
		double x1 = bar_x(&p->ax, b->hi[i], p->logx);
		double my = by + BAR_H / 2;

		fprintf(f, "<path class=\"whisker\" stroke=\"#222\" fill=\"none\" "
			"d=\"M%.1f %.1f L%.1f %.1f M%.1f %.1f L%.1f %.1f M%.1f %.1f "
			"L%.1f %.1f\"/>\n", x0, my, x1, my, x0, my - 4, x0, my + 4, x1,
			my - 4, x1, my + 4);
		end = fmax(end, x1);
	}
	text_at(f, end + 4, by + BAR_H - 2, "start", val, "font-size=\"11\"");
}

/* Category c: its label (cut to fit, the whole in a tooltip), then its bars. */
static void bars_category(FILE *f, const struct bars_plot *p, size_t c)
{
	const struct pp_svg_bars *b = p->b;
	double cy = p->y + (double)c * bars_cat_h(b) + BAR_GAP / 2;
	char buf[160];
	size_t r;

	fit(buf, sizeof(buf), b->cats[c], LABEL_MAX_W);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\"><title>", p->ax.px0 - 8,
		cy + (double)b->nser * (BAR_H + 2) / 2 + 4);
	pp_html_esc(f, b->cats[c]);
	fputs("</title>", f);
	pp_html_esc(f, buf);
	fputs("</text>\n", f);
	for (r = 0; r < b->nser; r++)
		bars_bar(f, p, c * b->nser + r, r, cy + (double)r * (BAR_H + 2));
}

int pp_svg_bars(FILE *f, const struct pp_svg_bars *b)
{
	struct bars_plot p = { .b = b };
	double leg = 0;
	size_t c;

	if (!bars_scale(&p))
		return -EINVAL;
	if (b->nser > 1)
		leg = legend_height(b->series, b->nser) + 6;
	p.plot_h = (double)b->ncat * bars_cat_h(b);
	svg_open(f, b->id, b->title, BARS_TOP + leg + p.plot_h + 44);
	if (b->nser > 1)
		legend_draw(f, BARS_TOP + 12, b->series, NULL, b->nser, 'b');
	p.y = BARS_TOP + leg;
	bars_value_axis(f, &p);
	for (c = 0; c < b->ncat; c++)
		bars_category(f, &p, c);
	fputs("</svg>\n", f);
	return 0;
}

/* --- changes --- */

/* A changes chart's geometry: its top, a row's height. */
#define CHANGES_TOP	36.0
#define CHANGE_ROW	18.0
#define CHANGES_RIGHT	70.0

/* Its axis: -m .. +m percent, m the largest change and some room (5 at least). */
struct changes_plot {
	struct axis ax;
	double m, step;
	double lab;		/* the keys' column */
};

static void changes_scale(struct changes_plot *p, const struct pp_svg_changes *c)
{
	double w = 0;
	size_t i;

	for (i = 0; i < c->n; i++)
		w = fmax(w, text_w(c->rows[i].key));
	p->lab = label_room(w);
	/* scaled to the changes; an interval wider than that is cut at the edge */
	p->m = 5;
	for (i = 0; i < c->n; i++)
		if (isfinite(c->rows[i].pct))
			p->m = fmax(p->m, fabs(c->rows[i].pct) * 1.15);
	p->step = nice_step(p->m, 3);
	p->m = ceil(p->m / p->step) * p->step;
	p->ax.lo = -p->m;
	p->ax.hi = p->m;
	p->ax.px0 = p->lab + 48;	/* room for a negative change's figure */
	p->ax.px1 = PP_SVG_WIDTH - CHANGES_RIGHT;
}

/* The grid in percent, 0 darker, and what the chart shows under it. */
static void changes_axis(FILE *f, const struct changes_plot *p, double plot_h)
{
	const double bottom = CHANGES_TOP + plot_h;
	char buf[160];
	double e;

	for (e = -p->m; e <= p->m + p->step / 2; e += p->step) {
		double px = ax_map(&p->ax, e);

		fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"%s\"/>\n",
			px, CHANGES_TOP, px, bottom, fabs(e) < p->step / 2 ? "#444" : "#ddd");
		snprintf(buf, sizeof(buf), "%+.0f%%", e);
		text_at(f, px, bottom + 16, "middle", fabs(e) < p->step / 2 ? "0" : buf, NULL);
	}
	text_at(f, (p->ax.px0 + p->ax.px1) / 2, bottom + 34, "middle",
		"change against the base, % (whisker: the 95% interval)", NULL);
	text_at(f, (p->ax.px0 + p->ax.px1) / 2, bottom + 52, "middle",
		"red: regression; green: improvement; grey: no change; orange: too noisy to tell",
		"fill=\"#555\" font-size=\"11\"");
}

/* Row i: the key, the bar from 0 coloured by its class, the interval, the figure. */
static void change_row(FILE *f, const struct changes_plot *p, const struct pp_svg_change *r,
		       size_t i)
{
	double y = CHANGES_TOP + (double)i * CHANGE_ROW, x0 = ax_map(&p->ax, 0), x1;
	const char *fill = r->cls == 'r' ? "#D55E00" : r->cls == 'i' ? "#009E73" :
			   r->cls == 'n' ? "#E69F00" : "#999999";
	char buf[160];

	fit(buf, sizeof(buf), r->key, LABEL_MAX_W);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\"><title>", p->lab - 8,
		y + 13);
	pp_html_esc(f, r->key);
	fputs("</title>", f);
	pp_html_esc(f, buf);
	fputs("</text>\n", f);
	if (!isfinite(r->pct))
		return;
	x1 = ax_map(&p->ax, r->pct);
	fprintf(f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"12\" "
		"fill=\"%s\"><title>", fmin(x0, x1), y + 3, fmax(fabs(x1 - x0), 0.5), fill);
	pp_html_esc(f, r->key);
	fprintf(f, ": %+.1f%% (%+.1f%% .. %+.1f%%)</title></rect>\n", r->pct, r->lo, r->hi);
	if (isfinite(r->lo) && isfinite(r->hi)) {
		double a = ax_map(&p->ax, fmax(r->lo, -p->m));
		double b = ax_map(&p->ax, fmin(r->hi, p->m));

		fprintf(f, "<path class=\"whisker\" stroke=\"#222\" fill=\"none\" "
			"d=\"M%.1f %.1f L%.1f %.1f\"/>\n", a, y + 9, b, y + 9);
		x1 = r->pct >= 0 ? fmax(x1, b) : fmin(x1, a);
	}
	snprintf(buf, sizeof(buf), "%+.1f%%", r->pct);
	text_at(f, r->pct >= 0 ? x1 + 4 : x1 - 4, y + 13, r->pct >= 0 ? "start" : "end", buf,
		"font-size=\"11\"");
}

int pp_svg_changes(FILE *f, const struct pp_svg_changes *c)
{
	double plot_h = (double)c->n * CHANGE_ROW;
	struct changes_plot p;
	size_t i;

	if (!c->n)
		return -EINVAL;
	changes_scale(&p, c);
	svg_open(f, c->id, c->title, CHANGES_TOP + plot_h + 62);
	changes_axis(f, &p, plot_h);
	for (i = 0; i < c->n; i++)
		change_row(f, &p, &c->rows[i], i);
	fputs("</svg>\n", f);
	return 0;
}

/* --- flame graphs --- */

#define FLAME_TOP	36.0
#define FLAME_ROW	17.0
#define FLAME_X0	10.0
#define FLAME_FONT	11
#define FLAME_MIN_W	0.5	/* a frame narrower than this is not drawn */
#define FLAME_PAD	3.0	/* a label's room at each end of its box */

/*
 * DejaVu Sans' advance widths of ' '..'~', in 1/2048 em: a label is
 * measured as the browser will draw it (0.6 em a character would let
 * "mm" out of a narrow box); other bytes count as the widest, 'W'.
 */
static const unsigned short dejavu_w[95] = {
	651, 821, 942, 1716, 1303, 1946, 1597, 563, 799, 799, 1024, 1716, 651, 739, 651, 690,
	1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 690, 690, 1716, 1716, 1716,
	1087, 2048, 1401, 1405, 1430, 1577, 1294, 1178, 1587, 1540, 604, 604, 1343, 1141, 1767,
	1532, 1612, 1235, 1612, 1423, 1300, 1251, 1499, 1401, 2025, 1403, 1251, 1403, 799, 690,
	799, 1716, 1024, 1024, 1255, 1300, 1126, 1300, 1260, 721, 1300, 1298, 569, 569, 1186,
	569, 1995, 1298, 1253, 1300, 1300, 842, 1067, 803, 1298, 1212, 1675, 1212, 1212, 1075,
	1303, 690, 1303, 1716,
};

/* The width of the first n bytes of s at FLAME_FONT, in pixels, 5% to spare. */
static double label_w(const char *s, size_t n)
{
	double u = 0;
	size_t i;

	for (i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		u += c >= ' ' && c <= '~' ? dejavu_w[c - ' '] : 2048;
	}
	return u / 2048 * FLAME_FONT * 1.05;
}

/*
 * name as it fits in w pixels: whole, or its start and "...", or "" when
 * not even a character and the dots fit.  Whole UTF-8 characters only.
 */
static void label_fit(char *buf, size_t size, const char *name, double w)
{
	size_t n = strlen(name), k;

	buf[0] = '\0';
	if (label_w(name, n) <= w) {
		snprintf(buf, size, "%s", name);
		return;
	}
	w -= label_w("...", 3);
	for (k = 0; k < n && label_w(name, k + 1) <= w; k++)
		;
	while (k && ((unsigned char)name[k] & 0xc0) == 0x80)
		k--;
	if (k)
		snprintf(buf, size, "%.*s...", (int)k, name);
}

/* A frame's place: x and width in pixels, its row, whether it is drawn. */
struct flame_box {
	double x, w;
	unsigned int depth;
	bool drawn;
};

struct flame_kid {
	const char *name;
	size_t parent, i;
};

static int cmp_kid(const void *a, const void *b)
{
	const struct flame_kid *x = a, *y = b;

	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	return strcmp(x->name, y->name);
}

/*
 * Every frame's box: the root across the plot, each parent's children
 * side by side from its left edge, by name.  The deepest row drawn, or
 * -1 when the root has no width.
 */
static long flame_layout(const struct pp_svg_flame *g, struct flame_box *b, double plot_w)
{
	struct flame_kid *k = malloc((g->n ? g->n : 1) * sizeof(*k));
	double scale, at = 0;
	size_t i, nk = 0, last = PP_SVG_ROOT;
	long deepest = 0;

	if (!k)
		return -2;
	if (!g->n || !(g->f[0].w > 0)) {
		free(k);
		return -1;
	}
	scale = plot_w / g->f[0].w;
	b[0] = (struct flame_box){ FLAME_X0, plot_w, 0, true };
	for (i = 1; i < g->n; i++)
		k[nk++] = (struct flame_kid){ g->f[i].name, g->f[i].parent, i };
	qsort(k, nk, sizeof(*k), cmp_kid);
	for (i = 0; i < nk; i++) {
		const struct flame_box *p = &b[k[i].parent];
		struct flame_box *c = &b[k[i].i];

		if (k[i].parent != last)
			at = p->x;
		last = k[i].parent;
		c->x = at;
		c->w = g->f[k[i].i].w * scale;
		c->depth = p->depth + 1;
		c->drawn = p->drawn && c->w >= FLAME_MIN_W;
		at += c->w;
		if (c->drawn && (long)c->depth > deepest)
			deepest = c->depth;
	}
	free(k);
	return deepest;
}

/* Dark text on a light fill, white on a dark one. */
static const char *ink(const char *fill)
{
	unsigned int r = 0, gr = 0, bl = 0;

	if (sscanf(fill, "#%2x%2x%2x", &r, &gr, &bl) != 3)
		return "#111";
	return 0.299 * r + 0.587 * gr + 0.114 * bl < 140 ? "#fff" : "#111";
}

/*
 * Frame i in its box at row y: the tooltip, the box, the label.  The
 * label is as long as label_w() measures it (textLength): in a font
 * that draws it wider its letters close up rather than leave the box.
 */
static void flame_frame(FILE *f, const struct pp_svg_flame *g, const struct flame_box *b,
			size_t i, double y)
{
	char label[256];

	fputs("<g class=\"frame\"><title>", f);
	g->tip(f, i, g->arg);
	fprintf(f, "</title><rect class=\"frame\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
		"height=\"%.0f\" fill=\"%s\" stroke=\"#fff\" stroke-width=\"0.5\"/>", b->x, y, b->w,
		FLAME_ROW, g->f[i].fill);
	label_fit(label, sizeof(label), g->f[i].name, b->w - 2 * FLAME_PAD);
	if (label[0]) {
		fprintf(f, "<text x=\"%.2f\" y=\"%.1f\" font-size=\"%d\" fill=\"%s\" "
			"textLength=\"%.2f\">", b->x + FLAME_PAD, y + 12, FLAME_FONT,
			ink(g->f[i].fill), label_w(label, strlen(label)));
		pp_html_esc(f, label);
		fputs("</text>", f);
	}
	fputs("</g>\n", f);
}

/* The differential colours under the graph: blue shrank, grey, red grew. */
static void flame_diff_legend(FILE *f, double y)
{
	static const double rel[] = { -1, -0.5, -0.25, 0, 0.25, 0.5, 1 };
	static const char *const name[] = { "-100%", "-50%", "-25%", "0", "+25%", "+50%",
					    "+100%" };
	double x = FLAME_X0;
	char fill[8];
	size_t i;

	text_at(f, x, y + 12, "start", "change of the frame's CPU time per operation, "
		"of the key's change:", "fill=\"#555\" font-size=\"11\"");
	x = PP_SVG_WIDTH - FLAME_X0 - 36 * (double)ARRAY_SIZE(rel);
	for (i = 0; i < ARRAY_SIZE(rel); i++, x += 36) {
		pp_svg_diff_fill(fill, rel[i]);
		fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"34\" height=\"14\" fill=\"%s\"/>\n",
			x, y + 1, fill);
		text_at(f, x + 17, y + 28, "middle", name[i], "fill=\"#555\" font-size=\"10\"");
	}
}

int pp_svg_flame(FILE *f, const struct pp_svg_flame *g)
{
	const double plot_w = PP_SVG_WIDTH - 2 * FLAME_X0;
	struct flame_box *b = calloc(g->n ? g->n : 1, sizeof(*b));
	double bottom, h;
	long deepest;
	size_t i;

	if (!b)
		return -ENOMEM;
	deepest = flame_layout(g, b, plot_w);
	if (deepest < 0) {
		free(b);
		return deepest == -1 ? -EINVAL : -ENOMEM;
	}
	bottom = FLAME_TOP + (double)(deepest + 1) * FLAME_ROW;
	h = bottom + (g->diff ? 44 : g->legend ? 28 : 8);
	svg_open(f, g->id, g->title, h);
	for (i = 0; i < g->n; i++)
		if (b[i].drawn)
			flame_frame(f, g, &b[i], i, bottom - (double)(b[i].depth + 1) * FLAME_ROW);
	if (g->diff)
		flame_diff_legend(f, bottom + 8);
	else if (g->legend)
		text_at(f, FLAME_X0, bottom + 20, "start", g->legend,
			"fill=\"#555\" font-size=\"11\"");
	fputs("</svg>\n", f);
	free(b);
	return 0;
}

/* Grey to the colour of a change, t of the way. */
static void mix(char *buf, const unsigned char *to, double t)
{
	static const unsigned char grey[3] = { 0xd6, 0xd6, 0xd6 };
	unsigned int c[3], k;

	for (k = 0; k < 3; k++)
		c[k] = (unsigned int)lround(grey[k] + (to[k] - grey[k]) * t);
	snprintf(buf, 8, "#%02x%02x%02x", c[0], c[1], c[2]);
}

void pp_svg_diff_fill(char *buf, double rel)
{
	static const unsigned char red[3] = { 0xd6, 0x27, 0x28 }, blue[3] = { 0x1f, 0x6f, 0xb4 };

	if (!isfinite(rel) || rel == 0) {
		mix(buf, red, 0);
		return;
	}
	/* a change there is: tinted at least a fifth of the way */
	mix(buf, rel > 0 ? red : blue, 0.2 + 0.8 * fmin(fabs(rel), 1));
}

void pp_svg_name_fill(char *buf, const char *name)
{
	uint32_t h = 2166136261u;

	for (; *name; name++) {
		h ^= (unsigned char)*name;
		h *= 16777619u;
	}
	/* orange to yellow: light enough for dark text */
	snprintf(buf, 8, "#%02x%02x%02x", 230 + h % 26, 120 + (h >> 8) % 110, 40 + (h >> 16) % 50);
}
