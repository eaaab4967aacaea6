/*
 * replay_sched.c - the replay's schedulers: EASY, conservative, and
 * Slurm's main and backfill schedulers (replay.h), each on the one
 * planner of what the scheduler believes.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A pass after events that freed nothing and left the queue's order
 * alone tests only the jobs that arrived: the others could not start
 * before, and nothing has made room since (a belief running out or a
 * job ending counts as a change), so the answer for them is the same.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"
#include "replay_priv.h"
#include "sb_time.h"

static int64_t _free(const struct sb_replay *r)
{
	return r->c.units - r->used;
}

/*
 * The queue's head starts while it fits (units: its size is free; whole
 * nodes: select/bucket's RUN_NOW gives it nodes). Returns how many
 * started (the first that many of the queue), or (size_t) -1 (errno).
 */
static size_t _heads(struct sb_replay *r)
{
	size_t i = 0;

	while (i < r->nq && r->jobs[r->queue[i]].size <= _free(r)) {
		sb_bitmap_t *nodes = NULL;

		if (r->c.nodes) {
			int rc = sb__replay_nodes_now(r, r->queue[i], &nodes);

			if (rc < 0)
				return (size_t) -1;
			if (!rc)
				break;
		}
		if (sb__replay_start(r, r->queue[i++], false, nodes) < 0)
			return (size_t) -1;
	}
	return i;
}

/* A job started now by WILL_RUN's answer: on its nodes, which @plan then
 * holds until its believed end. */
static int _start_planned(struct sb_replay *r, sb_will_run_t *plan,
			  size_t j, bool backfilled, sb_bitmap_t *nodes)
{
	if (sb__replay_start(r, j, backfilled, nodes) < 0)
		return -1;
	return sb__replay_nodes_hold(plan, r->jnodes[j], r->now,
				     sb_time_add(r->now, r->st[j].est));
}

/* ---- EASY ---------------------------------------------------------------- */

/* qsort has no context: the replay of the one sort. */
static const struct sb_replay *_sort_r;

/* Shortest believed run time first, then queue order. */
static int _by_est(const void *pa, const void *pb)
{
	size_t a = *(const size_t *) pa, b = *(const size_t *) pb;
	int64_t ea = _sort_r->st[a].est, eb = _sort_r->st[b].est;

	if (ea != eb)
		return ea < eb ? -1 : 1;
	if (a == b)
		return 0;
	return sb__replay_before(_sort_r, a, b) ? -1 : 1;
}

static void _sjbf(struct sb_replay *r, size_t nc);

/*
 * EASY on whole nodes, the head at queue[@i] blocked and @fr units free:
 * the head's reservation is WILL_RUN's answer for it, held on its nodes;
 * a candidate starts when WILL_RUN, around that hold, answers "now".
 */
static int _easy_nodes(struct sb_replay *r, bool full, size_t i, int64_t fr)
{
	size_t head = r->queue[i], k, nc = 0;
	sb_will_run_t *plan = sb__replay_nodes_plan(r);
	sb_bitmap_t *nodes = NULL;
	int64_t at;
	int rc = -1, w;

	if (!plan)
		return -1;
	if ((w = sb__replay_nodes_when(r, plan, NULL, head, &at, &nodes)) < 0)
		goto out;
	if (!w && sb__replay_nodes_hold(plan, nodes, at,
					sb_time_add(at, r->st[head].est)) < 0)
		goto out;
	sb_bitmap_free(nodes);
	nodes = NULL;
	for (k = full ? i + 1 : 0; k < (full ? r->nq : r->narrived); k++) {
		size_t j = full ? r->queue[k] : r->arrived[k];

		if (j != head && r->st[j].state == SB__R_WAITING)
			r->scratch[nc++] = j;
	}
	_sjbf(r, nc);
	for (k = 0; k < nc && fr; k++) {
		size_t j = r->scratch[k];

		if (r->jobs[j].size > fr)
			continue;
		if ((w = sb__replay_nodes_when(r, plan, NULL, j, &at, &nodes)) < 0)
			goto out;
		if (w || at != r->now) {
			sb_bitmap_free(nodes);
			nodes = NULL;
			continue;
		}
		if (_start_planned(r, plan, j, true, nodes) < 0) {
			nodes = NULL;
			goto out;
		}
		nodes = NULL;
		fr -= r->jobs[j].size;
	}
	rc = 0;
out:
	sb_bitmap_free(nodes);
	sb_will_run_destroy(plan);
	sb__replay_compact(r);
	return rc;
}

