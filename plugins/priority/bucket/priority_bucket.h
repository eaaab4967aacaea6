/*
 * priority_bucket.h - what the files of priority/bucket share.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 *   priority_bucket.c    framework entry points
 *   priority_mult.c, priority_array.c
 *                        a job's priorities per partition (and QOS)
 *   priority_factors_list.c, priority_factors_request.c
 *                        sprio's factor list
 *   priority_thread_start.c, priority_fs_factor.c
 *                        entry points only some frameworks have
 *                        (each pair: the two ways Slurm trees do one
 *                        thing; priority.am picks by the trait each file
 *                        names, plugins/compat/sb_priority.h the names)
 *   prio_settings.c      the settings: PriorityParameters, weights, flags
 *   bucket_assoc.c       assoc_mgr <-> common/ (the only conversion point)
 *   bucket_usage.c       decay thread, usage accrual, state file
 *   bucket_job.c         the multifactor formula, sprio's factor list
 *   slurmctld_globals.c  slurmctld's globals, for sshare and sprio
 *
 * Calls go one way: the entry points call the others; bucket_usage.c
 * calls bucket_assoc.c and bucket_job.c; bucket_job.c and bucket_usage.c
 * call prio_part_prios(), which calls back only bucket_job.c's helpers; every file reads the settings,
 * which call nobody.
 *
 * Lock order (assoc_mgr.h): lock_slurmctld() before assoc_mgr_lock(),
 * unlocked in reverse. prio_settings_lock is innermost: nothing else is
 * locked while it is held.
 */
#ifndef PRIORITY_BUCKET_H
#define PRIORITY_BUCKET_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "sb_slurm.h"
#include "sb_priority.h"

#include "priority_params.h"

/*
 * info(), verbose(), debug() and log_flag() prefix plugin messages with
 * "priority/bucket: <function>: " themselves (SLURM_PLUGIN_DEBUG);
 * error() and fatal() do not, so those start with BUCKET_PFX.
 * log_flag(PRIO, ...) lines show at SlurmctldDebug=verbose with
 * DebugFlags=Priority.
 */
#define BUCKET_PFX "priority/bucket: "

/* The configuration the computations use (a snapshot of slurm_conf). */
typedef struct {
	sb_priority_params_t params;
	uint32_t damp;			/* FairShareDampeningFactor */
	uint32_t max_age;		/* PriorityMaxAge, seconds */
	uint32_t weight_age;
	uint32_t weight_assoc;
	uint32_t weight_fs;
	uint32_t weight_js;
	uint32_t weight_part;
	uint32_t weight_qos;
	uint16_t flags;			/* PriorityFlags */
	bool calc_fairshare;		/* accounting with slurmdbd */
	bool have_weight_tres;
	int tres_cnt;			/* entries in weight_tres */
	double *weight_tres;		/* owned by prio_settings */
} prio_settings_t;

/* Guards prio_settings; see prio_settings_snapshot(). */
extern pthread_mutex_t prio_settings_lock;
extern prio_settings_t prio_settings;

/* slurmctld's globals (slurmctld_globals.c defines them for the clients). */
extern list_t *job_list;
extern time_t last_job_update;
extern time_t last_part_update;
extern int slurmctld_tres_cnt;
extern uint16_t accounting_enforce;
extern uint32_t cluster_cpus;
extern void *acct_db_conn;

/* ---- prio_settings.c: the settings ------------------------------------ */

/*
 * Copy prio_settings into *@out; @tres (tres_cnt doubles or NULL) receives
 * the TRES weights and out->weight_tres points to it.
 */
extern void prio_settings_snapshot(prio_settings_t *out, double *tres,
				   int tres_cnt);

/*
 * The defaults, then slurm.conf's values. In slurmctld (@in_ctld) all of
 * them, whether fair share can be computed (slurmdbd, a root
 * association), and a bad PriorityParameters is fatal; in sshare and
 * sprio only the dampening factor and PriorityParameters, never fatal.
 */
extern void prio_settings_init(bool in_ctld);

/*
 * slurm_conf -> prio_settings (slurmctld). A bad PriorityParameters or a
 * PriorityFlags that does not agree with it is fatal when @starting, else
 * logged and the previous parameters kept.
 */
extern void prio_settings_load(bool starting);

/* Release what the settings own. */
extern void prio_settings_fini(void);

/* ---- bucket_assoc.c: assoc_mgr <-> common/ ---------------------------- */

/*
 * Rebuild the common/ association tree from assoc_mgr (when its list or
 * a record's layout changed), compute fair share with @conf's algorithm
 * and write shares_norm, usage_norm, usage_efctv, level_fs and fs_factor
 * back into every association whose values changed since they were last
 * written (all of them once a minute). Caller holds the
 * assoc_mgr assoc WRITE lock. Returns SLURM_SUCCESS or SLURM_ERROR (the
 * old values are kept, the error is logged).
 */
extern int bucket_assoc_compute(const prio_settings_t *conf);

/*
 * usage_norm and a cheap usage_efctv for one association, between two
 * passes (new associations, sshare). Caller holds the assoc READ lock.
 */
extern void bucket_assoc_set_usage(slurmdb_assoc_rec_t *assoc);

/*
 * Bracket one decay pass (decay, job usage, fair share) held under one
 * assoc WRITE lock: assoc_mgr's list is compared with the layout once, at
 * the beginning (O(n), list nodes only), and trusted until the end.
 */
