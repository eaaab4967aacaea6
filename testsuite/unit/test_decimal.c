/*
 * test_decimal.c - the one reader of unsigned decimal integers.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A table of texts and answers, then every value near each bound against
 * strtoull() (the oracle: digits first, then the same number).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "decimal.h"
#include "sb_test.h"

START_TEST(test_table)
{
	static const struct {
		const char *in;
		uint64_t max;
		int rc, err;
		uint64_t v;
	} cases[] = {
		{ "0", 0, 0, 0, 0 },
		{ "007", 7, 0, 0, 7 },
		{ "8", 7, -1, ERANGE, 0 },
		{ "", 9, -1, EINVAL, 0 },
		{ "-1", 9, -1, EINVAL, 0 },
		{ "+1", 9, -1, EINVAL, 0 },
		{ " 1", 9, -1, EINVAL, 0 },
		{ "1 ", 9, -1, EINVAL, 0 },
		{ "0x1f", 99, -1, EINVAL, 0 },
		{ "18446744073709551615", UINT64_MAX, 0, 0, UINT64_MAX },
		{ "18446744073709551616", UINT64_MAX, -1, ERANGE, 0 },
		{ "99999999999999999999999", UINT64_MAX, -1, ERANGE, 0 },
		{ "99999999999999999999999x", UINT64_MAX, -1, EINVAL, 0 },
	};
	uint64_t v;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		v = 42;
		errno = 0;
		ck_assert_int_eq(sb_decimal_parse(cases[i].in, cases[i].max,
						  &v, NULL), cases[i].rc);
		if (cases[i].rc) {
			ck_assert_int_eq(errno, cases[i].err);
			ck_assert_uint_eq(v, 42);
		} else {
			ck_assert_uint_eq(v, cases[i].v);
		}
	}
	ck_assert_int_eq(sb_decimal_parse(NULL, 1, &v, NULL), -1);
	ck_assert_int_eq(sb_decimal_parse("1", 1, NULL, NULL), -1);
}
END_TEST

START_TEST(test_end)
{
	const char *end = NULL, *s = "12:34";
	uint64_t v;

	ck_assert_int_eq(sb_decimal_parse(s, 99, &v, &end), 0);
	ck_assert_uint_eq(v, 12);
	ck_assert_ptr_eq(end, s + 2);
	ck_assert_int_eq(sb_decimal_parse(":1", 99, &v, &end), -1);
	ck_assert_ptr_eq(end, s + 2);
	ck_assert_int_eq(sb_decimal_parse("123G", 99, &v, &end), -1);
	ck_assert_int_eq(errno, ERANGE);
}
END_TEST

/* Around every power of ten and bound: the same as strtoull(). */
START_TEST(test_oracle)
{
	static const uint64_t maxes[] = { 0, 9, 10, 255, 65535, UINT32_MAX,
					  INT64_MAX, UINT64_MAX };
	char buf[32];
	uint64_t base = 1, v, want;
	size_t m;
	int p, d;

	for (p = 0; p < 20; p++, base *= 10)
		for (d = -2; d <= 2; d++) {
			uint64_t x = base + (uint64_t) (int64_t) d;

			snprintf(buf, sizeof(buf), "%" PRIu64, x);
			want = strtoull(buf, NULL, 10);
			for (m = 0; m < sizeof(maxes) / sizeof(maxes[0]); m++) {
				int rc = sb_decimal_parse(buf, maxes[m], &v,
							  NULL);

				ck_assert_int_eq(rc, want <= maxes[m] ? 0 : -1);
				if (!rc)
					ck_assert_uint_eq(v, want);
			}
		}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("decimal");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_table);
	tcase_add_test(tc, test_end);
	tcase_add_test(tc, test_oracle);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
