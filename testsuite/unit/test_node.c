/*
 * test_node.c - node model, feature expressions, signatures, hostlists.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostlist_fmt.h"
#include "node.h"
#include "node_feature.h"
#include "signature.h"
#include "sb_test.h"

#define REQ(e) SB_REQ(e)

START_TEST(test_feature_expr)
{
	static const struct {
		const char *in, *canon;
	} ok[] = {
		{ "a", "a" },
		{ "a&b", "a&b" },
		{ "a|b&c", "a|b&c" },
		{ "(a|b)&c", "(a|b)&c" },
		{ "((a))", "a" },
		{ "a&(b&c)", "a&b&c" },
		{ "x86_64.v2&gpu:a100", "x86_64.v2&gpu:a100" },
	};
	static const struct {
		const char *in;
		size_t pos;
	} bad[] = {
		{ "", 0 }, { "&a", 0 }, { "a&", 2 }, { "a||b", 2 },
		{ "(a", 2 }, { "a)", 1 }, { "a b", 1 }, { "a&[b]", 2 },
		{ "a*2", 1 },
	};
	char *feat[] = { "a", "c" };	/* sorted */
	size_t i, pos;
	const char *msg;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		sb_feat_expr_t *e = sb_feat_expr_parse(ok[i].in, NULL, NULL);
		sb_feat_expr_t *d;
		char *s;

		ck_assert_msg(e != NULL, "parse %s", ok[i].in);
		s = sb_feat_expr_fmt(e);
		ck_assert_str_eq(s, ok[i].canon);
		d = sb_feat_expr_dup(e);
		free(s);
		s = sb_feat_expr_fmt(d);
		ck_assert_str_eq(s, ok[i].canon);
		free(s);
		sb_feat_expr_free(e);
		sb_feat_expr_free(d);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		pos = 99;
		msg = NULL;
		errno = 0;
		ck_assert_ptr_null(sb_feat_expr_parse(bad[i].in, &pos, &msg));
		ck_assert_int_eq(errno, EINVAL);
		ck_assert_msg(pos == bad[i].pos, "'%s': pos %zu want %zu",
			      bad[i].in, pos, bad[i].pos);
		ck_assert_ptr_nonnull(msg);
	}
	{
		static const struct {
			const char *e;
			int want;
		} ev[] = {
			{ "a", 1 }, { "b", 0 }, { "a&c", 1 }, { "a&b", 0 },
			{ "b|c", 1 }, { "(b|a)&c", 1 }, { "b|b&a", 0 },
		};

		for (i = 0; i < sizeof(ev) / sizeof(ev[0]); i++) {
			sb_feat_expr_t *e = sb_feat_expr_parse(ev[i].e, NULL,
							       NULL);

			ck_assert_int_eq(sb_feat_expr_eval(e, feat, 2),
					 ev[i].want);
			ck_assert_int_eq(sb_feat_expr_eval(e, NULL, 0), 0);
			sb_feat_expr_free(e);
		}
		ck_assert_int_eq(sb_feat_expr_eval(NULL, feat, 2), 1);
	}
}
END_TEST

/*
 * Nesting and length are bounded: the parser and the tree walks are
 * recursive, and a jobs file line of a million '(' (or 'a&a&...')
 * used to overflow the stack.
 */
