/*
 * test_place.c - placement (both paths) against a brute-force oracle.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Random small clusters (1-7 nodes drawn from a few shapes, so buckets
 * form) and random requests, from a fixed seed. The oracle enumerates
 * every assignment of nodes to chunks. For each request and path:
 *   - a RUN placement is valid: each chunk gets exactly its count of
 *     distinct nodes that match it, can start now, are not excluded;
 *     every required node is used; contiguous jobs get consecutive nodes;
 *   - NEVER iff no assignment exists with every node idle;
 *   - RUN iff an assignment exists now;
 *   - the bucket path (when eligible) and the per-node path agree.
 * Placed jobs are committed through sb_bucket_set_update() and the set's
 * invariant checker runs after every mutation.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bucket.h"
#include "node.h"
#include "place.h"
#include "policy.h"
#include "sb_test.h"

#define REQ(e) SB_REQ_CASE(e, _case)

static unsigned long _case;

#define MAXN 7

typedef struct {
	const sb_node_t *nodes;
	size_t n;
	const sb_request_t *r;
	const sb_feat_expr_t *match;
	int64_t now, end;
	int contiguous;
	int now_only;
	uint64_t mask[MAXN];
	int avail[MAXN];
	int assign[MAXN];		/* -1 unused, else chunk */
	uint64_t need[8];
} _oracle_t;

static int _contig_ok(const _oracle_t *o)
{
	size_t i, first = MAXN, last = 0, used = 0;

	for (i = 0; i < o->n; i++)
		if (o->assign[i] >= 0) {
			if (first == MAXN)
				first = i;
			last = i;
			used++;
		}
	return !used || last - first + 1 == used;
}

static int _dfs(_oracle_t *o, size_t i)
{
	size_t c;
	int req;

	if (i == o->n) {
		for (c = 0; c < o->r->nchunks; c++)
			if (o->need[c])
				return 0;
		return !o->contiguous || _contig_ok(o);
	}
	req = o->r->required && sb_bitmap_test(o->r->required, i) == 1;
	if (!req) {
		o->assign[i] = -1;
		if (_dfs(o, i + 1))
			return 1;
	}
	if (o->now_only && !o->avail[i])
		return 0;
	for (c = 0; c < o->r->nchunks; c++)
		if ((o->mask[i] >> c & 1) && o->need[c]) {
			o->need[c]--;
			o->assign[i] = (int) c;
			if (_dfs(o, i + 1)) {
				o->need[c]++;
				return 1;
			}
			o->need[c]++;
		}
	o->assign[i] = -1;
	return 0;
}

/* Does an assignment exist (now_only: with nodes usable now)? */
static int _oracle(const sb_node_t *nodes, size_t n, const sb_request_t *r,
		   const sb_feat_expr_t *match, int contiguous, int now_only)
{
	_oracle_t o;
	size_t i, c;
	int64_t next;
	sb_pool_t pool;

	memset(&o, 0, sizeof(o));
	o.nodes = nodes;
	o.n = n;
	o.r = r;
	o.match = match;
	o.end = sb_time_add(0, r->time_limit);
	o.contiguous = contiguous;
	o.now_only = now_only;
	for (i = 0; i < n; i++) {
		if (!(r->excluded && sb_bitmap_test(r->excluded, i) == 1))
			for (c = 0; c < r->nchunks; c++)
				if (sb_chunk_match(&nodes[i], r, &r->chunks[c],
						   match))
					o.mask[i] |= UINT64_C(1) << c;
		pool = sb_node_pool(&nodes[i], 0, &next);
		o.avail[i] = pool == SB_POOL_FREE ||
			     (pool == SB_POOL_LATER && next >= o.end);
	}
	for (c = 0; c < r->nchunks; c++)
		o.need[c] = r->chunks[c].count;
	/* A node that can serve nothing is simply unused by _dfs. */
	return _dfs(&o, 0);
}

static const char *const _feats[] = { "a", "b", "c" };
static const char *const _exprs[] = {
	"a", "b", "c", "a|b", "a&c", "(a|b)&c", "b|c", "a&b&c",
};

