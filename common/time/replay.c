/*
 * replay.c - the replay's events, jobs and beliefs, and its checker
 * (replay.h); the schedulers are replay_sched.c's, priorities
 * replay_prio.c's.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Arrivals come from the jobs sorted by submit time; ends and beliefs
 * that run out from one binary heap; the priority pass and SLURM's
 * backfill pass from a next time each. A step takes the earliest of
 * them and handles everything due then.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"
#include "replay_priv.h"
#include "sb_time.h"

/* A job past its limit (kill off) is believed to run as long again as
 * it has run, and at least this much longer: a handful of beliefs over
 * any run, never one a minute. */
#define PAST_LIMIT_STEP 60

/* ---- names --------------------------------------------------------------- */

static const char *const _sched_names[] = { "easy", "conservative",
					    "slurm" };
static const char *const _prio_names[] = { "fcfs", "multifactor" };
static const char *const _predict_names[] = { "limit", "user2",
					      "similar2" };
static const char *const _correct_names[] = { "steps", "limit" };

static const char *_name(const char *const *v, size_t n, int i)
{
	if (i < 0 || (size_t) i >= n) {
		errno = EINVAL;
		return NULL;
	}
	return v[i];
}

static int _parse(const char *const *v, size_t n, const char *name)
{
	size_t i;

	for (i = 0; name && i < n; i++)
		if (!strcmp(v[i], name))
			return (int) i;
	errno = EINVAL;
	return -1;
}

#define NAMES(x) x, sizeof(x) / sizeof(x[0])

const char *sb_replay_sched_name(sb_replay_sched_t s)
{
	return _name(NAMES(_sched_names), (int) s);
}

int sb_replay_sched_parse(const char *name)
{
	return _parse(NAMES(_sched_names), name);
}

const char *sb_replay_prio_name(sb_replay_prio_t p)
{
	return _name(NAMES(_prio_names), (int) p);
}

int sb_replay_prio_parse(const char *name)
{
	return _parse(NAMES(_prio_names), name);
}

const char *sb_replay_predict_name(sb_replay_predict_t p)
{
	return _name(NAMES(_predict_names), (int) p);
}

int sb_replay_predict_parse(const char *name)
{
	return _parse(NAMES(_predict_names), name);
}

const char *sb_replay_correct_name(sb_replay_correct_t c)
{
	return _name(NAMES(_correct_names), (int) c);
}

int sb_replay_correct_parse(const char *name)
{
	return _parse(NAMES(_correct_names), name);
}

/* ---- configuration ------------------------------------------------------- */

void sb_replay_conf_default(sb_replay_conf_t *c)
{
	if (!c)
		return;
	memset(c, 0, sizeof(*c));
	c->sched = SB_REPLAY_EASY;
	c->kill = true;
	c->predict = SB_REPLAY_PREDICT_LIMIT;
	c->correct = SB_REPLAY_CORRECT_LIMIT;
	c->bf_interval = SB_REPLAY_BF_INTERVAL;
	c->bf_window = SB_REPLAY_BF_WINDOW;
	c->bf_resolution = SB_REPLAY_BF_RESOLUTION;
	c->bf_max_job_test = SB_REPLAY_BF_MAX_JOB_TEST;
	c->batch_sched_delay = SB_REPLAY_BATCH_SCHED_DELAY;
	c->sched_interval = SB_REPLAY_SCHED_INTERVAL;
	c->prio = SB_REPLAY_FCFS;
	c->fs_algorithm = SB_FS_FAIR_TREE;
	c->levels = 4;
	c->dampening = 1;
	c->max_age = 7 * 86400;
	c->half_life = 7 * 86400;
	c->calc_period = 300;
}

static bool _conf_ok(const sb_replay_conf_t *c)
{
	if (c->units < 1 || (unsigned) c->sched > SB_REPLAY_SLURM ||
	    (unsigned) c->prio > SB_REPLAY_MULTIFACTOR ||
	    (unsigned) c->predict > SB_REPLAY_PREDICT_SIMILAR2 ||
	    (unsigned) c->correct > SB_REPLAY_CORRECT_LIMIT ||
	    c->bf_interval < 0 || c->bf_window < 0 || c->bf_resolution < 0 ||
	    c->batch_sched_delay < 0 || c->sched_interval < 0)
		return false;
	if (c->predict != SB_REPLAY_PREDICT_LIMIT && !c->users)
		return false;
	if (c->prio == SB_REPLAY_MULTIFACTOR &&
	    (!c->tree || c->max_age < 1 || c->calc_period < 1))
		return false;
	return true;
}

