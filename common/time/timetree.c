/*
 * timetree.c - change points in a B+tree with lazy range add and
 * per-child min/max (see timetree.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Layout. Leaves hold up to FANOUT points (time, val, refs) in time order;
 * internal nodes hold up to FANOUT children with, for each, the smallest
 * time below it (key) and the min and max val below it (cmn, cmx). The
 * per-child summaries sit in contiguous arrays of the parent, so a search
 * rules children out without loading them: a descent costs a few cache
 * lines per level on a tree 4 or 5 levels deep for millions of points,
 * against one miss per level on a red-black tree 25 to 40 levels deep.
 *
 * Frames. Every node has a tag, an amount added to everything below it
 * and not yet handed down. The true val of a point is its stored val plus
 * the tags of its leaf and of every ancestor. A parent's cmn/cmx
 * for child j include the child's own tag but not the parent's. Adding d
 * to a whole child is then O(1): child->tag += d, cmn[j] += d,
 * cmx[j] += d. Insertions and removals push tags down on their path
 * (O(fanout) per level, like their own shifting), so a split copies
 * nothing but zero tags and lazy tags stay small.
 *
 * Deletion removes empty nodes but does not merge sparse ones: the depth
 * never exceeds what the largest size the tree ever had required, and a
 * root left with one child is collapsed. Allocation happens only in
 * acquire and only before anything changes (a spare-node pool is filled
 * first), so no call fails half way.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "timetree.h"

/* Overridable so tests can build deep trees from few points. */
#ifdef SB_TIMETREE_FANOUT
#define FANOUT SB_TIMETREE_FANOUT
#else
#define FANOUT 32
#endif
#define HALF (FANOUT / 2)
#define MAX_SPARE 64

struct bt_node {
	int64_t tag;
	int n;
	bool leaf;
	int64_t key[FANOUT];
	union {
		struct {
			int64_t val[FANOUT];
			uint32_t refs[FANOUT];
		} l;
		struct {
			struct bt_node *child[FANOUT];
			int64_t cmn[FANOUT], cmx[FANOUT];
		} in;
	};
};

struct sb_timetree {
	struct bt_node *root;
	size_t n;
	int height;		/* levels; 0 when empty */
	struct bt_node *spare[MAX_SPARE];
	int nspare;
};

static inline int64_t _min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