/* The candidates in scratch[0..nc) shortest first, with --sjbf. */
static void _sjbf(struct sb_replay *r, size_t nc)
{
	if (r->c.sjbf && nc > 1) {
		_sort_r = r;
		qsort(r->scratch, nc, sizeof(*r->scratch), _by_est);
	}
}

static int _easy(struct sb_replay *r, bool full)
{
	const sb_replay_job_t *jobs = r->jobs;
	size_t i = 0, k, nc = 0, head;
	int64_t at, hs, fr;
	int rc = -1;

	/* the head starts while it fits */
	if ((i = _heads(r)) == (size_t) -1)
		return -1;
	if (i == r->nq || !(fr = _free(r)) || (!full && !r->narrived)) {
		sb__replay_compact(r);
		return 0;
	}
	if (r->c.nodes)
		return _easy_nodes(r, full, i, fr);
	/* the head's reservation */
	head = r->queue[i];
	if (sb_planner_earliest(r->plan, r->now, r->st[head].est,
				jobs[head].size, &at) < 0 ||
	    (hs = sb_planner_add_span(r->plan, at, r->st[head].est,
				      jobs[head].size)) < 0)
		return -1;
	if (full) {
		for (k = i + 1; k < r->nq; k++)
			r->scratch[nc++] = r->queue[k];
	} else {
		for (k = 0; k < r->narrived; k++) {
			size_t j = r->arrived[k];

			if (j != head && r->st[j].state == SB__R_WAITING)
				r->scratch[nc++] = j;
		}
	}
	_sjbf(r, nc);
	for (k = 0; k < nc && fr; k++) {
		size_t j = r->scratch[k];
		int fit;

		if (jobs[j].size > fr)
			continue;
		if ((fit = sb_planner_fits(r->plan, r->now, r->st[j].est,
					   jobs[j].size)) < 0)
			goto out;
		if (!fit)
			continue;
		if (sb__replay_start(r, j, true, NULL) < 0)
			goto out;
		fr -= jobs[j].size;
	}
	rc = 0;
out:
	if (sb_planner_rem_span(r->plan, hs) < 0)
		rc = -1;
	sb__replay_compact(r);
	return rc;
}

/* ---- conservative -------------------------------------------------------- */

int sb__replay_unreserve(struct sb_replay *r)
{
	size_t i;

	for (i = 0; i < r->nq; i++) {
		sb__rjob_t *s = &r->st[r->queue[i]];

		if (!s->span)
			continue;
		if (sb_planner_rem_span(r->plan, s->span) < 0)
			return -1;
		s->span = 0;
	}
	return 0;
}

/* Waiting job @j's reservation at its earliest start. */
static int _reserve(struct sb_replay *r, size_t j)
{
	sb__rjob_t *s = &r->st[j];
	int64_t at;

	if (sb_planner_earliest(r->plan, r->now, s->est, r->jobs[j].size,
				&at) < 0 ||
	    (s->span = sb_planner_add_span(r->plan, at, s->est,
					   r->jobs[j].size)) < 0) {
		s->span = 0;
		return -1;
	}
	s->res = at;
	return 0;
}

