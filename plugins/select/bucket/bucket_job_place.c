/*
 * bucket_job_place.c - select_p_job_test() of select/bucket: which jobs
 * we place, and how our choice reaches the base plugin.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Ours are the jobs node buckets and a Maui policy can decide: whole-node
 * exclusive requests for a fixed number of nodes (slurmctld calls once
 * per "[a*2&b*4]" count), with per-node minimums that cover all the CPUs
 * they ask for. Every other job goes to the base unchanged and gets
 * exactly its answer, WILL_RUN included (_base_reason() names why; the
 * rule is common/base_reason.h's, which 'sbucket why' applies too).
 *
 *   RUN_NOW    sb_place() on the bucket set (the bucket path, or the
 *              per-node path for policies that order nodes per job); the
 *              nodes it picks are the only ones the base's job_test sees,
 *              so the base builds the job's resources on exactly them. If
 *              the base refuses them, or we find no room while jobs could
 *              be preempted, the base decides on everything offered.
 *   TEST_ONLY  sb_place_ideal(): the nodes on an empty cluster, checked
 *              by the base the same way; the base decides when we find
 *              none (a job is never refused at submit on our word alone).
 *   WILL_RUN   sb_will_run_query() on the plan of running jobs' ends,
 *              reservations and down nodes (bucket_state.c).
 *
 * slurmctld passes the nodes the job may have in @bitmap: partition,
 * features, node states, reservations and, for RUN_NOW, nodes without
 * jobs. Everything outside it, and the buckets whose GRES cannot serve
 * the job, are "excluded", which keeps exclusive jobs on the bucket path
 * (place.h).
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "sb_slurm.h"

#include "base_reason.h"
#include "select_bucket.h"

typedef struct {
	job_record_t *job_ptr;
	const sb_policy_t *policy;
	sb_policy_t job_policy;		/* when the job chose its own */
	sb_bitmap_t *excl;		/* what the job may not have */
	uint32_t count;			/* nodes */
	uint16_t mode;
} _job_t;

static const char *_mode_name(uint16_t mode)
{
	if (SELECT_IS_MODE_TEST_ONLY(mode))
		return "TEST_ONLY";
	if (SELECT_IS_MODE_WILL_RUN(mode))
		return "WILL_RUN";
	return "RUN_NOW";
}

/*
 * What decides whether the job shares its nodes, as slurmctld resolves
 * it for the base (node_scheduler.c), without changing the job.
 */
static void _share_facts(const job_record_t *job_ptr, sb_share_facts_t *f)
{
	const job_details_t *d = job_ptr->details;
	uint16_t part_share = job_ptr->part_ptr ?
		job_ptr->part_ptr->max_share : 1;

	memset(f, 0, sizeof(*f));
	f->reboot = job_ptr->reboot;
	f->part_exclusive = (part_share == 0);
	f->part_no = (part_share == 1);
	f->part_force = (part_share & SHARED_FORCE) &&
		((part_share & ~SHARED_FORCE) > 1);
	f->job_share = (d->share_res == 1);
	f->job_exclusive = (d->share_res == 0) ||
		(d->whole_node == WHOLE_NODE_REQUIRED);
	f->base_cons = base_is_cons();
}

static bool _shares(const job_record_t *job_ptr)
{
	sb_share_facts_t f;

	_share_facts(job_ptr, &f);
	return sb_job_shares(&f);
}

/*
 * Is this one of slurmctld's calls for the nodes of one counted feature
 * ("[blue*2&fat*3]")? It asks for exactly that count (min_nodes =
 * req_nodes, and the job's min_nodes set to it for the call) while
 * max_nodes stays the job's.
 */
static bool _feature_count_call(const job_record_t *job_ptr,
				uint32_t min_nodes, uint32_t req_nodes)
{
	const job_details_t *d = job_ptr->details;
	job_feature_t *feat;
	list_itr_t *itr;
	bool found = false;

	if ((min_nodes != req_nodes) || (d->min_nodes != min_nodes) ||
	    !d->feature_list_use)
		return false;
	itr = list_iterator_create(d->feature_list_use);
	while (!found && (feat = list_next(itr)))
		found = (feat->count == min_nodes);
	list_iterator_destroy(itr);
	return found;
}

