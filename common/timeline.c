/*
 * timeline.c - per-bucket node timeline for earliest-start queries (see
 * timeline.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The aggregate is a bare timetree, not an sb_planner: a node's segments
 * are replaced as a whole when its state changes, and doing that through
 * spans could fail half way (the old and new spans of one node cannot
 * coexist in a planner of N units). With the tree, all allocation (the new
 * points) happens first and can be undone; the value updates and releases
 * that follow cannot fail.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "busy_set.h"
#include "planner.h"	/* sb_time_add() */
#include "timeline.h"
#include "strbuf.h"
#include "timetree.h"

struct tl_node {
	int64_t until;
	bool down;
	uint32_t seq;		/* last reservation number on this node */
	sb_window_t *res;	/* reservations, and their ids */
	int64_t *res_id;
	size_t nres, capres;
	sb_busy_set_t busy;	/* until, down and reservations, merged */
};

struct sb_timeline {
	int64_t base, end;
	size_t n;
	struct tl_node *nodes;
	sb_timetree_t *tt;	/* nodes free from each point on */
};

sb_timeline_t *sb_timeline_create(int64_t base, int64_t horizon,
				  size_t nnodes)
{
	sb_timeline_t *tl;

	if (horizon < 1 || !nnodes || nnodes > INT32_MAX) {
		errno = EINVAL;
		return NULL;
	}
	if (!(tl = calloc(1, sizeof(*tl))) ||
	    !(tl->nodes = calloc(nnodes, sizeof(*tl->nodes))) ||
	    !(tl->tt = sb_timetree_create()) ||
	    sb_timetree_acquire(tl->tt, base, (int64_t) nnodes) < 0) {
		sb_timeline_destroy(tl);
		errno = ENOMEM;
		return NULL;
	}
	tl->base = base;
	tl->end = sb_time_add(base, horizon);
	tl->n = nnodes;
	for (size_t i = 0; i < nnodes; i++)
		tl->nodes[i].until = base;
	return tl;
}

void sb_timeline_destroy(sb_timeline_t *tl)
{
	if (!tl)
		return;
	if (tl->nodes)
		for (size_t i = 0; i < tl->n; i++) {
			free(tl->nodes[i].res);
			free(tl->nodes[i].res_id);
			sb_busy_set_fini(&tl->nodes[i].busy);
		}
	free(tl->nodes);
	sb_timetree_destroy(tl->tt);
	free(tl);
}

size_t sb_timeline_nodes(const sb_timeline_t *tl)
{
	return tl ? tl->n : 0;
}

/*
 * Replace node @i's busy set by @nb (taken over). Only the acquisition of
 * the new points can fail, and it is undone before anything else changes.
 */
static int _swap(sb_timeline_t *tl, size_t i, sb_busy_set_t nb)
{
	struct tl_node *nd = &tl->nodes[i];
	const sb_window_t *old = nd->busy.w, *nw = nb.w;
	size_t j;

	for (j = 0; j < nb.n; j++) {
		if (sb_timetree_acquire(tl->tt, nw[j].start, 0) < 0)
			goto undo;
		if (sb_timetree_acquire(tl->tt, nw[j].end, 0) < 0) {
			(void) sb_timetree_release(tl->tt, nw[j].start);
			goto undo;
		}
	}
	for (j = 0; j < nd->busy.n; j++)
		(void) sb_timetree_add(tl->tt, old[j].start, old[j].end, 1);
	for (j = 0; j < nb.n; j++)
		(void) sb_timetree_add(tl->tt, nw[j].start, nw[j].end, -1);
	for (j = 0; j < nd->busy.n; j++) {
		(void) sb_timetree_release(tl->tt, old[j].start);
		(void) sb_timetree_release(tl->tt, old[j].end);
	}
	sb_busy_set_fini(&nd->busy);
	nd->busy = nb;
	return 0;
undo:
	while (j--) {
		(void) sb_timetree_release(tl->tt, nw[j].start);
		(void) sb_timetree_release(tl->tt, nw[j].end);
	}
	sb_busy_set_fini(&nb);
	errno = ENOMEM;
	return -1;
}

/* Rebuild node @i's segments for the proposed state; 0 or -1 (ENOMEM). */
static int _update(sb_timeline_t *tl, size_t i, int64_t until, bool down,
		   size_t nres)
{
	sb_busy_set_t nb;

	if (sb_busy_set_build(tl->base, tl->end, until, down,
			      tl->nodes[i].res, nres, &nb))
		return -1;
	return _swap(tl, i, nb);
}

int sb_timeline_set_busy(sb_timeline_t *tl, size_t node, int64_t until)
{
	struct tl_node *nd;

	if (!tl || node >= tl->n) {
		errno = EINVAL;
		return -1;
	}
	nd = &tl->nodes[node];
	if (_update(tl, node, until, nd->down, nd->nres) < 0)
		return -1;
	nd->until = until;
	return 0;
}

