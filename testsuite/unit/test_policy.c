/*
 * test_policy.c - each allocation policy on a case small enough to check
 * by hand (the expected node set is derived in the comment above it).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bucket.h"
#include "place.h"
#include "policy.h"
#include "sb_test.h"

#define MAXN 8

/* Node i gets cpus[i], mem[i], weight[i], speed[i], load[i] when set. */
typedef struct {
	size_t n;
	uint32_t cpus[MAXN], weight[MAXN];
	uint64_t mem[MAXN];
	double speed[MAXN], load[MAXN];
	int64_t busy_start[MAXN];	/* 0: no window */
	int allocated[MAXN];
} _cluster_t;

/*
 * Place an exclusive one-chunk job of @count nodes and time limit
 * @limit (minimum CPUs @mincpus) and return the chosen node set as
 * sb_bitmap_fmt() text ("wait"/"never" otherwise); *path gets
 * "bucket" or the per-node reason.
 */
static char *_place(const _cluster_t *cl, const char *policy,
		    const char *pf, uint32_t count, int64_t limit,
		    uint32_t mincpus, bool contiguous, const char **path)
{
	sb_node_t nodes[MAXN];
	sb_bucket_set_t *s;
	sb_request_t r;
	sb_policy_t p;
	sb_placement_t pl;
	sb_bitmap_t *all;
	size_t i, c;
	char name[24], *out;

	for (i = 0; i < cl->n; i++) {
		snprintf(name, sizeof(name), "n%zu", i);
		sb_node_init(&nodes[i], (uint32_t) i, name);
		nodes[i].cpus = cl->cpus[i] ? cl->cpus[i] : 4;
		nodes[i].real_memory = cl->mem[i] ? cl->mem[i] : 1000;
		nodes[i].weight = cl->weight[i] ? cl->weight[i] : 1;
		nodes[i].speed = cl->speed[i] ? cl->speed[i] : 1;
		nodes[i].load = cl->load[i];
		if (cl->busy_start[i])
			sb_node_add_busy(&nodes[i], cl->busy_start[i],
					 cl->busy_start[i] + 10000);
		if (cl->allocated[i]) {
			nodes[i].state = SB_NODE_ALLOCATED;
			nodes[i].run_jobs = 1;
		}
	}
	s = sb_bucket_set_create(nodes, cl->n, 0);
	ck_assert_ptr_nonnull(s);
	sb_request_init(&r);
	r.exclusive = true;
	r.contiguous = contiguous;
	r.time_limit = limit;
	sb_request_add_chunk(&r, count)->min_cpus = mincpus;
	ck_assert_int_eq(sb_policy_init(&p, policy, pf, NULL, NULL), 0);
	ck_assert_int_eq(sb_place(s, &r, &p, SB_PATH_AUTO, &pl), 0);
	*path = pl.bucket_path ? "bucket" : pl.reason;
	if (pl.result == SB_PLACE_RUN) {
		all = sb_bitmap_alloc(cl->n);
		for (c = 0; c < pl.nchunks; c++)
			sb_bitmap_or(all, pl.nodes[c]);
		out = sb_bitmap_fmt(all);
		sb_bitmap_free(all);
	} else {
		out = strdup(sb_place_result_name(pl.result));
	}
	sb_placement_fini(&pl);
	sb_request_fini(&r);
	ck_assert_int_eq(sb_bucket_set_check(s), 0);
	sb_bucket_set_destroy(s);
	for (i = 0; i < cl->n; i++)
		sb_node_fini(&nodes[i]);
	return out;
}

static void _expect(char *got, const char *want, const char *path,
		    const char *want_path)
{
	ck_assert_str_eq(got, want);
	ck_assert_str_eq(path, want_path);
	free(got);
}

START_TEST(test_names)
{
	sb_policy_t p;
	int k;
	size_t pos;
	const char *msg;

	for (k = 0; k < SB_POLICY_COUNT; k++) {
		const char *pf = k == SB_POLICY_PRIORITY ? "SPEED" : NULL;

		ck_assert_int_eq(sb_policy_init(&p, sb_policy_name(
			(sb_policy_kind_t) k), pf, NULL, NULL), 0);
		ck_assert_int_eq(p.kind, k);
	}
	ck_assert_int_eq(sb_policy_init(&p, "maxBalance", NULL, NULL, NULL),
			 0);
	ck_assert_int_eq(p.kind, SB_POLICY_MAXBALANCE);
	ck_assert_int_eq(sb_policy_init(&p, "LOCAL", NULL, NULL, NULL), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sb_policy_init(&p, "PRIORITY", NULL, &pos, &msg),
			 -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_policy_init(&p, "FASTEST", "SPEED", &pos, &msg),
			 -1);
	ck_assert_int_eq(sb_policy_init(&p, "PRIORITY", "SPEED+FOO", &pos,
					&msg), -1);
	ck_assert_uint_eq(pos, 6);
	ck_assert_str_eq(msg, "unknown component");
	ck_assert_str_eq(sb_policy_name(SB_POLICY_COUNT), "UNKNOWN");
}
END_TEST

