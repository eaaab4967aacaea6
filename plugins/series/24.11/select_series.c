/*
 * select_series.c - select/bucket's entry points and series hooks for
 * Slurm 24.11 (select_bucket.h, series_*()).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * 24.11's select framework has 32 entry points; job_test() ends with the
 * reservation's exclusions and backfill's WILL_RUN window (its
 * select_p_job_test(), as 26.05's, is bucket_offers.c's).
 *
 * The base: bucket.conf's BaseSelectType (24.11 refuses
 * SelectTypeParameters=OTHER_CONS_TRES), select/linear by default.
 *
 * Job data: 24.11's bases keep none, and the framework saves Slurm's own
 * 4-byte plugin id in front of whatever the plugin packs; 26.05 reads
 * exactly those 4 bytes back. So we pack the base's bytes alone (none),
 * and a job saved under select/bucket is read by 26.05 and by the base
 * alone after a switch back.
 *
 * Node sets: bucket_offers.c.
 */
#include "config.h"

#include "sb_slurm.h"

#include "select_data.h"

/* The private table of src/interfaces/select.c, field by field. */
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
	"select_p_get_info_from_plugin",
	"select_p_reconfigure",
};
const size_t series_base_syms_size = sizeof(series_base_syms);

_Static_assert(sizeof(series_base_syms) == sizeof(sb_select_ops_t),
	       "one symbol per entry of sb_select_ops_t");

extern const char *series_base_from_slurm_conf(void)
{
	return NULL;	/* 24.11 has no OTHER_CONS_TRES */
}

extern void series_base_loaded(void)
{
}

extern bool series_get_info(enum select_plugindata_info dinfo, void *data)
{
	return false;	/* the base answers, SELECT_CR_PLUGIN included */
}

/* The base's job data (none in 24.11), nothing of ours: see above. */
extern int select_p_select_jobinfo_pack(select_jobinfo_t *jobinfo,
					buf_t *buffer,
					uint16_t protocol_version)
{
	if (!base_ready())
		return SLURM_SUCCESS;
	return (*base.jobinfo_pack)(jobinfo, buffer, protocol_version);
}

extern int select_p_select_jobinfo_unpack(select_jobinfo_t **jobinfo,
					  buf_t *buffer,
					  uint16_t protocol_version)
{
	*jobinfo = NULL;
	if (!base_ready())
		return SLURM_SUCCESS;
	return (*base.jobinfo_unpack)(jobinfo, buffer, protocol_version);
}
