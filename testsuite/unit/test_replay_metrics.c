/*
 * test_replay_metrics.c - unit tests of a replay's figures
 * (replay_metrics.h): a hand case, bad input, and random outcomes
 * against the definitions written out.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "replay_metrics.h"
#include "sb_test.h"

#define NEAR(a, b) (fabs((a) - (b)) <= 1e-9 * (1.0 + fabs(b)))

/* The seed's example under EASY (test_replay's test_seed_example). */
START_TEST(test_hand)
{
	sb_replay_job_t j[4] = {
		{ 0, 7200, 7200, 2, 0, 0 },
		{ 0, 7200, 7200, 2, 0, 0 },
		{ 0, 3600, 3600, 1, 1, 0 },
		{ 0, 14400, 14400, 4, 2, 0 },
	};
	sb_replay_out_t o[4] = {
		{ 0, 7200, 7200, 0, false, false },
		{ 0, 7200, 7200, 0, false, false },
		{ 7200, 10800, 3600, 0, false, false },
		{ 10800, 25200, 14400, 0, false, false },
	};
	sb_replay_metrics_t m;

	ck_assert_int_eq(sb_replay_metrics(j, o, 4, 4, 0.0, 3, &m), 0);
	ck_assert_int_eq(m.counted, 4);
	ck_assert(NEAR(m.mean_wait, 4500.0));
	ck_assert(NEAR(m.median_wait, 3600.0));
	ck_assert(NEAR(m.p90_wait, 10800.0));
	ck_assert(NEAR(m.mean_bsld, (1.0 + 1.0 + 3.0 + 1.75) / 4.0));
	ck_assert_int_eq(m.makespan, 25200);
	ck_assert(NEAR(m.utilization, 90000.0 / 100800.0));
	ck_assert(NEAR(m.accuracy, 1.0));
	ck_assert_int_eq(m.users, 3);
	ck_assert_int_eq(m.user[0].jobs, 2);
	ck_assert(NEAR(m.user[1].mean_bsld, 3.0));
	/* users' slowdowns 1, 3, 1.75: (5.75)^2 / (3 * 13.0625) */
	ck_assert(NEAR(m.jain, 5.75 * 5.75 / (3.0 * 13.0625)));
	sb_replay_metrics_fini(&m);
	/* the first 25 % to end (job 0, the first given of the two
	 * ending first) left out */
	ck_assert_int_eq(sb_replay_metrics(j, o, 4, 4, 25.0, 3, &m), 0);
	ck_assert_int_eq(m.counted, 3);
	ck_assert(NEAR(m.mean_wait, 6000.0));
	ck_assert_int_eq(m.user[0].jobs, 1);
	sb_replay_metrics_fini(&m);
	/* bounded at 10 s */
	ck_assert(NEAR(sb_replay_bsld(20, 2), 2.2));
	ck_assert(NEAR(sb_replay_bsld(0, 2), 1.0));
	ck_assert(NEAR(sb_replay_bsld(30, 30), 2.0));
	/* bad input */
	ck_assert_int_eq(sb_replay_metrics(j, o, 4, 4, 100.0, 3, &m), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_replay_metrics(j, o, 4, 4, 0.0, 2, &m), -1);
	ck_assert_int_eq(sb_replay_metrics(j, o, 0, 4, 0.0, 3, &m), -1);
	o[1].end = -1;
	ck_assert_int_eq(sb_replay_metrics(j, o, 4, 4, 0.0, 3, &m), -1);
	sb_replay_metrics_fini(NULL);
}
END_TEST

static int _cmp(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return x < y ? -1 : x > y;
}

