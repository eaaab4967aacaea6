/*
 * test_priority_state.c - the priority state file: bytes as Slurm's
 * pack_time() writes them (written by hand), times in the future
 * clamped to now, what is not such a file refused, and random times
 * (fixed seed) that pack and parse back.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <string.h>

#include "priority_state.h"
#include "sb_test.h"

START_TEST(test_bytes)
{
	/* 1795431981 and 1795000000, big-endian, then a trailing byte */
	static const unsigned char file[] = {
		0, 0, 0, 0, 0x6b, 0x04, 0x1e, 0x2d,
		0, 0, 0, 0, 0x6a, 0xfd, 0x86, 0xc0, 0xff,
	};
	unsigned char out[SB_PRIO_STATE_LEN];
	sb_prio_state_t st;

	ck_assert_int_eq(sb_prio_state_parse(file, sizeof(file), 1795431981,
					     &st), 0);
	ck_assert_int_eq(st.last_ran, 1795431981);
	ck_assert_int_eq(st.last_reset, 1795000000);
	ck_assert(!st.ran_clamped && !st.reset_clamped);
	ck_assert_int_eq(sb_prio_state_pack(1795431981, 1795000000, out), 0);
	ck_assert_int_eq(memcmp(out, file, sizeof(out)), 0);
	/* an hour later than now: both taken as now */
	ck_assert_int_eq(sb_prio_state_parse(file, sizeof(file), 1795000000,
					     &st), 0);
	ck_assert_int_eq(st.last_ran, 1795000000);
	ck_assert(st.ran_clamped && !st.reset_clamped);
	ck_assert_int_eq(sb_prio_state_parse(file, 16, 1000, &st), 0);
	ck_assert_int_eq(st.last_reset, 1000);
	ck_assert(st.ran_clamped && st.reset_clamped);
}
END_TEST

START_TEST(test_refused)
{
	unsigned char b[SB_PRIO_STATE_LEN] = { 0x80 };	/* negative */
	sb_prio_state_t st = { 7, 7, false, false };

	errno = 0;
	ck_assert_int_eq(sb_prio_state_parse(b, sizeof(b), 10, &st), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(st.last_ran, 7);	/* untouched */
	memset(b, 0, sizeof(b));
	ck_assert_int_eq(sb_prio_state_parse(b, 15, 10, &st), -1);
	ck_assert_int_eq(sb_prio_state_parse(NULL, 16, 10, &st), -1);
	ck_assert_int_eq(sb_prio_state_parse(b, 16, -1, &st), -1);
	ck_assert_int_eq(sb_prio_state_parse(b, 16, 10, NULL), -1);
	ck_assert_int_eq(sb_prio_state_pack(-1, 0, b), -1);
	ck_assert_int_eq(sb_prio_state_pack(0, 0, NULL), -1);
	ck_assert_int_eq(sb_prio_state_parse(b, 16, 0, &st), 0);
	ck_assert_int_eq(st.last_ran, 0);
}
END_TEST

START_TEST(test_random)
{
	sb_test_rng_t g;
	unsigned char b[SB_PRIO_STATE_LEN];
	size_t c;

	sb_test_rng_seed(&g, 49);
	for (c = 0; c < 100000; c++) {
		int64_t now = (int64_t) (sb_test_rng_next(&g) >> 2);
		int64_t ran = (int64_t) (sb_test_rng_next(&g) >> 1);
		int64_t reset = (int64_t) (sb_test_rng_next(&g) >> 1);
		sb_prio_state_t st;

		SB_REQ_CASE(!sb_prio_state_pack(ran, reset, b), c);
		SB_REQ_CASE(!sb_prio_state_parse(b, sizeof(b), now, &st), c);
		SB_REQ_CASE(st.last_ran == (ran > now ? now : ran), c);
		SB_REQ_CASE(st.last_reset == (reset > now ? now : reset), c);
		SB_REQ_CASE(st.ran_clamped == (ran > now), c);
		SB_REQ_CASE(st.reset_clamped == (reset > now), c);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("priority_state");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_bytes);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_random);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
