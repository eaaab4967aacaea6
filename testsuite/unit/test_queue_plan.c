/*
 * test_queue_plan.c - unit tests of the queue plan (queue_plan.h): hand
 * cases, and random queues checked against a brute-force oracle over
 * integer times (no two jobs share what they may not, every limit and
 * dependency holds, and no job could have started earlier given the
 * jobs planned before it).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bucket.h"
#include "limit_plan.h"
#include "queue_plan.h"
#include "sb_test.h"

#define MAXN 6
#define MAXJ 8
#define MAXU 3		/* running uses of a node */
#define H 600		/* every time of a case is below */

typedef struct {
	int64_t end;
	uint32_t cpus;
	uint64_t mem;
} _use_t;

typedef struct {
	size_t n;
	sb_node_t nodes[MAXN];
	_use_t use[MAXN][MAXU];
	size_t nuse[MAXN];
	int64_t bu[MAXN];
	int64_t lim, held_end[2];	/* one limit, two holders of 1 */
	size_t nj;
	sb_request_t req[MAXJ];
	sb_qp_job_t jobs[MAXJ];
	sb_qp_dep_t deps[MAXJ];
	int64_t need[MAXJ][1];
	sb_qp_result_t res[MAXJ];
} _case_t;

static bool _down(const sb_node_t *n)
{
	return n->state == SB_NODE_DOWN || n->state == SB_NODE_DRAINED;
}

static bool _over(int64_t s1, int64_t e1, int64_t s2, int64_t e2)
{
	return s1 < e2 && s2 < e1;
}

/*
 * Can job @j use node @i over [s, e), given the running uses and the
 * jobs planned before order @order (every planned one when SIZE_MAX)?
 */
static bool _node_ok(const _case_t *c, size_t j, size_t i, int64_t s,
		     int64_t e, size_t order)
{
	const sb_qp_job_t *q = &c->jobs[j];
	const sb_node_t *nd = &c->nodes[i];
	int64_t t;
	size_t k;

	if (_down(nd))
		return false;
	if (q->req->required && sb_bitmap_test(q->req->required, i) != 1)
		return false;
	if (q->kind == SB_QP_WHOLE || q->exclusive) {
		if (c->bu[i] > s)
			return false;
		for (k = 0; k < c->nj; k++)
			if (k != j && c->res[k].nodes &&
			    c->res[k].order < order &&
			    sb_bitmap_test(c->res[k].nodes, i) == 1 &&
			    _over(s, e, c->res[k].start, c->res[k].end))
				return false;
		return true;
	}
	if (q->cpus > nd->cpus || q->mem > nd->real_memory)
		return false;
	for (t = s; t < e && t < H; t++) {
		uint64_t cpus = q->cpus, mem = q->mem;

		for (k = 0; k < c->nuse[i]; k++)
			if (c->use[i][k].end > t) {
				cpus += c->use[i][k].cpus;
				mem += c->use[i][k].mem;
			}
		for (k = 0; k < c->nj; k++) {
			const sb_qp_result_t *r = &c->res[k];

			if (k == j || !r->nodes || r->order >= order ||
			    sb_bitmap_test(r->nodes, i) != 1 ||
			    r->start > t || r->end <= t)
				continue;
			if (c->jobs[k].kind == SB_QP_WHOLE ||
			    c->jobs[k].exclusive)
				return false;
			cpus += c->jobs[k].cpus;
			mem += c->jobs[k].mem;
		}
		if (cpus > nd->cpus || mem > nd->real_memory)
			return false;
	}
	return true;
}

/* Does the limit let job @j take its units over [s, e)? */
static bool _limit_ok(const _case_t *c, size_t j, int64_t s, int64_t e,
		      size_t order)
{
	int64_t t;
	size_t k;

	if (!c->need[j][0])
		return true;
	for (t = s; t < e && t < H; t++) {
		int64_t used = c->need[j][0];

		for (k = 0; k < 2; k++)
			used += c->held_end[k] > t;
		for (k = 0; k < c->nj; k++)
			if (k != j && c->res[k].nodes &&
			    c->res[k].order < order &&
			    c->res[k].start <= t && c->res[k].end > t)
				used += c->need[k][0];
		if (used > c->lim)
			return false;
	}
	return true;
}

