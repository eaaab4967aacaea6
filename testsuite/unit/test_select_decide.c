/*
 * test_select_decide.c - select/bucket's decision (select_decide.h):
 * each rule on a small cluster of known answers, then random clusters
 * and questions from a fixed seed against a brute-force oracle.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The rules were the plugin's alone (bucket_job_place.c) and only the
 * live tests saw them: "not now" as EINVAL, the next node set, the
 * fall-backs to the base and their reasons, backfill's window and
 * TEST_NOW_ONLY in WILL_RUN, GRES that rule out a bucket, a preference
 * list that does not parse. Each has a case here.
 *
 * The oracle knows nothing of buckets: a node can serve the job if its
 * CPUs, memory and tmp disk suffice, it is allowed and its bucket is
 * fit; TEST_ONLY runs iff enough can serve; RUN_NOW iff enough can
 * start now (usable, no running job, no window over [now, now + limit));
 * WILL_RUN at the earliest start at which enough are free for the whole
 * limit, tried at every end of a busy time; CONTIGUOUS wants a block of
 * consecutive such nodes. From that and the facts it names the action
 * and the reason; sb_select_verdict_check() confirms the nodes. The set
 * is changed between questions (nodes start and end jobs, go down and
 * come back) with its invariant checker after each change, and the
 * decision must leave its truth as it found it.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bucket.h"
#include "node.h"
#include "policy.h"
#include "sb_test.h"
#include "sb_time.h"
#include "select_decide.h"
#include "will_run.h"

#define REQ(e) SB_REQ_CASE(e, _case)

static unsigned long _case;

/* ---- a small cluster with known answers ---------------------------------- */

/*
 * n[0-3]: 4 CPUs, 2000 MB, feature "slow"; n[4-7]: 8 CPUs, 4000 MB,
 * "fast"; weight 1 and 2, so FIRSTAVAILABLE takes n0 first.
 */
#define NN 8

typedef struct {
	sb_node_t nodes[NN];
	sb_bucket_set_t *set;
	sb_policy_t pol;
	sb_select_facts_t f;
	sb_select_verdict_t v;
	int completes;			/* calls of _complete() */
	int complete_fails;
} _fix_t;

static void _fix_init(_fix_t *x)
{
	size_t i;
	char name[8];

	memset(x, 0, sizeof(*x));
	for (i = 0; i < NN; i++) {
		snprintf(name, sizeof(name), "n%zu", i);
		ck_assert_int_eq(sb_node_init(&x->nodes[i], (uint32_t) i,
					      name), 0);
		x->nodes[i].cpus = i < 4 ? 4 : 8;
		x->nodes[i].real_memory = i < 4 ? 2000 : 4000;
		x->nodes[i].weight = i < 4 ? 1 : 2;
		ck_assert_int_eq(sb_node_add_feature(&x->nodes[i], i < 4 ?
						     "slow" : "fast"), 0);
	}
	ck_assert_ptr_nonnull(x->set = sb_bucket_set_create(x->nodes, NN,
							     1000));
	ck_assert_int_eq(sb_policy_init(&x->pol, "FIRSTAVAILABLE", NULL,
					NULL, NULL), 0);
	sb_select_facts_init(&x->f);
	x->f.base.min_nodes = x->f.base.max_nodes = 2;
	x->f.base.node_cpus = 1;
	x->f.base.min_cpus = 2;
	x->f.base.share.job_exclusive = true;
	x->f.time_limit = 100;
	x->f.policy = &x->pol;
	x->f.now = 1000;
}

static void _fix_fini(_fix_t *x)
{
	size_t i;

	sb_select_verdict_fini(&x->v);
	sb_bucket_set_destroy(x->set);
	for (i = 0; i < NN; i++)
		sb_node_fini(&x->nodes[i]);
}

/* Node @i runs a job (or not). */
static void _busy(_fix_t *x, size_t i, bool busy)
{
	x->nodes[i].state = busy ? SB_NODE_ALLOCATED : SB_NODE_IDLE;
	x->nodes[i].run_jobs = busy;
	ck_assert_int_eq(sb_bucket_set_update(x->set, i), 0);
	ck_assert_int_eq(sb_bucket_set_check(x->set), 0);
}

/* Decide in @mode, check the verdict, return its action. */
static sb_select_action_t _decide(_fix_t *x, sb_select_mode_t mode)
{
	sb_select_verdict_fini(&x->v);
	ck_assert_int_eq(sb_select_facts_check(&x->f, x->set, mode), 0);
	ck_assert_int_eq(sb_select_decide(x->set, &x->f, mode, &x->v), 0);
	ck_assert_msg(sb_select_verdict_check(&x->v, &x->f, x->set, mode)
		      == 0, "verdict %s (%s) fails its check",
		      sb_select_action_name(x->v.action),
		      x->v.reason ? x->v.reason : "-");
	return x->v.action;
}

/* The verdict's nodes in canonical form ("" for none). */
static const char *_nodes(_fix_t *x)
{
	static char buf[64];
	char *s;

	if (!x->v.nodes)
		return "";
	ck_assert_ptr_nonnull(s = sb_bitmap_fmt(x->v.nodes));
	snprintf(buf, sizeof(buf), "%s", s);
	free(s);
	return buf;
}

