/*
 * bench_fairshare_slurm.c - Slurm's own Fair Tree pass for bench_fairshare
 * (see sb_bench_slurm.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Built against Slurm's configured source tree and the installed
 * libslurmfull; priority_multifactor.so is dlopen()ed lazily, so of
 * slurmctld's own functions it only needs those fair_tree_decay() calls:
 * lock_slurmctld() and unlock_slurmctld(), which this single-threaded
 * benchmark provides as no-ops (exported: the program is linked with
 * -export-dynamic). Everything else it touches (assoc_mgr's root, locks
 * and user count, slurm_conf, lists) is libslurmfull's.
 *
 * The records sit in memory as in slurmctld, which matters at 100k: they
 * arrive from slurmdbd in depth-first (lft) order and are unpacked by
 * Slurm's own slurmdb_unpack_assoc_rec() (names, QOS list); assoc_mgr then
 * walks them once more, giving each its usage (with its TRES arrays and
 * QOS bitmap) and its per-TRES limit arrays. This file allocates in that
 * sequence with the same sizes (8 TRES, as a default cluster has). The fs
 * children lists are those assoc_mgr rebuilds whenever associations are
 * added or removed (assoc_mgr_update_assocs()): filled in the order of
 * Slurm's own slurmdb_sort_hierarchical_assoc_list(), users before
 * accounts, each by name, which is how a running cluster has them.
 */
#include "config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <time.h>

#include "src/common/assoc_mgr.h"
#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/pack.h"
#include "src/common/slurmdb_pack.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"

#include "sb_bench_slurm.h"

typedef void (*fair_tree_decay_f)(List jobs, time_t start);

#define TRES_CNT 8	/* cpu mem energy node billing fs/disk vmem pages */

static fair_tree_decay_f g_pass;
static slurmdb_assoc_rec_t **g_recs;
static int g_n;
static List g_jobs;

/* slurmctld's locks: nothing else runs here. */
extern void lock_slurmctld(slurmctld_lock_t lock_levels)
{
}

extern void unlock_slurmctld(slurmctld_lock_t lock_levels)
{
}

int sb_bench_slurm_load(const char *plugindir, char *err, size_t len)
{
	char *path = xstrdup_printf("%s/priority_multifactor.so", plugindir);
	void *h = dlopen(path, RTLD_LAZY | RTLD_LOCAL);

	if (!h) {
		snprintf(err, len, "%s", dlerror());
		xfree(path);
		return -1;
	}
	if (!(g_pass = (fair_tree_decay_f) dlsym(h, "fair_tree_decay"))) {
		snprintf(err, len, "%s has no fair_tree_decay()", path);
		xfree(path);
		return -1;
	}
	xfree(path);
	g_jobs = list_create(NULL);
	return 0;
}

/* assoc_mgr's fs parent: the nearest ancestor whose shares are not
 * 'parent' (root is never 'parent'). */
static slurmdb_assoc_rec_t *_fs_parent(slurmdb_assoc_rec_t *a)
{
	slurmdb_assoc_rec_t *p = a->usage->parent_assoc_ptr;

	while (p->usage->parent_assoc_ptr &&
	       (p->shares_raw == SLURMDB_FS_USE_PARENT))
		p = p->usage->parent_assoc_ptr;
	return p;
}

/* assoc_mgr's level shares of @a's fs children: a 'parent' child adds its
 * own fs children's, which it has none of. */
static uint32_t _children_shares(slurmdb_assoc_rec_t *a)
{
	slurmdb_assoc_rec_t *c;
	ListIterator itr;
	uint32_t sum = 0;

	if (!a->usage->children_list)
		return 0;
	itr = list_iterator_create(a->usage->children_list);
	while ((c = list_next(itr)))
		if (c->shares_raw != SLURMDB_FS_USE_PARENT)
			sum += c->shares_raw;
	list_iterator_destroy(itr);
	return sum;
}

