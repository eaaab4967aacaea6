/*
 * test_strbuf.c - unit tests for common/strbuf.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sb_test.h"
#include "strbuf.h"

START_TEST(test_empty_is_empty_string)
{
	sb_strbuf_t b = SB_STRBUF_INIT;
	char *s = sb_strbuf_finish(&b);

	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s, "");
	free(s);
}
END_TEST

START_TEST(test_pieces_and_formats)
{
	sb_strbuf_t b = SB_STRBUF_INIT;
	char *s;

	sb_strbuf_add(&b, "0-63");
	sb_strbuf_addf(&b, ",%d-%d", 79, 97);
	sb_strbuf_addn(&b, ",100xyz", 4);
	ck_assert_uint_eq(b.len, strlen("0-63,79-97,100"));
	s = sb_strbuf_finish(&b);
	ck_assert_str_eq(s, "0-63,79-97,100");
	ck_assert_ptr_null(b.s);	/* finish resets the buffer */
	free(s);
}
END_TEST

/* Growth across many reallocations keeps every byte in order. */
START_TEST(test_growth)
{
	sb_strbuf_t b = SB_STRBUF_INIT;
	char *s;
	int i;

	for (i = 0; i < 10000; i++)
		sb_strbuf_addf(&b, "%c", 'a' + i % 26);
	s = sb_strbuf_finish(&b);
	ck_assert_uint_eq(strlen(s), 10000);
	for (i = 0; i < 10000; i++)
		ck_assert_int_eq(s[i], 'a' + i % 26);
	free(s);
}
END_TEST

/* A failed append is sticky: later appends do nothing, finish says ENOMEM. */
START_TEST(test_failure_is_sticky)
{
	sb_strbuf_t b = SB_STRBUF_INIT;

	sb_strbuf_add(&b, "x");
	free(b.s);
	b.s = NULL;
	b.len = b.cap = 0;
	b.failed = true;	/* what _reserve() leaves after realloc fails */
	sb_strbuf_add(&b, "more");
	ck_assert_ptr_null(b.s);
	errno = 0;
	ck_assert_ptr_null(sb_strbuf_finish(&b));
	ck_assert_int_eq(errno, ENOMEM);
	ck_assert(!b.failed);	/* reset: the buffer can be reused */
}
END_TEST

int main(void)
{
	Suite *s = suite_create("strbuf");
	TCase *tc = tcase_create("strbuf");

	tcase_add_test(tc, test_empty_is_empty_string);
	tcase_add_test(tc, test_pieces_and_formats);
	tcase_add_test(tc, test_growth);
	tcase_add_test(tc, test_failure_is_sticky);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
