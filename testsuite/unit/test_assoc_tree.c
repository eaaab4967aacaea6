/*
 * test_assoc_tree.c - unit tests of common/assoc_tree.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "assoc_tree.h"
#include "assoc_tree_priv.h"	/* white box: corrupt a tree for check() */
#include "sb_test.h"

#define CHECK_OK(t) ck_assert_int_eq(sb_assoc_tree_check(t), 0)

START_TEST(test_create_root)
{
	sb_assoc_tree_t *t = sb_assoc_tree_create();
	sb_assoc_info_t a;

	ck_assert_ptr_nonnull(t);
	CHECK_OK(t);
	ck_assert_int_eq(sb_assoc_tree_count(t), 1);
	ck_assert_int_eq(sb_assoc_tree_users(t), 0);
	ck_assert_int_eq(sb_assoc_tree_get(t, SB_ASSOC_ROOT, &a), 0);
	ck_assert_str_eq(a.name, "root");
	ck_assert_int_eq(a.parent, -1);
	ck_assert(!a.is_user);
	ck_assert_int_eq(sb_assoc_tree_find_account(t, "root"), 0);
	ck_assert_int_eq(sb_assoc_tree_algorithm(t), SB_FS_NONE);
	sb_assoc_tree_destroy(t);
	sb_assoc_tree_destroy(NULL);
	ck_assert_int_eq(sb_assoc_tree_count(NULL), 0);
}
END_TEST

START_TEST(test_add_errors)
{
	sb_assoc_tree_t *t = sb_assoc_tree_create();
	char longname[SB_ASSOC_NAME_MAX + 2];
	int a, u;

	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	a = sb_assoc_tree_add_account(t, 0, "a", 10);
	ck_assert_int_eq(a, 1);
	u = sb_assoc_tree_add_user(t, a, "u", 1, 5);
	ck_assert_int_eq(u, 2);
	CHECK_OK(t);

#define FAILS(call, err) do { \
		errno = 0; \
		ck_assert_int_eq((call), -1); \
		ck_assert_int_eq(errno, (err)); \
		ck_assert_int_eq(sb_assoc_tree_count(t), 3); \
		CHECK_OK(t); \
	} while (0)
	FAILS(sb_assoc_tree_add_account(NULL, 0, "b", 1), EINVAL);
	FAILS(sb_assoc_tree_add_account(t, 0, NULL, 1), EINVAL);
	FAILS(sb_assoc_tree_add_account(t, 0, "", 1), EINVAL);
	FAILS(sb_assoc_tree_add_account(t, 0, longname, 1), EINVAL);
	FAILS(sb_assoc_tree_add_account(t, u, "b", 1), EINVAL);
	FAILS(sb_assoc_tree_add_account(t, 99, "b", 1), EINVAL);
	FAILS(sb_assoc_tree_add_account(t, -1, "b", 1), EINVAL);
	FAILS(sb_assoc_tree_add_account(t, 0, "b", SB_SHARES_PARENT + 1),
	      EINVAL);
	FAILS(sb_assoc_tree_add_account(t, 0, "a", 1), EEXIST);
	FAILS(sb_assoc_tree_add_account(t, a, "root", 1), EEXIST);
	FAILS(sb_assoc_tree_add_user(t, a, "u", 1, 0), EEXIST);
	FAILS(sb_assoc_tree_add_user(t, a, "v", 1, -1), EINVAL);
	FAILS(sb_assoc_tree_add_user(t, a, "v", 1, NAN), EINVAL);
	FAILS(sb_assoc_tree_add_user(t, a, "v", 1, INFINITY), EINVAL);
	FAILS(sb_assoc_tree_add_user(t, u, "v", 1, 0), EINVAL);
	FAILS(sb_assoc_tree_set_usage(t, u, -1), EINVAL);
	FAILS(sb_assoc_tree_set_usage(t, a, NAN), EINVAL);
	FAILS(sb_assoc_tree_set_usage(t, 3, 1), EINVAL);
	FAILS(sb_assoc_tree_set_usage(t, -1, 1), EINVAL);
	FAILS(sb_assoc_tree_set_usage(NULL, 0, 1), EINVAL);
	FAILS(sb_assoc_tree_find_account(t, "nope"), ENOENT);
	FAILS(sb_assoc_tree_find_user(t, a, "nope"), ENOENT);
	FAILS(sb_assoc_tree_find_user(t, u, "u"), EINVAL);
	FAILS(sb_assoc_tree_first_child(t, u), ENOENT);
	FAILS(sb_assoc_tree_next_sibling(t, a), ENOENT);
	FAILS(sb_assoc_tree_first_child(t, 7), EINVAL);
	{
		sb_assoc_result_t res;

		FAILS(sb_assoc_tree_get_result(NULL, 0, &res), EINVAL);
		FAILS(sb_assoc_tree_get_result(t, 0, NULL), EINVAL);
		FAILS(sb_assoc_tree_get_result(t, 3, &res), ENOENT);
		FAILS(sb_assoc_tree_get_result(t, -1, &res), ENOENT);
		ck_assert_int_eq(sb_assoc_tree_get_result(t, u, &res), 0);
		ck_assert(res.is_user);
	}
