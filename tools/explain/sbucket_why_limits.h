/*
 * sbucket_why_limits.h - 'sbucket why' for a job held by a counted limit:
 * licences, QOS and association TRES and job-count limits.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Slurm's backfill skips a job its QOS or association limits hold
 * (acct_policy_job_runnable_pre_select/post_select) and plans licences
 * only with SchedulerParameters=bf_licenses, so 'squeue --start' shows
 * such a job no start. The units are counted and have no identity, so
 * the answer is exact (common/time/limit_plan.h): the running jobs hold
 * units until their end (StartTime + TimeLimit), the pending jobs ahead
 * of it (backfill's order) are planned first, each at the earliest start
 * its own limits allow, and the job's planned start is the earliest time
 * every limit it is held by lets it start.
 *
 * Read from 'scontrol show lic -o' (Total, Used of each licence) and
 * 'scontrol show assoc_mgr flags=assoc,qos -o' (each QOS's GrpTRES and
 * GrpJobs, its per-user MaxTRESPU/MaxJobsPU and per-account
 * MaxTRESPA/MaxJobsPA, each association's GrpTRES, GrpJobs, MaxJobs and
 * parent), and each job's QOS, Account, UserId, Partition, TRES and
 * Licenses from 'scontrol show jobs'. SBUCKET_SCONTROL names another
 * scontrol, as for the rest of 'sbucket why'.
 *
 * Not modelled: a partition's QOS (only the job's own QOS), limits that
 * free only as usage decays or running time passes (GrpTRESMins,
 * GrpTRESRunMins, GrpWall: the start cannot be known, and the answer
 * says so), MaxTRESPerJob/PerNode (a job over them never starts), and
 * whether jobs ahead also wait for nodes (they are planned by their
 * limits alone).
 */
#ifndef SBUCKET_WHY_LIMITS_H
#define SBUCKET_WHY_LIMITS_H

#include <stdbool.h>
#include <stdint.h>

#include "limit_plan.h"
#include "sbucket_cluster.h"

/* What a job's Reason says about its limits. */
typedef enum {
	SBW_REASON_OTHER,	/* not a limit: nodes, priority, ... */
	SBW_REASON_COUNTED,	/* a licence, TRES or job-count limit */
	SBW_REASON_TIMED,	/* usage minutes, run minutes, wall */
} sbw_reason_kind_t;

sbw_reason_kind_t sbw_limits_reason_kind(const char *reason);

/* "Backfill's order": is @a before @b? (sbucket_why.c's). */
typedef int (*sbw_before_fn)(const sbc_cluster_t *lv, const sbc_job_t *a,
			     const sbc_job_t *b);

typedef struct sbw_limits sbw_limits_t;

/*
 * Explain the limits of pending job @j: read what it needs (above), plan
 * the jobs before it (@before, @plannable: which pending jobs backfill
 * would consider) and @j. Returns a new explanation, or NULL after
 * printing one error line (a command failing, output not understood, no
 * memory).
 */
sbw_limits_t *sbw_limits_explain(sbc_cluster_t *lv, sbc_job_t *j,
				 sbw_before_fn before,
				 bool (*plannable)(const sbc_job_t *));

/* Free; NULL is fine. */
void sbw_limits_free(sbw_limits_t *ls);

/*
 * The earliest start the limits allow: 0 with *start set; 1 when it
 * cannot be known (a holder without a time limit, a timed limit, a need
 * above the limit: *start -1 and the reason is in the text).
 */
int sbw_limits_start(const sbw_limits_t *ls, int64_t *start);

/* The limits part of the text: each limit the job needs, its holders and
 * the jobs planned before it, and the start they allow. */
void sbw_limits_print_text(const sbw_limits_t *ls);

/* The "limits" array (the value only) of the JSON. */
void sbw_limits_print_json(const sbw_limits_t *ls);

/* ---- the whole queue ('sbucket forecast') ---- */

/*
 * The counted limits of the whole queue: every limit that a pending job
 * for which @want() is true needs is made, and the running jobs hold
 * their units. Returns them, or NULL after printing one error line.
 * O(jobs x limits of a job).
 */
sbw_limits_t *sbw_limits_queue(sbc_cluster_t *lv,
			       bool (*want)(const sbc_job_t *));

/* How many limits. */
size_t sbw_limits_count(const sbw_limits_t *ls);

/*
 * Job @j's units of each limit into @need[0..count] (zeroed first).
 * Returns 1 when it needs some, 0 when none, -1 after one error line.
 */
int sbw_limits_need(sbw_limits_t *ls, const sbc_job_t *j, int64_t *need);

/*
 * A limit plan (limit_plan.h) of the limits from lv->now, the running
 * jobs' units held until their ends. NULL after one error line.
 */
sb_limit_plan_t *sbw_limits_plan(sbw_limits_t *ls);

/*
 * sbw_limits_plan(), each running job holding its units until
 * @end(job, @arg) instead of its own end (one it has: a job without a
 * limit holds them for ever): the likely plan's. @end NULL: their own.
 */
sb_limit_plan_t *sbw_limits_plan_ends(sbw_limits_t *ls,
				      int64_t (*end)(const sbc_job_t *,
						     void *), void *arg);

/* Limit @k as the output names it ("licence lic", "QOS lim4 GrpTRES
 * cpu"), NULL beyond the count. */
const char *sbw_limits_what(const sbw_limits_t *ls, size_t k);

/* The running jobs holding limit @k: up to @max into @jobs; how many
 * there are. */
size_t sbw_limits_holders(const sbw_limits_t *ls, size_t k,
			  const sbc_job_t **jobs, size_t max);

#endif /* SBUCKET_WHY_LIMITS_H */
