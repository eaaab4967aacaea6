/*
 * place_priv.h - the state of one placement, shared by its two paths:
 * the bucket path (place.c) and the per-node path (place_node.c).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Not a public header: only place.c and place_node.c include it. An
 * attempt returns a result (SB_PLACE_RUN, _WAIT, _NEVER) or -1 with
 * errno (ENOMEM; EFAULT when counts and bitmaps disagree, a bug).
 */
#ifndef SB_PLACE_PRIV_H
#define SB_PLACE_PRIV_H

#include <stdint.h>

#include "place.h"

typedef struct {
	sb_bucket_set_t *set;
	const sb_node_t *nodes;
	size_t n;
	const sb_request_t *r;
	const sb_policy_t *p;
	int64_t now, end;
	const sb_feat_expr_t *match;	/* current [a|b] alternative */
	int ideal;			/* every node idle, no windows */
	size_t nc;			/* chunks */
	uint64_t demand[SB_MAX_CHUNKS];
	uint64_t total;			/* nodes over all chunks */
	sb_bitmap_t **res;		/* per chunk */
	/* Per-node path scratch, n entries each. */
	uint64_t *mask;
	unsigned char *avail, *req, *used;
	int64_t *next;
	size_t nreq;
} sb__place_ctx_t;

/* Empty every chunk's node set before an attempt. */
static inline void sb__place_clear(sb__place_ctx_t *x)
{
	size_t c;

	for (c = 0; c < x->nc; c++)
		sb_bitmap_clear_all(x->res[c]);
}

/*
 * The per-node path for the current [a|b] alternative: every node
 * checked, candidates in policy order, required nodes first, CONTIGUOUS
 * and MAXBALANCE enumerated (place.h). Nodes into x->res.
 */
int sb__place_node_attempt(sb__place_ctx_t *x);

#endif /* SB_PLACE_PRIV_H */
