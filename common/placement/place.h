/*
 * place.h - place one request: the bucket path or the per-node path.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Both paths give the same guarantees (checked against a brute-force
 * oracle in testsuite/unit/test_place.c):
 *   - a node serves at most one chunk; every chunk gets exactly its count
 *     of nodes that match it, are not excluded, and can start the job now
 *     (free, or busy-later with the job ending by the next busy window);
 *     every required node is used; contiguous jobs get consecutive nodes;
 *   - NEVER if and only if no assignment exists with every node of the
 *     cluster up and idle; RUN if and only if one exists now; else WAIT.
 * They differ only in which of several right answers they pick.
 *
 * Bucket path (OpenPBS node buckets, see bucket.h): for a request that is
 * exclusive, has no required nodes, is not contiguous, and whose policy
 * orders buckets (policy.h, sb_policy_static()). Per chunk and per bucket
 * in policy order, it takes busy-later nodes whose next window starts at
 * or after the job's end, then free nodes, lowest index first. NEVER is
 * decided on cached counts in O(chunks x buckets) (plus an exact
 * assignment check over buckets when there are several chunks: OpenPBS's
 * per-chunk sum is necessary but not sufficient). How many nodes each
 * bucket gives each chunk is bucket_fill.h's answer (chunks in order,
 * greedily; the exact assignment when that fails where an assignment
 * exists, a|b then a), the same as WILL_RUN's. Excluded nodes (-x) are
 * subtracted from the counts and masked out of the working copies, so
 * they do not force the per-node path. Cost: O(C B + B log B + scanned
 * busy-later nodes + taken nodes + touched buckets x N/64), no per-node
 * work for free nodes.
 *
 * Per-node path (place_node.c): every other request. Checks each node,
 * orders the candidates by the policy, fills required nodes first, then
 * chunks in order; the same exact assignment backs it up. CONTIGUOUS
 * (policy or request flag) enumerates blocks of consecutive nodes,
 * MAXBALANCE enumerates speed ranges (two pointers) within weight tiers.
 * Cost: O(N (W + match) + N log N), more for CONTIGUOUS / MAXBALANCE.
 *
 * Feature "matching OR" ([a|b], node.h): each alternative is tried in the
 * order written; the first that can run now wins.
 */
#ifndef SB_PLACE_H
#define SB_PLACE_H

#include <stdbool.h>
#include <stddef.h>

#include "bitmap.h"
#include "bucket.h"
#include "node.h"
#include "policy.h"

typedef enum {
	SB_PLACE_RUN,			/* nodes assigned, can start now */
	SB_PLACE_WAIT,			/* could run here, not now */
	SB_PLACE_NEVER,			/* not even with all idle */
} sb_place_result_t;

typedef enum {
	SB_PATH_AUTO,			/* bucket path when eligible */
	SB_PATH_BUCKET,			/* bucket path or EINVAL */
	SB_PATH_NODE,			/* per-node, reason "forced" */
} sb_path_t;

typedef struct {
	sb_place_result_t result;
	bool bucket_path;
	const char *reason;		/* per-node path: why (see below) */
	size_t nchunks;
	sb_bitmap_t **nodes;		/* RUN: one node set per chunk */
	size_t variant;			/* RUN with [a|b]: which one */
} sb_placement_t;

/*
 * Why @r cannot take the bucket path under @p, or NULL if it can. The
 * reasons, checked in this order, are static strings:
 *   "not_exclusive"   the job shares nodes
 *   "required_nodes"  the job names nodes it must get
 *   "contiguous"      the job wants consecutive nodes
 *   "policy_order"    the policy orders nodes per job (LASTAVAILABLE,
 *                     CPULOAD, CONTIGUOUS, MAXBALANCE, dynamic PRIORITYF)
 */
const char *sb_place_ineligible(const sb_request_t *r, const sb_policy_t *p);

/*
 * Place @r on the nodes of @set at the set's time, taking the path
 * @path asks for. On success fills *out (release with
 * sb_placement_fini()) and returns 0; the bucket set's truth is not
 * changed (commit a placement by updating the nodes and calling
 * sb_bucket_set_update()). Returns -1 with errno EINVAL (bad request
 * per sb_request_check(), SB_PATH_BUCKET for an ineligible request) or
 * ENOMEM.
 */
int sb_place(sb_bucket_set_t *set, const sb_request_t *r,
	     const sb_policy_t *p, sb_path_t path, sb_placement_t *out);

/*
 * As sb_place(), but as if every node of @set were idle with no busy
 * window: the nodes the request would get on an empty cluster, by the
 * same rules (Slurm's TEST_ONLY, "could it ever run, and where"). The
 * result is RUN (with nodes) or NEVER, never WAIT; the pools' truth is
 * neither read nor changed. Same errors as sb_place().
 */
int sb_place_ideal(sb_bucket_set_t *set, const sb_request_t *r,
		   const sb_policy_t *p, sb_path_t path, sb_placement_t *out);

/* Release what sb_place() put in *out and zero it; NULL is fine. */
void sb_placement_fini(sb_placement_t *out);

/* "run", "wait", "never". */
const char *sb_place_result_name(sb_place_result_t res);

#endif /* SB_PLACE_H */
