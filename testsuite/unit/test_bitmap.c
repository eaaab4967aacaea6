/*
 * test_bitmap.c - unit tests for common/bitmap.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Word boundaries are where bitmaps break, so every test runs over the
 * sizes around them (1, 63, 64, 65, 127, 128, 129) plus the 10,010 nodes
 * of the OpenPBS bucket scenarios. The random test drives >= 1M
 * operations from a fixed seed against a plain bool array.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitmap.h"
#include "sb_test.h"

/* ck_assert marks a point per call; hot loops only fail loudly. */
#define REQ(e) SB_REQ(e)

static const size_t sizes[] = { 1, 63, 64, 65, 127, 128, 129, 10010 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

/* The whole bitmap equals the oracle, and the invariants hold. */
static void _same(const sb_bitmap_t *b, const bool *o, size_t n)
{
	size_t i, cnt = 0;

	REQ(sb_bitmap_check(b) == 0);
	REQ(sb_bitmap_size(b) == n);
	for (i = 0; i < n; i++) {
		REQ(sb_bitmap_test(b, i) == (int) o[i]);
		cnt += o[i];
	}
	REQ(sb_bitmap_count(b) == cnt);
}

/* Oracle searches, -1 when none. */
static int64_t _o_next(const bool *o, size_t n, size_t from, bool want)
{
	size_t i;

	for (i = from; i < n; i++)
		if (o[i] == want)
			return (int64_t) i;
	return -1;
}

static int64_t _o_prev(const bool *o, size_t n, size_t from)
{
	size_t i;

	if (!n)
		return -1;
	if (from >= n)
		from = n - 1;
	for (i = from + 1; i-- > 0;)
		if (o[i])
			return (int64_t) i;
	return -1;
}

START_TEST(test_alloc_sizes)
{
	size_t k, n, i;

	for (k = 0; k < NSIZES; k++) {
		sb_bitmap_t *b;

		n = sizes[k];
		b = sb_bitmap_alloc(n);
		ck_assert_ptr_nonnull(b);
		ck_assert_int_eq(sb_bitmap_check(b), 0);
		ck_assert_uint_eq(sb_bitmap_size(b), n);
		ck_assert_uint_eq(sb_bitmap_count(b), 0);
		ck_assert_int_eq(sb_bitmap_empty(b), 1);
		ck_assert_int_eq(sb_bitmap_first_set(b), -1);
		ck_assert_int_eq(errno, ENOENT);
		ck_assert_int_eq(sb_bitmap_last_set(b), -1);
		ck_assert_int_eq(sb_bitmap_first_clear(b), 0);

		/* Out of range leaves everything alone. */
		errno = 0;
		ck_assert_int_eq(sb_bitmap_set(b, n), -1);
		ck_assert_int_eq(errno, ERANGE);
		ck_assert_int_eq(sb_bitmap_test(b, n), -1);
		ck_assert_int_eq(sb_bitmap_clear(b, n + 100), -1);
		ck_assert_int_eq(sb_bitmap_set_range(b, 0, n), -1);
		ck_assert_int_eq(errno, ERANGE);
		errno = 0;
		if (n > 1) {
			ck_assert_int_eq(sb_bitmap_set_range(b, 1, 0), -1);
			ck_assert_int_eq(errno, EINVAL);
		}
		ck_assert_int_eq(sb_bitmap_count_range(b, 0, n), -1);
		ck_assert_int_eq(errno, ERANGE);
		ck_assert_uint_eq(sb_bitmap_count(b), 0);

		sb_bitmap_set_all(b);
		ck_assert_int_eq(sb_bitmap_check(b), 0);
		ck_assert_uint_eq(sb_bitmap_count(b), n);
		ck_assert_int_eq(sb_bitmap_first_clear(b), -1);
		ck_assert_int_eq(errno, ENOENT);
		ck_assert_int_eq(sb_bitmap_last_set(b), (int64_t) n - 1);
		ck_assert_int_eq(sb_bitmap_not(b), 0);
		ck_assert_int_eq(sb_bitmap_check(b), 0);
		ck_assert_int_eq(sb_bitmap_empty(b), 1);

		/* Each single bit, alone, found by every search. */
		for (i = 0; i < n; i++) {
			REQ(sb_bitmap_set(b, i) == 0);
			REQ(sb_bitmap_check(b) == 0);
			REQ(sb_bitmap_test(b, i) == 1);
			REQ(sb_bitmap_count(b) == 1);
			REQ(sb_bitmap_first_set(b) == (int64_t) i);
			REQ(sb_bitmap_last_set(b) == (int64_t) i);
			REQ(sb_bitmap_next_set(b, i) == (int64_t) i);
			REQ(sb_bitmap_next_set(b, i + 1) == -1);
			REQ(sb_bitmap_prev_set(b, i) == (int64_t) i);
			REQ(i == 0 || sb_bitmap_prev_set(b, i - 1) == -1);
			REQ(sb_bitmap_next_clear(b, i) ==
			    (i + 1 < n ? (int64_t) i + 1 : -1));
			REQ(sb_bitmap_first_clear(b) ==
			    (i ? 0 : (n > 1 ? 1 : -1)));
			REQ(sb_bitmap_count_range(b, 0, n - 1) == 1);
			REQ(sb_bitmap_count_range(b, i, i) == 1);
			REQ(sb_bitmap_clear(b, i) == 0);
			REQ(sb_bitmap_check(b) == 0);
			REQ(sb_bitmap_empty(b) == 1);
		}
		sb_bitmap_free(b);
	}
	sb_bitmap_free(NULL);
}
END_TEST

/* Every range [f, l] of the small sizes: set, count, clear. */
START_TEST(test_ranges_exhaustive)
{
	size_t k, n, f, l, i;

	for (k = 0; k < NSIZES - 1; k++) {
		sb_bitmap_t *b;

		n = sizes[k];
		b = sb_bitmap_alloc(n);
		for (f = 0; f < n; f++)
			for (l = f; l < n; l++) {
				REQ(sb_bitmap_set_range(b, f, l) == 0);
				REQ(sb_bitmap_check(b) == 0);
				REQ(sb_bitmap_count(b) == l - f + 1);
				REQ(sb_bitmap_first_set(b) == (int64_t) f);
				REQ(sb_bitmap_last_set(b) == (int64_t) l);
				REQ(sb_bitmap_next_clear(b, f) ==
				    (l + 1 < n ? (int64_t) l + 1 : -1));
				REQ(sb_bitmap_count_range(b, 0, n - 1) ==
				    (int64_t) (l - f + 1));
				if (f > 0)
					REQ(sb_bitmap_count_range(b, 0, f - 1)
					    == 0);
				/* Inverse: clearing a range from full. */
				sb_bitmap_set_all(b);
				REQ(sb_bitmap_clear_range(b, f, l) == 0);
				REQ(sb_bitmap_check(b) == 0);
				REQ(sb_bitmap_count(b) == n - (l - f + 1));
				REQ(sb_bitmap_next_clear(b, 0) ==
				    (int64_t) f);
				REQ(sb_bitmap_next_set(b, f) ==
				    (l + 1 < n ? (int64_t) l + 1 : -1));
				sb_bitmap_clear_all(b);
			}
		/* count_range over every window of an alternating map. */
		for (i = 0; i < n; i += 2)
			sb_bitmap_set(b, i);
		for (f = 0; f < n; f++)
			for (l = f; l < n; l++)
				REQ(sb_bitmap_count_range(b, f, l) ==
				    (int64_t) ((l / 2 + 1) - (f + 1) / 2));
		sb_bitmap_free(b);
	}
}
END_TEST

START_TEST(test_logic_and_compare)
{
	size_t k, n;

	for (k = 0; k < NSIZES; k++) {
		sb_bitmap_t *a, *b, *c, *d;

		n = sizes[k];
		a = sb_bitmap_alloc(n);
		b = sb_bitmap_alloc(n);
		d = sb_bitmap_alloc(n + 1);
		sb_bitmap_set_range(a, 0, n / 2);
		sb_bitmap_set_range(b, n / 3, n - 1);
		c = sb_bitmap_dup(a);
		ck_assert_int_eq(sb_bitmap_equal(a, c), 1);
		ck_assert_int_eq(sb_bitmap_subset(a, c), 1);
		ck_assert_int_eq(sb_bitmap_intersects(a, b), 1);
		ck_assert_int_eq(sb_bitmap_count_and(a, b),
				 (int64_t) (n / 2 - n / 3 + 1));
		ck_assert_int_eq(sb_bitmap_and(c, b), 0);
		ck_assert_int_eq(sb_bitmap_check(c), 0);
		ck_assert_uint_eq(sb_bitmap_count(c), n / 2 - n / 3 + 1);
		ck_assert_int_eq(sb_bitmap_subset(c, a), 1);
		ck_assert_int_eq(sb_bitmap_subset(c, b), 1);
		ck_assert_int_eq(sb_bitmap_copy(c, a), 0);
		ck_assert_int_eq(sb_bitmap_or(c, b), 0);
		ck_assert_uint_eq(sb_bitmap_count(c), n);
		ck_assert_int_eq(sb_bitmap_andnot(c, b), 0);
		ck_assert_int_eq(sb_bitmap_check(c), 0);
		ck_assert_uint_eq(sb_bitmap_count(c), n / 3);
		ck_assert_int_eq(sb_bitmap_intersects(c, b), 0);
		ck_assert_int_eq(sb_bitmap_equal(c, a), n / 3 == n / 2 + 1);
		/* a ^ b: the bits in exactly one of them */
		ck_assert_int_eq(sb_bitmap_copy(c, a), 0);
		ck_assert_int_eq(sb_bitmap_xor(c, b), 0);
		ck_assert_int_eq(sb_bitmap_check(c), 0);
		ck_assert_uint_eq(sb_bitmap_count(c), n / 3 + (n - n / 2 - 1));
		ck_assert_int_eq(sb_bitmap_xor(c, c), 0);
		ck_assert_int_eq(sb_bitmap_empty(c), 1);

		/* Size mismatches are errors and change nothing. */
		errno = 0;
		ck_assert_int_eq(sb_bitmap_and(d, a), -1);
		ck_assert_int_eq(errno, EINVAL);
		ck_assert_int_eq(sb_bitmap_copy(d, a), -1);
		ck_assert_int_eq(sb_bitmap_subset(a, d), -1);
		ck_assert_int_eq(sb_bitmap_equal(a, d), 0);
		ck_assert_int_eq(sb_bitmap_pick(a, 1, d), -1);
		ck_assert_int_eq(sb_bitmap_take(a, 1, a), -1);
		ck_assert_int_eq(sb_bitmap_empty(d), 1);
		ck_assert_int_eq(sb_bitmap_equal(NULL, NULL), 1);
		ck_assert_int_eq(sb_bitmap_equal(a, NULL), 0);
		sb_bitmap_free(a);
		sb_bitmap_free(b);
		sb_bitmap_free(c);
		sb_bitmap_free(d);
	}
}
END_TEST

START_TEST(test_pick_take)
{
	sb_bitmap_t *src = sb_bitmap_alloc(10010);
	sb_bitmap_t *dst = sb_bitmap_alloc(10010);
	char *s;

	/* Yellow-like block: 2860-4289, as in the OpenPBS scenarios. */
	sb_bitmap_set_range(src, 2860, 4289);
	ck_assert_int_eq(sb_bitmap_pick(src, 4, dst), 4);
	s = sb_bitmap_fmt(dst);
	ck_assert_str_eq(s, "2860-2863");
	free(s);
	ck_assert_uint_eq(sb_bitmap_count(src), 1430);
	ck_assert_int_eq(sb_bitmap_take(src, 100, dst), 100);
	ck_assert_int_eq(sb_bitmap_check(src), 0);
	ck_assert_int_eq(sb_bitmap_check(dst), 0);
	ck_assert_int_eq(sb_bitmap_first_set(src), 2960);
	s = sb_bitmap_fmt(dst);
	ck_assert_str_eq(s, "2860-2959");
	free(s);
	ck_assert_int_eq(sb_bitmap_take(src, 5000, dst), 1330);
	ck_assert_int_eq(sb_bitmap_empty(src), 1);
	ck_assert_uint_eq(sb_bitmap_count(dst), 1430);
	ck_assert_int_eq(sb_bitmap_take(src, 3, dst), 0);
	ck_assert_int_eq(sb_bitmap_pick(dst, 0, src), 0);
	ck_assert_int_eq(sb_bitmap_empty(src), 1);
	sb_bitmap_free(src);
	sb_bitmap_free(dst);
}
END_TEST

START_TEST(test_resize)
{
	sb_bitmap_t *b = sb_bitmap_alloc(129);
	char *s;

	sb_bitmap_set_all(b);
	ck_assert_int_eq(sb_bitmap_resize(b, 65), 0);
	ck_assert_int_eq(sb_bitmap_check(b), 0);
	ck_assert_uint_eq(sb_bitmap_count(b), 65);
	ck_assert_int_eq(sb_bitmap_resize(b, 200), 0);
	ck_assert_int_eq(sb_bitmap_check(b), 0);
	ck_assert_uint_eq(sb_bitmap_count(b), 65);
	ck_assert_int_eq(sb_bitmap_next_set(b, 65), -1);
	s = sb_bitmap_fmt(b);
	ck_assert_str_eq(s, "0-64");
	free(s);
	ck_assert_int_eq(sb_bitmap_resize(b, 0), 0);
	ck_assert_int_eq(sb_bitmap_check(b), 0);
	ck_assert_int_eq(sb_bitmap_first_clear(b), -1);
	s = sb_bitmap_fmt(b);
	ck_assert_str_eq(s, "");
	free(s);
	ck_assert_int_eq(sb_bitmap_resize(b, 64), 0);
	ck_assert_int_eq(sb_bitmap_empty(b), 1);
	ck_assert_int_eq(sb_bitmap_resize(NULL, 3), -1);
	sb_bitmap_free(b);
}
END_TEST

START_TEST(test_fmt_parse)
{
	static const struct {
		const char *in, *canon;
	} ok[] = {
		{ "", "" },
		{ "0", "0" },
		{ "0-63,79-97", "0-63,79-97" },
		{ "5,1-3,2", "1-3,5" },
		{ "63,64", "63-64" },
		{ "1,2,3,10,11,12", "1-3,10-12" },
		{ "0-10009", "0-10009" },
		{ "10009", "10009" },
		{ "007", "7" },
		{ "4-4", "4" },
	};
	static const struct {
		const char *in;
		int err;
		size_t pos;
	} bad[] = {
		{ ",", EINVAL, 0 },
		{ "1,", EINVAL, 2 },
		{ ",1", EINVAL, 0 },
		{ "3-1", EINVAL, 0 },
		{ "0-5,9-7", EINVAL, 4 },
		{ "1-", EINVAL, 2 },
		{ "-1", EINVAL, 0 },
		{ "a", EINVAL, 0 },
		{ "1 2", EINVAL, 1 },
		{ "1;2", EINVAL, 1 },
		{ "10010", ERANGE, 0 },
		{ "5-10010", ERANGE, 2 },
		{ "1,99999999999999999999999", ERANGE, 2 },
	};
	size_t i, pos;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		sb_bitmap_t *b = sb_bitmap_parse(ok[i].in, 10010, NULL), *c;
		char *s;

		ck_assert_msg(b != NULL, "parse '%s'", ok[i].in);
		ck_assert_int_eq(sb_bitmap_check(b), 0);
		s = sb_bitmap_fmt(b);
		ck_assert_str_eq(s, ok[i].canon);
		c = sb_bitmap_parse(s, 10010, NULL);
		ck_assert_int_eq(sb_bitmap_equal(b, c), 1);
		free(s);
		sb_bitmap_free(b);
		sb_bitmap_free(c);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		pos = 12345;
		errno = 0;
		ck_assert_msg(sb_bitmap_parse(bad[i].in, 10010, &pos) == NULL,
			      "parse '%s' should fail", bad[i].in);
		ck_assert_msg(errno == bad[i].err, "'%s': errno %d",
			      bad[i].in, errno);
		ck_assert_msg(pos == bad[i].pos, "'%s': pos %zu, want %zu",
			      bad[i].in, pos, bad[i].pos);
	}
	ck_assert_ptr_null(sb_bitmap_parse(NULL, 5, NULL));
	ck_assert_ptr_null(sb_bitmap_fmt(NULL));
}
END_TEST

