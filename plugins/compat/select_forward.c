/*
 * select_forward.c - select/bucket's entry points that pass the call to
 * the base, generated from select_ops.def: one for each entry the Slurm
 * tree's framework has (SB_SELECT_OP_<field>, configure) that
 * select/bucket does not answer itself.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * SB_HOW_<field> says how each entry is answered:
 *   PASS         the base's answer
 *   LOADED_NULL  the base's answer once it is loaded, NULL if it cannot
 *   LOADED_ERR   the same, SLURM_ERROR if it cannot: node and job data
 *                reach us by plugin_id even in programs whose SelectType
 *                is not ours (data packed when it was), so the base is
 *                loaded on first use (base_ready())
 *   JOBS         the running jobs changed in a way WILL_RUN's kept plan
 *                does not follow (bucket_jobs_changed()), then the base's
 *                answer
 *   OWN          written by hand: select_bucket.c (start, job_test,
 *                job_begin, reconfigure), select_data.c (data with our
 *                header, get_info_from_plugin), below (update_node_config)
 * A new entry of select_ops.def gets a line here, or the build fails.
 */
#include "config.h"

#include "sb_slurm.h"

#include "select_bucket.h"

#define SB_HOW_state_save		PASS
#define SB_HOW_state_restore		PASS
#define SB_HOW_job_init			PASS
#define SB_HOW_node_init		OWN
#define SB_HOW_job_test			OWN
#define SB_HOW_job_begin		OWN
#define SB_HOW_job_ready		PASS
#define SB_HOW_job_expand		JOBS
#define SB_HOW_job_resized		JOBS
#define SB_HOW_job_signal		PASS
#define SB_HOW_job_mem_reduce		PASS
#define SB_HOW_job_fini			JOBS
#define SB_HOW_job_suspend		JOBS
#define SB_HOW_job_resume		JOBS
#define SB_HOW_step_pick_nodes		PASS
#define SB_HOW_step_start		PASS
#define SB_HOW_step_finish		PASS
#define SB_HOW_nodeinfo_pack		OWN
#define SB_HOW_nodeinfo_unpack		OWN
#define SB_HOW_nodeinfo_alloc		LOADED_NULL
#define SB_HOW_nodeinfo_free		LOADED_ERR
#define SB_HOW_nodeinfo_set_all		PASS
#define SB_HOW_nodeinfo_set		PASS
#define SB_HOW_nodeinfo_get		LOADED_ERR
#define SB_HOW_jobinfo_alloc		LOADED_NULL
#define SB_HOW_jobinfo_free		LOADED_ERR
#define SB_HOW_jobinfo_set		LOADED_ERR
#define SB_HOW_jobinfo_get		LOADED_ERR
#define SB_HOW_jobinfo_copy		LOADED_NULL
#define SB_HOW_jobinfo_pack		OWN
#define SB_HOW_jobinfo_unpack		OWN
#define SB_HOW_jobinfo_sprint		LOADED_NULL
#define SB_HOW_jobinfo_xstrdup		LOADED_NULL
#define SB_HOW_get_info_from_plugin	OWN
#define SB_HOW_update_node_config	OWN
#define SB_HOW_reconfigure		OWN
#define SB_HOW_resv_test		PASS

#define SB_FWD_OWN(field, sym, ret, params, args, kw)
#define SB_FWD_PASS(field, sym, ret, params, args, kw) \
	extern ret sym params \
	{ \
		kw (*base.field) args; \
	}
#define SB_FWD_LOADED(fail, field, sym, ret, params, args, kw) \
	extern ret sym params \
	{ \
		if (!base_ready()) \
			return fail; \
		return (*base.field) args; \
	}
#define SB_FWD_LOADED_NULL(...) SB_FWD_LOADED(NULL, __VA_ARGS__)
#define SB_FWD_LOADED_ERR(...) SB_FWD_LOADED(SLURM_ERROR, __VA_ARGS__)
#define SB_FWD_JOBS(field, sym, ret, params, args, kw) \
	extern ret sym params \
	{ \
		bucket_jobs_changed(); \
		kw (*base.field) args; \
	}
#define SB_FWD(how, ...) SB_FWD_(how, __VA_ARGS__)
#define SB_FWD_(how, ...) SB_FWD_##how(__VA_ARGS__)

#define SB_SELECT_OP(field, sym, ret, params, args, kw) \
	SB_IF(SB_SELECT_OP_##field, \
	      SB_FWD(SB_HOW_##field, field, sym, ret, params, args, kw))
#include "select_ops.def"
#undef SB_SELECT_OP

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
