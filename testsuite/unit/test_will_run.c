/*
 * test_will_run.c - WILL_RUN against a brute-force oracle.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Random tiny clusters (1-6 nodes from a few shapes, so buckets form;
 * idle, allocated with a busy-until time, down, drained; 0-2 reservation
 * windows each) and random requests (1-3 chunks, features, CPUs, a time
 * limit or none, excluded nodes, [a|b]), a random allowed bitmap, a random
 * now, finite and infinite horizons, from a fixed seed. The oracle tries
 * every start time from now and every assignment of nodes to chunks:
 *   - ENOENT iff no start exists; else the start is the oracle's minimum;
 *   - each chunk gets exactly its count of distinct allowed, non-excluded
 *     nodes that match it and are free for the whole window;
 *   - RUN iff the start is now; the same query twice gives the same nodes.
 * Results are committed one after another (a backfill plan), the oracle's
 * state follows, and the invariant checker runs after every mutation.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bucket.h"
#include "node.h"
#include "policy.h"
#include "sb_test.h"
#include "will_run.h"

#define REQ(e) SB_REQ_CASE(e, _case)

static unsigned long _case;

#define MAXN 6
#define MAXW 8
#define TMAX 40

/* The oracle's own copy of each node's busy state. */
typedef struct {
	bool down;
	int64_t until;
	sb_window_t w[MAXW];
	size_t nw;
} _truth_t;

typedef struct {
	sb_node_t nodes[MAXN];
	_truth_t t[MAXN];
	size_t n;
	int64_t base, end;
} _cl_t;

static int64_t _add(int64_t a, int64_t b)
{
	return b > INT64_MAX - a ? INT64_MAX : a + b;
}

/* Whether node i is free during all of [s, e) per the spec. */
static bool _free(const _cl_t *cl, size_t i, int64_t s, int64_t e)
{
	const _truth_t *t = &cl->t[i];
	size_t j;

	if (t->down || t->until > s)
		return false;
	for (j = 0; j < t->nw; j++)
		if (t->w[j].start < e && t->w[j].end > s)
			return false;
	return true;
}

/* Brute force: can the usable nodes serve the chunks? */
static bool _assign(const _cl_t *cl, const sb_request_t *r,
		    const sb_feat_expr_t *m, const bool *use, size_t i,
		    uint64_t *need)
{
	size_t c;
	bool more = false;

	for (c = 0; c < r->nchunks; c++)
		more |= need[c] > 0;
	if (!more)
		return true;
	if (i == cl->n)
		return false;
	if (use[i])
		for (c = 0; c < r->nchunks; c++) {
			if (!need[c] || !sb_chunk_match(&cl->nodes[i], r,
							&r->chunks[c], m))
				continue;
			need[c]--;
			if (_assign(cl, r, m, use, i + 1, need)) {
				need[c]++;
				return true;
			}
			need[c]++;
		}
	return _assign(cl, r, m, use, i + 1, need);
}

/* The last time anything changes (a start later than it sees the same). */
static int64_t _last_event(const _cl_t *cl)
{
	int64_t last = cl->base;
	size_t i, j;

	for (i = 0; i < cl->n; i++) {
		if (cl->t[i].until != INT64_MAX && cl->t[i].until > last)
			last = cl->t[i].until;
		for (j = 0; j < cl->t[i].nw; j++) {
			if (cl->t[i].w[j].end != INT64_MAX &&
			    cl->t[i].w[j].end > last)
				last = cl->t[i].w[j].end;
			if (cl->t[i].w[j].start > last)
				last = cl->t[i].w[j].start;
		}
	}
	return last;
}

/* The oracle: earliest start >= now, or -1; *var its alternative. */
static int64_t _oracle(const _cl_t *cl, const sb_request_t *r,
		       const sb_bitmap_t *allowed, int64_t now, size_t *var)
{
	int64_t s, e, hi = _last_event(cl), best = -1;
	size_t v, nvar = r->nmatch ? r->nmatch : 1, i, c;
	bool use[MAXN];
	uint64_t need[SB_MAX_CHUNKS];

	if (hi < now)
		hi = now;
	for (v = 0; v < nvar; v++) {
		const sb_feat_expr_t *m = r->nmatch ? r->match[v] : NULL;

		for (s = now; s <= hi && (best < 0 || s < best); s++) {
			e = _add(s, r->time_limit);
			if (e > cl->end)
				break;
			for (i = 0; i < cl->n; i++)
				use[i] = (!allowed ||
					  sb_bitmap_test(allowed, i)) &&
					!(r->excluded &&
					     sb_bitmap_test(r->excluded, i)) &&
					_free(cl, i, s, e);
			for (c = 0; c < r->nchunks; c++)
				need[c] = r->chunks[c].count;
			if (_assign(cl, r, m, use, 0, need)) {
				best = s;
				*var = v;
				break;
			}
		}
	}
	return best;
}

