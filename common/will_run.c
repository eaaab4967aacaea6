/*
 * will_run.c - earliest start and nodes of a whole-node request over a
 * plan of busy times, down nodes and reservations (see will_run.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bucket_assign.h"
#include "will_run.h"

struct seg {
	int64_t s, e;
};

struct wr_node {
	int64_t until;
	bool down;
	sb_window_t *win;	/* reservations and committed jobs */
	size_t nwin, capwin;
	struct seg *seg;	/* the busy set: sorted, merged */
	size_t nseg;
	/*
	 * seg's storage when a node has no window and so at most one
	 * segment (most nodes of a plan): a plan of 10,000 nodes is then
	 * built and freed without 10,000 allocations.
	 */
	struct seg one;
};

struct sb_will_run {
	const sb_bucket_set_t *set;
	int64_t base, end;
	size_t n;
	struct wr_node *nodes;
	/* Per bucket: nodes with a segment after base (busy-later ones). */
	size_t *nlater;
};

/* One end of a start interval of a node of bucket b. */
struct ev {
	int64_t at;
	uint32_t b;
	int32_t delta;
};

typedef struct {
	const sb_will_run_t *w;
	const sb_request_t *r;
	const sb_policy_t *p;
	const sb_feat_expr_t *match;	/* current [a|b] alternative */
	int64_t now, d;
	size_t nb, nc, nord;
	uint64_t demand[SB_MAX_CHUNKS];
	uint64_t total;
	sb_bitmap_t *ok;		/* allowed minus excluded */
	uint64_t *okw;			/* ok as words (bitmap.h layout) */
	uint64_t *bw;			/* one bucket's nodes in ok, words */
	size_t nw;			/* words of okw and bw */
	uint64_t *mask;			/* per bucket: its chunks */
	size_t *order;			/* matching buckets, in order */
	uint64_t *cap, *left, *amount;
	sb_policy_key_t *keys;
} _q_t;

static int _seg_cmp(const void *a, const void *b)
{
	const struct seg *x = a, *y = b;

	if (x->s != y->s)
		return (x->s > y->s) - (x->s < y->s);
	return (x->e > y->e) - (x->e < y->e);
}

/*
 * The busy set of a node in the given state, clipped to the horizon,
 * sorted and merged (touching segments too). A new array, or @one (when
 * not NULL and there is no window: its lone segment, no allocation), or
 * NULL when empty or on ENOMEM, told apart by *ok.
 */
