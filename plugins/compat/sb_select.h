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

/*
 * job_test()'s parameters after the preemption lists, the one place
 * they are written: SB_JOB_TEST_TAIL(X, SEP) gives X(type, name) for
 * each, SEP between them.
 */
#if SB_HAVE_RESV_EXC && SB_HAVE_WILL_RUN_DATA
#define SB_JOB_TEST_TAIL(X, SEP) \
	X(resv_exc_t *, resv_exc_ptr) SEP X(will_run_data_t *, will_run_ptr)
#elif SB_HAVE_RESV_EXC
#define SB_JOB_TEST_TAIL(X, SEP) X(resv_exc_t *, resv_exc_ptr)
#else
#define SB_JOB_TEST_TAIL(X, SEP) X(bitstr_t *, exc_core_bitmap)
#endif
#define SB_COMMA ,
#define SB_TAIL_PARAM_(type, name) type name
#define SB_TAIL_ARG_(type, name) name
#define SB_TAIL_FIELD_(type, name) type name;
#define SB_TAIL_OF_T_(type, name) t->name
/* As parameters, as arguments (select_ops.def) */
#define SB_JOB_TEST_TAIL_PARAMS SB_JOB_TEST_TAIL(SB_TAIL_PARAM_, SB_COMMA)
#define SB_JOB_TEST_TAIL_ARGS SB_JOB_TEST_TAIL(SB_TAIL_ARG_, SB_COMMA)

/*
 * One job_test() call, every argument held together: what select/bucket
 * passes from its entry point down to the base (the tail as the
 * framework's: resv_exc_ptr, will_run_ptr or exc_core_bitmap).
 */
typedef struct {
	job_record_t *job_ptr;
	bitstr_t *bitmap;		/* the nodes offered; the answer */
	uint32_t min_nodes, max_nodes, req_nodes;
	uint16_t mode;
	list_t *preemptee_candidates;
	list_t **preemptee_job_list;
	SB_JOB_TEST_TAIL(SB_TAIL_FIELD_, )
} sb_job_test_t;

/* The call select_p_job_test() received, as an sb_job_test_t. */
#define SB_JOB_TEST_INIT { job_ptr, bitmap, min_nodes, max_nodes, \
		req_nodes, mode, preemptee_candidates, preemptee_job_list, \
		SB_JOB_TEST_TAIL_ARGS }

/* SB_IF(c, x): x when c is 1, nothing when 0 (c a literal 0 or 1). */
#define SB_IF(c, x) SB_IF_(c, x)
#define SB_IF_(c, x) SB_IF_##c(x)
#define SB_IF_0(x)
#define SB_IF_1(x) x

/* The base's operation table: the tree's entries, field by field. */
typedef struct {
	uint32_t *plugin_id;
#define SB_SELECT_OP(field, sym, ret, params, ...) \
	SB_IF(SB_SELECT_OP_##field, ret (*field) params;)
#include "select_ops.def"
#undef SB_SELECT_OP
} sb_select_ops_t;

/* The base plugin's entry points (bucket_base.c). */
extern sb_select_ops_t base;

/* Does a reservation keep cores (or GRES) of the offered nodes? */
static inline bool sb_job_test_core_reserved(const sb_job_test_t *t)
{
#if SB_HAVE_RESV_EXC
	const resv_exc_t *r = t->resv_exc_ptr;

	return r && ((r->core_bitmap && (bit_ffs(r->core_bitmap) >= 0)) ||
		     (r->gres_list_exc && list_count(r->gres_list_exc)));
#else
	return t->exc_core_bitmap && (bit_ffs(t->exc_core_bitmap) >= 0);
#endif
}

/*
 * Backfill's WILL_RUN window: the start it tests (jobs ending before it
 * count as gone) and the latest start it wants (0: none). false where
 * backfill passes none.
 */
static inline bool sb_job_test_will_run_window(const sb_job_test_t *t,
					       time_t *start, time_t *end)
{
#if SB_HAVE_WILL_RUN_DATA
	if (!t->will_run_ptr || (!t->will_run_ptr->start &&
				 !t->will_run_ptr->end))
		return false;
	*start = t->will_run_ptr->start;
	*end = t->will_run_ptr->end;
	return true;
#else
	return false;
#endif
}

/* The base's job_test() on the call @t. */
static inline int sb_base_job_test(const sb_job_test_t *t)
{
	return (*base.job_test)(t->job_ptr, t->bitmap, t->min_nodes,
				t->max_nodes, t->req_nodes, t->mode,
				t->preemptee_candidates, t->preemptee_job_list,
				SB_JOB_TEST_TAIL(SB_TAIL_OF_T_, SB_COMMA));
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
