/*
 * timetree.c - change points in a B+tree with lazy range add and
 * per-child min/max (see timetree.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Layout. Leaves hold up to FANOUT points (time, val, refs) in time order;
 * internal nodes hold up to FANOUT children with, for each, the smallest
 * time below it (key), the min and max val below it (cmn, cmx) and a lazy
 * tag (ctag). The per-child data sit in contiguous arrays of the parent,
 * so a search or a range add deals with a child it does not enter without
 * loading it: a descent costs a few cache lines per level on a tree 4 or 5
 * levels deep for millions of points, against one miss per level on a
 * red-black tree 25 to 40 levels deep.
 *
 * Frames. ctag[i] is an amount added to everything below child i and not
 * handed down: the true val of a point is its stored val plus the ctag of
 * every ancestor's entry on its path. cmn[i]/cmx[i] are in the parent's
 * frame: the child's own min/max plus ctag[i]. Adding d to a whole child
 * is then O(1) and touches only the parent: ctag[i], cmn[i] and cmx[i]
 * += d.
 *
 * Why the tag lives in the parent and is never pushed down (#25). The
 * first version kept the tag in the child and handed it down to all
 * children of every node on an insertion's or removal's path: at 1.8M
 * points that is a cache miss per child, 32 per level, and the range add
 * loaded every child it covered just to bump its tag; an update then took
 * 4-10 us. Now nothing below a node is loaded unless the operation goes
 * there: an insertion subtracts the tags on its way down (its val is the
 * previous point's, in the leaf's frame), a split gives the new sibling
 * its sibling's ctag, and a collapsed root hands its one tag to the new
 * root. Tags are sums of range deltas that cancel when a span is removed
 * over the same nodes; when nodes changed in between, a tag and the
 * stored vals below it keep opposite residues (their sum, the true val,
 * is exact), bounded by the sum of the deltas ever added, far from
 * int64_t's range for the planner's counts.
 *
 * Deletion removes empty nodes but does not merge sparse ones: the depth
 * never exceeds what the largest size the tree ever had required, and a
 * root left with one child is collapsed. Allocation happens only in
 * acquire and only before anything changes (the free lists are filled
 * first), so no call fails half way.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
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
#define SLAB_MIN (8 * 1024)
#define SLAB_MAX (64 * 1024)

/*
 * A leaf is allocated at the size of its own part of the union (648
 * bytes at fanout 32, against 1,544 for an internal node): leaves are
 * nearly all the nodes, so the tree takes half the memory, pages and TLB
 * entries it would at one size. A leaf is only ever accessed through
 * n, leaf, key and l.
 */
struct bt_node {
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
			int64_t cmn[FANOUT], cmx[FANOUT], ctag[FANOUT];
		} in;
	};
};

#define LEAF_BYTES (offsetof(struct bt_node, l) + \
		    sizeof(((struct bt_node *) 0)->l))
#define INNER_BYTES sizeof(struct bt_node)

/*
 * Nodes come from slabs (see _slab()) and go back to a free list of their
 * kind (linked through in.child[0], inside a leaf's size too), not to
 * malloc: an insertion that splits takes a node whose pages were touched
 * when its slab was cut up, instead of faulting in fresh heap pages (a
 * page fault was most of the slowest 1% of updates). The memory of freed
 * nodes is kept for reuse until the tree is destroyed, so a tree holds
 * what its largest size needed.
 */
struct slab {
	struct slab *next;
};

struct pool {
	struct bt_node *free;
	int nfree;
	size_t slab;	/* bytes of the last slab */
};

struct sb_timetree {
	struct bt_node *root;
	size_t n;
	int height;		/* levels; 0 when empty */
	struct pool leaves, inner;
	struct slab *slabs;
};

static inline int64_t _min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

static inline int64_t _max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/*
 * Index of the last key <= t, or -1. A binary search without branches on
 * the keys (the compiler makes the choice a conditional move): the keys
 * are random, a branch on them is mispredicted half the time, and
 * _touch_edges() relies on its two walks running without a pipeline
 * flush between them.
 */
