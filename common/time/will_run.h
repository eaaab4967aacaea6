/*
 * will_run.h - backfill's WILL_RUN: when and where could a job start?
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A plan describes the nodes of a bucket set (bucket.h) over the horizon
 * [base, end), end = base + horizon (clamped). Each node is busy from
 * base until the end of the jobs running on it, may be down (busy over
 * the whole horizon), and holds windows [start, end) during which it
 * cannot be used: advanced reservations, and jobs planned earlier and
 * committed with sb_will_run_commit(). A node's busy set is the union of
 * these, kept as sorted, merged segments.
 *
 * The question: for a request (chunks, time limit d) and the nodes
 * backfill allows, the earliest start s >= now with s + d <= end at which
 * every chunk gets its count of matching nodes, each node serving one
 * chunk and free during all of [s, s + d); and which nodes.
 *
 * Nodes are whole and exclusive (select/bucket gives whole nodes), so the
 * request's exclusive flag is not looked at. Required nodes (-w) and
 * contiguous requests are refused with EINVAL: the plugin answers those
 * through Slurm's own path.
 *
 * How. A node of bucket b can serve a window starting at s iff s lies in
 * one of its "start intervals": [g0, g1 - d] for each free gap [g0, g1)
 * of the node at least d long. Capacity per bucket therefore changes only
 * at those interval ends, and only grows where an interval opens (a job
 * ends, a reservation is over), so the earliest s is now or such an
 * opening. A query first checks now alone (the common "can it start right
 * away": per-node checks, no sorting; one chunk stops counting once it
 * has enough); otherwise it builds the start intervals of the allowed,
 * matching nodes and
 *   - one chunk, no interval ever closing (running jobs and down nodes,
 *     no reservation or planned job after a gap): capacity only grows, so
 *     the answer is the count-th opening, found by selection, O(M)
 *     (one pass keeping the least ones when the count is at most 32);
 *   - else sorts the 2M interval ends once and sweeps them in time order,
 *     keeping per-bucket capacities and testing the chunk -> bucket
 *     filling (bucket_fill.h, placement's own) at each opening (a running
 *     sum for one chunk), O(M log M + openings x assignment).
 * One pass either way, instead of select/linear's "end running jobs one at
 * a time and place again" (O(jobs x N)). Each node's end of its last
 * window, longest gap before it and end of the window holding now (the
 * plan's: base, or sb_will_run_advance()'s) are kept side by side with
 * the others, so a node free from its last window on, still busy from
 * now, or whose earlier gaps are all shorter than d
 * (it has one start interval then), costs a word or two in these passes,
 * not a search nor a walk of its set.
 *
 * Why not per-bucket timelines of free-node counts in a tree (as
 * flux-sched's planner; common/ had them, timeline.h, until #17): the
 * allowed bitmap changes per query, which makes any all-node aggregate an
 * upper bound only, and a window needs each node free all along, so every
 * candidate start must be confirmed node by node. Over a whole backfill
 * pass (bench_backfill_pass: 10,000 nodes, 5,000 running, 1,000 pending
 * jobs) such timelines, kept incrementally and even without the bitmap,
 * took about 100 times as long as this sweep.
 *
 * Which nodes, at the answer s (the placement engine's rules, place.h):
 * buckets in policy order (sb_policy_key() of the bucket's representative;
 * Weight first); within a bucket, nodes with a busy segment after the job
 * ("busy-later") first, then the others, lowest index first; chunks in
 * order, greedily, or by the exact assignment when greedy fails.
 * Deterministic: the same plan and request give the same answer.
 *
 * Match-OR ("[a|b]", node.h): each alternative is solved; the earliest
 * start wins, ties go to the first alternative written.
 *
 * Operations (N nodes, N' allowed nodes of matching buckets, r busy
 * segments of a node, M = sum of their segments, B buckets, C chunks):
 *
 *   lifecycle  sb_will_run_create   O(N r log r + B N / 64)
 *              sb_will_run_destroy  O(N)     NULL is fine
 *   state      sb_will_run_set_busy O(r log r) one node's running jobs
 *              sb_will_run_refresh_node O(r log r) one node again
 *                                   from the set's node (its state)
 *              sb_will_run_advance  O(N w + k r log r) to a later now,
 *                                   k nodes whose busy time changes
 *              sb_will_run_set_down O(r log r)
 *              sb_will_run_reserve  O(r log r) a window on one node
 *              sb_will_run_clear_windows O(r log r) drop a node's windows
 *              sb_will_run_commit   O(k r log r) a result's k nodes
 *   query      sb_will_run_query    O(C B + B N / 64 + N' log r) when the
 *                                   job can start now; else + O(M) (one
 *                                   chunk, nothing closes) or
 *                                   + O(M log M + openings x assign)
 *              sb_will_run_result_fini O(C)
 *   invariant  sb_will_run_check    O(N r log r)
 *
 * Errors: -1 with errno; a failed call changes nothing (but
 * sb_will_run_advance() on ENOMEM). EINVAL (NULL argument, bad request
 * per sb_request_check(), required nodes or contiguous, a bitmap of the
 * wrong size, now outside the horizon, a window outside it, base < 0),
 * ENOENT (the job can never start before the end of the horizon on the
 * allowed nodes: too few matching nodes, or no gap long enough), ENOMEM.
 *
 * Times are int64_t seconds >= 0; start + limit clamps at INT64_MAX
 * (SB_TIME_INFINITE), never wraps: a job without a time limit needs its
 * nodes free to the end of the horizon, so with a finite horizon it only
 * fits if end is INT64_MAX.
 */
