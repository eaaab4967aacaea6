/*
 * test_planner.c - sb_planner and sb_planner_multi: Flux's scenarios with
 * their numbers, our own semantics, a brute-force array timeline as the
 * oracle for over a million random operations, and overlap stress cases.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * SB_TEST_OPS=<n> overrides the number of random operations per
 * configuration (valgrind runs use a small one).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner.h"
#include "planner_multi.h"
#include "sb_test.h"

static long _ops(long dflt)
{
	const char *s = getenv("SB_TEST_OPS");

	return s && atol(s) > 0 ? atol(s) : dflt;
}

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

static void _assert_next(const sb_planner_t *p, int64_t prev, int64_t d,
			 int64_t n, int64_t want)
{
	int64_t at = -12345;
	int rc = sb_planner_next_fit(p, prev, d, n, &at);

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

	/* time_first(0, 9, 5) -> 0, next 1, 1001, 3001, then none. */
	_assert_earliest(p, 0, 9, 5, 0);
	_assert_next(p, 0, 9, 5, 1);
	_assert_next(p, 1, 9, 5, 1001);
	_assert_next(p, 1001, 9, 5, 3001);
	_assert_next(p, 3001, 9, 5, -1);
	/* time_first(0, 10, 9) -> 1001, 3001, none. */
	_assert_earliest(p, 0, 10, 9, 1001);
	_assert_next(p, 1001, 10, 9, 3001);
	_assert_next(p, 3001, 10, 9, -1);
	sb_planner_destroy(p);
}
END_TEST