/* How many nodes job @q gets. */
static uint64_t _count(const sb_qp_job_t *q)
{
	uint64_t n = sb_request_nodes(q->req);

	if (q->req->required && sb_bitmap_count(q->req->required) > n)
		n = sb_bitmap_count(q->req->required);
	return n;
}

/* Could job @j start at @s on enough nodes, under its limit? */
static bool _feasible(const _case_t *c, size_t j, int64_t s, size_t order)
{
	const sb_qp_job_t *q = &c->jobs[j];
	int64_t e = s + q->duration;
	uint64_t got = 0;
	size_t i;

	for (i = 0; i < c->n; i++)
		if (_node_ok(c, j, i, s, e, order))
			got++;
	return got >= _count(q) && _limit_ok(c, j, s, e, order);
}

static void _verify(const _case_t *c, unsigned long cs)
{
	size_t j, i, d;

	for (j = 0; j < c->nj; j++) {
		const sb_qp_result_t *r = &c->res[j];
		const sb_qp_job_t *q = &c->jobs[j];
		int64_t t0 = q->begin > 0 ? q->begin : 0, t;
		bool dep_never = false;

		for (d = 0; d < q->ndeps; d++) {
			const sb_qp_result_t *p = &c->res[q->deps[d].job];

			if (p->never) {
				dep_never = true;
				continue;
			}
			t = q->deps[d].kind == SB_QP_AFTER ?
				p->start + q->deps[d].delay : p->end;
			if (t > t0)
				t0 = t;
		}
		if (dep_never) {
			SB_REQ_CASE(r->never == SB_QP_NEVER_DEPENDENCY ||
				    r->never == SB_QP_NEVER_CYCLE, cs);
			continue;
		}
		if (r->never == SB_QP_NEVER_CYCLE) {
			/* only a job whose predecessor depends back */
			SB_REQ_CASE(q->ndeps, cs);
			continue;
		}
		if (r->never) {
			/* nothing fits, ever: not before H at least */
			for (t = t0; t < H - 60; t++)
				SB_REQ_CASE(!_feasible(c, j, t, r->order), cs);
			continue;
		}
		SB_REQ_CASE(r->start >= t0, cs);
		SB_REQ_CASE(r->nodes_start >= t0 && r->nodes_start <= r->start,
			    cs);
		if (!c->need[j][0])
			SB_REQ_CASE(r->nodes_start == r->start, cs);
		SB_REQ_CASE(r->end == r->start + q->duration, cs);
		SB_REQ_CASE(sb_bitmap_count(r->nodes) == _count(q), cs);
		/* its own nodes and limit hold, against the jobs before */
		for (i = 0; i < c->n; i++)
			if (sb_bitmap_test(r->nodes, i) == 1)
				SB_REQ_CASE(_node_ok(c, j, i, r->start,
						     r->end, r->order), cs);
		SB_REQ_CASE(_limit_ok(c, j, r->start, r->end, r->order), cs);
		/* what the limit alone allows: the earliest it has the room,
		 * no later than the start */
		if (c->need[j][0]) {
			int64_t a = r->allows ? r->allows[0] : -2;

			SB_REQ_CASE(a >= t0 && a <= r->start, cs);
			SB_REQ_CASE(_limit_ok(c, j, a, a + q->duration,
					      r->order), cs);
			for (t = t0; t < a; t++)
				SB_REQ_CASE(!_limit_ok(c, j, t, t + q->duration,
						       r->order), cs);
		} else {
			SB_REQ_CASE(!r->allows || r->allows[0] == -1, cs);
		}
		/* the earliest */
		for (t = t0; t < r->start; t++)
			SB_REQ_CASE(!_feasible(c, j, t, r->order), cs);
	}
}

