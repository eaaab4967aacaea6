/*
 * timetree.h - change points keyed by time, with subtree min/max of a value:
 * the store under the planner (planner.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A timetree is a set of points (at, val): at is an int64_t time, unique in
 * the tree; val is an int64_t (the planner stores the units free from at up
 * to the next point). Each point is reference counted, because the planner
 * creates one per span boundary and several spans may share a boundary.
 * It holds only what the planner uses: points in and out, the point in
 * force at t, a range add, a range min, and the earliest-fit walk.
 *
 * It is a B+tree ordered by time: leaves hold up to 32 points (the
 * fanout), internal nodes up to 32 children, and every internal node
 * keeps, for each child, the smallest time, the minimum and the maximum
 * val below it, and a lazy "add this to everything below" tag. So every
 * operation below is O(log n) (n points), including adding a delta to
 * all points of a time range however many it covers, and a search or a
 * range add deals with a child from its parent's arrays without loading
 * it.
 *
 * Why a B+tree and not an augmented red-black tree (issue #7 chose by
 * measurement, 1M spans, 1.8M points, 2-core VM: the B+tree added and
 * removed spans 20-40% faster and answered a descent in 0.7 us against
 * 1.8 us). With millions of points nearly every node visit is a cache
 * miss: a red-black tree is 25 to 40 levels deep and loads every child it
 * rules out; a B+tree is 4 or 5 levels deep and rules children out from
 * arrays in the parent, which is also what lets sb_timetree_fit settle an
 * easy request from the root alone. Fanouts 16 to 64 measured within noise
 * of each other for #7; for #25, 16, 24 and 32 updated within noise and
 * 48 took twice as long over contended searches. 32 is the default, and
 * -DSB_TIMETREE_FANOUT=n overrides it: testsuite/unit/test_timetree
 * builds with 4, so a few hundred points make a tree five or more levels
 * deep and every split and collapse path runs against the oracle.
 *
 * What an update costs (#25, the same 1.8M points, bench/bench_planner,
 * 2-core VM shared with other work): a planner's add or removal of a span
 * is two range operations and two point operations here: p99 2.9 to
 * 3.6 us each (p50 1.7 to 2.0 us), down from 7.2 to 10.3 us (p50 4.2 to
 * 5.1 us) in the same minutes with the tree before. Most of that is the
 * cache misses of one descent to each end of the span's range, which a
 * range operation now takes together (timetree.c, _touch_edges); tags
 * stay in the parents, so nothing off the two paths is loaded; acquire
 * and release are one descent each. Earliest fit is unchanged: p99 0.06
 * to 0.08 us easy, 0.3 to 0.5 us contended. Figures: bench/RESULTS.md.
 *
 * Deletion returns empty nodes to the tree's free lists but does not merge
 * sparse ones, so the depth is bounded by the largest size the tree ever
 * had, never by churn; a root left with one child is removed. The memory
 * of freed nodes is reused, and given back at sb_timetree_destroy.
 *
 * Operations (n = number of points, b = blocking intervals crossed):
 *
 *   lifecycle  sb_timetree_create    O(1)
 *              sb_timetree_destroy   O(n)      NULL is fine
 *              sb_timetree_size      O(1)
 *   points     sb_timetree_acquire   O(log n)  ref a point, create if new
 *              sb_timetree_release   O(log n)  unref, delete at zero
 *              sb_timetree_floor     O(log n)  last point <= t
 *   values     sb_timetree_add       O(log n)  val += d over [a, b)
 *              sb_timetree_min       O(log n)  min val over [a, b)
 *              sb_timetree_min_in_force O(log n) and the val in force at a
 *   search     sb_timetree_fit       O(b log n) earliest window, val >= v
 *   walk       sb_timetree_walk      O(n)      in time order
 *   invariant  sb_timetree_check     O(n)
 *
 * Conventions: functions that can fail return -1 and set errno; a failed
 * call changes nothing. Searches that find nothing fail with ENOENT. Time
 * ranges [a, b) are half-open; an empty range (a >= b) holds no points.
 * The tree does not check val for overflow: the planner keeps vals within
 * [0, total]. C11, no Slurm types. Not thread-safe; readers may share a
 * tree no one modifies.
 */
#ifndef SB_TIMETREE_H
#define SB_TIMETREE_H

#include <stddef.h>
#include <stdint.h>

/* Opaque: the node layout is private to timetree.c. */
typedef struct sb_timetree sb_timetree_t;