/* Weight first: nodes 1 and 2 have weight 1, nodes 0 and 3 weight 2. */
START_TEST(test_firstavailable)
{
	_cluster_t cl = { .n = 4, .weight = { 2, 1, 1, 2 } };
	const char *path;
	char *got;

	got = _place(&cl, "FIRSTAVAILABLE", NULL, 2, 60, 0, false, &path);
	_expect(got, "1-2", path, "bucket");
	/* Three nodes: both weight-1 nodes, then the lowest index, 0. */
	got = _place(&cl, "FIRSTAVAILABLE", NULL, 3, 60, 0, false, &path);
	_expect(got, "0-2", path, "bucket");
	got = _place(&cl, "FIRSTAVAILABLE", NULL, 5, 60, 0, false, &path);
	_expect(got, "never", path, "bucket");
	cl.allocated[1] = 1;
	got = _place(&cl, "FIRSTAVAILABLE", NULL, 4, 60, 0, false, &path);
	_expect(got, "wait", path, "bucket");
}
END_TEST

/*
 * Busy windows start at: n0 none, n1 1000, n2 200, n3 100. A 100 s job
 * ends at 100; time left after it: n3 0, n2 100, n1 900, n0 infinite.
 * Best fit in time takes n3 then n2. A 150 s job cannot use n3.
 */
START_TEST(test_lastavailable)
{
	_cluster_t cl = { .n = 4, .busy_start = { 0, 1000, 200, 100 } };
	const char *path;
	char *got;

	got = _place(&cl, "LASTAVAILABLE", NULL, 2, 100, 0, false, &path);
	_expect(got, "2-3", path, "policy_order");
	got = _place(&cl, "LASTAVAILABLE", NULL, 2, 150, 0, false, &path);
	_expect(got, "1-2", path, "policy_order");
	/* The bucket path takes busy-later nodes that fit, by index. */
	got = _place(&cl, "FIRSTAVAILABLE", NULL, 2, 150, 0, false, &path);
	_expect(got, "1-2", path, "bucket");
	got = _place(&cl, "FIRSTAVAILABLE", NULL, 1, 1000, 0, false, &path);
	_expect(got, "1", path, "bucket");
	got = _place(&cl, "FIRSTAVAILABLE", NULL, 1, 1001, 0, false, &path);
	_expect(got, "0", path, "bucket");
}
END_TEST

/*
 * CPUs 8, 2, 4, 2 and memory 1000, 1000, 1000, 500: fewest first is
 * n3 (2 CPUs, 500 MB), n1 (2, 1000), n2 (4), n0 (8).
 */
START_TEST(test_minresource)
{
	_cluster_t cl = { .n = 4, .cpus = { 8, 2, 4, 2 },
			  .mem = { 1000, 1000, 1000, 500 } };
	const char *path;
	char *got;

	got = _place(&cl, "MINRESOURCE", NULL, 2, 60, 0, false, &path);
	_expect(got, "1,3", path, "bucket");
	got = _place(&cl, "MINRESOURCE", NULL, 1, 60, 3, false, &path);
	_expect(got, "2", path, "bucket");
	got = _place(&cl, "MINRESOURCE", NULL, 1, 60, 0, false, &path);
	_expect(got, "3", path, "bucket");
}
END_TEST

/* 4 CPUs each, load 3, 0.5, 2, 0: free power 1, 3.5, 2, 4 -> n3, n1. */
START_TEST(test_cpuload)
{
	_cluster_t cl = { .n = 4, .load = { 3, 0.5, 2, 0 } };
	const char *path;
	char *got;

	got = _place(&cl, "CPULOAD", NULL, 2, 60, 0, false, &path);
	_expect(got, "1,3", path, "policy_order");
	got = _place(&cl, "CPULOAD", NULL, 3, 60, 0, false, &path);
	_expect(got, "1-3", path, "policy_order");
}
END_TEST