static sb_bitmap_t *_bits(const char *s)
{
	sb_bitmap_t *b = sb_bitmap_parse(s, NN, NULL);

	ck_assert_ptr_nonnull(b);
	return b;
}

static int _complete(sb_select_facts_t *f, const sb_bucket_set_t *set,
		     void *arg)
{
	_fix_t *x = arg;

	x->completes++;
	if (x->complete_fails) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

START_TEST(test_base_reasons)
{
	_fix_t x;

	_fix_init(&x);
	x.f.complete = _complete;
	x.f.complete_arg = &x;
	/* each of base_reason.h's reasons, with nothing else asked */
	x.f.base.share.job_exclusive = false;
	x.f.base.share.base_cons = true;
	ck_assert_int_eq(_decide(&x, SB_SELECT_RUN_NOW), SB_SELECT_BASE);
	ck_assert_str_eq(x.v.reason, "shared");
	x.f.base.share.job_exclusive = true;
	x.f.base.max_nodes = 4;
	ck_assert_int_eq(_decide(&x, SB_SELECT_RUN_NOW), SB_SELECT_BASE);
	ck_assert_str_eq(x.v.reason, "node_range");
	/* ... but one count of "[a*2&b*4]" is a fixed count */
	x.f.base.feature_count_call = true;
	ck_assert_int_eq(_decide(&x, SB_SELECT_RUN_NOW), SB_SELECT_OURS);
	x.f.base.feature_count_call = false;
	x.f.base.max_nodes = 2;
	x.f.base.min_cpus = 9;		/* 2 nodes x 1 CPU */
	ck_assert_int_eq(_decide(&x, SB_SELECT_TEST_ONLY), SB_SELECT_BASE);
	ck_assert_str_eq(x.v.reason, "task_count");
	x.f.base.min_cpus = 2;
	x.f.base.required_nodes = true;
	ck_assert_int_eq(_decide(&x, SB_SELECT_WILL_RUN), SB_SELECT_BASE);
	ck_assert_str_eq(x.v.reason, "required_nodes");
	x.f.base.required_nodes = false;
	x.f.base.core_reservation = true;
	ck_assert_int_eq(_decide(&x, SB_SELECT_RUN_NOW), SB_SELECT_BASE);
	ck_assert_str_eq(x.v.reason, "core_reservation");
	x.f.base.core_reservation = false;
	/* preemption only makes WILL_RUN the base's */
	x.f.base.preempt_candidates = true;
	ck_assert_int_eq(_decide(&x, SB_SELECT_WILL_RUN), SB_SELECT_BASE);
	ck_assert_str_eq(x.v.reason, "preemption");
	ck_assert(!x.v.placed);
	x.f.base.preempt_candidates = false;
	/* the decision, not the facts, says WILL_RUN and CONTIGUOUS */
	x.f.base.will_run = true;
	ck_assert_int_eq(sb_policy_init(&x.pol, "CONTIGUOUS", NULL, NULL,
					NULL), 0);
	ck_assert_int_eq(_decide(&x, SB_SELECT_RUN_NOW), SB_SELECT_OURS);
	ck_assert_str_eq(_nodes(&x), "0-1");
	ck_assert_str_eq(x.v.path, "policy_order");
	ck_assert_int_eq(_decide(&x, SB_SELECT_WILL_RUN), SB_SELECT_BASE);
	ck_assert_str_eq(x.v.reason, "contiguous_policy");
	/* no set: no model, whatever the facts say */
	sb_select_verdict_fini(&x.v);
	ck_assert_int_eq(sb_select_decide(NULL, &x.f, SB_SELECT_RUN_NOW,
					  &x.v), 0);
	ck_assert_int_eq(x.v.action, SB_SELECT_BASE);
	ck_assert_str_eq(x.v.reason, "no_model");
	x.f.base.min_nodes = 0;
	ck_assert_int_eq(_decide(&x, SB_SELECT_RUN_NOW), SB_SELECT_BASE);
	ck_assert_str_eq(x.v.reason, "no_nodes");
	/* only jobs of ours asked for the rest: two of them above */
	ck_assert_int_eq(x.completes, 2);
	_fix_fini(&x);
}
END_TEST

START_TEST(test_run_now)
{
	_fix_t x;
	size_t i;

	_fix_init(&x);
	ck_assert_int_eq(_decide(&x, SB_SELECT_RUN_NOW), SB_SELECT_OURS);
	ck_assert_str_eq(_nodes(&x), "0-1");
	ck_assert_ptr_null(x.v.path);
	ck_assert_int_eq(x.v.result, SB_PLACE_RUN);
	/* the set's truth is not changed: the same question, same nodes */
	ck_assert_int_eq(_decide(&x, SB_SELECT_RUN_NOW), SB_SELECT_OURS);
	ck_assert_str_eq(_nodes(&x), "0-1");
	/* nothing free now: "not now" on our word, not the base's */
	for (i = 0; i < NN - 1; i++)
		_busy(&x, i, true);
	ck_assert_int_eq(_decide(&x, SB_SELECT_RUN_NOW), SB_SELECT_NOT_NOW);
	ck_assert_int_eq(x.v.result, SB_PLACE_WAIT);
	ck_assert_ptr_null(x.v.nodes);
	/* ... unless jobs could be preempted for it */
	x.f.base.preempt_candidates = true;
	ck_assert_int_eq(_decide(&x, SB_SELECT_RUN_NOW), SB_SELECT_BASE);
	ck_assert_str_eq(x.v.reason, SB_SELECT_PREEMPTION);
	x.f.base.preempt_candidates = false;
	/* never (9 nodes of 8) is "not now" too: never is TEST_ONLY's */
	x.f.base.min_nodes = x.f.base.max_nodes = 9;
	x.f.base.min_cpus = 9;
	ck_assert_int_eq(_decide(&x, SB_SELECT_RUN_NOW), SB_SELECT_NOT_NOW);
	ck_assert_int_eq(x.v.result, SB_PLACE_NEVER);
	ck_assert_int_eq(_decide(&x, SB_SELECT_TEST_ONLY), SB_SELECT_BASE);
	ck_assert_str_eq(x.v.reason, SB_SELECT_FOUND_NONE);
	x.f.base.min_nodes = x.f.base.max_nodes = 2;
	x.f.base.min_cpus = 2;
	/* TEST_ONLY places on an empty cluster */
	ck_assert_int_eq(_decide(&x, SB_SELECT_TEST_ONLY), SB_SELECT_OURS);
	ck_assert_str_eq(_nodes(&x), "0-1");
	/* per-node minimums rule nodes out: 6000 MB is no node's */
	x.f.min_memory = 3000;
	ck_assert_int_eq(_decide(&x, SB_SELECT_TEST_ONLY), SB_SELECT_OURS);
	ck_assert_str_eq(_nodes(&x), "4-5");
	x.f.min_memory = 6000;
	ck_assert_int_eq(_decide(&x, SB_SELECT_TEST_ONLY), SB_SELECT_BASE);
	ck_assert_str_eq(x.v.reason, SB_SELECT_FOUND_NONE);
	_fix_fini(&x);
}
END_TEST

START_TEST(test_next_set_and_allowed)
{
	_fix_t x;
	sb_bitmap_t *allowed = _bits("2-7"), *offered = _bits("2-3");

	_fix_init(&x);
	/* the nodes of every set slurmctld may offer, this call's first */
	x.f.allowed = allowed;
	x.f.offered = offered;
	ck_assert_int_eq(_decide(&x, SB_SELECT_RUN_NOW), SB_SELECT_OURS);
	ck_assert_str_eq(_nodes(&x), "2-3");
	/* ours lie in a later set: "no" until it is offered */
	_busy(&x, 3, true);
	ck_assert_int_eq(_decide(&x, SB_SELECT_RUN_NOW), SB_SELECT_NEXT_SET);
	ck_assert_str_eq(_nodes(&x), "2,4");
	sb_bitmap_set(offered, 4);
	ck_assert_int_eq(_decide(&x, SB_SELECT_RUN_NOW), SB_SELECT_OURS);
	/* only RUN_NOW is offered in sets */
	sb_bitmap_clear(offered, 4);
	ck_assert_int_eq(_decide(&x, SB_SELECT_TEST_ONLY), SB_SELECT_OURS);
	ck_assert_str_eq(_nodes(&x), "2-3");
	sb_bitmap_free(allowed);
	sb_bitmap_free(offered);
	_fix_fini(&x);
}
END_TEST

START_TEST(test_unfit_prefer_match)
{
	_fix_t x;
	bool unfit[2] = { true, false };
	sb_request_t r;

	_fix_init(&x);
	ck_assert_int_eq(sb_bucket_set_size(x.set), 2);
	/* GRES rule out the first bucket */
	x.f.unfit = unfit;
	ck_assert_int_eq(_decide(&x, SB_SELECT_RUN_NOW), SB_SELECT_OURS);
	ck_assert_str_eq(_nodes(&x), "4-5");
	x.f.unfit = NULL;
	/* a preference orders after Weight (fast nodes weigh more) */
	x.f.prefer = "fast";
	ck_assert_int_eq(_decide(&x, SB_SELECT_RUN_NOW), SB_SELECT_OURS);
	ck_assert_str_eq(_nodes(&x), "0-1");
	x.nodes[4].weight = x.nodes[5].weight = 1;
	x.nodes[6].weight = x.nodes[7].weight = 1;
	sb_bucket_set_destroy(x.set);
	ck_assert_ptr_nonnull(x.set = sb_bucket_set_create(x.nodes, NN,
							    1000));
	ck_assert_int_eq(_decide(&x, SB_SELECT_RUN_NOW), SB_SELECT_OURS);
	ck_assert_str_eq(_nodes(&x), "4-5");
	ck_assert_int_eq(x.v.prefer_err, 0);
	/*
	 * A list that does not parse orders nothing, and says so: not even
	 * the names before the fault ("fast" alone would give 4-5); the
	 * nodes are those of a job without preferences.
	 */
	x.f.prefer = NULL;
	ck_assert_int_eq(_decide(&x, SB_SELECT_RUN_NOW), SB_SELECT_OURS);
	ck_assert_str_eq(_nodes(&x), "0-1");
	x.f.prefer = "fast,,slow";
	ck_assert_int_eq(_decide(&x, SB_SELECT_RUN_NOW), SB_SELECT_OURS);
	ck_assert_int_eq(x.v.prefer_err, EINVAL);
	ck_assert_str_eq(_nodes(&x), "0-1");
	x.f.prefer = "fast,sl$w";
	ck_assert_int_eq(_decide(&x, SB_SELECT_TEST_ONLY), SB_SELECT_OURS);
	ck_assert_int_eq(x.v.prefer_err, EINVAL);
	ck_assert_str_eq(_nodes(&x), "0-1");
	x.f.prefer = NULL;
	/* offline: the job's own request narrows and orders the nodes */
	sb_request_init(&r);
	ck_assert_ptr_nonnull(sb_request_add_chunk(&r, 2));
	r.chunks[0].features = sb_feat_expr_parse("slow", NULL, NULL);
	r.exclusive = true;
	r.time_limit = 100;
	r.excluded = _bits("0");
	ck_assert_int_eq(sb_select_facts_request(&x.f, &r), 0);
	ck_assert_int_eq(_decide(&x, SB_SELECT_RUN_NOW), SB_SELECT_OURS);
	ck_assert_str_eq(_nodes(&x), "1-2");
	sb_request_fini(&r);
	_fix_fini(&x);
}
END_TEST

START_TEST(test_will_run)
{
	_fix_t x;
	sb_will_run_t *w;
	int64_t until[NN] = { 0 };
	size_t i;

	_fix_init(&x);
	/* every node busy: n0, n1 until 1200, the others 1500 */
	for (i = 0; i < NN; i++) {
		_busy(&x, i, true);
		until[i] = i < 2 ? 1200 : 1500;
	}
	ck_assert_ptr_nonnull(w = sb_will_run_create(x.set, 1000,
						     SB_TIME_INFINITE - 1000,
						     until));
	/* no plan: our error, the base decides */
	ck_assert_int_eq(_decide(&x, SB_SELECT_WILL_RUN), SB_SELECT_BASE);
	ck_assert_str_eq(x.v.reason, SB_SELECT_OUR_ERROR);
	ck_assert_str_eq(x.v.failed, "facts");
	x.f.plan = w;
	ck_assert_int_eq(_decide(&x, SB_SELECT_WILL_RUN), SB_SELECT_OURS);
	ck_assert_int_eq(x.v.start, 1200);
	ck_assert_str_eq(_nodes(&x), "0-1");
	/* a job that only wants to start now */
	x.f.test_now_only = true;
	ck_assert_int_eq(_decide(&x, SB_SELECT_WILL_RUN), SB_SELECT_NOT_NOW);
	x.f.test_now_only = false;
	/* backfill's window: linear reads none */
	x.f.window_start = 1300;
	x.f.window_end = 1100;
	x.f.window_end = 1400;
	ck_assert_int_eq(_decide(&x, SB_SELECT_WILL_RUN), SB_SELECT_OURS);
	ck_assert_int_eq(x.v.start, 1200);
	/* cons_tres starts at the window's start, gives up past its end */
	x.f.base.share.base_cons = true;
	ck_assert_int_eq(_decide(&x, SB_SELECT_WILL_RUN), SB_SELECT_OURS);
	ck_assert_int_eq(x.v.start, 1300);
	x.f.window_start = 0;
	x.f.window_end = 1100;
	ck_assert_int_eq(_decide(&x, SB_SELECT_WILL_RUN), SB_SELECT_NOT_NOW);
	ck_assert_int_eq(x.v.result, SB_PLACE_WAIT);
	x.f.window_end = 0;
	/* never: the base decides */
	x.f.base.min_nodes = x.f.base.max_nodes = 9;
	x.f.base.min_cpus = 9;
	ck_assert_int_eq(_decide(&x, SB_SELECT_WILL_RUN), SB_SELECT_BASE);
	ck_assert_str_eq(x.v.reason, SB_SELECT_FOUND_NONE);
	ck_assert_int_eq(x.v.result, SB_PLACE_NEVER);
	sb_will_run_destroy(w);
	_fix_fini(&x);
}
END_TEST

START_TEST(test_errors_and_checks)
{
	_fix_t x;
	sb_select_verdict_t v;
	sb_bitmap_t *wrong = sb_bitmap_alloc(NN + 1);
	sb_request_t r;

	_fix_init(&x);
	/* the arguments the contract rules out */
	ck_assert_int_eq(sb_select_decide(x.set, NULL, SB_SELECT_RUN_NOW, &v),
			 -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_select_decide(x.set, &x.f, SB_SELECT_RUN_NOW,
					  NULL), -1);
	ck_assert_int_eq(sb_select_decide(x.set, &x.f,
					  (sb_select_mode_t) 7, &v), -1);
	x.f.policy = NULL;
	ck_assert_int_eq(sb_select_decide(x.set, &x.f, SB_SELECT_RUN_NOW, &v),
			 -1);
	ck_assert_ptr_null(v.nodes);
	x.f.policy = &x.pol;
	/* facts that do not fit the set: our error, the base's */
	x.f.allowed = wrong;
	ck_assert_int_eq(sb_select_facts_check(&x.f, x.set,
					       SB_SELECT_RUN_NOW), -1);
	ck_assert_int_eq(errno, EFAULT);
	ck_assert_int_eq(sb_select_decide(x.set, &x.f, SB_SELECT_RUN_NOW,
					  &x.v), 0);
	ck_assert_int_eq(x.v.action, SB_SELECT_BASE);
	ck_assert_str_eq(x.v.failed, "facts");
	ck_assert_int_eq(x.v.err, EINVAL);
	x.f.allowed = NULL;
	/* the caller's facts that fail */
	x.f.complete = _complete;
	x.f.complete_arg = &x;
	x.complete_fails = 1;
	ck_assert_int_eq(_decide(&x, SB_SELECT_RUN_NOW), SB_SELECT_BASE);
	ck_assert_str_eq(x.v.reason, SB_SELECT_OUR_ERROR);
	ck_assert_int_eq(x.v.err, ENOMEM);
	ck_assert(!x.v.placed);
	x.f.complete = NULL;
	/* the checker catches verdicts the rules cannot give */
	ck_assert_int_eq(_decide(&x, SB_SELECT_RUN_NOW), SB_SELECT_OURS);
	sb_bitmap_set(x.v.nodes, 7);	/* three nodes for two */
	ck_assert_int_eq(sb_select_verdict_check(&x.v, &x.f, x.set,
						 SB_SELECT_RUN_NOW), -1);
	ck_assert_int_eq(errno, EFAULT);
	sb_bitmap_clear(x.v.nodes, 7);
	x.v.action = SB_SELECT_NEXT_SET;	/* with no offered set */
	ck_assert_int_eq(sb_select_verdict_check(&x.v, &x.f, x.set,
						 SB_SELECT_RUN_NOW), -1);
	x.v.action = SB_SELECT_NOT_NOW;		/* with nodes */
	ck_assert_int_eq(sb_select_verdict_check(&x.v, &x.f, x.set,
						 SB_SELECT_RUN_NOW), -1);
	x.v.action = SB_SELECT_BASE;
	x.v.reason = "made up";
	sb_bitmap_free(x.v.nodes);
	x.v.nodes = NULL;
	x.v.placed = false;
	ck_assert_int_eq(sb_select_verdict_check(&x.v, &x.f, x.set,
						 SB_SELECT_RUN_NOW), -1);
	/* an offline request of several chunks is no question of one call */
	sb_request_init(&r);
	ck_assert_ptr_nonnull(sb_request_add_chunk(&r, 2));
	ck_assert_ptr_nonnull(sb_request_add_chunk(&r, 1));
	ck_assert_int_eq(sb_select_facts_request(&x.f, &r), -1);
	ck_assert_int_eq(errno, EINVAL);
	sb_request_fini(&r);
	/* ... and one with -w is the base's */
	sb_request_init(&r);
	ck_assert_ptr_nonnull(sb_request_add_chunk(&r, 2));
	r.required = _bits("3");
	ck_assert_int_eq(sb_select_facts_request(&x.f, &r), 0);
	ck_assert_int_eq(_decide(&x, SB_SELECT_RUN_NOW), SB_SELECT_BASE);
	ck_assert_str_eq(x.v.reason, "required_nodes");
	sb_request_fini(&r);
	ck_assert_str_eq(sb_select_action_name(SB_SELECT_NEXT_SET),
			 "next set");
	ck_assert_str_eq(sb_select_mode_name(SB_SELECT_WILL_RUN), "WILL_RUN");
	sb_bitmap_free(wrong);
	_fix_fini(&x);
}
END_TEST

/* ---- random clusters against the oracle ---------------------------------- */

#define MAXN 10

typedef struct {
	sb_node_t nodes[MAXN];
	int64_t until[MAXN];		/* running jobs' end (0: none) */
	size_t n;
	sb_bucket_set_t *set;
	int64_t now;
} _rc_t;

static void _random_node(sb_test_rng_t *g, _rc_t *c, size_t i)
{
	static const uint32_t cpus[] = { 2, 4, 8 };
	sb_node_t *nd = &c->nodes[i];
	char name[16];
	size_t k;

	snprintf(name, sizeof(name), "n%zu", i);
	REQ(sb_node_init(nd, (uint32_t) i, name) == 0);
	nd->cpus = cpus[sb_test_rng_below(g, 3)];
	nd->real_memory = 1000 * (1 + sb_test_rng_below(g, 2));
	nd->tmp_disk = 100 * sb_test_rng_below(g, 2);
	nd->weight = (uint32_t) (1 + sb_test_rng_below(g, 2));
	nd->speed = (double) (1 + sb_test_rng_below(g, 2));
	if (sb_test_rng_below(g, 2))
		REQ(sb_node_add_feature(nd, "a") == 0);
	if (sb_test_rng_below(g, 3) == 0)
		REQ(sb_node_add_feature(nd, "b") == 0);
	/* reservations ahead: busy-later nodes */
	for (k = sb_test_rng_below(g, 5) / 3; k > 0; k--) {
		int64_t s = c->now + sb_test_rng_range(g, 1, 150);

		REQ(sb_node_add_busy(nd, s, s + sb_test_rng_range(g, 1, 60))
		    == 0);
	}
}

/* Node @i's state, drawn afresh (a mutation). */
static void _random_state(sb_test_rng_t *g, _rc_t *c, size_t i)
{
	sb_node_t *nd = &c->nodes[i];

	nd->state = SB_NODE_IDLE;
	nd->run_jobs = 0;
	c->until[i] = 0;
	switch (sb_test_rng_below(g, 10)) {
	case 0:
	case 1:
	case 2:
		nd->state = SB_NODE_ALLOCATED;
		nd->run_jobs = 1;
		c->until[i] = c->now + sb_test_rng_range(g, 1, 200);
		break;
	case 3:
		nd->state = sb_test_rng_below(g, 2) ? SB_NODE_DOWN :
			SB_NODE_DRAINED;
		break;
	case 4:
		nd->state = SB_NODE_POWERED_DOWN;
		break;
	default:
		break;
	}
}

static void _rc_init(sb_test_rng_t *g, _rc_t *c)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	c->n = 3 + sb_test_rng_below(g, MAXN - 2);
	c->now = sb_test_rng_range(g, 0, 1000);
	for (i = 0; i < c->n; i++) {
		_random_node(g, c, i);
		_random_state(g, c, i);
	}
	REQ(c->set = sb_bucket_set_create(c->nodes, c->n, c->now));
	REQ(sb_bucket_set_check(c->set) == 0);
}

