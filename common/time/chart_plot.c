/*
 * chart_plot.c - quantities over time and values by class as SVG
 * (chart_plot.h), drawn with the node x time chart's helpers
 * (chart_priv.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chart_plot.h"
#include "chart_priv.h"
#include "strbuf.h"

#define PAD 8
#define LEFT 64			/* room for the y labels */
#define PLOT_W 720
#define PANEL_H 140
#define TITLE_H 22
#define AXIS_H 24
#define GAP 16
#define Y_TICKS 4

static bool _name_ok(const char *s)
{
	if (!s)
		return true;
	for (; *s; s++)
		if ((unsigned char) *s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

static bool _time_ok(const sb_plot_time_t *p)
{
	size_t s, i;

	if (!p->s || !p->ns || p->ns > SB_CHART_COLOURS || p->vmax < 0 ||
	    (p->percent && !p->vmax) || !_name_ok(p->title))
		return false;
	for (s = 0; s < p->ns; s++) {
		const sb_plot_series_t *x = &p->s[s];

		if ((x->n && (!x->t || !x->v)) || !_name_ok(x->name))
			return false;
		for (i = 0; i < x->n; i++)
			if (x->v[i] < 0 || (i && x->t[i] <= x->t[i - 1]))
				return false;
	}
	return true;
}

static bool _bars_ok(const sb_plot_bars_t *p)
{
	size_t i;

	if (!p->classes || !p->nclasses || !p->names || !p->ns ||
	    p->ns > SB_CHART_COLOURS || !p->v || !_name_ok(p->title) ||
	    !_name_ok(p->unit))
		return false;
	for (i = 0; i < p->nclasses; i++)
		if (!p->classes[i] || !_name_ok(p->classes[i]))
			return false;
	for (i = 0; i < p->ns; i++)
		if (!p->names[i] || !_name_ok(p->names[i]))
			return false;
	return true;
}

/* A number for an axis label: "12", "2.5", "0.25". */
static void _add_num(sb_strbuf_t *b, double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		sb_strbuf_addf(b, "%.0f", v);
	else
		sb_strbuf_addf(b, "%.4g", v);
}

/* The smallest 1, 2 or 5 times a power of ten at least @v / Y_TICKS. */
static double _nice_step(double v)
{
	double p = 1e-6, m[3] = { 1, 2, 5 };
	int i;

	if (!(v > 0))
		return 1;
	for (;;) {
		for (i = 0; i < 3; i++)
			if (m[i] * p * Y_TICKS >= v)
				return m[i] * p;
		p *= 10;
	}
}

/* The title of a panel at @y (its baseline), if any. */
static void _title(sb_strbuf_t *b, const char *t, int64_t y)
{
	if (!t)
		return;
	sb_strbuf_addf(b, "<text x=\"%d\" y=\"%lld\" font-weight=\"bold\">",
		       LEFT, (long long) y);
	sb__chart_add_text(b, t);
	sb_strbuf_add(b, "</text>\n");
}

/* Horizontal grid lines and y labels over [top, top + PANEL_H), for
 * values 0..@vmax in steps of @step (@pct: labels in % of vmax). */
static void _y_axis(sb_strbuf_t *b, int64_t top, double vmax, double step,
		    bool pct, double pct_of, const char *unit)
{
	double v;

	for (v = 0; v <= vmax * (1 + 1e-9); v += step) {
		int64_t y = top * 10 + PANEL_H * 10 -
			llround(v / vmax * PANEL_H * 10);

		sb_strbuf_addf(b, "<line x1=\"%d\" y1=\"", LEFT);
		sb__chart_add_px(b, y);
		sb_strbuf_addf(b, "\" x2=\"%d\" y2=\"", LEFT + PLOT_W);
		sb__chart_add_px(b, y);
		sb_strbuf_add(b, "\" stroke=\"#dddddd\"/>\n");
		sb_strbuf_addf(b, "<text x=\"%d\" y=\"", LEFT - 4);
		sb__chart_add_px(b, y + 40);
		sb_strbuf_add(b, "\" text-anchor=\"end\">");
		_add_num(b, pct ? v / pct_of * 100 : v);
		if (pct)
			sb_strbuf_add(b, "%");
		else if (unit)
			sb_strbuf_addf(b, " %s", unit);
		sb_strbuf_add(b, "</text>\n");
	}
	sb_strbuf_addf(b, "<line x1=\"%d\" y1=\"%lld\" x2=\"%d\" y2=\"%lld\" "
		       "stroke=\"#000000\"/>\n", LEFT,
		       (long long) (top + PANEL_H), LEFT + PLOT_W,
		       (long long) (top + PANEL_H));
}

/*
 * The time-weighted mean of series @x over each of the PLOT_W columns of
 * [o->t0, o->t1) into @mean (NAN where the series does not hold yet).
 * O(n + PLOT_W): the points are swept once.
 */
static void _means(const sb_plot_series_t *x, const sb_plot_opts_t *o,
		   double *mean)
{
	int64_t span = o->t1 - o->t0;
	size_t i = 0, c;

	for (c = 0; c < PLOT_W; c++) {
		int64_t a = o->t0 + (int64_t) c * span / PLOT_W;
		int64_t z = o->t0 + (int64_t) (c + 1) * span / PLOT_W;
		double sum = 0;
		int64_t covered = 0;
		size_t k;

		if (z <= a)
			z = a + 1;
		/* the points that hold within [a, z) */
		while (i + 1 < x->n && x->t[i + 1] <= a)
			i++;
		for (k = i; k < x->n && x->t[k] < z; k++) {
			int64_t from = x->t[k] > a ? x->t[k] : a;
			int64_t to = k + 1 < x->n && x->t[k + 1] < z ?
				x->t[k + 1] : z;

			if (to > from) {
				sum += (double) x->v[k] * (double) (to - from);
				covered += to - from;
			}
		}
		mean[c] = covered ? sum / (double) covered : NAN;
	}
}

/* One series of a time panel: a polyline of its column means. */
static void _series(sb_strbuf_t *b, const double *mean, int64_t top,
		    double vmax, const char *colour)
{
	bool open = false;
	size_t c;

	for (c = 0; c < PLOT_W; c++) {
		int64_t y;

		if (isnan(mean[c])) {	/* before the first point */
			if (open)
				sb_strbuf_add(b, "\"/>\n");
			open = false;
			continue;
		}
		y = top * 10 + PANEL_H * 10 -
			llround(mean[c] / vmax * PANEL_H * 10);
		if (y < top * 10)
			y = top * 10;
		if (!open)
			sb_strbuf_addf(b, "<polyline fill=\"none\" stroke=\"%s\" "
				       "stroke-width=\"1.5\" points=\"",
				       colour);
		else
			sb_strbuf_add(b, " ");
		sb__chart_add_px(b, (int64_t) LEFT * 10 + (int64_t) c * 10 + 5);
		sb_strbuf_add(b, ",");
		sb__chart_add_px(b, y);
		open = true;
	}
	if (open)
		sb_strbuf_add(b, "\"/>\n");
}

/* Darker colours than the chart's boxes, for lines and bars alike. */
static const char *const _line[SB_CHART_COLOURS] = {
	"#1f78b4", "#e66101", "#33a02c", "#e31a1c", "#6a3d9a", "#b15928",
	"#018571", "#ca0020", "#636363", "#5e3c99", "#4dac26", "#0571b0",
};

static int64_t _time_panel(sb_strbuf_t *b, const sb_plot_time_t *p,
			   const sb_plot_opts_t *o, int64_t y, bool axis,
			   double *mean)
{
	double top = (double) p->vmax, step, vmax;
	size_t s, c;

	for (s = 0; s < p->ns; s++)
		_means(&p->s[s], o, mean + s * PLOT_W);
	if (!p->vmax) {		/* up to the largest mean drawn */
		top = 1;
		for (c = 0; c < p->ns * PLOT_W; c++)
			if (!isnan(mean[c]) && mean[c] > top)
				top = mean[c];
	}
	step = p->percent ? top / Y_TICKS : _nice_step(top);
	vmax = p->percent ? top : ceil(top / step) * step;
	_title(b, p->title, y + 14);
	y += TITLE_H;
	_y_axis(b, y, vmax, step, p->percent, top, NULL);
	for (s = 0; s < p->ns; s++)
		_series(b, mean + s * PLOT_W, y, vmax,
			_line[s % SB_CHART_COLOURS]);
	y += PANEL_H;
	if (axis) {
		sb_chart_opts_t co = { .unit = o->unit,
				       .unit_name = o->unit_name };
		int64_t span = o->t1 - o->t0;
		int64_t st = sb__chart_tick_step(span, o->unit), t;

		for (t = 0; t <= span; t += st) {
			int64_t x = (int64_t) LEFT * 10 +
				sb__chart_muldiv(t, PLOT_W * 10, span);

			sb_strbuf_add(b, "<text x=\"");
			sb__chart_add_px(b, x);
			sb_strbuf_addf(b, "\" y=\"%lld\" text-anchor=\"middle\">",
				       (long long) y + 16);
			sb__chart_add_axis_time(b, t, &co);
			sb_strbuf_add(b, "</text>\n");
		}
		y += AXIS_H;
	}
	return y + GAP;
}

static int64_t _bar_panel(sb_strbuf_t *b, const sb_plot_bars_t *p, int64_t y)
{
	double max = 0, step, vmax;
	int64_t group = PLOT_W * 10 / (int64_t) p->nclasses;
	int64_t bar = (group * 8 / 10) / (int64_t) p->ns;
	size_t c, s;

	for (c = 0; c < p->ns * p->nclasses; c++)
		if (p->v[c] > max)
			max = p->v[c];
	step = _nice_step(max);
	vmax = max > 0 ? ceil(max / step) * step : step * Y_TICKS;
	_title(b, p->title, y + 14);
	y += TITLE_H;
	_y_axis(b, y, vmax, step, false, 0, p->unit);
	for (c = 0; c < p->nclasses; c++) {
		int64_t x0 = (int64_t) LEFT * 10 + (int64_t) c * group +
			group / 10;

		for (s = 0; s < p->ns; s++) {
			double v = p->v[s * p->nclasses + c];
			int64_t h;

			if (!(v >= 0))
				continue;
			h = llround(v / vmax * PANEL_H * 10);
			sb_strbuf_add(b, "<rect x=\"");
			sb__chart_add_px(b, x0 + (int64_t) s * bar);
			sb_strbuf_add(b, "\" y=\"");
			sb__chart_add_px(b, (y + PANEL_H) * 10 - h);
			sb_strbuf_add(b, "\" width=\"");
			sb__chart_add_px(b, bar > 10 ? bar - 5 : bar);
			sb_strbuf_add(b, "\" height=\"");
			sb__chart_add_px(b, h);
			sb_strbuf_addf(b, "\" fill=\"%s\"><title>",
				       _line[s % SB_CHART_COLOURS]);
			sb__chart_add_text(b, p->names[s]);
			sb_strbuf_add(b, ", ");
			sb__chart_add_text(b, p->classes[c]);
			sb_strbuf_add(b, ": ");
			_add_num(b, floor(v * 10 + 0.5) / 10);
			if (p->unit)
				sb_strbuf_addf(b, " %s", p->unit);
			sb_strbuf_add(b, "</title></rect>\n");
		}
		sb_strbuf_add(b, "<text x=\"");
		sb__chart_add_px(b, (int64_t) LEFT * 10 + (int64_t) c * group +
				 group / 2);
		sb_strbuf_addf(b, "\" y=\"%lld\" text-anchor=\"middle\">",
			       (long long) (y + PANEL_H + 16));
		sb__chart_add_text(b, p->classes[c]);
		sb_strbuf_add(b, "</text>\n");
	}
	return y + PANEL_H + AXIS_H + GAP;
}

char *sb_plot_svg(const sb_plot_opts_t *o, const sb_plot_time_t *tp,
		  size_t ntp, const sb_plot_bars_t *bp, size_t nbp)
{
	sb_strbuf_t b = SB_STRBUF_INIT;
	const char *names[SB_CHART_COLOURS];
	double *mean = NULL;
	size_t i, nnames = 0;
	int64_t y, height, width = LEFT + PLOT_W + 3 * PAD;
	char *svg;

	if (!o || (!tp && ntp) || (!bp && nbp) || !(ntp + nbp) ||
	    !_name_ok(o->title) || !_name_ok(o->caption) ||
	    (ntp && (o->t1 <= o->t0 || o->t0 < -SB_CHART_TIME_MAX ||
		     o->t1 > SB_CHART_TIME_MAX)) ||
	    o->unit < 0 || o->unit > SB_CHART_TIME_MAX) {
		errno = EINVAL;
		return NULL;
	}
	for (i = 0; i < ntp; i++)
		if (!_time_ok(&tp[i])) {
			errno = EINVAL;
			return NULL;
		}
	for (i = 0; i < nbp; i++)
		if (!_bars_ok(&bp[i])) {
			errno = EINVAL;
			return NULL;
		}
	if (ntp)
		for (i = 0; i < tp[0].ns; i++)
			names[nnames++] = tp[0].s[i].name ? tp[0].s[i].name :
				"";
	else
		for (i = 0; i < bp[0].ns; i++)
			names[nnames++] = bp[0].names[i];
	/* the height: title, panels, legend, caption */
	height = o->title ? 36 : PAD;
	height += (int64_t) ntp * (TITLE_H + PANEL_H + GAP) +
		(ntp ? AXIS_H : 0) +
		(int64_t) nbp * (TITLE_H + PANEL_H + AXIS_H + GAP);
	if (nnames > 1)
		height = sb__chart_legend(NULL, names, nnames, LEFT,
					  LEFT + PLOT_W, height, _line);
	height += (o->caption ? 20 : 0) + PAD;

	sb__chart_svg_head(&b, width, height, o->title);
	y = o->title ? 36 : PAD;
	if (ntp && !(mean = malloc(SB_CHART_COLOURS * PLOT_W *
				   sizeof(*mean)))) {
		free(sb_strbuf_finish(&b));
		errno = ENOMEM;
		return NULL;
	}
	for (i = 0; i < ntp; i++)
		y = _time_panel(&b, &tp[i], o, y, i + 1 == ntp, mean);
	free(mean);
	for (i = 0; i < nbp; i++)
		y = _bar_panel(&b, &bp[i], y);
	if (nnames > 1)
		y = sb__chart_legend(&b, names, nnames, LEFT, LEFT + PLOT_W,
				     y, _line);
	if (o->caption) {
		sb_strbuf_addf(&b, "<text x=\"%d\" y=\"%lld\">", LEFT,
			       (long long) y + 12);
		sb__chart_add_text(&b, o->caption);
		sb_strbuf_add(&b, "</text>\n");
	}
	sb_strbuf_add(&b, "</svg>\n");
	if (!(svg = sb_strbuf_finish(&b)))
		errno = ENOMEM;
	return svg;
}
