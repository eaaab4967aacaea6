/*
 * bench_will_run.c - WILL_RUN for a big job on a busy cluster, against a
 * select/linear-style "end running jobs in end-time order and retry".
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * N nodes in 10 buckets (feature c0..c9, interleaved), 95% of them busy
 * with 2-node jobs ending at random times in (0, 1 day] (fixed seed), and
 * a 1,024-node, 1-hour job that any node can serve. Two answers to "when
 * and where could it start":
 *   will_run  sb_will_run_query() on a plan of the busy-until times;
 *   retry     select/linear's _will_run_test() shape: place it now
 *             (sb_place()); if it does not fit, end the running job
 *             that ends first (its nodes become idle,
 *             sb_bucket_set_update()) and place again, until it fits;
 *             with the bucket path (counts, O(B) a retry) and with the
 *             per-node path (O(N log N) a retry, what select/linear
 *             does; 10k nodes only, once).
 * Both must give the same start (checked). Also with an allowed bitmap
 * of a random 90% of the nodes (what backfill passes in), and the plan's
 * own cost: building it from the busy-until times and freeing it.
 *
 * Usage: bench_will_run [--quick]   (--quick: 10k nodes, fewer rounds)
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bucket.h"
#include "node.h"
#include "place.h"
#include "policy.h"
#include "will_run.h"

typedef struct {
	int64_t end;
	size_t a, b;		/* its two nodes */
} _job_t;

static uint64_t _rng = 20261122;

