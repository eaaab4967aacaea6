/*
 * queue_plan.h - one plan of a whole pending queue: when and where each
 * job starts, over nodes, CPUs and memory, counted limits and
 * dependencies ('sbucket forecast', 'sbucket why').
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Conservative backfill: the jobs are planned one after the other in the
 * order given (the caller's: backfill's), each at its earliest start
 * given everything planned before it, and that start is then kept, so no
 * two jobs ever get the same node (whole-node jobs), the same CPUs or
 * memory of a node (jobs the base places) or the same units of a limit.
 *
 * Two kinds of job:
 *   - WHOLE: select/bucket's jobs, on whole nodes: WILL_RUN (will_run.h)
 *     answers, on the plan the caller built (sb_model_plan());
 *   - BASE: jobs the base places on shared nodes: sb_request_nodes()
 *     nodes that match the request's first chunk (sb_chunk_match()),
 *     all of its required nodes when it has some (then at least as many
 *     as they are, and no other), each with
 *     @cpus CPUs and @mem MB free during the whole window. The queue
 *     plan keeps each node's use of CPUs and memory over time as a list
 *     of spans [start, end) (running jobs, planned jobs, reservations,
 *     down nodes: the whole node).
 * A planned WHOLE job takes its nodes' CPUs and memory whole in the span
 * lists; a planned BASE job becomes a window of WILL_RUN on its nodes,
 * so whole-node jobs plan around it.
 *
 * Each job starts no earlier than its begin time and its dependencies:
 * a planned predecessor's end (afterany, afterok, afternotok: when it
 * will have ended, whatever its outcome) or its start (after), or a
 * time the caller knows (a running predecessor's end). Its counted
 * limits (limit_plan.h) are asked in turn with the nodes: the earliest
 * start s the nodes allow from t, then the earliest the limits allow
 * from s; when that is later, the nodes are asked again from there, and
 * so on: each round moves the start to a later change point of one of
 * them, so the loop ends.
 *
 * A job whose pending predecessor comes later in the order is planned
 * after it (the order is kept otherwise); a job whose predecessor never
 * starts, or that is in a cycle of dependencies, never starts.
 *
 * Operations (N nodes, N' a BASE job's matching nodes, B buckets, S
 * spans of a node, c candidate starts of a BASE job of several nodes:
 * the ends of the spans on its matching nodes after t; J jobs, W jobs
 * waiting for a predecessor planned later; r rounds of nodes and
 * limits):
 *
 *   sb_qplan_create    O(N)
 *   sb_qplan_set_buckets O(1)
 *   sb_qplan_destroy   O(N + spans)     NULL is fine
 *   sb_qplan_use       O(S) (a node's spans are kept sorted by start;
 *                      O(1) amortised when they come in start order)
 *   sb_qplan_run       O(J + J W + sum over jobs of r x (WILL_RUN's query
 *                      or a BASE job's: B (match) + N / 64, then for one
 *                      node N' S on whole nodes (a word for a node
 *                      held whole from now past the best start found;
 *                      N' S^3 at most on shared ones), stopping at the
 *                      first node free at t, for several c log c +
 *                      c N' S^2; plus the limits' earliest))
 *   sb_qplan_result_fini O(1)
 *   sb_qplan_check     O(N S^2)
 *
 * Errors: -1 with errno; EINVAL (a NULL argument, a node index out of
 * range, a span with start >= end, a job without a request or with a
 * plan index >= nw, a dependency on a job index out of range; a job whose
 * nodes and limits do not agree within 10,000 rounds, which the rounds'
 * progress rules out: a guard), ENOMEM. No logging.
 */
#ifndef SB_QUEUE_PLAN_H
#define SB_QUEUE_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bitmap.h"
#include "bucket.h"
#include "limit_plan.h"
#include "node.h"
#include "policy.h"
#include "will_run.h"

typedef struct sb_qplan sb_qplan_t;

/* Which kind of job (see the top). */
typedef enum {
	SB_QP_WHOLE,
	SB_QP_BASE,
} sb_qp_kind_t;

/* Slurm's dependency types the plan knows. */
typedef enum {
	SB_QP_AFTER,			/* once the predecessor started */
	SB_QP_AFTERANY,			/* once it ended, any outcome */
	SB_QP_AFTEROK,			/* ... planned as if it succeeds */
	SB_QP_AFTERNOTOK,		/* ... or as if it fails */
} sb_qp_dep_kind_t;

/* A dependency: on job @job of the queue, or (job SIZE_MAX) on a time
 * the caller knows, @at (SB_TIME_INFINITE: never satisfied); @delay
 * seconds after the queued job's start (after:N+minutes). */
typedef struct {
	sb_qp_dep_kind_t kind;
	size_t job;
	int64_t at;
	int64_t delay;			/* >= 0; AFTER on a queued job */
} sb_qp_dep_t;

/* A pending job. The pointers must live until sb_qplan_run() returns. */
typedef struct {
	sb_qp_kind_t kind;
	const sb_request_t *req;	/* WHOLE: WILL_RUN's request; BASE:
					 * its first chunk's matching, its
					 * required and excluded nodes and
					 * sb_request_nodes() nodes */
	const sb_bitmap_t *allowed;	/* nodes it may use; NULL: all */
	size_t plan;			/* WHOLE: which WILL_RUN plan */
	int own_tag;			/* BASE: spans of this tag (its
					 * reservation's) are not in its
					 * way; -1: none */
	bool exclusive;			/* BASE: whole nodes (a base that
					 * allocates whole nodes, or
					 * --exclusive): nothing else on
					 * them over its window */
	uint32_t cpus;			/* BASE: CPUs on each node (>= 1) */
	uint64_t mem;			/* BASE: MB on each node */
	int64_t duration;		/* >= 1, SB_TIME_INFINITE */
	int64_t begin;			/* no start before; <= now: none */
	const int64_t *need;		/* units of each limit; NULL none */
	const sb_qp_dep_t *deps;
	size_t ndeps;
} sb_qp_job_t;

