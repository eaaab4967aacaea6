/*
 * planner.c - one resource's units over time (see planner.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner.h"
#include "strbuf.h"
#include "timetree.h"

/*
 * Spans live in a slot array with a LIFO free list, so lookups by id are
 * O(1) without hashing. An id is (generation << 32) + slot + 1: a removed
 * span's id never comes back, even though its slot does.
 */
#define SLOT_FREE_END UINT32_MAX
#define SLOT_IN_USE (UINT32_MAX - 1)

struct span_slot {
	int64_t start, end, count;
	uint32_t gen;
	uint32_t next;	/* SLOT_IN_USE, or the next free slot */
};

struct sb_planner {
	int64_t base, end, total;
	sb_timetree_t *tt;
	struct span_slot *slots;
	uint32_t nslots, cap, free_head;
	size_t nspans;
};

sb_planner_t *sb_planner_create(int64_t base, int64_t horizon, int64_t total)
{
	sb_planner_t *p;

	if (horizon < 1 || total < 0) {
		errno = EINVAL;
		return NULL;
	}
	if (!(p = calloc(1, sizeof(*p)))) {
		errno = ENOMEM;
		return NULL;
	}
	p->base = base;
	p->end = sb_time_add(base, horizon);
	p->total = total;
	p->free_head = SLOT_FREE_END;
	/* The base point is never released: it holds the state from base. */
	if (!(p->tt = sb_timetree_create()) ||
	    sb_timetree_acquire(p->tt, base, total) < 0) {
		sb_timetree_destroy(p->tt);
		free(p);
		errno = ENOMEM;
		return NULL;
	}
	return p;
}

void sb_planner_destroy(sb_planner_t *p)
{
	if (!p)
		return;
	sb_timetree_destroy(p->tt);
	free(p->slots);
	free(p);
}

int64_t sb_planner_base(const sb_planner_t *p)
{
	return p ? p->base : 0;
}

int64_t sb_planner_end(const sb_planner_t *p)
{
	return p ? p->end : 0;
}

int64_t sb_planner_total(const sb_planner_t *p)
{
	return p ? p->total : 0;
}

size_t sb_planner_points(const sb_planner_t *p)
{
	return p ? sb_timetree_size(p->tt) : 0;
}

size_t sb_planner_spans(const sb_planner_t *p)
{
	return p ? p->nspans : 0;
}

/* Free units at t, for t >= base (there is always a point <= t). */
static int64_t _free_at(const sb_planner_t *p, int64_t t)
{
	int64_t v = 0;

	(void) sb_timetree_floor(p->tt, t, NULL, &v);
	return v;
}

/* Minimum free over [s, e), base <= s < e (the base point is <= s). */
static int64_t _min_during(const sb_planner_t *p, int64_t s, int64_t e)
{
	int64_t v = 0;

	(void) sb_timetree_min_in_force(p->tt, s, e, &v);
	return v;
}

/* The slot of a live span id, or NULL. */
static struct span_slot *_slot(const sb_planner_t *p, int64_t id)
{
	uint64_t slot, gen;
	struct span_slot *sp;

	if (id <= 0)
		return NULL;
	slot = ((uint64_t) id & 0xffffffffu) - 1;
	gen = (uint64_t) id >> 32;
	if (slot >= p->nslots)
		return NULL;
	sp = &p->slots[slot];
	if (sp->next != SLOT_IN_USE || sp->gen != gen)
		return NULL;
	return sp;
}

/* The slot of span @id of @p, or NULL with errno EINVAL (p NULL) or
 * ENOENT (no such live span): the lookup every call on one span does. */
static struct span_slot *_span(const sb_planner_t *p, int64_t id)
{
	struct span_slot *sp;

	if (!p) {
		errno = EINVAL;
		return NULL;
	}
	if (!(sp = _slot(p, id)))
		errno = ENOENT;
	return sp;
}

/* A free slot index, growing the array if needed; UINT32_MAX on ENOMEM. */
static uint32_t _slot_get(sb_planner_t *p)
{
	struct span_slot *ns;
	uint32_t i, cap;

	if (p->free_head != SLOT_FREE_END) {
		i = p->free_head;
		p->free_head = p->slots[i].next;
		return i;
	}
	if (p->nslots == p->cap) {
		cap = p->cap ? p->cap * 2 : 64;
		if (cap <= p->cap || cap >= SLOT_IN_USE ||
		    !(ns = realloc(p->slots, (size_t) cap * sizeof(*ns)))) {
			errno = ENOMEM;
			return UINT32_MAX;
		}
		p->slots = ns;
		p->cap = cap;
	}
	p->slots[p->nslots].gen = 0;
	return p->nslots++;
}

