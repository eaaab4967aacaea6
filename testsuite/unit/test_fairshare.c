/*
 * test_fairshare.c - unit tests of LEVEL_BASED, Fair Tree and classic.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Expected numbers come from Slurm's own tests (testsuite/expect/test24.1,
 * test24.3, test24.4 at 22.05 and test24.4 at d4ae6722784c for
 * LEVEL_BASED), see testsuite/golden/fairshare/README.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assoc_tree.h"
#include "fairshare.h"
#include "fairshare_classic.h"
#include "fairshare_level.h"
#include "fairshare_tree.h"
#include "sb_test.h"

#define P SB_SHARES_PARENT

struct row {
	const char *acct, *parent, *user;
	uint32_t shares;
	long double usage;
};

static sb_assoc_tree_t *_build(const struct row *r, size_t n)
{
	sb_assoc_tree_t *t = sb_assoc_tree_create();
	size_t i;

	ck_assert_ptr_nonnull(t);
	for (i = 0; i < n; i++) {
		int id;

		if (!r[i].user) {
			int p = r[i].parent ?
				sb_assoc_tree_find_account(t, r[i].parent) : 0;

			id = sb_assoc_tree_add_account(t, p, r[i].acct,
						       r[i].shares);
		} else {
			int a = sb_assoc_tree_find_account(t, r[i].acct);

			id = sb_assoc_tree_add_user(t, a, r[i].user,
						    r[i].shares, r[i].usage);
		}
		ck_assert_int_ge(id, 0);
	}
	ck_assert_int_eq(sb_assoc_tree_check(t), 0);
	return t;
}

static int _user(const sb_assoc_tree_t *t, const char *acct, const char *u)
{
	int a = sb_assoc_tree_find_account(t, acct);
	int id = sb_assoc_tree_find_user(t, a, u);

	ck_assert_int_ge(id, 0);
	return id;
}

static sb_assoc_info_t _get(const sb_assoc_tree_t *t, int id)
{
	sb_assoc_info_t i;

	ck_assert_int_eq(sb_assoc_tree_get(t, id, &i), 0);
	return i;
}

/* sshare prints %f: compare the way users see the numbers. */
static void _is6(double v, const char *want)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%f", v);
	ck_assert_str_eq(buf, want);
}

/* ---- Fair Tree: Slurm 22.05 test24.4 ------------------------------------ */

static const struct row ft_tree[] = {
	{ "aA", NULL, NULL, 40, 0 },
	{ "aAA", "aA", NULL, 30, 0 },
	{ "aAA", NULL, "uAA1", 1, 20 },
	{ "aAB", "aA", NULL, 10, 0 },
	{ "aAB", NULL, "uAB1", 1, 25 },
	{ "aAB", NULL, "uAB2", 1, 0 },
	{ "aB", NULL, NULL, 60, 0 },
	{ "aBA", "aB", NULL, 25, 0 },
	{ "aBA", NULL, "uBA1", 1, 25 },
	{ "aBB", "aB", NULL, 35, 0 },
	{ "aBB", NULL, "uBB1", 1, 0 },
	{ "aC", NULL, NULL, 0, 0 },
	{ "aC", NULL, "uC1", 0, 30 },
	{ "aD", NULL, NULL, 50, 0 },
	{ "aDA", "aD", NULL, P, 0 },
	{ "aDA", NULL, "uDA1", P, 10 },
	{ "aDA", NULL, "uDA2", 30, 10 },
	{ "aDA", NULL, "uDA3", 50, 25 },
	{ "aD", NULL, "uD1", P, 20 },
	{ "aD", NULL, "uD2", 40, 20 },
	{ "aD", NULL, "uD3", 50, 25 },
	{ "aE", NULL, NULL, 10, 0 },
	{ "aE", NULL, "aE1", 10, 0 },
	{ "aE", NULL, "aE2", 10, 0 },
	{ "root", NULL, "u1", 10, 0 },
	{ "aF", NULL, NULL, 20, 0 },
	{ "aF", NULL, "uF1", 10, 0 },
	{ "aF", NULL, "uF2", 20, 0 },
	{ "aG", NULL, NULL, 8, 0 },
	{ "aG", NULL, "uG1", 10, 10 },
	{ "aGA", "aG", NULL, 10, 0 },
	{ "aGA", NULL, "uGA1", 20, 4 },
	{ "aGA", NULL, "uGA2", 20, 6 },
	{ "root", NULL, "u2", 10, 10 },
};

/* Account, user, NormShares, EffectvUsage, FairShare, LevelFS ("" =
 * blank): test24.4's expected lines, minus the columns we do not print. */
