/*
 * bucket_state.c - select/bucket's model of the cluster: one sb_node_t
 * per Slurm node, the bucket set over them, future reservations as busy
 * windows, and WILL_RUN's plan.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Nothing here is a ledger of our own. A node's state is what slurmctld's
 * bitmaps say at the moment of a decision: avail_node_bitmap (up, not
 * drained, responding), idle_node_bitmap (no job at all, running or
 * completing, shared or not) and the powered-down nodes (power_node_bitmap,
 * 24.11: power_down_node_bitmap). Each decision first
 * compares the three bitmaps with the copies the model was last derived
 * from, a 64-bit word at a time, and re-files the nodes whose bits
 * changed: O(N / 64 + changed nodes), no per-node scan, and a node the
 * base frees (a job ends, a node is set DOWN under a job and requeued, a
 * slurmd dies) is free for us in the same call in which sinfo shows it.
 *
 * A node's configuration (its signature) is read when the model is
 * built, and again when slurmctld says a node registered
 * (state_node_config(), where the framework has update_node_config) or
 * when its node configuration records changed: 'scontrol update
 * NodeName=... Weight=|AvailableFeatures=|Gres=' calls no select entry
 * point (update_node(), 22.05 to 26.05), but it moves last_node_update
 * and changes a config record. So when last_node_update moved, the
 * records' fingerprint (convert_config_sum(), O(C)) is compared with the
 * one of the last look; a different one has every node read again, and
 * the model rebuilt when a signature changed. last_node_update has
 * one-second steps and moves with every allocation: looked at again
 * while the second of the last look is not over, O(C) a decision then.
 *
 * Reservation windows, when each node's jobs end and WILL_RUN's plan are
 * made by common/cluster_model.h's steps, which 'sbucket why' runs on
 * what scontrol shows. Built once (start, reconfigure, a node's
 * signature changing) and then:
 *   - reservations: when last_resv_update moves, or a reservation we
 *     know starts, the windows are rebuilt on the nodes they cover
 *     (busy-later: idle now, reserved later);
 *   - the clock: sb_bucket_set_set_now() re-classifies the nodes with
 *     windows only.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "sb_slurm.h"

#include "cluster_model.h"
#include "select_bucket.h"
#include "signature.h"

pthread_mutex_t bucket_lock = PTHREAD_MUTEX_INITIALIZER;
bucket_state_t bucket_state;

/* Nodes that carry reservation windows. */
static sb_bitmap_t *g_windowed = NULL;

/*
 * slurmctld's bitmaps as the model last saw them, and scratch space for
 * the current ones.
 */
enum { SEEN_AVAIL, SEEN_IDLE, SEEN_POWER, SEEN_COUNT };
static sb_bitmap_t *g_seen[SEEN_COUNT];
static sb_bitmap_t *g_now = NULL;

static bitstr_t *_slurm_bitmap(int which)
{
	switch (which) {
	case SEEN_AVAIL:
		return avail_node_bitmap;
	case SEEN_IDLE:
		return idle_node_bitmap;
	default:
		return SB_POWER_DOWN_BITMAP;
	}
}

extern void state_nodes_free(sb_node_t *nodes, size_t n)
{
	size_t i;

	for (i = 0; nodes && (i < n); i++)
		sb_node_fini(&nodes[i]);
	xfree(nodes);
}

extern void state_free(void)
{
	bucket_state_t *s = &bucket_state;
	size_t i;

	sb_will_run_destroy(s->plan);
	xfree(s->plan_until);
	sb_bitmap_free(s->plan_dirty);
	sb_bucket_set_destroy(s->set);
	state_nodes_free(s->nodes, s->n);
	s->nodes = NULL;
	state_audit_forget();
	sb_bitmap_free(g_windowed);
	g_windowed = NULL;
	for (i = 0; i < SEEN_COUNT; i++) {
		sb_bitmap_free(g_seen[i]);
		g_seen[i] = NULL;
	}
	sb_bitmap_free(g_now);
	g_now = NULL;
	memset(s, 0, sizeof(*s));
}

/* Node @i's state from slurmctld's bitmaps, re-filed in its bucket. */
static void _update(size_t i)
{
	sb_node_t *nd = &bucket_state.nodes[i];

	nd->state = convert_node_state(i);
	nd->run_jobs = (nd->state == SB_NODE_ALLOCATED);
	(void) sb_bucket_set_update(bucket_state.set, i);
}

