/*
 * bench_fairshare.c - full fair-share passes over large association trees,
 * ours next to Slurm's own Fair Tree pass on the same tree, in one run.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Issue #6's shapes: 100 accounts x 10 sub-accounts x 1 / 10 / 100 users
 * (1k / 10k / 100k user associations), random shares 1-100 everywhere,
 * about 80% of users with usage, fixed seed. Every association carries the
 * usage slurmctld keeps on it (an account's: its subtree's), so neither
 * side sums anything during a pass.
 *
 * Timed per pass:
 *  - ours: sb_fairshare_tree_compute() / sb_fairshare_level_compute()
 *    (normalised shares, U, Level FS or level values, sorting, ranking),
 *    what priority/bucket runs every calc period;
 *  - Slurm: the installed priority_multifactor.so's fair_tree_decay() with
 *    no jobs (sb_bench_slurm.h), the Fair Tree part of its decay cycle.
 * The three alternate in rounds of one block each (the shared 2-vCPU
 * machine drifts between a fast and a slow state, so only ratios measured
 * close together count): a ratio is the median over the rounds of each
 * round's ratio of block medians. Slurm's and our Fair Tree factors must
 * be equal for every user, or the run fails.
 *
 * Usage: bench_fairshare [--quick]   (--quick: fewer repetitions)
 * Without priority_multifactor.so (another Slurm install) only our passes
 * are timed, and the reason is printed.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sb_bench.h"
#include "sb_bench_slurm.h"

#include "assoc_tree.h"
#include "fairshare_level.h"
#include "fairshare_tree.h"

#ifndef SB_SLURM_PLUGINDIR
#define SB_SLURM_PLUGINDIR "/usr/lib/x86_64-linux-gnu/slurm-wlm"
#endif

enum { LEVEL_BASED, FAIR_TREE, SLURM, SIDES };

static uint32_t _shares(sb_test_rng_t *r)
{
	return (uint32_t) (1 + sb_test_rng_next(r) % 100);
}

static sb_assoc_tree_t *_build(int users_per_sub, uint64_t seed)
{
	sb_test_rng_t r = { seed };
	sb_assoc_tree_t *t = sb_assoc_tree_create();
	char name[48];
	int a, b, u, i;

	if (!t)
		return NULL;
	for (a = 0; a < 100; a++) {
		int acct;

		snprintf(name, sizeof(name), "acct%d", a);
		acct = sb_assoc_tree_add_account(t, SB_ASSOC_ROOT, name,
						 _shares(&r));
		for (b = 0; b < 10; b++) {
			int sub;

			snprintf(name, sizeof(name), "acct%d_%d", a, b);
			sub = sb_assoc_tree_add_account(t, acct, name,
							_shares(&r));
			for (u = 0; u < users_per_sub; u++) {
				long double usage = 0;

				if (sb_test_rng_next(&r) % 10 < 8)
					usage = (long double)
						(1 + sb_test_rng_next(&r) % 1000000);
				snprintf(name, sizeof(name), "user%d", u);
				if (sb_assoc_tree_add_user(t, sub, name,
							   _shares(&r),
							   usage) < 0)
					goto fail;
			}
		}
	}
	/* accounts and root: the sums slurmctld keeps on them */
	if (sb_assoc_tree_rollup(t) < 0)
		goto fail;
	for (i = 0; i < sb_assoc_tree_count(t); i++) {
		sb_assoc_info_t in;

		if (sb_assoc_tree_get(t, i, &in) < 0 ||
		    (!in.is_user &&
		     sb_assoc_tree_set_usage(t, i, in.usage_raw) < 0))
			goto fail;
	}
	return t;
fail:
	sb_assoc_tree_destroy(t);
	return NULL;
}

/* Slurm's records for the same tree. */
static int _build_slurm(const sb_assoc_tree_t *t)
{
	int n = sb_assoc_tree_count(t), i, rc;
	int *parent = malloc((size_t) n * sizeof(*parent));
	uint32_t *shares = malloc((size_t) n * sizeof(*shares));
	long double *usage = malloc((size_t) n * sizeof(*usage));
	unsigned char *user = malloc((size_t) n);
	const char **name = malloc((size_t) n * sizeof(*name));

	rc = (parent && shares && usage && user && name) ? 0 : -1;
	for (i = 0; !rc && i < n; i++) {
		sb_assoc_info_t in;

		sb_assoc_tree_get(t, i, &in);
		parent[i] = in.parent;
		shares[i] = in.shares;
		usage[i] = in.usage_raw;
		user[i] = in.is_user;
		name[i] = in.name;
	}
	if (!rc)
		rc = sb_bench_slurm_build(n, parent, shares, usage, user,
					  name);
	free(parent);
	free(shares);
	free(usage);
	free(user);
	free(name);
	return rc;
}

static int _pass(sb_assoc_tree_t *t, int side)
{
	switch (side) {
	case LEVEL_BASED:
		return sb_fairshare_level_compute(t, 4);
	case FAIR_TREE:
		return sb_fairshare_tree_compute(t);
	default:
		sb_bench_slurm_pass();
		return 0;
	}
}