START_TEST(test_feature_limits)
{
	size_t n = 1000000, i, pos;
	char *s = malloc(2 * n + 2);
	const char *msg;
	sb_feat_expr_t *e;
	sb_constraint_t *c;

	ck_assert_ptr_nonnull(s);
	/* At the limits: accepted. */
	for (i = 0; i < SB_FEAT_DEPTH_MAX; i++)
		s[i] = '(';
	s[i++] = 'a';
	for (; i < 2 * SB_FEAT_DEPTH_MAX + 1; i++)
		s[i] = ')';
	s[i] = '\0';
	ck_assert_ptr_nonnull(e = sb_feat_expr_parse(s, NULL, NULL));
	sb_feat_expr_free(e);
	for (i = 0; i < 2 * SB_FEAT_TERMS_MAX - 1; i++)
		s[i] = i % 2 ? '&' : 'a';
	s[i] = '\0';
	ck_assert_ptr_nonnull(e = sb_feat_expr_parse(s, NULL, NULL));
	sb_feat_expr_free(e);
	/* One more: refused where it goes over. */
	s[i++] = '|';
	s[i++] = 'b';
	s[i] = '\0';
	ck_assert_ptr_null(sb_feat_expr_parse(s, &pos, &msg));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_uint_eq(pos, 2 * SB_FEAT_TERMS_MAX);
	ck_assert_str_eq(msg, "too many feature names");
	memset(s, '(', n);
	s[n] = '\0';
	ck_assert_ptr_null(sb_feat_expr_parse(s, &pos, &msg));
	ck_assert_uint_eq(pos, SB_FEAT_DEPTH_MAX);
	ck_assert_str_eq(msg, "parentheses nested too deeply");
	for (i = 0; i < 2 * n - 1; i++)
		s[i] = i % 2 ? '|' : 'a';
	s[i] = '\0';
	ck_assert_ptr_null(sb_feat_expr_parse(s, &pos, &msg));
	s[0] = '[';
	ck_assert_ptr_null(c = sb_constraint_parse(s, &pos, &msg));
	ck_assert_int_eq(errno, EINVAL);
	for (i = 0; i < 2 * n - 1; i++)
		s[i] = i % 2 ? '&' : 'a';
	s[1] = '*';
	s[i] = '\0';
	ck_assert_ptr_null(c = sb_constraint_parse(s, &pos, &msg));
	free(s);
}
END_TEST

START_TEST(test_constraint_forms)
{
	sb_constraint_t *c;
	size_t pos;
	const char *msg;
	char *s;

	c = sb_constraint_parse("a&(b|c)", NULL, NULL);
	ck_assert_int_eq(c->kind, SB_CONS_PLAIN);
	ck_assert_uint_eq(c->n, 1);
	sb_constraint_free(c);

	c = sb_constraint_parse("[fat*2&thin*4]", NULL, NULL);
	ck_assert_int_eq(c->kind, SB_CONS_COUNTS);
	ck_assert_uint_eq(c->n, 2);
	ck_assert_uint_eq(c->counts[0], 2);
	ck_assert_uint_eq(c->counts[1], 4);
	s = sb_feat_expr_fmt(c->exprs[1]);
	ck_assert_str_eq(s, "thin");
	free(s);
	sb_constraint_free(c);

	c = sb_constraint_parse("gpu*4", NULL, NULL);
	ck_assert_int_eq(c->kind, SB_CONS_COUNTS);
	ck_assert_uint_eq(c->counts[0], 4);
	sb_constraint_free(c);

	c = sb_constraint_parse("[(a|b)*1&c*3]", NULL, NULL);
	ck_assert_int_eq(c->kind, SB_CONS_COUNTS);
	s = sb_feat_expr_fmt(c->exprs[0]);
	ck_assert_str_eq(s, "a|b");
	free(s);
	sb_constraint_free(c);

	c = sb_constraint_parse("[rack1|rack2|rack3]", NULL, NULL);
	ck_assert_int_eq(c->kind, SB_CONS_MATCHING);
	ck_assert_uint_eq(c->n, 3);
	ck_assert_ptr_null(c->counts);
	sb_constraint_free(c);

	c = sb_constraint_parse("[a&b|c]", NULL, NULL);
	ck_assert_int_eq(c->kind, SB_CONS_MATCHING);
	s = sb_feat_expr_fmt(c->exprs[0]);
	ck_assert_str_eq(s, "a&b");
	free(s);
	sb_constraint_free(c);

	{
		static const struct {
			const char *in;
			int err;
			size_t pos;
		} bad[] = {
			{ "", EINVAL, 0 },
			{ "[a|b", EINVAL, 4 },
			{ "[a*2&b]", EINVAL, 6 },
			{ "[a*0]", ERANGE, 3 },
			{ "[a*]", EINVAL, 3 },
			{ "a*99999999999", ERANGE, 2 },
			{ "[a*2|b*2]", EINVAL, 4 },
			{ "[a]x", EINVAL, 3 },
			{ "a*2*3", EINVAL, 3 },
		};
		size_t i;

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			pos = 99;
			errno = 0;
			ck_assert_ptr_null(sb_constraint_parse(bad[i].in, &pos,
							       &msg));
			ck_assert_msg(errno == bad[i].err, "'%s': errno %d",
				      bad[i].in, errno);
			ck_assert_msg(pos == bad[i].pos, "'%s': pos %zu want "
				      "%zu", bad[i].in, pos, bad[i].pos);
		}
	}
}
END_TEST

