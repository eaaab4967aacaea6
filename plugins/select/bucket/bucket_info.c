/*
 * bucket_info.c - select/bucket's per-node data for clients (sinfo's
 * allocated CPUs and memory, scontrol's AllocTRES) and its (empty)
 * per-job data.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The node data travels in node info messages tagged with our plugin_id,
 * so sinfo, squeue and scontrol unpack it with this same code: the wire
 * format is ours (a version number first, so it can change).
 */
#include "config.h"

#include "slurm/slurm_errno.h"

#include "src/common/assoc_mgr.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/pack.h"
#include "src/common/select.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

#include "select_bucket.h"

#define NODEINFO_MAGIC 0x5bb0c4e7
#define NODEINFO_FORMAT 1

struct select_nodeinfo {
	uint32_t magic;
	uint16_t alloc_cpus;
	uint64_t alloc_memory;
	char *tres_alloc_fmt_str;
	double tres_alloc_weighted;
};

extern select_nodeinfo_t *select_p_select_nodeinfo_alloc(void)
{
	select_nodeinfo_t *ni = xmalloc(sizeof(*ni));

	ni->magic = NODEINFO_MAGIC;
	return ni;
}

extern int select_p_select_nodeinfo_free(select_nodeinfo_t *ni)
{
	if (!ni)
		return SLURM_SUCCESS;
	if (ni->magic != NODEINFO_MAGIC) {
		error(BUCKET_PFX "%s: bad nodeinfo magic", __func__);
		return EINVAL;
	}
	ni->magic = 0;
	xfree(ni->tres_alloc_fmt_str);
	xfree(ni);
	return SLURM_SUCCESS;
}

extern int select_p_select_nodeinfo_pack(select_nodeinfo_t *ni,
					 buf_t *buffer,
					 uint16_t protocol_version)
{
	select_nodeinfo_t empty = { .magic = NODEINFO_MAGIC };

	if (!ni)
		ni = &empty;
	pack16(NODEINFO_FORMAT, buffer);
	pack16(ni->alloc_cpus, buffer);
	pack64(ni->alloc_memory, buffer);
	packstr(ni->tres_alloc_fmt_str, buffer);
	packdouble(ni->tres_alloc_weighted, buffer);
	return SLURM_SUCCESS;
}

extern int select_p_select_nodeinfo_unpack(select_nodeinfo_t **out,
					   buf_t *buffer,
					   uint16_t protocol_version)
{
	select_nodeinfo_t *ni = select_p_select_nodeinfo_alloc();
	uint16_t format;
	uint32_t len;

	*out = ni;
	safe_unpack16(&format, buffer);
	if (format != NODEINFO_FORMAT)
		goto unpack_error;
	safe_unpack16(&ni->alloc_cpus, buffer);
	safe_unpack64(&ni->alloc_memory, buffer);
	safe_unpackstr_xmalloc(&ni->tres_alloc_fmt_str, &len, buffer);
	safe_unpackdouble(&ni->tres_alloc_weighted, buffer);
	return SLURM_SUCCESS;

unpack_error:
	error(BUCKET_PFX "cannot unpack node data (format %u)", format);
	select_p_select_nodeinfo_free(ni);
	*out = NULL;
	return SLURM_ERROR;
}

/* Memory our jobs hold on node @i (MB), from their job_resources. */
static uint64_t _alloc_memory(int i)
{
	job_record_t *job_ptr;
	ListIterator itr;
	uint64_t mem = 0;

	if (!job_list || !bucket_state.jobs || (i >= (int) bucket_state.n) ||
	    !bucket_state.jobs[i])
		return 0;
	itr = list_iterator_create(job_list);
	while ((job_ptr = list_next(itr))) {
		job_resources_t *r = job_ptr->job_resrcs;
		int inx;

		if ((!IS_JOB_RUNNING(job_ptr) && !IS_JOB_SUSPENDED(job_ptr)) ||
		    !r || !r->node_bitmap || !r->memory_allocated ||
		    !bit_test(r->node_bitmap, i))
			continue;
		inx = bit_set_count_range(r->node_bitmap, 0, i);
		if (inx < (int) r->nhosts)
			mem += r->memory_allocated[inx];
	}
	list_iterator_destroy(itr);
	return mem;
}

