/*
 * bucket_state.c - select/bucket's model of the cluster: one sb_node_t
 * per Slurm node, the bucket set over them, which nodes our jobs hold,
 * future reservations as busy windows, and WILL_RUN's plan.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Built once (start, reconfigure, partition or node changes that call
 * select_g_reconfigure()) and then kept current a node at a time:
 *   - job begin / end: the job's nodes move between free and busy, O(1)
 *     bitmap work per node (sb_bucket_set_update());
 *   - node state (down, drain, resume): slurmctld does not tell the
 *     select plugin, so each decision first compares the node states
 *     when last_node_update has moved (O(N) word compares) and updates
 *     the nodes that changed;
 *   - reservations: when last_resv_update moves, or a reservation we
 *     know starts, the windows are rebuilt on the nodes they cover
 *     (busy-later: idle now, reserved later);
 *   - the clock: sb_bucket_set_set_now() re-classifies the nodes with
 *     windows only.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "slurm/slurm_errno.h"

#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/slurmctld/slurmctld.h"

#include "select_bucket.h"
#include "signature.h"

pthread_mutex_t bucket_lock = PTHREAD_MUTEX_INITIALIZER;
bucket_state_t bucket_state;

/*
 * Nodes that carry reservation windows, the nodes our jobs hold, and the
 * nodes the model has down or drained.
 */
static sb_bitmap_t *g_windowed = NULL;
static sb_bitmap_t *g_held = NULL;
static sb_bitmap_t *g_down = NULL;

/*
 * The ids of the jobs that hold nodes: a job's nodes are taken once and
 * given back once, however often slurmctld reports its end. Unsorted;
 * a linear search over running jobs per job start or end.
 */
static uint32_t *g_jobs = NULL;
static size_t g_njobs = 0, g_capjobs = 0;

static ssize_t _job_find(uint32_t id)
{
	size_t i;

	for (i = 0; i < g_njobs; i++)
		if (g_jobs[i] == id)
			return (ssize_t) i;
	return -1;
}

static void _job_add(uint32_t id)
{
	if (g_njobs == g_capjobs) {
		g_capjobs = g_capjobs ? 2 * g_capjobs : 64;
		xrecalloc(g_jobs, g_capjobs, sizeof(*g_jobs));
	}
	g_jobs[g_njobs++] = id;
}

static void _job_del(size_t i)
{
	g_jobs[i] = g_jobs[--g_njobs];
}

extern void state_free(void)
{
	bucket_state_t *s = &bucket_state;
	size_t i;

	sb_will_run_destroy(s->plan);
	sb_bucket_set_destroy(s->set);
	for (i = 0; s->nodes && (i < s->n); i++)
		sb_node_fini(&s->nodes[i]);
	xfree(s->nodes);
	xfree(s->jobs);
	xfree(s->seen_state);
	sb_bitmap_free(g_windowed);
	sb_bitmap_free(g_held);
	sb_bitmap_free(g_down);
	g_windowed = g_held = g_down = NULL;
	xfree(g_jobs);
	g_njobs = g_capjobs = 0;
	memset(s, 0, sizeof(*s));
}

/* Node @i's state, running jobs and bitmaps from jobs[] and Slurm. */
static void _derive(size_t i)
{
	bucket_state_t *s = &bucket_state;

	s->nodes[i].run_jobs = s->jobs[i];
	s->nodes[i].state = convert_node_state(node_record_table_ptr[i],
					       s->jobs[i]);
	if (s->jobs[i])
		sb_bitmap_set(g_held, i);
	else
		sb_bitmap_clear(g_held, i);
	if ((s->nodes[i].state == SB_NODE_DOWN) ||
	    (s->nodes[i].state == SB_NODE_DRAINED))
		sb_bitmap_set(g_down, i);
	else
		sb_bitmap_clear(g_down, i);
}

/* ... and re-file it in its bucket. */
static void _update(size_t i)
{
	_derive(i);
	(void) sb_bucket_set_update(bucket_state.set, i);
}

/* A reservation that makes its nodes busy later: nodes, a future start. */
static bool _future_resv(const slurmctld_resv_t *resv, time_t now)
{
	return resv->node_bitmap && (resv->start_time > now) &&
		(resv->end_time > resv->start_time);
}

/*
 * Rebuild the busy windows from the reservations that have not started:
 * the nodes that had windows lose them, the covered ones get them.
 * O(R N / 64 + nodes touched).
 */