static inline int _lower(const struct bt_node *x, int64_t t)
{
	const int64_t *k = x->key;
	int n = x->n, base = 0;

	/*
	 * The nodes a walk enters after the first start after t: the fit
	 * walk's neighbours, a range's right edge.
	 */
	if (!n || k[0] > t)
		return -1;
	while (n > 1) {
		int half = n / 2;

		base = k[base + half] <= t ? base + half : base;
		n -= half;
	}
	return base + (k[base] <= t) - 1;
}

/* Min and max of @x's own entries, in @x's frame. */
static void _summary(const struct bt_node *x, int64_t *mn, int64_t *mx)
{
	const int64_t *a = x->leaf ? x->l.val : x->in.cmn;
	const int64_t *b = x->leaf ? x->l.val : x->in.cmx;
	int64_t lo = a[0], hi = b[0];

	for (int i = 1; i < x->n; i++) {
		lo = _min64(lo, a[i]);
		hi = _max64(hi, b[i]);
	}
	*mn = lo;
	*mx = hi;
}

/*
 * Re-read child @j of @x: its first time and its min/max. Returns whether
 * any of them changed (if not, nothing above x changes either); @fresh:
 * the entry holds nothing yet to compare with.
 */
static bool _refresh(struct bt_node *x, int j, bool fresh)
{
	struct bt_node *c = x->in.child[j];
	int64_t mn, mx;
	bool chg;

	_summary(c, &mn, &mx);
	mn += x->in.ctag[j];
	mx += x->in.ctag[j];
	chg = fresh || x->key[j] != c->key[0] || x->in.cmn[j] != mn ||
		x->in.cmx[j] != mx;
	x->key[j] = c->key[0];
	x->in.cmn[j] = mn;
	x->in.cmx[j] = mx;
	return chg;
}

static struct bt_node *_node_get(sb_timetree_t *tt, bool leaf)
{
	struct pool *pl = leaf ? &tt->leaves : &tt->inner;
	struct bt_node *x = pl->free;

	/* _reserve() made sure there is one. */
	pl->free = x->in.child[0];
	pl->nfree--;
	x->n = 0;
	x->leaf = leaf;
	return x;
}

static void _node_put(sb_timetree_t *tt, struct bt_node *x)
{
	struct pool *pl = x->leaf ? &tt->leaves : &tt->inner;

	x->in.child[0] = pl->free;
	pl->free = x;
	pl->nfree++;
}

/*
 * A slab cut into nodes of @bytes onto @pl; -1 on ENOMEM. Slabs double
 * from SLAB_MIN to SLAB_MAX, so a small tree (one licence's planner)
 * stays small. (2 MB slabs on huge pages measured no faster: the TLB
 * misses of 4 KB pages were not what an update waited for.)
 */
static int _slab(sb_timetree_t *tt, struct pool *pl, size_t bytes)
{
	/* The header is padded to the nodes' alignment. */
	size_t head = (sizeof(struct slab) + 15) & ~(size_t) 15;
	size_t size = pl->slab ? pl->slab * 2 : SLAB_MIN;
	struct slab *sl;
	size_t k;
	char *p;

	if (size > SLAB_MAX)
		size = SLAB_MAX;
	if (!(sl = malloc(size)))
		return -1;
	pl->slab = size;
	sl->next = tt->slabs;
	tt->slabs = sl;
	p = (char *) sl + head;
	k = (size - head) / bytes;
	for (size_t i = 0; i < k; i++) {
		struct bt_node *x = (struct bt_node *) (p + i * bytes);

		x->in.child[0] = pl->free;
		pl->free = x;
		pl->nfree++;
	}
	return 0;
}

/* Enough free nodes for one insertion to split every level. */
static int _reserve(sb_timetree_t *tt)
{
	if (tt->leaves.nfree < 1 && _slab(tt, &tt->leaves, LEAF_BYTES) < 0)
		return -1;
	/* A split per internal level, and a new root. */
	while (tt->inner.nfree < tt->height)
		if (_slab(tt, &tt->inner, INNER_BYTES) < 0)
			return -1;
	return 0;
}

sb_timetree_t *sb_timetree_create(void)
{
	sb_timetree_t *tt = calloc(1, sizeof(*tt));

	if (!tt)
		errno = ENOMEM;
	return tt;
}

