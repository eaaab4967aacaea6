/*
 * test_timeline.c - the per-bucket timeline against a brute force that
 * tries every instant and every node.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * SB_TEST_OPS=<n> overrides the number of random operations.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sb_test.h"
#include "timeline.h"

static long _ops(long dflt)
{
	const char *s = getenv("SB_TEST_OPS");

	return s && atol(s) > 0 ? atol(s) : dflt;
}

static void _assert_fmt(const sb_timeline_t *tl, const char *want)
{
	char *s = sb_timeline_fmt(tl);

	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s, want);
	free(s);
}

/*
 * Four nodes: 0 runs a job until 100, 1 is idle, 2 is down, 3 runs until
 * 50 and is reserved over [200, 300).
 */
START_TEST(test_example)
{
	sb_timeline_t *tl = sb_timeline_create(0, INT64_MAX, 4);
	size_t nodes[4], all[4];
	int64_t s, r;

	ck_assert_int_eq(sb_timeline_set_busy(tl, 0, 100), 0);
	ck_assert_int_eq(sb_timeline_set_down(tl, 2, true), 0);
	ck_assert_int_eq(sb_timeline_set_busy(tl, 3, 50), 0);
	r = sb_timeline_reserve(tl, 3, 200, 100);
	ck_assert_int_gt(r, 0);
	ck_assert_int_eq(sb_timeline_check(tl), 0);
	_assert_fmt(tl, "0:[0,100) 1:- 2:down 3:[0,50)+[200,300)");
	ck_assert_int_eq(sb_timeline_free_at(tl, 0), 1);
	ck_assert_int_eq(sb_timeline_free_at(tl, 60), 2);
	ck_assert_int_eq(sb_timeline_free_at(tl, 150), 3);
	ck_assert_int_eq(sb_timeline_free_at(tl, 250), 2);

	/* One node now: node 1. */
	ck_assert_int_eq(sb_timeline_earliest(tl, 0, 1000, 1, &s, nodes), 0);
	ck_assert_int_eq(s, 0);
	ck_assert_uint_eq(nodes[0], 1);
	/* Two nodes for 100: node 3 frees at 50 but only for 150. */
	ck_assert_int_eq(sb_timeline_earliest(tl, 0, 100, 2, &s, nodes), 0);
	ck_assert_int_eq(s, 50);
	ck_assert_uint_eq(nodes[0], 1);
	ck_assert_uint_eq(nodes[1], 3);
	/* Two nodes for 200: 3 is reserved at 200, so 0 and 1 at 100. */
	ck_assert_int_eq(sb_timeline_earliest(tl, 0, 200, 2, &s, nodes), 0);
	ck_assert_int_eq(s, 100);
	ck_assert_uint_eq(nodes[0], 0);
	ck_assert_uint_eq(nodes[1], 1);
	/*
	 * Three nodes for 200: at 100..150 three are free at every instant
	 * but node 3 is not free for the whole window: only after 300.
	 */
	ck_assert_int_eq(sb_timeline_earliest(tl, 0, 200, 3, &s, nodes), 0);
	ck_assert_int_eq(s, 300);
	ck_assert_int_eq(sb_timeline_usable(tl, 120, 50, all, 4), 3);
	ck_assert_int_eq(sb_timeline_usable(tl, 120, 200, all, 4), 2);
	ck_assert_int_eq(sb_timeline_node_free(tl, 3, 50, 150), 1);
	ck_assert_int_eq(sb_timeline_node_free(tl, 3, 50, 151), 0);
	/* Four never (node 2 is down), and five is above the bucket. */
	ck_assert_int_eq(sb_timeline_earliest(tl, 0, 1, 4, &s, NULL), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sb_timeline_earliest(tl, 0, 1, 5, &s, NULL), -1);
	ck_assert_int_eq(errno, ERANGE);
	ck_assert_int_eq(sb_timeline_set_down(tl, 2, false), 0);
	ck_assert_int_eq(sb_timeline_unreserve(tl, r), 0);
	ck_assert_int_eq(sb_timeline_unreserve(tl, r), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sb_timeline_earliest(tl, 0, 1, 4, &s, NULL), 0);
	ck_assert_int_eq(s, 100);
	ck_assert_int_eq(sb_timeline_check(tl), 0);
	_assert_fmt(tl, "0:[0,100) 1:- 2:- 3:[0,50)");
	sb_timeline_destroy(tl);
}
END_TEST