static void _random_node(sb_test_rng_t *g, sb_node_t *nd, size_t i)
{
	static const uint32_t cpus[] = { 1, 2, 4 };
	char name[16];
	size_t k;

	snprintf(name, sizeof(name), "n%zu", i);
	REQ(sb_node_init(nd, (uint32_t) i, name) == 0);
	/* Few shapes, so several nodes share a bucket. */
	nd->cpus = cpus[sb_test_rng_below(g, 3)];
	nd->real_memory = 1000 * (1 + sb_test_rng_below(g, 2));
	nd->weight = (uint32_t) (1 + sb_test_rng_below(g, 2));
	nd->speed = (double) (1 + sb_test_rng_below(g, 2));
	for (k = 0; k < 3; k++)
		if (sb_test_rng_below(g, 2))
			REQ(sb_node_add_feature(nd, _feats[k]) == 0);
	if (sb_test_rng_below(g, 4) == 0)
		REQ(sb_node_add_gres(nd, "gpu", 1 +
				     sb_test_rng_below(g, 2)) == 0);
	if (sb_test_rng_below(g, 4) == 0)
		REQ(sb_node_add_partition(nd, "p") == 0);
	switch (sb_test_rng_below(g, 20)) {
	case 0:
		nd->state = SB_NODE_ALLOCATED;
		nd->run_jobs = 1;
		break;
	case 1:
		nd->state = SB_NODE_DOWN;
		break;
	case 2:
		nd->state = SB_NODE_DRAINED;
		break;
	case 3:
		nd->state = SB_NODE_POWERED_DOWN;
		break;
	default:
		break;
	}
	nd->load = (double) sb_test_rng_below(g, 3);
	/* Busy windows: some cover now, most start later. */
	for (k = sb_test_rng_below(g, 4) / 2; k > 0; k--) {
		int64_t s = sb_test_rng_range(g, -20, 120);

		REQ(sb_node_add_busy(nd, s, s + sb_test_rng_range(g, 1, 50))
		    == 0);
	}
	REQ(sb_node_check(nd) == 0);
}

static sb_feat_expr_t *_expr(const char *s)
{
	sb_feat_expr_t *e = sb_feat_expr_parse(s, NULL, NULL);

	REQ(e != NULL);
	return e;
}

static void _random_request(sb_test_rng_t *g, size_t n, sb_request_t *r)
{
	size_t c, nc = 1 + sb_test_rng_below(g, 7) / 3, i;
	static const int64_t limits[] = { 10, 50, 100, SB_TIME_INFINITE };

	sb_request_init(r);
	for (c = 0; c < nc; c++) {
		sb_chunk_t *ch = sb_request_add_chunk(r, (uint32_t)
			(1 + sb_test_rng_below(g, c ? 2 : 3)));

		REQ(ch);
		ch->min_cpus = (uint32_t) sb_test_rng_below(g, 3);
		ch->min_memory = 1000 * (sb_test_rng_below(g, 4) / 2);
		if (sb_test_rng_below(g, 3) < (nc > 1 ? 2 : 1))
			ch->features = _expr(_exprs[sb_test_rng_below(
				g, sizeof(_exprs) / sizeof(_exprs[0]))]);
		if (sb_test_rng_below(g, 10) == 0) {
			ch->gres = calloc(1, sizeof(*ch->gres));
			ch->gres->name = strdup("gpu");
			ch->gres->count = 1 + sb_test_rng_below(g, 2);
			ch->ngres = 1;
		}
	}
	if (sb_test_rng_below(g, 8) == 0) {
		r->nmatch = 2;
		r->match = calloc(2, sizeof(*r->match));
		r->match[0] = _expr("a");
		r->match[1] = _expr("b");
	}
	if (sb_test_rng_below(g, 10) == 0)
		r->partition = strdup("p");
	r->time_limit = limits[sb_test_rng_below(g, 4)];
	r->exclusive = sb_test_rng_below(g, 10) < 7;
	r->contiguous = sb_test_rng_below(g, 10) == 0;
	if (sb_test_rng_below(g, 6) == 0) {
		r->required = sb_bitmap_alloc(n);
		for (i = 0; i < n; i++)
			if (sb_test_rng_below(g, 4) == 0)
				sb_bitmap_set(r->required, i);
	}
	if (sb_test_rng_below(g, 6) == 0) {
		r->excluded = sb_bitmap_alloc(n);
		for (i = 0; i < n; i++)
			if (sb_test_rng_below(g, 4) == 0 &&
			    !(r->required && sb_bitmap_test(r->required, i)))
				sb_bitmap_set(r->excluded, i);
	}
	/*
	 * Preferences (issue 18) only order nodes: the oracle, which knows
	 * nothing of them, must still agree on RUN / WAIT / NEVER.
	 */
	if (sb_test_rng_below(g, 3) == 0)
		REQ(sb_request_add_prefer_list(r, sb_test_rng_below(g, 2) ?
					       "a" : "c,b", NULL) == 0);
	REQ(sb_request_check(r, n) == 0);
}

