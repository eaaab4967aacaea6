/*
 * bucket_job_test.c - select_p_job_test() and select_p_resv_test() of
 * select/bucket: where (RUN_NOW), whether ever (TEST_ONLY) and when
 * (WILL_RUN) a job gets its whole nodes.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * slurmctld passes the nodes the job may have in @bitmap: its partition,
 * features, node states, reservations and, for RUN_NOW, idle nodes only.
 * The request is one chunk of whole nodes (bucket_convert.c); everything
 * outside the bitmap, the nodes our jobs hold and the buckets whose GRES
 * cannot serve the job are "excluded", which keeps exclusive jobs on the
 * bucket path (place.h). The node count follows select/linear: the
 * larger of min_nodes and req_nodes (up to max_nodes), min_nodes if that
 * cannot be had, and more nodes while their CPUs are short of the job's
 * min_cpus.
 *
 *   RUN_NOW    sb_place() on the bucket set; with preemption candidates
 *              and no room, again as if their nodes were free
 *   TEST_ONLY  sb_place_ideal(): the nodes on an empty cluster
 *   WILL_RUN   sb_will_run_query() on the plan of running jobs' ends,
 *              reservations and down nodes (bucket_state.c); required
 *              nodes and contiguous jobs are simulated job end by job
 *              end, as select/linear does
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "slurm/slurm_errno.h"

#include "src/common/gres.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/select.h"
#include "src/common/xmalloc.h"
#include "src/slurmctld/slurmctld.h"
#include "src/slurmctld/preempt.h"

#include "select_bucket.h"

/* Bound on the node-count adjustments of one decision. */
#define MAX_TRIES 32

typedef struct {
	job_record_t *job_ptr;
	const sb_policy_t *policy;
	sb_policy_t job_policy;		/* when the job chose its own */
	sb_bitmap_t *allowed;		/* the bitmap slurmctld passed */
	sb_bitmap_t *excl;		/* what the job may not have */
	uint32_t min_nodes, max_nodes, req_nodes;
	uint32_t min_cpus;
	int64_t limit;			/* seconds */
} _job_t;

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
		if (!gres_job_test(j->job_ptr->gres_list_req,
				   node_ptr->gres_list, true, NULL, 0, 0,
				   j->job_ptr->job_id, node_ptr->name, false))
			sb_bitmap_or(out, sb_bucket_all(set, b));
	}
}

/* excl = not allowed | GRES short | (@held ? held by our jobs : none) */
static int _set_excluded(_job_t *j, bool held)
{
	const sb_bitmap_t *h;

	sb_bitmap_copy(j->excl, j->allowed);
	sb_bitmap_not(j->excl);
	_gres_exclude(j, j->excl);
	if (held) {
		if (!(h = state_held()))
			return -1;
		sb_bitmap_or(j->excl, h);
	}
	return 0;
}

static uint32_t _cpus_of(const _job_t *j, const sb_bitmap_t *nodes)
{
	uint32_t sum = 0;
	int64_t i;

	for (i = sb_bitmap_first_set(nodes); i >= 0;
	     i = sb_bitmap_next_set(nodes, (size_t) i + 1))
		sum += resrcs_avail_cpus(j->job_ptr, (int) i);
	return sum;
}

/*
 * The node count to try after @count nodes gave @cpus CPUs, short of
 * min_cpus: enough more nodes of the same average size. 0: none left.
 */
static uint32_t _more_nodes(const _job_t *j, uint32_t count, uint32_t cpus)
{
	uint32_t avg = count ? MAX(cpus / count, 1) : 1;
	uint64_t want = (uint64_t) count +
		((j->min_cpus - cpus) + avg - 1) / avg;

	if (count >= j->max_nodes)
		return 0;
	return (uint32_t) MIN(want, (uint64_t) j->max_nodes);
}

/* What one attempt does with a request of @count nodes. */
typedef int (*_attempt_f)(_job_t *j, uint32_t count, sb_bitmap_t *out,
			  void *arg);

/*
 * Try node counts as select/linear does; the first success fills @out
 * and returns SB_PLACE_RUN, else the last result (SB_PLACE_WAIT or
 * SB_PLACE_NEVER), or -1 on an internal error.
 */