/* ---- the heap of ends and beliefs ---------------------------------------- */

static bool _ev_less(const sb__rev_t *a, const sb__rev_t *b)
{
	if (a->t != b->t)
		return a->t < b->t;
	if (a->kind != b->kind)
		return a->kind < b->kind;
	return a->job < b->job;
}

static int _push(struct sb_replay *r, int64_t t, size_t job, int kind)
{
	size_t i;

	if (r->nheap == r->capheap) {
		size_t cap = r->capheap ? r->capheap * 2 : 64;
		sb__rev_t *v = realloc(r->heap, cap * sizeof(*v));

		if (!v)
			return -1;
		r->heap = v;
		r->capheap = cap;
	}
	i = r->nheap++;
	r->heap[i] = (sb__rev_t) { t, job, kind };
	while (i && _ev_less(&r->heap[i], &r->heap[(i - 1) / 2])) {
		sb__rev_t x = r->heap[i];

		r->heap[i] = r->heap[(i - 1) / 2];
		r->heap[(i - 1) / 2] = x;
		i = (i - 1) / 2;
	}
	return 0;
}

static sb__rev_t _pop(struct sb_replay *r)
{
	sb__rev_t top = r->heap[0];
	size_t i = 0;

	r->heap[0] = r->heap[--r->nheap];
	for (;;) {
		size_t l = 2 * i + 1, m = i;

		if (l < r->nheap && _ev_less(&r->heap[l], &r->heap[m]))
			m = l;
		if (l + 1 < r->nheap && _ev_less(&r->heap[l + 1], &r->heap[m]))
			m = l + 1;
		if (m == i)
			break;
		sb__rev_t x = r->heap[i];

		r->heap[i] = r->heap[m];
		r->heap[m] = x;
		i = m;
	}
	return top;
}

/* ---- lifecycle ----------------------------------------------------------- */

/* qsort has no context: the jobs of the one sort. */
static const sb_replay_job_t *_sort_jobs;

static int _by_submit(const void *pa, const void *pb)
{
	size_t a = *(const size_t *) pa, b = *(const size_t *) pb;
	int64_t sa = _sort_jobs[a].submit, sb = _sort_jobs[b].submit;

	if (sa != sb)
		return sa < sb ? -1 : 1;
	return a < b ? -1 : a > b;
}

