/*
 * bucket_assoc.c - the one place where Slurm's association tree
 * (assoc_mgr) is converted into common/'s sb_assoc_tree_t and the results
 * are written back into the associations.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The tree is built (O(n log n), n associations) from the real parent
 * links (usage->parent_assoc_ptr) and kept while the associations do not
 * change; every pass refreshes each association's usage from the
 * usage_raw slurmctld keeps on it (an account's includes what its deleted
 * users and sub-accounts used, as multifactor counts it), so nothing is
 * summed here. common/ re-attaches the children of FairShare=parent
 * accounts itself, as assoc_mgr does.
 *
 * Memory, not arithmetic, is what a pass costs at 100,000 associations:
 * the records are scattered over slurmctld's heap, and each one read is a
 * cache miss or several. So a pass walks assoc_mgr's list once for its
 * item pointers only (list nodes, no record), then reads and writes the
 * records through g_recs, an array in list order, prefetching a few
 * records ahead so the misses overlap instead of queueing; the record
 * fields it compares to the layout's (id, shares, usage and parent
 * pointers) sit on the lines the pass reads anyway. The usage decay
 * (bucket_assoc_scale_usage) reaches the records the same way, after the
 * same one walk (bucket_assoc_pass_begin).
 *
 * Siblings are added users first, then accounts, each sorted by name
 * (partition second), depth first: the order sshare prints them in. Tied
 * accounts are ranked in that order, so 'sbucket fairshare' run on
 * sshare's output reproduces the live values exactly.
 *
 * What is written back, per algorithm (what sshare prints):
 *   NormShares   usage->shares_norm   common's S (classic: product)
 *   NormUsage    usage->usage_norm    usage / root usage (Slurm's)
 *   EffectvUsage usage->usage_efctv   U = usage / fs parent's (classic: UE)
 *   FairShare    usage->fs_factor     users: rank / users (classic: every
 *                                     association, 2^(-UE/S/damp))
 *   LevelFS      usage->level_fs      fair_tree: S / U; level_based: the
 *                                     association's own bucket value over
 *                                     the bucket maximum, in [0, 1] (0 for
 *                                     0 shares, 'parent' accounts and below
 *                                     the last level; common/ computes
 *                                     it); classic: 0
 *
 * Root keeps what multifactor leaves there: NormShares from assoc_mgr,
 * NormUsage and FairShare unset, EffectvUsage 1, LevelFS NO_VAL (blank).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sb_slurm.h"

#include "assoc_tree.h"
#include "priority_bucket.h"
#include "fairshare.h"

typedef struct {
	slurmdb_assoc_rec_t *assoc;	/* the list's item, in list order */
	int parent;		/* index; -1 root, -2 orphan or unusable */
	int first_child;
	int next_sibling;
	int tree_id;		/* -1: not in the tree */
	bool is_user;
	/*
	 * What the layout was built from: compared with the record before
	 * the record is trusted. usage is dereferenced only once
	 * assoc->usage is seen to be it still.
	 */
	uint32_t id;
	uint32_t shares_raw;
	slurmdb_assoc_usage_t *usage;
	const void *parent_ptr;
} _rec_t;

/* How many records ahead a walk prefetches: enough misses in flight to
 * fill the memory pipeline, few enough to stay in L1. */
#define PREFETCH_AHEAD 8

/*
 * The tree of the last pass, kept while the association layout does not
 * change: a pass then only refreshes the users' usage (O(n)) instead of
 * rebuilding and sorting (O(n log n) and n allocations). g_recs holds
 * every item of assoc_mgr's list, in its order. Only the decay thread
 * touches these, with the assoc write lock held.
 */
static sb_assoc_tree_t *g_tree = NULL;
static _rec_t *g_recs = NULL;
static int g_n = 0, g_root = -1, g_skipped = 0, g_orphans = 0;

/*
 * The answer of _walk_list() for the current pass (bucket_assoc_pass_begin
 * to _end: one assoc write lock hold, so the list cannot change), or -1
 * outside a pass. At 100,000 associations the walk is a cache miss per
 * list node, so a pass walks once.
 */
static int g_pass_same = -1;

typedef struct {
	const void *ptr;
	int idx;
} _ptr_idx_t;

typedef struct {
	int parent;
	int is_user;
	const char *name;
	const char *part;
	int idx;
} _key_t;

