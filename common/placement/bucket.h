/*
 * bucket.h - node buckets: nodes with one signature, split into pools.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A bucket set groups a node array by resource signature (signature.h).
 * Each bucket keeps bitmaps over node indices: all its nodes, and a
 * partition of them into three pools (node.h, sb_node_pool()):
 *
 *   free    usable now, no future busy window
 *   later   usable now, a busy window starts later ("busy-later")
 *   busy    everything else
 *
 * with cached counts. These are the truth. Each bucket also has a
 * working copy of the pools, scratch space for one placement attempt
 * (sb_bucket_working_reset() copies truth into it); placement takes
 * nodes from the working copy and never touches the truth.
 * The time only matters for busy windows; sb_bucket_set_set_now() moves
 * it (a long-lived set, in the select plugin, follows the clock).
 *
 * The set keeps a pointer to the caller's node array; the caller changes
 * a node's state there and calls sb_bucket_set_update() for that node:
 * O(1) bitmap work, no rebuild. The static attributes of a node must not
 * change after sb_bucket_set_create() (that needs a new set).
 *
 * Operations (N nodes, B buckets, W busy windows of one node):
 *   sb_bucket_set_create    O(N (sig + W)) expected  (hashing signatures)
 *                           + O(B N / 64) for the bitmaps
 *   sb_bucket_set_destroy   O(B)
 *   sb_bucket_set_update    O(W)       one node changed state
 *   sb_bucket_set_set_now   O(N / 64 + k W)  the clock moved (k nodes
 *                                      with busy windows)
 *   sb_bucket_set_check     O(N (sig + W) + B N / 64)
 *   accessors               O(1)
 *   sb_bucket_working_reset O(N / 64)  one bucket
 *
 * Buckets are numbered in order of their lowest node index.
 */
#ifndef SB_BUCKET_H
#define SB_BUCKET_H

#include <stddef.h>
#include <stdint.h>

#include "bitmap.h"
#include "node.h"

typedef struct sb_bucket_set sb_bucket_set_t;

/*
 * Build the buckets of @nodes[0..n) at time @now. nodes[i].index must be
 * i. The array must outlive the set. Returns the set, or NULL with errno
 * EINVAL (NULL nodes with n > 0, an index mismatch) or ENOMEM.
 */
sb_bucket_set_t *sb_bucket_set_create(const sb_node_t *nodes, size_t n,
				      int64_t now);

/* Free the set; NULL is fine. The node array is not touched. */
void sb_bucket_set_destroy(sb_bucket_set_t *s);

/* Number of buckets / nodes, and the time the pools describe. */
size_t sb_bucket_set_size(const sb_bucket_set_t *s);
size_t sb_bucket_set_nodes(const sb_bucket_set_t *s);
int64_t sb_bucket_set_now(const sb_bucket_set_t *s);
const sb_node_t *sb_bucket_set_node_array(const sb_bucket_set_t *s);

/*
 * Re-classify node @idx after its state, running jobs or busy windows
 * changed (for the set's time). Returns 0, or -1 with errno ERANGE
 * (idx >= nodes). O(W).
 */
int sb_bucket_set_update(sb_bucket_set_t *s, size_t idx);

/*
 * Move the set's time to @now (either way) and re-classify the nodes
 * that have busy windows: a window that has begun makes its node busy,
 * one that has ended frees it. Other nodes keep their pool (their state
 * does not depend on the time). Returns 0, or -1 with errno EINVAL (s
 * NULL). O(N / 64 + k W), k nodes with windows.
 */
int sb_bucket_set_set_now(sb_bucket_set_t *s, int64_t now);

/* Bucket of node @idx, its pool, and the start of its next busy window
 * (SB_TIME_INFINITE when none); idx must be < nodes. O(1). */
size_t sb_bucket_of(const sb_bucket_set_t *s, size_t idx);
sb_pool_t sb_bucket_node_pool(const sb_bucket_set_t *s, size_t idx);
int64_t sb_bucket_next_start(const sb_bucket_set_t *s, size_t idx);

/* For bucket @b (< size): a node with its signature (the lowest index),
 * its node bitmap and count, a truth pool and its cached count. O(1). */
const sb_node_t *sb_bucket_rep(const sb_bucket_set_t *s, size_t b);
const sb_bitmap_t *sb_bucket_all(const sb_bucket_set_t *s, size_t b);
size_t sb_bucket_total(const sb_bucket_set_t *s, size_t b);
const sb_bitmap_t *sb_bucket_pool(const sb_bucket_set_t *s, size_t b,
				  sb_pool_t pool);
size_t sb_bucket_count(const sb_bucket_set_t *s, size_t b, sb_pool_t pool);

/*
 * Copy the truth pools of bucket @b into its working copy (allocated on
 * first use). 0, or -1 with errno ENOMEM. O(N / 64).
 */
int sb_bucket_working_reset(sb_bucket_set_t *s, size_t b);

/* The working copy of a pool of bucket @b; NULL before the first reset. */
sb_bitmap_t *sb_bucket_working(sb_bucket_set_t *s, size_t b,
			       sb_pool_t pool);

/*
 * Verify every invariant: each node in exactly one bucket, with the
 * signature of its representative; the pools of a bucket partition its
 * nodes; counts equal popcounts; each node's pool and next start agree
 * with its state at the set's time; bitmaps pass sb_bitmap_check(). 0,
 * or -1 with errno EFAULT (EINVAL for NULL).
 */
int sb_bucket_set_check(const sb_bucket_set_t *s);

#endif /* SB_BUCKET_H */
