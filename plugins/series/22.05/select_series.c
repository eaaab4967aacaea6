/*
 * select_series.c - select/bucket's entry points and series hooks for
 * Slurm 22.05 (select_bucket.h, series_*()).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * 22.05's select framework has 37 entry points; five of them are gone in
 * 24.11 (job_signal, jobinfo_sprint, jobinfo_xstrdup, update_node_config,
 * resv_test) and job_test's last argument differs, so they live here.
 * Job data carry the base's plugin_id in front of the base's bytes (see
 * bucket_base.c), so a slurmctld switched back to the base reads the
 * jobs we saved. slurmctld asks whether the plugin takes one job_test
 * call with every node (SELECT_SINGLE_JOB_TEST): we do, so our policies
 * see every node, and the jobs the base places reach it as slurmctld
 * would have called it (node_sets.c for a base that takes node sets).
 */
#include "config.h"

#include "sb_slurm.h"

#include "select_data.h"

/* slurm_select_ops_t of src/common/select.h, field by field. */
const char *series_base_syms[] = {
	"plugin_id",
	"select_p_state_save",
	"select_p_state_restore",
	"select_p_job_init",
	"select_p_node_init",
	"select_p_job_test",
	"select_p_job_begin",
	"select_p_job_ready",
	"select_p_job_expand",
	"select_p_job_resized",
	"select_p_job_signal",
	"select_p_job_fini",
	"select_p_job_suspend",
	"select_p_job_resume",
	"select_p_step_pick_nodes",
	"select_p_step_start",
	"select_p_step_finish",
	"select_p_select_nodeinfo_pack",
	"select_p_select_nodeinfo_unpack",
	"select_p_select_nodeinfo_alloc",
	"select_p_select_nodeinfo_free",
	"select_p_select_nodeinfo_set_all",
	"select_p_select_nodeinfo_set",
	"select_p_select_nodeinfo_get",
	"select_p_select_jobinfo_alloc",
	"select_p_select_jobinfo_free",
	"select_p_select_jobinfo_set",
	"select_p_select_jobinfo_get",
	"select_p_select_jobinfo_copy",
	"select_p_select_jobinfo_pack",
	"select_p_select_jobinfo_unpack",
	"select_p_select_jobinfo_sprint",
	"select_p_select_jobinfo_xstrdup",
	"select_p_get_info_from_plugin",
	"select_p_update_node_config",
	"select_p_reconfigure",
	"select_p_resv_test",
};
const size_t series_base_syms_size = sizeof(series_base_syms);

_Static_assert(sizeof(series_base_syms) == sizeof(sb_select_ops_t),
	       "one symbol per entry of slurm_select_ops_t");

/* The base answers SELECT_SINGLE_JOB_TEST itself (linear leaves 0). */
static uint32_t g_single = 0;

extern const char *series_base_from_slurm_conf(void)
{
	if (slurm_conf.select_type_param & CR_OTHER_CONS_TRES)
		return "select/cons_tres";
	if (slurm_conf.select_type_param & CR_OTHER_CONS_RES)
		return "select/cons_res";
	return NULL;
}

extern void series_base_loaded(void)
{
	g_single = 0;
	(void) (*base.get_info_from_plugin)(SELECT_SINGLE_JOB_TEST, NULL,
					    &g_single);
	debug("base plugin takes one job_test call with every node: %s",
	      g_single ? "yes" : "no");
}

extern bool series_get_info(enum select_plugindata_info dinfo, void *data)
{
	/*
	 * One job_test call with every node, whatever the base wants: our
	 * policies order all the nodes (Weight first), and for a base that
	 * takes node sets one at a time we replay slurmctld's calls.
	 */
	if (dinfo != SELECT_SINGLE_JOB_TEST)
		return false;
	*(uint32_t *) data = 1;
	return true;
}