#undef FAILS
	/* A user may share a name with an account, and live under root. */
	ck_assert_int_eq(sb_assoc_tree_add_user(t, 0, "a", 1, 0), 3);
	ck_assert_int_eq(sb_assoc_tree_add_user(t, 0, "u", SB_SHARES_PARENT,
						0), 4);
	ck_assert_int_eq(sb_assoc_tree_find_user(t, 0, "u"), 4);
	ck_assert_int_eq(sb_assoc_tree_find_user(t, a, "u"), u);
	CHECK_OK(t);
	sb_assoc_tree_destroy(t);
}
END_TEST

/*
 * An account's usage is what Slurm keeps on it when given (deleted users'
 * usage included), else its children's sum; root likewise.
 */
START_TEST(test_given_usage)
{
	sb_assoc_tree_t *t = sb_assoc_tree_create();
	int a, b, c, d, u3;
	sb_assoc_info_t in;

	a = sb_assoc_tree_add_account(t, 0, "a", 1);
	ck_assert_int_ge(sb_assoc_tree_add_user(t, a, "u1", 1, 10), 0);
	ck_assert_int_ge(sb_assoc_tree_add_user(t, a, "u2", 1, 20), 0);
	b = sb_assoc_tree_add_account(t, 0, "b", 1);
	u3 = sb_assoc_tree_add_user(t, b, "u3", 1, 5);
	c = sb_assoc_tree_add_account(t, 0, "c", 1);
	d = sb_assoc_tree_add_account(t, c, "d", 1);
	ck_assert_int_ge(sb_assoc_tree_add_user(t, d, "u4", 1, 3), 0);
	ck_assert_int_eq(sb_assoc_tree_set_usage(t, a, 100), 0);
	ck_assert_int_eq(sb_assoc_tree_set_usage(t, c, 7), 0);
	CHECK_OK(t);
	ck_assert_int_eq(sb_assoc_tree_rollup(t), 0);
	CHECK_OK(t);
#define USAGE(id, want, given) do { \
		ck_assert_int_eq(sb_assoc_tree_get(t, (id), &in), 0); \
		ck_assert(in.usage_raw == (want)); \
		ck_assert_int_eq(in.usage_given, (given)); \
	} while (0)
	USAGE(a, 100, 1);
	USAGE(b, 5, 0);
	USAGE(d, 3, 0);
	USAGE(c, 7, 1);
	USAGE(0, 112, 0);
	/* a user's change reaches the sums that are not given */
	ck_assert_int_eq(sb_assoc_tree_set_usage(t, u3, 9), 0);
	ck_assert_int_eq(sb_assoc_tree_rollup(t), 0);
	CHECK_OK(t);
	USAGE(b, 9, 0);
	USAGE(0, 116, 0);
	ck_assert_int_eq(sb_assoc_tree_set_usage(t, 0, 500), 0);
	ck_assert_int_eq(sb_assoc_tree_set_usage(t, b, 9), 0);
	ck_assert_int_eq(sb_assoc_tree_set_usage(t, d, 3), 0);
	ck_assert_int_eq(sb_assoc_tree_rollup(t), 0);
	CHECK_OK(t);
	USAGE(0, 500, 1);
