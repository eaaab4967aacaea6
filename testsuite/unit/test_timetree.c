/*
 * test_timetree.c - the change-point tree against a brute-force array.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * This program builds its own timetree.c with -DSB_TIMETREE_FANOUT=4
 * (common/time/time.am), so a few hundred points make a tree many levels
 * deep and the random operations below split, empty and collapse nodes at
 * every level. The oracle is an array of K keys (base + [0, K)): present,
 * val, references. sb_timetree_check() runs after every mutation.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "sb_test.h"
#include "timetree.h"

#define K_MAX 512	/* oracle keys: times base + [0, K) */

struct oracle {
	int64_t base;
	int k;
	bool present[K_MAX];
	int64_t val[K_MAX];
	uint32_t refs[K_MAX];
	size_t n;
};

#define K (o->k)

/* Index of the oracle key for time t, or -1 when t is outside the keys. */
static int _idx(const struct oracle *o, int64_t t)
{
	if (t < o->base || t - o->base >= K)
		return -1;
	return (int) (t - o->base);
}

/* A query argument: mostly a key, sometimes just outside the key range. */
static int64_t _arg(sb_test_rng_t *r, const struct oracle *o)
{
	return o->base + sb_test_rng_range(r, -2, K + 1);
}

struct cmp_walk {
	const struct oracle *o;
	int i;		/* next oracle key to look at */
	bool bad;
};

static int _cmp_point(int64_t at, int64_t val, uint32_t refs, void *arg)
{
	struct cmp_walk *c = arg;
	const struct oracle *o = c->o;
	int i = _idx(o, at);

	/* In time order, exactly the present keys, with their val/refs. */
	while (c->i < K && !o->present[c->i])
		c->i++;
	if (i < 0 || i != c->i || o->val[i] != val || o->refs[i] != refs)
		c->bad = true;
	c->i++;
	return c->bad;
}

static void _compare_all(const sb_timetree_t *tt, const struct oracle *o)
{
	struct cmp_walk c = { .o = o };

	ck_assert_uint_eq(sb_timetree_size(tt), o->n);
	ck_assert_int_eq(sb_timetree_walk(tt, _cmp_point, &c), 0);
	while (c.i < K && !o->present[c.i])
		c.i++;
	ck_assert(!c.bad && c.i >= K);
}

/* Oracle earliest fit (see sb_timetree_fit): a scan of the candidates. */
static bool _o_fit(const struct oracle *o, int64_t a, int64_t d, int64_t v,
		   int64_t end, int64_t *want)
{
	/* c: a, then each present key after a. */
	for (int i = -1; i < K; i++) {
		int64_t c = i < 0 ? a : o->base + i, e;
		bool ok = false;
		int64_t fv = 0;

		if (i >= 0 && (!o->present[i] || c <= a))
			continue;
		e = c > INT64_MAX - d ? INT64_MAX : c + d;
		if (c >= end || e > end)
			return false;
		/* The val in force at c, then every point inside. */
		for (int j = 0; j < K && o->base + j <= c; j++)
			if (o->present[j]) {
				fv = o->val[j];
				ok = true;
			}
		ok = ok && fv >= v;
		for (int j = 0; j < K && ok; j++)
			if (o->present[j] && o->base + j > c &&
			    o->base + j < e && o->val[j] < v)
				ok = false;
		if (ok) {
			*want = c;
			return true;
		}
	}
	return false;
}

