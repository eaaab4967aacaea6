/*
 * test_linear_pick.c - unit tests for common/linear_pick: select/linear's
 * choice of whole nodes, on written cases and against an oracle that
 * follows select_linear.c's _job_test() table of consecutive runs.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bitmap.h"
#include "linear_pick.h"
#include "sb_test.h"

/* Pick @count of the nodes in @usable (canonical form, @size nodes);
 * the answer in canonical form ("" for none), to free(). */
static char *_pick(const char *usable, size_t size, size_t count, int *rc)
{
	sb_bitmap_t *u = sb_bitmap_parse(usable, size, NULL);
	sb_bitmap_t *o = sb_bitmap_alloc(size);
	char *s;

	ck_assert_ptr_nonnull(u);
	ck_assert_ptr_nonnull(o);
	*rc = sb_linear_pick(u, count, o);
	s = sb_bitmap_fmt(o);
	sb_bitmap_free(u);
	sb_bitmap_free(o);
	return s;
}

START_TEST(test_cases)
{
	static const struct {
		const char *usable;
		size_t count;
		int rc;
		const char *want;
	} c[] = {
		/* the smallest run that holds it, from its low end */
		{ "0-9,20-23,30-35", 4, 1, "20-23" },
		{ "0-9,20-23,30-35", 5, 1, "30-34" },
		/* the first of equal runs */
		{ "0-3,10-13", 2, 1, "0-1" },
		{ "2-4,7,9-11", 3, 1, "2-4" },
		/* none holds it: the largest first, then the best for the
		 * rest */
		{ "0-2,10-14,20-21", 7, 1, "10-14,20-21" },
		{ "0-2,10-14,20-21", 6, 1, "10-14,20" },
		{ "0,2,4,6", 3, 1, "0,2,4" },
		{ "0-63,79-97", 80, 1, "0-63,79-94" },
		/* not enough */
		{ "0-2,10", 5, 0, "" },
		{ "", 1, 0, "" },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		int rc;
		char *got = _pick(c[i].usable, 128, c[i].count, &rc);

		ck_assert_msg(rc == c[i].rc && !strcmp(got, c[i].want),
			      "case %zu: %s count %zu: rc %d '%s', want %d '%s'",
			      i, c[i].usable, c[i].count, rc, got, c[i].rc,
			      c[i].want);
		free(got);
	}
}
END_TEST

START_TEST(test_errors)
{
	sb_bitmap_t *a = sb_bitmap_alloc(8), *b = sb_bitmap_alloc(9);

	ck_assert_int_eq(sb_linear_pick(NULL, 1, a), -1);
	ck_assert_int_eq(sb_linear_pick(a, 1, NULL), -1);
	ck_assert_int_eq(sb_linear_pick(a, 1, b), -1);
	ck_assert_int_eq(sb_linear_pick(a, 0, a), -1);
	sb_bitmap_free(a);
	sb_bitmap_free(b);
}
END_TEST

/*
 * The oracle: _job_test()'s way, on arrays of runs (start, length) built
 * once; a run taken whole is zeroed, the best found again each round.
 */
static int _oracle(const bool *u, size_t n, size_t count, bool *out)
{
	size_t st[256], len[256], nr = 0, i, need = count, have = 0;

	memset(out, 0, n * sizeof(*out));
	for (i = 0; i < n; i++) {
		if (!u[i])
			continue;
		have++;
		if (i && u[i - 1])
			len[nr - 1]++;
		else {
			st[nr] = i;
			len[nr++] = 1;
		}
	}
	if (have < count)
		return 0;
	while (need) {
		size_t best = nr, k;
		bool bs = false;

		for (k = 0; k < nr; k++) {
			bool s = len[k] >= need;

			if (!len[k])
				continue;
			if (best == nr || (s && !bs) ||
			    (s && len[k] < len[best]) ||
			    (!s && len[k] > len[best])) {
				best = k;
				bs = s;
			}
		}
		for (k = 0; k < len[best] && need; k++, need--)
			out[st[best] + k] = true;
		len[best] = 0;
	}
	return 1;
}

START_TEST(test_against_oracle)
{
	unsigned seed = 48;
	int round;

	for (round = 0; round < 20000; round++) {
		size_t n = 1 + (size_t) rand_r(&seed) % 200, i, count;
		int dens = 1 + rand_r(&seed) % 9, rc, want;
		bool u[200], out[200];
		sb_bitmap_t *b = sb_bitmap_alloc(n), *o = sb_bitmap_alloc(n);

		for (i = 0; i < n; i++)
			if ((u[i] = rand_r(&seed) % 10 < dens))
				sb_bitmap_set(b, i);
		count = 1 + (size_t) rand_r(&seed) % n;
		want = _oracle(u, n, count, out);
		rc = sb_linear_pick(b, count, o);
		ck_assert_int_eq(rc, want);
		ck_assert_int_eq(sb_bitmap_check(o), 0);
		for (i = 0; i < n; i++)
			ck_assert_msg(sb_bitmap_test(o, i) == out[i],
				      "round %d: node %zu", round, i);
		sb_bitmap_free(b);
		sb_bitmap_free(o);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("linear_pick");
	TCase *tc = tcase_create("linear_pick");

	tcase_add_test(tc, test_cases);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_against_oracle);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