#ifndef SB_WILL_RUN_H
#define SB_WILL_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bitmap.h"
#include "bucket.h"
#include "node.h"
#include "place.h"
#include "policy.h"

typedef struct sb_will_run sb_will_run_t;

/* The answer of sb_will_run_query(). */
typedef struct {
	int64_t start;			/* earliest start */
	int64_t end;			/* start + time limit, clamped */
	/*
	 * Same shape as sb_place(): result RUN when start == now, else
	 * WAIT; bucket_path true; nodes[c] the node set of chunk c;
	 * variant: which [a|b] alternative.
	 */
	sb_placement_t pl;
} sb_will_run_result_t;

/*
 * A plan of the nodes of @set (its node array is read, not kept in sync:
 * later node changes go through the setters below) over [@base, @base +
 * @horizon). Node i:
 *   - down (busy over the whole horizon) if its state is DOWN or DRAINED;
 *   - busy from base until @busy_until[i] when busy_until is not NULL
 *     (a time <= base: no running job; SB_TIME_INFINITE: no limit); a node
 *     that runs jobs (state ALLOCATED or run_jobs > 0) is busy at least
 *     until base + 1 (after sb_will_run_advance(), its now + 1), as
 *     select/linear treats jobs past their end time;
 *     with busy_until NULL, such a node is busy to the end of the horizon;
 *   - its busy windows (node.h, reservations) clipped to the horizon.
 * Returns the plan, or NULL with errno EINVAL (set NULL, base < 0,
 * horizon < 1) or ENOMEM. The bucket set must outlive the plan and keep
 * its nodes' static attributes.
 */
sb_will_run_t *sb_will_run_create(const sb_bucket_set_t *set, int64_t base,
				  int64_t horizon, const int64_t *busy_until);

/* Free @w. NULL is accepted and ignored. */
void sb_will_run_destroy(sb_will_run_t *w);

/*
 * Node @node now runs jobs until @until (<= base: none). Returns 0, or -1
 * with errno EINVAL (w NULL, node out of range) or ENOMEM.
 */
int sb_will_run_set_busy(sb_will_run_t *w, size_t node, int64_t until);

/*
 * Node @node again as sb_will_run_create() makes it from the set's node
 * array, with @until its busy_until: its state there now (down, drained,
 * running jobs) and @until decide its busy time and down flag; its windows
 * (reservations, committed results) are kept. For a plan kept while the
 * cluster changes: the caller updates the set's node (sb_bucket_set_update)
 * and refreshes it here, and the plan answers as one created afresh with
 * the same windows. Returns 0, or -1 with errno EINVAL (w NULL, node out
 * of range) or ENOMEM.
 */
int sb_will_run_refresh_node(sb_will_run_t *w, size_t node, int64_t until);

