/*
 * why.h - the bucket model's account of one job: which nodes of which
 * buckets it could have and in what state they are, which running jobs
 * it waits for, and WILL_RUN's plan built as select/bucket builds it.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * 'sbucket why' rebuilds select/bucket's model from what slurmctld shows
 * (scontrol) and asks it the plugin's questions. The steps that turn
 * running jobs and reservations into the model are the plugin's
 * (plugins/select/bucket/bucket_state.c), on plain arrays:
 *
 *   sb_why_windows     reservations that have not started yet become
 *                      busy windows of their nodes, which makes those
 *                      nodes busy-later (_sync_windows());
 *   sb_why_busy_until  per node, when the last running job on it ends: a
 *                      node shared by several jobs is busy until the
 *                      last one ends (_busy_until());
 *   sb_why_plan        WILL_RUN's plan: running jobs' ends, down nodes,
 *                      and every reservation not over, active ones too,
 *                      except the one the job runs in (_plan_build()).
 *
 * and then, for a job:
 *
 *   sb_why_census      per bucket whose nodes could serve the job, its
 *                      matching allowed nodes in five states:
 *                        free       usable now, no reservation ahead
 *                        later      usable now, a reservation starts
 *                                   later (busy-later)
 *                        busy       running jobs
 *                        down       down, drained, not responding
 *                        reserved   in a reservation the job may not
 *                                   use (the caller's bitmap)
 *                      (a node is counted once, in the first state of
 *                      down, reserved, busy, later, free that applies);
 *   sb_why_waits_for   the running jobs on a set of nodes (the nodes
 *                      WILL_RUN chose), by end time.
 *
 * Operations (N nodes, B buckets, C chunks, J jobs, R reservations,
 * W windows of a node):
 *   sb_why_windows       O(R N / 64 + nodes covered x W)
 *   sb_why_busy_until    O(J N / 64 + nodes of the jobs)
 *   sb_why_plan          O(sb_will_run_create + R N / 64 + covered x r log r)
 *   sb_why_census        O(B C (match) + N)
 *   sb_why_census_free   O(B)
 *   sb_why_node_state    O(W)
 *   sb_why_waits_for     O(J N / 64 + J log J)
 */
#ifndef SB_WHY_H
#define SB_WHY_H

#include <stdbool.h>
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
} sb_why_resv_t;

/* A running (or suspended) job. */
typedef struct {
	const char *id;			/* for the caller; not read */
	const sb_bitmap_t *nodes;	/* of the cluster's node count */
	int64_t end;			/* SB_TIME_INFINITE: not known */
} sb_why_job_t;

/* The states a node can be in for a job (see the top). */
typedef enum {
	SB_WHY_FREE,
	SB_WHY_LATER,
	SB_WHY_BUSY,
	SB_WHY_DOWN,
	SB_WHY_RESERVED,
	SB_WHY_NSTATES
} sb_why_state_t;

/* One bucket of the census. */
typedef struct {
	size_t bucket;			/* index in the bucket set */
	sb_bitmap_t *nodes;		/* its matching allowed nodes */
	size_t count[SB_WHY_NSTATES];	/* of those, per state */
} sb_why_bucket_t;

/*
 * Give the nodes of every reservation that starts after @now (and has
 * end > start) a busy window [start, end) (sb_node_add_busy()). Bitmaps
 * must have @n bits. Returns 0, or -1 with errno EINVAL (NULL arrays
 * with counts > 0, a bitmap of another size) or ENOMEM; windows added
 * before a failure stay.
 */
int sb_why_windows(sb_node_t *nodes, size_t n, const sb_why_resv_t *resv,
		   size_t nresv, int64_t now);

/*
 * Fill @until[0..n) with the latest end of the jobs running on each node
 * (0 for a node without jobs); an end <= 0 counts as 1 (ended, about to
 * be freed). Returns 0, or -1 with errno EINVAL (NULL arrays with counts
 * > 0, a bitmap of another size).
 */
int sb_why_busy_until(const sb_why_job_t *jobs, size_t njobs,
		      int64_t *until, size_t n);

/*
 * WILL_RUN's plan at @now over the nodes of @set: busy until @until
 * (sb_will_run_create() with an unbounded horizon), the nodes' own busy
 * windows dropped, and every reservation with end > now but resv[skip]
 * (skip >= nresv: none) kept over [max(start, now), end). Returns the
 * plan (sb_will_run_destroy()), or NULL with errno EINVAL (set NULL, now
 * < 0, a bitmap of another size) or ENOMEM.
 */
sb_will_run_t *sb_why_plan(const sb_bucket_set_t *set, int64_t now,
			   const int64_t *until, const sb_why_resv_t *resv,
			   size_t nresv, size_t skip);

/*
 * The state of node @idx for a job that may not use the nodes in
 * @reserved (NULL: none), at the set's time. @idx < the set's nodes.
 */
sb_why_state_t sb_why_node_state(const sb_bucket_set_t *set, size_t idx,
				 const sb_bitmap_t *reserved);

/* "free", "busy-later", "busy", "down", "reserved". */
const char *sb_why_state_name(sb_why_state_t s);

/*
 * The census of request @r: each bucket whose representative matches at
 * least one chunk of @r (sb_chunk_match(), with any alternative of a
 * matching OR), with its nodes that @allowed holds (NULL: all) and
 * r->excluded does not, in bucket order; buckets left with no node are
 * left out. *out is a new array of *nout entries (NULL when 0) for
 * sb_why_census_free(). Returns 0, or -1 with errno EINVAL (NULL
 * arguments, bitmaps of another size) or ENOMEM.
 */
int sb_why_census(const sb_bucket_set_t *set, const sb_request_t *r,
		  const sb_bitmap_t *allowed, const sb_bitmap_t *reserved,
		  sb_why_bucket_t **out, size_t *nout);

/* Free a census; NULL is fine. */
void sb_why_census_free(sb_why_bucket_t *b, size_t n);

/*
 * The jobs among @jobs running on at least one node of @nodes, as
 * indices into @jobs sorted by end (then index), into @idx (room for
 * njobs); their number in *nidx. Returns 0, or -1 with errno EINVAL.
 */
int sb_why_waits_for(const sb_why_job_t *jobs, size_t njobs,
		     const sb_bitmap_t *nodes, size_t *idx, size_t *nidx);

#endif /* SB_WHY_H */
