/*
 * sbucket_forecast_likely.c - the likely start of each pending job, from
 * run times predicted from accounting (sbucket_forecast_likely.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "sb_time.h"
#include "sbucket_forecast_likely.h"
#include "sbucket.h"
#include "sbucket_explain_fmt.h"
#include "slurm_text.h"
#include "sbucket_cluster_run.h"

#define PROG "sbucket"
#define NFIELDS 7		/* sacct's -o below */

static int _oom(void)
{
	fprintf(stderr, PROG ": out of memory\n");
	return -1;
}

int sbf_history_days(const char *v, int *days)
{
	uint64_t d;

	if (sb_decimal_in(v, 1, SBF_HISTORY_DAYS_MAX, &d) < 0)
		return -1;
	*days = (int) d;
	return 0;
}

int sbf_history_option(const char *cmd, const char *v, const char **seen,
		       int *days)
{
	if (*seen)
		return sbucket_usage_error(cmd, "--history-days", v,
					   "given twice");
	*seen = v;
	if (sbf_history_days(v, days) < 0)
		return sbucket_usage_error(cmd, "--history-days", v,
					   "is not a number of days (1-3650)");
	return 0;
}

typedef struct {
	sb_rt_history_t *h;
	int oom;
} _read_t;

/*
 * One line of sacct -P: "JobID|User|Partition|End|ElapsedRaw|
 * TimelimitRaw|NNodes". A line that is not one (a warning joined from
 * stderr, a step, a limit sacct does not give in minutes) is skipped.
 */
static int _line(void *arg, char *line, size_t len)
{
	_read_t *r = arg;
	char *f[NFIELDS], *p = line;
	uint64_t elapsed, limit, nodes;
	sb_rt_run_t run;
	size_t n;

	for (n = 0; n < NFIELDS; n++) {
		f[n] = p;
		if (!(p = strchr(p, '|')))
			break;
		*p++ = '\0';
	}
	if (n != NFIELDS - 1 || !f[0][0] || strchr(f[0], '.') || !f[1][0])
		return 0;
	if (sb_slurm_time(f[3], &run.end) < 0 || run.end < 0 ||
	    sb_decimal_parse(f[4], INT64_MAX, &elapsed, NULL) < 0 ||
	    sb_decimal_parse(f[6], UINT32_MAX, &nodes, NULL) < 0)
		return 0;
	if (!strcmp(f[5], "UNLIMITED"))
		run.time_limit = SB_TIME_INFINITE;
	else if (!sb_decimal_parse(f[5], INT64_MAX / 60, &limit, NULL) &&
		 limit > 0)
		run.time_limit = (int64_t) limit * 60;
	else
		return 0;
	run.user = f[1];
	run.partition = f[2];
	run.elapsed = (int64_t) elapsed;
	run.nodes = (uint32_t) nodes;
	if (sb_rt_history_add(r->h, &run) < 0 && errno == ENOMEM) {
		r->oom = 1;
		return -1;
	}
	return 0;
}

/* The history into l->h; 0 (l->note set when there is none) or -1. */
static int _history(sbf_likely_t *l, const sbc_cluster_t *lv, int days)
{
	_read_t r = { NULL, 0 };
	char from[32], to[32], err[300];

	if (lv->cfg.accounting_type &&
	    !strcmp(lv->cfg.accounting_type, "accounting_storage/none")) {
		snprintf(l->note, sizeof(l->note), "no likely start: the "
			 "cluster keeps no accounting (AccountingStorageType="
			 "accounting_storage/none), so no job's run time is "
			 "known");
		return 0;
	}
	if (!(r.h = sb_rt_history_create()))
		return _oom();
	/* local time, as sacct reads times on its command line */
	sbx_time(lv->now - (int64_t) days * 86400, from, sizeof(from));
	sbx_time(lv->now, to, sizeof(to));
	if (sbc_run_quiet(SBC_SACCT, (const char *[]) { "-a", "-X", "-n", "-P",
			  "-s", "CD", "-S", from, "-E", to, "-o",
			  "JobID,User,Partition,End,ElapsedRaw,TimelimitRaw,"
			  "NNodes", NULL }, _line, &r, err, sizeof(err)) < 0) {
		sb_rt_history_destroy(r.h);
		if (r.oom)
			return _oom();
		snprintf(l->note, sizeof(l->note), "no likely start: "
			 "sacct (the jobs' history): %s", err);
		return 0;
	}
	l->h = r.h;
	return 0;
}

static const char *_part(const sbc_cluster_t *lv, const sbc_job_t *j)
{
	return j->part >= 0 ? lv->parts[j->part].name : "";
}

/* Each job's prediction, running jobs' ends and pending jobs' runs. */
static int _predict(sbf_likely_t *l, const sbc_cluster_t *lv)
{
	size_t i;

	if (!(l->pred = calloc(lv->njobs + 1, sizeof(*l->pred))) ||
	    !(l->run_end = calloc(lv->njobs + 1, sizeof(*l->run_end))) ||
	    !(l->dur = calloc(lv->njobs + 1, sizeof(*l->dur))))
		return _oom();
	for (i = 0; i < lv->njobs; i++) {
		const sbc_job_t *j = &lv->jobs[i];
		sb_rt_pred_t *p = &l->pred[i];
		int64_t limit_end;

		p->basis = SB_RT_NONE;
		p->runtime = j->time_limit > 0 ? j->time_limit : 1;
		if (j->time_limit > 0 && j->user &&
		    sb_rt_predict(l->h, j->user, _part(lv, j), j->time_limit,
				  j->min_nodes, p) < 0)
			return _oom();
		l->dur[i] = p->runtime;
		limit_end = j->end < 0 ? SB_TIME_INFINITE : j->end;
		l->run_end[i] = limit_end;
		if (p->basis != SB_RT_NONE && j->start >= 0 &&
		    limit_end >= j->start)
			l->run_end[i] = sb_rt_running_end(j->start, limit_end,
							  p->runtime, lv->now);
	}
	return 0;
}