static void _rc_fini(_rc_t *c)
{
	size_t i;

	sb_bucket_set_destroy(c->set);
	for (i = 0; i < c->n; i++)
		sb_node_fini(&c->nodes[i]);
}

/* The facts of one random question. */
typedef struct {
	sb_select_facts_t f;
	sb_policy_t pol;
	sb_bitmap_t *allowed, *offered;
	bool unfit[MAXN];
	sb_select_mode_t mode;
} _q_t;

static void _random_question(sb_test_rng_t *g, const _rc_t *c, _q_t *q)
{
	static const char *const pols[] = {
		"FIRSTAVAILABLE", "LASTAVAILABLE", "MINRESOURCE", "CPULOAD",
		"CONTIGUOUS", "MAXBALANCE", "FASTEST",
	};
	static const int64_t limits[] = { 10, 60, 200, SB_TIME_INFINITE };
	sb_base_facts_t *b = &q->f.base;
	size_t i, nb = sb_bucket_set_size(c->set);
	uint32_t count = (uint32_t) (1 + sb_test_rng_below(g, 3));

	memset(q, 0, sizeof(*q));
	sb_select_facts_init(&q->f);
	q->mode = (sb_select_mode_t) sb_test_rng_below(g, 3);
	REQ(sb_policy_init(&q->pol, pols[sb_test_rng_below(g, 7)], NULL, NULL,
			   NULL) == 0);
	q->f.policy = &q->pol;
	b->min_nodes = count;
	/* mostly ours; now and then one of each base rule */
	b->max_nodes = sb_test_rng_below(g, 12) ? count : count + 1;
	b->node_cpus = (uint32_t) (1 << sb_test_rng_below(g, 3));
	b->min_cpus = (uint64_t) count * b->node_cpus +
		(sb_test_rng_below(g, 15) == 0);
	b->share.job_exclusive = sb_test_rng_below(g, 12) != 0;
	b->share.base_cons = sb_test_rng_below(g, 2);
	b->required_nodes = sb_test_rng_below(g, 20) == 0;
	b->contiguous = sb_test_rng_below(g, 20) == 0;
	b->core_reservation = sb_test_rng_below(g, 20) == 0;
	b->preempt_candidates = sb_test_rng_below(g, 6) == 0;
	q->f.min_memory = 1000 * sb_test_rng_below(g, 3);
	q->f.min_tmp = 100 * sb_test_rng_below(g, 2);
	q->f.time_limit = limits[sb_test_rng_below(g, 4)];
	q->f.now = c->now;
	q->f.test_now_only = sb_test_rng_below(g, 6) == 0;
	if (sb_test_rng_below(g, 3) == 0) {
		q->f.window_start = c->now + sb_test_rng_range(g, -50, 150);
		if (q->f.window_start < 0)
			q->f.window_start = 0;
		q->f.window_end = sb_test_rng_below(g, 2) ? 0 :
			q->f.window_start + sb_test_rng_range(g, 0, 150);
	}
	if (sb_test_rng_below(g, 4) == 0)
		q->f.prefer = sb_test_rng_below(g, 2) ? "b" : "a,b";
	if (sb_test_rng_below(g, 2)) {
		REQ(q->allowed = sb_bitmap_alloc(c->n));
		for (i = 0; i < c->n; i++)
			if (sb_test_rng_below(g, 5))
				sb_bitmap_set(q->allowed, i);
		q->f.allowed = q->allowed;
		if (q->mode == SB_SELECT_RUN_NOW && sb_test_rng_below(g, 3)) {
			REQ(q->offered = sb_bitmap_dup(q->allowed));
			for (i = 0; i < c->n; i++)
				if (sb_test_rng_below(g, 3) == 0)
					sb_bitmap_clear(q->offered, i);
			q->f.offered = q->offered;
		}
	}
	if (sb_test_rng_below(g, 4) == 0) {
		for (i = 0; i < nb; i++)
			q->unfit[i] = sb_test_rng_below(g, 3) == 0;
		q->f.unfit = q->unfit;
	}
}

