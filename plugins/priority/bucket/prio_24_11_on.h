/*
 * prio_24_11_on.h - what priority/bucket needs of Slurm 24.11 and of
 * 26.05 alike, where they differ from 22.05 (their sb_priority.h includes
 * it and adds what differs between the two).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef PRIO_24_11_ON_H
#define PRIO_24_11_ON_H

/* job_ptr->prio_factors (sprio's object holds one and names) */
typedef priority_factors_t sb_prio_factors_t;

/*
 * slurmctld calls priority_p_thread_start() once the job state is read
 * (controller.c): the decay thread starts there, not in init().
 */
#define SB_PRIO_THREAD_AT_INIT false

/*
 * 24.11's multifactor counts only the nodes that exist (dynamic and
 * future nodes leave holes in the node table), gives no job size factor
 * without a node or CPU count, and no longer wraps PriorityFavorSmall's
 * node share below zero.
 */
#define SB_PRIO_NODE_COUNT active_node_record_count
#define SB_PRIO_JS_STRICT true

/* 24.11 has no site factor reconfigure: the plugin reads its own state. */
#define sb_site_factor_init() site_factor_g_init()
#define sb_site_factor_fini() site_factor_g_fini()
#define sb_site_factor_reconfig() do { } while (0)

/* The user lock is not held by our callers (false: take it). */
#define sb_is_user_acct_coord(db, uid, acct) \
	assoc_mgr_is_user_acct_coord(db, uid, acct, false)

#endif /* PRIO_24_11_ON_H */
