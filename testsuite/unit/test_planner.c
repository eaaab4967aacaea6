/*
 * test_planner.c - sb_planner: Flux's scenarios with their numbers, our
 * own semantics, the edge cases of issue #25, overlap stress cases, and
 * a brute-force array timeline as the oracle for 10^5 random operations
 * (fixed seeds) with sb_planner_check() after every mutation.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner.h"
#include "sb_test.h"

static void _assert_fmt(const sb_planner_t *p, const char *want)
{
	char *s = sb_planner_fmt(p);

	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s, want);
	free(s);
}

static void _assert_earliest(const sb_planner_t *p, int64_t t, int64_t d,
			     int64_t n, int64_t want)
{
	int64_t at = -12345;
	int rc = sb_planner_earliest(p, t, d, n, &at);

	if (want < 0) {
		ck_assert_int_eq(rc, -1);
		ck_assert_int_eq(errno, ENOENT);
	} else {
		ck_assert_int_eq(rc, 0);
		ck_assert_int_eq(at, want);
	}
}

/* Flux planner_test01 basic_add_remove: planner (0, 10), total 1. */
START_TEST(test_flux_basic_add_remove)
{
	sb_planner_t *p = sb_planner_create(0, 10, 1);
	int64_t s1, s2, s3, s4, start;

	_assert_earliest(p, 0, 5, 1, 0);
	s1 = sb_planner_add_span(p, 0, 5, 1);
	ck_assert_int_eq(s1, 1);
	_assert_earliest(p, 0, 2, 1, 5);
	s2 = sb_planner_add_span(p, 5, 2, 1);
	_assert_earliest(p, 0, 2, 1, 7);
	s3 = sb_planner_add_span(p, 7, 2, 1);
	/* 9 + 2 > 10: nothing fits before the end of the horizon. */
	_assert_earliest(p, 0, 2, 1, -1);
	_assert_earliest(p, 0, 1, 1, 9);
	s4 = sb_planner_add_span(p, 9, 1, 1);
	ck_assert_int_gt(s4, 0);
	ck_assert_int_eq(sb_planner_check(p), 0);
	ck_assert_int_eq(sb_planner_span(p, s2, &start, NULL, NULL), 0);
	ck_assert_int_eq(start, 5);
	ck_assert_int_eq(sb_planner_rem_span(p, s2), 0);
	ck_assert_int_eq(sb_planner_rem_span(p, s3), 0);
	ck_assert_int_eq(sb_planner_check(p), 0);
	_assert_earliest(p, 0, 5, 1, -1);
	_assert_earliest(p, 0, 4, 1, 5);
	ck_assert_int_gt(sb_planner_add_span(p, 5, 4, 1), 0);
	ck_assert_int_eq(sb_planner_check(p), 0);
	_assert_fmt(p, "[0,5):0 [5,9):0 [9,10):0");
	/* A removed span's id is dead even after its slot is reused. */
	ck_assert_int_eq(sb_planner_rem_span(p, s2), -1);
	ck_assert_int_eq(errno, ENOENT);
	sb_planner_destroy(p);
}
END_TEST

/* Flux availability_checkers: total 10, horizon INT64_MAX. */
static sb_planner_t *_three_spans(void)
{
	sb_planner_t *p = sb_planner_create(0, INT64_MAX, 10);

	ck_assert_int_gt(sb_planner_add_span(p, 1, 1000, 5), 0);
	ck_assert_int_gt(sb_planner_add_span(p, 2000, 1001, 10), 0);
	ck_assert_int_gt(sb_planner_add_span(p, 10, 1990, 1), 0);
	ck_assert_int_eq(sb_planner_check(p), 0);
	return p;
}

