/*
 * test_strmap.c - a map from strings to indices, against a brute-force
 * oracle: random puts (new keys and replacements) and gets over a small
 * key space (fixed seed), with the map's count and every key checked
 * after each put.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sb_test.h"
#include "strmap.h"

START_TEST(test_edges)
{
	sb_strmap_t *m = sb_strmap_create();

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(sb_strmap_get(m, "x"), SIZE_MAX);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sb_strmap_put(m, "", 0), 0);	/* an empty key */
	ck_assert_uint_eq(sb_strmap_get(m, ""), 0);
	ck_assert_int_eq(sb_strmap_put(m, "a", 1), 0);
	ck_assert_int_eq(sb_strmap_put(m, "a", 7), 0);	/* replaced */
	ck_assert_uint_eq(sb_strmap_get(m, "a"), 7);
	ck_assert_uint_eq(sb_strmap_count(m), 2);
	ck_assert_int_eq(sb_strmap_put(m, "b", SIZE_MAX), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_strmap_put(NULL, "b", 1), -1);
	ck_assert_uint_eq(sb_strmap_get(NULL, "b"), SIZE_MAX);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_uint_eq(sb_strmap_count(m), 2);
	ck_assert_uint_eq(sb_strmap_count(NULL), 0);
	sb_strmap_destroy(m);
	sb_strmap_destroy(NULL);
}
END_TEST

#define KEYS 3000

START_TEST(test_oracle)
{
	static size_t want[KEYS];	/* SIZE_MAX: absent */
	sb_test_rng_t r;
	sb_strmap_t *m = sb_strmap_create();
	size_t n = 0, i, op;
	char key[32];

	sb_test_rng_seed(&r, 17);
	for (i = 0; i < KEYS; i++)
		want[i] = SIZE_MAX;
	for (op = 0; op < 20000; op++) {
		size_t k = sb_test_rng_below(&r, KEYS);

		snprintf(key, sizeof(key), "%zu", k);
		if (sb_test_rng_below(&r, 2)) {
			size_t v = sb_test_rng_below(&r, 1000000);

			SB_REQ_CASE(!sb_strmap_put(m, key, v), op);
			n += want[k] == SIZE_MAX;
			want[k] = v;
			SB_REQ_CASE(sb_strmap_count(m) == n, op);
		}
		SB_REQ_CASE(sb_strmap_get(m, key) == want[k], op);
	}
	for (i = 0; i < KEYS; i++) {
		snprintf(key, sizeof(key), "%zu", i);
		SB_REQ_CASE(sb_strmap_get(m, key) == want[i], i);
	}
	sb_strmap_destroy(m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("strmap");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_edges);
	tcase_add_test(tc, test_oracle);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
