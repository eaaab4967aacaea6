/*
 * test_usage_decay.c - unit tests of common/usage_decay.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <time.h>

#include "sb_test.h"
#include "usage_decay.h"

#define DAY INT64_C(86400)

START_TEST(test_factor)
{
	ck_assert(sb_decay_factor(0) == 1.0);
	ck_assert(sb_decay_factor(-5) == 1.0);
	ck_assert(sb_decay_factor(1) == 1 - 0.693);
	/* Slurm's default PriorityDecayHalfLife is 7 days. */
	ck_assert(sb_decay_factor(7 * DAY) == 1 - 0.693 / 604800.0);
	/* Over one half-life the first-order factor halves usage to
	 * within 0.02% (e^-0.693 = 0.50007). */
	ck_assert(fabs(sb_decay_over(sb_decay_factor(7 * DAY), 7 * DAY) - 0.5)
		  < 1e-4);
}
END_TEST

START_TEST(test_over_and_apply)
{
	double f = sb_decay_factor(3600);

	ck_assert(sb_decay_over(f, 0) == 1.0);
	ck_assert(sb_decay_over(f, -10) == 1.0);
	ck_assert(sb_decay_over(f, 300) == pow(f, 300.0));
	/* Floored so that usage never decays to 0. */
	ck_assert(sb_decay_over(f, INT64_C(1) << 40) == DBL_MIN);
	ck_assert(sb_decay_over(1.0, 1000) == 1.0);
	ck_assert(sb_decay_apply(1000.0L, f, 300) ==
		  1000.0L * pow(f, 300.0));
	ck_assert(sb_decay_apply(0.0L, f, 300) == 0.0L);
	/* Decaying twice equals decaying once over the sum, to rounding. */
	ck_assert(fabsl(sb_decay_apply(sb_decay_apply(500.0L, f, 120), f, 180)
			- sb_decay_apply(500.0L, f, 300)) < 1e-9L);
}
END_TEST

START_TEST(test_new_usage)
{
	double f = sb_decay_factor(600);

	ck_assert(sb_decay_new_usage(f, 60, 4.0, 1.0) ==
		  60.0 * pow(f, 60.0) * 4.0);
	ck_assert(sb_decay_new_usage(f, 60, 4.0, 0.5) ==
		  60.0 * pow(f, 60.0) * 4.0 * 0.5);
	/* A negative QOS UsageFactor is ignored, as in Slurm. */
	ck_assert(sb_decay_new_usage(f, 60, 4.0, -1.0) ==
		  60.0 * pow(f, 60.0) * 4.0);
	ck_assert(sb_decay_new_usage(f, -60, 4.0, 1.0) == 0.0);
	ck_assert(sb_decay_new_usage(1.0, 60, 2.0, 1.0) == 120.0);
}
END_TEST

START_TEST(test_reset_words)
{
	static const char *const w[] = { "NONE", "NOW", "DAILY", "WEEKLY",
					 "MONTHLY", "QUARTERLY", "YEARLY" };
	sb_reset_period_t p;
	int i;

	for (i = 0; i < 7; i++) {
		ck_assert_int_eq(sb_reset_parse(w[i], &p), 0);
		ck_assert_int_eq((int) p, i);
		ck_assert_str_eq(sb_reset_name(p), w[i]);
	}
	ck_assert_int_eq(sb_reset_parse("weekly", &p), 0);
	ck_assert_int_eq(p, SB_RESET_WEEKLY);
	ck_assert_int_eq(sb_reset_parse("Quarterly", &p), 0);
	ck_assert_int_eq(p, SB_RESET_QUARTERLY);
	errno = 0;
	ck_assert_int_eq(sb_reset_parse("hourly", &p), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_reset_parse("DAILYX", &p), -1);
	ck_assert_int_eq(sb_reset_parse("", &p), -1);
	ck_assert_int_eq(sb_reset_parse(NULL, &p), -1);
	ck_assert_ptr_null(sb_reset_name((sb_reset_period_t) 9));
}
END_TEST

/* 2026-11-22 04:30:00 UTC is a Sunday. */
#define T0 INT64_C(1795321800)

