/*
 * sb_select.h - the select framework of Slurm 26.05 as select/bucket
 * sees it (see plugins/series/22.05/sb_select.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * 26.05's table, private to src/interfaces/select.c, has 14 entries: no
 * node or job data, no select state, no steps, no get_info_from_plugin;
 * job_mem_reduce is new. This is the same table, field for field, for
 * the base we load ourselves (slurmctld loads only SelectType);
 * series_base_syms[] in select_series.c names its symbols in this order.
 * job_test() takes the same arguments as in 24.11.
 */
#ifndef SB_SELECT_H
#define SB_SELECT_H

#include "sb_slurm.h"

typedef struct {
	uint32_t *plugin_id;
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
	void (*job_mem_reduce)(job_record_t *job_ptr);
	int (*job_fini)(job_record_t *job_ptr);
	int (*job_suspend)(job_record_t *job_ptr, bool indf_susp);
	int (*job_resume)(job_record_t *job_ptr, bool indf_susp);
	int (*nodeinfo_set_all)(void);
	int (*nodeinfo_set)(job_record_t *job_ptr);
	int (*reconfigure)(void);
} sb_select_ops_t;

/* job_test()'s trailing arguments are 24.11's */
#include "sb_job_test_args.h"

/*
 * slurmctld tests the SelectType plugin's *id* (running_cons_tres()) for
 * gres, node sets, SelectTypeParameters and more, and saves it with each
 * job and node: select/bucket's becomes the base's once that is loaded
 * (select_series.c), so it is a variable here.
 */
#define SB_PLUGIN_ID_CONST

#endif /* SB_SELECT_H */
