/*
 * priority_bucket.c - priority/bucket: bit-bucketed fair share for Slurm
 * 22.05 (LEVEL_BASED, Fair Tree or classic, computed by common/), usage
 * decay and the multifactor job priority formula.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * This file holds the framework's entry points and the configuration;
 * the work is in bucket_assoc.c, bucket_usage.c and bucket_job.c.
 *
 * slurmctld, sshare and sprio all dlopen() the priority plugin; only
 * slurmctld runs the decay thread. The clients use
 * priority_p_calc_fs_factor() (sshare without the Fair Tree flag) and
 * priority_p_set_assoc_usage().
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "slurm/slurm_errno.h"

#include "src/common/assoc_mgr.h"
#include "src/common/log.h"
#include "src/common/read_config.h"
#include "src/common/run_in_daemon.h"
#include "src/common/site_factor.h"
#include "src/common/slurm_priority.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "bucket.h"
#include "fairshare_classic.h"

const char plugin_name[] = "Priority BUCKET plugin (bit-bucketed fair share)";
const char plugin_type[] = "priority/bucket";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

/*
 * slurmctld's globals, defined here so sshare and sprio (which have none
 * of them) can dlopen() the plugin. They are exported (see
 * priority_bucket.map) so that inside slurmctld its own definitions
 * interpose on these.
 */
List job_list = NULL;
time_t last_job_update = (time_t) 0;
int slurmctld_tres_cnt = 0;
uint16_t accounting_enforce = 0;
uint32_t cluster_cpus = NO_VAL;
void *acct_db_conn = NULL;

pthread_mutex_t bucket_conf_lock = PTHREAD_MUTEX_INITIALIZER;
bucket_conf_t bucket_conf;

static bool in_ctld = false;
static bool site_factor_loaded = false;

extern void bucket_conf_snapshot(bucket_conf_t *out, double *tres,
				 int tres_cnt)
{
	slurm_mutex_lock(&bucket_conf_lock);
	*out = bucket_conf;
	out->weight_tres = NULL;
	if (tres && (tres_cnt > 0)) {
		memset(tres, 0, sizeof(double) * tres_cnt);
		if (bucket_conf.weight_tres)
			memcpy(tres, bucket_conf.weight_tres, sizeof(double) *
			       MIN(tres_cnt, bucket_conf.tres_cnt));
		out->weight_tres = tres;
		out->tres_cnt = tres_cnt;
	} else {
		out->tres_cnt = 0;
		out->have_weight_tres = false;
	}
	slurm_mutex_unlock(&bucket_conf_lock);
}

/*
 * A bad configuration, in one line @why: at start-up (@starting)
 * slurmctld refuses to start; on reconfigure it is logged and the
 * previous parameters are kept.
 */
static void _bad_config(const char *why, bool starting)
{
	char canon[64];

	if (starting)
		fatal(BUCKET_PFX "%s", why);
	error(BUCKET_PFX "%s; keeping %s", why,
	      sb_priority_params_fmt(&bucket_conf.params, canon,
				     sizeof(canon)) ?
	      canon : "the previous parameters");
}

/* Read PriorityParameters (one line naming key and value if bad). */
static int _read_params(sb_priority_params_t *out, bool starting)
{
	char err[SB_PRIO_ERR_MAX];

	if (sb_priority_params_parse(slurm_conf.priority_params, out, err,
				     sizeof(err)) < 0) {
		_bad_config(err, starting);
		return SLURM_ERROR;
	}
	return SLURM_SUCCESS;
}

/*
 * sshare decides from PriorityFlags alone how to print FairShare: with the
 * Fair Tree flag, each association's fs_factor (what our jobs use); without
 * it (NO_FAIR_TREE, or DEPTH_OBLIVIOUS, which clears it), a classic factor
 * it computes itself from EffectvUsage and NormShares, depth-oblivious or
 * not. So the flag and the algorithm must agree, or sshare shows numbers
 * no job uses. The reason they do not, or NULL.
 */
static const char *_flags_problem(const sb_priority_params_t *params,
				  uint16_t flags)
{
	bool classic = (params->algorithm == SB_FS_CLASSIC);

	if (flags & PRIORITY_FLAGS_DEPTH_OBLIVIOUS)
		return "PriorityFlags=DEPTH_OBLIVIOUS is not supported (sshare would print a depth-oblivious FairShare that no job uses); remove it";
	if (!(flags & PRIORITY_FLAGS_FAIR_TREE) && !classic)
		return "PriorityFlags=NO_FAIR_TREE needs PriorityParameters algorithm=classic (with the flag sshare prints a classic FairShare of its own, not the factor the jobs use)";
	if ((flags & PRIORITY_FLAGS_FAIR_TREE) && classic)
		return "PriorityParameters algorithm=classic needs PriorityFlags=NO_FAIR_TREE (without it sshare prints users' FairShare only, unlike priority/multifactor's classic fair share)";
	return NULL;
}

