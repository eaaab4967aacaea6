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

#include "planner.h"	/* sb_time_add() */
#include "timeline.h"
#include "strbuf.h"
#include "timetree.h"

struct res {
	int64_t start, end, id;
};

struct seg {
	int64_t s, e;
};

struct tl_node {
	int64_t until;
	bool down;
	uint32_t seq;		/* last reservation number on this node */
	struct res *res;
	size_t nres, capres;
	struct seg *seg;	/* the busy set: sorted, merged */
	size_t nseg;
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
			free(tl->nodes[i].seg);
		}
	free(tl->nodes);
	sb_timetree_destroy(tl->tt);
	free(tl);
}

size_t sb_timeline_nodes(const sb_timeline_t *tl)
{
	return tl ? tl->n : 0;
}

static int _seg_cmp(const void *a, const void *b)
{
	const struct seg *x = a, *y = b;

	if (x->s != y->s)
		return (x->s > y->s) - (x->s < y->s);
	return (x->e > y->e) - (x->e < y->e);
}

/*
 * The busy set of a node in the given state, clipped to the horizon,
 * sorted and merged (touching segments too, so there are fewer points).
 * Returns a new array (NULL when empty or on ENOMEM, told apart by *ok).
 */
static struct seg *_build(const sb_timeline_t *tl, int64_t until, bool down,
			  const struct res *res, size_t nres, size_t *nseg,
			  bool *ok)
{
	struct seg *v;
	size_t n = 0, m = 0;

	*nseg = 0;
	*ok = true;
	if (!(v = malloc((nres + 1) * sizeof(*v)))) {
		*ok = false;
		return NULL;
	}
	if (down) {
		v[n++] = (struct seg) { tl->base, tl->end };
	} else {
		if (until > tl->base)
			v[n++] = (struct seg) { tl->base,
				until < tl->end ? until : tl->end };
		for (size_t i = 0; i < nres; i++) {
			int64_t e = res[i].end < tl->end ? res[i].end : tl->end;

			if (res[i].start < e)
				v[n++] = (struct seg) { res[i].start, e };
		}
	}
	if (!n) {
		free(v);
		return NULL;
	}
	qsort(v, n, sizeof(*v), _seg_cmp);
	for (size_t i = 1; i < n; i++) {
		if (v[i].s <= v[m].e) {
			if (v[i].e > v[m].e)
				v[m].e = v[i].e;
		} else {
			v[++m] = v[i];
		}
	}
	*nseg = m + 1;
	return v;
}

/*
 * Replace node @i's segments by @seg (taken over). Only the acquisition of
 * the new points can fail, and it is undone before anything else changes.
 */
static int _swap(sb_timeline_t *tl, size_t i, struct seg *seg, size_t nseg)
{
	struct tl_node *nd = &tl->nodes[i];
	size_t j;

	for (j = 0; j < nseg; j++) {
		if (sb_timetree_acquire(tl->tt, seg[j].s, 0) < 0)
			goto undo;
		if (sb_timetree_acquire(tl->tt, seg[j].e, 0) < 0) {
			(void) sb_timetree_release(tl->tt, seg[j].s);
			goto undo;
		}
	}
	for (j = 0; j < nd->nseg; j++)
		(void) sb_timetree_add(tl->tt, nd->seg[j].s, nd->seg[j].e, 1);
	for (j = 0; j < nseg; j++)
		(void) sb_timetree_add(tl->tt, seg[j].s, seg[j].e, -1);
	for (j = 0; j < nd->nseg; j++) {
		(void) sb_timetree_release(tl->tt, nd->seg[j].s);
		(void) sb_timetree_release(tl->tt, nd->seg[j].e);
	}
	free(nd->seg);
	nd->seg = seg;
	nd->nseg = nseg;
	return 0;
undo:
	while (j--) {
		(void) sb_timetree_release(tl->tt, seg[j].s);
		(void) sb_timetree_release(tl->tt, seg[j].e);
	}
	free(seg);
	errno = ENOMEM;
	return -1;
}