static void _q_fini(_q_t *q)
{
	sb_bitmap_free(q->allowed);
	sb_bitmap_free(q->offered);
}

/* Can node @i ever serve the job (static, allowed, fit)? */
static bool _fits(const _rc_t *c, const _q_t *q, size_t i)
{
	const sb_node_t *nd = &c->nodes[i];

	if (q->f.allowed && !sb_bitmap_test(q->f.allowed, i))
		return false;
	if (q->f.unfit && q->f.unfit[sb_bucket_of(c->set, i)])
		return false;
	return nd->cpus >= q->f.base.node_cpus &&
		nd->real_memory >= q->f.min_memory &&
		nd->tmp_disk >= q->f.min_tmp;
}

/* Is node @i free over [s, e) (running jobs, down, windows)? */
static bool _free_over(const _rc_t *c, size_t i, int64_t s, int64_t e,
		       bool plan)
{
	const sb_node_t *nd = &c->nodes[i];
	int64_t until;
	size_t k;

	if (nd->state == SB_NODE_DOWN || nd->state == SB_NODE_DRAINED)
		return false;
	if (!plan && nd->state == SB_NODE_ALLOCATED)
		return false;
	until = nd->run_jobs ? c->until[i] : 0;
	if (until > s)
		return false;
	for (k = 0; k < nd->nbusy; k++)
		if (nd->busy[k].start < e && nd->busy[k].end > s)
			return false;
	return true;
}