sb_replay_t *sb_replay_create(const sb_replay_conf_t *c,
			      const sb_replay_job_t *jobs, size_t n)
{
	struct sb_replay *r;
	size_t i;
	int e;

	if (!c || !jobs || !n || !_conf_ok(c)) {
		errno = EINVAL;
		return NULL;
	}
	for (i = 0; i < n; i++) {
		const sb_replay_job_t *j = &jobs[i];

		if (j->submit < 0 || j->run < 0 || j->limit < 1 ||
		    j->size < 1 || j->size > c->units ||
		    j->submit > SB_TIME_INFINITE / 4 ||
		    j->run > SB_TIME_INFINITE / 4 ||
		    (c->predict != SB_REPLAY_PREDICT_LIMIT &&
		     (j->user >= c->nusers || !c->users[j->user]))) {
			errno = EINVAL;
			return NULL;
		}
	}
	if (!(r = calloc(1, sizeof(*r))))
		return NULL;
	r->c = *c;
	if (!r->c.bf_interval)
		r->c.bf_interval = SB_REPLAY_BF_INTERVAL;
	if (!r->c.bf_window)
		r->c.bf_window = SB_REPLAY_BF_WINDOW;
	if (!r->c.bf_resolution)
		r->c.bf_resolution = SB_REPLAY_BF_RESOLUTION;
	if (!r->c.bf_max_job_test)
		r->c.bf_max_job_test = SB_REPLAY_BF_MAX_JOB_TEST;
	r->jobs = jobs;
	r->n = n;
	r->now = -1;
	r->bf_at = -1;
	r->bf_last = INT64_MIN / 2;
	r->bg_at = -1;
	r->bg_last = INT64_MIN / 2;
	r->tick_at = -1;
	r->resv_at = -1;
	if (!(r->out = calloc(n, sizeof(*r->out))) ||
	    !(r->st = calloc(n, sizeof(*r->st))) ||
	    !(r->order = malloc(n * sizeof(*r->order))) ||
	    !(r->queue = malloc(n * sizeof(*r->queue))) ||
	    !(r->run = malloc(n * sizeof(*r->run))) ||
	    !(r->runpos = malloc(n * sizeof(*r->runpos))) ||
	    !(r->arrived = malloc(n * sizeof(*r->arrived))) ||
	    !(r->scratch = malloc(n * sizeof(*r->scratch))) ||
	    !(r->late_end = malloc(n * sizeof(*r->late_end))) ||
	    !(r->ended = malloc(n * sizeof(*r->ended))))
		goto fail;
	for (i = 0; i < n; i++)
		r->order[i] = i;
	_sort_jobs = jobs;
	qsort(r->order, n, sizeof(*r->order), _by_submit);
	for (i = 0; i < n; i++) {
		r->st[r->order[i]].arrival = i;
		r->out[i].start = r->out[i].end = -1;
	}
	/* the horizon runs to the end of time: a belief never falls off */
	if (!(r->plan = sb_planner_create(jobs[r->order[0]].submit,
					  SB_TIME_INFINITE, c->units)))
		goto fail;
	if (c->predict != SB_REPLAY_PREDICT_LIMIT &&
	    !(r->hist = sb_rt_history_create()))
		goto fail;
	if (c->prio == SB_REPLAY_MULTIFACTOR && sb__replay_prio_init(r) < 0)
		goto fail;
	if (c->nodes && sb__replay_nodes_init(r) < 0)
		goto fail;
	return r;
fail:
	e = errno == EINVAL ? EINVAL : ENOMEM;
	sb_replay_destroy(r);
	errno = e;
	return NULL;
}

void sb_replay_destroy(sb_replay_t *r)
{
	if (!r)
		return;
	sb__replay_prio_fini(r);
	if (r->c.nodes) {
		size_t i;

		/* the nodes the caller lent are idle again */
		for (i = 0; r->jnodes && i < r->n; i++)
			if (r->jnodes[i])
				sb__replay_nodes_release(r, i);
		sb__replay_nodes_fini(r);
	}
	sb_rt_history_destroy(r->hist);
	sb_planner_destroy(r->plan);
	sb_replay_series_fini(&r->series);
	free(r->out);
	free(r->st);
	free(r->order);
	free(r->heap);
	free(r->queue);
	free(r->run);
	free(r->runpos);
	free(r->arrived);
	free(r->scratch);
	free(r->late_end);
	free(r->ended);
	free(r);
}

/* ---- jobs ---------------------------------------------------------------- */

/* A job's real run: its run time (0 counts as 1), cut at its limit. */
static int64_t _runs(const struct sb_replay *r, size_t j, bool *killed)
{
	const sb_replay_job_t *jb = &r->jobs[j];
	int64_t run = jb->run > 0 ? jb->run : 1;

	*killed = r->c.kill && run > jb->limit;
	return *killed ? jb->limit : run;
}

int sb__replay_start(struct sb_replay *r, size_t j, bool backfilled,
		     sb_bitmap_t *nodes)
{
	sb__rjob_t *s = &r->st[j];
	const sb_replay_job_t *jb = &r->jobs[j];
	bool killed;
	int64_t run = _runs(r, j, &killed);

	if (s->span && s->res != r->now) {
		/* a reservation elsewhere: not this start's */
		if (sb_planner_rem_span(r->plan, s->span) < 0)
			return -1;
		s->span = 0;
	}
	if (!s->span &&
	    (s->span = sb_planner_add_span(r->plan, r->now, s->est,
					   jb->size)) < 0) {
		s->span = 0;
		return -1;
	}
	if (r->c.nodes && sb__replay_nodes_take(r, j, nodes) < 0)
		return -1;
	s->res = r->now;
	s->state = SB__R_RUNNING;
	s->late = r->in_bf;
	s->end = r->now + run;
	r->out[j].start = r->now;
	r->out[j].killed = killed;
	r->out[j].backfilled = backfilled;
	r->used += jb->size;
	r->runpos[j] = r->nrun;
	r->run[r->nrun++] = j;
	if (_push(r, s->end, j, SB__EV_END) < 0)
		return -1;
	if (r->now + s->est < s->end &&
	    _push(r, r->now + s->est, j, SB__EV_BELIEF) < 0)
		return -1;
	return 0;
}

