/*
 * fairshare_level.c - LEVEL_BASED fair share (Slurm 14.11, BYU 2014).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fairshare_level.h"
#include "assoc_tree_priv.h"

static uint64_t _bucket_max(int levels)
{
	return UINT64_MAX >> (64 - 64 / levels);
}

static bool _levels_ok(int levels)
{
	return levels >= SB_FS_LEVELS_MIN && levels <= SB_FS_LEVELS_MAX;
}

int sb_fairshare_level_shift(int levels, int level)
{
	if (!_levels_ok(levels) || level < 0 || level >= levels) {
		errno = EINVAL;
		return -1;
	}
	return (levels - level - 1) * (64 / levels) + 64 % levels;
}

/*
 * The level value as the 2014 code computes it, with Slurm's
 * NORMALIZE_VALUE(v, omin, omax, nmin, nmax) spelled out in the same
 * operation order, ((v - omin) * (nmax - nmin)) / (omax - omin) + nmin,
 * and its long double ratio and constants. The checker uses it, and the
 * fast path below falls back on it.
 */
static uint64_t _value_exact(long double u, long double s, uint64_t bmax)
{
	long double ratio, f;

	if (s == 0.0L)
		return 0;
	ratio = u / (((s - 0.0L) * (1.0L - 0.1L)) / (1.0L - 0.0L) + 0.1L);
	f = powl(2.0L, -ratio);
	return (uint64_t) ((f - 0.0L) * (long double) (bmax - 1) /
			   (1.0L - 0.0L) + 1);
}

/* 2^(-j/128) for j = 0..127, made by exp2() once per pass. */
#define EXP2_STEPS 128

static void _exp2_table(double *tab)
{
	int j;

	for (j = 0; j < EXP2_STEPS; j++)
		tab[j] = exp2(-j / (double) EXP2_STEPS);
}

/*
 * 2^-r for 0 <= r <= 10, within 4 double ulps: 2^-(whole 128ths) from
 * @tab and a power of two, times a degree-5 polynomial of e^-x for the
 * rest (x <= ln 2 / 128: the next term is below 2^-54). Half the cost of
 * exp2(), which a pass calls for every association.
 */
static inline double _exp2_neg(double r, const double *tab)
{
	static const double pow2[11] = {
		1.0, 0x1p-1, 0x1p-2, 0x1p-3, 0x1p-4, 0x1p-5, 0x1p-6, 0x1p-7,
		0x1p-8, 0x1p-9, 0x1p-10,
	};
	double y = r * EXP2_STEPS, x;
	int k = (int) y;

	x = (y - k) * (0.6931471805599453094 / EXP2_STEPS);
	return tab[k % EXP2_STEPS] * pow2[k / EXP2_STEPS] *
		(1 - x * (1 - x * (1.0 / 2 - x * (1.0 / 6 - x * (1.0 / 24 -
							     x / 120)))));
}

/*
 * _value_exact() at a fraction of its cost: powl() costs about 0.5 us and
 * an 80-bit division much more than a double one, which would dominate a
 * pass. Here the ratio is a double division (U <= 1, S' >= 0.1: the ratio
 * is at most 10 and within 2^-51 of the long double one), so 2^-ratio is
 * within 2^-48 (relative) of powl()'s. When the scaled value is farther
 * than 8 times that from an integer, truncating it gives what the long
 * double arithmetic gives; otherwise, for a ratio above 10 (an account
 * given less usage than its children's, in a file) and always for buckets
 * too wide for doubles, the long double arithmetic itself decides.
 */