/*
 * Enough of the nodes for which @ok holds, in a block of consecutive
 * ones under CONTIGUOUS.
 */
static bool _enough(const bool *ok, size_t n, uint32_t count, bool block)
{
	size_t i, run = 0, total = 0;

	for (i = 0; i < n; i++) {
		run = ok[i] ? run + 1 : 0;
		total += ok[i];
		if (block ? run >= count : total >= count)
			return true;
	}
	return false;
}

/* The oracle's placement result and, for WILL_RUN, its start. */
static sb_place_result_t _oracle(const _rc_t *c, const _q_t *q,
				 int64_t *start)
{
	bool ok[MAXN], fit[MAXN];
	bool block = q->pol.kind == SB_POLICY_CONTIGUOUS;
	uint32_t count = q->f.base.min_nodes;
	int64_t from = c->now, s, best = -1;
	size_t i, k;

	for (i = 0; i < c->n; i++)
		fit[i] = _fits(c, q, i);
	if (!_enough(fit, c->n, count, block))
		return SB_PLACE_NEVER;
	if (q->mode == SB_SELECT_TEST_ONLY)
		return SB_PLACE_RUN;
	if (q->mode == SB_SELECT_RUN_NOW) {
		for (i = 0; i < c->n; i++)
			ok[i] = fit[i] && _free_over(c, i, c->now,
				sb_time_add(c->now, q->f.time_limit), false);
		return _enough(ok, c->n, count, block) ? SB_PLACE_RUN :
			SB_PLACE_WAIT;
	}
	/* WILL_RUN: every start at which a node's busy time ends */
	if (q->f.base.share.base_cons &&
	    (q->f.window_start || q->f.window_end) &&
	    q->f.window_start > from)
		from = q->f.window_start;
	for (i = 0; i <= c->n; i++) {
		size_t nk = i < c->n ? c->nodes[i].nbusy + 1 : 1;

		for (k = 0; k < nk; k++) {
			size_t j;

			if (i == c->n)
				s = from;
			else if (k == nk - 1)
				s = c->nodes[i].run_jobs ? c->until[i] : from;
			else
				s = c->nodes[i].busy[k].end;
			if (s < from || (best >= 0 && s >= best))
				continue;
			for (j = 0; j < c->n; j++)
				ok[j] = fit[j] && _free_over(c, j, s,
					sb_time_add(s, q->f.time_limit), true);
			if (_enough(ok, c->n, count, false))
				best = s;
		}
	}
	if (best < 0)
		return SB_PLACE_NEVER;
	*start = best;
	if (q->f.base.share.base_cons && q->f.window_end &&
	    best > q->f.window_end)
		return SB_PLACE_WAIT;
	if (q->f.test_now_only && best > c->now)
		return SB_PLACE_WAIT;
	return SB_PLACE_RUN;
}