/*
 * Why the base places this job and not we (sb_base_reason(), static
 * strings shown in the DebugFlags=SelectType line), or NULL when it is
 * ours.
 */
static const char *_base_reason(const job_record_t *job_ptr,
				bitstr_t *bitmap, uint32_t min_nodes,
				uint32_t max_nodes, uint32_t req_nodes,
				uint16_t mode, list_t *preemptee_candidates,
				const sb_job_test_extra_t *x,
				const sb_policy_t *policy)
{
	const job_details_t *d = job_ptr->details;
	sb_base_facts_t f = {
		.min_nodes = min_nodes,
		.max_nodes = max_nodes,
		.model = bucket_state.set &&
			(bit_size(bitmap) == (bitoff_t) bucket_state.n),
		.required_nodes = d->req_node_bitmap &&
			(bit_ffs(d->req_node_bitmap) >= 0),
		.contiguous = d->contiguous,
		.min_cpus = d->min_cpus,
		.node_cpus = convert_node_cpus(job_ptr),
		.core_reservation = sb_extra_core_reserved(x),
		.will_run = SELECT_IS_MODE_WILL_RUN(mode),
		.preempt_candidates = preemptee_candidates &&
			list_count(preemptee_candidates),
		.contiguous_policy = (policy->kind == SB_POLICY_CONTIGUOUS),
	};

	_share_facts(job_ptr, &f.share);
	f.feature_count_call = (min_nodes != max_nodes) &&
		_feature_count_call(job_ptr, min_nodes, req_nodes);
	return sb_base_reason(&f);
}

/* The policy: the job's own when bucket.conf lets it choose. */
static void _set_policy(_job_t *j)
{
	const char *name = convert_job_policy_name(j->job_ptr);
	const sb_policy_t *cluster = sb_bucket_conf_policy(bucket_conf);

	j->policy = cluster;
	if (!name)
		return;
	if (!sb_bucket_conf_job_policy(bucket_conf, name, &j->job_policy)) {
		j->policy = &j->job_policy;
		return;
	}
	log_flag(SELECT_TYPE, "%pJ asks for NodeAllocationPolicy %s: %s; using %s",
		 j->job_ptr, name, (errno == EPERM) ?
		 "not in bucket.conf's AllowJobPolicies" : "no such policy",
		 sb_policy_name(cluster->kind));
}

/* Nodes of buckets whose GRES cannot serve the job go into @out. */
static void _gres_exclude(_job_t *j, sb_bitmap_t *out)
{
	sb_bucket_set_t *set = bucket_state.set;
	size_t b;

	if (!j->job_ptr->gres_list_req ||
	    !list_count(j->job_ptr->gres_list_req))
		return;
	for (b = 0; b < sb_bucket_set_size(set); b++) {
		const sb_node_t *rep = sb_bucket_rep(set, b);
		node_record_t *node_ptr = node_record_table_ptr[rep->index];

		if (!node_ptr)
			continue;
		if (!sb_gres_job_test(j->job_ptr->gres_list_req,
				      node_ptr->gres_list, j->job_ptr->job_id,
				      node_ptr->name))
			sb_bitmap_or(out, sb_bucket_all(set, b));
	}
}

/* Node names of @nodes, Slurm's hostlist form (xfree it). */
static char *_names(const bitstr_t *nodes)
{
	return bitmap2node_name((bitstr_t *) nodes);
}

static uint32_t _cpus_of(bitstr_t *nodes)
{
	node_record_t *node_ptr;
	uint32_t sum = 0;
	bitoff_t i, last = bit_fls(nodes);

	for (i = bit_ffs(nodes); (i >= 0) && (i <= last); i++)
		if (bit_test(nodes, i) && (node_ptr = node_record_table_ptr[i]))
			sum += node_ptr->config_ptr ?
				node_ptr->config_ptr->cpus : node_ptr->cpus;
	return sum;
}

/*
 * The nodes for @j now (sb_place) or on an empty cluster
 * (sb_place_ideal, @ideal) into @out. Returns the placement result, or
 * -1 on an internal error (logged).
 */
