/*
 * priority_array.c - a job's priorities per partition, where slurmctld
 * keeps them in job_ptr->priority_array (no priority_mult_t: trait
 * SB_HAVE_PRIORITY_MULT_T off; priority_mult.c is the other way).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sb_slurm.h"

#include "priority_bucket.h"

/*
 * job_ptr->priority_array: one value per partition, in PriorityTier order
 * (the list is sorted here, as 22.05's multifactor does). With
 * PriorityFlags=INCR_ONLY a value never goes down. The array is
 * slurmctld's, sized by whoever made it: this plugin (count + 1), a
 * split array task (its count, job_mgr.c), a recovered job (its saved
 * count). Writes stay within its own size (xsize()); one smaller than
 * the job's partitions grows, its values kept.
 */
extern void prio_part_prios(job_record_t *job_ptr,
				   const sb_prio_factors_t *f,
				   const prio_settings_t *conf)
{
	int n = conf->tres_cnt, cnt, i = 0;
	size_t room;
	double part_tres[MAX(n, 1)];
	part_record_t *part_ptr;
	list_itr_t *itr;
	char *str = NULL;

	if (!job_ptr->part_ptr_list)
		return;
	cnt = list_count(job_ptr->part_ptr_list);
	room = job_ptr->priority_array ?
		xsize(job_ptr->priority_array) / sizeof(uint32_t) : 0;
	if (room < (size_t) cnt) {
		xrecalloc(job_ptr->priority_array, cnt + 1, sizeof(uint32_t));
		room = cnt + 1;
	}
	list_sort(job_ptr->part_ptr_list, priority_sort_part_tier);
	itr = list_iterator_create(job_ptr->part_ptr_list);
	while ((part_ptr = list_next(itr)) && (i < cnt) &&
	       ((size_t) i < room)) {
		double tres = 0.0;
		uint32_t v;

		if (conf->have_weight_tres && (n > 0)) {
			bucket_job_tres_factors(job_ptr, part_ptr, conf,
						part_tres, n);
			tres = bucket_job_tres_weigh(part_tres, conf, n);
		}
		v = bucket_job_clamp(job_ptr, bucket_job_part_sum(
			f, bucket_job_part_factor(part_ptr, conf) *
			conf->weight_part, f->priority_qos, tres));
		if (!(conf->flags & PRIORITY_FLAGS_INCR_ONLY) ||
		    (job_ptr->priority_array[i] < v))
			job_ptr->priority_array[i] = v;
		if (slurm_conf.debug_flags & DEBUG_FLAG_PRIO)
			xstrfmtcat(str, "%s%s=%u", str ? ", " : "",
				   part_ptr->name, job_ptr->priority_array[i]);
		i++;
	}
	list_iterator_destroy(itr);
	log_flag(PRIO, "%pJ per-partition priorities: %s", job_ptr, str);
	xfree(str);
}
