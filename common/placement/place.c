/*
 * place.c - place one request: the bucket path here, the per-node path
 * in place_node.c, and the driver that chooses and tries [a|b].
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bucket_assign.h"
#include "bucket_fill.h"
#include "place.h"
#include "place_priv.h"

const char *sb_place_result_name(sb_place_result_t res)
{
	switch (res) {
	case SB_PLACE_RUN:
		return "run";
	case SB_PLACE_WAIT:
		return "wait";
	default:
		return "never";
	}
}

const char *sb_place_ineligible(const sb_request_t *r, const sb_policy_t *p)
{
	if (!r->exclusive)
		return "not_exclusive";
	if (r->required && !sb_bitmap_empty(r->required))
		return "required_nodes";
	if (r->contiguous)
		return "contiguous";
	if (!sb_policy_static(p))
		return "policy_order";
	return NULL;
}

/* The bucket path: counts per bucket, then nodes from the pools. */
static int _bucket_attempt(sb__place_ctx_t *x)
{
	sb_bucket_set_t *set = x->set;
	size_t nb = sb_bucket_set_size(set), b, c, j, nord;
	const sb_bitmap_t *excl = x->r->excluded;
	uint64_t *mask, *cap, *amount;
	const size_t *order;
	sb_bucket_fill_t f;
	int rc = -1, ok;
	int64_t i;

	if (sb_bucket_fill_init(&f, set, x->r))
		return -1;
	/* Buckets in policy order; ties go by lowest node index. */
	sb_bucket_fill_order(&f, set, x->r, x->match, x->p, x->end, NULL);
	mask = f.mask;
	cap = f.cap;
	amount = f.amount;
	order = f.order;
	nord = f.nord;

	/* Capacity with every node idle. */
	for (j = 0; j < nord; j++) {
		b = order[j];
		cap[b] = sb_bucket_total(set, b);
		if (excl)
			cap[b] -= (uint64_t) sb_bitmap_count_and(
				sb_bucket_all(set, b), excl);
	}
	/* O(C B) on counts: the OpenPBS "can never run" test. */
	for (c = 0; c < x->nc; c++) {
		uint64_t sum = 0;

		for (b = 0; b < nb; b++)
			if (mask[b] >> c & 1)
				sum += cap[b];
		if (sum < x->demand[c]) {
			rc = SB_PLACE_NEVER;
			goto out;
		}
	}
	/* Per-chunk sums can all pass while chunks compete for a bucket. */
	if (x->nc > 1) {
		ok = sb_assign(nb, cap, NULL, mask, x->nc, x->demand, amount);
		if (ok <= 0) {
			rc = ok < 0 ? -1 : SB_PLACE_NEVER;
			goto out;
		}
	}
	/* What each bucket can give now (ideal: everything, as above). */
	for (b = 0; b < nb && !x->ideal; b++) {
		const sb_bitmap_t *later = sb_bucket_pool(set, b,
							  SB_POOL_LATER);

		if (!mask[b])
			continue;
		cap[b] = sb_bucket_count(set, b, SB_POOL_FREE);
		if (excl)
			cap[b] -= (uint64_t) sb_bitmap_count_and(
				sb_bucket_pool(set, b, SB_POOL_FREE), excl);
		if (!sb_bucket_count(set, b, SB_POOL_LATER))
			continue;
		for (i = sb_bitmap_first_set(later); i >= 0;
		     i = sb_bitmap_next_set(later, (size_t) i + 1))
			if (sb_bucket_next_start(set, (size_t) i) >= x->end &&
			    !(excl && sb_bitmap_test(excl, (size_t) i)))
				cap[b]++;
	}
	if ((ok = sb_bucket_fill_amounts(&f, cap)) <= 0) {
		rc = ok < 0 ? -1 : SB_PLACE_WAIT;
		goto out;
	}

	/* Materialise: busy-later nodes that fit first, then free ones. */
	for (j = 0; j < nord; j++) {
		uint64_t any = 0;

		b = order[j];
		for (c = 0; c < x->nc; c++)
			any |= amount[b * x->nc + c];
		if (!any)
			continue;
		if (sb_bucket_working_reset(set, b))
			goto out;
		if (x->ideal) {
			/* Every node of the bucket is free. */
			sb_bitmap_copy(sb_bucket_working(set, b,
					 SB_POOL_FREE), sb_bucket_all(set, b));
			sb_bitmap_clear_all(sb_bucket_working(set, b,
					    SB_POOL_LATER));
			sb_bitmap_clear_all(sb_bucket_working(set, b,
					    SB_POOL_BUSY));
		}
		if (excl) {
			/* Excluded nodes simply leave the working copy. */
			sb_bitmap_andnot(sb_bucket_working(set, b,
					 SB_POOL_FREE), excl);
			sb_bitmap_andnot(sb_bucket_working(set, b,
					 SB_POOL_LATER), excl);
		}
	}
	for (c = 0; c < x->nc; c++)
		for (j = 0; j < nord; j++) {
			sb_bitmap_t *later, *free_, *busy;
			uint64_t k;

			b = order[j];
			if (!(k = amount[b * x->nc + c]))
				continue;
			later = sb_bucket_working(set, b, SB_POOL_LATER);
			free_ = sb_bucket_working(set, b, SB_POOL_FREE);
			busy = sb_bucket_working(set, b, SB_POOL_BUSY);
			for (i = sb_bitmap_first_set(later); i >= 0 && k;
			     i = sb_bitmap_next_set(later, (size_t) i + 1))
				if (sb_bucket_next_start(set, (size_t) i) >=
				    x->end) {
					sb_bitmap_clear(later, (size_t) i);
					sb_bitmap_set(x->res[c], (size_t) i);
					k--;
				}
			if (k)
				k -= (uint64_t) sb_bitmap_take(free_, k,
							       x->res[c]);
			/* Taken nodes are busy in the working copy. */
			sb_bitmap_or(busy, x->res[c]);
			sb_bitmap_and(busy, sb_bucket_all(set, b));
			if (k) {
				/* Counts and bitmaps disagree: a bug. */
				errno = EFAULT;
				goto out;
			}
		}
	rc = SB_PLACE_RUN;
out:
	sb_bucket_fill_fini(&f);
	return rc;
}

