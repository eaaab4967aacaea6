/*
 * test_chart.c - unit tests for common/chart (model, layout, numbers,
 * text form, SVG).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The oracle looks at every second of small random charts: a node is
 * busy at t when some job on it covers t; the busy node-seconds, the
 * axis and the lanes a row needs (the most jobs covering one instant)
 * follow from that alone.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "chart_priv.h"
#include "sb_test.h"
#include "sb_time.h"

#define H 3600

static void _add(sb_chart_t *c, const char *label, const char *key,
		 int64_t start, int64_t end, const char *nodes)
{
	char buf[256], *names[16], *save = NULL, *tok;
	size_t n = 0;

	snprintf(buf, sizeof(buf), "%s", nodes);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		names[n++] = tok;
	ck_assert_int_eq(sb_chart_add_job(c, label, key, start, end,
					  (const char *const *) names, n), 0);
	ck_assert_int_eq(sb_chart_check(c), 0);
}

static void _fmt_is(const sb_chart_t *c, const char *want)
{
	char *s = sb_chart_fmt(c);

	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s, want);
	free(s);
}

/* The seed's job mix under FCFS, one job at a time (hours). */
static sb_chart_t *_fcfs(void)
{
	sb_chart_t *c = sb_chart_create();

	ck_assert_ptr_nonnull(c);
	_add(c, "123", "markov", 0, 2 * H, "node1,node2");
	_add(c, "124", "markov", 2 * H, 4 * H, "node1,node2");
	_add(c, "125", "julie", 4 * H, 5 * H, "node1");
	_add(c, "126", "mendle", 5 * H, 9 * H, "node1,node2,node3,node4");
	return c;
}

START_TEST(test_empty)
{
	sb_chart_t *c = sb_chart_create();
	sb_chart_stats_t st;

	ck_assert_int_eq(sb_chart_check(c), 0);
	_fmt_is(c, "");
	errno = 0;
	ck_assert_int_eq(sb_chart_stats(c, &st), -1);
	ck_assert_int_eq(errno, ENOENT);
	errno = 0;
	ck_assert_ptr_null(sb_chart_svg(c, NULL));
	ck_assert_int_eq(errno, ENOENT);
	sb_chart_destroy(c);
	sb_chart_destroy(NULL);
}
END_TEST

START_TEST(test_rows_in_hostlist_order)
{
	sb_chart_t *c = sb_chart_create();
	static const char *const add[] = { "n10", "n9", "login", "n1", "n9",
					   "n01", "fat2" };
	size_t i;

	for (i = 0; i < sizeof(add) / sizeof(add[0]); i++) {
		ck_assert_int_eq(sb_chart_add_node(c, add[i]), 0);
		ck_assert_int_eq(sb_chart_check(c), 0);
	}
	_fmt_is(c, "fat2:- login:- n1:- n9:- n01:- n10:-");
	_add(c, "7", NULL, 5, 9, "n2,n9");
	_fmt_is(c, "fat2:- login:- n1:- n2:7[5,9) n9:7[5,9) n01:- n10:-");
	sb_chart_destroy(c);
}
END_TEST

/* Bad calls fail with EINVAL and change nothing. */
START_TEST(test_bad_calls_change_nothing)
{
	sb_chart_t *c = _fcfs();
	const char *one[] = { "node9" }, *twice[] = { "node9", "node9" };
	const char *ctl[] = { "no\tde" }, *empty[] = { "" };
	char *before = sb_chart_fmt(c);
	struct {
		const char *label, *key;
		int64_t s, e;
		const char *const *names;
		size_t n;
	} bad[] = {
		{ NULL, NULL, 0, 1, one, 1 },
		{ "", NULL, 0, 1, one, 1 },
		{ "j", "", 0, 1, one, 1 },
		{ "j\n", NULL, 0, 1, one, 1 },
		{ "j", NULL, 5, 4, one, 1 },
		{ "j", NULL, 0, 1, one, 0 },
		{ "j", NULL, 0, 1, NULL, 1 },
		{ "j", NULL, 0, 1, twice, 2 },
		{ "j", NULL, 0, 1, ctl, 1 },
		{ "j", NULL, 0, 1, empty, 1 },
		{ "j", NULL, -SB_CHART_TIME_MAX - 1, 1, one, 1 },
		{ "j", NULL, 0, SB_CHART_TIME_MAX + 1, one, 1 },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		ck_assert_msg(sb_chart_add_job(c, bad[i].label, bad[i].key,
					       bad[i].s, bad[i].e,
					       bad[i].names, bad[i].n) == -1,
			      "case %zu", i);
		ck_assert_int_eq(errno, EINVAL);
		ck_assert_int_eq(sb_chart_check(c), 0);
		_fmt_is(c, before);
	}
	errno = 0;
	ck_assert_int_eq(sb_chart_add_node(c, "a b\x7f"), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_chart_add_node(NULL, "x"), -1);
	ck_assert_int_eq(sb_chart_add_job(NULL, "j", NULL, 0, 1, one, 1), -1);
	ck_assert_ptr_null(sb_chart_fmt(NULL));
	ck_assert_int_eq(sb_chart_check(NULL), -1);
	_fmt_is(c, before);
	free(before);
	sb_chart_destroy(c);
}
END_TEST