static void _slot_put(sb_planner_t *p, uint32_t i)
{
	/* A new generation so the old id stays dead; 2^31 are plenty. */
	p->slots[i].gen = (p->slots[i].gen + 1) & 0x7fffffffu;
	p->slots[i].next = p->free_head;
	p->free_head = i;
}

int64_t sb_planner_add_span(sb_planner_t *p, int64_t start, int64_t duration,
			    int64_t count)
{
	struct span_slot *sp;
	int64_t end;
	uint32_t i;

	if (!p || duration < 1 || count < 0 || start < p->base) {
		errno = EINVAL;
		return -1;
	}
	end = sb_time_add(start, duration);
	if (end > p->end || start >= p->end) {
		errno = EINVAL;
		return -1;
	}
	if (count > p->total) {
		errno = ERANGE;
		return -1;
	}
	if (_min_during(p, start, end) < count) {
		errno = ENOSPC;
		return -1;
	}
	if ((i = _slot_get(p)) == UINT32_MAX)
		return -1;
	if (sb_timetree_acquire(p->tt, start, p->total) < 0) {
		_slot_put(p, i);
		errno = ENOMEM;
		return -1;
	}
	if (sb_timetree_acquire(p->tt, end, p->total) < 0) {
		(void) sb_timetree_release(p->tt, start);
		_slot_put(p, i);
		errno = ENOMEM;
		return -1;
	}
	(void) sb_timetree_add(p->tt, start, end, -count);
	sp = &p->slots[i];
	sp->start = start;
	sp->end = end;
	sp->count = count;
	sp->next = SLOT_IN_USE;
	p->nspans++;
	return ((int64_t) sp->gen << 32) + i + 1;
}

int sb_planner_rem_span(sb_planner_t *p, int64_t id)
{
	struct span_slot *sp;

	if (!(sp = _span(p, id)))
		return -1;
	(void) sb_timetree_add(p->tt, sp->start, sp->end, sp->count);
	(void) sb_timetree_release(p->tt, sp->start);
	(void) sb_timetree_release(p->tt, sp->end);
	_slot_put(p, (uint32_t) (sp - p->slots));
	p->nspans--;
	return 0;
}

int sb_planner_span(const sb_planner_t *p, int64_t id, int64_t *start,
		    int64_t *duration, int64_t *count)
{
	const struct span_slot *sp;

	if (!(sp = _span(p, id)))
		return -1;
	if (start)
		*start = sp->start;
	if (duration)
		*duration = sp->end - sp->start;
	if (count)
		*count = sp->count;
	return 0;
}

int64_t sb_planner_avail_at(const sb_planner_t *p, int64_t t)
{
	if (!p || t < p->base || t >= p->end) {
		errno = EINVAL;
		return -1;
	}
	return _free_at(p, t);
}

/* Validate a window [t, t + d) inside the horizon; its end into *e. */
static bool _window_ok(const sb_planner_t *p, int64_t t, int64_t d,
		       int64_t *e)
{
	if (!p || d < 1 || t < p->base || t >= p->end)
		return false;
	*e = sb_time_add(t, d);
	return *e <= p->end;
}

int64_t sb_planner_avail_during(const sb_planner_t *p, int64_t t, int64_t d)
{
	int64_t e;

	if (!_window_ok(p, t, d, &e)) {
		errno = EINVAL;
		return -1;
	}
	return _min_during(p, t, e);
}

int sb_planner_fits(const sb_planner_t *p, int64_t t, int64_t d, int64_t n)
{
	int64_t e;

	if (!_window_ok(p, t, d, &e) || n < 0) {
		errno = EINVAL;
		return -1;
	}
	if (n > p->total) {
		errno = ERANGE;
		return -1;
	}
	return _min_during(p, t, e) >= n;
}

static int _query_ok(const sb_planner_t *p, int64_t d, int64_t n,
		     const int64_t *at)
{
	if (!p || !at || d < 1 || n < 0) {
		errno = EINVAL;
		return -1;
	}
	if (n > p->total) {
		errno = ERANGE;
		return -1;
	}
	return 0;
}