static int _cmp_ptr(const void *a, const void *b)
{
	const _ptr_idx_t *x = a, *y = b;

	return (x->ptr < y->ptr) ? -1 : (x->ptr > y->ptr);
}

/* Parent, then users before accounts, then name, then partition. */
static int _cmp_key(const void *a, const void *b)
{
	const _key_t *x = a, *y = b;
	int c;

	if (x->parent != y->parent)
		return (x->parent < y->parent) ? -1 : 1;
	if (x->is_user != y->is_user)
		return x->is_user ? -1 : 1;
	if ((c = xstrcmp(x->name, y->name)))
		return c;
	if ((c = xstrcmp(x->part, y->part)))
		return c;
	return (x->idx < y->idx) ? -1 : (x->idx > y->idx);
}

static int _find(const _ptr_idx_t *ptrs, int n, const void *p)
{
	_ptr_idx_t key = { .ptr = p }, *hit;

	if (!p)
		return -1;
	hit = bsearch(&key, ptrs, n, sizeof(*ptrs), _cmp_ptr);
	return hit ? hit->idx : -1;
}

static uint32_t _shares(const slurmdb_assoc_rec_t *assoc)
{
	if (assoc->shares_raw == SLURMDB_FS_USE_PARENT)
		return SB_SHARES_PARENT;
	if (assoc->shares_raw > SB_SHARES_MAX)
		return SB_SHARES_MAX;
	return assoc->shares_raw;
}

static long double _usage(const slurmdb_assoc_rec_t *assoc)
{
	long double u = assoc->usage->usage_raw;

	if (!isfinite(u) || (u < 0))
		return 0;
	return u;
}

/* Add the children of recs[x] (already in the tree) depth first. */
static void _add_children(sb_assoc_tree_t *t, _rec_t *recs, int x,
			  int *skipped)
{
	int c;

	for (c = recs[x].first_child; c >= 0; c = recs[c].next_sibling) {
		slurmdb_assoc_rec_t *a = recs[c].assoc;
		int id;

		if (a->user) {
			id = sb_assoc_tree_add_user(t, recs[x].tree_id,
						    a->user, _shares(a),
						    _usage(a));
			if ((id < 0) && (errno == EEXIST) && a->partition) {
				/* one association per partition */
				char *name = xstrdup_printf("%s@%s", a->user,
							    a->partition);
				id = sb_assoc_tree_add_user(
					t, recs[x].tree_id, name, _shares(a),
					_usage(a));
				xfree(name);
			}
		} else {
			id = sb_assoc_tree_add_account(t, recs[x].tree_id,
						       a->acct, _shares(a));
		}
		if (id < 0) {
			(*skipped)++;
			log_flag(PRIO, "association %u (%s/%s) left out of the fair-share tree: %m",
				 a->id, a->acct, a->user ? a->user : "");
			continue;
		}
		recs[c].tree_id = id;
		if (!a->user)
			_add_children(t, recs, c, skipped);
	}
}

/* The lines of @u a pass reads or writes, on their way. */
static void _prefetch_usage(const slurmdb_assoc_usage_t *u, int write)
{
	if (!u)
		return;
	if (write) {
		__builtin_prefetch(&u->fs_factor, 1);
		__builtin_prefetch(&u->shares_norm, 1);
		__builtin_prefetch(&u->usage_norm, 1);
		__builtin_prefetch(&u->level_fs, 1);
	} else {
		__builtin_prefetch(&u->parent_assoc_ptr);
		__builtin_prefetch(&u->usage_raw);
	}
}

static void _write_back(const sb_assoc_tree_t *t, _rec_t *recs, int n,
			int root, const prio_settings_t *conf)
{
	long double root_raw = _usage(recs[root].assoc);
	int i, alg = conf->params.algorithm;

	for (i = 0; i < n; i++) {
		slurmdb_assoc_usage_t *u = recs[i].usage;
		sb_assoc_result_t res;

		if (i + PREFETCH_AHEAD < n)
			_prefetch_usage(recs[i + PREFETCH_AHEAD].usage, 1);
		if ((recs[i].tree_id < 0) ||
		    sb_assoc_tree_get_result(t, recs[i].tree_id, &res))
			continue;
		if (i == root) {
			/* multifactor: usage_efctv 1 at start, and Fair
			 * Tree's NO_VAL Level FS */
			u->usage_efctv = 1.0;
			if (alg != SB_FS_CLASSIC)
				u->level_fs = (long double) NO_VAL;
			continue;
		}
		if (root_raw > 0) {
			u->usage_norm = _usage(recs[i].assoc) / root_raw;
			if (u->usage_norm > 1)
				u->usage_norm = 1;
		} else {
			u->usage_norm = 0;
		}
		u->shares_norm = res.shares_norm;
		u->usage_efctv = res.usage_efctv;
		switch (alg) {
		case SB_FS_LEVEL_BASED:
		case SB_FS_FAIR_TREE:
			u->level_fs = res.level_fs;
			u->fs_factor = res.is_user ? res.fs_factor : 0;
			break;
		default:
			u->level_fs = 0;
			u->fs_factor = res.fs_factor;
			break;
		}
	}
}