static void _random_policy(sb_test_rng_t *g, sb_policy_t *p)
{
	static const char *const pfs[] = {
		"SPEED", "-CPROCS+0.001*CMEM", "WEIGHT-SPEED", "-LOAD",
		"JOBCOUNT+APROCS", "10*APROCS-LOAD-JOBCOUNT", "5*PREF-LOAD",
		"-2*PREF+SPEED",
	};
	int k = (int) sb_test_rng_below(g, SB_POLICY_COUNT);

	REQ(sb_policy_init(p, sb_policy_name((sb_policy_kind_t) k),
			   k == SB_POLICY_PRIORITY ?
			   pfs[sb_test_rng_below(g, 8)] : NULL, NULL, NULL)
	    == 0);
}

/* Check one placement against the oracle and the validity rules. */
/* @ideal: a sb_place_ideal() answer (every node idle, no windows). */
static void _verify(const sb_node_t *nodes, size_t n, const sb_request_t *r,
		    const sb_policy_t *p, const sb_placement_t *pl,
		    int ideal)
{
	int contiguous = r->contiguous || p->kind == SB_POLICY_CONTIGUOUS;
	size_t v, nvar = r->nmatch ? r->nmatch : 1, c, i;
	int any = 0, now = 0, seen[MAXN] = { 0 };
	int64_t end = sb_time_add(0, r->time_limit), next, first = -1;
	int64_t last = -1, used = 0;
	const sb_feat_expr_t *m;
	sb_pool_t pool;

	for (v = 0; v < nvar; v++) {
		m = r->nmatch ? r->match[v] : NULL;
		any |= _oracle(nodes, n, r, m, contiguous, 0);
		now |= _oracle(nodes, n, r, m, contiguous, 1);
	}
	if (ideal)
		now = any;
	REQ((pl->result == SB_PLACE_NEVER) == !any);
	REQ((pl->result == SB_PLACE_RUN) == now);
	if (pl->result != SB_PLACE_RUN) {
		REQ(pl->nodes == NULL);
		return;
	}
	m = r->nmatch ? r->match[pl->variant] : NULL;
	REQ(pl->nchunks == r->nchunks);
	for (c = 0; c < r->nchunks; c++) {
		REQ(sb_bitmap_check(pl->nodes[c]) == 0);
		REQ(sb_bitmap_count(pl->nodes[c]) == r->chunks[c].count);
		for (i = 0; i < n; i++) {
			if (sb_bitmap_test(pl->nodes[c], i) != 1)
				continue;
			REQ(!seen[i]);
			seen[i] = 1;
			REQ(sb_chunk_match(&nodes[i], r, &r->chunks[c], m));
			REQ(!(r->excluded && sb_bitmap_test(r->excluded, i)));
			pool = sb_node_pool(&nodes[i], 0, &next);
			REQ(ideal || pool == SB_POOL_FREE ||
			    (pool == SB_POOL_LATER && next >= end));
		}
	}
	for (i = 0; i < n; i++) {
		if (r->required && sb_bitmap_test(r->required, i) == 1)
			REQ(seen[i]);
		if (seen[i]) {
			if (first < 0)
				first = (int64_t) i;
			last = (int64_t) i;
			used++;
		}
	}
	if (contiguous)
		REQ(last - first + 1 == used);
}