static int _place(_job_t *j, bool ideal, bitstr_t *out, const char **path)
{
	sb_placement_t pl;
	sb_request_t r;
	int rc;

	if (convert_request(&r, j->job_ptr, j->count) < 0)
		return -1;
	log_flag(SELECT_TYPE, "%pJ needs %u nodes, each with %u CPUs, %"PRIu64" MB, %"PRIu64" MB tmp%s%s",
		 j->job_ptr, j->count, r.chunks[0].min_cpus,
		 r.chunks[0].min_memory, r.chunks[0].min_tmp,
		 r.nprefer ? ", preferring " : "",
		 r.nprefer ? convert_job_prefer(j->job_ptr) : "");
	r.excluded = j->excl;
	rc = ideal ? sb_place_ideal(bucket_state.set, &r, j->policy,
				    SB_PATH_AUTO, &pl) :
		sb_place(bucket_state.set, &r, j->policy, SB_PATH_AUTO, &pl);
	r.excluded = NULL;	/* j's, not the request's */
	sb_request_fini(&r);
	if (rc < 0) {
		error(BUCKET_PFX "%pJ: placement failed: %m", j->job_ptr);
		return -1;
	}
	*path = pl.bucket_path ? NULL : pl.reason;
	if (pl.result == SB_PLACE_RUN)
		convert_sb_to_bitstr(pl.nodes[0], out);
	rc = pl.result;
	sb_placement_fini(&pl);
	return rc;
}

/*
 * WILL_RUN: the earliest start of @j on the plan and its nodes into
 * @out. SB_PLACE_RUN (*start set), SB_PLACE_NEVER, or -1 (logged).
 */
static int _plan(_job_t *j, const sb_job_test_extra_t *x, bitstr_t *out,
		 int64_t *start)
{
	job_record_t *job_ptr = j->job_ptr;
	time_t now = time(NULL), from = now, until = 0;
	sb_will_run_t *own = NULL, *plan;
	sb_will_run_result_t res;
	sb_bitmap_t *allowed = NULL;
	sb_request_t r;
	int rc = -1;

	if (!(plan = state_plan(now, job_ptr->resv_ptr, &own)))
		return -1;
	if (!(allowed = sb_bitmap_alloc(bucket_state.n)))
		goto done;
	sb_bitmap_copy(allowed, j->excl);
	sb_bitmap_not(allowed);
	if (convert_request(&r, job_ptr, j->count) < 0)
		goto done;
	/*
	 * Backfill's window (24.11), honoured as the base honours it:
	 * cons_tres starts looking at its start and gives up past its end;
	 * linear reads none.
	 */
	if (base_is_cons() && sb_extra_will_run_window(x, &from, &until) &&
	    (from < now))
		from = now;
	if (sb_will_run_query(plan, &r, j->policy, allowed, (int64_t) from,
			      &res) < 0) {
		rc = (errno == ENOENT) ? SB_PLACE_NEVER : -1;
		if (rc < 0)
			error(BUCKET_PFX "%pJ: WILL_RUN failed: %m", job_ptr);
	} else {
		convert_sb_to_bitstr(res.pl.nodes[0], out);
		*start = res.start;
		sb_will_run_result_fini(&res);
		rc = SB_PLACE_RUN;
		if (until && (*start > (int64_t) until))
			rc = SB_PLACE_WAIT;
		if ((job_ptr->bit_flags & TEST_NOW_ONLY) &&
		    (*start > (int64_t) now))
			rc = SB_PLACE_WAIT;
	}
	sb_request_fini(&r);
done:
	sb_bitmap_free(allowed);
	sb_will_run_destroy(own);
	return rc;
}

/*
 * Our decision for @j, under bucket_lock: the nodes into @out (a bitmap
 * of the cluster's size), WILL_RUN's start into *start.
 */