static void _free_layout(void)
{
	if (g_pass_same >= 0)
		g_pass_same = 0;
	sb_assoc_tree_destroy(g_tree);
	g_tree = NULL;
	xfree(g_recs);
	g_n = 0;
	g_root = -1;
}

static bool _usable(slurmdb_assoc_rec_t *a)
{
	return a->usage && (a->user || a->acct);
}

static int _same_item(void *x, void *arg)
{
	int *i = arg;

	if ((*i >= g_n) || (g_recs[*i].assoc != x))
		return -1;
	(*i)++;
	return 0;
}

/*
 * Does assoc_mgr's list hold the items g_recs was built from, in the same
 * order? Only the list's nodes are read, never a record: a record that
 * was freed is never dereferenced. O(n).
 */
static bool _walk_list(void)
{
	int i = 0;

	if (!g_tree || !g_recs ||
	    (list_count(assoc_mgr_assoc_list) != g_n) ||
	    (g_recs[g_root].assoc != assoc_mgr_root_assoc))
		return false;
	return (list_for_each_ro(assoc_mgr_assoc_list, _same_item, &i) >= 0) &&
		(i == g_n);
}

static bool _same_list(void)
{
	if (g_pass_same >= 0)
		return g_pass_same;
	return _walk_list();
}

extern void bucket_assoc_pass_begin(void)
{
	g_pass_same = _walk_list();
}

extern void bucket_assoc_pass_end(void)
{
	g_pass_same = -1;
}

/* Build g_tree and g_recs from assoc_mgr. */
static int _build_layout(void)
{
	_rec_t *recs = NULL;
	_ptr_idx_t *ptrs = NULL;
	_key_t *keys = NULL;
	sb_assoc_tree_t *t = NULL;
	slurmdb_assoc_rec_t *a;
	list_itr_t *itr;
	int i, n = 0, np = 0, nkeys = 0, root = -1, skipped = 0, orphans = 0;

	_free_layout();
	recs = xcalloc(list_count(assoc_mgr_assoc_list) + 1, sizeof(*recs));
	itr = list_iterator_create(assoc_mgr_assoc_list);
	while ((a = list_next(itr))) {
		recs[n].assoc = a;
		recs[n].parent = -2;
		recs[n].first_child = recs[n].next_sibling = -1;
		recs[n].tree_id = -1;
		recs[n].is_user = (a->user != NULL);
		recs[n].id = a->id;
		recs[n].shares_raw = a->shares_raw;
		recs[n].usage = a->usage;
		recs[n].parent_ptr = a->usage ?
			a->usage->parent_assoc_ptr : NULL;
		if ((a == assoc_mgr_root_assoc) && _usable(a))
			root = n;
		n++;
	}
	list_iterator_destroy(itr);
	if (root < 0) {
		error(BUCKET_PFX "the root association is not in the association list; fair share not computed");
		goto fail;
	}

	/* parents: usable records only */
	ptrs = xcalloc(n, sizeof(*ptrs));
	for (i = 0; i < n; i++) {
		if (!_usable(recs[i].assoc))
			continue;
		ptrs[np].ptr = recs[i].assoc;
		ptrs[np++].idx = i;
	}
	qsort(ptrs, np, sizeof(*ptrs), _cmp_ptr);

	keys = xcalloc(n, sizeof(*keys));
	for (i = 0; i < n; i++) {
		a = recs[i].assoc;
		if (i == root) {
			recs[i].parent = -1;
			continue;
		}
		if (!_usable(a))
			continue;
		recs[i].parent = _find(ptrs, np, a->usage->parent_assoc_ptr);
		if ((recs[i].parent < 0) || recs[recs[i].parent].is_user) {
			recs[i].parent = -2;
			orphans++;
			continue;
		}
		keys[nkeys].parent = recs[i].parent;
		keys[nkeys].is_user = recs[i].is_user;
		keys[nkeys].name = a->user ? a->user : a->acct;
		keys[nkeys].part = a->partition;
		keys[nkeys].idx = i;
		nkeys++;
	}
	qsort(keys, nkeys, sizeof(*keys), _cmp_key);
	/* prepend in reverse, so each child list ends up sorted */
	for (i = nkeys - 1; i >= 0; i--) {
		int c = keys[i].idx, p = keys[i].parent;

		recs[c].next_sibling = recs[p].first_child;
		recs[p].first_child = c;
	}

	if (!(t = sb_assoc_tree_create())) {
		error(BUCKET_PFX "cannot create the fair-share tree: %m");
		goto fail;
	}
	recs[root].tree_id = SB_ASSOC_ROOT;
	_add_children(t, recs, root, &skipped);

	g_tree = t;
	g_recs = recs;
	g_n = n;
	g_root = root;
	g_skipped = skipped;
	g_orphans = orphans;
	if (g_pass_same >= 0)
		g_pass_same = 1;
	xfree(keys);
	xfree(ptrs);
	return SLURM_SUCCESS;
fail:
	sb_assoc_tree_destroy(t);
	xfree(keys);
	xfree(ptrs);
	xfree(recs);
	return SLURM_ERROR;
}