/* The action the rules give on the oracle's result. */
static void _expect(const _rc_t *c, const _q_t *q, sb_place_result_t res,
		    const sb_select_verdict_t *v)
{
	bool cands = q->f.base.preempt_candidates;

	REQ(v->placed);
	REQ(v->result == res);
	if (res == SB_PLACE_RUN) {
		REQ(v->action == SB_SELECT_OURS ||
		    v->action == SB_SELECT_NEXT_SET);
		return;
	}
	if ((q->mode == SB_SELECT_RUN_NOW && !cands) ||
	    (q->mode == SB_SELECT_WILL_RUN && res == SB_PLACE_WAIT)) {
		REQ(v->action == SB_SELECT_NOT_NOW);
		return;
	}
	REQ(v->action == SB_SELECT_BASE);
	REQ(!strcmp(v->reason, cands ? SB_SELECT_PREEMPTION :
		    SB_SELECT_FOUND_NONE));
}

/* The set's truth, to see that a decision leaves it alone. */
static void _truth(const _rc_t *c, size_t *counts)
{
	size_t b, p, nb = sb_bucket_set_size(c->set);

	for (b = 0; b < nb; b++)
		for (p = 0; p < 3; p++)
			counts[b * 3 + p] = sb_bucket_count(c->set, b,
							    (sb_pool_t) p);
}

