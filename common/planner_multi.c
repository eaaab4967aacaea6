/*
 * planner_multi.c - k resource types, one request vector (see
 * planner_multi.h).
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

#include "planner_multi.h"

/* Same id scheme as planner.c: (generation << 32) + slot + 1. */
#define SLOT_FREE_END UINT32_MAX
#define SLOT_IN_USE (UINT32_MAX - 1)

struct mslot {
	uint32_t gen;
	uint32_t next;
};

struct sb_planner_multi {
	size_t k;
	sb_planner_t **p;
	struct mslot *slots;
	int64_t *sub;	/* k sub-span ids per slot, 0 for none */
	uint32_t nslots, cap, free_head;
	size_t nspans;
};

sb_planner_multi_t *sb_planner_multi_create(int64_t base, int64_t horizon,
					    const int64_t *totals, size_t k)
{
	sb_planner_multi_t *m;

	if (!totals || !k || horizon < 1) {
		errno = EINVAL;
		return NULL;
	}
	for (size_t i = 0; i < k; i++)
		if (totals[i] < 0) {
			errno = EINVAL;
			return NULL;
		}
	if (!(m = calloc(1, sizeof(*m))) ||
	    !(m->p = calloc(k, sizeof(*m->p)))) {
		free(m);
		errno = ENOMEM;
		return NULL;
	}
	m->k = k;
	m->free_head = SLOT_FREE_END;
	for (size_t i = 0; i < k; i++)
		if (!(m->p[i] = sb_planner_create(base, horizon, totals[i]))) {
			sb_planner_multi_destroy(m);
			errno = ENOMEM;
			return NULL;
		}
	return m;
}

void sb_planner_multi_destroy(sb_planner_multi_t *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->k; i++)
		sb_planner_destroy(m->p[i]);
	free(m->p);
	free(m->slots);
	free(m->sub);
	free(m);
}

size_t sb_planner_multi_size(const sb_planner_multi_t *m)
{
	return m ? m->k : 0;
}

const sb_planner_t *sb_planner_multi_planner(const sb_planner_multi_t *m,
					     size_t i)
{
	if (!m || i >= m->k) {
		errno = EINVAL;
		return NULL;
	}
	return m->p[i];
}

static int64_t *_subs(const sb_planner_multi_t *m, uint32_t slot)
{
	return m->sub + (size_t) slot * m->k;
}

static int _slot_get(sb_planner_multi_t *m, uint32_t *out)
{
	struct mslot *ns;
	int64_t *nsub;
	uint32_t cap;

	if (m->free_head != SLOT_FREE_END) {
		*out = m->free_head;
		m->free_head = m->slots[*out].next;
		return 0;
	}
	if (m->nslots == m->cap) {
		cap = m->cap ? m->cap * 2 : 16;
		if (cap <= m->cap || cap >= SLOT_IN_USE ||
		    (size_t) cap > SIZE_MAX / sizeof(int64_t) / m->k)
			goto nomem;
		if (!(ns = realloc(m->slots, (size_t) cap * sizeof(*ns))))
			goto nomem;
		m->slots = ns;
		if (!(nsub = realloc(m->sub,
				     (size_t) cap * m->k * sizeof(*nsub))))
			goto nomem;
		m->sub = nsub;
		m->cap = cap;
	}
	m->slots[m->nslots].gen = 0;
	*out = m->nslots++;
	return 0;
nomem:
	errno = ENOMEM;
	return -1;
}

static void _slot_put(sb_planner_multi_t *m, uint32_t i)
{
	m->slots[i].gen = (m->slots[i].gen + 1) & 0x7fffffffu;
	m->slots[i].next = m->free_head;
	m->free_head = i;
}

static bool _slot_of(const sb_planner_multi_t *m, int64_t id, uint32_t *out)
{
	uint64_t slot, gen;

	if (id <= 0)
		return false;
	slot = ((uint64_t) id & 0xffffffffu) - 1;
	gen = (uint64_t) id >> 32;
	if (slot >= m->nslots || m->slots[slot].next != SLOT_IN_USE ||
	    m->slots[slot].gen != gen)
		return false;
	*out = (uint32_t) slot;
	return true;
}

