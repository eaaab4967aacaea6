/*
 * priority_series.c - priority/bucket's entry points and parts that are
 * Slurm 22.05's own (24.11's are in plugins/series/24.11/): sprio's
 * factor list (a request to filter, locks taken here) and the
 * per-partition priorities in job_ptr->priority_array.
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
 * PriorityFlags=INCR_ONLY a value never goes down.
 */
extern void prio_series_part_prios(job_record_t *job_ptr,
				   const sb_prio_factors_t *f,
				   const prio_settings_t *conf)
{
	int n = conf->tres_cnt, cnt, i = 0;
	double part_tres[MAX(n, 1)];
	part_record_t *part_ptr;
	list_itr_t *itr;
	char *str = NULL;

	if (!job_ptr->part_ptr_list)
		return;
	cnt = list_count(job_ptr->part_ptr_list);
	if (!job_ptr->priority_array)
		job_ptr->priority_array = xcalloc(cnt + 1, sizeof(uint32_t));
	list_sort(job_ptr->part_ptr_list, priority_sort_part_tier);
	itr = list_iterator_create(job_ptr->part_ptr_list);
	while ((part_ptr = list_next(itr)) && (i < cnt)) {
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

/* 22.05 keeps no per-account or per-user TRES run time in a QOS. */
extern void prio_series_qos_run_secs(slurmdb_qos_rec_t *qos,
				     job_record_t *job_ptr,
				     const uint64_t *delta, int n)
{
}

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
