/*
 * test_limit_plan.c - when counted limits let jobs start.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A table of the cases 'sbucket why' meets (a licence, a group limit,
 * a limit lowered under its use, a holder that never ends, two limits at
 * once), then random plans (fixed seed) against a brute-force oracle:
 * one counter per limit and second over a short horizon, every job
 * planned in order at the first second where all its limits have room
 * for its whole window.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "limit_plan.h"
#include "sb_test.h"

START_TEST(test_table)
{
	int64_t lim[] = { 2, 4 }, s;
	int64_t need0[] = { 1, 0 }, need1[] = { 0, 2 }, both[] = { 1, 2 };
	sb_limit_plan_t *lp = sb_limit_plan_create(100, lim, 2);

	ck_assert_ptr_nonnull(lp);
	/* licence: two holders end at 160 and 220 */
	ck_assert_int_eq(sb_limit_plan_hold(lp, 0, 1, 160), 0);
	ck_assert_int_eq(sb_limit_plan_hold(lp, 0, 1, 220), 0);
	ck_assert_int_eq(sb_limit_plan_in_use(lp, 0, 100), 2);
	ck_assert_int_eq(sb_limit_plan_in_use(lp, 0, 160), 1);
	ck_assert_int_eq(sb_limit_plan_earliest(lp, need0, 100, 60, &s), 0);
	ck_assert_int_eq(s, 160);
	/* a job ahead takes the first licence freed: the next waits more */
	ck_assert_int_eq(sb_limit_plan_add(lp, need0, 160, 300), 0);
	ck_assert_int_eq(sb_limit_plan_earliest(lp, need0, 100, 60, &s), 0);
	ck_assert_int_eq(s, 220);
	/* group cpu=4: 4 in use until 130, 2 until 400 */
	ck_assert_int_eq(sb_limit_plan_hold(lp, 1, 2, 130), 0);
	ck_assert_int_eq(sb_limit_plan_hold(lp, 1, 2, 400), 0);
	ck_assert_int_eq(sb_limit_plan_earliest(lp, need1, 100, 60, &s), 0);
	ck_assert_int_eq(s, 130);
	/* both: the licence at 220, the cpus from 130 on: 220 */
	ck_assert_int_eq(sb_limit_plan_earliest(lp, both, 100, 60, &s), 0);
	ck_assert_int_eq(s, 220);
	ck_assert_int_eq(sb_limit_plan_earliest_one(lp, 1, 2, 100, 60, &s),
			 0);
	ck_assert_int_eq(s, 130);
	/* more than the limit: never */
	ck_assert_int_eq(sb_limit_plan_earliest_one(lp, 1, 5, 100, 60, &s),
			 -1);
	ck_assert_int_eq(errno, ENOENT);
	/* no time limit: to the end of time; 3 cpus once both ended */
	need1[1] = 3;
	ck_assert_int_eq(sb_limit_plan_earliest(lp, need1, 100,
						SB_TIME_INFINITE, &s), 0);
	ck_assert_int_eq(s, 400);
	sb_limit_plan_destroy(lp);
}
END_TEST

START_TEST(test_over_and_never)
{
	int64_t lim[] = { 2 }, one[] = { 1 }, s;
	sb_limit_plan_t *lp = sb_limit_plan_create(0, lim, 1);

	/* the limit was lowered to 2 under 4 units in use */
	ck_assert_int_eq(sb_limit_plan_hold(lp, 0, 1, 50), 0);
	ck_assert_int_eq(sb_limit_plan_hold(lp, 0, 1, 60), 0);
	ck_assert_int_eq(sb_limit_plan_hold(lp, 0, 1, 70), 0);
	ck_assert_int_eq(sb_limit_plan_hold(lp, 0, 1, SB_TIME_INFINITE), 0);
	ck_assert_int_eq(sb_limit_plan_in_use(lp, 0, 0), 4);
	ck_assert_int_eq(sb_limit_plan_earliest(lp, one, 0, 10, &s), 0);
	ck_assert_int_eq(s, 70);	/* 4 -> 3 -> 2 -> 1 in use */
	ck_assert_int_eq(sb_limit_plan_hold(lp, 0, 1, SB_TIME_INFINITE), 0);
	ck_assert_int_eq(sb_limit_plan_earliest(lp, one, 0, 10, &s), -1);
	ck_assert_int_eq(errno, ENOENT);
	/* overdue holders end a second after now */
	sb_limit_plan_destroy(lp);
	lp = sb_limit_plan_create(1000, lim, 1);
	ck_assert_int_eq(sb_limit_plan_hold(lp, 0, 2, 900), 0);
	ck_assert_int_eq(sb_limit_plan_earliest(lp, one, 1000, 10, &s), 0);
	ck_assert_int_eq(s, 1001);
	/* bad arguments change nothing */
	ck_assert_int_eq(sb_limit_plan_hold(lp, 1, 1, 2000), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_limit_plan_hold(lp, 0, -1, 2000), -1);
	ck_assert_int_eq(sb_limit_plan_earliest(lp, one, 999, 10, &s), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_limit_plan_add(lp, one, 1000, 0), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_limit_plan_in_use(lp, 0, 1000), 2);
	ck_assert_ptr_null(sb_limit_plan_create(0, NULL, 1));
	sb_limit_plan_destroy(NULL);
	sb_limit_plan_destroy(lp);
	/* no limits at all: any time is fine */
	lp = sb_limit_plan_create(5, NULL, 0);
	ck_assert_int_eq(sb_limit_plan_earliest(lp, NULL, 7, 3, &s), 0);
	ck_assert_int_eq(s, 7);
	sb_limit_plan_destroy(lp);
}
END_TEST