static int _decide(_job_t *j, const sb_job_test_extra_t *x,
		   bitstr_t *bitmap, bitstr_t *out, int64_t *start,
		   const char **path)
{
	int res;

	if (!(j->excl = sb_bitmap_alloc(bucket_state.n)))
		return -1;
	convert_bitstr_to_sb(bitmap, j->excl);
	sb_bitmap_not(j->excl);
	_gres_exclude(j, j->excl);
	if (SELECT_IS_MODE_WILL_RUN(j->mode)) {
		*path = NULL;
		res = _plan(j, x, out, start);
	} else {
		res = _place(j, SELECT_IS_MODE_TEST_ONLY(j->mode), out, path);
	}
	sb_bitmap_free(j->excl);
	j->excl = NULL;
	return res;
}

static int _base_test(job_record_t *job_ptr, bitstr_t *bitmap,
		      uint32_t min_nodes, uint32_t max_nodes,
		      uint32_t req_nodes, uint16_t mode, list_t *cands,
		      list_t **preemptee_job_list,
		      const sb_job_test_extra_t *x, const char *why)
{
	char *hl;
	int rc;

	rc = offers_base_test(job_ptr, bitmap, min_nodes, max_nodes,
			      req_nodes, mode, cands, preemptee_job_list, x,
			      _shares(job_ptr));

	if (slurm_conf.debug_flags & DEBUG_FLAG_SELECT_TYPE) {
		hl = (rc == SLURM_SUCCESS) ? _names(bitmap) : NULL;
		log_flag(SELECT_TYPE, "%pJ %s: %s decides (%s): %s%s",
			 job_ptr, _mode_name(mode), base_name(), why,
			 (rc == SLURM_SUCCESS) ? "run on " : "no",
			 hl ? hl : "");
		xfree(hl);
	}
	return rc;
}

