/*
 * select_decide.h - select/bucket's decision for one placement question:
 * ours or the base's (and why), the nodes, WILL_RUN's start, and what
 * the caller answers. The plugin (from job_record_t, per job_test()
 * call), 'sbucket place', 'sbucket why' and 'sbucket replay' (offline,
 * from files) ask it alike, so an offline answer is the plugin's by
 * construction.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The question. A job, described by its facts (sb_select_facts_t: what
 * it asks of each node, for how long, how it shares, its policy and
 * preferences, which nodes it may have), in one of three modes, the ones
 * of Slurm's select framework:
 *
 *   SB_SELECT_TEST_ONLY  could it ever run, and where (submission):
 *                        sb_place_ideal(), on an empty cluster
 *   SB_SELECT_RUN_NOW    start it now: sb_place() on the bucket set at
 *                        its time (the bucket path, or the per-node path
 *                        for requests and policies that need it)
 *   SB_SELECT_WILL_RUN   when and where would it start (backfill):
 *                        sb_will_run_query() on the plan of running
 *                        jobs' ends, reservations and down nodes
 *
 * The rules, in the order they apply (each names the action of the
 * verdict and, for SB_SELECT_BASE, its reason):
 *
 *   1. The base places every job sb_base_reason() names a reason for
 *      (base_reason.h: no_nodes, no_model, shared, required_nodes,
 *      contiguous, node_range, task_count, core_reservation, and in
 *      WILL_RUN preemption, contiguous_policy), with that reason. Its
 *      facts are f->base, but for two the decision knows better:
 *      will_run is the mode's, contiguous_policy the policy's, and
 *      model holds only with a bucket set. Nothing else is read or
 *      asked (f->complete is not called): a job the base places costs
 *      O(1) here.
 *   2. The job is ours: f->complete(), when set, fills the facts that
 *      cost something to know (see below); its failure hands the job to
 *      the base, reason "our error".
 *   3. One chunk of f->base.min_nodes whole nodes (exclusive), each
 *      with f->base.node_cpus CPUs, f->min_memory MB and f->min_tmp MB,
 *      for f->time_limit, ordered by f->policy and the preferred
 *      features (f->prefer, parsed once here, else f->match's list; a
 *      list that does not parse orders nothing: verdict prefer_err).
 *      The job may not have a node outside f->allowed, a node of a
 *      bucket f->unfit marks, nor (with f->match) a node of a bucket
 *      whose nodes do not match f->match's first chunk or one of
 *      f->match->excluded.
 *   4. TEST_ONLY, RUN_NOW: placed as the mode says; WILL_RUN: planned on
 *      f->plan from f->now, or from backfill's window start when the
 *      base honours the window (a consumable-resource base,
 *      f->base.share.base_cons, with a window set: from the later of
 *      its start and f->now) and not after its end: a start after the
 *      window's end is WAIT, and so is one after f->now when the job
 *      only wants to start now (f->test_now_only). No start before the
 *      plan's end is NEVER.
 *   5. An internal error (no memory, a placement or plan that fails
 *      other than with "never"): SB_SELECT_BASE, reason "our error",
 *      verdict err and failed say what failed.
 *   6. Not RUN (WAIT or NEVER):
 *        RUN_NOW without jobs to preempt (f->base.preempt_candidates
 *        false)                          SB_SELECT_NOT_NOW: "no", on
 *                                        our word (nothing free now is
 *                                        the common answer of a busy
 *                                        cluster, and a "never" is
 *                                        TEST_ONLY's to give)
 *        WILL_RUN and WAIT               SB_SELECT_NOT_NOW
 *        else                            SB_SELECT_BASE, reason
 *                                        "preemption" with jobs to
 *                                        preempt, else "we found none"
 *                                        (the base decides whatever we
 *                                        could not answer: preemption,
 *                                        "never")
 *   7. RUN in RUN_NOW with nodes not all in f->offered (the nodes of
 *      this call, when slurmctld offers them node set by node set and
 *      f->allowed holds every node it may offer): SB_SELECT_NEXT_SET,
 *      "no" until the set that holds them is offered.
 *   8. Else SB_SELECT_OURS: TEST_ONLY and RUN_NOW hand exactly the
 *      verdict's nodes to the base, which allocates them; WILL_RUN
 *      answers them with the start.
 * What follows is the caller's, as it holds the base: a base that
 * refuses our nodes decides on every offered node (the plugin logs the
 * reason SB_SELECT_REFUSED_OURS, "refused ours"), and a job the base
 * places goes to it exactly as slurmctld called (sharing as
 * sb_job_shares(&f->base.share) says).
 *
 * What the plugin answers slurmctld: OURS with the base's answer on our
 * nodes (RUN_NOW, TEST_ONLY) or SLURM_SUCCESS with the nodes and start
 * (WILL_RUN); NOT_NOW and NEXT_SET with EINVAL; BASE with the base's
 * answer on every node offered.
 *
 * The facts. Everything the decision reads about the job, built once per
 * question by the caller's one conversion: the plugin's from job_ptr,
 * the partition and the node set offered (plugins/select/bucket/
 * bucket_convert.c); an offline caller's from what it read. The costly
 * ones only a job of ours needs (which nodes it may have, the GRES its
 * buckets lack, WILL_RUN's plan, the nodes' load for a policy that
 * reads it) may be left for f->complete(), which the decision calls at
 * most once, after rule 1, before it reads them.
 *
 * An offline caller (no Slurm: 'sbucket replay', 'place', 'why'):
 *   - the set: sb_bucket_set_create() on its nodes (a nodes file read by
 *     sbi_read_nodes(), states and busy-later windows as they are at
 *     its now; sb_model_windows() for reservations ahead), moved to the
 *     question's time with sb_bucket_set_set_now() and kept current
 *     with sb_bucket_set_update() as nodes change;
 *   - the facts: sb_select_facts_init(), then sb_select_facts_request()
 *     from the job's parsed request (one chunk: min_nodes = max_nodes =
 *     its count; minimums; time limit; exclusive or not; required
 *     nodes, contiguous), f->policy, f->now, f->base.share.base_cons
 *     and the partition's OverSubscribe as its cluster has them; the
 *     request itself as f->match (features, GRES, partition, excluded
 *     nodes, preferences); f->allowed for the nodes slurmctld would
 *     offer beyond that (outside reservations active now that the job
 *     is not in; a reservation's nodes for a job in one), NULL for all;
 *   - WILL_RUN: f->plan from sb_model_plan() on the same set (running
 *     jobs' ends, reservations), at f->now or brought there.
 *   The decision changes neither the set's truth nor the plan: a caller
 *   that runs an OURS verdict marks the nodes allocated itself
 *   (sb_bucket_set_update(), sb_will_run_set_busy() or _commit()).
 *
 * Operations (N nodes, B buckets):
 *   sb_select_facts_init      O(1)
 *   sb_select_facts_request   O(1)
 *   sb_select_facts_check     O(B + N / 64)
 *   sb_select_base_reason     O(1)
 *   sb_select_decide          rule 1: O(1); ours: O(B (match) + N / 64
 *                             + P) (P: the preference list's length)
 *                             plus the placement (place.h) or the
 *                             WILL_RUN query (will_run.h), plus
 *                             f->complete()
 *   sb_select_verdict_check   O(B + N / 64)
 *   sb_select_verdict_fini    O(1)
 *   sb_select_action_name     O(1)
 *
 * Errors: -1 with errno EINVAL for a NULL @f, f->policy or verdict, or a
 * mode out of range, with no side effects; nothing is logged (the
 * caller logs from the verdict). Anything that fails once the job is
 * ours is a verdict (rule 5), not an error: facts that do not fit the
 * set (a bitmap of another size, WILL_RUN without a plan) give "our
 * error" with failed "facts" and err EINVAL, and the base decides, as
 * select/bucket must never leave a job without an answer.
 */