void sb__replay_compact(struct sb_replay *r)
{
	size_t i, k = 0;

	for (i = 0; i < r->nq; i++)
		if (r->st[r->queue[i]].state == SB__R_WAITING)
			r->queue[k++] = r->queue[i];
	r->nq = k;
}

/* Job @j ends now. *@hole: it ended before its belief. */
static int _end(struct sb_replay *r, size_t j, bool *hole)
{
	sb__rjob_t *s = &r->st[j];
	const sb_replay_job_t *jb = &r->jobs[j];
	size_t k = r->runpos[j];

	if (s->res + s->est > r->now)
		*hole = true;
	if (sb_planner_rem_span(r->plan, s->span) < 0)
		return -1;
	s->span = 0;
	if (r->c.nodes && sb__replay_nodes_release(r, j) < 0)
		return -1;
	s->state = SB__R_DONE;
	r->out[j].end = r->now;
	r->used -= jb->size;
	r->run[k] = r->run[--r->nrun];
	r->runpos[r->run[k]] = k;
	r->done++;
	if (r->c.prio == SB_REPLAY_MULTIFACTOR)
		r->ended[r->nended++] = j;
	if (r->hist) {
		sb_rt_run_t run = {
			.user = r->c.users[jb->user],
			.partition = NULL,
			.end = r->now,
			.elapsed = r->now - r->out[j].start,
			.time_limit = jb->limit,
			.nodes = (uint32_t) (jb->size > UINT32_MAX ?
					     UINT32_MAX : jb->size),
		};

		if (sb_rt_history_add(r->hist, &run) < 0)
			return -1;
	}
	return 0;
}

/* Running job @j is believed to run @est from its start: its span in the
 * planner, and its nodes' believed end, follow. */
static int _rebelieve(struct sb_replay *r, size_t j, int64_t est)
{
	sb__rjob_t *s = &r->st[j];

	if (sb_planner_rem_span(r->plan, s->span) < 0)
		return -1;
	if ((s->span = sb_planner_add_span(r->plan, r->out[j].start, est,
					   r->jobs[j].size)) < 0) {
		s->span = 0;
		return -1;
	}
	s->est = est;
	if (r->c.nodes)
		sb__replay_nodes_belief(r, j);
	return 0;
}

/* Running job @j outlived its belief: raise it (see replay.h). */
static int _belief(struct sb_replay *r, size_t j)
{
	sb__rjob_t *s = &r->st[j];
	const sb_replay_job_t *jb = &r->jobs[j];
	int64_t start = r->out[j].start, est;

	r->out[j].corrections++;
	if (r->c.correct == SB_REPLAY_CORRECT_LIMIT)
		est = jb->limit;
	else
		est = sb_rt_correct(r->out[j].believed, jb->limit,
				    r->out[j].corrections);
	if (est < 0)
		return -1;
	if (start + est <= r->now) {	/* past its limit */
		int64_t ran = r->now - start;

		est = ran + (ran > PAST_LIMIT_STEP ? ran : PAST_LIMIT_STEP);
	}
	if (_rebelieve(r, j, est) < 0)
		return -1;
	if (start + est < s->end &&
	    _push(r, start + est, j, SB__EV_BELIEF) < 0)
		return -1;
	return 0;
}

/*
 * Late job @j ends now, after this second's passes (sb__rjob_t.late):
 * until then it holds its units, which its belief, ending now, would
 * give back to them: it is believed to run a second more.
 */
static int _hold_late(struct sb_replay *r, size_t j)
{
	int64_t start = r->out[j].start;

	if (start + r->st[j].est > r->now)
		return 0;
	return _rebelieve(r, j, r->now + 1 - start);
}