extern int select_p_select_nodeinfo_set_all(void)
{
	static time_t last_set_all = 0;
	node_record_t *node_ptr;
	int i;

	/* only when a node changed since the last time */
	if (last_set_all && (last_node_update < last_set_all))
		return SLURM_NO_CHANGE_IN_DATA;
	last_set_all = last_node_update;

	slurm_mutex_lock(&bucket_lock);
	for (i = 0; (node_ptr = next_node(&i)); i++) {
		select_nodeinfo_t *ni = NULL;

		select_g_select_nodeinfo_get(node_ptr->select_nodeinfo,
					     SELECT_NODEDATA_PTR, 0,
					     (void *) &ni);
		if (!ni)
			continue;
		xfree(ni->tres_alloc_fmt_str);
		if (IS_NODE_ALLOCATED(node_ptr) ||
		    IS_NODE_COMPLETING(node_ptr)) {
			/* a whole node: every CPU is the job's */
			ni->alloc_cpus = node_ptr->config_ptr ?
				node_ptr->config_ptr->cpus : node_ptr->cpus;
			ni->tres_alloc_fmt_str =
				assoc_mgr_make_tres_str_from_array(
					node_ptr->tres_cnt,
					TRES_STR_CONVERT_UNITS, false);
			ni->tres_alloc_weighted = assoc_mgr_tres_weighted(
				node_ptr->tres_cnt,
				node_ptr->config_ptr ?
				node_ptr->config_ptr->tres_weights : NULL,
				slurm_conf.priority_flags, false);
		} else {
			ni->alloc_cpus = 0;
			ni->tres_alloc_weighted = 0.0;
		}
		ni->alloc_memory = _alloc_memory(i);
	}
	slurm_mutex_unlock(&bucket_lock);
	return SLURM_SUCCESS;
}

extern int select_p_select_nodeinfo_set(job_record_t *job_ptr)
{
	return SLURM_SUCCESS;
}

extern int select_p_select_nodeinfo_get(select_nodeinfo_t *ni,
					enum select_nodedata_type dinfo,
					enum node_states state, void *data)
{
	if (!ni || (ni->magic != NODEINFO_MAGIC)) {
		error(BUCKET_PFX "%s: no or bad node data", __func__);
		return SLURM_ERROR;
	}
	switch (dinfo) {
	case SELECT_NODEDATA_SUBCNT:
		*(uint16_t *) data = (state == NODE_STATE_ALLOCATED) ?
			ni->alloc_cpus : 0;
		break;
	case SELECT_NODEDATA_PTR:
		*(select_nodeinfo_t **) data = ni;
		break;
	case SELECT_NODEDATA_MEM_ALLOC:
		*(uint64_t *) data = ni->alloc_memory;
		break;
	case SELECT_NODEDATA_TRES_ALLOC_FMT_STR:
		*(char **) data = xstrdup(ni->tres_alloc_fmt_str);
		break;
	case SELECT_NODEDATA_TRES_ALLOC_WEIGHTED:
		*(double *) data = ni->tres_alloc_weighted;
		break;
	default:
		error(BUCKET_PFX "%s: unknown node data type %d", __func__,
		      dinfo);
		return SLURM_ERROR;
	}
	return SLURM_SUCCESS;
}

/*
 * Per-job data: select/bucket keeps none (whole nodes need nothing
 * beyond job_resources), like select/linear.
 */
extern select_jobinfo_t *select_p_select_jobinfo_alloc(void)
{
	return NULL;
}

extern int select_p_select_jobinfo_free(select_jobinfo_t *jobinfo)
{
	return SLURM_SUCCESS;
}

extern int select_p_select_jobinfo_set(select_jobinfo_t *jobinfo,
				       enum select_jobdata_type data_type,
				       void *data)
{
	return SLURM_SUCCESS;
}

extern int select_p_select_jobinfo_get(select_jobinfo_t *jobinfo,
				       enum select_jobdata_type data_type,
				       void *data)
{
	return SLURM_ERROR;
}

extern select_jobinfo_t *select_p_select_jobinfo_copy(
	select_jobinfo_t *jobinfo)
{
	return NULL;
}

extern int select_p_select_jobinfo_pack(select_jobinfo_t *jobinfo,
					buf_t *buffer,
					uint16_t protocol_version)
{
	return SLURM_SUCCESS;
}

extern int select_p_select_jobinfo_unpack(select_jobinfo_t **jobinfo,
					  buf_t *buffer,
					  uint16_t protocol_version)
{
	*jobinfo = NULL;
	return SLURM_SUCCESS;
}

extern char *select_p_select_jobinfo_sprint(select_jobinfo_t *jobinfo,
					    char *buf, size_t size, int mode)
{
	if (buf && size) {
		buf[0] = '\0';
		return buf;
	}
	return NULL;
}

extern char *select_p_select_jobinfo_xstrdup(select_jobinfo_t *jobinfo,
					     int mode)
{
	return NULL;
}