#undef USAGE
	sb_assoc_tree_destroy(t);
}
END_TEST

/* fs parents skip 'parent' accounts; level shares ignore 'parent' ones. */
START_TEST(test_fs_layout)
{
	sb_assoc_tree_t *t = sb_assoc_tree_create();
	sb_assoc_info_t i;
	int a, p1, p2, u1, u2, u3, b;

	a = sb_assoc_tree_add_account(t, 0, "a", 50);
	b = sb_assoc_tree_add_account(t, 0, "b", 30);
	p1 = sb_assoc_tree_add_account(t, a, "p1", SB_SHARES_PARENT);
	p2 = sb_assoc_tree_add_account(t, p1, "p2", SB_SHARES_PARENT);
	u1 = sb_assoc_tree_add_user(t, p2, "u1", 7, 10);
	u2 = sb_assoc_tree_add_user(t, p1, "u2", SB_SHARES_PARENT, 20);
	u3 = sb_assoc_tree_add_user(t, a, "u3", 3, 30.5L);
	CHECK_OK(t);
	ck_assert_int_eq(sb_assoc_tree_rollup(t), 0);
	CHECK_OK(t);
	sb_assoc_tree_get(t, u1, &i);
	ck_assert_int_eq(i.fs_parent, a);
	ck_assert_int_eq(i.parent, p2);
	ck_assert_int_eq(i.depth, 4);
	ck_assert_uint_eq(i.level_shares, 10);
	ck_assert_str_eq(i.account, "p2");
	sb_assoc_tree_get(t, u2, &i);
	ck_assert_int_eq(i.fs_parent, a);
	sb_assoc_tree_get(t, p2, &i);
	ck_assert_int_eq(i.fs_parent, a);
	ck_assert(i.usage_raw == 10);
	sb_assoc_tree_get(t, p1, &i);
	ck_assert(i.usage_raw == 30);
	sb_assoc_tree_get(t, a, &i);
	ck_assert(i.usage_raw == 60.5L);
	ck_assert_uint_eq(i.level_shares, 80);
	sb_assoc_tree_get(t, b, &i);
	ck_assert_uint_eq(i.level_shares, 80);
	sb_assoc_tree_get(t, 0, &i);
	ck_assert(i.usage_raw == 60.5L);
	/* Direct children keep insertion order. */
	ck_assert_int_eq(sb_assoc_tree_first_child(t, a), p1);
	ck_assert_int_eq(sb_assoc_tree_next_sibling(t, p1), u3);
	/* Usage changes show after the next roll-up. */
	ck_assert_int_eq(sb_assoc_tree_set_usage(t, u3, 0.5L), 0);
	CHECK_OK(t);
	ck_assert_int_eq(sb_assoc_tree_rollup(t), 0);
	sb_assoc_tree_get(t, 0, &i);
	ck_assert(i.usage_raw == 30.5L);
	CHECK_OK(t);
	sb_assoc_tree_destroy(t);
}
END_TEST

/* Slurm sums level shares in 32 bits; we refuse instead of wrapping. */
START_TEST(test_level_shares_overflow)
{
	sb_assoc_tree_t *t = sb_assoc_tree_create();
	sb_assoc_info_t i;

	sb_assoc_tree_add_account(t, 0, "a", SB_SHARES_MAX);
	sb_assoc_tree_add_account(t, 0, "b", SB_SHARES_MAX);
	ck_assert_int_eq(sb_assoc_tree_rollup(t), 0);
	sb_assoc_tree_get(t, 1, &i);
	ck_assert_uint_eq(i.level_shares, 2u * SB_SHARES_MAX);
	sb_assoc_tree_add_account(t, 0, "c", 3);
	ck_assert_int_eq(sb_assoc_tree_rollup(t), 0);
	sb_assoc_tree_add_account(t, 0, "d", 1);
	errno = 0;
	ck_assert_int_eq(sb_assoc_tree_rollup(t), -1);
	ck_assert_int_eq(errno, ERANGE);
	CHECK_OK(t);
	sb_assoc_tree_destroy(t);
}
END_TEST