START_TEST(test_flux_availability_checkers)
{
	sb_planner_t *p = _three_spans();

	ck_assert_int_eq(sb_planner_avail_at(p, 1), 5);
	ck_assert_int_eq(sb_planner_avail_at(p, 10), 4);
	ck_assert_int_eq(sb_planner_avail_at(p, 1500), 9);
	ck_assert_int_eq(sb_planner_avail_at(p, 2000), 0);
	ck_assert_int_eq(sb_planner_avail_at(p, 2500), 0);
	ck_assert_int_eq(sb_planner_avail_at(p, 3000), 0);
	ck_assert_int_eq(sb_planner_avail_at(p, 3001), 10);
	ck_assert_int_eq(sb_planner_avail_during(p, 0, 1001), 4);
	ck_assert_int_eq(sb_planner_avail_during(p, 2000, 1001), 0);
	ck_assert_int_eq(sb_planner_avail_during(p, 10, 1990), 4);
	ck_assert_int_eq(sb_planner_avail_during(p, 4, 3), 5);
	ck_assert_int_eq(sb_planner_avail_during(p, 20, 980), 4);
	ck_assert_int_eq(sb_planner_avail_during(p, 1001, 998), 9);
	ck_assert_int_eq(sb_planner_avail_during(p, 2500, 101), 0);
	ck_assert_int_eq(sb_planner_fits(p, 0, 3001, 1), 0);
	ck_assert_int_eq(sb_planner_fits(p, 3001, 2000, 10), 1);
	_assert_fmt(p, "[0,1):10 [1,10):5 [10,1001):4 [1001,2000):9 "
		    "[2000,3001):0 [3001,inf):10");

	/* Flux's time_first(0, 9, 5) and (0, 10, 9), then from later t. */
	_assert_earliest(p, 0, 9, 5, 0);
	_assert_earliest(p, 1, 9, 5, 1);
	/* [2, 11) meets 4 free at 10: the next point with 5 is 1001. */
	_assert_earliest(p, 2, 9, 5, 1001);
	_assert_earliest(p, 1002, 9, 5, 1002);
	_assert_earliest(p, 1995, 9, 5, 3001);
	_assert_earliest(p, 0, 10, 9, 1001);
	_assert_earliest(p, 1500, 1000, 9, 3001);
	_assert_earliest(p, 0, INT64_MAX - 3001, 10, 3001);
	sb_planner_destroy(p);
}
END_TEST

/* Flux add_and_iterator: total 10. */
START_TEST(test_flux_add_and_iterator)
{
	sb_planner_t *p = sb_planner_create(0, INT64_MAX, 10);

	_assert_earliest(p, 0, 4, 3, 0);
	ck_assert_int_gt(sb_planner_add_span(p, 0, 4, 3), 0);
	_assert_earliest(p, 0, 4, 3, 0);
	_assert_earliest(p, 1, 4, 3, 1);
	_assert_earliest(p, 0, 4, 8, 4);
	_assert_earliest(p, 0, 4, 10, 4);
	sb_planner_destroy(p);
}
END_TEST

/*
 * Flux on_or_after: total 3. Where Flux answers only change points, we
 * also answer t itself (see planner.h): the last two checks are ours.
 */
START_TEST(test_flux_on_or_after)
{
	sb_planner_t *p = sb_planner_create(0, INT64_MAX, 3);

	/* Flux: -1 (no change point at or after 100000 yet). Ours: t. */
	_assert_earliest(p, 100000, 100, 2, 100000);
	ck_assert_int_gt(sb_planner_add_span(p, 100000, 100, 2), 0);
	ck_assert_int_gt(sb_planner_add_span(p, 100100, 200, 2), 0);
	_assert_earliest(p, 100000, 200, 1, 100000);
	_assert_earliest(p, 100001, 200, 1, 100001);
	_assert_earliest(p, 0, 200, 1, 0);
	_assert_earliest(p, 99900, 200, 2, 100300);
	/* Ours: a non-point t that fits is the answer... */
	_assert_earliest(p, 100050, 10, 1, 100050);
	/* ...and one that does not fit jumps to the recovery point. */
	_assert_earliest(p, 100050, 10, 2, 100300);
	_assert_earliest(p, 99950, 100, 2, 100300);
	sb_planner_destroy(p);
}
END_TEST

/* Flux more_add_remove, total 100000: add all, remove all, re-add all. */
START_TEST(test_flux_more_add_remove)
{
	static const int64_t sp[6][3] = {
		{ 0, 600, 36 }, { 0, 57600, 3600 }, { 57600, 57600, 1800 },
		{ 115200, 57600, 1152 }, { 172800, 57600, 2304 },
		{ 115200, 900, 468 },
	};
	sb_planner_t *p = sb_planner_create(0, INT64_MAX, 100000);
	int64_t ids[6];
	char *before;

	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < 6; i++) {
			ids[i] = sb_planner_add_span(p, sp[i][0], sp[i][1],
						     sp[i][2]);
			ck_assert_int_gt(ids[i], 0);
			ck_assert_int_eq(sb_planner_check(p), 0);
		}
		before = sb_planner_fmt(p);
		ck_assert_str_eq(before, "[0,600):96364 [600,57600):96400 "
				 "[57600,115200):98200 [115200,116100):98380 "
				 "[116100,172800):98848 [172800,230400):97696 "
				 "[230400,inf):100000");
		free(before);
		for (int i = 0; i < 6; i++) {
			ck_assert_int_eq(sb_planner_rem_span(p, ids[i]), 0);
			ck_assert_int_eq(sb_planner_check(p), 0);
		}
		_assert_fmt(p, "[0,inf):100000");
		ck_assert_uint_eq(sb_planner_points(p), 1);
	}
	sb_planner_destroy(p);
}
END_TEST