void sb_timetree_destroy(sb_timetree_t *tt)
{
	struct slab *sl;

	if (!tt)
		return;
	while ((sl = tt->slabs)) {
		tt->slabs = sl->next;
		free(sl);
	}
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
	int i;

	*off = 0;
	if (!x || t < x->key[0])
		return NULL;
	while (!x->leaf) {
		/* key[0] <= t at every level, so the index is >= 0. */
		i = _lower(x, t);
		*off += x->in.ctag[i];
		x = x->in.child[i];
	}
	*idx = _lower(x, t);
	return x;
}

/* What an insertion did below a node, for the node's parent. */
enum ins {
	INS_OVERFLOW,	/* the point has UINT32_MAX references: no change */
	INS_SAME,	/* summaries and first times above are unchanged */
	INS_CHANGED,	/* the first time or min/max may have changed */
};

/*
 * Reference the point @at in the subtree @x, creating it with the val of
 * the point before it, or @dflt (in x's frame) when none precedes it in
 * the tree. A split's new right sibling goes into *@split.
 *
 * A new point takes the val of the point before it in its leaf, so the
 * leaf's min/max do not change and no summary above needs re-reading;
 * only a point before all others (the leftmost path, with dflt) changes
 * a first time or a summary. After a split the parent re-reads both
 * halves, whose union holds the same vals as before.
 */