/*
 * Bring a kept plan to @now, a later moment than the one it stands at
 * (its base, or the @now of the last call): node i's running jobs end at
 * @busy_until[i] (NULL: as the plan has them), its state in the set's
 * node array decides whether it is down or runs jobs, and a node that
 * runs jobs whose end is not after @now is busy until @now + 1 (the rule
 * sb_will_run_create() applies at base). Windows are kept. From then on
 * a query at @now or later answers as one on a plan created at @now from
 * the same nodes, @busy_until and windows would: the time between base
 * and @now is in the past of every query (a query before @now is
 * refused). Nodes whose busy time or down flag do not change keep their
 * busy sets (only which of them are busy at @now is looked at again), so
 * bringing a plan one second further costs a pass over the nodes, where
 * creating it again costs a busy set per node (and the caller's own pass
 * over its jobs).
 * Returns how many nodes changed (their busy time or down flag), or -1
 * with errno EINVAL (w NULL, @now before the moment the plan stands at or
 * at/after the end of its horizon: nothing changed) or ENOMEM (some nodes
 * were brought forward and others not: destroy the plan).
 * O(N w + k r log r), k nodes changed, w windows before @now a node has
 * (a few).
 */
int sb_will_run_advance(sb_will_run_t *w, int64_t now,
			const int64_t *busy_until);

/* Mark @node down (never free) or up; other state is kept. As above. */
int sb_will_run_set_down(sb_will_run_t *w, size_t node, bool down);

/*
 * Keep @node unusable over [@start, @end) (clipped to the horizon).
 * Returns 0, or -1 with errno EINVAL (w NULL, node out of range, start >=
 * end, start < base) or ENOMEM.
 */
int sb_will_run_reserve(sb_will_run_t *w, size_t node, int64_t start,
			int64_t end);

/*
 * Forget every window of @node (reservations from its busy windows,
 * sb_will_run_reserve(), committed results); its busy time and down flag
 * stay. A query on behalf of a job that may use a reservation clears the
 * windows and reserves again those that still stand in its way. Returns
 * 0, or -1 with errno EINVAL (w NULL, node out of range) or ENOMEM.
 */
int sb_will_run_clear_windows(sb_will_run_t *w, size_t node);

/*
 * The earliest start >= @now (not before the moment the plan stands at:
 * its base, or sb_will_run_advance()'s now) of request @r under policy @p
 * on the nodes in @allowed (NULL: all nodes; otherwise a bitmap of the
 * set's node count) minus r->excluded. On success fills *out (release with
 * sb_will_run_result_fini()) and returns 0. Returns -1 with errno EINVAL,
 * ENOENT (never, see the top) or ENOMEM; *out is then zeroed. Cost: see
 * the table.
 */
int sb_will_run_query(const sb_will_run_t *w, const sb_request_t *r,
		      const sb_policy_t *p, const sb_bitmap_t *allowed,
		      int64_t now, sb_will_run_result_t *out);

/*
 * Plan a result: every node of @res is busy over [res->start, res->end)
 * from now on. The chunks' node sets must be disjoint (a query's are).
 * Returns 0, or -1 with errno EINVAL (NULL, a result without nodes, nodes
 * beyond the plan) or ENOMEM (nothing changed).
 */
int sb_will_run_commit(sb_will_run_t *w, const sb_will_run_result_t *res);

/* Release what a query put in *@res and zero it; NULL is fine. */
void sb_will_run_result_fini(sb_will_run_result_t *res);

/*
 * Verify: every node's segments are sorted, disjoint, non-touching, inside
 * the horizon and equal to the union of its busy time, down flag and
 * windows; each bucket's count of nodes with a segment after base (they
 * are the only possible busy-later ones) is right, and so are the set of
 * nodes busy at the plan's now (a query at now skips them a word at a
 * time) and each node's end of its last window, longest gap before it,
 * start of its last window and end of the window holding now; now is in
 * [base, end).
 * Returns 0, or -1 with errno EFAULT (broken), EINVAL or ENOMEM.
 */
int sb_will_run_check(const sb_will_run_t *w);

#endif /* SB_WILL_RUN_H */
