/*
 * select_bucket.c - select/bucket: node buckets (OpenPBS) and Maui's
 * allocation policies choose the nodes of whole-node exclusive jobs; a
 * base select plugin of Slurm's own allocates them (select_bucket.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * This file holds the framework's entry points select/bucket answers
 * itself (start, reconfigure, job_test, job_begin); select_data.c those
 * of node and job data, where the framework has them; every other one
 * passes the call to the base, which owns the allocations and their
 * state (plugins/compat/select_forward.c, generated from
 * select_ops.def). job_test is bucket_job_place.c's. Ours on top:
 * bucket.conf, the model's rebuilds (start, reconfigure, a node's new
 * configuration), and our lines in 'scontrol show config'.
 *
 * Every Slurm program that loads the select plugins loads ours (sinfo,
 * squeue, srun, slurmd...). Where select/bucket is the cluster's
 * SelectType, init() loads the base bucket.conf (or, on 22.05,
 * slurm.conf) names; elsewhere init() does nothing, and the base is
 * loaded only if data we packed must be read (bucket_base.c). Only
 * slurmctld builds buckets.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "sb_slurm.h"

#include "select_bucket.h"

const char plugin_name[] = "Bucket node selection plugin (node buckets, Maui policies) over a base select plugin";
const char plugin_type[] = "select/bucket";
/*
 * Unique among every select_*.so in PluginDir: Slurm 22.05 uses 101-110
 * (slurm.h, enum select_plugin_type) and refuses duplicates and ids
 * below 100. 170 is ours; see select_bucket(8). Where slurmctld tells
 * cons_tres by its id (25.05 on) it becomes the base's once that is
 * loaded (sb_select.h, SB_PLUGIN_ID_CONST).
 */
SB_PLUGIN_ID_CONST uint32_t plugin_id = 170;
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

sb_bucket_conf_t *bucket_conf = NULL;

static bool active = false;	/* we are the cluster's SelectType */
static bool in_ctld = false;	/* ... in slurmctld */
static bool started = false;	/* the first node_init succeeded */
static char *conf_path = NULL;

/*
 * Read bucket.conf (next to slurm.conf). A missing file means the
 * defaults. Returns the new configuration, or NULL after logging one
 * line that names the file, line, key and value.
 */
static sb_bucket_conf_t *_load_conf(void)
{
	char err[SB_BUCKET_CONF_ERRLEN];
	sb_bucket_conf_t *c;

	xfree(conf_path);
	conf_path = get_extra_conf_path("bucket.conf");
	if (!(c = sb_bucket_conf_load(conf_path, err, sizeof(err)))) {
		if (errno == ENOENT) {
			c = sb_bucket_conf_parse("", conf_path, err,
						 sizeof(err));
			if (c)
				info("no %s: the defaults apply", conf_path);
		}
		if (!c)
			error(BUCKET_PFX "%s", err);
	}
	return c;
}

/*
 * Every node and every partition bucket.conf names must exist in
 * slurm.conf: one error line naming the first that does not.
 */
static int _check_conf_names(const sb_bucket_conf_t *c)
{
	size_t i, nn = sb_bucket_conf_node_count(c);
	size_t np = sb_bucket_conf_part_count(c);
	const char *key, *what, *name;
	size_t line;

	for (i = 0; i < nn + np; i++) {
		if (i < nn) {
			const sb_bucket_conf_node_t *bn =
				sb_bucket_conf_node_at(c, i);

			if (find_node_record((char *) bn->name))
				continue;
			key = "NodeName";
			what = "node";
			name = bn->name;
			line = bn->line;
		} else {
			const sb_bucket_conf_part_t *bp =
				sb_bucket_conf_part_at(c, i - nn);

			if (find_part_record((char *) bp->name))
				continue;
			key = "PartitionName";
			what = "partition";
			name = bp->name;
			line = bp->line;
		}
		error(BUCKET_PFX "%s:%zu: %s=%s: no such %s in slurm.conf",
		      conf_path, line, key, name, what);
		return SLURM_ERROR;
	}
	return SLURM_SUCCESS;
}

/*
 * The base is loaded once, at start: a BaseSelectType that names another
 * one takes a restart of every daemon, as a SelectType change does.
 */
static int _check_conf_base(const sb_bucket_conf_t *c)
{
	const char *want = base_configured(c);

	if (!want)
		return SLURM_ERROR;
	if (base_name() && xstrcmp(want, base_name())) {
		error(BUCKET_PFX "%s: BaseSelectType=%s: the base plugin is %s until slurmctld and every slurmd restart",
		      conf_path, want, base_name());
		return SLURM_ERROR;
	}
	return SLURM_SUCCESS;
}

/*
 * Take bucket.conf again. At start a bad file is fatal (one clear line);
 * on reconfigure the old settings stay and the error is logged.
 */
static void _reload_conf(void)
{
	sb_bucket_conf_t *c = _load_conf();

	if (c && ((_check_conf_names(c) != SLURM_SUCCESS) ||
		  (_check_conf_base(c) != SLURM_SUCCESS))) {
		sb_bucket_conf_free(c);
		c = NULL;
	}
	if (!c) {
		if (!started)
			fatal(BUCKET_PFX "%s is not valid, see the error above",
			      conf_path);
		error(BUCKET_PFX "keeping the previous settings of %s",
		      conf_path);
		return;
	}
	sb_bucket_conf_free(bucket_conf);
	bucket_conf = c;
	info("NodeAllocationPolicy=%s from %s",
	     sb_policy_name(sb_bucket_conf_policy(c)->kind), conf_path);
}