#ifndef SB_SELECT_DECIDE_H
#define SB_SELECT_DECIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base_reason.h"
#include "bitmap.h"
#include "bucket.h"
#include "node.h"
#include "place.h"
#include "policy.h"
#include "will_run.h"

/* Slurm's select modes (SELECT_MODE_*), as the decision sees them. */
typedef enum {
	SB_SELECT_TEST_ONLY,
	SB_SELECT_RUN_NOW,
	SB_SELECT_WILL_RUN,
} sb_select_mode_t;

/* What the caller answers (see the rules at the top). */
typedef enum {
	SB_SELECT_OURS,		/* the verdict's nodes (and start) */
	SB_SELECT_NOT_NOW,	/* "no" on our word (EINVAL) */
	SB_SELECT_NEXT_SET,	/* "no" until the set of our nodes is offered */
	SB_SELECT_BASE,		/* the base decides on every node offered */
} sb_select_action_t;

/* Reasons of SB_SELECT_BASE besides base_reason.h's (static strings). */
#define SB_SELECT_OUR_ERROR "our error"
#define SB_SELECT_PREEMPTION "preemption"
#define SB_SELECT_FOUND_NONE "we found none"
/* The caller's: the base refused the nodes we chose. */
#define SB_SELECT_REFUSED_OURS "refused ours"