START_TEST(test_node_model)
{
	sb_node_t n;
	sb_gres_t g;
	int64_t next;

	ck_assert_int_eq(sb_node_init(&n, 3, "n3"), 0);
	ck_assert_int_eq(sb_node_check(&n), 0);
	ck_assert_uint_eq(n.cpus, 1);
	ck_assert_uint_eq(n.weight, 1);
	sb_node_add_feature(&n, "yellow");
	sb_node_add_feature(&n, "circle");
	sb_node_add_feature(&n, "yellow");
	ck_assert_uint_eq(n.nfeatures, 2);
	ck_assert_str_eq(n.features[0], "circle");
	ck_assert_int_eq(sb_node_add_feature(&n, ""), -1);
	sb_node_add_gres(&n, "gpu", 2);
	sb_node_add_gres(&n, "fpga", 1);
	sb_node_add_gres(&n, "gpu", 4);
	ck_assert_uint_eq(n.ngres, 2);
	ck_assert_str_eq(n.gres[1].name, "gpu");
	ck_assert_uint_eq(n.gres[1].count, 4);
	sb_node_add_partition(&n, "batch");
	ck_assert_int_eq(sb_node_check(&n), 0);

	/* Busy windows merge when they overlap or touch. */
	ck_assert_int_eq(sb_node_add_busy(&n, 100, 200), 0);
	ck_assert_int_eq(sb_node_add_busy(&n, 300, 400), 0);
	ck_assert_int_eq(sb_node_add_busy(&n, 10, 20), 0);
	ck_assert_uint_eq(n.nbusy, 3);
	ck_assert_int_eq(sb_node_add_busy(&n, 200, 300), 0);
	ck_assert_uint_eq(n.nbusy, 2);
	ck_assert_int_eq(n.busy[1].start, 100);
	ck_assert_int_eq(n.busy[1].end, 400);
	ck_assert_int_eq(sb_node_add_busy(&n, 5, 500), 0);
	ck_assert_uint_eq(n.nbusy, 1);
	ck_assert_int_eq(sb_node_add_busy(&n, 5, 5), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_node_check(&n), 0);

	/* Pools. */
	ck_assert_int_eq(sb_node_pool(&n, 0, &next), SB_POOL_LATER);
	ck_assert_int_eq(next, 5);
	ck_assert_int_eq(sb_node_pool(&n, 5, &next), SB_POOL_BUSY);
	ck_assert_int_eq(sb_node_pool(&n, 499, NULL), SB_POOL_BUSY);
	ck_assert_int_eq(sb_node_pool(&n, 500, &next), SB_POOL_FREE);
	ck_assert_int_eq(next, SB_TIME_INFINITE);
	n.state = SB_NODE_POWERED_DOWN;
	ck_assert_int_eq(sb_node_pool(&n, 600, NULL), SB_POOL_FREE);
	n.state = SB_NODE_DRAINED;
	ck_assert_int_eq(sb_node_pool(&n, 600, NULL), SB_POOL_BUSY);
	n.state = SB_NODE_IDLE;
	n.run_jobs = 1;
	ck_assert_int_eq(sb_node_pool(&n, 600, NULL), SB_POOL_BUSY);
	sb_node_fini(&n);
	sb_node_fini(NULL);

	ck_assert_int_eq(sb_time_add(10, SB_TIME_INFINITE), SB_TIME_INFINITE);
	ck_assert_int_eq(sb_time_add(INT64_MAX - 5, 10), SB_TIME_INFINITE);
	ck_assert_int_eq(sb_time_add(10, 20), 30);

	ck_assert_int_eq(sb_gres_parse("gpu:2", &g), 0);
	ck_assert_str_eq(g.name, "gpu");
	ck_assert_uint_eq(g.count, 2);
	free(g.name);
	ck_assert_int_eq(sb_gres_parse("gpu:a100:3", &g), 0);
	ck_assert_str_eq(g.name, "gpu:a100");
	ck_assert_uint_eq(g.count, 3);
	free(g.name);
	ck_assert_int_eq(sb_gres_parse("gpu:a100", &g), 0);
	ck_assert_str_eq(g.name, "gpu:a100");
	ck_assert_uint_eq(g.count, 1);
	free(g.name);
	ck_assert_int_eq(sb_gres_parse("gpu:0", &g), -1);
	ck_assert_int_eq(sb_gres_parse("gpu:", &g), -1);
	ck_assert_int_eq(sb_gres_parse(":2", &g), -1);
	ck_assert_int_eq(sb_gres_parse("gpu:2x", &g), -1);
}
END_TEST