void sb_placement_fini(sb_placement_t *out)
{
	size_t c;

	if (!out)
		return;
	for (c = 0; out->nodes && c < out->nchunks; c++)
		sb_bitmap_free(out->nodes[c]);
	free(out->nodes);
	memset(out, 0, sizeof(*out));
}

static int _place(sb_bucket_set_t *set, const sb_request_t *r,
		  const sb_policy_t *p, sb_path_t path, int ideal,
		  sb_placement_t *out)
{
	sb__place_ctx_t x;
	const char *why;
	size_t c, v, nvar;
	int rc, best = SB_PLACE_NEVER, bucket;

	if (!set || !r || !p || !out ||
	    sb_request_check(r, sb_bucket_set_nodes(set))) {
		errno = EINVAL;
		return -1;
	}
	why = sb_place_ineligible(r, p);
	if (path == SB_PATH_BUCKET && why) {
		errno = EINVAL;
		return -1;
	}
	bucket = path != SB_PATH_NODE && !why;
	memset(out, 0, sizeof(*out));
	memset(&x, 0, sizeof(x));
	x.set = set;
	x.ideal = ideal;
	x.nodes = sb_bucket_set_node_array(set);
	x.n = sb_bucket_set_nodes(set);
	x.r = r;
	x.p = p;
	x.now = sb_bucket_set_now(set);
	x.end = sb_time_add(x.now, r->time_limit);
	x.nc = r->nchunks;
	for (c = 0; c < x.nc; c++) {
		x.demand[c] = r->chunks[c].count;
		x.total += r->chunks[c].count;
	}
	out->bucket_path = bucket;
	out->reason = bucket ? NULL : why ? why : "forced";
	out->nchunks = x.nc;
	if (!(out->nodes = calloc(x.nc, sizeof(*out->nodes))))
		goto fail;
	for (c = 0; c < x.nc; c++)
		if (!(out->nodes[c] = sb_bitmap_alloc(x.n)))
			goto fail;
	x.res = out->nodes;
	if (!bucket && (!(x.mask = malloc((x.n + 1) * sizeof(*x.mask))) ||
			!(x.avail = malloc(x.n + 1)) ||
			!(x.req = malloc(x.n + 1)) ||
			!(x.used = malloc(x.n + 1)) ||
			!(x.next = malloc((x.n + 1) * sizeof(*x.next)))))
		goto fail;
	nvar = r->nmatch ? r->nmatch : 1;
	for (v = 0; v < nvar; v++) {
		x.match = r->nmatch ? r->match[v] : NULL;
		sb__place_clear(&x);
		rc = bucket ? _bucket_attempt(&x) : sb__place_node_attempt(&x);
		if (rc < 0)
			goto fail;
		if (rc == SB_PLACE_RUN) {
			out->result = SB_PLACE_RUN;
			out->variant = v;
			break;
		}
		if (rc == SB_PLACE_WAIT)
			best = SB_PLACE_WAIT;
	}
	if (v == nvar) {
		out->result = (sb_place_result_t) best;
		for (c = 0; c < x.nc; c++)
			sb_bitmap_free(out->nodes[c]);
		free(out->nodes);
		out->nodes = NULL;
	}
	free(x.mask);
	free(x.avail);
	free(x.req);
	free(x.used);
	free(x.next);
	return 0;
fail:
	rc = errno;
	free(x.mask);
	free(x.avail);
	free(x.req);
	free(x.used);
	free(x.next);
	sb_placement_fini(out);
	errno = rc ? rc : ENOMEM;
	return -1;
}

int sb_place(sb_bucket_set_t *set, const sb_request_t *r,
	     const sb_policy_t *p, sb_path_t path, sb_placement_t *out)
{
	return _place(set, r, p, path, 0, out);
}

int sb_place_ideal(sb_bucket_set_t *set, const sb_request_t *r,
		   const sb_policy_t *p, sb_path_t path, sb_placement_t *out)
{
	return _place(set, r, p, path, 1, out);
}
