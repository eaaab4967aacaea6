/*
 * place_node.c - the per-node path of placement: every node checked,
 * candidates ordered by the policy (see place.h, place_priv.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bucket_assign.h"
#include "place_priv.h"

/*
 * Merge sort of node indices with a context (C11 qsort has none, and a
 * static context would not be thread-safe inside slurmctld). Stable.
 * Returns -1 on ENOMEM.
 */
typedef int _idx_cmp_f(const void *ctx, size_t a, size_t b);

static void _msort_rec(size_t *v, size_t *tmp, size_t n, _idx_cmp_f *cmp,
		       const void *ctx)
{
	size_t h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	_msort_rec(v, tmp, h, cmp, ctx);
	_msort_rec(v + h, tmp, n - h, cmp, ctx);
	while (i < h && j < n)
		tmp[k++] = cmp(ctx, v[j], v[i]) < 0 ? v[j++] : v[i++];
	while (i < h)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

static int _msort(size_t *v, size_t n, _idx_cmp_f *cmp, const void *ctx)
{
	size_t *tmp;

	if (n < 2)
		return 0;
	if (!(tmp = malloc(n * sizeof(*tmp))))
		return -1;
	_msort_rec(v, tmp, n, cmp, ctx);
	free(tmp);
	return 0;
}

/* Order nodes by (mask, required) so equal nodes form classes. */
static int _cls_cmp(const void *ctx, size_t i, size_t j)
{
	const sb__place_ctx_t *x = ctx;

	if (x->mask[i] != x->mask[j])
		return x->mask[i] < x->mask[j] ? -1 : 1;
	if (x->req[i] != x->req[j])
		return x->req[i] < x->req[j] ? -1 : 1;
	return 0;
}

/*
 * Exact assignment of the nodes list[0..k) to the chunks. Returns 1 and
 * fills res (nodes taken in list order within each class), 0 if none
 * exists, -1 on ENOMEM. With fill == 0 it only answers.
 */
static int _exact(sb__place_ctx_t *x, const size_t *list, size_t k, int fill)
{
	size_t *sorted = NULL, *cls_of = NULL, ncls = 0, j, c, cls;
	uint64_t *cmask = NULL, *cap = NULL, *amount = NULL;
	bool *must = NULL;
	int rc = -1;

	if (!(sorted = malloc((k + 1) * sizeof(*sorted))) ||
	    !(cls_of = malloc((x->n + 1) * sizeof(*cls_of))) ||
	    !(cmask = malloc((k + 1) * sizeof(*cmask))) ||
	    !(cap = malloc((k + 1) * sizeof(*cap))) ||
	    !(must = malloc((k + 1) * sizeof(*must))) ||
	    !(amount = malloc((k + 1) * x->nc * sizeof(*amount))))
		goto out;
	memcpy(sorted, list, k * sizeof(*sorted));
	if (_msort(sorted, k, _cls_cmp, x))
		goto out;
	for (j = 0; j < k; j++) {
		size_t i = sorted[j];

		if (!j || x->mask[i] != cmask[ncls - 1] ||
		    x->req[i] != must[ncls - 1]) {
			cmask[ncls] = x->mask[i];
			must[ncls] = x->req[i];
			cap[ncls++] = 0;
		}
		cap[ncls - 1]++;
		cls_of[i] = ncls - 1;
	}
	rc = sb_assign(ncls, cap, must, cmask, x->nc, x->demand, amount);
	if (rc <= 0 || !fill)
		goto out;
	sb__place_clear(x);
	for (j = 0; j < k; j++) {
		size_t i = list[j];

		cls = cls_of[i];
		for (c = 0; c < x->nc; c++)
			if (amount[cls * x->nc + c]) {
				amount[cls * x->nc + c]--;
				sb_bitmap_set(x->res[c], i);
				break;
			}
	}
out:
	free(sorted);
	free(cls_of);
	free(cmask);
	free(cap);
	free(must);
	free(amount);
	return rc;
}

/*
 * Place on the candidates order[0..k) (usable now, in preference order):
 * required nodes first, then chunk by chunk; the exact assignment if
 * that greedy pass gets stuck. SB_PLACE_RUN, SB_PLACE_WAIT or -1.
 */
static int _select(sb__place_ctx_t *x, const size_t *order, size_t k)
{
	uint64_t need[SB_MAX_CHUNKS];
	size_t j, c, i, nreq = 0;
	int rc;

	sb__place_clear(x);
	memcpy(need, x->demand, x->nc * sizeof(*need));
	for (j = 0; j < k; j++) {
		x->used[order[j]] = 0;
		nreq += x->req[order[j]];
	}
	if (nreq != x->nreq)
		return SB_PLACE_WAIT;	/* a required node is no candidate */
	for (j = 0; j < k; j++) {
		i = order[j];
		if (!x->req[i])
			continue;
		for (c = 0; c < x->nc; c++)
			if ((x->mask[i] >> c & 1) && need[c])
				break;
		if (c == x->nc)
			goto exact;
		need[c]--;
		x->used[i] = 1;
		sb_bitmap_set(x->res[c], i);
	}
	for (c = 0; c < x->nc; c++) {
		for (j = 0; j < k && need[c]; j++) {
			i = order[j];
			if (x->used[i] || !(x->mask[i] >> c & 1))
				continue;
			x->used[i] = 1;
			need[c]--;
			sb_bitmap_set(x->res[c], i);
		}
		if (need[c])
			goto exact;
	}
	return SB_PLACE_RUN;
exact:
	rc = _exact(x, order, k, 1);
	return rc < 0 ? -1 : rc ? SB_PLACE_RUN : SB_PLACE_WAIT;
}

static int _key_cmp(const void *ctx, size_t a, size_t b)
{
	const sb_policy_key_t *keys = ctx;

	return sb_policy_key_cmp(&keys[a], &keys[b]);
}

/*
 * CONTIGUOUS: blocks of `total` consecutive nodes. NEVER unless some
 * block works with all nodes idle; RUN on the block of lowest total
 * weight (then lowest start) that works now.
 */
static int _contiguous(sb__place_ctx_t *x, size_t *list)
{
	size_t n = x->n, T = (size_t) x->total, s, i, nwin, j, w;
	size_t *bad_static = NULL, *bad_now = NULL, *reqs = NULL;
	uint64_t *wsum = NULL;
	sb_policy_key_t *win = NULL;
	int rc = -1, found = 0, ok;

	if (x->total > n)
		return SB_PLACE_NEVER;
	nwin = n - T + 1;
	if (!(bad_static = calloc(n + 1, sizeof(size_t))) ||
	    !(bad_now = calloc(n + 1, sizeof(size_t))) ||
	    !(reqs = calloc(n + 1, sizeof(size_t))) ||
	    !(wsum = calloc(n + 1, sizeof(uint64_t))) ||
	    !(win = calloc(nwin, sizeof(*win))))
		goto out;
	/* Prefix sums make each block's checks O(1). */
	for (i = 0; i < n; i++) {
		bad_static[i + 1] = bad_static[i] + !x->mask[i];
		bad_now[i + 1] = bad_now[i] + (!x->mask[i] || !x->avail[i]);
		reqs[i + 1] = reqs[i] + x->req[i];
		wsum[i + 1] = wsum[i] + x->nodes[i].weight;
	}
	for (s = 0; s < nwin && !found; s++) {
		if (bad_static[s + T] - bad_static[s] ||
		    reqs[s + T] - reqs[s] != x->nreq)
			continue;
		/* One chunk: every matching node serves it. */
		if (x->nc == 1) {
			found = 1;
			break;
		}
		for (j = 0; j < T; j++)
			list[j] = s + j;
		if ((ok = _exact(x, list, T, 0)) < 0)
			goto out;
		found = ok;
	}
	if (!found) {
		rc = SB_PLACE_NEVER;
		goto out;
	}
	for (s = 0; s < nwin; s++) {
		win[s].k[0] = (double) (wsum[s + T] - wsum[s]);
		win[s].idx = s;
	}
	sb_policy_sort(win, nwin);
	rc = SB_PLACE_WAIT;
	for (w = 0; w < nwin; w++) {
		s = win[w].idx;
		if (bad_now[s + T] - bad_now[s] ||
		    reqs[s + T] - reqs[s] != x->nreq)
			continue;
		for (j = 0; j < T; j++)
			list[j] = s + j;
		if ((ok = _select(x, list, T)) != SB_PLACE_WAIT) {
			rc = ok;
			break;
		}
	}
out:
	free(bad_static);
	free(bad_now);
	free(reqs);
	free(wsum);
	free(win);
	return rc;
}

static int _cmp_double(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return x < y ? -1 : x > y;
}

/* Sort and deduplicate v[0..n); returns the new length. */
static size_t _uniq(double *v, size_t n)
{
	size_t i, k = 0;

	qsort(v, n, sizeof(*v), _cmp_double);
	for (i = 0; i < n; i++)
		if (!k || v[i] != v[k - 1])
			v[k++] = v[i];
	return k;
}

/* The candidates of cand[0..k) (sorted) with weight <= w, speed in range. */
static size_t _filter(const sb__place_ctx_t *x, const size_t *cand, size_t k,
		      double w, double lo, double hi, size_t *out)
{
	size_t j, m = 0;

	for (j = 0; j < k; j++) {
		const sb_node_t *nd = &x->nodes[cand[j]];

		if (nd->weight <= w && nd->speed >= lo && nd->speed <= hi)
			out[m++] = cand[j];
	}
	return m;
}

/*
 * MAXBALANCE: in the lowest weight tier that can hold the job, the speed
 * range [lo, hi] of smallest span (then lowest lo) that can. For a fixed
 * lo the smallest workable hi only grows with lo: two pointers.
 */
static int _maxbalance(sb__place_ctx_t *x, const size_t *cand, size_t k,
		       size_t *list)
{
	double *weights = NULL, *speeds = NULL, w, blo = 0, bhi = 0;
	size_t nw, ns, t, lo, hi, m, j;
	int rc = -1, ok, have;

	if (!(weights = malloc((k + 1) * sizeof(double))) ||
	    !(speeds = malloc((k + 1) * sizeof(double))))
		goto out;
	for (j = 0; j < k; j++)
		weights[j] = x->nodes[cand[j]].weight;
	nw = _uniq(weights, k);
	rc = SB_PLACE_WAIT;
	for (t = 0; t < nw; t++) {
		w = weights[t];
		for (j = 0, ns = 0; j < k; j++)
			if (x->nodes[cand[j]].weight <= w)
				speeds[ns++] = x->nodes[cand[j]].speed;
		if (ns < x->total)
			continue;
		ns = _uniq(speeds, ns);
		have = 0;
		for (lo = 0, hi = 0; lo < ns; lo++) {
			if (hi < lo)
				hi = lo;
			for (; hi < ns; hi++) {
				m = _filter(x, cand, k, w, speeds[lo],
					    speeds[hi], list);
				if (m < x->total)
					continue;
				if ((ok = _select(x, list, m)) < 0) {
					rc = -1;
					goto out;
				}
				if (ok == SB_PLACE_RUN)
					break;
			}
			if (hi == ns)
				break;
			if (!have || speeds[hi] - speeds[lo] < bhi - blo) {
				have = 1;
				blo = speeds[lo];
				bhi = speeds[hi];
			}
		}
		if (have) {
			m = _filter(x, cand, k, w, blo, bhi, list);
			rc = _select(x, list, m);
			goto out;
		}
	}
out:
	free(weights);
	free(speeds);
	return rc;
}

int sb__place_node_attempt(sb__place_ctx_t *x)
{
	const sb_request_t *r = x->r;
	size_t n = x->n, i, c, k = 0;
	size_t *list = NULL, *cand = NULL;
	sb_policy_key_t *keys = NULL;
	int rc = -1, ok;
	sb_pool_t pool;

	if (!(list = malloc((n + 1) * sizeof(*list))) ||
	    !(cand = malloc((n + 1) * sizeof(*cand))) ||
	    !(keys = malloc((n + 1) * sizeof(*keys))))
		goto out;
	x->nreq = 0;
	for (i = 0; i < n; i++) {
		const sb_node_t *nd = &x->nodes[i];

		x->mask[i] = 0;
		x->req[i] = r->required && sb_bitmap_test(r->required, i) == 1;
		x->nreq += x->req[i];
		if (x->ideal) {
			x->next[i] = SB_TIME_INFINITE;
			x->avail[i] = 1;
		} else {
			pool = sb_node_pool(nd, x->now, &x->next[i]);
			x->avail[i] = pool == SB_POOL_FREE ||
				(pool == SB_POOL_LATER &&
				 x->next[i] >= x->end);
		}
		if (r->excluded && sb_bitmap_test(r->excluded, i) == 1)
			continue;
		for (c = 0; c < x->nc; c++)
			if (sb_chunk_match(nd, r, &r->chunks[c], x->match))
				x->mask[i] |= UINT64_C(1) << c;
		if (x->req[i] && !x->mask[i]) {
			rc = SB_PLACE_NEVER;
			goto out;
		}
		if (x->mask[i])
			list[k++] = i;
	}
	if (r->contiguous || x->p->kind == SB_POLICY_CONTIGUOUS) {
		rc = _contiguous(x, list);
		goto out;
	}
	if ((ok = _exact(x, list, k, 0)) <= 0) {
		rc = ok < 0 ? -1 : SB_PLACE_NEVER;
		goto out;
	}
	for (i = 0; i < n; i++)
		if (x->req[i] && !x->avail[i]) {
			rc = SB_PLACE_WAIT;
			goto out;
		}
	for (i = 0, k = 0; i < n; i++)
		if (x->mask[i] && x->avail[i]) {
			cand[k++] = i;
			sb_policy_key(x->p, &x->nodes[i],
				      sb_request_pref(x->r, &x->nodes[i]),
				      x->end, x->next[i], &keys[i]);
		}
	/* Policy order; keys are indexed by node. */
	if (_msort(cand, k, _key_cmp, keys))
		goto out;
	if (x->p->kind == SB_POLICY_MAXBALANCE)
		rc = _maxbalance(x, cand, k, list);
	else
		rc = _select(x, cand, k);
out:
	free(list);
	free(cand);
	free(keys);
	return rc;
}