START_TEST(test_check_detects)
{
	sb_assoc_tree_t *t = sb_assoc_tree_create();
	int a = sb_assoc_tree_add_account(t, 0, "a", 1);

	sb_assoc_tree_add_user(t, a, "u", 1, 3);
	ck_assert_int_eq(sb_assoc_tree_rollup(t), 0);
	CHECK_OK(t);
	t->usage[a] = 4;		/* a wrong sum */
	errno = 0;
	ck_assert_int_eq(sb_assoc_tree_check(t), -1);
	ck_assert_int_eq(errno, EFAULT);
	t->usage[a] = 3;
	CHECK_OK(t);
	t->fs_parent[2] = 0;		/* a wrong fs parent */
	ck_assert_int_eq(sb_assoc_tree_check(t), -1);
	t->fs_parent[2] = a;
	t->n_users = 2;			/* a wrong count */
	ck_assert_int_eq(sb_assoc_tree_check(t), -1);
	t->n_users = 1;
	CHECK_OK(t);
	errno = 0;
	ck_assert_int_eq(sb_assoc_tree_check(NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	sb_assoc_tree_destroy(t);
}
END_TEST

/* Brute-force oracle: subtree sums by recursion over direct children. */
static long double _subtree(const sb_assoc_tree_t *t, int id)
{
	sb_assoc_info_t i;
	long double s = 0;
	int c;

	sb_assoc_tree_get(t, id, &i);
	if (i.usage_given)
		return i.usage_raw;
	for (c = sb_assoc_tree_first_child(t, id); c >= 0;
	     c = sb_assoc_tree_next_sibling(t, c))
		s += _subtree(t, c);
	return s;
}

START_TEST(test_random_trees)
{
	sb_test_rng_t r;
	int round;

	sb_test_rng_seed(&r, 0x5eed0006);
	for (round = 0; round < 40; round++) {
		sb_assoc_tree_t *t = sb_assoc_tree_create();
		int accounts[64], na = 1, i, steps = 20 + round * 5;

		accounts[0] = 0;
		for (i = 0; i < steps; i++) {
			char name[32];
			int p = accounts[sb_test_rng_below(&r, (uint64_t) na)];
			uint32_t sh = sb_test_rng_below(&r, 5) == 0
				? SB_SHARES_PARENT
				: (uint32_t) sb_test_rng_range(&r, 0, 100);
			int id;

			if (na < 64 && sb_test_rng_below(&r, 3) == 0) {
				snprintf(name, sizeof(name), "a%d", i);
				id = sb_assoc_tree_add_account(t, p, name, sh);
				ck_assert_int_ge(id, 0);
				accounts[na++] = id;
			} else if (sb_test_rng_below(&r, 6) == 0) {
				/* an account (or root) given Slurm's usage */
				ck_assert_int_eq(sb_assoc_tree_set_usage(
					t, p, (long double) sb_test_rng_range(
						&r, 0, 5000)), 0);
			} else {
				snprintf(name, sizeof(name), "u%d", i);
				id = sb_assoc_tree_add_user(
					t, p, name, sh,
					(long double) sb_test_rng_range(&r, 0,
									1000));
				ck_assert_int_ge(id, 0);
			}
			CHECK_OK(t);
			if (sb_test_rng_below(&r, 4) == 0) {
				ck_assert_int_eq(sb_assoc_tree_rollup(t), 0);
				CHECK_OK(t);
			}
		}
		ck_assert_int_eq(sb_assoc_tree_rollup(t), 0);
		CHECK_OK(t);
		for (i = 0; i < sb_assoc_tree_count(t); i++) {
			sb_assoc_info_t in;

			sb_assoc_tree_get(t, i, &in);
			/* Integer usage: any summation order is exact. */
			ck_assert(in.usage_raw == _subtree(t, i));
		}
		sb_assoc_tree_destroy(t);
	}
}
END_TEST

static Suite *_suite(void)
{
	Suite *s = suite_create("assoc_tree");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_create_root);
	tcase_add_test(tc, test_add_errors);
	tcase_add_test(tc, test_given_usage);
	tcase_add_test(tc, test_fs_layout);
	tcase_add_test(tc, test_level_shares_overflow);
	tcase_add_test(tc, test_check_detects);
	tcase_add_test(tc, test_random_trees);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return sb_test_run(_suite());
}
