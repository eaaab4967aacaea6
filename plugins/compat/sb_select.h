/*
 * sb_select.h - the select framework as select/bucket sees it, whatever
 * the Slurm: the base plugin's operation table, job_test()'s trailing
 * arguments, and the few choices that follow from the framework's shape.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Only 22.05 publishes its table (slurm_select_ops_t); later frameworks
 * keep it private to select.c. So the table is built here from
 * select_ops.def, entry by entry as the tree's framework has them
 * (SB_SELECT_OP_<field>, which configure reads from the tree), and
 * bucket_base.c looks up the same symbols in the same order.
 */
#ifndef SB_SELECT_H
#define SB_SELECT_H

#include "sb_slurm.h"

/* job_test()'s parameters after the preemption lists. */
#if SB_HAVE_RESV_EXC && SB_HAVE_WILL_RUN_DATA
#define SB_JOB_TEST_TAIL_PARAMS \
	resv_exc_t *resv_exc_ptr, will_run_data_t *will_run_ptr
#define SB_JOB_TEST_TAIL_INIT \
	{ .resv_exc_ptr = resv_exc_ptr, .will_run_ptr = will_run_ptr }
#elif SB_HAVE_RESV_EXC
#define SB_JOB_TEST_TAIL_PARAMS resv_exc_t *resv_exc_ptr
#define SB_JOB_TEST_TAIL_INIT { .resv_exc_ptr = resv_exc_ptr }
#else
#define SB_JOB_TEST_TAIL_PARAMS bitstr_t *exc_core_bitmap
#define SB_JOB_TEST_TAIL_INIT { .exc_core_bitmap = exc_core_bitmap }
#endif

/* The same arguments, held together. */
typedef struct {
#if SB_HAVE_RESV_EXC
	resv_exc_t *resv_exc_ptr;	/* what reservations keep */
#else
	bitstr_t *exc_core_bitmap;	/* cores reservations keep */
#endif
#if SB_HAVE_WILL_RUN_DATA
	will_run_data_t *will_run_ptr;	/* backfill's window, or NULL */
#endif
} sb_job_test_extra_t;

/* SB_IF(c, x): x when c is 1, nothing when 0 (c a literal 0 or 1). */
#define SB_IF(c, x) SB_IF_(c, x)
#define SB_IF_(c, x) SB_IF_##c(x)
#define SB_IF_0(x)
#define SB_IF_1(x) x

/* The base's operation table: the tree's entries, field by field. */
typedef struct {
	uint32_t *plugin_id;
#define SB_SELECT_OP(field, sym, ret, params) \
	SB_IF(SB_SELECT_OP_##field, ret (*field) params;)
#include "select_ops.def"
#undef SB_SELECT_OP
} sb_select_ops_t;

/* The base plugin's entry points (bucket_base.c). */
extern sb_select_ops_t base;

/* Does a reservation keep cores (or GRES) of the offered nodes? */
static inline bool sb_extra_core_reserved(const sb_job_test_extra_t *x)
{
#if SB_HAVE_RESV_EXC
	const resv_exc_t *r = x->resv_exc_ptr;

	return r && ((r->core_bitmap && (bit_ffs(r->core_bitmap) >= 0)) ||
		     (r->gres_list_exc && list_count(r->gres_list_exc)));
#else
	return x->exc_core_bitmap && (bit_ffs(x->exc_core_bitmap) >= 0);
#endif
}

/*
 * Backfill's WILL_RUN window: the start it tests (jobs ending before it
 * count as gone) and the latest start it wants (0: none). false where
 * backfill passes none.
 */
static inline bool sb_extra_will_run_window(const sb_job_test_extra_t *x,
					    time_t *start, time_t *end)
{
#if SB_HAVE_WILL_RUN_DATA
	if (!x->will_run_ptr || (!x->will_run_ptr->start &&
				 !x->will_run_ptr->end))
		return false;
	*start = x->will_run_ptr->start;
	*end = x->will_run_ptr->end;
	return true;
#else
	return false;
#endif
}

/* The base's job_test() with the same trailing arguments. */
static inline int sb_base_job_test(job_record_t *job_ptr, bitstr_t *bitmap,
				   uint32_t min_nodes, uint32_t max_nodes,
				   uint32_t req_nodes, uint16_t mode,
				   list_t *preemptee_candidates,
				   list_t **preemptee_job_list,
				   const sb_job_test_extra_t *x)
{
	return (*base.job_test)(job_ptr, bitmap, min_nodes, max_nodes,
				req_nodes, mode, preemptee_candidates,
				preemptee_job_list,
#if SB_HAVE_RESV_EXC
				x->resv_exc_ptr
#else
				x->exc_core_bitmap
#endif
#if SB_HAVE_WILL_RUN_DATA
				, x->will_run_ptr
#endif
				);
}

/*
 * Where the framework asks get_info_from_plugin(SELECT_CR_PLUGIN),
 * the base answers whether slurmctld deals with cons_tres, and our
 * plugin_id stays ours (170). Where it has no such entry, slurmctld
 * compares the SelectType's plugin_id with cons_tres's
 * (running_cons_tres()) for GRES, node sets, SelectTypeParameters and
 * reservations, and saves it with jobs and nodes: there ours becomes
 * the base's once that is loaded (sb_plugin_id_follow_base()), so a
 * slurmctld switched back to the base alone reads it as its own.
 */
#if SB_SELECT_OP_get_info_from_plugin
#define SB_PLUGIN_ID_CONST const
static inline void sb_plugin_id_follow_base(const uint32_t *own,
					    uint32_t base_id)
{
}
#else
#define SB_PLUGIN_ID_CONST
static inline void sb_plugin_id_follow_base(uint32_t *own, uint32_t base_id)
{
	*own = base_id;
	debug("reporting the base's plugin_id %u to slurmctld", base_id);
}
#endif

/*
 * The base slurm.conf names itself, where SelectTypeParameters may
 * (OTHER_CONS_TRES, OTHER_CONS_RES); NULL elsewhere: bucket.conf's
 * BaseSelectType, else select/linear.
 */
static inline const char *sb_base_from_slurm_conf(void)
{
#if SB_HAVE_CR_OTHER_CONS_RES
	if (slurm_conf.select_type_param & CR_OTHER_CONS_TRES)
		return "select/cons_tres";
	if (slurm_conf.select_type_param & CR_OTHER_CONS_RES)
		return "select/cons_res";
#endif
	return NULL;
}

/*
 * Jobs' select data are saved with the job. Where the framework prints
 * them (jobinfo_xstrdup, 22.05) they carry our header, the base's id
 * first (select_data.c), so a slurmctld switched back to the base reads
 * them; elsewhere the next releases read exactly Slurm's own 4-byte id
 * there and nothing after it, so they are the base's bytes alone.
 */
#define SB_JOB_DATA_HEADER SB_SELECT_OP_jobinfo_xstrdup

#endif /* SB_SELECT_H */