/* Flux add_and_iterator: total 10. */
START_TEST(test_flux_add_and_iterator)
{
	sb_planner_t *p = sb_planner_create(0, INT64_MAX, 10);

	_assert_earliest(p, 0, 4, 3, 0);
	_assert_next(p, 0, 4, 3, -1);
	ck_assert_int_gt(sb_planner_add_span(p, 0, 4, 3), 0);
	_assert_earliest(p, 0, 4, 3, 0);
	_assert_next(p, 0, 4, 3, 4);
	_assert_next(p, 4, 4, 3, -1);
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
	_assert_next(p, 100000, 200, 1, 100100);
	_assert_next(p, 100100, 200, 1, 100300);
	_assert_earliest(p, 0, 200, 1, 0);
	_assert_next(p, 0, 200, 1, 100000);
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
	ck_assert_int_eq(sb_planner_check(NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
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
	ck_assert_int_eq(sb_planner_next_point(p, 100, &at), -1);
	ck_assert_int_eq(errno, ENOENT);
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

/* Oracle scan: candidates c0 (if any) then points after c0. */
static int64_t _o_scan(const struct oracle *o, int64_t c0, bool c0_ok,
		       int64_t d, int64_t n)
{
	for (int i = 0; i < o->h; i++) {
		int64_t c = o->base + i, e;

		if (c < c0 || (c == c0 && !c0_ok) ||
		    (c > c0 && !_o_point(o, i)))
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
	int64_t n = sb_test_rng_range(r, 0, o->total), at = 0, e, want;
	int rc;

	switch (sb_test_rng_below(r, 8)) {
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
		if (d < 1 || t < o->base || t >= o->end ||
		    (e = sb_time_add(t, d)) > o->end) {
			ck_assert_int_eq(sb_planner_avail_during(p, t, d), -1);
			ck_assert_int_eq(errno, EINVAL);
			ck_assert_int_eq(sb_planner_fits(p, t, d, n), -1);
			ck_assert_int_eq(errno, EINVAL);
		} else {
			ck_assert_int_eq(sb_planner_avail_during(p, t, d),
					 _o_min(o, t, e));
			ck_assert_int_eq(sb_planner_fits(p, t, d, n),
					 _o_min(o, t, e) >= n);
		}
		break;
	case 2:
	case 3:
	case 4:
		if (d < 1)
			d = 1;
		rc = sb_planner_earliest(p, t, d, n, &at);
		want = _o_scan(o, t < o->base ? o->base : t, true, d, n);
		_expect(rc, at, want);
		if (want == NONE)
			break;
		/* Walk the following candidates as Flux's next would. */
		for (int k = 0; k < 3 && want != NONE; k++) {
			int64_t prev = want;

			rc = sb_planner_next_fit(p, prev, d, n, &at);
			want = _o_scan(o, prev, false, d, n);
			_expect(rc, at, want);
		}
		break;
	case 5: {
		int64_t c = t < o->base ? o->base : t;

		rc = sb_planner_shortage(p, t, n, &at);
		want = NONE;
		for (; c < o->end; c++)
			if (o->freeu[c - o->base] < n) {
				want = c;
				break;
			}
		_expect(rc, at, want);
		break;
	}
	case 6:
		rc = sb_planner_recovery(p, t, n, &at);
		want = NONE;
		for (int i = 0; i < o->h; i++)
			if (o->base + i > t && _o_point(o, i) &&
			    o->freeu[i] >= n) {
				want = o->base + i;
				break;
			}
		_expect(rc, at, want);
		break;
	default:
		rc = sb_planner_next_point(p, t, &at);
		want = NONE;
		for (int i = 0; i < o->h; i++)
			if (o->base + i > t && _o_point(o, i)) {
				want = o->base + i;
				break;
			}
		_expect(rc, at, want);
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

START_TEST(test_random_small)
{
	_random_run(0, 40, 8, 11, _ops(400000));
}
END_TEST

START_TEST(test_random_tight)
{
	/* Few units: most requests block, many blocking intervals. */
	_random_run(-1000, 33, 3, 12, _ops(300000));
}
END_TEST

START_TEST(test_random_extremes)
{
	_random_run(INT64_MAX - 40, 40, 5, 13, _ops(200000));
	_random_run(INT64_MIN, 24, 6, 14, _ops(100000));
}
END_TEST

/* Flux planner_test02 multi basics: totals {10,20,30,20,100}. */
START_TEST(test_flux_multi_basics)
{
	static const int64_t totals[] = { 10, 20, 30, 20, 100 };
	static const int64_t c1[] = { 1, 2, 3, 2, 10 };
	static const int64_t c5[] = { 5, 10, 15, 10, 50 };
	static const int64_t only_c[] = { 0, 0, 15, 0, 0 };
	static const int64_t many_e[] = { 1, 1, 1, 1, 50 };
	sb_planner_multi_t *m = sb_planner_multi_create(0, INT64_MAX, totals,
							5);
	int64_t av[5], at;
	char *s;

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(sb_planner_multi_fits(m, 0, 1, totals), 1);
	ck_assert_int_eq(sb_planner_multi_fits(m, 1, 1000, c5), 1);
	ck_assert_int_gt(sb_planner_multi_add_span(m, 1, 1000, c5), 0);
	ck_assert_int_gt(sb_planner_multi_add_span(m, 2000, 1001, totals), 0);
	ck_assert_int_eq(sb_planner_multi_fits(m, 10, 2991, c1), 0);
	ck_assert_int_eq(sb_planner_multi_add_span(m, 10, 2991, c1), -1);
	ck_assert_int_eq(errno, ENOSPC);
	ck_assert_int_eq(sb_planner_multi_fits(m, 10, 1990, c1), 1);
	ck_assert_int_gt(sb_planner_multi_add_span(m, 10, 1990, c1), 0);
	ck_assert_int_eq(sb_planner_multi_check(m), 0);

	ck_assert_int_eq(sb_planner_multi_avail_at(m, 1, 0), 5);
	ck_assert_int_eq(sb_planner_multi_avail_at(m, 10, 1), 8);
	ck_assert_int_eq(sb_planner_multi_avail_at(m, 500, 2), 12);
	ck_assert_int_eq(sb_planner_multi_avail_at(m, 1500, 0), 9);
	ck_assert_int_eq(sb_planner_multi_avail_at(m, 2000, 0), 0);
	ck_assert_int_eq(sb_planner_multi_avail_at(m, 2500, 0), 0);
	ck_assert_int_eq(sb_planner_multi_avail_at(m, 3000, 4), 0);
	ck_assert_int_eq(sb_planner_multi_avail_at(m, 3001, 2), 30);
	ck_assert_int_eq(sb_planner_multi_avail_during(m, 0, 1001, av), 0);
	ck_assert_int_eq(av[0], 4);
	ck_assert_int_eq(av[4], 40);

	ck_assert_int_eq(sb_planner_multi_earliest(m, 0, 9, only_c, &at), 0);
	ck_assert_int_eq(at, 0);
	ck_assert_int_eq(sb_planner_multi_next_fit(m, at, 9, only_c, &at), 0);
	ck_assert_int_eq(at, 1);
	ck_assert_int_eq(sb_planner_multi_next_fit(m, at, 9, only_c, &at), 0);
	ck_assert_int_eq(at, 1001);
	ck_assert_int_eq(sb_planner_multi_next_fit(m, at, 9, only_c, &at), 0);
	ck_assert_int_eq(at, 3001);
	ck_assert_int_eq(sb_planner_multi_next_fit(m, at, 9, only_c, &at), -1);
	ck_assert_int_eq(errno, ENOENT);

	ck_assert_int_eq(sb_planner_multi_earliest(m, 0, 10, many_e, &at), 0);
	ck_assert_int_eq(at, 0);
	ck_assert_int_eq(sb_planner_multi_next_fit(m, at, 10, many_e, &at), 0);
	ck_assert_int_eq(at, 1001);
	ck_assert_int_eq(sb_planner_multi_next_fit(m, at, 10, many_e, &at), 0);
	ck_assert_int_eq(at, 3001);
	ck_assert_int_eq(sb_planner_multi_next_fit(m, at, 10, many_e, &at), -1);
	ck_assert_int_eq(errno, ENOENT);

	s = sb_planner_multi_fmt(m);
	ck_assert_str_eq(s, "[0,1):10,20,30,20,100 [1,10):5,10,15,10,50 "
			 "[10,1001):4,8,12,8,40 [1001,2000):9,18,27,18,90 "
			 "[2000,3001):0,0,0,0,0 [3001,inf):10,20,30,20,100");
	free(s);
	sb_planner_multi_destroy(m);
}
END_TEST

static void _multi_expect_seq(const sb_planner_multi_t *m, int64_t t,
			      int64_t d, const int64_t *req,
			      const int64_t *want, int nwant)
{
	int64_t at;

	ck_assert_int_eq(sb_planner_multi_earliest(m, t, d, req, &at), 0);
	ck_assert_int_eq(at, want[0]);
	for (int i = 1; i < nwant; i++) {
		ck_assert_int_eq(sb_planner_multi_next_fit(m, at, d, req, &at),
				 0);
		ck_assert_int_eq(at, want[i]);
	}
	ck_assert_int_eq(sb_planner_multi_next_fit(m, at, d, req, &at), -1);
	ck_assert_int_eq(errno, ENOENT);
}

/* Flux planner_test02 strictly_larger: totals {10,20,30,40,50}. */
START_TEST(test_flux_multi_strictly_larger)
{
	static const int64_t totals[] = { 10, 20, 30, 40, 50 };
	static const int64_t ra[] = { 10, 20, 30, 40, 45 };
	static const int64_t rb[] = { 0, 0, 0, 30, 40 };
	static const int64_t rc[] = { 10, 18, 30, 30, 30 };
	static const int64_t wa[] = { 4000, 5000 };
	static const int64_t wb[] = { 0, 1000, 2000, 3000, 4000, 5000 };
	static const int64_t wb3500[] = { 3500, 4000, 5000 };
	static const int64_t wc[] = { 3000, 4000, 5000 };
	sb_planner_multi_t *m = sb_planner_multi_create(0, INT64_MAX, totals,
							5);
	char *s;

	for (int k = 0; k < 5; k++) {
		int64_t req[5] = { 0, 0, 0, 0, 0 };

		req[k] = k + 1;
		ck_assert_int_gt(sb_planner_multi_add_span(m, 0,
					(k + 1) * 1000, req), 0);
		ck_assert_int_eq(sb_planner_multi_check(m), 0);
	}
	s = sb_planner_multi_fmt(m);
	ck_assert_str_eq(s, "[0,1000):9,18,27,36,45 "
			 "[1000,2000):10,18,27,36,45 "
			 "[2000,3000):10,20,27,36,45 "
			 "[3000,4000):10,20,30,36,45 "
			 "[4000,5000):10,20,30,40,45 "
			 "[5000,inf):10,20,30,40,50");
	free(s);
	_multi_expect_seq(m, 0, 1000, ra, wa, 2);
	_multi_expect_seq(m, 0, 1000, rb, wb, 6);
	/* Flux answers 4000 here (change points only); we answer t. */
	_multi_expect_seq(m, 3500, 1000, rb, wb3500, 3);
	_multi_expect_seq(m, 0, 1000, rc, wc, 3);
	sb_planner_multi_destroy(m);
}
END_TEST

START_TEST(test_multi_errors)
{
	static const int64_t totals[] = { 4, 8 };
	static const int64_t big[] = { 5, 0 };
	static const int64_t neg[] = { 1, -1 };
	static const int64_t all[] = { 4, 8 };
	static const int64_t one[] = { 0, 1 };
	sb_planner_multi_t *m = sb_planner_multi_create(0, 100, totals, 2);
	int64_t at, id;

	sb_planner_multi_destroy(NULL);
	ck_assert_ptr_null(sb_planner_multi_create(0, 100, totals, 0));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_planner_multi_earliest(m, 0, 1, big, &at), -1);
	ck_assert_int_eq(errno, ERANGE);
	ck_assert_int_eq(sb_planner_multi_add_span(m, 0, 1, big), -1);
	ck_assert_int_eq(errno, ERANGE);
	ck_assert_int_eq(sb_planner_multi_add_span(m, 0, 1, neg), -1);
	ck_assert_int_eq(errno, EINVAL);
	id = sb_planner_multi_add_span(m, 0, 100, all);
	ck_assert_int_gt(id, 0);
	ck_assert_int_eq(sb_planner_multi_earliest(m, 0, 1, neg, &at), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_planner_multi_earliest(m, 0, 1, one, &at), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sb_planner_multi_rem_span(m, id), 0);
	ck_assert_int_eq(sb_planner_multi_rem_span(m, id), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sb_planner_multi_check(m), 0);
	ck_assert_uint_eq(sb_planner_multi_size(m), 2);
	ck_assert_ptr_nonnull(sb_planner_multi_planner(m, 1));
	ck_assert_ptr_null(sb_planner_multi_planner(m, 2));
	sb_planner_multi_destroy(m);
}
END_TEST

/*
 * Multi against a brute force: k = 3 types over a small horizon, each
 * type's free units kept in an array; earliest and next_fit must match a
 * scan of {t} + the union of change points.
 */
START_TEST(test_multi_random)
{
	enum { KT = 3, H = 32, MAXS = 64 };
	static const int64_t totals[KT] = { 3, 5, 2 };
	sb_planner_multi_t *m = sb_planner_multi_create(0, H, totals, KT);
	int64_t freeu[KT][H], ids[MAXS], st[MAXS], en[MAXS], cnt[MAXS][KT];
	int ns = 0;
	long ops = _ops(200000) / 2;
	sb_test_rng_t r;

	for (int k = 0; k < KT; k++)
		for (int t = 0; t < H; t++)
			freeu[k][t] = totals[k];
	sb_test_rng_seed(&r, 21);
	for (long op = 0; op < ops; op++) {
		int64_t s = sb_test_rng_range(&r, 0, H - 1);
		int64_t d = sb_test_rng_range(&r, 1, H / 3), req[KT], at, want;
		int64_t e = s + d;
		uint64_t x = sb_test_rng_below(&r, 4);

		for (int k = 0; k < KT; k++)
			req[k] = sb_test_rng_range(&r, 0, totals[k]);
		if (x == 0 && ns < MAXS) {
			bool ok = e <= H;
			int64_t id;

			for (int k = 0; ok && k < KT; k++)
				for (int64_t t = s; t < e; t++)
					if (freeu[k][t] < req[k])
						ok = false;
			id = sb_planner_multi_add_span(m, s, d, req);
			ck_assert_int_eq(id > 0, ok);
			if (ok) {
				for (int k = 0; k < KT; k++) {
					for (int64_t t = s; t < e; t++)
						freeu[k][t] -= req[k];
					cnt[ns][k] = req[k];
				}
				ids[ns] = id;
				st[ns] = s;
				en[ns] = e;
				ns++;
			}
			ck_assert_int_eq(sb_planner_multi_check(m), 0);
		} else if (x == 1 && ns) {
			int i = (int) sb_test_rng_below(&r, (uint64_t) ns);

			ck_assert_int_eq(sb_planner_multi_rem_span(m, ids[i]),
					 0);
			for (int k = 0; k < KT; k++)
				for (int64_t t = st[i]; t < en[i]; t++)
					freeu[k][t] += cnt[i][k];
			ns--;
			ids[i] = ids[ns];
			st[i] = st[ns];
			en[i] = en[ns];
			memcpy(cnt[i], cnt[ns], sizeof(cnt[i]));
			ck_assert_int_eq(sb_planner_multi_check(m), 0);
		} else {
			bool first = x == 2;

			want = NONE;
			for (int64_t c = first ? s : s + 1; c < H; c++) {
				bool ok = c + d <= H;
				bool point = c == 0;

				/*
				 * A change point of the multi planner: a
				 * boundary of a span with a non-zero count
				 * in some type.
				 */
				for (int i = 0; i < ns && !point; i++) {
					bool nz = false;

					for (int k = 0; k < KT; k++)
						nz |= cnt[i][k] > 0;
					point = nz &&
						(st[i] == c || en[i] == c);
				}
				if (!(first && c == s) && !point)
					continue;
				for (int k = 0; ok && k < KT; k++)
					for (int64_t t = c; t < c + d; t++)
						if (freeu[k][t] < req[k])
							ok = false;
				if (!ok && c + d > H)
					break;
				if (ok) {
					want = c;
					break;
				}
			}
			int rc = first ?
				sb_planner_multi_earliest(m, s, d, req, &at) :
				sb_planner_multi_next_fit(m, s, d, req, &at);

			_expect(rc, at, want);
		}
	}
	sb_planner_multi_destroy(m);
}
END_TEST

static Suite *_suite(void)
{
	Suite *s = suite_create("planner");
	TCase *flux = tcase_create("flux");
	TCase *rnd = tcase_create("random");
	TCase *multi = tcase_create("multi");

	tcase_add_test(flux, test_flux_basic_add_remove);
	tcase_add_test(flux, test_flux_availability_checkers);
	tcase_add_test(flux, test_flux_add_and_iterator);
	tcase_add_test(flux, test_flux_on_or_after);
	tcase_add_test(flux, test_flux_more_add_remove);
	tcase_add_test(flux, test_stress_fully_overlap);
	tcase_add_test(flux, test_stress_4spans_overlap);
	tcase_add_test(flux, test_errors);
	tcase_add_test(flux, test_clamp);
	tcase_set_timeout(flux, 120);
	tcase_add_test(rnd, test_random_small);
	tcase_add_test(rnd, test_random_tight);
	tcase_add_test(rnd, test_random_extremes);
	tcase_set_timeout(rnd, 300);
	tcase_add_test(multi, test_flux_multi_basics);
	tcase_add_test(multi, test_flux_multi_strictly_larger);
	tcase_add_test(multi, test_multi_errors);
	tcase_add_test(multi, test_multi_random);
	tcase_set_timeout(multi, 120);
	suite_add_tcase(s, flux);
	suite_add_tcase(s, rnd);
	suite_add_tcase(s, multi);
	return s;
}

int main(void)
{
	return sb_test_run(_suite());
}
