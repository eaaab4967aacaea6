/*
 * sb_priority.h - what priority/bucket needs of Slurm 24.11 that 22.05
 * names or does differently (see plugins/series/22.05/sb_priority.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SB_PRIORITY_H
#define SB_PRIORITY_H

#include "prio_24_11_on.h"

/* The priorities per partition and QOS slurmctld schedules by. */
static inline priority_mult_t **sb_job_part_prio(job_record_t *job_ptr)
{
	return &job_ptr->part_prio;
}

/* sprio's object names its job by id. */
static inline void sb_prio_obj_job(priority_factors_object_t *obj,
				   const job_record_t *job_ptr)
{
	obj->job_id = job_ptr->job_id;
}

#endif /* SB_PRIORITY_H */
