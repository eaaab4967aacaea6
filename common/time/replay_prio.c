/*
 * replay_prio.c - the replay's priorities: arrival order, or Slurm's
 * multifactor formula with fair share from common/fairshare and usage
 * decayed as the replay goes (replay.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Usage lives here, per association, while the replay runs, and is
 * written into the tree before each fair-share computation: a user's
 * association always, an account's when the tree was given one (Slurm
 * adds a job's usage to every ancestor; an account without a usage of
 * its own gets its children's sum from the tree's roll-up).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fairshare.h"
#include "replay.h"
#include "replay_priv.h"
#include "usage_decay.h"

int sb__replay_prio_init(struct sb_replay *r)
{
	sb_assoc_tree_t *t = r->c.tree;
	size_t i, n = (size_t) sb_assoc_tree_count(t);

	r->nassoc = n;
	if (!(r->parent = malloc(n * sizeof(*r->parent))) ||
	    !(r->given = malloc(n * sizeof(*r->given))) ||
	    !(r->usage = malloc(n * sizeof(*r->usage))) ||
	    !(r->fs = calloc(n, sizeof(*r->fs)))) {
		errno = ENOMEM;
		return -1;
	}
	for (i = 0; i < n; i++) {
		sb_assoc_info_t a;

		if (sb_assoc_tree_get(t, (int) i, &a) < 0)
			return -1;
		r->parent[i] = a.parent;
		r->given[i] = a.is_user || a.usage_given;
		r->usage[i] = r->given[i] ? a.usage_raw : 0;
	}
	/* every job's association is a user's */
	for (i = 0; i < r->n; i++) {
		sb_assoc_info_t a;

		if (sb_assoc_tree_get(t, r->jobs[i].assoc, &a) < 0 ||
		    !a.is_user) {
			errno = EINVAL;
			return -1;
		}
	}
	r->factor = sb_decay_factor(r->c.half_life);
	r->fs_stale = true;
	r->last_tick = -1;
	return 0;
}

void sb__replay_prio_fini(struct sb_replay *r)
{
	free(r->parent);
	free(r->given);
	free(r->usage);
	free(r->fs);
}

/* Usage @u of a job of association @a, on it and every ancestor that
 * keeps its own. */
static void _charge(struct sb_replay *r, int a, long double u)
{
	for (; a >= 0; a = r->parent[a])
		if (r->given[a])
			r->usage[a] += u;
}

/* Usage of job @j over [from, to), as Slurm's decay thread adds it. */
static void _job_usage(struct sb_replay *r, size_t j, int64_t from,
		       int64_t to)
{
	if (to <= from)
		return;
	_charge(r, r->jobs[j].assoc,
		sb_decay_new_usage(r->factor, to - from,
				   (double) r->jobs[j].size, -1.0));
}

/* The fair-share factors from the usage of the last pass. */
static int _fairshare(struct sb_replay *r)
{
	size_t i;

	if (!r->fs_stale)
		return 0;
	for (i = 0; i < r->nassoc; i++)
		if (r->given[i] &&
		    sb_assoc_tree_set_usage(r->c.tree, (int) i,
					    r->usage[i]) < 0)
			return -1;
	if (sb_fairshare_compute(r->c.tree, r->c.fs_algorithm, r->c.levels,
				 r->c.dampening) < 0)
		return -1;
	for (i = 0; i < r->nassoc; i++) {
		sb_assoc_result_t a;

		if (sb_assoc_tree_get_result(r->c.tree, (int) i, &a) < 0)
			return -1;
		r->fs[i] = a.is_user && isfinite(a.fs_factor) ?
			a.fs_factor : 0.0;
	}
	r->fs_stale = false;
	return 0;
}

int sb__replay_prio_set(struct sb_replay *r, size_t j)
{
	const sb_replay_job_t *jb = &r->jobs[j];
	double age, js, p;

	if (_fairshare(r) < 0)
		return -1;
	age = (double) (r->now - jb->submit) / (double) r->c.max_age;
	if (age > 1.0)
		age = 1.0;
	js = (double) jb->size / (double) r->c.units;
	if (r->c.favor_small)
		js = 1.0 - js;
	p = (double) r->c.weight_age * age +
		(double) r->c.weight_fs * r->fs[jb->assoc] +
		(double) r->c.weight_js * js;
	/* as Slurm stores it: a whole number, 0 only for held jobs */
	if (!(p >= 1.0))
		r->st[j].prio = 1;
	else if (p > (double) UINT32_MAX)
		r->st[j].prio = UINT32_MAX;
	else
		r->st[j].prio = (uint32_t) p;
	return 0;
}

/* qsort has no context: the replay of the one sort. */
static const struct sb_replay *_sort_r;

static int _by_queue(const void *pa, const void *pb)
{
	size_t a = *(const size_t *) pa, b = *(const size_t *) pb;

	if (a == b)
		return 0;
	return sb__replay_before(_sort_r, a, b) ? -1 : 1;
}

int sb__replay_prio_pass(struct sb_replay *r, bool *moved)
{
	size_t i;

	*moved = false;
	if (r->last_tick >= 0) {
		double d = sb_decay_over(r->factor, r->now - r->last_tick);

		for (i = 0; i < r->nassoc; i++)
			if (r->given[i])
				r->usage[i] *= d;
		for (i = 0; i < r->nrun; i++) {
			size_t j = r->run[i];
			int64_t s = r->out[j].start;

			_job_usage(r, j, s > r->last_tick ? s : r->last_tick,
				   r->now);
		}
		for (i = 0; i < r->nended; i++) {
			size_t j = r->ended[i];
			int64_t s = r->out[j].start;

			_job_usage(r, j, s > r->last_tick ? s : r->last_tick,
				   r->out[j].end);
		}
	}
	r->nended = 0;
	r->last_tick = r->now;
	r->fs_stale = true;
	r->prio_changed = false;
	if (!r->nq)
		return 0;
	for (i = 0; i < r->nq; i++) {
		uint32_t was = r->st[r->queue[i]].prio;

		if (sb__replay_prio_set(r, r->queue[i]) < 0)
			return -1;
		if (r->st[r->queue[i]].prio != was)
			r->prio_changed = true;
	}
	for (i = 1; i < r->nq; i++)
		if (!sb__replay_before(r, r->queue[i - 1], r->queue[i]))
			break;
	if (i == r->nq)
		return 0;
	_sort_r = r;
	qsort(r->queue, r->nq, sizeof(*r->queue), _by_queue);
	*moved = true;
	return 0;
}

size_t sb__replay_queue_pos(const struct sb_replay *r, size_t j)
{
	size_t lo = 0, hi = r->nq;

	/* arrivals come last among equals: mostly the end */
	if (!r->nq || sb__replay_before(r, r->queue[r->nq - 1], j))
		return r->nq;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sb__replay_before(r, r->queue[mid], j))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
