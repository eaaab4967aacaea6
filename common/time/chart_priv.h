/*
 * chart_priv.h - the chart's layout, shared by chart.c (model, numbers,
 * text) and chart_svg.c (drawing), and the drawing helpers chart_plot.c
 * shares; not part of the API.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Nodes get ids in the order they are added (a job keeps ids, which
 * never move); @order lists the ids in row order, so a name is found by
 * binary search and a new node is one insertion into @order. Rows,
 * lanes and the time axis are worked out again by each result call from
 * the jobs alone (sb__chart_layout), so there is no derived state to
 * keep in step.
 */
#ifndef SB_CHART_PRIV_H
#define SB_CHART_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "chart.h"
#include "strbuf.h"

typedef struct {
	char *label, *key;
	int64_t start, end;
	size_t *nodes;		/* node ids */
	size_t n;
} sb__chart_job_t;

struct sb_chart {
	char **names;		/* by node id */
	size_t *order;		/* node ids in row order */
	size_t nnodes, cap_nodes;
	sb__chart_job_t *jobs;
	size_t njobs, cap_jobs;
};

/* One box: job @job on the node of row @row, in lane @lane of the row
 * (the job's times are copied in for sorting). */
typedef struct {
	size_t row, job, lane;
	int64_t start, end;
} sb__chart_box_t;

typedef struct {
	sb__chart_box_t *boxes;	/* by row, then start, end, job */
	size_t nboxes;
	size_t *lanes;		/* by row: lanes used (at least 1) */
	int64_t t0, t1;		/* the time axis (see chart.h) */
} sb__chart_layout_t;

/*
 * Boxes, lanes and the time axis of @c into *@l (free with
 * sb__chart_layout_fini). 0, or -1 with errno ENOENT (no job) or ENOMEM.
 * O(b log b + N).
 */
int sb__chart_layout(const sb_chart_t *c, sb__chart_layout_t *l);
void sb__chart_layout_fini(sb__chart_layout_t *l);

/* Where a job's box ends: its end, or the axis' end for an open end. */
static inline int64_t sb__chart_end(const sb__chart_job_t *j,
				    const sb__chart_layout_t *l)
{
	return j->end == INT64_MAX ? l->t1 : j->end;
}

/* Row order of names: hostlist order, then strcmp (a total order). */
int sb__chart_name_cmp(const char *a, const char *b);

/* round(a * b / d), half up, for a, b >= 0 and d > 0, without overflow
 * of the product. */
int64_t sb__chart_muldiv(int64_t a, int64_t b, int64_t d);

/*
 * chart_svg.c's drawing helpers, which chart_plot.c draws with too, so
 * that both kinds of chart look alike: the palette, a coordinate in
 * tenths of a pixel as "12.3", XML-escaped text, the time axis' tick
 * step (at most 12 intervals over @span seconds, in @unit seconds or
 * in the axis' own steps when 0) and a time relative to the axis' start
 * in its terms ("2h", "1h30m").
 */
extern const char *const sb__chart_palette[SB_CHART_COLOURS];
void sb__chart_add_px(sb_strbuf_t *b, int64_t tenths);
void sb__chart_add_text(sb_strbuf_t *b, const char *s);
int64_t sb__chart_tick_step(int64_t span, int64_t unit);
/* An SVG document's start: the <svg> element of @width x @height, a
 * white background, @title (when not NULL) as a heading at the top. */
void sb__chart_svg_head(sb_strbuf_t *b, int64_t width, int64_t height,
			const char *title);
/* The legend of @nkeys keys from @y down, swatches of @palette's
 * colours, wrapping at @width (only measured when @b is NULL); the y
 * below it. */
int64_t sb__chart_legend(sb_strbuf_t *b, const char *const *keys,
			 size_t nkeys, int64_t left, int64_t width, int64_t y,
			 const char *const *palette);
void sb__chart_add_axis_time(sb_strbuf_t *b, int64_t rel,
			     const sb_chart_opts_t *o);

#endif /* SB_CHART_PRIV_H */
