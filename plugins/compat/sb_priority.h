/*
 * sb_priority.h - what priority/bucket needs of the priority framework
 * and of slurmctld's job record, under one set of names whatever the
 * Slurm tree (traits: sb_slurm_traits.h, m4/sb_slurm_traits.m4);
 * included by priority_bucket.h after sb_slurm.h.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Whole entry points that differ are in files of plugins/priority/bucket/
 * named after their trait (priority.am); the plugin's other files use
 * only the names below, never a trait.
 */
#ifndef SB_PRIORITY_H
#define SB_PRIORITY_H

#include "sb_slurm.h"

/*
 * The factors slurmctld keeps per job (job_ptr->prio_factors): a type of
 * their own, or (22.05) the object sprio receives.
 */
#if SB_HAVE_PRIORITY_FACTORS_T
typedef priority_factors_t sb_prio_factors_t;
#else
typedef priority_factors_object_t sb_prio_factors_t;
#endif

/*
 * Who starts the decay thread: slurmctld, once the job state is read
 * (priority_p_thread_start(), priority_thread_start.c), or init().
 */
#define SB_PRIO_THREAD_AT_INIT (!SB_HAVE_PRIORITY_THREAD_START)

/*
 * The job size factor as multifactor computes it. Where slurmctld keeps
 * active_node_record_count, multifactor counts only the nodes that exist
 * (dynamic and future nodes leave holes in the node table), gives no job
 * size factor without a node or CPU count, and no longer wraps
 * PriorityFavorSmall's node share below zero (strict); before, it counts
 * node_record_count and wraps (unsigned) when a job asks for more nodes
 * than the cluster has.
 */
#if SB_HAVE_ACTIVE_NODE_RECORD_COUNT
#define SB_PRIO_NODE_COUNT active_node_record_count
#define SB_PRIO_JS_STRICT true
#else
#define SB_PRIO_NODE_COUNT node_record_count
#define SB_PRIO_JS_STRICT false
#endif

#if SB_HAVE_SITE_FACTOR_G_INIT
/* no site factor reconfigure there: the plugin reads its own state */
#define sb_site_factor_init() site_factor_g_init()
#define sb_site_factor_fini() site_factor_g_fini()
#define sb_site_factor_reconfig() do { } while (0)
#else
#define sb_site_factor_init() site_factor_plugin_init()
#define sb_site_factor_fini() site_factor_plugin_fini()
#define sb_site_factor_reconfig() site_factor_g_reconfig()
#endif

/* Is @uid a coordinator of @acct? Our callers do not hold the user lock. */
#if SB_HAVE_COORD_LOCKED_ARG
#define sb_is_user_acct_coord(db, uid, acct) \
	assoc_mgr_is_user_acct_coord(db, uid, acct, false)
#else
#define sb_is_user_acct_coord(db, uid, acct) \
	assoc_mgr_is_user_acct_coord(db, uid, acct)
#endif

#if SB_HAVE_PRIORITY_MULT_T
/* The priorities per partition and QOS slurmctld schedules by. */
static inline priority_mult_t **sb_job_part_prio(job_record_t *job_ptr)
{
#if SB_HAVE_JOB_PRIO_MULT
	return &job_ptr->prio_mult;
#else
	return &job_ptr->part_prio;
#endif
}
#endif

/* sprio's object names its job (by step id where it has one). */
static inline void sb_prio_obj_job(priority_factors_object_t *obj,
				   const job_record_t *job_ptr)
{
#if SB_HAVE_PRIO_OBJ_STEP_ID
	obj->step_id = job_ptr->step_id;
#else
	obj->job_id = job_ptr->job_id;
#endif
}

#if SB_HAVE_USED_LIMITS_RUN_SECS
static inline int sb_used_is_acct(void *x, void *key)
{
	return !xstrcmp(((slurmdb_used_limits_t *) x)->acct, key);
}

static inline int sb_used_is_user(void *x, void *key)
{
	return ((slurmdb_used_limits_t *) x)->uid == *(uint32_t *) key;
}

static inline void sb_used_sub(uint64_t *have, const uint64_t *delta, int n)
{
	int i;

	for (i = 0; have && (i < n); i++) {
		if (i == TRES_ARRAY_ENERGY)
			continue;
		have[i] = (delta[i] > have[i]) ? 0 : have[i] - delta[i];
	}
}
#endif

/*
 * Where a QOS counts TRES run time per account and per user as well as
 * in itself (acct_policy adds a job's time limit x TRES to all three),
 * the run time the job has used comes off the account's and the user's
 * too, or MaxTRESRunMinsPerAccount/PerUser would count it until the job
 * ends. Records are only found, never created: one acct_policy did not
 * make holds nothing of this job. Elsewhere nothing to do. QOS write
 * lock held.
 */
static inline void sb_qos_used_run_secs(slurmdb_qos_rec_t *qos,
					job_record_t *job_ptr,
					const uint64_t *delta, int n)
{
#if SB_HAVE_USED_LIMITS_RUN_SECS
	slurmdb_used_limits_t *used;

	if (!qos || !qos->usage || !job_ptr->assoc_ptr)
		return;
	if (qos->usage->acct_limit_list &&
	    (used = list_find_first(qos->usage->acct_limit_list,
				    sb_used_is_acct,
				    job_ptr->assoc_ptr->acct)))
		sb_used_sub(used->tres_run_secs, delta, n);
	if (qos->usage->user_limit_list &&
	    (used = list_find_first(qos->usage->user_limit_list,
				    sb_used_is_user, &job_ptr->user_id)))
		sb_used_sub(used->tres_run_secs, delta, n);
#endif
}

#endif /* SB_PRIORITY_H */