/* Random windows against an interval oracle over a small time line. */
START_TEST(test_busy_random)
{
	sb_test_rng_t r;
	int t, k, busy[64];
	int64_t next;

	sb_test_rng_seed(&r, 77);
	for (t = 0; t < 3000; t++) {
		sb_node_t n;

		sb_node_init(&n, 0, "x");
		memset(busy, 0, sizeof(busy));
		for (k = (int) sb_test_rng_below(&r, 6); k > 0; k--) {
			int s = (int) sb_test_rng_below(&r, 60);
			int e = s + 1 + (int) sb_test_rng_below(&r, 4);
			int q;

			REQ(sb_node_add_busy(&n, s, e) == 0);
			REQ(sb_node_check(&n) == 0);
			for (q = s; q < e; q++)
				busy[q] = 1;
		}
		for (k = 0; k < 64; k++) {
			int q, want_next = -1;
			sb_pool_t p = sb_node_pool(&n, k, &next);

			for (q = k + 1; q < 64 && want_next < 0; q++)
				if (busy[q])
					want_next = q;
			if (busy[k])
				REQ(p == SB_POOL_BUSY);
			else if (want_next >= 0)
				REQ(p == SB_POOL_LATER && next == want_next);
			else
				REQ(p == SB_POOL_FREE);
		}
		sb_node_fini(&n);
	}
}
END_TEST

/* Issue 18: preferred features, their list syntax and the PREF count. */
START_TEST(test_prefer)
{
	static const struct {
		const char *in;
		size_t pos;
	} bad[] = {
		{ "", 0 }, { ",", 0 }, { "fast,", 5 }, { "fast,,ssd", 5 },
		{ "fast ssd", 4 }, { "fa$t", 2 }, { "a|b", 1 },
	};
	sb_request_t r;
	sb_node_t n;
	size_t i, pos;
	char list[SB_MAX_PREFER * 4 + 8];

	sb_request_init(&r);
	ck_assert_int_eq(sb_request_add_prefer_list(&r, "ssd,fast,ssd", &pos),
			 0);
	ck_assert_uint_eq(r.nprefer, 2);
	ck_assert_str_eq(r.prefer[0], "fast");
	ck_assert_str_eq(r.prefer[1], "ssd");
	ck_assert_ptr_nonnull(sb_request_add_chunk(&r, 1));
	ck_assert_int_eq(sb_request_check(&r, 0), 0);
	sb_node_init(&n, 0, "n0");
	ck_assert_uint_eq(sb_request_pref(&r, &n), 0);
	sb_node_add_feature(&n, "ssd");
	sb_node_add_feature(&n, "gpu");
	ck_assert_uint_eq(sb_request_pref(&r, &n), 1);
	sb_node_add_feature(&n, "fast");
	ck_assert_uint_eq(sb_request_pref(&r, &n), 2);
	sb_node_fini(&n);
	sb_request_fini(&r);
	ck_assert_uint_eq(r.nprefer, 0);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		sb_request_init(&r);
		pos = 99;
		errno = 0;
		ck_assert_int_eq(sb_request_add_prefer_list(&r, bad[i].in,
							    &pos), -1);
		ck_assert_int_eq(errno, EINVAL);
		ck_assert_msg(pos == bad[i].pos, "'%s': pos %zu want %zu",
			      bad[i].in, pos, bad[i].pos);
		sb_request_fini(&r);
	}
	/* SB_MAX_PREFER names, and one more */
	list[0] = '\0';
	for (i = 0; i <= SB_MAX_PREFER; i++)
		sprintf(list + strlen(list), "%sf%zu", i ? "," : "", i);
	sb_request_init(&r);
	errno = 0;
	ck_assert_int_eq(sb_request_add_prefer_list(&r, list, NULL), -1);
	ck_assert_int_eq(errno, E2BIG);
	ck_assert_uint_eq(r.nprefer, 0);
	sb_request_fini(&r);
}
END_TEST

