/*
 * sbucket_forecast_likely.h - the likely start of each pending job: the
 * queue planned again with run times predicted from accounting
 * (common/time/runtime_predict.h), beside the plan from time limits
 * (issue #35 item 6). 'sbucket forecast' and 'sbucket why' show it.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The history is every job that completed (state COMPLETED) over the last
 * N days, from
 *
 *   sacct -a -X -n -P -s CD -S START -E NOW
 *         -o JobID,User,Partition,End,ElapsedRaw,TimelimitRaw,NNodes
 *
 * (SBUCKET_SACCT names another binary): a failed, cancelled or timed-out
 * run tells nothing about how long the job needs (a timed-out one ran to
 * its limit, which the plan from limits already assumes). Without
 * accounting (AccountingStorageType accounting_storage/none, or sacct
 * failing) there is no likely start: one note line says why, on stderr,
 * and that is not an error.
 *
 * The likely plan is the same queue plan (sbucket_forecast_plan.h) over
 * the same model and the same limits, with a running job ending at its
 * predicted end (sb_rt_running_end()) and a pending job lasting its
 * predicted run time; a job without a prediction keeps its limit.
 */
#ifndef SBUCKET_FORECAST_LIKELY_H
#define SBUCKET_FORECAST_LIKELY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime_predict.h"
#include "sbucket_forecast_plan.h"

#define SBF_HISTORY_DAYS 14		/* the default window */
#define SBF_HISTORY_DAYS_MAX 3650

typedef struct {
	bool predicted;			/* pred, run_end, dur are set */
	bool on;			/* the likely plan was made */
	char note[400];			/* why not, when not on */
	sb_rt_history_t *h;
	sb_rt_pred_t *pred;		/* per job of the model's lv */
	int64_t *run_end;		/* per job: a running job's end */
	int64_t *dur;			/* per job: a pending job's run */
	sbf_plan_t plan;		/* over the limit plan's model */
} sbf_likely_t;

/*
 * The likely plan beside @p (planned by sbf_plan() or sbf_plan_run(),
 * which must outlive @l) into @l (zeroed first; release with
 * sbf_likely_fini()), from the completed jobs of the last @days days.
 * Without accounting, l->on stays false and l->note says why. Returns
 * 0, or -1 after printing one error line (out of memory, the plan
 * failing). O(history lines + jobs + the queue plan).
 */
int sbf_likely_make(sbf_likely_t *l, sbf_plan_t *p, int days);

/*
 * Only the history and each job's prediction (a running job's likely
 * end, 'sbucket why' of a running job), no plan, into @l (zeroed first;
 * sbf_likely_fini()): l->predicted, or l->note without accounting.
 * Returns 0, or -1 after printing one error line. O(history lines +
 * jobs).
 */
int sbf_likely_predict(sbf_likely_t *l, const sbc_cluster_t *lv, int days);

/* Print l->note, when there is one, as one line on stderr. O(1). */
void sbf_likely_note(const sbf_likely_t *l);

/*
 * The likely plan's job for @f, a job of the plan @p the likely plan was
 * made beside, or NULL (no likely plan). O(1) (the two plans hold the
 * same jobs in the same order), O(jobs) when they do not.
 */
const sbf_job_t *sbf_likely_job(const sbf_likely_t *l, const sbf_plan_t *p,
				const sbf_job_t *f);

/*
 * What @j's likely run time comes from, into @buf: "last 2 runs of
 * similar jobs: 00:04:10, 00:05:02", "last run of the user's jobs:
 * 00:01:00", "; capped by the limit 00:05:00" added when it is, or
 * "limit" (no history). O(1).
 */
void sbf_likely_basis(const sbf_likely_t *l, const sbf_plan_t *p,
		      const sbc_job_t *j, char *buf, size_t len);

/*
 * @j's likely run time and its basis, into @buf: "00:04:36 (last 2 runs
 * of similar jobs: 00:05:02, 00:04:10)", or "its limit (no history)".
 * O(1).
 */
void sbf_likely_runtime(const sbf_likely_t *l, const sbf_plan_t *p,
			const sbc_job_t *j, char *buf, size_t len);

/*
 * Running job @j's likely end (l->predicted) into *@end, and into @buf
 * what it comes from: "a run of 00:02:00 (last 2 runs of similar jobs:
 * ...)",
 * "at its limit: it has run past its predicted 00:02:00 (...)" or "at
 * its limit (no history)". O(1).
 */
void sbf_likely_running(const sbf_likely_t *l, const sbc_cluster_t *lv,
			const sbc_job_t *j, int64_t *end, char *buf,
			size_t len);

/* Read --history-days's value @v into *@days: 0, or -1 with errno
 * EINVAL or ERANGE (not a number of days in [1, SBF_HISTORY_DAYS_MAX]),
 * *@days unchanged. O(length of v). */
int sbf_history_days(const char *v, int *days);

/*
 * --history-days=@v of subcommand @cmd (why, forecast): into *@days,
 * *@seen set to @v. 0, or SBUCKET_EXIT_USAGE after one usage error
 * (given twice, not a number of days). O(length of v).
 */
int sbf_history_option(const char *cmd, const char *v, const char **seen,
		       int *days);

/* Release what @l holds (its plan, history and predictions); a zeroed
 * @l is fine. O(jobs + history). */
void sbf_likely_fini(sbf_likely_t *l);

#endif /* SBUCKET_FORECAST_LIKELY_H */
