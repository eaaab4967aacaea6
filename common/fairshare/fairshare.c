/*
 * fairshare.c - one fair-share pass with the algorithm the caller names
 * (see fairshare.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>

#include "fairshare.h"
#include "fairshare_classic.h"
#include "fairshare_level.h"
#include "fairshare_tree.h"

int sb_fairshare_compute(sb_assoc_tree_t *t, int algorithm, int levels,
			 uint32_t dampening)
{
	switch (algorithm) {
	case SB_FS_LEVEL_BASED:
		return sb_fairshare_level_compute(t, levels);
	case SB_FS_FAIR_TREE:
		return sb_fairshare_tree_compute(t);
	case SB_FS_CLASSIC:
		return sb_fairshare_classic_compute(t, dampening ? dampening
						    : 1);
	default:
		errno = EINVAL;
		return -1;
	}
}
