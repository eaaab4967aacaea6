/*
 * bucket_resrcs.c - the job_resources_t of a whole-node allocation, and
 * the job's GRES on its nodes.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Every core of every node is the job's (so steps, several at once, can
 * use all of them), every CPU counts in ncpus and in sinfo's allocated
 * CPUs, and each node's memory is what the job asked for per node (or
 * per CPU times the node's CPUs), or the node's RealMemory when it asked
 * for none: the node is the job's alone.
 */
#include "config.h"

#include "slurm/slurm.h"

#include "src/common/job_resources.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/slurmctld/gres_ctld.h"
#include "src/slurmctld/slurmctld.h"

#include "select_bucket.h"

/* The nodes of @b in index order, as an sb bitmap (caller frees). */
static sb_bitmap_t *_nodes_of(const bitstr_t *b)
{
	sb_bitmap_t *s = sb_bitmap_alloc(bit_size((bitstr_t *) b));

	if (s)
		convert_bitstr_to_sb(b, s);
	else
		error(BUCKET_PFX "out of memory");
	return s;
}

static uint16_t _node_cpus(const node_record_t *node_ptr)
{
	return node_ptr->config_ptr ? node_ptr->config_ptr->cpus :
		node_ptr->cpus;
}

extern uint32_t resrcs_avail_cpus(const job_record_t *job_ptr, int i)
{
	const struct job_details *d = job_ptr->details;
	const node_record_t *node_ptr = node_record_table_ptr[i];
	uint16_t cpt = 1, per_core = 0;
	int cpus;

	if (!d || !node_ptr)
		return 0;
	if (d->cpus_per_task)
		cpt = d->cpus_per_task;
	if (d->mc_ptr)
		per_core = d->mc_ptr->ntasks_per_core;
	cpus = adjust_cpus_nppcu(per_core, cpt, node_ptr->tot_cores,
				 _node_cpus(node_ptr));
	if (d->ntasks_per_node)
		cpus = MIN(cpus, (int) d->ntasks_per_node * cpt);
	return (cpus > 0) ? (uint32_t) cpus : 0;
}

extern void resrcs_build(job_record_t *job_ptr, bitstr_t *nodes)
{
	struct job_details *d = job_ptr->details;
	uint64_t per_node = 0, per_cpu = 0;
	uint32_t n = bit_set_count(nodes), total = 0, j = 0;
	job_resources_t *r;
	node_record_t *node_ptr;
	sb_bitmap_t *set;
	int64_t i;

	if (d->pn_min_memory & MEM_PER_CPU)
		per_cpu = d->pn_min_memory & ~MEM_PER_CPU;
	else
		per_node = d->pn_min_memory;

	if (job_ptr->job_resrcs)	/* a requeued job's old one */
		free_job_resources(&job_ptr->job_resrcs);
	job_ptr->job_resrcs = r = create_job_resources();
	r->nhosts = n;
	r->node_bitmap = bit_copy(nodes);
	r->nodes = bitmap2node_name(nodes);
	r->cr_type = slurm_conf.select_type_param;
	r->node_req = NODE_CR_RESERVED;
	r->whole_node = 1;
	if (d->mc_ptr)
		r->threads_per_core = d->mc_ptr->threads_per_core;
	r->cpus = xcalloc(MAX(n, 1), sizeof(uint16_t));
	r->cpus_used = xcalloc(MAX(n, 1), sizeof(uint16_t));
	r->memory_allocated = xcalloc(MAX(n, 1), sizeof(uint64_t));
	r->memory_used = xcalloc(MAX(n, 1), sizeof(uint64_t));
	if (build_job_resources(r))
		error(BUCKET_PFX "%pJ: build_job_resources: %m", job_ptr);

	set = _nodes_of(nodes);
	for (i = set ? sb_bitmap_first_set(set) : -1; i >= 0;
	     i = sb_bitmap_next_set(set, (size_t) i + 1)) {
		uint16_t cpus;

		if (!(node_ptr = node_record_table_ptr[i]))
			continue;
		cpus = _node_cpus(node_ptr);

		r->cpus[j] = cpus;
		total += cpus;
		if (per_node)
			r->memory_allocated[j] = per_node;
		else if (per_cpu)
			r->memory_allocated[j] = per_cpu * cpus;
		else
			r->memory_allocated[j] = node_ptr->config_ptr ?
				node_ptr->config_ptr->real_memory :
				node_ptr->real_memory;
		if (set_job_resources_node(r, j))
			error(BUCKET_PFX "%pJ: set_job_resources_node(%s): %m",
			      job_ptr, node_ptr->name);
		j++;
	}
	sb_bitmap_free(set);
	r->ncpus = total;
	if (build_job_resources_cpu_array(r) < 0)
		error(BUCKET_PFX "%pJ: build_job_resources_cpu_array: %m",
		      job_ptr);
	job_ptr->total_cpus = total;
}

/* Allocate (@alloc) or release the job's GRES on each of its nodes. */
static void _gres_each(job_record_t *job_ptr, bool alloc)
{
	job_resources_t *r = job_ptr->job_resrcs;
	bool new_alloc = (job_ptr->gres_list_alloc == NULL);
	node_record_t *node_ptr;
	int offset = 0, cnt;
	sb_bitmap_t *set;
	int64_t i;

	if (!r || !r->node_bitmap || !(set = _nodes_of(r->node_bitmap)))
		return;
	cnt = bit_set_count(r->node_bitmap);
	for (i = sb_bitmap_first_set(set); i >= 0;
	     i = sb_bitmap_next_set(set, (size_t) i + 1), offset++) {
		if (!(node_ptr = node_record_table_ptr[i]))
			continue;
		if (alloc)
			gres_ctld_job_alloc(job_ptr->gres_list_req,
					    &job_ptr->gres_list_alloc,
					    node_ptr->gres_list, cnt, i, offset,
					    job_ptr->job_id, node_ptr->name,
					    NULL, new_alloc);
		else
			gres_ctld_job_dealloc(job_ptr->gres_list_alloc,
					      node_ptr->gres_list, offset,
					      job_ptr->job_id, node_ptr->name,
					      false, false);
	}
	sb_bitmap_free(set);
}

extern void resrcs_gres_alloc(job_record_t *job_ptr)
{
	if (!job_ptr->gres_list_req)
		return;
	_gres_each(job_ptr, true);
	gres_ctld_job_build_details(job_ptr->gres_list_alloc,
				    &job_ptr->gres_detail_cnt,
				    &job_ptr->gres_detail_str,
				    &job_ptr->gres_used);
}

extern void resrcs_gres_dealloc(job_record_t *job_ptr)
{
	if (job_ptr->gres_list_alloc)
		_gres_each(job_ptr, false);
}
