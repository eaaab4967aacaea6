/*
 * bench_planner.c - sb_planner against a naive sorted change-point array:
 * earliest-fit queries and updates, p50/p99 per operation (issue #25).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Workload (as issue #7 measured it, fixed seed): N spans with starts
 * uniform in [0, 10^7), durations 1..10^4 and counts 1..1000 on a planner
 * of 1,000,000 units (on average 500 spans overlap an instant, holding a
 * quarter of the units). Then, each operation timed on its own:
 *   earliest  Q queries sb_planner_earliest(t, 3600, need) from a random
 *             t in [0, 10^7), for need = 5,000 units (easy: fits at once
 *             or nearly) and 90% of the total (contended: crosses many
 *             blocking intervals);
 *   update    Q updates of a planner kept at N spans: add a new random
 *             span, remove a random live one; "add + remove" is the two
 *             together, the update.
 * The naive planner is what a caller would write without a tree: a sorted
 * array of change points (time, free units, reference count); earliest is
 * a binary search for t and then a linear scan forward, jumping past each
 * blocking point; add and remove insert or delete points (memmove) and
 * add the count to every point of the span. Every earliest answer of the
 * two is checked equal, and again after the updates (untimed).
 *
 * Usage: bench_planner [--quick] [--sizes N,N,...] [--queries Q]
 *   --quick   10k and 100k spans only (what 'make bench' runs)
 * Default sizes: 10k, 100k, 1M; Q = 10,000.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sb_bench.h"

#include "planner.h"

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

static void _rand_span(struct span *s)
{
	s->start = (int64_t) (_rng() % START_MAX);
	s->end = s->start + 1 + (int64_t) (_rng() % DUR_MAX);
	s->count = 1 + (int64_t) (_rng() % COUNT_MAX);
	s->id = 0;
}

/* The naive planner: change points in time order, point 0 at time 0. */
struct naive {
	int64_t *at, *fr;
	uint32_t *refs;
	size_t n, cap;
};

/* Index of the last point <= t (there is always point 0 <= t). */
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

/* Reference the point at t, creating it (O(n) memmove) when new. */
static size_t _naive_acquire(struct naive *nv, int64_t t)
{
	size_t i = _naive_floor(nv, t), k;

	if (nv->at[i] == t) {
		nv->refs[i]++;
		return i;
	}
	k = i + 1;
	memmove(nv->at + k + 1, nv->at + k, (nv->n - k) * sizeof(*nv->at));
	memmove(nv->fr + k + 1, nv->fr + k, (nv->n - k) * sizeof(*nv->fr));
	memmove(nv->refs + k + 1, nv->refs + k,
		(nv->n - k) * sizeof(*nv->refs));
	nv->at[k] = t;
	nv->fr[k] = nv->fr[i];
	nv->refs[k] = 1;
	nv->n++;
	return k;
}

static void _naive_release(struct naive *nv, int64_t t)
{
	size_t k = _naive_floor(nv, t);

	if (--nv->refs[k])
		return;
	nv->n--;
	memmove(nv->at + k, nv->at + k + 1, (nv->n - k) * sizeof(*nv->at));
	memmove(nv->fr + k, nv->fr + k + 1, (nv->n - k) * sizeof(*nv->fr));
	memmove(nv->refs + k, nv->refs + k + 1,
		(nv->n - k) * sizeof(*nv->refs));
}

/* Add @delta to the points of [s, e): a linear walk. */
static void _naive_delta(struct naive *nv, int64_t s, int64_t e,
			 int64_t delta)
{
	for (size_t i = _naive_floor(nv, s); i < nv->n && nv->at[i] < e; i++)
		nv->fr[i] += delta;
}

/* As sb_planner_add_span(): ENOSPC when the window lacks the units. */
static int _naive_add(struct naive *nv, int64_t s, int64_t e, int64_t c)
{
	for (size_t i = _naive_floor(nv, s); i < nv->n && nv->at[i] < e; i++)
		if (nv->fr[i] < c)
			return -1;
	(void) _naive_acquire(nv, s);
	(void) _naive_acquire(nv, e);
	_naive_delta(nv, s, e, -c);
	return 0;
}

