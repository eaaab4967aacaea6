/*
 * priority_factors_request.c - sprio's factor list where slurmctld passes
 * the request and holds no lock (trait SB_HAVE_PRIORITY_FACTORS_REQUEST):
 * filtered here by the request's jobs, users and partitions, locks
 * taken here (priority_factors_list.c is the other way).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sb_slurm.h"

#include "priority_bucket.h"

/*
 * One factor object for @job_ptr in @part_ptr. As 22.05's multifactor, a
 * job in one partition with an administrator's priority shows just that;
 * a job in several shows its factors in each (zero for such a job), and a
 * job without factors yet (no pass since a restart) zeros.
 */
static void _add_obj(list_t *ret, job_record_t *job_ptr,
		     part_record_t *part_ptr, bool multi,
		     const prio_settings_t *conf)
{
	priority_factors_object_t *obj = xmalloc(sizeof(*obj));

	if (!multi && job_ptr->direct_set_prio) {
		obj->direct_prio = job_ptr->priority;
	} else {
		slurm_copy_priority_factors_object(obj, job_ptr->prio_factors);
		if (multi)
			bucket_job_part_view(job_ptr, part_ptr, obj, conf);
	}
	obj->job_id = job_ptr->job_id;
	obj->partition = part_ptr ? part_ptr->name : NULL;
	obj->user_id = job_ptr->user_id;
	list_append(ret, obj);
}

static bool _in_list(list_t *l, void *want, int (*eq)(void *, void *))
{
	list_itr_t *itr;
	void *x;
	bool hit = false;

	if (!l)
		return true;
	itr = list_iterator_create(l);
	while ((x = list_next(itr)))
		if (eq(x, want)) {
			hit = true;
			break;
		}
	list_iterator_destroy(itr);
	return hit;
}

static int _eq_u32(void *x, void *want)
{
	return *(uint32_t *) x == *(uint32_t *) want;
}

static int _eq_ptr(void *x, void *want)
{
	return x == want;
}

/*
 * sprio's list, filtered here by the request's jobs, users and
 * partitions. slurmctld holds no lock when it calls us.
 */
extern list_t *priority_p_get_priority_factors_list(
	priority_factors_request_msg_t *req_msg, uid_t uid)
{
	slurmctld_lock_t job_read_lock = { .job = READ_LOCK,
					   .node = READ_LOCK,
					   .part = READ_LOCK };
	int n = slurmctld_tres_cnt;
	double tres_w[MAX(n, 1)];
	list_t *ret = NULL, *parts = NULL;
	job_record_t *job_ptr;
	prio_settings_t conf;
	list_itr_t *itr;
	time_t now = time(NULL);

	if (!req_msg || !running_in_slurmctld())
		return NULL;
	prio_settings_snapshot(&conf, tres_w, n);
	lock_slurmctld(job_read_lock);
	if (req_msg->partitions) {
		char *str = xstrdup(req_msg->partitions), *tok, *save = NULL;

		parts = list_create(NULL);
		for (tok = strtok_r(str, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			part_record_t *p = find_part_record(tok);
			if (p)
				list_append(parts, p);
		}
		xfree(str);
	}
	if (!job_list || !list_count(job_list))
		goto done;

	ret = list_create(slurm_destroy_priority_factors_object);
	itr = list_iterator_create(job_list);
	while ((job_ptr = list_next(itr))) {
		if (!bucket_job_listed(job_ptr, uid, &conf, now))
			continue;
		if (!_in_list(req_msg->job_id_list, &job_ptr->job_id,
			      _eq_u32) ||
		    !_in_list(req_msg->uid_list, &job_ptr->user_id, _eq_u32))
			continue;
		if (job_ptr->part_ptr_list) {
			list_itr_t *pi = list_iterator_create(
				job_ptr->part_ptr_list);
			part_record_t *p;

			while ((p = list_next(pi)))
				if (_in_list(parts, p, _eq_ptr))
					_add_obj(ret, job_ptr, p, true, &conf);
			list_iterator_destroy(pi);
		} else if (job_ptr->part_ptr &&
			   _in_list(parts, job_ptr->part_ptr, _eq_ptr)) {
			_add_obj(ret, job_ptr, job_ptr->part_ptr, false, &conf);
		}
	}
	list_iterator_destroy(itr);
	if (!list_count(ret))
		FREE_NULL_LIST(ret);
done:
	unlock_slurmctld(job_read_lock);
	FREE_NULL_LIST(parts);
	return ret;
}
