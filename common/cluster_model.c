/*
 * cluster_model.c - running jobs and reservations into the bucket model
 * and WILL_RUN's plan (cluster_model.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdbool.h>

#include "cluster_model.h"
#include "sb_time.h"

static bool _sized(const sb_bitmap_t *b, size_t n)
{
	return b && sb_bitmap_size(b) == n;
}

int sb_model_windows(sb_node_t *nodes, size_t n, const sb_model_resv_t *resv,
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

int sb_model_busy_until_add(int64_t *until, size_t n,
			    const sb_bitmap_t *nodes, int64_t end)
{
	int64_t i;

	if (!until || !_sized(nodes, n)) {
		errno = EINVAL;
		return -1;
	}
	if (end < 1)
		end = 1;
	for (i = sb_bitmap_first_set(nodes); i >= 0;
	     i = sb_bitmap_next_set(nodes, (size_t) i + 1))
		if (end > until[i])
			until[i] = end;
	return 0;
}

int sb_model_busy_until(const sb_model_job_t *jobs, size_t njobs,
			int64_t *until, size_t n)
{
	size_t k;

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
	for (k = 0; k < njobs; k++)
		(void) sb_model_busy_until_add(until, n, jobs[k].nodes,
					       jobs[k].end);
	return 0;
}

sb_will_run_t *sb_model_plan(const sb_bucket_set_t *set, int64_t now,
			     const int64_t *until, const sb_model_resv_t *resv,
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