static void _one_random_op(sb_timetree_t *tt, struct oracle *o,
			   sb_test_rng_t *r)
{
	int64_t a = _arg(r, o), b = _arg(r, o), v, at, val, d;
	int ia = _idx(o, a), i, rc, want;
	bool found;

	switch (sb_test_rng_below(r, 10)) {
	case 0:
	case 1:
		if (ia < 0)
			ia = (int) sb_test_rng_below(r, K);
		d = sb_test_rng_range(r, -50, 50);
		ck_assert_int_eq(sb_timetree_acquire(tt, o->base + ia, d), 0);
		if (!o->present[ia]) {
			o->present[ia] = true;
			o->val[ia] = d;
			for (i = ia - 1; i >= 0; i--)
				if (o->present[i]) {
					o->val[ia] = o->val[i];
					break;
				}
			o->n++;
		}
		o->refs[ia]++;
		ck_assert_int_eq(sb_timetree_check(tt), 0);
		break;
	case 2:
	case 3:
		/* Prefer existing points so the tree also shrinks. */
		for (i = 0; i < 4 && (ia < 0 || !o->present[ia]); i++)
			ia = (int) sb_test_rng_below(r, K);
		if (ia < 0 || !o->present[ia]) {
			ck_assert_int_eq(sb_timetree_release(tt, a), -1);
			ck_assert_int_eq(errno, ENOENT);
			break;
		}
		ck_assert_int_eq(sb_timetree_release(tt, o->base + ia), 0);
		if (!--o->refs[ia]) {
			o->present[ia] = false;
			o->n--;
		}
		ck_assert_int_eq(sb_timetree_check(tt), 0);
		break;
	case 4:
		d = sb_test_rng_range(r, -20, 20);
		ck_assert_int_eq(sb_timetree_add(tt, a, b, d), 0);
		for (i = 0; i < K; i++)
			if (o->present[i] && o->base + i >= a &&
			    o->base + i < b)
				o->val[i] += d;
		ck_assert_int_eq(sb_timetree_check(tt), 0);
		break;
	case 5:
	case 6: {
		int64_t best = 0, got;

		found = false;
		for (i = 0; i < K; i++) {
			int64_t t = o->base + i;

			if (!o->present[i] || t < a || t >= b)
				continue;
			if (!found || o->val[i] < best)
				best = o->val[i];
			found = true;
		}
		rc = sb_timetree_min(tt, a, b, &got);
		ck_assert_int_eq(rc, found ? 0 : -1);
		if (found)
			ck_assert_int_eq(got, best);
		else
			ck_assert_int_eq(errno, ENOENT);
		/* In force: the last point at or before a counts too. */
		for (i = K - 1; a < b && i >= 0; i--) {
			if (!o->present[i] || o->base + i > a)
				continue;
			if (!found || o->val[i] < best)
				best = o->val[i];
			found = true;
			break;
		}
		rc = sb_timetree_min_in_force(tt, a, b, &got);
		ck_assert_int_eq(rc, found ? 0 : -1);
		if (found)
			ck_assert_int_eq(got, best);
		else
			ck_assert_int_eq(errno, ENOENT);
		break;
	}
	case 7:
		want = -1;
		for (i = 0; i < K; i++)
			if (o->present[i] && o->base + i <= a)
				want = i;
		rc = sb_timetree_floor(tt, a, &at, &val);
		ck_assert_int_eq(rc, want >= 0 ? 0 : -1);
		if (want >= 0) {
			ck_assert_int_eq(at, o->base + want);
			ck_assert_int_eq(val, o->val[want]);
		} else {
			ck_assert_int_eq(errno, ENOENT);
		}
		break;
	default: {
		/* Earliest fit, against a scan of every candidate. */
		int64_t dd = sb_test_rng_below(r, 8) ?
			sb_test_rng_range(r, 1, K / 2) : INT64_MAX;
		int64_t end = sb_test_rng_below(r, 4) ? _arg(r, o) : INT64_MAX;
		int64_t want_at = 0;

		v = sb_test_rng_range(r, -60, 60);
		found = _o_fit(o, a, dd, v, end, &want_at);
		rc = sb_timetree_fit(tt, a, dd, v, end, &at);
		ck_assert_int_eq(rc, found ? 0 : -1);
		if (found)
			ck_assert_int_eq(at, want_at);
		else
			ck_assert_int_eq(errno, ENOENT);
		break;
	}
	}
}

static void _random_run(int64_t base, int k, uint64_t seed, long ops)
{
	sb_timetree_t *tt = sb_timetree_create();
	struct oracle *o = calloc(1, sizeof(*o));
	sb_test_rng_t r;

	ck_assert_ptr_nonnull(tt);
	ck_assert_ptr_nonnull(o);
	ck_assert_int_le(k, K_MAX);
	o->base = base;
	o->k = k;
	sb_test_rng_seed(&r, seed);
	for (long i = 0; i < ops; i++) {
		_one_random_op(tt, o, &r);
		if (i % 256 == 0)
			_compare_all(tt, o);
	}
	_compare_all(tt, o);
	sb_timetree_destroy(tt);
	free(o);
}

START_TEST(test_random_zero_base)
{
	_random_run(0, 64, 1, 100000);
}
END_TEST

