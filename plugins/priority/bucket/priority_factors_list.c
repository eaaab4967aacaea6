/*
 * priority_factors_list.c - sprio's factor list where slurmctld asks for
 * it with the locks held and filters it itself (no request: trait
 * SB_HAVE_PRIORITY_FACTORS_REQUEST off; priority_factors_request.c is
 * the other way).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include "sb_slurm.h"

#include "priority_bucket.h"

/* sprio's line for @job_ptr in @part_ptr (NULL: its only one), @qos. */
static void _add_obj(list_t *ret, job_record_t *job_ptr,
		     part_record_t *part_ptr, slurmdb_qos_rec_t *qos,
		     const prio_settings_t *conf)
{
	priority_factors_object_t *obj = xmalloc(sizeof(*obj));
	part_record_t *p = part_ptr ? part_ptr : job_ptr->part_ptr;

	obj->account = xstrdup(job_ptr->account);
	sb_prio_obj_job(obj, job_ptr);
	obj->partition = xstrdup(p ? p->name : NULL);
	obj->qos = xstrdup(qos ? qos->name :
			   job_ptr->qos_ptr ? job_ptr->qos_ptr->name : NULL);
	obj->user_id = job_ptr->user_id;
	if (job_ptr->direct_set_prio) {
		obj->direct_prio = job_ptr->priority;
	} else {
		/* a job with no factors yet (no pass since a restart): 0s */
		obj->prio_factors = xmalloc(sizeof(*obj->prio_factors));
		slurm_copy_priority_factors(obj->prio_factors,
					    job_ptr->prio_factors);
		if (part_ptr)
			bucket_job_part_view(job_ptr, part_ptr,
					     obj->prio_factors, conf);
		if (qos)
			obj->prio_factors->priority_qos =
				bucket_job_qos_line(qos, obj->prio_factors, conf);
	}
	list_append(ret, obj);
}

/*
 * sprio's list: every job sprio may show this user, one line per
 * partition and QOS it may run in; sprio filters by job, user and
 * partition itself. slurmctld holds the job, node and partition read
 * locks and the QOS read lock (proc_req.c) and packs the list before it
 * releases them; taking any of them here again would invert the lock
 * order. The strings are copies: the list is freed with
 * slurm_destroy_priority_factors_object(), which frees them.
 */
extern list_t *priority_p_get_priority_factors_list(uid_t uid)
{
	int n = slurmctld_tres_cnt;
	double tres_w[MAX(n, 1)];
	list_t *ret = NULL;
	job_record_t *job_ptr;
	prio_settings_t conf;
	list_itr_t *itr;
	time_t now = time(NULL);

	if (!running_in_slurmctld() || !job_list || !list_count(job_list))
		return NULL;
	prio_settings_snapshot(&conf, tres_w, n);
	ret = list_create(slurm_destroy_priority_factors_object);
	itr = list_iterator_create(job_list);
	while ((job_ptr = list_next(itr))) {
		list_itr_t *pi = NULL, *qi = NULL;
		part_record_t *p = NULL;
		slurmdb_qos_rec_t *q;

		if (!bucket_job_listed(job_ptr, uid, &conf, now))
			continue;
		/* a deleted partition, a job waiting out MinJobAge */
		if (!job_ptr->part_ptr && !job_ptr->part_ptr_list)
			continue;
		if (job_ptr->part_ptr_list)
			pi = list_iterator_create(job_ptr->part_ptr_list);
		do {
			if (pi && !(p = list_next(pi)))
				break;
			if (!job_ptr->qos_list) {
				_add_obj(ret, job_ptr, p, NULL, &conf);
				continue;
			}
			qi = list_iterator_create(job_ptr->qos_list);
			while ((q = list_next(qi)))
				_add_obj(ret, job_ptr, p, q, &conf);
			list_iterator_destroy(qi);
		} while (pi);
		if (pi)
			list_iterator_destroy(pi);
	}
	list_iterator_destroy(itr);
	if (!list_count(ret))
		FREE_NULL_LIST(ret);
	return ret;
}
