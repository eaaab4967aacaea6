/*
 * bench_planner.c - sb_planner against a naive sorted change-point array.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Workload (issue #7): N spans with starts uniform in [0, 10^7), durations
 * 1..10^4 and counts 1..1000 on a planner of 1,000,000 units, fixed seed.
 * Then 1,000 earliest-fit queries from a random on-or-after time in
 * [0, 10^7), for (a) easy: 5,000 units for 3,600 and (b) contended: 90%
 * of the total for 3,600. The naive planner is a sorted array of change
 * points answering the same queries by a forward scan (jumping past each
 * blocking point, so O(points after t)); every answer is checked equal.
 *
 * A last section times the bucket timeline (timeline.h) the way the
 * select plugin will use it for WILL_RUN: 2,048 nodes busy until a time
 * uniform in [0, 86400), 5% of them with a one-hour reservation somewhere
 * in the next two days, 1% down; queries from t = 0 for k nodes (1 ..
 * 1,024) for d seconds (600 .. 43,200). The naive answer tries t and then
 * every segment end in time order, counting the nodes free for the whole
 * window each time, as select/linear's will-run test does by removing
 * jobs in end-time order; answers and chosen nodes are checked equal.
 *
 * Usage: bench_planner [--quick] [--sizes N,N,...] [--queries Q]
 *   --quick   10k and 100k spans only (what 'make bench' runs)
 * Default sizes: 10k, 100k, 1M.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sb_bench.h"

#include "planner.h"
#include "timeline.h"

#define TOTAL 1000000
#define START_MAX 10000000
#define DUR_MAX 10000
#define COUNT_MAX 1000
#define QUERY_D 3600

static sb_test_rng_t _rng_state;

static uint64_t _rng(void)
{
	return sb_test_rng_next(&_rng_state);
}

struct span {
	int64_t start, end, count, id;
};

/* The naive planner: change points in time order. */
struct naive {
	int64_t *at, *fr;
	size_t n;
};

struct edge {
	int64_t at, delta;
};

static int _edge_cmp(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	return (x->at > y->at) - (x->at < y->at);
}

static void _naive_build(struct naive *nv, const struct span *sp, size_t n)
{
	struct edge *e = malloc(2 * n * sizeof(*e));
	int64_t used = 0;
	size_t ne = 0;

	if (!e)
		exit(2);
	for (size_t i = 0; i < n; i++) {
		if (sp[i].id <= 0)
			continue;
		e[ne++] = (struct edge) { sp[i].start, sp[i].count };
		e[ne++] = (struct edge) { sp[i].end, -sp[i].count };
	}
	qsort(e, ne, sizeof(*e), _edge_cmp);
	nv->at = malloc((ne + 1) * sizeof(int64_t));
	nv->fr = malloc((ne + 1) * sizeof(int64_t));
	if (!nv->at || !nv->fr)
		exit(2);
	nv->at[0] = 0;
	nv->fr[0] = TOTAL;
	nv->n = 1;
	for (size_t i = 0; i < ne; ) {
		int64_t t = e[i].at;

		for (; i < ne && e[i].at == t; i++)
			used += e[i].delta;
		if (t == nv->at[nv->n - 1]) {
			nv->fr[nv->n - 1] = TOTAL - used;
		} else {
			nv->at[nv->n] = t;
			nv->fr[nv->n] = TOTAL - used;
			nv->n++;
		}
	}
	free(e);
}