static sb_feat_expr_t *_expr(const char *s)
{
	sb_feat_expr_t *e = sb_feat_expr_parse(s, NULL, NULL);

	ck_assert_ptr_nonnull(e);
	return e;
}

static void _make_cluster(sb_test_rng_t *g, _cl_t *cl, int64_t **bu)
{
	static const char *feats[] = { "a", "b" };
	size_t i, j;
	char name[16];

	memset(cl, 0, sizeof(*cl));
	cl->n = 2 + sb_test_rng_below(g, MAXN - 1);
	cl->base = sb_test_rng_range(g, 0, 3);
	cl->end = sb_test_rng_below(g, 2) ? cl->base + 45 : INT64_MAX;
	*bu = sb_test_rng_below(g, 4) ? malloc(MAXN * sizeof(**bu)) : NULL;
	for (i = 0; i < cl->n; i++) {
		sb_node_t *n = &cl->nodes[i];
		_truth_t *t = &cl->t[i];
		uint64_t k = sb_test_rng_below(g, 20), shape;

		snprintf(name, sizeof(name), "n%zu", i);
		REQ(!sb_node_init(n, (uint32_t) i, name));
		shape = sb_test_rng_below(g, 3);
		n->cpus = 1 + (uint32_t) (shape & 1);
		n->weight = 1 + (uint32_t) sb_test_rng_below(g, 2);
		REQ(!sb_node_add_feature(n, feats[shape >> 1]));
		if (k < 2)
			n->state = SB_NODE_DOWN;
		else if (k < 3)
			n->state = SB_NODE_DRAINED;
		else if (k < 9)
			n->state = SB_NODE_ALLOCATED;
		else if (k < 10)
			n->run_jobs = 1;
		t->down = n->state == SB_NODE_DOWN ||
			n->state == SB_NODE_DRAINED;
		t->until = cl->base;
		if (*bu) {
			(*bu)[i] = sb_test_rng_below(g, 8) ? sb_test_rng_range(
				g, 0, 25) : INT64_MAX;
			t->until = (*bu)[i];
		} else if (n->state == SB_NODE_ALLOCATED || n->run_jobs) {
			t->until = INT64_MAX;
		}
		if ((n->state == SB_NODE_ALLOCATED || n->run_jobs) &&
		    t->until <= cl->base)
			t->until = cl->base + 1;
		for (j = sb_test_rng_below(g, 3); j > 0; j--) {
			int64_t s = sb_test_rng_range(g, 0, 28);
			int64_t e = s + sb_test_rng_range(g, 1, 6);

			REQ(!sb_node_add_busy(n, s, e));
		}
		/* The oracle takes the merged windows, as the node has them. */
		for (j = 0; j < n->nbusy; j++)
			t->w[t->nw++] = n->busy[j];
	}
}

static void _make_request(sb_test_rng_t *g, const _cl_t *cl,
			  sb_request_t *r)
{
	static const char *exprs[] = { NULL, NULL, NULL, "a", "b", "a|b" };
	size_t c, nc = 1 + sb_test_rng_below(g, 4) / 2, i;

	sb_request_init(r);
	r->exclusive = true;
	r->time_limit = sb_test_rng_below(g, 15) ? sb_test_rng_range(g, 1, 12)
		: SB_TIME_INFINITE;
	for (c = 0; c < nc; c++) {
		sb_chunk_t *ch = sb_request_add_chunk(r,
			1 + (uint32_t) sb_test_rng_below(g, c ? 1 : 3));
		const char *e = exprs[sb_test_rng_below(g, 6)];

		REQ(ch);
		if (e)
			ch->features = _expr(e);
		ch->min_cpus = (uint32_t) sb_test_rng_below(g, 4) / 3 * 2;
	}
	if (!sb_test_rng_below(g, 6)) {
		REQ((r->match = calloc(2, sizeof(*r->match))));
		r->nmatch = 2;
		r->match[0] = _expr(sb_test_rng_below(g, 2) ? "a" : "b");
		r->match[1] = _expr(sb_test_rng_below(g, 2) ? "a" : "b");
	}
	if (!sb_test_rng_below(g, 5)) {
		REQ((r->excluded = sb_bitmap_alloc(cl->n)));
		for (i = 0; i < cl->n; i++)
			if (!sb_test_rng_below(g, 6))
				sb_bitmap_set(r->excluded, i);
	}
	/* Preferences choose nodes, never the start (issue 18). */
	if (!sb_test_rng_below(g, 3))
		REQ(!sb_request_add_prefer_list(r, sb_test_rng_below(g, 2) ?
						"b" : "a,b", NULL));
}

