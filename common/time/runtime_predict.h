/*
 * runtime_predict.h - a job's likely run time from its user's history
 * ('sbucket forecast's likely start, issue #35).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Time limits are upper bounds users overstate. As Tsafrir, Etsion and
 * Feitelson proposed for backfilling (2007), a job's run time is
 * predicted as the mean of its user's last two completed runs, capped by
 * the job's own limit:
 *
 *   - similar jobs first: the same user, the same partition, the same
 *     time limit and the same node count (a job submitted again with the
 *     same request); the mean of the last two of them, or the one when
 *     there is only one;
 *   - else the user's last two completed runs of any job (or the one);
 *   - else no prediction: the job keeps its limit.
 *
 * "Last" is by end time, a tie going to the run added later. The mean is
 * rounded up to a whole second, at least 1 s, and at most the job's time
 * limit (capped).
 *
 * Their own predictor, which 'sbucket replay --predict=user2' uses to
 * reproduce their tables (issue #47), skips the similar jobs: the mean of
 * the user's last two completed runs of any job (sb_rt_predict_user());
 * they found it predicted better than "similar" jobs alone.
 *
 * A running job is predicted to end at its start plus the prediction.
 * Once it has run that long and still runs, the prediction was wrong,
 * and as in Tsafrir et al.'s simplest correction it is raised to the
 * job's limit: its end is the end at its limit. Never after that end.
 * The correction their tables use raises it step by step instead
 * (sb_rt_correct()): to the first prediction plus 1, 5, 15 and 30
 * minutes, 1, 2, 5, 10, 20, 50 and 100 hours, never above the limit.
 *
 * Operations (H runs added, L the length of the names):
 *   sb_rt_history_create   O(1)
 *   sb_rt_history_destroy  O(H)      NULL is fine
 *   sb_rt_history_add      O(L) expected, amortised
 *   sb_rt_history_count    O(1)
 *   sb_rt_history_check    O(H)
 *   sb_rt_predict          O(L) expected
 *   sb_rt_predict_user     O(L) expected
 *   sb_rt_running_end      O(1)
 *   sb_rt_correct          O(1)
 *
 * Errors: -1 with errno; EINVAL (a NULL argument, a negative or infinite
 * elapsed time, a time limit < 1, a negative end), ENOMEM. A failed call
 * changes nothing. No logging.
 */
#ifndef SB_RUNTIME_PREDICT_H
#define SB_RUNTIME_PREDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A completed run of a job, as accounting holds it. */
typedef struct {
	const char *user;		/* copied */
	const char *partition;		/* copied; NULL: "" */
	int64_t end;			/* when it ended, >= 0 */
	int64_t elapsed;		/* seconds it ran, >= 0 */
	int64_t time_limit;		/* seconds, >= 1; SB_TIME_INFINITE:
					 * none */
	uint32_t nodes;			/* its node count */
} sb_rt_run_t;

typedef struct sb_rt_history sb_rt_history_t;

/* What a prediction was made from. */
typedef enum {
	SB_RT_NONE,			/* no history: the job's limit */
	SB_RT_SIMILAR,			/* the user's similar jobs */
	SB_RT_USER,			/* the user's jobs of any kind */
} sb_rt_basis_t;

typedef struct {
	sb_rt_basis_t basis;
	int64_t runtime;		/* seconds, >= 1; the limit (maybe
					 * SB_TIME_INFINITE) when NONE */
	int64_t runs[2];		/* the elapsed times it used, the
					 * latest first */
	size_t nruns;			/* 0 (NONE), 1 or 2 */
	bool capped;			/* the mean was above the limit */
} sb_rt_pred_t;

/* An empty history, or NULL with errno ENOMEM. */
sb_rt_history_t *sb_rt_history_create(void);

/* Free @h; NULL is accepted and ignored. */
void sb_rt_history_destroy(sb_rt_history_t *h);

/*
 * Add the completed run @r to @h (its names are copied). Returns 0, or -1
 * with errno EINVAL (h, r or r->user NULL, r->end < 0, r->elapsed < 0 or
 * SB_TIME_INFINITE, r->time_limit < 1) or ENOMEM.
 */
int sb_rt_history_add(sb_rt_history_t *h, const sb_rt_run_t *r);

/* How many runs @h was given (0 for NULL). */
size_t sb_rt_history_count(const sb_rt_history_t *h);

/*
 * Verify @h: every key keeps at most two runs, the later first, with
 * elapsed times >= 0. Returns 0, or -1 with errno EFAULT (broken) or
 * EINVAL (NULL).
 */
int sb_rt_history_check(const sb_rt_history_t *h);

/*
 * Predict the run time of a job of @user in @partition (NULL: "") with
 * time limit @time_limit (seconds >= 1, SB_TIME_INFINITE: none) on
 * @nodes nodes, into *@out (see the top). @h NULL is an empty history.
 * Returns 0 (SB_RT_NONE is a result, not an error), or -1 with errno
 * EINVAL (user or out NULL, time_limit < 1).
 */
int sb_rt_predict(const sb_rt_history_t *h, const char *user,
		  const char *partition, int64_t time_limit, uint32_t nodes,
		  sb_rt_pred_t *out);

/*
 * As sb_rt_predict(), from the user's last two completed runs of any job
 * only (Tsafrir et al.'s predictor): basis SB_RT_USER or SB_RT_NONE.
 * Returns 0, or -1 with errno EINVAL (user or out NULL, time_limit < 1).
 */
int sb_rt_predict_user(const sb_rt_history_t *h, const char *user,
		       int64_t time_limit, sb_rt_pred_t *out);

/* How many steps sb_rt_correct() takes before it gives the limit. */
#define SB_RT_CORRECT_STEPS 11

/*
 * The run time of a job first predicted to run @predicted seconds (>= 1)
 * after its @n-th correction (n >= 1: it has outlived its prediction n
 * times), with time limit @limit (>= predicted; SB_TIME_INFINITE: none):
 * predicted plus the n-th of 1, 5, 15, 30 minutes, 1, 2, 5, 10, 20, 50,
 * 100 hours, at most the limit; the limit once n passes
 * SB_RT_CORRECT_STEPS. Always more than the run time of correction
 * n - 1 (predicted itself for n = 1) unless that was the limit already.
 * Returns it, or -1 with errno EINVAL (predicted < 1, limit < predicted,
 * n 0).
 */
int64_t sb_rt_correct(int64_t predicted, int64_t limit, unsigned n);

/*
 * The predicted end of a job running since @start, whose end at its
 * limit is @limit_end (SB_TIME_INFINITE: none), predicted to run
 * @runtime seconds (>= 1), at @now: start + runtime while that is later
 * than now, else (it ran past the prediction) limit_end; never after
 * limit_end. Returns the end, or -1 with errno EINVAL (runtime < 1,
 * start < 0, limit_end < start).
 */
int64_t sb_rt_running_end(int64_t start, int64_t limit_end, int64_t runtime,
			  int64_t now);

#endif /* SB_RUNTIME_PREDICT_H */