/* Random outcomes against the definitions, jobs taken one by one. */
START_TEST(test_random)
{
	sb_test_rng_t rng;
	unsigned long cs;

	sb_test_rng_seed(&rng, 4747);
	for (cs = 0; cs < 2000; cs++) {
		size_t n = 1 + sb_test_rng_below(&rng, 60), i, k, nu = 5;
		sb_replay_job_t j[60];
		sb_replay_out_t o[60];
		bool in[60];
		double pct = (double) sb_test_rng_below(&rng, 30), w[60];
		double sw = 0, sb = 0, busy = 0, ub[5] = { 0 }, sx = 0, sxx = 0;
		size_t drop = (size_t) ((double) n * pct / 100.0), c = 0;
		size_t uj[5] = { 0 }, users = 0;
		int64_t first = INT64_MAX, last = 0;
		sb_replay_metrics_t m;

		memset(o, 0, sizeof(o));
		memset(j, 0, sizeof(j));
		for (i = 0; i < n; i++) {
			j[i].submit = sb_test_rng_range(&rng, 0, 100);
			j[i].size = sb_test_rng_range(&rng, 1, 4);
			j[i].user = (uint32_t) sb_test_rng_below(&rng, nu);
			o[i].start = j[i].submit +
				sb_test_rng_range(&rng, 0, 50);
			o[i].end = o[i].start + sb_test_rng_range(&rng, 0, 40);
			o[i].believed = sb_test_rng_range(&rng, 1, 60);
			in[i] = true;
		}
		/* leave out the first to end, ties to the first given */
		for (k = 0; k < drop; k++) {
			size_t best = n;

			for (i = 0; i < n; i++)
				if (in[i] && (best == n ||
					      o[i].end < o[best].end))
					best = i;
			in[best] = false;
		}
		for (i = 0; i < n; i++) {
			int64_t wt = o[i].start - j[i].submit;
			int64_t run = o[i].end - o[i].start;
			double b = (double) (wt + run) /
				(double) (run > 10 ? run : 10);

			if (b < 1)
				b = 1;
			busy += (double) j[i].size * (double) run;
			if (j[i].submit < first)
				first = j[i].submit;
			if (o[i].end > last)
				last = o[i].end;
			if (!in[i])
				continue;
			w[c++] = (double) wt;
			sw += (double) wt;
			sb += b;
			ub[j[i].user] += b;
			uj[j[i].user]++;
		}
		SB_REQ_CASE(sb_replay_metrics(j, o, n, 4, pct, nu, &m) == 0,
			    cs);
		qsort(w, c, sizeof(*w), _cmp);
		SB_REQ_CASE(m.counted == c, cs);
		SB_REQ_CASE(NEAR(m.mean_wait, sw / (double) c), cs);
		SB_REQ_CASE(NEAR(m.mean_bsld, sb / (double) c), cs);
		SB_REQ_CASE(NEAR(m.median_wait, c % 2 ? w[c / 2] :
				 (w[c / 2 - 1] + w[c / 2]) / 2), cs);
		SB_REQ_CASE(NEAR(m.p90_wait, w[(c * 9 + 9) / 10 - 1]), cs);
		SB_REQ_CASE(NEAR(m.max_wait, w[c - 1]), cs);
		SB_REQ_CASE(m.makespan == last - first, cs);
		SB_REQ_CASE(last == first ||
			    NEAR(m.utilization, busy / (4.0 * (double)
							(last - first))), cs);
		for (i = 0; i < nu; i++) {
			SB_REQ_CASE(m.user[i].jobs == uj[i], cs);
			if (!uj[i])
				continue;
			users++;
			SB_REQ_CASE(NEAR(m.user[i].mean_bsld,
					 ub[i] / (double) uj[i]), cs);
			sx += ub[i] / (double) uj[i];
			sxx += (ub[i] / (double) uj[i]) *
				(ub[i] / (double) uj[i]);
		}
		SB_REQ_CASE(m.users == users, cs);
		SB_REQ_CASE(NEAR(m.jain, sx * sx / ((double) users * sxx)),
			    cs);
		sb_replay_metrics_fini(&m);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("replay_metrics");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_hand);
	tcase_add_test(tc, test_random);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