/*
 * Six nodes, n2 allocated. Blocks of three: 0-2, 1-3, 2-4 hold n2; only
 * 3-5 works. With n5 allocated instead, 0-2 (weight 3) beats 1-3.
 */
START_TEST(test_contiguous)
{
	_cluster_t cl = { .n = 6, .allocated = { 0, 0, 1 } };
	const char *path;
	char *got;

	got = _place(&cl, "CONTIGUOUS", NULL, 3, 60, 0, false, &path);
	_expect(got, "3-5", path, "policy_order");
	got = _place(&cl, "FIRSTAVAILABLE", NULL, 3, 60, 0, true, &path);
	_expect(got, "3-5", path, "contiguous");
	got = _place(&cl, "FIRSTAVAILABLE", NULL, 4, 60, 0, true, &path);
	_expect(got, "wait", path, "contiguous");
	got = _place(&cl, "FIRSTAVAILABLE", NULL, 7, 60, 0, true, &path);
	_expect(got, "never", path, "contiguous");
	cl.allocated[2] = 0;
	cl.allocated[5] = 1;
	cl.weight[0] = 2;
	/* Blocks: 0-2 weight 4, 1-3 weight 3, 2-4 weight 3: lowest start. */
	got = _place(&cl, "CONTIGUOUS", NULL, 3, 60, 0, false, &path);
	_expect(got, "1-3", path, "policy_order");
}
END_TEST

/*
 * Speeds 1, 3, 2, 2, 5, 3. Two nodes: span 0 is possible with speeds
 * 2,2 (n2, n3) or 3,3 (n1, n5); the slower pair wins. Three nodes: the
 * sorted speeds 1,2,2,3,3,5 give span 1 at best, first from 1: n0, n2,
 * n3. With n0 at weight 2, the weight-1 tier holds the job: speeds
 * 2,2,3 (n2, n3 and n1, the lower index of the speed-3 nodes).
 */
START_TEST(test_maxbalance)
{
	_cluster_t cl = { .n = 6, .speed = { 1, 3, 2, 2, 5, 3 } };
	const char *path;
	char *got;

	got = _place(&cl, "MAXBALANCE", NULL, 2, 60, 0, false, &path);
	_expect(got, "2-3", path, "policy_order");
	got = _place(&cl, "MAXBALANCE", NULL, 3, 60, 0, false, &path);
	_expect(got, "0,2-3", path, "policy_order");
	cl.weight[0] = 2;
	got = _place(&cl, "MAXBALANCE", NULL, 3, 60, 0, false, &path);
	_expect(got, "1-3", path, "policy_order");
	/* Six nodes need every tier. */
	got = _place(&cl, "MAXBALANCE", NULL, 6, 60, 0, false, &path);
	_expect(got, "0-5", path, "policy_order");
}
END_TEST

/* Speeds 1, 3, 2, 3: the two speed-3 nodes. Weight stays primary. */
START_TEST(test_fastest)
{
	_cluster_t cl = { .n = 4, .speed = { 1, 3, 2, 3 } };
	const char *path;
	char *got;

	got = _place(&cl, "FASTEST", NULL, 2, 60, 0, false, &path);
	_expect(got, "1,3", path, "bucket");
	cl.weight[3] = 5;
	got = _place(&cl, "FASTEST", NULL, 2, 60, 0, false, &path);
	_expect(got, "1-2", path, "bucket");
}
END_TEST

/*
 * Memory 1000, 4000, 2000, 3000; PRIORITYF=CMEM takes n1, n3. With n3
 * at weight 2, weight comes first: n1, n2. With CMEM-500*WEIGHT the
 * expression owns the order: 500, 3500, 1500, 2000 -> n1, n3 again.
 * -LOAD is dynamic, so the per-node path: loads 2, 0, 1, 3 -> n1, n2.
 */
START_TEST(test_priority)
{
	_cluster_t cl = { .n = 4, .mem = { 1000, 4000, 2000, 3000 },
			  .load = { 2, 0, 1, 3 } };
	const char *path;
	char *got;

	got = _place(&cl, "PRIORITY", "CMEM", 2, 60, 0, false, &path);
	_expect(got, "1,3", path, "bucket");
	cl.weight[3] = 2;
	got = _place(&cl, "PRIORITY", "CMEM", 2, 60, 0, false, &path);
	_expect(got, "1-2", path, "bucket");
	got = _place(&cl, "PRIORITY", "CMEM-500*WEIGHT", 2, 60, 0, false,
		     &path);
	_expect(got, "1,3", path, "bucket");
	got = _place(&cl, "PRIORITY", "-LOAD", 2, 60, 0, false, &path);
	_expect(got, "1-2", path, "policy_order");
}
END_TEST

