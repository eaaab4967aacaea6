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
 * item pointers only (list nodes, no record), then reaches the records
 * through g_recs, an array in list order, prefetching a few records
 * ahead so the misses overlap instead of queueing. And it touches each
 * record once, not three times: the usage decay
 * (bucket_assoc_scale_usage), which must write every association's
 * usage_raw anyway, also compares the record with the layout and copies
 * the decayed usage into g_tree, the working set the algorithm reads;
 * running jobs' usage, added after it in the same pass, is copied in as
 * it is added (bucket_assoc_usage_added). The fair-share pass then reads
 * no record at all, and writes back only the values that changed since
 * it last wrote them (g_out keeps them): an association whose usage did
 * not move (most of a large tree, at 0) is not touched. Only a pass
 * without a decay (PriorityDecayHalfLife=0, the first pass, or a layout
 * the decay found changed) reads every record's usage itself.
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
	long double raw;	/* usage_raw as last copied into g_tree */
} _rec_t;

/*
 * What the write-back last wrote into a record (g_out, parallel to
 * g_recs): a value equal to it is not written again, so the record's
 * lines are not touched.
 */
typedef struct {
	double shares_norm;
	double fs_factor;
	long double usage_efctv;
	long double usage_norm;
	long double level_fs;
} _out_t;

/*
 * Every this many seconds the write-back writes every value, changed or
 * not. assoc_mgr rewrites every shares_norm itself
 * (assoc_mgr_normalize_assoc_shares) after an update that moves parents
 * or shares, and an update that changes nothing the layout is compared
 * with (a Fairshare set to the value it had) does it too, unseen: its
 * arithmetic is the one we reproduce, but what sshare prints must not
 * depend on that for longer than this.
 */
#define FULL_WRITE_PERIOD 60

typedef struct {
	const void *ptr;
	int idx;
} _ptr_idx_t;

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
/* The usable records by address (job usage finds its records there). */
static _ptr_idx_t *g_ptrs = NULL;
static int g_np = 0;
/* Last written values; g_out_ok false until a write-back wrote them all. */
static _out_t *g_out = NULL;
static bool g_out_ok = false;
static time_t g_full_at = 0;
/* Changed records of one write-back and their fields (g_n entries). */
typedef struct {
	int idx;
	unsigned mask;
} _dirty_t;
static _dirty_t *g_dirty = NULL;

/*
 * The answer of _walk_list() for the current pass (bucket_assoc_pass_begin
 * to _end: one assoc write lock hold, so the list cannot change), or -1
 * outside a pass. At 100,000 associations the walk is a cache miss per
 * list node, so a pass walks once.
 */
static int g_pass_same = -1;

/*
 * Within a pass: g_tree holds every association's usage as it is now,
 * copied by the decay and the job usage (so the fair-share pass need not
 * read the records); false outside a pass and whenever a copy was missed.
 */
static bool g_fresh = false;

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

/* Bit for bit: a NaN is written again, a -0 over a 0 is not skipped. */
#define SAME(x, y) (((x) == (y)) && (signbit(x) == signbit(y)))

/*
 * The same as far as anything outside this pass can see: usage_efctv,
 * usage_norm and level_fs are long doubles in the record, but sshare gets
 * them as doubles (packdouble in the shares response) and nothing in
 * slurmctld compares them closer than that. The decay multiplies a usage
 * and the usage it is divided by (the root's, the parent's) by the same
 * factor, so their quotients, unchanged in exact arithmetic, move in the
 * last bits of a long double on every pass: without this, most records
 * would be rewritten on every pass for a change no one can see. The record
 * keeps the long double last written, whose double is the double of the
 * value computed now: what sshare prints is this pass's, bit for bit.
 */
#define SAME_SHOWN(x, y) SAME((double) (x), (double) (y))

/* The fields of one record a write-back writes (_dirty_t.mask). */
enum {
	W_SHARES_NORM = 1 << 0,
	W_FS_FACTOR = 1 << 1,
	W_USAGE_EFCTV = 1 << 2,
	W_USAGE_NORM = 1 << 3,
	W_LEVEL_FS = 1 << 4,
	W_ALL = (1 << 5) - 1,
};

/*
 * The values the write-back gives record @i into @o, and which fields it
 * writes (root: usage_efctv, and level_fs but under classic, as
 * multifactor leaves it). Reads g_tree's result and g_recs only.
 */
static unsigned _result(const sb_assoc_result_t *res, int i,
			long double root_raw, int alg, _out_t *o)
{
	if (i == g_root) {
		/* multifactor: usage_efctv 1 at start, and Fair Tree's
		 * NO_VAL Level FS */
		o->usage_efctv = 1.0;
		if (alg == SB_FS_CLASSIC)
			return W_USAGE_EFCTV;
		o->level_fs = (long double) NO_VAL;
		return W_USAGE_EFCTV | W_LEVEL_FS;
	}
	if (root_raw > 0) {
		o->usage_norm = g_recs[i].raw / root_raw;
		if (o->usage_norm > 1)
			o->usage_norm = 1;
	} else {
		o->usage_norm = 0;
	}
	o->shares_norm = res->shares_norm;
	o->usage_efctv = res->usage_efctv;
	switch (alg) {
	case SB_FS_LEVEL_BASED:
	case SB_FS_FAIR_TREE:
		o->level_fs = res->level_fs;
		o->fs_factor = res->is_user ? res->fs_factor : 0;
		break;
	default:
		o->level_fs = 0;
		o->fs_factor = res->fs_factor;
		break;
	}
	return W_ALL;
}

