/*
 * fairshare_tree.h - Fair Tree fair share, as Slurm 22.05 computes it.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Fair Tree ranks every user association by walking the tree from root:
 * at each level, siblings (fs children of one association) are sorted by
 * Level FS = S / U, where S = shares / level shares and U = usage / fs
 * parent's usage; users are ranked in that order and accounts are
 * descended into in that order, so an under-served account's users all
 * rank above an over-served sibling's. The factor is rank / users.
 *
 * Reproduced bit for bit from fair_tree.c and assoc_mgr.c (22.05):
 *  - S is a double (shares / level shares), U a long double; Level FS is
 *    the long double S / U. U = 0 gives +inf ("NOT A BUG" in Slurm), S = 0
 *    gives 0 whatever U is, a 'parent' user gets +inf and a 'parent'
 *    account Slurm's NO_VAL (4294967294, sorting just below inf);
 *  - siblings sort by Level FS descending, users before accounts on equal
 *    Level FS; remaining ties keep insertion order (Slurm's qsort leaves
 *    them unspecified; the order only matters for tied accounts);
 *  - ties are exact long double equality with the previous sibling; the
 *    first sibling of a level is tied when its account was tied, and also,
 *    as in Slurm, when its Level FS equals NO_VAL (the initial "previous");
 *  - ranking is competition ranking on a counter that starts at the number
 *    of user associations: a user not tied to its predecessor takes the
 *    counter, every user decrements it. The documentation's rule "tied
 *    sibling accounts have their children merged" is dead code in Slurm
 *    (the merge count is always 0), so a second tied account's first user
 *    re-uses the rank of the last user ranked inside the first.
 * Consequences: the top user gets exactly 1.0, every factor is in
 * [1/N, 1], and users with no usage under accounts with no usage tie at 1.
 *
 * Results (sb_assoc_tree_get): shares_norm, usage_efctv (U), level_fs
 * (root: NO_VAL), fs_factor and rank (users; rank in [1, N]).
 *
 * Operations (n = associations, k = largest sibling group):
 *   sb_fairshare_tree_compute   O(n log k)  full pass incl. usage roll-up
 *   sb_fairshare_tree_check     O(n)        invariant checker on results
 */
#ifndef SB_FAIRSHARE_TREE_H
#define SB_FAIRSHARE_TREE_H

#include "assoc_tree.h"

/* Slurm's NO_VAL as a Level FS ('parent' accounts, root). */
#define SB_FS_NO_VAL 4294967294.0L

/*
 * Run a full Fair Tree pass over @t: roll usage up, normalise shares,
 * compute every Level FS, rank every user. Returns 0, or -1 with errno
 * EINVAL (t NULL), ENOMEM or ERANGE (see sb_assoc_tree_rollup); on failure
 * the previous results are kept. O(n log k) time, O(n) extra memory.
 */
int sb_fairshare_tree_compute(sb_assoc_tree_t *t);

/*
 * Check the results of the last Fair Tree pass on @t: every user factor
 * equals rank / users and lies in (0, 1], the best rank is 1.0 when there
 * are users, siblings' Level FS match their S and U. Returns 0, or -1 with
 * errno EFAULT (inconsistent), EINVAL (t NULL, or last pass not Fair Tree).
 * O(n).
 */
int sb_fairshare_tree_check(const sb_assoc_tree_t *t);

#endif /* SB_FAIRSHARE_TREE_H */