/* The seed's numbers: FCFS 9 h and 25/36 busy; backfill 7 h, 25/28. */
START_TEST(test_seed_stats)
{
	sb_chart_t *c = _fcfs();
	sb_chart_stats_t st;

	_fmt_is(c, "node1:123[0,7200)+124[7200,14400)+125[14400,18000)+"
		"126[18000,32400) node2:123[0,7200)+124[7200,14400)+"
		"126[18000,32400) node3:126[18000,32400) "
		"node4:126[18000,32400)");
	ck_assert_int_eq(sb_chart_stats(c, &st), 0);
	ck_assert_uint_eq(st.jobs, 4);
	ck_assert_uint_eq(st.nodes, 4);
	ck_assert_uint_eq(st.open, 0);
	ck_assert_int_eq(st.makespan, 9 * H);
	ck_assert_int_eq(st.busy, 25 * H);
	ck_assert_int_eq(st.util_bp, 6944);	/* 25 / 36 */
	sb_chart_destroy(c);

	c = sb_chart_create();
	_add(c, "123", "markov", 0, 2 * H, "node1,node2");
	_add(c, "124", "markov", 0, 2 * H, "node3,node4");
	_add(c, "125", "julie", 2 * H, 3 * H, "node1");
	_add(c, "126", "mendle", 3 * H, 7 * H, "node1,node2,node3,node4");
	ck_assert_int_eq(sb_chart_stats(c, &st), 0);
	ck_assert_int_eq(st.makespan, 7 * H);
	ck_assert_int_eq(st.busy, 25 * H);
	ck_assert_int_eq(st.util_bp, 8929);	/* 25 / 28 = 89.2857% */
	sb_chart_destroy(c);
}
END_TEST

/* Overlapping jobs on one node take lanes; an open end runs to t1. */
START_TEST(test_lanes_and_open_end)
{
	sb_chart_t *c = sb_chart_create();
	sb__chart_layout_t l;
	sb_chart_stats_t st;

	_add(c, "a", "u", 0, 10, "n1");
	_add(c, "b", "u", 5, 15, "n1");
	_add(c, "c", "u", 10, 20, "n1");	/* reuses a's lane */
	_add(c, "d", "v", 12, SB_TIME_INFINITE, "n2");
	_fmt_is(c, "n1:a[0,10)+b[5,15)+c[10,20) n2:d[12,inf)");
	ck_assert_int_eq(sb__chart_layout(c, &l), 0);
	ck_assert_uint_eq(l.nboxes, 4);
	ck_assert_uint_eq(l.lanes[0], 2);
	ck_assert_uint_eq(l.lanes[1], 1);
	ck_assert_uint_eq(l.boxes[0].lane, 0);	/* a */
	ck_assert_uint_eq(l.boxes[1].lane, 1);	/* b */
	ck_assert_uint_eq(l.boxes[2].lane, 0);	/* c */
	ck_assert_int_eq(l.t0, 0);
	ck_assert_int_eq(l.t1, 20);
	sb__chart_layout_fini(&l);
	ck_assert_int_eq(sb_chart_stats(c, &st), 0);
	ck_assert_uint_eq(st.open, 1);
	ck_assert_int_eq(st.makespan, 20);
	ck_assert_int_eq(st.busy, 20 + 8);	/* n1 0-20, n2 12-20 */
	ck_assert_int_eq(st.util_bp, 7000);
	ck_assert_int_eq(st.gaps, 0);
	sb_chart_destroy(c);

	/* Nothing runs anywhere from 10 to 15. */
	c = sb_chart_create();
	_add(c, "a", NULL, 0, 10, "n1");
	_add(c, "b", NULL, 15, 20, "n2");
	ck_assert_int_eq(sb_chart_stats(c, &st), 0);
	ck_assert_int_eq(st.gaps, 5);
	ck_assert_int_eq(st.busy, 15);
	sb_chart_destroy(c);
}
END_TEST