/* Check a result against the oracle's state. */
static void _verify(const _cl_t *cl, const sb_request_t *r,
		    const sb_bitmap_t *allowed, int64_t now,
		    const sb_will_run_result_t *res)
{
	const sb_feat_expr_t *m = r->nmatch ? r->match[res->pl.variant] :
		NULL;
	sb_bitmap_t *seen = sb_bitmap_alloc(cl->n);
	size_t c;
	int64_t i;

	REQ(seen);
	REQ(res->end == _add(res->start, r->time_limit));
	REQ(res->end <= cl->end);
	REQ(res->start >= now);
	REQ(res->pl.nchunks == r->nchunks);
	REQ((res->pl.result == SB_PLACE_RUN) == (res->start == now));
	for (c = 0; c < r->nchunks; c++) {
		REQ(sb_bitmap_count(res->pl.nodes[c]) ==
		    (int64_t) r->chunks[c].count);
		for (i = sb_bitmap_first_set(res->pl.nodes[c]); i >= 0;
		     i = sb_bitmap_next_set(res->pl.nodes[c], (size_t) i + 1)) {
			REQ((size_t) i < cl->n);
			REQ(!sb_bitmap_test(seen, (size_t) i));
			sb_bitmap_set(seen, (size_t) i);
			REQ(!allowed || sb_bitmap_test(allowed, (size_t) i));
			REQ(!r->excluded ||
			    !sb_bitmap_test(r->excluded, (size_t) i));
			REQ(sb_chunk_match(&cl->nodes[i], r, &r->chunks[c],
					   m));
			REQ(_free(cl, (size_t) i, res->start, res->end));
		}
	}
	sb_bitmap_free(seen);
}

static bool _same(const sb_will_run_result_t *a,
		  const sb_will_run_result_t *b)
{
	size_t c;

	if (a->start != b->start || a->pl.variant != b->pl.variant)
		return false;
	for (c = 0; c < a->pl.nchunks; c++)
		if (!sb_bitmap_equal(a->pl.nodes[c], b->pl.nodes[c]))
			return false;
	return true;
}

/* The oracle's truth of node @i at @now, sb_will_run_create()'s rules. */
static void _truth_at(_cl_t *cl, size_t i, const int64_t *bu, int64_t now)
{
	const sb_node_t *n = &cl->nodes[i];
	_truth_t *t = &cl->t[i];

	t->down = n->state == SB_NODE_DOWN || n->state == SB_NODE_DRAINED;
	t->until = bu[i];
	if ((n->state == SB_NODE_ALLOCATED || n->run_jobs) && t->until <= now)
		t->until = now + 1;
}

/*
 * Node @i of @cl gets state @k (0 down, 1 drained, 2 allocated, 3 idle
 * with a job, 4 idle), in the set too.
 */
static void _set_state(_cl_t *cl, sb_bucket_set_t *set, size_t i, uint64_t k)
{
	sb_node_t *n = &cl->nodes[i];

	n->state = k == 0 ? SB_NODE_DOWN : k == 1 ? SB_NODE_DRAINED :
		k == 2 ? SB_NODE_ALLOCATED : SB_NODE_IDLE;
	n->run_jobs = (k == 3);
	REQ(!sb_bucket_set_update(set, i));
}

/* Free what a case of the random tests made. */
static void _case_fini(_cl_t *cl, sb_bucket_set_t *set, sb_will_run_t *w,
		       int64_t *bu)
{
	size_t i;

	sb_will_run_destroy(w);
	sb_bucket_set_destroy(set);
	for (i = 0; i < cl->n; i++)
		sb_node_fini(&cl->nodes[i]);
	free(bu);
}

/*
 * A plan kept while the cluster changes, as select/bucket keeps its own:
 * one node of @cl gets another state and end of its jobs, in the set and
 * then in the plan (sb_will_run_refresh_node()); the oracle's truth
 * follows sb_will_run_create()'s rules, windows kept.
 */