/* Validate a request vector: EINVAL for negatives, ERANGE above totals. */
static int _req_ok(const sb_planner_multi_t *m, const int64_t *req)
{
	bool range = false;

	for (size_t i = 0; i < m->k; i++) {
		if (req[i] < 0) {
			errno = EINVAL;
			return -1;
		}
		if (req[i] > sb_planner_total(m->p[i]))
			range = true;
	}
	if (range) {
		errno = ERANGE;
		return -1;
	}
	return 0;
}

int64_t sb_planner_multi_add_span(sb_planner_multi_t *m, int64_t start,
				  int64_t d, const int64_t *counts)
{
	int64_t *sub;
	uint32_t slot;
	size_t i;
	int fit;

	if (!m || !counts) {
		errno = EINVAL;
		return -1;
	}
	if ((fit = sb_planner_multi_fits(m, start, d, counts)) < 0)
		return -1;
	if (!fit) {
		errno = ENOSPC;
		return -1;
	}
	if (_slot_get(m, &slot) < 0)
		return -1;
	sub = _subs(m, slot);
	for (i = 0; i < m->k; i++) {
		sub[i] = 0;
		if (counts[i] &&
		    (sub[i] = sb_planner_add_span(m->p[i], start, d,
						  counts[i])) < 0)
			goto undo;
	}
	m->slots[slot].next = SLOT_IN_USE;
	m->nspans++;
	return ((int64_t) m->slots[slot].gen << 32) + slot + 1;
undo:
	/* Only ENOMEM gets here: the fit was checked for every type. */
	while (i--)
		if (sub[i])
			(void) sb_planner_rem_span(m->p[i], sub[i]);
	_slot_put(m, slot);
	errno = ENOMEM;
	return -1;
}

int sb_planner_multi_rem_span(sb_planner_multi_t *m, int64_t id)
{
	uint32_t slot;
	int64_t *sub;

	if (!m) {
		errno = EINVAL;
		return -1;
	}
	if (!_slot_of(m, id, &slot)) {
		errno = ENOENT;
		return -1;
	}
	sub = _subs(m, slot);
	for (size_t i = 0; i < m->k; i++)
		if (sub[i])
			(void) sb_planner_rem_span(m->p[i], sub[i]);
	_slot_put(m, slot);
	m->nspans--;
	return 0;
}

int64_t sb_planner_multi_avail_at(const sb_planner_multi_t *m, int64_t t,
				  size_t i)
{
	if (!m || i >= m->k) {
		errno = EINVAL;
		return -1;
	}
	return sb_planner_avail_at(m->p[i], t);
}

int sb_planner_multi_avail_during(const sb_planner_multi_t *m, int64_t t,
				  int64_t d, int64_t *out)
{
	if (!m || !out) {
		errno = EINVAL;
		return -1;
	}
	for (size_t i = 0; i < m->k; i++)
		if ((out[i] = sb_planner_avail_during(m->p[i], t, d)) < 0)
			return -1;
	return 0;
}

int sb_planner_multi_fits(const sb_planner_multi_t *m, int64_t t, int64_t d,
			  const int64_t *req)
{
	int fit = 1, f;

	if (!m || !req) {
		errno = EINVAL;
		return -1;
	}
	/* Arguments first, so the errno does not depend on the state. */
	if (sb_planner_avail_during(m->p[0], t, d) < 0 || _req_ok(m, req) < 0)
		return -1;
	for (size_t i = 0; i < m->k && fit; i++) {
		if ((f = sb_planner_fits(m->p[i], t, d, req[i])) < 0)
			return -1;
		fit = f;
	}
	return fit;
}

static int _scan(const sb_planner_multi_t *m, int64_t s, int64_t d,
		 const int64_t *req, int64_t *at)
{
	int64_t end = sb_planner_end(m->p[0]), e, q, r, next;
	bool blocked;

	for (;;) {
		e = sb_time_add(s, d);
		if (s >= end || e > end)
			break;
		blocked = false;
		next = s;
		for (size_t i = 0; i < m->k; i++) {
			if (!req[i] ||
			    sb_planner_shortage(m->p[i], s, req[i], &q) < 0 ||
			    q >= e)
				continue;
			if (sb_planner_recovery(m->p[i], q, req[i], &r) < 0)
				goto none;
			blocked = true;
			if (r > next)
				next = r;
		}
		if (!blocked) {
			*at = s;
			return 0;
		}
		s = next;
	}
none:
	errno = ENOENT;
	return -1;
}