static int _counts(_job_t *j, _attempt_f attempt, void *arg,
		   sb_bitmap_t *out)
{
	uint32_t count = MAX(j->min_nodes, MIN(j->req_nodes, j->max_nodes));
	bool tried_min = (count == j->min_nodes);
	int res = SB_PLACE_NEVER, tries;

	for (tries = 0; (tries < MAX_TRIES) && count; tries++) {
		uint32_t cpus;

		res = attempt(j, count, out, arg);
		if (res < 0)
			return -1;
		if (res == SB_PLACE_RUN) {
			cpus = _cpus_of(j, out);
			if (cpus >= j->min_cpus)
				return SB_PLACE_RUN;
			log_flag(SELECT_TYPE, "%pJ: %u nodes give %u of %u CPUs, trying more",
				 j->job_ptr, count, cpus, j->min_cpus);
			count = _more_nodes(j, count, cpus);
			res = SB_PLACE_WAIT;
			continue;
		}
		if (tried_min)
			break;
		count = j->min_nodes;
		tried_min = true;
	}
	return res;
}

/* Node names of @nodes, Slurm's hostlist form (xfree it). */
static char *_names(const sb_bitmap_t *nodes)
{
	bitstr_t *b = bit_alloc(bucket_state.n);
	char *hl;

	convert_sb_to_bitstr(nodes, b);
	hl = bitmap2node_name(b);
	FREE_NULL_BITMAP(b);
	return hl;
}

static void _log_path(const _job_t *j, const char *what,
		      const sb_placement_t *pl, const sb_bitmap_t *nodes)
{
	char *hl = NULL;

	if (!(slurm_conf.debug_flags & DEBUG_FLAG_SELECT_TYPE))
		return;
	if (nodes)
		hl = _names(nodes);
	log_flag(SELECT_TYPE, "%pJ %s: %s (%s path%s%s, policy %s)%s%s",
		 j->job_ptr, what, sb_place_result_name(pl->result),
		 pl->bucket_path ? "bucket" : "per-node",
		 pl->bucket_path ? "" : ", reason ",
		 pl->bucket_path ? "" : pl->reason,
		 sb_policy_name(j->policy->kind), hl ? " nodes " : "",
		 hl ? hl : "");
	xfree(hl);
}

/* How _place_attempt() places, and what it logs. */
typedef struct {
	bool ideal;
	const char *what;
} _how_t;

static const _how_t _now = { false, "RUN_NOW" };
static const _how_t _ever = { true, "TEST_ONLY" };
static const _how_t _sim = { true, "WILL_RUN simulation" };

/* sb_place() or sb_place_ideal() of @count nodes. */
static int _place_attempt(_job_t *j, uint32_t count, sb_bitmap_t *out,
			  void *arg)
{
	const _how_t *how = arg;
	bool ideal = how->ideal;
	sb_placement_t pl;
	sb_request_t r;
	int rc;

	if (convert_request(&r, j->job_ptr, count) < 0)
		return -1;
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
	if (pl.result == SB_PLACE_RUN)
		sb_bitmap_copy(out, pl.nodes[0]);
	_log_path(j, how->what, &pl, (pl.result == SB_PLACE_RUN) ? out : NULL);
	rc = pl.result;
	sb_placement_fini(&pl);
	return rc;
}

/* Jobs of @cands on @nodes: the ones preemption must remove. */
static List _preemptees(List cands, bitstr_t *nodes)
{
	List l = list_create(NULL);
	job_record_t *job_ptr;
	ListIterator itr = list_iterator_create(cands);

	while ((job_ptr = list_next(itr)))
		if (job_ptr->node_bitmap &&
		    bit_overlap_any(nodes, job_ptr->node_bitmap))
			list_append(l, job_ptr);
	list_iterator_destroy(itr);
	return l;
}

static bool _active(const job_record_t *job_ptr)
{
	return (IS_JOB_RUNNING(job_ptr) || IS_JOB_SUSPENDED(job_ptr)) &&
		job_ptr->node_bitmap;
}

/* Hold (+1) or release (-1) the nodes of every active candidate. */
static void _hold_cands(List cands, int delta)
{
	job_record_t *job_ptr;
	ListIterator itr = list_iterator_create(cands);

	while ((job_ptr = list_next(itr)))
		if (_active(job_ptr))
			state_hold(job_ptr->node_bitmap, delta);
	list_iterator_destroy(itr);
}