static void _change_node(sb_test_rng_t *g, _cl_t *cl, sb_bucket_set_t *set,
			 sb_will_run_t *w, int64_t *bu)
{
	size_t i = sb_test_rng_below(g, cl->n);

	_set_state(cl, set, i, sb_test_rng_below(g, 5));
	bu[i] = sb_test_rng_below(g, 8) ? sb_test_rng_range(g, 0, 25) :
		INT64_MAX;
	REQ(!sb_will_run_refresh_node(w, i, bu[i]));
	_truth_at(cl, i, bu, cl->base);
}

START_TEST(test_random_oracle)
{
	static const char *policies[] = { "FIRSTAVAILABLE", "MINRESOURCE",
					  "FASTEST", "LASTAVAILABLE" };
	sb_test_rng_t g;
	unsigned long queries = 0, nevers = 0, laters = 0, commits = 0;
	unsigned long refreshes = 0;

	sb_test_rng_seed(&g, 20261122);
	for (_case = 0; _case < 10000; _case++) {
		_cl_t cl;
		int64_t *bu = NULL;
		sb_bucket_set_t *set;
		sb_will_run_t *w;
		sb_policy_t pol;
		size_t i, k, njobs = 1 + sb_test_rng_below(&g, 4);

		_make_cluster(&g, &cl, &bu);
		REQ(!sb_policy_init(&pol, policies[sb_test_rng_below(&g, 4)],
				    NULL, NULL, NULL));
		REQ((set = sb_bucket_set_create(cl.nodes, cl.n, cl.base)));
		REQ((w = sb_will_run_create(set, cl.base, cl.end == INT64_MAX ?
					    INT64_MAX : cl.end - cl.base,
					    bu)));
		REQ(!sb_will_run_check(w));
		for (k = 0; k < njobs; k++) {
			sb_request_t r;
			sb_bitmap_t *allowed = NULL;
			sb_will_run_result_t res, again;
			int64_t now = cl.base + sb_test_rng_range(&g, 0, 8);
			int64_t want;
			size_t var = 0;
			int rc;

			_make_request(&g, &cl, &r);
			if (sb_test_rng_below(&g, 2)) {
				REQ((allowed = sb_bitmap_alloc(cl.n)));
				for (i = 0; i < cl.n; i++)
					if (sb_test_rng_below(&g, 6))
						sb_bitmap_set(allowed, i);
			}
			want = _oracle(&cl, &r, allowed, now, &var);
			rc = sb_will_run_query(w, &r, &pol, allowed, now, &res);
			queries++;
			if (want < 0) {
				REQ(rc == -1 && errno == ENOENT);
				REQ(!res.pl.nodes);
				nevers++;
			} else {
				REQ(rc == 0);
				REQ(res.start == want);
				_verify(&cl, &r, allowed, now, &res);
				REQ(!sb_will_run_query(w, &r, &pol, allowed,
						       now, &again));
				REQ(_same(&res, &again));
				sb_will_run_result_fini(&again);
				laters += res.start > now;
				if (sb_test_rng_below(&g, 3)) {
					size_t c;
					int64_t j;

					REQ(!sb_will_run_commit(w, &res));
					REQ(!sb_will_run_check(w));
					commits++;
					for (c = 0; c < res.pl.nchunks; c++)
						for (j = sb_bitmap_first_set(
							     res.pl.nodes[c]);
						     j >= 0;
						     j = sb_bitmap_next_set(
							     res.pl.nodes[c],
							     (size_t) j + 1)) {
							_truth_t *t = &cl.t[j];

							REQ(t->nw < MAXW);
							t->w[t->nw++] =
								(sb_window_t) {
								res.start,
								res.end };
						}
				}
				sb_will_run_result_fini(&res);
			}
			sb_bitmap_free(allowed);
			sb_request_fini(&r);
			if (bu && sb_test_rng_below(&g, 3) == 0) {
				_change_node(&g, &cl, set, w, bu);
				REQ(!sb_will_run_check(w));
				refreshes++;
			}
		}
		_case_fini(&cl, set, w, bu);
	}
	/* The mix must exercise every outcome. */
	ck_assert_uint_ge(queries, 10000);
	ck_assert_uint_gt(nevers, 500);
	ck_assert_uint_gt(laters, 1000);
	ck_assert_uint_gt(commits, 1000);
	ck_assert_uint_gt(refreshes, 1000);
	printf("will_run oracle: %lu queries, %lu later, %lu never, "
	       "%lu commits, %lu nodes refreshed\n", queries, laters, nevers,
	       commits, refreshes);
}
END_TEST

