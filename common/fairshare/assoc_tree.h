/*
 * assoc_tree.h - the association tree that fair share is computed over.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A tree of Slurm associations: root, accounts, and user associations
 * (leaves). Each non-root association has raw shares (an integer, or
 * 'parent'). Every association carries the raw usage Slurm keeps on it:
 * slurmctld adds a job's usage to its association and every ancestor and
 * never takes it back, so an account's usage also holds what its deleted
 * users and sub-accounts used. Accounts (and root) whose usage is never
 * given get the sum of their children's instead. The fair-share
 * algorithms (fairshare_level.h, fairshare_tree.h, fairshare_classic.h)
 * compute into the tree; the accessors below read the results back.
 *
 * Slurm semantics reproduced here (assoc_mgr.c, 22.05):
 *  - the "fs parent" of an association is its nearest ancestor whose shares
 *    are not 'parent' (root counts as such). Children of a 'parent' account
 *    are re-attached to that ancestor, for shares and for traversal; the
 *    'parent' account itself stays there with no fs children;
 *  - level shares of an association = sum of the raw shares of all fs
 *    children of its fs parent, a 'parent' sibling adding its own (empty)
 *    fs children, i.e. nothing;
 *  - fs children keep insertion order (Slurm keeps list order), which is
 *    what breaks ties deterministically.
 *
 * Operations (n = associations, d = depth, L = name length):
 *
 *   lifecycle  sb_assoc_tree_create       O(1)    root only
 *              sb_assoc_tree_destroy      O(n)    NULL is fine
 *   build      sb_assoc_tree_add_account  O(L)    amortised
 *              sb_assoc_tree_add_user     O(L)    amortised
 *              sb_assoc_tree_set_usage    O(1)    any association
 *   lookup     sb_assoc_tree_find_account O(L)    expected
 *              sb_assoc_tree_find_user    O(L)    expected
 *   read       sb_assoc_tree_count / _users / _get / _first_child /
 *              _next_sibling / _fs_parent                O(1)
 *   derived    sb_assoc_tree_rollup       O(n)    fs layout, sums of the
 *                                                 accounts not given
 *   invariant  sb_assoc_tree_check        O(n)
 *
 * Associations are named by an int id: 0 is root, ids grow by one per
 * addition (insertion order). Functions that can fail return -1 (or NULL)
 * and set errno; a failed call changes nothing. Not thread-safe.
 */
#ifndef SB_ASSOC_TREE_H
#define SB_ASSOC_TREE_H

#include <stdbool.h>
#include <stdint.h>

/* Opaque: the layout is private to common/. */
typedef struct sb_assoc_tree sb_assoc_tree_t;

/* Raw shares value meaning 'parent' (Slurm's SLURMDB_FS_USE_PARENT). */
#define SB_SHARES_PARENT UINT32_C(0x7FFFFFFF)
/* Largest integer raw shares accepted. */
#define SB_SHARES_MAX (SB_SHARES_PARENT - 1)
/* Id of root. */
#define SB_ASSOC_ROOT 0
/* Longest account or user name accepted, in bytes. */
#define SB_ASSOC_NAME_MAX 255

/* Which algorithm filled the result fields of sb_assoc_info_t. */
enum {
	SB_FS_NONE = 0,
	SB_FS_LEVEL_BASED = 1,
	SB_FS_FAIR_TREE = 2,
	SB_FS_CLASSIC = 3,
};

/*
 * One association as read back. Pointers stay valid until the tree is
 * destroyed. Result fields hold the last computation's values (zero
 * before any); which of them are meaningful depends on the algorithm:
 *
 *   field        level_based        fair_tree            classic
 *   shares_norm  S / level shares   S / level shares     product up tree
 *   usage_efctv  U / fs parent U    U / fs parent U      Slurm's UE
 *   level_fs     own value / max    S / U (inf, 0 ...)   -
 *   fs_factor    rank / users       rank / users         2^(-UE/S/damp)
 *   fs_raw       64-bit OR value    -                    -
 *   rank         users only (ties share a rank)          -
 */
typedef struct {
	int id;
	int parent;			/* -1 for root */
	int fs_parent;			/* -1 for root */
	bool is_user;
	const char *name;		/* account, or user name */
	const char *account;		/* account (a user's is its parent) */
	uint32_t shares;		/* SB_SHARES_PARENT for 'parent' */
	uint32_t level_shares;
	int depth;			/* root 0 */
	long double usage_raw;		/* as given, or the children's sum */
	bool usage_given;		/* usage_raw came from the caller */
	double shares_norm;
	long double usage_efctv;
	long double level_fs;
	double fs_factor;
	uint64_t fs_raw;
	uint64_t fs_ranked;
	uint32_t rank;
} sb_assoc_info_t;

/*
 * A new tree holding only root (account "root", no shares, no usage).
 * Returns NULL with errno ENOMEM. O(1).
 */
sb_assoc_tree_t *sb_assoc_tree_create(void);

/* Release @t. NULL is accepted and ignored. O(n). */
void sb_assoc_tree_destroy(sb_assoc_tree_t *t);

