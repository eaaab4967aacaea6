/*
 * why.h - the bucket model's account of one job: which nodes of which
 * buckets it could have and in what state they are, and WILL_RUN's plan
 * built as select/bucket builds it.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * 'sbucket why' rebuilds select/bucket's model from what slurmctld shows
 * (scontrol) with the plugin's own steps (cluster_model.h) and asks it
 * the plugin's questions; then, for a job:
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
 *                      down, reserved, busy, later, free that applies).
 * What a job waits for is the queue plan's to say
 * (tools/explain/sbucket_explain.h).
 *
 * Operations (N nodes, B buckets, C chunks, J jobs, R reservations,
 * W windows of a node):
 *   sb_why_census        O(B C (match) + N)
 *   sb_why_census_free   O(B)
 *   sb_why_node_state    O(W)
 */
#ifndef SB_WHY_H
#define SB_WHY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bitmap.h"
#include "bucket.h"
#include "node.h"
#include "cluster_model.h"
#include "will_run.h"

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

#endif /* SB_WHY_H */