/*
 * Every association's usage, as slurmctld keeps it on each, into g_tree;
 * on the way, every record is compared with what the layout was built
 * from. Returns 0, 1 when a record changed (the layout must be rebuilt),
 * or -1 on error (logged).
 */
static int _refresh_usage(void)
{
	int i;

	for (i = 0; i < g_n; i++) {
		_rec_t *r = &g_recs[i];
		slurmdb_assoc_rec_t *a = r->assoc;

		if (i + PREFETCH_AHEAD < g_n) {
			_rec_t *ahead = &g_recs[i + PREFETCH_AHEAD];

			__builtin_prefetch(&ahead->assoc->id);
			__builtin_prefetch(&ahead->assoc->usage);
			_prefetch_usage(ahead->usage, 0);
		}
		if ((a->id != r->id) || (a->shares_raw != r->shares_raw) ||
		    (a->usage != r->usage))
			return 1;
		if (!r->usage)
			continue;
		if (r->usage->parent_assoc_ptr != r->parent_ptr)
			return 1;
		if (r->tree_id < 0)
			continue;
		if (sb_assoc_tree_set_usage(g_tree, r->tree_id,
					    _usage(a)) < 0) {
			error(BUCKET_PFX "cannot set the usage of association %u: %m",
			      r->id);
			return -1;
		}
	}
	return 0;
}

extern int bucket_assoc_compute(const prio_settings_t *conf)
{
	const char *alg_name;
	bool rebuilt = false;
	int crc = -1, rc;
	DEF_TIMERS;

	if (!conf || !assoc_mgr_assoc_list || !assoc_mgr_root_assoc ||
	    !assoc_mgr_root_assoc->usage)
		return SLURM_ERROR;
	START_TIMER;

	rc = _same_list() ? _refresh_usage() : 1;
	if (rc == 1) {
		if (_build_layout() != SLURM_SUCCESS)
			return SLURM_ERROR;
		rebuilt = true;
		rc = _refresh_usage();
	}
	if (rc != 0) {
		if (rc > 0)
			error(BUCKET_PFX "an association changed while the fair-share tree was built from it");
		return SLURM_ERROR;
	}

	crc = sb_fairshare_compute(g_tree, conf->params.algorithm,
				   conf->params.levels, conf->damp);
	alg_name = sb_priority_params_algorithm_name(conf->params.algorithm);
	if (crc < 0) {
		error(BUCKET_PFX "%s fair-share pass failed: %m; keeping the previous values",
		      alg_name ? alg_name : "?");
		return SLURM_ERROR;
	}
	_write_back(g_tree, g_recs, g_n, g_root, conf);
	END_TIMER;
	log_flag(PRIO, "%s fair-share pass over %d associations (%d users, %d left out, %d orphans%s) took %ld usec",
		 alg_name ? alg_name : "?", sb_assoc_tree_count(g_tree),
		 sb_assoc_tree_users(g_tree), g_skipped, g_orphans,
		 rebuilt ? ", tree rebuilt" : "", SB_DELTA_TIMER);
	return SLURM_SUCCESS;
}

