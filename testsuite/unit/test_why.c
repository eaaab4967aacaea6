/*
 * test_why.c - unit tests for common/why: reservations as busy-later
 * windows, running jobs' ends, WILL_RUN's plan, the census of a request
 * and the jobs it waits for, on random clusters against brute force.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bucket.h"
#include "sb_test.h"
#include "sb_time.h"
#include "why.h"
#include "will_run.h"

#define NOW 1000

typedef struct {
	size_t n;
	sb_node_t *nodes;
	sb_model_resv_t resv[4];
	sb_bitmap_t *resv_nodes[4];
	size_t nresv;
	sb_model_job_t jobs[6];
	sb_bitmap_t *job_nodes[6];
	size_t njobs;
} cluster_t;

static void _cluster(cluster_t *c, sb_test_rng_t *rng)
{
	static const char *const feat[] = { "a", "b", "c" };
	size_t i, k;
	int64_t x;

	memset(c, 0, sizeof(*c));
	c->n = 1 + sb_test_rng_below(rng, 40);
	c->nodes = calloc(c->n, sizeof(*c->nodes));
	ck_assert_ptr_nonnull(c->nodes);
	for (i = 0; i < c->n; i++) {
		char name[32];
		sb_node_t *nd = &c->nodes[i];

		snprintf(name, sizeof(name), "n%zu", i + 1);
		ck_assert_int_eq(sb_node_init(nd, (uint32_t) i, name), 0);
		nd->cpus = 1 + (uint32_t) sb_test_rng_below(rng, 3);
		sb_node_add_feature(nd, feat[sb_test_rng_below(rng, 3)]);
		switch (sb_test_rng_below(rng, 6)) {
		case 0:
			nd->state = SB_NODE_DOWN;
			break;
		case 1:
			nd->state = SB_NODE_DRAINED;
			break;
		default:
			break;
		}
	}
	c->nresv = sb_test_rng_below(rng, 5);
	for (k = 0; k < c->nresv; k++) {
		c->resv_nodes[k] = sb_bitmap_alloc(c->n);
		for (i = 0; i < c->n; i++)
			if (!sb_test_rng_below(rng, 4))
				sb_bitmap_set(c->resv_nodes[k], i);
		x = NOW + sb_test_rng_range(rng, -300, 300);
		c->resv[k].name = "r";
		c->resv[k].nodes = c->resv_nodes[k];
		c->resv[k].start = x;
		c->resv[k].end = x + sb_test_rng_range(rng, 1, 600);
	}
	/* running jobs on up nodes, some sharing nodes */
	c->njobs = sb_test_rng_below(rng, 7);
	for (k = 0; k < c->njobs; k++) {
		c->job_nodes[k] = sb_bitmap_alloc(c->n);
		for (i = 0; i < c->n; i++)
			if (!sb_test_rng_below(rng, 5) &&
			    c->nodes[i].state == SB_NODE_IDLE)
				sb_bitmap_set(c->job_nodes[k], i);
		c->jobs[k].id = "j";
		c->jobs[k].nodes = c->job_nodes[k];
		c->jobs[k].end = sb_test_rng_below(rng, 8) ? NOW +
			sb_test_rng_range(rng, -10, 500) : SB_TIME_INFINITE;
	}
	for (k = 0; k < c->njobs; k++)
		for (i = 0; i < c->n; i++)
			if (sb_bitmap_test(c->job_nodes[k], i) == 1) {
				c->nodes[i].state = SB_NODE_ALLOCATED;
				c->nodes[i].run_jobs = 1;
			}
}

static void _cluster_fini(cluster_t *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		sb_node_fini(&c->nodes[i]);
	free(c->nodes);
	for (i = 0; i < c->nresv; i++)
		sb_bitmap_free(c->resv_nodes[i]);
	for (i = 0; i < c->njobs; i++)
		sb_bitmap_free(c->job_nodes[i]);
}