/* A list that fails adds nothing: no part of it is ever applied. */
START_TEST(test_prefer_all_or_none)
{
	static const char *const bad[] = {
		"slow,,fast", "slow,fa$t", "slow,fast,", "zeta,a|b",
	};
	sb_request_t r;
	size_t i, pos;
	char *list;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		sb_request_init(&r);
		ck_assert_int_eq(sb_request_add_prefer_list(&r, bad[i], NULL),
				 -1);
		ck_assert_uint_eq(r.nprefer, 0);
		ck_assert_ptr_null(r.prefer);
		/* nor to what a request already prefers */
		ck_assert_int_eq(sb_request_add_prefer_list(&r, "mid", NULL),
				 0);
		ck_assert_int_eq(sb_request_add_prefer_list(&r, bad[i], NULL),
				 -1);
		ck_assert_uint_eq(r.nprefer, 1);
		ck_assert_str_eq(r.prefer[0], "mid");
		sb_request_fini(&r);
	}
	/* the limit counts the union, and a failing list adds none of it */
	sb_request_init(&r);
	list = calloc(SB_PREFER_LIST_MAX + 2, 1);
	ck_assert_ptr_nonnull(list);
	for (i = 0; i < SB_MAX_PREFER - 1; i++)
		sprintf(list + strlen(list), "%sg%zu", i ? "," : "", i);
	ck_assert_int_eq(sb_request_add_prefer_list(&r, list, NULL), 0);
	ck_assert_uint_eq(r.nprefer, SB_MAX_PREFER - 1);
	ck_assert_int_eq(sb_request_add_prefer_list(&r, "g0,x,y", &pos), -1);
	ck_assert_int_eq(errno, E2BIG);
	ck_assert_uint_eq(pos, 5);
	ck_assert_uint_eq(r.nprefer, SB_MAX_PREFER - 1);
	ck_assert_int_eq(sb_request_add_prefer_list(&r, "g1,x", NULL), 0);
	ck_assert_uint_eq(r.nprefer, SB_MAX_PREFER);
	for (i = 1; i < r.nprefer; i++)
		ck_assert_int_lt(strcmp(r.prefer[i - 1], r.prefer[i]), 0);
	sb_request_fini(&r);
	/* longer than any list that can parse: refused before it is read */
	memset(list, 'a', SB_PREFER_LIST_MAX + 1);
	list[SB_PREFER_LIST_MAX + 1] = '\0';
	sb_request_init(&r);
	ck_assert_int_eq(sb_request_add_prefer_list(&r, list, &pos), -1);
	ck_assert_int_eq(errno, E2BIG);
	ck_assert_uint_eq(pos, SB_PREFER_LIST_MAX);
	ck_assert_uint_eq(r.nprefer, 0);
	/* the longest that can: 64 names of 255 characters */
	for (i = 0; i < SB_MAX_PREFER; i++) {
		memset(list + i * 256, 'a' + (int) (i % 26), 255);
		list[i * 256 + 254] = (char) ('A' + (int) (i / 26));
		list[i * 256 + 255] = ',';
	}
	list[SB_PREFER_LIST_MAX] = '\0';
	ck_assert_int_eq(sb_request_add_prefer_list(&r, list, NULL), 0);
	ck_assert_uint_eq(r.nprefer, SB_MAX_PREFER);
	sb_request_fini(&r);
	free(list);
}
END_TEST