static const char *const ft_expect[][6] = {
	{ "root", "u1", "0.048077", "0.000000", "1.000000", "inf" },
	{ "root", "u2", "0.048077", "0.041667", "0.666667", "1.153846" },
	{ "aA", NULL, "0.192308", "0.187500", "", "1.025641" },
	{ "aAA", NULL, "0.750000", "0.444444", "", "1.687500" },
	{ "aAA", "uAA1", "1.000000", "1.000000", "0.619048", "1.000000" },
	{ "aAB", NULL, "0.250000", "0.555556", "", "0.450000" },
	{ "aAB", "uAB1", "0.500000", "1.000000", "0.523810", "0.500000" },
	{ "aAB", "uAB2", "0.500000", "0.000000", "0.571429", "inf" },
	{ "aB", NULL, "0.288462", "0.104167", "", "2.769231" },
	{ "aBA", NULL, "0.416667", "1.000000", "", "0.416667" },
	{ "aBA", "uBA1", "1.000000", "1.000000", "0.714286", "1.000000" },
	{ "aBB", NULL, "0.583333", "0.000000", "", "inf" },
	{ "aBB", "uBB1", "1.000000", "0.000000", "0.761905", "inf" },
	{ "aC", NULL, "0.000000", "0.125000", "", "0.000000" },
	{ "aC", "uC1", "0.000000", "1.000000", "0.047619", "0.000000" },
	{ "aD", NULL, "0.240385", "0.458333", "", "0.524476" },
	{ "aD", "uD1", "0.240385", "0.181818", "0.476190", "" },
	{ "aD", "uD2", "0.235294", "0.181818", "0.238095", "1.294118" },
	{ "aD", "uD3", "0.294118", "0.227273", "0.333333", "1.294118" },
	{ "aDA", NULL, "0.240385", "0.409091", "", "" },
	{ "aDA", "uDA1", "0.240385", "0.090909", "0.476190", "" },
	{ "aDA", "uDA2", "0.176471", "0.090909", "0.380952", "1.941176" },
	{ "aDA", "uDA3", "0.294118", "0.227273", "0.333333", "1.294118" },
	{ "aE", NULL, "0.048077", "0.000000", "", "inf" },
	{ "aE", "aE1", "0.500000", "0.000000", "1.000000", "inf" },
	{ "aE", "aE2", "0.500000", "0.000000", "1.000000", "inf" },
	{ "aF", NULL, "0.096154", "0.000000", "", "inf" },
	{ "aF", "uF1", "0.333333", "0.000000", "1.000000", "inf" },
	{ "aF", "uF2", "0.666667", "0.000000", "1.000000", "inf" },
	{ "aG", NULL, "0.038462", "0.083333", "", "0.461538" },
	{ "aG", "uG1", "0.500000", "0.500000", "0.190476", "1.000000" },
	{ "aGA", NULL, "0.500000", "0.500000", "", "1.000000" },
	{ "aGA", "uGA1", "0.500000", "0.400000", "0.190476", "1.250000" },
	{ "aGA", "uGA2", "0.500000", "0.600000", "0.095238", "0.833333" },
};

START_TEST(test_fair_tree_test24_4)
{
	sb_assoc_tree_t *t = _build(ft_tree, sizeof(ft_tree) /
				    sizeof(ft_tree[0]));
	size_t i;

	ck_assert_int_eq(sb_fairshare_tree_compute(t), 0);
	ck_assert_int_eq(sb_fairshare_tree_check(t), 0);
	ck_assert_int_eq(sb_assoc_tree_algorithm(t), SB_FS_FAIR_TREE);
	for (i = 0; i < sizeof(ft_expect) / sizeof(ft_expect[0]); i++) {
		const char *const *e = ft_expect[i];
		int id = e[1] ? _user(t, e[0], e[1])
			      : sb_assoc_tree_find_account(t, e[0]);
		sb_assoc_info_t a = _get(t, id);

		_is6(a.shares_norm, e[2]);
		_is6((double) a.usage_efctv, e[3]);
		if (*e[4])
			_is6(a.fs_factor, e[4]);
		if (*e[5])
			_is6((double) a.level_fs, e[5]);
		else
			ck_assert(a.shares == SB_SHARES_PARENT);
	}
	/* The notes of test24.4: exact ties, and what is not a tie. */
	ck_assert(_get(t, _user(t, "aD", "uD3")).level_fs ==
		  _get(t, _user(t, "aDA", "uDA3")).level_fs);
	ck_assert(_get(t, _user(t, "aD", "uD2")).level_fs !=
		  _get(t, _user(t, "aD", "uD3")).level_fs);
	ck_assert(_get(t, _user(t, "aGA", "uGA1")).fs_factor ==
		  _get(t, _user(t, "aG", "uG1")).fs_factor);
	ck_assert(_get(t, _user(t, "root", "u1")).fs_factor == 1.0);
	ck_assert(_get(t, _user(t, "aE", "aE2")).fs_factor == 1.0);
	ck_assert(_get(t, _user(t, "aF", "uF2")).fs_factor == 1.0);
	ck_assert(_get(t, 0).level_fs == SB_FS_NO_VAL);
	/* A second pass over the same tree gives the same answer. */
	ck_assert_int_eq(sb_fairshare_tree_compute(t), 0);
	ck_assert_int_eq(sb_fairshare_tree_check(t), 0);
	_is6(_get(t, _user(t, "aGA", "uGA2")).fs_factor, "0.095238");
	sb_assoc_tree_destroy(t);
}
END_TEST

/* The one algorithm switch: each algorithm by its number, others refused. */
START_TEST(test_compute_switch)
{
	sb_assoc_tree_t *t = _build(ft_tree, sizeof(ft_tree) /
				    sizeof(ft_tree[0]));

	ck_assert_int_eq(sb_fairshare_compute(t, SB_FS_FAIR_TREE, 0, 0), 0);
	ck_assert_int_eq(sb_assoc_tree_algorithm(t), SB_FS_FAIR_TREE);
	ck_assert_int_eq(sb_fairshare_compute(t, SB_FS_LEVEL_BASED, 4, 0), 0);
	ck_assert_int_eq(sb_assoc_tree_algorithm(t), SB_FS_LEVEL_BASED);
	ck_assert_int_eq(sb_fairshare_level_check(t), 0);
	ck_assert_int_eq(sb_fairshare_compute(t, SB_FS_CLASSIC, 0, 0), 0);
	ck_assert_int_eq(sb_assoc_tree_algorithm(t), SB_FS_CLASSIC);
	ck_assert_int_eq(sb_fairshare_classic_check(t), 0);
	errno = 0;
	ck_assert_int_eq(sb_fairshare_compute(t, SB_FS_NONE, 4, 1), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_fairshare_compute(t, 99, 4, 1), -1);
	sb_assoc_tree_destroy(t);
}
END_TEST