START_TEST(test_windows_and_until)
{
	sb_test_rng_t rng;
	int round;

	sb_test_rng_seed(&rng, 14);
	for (round = 0; round < 300; round++) {
		cluster_t c;
		int64_t *until;
		size_t i, k;

		_cluster(&c, &rng);
		ck_assert_int_eq(sb_model_windows(c.nodes, c.n, c.resv, c.nresv,
						NOW), 0);
		until = calloc(c.n, sizeof(*until));
		ck_assert_int_eq(sb_model_busy_until(c.jobs, c.njobs, until,
						   c.n), 0);
		for (i = 0; i < c.n; i++) {
			int64_t want = 0;
			size_t w = 0;

			ck_assert_int_eq(sb_node_check(&c.nodes[i]), 0);
			/* a window for each future reservation on it */
			for (k = 0; k < c.nresv; k++) {
				if (sb_bitmap_test(c.resv_nodes[k], i) != 1 ||
				    c.resv[k].start <= NOW)
					continue;
				for (w = 0; w < c.nodes[i].nbusy; w++)
					if (c.nodes[i].busy[w].start <=
					    c.resv[k].start &&
					    c.nodes[i].busy[w].end >=
					    c.resv[k].end)
						break;
				ck_assert_uint_lt(w, c.nodes[i].nbusy);
			}
			for (k = 0; k < c.njobs; k++)
				if (sb_bitmap_test(c.job_nodes[k], i) == 1 &&
				    (c.jobs[k].end > 1 ? c.jobs[k].end : 1) >
				    want)
					want = c.jobs[k].end > 1 ?
						c.jobs[k].end : 1;
			ck_assert_int_eq(until[i], want);
		}
		free(until);
		_cluster_fini(&c);
	}
	errno = 0;
	ck_assert_int_eq(sb_model_windows(NULL, 1, NULL, 0, NOW), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

/* Oracle: a node's state for the census, from its own fields. */
static sb_why_state_t _state(const sb_node_t *nd, const sb_bitmap_t *resv,
			     size_t i)
{
	size_t w;

	if (nd->state == SB_NODE_DOWN || nd->state == SB_NODE_DRAINED)
		return SB_WHY_DOWN;
	if (resv && sb_bitmap_test(resv, i) == 1)
		return SB_WHY_RESERVED;
	if (nd->run_jobs || nd->state == SB_NODE_ALLOCATED)
		return SB_WHY_BUSY;
	for (w = 0; w < nd->nbusy; w++)
		if (nd->busy[w].end > NOW)
			return nd->busy[w].start <= NOW ? SB_WHY_BUSY :
				SB_WHY_LATER;
	return SB_WHY_FREE;
}

START_TEST(test_census_against_nodes)
{
	sb_test_rng_t rng;
	int round;

	sb_test_rng_seed(&rng, 1415);
	for (round = 0; round < 300; round++) {
		cluster_t c;
		sb_bucket_set_t *set;
		sb_request_t r;
		sb_chunk_t *ch;
		sb_bitmap_t *reserved, *allowed = NULL, *seen;
		sb_why_bucket_t *cen;
		size_t ncen, i, k, s, want[SB_WHY_NSTATES] = { 0 };
		size_t got[SB_WHY_NSTATES] = { 0 };
		uint32_t mincpus;

		_cluster(&c, &rng);
		sb_model_windows(c.nodes, c.n, c.resv, c.nresv, NOW);
		set = sb_bucket_set_create(c.nodes, c.n, NOW);
		ck_assert_ptr_nonnull(set);
		reserved = sb_bitmap_alloc(c.n);
		for (k = 0; k < c.nresv; k++)
			if (c.resv[k].start <= NOW && c.resv[k].end > NOW &&
			    sb_test_rng_below(&rng, 2))
				sb_bitmap_or(reserved, c.resv_nodes[k]);
		if (sb_test_rng_below(&rng, 3) == 0) {
			allowed = sb_bitmap_alloc(c.n);
			for (i = 0; i < c.n; i++)
				if (sb_test_rng_below(&rng, 2))
					sb_bitmap_set(allowed, i);
		}
		sb_request_init(&r);
		mincpus = 1 + (uint32_t) sb_test_rng_below(&rng, 3);
		ch = sb_request_add_chunk(&r, 1);
		ch->min_cpus = mincpus;
		if (sb_test_rng_below(&rng, 2)) {
			r.excluded = sb_bitmap_alloc(c.n);
			sb_bitmap_set(r.excluded, sb_test_rng_below(&rng, c.n));
		}
		ck_assert_int_eq(sb_why_census(set, &r, allowed, reserved,
					       &cen, &ncen), 0);
		seen = sb_bitmap_alloc(c.n);
		for (k = 0; k < ncen; k++) {
			ck_assert(!sb_bitmap_intersects(seen, cen[k].nodes));
			sb_bitmap_or(seen, cen[k].nodes);
			ck_assert(sb_bitmap_subset(cen[k].nodes,
				  sb_bucket_all(set, cen[k].bucket)));
			for (s = 0; s < SB_WHY_NSTATES; s++)
				got[s] += cen[k].count[s];
		}
		for (i = 0; i < c.n; i++) {
			bool in = c.nodes[i].cpus >= mincpus &&
				(!allowed || sb_bitmap_test(allowed, i) == 1) &&
				(!r.excluded ||
				 sb_bitmap_test(r.excluded, i) != 1);

			ck_assert_int_eq(sb_bitmap_test(seen, i), in);
			if (!in)
				continue;
			want[_state(&c.nodes[i], reserved, i)]++;
			ck_assert_int_eq(sb_why_node_state(set, i, reserved),
					 _state(&c.nodes[i], reserved, i));
		}
		for (s = 0; s < SB_WHY_NSTATES; s++)
			ck_assert_uint_eq(got[s], want[s]);
		sb_why_census_free(cen, ncen);
		sb_bitmap_free(seen);
		sb_bitmap_free(reserved);
		sb_bitmap_free(allowed);
		sb_request_fini(&r);
		sb_bucket_set_destroy(set);
		_cluster_fini(&c);
	}
}
END_TEST

/*
 * The plan: a one-node job of duration d may start at t on node i iff i
 * is up, free of its jobs by t and out of every reservation (but the
 * skipped one) over [t, t + d). Oracle: the earliest such t over the
 * candidate times (now, job ends, reservation ends).
 */
START_TEST(test_plan_one_node)
{
	sb_test_rng_t rng;
	int round;

	sb_test_rng_seed(&rng, 14141);
	for (round = 0; round < 300; round++) {
		cluster_t c;
		sb_bucket_set_t *set;
		sb_will_run_t *w;
		sb_will_run_result_t res;
		sb_request_t r;
		int64_t *until, d = sb_test_rng_range(&rng, 1, 400);
		int64_t best = SB_TIME_INFINITE;
		size_t skip, i, k;
		sb_policy_t pol = { .kind = SB_POLICY_FIRSTAVAILABLE };
		int rc;

		_cluster(&c, &rng);
		sb_model_windows(c.nodes, c.n, c.resv, c.nresv, NOW);
		until = calloc(c.n, sizeof(*until));
		sb_model_busy_until(c.jobs, c.njobs, until, c.n);
		set = sb_bucket_set_create(c.nodes, c.n, NOW);
		skip = sb_test_rng_below(&rng, c.nresv + 1);
		w = sb_model_plan(set, NOW, until, c.resv, c.nresv, skip);
		ck_assert_ptr_nonnull(w);
		ck_assert_int_eq(sb_will_run_check(w), 0);
		for (i = 0; i < c.n; i++) {
			int64_t cand[16], t;
			size_t nc = 0, q;

			if (c.nodes[i].state == SB_NODE_DOWN ||
			    c.nodes[i].state == SB_NODE_DRAINED)
				continue;
			cand[nc++] = NOW;
			if (until[i] == SB_TIME_INFINITE)
				continue;
			if (until[i] > NOW)
				cand[nc++] = until[i];
			else if (c.nodes[i].run_jobs)
				cand[nc++] = NOW + 1;	/* overdue */
			for (k = 0; k < c.nresv; k++)
				cand[nc++] = c.resv[k].end;
			for (q = 0; q < nc; q++) {
				bool ok;

				t = cand[q];
				ok = t >= NOW && t >= until[i] &&
					!(c.nodes[i].run_jobs && t < NOW + 1);
				for (k = 0; ok && k < c.nresv; k++)
					if (k != skip &&
					    sb_bitmap_test(c.resv_nodes[k],
							   i) == 1 &&
					    c.resv[k].end > NOW &&
					    c.resv[k].start < t + d &&
					    c.resv[k].end > t)
						ok = false;
				if (ok && t < best)
					best = t;
			}
		}
		sb_request_init(&r);
		sb_request_add_chunk(&r, 1);
		r.time_limit = d;
		rc = sb_will_run_query(w, &r, &pol, NULL, NOW, &res);
		if (best == SB_TIME_INFINITE) {
			ck_assert_int_eq(rc, -1);
			ck_assert_int_eq(errno, ENOENT);
		} else {
			ck_assert_int_eq(rc, 0);
			ck_assert_int_eq(res.start, best);
			sb_will_run_result_fini(&res);
		}
		sb_request_fini(&r);
		sb_will_run_destroy(w);
		sb_bucket_set_destroy(set);
		free(until);
		_cluster_fini(&c);
	}
}
END_TEST

START_TEST(test_state_names)
{
	ck_assert_str_eq(sb_why_state_name(SB_WHY_FREE), "free");
	ck_assert_str_eq(sb_why_state_name(SB_WHY_LATER), "busy-later");
	ck_assert_str_eq(sb_why_state_name(SB_WHY_RESERVED), "reserved");
	ck_assert_str_eq(sb_why_state_name(SB_WHY_NSTATES), "?");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("why");
	TCase *tc = tcase_create("why");

	tcase_add_test(tc, test_windows_and_until);
	tcase_add_test(tc, test_census_against_nodes);
	tcase_add_test(tc, test_plan_one_node);
	tcase_add_test(tc, test_state_names);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
