/*
 * bucket_fill.h - how many nodes each bucket gives each chunk.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The counting half of the bucket path, shared by placement now
 * (place.h) and at a later start (will_run.h): they differ in what a
 * bucket can give (free nodes now; nodes free over a future window), not
 * in how chunks are filled from those capacities.
 *
 * Which buckets: those whose representative matches at least one chunk
 * (under the current [a|b] alternative) and, when a usable bitmap is
 * given, that hold a usable node. In what order: the policy's
 * (sb_policy_key() of the representative for a job ending at @end;
 * Weight first, preferences, then the policy), ties by lowest node.
 *
 * How much: chunks in order, each from the buckets in policy order,
 * greedily; when greedy fails with several chunks (they may compete for
 * a bucket: a|b then a), the exact assignment (bucket_assign.h) decides.
 * With one chunk greedy is exact.
 *
 *   sb_bucket_fill_init     O(B C)   scratch for a set and a request
 *   sb_bucket_fill_order    O(B (C + N/64) + B log B)
 *   sb_bucket_fill_amounts  O(B C) greedy, + sb_assign() when it fails
 *   sb_bucket_fill_fini     O(1)     NULL is fine
 */
#ifndef SB_BUCKET_FILL_H
#define SB_BUCKET_FILL_H

#include <stddef.h>
#include <stdint.h>

#include "bitmap.h"
#include "bucket.h"
#include "node.h"
#include "policy.h"

typedef struct {
	size_t nb, nc;			/* buckets of the set, chunks */
	uint64_t demand[SB_MAX_CHUNKS];	/* per chunk: nodes */
	uint64_t total;			/* their sum */
	uint64_t *mask;			/* per bucket: the chunks it serves */
	size_t *order;			/* the buckets that take part, */
	size_t nord;			/* in policy order */
	uint64_t *cap;			/* per bucket: the caller's scratch */
	uint64_t *amount;		/* bucket b gives chunk c
					 * amount[b * nc + c] */
	uint64_t *left;			/* scratch */
	sb_policy_key_t *keys;
} sb_bucket_fill_t;

/*
 * Scratch for request @r on the buckets of @set (its chunk demands are
 * copied). Returns 0, or -1 with errno ENOMEM (*f then needs no fini).
 */
int sb_bucket_fill_init(sb_bucket_fill_t *f, const sb_bucket_set_t *set,
			const sb_request_t *r);

/*
 * The buckets that take part and their order (see the top), for
 * alternative @match (NULL: none) of @r under @p, a job ending at @end;
 * @usable NULL or a bitmap of the set's nodes. Sets f->mask (0 for a
 * bucket that takes no part), f->order and f->nord.
 */
void sb_bucket_fill_order(sb_bucket_fill_t *f, const sb_bucket_set_t *set,
			  const sb_request_t *r, const sb_feat_expr_t *match,
			  const sb_policy_t *p, int64_t end,
			  const sb_bitmap_t *usable);

/*
 * Can the chunks be served from per-bucket capacities @cap (nb entries)?
 * 1 with f->amount filled (see the top), 0 if not, -1 with errno ENOMEM.
 */
int sb_bucket_fill_amounts(sb_bucket_fill_t *f, const uint64_t *cap);

/* Release the scratch of @f; NULL is fine. */
void sb_bucket_fill_fini(sb_bucket_fill_t *f);

#endif /* SB_BUCKET_FILL_H */
