/*
 * test_bucket.c - node buckets: build, O(1) state updates, invariants.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * sb_bucket_set_check() re-derives every node's pool from its state, so
 * running it after each random mutation compares the incremental
 * updates against a from-scratch classification.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bucket.h"
#include "signature.h"
#include "sb_test.h"

#define REQ(e) SB_REQ(e)

static const char *const colours[] = {
	"red", "orange", "yellow", "green", "blue", "indigo", "violet",
};

/* The OpenPBS scenario: 10,010 nodes in 7 colours of 1,430. */
START_TEST(test_openpbs_colours)
{
	size_t n = 10010, i, b;
	sb_node_t *nodes = calloc(n, sizeof(*nodes));
	sb_bucket_set_t *s;
	char name[16], *f;

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "n%zu", i);
		sb_node_init(&nodes[i], (uint32_t) i, name);
		nodes[i].cpus = 2;
		nodes[i].real_memory = 8000;
		sb_node_add_feature(&nodes[i], colours[i / 1430]);
		if (i / 1430 == 2)
			nodes[i].weight = 0;
	}
	/* Two yellow nodes have a reservation in [3600, 7200). */
	sb_node_add_busy(&nodes[2865], 3600, 7200);
	sb_node_add_busy(&nodes[2870], 3600, 7200);
	nodes[0].state = SB_NODE_DOWN;
	s = sb_bucket_set_create(nodes, n, 0);
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(sb_bucket_set_check(s), 0);
	ck_assert_uint_eq(sb_bucket_set_size(s), 7);
	ck_assert_uint_eq(sb_bucket_set_nodes(s), n);
	for (b = 0; b < 7; b++) {
		ck_assert_uint_eq(sb_bucket_total(s, b), 1430);
		ck_assert_str_eq(sb_bucket_rep(s, b)->features[0],
				 colours[b]);
		ck_assert_uint_eq(sb_bucket_rep(s, b)->index, b * 1430);
	}
	ck_assert_uint_eq(sb_bucket_count(s, 0, SB_POOL_BUSY), 1);
	ck_assert_uint_eq(sb_bucket_count(s, 0, SB_POOL_FREE), 1429);
	ck_assert_uint_eq(sb_bucket_count(s, 2, SB_POOL_LATER), 2);
	ck_assert_uint_eq(sb_bucket_count(s, 2, SB_POOL_FREE), 1428);
	f = sb_bitmap_fmt(sb_bucket_pool(s, 2, SB_POOL_LATER));
	ck_assert_str_eq(f, "2865,2870");
	free(f);
	ck_assert_int_eq(sb_bucket_next_start(s, 2865), 3600);
	ck_assert_int_eq(sb_bucket_next_start(s, 2866), SB_TIME_INFINITE);
	ck_assert_uint_eq(sb_bucket_of(s, 4289), 2);
	ck_assert_uint_eq(sb_bucket_of(s, 4290), 3);

	/* O(1) updates: run a job on a free node, then end it. */
	nodes[3000].state = SB_NODE_ALLOCATED;
	ck_assert_int_eq(sb_bucket_set_update(s, 3000), 0);
	ck_assert_int_eq(sb_bucket_set_check(s), 0);
	ck_assert_uint_eq(sb_bucket_count(s, 2, SB_POOL_BUSY), 1);
	ck_assert_int_eq(sb_bucket_node_pool(s, 3000), SB_POOL_BUSY);
	nodes[3000].state = SB_NODE_IDLE;
	ck_assert_int_eq(sb_bucket_set_update(s, 3000), 0);
	ck_assert_uint_eq(sb_bucket_count(s, 2, SB_POOL_BUSY), 0);
	ck_assert_int_eq(sb_bucket_set_update(s, n), -1);
	ck_assert_int_eq(errno, ERANGE);

	/* Working copies start as the truth and never write back. */
	ck_assert_ptr_null(sb_bucket_working(s, 2, SB_POOL_FREE));
	ck_assert_int_eq(sb_bucket_working_reset(s, 2), 0);
	ck_assert_int_eq(sb_bitmap_equal(
		sb_bucket_working(s, 2, SB_POOL_FREE),
		sb_bucket_pool(s, 2, SB_POOL_FREE)), 1);
	sb_bitmap_clear_all(sb_bucket_working(s, 2, SB_POOL_FREE));
	ck_assert_uint_eq(sb_bucket_count(s, 2, SB_POOL_FREE), 1428);
	ck_assert_int_eq(sb_bucket_set_check(s), 0);

	/* A node changed behind the set's back is caught by the checker. */
	nodes[5000].state = SB_NODE_DRAINED;
	errno = 0;
	ck_assert_int_eq(sb_bucket_set_check(s), -1);
	ck_assert_int_eq(errno, EFAULT);
	sb_bucket_set_update(s, 5000);
	ck_assert_int_eq(sb_bucket_set_check(s), 0);

	sb_bucket_set_destroy(s);
	for (i = 0; i < n; i++)
		sb_node_fini(&nodes[i]);
	free(nodes);
}
END_TEST

