/*
 * planner.h - units of one counted resource over time: spans, free-unit
 * queries and earliest fit.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * What it is for (issue #25): resources that have a count and no
 * identity, where a count of free units over time is the whole truth:
 * licences (Licenses=matlab:8), and the TRES and job-count limits of a QOS
 * or an association (GrpTRES=cpu=64, MaxJobsPerUser=4, ...). Callers add a
 * span per holder (a running job from now to its end, or to the end of
 * the horizon when it has no end; a planned job from its planned start),
 * remove spans, and ask how many units are free at an instant, the
 * fewest free during [t, t + d), whether A units fit during [t, t + d),
 * and the earliest time >= t at which A units are free for d.
 *
 * What it is not for: nodes. A job given N nodes needs the same N nodes
 * free throughout its run, which a count of free nodes over time cannot
 * say; and it is slow there: a backfill pass planned on per-bucket
 * timelines of such planners took 116 s against will_run's 1 s (#17), so
 * nodes are planned by will_run.h on busy sets.
 *
 * A planner holds @total units over the horizon [base, end), end = base +
 * horizon (clamped to INT64_MAX). A span takes @count units over [start,
 * start + duration). The state is a set of change points: base, and every
 * span start and end; between two consecutive points the number of free
 * units is constant. The points live in a timetree (timetree.h), which
 * keeps per subtree the minimum and maximum free units, so every query
 * below is O(log n), n = number of points (at most 1 + 2 * spans).
 *
 * Operations (n = change points, b = blocking intervals crossed):
 *
 *   lifecycle  sb_planner_create        O(1)
 *              sb_planner_destroy       O(n + spans)  NULL is fine
 *              sb_planner_base / end / total / points / spans   O(1)
 *   spans      sb_planner_add_span      O(log n)  amortised
 *              sb_planner_rem_span      O(log n)
 *              sb_planner_span          O(1)      a span's start/dur/count
 *   queries    sb_planner_avail_at      O(log n)  free units at t
 *              sb_planner_avail_during  O(log n)  min free over [t, t+d)
 *              sb_planner_fits          O(log n)  can [t, t+d) take n
 *              sb_planner_earliest      O(b log n) earliest fit >= t
 *   text       sb_planner_fmt           O(n)      canonical state
 *   invariant  sb_planner_check         O(n + spans log spans)
 *
 * Earliest fit. For (t, d, n) the answer is the earliest time s in
 * {t} + {change points > t} such that at least n units are free during
 * all of [s, s + d) and s + d <= end. From a candidate s, the first point
 * in [s, s + d) with fewer than n free (a shortage) sends the search to
 * the first point after it with n free again (the recovery); a candidate
 * without a shortage is the answer. Both steps run as one forward walk of
 * the timetree (sb_timetree_fit) that skips whole subtrees by their min
 * (looking for a shortage) or max (looking for a recovery), so each
 * blocking interval costs at most O(log n), and consecutive rounds cost a
 * move to a neighbouring leaf rather than a new descent. No point before
 * t is visited. Figures at 10^6 spans: bench/bench_planner.c and
 * bench/RESULTS.md.
 *
 * Differences from Flux's planner, which this follows, on purpose:
 *  - t itself is a candidate even when it is not a change point: if the
 *    units are free at t for d, the answer is t ("not before now").
 *  - t before base is treated as base instead of failing.
 *  - span ids are opaque positive numbers, 1, 2, 3, ... for a planner that
 *    never removed a span; a removed span's slot is reused with a new id,
 *    so a stale id gives ENOENT, never another span.
 *
 * Times are int64_t; start + duration saturates at INT64_MAX instead of
 * wrapping, so on a planner whose end is INT64_MAX (horizon INT64_MAX) a
 * duration of INT64_MAX means "to the end of the horizon"; on a shorter
 * horizon pass end - start. Unit counts are int64_t >= 0; a count of 0 is
 * allowed everywhere and always fits. Errors: every function returns -1
 * (or NULL) and sets errno; a failed call changes nothing. EINVAL: a NULL
 * argument, duration < 1, count < 0, or a time outside the horizon where
 * the function requires one inside. ERANGE: a count above the total.
 * ENOSPC: a span does not fit. ENOENT: no such span / nothing fits before
 * the end of the horizon. ENOMEM.
 *
 * Canonical text form (sb_planner_fmt): one "[a,b):free" per change point
 * from base, in time order, separated by one space, b being the next
 * point or end ("inf" for INT64_MAX); points at or after end are not
 * shown. Two adjacent intervals may show the same free units when a span
 * ends where another of the same count starts: the points are the state
 * (they are sb_planner_earliest's candidates). Example, total 10 and spans
 * (1,1000,5) (2000,1001,10) (10,1990,1):
 *   "[0,1):10 [1,10):5 [10,1001):4 [1001,2000):9 [2000,3001):0 [3001,inf):10"
 *
 * C11, no Slurm types. Not thread-safe for writers; any number of readers
 * may share a planner no one modifies.
 */
