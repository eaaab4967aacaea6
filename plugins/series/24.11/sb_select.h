/*
 * sb_select.h - the select framework of Slurm 24.11 as select/bucket
 * sees it (see plugins/series/22.05/sb_select.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * 24.11 keeps its operation table private to src/interfaces/select.c:
 * this is the same table, field for field (32 entries, no job_signal,
 * jobinfo_sprint, jobinfo_xstrdup, update_node_config or resv_test), for
 * the base plugin we load ourselves. series_base_syms[] in
 * select_series.c names its symbols in this order.
 */
#ifndef SB_SELECT_H
#define SB_SELECT_H

#include "sb_slurm.h"

typedef struct {
	uint32_t *plugin_id;
	int (*state_save)(char *dir_name);
	int (*state_restore)(char *dir_name);
	int (*job_init)(list_t *job_list);
	int (*node_init)(void);
	int (*job_test)(job_record_t *job_ptr, bitstr_t *bitmap,
			uint32_t min_nodes, uint32_t max_nodes,
			uint32_t req_nodes, uint16_t mode,
			list_t *preemptee_candidates,
			list_t **preemptee_job_list,
			resv_exc_t *resv_exc_ptr,
			will_run_data_t *will_run_ptr);
	int (*job_begin)(job_record_t *job_ptr);
	int (*job_ready)(job_record_t *job_ptr);
	int (*job_expand)(job_record_t *from_job_ptr,
			  job_record_t *to_job_ptr);
	int (*job_resized)(job_record_t *job_ptr, node_record_t *node_ptr);
	int (*job_fini)(job_record_t *job_ptr);
	int (*job_suspend)(job_record_t *job_ptr, bool indf_susp);
	int (*job_resume)(job_record_t *job_ptr, bool indf_susp);
	bitstr_t *(*step_pick_nodes)(job_record_t *job_ptr,
				     select_jobinfo_t *step_jobinfo,
				     uint32_t node_count,
				     bitstr_t **avail_nodes);
	int (*step_start)(step_record_t *step_ptr);
	int (*step_finish)(step_record_t *step_ptr, bool killing_step);
	int (*nodeinfo_pack)(select_nodeinfo_t *nodeinfo, buf_t *buffer,
			     uint16_t protocol_version);
	int (*nodeinfo_unpack)(select_nodeinfo_t **nodeinfo, buf_t *buffer,
			       uint16_t protocol_version);
	select_nodeinfo_t *(*nodeinfo_alloc)(void);
	int (*nodeinfo_free)(select_nodeinfo_t *nodeinfo);
	int (*nodeinfo_set_all)(void);
	int (*nodeinfo_set)(job_record_t *job_ptr);
	int (*nodeinfo_get)(select_nodeinfo_t *nodeinfo,
			    enum select_nodedata_type dinfo,
			    enum node_states state, void *data);
	select_jobinfo_t *(*jobinfo_alloc)(void);
	int (*jobinfo_free)(select_jobinfo_t *jobinfo);
	int (*jobinfo_set)(select_jobinfo_t *jobinfo,
			   enum select_jobdata_type data_type, void *data);
	int (*jobinfo_get)(select_jobinfo_t *jobinfo,
			   enum select_jobdata_type data_type, void *data);
	select_jobinfo_t *(*jobinfo_copy)(select_jobinfo_t *jobinfo);
	int (*jobinfo_pack)(select_jobinfo_t *jobinfo, buf_t *buffer,
			    uint16_t protocol_version);
	int (*jobinfo_unpack)(select_jobinfo_t **jobinfo_pptr,
			      buf_t *buffer, uint16_t protocol_version);
	int (*get_info_from_plugin)(enum select_plugindata_info dinfo,
				    job_record_t *job_ptr, void *data);
	int (*reconfigure)(void);
} sb_select_ops_t;

#include "sb_job_test_args.h"

/* select/bucket's plugin_id is its own (select_bucket.c): a constant. */
#define SB_PLUGIN_ID_CONST const

#endif /* SB_SELECT_H */