typedef struct sb_select_facts sb_select_facts_t;

/*
 * Fill what is left of @f for a job of ours (rule 2), reading @set:
 * f->allowed, f->offered, f->unfit, f->plan, and the nodes' load (which
 * the set's node array holds) as the caller keeps them. Returns 0, or -1
 * with errno set (the job goes to the base, "our error").
 */
typedef int sb_select_complete_f(sb_select_facts_t *f,
				 const sb_bucket_set_t *set, void *arg);

struct sb_select_facts {
	/*
	 * The base-or-bucket rule's facts (base_reason.h): min_nodes is
	 * the count placed (slurmctld's min_nodes of this call), node_cpus
	 * each node's CPUs; will_run and contiguous_policy are set by the
	 * decision, model is ANDed with "there is a set".
	 */
	sb_base_facts_t base;
	uint64_t min_memory;		/* MB each node must have */
	uint64_t min_tmp;		/* MB of tmp disk each node */
	int64_t time_limit;		/* seconds, SB_TIME_INFINITE */
	const char *prefer;		/* "fast,ssd" (--bucket-prefer) or NULL */
	const sb_policy_t *policy;	/* never NULL */
	int64_t now;			/* the question's time */
	bool test_now_only;		/* WILL_RUN: a start now or none */
	/* backfill's WILL_RUN window (both 0: none): the start it tests,
	 * the latest start it wants (0: none) */
	int64_t window_start, window_end;
	/*
	 * Offline: the job's request as read (sb_select_facts_request());
	 * its first chunk's features, GRES and partition, its excluded
	 * nodes and (without @prefer) its preferences narrow and order the
	 * nodes. NULL in the plugin: slurmctld's bitmap already holds
	 * partition and features, and GRES are @unfit.
	 */
	const sb_request_t *match;
	/*
	 * For a job of ours (rule 2 may fill them). Bitmaps have the set's
	 * node count, @unfit one entry per bucket.
	 */
	const sb_bitmap_t *allowed;	/* nodes it may have (NULL: all) */
	const sb_bitmap_t *offered;	/* RUN_NOW: this call's (NULL: allowed) */
	const bool *unfit;		/* buckets whose GRES cannot serve it */
	const sb_will_run_t *plan;	/* WILL_RUN's plan */
	sb_select_complete_f *complete;	/* NULL: all of it is here */
	void *complete_arg;
};

/* The decision. Release with sb_select_verdict_fini(). */
typedef struct {
	sb_select_action_t action;
	const char *reason;		/* BASE: why (a static string) */
	/*
	 * The job was ours and asked the placement (rule 3 on): result,
	 * path and failed are about it.
	 */
	bool placed;
	sb_place_result_t result;	/* RUN, WAIT or NEVER (not on error) */
	const char *path;		/* TEST_ONLY, RUN_NOW: NULL for the
					 * bucket path, else the per-node
					 * path's reason (place.h) */
	/* rule 5: "placement", "WILL_RUN", "facts" or "memory", and errno */
	const char *failed;
	int err;
	int prefer_err;			/* the preferences were ignored: errno */
	sb_bitmap_t *nodes;		/* OURS, NEXT_SET: the job's nodes */
	int64_t start;			/* OURS in WILL_RUN: its start */
} sb_select_verdict_t;

/*
 * Zero @f and set the defaults: time limit SB_TIME_INFINITE, the model
 * there (base.model). NULL is ignored.
 */
