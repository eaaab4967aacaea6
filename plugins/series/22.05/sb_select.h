/*
 * sb_select.h - the select framework of Slurm 22.05 as select/bucket
 * sees it: the base plugin's operation table and the arguments of
 * job_test() that differ between series.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SB_SELECT_H
#define SB_SELECT_H

#include "sb_slurm.h"

/* 22.05 publishes its operation table in src/common/select.h. */
typedef slurm_select_ops_t sb_select_ops_t;

/* The arguments of job_test() after the preemption lists. */
typedef struct {
	bitstr_t *exc_core_bitmap;	/* cores reservations keep */
} sb_job_test_extra_t;

/* Does a reservation keep cores of the offered nodes from the job? */
static inline bool sb_extra_core_reserved(const sb_job_test_extra_t *x)
{
	return x->exc_core_bitmap && (bit_ffs(x->exc_core_bitmap) >= 0);
}

/*
 * The window of a WILL_RUN query: 22.05's backfill passes none (false);
 * 24.11's passes the start it tests and the latest start it wants.
 */
static inline bool sb_extra_will_run_window(const sb_job_test_extra_t *x,
					    time_t *start, time_t *end)
{
	return false;
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
				preemptee_job_list, x->exc_core_bitmap);
}

/*
 * node_sets.c: RUN_NOW for a job the base places, on every node
 * slurmctld offers (@bitmap), as slurmctld would have called a base that
 * takes one node set at a time: node sets in Weight order, the base
 * called once enough nodes are gathered, candidates for preemption only
 * with every node, the first success kept. @shares: the job shares nodes
 * (slurmctld then gathers all nodes of one Weight before calling).
 * Returns the base's SLURM_SUCCESS (@bitmap = its nodes) or an error.
 */
extern int node_sets_run_now(job_record_t *job_ptr, bitstr_t *bitmap,
			     uint32_t min_nodes, uint32_t max_nodes,
			     uint32_t req_nodes, uint16_t mode,
			     list_t *preemptee_candidates,
			     list_t **preemptee_job_list,
			     const sb_job_test_extra_t *x, bool shares);

/* select/bucket's plugin_id is its own (select_bucket.c): a constant. */
#define SB_PLUGIN_ID_CONST const

#endif /* SB_SELECT_H */