/* Copy slurmctld's bitmap @which into @out (all clear if it has none). */
static void _read(int which, sb_bitmap_t *out)
{
	bitstr_t *b = _slurm_bitmap(which);

	if (b && (bit_size(b) == (bitoff_t) bucket_state.n))
		convert_bitstr_to_sb(b, out);
	else
		sb_bitmap_clear_all(out);
}

extern void state_plan_drop(void)
{
	bucket_state_t *s = &bucket_state;

	sb_will_run_destroy(s->plan);
	s->plan = NULL;
	xfree(s->plan_until);
	sb_bitmap_free(s->plan_dirty);
	s->plan_dirty = NULL;
	s->plan_behind = false;
}

extern void state_plan_behind(void)
{
	bucket_state.plan_behind = true;
}

/*
 * Node @i changed state or took a job: the kept plan takes it again from
 * the model (down, drained, running), its jobs' end as plan_until has
 * it, at the next WILL_RUN (_plan_refresh_dirty). Marked only: the main
 * scheduler, which starts most jobs and asks no WILL_RUN, pays a bit per
 * node, and a node that changes again is planned once.
 */
static void _plan_node(size_t i)
{
	bucket_state_t *s = &bucket_state;

	if (s->plan)
		(void) sb_bitmap_set(s->plan_dirty, i);
}

/* Plan the nodes _plan_node() marked. 0, or -1 (the plan is dropped). */
static int _plan_refresh_dirty(void)
{
	bucket_state_t *s = &bucket_state;
	int64_t i;

	for (i = sb_bitmap_first_set(s->plan_dirty); i >= 0;
	     i = sb_bitmap_next_set(s->plan_dirty, (size_t) i + 1))
		if (sb_will_run_refresh_node(s->plan, (size_t) i,
					     s->plan_until[i]) < 0) {
			error(BUCKET_PFX "cannot keep WILL_RUN's plan: %m");
			state_plan_drop();
			return -1;
		}
	sb_bitmap_clear_all(s->plan_dirty);
	return 0;
}

/*
 * Re-file the nodes whose bit in any of slurmctld's bitmaps changed
 * since the last call. O(N / 64 + changed nodes).
 */
static void _sync_nodes(void)
{
	size_t changed = 0;
	int64_t i;
	int k;

	for (k = 0; k < SEEN_COUNT; k++) {
		_read(k, g_now);
		sb_bitmap_xor(g_seen[k], g_now);	/* the changed bits */
		for (i = sb_bitmap_first_set(g_seen[k]); i >= 0;
		     i = sb_bitmap_next_set(g_seen[k], (size_t) i + 1)) {
			_update((size_t) i);
			_plan_node((size_t) i);
			changed++;
		}
		sb_bitmap_copy(g_seen[k], g_now);
	}
	if (changed)
		log_flag(SELECT_TYPE, "%zu node state changes applied",
			 changed);
}

extern sb_model_resv_t *state_resv_read(size_t *nresv)
{
	bucket_state_t *s = &bucket_state;
	sb_model_resv_t *v;
	slurmctld_resv_t *resv;
	list_itr_t *itr;
	size_t k = 0;

	*nresv = 0;
	if (!resv_list || !list_count(resv_list))
		return NULL;
	v = xcalloc(list_count(resv_list), sizeof(*v));
	itr = list_iterator_create(resv_list);
	while ((resv = list_next(itr))) {
		sb_bitmap_t *b;

		if (!resv->node_bitmap ||
		    (bit_size(resv->node_bitmap) != (bitoff_t) s->n) ||
		    !(b = sb_bitmap_alloc(s->n)))
			continue;
		convert_bitstr_to_sb(resv->node_bitmap, b);
		v[k].name = resv->name;
		v[k].nodes = b;
		v[k].start = resv->start_time;
		v[k].end = resv->end_time;
		k++;
	}
	list_iterator_destroy(itr);
	*nresv = k;
	return v;
}

extern void state_resv_free(sb_model_resv_t *v, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		sb_bitmap_free((sb_bitmap_t *) v[k].nodes);
	xfree(v);
}

/*
 * Rebuild the busy windows from the reservations that have not started
 * (sb_model_windows()): the nodes that had windows lose them, the covered
 * ones get them. O(R N / 64 + nodes touched).
 */
