/*
 * bench_backfill_pass.c - a whole backfill pass of WILL_RUN queries:
 * today's will_run (a sweep per query over a cached plan) against the
 * time planner's per-bucket timelines (timeline.h) kept incrementally.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The question of issue #17: would a will_run that is a client of
 * timeline/planner, maintained from job starts and ends instead of
 * rebuilt, answer a backfill pass at least 10x faster? The cluster:
 * 10,000 nodes in 10 buckets (feature c0..c9, interleaved), 5,000
 * running jobs (4,500 on two nodes, 500 on one; 95% of the nodes busy)
 * ending at random times in (0, 1 day]; 1,000 pending jobs in priority
 * order, 1 to 32 nodes (every tenth 128 to 512), time limits from 10
 * minutes to a day, 40% of them constrained to one bucket's feature.
 * Fixed seed. Each pending job is asked for and then planned (its nodes
 * are busy over its window for the jobs after it), as backfill does.
 *
 *   will_run        the plugin's path: the plan built once (the plugin
 *                   caches it for the pass), then sb_will_run_query() and
 *                   sb_will_run_commit() per job; with backfill's
 *                   per-job allowed bitmap (a random 90% of the nodes,
 *                   8 of them in turn) and without one.
 *   timelines       one sb_timeline_t per bucket and one over every node,
 *                   built once from the running jobs (set_busy per node,
 *                   timed apart: in the product it would follow job
 *                   starts and ends), then per job sb_timeline_earliest()
 *                   on its bucket's timeline (constrained) or on the
 *                   all-node one, and sb_timeline_reserve() of the nodes
 *                   it gets in both timelines that hold them.
 *
 * The timelines side is a lower bound of what a timeline client would
 * cost: it ignores the allowed bitmap (the tree's counts are over every
 * node of a bucket; honouring a per-query bitmap needs the per-node
 * checks will_run does), the policy order and multi-chunk requests, so
 * its answers may differ; the starts are compared and the difference
 * reported, not asserted.
 *
 * Usage: bench_backfill_pass [--quick]   (--quick: 1 round instead of 3)
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sb_bench.h"

#include "bucket.h"
#include "node.h"
#include "node_feature.h"
#include "policy.h"
#include "timeline.h"
#include "will_run.h"

#define NODES 10000
#define BUCKETS 10
#define RUNNING 5000
#define PENDING 1000
#define BITMAPS 8

typedef struct {
	uint32_t count;
	int64_t limit;
	int bucket;			/* -1: any node */
} _pending_t;

static sb_test_rng_t _rng;

static uint64_t _next(void)
{
	return sb_test_rng_next(&_rng);
}

/* Microseconds. */
static double _us(void)
{
	return sb_bench_now() * 1e6;
}

/* One request per pending job, as the plugin would convert it. */
static int _request(const _pending_t *pj, sb_request_t *r)
{
	sb_chunk_t *ch;
	char feat[8];

	sb_request_init(r);
	r->exclusive = true;
	r->time_limit = pj->limit;
	if (!(ch = sb_request_add_chunk(r, pj->count)))
		return -1;
	if (pj->bucket >= 0) {
		snprintf(feat, sizeof(feat), "c%d", pj->bucket);
		if (!(ch->features = sb_feat_expr_parse(feat, NULL, NULL)))
			return -1;
	}
	return 0;
}

/* The will_run pass; the sum of the starts into *sum. */
static int _will_run_pass(const sb_bucket_set_t *set, const int64_t *until,
			  const sb_request_t *req, sb_bitmap_t **allowed,
			  const sb_policy_t *pol, double *us, int64_t *sum,
			  int64_t *starts)
{
	sb_will_run_t *w;
	sb_will_run_result_t res;
	double t0 = _us();
	size_t j;

	*sum = 0;
	if (!(w = sb_will_run_create(set, 0, INT64_MAX, until)))
		return -1;
	for (j = 0; j < PENDING; j++) {
		if (sb_will_run_query(w, &req[j], pol, allowed ?
				      allowed[j % BITMAPS] : NULL, 0, &res))
			goto fail;
		*sum += res.start;
		if (starts)
			starts[j] = res.start;
		if (sb_will_run_commit(w, &res)) {
			sb_will_run_result_fini(&res);
			goto fail;
		}
		sb_will_run_result_fini(&res);
	}
	*us += _us() - t0;
	sb_will_run_destroy(w);
	return 0;
fail:
	fprintf(stderr, "bench_backfill_pass: will_run: %s\n",
		strerror(errno));
	sb_will_run_destroy(w);
	return -1;
}