/* A new empty tree, or NULL with errno ENOMEM. O(1). */
sb_timetree_t *sb_timetree_create(void);

/* Free @tt and all its points. NULL is accepted and ignored. O(n). */
void sb_timetree_destroy(sb_timetree_t *tt);

/* Number of points (0 for NULL). O(1). */
size_t sb_timetree_size(const sb_timetree_t *tt);

/*
 * Take a reference on the point at @at. If there is none, create it with
 * the val of the last point before @at (the state then continues), or
 * @dflt when no point precedes @at; its reference count is then 1.
 * Returns 0, or -1 with errno EINVAL (tt NULL), ENOMEM, or EOVERFLOW (the
 * point already has UINT32_MAX references). O(log n).
 */
int sb_timetree_acquire(sb_timetree_t *tt, int64_t at, int64_t dflt);

/*
 * Drop a reference on the point at @at, deleting the point when it was the
 * last. Returns 0, or -1 with errno EINVAL (tt NULL) or ENOENT (no point
 * at @at). O(log n).
 */
int sb_timetree_release(sb_timetree_t *tt, int64_t at);

/*
 * The last point at or before @t (the one whose val holds at @t): its time
 * into *@at and val into *@val (either may be NULL). Returns 0, or -1 with
 * errno EINVAL (tt NULL) or ENOENT (every point is after @t). O(log n).
 */
int sb_timetree_floor(const sb_timetree_t *tt, int64_t t, int64_t *at,
		      int64_t *val);

/*
 * Add @delta to the val of every point whose time is in [@a, @b). Returns
 * 0, or -1 with errno EINVAL (tt NULL). O(log n) whatever the number of
 * points in the range (the update is lazy).
 */
int sb_timetree_add(sb_timetree_t *tt, int64_t a, int64_t b, int64_t delta);

/*
 * The smallest val of the points whose time is in [@a, @b), into *@out.
 * Returns 0, or -1 with errno EINVAL (tt or out NULL) or ENOENT (no point
 * in the range). O(log n).
 */
int sb_timetree_min(const sb_timetree_t *tt, int64_t a, int64_t b,
		    int64_t *out);

/*
 * The smallest val in force at an instant of [@a, @b): as sb_timetree_min,
 * plus the val of the last point at or before @a (in force at @a). ENOENT
 * when the range is empty or every point is at or after @b. One pass where
 * sb_timetree_floor and sb_timetree_min would walk the same path twice
 * (the planner's check that a span fits). O(log n).
 */
int sb_timetree_min_in_force(const sb_timetree_t *tt, int64_t a, int64_t b,
			     int64_t *out);

/*
 * Earliest fit: the first s in {@t} + {points after t} such that the val
 * in force at every instant of [s, s + @d) is >= @v (the val in force at
 * an instant is the val of the last point at or before it; before the
 * first point there is none, which never fits), and s + d <= @end, s + d
 * saturating at INT64_MAX. Into *@at. Returns 0, or -1 with errno EINVAL
 * (tt or at NULL, d < 1) or ENOENT. One forward walk from t that skips
 * whole subtrees by their min (while inside a window) or max (while
 * looking for the end of a shortage): O(log n) per blocking interval, and
 * less when the intervals are close together.
 */
int sb_timetree_fit(const sb_timetree_t *tt, int64_t t, int64_t d,
		    int64_t v, int64_t end, int64_t *at);

/*
 * Call @fn on every point in time order with its time, val and reference
 * count; stop early and return @fn's value when it is not 0. Returns 0
 * after a full walk, or -1 with errno EINVAL (tt or fn NULL). @fn must not
 * modify the tree. O(n).
 */
typedef int (*sb_timetree_walk_fn)(int64_t at, int64_t val, uint32_t refs,
				   void *arg);
int sb_timetree_walk(const sb_timetree_t *tt, sb_timetree_walk_fn fn,
		     void *arg);

/*
 * Verify every invariant: node sizes in [1, fanout], times strictly
 * increasing within and across nodes, each child's key equal to its first
 * time, every leaf at the same depth, each child's min/max in its parent
 * equal to what its contents and lazy tags give, the point count, and a
 * non-zero reference count on every point.
 * Returns 0, or -1 with errno EFAULT (broken) or EINVAL (tt NULL). O(n).
 */
int sb_timetree_check(const sb_timetree_t *tt);

#endif /* SB_TIMETREE_H */