int sb_timeline_set_down(sb_timeline_t *tl, size_t node, bool down)
{
	struct tl_node *nd;

	if (!tl || node >= tl->n) {
		errno = EINVAL;
		return -1;
	}
	nd = &tl->nodes[node];
	if (_update(tl, node, nd->until, down, nd->nres) < 0)
		return -1;
	nd->down = down;
	return 0;
}

int64_t sb_timeline_reserve(sb_timeline_t *tl, size_t node, int64_t start,
			    int64_t duration)
{
	struct tl_node *nd;
	sb_window_t *nr;
	int64_t id, *ni;

	if (!tl || node >= tl->n || duration < 1 || start < tl->base ||
	    start >= tl->end) {
		errno = EINVAL;
		return -1;
	}
	nd = &tl->nodes[node];
	if (nd->nres == nd->capres) {
		size_t cap = nd->capres ? nd->capres * 2 : 4;

		/* A grown first array alone is harmless: capres stays. */
		if (!(nr = realloc(nd->res, cap * sizeof(*nr)))) {
			errno = ENOMEM;
			return -1;
		}
		nd->res = nr;
		if (!(ni = realloc(nd->res_id, cap * sizeof(*ni)))) {
			errno = ENOMEM;
			return -1;
		}
		nd->res_id = ni;
		nd->capres = cap;
	}
	/* Ids: node + 1 in the high half, a per-node number in the low. */
	id = ((int64_t) (node + 1) << 32) | (uint32_t) (nd->seq + 1);
	nd->res[nd->nres] = (sb_window_t) { start,
		sb_time_add(start, duration) };
	nd->res_id[nd->nres] = id;
	if (_update(tl, node, nd->until, nd->down, nd->nres + 1) < 0)
		return -1;
	nd->nres++;
	nd->seq++;
	return id;
}

int sb_timeline_unreserve(sb_timeline_t *tl, int64_t id)
{
	struct tl_node *nd;
	sb_window_t gone;
	size_t node, i;

	if (!tl) {
		errno = EINVAL;
		return -1;
	}
	if (id <= 0 || (node = (size_t) (id >> 32)) == 0 || node > tl->n) {
		errno = ENOENT;
		return -1;
	}
	nd = &tl->nodes[node - 1];
	for (i = 0; i < nd->nres && nd->res_id[i] != id; i++)
		;
	if (i == nd->nres) {
		errno = ENOENT;
		return -1;
	}
	/* Move it to the end, rebuild without it, put it back on failure. */
	gone = nd->res[i];
	nd->res[i] = nd->res[nd->nres - 1];
	nd->res[nd->nres - 1] = gone;
	nd->res_id[i] = nd->res_id[nd->nres - 1];
	nd->res_id[nd->nres - 1] = id;
	if (_update(tl, node - 1, nd->until, nd->down, nd->nres - 1) < 0)
		return -1;
	nd->nres--;
	return 0;
}

int64_t sb_timeline_free_at(const sb_timeline_t *tl, int64_t t)
{
	int64_t v = 0;

	if (!tl || t < tl->base || t >= tl->end) {
		errno = EINVAL;
		return -1;
	}
	(void) sb_timetree_floor(tl->tt, t, NULL, &v);
	return v;
}

static bool _window(const sb_timeline_t *tl, int64_t t, int64_t d,
		    int64_t *e)
{
	if (!tl || d < 1 || t < tl->base || t >= tl->end)
		return false;
	*e = sb_time_add(t, d);
	return *e <= tl->end;
}

int sb_timeline_node_free(const sb_timeline_t *tl, size_t node, int64_t t,
			  int64_t d)
{
	int64_t e;

	if (!_window(tl, t, d, &e) || node >= tl->n) {
		errno = EINVAL;
		return -1;
	}
	return sb_busy_set_free(&tl->nodes[node].busy, t, e);
}

/* Nodes free over [s, e), up to @cap written to @out; stop at @stop. */
static size_t _collect(const sb_timeline_t *tl, int64_t s, int64_t e,
		       size_t *out, size_t cap, size_t stop)
{
	size_t cnt = 0;

	for (size_t i = 0; i < tl->n && cnt < stop; i++) {
		if (!sb_busy_set_free(&tl->nodes[i].busy, s, e))
			continue;
		if (out && cnt < cap)
			out[cnt] = i;
		cnt++;
	}
	return cnt;
}

int64_t sb_timeline_usable(const sb_timeline_t *tl, int64_t t, int64_t d,
			   size_t *out, size_t cap)
{
	int64_t e;

	if (!_window(tl, t, d, &e) || (!out && cap)) {
		errno = EINVAL;
		return -1;
	}
	return (int64_t) _collect(tl, t, e, out, cap, SIZE_MAX);
}