/* Largest |Slurm's factor - ours| over the users, after one pass each. */
static double _factor_diff(sb_assoc_tree_t *t)
{
	double worst = 0;
	int i;

	if (sb_fairshare_tree_compute(t) < 0)
		return INFINITY;
	sb_bench_slurm_pass();
	for (i = 1; i < sb_assoc_tree_count(t); i++) {
		sb_assoc_info_t in;
		double d;

		sb_assoc_tree_get(t, i, &in);
		if (!in.is_user)
			continue;
		d = fabs(in.fs_factor - sb_bench_slurm_factor(i));
		if (!(d <= worst))
			worst = d;
	}
	return worst;
}

static int _cmp_double(const void *x, const void *y)
{
	double a = *(const double *) x, b = *(const double *) y;

	return a < b ? -1 : a > b;
}

/* Median of @v[n] (sorts it). */
static double _median(double *v, int n)
{
	qsort(v, (size_t) n, sizeof(*v), _cmp_double);
	return n ? v[n / 2] : 0;
}

/* Median of @reps timed passes of @side, after an untimed one; -1 on
 * error. */
static double _block(sb_assoc_tree_t *t, int side, int reps, double *buf)
{
	int i;

	if (_pass(t, side) < 0)
		return -1;
	for (i = 0; i < reps; i++) {
		double t0 = sb_bench_now();

		if (_pass(t, side) < 0)
			return -1;
		buf[i] = (sb_bench_now() - t0) * 1e3;
	}
	return _median(buf, reps);
}

int main(int argc, char **argv)
{
	static const int per_sub[] = { 1, 10, 100 };
	int quick = argc > 1 && !strcmp(argv[1], "--quick");
	int blocks = quick ? 3 : 9, with_slurm;
	char why[512] = "";
	size_t s;

	if (argc > 2 || (argc == 2 && !quick)) {
		fprintf(stderr, "Usage: bench_fairshare [--quick]\n");
		return 2;
	}
	with_slurm = !sb_bench_slurm_load(SB_SLURM_PLUGINDIR, why,
					  sizeof(why));
	printf("fair share pass, ours vs Slurm 22.05's own Fair Tree pass "
	       "(%s/priority_multifactor.so, fair_tree_decay()) on the same "
	       "tree, in %d rounds of one block of passes each; times: "
	       "medians of the blocks' medians; ratios: medians of the "
	       "rounds' ratios\n", SB_SLURM_PLUGINDIR, blocks);
	if (!with_slurm)
		printf("Slurm's pass not timed: %s\n", why);
	printf("%-8s %12s %12s %12s %9s %9s %s\n", "users", "slurm ft ms",
	       "ours ft ms", "ours lb ms", "ft ratio", "lb ratio",
	       "factors vs Slurm");
	for (s = 0; s < sizeof(per_sub) / sizeof(per_sub[0]); s++) {
		sb_assoc_tree_t *t = _build(per_sub[s], 0x6FA125EEULL);
		int reps = per_sub[s] == 100 ? (quick ? 3 : 5)
					     : (quick ? 7 : 15);
		double med[SIDES][9], rft[9], rlb[9], buf[15], diff = 0;
		int round, side;

		if (!t || (with_slurm && _build_slurm(t) < 0)) {
			fprintf(stderr, "bench_fairshare: out of memory\n");
			return 1;
		}
		/* untimed first passes: layouts, scratch memory, caches */
		if (with_slurm && (diff = _factor_diff(t)) != 0) {
			fprintf(stderr, "bench_fairshare: Slurm's Fair Tree "
				"factors differ from ours by up to %g\n", diff);
			return 1;
		}
		/*
		 * A shared machine drifts between fast and slow states for
		 * seconds at a time: each round times the three sides close
		 * together, and the ratios are taken per round.
		 */
		for (round = 0; round < blocks; round++) {
			for (side = 0; side < SIDES; side++) {
				med[side][round] = 0;
				if (side == SLURM && !with_slurm)
					continue;
				med[side][round] = _block(t, side, reps, buf);
				if (med[side][round] < 0) {
					perror("bench_fairshare");
					return 1;
				}
			}
			rft[round] = med[SLURM][round] / med[FAIR_TREE][round];
			rlb[round] = med[SLURM][round] /
				med[LEVEL_BASED][round];
		}
		if (with_slurm)
			printf("%-8d %12.3f %12.3f %12.3f %8.1fx %8.1fx "
			       "identical (max |diff| %g)\n",
			       sb_assoc_tree_users(t),
			       _median(med[SLURM], blocks),
			       _median(med[FAIR_TREE], blocks),
			       _median(med[LEVEL_BASED], blocks),
			       _median(rft, blocks), _median(rlb, blocks),
			       diff);
		else
			printf("%-8d %12s %12.3f %12.3f %9s %9s -\n",
			       sb_assoc_tree_users(t), "-",
			       _median(med[FAIR_TREE], blocks),
			       _median(med[LEVEL_BASED], blocks), "-", "-");
		sb_bench_slurm_free();
		sb_assoc_tree_destroy(t);
	}
	return 0;
}