/* slurm_conf -> bucket_conf (slurmctld only). */
static void _setup(bool starting)
{
	sb_priority_params_t params;
	double *weight_tres;
	const char *why;
	char canon[64];
	bool params_ok;

	params_ok = (_read_params(&params, starting) == SLURM_SUCCESS);
	if (params_ok &&
	    (why = _flags_problem(&params, slurm_conf.priority_flags))) {
		_bad_config(why, starting);
		params_ok = false;
	}
	weight_tres = slurm_get_tres_weight_array(
		slurm_conf.priority_weight_tres, slurmctld_tres_cnt, true);

	slurm_mutex_lock(&bucket_conf_lock);
	if (params_ok)
		bucket_conf.params = params;
	bucket_conf.damp = slurm_conf.fs_dampening_factor ?
		slurm_conf.fs_dampening_factor : 1;
	bucket_conf.max_age = slurm_conf.priority_max_age;
	bucket_conf.weight_age = slurm_conf.priority_weight_age;
	bucket_conf.weight_assoc = slurm_conf.priority_weight_assoc;
	bucket_conf.weight_fs = slurm_conf.priority_weight_fs;
	bucket_conf.weight_js = slurm_conf.priority_weight_js;
	bucket_conf.weight_part = slurm_conf.priority_weight_part;
	bucket_conf.weight_qos = slurm_conf.priority_weight_qos;
	bucket_conf.flags = slurm_conf.priority_flags;
	xfree(bucket_conf.weight_tres);
	bucket_conf.weight_tres = weight_tres;
	bucket_conf.have_weight_tres = (weight_tres != NULL);
	bucket_conf.tres_cnt = weight_tres ? slurmctld_tres_cnt : 0;
	if (!bucket_conf.calc_fairshare) {
		/* as priority/multifactor: both need the database */
		bucket_conf.weight_age = 0;
		bucket_conf.weight_fs = 0;
	}
	slurm_mutex_unlock(&bucket_conf_lock);

	info("%s, fair share %s", sb_priority_params_fmt(
		     &bucket_conf.params, canon, sizeof(canon)) ? canon : "?",
	     bucket_conf.calc_fairshare ? "on" : "off (no slurmdbd)");
	log_flag(PRIO, "weights age=%u assoc=%u fairshare=%u jobsize=%u partition=%u qos=%u tres=%s max_age=%u damp=%u flags=0x%x",
		 bucket_conf.weight_age, bucket_conf.weight_assoc,
		 bucket_conf.weight_fs, bucket_conf.weight_js,
		 bucket_conf.weight_part, bucket_conf.weight_qos,
		 slurm_conf.priority_weight_tres ?
		 slurm_conf.priority_weight_tres : "none",
		 bucket_conf.max_age, bucket_conf.damp, bucket_conf.flags);
}

extern int init(void)
{
	sb_priority_params_default(&bucket_conf.params);
	bucket_conf.damp = 1;

	/*
	 * sshare and sprio load us too: they only need the dampening factor
	 * for priority_p_calc_fs_factor(). No thread, no state, no fatal().
	 */
	if (!running_in_slurmctld()) {
		if (slurm_conf.fs_dampening_factor)
			bucket_conf.damp = slurm_conf.fs_dampening_factor;
		(void) sb_priority_params_parse(slurm_conf.priority_params,
						&bucket_conf.params, NULL, 0);
		return SLURM_SUCCESS;
	}
	in_ctld = true;

	bucket_conf.calc_fairshare = slurm_with_slurmdbd();
	if (!bucket_conf.calc_fairshare) {
		if (slurm_conf.priority_weight_age)
			error(BUCKET_PFX "PriorityWeightAge needs accounting with slurmdbd, ignoring it");
		if (slurm_conf.priority_weight_fs)
			error(BUCKET_PFX "PriorityWeightFairshare needs accounting with slurmdbd, ignoring it");
	} else if (!assoc_mgr_root_assoc) {
		error(BUCKET_PFX "no association data (no root association): fair share is off until slurmctld restarts with the database reachable");
		bucket_conf.calc_fairshare = false;
	}
	_setup(true);

	if (site_factor_plugin_init() == SLURM_SUCCESS)
		site_factor_loaded = true;
	else
		error(BUCKET_PFX "cannot load the site factor plugin");

	if (bucket_usage_start() != SLURM_SUCCESS)
		return SLURM_ERROR;
	debug("%s loaded", plugin_name);
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	if (in_ctld) {
		bucket_usage_stop();
		if (site_factor_loaded)
			site_factor_plugin_fini();
		site_factor_loaded = false;
		bucket_assoc_fini();
		in_ctld = false;
	}
	slurm_mutex_lock(&bucket_conf_lock);
	xfree(bucket_conf.weight_tres);
	bucket_conf.tres_cnt = 0;
	slurm_mutex_unlock(&bucket_conf_lock);
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
	_setup(false);
	bucket_usage_reconfig(assoc_clear);
	if (site_factor_loaded)
		site_factor_g_reconfig();
	debug2("%s reconfigured", plugin_name);
}

extern void priority_p_set_assoc_usage(slurmdb_assoc_rec_t *assoc)
{
	if (!assoc || !assoc->usage)
		return;
	bucket_assoc_set_usage(assoc);
}

/*
 * The classic factor 2^(-(UE / S) / FairShareDampeningFactor). sshare
 * prints it for every association when the Fair Tree flag is off, and
 * slurmctld uses it for QOS UsageThreshold.
 */
extern double priority_p_calc_fs_factor(long double usage_efctv,
					long double shares_norm)
{
	uint32_t damp = bucket_conf.damp ? bucket_conf.damp : 1;

	if (fuzzy_equal(usage_efctv, NO_VAL) || isnan(usage_efctv))
		return 0.0;
	return sb_fairshare_classic_factor(usage_efctv, shares_norm, damp);
}

extern List priority_p_get_priority_factors_list(
	priority_factors_request_msg_t *req_msg, uid_t uid)
{
	if (!req_msg || !in_ctld)
		return NULL;
	return bucket_job_factors_list(req_msg, uid);
}

/* Job write lock held (acct_policy_job_fini). */
extern void priority_p_job_end(job_record_t *job_ptr)
{
	if (!in_ctld || !job_ptr)
		return;
	log_flag(PRIO, "%s: %pJ", __func__, job_ptr);
	bucket_usage_job_end(job_ptr);
}
