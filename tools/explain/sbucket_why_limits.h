/*
 * sbucket_why_limits.h - the counted limits of the pending queue:
 * licences, QOS and association TRES and job-count limits, for the plan
 * of the queue (sbucket_forecast_plan.h) and each job's explanation
 * (sbucket_explain.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Slurm's backfill skips a job its QOS or association limits hold
 * (acct_policy_job_runnable_pre_select/post_select) and plans licences
 * only with SchedulerParameters=bf_licenses, so 'squeue --start' shows
 * such a job no start. The units are counted and have no identity, so
 * the answer is exact (common/time/limit_plan.h): the running jobs hold
 * units until their end (StartTime + TimeLimit), and the queue plan
 * (common/time/queue_plan.h) plans the pending jobs in backfill's order,
 * each at the earliest start its nodes and every limit it needs allow;
 * its result says what each limit alone allows.
 *
 * What slurmctld shows of the limits comes from
 * sbucket_cluster_limits.h, the jobs' QOS, account, user, partition,
 * TRES and licences from sbucket_cluster.h.
 *
 * Not modelled: a partition's QOS (only the job's own QOS), limits that
 * free only as usage decays or running time passes (GrpTRESMins,
 * GrpTRESRunMins, GrpWall: the start cannot be known, and the answer
 * says so), MaxTRESPerJob/PerNode (a job over them never starts).
 *
 *   sbw_limits_reason_kind  O(length)
 *   sbw_limits_queue        O(jobs x limits of a job)
 *   sbw_limits_count, sbw_limits_what  O(1)
 *   sbw_limits_need         O(limits of the job)
 *   sbw_limits_plan_ends    O(holders log holders)
 *   sbw_limits_free         O(limits + holders)
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

typedef struct sbw_limits sbw_limits_t;

/*
 * The counted limits of the whole queue: every limit that a pending job
 * for which @want() is true needs is made, and the running jobs hold
 * their units. Returns them, or NULL after printing one error line.
 */
sbw_limits_t *sbw_limits_queue(sbc_cluster_t *lv,
			       bool (*want)(const sbc_job_t *));

/* Free; NULL is fine. */
void sbw_limits_free(sbw_limits_t *ls);

/* How many limits. */
size_t sbw_limits_count(const sbw_limits_t *ls);

/*
 * Job @j's units of each limit into @need[0..count] (zeroed first).
 * Returns 1 when it needs some, 0 when none, -1 after one error line.
 */
int sbw_limits_need(sbw_limits_t *ls, const sbc_job_t *j, int64_t *need);

/*
 * A limit plan (limit_plan.h) of the limits from lv->now, the running
 * jobs' units held until @end(job, @arg) (the likely plan's ends; one it
 * has: a job without a limit holds them for ever), or until their own
 * ends when @end is NULL. NULL after one error line.
 */
sb_limit_plan_t *sbw_limits_plan_ends(sbw_limits_t *ls,
				      int64_t (*end)(const sbc_job_t *,
						     void *), void *arg);

/* Limit @k as the output names it ("licence lic", "QOS lim4 GrpTRES
 * cpu"), NULL beyond the count. */
const char *sbw_limits_what(const sbw_limits_t *ls, size_t k);

#endif /* SBUCKET_WHY_LIMITS_H */