int sb_timeline_earliest(const sb_timeline_t *tl, int64_t t, int64_t d,
			 size_t k, int64_t *start, size_t *nodes)
{
	int64_t s;

	if (!tl || !start || d < 1) {
		errno = EINVAL;
		return -1;
	}
	if (k > tl->n) {
		errno = ERANGE;
		return -1;
	}
	for (s = t < tl->base ? tl->base : t; ; ) {
		/* Step 1: at least k free at every instant of the window. */
		if (sb_timetree_fit(tl->tt, s, d, (int64_t) k, tl->end, &s) < 0)
			break;
		/* Step 2: k nodes each free for all of it. */
		if (_collect(tl, s, sb_time_add(s, d), nodes, k, k) >= k) {
			*start = s;
			return 0;
		}
		if (sb_timetree_higher(tl->tt, s, &s, NULL) < 0)
			break;
	}
	errno = ENOENT;
	return -1;
}

char *sb_timeline_fmt(const sb_timeline_t *tl)
{
	sb_strbuf_t b = SB_STRBUF_INIT;

	if (!tl) {
		errno = EINVAL;
		return NULL;
	}
	for (size_t i = 0; i < tl->n; i++) {
		const struct tl_node *nd = &tl->nodes[i];

		sb_strbuf_addf(&b, "%s%zu:", i ? " " : "", i);
		if (nd->down) {
			sb_strbuf_add(&b, "down");
			continue;
		}
		if (!nd->busy.n)
			sb_strbuf_add(&b, "-");
		for (size_t j = 0; j < nd->busy.n; j++) {
			sb_strbuf_addf(&b, "%s[%" PRId64 ",", j ? "+" : "",
				       nd->busy.w[j].start);
			if (nd->busy.w[j].end == INT64_MAX)
				sb_strbuf_add(&b, "inf");
			else
				sb_strbuf_addf(&b, "%" PRId64,
					       nd->busy.w[j].end);
			sb_strbuf_add(&b, ")");
		}
	}
	return sb_strbuf_finish(&b);
}

struct edge {
	int64_t at, delta;
};

static int _edge_cmp(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	return (x->at > y->at) - (x->at < y->at);
}

struct check_walk {
	const sb_timeline_t *tl;
	const struct edge *e;
	size_t ne, i;
	int64_t busy;
	bool bad, first;
};

static int _check_point(int64_t at, int64_t val, uint32_t refs, void *arg)
{
	struct check_walk *c = arg;
	uint32_t want = 0;

	if (c->first) {
		c->first = false;
		c->bad |= at != c->tl->base;
		want = 1;
	}
	if (c->i < c->ne && c->e[c->i].at < at)
		c->bad = true;
	for (; c->i < c->ne && c->e[c->i].at == at; c->i++) {
		c->busy += c->e[c->i].delta;
		want++;
	}
	if (refs != want || val != (int64_t) c->tl->n - c->busy)
		c->bad = true;
	return c->bad;
}

int sb_timeline_check(const sb_timeline_t *tl)
{
	struct check_walk c = { .tl = tl, .first = true };
	struct edge *e = NULL;
	size_t ne = 0, total = 0;
	int rc = -1;

	if (!tl) {
		errno = EINVAL;
		return -1;
	}
	if (sb_timetree_check(tl->tt) < 0)
		return -1;
	for (size_t i = 0; i < tl->n; i++) {
		const struct tl_node *nd = &tl->nodes[i];
		sb_busy_set_t want;
		bool ok;

		if (sb_busy_set_build(tl->base, tl->end, nd->until, nd->down,
				      nd->res, nd->nres, &want))
			return -1;
		ok = sb_busy_set_equal(&want, &nd->busy);
		sb_busy_set_fini(&want);
		if (!ok || nd->nres > nd->capres ||
		    sb_busy_set_check(&nd->busy, tl->base, tl->end))
			goto out;
		total += nd->busy.n;
	}
	if (!(e = malloc((2 * total + 1) * sizeof(*e)))) {
		errno = ENOMEM;
		return -1;
	}
	for (size_t i = 0; i < tl->n; i++)
		for (size_t j = 0; j < tl->nodes[i].busy.n; j++) {
			const sb_window_t *w = &tl->nodes[i].busy.w[j];

			e[ne++] = (struct edge) { w->start, 1 };
			e[ne++] = (struct edge) { w->end, -1 };
		}
	qsort(e, ne, sizeof(*e), _edge_cmp);
	c.e = e;
	c.ne = ne;
	(void) sb_timetree_walk(tl->tt, _check_point, &c);
	if (c.bad || c.first || c.i != ne)
		goto out;
	rc = 0;
out:
	free(e);
	if (rc < 0)
		errno = EFAULT;
	return rc;
}
