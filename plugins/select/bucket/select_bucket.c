/*
 * select_bucket.c - select/bucket: whole-node selection by node buckets
 * (OpenPBS) with Maui's allocation policies, for Slurm 22.05.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * This file holds the framework's entry points, bucket.conf and the
 * lock; the work is in the other files (select_bucket.h).
 *
 * Every Slurm program that loads the select plugins loads all of them
 * (sinfo, squeue, srun, slurmd...): there init() does nothing but exist,
 * and the node data functions unpack what slurmctld packed. Only
 * slurmctld reads bucket.conf and builds buckets.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/read_config.h"
#include "src/common/run_in_daemon.h"
#include "src/common/select.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

#include "select_bucket.h"

const char plugin_name[] = "Bucket node selection plugin (node buckets, Maui policies)";
const char plugin_type[] = "select/bucket";
/*
 * Unique among every select_*.so in PluginDir: Slurm 22.05 uses 101-110
 * (slurm.h, enum select_plugin_type) and refuses duplicates and ids
 * below 100. 170 is ours; see select_bucket(8).
 */
const uint32_t plugin_id = 170;
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

sb_bucket_conf_t *bucket_conf = NULL;

static bool in_ctld = false;
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

/* Every node bucket.conf names must exist in slurm.conf. */
static int _check_conf_nodes(const sb_bucket_conf_t *c)
{
	size_t i, n = sb_bucket_conf_node_count(c);

	for (i = 0; i < n; i++) {
		const sb_bucket_conf_node_t *bn = sb_bucket_conf_node_at(c, i);

		if (!find_node_record((char *) bn->name)) {
			error(BUCKET_PFX "%s:%zu: NodeName=%s: no such node in slurm.conf",
			      conf_path, bn->line, bn->name);
			return SLURM_ERROR;
		}
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

	if (c && (_check_conf_nodes(c) != SLURM_SUCCESS)) {
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

extern int init(void)
{
	if (!running_in_slurmctld())
		return SLURM_SUCCESS;
	in_ctld = true;
	if (slurm_conf.select_type_param & (CR_CPU | CR_CORE | CR_SOCKET))
		info("SelectTypeParameters CR_CPU/CR_CORE/CR_SOCKET have no effect: jobs get whole nodes");
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
	return SLURM_SUCCESS;
}

extern int select_p_state_save(char *dir_name)
{
	/* nothing of ours to save: rebuilt from the job list */
	return SLURM_SUCCESS;
}

extern int select_p_state_restore(char *dir_name)
{
	return SLURM_SUCCESS;
}

extern int select_p_job_init(List job_list_arg)
{
	int rc;

	if (!in_ctld)
		return SLURM_SUCCESS;
	slurm_mutex_lock(&bucket_lock);
	rc = state_build();
	slurm_mutex_unlock(&bucket_lock);
	return rc;
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
	part_record_t *part_ptr;
	ListIterator itr;
	int rc;

	if (!in_ctld)
		return SLURM_SUCCESS;
	rc = _rebuild();
	if (part_list) {
		itr = list_iterator_create(part_list);
		while ((part_ptr = list_next(itr)))
			if ((part_ptr->max_share & ~SHARED_FORCE) > 1)
				info("partition %s: OverSubscribe has no effect, a node runs one job at a time",
				     part_ptr->name);
		list_iterator_destroy(itr);
	}
	return rc;
}

extern int select_p_job_test(job_record_t *job_ptr, bitstr_t *bitmap,
			     uint32_t min_nodes, uint32_t max_nodes,
			     uint32_t req_nodes, uint16_t mode,
			     List preemptee_candidates,
			     List *preemptee_job_list,
			     bitstr_t *exc_core_bitmap)
{
	int rc;

	if (!job_ptr || !job_ptr->details || !bitmap)
		return EINVAL;
	if (job_ptr->details->core_spec != NO_VAL16) {
		verbose("%pJ: core specialization has no meaning with whole nodes, ignored",
			job_ptr);
		job_ptr->details->core_spec = NO_VAL16;
	}
	slurm_mutex_lock(&bucket_lock);
	rc = job_test(job_ptr, bitmap, min_nodes, max_nodes, req_nodes, mode,
		      preemptee_candidates, preemptee_job_list);
	slurm_mutex_unlock(&bucket_lock);
	return rc;
}

extern int select_p_job_begin(job_record_t *job_ptr)
{
	slurm_mutex_lock(&bucket_lock);
	state_job_begin(job_ptr);
	resrcs_gres_alloc(job_ptr);
	slurm_mutex_unlock(&bucket_lock);
	log_flag(SELECT_TYPE, "%pJ holds its nodes", job_ptr);
	return SLURM_SUCCESS;
}

/* 1 when every node is powered up, 0 while some are booting. */
extern int select_p_job_ready(job_record_t *job_ptr)
{
	node_record_t *node_ptr;
	int i;

	if (!IS_JOB_RUNNING(job_ptr) && !IS_JOB_SUSPENDED(job_ptr))
		return 0;
	if (!job_ptr->node_bitmap)
		return READY_NODE_STATE;
	for (i = 0; (node_ptr = next_node(&i)); i++)
		if (bit_test(job_ptr->node_bitmap, node_ptr->index) &&
		    (IS_NODE_POWERED_DOWN(node_ptr) ||
		     IS_NODE_POWERING_UP(node_ptr)))
			return 0;
	return READY_NODE_STATE;
}

extern int select_p_job_expand(job_record_t *from_job_ptr,
			       job_record_t *to_job_ptr)
{
	error(BUCKET_PFX "%pJ cannot grow by the nodes of %pJ: job expansion is not supported",
	      to_job_ptr, from_job_ptr);
	return ESLURM_NOT_SUPPORTED;
}

/* The job gave back one node (it shrank). */
extern int select_p_job_resized(job_record_t *job_ptr, node_record_t *node_ptr)
{
	if (!node_ptr)
		return SLURM_SUCCESS;
	slurm_mutex_lock(&bucket_lock);
	state_job_shrink(job_ptr, node_ptr->index);
	slurm_mutex_unlock(&bucket_lock);
	log_flag(SELECT_TYPE, "%pJ released %s", job_ptr, node_ptr->name);
	return SLURM_SUCCESS;
}

extern int select_p_job_signal(job_record_t *job_ptr, int signal)
{
	return SLURM_SUCCESS;
}

extern int select_p_job_fini(job_record_t *job_ptr)
{
	slurm_mutex_lock(&bucket_lock);
	if (state_job_end(job_ptr))
		resrcs_gres_dealloc(job_ptr);
	slurm_mutex_unlock(&bucket_lock);
	log_flag(SELECT_TYPE, "%pJ released its nodes", job_ptr);
	return SLURM_SUCCESS;
}

/* A suspended job keeps its whole nodes: nothing changes hands. */
extern int select_p_job_suspend(job_record_t *job_ptr, bool indf_susp)
{
	return SLURM_SUCCESS;
}

extern int select_p_job_resume(job_record_t *job_ptr, bool indf_susp)
{
	return SLURM_SUCCESS;
}

/* Steps: slurmctld picks their nodes inside the whole-node allocation. */
extern bitstr_t *select_p_step_pick_nodes(job_record_t *job_ptr,
					  select_jobinfo_t *jobinfo,
					  uint32_t node_count,
					  bitstr_t **avail_nodes)
{
	return NULL;
}

extern int select_p_step_start(step_record_t *step_ptr)
{
	return SLURM_SUCCESS;
}

extern int select_p_step_finish(step_record_t *step_ptr, bool killing_step)
{
	return SLURM_SUCCESS;
}

static void _add_pair(List l, const char *name, const char *value)
{
	config_key_pair_t *p = xmalloc(sizeof(*p));

	p->name = xstrdup(name);
	p->value = xstrdup(value);
	list_append(l, p);
}

/* bucket.conf's effective settings, for 'scontrol show config'. */
static List _config_pairs(void)
{
	List l = list_create(destroy_config_key_pair);
	char *text, *line, *save = NULL, *eq, buf[64];

	slurm_mutex_lock(&bucket_lock);
	_add_pair(l, "BucketConf", conf_path ? conf_path : "(none)");
	snprintf(buf, sizeof(buf), "%zu",
		 sb_bucket_set_size(bucket_state.set));
	_add_pair(l, "NodeBuckets", buf);
	if (bucket_conf && (text = sb_bucket_conf_fmt(bucket_conf))) {
		for (line = strtok_r(text, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			if (!(eq = strchr(line, '=')))
				continue;
			*eq = '\0';
			if (!strcmp(line, "NodeName")) {
				/* "n[1-4] Speed=2" */
				*eq = '=';
				_add_pair(l, "NodeSpeed", line +
					  strlen("NodeName="));
				continue;
			}
			_add_pair(l, line, eq + 1);
		}
		free(text);
	}
	slurm_mutex_unlock(&bucket_lock);
	return l;
}

extern int select_p_get_info_from_plugin(enum select_plugindata_info dinfo,
					 job_record_t *job_ptr, void *data)
{
	switch (dinfo) {
	case SELECT_CONFIG_INFO:
		*(List *) data = in_ctld ? _config_pairs() : NULL;
		break;
	case SELECT_SINGLE_JOB_TEST:
		/*
		 * One call with every node set: the policy (Weight first)
		 * orders the nodes, not slurmctld's weight tiers.
		 */
		*(uint16_t *) data = 1;
		break;
	default:
		/* SELECT_CR_PLUGIN: not consumable resources (whole nodes) */
		break;
	}
	return SLURM_SUCCESS;
}

extern int select_p_update_node_config(int index)
{
	/* a node registered: if it changed, rebuilt on next use */
	if (!in_ctld)
		return SLURM_SUCCESS;
	slurm_mutex_lock(&bucket_lock);
	state_node_config(index);
	slurm_mutex_unlock(&bucket_lock);
	return SLURM_SUCCESS;
}

extern int select_p_reconfigure(void)
{
	if (!in_ctld)
		return SLURM_SUCCESS;
	return _rebuild();
}

extern bitstr_t *select_p_resv_test(resv_desc_msg_t *resv_desc_ptr,
				    uint32_t node_cnt, bitstr_t *avail_bitmap,
				    bitstr_t **core_bitmap)
{
	bitstr_t *b;

	slurm_mutex_lock(&bucket_lock);
	b = job_test_resv(node_cnt, avail_bitmap);
	slurm_mutex_unlock(&bucket_lock);
	return b;
}