/*
 * Move waiting job @j's reservation to its earliest start, which is
 * never later. Its own span is in the way only of windows that reach
 * into it: those need the units free just before it (at res - 1), and
 * then it moves at least there; otherwise only a window that ends
 * before res - 1 can do, and the earliest fit with the span in place
 * finds it. Most jobs cannot move and cost one or two queries, not a
 * removal, a search and an insertion.
 */
static int _compress_one(struct sb_replay *r, size_t j)
{
	sb__rjob_t *s = &r->st[j];
	int64_t sz = r->jobs[j].size, last = s->res - 1, at, free_last;

	if ((free_last = sb_planner_avail_at(r->plan, last)) < 0)
		return -1;
	if (free_last >= sz) {
		if (sb_planner_rem_span(r->plan, s->span) < 0)
			return -1;
		s->span = 0;
		return _reserve(r, j);
	}
	if (last - r->now < s->est)
		return 0;
	if (sb_planner_earliest(r->plan, r->now, s->est, sz, &at) < 0)
		return -1;
	if (at + s->est > last)
		return 0;
	if (sb_planner_rem_span(r->plan, s->span) < 0)
		return -1;
	if ((s->span = sb_planner_add_span(r->plan, at, s->est, sz)) < 0) {
		s->span = 0;
		return -1;
	}
	s->res = at;
	return 0;
}

static int _conservative(struct sb_replay *r, bool rebuild, bool hole)
{
	bool ahead = false;
	size_t i;

	if (rebuild) {
		for (i = 0; i < r->nq; i++)
			if (_reserve(r, r->queue[i]) < 0)
				return -1;
	} else {
		/* the jobs there before (with a reservation) first, then
		 * the arrivals, which come last in the queue */
		for (i = 0; hole && i < r->nq; i++)
			if (r->st[r->queue[i]].span &&
			    _compress_one(r, r->queue[i]) < 0)
				return -1;
		for (i = 0; i < r->narrived; i++)
			if (r->st[r->arrived[i]].state == SB__R_WAITING &&
			    !r->st[r->arrived[i]].span &&
			    _reserve(r, r->arrived[i]) < 0)
				return -1;
	}
	/* jobs whose time has come start, in queue order */
	r->resv_at = -1;
	for (i = 0; i < r->nq; i++) {
		size_t j = r->queue[i];

		if (r->st[j].res == r->now) {
			if (sb__replay_start(r, j, ahead, NULL) < 0)
				return -1;
			continue;
		}
		ahead = true;
		if (r->resv_at < 0 || r->st[j].res < r->resv_at)
			r->resv_at = r->st[j].res;
	}
	sb__replay_compact(r);
	return 0;
}

/* ---- Slurm --------------------------------------------------------------- */

/* The main scheduler: queue order, stop at the first that does not fit. */
static int _main(struct sb_replay *r)
{
	size_t i = _heads(r);

	if (i == (size_t) -1)
		return -1;
	if (i)
		sb__replay_compact(r);
	return 0;
}