/* What the scheduler believes of arriving job @j's run time. */
static int _believe(struct sb_replay *r, size_t j)
{
	const sb_replay_job_t *jb = &r->jobs[j];
	sb_rt_pred_t p;
	int rc = 0;

	switch (r->c.predict) {
	case SB_REPLAY_PREDICT_LIMIT:
		p.runtime = jb->limit;
		break;
	case SB_REPLAY_PREDICT_USER2:
		rc = sb_rt_predict_user(r->hist, r->c.users[jb->user],
					jb->limit, &p);
		break;
	case SB_REPLAY_PREDICT_SIMILAR2:
		rc = sb_rt_predict(r->hist, r->c.users[jb->user], NULL,
				   jb->limit, (uint32_t) (jb->size > UINT32_MAX
							  ? UINT32_MAX :
							  jb->size), &p);
		break;
	}
	if (rc < 0)
		return -1;
	r->st[j].est = p.runtime;
	r->out[j].believed = p.runtime;
	return 0;
}

/* Arriving job @j joins the queue; *@ahead: it went before a waiting
 * job that was there. */
static int _arrive(struct sb_replay *r, size_t j, bool *ahead)
{
	size_t pos;

	if (_believe(r, j) < 0)
		return -1;
	r->st[j].state = SB__R_WAITING;
	if (r->c.prio == SB_REPLAY_MULTIFACTOR &&
	    sb__replay_prio_set(r, j) < 0)
		return -1;
	pos = sb__replay_queue_pos(r, j);
	if (pos < r->nq) {
		memmove(&r->queue[pos + 1], &r->queue[pos],
			(r->nq - pos) * sizeof(*r->queue));
		*ahead = true;
	}
	r->queue[pos] = j;
	r->nq++;
	r->arrived[r->narrived++] = j;
	return 0;
}

/* ---- the series ---------------------------------------------------------- */

static int _series_point(struct sb_replay *r)
{
	sb_replay_series_t *s = &r->series;

	if (s->n && s->used[s->n - 1] == r->used &&
	    s->queued[s->n - 1] == r->nq)
		return 0;
	if (s->n && s->t[s->n - 1] == r->now) {
		s->used[s->n - 1] = r->used;
		s->queued[s->n - 1] = r->nq;
		return 0;
	}
	if (s->n == r->capseries) {
		size_t cap = r->capseries ? r->capseries * 2 : 1024;
		int64_t *t = realloc(s->t, cap * sizeof(*t));
		int64_t *u;
		size_t *q;

		if (!t)
			return -1;
		s->t = t;
		if (!(u = realloc(s->used, cap * sizeof(*u))))
			return -1;
		s->used = u;
		if (!(q = realloc(s->queued, cap * sizeof(*q))))
			return -1;
		s->queued = q;
		r->capseries = cap;
	}
	s->t[s->n] = r->now;
	s->used[s->n] = r->used;
	s->queued[s->n] = r->nq;
	s->n++;
	return 0;
}

void sb_replay_series_fini(sb_replay_series_t *s)
{
	if (!s)
		return;
	free(s->t);
	free(s->used);
	free(s->queued);
	memset(s, 0, sizeof(*s));
}

/* ---- a step -------------------------------------------------------------- */

/* The time of the next event, or -1 when nothing is left. */
static int64_t _next_time(const struct sb_replay *r)
{
	int64_t t = -1;

	if (r->next < r->n)
		t = r->jobs[r->order[r->next]].submit;
	if (r->nheap && (t < 0 || r->heap[0].t < t))
		t = r->heap[0].t;
	if (r->resv_at >= 0 && (t < 0 || r->resv_at < t))
		t = r->resv_at;
	if (t < 0 && !r->nq)
		return -1;		/* nothing runs, waits or comes */
	/* SLURM: jobs that arrived may wait for the background's pass;
	 * while nothing runs or waits, its passes and backfill's change
	 * nothing but when they ran (sb__replay_slurm) */
	if (r->bg_at >= 0 && r->nq && (t < 0 || r->bg_at < t))
		t = r->bg_at;
	if (t < 0)
		return -1;
	if (r->bf_at >= 0 && (r->nrun || r->nq) && r->bf_at < t)
		t = r->bf_at;
	if (r->c.sched == SB_REPLAY_SLURM && r->c.sched_interval && r->nq) {
		int64_t p = sb__replay_periodic_after(r, r->now);

		if (p < t)
			t = p;
	}
	if (r->tick_at >= 0 && (r->nrun || r->nq) && r->tick_at < t)
		t = r->tick_at;
	return t;
}