/* Flux stress_fully_overlap: 100,000 spans (0, 4, 100) in 10,000,000. */
START_TEST(test_stress_fully_overlap)
{
	enum { N = 100000 };
	sb_planner_t *p = sb_planner_create(0, INT64_MAX, 10000000);
	int64_t at;

	for (int i = 0; i < N; i++) {
		ck_assert_int_eq(sb_planner_earliest(p, 0, 4, 100, &at), 0);
		ck_assert_int_eq(at, 0);
		ck_assert_int_gt(sb_planner_add_span(p, 0, 4, 100), 0);
	}
	ck_assert_int_eq(sb_planner_check(p), 0);
	ck_assert_uint_eq(sb_planner_points(p), 2);
	_assert_fmt(p, "[0,4):0 [4,inf):10000000");
	for (int i = 0; i < N; i++) {
		ck_assert_int_eq(sb_planner_earliest(p, 0, 4, 100, &at), 0);
		ck_assert_int_eq(at, 4);
	}
	ck_assert_int_eq(sb_planner_add_span(p, 0, 4, 1), -1);
	ck_assert_int_eq(errno, ENOSPC);
	sb_planner_destroy(p);
}
END_TEST

/*
 * Flux stress_4spans_overlap in our shape: 200,000 spans (i, 4, 100) with
 * total 400, so every instant from 3 on is covered by four spans and
 * fully used; the first fit for 100 x 4 from 0 is only after the last.
 */
START_TEST(test_stress_4spans_overlap)
{
	enum { N = 200000 };
	sb_planner_t *p = sb_planner_create(0, INT64_MAX, 400);
	int64_t at;

	for (int i = 0; i < N; i++)
		ck_assert_int_gt(sb_planner_add_span(p, i, 4, 100), 0);
	ck_assert_int_eq(sb_planner_check(p), 0);
	ck_assert_uint_eq(sb_planner_points(p), N + 4);
	ck_assert_int_eq(sb_planner_avail_at(p, 3), 0);
	ck_assert_int_eq(sb_planner_avail_at(p, N), 100);
	ck_assert_int_eq(sb_planner_earliest(p, 0, 4, 100, &at), 0);
	ck_assert_int_eq(at, N);
	ck_assert_int_eq(sb_planner_earliest(p, 0, 1, 100, &at), 0);
	ck_assert_int_eq(at, 0);
	/* Three, two, then one span still running after the last start. */
	ck_assert_int_eq(sb_planner_earliest(p, 3, 1, 300, &at), 0);
	ck_assert_int_eq(at, N + 2);
	sb_planner_destroy(p);
}
END_TEST