int sb_planner_earliest(const sb_planner_t *p, int64_t t, int64_t d,
			int64_t n, int64_t *at)
{
	if (_query_ok(p, d, n, at) < 0)
		return -1;
	return sb_timetree_fit(p->tt, t < p->base ? p->base : t, d, n,
			       p->end, at);
}

struct fmt_walk {
	sb_strbuf_t buf;
	int64_t end;
	bool have_prev;
	int64_t prev_at, prev_val;
};

static void _fmt_interval(struct fmt_walk *w, int64_t b)
{
	sb_strbuf_addf(&w->buf, "%s[%" PRId64 ",", w->buf.len ? " " : "",
		       w->prev_at);
	if (b == INT64_MAX)
		sb_strbuf_add(&w->buf, "inf");
	else
		sb_strbuf_addf(&w->buf, "%" PRId64, b);
	sb_strbuf_addf(&w->buf, "):%" PRId64, w->prev_val);
}

static int _fmt_point(int64_t at, int64_t val, uint32_t refs, void *arg)
{
	struct fmt_walk *w = arg;

	(void) refs;
	if (at >= w->end)
		return 1;
	if (w->have_prev)
		_fmt_interval(w, at);
	w->have_prev = true;
	w->prev_at = at;
	w->prev_val = val;
	return 0;
}

char *sb_planner_fmt(const sb_planner_t *p)
{
	struct fmt_walk w = { .buf = SB_STRBUF_INIT, .have_prev = false };

	if (!p) {
		errno = EINVAL;
		return NULL;
	}
	w.end = p->end;
	(void) sb_timetree_walk(p->tt, _fmt_point, &w);
	if (w.have_prev)
		_fmt_interval(&w, p->end);
	return sb_strbuf_finish(&w.buf);
}

/* One span boundary for the checker's sweep. */
struct edge {
	int64_t at, delta;
};

static int _edge_cmp(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	return (x->at > y->at) - (x->at < y->at);
}

struct check_walk {
	const sb_planner_t *p;
	const struct edge *e;
	size_t ne, i;
	int64_t used;
	bool bad, first;
};

static int _check_point(int64_t at, int64_t val, uint32_t refs, void *arg)
{
	struct check_walk *c = arg;
	uint32_t want = 0;

	if (c->first) {
		c->first = false;
		if (at != c->p->base)
			c->bad = true;
		want = 1;
	}
	/* Every point must be a boundary; every boundary a point. */
	if (c->i < c->ne && c->e[c->i].at < at)
		c->bad = true;
	for (; c->i < c->ne && c->e[c->i].at == at; c->i++) {
		c->used += c->e[c->i].delta;
		want++;
	}
	if (refs != want || val != c->p->total - c->used || val < 0 ||
	    val > c->p->total)
		c->bad = true;
	return c->bad;
}

int sb_planner_check(const sb_planner_t *p)
{
	struct check_walk c = { .p = p, .first = true };
	struct edge *e;
	size_t ne = 0, nfree = 0;
	uint32_t i;
	int rc = -1;

	if (!p) {
		errno = EINVAL;
		return -1;
	}
	if (sb_timetree_check(p->tt) < 0)
		return -1;
	if (!(e = malloc((2 * p->nspans + 1) * sizeof(*e)))) {
		errno = ENOMEM;
		return -1;
	}
	for (i = 0; i < p->nslots; i++) {
		const struct span_slot *sp = &p->slots[i];

		if (sp->next != SLOT_IN_USE)
			continue;
		if (ne + 2 > 2 * p->nspans || sp->start < p->base ||
		    sp->end <= sp->start || sp->end > p->end ||
		    sp->count < 0)
			goto out;
		e[ne++] = (struct edge) { sp->start, sp->count };
		e[ne++] = (struct edge) { sp->end, -sp->count };
	}
	if (ne != 2 * p->nspans)
		goto out;
	for (i = p->free_head; i != SLOT_FREE_END; i = p->slots[i].next)
		if (i >= p->nslots || ++nfree > p->nslots)
			goto out;
	if (nfree + p->nspans != p->nslots)
		goto out;
	qsort(e, ne, sizeof(*e), _edge_cmp);
	c.e = e;
	c.ne = ne;
	(void) sb_timetree_walk(p->tt, _check_point, &c);
	if (c.bad || c.first || c.i != ne)
		goto out;
	rc = 0;
out:
	free(e);
	if (rc < 0)
		errno = EFAULT;
	return rc;
}
