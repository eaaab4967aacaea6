/*
 * linear_pick.h - which nodes select/linear gives a whole-node job of a
 * node count: the smallest run of consecutive usable nodes that holds
 * it, else the largest runs first.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * select/linear (without a topology plugin, on nodes of one CPU count,
 * for a job that names no nodes and asks one count) looks at the usable
 * nodes in index order as runs of consecutive indices. While the job
 * still needs nodes it takes one run: among the runs large enough for
 * what is still needed, the smallest (the first of equal ones); when
 * none is, the largest (the first of equal ones); and takes that run's
 * nodes from its lowest index up, as many as still needed. The replay
 * of a select/linear cluster (replay.h, SB_REPLAY_SELECT_LINEAR) places
 * every job through this function, now and in backfill's will-run.
 *
 * Operations: sb_linear_pick: O(n) for each run it takes (n nodes).
 */
#ifndef SB_LINEAR_PICK_H
#define SB_LINEAR_PICK_H

#include <stddef.h>

#include "bitmap.h"

/*
 * Choose @count nodes of @usable as select/linear does (above) into
 * @out (same size as @usable; cleared first). Returns 1 with exactly
 * @count bits of @out set, all in @usable; 0 when @usable holds fewer
 * than @count nodes (@out cleared); -1 with errno EINVAL (a bitmap
 * NULL, sizes that differ, @count 0).
 */
int sb_linear_pick(const sb_bitmap_t *usable, size_t count,
		   sb_bitmap_t *out);

#endif /* SB_LINEAR_PICK_H */
