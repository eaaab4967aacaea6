/*
 * bucket_job.c - job priority of priority/bucket: Slurm's multifactor
 * formula, and the factor list sprio prints.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 *   priority = site - nice
 *            + Wage * age + Wassoc * assoc + Wfs * fairshare
 *            + Wjs * jobsize + Wpart * partition + Wqos * qos
 *            + sum over TRES of Wtres * (TRES / partition's TRES)
 *
 * clamped to [1, 2^32 - 1], with one value per partition for jobs
 * submitted to several (job_ptr->priority_array, in PriorityTier order).
 * job_ptr->prio_factors keeps the *weighted* factors (what sprio prints).
 * The fair-share factor is the association's fs_factor from the last
 * fair-share pass (bucket_assoc.c), whatever the algorithm.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sb_slurm.h"

#include "priority_bucket.h"

static void _clear_factors(job_record_t *job_ptr)
{
	if (!job_ptr->prio_factors)
		return;
	xfree(job_ptr->prio_factors->tres_weights);
	xfree(job_ptr->prio_factors->priority_tres);
	memset(job_ptr->prio_factors, 0, sizeof(priority_factors_object_t));
}

/* TRES factors (unweighted) of @job_ptr in @part_ptr into @out[n]. */
static void _tres_factors(job_record_t *job_ptr, part_record_t *part_ptr,
			  const prio_settings_t *conf, double *out, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		uint64_t v = 0;

		out[i] = 0.0;
		if (job_ptr->tres_alloc_cnt &&
		    (job_ptr->tres_alloc_cnt[i] != NO_CONSUME_VAL64))
			v = job_ptr->tres_alloc_cnt[i];
		else if (job_ptr->tres_req_cnt)
			v = job_ptr->tres_req_cnt[i];
		if (conf->flags & PRIORITY_FLAGS_NO_NORMAL_TRES)
			out[i] = (double) v;
		else if (v && part_ptr && part_ptr->tres_cnt &&
			 part_ptr->tres_cnt[i])
			out[i] = (double) v / (double) part_ptr->tres_cnt[i];
	}
}

/* Multiply @f[n] by the TRES weights in place and return the sum. */
static double _tres_weigh(double *f, const prio_settings_t *conf, int n)
{
	double sum = 0.0;
	int i;

	for (i = 0; i < n; i++) {
		f[i] *= conf->weight_tres ? conf->weight_tres[i] : 0.0;
		sum += f[i];
	}
	return sum;
}

static double _age_factor(job_record_t *job_ptr, time_t now,
			  const prio_settings_t *conf)
{
	time_t accrue = job_ptr->details->accrue_time;
	double diff;

	if (!conf->weight_age || !accrue)
		return 0.0;
	diff = (now > accrue) ? difftime(now, accrue) : 0.0;
	if (!conf->max_age || (diff >= conf->max_age))
		return 1.0;
	return diff / (double) conf->max_age;
}

/*
 * priority/multifactor's job size factor, operation for operation: with
 * SMALL_RELATIVE_TO_TIME the size is divided by the time limit as is, so
 * a job with no limit (INFINITE) gets about 0 (1 with PriorityFavorSmall);
 * the unsigned differences of FavorSmall wrap as in Slurm.
 */
