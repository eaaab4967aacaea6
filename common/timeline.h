/*
 * timeline.h - when will k nodes of one bucket be free for d seconds?
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A timeline describes one bucket of identical nodes, numbered 0..N-1,
 * over the horizon [base, end), end = base + horizon (clamped). Each node
 * is busy until some time (the end of the job running on it; a time at or
 * before base means idle), may be down (busy over the whole horizon), and
 * may hold reservations: windows [start, start + duration) during which it
 * cannot be used. A node's busy set is the union of these, kept as sorted,
 * merged segments. The question the select plugin asks for WILL_RUN is:
 * the earliest start s >= t such that k nodes are each free during all of
 * [s, s + d), and which ones.
 *
 * How. An aggregate timetree (timetree.h) holds, at every segment
 * boundary of any node, the number of nodes free from then on. Having k
 * nodes free at every instant of the window is necessary but not enough
 * (node A busy in the first half and node B in the second leave "one node
 * free" throughout, yet no node is free for the whole window), so:
 *   1. the aggregate gives the next candidate s with at least k free at
 *      every instant of [s, s + d), by the shortage/recovery jumps of
 *      planner.h, O(log n) per blocking interval;
 *   2. the candidate is confirmed by counting the nodes whose own segments
 *      miss the window, O(N log r) (r = segments of a node); if fewer than
 *      k, the next change point is the next candidate.
 * When every node's busy set is a single prefix (running jobs and down
 * nodes, no reservation after a free gap), a node free at s stays free,
 * so step 2 always confirms the first candidate. The earliest start is
 * always t or a segment boundary: if a later s fit and nothing changed at
 * s, then s - 1 would fit too. So the answer is exact, not an
 * approximation; the unit test compares it with a scan of every instant.
 *
 * Which nodes: the k lowest-numbered nodes free for the whole window
 * (deterministic). Callers with a placement policy get the whole set from
 * sb_timeline_usable() and choose.
 *
 * Operations (N nodes, n aggregate points, r segments per node, b blocking
 * intervals, c candidates the per-node count rejects):
 *
 *   lifecycle  sb_timeline_create      O(N)
 *              sb_timeline_destroy     O(N + n)   NULL is fine
 *              sb_timeline_nodes       O(1)
 *   state      sb_timeline_set_busy    O(r log n) busy until a time
 *              sb_timeline_set_down    O(r log n)
 *              sb_timeline_reserve     O(r log n) returns a reservation id
 *              sb_timeline_unreserve   O(r log n)
 *   queries    sb_timeline_free_at     O(log n)   nodes free at t
 *              sb_timeline_node_free   O(log r)   one node, one window
 *              sb_timeline_usable      O(N log r) all nodes free for a window
 *              sb_timeline_earliest    O(b log n + (c + 1) N log r)
 *   text       sb_timeline_fmt         O(N r)
 *   invariant  sb_timeline_check       O(N r log(N r) + n)
 *
 * Errors: -1 (or NULL) with errno, and a failed call changes nothing:
 * EINVAL (NULL, node >= N, duration < 1, time outside the horizon where
 * one is required), ERANGE (k > N), ENOENT (no such reservation / no start
 * before the end of the horizon), ENOMEM.
 *
 * Canonical text form: one item per node, "<i>:" followed by "down", "-"
 * (never busy within the horizon) or its busy segments joined by "+":
 *   "0:[0,100) 1:down 2:- 3:[0,50)+[200,300)"
 * ("inf" stands for INT64_MAX). Times are int64_t and clamp, never wrap.
 */
#ifndef SB_TIMELINE_H
#define SB_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct sb_timeline sb_timeline_t;

/*
 * A bucket of @nnodes idle nodes over [@base, @base + @horizon). Returns
 * it, or NULL with errno EINVAL (horizon < 1, nnodes 0 or above
 * INT32_MAX) or ENOMEM. O(N).
 */
sb_timeline_t *sb_timeline_create(int64_t base, int64_t horizon,
				  size_t nnodes);

/* Free @tl. NULL is accepted and ignored. */
void sb_timeline_destroy(sb_timeline_t *tl);

/* Number of nodes (0 for NULL). O(1). */
size_t sb_timeline_nodes(const sb_timeline_t *tl);

/*
 * Node @node is busy from base until @until (exclusive): the end time of
 * the job running on it. @until <= base means idle; it replaces the
 * previous value. Returns 0, or -1 with errno EINVAL or ENOMEM.
 */
int sb_timeline_set_busy(sb_timeline_t *tl, size_t node, int64_t until);

/*
 * Mark @node down (unusable over the whole horizon) or up again; its busy
 * time and reservations are kept for when it comes back. Returns 0, or -1
 * with errno EINVAL or ENOMEM.
 */
int sb_timeline_set_down(sb_timeline_t *tl, size_t node, bool down);

/*
 * Keep @node unusable over [@start, @start + @duration) (clipped to the
 * horizon). Reservations of one node may overlap each other and its busy
 * time. Returns a reservation id (> 0), or -1 with errno EINVAL (duration
 * < 1, start < base, start >= end) or ENOMEM.
 */
int64_t sb_timeline_reserve(sb_timeline_t *tl, size_t node, int64_t start,
			    int64_t duration);

/* Drop reservation @id. Returns 0, or -1 with errno EINVAL or ENOENT. */
int sb_timeline_unreserve(sb_timeline_t *tl, int64_t id);

/*
 * Number of nodes not busy at @t, or -1 with errno EINVAL (t outside the
 * horizon). O(log n).
 */
int64_t sb_timeline_free_at(const sb_timeline_t *tl, int64_t t);

/*
 * Whether @node is free during all of [@t, @t + @d): 1 or 0, or -1 with
 * errno EINVAL (the window must lie in the horizon). O(log r).
 */
int sb_timeline_node_free(const sb_timeline_t *tl, size_t node, int64_t t,
			  int64_t d);

/*
 * The nodes free during all of [@t, @t + @d), in increasing order: up to
 * @cap of them into @out (which may be NULL when cap is 0). Returns how
 * many there are in all (possibly more than cap), or -1 with errno EINVAL
 * (as sb_timeline_node_free). O(N log r).
 */
int64_t sb_timeline_usable(const sb_timeline_t *tl, int64_t t, int64_t d,
			   size_t *out, size_t cap);

/*
 * The earliest start s >= @t (t before base counts as base) at which @k
 * nodes are each free during all of [s, s + @d), with s + d <= end; into
 * *@start, and the k lowest-numbered such nodes, increasing, into
 * @nodes[0..k) unless nodes is NULL. Returns 0, or -1 with errno EINVAL
 * (tl or start NULL, d < 1), ERANGE (k > N) or ENOENT (none). k == 0
 * answers t when the window lies in the horizon. Cost: see the table.
 */
int sb_timeline_earliest(const sb_timeline_t *tl, int64_t t, int64_t d,
			 size_t k, int64_t *start, size_t *nodes);

/*
 * The canonical text form (above) as a new string the caller frees, or
 * NULL with errno EINVAL or ENOMEM.
 */
char *sb_timeline_fmt(const sb_timeline_t *tl);

/*
 * Verify: the timetree's invariants; every node's segments are sorted,
 * disjoint, non-touching, inside the horizon and equal to the union of its
 * busy time, down flag and reservations; the aggregate's points are base
 * plus the segment boundaries, each holding N minus the nodes busy there.
 * Returns 0, or -1 with errno EFAULT (broken), EINVAL or ENOMEM.
 */
int sb_timeline_check(const sb_timeline_t *tl);

#endif /* SB_TIMELINE_H */