extern void bucket_assoc_pass_begin(void);
extern void bucket_assoc_pass_end(void);

/*
 * Multiply every association's usage (and leaf usage) by @d: decay, or
 * with d = 0 a reset. Caller holds the assoc WRITE lock. O(n). Within a
 * pass it also copies every usage into the fair-share tree, so that
 * bucket_assoc_compute() reads no record.
 */
extern void bucket_assoc_scale_usage(double d);

/*
 * @assoc's usage_raw changed within a pass, after the decay (a running
 * job's usage): copy it into the fair-share tree. Caller holds the
 * assoc WRITE lock. O(log n).
 */
extern void bucket_assoc_usage_added(slurmdb_assoc_rec_t *assoc);

/* Release what the conversion keeps between passes. */
extern void bucket_assoc_fini(void);

/*
 * usage *= d (d = 0 zeroes it: a reset) for an association's or a QOS's
 * usage record, which have the same three fields but not the same type.
 */
#define SCALE_USAGE(u, d)						\
	do {								\
		uint32_t _i;						\
		(u)->usage_raw = (d) ? (u)->usage_raw * (d) : 0;	\
		for (_i = 0; (u)->usage_tres_raw && (_i < (u)->tres_cnt); \
		     _i++)						\
			(u)->usage_tres_raw[_i] = (d) ?			\
				(u)->usage_tres_raw[_i] * (d) : 0;	\
		(u)->grp_used_wall = (d) ? (u)->grp_used_wall * (d) : 0; \
	} while (0)

/* ---- bucket_usage.c: decay thread -------------------------------------- */

/*
 * Read the state file (last pass, last reset) and the decay factor: in
 * init(), before slurmctld reads its jobs, so that a job ending then
 * (priority_p_job_end) is charged from the last pass.
 */
extern void bucket_usage_init(void);
/* Start the decay thread (once; a second call does nothing). */
extern void bucket_usage_start(void);
extern void bucket_usage_stop(void);
extern void bucket_usage_reconfig(bool assoc_clear);
/* Usage of a job that ends (priority_p_job_end); job write lock held. */
extern void bucket_usage_job_end(job_record_t *job_ptr);

/* ---- bucket_job.c: job priority ---------------------------------------- */

/* Priority of @job_ptr at @now; fills job_ptr->prio_factors. Job lock. */
extern uint32_t bucket_job_priority(job_record_t *job_ptr, time_t now);
/* Recompute every pending job's priority; job write lock held. */
extern void bucket_job_recalc_all(time_t now);

/* The partition factor of @part_ptr, unweighted (0 without one). */
extern double bucket_job_part_factor(part_record_t *part_ptr,
				     const prio_settings_t *conf);
/* TRES factors (unweighted) of @job_ptr in @part_ptr into @out[n]. */
extern void bucket_job_tres_factors(job_record_t *job_ptr,
				    part_record_t *part_ptr,
				    const prio_settings_t *conf, double *out,
				    int n);
/* Multiply @f[n] by the TRES weights in place; returns the sum. */
extern double bucket_job_tres_weigh(double *f, const prio_settings_t *conf,
				    int n);
/*
 * One partition's (and QOS's) priority from the weighted factors @f:
 * @part the weighted partition factor, @qos the weighted QOS factor,
 * @tres the weighted TRES sum in that partition; summed in
 * multifactor's order, so that the digits agree.
 */
extern double bucket_job_part_sum(const sb_prio_factors_t *f, double part,
				  double qos, double tres);
/* @prio as a job priority: [1, 2^32 - 1] (logged when cut). */
extern uint32_t bucket_job_clamp(job_record_t *job_ptr, double prio);
/*
 * In the weighted factors @f copied from @job_ptr's, the partition and
 * TRES factors of @part_ptr instead of its first partition's (sprio's
 * line for one of several partitions).
 */
extern void bucket_job_part_view(job_record_t *job_ptr,
				 part_record_t *part_ptr, sb_prio_factors_t *f,
				 const prio_settings_t *conf);
/* The weighted QOS factor @qos would give (0 without one). */
/*
 * The weighted QOS factor of @qos, one of the job's QOS, in a line of
 * sprio or a slot of the per-QOS priorities of its own: a QOS with no
 * priority (or no QOS weight) keeps the job's own QOS factor @f's.
 */
extern double bucket_job_qos_line(slurmdb_qos_rec_t *qos,
				  const sb_prio_factors_t *f,
				  const prio_settings_t *conf);

extern double bucket_job_qos_factor(slurmdb_qos_rec_t *qos,
				    const prio_settings_t *conf);
/*
 * Does sprio list @job_ptr for @uid at @now: pending (or running with
 * CALCULATE_RUNNING), eligible, not held, visible under PrivateData?
 * Job read lock held.
 */
extern bool bucket_job_listed(job_record_t *job_ptr, uid_t uid,
			      const prio_settings_t *conf, time_t now);

/* ---- priority_mult.c or priority_array.c --------------------------------- */

/*
 * The priorities of a job submitted to several partitions (or QOS, where
 * slurmctld keeps them per partition and QOS) from its weighted factors,
 * where slurmctld's schedulers read them. Job write lock held, no
 * assoc_mgr lock.
 */
extern void prio_part_prios(job_record_t *job_ptr,
			    const sb_prio_factors_t *f,
			    const prio_settings_t *conf);

#endif /* PRIORITY_BUCKET_H */
