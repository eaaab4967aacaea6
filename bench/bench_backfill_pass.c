/*
 * bench_backfill_pass.c - a whole backfill pass of WILL_RUN queries, each
 * job asked for and then planned, as backfill does.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The cluster: 10,000 nodes in 10 buckets (feature c0..c9, interleaved),
 * 5,000 running jobs (4,500 on two nodes, 500 on one; 95% of the nodes
 * busy) ending at random times in (0, 1 day]; 1,000 pending jobs in
 * priority order, 1 to 32 nodes (every tenth 128 to 512), time limits
 * from 10 minutes to a day, 40% of them constrained to one bucket's
 * feature. Fixed seed.
 *
 * The plugin's path: the plan built once (select/bucket caches it for
 * the pass), then sb_will_run_query() and sb_will_run_commit() per job;
 * with backfill's per-job allowed bitmap (a random 90% of the nodes, 8 of
 * them in turn) and without one.
 *
 * Issue #17 asked whether a will_run on per-bucket timelines (a tree of
 * free-node counts per bucket, kept from job starts and ends) would
 * answer such a pass at least 10 times faster. This bench, at commit
 * ec32527, ran both: the timelines took about 100 times as long (116 s
 * against 1 s a pass, even ignoring the bitmap), nearly all of it
 * confirming candidate starts node by node; the timeline modules were
 * then removed (NEWS).
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
			  const sb_policy_t *pol, double *us, int64_t *sum)
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

int main(int argc, char **argv)
{
	int rounds = argc > 1 && !strcmp(argv[1], "--quick") ? 1 : 3;
	sb_node_t *nodes = calloc(NODES, sizeof(*nodes));
	int64_t *until = calloc(NODES, sizeof(*until));
	size_t *perm = calloc(NODES, sizeof(*perm));
	_pending_t *pend = calloc(PENDING, sizeof(*pend));
	sb_request_t *req = calloc(PENDING, sizeof(*req));
	sb_bitmap_t *allowed[BITMAPS] = { NULL };
	sb_bucket_set_t *set = NULL;
	sb_policy_t pol;
	double t_wr = 0, t_wra = 0;
	int64_t sum_wr = 0, sum_wra = 0;
	size_t i, j, busy = 0;
	int rc = 1, r, b;
	char name[32];

	sb_test_rng_seed(&_rng, 20261123);
	if (!nodes || !until || !perm || !pend || !req ||
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
		if (_will_run_pass(set, until, req, NULL, &pol, &t_wr,
				   &sum_wr) ||
		    _will_run_pass(set, until, req, allowed, &pol, &t_wra,
				   &sum_wra))
			goto out;
	}
	printf("%d nodes, %d buckets, %d running jobs, backfill pass of %d "
	       "pending jobs (query + plan each), mean of %d:\n"
	       "  will_run, no bitmap     %10.1f ms  (%.1f us a job)\n"
	       "  will_run, 90%% bitmaps   %10.1f ms  (%.1f us a job)\n"
	       "  sum of the starts: %lld, %lld\n",
	       NODES, BUCKETS, RUNNING, PENDING, rounds,
	       t_wr / rounds / 1e3, t_wr / rounds / PENDING,
	       t_wra / rounds / 1e3, t_wra / rounds / PENDING,
	       (long long) sum_wr, (long long) sum_wra);
	rc = 0;
out:
	if (rc)
		fprintf(stderr, "bench_backfill_pass: failed\n");
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
	free(pend);
	free(req);
	return rc;
}