/* B.3 point 4: tied sibling accounts are not merged; the second one's
 * first user re-uses the rank of the last user ranked in the first. */
START_TEST(test_fair_tree_tied_accounts)
{
	static const struct row r[] = {
		{ "A", NULL, NULL, 10, 0 },
		{ "A", NULL, "a1", 1, 10 },
		{ "A", NULL, "a2", 1, 30 },
		{ "B", NULL, NULL, 10, 0 },
		{ "B", NULL, "b1", 1, 10 },
		{ "B", NULL, "b2", 1, 30 },
	};
	sb_assoc_tree_t *t = _build(r, 6);

	ck_assert_int_eq(sb_fairshare_tree_compute(t), 0);
	ck_assert_int_eq(sb_fairshare_tree_check(t), 0);
	ck_assert(_get(t, _user(t, "A", "a1")).fs_factor == 1.0);
	ck_assert(_get(t, _user(t, "A", "a2")).fs_factor == 0.75);
	ck_assert(_get(t, _user(t, "B", "b1")).fs_factor == 0.75);
	ck_assert(_get(t, _user(t, "B", "b2")).fs_factor == 0.25);
	sb_assoc_tree_destroy(t);
}
END_TEST

/* ---- LEVEL_BASED: test24.4 at d4ae6722784c --------------------------- */

static const struct row lb_tree[] = {
	{ "AccountA", NULL, NULL, 40, 0 },
	{ "AccountB", "AccountA", NULL, 30, 0 },
	{ "AccountB", NULL, "User1", 1, 20 },
	{ "AccountC", "AccountA", NULL, 10, 0 },
	{ "AccountC", NULL, "User2", 1, 25 },
	{ "AccountC", NULL, "User3", 1, 0 },
	{ "AccountD", NULL, NULL, 60, 0 },
	{ "AccountE", "AccountD", NULL, 25, 0 },
	{ "AccountE", NULL, "User4", 1, 25 },
	{ "AccountF", "AccountD", NULL, 35, 0 },
	{ "AccountF", NULL, "User5", 1, 0 },
	{ "AccountG", NULL, NULL, 0, 0 },
	{ "AccountG", NULL, "User6", 0, 30 },
	{ "AccountH", NULL, NULL, 50, 0 },
	{ "AccountHTA", "AccountH", NULL, P, 0 },
	{ "AccountHTA", NULL, "UHTAStd1", P, 10 },
	{ "AccountHTA", NULL, "UHTAStd2", 30, 10 },
	{ "AccountHTA", NULL, "UHTAStd3", 50, 25 },
	{ "AccountH", NULL, "UHRA1", P, 20 },
	{ "AccountH", NULL, "UHRA2", 40, 20 },
	{ "AccountH", NULL, "UHRA3", 50, 25 },
};

static const struct {
	const char *acct, *user;
	uint64_t raw;
	const char *factor;
} lb_expect[] = {
	{ "AccountA", NULL, 0xA564000000000000ULL, NULL },
	{ "AccountB", NULL, 0xA564AC0700000000ULL, NULL },
	{ "AccountB", "User1", 0xA564AC0780000000ULL, "0.750000" },
	{ "AccountC", NULL, 0xA5644E4800000000ULL, NULL },
	{ "AccountC", "User2", 0xA5644E4848990000ULL, "0.583333" },
	{ "AccountC", "User3", 0xA5644E48FFFF0000ULL, "0.666667" },
	{ "AccountD", NULL, 0xD5F5000000000000ULL, NULL },
	{ "AccountE", NULL, 0xD5F53B7F00000000ULL, NULL },
	{ "AccountE", "User4", 0xD5F53B7F80000000ULL, "0.833333" },
	{ "AccountF", NULL, 0xD5F5FFFF00000000ULL, NULL },
	{ "AccountF", "User5", 0xD5F5FFFFFFFF0000ULL, "0.916667" },
	/* 0 shares: 0 at their level, last (the 2014 code: FFFF, first) */
	{ "AccountG", NULL, 0x0000000000000000ULL, NULL },
	{ "AccountG", "User6", 0x0000000000000000ULL, "0.000000" },
	{ "AccountH", NULL, 0x6748000000000000ULL, NULL },
	{ "AccountH", "UHRA1", 0x6748FFFF00000000ULL, "0.500000" },
	{ "AccountHTA", "UHTAStd1", 0x6748FFFF00000000ULL, "0.500000" },
	{ "AccountHTA", "UHTAStd2", 0x6748C8AD00000000ULL, "0.333333" },
	{ "AccountH", "UHRA2", 0x6748AAE000000000ULL, "0.250000" },
	{ "AccountH", "UHRA3", 0x6748A63400000000ULL, "0.166667" },
	{ "AccountHTA", "UHTAStd3", 0x6748A63400000000ULL, "0.166667" },
};

START_TEST(test_level_based_test24_4)
{
	sb_assoc_tree_t *t = _build(lb_tree, sizeof(lb_tree) /
				    sizeof(lb_tree[0]));
	size_t i;

	ck_assert_int_eq(sb_fairshare_level_compute(t, 4), 0);
	ck_assert_int_eq(sb_fairshare_level_check(t), 0);
	for (i = 0; i < sizeof(lb_expect) / sizeof(lb_expect[0]); i++) {
		int id = lb_expect[i].user
			? _user(t, lb_expect[i].acct, lb_expect[i].user)
			: sb_assoc_tree_find_account(t, lb_expect[i].acct);
		sb_assoc_info_t a = _get(t, id);

		ck_assert_uint_eq(a.fs_raw, lb_expect[i].raw);
		if (lb_expect[i].factor)
			_is6(a.fs_factor, lb_expect[i].factor);
	}
	_is6(_get(t, sb_assoc_tree_find_account(t, "AccountA")).shares_norm,
	     "0.266667");
	_is6(_get(t, _user(t, "AccountH", "UHRA2")).shares_norm, "0.235294");
	_is6(_get(t, _user(t, "AccountHTA", "UHTAStd2")).shares_norm,
	     "0.176471");
	/* The 'parent' account adds nothing: same raw as its parent. */
	ck_assert_uint_eq(_get(t, sb_assoc_tree_find_account(t, "AccountHTA"))
			  .fs_raw, 0x6748000000000000ULL);
	sb_assoc_tree_destroy(t);
}
END_TEST

