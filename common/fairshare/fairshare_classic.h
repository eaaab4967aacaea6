/*
 * fairshare_classic.h - classic (pre-Fair Tree) fair share of Slurm's
 * priority/multifactor, with FairShareDampeningFactor, for comparison.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Reproduced from priority_multifactor.c and assoc_mgr.c (22.05, with
 * PriorityFlags=NO_FAIR_TREE and without DEPTH_OBLIVIOUS):
 *  - shares_norm S: the product, from the association up to (not
 *    including) root, of shares / level shares over the ancestors whose
 *    shares are not 'parent', multiplied bottom-up in double; 0 as soon as
 *    one level has no shares; a 'parent' association takes its fs
 *    parent's S; root 1;
 *  - usage_norm UA = usage / root usage (0 if root has none, at most 1);
 *  - effective usage UE: UA when the fs parent is root; the fs parent's UE
 *    for 'parent' associations; else UA + (UE_parent - UA) * shares / level
 *    shares (UE_parent when level shares are 0), all long double; root 1;
 *  - factor 2^(-(UE / S) / dampening) in double, 0 when S <= 0. This is
 *    Slurm's priority_p_calc_fs_factor(), which is also what sshare
 *    prints for every line, accounts and root included.
 *
 * Results (sb_assoc_tree_get): shares_norm, usage_efctv, fs_factor
 * (every association, root included).
 *
 * Operations (n = associations, d = depth):
 *   sb_fairshare_classic_compute   O(n d)   full pass incl. roll-up
 *   sb_fairshare_classic_factor    O(1)     the factor alone
 *   sb_fairshare_classic_check     O(n d)   invariant checker
 */
#ifndef SB_FAIRSHARE_CLASSIC_H
#define SB_FAIRSHARE_CLASSIC_H

#include <stdint.h>

#include "assoc_tree.h"

/*
 * Run a full classic pass over @t with FairShareDampeningFactor
 * @dampening (>= 1; Slurm's default is 1). Returns 0, or -1 with errno
 * EINVAL (t NULL, dampening 0), ENOMEM or ERANGE (see
 * sb_assoc_tree_rollup); on failure the previous results are kept. O(n d).
 */
int sb_fairshare_classic_compute(sb_assoc_tree_t *t, uint32_t dampening);

/*
 * 2^(-(@usage_efctv / @shares_norm) / @dampening) as a double; 0 when
 * @shares_norm <= 0. @dampening 0 is treated as 1 (Slurm refuses it at
 * configuration). Pure; O(1).
 */
double sb_fairshare_classic_factor(long double usage_efctv,
				   long double shares_norm,
				   uint32_t dampening);

/*
 * Check the results of the last classic pass on @t by recomputing S, UE
 * and the factor the slow way. Returns 0, or -1 with errno EFAULT
 * (inconsistent) or EINVAL (t NULL or last pass not classic). O(n d).
 */
int sb_fairshare_classic_check(const sb_assoc_tree_t *t);

#endif /* SB_FAIRSHARE_CLASSIC_H */