START_TEST(test_chunk_match)
{
	sb_node_t n;
	sb_request_t r;
	sb_chunk_t *c;
	sb_feat_expr_t *m = sb_feat_expr_parse("blue", NULL, NULL);

	sb_node_init(&n, 0, "n0");
	n.cpus = 4;
	n.real_memory = 8000;
	n.tmp_disk = 100;
	sb_node_add_feature(&n, "yellow");
	sb_node_add_gres(&n, "gpu", 2);
	sb_request_init(&r);
	c = sb_request_add_chunk(&r, 1);
	ck_assert_int_eq(sb_chunk_match(&n, &r, c, NULL), 1);
	c->min_cpus = 4;
	c->min_memory = 8000;
	c->min_tmp = 100;
	ck_assert_int_eq(sb_chunk_match(&n, &r, c, NULL), 1);
	c->min_cpus = 5;
	ck_assert_int_eq(sb_chunk_match(&n, &r, c, NULL), 0);
	c->min_cpus = 1;
	c->min_memory = 8001;
	ck_assert_int_eq(sb_chunk_match(&n, &r, c, NULL), 0);
	c->min_memory = 1;
	c->gres = calloc(1, sizeof(*c->gres));
	c->gres->name = strdup("gpu");
	c->gres->count = 3;
	c->ngres = 1;
	ck_assert_int_eq(sb_chunk_match(&n, &r, c, NULL), 0);
	c->gres->count = 2;
	ck_assert_int_eq(sb_chunk_match(&n, &r, c, NULL), 1);
	/* Untyped requests count every type; typed ones only theirs. */
	sb_node_add_gres(&n, "gpu:a100", 2);
	c->gres->count = 4;
	ck_assert_int_eq(sb_chunk_match(&n, &r, c, NULL), 1);
	c->gres->count = 5;
	ck_assert_int_eq(sb_chunk_match(&n, &r, c, NULL), 0);
	free(c->gres->name);
	c->gres->name = strdup("gpu:a100");
	c->gres->count = 2;
	ck_assert_int_eq(sb_chunk_match(&n, &r, c, NULL), 1);
	c->gres->count = 3;
	ck_assert_int_eq(sb_chunk_match(&n, &r, c, NULL), 0);
	sb_node_add_gres(&n, "gpux", 9);
	free(c->gres->name);
	c->gres->name = strdup("gpu");
	c->gres->count = 4;
	ck_assert_int_eq(sb_chunk_match(&n, &r, c, NULL), 1);
	c->gres->count = 5;
	ck_assert_int_eq(sb_chunk_match(&n, &r, c, NULL), 0);
	c->gres->count = 2;
	c->features = sb_feat_expr_parse("yellow|red", NULL, NULL);
	ck_assert_int_eq(sb_chunk_match(&n, &r, c, NULL), 1);
	ck_assert_int_eq(sb_chunk_match(&n, &r, c, m), 0);
	r.partition = strdup("batch");
	ck_assert_int_eq(sb_chunk_match(&n, &r, c, NULL), 0);
	sb_node_add_partition(&n, "batch");
	ck_assert_int_eq(sb_chunk_match(&n, &r, c, NULL), 1);
	ck_assert_int_eq(sb_request_check(&r, 1), 0);
	ck_assert_uint_eq(sb_request_nodes(&r), 1);
	r.required = sb_bitmap_alloc(2);
	ck_assert_int_eq(sb_request_check(&r, 1), -1);
	sb_request_fini(&r);
	sb_request_init(&r);
	ck_assert_int_eq(sb_request_check(&r, 1), -1);
	ck_assert_ptr_null(sb_request_add_chunk(&r, 0));
	sb_request_fini(&r);
	sb_feat_expr_free(m);
	sb_node_fini(&n);
}
END_TEST