START_TEST(test_level_compose)
{
	const uint64_t v[4] = { 0xAAAA, 0x1234, 0x7777, 0xCCCC };
	const uint64_t big[4] = { 0x10000, 0, 0, 0 };
	const uint64_t three[3] = { 1, 2, 3 };
	uint64_t out = 42;

	ck_assert_int_eq(sb_fairshare_level_compose(4, v, &out), 0);
	ck_assert_uint_eq(out, 0xAAAA12347777CCCCULL);
	errno = 0;
	ck_assert_int_eq(sb_fairshare_level_compose(4, big, &out), -1);
	ck_assert_int_eq(errno, ERANGE);
	ck_assert_uint_eq(out, 0xAAAA12347777CCCCULL);
	ck_assert_int_eq(sb_fairshare_level_compose(0, v, &out), -1);
	ck_assert_int_eq(sb_fairshare_level_compose(17, v, &out), -1);
	ck_assert_int_eq(sb_fairshare_level_compose(4, NULL, &out), -1);
	/* 3 levels: 21-bit buckets above one unused low bit. */
	ck_assert_int_eq(sb_fairshare_level_compose(3, three, &out), 0);
	ck_assert_uint_eq(out, (1ULL << 43) | (2ULL << 22) | (3ULL << 1));
	ck_assert_int_eq(sb_fairshare_level_shift(4, 0), 48);
	ck_assert_int_eq(sb_fairshare_level_shift(4, 3), 0);
	ck_assert_int_eq(sb_fairshare_level_shift(3, 2), 1);
	ck_assert_int_eq(sb_fairshare_level_shift(1, 0), 0);
	ck_assert_int_eq(sb_fairshare_level_shift(16, 15), 0);
	ck_assert_int_eq(sb_fairshare_level_shift(4, 4), -1);
}
END_TEST

START_TEST(test_level_value)
{
	/* F = 1 at no usage; no shares give 0, below any usage. */
	ck_assert_uint_eq(sb_fairshare_level_value(0, 0.5, 4), 0xFFFF);
	ck_assert_uint_eq(sb_fairshare_level_value(0.7L, 0.0, 4), 0);
	ck_assert_uint_eq(sb_fairshare_level_value(0, 0.0, 4), 0);
	/* U = S' = 1: F = 1/2, 1 + 0.5 * 65534 = 0x8000. */
	ck_assert_uint_eq(sb_fairshare_level_value(1, 1.0, 4), 0x8000);
	ck_assert_uint_eq(sb_fairshare_level_value(1, 1.0, 1),
			  0x8000000000000000ULL);
	ck_assert_uint_eq(sb_fairshare_level_value(0, 1.0, 1), UINT64_MAX);
	/* Never 0 with shares, however large the ratio. */
	ck_assert_uint_eq(sb_fairshare_level_value(1e6L, 0.1, 16), 1);
	errno = 0;
	ck_assert_uint_eq(sb_fairshare_level_value(-1, 0.5, 4), 0);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_uint_eq(sb_fairshare_level_value(1, 0.5, 0), 0);
	ck_assert_int_eq(sb_fairshare_level_compute(NULL, 4), -1);
}
END_TEST

/*
 * 0 shares rank last under LEVEL_BASED, as under Fair Tree and classic,
 * whatever the usage: a 0-share account's users rank below every user of
 * its siblings, a 0-share user below its siblings (issue 15).
 */
START_TEST(test_level_based_zero_shares)
{
	static const struct row tree[] = {
		{ "busy", NULL, NULL, 10, 0 },
		{ "busy", NULL, "b1", 1, 900 },
		{ "busy", NULL, "b2", 1, 50 },
		{ "zero", NULL, NULL, 0, 0 },
		{ "zero", NULL, "z1", 1, 1 },
		{ "zero", NULL, "z2", 1, 0 },
		{ "idle", NULL, NULL, 10, 0 },
		{ "idle", NULL, "i1", 0, 0 },
		{ "idle", NULL, "i2", 1, 5 },
	};
	sb_assoc_tree_t *t = _build(tree, sizeof(tree) / sizeof(tree[0]));
	const char *zero_users[] = { "z1", "z2" };
	int levels, k;

	for (levels = 1; levels <= 4; levels++) {
		sb_assoc_info_t z, i1, i2;

		ck_assert_int_eq(sb_fairshare_level_compute(t, levels), 0);
		ck_assert_int_eq(sb_fairshare_level_check(t), 0);
		/* the 0-share account's own bucket is 0: LevelFS 0 */
		ck_assert_uint_eq(_get(t, sb_assoc_tree_find_account(t, "zero"))
				  .fs_raw, 0);
		for (k = 0; k < 2; k++) {
			z = _get(t, _user(t, "zero", zero_users[k]));
			ck_assert_uint_lt(z.rank, _get(t, _user(t, "busy",
							  "b1")).rank);
			ck_assert_uint_lt(z.rank, _get(t, _user(t, "idle",
							  "i1")).rank);
		}
		/* below the last level a user adds no bits of its own */
		if (levels < 2)
			continue;
		i1 = _get(t, _user(t, "idle", "i1"));
		i2 = _get(t, _user(t, "idle", "i2"));
		ck_assert_uint_lt(i1.rank, i2.rank);
	}
	sb_assoc_tree_destroy(t);
}
END_TEST

