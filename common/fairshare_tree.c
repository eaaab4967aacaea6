/*
 * fairshare_tree.c - Fair Tree fair share, as Slurm 22.05 computes it.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fairshare_priv.h"
#include "fairshare_tree.h"

/*
 * A sibling as the sort sees it: one 64-bit integer, so that a level sorts
 * in cache and moves little. From the top: the Level FS rounded to a
 * double and cut to its high bits (non-negative doubles order like their
 * bit patterns), a user bit (users first on equal bits), both complemented
 * so that ascending keys are descending Level FS; then the sibling's
 * position in its fs parent's list, in the low @pb bits. Keys are unique,
 * so any sort is stable. Rounding and cutting are monotonic: only
 * siblings with equal cut values can be out of long double order, and
 * _fix_runs() sorts those runs by the exact values. Sorting integers
 * without branches is what keeps a 100k-user pass in a few milliseconds.
 */
static inline uint64_t _key(long double lfs, bool user, int pos, int pb)
{
	double d = (double) lfs;
	uint64_t bits, hi;

	memcpy(&bits, &d, sizeof(bits));
	/* the sign bit is 0: bits >> pb leaves room for the user bit */
	hi = ((bits >> pb) & ~UINT64_C(1)) | (user ? 1 : 0);
	return (~hi << pb) | (uint64_t) pos;
}

static inline bool _key_user(uint64_t k, int pb)
{
	return !((k >> pb) & 1);
}

/* Bits of a position among @k siblings. */
static inline int _pos_bits(int k)
{
	int b = 1;

	while (b < 31 && (1 << b) < k)
		b++;
	return b;
}

/* Compare-exchange of a sorting network, without branches. */
static inline void _cx(uint64_t *x, uint64_t *y)
{
	uint64_t a = *x, b = *y;

	*x = b < a ? b : a;
	*y = b < a ? a : b;
}

/* Bottom-up merge sort of @v (unique keys); @tmp holds k entries. */
static void _sort_keys(uint64_t *v, int k, uint64_t *tmp)
{
	uint64_t *src = v, *dst = tmp, *sw;
	int w, i;

	/* Runs of 4 first, by a network (a branchy insertion sort would
	 * mispredict about once per key). */
	for (i = 0; i + 4 <= k; i += 4) {
		_cx(&v[i], &v[i + 1]);
		_cx(&v[i + 2], &v[i + 3]);
		_cx(&v[i], &v[i + 2]);
		_cx(&v[i + 1], &v[i + 3]);
		_cx(&v[i + 1], &v[i + 2]);
	}
	if (k - i == 3) {
		_cx(&v[i + 1], &v[i + 2]);
		_cx(&v[i], &v[i + 2]);
		_cx(&v[i], &v[i + 1]);
	} else if (k - i == 2) {
		_cx(&v[i], &v[i + 1]);
	}
	for (w = 4; w < k; w *= 2) {
		for (i = 0; i < k; i += 2 * w) {
			int a = i, ae = i + w < k ? i + w : k;
			int b = ae, be = i + 2 * w < k ? i + 2 * w : k;
			int o = i;

			while (a < ae && b < be) {
				uint64_t x = src[a], y = src[b];
				int r = y < x;

				dst[o++] = r ? y : x;
				b += r;
				a += !r;
			}
			while (a < ae)
				dst[o++] = src[a++];
			while (b < be)
				dst[o++] = src[b++];
		}
		sw = src;
		src = dst;
		dst = sw;
	}
	if (src != v)
		memcpy(v, src, (size_t) k * sizeof(*v));
}

/*
 * Order runs of equal cut values by the exact long double, descending,
 * users first on exact ties, then position; an insertion sort, since
 * runs are short (or exact ties, which it leaves in place).
 */