START_TEST(test_random_oracle)
{
	sb_test_rng_t g;
	unsigned long seen[4] = { 0 }, mutations = 0;
	size_t before[MAXN * 3], after[MAXN * 3];

	sb_test_rng_seed(&g, 0x5e1ec7de);
	for (_case = 0; _case < 4000; _case++) {
		_rc_t c;
		int round;

		_rc_init(&g, &c);
		for (round = 0; round < 6; round++) {
			sb_base_facts_t bf;
			sb_select_verdict_t v;
			sb_will_run_t *w = NULL;
			sb_place_result_t res;
			int64_t start = -1;
			const char *why;
			_q_t q;
			size_t i;

			_random_question(&g, &c, &q);
			REQ(sb_select_facts_check(&q.f, c.set, q.mode) == 0);
			if (q.mode == SB_SELECT_WILL_RUN) {
				REQ(w = sb_will_run_create(c.set, c.now,
					SB_TIME_INFINITE - c.now, c.until));
				REQ(sb_will_run_check(w) == 0);
				q.f.plan = w;
			}
			_truth(&c, before);
			REQ(sb_select_decide(c.set, &q.f, q.mode, &v) == 0);
			REQ(sb_select_verdict_check(&v, &q.f, c.set, q.mode)
			    == 0);
			_truth(&c, after);
			REQ(!memcmp(before, after, sb_bucket_set_size(c.set) *
				    3 * sizeof(size_t)));
			REQ(sb_bucket_set_check(c.set) == 0);
			/* rule 1 */
			bf = q.f.base;
			bf.will_run = q.mode == SB_SELECT_WILL_RUN;
			bf.contiguous_policy =
				q.pol.kind == SB_POLICY_CONTIGUOUS;
			why = sb_base_reason(&bf);
			REQ(why == sb_select_base_reason(c.set, &q.f, q.mode));
			if (why) {
				REQ(v.action == SB_SELECT_BASE);
				REQ(!strcmp(v.reason, why));
				REQ(!v.placed);
			} else {
				res = _oracle(&c, &q, &start);
				_expect(&c, &q, res, &v);
				if (v.action == SB_SELECT_OURS &&
				    q.mode == SB_SELECT_WILL_RUN)
					REQ(v.start == start);
				if (v.action == SB_SELECT_OURS &&
				    q.mode == SB_SELECT_RUN_NOW)
					for (i = 0; i < c.n; i++)
						if (sb_bitmap_test(v.nodes,
								   i) == 1)
							REQ(c.nodes[i].state !=
							SB_NODE_ALLOCATED);
			}
			seen[v.action]++;
			sb_select_verdict_fini(&v);
			sb_will_run_destroy(w);
			_q_fini(&q);
			/* a mutation: nodes change, the checker runs */
			for (i = sb_test_rng_below(&g, 3); i > 0; i--) {
				size_t k = sb_test_rng_below(&g, c.n);

				_random_state(&g, &c, k);
				REQ(sb_bucket_set_update(c.set, k) == 0);
				REQ(sb_bucket_set_check(c.set) == 0);
				mutations++;
			}
			if (sb_test_rng_below(&g, 3) == 0) {
				c.now += sb_test_rng_range(&g, 0, 30);
				REQ(sb_bucket_set_set_now(c.set, c.now) == 0);
				REQ(sb_bucket_set_check(c.set) == 0);
				for (i = 0; i < c.n; i++)
					if (c.until[i] && c.until[i] <= c.now)
						c.until[i] = c.now + 1;
				mutations++;
			}
		}
		_rc_fini(&c);
	}
	/* every action was reached, and often */
	ck_assert_msg(seen[SB_SELECT_OURS] > 1000 &&
		      seen[SB_SELECT_NOT_NOW] > 500 &&
		      seen[SB_SELECT_NEXT_SET] > 200 &&
		      seen[SB_SELECT_BASE] > 1000 && mutations > 10000,
		      "ours %lu, not now %lu, next set %lu, base %lu, "
		      "mutations %lu", seen[0], seen[1], seen[2], seen[3],
		      mutations);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("select_decide");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_base_reasons);
	tcase_add_test(tc, test_run_now);
	tcase_add_test(tc, test_next_set_and_allowed);
	tcase_add_test(tc, test_unfit_prefer_match);
	tcase_add_test(tc, test_will_run);
	tcase_add_test(tc, test_errors_and_checks);
	tcase_add_test(tc, test_random_oracle);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
