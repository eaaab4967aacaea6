/*
 * select_series.c - select/bucket's entry points and series hooks for
 * Slurm 24.11 (select_bucket.h, series_*()).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * 24.11's select framework has 32 entry points; job_test() ends with the
 * reservation's exclusions and backfill's WILL_RUN window.
 *
 * The base: bucket.conf's BaseSelectType (24.11 refuses
 * SelectTypeParameters=OTHER_CONS_TRES), select/linear by default.
 *
 * Job data: 24.11's bases keep none, and the framework saves Slurm's own
 * 4-byte plugin id in front of whatever the plugin packs; 26.05 reads
 * exactly those 4 bytes back. So we pack the base's bytes alone (none),
 * and a job saved under select/bucket is read by 26.05 and by the base
 * alone after a switch back.
 *
 * Node sets. 24.11 has no SELECT_SINGLE_JOB_TEST: slurmctld calls a base
 * that is not cons_tres (as it learns from SELECT_CR_PLUGIN, which the
 * base answers) once per node set, adding sets in Weight order until the
 * call succeeds. A policy that saw only the first sets would choose
 * among them alone (t22 over linear). So for our jobs we choose among
 * every node the job may be offered in this attempt (series_candidates:
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

/* The private table of src/interfaces/select.c, field by field. */
const char *series_base_syms[] = {
	"plugin_id",
	"select_p_state_save",
	"select_p_state_restore",
	"select_p_job_init",
	"select_p_node_init",
	"select_p_job_test",
	"select_p_job_begin",
	"select_p_job_ready",
	"select_p_job_expand",
	"select_p_job_resized",
	"select_p_job_fini",
	"select_p_job_suspend",
	"select_p_job_resume",
	"select_p_step_pick_nodes",
	"select_p_step_start",
	"select_p_step_finish",
	"select_p_select_nodeinfo_pack",
	"select_p_select_nodeinfo_unpack",
	"select_p_select_nodeinfo_alloc",
	"select_p_select_nodeinfo_free",
	"select_p_select_nodeinfo_set_all",
	"select_p_select_nodeinfo_set",
	"select_p_select_nodeinfo_get",
	"select_p_select_jobinfo_alloc",
	"select_p_select_jobinfo_free",
	"select_p_select_jobinfo_set",
	"select_p_select_jobinfo_get",
	"select_p_select_jobinfo_copy",
	"select_p_select_jobinfo_pack",
	"select_p_select_jobinfo_unpack",
	"select_p_get_info_from_plugin",
	"select_p_reconfigure",
};
const size_t series_base_syms_size = sizeof(series_base_syms);

_Static_assert(sizeof(series_base_syms) == sizeof(sb_select_ops_t),
	       "one symbol per entry of sb_select_ops_t");

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
static uint64_t g_calls = 0;	/* job_test calls, under g_att_lock */

extern const char *series_base_from_slurm_conf(void)
{
	return NULL;	/* 24.11 has no OTHER_CONS_TRES */
}

extern void series_base_loaded(void)
{
}

extern bool series_get_info(enum select_plugindata_info dinfo, void *data)
{
	return false;	/* the base answers, SELECT_CR_PLUGIN included */
}

extern int series_base_test(job_record_t *job_ptr, bitstr_t *bitmap,
			    uint32_t min_nodes, uint32_t max_nodes,
			    uint32_t req_nodes, uint16_t mode,
			    list_t *preemptee_candidates,
			    list_t **preemptee_job_list,
			    const sb_job_test_extra_t *x, bool shares)
{
	/* slurmctld already calls as the base wants */
	return sb_base_job_test(job_ptr, bitmap, min_nodes, max_nodes,
				req_nodes, mode, preemptee_candidates,
				preemptee_job_list, x);
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

extern bitstr_t *series_candidates(job_record_t *job_ptr, bitstr_t *bitmap,
				   uint16_t mode, uint32_t min_nodes,
				   uint32_t max_nodes, uint32_t req_nodes)
{
	_attempt_t *a = &g_att[job_ptr->job_id % ATTEMPTS];
	int64_t n = bit_set_count(bitmap);
	bool offered_only;

	/* cons_tres gets every node in one call; only RUN_NOW is in sets */
	if (!SELECT_IS_MODE_RUN_NOW(mode) || base_is_cons())
		return NULL;
	slurm_mutex_lock(&g_att_lock);
	if ((a->job_id != job_ptr->job_id) || (a->call + 1 != g_calls) ||
	    (n < a->offered)) {
		/* a new attempt: did this job's last one end outside? */
		a->offered_only = (a->job_id == job_ptr->job_id) &&
			a->outside;
		a->job_id = job_ptr->job_id;
	}
	a->call = g_calls;
	a->offered = n;
	a->outside = false;
	offered_only = a->offered_only;
	slurm_mutex_unlock(&g_att_lock);
	if (offered_only) {
		log_flag(SELECT_TYPE, "%pJ: its last attempt ended before slurmctld offered the nodes we chose: choosing among the offered nodes",
			 job_ptr);
		return NULL;
	}
	return _every_offer(job_ptr, bitmap);
}

extern void series_outside_offer(job_record_t *job_ptr)
{
	_attempt_t *a = &g_att[job_ptr->job_id % ATTEMPTS];

	slurm_mutex_lock(&g_att_lock);
	if (a->job_id == job_ptr->job_id)
		a->outside = true;
	slurm_mutex_unlock(&g_att_lock);
}

extern int select_p_job_test(job_record_t *job_ptr, bitstr_t *bitmap,
			     uint32_t min_nodes, uint32_t max_nodes,
			     uint32_t req_nodes, uint16_t mode,
			     list_t *preemptee_candidates,
			     list_t **preemptee_job_list,
			     resv_exc_t *resv_exc_ptr,
			     will_run_data_t *will_run_ptr)
{
	sb_job_test_extra_t x = {
		.resv_exc_ptr = resv_exc_ptr,
		.will_run_ptr = will_run_ptr,
	};

	slurm_mutex_lock(&g_att_lock);
	g_calls++;
	slurm_mutex_unlock(&g_att_lock);
	if (!job_ptr || !job_ptr->details || !bitmap)
		return EINVAL;
	return job_test(job_ptr, bitmap, min_nodes, max_nodes, req_nodes,
			mode, preemptee_candidates, preemptee_job_list, &x);
}

/* The base's job data (none in 24.11), nothing of ours: see above. */
extern int select_p_select_jobinfo_pack(select_jobinfo_t *jobinfo,
					buf_t *buffer,
					uint16_t protocol_version)
{
	if (!base_ready())
		return SLURM_SUCCESS;
	return (*base.jobinfo_pack)(jobinfo, buffer, protocol_version);
}

extern int select_p_select_jobinfo_unpack(select_jobinfo_t **jobinfo,
					  buf_t *buffer,
					  uint16_t protocol_version)
{
	*jobinfo = NULL;
	if (!base_ready())
		return SLURM_SUCCESS;
	return (*base.jobinfo_unpack)(jobinfo, buffer, protocol_version);
}