/* The timelines: [0, BUCKETS) per bucket (node i is i / BUCKETS of
 * bucket i % BUCKETS), [BUCKETS] every node. */
static int _timelines_build(sb_timeline_t **tl, const int64_t *until,
			    double *us)
{
	double t0 = _us();
	size_t i;
	int b;

	for (b = 0; b <= BUCKETS; b++)
		if (!(tl[b] = sb_timeline_create(0, INT64_MAX,
						 b < BUCKETS ? NODES / BUCKETS
							     : NODES)))
			return -1;
	for (i = 0; i < NODES; i++)
		if (until[i] > 0 &&
		    (sb_timeline_set_busy(tl[i % BUCKETS], i / BUCKETS,
					  until[i]) ||
		     sb_timeline_set_busy(tl[BUCKETS], i, until[i])))
			return -1;
	*us += _us() - t0;
	return 0;
}

static int _timeline_pass(sb_timeline_t **tl, const _pending_t *pend,
			  size_t *scratch, double *us, int64_t *sum,
			  int64_t *starts)
{
	double t0 = _us();
	int64_t s;
	size_t j, k, node;

	*sum = 0;
	for (j = 0; j < PENDING; j++) {
		const _pending_t *pj = &pend[j];
		int b = pj->bucket >= 0 ? pj->bucket : BUCKETS;

		if (sb_timeline_earliest(tl[b], 0, pj->limit, pj->count, &s,
					 scratch))
			goto fail;
		*sum += s;
		if (starts)
			starts[j] = s;
		for (k = 0; k < pj->count; k++) {
			node = b < BUCKETS ? scratch[k] * BUCKETS + (size_t) b
					   : scratch[k];
			if (sb_timeline_reserve(tl[node % BUCKETS],
						node / BUCKETS, s,
						pj->limit) < 0 ||
			    sb_timeline_reserve(tl[BUCKETS], node, s,
						pj->limit) < 0)
				goto fail;
		}
	}
	*us += _us() - t0;
	return 0;
fail:
	fprintf(stderr, "bench_backfill_pass: timeline: %s\n",
		strerror(errno));
	return -1;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 && !strcmp(argv[1], "--quick") ? 1 : 3;
	sb_node_t *nodes = calloc(NODES, sizeof(*nodes));
	int64_t *until = calloc(NODES, sizeof(*until));
	int64_t *s_wr = calloc(PENDING, sizeof(*s_wr));
	int64_t *s_tl = calloc(PENDING, sizeof(*s_tl));
	size_t *perm = calloc(NODES, sizeof(*perm));
	size_t *scratch = calloc(NODES, sizeof(*scratch));
	_pending_t *pend = calloc(PENDING, sizeof(*pend));
	sb_request_t *req = calloc(PENDING, sizeof(*req));
	sb_bitmap_t *allowed[BITMAPS] = { NULL };
	sb_timeline_t *tl[BUCKETS + 1] = { NULL };
	sb_bucket_set_t *set = NULL;
	sb_policy_t pol;
	double t_wr = 0, t_wra = 0, t_tl = 0, t_build = 0;
	int64_t sum_wr = 0, sum_wra = 0, sum_tl = 0;
	size_t i, j, busy = 0, same = 0, earlier = 0;
	int rc = 1, r, b;
	char name[32];

	sb_test_rng_seed(&_rng, 20261123);
	if (!nodes || !until || !perm || !scratch || !pend || !req ||
	    !s_wr || !s_tl ||
	    sb_policy_init(&pol, "FIRSTAVAILABLE", NULL, NULL, NULL))
		goto out;
	for (b = 0; b < BITMAPS; b++)
		if (!(allowed[b] = sb_bitmap_alloc(NODES)))
			goto out;
	for (i = 0; i < NODES; i++) {
		snprintf(name, sizeof(name), "n%zu", i);
		snprintf(name + 16, 16, "c%zu", i % BUCKETS);
		if (sb_node_init(&nodes[i], (uint32_t) i, name) ||
		    sb_node_add_feature(&nodes[i], name + 16))
			goto out;
		nodes[i].cpus = 32;
		perm[i] = i;
		for (b = 0; b < BITMAPS; b++)
			if (_next() % 10)
				sb_bitmap_set(allowed[b], i);
	}
	for (i = NODES - 1; i > 0; i--) {
		size_t k = _next() % (i + 1), t = perm[i];

		perm[i] = perm[k];
		perm[k] = t;
	}
	/* 4,500 jobs on two nodes, 500 on one: 9,500 busy nodes. */
	for (j = 0; j < RUNNING; j++) {
		int64_t end = 1 + (int64_t) (_next() % 86400);
		size_t width = j < RUNNING * 9 / 10 ? 2 : 1;

		for (i = 0; i < width; i++) {
			nodes[perm[busy]].state = SB_NODE_ALLOCATED;
			nodes[perm[busy]].run_jobs = 1;
			until[perm[busy++]] = end;
		}
	}
	for (j = 0; j < PENDING; j++) {
		pend[j].count = j % 10 == 9 ? 128 + (uint32_t) (_next() % 385)
					    : 1 + (uint32_t) (_next() % 32);
		pend[j].limit = 600 + (int64_t) (_next() % (86400 - 600));
		pend[j].bucket = _next() % 10 < 4 ? (int) (_next() % BUCKETS)
						  : -1;
		/* One bucket holds 1,000 nodes. */
		if (pend[j].bucket >= 0 && pend[j].count > NODES / BUCKETS)
			pend[j].count = NODES / BUCKETS / 2;
		if (_request(&pend[j], &req[j]))
			goto out;
	}
	if (!(set = sb_bucket_set_create(nodes, NODES, 0)))
		goto out;
	for (r = 0; r < rounds; r++) {
		if (_will_run_pass(set, until, req, NULL, &pol, &t_wr, &sum_wr,
				   s_wr) ||
		    _will_run_pass(set, until, req, allowed, &pol, &t_wra,
				   &sum_wra, NULL) ||
		    _timelines_build(tl, until, &t_build) ||
		    _timeline_pass(tl, pend, scratch, &t_tl, &sum_tl, s_tl))
			goto out;
		for (b = 0; b <= BUCKETS; b++) {
			sb_timeline_destroy(tl[b]);
			tl[b] = NULL;
		}
	}
	for (j = 0; j < PENDING; j++) {
		same += s_wr[j] == s_tl[j];
		earlier += s_tl[j] < s_wr[j];
	}
	printf("%d nodes, %d buckets, %d running jobs, backfill pass of %d "
	       "pending jobs (query + plan each), mean of %d:\n"
	       "  will_run, no bitmap      %10.1f ms  (%.1f us a job)\n"
	       "  will_run, 90%% bitmaps    %10.1f ms  (%.1f us a job)\n"
	       "  timelines (lower bound) %10.1f ms  (%.1f us a job)  "
	       "x%.2f vs will_run, no bitmap\n"
	       "  timelines, built once   %10.1f ms  (11 timelines from "
	       "the running jobs)\n"
	       "  starts: %zu of %d the same, %zu earlier on the timelines "
	       "(no policy order there)\n",
	       NODES, BUCKETS, RUNNING, PENDING, rounds,
	       t_wr / rounds / 1e3, t_wr / rounds / PENDING,
	       t_wra / rounds / 1e3, t_wra / rounds / PENDING,
	       t_tl / rounds / 1e3, t_tl / rounds / PENDING, t_wr / t_tl,
	       t_build / rounds / 1e3, same, PENDING, earlier);
	rc = 0;
out:
	if (rc)
		fprintf(stderr, "bench_backfill_pass: failed\n");
	for (b = 0; b <= BUCKETS; b++)
		sb_timeline_destroy(tl[b]);
	for (b = 0; b < BITMAPS; b++)
		sb_bitmap_free(allowed[b]);
	sb_bucket_set_destroy(set);
	for (i = 0; nodes && i < NODES; i++)
		sb_node_fini(&nodes[i]);
	for (j = 0; req && j < PENDING; j++)
		sb_request_fini(&req[j]);
	free(nodes);
	free(until);
	free(perm);
	free(scratch);
	free(pend);
	free(req);
	free(s_wr);
	free(s_tl);
	return rc;
}
