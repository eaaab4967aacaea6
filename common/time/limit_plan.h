/*
 * limit_plan.h - when counted limits let jobs start: licences, QOS and
 * association TRES and job-count limits.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A counted limit is a number of units that may be in use at once, with
 * no identity: licences (Licenses=matlab:8), a QOS's or an association's
 * GrpTRES=cpu=4 or GrpJobs=10, a QOS's MaxTRESPerUser=cpu=2 for one user.
 * Whichever units free, any of them serves. So, unlike nodes, the
 * planner's count model (planner.h) is exact here: the earliest time a
 * limit lets a job take n more units for d seconds is an earliest-fit
 * query over the units in use.
 *
 * A limit plan holds n limits from @now to the end of time. Running
 * jobs hold units until their end (sb_limit_plan_hold); pending jobs
 * are planned in priority order: sb_limit_plan_earliest() gives the
 * earliest start at which every limit a job is held by lets it start,
 * and sb_limit_plan_add() puts the job's units there, so later jobs plan
 * around it (what backfill does for nodes).
 *
 * Units in use may exceed a limit (an admin lowered it under running
 * jobs): each limit is a planner of a capacity far above any limit, and
 * "n more units fit under limit L" is "at least capacity - L + n units
 * are free", so such a limit simply allows nothing until enough of its
 * holders end.
 *
 * Operations (p = change points of one limit, at most 1 + 2 spans; k =
 * limits a job needs; r = rounds of the multi-limit search, each moving
 * the candidate start to a later change point):
 *
 *   sb_limit_plan_create       O(n)
 *   sb_limit_plan_destroy      O(total spans)   NULL is fine
 *   sb_limit_plan_hold         O(log p)
 *   sb_limit_plan_add          O(k log p)
 *   sb_limit_plan_in_use       O(log p)
 *   sb_limit_plan_earliest_one O(b log p), b blocking intervals crossed
 *   sb_limit_plan_earliest     O(r k b log p)
 *
 * Errors: -1 with errno; a failed call changes nothing. EINVAL: a NULL
 * argument, a limit index >= n, units or a limit < 0, a duration < 1, a
 * time before now. ENOENT: no start exists (the job needs more than the
 * limit, or the units it needs are held by jobs that never end).
 * ENOMEM. Not thread-safe.
 */
#ifndef SB_LIMIT_PLAN_H
#define SB_LIMIT_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "sb_time.h"

typedef struct sb_limit_plan sb_limit_plan_t;

/*
 * A plan of @n limits (@limit[i] units each, >= 0; n may be 0 and
 * @limit NULL then) over [@now, SB_TIME_INFINITE). Returns it, or NULL
 * with errno EINVAL or ENOMEM.
 */
sb_limit_plan_t *sb_limit_plan_create(int64_t now, const int64_t *limit,
				      size_t n);

/* Free @lp; NULL is accepted and ignored. */
void sb_limit_plan_destroy(sb_limit_plan_t *lp);

/* How many limits @lp has (0 for NULL). O(1). */
size_t sb_limit_plan_count(const sb_limit_plan_t *lp);

/*
 * A running job holds @units of limit @i from now until @end
 * (SB_TIME_INFINITE: it never ends). An end at or before now is taken as
 * now + 1: the job is overdue and about to end. Returns 0, or -1 with
 * errno EINVAL or ENOMEM.
 */
int sb_limit_plan_hold(sb_limit_plan_t *lp, size_t i, int64_t units,
		       int64_t end);

/*
 * Units of limit @i in use at @t (>= now). Returns them, or -1 with errno
 * EINVAL.
 */
int64_t sb_limit_plan_in_use(const sb_limit_plan_t *lp, size_t i, int64_t t);

/*
 * The earliest s >= @t (>= now) such that limit @i has room for @need
 * more units during all of [s, s + @duration) (SB_TIME_INFINITE: to the
 * end of time), into *@start. s is t or the end of some holder. Returns 0,
 * or -1 with errno EINVAL or ENOENT (need > the limit, or the room never
 * comes).
 */
int sb_limit_plan_earliest_one(const sb_limit_plan_t *lp, size_t i,
			       int64_t need, int64_t t, int64_t duration,
			       int64_t *start);

/*
 * The earliest s >= @t (>= now) at which every limit i with @need[i] > 0
 * has room for need[i] more units during [s, s + @duration), into
 * *@start. @need has one entry per limit. Returns 0, or -1 with errno
 * EINVAL or ENOENT (some limit never has the room).
 */
int sb_limit_plan_earliest(const sb_limit_plan_t *lp, const int64_t *need,
			   int64_t t, int64_t duration, int64_t *start);

/*
 * Plan a job: @need[i] units of each limit i over [@start, @start +
 * @duration). It need not fit (a job may start over a limit Slurm does
 * not enforce); later queries see the units taken. Returns 0, or -1 with
 * errno EINVAL or ENOMEM (nothing added).
 */
int sb_limit_plan_add(sb_limit_plan_t *lp, const int64_t *need,
		      int64_t start, int64_t duration);

#endif /* SB_LIMIT_PLAN_H */