extern bool bucket_in_ctld(void)
{
	return in_ctld;
}

extern const char *bucket_conf_file(void)
{
	return conf_path ? conf_path : "(none)";
}

extern int init(void)
{
	sb_bucket_conf_t *c;
	int rc;

	if (xstrcasecmp(slurm_conf.select_type, plugin_type))
		return SLURM_SUCCESS;	/* present in PluginDir, not used */
	if (!running_in_slurmctld()) {
		/*
		 * Every entry point forwards to the base: load the one
		 * bucket.conf (if readable here) or slurm.conf names; node
		 * data packed over another base say so (bucket_base.c).
		 */
		if (base_load(NULL) != SLURM_SUCCESS)
			return SLURM_ERROR;
		active = true;
		return SLURM_SUCCESS;
	}
	/*
	 * slurmctld: the base is in bucket.conf, so a bad file stops it
	 * here with the file's own line (read again with the nodes).
	 */
	if (!(c = _load_conf()))
		fatal(BUCKET_PFX "%s is not valid, see the error above",
		      conf_path);
	rc = base_load(c);
	sb_bucket_conf_free(c);
	if (rc != SLURM_SUCCESS)
		fatal(BUCKET_PFX "no base plugin, see the error above");
	active = true;
	in_ctld = true;
	/*
	 * Slurm checks this for select/linear itself (select_g_init()),
	 * but not for a plugin layered over it.
	 */
	if (!base_is_cons() && (slurm_conf.select_type_param &
				(CR_CPU | CR_CORE | CR_SOCKET)))
		fatal(BUCKET_PFX "SelectTypeParameters=%s: CR_CPU, CR_CORE and CR_SOCKET need a consumable-resource base (BaseSelectType=select/cons_tres in bucket.conf); over %s jobs get whole nodes",
		      select_type_param_string(slurm_conf.select_type_param),
		      base_name());
	/*
	 * Slurm gives SelectType=select/cons_tres CR_Core_Memory when
	 * SelectTypeParameters is not set, but not a plugin of another
	 * name: say so here rather than let cons_tres refuse "NONE".
	 */
	if (base_is_cons() && !(slurm_conf.select_type_param &
				(CR_CPU | CR_CORE | CR_SOCKET)))
		fatal(BUCKET_PFX "SelectTypeParameters=%s: over %s set CR_CPU, CR_Core or CR_Socket (with or without _Memory), e.g. SelectTypeParameters=CR_Core_Memory: Slurm's default applies to SelectType=%s only",
		      select_type_param_string(slurm_conf.select_type_param),
		      base_name(), base_name());
	info("choosing nodes over the base plugin %s", base_name());
	/* bucket.conf is read in select_p_node_init(), with the nodes */
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	slurm_mutex_lock(&bucket_lock);
	state_free();
	sb_bucket_conf_free(bucket_conf);
	bucket_conf = NULL;
	xfree(conf_path);
	slurm_mutex_unlock(&bucket_lock);
	base_unload();
	active = in_ctld = false;
	return SLURM_SUCCESS;
}

/* bucket.conf and the buckets again (start, reconfigure). */
static int _rebuild(void)
{
	int rc;

	slurm_mutex_lock(&bucket_lock);
	_reload_conf();
	rc = state_build();
	if (rc == SLURM_SUCCESS)
		started = true;
	slurm_mutex_unlock(&bucket_lock);
	return rc;
}

extern int select_p_node_init(void)
{
	int rc = (*base.node_init)();

	if ((rc != SLURM_SUCCESS) || !in_ctld)
		return rc;
	return _rebuild();
}

extern int select_p_job_test(job_record_t *job_ptr, bitstr_t *bitmap,
			     uint32_t min_nodes, uint32_t max_nodes,
			     uint32_t req_nodes, uint16_t mode,
			     list_t *preemptee_candidates,
			     list_t **preemptee_job_list,
			     SB_JOB_TEST_TAIL_PARAMS)
{
	sb_job_test_t t = SB_JOB_TEST_INIT;

	offers_call_seen();
	if (!job_ptr || !job_ptr->details || !bitmap)
		return EINVAL;
	return job_test(&t);
}

extern int select_p_job_begin(job_record_t *job_ptr)
{
	slurm_mutex_lock(&bucket_lock);
	state_job_begin(job_ptr);
	slurm_mutex_unlock(&bucket_lock);
	return (*base.job_begin)(job_ptr);
}

/*
 * A change of the running jobs WILL_RUN's kept plan does not follow (a
 * job ended, was suspended, resumed, resized or expanded): the entry
 * points of select_forward.c tell us before they pass the call on.
 */
extern void bucket_jobs_changed(void)
{
	slurm_mutex_lock(&bucket_lock);
	state_plan_behind();
	slurm_mutex_unlock(&bucket_lock);
}

extern int select_p_reconfigure(void)
{
	int rc = (*base.reconfigure)();

	if (!in_ctld)
		return rc;
	if (_rebuild() != SLURM_SUCCESS)
		rc = SLURM_ERROR;
	return rc;
}