static void _one_case(sb_test_rng_t *g, unsigned long cs)
{
	_case_t c;
	sb_bucket_set_t *set;
	sb_will_run_t *w;
	sb_limit_plan_t *lp;
	sb_qplan_t *q;
	sb_policy_t pol;
	char name[16];
	size_t i, k;

	memset(&c, 0, sizeof(c));
	c.n = 2 + sb_test_rng_below(g, MAXN - 1);
	for (i = 0; i < c.n; i++) {
		sb_node_t *n = &c.nodes[i];

		snprintf(name, sizeof(name), "n%zu", i);
		SB_REQ(!sb_node_init(n, (uint32_t) i, name));
		n->cpus = sb_test_rng_below(g, 2) ? 4 : 2;
		n->real_memory = 1000;
		if (!sb_test_rng_below(g, 8))
			n->state = SB_NODE_DOWN;
		c.nuse[i] = sb_test_rng_below(g, MAXU + 1);
		for (k = 0; k < c.nuse[i]; k++) {
			c.use[i][k].end = sb_test_rng_range(g, 1, 40);
			c.use[i][k].cpus = 1;
			c.use[i][k].mem = sb_test_rng_range(g, 0, 300);
			if (c.use[i][k].end > c.bu[i])
				c.bu[i] = c.use[i][k].end;
		}
		if (c.nuse[i] && !_down(n))
			n->state = SB_NODE_ALLOCATED;
	}
	c.lim = 2;
	c.held_end[0] = sb_test_rng_range(g, 1, 30);
	c.held_end[1] = sb_test_rng_range(g, 1, 30);
	c.nj = 1 + sb_test_rng_below(g, MAXJ);
	for (k = 0; k < c.nj; k++) {
		sb_qp_job_t *j = &c.jobs[k];

		sb_request_init(&c.req[k]);
		SB_REQ(sb_request_add_chunk(&c.req[k], 1 + (uint32_t)
					    sb_test_rng_below(g, 2)));
		j->req = &c.req[k];
		j->kind = sb_test_rng_below(g, 2) ? SB_QP_WHOLE : SB_QP_BASE;
		if (j->kind == SB_QP_BASE && !sb_test_rng_below(g, 4)) {
			/* -w: one or two required nodes (the base's) */
			SB_REQ((c.req[k].required = sb_bitmap_alloc(c.n)));
			sb_bitmap_set(c.req[k].required,
				      sb_test_rng_below(g, c.n));
			sb_bitmap_set(c.req[k].required,
				      sb_test_rng_below(g, c.n));
		}
		j->duration = sb_test_rng_range(g, 1, 20);
		c.req[k].time_limit = j->duration;
		j->own_tag = -1;
		j->cpus = 1 + (uint32_t) sb_test_rng_below(g, 3);
		j->exclusive = j->kind == SB_QP_BASE &&
			!sb_test_rng_below(g, 4);
		j->mem = (uint64_t) sb_test_rng_range(g, 0, 600);
		j->begin = sb_test_rng_below(g, 4) ? 0 :
			sb_test_rng_range(g, 1, 30);
		c.need[k][0] = sb_test_rng_below(g, 3) ? 0 :
			sb_test_rng_range(g, 1, 2);
		j->need = c.need[k];
		if (c.nj > 1 && !sb_test_rng_below(g, 3)) {
			size_t p = sb_test_rng_below(g, c.nj);

			if (p != k) {
				c.deps[k].job = p;
				c.deps[k].kind = sb_test_rng_below(g, 3) ?
					SB_QP_AFTERANY : SB_QP_AFTER;
				if (c.deps[k].kind == SB_QP_AFTER)
					c.deps[k].delay =
						sb_test_rng_range(g, 0, 5);
				j->deps = &c.deps[k];
				j->ndeps = 1;
			}
		}
	}
	SB_REQ(!sb_policy_init(&pol, "FIRSTAVAILABLE", NULL, NULL, NULL));
	SB_REQ((set = sb_bucket_set_create(c.nodes, c.n, 0)));
	SB_REQ((w = sb_will_run_create(set, 0, INT64_MAX, c.bu)));
	SB_REQ((lp = sb_limit_plan_create(0, &c.lim, 1)));
	SB_REQ(!sb_limit_plan_hold(lp, 0, 1, c.held_end[0]));
	SB_REQ(!sb_limit_plan_hold(lp, 0, 1, c.held_end[1]));
	SB_REQ((q = sb_qplan_create(c.nodes, c.n, 0, &w, 1, lp)));
	/* matching per bucket or node by node: the same plan */
	if (cs & 1)
		SB_REQ(!sb_qplan_set_buckets(q, set));
	for (i = 0; i < c.n; i++)
		for (k = 0; k < c.nuse[i]; k++)
			SB_REQ(!sb_qplan_use(q, i, c.use[i][k].cpus,
					     c.use[i][k].mem, 0,
					     c.use[i][k].end, -1));
	SB_REQ_CASE(!sb_qplan_run(q, c.jobs, c.nj, &pol, c.res), cs);
	SB_REQ_CASE(!sb_qplan_check(q), cs);
	SB_REQ_CASE(!sb_will_run_check(w), cs);
	_verify(&c, cs);
	for (k = 0; k < c.nj; k++) {
		sb_qplan_result_fini(&c.res[k]);
		sb_request_fini(&c.req[k]);
	}
	sb_qplan_destroy(q);
	sb_limit_plan_destroy(lp);
	sb_will_run_destroy(w);
	sb_bucket_set_destroy(set);
	for (i = 0; i < c.n; i++)
		sb_node_fini(&c.nodes[i]);
}

