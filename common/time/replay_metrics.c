/*
 * replay_metrics.c - what a replay's outcome says (replay_metrics.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "replay_metrics.h"

double sb_replay_bsld(int64_t wait, int64_t run)
{
	double b = (double) (wait + run) /
		(double) (run > SB_REPLAY_BSLD_BOUND ? run :
			  SB_REPLAY_BSLD_BOUND);

	return b > 1.0 ? b : 1.0;
}

/* qsort has no context: the outcome of the one sort. */
static const sb_replay_out_t *_sort_out;
static const sb_replay_job_t *_sort_jobs;

static int _by_end(const void *pa, const void *pb)
{
	size_t a = *(const size_t *) pa, b = *(const size_t *) pb;
	int64_t ea = _sort_out[a].end, eb = _sort_out[b].end;

	if (ea != eb)
		return ea < eb ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* By user, then wait. */
static int _by_user(const void *pa, const void *pb)
{
	size_t a = *(const size_t *) pa, b = *(const size_t *) pb;
	int64_t wa = _sort_out[a].start - _sort_jobs[a].submit;
	int64_t wb = _sort_out[b].start - _sort_jobs[b].submit;

	if (_sort_jobs[a].user != _sort_jobs[b].user)
		return _sort_jobs[a].user < _sort_jobs[b].user ? -1 : 1;
	if (wa != wb)
		return wa < wb ? -1 : 1;
	return a < b ? -1 : a > b;
}

static int _cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *) pa, b = *(const double *) pb;

	return a < b ? -1 : a > b;
}

/* The median and the p90 (nearest rank) of the sorted @v[0..n). */
static void _ranks(const double *v, size_t n, double *median, double *p90)
{
	size_t k = (n * 9 + 9) / 10;	/* ceil(0.9 n) */

	*median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
	*p90 = v[k ? k - 1 : 0];
}

void sb_replay_metrics_fini(sb_replay_metrics_t *m)
{
	if (!m)
		return;
	free(m->user);
	m->user = NULL;
}

int sb_replay_metrics(const sb_replay_job_t *jobs,
		      const sb_replay_out_t *out, size_t n, int64_t units,
		      double drop_first, size_t nusers,
		      sb_replay_metrics_t *m)
{
	size_t *idx = NULL, i, k, drop, c;
	double *wait = NULL, *bsld = NULL, sum_w = 0, sum_b = 0, sum_r = 0;
	double sum_a = 0, busy = 0, sx = 0, sxx = 0;
	int rc = -1;

	if (!jobs || !out || !m || !n || units < 1 ||
	    !(drop_first >= 0.0 && drop_first < 100.0)) {
		errno = EINVAL;
		return -1;
	}
	memset(m, 0, sizeof(*m));
	for (i = 0; i < n; i++)
		if (out[i].start < jobs[i].submit || out[i].end < out[i].start ||
		    jobs[i].user >= nusers) {
			errno = EINVAL;
			return -1;
		}
	if (!(idx = malloc(n * sizeof(*idx))) ||
	    !(wait = malloc(n * sizeof(*wait))) ||
	    !(bsld = malloc(n * sizeof(*bsld))) ||
	    !(m->user = calloc(nusers ? nusers : 1, sizeof(*m->user)))) {
		errno = ENOMEM;
		goto out;
	}
	m->nusers = nusers;
	m->jobs = n;
	m->first_submit = jobs[0].submit;
	m->last_end = out[0].end;
	for (i = 0; i < n; i++) {
		idx[i] = i;
		if (jobs[i].submit < m->first_submit)
			m->first_submit = jobs[i].submit;
		if (out[i].end > m->last_end)
			m->last_end = out[i].end;
		busy += (double) jobs[i].size *
			(double) (out[i].end - out[i].start);
		m->killed += out[i].killed;
		m->backfilled += out[i].backfilled;
	}
	m->makespan = m->last_end - m->first_submit;
	m->utilization = m->makespan > 0 ?
		busy / ((double) units * (double) m->makespan) : 0.0;
	/* the first to end are left out */
	_sort_out = out;
	_sort_jobs = jobs;
	qsort(idx, n, sizeof(*idx), _by_end);
	drop = (size_t) ((double) n * drop_first / 100.0);
	c = n - drop;
	memmove(idx, idx + drop, c * sizeof(*idx));
	m->counted = c;
	for (i = 0; i < c; i++) {
		size_t j = idx[i];
		int64_t w = out[j].start - jobs[j].submit;
		int64_t run = out[j].end - out[j].start;
		int64_t rr = run > 0 ? run : 1;
		int64_t b = out[j].believed > 0 ? out[j].believed : 1;

		wait[i] = (double) w;
		bsld[i] = sb_replay_bsld(w, run);
		sum_w += wait[i];
		sum_b += bsld[i];
		sum_r += (double) (w + run);
		sum_a += rr < b ? (double) rr / (double) b :
			(double) b / (double) rr;
	}
	m->mean_wait = sum_w / (double) c;
	m->mean_bsld = sum_b / (double) c;
	m->mean_response = sum_r / (double) c;
	m->accuracy = sum_a / (double) c;
	qsort(wait, c, sizeof(*wait), _cmp_double);
	qsort(bsld, c, sizeof(*bsld), _cmp_double);
	m->max_wait = wait[c - 1];
	_ranks(wait, c, &m->median_wait, &m->p90_wait);
	_ranks(bsld, c, &m->median_bsld, &m->p90_bsld);
	/* per user: the counted jobs by user, then wait */
	qsort(idx, c, sizeof(*idx), _by_user);
	for (i = 0; i < c; i = k) {
		uint32_t u = jobs[idx[i]].user;
		sb_replay_user_metrics_t *um = &m->user[u];
		double sw = 0, sb = 0, med;

		for (k = i; k < c && jobs[idx[k]].user == u; k++) {
			size_t j = idx[k];
			int64_t w = out[j].start - jobs[j].submit;

			wait[k - i] = (double) w;
			sw += (double) w;
			sb += sb_replay_bsld(w, out[j].end - out[j].start);
		}
		um->jobs = k - i;
		um->mean_wait = sw / (double) um->jobs;
		um->mean_bsld = sb / (double) um->jobs;
		_ranks(wait, um->jobs, &med, &um->p90_wait);
		m->users++;
		sx += um->mean_bsld;
		sxx += um->mean_bsld * um->mean_bsld;
	}
	m->jain = sxx > 0 ? sx * sx / ((double) m->users * sxx) : 1.0;
	rc = 0;
out:
	if (rc)
		sb_replay_metrics_fini(m);
	free(idx);
	free(wait);
	free(bsld);
	return rc;
}
