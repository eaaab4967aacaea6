/*
 * chart_svg.c - the drawing of a chart (sb_chart_svg).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Every coordinate is an integer number of tenths of a pixel, printed
 * as "12.3": the same chart gives the same bytes on every machine.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "chart_priv.h"
#include "sb_time.h"
#include "strbuf.h"

/* Geometry, in pixels. Text is 12 px sans-serif, about 7 px a character. */
#define CHAR_W 7
#define PAD 8
#define PLOT_W 720
#define LANE_H 20
#define ROW_GAP 4
#define MAX_TICKS 12

const char *const sb__chart_palette[SB_CHART_COLOURS] = {
	"#a6cee3", "#fdbf6f", "#b2df8a", "#fb9a99", "#cab2d6", "#ffff99",
	"#80cdc1", "#f4a582", "#bababa", "#c2a5cf", "#d9ef8b", "#92c5de",
};

/* Steps for an axis in seconds: then days times 1, 2, 5, 10, 20, 50... */
static const int64_t _steps[] = {
	1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800,
	3600, 7200, 10800, 21600, 43200,
};

/* A tenth-of-pixel coordinate as "12.3". */
void sb__chart_add_px(sb_strbuf_t *b, int64_t tenths)
{
	sb_strbuf_addf(b, "%lld.%lld", (long long) (tenths / 10),
		       (long long) (tenths % 10));
}

/* Text content, XML-escaped. */
void sb__chart_add_text(sb_strbuf_t *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': sb_strbuf_add(b, "&amp;"); break;
		case '<': sb_strbuf_add(b, "&lt;"); break;
		case '>': sb_strbuf_add(b, "&gt;"); break;
		case '"': sb_strbuf_add(b, "&quot;"); break;
		default: sb_strbuf_addn(b, s, 1); break;
		}
	}
}

/* 1, 2, 5 times a power of ten: the @i-th (0: 1, 1: 2, 2: 5, 3: 10...). */
static int64_t _nice(size_t i)
{
	static const int64_t m[3] = { 1, 2, 5 };
	int64_t p = 1;

	for (; i >= 3 && p < INT64_C(1) << 50; i -= 3)
		p *= 10;
	return m[i % 3] * p;
}

/* The tick step: the smallest step with at most MAX_TICKS intervals. */
int64_t sb__chart_tick_step(int64_t span, int64_t unit)
{
	size_t i;

	if (unit) {
		for (i = 0;; i++)
			if (_nice(i) > SB_CHART_TIME_MAX / unit ||
			    span / (unit * _nice(i)) <= MAX_TICKS)
				return unit * _nice(i);
	}
	for (i = 0; i < sizeof(_steps) / sizeof(_steps[0]); i++)
		if (span / _steps[i] <= MAX_TICKS)
			return _steps[i];
	for (i = 0;; i++)
		if (span / (86400 * _nice(i)) <= MAX_TICKS)
			return 86400 * _nice(i);
}

/* Elapsed seconds as "2d3h", "1h30m", "45s", "0". */
static void _add_elapsed(sb_strbuf_t *b, int64_t s)
{
	static const struct { int64_t len; const char *name; } u[] = {
		{ 86400, "d" }, { 3600, "h" }, { 60, "m" }, { 1, "s" },
	};
	size_t i;

	if (s < 0) {
		sb_strbuf_add(b, "-");
		s = -s;
	}
	if (!s)
		sb_strbuf_add(b, "0");
	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++)
		if (s >= u[i].len) {
			sb_strbuf_addf(b, "%lld%s", (long long) (s / u[i].len),
				       u[i].name);
			s %= u[i].len;
		}
}

