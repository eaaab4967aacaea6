/*
 * chart.c - a node x time chart of jobs, drawn as SVG.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The model, its layout, its numbers and its text form; the drawing is
 * in chart_svg.c. The layout of the data: chart_priv.h.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "chart_priv.h"
#include "hostlist_fmt.h"
#include "sb_time.h"
#include "strbuf.h"


/* ---------------------------------------------------------------- */
/* Names and rows                                                    */

int sb__chart_name_cmp(const char *a, const char *b)
{
	int r = sb_hostlist_cmp(a, b);

	return r ? r : strcmp(a, b);
}

static bool _name_ok(const char *s)
{
	if (!s || !*s)
		return false;
	for (; *s; s++)
		if ((unsigned char) *s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

/* Position of @name in row order: its row (*found true) or where it
 * would go. O(log N). */
static size_t _find(const sb_chart_t *c, const char *name, bool *found)
{
	size_t lo = 0, hi = c->nnodes;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int r = sb__chart_name_cmp(c->names[c->order[mid]], name);

		if (!r) {
			*found = true;
			return mid;
		}
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

/* Room for @more nodes, so that inserting them cannot fail. */
static int _reserve_nodes(sb_chart_t *c, size_t more)
{
	size_t cap;
	char **names;
	size_t *order;

	if (more > SB_CHART_NODES_MAX - c->nnodes) {
		errno = E2BIG;
		return -1;
	}
	if (c->nnodes + more <= c->cap_nodes)
		return 0;
	cap = c->cap_nodes ? 2 * c->cap_nodes : 16;
	while (cap < c->nnodes + more)
		cap *= 2;
	if (!(names = realloc(c->names, cap * sizeof(*names))))
		return -1;
	c->names = names;
	if (!(order = realloc(c->order, cap * sizeof(*order))))
		return -1;
	c->order = order;
	c->cap_nodes = cap;
	return 0;
}

/* Insert the node @name (owned by the chart from now on) at row @pos;
 * room was reserved. Returns its id. */
static size_t _insert_node(sb_chart_t *c, char *name, size_t pos)
{
	size_t id = c->nnodes++;

	c->names[id] = name;
	memmove(c->order + pos + 1, c->order + pos,
		(id - pos) * sizeof(*c->order));
	c->order[pos] = id;
	return id;
}

/* ---------------------------------------------------------------- */
/* Lifecycle and content                                             */

sb_chart_t *sb_chart_create(void)
{
	return calloc(1, sizeof(sb_chart_t));
}

void sb_chart_destroy(sb_chart_t *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nnodes; i++)
		free(c->names[i]);
	for (i = 0; i < c->njobs; i++) {
		free(c->jobs[i].label);
		free(c->jobs[i].key);
		free(c->jobs[i].nodes);
	}
	free(c->names);
	free(c->order);
	free(c->jobs);
	free(c);
}

int sb_chart_add_node(sb_chart_t *c, const char *name)
{
	bool found;
	size_t pos;
	char *dup;

	if (!c || !_name_ok(name)) {
		errno = EINVAL;
		return -1;
	}
	pos = _find(c, name, &found);
	if (found)
		return 0;
	if (_reserve_nodes(c, 1) || !(dup = strdup(name)))
		return -1;
	_insert_node(c, dup, pos);
	return 0;
}

static bool _time_ok(int64_t t)
{
	return t <= SB_CHART_TIME_MAX && t >= -SB_CHART_TIME_MAX;
}

static int _cmp_str_ptr(const void *a, const void *b)
{
	return strcmp(*(const char *const *) a, *(const char *const *) b);
}

/* Are the @n names well formed and distinct? O(n log n). */
static int _names_ok(const char *const *names, size_t n)
{
	const char **sorted;
	size_t i;
	int rc = -1;

	for (i = 0; i < n; i++)
		if (!_name_ok(names[i])) {
			errno = EINVAL;
			return -1;
		}
	if (!(sorted = malloc(n * sizeof(*sorted))))
		return -1;
	memcpy(sorted, names, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), _cmp_str_ptr);
	for (i = 1; i < n; i++)
		if (!strcmp(sorted[i - 1], sorted[i])) {
			errno = EINVAL;
			goto fail;
		}
	rc = 0;
fail:
	free(sorted);
	return rc;
}

int sb_chart_add_job(sb_chart_t *c, const char *label, const char *key,
		     int64_t start, int64_t end, const char *const *names,
		     size_t n)
{
	sb__chart_job_t j = { 0 };
	char **fresh = NULL;
	size_t i, nfresh = 0;
	int rc = -1;

	if (!key)
		key = label;
	if (!c || !names || !n || !_name_ok(label) || !_name_ok(key) ||
	    !_time_ok(start) || start > end ||
	    (end != SB_TIME_INFINITE && !_time_ok(end))) {
		errno = EINVAL;
		return -1;
	}
	if (_names_ok(names, n))
		return -1;
	/* Everything that can fail comes first: then nothing changes. */
	for (i = 0; i < n; i++) {
		bool found;

		_find(c, names[i], &found);
		nfresh += !found;
	}
	if (c->njobs == c->cap_jobs) {
		size_t cap = c->cap_jobs ? 2 * c->cap_jobs : 16;
		sb__chart_job_t *jobs = realloc(c->jobs, cap * sizeof(*jobs));

		if (!jobs)
			return -1;
		c->jobs = jobs;
		c->cap_jobs = cap;
	}
	if (_reserve_nodes(c, nfresh) ||
	    !(fresh = calloc(nfresh + 1, sizeof(*fresh))) ||
	    !(j.nodes = malloc(n * sizeof(*j.nodes))) ||
	    !(j.label = strdup(label)) || !(j.key = strdup(key)))
		goto fail;
	for (i = 0, nfresh = 0; i < n; i++) {
		bool found;

		_find(c, names[i], &found);
		if (!found && !(fresh[nfresh++] = strdup(names[i])))
			goto fail;
	}
	/* Commit. */
	for (i = 0, nfresh = 0; i < n; i++) {
		bool found;
		size_t pos = _find(c, names[i], &found);

		j.nodes[i] = found ? c->order[pos] :
			_insert_node(c, fresh[nfresh++], pos);
	}
	j.start = start;
	j.end = end;
	j.n = n;
	c->jobs[c->njobs++] = j;
	memset(&j, 0, sizeof(j));
	nfresh = 0;
	rc = 0;
fail:
	for (i = 0; fresh && fresh[i] && rc; i++)
		free(fresh[i]);
	free(fresh);
	free(j.nodes);
	free(j.label);
	free(j.key);
	return rc;
}

/* ---------------------------------------------------------------- */
/* Layout                                                            */

static int _box_cmp(const void *pa, const void *pb)
{
	const sb__chart_box_t *a = pa, *b = pb;

	if (a->row != b->row)
		return a->row < b->row ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->end != b->end)
		return a->end < b->end ? -1 : 1;
	return a->job < b->job ? -1 : a->job > b->job;
}