static struct seg *_build(const sb_will_run_t *w, int64_t until, bool down,
			  const sb_window_t *win, size_t nwin, size_t *nseg,
			  bool *ok, struct seg *one)
{
	struct seg *v;
	size_t n = 0, m = 0, i;

	*nseg = 0;
	*ok = true;
	if (!nwin && one) {
		v = one;
	} else if (!(v = malloc((nwin + 1) * sizeof(*v)))) {
		*ok = false;
		return NULL;
	}
	if (down) {
		v[n++] = (struct seg) { w->base, w->end };
	} else {
		if (until > w->base)
			v[n++] = (struct seg) { w->base,
				until < w->end ? until : w->end };
		for (i = 0; i < nwin; i++) {
			int64_t s = win[i].start < w->base ? w->base :
				win[i].start;
			int64_t e = win[i].end < w->end ? win[i].end : w->end;

			if (s < e)
				v[n++] = (struct seg) { s, e };
		}
	}
	if (!n) {
		if (v != one)
			free(v);
		return NULL;
	}
	qsort(v, n, sizeof(*v), _seg_cmp);
	for (i = 1; i < n; i++) {
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

/* A segment after base: the node may be busy-later for some job. */
static bool _has_later(const struct wr_node *nd, int64_t base)
{
	return nd->nseg && nd->seg[nd->nseg - 1].s > base;
}

/*
 * Give node @i the segments @seg (taken over; or, when it is @local, a
 * caller's lone segment from _build(), copied into the node), keeping
 * nlater.
 */
static void _set_segs(sb_will_run_t *w, size_t i, struct seg *seg,
		      size_t nseg, const struct seg *local)
{
	struct wr_node *nd = &w->nodes[i];
	size_t b = sb_bucket_of(w->set, i);

	if (_has_later(nd, w->base))
		w->nlater[b]--;
	if (nd->seg != &nd->one)
		free(nd->seg);
	if (seg && seg == local) {
		nd->one = *local;
		seg = &nd->one;
	}
	nd->seg = seg;
	nd->nseg = nseg;
	if (_has_later(nd, w->base))
		w->nlater[b]++;
}

/* Rebuild node @i's segments for a proposed state; 0 or -1 (ENOMEM). */
static int _update(sb_will_run_t *w, size_t i, int64_t until, bool down,
		   size_t nwin)
{
	struct wr_node *nd = &w->nodes[i];
	struct seg *seg, one;
	size_t nseg;
	bool ok;

	seg = _build(w, until, down, nd->win, nwin, &nseg, &ok, &one);
	if (!ok) {
		errno = ENOMEM;
		return -1;
	}
	_set_segs(w, i, seg, nseg, &one);
	nd->until = until;
	nd->down = down;
	nd->nwin = nwin;
	return 0;
}

/* Room for one more window on @nd; 0 or -1 (ENOMEM). */
static int _grow(struct wr_node *nd)
{
	sb_window_t *nw;
	size_t cap;

	if (nd->nwin < nd->capwin)
		return 0;
	cap = nd->capwin ? nd->capwin * 2 : 4;
	if (!(nw = realloc(nd->win, cap * sizeof(*nw)))) {
		errno = ENOMEM;
		return -1;
	}
	nd->win = nw;
	nd->capwin = cap;
	return 0;
}

void sb_will_run_destroy(sb_will_run_t *w)
{
	size_t i;

	if (!w)
		return;
	for (i = 0; w->nodes && i < w->n; i++) {
		free(w->nodes[i].win);
		if (w->nodes[i].seg != &w->nodes[i].one)
			free(w->nodes[i].seg);
	}
	free(w->nodes);
	free(w->nlater);
	free(w);
}

sb_will_run_t *sb_will_run_create(const sb_bucket_set_t *set, int64_t base,
				  int64_t horizon, const int64_t *busy_until)
{
	const sb_node_t *nodes;
	sb_will_run_t *w;
	size_t i, j;

	if (!set || base < 0 || horizon < 1) {
		errno = EINVAL;
		return NULL;
	}
	if (!(w = calloc(1, sizeof(*w))))
		goto oom;
	w->set = set;
	w->base = base;
	w->end = sb_time_add(base, horizon);
	w->n = sb_bucket_set_nodes(set);
	nodes = sb_bucket_set_node_array(set);
	if (!(w->nodes = calloc(w->n + 1, sizeof(*w->nodes))) ||
	    !(w->nlater = calloc(sb_bucket_set_size(set) + 1,
				 sizeof(*w->nlater))))
		goto oom;
	for (i = 0; i < w->n; i++) {
		const sb_node_t *n = &nodes[i];
		struct wr_node *nd = &w->nodes[i];
		bool running = n->state == SB_NODE_ALLOCATED || n->run_jobs;
		int64_t until = base;

		if (busy_until)
			until = busy_until[i];
		else if (running)
			until = SB_TIME_INFINITE;
		/* A job past its end is about to end, not over. */
		if (running && until <= base)
			until = sb_time_add(base, 1);
		for (j = 0; j < n->nbusy; j++) {
			if (n->busy[j].end <= base)
				continue;
			if (_grow(nd))
				goto oom;
			nd->win[nd->nwin++] = n->busy[j];
		}
		if (_update(w, i, until, n->state == SB_NODE_DOWN ||
			    n->state == SB_NODE_DRAINED, nd->nwin))
			goto oom;
	}
	return w;
oom:
	sb_will_run_destroy(w);
	errno = ENOMEM;
	return NULL;
}

int sb_will_run_set_busy(sb_will_run_t *w, size_t node, int64_t until)
{
	if (!w || node >= w->n) {
		errno = EINVAL;
		return -1;
	}
	return _update(w, node, until, w->nodes[node].down,
		       w->nodes[node].nwin);
}

int sb_will_run_set_down(sb_will_run_t *w, size_t node, bool down)
{
	if (!w || node >= w->n) {
		errno = EINVAL;
		return -1;
	}
	return _update(w, node, w->nodes[node].until, down,
		       w->nodes[node].nwin);
}

int sb_will_run_reserve(sb_will_run_t *w, size_t node, int64_t start,
			int64_t end)
{
	struct wr_node *nd;

	if (!w || node >= w->n || start >= end || start < w->base) {
		errno = EINVAL;
		return -1;
	}
	nd = &w->nodes[node];
	if (_grow(nd))
		return -1;
	nd->win[nd->nwin] = (sb_window_t) { start, end };
	return _update(w, node, nd->until, nd->down, nd->nwin + 1);
}

int sb_will_run_clear_windows(sb_will_run_t *w, size_t node)
{
	if (!w || node >= w->n) {
		errno = EINVAL;
		return -1;
	}
	return _update(w, node, w->nodes[node].until, w->nodes[node].down, 0);
}

int sb_will_run_commit(sb_will_run_t *w, const sb_will_run_result_t *res)
{
	struct seg **segs = NULL;
	size_t c, k = 0, nk = 0, i, *idx = NULL, *nseg = NULL;
	int64_t j;
	int rc = -1;
	bool ok;

	if (!w || !res || !res->pl.nodes || res->start >= res->end ||
	    res->start < w->base) {
		errno = EINVAL;
		return -1;
	}
	for (c = 0; c < res->pl.nchunks; c++) {
		if (sb_bitmap_size(res->pl.nodes[c]) > w->n &&
		    sb_bitmap_next_set(res->pl.nodes[c], w->n) >= 0) {
			errno = EINVAL;
			return -1;
		}
		nk += (size_t) sb_bitmap_count(res->pl.nodes[c]);
	}
	/* Build every new busy set first: nothing changes on ENOMEM. */
	if (!(idx = malloc((nk + 1) * sizeof(*idx))) ||
	    !(nseg = malloc((nk + 1) * sizeof(*nseg))) ||
	    !(segs = calloc(nk + 1, sizeof(*segs))))
		goto oom;
	for (c = 0; c < res->pl.nchunks; c++)
		for (j = sb_bitmap_first_set(res->pl.nodes[c]); j >= 0;
		     j = sb_bitmap_next_set(res->pl.nodes[c], (size_t) j + 1)) {
			struct wr_node *nd = &w->nodes[j];

			if (_grow(nd))
				goto oom;
			nd->win[nd->nwin] = (sb_window_t) { res->start,
							    res->end };
			segs[k] = _build(w, nd->until, nd->down, nd->win,
					 nd->nwin + 1, &nseg[k], &ok, NULL);
			if (!ok)
				goto oom;
			idx[k++] = (size_t) j;
		}
	for (i = 0; i < k; i++) {
		_set_segs(w, idx[i], segs[i], nseg[i], NULL);
		segs[i] = NULL;
		w->nodes[idx[i]].nwin++;
	}
	rc = 0;
	goto out;
oom:
	errno = ENOMEM;
out:
	for (i = 0; segs && i < k; i++)
		free(segs[i]);
	free(segs);
	free(idx);
	free(nseg);
	return rc;
}

void sb_will_run_result_fini(sb_will_run_result_t *res)
{
	if (!res)
		return;
	sb_placement_fini(&res->pl);
	memset(res, 0, sizeof(*res));
}

/* Whether node @nd's segments miss [s, e). O(log r). */
static bool _free(const struct wr_node *nd, int64_t s, int64_t e)
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

/* Busy-later: a busy segment starts after a job ending at @e. */
static bool _later(const struct wr_node *nd, int64_t e)
{
	return nd->nseg && nd->seg[nd->nseg - 1].s >= e;
}

/*
 * Can the chunks be served from per-bucket capacities @cap? Fills
 * q->amount when yes (greedy in chunk and policy order first, the exact
 * assignment when greedy fails). 1, 0, or -1 (ENOMEM).
 */
static int _feasible(_q_t *q, const uint64_t *cap)
{
	uint64_t need, t;
	size_t c, j, b;
	int ok;

	memcpy(q->left, cap, q->nb * sizeof(*q->left));
	memset(q->amount, 0, q->nb * q->nc * sizeof(*q->amount));
	for (c = 0; c < q->nc; c++) {
		need = q->demand[c];
		for (j = 0; j < q->nord && need; j++) {
			b = q->order[j];
			if (!(q->mask[b] >> c & 1) || !q->left[b])
				continue;
			t = need < q->left[b] ? need : q->left[b];
			q->amount[b * q->nc + c] = t;
			q->left[b] -= t;
			need -= t;
		}
		if (need)
			break;
	}
	if (c == q->nc)
		return 1;
	/* One chunk: greedy is exact. Several: they may compete. */
	if (q->nc == 1)
		return 0;
	ok = sb_assign(q->nb, cap, NULL, q->mask, q->nc, q->demand,
		       q->amount);
	return ok;
}

/* Window end for a start @s, or -1 if the window leaves the horizon. */
static int64_t _wend(const _q_t *q, int64_t s)
{
	int64_t e = sb_time_add(s, q->d);

	return e <= q->w->end ? e : -1;
}

/*
 * Bucket @b's nodes that are in q->ok, as words into q->bw: the node
 * loops below walk set bits a word at a time instead of calling the
 * bitmap for every node of the bucket (at 10,000 nodes those calls were
 * most of a query). O(N / 64).
 */
static void _allowed_words(_q_t *q, size_t b)
{
	size_t k;

	(void) sb_bitmap_store_words(sb_bucket_all(q->w->set, b), q->bw,
				     q->nw);
	for (k = 0; k < q->nw; k++)
		q->bw[k] &= q->okw[k];
}

/* Node index of the lowest set bit of @m, in word @k. */
static size_t _bit(size_t k, uint64_t m)
{
	return k * 64 + (size_t) __builtin_ctzll(m);
}

/*
 * Capacities of the matching buckets for a start at @s, in policy order.
 * With one chunk, counting stops once the total is reached: greedy then
 * takes the same amounts from the same buckets as with full counts.
 */
static void _caps_at(_q_t *q, int64_t s, uint64_t *cap)
{
	int64_t e = _wend(q, s);
	size_t j, b, k;
	uint64_t sum = 0, m;

	memset(cap, 0, q->nb * sizeof(*cap));
	if (e < 0)
		return;
	for (j = 0; j < q->nord; j++) {
		b = q->order[j];
		_allowed_words(q, b);
		for (k = 0; k < q->nw; k++)
			for (m = q->bw[k]; m; m &= m - 1) {
				if (q->nc == 1 && sum >= q->total)
					return;
				if (_free(&q->w->nodes[_bit(k, m)], s, e)) {
					cap[b]++;
					sum++;
				}
			}
	}
}

static int _ev_cmp(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	if (x->at != y->at)
		return (x->at > y->at) - (x->at < y->at);
	if (x->b != y->b)
		return (x->b > y->b) - (x->b < y->b);
	return (x->delta > y->delta) - (x->delta < y->delta);
}

/* Append the start intervals of node @nd (bucket @b) from q->now on. */
static int _node_events(const _q_t *q, const struct wr_node *nd, size_t b,
			struct ev **ev, size_t *nev, size_t *cap)
{
	int64_t prev = q->now, g0, g1, last;
	size_t j = 0;

	for (;;) {
		/* The next free gap [g0, g1) at or after prev. */
		while (j < nd->nseg && nd->seg[j].e <= prev)
			j++;
		if (j < nd->nseg && nd->seg[j].s <= prev) {
			prev = nd->seg[j].e;
			continue;
		}
		g0 = prev;
		g1 = j < nd->nseg ? nd->seg[j].s : q->w->end;
		if (g0 >= q->w->end)
			return 0;
		if (sb_time_add(g0, q->d) <= g1) {
			if (*nev + 2 > *cap) {
				size_t nc = *cap ? *cap * 2 : 256;
				struct ev *nv = realloc(*ev, nc * sizeof(*nv));

				if (!nv)
					return -1;
				*ev = nv;
				*cap = nc;
			}
			(*ev)[(*nev)++] = (struct ev) { g0, (uint32_t) b, 1 };
			/* Starts up to g1 - d; none closes a gap to INF. */
			last = g1 == INT64_MAX ? INT64_MAX : g1 - q->d;
			if (last != INT64_MAX)
				(*ev)[(*nev)++] = (struct ev) { last + 1,
					(uint32_t) b, -1 };
		}
		if (j >= nd->nseg)
			return 0;
		prev = nd->seg[j].e;
	}
}

/* 1 if every event opens an interval (and there is one), else 0. */
static size_t _all_open(const struct ev *ev, size_t nev)
{
	size_t i;

	for (i = 0; i < nev; i++)
		if (ev[i].delta < 0)
			return 0;
	return nev > 0;
}

/* The k-th smallest time of @ev (0-based), reordering it. O(n) expected. */
static int64_t _select(struct ev *ev, size_t n, size_t k)
{
	ptrdiff_t lo = 0, hi = (ptrdiff_t) n - 1, kk = (ptrdiff_t) k, i, j;
	struct ev t;
	int64_t pivot;

	while (lo < hi) {
		pivot = ev[lo + (hi - lo) / 2].at;
		i = lo;
		j = hi;
		while (i <= j) {
			while (ev[i].at < pivot)
				i++;
			while (ev[j].at > pivot)
				j--;
			if (i <= j) {
				t = ev[i];
				ev[i++] = ev[j];
				ev[j--] = t;
			}
		}
		/* [lo, j] <= pivot <= [i, hi]; in between all equal it. */
		if (kk <= j)
			hi = j;
		else if (kk >= i)
			lo = i;
		else
			break;
	}
	return ev[k].at;
}

/*
 * The earliest start of the current alternative: 1 with *start, 0 when
 * there is none, -1 on ENOMEM.
 */
static int _earliest(_q_t *q, int64_t *start)
{
	struct ev *ev = NULL;
	size_t nev = 0, cap = 0, j, k;
	uint64_t sum = 0, *c = q->cap, m;
	int rc = -1, f, opened;

	if (!q->nord)
		return 0;
	/* Right now: the common answer, no sorting. */
	_caps_at(q, q->now, c);
	if ((f = _feasible(q, c)) != 0) {
		*start = q->now;
		return f;
	}
	for (j = 0; j < q->nord; j++) {
		_allowed_words(q, q->order[j]);
		for (k = 0; k < q->nw; k++)
			for (m = q->bw[k]; m; m &= m - 1)
				if (_node_events(q, &q->w->nodes[_bit(k, m)],
						 q->order[j], &ev, &nev, &cap))
					goto out;
	}
	if (q->nc == 1 && (k = _all_open(ev, nev))) {
		/*
		 * One chunk and no interval ever closes (running jobs and
		 * down nodes only, the common case): capacity only grows, so
		 * the answer is the total-th opening. Selection, no sort.
		 */
		if (q->total <= nev) {
			*start = _select(ev, nev, (size_t) q->total - 1);
			rc = 1;
		} else {
			rc = 0;
		}
		goto out;
	}
	if (nev)
		qsort(ev, nev, sizeof(*ev), _ev_cmp);
	memset(c, 0, q->nb * sizeof(*c));
	/* Capacity only grows where an interval opens: test there. */
	for (k = 0; k < nev;) {
		int64_t at = ev[k].at;

		opened = 0;
		for (; k < nev && ev[k].at == at; k++) {
			c[ev[k].b] += (uint64_t) (int64_t) ev[k].delta;
			sum += (uint64_t) (int64_t) ev[k].delta;
			opened |= ev[k].delta > 0;
		}
		if (!opened || sum < q->total)
			continue;
		if ((f = _feasible(q, c)) < 0)
			goto out;
		if (f) {
			*start = at;
			rc = 1;
			goto out;
		}
	}
	rc = 0;
out:
	free(ev);
	return rc;
}

/* Chunk -> bucket masks and policy order for alternative @v. */
static void _setup(_q_t *q, size_t v)
{
	const sb_bucket_set_t *set = q->w->set;
	int64_t end = sb_time_add(q->now, q->d);
	size_t b, c, j;

	q->match = q->r->nmatch ? q->r->match[v] : NULL;
	q->nord = 0;
	for (b = 0; b < q->nb; b++) {
		const sb_node_t *rep = sb_bucket_rep(set, b);

		q->mask[b] = 0;
		for (c = 0; c < q->nc; c++)
			if (sb_chunk_match(rep, q->r, &q->r->chunks[c],
					   q->match))
				q->mask[b] |= UINT64_C(1) << c;
		/* A bucket none of whose nodes are allowed plays no part. */
		if (q->mask[b] &&
		    sb_bitmap_count_and(sb_bucket_all(set, b), q->ok) > 0)
			sb_policy_key(q->p, rep, sb_request_pref(q->r, rep),
				      end, SB_TIME_INFINITE,
				      &q->keys[q->nord++]);
		else
			q->mask[b] = 0;
	}
	sb_policy_sort(q->keys, q->nord);
	for (j = 0; j < q->nord; j++)
		q->order[j] = sb_bucket_of(set, q->keys[j].idx);
}

/*
 * The nodes at start @s: per bucket in policy order, busy-later nodes
 * first, then the others, lowest index first. 0, or -1 with errno.
 */
static int _pick(_q_t *q, int64_t s, sb_bitmap_t **res)
{
	int64_t e = _wend(q, s);
	size_t j, c, b, *list = NULL, nl, pass, at, k, i;
	uint64_t m;
	int rc = -1, f;

	_caps_at(q, s, q->cap);
	if ((f = _feasible(q, q->cap)) <= 0) {
		/* The sweep said yes: a disagreement is a bug. */
		errno = f < 0 ? ENOMEM : EFAULT;
		return -1;
	}
	if (!(list = malloc((q->w->n + 1) * sizeof(*list)))) {
		errno = ENOMEM;
		return -1;
	}
	for (j = 0; j < q->nord; j++) {
		uint64_t need = 0;

		b = q->order[j];
		for (c = 0; c < q->nc; c++)
			need += q->amount[b * q->nc + c];
		if (!need)
			continue;
		_allowed_words(q, b);
		nl = 0;
		/* Only as many as the bucket gives; busy-later ones first. */
		for (pass = q->w->nlater[b] ? 0 : 1; pass < 2; pass++)
			for (k = 0; k < q->nw && nl < need; k++)
				for (m = q->bw[k]; m && nl < need;
				     m &= m - 1) {
					const struct wr_node *nd =
						&q->w->nodes[i = _bit(k, m)];

					if (_free(nd, s, e) &&
					    _later(nd, e) == !pass)
						list[nl++] = i;
				}
		if (nl < need) {
			/* The counts said yes: a disagreement is a bug. */
			errno = EFAULT;
			goto out;
		}
		for (c = 0, at = 0; c < q->nc; c++) {
			uint64_t k = q->amount[b * q->nc + c];

			for (; k; k--)
				sb_bitmap_set(res[c], list[at++]);
		}
	}
	rc = 0;
out:
	free(list);
	return rc;
}

int sb_will_run_query(const sb_will_run_t *w, const sb_request_t *r,
		      const sb_policy_t *p, const sb_bitmap_t *allowed,
		      int64_t now, sb_will_run_result_t *out)
{
	_q_t q;
	size_t c, v, nvar, best_v = 0;
	int64_t s, best = -1;
	uint64_t *block = NULL;
	int f, err = ENOMEM;

	if (out)
		memset(out, 0, sizeof(*out));
	if (!w || !r || !p || !out || sb_request_check(r, w->n) ||
	    (r->required && !sb_bitmap_empty(r->required)) ||
	    r->contiguous || now < w->base || now >= w->end ||
	    (allowed && sb_bitmap_size(allowed) != w->n) ||
	    r->time_limit < 1) {
		errno = EINVAL;
		return -1;
	}
	memset(&q, 0, sizeof(q));
	q.w = w;
	q.r = r;
	q.p = p;
	q.now = now;
	q.d = r->time_limit;
	q.nb = sb_bucket_set_size(w->set);
	q.nc = r->nchunks;
	for (c = 0; c < q.nc; c++) {
		q.demand[c] = r->chunks[c].count;
		q.total += r->chunks[c].count;
	}
	q.nw = (w->n + 63) / 64 + 1;
	if (!(q.ok = sb_bitmap_alloc(w->n)) ||
	    !(q.okw = malloc(2 * q.nw * sizeof(*q.okw))) ||
	    !(block = calloc((q.nb + 1) * (3 + q.nc), sizeof(*block))) ||
	    !(q.order = malloc((q.nb + 1) * sizeof(*q.order))) ||
	    !(q.keys = malloc((q.nb + 1) * sizeof(*q.keys))))
		goto fail;
	q.mask = block;
	q.cap = q.mask + q.nb + 1;
	q.left = q.cap + q.nb + 1;
	q.amount = q.left + q.nb + 1;
	if (allowed)
		sb_bitmap_copy(q.ok, allowed);
	else
		sb_bitmap_set_all(q.ok);
	if (r->excluded)
		sb_bitmap_andnot(q.ok, r->excluded);
	q.bw = q.okw + q.nw;
	(void) sb_bitmap_store_words(q.ok, q.okw, q.nw);

	nvar = r->nmatch ? r->nmatch : 1;
	for (v = 0; v < nvar; v++) {
		_setup(&q, v);
		if ((f = _earliest(&q, &s)) < 0)
			goto fail;
		if (f && (best < 0 || s < best)) {
			best = s;
			best_v = v;
		}
	}
	if (best < 0) {
		err = ENOENT;
		goto fail;
	}
	_setup(&q, best_v);
	out->start = best;
	out->end = sb_time_add(best, q.d);
	out->pl.result = best == now ? SB_PLACE_RUN : SB_PLACE_WAIT;
	out->pl.bucket_path = true;
	out->pl.variant = best_v;
	out->pl.nchunks = q.nc;
	if (!(out->pl.nodes = calloc(q.nc, sizeof(*out->pl.nodes))))
		goto fail;
	for (c = 0; c < q.nc; c++)
		if (!(out->pl.nodes[c] = sb_bitmap_alloc(w->n)))
			goto fail;
	if (_pick(&q, best, out->pl.nodes)) {
		err = errno;
		goto fail;
	}
	sb_bitmap_free(q.ok);
	free(q.okw);
	free(block);
	free(q.order);
	free(q.keys);
	return 0;
fail:
	sb_will_run_result_fini(out);
	sb_bitmap_free(q.ok);
	free(q.okw);
	free(block);
	free(q.order);
	free(q.keys);
	errno = err;
	return -1;
}

int sb_will_run_check(const sb_will_run_t *w)
{
	size_t i, j, b, nwant;
	struct seg *want;
	bool ok;

	if (!w) {
		errno = EINVAL;
		return -1;
	}
	if (w->base < 0 || w->end <= w->base ||
	    w->n != sb_bucket_set_nodes(w->set))
		goto bad;
	for (i = 0; i < w->n; i++) {
		const struct wr_node *nd = &w->nodes[i];

		if (nd->nwin > nd->capwin ||
		    (nd->seg == &nd->one && (nd->nseg != 1 || nd->nwin)))
			goto bad;
		for (j = 0; j < nd->nseg; j++)
			if (nd->seg[j].s >= nd->seg[j].e ||
			    nd->seg[j].s < w->base || nd->seg[j].e > w->end ||
			    (j && nd->seg[j - 1].e >= nd->seg[j].s))
				goto bad;
		want = _build(w, nd->until, nd->down, nd->win, nd->nwin,
			      &nwant, &ok, NULL);
		if (!ok) {
			errno = ENOMEM;
			return -1;
		}
		ok = nwant == nd->nseg && (!nwant ||
			!memcmp(want, nd->seg, nwant * sizeof(*want)));
		free(want);
		if (!ok)
			goto bad;
	}
	for (b = 0; b < sb_bucket_set_size(w->set); b++) {
		size_t cnt = 0;
		const sb_bitmap_t *all = sb_bucket_all(w->set, b);
		int64_t k;

		for (k = sb_bitmap_first_set(all); k >= 0;
		     k = sb_bitmap_next_set(all, (size_t) k + 1))
			cnt += _has_later(&w->nodes[k], w->base);
		if (cnt != w->nlater[b])
			goto bad;
	}
	return 0;
bad:
	errno = EFAULT;
	return -1;
}