/* A time relative to t0 in the axis' terms: "2h", "2.5h" or "1h30m". */
void sb__chart_add_axis_time(sb_strbuf_t *b, int64_t rel,
			     const sb_chart_opts_t *o)
{
	int64_t tenths;

	if (!o->unit) {
		_add_elapsed(b, rel);
		return;
	}
	tenths = sb__chart_muldiv(rel, 10, o->unit);
	sb_strbuf_addf(b, "%lld", (long long) (tenths / 10));
	if (tenths % 10)
		sb_strbuf_addf(b, ".%lld", (long long) (tenths % 10));
	sb_strbuf_add(b, o->unit_name ? o->unit_name : "");
}

/* x of time @t, in tenths of a pixel. */
static int64_t _x(const sb__chart_layout_t *l, int64_t left, int64_t t)
{
	return left * 10 + (t - l->t0) * (PLOT_W * 10) / (l->t1 - l->t0);
}

static int _key_cmp(const void *pa, const void *pb)
{
	return sb__chart_name_cmp(*(const char *const *) pa,
				  *(const char *const *) pb);
}

/* The distinct keys, sorted; *n of them. */
static const char **_keys(const sb_chart_t *c, size_t *n)
{
	const char **k = malloc(c->njobs * sizeof(*k));
	size_t i, m = 0;

	if (!k)
		return NULL;
	for (i = 0; i < c->njobs; i++)
		k[i] = c->jobs[i].key;
	qsort(k, c->njobs, sizeof(*k), _key_cmp);
	for (i = 0; i < c->njobs; i++)
		if (!m || strcmp(k[m - 1], k[i]))
			k[m++] = k[i];
	*n = m;
	return k;
}

static const char *_colour(const char **keys, size_t nkeys, const char *key)
{
	size_t lo = 0, hi = nkeys;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int r = sb__chart_name_cmp(keys[mid], key);

		if (!r)
			return sb__chart_palette[mid % SB_CHART_COLOURS];
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return sb__chart_palette[0];	/* not reached: every key is in @keys */
}

/* "; 4 jobs on 4 nodes, makespan 9h, utilisation 69.44%". */
static void _add_summary(sb_strbuf_t *b, const sb_chart_stats_t *st,
			 const sb_chart_opts_t *o, bool after)
{
	sb_strbuf_addf(b, "%s%zu job%s on %zu node%s, makespan ",
		       after ? "; " : "", st->jobs, st->jobs == 1 ? "" : "s",
		       st->nodes, st->nodes == 1 ? "" : "s");
	sb__chart_add_axis_time(b, st->makespan, o);
	sb_strbuf_addf(b, ", utilisation %lld.%02lld%%",
		       (long long) (st->util_bp / 100),
		       (long long) (st->util_bp % 100));
	if (st->open)
		sb_strbuf_addf(b, ", %zu open-ended", st->open);
}

static void _add_box(sb_strbuf_t *b, const sb_chart_t *c,
		     const sb__chart_layout_t *l, const sb__chart_box_t *bx,
		     int64_t left, int64_t row_top, const char *fill,
		     const sb_chart_opts_t *o)
{
	const sb__chart_job_t *j = &c->jobs[bx->job];
	int64_t x1 = _x(l, left, j->start);
	int64_t x2 = _x(l, left, sb__chart_end(j, l));
	int64_t y = row_top + (int64_t) bx->lane * LANE_H + 1;
	int64_t w = x2 - x1 < 10 ? 10 : x2 - x1;

	sb_strbuf_add(b, "<g><title>");
	sb__chart_add_text(b, j->label);
	if (strcmp(j->key, j->label)) {
		sb_strbuf_add(b, " (");
		sb__chart_add_text(b, j->key);
		sb_strbuf_add(b, ")");
	}
	sb_strbuf_add(b, " on ");
	sb__chart_add_text(b, c->names[c->order[bx->row]]);
	sb_strbuf_add(b, ": ");
	sb__chart_add_axis_time(b, j->start - l->t0, o);
	sb_strbuf_add(b, " to ");
	if (j->end == SB_TIME_INFINITE)
		sb_strbuf_add(b, "open end");
	else
		sb__chart_add_axis_time(b, j->end - l->t0, o);
	sb_strbuf_add(b, "</title><rect x=\"");
	sb__chart_add_px(b, x1);
	sb_strbuf_addf(b, "\" y=\"%lld\" width=\"", (long long) y);
	sb__chart_add_px(b, w);
	sb_strbuf_addf(b, "\" height=\"%d\" fill=\"%s\" stroke=\"#333333\"%s/>",
		       LANE_H - 2, fill, j->end == SB_TIME_INFINITE ?
		       " stroke-dasharray=\"4 2\"" : "");
	/* The label, when it fits in the box. */
	if ((int64_t) strlen(j->label) * CHAR_W * 10 + 40 <= w) {
		sb_strbuf_add(b, "<text x=\"");
		sb__chart_add_px(b, x1 + w / 2);
		sb_strbuf_addf(b, "\" y=\"%lld\" text-anchor=\"middle\">",
			       (long long) (y + LANE_H / 2 + 3));
		sb__chart_add_text(b, j->label);
		sb_strbuf_add(b, "</text>");
	}
	sb_strbuf_add(b, "</g>\n");
}

