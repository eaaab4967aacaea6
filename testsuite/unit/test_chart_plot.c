/*
 * test_chart_plot.c - unit tests of the plot (chart_plot.h): hand
 * cases, bad input, and random step series whose drawn columns are
 * checked against each column's mean taken second by second.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart_plot.h"
#include "sb_test.h"

/* Geometry of chart_plot.c that the checks read back. */
#define LEFT 64
#define PLOT_W 720
#define PANEL_H 140
#define TITLE_H 22

/* The points of the first polyline of @svg into x[], y[] (tenths). */
static size_t _points(const char *svg, int64_t *x, int64_t *y, size_t max)
{
	const char *p = strstr(svg, "points=\"");
	size_t n = 0;

	ck_assert_ptr_nonnull(p);
	p += 8;
	while (*p != '"' && n < max) {
		long xi, xf, yi, yf;
		int used;

		ck_assert_int_eq(sscanf(p, "%ld.%ld,%ld.%ld%n", &xi, &xf, &yi,
					&yf, &used), 4);
		x[n] = xi * 10 + xf;
		y[n] = yi * 10 + yf;
		n++;
		p += used;
		if (*p == ' ')
			p++;
	}
	return n;
}

START_TEST(test_hand)
{
	int64_t t[] = { 0, 500 }, v[] = { 2, 4 }, x[PLOT_W], y[PLOT_W];
	sb_plot_series_t s = { "used", t, v, 2 };
	sb_plot_time_t tp = { "utilisation", 4, true, &s, 1 };
	const char *classes[] = { "1", "2", "3-4" }, *names[] = { "A", "B" };
	double bv[] = { 10, 20, -1, 5, 0, 40 };
	sb_plot_bars_t bp = { "wait by size", "min", classes, 3, names, 2,
			      bv };
	sb_plot_opts_t o = { "replay", "a caption", 0, 1000, 0, NULL };
	char *svg = sb_plot_svg(&o, &tp, 1, &bp, 1);
	size_t n;

	ck_assert_ptr_nonnull(svg);
	/* 50 % for the first half, 100 % for the second: one point a
	 * column, the panel's top at 36 + 22 */
	n = _points(svg, x, y, PLOT_W);
	ck_assert_int_eq(n, PLOT_W);
	ck_assert_int_eq(x[0], LEFT * 10 + 5);
	ck_assert_int_eq(y[0], (58 + PANEL_H) * 10 - PANEL_H * 10 / 2);
	ck_assert_int_eq(y[PLOT_W - 1], 58 * 10);
	ck_assert_ptr_nonnull(strstr(svg, ">50%</text>"));
	ck_assert_ptr_nonnull(strstr(svg, ">100%</text>"));
	/* bars: B's bar of class "1" is 5 min; no bar for A's "3-4" */
	ck_assert_ptr_nonnull(strstr(svg, "<title>B, 1: 5 min</title>"));
	ck_assert_ptr_null(strstr(svg, "<title>A, 3-4"));
	ck_assert_ptr_nonnull(strstr(svg, ">40 min</text>"));
	/* two series in the bars: a legend of the time panel's one name is
	 * not drawn */
	ck_assert_ptr_null(strstr(svg, ">used</text>"));
	ck_assert_ptr_nonnull(strstr(svg, ">a caption</text>"));
	free(svg);
	/* the same arguments, the same bytes */
	svg = sb_plot_svg(&o, &tp, 1, &bp, 1);
	ck_assert_ptr_nonnull(svg);
	free(svg);
}
END_TEST