static inline uint64_t _value(double u, double s, uint64_t bmax,
			      const double *tab)
{
	double ratio, scaled, margin;

	/* 0 shares: below every value the formula gives (see the header). */
	if (s == 0.0)
		return 0;
	/* no usage: 2^-0 is exactly 1 */
	if (u == 0.0)
		return bmax;
	ratio = u / (s * 0.9 + 0.1);
	margin = (double) bmax * 0x1p-45;
	if (ratio <= 10 && margin < 0.25) {
		double frac;

		scaled = _exp2_neg(ratio, tab) * (double) (bmax - 1) + 1;
		/* scaled < 2^43 here: an integer conversion is floor() */
		frac = scaled - (double) (int64_t) scaled;
		if (frac > margin && frac < 1 - margin)
			return (uint64_t) scaled;
	}
	return _value_exact(u, s, bmax);
}

uint64_t sb_fairshare_level_value(long double usage_efctv, double shares_norm,
				  int levels)
{
	if (!_levels_ok(levels) || !(usage_efctv >= 0) ||
	    !(shares_norm >= 0)) {
		errno = EINVAL;
		return 0;
	}
	return _value_exact(usage_efctv, shares_norm, _bucket_max(levels));
}

int sb_fairshare_level_compose(int levels, const uint64_t *values,
			       uint64_t *out)
{
	uint64_t raw = 0, bmax;
	int i;

	if (!_levels_ok(levels) || !values || !out) {
		errno = EINVAL;
		return -1;
	}
	bmax = _bucket_max(levels);
	for (i = 0; i < levels; i++) {
		if (values[i] > bmax) {
			errno = ERANGE;
			return -1;
		}
		raw |= values[i] << sb_fairshare_level_shift(levels, i);
	}
	*out = raw;
	return 0;
}

struct ukey {
	uint64_t key;		/* ~raw: ascending key order = raw descending */
	int id;
};

/*
 * Users sorted by raw value, descending: LSD radix sort of compact (key,
 * id) pairs, stable, so equal raw values keep traversal order. Only the
 * bits that differ between keys are sorted on, in as few passes of at
 * most 12 bits as they need (8 bits for small inputs, where the counter
 * arrays would cost more than the keys).
 */
static void _sort_users(struct ukey *v, int u, struct ukey *tmp,
			uint32_t *cnt)
{
	struct ukey *src = v, *dst = tmp;
	uint64_t and = UINT64_MAX, or = 0, vary;
	int lo, hi, bits, passes, width, pass, i;

	for (i = 0; i < u; i++) {
		and &= v[i].key;
		or |= v[i].key;
	}
	if (u < 2 || !(vary = and ^ or))
		return;
	for (lo = 0; !((vary >> lo) & 1); lo++)
		;
	for (hi = 63; !((vary >> hi) & 1); hi--)
		;
	bits = hi - lo + 1;
	width = u >= 16384 ? 12 : 8;
	passes = (bits + width - 1) / width;
	width = (bits + passes - 1) / passes;
	for (pass = 0; pass < passes; pass++) {
		int shift = lo + pass * width;
		uint64_t mask = (UINT64_C(1) << width) - 1;
		uint32_t pos = 0;
		size_t nb = (size_t) 1 << width;

		memset(cnt, 0, nb * sizeof(*cnt));
		for (i = 0; i < u; i++)
			cnt[(src[i].key >> shift) & mask]++;
		for (i = 0; i < (int) nb; i++) {
			uint32_t c = cnt[i];

			cnt[i] = pos;
			pos += c;
		}
		for (i = 0; i < u; i++)
			dst[cnt[(src[i].key >> shift) & mask]++] = src[i];
		src = dst;
		dst = src == v ? tmp : v;
	}
	if (src != v)
		memcpy(v, src, (size_t) u * sizeof(*v));
}

/*
 * The scaled rank and factor of every rank for @u users: Slurm's
 * NORMALIZE_VALUE(rank, 0.0, (long double) u, 0, UINT64_MAX), whose
 * product is a double, then ranked / UINT64_MAX. Two long double
 * divisions per rank; kept in the tree since they only depend on u.
 */
