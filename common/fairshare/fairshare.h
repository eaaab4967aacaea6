/*
 * fairshare.h - one fair-share pass with the algorithm the caller names.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The priority plugin, 'sbucket fairshare' and bench_fairshare choose the
 * algorithm here, in one place, so a new algorithm (or a new parameter of
 * one) reaches them all:
 *
 *   SB_FS_LEVEL_BASED  sb_fairshare_level_compute(t, levels)
 *   SB_FS_FAIR_TREE    sb_fairshare_tree_compute(t)
 *   SB_FS_CLASSIC      sb_fairshare_classic_compute(t, dampening)
 *
 *   sb_fairshare_compute   the chosen algorithm's cost (see its header)
 */
#ifndef SB_FAIRSHARE_H
#define SB_FAIRSHARE_H

#include <stdint.h>

#include "assoc_tree.h"

/*
 * Run @algorithm (SB_FS_LEVEL_BASED, SB_FS_FAIR_TREE, SB_FS_CLASSIC) over
 * @t. @levels is read by LEVEL_BASED only, @dampening by classic only (0
 * counts as 1, Slurm's FairShareDampeningFactor). Returns 0, or -1 with
 * errno EINVAL (an unknown algorithm, or the algorithm's own errors) or
 * whatever the algorithm sets (ERANGE, ENOMEM); the tree's results are
 * then as the algorithm leaves them on failure.
 */
int sb_fairshare_compute(sb_assoc_tree_t *t, int algorithm, int levels,
			 uint32_t dampening);

#endif /* SB_FAIRSHARE_H */