void sb__chart_layout_fini(sb__chart_layout_t *l)
{
	free(l->boxes);
	free(l->lanes);
	memset(l, 0, sizeof(*l));
}

/*
 * Boxes in row order, lanes, and the time axis. Lanes: in one row, in
 * box order, a box takes the lowest lane whose last box ended by its
 * start (a greedy interval colouring, optimal for intervals).
 */
int sb__chart_layout(const sb_chart_t *c, sb__chart_layout_t *l)
{
	int64_t *lane_end = NULL;
	size_t i, k, nlanes = 0, *row_of = NULL;
	int rc = -1;

	memset(l, 0, sizeof(*l));
	if (!c->njobs) {
		errno = ENOENT;
		return -1;
	}
	for (i = 0; i < c->njobs; i++)
		l->nboxes += c->jobs[i].n;
	if (!(l->boxes = malloc(l->nboxes * sizeof(*l->boxes))) ||
	    !(row_of = malloc(c->nnodes * sizeof(*row_of))) ||
	    !(l->lanes = malloc(c->nnodes * sizeof(*l->lanes))) ||
	    !(lane_end = malloc((c->njobs + 1) * sizeof(*lane_end))))
		goto fail;
	for (i = 0; i < c->nnodes; i++) {
		row_of[c->order[i]] = i;
		l->lanes[i] = 1;
	}
	l->t0 = SB_TIME_INFINITE;
	l->t1 = -SB_CHART_TIME_MAX;
	for (i = 0, k = 0; i < c->njobs; i++) {
		const sb__chart_job_t *j = &c->jobs[i];
		size_t m;

		if (j->start < l->t0)
			l->t0 = j->start;
		if (j->start + 1 > l->t1)
			l->t1 = j->start + 1;
		if (j->end != SB_TIME_INFINITE && j->end > l->t1)
			l->t1 = j->end;
		for (m = 0; m < j->n; m++, k++) {
			l->boxes[k].row = row_of[j->nodes[m]];
			l->boxes[k].job = i;
			l->boxes[k].start = j->start;
			l->boxes[k].end = j->end;
		}
	}
	qsort(l->boxes, l->nboxes, sizeof(*l->boxes), _box_cmp);
	for (i = 0; i < l->nboxes; i++) {
		const sb__chart_job_t *j = &c->jobs[l->boxes[i].job];

		if (!i || l->boxes[i].row != l->boxes[i - 1].row)
			nlanes = 0;
		for (k = 0; k < nlanes && lane_end[k] > j->start; k++)
			;
		if (k == nlanes)
			nlanes++;
		lane_end[k] = j->end;
		l->boxes[i].lane = k;
		if (nlanes > l->lanes[l->boxes[i].row])
			l->lanes[l->boxes[i].row] = nlanes;
	}
	rc = 0;
fail:
	free(lane_end);
	free(row_of);
	if (rc)
		sb__chart_layout_fini(l);
	return rc;
}