#ifndef SB_PLANNER_H
#define SB_PLANNER_H

#include <stddef.h>
#include <stdint.h>

#include "sb_time.h"	/* sb_time_add(): window ends saturate */

typedef struct sb_planner sb_planner_t;


/*
 * A planner of @total units over [@base, @base + @horizon). Returns it, or
 * NULL with errno EINVAL (horizon < 1 or total < 0) or ENOMEM. O(1).
 */
sb_planner_t *sb_planner_create(int64_t base, int64_t horizon,
				int64_t total);

/* Free @p and its spans. NULL is accepted and ignored. O(n + spans). */
void sb_planner_destroy(sb_planner_t *p);

/* Getters; all O(1) and 0 for a NULL planner. */
int64_t sb_planner_base(const sb_planner_t *p);
int64_t sb_planner_end(const sb_planner_t *p);
int64_t sb_planner_total(const sb_planner_t *p);
size_t sb_planner_points(const sb_planner_t *p);
size_t sb_planner_spans(const sb_planner_t *p);

/*
 * Reserve @count units over [@start, @start + @duration). Returns the
 * span id (> 0), or -1 with errno EINVAL (p NULL, duration < 1, count < 0,
 * start < base, or the window ends after end), ERANGE (count > total),
 * ENOSPC (fewer than @count units free somewhere in the window) or ENOMEM.
 * A count of 0 is allowed and only adds change points. O(log n); the
 * span table grows by doubling.
 */
int64_t sb_planner_add_span(sb_planner_t *p, int64_t start, int64_t duration,
			    int64_t count);

/*
 * Release the span @id. Returns 0, or -1 with errno EINVAL (p NULL) or
 * ENOENT (no such span). O(log n).
 */
int sb_planner_rem_span(sb_planner_t *p, int64_t id);

/*
 * The span @id: start, duration and count into the pointers that are not
 * NULL. Returns 0, or -1 with errno EINVAL (p NULL) or ENOENT. O(1).
 */
int sb_planner_span(const sb_planner_t *p, int64_t id, int64_t *start,
		    int64_t *duration, int64_t *count);

/*
 * Units free at @t. Returns them (>= 0), or -1 with errno EINVAL (p NULL,
 * or t outside [base, end)). O(log n).
 */
int64_t sb_planner_avail_at(const sb_planner_t *p, int64_t t);

/*
 * Minimum units free over [@t, @t + @d). Returns it, or -1 with errno
 * EINVAL (p NULL, d < 1, t < base, or t + d > end). O(log n).
 */
int64_t sb_planner_avail_during(const sb_planner_t *p, int64_t t, int64_t d);

/*
 * Whether @n units are free during all of [@t, @t + @d): 1 yes, 0 no, or
 * -1 with errno EINVAL (as avail_during, or n < 0) or ERANGE (n > total).
 * O(log n).
 */
int sb_planner_fits(const sb_planner_t *p, int64_t t, int64_t d, int64_t n);

/*
 * The earliest time s >= @t (t before base counts as base) such that @n
 * units are free during [s, s + @d) and s + d <= end; s is t or a change
 * point (see the top of this file). Stores it into *@at. Returns 0, or -1
 * with errno EINVAL (p or at NULL, d < 1, n < 0), ERANGE (n > total) or
 * ENOENT (no such s). O(log n) per blocking interval crossed.
 */
int sb_planner_earliest(const sb_planner_t *p, int64_t t, int64_t d,
			int64_t n, int64_t *at);

/*
 * The canonical text form (above) as a new string the caller frees, or
 * NULL with errno EINVAL (p NULL) or ENOMEM. O(n).
 */
char *sb_planner_fmt(const sb_planner_t *p);

/*
 * Verify the planner: its timetree's invariants, that the points are
 * exactly base plus the span boundaries (with matching reference counts),
 * that free units at every point equal total minus the spans covering it
 * and lie in [0, total], and the span table's free list. Returns 0, or -1
 * with errno EFAULT (broken), EINVAL (p NULL) or ENOMEM.
 * O(n + spans log spans).
 */
int sb_planner_check(const sb_planner_t *p);

#endif /* SB_PLANNER_H */