static void _fix_runs(const long double *lfs, const int *kids, uint64_t *v,
		      int k, int pb)
{
	uint64_t pmask = (UINT64_C(1) << pb) - 1;
	int i = 0;

	while (i < k) {
		int e = i + 1, a, b;

		/* equal cut values, users and accounts alike */
		while (e < k && (v[e] >> (pb + 1)) == (v[i] >> (pb + 1)))
			e++;
		for (a = i + 1; a < e; a++) {
			for (b = a; b > i; b--) {
				uint64_t x = v[b], y = v[b - 1];
				long double lx = lfs[kids[x & pmask]];
				long double ly = lfs[kids[y & pmask]];

				if (!(lx > ly ||
				      (lx == ly && _key_user(x, pb) &&
				       !_key_user(y, pb))))
					break;
				v[b] = y;
				v[b - 1] = x;
			}
		}
		i = e;
	}
}

struct ft_pass {
	struct sb_assoc_tree *t;
	uint64_t *keys;		/* a stack: each level pushes its siblings,
				 * so only the current path is in cache */
	int sp;			/* stack top */
	uint64_t *tmp;		/* merge buffer, largest sibling group */
	uint32_t rank;		/* Slurm's rank */
	uint32_t rnt;		/* Slurm's "rank, no ties" */
	uint32_t users;
};

/*
 * Slurm's _calc_assoc_fs() for the @k fs children @kids: U against the
 * fs parent's usage @pu, then S / U, and each child's sort key into @key
 * while its Level FS is still in a register. Two passes, each a run of
 * independent 80-bit divisions the FPU can overlap (one pass doing both
 * would wait for each U before its S / U): exact long doubles are what
 * Slurm compares, so the divisions stay.
 */
static void _calc_assoc_fs(struct sb_assoc_tree *t, const int *kids, int k,
			   long double pu, uint64_t *key, int pb)
{
	int i;

	for (i = 0; i < k; i++) {
		int id = kids[i];

		t->usage_efctv[id] = pu ? t->usage[id] / pu : 0.0L;
	}
	for (i = 0; i < k; i++) {
		int id = kids[i];
		double s = t->shares_norm[id];
		long double lfs;

		if (t->shares[id] == SB_SHARES_PARENT)
			lfs = t->is_user[id] ? (long double) INFINITY
					     : SB_FS_NO_VAL;
		else if (s == 0.0)
			lfs = 0.0L;
		else if (t->usage_efctv[id] == 0.0L)
			/* s / 0 is +inf ("NOT A BUG" in Slurm) without
			 * the x87's slow division by zero */
			lfs = (long double) INFINITY;
		else
			lfs = (long double) s / t->usage_efctv[id];
		t->level_fs[id] = lfs;
		key[i] = _key(lfs, t->is_user[id], i, pb);
	}
}

/* Slurm's _calc_tree_fs() over the fs children of @parent. */
static void _calc_tree_fs(struct ft_pass *ps, int parent, bool account_tied)
{
	struct sb_assoc_tree *t = ps->t;
	const int *kids = t->fs_kids + t->fs_first[parent];
	uint64_t *sib = ps->keys + ps->sp, pmask;
	long double pu = t->usage[parent];
	int k = t->fs_count[parent], i, pb = _pos_bits(k), prev = -1;

	ps->sp += k;
	pmask = (UINT64_C(1) << pb) - 1;

	_calc_assoc_fs(t, kids, k, pu, sib, pb);
	_sort_keys(sib, k, ps->tmp);
	_fix_runs(t->level_fs, kids, sib, k, pb);

	for (i = 0; i < k; i++) {
		int id = kids[sib[i] & pmask];
		bool tied;

		/* Equal Level FS have equal cut values: only those are
		 * compared exactly. The first sibling compares with Slurm's
		 * initial "previous", NO_VAL. */
		if (i == 0)
			tied = account_tied ||
				t->level_fs[id] == SB_FS_NO_VAL;
		else
			tied = (sib[i] >> (pb + 1)) ==
				(sib[i - 1] >> (pb + 1)) &&
				t->level_fs[id] == t->level_fs[prev];

		if (_key_user(sib[i], pb)) {
			if (!tied)
				ps->rank = ps->rnt;
			t->rank[id] = ps->rank;
			t->fs_factor[id] = ps->rank / (double) ps->users;
			ps->rnt--;
		} else {
			/*
			 * Slurm would merge the children of the following
			 * tied accounts here, but it counts them only among
			 * the following *users*, and a user never follows an
			 * account with equal Level FS: the count is 0.
			 */
			_calc_tree_fs(ps, id, tied);
		}
		prev = id;
	}
	ps->sp -= k;
}