START_TEST(test_random_oracle)
{
	sb_test_rng_t g;
	unsigned long cs;

	sb_test_rng_seed(&g, 35);
	for (cs = 0; cs < 3000; cs++)
		_one_case(&g, cs);
}
END_TEST

/*
 * A one-task job behind a licence: two 2-CPU nodes, one running a
 * one-CPU job until 50; the licence (1 unit) is held until 30. A job of
 * one CPU, 10 s, starts at 30 on a node with a CPU free; a job after it
 * (afterany) starts at its end 40; a whole-node job of two nodes waits
 * for the running job's end 50 and the shared job's end.
 */
START_TEST(test_hand_licence)
{
	sb_node_t nodes[2];
	int64_t bu[2] = { 50, 0 }, lim = 1, need1[1] = { 1 };
	sb_request_t r1, r2, r3;
	sb_qp_job_t jobs[3];
	sb_qp_dep_t dep = { SB_QP_AFTERANY, 0, 0, 0 };
	sb_qp_result_t res[3];
	sb_bucket_set_t *set;
	sb_will_run_t *w;
	sb_limit_plan_t *lp;
	sb_qplan_t *q;
	sb_policy_t pol;
	char *s;
	size_t i;

	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(sb_node_init(&nodes[i], (uint32_t) i,
					      i ? "n1" : "n0"), 0);
		nodes[i].cpus = 2;
		nodes[i].real_memory = 1000;
	}
	nodes[0].state = SB_NODE_ALLOCATED;
	ck_assert_int_eq(sb_policy_init(&pol, "FIRSTAVAILABLE", NULL, NULL,
					NULL), 0);
	ck_assert_ptr_nonnull((set = sb_bucket_set_create(nodes, 2, 0)));
	ck_assert_ptr_nonnull((w = sb_will_run_create(set, 0, INT64_MAX, bu)));
	ck_assert_ptr_nonnull((lp = sb_limit_plan_create(0, &lim, 1)));
	ck_assert_int_eq(sb_limit_plan_hold(lp, 0, 1, 30), 0);
	ck_assert_ptr_nonnull((q = sb_qplan_create(nodes, 2, 0, &w, 1, lp)));
	ck_assert_int_eq(sb_qplan_use(q, 0, 1, 0, 0, 50, -1), 0);
	ck_assert_int_eq(sb_qplan_use(q, 0, 1, 0, 50, 50, -1), -1);
	ck_assert_int_eq(errno, EINVAL);
	sb_request_init(&r1);
	sb_request_init(&r2);
	sb_request_init(&r3);
	ck_assert_ptr_nonnull(sb_request_add_chunk(&r1, 1));
	ck_assert_ptr_nonnull(sb_request_add_chunk(&r2, 1));
	ck_assert_ptr_nonnull(sb_request_add_chunk(&r3, 2));
	r3.time_limit = 5;
	memset(jobs, 0, sizeof(jobs));
	jobs[0] = (sb_qp_job_t) { .kind = SB_QP_BASE, .req = &r1,
				  .own_tag = -1, .cpus = 1, .duration = 10,
				  .need = need1 };
	jobs[1] = (sb_qp_job_t) { .kind = SB_QP_BASE, .req = &r2,
				  .own_tag = -1, .cpus = 2, .duration = 10,
				  .deps = &dep, .ndeps = 1 };
	jobs[2] = (sb_qp_job_t) { .kind = SB_QP_WHOLE, .req = &r3,
				  .own_tag = -1, .duration = 5 };
	ck_assert_int_eq(sb_qplan_run(q, jobs, 3, &pol, res), 0);
	ck_assert_int_eq(sb_qplan_check(q), 0);
	ck_assert_int_eq(res[0].start, 30);
	ck_assert_int_eq(res[0].by, SB_QP_BY_LIMITS);
	/* the licence alone allows it at its holder's end */
	ck_assert_ptr_nonnull(res[0].allows);
	ck_assert_int_eq(res[0].allows[0], 30);
	ck_assert_ptr_null(res[1].allows);
	ck_assert_int_eq(res[0].nodes_start, 0);	/* n0 or n1, now */
	s = sb_bitmap_fmt(res[0].nodes);
	ck_assert_str_eq(s, "0");	/* n0 has a CPU free: lowest first */
	free(s);
	ck_assert_int_eq(res[1].start, 40);
	ck_assert_int_eq(res[1].by, SB_QP_BY_DEPENDENCY);
	s = sb_bitmap_fmt(res[1].nodes);
	ck_assert_str_eq(s, "1");	/* 2 CPUs: n0's other job runs */
	free(s);
	ck_assert_int_eq(res[2].start, 50);
	ck_assert_int_eq(res[2].by, SB_QP_BY_NODES);
	for (i = 0; i < 3; i++)
		sb_qplan_result_fini(&res[i]);
	/* a cycle and a never-met dependency */
	{
		sb_qp_dep_t d0 = { SB_QP_AFTERANY, 1, 0, 0 };
		sb_qp_dep_t d1 = { SB_QP_AFTERANY, 0, 0, 0 };
		sb_qp_dep_t dn = { SB_QP_AFTEROK, SIZE_MAX,
				   SB_TIME_INFINITE, 0 };

		jobs[0].deps = &d0;
		jobs[0].ndeps = 1;
		jobs[0].need = NULL;
		jobs[1].deps = &d1;
		jobs[2].deps = &dn;
		jobs[2].ndeps = 1;
		ck_assert_int_eq(sb_qplan_run(q, jobs, 3, &pol, res), 0);
		ck_assert_int_eq(res[0].never, SB_QP_NEVER_CYCLE);
		ck_assert_int_eq(res[1].never, SB_QP_NEVER_CYCLE);
		ck_assert_int_eq(res[2].never, SB_QP_NEVER_DEPENDENCY);
		ck_assert_int_eq(res[2].start, -1);
		ck_assert_ptr_null(res[2].nodes);
		for (i = 0; i < 3; i++)
			sb_qplan_result_fini(&res[i]);
		d0.job = 7;
		ck_assert_int_eq(sb_qplan_run(q, jobs, 3, &pol, res), -1);
		ck_assert_int_eq(errno, EINVAL);
	}
	ck_assert_int_eq(sb_qplan_run(NULL, jobs, 3, &pol, res), -1);
	ck_assert_ptr_null(sb_qplan_create(NULL, 2, 0, &w, 1, NULL));
	ck_assert_int_eq(sb_qplan_set_buckets(NULL, set), -1);
	sb_qplan_destroy(NULL);
	sb_qplan_result_fini(NULL);
	sb_request_fini(&r1);
	sb_request_fini(&r2);
	sb_request_fini(&r3);
	sb_qplan_destroy(q);
	sb_limit_plan_destroy(lp);
	sb_will_run_destroy(w);
	sb_bucket_set_destroy(set);
	for (i = 0; i < 2; i++)
		sb_node_fini(&nodes[i]);
}
END_TEST