START_TEST(test_reset_next_fixed)
{
	/* Daily: next midnight; caught up when the last reset is old. */
	ck_assert_int_eq(sb_reset_next(SB_RESET_DAILY, T0, T0, 0),
			 INT64_C(1795392000));
	ck_assert_int_eq(sb_reset_next(SB_RESET_DAILY, T0 - 10 * DAY, T0, 0),
			 INT64_C(1795305600));
	/* Weekly: the Sunday after (a Sunday gives the next one). */
	ck_assert_int_eq(sb_reset_next(SB_RESET_WEEKLY, T0, T0, 0),
			 INT64_C(1795305600) + 7 * DAY);
	ck_assert_int_eq(sb_reset_next(SB_RESET_WEEKLY, T0 - DAY, T0, 0),
			 INT64_C(1795305600));
	/* Monthly, quarterly, yearly: 2026-12-01, 2027-01-01, 2027-01-01. */
	ck_assert_int_eq(sb_reset_next(SB_RESET_MONTHLY, T0, T0, 0),
			 INT64_C(1796083200));
	ck_assert_int_eq(sb_reset_next(SB_RESET_QUARTERLY, T0, T0, 0),
			 INT64_C(1798761600));
	ck_assert_int_eq(sb_reset_next(SB_RESET_YEARLY, T0, T0, 0),
			 INT64_C(1798761600));
	/* December rolls the month into the next year. */
	ck_assert_int_eq(sb_reset_next(SB_RESET_MONTHLY, INT64_C(1798000000),
				       T0, 0), INT64_C(1798761600));
	/* Quarterly from February: April 1st 2026. */
	ck_assert_int_eq(sb_reset_next(SB_RESET_QUARTERLY, INT64_C(1770000000),
				       T0, 0), INT64_C(1775001600));
	/* Local time UTC-5: local midnight is 05:00 UTC; 04:30 UTC is
	 * still Saturday locally, so the next local midnight is 05:00. */
	ck_assert_int_eq(sb_reset_next(SB_RESET_DAILY, T0, T0, -5 * 3600),
			 INT64_C(1795305600) + 5 * 3600);
	ck_assert_int_eq(sb_reset_next(SB_RESET_NONE, T0, T0, 0), INT64_MAX);
	ck_assert_int_eq(sb_reset_next(SB_RESET_NOW, T0 - 5, T0, 0), T0);
	errno = 0;
	ck_assert_int_eq(sb_reset_next(SB_RESET_DAILY, T0, T0, 27 * 3600), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_reset_next((sb_reset_period_t) 12, T0, T0, 0), -1);
	errno = 0;
	ck_assert_int_eq(sb_reset_next(SB_RESET_DAILY, INT64_MAX, T0, 0), -1);
	ck_assert_int_eq(errno, ERANGE);
}
END_TEST

/* Oracle: gmtime() (standard C) on random times, UTC. */
START_TEST(test_reset_next_random)
{
	sb_test_rng_t r;
	int i;

	sb_test_rng_seed(&r, 0xDECA7ULL);
	for (i = 0; i < 20000; i++) {
		int64_t last = sb_test_rng_range(&r, 0, INT64_C(4102444800));
		int64_t now = last + sb_test_rng_range(&r, 0, 60 * DAY);
		time_t tl = (time_t) last, tn;
		struct tm lt, nt;
		int64_t next;
		sb_reset_period_t p = (sb_reset_period_t)
			sb_test_rng_range(&r, SB_RESET_DAILY, SB_RESET_YEARLY);

		lt = *gmtime(&tl);
		next = sb_reset_next(p, last, now, 0);
		ck_assert_int_gt(next, last);
		ck_assert_int_eq(next % DAY, 0);
		tn = (time_t) next;
		nt = *gmtime(&tn);
		switch (p) {
		case SB_RESET_DAILY:
			ck_assert(next + DAY >= now);
			ck_assert(next == last - last % DAY + DAY ||
				  next + DAY - DAY < now);
			break;
		case SB_RESET_WEEKLY:
			ck_assert_int_eq(nt.tm_wday, 0);
			ck_assert(next + 7 * DAY >= now);
			ck_assert(next - last <= 7 * DAY || next < now);
			break;
		case SB_RESET_MONTHLY:
			ck_assert_int_eq(nt.tm_mday, 1);
			ck_assert_int_eq((nt.tm_year * 12 + nt.tm_mon) -
					 (lt.tm_year * 12 + lt.tm_mon), 1);
			break;
		case SB_RESET_QUARTERLY:
			ck_assert_int_eq(nt.tm_mday, 1);
			ck_assert_int_eq(nt.tm_mon % 3, 0);
			ck_assert_int_le((nt.tm_year * 12 + nt.tm_mon) -
					 (lt.tm_year * 12 + lt.tm_mon), 3);
			break;
		default:
			ck_assert_int_eq(nt.tm_mday, 1);
			ck_assert_int_eq(nt.tm_mon, 0);
			ck_assert_int_eq(nt.tm_year, lt.tm_year + 1);
			break;
		}
	}
}
END_TEST

static Suite *_suite(void)
{
	Suite *s = suite_create("usage_decay");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_factor);
	tcase_add_test(tc, test_over_and_apply);
	tcase_add_test(tc, test_new_usage);
	tcase_add_test(tc, test_reset_words);
	tcase_add_test(tc, test_reset_next_fixed);
	tcase_add_test(tc, test_reset_next_random);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return sb_test_run(_suite());
}
