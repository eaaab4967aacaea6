/*
 * priority_mult.c - a job's priorities per partition and QOS, where
 * slurmctld keeps them in a priority_mult_t (trait
 * SB_HAVE_PRIORITY_MULT_T; job_ptr->part_prio or prio_mult: sb_priority.h);
 * priority_array.c is the other way.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include "sb_slurm.h"

#include "priority_bucket.h"

/* Comma-separated names of @parts, in the list's (PriorityTier) order. */
static char *_part_names(list_t *parts)
{
	part_record_t *part_ptr;
	list_itr_t *itr = list_iterator_create(parts);
	char *names = NULL, *pos = NULL;

	while ((part_ptr = list_next(itr)))
		xstrfmtcatat(names, &pos, "%s%s", names ? "," : "",
			     part_ptr->name);
	list_iterator_destroy(itr);
	return names;
}

typedef struct {
	job_record_t *job_ptr;
	const sb_prio_factors_t *f;
	const prio_settings_t *conf;
	part_record_t *part_ptr;
	double part;		/* weighted partition factor of part_ptr */
	double tres;		/* weighted TRES sum in part_ptr */
	int i;			/* next slot of priority_array */
	int cnt;		/* slots */
	char *str;		/* for the log */
} prio_walk_t;

static int _one_qos(void *x, void *arg)
{
	slurmdb_qos_rec_t *qos = x;
	prio_walk_t *w = arg;
	priority_mult_t *pp = *sb_job_part_prio(w->job_ptr);
	uint32_t v;

	if (w->i >= w->cnt)
		return -1;	/* more slots than counted: stop, no overrun */
	v = bucket_job_clamp(w->job_ptr, bucket_job_part_sum(
		w->f, w->part, bucket_job_qos_line(qos, w->f, w->conf), w->tres));
	if (!(w->conf->flags & PRIORITY_FLAGS_INCR_ONLY) ||
	    (pp->priority_array[w->i] < v))
		pp->priority_array[w->i] = v;
	if (slurm_conf.debug_flags & DEBUG_FLAG_PRIO)
		xstrfmtcat(w->str, "%s%s%s%s=%u", w->str ? ", " : "",
			   w->part_ptr->name, qos ? "/" : "",
			   qos ? qos->name : "", pp->priority_array[w->i]);
	w->i++;
	return 0;
}

static int _one_part(void *x, void *arg)
{
	part_record_t *part_ptr = x;
	prio_walk_t *w = arg;
	job_record_t *job_ptr = w->job_ptr;
	int n = w->conf->tres_cnt;
	double part_tres[MAX(n, 1)];

	w->part_ptr = part_ptr;
	w->part = bucket_job_part_factor(part_ptr, w->conf) *
		w->conf->weight_part;
	w->tres = 0.0;
	if (w->conf->have_weight_tres && (n > 0)) {
		bucket_job_tres_factors(job_ptr, part_ptr, w->conf, part_tres,
					n);
		w->tres = bucket_job_tres_weigh(part_tres, w->conf, n);
	}
	if (job_ptr->qos_list)
		return (list_for_each(job_ptr->qos_list, _one_qos, w) < 0) ?
			-1 : 0;
	return _one_qos(NULL, w);
}

/*
 * job_ptr->part_prio (or prio_mult), where the schedulers look: one value
 * per partition and QOS, partition-major (job_scheduler.c walks the job's
 * partitions, then its QOS), partitions in the list's order (slurmctld
 * sorts it by PriorityTier when it builds it; sorting it again could
 * swap partitions of one tier under priority_array_names). Rebuilt
 * when missing, after a partition change (last_part_update) or when
 * the lists outgrew it; kept otherwise, so INCR_ONLY can compare.
 */
extern void prio_part_prios(job_record_t *job_ptr,
				   const sb_prio_factors_t *f,
				   const prio_settings_t *conf)
{
	assoc_mgr_lock_t locks = { .qos = READ_LOCK };
	prio_walk_t w = { .job_ptr = job_ptr, .f = f, .conf = conf };
	priority_mult_t **ppp = sb_job_part_prio(job_ptr), *pp;

	if (!job_ptr->part_ptr_list && !job_ptr->qos_list) {
		/* one partition and one QOS now: no array */
		if (*ppp) {
			xfree((*ppp)->priority_array);
			xfree((*ppp)->priority_array_names);
			xfree(*ppp);
		}
		return;
	}
	if (!job_ptr->part_ptr_list && !job_ptr->part_ptr)
		return;
	w.cnt = job_ptr->part_ptr_list ?
		list_count(job_ptr->part_ptr_list) : 1;
	if (job_ptr->qos_list)
		w.cnt *= list_count(job_ptr->qos_list);
	if (w.cnt <= 0)
		return;

	if (!*ppp)
		*ppp = xmalloc(sizeof(**ppp));
	pp = *ppp;
	if (!pp->priority_array || (pp->last_update < last_part_update) ||
	    (xsize(pp->priority_array) < w.cnt * sizeof(uint32_t))) {
		xfree(pp->priority_array);
		pp->priority_array = xcalloc(w.cnt, sizeof(uint32_t));
		if (job_ptr->part_ptr_list) {
			xfree(pp->priority_array_names);
			pp->priority_array_names =
				_part_names(job_ptr->part_ptr_list);
		}
		pp->last_update = time(NULL);
	}

	/* the QOS's priorities are read under its lock, as in _set_factors */
	assoc_mgr_lock(&locks);
	if (job_ptr->part_ptr_list)
		(void) list_for_each(job_ptr->part_ptr_list, _one_part, &w);
	else
		(void) _one_part(job_ptr->part_ptr, &w);
	assoc_mgr_unlock(&locks);
	log_flag(PRIO, "%pJ per-partition/QOS priorities: %s", job_ptr,
		 w.str);
	xfree(w.str);
}