int sb__replay_backfill(struct sb_replay *r)
{
	int64_t res = r->c.bf_resolution;
	int64_t wend = sb_time_add(r->now, r->c.bf_window);
	size_t i, nc = r->nq, nres = 0;
	bool ahead = false;
	int rc = -1;

	if (nc > r->c.bf_max_job_test)
		nc = r->c.bf_max_job_test;
	r->in_bf = true;	/* its starts are late (sb__rjob_t) */
	if (r->c.nodes) {
		rc = sb__replay_backfill_map(r, nc);
		r->in_bf = false;
		return rc;
	}
	memcpy(r->scratch, r->queue, nc * sizeof(*r->scratch));
	for (i = 0; i < nc; i++) {
		size_t j = r->scratch[i];
		sb__rjob_t *s = &r->st[j];
		int64_t sz = r->jobs[j].size, at, end;

		/* one second more: backfill.c tests a start against the
		 * reservations that begin the second the job would end too
		 * (on whole nodes the map's own test, replay_bfmap.c) */
		if (sb_planner_earliest(r->plan, r->now, sb_time_add(s->est, 1),
					sz, &at) < 0)
			goto out;
		if (at == r->now) {
			if (sb__replay_start(r, j, ahead, NULL) < 0)
				goto out;
			continue;
		}
		ahead = true;
		if (at > wend)
			continue;	/* beyond bf_window: no reservation */
		/* backfill.c's end_reserve, rounded down to bf_resolution */
		end = sb_time_add(at, s->est) / res * res;
		if (end <= at)
			end = at + 1;
		if ((s->span = sb_planner_add_span(r->plan, at, end - at,
						   sz)) < 0) {
			s->span = 0;
			goto out;
		}
		s->res = at;
		r->scratch[nres++] = j;
	}
	rc = 0;
out:
	for (i = 0; i < nres; i++) {
		sb__rjob_t *s = &r->st[r->scratch[i]];

		if (s->span && sb_planner_rem_span(r->plan, s->span) < 0)
			rc = -1;
		s->span = 0;
	}
	r->in_bf = false;
	sb__replay_compact(r);
	return rc;
}

/* floor(a / b), b > 0 */
static int64_t _floor_div(int64_t a, int64_t b)
{
	return a / b - (a % b < 0);
}

/* a - b floor(a / b), b > 0: in [0, b) */
static int64_t _floor_mod(int64_t a, int64_t b)
{
	return a - b * _floor_div(a, b);
}

/* The periodic passes' phase: sched_last, or 0 (multiples). */
static int64_t _si_phase(const struct sb_replay *r)
{
	return r->c.sched_last_set ? r->c.sched_last : 0;
}

int64_t sb__replay_periodic_after(const struct sb_replay *r, int64_t t)
{
	return sb__replay_grid_after(t, _si_phase(r), r->c.sched_interval);
}

/*
 * The background thread's passes before @t, which no step marked: those
 * every sched_interval (on its phase) and the one for jobs that
 * arrived, batch_sched_delay after its last pass (slurmctld's
 * _slurmctld_background: each clears the request and is the last).
 */
static void _bg_until(struct sb_replay *r, int64_t t)
{
	int64_t si = r->c.sched_interval;

	for (;;) {
		int64_t p = SB_TIME_INFINITE, due = SB_TIME_INFINITE, n;

		if (si) {
			int64_t o = _si_phase(r);

			p = sb__replay_periodic_after(r, r->bg_last);
			if (!r->bg_ask) {
				int64_t q = o + _floor_div(t - 1 - o, si) * si;

				if (q > p)
					p = q;
			}
		}
		if (r->bg_ask)
			due = sb_time_add(r->bg_last, r->c.batch_sched_delay);
		n = p < due ? p : due;
		if (n >= t)
			return;
		r->bg_last = n;
		r->bg_ask = false;
	}
}

/*
 * A live slurmctld's backfill thread (replay.h, bf_last_set): a pass at
 * every second of its grid while jobs wait, whatever changed. The grid
 * is the configuration's: bf_last and bf_change, which the other thread
 * keeps, are not read.
 */
static int _bf_grid(struct sb_replay *r)
{
	int64_t t = r->now;

	if (r->nq && t > r->c.bf_last &&
	    !_floor_mod(t - r->c.bf_last, r->c.bf_interval) &&
	    sb__replay_backfill(r) < 0)
		return -1;
	if (r->nq)
		r->bf_at = sb__replay_grid_after(t, r->c.bf_last,
						  r->c.bf_interval);
	return 0;
}

/*
 * The background thread's pass for a request (an arrival's or an end's,
 * queue_job_scheduler()): now when its last pass was batch_sched_delay
 * or more ago, else at that second. 1: it runs now (the caller runs the
 * main scheduler), 0 not yet.
 */