/* The job's nodes become allocated, one O(1) update each. */
static void _commit(sb_bucket_set_t *set, sb_node_t *nodes, size_t n,
		    const sb_placement_t *pl)
{
	size_t c, i;

	for (c = 0; c < pl->nchunks; c++)
		for (i = 0; i < n; i++) {
			if (sb_bitmap_test(pl->nodes[c], i) != 1)
				continue;
			nodes[i].state = SB_NODE_ALLOCATED;
			nodes[i].run_jobs++;
			REQ(sb_bucket_set_update(set, i) == 0);
			REQ(sb_bucket_set_check(set) == 0);
		}
}

START_TEST(test_random_placements)
{
	sb_test_rng_t g;
	unsigned long placements = 0, bucket = 0, run = 0, never = 0;
	sb_node_t nodes[MAXN];
	size_t n, i, j;

	sb_test_rng_seed(&g, 0x91ace0001ULL);
	for (_case = 0; placements < 100000; _case++) {
		sb_bucket_set_t *set;

		n = 2 + sb_test_rng_below(&g, MAXN - 1);
		for (i = 0; i < n; i++)
			_random_node(&g, &nodes[i], i);
		set = sb_bucket_set_create(nodes, n, 0);
		REQ(set && sb_bucket_set_check(set) == 0);
		/* A few jobs in a row; the ones that run are committed. */
		for (j = 0; j < 3; j++) {
			sb_request_t r;
			sb_policy_t p;
			sb_placement_t pa, pn, pb;
			const char *why;

			_random_request(&g, n, &r);
			_random_policy(&g, &p);
			why = sb_place_ineligible(&r, &p);
			REQ(sb_place(set, &r, &p, SB_PATH_AUTO, &pa) == 0);
			REQ(sb_bucket_set_check(set) == 0);
			REQ(pa.bucket_path == (why == NULL));
			REQ(sb_place(set, &r, &p, SB_PATH_NODE, &pn) == 0);
			REQ(!pn.bucket_path && pn.reason);
			_verify(nodes, n, &r, &p, &pa, 0);
			_verify(nodes, n, &r, &p, &pn, 0);
			REQ(pa.result == pn.result);
			/* TEST_ONLY's question, on both paths */
			REQ(sb_place_ideal(set, &r, &p, SB_PATH_AUTO, &pb)
			    == 0);
			REQ(pb.bucket_path == (why == NULL));
			_verify(nodes, n, &r, &p, &pb, 1);
			REQ((pb.result == SB_PLACE_NEVER) ==
			    (pa.result == SB_PLACE_NEVER));
			sb_placement_fini(&pb);
			REQ(sb_place_ideal(set, &r, &p, SB_PATH_NODE, &pb)
			    == 0);
			_verify(nodes, n, &r, &p, &pb, 1);
			sb_placement_fini(&pb);
			REQ(sb_bucket_set_check(set) == 0);
			placements += 2;
			if (!why) {
				REQ(sb_place(set, &r, &p, SB_PATH_BUCKET, &pb)
				    == 0);
				REQ(pb.bucket_path && pb.result == pa.result);
				sb_placement_fini(&pb);
				bucket++;
			} else {
				errno = 0;
				REQ(sb_place(set, &r, &p, SB_PATH_BUCKET, &pb)
				    == -1 && errno == EINVAL);
			}
			run += pa.result == SB_PLACE_RUN;
			never += pa.result == SB_PLACE_NEVER;
			if (pa.result == SB_PLACE_RUN &&
			    sb_test_rng_below(&g, 2)) {
				_commit(set, nodes, n, &pa);
			}
			sb_placement_fini(&pa);
			sb_placement_fini(&pn);
			sb_request_fini(&r);
		}
		sb_bucket_set_destroy(set);
		for (i = 0; i < n; i++)
			sb_node_fini(&nodes[i]);
	}
	/* The mix must exercise every outcome and the bucket path. */
	printf("test_place: %lu placements (%lu bucket-path requests), "
	       "%lu run, %lu never\n", placements, bucket, run, never);
	ck_assert_uint_gt(bucket, 5000);
	ck_assert_uint_gt(run, 5000);
	ck_assert_uint_gt(never, 2500);
	ck_assert_uint_gt(placements / 2 - run - never, 2500);
}
END_TEST