static int _rank_table(struct sb_assoc_tree *t, int u)
{
	uint64_t *ranked;
	double *factor;
	int r;

	if (t->rank_users == u)
		return 0;
	ranked = malloc((size_t) (u ? u : 1) * sizeof(*ranked));
	factor = malloc((size_t) (u ? u : 1) * sizeof(*factor));
	if (!ranked || !factor) {
		free(ranked);
		free(factor);
		errno = ENOMEM;
		return -1;
	}
	for (r = 0; r < u; r++) {
		long double scaled = ((r - 0.0) * (double) (UINT64_MAX - 0)) /
			((long double) u - 0.0) + 0;

		ranked[r] = (uint64_t) scaled;
		factor[r] = (double) ((long double) ranked[r] /
				      (long double) UINT64_MAX);
	}
	free(t->rank_ranked);
	free(t->rank_factor);
	t->rank_ranked = ranked;
	t->rank_factor = factor;
	t->rank_users = u;
	return 0;
}

/* Slurm's _level_based_apply_rank(): i counts down from u - 1 and a user
 * whose raw value differs from the previous one takes rank i. */
static void _rank(struct sb_assoc_tree *t, const struct ukey *v, int u)
{
	uint64_t prev = 0;
	int i, rank = u - 1;

	for (i = 0; i < u; i++) {
		int id = v[i].id;
		uint64_t raw = ~v[i].key;

		if (raw != prev)
			rank = u - 1 - i;
		t->rank[id] = (uint32_t) rank;
		t->fs_ranked[id] = t->rank_ranked[rank];
		t->fs_factor[id] = t->rank_factor[rank];
		prev = raw;
	}
}

int sb_fairshare_level_compute(sb_assoc_tree_t *t, int levels)
{
	struct ukey *users = NULL;
	uint32_t *cnt;
	signed char *lvl = NULL;
	int i, u = 0, width, unused;
	double tab[EXP2_STEPS];
	uint64_t bmax;

	if (!t || !_levels_ok(levels)) {
		errno = EINVAL;
		return -1;
	}
	/* Workspace: users, their radix buffer and counters, the levels. */
	users = sb__assoc_tree_work(t, 2 * ((size_t) t->n_users + 1) *
				    sizeof(*users) + 4096 * sizeof(uint32_t) +
				    (size_t) t->n);
	if (!users)
		return -1;
	cnt = (uint32_t *) (users + 2 * ((size_t) t->n_users + 1));
	lvl = (signed char *) (cnt + 4096);
	if (_rank_table(t, t->n_users) < 0 || sb__assoc_tree_prepare(t) < 0)
		return -1;
	width = 64 / levels;
	unused = 64 % levels;
	bmax = _bucket_max(levels);
	sb__assoc_tree_level_norms(t);
	_exp2_table(tab);
	/* Accounts keep factor and rank 0; already so after a LEVEL_BASED
	 * pass. */
	if (t->filled != SB_FS_LEVEL_BASED) {
		memset(t->fs_factor, 0, (size_t) t->n * sizeof(*t->fs_factor));
		memset(t->fs_ranked, 0,
		       (size_t) t->n * sizeof(*t->fs_ranked));
		memset(t->rank, 0, (size_t) t->n * sizeof(*t->rank));
	}

	/*
	 * Slurm recurses from root over fs children; the same values come out
	 * of a forward scan because every association's fs parent and direct
	 * parent precede it. lvl[] holds each association's level: its fs
	 * parent's plus one (capped, since nothing changes past the last
	 * level), which puts a 'parent' account's re-attached children at
	 * the 'parent' account's own level.
	 */
	lvl[0] = -1;
	t->fs_raw[0] = 0;
	t->level_fs[0] = 0;
	t->usage_efctv[0] = 1.0L;
	for (i = 1; i < t->n; i++) {
		int level = lvl[t->fs_parent[i]] + 1;
		long double fu = t->usage[t->fs_parent[i]];
		uint64_t v = 0;
		double norm = 0.0, sn = t->shares_norm[i];

		lvl[i] = (signed char) (level < levels ? level : levels);
		if (fu)
			norm = (double) (((t->usage[i] - 0.0L) *
					  (1.0L - 0.0L)) /
					 (fu - 0.0L) + 0.0L);
		t->usage_efctv[i] = norm;
		if (level < levels) {
			if (t->shares[i] == SB_SHARES_PARENT)
				v = t->is_user[i] ? bmax : 0;
			else
				v = _value(norm, sn, bmax, tab);
			t->level_fs[i] = (long double) v / (long double) bmax;
			v <<= (levels - level - 1) * width + unused;
		} else {
			t->level_fs[i] = 0;
		}
		t->fs_raw[i] = t->fs_raw[t->parent[i]] | v;
		if (t->is_user[i]) {
			users[u].key = ~t->fs_raw[i];
			users[u++].id = i;
		}
	}
	_sort_users(users, u, users + t->n_users + 1, cnt);
	_rank(t, users, u);
	t->levels = levels;
	t->algorithm = t->filled = SB_FS_LEVEL_BASED;
	return 0;
}

