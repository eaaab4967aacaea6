/*
 * replay_bfmap.c - Slurm's backfill pass on whole nodes, on backfill.c's
 * own map of node bitmaps over time (replay.h, "SLURM's backfill on
 * whole nodes"), under select/bucket or select/linear.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Why a map and not a plan of holds: the select plugin's will-run knows
 * nothing of backfill's reservations, so backfill.c hands it only the
 * nodes no reservation holds anywhere in the job's window, whatever the
 * hour; the nodes a reservation will use are unusable to a job that
 * overlaps it in time at all, even where a node is free before it. A
 * count of units, or a plan of holds that lets a job use a held node up
 * to the hold, starts jobs Slurm does not (the first disagreement of
 * SDSC-SP2's window under select/linear, in bench/RESULTS.md, was one).
 *
 * The map is a list of records [begin, end) covering the window, each
 * with the nodes still free over it, in time order, as backfill.c keeps
 * it: a reservation splits the records at its rounded start and end and
 * takes its nodes out of those between. Records of no length stay, as
 * there; they change no answer. select/bucket's WILL_RUN reads a plan of
 * the running jobs (and of this pass's starts); select/linear's
 * will-run reads the running jobs themselves.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"
#include "replay_priv.h"
#include "sb_time.h"

typedef struct {
	int64_t begin, end;
	sb_bitmap_t *avail;
} _rec_t;

typedef struct {
	_rec_t *rec;
	size_t n, cap;
} _map_t;

/* floor(a / b), b > 0 */
static int64_t _fdiv(int64_t a, int64_t b)
{
	return a / b - (a % b < 0);
}

/* @t rounded down to bf_resolution on slurmctld's clock (bf_clock). */
static int64_t _round(const struct sb_replay *r, int64_t t)
{
	int64_t res = r->c.bf_resolution;
	int64_t clk = r->c.bf_clock - res * _fdiv(r->c.bf_clock, res);

	return _fdiv(t + clk, res) * res - clk;
}

static void _map_fini(_map_t *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		sb_bitmap_free(m->rec[i].avail);
	free(m->rec);
}

/* Split record @k at @t (within it): [begin, t) stays at @k, [t, end)
 * with a copy of its nodes follows it. 0 or -1. */
static int _split(_map_t *m, size_t k, int64_t t)
{
	sb_bitmap_t *b;

	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 16;
		_rec_t *nr = realloc(m->rec, cap * sizeof(*nr));

		if (!nr) {
			errno = ENOMEM;
			return -1;
		}
		m->rec = nr;
		m->cap = cap;
	}
	if (!(b = sb_bitmap_dup(m->rec[k].avail)))
		return -1;
	memmove(&m->rec[k + 2], &m->rec[k + 1],
		(m->n - k - 1) * sizeof(*m->rec));
	m->rec[k + 1] = (_rec_t) { t, m->rec[k].end, b };
	m->rec[k].end = t;
	m->n++;
	return 0;
}

/* The map at the pass's start: one record, the usable nodes, from now
 * to the end of bf_window, both rounded. */
static int _map_init(struct sb_replay *r, _map_t *m)
{
	memset(m, 0, sizeof(*m));
	if (!(m->rec = malloc(16 * sizeof(*m->rec))) ||
	    !(m->rec[0].avail = sb_bitmap_dup(r->usable))) {
		free(m->rec);
		m->rec = NULL;
		errno = ENOMEM;
		return -1;
	}
	m->cap = 16;
	m->n = 1;
	m->rec[0].begin = _round(r, r->now);
	m->rec[0].end = _round(r, sb_time_add(r->now, r->c.bf_window));
	return 0;
}

/* backfill.c's _add_reservation: @nodes out of [start, end) (start no
 * earlier than the map, at least bf_resolution long; beyond the map's
 * end nothing is kept). 0 or -1. */
static int _map_add(const struct sb_replay *r, _map_t *m, int64_t start,
		    int64_t end, const sb_bitmap_t *nodes)
{
	size_t k;

	if (start < m->rec[0].begin)
		start = m->rec[0].begin;
	if (end < start + r->c.bf_resolution)
		end = start + r->c.bf_resolution;
	for (k = 0; k < m->n; k++) {
		if (m->rec[k].end > start) {
			if (_split(m, k, start) < 0)
				return -1;
			break;
		}
		if (m->rec[k].end == start)
			break;
	}
	if (k == m->n)
		return 0;
	for (k++; k < m->n; k++) {
		if (end < m->rec[k].end && _split(m, k, end) < 0)
			return -1;
		if (sb_bitmap_andnot(m->rec[k].avail, nodes) < 0)
			return -1;
		if (end == m->rec[k].end)
			break;
	}
	return 0;
}

/* backfill.c's _test_resv_overlap: do @nodes meet a reservation over
 * [start, end)? 1, 0, or -1. */
static int _map_overlap(const _map_t *m, const sb_bitmap_t *nodes,
			int64_t start, int64_t end)
{
	size_t k;

	for (k = 0; k < m->n; k++) {
		int in;

		if (m->rec[k].end <= start || m->rec[k].begin >= end)
			continue;
		if ((in = sb_bitmap_subset(nodes, m->rec[k].avail)) < 0)
			return -1;
		if (!in)
			return 1;
	}
	return 0;
}