START_TEST(test_keys)
{
	sb_policy_t p;
	sb_node_t n;
	sb_policy_key_t k[3];

	sb_node_init(&n, 7, "n7");
	sb_policy_init(&p, "LASTAVAILABLE", NULL, NULL, NULL);
	sb_policy_key(&p, &n, 0, 100, SB_TIME_INFINITE, &k[0]);
	ck_assert(isinf(k[0].k[2]));
	sb_policy_key(&p, &n, 0, 100, 150, &k[1]);
	ck_assert(k[1].k[2] == 50);
	ck_assert_int_gt(sb_policy_key_cmp(&k[0], &k[1]), 0);
	k[2] = k[1];
	k[2].idx = 3;
	sb_policy_sort(k, 3);
	ck_assert_uint_eq(k[0].idx, 3);
	ck_assert_uint_eq(k[1].idx, 7);
	ck_assert(isinf(k[2].k[2]));
	sb_node_fini(&n);
}
END_TEST

/*
 * Preferences (issue 18): after Weight, more preferred features first;
 * the policy's own order below that; a PRIORITYF with PREF weighs them
 * itself, one without PREF leaves the preference order in place.
 */
START_TEST(test_keys_prefer)
{
	sb_policy_t p;
	sb_node_t a, b;
	sb_policy_key_t ka, kb;

	sb_node_init(&a, 0, "slow");
	sb_node_init(&b, 1, "fast");
	b.speed = 1;
	a.speed = 3;
	sb_policy_init(&p, "FASTEST", NULL, NULL, NULL);
	sb_policy_key(&p, &a, 0, 0, SB_TIME_INFINITE, &ka);
	sb_policy_key(&p, &b, 1, 0, SB_TIME_INFINITE, &kb);
	ck_assert_int_lt(sb_policy_key_cmp(&kb, &ka), 0);
	/* Weight still comes first */
	b.weight = 2;
	sb_policy_key(&p, &b, 1, 0, SB_TIME_INFINITE, &kb);
	ck_assert_int_gt(sb_policy_key_cmp(&kb, &ka), 0);
	b.weight = 1;
	/* equal preference: the policy decides (speed 3 first) */
	sb_policy_key(&p, &a, 1, 0, SB_TIME_INFINITE, &ka);
	sb_policy_key(&p, &b, 1, 0, SB_TIME_INFINITE, &kb);
	ck_assert_int_lt(sb_policy_key_cmp(&ka, &kb), 0);
	/* PRIORITYF with PREF: 10*SPEED - 25*PREF puts the preferred last */
	ck_assert_int_eq(sb_policy_init(&p, "PRIORITY", "10*SPEED-25*PREF",
					NULL, NULL), 0);
	ck_assert(sb_policy_static(&p));
	sb_policy_key(&p, &a, 0, 0, SB_TIME_INFINITE, &ka);
	sb_policy_key(&p, &b, 1, 0, SB_TIME_INFINITE, &kb);
	ck_assert_int_lt(sb_policy_key_cmp(&ka, &kb), 0);
	/* ... without PREF the preference order stands */
	ck_assert_int_eq(sb_policy_init(&p, "PRIORITY", "10*SPEED", NULL,
					NULL), 0);
	sb_policy_key(&p, &a, 0, 0, SB_TIME_INFINITE, &ka);
	sb_policy_key(&p, &b, 1, 0, SB_TIME_INFINITE, &kb);
	ck_assert_int_lt(sb_policy_key_cmp(&kb, &ka), 0);
	sb_node_fini(&a);
	sb_node_fini(&b);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("policy");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_firstavailable);
	tcase_add_test(tc, test_lastavailable);
	tcase_add_test(tc, test_minresource);
	tcase_add_test(tc, test_cpuload);
	tcase_add_test(tc, test_contiguous);
	tcase_add_test(tc, test_maxbalance);
	tcase_add_test(tc, test_fastest);
	tcase_add_test(tc, test_priority);
	tcase_add_test(tc, test_keys);
	tcase_add_test(tc, test_keys_prefer);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