static double _js_factor(job_record_t *job_ptr, const prio_settings_t *conf)
{
	uint32_t cpus = 0, min_nodes = job_ptr->details->min_nodes;
	uint32_t ccpus = (cluster_cpus && (cluster_cpus != NO_VAL)) ?
		cluster_cpus : 1;
	uint32_t nodes = node_record_count ? node_record_count : 1;
	double js;

	if (!conf->weight_js)
		return 0.0;
	if (job_ptr->total_cpus)
		cpus = job_ptr->total_cpus;
	else if (job_ptr->details->max_cpus != NO_VAL)
		cpus = job_ptr->details->max_cpus;
	else if (job_ptr->details->min_cpus)
		cpus = job_ptr->details->min_cpus;

	if (conf->flags & PRIORITY_FLAGS_SIZE_RELATIVE) {
		uint32_t limit = 1;

		js = (double) min_nodes * (double) ccpus / (double) nodes;
		if (cpus > js)
			js = (double) cpus;
		if (job_ptr->time_limit != NO_VAL)
			limit = job_ptr->time_limit;
		else if (job_ptr->part_ptr)
			limit = job_ptr->part_ptr->max_time;
		js /= limit;
		js /= ccpus;
		if (slurm_conf.priority_favor_small)
			js = 1.0 - js;
	} else if (slurm_conf.priority_favor_small) {
		js = (double) (nodes - min_nodes) / (double) nodes;
		if (cpus) {
			js += (double) (ccpus - cpus) / (double) ccpus;
			js /= 2;
		}
	} else {
		js = (double) min_nodes / (double) nodes;
		if (cpus) {
			js += (double) cpus / (double) ccpus;
			js /= 2;
		}
	}
	if (!(js >= 0.0))	/* NaN too (a 0 time limit of a 0-size job) */
		js = 0.0;
	else if (js > 1.0)
		js = 1.0;
	return js;
}

static double _part_factor(part_record_t *part_ptr, const prio_settings_t *conf)
{
	if (!part_ptr || !part_ptr->priority_job_factor || !conf->weight_part)
		return 0.0;
	return (conf->flags & PRIORITY_FLAGS_NO_NORMAL_PART) ?
		(double) part_ptr->priority_job_factor :
		part_ptr->norm_priority;
}

/* Unweighted factors into job_ptr->prio_factors; job lock held. */
static void _set_factors(job_record_t *job_ptr, time_t now,
			 const prio_settings_t *conf)
{
	assoc_mgr_lock_t locks = { .assoc = READ_LOCK, .qos = READ_LOCK };
	priority_factors_object_t *f;

	if (!job_ptr->prio_factors)
		job_ptr->prio_factors =
			xmalloc(sizeof(priority_factors_object_t));
	else
		_clear_factors(job_ptr);
	f = job_ptr->prio_factors;

	f->priority_age = _age_factor(job_ptr, now, conf);
	f->priority_js = _js_factor(job_ptr, conf);
	f->priority_part = _part_factor(job_ptr->part_ptr, conf);
	f->priority_site = job_ptr->site_factor;
	f->nice = job_ptr->details->nice;

	assoc_mgr_lock(&locks);
	if (job_ptr->assoc_ptr && job_ptr->assoc_ptr->usage) {
		slurmdb_assoc_rec_t *a = job_ptr->assoc_ptr;

		if (conf->weight_fs && conf->calc_fairshare)
			f->priority_fs = isfinite(a->usage->fs_factor) ?
				a->usage->fs_factor : 0.0;
		if (conf->weight_assoc)
			f->priority_assoc =
				(conf->flags & PRIORITY_FLAGS_NO_NORMAL_ASSOC) ?
				(double) a->priority : a->usage->priority_norm;
	}
	if (job_ptr->qos_ptr && job_ptr->qos_ptr->priority &&
	    conf->weight_qos && job_ptr->qos_ptr->usage)
		f->priority_qos =
			(conf->flags & PRIORITY_FLAGS_NO_NORMAL_QOS) ?
			(double) job_ptr->qos_ptr->priority :
			job_ptr->qos_ptr->usage->norm_priority;
	assoc_mgr_unlock(&locks);

	if (conf->have_weight_tres && (conf->tres_cnt > 0)) {
		f->tres_cnt = conf->tres_cnt;
		f->priority_tres = xcalloc(conf->tres_cnt, sizeof(double));
		f->tres_weights = xcalloc(conf->tres_cnt, sizeof(double));
		memcpy(f->tres_weights, conf->weight_tres,
		       sizeof(double) * conf->tres_cnt);
		_tres_factors(job_ptr, job_ptr->part_ptr, conf,
			      f->priority_tres, conf->tres_cnt);
	}
}