static uint64_t _next(void)
{
	uint64_t z = (_rng += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static double _now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int _by_end(const void *x, const void *y)
{
	const _job_t *a = x, *b = y;

	if (a->end != b->end)
		return a->end < b->end ? -1 : 1;
	return a->a < b->a ? -1 : a->a > b->a;
}

/* Cluster state at time 0: jobs on nodes, everything else idle. */
static void _reset(sb_node_t *nodes, size_t n, const _job_t *jobs,
		   size_t nj, int64_t *until)
{
	size_t i;

	for (i = 0; i < n; i++) {
		nodes[i].state = SB_NODE_IDLE;
		nodes[i].run_jobs = 0;
		until[i] = 0;
	}
	for (i = 0; i < nj; i++) {
		nodes[jobs[i].a].state = SB_NODE_ALLOCATED;
		nodes[jobs[i].b].state = SB_NODE_ALLOCATED;
		until[jobs[i].a] = jobs[i].end;
		until[jobs[i].b] = jobs[i].end;
	}
}

/* select/linear's answer; the number of retries into *tries. */
static int64_t _linear(sb_node_t *nodes, size_t n, const _job_t *jobs,
		       size_t nj, const sb_request_t *r, const sb_policy_t *p,
		       sb_path_t path, size_t *tries, double *us)
{
	/* The buckets exist before the question (the plugin keeps them). */
	sb_bucket_set_t *set = sb_bucket_set_create(nodes, n, 0);
	sb_placement_t pl;
	int64_t start = -1;
	size_t k = 0;
	double t0 = _now_us();

	if (!set)
		return -1;
	for (*tries = 0;; (*tries)++) {
		if (sb_place(set, r, p, path, &pl))
			break;
		if (pl.result == SB_PLACE_RUN) {
			start = k ? jobs[k - 1].end : 0;
			sb_placement_fini(&pl);
			break;
		}
		sb_placement_fini(&pl);
		if (k == nj)
			break;
		/* The next job to end is over: its nodes are idle. */
		nodes[jobs[k].a].state = SB_NODE_IDLE;
		nodes[jobs[k].b].state = SB_NODE_IDLE;
		sb_bucket_set_update(set, jobs[k].a);
		sb_bucket_set_update(set, jobs[k].b);
		k++;
	}
	*us += _now_us() - t0;
	sb_bucket_set_destroy(set);
	return start;
}

static int _run(size_t n, int rounds)
{
	size_t i, nj = n * 95 / 100 / 2, tries = 0, *perm;
	sb_node_t *nodes = calloc(n, sizeof(*nodes));
	_job_t *jobs = calloc(nj + 1, sizeof(*jobs));
	int64_t *until = calloc(n, sizeof(*until)), s_lin = 0;
	sb_bitmap_t *allowed = sb_bitmap_alloc(n);
	sb_bucket_set_t *set = NULL;
	sb_will_run_t *w = NULL;
	sb_will_run_result_t res;
	sb_request_t r;
	sb_policy_t pol;
	double t0, t_wr = 0, t_wra = 0, t_lin = 0, t_node = 0, t_plan = 0;
	int64_t s_wr = 0, s_wra = 0, s_node = -1;
	size_t tries_node = 0;
	int rc = 1, k;
	char name[32];

	sb_request_init(&r);
	perm = calloc(n, sizeof(*perm));
	if (!nodes || !jobs || !until || !perm || !allowed)
		goto out;
	r.exclusive = true;
	r.time_limit = 3600;
	if (!sb_request_add_chunk(&r, 1024) ||
	    sb_policy_init(&pol, "FIRSTAVAILABLE", NULL, NULL, NULL))
		goto out;
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "n%zu", i);
		snprintf(name + 16, 16, "c%zu", i % 10);
		if (sb_node_init(&nodes[i], (uint32_t) i, name) ||
		    sb_node_add_feature(&nodes[i], name + 16))
			goto out;
		nodes[i].cpus = 32;
		perm[i] = i;
		if (_next() % 10)
			sb_bitmap_set(allowed, i);
	}
	for (i = n - 1; i > 0; i--) {
		size_t j = _next() % (i + 1), t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	for (i = 0; i < nj; i++)
		jobs[i] = (_job_t) { 1 + (int64_t) (_next() % 86400),
				     perm[2 * i], perm[2 * i + 1] };
	qsort(jobs, nj, sizeof(*jobs), _by_end);
	_reset(nodes, n, jobs, nj, until);
	if (!(set = sb_bucket_set_create(nodes, n, 0)))
		goto out;
	for (k = 0; k < rounds; k++) {
		t0 = _now_us();
		if (!(w = sb_will_run_create(set, 0, INT64_MAX, until)))
			goto out;
		sb_will_run_destroy(w);
		t_plan += _now_us() - t0;
	}
	if (!(w = sb_will_run_create(set, 0, INT64_MAX, until)))
		goto out;
	for (k = 0; k < rounds; k++) {
		t0 = _now_us();
		if (sb_will_run_query(w, &r, &pol, NULL, 0, &res))
			goto out;
		t_wr += _now_us() - t0;
		s_wr = res.start;
		sb_will_run_result_fini(&res);
		t0 = _now_us();
		if (sb_will_run_query(w, &r, &pol, allowed, 0, &res))
			goto out;
		t_wra += _now_us() - t0;
		s_wra = res.start;
		sb_will_run_result_fini(&res);
	}
	for (k = 0; k < rounds; k++) {
		_reset(nodes, n, jobs, nj, until);
		s_lin = _linear(nodes, n, jobs, nj, &r, &pol, SB_PATH_AUTO,
				&tries, &t_lin);
	}
	/* select/linear itself checks every node per retry: once is enough. */
	if (n <= 10000) {
		_reset(nodes, n, jobs, nj, until);
		s_node = _linear(nodes, n, jobs, nj, &r, &pol, SB_PATH_NODE,
				 &tries_node, &t_node);
	}
	_reset(nodes, n, jobs, nj, until);
	printf("%6zu nodes, 10 buckets, %zu running jobs, 1024-node job:\n"
	       "  plan build + free  %10.1f us\n"
	       "  will_run           %10.1f us  start %lld\n"
	       "  will_run, 90%% bmp  %10.1f us  start %lld\n"
	       "  retry, bucket path %10.1f us  start %lld (%zu retries)  "
	       "x%.1f\n", n, nj, t_plan / rounds, t_wr / rounds,
	       (long long) s_wr,
	       t_wra / rounds, (long long) s_wra, t_lin / rounds,
	       (long long) s_lin, tries, t_lin / t_wr);
	if (n <= 10000)
		printf("  retry, node path   %10.1f us  start %lld "
		       "(%zu retries)  x%.0f\n", t_node, (long long) s_node,
		       tries_node, t_node / (t_wr / rounds));
	if (s_wr != s_lin || (n <= 10000 && s_node != s_wr)) {
		fprintf(stderr, "bench_will_run: answers differ: %lld vs "
			"%lld\n", (long long) s_wr, (long long) s_lin);
		goto out;
	}
	rc = 0;
out:
	sb_will_run_destroy(w);
	sb_bucket_set_destroy(set);
	for (i = 0; nodes && i < n; i++)
		sb_node_fini(&nodes[i]);
	free(nodes);
	free(jobs);
	free(until);
	free(perm);
	sb_bitmap_free(allowed);
	sb_request_fini(&r);
	return rc;
}

int main(int argc, char **argv)
{
	int quick = argc > 1 && !strcmp(argv[1], "--quick");

	if (_run(10000, quick ? 3 : 10))
		return 1;
	if (!quick && _run(100000, 3))
		return 1;
	return 0;
}