/* Index of the last point <= t. */
static size_t _naive_floor(const struct naive *nv, int64_t t)
{
	size_t lo = 0, hi = nv->n;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (nv->at[mid] <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Same semantics as sb_planner_earliest(): candidates t, then points.
 * Forward scan: check the window point by point; on a blocking point,
 * continue from the next point that has enough.
 */
static int64_t _naive_earliest(const struct naive *nv, int64_t t, int64_t d,
			       int64_t need)
{
	size_t i = _naive_floor(nv, t), j;
	int64_t c = t;

	for (;;) {
		int64_t e = c + d;

		for (j = i; j < nv->n && (j == i || nv->at[j] < e); j++)
			if (nv->fr[j] < need)
				break;
		if (j == nv->n || (j != i && nv->at[j] >= e) ||
		    nv->fr[j] >= need)
			return c;
		for (j++; j < nv->n && nv->fr[j] < need; j++)
			;
		if (j == nv->n)
			return -1;
		i = j;
		c = nv->at[j];
	}
}

static int _dcmp(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return (x > y) - (x < y);
}

static void _stats(double *v, int n, double *mean, double *p99)
{
	double s = 0;

	for (int i = 0; i < n; i++)
		s += v[i];
	qsort(v, (size_t) n, sizeof(*v), _dcmp);
	*mean = s / n;
	*p99 = v[(n * 99) / 100 < n ? (n * 99) / 100 : n - 1];
}

static int _run(size_t nspans, int nq)
{
	static const struct {
		const char *name;
		int64_t need;
	} wl[2] = { { "easy", 5000 }, { "contended", TOTAL * 9 / 10 } };
	struct span *sp = malloc(nspans * sizeof(*sp));
	double *ours = malloc((size_t) nq * sizeof(double));
	double *naive = malloc((size_t) nq * sizeof(double));
	sb_planner_t *p = sb_planner_create(0, INT64_MAX, TOTAL);
	struct naive nv;
	size_t added = 0, *perm;
	double t0, t_add, t_rem, t_naive_build;

	if (!sp || !ours || !naive || !p)
		return 2;
	sb_test_rng_seed(&_rng_state, 42);
	for (size_t i = 0; i < nspans; i++) {
		sp[i].start = (int64_t) (_rng() % START_MAX);
		sp[i].end = sp[i].start + 1 + (int64_t) (_rng() % DUR_MAX);
		sp[i].count = 1 + (int64_t) (_rng() % COUNT_MAX);
	}
	t0 = sb_bench_now();
	for (size_t i = 0; i < nspans; i++) {
		sp[i].id = sb_planner_add_span(p, sp[i].start,
					       sp[i].end - sp[i].start,
					       sp[i].count);
		added += sp[i].id > 0;
	}
	t_add = sb_bench_now() - t0;
	t0 = sb_bench_now();
	_naive_build(&nv, sp, nspans);
	t_naive_build = sb_bench_now() - t0;
	if (nv.n != sb_planner_points(p)) {
		fprintf(stderr, "point count differs: naive %zu, ours %zu\n",
			nv.n, sb_planner_points(p));
		return 1;
	}
	printf("spans %zu (added %zu), points %zu: add %.0f/s "
	       "(naive bulk build %.3f s)\n", nspans, added,
	       sb_planner_points(p), (double) nspans / t_add, t_naive_build);

	for (int w = 0; w < 2; w++) {
		double om, op, nm, np;

		sb_test_rng_seed(&_rng_state, 1000 + (uint64_t) w);
		for (int q = 0; q < nq; q++) {
			int64_t t = (int64_t) (_rng() % START_MAX), a = -1, b;
			double s;
			int rc;

			s = sb_bench_now();
			rc = sb_planner_earliest(p, t, QUERY_D, wl[w].need, &a);
			ours[q] = sb_bench_now() - s;
			if (rc < 0)
				a = -1;
			s = sb_bench_now();
			b = _naive_earliest(&nv, t, QUERY_D, wl[w].need);
			naive[q] = sb_bench_now() - s;
			if (a != b) {
				fprintf(stderr, "answers differ at t=%" PRId64
					": ours %" PRId64 ", naive %" PRId64
					"\n", t, a, b);
				return 1;
			}
		}
		_stats(ours, nq, &om, &op);
		_stats(naive, nq, &nm, &np);
		printf("  %-9s %d queries: ours mean %8.2f us p99 %8.2f us | "
		       "naive mean %10.2f us p99 %10.2f us | mean x%.1f\n",
		       wl[w].name, nq, om * 1e6, op * 1e6, nm * 1e6,
		       np * 1e6, nm / om);
	}

	/* Remove everything in a random order. */
	if (!(perm = malloc(nspans * sizeof(*perm))))
		return 2;
	for (size_t i = 0; i < nspans; i++)
		perm[i] = i;
	sb_test_rng_seed(&_rng_state, 7);
	for (size_t i = nspans; i > 1; i--) {
		size_t j = (size_t) (_rng() % i), x = perm[i - 1];

		perm[i - 1] = perm[j];
		perm[j] = x;
	}
	t0 = sb_bench_now();
	for (size_t i = 0; i < nspans; i++)
		if (sp[perm[i]].id > 0 &&
		    sb_planner_rem_span(p, sp[perm[i]].id) < 0)
			return 1;
	t_rem = sb_bench_now() - t0;
	printf("  remove %.0f/s; points left %zu\n",
	       (double) added / t_rem, sb_planner_points(p));
	free(perm);
	free(nv.at);
	free(nv.fr);
	sb_planner_destroy(p);
	free(sp);
	free(ours);
	free(naive);
	return 0;
}

static int _i64cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;

	return (x > y) - (x < y);
}

#define TL_NODES 2048
#define TL_QUERIES 200

static int _run_timeline(void)
{
	sb_timeline_t *tl = sb_timeline_create(0, INT64_MAX, TL_NODES);
	int64_t *cand = malloc((2 * TL_NODES + 1) * sizeof(*cand));
	size_t *got = malloc(TL_NODES * sizeof(*got));
	size_t *want = malloc(TL_NODES * sizeof(*want));
	double *ours = malloc(TL_QUERIES * sizeof(double));
	double *naive = malloc(TL_QUERIES * sizeof(double));
	double om, op, nm, np;
	size_t nc = 0;

	if (!tl || !cand || !got || !want || !ours || !naive)
		return 2;
	sb_test_rng_seed(&_rng_state, 99);
	cand[nc++] = 0;
	for (size_t i = 0; i < TL_NODES; i++) {
		int64_t until = (int64_t) (_rng() % 86400);

		if (sb_timeline_set_busy(tl, i, until) < 0)
			return 1;
		cand[nc++] = until;
		if (_rng() % 100 < 5) {
			int64_t r = (int64_t) (_rng() % (2 * 86400));

			if (sb_timeline_reserve(tl, i, r, 3600) < 0)
				return 1;
			cand[nc++] = r + 3600;
		}
		if (_rng() % 100 < 1 && sb_timeline_set_down(tl, i, true) < 0)
			return 1;
	}
	qsort(cand, nc, sizeof(*cand), _i64cmp);
	for (int q = 0; q < TL_QUERIES; q++) {
		size_t k = 1 + (size_t) (_rng() % (TL_NODES / 2)), nw = 0;
		int64_t d = 600 + (int64_t) (_rng() % (43200 - 600 + 1));
		int64_t a = -1, b = -1;
		double s;

		s = sb_bench_now();
		if (sb_timeline_earliest(tl, 0, d, k, &a, got) < 0)
			a = -1;
		ours[q] = sb_bench_now() - s;
		s = sb_bench_now();
		for (size_t c = 0; c < nc && b < 0; c++) {
			if (c && cand[c] == cand[c - 1])
				continue;
			nw = 0;
			for (size_t i = 0; i < TL_NODES && nw < k; i++)
				if (sb_timeline_node_free(tl, i, cand[c],
							  d) == 1)
					want[nw++] = i;
			if (nw == k)
				b = cand[c];
		}
		naive[q] = sb_bench_now() - s;
		if (a != b || (a >= 0 &&
			       memcmp(got, want, k * sizeof(*got)))) {
			fprintf(stderr, "timeline answers differ: ours %" PRId64
				", naive %" PRId64 "\n", a, b);
			return 1;
		}
	}
	_stats(ours, TL_QUERIES, &om, &op);
	_stats(naive, TL_QUERIES, &nm, &np);
	printf("timeline %d nodes, %d earliest-start queries: ours mean "
	       "%.2f us p99 %.2f us | naive mean %.2f us p99 %.2f us | "
	       "mean x%.1f\n", TL_NODES, TL_QUERIES, om * 1e6, op * 1e6,
	       nm * 1e6, np * 1e6, nm / om);
	sb_timeline_destroy(tl);
	free(cand);
	free(got);
	free(want);
	free(ours);
	free(naive);
	return 0;
}

int main(int argc, char **argv)
{
	size_t sizes[16] = { 10000, 100000, 1000000 };
	int nsizes = 3, nq = 1000, rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick")) {
			nsizes = 2;
		} else if (!strcmp(argv[i], "--queries") && i + 1 < argc) {
			nq = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
			char *s = argv[++i], *end;

			for (nsizes = 0; *s && nsizes < 16; s = end) {
				sizes[nsizes++] = strtoul(s, &end, 10);
				if (*end == ',')
					end++;
				else if (*end)
					break;
			}
		} else {
			fprintf(stderr, "usage: %s [--quick] [--sizes N,N,...]"
				" [--queries Q]\n", argv[0]);
			return 2;
		}
	}
	if (nq < 1)
		nq = 1;
	for (int i = 0; i < nsizes; i++)
		if ((rc = _run(sizes[i], nq)))
			return rc;
	return _run_timeline();
}