static void _naive_rem(struct naive *nv, int64_t s, int64_t e, int64_t c)
{
	_naive_delta(nv, s, e, c);
	_naive_release(nv, s);
	_naive_release(nv, e);
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

/* Sort @v and print p50, p99 and max in microseconds. */
static void _pct(const char *who, double *v, int n)
{
	qsort(v, (size_t) n, sizeof(*v), _dcmp);
	printf(" %s p50 %9.2f p99 %9.2f max %9.2f", who,
	       v[(n - 1) / 2] * 1e6, v[(n * 99 + 99) / 100 - 1] * 1e6,
	       v[n - 1] * 1e6);
}

/*
 * Q earliest-fit queries, timed one by one: all of ours, then the same
 * ones of the naive planner (interleaved, the naive scans would evict
 * the tree from the caches before each of ours); answers compared.
 */
static int _queries(const sb_planner_t *p, const struct naive *nv,
		    int64_t need, int nq, uint64_t seed, double *ours,
		    double *naive)
{
	int64_t *t = malloc((size_t) nq * sizeof(*t));
	int64_t *a = malloc((size_t) nq * sizeof(*a));
	int rc = 1;

	if (!t || !a)
		exit(2);
	sb_test_rng_seed(&_rng_state, seed);
	for (int q = 0; q < nq; q++)
		t[q] = (int64_t) (_rng() % START_MAX);
	for (int q = 0; q < nq; q++) {
		double s = sb_bench_now();

		if (sb_planner_earliest(p, t[q], QUERY_D, need, &a[q]) < 0)
			a[q] = -1;
		ours[q] = sb_bench_now() - s;
	}
	for (int q = 0; q < nq; q++) {
		double s = sb_bench_now();
		int64_t b = _naive_earliest(nv, t[q], QUERY_D, need);

		naive[q] = sb_bench_now() - s;
		if (a[q] != b) {
			fprintf(stderr, "answers differ at t=%" PRId64
				": ours %" PRId64 ", naive %" PRId64 "\n",
				t[q], a[q], b);
			goto out;
		}
	}
	rc = 0;
out:
	free(t);
	free(a);
	return rc;
}

/* Boundaries for the naive planner's bulk build. */
struct edge {
	int64_t at, delta;
};

static int _edge_cmp(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	return (x->at > y->at) - (x->at < y->at);
}

/* The naive planner of the live spans: sort the boundaries, one sweep. */
static int _naive_build(struct naive *nv, const struct span *sp, size_t n)
{
	struct edge *e = malloc((2 * n + 1) * sizeof(*e));
	size_t ne = 0;
	int64_t used = 0;

	if (!e)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (sp[i].id <= 0)
			continue;
		e[ne++] = (struct edge) { sp[i].start, sp[i].count };
		e[ne++] = (struct edge) { sp[i].end, -sp[i].count };
	}
	qsort(e, ne, sizeof(*e), _edge_cmp);
	nv->at[0] = 0;
	nv->fr[0] = TOTAL;
	nv->refs[0] = 1;
	nv->n = 1;
	for (size_t i = 0; i < ne; ) {
		int64_t t = e[i].at;
		uint32_t r = 0;
		size_t k;

		for (; i < ne && e[i].at == t; i++, r++)
			used += e[i].delta;
		if (t == 0) {
			k = 0;
		} else {
			k = nv->n++;
			nv->at[k] = t;
			nv->refs[k] = 0;
		}
		nv->fr[k] = TOTAL - used;
		nv->refs[k] += r;
	}
	free(e);
	return 0;
}

/* A random live span's index. */
static size_t _live(const struct span *sp, size_t n)
{
	size_t i;

	do
		i = (size_t) (_rng() % n);
	while (sp[i].id <= 0);
	return i;
}

