/*
 * bucket_fill.c - how many nodes each bucket gives each chunk (see
 * bucket_fill.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bucket_assign.h"
#include "bucket_fill.h"

int sb_bucket_fill_init(sb_bucket_fill_t *f, const sb_bucket_set_t *set,
			const sb_request_t *r)
{
	size_t nb = sb_bucket_set_size(set), c;

	memset(f, 0, sizeof(*f));
	f->nb = nb;
	f->nc = r->nchunks;
	for (c = 0; c < f->nc; c++) {
		f->demand[c] = r->chunks[c].count;
		f->total += r->chunks[c].count;
	}
	/* One block for the per-bucket counters: this path is hot. */
	if (!(f->mask = calloc((nb + 1) * (3 + f->nc), sizeof(*f->mask))) ||
	    !(f->order = malloc((nb + 1) * sizeof(*f->order))) ||
	    !(f->keys = malloc((nb + 1) * sizeof(*f->keys)))) {
		sb_bucket_fill_fini(f);
		errno = ENOMEM;
		return -1;
	}
	f->cap = f->mask + nb + 1;
	f->left = f->cap + nb + 1;
	f->amount = f->left + nb + 1;
	return 0;
}

void sb_bucket_fill_fini(sb_bucket_fill_t *f)
{
	if (!f)
		return;
	free(f->mask);
	free(f->order);
	free(f->keys);
	memset(f, 0, sizeof(*f));
}

void sb_bucket_fill_order(sb_bucket_fill_t *f, const sb_bucket_set_t *set,
			  const sb_request_t *r, const sb_feat_expr_t *match,
			  const sb_policy_t *p, int64_t end,
			  const sb_bitmap_t *usable)
{
	size_t b, c, j;

	f->nord = 0;
	for (b = 0; b < f->nb; b++) {
		const sb_node_t *rep = sb_bucket_rep(set, b);

		f->mask[b] = 0;
		for (c = 0; c < f->nc; c++)
			if (sb_chunk_match(rep, r, &r->chunks[c], match))
				f->mask[b] |= UINT64_C(1) << c;
		/* A bucket none of whose nodes are usable plays no part. */
		if (f->mask[b] && (!usable || sb_bitmap_count_and(
				sb_bucket_all(set, b), usable) > 0))
			sb_policy_key(p, rep, sb_request_pref(r, rep), end,
				      SB_TIME_INFINITE, &f->keys[f->nord++]);
		else
			f->mask[b] = 0;
	}
	/* Ties go by the lowest node index (the key's last field). */
	sb_policy_sort(f->keys, f->nord);
	for (j = 0; j < f->nord; j++)
		f->order[j] = sb_bucket_of(set, f->keys[j].idx);
}

int sb_bucket_fill_amounts(sb_bucket_fill_t *f, const uint64_t *cap)
{
	uint64_t need, t;
	size_t c, j, b;

	memcpy(f->left, cap, f->nb * sizeof(*f->left));
	memset(f->amount, 0, f->nb * f->nc * sizeof(*f->amount));
	for (c = 0; c < f->nc; c++) {
		need = f->demand[c];
		for (j = 0; j < f->nord && need; j++) {
			b = f->order[j];
			if (!(f->mask[b] >> c & 1) || !f->left[b])
				continue;
			t = need < f->left[b] ? need : f->left[b];
			f->amount[b * f->nc + c] = t;
			f->left[b] -= t;
			need -= t;
		}
		if (need)
			break;
	}
	if (c == f->nc)
		return 1;
	/* One chunk: greedy is exact. Several: they may compete. */
	if (f->nc == 1)
		return 0;
	return sb_assign(f->nb, cap, NULL, f->mask, f->nc, f->demand,
			 f->amount);
}
