/*
 * sbucket_explain.h - one job explained: the one object 'sbucket why' and
 * 'sbucket forecast' print for a job, computed once from the one plan of
 * the queue (sbucket_forecast_plan.h) and its likely twin
 * (sbucket_forecast_likely.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A pending job's planned start and end (where backfill shows them), its
 * nodes, what it waits for, the limits it needs and who holds them, why
 * it has no start when it has none, its likely start and Slurm's own
 * squeue --start; a running job's start, end and nodes and its likely
 * end. What it waits for, one list, by what decided its start in the
 * plan:
 *   - its nodes: the running jobs on them that end by its start, the
 *     jobs planned before it on them that end by then (at most
 *     SBX_MAX_WAITS of each, by end), the reservations on them that end
 *     by then;
 *   - its limits: each limit it needs;
 *   - a dependency: the job it names and when that is met;
 *   - its begin time, or the start of its own reservation;
 *   - nothing: it starts now.
 * The JSON of the object (sbx_json()) is version SBX_SCHEMA of the
 * schema sbucket(1) documents; both commands print it through this
 * function, so their objects are the same bytes.
 *
 *   sbx_index_create  O(N + jobs' nodes)
 *   sbx_explain       O(its nodes' jobs + R + limits x holders)
 *   sbx_running       O(1)
 *   sbx_json          O(the object)
 *   sbx_waits_line    O(the waits)
 *   sbx_fini, sbx_index_destroy  O(1)
 */
#ifndef SBUCKET_EXPLAIN_H
#define SBUCKET_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sbucket_forecast_likely.h"
#include "sbucket_forecast_plan.h"

#define SBX_SCHEMA 1		/* the JSON's schema_version */
#define SBX_MAX_WAITS 8		/* jobs of one kind it waits for, named */
#define SBX_MAX_HOLDERS 8	/* holders of a limit, named */

typedef enum {
	SBX_RUNNING,			/* a running job on its nodes */
	SBX_PLANNED,			/* a job planned before it there */
	SBX_RESV,			/* a reservation on its nodes */
	SBX_OWN_RESV,			/* its own reservation's start */
	SBX_LIMIT,			/* a limit it needs */
	SBX_DEP,			/* a dependency */
	SBX_BEGIN,			/* its begin time */
} sbx_kind_t;

/* One thing a job waits for. */
typedef struct {
	sbx_kind_t kind;
	const char *id;			/* job, reservation or limit */
	const char *type;		/* a dependency's type */
	const sb_bitmap_t *nodes;	/* a job's or reservation's */
	int64_t at;			/* its end, or when it is met */
	size_t limit;			/* SBX_LIMIT: the limit's index */
} sbx_wait_t;

/* A limit a job needs (its index in the plan's limits). */
typedef struct {
	size_t k;
	int64_t need;
	int64_t allows;			/* the earliest start it alone
					 * allows, -1 never */
} sbx_limit_t;

typedef struct {
	const sbc_job_t *job;
	const sbf_job_t *f;		/* pending: its job of the plan */
	const char *placed_by;		/* "select/bucket" or the base
					 * plugin's name; NULL when the plan
					 * does not hold it */
	bool has_start;
	int64_t start, end;		/* -1 when none (end: also for no
					 * time limit) */
	const sb_bitmap_t *nodes;	/* planned, or running on */
	char no_start[320];		/* why it has no start, "" */
	sbx_wait_t *waits;
	size_t nwaits, more;		/* more: not named */
	sbx_limit_t *limits;
	size_t nlimits;
	bool likely;			/* a likely start or end is known */
	int64_t likely_start, likely_end;
	char likely_basis[320];		/* what its run time comes from */
} sbx_t;

/* Per node, the running and planned jobs on it. */
typedef struct sbx_index sbx_index_t;

/* The index of plan @p (which it must not outlive), or NULL on ENOMEM
 * (after one error line). */
sbx_index_t *sbx_index_create(const sbf_plan_t *p);
void sbx_index_destroy(sbx_index_t *x);

/*
 * Pending job @f of plan @p explained into @e (zeroed first; sbx_fini()),
 * @l the likely plan beside @p (NULL or not made: no likely start).
 * 0, or -1 after one error line (no memory).
 */
int sbx_explain(const sbf_plan_t *p, const sbf_likely_t *l, sbx_index_t *x,
		const sbf_job_t *f, sbx_t *e);

/*
 * Running (or suspended) job @j of cluster @c explained into @e (zeroed
 * first), its likely end from @l's predictions when made.
 */
void sbx_running(const sbc_cluster_t *c, const sbf_likely_t *l,
		 const sbc_job_t *j, sbx_t *e);

void sbx_fini(sbx_t *e);

/*
 * The object as JSON on stdout, on one line, without a newline:
 * {"job_id":...} (see sbucket(1), "JSON"). @p: the plan (its limits);
 * NULL for a running job.
 */
void sbx_json(const sbc_cluster_t *c, const sbf_plan_t *p, const sbx_t *e);

/*
 * What @e waits for as one line of text, into @buf (@len bytes): "running
 * job 3 on n3 (ends 2026-11-23T11:08:18); its reservation maint (starts
 * ...); QOS lim4 GrpTRES cpu (held by jobs 6, 7)", "and N more" at the
 * end; "" when nothing.
 */
void sbx_waits_line(const sbc_cluster_t *c, const sbf_plan_t *p,
		    const sbx_t *e, char *buf, size_t len);

/*
 * One thing @w waits for as text ("running job 3 on n3 (ends ...)"),
 * into @buf.
 */
void sbx_wait_text(const sbc_cluster_t *c, const sbf_plan_t *p,
		   const sbx_wait_t *w, char *buf, size_t len);

/* The running jobs holding limit @k of @p: up to @max into @jobs, with
 * their units and ends; how many there are. */
size_t sbx_holders(const sbf_plan_t *p, size_t k, const sbc_job_t **jobs,
		   int64_t *units, int64_t *ends, size_t max);

#endif /* SBUCKET_EXPLAIN_H */