/* Rebuild node @i's segments for the proposed state; 0 or -1 (ENOMEM). */
static int _update(sb_timeline_t *tl, size_t i, int64_t until, bool down,
		   size_t nres)
{
	struct seg *seg;
	size_t nseg;
	bool ok;

	seg = _build(tl, until, down, tl->nodes[i].res, nres, &nseg, &ok);
	if (!ok) {
		errno = ENOMEM;
		return -1;
	}
	return _swap(tl, i, seg, nseg);
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
	struct res *nr;
	int64_t id;

	if (!tl || node >= tl->n || duration < 1 || start < tl->base ||
	    start >= tl->end) {
		errno = EINVAL;
		return -1;
	}
	nd = &tl->nodes[node];
	if (nd->nres == nd->capres) {
		size_t cap = nd->capres ? nd->capres * 2 : 4;

		if (!(nr = realloc(nd->res, cap * sizeof(*nr)))) {
			errno = ENOMEM;
			return -1;
		}
		nd->res = nr;
		nd->capres = cap;
	}
	/* Ids: node + 1 in the high half, a per-node number in the low. */
	id = ((int64_t) (node + 1) << 32) | (uint32_t) (nd->seq + 1);
	nd->res[nd->nres] = (struct res) { start,
		sb_time_add(start, duration), id };
	if (_update(tl, node, nd->until, nd->down, nd->nres + 1) < 0)
		return -1;
	nd->nres++;
	nd->seq++;
	return id;
}

int sb_timeline_unreserve(sb_timeline_t *tl, int64_t id)
{
	struct tl_node *nd;
	struct res gone;
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
	for (i = 0; i < nd->nres && nd->res[i].id != id; i++)
		;
	if (i == nd->nres) {
		errno = ENOENT;
		return -1;
	}
	/* Move it to the end, rebuild without it, put it back on failure. */
	gone = nd->res[i];
	nd->res[i] = nd->res[nd->nres - 1];
	nd->res[nd->nres - 1] = gone;
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

/* Whether node @nd's segments miss [s, e). */
static bool _node_free(const struct tl_node *nd, int64_t s, int64_t e)
{
	size_t lo = 0, hi = nd->nseg;

	/* The first segment ending after s is the only one that can hit. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (nd->seg[mid].e <= s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo == nd->nseg || nd->seg[lo].s >= e;
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
	return _node_free(&tl->nodes[node], t, e);
}

/* Nodes free over [s, e), up to @cap written to @out; stop at @stop. */
static size_t _collect(const sb_timeline_t *tl, int64_t s, int64_t e,
		       size_t *out, size_t cap, size_t stop)
{
	size_t cnt = 0;

	for (size_t i = 0; i < tl->n && cnt < stop; i++) {
		if (!_node_free(&tl->nodes[i], s, e))
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
		if (!nd->nseg)
			sb_strbuf_add(&b, "-");
		for (size_t j = 0; j < nd->nseg; j++) {
			sb_strbuf_addf(&b, "%s[%" PRId64 ",", j ? "+" : "",
				       nd->seg[j].s);
			if (nd->seg[j].e == INT64_MAX)
				sb_strbuf_add(&b, "inf");
			else
				sb_strbuf_addf(&b, "%" PRId64, nd->seg[j].e);
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
		struct seg *want;
		size_t nwant;
		bool ok;

		want = _build(tl, nd->until, nd->down, nd->res, nd->nres,
			      &nwant, &ok);
		if (!ok) {
			errno = ENOMEM;
			return -1;
		}
		ok = nwant == nd->nseg && (!nwant ||
			!memcmp(want, nd->seg, nwant * sizeof(*want)));
		free(want);
		if (!ok || nd->nres > nd->capres)
			goto out;
		for (size_t j = 0; j < nd->nseg; j++)
			if (nd->seg[j].s >= nd->seg[j].e ||
			    nd->seg[j].s < tl->base ||
			    nd->seg[j].e > tl->end ||
			    (j && nd->seg[j - 1].e >= nd->seg[j].s))
				goto out;
		total += nd->nseg;
	}
	if (!(e = malloc((2 * total + 1) * sizeof(*e)))) {
		errno = ENOMEM;
		return -1;
	}
	for (size_t i = 0; i < tl->n; i++)
		for (size_t j = 0; j < tl->nodes[i].nseg; j++) {
			e[ne++] = (struct edge) { tl->nodes[i].seg[j].s, 1 };
			e[ne++] = (struct edge) { tl->nodes[i].seg[j].e, -1 };
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
