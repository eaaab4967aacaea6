/*
 * test_busy_set.c - when one node cannot be used: sorted, merged windows.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Random node states over a small horizon (fixed seed), each built into a
 * busy set and compared with a brute-force oracle: an array of one flag
 * per second. The checker runs on every set; every window [s, e) of the
 * horizon is asked of sb_busy_set_free() and of the oracle. Sets of one
 * window keep it inline (the checker asks), and a plain copy moves a set.
 */
#include <errno.h>
#include <string.h>

#include "busy_set.h"
#include "sb_test.h"

#define BASE 10
#define END 50
#define MAXW 6

/* One flag per second of [0, END + 10): busy or not. */
static void _oracle(int64_t until, bool down, const sb_window_t *win,
		    size_t nwin, bool *busy)
{
	int64_t t;
	size_t i;

	memset(busy, 0, (END + 10) * sizeof(*busy));
	for (t = BASE; t < END; t++) {
		busy[t] = down || t < until;
		for (i = 0; i < nwin; i++)
			busy[t] |= t >= win[i].start && t < win[i].end;
	}
}

START_TEST(test_table)
{
	sb_window_t win[] = { { 30, 35 }, { 5, 12 }, { 20, 25 }, { 25, 28 },
			      { 45, 90 }, { 60, 70 } };
	sb_busy_set_t b, c, d;
	const sb_window_t *v;

	ck_assert_int_eq(sb_busy_set_build(BASE, END, 15, false, win, 6, &b),
			 0);
	/* [10,15) from the job and [5,12); [20,28) merged; [45,50) cut. */
	ck_assert_uint_eq(b.n, 4);
	v = sb_busy_set_windows(&b);
	ck_assert_ptr_eq(v, b.w);
	ck_assert(v[0].start == 10 && v[0].end == 15);
	ck_assert(v[1].start == 20 && v[1].end == 28);
	ck_assert(v[2].start == 30 && v[2].end == 35);
	ck_assert(v[3].start == 45 && v[3].end == 50);
	ck_assert_int_eq(sb_busy_set_check(&b, BASE, END), 0);
	ck_assert(sb_busy_set_free(&b, 15, 20));
	ck_assert(!sb_busy_set_free(&b, 15, 21));
	ck_assert(sb_busy_set_free(&b, 35, 45));
	/* Down: busy throughout, windows or not. */
	ck_assert_int_eq(sb_busy_set_build(BASE, END, 0, true, win, 6, &c),
			 0);
	ck_assert_uint_eq(c.n, 1);
	ck_assert(!sb_busy_set_equal(&b, &c));
	sb_busy_set_fini(&c);
	/* Busy until 30, no window: one window, kept inline. */
	ck_assert_int_eq(sb_busy_set_build(BASE, END, 30, false, NULL, 0, &c),
			 0);
	ck_assert_uint_eq(c.n, 1);
	ck_assert_ptr_null(c.w);
	ck_assert(c.one.start == BASE && c.one.end == 30);
	ck_assert_ptr_eq(sb_busy_set_windows(&c), &c.one);
	ck_assert_int_eq(sb_busy_set_check(&c, BASE, END), 0);
	ck_assert(!sb_busy_set_free(&c, 29, 31));
	ck_assert(sb_busy_set_free(&c, 30, 31));
	/* A copy moves it: its window is the copy's own. */
	d = c;
	ck_assert_ptr_eq(sb_busy_set_windows(&d), &d.one);
	ck_assert(sb_busy_set_equal(&c, &d));
	/* Windows merging into one are kept inline too. */
	sb_busy_set_fini(&c);
	ck_assert_int_eq(sb_busy_set_build(BASE, END, 30, false, win + 2, 2,
					   &c), 0);
	ck_assert_ptr_null(c.w);
	ck_assert(sb_busy_set_equal(&c, &d));
	sb_busy_set_fini(&c);
	/* Idle, no window: empty. */
	ck_assert_int_eq(sb_busy_set_build(BASE, END, BASE, false, NULL, 0,
					   &c), 0);
	ck_assert_uint_eq(c.n, 0);
	ck_assert_ptr_null(c.w);
	ck_assert_ptr_null(sb_busy_set_windows(&c));
	ck_assert(sb_busy_set_free(&c, BASE, END));
	ck_assert_int_eq(sb_busy_set_check(&c, BASE, END), 0);
	/* A broken set is caught: windows out of order, or stored where
	 * the count does not say. */
	b.w[1].start = 15;
	errno = 0;
	ck_assert_int_eq(sb_busy_set_check(&b, BASE, END), -1);
	ck_assert_int_eq(errno, EFAULT);
	d.w = b.w;
	errno = 0;
	ck_assert_int_eq(sb_busy_set_check(&d, BASE, END), -1);
	ck_assert_int_eq(errno, EFAULT);
	b.n = 1;
	errno = 0;
	ck_assert_int_eq(sb_busy_set_check(&b, BASE, END), -1);
	ck_assert_int_eq(errno, EFAULT);
	b.n = 4;
	sb_busy_set_fini(&b);
	sb_busy_set_fini(&b);
	sb_busy_set_fini(NULL);
}
END_TEST

START_TEST(test_oracle)
{
	sb_test_rng_t g;
	sb_window_t win[MAXW];
	bool busy[END + 10];
	sb_busy_set_t b, again;
	const sb_window_t *v;
	int round;

	sb_test_rng_seed(&g, 20261123);
	for (round = 0; round < 400; round++) {
		size_t nwin = (size_t) sb_test_rng_below(&g, MAXW + 1), i;
		int64_t until = sb_test_rng_range(&g, 0, END + 5), s, e;
		bool down = sb_test_rng_below(&g, 10) == 0;

		for (i = 0; i < nwin; i++) {
			win[i].start = sb_test_rng_range(&g, 0, END + 5);
			win[i].end = win[i].start +
				sb_test_rng_range(&g, 1, 15);
		}
		_oracle(until, down, win, nwin, busy);
		ck_assert_int_eq(sb_busy_set_build(BASE, END, until, down, win,
						   nwin, &b), 0);
		ck_assert_int_eq(sb_busy_set_check(&b, BASE, END), 0);
		v = sb_busy_set_windows(&b);
		for (i = 0; i < b.n; i++)
			for (s = v[i].start; s < v[i].end; s++)
				ck_assert(busy[s]);
		for (s = BASE; s < END; s++)
			for (e = s + 1; e <= END; e++) {
				bool want = true;
				int64_t t;

				for (t = s; t < e; t++)
					want &= !busy[t];
				ck_assert_int_eq(sb_busy_set_free(&b, s, e),
						 want);
			}
		/* The same state in another order gives the same set. */
		for (i = 0; i + 1 < nwin; i += 2) {
			sb_window_t t = win[i];

			win[i] = win[i + 1];
			win[i + 1] = t;
		}
		ck_assert_int_eq(sb_busy_set_build(BASE, END, until, down, win,
						   nwin, &again), 0);
		ck_assert(sb_busy_set_equal(&b, &again));
		sb_busy_set_fini(&again);
		sb_busy_set_fini(&b);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("busy_set");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_table);
	tcase_add_test(tc, test_oracle);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