/* Random maps of every size: fmt then parse gives the same map. */
START_TEST(test_fmt_roundtrip_random)
{
	sb_test_rng_t r;
	size_t k, t, i;

	sb_test_rng_seed(&r, 20261122);
	for (k = 0; k < NSIZES; k++) {
		size_t n = sizes[k];

		for (t = 0; t < 200; t++) {
			sb_bitmap_t *b = sb_bitmap_alloc(n), *c;
			uint64_t dens = sb_test_rng_below(&r, 5);
			char *s;

			for (i = 0; i < n; i++)
				if (sb_test_rng_below(&r, 4) < dens)
					sb_bitmap_set(b, i);
			s = sb_bitmap_fmt(b);
			REQ(s != NULL);
			c = sb_bitmap_parse(s, n, NULL);
			REQ(c != NULL);
			REQ(sb_bitmap_equal(b, c) == 1);
			free(s);
			sb_bitmap_free(b);
			sb_bitmap_free(c);
		}
	}
}
END_TEST

/*
 * >= 1M random operations on a pair of bitmaps per size, each checked
 * against bool arrays. Small maps are compared in full after every
 * mutation; the 10,010-bit map every 64 mutations (the O(n) compare would
 * otherwise dominate), but its invariant checker still runs every time.
 */
#define RANDOM_OPS_PER_SIZE 140000

