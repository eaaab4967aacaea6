/*
 * fairshare_level.h - LEVEL_BASED fair share (Slurm 14.11, BYU 2014).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * LEVEL_BASED packs the fair share of every level of the tree into one
 * 64-bit number: with L levels, each level owns a bucket of 64 / L bits
 * (the 64 % L unused bits are the least significant), the first level
 * below root the most significant. At each level an association's value is
 *
 *	1 + 2^(-U / S') * (bucket_max - 1), truncated
 *
 * where U = usage / fs parent's usage, S' = shares / level shares mapped
 * from [0, 1] to [0.1, 1] (so a tiny share cannot make the exponent
 * explode); the formula never gives 0. An association with 0 normalised
 * shares gets 0, below every sibling with shares whatever the usage: 0
 * shares rank last, as in Fair Tree and classic. A user's raw value is the
 * OR of the shifted values on its path, so any difference at a higher
 * level outweighs everything below it. Users are sorted by raw value and
 * the factor is rank / users, tied users sharing the rank of the first of
 * them (e.g. 7,6,5,5,5,2,1,0): factors lie in [0, (N - 1) / N].
 *
 * Deliberate difference from the 2014 code (level_based.c at
 * d4ae6722784c): there 0 shares left the ratio at 0, so the level value
 * was the bucket maximum and a 0-share account ranked *highest*.
 *
 * Historic quirks kept on purpose:
 *  - a 'parent' user gets the bucket maximum; a 'parent' account adds no
 *    bits and its (re-attached) children are valued at its own level;
 *  - associations deeper than L levels add nothing (inherit the parent's
 *    raw value);
 *  - arithmetic is long double (powl), U is rounded through a double as
 *    Slurm's level_based_calc_assoc_usage() returned one. (Double
 *    arithmetic, a table of powers of two and a short polynomial replace
 *    them where the scaled value is far enough from an integer that both
 *    provably truncate alike; the checker recomputes every value the long
 *    double way.)
 *
 * Results (sb_assoc_tree_get): shares_norm, usage_efctv, fs_raw (every
 * association; root 0), level_fs (the association's own level value over
 * the bucket maximum, in [0, 1]: 0 for root, for 0 shares, for a 'parent'
 * account and below the last level; 1 for a 'parent' user), and for users
 * fs_ranked (rank scaled to 64 bits), fs_factor and rank (0-based, N - 1
 * best).
 *
 * Operations (n = associations, u = users):
 *   sb_fairshare_level_compute   O(n + u)    full pass incl. roll-up
 *                                            (radix sort of the users)
 *   sb_fairshare_level_value     O(1)        one level value, unshifted
 *   sb_fairshare_level_shift     O(1)        bit position of a level
 *   sb_fairshare_level_compose   O(L)        OR shifted values together
 *   sb_fairshare_level_check     O(n + u log u)  invariant checker
 */
#ifndef SB_FAIRSHARE_LEVEL_H
#define SB_FAIRSHARE_LEVEL_H

#include <stdint.h>

#include "assoc_tree.h"

#define SB_FS_LEVELS_MIN 1
#define SB_FS_LEVELS_MAX 16

/*
 * Run a full LEVEL_BASED pass over @t with @levels buckets: roll usage up,
 * normalise shares, compute every raw value, rank the users. Returns 0, or
 * -1 with errno EINVAL (t NULL, levels outside [1, 16]), ENOMEM or ERANGE
 * (see sb_assoc_tree_rollup); on failure the previous results are kept.
 * O(n + u) time, O(n + u) extra memory.
 */
int sb_fairshare_level_compute(sb_assoc_tree_t *t, int levels);

/*
 * The unshifted value of one level for effective usage @usage_efctv and
 * normalised shares @shares_norm with @levels buckets:
 * 1 + 2^(-U / S') * (bucket_max - 1) truncated, S' = 0.1 + 0.9 S; 0 when
 * @shares_norm is 0. Returns the value, or 0 with errno EINVAL (levels out
 * of range, negative or NaN inputs; errno is left alone otherwise). O(1).
 */
uint64_t sb_fairshare_level_value(long double usage_efctv, double shares_norm,
				  int levels);

/*
 * Left shift of the bucket of @level (0 = just below root) with @levels
 * buckets: (levels - level - 1) * (64 / levels) + 64 % levels.
 * Returns it, or -1 with errno EINVAL. O(1).
 */
int sb_fairshare_level_shift(int levels, int level);

/*
 * OR together @levels bucket values @values[0..levels-1] (level 0 first),
 * each shifted into place, into *@out. E.g. levels 4 and AAAA, 1234,
 * 7777, CCCC give 0xAAAA12347777CCCC. Returns 0, or -1 with errno EINVAL
 * (NULL pointers, levels out of range) or ERANGE (a value does not fit
 * its bucket); *@out is untouched on failure. O(levels).
 */
int sb_fairshare_level_compose(int levels, const uint64_t *values,
			       uint64_t *out);

/*
 * Check the results of the last LEVEL_BASED pass on @t: each raw value is
 * the parent's with only its own bucket added, users are ranked by raw
 * value with ties sharing the first rank, factors equal the scaled rank.
 * Returns 0, or -1 with errno EFAULT (inconsistent), EINVAL (t NULL or last
 * pass not LEVEL_BASED) or ENOMEM. O(n + u log u).
 */
int sb_fairshare_level_check(const sb_assoc_tree_t *t);

#endif /* SB_FAIRSHARE_LEVEL_H */
