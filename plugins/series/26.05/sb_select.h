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

/* The arguments of job_test() after the preemption lists (as 24.11). */
typedef struct {
	resv_exc_t *resv_exc_ptr;	/* what reservations keep */
	will_run_data_t *will_run_ptr;	/* backfill's window, or NULL */
} sb_job_test_extra_t;

static inline bool sb_extra_core_reserved(const sb_job_test_extra_t *x)
{
	const resv_exc_t *r = x->resv_exc_ptr;

	/* cores, or GRES, a reservation keeps from the job */
	return r && ((r->core_bitmap && (bit_ffs(r->core_bitmap) >= 0)) ||
		     (r->gres_list_exc && list_count(r->gres_list_exc)));
}

/*
 * Backfill's WILL_RUN window: the start it tests (jobs ending before it
 * count as gone) and the latest start it wants (0: none).
 */
static inline bool sb_extra_will_run_window(const sb_job_test_extra_t *x,
					    time_t *start, time_t *end)
{
	if (!x->will_run_ptr || (!x->will_run_ptr->start &&
				 !x->will_run_ptr->end))
		return false;
	*start = x->will_run_ptr->start;
	*end = x->will_run_ptr->end;
	return true;
}

/* The base plugin's entry points (bucket_base.c). */
extern sb_select_ops_t base;

/* The base's job_test() with the series' trailing arguments. */
static inline int sb_base_job_test(job_record_t *job_ptr, bitstr_t *bitmap,
				   uint32_t min_nodes, uint32_t max_nodes,
				   uint32_t req_nodes, uint16_t mode,
				   list_t *preemptee_candidates,
				   list_t **preemptee_job_list,
				   const sb_job_test_extra_t *x)
{
	return (*base.job_test)(job_ptr, bitmap, min_nodes, max_nodes,
				req_nodes, mode, preemptee_candidates,
				preemptee_job_list, x->resv_exc_ptr, x->will_run_ptr);
}

/*
 * slurmctld tests the SelectType plugin's *id* (running_cons_tres()) for
 * gres, node sets, SelectTypeParameters and more, and saves it with each
 * job and node: select/bucket's becomes the base's once that is loaded
 * (select_series.c), so it is a variable here.
 */
#define SB_PLUGIN_ID_CONST

#endif /* SB_SELECT_H */
