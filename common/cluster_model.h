/*
 * cluster_model.h - a cluster's running jobs and reservations turned into
 * the bucket model: busy-later windows, when each node's jobs end, and
 * WILL_RUN's plan. select/bucket builds its model with these, from
 * slurmctld's job and reservation lists; 'sbucket why' builds the same
 * model from what scontrol shows, so both answer alike.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 *   sb_model_windows     reservations that have not started yet become
 *                        busy windows of their nodes, which makes those
 *                        nodes busy-later;
 *   sb_model_busy_until  per node, when the last running job on it ends:
 *                        a node shared by several jobs is busy until the
 *                        last one ends (sb_model_busy_until_add() takes
 *                        one job at a time);
 *   sb_model_plan        WILL_RUN's plan: running jobs' ends, down nodes,
 *                        and every reservation not over, active ones too,
 *                        except the one the job runs in.
 *
 * Operations (N nodes, J jobs, R reservations, W windows of a node, r
 * busy segments of a node in the plan):
 *   sb_model_windows        O(R N / 64 + nodes covered x W)
 *   sb_model_busy_until     O(J N / 64 + nodes of the jobs)
 *   sb_model_busy_until_add O(N / 64 + nodes of the job)
 *   sb_model_plan           O(sb_will_run_create + R N / 64 + covered x
 *                           r log r)
 */
#ifndef SB_CLUSTER_MODEL_H
#define SB_CLUSTER_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "bitmap.h"
#include "bucket.h"
#include "node.h"
#include "will_run.h"

/* A reservation: its nodes are not usable over [start, end). */
typedef struct {
	const char *name;		/* for the caller; not read */
	const sb_bitmap_t *nodes;	/* of the cluster's node count */
	int64_t start, end;
} sb_model_resv_t;

/* A running (or suspended) job. */
typedef struct {
	const char *id;			/* for the caller; not read */
	const sb_bitmap_t *nodes;	/* of the cluster's node count */
	int64_t end;			/* SB_TIME_INFINITE: not known */
} sb_model_job_t;

/*
 * Give the nodes of every reservation that starts after @now (and has
 * end > start) a busy window [start, end) (sb_node_add_busy()). Bitmaps
 * must have @n bits. Returns 0, or -1 with errno EINVAL (NULL arrays
 * with counts > 0, a bitmap of another size) or ENOMEM; windows added
 * before a failure stay.
 */
int sb_model_windows(sb_node_t *nodes, size_t n, const sb_model_resv_t *resv,
		     size_t nresv, int64_t now);

/*
 * Fill @until[0..n) with the latest end of the jobs running on each node
 * (0 for a node without jobs); an end <= 0 counts as 1 (ended, about to
 * be freed). Returns 0, or -1 with errno EINVAL (NULL arrays with counts
 * > 0, a bitmap of another size).
 */
int sb_model_busy_until(const sb_model_job_t *jobs, size_t njobs,
			int64_t *until, size_t n);

/*
 * Raise @until[i] to @end (an end <= 0 counts as 1) for every node i of
 * @nodes (@n bits): one more running job. Returns 0, or -1 with errno
 * EINVAL (NULL, a bitmap of another size).
 */
int sb_model_busy_until_add(int64_t *until, size_t n,
			    const sb_bitmap_t *nodes, int64_t end);

/*
 * WILL_RUN's plan at @now over the nodes of @set: busy until @until
 * (sb_will_run_create() with an unbounded horizon), the nodes' own busy
 * windows dropped, and every reservation with end > now but resv[skip]
 * (skip >= nresv: none) kept over [max(start, now), end). Returns the
 * plan (sb_will_run_destroy()), or NULL with errno EINVAL (set NULL, now
 * < 0, a bitmap of another size) or ENOMEM.
 */
sb_will_run_t *sb_model_plan(const sb_bucket_set_t *set, int64_t now,
			     const int64_t *until, const sb_model_resv_t *resv,
			     size_t nresv, size_t skip);

#endif /* SB_CLUSTER_MODEL_H */