static int _run_now(_job_t *j, bitstr_t *bitmap, List cands,
		    List *preemptee_job_list)
{
	sb_bitmap_t *out = sb_bitmap_alloc(bucket_state.n);
	int res = -1;

	if (!out || _set_excluded(j, true) < 0)
		goto done;
	res = _counts(j, _place_attempt, (void *) &_now, out);
	if ((res != SB_PLACE_RUN) && (res >= 0) && cands &&
	    list_count(cands)) {
		/* as if the preemptable jobs were gone */
		_hold_cands(cands, -1);
		if (_set_excluded(j, true) == 0)
			res = _counts(j, _place_attempt, (void *) &_now,
				      out);
		_hold_cands(cands, 1);
		if (res == SB_PLACE_RUN) {
			convert_sb_to_bitstr(out, bitmap);
			if (preemptee_job_list) {
				FREE_NULL_LIST(*preemptee_job_list);
				*preemptee_job_list = _preemptees(cands,
								  bitmap);
			}
		}
	}
	if (res == SB_PLACE_RUN) {
		convert_sb_to_bitstr(out, bitmap);
		resrcs_build(j->job_ptr, bitmap);
	}
done:
	sb_bitmap_free(out);
	return (res == SB_PLACE_RUN) ? SLURM_SUCCESS : EINVAL;
}

static int _test_only(_job_t *j, bitstr_t *bitmap)
{
	sb_bitmap_t *out = sb_bitmap_alloc(bucket_state.n);
	int res = -1;

	if (out && !_set_excluded(j, false))
		res = _counts(j, _place_attempt, (void *) &_ever, out);
	if (res == SB_PLACE_RUN) {
		convert_sb_to_bitstr(out, bitmap);
		j->job_ptr->total_cpus = _cpus_of(j, out);
	}
	sb_bitmap_free(out);
	return (res == SB_PLACE_RUN) ? SLURM_SUCCESS : EINVAL;
}

/* ---- WILL_RUN ------------------------------------------------------------ */

typedef struct {
	sb_will_run_t *plan;
	time_t now;
	int64_t start;
} _wr_t;

static int _query_attempt(_job_t *j, uint32_t count, sb_bitmap_t *out,
			  void *arg)
{
	_wr_t *wr = arg;
	sb_will_run_result_t res;
	sb_request_t r;
	int rc;

	if (convert_request(&r, j->job_ptr, count) < 0)
		return -1;
	rc = sb_will_run_query(wr->plan, &r, j->policy, j->allowed,
			       (int64_t) wr->now, &res);
	sb_request_fini(&r);
	if (rc < 0)
		return (errno == ENOENT) ? SB_PLACE_NEVER : -1;
	sb_bitmap_copy(out, res.pl.nodes[0]);
	wr->start = res.start;
	sb_will_run_result_fini(&res);
	return SB_PLACE_RUN;
}

/*
 * Required nodes or contiguous: the per-node path of sb_place_ideal() on
 * the nodes free over [t, t + limit) for t = now and each end of a
 * running job, in time order (select/linear's simulation).
 */
typedef struct {
	time_t now;
	int64_t t;
	int64_t *until;			/* per node: busy until */
	int64_t start;
} _sim_t;

/* Is node @i free over [t, t + limit), reservations included? */
static bool _free_over(const _sim_t *s, const _job_t *j, size_t i,
		       const void *skip_resv)
{
	int64_t end = sb_time_add(s->t, j->limit);
	slurmctld_resv_t *resv;
	ListIterator itr;
	bool ok = true;

	if (s->until[i] > s->t)
		return false;
	if (!resv_list)
		return true;
	itr = list_iterator_create(resv_list);
	while (ok && (resv = list_next(itr)))
		if ((resv != skip_resv) && resv->node_bitmap &&
		    (resv->start_time < end) && (resv->end_time > s->t) &&
		    bit_test(resv->node_bitmap, i))
			ok = false;
	list_iterator_destroy(itr);
	return ok;
}

static int _sim_attempt(_job_t *j, uint32_t count, sb_bitmap_t *out,
			void *arg)
{
	_sim_t *s = arg;
	int rc;

	s->start = s->t;
	rc = _place_attempt(j, count, out, (void *) &_sim);
	return rc;
}

static int _cmp_time(const void *a, const void *b)
{
	int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;

	return (x > y) - (x < y);
}

