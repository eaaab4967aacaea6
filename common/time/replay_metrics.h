/*
 * replay_metrics.h - what a replay's outcome says: waits, bounded
 * slowdown, utilisation, makespan, and the users' figures with one
 * fairness index ('sbucket replay', issue #47).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Over the jobs replayed (replay.h), each with its outcome:
 *   wait              start - submit
 *   bounded slowdown  max(1, (wait + run) / max(SB_REPLAY_BSLD_BOUND,
 *                     run)), run = end - start as replayed (Feitelson's
 *                     definition, bounded at 10 s as Tsafrir et al.)
 *   averages          over the jobs counted: all of them but the first
 *                     @drop_first percent to end (ties: the job given
 *                     first), as the paper leaves out the first 1 %
 *   median            the mean of the two middle values of an even count;
 *                     p90 the nearest rank (the ceil(0.9 n)-th smallest)
 *   utilisation       the units' busy seconds over units * makespan, of
 *                     every job replayed; makespan from the first submit
 *                     to the last end
 *   accuracy          the mean over the jobs counted of believed / run,
 *                     or run / believed when that is smaller (a run of 0
 *                     counts as 1 s): how good the first belief was
 *   per user          jobs, mean and p90 wait, mean bounded slowdown, of
 *                     the jobs counted; Jain's index (sum x)^2 / (n sum
 *                     x^2) of the users' mean bounded slowdowns: 1 when
 *                     every user fares the same, 1/n when one user takes
 *                     all the slowdown
 *
 * Operations (J jobs, U users):
 *   sb_replay_metrics       O(J log J + U)
 *   sb_replay_metrics_fini  O(1)
 *
 * Errors: -1 with errno EINVAL (a NULL argument, n 0, units < 1,
 * drop_first outside [0, 100), a job that did not end, a user >= nusers),
 * ENOMEM. No logging.
 */
#ifndef SB_REPLAY_METRICS_H
#define SB_REPLAY_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "replay.h"

#define SB_REPLAY_BSLD_BOUND 10

typedef struct {
	size_t jobs;			/* its jobs counted */
	double mean_wait, p90_wait;	/* seconds */
	double mean_bsld;
} sb_replay_user_metrics_t;

typedef struct {
	size_t jobs;			/* replayed */
	size_t counted;			/* in the averages */
	size_t killed, backfilled;	/* of those replayed */
	double mean_wait, median_wait, p90_wait, max_wait;	/* s */
	double mean_bsld, median_bsld, p90_bsld;
	double mean_response;		/* wait + run, s */
	double accuracy;		/* 0..1 */
	double utilization;		/* 0..1 */
	int64_t first_submit, last_end, makespan;
	size_t users;			/* with a job counted */
	double jain;			/* of the users' mean slowdowns */
	sb_replay_user_metrics_t *user;	/* by user index, nusers */
	size_t nusers;
} sb_replay_metrics_t;

/*
 * The figures of the @n jobs @jobs replayed into @out, on a machine of
 * @units units, leaving out the first @drop_first percent to end, with
 * users 0..@nusers - 1 (m->user holds one entry per user, zero for a
 * user with no job counted), into *@m (release with
 * sb_replay_metrics_fini()). Returns 0, or -1 with errno EINVAL or
 * ENOMEM (then nothing to release). O(J log J + U).
 */
int sb_replay_metrics(const sb_replay_job_t *jobs,
		      const sb_replay_out_t *out, size_t n, int64_t units,
		      double drop_first, size_t nusers,
		      sb_replay_metrics_t *m);

/* Release what @m holds; NULL is fine. */
void sb_replay_metrics_fini(sb_replay_metrics_t *m);

/* The bounded slowdown of a job that waited @wait and ran @run seconds.
 * O(1). */
double sb_replay_bsld(int64_t wait, int64_t run);

#endif /* SB_REPLAY_METRICS_H */