static int _query_ok(const sb_planner_multi_t *m, int64_t d,
		     const int64_t *req, const int64_t *at)
{
	if (!m || !req || !at || d < 1) {
		errno = EINVAL;
		return -1;
	}
	return _req_ok(m, req);
}

int sb_planner_multi_earliest(const sb_planner_multi_t *m, int64_t t,
			      int64_t d, const int64_t *req, int64_t *at)
{
	int64_t base;

	if (_query_ok(m, d, req, at) < 0)
		return -1;
	base = sb_planner_base(m->p[0]);
	return _scan(m, t < base ? base : t, d, req, at);
}

/* The first change point of any type after @t; false if none. */
static bool _next_point(const sb_planner_multi_t *m, int64_t t, int64_t *at)
{
	bool found = false;
	int64_t s;

	for (size_t i = 0; i < m->k; i++)
		if (sb_planner_next_point(m->p[i], t, &s) == 0 &&
		    (!found || s < *at)) {
			*at = s;
			found = true;
		}
	return found;
}

int sb_planner_multi_next_fit(const sb_planner_multi_t *m, int64_t prev,
			      int64_t d, const int64_t *req, int64_t *at)
{
	int64_t s;

	if (_query_ok(m, d, req, at) < 0)
		return -1;
	if (!_next_point(m, prev, &s)) {
		errno = ENOENT;
		return -1;
	}
	return _scan(m, s, d, req, at);
}

char *sb_planner_multi_fmt(const sb_planner_multi_t *m)
{
	char *s = NULL, *ns, piece[64];
	size_t len = 0, cap = 0, n;
	int64_t t, nt, end;

	if (!m) {
		errno = EINVAL;
		return NULL;
	}
	end = sb_planner_end(m->p[0]);
	for (t = sb_planner_base(m->p[0]); ; t = nt) {
		if (!_next_point(m, t, &nt))
			nt = end;
		if (nt == INT64_MAX)
			snprintf(piece, sizeof(piece), "%s[%" PRId64 ",inf):",
				 len ? " " : "", t);
		else
			snprintf(piece, sizeof(piece), "%s[%" PRId64 ",%"
				 PRId64 "):", len ? " " : "", t, nt);
		for (size_t i = 0; ; i++) {
			n = strlen(piece);
			if (len + n + 1 > cap) {
				cap = cap ? cap * 2 : 128;
				if (len + n + 1 > cap)
					cap = len + n + 1;
				if (!(ns = realloc(s, cap))) {
					free(s);
					errno = ENOMEM;
					return NULL;
				}
				s = ns;
			}
			memcpy(s + len, piece, n + 1);
			len += n;
			if (i == m->k)
				break;
			snprintf(piece, sizeof(piece), "%s%" PRId64,
				 i ? "," : "", sb_planner_avail_at(m->p[i], t));
		}
		if (nt >= end)
			break;
	}
	return s;
}

int sb_planner_multi_check(const sb_planner_multi_t *m)
{
	size_t live = 0, nfree = 0, *per;
	uint32_t i;
	int rc = -1;

	if (!m) {
		errno = EINVAL;
		return -1;
	}
	for (size_t k = 0; k < m->k; k++)
		if (sb_planner_check(m->p[k]) < 0)
			return -1;
	if (!(per = calloc(m->k, sizeof(*per)))) {
		errno = ENOMEM;
		return -1;
	}
	for (i = 0; i < m->nslots; i++) {
		const int64_t *sub = _subs(m, i);

		if (m->slots[i].next != SLOT_IN_USE)
			continue;
		live++;
		for (size_t k = 0; k < m->k; k++) {
			if (!sub[k])
				continue;
			if (sb_planner_span(m->p[k], sub[k], NULL, NULL,
					    NULL) < 0)
				goto out;
			per[k]++;
		}
	}
	for (i = m->free_head; i != SLOT_FREE_END; i = m->slots[i].next)
		if (i >= m->nslots || ++nfree > m->nslots)
			goto out;
	if (live != m->nspans || live + nfree != m->nslots)
		goto out;
	for (size_t k = 0; k < m->k; k++)
		if (per[k] != sb_planner_spans(m->p[k]))
			goto out;
	rc = 0;
out:
	free(per);
	if (rc < 0)
		errno = EFAULT;
	return rc;
}
