/*
 * planner_multi.h - k resource types over one horizon, one request vector.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A multi planner is k planners (planner.h) with the same horizon, one per
 * resource type, and spans that take a vector of k counts. A type whose
 * count is 0 gets no sub-span, so its planner has no points for it.
 *
 * Earliest fit for a request vector r from t: candidate s = t; for every
 * type i with r[i] > 0 look for the first shortage of r[i] units in
 * [s, s + d) (sb_planner_shortage); if no type has one, s is the answer;
 * otherwise the next candidate is the latest of those types' recovery
 * points (sb_planner_recovery), since no start before it can avoid that
 * type's shortage. Each round is O(k log n) and skips at least one
 * blocking interval. The candidates are t and the change points of any
 * type, as for one planner (see planner.h for where that differs from
 * Flux: t itself is an answer when it fits, so Flux's 4000 from 3500 is
 * our 3500).
 *
 * Operations (k types, n points per planner, b blocking intervals):
 *
 *   lifecycle  sb_planner_multi_create       O(k)
 *              sb_planner_multi_destroy      O(k n)     NULL is fine
 *              sb_planner_multi_size         O(1)       k
 *              sb_planner_multi_planner      O(1)       type i's planner
 *   spans      sb_planner_multi_add_span     O(k log n)
 *              sb_planner_multi_rem_span     O(k log n)
 *   queries    sb_planner_multi_avail_at     O(log n)   one type at t
 *              sb_planner_multi_avail_during O(k log n) min per type
 *              sb_planner_multi_fits         O(k log n)
 *              sb_planner_multi_earliest     O(b k log n)
 *              sb_planner_multi_next_fit     O(b k log n)
 *   text       sb_planner_multi_fmt          O(k n log n)
 *   invariant  sb_planner_multi_check        O(k n + spans log n)
 *
 * Errors as planner.h: -1 (or NULL) and errno; a failed call changes
 * nothing. Canonical text form: like sb_planner_fmt() over the union of
 * every type's change points, the free units of each type separated by
 * commas: "[0,1):10,20 [1,10):5,10 [10,inf):10,20".
 */
#ifndef SB_PLANNER_MULTI_H
#define SB_PLANNER_MULTI_H

#include <stddef.h>
#include <stdint.h>

#include "planner.h"

typedef struct sb_planner_multi sb_planner_multi_t;

/*
 * @k types with @totals[i] units each over [@base, @base + @horizon).
 * Returns it, or NULL with errno EINVAL (totals NULL, k == 0, horizon < 1,
 * a total < 0) or ENOMEM. O(k).
 */
sb_planner_multi_t *sb_planner_multi_create(int64_t base, int64_t horizon,
					    const int64_t *totals, size_t k);

/* Free @m. NULL is accepted and ignored. O(k n). */
void sb_planner_multi_destroy(sb_planner_multi_t *m);

/* Number of types (0 for NULL). O(1). */
size_t sb_planner_multi_size(const sb_planner_multi_t *m);

/*
 * Type @i's planner, for its own queries (read only), or NULL with errno
 * EINVAL (m NULL or i >= k). O(1).
 */
const sb_planner_t *sb_planner_multi_planner(const sb_planner_multi_t *m,
					     size_t i);

/*
 * Reserve @counts[i] units of every type i over [@start, @start + @d).
 * Returns the span id (> 0), or -1 with errno EINVAL (NULL argument, d < 1,
 * a count < 0, window outside the horizon), ERANGE (a count above its
 * total), ENOSPC (some type lacks the units) or ENOMEM. O(k log n).
 */
int64_t sb_planner_multi_add_span(sb_planner_multi_t *m, int64_t start,
				  int64_t d, const int64_t *counts);

/*
 * Release the span @id. Returns 0, or -1 with errno EINVAL (m NULL) or
 * ENOENT. O(k log n).
 */
int sb_planner_multi_rem_span(sb_planner_multi_t *m, int64_t id);

/*
 * Units of type @i free at @t. Returns them, or -1 with errno EINVAL (m
 * NULL, i >= k, t outside the horizon). O(log n).
 */
int64_t sb_planner_multi_avail_at(const sb_planner_multi_t *m, int64_t t,
				  size_t i);

/*
 * Minimum free units of every type over [@t, @t + @d) into @out[0..k).
 * Returns 0, or -1 with errno EINVAL (as sb_planner_avail_during, or a
 * NULL argument). O(k log n).
 */
int sb_planner_multi_avail_during(const sb_planner_multi_t *m, int64_t t,
				  int64_t d, int64_t *out);

/*
 * Whether every type i has @req[i] units free during [@t, @t + @d):
 * 1 yes, 0 no, or -1 with errno EINVAL or ERANGE. O(k log n).
 */
int sb_planner_multi_fits(const sb_planner_multi_t *m, int64_t t, int64_t d,
			  const int64_t *req);

/*
 * The earliest s >= @t (t before base counts as base), s being t or a
 * change point of some type, at which the request vector @req fits for
 * @d; into *@at. Returns 0, or -1 with errno EINVAL (NULL argument, d < 1,
 * a req < 0), ERANGE (a req above its total) or ENOENT. O(b k log n).
 */
int sb_planner_multi_earliest(const sb_planner_multi_t *m, int64_t t,
			      int64_t d, const int64_t *req, int64_t *at);

/*
 * As sb_planner_multi_earliest(), with only the change points strictly
 * after @prev as candidates (Flux's "next"). Same errors and cost.
 */
int sb_planner_multi_next_fit(const sb_planner_multi_t *m, int64_t prev,
			      int64_t d, const int64_t *req, int64_t *at);

/*
 * The canonical text form (above) as a new string the caller frees, or
 * NULL with errno EINVAL or ENOMEM. O(k n log n).
 */
char *sb_planner_multi_fmt(const sb_planner_multi_t *m);

/*
 * Check every type's planner (sb_planner_check) and that the live
 * sub-spans match the multi spans. Returns 0, or -1 with errno EFAULT,
 * EINVAL (m NULL) or ENOMEM. O(k n + spans log n).
 */
int sb_planner_multi_check(const sb_planner_multi_t *m);

#endif /* SB_PLANNER_MULTI_H */