START_TEST(test_random_extreme_bases)
{
	/* Times next to both ends of int64_t must not overflow anywhere. */
	_random_run(INT64_MAX - 64 - 2, 64, 2, 30000);
	_random_run(INT64_MIN + 2, 64, 3, 30000);
	_random_run(-1000, 64, 4, 30000);
}
END_TEST

/* Enough points for many levels of nodes, splits and collapses. */
START_TEST(test_random_many_points)
{
	_random_run(0, K_MAX, 5, 30000);
}
END_TEST

START_TEST(test_errors)
{
	sb_timetree_t *tt = sb_timetree_create();
	int64_t v, at;

	sb_timetree_destroy(NULL);
	ck_assert_uint_eq(sb_timetree_size(NULL), 0);
	errno = 0;
	ck_assert_int_eq(sb_timetree_acquire(NULL, 0, 0), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_timetree_release(NULL, 0), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_timetree_add(NULL, 0, 1, 1), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_timetree_floor(NULL, 0, NULL, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_timetree_release(tt, 5), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sb_timetree_min(tt, 0, 10, &v), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sb_timetree_min(tt, 0, 10, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_timetree_min_in_force(tt, 0, 10, &v), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sb_timetree_min_in_force(NULL, 0, 10, &v), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_timetree_floor(tt, 0, NULL, NULL), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sb_timetree_fit(tt, 0, 1, 0, INT64_MAX, &at), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sb_timetree_fit(tt, 0, 0, 0, INT64_MAX, &at), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_timetree_fit(tt, 0, 1, 0, INT64_MAX, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_timetree_check(NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_timetree_walk(tt, NULL, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_timetree_walk(NULL, NULL, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_timetree_acquire(tt, 10, 7), 0);
	/* An empty or reversed range is not an error and changes nothing. */
	ck_assert_int_eq(sb_timetree_add(tt, 20, 10, 5), 0);
	ck_assert_int_eq(sb_timetree_floor(tt, 10, &at, &v), 0);
	ck_assert_int_eq(at, 10);
	ck_assert_int_eq(v, 7);
	ck_assert_int_eq(sb_timetree_check(tt), 0);
	sb_timetree_destroy(tt);
}
END_TEST

static int _collect(int64_t at, int64_t val, uint32_t refs, void *arg)
{
	int64_t *sum = arg;

	(void) refs;
	sum[0] += at;
	sum[1] += val;
	return 0;
}

/*
 * Sorted insertions are the classic worst case for an unbalanced tree;
 * the whole-range add and the searches must stay exact on 100,000 points
 * (at fanout 4, a tree about 17 levels deep).
 */
START_TEST(test_sequential_large)
{
	enum { N = 100000 };
	sb_timetree_t *tt = sb_timetree_create();
	int64_t sum[2] = { 0, 0 }, at, v;

	for (int64_t i = 0; i < N; i++)
		ck_assert_int_eq(sb_timetree_acquire(tt, i, i), 0);
	ck_assert_int_eq(sb_timetree_check(tt), 0);
	/* Every new point copied its predecessor's val: all are 0. */
	ck_assert_int_eq(sb_timetree_min(tt, INT64_MIN, INT64_MAX, &v), 0);
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(sb_timetree_add(tt, 50000, 50001, 9), 0);
	ck_assert_int_eq(sb_timetree_add(tt, 0, N, 1), 0);
	/* Only [50000, 50001) has 10: a window of 1 there, not of 2. */
	ck_assert_int_eq(sb_timetree_fit(tt, 0, 1, 10, INT64_MAX, &at), 0);
	ck_assert_int_eq(at, 50000);
	ck_assert_int_eq(sb_timetree_fit(tt, 0, 2, 10, INT64_MAX, &at), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sb_timetree_min(tt, 50000, 50001, &v), 0);
	ck_assert_int_eq(v, 10);
	ck_assert_int_eq(sb_timetree_walk(tt, _collect, sum), 0);
	ck_assert_int_eq(sum[0], (int64_t) N * (N - 1) / 2);
	ck_assert_int_eq(sum[1], N + 9);
	for (int64_t i = 0; i < N; i += 2)
		ck_assert_int_eq(sb_timetree_release(tt, i), 0);
	ck_assert_int_eq(sb_timetree_check(tt), 0);
	ck_assert_uint_eq(sb_timetree_size(tt), N / 2);
	ck_assert_int_eq(sb_timetree_min(tt, 0, N, &v), 0);
	ck_assert_int_eq(v, 1);
	/* Emptied completely, then used again. */
	for (int64_t i = 1; i < N; i += 2)
		ck_assert_int_eq(sb_timetree_release(tt, i), 0);
	ck_assert_int_eq(sb_timetree_check(tt), 0);
	ck_assert_uint_eq(sb_timetree_size(tt), 0);
	ck_assert_int_eq(sb_timetree_acquire(tt, 3, 4), 0);
	ck_assert_int_eq(sb_timetree_check(tt), 0);
	sb_timetree_destroy(tt);
}
END_TEST

/* The true val of point @t in test_tags_through_splits. */
static int64_t _tag_val(int64_t t)
{
	int64_t p = t & ~(int64_t) 1;	/* an odd point copied t - 1 */

	return 5 * (p >= 100 && p < 1000) - 3 * (p >= 300 && p < 700);
}

struct tag_walk {
	size_t n;
	bool bad;
};

static int _tag_point(int64_t at, int64_t val, uint32_t refs, void *arg)
{
	struct tag_walk *w = arg;

	(void) refs;
	w->n++;
	if (val != _tag_val(at))
		w->bad = true;
	return 0;
}

static void _tag_compare(const sb_timetree_t *tt, size_t n)
{
	struct tag_walk w = { 0, false };
	int64_t v;

	ck_assert_int_eq(sb_timetree_check(tt), 0);
	ck_assert_int_eq(sb_timetree_walk(tt, _tag_point, &w), 0);
	ck_assert_uint_eq(w.n, n);
	ck_assert(!w.bad);
	/* [300, 700) holds 2; the point before 300 (298 or 299) holds 5. */
	ck_assert_int_eq(sb_timetree_min_in_force(tt, 300, 700, &v), 0);
	ck_assert_int_eq(v, 2);
	ck_assert_int_eq(sb_timetree_min_in_force(tt, 299, 300, &v), 0);
	ck_assert_int_eq(v, 5);
}

/*
 * Range adds leave tags in the parents' arrays, never pushed down (#25).
 * Points inserted under tagged children (splitting them at every level),
 * then removed until nodes empty and the root collapses, must keep every
 * true val: a new point copies its predecessor's, a split copies the
 * sibling's tag, a collapsed root hands its tag to the new one.
 */
START_TEST(test_tags_through_splits)
{
	enum { N = 2000 };
	sb_timetree_t *tt = sb_timetree_create();
	size_t n = 0;

	for (int64_t t = 0; t < N; t += 2, n++)
		ck_assert_int_eq(sb_timetree_acquire(tt, t, 0), 0);
	ck_assert_int_eq(sb_timetree_add(tt, 100, 1000, 5), 0);
	ck_assert_int_eq(sb_timetree_add(tt, 300, 700, -3), 0);
	_tag_compare(tt, n);
	for (int64_t t = 1; t < N; t += 2, n++)
		ck_assert_int_eq(sb_timetree_acquire(tt, t, 0), 0);
	_tag_compare(tt, n);
	/* Down to a few points around the tagged ranges, from both ends. */
	for (int64_t t = N - 1; t >= 1200; t--, n--)
		ck_assert_int_eq(sb_timetree_release(tt, t), 0);
	for (int64_t t = 0; t < 290; t++, n--)
		ck_assert_int_eq(sb_timetree_release(tt, t), 0);
	_tag_compare(tt, n);
	for (int64_t t = 1199; t >= 702; t--, n--)
		ck_assert_int_eq(sb_timetree_release(tt, t), 0);
	for (int64_t t = 301; t < 698; t++, n--)
		ck_assert_int_eq(sb_timetree_release(tt, t), 0);
	_tag_compare(tt, n);
	sb_timetree_destroy(tt);
}
END_TEST

static Suite *_suite(void)
{
	Suite *s = suite_create("timetree");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_sequential_large);
	tcase_add_test(tc, test_tags_through_splits);
	tcase_add_test(tc, test_random_zero_base);
	tcase_add_test(tc, test_random_extreme_bases);
	tcase_add_test(tc, test_random_many_points);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return sb_test_run(_suite());
}