#define NLIM 3
#define HORIZON 200	/* the oracle's seconds; windows end before it */

/* The first s >= t where every limit has room for the window, or -1. */
static int64_t _oracle(int64_t used[NLIM][HORIZON], const int64_t *lim,
		       const int64_t *need, int64_t t, int64_t d)
{
	int64_t s, u;
	size_t i;

	for (s = t; s + d <= HORIZON; s++) {
		bool ok = true;

		for (i = 0; i < NLIM && ok; i++) {
			for (u = s; u < s + d && ok && need[i]; u++)
				ok = used[i][u] + need[i] <= lim[i];
		}
		if (ok)
			return s;
	}
	return -1;
}

START_TEST(test_oracle)
{
	sb_test_rng_t r;
	unsigned round;

	sb_test_rng_seed(&r, 25);
	for (round = 0; round < 300; round++) {
		static int64_t used[NLIM][HORIZON];
		int64_t lim[NLIM], now = sb_test_rng_range(&r, 0, 20);
		sb_limit_plan_t *lp;
		unsigned k;
		size_t i;

		memset(used, 0, sizeof(used));
		for (i = 0; i < NLIM; i++)
			lim[i] = sb_test_rng_range(&r, 0, 5);
		lp = sb_limit_plan_create(now, lim, NLIM);
		SB_REQ(lp);
		/* holders, ending within the horizon, some over the limit */
		for (k = 0; k < 6; k++) {
			int64_t end = sb_test_rng_range(&r, now + 1, 120), u;
			int64_t units = sb_test_rng_range(&r, 1, 3);

			i = sb_test_rng_below(&r, NLIM);
			SB_REQ(!sb_limit_plan_hold(lp, i, units, end));
			for (u = now; u < end; u++)
				used[i][u] += units;
		}
		/* jobs planned in order, as 'sbucket why' plans jobs ahead */
		for (k = 0; k < 8; k++) {
			int64_t need[NLIM], d = sb_test_rng_range(&r, 1, 30);
			int64_t t = now + sb_test_rng_range(&r, 0, 10);
			int64_t want, got, u;
			int rc;

			for (i = 0; i < NLIM; i++)
				need[i] = sb_test_rng_below(&r, 3) ?
					sb_test_rng_range(&r, 0, 3) : 0;
			want = _oracle(used, lim, need, t, d);
			rc = sb_limit_plan_earliest(lp, need, t, d, &got);
			if (want < 0 || want + d > 150) {
				/* past the oracle's horizon: only check that
				 * the plan did not answer earlier */
				SB_REQ_CASE(rc || want < 0 || got >= want,
					    round);
				continue;
			}
			SB_REQ_CASE(!rc && got == want, round);
			for (i = 0; i < NLIM; i++) {
				int64_t one;

				if (!need[i])
					continue;
				SB_REQ_CASE(!sb_limit_plan_earliest_one(
						lp, i, need[i], t, d, &one) &&
					    one <= got, round);
			}
			SB_REQ(!sb_limit_plan_add(lp, need, got, d));
			for (i = 0; i < NLIM; i++)
				for (u = got; u < got + d; u++)
					used[i][u] += need[i];
			for (i = 0; i < NLIM; i++)
				SB_REQ_CASE(sb_limit_plan_in_use(lp, i, t) ==
					    used[i][t], round);
		}
		sb_limit_plan_destroy(lp);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("limit_plan");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_table);
	tcase_add_test(tc, test_over_and_never);
	tcase_add_test(tc, test_oracle);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