int sb_fairshare_tree_compute(sb_assoc_tree_t *t)
{
	struct ft_pass ps;
	int i, kmax = 1;

	if (!t) {
		errno = EINVAL;
		return -1;
	}
	memset(&ps, 0, sizeof(ps));
	/* The key stack never holds more than every association once; the
	 * merge buffer needs the largest sibling group (known once the
	 * layout is), so it goes first, sized n until then. */
	if (sb__assoc_tree_prepare(t) < 0)
		return -1;
	for (i = 0; i < t->n; i++)
		if (t->fs_count[i] > kmax)
			kmax = t->fs_count[i];
	if (!(ps.tmp = sb__assoc_tree_work(t, ((size_t) kmax + (size_t) t->n)
					   * sizeof(*ps.tmp))))
		return -1;
	ps.keys = ps.tmp + kmax;
	ps.t = t;
	ps.users = (uint32_t) t->n_users;
	ps.rank = ps.rnt = ps.users;
	sb__assoc_tree_level_norms(t);
	/* Accounts keep factor and rank 0 and nobody has a raw value; users
	 * all get their factor below. Already so after a Fair Tree pass. */
	if (t->filled != SB_FS_FAIR_TREE) {
		memset(t->fs_factor, 0, (size_t) t->n * sizeof(*t->fs_factor));
		memset(t->rank, 0, (size_t) t->n * sizeof(*t->rank));
		memset(t->fs_raw, 0, (size_t) t->n * sizeof(*t->fs_raw));
		memset(t->fs_ranked, 0,
		       (size_t) t->n * sizeof(*t->fs_ranked));
	}
	/* Slurm's root: Level FS NO_VAL, effective usage 1 (set at init). */
	t->level_fs[0] = SB_FS_NO_VAL;
	t->usage_efctv[0] = 1.0L;
	_calc_tree_fs(&ps, SB_ASSOC_ROOT, false);
	t->algorithm = t->filled = SB_FS_FAIR_TREE;
	return 0;
}

int sb_fairshare_tree_check(const sb_assoc_tree_t *t)
{
	uint32_t best = 0;
	int i;

	if (!t || t->algorithm != SB_FS_FAIR_TREE) {
		errno = EINVAL;
		return -1;
	}
	if (sb_assoc_tree_check(t) < 0)
		return -1;
	for (i = 1; i < t->n; i++) {
		long double pu = t->usage[t->fs_parent[i]];
		long double u = pu ? t->usage[i] / pu : 0.0L;

		if (t->usage_efctv[i] != u)
			goto bad;
		if (t->shares[i] == SB_SHARES_PARENT) {
			if (t->level_fs[i] != (t->is_user[i]
					       ? (long double) INFINITY
					       : SB_FS_NO_VAL))
				goto bad;
		} else if (t->shares_norm[i] == 0.0) {
			if (t->level_fs[i] != 0.0L)
				goto bad;
		} else if (t->level_fs[i] != t->shares_norm[i] / u) {
			goto bad;
		}
		if (!t->is_user[i])
			continue;
		if (t->rank[i] < 1 || t->rank[i] > (uint32_t) t->n_users)
			goto bad;
		if (t->fs_factor[i] != t->rank[i] / (double) t->n_users)
			goto bad;
		if (!(t->fs_factor[i] > 0.0 && t->fs_factor[i] <= 1.0))
			goto bad;
		if (t->rank[i] > best)
			best = t->rank[i];
	}
	if (t->n_users && best != (uint32_t) t->n_users)
		goto bad;
	return 0;
bad:
	errno = EFAULT;
	return -1;
}