void sb__chart_svg_head(sb_strbuf_t *b, int64_t width, int64_t height,
			const char *title)
{
	sb_strbuf_add(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	sb_strbuf_addf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
		       "width=\"%lld\" height=\"%lld\" "
		       "viewBox=\"0 0 %lld %lld\" "
		       "font-family=\"sans-serif\" font-size=\"12\">\n",
		       (long long) width, (long long) height,
		       (long long) width, (long long) height);
	sb_strbuf_add(b, "<rect width=\"100%\" height=\"100%\" "
		      "fill=\"#ffffff\"/>\n");
	if (title) {
		sb_strbuf_addf(b, "<text x=\"%d\" y=\"22\" font-size=\"14\" "
			       "font-weight=\"bold\">", PAD);
		sb__chart_add_text(b, title);
		sb_strbuf_add(b, "</text>\n");
	}
}

/*
 * The legend from @y down: a swatch of @palette's colour and the key for
 * each key, in rows that wrap at @width. Drawn into @b, or only measured
 * when @b is NULL. Returns the y below it.
 */
int64_t sb__chart_legend(sb_strbuf_t *b, const char *const *keys,
			 size_t nkeys, int64_t left, int64_t width, int64_t y,
			 const char *const *palette)
{
	int64_t x = left;
	size_t i;

	for (i = 0; i < nkeys; i++) {
		int64_t w = 16 + (int64_t) strlen(keys[i]) * CHAR_W + 16;

		if (x + w > width && x > left) {
			y += 20;
			x = left;
		}
		if (b) {
			sb_strbuf_addf(b, "<rect x=\"%lld\" y=\"%lld\" "
				       "width=\"12\" height=\"12\" "
				       "fill=\"%s\" stroke=\"#333333\"/>"
				       "<text x=\"%lld\" y=\"%lld\">",
				       (long long) x, (long long) y + 4,
				       palette[i % SB_CHART_COLOURS],
				       (long long) x + 16, (long long) y + 14);
			sb__chart_add_text(b, keys[i]);
			sb_strbuf_add(b, "</text>\n");
		}
		x += w;
	}
	return y + 24;
}