int sb_bench_slurm_build(int n, const int *parent, const uint32_t *shares,
			 const long double *usage,
			 const unsigned char *is_user,
			 const char *const *name)
{
	slurmdb_assoc_rec_t *a;
	int i, users = 0;
	List sorted;
	buf_t *buf;

	if (!g_pass)
		return -1;
	sb_bench_slurm_free();
	g_recs = xcalloc(n, sizeof(*g_recs));
	g_n = n;
	/* what slurmdbd sends: one record after the other */
	buf = init_buf(BUF_SIZE);
	for (i = 0; i < n; i++) {
		slurmdb_assoc_rec_t rec;

		slurmdb_init_assoc_rec(&rec, 0);
		rec.id = i + 1;
		rec.lft = i + 1;
		rec.parent_id = i ? (uint32_t) parent[i] + 1 : 0;
		rec.cluster = "bench";
		if (is_user[i]) {
			rec.acct = xstrdup(name[parent[i]]);
			rec.user = xstrdup(name[i]);
		} else {
			rec.acct = xstrdup(name[i]);
		}
		rec.shares_raw = i ? shares[i] : 1;
		rec.qos_list = list_create(xfree_ptr);	/* QOS "normal" */
		list_append(rec.qos_list, xstrdup("1"));
		slurmdb_pack_assoc_rec(&rec, SLURM_PROTOCOL_VERSION, buf);
		FREE_NULL_LIST(rec.qos_list);
		xfree(rec.acct);
		xfree(rec.user);
	}
	set_buf_offset(buf, 0);
	for (i = 0; i < n; i++)
		if (slurmdb_unpack_assoc_rec((void **) &g_recs[i],
					     SLURM_PROTOCOL_VERSION, buf)) {
			free_buf(buf);
			g_n = i;
			return -1;
		}
	free_buf(buf);
	/* assoc_mgr's second walk */
	for (i = 0; i < n; i++) {
		a = g_recs[i];
		if (a->user)
			users++;
		a->usage = slurmdb_create_assoc_usage(TRES_CNT);
		a->usage->valid_qos = bit_alloc(2);
		a->usage->usage_raw = usage[i];
		a->grp_tres_ctld = xcalloc(TRES_CNT, sizeof(uint64_t));
		a->grp_tres_mins_ctld = xcalloc(TRES_CNT, sizeof(uint64_t));
		a->grp_tres_run_mins_ctld = xcalloc(TRES_CNT,
						    sizeof(uint64_t));
		a->max_tres_ctld = xcalloc(TRES_CNT, sizeof(uint64_t));
		a->max_tres_pn_ctld = xcalloc(TRES_CNT, sizeof(uint64_t));
		a->max_tres_mins_ctld = xcalloc(TRES_CNT, sizeof(uint64_t));
		a->max_tres_run_mins_ctld = xcalloc(TRES_CNT,
						    sizeof(uint64_t));
		if (!i)
			continue;
		a->usage->parent_assoc_ptr = g_recs[parent[i]];
		a->usage->fs_assoc_ptr = _fs_parent(a);
	}
	/* the children lists, in Slurm's hierarchical order */
	sorted = list_create(NULL);
	for (i = 0; i < n; i++)
		list_append(sorted, g_recs[i]);
	slurmdb_sort_hierarchical_assoc_list(sorted, true);
	while ((a = list_pop(sorted))) {
		slurmdb_assoc_rec_t *f = a->usage->fs_assoc_ptr;

		if (!f)
			continue;
		if (!f->usage->children_list)
			f->usage->children_list = list_create(NULL);
		list_append(f->usage->children_list, a);
	}
	FREE_NULL_LIST(sorted);
	for (i = 0; i < n; i++) {
		slurmdb_assoc_rec_t *a = g_recs[i], *c;
		uint32_t level = _children_shares(a);
		ListIterator itr;

		if (!a->usage->children_list)
			continue;
		itr = list_iterator_create(a->usage->children_list);
		while ((c = list_next(itr)))
			c->usage->level_shares = level;
		list_iterator_destroy(itr);
	}
	/* Fair Tree's normalised shares, as assoc_mgr sets them */
	for (i = 1; i < n; i++) {
		slurmdb_assoc_rec_t *a = g_recs[i], *f = a;

		if (a->shares_raw == SLURMDB_FS_USE_PARENT)
			f = a->usage->fs_assoc_ptr;
		a->usage->shares_norm = f->usage->level_shares ?
			(double) f->shares_raw /
			(double) f->usage->level_shares : 0.0;
	}
	assoc_mgr_root_assoc = g_recs[0];
	assoc_mgr_root_assoc->usage->usage_efctv = 1.0;
	g_user_assoc_count = users;
	return 0;
}

void sb_bench_slurm_pass(void)
{
	g_pass(g_jobs, time(NULL));
}

double sb_bench_slurm_factor(int id)
{
	return (id >= 0 && id < g_n) ? g_recs[id]->usage->fs_factor : 0.0;
}

void sb_bench_slurm_free(void)
{
	int i;

	for (i = 0; i < g_n; i++)
		slurmdb_destroy_assoc_rec(g_recs[i]);
	xfree(g_recs);
	g_n = 0;
	assoc_mgr_root_assoc = NULL;
	g_user_assoc_count = 0;
}
