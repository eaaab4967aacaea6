/*
 * priority_bucket.h - what the files of priority/bucket share.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 *   priority_bucket.c    framework entry points
 *   prio_settings.c      the settings: PriorityParameters, weights, flags
 *   bucket_assoc.c       assoc_mgr <-> common/ (the only conversion point)
 *   bucket_usage.c       decay thread, usage accrual, state file
 *   bucket_job.c         the multifactor formula, sprio's factor list
 *   slurmctld_globals.c  slurmctld's globals, for sshare and sprio
 *
 * Calls go one way: the entry points call the others; bucket_usage.c
 * calls bucket_assoc.c and bucket_job.c; every file reads the settings,
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
 * Rebuild the common/ association tree from assoc_mgr, compute fair share
 * with @conf's algorithm and write shares_norm, usage_norm, usage_efctv,
 * level_fs and fs_factor back into every association. Caller holds the
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
 * with d = 0 a reset. Caller holds the assoc WRITE lock. O(n).
 */
extern void bucket_assoc_scale_usage(double d);

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

extern int bucket_usage_start(void);
extern void bucket_usage_stop(void);
extern void bucket_usage_reconfig(bool assoc_clear);
/* Usage of a job that ends (priority_p_job_end); job write lock held. */
extern void bucket_usage_job_end(job_record_t *job_ptr);

/* ---- bucket_job.c: job priority ---------------------------------------- */

/* Priority of @job_ptr at @now; fills job_ptr->prio_factors. Job lock. */
extern uint32_t bucket_job_priority(job_record_t *job_ptr, time_t now);
/* Recompute every pending job's priority; job write lock held. */
extern void bucket_job_recalc_all(time_t now);
/* sprio's list; takes the job read lock itself. */
extern list_t *bucket_job_factors_list(priority_factors_request_msg_t *req_msg,
				    uid_t uid);

#endif /* PRIORITY_BUCKET_H */
