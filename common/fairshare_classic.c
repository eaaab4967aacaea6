/*
 * fairshare_classic.c - classic fair share with FairShareDampeningFactor.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <math.h>

#include "fairshare_classic.h"
#include "fairshare_priv.h"

double sb_fairshare_classic_factor(long double usage_efctv,
				   long double shares_norm,
				   uint32_t dampening)
{
	long double damp = dampening ? (long double) dampening : 1.0L;

	if (shares_norm <= 0)
		return 0.0;
	/* pow() of math.h: the long double exponent becomes a double. */
	return pow(2.0, (double) -((usage_efctv / shares_norm) / damp));
}

/* Slurm's _normalize_assoc_shares_traditional() for a non-'parent'
 * association: multiply upwards, in this order, in double. */
static double _norm_up(const struct sb_assoc_tree *t, int id)
{
	double s = 1.0;

	for (; t->parent[id] >= 0; id = t->parent[id]) {
		if (t->shares[id] == SB_SHARES_PARENT)
			continue;
		if (!t->level_shares[id])
			s = 0;
		else
			s *= (double) t->shares[id] /
				(double) t->level_shares[id];
	}
	return s;
}

static long double _usage_norm(const struct sb_assoc_tree *t, int id)
{
	long double n;

	if (!t->usage[0])
		return 0.0L;
	n = t->usage[id] / t->usage[0];
	return n > 1.0L ? 1.0L : n;
}

static long double _usage_efctv(const struct sb_assoc_tree *t, int id)
{
	int f = t->fs_parent[id];
	long double ua = _usage_norm(t, id);

	if (f == SB_ASSOC_ROOT)
		return ua;
	if (t->shares[id] == SB_SHARES_PARENT || !t->level_shares[id])
		return t->usage_efctv[f];
	return ua + (t->usage_efctv[f] - ua) *
		(t->shares[id] / (long double) t->level_shares[id]);
}

int sb_fairshare_classic_compute(sb_assoc_tree_t *t, uint32_t dampening)
{
	int i;

	if (!t || !dampening) {
		errno = EINVAL;
		return -1;
	}
	if (sb__assoc_tree_prepare(t) < 0)
		return -1;
	/* Forward scan: fs parents come first, so their S and UE are set. */
	t->level_norms_ok = false;
	t->shares_norm[0] = 1.0;
	t->usage_efctv[0] = 1.0L;
	for (i = 0; i < t->n; i++) {
		if (i > 0) {
			if (t->shares[i] == SB_SHARES_PARENT)
				t->shares_norm[i] =
					t->shares_norm[t->fs_parent[i]];
			else
				t->shares_norm[i] = _norm_up(t, i);
			t->usage_efctv[i] = _usage_efctv(t, i);
		}
		t->level_fs[i] = 0.0L;
		t->fs_raw[i] = 0;
		t->fs_ranked[i] = 0;
		t->rank[i] = 0;
		t->fs_factor[i] = sb_fairshare_classic_factor(
			t->usage_efctv[i], t->shares_norm[i], dampening);
	}
	t->dampening = dampening;
	t->algorithm = t->filled = SB_FS_CLASSIC;
	return 0;
}

int sb_fairshare_classic_check(const sb_assoc_tree_t *t)
{
	int i;

	if (!t || t->algorithm != SB_FS_CLASSIC) {
		errno = EINVAL;
		return -1;
	}
	if (sb_assoc_tree_check(t) < 0)
		return -1;
	for (i = 1; i < t->n; i++) {
		int f = i;
		double s;

		/* A 'parent' chain ends at the first non-'parent' ancestor,
		 * whose S is computed the plain way. */
		while (f && t->shares[f] == SB_SHARES_PARENT)
			f = t->fs_parent[f];
		s = f ? _norm_up(t, f) : 1.0;
		if (t->shares_norm[i] != s)
			goto bad;
		if (t->usage_efctv[i] != _usage_efctv(t, i))
			goto bad;
		if (t->fs_factor[i] != sb_fairshare_classic_factor(
			    t->usage_efctv[i], t->shares_norm[i], t->dampening))
			goto bad;
		if (!(t->fs_factor[i] >= 0.0 && t->fs_factor[i] <= 1.0))
			goto bad;
	}
	return 0;
bad:
	errno = EFAULT;
	return -1;
}