/* The sum without partition and TRES terms (they vary per partition). */
static double _common_sum(const priority_factors_object_t *f)
{
	return f->priority_age + f->priority_assoc + f->priority_fs +
		f->priority_js + f->priority_qos +
		(double) (((int64_t) f->priority_site) - NICE_OFFSET) -
		(double) (((int64_t) f->nice) - NICE_OFFSET);
}

static uint32_t _clamp(job_record_t *job_ptr, double prio)
{
	if (!(prio >= 1.0))	/* 0 is for held jobs; NaN too */
		return 1;
	if (prio > (double) 0xffffffff) {
		error(BUCKET_PFX "%pJ priority %.0f exceeds 32 bits, using 4294967295",
		      job_ptr, prio);
		return 0xffffffff;
	}
	return (uint32_t) prio;
}

extern uint32_t bucket_job_priority(job_record_t *job_ptr, time_t now)
{
	int n = slurmctld_tres_cnt;
	double tres_w[MAX(n, 1)], prio, tres_sum = 0.0;
	priority_factors_object_t *f;
	prio_settings_t conf;

	if (job_ptr->direct_set_prio && (job_ptr->priority > 0)) {
		_clear_factors(job_ptr);
		return job_ptr->priority;
	}
	if (!job_ptr->details) {
		error(BUCKET_PFX "%pJ has no details, cannot set its priority",
		      job_ptr);
		_clear_factors(job_ptr);
		return 0;
	}
	prio_settings_snapshot(&conf, tres_w, n);
	_set_factors(job_ptr, now, &conf);
	f = job_ptr->prio_factors;

	if (slurm_conf.debug_flags & DEBUG_FLAG_PRIO)
		info("%pJ factors: age %f assoc %f fairshare %f jobsize %f partition %f qos %f site %u nice %d",
		     job_ptr, f->priority_age, f->priority_assoc,
		     f->priority_fs, f->priority_js, f->priority_part,
		     f->priority_qos, f->priority_site,
		     (int) f->nice - NICE_OFFSET);

	f->priority_age *= conf.weight_age;
	f->priority_assoc *= conf.weight_assoc;
	f->priority_fs *= conf.weight_fs;
	f->priority_js *= conf.weight_js;
	f->priority_part *= conf.weight_part;
	f->priority_qos *= conf.weight_qos;
	if (f->priority_tres)
		tres_sum = _tres_weigh(f->priority_tres, &conf, f->tres_cnt);
	prio = _common_sum(f) + f->priority_part + tres_sum;

	if (job_ptr->part_ptr_list) {
		int cnt = list_count(job_ptr->part_ptr_list), i = 0;
		double part_tres[MAX(n, 1)];
		part_record_t *part_ptr;
		list_itr_t *itr;
		char *str = NULL;

		if (!job_ptr->priority_array)
			job_ptr->priority_array =
				xcalloc(cnt + 1, sizeof(uint32_t));
		list_sort(job_ptr->part_ptr_list, priority_sort_part_tier);
		itr = list_iterator_create(job_ptr->part_ptr_list);
		while ((part_ptr = list_next(itr)) && (i < cnt)) {
			double p = _common_sum(f);
			uint32_t v;

			p += _part_factor(part_ptr, &conf) * conf.weight_part;
			if (conf.have_weight_tres && (n > 0)) {
				_tres_factors(job_ptr, part_ptr, &conf,
					      part_tres, n);
				p += _tres_weigh(part_tres, &conf, n);
			}
			v = _clamp(job_ptr, p);
			if (!(conf.flags & PRIORITY_FLAGS_INCR_ONLY) ||
			    (job_ptr->priority_array[i] < v))
				job_ptr->priority_array[i] = v;
			if (slurm_conf.debug_flags & DEBUG_FLAG_PRIO)
				xstrfmtcat(str, "%s%s=%u", str ? ", " : "",
					   part_ptr->name,
					   job_ptr->priority_array[i]);
			i++;
		}
		list_iterator_destroy(itr);
		log_flag(PRIO, "%pJ per-partition priorities: %s",
			 job_ptr, str);
		xfree(str);
	}

	log_flag(PRIO, "%pJ priority %.2f = site %"PRId64" + age %.2f + assoc %.2f + fairshare %.2f + jobsize %.2f + partition %.2f + qos %.2f + tres %.2f - nice %"PRId64,
		 job_ptr, prio,
		 ((int64_t) f->priority_site) - NICE_OFFSET,
		 f->priority_age, f->priority_assoc, f->priority_fs,
		 f->priority_js, f->priority_part, f->priority_qos, tres_sum,
		 ((int64_t) f->nice) - NICE_OFFSET);
	return _clamp(job_ptr, prio);
}

