/*
 * sbucket_replay_chart.c - 'sbucket replay --chart': the machine's use
 * and the queue over the replay, and the wait by job size, of one
 * configuration or two side by side, drawn by common/time/chart_plot.h
 * in 'sbucket chart's style (sbucket_replay.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart_plot.h"
#include "priority_params.h"
#include "sbucket_replay.h"

#define MAX_CLASSES 48		/* 1, 2, 3-4, ... up to 2^46 units */

static int64_t _units(const sbr_run_t *r)
{
	return r->units;
}

/* Size class of a job of @size units: 0 for 1, 1 for 2, 2 for 3-4... */
static size_t _class(int64_t size)
{
	size_t c = 0;

	while (c + 1 < MAX_CLASSES && (INT64_C(1) << c) < size)
		c++;
	return c;
}

/* The machine's use in tenths of a percent, and the queue, as series. */
static int _series(const sbr_run_t *r, int64_t **used, int64_t **queued)
{
	const sb_replay_series_t *s = &r->series;
	int64_t units = _units(r);
	size_t i;

	*used = malloc((s->n + 1) * sizeof(**used));
	*queued = malloc((s->n + 1) * sizeof(**queued));
	if (!*used || !*queued)
		return -1;
	for (i = 0; i < s->n; i++) {
		(*used)[i] = s->used[i] * 1000 / units;
		(*queued)[i] = (int64_t) s->queued[i];
	}
	return 0;
}

/* "A: easy" for a configuration. */
static void _name(const sbr_run_t *r, const char *tag, char *buf,
		  size_t len)
{
	const sb_replay_conf_t *c = &r->c->rc;

	const char *fs = sb_priority_params_algorithm_name(c->fs_algorithm);

	snprintf(buf, len, "%s%s%s%s%s%s%s", tag,
		 sb_replay_sched_name(c->sched),
		 r->c->nodes_file ? " on nodes" : "",
		 c->prio == SB_REPLAY_MULTIFACTOR ? ", multifactor " : "",
		 c->prio == SB_REPLAY_MULTIFACTOR && fs ? fs : "",
		 c->predict != SB_REPLAY_PREDICT_LIMIT ? ", predicted" : "",
		 c->sjbf ? ", SJBF" : "");
}

int sbr_chart(const sbr_run_t *a, const sbr_run_t *b, FILE *f,
	      const char *file)
{
	const sbr_run_t *run[2] = { a, b };
	size_t n = b ? 2 : 1, i, k, nclasses = 0;
	int64_t *used[2] = { NULL, NULL }, *queued[2] = { NULL, NULL };
	int64_t qmax = 0, t0, t1;
	sb_plot_series_t su[2], sq[2];
	sb_plot_time_t tp[2];
	sb_plot_bars_t bp;
	sb_plot_opts_t o = { 0 };
	char names[2][96], title[256], cap[256], qtitle[96];
	char *classes[MAX_CLASSES];
	const char *cnames[MAX_CLASSES], *snames[2];
	double *v = NULL, sum[2][MAX_CLASSES] = { { 0 } };
	size_t cnt[2][MAX_CLASSES] = { { 0 } };
	const char *base = strrchr(a->trace_name, '/');
	char *svg = NULL;
	int rc = -1;

	memset(classes, 0, sizeof(classes));
	t0 = a->m.first_submit;
	t1 = a->m.last_end;
	for (i = 0; i < n; i++) {
		const sbr_run_t *r = run[i];

		if (_series(r, &used[i], &queued[i]) < 0)
			goto oom;
		for (k = 0; k < r->series.n; k++)
			if (queued[i][k] > qmax)
				qmax = queued[i][k];
		if (r->m.first_submit < t0)
			t0 = r->m.first_submit;
		if (r->m.last_end > t1)
			t1 = r->m.last_end;
		_name(r, n == 2 ? (i ? "B: " : "A: ") : "", names[i],
		      sizeof(names[i]));
		snames[i] = names[i];
		su[i] = (sb_plot_series_t) { names[i], r->series.t, used[i],
					     r->series.n };
		sq[i] = (sb_plot_series_t) { names[i], r->series.t,
					     queued[i], r->series.n };
		/* the wait by size class, every job replayed */
		for (k = 0; k < r->in.n; k++) {
			size_t c = _class(r->in.jobs[k].size);

			sum[i][c] += (double) (r->out[k].start -
					       r->in.jobs[k].submit) / 60.0;
			cnt[i][c]++;
			if (c + 1 > nclasses)
				nclasses = c + 1;
		}
	}
	if (t1 <= t0)
		t1 = t0 + 1;
	tp[0] = (sb_plot_time_t) { "Utilisation (time-weighted mean of each "
				   "column)", 1000, true, su, n };
	snprintf(qtitle, sizeof(qtitle), "Jobs waiting (the most at once: "
		 "%" PRId64 ")", qmax);
	tp[1] = (sb_plot_time_t) { qtitle, 0, false, sq, n };
	if (!(v = malloc(n * nclasses * sizeof(*v))))
		goto oom;
	for (k = 0; k < nclasses; k++) {
		int64_t lo = k ? (INT64_C(1) << (k - 1)) + 1 : 1;
		int64_t hi = INT64_C(1) << k, units = _units(a);

		if (b && _units(b) > units)
			units = _units(b);
		if (hi > units)		/* the last class ends at the machine */
			hi = units;
		char buf[48];

		if (lo == hi)
			snprintf(buf, sizeof(buf), "%" PRId64, lo);
		else
			snprintf(buf, sizeof(buf), "%" PRId64 "-%" PRId64, lo,
				 hi);
		if (!(classes[k] = strdup(buf)))
			goto oom;
		cnames[k] = classes[k];
		for (i = 0; i < n; i++)
			v[i * nclasses + k] = cnt[i][k] ?
				sum[i][k] / (double) cnt[i][k] : -1.0;
	}
	bp = (sb_plot_bars_t) { a->c->nodes_file ?
				"Mean wait by job size (nodes)" :
				"Mean wait by job size (units)", "min", cnames,
				nclasses, snames, n, v };
	snprintf(title, sizeof(title), "sbucket replay: %s",
		 base ? base + 1 : a->trace_name);
	snprintf(cap, sizeof(cap), "%zu jobs on %" PRId64 " %s: mean wait "
		 "%.1f min, utilisation %.2f%%%s", a->m.jobs, _units(a),
		 a->unit_name,
		 a->m.mean_wait / 60, a->m.utilization * 100,
		 n == 2 ? " (A)" : "");
	o.title = title;
	o.caption = cap;
	o.t0 = t0;
	o.t1 = t1;
	if (t1 - t0 > 3 * 86400) {
		o.unit = 86400;
		o.unit_name = "d";
	}
	if (!(svg = sb_plot_svg(&o, tp, 2, &bp, 1)))
		goto oom;
	if (fputs(svg, f) == EOF || fflush(f)) {
		fprintf(stderr, "sbucket: --chart '%s': %s\n", file,
			strerror(errno));
		goto out;
	}
	rc = 0;
	goto out;
oom:
	fprintf(stderr, "sbucket: out of memory\n");
out:
	for (i = 0; i < 2; i++) {
		free(used[i]);
		free(queued[i]);
	}
	for (k = 0; k < MAX_CLASSES; k++)
		free(classes[k]);
	free(v);
	free(svg);
	return rc;
}