static int _simulate(_job_t *j, bitstr_t *bitmap, const void *skip_resv,
		     List cands, int64_t *start)
{
	bucket_state_t *st = &bucket_state;
	_sim_t s = { .now = time(NULL) };
	int64_t *times = NULL;
	size_t nt = 0, k, i;
	sb_bitmap_t *out = sb_bitmap_alloc(st->n), *base = NULL;
	int res = SB_PLACE_NEVER;

	times = xcalloc(list_count(job_list) + 1, sizeof(int64_t));
	s.until = state_busy_until(cands, NULL, times, &nt);
	if (!out || !(base = sb_bitmap_alloc(st->n)))
		goto done;
	/* a job past its end is about to end, not over */
	for (i = 0; i < st->n; i++)
		if (s.until[i] && (s.until[i] <= (int64_t) s.now))
			s.until[i] = (int64_t) s.now + 1;
	for (k = 0; k < nt; k++)
		times[k] = MAX(times[k], (int64_t) s.now + 1);
	qsort(times, nt, sizeof(*times), _cmp_time);
	for (i = 0; i < st->n; i++)
		if ((st->nodes[i].state == SB_NODE_DOWN) ||
		    (st->nodes[i].state == SB_NODE_DRAINED))
			s.until[i] = SB_TIME_INFINITE;

	sb_bitmap_copy(base, j->excl);	/* not allowed, GRES short */
	for (k = 0, s.t = s.now; ; ) {
		sb_bitmap_copy(j->excl, base);
		for (i = 0; i < st->n; i++)
			if (!_free_over(&s, j, i, skip_resv))
				sb_bitmap_set(j->excl, i);
		res = _counts(j, _sim_attempt, &s, out);
		if ((res != SB_PLACE_WAIT) ||
		    (j->job_ptr->bit_flags & TEST_NOW_ONLY))
			break;
		while ((k < nt) && (times[k] <= s.t))
			k++;
		if (k == nt)
			break;
		s.t = times[k];
	}
	if (res == SB_PLACE_RUN) {
		convert_sb_to_bitstr(out, bitmap);
		*start = s.start;
	}
done:
	xfree(times);
	xfree(s.until);
	sb_bitmap_free(out);
	sb_bitmap_free(base);
	return res;
}

static int _will_run(_job_t *j, bitstr_t *bitmap, List cands,
		     List *preemptee_job_list)
{
	job_record_t *job_ptr = j->job_ptr;
	sb_will_run_t *own = NULL;
	sb_bitmap_t *out = NULL;
	_wr_t wr = { .now = time(NULL) };
	int64_t start = 0;
	int res = -1;
	bool use_cands = cands && list_count(cands);
	const void *skip_resv = job_ptr->resv_ptr;
	char *hl;

	if (_set_excluded(j, false) < 0)
		goto done;
	/* the plan knows who holds what: allowed = offered, GRES fits */
	sb_bitmap_copy(j->allowed, j->excl);
	sb_bitmap_not(j->allowed);

	if ((job_ptr->details->req_node_bitmap &&
	     (bit_ffs(job_ptr->details->req_node_bitmap) >= 0)) ||
	    job_ptr->details->contiguous ||
	    (j->policy->kind == SB_POLICY_CONTIGUOUS)) {
		res = _simulate(j, bitmap, skip_resv,
				use_cands ? cands : NULL, &start);
		goto found;
	}
	if (!(out = sb_bitmap_alloc(bucket_state.n)))
		goto done;
	wr.plan = state_plan(wr.now, skip_resv, use_cands ? cands : NULL,
			     &own);
	if (!wr.plan)
		goto done;
	res = _counts(j, _query_attempt, &wr, out);
	start = wr.start;
	if ((res == SB_PLACE_RUN) && (job_ptr->bit_flags & TEST_NOW_ONLY) &&
	    (start > (int64_t) wr.now))
		res = SB_PLACE_WAIT;
	if (res == SB_PLACE_RUN)
		convert_sb_to_bitstr(out, bitmap);
found:
	if (res != SB_PLACE_RUN)
		goto done;
	job_ptr->start_time = (time_t) start;
	job_ptr->total_cpus = 0;
	if ((out = out ? out : sb_bitmap_alloc(bucket_state.n))) {
		convert_bitstr_to_sb(bitmap, out);
		job_ptr->total_cpus = _cpus_of(j, out);
	}
	if (use_cands && preemptee_job_list &&
	    (start <= (int64_t) wr.now)) {
		FREE_NULL_LIST(*preemptee_job_list);
		*preemptee_job_list = _preemptees(cands, bitmap);
	}
	if (slurm_conf.debug_flags & DEBUG_FLAG_SELECT_TYPE) {
		hl = bitmap2node_name(bitmap);
		log_flag(SELECT_TYPE, "%pJ WILL_RUN: start %ld (in %ld s) on %s, policy %s",
			 job_ptr, (long) start, (long) (start - wr.now),
			 hl, sb_policy_name(j->policy->kind));
		xfree(hl);
	}
done:
	if ((res != SB_PLACE_RUN) && (res >= 0))
		log_flag(SELECT_TYPE, "%pJ WILL_RUN: %s", job_ptr,
			 (res == SB_PLACE_NEVER) ?
			 "never on the nodes offered" : "not now");
	sb_will_run_destroy(own);
	sb_bitmap_free(out);
	return (res == SB_PLACE_RUN) ? SLURM_SUCCESS : EINVAL;
}