START_TEST(test_errors)
{
	sb_timeline_t *tl = sb_timeline_create(10, 100, 2);
	int64_t s;

	sb_timeline_destroy(NULL);
	ck_assert_ptr_null(sb_timeline_create(0, 10, 0));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(sb_timeline_create(0, 0, 1));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_timeline_set_busy(tl, 2, 5), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_timeline_reserve(tl, 0, 9, 5), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_timeline_reserve(tl, 0, 10, 0), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_timeline_reserve(tl, 0, 110, 1), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_timeline_unreserve(tl, 1), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sb_timeline_free_at(tl, 110), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_timeline_earliest(tl, 0, 0, 1, &s, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	/* Whole horizon fits; one more second does not. */
	ck_assert_int_eq(sb_timeline_earliest(tl, 0, 100, 2, &s, NULL), 0);
	ck_assert_int_eq(s, 10);
	ck_assert_int_eq(sb_timeline_earliest(tl, 0, 101, 0, &s, NULL), -1);
	ck_assert_int_eq(errno, ENOENT);
	/* Busy past the end of the horizon clips to it. */
	ck_assert_int_eq(sb_timeline_set_busy(tl, 1, INT64_MAX), 0);
	ck_assert_int_eq(sb_timeline_reserve(tl, 0, 50, INT64_MAX) > 0, 1);
	ck_assert_int_eq(sb_timeline_check(tl), 0);
	_assert_fmt(tl, "0:[50,110) 1:[10,110)");
	sb_timeline_destroy(tl);
}
END_TEST

/* The brute force: per node a busy bit for every instant. */
#define NN 6
#define TH 40

struct o_res {
	int64_t id;
	int node, s, e;
};

struct oracle {
	int until[NN];
	bool down[NN];
	struct o_res res[256];
	int nres;
};

static bool _o_busy(const struct oracle *o, int node, int t)
{
	if (o->down[node] || t < o->until[node])
		return true;
	for (int i = 0; i < o->nres; i++)
		if (o->res[i].node == node && o->res[i].s <= t &&
		    t < o->res[i].e)
			return true;
	return false;
}

static bool _o_free_for(const struct oracle *o, int node, int s, int e)
{
	for (int t = s; t < e; t++)
		if (_o_busy(o, node, t))
			return false;
	return true;
}

static int _o_free_count(const struct oracle *o, int t)
{
	int f = 0;

	for (int i = 0; i < NN; i++)
		f += !_o_busy(o, i, t);
	return f;
}

START_TEST(test_random)
{
	sb_timeline_t *tl = sb_timeline_create(0, TH, NN);
	struct oracle o = { .nres = 0 };
	long ops = _ops(200000);
	sb_test_rng_t r;

	sb_test_rng_seed(&r, 31);
	for (long k = 0; k < ops; k++) {
		int node = (int) sb_test_rng_below(&r, NN);
		int a = (int) sb_test_rng_range(&r, -1, TH + 1);
		int d = (int) sb_test_rng_range(&r, 1, TH / 3);
		uint64_t x = sb_test_rng_below(&r, 10);

		if (x == 0) {
			ck_assert_int_eq(sb_timeline_set_busy(tl, node, a), 0);
			o.until[node] = a;
		} else if (x == 1 && !sb_test_rng_below(&r, 4)) {
			bool down = !o.down[node];

			ck_assert_int_eq(sb_timeline_set_down(tl, node, down),
					 0);
			o.down[node] = down;
		} else if (x == 2 && o.nres < 24) {
			int64_t id;

			if (a < 0 || a >= TH) {
				ck_assert_int_eq(sb_timeline_reserve(tl, node,
							a, d), -1);
				ck_assert_int_eq(errno, EINVAL);
				continue;
			}
			id = sb_timeline_reserve(tl, node, a, d);
			ck_assert_int_gt(id, 0);
			o.res[o.nres++] = (struct o_res) { id, node, a,
				a + d > TH ? TH : a + d };
		} else if ((x == 3 || x == 2) && o.nres) {
			int i = (int) sb_test_rng_below(&r, (uint64_t) o.nres);

			ck_assert_int_eq(sb_timeline_unreserve(tl, o.res[i].id),
					 0);
			o.res[i] = o.res[--o.nres];
		} else {
			size_t kk = sb_test_rng_below(&r, NN + 1);
			size_t got[NN], want[NN], nw = 0;
			int64_t s;
			int rc, ws = -1;

			rc = sb_timeline_earliest(tl, a, d, kk, &s, got);
			for (int t = a < 0 ? 0 : a; t + d <= TH && ws < 0;
			     t++) {
				nw = 0;
				for (int i = 0; i < NN && nw < kk; i++)
					if (_o_free_for(&o, i, t, t + d))
						want[nw++] = (size_t) i;
				if (nw == kk)
					ws = t;
			}
			if (ws < 0) {
				ck_assert_int_eq(rc, -1);
				ck_assert_int_eq(errno, ENOENT);
			} else {
				ck_assert_int_eq(rc, 0);
				ck_assert_int_eq(s, ws);
				for (size_t i = 0; i < kk; i++)
					ck_assert_uint_eq(got[i], want[i]);
			}
			if (a >= 0 && a < TH) {
				ck_assert_int_eq(sb_timeline_free_at(tl, a),
						 _o_free_count(&o, a));
			}
			continue;
		}
		ck_assert_int_eq(sb_timeline_check(tl), 0);
	}
	sb_timeline_destroy(tl);
}
END_TEST

static Suite *_suite(void)
{
	Suite *s = suite_create("timeline");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_example);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_random);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return sb_test_run(_suite());
}