char *sb_chart_svg(const sb_chart_t *c, const sb_chart_opts_t *o)
{
	static const sb_chart_opts_t none = { 0 };
	sb_strbuf_t b = SB_STRBUF_INIT;
	sb__chart_layout_t l;
	sb_chart_stats_t st;
	const char **keys = NULL;
	int64_t *top = NULL, left, width, height, y, step, t, x;
	size_t i, r, nkeys = 0, maxlen = 1;
	char *svg = NULL;

	if (!o)
		o = &none;
	if (!c || o->unit < 0 || o->unit > SB_CHART_TIME_MAX) {
		errno = EINVAL;
		return NULL;
	}
	if (sb__chart_layout(c, &l))
		return NULL;
	if (o->summary && sb_chart_stats(c, &st))
		goto out;
	if (!(keys = _keys(c, &nkeys)) ||
	    !(top = malloc((c->nnodes + 1) * sizeof(*top))))
		goto out;
	for (r = 0; r < c->nnodes; r++)
		if (strlen(c->names[c->order[r]]) > maxlen)
			maxlen = strlen(c->names[c->order[r]]);
	left = PAD + (int64_t) maxlen * CHAR_W + PAD;
	width = left + PLOT_W + 3 * PAD;
	y = o->title ? 36 : PAD;
	for (r = 0; r < c->nnodes; r++) {
		top[r] = y;
		y += (int64_t) l.lanes[r] * LANE_H + ROW_GAP;
	}
	top[c->nnodes] = y;
	/* Below the rows: axis labels, caption, legend. */
	height = y + 24 + (o->caption || o->summary ? 20 : 0);
	if (o->legend)
		height = sb__chart_legend(NULL, keys, nkeys, left, width,
					  height, sb__chart_palette);
	height += PAD;

	sb__chart_svg_head(&b, width, height, o->title);
	/* Grid lines and tick labels, then the axis. */
	step = sb__chart_tick_step(l.t1 - l.t0, o->unit);
	for (t = 0; t <= l.t1 - l.t0; t += step) {
		x = _x(&l, left, l.t0 + t);
		sb_strbuf_add(&b, "<line x1=\"");
		sb__chart_add_px(&b, x);
		sb_strbuf_addf(&b, "\" y1=\"%lld\" x2=\"", (long long) top[0]);
		sb__chart_add_px(&b, x);
		sb_strbuf_addf(&b, "\" y2=\"%lld\" stroke=\"#dddddd\"/>\n",
			       (long long) y + 4);
		sb_strbuf_add(&b, "<text x=\"");
		sb__chart_add_px(&b, x);
		sb_strbuf_addf(&b, "\" y=\"%lld\" text-anchor=\"middle\">",
			       (long long) y + 18);
		sb__chart_add_axis_time(&b, t, o);
		sb_strbuf_add(&b, "</text>\n");
	}
	sb_strbuf_addf(&b, "<line x1=\"%lld\" y1=\"%lld\" x2=\"%lld\" "
		       "y2=\"%lld\" stroke=\"#000000\"/>\n", (long long) left,
		       (long long) y, (long long) left + PLOT_W, (long long) y);
	/* Rows: the node's name, then its boxes. */
	for (r = 0, i = 0; r < c->nnodes; r++) {
		sb_strbuf_addf(&b, "<text x=\"%lld\" y=\"%lld\" "
			       "text-anchor=\"end\">", (long long) left - PAD,
			       (long long) (top[r] + (top[r + 1] - ROW_GAP -
						      top[r]) / 2 + 4));
		sb__chart_add_text(&b, c->names[c->order[r]]);
		sb_strbuf_add(&b, "</text>\n");
		for (; i < l.nboxes && l.boxes[i].row == r; i++)
			_add_box(&b, c, &l, &l.boxes[i], left, top[r],
				 _colour(keys, nkeys,
					 c->jobs[l.boxes[i].job].key), o);
	}
	y += 24;
	if (o->caption || o->summary) {
		sb_strbuf_addf(&b, "<text x=\"%lld\" y=\"%lld\">",
			       (long long) left, (long long) y + 12);
		if (o->caption)
			sb__chart_add_text(&b, o->caption);
		if (o->summary)
			_add_summary(&b, &st, o, o->caption != NULL);
		sb_strbuf_add(&b, "</text>\n");
		y += 20;
	}
	if (o->legend)
		sb__chart_legend(&b, keys, nkeys, left, width, y,
				 sb__chart_palette);
	sb_strbuf_add(&b, "</svg>\n");
	svg = sb_strbuf_finish(&b);
out:
	if (!svg)
		free(sb_strbuf_finish(&b));
	free(top);
	free(keys);
	sb__chart_layout_fini(&l);
	return svg;
}