static int _cmp_raw_desc(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *) x, b = *(const uint64_t *) y;

	return a < b ? 1 : a > b ? -1 : 0;
}

int sb_fairshare_level_check(const sb_assoc_tree_t *t)
{
	uint64_t *raw = NULL, bmax;
	int *lvl = NULL, i, u = 0;

	if (!t || t->algorithm != SB_FS_LEVEL_BASED) {
		errno = EINVAL;
		return -1;
	}
	if (sb_assoc_tree_check(t) < 0)
		return -1;
	raw = malloc((size_t) (t->n_users + 1) * sizeof(*raw));
	lvl = malloc((size_t) t->n * sizeof(*lvl));
	if (!raw || !lvl) {
		free(raw);
		free(lvl);
		errno = ENOMEM;
		return -1;
	}
	bmax = _bucket_max(t->levels);
	lvl[0] = -1;
	if (t->fs_raw[0])
		goto bad;
	for (i = 1; i < t->n; i++) {
		uint64_t pr = t->fs_raw[t->parent[i]], v = 0;

		/* Own bits: the level value recomputed with powl(), in the
		 * bucket of the fs level, OR-ed onto the direct parent's. */
		lvl[i] = lvl[t->fs_parent[i]] + 1;
		if (lvl[i] < t->levels) {
			if (t->shares[i] == SB_SHARES_PARENT)
				v = t->is_user[i] ? bmax : 0;
			else
				v = _value_exact(t->usage_efctv[i],
						 t->shares_norm[i], bmax);
			if (t->level_fs[i] !=
			    (long double) v / (long double) bmax)
				goto bad;
			v <<= sb_fairshare_level_shift(t->levels, lvl[i]);
		} else if (t->level_fs[i] != 0) {
			goto bad;
		}
		if (t->fs_raw[i] != (pr | v))
			goto bad;
		if (t->is_user[i])
			raw[u++] = t->fs_raw[i];
	}
	qsort(raw, (size_t) u, sizeof(*raw), _cmp_raw_desc);
	for (i = 1; i < t->n; i++) {
		size_t lo = 0, hi = (size_t) u;

		if (!t->is_user[i])
			continue;
		/* Rank = u - 1 - index of the first user with this raw. */
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (raw[mid] > t->fs_raw[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo >= (size_t) u || raw[lo] != t->fs_raw[i])
			goto bad;
		if (t->rank[i] != (uint32_t) (u - 1 - (int) lo))
			goto bad;
		if (!(t->fs_factor[i] >= 0.0 && t->fs_factor[i] < 1.0))
			goto bad;
	}
	free(raw);
	free(lvl);
	return 0;
bad:
	free(raw);
	free(lvl);
	errno = EFAULT;
	return -1;
}