extern int job_test(job_record_t *job_ptr, bitstr_t *bitmap,
		    uint32_t min_nodes, uint32_t max_nodes,
		    uint32_t req_nodes, uint16_t mode,
		    list_t *preemptee_candidates, list_t **preemptee_job_list,
		    const sb_job_test_extra_t *x)
{
	const char *why, *res_name, *path = NULL;
	const char *prefer = convert_job_prefer(job_ptr);
	bitstr_t *ours = NULL, *offered = NULL, *cands_nodes = NULL;
	bool cands;
	int64_t start = 0;
	int res, rc;
	char *hl;
	_job_t j = {
		.job_ptr = job_ptr,
		.count = min_nodes,
		.mode = mode,
	};

	slurm_mutex_lock(&bucket_lock);
	state_sync(time(NULL));
	_set_policy(&j);
	why = _base_reason(job_ptr, bitmap, min_nodes, max_nodes, req_nodes,
			   mode, preemptee_candidates, x, j.policy);
	if (why) {
		slurm_mutex_unlock(&bucket_lock);
		return _base_test(job_ptr, bitmap, min_nodes, max_nodes,
				  req_nodes, mode, preemptee_candidates,
				  preemptee_job_list, x, why);
	}
	if (!sb_policy_static(j.policy))
		state_sync_loads();
	/* every node the job may get, when slurmctld offers them in sets */
	cands_nodes = offers_candidates(job_ptr, bitmap, mode, min_nodes,
					max_nodes, req_nodes);
	ours = bit_alloc(bucket_state.n);
	res = _decide(&j, x, cands_nodes ? cands_nodes : bitmap, ours,
		      &start, &path);
	slurm_mutex_unlock(&bucket_lock);
	FREE_NULL_BITMAP(cands_nodes);

	/*
	 * RUN_NOW is offered free nodes only: whatever is missing, the
	 * answer is "not now" (TEST_ONLY decides "never").
	 */
	res_name = (res < 0) ? "error" : SELECT_IS_MODE_RUN_NOW(mode) ?
		"not now" : sb_place_result_name((sb_place_result_t) res);
	if (res != SB_PLACE_RUN) {
		cands = preemptee_candidates &&
			list_count(preemptee_candidates);
		log_flag(SELECT_TYPE, "%pJ %s: %s (%s path%s%s, policy %s)",
			 job_ptr, _mode_name(mode), res_name,
			 path ? "per-node" : "bucket", path ? ", reason " : "",
			 path ? path : "", sb_policy_name(j.policy->kind));
		FREE_NULL_BITMAP(ours);
		/*
		 * Nothing free now is the common answer of a busy cluster
		 * and ours stands; the base decides whatever else we could
		 * not answer (preemption, "never", an error).
		 */
		if (SELECT_IS_MODE_RUN_NOW(mode) && (res == SB_PLACE_WAIT ||
		    res == SB_PLACE_NEVER) && !cands)
			return EINVAL;
		if (SELECT_IS_MODE_WILL_RUN(mode) && (res == SB_PLACE_WAIT))
			return EINVAL;
		return _base_test(job_ptr, bitmap, min_nodes, max_nodes,
				  req_nodes, mode, preemptee_candidates,
				  preemptee_job_list, x,
				  (res < 0) ? "our error" :
				  cands ? "preemption" : "we found none");
	}

	/*
	 * Chosen among nodes of later node sets too: not in this call's
	 * nodes, so "no" until slurmctld offers the set that holds them.
	 */
	if (SELECT_IS_MODE_RUN_NOW(mode) && !bit_super_set(ours, bitmap)) {
		if (slurm_conf.debug_flags & DEBUG_FLAG_SELECT_TYPE) {
			hl = _names(ours);
			log_flag(SELECT_TYPE, "%pJ RUN_NOW: our nodes %s are not all in this node set, waiting for the next (policy %s)",
				 job_ptr, hl, sb_policy_name(j.policy->kind));
			xfree(hl);
		}
		offers_outside(job_ptr);
		FREE_NULL_BITMAP(ours);
		return EINVAL;
	}

	if (slurm_conf.debug_flags & DEBUG_FLAG_SELECT_TYPE) {
		hl = _names(ours);
		if (SELECT_IS_MODE_WILL_RUN(mode))
			log_flag(SELECT_TYPE, "%pJ WILL_RUN: start %ld (in %ld s) on %s, policy %s",
				 job_ptr, (long) start,
				 (long) (start - time(NULL)), hl,
				 sb_policy_name(j.policy->kind));
		else
			log_flag(SELECT_TYPE, "%pJ %s: run (%s path%s%s, policy %s%s%s) nodes %s",
				 job_ptr, _mode_name(mode),
				 path ? "per-node" : "bucket",
				 path ? ", reason " : "", path ? path : "",
				 sb_policy_name(j.policy->kind),
				 prefer ? ", preferring " : "",
				 prefer ? prefer : "", hl);
		xfree(hl);
	}
	if (SELECT_IS_MODE_WILL_RUN(mode)) {
		bit_copybits(bitmap, ours);
		FREE_NULL_BITMAP(ours);
		job_ptr->start_time = (time_t) start;
		job_ptr->total_cpus = _cpus_of(bitmap);
		return SLURM_SUCCESS;
	}

	/* The base allocates exactly our nodes, or decides itself. */
	offered = bit_copy(bitmap);
	bit_copybits(bitmap, ours);
	rc = sb_base_job_test(job_ptr, bitmap, min_nodes, max_nodes,
			      req_nodes, mode, preemptee_candidates,
			      preemptee_job_list, x);
	if (rc != SLURM_SUCCESS) {
		bit_copybits(bitmap, offered);
		rc = _base_test(job_ptr, bitmap, min_nodes, max_nodes,
				req_nodes, mode, preemptee_candidates,
				preemptee_job_list, x, "refused ours");
		/*
		 * Only a base that takes other nodes refused our choice; one
		 * that refuses every node refused the job (its licences, a
		 * limit checked there): no matter of ours, said only under
		 * DebugFlags=SelectType.
		 */
		hl = _names(ours);
		if (rc == SLURM_SUCCESS)
			info("%pJ %s: %s refused the nodes we chose (%s) and took others",
			     job_ptr, _mode_name(mode), base_name(), hl);
		else
			log_flag(SELECT_TYPE, "%pJ %s: %s refused the job on our nodes (%s) and on every node offered",
				 job_ptr, _mode_name(mode), base_name(), hl);
		xfree(hl);
	}
	FREE_NULL_BITMAP(ours);
	FREE_NULL_BITMAP(offered);
	return rc;
}
