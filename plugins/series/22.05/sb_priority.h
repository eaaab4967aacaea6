/*
 * sb_priority.h - what priority/bucket needs of Slurm 22.05 that 24.11
 * names or does differently (see plugins/series/22.05/sb_slurm.h for the
 * scheme); included by priority_bucket.h after sb_slurm.h.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Whole entry points that differ are in priority_series.c next to this
 * header; the plugin's own files use only the names below, never a
 * version test.
 */
#ifndef SB_PRIORITY_H
#define SB_PRIORITY_H

/*
 * The factors slurmctld keeps per job (job_ptr->prio_factors): 22.05
 * uses the object sprio receives, 24.11 a type of its own.
 */
typedef priority_factors_object_t sb_prio_factors_t;

/*
 * slurmctld starts no thread for the plugin: init() starts the decay
 * thread itself (24.11 calls priority_p_thread_start() for it).
 */
#define SB_PRIO_THREAD_AT_INIT true

/*
 * The job size factor as 22.05's multifactor computes it: over
 * node_record_count, with the node share of PriorityFavorSmall wrapping
 * (unsigned) when a job asks for more nodes than the cluster has.
 */
#define SB_PRIO_NODE_COUNT node_record_count
#define SB_PRIO_JS_STRICT false

#define sb_site_factor_init() site_factor_plugin_init()
#define sb_site_factor_fini() site_factor_plugin_fini()
#define sb_site_factor_reconfig() site_factor_g_reconfig()

#define sb_is_user_acct_coord(db, uid, acct) \
	assoc_mgr_is_user_acct_coord(db, uid, acct)

#endif /* SB_PRIORITY_H */
