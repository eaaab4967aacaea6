/*
 * priority_from_24_11.c - priority/bucket's entry points and parts as
 * Slurm 24.11 and 26.05 have them (22.05's are in
 * plugins/series/22.05/priority_series.c; the names that differ between
 * 24.11 and 26.05 are in their sb_slurm.h and sb_priority.h): the decay
 * thread started by slurmctld, the recovery hook, sprio's factor list
 * (called with the locks held, one line per partition and QOS, filtered
 * by sprio itself), the priorities per partition and QOS in
 * job_ptr->part_prio (26.05: prio_mult), and the TRES run time a QOS counts per account and
 * per user.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sb_slurm.h"

#include "priority_bucket.h"

/*
 * Called by slurmctld once the job state is read, with every slurmctld
 * lock held for writing (controller.c): only start the thread, which
 * waits for the locks itself. Called again after a fini()/init() pair
 * (the controller's loop), never twice for one init().
 */
extern void priority_p_thread_start(void)
{
	if (!running_in_slurmctld())
		return;
	bucket_usage_start();
}

/*
 * After the job state is read: the boost is for priority/basic, not us
 * (0, as multifactor). The decay thread computes every job's factors on
 * its first pass, which runs as soon as slurmctld releases its locks.
 */
extern uint32_t priority_p_recover(uint32_t prio_boost)
{
	return 0;
}

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

/*
 * The weighted QOS factor of @qos, one of the job's QOS, in a line of
 * its own: as multifactor, a QOS with no priority (or no QOS weight)
 * keeps the job's own QOS factor.
 */
static double _qos_factor(slurmdb_qos_rec_t *qos, const sb_prio_factors_t *f,
			  const prio_settings_t *conf)
{
	if (qos && qos->priority && conf->weight_qos && qos->usage)
		return bucket_job_qos_factor(qos, conf);
	return f->priority_qos;
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
		w->f, w->part, _qos_factor(qos, w->f, w->conf), w->tres));
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
 * job_ptr->part_prio, where 24.11's schedulers look: one value per
 * partition and QOS, partition-major (job_scheduler.c walks the job's
 * partitions, then its QOS), partitions in the list's order (slurmctld
 * sorts it by PriorityTier when it builds it; sorting it again could
 * swap partitions of one tier under priority_array_names). Rebuilt
 * when missing, after a partition change (last_part_update) or when
 * the lists outgrew it; kept otherwise, so INCR_ONLY can compare.
 */
extern void prio_series_part_prios(job_record_t *job_ptr,
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

static int _is_acct(void *x, void *key)
{
	return !xstrcmp(((slurmdb_used_limits_t *) x)->acct, key);
}

static int _is_user(void *x, void *key)
{
	return ((slurmdb_used_limits_t *) x)->uid == *(uint32_t *) key;
}

static void _sub(uint64_t *have, const uint64_t *delta, int n)
{
	int i;

	for (i = 0; have && (i < n); i++) {
		if (i == TRES_ARRAY_ENERGY)
			continue;
		have[i] = (delta[i] > have[i]) ? 0 : have[i] - delta[i];
	}
}

/*
 * acct_policy adds a job's time limit x TRES to its QOS's records of its
 * account and user as well as to the QOS (24.11); the run time the job
 * has used comes off all three, or MaxTRESRunMinsPerAccount/PerUser
 * would count it until the job ends. Records are only found, never
 * created: one acct_policy did not make holds nothing of this job.
 */
extern void prio_series_qos_run_secs(slurmdb_qos_rec_t *qos,
				     job_record_t *job_ptr,
				     const uint64_t *delta, int n)
{
	slurmdb_used_limits_t *used;

	if (!qos || !qos->usage || !job_ptr->assoc_ptr)
		return;
	if (qos->usage->acct_limit_list &&
	    (used = list_find_first(qos->usage->acct_limit_list, _is_acct,
				    job_ptr->assoc_ptr->acct)))
		_sub(used->tres_run_secs, delta, n);
	if (qos->usage->user_limit_list &&
	    (used = list_find_first(qos->usage->user_limit_list, _is_user,
				    &job_ptr->user_id)))
		_sub(used->tres_run_secs, delta, n);
}

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
				_qos_factor(qos, obj->prio_factors, conf);
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