/*
 * Write g_tree's results into the records: every value when @all, else
 * only the fields that differ from what was last written (g_out). Two
 * sweeps: the first computes and compares (g_tree, g_recs and g_out, in
 * order; no record), the second writes the changed fields of the
 * records that have any, prefetching ahead along that list. Returns the
 * number of records written.
 */
static int _write_back(const sb_assoc_tree_t *t, const prio_settings_t *conf,
		       bool all)
{
	long double root_raw = g_recs[g_root].raw;
	int i, k, nd = 0, alg = conf->params.algorithm;

	for (i = 0; i < g_n; i++) {
		sb_assoc_result_t res;
		_out_t *old = &g_out[i], o = *old;
		unsigned mask = 0, fields;

		if ((g_recs[i].tree_id < 0) || !g_recs[i].usage ||
		    sb_assoc_tree_get_result(t, g_recs[i].tree_id, &res))
			continue;
		fields = _result(&res, i, root_raw, alg, &o);
		if (all) {
			mask = W_ALL;
		} else {
			if (!SAME(o.shares_norm, old->shares_norm))
				mask |= W_SHARES_NORM;
			if (!SAME(o.fs_factor, old->fs_factor))
				mask |= W_FS_FACTOR;
			if (!SAME_SHOWN(o.usage_efctv, old->usage_efctv))
				mask |= W_USAGE_EFCTV;
			if (!SAME_SHOWN(o.usage_norm, old->usage_norm))
				mask |= W_USAGE_NORM;
			if (!SAME_SHOWN(o.level_fs, old->level_fs))
				mask |= W_LEVEL_FS;
		}
		mask &= fields;
		if (!mask)
			continue;
		*old = o;
		g_dirty[nd].idx = i;
		g_dirty[nd++].mask = mask;
	}

	for (k = 0; k < nd; k++) {
		const _out_t *o = &g_out[g_dirty[k].idx];
		slurmdb_assoc_usage_t *u = g_recs[g_dirty[k].idx].usage;
		unsigned mask = g_dirty[k].mask;

		if (k + PREFETCH_AHEAD < nd)
			_prefetch_usage(
				g_recs[g_dirty[k + PREFETCH_AHEAD].idx].usage, 1);
		if (mask & W_SHARES_NORM)
			u->shares_norm = o->shares_norm;
		if (mask & W_FS_FACTOR)
			u->fs_factor = o->fs_factor;
		if (mask & W_USAGE_EFCTV)
			u->usage_efctv = o->usage_efctv;
		if (mask & W_USAGE_NORM)
			u->usage_norm = o->usage_norm;
		if (mask & W_LEVEL_FS)
			u->level_fs = o->level_fs;
	}
	return nd;
}

static void _free_layout(void)
{
	if (g_pass_same >= 0)
		g_pass_same = 0;
	g_fresh = false;
	sb_assoc_tree_destroy(g_tree);
	g_tree = NULL;
	xfree(g_recs);
	xfree(g_ptrs);
	xfree(g_out);
	xfree(g_dirty);
	g_out_ok = false;
	g_n = g_np = 0;
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
	g_fresh = false;
}

extern void bucket_assoc_pass_end(void)
{
	g_pass_same = -1;
	g_fresh = false;
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
	g_ptrs = ptrs;
	g_np = np;
	g_out = xcalloc(n, sizeof(*g_out));
	g_dirty = xcalloc(n, sizeof(*g_dirty));
	g_out_ok = false;
	g_n = n;
	g_root = root;
	g_skipped = skipped;
	g_orphans = orphans;
	if (g_pass_same >= 0)
		g_pass_same = 1;
	xfree(keys);
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
		r->raw = _usage(a);
		if (r->tree_id < 0)
			continue;
		if (sb_assoc_tree_set_usage(g_tree, r->tree_id, r->raw) < 0) {
			error(BUCKET_PFX "cannot set the usage of association %u: %m",
			      r->id);
			return -1;
		}
	}
	return 0;
}

/*
 * Is @r's record still what the layout was built from (id, shares, usage
 * and parent pointers)? Reads only what the decay's lines hold.
 */
static bool _rec_same(const _rec_t *r)
{
	const slurmdb_assoc_rec_t *a = r->assoc;

	if ((a->id != r->id) || (a->shares_raw != r->shares_raw) ||
	    (a->usage != r->usage))
		return false;
	return !r->usage || (r->usage->parent_assoc_ptr == r->parent_ptr);
}

/*
 * With DebugFlags=Priority: is the usage the decay and the job usage
 * copied into g_tree what the records hold? The copy is what the pass
 * trusts instead of reading them; this reads them all (what the copy
 * saves) to prove it. Logs and returns the number that differ.
 */