/* Random charts against a second-by-second oracle. */
START_TEST(test_random_vs_oracle)
{
	enum { NODES = 6, T = 60 };
	sb_test_rng_t r;
	int round;

	sb_test_rng_seed(&r, 2026);
	for (round = 0; round < 300; round++) {
		sb_chart_t *c = sb_chart_create();
		int njobs = (int) sb_test_rng_range(&r, 1, 12), i;
		int cover[NODES][T + 1] = { { 0 } };
		int64_t t0 = INT64_MAX, t1 = INT64_MIN, busy = 0, gaps = 0;
		bool used[NODES] = { false };
		sb__chart_layout_t l;
		sb_chart_stats_t st;
		size_t nused = 0, b, k;

		for (i = 0; i < njobs; i++) {
			const char *names[NODES];
			char buf[NODES][8], label[8];
			int64_t s = sb_test_rng_range(&r, 0, T - 10);
			int64_t e = sb_test_rng_below(&r, 8) ?
				s + sb_test_rng_range(&r, 1, 10) :
				SB_TIME_INFINITE;
			int pick = (int) sb_test_rng_below(&r, NODES);
			size_t n = 0;
			int m;

			/* Each node with odds 1/3, and at least one. */
			for (m = 0; m < NODES; m++) {
				if (m != pick && sb_test_rng_below(&r, 3))
					continue;
				snprintf(buf[n], sizeof(buf[n]), "n%d", m + 1);
				names[n] = buf[n];
				n++;
				used[m] = true;
			}
			snprintf(label, sizeof(label), "%d", i);
			ck_assert_int_eq(sb_chart_add_job(c, label,
				i % 2 ? "odd" : "even", s, e, names, n), 0);
			ck_assert_int_eq(sb_chart_check(c), 0);
			if (s < t0)
				t0 = s;
			if (s + 1 > t1)
				t1 = s + 1;
			if (e != SB_TIME_INFINITE && e > t1)
				t1 = e;
		}
		/* The oracle, once the axis is known. */
		ck_assert_int_eq(sb__chart_layout(c, &l), 0);
		ck_assert_int_eq(l.t0, t0);
		ck_assert_int_eq(l.t1, t1);
		for (b = 0; b < l.nboxes; b++) {
			const sb__chart_job_t *j = &c->jobs[l.boxes[b].job];
			int64_t e = sb__chart_end(j, &l), t;
			size_t id = c->order[l.boxes[b].row];
			int node = atoi(c->names[id] + 1) - 1;

			for (t = j->start; t < e; t++)
				cover[node][t]++;
			/* No box of the same row and lane overlaps it. */
			for (k = 0; k < l.nboxes; k++) {
				const sb__chart_job_t *o =
					&c->jobs[l.boxes[k].job];

				if (k == b ||
				    l.boxes[k].row != l.boxes[b].row ||
				    l.boxes[k].lane != l.boxes[b].lane)
					continue;
				ck_assert(o->start >= e ||
					  sb__chart_end(o, &l) <= j->start ||
					  o->start == o->end ||
					  j->start == j->end);
			}
		}
		for (i = 0; i < NODES; i++) {
			int64_t t, most = 1;
			bool found;
			size_t row;

			nused += used[i];
			if (!used[i])
				continue;
			for (t = t0; t < t1; t++) {
				busy += cover[i][t] > 0;
				if (cover[i][t] > most)
					most = cover[i][t];
			}
			/* Greedy lanes are optimal: as many as the most
			 * jobs at one instant. */
			for (row = 0; row < c->nnodes; row++) {
				found = atoi(c->names[c->order[row]] + 1) ==
					i + 1;
				if (found)
					break;
			}
			ck_assert(found);
			ck_assert_int_eq((int64_t) l.lanes[row], most);
		}
		for (i = 0; i < T + 1; i++) {
			int m, any = 0;

			for (m = 0; m < NODES; m++)
				any |= cover[m][i] > 0;
			gaps += i >= t0 && i < t1 && !any;
		}
		sb__chart_layout_fini(&l);
		ck_assert_int_eq(sb_chart_stats(c, &st), 0);
		ck_assert_uint_eq(st.nodes, nused);
		ck_assert_int_eq(st.gaps, gaps);
		ck_assert_int_eq(st.makespan, t1 - t0);
		ck_assert_int_eq(st.busy, busy);
		ck_assert_int_eq(st.util_bp, (busy * 20000 +
			(int64_t) nused * (t1 - t0)) /
			(2 * (int64_t) nused * (t1 - t0)));
		sb_chart_destroy(c);
	}
}
END_TEST