/*
 * A plan kept from second to second, as select/bucket keeps WILL_RUN's:
 * created at base, then brought forward with sb_will_run_advance() while
 * nodes change state and their jobs' ends move (a time limit changed, a
 * job ended, a job past its end). After each step, every query at now or
 * later answers as the oracle does and exactly as a plan created afresh
 * at now from the same nodes and ends: same start, same nodes.
 */
START_TEST(test_random_advance)
{
	static const char *policies[] = { "FIRSTAVAILABLE", "MINRESOURCE",
					  "LASTAVAILABLE" };
	sb_test_rng_t g;
	unsigned long queries = 0, nevers = 0, laters = 0, past = 0;

	sb_test_rng_seed(&g, 20261128);
	for (_case = 0; _case < 3000; _case++) {
		_cl_t cl;
		int64_t *bu = NULL, now;
		sb_bucket_set_t *set;
		sb_will_run_t *w;
		sb_policy_t pol;
		size_t i, step, nsteps = 1 + sb_test_rng_below(&g, 5);

		/* Every node's jobs' end is known, as the plugin has them. */
		for (;;) {
			_make_cluster(&g, &cl, &bu);
			if (bu)
				break;
			for (i = 0; i < cl.n; i++)
				sb_node_fini(&cl.nodes[i]);
		}
		REQ(!sb_policy_init(&pol, policies[sb_test_rng_below(&g, 3)],
				    NULL, NULL, NULL));
		REQ((set = sb_bucket_set_create(cl.nodes, cl.n, cl.base)));
		REQ((w = sb_will_run_create(set, cl.base, cl.end == INT64_MAX ?
					    INT64_MAX : cl.end - cl.base,
					    bu)));
		/* Not back in time, nor to the end of the horizon. */
		REQ(sb_will_run_advance(w, cl.base - 1, bu) == -1 &&
		    errno == EINVAL);
		REQ(sb_will_run_advance(w, cl.end, bu) == -1 &&
		    errno == EINVAL);
		now = cl.base;
		for (step = 0; step < nsteps; step++) {
			sb_will_run_t *fresh;
			size_t q;

			now += sb_test_rng_range(&g, 0, 4);
			/* Some nodes change, in the set; their ends in bu. */
			for (q = sb_test_rng_below(&g, 3); q > 0; q--) {
				uint64_t k = sb_test_rng_below(&g, 5);

				i = sb_test_rng_below(&g, cl.n);
				_set_state(&cl, set, i, k);
			}
			for (q = sb_test_rng_below(&g, 3); q > 0; q--) {
				i = sb_test_rng_below(&g, cl.n);
				bu[i] = sb_test_rng_range(&g, 0, 25);
			}
			REQ(sb_will_run_advance(w, now, bu) >= 0);
			REQ(!sb_will_run_check(w));
			/* Nothing left to bring forward at the same now. */
			REQ(sb_will_run_advance(w, now, bu) == 0);
			REQ(sb_will_run_advance(w, now, NULL) == 0);
			for (i = 0; i < cl.n; i++) {
				_truth_at(&cl, i, bu, now);
				past += cl.t[i].until == now + 1 &&
					bu[i] <= now;
			}
			REQ((fresh = sb_will_run_create(set, now,
				cl.end == INT64_MAX ? INT64_MAX :
				cl.end - now, bu)));
			for (q = 0; q < 3; q++) {
				sb_request_t r;
				sb_will_run_result_t res, res2;
				int64_t at = now + sb_test_rng_range(&g, 0, 3);
				int64_t want;
				size_t var = 0;
				int rc, rc2;

				_make_request(&g, &cl, &r);
				want = _oracle(&cl, &r, NULL, at, &var);
				rc = sb_will_run_query(w, &r, &pol, NULL, at,
						       &res);
				rc2 = sb_will_run_query(fresh, &r, &pol, NULL,
							at, &res2);
				queries++;
				REQ(rc == rc2);
				if (want < 0) {
					REQ(rc == -1 && errno == ENOENT);
					nevers++;
				} else {
					REQ(rc == 0);
					REQ(res.start == want);
					_verify(&cl, &r, NULL, at, &res);
					REQ(_same(&res, &res2));
					laters += res.start > at;
				}
				sb_will_run_result_fini(&res);
				sb_will_run_result_fini(&res2);
				sb_request_fini(&r);
			}
			sb_will_run_destroy(fresh);
		}
		_case_fini(&cl, set, w, bu);
	}
	ck_assert_uint_ge(queries, 9000);
	ck_assert_uint_gt(nevers, 300);
	ck_assert_uint_gt(laters, 1000);
	ck_assert_uint_gt(past, 1000);
	printf("will_run advance: %lu queries, %lu later, %lu never, "
	       "%lu nodes past their jobs' end\n", queries, laters, nevers,
	       past);
}
END_TEST

