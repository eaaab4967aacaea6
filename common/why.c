/*
 * why.c - the bucket model's account of one job (why.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdlib.h>

#include "sb_time.h"
#include "why.h"

static int _sized(const sb_bitmap_t *b, size_t n)
{
	return b && sb_bitmap_size(b) == n;
}

int sb_why_windows(sb_node_t *nodes, size_t n, const sb_why_resv_t *resv,
		   size_t nresv, int64_t now)
{
	size_t k;
	int64_t i;

	if ((!nodes && n) || (!resv && nresv)) {
		errno = EINVAL;
		return -1;
	}
	for (k = 0; k < nresv; k++)
		if (!_sized(resv[k].nodes, n)) {
			errno = EINVAL;
			return -1;
		}
	for (k = 0; k < nresv; k++) {
		if (resv[k].start <= now || resv[k].end <= resv[k].start)
			continue;
		for (i = sb_bitmap_first_set(resv[k].nodes); i >= 0;
		     i = sb_bitmap_next_set(resv[k].nodes, (size_t) i + 1))
			if (sb_node_add_busy(&nodes[i], resv[k].start,
					     resv[k].end) < 0)
				return -1;
	}
	return 0;
}

int sb_why_busy_until(const sb_why_job_t *jobs, size_t njobs,
		      int64_t *until, size_t n)
{
	size_t k;
	int64_t i;

	if ((!jobs && njobs) || (!until && n)) {
		errno = EINVAL;
		return -1;
	}
	for (k = 0; k < njobs; k++)
		if (!_sized(jobs[k].nodes, n)) {
			errno = EINVAL;
			return -1;
		}
	for (k = 0; k < n; k++)
		until[k] = 0;
	for (k = 0; k < njobs; k++) {
		int64_t end = jobs[k].end > 1 ? jobs[k].end : 1;

		for (i = sb_bitmap_first_set(jobs[k].nodes); i >= 0;
		     i = sb_bitmap_next_set(jobs[k].nodes, (size_t) i + 1))
			if (end > until[i])
				until[i] = end;
	}
	return 0;
}

sb_will_run_t *sb_why_plan(const sb_bucket_set_t *set, int64_t now,
			   const int64_t *until, const sb_why_resv_t *resv,
			   size_t nresv, size_t skip)
{
	const sb_node_t *nodes;
	sb_will_run_t *w;
	size_t n, k;
	int64_t i;

	if (!set || now < 0 || (!resv && nresv)) {
		errno = EINVAL;
		return NULL;
	}
	n = sb_bucket_set_nodes(set);
	for (k = 0; k < nresv; k++)
		if (!_sized(resv[k].nodes, n)) {
			errno = EINVAL;
			return NULL;
		}
	if (!(w = sb_will_run_create(set, now, SB_TIME_INFINITE - now, until)))
		return NULL;
	/* The nodes' windows are future reservations: all come back below,
	 * but the job's own. */
	nodes = sb_bucket_set_node_array(set);
	for (k = 0; k < n; k++)
		if (nodes[k].nbusy && sb_will_run_clear_windows(w, k) < 0)
			goto fail;
	for (k = 0; k < nresv; k++) {
		if (k == skip || resv[k].end <= now ||
		    resv[k].end <= resv[k].start)
			continue;
		for (i = sb_bitmap_first_set(resv[k].nodes); i >= 0;
		     i = sb_bitmap_next_set(resv[k].nodes, (size_t) i + 1))
			if (sb_will_run_reserve(w, (size_t) i,
						resv[k].start > now ?
						resv[k].start : now,
						resv[k].end) < 0)
				goto fail;
	}
	return w;
fail:
	sb_will_run_destroy(w);
	return NULL;
}

sb_why_state_t sb_why_node_state(const sb_bucket_set_t *set, size_t idx,
				 const sb_bitmap_t *reserved)
{
	const sb_node_t *nd = &sb_bucket_set_node_array(set)[idx];

	if (nd->state == SB_NODE_DOWN || nd->state == SB_NODE_DRAINED)
		return SB_WHY_DOWN;
	if (reserved && sb_bitmap_test(reserved, idx) == 1)
		return SB_WHY_RESERVED;
	switch (sb_bucket_node_pool(set, idx)) {
	case SB_POOL_FREE:
		return SB_WHY_FREE;
	case SB_POOL_LATER:
		return SB_WHY_LATER;
	default:
		return SB_WHY_BUSY;
	}
}

