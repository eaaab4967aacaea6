/*
 * test_shown.c - input text made fit to be echoed in a one-line message.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A table of values and how they are shown, then every byte value alone,
 * then buffers too small for the value.
 */
#include <string.h>

#include "shown.h"
#include "sb_test.h"

START_TEST(test_table)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "", "" },
		{ "level_based", "level_based" },
		{ "a b~!", "a b~!" },
		{ "two\nlines", "two?lines" },
		{ "tab\there", "tab?here" },
		{ "\x1b[31mred\x1b[0m", "?[31mred?[0m" },
		{ "caf\xc3\xa9", "caf??" },
		{ "del\x7f", "del?" },
		{ "cr\r", "cr?" },
	};
	char buf[SB_SHOWN_BUF];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_assert_str_eq(sb_shown(buf, sizeof(buf), cases[i].in),
				 cases[i].out);
	ck_assert_str_eq(sb_shown(buf, sizeof(buf), NULL), "(null)");
}
END_TEST

START_TEST(test_every_byte)
{
	char in[2] = { 0, 0 }, buf[SB_SHOWN_BUF];
	int c;

	for (c = 1; c < 256; c++) {
		in[0] = (char) c;
		sb_shown(buf, sizeof(buf), in);
		ck_assert_uint_eq(strlen(buf), 1);
		ck_assert_int_eq(buf[0], c >= 32 && c < 127 ? c : '?');
	}
}
END_TEST

START_TEST(test_cut)
{
	char in[SB_SHOWN_MAX + 2], buf[SB_SHOWN_BUF], small[8];
	size_t len;

	/* Exactly the limit: whole, no dots. */
	memset(in, 'x', SB_SHOWN_MAX);
	in[SB_SHOWN_MAX] = '\0';
	sb_shown(buf, sizeof(buf), in);
	ck_assert_uint_eq(strlen(buf), SB_SHOWN_MAX);
	ck_assert(strchr(buf, '.') == NULL);
	/* One more: cut, with "...", and the buffer is just big enough. */
	in[SB_SHOWN_MAX] = 'y';
	in[SB_SHOWN_MAX + 1] = '\0';
	sb_shown(buf, sizeof(buf), in);
	ck_assert_uint_eq(strlen(buf), SB_SHOWN_MAX + 3);
	ck_assert_str_eq(buf + SB_SHOWN_MAX, "...");
	ck_assert_uint_eq(sizeof(buf), strlen(buf) + 1);
	/* A small buffer: cut to fit, terminated. */
	ck_assert_str_eq(sb_shown(small, sizeof(small), "0123456789"),
			 "0123456");
	/* Appending: n bytes at most, max kept, then dots. */
	len = 0;
	sb_shown_put(buf, sizeof(buf), &len, "key=", 4, 64);
	sb_shown_put(buf, sizeof(buf), &len, "v\nalue", 3, 64);
	ck_assert_str_eq(buf, "key=v?a");
	ck_assert_uint_eq(len, 7);
	sb_shown_put(buf, sizeof(buf), &len, "abcdef", 6, 2);
	ck_assert_str_eq(buf, "key=v?aab...");
	/* A zero-sized buffer is left alone. */
	len = 0;
	sb_shown_put(NULL, 0, &len, "x", 1, 1);
	ck_assert_uint_eq(len, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("shown");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_table);
	tcase_add_test(tc, test_every_byte);
	tcase_add_test(tc, test_cut);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
