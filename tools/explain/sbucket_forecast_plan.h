/*
 * sbucket_forecast_plan.h - the pending queue of the running cluster,
 * planned whole (common/time/queue_plan.h): what 'sbucket forecast'
 * prints.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Every pending job of the cluster (sbucket_cluster.h) becomes a job of
 * the queue plan, in backfill's order (sbw_before()): a job select/bucket
 * places (sbw_verdict()'s base NULL: the plugin's own rule,
 * sb_select_base_reason() in WILL_RUN) on whole nodes through WILL_RUN,
 * one the base places on each node's CPUs and memory (whole nodes when the
 * base is not cons_tres, which gives whole nodes, or with --exclusive);
 * its counted limits (sbw_limits_queue()), its dependencies
 * (Dependency=, the jobs it names in the queue or running), its begin
 * time (Reason=BeginTime: EligibleTime) and its reservation (its nodes,
 * not before its start).
 * A start at the end of a reservation is shown where backfill shows it
 * (sbw_backfill_step()), as 'sbucket why' does.
 * A job backfill does not plan at all (held, a dependency never
 * satisfied, its partition down or inactive, a limit on usage minutes,
 * a request sbucket cannot model) gets no start and why.
 */
#ifndef SBUCKET_FORECAST_PLAN_H
#define SBUCKET_FORECAST_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "queue_plan.h"
#include "sbucket_why_limits.h"
#include "sbucket_why_model.h"

/* A dependency as Dependency= names it. */
typedef struct {
	sb_qp_dep_kind_t kind;
	const char *type;		/* "afterok", ..., "singleton" */
	const sbc_job_t *on;		/* the job, NULL: not in the queue */
	int64_t at;			/* when met (see queue_plan.h) */
	int64_t delay;			/* after:N+MINUTES, in seconds */
} sbf_dep_t;

/* One pending job, planned. */
typedef struct {
	sbc_job_t *job;
	bool planned;			/* in the queue plan */
	char no_start[256];		/* why no start, "" when it has one */
	sb_qp_job_t qj;
	sb_request_t req;		/* the likely plan's: the job's own,
					 * its time limit the run time
					 * predicted (WILL_RUN reads it) */
	sb_qp_result_t r;		/* valid when planned; r.start and
					 * r.end where backfill shows them */
	int64_t plan_start;		/* the queue plan's own start */
	sb_qp_dep_t *qdeps;
	sbf_dep_t *deps;
	size_t ndeps;
	int64_t *need;			/* units of each limit */
	bool needs_limits;
} sbf_job_t;

typedef struct {
	sbw_model_t *m;			/* own, or the caller's */
	sbw_model_t own;
	sbf_job_t *jobs;		/* pending jobs, backfill's order */
	size_t njobs;
	sbw_limits_t *lim;		/* NULL: no limit is in the way */
	sb_limit_plan_t *lp;
	sb_will_run_t **w;		/* [0]: no reservation; then one
					 * per reservation a job runs in */
	size_t nw;
	int *plan_of_resv;		/* reservation -> index in w, -1 */
	sb_qplan_t *q;
	/* the likely plan (sbucket_forecast_likely.h): per job of the
	 * model's lv, NULL in the plan from limits */
	const int64_t *run_end;		/* a running job's end */
	const int64_t *dur;		/* a pending job's run time */
	int64_t *until;			/* own: nodes busy until, from
					 * run_end */
	bool lim_lent;			/* lim is another plan's */
} sbf_plan_t;

/*
 * Read the cluster and plan its pending queue into @p (zeroed first;
 * release with sbf_plan_fini()). Returns 0, 1 when the cluster does not
 * run select/bucket (after printing so on stdout), -1 after printing
 * one error line. O(the queue plan's sb_qplan_run() + jobs log jobs).
 */
int sbf_plan(sbf_plan_t *p);

/*
 * Plan the pending queue of model @m (read and built by the caller, who
 * keeps it: sbucket why) into @p (zeroed by the caller). 0, or -1 after
 * printing one error line.
 */
int sbf_plan_run(sbf_plan_t *p, sbw_model_t *m);

/*
 * Plan the pending queue of @from's model again into @p (zeroed by the
 * caller), with running job i of the model's lv ending at @run_end[i]
 * and pending job i lasting @dur[i] seconds instead of their limits, and
 * @from's limits (lent: @from must outlive @p; no scontrol call). 0, or
 * -1 after printing one error line.
 */
int sbf_plan_with(sbf_plan_t *p, sbf_plan_t *from, const int64_t *run_end,
		  const int64_t *dur);

/* Release @p (and its own model, not a caller's). */
void sbf_plan_fini(sbf_plan_t *p);

/* The pending job of @p that is @j, or NULL. O(jobs). */
const sbf_job_t *sbf_plan_job(const sbf_plan_t *p, const sbc_job_t *j);

#endif /* SBUCKET_FORECAST_PLAN_H */
