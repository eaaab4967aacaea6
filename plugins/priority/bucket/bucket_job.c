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
 * submitted to several (and, where slurmctld keeps them so, per partition
 * and QOS for jobs with several QOS), stored where slurmctld keeps them
 * (prio_part_prios()).
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
	memset(job_ptr->prio_factors, 0, sizeof(sb_prio_factors_t));
}

extern void bucket_job_tres_factors(job_record_t *job_ptr,
				    part_record_t *part_ptr,
				    const prio_settings_t *conf, double *out,
				    int n)
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

extern double bucket_job_tres_weigh(double *f, const prio_settings_t *conf,
				    int n)
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
 * the unsigned CPU difference of FavorSmall wraps as in Slurm, and so
 * does the node difference where the tree's multifactor lets it
 * (SB_PRIO_JS_STRICT, sb_priority.h, which also says which nodes count).
 */
static double _js_factor(job_record_t *job_ptr, const prio_settings_t *conf)
{
	uint32_t cpus = 0, min_nodes = job_ptr->details->min_nodes;
	uint32_t ccpus = (cluster_cpus && (cluster_cpus != NO_VAL)) ?
		cluster_cpus : 1;
	uint32_t nodes = (SB_PRIO_NODE_COUNT > 0) ? SB_PRIO_NODE_COUNT : 1;
	double js;

	if (!conf->weight_js)
		return 0.0;
	if (SB_PRIO_JS_STRICT && ((SB_PRIO_NODE_COUNT <= 0) || !cluster_cpus ||
				  (cluster_cpus == NO_VAL)))
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
		if (SB_PRIO_JS_STRICT && (nodes <= min_nodes))
			js = 0.0;
		else
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

extern double bucket_job_part_factor(part_record_t *part_ptr,
				     const prio_settings_t *conf)
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
	sb_prio_factors_t *f;

	if (!job_ptr->prio_factors)
		job_ptr->prio_factors = xmalloc(sizeof(sb_prio_factors_t));
	else
		_clear_factors(job_ptr);
	f = job_ptr->prio_factors;

	f->priority_age = _age_factor(job_ptr, now, conf);
	f->priority_js = _js_factor(job_ptr, conf);
	f->priority_part = bucket_job_part_factor(job_ptr->part_ptr, conf);
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
		bucket_job_tres_factors(job_ptr, job_ptr->part_ptr, conf,
					f->priority_tres, conf->tres_cnt);
	}
}

/*
 * The job's priority from its weighted factors, summed in multifactor's
 * order: a float sum depends on it, and the integer part must agree.
 */
static double _total(const sb_prio_factors_t *f, double tres)
{
	return f->priority_age + f->priority_assoc + f->priority_fs +
		f->priority_js + f->priority_part + f->priority_qos + tres +
		(double) (((int64_t) f->priority_site) - NICE_OFFSET) -
		(double) (((int64_t) f->nice) - NICE_OFFSET);
}

extern double bucket_job_part_sum(const sb_prio_factors_t *f, double part,
				  double qos, double tres)
{
	return part + (f->priority_age + f->priority_assoc + f->priority_fs +
		       f->priority_js + qos + tres +
		       (double) (((int64_t) f->priority_site) - NICE_OFFSET) -
		       (double) (((int64_t) f->nice) - NICE_OFFSET));
}

extern uint32_t bucket_job_clamp(job_record_t *job_ptr, double prio)
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

extern double bucket_job_qos_factor(slurmdb_qos_rec_t *qos,
				    const prio_settings_t *conf)
{
	if (!qos || !qos->priority || !conf->weight_qos || !qos->usage)
		return 0.0;
	return ((conf->flags & PRIORITY_FLAGS_NO_NORMAL_QOS) ?
		(double) qos->priority : qos->usage->norm_priority) *
		(double) conf->weight_qos;
}

extern uint32_t bucket_job_priority(job_record_t *job_ptr, time_t now)
{
	int n = slurmctld_tres_cnt;
	double tres_w[MAX(n, 1)], prio, tres_sum = 0.0;
	sb_prio_factors_t *f;
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
		tres_sum = bucket_job_tres_weigh(f->priority_tres, &conf,
						 f->tres_cnt);
	prio = _total(f, tres_sum);

	prio_part_prios(job_ptr, f, &conf);

	log_flag(PRIO, "%pJ priority %.2f = site %"PRId64" + age %.2f + assoc %.2f + fairshare %.2f + jobsize %.2f + partition %.2f + qos %.2f + tres %.2f - nice %"PRId64,
		 job_ptr, prio,
		 ((int64_t) f->priority_site) - NICE_OFFSET,
		 f->priority_age, f->priority_assoc, f->priority_fs,
		 f->priority_js, f->priority_part, f->priority_qos, tres_sum,
		 ((int64_t) f->nice) - NICE_OFFSET);
	return bucket_job_clamp(job_ptr, prio);
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

extern void bucket_job_part_view(job_record_t *job_ptr,
				 part_record_t *part_ptr, sb_prio_factors_t *f,
				 const prio_settings_t *conf)
{
	f->priority_part = bucket_job_part_factor(part_ptr, conf) *
		conf->weight_part;
	if (f->priority_tres && (f->tres_cnt == (uint32_t) conf->tres_cnt)) {
		bucket_job_tres_factors(job_ptr, part_ptr, conf,
					f->priority_tres, f->tres_cnt);
		bucket_job_tres_weigh(f->priority_tres, conf, f->tres_cnt);
	}
}

/* Private data: may @uid see @job_ptr? */
static bool _visible(job_record_t *job_ptr, uid_t uid)
{
	if (!(slurm_conf.private_data & PRIVATE_DATA_JOBS) ||
	    (job_ptr->user_id == uid) || validate_operator(uid))
		return true;
	if (slurm_mcs_get_privatedata() == 1)
		return !mcs_g_check_mcs_label(uid, job_ptr->mcs_label, false);
	return sb_is_user_acct_coord(acct_db_conn, uid, job_ptr->account);
}

extern bool bucket_job_listed(job_record_t *job_ptr, uid_t uid,
			      const prio_settings_t *conf, time_t now)
{
	time_t use_time;

	if (!(conf->flags & PRIORITY_FLAGS_CALCULATE_RUNNING) &&
	    !IS_JOB_PENDING(job_ptr))
		return false;
	if (IS_JOB_REVOKED(job_ptr) || !job_ptr->details)
		return false;
	use_time = (conf->flags & PRIORITY_FLAGS_ACCRUE_ALWAYS) ?
		job_ptr->details->submit_time : job_ptr->details->begin_time;
	if (!use_time || (use_time > now))
		return false;	/* not eligible yet */
	if (job_ptr->priority == 0)
		return false;	/* held */
	return _visible(job_ptr, uid);
}

/*
 * The weighted QOS factor of @qos, one of the job's QOS, in a line of
 * its own: as multifactor, a QOS with no priority (or no QOS weight)
 * keeps the job's own QOS factor.
 */
extern double bucket_job_qos_line(slurmdb_qos_rec_t *qos,
				  const sb_prio_factors_t *f,
				  const prio_settings_t *conf)
{
	if (qos && qos->priority && conf->weight_qos && qos->usage)
		return bucket_job_qos_factor(qos, conf);
	return f->priority_qos;
}