/*
 * The nodes into @avail that no record from @from to @end (that second
 * included) holds out, and *@later the end of the first record from
 * @from on whose successor frees a node the records so far hold (0:
 * none): backfill.c's loop over its map before a test. 0 or -1.
 */
static int _map_avail(const struct sb_replay *r, const _map_t *m,
		      int64_t from, int64_t end, sb_bitmap_t *avail,
		      sb_bitmap_t *scratch, int64_t *later)
{
	size_t k;

	*later = 0;
	if (sb_bitmap_copy(avail, r->usable) < 0)
		return -1;
	for (k = 0; k < m->n; k++) {
		const _rec_t *c = &m->rec[k];

		if (c->end > from && k + 1 < m->n && !*later) {
			int sub;

			/* scratch: what the next record leaves of the
			 * usable nodes, against what this one leaves */
			if (sb_bitmap_copy(scratch, r->usable) < 0 ||
			    sb_bitmap_and(scratch, m->rec[k + 1].avail) < 0)
				return -1;
			if ((sub = sb_bitmap_subset(scratch, avail)) < 0)
				return -1;
			if (sub && (sub = sb_bitmap_subset(scratch,
							   c->avail)) < 0)
				return -1;
			if (!sub)
				*later = c->end;
		}
		if (c->end <= from)
			continue;
		if (c->begin > end)
			break;
		if (sb_bitmap_and(avail, c->avail) < 0)
			return -1;
	}
	return 0;
}

/*
 * One job's test (backfill.c, from TRY_LATER to its reservation): 1
 * started now, 0 not (reserved or not), -1.
 */
static int _test(struct sb_replay *r, _map_t *m, sb_will_run_t *plan,
		 size_t j, bool ahead, sb_bitmap_t *avail,
		 sb_bitmap_t *scratch)
{
	int64_t est = r->st[j].est, later = r->now, guard;
	sb_bitmap_t *nodes = NULL;
	int rc = -1;

	for (guard = 0; guard < 4 * (int64_t) m->n + 4; guard++) {
		int64_t from = later, end, start, rs, re;
		int w, ov;

		end = sb_time_add(from > r->now ? from : r->now, est);
		if (_map_avail(r, m, from, end, avail, scratch, &later) < 0)
			goto out;
		if (sb_bitmap_count(avail) < (size_t) r->jobs[j].size)
			w = 1;
		else if ((w = plan ?
			  sb__replay_nodes_when(r, plan, avail, j, &start,
						&nodes) :
			  sb__replay_linear_when(r, avail, j, &start,
						 &nodes)) < 0)
			goto out;
		if (w) {
			if (later > from)
				continue;
			rc = 0;
			goto out;
		}
		if (start < from)
			start = from;
		if (start <= r->now) {
			if (sb__replay_start(r, j, ahead, nodes) < 0) {
				nodes = NULL;
				goto out;
			}
			/* select/bucket's plan holds it until its belief */
			if (plan && sb__replay_nodes_hold(plan, r->jnodes[j],
							  r->now,
							  sb_time_add(r->now,
								      est)) < 0)
				return -1;
			return 1;
		}
		if (later > from && start > later) {
			sb_bitmap_free(nodes);
			nodes = NULL;
			continue;
		}
		rs = _round(r, start);
		re = _round(r, sb_time_add(start, est));
		if (start > sb_time_add(r->now, r->c.bf_window)) {
			rc = 0;
			goto out;
		}
		if ((ov = _map_overlap(m, nodes, rs, re)) < 0)
			goto out;
		if (ov) {
			sb_bitmap_free(nodes);
			nodes = NULL;
			if (start <= from) {
				rc = 0;	/* no later start to try */
				goto out;
			}
			later = start;
			continue;
		}
		rc = _map_add(r, m, rs, re, nodes) < 0 ? -1 : 0;
		goto out;
	}
	rc = 0;
out:
	sb_bitmap_free(nodes);
	return rc;
}

int sb__replay_backfill_map(struct sb_replay *r, size_t nc)
{
	sb_bitmap_t *avail = sb_bitmap_alloc(r->c.nnodes);
	sb_bitmap_t *scratch = sb_bitmap_alloc(r->c.nnodes);
	bool ahead = false;
	sb_will_run_t *plan = NULL;
	_map_t m;
	size_t i;
	int rc = -1, s;

	if (!avail || !scratch || _map_init(r, &m) < 0) {
		sb_bitmap_free(avail);
		sb_bitmap_free(scratch);
		errno = ENOMEM;
		return -1;
	}
	/* select/bucket's WILL_RUN reads a plan of the running jobs */
	if (r->c.select == SB_REPLAY_SELECT_BUCKET &&
	    !(plan = sb__replay_nodes_plan(r)))
		goto out;
	memcpy(r->scratch, r->queue, nc * sizeof(*r->scratch));
	for (i = 0; i < nc; i++) {
		if ((s = _test(r, &m, plan, r->scratch[i], ahead, avail,
			       scratch)) < 0)
			goto out;
		if (!s)
			ahead = true;
	}
	rc = 0;
out:
	sb_will_run_destroy(plan);
	_map_fini(&m);
	sb_bitmap_free(avail);
	sb_bitmap_free(scratch);
	sb__replay_compact(r);
	return rc;
}
