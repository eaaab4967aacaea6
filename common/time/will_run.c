/*
 * will_run.c - earliest start and nodes of a whole-node request over a
 * plan of busy times, down nodes and reservations (see will_run.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bucket_fill.h"
#include "busy_set.h"
#include "will_run.h"

struct wr_node {
	int64_t until;
	bool down;
	sb_window_t *win;	/* reservations and committed jobs */
	size_t nwin, capwin;
	sb_busy_set_t busy;	/* until, down and windows, merged */
};

struct sb_will_run {
	const sb_bucket_set_t *set;
	int64_t base, end;
	/*
	 * The moment the plan stands at: base, until sb_will_run_advance()
	 * moves it. A running node whose jobs' end is not after it is busy
	 * until the second after it.
	 */
	int64_t now;
	size_t n;
	struct wr_node *nodes;
	/* Per bucket: nodes with a segment after base (busy-later ones). */
	size_t *nlater;
	/* Nodes busy at now, as words (bitmap.h's layout): a query at
	 * now skips them 64 at a time instead of asking each one. */
	uint64_t *busy0;
	/*
	 * Per node, from its busy set, side by side (a query reads them for
	 * every allowed node; the sets themselves are a pointer away):
	 * free_from, the end of its last window (base without one): free
	 * from then on; maxgap, its longest free gap before that (from
	 * base); last_start, _last_start(); held0, the end of the window
	 * holding now (now without one): not free before then.
	 */
	int64_t *free_from, *maxgap, *last_start, *held0;
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
	int64_t now, d;
	sb_bitmap_t *ok;		/* allowed minus excluded */
	uint64_t *okw;			/* ok as words (bitmap.h's layout) */
	uint64_t *bw;			/* one bucket's nodes in ok, words */
	uint64_t *fw;			/* _pick(): the nodes free over its
					 * window, words */
	size_t nw;			/* words of okw and of bw */
	sb_bucket_fill_t f;		/* buckets in order, amounts */
} _q_t;

/* A walk over the set bits of words, lowest first. */
typedef struct {
	const uint64_t *w;
	size_t nw, k;			/* words, the one walked */
	uint64_t m;			/* its bits not visited yet */
} _walk_t;

/* Start of the node's last busy window, INT64_MIN when it has none. */
static int64_t _last_start(const struct wr_node *nd)
{
	const sb_busy_set_t *b = &nd->busy;

	return b->n ? sb_busy_set_windows(b)[b->n - 1].start : INT64_MIN;
}

/* A segment after base: the node may be busy-later for some job. */
static bool _has_later(const struct wr_node *nd, int64_t base)
{
	return _last_start(nd) > base;
}

/*
 * The end of the node's window holding @t, or @t when it is free at @t.
 * Its windows before @t are few (the running jobs' one, a reservation
 * over), so a walk from the first. O(windows before t).
 */
static int64_t _held_at(const struct wr_node *nd, int64_t t)
{
	const sb_busy_set_t *b = &nd->busy;
	const sb_window_t *v = b->n ? sb_busy_set_windows(b) : NULL;
	size_t k;

	for (k = 0; k < b->n && v[k].start <= t; k++)
		if (v[k].end > t)
			return v[k].end;
	return t;
}

/* Node @i's free_from, maxgap, last_start and held0, from its busy
 * set. */
static void _summarise(const sb_will_run_t *w, size_t i, int64_t *free_from,
		       int64_t *maxgap, int64_t *last_start, int64_t *held0)
{
	const sb_busy_set_t *b = &w->nodes[i].busy;
	const sb_window_t *v = sb_busy_set_windows(b);
	int64_t prev = w->base, g = 0;
	size_t k;

	/* windows lie in [base, end): no difference overflows */
	for (k = 0; k < b->n; k++) {
		if (v[k].start - prev > g)
			g = v[k].start - prev;
		prev = v[k].end;
	}
	*free_from = prev;
	*maxgap = g;
	*last_start = _last_start(&w->nodes[i]);
	*held0 = _held_at(&w->nodes[i], w->now);
}