START_TEST(test_bad)
{
	int64_t t[] = { 5, 5 }, v[] = { 1, 2 };
	sb_plot_series_t s = { "x", t, v, 2 };
	sb_plot_time_t tp = { NULL, 4, false, &s, 1 };
	sb_plot_opts_t o = { NULL, NULL, 0, 100, 0, NULL };

	ck_assert_ptr_null(sb_plot_svg(&o, &tp, 1, NULL, 0));	/* 5, 5 */
	ck_assert_int_eq(errno, EINVAL);
	t[1] = 6;
	v[0] = -1;
	ck_assert_ptr_null(sb_plot_svg(&o, &tp, 1, NULL, 0));
	v[0] = 1;
	tp.vmax = -1;
	ck_assert_ptr_null(sb_plot_svg(&o, &tp, 1, NULL, 0));
	tp.vmax = 0;
	tp.percent = true;
	ck_assert_ptr_null(sb_plot_svg(&o, &tp, 1, NULL, 0));
	tp.percent = false;
	free(sb_plot_svg(&o, &tp, 1, NULL, 0));	/* auto */
	tp.vmax = 4;
	o.t1 = 0;
	ck_assert_ptr_null(sb_plot_svg(&o, &tp, 1, NULL, 0));
	o.t1 = 100;
	o.title = "a\nb";
	ck_assert_ptr_null(sb_plot_svg(&o, &tp, 1, NULL, 0));
	o.title = NULL;
	ck_assert_ptr_null(sb_plot_svg(&o, NULL, 0, NULL, 0));
	ck_assert_ptr_null(sb_plot_svg(NULL, &tp, 1, NULL, 0));
	free(sb_plot_svg(&o, &tp, 1, NULL, 0));
}
END_TEST

/* Random series: every drawn column is its stretch's mean. */
START_TEST(test_random_means)
{
	sb_test_rng_t rng;
	unsigned long cs;

	sb_test_rng_seed(&rng, 4711);
	for (cs = 0; cs < 300; cs++) {
		int64_t t[64], v[64], x[PLOT_W], y[PLOT_W], t0, t1, vmax = 0;
		size_t n = 1 + sb_test_rng_below(&rng, 60), i, c, k = 0, np;
		sb_plot_series_t s = { "s", t, v, n };
		sb_plot_time_t tp = { NULL, 1, false, &s, 1 };
		sb_plot_opts_t o = { NULL, NULL, 0, 0, 0, NULL };
		char *svg;

		t[0] = sb_test_rng_range(&rng, 0, 50);
		for (i = 0; i < n; i++) {
			if (i)
				t[i] = t[i - 1] + sb_test_rng_range(&rng, 1,
								    400);
			v[i] = sb_test_rng_range(&rng, 0, 100);
			if (v[i] > vmax)
				vmax = v[i];
		}
		t0 = sb_test_rng_range(&rng, 0, t[0]);
		t1 = t[n - 1] + sb_test_rng_range(&rng, 1, 500);
		o.t0 = t0;
		o.t1 = t1;
		tp.vmax = 100;	/* a multiple of the y step: no rounding up */
		svg = sb_plot_svg(&o, &tp, 1, NULL, 0);
		SB_REQ_CASE(svg != NULL, cs);
		np = _points(svg, x, y, PLOT_W);
		for (c = 0; c < PLOT_W; c++) {
			int64_t a = t0 + (int64_t) c * (t1 - t0) / PLOT_W;
			int64_t z = t0 + (int64_t) (c + 1) * (t1 - t0) / PLOT_W;
			double sum = 0;
			int64_t cov = 0, u, want;
			size_t j = 0;

			if (z <= a)
				z = a + 1;
			for (u = a; u < z; u++) {
				while (j + 1 < n && t[j + 1] <= u)
					j++;
				if (u < t[0])
					continue;
				sum += (double) v[j];
				cov++;
			}
			if (!cov)
				continue;
			/* no title: the panel's top at 8 + TITLE_H */
			want = (8 + TITLE_H + PANEL_H) * 10 -
				llround(sum / (double) cov / 100.0 *
					PANEL_H * 10);
			SB_REQ_CASE(k < np, cs);
			SB_REQ_CASE(x[k] == LEFT * 10 + (int64_t) c * 10 + 5,
				    cs);
			SB_REQ_CASE(llabs(y[k] - want) <= 1, cs);
			k++;
		}
		SB_REQ_CASE(k == np, cs);
		free(svg);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("chart_plot");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_hand);
	tcase_add_test(tc, test_bad);
	tcase_add_test(tc, test_random_means);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