int64_t sb__chart_muldiv(int64_t a, int64_t b, int64_t d)
{
	unsigned __int128 p = (unsigned __int128) a * (uint64_t) b;

	return (int64_t) ((2 * p + (uint64_t) d) / (2 * (uint64_t) d));
}

typedef struct {
	int64_t s, e;
} _iv_t;

static int _iv_cmp(const void *pa, const void *pb)
{
	const _iv_t *a = pa, *b = pb;

	return a->s < b->s ? -1 : a->s > b->s;
}

/* Length of the union of @n intervals sorted by start. O(n). */
static int64_t _union(const _iv_t *iv, size_t n)
{
	int64_t len = 0, covered = INT64_MIN;
	size_t i;

	for (i = 0; i < n; i++) {
		int64_t s = iv[i].s < covered ? covered : iv[i].s;

		if (iv[i].e > s) {
			len += iv[i].e - s;
			covered = iv[i].e;
		}
	}
	return len;
}

int sb_chart_stats(const sb_chart_t *c, sb_chart_stats_t *st)
{
	sb__chart_layout_t l;
	_iv_t *iv = NULL;
	size_t i, from;
	int rc = -1;

	if (!c || !st) {
		errno = EINVAL;
		return -1;
	}
	if (sb__chart_layout(c, &l))
		return -1;
	if (!(iv = malloc(l.nboxes * sizeof(*iv))))
		goto fail;
	memset(st, 0, sizeof(*st));
	st->jobs = c->njobs;
	st->nodes = c->nnodes;
	st->t0 = l.t0;
	st->t1 = l.t1;
	st->makespan = l.t1 - l.t0;
	/* Busy: the union of each row's boxes (they come by start). */
	for (i = 0; i < l.nboxes; i++) {
		const sb__chart_job_t *j = &c->jobs[l.boxes[i].job];

		iv[i].s = j->start;
		iv[i].e = sb__chart_end(j, &l);
	}
	for (i = 0, from = 0; i <= l.nboxes; i++)
		if (i == l.nboxes || l.boxes[i].row != l.boxes[from].row) {
			st->busy += _union(iv + from, i - from);
			from = i;
		}
	/* Gaps: what the union of all jobs leaves of the axis. */
	for (i = 0; i < c->njobs; i++) {
		st->open += c->jobs[i].end == SB_TIME_INFINITE;
		iv[i].s = c->jobs[i].start;
		iv[i].e = sb__chart_end(&c->jobs[i], &l);
	}
	qsort(iv, c->njobs, sizeof(*iv), _iv_cmp);
	st->gaps = st->makespan - _union(iv, c->njobs);
	st->util_bp = sb__chart_muldiv(st->busy, 10000,
				       (int64_t) st->nodes * st->makespan);
	rc = 0;
fail:
	free(iv);
	sb__chart_layout_fini(&l);
	return rc;
}

