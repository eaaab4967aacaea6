/*
 * test_priority_params.c - unit tests for common/priority_params.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A table of good strings with the parameters they give, and a table of
 * bad ones with the exact one-line message each must produce.
 */
#include <errno.h>
#include <string.h>

#include "priority_params.h"
#include "sb_test.h"

static const struct {
	const char *str;
	const char *canonical;
} good[] = {
	{ NULL, "algorithm=level_based,levels=4" },
	{ "", "algorithm=level_based,levels=4" },
	{ "algorithm=level_based", "algorithm=level_based,levels=4" },
	{ "algorithm=fair_tree", "algorithm=fair_tree,levels=4" },
	{ "algorithm=classic", "algorithm=classic,levels=4" },
	{ "levels=1", "algorithm=level_based,levels=1" },
	{ "levels=16", "algorithm=level_based,levels=16" },
	{ "levels=8,algorithm=level_based", "algorithm=level_based,levels=8" },
	{ "ALGORITHM=Fair_Tree,Levels=2", "algorithm=fair_tree,levels=2" },
	/* levels is kept (unused) with the other algorithms */
	{ "algorithm=classic,levels=3", "algorithm=classic,levels=3" },
	{ "calc_period=5", "algorithm=level_based,levels=4,calc_period=5" },
	{ "Calc_Period=86400,algorithm=fair_tree",
	  "algorithm=fair_tree,levels=4,calc_period=86400" },
};

#define LONG10 "0123456789"
#define LONG40 LONG10 LONG10 LONG10 LONG10
#define LONG160 LONG40 LONG40 LONG40 LONG40
#define LONG200 LONG160 LONG40

static const struct {
	const char *str;
	const char *msg;
} bad[] = {
	{ "algorithm=fairtree", "bad value 'fairtree' for PriorityParameters "
	  "key 'algorithm' (want level_based, fair_tree or classic)" },
	{ "algorithm=", "bad value '' for PriorityParameters key 'algorithm' "
	  "(want level_based, fair_tree or classic)" },
	{ "levels=0", "bad value '0' for PriorityParameters key 'levels' "
	  "(want an integer from 1 to 16)" },
	{ "levels=17", "bad value '17' for PriorityParameters key 'levels' "
	  "(want an integer from 1 to 16)" },
	{ "levels=-4", "bad value '-4' for PriorityParameters key 'levels' "
	  "(want an integer from 1 to 16)" },
	{ "levels=4x", "bad value '4x' for PriorityParameters key 'levels' "
	  "(want an integer from 1 to 16)" },
	{ "levels= 4", "bad value ' 4' for PriorityParameters key 'levels' "
	  "(want an integer from 1 to 16)" },
	{ "levels=99999999999999999999", "bad value '99999999999999999999' "
	  "for PriorityParameters key 'levels' (want an integer from 1 to "
	  "16)" },
	{ "level=4", "unknown key 'level' (value '4') in PriorityParameters "
	  "(known: algorithm, levels, calc_period)" },
	{ "algorithm=classic,damp=2", "unknown key 'damp' (value '2') in "
	  "PriorityParameters (known: algorithm, levels, calc_period)" },
	{ "calc_period=0", "bad value '0' for PriorityParameters key "
	  "'calc_period' (want seconds from 1 to 86400)" },
	{ "calc_period=86401", "bad value '86401' for PriorityParameters key "
	  "'calc_period' (want seconds from 1 to 86400)" },
	{ "calc_period=1m", "bad value '1m' for PriorityParameters key "
	  "'calc_period' (want seconds from 1 to 86400)" },
	{ "calc_period=5,calc_period=5", "PriorityParameters key "
	  "'calc_period' given twice (second value '5')" },
	{ "fair_tree", "missing '=' after PriorityParameters key 'fair_tree' "
	  "(want key=value)" },
	{ "levels=4,levels=5", "PriorityParameters key 'levels' given twice "
	  "(second value '5')" },
	{ "algorithm=classic,algorithm=classic", "PriorityParameters key "
	  "'algorithm' given twice (second value 'classic')" },
	{ ",levels=4", "empty key=value pair in PriorityParameters "
	  "',levels=4'" },
	{ "levels=4,", "empty key=value pair in PriorityParameters "
	  "'levels=4,'" },
	{ "levels=4,,algorithm=classic", "empty key=value pair in "
	  "PriorityParameters 'levels=4,,algorithm=classic'" },
	/* Issue 16, item 8: echoed values stay on one printable line. */
	{ "algorithm=fair\ntree", "bad value 'fair?tree' for "
	  "PriorityParameters key 'algorithm' (want level_based, fair_tree "
	  "or classic)" },
	{ "lev\x1b[2Jels=4", "unknown key 'lev?[2Jels' (value '4') in "
	  "PriorityParameters (known: algorithm, levels, calc_period)" },
	{ "levels=4\r,", "empty key=value pair in PriorityParameters "
	  "'levels=4?,'" },
	{ "levels=" LONG200, "bad value '" LONG160 "...' for "
	  "PriorityParameters key 'levels' (want an integer from 1 to 16)" },
	{ LONG200 "=" LONG200, "unknown key '" LONG160 "...' (value '"
	  LONG160 "...') in PriorityParameters (known: algorithm, levels, "
	  "calc_period)" },
};