static void _random_node(sb_test_rng_t *g, sb_node_t *nd, size_t i)
{
	char name[16];

	snprintf(name, sizeof(name), "n%zu", i);
	REQ(sb_node_init(nd, (uint32_t) i, name) == 0);
	nd->cpus = (uint32_t) (1 + sb_test_rng_below(g, 2));
	nd->real_memory = 1000 * (1 + sb_test_rng_below(g, 2));
	nd->weight = (uint32_t) sb_test_rng_below(g, 2);
	if (sb_test_rng_below(g, 2))
		sb_node_add_feature(nd, colours[sb_test_rng_below(g, 3)]);
	if (sb_test_rng_below(g, 5) == 0)
		sb_node_add_gres(nd, "gpu", 1);
}

/* Random clusters: buckets equal the signature classes; random updates. */
START_TEST(test_random_updates)
{
	sb_test_rng_t g;
	size_t t, n, i, j, classes, b, mutations = 0;

	sb_test_rng_seed(&g, 0xb0c4e7ULL);
	for (t = 0; t < 200; t++) {
		sb_node_t *nodes;
		sb_bucket_set_t *s;
		int64_t now = sb_test_rng_range(&g, 0, 50);

		n = 1 + sb_test_rng_below(&g, 300);
		nodes = calloc(n, sizeof(*nodes));
		for (i = 0; i < n; i++)
			_random_node(&g, &nodes[i], i);
		s = sb_bucket_set_create(nodes, n, now);
		REQ(s && sb_bucket_set_check(s) == 0);
		REQ(sb_bucket_set_now(s) == now);
		/* Brute force: count signature classes pairwise. */
		for (i = 0, classes = 0; i < n; i++) {
			for (j = 0; j < i; j++)
				if (sb_signature_equal(&nodes[i], &nodes[j]))
					break;
			classes += j == i;
			REQ(sb_signature_equal(&nodes[i], sb_bucket_rep(s,
					sb_bucket_of(s, i))));
		}
		REQ(sb_bucket_set_size(s) == classes);
		for (j = 0; j < 500; j++) {
			sb_node_t *nd = &nodes[sb_test_rng_below(&g, n)];
			int64_t st = sb_test_rng_range(&g, -10, 100);

			switch (sb_test_rng_below(&g, 7)) {
			case 0:
				nd->state = (sb_node_state_t)
					sb_test_rng_below(&g, 5);
				break;
			case 1:
				nd->run_jobs = (uint32_t)
					sb_test_rng_below(&g, 2);
				break;
			case 2:
				REQ(sb_node_add_busy(nd, st, st + 1 +
					sb_test_rng_below(&g, 30)) == 0);
				break;
			case 3:
				free(nd->busy);
				nd->busy = NULL;
				nd->nbusy = 0;
				break;
			case 4:
				b = sb_test_rng_below(&g,
						      sb_bucket_set_size(s));
				REQ(sb_bucket_working_reset(s, b) == 0);
				REQ(sb_bitmap_equal(sb_bucket_working(s, b,
					SB_POOL_LATER), sb_bucket_pool(s, b,
					SB_POOL_LATER)) == 1);
				break;
			case 5:
				/* the clock moves, windows begin and end */
				now = sb_test_rng_range(&g, -10, 120);
				REQ(sb_bucket_set_set_now(s, now) == 0);
				REQ(sb_bucket_set_now(s) == now);
				REQ(sb_bucket_set_check(s) == 0);
				break;
			default:
				nd->state = SB_NODE_IDLE;
				nd->run_jobs = 0;
				break;
			}
			REQ(sb_bucket_set_update(s, nd->index) == 0);
			REQ(sb_bucket_set_check(s) == 0);
			mutations++;
		}
		sb_bucket_set_destroy(s);
		for (i = 0; i < n; i++)
			sb_node_fini(&nodes[i]);
		free(nodes);
	}
	ck_assert_uint_eq(mutations, 100000);
}
END_TEST