const char *sb_why_state_name(sb_why_state_t s)
{
	static const char *const names[SB_WHY_NSTATES] = {
		"free", "busy-later", "busy", "down", "reserved"
	};

	return (unsigned) s < SB_WHY_NSTATES ? names[s] : "?";
}

/* Does node @n serve at least one chunk of @r? */
static bool _matches(const sb_node_t *n, const sb_request_t *r)
{
	size_t c, m;

	for (c = 0; c < r->nchunks; c++) {
		if (!r->nmatch) {
			if (sb_chunk_match(n, r, &r->chunks[c], NULL))
				return true;
			continue;
		}
		for (m = 0; m < r->nmatch; m++)
			if (sb_chunk_match(n, r, &r->chunks[c], r->match[m]))
				return true;
	}
	return false;
}

void sb_why_census_free(sb_why_bucket_t *b, size_t n)
{
	size_t i;

	if (!b)
		return;
	for (i = 0; i < n; i++)
		sb_bitmap_free(b[i].nodes);
	free(b);
}

int sb_why_census(const sb_bucket_set_t *set, const sb_request_t *r,
		  const sb_bitmap_t *allowed, const sb_bitmap_t *reserved,
		  sb_why_bucket_t **out, size_t *nout)
{
	sb_why_bucket_t *v = NULL;
	size_t nb, n, b, k = 0;
	int64_t i;

	if (!set || !r || !out || !nout) {
		errno = EINVAL;
		return -1;
	}
	n = sb_bucket_set_nodes(set);
	if ((allowed && sb_bitmap_size(allowed) != n) ||
	    (reserved && sb_bitmap_size(reserved) != n) ||
	    (r->excluded && sb_bitmap_size(r->excluded) != n)) {
		errno = EINVAL;
		return -1;
	}
	nb = sb_bucket_set_size(set);
	if (nb && !(v = calloc(nb, sizeof(*v))))
		return -1;
	for (b = 0; b < nb; b++) {
		sb_bitmap_t *mine;

		if (!_matches(sb_bucket_rep(set, b), r))
			continue;
		if (!(mine = sb_bitmap_dup(sb_bucket_all(set, b))))
			goto fail;
		if (allowed)
			sb_bitmap_and(mine, allowed);
		if (r->excluded)
			sb_bitmap_andnot(mine, r->excluded);
		if (sb_bitmap_empty(mine)) {
			sb_bitmap_free(mine);
			continue;
		}
		v[k].bucket = b;
		v[k].nodes = mine;
		for (i = sb_bitmap_first_set(mine); i >= 0;
		     i = sb_bitmap_next_set(mine, (size_t) i + 1))
			v[k].count[sb_why_node_state(set, (size_t) i,
						     reserved)]++;
		k++;
	}
	if (!k) {
		free(v);
		v = NULL;
	}
	*out = v;
	*nout = k;
	return 0;
fail:
	sb_why_census_free(v, k);
	errno = ENOMEM;
	return -1;
}

static const sb_why_job_t *_sort_jobs;

static int _by_end(const void *a, const void *b)
{
	size_t x = *(const size_t *) a, y = *(const size_t *) b;

	if (_sort_jobs[x].end != _sort_jobs[y].end)
		return _sort_jobs[x].end < _sort_jobs[y].end ? -1 : 1;
	return x < y ? -1 : x > y;
}

int sb_why_waits_for(const sb_why_job_t *jobs, size_t njobs,
		     const sb_bitmap_t *nodes, size_t *idx, size_t *nidx)
{
	size_t k, m = 0;

	if ((!jobs && njobs) || !nodes || (!idx && njobs) || !nidx) {
		errno = EINVAL;
		return -1;
	}
	for (k = 0; k < njobs; k++)
		if (!_sized(jobs[k].nodes, sb_bitmap_size(nodes))) {
			errno = EINVAL;
			return -1;
		}
	for (k = 0; k < njobs; k++)
		if (sb_bitmap_intersects(jobs[k].nodes, nodes) == 1)
			idx[m++] = k;
	_sort_jobs = jobs;
	qsort(idx, m, sizeof(*idx), _by_end);
	*nidx = m;
	return 0;
}