static enum ins _insert(sb_timetree_t *tt, struct bt_node *x, int64_t at,
			int64_t dflt, struct bt_node **split, bool *made)
{
	struct bt_node *y = NULL, *cy = NULL, *dst;
	enum ins r;
	int i, pos;

	*split = NULL;
	if (x->leaf) {
		pos = _lower(x, at);
		if (pos >= 0 && x->key[pos] == at) {
			if (x->l.refs[pos] == UINT32_MAX)
				return INS_OVERFLOW;
			x->l.refs[pos]++;
			return INS_SAME;
		}
		*made = true;
		r = pos < 0 ? INS_CHANGED : INS_SAME;
		dflt = pos < 0 ? dflt : x->l.val[pos];
		pos++;
		dst = x;
		if (x->n == FANOUT) {
			y = _node_get(tt, true);
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
		dst->l.val[pos] = dflt;
		dst->l.refs[pos] = 1;
		dst->n++;
		*split = y;
		return r;
	}
	i = _lower(x, at);
	if (i < 0)
		i = 0;
	r = _insert(tt, x->in.child[i], at, dflt - x->in.ctag[i], &cy, made);
	if (r == INS_OVERFLOW || (r == INS_SAME && !cy))
		return r;
	/*
	 * A split leaves x's vals as they were, so only a change below
	 * (the leftmost path) makes x's parent re-read x.
	 */
	if (!_refresh(x, i, false) && !cy)
		return INS_SAME;
	if (!cy)
		return r;
	pos = i + 1;
	dst = x;
	if (x->n == FANOUT) {
		y = _node_get(tt, false);
		y->n = FANOUT - HALF;
		memcpy(y->key, x->key + HALF, (size_t) y->n * 8);
		memcpy(y->in.child, x->in.child + HALF,
		       (size_t) y->n * sizeof(y->in.child[0]));
		memcpy(y->in.cmn, x->in.cmn + HALF, (size_t) y->n * 8);
		memcpy(y->in.cmx, x->in.cmx + HALF, (size_t) y->n * 8);
		memcpy(y->in.ctag, x->in.ctag + HALF, (size_t) y->n * 8);
		x->n = HALF;
		/* Child i's entry may have moved to y. */
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
	memmove(dst->in.ctag + pos + 1, dst->in.ctag + pos,
		(size_t) (dst->n - pos) * 8);
	/* The new half is in its sibling's frame: same tag. */
	dst->in.ctag[pos] = dst->in.ctag[pos - 1];
	dst->in.child[pos] = cy;
	dst->n++;
	(void) _refresh(dst, pos, true);
	*split = y;
	return r;
}

int sb_timetree_acquire(sb_timetree_t *tt, int64_t at, int64_t dflt)
{
	struct bt_node *y, *r;
	bool made = false;

	if (!tt) {
		errno = EINVAL;
		return -1;
	}
	/* Before anything changes, so a failure changes nothing. */
	if (_reserve(tt) < 0) {
		errno = ENOMEM;
		return -1;
	}
	if (!tt->root) {
		tt->root = _node_get(tt, true);
		tt->height = 1;
	}
	if (_insert(tt, tt->root, at, dflt, &y, &made) == INS_OVERFLOW) {
		errno = EOVERFLOW;
		return -1;
	}
	if (y) {
		r = _node_get(tt, false);
		r->n = 2;
		r->in.child[0] = tt->root;
		r->in.child[1] = y;
		r->in.ctag[0] = r->in.ctag[1] = 0;
		(void) _refresh(r, 0, true);
		(void) _refresh(r, 1, true);
		tt->root = r;
		tt->height++;
	}
	tt->n += made;
	return 0;
}

/* What a removal did below a node, for the node's parent. */
enum rem {
	REM_NONE,	/* no point at that time: no change */
	REM_SAME,	/* summaries and first times above are unchanged */
	REM_CHANGED,	/* the first time or min/max may have changed */
	REM_EMPTY,	/* the node is empty: the parent drops it */
};

/*
 * Drop a reference on the point @at in the subtree @x, deleting the
 * point at the last one. One descent: a missing point is found at the
 * leaf, before anything changed.
 */
static enum rem _remove(sb_timetree_t *tt, struct bt_node *x, int64_t at,
			bool *gone)
{
	int i = _lower(x, at);
	enum rem r;

	if (i < 0)
		return REM_NONE;
	if (x->leaf) {
		if (x->key[i] != at)
			return REM_NONE;
		if (--x->l.refs[i])
			return REM_SAME;
		*gone = true;
		x->n--;
		memmove(x->key + i, x->key + i + 1, (size_t) (x->n - i) * 8);
		memmove(x->l.val + i, x->l.val + i + 1,
			(size_t) (x->n - i) * 8);
		memmove(x->l.refs + i, x->l.refs + i + 1,
			(size_t) (x->n - i) * 4);
		return x->n ? REM_CHANGED : REM_EMPTY;
	}
	r = _remove(tt, x->in.child[i], at, gone);
	if (r == REM_NONE || r == REM_SAME)
		return r;
	if (r == REM_CHANGED)
		return _refresh(x, i, false) ? REM_CHANGED : REM_SAME;
	_node_put(tt, x->in.child[i]);
	x->n--;
	memmove(x->key + i, x->key + i + 1, (size_t) (x->n - i) * 8);
	memmove(x->in.child + i, x->in.child + i + 1,
		(size_t) (x->n - i) * sizeof(x->in.child[0]));
	memmove(x->in.cmn + i, x->in.cmn + i + 1, (size_t) (x->n - i) * 8);
	memmove(x->in.cmx + i, x->in.cmx + i + 1, (size_t) (x->n - i) * 8);
	memmove(x->in.ctag + i, x->in.ctag + i + 1, (size_t) (x->n - i) * 8);
	return x->n ? REM_CHANGED : REM_EMPTY;
}

/* Hand @d, the tag of @x's entry in a parent x no longer has, to x's. */
static void _absorb(struct bt_node *x, int64_t d)
{
	for (int i = 0; i < x->n; i++) {
		if (x->leaf) {
			x->l.val[i] += d;
		} else {
			x->in.ctag[i] += d;
			x->in.cmn[i] += d;
			x->in.cmx[i] += d;
		}
	}
}

int sb_timetree_release(sb_timetree_t *tt, int64_t at)
{
	struct bt_node *x, *c;
	bool gone = false;
	enum rem r;

	if (!tt) {
		errno = EINVAL;
		return -1;
	}
	if (!tt->root ||
	    (r = _remove(tt, tt->root, at, &gone)) == REM_NONE) {
		errno = ENOENT;
		return -1;
	}
	if (!gone)
		return 0;
	tt->n--;
	x = tt->root;
	if (r == REM_EMPTY) {
		_node_put(tt, x);
		tt->root = NULL;
		tt->height = 0;
		return 0;
	}
	/* A root with one child is a level too many. */
	while (!x->leaf && x->n == 1) {
		c = x->in.child[0];
		_absorb(c, x->in.ctag[0]);
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
		*val = x->l.val[i] + off;
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
 * @off: the tags above x (x's frame to true vals).
 */
static void _fit(const struct bt_node *x, int64_t off, struct fit *f)
{
	int i = _lower(x, f->t);

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
		_fit(x->in.child[i], off + x->in.ctag[i], f);
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
 * Child j of x holds times in [key[j], key[j + 1]), the last child up to
 * @hi, the first time after x (none when @has_hi is false: x is on the
 * tree's right edge). It lies wholly in [a, b) when key[j] >= a and its
 * upper bound is <= b. Without hi, the last child of every node on the
 * range's left edge would be entered too, and in it the last child again,
 * down to a leaf: a descent more per level, each a cache miss or more.
 */
static inline bool _covered(const struct bt_node *x, int j, int64_t a,
			    int64_t b, int64_t hi, bool has_hi)
{
	if (x->key[j] < a)
		return false;
	if (j + 1 < x->n)
		return x->key[j + 1] <= b;
	return has_hi && hi <= b;
}

/* The upper bound of child j of x, for its own children (see above). */
static inline void _child_hi(const struct bt_node *x, int j, int64_t *hi,
			     bool *has_hi)
{
	if (j + 1 < x->n) {
		*hi = x->key[j + 1];
		*has_hi = true;
	}
}

/*
 * Load the two edges of a range [a, b) from the root down together, one
 * level of each per step, before a range add or min goes down them one
 * after the other. In a tree too large for the caches every node below
 * the top levels is a miss; the two walks have no data dependency on
 * each other, so the processor overlaps their misses, and the range
 * operation that follows finds its nodes cached: the cost is one descent
 * instead of two. Each node is prefetched whole as soon as its address is
 * known: the operation reads the children's min, max and tags near the
 * edge, and re-reads an edge node's summary on its way back up, which
 * would otherwise be another miss per level, one level after the other.
 */
static inline void _prefetch_node(const struct bt_node *x, size_t bytes)
{
	const char *p = (const char *) x;

	for (size_t o = 64; o < bytes; o += 64)
		__builtin_prefetch(p + o);
}

/*
 * The size comes from the depth, not from x->leaf: reading that would
 * wait for the node's first line before prefetching the others.
 */
static void _touch_edges(const sb_timetree_t *tt, int64_t a, int64_t b)
{
	const struct bt_node *l = tt->root, *r = l;

	for (int depth = 1; depth < tt->height; depth++) {
		int i = _lower(l, a), j = _lower(r, b - 1);
		size_t bytes = depth + 1 < tt->height ? INNER_BYTES :
			LEAF_BYTES;

		i = i < 0 ? 0 : i;
		j = j < 0 ? 0 : j;
		l = l->in.child[i];
		r = r->in.child[j];
		_prefetch_node(l, bytes);
		if (r != l)
			_prefetch_node(r, bytes);
	}
}

/*
 * The entries of @x that hold times in [a, b): first..last, or none
 * (false). In a leaf, the points in [a, b) (with @floor, from the last
 * one <= a); in an internal node, the children holding any: all but the
 * first and the last are covered.
 */
static inline bool _span(const struct bt_node *x, int64_t a, int64_t b,
			 bool floor, int *first, int *last)
{
	int i = _lower(x, a);

	if (i < 0 || (x->leaf && !floor && x->key[i] < a))
		i++;
	*first = i;
	*last = _lower(x, b - 1);
	return *last >= i;
}

/*
 * Covered children take the delta in their entries here, without being
 * loaded; the partly covered ones (at most two per level: the ends of
 * the range) are entered and re-read.
 */
static void _add(struct bt_node *x, int64_t a, int64_t b, int64_t d,
		 int64_t hi, bool has_hi)
{
	int lo, up, end;

	if (!_span(x, a, b, false, &lo, &up))
		return;
	if (x->leaf) {
		for (int i = lo; i <= up; i++)
			x->l.val[i] += d;
		return;
	}
	end = up;
	if (!_covered(x, lo, a, b, hi, has_hi)) {
		int64_t chi = hi;
		bool chas = has_hi;

		_child_hi(x, lo, &chi, &chas);
		_add(x->in.child[lo], a, b, d, chi, chas);
		(void) _refresh(x, lo, false);
		lo++;
	}
	if (up >= lo && !_covered(x, up, a, b, hi, has_hi))
		up--;
	for (int i = lo; i <= up; i++) {
		x->in.ctag[i] += d;
		x->in.cmn[i] += d;
		x->in.cmx[i] += d;
	}
	if (end > up && end >= lo) {
		int64_t chi = hi;
		bool chas = has_hi;

		_child_hi(x, end, &chi, &chas);
		_add(x->in.child[end], a, b, d, chi, chas);
		(void) _refresh(x, end, false);
	}
}

int sb_timetree_add(sb_timetree_t *tt, int64_t a, int64_t b, int64_t delta)
{
	if (!tt) {
		errno = EINVAL;
		return -1;
	}
	if (a < b && delta && tt->root) {
		_touch_edges(tt, a, b);
		_add(tt->root, a, b, delta, 0, false);
	}
	return 0;
}

/*
 * The min over the points in [a, b), and with @floor also the last point
 * before a (the one in force at a): in a leaf, the walk then starts from
 * the last point <= a instead of the first >= a, which is the same path.
 */
static void _min_range(const struct bt_node *x, int64_t off, int64_t a,
		       int64_t b, bool floor, int64_t hi, bool has_hi,
		       bool *found, int64_t *best)
{
	const int64_t *v = x->leaf ? x->l.val : x->in.cmn;
	int lo, up, end;
	int64_t m;

	if (!_span(x, a, b, floor, &lo, &up))
		return;
	end = up;
	if (!x->leaf) {
		if (!_covered(x, lo, a, b, hi, has_hi)) {
			int64_t chi = hi;
			bool chas = has_hi;

			_child_hi(x, lo, &chi, &chas);
			_min_range(x->in.child[lo], off + x->in.ctag[lo], a,
				   b, floor, chi, chas, found, best);
			lo++;
		}
		if (up >= lo && !_covered(x, up, a, b, hi, has_hi))
			up--;
	}
	if (up >= lo) {
		m = v[lo];
		for (int i = lo + 1; i <= up; i++)
			m = _min64(m, v[i]);
		m += off;
		if (!*found || m < *best)
			*best = m;
		*found = true;
	}
	if (end > up && end >= lo) {
		int64_t chi = hi;
		bool chas = has_hi;

		_child_hi(x, end, &chi, &chas);
		_min_range(x->in.child[end], off + x->in.ctag[end], a, b,
			   floor, chi, chas, found, best);
	}
}

static int _min(const sb_timetree_t *tt, int64_t a, int64_t b, bool floor,
		int64_t *out)
{
	bool found = false;
	int64_t best = 0;

	if (!tt || !out) {
		errno = EINVAL;
		return -1;
	}
	if (a < b && tt->root) {
		_touch_edges(tt, a, b);
		_min_range(tt->root, 0, a, b, floor, 0, false, &found,
			   &best);
	}
	if (!found) {
		errno = ENOENT;
		return -1;
	}
	*out = best;
	return 0;
}

int sb_timetree_min(const sb_timetree_t *tt, int64_t a, int64_t b,
		    int64_t *out)
{
	return _min(tt, a, b, false, out);
}

int sb_timetree_min_in_force(const sb_timetree_t *tt, int64_t a, int64_t b,
			     int64_t *out)
{
	return _min(tt, a, b, true, out);
}

static int _walk(const struct bt_node *x, int64_t off, sb_timetree_walk_fn fn,
		 void *arg)
{
	int rc;

	for (int i = 0; i < x->n; i++) {
		rc = x->leaf ? fn(x->key[i], x->l.val[i] + off, x->l.refs[i],
				  arg) :
			_walk(x->in.child[i], off + x->in.ctag[i], fn, arg);
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
 * to the children's first times, summaries equal to the children's plus
 * their tags, every leaf at the tree's height. Its last time goes into
 * *last. Returns the number of points, or -1 if broken.
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
		if (mn + x->in.ctag[i] != x->in.cmn[i] ||
		    mx + x->in.ctag[i] != x->in.cmx[i])
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
