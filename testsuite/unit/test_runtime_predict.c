/*
 * test_runtime_predict.c - unit tests of the run-time predictor
 * (runtime_predict.h): hand cases, and random histories checked against
 * a brute-force oracle that keeps every run and searches them all.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "runtime_predict.h"
#include "sb_test.h"
#include "sb_time.h"

static const char *const users[] = { "u1", "u2", "u3", "u10" };
static const char *const parts[] = { "debug", "long", "" };
static const int64_t limits[] = { 60, 300, 600, SB_TIME_INFINITE };

START_TEST(test_hand)
{
	sb_rt_history_t *h = sb_rt_history_create();
	sb_rt_run_t r = { "alice", "debug", 1000, 250, 600, 1 };
	sb_rt_pred_t p;

	ck_assert_ptr_nonnull(h);
	/* nothing known: the limit */
	ck_assert_int_eq(sb_rt_predict(h, "alice", "debug", 600, 1, &p), 0);
	ck_assert_int_eq(p.basis, SB_RT_NONE);
	ck_assert_int_eq(p.runtime, 600);
	ck_assert_int_eq(p.nruns, 0);
	/* one similar run: that one */
	ck_assert_int_eq(sb_rt_history_add(h, &r), 0);
	ck_assert_int_eq(sb_rt_history_check(h), 0);
	ck_assert_int_eq(sb_rt_predict(h, "alice", "debug", 600, 1, &p), 0);
	ck_assert_int_eq(p.basis, SB_RT_SIMILAR);
	ck_assert_int_eq(p.runtime, 250);
	/* two: their mean, rounded up */
	r.end = 2000;
	r.elapsed = 301;
	ck_assert_int_eq(sb_rt_history_add(h, &r), 0);
	/* an older one does not count */
	r.end = 10;
	r.elapsed = 5;
	ck_assert_int_eq(sb_rt_history_add(h, &r), 0);
	ck_assert_int_eq(sb_rt_history_check(h), 0);
	ck_assert_int_eq(sb_rt_predict(h, "alice", "debug", 600, 1, &p), 0);
	ck_assert_int_eq(p.basis, SB_RT_SIMILAR);
	ck_assert_int_eq(p.nruns, 2);
	ck_assert_int_eq(p.runs[0], 301);
	ck_assert_int_eq(p.runs[1], 250);
	ck_assert_int_eq(p.runtime, 276);
	/* another limit: the user's last two, capped by the limit */
	ck_assert_int_eq(sb_rt_predict(h, "alice", "debug", 120, 1, &p), 0);
	ck_assert_int_eq(p.basis, SB_RT_USER);
	ck_assert_int_eq(p.runtime, 120);
	ck_assert(p.capped);
	/* another user: nothing */
	ck_assert_int_eq(sb_rt_predict(h, "bob", "debug", 600, 1, &p), 0);
	ck_assert_int_eq(p.basis, SB_RT_NONE);
	/* names cannot run into each other */
	ck_assert_int_eq(sb_rt_predict(h, "alic", "edebug", 600, 1, &p), 0);
	ck_assert_int_eq(p.basis, SB_RT_NONE);
	/* a run of 0 s predicts 1 s */
	r.user = "carol";
	r.elapsed = 0;
	ck_assert_int_eq(sb_rt_history_add(h, &r), 0);
	ck_assert_int_eq(sb_rt_predict(h, "carol", "debug", 600, 1, &p), 0);
	ck_assert_int_eq(p.runtime, 1);
	ck_assert_int_eq(sb_rt_history_count(h), 4);
	/* bad input changes nothing */
	r.elapsed = -1;
	ck_assert_int_eq(sb_rt_history_add(h, &r), -1);
	ck_assert_int_eq(errno, EINVAL);
	r.elapsed = 1;
	r.time_limit = 0;
	ck_assert_int_eq(sb_rt_history_add(h, &r), -1);
	ck_assert_int_eq(errno, EINVAL);
	r.time_limit = 60;
	r.user = NULL;
	ck_assert_int_eq(sb_rt_history_add(h, &r), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_rt_history_count(h), 4);
	ck_assert_int_eq(sb_rt_predict(h, "carol", "debug", 0, 1, &p), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_rt_predict(NULL, "carol", "x", 5, 1, &p), 0);
	ck_assert_int_eq(p.basis, SB_RT_NONE);
	ck_assert_int_eq(sb_rt_history_check(h), 0);
	ck_assert_int_eq(sb_rt_history_check(NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	sb_rt_history_destroy(h);
	sb_rt_history_destroy(NULL);
}
END_TEST

START_TEST(test_running_end)
{
	/* before its prediction: start + prediction */
	ck_assert_int_eq(sb_rt_running_end(100, 700, 200, 150), 300);
	/* past it: its limit */
	ck_assert_int_eq(sb_rt_running_end(100, 700, 200, 300), 700);
	ck_assert_int_eq(sb_rt_running_end(100, 700, 200, 450), 700);
	/* never after its limit */
	ck_assert_int_eq(sb_rt_running_end(100, 250, 200, 150), 250);
	/* no limit: the prediction, then none */
	ck_assert_int_eq(sb_rt_running_end(100, SB_TIME_INFINITE, 200, 150),
			 300);
	ck_assert(sb_rt_running_end(100, SB_TIME_INFINITE, 200, 301) ==
		  SB_TIME_INFINITE);
	ck_assert_int_eq(sb_rt_running_end(100, 700, 0, 150), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_rt_running_end(100, 50, 10, 150), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_correct)
{
	static const int64_t steps[] = { 60, 300, 900, 1800, 3600, 7200,
					 18000, 36000, 72000, 180000, 360000 };
	unsigned n;
	int64_t prev = 100;

	/* 1, 5, 15, 30 minutes, ... 100 hours over the first prediction */
	for (n = 1; n <= SB_RT_CORRECT_STEPS; n++) {
		int64_t e = sb_rt_correct(100, SB_TIME_INFINITE, n);

		ck_assert_int_eq(e, 100 + steps[n - 1]);
		ck_assert_int_gt(e, prev);
		prev = e;
	}
	/* then the limit (none: infinite) */
	ck_assert(sb_rt_correct(100, SB_TIME_INFINITE, 12) ==
		  SB_TIME_INFINITE);
	ck_assert_int_eq(sb_rt_correct(100, 7200, 12), 7200);
	/* never above the limit */
	ck_assert_int_eq(sb_rt_correct(100, 1000, 1), 160);
	ck_assert_int_eq(sb_rt_correct(100, 1000, 2), 400);
	ck_assert_int_eq(sb_rt_correct(100, 1000, 3), 1000);
	ck_assert_int_eq(sb_rt_correct(100, 1000, 9), 1000);
	ck_assert_int_eq(sb_rt_correct(100, 100, 1), 100);
	/* bad input */
	ck_assert_int_eq(sb_rt_correct(0, 100, 1), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_rt_correct(100, 99, 1), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_rt_correct(100, 200, 0), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_rt_predict_user(NULL, "u", 10, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

/* ---- the oracle: every run kept, searched whole ------------------------ */

#define MAXR 40

typedef struct {
	sb_rt_run_t r[MAXR];
	size_t n;
} _all_t;

/* The prediction from the runs of @a that @match accepts. */
static void _oracle(const _all_t *a, const char *user, const char *part,
		    int64_t limit, uint32_t nodes, bool similar,
		    sb_rt_pred_t *out)
{
	size_t i, best[2], nb = 0;
	int64_t sum;

	for (i = 0; i < a->n; i++) {
		const sb_rt_run_t *r = &a->r[i];
		size_t k;

		if (strcmp(r->user, user) ||
		    (similar && (strcmp(r->partition, part) ||
				 r->time_limit != limit || r->nodes != nodes)))
			continue;
		/* later end, or the same end added later (i grows) */
		for (k = 0; k < nb && (a->r[best[k]].end > r->end); k++)
			;
		if (k >= 2)
			continue;
		if (k == 0) {
			best[1] = best[0];
			best[0] = i;
		} else {
			best[1] = i;
		}
		if (nb < 2)
			nb++;
	}
	memset(out, 0, sizeof(*out));
	out->basis = SB_RT_NONE;
	out->runtime = limit;
	if (!nb)
		return;
	out->basis = similar ? SB_RT_SIMILAR : SB_RT_USER;
	out->nruns = nb;
	out->runs[0] = a->r[best[0]].elapsed;
	out->runs[1] = nb > 1 ? a->r[best[1]].elapsed : 0;
	sum = out->runs[0] + out->runs[1];
	out->runtime = nb > 1 ? (sum + 1) / 2 : sum;
	if (out->runtime < 1)
		out->runtime = 1;
	if (out->runtime > limit) {
		out->runtime = limit;
		out->capped = true;
	}
}

static void _expect(const _all_t *a, const char *user, const char *part,
		    int64_t limit, uint32_t nodes, sb_rt_pred_t *out)
{
	_oracle(a, user, part, limit, nodes, true, out);
	if (out->basis == SB_RT_NONE)
		_oracle(a, user, part, limit, nodes, false, out);
}

START_TEST(test_random_oracle)
{
	sb_test_rng_t rng;
	unsigned long c;

	sb_test_rng_seed(&rng, 20071);
	for (c = 0; c < 3000; c++) {
		sb_rt_history_t *h = sb_rt_history_create();
		_all_t *a = calloc(1, sizeof(*a));
		size_t i, nr = sb_test_rng_below(&rng, MAXR + 1), q;

		SB_REQ(h && a);
		for (i = 0; i < nr; i++) {
			sb_rt_run_t *r = &a->r[a->n];

			r->user = users[sb_test_rng_below(&rng, 4)];
			r->partition = parts[sb_test_rng_below(&rng, 3)];
			/* few distinct ends: ties are common */
			r->end = sb_test_rng_range(&rng, 0, 20);
			r->time_limit = limits[sb_test_rng_below(&rng, 4)];
			r->elapsed = sb_test_rng_range(&rng, 0, 900);
			r->nodes = (uint32_t) sb_test_rng_range(&rng, 1, 2);
			SB_REQ_CASE(sb_rt_history_add(h, r) == 0, c);
			a->n++;
			SB_REQ_CASE(sb_rt_history_check(h) == 0, c);
		}
		SB_REQ_CASE(sb_rt_history_count(h) == a->n, c);
		for (q = 0; q < 40; q++) {
			const char *u = users[sb_test_rng_below(&rng, 4)];
			const char *pt = parts[sb_test_rng_below(&rng, 3)];
			int64_t lim = limits[sb_test_rng_below(&rng, 4)];
			uint32_t nn = (uint32_t) sb_test_rng_range(&rng, 1, 2);
			sb_rt_pred_t got, want;

			SB_REQ_CASE(sb_rt_predict(h, u, pt, lim, nn, &got) ==
				    0, c);
			_expect(a, u, pt, lim, nn, &want);
			SB_REQ_CASE(got.basis == want.basis, c);
			SB_REQ_CASE(got.runtime == want.runtime, c);
			SB_REQ_CASE(got.nruns == want.nruns, c);
			SB_REQ_CASE(got.runs[0] == want.runs[0], c);
			SB_REQ_CASE(got.runs[1] == want.runs[1], c);
			SB_REQ_CASE(got.capped == want.capped, c);
			/* the user's runs of any job alone */
			SB_REQ_CASE(sb_rt_predict_user(h, u, lim, &got) == 0,
				    c);
			_oracle(a, u, pt, lim, nn, false, &want);
			SB_REQ_CASE(got.basis == want.basis, c);
			SB_REQ_CASE(got.runtime == want.runtime, c);
			SB_REQ_CASE(got.nruns == want.nruns, c);
			SB_REQ_CASE(got.runs[0] == want.runs[0], c);
			SB_REQ_CASE(got.runs[1] == want.runs[1], c);
			SB_REQ_CASE(got.capped == want.capped, c);
		}
		sb_rt_history_destroy(h);
		free(a);
	}
}
END_TEST

/* The running end against its rule written out, over small times. */
START_TEST(test_running_end_oracle)
{
	int64_t s, le, rt, now;

	for (s = 0; s < 6; s++)
		for (le = s; le < 14; le++)
			for (rt = 1; rt < 12; rt++)
				for (now = 0; now < 16; now++) {
					int64_t want = s + rt > now ?
						(s + rt < le ? s + rt : le) :
						le;

					SB_REQ(sb_rt_running_end(s, le, rt,
								 now) == want);
					SB_REQ(sb_rt_running_end(s, le, rt,
								 now) <= le);
				}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("runtime_predict");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_hand);
	tcase_add_test(tc, test_running_end);
	tcase_add_test(tc, test_correct);
	tcase_add_test(tc, test_random_oracle);
	tcase_add_test(tc, test_running_end_oracle);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