static void _random_size(sb_test_rng_t *r, size_t n)
{
	sb_bitmap_t *b = sb_bitmap_alloc(n), *c = sb_bitmap_alloc(n);
	bool *o = calloc(n + 1, 1), *p = calloc(n + 1, 1);
	size_t op, i, f, l, m;
	int64_t want, got;
	unsigned full_every = n > 1000 ? 64 : 1;

	REQ(b && c && o && p);
	for (op = 0; op < RANDOM_OPS_PER_SIZE; op++) {
		int mut = 1;

		f = sb_test_rng_below(r, n);
		l = sb_test_rng_below(r, n);
		if (f > l) {
			m = f;
			f = l;
			l = m;
		}
		/* Short ranges are the common case near word edges. */
		if (sb_test_rng_below(r, 2) && l - f > 70)
			l = f + sb_test_rng_below(r, 70);
		switch (sb_test_rng_below(r, 20)) {
		case 0:
		case 1:
			REQ(sb_bitmap_set(b, f) == 0);
			o[f] = true;
			break;
		case 2:
		case 3:
			REQ(sb_bitmap_clear(b, f) == 0);
			o[f] = false;
			break;
		case 4:
			REQ(sb_bitmap_set_range(b, f, l) == 0);
			for (i = f; i <= l; i++)
				o[i] = true;
			break;
		case 5:
			REQ(sb_bitmap_clear_range(b, f, l) == 0);
			for (i = f; i <= l; i++)
				o[i] = false;
			break;
		case 6:	/* refresh the second map from a random range */
			sb_bitmap_clear_all(c);
			memset(p, 0, n);
			REQ(sb_bitmap_set_range(c, f, l) == 0);
			for (i = f; i <= l; i++)
				p[i] = true;
			i = sb_test_rng_below(r, n);
			REQ(sb_bitmap_clear(c, i) == 0);
			p[i] = false;
			REQ(sb_bitmap_check(c) == 0);
			mut = 0;
			break;
		case 7:
			REQ(sb_bitmap_and(b, c) == 0);
			for (i = 0; i < n; i++)
				o[i] = o[i] && p[i];
			break;
		case 8:
			REQ(sb_bitmap_or(b, c) == 0);
			for (i = 0; i < n; i++)
				o[i] = o[i] || p[i];
			break;
		case 9:
			if (sb_test_rng_below(r, 2)) {
				REQ(sb_bitmap_andnot(b, c) == 0);
				for (i = 0; i < n; i++)
					o[i] = o[i] && !p[i];
			} else {
				REQ(sb_bitmap_xor(b, c) == 0);
				for (i = 0; i < n; i++)
					o[i] = o[i] != p[i];
			}
			break;
		case 10:
			if (sb_test_rng_below(r, 8) == 0) {
				REQ(sb_bitmap_not(b) == 0);
				for (i = 0; i < n; i++)
					o[i] = !o[i];
			} else {
				mut = 0;
				want = 0;
				for (i = 0; i < n; i++)
					want += o[i] && p[i];
				REQ(sb_bitmap_count_and(b, c) == want);
				REQ(sb_bitmap_intersects(b, c) == (want > 0));
			}
			break;
		case 11: {	/* pick or take the first m set bits into c */
			int take = (int) sb_test_rng_below(r, 2);
			size_t left;

			m = sb_test_rng_below(r, 80);
			sb_bitmap_clear_all(c);
			memset(p, 0, n);
			got = take ? sb_bitmap_take(b, m, c)
				   : sb_bitmap_pick(b, m, c);
			REQ(sb_bitmap_check(c) == 0);
			for (i = 0, left = m; i < n && left; i++)
				if (o[i]) {
					p[i] = true;
					if (take)
						o[i] = false;
					left--;
				}
			REQ(got == (int64_t) (m - left));
			_same(c, p, n);
			mut = take;
			break;
		}
		case 12:
			mut = 0;
			REQ(sb_bitmap_next_set(b, f) == _o_next(o, n, f, true));
			REQ(sb_bitmap_next_clear(b, f) ==
			    _o_next(o, n, f, false));
			REQ(sb_bitmap_prev_set(b, l) == _o_prev(o, n, l));
			break;
		case 13:
			mut = 0;
			want = 0;
			for (i = f; i <= l; i++)
				want += o[i];
			REQ(sb_bitmap_count_range(b, f, l) == want);
			break;
		case 14:
			mut = 0;
			REQ(sb_bitmap_test(b, f) == (int) o[f]);
			REQ(sb_bitmap_first_set(b) == _o_next(o, n, 0, true));
			REQ(sb_bitmap_last_set(b) == _o_prev(o, n, n));
			break;
		case 15: {
			mut = 0;
			want = memcmp(o, p, n) == 0;
			REQ(sb_bitmap_equal(b, c) == (int) want);
			want = 1;
			for (i = 0; i < n; i++)
				if (o[i] && !p[i])
					want = 0;
			REQ(sb_bitmap_subset(b, c) == (int) want);
			break;
		}
		case 16:
			if (sb_test_rng_below(r, 4) == 0) {
				REQ(sb_bitmap_copy(c, b) == 0);
				memcpy(p, o, n);
				REQ(sb_bitmap_equal(b, c) == 1);
			}
			mut = 0;
			break;
		case 17: {	/* fmt/parse round trip, occasionally */
			char *s;
			sb_bitmap_t *d;

			mut = 0;
			if (n > 1000 && sb_test_rng_below(r, 32))
				break;
			s = sb_bitmap_fmt(b);
			d = sb_bitmap_parse(s, n, NULL);
			REQ(s && d && sb_bitmap_equal(b, d) == 1);
			free(s);
			sb_bitmap_free(d);
			break;
		}
		case 18:	/* out-of-range calls fail and change nothing */
			REQ(sb_bitmap_set(b, n + f) == -1 && errno == ERANGE);
			REQ(sb_bitmap_clear_range(b, f, n) == -1);
			REQ(sb_bitmap_next_set(b, n) == -1 && errno == ENOENT);
			break;
		default:
			mut = 0;
			REQ(sb_bitmap_empty(b) ==
			    (_o_next(o, n, 0, true) < 0));
			break;
		}
		if (mut) {
			REQ(sb_bitmap_check(b) == 0);
			if (op % full_every == 0)
				_same(b, o, n);
		}
	}
	_same(b, o, n);
	_same(c, p, n);
	sb_bitmap_free(b);
	sb_bitmap_free(c);
	free(o);
	free(p);
}