/* The OpenPBS multi-chunk corner: greedy in chunk order fails. */
START_TEST(test_greedy_trap)
{
	sb_node_t nodes[2];
	sb_request_t r;
	sb_policy_t p;
	sb_placement_t pl;
	sb_bucket_set_t *set;
	sb_chunk_t *c;
	char *s;

	sb_node_init(&nodes[0], 0, "n0");
	sb_node_add_feature(&nodes[0], "a");
	sb_node_add_feature(&nodes[0], "b");
	sb_node_init(&nodes[1], 1, "n1");
	sb_node_add_feature(&nodes[1], "b");
	set = sb_bucket_set_create(nodes, 2, 0);
	ck_assert_uint_eq(sb_bucket_set_size(set), 2);
	sb_request_init(&r);
	r.exclusive = true;
	c = sb_request_add_chunk(&r, 1);
	c->features = sb_feat_expr_parse("a|b", NULL, NULL);
	c = sb_request_add_chunk(&r, 1);
	c->features = sb_feat_expr_parse("a", NULL, NULL);
	sb_policy_init(&p, "firstavailable", NULL, NULL, NULL);
	ck_assert_int_eq(sb_place(set, &r, &p, SB_PATH_AUTO, &pl), 0);
	ck_assert(pl.bucket_path);
	ck_assert_int_eq(pl.result, SB_PLACE_RUN);
	s = sb_bitmap_fmt(pl.nodes[0]);
	ck_assert_str_eq(s, "1");
	free(s);
	s = sb_bitmap_fmt(pl.nodes[1]);
	ck_assert_str_eq(s, "0");
	free(s);
	sb_placement_fini(&pl);
	ck_assert_int_eq(sb_place(set, &r, &p, SB_PATH_NODE, &pl), 0);
	ck_assert_int_eq(pl.result, SB_PLACE_RUN);
	ck_assert_str_eq(pl.reason, "forced");
	sb_placement_fini(&pl);
	sb_request_fini(&r);
	sb_bucket_set_destroy(set);
	sb_node_fini(&nodes[0]);
	sb_node_fini(&nodes[1]);
}
END_TEST

START_TEST(test_ineligible_reasons)
{
	sb_request_t r;
	sb_policy_t p, last;

	sb_policy_init(&p, "FIRSTAVAILABLE", NULL, NULL, NULL);
	sb_policy_init(&last, "LASTAVAILABLE", NULL, NULL, NULL);
	sb_request_init(&r);
	sb_request_add_chunk(&r, 1);
	ck_assert_str_eq(sb_place_ineligible(&r, &p), "not_exclusive");
	r.exclusive = true;
	ck_assert_ptr_null(sb_place_ineligible(&r, &p));
	r.required = sb_bitmap_alloc(4);
	ck_assert_ptr_null(sb_place_ineligible(&r, &p));
	sb_bitmap_set(r.required, 2);
	ck_assert_str_eq(sb_place_ineligible(&r, &p), "required_nodes");
	sb_bitmap_clear_all(r.required);
	r.contiguous = true;
	ck_assert_str_eq(sb_place_ineligible(&r, &p), "contiguous");
	r.contiguous = false;
	ck_assert_str_eq(sb_place_ineligible(&r, &last), "policy_order");
	sb_request_fini(&r);
	ck_assert_str_eq(sb_place_result_name(SB_PLACE_WAIT), "wait");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("place");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_random_placements);
	tcase_add_test(tc, test_greedy_trap);
	tcase_add_test(tc, test_ineligible_reasons);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