/*
 * Medium clusters (10-80 nodes, up to 6 buckets), one-chunk requests, and
 * mostly running jobs only, where the answer comes from a selection
 * instead of the sweep; the oracle counts usable nodes at every start.
 */
START_TEST(test_random_single_chunk)
{
	sb_test_rng_t g;
	unsigned long found = 0;

	sb_test_rng_seed(&g, 4242);
	for (_case = 0; _case < 1500; _case++) {
		sb_node_t nodes[80];
		int64_t until[80], now = (int64_t) sb_test_rng_below(&g, 30);
		size_t n = 10 + sb_test_rng_below(&g, 71), i, cnt;
		sb_bucket_set_t *set;
		sb_will_run_t *w;
		sb_will_run_result_t res;
		sb_request_t r;
		sb_policy_t pol;
		sb_bitmap_t *allowed = NULL;
		int64_t s, want = -1, hi = now;
		int rc;
		char name[16];

		for (i = 0; i < n; i++) {
			snprintf(name, sizeof(name), "m%zu", i);
			REQ(!sb_node_init(&nodes[i], (uint32_t) i, name));
			nodes[i].weight = 1 +
				(uint32_t) sb_test_rng_below(&g, 3);
			nodes[i].cpus = 1 + (uint32_t) sb_test_rng_below(&g, 2);
			until[i] = sb_test_rng_below(&g, 3) ?
				(int64_t) sb_test_rng_below(&g, 60) : 0;
			if (!sb_test_rng_below(&g, 15))
				nodes[i].state = SB_NODE_DOWN;
			if (!sb_test_rng_below(&g, 30))
				REQ(!sb_node_add_busy(&nodes[i], 40, 50));
			if (until[i] > hi)
				hi = until[i];
		}
		if (hi < 50)
			hi = 50;
		REQ((set = sb_bucket_set_create(nodes, n, 0)));
		REQ((w = sb_will_run_create(set, 0, INT64_MAX, until)));
		REQ(!sb_policy_init(&pol, "FIRSTAVAILABLE", NULL, NULL, NULL));
		sb_request_init(&r);
		REQ(sb_request_add_chunk(&r, 1 + (uint32_t) sb_test_rng_below(
			&g, n)));
		r.chunks[0].min_cpus = (uint32_t) sb_test_rng_below(&g, 3);
		r.time_limit = 1 + (int64_t) sb_test_rng_below(&g, 20);
		if (sb_test_rng_below(&g, 2)) {
			REQ((allowed = sb_bitmap_alloc(n)));
			for (i = 0; i < n; i++)
				if (sb_test_rng_below(&g, 8))
					sb_bitmap_set(allowed, i);
		}
		for (s = now; s <= hi && want < 0; s++) {
			for (i = cnt = 0; i < n; i++) {
				int64_t u = until[i] > 0 ? until[i] : 0;
				bool res_hit = nodes[i].nbusy &&
					s < 50 && s + r.time_limit > 40;

				if (nodes[i].state != SB_NODE_DOWN && u <= s &&
				    !res_hit &&
				    (!allowed || sb_bitmap_test(allowed, i)) &&
				    nodes[i].cpus >= r.chunks[0].min_cpus)
					cnt++;
			}
			if (cnt >= r.chunks[0].count)
				want = s;
		}
		rc = sb_will_run_query(w, &r, &pol, allowed, now, &res);
		if (want < 0) {
			REQ(rc == -1 && errno == ENOENT);
		} else {
			REQ(rc == 0 && res.start == want);
			REQ(sb_bitmap_count(res.pl.nodes[0]) ==
			    (int64_t) r.chunks[0].count);
			found++;
			sb_will_run_result_fini(&res);
		}
		sb_bitmap_free(allowed);
		sb_request_fini(&r);
		sb_will_run_destroy(w);
		sb_bucket_set_destroy(set);
		for (i = 0; i < n; i++)
			sb_node_fini(&nodes[i]);
	}
	ck_assert_uint_gt(found, 500);
}
END_TEST

/* Four idle-now nodes of one shape; n0, n1 busy until 100 and 50. */
static sb_bucket_set_t *_four(sb_node_t *nodes)
{
	size_t i;
	char name[8];

	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "n%zu", i);
		ck_assert_int_eq(sb_node_init(&nodes[i], (uint32_t) i, name),
				 0);
	}
	nodes[0].state = SB_NODE_ALLOCATED;
	nodes[1].state = SB_NODE_ALLOCATED;
	return sb_bucket_set_create(nodes, 4, 0);
}

