/*
 * place.c - place one request: the bucket path or the per-node path.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bucket_assign.h"
#include "place.h"

/* Internal outcome of one attempt: a result, or -1 for ENOMEM. */
enum { _RUN = SB_PLACE_RUN, _WAIT = SB_PLACE_WAIT, _NEVER = SB_PLACE_NEVER };

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
} _ctx_t;

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

static void _clear_res(_ctx_t *x)
{
	size_t c;

	for (c = 0; c < x->nc; c++)
		sb_bitmap_clear_all(x->res[c]);
}

static uint64_t _min(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/*
 * Fill chunks in order from groups in order (greedy on counts only).
 * Returns 1 if every chunk is filled; x[g * nc + c] gets the amounts.
 */
static int _greedy_counts(const _ctx_t *x, size_t ng, const size_t *order,
			  size_t nord, const uint64_t *mask,
			  const uint64_t *cap, uint64_t *left,
			  uint64_t *amount)
{
	size_t c, j, g;
	uint64_t need, t;

	memcpy(left, cap, ng * sizeof(*left));
	memset(amount, 0, ng * x->nc * sizeof(*amount));
	for (c = 0; c < x->nc; c++) {
		need = x->demand[c];
		for (j = 0; j < nord && need; j++) {
			g = order[j];
			if (!(mask[g] >> c & 1) || !left[g])
				continue;
			t = _min(need, left[g]);
			amount[g * x->nc + c] = t;
			left[g] -= t;
			need -= t;
		}
		if (need)
			return 0;
	}
	return 1;
}

/* ---------------------------------------------------------------- */
/* Bucket path                                                       */

static int _bucket_attempt(_ctx_t *x)
{
	sb_bucket_set_t *set = x->set;
	size_t nb = sb_bucket_set_size(set), b, c, j, nord = 0;
	const sb_bitmap_t *excl = x->r->excluded;
	uint64_t *mask, *cap, *left, *amount, *block;
	size_t *order = NULL;
	sb_policy_key_t *keys = NULL;
	int rc = -1, ok;
	int64_t i;

	/* One block for the per-bucket counters: this path is hot. */
	if (!(block = calloc((nb + 1) * (3 + x->nc), sizeof(*block))) ||
	    !(order = malloc((nb + 1) * sizeof(*order))) ||
	    !(keys = malloc((nb + 1) * sizeof(*keys))))
		goto out;
	mask = block;
	cap = mask + nb + 1;
	left = cap + nb + 1;
	amount = left + nb + 1;

	/* The chunk -> bucket map, and capacity with every node idle. */
	for (b = 0; b < nb; b++) {
		const sb_node_t *rep = sb_bucket_rep(set, b);

		for (c = 0; c < x->nc; c++)
			if (sb_chunk_match(rep, x->r, &x->r->chunks[c],
					   x->match))
				mask[b] |= UINT64_C(1) << c;
		if (!mask[b])
			continue;
		cap[b] = sb_bucket_total(set, b);
		if (excl)
			cap[b] -= (uint64_t) sb_bitmap_count_and(
				sb_bucket_all(set, b), excl);
		sb_policy_key(x->p, rep, sb_request_pref(x->r, rep), x->end,
			      SB_TIME_INFINITE, &keys[nord++]);
	}
	/* O(C B) on counts: the OpenPBS "can never run" test. */
	for (c = 0; c < x->nc; c++) {
		uint64_t sum = 0;

		for (b = 0; b < nb; b++)
			if (mask[b] >> c & 1)
				sum += cap[b];
		if (sum < x->demand[c]) {
			rc = _NEVER;
			goto out;
		}
	}
	/* Per-chunk sums can all pass while chunks compete for a bucket. */
	if (x->nc > 1) {
		ok = sb_assign(nb, cap, NULL, mask, x->nc, x->demand, amount);
		if (ok <= 0) {
			rc = ok < 0 ? -1 : _NEVER;
			goto out;
		}
	}
	/* Buckets in policy order; ties go by lowest node index. */
	sb_policy_sort(keys, nord);
	for (j = 0; j < nord; j++)
		order[j] = sb_bucket_of(set, keys[j].idx);

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
	if (!_greedy_counts(x, nb, order, nord, mask, cap, left, amount)) {
		ok = sb_assign(nb, cap, NULL, mask, x->nc, x->demand, amount);
		if (ok <= 0) {
			rc = ok < 0 ? -1 : _WAIT;
			goto out;
		}
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
	rc = _RUN;
out:
	free(block);
	free(order);
	free(keys);
	return rc;
}

/* ---------------------------------------------------------------- */
/* Per-node path                                                     */

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
	const _ctx_t *x = ctx;

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
static int _exact(_ctx_t *x, const size_t *list, size_t k, int fill)
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
	_clear_res(x);
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
 * that greedy pass gets stuck. _RUN, _WAIT or -1.
 */
static int _select(_ctx_t *x, const size_t *order, size_t k)
{
	uint64_t need[SB_MAX_CHUNKS];
	size_t j, c, i, nreq = 0;
	int rc;

	_clear_res(x);
	memcpy(need, x->demand, x->nc * sizeof(*need));
	for (j = 0; j < k; j++) {
		x->used[order[j]] = 0;
		nreq += x->req[order[j]];
	}
	if (nreq != x->nreq)
		return _WAIT;	/* a required node is not a candidate */
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
	return _RUN;
exact:
	rc = _exact(x, order, k, 1);
	return rc < 0 ? -1 : rc ? _RUN : _WAIT;
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
static int _contiguous(_ctx_t *x, size_t *list)
{
	size_t n = x->n, T = (size_t) x->total, s, i, nwin, j, w;
	size_t *bad_static = NULL, *bad_now = NULL, *reqs = NULL;
	uint64_t *wsum = NULL;
	sb_policy_key_t *win = NULL;
	int rc = -1, found = 0, ok;

	if (x->total > n)
		return _NEVER;
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
		rc = _NEVER;
		goto out;
	}
	for (s = 0; s < nwin; s++) {
		win[s].k[0] = (double) (wsum[s + T] - wsum[s]);
		win[s].idx = s;
	}
	sb_policy_sort(win, nwin);
	rc = _WAIT;
	for (w = 0; w < nwin; w++) {
		s = win[w].idx;
		if (bad_now[s + T] - bad_now[s] ||
		    reqs[s + T] - reqs[s] != x->nreq)
			continue;
		for (j = 0; j < T; j++)
			list[j] = s + j;
		if ((ok = _select(x, list, T)) != _WAIT) {
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
static size_t _filter(const _ctx_t *x, const size_t *cand, size_t k,
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
static int _maxbalance(_ctx_t *x, const size_t *cand, size_t k,
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
	rc = _WAIT;
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
				if (ok == _RUN)
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

static int _node_attempt(_ctx_t *x)
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
			rc = _NEVER;
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
		rc = ok < 0 ? -1 : _NEVER;
		goto out;
	}
	for (i = 0; i < n; i++)
		if (x->req[i] && !x->avail[i]) {
			rc = _WAIT;
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

/* ---------------------------------------------------------------- */

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
	_ctx_t x;
	const char *why;
	size_t c, v, nvar;
	int rc, best = _NEVER, bucket;

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
		_clear_res(&x);
		rc = bucket ? _bucket_attempt(&x) : _node_attempt(&x);
		if (rc < 0)
			goto fail;
		if (rc == _RUN) {
			out->result = SB_PLACE_RUN;
			out->variant = v;
			break;
		}
		if (rc == _WAIT)
			best = _WAIT;
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