static void _sync_windows(time_t now)
{
	bucket_state_t *s = &bucket_state;
	sb_bitmap_t *old = sb_bitmap_dup(g_windowed);
	sb_model_resv_t *resv;
	size_t nresv = 0, k;
	int64_t i;

	s->next_window = SB_TIME_INFINITE;
	if (!old) {
		error(BUCKET_PFX "out of memory updating reservation windows");
		goto out;
	}
	for (i = sb_bitmap_first_set(g_windowed); i >= 0;
	     i = sb_bitmap_next_set(g_windowed, (size_t) i + 1)) {
		free(s->nodes[i].busy);
		s->nodes[i].busy = NULL;
		s->nodes[i].nbusy = 0;
	}
	sb_bitmap_clear_all(g_windowed);
	resv = state_resv_read(&nresv);
	if (sb_model_windows(s->nodes, s->n, resv, nresv, now) < 0)
		error(BUCKET_PFX "cannot give nodes their reservation windows: %m");
	for (k = 0; k < nresv; k++) {
		if ((resv[k].start <= now) || (resv[k].end <= resv[k].start))
			continue;
		sb_bitmap_or(g_windowed, resv[k].nodes);
		if (resv[k].start < s->next_window)
			s->next_window = resv[k].start;
		log_flag(SELECT_TYPE, "reservation %s: nodes busy from %ld to %ld, free until then (busy-later)",
			 resv[k].name, (long) resv[k].start,
			 (long) resv[k].end);
	}
	state_resv_free(resv, nresv);
	(void) sb_bucket_set_set_now(s->set, now);
	sb_bitmap_or(old, g_windowed);
	for (i = sb_bitmap_first_set(old); i >= 0;
	     i = sb_bitmap_next_set(old, (size_t) i + 1))
		(void) sb_bucket_set_update(s->set, (size_t) i);
out:
	sb_bitmap_free(old);
	s->resv_synced = now;
	state_plan_drop();	/* it holds the reservations as they were */
}

extern int state_build(void)
{
	bucket_state_t *s = &bucket_state;
	time_t now = time(NULL);
	int k, busy;

	state_free();
	s->n = node_record_count;
	s->nodes = xcalloc(s->n ? s->n : 1, sizeof(sb_node_t));
	if (!(g_windowed = sb_bitmap_alloc(s->n)) ||
	    !(g_now = sb_bitmap_alloc(s->n)))
		goto fail;
	for (k = 0; k < SEEN_COUNT; k++) {
		if (!(g_seen[k] = sb_bitmap_alloc(s->n)))
			goto fail;
		_read(k, g_seen[k]);
	}
	s->nodes_seen = last_node_update;
	s->nodes_seen_at = now;
	s->config_sum = convert_config_sum();
	if ((busy = convert_nodes(s->nodes, s->n)) < 0)
		goto fail;
	if (!(s->set = sb_bucket_set_create(s->nodes, s->n, now)))
		goto fail;
	_sync_windows(now);
	info("%zu nodes in %zu buckets, %d with jobs",
	     s->n, sb_bucket_set_size(s->set), busy);
	return SLURM_SUCCESS;
fail:
	error(BUCKET_PFX "cannot build the node buckets: %m");
	state_free();
	return SLURM_ERROR;
}

/*
 * Did slurmctld change a node's configuration without telling us? When
 * last_node_update moved since the last look, or is of that look's
 * second (a change later in it leaves the value as it was): compare the
 * config records' fingerprint; a different one reads every node again
 * (state_node_config(): the model is stale when a signature changed).
 * O(C), plus O(N sig) after a change.
 */
static void _sync_configs(time_t now)
{
	bucket_state_t *s = &bucket_state;
	uint64_t sum;
	size_t i;

	if ((last_node_update == s->nodes_seen) &&
	    (s->nodes_seen_at > s->nodes_seen))
		return;
	s->nodes_seen = last_node_update;
	s->nodes_seen_at = now;
	if ((sum = convert_config_sum()) == s->config_sum)
		return;
	s->config_sum = sum;
	for (i = 0; (i < s->n) && !s->stale; i++)
		state_node_config((int) i);
	if (!s->stale)
		log_flag(SELECT_TYPE, "node configuration records changed, no node's signature");
}