/* What decided a planned start. */
typedef enum {
	SB_QP_BY_NOW,			/* it can start now */
	SB_QP_BY_NODES,			/* when its nodes free */
	SB_QP_BY_LIMITS,		/* when its limits allow */
	SB_QP_BY_DEPENDENCY,		/* its predecessor (dep) */
	SB_QP_BY_BEGIN,			/* its begin time */
} sb_qp_by_t;

/* Why a job never starts. */
typedef enum {
	SB_QP_NEVER_NONE,		/* it is planned */
	SB_QP_NEVER_NODES,		/* too few nodes, ever (ENOENT) */
	SB_QP_NEVER_LIMITS,		/* a limit never has the room */
	SB_QP_NEVER_DEPENDENCY,		/* a predecessor never starts, or
					 * a dependency is never met */
	SB_QP_NEVER_CYCLE,		/* in a cycle of dependencies */
} sb_qp_never_t;

typedef struct {
	sb_qp_never_t never;
	int64_t start, end;		/* -1 when never */
	int64_t nodes_start;		/* the earliest start its nodes
					 * allowed from its begin time and
					 * dependencies, before its limits
					 * moved it; -1 when never */
	sb_bitmap_t *nodes;		/* planned nodes, NULL when never */
	sb_qp_by_t by;
	size_t dep;			/* BY_DEPENDENCY or NEVER_DEPENDENCY:
					 * the index of the dependency in
					 * the job's deps */
	size_t order;			/* when it was planned: 0, 1, ... */
	int64_t *allows;		/* NULL, or (a job with a need, not
					 * NEVER_DEPENDENCY or CYCLE) one
					 * entry per limit of the plan: for
					 * each it needs, the earliest start
					 * that limit alone allows from its
					 * begin time and dependencies, given
					 * the jobs planned before it (-1:
					 * never); -1 for the others */
} sb_qp_result_t;

/*
 * A queue plan over the @n nodes of @nodes (their CPUs, memory and
 * features are read, and a DOWN or DRAINED node is unusable to BASE
 * jobs) from @now, with the @nw >= 1 WILL_RUN plans @w[] of the same
 * nodes (one per set of reservations a job may use: w[0] none; a WHOLE
 * job is asked on w[job->plan], and every planned job is committed to
 * all of them) and the limits @lp (NULL: none; changed likewise). The
 * arguments must outlive the queue plan. Returns it, or NULL with errno
 * EINVAL (NULL nodes or w, nw 0, now < 0) or ENOMEM.
 */
sb_qplan_t *sb_qplan_create(const sb_node_t *nodes, size_t n, int64_t now,
			    sb_will_run_t *const *w, size_t nw,
			    sb_limit_plan_t *lp);

/*
 * Match BASE jobs per bucket of @set (its nodes those of the plan, in the
 * same order; NULL: node by node): a bucket's nodes are alike, so a
 * request is matched once per bucket, not once per node. @set must
 * outlive the plan. Returns 0, or -1 with errno EINVAL (q NULL, a set of
 * another node count).
 */
int sb_qplan_set_buckets(sb_qplan_t *q, const sb_bucket_set_t *set);

/* Free @q (not what it borrows). NULL is accepted and ignored. */
void sb_qplan_destroy(sb_qplan_t *q);

/*
 * Node @node's CPUs and memory: @cpus and @mem MB are in use over
 * [@start, @end) (a running job on a shared node; cpus UINT32_MAX: the
 * whole node, e.g. a reservation or an exclusive job). Only BASE jobs
 * read these; WILL_RUN has its own plan. @tag >= 0 names the span's
 * owner (a reservation): a job with that own_tag does not see it. Returns
 * 0, or -1 with errno
 * EINVAL (q NULL, node out of range, start >= end) or ENOMEM.
 */
int sb_qplan_use(sb_qplan_t *q, size_t node, uint32_t cpus, uint64_t mem,
		 int64_t start, int64_t end, int tag);

/*
 * Plan the @njobs jobs of @jobs, in their order (see the top), under
 * policy @p (WHOLE jobs), into @out[0..njobs) (each released with
 * sb_qplan_result_fini()). A job that never starts is not an error.
 * Returns 0, or -1 with errno EINVAL or ENOMEM (then @out holds nothing
 * to release, but the plans lent to the queue plan may hold part of the
 * queue).
 */
int sb_qplan_run(sb_qplan_t *q, const sb_qp_job_t *jobs, size_t njobs,
		 const sb_policy_t *p, sb_qp_result_t *out);

/* Release what @r holds and zero it; NULL is fine. */
void sb_qplan_result_fini(sb_qp_result_t *r);

/*
 * Verify: every span lies on a node of the plan with start < end, a
 * node's spans are sorted by start, the time each node is held whole
 * from now until is right, and no node's planned jobs (spans added by
 * sb_qplan_run()) use more CPUs or memory than the node has at any time.
 * Returns 0, or -1 with errno EFAULT (broken) or EINVAL.
 */
int sb_qplan_check(const sb_qplan_t *q);

#endif /* SB_QUEUE_PLAN_H */
