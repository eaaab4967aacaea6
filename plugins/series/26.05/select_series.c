/*
 * select_series.c - select/bucket's entry points and series hooks for
 * Slurm 26.05 (select_bucket.h, series_*()).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * 26.05's select framework has 14 entry points (sb_select.h); job_test()
 * is 24.11's, and so is how slurmctld offers node sets to a base that is
 * not cons_tres (bucket_offers.c). What is new:
 *
 * - slurmctld loads only SelectType, so the base is loaded by us
 *   (bucket_base.c), as before.
 * - slurmctld asks whether the select plugin is cons_tres by its
 *   plugin_id (running_cons_tres()): for gres, node sets, the
 *   SelectTypeParameters it accepts, reservations, and more. So our
 *   plugin_id is the base's once it is loaded; what slurmctld saves with
 *   jobs and nodes is then the base's id as well, and a slurmctld
 *   switched back to the base alone reads it as its own.
 * - job_mem_reduce() goes to the base.
 */
#include "config.h"

#include "sb_slurm.h"

#include "select_bucket.h"

/* The private table of src/interfaces/select.c, field by field. */
const char *series_base_syms[] = {
	"plugin_id",
	"select_p_node_init",
	"select_p_job_test",
	"select_p_job_begin",
	"select_p_job_ready",
	"select_p_job_expand",
	"select_p_job_resized",
	"select_p_job_mem_reduce",
	"select_p_job_fini",
	"select_p_job_suspend",
	"select_p_job_resume",
	"select_p_select_nodeinfo_set_all",
	"select_p_select_nodeinfo_set",
	"select_p_reconfigure",
};
const size_t series_base_syms_size = sizeof(series_base_syms);

_Static_assert(sizeof(series_base_syms) == sizeof(sb_select_ops_t),
	       "one symbol per entry of sb_select_ops_t");

extern const char *series_base_from_slurm_conf(void)
{
	return NULL;	/* bucket.conf's BaseSelectType names the base */
}

extern void series_base_loaded(void)
{
	/* before select_g_init() asks running_cons_tres() */
	plugin_id = *base.plugin_id;
	debug("reporting the base's plugin_id %u to slurmctld", plugin_id);
}

extern void select_p_job_mem_reduce(job_record_t *job_ptr)
{
	(*base.job_mem_reduce)(job_ptr);
}