/*
 * Slurm keeps a deleted user's usage in its account and every ancestor.
 * The reproducer: a and b (50 shares each, next to root's own
 * user with 1), usage a/u1 40000, b/u2 10000, b/u3 50000, then u3 is
 * deleted. multifactor's sshare: b RawUsage 60000, EffectvUsage 0.600000,
 * LevelFS 0.825083; u1 FairShare 0.666667, u2 0.333333.
 */
START_TEST(test_deleted_user_usage)
{
	static const struct row tree[] = {
		{ "root", NULL, "root", 1, 0 },
		{ "a", NULL, NULL, 50, 0 },
		{ "a", NULL, "u1", 1, 40000 },
		{ "b", NULL, NULL, 50, 0 },
		{ "b", NULL, "u2", 1, 10000 },
	};
	sb_assoc_tree_t *t = _build(tree, sizeof(tree) / sizeof(tree[0]));
	int b = sb_assoc_tree_find_account(t, "b");
	sb_assoc_info_t ib;

	/* what slurmctld keeps on each association after the deletion */
	ck_assert_int_eq(sb_assoc_tree_set_usage(t, SB_ASSOC_ROOT, 100000), 0);
	ck_assert_int_eq(sb_assoc_tree_set_usage(
		t, sb_assoc_tree_find_account(t, "a"), 40000), 0);
	ck_assert_int_eq(sb_assoc_tree_set_usage(t, b, 60000), 0);
	ck_assert_int_eq(sb_fairshare_tree_compute(t), 0);
	ck_assert_int_eq(sb_fairshare_tree_check(t), 0);
	ib = _get(t, b);
	ck_assert(ib.usage_raw == 60000);
	_is6((double) ib.usage_efctv, "0.600000");
	_is6((double) ib.level_fs, "0.825083");
	_is6(_get(t, _user(t, "a", "u1")).fs_factor, "0.666667");
	_is6(_get(t, _user(t, "b", "u2")).fs_factor, "0.333333");
	/* classic: UE of b = its usage over root's (a top-level account) */
	ck_assert_int_eq(sb_fairshare_classic_compute(t, 1), 0);
	ck_assert_int_eq(sb_fairshare_classic_check(t), 0);
	_is6((double) _get(t, b).usage_efctv, "0.600000");
	/* level_based: b's U is 0.6 too */
	ck_assert_int_eq(sb_fairshare_level_compute(t, 4), 0);
	ck_assert_int_eq(sb_fairshare_level_check(t), 0);
	_is6((double) _get(t, b).usage_efctv, "0.600000");
	sb_assoc_tree_destroy(t);
}
END_TEST

/*
 * A pass computes level values with doubles and falls back on the long
 * double arithmetic near integers; the checker recomputes every value the
 * long double way. Fractional usage everywhere, 16- to 32-bit buckets
 * (the widest buckets fall back most often).
 */
START_TEST(test_level_based_fast_values)
{
	sb_test_rng_t r;
	sb_assoc_tree_t *t = sb_assoc_tree_create();
	int a, b, u, levels;

	sb_test_rng_seed(&r, 0xFA57EEDULL);
	for (a = 0; a < 30; a++) {
		char name[32];
		int acct;

		snprintf(name, sizeof(name), "a%d", a);
		acct = sb_assoc_tree_add_account(
			t, 0, name, (uint32_t) sb_test_rng_range(&r, 1, 1000));
		for (b = 0; b < 6; b++) {
			int sub;

			snprintf(name, sizeof(name), "a%d_%d", a, b);
			sub = sb_assoc_tree_add_account(
				t, acct, name,
				(uint32_t) sb_test_rng_range(&r, 1, 1000));
			for (u = 0; u < 60; u++) {
				long double use = (long double)
					sb_test_rng_range(&r, 0, 1000000) +
					(long double) sb_test_rng_below(&r, 1000)
					/ 997.0L;

				snprintf(name, sizeof(name), "u%d", u);
				ck_assert_int_ge(sb_assoc_tree_add_user(
					t, sub, name, (uint32_t)
					sb_test_rng_range(&r, 1, 1000), use), 0);
			}
		}
	}
	for (levels = 2; levels <= 4; levels++) {
		ck_assert_int_eq(sb_fairshare_level_compute(t, levels), 0);
		ck_assert_int_eq(sb_fairshare_level_check(t), 0);
	}
	sb_assoc_tree_destroy(t);
}
END_TEST

/* ---- classic: test24.1 and test24.3 ------------------------------------ */