extern void bucket_job_recalc_all(time_t now)
{
	uint16_t flags = prio_settings.flags;
	job_record_t *job_ptr;
	list_itr_t *itr;

	if (!job_list)
		return;
	itr = list_iterator_create(job_list);
	while ((job_ptr = list_next(itr))) {
		uint32_t prio;

		/* 0 is a held job; running jobs only when asked */
		if ((job_ptr->priority == 0) ||
		    IS_JOB_POWER_UP_NODE(job_ptr) ||
		    (!IS_JOB_PENDING(job_ptr) &&
		     !(flags & PRIORITY_FLAGS_CALCULATE_RUNNING)))
			continue;
		prio = bucket_job_priority(job_ptr, now);
		if (!(flags & PRIORITY_FLAGS_INCR_ONLY) ||
		    (job_ptr->priority < prio)) {
			if (job_ptr->priority != prio)
				last_job_update = time(NULL);
			job_ptr->priority = prio;
		}
	}
	list_iterator_destroy(itr);
}

/*
 * One factor object for @job_ptr in @part_ptr. As multifactor, a job in
 * one partition with an administrator's priority shows just that; a job in
 * several shows its factors in each (zero for such a job), and a job
 * without factors yet (no pass since a restart) zeros.
 */
static void _add_obj(list_t *ret, job_record_t *job_ptr, part_record_t *part_ptr,
		     bool multi, const prio_settings_t *conf)
{
	priority_factors_object_t *obj = xmalloc(sizeof(*obj));

	if (!multi && job_ptr->direct_set_prio) {
		obj->direct_prio = job_ptr->priority;
	} else {
		slurm_copy_priority_factors_object(obj, job_ptr->prio_factors);
		if (multi) {
			obj->priority_part = _part_factor(part_ptr, conf) *
				conf->weight_part;
			if (obj->priority_tres &&
			    (obj->tres_cnt == (uint32_t) conf->tres_cnt)) {
				_tres_factors(job_ptr, part_ptr, conf,
					      obj->priority_tres,
					      obj->tres_cnt);
				_tres_weigh(obj->priority_tres, conf,
					    obj->tres_cnt);
			}
		}
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

/* Private data: may @uid see @job_ptr? */
static bool _visible(job_record_t *job_ptr, uid_t uid)
{
	if (!(slurm_conf.private_data & PRIVATE_DATA_JOBS) ||
	    (job_ptr->user_id == uid) || validate_operator(uid))
		return true;
	if (slurm_mcs_get_privatedata() == 1)
		return !mcs_g_check_mcs_label(uid, job_ptr->mcs_label, false);
	return assoc_mgr_is_user_acct_coord(acct_db_conn, uid,
					    job_ptr->account);
}

extern list_t *bucket_job_factors_list(priority_factors_request_msg_t *req_msg,
				    uid_t uid)
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
		time_t use_time;

		if (!(conf.flags & PRIORITY_FLAGS_CALCULATE_RUNNING) &&
		    !IS_JOB_PENDING(job_ptr))
			continue;
		if (IS_JOB_REVOKED(job_ptr) || !job_ptr->details)
			continue;
		use_time = (conf.flags & PRIORITY_FLAGS_ACCRUE_ALWAYS) ?
			job_ptr->details->submit_time :
			job_ptr->details->begin_time;
		if (!use_time || (use_time > now))
			continue;	/* not eligible yet */
		if (job_ptr->priority == 0)
			continue;	/* held */
		if (!_visible(job_ptr, uid))
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