/* A window begins, then ends, as the set's clock moves. */
START_TEST(test_set_now)
{
	sb_node_t nodes[3];
	sb_bucket_set_t *s;
	size_t i;

	for (i = 0; i < 3; i++)
		ck_assert_int_eq(sb_node_init(&nodes[i], i, "n"), 0);
	ck_assert_int_eq(sb_node_add_busy(&nodes[1], 100, 200), 0);
	nodes[2].run_jobs = 1;
	s = sb_bucket_set_create(nodes, 3, 0);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(sb_bucket_set_size(s), 1);
	ck_assert_int_eq(sb_bucket_node_pool(s, 1), SB_POOL_LATER);
	ck_assert_int_eq(sb_bucket_next_start(s, 1), 100);
	ck_assert_uint_eq(sb_bucket_count(s, 0, SB_POOL_FREE), 1);
	ck_assert_int_eq(sb_bucket_set_set_now(s, 150), 0);
	ck_assert_int_eq(sb_bucket_node_pool(s, 1), SB_POOL_BUSY);
	ck_assert_uint_eq(sb_bucket_count(s, 0, SB_POOL_BUSY), 2);
	ck_assert_int_eq(sb_bucket_set_check(s), 0);
	ck_assert_int_eq(sb_bucket_set_set_now(s, 200), 0);
	ck_assert_int_eq(sb_bucket_node_pool(s, 1), SB_POOL_FREE);
	ck_assert_int_eq(sb_bucket_next_start(s, 1), SB_TIME_INFINITE);
	/* the node with a running job stays busy: not a timed node */
	ck_assert_int_eq(sb_bucket_node_pool(s, 2), SB_POOL_BUSY);
	ck_assert_int_eq(sb_bucket_set_check(s), 0);
	ck_assert_int_eq(sb_bucket_set_set_now(s, 50), 0);
	ck_assert_int_eq(sb_bucket_node_pool(s, 1), SB_POOL_LATER);
	ck_assert_int_eq(sb_bucket_set_check(s), 0);
	ck_assert_int_eq(sb_bucket_set_set_now(NULL, 1), -1);
	ck_assert_int_eq(errno, EINVAL);
	sb_bucket_set_destroy(s);
	for (i = 0; i < 3; i++)
		sb_node_fini(&nodes[i]);
}
END_TEST

START_TEST(test_edge_cases)
{
	sb_node_t nd;
	sb_bucket_set_t *s = sb_bucket_set_create(NULL, 0, 0);

	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(sb_bucket_set_size(s), 0);
	ck_assert_int_eq(sb_bucket_set_check(s), 0);
	sb_bucket_set_destroy(s);
	sb_bucket_set_destroy(NULL);
	ck_assert_ptr_null(sb_bucket_set_create(NULL, 3, 0));
	ck_assert_int_eq(errno, EINVAL);
	sb_node_init(&nd, 1, "n1");	/* index must equal position */
	ck_assert_ptr_null(sb_bucket_set_create(&nd, 1, 0));
	ck_assert_int_eq(errno, EINVAL);
	sb_node_fini(&nd);
	ck_assert_int_eq(sb_bucket_set_check(NULL), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bucket");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_openpbs_colours);
	tcase_add_test(tc, test_random_updates);
	tcase_add_test(tc, test_set_now);
	tcase_add_test(tc, test_edge_cases);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