START_TEST(test_classic_test24_3)
{
	static const struct {
		const char *acct, *user, *norm, *eff, *fs;
	} e[] = {
		{ "AccountA", NULL, "0.266667", "0.214286", "0.572929" },
		{ "AccountB", NULL, "0.200000", "0.184524", "0.527550" },
		{ "AccountB", "User1", "0.200000", "0.184524", "0.527550" },
		{ "AccountC", NULL, "0.066667", "0.142857", "0.226431" },
		{ "AccountC", "User2", "0.033333", "0.130952", "0.065672" },
		{ "AccountC", "User3", "0.033333", "0.071429", "0.226431" },
		{ "AccountD", NULL, "0.400000", "0.119048", "0.813594" },
		{ "AccountE", NULL, "0.166667", "0.119048", "0.609507" },
		{ "AccountE", "User4", "0.166667", "0.119048", "0.609507" },
		{ "AccountF", NULL, "0.233333", "0.069444", "0.813594" },
		{ "AccountF", "User5", "0.233333", "0.069444", "0.813594" },
		{ "AccountG", NULL, "0.000000", "0.142857", "0.000000" },
		{ "AccountG", "User6", "0.000000", "0.142857", "0.000000" },
		{ "AccountH", NULL, "0.333333", "0.523810", "0.336475" },
		{ "AccountH", "UHRA1", "0.333333", "0.523810", "0.336475" },
		{ "AccountH", "UHRA2", "0.078431", "0.196078", "0.176777" },
		{ "AccountH", "UHRA3", "0.098039", "0.238095", "0.185749" },
		{ "AccountHTA", NULL, "0.333333", "0.523810", "0.336475" },
		{ "AccountHTA", "UHTAStd1", "0.333333", "0.523810",
		  "0.336475" },
		{ "AccountHTA", "UHTAStd2", "0.058824", "0.131653",
		  "0.211966" },
		{ "AccountHTA", "UHTAStd3", "0.098039", "0.238095",
		  "0.185749" },
	};
	sb_assoc_tree_t *t = _build(lb_tree, sizeof(lb_tree) /
				    sizeof(lb_tree[0]));
	sb_assoc_info_t root;
	size_t i;

	ck_assert_int_eq(sb_fairshare_classic_compute(t, 1), 0);
	ck_assert_int_eq(sb_fairshare_classic_check(t), 0);
	root = _get(t, 0);
	_is6(root.shares_norm, "1.000000");
	_is6((double) root.usage_efctv, "1.000000");
	_is6(root.fs_factor, "0.500000");
	for (i = 0; i < sizeof(e) / sizeof(e[0]); i++) {
		int id = e[i].user ? _user(t, e[i].acct, e[i].user)
				   : sb_assoc_tree_find_account(t, e[i].acct);
		sb_assoc_info_t a = _get(t, id);

		_is6(a.shares_norm, e[i].norm);
		_is6((double) a.usage_efctv, e[i].eff);
		_is6(a.fs_factor, e[i].fs);
	}
	ck_assert_int_eq(sb_fairshare_classic_compute(t, 0), -1);
	sb_assoc_tree_destroy(t);
}
END_TEST

START_TEST(test_classic_factor)
{
	/* test24.1: AccountB 2^(-0.3875 / 0.3) = 0.408479. */
	_is6(sb_fairshare_classic_factor(0.3875L, 0.3L, 1), "0.408479");
	ck_assert(sb_fairshare_classic_factor(0.5L, 0.0L, 1) == 0.0);
	ck_assert(sb_fairshare_classic_factor(0.5L, -1.0L, 1) == 0.0);
	ck_assert(sb_fairshare_classic_factor(0.0L, 0.1L, 1) == 1.0);
	/* Dampening 2 is the square root of dampening 1. */
	ck_assert(fabs(sb_fairshare_classic_factor(0.3L, 0.1L, 2) -
		       sqrt(sb_fairshare_classic_factor(0.3L, 0.1L, 1)))
		  < 1e-15);
}
END_TEST

/* ---- properties over fixed-seed random trees -------------------------- */

/* Random tree: accounts up to depth 4, some 'parent', usage from a small
 * set so that exact ties happen. */
static const long double coarse_usage[] = { 0, 0, 10, 20, 40, 7.5L, 100 };

static sb_assoc_tree_t *_random_tree_of(sb_test_rng_t *r, int size,
					const long double *usage, int nusage)
{
	sb_assoc_tree_t *t = sb_assoc_tree_create();
	int accounts[256], na = 1, i;

	accounts[0] = 0;
	for (i = 0; i < size; i++) {
		char name[32];
		int p = accounts[sb_test_rng_below(r, (uint64_t) na)];
		uint64_t roll = sb_test_rng_below(r, 12);
		uint32_t sh = roll == 0 ? P : roll == 1 ? 0 :
			(uint32_t) (1 + sb_test_rng_below(r, 4) * 10);
		sb_assoc_info_t pi;
		int id;

		sb_assoc_tree_get(t, p, &pi);
		if (na < 256 && pi.depth < 4 && sb_test_rng_below(r, 3) == 0) {
			snprintf(name, sizeof(name), "a%d", i);
			id = sb_assoc_tree_add_account(t, p, name, sh);
			accounts[na++] = id;
		} else {
			snprintf(name, sizeof(name), "u%d", i);
			id = sb_assoc_tree_add_user(
				t, p, name, sh,
				usage[sb_test_rng_below(r, (uint64_t) nusage)]);
		}
		ck_assert_int_ge(id, 0);
	}
	return t;
}

static sb_assoc_tree_t *_random_tree(sb_test_rng_t *r, int size)
{
	return _random_tree_of(r, size, coarse_usage, 7);
}

/* Is @anc an fs ancestor of (or equal to) @id? */
static int _under(const sb_assoc_tree_t *t, int id, int anc)
{
	for (; id >= 0; id = _get(t, id).fs_parent)
		if (id == anc)
			return 1;
	return 0;
}

/* The oracle for LEVEL_BASED's Level FS, from the raw values alone. */
static long double _own_level(const sb_assoc_tree_t *t,
			      const sb_assoc_info_t *a, int levels)
{
	int width = 64 / levels, unused = 64 % levels, bucket;
	uint64_t own = a->fs_raw & ~_get(t, a->fs_parent).fs_raw;
	uint64_t max = UINT64_MAX >> (64 - width);

	if (!own)
		return 0;
	bucket = (63 - __builtin_clzll(own) - unused) / width;
	return (long double) (own >> (bucket * width + unused)) /
		(long double) max;
}