static int _step(struct sb_replay *r)
{
	bool hole = false, rebuild = false, full = false, moved = false;
	bool ended = false;
	bool cons = r->c.sched == SB_REPLAY_CONSERVATIVE;
	int64_t t = _next_time(r);

	if (t < 0)
		return 0;
	r->now = t;
	r->narrived = 0;
	r->nlate = 0;
	r->prio_changed = false;
	/* ends, then beliefs run out */
	while (r->nheap && r->heap[0].t == t) {
		sb__rev_t ev = _pop(r);

		if (ev.kind == SB__EV_END && r->st[ev.job].late) {
			/* after this second's passes */
			if (_hold_late(r, ev.job) < 0)
				return -1;
			r->late_end[r->nlate++] = ev.job;
			continue;
		}
		if (ev.kind == SB__EV_END) {
			if (_end(r, ev.job, &hole) < 0)
				return -1;
			full = ended = true;
			continue;
		}
		if (r->st[ev.job].state != SB__R_RUNNING)
			continue;
		/* the reservations may be in the raised belief's way */
		if (cons && !rebuild) {
			if (sb__replay_unreserve(r) < 0)
				return -1;
			rebuild = true;
		}
		if (_belief(r, ev.job) < 0)
			return -1;
		full = true;
	}
	/* the priority pass */
	if (r->c.prio == SB_REPLAY_MULTIFACTOR) {
		if (r->tick_at < 0 || r->tick_at <= t) {
			if (sb__replay_prio_pass(r, &moved) < 0)
				return -1;
			/* on multiples of calc_period, or from
			 * prio_last */
			r->tick_at = sb__replay_grid_after(t,
				r->c.prio_last_set ? r->c.prio_last : 0,
				r->c.calc_period);
		}
		if (moved) {
			full = true;
			if (cons && !rebuild) {
				if (sb__replay_unreserve(r) < 0)
					return -1;
				rebuild = true;
			}
		}
	}
	/* arrivals */
	while (r->next < r->n && r->jobs[r->order[r->next]].submit == t) {
		bool ahead = false;

		if (_arrive(r, r->order[r->next++], &ahead) < 0)
			return -1;
		if (ahead) {
			full = true;
			if (cons && !rebuild) {
				if (sb__replay_unreserve(r) < 0)
					return -1;
				rebuild = true;
			}
		}
	}
	if (r->c.sched == SB_REPLAY_SLURM) {
		size_t i;

		if (sb__replay_slurm(r, ended, r->prio_changed) < 0)
			return -1;
		for (i = 0; i < r->nlate; i++)
			if (_end(r, r->late_end[i], &hole) < 0)
				return -1;
		if (r->nlate && sb__replay_slurm_late(r) < 0)
			return -1;
	} else if (sb__replay_schedule(r, full, rebuild, hole) < 0) {
		return -1;
	}
	if (r->c.series && _series_point(r) < 0)
		return -1;
	return 1;
}

int sb_replay_step(sb_replay_t *r)
{
	int rc;

	if (!r || r->failed) {
		errno = EINVAL;
		return -1;
	}
	if ((rc = _step(r)) < 0)
		r->failed = true;
	return rc;
}

int sb_replay_finish(sb_replay_t *r)
{
	int rc;

	while ((rc = sb_replay_step(r)) > 0)
		;
	return rc;
}

int64_t sb_replay_now(const sb_replay_t *r)
{
	return r ? r->now : 0;
}

size_t sb_replay_done(const sb_replay_t *r)
{
	return r ? r->done : 0;
}

size_t sb_replay_queued(const sb_replay_t *r)
{
	return r ? r->nq : 0;
}

size_t sb_replay_running(const sb_replay_t *r)
{
	return r ? r->nrun : 0;
}

const sb_replay_out_t *sb_replay_out(const sb_replay_t *r, size_t i)
{
	if (!r || i >= r->n) {
		errno = EINVAL;
		return NULL;
	}
	return &r->out[i];
}

const sb_replay_series_t *sb_replay_series(const sb_replay_t *r)
{
	if (!r) {
		errno = EINVAL;
		return NULL;
	}
	if (!r->c.series) {
		errno = ENOENT;
		return NULL;
	}
	return &r->series;
}

