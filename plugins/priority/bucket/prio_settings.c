/*
 * prio_settings.c - priority/bucket's settings: slurm.conf's priority
 * keys and PriorityParameters, read once per (re)configure, read by the
 * other files of the plugin (see priority_bucket.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Only this file writes prio_settings; it calls no other file of the
 * plugin, so the others depend on it and never the other way round.
 */
#include "config.h"

#include <string.h>

#include "sb_slurm.h"

#include "priority_bucket.h"

pthread_mutex_t prio_settings_lock = PTHREAD_MUTEX_INITIALIZER;
prio_settings_t prio_settings;

extern void prio_settings_snapshot(prio_settings_t *out, double *tres,
				   int tres_cnt)
{
	slurm_mutex_lock(&prio_settings_lock);
	*out = prio_settings;
	out->weight_tres = NULL;
	if (tres && (tres_cnt > 0)) {
		memset(tres, 0, sizeof(double) * tres_cnt);
		if (prio_settings.weight_tres)
			memcpy(tres, prio_settings.weight_tres, sizeof(double) *
			       MIN(tres_cnt, prio_settings.tres_cnt));
		out->weight_tres = tres;
		out->tres_cnt = tres_cnt;
	} else {
		out->tres_cnt = 0;
		out->have_weight_tres = false;
	}
	slurm_mutex_unlock(&prio_settings_lock);
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
	      sb_priority_params_fmt(&prio_settings.params, canon,
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

/* slurm_conf -> prio_settings (slurmctld only). */
extern void prio_settings_load(bool starting)
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

	slurm_mutex_lock(&prio_settings_lock);
	if (params_ok)
		prio_settings.params = params;
	prio_settings.damp = slurm_conf.fs_dampening_factor ?
		slurm_conf.fs_dampening_factor : 1;
	prio_settings.max_age = slurm_conf.priority_max_age;
	prio_settings.weight_age = slurm_conf.priority_weight_age;
	prio_settings.weight_assoc = slurm_conf.priority_weight_assoc;
	prio_settings.weight_fs = slurm_conf.priority_weight_fs;
	prio_settings.weight_js = slurm_conf.priority_weight_js;
	prio_settings.weight_part = slurm_conf.priority_weight_part;
	prio_settings.weight_qos = slurm_conf.priority_weight_qos;
	prio_settings.flags = slurm_conf.priority_flags;
	xfree(prio_settings.weight_tres);
	prio_settings.weight_tres = weight_tres;
	prio_settings.have_weight_tres = (weight_tres != NULL);
	prio_settings.tres_cnt = weight_tres ? slurmctld_tres_cnt : 0;
	if (!prio_settings.calc_fairshare) {
		/* as priority/multifactor: both need the database */
		prio_settings.weight_age = 0;
		prio_settings.weight_fs = 0;
	}
	slurm_mutex_unlock(&prio_settings_lock);

	info("%s, fair share %s", sb_priority_params_fmt(
		     &prio_settings.params, canon, sizeof(canon)) ? canon : "?",
	     prio_settings.calc_fairshare ? "on" : "off (no slurmdbd)");
	log_flag(PRIO, "weights age=%u assoc=%u fairshare=%u jobsize=%u partition=%u qos=%u tres=%s max_age=%u damp=%u flags=0x%x",
		 prio_settings.weight_age, prio_settings.weight_assoc,
		 prio_settings.weight_fs, prio_settings.weight_js,
		 prio_settings.weight_part, prio_settings.weight_qos,
		 slurm_conf.priority_weight_tres ?
		 slurm_conf.priority_weight_tres : "none",
		 prio_settings.max_age, prio_settings.damp, prio_settings.flags);
}

extern void prio_settings_init(bool in_ctld)
{
	sb_priority_params_default(&prio_settings.params);
	prio_settings.damp = 1;

	if (!in_ctld) {
		if (slurm_conf.fs_dampening_factor)
			prio_settings.damp = slurm_conf.fs_dampening_factor;
		(void) sb_priority_params_parse(slurm_conf.priority_params,
						&prio_settings.params, NULL, 0);
		return;
	}
	prio_settings.calc_fairshare = slurm_with_slurmdbd();
	if (!prio_settings.calc_fairshare) {
		if (slurm_conf.priority_weight_age)
			error(BUCKET_PFX "PriorityWeightAge needs accounting with slurmdbd, ignoring it");
		if (slurm_conf.priority_weight_fs)
			error(BUCKET_PFX "PriorityWeightFairshare needs accounting with slurmdbd, ignoring it");
	} else if (!assoc_mgr_root_assoc) {
		error(BUCKET_PFX "no association data (no root association): fair share is off until slurmctld restarts with the database reachable");
		prio_settings.calc_fairshare = false;
	}
	prio_settings_load(true);
}

extern void prio_settings_fini(void)
{
	slurm_mutex_lock(&prio_settings_lock);
	xfree(prio_settings.weight_tres);
	prio_settings.tres_cnt = 0;
	slurm_mutex_unlock(&prio_settings_lock);
}