START_TEST(test_level_based_properties)
{
	sb_test_rng_t r;
	int round;

	sb_test_rng_seed(&r, 0xFA125EEDULL);
	for (round = 0; round < 30; round++) {
		sb_assoc_tree_t *t = _random_tree(&r, 20 + round * 4);
		int levels = 1 + round % 6, n, x, y, users, u;

		ck_assert_int_eq(sb_fairshare_level_compute(t, levels), 0);
		ck_assert_int_eq(sb_fairshare_level_check(t), 0);
		n = sb_assoc_tree_count(t);
		users = sb_assoc_tree_users(t);
		for (u = 1; u < n; u++) {
			sb_assoc_info_t a = _get(t, u);
			sb_assoc_result_t res;

			if (a.is_user) {
				ck_assert(a.fs_factor >= 0.0 &&
					  a.fs_factor < 1.0);
				ck_assert_uint_lt(a.rank, (uint32_t) users);
			}
			/* Level FS: the bits this association adds to its fs
			 * parent's, as a fraction of the bucket maximum. */
			ck_assert(a.level_fs == _own_level(t, &a, levels));
			ck_assert_int_eq(sb_assoc_tree_get_result(t, u, &res),
					 0);
			ck_assert(res.is_user == a.is_user);
			ck_assert(res.shares_norm == a.shares_norm);
			ck_assert(res.usage_efctv == a.usage_efctv);
			ck_assert(res.level_fs == a.level_fs);
			ck_assert(res.fs_factor == a.fs_factor);
		}
		/* Sibling accounts: a higher level value outranks every
		 * user below the other. */
		for (x = 1; x < n; x++) {
			sb_assoc_info_t ax = _get(t, x), px;
			int shift;
			uint64_t mask;

			if (ax.is_user || ax.shares == P)
				continue;
			px = _get(t, ax.fs_parent);
			shift = sb_fairshare_level_shift(levels,
							  ax.depth - 1);
			/* Only accounts whose fs level is their depth (no
			 * 'parent' above) and within the levels. */
			if (shift < 0 || px.depth != ax.depth - 1)
				continue;
			mask = (UINT64_MAX >> (64 - 64 / levels)) << shift;
			for (y = 1; y < n; y++) {
				sb_assoc_info_t ay = _get(t, y);
				int i, j;

				if (y == x || ay.is_user || ay.shares == P ||
				    ay.fs_parent != ax.fs_parent ||
				    (ax.fs_raw & mask) <= (ay.fs_raw & mask))
					continue;
				for (i = 1; i < n; i++) {
					if (!_get(t, i).is_user ||
					    !_under(t, i, x))
						continue;
					for (j = 1; j < n; j++) {
						if (!_get(t, j).is_user ||
						    !_under(t, j, y))
							continue;
						ck_assert_uint_gt(
							_get(t, i).rank,
							_get(t, j).rank);
					}
				}
			}
		}
		sb_assoc_tree_destroy(t);
	}
}
END_TEST

/* Brute-force Fair Tree oracle: a plain recursive re-statement of the
 * rules over the public accessors, qsort with an explicit id tie-break. */
struct oracle {
	const sb_assoc_tree_t *t;
	uint32_t rank, rnt;
	uint32_t *out;
};

static const sb_assoc_tree_t *_ot;

static long double _olfs(int id)
{
	sb_assoc_info_t a = _get(_ot, id), p = _get(_ot, a.fs_parent);
	long double u = p.usage_raw ? a.usage_raw / p.usage_raw : 0.0L;
	double s = 0;

	if (a.shares == P)
		return a.is_user ? (long double) INFINITY : SB_FS_NO_VAL;
	if (a.level_shares)
		s = (double) a.shares / (double) a.level_shares;
	if (s == 0)
		return 0;
	return s / u;
}

static int _ocmp(const void *x, const void *y)
{
	int a = *(const int *) x, b = *(const int *) y;
	long double la = _olfs(a), lb = _olfs(b);
	int ua = _get(_ot, a).is_user, ub = _get(_ot, b).is_user;

	if (la != lb)
		return la > lb ? -1 : 1;
	if (ua != ub)
		return ua ? -1 : 1;
	return a - b;
}

static void _orank(struct oracle *o, int parent, int tied_in)
{
	int n = sb_assoc_tree_count(o->t), k = 0, i;
	int *v = malloc((size_t) n * sizeof(*v));
	long double prev = SB_FS_NO_VAL;

	for (i = 1; i < n; i++)
		if (_get(o->t, i).fs_parent == parent)
			v[k++] = i;
	qsort(v, (size_t) k, sizeof(*v), _ocmp);
	for (i = 0; i < k; i++) {
		long double l = _olfs(v[i]);
		int tied = (i == 0 && tied_in) || prev == l;

		if (_get(o->t, v[i]).is_user) {
			if (!tied)
				o->rank = o->rnt;
			o->out[v[i]] = o->rank;
			o->rnt--;
		} else {
			_orank(o, v[i], tied);
		}
		prev = l;
	}
	free(v);
}

/*
 * Usage values whose Level FS are equal as doubles but not as long
 * doubles, or differ only in a double's last bits: the sort compares cut
 * doubles and must order such siblings by the exact values.
 */
static const long double near_usage[] = {
	0, 1000, 1000 * (1 + 0x1p-55L), 1000 * (1 + 0x1p-45L),
	1000 * (1 + 0x1p-40L), 1000 * (1 + 0x1p-30L), 2000, 1000.0L / 3,
};