extern void state_sync(time_t now)
{
	bucket_state_t *s = &bucket_state;

	if (s->set && (s->n == (size_t) node_record_count))
		_sync_configs(now);
	if (!s->set || s->stale || (s->n != (size_t) node_record_count)) {
		(void) state_build();
		if (!s->set)
			return;
	}
	_sync_nodes();
	/*
	 * last_resv_update has one-second steps: a change in the second of
	 * our last sync shows no new value, so sync again until that
	 * second is over.
	 */
	if ((last_resv_update >= s->resv_synced) ||
	    ((int64_t) now >= s->next_window))
		_sync_windows(now);
	else
		(void) sb_bucket_set_set_now(s->set, now);
	if (slurm_conf.debug_flags & DEBUG_FLAG_SELECT_TYPE) {
		state_audit(now);
		if (s->stale)	/* the audit found it wrong: decide afresh */
			(void) state_build();
	}
}

extern void state_node_config(int i)
{
	bucket_state_t *s = &bucket_state;
	sb_node_t now;

	if (!s->set || (i < 0) || ((size_t) i >= s->n) || s->stale)
		return;
	if (convert_node(&now, (size_t) i, node_record_table_ptr[i],
			 bucket_conf) < 0) {
		s->stale = true;
		return;
	}
	if (!sb_signature_equal(&now, &s->nodes[i])) {
		s->stale = true;
		log_flag(SELECT_TYPE, "node %s changed its configuration: buckets are rebuilt",
			 now.name);
	}
	sb_node_fini(&now);
}

extern void state_sync_loads(void)
{
	bucket_state_t *s = &bucket_state;
	size_t i;

	for (i = 0; i < s->n; i++)
		if (node_record_table_ptr[i])
			s->nodes[i].load =
				node_record_table_ptr[i]->cpu_load / 100.0;
}

/*
 * Per node, when the last running job on it ends (0: none;
 * SB_TIME_INFINITE while one is suspended). O(jobs N / 64).
 */
static int64_t *_busy_until(void)
{
	bucket_state_t *s = &bucket_state;
	int64_t *until = xcalloc(s->n ? s->n : 1, sizeof(int64_t));
	sb_bitmap_t *nodes = sb_bitmap_alloc(s->n);
	job_record_t *job_ptr;
	list_itr_t *itr;

	if (!nodes || !job_list) {
		sb_bitmap_free(nodes);
		return until;
	}
	itr = list_iterator_create(job_list);
	while ((job_ptr = list_next(itr))) {
		if ((!IS_JOB_RUNNING(job_ptr) && !IS_JOB_SUSPENDED(job_ptr)) ||
		    !job_ptr->node_bitmap ||
		    (bit_size(job_ptr->node_bitmap) != (bitoff_t) s->n))
			continue;
		convert_bitstr_to_sb(job_ptr->node_bitmap, nodes);
		/* a suspended job's end is not known */
		(void) sb_model_busy_until_add(until, s->n, nodes,
					       IS_JOB_SUSPENDED(job_ptr) ?
					       SB_TIME_INFINITE :
					       (int64_t) job_ptr->end_time);
	}
	list_iterator_destroy(itr);
	sb_bitmap_free(nodes);
	return until;
}

/*
 * The plan of WILL_RUN at @now (sb_model_plan()), but for @skip_resv;
 * the nodes' busy_until into *@until_out when not NULL (the caller's to
 * free), else freed.
 */
static sb_will_run_t *_plan_build(time_t now, const void *skip_resv,
				  int64_t **until_out)
{
	sb_model_resv_t *resv;
	size_t nresv = 0, skip, k;
	int64_t *until = _busy_until();
	sb_will_run_t *w;
	slurmctld_resv_t *r;

	resv = state_resv_read(&nresv);
	skip = nresv;
	r = (slurmctld_resv_t *) skip_resv;
	for (k = 0; r && (k < nresv); k++)
		if (resv[k].name == r->name)
			skip = k;
	if (!(w = sb_model_plan(bucket_state.set, now, until, resv, nresv,
				skip)))
		error(BUCKET_PFX "cannot build the WILL_RUN plan: %m");
	state_resv_free(resv, nresv);
	if (w && until_out)
		*until_out = until;
	else
		xfree(until);
	return w;
}

/*
 * DebugFlags=SelectType: does the kept plan hold every running job's end
 * as the job list has them now? A time limit changed within the second
 * is the one difference expected (logged, and the plan brought forward).
 */
