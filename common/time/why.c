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
