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
 * A sibling as the sort sees it, compact so that a level sorts in cache.
 * The key orders by the Level FS rounded to a double (non-negative doubles
 * order like their bit patterns), users first on equal doubles: ~(bits <<
 * 1 | user), ascending. Rounding is monotonic, so only siblings whose
 * doubles are equal can be out of long double order; _fix_runs() sorts
 * those runs by the exact values. Sorting integers without branches is
 * what keeps a 100k-user pass in a few milliseconds.
 */
struct ft_key {
	uint64_t k;
	int id;
	int user;
};

static uint64_t _key(long double lfs, bool user)
{
	double d = (double) lfs;
	uint64_t bits;

	memcpy(&bits, &d, sizeof(bits));
	return ~((bits << 1) | (user ? 1 : 0));
}

/* Stable bottom-up merge sort of @v by key; @tmp holds k entries. */
static void _sort_keys(struct ft_key *v, int k, struct ft_key *tmp)
{
	struct ft_key *src = v, *dst = tmp, *sw;
	int w, i, j;

	for (i = 1; i < k; i++) {
		/* Short runs first: insertion sort of blocks of 4. */
		if (i % 4 == 0)
			continue;
		for (j = i; j % 4 && v[j].k < v[j - 1].k; j--) {
			struct ft_key x = v[j];

			v[j] = v[j - 1];
			v[j - 1] = x;
		}
	}
	for (w = 4; w < k; w *= 2) {
		for (i = 0; i < k; i += 2 * w) {
			int a = i, ae = i + w < k ? i + w : k;
			int b = ae, be = i + 2 * w < k ? i + 2 * w : k;
			int o = i;

			while (a < ae && b < be) {
				/* Right only when strictly smaller: stable. */
				int r = src[b].k < src[a].k;

				dst[o++] = src[r ? b : a];
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

/* Order runs of equal doubles by the exact long double, descending, users
 * first on exact ties; insertion sort keeps it stable. */
static void _fix_runs(const long double *lfs, struct ft_key *v, int k)
{
	int i = 0;

	while (i < k) {
		int e = i + 1, a, b;

		while (e < k && (v[e].k >> 1) == (v[i].k >> 1))
			e++;
		for (a = i + 1; a < e; a++) {
			for (b = a; b > i; b--) {
				const struct ft_key *x = &v[b], *y = &v[b - 1];
				struct ft_key t;

				if (!(lfs[x->id] > lfs[y->id] ||
				      (lfs[x->id] == lfs[y->id] && x->user &&
				       !y->user)))
					break;
				t = v[b];
				v[b] = v[b - 1];
				v[b - 1] = t;
			}
		}
		i = e;
	}
}

struct ft_pass {
	struct sb_assoc_tree *t;
	struct ft_key *keys;	/* a stack: each level pushes its siblings,
				 * so only the current path is in cache */
	int sp;			/* stack top */
	struct ft_key *tmp;	/* merge buffer, largest sibling group */
	uint32_t rank;		/* Slurm's rank */
	uint32_t rnt;		/* Slurm's "rank, no ties" */
	uint32_t users;
};

/*
 * Slurm's _calc_assoc_fs() for the @k fs children @kids: U against the
 * fs parent's usage @pu, then S / U. Two passes, each a run of
 * independent 80-bit divisions the FPU can overlap (one pass doing both
 * would wait for each U before its S / U): exact long doubles are what
 * Slurm compares, so the divisions stay.
 */
static void _calc_assoc_fs(struct sb_assoc_tree *t, const int *kids, int k,
			   long double pu)
{
	int i;

	for (i = 0; i < k; i++) {
		int id = kids[i];

		t->shares_norm[id] = sb__fs_norm_level(t, id);
		t->usage_efctv[id] = pu ? t->usage[id] / pu : 0.0L;
	}
	for (i = 0; i < k; i++) {
		int id = kids[i];
		double s = t->shares_norm[id];

		if (t->shares[id] == SB_SHARES_PARENT)
			t->level_fs[id] = t->is_user[id] ?
				(long double) INFINITY : SB_FS_NO_VAL;
		else if (s == 0.0)
			t->level_fs[id] = 0.0L;
		else if (t->usage_efctv[id] == 0.0L)
			/* s / 0 is +inf ("NOT A BUG" in Slurm) without
			 * the x87's slow division by zero */
			t->level_fs[id] = (long double) INFINITY;
		else
			t->level_fs[id] = (long double) s /
				t->usage_efctv[id];
	}
}

/* Slurm's _calc_tree_fs() over the fs children of @parent. */
static void _calc_tree_fs(struct ft_pass *ps, int parent, bool account_tied)
{
	struct sb_assoc_tree *t = ps->t;
	const int *kids = t->fs_kids + t->fs_first[parent];
	struct ft_key *sib = ps->keys + ps->sp;
	long double pu = t->usage[parent], prev = SB_FS_NO_VAL;
	int k = t->fs_count[parent], i;

	ps->sp += k;

	_calc_assoc_fs(t, kids, k, pu);
	for (i = 0; i < k; i++) {
		sib[i].id = kids[i];
		sib[i].user = t->is_user[kids[i]];
		sib[i].k = _key(t->level_fs[kids[i]], sib[i].user);
	}
	_sort_keys(sib, k, ps->tmp);
	_fix_runs(t->level_fs, sib, k);

	for (i = 0; i < k; i++) {
		long double lfs = t->level_fs[sib[i].id];
		bool tied;

		if (i == 0 && account_tied)
			tied = true;
		else
			tied = prev == lfs;

		if (sib[i].user) {
			if (!tied)
				ps->rank = ps->rnt;
			t->rank[sib[i].id] = ps->rank;
			t->fs_factor[sib[i].id] = ps->rank / (double) ps->users;
			ps->rnt--;
		} else {
			/*
			 * Slurm would merge the children of the following
			 * tied accounts here, but it counts them only among
			 * the following *users*, and a user never follows an
			 * account with equal Level FS: the count is 0.
			 */
			_calc_tree_fs(ps, sib[i].id, tied);
		}
		prev = lfs;
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
	t->shares_norm[0] = 0.0;
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