/*
 * Add account @name under account @parent (an account id, root allowed)
 * with raw @shares (0..SB_SHARES_MAX, or SB_SHARES_PARENT). Its usage is
 * its children's sum until sb_assoc_tree_set_usage() gives one.
 * Returns the new id, or -1 with errno:
 *   EINVAL  t or name NULL, name empty or longer than SB_ASSOC_NAME_MAX,
 *           parent not an account, shares out of range;
 *   EEXIST  an account of that name exists (account names are unique);
 *   ERANGE  the tree already has INT_MAX - 1 associations;
 *   ENOMEM.
 * Amortised O(L).
 */
int sb_assoc_tree_add_account(sb_assoc_tree_t *t, int parent,
			      const char *name, uint32_t shares);

/*
 * Add a user association for user @name in account @account (an account
 * id; root allowed, as Slurm allows users directly under root), with raw
 * @shares as for accounts and raw @usage (finite, >= 0).
 * Returns the new id, or -1 with errno:
 *   EINVAL  as for accounts, or usage negative / not finite;
 *   EEXIST  this user already has an association in that account;
 *   ERANGE, ENOMEM as for accounts.
 * Amortised O(L).
 */
int sb_assoc_tree_add_user(sb_assoc_tree_t *t, int account,
			   const char *name, uint32_t shares,
			   long double usage);

/*
 * Set the raw usage of association @id (finite, >= 0): a user's, or the
 * usage Slurm keeps on an account or root (deleted children's included),
 * which is then used as is instead of the children's sum.
 * Returns 0, or -1 with errno EINVAL (bad id, bad usage). O(1).
 */
int sb_assoc_tree_set_usage(sb_assoc_tree_t *t, int id, long double usage);

/*
 * Id of account @name, or -1 with errno ENOENT (EINVAL for NULL
 * arguments). "root" finds root. Expected O(L).
 */
int sb_assoc_tree_find_account(const sb_assoc_tree_t *t, const char *name);

/*
 * Id of the association of user @name in account @account, or -1 with
 * errno ENOENT (EINVAL for NULL arguments or a bad account). Expected O(L).
 */
int sb_assoc_tree_find_user(const sb_assoc_tree_t *t, int account,
			    const char *name);

/* Number of associations, root included (0 for NULL). O(1). */
int sb_assoc_tree_count(const sb_assoc_tree_t *t);

/* Number of user associations (0 for NULL). O(1). */
int sb_assoc_tree_users(const sb_assoc_tree_t *t);

/*
 * Fill @out with association @id. Returns 0, or -1 with errno EINVAL
 * (NULL argument) or ENOENT (no such id). O(1).
 */
int sb_assoc_tree_get(const sb_assoc_tree_t *t, int id, sb_assoc_info_t *out);

/*
 * The result fields of one association alone (what a Slurm plugin writes
 * back after a pass), without the rest of sb_assoc_info_t: reads four
 * arrays instead of seventeen, which is what a write-back over 100,000
 * associations pays for.
 */
typedef struct {
	bool is_user;
	double shares_norm;
	long double usage_efctv;
	long double level_fs;
	double fs_factor;
} sb_assoc_result_t;

/*
 * Fill @out with association @id's results (the values of
 * sb_assoc_tree_get()). Returns 0, or -1 with errno EINVAL (NULL
 * argument) or ENOENT (no such id). O(1).
 */
int sb_assoc_tree_get_result(const sb_assoc_tree_t *t, int id,
			     sb_assoc_result_t *out);

/*
 * Direct children in insertion order: the first child of @id, and the
 * sibling after @id. Return -1 with errno ENOENT at the end of the list
 * (EINVAL for a bad tree or id). O(1).
 */
int sb_assoc_tree_first_child(const sb_assoc_tree_t *t, int id);
int sb_assoc_tree_next_sibling(const sb_assoc_tree_t *t, int id);

/*
 * Bring the fs layout up to date (fs parents, fs children, level shares)
 * and give each account and root whose usage was not set the sum of its
 * children's (in long double; a child account with a given usage counts
 * with that). A tree whose every usage was given is not summed at all.
 * The algorithms call this themselves; call it directly to read sums
 * without computing fair share. Returns 0, or -1 with errno EINVAL (t
 * NULL), ENOMEM, or ERANGE (the shares among one level's siblings add up
 * beyond 32 bits: Slurm would silently wrap, we refuse). O(n).
 */
int sb_assoc_tree_rollup(sb_assoc_tree_t *t);

/*
 * Which algorithm last computed into @t (SB_FS_*), SB_FS_NONE if none or
 * the tree changed since. O(1).
 */
int sb_assoc_tree_algorithm(const sb_assoc_tree_t *t);

/*
 * Invariant checker: parent links, ids, child lists, name index, user
 * leaves, shares and usage ranges, user count; after a roll-up also the
 * sums of the accounts not given, fs parents, fs children and level
 * shares. Returns 0, or -1 with errno
 * EFAULT (broken) or EINVAL (t NULL). O(n).
 */
int sb_assoc_tree_check(const sb_assoc_tree_t *t);

#endif /* SB_ASSOC_TREE_H */