static inline int64_t _max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* Index of the last key <= t, or -1. */
static int _lower(const struct bt_node *x, int64_t t)
{
	int lo = 0, hi = x->n;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (x->key[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - 1;
}

/* Min and max below @x, in its parent's children frame. */
static void _summary(const struct bt_node *x, int64_t *mn, int64_t *mx)
{
	const int64_t *a = x->leaf ? x->l.val : x->in.cmn;
	const int64_t *b = x->leaf ? x->l.val : x->in.cmx;
	int64_t lo = a[0], hi = b[0];

	for (int i = 1; i < x->n; i++) {
		lo = _min64(lo, a[i]);
		hi = _max64(hi, b[i]);
	}
	*mn = lo + x->tag;
	*mx = hi + x->tag;
}

/*
 * Hand @x's tag down to its children (or points). Insertions and removals
 * do this on their path so splits start from tag 0 and no tag keeps
 * growing when the structure changes between a span's add and its
 * removal; the parent's view of x does not change.
 */
static void _push(struct bt_node *x)
{
	if (!x->tag)
		return;
	for (int i = 0; i < x->n; i++) {
		if (x->leaf) {
			x->l.val[i] += x->tag;
		} else {
			x->in.child[i]->tag += x->tag;
			x->in.cmn[i] += x->tag;
			x->in.cmx[i] += x->tag;
		}
	}
	x->tag = 0;
}

/* Re-read child @j of @x: its first time and its min/max. */
static void _refresh(struct bt_node *x, int j)
{
	struct bt_node *c = x->in.child[j];

	x->key[j] = c->key[0];
	_summary(c, &x->in.cmn[j], &x->in.cmx[j]);
}

static struct bt_node *_node_get(sb_timetree_t *tt, bool leaf)
{
	struct bt_node *x = tt->nspare ? tt->spare[--tt->nspare] :
		malloc(sizeof(*x));

	if (x) {
		x->tag = 0;
		x->n = 0;
		x->leaf = leaf;
	}
	return x;
}

static void _node_put(sb_timetree_t *tt, struct bt_node *x)
{
	if (tt->nspare < MAX_SPARE)
		tt->spare[tt->nspare++] = x;
	else
		free(x);
}

/* Enough spare nodes for one insertion to split every level. */
static int _reserve(sb_timetree_t *tt)
{
	while (tt->nspare < tt->height + 1) {
		struct bt_node *x = malloc(sizeof(*x));

		if (!x)
			return -1;
		tt->spare[tt->nspare++] = x;
	}
	return 0;
}

sb_timetree_t *sb_timetree_create(void)
{
	sb_timetree_t *tt = calloc(1, sizeof(*tt));

	if (!tt)
		errno = ENOMEM;
	return tt;
}

static void _free_subtree(struct bt_node *x)
{
	if (!x->leaf)
		for (int i = 0; i < x->n; i++)
			_free_subtree(x->in.child[i]);
	free(x);
}

void sb_timetree_destroy(sb_timetree_t *tt)
{
	if (!tt)
		return;
	if (tt->root)
		_free_subtree(tt->root);
	while (tt->nspare)
		free(tt->spare[--tt->nspare]);
	free(tt);
}

size_t sb_timetree_size(const sb_timetree_t *tt)
{
	return tt ? tt->n : 0;
}

/*
 * The leaf holding the last point <= t and its index there; *off gets the
 * sum of the tags above the leaf. NULL when every point is after t.
 */
static struct bt_node *_floor_leaf(const sb_timetree_t *tt, int64_t t,
				   int *idx, int64_t *off)
{
	struct bt_node *x = tt->root;

	*off = 0;
	if (!x || t < x->key[0])
		return NULL;
	while (!x->leaf) {
		/* key[0] <= t at every level, so the index is >= 0. */
		*off += x->tag;
		x = x->in.child[_lower(x, t)];
	}
	*idx = _lower(x, t);
	return x;
}

/* Put point (at, v) into the subtree @x; v is in x's parent's frame. */
static struct bt_node *_insert(sb_timetree_t *tt, struct bt_node *x,
			       int64_t at, int64_t v)
{
	struct bt_node *y = NULL, *cy, *dst;
	int i, pos;

	_push(x);
	if (x->leaf) {
		pos = _lower(x, at) + 1;
		dst = x;
		if (x->n == FANOUT) {
			y = _node_get(tt, true);
			y->tag = x->tag;
			y->n = FANOUT - HALF;
			memcpy(y->key, x->key + HALF, (size_t) y->n * 8);
			memcpy(y->l.val, x->l.val + HALF, (size_t) y->n * 8);
			memcpy(y->l.refs, x->l.refs + HALF, (size_t) y->n * 4);
			x->n = HALF;
			if (pos > HALF) {
				dst = y;
				pos -= HALF;
			}
		}
		memmove(dst->key + pos + 1, dst->key + pos,
			(size_t) (dst->n - pos) * 8);
		memmove(dst->l.val + pos + 1, dst->l.val + pos,
			(size_t) (dst->n - pos) * 8);
		memmove(dst->l.refs + pos + 1, dst->l.refs + pos,
			(size_t) (dst->n - pos) * 4);
		dst->key[pos] = at;
		dst->l.val[pos] = v;
		dst->l.refs[pos] = 1;
		dst->n++;
		return y;
	}
	i = _lower(x, at);
	if (i < 0)
		i = 0;
	cy = _insert(tt, x->in.child[i], at, v);
	_refresh(x, i);
	if (!cy)
		return NULL;
	pos = i + 1;
	dst = x;
	if (x->n == FANOUT) {
		y = _node_get(tt, false);
		y->tag = x->tag;
		y->n = FANOUT - HALF;
		memcpy(y->key, x->key + HALF, (size_t) y->n * 8);
		memcpy(y->in.child, x->in.child + HALF,
		       (size_t) y->n * sizeof(y->in.child[0]));
		memcpy(y->in.cmn, x->in.cmn + HALF, (size_t) y->n * 8);
		memcpy(y->in.cmx, x->in.cmx + HALF, (size_t) y->n * 8);
		x->n = HALF;
		if (pos > HALF) {
			dst = y;
			pos -= HALF;
		}
	}
	memmove(dst->key + pos + 1, dst->key + pos,
		(size_t) (dst->n - pos) * 8);
	memmove(dst->in.child + pos + 1, dst->in.child + pos,
		(size_t) (dst->n - pos) * sizeof(dst->in.child[0]));
	memmove(dst->in.cmn + pos + 1, dst->in.cmn + pos,
		(size_t) (dst->n - pos) * 8);
	memmove(dst->in.cmx + pos + 1, dst->in.cmx + pos,
		(size_t) (dst->n - pos) * 8);
	dst->in.child[pos] = cy;
	dst->n++;
	_refresh(dst, pos);
	return y;
}

int sb_timetree_acquire(sb_timetree_t *tt, int64_t at, int64_t dflt)
{
	struct bt_node *x, *y, *r;
	int64_t off, v = dflt;
	int i;

	if (!tt) {
		errno = EINVAL;
		return -1;
	}
	if ((x = _floor_leaf(tt, at, &i, &off))) {
		if (x->key[i] == at) {
			if (x->l.refs[i] == UINT32_MAX) {
				errno = EOVERFLOW;
				return -1;
			}
			x->l.refs[i]++;
			return 0;
		}
		v = x->l.val[i] + x->tag + off;
	}
	if (_reserve(tt) < 0) {
		errno = ENOMEM;
		return -1;
	}
	if (!tt->root) {
		tt->root = _node_get(tt, true);
		tt->height = 1;
	}
	if ((y = _insert(tt, tt->root, at, v))) {
		r = _node_get(tt, false);
		r->n = 2;
		r->in.child[0] = tt->root;
		r->in.child[1] = y;
		_refresh(r, 0);
		_refresh(r, 1);
		tt->root = r;
		tt->height++;
	}
	tt->n++;
	return 0;
}

/* 1: removed the last reference (node may be empty), 0: still there. */
static int _remove(sb_timetree_t *tt, struct bt_node *x, int64_t at)
{
	int i = _lower(x, at), rc;

	_push(x);
	if (x->leaf) {
		if (--x->l.refs[i])
			return 0;
		x->n--;
		memmove(x->key + i, x->key + i + 1, (size_t) (x->n - i) * 8);
		memmove(x->l.val + i, x->l.val + i + 1,
			(size_t) (x->n - i) * 8);
		memmove(x->l.refs + i, x->l.refs + i + 1,
			(size_t) (x->n - i) * 4);
		return 1;
	}
	if (!(rc = _remove(tt, x->in.child[i], at)))
		return 0;
	if (x->in.child[i]->n) {
		_refresh(x, i);
		return 1;
	}
	_node_put(tt, x->in.child[i]);
	x->n--;
	memmove(x->key + i, x->key + i + 1, (size_t) (x->n - i) * 8);
	memmove(x->in.child + i, x->in.child + i + 1,
		(size_t) (x->n - i) * sizeof(x->in.child[0]));
	memmove(x->in.cmn + i, x->in.cmn + i + 1, (size_t) (x->n - i) * 8);
	memmove(x->in.cmx + i, x->in.cmx + i + 1, (size_t) (x->n - i) * 8);
	return 1;
}

int sb_timetree_release(sb_timetree_t *tt, int64_t at)
{
	struct bt_node *x, *c;
	int64_t off;
	int i;

	if (!tt) {
		errno = EINVAL;
		return -1;
	}
	if (!(x = _floor_leaf(tt, at, &i, &off)) || x->key[i] != at) {
		errno = ENOENT;
		return -1;
	}
	if (!_remove(tt, tt->root, at))
		return 0;
	tt->n--;
	x = tt->root;
	if (!x->n) {
		_node_put(tt, x);
		tt->root = NULL;
		tt->height = 0;
		return 0;
	}
	/* A root with one child is a level too many. */
	while (!x->leaf && x->n == 1) {
		c = x->in.child[0];
		c->tag += x->tag;
		_node_put(tt, x);
		tt->root = x = c;
		tt->height--;
	}
	return 0;
}

int sb_timetree_floor(const sb_timetree_t *tt, int64_t t, int64_t *at,
		      int64_t *val)
{
	const struct bt_node *x;
	int64_t off;
	int i;

	if (!tt) {
		errno = EINVAL;
		return -1;
	}
	if (!(x = _floor_leaf(tt, t, &i, &off))) {
		errno = ENOENT;
		return -1;
	}
	if (at)
		*at = x->key[i];
	if (val)
		*val = x->l.val[i] + x->tag + off;
	return 0;
}

/*
 * The earliest-fit walk. One in-order pass from t over the points after
 * it, in two states: blocked (looking for a point with val >= v: children
 * whose max is below v are skipped whole) and open since s (looking for a
 * point below v before s + d: children whose min is >= v are skipped, and
 * reaching s + d ends the walk). Consecutive rounds are next to each other
 * in time, so the walk moves between neighbouring leaves instead of
 * descending from the root for every round.
 */
struct fit {
	int64_t t, d, v, end;
	bool known, open, done;
	int64_t s, e;
};

/* Become open at s; false (and done) when the window passes end. */
static bool _fit_open(struct fit *f, int64_t s)
{
	f->s = s;
	f->e = s > INT64_MAX - f->d ? INT64_MAX : s + f->d;
	f->open = true;
	if (s >= f->end || f->e > f->end) {
		f->open = false;
		f->done = true;
	}
	return !f->done;
}

/*
 * The state at t is not known until the walk meets the last point <= t,
 * but the summary of the child holding it often settles it without
 * loading the child: all below v (blocked) or all at least v (open).
 */
static void _fit(const struct bt_node *x, int64_t off, struct fit *f)
{
	int i = _lower(x, f->t);

	off += x->tag;
	if (i < 0) {
		/* Nothing at or before t: blocked until the first point. */
		f->known = true;
		i = 0;
	}
	for (; i < x->n && !f->done; i++) {
		if (f->open && x->key[i] >= f->e) {
			f->done = true;
			return;
		}
		if (x->leaf) {
			int64_t w = x->l.val[i] + off;

			if (x->key[i] <= f->t) {
				f->known = true;
				if (w >= f->v)
					(void) _fit_open(f, f->t);
			} else if (f->open && w < f->v) {
				f->open = false;
			} else if (!f->open && w >= f->v) {
				(void) _fit_open(f, x->key[i]);
			}
			continue;
		}
		if (!f->known) {
			if (x->in.cmx[i] + off < f->v) {
				f->known = true;
				continue;
			}
			if (x->in.cmn[i] + off >= f->v) {
				f->known = true;
				(void) _fit_open(f, f->t);
				continue;
			}
		} else if (f->open ? x->in.cmn[i] + off >= f->v :
			   x->in.cmx[i] + off < f->v) {
			continue;
		}
		_fit(x->in.child[i], off, f);
	}
}

int sb_timetree_fit(const sb_timetree_t *tt, int64_t t, int64_t d,
		    int64_t v, int64_t end, int64_t *at)
{
	struct fit f = { .t = t, .d = d, .v = v, .end = end };

	if (!tt || !at || d < 1) {
		errno = EINVAL;
		return -1;
	}
	if (tt->root)
		_fit(tt->root, 0, &f);
	/* Open at the end of the walk or of the window: s fits. */
	if (f.open) {
		*at = f.s;
		return 0;
	}
	errno = ENOENT;
	return -1;
}

/*
 * Child j of x holds times in [key[j], key[j + 1]); it lies wholly in
 * [a, b) when key[j] >= a and key[j + 1] <= b. The last child's upper
 * bound is not known here, so it is always entered: that adds one path.
 */
static inline bool _covered(const struct bt_node *x, int j, int64_t a,
			    int64_t b)
{
	return x->key[j] >= a && j + 1 < x->n && x->key[j + 1] <= b;
}

static void _add(struct bt_node *x, int64_t a, int64_t b, int64_t d)
{
	int i = _lower(x, a);

	for (i = i < 0 ? 0 : i; i < x->n && x->key[i] < b; i++) {
		if (x->leaf) {
			if (x->key[i] >= a)
				x->l.val[i] += d;
		} else if (_covered(x, i, a, b)) {
			x->in.child[i]->tag += d;
			x->in.cmn[i] += d;
			x->in.cmx[i] += d;
		} else {
			_add(x->in.child[i], a, b, d);
			_refresh(x, i);
		}
	}
}

int sb_timetree_add(sb_timetree_t *tt, int64_t a, int64_t b, int64_t delta)
{
	if (!tt) {
		errno = EINVAL;
		return -1;
	}
	if (a < b && delta && tt->root)
		_add(tt->root, a, b, delta);
	return 0;
}

static void _min_range(const struct bt_node *x, int64_t off, int64_t a,
		       int64_t b, bool *found, int64_t *best)
{
	int i = _lower(x, a);
	int64_t w;

	off += x->tag;
	for (i = i < 0 ? 0 : i; i < x->n && x->key[i] < b; i++) {
		if (x->leaf) {
			if (x->key[i] < a)
				continue;
			w = x->l.val[i] + off;
		} else if (_covered(x, i, a, b)) {
			w = x->in.cmn[i] + off;
		} else {
			_min_range(x->in.child[i], off, a, b, found, best);
			continue;
		}
		if (!*found || w < *best)
			*best = w;
		*found = true;
	}
}

int sb_timetree_min(const sb_timetree_t *tt, int64_t a, int64_t b,
		    int64_t *out)
{
	bool found = false;
	int64_t best = 0;

	if (!tt || !out) {
		errno = EINVAL;
		return -1;
	}
	if (a < b && tt->root)
		_min_range(tt->root, 0, a, b, &found, &best);
	if (!found) {
		errno = ENOENT;
		return -1;
	}
	*out = best;
	return 0;
}

static int _walk(const struct bt_node *x, int64_t off, sb_timetree_walk_fn fn,
		 void *arg)
{
	int rc;

	off += x->tag;
	for (int i = 0; i < x->n; i++) {
		rc = x->leaf ? fn(x->key[i], x->l.val[i] + off, x->l.refs[i],
				  arg) :
			_walk(x->in.child[i], off, fn, arg);
		if (rc)
			return rc;
	}
	return 0;
}

int sb_timetree_walk(const sb_timetree_t *tt, sb_timetree_walk_fn fn,
		     void *arg)
{
	if (!tt || !fn) {
		errno = EINVAL;
		return -1;
	}
	return tt->root ? _walk(tt->root, 0, fn, arg) : 0;
}

/*
 * Check the subtree @x at @depth (1 = root): sizes, key order, keys equal
 * to the children's first times, summaries equal to the children's, every
 * leaf at the tree's height. Its last time goes into *last. Returns the
 * number of points, or -1 if broken.
 */
static long _check(const sb_timetree_t *tt, const struct bt_node *x,
		   int depth, int64_t *last)
{
	long n = 0, c;
	int64_t mn, mx, cl = 0;

	if (x->n < 1 || x->n > FANOUT || x->leaf != (depth == tt->height))
		return -1;
	for (int i = 1; i < x->n; i++)
		if (x->key[i - 1] >= x->key[i])
			return -1;
	if (x->leaf) {
		for (int i = 0; i < x->n; i++)
			if (!x->l.refs[i])
				return -1;
		*last = x->key[x->n - 1];
		return x->n;
	}
	for (int i = 0; i < x->n; i++) {
		const struct bt_node *ch = x->in.child[i];

		if ((c = _check(tt, ch, depth + 1, &cl)) < 0 ||
		    ch->key[0] != x->key[i] ||
		    (i + 1 < x->n && cl >= x->key[i + 1]))
			return -1;
		_summary(ch, &mn, &mx);
		if (mn != x->in.cmn[i] || mx != x->in.cmx[i])
			return -1;
		n += c;
	}
	*last = cl;
	return n;
}

int sb_timetree_check(const sb_timetree_t *tt)
{
	int64_t last;

	if (!tt) {
		errno = EINVAL;
		return -1;
	}
	if (tt->root ? _check(tt, tt->root, 1, &last) != (long) tt->n :
	    tt->n || tt->height) {
		errno = EFAULT;
		return -1;
	}
	return 0;
}
