/*
 * limit_plan.c - when counted limits let jobs start (see limit_plan.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdlib.h>

#include "limit_plan.h"
#include "planner.h"

/*
 * Each limit's planner has this many units, far above any real limit
 * (Slurm's are 64-bit but a site's are far below 2^60), so holders over
 * a lowered limit still fit and sums cannot overflow.
 */
#define CAPACITY (INT64_C(1) << 60)

struct sb_limit_plan {
	int64_t now;
	size_t n;
	int64_t *limit;
	sb_planner_t **p;
};

size_t sb_limit_plan_count(const sb_limit_plan_t *lp)
{
	return lp ? lp->n : 0;
}

sb_limit_plan_t *sb_limit_plan_create(int64_t now, const int64_t *limit,
				      size_t n)
{
	sb_limit_plan_t *lp;
	size_t i;

	if ((n && !limit) || now < 0) {
		errno = EINVAL;
		return NULL;
	}
	for (i = 0; i < n; i++) {
		if (limit[i] < 0 || limit[i] > CAPACITY) {
			errno = EINVAL;
			return NULL;
		}
	}
	if (!(lp = calloc(1, sizeof(*lp))))
		goto oom;
	lp->now = now;
	lp->n = n;
	if (n && (!(lp->limit = malloc(n * sizeof(*lp->limit))) ||
		  !(lp->p = calloc(n, sizeof(*lp->p)))))
		goto oom;
	for (i = 0; i < n; i++) {
		lp->limit[i] = limit[i];
		/* now 0: the horizon is all of time, else what is left. */
		if (!(lp->p[i] = sb_planner_create(now, now ? SB_TIME_INFINITE -
						   now : SB_TIME_INFINITE,
						   CAPACITY)))
			goto oom;
	}
	return lp;
oom:
	sb_limit_plan_destroy(lp);
	errno = ENOMEM;
	return NULL;
}

void sb_limit_plan_destroy(sb_limit_plan_t *lp)
{
	size_t i;

	if (!lp)
		return;
	for (i = 0; lp->p && i < lp->n; i++)
		sb_planner_destroy(lp->p[i]);
	free(lp->p);
	free(lp->limit);
	free(lp);
}

/* Seconds from @start to @end, SB_TIME_INFINITE for a window to the end. */
static int64_t _span(int64_t start, int64_t end)
{
	return end == SB_TIME_INFINITE ? SB_TIME_INFINITE : end - start;
}

int sb_limit_plan_hold(sb_limit_plan_t *lp, size_t i, int64_t units,
		       int64_t end)
{
	if (!lp || i >= lp->n || units < 0 || units > CAPACITY) {
		errno = EINVAL;
		return -1;
	}
	if (end <= lp->now)
		end = lp->now + 1;
	if (!units)
		return 0;
	/* The capacity leaves room for any sum of real holders. */
	return sb_planner_add_span(lp->p[i], lp->now, _span(lp->now, end),
				   units) < 0 ? -1 : 0;
}

int64_t sb_limit_plan_in_use(const sb_limit_plan_t *lp, size_t i, int64_t t)
{
	int64_t freeu;

	if (!lp || i >= lp->n || t < lp->now) {
		errno = EINVAL;
		return -1;
	}
	if ((freeu = sb_planner_avail_at(lp->p[i], t)) < 0)
		return -1;
	return CAPACITY - freeu;
}

int sb_limit_plan_earliest_one(const sb_limit_plan_t *lp, size_t i,
			       int64_t need, int64_t t, int64_t duration,
			       int64_t *start)
{
	if (!lp || !start || i >= lp->n || need < 0 || t < lp->now ||
	    duration < 1) {
		errno = EINVAL;
		return -1;
	}
	if (need > lp->limit[i]) {
		errno = ENOENT;
		return -1;
	}
	/* Room for need under the limit = CAPACITY - limit + need free. */
	return sb_planner_earliest(lp->p[i], t, duration,
				   CAPACITY - lp->limit[i] + need, start);
}

int sb_limit_plan_earliest(const sb_limit_plan_t *lp, const int64_t *need,
			   int64_t t, int64_t duration, int64_t *start)
{
	int64_t s, si;
	size_t i, fit = 0;

	if (!lp || !start || (lp->n && !need) || t < lp->now ||
	    duration < 1) {
		errno = EINVAL;
		return -1;
	}
	/*
	 * Each limit in turn moves the candidate to its own earliest start
	 * at or after it; once every limit has accepted the same candidate
	 * in a row, it is the answer. The candidate only grows, through
	 * holders' ends, of which there are finitely many.
	 */
	s = t;
	for (i = 0; fit < lp->n; i = (i + 1) % lp->n) {
		if (need[i] <= 0) {
			fit++;
			continue;
		}
		if (sb_limit_plan_earliest_one(lp, i, need[i], s, duration,
					       &si))
			return -1;
		if (si > s) {
			s = si;
			fit = 1;
		} else {
			fit++;
		}
	}
	*start = s;
	return 0;
}

int sb_limit_plan_add(sb_limit_plan_t *lp, const int64_t *need,
		      int64_t start, int64_t duration)
{
	int64_t *ids;
	size_t i;
	int rc = -1;

	if (!lp || (lp->n && !need) || start < lp->now || duration < 1) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < lp->n; i++) {
		if (need[i] < 0 || need[i] > CAPACITY) {
			errno = EINVAL;
			return -1;
		}
	}
	if (!lp->n)
		return 0;
	if (!(ids = calloc(lp->n, sizeof(*ids)))) {
		errno = ENOMEM;
		return -1;
	}
	for (i = 0; i < lp->n; i++) {
		if (need[i] && (ids[i] = sb_planner_add_span(lp->p[i], start,
							     duration,
							     need[i])) < 0)
			goto undo;
	}
	rc = 0;
	goto out;
undo:
	while (i--) {
		if (ids[i] > 0)
			sb_planner_rem_span(lp->p[i], ids[i]);
	}
	errno = ENOMEM;
out:
	free(ids);
	return rc;
}
