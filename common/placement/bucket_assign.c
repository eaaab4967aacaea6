/*
 * bucket_assign.c - exact chunk assignment over groups of equal nodes.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Edmonds-Karp on source -> groups -> chunks -> sink. Graphs here are
 * tiny (tens of vertices), so BFS over an edge list is plenty.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bucket_assign.h"

typedef struct {
	size_t to, rev;
	uint64_t cap;			/* residual */
} _edge_t;

typedef struct {
	_edge_t *e;
	size_t ne;
	size_t *head;			/* first edge of each vertex */
	size_t *next;			/* next edge of the same vertex */
	size_t nv;
} _graph_t;

#define NONE ((size_t) -1)

static size_t _add(_graph_t *g, size_t u, size_t v, uint64_t cap)
{
	size_t a = g->ne++, b = g->ne++;

	g->e[a] = (_edge_t) { .to = v, .rev = b, .cap = cap };
	g->e[b] = (_edge_t) { .to = u, .rev = a, .cap = 0 };
	g->next[a] = g->head[u];
	g->head[u] = a;
	g->next[b] = g->head[v];
	g->head[v] = b;
	return a;
}

/* Push augmenting paths until none is left; returns the flow added. */
static uint64_t _maxflow(_graph_t *g, size_t s, size_t t, size_t *queue,
			 size_t *via)
{
	uint64_t total = 0, f;
	size_t qh, qt, u, i, v;

	for (;;) {
		for (v = 0; v < g->nv; v++)
			via[v] = NONE;
		qh = qt = 0;
		queue[qt++] = s;
		via[s] = NONE - 1;
		while (qh < qt && via[t] == NONE) {
			u = queue[qh++];
			for (i = g->head[u]; i != NONE; i = g->next[i])
				if (g->e[i].cap && via[g->e[i].to] == NONE) {
					via[g->e[i].to] = i;
					queue[qt++] = g->e[i].to;
				}
		}
		if (via[t] == NONE)
			return total;
		f = UINT64_MAX;
		for (v = t; v != s; v = g->e[g->e[via[v]].rev].to)
			if (g->e[via[v]].cap < f)
				f = g->e[via[v]].cap;
		for (v = t; v != s; v = g->e[g->e[via[v]].rev].to) {
			g->e[via[v]].cap -= f;
			g->e[g->e[via[v]].rev].cap += f;
		}
		total += f;
	}
}

int sb_assign(size_t ngroups, const uint64_t *cap, const bool *must,
	      const uint64_t *mask, size_t nchunks, const uint64_t *demand,
	      uint64_t *x)
{
	_graph_t g = { 0 };
	size_t s, t, gi, c, maxe, *queue = NULL, *via = NULL, *src = NULL;
	size_t *mid = NULL, nmid = ngroups * nchunks;
	uint64_t want_must = 0, want = 0, got;
	int rc = -1;

	if (nchunks > 64 || (ngroups && (!cap || !mask)) ||
	    (nchunks && !demand) || !x) {
		errno = EINVAL;
		return -1;
	}
	g.nv = ngroups + nchunks + 2;
	s = ngroups + nchunks;
	t = s + 1;
	maxe = 2 * (ngroups + nchunks + ngroups * nchunks);
	if (!(g.e = malloc((maxe ? maxe : 1) * sizeof(*g.e))) ||
	    !(g.next = malloc((maxe ? maxe : 1) * sizeof(size_t))) ||
	    !(g.head = malloc(g.nv * sizeof(size_t))) ||
	    !(queue = malloc(g.nv * sizeof(size_t))) ||
	    !(via = malloc(g.nv * sizeof(size_t))) ||
	    !(src = malloc((ngroups ? ngroups : 1) * sizeof(size_t))) ||
	    !(mid = malloc((nmid ? nmid : 1) * sizeof(size_t)))) {
		errno = ENOMEM;
		goto out;
	}
	for (gi = 0; gi < g.nv; gi++)
		g.head[gi] = NONE;
	/* Phase one opens only the source edges of "must" groups. */
	for (gi = 0; gi < ngroups; gi++) {
		bool m = must && must[gi];

		src[gi] = _add(&g, s, gi, m ? cap[gi] : 0);
		if (m)
			want_must += cap[gi];
		for (c = 0; c < nchunks; c++)
			mid[gi * nchunks + c] = (mask[gi] >> c & 1) ?
				_add(&g, gi, ngroups + c, UINT64_MAX) : NONE;
	}
	for (c = 0; c < nchunks; c++) {
		_add(&g, ngroups + c, t, demand[c]);
		want += demand[c];
	}
	got = _maxflow(&g, s, t, queue, via);
	rc = 0;
	if (got != want_must)
		goto out;
	for (gi = 0; gi < ngroups; gi++)
		if (!(must && must[gi]))
			g.e[src[gi]].cap = cap[gi];
	got += _maxflow(&g, s, t, queue, via);
	if (got != want)
		goto out;
	for (gi = 0; gi < ngroups; gi++)
		for (c = 0; c < nchunks; c++) {
			size_t e = mid[gi * nchunks + c];

			x[gi * nchunks + c] = e == NONE ? 0 :
				g.e[g.e[e].rev].cap;
		}
	rc = 1;
out:
	free(g.e);
	free(g.next);
	free(g.head);
	free(queue);
	free(via);
	free(src);
	free(mid);
	return rc;
}