/* Root with two accounts and @size users spread over all three. */
static sb_assoc_tree_t *_wide_tree(sb_test_rng_t *r, int size)
{
	sb_assoc_tree_t *t = sb_assoc_tree_create();
	static const uint32_t sh[] = { 1, 2, 2, 0, P };
	int acct[3] = { 0 }, i;

	acct[1] = sb_assoc_tree_add_account(t, 0, "a", 3);
	acct[2] = sb_assoc_tree_add_account(t, 0, "b", 3);
	for (i = 0; i < size; i++) {
		char name[32];

		snprintf(name, sizeof(name), "u%d", i);
		ck_assert_int_ge(sb_assoc_tree_add_user(
			t, acct[sb_test_rng_below(r, 3)], name,
			sh[sb_test_rng_below(r, 5)],
			near_usage[sb_test_rng_below(r, sizeof(near_usage) /
						      sizeof(near_usage[0]))]),
				 0);
	}
	return t;
}

START_TEST(test_fair_tree_oracle)
{
	sb_test_rng_t r;
	int round;

	sb_test_rng_seed(&r, 0x7EE5EED5ULL);
	for (round = 0; round < 61; round++) {
		/* then near ties, and last one wide level of 1200 siblings
		 * (many position bits below the cut) */
		sb_assoc_tree_t *t = round < 30 ?
			_random_tree(&r, 15 + round * 4) : round < 60 ?
			_random_tree_of(&r, 40 + (round - 30) * 10, near_usage,
					(int) (sizeof(near_usage) /
					       sizeof(near_usage[0]))) :
			_wide_tree(&r, 1200);
		int n = sb_assoc_tree_count(t), users, i;
		uint32_t best = 0;
		struct oracle o;

		ck_assert_int_eq(sb_fairshare_tree_compute(t), 0);
		ck_assert_int_eq(sb_fairshare_tree_check(t), 0);
		users = sb_assoc_tree_users(t);
		o.t = t;
		o.rank = o.rnt = (uint32_t) users;
		o.out = calloc((size_t) n, sizeof(*o.out));
		_ot = t;
		_orank(&o, 0, 0);
		for (i = 1; i < n; i++) {
			sb_assoc_info_t a = _get(t, i);

			if (!a.is_user)
				continue;
			ck_assert_uint_eq(a.rank, o.out[i]);
			ck_assert(a.fs_factor > 0.0 && a.fs_factor <= 1.0);
			if (a.rank > best)
				best = a.rank;
		}
		if (users)
			ck_assert_uint_eq(best, (uint32_t) users);
		free(o.out);
		sb_assoc_tree_destroy(t);
	}
}
END_TEST

/* A wide tree: > 16384 users takes the 12-bit radix path of the ranking;
 * the checker ranks with qsort() and recomputes every value with powl(). */
START_TEST(test_level_based_wide)
{
	sb_test_rng_t r;
	sb_assoc_tree_t *t = sb_assoc_tree_create();
	int a, u, levels;

	sb_test_rng_seed(&r, 0x3105EEDULL);
	for (a = 0; a < 40; a++) {
		char name[32];
		int acct;

		snprintf(name, sizeof(name), "a%d", a);
		acct = sb_assoc_tree_add_account(t, 0, name,
						 1 + (uint32_t) (a % 7));
		for (u = 0; u < 450; u++) {
			snprintf(name, sizeof(name), "u%d", u);
			ck_assert_int_ge(sb_assoc_tree_add_user(
				t, acct, name,
				(uint32_t) sb_test_rng_range(&r, 1, 100),
				(long double) sb_test_rng_range(&r, 0, 50)),
				0);
		}
	}
	ck_assert_int_gt(sb_assoc_tree_users(t), 16384);
	for (levels = 1; levels <= 4; levels += 3) {
		ck_assert_int_eq(sb_fairshare_level_compute(t, levels), 0);
		ck_assert_int_eq(sb_fairshare_level_check(t), 0);
	}
	ck_assert_int_eq(sb_fairshare_tree_compute(t), 0);
	ck_assert_int_eq(sb_fairshare_tree_check(t), 0);
	sb_assoc_tree_destroy(t);
}
END_TEST

START_TEST(test_classic_properties)
{
	sb_test_rng_t r;
	int round;

	sb_test_rng_seed(&r, 0xC1A551CULL);
	for (round = 0; round < 20; round++) {
		sb_assoc_tree_t *t = _random_tree(&r, 30 + round * 3);
		uint32_t damp = 1 + (uint32_t) (round % 3);

		ck_assert_int_eq(sb_fairshare_classic_compute(t, damp), 0);
		ck_assert_int_eq(sb_fairshare_classic_check(t), 0);
		/* Switching algorithms on one tree is allowed. */
		ck_assert_int_eq(sb_fairshare_tree_compute(t), 0);
		ck_assert_int_eq(sb_fairshare_tree_check(t), 0);
		errno = 0;
		ck_assert_int_eq(sb_fairshare_classic_check(t), -1);
		ck_assert_int_eq(errno, EINVAL);
		sb_assoc_tree_destroy(t);
	}
}
END_TEST

static Suite *_suite(void)
{
	Suite *s = suite_create("fairshare");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_fair_tree_test24_4);
	tcase_add_test(tc, test_compute_switch);
	tcase_add_test(tc, test_fair_tree_tied_accounts);
	tcase_add_test(tc, test_level_based_test24_4);
	tcase_add_test(tc, test_level_compose);
	tcase_add_test(tc, test_level_value);
	tcase_add_test(tc, test_level_based_zero_shares);
	tcase_add_test(tc, test_level_based_fast_values);
	tcase_add_test(tc, test_deleted_user_usage);
	tcase_add_test(tc, test_classic_test24_3);
	tcase_add_test(tc, test_classic_factor);
	tcase_add_test(tc, test_level_based_properties);
	tcase_add_test(tc, test_fair_tree_oracle);
	tcase_add_test(tc, test_level_based_wide);
	tcase_add_test(tc, test_classic_properties);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return sb_test_run(_suite());
}