static int _run(size_t nspans, int nq)
{
	static const struct {
		const char *name;
		int64_t need;
	} wl[2] = { { "easy", 5000 }, { "contended", TOTAL * 9 / 10 } };
	/* Room for the updates' new spans after the first N. */
	size_t cap = nspans + (size_t) nq, n = nspans;
	struct span *sp = malloc(cap * sizeof(*sp));
	double *ours = malloc((size_t) nq * sizeof(double));
	double *naive = malloc((size_t) nq * sizeof(double));
	double *o_add = malloc((size_t) nq * sizeof(double));
	double *o_rem = malloc((size_t) nq * sizeof(double));
	double *o_upd = malloc((size_t) nq * sizeof(double));
	double *n_add = malloc((size_t) nq * sizeof(double));
	double *n_rem = malloc((size_t) nq * sizeof(double));
	double *n_upd = malloc((size_t) nq * sizeof(double));
	size_t *gone = malloc((size_t) nq * sizeof(*gone));
	sb_planner_t *p = sb_planner_create(0, INT64_MAX, TOTAL);
	struct naive nv = { 0 };
	size_t added = 0;
	double t0, t_add, t_naive;
	int rc = 1;

	nv.cap = 2 * cap + 2;
	nv.at = malloc(nv.cap * sizeof(*nv.at));
	nv.fr = malloc(nv.cap * sizeof(*nv.fr));
	nv.refs = malloc(nv.cap * sizeof(*nv.refs));
	if (!sp || !ours || !naive || !o_add || !o_rem || !o_upd || !n_add ||
	    !n_rem || !n_upd || !gone || !p || !nv.at || !nv.fr || !nv.refs)
		return 2;

	sb_test_rng_seed(&_rng_state, 42);
	for (size_t i = 0; i < nspans; i++)
		_rand_span(&sp[i]);
	t0 = sb_bench_now();
	for (size_t i = 0; i < nspans; i++) {
		sp[i].id = sb_planner_add_span(p, sp[i].start,
					       sp[i].end - sp[i].start,
					       sp[i].count);
		added += sp[i].id > 0;
	}
	t_add = sb_bench_now() - t0;
	t0 = sb_bench_now();
	if (_naive_build(&nv, sp, nspans) < 0)
		return 2;
	t_naive = sb_bench_now() - t0;
	if (nv.n != sb_planner_points(p)) {
		fprintf(stderr, "point count differs: naive %zu, ours %zu\n",
			nv.n, sb_planner_points(p));
		goto out;
	}
	printf("spans %zu (added %zu), points %zu: %.0f adds/s one by one "
	       "(naive bulk build %.3f s)\n", nspans, added,
	       sb_planner_points(p), (double) nspans / t_add, t_naive);

	for (int w = 0; w < 2; w++) {
		if (_queries(p, &nv, wl[w].need, nq, 1000 + (uint64_t) w,
			     ours, naive))
			goto out;
		printf("  earliest %-9s x%d (us):", wl[w].name, nq);
		_pct("ours", ours, nq);
		printf(" |");
		_pct("naive", naive, nq);
		printf("\n");
	}

	/*
	 * Updates: add a new span, remove a random live one; the planner
	 * stays at about N spans. Ours first, recording each operation
	 * (the new span, and which span went), then the naive planner
	 * replays them; separate loops for the reason _queries() gives.
	 */
	sb_test_rng_seed(&_rng_state, 7);
	for (int q = 0; q < nq; q++) {
		struct span *ns = &sp[n];
		double s;

		_rand_span(ns);
		s = sb_bench_now();
		ns->id = sb_planner_add_span(p, ns->start,
					     ns->end - ns->start, ns->count);
		o_add[q] = sb_bench_now() - s;
		n++;
		gone[q] = _live(sp, n);
		s = sb_bench_now();
		if (sb_planner_rem_span(p, sp[gone[q]].id) < 0) {
			perror("sb_planner_rem_span");
			goto out;
		}
		o_rem[q] = sb_bench_now() - s;
		o_upd[q] = o_add[q] + o_rem[q];
		/* Kept for the replay: the sign says it was removed. */
		sp[gone[q]].id = -sp[gone[q]].id;
	}
	for (int q = 0; q < nq; q++) {
		const struct span *ns = &sp[nspans + (size_t) q];
		const struct span *old = &sp[gone[q]];
		double s;
		int nrc;

		s = sb_bench_now();
		nrc = _naive_add(&nv, ns->start, ns->end, ns->count);
		n_add[q] = sb_bench_now() - s;
		/* ns->id is 0 when it was removed later; -1 when refused. */
		if ((ns->id == -1) != (nrc < 0)) {
			fprintf(stderr, "add differs: ours %" PRId64
				", naive %d\n", ns->id, nrc);
			goto out;
		}
		s = sb_bench_now();
		_naive_rem(&nv, old->start, old->end, old->count);
		n_rem[q] = sb_bench_now() - s;
		n_upd[q] = n_add[q] + n_rem[q];
	}
	if (nv.n != sb_planner_points(p)) {
		fprintf(stderr, "point count differs after updates\n");
		goto out;
	}
	printf("  add          x%d (us):", nq);
	_pct("ours", o_add, nq);
	printf(" |");
	_pct("naive", n_add, nq);
	printf("\n  remove       x%d (us):", nq);
	_pct("ours", o_rem, nq);
	printf(" |");
	_pct("naive", n_rem, nq);
	printf("\n  add + remove x%d (us):", nq);
	_pct("ours", o_upd, nq);
	printf(" |");
	_pct("naive", n_upd, nq);
	printf("\n");
	/* The two still agree after the updates (untimed). */
	for (int w = 0; w < 2; w++)
		if (_queries(p, &nv, wl[w].need, nq / 10 + 1,
			     2000 + (uint64_t) w, ours, naive))
			goto out;
	rc = 0;
out:
	free(nv.at);
	free(nv.fr);
	free(nv.refs);
	sb_planner_destroy(p);
	free(sp);
	free(ours);
	free(naive);
	free(o_add);
	free(o_rem);
	free(o_upd);
	free(n_add);
	free(n_rem);
	free(n_upd);
	free(gone);
	return rc;
}

int main(int argc, char **argv)
{
	size_t sizes[16] = { 10000, 100000, 1000000 };
	int nsizes = 3, nq = 10000, rc;

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
		if (sizes[i] < 1 || (rc = _run(sizes[i], nq)))
			return sizes[i] < 1 ? 2 : rc;
	return 0;
}