int sb_replay_run(const sb_replay_conf_t *c, const sb_replay_job_t *jobs,
		  size_t n, sb_replay_out_t *out, sb_replay_series_t *series)
{
	sb_replay_t *r;

	if (!out) {
		errno = EINVAL;
		return -1;
	}
	if (!(r = sb_replay_create(c, jobs, n)))
		return -1;
	if (sb_replay_finish(r) < 0) {
		int e = errno;

		sb_replay_destroy(r);
		errno = e;
		return -1;
	}
	memcpy(out, r->out, n * sizeof(*out));
	if (series) {
		*series = r->series;
		memset(&r->series, 0, sizeof(r->series));
	}
	sb_replay_destroy(r);
	return 0;
}

/* ---- the checker --------------------------------------------------------- */

static int _cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;

	return x < y ? -1 : x > y;
}

int sb_replay_check(const sb_replay_t *r)
{
	int64_t used = 0, *ids = NULL, start, dur, count;
	size_t i, nspans = 0, nwait = 0, nrun = 0, nsp;
	int rc = -1;

	if (!r) {
		errno = EINVAL;
		return -1;
	}
	if (sb_planner_check(r->plan) < 0) {
		if (errno == ENOMEM)
			return -1;
		goto broken;
	}
	nsp = sb_planner_spans(r->plan);
	if (!(ids = malloc((nsp + 1) * sizeof(*ids))))
		return -1;
	for (i = 0; i < r->n; i++) {
		const sb__rjob_t *s = &r->st[i];
		const sb_replay_job_t *jb = &r->jobs[i];
		const sb_replay_out_t *o = &r->out[i];
		bool k;

		switch (s->state) {
		case SB__R_FUTURE:
			if (s->span || o->start >= 0 || s->arrival < r->next)
				goto broken;
			break;
		case SB__R_WAITING:
			nwait++;
			if (o->start >= 0 || jb->submit > r->now ||
			    s->arrival >= r->next)
				goto broken;
			if (s->span) {
				if (r->c.sched != SB_REPLAY_CONSERVATIVE ||
				    s->res <= r->now ||
				    sb_planner_span(r->plan, s->span, &start,
						    &dur, &count) < 0 ||
				    start != s->res || dur != s->est ||
				    count != jb->size)
					goto broken;
				if (nspans == nsp)
					goto broken;
				ids[nspans++] = s->span;
			} else if (r->c.sched == SB_REPLAY_CONSERVATIVE) {
				goto broken;
			}
			break;
		case SB__R_RUNNING:
			nrun++;
			used += jb->size;
			if (o->start < jb->submit || o->start > r->now ||
			    s->end <= r->now ||
			    s->end != o->start + _runs(r, i, &k) ||
			    k != o->killed || !s->span ||
			    o->start + s->est <= r->now ||
			    sb_planner_span(r->plan, s->span, &start, &dur,
					    &count) < 0 ||
			    start != o->start || dur != s->est ||
			    count != jb->size || r->runpos[i] >= r->nrun ||
			    r->run[r->runpos[i]] != i)
				goto broken;
			if (nspans == nsp)
				goto broken;
			ids[nspans++] = s->span;
			break;
		case SB__R_DONE:
			if (s->span || o->start < jb->submit ||
			    o->end != o->start + _runs(r, i, &k) ||
			    k != o->killed || o->end > r->now)
				goto broken;
			break;
		default:
			goto broken;
		}
	}
	if (used != r->used || used > r->c.units || nrun != r->nrun ||
	    nwait != r->nq || nspans != nsp)
		goto broken;
	/* every span is a job's, once */
	qsort(ids, nspans, sizeof(*ids), _cmp_i64);
	for (i = 1; i < nspans; i++)
		if (ids[i] == ids[i - 1])
			goto broken;
	/* the queue: waiting jobs in queue order */
	for (i = 0; i < r->nq; i++) {
		size_t j = r->queue[i];

		if (j >= r->n || r->st[j].state != SB__R_WAITING ||
		    (i && !sb__replay_before(r, r->queue[i - 1], j)))
			goto broken;
	}
	/* the planner's free units now are the machine's: every running
	 * job's span holds now, no reservation starts before after now */
	if (r->now >= sb_planner_base(r->plan) &&
	    sb_planner_avail_at(r->plan, r->now) != r->c.units - r->used)
		goto broken;
	if (r->c.nodes && sb__replay_nodes_check(r) < 0) {
		if (errno == ENOMEM)
			goto out;
		goto broken;
	}
	rc = 0;
	goto out;
broken:
	errno = EFAULT;
out:
	free(ids);
	return rc;
}