/* Words in and out, LSB first, against a per-bit reading of the words. */
START_TEST(test_words)
{
	sb_test_rng_t g;
	size_t k, i, j;

	sb_test_rng_seed(&g, 0x30dd5ULL);
	for (k = 0; k < NSIZES; k++) {
		size_t n = sizes[k], nw = (n + 63) / 64;
		uint64_t *in = calloc(nw + 2, sizeof(*in));
		uint64_t *out = calloc(nw + 2, sizeof(*out));
		sb_bitmap_t *b = sb_bitmap_alloc(n);

		for (j = 0; j < 20; j++) {
			for (i = 0; i < nw + 2; i++)
				in[i] = sb_test_rng_next(&g);
			/* one word more than needed: bits past n ignored */
			ck_assert_int_eq(sb_bitmap_load_words(b, in, nw + 1), 0);
			ck_assert_int_eq(sb_bitmap_check(b), 0);
			for (i = 0; i < n; i++)
				ck_assert_int_eq(sb_bitmap_test(b, i),
						 (int) (in[i / 64] >> (i % 64) & 1));
			memset(out, 0xff, (nw + 2) * sizeof(*out));
			ck_assert_int_eq(sb_bitmap_store_words(b, out, nw + 2),
					 0);
			for (i = 0; i < 64 * (nw + 2); i++)
				ck_assert_int_eq((int) (out[i / 64] >> (i % 64)
							& 1),
						 i < n ? (int) (in[i / 64] >>
								(i % 64) & 1)
						       : 0);
		}
		/* fewer words than the bitmap: the rest is zero */
		sb_bitmap_set_all(b);
		ck_assert_int_eq(sb_bitmap_load_words(b, in, 0), 0);
		ck_assert_int_eq(sb_bitmap_empty(b), 1);
		ck_assert_int_eq(sb_bitmap_load_words(NULL, in, 1), -1);
		ck_assert_int_eq(errno, EINVAL);
		ck_assert_int_eq(sb_bitmap_store_words(b, NULL, 1), -1);
		ck_assert_int_eq(errno, EINVAL);
		sb_bitmap_free(b);
		free(in);
		free(out);
	}
}
END_TEST