static int _check_copy(void)
{
	int i, bad = 0;

	for (i = 0; i < g_n; i++) {
		const _rec_t *r = &g_recs[i];

		if (!_rec_same(r) ||
		    (r->usage && !SAME(r->raw, _usage(r->assoc)))) {
			if (!bad++)
				error(BUCKET_PFX "association %u: the usage copied in this pass (%Lf) is not its record's (%Lf)",
				      r->id, r->raw,
				      r->usage ? _usage(r->assoc) : 0.0L);
		}
	}
	if (bad)
		error(BUCKET_PFX "%d associations' usage copied in this pass differ from their records", bad);
	else
		log_flag(PRIO, "the usage copied in this pass is every record's (%d associations)",
			 g_n);
	return bad;
}

extern int bucket_assoc_compute(const prio_settings_t *conf)
{
	const char *alg_name;
	bool rebuilt = false, all, copied = false;
	int crc = -1, rc, written;
	time_t now;
	DEF_TIMERS;

	if (!conf || !assoc_mgr_assoc_list || !assoc_mgr_root_assoc ||
	    !assoc_mgr_root_assoc->usage)
		return SLURM_ERROR;
	START_TIMER;

	/* the decay of this pass copied every usage in: nothing to read */
	if (g_fresh && (g_pass_same == 1)) {
		rc = 0;
		copied = true;
		if ((slurm_conf.debug_flags & DEBUG_FLAG_PRIO) && _check_copy())
			rc = 1;		/* rebuilt and read, as without a copy */
	} else
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
	now = time(NULL);
	all = !g_out_ok || (now - g_full_at >= FULL_WRITE_PERIOD) ||
		(now < g_full_at);
	written = _write_back(g_tree, conf, all);
	if (all) {
		g_out_ok = true;
		g_full_at = now;
	}
	END_TIMER;
	log_flag(PRIO, "%s fair-share pass over %d associations (%d users, %d left out, %d orphans%s; usage %s; %d written%s) took %ld usec",
		 alg_name ? alg_name : "?", sb_assoc_tree_count(g_tree),
		 sb_assoc_tree_users(g_tree), g_skipped, g_orphans,
		 rebuilt ? ", tree rebuilt" : "",
		 (copied && !rebuilt) ? "copied by the decay" : "read",
		 written, all ? ", all" : "", SB_DELTA_TIMER);
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
	bool copy = (g_pass_same == 1), same = true;
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
	 * be stale. Within a pass (@copy), each record is also compared
	 * with the layout and its decayed usage copied into g_tree, while
	 * its lines are in cache: the fair-share pass after it then reads
	 * no record. id sits near leaf_usage, shares_raw next to usage,
	 * parent_assoc_ptr near grp_used_wall: the check costs few lines
	 * the decay does not load anyway.
	 */
	for (i = 0; i < g_n; i++) {
		_rec_t *r = &g_recs[i];
		slurmdb_assoc_rec_t *a;
		slurmdb_assoc_usage_t *u;

		if (i + 3 * PREFETCH_AHEAD < g_n) {
			a = g_recs[i + 3 * PREFETCH_AHEAD].assoc;
			__builtin_prefetch(&a->usage);
			__builtin_prefetch(&a->leaf_usage);
			if (copy) {
				__builtin_prefetch(&a->id);
				__builtin_prefetch(&a->shares_raw);
			}
		}
		if ((i + 2 * PREFETCH_AHEAD < g_n) &&
		    (u = g_recs[i + 2 * PREFETCH_AHEAD].assoc->usage)) {
			__builtin_prefetch(&u->grp_used_wall, 1);
			__builtin_prefetch(&u->usage_raw, 1);
			if (copy)
				__builtin_prefetch(&u->parent_assoc_ptr);
		}
		if ((i + PREFETCH_AHEAD < g_n) &&
		    (u = g_recs[i + PREFETCH_AHEAD].assoc->usage) &&
		    u->usage_tres_raw)
			__builtin_prefetch(u->usage_tres_raw, 1);

		_scale_assoc(r->assoc, d);
		if (!copy || !same)
			continue;
		if (!_rec_same(r)) {
			/* the pass will rebuild the layout, reading all */
			same = false;
			continue;
		}
		if (!r->usage)
			continue;
		r->raw = _usage(r->assoc);
		if ((r->tree_id >= 0) &&
		    (sb_assoc_tree_set_usage(g_tree, r->tree_id, r->raw) < 0))
			same = false;
	}
	g_fresh = copy && same;
}

extern void bucket_assoc_usage_added(slurmdb_assoc_rec_t *assoc)
{
	_rec_t *r;
	int i;

	if (!g_fresh)
		return;
	i = _find(g_ptrs, g_np, assoc);
	if ((i < 0) || (g_recs[i].usage != assoc->usage)) {
		/* not the layout's: the fair-share pass reads every record */
		g_fresh = false;
		return;
	}
	r = &g_recs[i];
	r->raw = _usage(assoc);
	if ((r->tree_id >= 0) &&
	    (sb_assoc_tree_set_usage(g_tree, r->tree_id, r->raw) < 0))
		g_fresh = false;
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