START_TEST(test_hand_cases)
{
	sb_node_t nodes[4];
	int64_t bu[4] = { 100, 50, 0, 0 };
	sb_bucket_set_t *set = _four(nodes);
	sb_will_run_t *w;
	sb_will_run_result_t res;
	sb_request_t r;
	sb_policy_t pol;
	char *s;
	size_t i;

	ck_assert_ptr_nonnull(set);
	ck_assert_int_eq(sb_policy_init(&pol, "FIRSTAVAILABLE", NULL, NULL,
					NULL), 0);
	w = sb_will_run_create(set, 0, INT64_MAX, bu);
	ck_assert_ptr_nonnull(w);
	sb_request_init(&r);
	r.time_limit = 10;
	ck_assert_ptr_nonnull(sb_request_add_chunk(&r, 4));
	/* All four: when n0 ends. */
	ck_assert_int_eq(sb_will_run_query(w, &r, &pol, NULL, 0, &res), 0);
	ck_assert_int_eq(res.start, 100);
	ck_assert_int_eq(res.end, 110);
	ck_assert_int_eq(res.pl.result, SB_PLACE_WAIT);
	ck_assert_int_eq(sb_will_run_commit(w, &res), 0);
	sb_will_run_result_fini(&res);
	/* Three for 60: n1 ends at 50, but 50 + 60 > 100 is planned. */
	r.chunks[0].count = 3;
	r.time_limit = 60;
	ck_assert_int_eq(sb_will_run_query(w, &r, &pol, NULL, 0, &res), 0);
	ck_assert_int_eq(res.start, 110);
	sb_will_run_result_fini(&res);
	/* Two for 50 backfill now on n2, n3 (free, busy-later). */
	r.chunks[0].count = 2;
	r.time_limit = 50;
	ck_assert_int_eq(sb_will_run_query(w, &r, &pol, NULL, 0, &res), 0);
	ck_assert_int_eq(res.start, 0);
	ck_assert_int_eq(res.pl.result, SB_PLACE_RUN);
	ck_assert_ptr_nonnull((s = sb_bitmap_fmt(res.pl.nodes[0])));
	ck_assert_str_eq(s, "2-3");
	free(s);
	sb_will_run_result_fini(&res);
	/* The allowed bitmap: without n3, two nodes only at 50 (n1, n2). */
	{
		sb_bitmap_t *a = sb_bitmap_alloc(4);

		sb_bitmap_set_all(a);
		sb_bitmap_clear(a, 3);
		ck_assert_int_eq(sb_will_run_query(w, &r, &pol, a, 0, &res),
				 0);
		ck_assert_int_eq(res.start, 50);
		ck_assert_ptr_nonnull((s = sb_bitmap_fmt(res.pl.nodes[0])));
		ck_assert_str_eq(s, "1-2");
		free(s);
		sb_will_run_result_fini(&res);
		/* Five nodes never exist. */
		r.chunks[0].count = 5;
		ck_assert_int_eq(sb_will_run_query(w, &r, &pol, NULL, 0, &res),
				 -1);
		ck_assert_int_eq(errno, ENOENT);
		r.chunks[0].count = 2;
		/* Errors. */
		ck_assert_int_eq(sb_will_run_query(NULL, &r, &pol, NULL, 0,
						   &res), -1);
		ck_assert_int_eq(errno, EINVAL);
		ck_assert_int_eq(sb_will_run_query(w, &r, &pol, NULL, -1,
						   &res), -1);
		ck_assert_int_eq(errno, EINVAL);
		sb_bitmap_free(a);
		a = sb_bitmap_alloc(5);
		ck_assert_int_eq(sb_will_run_query(w, &r, &pol, a, 0, &res),
				 -1);
		ck_assert_int_eq(errno, EINVAL);
		sb_bitmap_free(a);
		r.contiguous = true;
		ck_assert_int_eq(sb_will_run_query(w, &r, &pol, NULL, 0, &res),
				 -1);
		ck_assert_int_eq(errno, EINVAL);
		r.contiguous = false;
		r.required = sb_bitmap_alloc(4);
		sb_bitmap_set(r.required, 2);
		ck_assert_int_eq(sb_will_run_query(w, &r, &pol, NULL, 0, &res),
				 -1);
		ck_assert_int_eq(errno, EINVAL);
	}
	ck_assert_int_eq(sb_will_run_reserve(w, 0, 5, 5), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_will_run_set_busy(w, 4, 5), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_will_run_refresh_node(w, 4, 5), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_will_run_refresh_node(NULL, 0, 5), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_will_run_commit(w, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_will_run_check(w), 0);
	sb_request_fini(&r);
	sb_will_run_destroy(w);
	sb_will_run_destroy(NULL);
	sb_will_run_result_fini(NULL);
	ck_assert_ptr_null(sb_will_run_create(NULL, 0, 1, NULL));
	ck_assert_ptr_null(sb_will_run_create(set, -1, 1, NULL));
	ck_assert_ptr_null(sb_will_run_create(set, 0, 0, NULL));
	sb_bucket_set_destroy(set);
	for (i = 0; i < 4; i++)
		sb_node_fini(&nodes[i]);
}
END_TEST

/* Busy-later first: a reservation at 100 on n2 makes it the first pick. */
START_TEST(test_busy_later_first)
{
	sb_node_t nodes[4];
	sb_bucket_set_t *set;
	sb_will_run_t *w;
	sb_will_run_result_t res;
	sb_request_t r;
	sb_policy_t pol;
	char *s;
	size_t i;

	for (i = 0; i < 4; i++) {
		char name[8];

		snprintf(name, sizeof(name), "n%zu", i);
		ck_assert_int_eq(sb_node_init(&nodes[i], (uint32_t) i, name),
				 0);
	}
	ck_assert_int_eq(sb_node_add_busy(&nodes[2], 100, 200), 0);
	ck_assert_ptr_nonnull((set = sb_bucket_set_create(nodes, 4, 0)));
	ck_assert_int_eq(sb_policy_init(&pol, "FIRSTAVAILABLE", NULL, NULL,
					NULL), 0);
	ck_assert_ptr_nonnull((w = sb_will_run_create(set, 0, INT64_MAX,
						      NULL)));
	sb_request_init(&r);
	ck_assert_ptr_nonnull(sb_request_add_chunk(&r, 2));
	r.time_limit = 100;
	ck_assert_int_eq(sb_will_run_query(w, &r, &pol, NULL, 0, &res), 0);
	ck_assert_ptr_nonnull((s = sb_bitmap_fmt(res.pl.nodes[0])));
	ck_assert_str_eq(s, "0,2");
	free(s);
	sb_will_run_result_fini(&res);
	/* 101 s would overrun the reservation: n2 is not used. */
	r.time_limit = 101;
	ck_assert_int_eq(sb_will_run_query(w, &r, &pol, NULL, 0, &res), 0);
	ck_assert_ptr_nonnull((s = sb_bitmap_fmt(res.pl.nodes[0])));
	ck_assert_str_eq(s, "0-1");
	free(s);
	sb_will_run_result_fini(&res);
	/*
	 * Four nodes for 150: n2's window is in the way until 200. A job
	 * of that reservation clears it: all four now.
	 */
	r.chunks[0].count = 4;
	r.time_limit = 150;
	ck_assert_int_eq(sb_will_run_query(w, &r, &pol, NULL, 0, &res), 0);
	ck_assert_int_eq(res.start, 200);
	sb_will_run_result_fini(&res);
	ck_assert_int_eq(sb_will_run_clear_windows(w, 2), 0);
	ck_assert_int_eq(sb_will_run_check(w), 0);
	ck_assert_int_eq(sb_will_run_query(w, &r, &pol, NULL, 0, &res), 0);
	ck_assert_int_eq(res.start, 0);
	sb_will_run_result_fini(&res);
	/* reserved again by hand: back to 200 */
	ck_assert_int_eq(sb_will_run_reserve(w, 2, 100, 200), 0);
	ck_assert_int_eq(sb_will_run_query(w, &r, &pol, NULL, 0, &res), 0);
	ck_assert_int_eq(res.start, 200);
	sb_will_run_result_fini(&res);
	ck_assert_int_eq(sb_will_run_clear_windows(w, 4), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_will_run_clear_windows(NULL, 0), -1);
	sb_request_fini(&r);
	sb_will_run_destroy(w);
	sb_bucket_set_destroy(set);
	for (i = 0; i < 4; i++)
		sb_node_fini(&nodes[i]);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("will_run");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_hand_cases);
	tcase_add_test(tc, test_busy_later_first);
	tcase_add_test(tc, test_random_oracle);
	tcase_add_test(tc, test_random_advance);
	tcase_add_test(tc, test_random_single_chunk);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