/* Node @i's bit in busy0 from its held0: busy at the plan's now? */
static void _mark_busy0(sb_will_run_t *w, size_t i)
{
	uint64_t bit = (uint64_t) 1 << (i % 64);

	if (w->held0[i] > w->now)
		w->busy0[i / 64] |= bit;
	else
		w->busy0[i / 64] &= ~bit;
}

/* Give node @i the busy set @busy (taken over), keeping nlater, busy0
 * and the summaries. */
static void _set_busy(sb_will_run_t *w, size_t i, sb_busy_set_t busy)
{
	struct wr_node *nd = &w->nodes[i];
	size_t b = sb_bucket_of(w->set, i);

	if (_has_later(nd, w->base))
		w->nlater[b]--;
	sb_busy_set_fini(&nd->busy);
	nd->busy = busy;
	if (_has_later(nd, w->base))
		w->nlater[b]++;
	_summarise(w, i, &w->free_from[i], &w->maxgap[i], &w->last_start[i],
		   &w->held0[i]);
	_mark_busy0(w, i);
}

/* Rebuild node @i's segments for a proposed state; 0 or -1 (ENOMEM). */
static int _update(sb_will_run_t *w, size_t i, int64_t until, bool down,
		   size_t nwin)
{
	struct wr_node *nd = &w->nodes[i];
	sb_busy_set_t busy;

	if (sb_busy_set_build(w->base, w->end, until, down, nd->win, nwin,
			      &busy))
		return -1;
	_set_busy(w, i, busy);
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

/*
 * Node @i's busy time (*@u) and down flag (*@down) from its state in the
 * set and its jobs' end (@until; NULL: none known, so a node with jobs
 * is busy to the end): sb_will_run_create()'s rules, which
 * sb_will_run_refresh_node() and sb_will_run_advance() apply again later.
 */
static void _node_target(const sb_will_run_t *w, size_t i,
			 const int64_t *until, int64_t *u, bool *down)
{
	const sb_node_t *n = &sb_bucket_set_node_array(w->set)[i];
	bool running = n->state == SB_NODE_ALLOCATED || n->run_jobs;

	*u = w->base;
	if (until)
		*u = *until;
	else if (running)
		*u = SB_TIME_INFINITE;
	/* A job past its end is about to end, not over. */
	if (running && *u <= w->now)
		*u = sb_time_add(w->now, 1);
	*down = n->state == SB_NODE_DOWN || n->state == SB_NODE_DRAINED;
}

/* Node @i as _node_target() has it, its windows kept. 0 or -1 (ENOMEM). */
static int _from_node(sb_will_run_t *w, size_t i, const int64_t *until)
{
	int64_t u;
	bool down;

	_node_target(w, i, until, &u, &down);
	return _update(w, i, u, down, w->nodes[i].nwin);
}

void sb_will_run_destroy(sb_will_run_t *w)
{
	size_t i;

	if (!w)
		return;
	for (i = 0; w->nodes && i < w->n; i++) {
		free(w->nodes[i].win);
		sb_busy_set_fini(&w->nodes[i].busy);
	}
	free(w->nodes);
	free(w->nlater);
	free(w->busy0);
	free(w->free_from);
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
	w->now = base;
	w->end = sb_time_add(base, horizon);
	w->n = sb_bucket_set_nodes(set);
	nodes = sb_bucket_set_node_array(set);
	if (!(w->nodes = calloc(w->n + 1, sizeof(*w->nodes))) ||
	    !(w->nlater = calloc(sb_bucket_set_size(set) + 1,
				 sizeof(*w->nlater))) ||
	    !(w->busy0 = calloc(w->n / 64 + 1, sizeof(*w->busy0))) ||
	    !(w->free_from = calloc(4 * w->n + 1, sizeof(*w->free_from))))
		goto oom;
	w->maxgap = w->free_from + w->n;
	w->last_start = w->maxgap + w->n;
	w->held0 = w->last_start + w->n;
	for (i = 0; i < w->n; i++) {
		const sb_node_t *n = &nodes[i];
		struct wr_node *nd = &w->nodes[i];

		for (j = 0; j < n->nbusy; j++) {
			if (n->busy[j].end <= base)
				continue;
			if (_grow(nd))
				goto oom;
			nd->win[nd->nwin++] = n->busy[j];
		}
		if (_from_node(w, i, busy_until ? &busy_until[i] : NULL))
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

int sb_will_run_refresh_node(sb_will_run_t *w, size_t node, int64_t until)
{
	if (!w || node >= w->n) {
		errno = EINVAL;
		return -1;
	}
	return _from_node(w, node, &until);
}

int sb_will_run_advance(sb_will_run_t *w, int64_t now,
			const int64_t *busy_until)
{
	size_t i, changed = 0;
	int64_t u;
	bool down;

	if (!w || now < w->now || now >= w->end) {
		errno = EINVAL;
		return -1;
	}
	w->now = now;
	for (i = 0; i < w->n; i++) {
		const struct wr_node *nd = &w->nodes[i];

		_node_target(w, i, busy_until ? &busy_until[i] : &nd->until,
			     &u, &down);
		if (u == nd->until && down == nd->down) {
			/* its set stands; only "busy at now" moves */
			w->held0[i] = _held_at(nd, w->now);
			_mark_busy0(w, i);
			continue;
		}
		if (_update(w, i, u, down, nd->nwin) < 0)
			return -1;
		changed++;
	}
	return changed > INT_MAX ? INT_MAX : (int) changed;
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
	sb_busy_set_t *busy = NULL;
	size_t c, k = 0, nk = 0, i, *idx = NULL;
	int64_t j;
	int rc = -1;

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
	    !(busy = calloc(nk + 1, sizeof(*busy))))
		goto oom;
	for (c = 0; c < res->pl.nchunks; c++)
		for (j = sb_bitmap_first_set(res->pl.nodes[c]); j >= 0;
		     j = sb_bitmap_next_set(res->pl.nodes[c], (size_t) j + 1)) {
			struct wr_node *nd = &w->nodes[j];

			if (_grow(nd))
				goto oom;
			nd->win[nd->nwin] = (sb_window_t) { res->start,
							    res->end };
			if (sb_busy_set_build(w->base, w->end, nd->until,
					      nd->down, nd->win, nd->nwin + 1,
					      &busy[k]))
				goto oom;
			idx[k++] = (size_t) j;
		}
	for (i = 0; i < k; i++) {
		_set_busy(w, idx[i], busy[i]);
		/* Moved into the node: nothing left to free here. */
		memset(&busy[i], 0, sizeof(busy[i]));
		w->nodes[idx[i]].nwin++;
	}
	rc = 0;
	goto out;
oom:
	errno = ENOMEM;
out:
	for (i = 0; busy && i < k; i++)
		sb_busy_set_fini(&busy[i]);
	free(busy);
	free(idx);
	return rc;
}

void sb_will_run_result_fini(sb_will_run_result_t *res)
{
	if (!res)
		return;
	sb_placement_fini(&res->pl);
	memset(res, 0, sizeof(*res));
}

/* Window end for a start @s, or -1 if the window leaves the horizon. */
static int64_t _wend(const _q_t *q, int64_t s)
{
	int64_t e = sb_time_add(s, q->d);

	return e <= q->w->end ? e : -1;
}

/* Is node @i free over [@s, @e) (s >= now, e > s)? Inside the window
 * holding now it is not, past its last window it is: a word, not a
 * search. */
static bool _free(const sb_will_run_t *w, size_t i, int64_t s, int64_t e)
{
	if (s < w->held0[i])
		return false;
	return s >= w->free_from[i] ||
	       sb_busy_set_free(&w->nodes[i].busy, s, e);
}

/* A walk over the set bits of @w[0..@nw). */
static _walk_t _walk(const uint64_t *w, size_t nw)
{
	return (_walk_t) { w, nw, 0, nw ? w[0] : 0 };
}

/* The next set bit's index into *@i: true, or false at the end. */
static bool _walk_next(_walk_t *it, size_t *i)
{
	while (!it->m) {
		if (++it->k >= it->nw)
			return false;
		it->m = it->w[it->k];
	}
	*i = it->k * 64 + sb_bitmap_word_ctz(it->m);
	it->m &= it->m - 1;
	return true;
}

/*
 * Bucket @b's nodes that are in q->ok, into q->bw; a walk over them. The
 * node loops below go a word at a time: calling the bitmap for every node
 * of a bucket (next set bit, then test it in ok) was a third of a query
 * at 10,000 nodes. O(N / 64).
 */
static _walk_t _allowed(_q_t *q, size_t b)
{
	size_t k;

	(void) sb_bitmap_store_words(sb_bucket_all(q->w->set, b), q->bw,
				     q->nw);
	for (k = 0; k < q->nw; k++)
		q->bw[k] &= q->okw[k];
	return _walk(q->bw, q->nw);
}

/* _allowed() without the nodes busy at now: those that may be free for
 * a start at now. O(N / 64). */
static _walk_t _allowed_at_now(_q_t *q, size_t b)
{
	size_t k;

	(void) _allowed(q, b);
	for (k = 0; k < q->nw; k++)
		q->bw[k] &= ~q->w->busy0[k];
	return _walk(q->bw, q->nw);
}

/*
 * Capacities of the matching buckets for a start at @s, in policy order.
 * With one chunk, counting stops once the total is reached: greedy then
 * takes the same amounts from the same buckets as with full counts.
 */
static void _caps_at(_q_t *q, int64_t s, uint64_t *cap)
{
	int64_t e = _wend(q, s);
	size_t j, b, i;
	uint64_t sum = 0;
	_walk_t it;

	memset(cap, 0, q->f.nb * sizeof(*cap));
	if (e < 0)
		return;
	for (j = 0; j < q->f.nord; j++) {
		b = q->f.order[j];
		/* a node busy at now is not free for a start there */
		for (it = s == q->w->now ? _allowed_at_now(q, b) :
		     _allowed(q, b); _walk_next(&it, &i);) {
			if (q->f.nc == 1 && sum >= q->f.total)
				return;
			if (_free(q->w, i, s, e)) {
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

/* Append the start interval of the free gap [g0, g1) of a node of
 * bucket @b, when it is at least q->d long; 0 or -1 (ENOMEM). */
static int _gap_events(const _q_t *q, int64_t g0, int64_t g1, size_t b,
		       struct ev **ev, size_t *nev, size_t *cap)
{
	int64_t last;

	if (sb_time_add(g0, q->d) > g1)
		return 0;
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
		(*ev)[(*nev)++] = (struct ev) { last + 1, (uint32_t) b, -1 };
	return 0;
}

/* Append the start intervals of node @i (bucket @b) from q->now on. */
static int _node_events(const _q_t *q, size_t i, size_t b, struct ev **ev,
			size_t *nev, size_t *cap)
{
	const struct wr_node *nd = &q->w->nodes[i];
	const sb_window_t *bw;
	size_t j = 0, n;
	int64_t prev = q->now, g0, g1;

	if (q->w->maxgap[i] < q->d) {
		/* No gap before its last window is long enough (those from
		 * now are parts of them): only the last one, from its
		 * free_from or now, without walking the set. */
		g0 = q->w->free_from[i] > prev ? q->w->free_from[i] : prev;
		if (g0 >= q->w->end)
			return 0;
		return _gap_events(q, g0, q->w->end, b, ev, nev, cap);
	}
	bw = sb_busy_set_windows(&nd->busy);
	n = nd->busy.n;
	for (;;) {
		/* The next free gap [g0, g1) at or after prev. */
		while (j < n && bw[j].end <= prev)
			j++;
		if (j < n && bw[j].start <= prev) {
			prev = bw[j].end;
			continue;
		}
		g0 = prev;
		g1 = j < n ? bw[j].start : q->w->end;
		if (g0 >= q->w->end)
			return 0;
		if (_gap_events(q, g0, g1, b, ev, nev, cap))
			return -1;
		if (j >= n)
			return 0;
		prev = bw[j].end;
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
 * The k-th smallest time of @ev[0..@n) (0-based, k < 32, n > k) in one
 * pass, keeping the k + 1 least seen in order: for the few nodes most
 * requests ask, cheaper than _select()'s partitioning of every event.
 * O(n k).
 */
static int64_t _select_small(const struct ev *ev, size_t n, size_t k)
{
	int64_t least[32];
	size_t m = 0, i, j;

	for (i = 0; i < n; i++) {
		int64_t a = ev[i].at;

		if (m == k + 1 && a >= least[k])
			continue;
		j = m < k + 1 ? m++ : k;
		for (; j && least[j - 1] > a; j--)
			least[j] = least[j - 1];
		least[j] = a;
	}
	return least[k];
}

/*
 * The earliest start of the current alternative: 1 with *start, 0 when
 * there is none, -1 on ENOMEM.
 */
static int _earliest(_q_t *q, int64_t *start)
{
	struct ev *ev = NULL;
	size_t nev = 0, cap = 0, j, k, i;
	uint64_t sum = 0, *c = q->f.cap;
	int rc = -1, f, opened;
	_walk_t it;

	if (!q->f.nord)
		return 0;
	/* Right now: the common answer, no sorting. */
	_caps_at(q, q->now, c);
	if ((f = sb_bucket_fill_amounts(&q->f, c)) != 0) {
		*start = q->now;
		return f;
	}
	for (j = 0; j < q->f.nord; j++)
		for (it = _allowed(q, q->f.order[j]); _walk_next(&it, &i);)
			if (_node_events(q, i, q->f.order[j], &ev, &nev,
					 &cap))
				goto out;
	if (q->f.nc == 1 && (k = _all_open(ev, nev))) {
		/*
		 * One chunk and no interval ever closes (running jobs and
		 * down nodes only, the common case): capacity only grows, so
		 * the answer is the total-th opening. Selection, no sort.
		 */
		if (q->f.total <= nev) {
			*start = q->f.total <= 32 ?
				_select_small(ev, nev,
					      (size_t) q->f.total - 1) :
				_select(ev, nev, (size_t) q->f.total - 1);
			rc = 1;
		} else {
			rc = 0;
		}
		goto out;
	}
	if (nev)
		qsort(ev, nev, sizeof(*ev), _ev_cmp);
	memset(c, 0, q->f.nb * sizeof(*c));
	/* Capacity only grows where an interval opens: test there. */
	for (k = 0; k < nev;) {
		int64_t at = ev[k].at;

		opened = 0;
		for (; k < nev && ev[k].at == at; k++) {
			c[ev[k].b] += (uint64_t) (int64_t) ev[k].delta;
			sum += (uint64_t) (int64_t) ev[k].delta;
			opened |= ev[k].delta > 0;
		}
		if (!opened || sum < q->f.total)
			continue;
		if ((f = sb_bucket_fill_amounts(&q->f, c)) < 0)
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

/* The buckets in policy order for alternative @v. */
static void _setup(_q_t *q, size_t v)
{
	sb_bucket_fill_order(&q->f, q->w->set, q->r,
			     q->r->nmatch ? q->r->match[v] : NULL, q->p,
			     sb_time_add(q->now, q->d), q->ok);
}

/*
 * The nodes at start @s: per bucket in policy order, busy-later nodes
 * first, then the others, lowest index first. 0, or -1 with errno.
 */
static int _pick(_q_t *q, int64_t s, sb_bitmap_t **res)
{
	int64_t e = _wend(q, s);
	size_t j, c, b, *list = NULL, nl, pass, at, i, k;
	int rc = -1, f;
	_walk_t it;

	/*
	 * Each matching node's busy set is asked once: the free ones into
	 * q->fw, counted per bucket in full (greedy takes the same amounts
	 * as from _caps_at()'s counts, which may stop at the total).
	 */
	memset(q->fw, 0, q->nw * sizeof(*q->fw));
	memset(q->f.cap, 0, q->f.nb * sizeof(*q->f.cap));
	for (j = 0; e >= 0 && j < q->f.nord; j++) {
		b = q->f.order[j];
		for (it = s == q->w->now ? _allowed_at_now(q, b) :
		     _allowed(q, b); _walk_next(&it, &i);)
			if (_free(q->w, i, s, e)) {
				q->fw[i / 64] |= (uint64_t) 1 << (i % 64);
				q->f.cap[b]++;
			}
	}
	if ((f = sb_bucket_fill_amounts(&q->f, q->f.cap)) <= 0) {
		/* The sweep said yes: a disagreement is a bug. */
		errno = f < 0 ? ENOMEM : EFAULT;
		return -1;
	}
	if (!(list = malloc((q->w->n + 1) * sizeof(*list)))) {
		errno = ENOMEM;
		return -1;
	}
	for (j = 0; j < q->f.nord; j++) {
		uint64_t need = 0;

		b = q->f.order[j];
		for (c = 0; c < q->f.nc; c++)
			need += q->f.amount[b * q->f.nc + c];
		(void) _allowed(q, b);
		for (k = 0; k < q->nw; k++)
			q->bw[k] &= q->fw[k];
		nl = 0;
		/* Only as many as the bucket gives; busy-later ones first. */
		for (pass = q->w->nlater[b] ? 0 : 1; pass < 2; pass++)
			for (it = _walk(q->bw, q->nw);
			     nl < need && _walk_next(&it, &i);)
				/* busy-later: busy again after it */
				if ((q->w->last_start[i] >= e) == !pass)
					list[nl++] = i;
		if (nl < need) {
			/* The counts said yes: a disagreement is a bug. */
			errno = EFAULT;
			goto out;
		}
		for (c = 0, at = 0; c < q->f.nc; c++) {
			uint64_t k = q->f.amount[b * q->f.nc + c];

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
	int f, err = ENOMEM;

	if (out)
		memset(out, 0, sizeof(*out));
	if (!w || !r || !p || !out || sb_request_check(r, w->n) ||
	    (r->required && !sb_bitmap_empty(r->required)) ||
	    r->contiguous || now < w->now || now >= w->end ||
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
	q.nw = (w->n + 63) / 64;
	if (sb_bucket_fill_init(&q.f, w->set, r) ||
	    !(q.ok = sb_bitmap_alloc(w->n)) ||
	    !(q.okw = malloc((3 * q.nw + 1) * sizeof(*q.okw))))
		goto fail;
	q.bw = q.okw + q.nw;
	q.fw = q.bw + q.nw;
	if (allowed)
		sb_bitmap_copy(q.ok, allowed);
	else
		sb_bitmap_set_all(q.ok);
	if (r->excluded)
		sb_bitmap_andnot(q.ok, r->excluded);
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
	out->pl.nchunks = q.f.nc;
	if (!(out->pl.nodes = calloc(q.f.nc, sizeof(*out->pl.nodes))))
		goto fail;
	for (c = 0; c < q.f.nc; c++)
		if (!(out->pl.nodes[c] = sb_bitmap_alloc(w->n)))
			goto fail;
	if (_pick(&q, best, out->pl.nodes)) {
		err = errno;
		goto fail;
	}
	sb_bitmap_free(q.ok);
	free(q.okw);
	sb_bucket_fill_fini(&q.f);
	return 0;
fail:
	sb_will_run_result_fini(out);
	sb_bitmap_free(q.ok);
	free(q.okw);
	sb_bucket_fill_fini(&q.f);
	errno = err;
	return -1;
}

int sb_will_run_check(const sb_will_run_t *w)
{
	size_t i, b;
	sb_busy_set_t want;
	bool ok;

	if (!w) {
		errno = EINVAL;
		return -1;
	}
	if (w->base < 0 || w->end <= w->base || w->now < w->base ||
	    w->now >= w->end ||
	    w->n != sb_bucket_set_nodes(w->set))
		goto bad;
	for (i = 0; i < w->n; i++) {
		const struct wr_node *nd = &w->nodes[i];

		if (nd->nwin > nd->capwin ||
		    sb_busy_set_check(&nd->busy, w->base, w->end))
			goto bad;
		if (sb_busy_set_build(w->base, w->end, nd->until, nd->down,
				      nd->win, nd->nwin, &want))
			return -1;
		ok = sb_busy_set_equal(&want, &nd->busy);
		sb_busy_set_fini(&want);
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
	for (i = 0; i < w->n; i++) {
		int64_t ff, mg, ls, h0;

		if (!!(w->busy0[i / 64] & ((uint64_t) 1 << (i % 64))) !=
		    (_held_at(&w->nodes[i], w->now) > w->now))
			goto bad;
		_summarise(w, i, &ff, &mg, &ls, &h0);
		if (ff != w->free_from[i] || mg != w->maxgap[i] ||
		    ls != w->last_start[i] || h0 != w->held0[i])
			goto bad;
	}
	return 0;
bad:
	errno = EFAULT;
	return -1;
}