static bool _plan_kept_right(void)
{
	bucket_state_t *s = &bucket_state;
	int64_t *fresh = _busy_until();
	size_t i;
	bool same = true;

	for (i = 0; i < s->n; i++)
		if (fresh[i] != s->plan_until[i]) {
			log_flag(SELECT_TYPE, "WILL_RUN's kept plan has node %s busy until %"PRId64", its jobs until %"PRId64": brought forward",
				 node_record_table_ptr[i] ?
				 node_record_table_ptr[i]->name : "?",
				 s->plan_until[i], fresh[i]);
			same = false;
			break;
		}
	xfree(fresh);
	return same;
}

/*
 * Bring the kept plan to @now: each node's running jobs' end from the job
 * list, its state from the model. Only the nodes whose end or state
 * changed are planned again (sb_will_run_advance()), so the plan answers
 * as one built at @now. 0, or -1 (logged when not a clock step back):
 * build it again.
 */
static int _plan_catch_up(time_t now)
{
	bucket_state_t *s = &bucket_state;
	int64_t *fresh = _busy_until();
	int changed;

	if ((changed = sb_will_run_advance(s->plan, now, fresh)) < 0) {
		if (errno != EINVAL)
			error(BUCKET_PFX "cannot bring WILL_RUN's plan to %ld: %m",
			      (long) now);
		xfree(fresh);
		return -1;
	}
	xfree(s->plan_until);
	s->plan_until = fresh;
	s->plan_now = now;
	s->plan_behind = false;
	sb_bitmap_clear_all(s->plan_dirty);	/* every node was compared */
	if (!(slurm_conf.debug_flags & DEBUG_FLAG_SELECT_TYPE))
		return 0;
	if (sb_will_run_check(s->plan) < 0) {
		error(BUCKET_PFX "WILL_RUN's plan brought to %ld fails its check: %m",
		      (long) now);
		return -1;
	}
	log_flag(SELECT_TYPE, "WILL_RUN's kept plan brought to %ld: %d nodes changed",
		 (long) now, changed);
	return 0;
}

extern sb_will_run_t *state_plan(time_t now, const void *skip_resv,
				 sb_will_run_t **own)
{
	bucket_state_t *s = &bucket_state;

	*own = NULL;
	if (!s->set || !job_list)
		return NULL;
	if (skip_resv)
		return (*own = _plan_build(now, skip_resv, NULL));
	if (s->plan && (s->plan_now == (int64_t) now) && !s->plan_behind &&
	    (!(slurm_conf.debug_flags & DEBUG_FLAG_SELECT_TYPE) ||
	     _plan_kept_right()))
		return (_plan_refresh_dirty() < 0) ? NULL : s->plan;
	if (s->plan && (_plan_catch_up(now) == 0))
		return s->plan;
	state_plan_drop();
	s->plan = _plan_build(now, NULL, &s->plan_until);
	s->plan_now = now;
	if (s->plan && !(s->plan_dirty = sb_bitmap_alloc(s->n))) {
		error(BUCKET_PFX "cannot keep WILL_RUN's plan: out of memory");
		sb_will_run_destroy(s->plan);
		s->plan = NULL;
		xfree(s->plan_until);
	}
	if (s->plan)
		log_flag(SELECT_TYPE, "WILL_RUN's plan built at %ld",
			 (long) now);
	return s->plan;
}

extern void state_job_begin(job_record_t *job_ptr)
{
	bucket_state_t *s = &bucket_state;
	sb_bitmap_t *nodes;

	if (!s->plan)
		return;
	if (!job_ptr->node_bitmap ||
	    (bit_size(job_ptr->node_bitmap) != (bitoff_t) s->n) ||
	    !(nodes = sb_bitmap_alloc(s->n))) {
		state_plan_drop();
		return;
	}
	convert_bitstr_to_sb(job_ptr->node_bitmap, nodes);
	/* the rule _busy_until() builds the plan with */
	if (sb_model_busy_until_add(s->plan_until, s->n, nodes,
				    (int64_t) job_ptr->end_time) < 0)
		state_plan_drop();
	if (s->plan)	/* _plan_node() for each of them */
		sb_bitmap_or(s->plan_dirty, nodes);
	sb_bitmap_free(nodes);
	if (s->plan)
		log_flag(SELECT_TYPE, "%pJ starts: its nodes are busy until %ld in WILL_RUN's kept plan",
			 job_ptr, (long) job_ptr->end_time);
}
