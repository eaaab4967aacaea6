/*
 * test_civil_time.c - unit tests for common/civil_time.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The oracle counts days one at a time with a month-length table, from
 * 1970-01-01 forwards and backwards; the closed forms must agree with it
 * on every day of 1600..2400 and on random far dates round trip.
 */
#include <errno.h>
#include <stdio.h>

#include "civil_time.h"
#include "sb_test.h"

static int _leap(int64_t y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int _mlen(int64_t y, int m)
{
	static const int len[12] = { 31, 28, 31, 30, 31, 30,
				     31, 31, 30, 31, 30, 31 };

	return len[m - 1] + (m == 2 && _leap(y));
}

/* Every day from 1600-01-01 to 2400-12-31, counted one by one. */
START_TEST(test_days_match_counting)
{
	int64_t y = 1970, day = 0, yy;
	int m = 1, d = 1, mm, dd;

	/* Walk back to 1600-01-01, checking each day on the way. */
	for (;;) {
		ck_assert_int_eq(sb_civil_days(y, m, d), day);
		sb_civil_from_days(day, &yy, &mm, &dd);
		ck_assert_int_eq(yy, y);
		ck_assert_int_eq(mm, m);
		ck_assert_int_eq(dd, d);
		if (y == 1600 && m == 1 && d == 1)
			break;
		day--;
		if (--d == 0) {
			if (--m == 0) {
				m = 12;
				y--;
			}
			d = _mlen(y, m);
		}
	}
	y = 1970, m = 1, d = 1, day = 0;
	while (y <= 2400) {
		ck_assert_int_eq(sb_civil_days(y, m, d), day);
		sb_civil_from_days(day, &yy, &mm, &dd);
		ck_assert(yy == y && mm == m && dd == d);
		day++;
		if (++d > _mlen(y, m)) {
			d = 1;
			if (++m > 12) {
				m = 1;
				y++;
			}
		}
	}
}
END_TEST

/* Far dates: day number -> date -> day number is the identity. */
START_TEST(test_round_trip_random)
{
	sb_test_rng_t r;
	int i;

	sb_test_rng_seed(&r, 13);
	for (i = 0; i < 200000; i++) {
		int64_t day = sb_test_rng_range(&r, -365LL * 100000000,
						365LL * 100000000), y;
		int m, d;

		sb_civil_from_days(day, &y, &m, &d);
		ck_assert(m >= 1 && m <= 12 && d >= 1 && d <= _mlen(y, m));
		ck_assert_int_eq(sb_civil_days(y, m, d), day);
	}
}
END_TEST

START_TEST(test_fdiv_floors)
{
	ck_assert_int_eq(sb_civil_fdiv(7, 2), 3);
	ck_assert_int_eq(sb_civil_fdiv(-7, 2), -4);
	ck_assert_int_eq(sb_civil_fdiv(-8, 2), -4);
	ck_assert_int_eq(sb_civil_fdiv(0, 5), 0);
	ck_assert_int_eq(sb_civil_fdiv(-1, 86400), -1);
}
END_TEST

START_TEST(test_parse_good)
{
	int64_t t = 0;

	ck_assert_int_eq(sb_civil_parse("1970-01-01T00:00:00", &t), 0);
	ck_assert_int_eq(t, 0);
	ck_assert_int_eq(sb_civil_parse("2026-11-23T10:24:48", &t), 0);
	ck_assert_int_eq(t, sb_civil_days(2026, 11, 23) * 86400 +
			 10 * 3600 + 24 * 60 + 48);
	ck_assert_int_eq(sb_civil_parse("2024-02-29T23:59:59", &t), 0);
	ck_assert_int_eq(t, sb_civil_days(2024, 3, 1) * 86400 - 1);
	ck_assert_int_eq(sb_civil_parse("1969-12-31T23:59:59", &t), 0);
	ck_assert_int_eq(t, -1);
	ck_assert_int_eq(sb_civil_parse("0000-03-01T00:00:00", &t), 0);
	ck_assert_int_eq(t, sb_civil_days(0, 3, 1) * 86400);
}
END_TEST

START_TEST(test_parse_bad)
{
	static const char *const bad[] = {
		"", "Unknown", "None", "2026-11-23", "2026-11-23T10:24",
		"2026-11-23 10:24:48", "2026-11-23T10:24:48Z",
		"2026-11-23T10:24:480", " 2026-11-23T10:24:48",
		"2026-13-01T00:00:00", "2026-00-01T00:00:00",
		"2026-04-31T00:00:00", "2023-02-29T00:00:00",
		"1900-02-29T00:00:00", "2026-11-00T00:00:00",
		"2026-11-23T24:00:00", "2026-11-23T10:60:00",
		"2026-11-23T10:24:60", "2026-1a-23T10:24:48",
		"+026-11-23T10:24:48", "2026-11-23T-1:24:48",
	};
	size_t i;
	int64_t t = 42;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		ck_assert_msg(sb_civil_parse(bad[i], &t) == -1, "%s", bad[i]);
		ck_assert_int_eq(errno, EINVAL);
		ck_assert_int_eq(t, 42);	/* untouched */
	}
	errno = 0;
	ck_assert_int_eq(sb_civil_parse(NULL, &t), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_civil_parse("2026-11-23T10:24:48", NULL), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("civil_time");
	TCase *tc = tcase_create("civil_time");

	tcase_add_test(tc, test_days_match_counting);
	tcase_add_test(tc, test_round_trip_random);
	tcase_add_test(tc, test_fdiv_floors);
	tcase_add_test(tc, test_parse_good);
	tcase_add_test(tc, test_parse_bad);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
