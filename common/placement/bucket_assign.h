/*
 * bucket_assign.h - exact chunk assignment over groups of equal nodes.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Both placement paths reduce "which nodes serve which chunk" to counts:
 * groups of interchangeable nodes (buckets, or node classes on the
 * per-node path) supply nodes, chunks demand them, and a group may serve
 * the chunks in its mask. A node serves one chunk only. Greedy filling
 * in chunk order can fail where an assignment exists (a|b and a), so the
 * exact answer comes from a max-flow on this bipartite graph; groups
 * marked "must" (required nodes) are saturated first, which max-flow
 * keeps: augmenting paths never reduce the flow leaving the source.
 *
 *   sb_assign   O(A * (G + C + E)) with A augmentations (A <= total
 *               demand, usually ~ G + C); G groups, C chunks, E edges.
 */
#ifndef SB_BUCKET_ASSIGN_H
#define SB_BUCKET_ASSIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Find x[g * nchunks + c] (nodes of group g serving chunk c) with
 * sum_c x = cap[g] for groups with must[g] (must may be NULL),
 * sum_c x <= cap[g] otherwise, sum_g x = demand[c], and x = 0 unless bit
 * c of mask[g] is set. nchunks <= 64. Returns 1 (found, x filled), 0
 * (none exists; x undefined), or -1 with errno EINVAL / ENOMEM.
 */
int sb_assign(size_t ngroups, const uint64_t *cap, const bool *must,
	      const uint64_t *mask, size_t nchunks, const uint64_t *demand,
	      uint64_t *x);

#endif /* SB_BUCKET_ASSIGN_H */
