/*
 * sb_job_test_args.h - job_test()'s arguments after the preemption lists
 * as Slurm 24.11 and 26.05 have them (the reservation's exclusions and
 * backfill's WILL_RUN window), for their sb_select.h, which includes it
 * once sb_select_ops_t is defined.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SB_JOB_TEST_ARGS_H
#define SB_JOB_TEST_ARGS_H

/* The arguments of job_test() after the preemption lists. */
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

#endif /* SB_JOB_TEST_ARGS_H */