static void _sync_windows(time_t now)
{
	bucket_state_t *s = &bucket_state;
	sb_bitmap_t *old = sb_bitmap_dup(g_windowed), *cover;
	slurmctld_resv_t *resv;
	ListIterator itr;
	int64_t i;

	s->next_window = SB_TIME_INFINITE;
	cover = sb_bitmap_alloc(s->n);
	if (!old || !cover) {
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
	if (resv_list) {
		itr = list_iterator_create(resv_list);
		while ((resv = list_next(itr))) {
			if (!_future_resv(resv, now) ||
			    (bit_size(resv->node_bitmap) != (bitoff_t) s->n))
				continue;
			convert_bitstr_to_sb(resv->node_bitmap, cover);
			for (i = sb_bitmap_first_set(cover); i >= 0;
			     i = sb_bitmap_next_set(cover, (size_t) i + 1))
				if (!sb_node_add_busy(&s->nodes[i],
						      resv->start_time,
						      resv->end_time))
					sb_bitmap_set(g_windowed, (size_t) i);
			if (resv->start_time < s->next_window)
				s->next_window = resv->start_time;
			log_flag(SELECT_TYPE, "reservation %s: nodes busy from %ld to %ld, free until then (busy-later)",
				 resv->name, (long) resv->start_time,
				 (long) resv->end_time);
		}
		list_iterator_destroy(itr);
	}
	(void) sb_bucket_set_set_now(s->set, now);
	sb_bitmap_or(old, g_windowed);
	for (i = sb_bitmap_first_set(old); i >= 0;
	     i = sb_bitmap_next_set(old, (size_t) i + 1))
		(void) sb_bucket_set_update(s->set, (size_t) i);
out:
	sb_bitmap_free(old);
	sb_bitmap_free(cover);
	s->resv_synced = now;
	s->gen++;
}

extern int state_build(void)
{
	bucket_state_t *s = &bucket_state;
	time_t now = time(NULL);
	job_record_t *job_ptr;
	ListIterator itr;
	size_t i;
	int64_t k;

	state_free();
	s->n = node_record_count;
	s->nodes = xcalloc(s->n ? s->n : 1, sizeof(sb_node_t));
	s->jobs = xcalloc(s->n ? s->n : 1, sizeof(uint16_t));
	s->seen_state = xcalloc(s->n ? s->n : 1, sizeof(uint32_t));
	if (!(g_windowed = sb_bitmap_alloc(s->n)) ||
	    !(g_held = sb_bitmap_alloc(s->n)) ||
	    !(g_down = sb_bitmap_alloc(s->n)))
		goto fail;
	for (i = 0; i < s->n; i++) {
		if (convert_node(&s->nodes[i], i, node_record_table_ptr[i],
				 bucket_conf) < 0)
			goto fail;
		if (node_record_table_ptr[i])
			s->seen_state[i] = node_record_table_ptr[i]->node_state;
	}
	/* After a restart: the nodes of running and suspended jobs. */
	if (job_list) {
		sb_bitmap_t *nodes = sb_bitmap_alloc(s->n);

		if (!nodes)
			goto fail;
		itr = list_iterator_create(job_list);
		while ((job_ptr = list_next(itr))) {
			if ((!IS_JOB_RUNNING(job_ptr) &&
			     !IS_JOB_SUSPENDED(job_ptr)) ||
			    !job_ptr->node_bitmap ||
			    (bit_size(job_ptr->node_bitmap) !=
			     (bitoff_t) s->n))
				continue;
			convert_bitstr_to_sb(job_ptr->node_bitmap, nodes);
			for (k = sb_bitmap_first_set(nodes); k >= 0;
			     k = sb_bitmap_next_set(nodes, (size_t) k + 1))
				s->jobs[k]++;
			_job_add(job_ptr->job_id);
		}
		list_iterator_destroy(itr);
		sb_bitmap_free(nodes);
	}
	for (i = 0; i < s->n; i++)
		_derive(i);
	if (!(s->set = sb_bucket_set_create(s->nodes, s->n, now)))
		goto fail;
	s->seen_node_update = last_node_update;
	_sync_windows(now);
	info("%zu nodes in %zu buckets, %zu held by running jobs",
	     s->n, sb_bucket_set_size(s->set), sb_bitmap_count(g_held));
	return SLURM_SUCCESS;
fail:
	error(BUCKET_PFX "cannot build the node buckets: %m");
	state_free();
	return SLURM_ERROR;
}

/* Node states and loads, when slurmctld changed any node. */
static void _sync_nodes(void)
{
	bucket_state_t *s = &bucket_state;
	size_t i, changed = 0;

	for (i = 0; i < s->n; i++) {
		node_record_t *node_ptr = node_record_table_ptr[i];

		if (!node_ptr)
			continue;
		if (node_ptr->node_state == s->seen_state[i])
			continue;
		s->seen_state[i] = node_ptr->node_state;
		_update(i);
		changed++;
	}
	s->seen_node_update = last_node_update;
	s->nodes_synced = time(NULL);
	if (changed) {
		s->gen++;
		log_flag(SELECT_TYPE, "%zu node state changes applied",
			 changed);
	}
}

extern void state_sync(time_t now)
{
	bucket_state_t *s = &bucket_state;

	if (!s->set || s->stale || (s->n != (size_t) node_record_count)) {
		(void) state_build();
		if (!s->set)
			return;
	}
	/*
	 * Not every state change moves last_node_update: compare at least
	 * once a second.
	 */
	if ((s->seen_node_update != last_node_update) ||
	    (s->nodes_synced != now))
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
}

extern void state_sync_offered(const sb_bitmap_t *offered)
{
	bucket_state_t *s = &bucket_state;
	size_t changed = 0;
	int64_t i;

	if (!g_down || !sb_bitmap_intersects(g_down, offered))
		return;
	for (i = sb_bitmap_first_set(g_down); i >= 0;
	     i = sb_bitmap_next_set(g_down, (size_t) i + 1)) {
		node_record_t *node_ptr = node_record_table_ptr[i];

		if (!sb_bitmap_test(offered, (size_t) i) || !node_ptr ||
		    (node_ptr->node_state == s->seen_state[i]))
			continue;
		s->seen_state[i] = node_ptr->node_state;
		_update((size_t) i);
		changed++;
	}
	if (changed)
		s->gen++;
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

extern void state_hold(const bitstr_t *nodes, int delta)
{
	bucket_state_t *s = &bucket_state;
	sb_bitmap_t *b;
	int64_t i;

	if (!s->set || !nodes || (bit_size((bitstr_t *) nodes) !=
				  (bitoff_t) s->n))
		return;
	if (!(b = sb_bitmap_alloc(s->n)))
		return;
	convert_bitstr_to_sb(nodes, b);
	for (i = sb_bitmap_first_set(b); i >= 0;
	     i = sb_bitmap_next_set(b, (size_t) i + 1)) {
		if ((delta < 0) && !s->jobs[i]) {
			error(BUCKET_PFX "node %s released by a job that did not hold it",
			      s->nodes[i].name);
			continue;
		}
		s->jobs[i] += delta;
		_update((size_t) i);
	}
	sb_bitmap_free(b);
	s->gen++;
}

extern void state_job_begin(job_record_t *job_ptr)
{
	if (_job_find(job_ptr->job_id) >= 0) {
		error(BUCKET_PFX "%pJ began a second time; its nodes stay held once",
		      job_ptr);
		return;
	}
	_job_add(job_ptr->job_id);
	state_hold(job_ptr->node_bitmap, 1);
}

extern bool state_job_end(job_record_t *job_ptr)
{
	ssize_t k = _job_find(job_ptr->job_id);

	if (k < 0) {
		debug("%pJ ended, but holds no nodes (ended before)", job_ptr);
		return false;
	}
	_job_del((size_t) k);
	state_hold(job_ptr->node_bitmap, -1);
	return true;
}

extern void state_job_shrink(job_record_t *job_ptr, int node_index)
{
	bitstr_t *one;

	if ((_job_find(job_ptr->job_id) < 0) || (node_index < 0) ||
	    ((size_t) node_index >= bucket_state.n))
		return;
	one = bit_alloc(bucket_state.n);
	bit_set(one, node_index);
	state_hold(one, -1);
	FREE_NULL_BITMAP(one);
}

extern const sb_bitmap_t *state_held(void)
{
	return g_held;
}

static int _same_ptr(void *x, void *key)
{
	return x == key;
}

static bool _in_list(List l, const void *x)
{
	return l && list_find_first(l, _same_ptr, (void *) x);
}

extern int64_t *state_busy_until(List free_jobs, sb_bitmap_t *freed,
				 int64_t *ends, size_t *nends)
{
	bucket_state_t *s = &bucket_state;
	int64_t *until = xcalloc(s->n ? s->n : 1, sizeof(int64_t));
	sb_bitmap_t *nodes = sb_bitmap_alloc(s->n);
	job_record_t *job_ptr;
	ListIterator itr;
	int64_t i;

	if (nends)
		*nends = 0;
	if (!nodes || !job_list) {
		sb_bitmap_free(nodes);
		return until;
	}
	itr = list_iterator_create(job_list);
	while ((job_ptr = list_next(itr))) {
		int64_t end;

		if ((!IS_JOB_RUNNING(job_ptr) && !IS_JOB_SUSPENDED(job_ptr)) ||
		    !job_ptr->node_bitmap ||
		    (bit_size(job_ptr->node_bitmap) != (bitoff_t) s->n))
			continue;
		convert_bitstr_to_sb(job_ptr->node_bitmap, nodes);
		if (_in_list(free_jobs, job_ptr)) {
			if (freed)
				sb_bitmap_or(freed, nodes);
			continue;
		}
		/* a suspended job's end is not known */
		end = IS_JOB_SUSPENDED(job_ptr) ? SB_TIME_INFINITE :
			MAX((int64_t) job_ptr->end_time, 1);
		for (i = sb_bitmap_first_set(nodes); i >= 0;
		     i = sb_bitmap_next_set(nodes, (size_t) i + 1))
			if (end > until[i])
				until[i] = end;
		if (ends && (end != SB_TIME_INFINITE))
			ends[(*nends)++] = end;
	}
	list_iterator_destroy(itr);
	sb_bitmap_free(nodes);
	return until;
}

/* The plan of WILL_RUN at @now: running jobs, down nodes, reservations. */
static sb_will_run_t *_plan_build(time_t now, const void *skip_resv,
				  List free_jobs)
{
	bucket_state_t *s = &bucket_state;
	sb_bitmap_t *nodes = sb_bitmap_alloc(s->n), *freed = NULL;
	int64_t *until = NULL;
	sb_will_run_t *w = NULL;
	slurmctld_resv_t *resv;
	ListIterator itr;
	int64_t i;

	if (!nodes || !(freed = sb_bitmap_alloc(s->n)))
		goto out;
	until = state_busy_until(free_jobs, freed, NULL, NULL);
	if (!(w = sb_will_run_create(s->set, now, SB_TIME_INFINITE - now,
				     until)))
		goto out;
	/*
	 * Reservations from resv_list, active ones too; the nodes' own
	 * windows (future reservations) go first, so the job's own
	 * reservation is left out.
	 */
	for (i = sb_bitmap_first_set(g_windowed); i >= 0;
	     i = sb_bitmap_next_set(g_windowed, (size_t) i + 1))
		(void) sb_will_run_clear_windows(w, (size_t) i);
	/* preemption candidates' nodes are free now */
	for (i = sb_bitmap_first_set(freed); i >= 0;
	     i = sb_bitmap_next_set(freed, (size_t) i + 1))
		if (!until[i])
			(void) sb_will_run_set_busy(w, (size_t) i, now);
	if (resv_list) {
		itr = list_iterator_create(resv_list);
		while ((resv = list_next(itr))) {
			if (!resv->node_bitmap || (resv == skip_resv) ||
			    (resv->end_time <= now) ||
			    (bit_size(resv->node_bitmap) != (bitoff_t) s->n))
				continue;
			convert_bitstr_to_sb(resv->node_bitmap, nodes);
			for (i = sb_bitmap_first_set(nodes); i >= 0;
			     i = sb_bitmap_next_set(nodes, (size_t) i + 1))
				(void) sb_will_run_reserve(
					w, (size_t) i,
					MAX(resv->start_time, now),
					resv->end_time);
		}
		list_iterator_destroy(itr);
	}
out:
	if (!w)
		error(BUCKET_PFX "cannot build the WILL_RUN plan: %m");
	xfree(until);
	sb_bitmap_free(nodes);
	sb_bitmap_free(freed);
	return w;
}

extern sb_will_run_t *state_plan(time_t now, const void *skip_resv,
				 List free_jobs, sb_will_run_t **own)
{
	bucket_state_t *s = &bucket_state;

	*own = NULL;
	if (!s->set || !job_list)
		return NULL;
	if (skip_resv || (free_jobs && list_count(free_jobs)))
		return (*own = _plan_build(now, skip_resv, free_jobs));
	if (s->plan && (s->plan_gen == s->gen) &&
	    (s->plan_base == (int64_t) now))
		return s->plan;
	sb_will_run_destroy(s->plan);
	s->plan = _plan_build(now, NULL, NULL);
	s->plan_gen = s->gen;
	s->plan_base = now;
	return s->plan;
}
