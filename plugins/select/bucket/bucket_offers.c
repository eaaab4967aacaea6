/*
 * bucket_offers.c - one of our jobs offered node set by node set, where
 * slurmctld offers nodes so to a base that is not cons_tres and a plugin
 * cannot ask for one call with every node (no SELECT_SINGLE_JOB_TEST:
 * trait SB_HAVE_SELECT_SINGLE_JOB_TEST off; single_job_test.c is the
 * other way). offers_*(): select_bucket.h.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 There slurmctld calls a base that is not cons_tres (as it learns from
 * SELECT_CR_PLUGIN, which the base answers, or from running_cons_tres(),
 * which reads the plugin_id we copy from the base: sb_select.h) once per
 * node set, adding sets in Weight order until the call succeeds. A
 * policy that saw only the first sets would choose among them alone (t22 over linear). So for our jobs we choose among
 * every node the job may be offered in this attempt (offers_candidates:
 * its partition, less its excluded nodes, within its reservation, with
 * its features as slurmctld's valid_feature_counts() finds them, free
 * now) and answer "not in these" until slurmctld offers the set that
 * holds our nodes. Should an attempt end there (a node we counted is
 * never offered), the next attempt of that job chooses among the
 * offered nodes, as the base would. Feature-count requests
 * ("[a*2&b*4]", offered one feature at a time) choose among the offered
 * nodes too. The jobs the base places reach it exactly as slurmctld
 * calls.
 */
#include "config.h"

#include "sb_slurm.h"
#include "src/slurmctld/node_scheduler.h"

#include "select_bucket.h"

/*
 * Attempts of slurmctld to place one of our jobs node set by node set.
 * Its calls for one job follow each other with no other job_test call
 * between, each with at least the nodes of the one before: that is one
 * attempt. Direct-mapped by job id; a collision only starts an attempt
 * afresh.
 */
#define ATTEMPTS 64
typedef struct {
	uint32_t job_id;
	uint64_t call;			/* g_calls at its last call */
	int64_t offered;		/* nodes in its last call */
	bool outside;			/* its last answer: not in these */
	bool offered_only;		/* the last attempt ended outside */
} _attempt_t;

static pthread_mutex_t g_att_lock = PTHREAD_MUTEX_INITIALIZER;
static _attempt_t g_att[ATTEMPTS];
static uint64_t g_calls = 0;	/* job_test calls (atomic) */

/* Where the framework asks, the base answers: SELECT_CR_PLUGIN too. */
extern void offers_base_loaded(void)
{
}

extern bool offers_get_info(int dinfo, void *data)
{
	return false;
}

/* Every job_test() call counts, ours or not: a call between ends an attempt. */
extern void offers_call_seen(void)
{
	__atomic_add_fetch(&g_calls, 1, __ATOMIC_SEQ_CST);
}

extern int offers_base_test(const sb_job_test_t *t, bool shares)
{
	/* slurmctld already calls as the base wants */
	return sb_base_job_test(t);
}

/* Nodes of reservations active at @now other than @own leave @e. */
static void _drop_active_resv(bitstr_t *e, const void *own, time_t now)
{
	slurmctld_resv_t *r;
	list_itr_t *itr;

	if (!resv_list)
		return;
	itr = list_iterator_create(resv_list);
	while ((r = list_next(itr)))
		if ((r != own) && r->node_bitmap &&
		    (r->start_time <= now) && (now < r->end_time) &&
		    (bit_size(r->node_bitmap) == bit_size(e)))
			bit_and_not(e, r->node_bitmap);
	list_iterator_destroy(itr);
}

/*
 * Every node the job may be offered in this attempt, @bitmap included,
 * as slurmctld builds its node sets (_build_node_list): the partition,
 * not excluded, within the job's reservation and outside the others
 * active now, with its features; free now (ours are whole-node exclusive
 * jobs). NULL when the features need one call per feature (MOR/XAND),
 * or on an error.
 */
static bitstr_t *_every_offer(job_record_t *job_ptr, bitstr_t *bitmap)
{
	job_details_t *d = job_ptr->details;
	bool has_mor = false;
	bitstr_t *e;

	if (!job_ptr->part_ptr || !job_ptr->part_ptr->node_bitmap ||
	    !avail_node_bitmap || !idle_node_bitmap ||
	    (bit_size(job_ptr->part_ptr->node_bitmap) != bit_size(bitmap)))
		return NULL;
	e = bit_copy(job_ptr->part_ptr->node_bitmap);
	if (d->exc_node_bitmap)
		bit_and_not(e, d->exc_node_bitmap);
	if (job_ptr->resv_ptr && job_ptr->resv_ptr->node_bitmap)
		bit_and(e, job_ptr->resv_ptr->node_bitmap);
	_drop_active_resv(e, job_ptr->resv_ptr, time(NULL));
	bit_and(e, avail_node_bitmap);
	bit_and(e, idle_node_bitmap);
	if ((valid_feature_counts(job_ptr, false, e, &has_mor) !=
	     SLURM_SUCCESS) || has_mor) {
		FREE_NULL_BITMAP(e);
		return NULL;
	}
	bit_or(e, bitmap);
	return e;
}

extern bitstr_t *offers_candidates(const sb_job_test_t *t)
{
	job_record_t *job_ptr = t->job_ptr;
	_attempt_t *a = &g_att[job_ptr->job_id % ATTEMPTS];
	int64_t n;
	uint64_t calls = __atomic_load_n(&g_calls, __ATOMIC_SEQ_CST);
	bool offered_only;

	/* cons_tres gets every node in one call; only RUN_NOW is in sets */
	if (!SELECT_IS_MODE_RUN_NOW(t->mode) || base_is_cons())
		return NULL;
	n = bit_set_count(t->bitmap);
	slurm_mutex_lock(&g_att_lock);
	if ((a->job_id != job_ptr->job_id) || (a->call + 1 != calls) ||
	    (n < a->offered)) {
		/* a new attempt: did this job's last one end outside? */
		a->offered_only = (a->job_id == job_ptr->job_id) &&
			a->outside;
		a->job_id = job_ptr->job_id;
	}
	a->call = calls;
	a->offered = n;
	a->outside = false;
	offered_only = a->offered_only;
	slurm_mutex_unlock(&g_att_lock);
	if (offered_only) {
		log_flag(SELECT_TYPE, "%pJ: its last attempt ended before slurmctld offered the nodes we chose: choosing among the offered nodes",
			 job_ptr);
		return NULL;
	}
	return _every_offer(job_ptr, t->bitmap);
}

extern void offers_outside(job_record_t *job_ptr)
{
	_attempt_t *a = &g_att[job_ptr->job_id % ATTEMPTS];

	slurm_mutex_lock(&g_att_lock);
	if (a->job_id == job_ptr->job_id)
		a->outside = true;
	slurm_mutex_unlock(&g_att_lock);
}