/*
 * usage *= d (d = 0 zeroes it) on one association usage record; QOS
 * records have the same fields in another type (SCALE_USAGE).
 */
static void _scale_one(slurmdb_assoc_usage_t *u, double d)
{
	SCALE_USAGE(u, d);
}

/* An association's usage, and what its deleted children left, by @d. */
static void _scale_assoc(slurmdb_assoc_rec_t *a, double d)
{
	if (!a->usage)
		return;
	_scale_one(a->usage, d);
	if (a->leaf_usage && (a->leaf_usage != a->usage))
		_scale_one(a->leaf_usage, d);
}

extern void bucket_assoc_scale_usage(double d)
{
	int i;

	if (!assoc_mgr_assoc_list)
		return;
	if (!_same_list()) {
		/* a list the layout does not know yet: plain walk */
		list_itr_t *itr = list_iterator_create(assoc_mgr_assoc_list);
		slurmdb_assoc_rec_t *a;

		while ((a = list_next(itr)))
			_scale_assoc(a, d);
		list_iterator_destroy(itr);
		return;
	}
	/*
	 * The same records, through g_recs, in three prefetch stages: the
	 * record's pointers, then its usage, then the usage's TRES array,
	 * each loaded only once the stage before brought its line in. Only
	 * the record's own usage pointers are followed: g_recs' copies may
	 * be stale.
	 */
	for (i = 0; i < g_n; i++) {
		slurmdb_assoc_rec_t *a;
		slurmdb_assoc_usage_t *u;

		if (i + 3 * PREFETCH_AHEAD < g_n) {
			a = g_recs[i + 3 * PREFETCH_AHEAD].assoc;
			__builtin_prefetch(&a->usage);
			__builtin_prefetch(&a->leaf_usage);
		}
		if ((i + 2 * PREFETCH_AHEAD < g_n) &&
		    (u = g_recs[i + 2 * PREFETCH_AHEAD].assoc->usage)) {
			__builtin_prefetch(&u->grp_used_wall, 1);
			__builtin_prefetch(&u->usage_raw, 1);
		}
		if ((i + PREFETCH_AHEAD < g_n) &&
		    (u = g_recs[i + PREFETCH_AHEAD].assoc->usage) &&
		    u->usage_tres_raw)
			__builtin_prefetch(u->usage_tres_raw, 1);

		_scale_assoc(g_recs[i].assoc, d);
	}
}

extern void bucket_assoc_set_usage(slurmdb_assoc_rec_t *assoc)
{
	slurmdb_assoc_rec_t *root = assoc_mgr_root_assoc, *fs;
	slurmdb_assoc_usage_t *u = assoc->usage;
	long double root_raw;

	if (!u || !root || !root->usage)
		return;
	root_raw = _usage(root);
	u->usage_norm = (root_raw > 0) ? _usage(assoc) / root_raw : 0;
	if (u->usage_norm > 1)
		u->usage_norm = 1;
	if (assoc == root) {
		u->usage_efctv = 1.0;
		return;
	}
	fs = u->fs_assoc_ptr;
	if (prio_settings.params.algorithm == SB_FS_CLASSIC) {
		/* Slurm's effective usage, one level at a time */
		if (!fs || (fs == root) || !fs->usage)
			u->usage_efctv = u->usage_norm;
		else if (assoc->shares_raw == SLURMDB_FS_USE_PARENT)
			u->usage_efctv = fs->usage->usage_efctv;
		else if (u->level_shares && !fuzzy_equal(
				 fs->usage->usage_efctv, NO_VAL))
			u->usage_efctv = u->usage_norm +
				(fs->usage->usage_efctv - u->usage_norm) *
				((long double) assoc->shares_raw /
				 (long double) u->level_shares);
		else
			u->usage_efctv = u->usage_norm;
	} else if (fs && fs->usage && (_usage(fs) > 0)) {
		u->usage_efctv = _usage(assoc) / _usage(fs);
	} else {
		u->usage_efctv = 0;
	}
}

extern void bucket_assoc_fini(void)
{
	_free_layout();
}