void sb_select_facts_init(sb_select_facts_t *f);

/*
 * An offline caller's facts of @r (a request as 'sbucket place' reads
 * it) into @f (after sb_select_facts_init()): min_nodes = max_nodes =
 * the request's node count, node_cpus, min_cpus (node count x node_cpus),
 * min_memory, min_tmp of its first chunk, time limit, required nodes,
 * contiguous, share.job_exclusive when it is exclusive (one that is not
 * is a job sbatch ran without --exclusive nor --oversubscribe), and
 * f->match = @r (kept: @r must outlive the decision). What a request
 * does not say is left as it was: the policy, now, the base and the
 * partition's OverSubscribe (f->base.share), allowed, the plan. A
 * request of several chunks or with a matching OR ("[a*2&b*4]",
 * "[a|b]") is no question of one call: EINVAL. Returns 0, or -1 with
 * errno EINVAL (NULL, no chunk, several, a matching OR).
 */
int sb_select_facts_request(sb_select_facts_t *f, const sb_request_t *r);

/*
 * Verify @f against @set (NULL: no model) for @mode: a policy; allowed,
 * offered and f->match's bitmaps of the set's node count; a window
 * whose end, when set, is not before its start; f->match, when set,
 * one chunk of f->base.min_nodes nodes passing sb_request_check().
 * What f->complete() fills is checked once it is there. Returns 0, or
 * -1 with errno EFAULT (broken) or EINVAL (NULL @f).
 */
int sb_select_facts_check(const sb_select_facts_t *f,
			  const sb_bucket_set_t *set, sb_select_mode_t mode);

/*
 * Rule 1 alone: the reason the base places the job of @f in @mode on
 * @set (NULL: no model), or NULL when it is ours; for a caller that
 * needs only "ours or the base's" (a planner of a whole queue, 'sbucket
 * forecast'), as sb_select_decide() decides it. NULL @f or f->policy:
 * "no_model".
 */
const char *sb_select_base_reason(const sb_bucket_set_t *set,
				  const sb_select_facts_t *f,
				  sb_select_mode_t mode);

/*
 * Decide the question of @f in @mode on @set (NULL: no model yet,
 * every job the base's; a set whose working copies the placement uses:
 * its truth is not changed), by the rules at the top, into *@v (zeroed
 * first; sb_select_verdict_fini() it, whatever the return). Calls
 * f->complete at most once, for a job of ours. Returns 0, or -1 with
 * errno EINVAL (NULL @f, f->policy or @v, a mode out of range; *@v is
 * then zeroed). Cost: see the table.
 */
int sb_select_decide(sb_bucket_set_t *set, sb_select_facts_t *f,
		     sb_select_mode_t mode, sb_select_verdict_t *v);

/*
 * Verify that @v is a verdict sb_select_decide() can give for @f on
 * @set in @mode: BASE with a reason and no nodes; NOT_NOW without
 * nodes; OURS and NEXT_SET with f->base.min_nodes nodes, each allowed
 * (f->allowed), in no unfit bucket, none of f->match->excluded; NEXT_SET
 * only in RUN_NOW, with a node outside f->offered, OURS in RUN_NOW with
 * none; WILL_RUN's start not before f->now; OURS, NOT_NOW, NEXT_SET
 * and BASE "preemption" or "we found none" placed, with RUN for OURS
 * and NEXT_SET, WAIT or NEVER for the others; BASE "our error" with
 * what failed; any other BASE reason one of base_reason.h's, not
 * placed. Returns 0, or -1 with errno EFAULT (no such verdict) or
 * EINVAL (NULL).
 */
int sb_select_verdict_check(const sb_select_verdict_t *v,
			    const sb_select_facts_t *f,
			    const sb_bucket_set_t *set,
			    sb_select_mode_t mode);

/* Release what @v holds and zero it; NULL is fine. */
void sb_select_verdict_fini(sb_select_verdict_t *v);

/* "ours", "not now", "next set", "base"; "?" for another value. */
const char *sb_select_action_name(sb_select_action_t a);

/* "TEST_ONLY", "RUN_NOW", "WILL_RUN" (the plugin's log); "?" else. */
const char *sb_select_mode_name(sb_select_mode_t m);

#endif /* SB_SELECT_DECIDE_H */
