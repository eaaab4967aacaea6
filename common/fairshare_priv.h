/*
 * fairshare_priv.h - association tree layout shared by assoc_tree.c and
 * the fair-share algorithms (not installed, not part of the API).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Associations live in parallel arrays indexed by id, in insertion order;
 * id 0 is root. A pass streams through only the arrays it needs, which is
 * what makes a 100k-user pass fit in a few milliseconds (one array of
 * structs of all fields would move ten times the memory).
 *
 * Because a parent must exist before its children are added, every parent
 * has a smaller id than its children: a forward scan visits parents first,
 * a backward scan children first. The algorithms rely on that instead of
 * recursion wherever the order does not matter.
 */
#ifndef SB_FAIRSHARE_PRIV_H
#define SB_FAIRSHARE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "assoc_tree.h"

struct sb_assoc_tree {
	int n;			/* associations, root included */
	int cap;		/* allocated entries of every array */
	int n_users;

	/* Structure, set when an association is added. */
	char **name;		/* account name, or user name for a user */
	int *parent;		/* direct parent, -1 for root */
	int *first_child;	/* direct children, insertion order */
	int *last_child;
	int *next_sibling;
	int *depth;		/* root 0 */
	uint32_t *shares;	/* SB_SHARES_PARENT for 'parent' */
	unsigned char *is_user;

	/* Derived layout (layout_ok), rebuilt after additions. */
	int *fs_parent;		/* nearest ancestor whose shares are not
				 * 'parent' (Slurm's fs_assoc_ptr) */
	int *fs_first;		/* fs children: fs_kids[fs_first ...] */
	int *fs_count;
	int *fs_kids;		/* fs children lists, grouped by fs parent */
	uint32_t *level_shares;	/* sum of shares among fs siblings */
	bool layout_ok;

	/* Usage as Slurm keeps it on each association (given), or for an
	 * account never given one the sum of its children's (sums_ok). */
	long double *usage;
	unsigned char *usage_given;
	int n_summed;		/* accounts and root not given a usage */
	bool sums_ok;

	/* Results of the last sb_fairshare_*_compute(). */
	double *shares_norm;
	bool level_norms_ok;	/* shares_norm holds the per-level ratios
				 * of the current layout (fair_tree and
				 * level_based share them; classic not) */
	long double *usage_efctv;
	long double *level_fs;
	double *fs_factor;
	uint64_t *fs_raw;
	uint64_t *fs_ranked;
	uint32_t *rank;
	int algorithm;		/* SB_FS_* of the last compute, 0 for none */
	int filled;		/* SB_FS_* that last wrote the results, even
				 * if the tree changed since (what is zero) */
	int levels;		/* LEVEL_BASED levels of the last compute */
	uint32_t dampening;	/* classic dampening of the last compute */

	/* LEVEL_BASED's scaled rank and factor of each rank 0..rank_users-1,
	 * a pure function of (rank, users) kept across passes. */
	uint64_t *rank_ranked;
	double *rank_factor;
	int rank_users;		/* users the table is for, -1 for none */

	/* Scratch memory of the passes, kept between passes so that a
	 * pass does not fault fresh pages in each time. */
	void *work;
	size_t work_size;

	/* Name index: open addressing over (scope, name) -> id. */
	int *hash;
	size_t hash_cap;
};

/*
 * Make the derived layout current (fs parents, fs children lists, level
 * shares) and sum the usage of the accounts never given one. Called by
 * each algorithm at the start of a pass; O(1) when neither changed.
 * Returns 0, or -1 with errno ENOMEM or ERANGE (a level's shares do not
 * fit 32 bits, where Slurm's own sum would wrap). O(n).
 */
int sb__assoc_tree_prepare(struct sb_assoc_tree *t);

/*
 * Make shares_norm the per-level ratios (sb__fs_norm_level()) of every
 * association, root 0. They only depend on the layout, so a pass after a
 * Fair Tree or LEVEL_BASED pass on the same layout finds them done. Call
 * after sb__assoc_tree_prepare(). O(n), O(1) when done.
 */
void sb__assoc_tree_level_norms(struct sb_assoc_tree *t);

/*
 * Scratch memory of at least @size bytes, valid until the next call or
 * the tree's destruction (max_align_t aligned). NULL with errno ENOMEM.
 */
void *sb__assoc_tree_work(struct sb_assoc_tree *t, size_t size);

/*
 * Slurm's per-level shares normalisation (Fair Tree, LEVEL_BASED;
 * _normalize_assoc_shares_fair_tree()) of association @id > 0: shares /
 * level shares as doubles, a 'parent' association showing its fs parent's
 * (0 when that is root). Root itself shows 0. Inline because the passes
 * fold it into their own sweep. O(1).
 */
static inline double sb__fs_norm_level(const struct sb_assoc_tree *t,
				       int id)
{
	int f = t->shares[id] == SB_SHARES_PARENT ? t->fs_parent[id] : id;

	if (f == SB_ASSOC_ROOT || !t->level_shares[f])
		return 0.0;
	return (double) t->shares[f] / (double) t->level_shares[f];
}

#endif /* SB_FAIRSHARE_PRIV_H */