START_TEST(test_errors)
{
	sb_planner_t *p = sb_planner_create(100, 1000, 10);
	int64_t at, id;

	sb_planner_destroy(NULL);
	ck_assert_ptr_null(sb_planner_create(0, 0, 1));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(sb_planner_create(0, 10, -1));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_planner_end(p), 1100);
	ck_assert_int_eq(sb_planner_add_span(NULL, 100, 1, 1), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_planner_add_span(p, 99, 1, 1), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_planner_add_span(p, 100, 0, 1), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_planner_add_span(p, 100, 1001, 1), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_planner_add_span(p, 100, 1, -1), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_planner_add_span(p, 100, 1, 11), -1);
	ck_assert_int_eq(errno, ERANGE);
	ck_assert_int_eq(sb_planner_earliest(p, 0, 1, 11, &at), -1);
	ck_assert_int_eq(errno, ERANGE);
	ck_assert_int_eq(sb_planner_earliest(p, 0, 0, 1, &at), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_planner_earliest(p, 0, 1, 1, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_planner_avail_at(p, 1100), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_planner_avail_at(p, 99), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_planner_rem_span(p, 1), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sb_planner_rem_span(p, 0), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sb_planner_rem_span(NULL, 1), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_planner_span(p, 1, NULL, NULL, NULL), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sb_planner_span(NULL, 1, NULL, NULL, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_planner_check(NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(sb_planner_fmt(NULL));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_planner_base(NULL), 0);
	ck_assert_int_eq(sb_planner_end(NULL), 0);
	ck_assert_int_eq(sb_planner_total(NULL), 0);
	ck_assert_uint_eq(sb_planner_points(NULL), 0);
	ck_assert_uint_eq(sb_planner_spans(NULL), 0);
	ck_assert_int_eq(sb_planner_base(p), 100);
	ck_assert_int_eq(sb_planner_total(p), 10);
	/* A count above the total: ERANGE wherever a count is taken. */
	ck_assert_int_eq(sb_planner_fits(p, 100, 1, 11), -1);
	ck_assert_int_eq(errno, ERANGE);
	ck_assert_int_eq(sb_planner_fits(p, 100, 1, -1), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_planner_fits(p, 100, 1001, 1), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_planner_earliest(p, 0, 1, -1, &at), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_planner_earliest(NULL, 0, 1, 1, &at), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_planner_avail_during(p, 100, 0), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_planner_avail_during(p, 99, 2), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_planner_avail_during(p, 1000, 101), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_planner_avail_during(p, 1000, 100), 10);
	/* Nothing fits before the end of the horizon: ENOENT. */
	ck_assert_int_eq(sb_planner_earliest(p, 100, 1001, 1, &at), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sb_planner_earliest(p, 1100, 1, 0, &at), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sb_planner_check(p), 0);
	_assert_fmt(p, "[100,1100):10");
	/* t before base counts as base. */
	ck_assert_int_eq(sb_planner_earliest(p, -5, 10, 10, &at), 0);
	ck_assert_int_eq(at, 100);
	/* The whole horizon, then nothing fits and nothing changed. */
	id = sb_planner_add_span(p, 100, INT64_MAX - 5, 10);
	ck_assert_int_eq(id, -1);
	ck_assert_int_eq(errno, EINVAL);
	id = sb_planner_add_span(p, 100, 1000, 10);
	ck_assert_int_gt(id, 0);
	ck_assert_int_eq(sb_planner_earliest(p, 0, 1, 1, &at), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sb_planner_add_span(p, 500, 1, 1), -1);
	ck_assert_int_eq(errno, ENOSPC);
	_assert_fmt(p, "[100,1100):0");
	/* A point at end exists but is not a candidate nor shown. */
	ck_assert_uint_eq(sb_planner_points(p), 2);
	ck_assert_int_eq(sb_planner_check(p), 0);
	sb_planner_destroy(p);
}
END_TEST

/* Times next to INT64_MAX: windows clamp instead of wrapping. */
START_TEST(test_clamp)
{
	int64_t base = INT64_MAX - 100, at;
	sb_planner_t *p = sb_planner_create(base, INT64_MAX, 4);

	ck_assert_int_eq(sb_planner_end(p), INT64_MAX);
	ck_assert_int_gt(sb_planner_add_span(p, base + 50, INT64_MAX, 3), 0);
	ck_assert_int_eq(sb_planner_check(p), 0);
	ck_assert_int_eq(sb_planner_avail_at(p, INT64_MAX - 1), 1);
	ck_assert_int_eq(sb_planner_earliest(p, base, 60, 2, &at), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sb_planner_earliest(p, base, 50, 2, &at), 0);
	ck_assert_int_eq(at, base);
	ck_assert_int_eq(sb_planner_earliest(p, base + 1, INT64_MAX, 1, &at),
			 0);
	ck_assert_int_eq(at, base + 1);
	_assert_fmt(p, "[9223372036854775707,9223372036854775757):4 "
		    "[9223372036854775757,inf):1");
	sb_planner_destroy(p);
}
END_TEST

/*
 * A count of 0: allowed everywhere, always fits (even when nothing is
 * free), and a span of 0 only adds change points.
 */
START_TEST(test_zero_amount)
{
	sb_planner_t *p = sb_planner_create(0, 100, 5);
	sb_planner_t *z = sb_planner_create(0, 10, 0);
	int64_t id, full, c;

	id = sb_planner_add_span(p, 10, 20, 0);
	ck_assert_int_gt(id, 0);
	ck_assert_int_eq(sb_planner_check(p), 0);
	ck_assert_uint_eq(sb_planner_points(p), 3);
	_assert_fmt(p, "[0,10):5 [10,30):5 [30,100):5");
	ck_assert_int_eq(sb_planner_span(p, id, NULL, NULL, &c), 0);
	ck_assert_int_eq(c, 0);
	ck_assert_int_eq(sb_planner_avail_during(p, 0, 100), 5);
	ck_assert_int_eq(sb_planner_fits(p, 0, 100, 0), 1);
	_assert_earliest(p, 50, 10, 0, 50);
	_assert_earliest(p, 95, 10, 0, -1);
	full = sb_planner_add_span(p, 0, 100, 5);
	ck_assert_int_gt(full, 0);
	ck_assert_int_gt(sb_planner_add_span(p, 0, 100, 0), 0);
	ck_assert_int_eq(sb_planner_check(p), 0);
	ck_assert_int_eq(sb_planner_fits(p, 0, 100, 0), 1);
	ck_assert_int_eq(sb_planner_fits(p, 0, 1, 1), 0);
	_assert_earliest(p, 0, 100, 0, 0);
	_assert_earliest(p, 0, 1, 1, -1);
	ck_assert_int_eq(sb_planner_rem_span(p, id), 0);
	ck_assert_int_eq(sb_planner_check(p), 0);
	_assert_fmt(p, "[0,100):0");
	/* A planner of nothing: only 0 fits. */
	ck_assert_ptr_nonnull(z);
	ck_assert_int_gt(sb_planner_add_span(z, 0, 10, 0), 0);
	ck_assert_int_eq(sb_planner_add_span(z, 0, 10, 1), -1);
	ck_assert_int_eq(errno, ERANGE);
	_assert_earliest(z, 0, 10, 0, 0);
	ck_assert_int_eq(sb_planner_check(z), 0);
	sb_planner_destroy(p);
	sb_planner_destroy(z);
}
END_TEST

/*
 * Spans over the full horizon: a finite one (exactly [base, end)), and a
 * holder without an end on an unbounded planner (duration INT64_MAX, to
 * the end of the horizon).
 */
START_TEST(test_full_horizon)
{
	sb_planner_t *p = sb_planner_create(1000, 500, 3);
	sb_planner_t *q = sb_planner_create(0, INT64_MAX, 4);
	int64_t id, dur;

	id = sb_planner_add_span(p, 1000, 500, 3);
	ck_assert_int_gt(id, 0);
	ck_assert_int_eq(sb_planner_check(p), 0);
	_assert_fmt(p, "[1000,1500):0");
	ck_assert_uint_eq(sb_planner_points(p), 2);
	ck_assert_int_eq(sb_planner_avail_during(p, 1000, 500), 0);
	ck_assert_int_eq(sb_planner_avail_at(p, 1499), 0);
	_assert_earliest(p, 1000, 1, 1, -1);
	_assert_earliest(p, 0, 1, 0, 1000);
	ck_assert_int_eq(sb_planner_rem_span(p, id), 0);
	ck_assert_int_eq(sb_planner_check(p), 0);
	_assert_fmt(p, "[1000,1500):3");
	ck_assert_uint_eq(sb_planner_points(p), 1);
	/* One second too long, or "to infinity" on a finite horizon. */
	ck_assert_int_eq(sb_planner_add_span(p, 1000, 501, 1), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_planner_add_span(p, 1000, INT64_MAX, 1), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_planner_add_span(p, 1500, 1, 1), -1);
	ck_assert_int_eq(errno, EINVAL);
	_assert_fmt(p, "[1000,1500):3");

	/* A holder from 100 with no end: units never come back. */
	id = sb_planner_add_span(q, 100, INT64_MAX, 1);
	ck_assert_int_gt(id, 0);
	ck_assert_int_eq(sb_planner_check(q), 0);
	ck_assert_int_eq(sb_planner_span(q, id, NULL, &dur, NULL), 0);
	ck_assert_int_eq(dur, INT64_MAX - 100);
	_assert_fmt(q, "[0,100):4 [100,inf):3");
	_assert_earliest(q, 0, 100, 4, 0);
	_assert_earliest(q, 0, 101, 4, -1);
	_assert_earliest(q, 50, 100, 4, -1);
	_assert_earliest(q, 0, INT64_MAX, 3, 0);
	_assert_earliest(q, 7, INT64_MAX, 3, 7);
	ck_assert_int_gt(sb_planner_add_span(q, 0, INT64_MAX, 3), 0);
	ck_assert_int_eq(sb_planner_check(q), 0);
	_assert_fmt(q, "[0,100):1 [100,inf):0");
	ck_assert_int_eq(sb_planner_avail_at(q, INT64_MAX - 1), 0);
	ck_assert_int_eq(sb_planner_avail_during(q, 0, INT64_MAX), 0);
	_assert_earliest(q, 0, 1, 1, 0);
	_assert_earliest(q, 0, 101, 1, -1);
	sb_planner_destroy(p);
	sb_planner_destroy(q);
}
END_TEST

/* Identical spans share their two points; each is its own span. */
START_TEST(test_identical_spans)
{
	enum { N = 5 };
	sb_planner_t *p = sb_planner_create(0, 100, 10);
	int64_t ids[N];

	for (int i = 0; i < N; i++) {
		ids[i] = sb_planner_add_span(p, 10, 20, 2);
		ck_assert_int_gt(ids[i], 0);
		for (int j = 0; j < i; j++)
			ck_assert_int_ne(ids[i], ids[j]);
		ck_assert_int_eq(sb_planner_check(p), 0);
	}
	ck_assert_uint_eq(sb_planner_points(p), 3);
	ck_assert_uint_eq(sb_planner_spans(p), N);
	_assert_fmt(p, "[0,10):10 [10,30):0 [30,100):10");
	ck_assert_int_eq(sb_planner_add_span(p, 10, 20, 2), -1);
	ck_assert_int_eq(errno, ENOSPC);
	ck_assert_int_eq(sb_planner_add_span(p, 29, 1, 1), -1);
	ck_assert_int_eq(errno, ENOSPC);
	_assert_earliest(p, 0, 11, 1, 30);
	_assert_earliest(p, 0, 10, 10, 0);
	ck_assert_int_eq(sb_planner_rem_span(p, ids[2]), 0);
	ck_assert_int_eq(sb_planner_check(p), 0);
	_assert_fmt(p, "[0,10):10 [10,30):2 [30,100):10");
	_assert_earliest(p, 5, 20, 2, 5);
	_assert_earliest(p, 5, 20, 3, 30);
	/* Removing it again, or an id never given: ENOENT, no change. */
	ck_assert_int_eq(sb_planner_rem_span(p, ids[2]), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sb_planner_rem_span(p, ids[4] + 1), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sb_planner_rem_span(p, -7), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sb_planner_rem_span(p, INT64_MAX), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sb_planner_check(p), 0);
	for (int i = 0; i < N; i++)
		if (i != 2)
			ck_assert_int_eq(sb_planner_rem_span(p, ids[i]), 0);
	ck_assert_int_eq(sb_planner_check(p), 0);
	ck_assert_uint_eq(sb_planner_points(p), 1);
	ck_assert_uint_eq(sb_planner_spans(p), 0);
	_assert_fmt(p, "[0,100):10");
	sb_planner_destroy(p);
}
END_TEST

/*
 * The use of issue #25: Licenses=lic:8 at now = 1000, holders until their
 * ends (one without a time limit, to the end of the horizon), then the
 * pending jobs in priority order, each planned at its earliest start.
 */
START_TEST(test_holders_and_queue)
{
	sb_planner_t *p = sb_planner_create(1000, INT64_MAX, 8);
	int64_t h1, at, j1;

	h1 = sb_planner_add_span(p, 1000, 600, 3);
	ck_assert_int_gt(h1, 0);
	ck_assert_int_gt(sb_planner_add_span(p, 1000, 1200, 2), 0);
	ck_assert_int_gt(sb_planner_add_span(p, 1000, INT64_MAX, 1), 0);
	ck_assert_int_eq(sb_planner_check(p), 0);
	ck_assert_int_eq(sb_planner_avail_at(p, 1000), 2);
	/* First in the queue: 4 for 300 s, when the first holder ends. */
	ck_assert_int_eq(sb_planner_earliest(p, 1000, 300, 4, &at), 0);
	ck_assert_int_eq(at, 1600);
	j1 = sb_planner_add_span(p, at, 300, 4);
	ck_assert_int_gt(j1, 0);
	ck_assert_int_eq(sb_planner_check(p), 0);
	_assert_fmt(p, "[1000,1600):2 [1600,1900):1 [1900,2200):5 "
		    "[2200,inf):7");
	/* Second: 6 for 100 s, after the second holder. */
	_assert_earliest(p, 1000, 100, 6, 2200);
	ck_assert_int_eq(sb_planner_fits(p, 1900, 100, 6), 0);
	ck_assert_int_eq(sb_planner_fits(p, 1900, 100, 5), 1);
	/* All 8: never, the holder without an end keeps one. */
	_assert_earliest(p, 1000, 1, 8, -1);
	_assert_earliest(p, 1000, INT64_MAX, 7, 2200);
	/* The first holder ends early: the plan is redone from now. */
	ck_assert_int_eq(sb_planner_rem_span(p, h1), 0);
	ck_assert_int_eq(sb_planner_rem_span(p, j1), 0);
	ck_assert_int_eq(sb_planner_check(p), 0);
	_assert_earliest(p, 1000, 300, 4, 1000);
	sb_planner_destroy(p);
}
END_TEST

/*
 * The oracle: an array over the horizon [base, base + H) with the free
 * units at each instant and the number of span boundaries at each time.
 */
#define H_MAX 48
#define SPANS_MAX 4096

struct ospan {
	int64_t id, start, end, count;
};

struct oracle {
	int64_t base, end, total;
	int h;
	int64_t freeu[H_MAX];
	int refs[H_MAX + 1];
	struct ospan spans[SPANS_MAX];
	int nspans;
};

static bool _o_point(const struct oracle *o, int i)
{
	return i == 0 || o->refs[i] > 0;
}

static int64_t _o_min(const struct oracle *o, int64_t s, int64_t e)
{
	int64_t m = INT64_MAX;

	for (int64_t t = s; t < e; t++)
		if (o->freeu[t - o->base] < m)
			m = o->freeu[t - o->base];
	return m;
}

/* "Nothing fits": never an answer, since answers are < end. */
#define NONE INT64_MAX

/* Oracle earliest fit: candidates c0, then the points after c0. */
static int64_t _o_scan(const struct oracle *o, int64_t c0, int64_t d,
		       int64_t n)
{
	for (int i = 0; i < o->h; i++) {
		int64_t c = o->base + i, e;

		if (c < c0 || (c > c0 && !_o_point(o, i)))
			continue;
		e = sb_time_add(c, d);
		if (e > o->end)
			return NONE;
		if (_o_min(o, c, e) >= n)
			return c;
	}
	return NONE;
}

static char *_o_fmt(const struct oracle *o)
{
	static char buf[8192];
	size_t len = 0;
	int prev = 0;

	buf[0] = 0;
	for (int i = 1; i <= o->h; i++) {
		char b[24];

		if (i < o->h && !_o_point(o, i))
			continue;
		if (o->base + i == INT64_MAX)
			snprintf(b, sizeof(b), "inf");
		else
			snprintf(b, sizeof(b), "%lld",
				 (long long) (o->base + i));
		len += snprintf(buf + len, sizeof(buf) - len,
				"%s[%lld,%s):%lld", len ? " " : "",
				(long long) (o->base + prev), b,
				(long long) o->freeu[prev]);
		prev = i;
	}
	return buf;
}

/* base - 2 .. base + h + 1, clamped to int64_t (bases sit at its ends). */
static int64_t _rand_time(sb_test_rng_t *r, const struct oracle *o)
{
	int64_t off = sb_test_rng_range(r, -2, o->h + 1);

	if (off >= 0)
		return sb_time_add(o->base, off);
	return o->base < INT64_MIN - off ? INT64_MIN : o->base + off;
}

static int64_t _rand_dur(sb_test_rng_t *r, const struct oracle *o)
{
	switch (sb_test_rng_below(r, 16)) {
	case 0:
		return INT64_MAX;
	case 1:
		return sb_test_rng_range(r, -1, 0);
	case 2:
		return sb_test_rng_range(r, o->h - 2, o->h + 2);
	default:
		return sb_test_rng_range(r, 1, o->h / 3);
	}
}

static int64_t _rand_count(sb_test_rng_t *r, const struct oracle *o)
{
	if (!sb_test_rng_below(r, 32))
		return sb_test_rng_below(r, 2) ? -1 : o->total + 1;
	return sb_test_rng_range(r, 0, o->total);
}

static void _expect(int rc, int64_t got, int64_t want)
{
	if (want == NONE) {
		ck_assert_int_eq(rc, -1);
		ck_assert_int_eq(errno, ENOENT);
	} else {
		ck_assert_int_eq(rc, 0);
		ck_assert_int_eq(got, want);
	}
}

static void _op_add(sb_planner_t *p, struct oracle *o, sb_test_rng_t *r)
{
	int64_t s = _rand_time(r, o), d = _rand_dur(r, o);
	int64_t n = _rand_count(r, o), e = 0, id;
	int want_errno = 0;

	if (d < 1 || n < 0 || s < o->base || s >= o->end ||
	    (e = sb_time_add(s, d)) > o->end)
		want_errno = EINVAL;
	else if (n > o->total)
		want_errno = ERANGE;
	else if (_o_min(o, s, e) < n)
		want_errno = ENOSPC;
	else if (o->nspans == SPANS_MAX)
		return;
	id = sb_planner_add_span(p, s, d, n);
	if (want_errno) {
		ck_assert_int_eq(id, -1);
		ck_assert_int_eq(errno, want_errno);
		return;
	}
	ck_assert_int_gt(id, 0);
	for (int64_t t = s; t < e; t++)
		o->freeu[t - o->base] -= n;
	o->refs[s - o->base]++;
	o->refs[e - o->base]++;
	o->spans[o->nspans++] = (struct ospan) { id, s, e, n };
}

static void _op_rem(sb_planner_t *p, struct oracle *o, sb_test_rng_t *r)
{
	struct ospan sp;
	int k;

	if (!o->nspans || !sb_test_rng_below(r, 16)) {
		/* A bogus id: nothing changes. */
		ck_assert_int_eq(sb_planner_rem_span(p, (int64_t)
				sb_test_rng_range(r, -1, 1 << 20) << 1 | 1
				<< 30), -1);
		ck_assert_int_eq(errno, ENOENT);
		return;
	}
	k = (int) sb_test_rng_below(r, (uint64_t) o->nspans);
	sp = o->spans[k];
	ck_assert_int_eq(sb_planner_rem_span(p, sp.id), 0);
	for (int64_t t = sp.start; t < sp.end; t++)
		o->freeu[t - o->base] += sp.count;
	o->refs[sp.start - o->base]--;
	o->refs[sp.end - o->base]--;
	o->spans[k] = o->spans[--o->nspans];
	ck_assert_int_eq(sb_planner_rem_span(p, sp.id), -1);
	ck_assert_int_eq(errno, ENOENT);
}

static void _op_query(const sb_planner_t *p, const struct oracle *o,
		      sb_test_rng_t *r)
{
	int64_t t = _rand_time(r, o), d = _rand_dur(r, o);
	int64_t n = _rand_count(r, o), at = 0, e = 0, want;
	bool window = d >= 1 && t >= o->base && t < o->end &&
		(e = sb_time_add(t, d)) <= o->end;
	int rc;

	switch (sb_test_rng_below(r, 4)) {
	case 0:
		if (t < o->base || t >= o->end) {
			ck_assert_int_eq(sb_planner_avail_at(p, t), -1);
			ck_assert_int_eq(errno, EINVAL);
		} else {
			ck_assert_int_eq(sb_planner_avail_at(p, t),
					 o->freeu[t - o->base]);
		}
		break;
	case 1:
		if (!window) {
			ck_assert_int_eq(sb_planner_avail_during(p, t, d), -1);
			ck_assert_int_eq(errno, EINVAL);
		} else {
			ck_assert_int_eq(sb_planner_avail_during(p, t, d),
					 _o_min(o, t, e));
		}
		rc = sb_planner_fits(p, t, d, n);
		if (!window || n < 0) {
			ck_assert_int_eq(rc, -1);
			ck_assert_int_eq(errno, EINVAL);
		} else if (n > o->total) {
			ck_assert_int_eq(rc, -1);
			ck_assert_int_eq(errno, ERANGE);
		} else {
			ck_assert_int_eq(rc, _o_min(o, t, e) >= n);
		}
		break;
	default:
		rc = sb_planner_earliest(p, t, d, n, &at);
		if (d < 1 || n < 0) {
			ck_assert_int_eq(rc, -1);
			ck_assert_int_eq(errno, EINVAL);
		} else if (n > o->total) {
			ck_assert_int_eq(rc, -1);
			ck_assert_int_eq(errno, ERANGE);
		} else {
			want = _o_scan(o, t < o->base ? o->base : t, d, n);
			_expect(rc, at, want);
		}
		break;
	}
}

static void _random_run(int64_t base, int h, int64_t total, uint64_t seed,
			long ops)
{
	/* base + h may be INT64_MAX: ask for more and let it clamp. */
	int64_t horizon = base > INT64_MAX - 2 * h ? INT64_MAX : h;
	sb_planner_t *p = sb_planner_create(base, horizon, total);
	struct oracle *o = calloc(1, sizeof(*o));
	sb_test_rng_t r;
	char *s;

	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(o);
	o->base = base;
	o->h = h;
	o->end = base + h;
	o->total = total;
	ck_assert_int_eq(sb_planner_end(p), o->end);
	for (int i = 0; i < h; i++)
		o->freeu[i] = total;
	sb_test_rng_seed(&r, seed);
	for (long k = 0; k < ops; k++) {
		/* Removals win when there are many spans, to keep it small. */
		uint64_t x = sb_test_rng_below(&r, 10);

		if (x < 2 || (x < 4 && o->nspans < 24)) {
			_op_add(p, o, &r);
			ck_assert_int_eq(sb_planner_check(p), 0);
		} else if (x < 4) {
			_op_rem(p, o, &r);
			ck_assert_int_eq(sb_planner_check(p), 0);
		} else {
			_op_query(p, o, &r);
		}
		if (k % 4096 == 0) {
			ck_assert_ptr_nonnull(s = sb_planner_fmt(p));
			ck_assert_str_eq(s, _o_fmt(o));
			free(s);
			ck_assert_uint_eq(sb_planner_spans(p),
					  (size_t) o->nspans);
		}
	}
	sb_planner_destroy(p);
	free(o);
}

/* Issue #25's run: 10^5 operations, the checker after each mutation. */
START_TEST(test_random_small)
{
	_random_run(0, 40, 8, 11, 100000);
}
END_TEST

START_TEST(test_random_tight)
{
	/* Few units: most requests block, many blocking intervals. */
	_random_run(-1000, 33, 3, 12, 100000);
}
END_TEST

START_TEST(test_random_extremes)
{
	_random_run(INT64_MAX - 40, 40, 5, 13, 50000);
	_random_run(INT64_MIN, 24, 6, 14, 50000);
}
END_TEST

static Suite *_suite(void)
{
	Suite *s = suite_create("planner");
	TCase *flux = tcase_create("flux");
	TCase *edge = tcase_create("edge");
	TCase *rnd = tcase_create("random");

	tcase_add_test(flux, test_flux_basic_add_remove);
	tcase_add_test(flux, test_flux_availability_checkers);
	tcase_add_test(flux, test_flux_add_and_iterator);
	tcase_add_test(flux, test_flux_on_or_after);
	tcase_add_test(flux, test_flux_more_add_remove);
	tcase_add_test(flux, test_stress_fully_overlap);
	tcase_add_test(flux, test_stress_4spans_overlap);
	tcase_set_timeout(flux, 60);
	tcase_add_test(edge, test_errors);
	tcase_add_test(edge, test_clamp);
	tcase_add_test(edge, test_zero_amount);
	tcase_add_test(edge, test_full_horizon);
	tcase_add_test(edge, test_identical_spans);
	tcase_add_test(edge, test_holders_and_queue);
	tcase_set_timeout(edge, 60);
	tcase_add_test(rnd, test_random_small);
	tcase_add_test(rnd, test_random_tight);
	tcase_add_test(rnd, test_random_extremes);
	tcase_set_timeout(rnd, 120);
	suite_add_tcase(s, flux);
	suite_add_tcase(s, edge);
	suite_add_tcase(s, rnd);
	return s;
}

int main(void)
{
	return sb_test_run(_suite());
}