START_TEST(test_good)
{
	sb_priority_params_t p;
	char buf[64], err[SB_PRIO_ERR_MAX];

	memset(&p, 0x55, sizeof(p));
	ck_assert_int_eq(sb_priority_params_parse(good[_i].str, &p, err,
						  sizeof(err)), 0);
	ck_assert_str_eq(err, "");
	ck_assert_ptr_nonnull(sb_priority_params_fmt(&p, buf, sizeof(buf)));
	ck_assert_str_eq(buf, good[_i].canonical);
	/* the canonical form parses back to the same parameters */
	{
		sb_priority_params_t q;

		ck_assert_int_eq(sb_priority_params_parse(buf, &q, NULL, 0),
				 0);
		ck_assert_int_eq(q.algorithm, p.algorithm);
		ck_assert_int_eq(q.levels, p.levels);
		ck_assert_int_eq(q.calc_period, p.calc_period);
	}
}
END_TEST

START_TEST(test_bad)
{
	sb_priority_params_t p = { .algorithm = 77, .levels = 99,
				   .calc_period = 55 };
	char err[SB_PRIO_ERR_MAX];

	errno = 0;
	ck_assert_int_eq(sb_priority_params_parse(bad[_i].str, &p, err,
						  sizeof(err)), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_str_eq(err, bad[_i].msg);
	ck_assert_ptr_null(strchr(err, '\n'));
	/* no side effects on failure */
	ck_assert_int_eq(p.algorithm, 77);
	ck_assert_int_eq(p.levels, 99);
	ck_assert_int_eq(p.calc_period, 55);
}
END_TEST

START_TEST(test_edges)
{
	sb_priority_params_t p;
	char small[8], buf[64];

	errno = 0;
	ck_assert_int_eq(sb_priority_params_parse("levels=4", NULL, NULL, 0),
			 -1);
	ck_assert_int_eq(errno, EINVAL);
	/* a short error buffer is truncated, never overrun */
	ck_assert_int_eq(sb_priority_params_parse("x=1", &p, small,
						  sizeof(small)), -1);
	ck_assert_uint_eq(strlen(small), sizeof(small) - 1);
	sb_priority_params_default(&p);
	sb_priority_params_default(NULL);
	ck_assert_int_eq(p.algorithm, SB_FS_LEVEL_BASED);
	ck_assert_int_eq(p.levels, 4);
	ck_assert_int_eq(p.calc_period, 0);
	errno = 0;
	ck_assert_ptr_null(sb_priority_params_fmt(&p, small, sizeof(small)));
	ck_assert_int_eq(errno, ERANGE);
	p.algorithm = 42;
	errno = 0;
	ck_assert_ptr_null(sb_priority_params_fmt(&p, buf, sizeof(buf)));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_str_eq(sb_priority_params_algorithm_name(SB_FS_CLASSIC),
			 "classic");
	errno = 0;
	ck_assert_ptr_null(sb_priority_params_algorithm_name(SB_FS_NONE));
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("priority_params");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_good, 0, sizeof(good) / sizeof(good[0]));
	tcase_add_loop_test(tc, test_bad, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(tc, test_edges);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