static bool _bg_request(struct sb_replay *r)
{
	int64_t t = r->now;
	bool now = false;

	r->bg_ask = true;
	if (t >= sb_time_add(r->bg_last, r->c.batch_sched_delay)) {
		r->bg_last = t;
		r->bg_ask = false;
		now = true;
	}
	r->bg_at = r->bg_ask ? sb_time_add(r->bg_last,
					    r->c.batch_sched_delay) : -1;
	return now;
}

/*
 * slurmctld's passes due now (replay.h). The main scheduler's, all in
 * the background thread: every sched_interval (on its phase), and for
 * jobs that arrived or ended (both call queue_job_scheduler(); no
 * epilog's completion ran one in the logs of bench/RESULTS.md)
 * batch_sched_delay after its last pass. Then backfill's: its thread
 * sleeps bf_interval after a pass, then looks every second for a change
 * since that pass (its own starts are one). Passes that fell while
 * nothing ran or waited, which no step marked, did nothing but count as
 * the last ones.
 */
int sb__replay_slurm(struct sb_replay *r, bool ended, bool changed)
{
	int64_t t = r->now, si = r->c.sched_interval;
	size_t waited = r->nq;
	bool main = false;

	_bg_until(r, t);
	if (r->bf_at >= 0 && r->bf_at < t) {
		r->bf_last = r->bf_at;
		r->bf_change = false;
	}
	if (si && !_floor_mod(t - _si_phase(r), si) && t > r->bg_last) {
		/* the periodic pass answers the requests too */
		main = true;
		r->bg_last = t;
		r->bg_ask = false;
	} else if (r->narrived || ended || r->bg_ask) {
		main = _bg_request(r);
	}
	r->bg_at = r->bg_ask ? sb_time_add(r->bg_last,
					    r->c.batch_sched_delay) : -1;
	if (main && _main(r) < 0)
		return -1;
	if (ended || changed || r->narrived || r->nq != waited)
		r->bf_change = true;
	r->bf_at = -1;
	if (r->c.bf_last_set)
		return _bf_grid(r);
	if (!r->bf_change)
		return 0;
	if (t < sb_time_add(r->bf_last, r->c.bf_interval)) {
		r->bf_at = sb_time_add(r->bf_last, r->c.bf_interval);
		return 0;
	}
	waited = r->nq;
	r->bf_last = t;
	r->bf_change = false;
	if (r->nq && sb__replay_backfill(r) < 0)
		return -1;
	if (r->nq != waited) {
		/* its own starts: a pass bf_interval later */
		r->bf_change = true;
		r->bf_at = sb_time_add(t, r->c.bf_interval);
	}
	return 0;
}

int sb__replay_slurm_late(struct sb_replay *r)
{
	int64_t t = r->now;

	/* their ends ask the background thread for a pass, after any it
	 * ran this second */
	if (_bg_request(r) && _main(r) < 0)
		return -1;
	r->bf_change = true;
	if (r->c.bf_last_set)
		r->bf_at = r->nq ? sb__replay_grid_after(t, r->c.bf_last,
							  r->c.bf_interval) : -1;
	else if (r->bf_last == t)
		r->bf_at = sb_time_add(t, r->c.bf_interval);
	else if (t >= sb_time_add(r->bf_last, r->c.bf_interval))
		r->bf_at = t + 1;	/* its next look */
	else
		r->bf_at = sb_time_add(r->bf_last, r->c.bf_interval);
	return 0;
}

/* ---- the pass ------------------------------------------------------------ */

int sb__replay_schedule(struct sb_replay *r, bool full, bool rebuild,
			bool hole)
{
	switch (r->c.sched) {
	case SB_REPLAY_EASY:
		return _easy(r, full);
	case SB_REPLAY_CONSERVATIVE:
		return _conservative(r, rebuild, hole);
	case SB_REPLAY_SLURM:
		return _main(r);
	}
	errno = EINVAL;
	return -1;
}
