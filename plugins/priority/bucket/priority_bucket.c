/*
 * priority_bucket.c - priority/bucket: bit-bucketed fair share for Slurm
 * (LEVEL_BASED, Fair Tree or classic, computed by
 * common/), usage decay and the multifactor job priority formula.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * This file holds the framework's entry points every Slurm has (the
 * others, sprio's list among them, are in the files named after their
 * trait: priority_bucket.h); the settings are in prio_settings.c, the work in
 * bucket_assoc.c, bucket_usage.c and bucket_job.c, slurmctld's globals
 * for the clients in slurmctld_globals.c.
 *
 * slurmctld, sshare and sprio all dlopen() the priority plugin; only
 * slurmctld runs the decay thread. The clients use
 * priority_p_calc_fs_factor() (sshare without the Fair Tree flag, where
 * the framework has it: priority_fs_factor.c) and
 * priority_p_set_assoc_usage().
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "sb_slurm.h"

#include "priority_bucket.h"

const char plugin_name[] = "Priority BUCKET plugin (bit-bucketed fair share)";
const char plugin_type[] = "priority/bucket";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

static bool in_ctld = false;
static bool site_factor_loaded = false;

extern int init(void)
{
	/*
	 * sshare and sprio load us too: they only need the dampening factor
	 * for priority_p_calc_fs_factor(). No thread, no state, no fatal().
	 */
	if (!running_in_slurmctld()) {
		prio_settings_init(false);
		return SLURM_SUCCESS;
	}
	in_ctld = true;
	prio_settings_init(true);

	if (sb_site_factor_init() == SLURM_SUCCESS)
		site_factor_loaded = true;
	else
		error(BUCKET_PFX "cannot load the site factor plugin");

	/*
	 * The last pass's time now, before slurmctld reads its jobs (one
	 * that ends then is charged from it); the thread now too unless
	 * slurmctld starts it once the jobs are read (sb_priority.h).
	 */
	bucket_usage_init();
	if (SB_PRIO_THREAD_AT_INIT)
		bucket_usage_start();
	debug("%s loaded (Slurm %s)", plugin_name, SB_SLURM_RELEASE);
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	if (in_ctld) {
		bucket_usage_stop();
		if (site_factor_loaded)
			sb_site_factor_fini();
		site_factor_loaded = false;
		bucket_assoc_fini();
		in_ctld = false;
	}
	prio_settings_fini();
	return SLURM_SUCCESS;
}

/* A new job (or one whose request changed); job write lock held. */
extern uint32_t priority_p_set(uint32_t last_prio, job_record_t *job_ptr)
{
	uint32_t prio;

	if (!job_ptr)
		return 1;
	/* first, so a new site factor is part of the sum */
	if (site_factor_loaded)
		site_factor_g_set(job_ptr);
	prio = bucket_job_priority(job_ptr, time(NULL));
	debug2("initial priority for %pJ is %u", job_ptr, prio);
	return prio;
}

extern void priority_p_reconfig(bool assoc_clear)
{
	if (!in_ctld)
		return;
	prio_settings_load(false);
	bucket_usage_reconfig(assoc_clear);
	if (site_factor_loaded)
		sb_site_factor_reconfig();
	debug2("%s reconfigured", plugin_name);
}

extern void priority_p_set_assoc_usage(slurmdb_assoc_rec_t *assoc)
{
	if (!assoc || !assoc->usage)
		return;
	bucket_assoc_set_usage(assoc);
}

/* Job write lock held (acct_policy_job_fini). */
extern void priority_p_job_end(job_record_t *job_ptr)
{
	if (!in_ctld || !job_ptr)
		return;
	log_flag(PRIO, "%s: %pJ", __func__, job_ptr);
	bucket_usage_job_end(job_ptr);
}