/* ---- entry points --------------------------------------------------------- */

extern int job_test(job_record_t *job_ptr, bitstr_t *bitmap,
		    uint32_t min_nodes, uint32_t max_nodes,
		    uint32_t req_nodes, uint16_t mode,
		    List preemptee_candidates, List *preemptee_job_list)
{
	_job_t j;
	int rc = EINVAL;

	if (!job_ptr->details || !bitmap)
		return EINVAL;
	state_sync(time(NULL));
	if (!bucket_state.set ||
	    (bit_size(bitmap) != (bitoff_t) bucket_state.n))
		return EINVAL;
	if (!max_nodes) {
		/* a job without nodes (burst buffer only) */
		bit_clear_all(bitmap);
		if (SELECT_IS_MODE_RUN_NOW(mode))
			resrcs_build(job_ptr, bitmap);
		return SLURM_SUCCESS;
	}
	if (bit_set_count(bitmap) < min_nodes)
		return EINVAL;

	memset(&j, 0, sizeof(j));
	j.job_ptr = job_ptr;
	j.min_nodes = MAX(min_nodes, 1);
	j.max_nodes = MAX(max_nodes, j.min_nodes);
	j.req_nodes = req_nodes;
	j.min_cpus = job_ptr->details->min_cpus;
	j.limit = convert_time_limit(job_ptr);
	_set_policy(&j);
	if (!sb_policy_static(j.policy))
		state_sync_loads();
	if (!(j.allowed = sb_bitmap_alloc(bucket_state.n)) ||
	    !(j.excl = sb_bitmap_alloc(bucket_state.n)))
		goto done;
	convert_bitstr_to_sb(bitmap, j.allowed);
	state_sync_offered(j.allowed);

	if (SELECT_IS_MODE_TEST_ONLY(mode))
		rc = _test_only(&j, bitmap);
	else if (SELECT_IS_MODE_WILL_RUN(mode))
		rc = _will_run(&j, bitmap, preemptee_candidates,
			       preemptee_job_list);
	else
		rc = _run_now(&j, bitmap, preemptee_candidates,
			      preemptee_job_list);
done:
	sb_bitmap_free(j.allowed);
	sb_bitmap_free(j.excl);
	return rc;
}

extern bitstr_t *job_test_resv(uint32_t node_cnt, bitstr_t *avail_bitmap)
{
	bucket_state_t *st = &bucket_state;
	sb_placement_t pl = { 0 };
	sb_request_t r;
	bitstr_t *picked = NULL;
	int rc;

	state_sync(time(NULL));
	if (!st->set || !node_cnt ||
	    (bit_size(avail_bitmap) != (bitoff_t) st->n))
		return NULL;
	sb_request_init(&r);
	r.exclusive = true;
	if (!sb_request_add_chunk(&r, node_cnt) ||
	    !(r.excluded = sb_bitmap_alloc(st->n)))
		goto done;
	convert_bitstr_to_sb(avail_bitmap, r.excluded);
	sb_bitmap_not(r.excluded);
	/* idle nodes first, else any of the offered ones */
	rc = sb_place(st->set, &r, sb_bucket_conf_policy(bucket_conf),
		      SB_PATH_AUTO, &pl);
	if (!rc && (pl.result != SB_PLACE_RUN)) {
		sb_placement_fini(&pl);
		rc = sb_place_ideal(st->set, &r,
				    sb_bucket_conf_policy(bucket_conf),
				    SB_PATH_AUTO, &pl);
	}
	if (!rc && (pl.result == SB_PLACE_RUN)) {
		picked = bit_alloc(st->n);
		convert_sb_to_bitstr(pl.nodes[0], picked);
	}
done:
	sb_placement_fini(&pl);
	sb_request_fini(&r);
	return picked;
}
