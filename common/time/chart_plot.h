/*
 * chart_plot.h - quantities over time and values by class, drawn as SVG
 * in the style of the node x time chart (chart.h): 'sbucket replay
 * --chart' (the machine's use and the queue over months, the wait by
 * job size).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A plot is panels stacked top to bottom, each as wide as a chart's
 * plot area (720 px), with the chart's palette, text and time axis:
 *
 *   time panels  one or more step series over [t0, t1): series s holds
 *                value v[i] from t[i] to t[i + 1] (the last to t1,
 *                nothing before t[0]); each pixel column is drawn at
 *                the series' time-weighted mean over the seconds it
 *                covers, as one line per series (a log of years in 720
 *                columns: each column its stretch's mean, not a
 *                sample); the y axis runs from 0 to @vmax (0: the
 *                largest column mean, rounded up to a 1, 2 or 5 step),
 *                labelled in percent of it or in values; the time axis
 *                under the
 *                last time panel, labelled as the chart labels it;
 *   bar panels   one group of bars per class (the x axis' labels), one
 *                bar per series, the y axis from 0 to the largest value
 *                rounded up to a 1, 2 or 5 step; a value < 0 is no bar.
 *   a legend of the series' names (those of the first panel) when
 *   there are several.
 *
 * The SVG is a function of its arguments alone (no clock, no locale);
 * the means are computed in double and rounded to tenths of a pixel.
 *
 * Operations (P panels, n points of all series, C classes, S series):
 *   sb_plot_svg  O(n + P * 720 + C S)
 *
 * Errors: NULL with errno EINVAL (a NULL argument, t1 <= t0, no panel, a
 * series whose times do not increase or whose values are negative,
 * vmax < 0 (or 0 with percent), more than SB_CHART_COLOURS series, a class without a
 * label, a name or title with a control character) or ENOMEM.
 */
#ifndef SB_CHART_PLOT_H
#define SB_CHART_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chart.h"

/* A step series over time (see the top). */
typedef struct {
	const char *name;		/* for the legend */
	const int64_t *t;		/* n times, increasing */
	const int64_t *v;		/* n values >= 0 */
	size_t n;
} sb_plot_series_t;

typedef struct {
	const char *title;		/* above the panel, or NULL */
	int64_t vmax;			/* the y axis' top; 0: the largest
					 * column mean (not with percent) */
	bool percent;			/* y labels in % of vmax */
	const sb_plot_series_t *s;
	size_t ns;			/* 1..SB_CHART_COLOURS */
} sb_plot_time_t;

typedef struct {
	const char *title;		/* above the panel, or NULL */
	const char *unit;		/* after the y labels ("min"), or NULL */
	const char *const *classes;	/* nclasses labels under the groups */
	size_t nclasses;
	const char *const *names;	/* ns series names */
	size_t ns;			/* 1..SB_CHART_COLOURS */
	const double *v;		/* ns x nclasses values, series by
					 * series; < 0 (or NaN): no bar */
} sb_plot_bars_t;

typedef struct {
	const char *title;		/* a heading, or NULL */
	const char *caption;		/* a line at the bottom, or NULL */
	int64_t t0, t1;			/* the time panels' axis, t0 < t1 */
	int64_t unit;			/* as sb_chart_opts_t: 0, or ticks
					 * at multiples of unit seconds */
	const char *unit_name;
} sb_plot_opts_t;

/*
 * The plot of the @ntp time panels @tp then the @nbp bar panels @bp,
 * with @o, as a standalone SVG document (a string to free()), or NULL
 * with errno EINVAL or ENOMEM (see the top).
 */
char *sb_plot_svg(const sb_plot_opts_t *o, const sb_plot_time_t *tp,
		  size_t ntp, const sb_plot_bars_t *bp, size_t nbp);

#endif /* SB_CHART_PLOT_H */
