/*
 * select_ops_optional.c - select/bucket's entry points that only some
 * select frameworks look up (select_ops.def): each is built where the
 * Slurm tree's framework has it (SB_SELECT_OP_<field>, configure), and
 * passes the call to the base.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The entries every framework has are select_bucket.c's; the node and
 * job data, select state and steps are select_data.c's.
 */
#include "config.h"

#include "sb_slurm.h"

#include "select_bucket.h"

#if SB_SELECT_OP_job_signal
extern int select_p_job_signal(job_record_t *job_ptr, int signal)
{
	return (*base.job_signal)(job_ptr, signal);
}
#endif

#if SB_SELECT_OP_job_mem_reduce
extern void select_p_job_mem_reduce(job_record_t *job_ptr)
{
	(*base.job_mem_reduce)(job_ptr);
}
#endif

#if SB_SELECT_OP_jobinfo_sprint
extern char *select_p_select_jobinfo_sprint(select_jobinfo_t *jobinfo,
					    char *buf, size_t size, int mode)
{
	if (!base_ready())
		return NULL;
	return (*base.jobinfo_sprint)(jobinfo, buf, size, mode);
}
#endif

#if SB_SELECT_OP_jobinfo_xstrdup
extern char *select_p_select_jobinfo_xstrdup(select_jobinfo_t *jobinfo,
					     int mode)
{
	if (!base_ready())
		return NULL;
	return (*base.jobinfo_xstrdup)(jobinfo, mode);
}
#endif

#if SB_SELECT_OP_update_node_config
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
#endif

#if SB_SELECT_OP_resv_test
extern bitstr_t *select_p_resv_test(resv_desc_msg_t *resv_desc_ptr,
				    uint32_t node_cnt, bitstr_t *avail_bitmap,
				    bitstr_t **core_bitmap)
{
	return (*base.resv_test)(resv_desc_ptr, node_cnt, avail_bitmap,
				 core_bitmap);
}
#endif