START_TEST(test_signature)
{
	sb_node_t a, b;
	char *s;

	sb_node_init(&a, 0, "a");
	sb_node_init(&b, 1, "b");
	ck_assert_int_eq(sb_signature_equal(&a, &b), 1);
	ck_assert(sb_signature_hash(&a) == sb_signature_hash(&b));
	/* Dynamic state is not part of the signature. */
	b.state = SB_NODE_DOWN;
	b.load = 3;
	b.run_jobs = 2;
	sb_node_add_busy(&b, 1, 2);
	ck_assert_int_eq(sb_signature_equal(&a, &b), 1);
	ck_assert(sb_signature_hash(&a) == sb_signature_hash(&b));
	sb_node_add_feature(&a, "ab");
	sb_node_add_feature(&b, "a");
	ck_assert_int_eq(sb_signature_equal(&a, &b), 0);
	sb_node_add_feature(&b, "b");
	ck_assert_int_eq(sb_signature_equal(&a, &b), 0);
	ck_assert(sb_signature_hash(&a) != sb_signature_hash(&b));
	a.weight = 5;
	a.speed = 2.5;
	a.cpus = 2;
	a.sockets = 2;
	sb_node_add_gres(&a, "gpu", 2);
	sb_node_add_partition(&a, "batch");
	s = sb_signature_fmt(&a);
	ck_assert_str_eq(s, "cpus=2(2x1x1) mem=1 tmp=0 weight=5 speed=2.5 "
			 "features=ab gres=gpu:2 partitions=batch");
	free(s);
	sb_node_fini(&a);
	sb_node_fini(&b);
}
END_TEST

START_TEST(test_hostlist)
{
	static const struct {
		const char *in;
		size_t n;
		const char *first, *last, *canon;
	} ok[] = {
		{ "n1", 1, "n1", "n1", "n1" },
		{ "n[1-3,5]", 4, "n1", "n5", "n[1-3,5]" },
		{ "n[2861-2864]", 4, "n2861", "n2864", "n[2861-2864]" },
		{ "n[001-003],login", 4, "n001", "login", "n[001-003],login" },
		{ "r[1-2]n[1-2]", 4, "r1n1", "r2n2", "r1n[1-2],r2n[1-2]" },
		{ "n[9-10]", 2, "n9", "n10", "n[9-10]" },
		{ "a,b,c", 3, "a", "c", "a,b,c" },
		{ "n[0-10009]", 10010, "n0", "n10009", "n[0-10009]" },
	};
	static const struct {
		const char *in;
		size_t pos;
	} bad[] = {
		{ "", 0 }, { "n[1-", 1 }, { "n[3-1]", 2 }, { "n[]", 2 },
		{ "n[1,]", 4 }, { "n1]", 2 }, { "a,,b", 2 }, { "a,", 2 },
		{ "n[x]", 2 }, { "n[1[2]]", 3 },
	};
	size_t i, n, pos;
	char **names, *s;
	const char *msg;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		ck_assert_int_eq(sb_hostlist_expand(ok[i].in, &names, &n,
						    NULL, NULL), 0);
		ck_assert_uint_eq(n, ok[i].n);
		ck_assert_str_eq(names[0], ok[i].first);
		ck_assert_str_eq(names[n - 1], ok[i].last);
		s = sb_hostlist_fmt(names, n);
		ck_assert_str_eq(s, ok[i].canon);
		free(s);
		sb_hostlist_free(names, n);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		pos = 99;
		ck_assert_int_eq(sb_hostlist_expand(bad[i].in, &names, &n,
						    &pos, &msg), -1);
		ck_assert_int_eq(errno, EINVAL);
		ck_assert_msg(pos == bad[i].pos, "'%s': pos %zu want %zu",
			      bad[i].in, pos, bad[i].pos);
	}
	s = sb_hostlist_fmt(NULL, 0);
	ck_assert_str_eq(s, "");
	free(s);
	{
		char *v[] = { "n3", "n1", "n2", "n10", "x", "n4" };

		s = sb_hostlist_fmt(v, 6);
		ck_assert_str_eq(s, "n3,n[1-2,10],x,n4");
		free(s);
	}
}
END_TEST

/*
 * Issue 16, item 7: whatever sb_hostlist_fmt() writes reads back as the
 * same names, numbers of up to SB_HOSTLIST_DIGITS digits included (the
 * parser used to stop at 2^32 while the formatter went on to 18 digits).
 */