int sbf_likely_predict(sbf_likely_t *l, const sbc_cluster_t *lv, int days)
{
	memset(l, 0, sizeof(*l));
	if (_history(l, lv, days) < 0)
		return -1;
	if (!l->h)
		return 0;
	if (_predict(l, lv) < 0)
		return -1;
	l->predicted = true;
	return 0;
}

int sbf_likely_make(sbf_likely_t *l, sbf_plan_t *p, int days)
{
	if (sbf_likely_predict(l, &p->m->lv, days) < 0)
		return -1;
	if (!l->predicted)
		return 0;
	if (sbf_plan_with(&l->plan, p, l->run_end, l->dur) < 0)
		return -1;
	l->on = true;
	return 0;
}

void sbf_likely_note(const sbf_likely_t *l)
{
	if (l->note[0])
		fprintf(stderr, PROG ": note: %s\n", l->note);
}

const sbf_job_t *sbf_likely_job(const sbf_likely_t *l, const sbf_plan_t *p,
				const sbf_job_t *f)
{
	size_t i = (size_t) (f - p->jobs);

	if (!l->on)
		return NULL;
	if (i < l->plan.njobs && l->plan.jobs[i].job == f->job)
		return &l->plan.jobs[i];
	return sbf_plan_job(&l->plan, f->job);
}

/* Seconds as HH:MM:SS (days add to the hours). */
static void _hms(int64_t s, char *buf, size_t len)
{
	if (s == SB_TIME_INFINITE)
		snprintf(buf, len, "UNLIMITED");
	else
		snprintf(buf, len, "%02" PRId64 ":%02" PRId64 ":%02" PRId64,
			 s / 3600, s / 60 % 60, s % 60);
}

/* What prediction @r of a job with limit @limit comes from (see
 * sbf_likely_basis()). */
static void _basis(const sb_rt_pred_t *r, int64_t limit, char *buf,
		   size_t len)
{
	char a[32], b[32], c[32];

	if (r->basis == SB_RT_NONE) {
		snprintf(buf, len, "limit");
		return;
	}
	_hms(r->runs[0], a, sizeof(a));
	_hms(r->runs[1], b, sizeof(b));
	_hms(limit, c, sizeof(c));
	snprintf(buf, len, "last %s of %s: %s%s%s%s%s",
		 r->nruns > 1 ? "2 runs" : "run",
		 r->basis == SB_RT_SIMILAR ? "similar jobs" :
		 "the user's jobs", a, r->nruns > 1 ? ", " : "",
		 r->nruns > 1 ? b : "", r->capped ? "; capped by the limit " :
		 "", r->capped ? c : "");
}

void sbf_likely_basis(const sbf_likely_t *l, const sbf_plan_t *p,
		      const sbc_job_t *j, char *buf, size_t len)
{
	_basis(&l->pred[j - p->m->lv.jobs], j->time_limit, buf, len);
}

void sbf_likely_runtime(const sbf_likely_t *l, const sbf_plan_t *p,
			const sbc_job_t *j, char *buf, size_t len)
{
	const sb_rt_pred_t *r = &l->pred[j - p->m->lv.jobs];
	char t[32], basis[200];

	if (r->basis == SB_RT_NONE) {
		snprintf(buf, len, "its limit (no history)");
		return;
	}
	_hms(r->runtime, t, sizeof(t));
	sbf_likely_basis(l, p, j, basis, sizeof(basis));
	snprintf(buf, len, "%s (%s)", t, basis);
}

void sbf_likely_running(const sbf_likely_t *l, const sbc_cluster_t *lv,
			const sbc_job_t *j, int64_t *end, char *buf,
			size_t len)
{
	size_t i = (size_t) (j - lv->jobs);
	const sb_rt_pred_t *r = &l->pred[i];
	char t[32], basis[200];

	*end = l->run_end[i];
	if (j->state == SBC_SUSPENDED) {
		/* the plans take a suspended job as never ending */
		*end = SB_TIME_INFINITE;
		snprintf(buf, len, "suspended");
		return;
	}
	if (r->basis == SB_RT_NONE) {
		snprintf(buf, len, "at its limit (no history)");
		return;
	}
	_hms(r->runtime, t, sizeof(t));
	_basis(r, j->time_limit, basis, sizeof(basis));
	if (j->start >= 0 && sb_time_add(j->start, r->runtime) <= lv->now)
		snprintf(buf, len, "at its limit: it has run past its "
			 "predicted %s (%s)", t, basis);
	else
		snprintf(buf, len, "a run of %s (%s)", t, basis);
}

void sbf_likely_fini(sbf_likely_t *l)
{
	sbf_plan_fini(&l->plan);
	sb_rt_history_destroy(l->h);
	free(l->pred);
	free(l->run_end);
	free(l->dur);
}