static size_t _count(const char *s, const char *what)
{
	size_t n = 0;

	for (; (s = strstr(s, what)); s++)
		n++;
	return n;
}

START_TEST(test_svg_content)
{
	sb_chart_t *c = _fcfs();
	sb_chart_opts_t o = { .title = "FCFS <one> & \"all\"",
			      .caption = "t = 0", .summary = true,
			      .legend = true, .unit = H, .unit_name = "h" };
	char *svg = sb_chart_svg(c, &o), *again;

	ck_assert_ptr_nonnull(svg);
	ck_assert(!strncmp(svg, "<?xml", 5));
	ck_assert_ptr_nonnull(strstr(svg, "</svg>\n"));
	ck_assert_ptr_nonnull(strstr(svg,
		"FCFS &lt;one&gt; &amp; &quot;all&quot;"));
	/* 9 boxes, each with a tooltip; 3 legend swatches. */
	ck_assert_uint_eq(_count(svg, "<title>"), 9);
	ck_assert_uint_eq(_count(svg, "width=\"12\" height=\"12\""), 3);
	ck_assert_ptr_nonnull(strstr(svg, "<title>126 (mendle) on node4: "
				     "5h to 9h</title>"));
	ck_assert_ptr_nonnull(strstr(svg, ">9h</text>"));
	ck_assert_ptr_nonnull(strstr(svg, "t = 0; 4 jobs on 4 nodes, "
				     "makespan 9h, utilisation 69.44%"));
	/* Same chart, same bytes. */
	again = sb_chart_svg(c, &o);
	ck_assert_str_eq(svg, again);
	free(again);
	free(svg);
	o.unit = -1;
	errno = 0;
	ck_assert_ptr_null(sb_chart_svg(c, &o));
	ck_assert_int_eq(errno, EINVAL);
	sb_chart_destroy(c);
}
END_TEST

/* Does the box whose tooltip starts with @title have colour @fill? */
static bool _fill_of(const char *svg, const char *title, const char *fill)
{
	char want[64], *end;
	const char *box;

	snprintf(want, sizeof(want), "<title>%s", title);
	if (!(box = strstr(svg, want)) || !(end = strstr(box, "</g>")))
		return false;
	snprintf(want, sizeof(want), "fill=\"%s\"", fill);
	box = strstr(box, want);
	return box && box < end;
}

/* Colours follow the sorted keys, not the order jobs were added in. */
START_TEST(test_colours_stable)
{
	sb_chart_t *a = sb_chart_create(), *b = sb_chart_create();
	char *sa, *sb;

	_add(a, "1", "zed", 0, 10, "n1");
	_add(a, "2", "amy", 10, 20, "n2");
	_add(b, "2", "amy", 10, 20, "n2");
	_add(b, "1", "zed", 0, 10, "n1");
	sa = sb_chart_svg(a, NULL);
	sb = sb_chart_svg(b, NULL);
	ck_assert_str_eq(sa, sb);
	/* amy sorts first: the first colour; zed the second. */
	ck_assert(_fill_of(sa, "2 (amy)", "#a6cee3"));
	ck_assert(_fill_of(sa, "1 (zed)", "#fdbf6f"));
	free(sa);
	free(sb);
	sb_chart_destroy(a);
	sb_chart_destroy(b);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("chart");
	TCase *tc = tcase_create("chart");

	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_rows_in_hostlist_order);
	tcase_add_test(tc, test_bad_calls_change_nothing);
	tcase_add_test(tc, test_seed_stats);
	tcase_add_test(tc, test_lanes_and_open_end);
	tcase_add_test(tc, test_random_vs_oracle);
	tcase_add_test(tc, test_svg_content);
	tcase_add_test(tc, test_colours_stable);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
