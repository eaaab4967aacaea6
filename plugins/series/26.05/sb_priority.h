/*
 * sb_priority.h - what priority/bucket needs of Slurm 26.05 that 22.05
 * names or does differently (see plugins/series/22.05/sb_priority.h):
 * 24.11's, but for job_ptr->prio_mult (24.11's part_prio) and sprio's
 * object, which names its job by step id. The framework lost
 * priority_p_calc_fs_factor() (priority.am leaves it out).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SB_PRIORITY_H
#define SB_PRIORITY_H

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

/* 26.05, as 24.11, has no site factor reconfigure: the plugin reads its own state. */
#define sb_site_factor_init() site_factor_g_init()
#define sb_site_factor_fini() site_factor_g_fini()
#define sb_site_factor_reconfig() do { } while (0)

/* The user lock is not held by our callers (false: take it). */
#define sb_is_user_acct_coord(db, uid, acct) \
	assoc_mgr_is_user_acct_coord(db, uid, acct, false)

/* The priorities per partition and QOS slurmctld schedules by. */
static inline priority_mult_t **sb_job_part_prio(job_record_t *job_ptr)
{
	return &job_ptr->prio_mult;
}

/* sprio's object names its job by step id (job id and SLUID). */
static inline void sb_prio_obj_job(priority_factors_object_t *obj,
				   const job_record_t *job_ptr)
{
	obj->step_id = job_ptr->step_id;
}

#endif /* SB_PRIORITY_H */