/*
 * A reservation on n0 over [10, 100): a span of tag 0 in the queue plan,
 * a window in WILL_RUN's plan w[0], none in w[1] (the plan of the jobs
 * that run in it). A BASE job of the reservation (own_tag 0) starts now
 * on n0; another (no tag) after it ends; a WHOLE job of the reservation
 * (plan 1) on n0 after the first BASE job, one outside it (plan 0) at
 * 100.
 */
START_TEST(test_hand_reservation)
{
	sb_node_t nodes[2];
	int64_t bu[2] = { 0, 0 };
	sb_request_t r;
	sb_bitmap_t *n0 = sb_bitmap_alloc(2);
	sb_qp_job_t jobs[4];
	sb_qp_result_t res[4];
	sb_bucket_set_t *set;
	sb_will_run_t *w[2];
	sb_qplan_t *q;
	sb_policy_t pol;
	size_t i;

	ck_assert_ptr_nonnull(n0);
	sb_bitmap_set(n0, 0);
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(sb_node_init(&nodes[i], (uint32_t) i,
					      i ? "n1" : "n0"), 0);
		nodes[i].cpus = 2;
		nodes[i].real_memory = 1000;
	}
	ck_assert_int_eq(sb_policy_init(&pol, "FIRSTAVAILABLE", NULL, NULL,
					NULL), 0);
	ck_assert_ptr_nonnull((set = sb_bucket_set_create(nodes, 2, 0)));
	ck_assert_ptr_nonnull((w[0] = sb_will_run_create(set, 0, INT64_MAX,
							 bu)));
	ck_assert_ptr_nonnull((w[1] = sb_will_run_create(set, 0, INT64_MAX,
							 bu)));
	ck_assert_int_eq(sb_will_run_reserve(w[0], 0, 10, 100), 0);
	ck_assert_ptr_nonnull((q = sb_qplan_create(nodes, 2, 0, w, 2, NULL)));
	ck_assert_int_eq(sb_qplan_set_buckets(q, set), 0);
	ck_assert_int_eq(sb_qplan_use(q, 0, UINT32_MAX, 0, 10, 100, 0), 0);
	sb_request_init(&r);
	ck_assert_ptr_nonnull(sb_request_add_chunk(&r, 1));
	r.time_limit = 20;
	for (i = 0; i < 4; i++)
		jobs[i] = (sb_qp_job_t) { .kind = i < 2 ? SB_QP_BASE :
					  SB_QP_WHOLE, .req = &r,
					  .allowed = n0, .cpus = 1,
					  .duration = 20, .own_tag = -1 };
	jobs[0].own_tag = 0;
	jobs[2].plan = 1;
	ck_assert_int_eq(sb_qplan_run(q, jobs, 4, &pol, res), 0);
	ck_assert_int_eq(sb_qplan_check(q), 0);
	ck_assert_int_eq(res[0].start, 0);	/* in its reservation */
	ck_assert_int_eq(res[1].start, 100);	/* after it */
	ck_assert_int_eq(res[2].start, 20);	/* after job 0 on n0 */
	ck_assert_int_eq(res[3].start, 120);	/* after the reservation
						 * and job 1 */
	ck_assert_int_eq(res[3].by, SB_QP_BY_NODES);
	for (i = 0; i < 4; i++)
		sb_qplan_result_fini(&res[i]);
	jobs[2].plan = 2;			/* no such plan */
	ck_assert_int_eq(sb_qplan_run(q, jobs, 4, &pol, res), -1);
	ck_assert_int_eq(errno, EINVAL);
	sb_request_fini(&r);
	sb_bitmap_free(n0);
	sb_qplan_destroy(q);
	sb_will_run_destroy(w[0]);
	sb_will_run_destroy(w[1]);
	sb_bucket_set_destroy(set);
	for (i = 0; i < 2; i++)
		sb_node_fini(&nodes[i]);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("queue_plan");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_hand_licence);
	tcase_add_test(tc, test_hand_reservation);
	tcase_add_test(tc, test_random_oracle);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
