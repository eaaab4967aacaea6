/*
 * sbucket_why_model.h - the running cluster in select/bucket's model
 * (buckets, running jobs' ends, reservations) and backfill's view of its
 * pending queue: what 'sbucket why' and 'sbucket forecast' share.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SBUCKET_WHY_MODEL_H
#define SBUCKET_WHY_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bucket.h"
#include "cluster_model.h"
#include "place.h"
#include "policy.h"
#include "sbucket_cluster.h"
#include "select_decide.h"

typedef struct {
	sbc_cluster_t lv;
	sb_bucket_set_t *set;
	sb_model_job_t *run;		/* running and suspended jobs */
	size_t nrun;
	const sbc_job_t **run_of;	/* the sbc_job_t of run[i] */
	sb_model_resv_t *resv;
	int64_t *until;
	sb_bitmap_t *reserved;		/* active reservations, not j's */
	const sb_policy_t *policy;
} sbw_model_t;

/* Free what sbw_model_build() and sbw_model_reserved() made, and lv. */
void sbw_model_fini(sbw_model_t *m);

/*
 * From m->lv (read by sbc_read()): the buckets with future
 * reservations as windows, the running jobs and their nodes' ends. 0, or
 * -1 after printing one error line. O(J N / 64 + R N / 64 + buckets).
 */
int sbw_model_build(sbw_model_t *m);

/* m->reserved: the nodes of reservations active now that @j does not
 * run in. 0, or -1 after printing one error line. O(R N / 64). */
int sbw_model_reserved(sbw_model_t *m, const sbc_job_t *j);

/*
 * select/bucket's facts of @j (select_decide.h) from what the cluster's
 * reader typed (sbucket_cluster.h), as the plugin converts them from
 * job_record_t: size, sharing (the partition's OverSubscribe and the
 * job's), -w, --contiguous, CPUs, reservations of cores, jobs it could
 * preempt, the cluster's policy and time, the nodes of its reservation,
 * and, when its request is one question of the plugin (built, one
 * chunk, no "[a|b]": true), the request itself as f->match with its
 * per-node minimums and time limit. O(R + running jobs).
 */
bool sbw_facts(const sbw_model_t *m, const sbc_job_t *j,
	       sb_select_facts_t *f);

/* select/bucket's verdict on a job: its decision, as the plugin makes it. */
typedef struct {
	const char *base;	/* why its base places it in WILL_RUN
				 * (backfill's plan), NULL: select/bucket */
	const char *base_now;	/* ... when it starts (RUN_NOW) */
	const char *path;	/* select/bucket places it node by node:
				 * why (place.h), NULL: over buckets */
	int64_t alone_start;	/* with @alone: WILL_RUN's start with
				 * nothing of the queue planned before
				 * it; -1: none (the base's, or never) */
} sbw_verdict_t;

/*
 * select/bucket's verdict on @j, whose request (j->req) is built, into
 * *@v: the one place why and forecast ask it, and only a caller of
 * common/'s decision (select_decide.h), on sbw_facts(): base and
 * base_now are sb_select_base_reason() in WILL_RUN and RUN_NOW, path
 * the placement's path for a job of ours (sb_place_ineligible()). With
 * @alone (why's pending job), a job of ours is also asked of
 * sb_select_decide() in WILL_RUN on the plan of running jobs' ends and
 * reservations (sb_model_plan()), as backfill asks the plugin with
 * nothing planned before it; a request of several counts or "[a|b]",
 * which the plugin is asked once per count, is asked of that plan whole
 * (sb_will_run_query()). 0, or -1 after printing one error line (no
 * memory, WILL_RUN failing); without @alone it cannot fail.
 * O(R + running jobs + the request), with @alone plus the plan and the
 * query (will_run.h).
 */
int sbw_verdict(const sbw_model_t *m, const sbc_job_t *j, bool alone,
		sbw_verdict_t *v);

/* Backfill's order (job_scheduler.c sort_job_queue2()): jobs in a
 * reservation, PriorityTier, priority, then job id. Is @a before @b? */
int sbw_before(const sbc_cluster_t *lv, const sbc_job_t *a, const sbc_job_t *b);

/* Does backfill plan this pending job (not held, not waiting for a
 * dependency, a begin time or a partition)? */
bool sbw_plannable(const sbc_job_t *j);

/* Does backfill skip @j for its limits (or its licences without
 * bf_licenses), so that it reserves no nodes in backfill's plan? */
bool sbw_held_by_limit(const sbc_cluster_t *lv, const sbc_job_t *j);

/* The nodes @j may use: its reservation's, or all (NULL). */
const sb_bitmap_t *sbw_allowed(const sbw_model_t *m, const sbc_job_t *j);

/* The union of a placement's chunks (@n bits), or NULL on ENOMEM. */
sb_bitmap_t *sbw_union(const sb_placement_t *pl, size_t n);

/* The names of @b as a sorted hostlist, to free(); NULL on ENOMEM. */
char *sbw_hostlist(const sbc_cluster_t *lv, const sb_bitmap_t *b);

/*
 * Where backfill shows a start @start of @j on @nodes: when a reservation
 * on those nodes (not j's) ends exactly then, backfill asks WILL_RUN
 * again one step later (backfill.c: the end rounded up to bf_resolution,
 * plus one second), so the start shows there; that reservation's name
 * into *@resv (when not NULL). Otherwise @start. O(R N / 64).
 */
int64_t sbw_backfill_step(const sbc_cluster_t *lv, const sbc_job_t *j,
			  int64_t start, const sb_bitmap_t *nodes,
			  const char **resv);

#endif /* SBUCKET_WHY_MODEL_H */