/* ---------------------------------------------------------------- */
/* Text form                                                         */

static void _add_time(sb_strbuf_t *b, int64_t t)
{
	if (t == SB_TIME_INFINITE)
		sb_strbuf_add(b, "inf");
	else
		sb_strbuf_addf(b, "%lld", (long long) t);
}

char *sb_chart_fmt(const sb_chart_t *c)
{
	sb_strbuf_t b = SB_STRBUF_INIT;
	sb__chart_layout_t l = { 0 };
	size_t r, i = 0;

	if (!c) {
		errno = EINVAL;
		return NULL;
	}
	if (c->njobs && sb__chart_layout(c, &l))
		return NULL;
	for (r = 0; r < c->nnodes; r++) {
		bool any = false;

		sb_strbuf_addf(&b, "%s%s:", r ? " " : "",
			       c->names[c->order[r]]);
		for (; i < l.nboxes && l.boxes[i].row == r; i++) {
			const sb__chart_job_t *j = &c->jobs[l.boxes[i].job];

			sb_strbuf_addf(&b, "%s%s[", any ? "+" : "", j->label);
			_add_time(&b, j->start);
			sb_strbuf_add(&b, ",");
			_add_time(&b, j->end);
			sb_strbuf_add(&b, ")");
			any = true;
		}
		if (!any)
			sb_strbuf_add(&b, "-");
	}
	sb__chart_layout_fini(&l);
	return sb_strbuf_finish(&b);
}

/* ---------------------------------------------------------------- */

static int _fault(void)
{
	errno = EFAULT;
	return -1;
}

static int _cmp_size(const void *pa, const void *pb)
{
	size_t a = *(const size_t *) pa, b = *(const size_t *) pb;

	return a < b ? -1 : a > b;
}

int sb_chart_check(const sb_chart_t *c)
{
	size_t i, m, *ids = NULL;
	bool *seen = NULL;
	int rc = -1;

	if (!c) {
		errno = EINVAL;
		return -1;
	}
	if (c->nnodes > c->cap_nodes || c->njobs > c->cap_jobs ||
	    c->nnodes > SB_CHART_NODES_MAX)
		return _fault();
	if (c->nnodes && !(seen = calloc(c->nnodes, sizeof(*seen))))
		return -1;
	/* @order is a permutation of the ids, in strictly ascending rows. */
	for (i = 0; i < c->nnodes; i++) {
		if (c->order[i] >= c->nnodes || seen[c->order[i]] ||
		    !_name_ok(c->names[c->order[i]]) ||
		    (i && sb__chart_name_cmp(c->names[c->order[i - 1]],
				    c->names[c->order[i]]) >= 0)) {
			_fault();
			goto fail;
		}
		seen[c->order[i]] = true;
	}
	for (i = 0; i < c->njobs; i++) {
		const sb__chart_job_t *j = &c->jobs[i];

		if (!_name_ok(j->label) || !_name_ok(j->key) || !j->n ||
		    !_time_ok(j->start) || j->start > j->end ||
		    (j->end != SB_TIME_INFINITE && !_time_ok(j->end))) {
			_fault();
			goto fail;
		}
		free(ids);
		if (!(ids = malloc(j->n * sizeof(*ids))))
			goto fail;
		memcpy(ids, j->nodes, j->n * sizeof(*ids));
		qsort(ids, j->n, sizeof(*ids), _cmp_size);
		for (m = 0; m < j->n; m++)
			if (ids[m] >= c->nnodes ||
			    (m && ids[m - 1] == ids[m])) {
				_fault();
				goto fail;
			}
	}
	rc = 0;
fail:
	free(ids);
	free(seen);
	return rc;
}