extern int series_base_test(job_record_t *job_ptr, bitstr_t *bitmap,
			    uint32_t min_nodes, uint32_t max_nodes,
			    uint32_t req_nodes, uint16_t mode,
			    list_t *preemptee_candidates,
			    list_t **preemptee_job_list,
			    const sb_job_test_extra_t *x, bool shares)
{
	if (SELECT_IS_MODE_RUN_NOW(mode) && !g_single)
		return node_sets_run_now(job_ptr, bitmap, min_nodes,
					 max_nodes, req_nodes, mode,
					 preemptee_candidates,
					 preemptee_job_list, x, shares);
	return sb_base_job_test(job_ptr, bitmap, min_nodes, max_nodes,
				req_nodes, mode, preemptee_candidates,
				preemptee_job_list, x);
}

/* Every node comes in one call: nothing to add, nothing to wait for. */
extern bitstr_t *series_candidates(job_record_t *job_ptr, bitstr_t *bitmap,
				   uint16_t mode, uint32_t min_nodes,
				   uint32_t max_nodes, uint32_t req_nodes)
{
	return NULL;
}

extern void series_outside_offer(job_record_t *job_ptr)
{
}

extern int select_p_job_test(job_record_t *job_ptr, bitstr_t *bitmap,
			     uint32_t min_nodes, uint32_t max_nodes,
			     uint32_t req_nodes, uint16_t mode,
			     list_t *preemptee_candidates,
			     list_t **preemptee_job_list,
			     bitstr_t *exc_core_bitmap)
{
	sb_job_test_extra_t x = { .exc_core_bitmap = exc_core_bitmap };

	if (!job_ptr || !job_ptr->details || !bitmap)
		return EINVAL;
	return job_test(job_ptr, bitmap, min_nodes, max_nodes, req_nodes,
			mode, preemptee_candidates, preemptee_job_list, &x);
}

extern int select_p_job_signal(job_record_t *job_ptr, int signal)
{
	return (*base.job_signal)(job_ptr, signal);
}

extern int select_p_select_jobinfo_pack(select_jobinfo_t *jobinfo,
					buf_t *buffer,
					uint16_t protocol_version)
{
	if (base_header_pack(buffer) != SLURM_SUCCESS)
		return SLURM_ERROR;
	return (*base.jobinfo_pack)(jobinfo, buffer, protocol_version);
}

extern int select_p_select_jobinfo_unpack(select_jobinfo_t **jobinfo,
					  buf_t *buffer,
					  uint16_t protocol_version)
{
	*jobinfo = NULL;
	if (base_header_unpack(buffer, "job") != SLURM_SUCCESS)
		return SLURM_ERROR;
	return (*base.jobinfo_unpack)(jobinfo, buffer, protocol_version);
}

extern char *select_p_select_jobinfo_sprint(select_jobinfo_t *jobinfo,
					    char *buf, size_t size, int mode)
{
	if (!base_ready())
		return NULL;
	return (*base.jobinfo_sprint)(jobinfo, buf, size, mode);
}

extern char *select_p_select_jobinfo_xstrdup(select_jobinfo_t *jobinfo,
					     int mode)
{
	if (!base_ready())
		return NULL;
	return (*base.jobinfo_xstrdup)(jobinfo, mode);
}

extern int select_p_update_node_config(int index)
{
	int rc = (*base.update_node_config)(index);

	/* a node registered: if it changed, rebuilt on next use */
	if (bucket_in_ctld()) {
		slurm_mutex_lock(&bucket_lock);
		state_node_config(index);
		slurm_mutex_unlock(&bucket_lock);
	}
	return rc;
}

extern bitstr_t *select_p_resv_test(resv_desc_msg_t *resv_desc_ptr,
				    uint32_t node_cnt, bitstr_t *avail_bitmap,
				    bitstr_t **core_bitmap)
{
	return (*base.resv_test)(resv_desc_ptr, node_cnt, avail_bitmap,
				 core_bitmap);
}