START_TEST(test_hostlist_roundtrip)
{
	static const char *const lists[][3] = {
		{ "x100000000000", "x100000000001", NULL },
		{ "n999999999999999998", "n999999999999999999", NULL },
		{ "n000000000000000007", "n000000000000000008", NULL },
		/* 19 digits: the last 18 are the number. */
		{ "n1000000000000000000", "n1000000000000000001", NULL },
		{ "r4294967296n1", "r4294967296n2", "r4294967297n1" },
	};
	char **names, *s;
	size_t i, k, n, want;

	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		for (want = 0; want < 3 && lists[i][want]; want++)
			;
		ck_assert_ptr_nonnull(s = sb_hostlist_fmt(
			(char *const *) lists[i], want));
		ck_assert_msg(!sb_hostlist_expand(s, &names, &n, NULL, NULL),
			      "'%s' does not read back: %s", s,
			      strerror(errno));
		ck_assert_uint_eq(n, want);
		for (k = 0; k < n; k++)
			ck_assert_str_eq(names[k], lists[i][k]);
		sb_hostlist_free(names, n);
		free(s);
	}
	/* One digit more than the formatter ever writes is refused. */
	ck_assert_int_eq(sb_hostlist_expand("n[1000000000000000000]", &names,
					    &n, NULL, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

/*
 * Issue 16, items 2 and 7: the count comes first, from the bracket
 * sizes multiplied, before any name is made. SB_HOSTLIST_MAX is the
 * limit of the whole expression, exactly; a syntax error after a huge
 * range is reported without expanding it (under a memory cap the old
 * code ran out of memory first).
 */
START_TEST(test_hostlist_count)
{
	char **names;
	size_t n, pos;
	const char *msg;

	sb_test_limit_memory((size_t) 256 << 20);
	ck_assert_int_eq(sb_hostlist_count("n[1-10000000]", &n, NULL, NULL),
			 0);
	ck_assert_uint_eq(n, SB_HOSTLIST_MAX);
	ck_assert_int_eq(sb_hostlist_count("r[1-4]n[1-2500000]", &n, NULL,
					   NULL), 0);
	ck_assert_uint_eq(n, SB_HOSTLIST_MAX);
	ck_assert_int_eq(sb_hostlist_count("a[1-5000000],b[1-5000000]", &n,
					   NULL, NULL), 0);
	ck_assert_uint_eq(n, SB_HOSTLIST_MAX);
	ck_assert_int_eq(sb_hostlist_count("n[0-10000000]", &n, NULL, NULL),
			 -1);
	ck_assert_int_eq(errno, E2BIG);
	ck_assert_int_eq(sb_hostlist_count("r[1-5]n[1-2000001]", &n, &pos,
					   &msg), -1);
	ck_assert_int_eq(errno, E2BIG);
	ck_assert_str_eq(msg, "too many names");
	ck_assert_int_eq(sb_hostlist_count("a[1-5000000],b[1-5000000],c",
					   &n, NULL, NULL), -1);
	ck_assert_int_eq(errno, E2BIG);
	/* Saturated, not wrapped: 2^64 names would be 0 names. */
	ck_assert_int_eq(sb_hostlist_count("a[1-65536]b[1-65536]c[1-65536]"
					   "d[1-65536]", &n, NULL, NULL), -1);
	ck_assert_int_eq(errno, E2BIG);
	ck_assert_int_eq(sb_hostlist_count("n[1-3],m[7]", &n, NULL, NULL), 0);
	ck_assert_uint_eq(n, 4);

	/* The same errors from the expansion, found before it. */
	ck_assert_int_eq(sb_hostlist_expand("x_long_enough_to_fill_memory_"
					    "with_names[1-9999999],y[", &names,
					    &n, &pos, &msg), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_uint_eq(pos, 52);
	ck_assert_str_eq(msg, "unbalanced '['");
	ck_assert_int_eq(sb_hostlist_expand("r[1-5]n[1-2000001]", &names, &n,
					    &pos, &msg), -1);
	ck_assert_int_eq(errno, E2BIG);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("node");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_feature_expr);
	tcase_add_test(tc, test_feature_limits);
	tcase_add_test(tc, test_constraint_forms);
	tcase_add_test(tc, test_node_model);
	tcase_add_test(tc, test_busy_random);
	tcase_add_test(tc, test_prefer);
	tcase_add_test(tc, test_prefer_all_or_none);
	tcase_add_test(tc, test_chunk_match);
	tcase_add_test(tc, test_signature);
	tcase_add_test(tc, test_hostlist);
	tcase_add_test(tc, test_hostlist_roundtrip);
	tcase_add_test(tc, test_hostlist_count);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