/* The lowest set bit of a word, against a bit-by-bit search. */
START_TEST(test_word_ctz)
{
	sb_test_rng_t g;
	unsigned p, want;
	uint64_t x;
	int j;

	sb_test_rng_seed(&g, 0xc72ULL);
	for (p = 0; p < 64; p++)
		for (j = 0; j < 50; j++) {
			/* Lowest set bit at p; random bits above it. */
			x = (sb_test_rng_next(&g) | 1) << p;
			if (j == 0)
				x = UINT64_C(1) << p;
			for (want = 0; !(x >> want & 1); want++)
				;
			ck_assert_uint_eq(want, p);
			ck_assert_uint_eq(sb_bitmap_word_ctz(x), want);
		}
}
END_TEST

static bool _in_both(const sb_bitmap_t *a, const sb_bitmap_t *b,
		     size_t i)
{
	return sb_bitmap_test(a, i) == 1 && sb_bitmap_test(b, i) == 1;
}

/* The walk over a & b that bitmap.h shows, against a per-bit test. */
START_TEST(test_word_walk)
{
	sb_test_rng_t g;
	size_t k, i, j, prev, nw;
	uint64_t *aw, *bw, x;
	sb_bitmap_t *a, *b;

	sb_test_rng_seed(&g, 0xa1cULL);
	for (k = 0; k < NSIZES; k++) {
		nw = (sizes[k] + 63) / 64;
		a = sb_bitmap_alloc(sizes[k]);
		b = sb_bitmap_alloc(sizes[k]);
		aw = calloc(nw, sizeof(*aw));
		bw = calloc(nw, sizeof(*bw));
		ck_assert(a && b && aw && bw);
		for (j = 0; j < 20; j++) {
			/* a from empty (j % 4 == 0) to dense; b 3 in 4. */
			for (i = 0; i < sizes[k]; i++) {
				if (sb_test_rng_below(&g, 4) < j % 4)
					sb_bitmap_set(a, i);
				else
					sb_bitmap_clear(a, i);
				if (sb_test_rng_below(&g, 4) < 3)
					sb_bitmap_set(b, i);
				else
					sb_bitmap_clear(b, i);
			}
			ck_assert_int_eq(sb_bitmap_store_words(a, aw, nw), 0);
			ck_assert_int_eq(sb_bitmap_store_words(b, bw, nw), 0);
			/* Every bit visited is in a & b, ascending, and the
			 * bits between two visited ones are not. */
			prev = 0;
			for (i = 0; i < nw; i++)
				for (x = aw[i] & bw[i]; x; x &= x - 1) {
					size_t bit = i * 64 +
						sb_bitmap_word_ctz(x);

					ck_assert_uint_lt(bit, sizes[k]);
					for (; prev < bit; prev++)
						ck_assert(!_in_both(a, b, prev));
					ck_assert(_in_both(a, b, bit));
					prev = bit + 1;
				}
			for (; prev < sizes[k]; prev++)
				ck_assert(!_in_both(a, b, prev));
		}
		sb_bitmap_free(a);
		sb_bitmap_free(b);
		free(aw);
		free(bw);
	}
}
END_TEST

START_TEST(test_random_vs_oracle)
{
	sb_test_rng_t r;

	sb_test_rng_seed(&r, 0x5b5b0001ULL + (uint64_t) _i);
	_random_size(&r, sizes[_i]);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bitmap");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_alloc_sizes);
	tcase_add_test(tc, test_ranges_exhaustive);
	tcase_add_test(tc, test_logic_and_compare);
	tcase_add_test(tc, test_pick_take);
	tcase_add_test(tc, test_resize);
	tcase_add_test(tc, test_fmt_parse);
	tcase_add_test(tc, test_fmt_roundtrip_random);
	tcase_add_test(tc, test_words);
	tcase_add_test(tc, test_word_ctz);
	tcase_add_test(tc, test_word_walk);
	/* One test per size: 8 x 140,000 = 1,120,000 operations. */
	tcase_add_loop_test(tc, test_random_vs_oracle, 0, (int) NSIZES);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
