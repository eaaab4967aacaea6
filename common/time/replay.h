/*
 * replay.h - a whole workload replayed through the product's engines:
 * jobs arrive, wait, start and end, as a scheduler of a chosen kind
 * would start them ('sbucket replay', issue #47).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The machine is @units interchangeable units (processors, or nodes
 * counted whole, as the SP2 logs count them): a job takes @size units
 * from its start to its end. What the scheduler believes of the future
 * is one planner (planner.h) of those units: a span per running job from
 * its start to its believed end, and the reservations of waiting jobs;
 * every "when could it start" is that planner's earliest fit, every "may
 * it start now without delaying a reservation" its fit. No other
 * planner.
 *
 * The replay is event driven. Events at one time are handled together,
 * in this order: jobs that end (the units are free; the run joins the
 * run-time history); running jobs that outlive what the scheduler
 * believed (see "beliefs"); the priority pass (multifactor, every
 * PriorityCalcPeriod); jobs that arrive (in the order given, at their
 * submit time); then one scheduling pass, and at a multiple of
 * bf_interval the backfill pass of the 'slurm' scheduler (whose jobs
 * that a backfill pass started end after these passes: see SLURM
 * below). A job runs
 * for its run time, or to its limit when that is shorter (killed, as
 * Slurm kills it), unless kill is off; a run time of 0 counts as 1 s.
 *
 * Whole nodes. With a nodes array (c->nodes: a nodes file as 'sbucket
 * place' reads it) the machine is those nodes, a job's size is its count
 * of whole nodes, exclusive, and every placement is select/bucket's own
 * decision (select_decide.h, issue #46) under c->policy: a start in
 * RUN_NOW on the bucket set of the nodes as they are, a "when could it
 * start" (EASY's head, a backfill test) in WILL_RUN on a plan of the
 * running jobs' believed ends (will_run.h). A replay and the plugin
 * cannot disagree on where a job goes. With c->select
 * SB_REPLAY_SELECT_LINEAR (SLURM only) they are select/linear's
 * instead (linear_pick.h): RUN_NOW picks among the idle nodes, its
 * will-run adds the running jobs' nodes in order of believed end until
 * the pick finds the job's count (its start is that end). The unit
 * planner is still kept (its free count is a quick "cannot fit" before
 * a decision is asked). EASY and SLURM only: conservative's compression
 * moves single reservations, which a WILL_RUN plan keeps as windows of
 * nodes. EASY's reservation is a hold on the nodes WILL_RUN chose.
 *
 * SLURM's backfill on whole nodes is backfill.c's own: a map of node
 * bitmaps over time (records from now, rounded down to bf_resolution on
 * slurmctld's clock, see bf_clock, to the end of bf_window) that each
 * reservation takes its nodes out of, from its start to its end, both
 * rounded down to bf_resolution (at least one bf_resolution long). A
 * job tested gets the nodes no record between its start and its end
 * (start + limit, that second included) holds out, and the select
 * plugin's will-run on those nodes alone (select/bucket's WILL_RUN with
 * them as its allowed nodes, or select/linear's): neither sees the
 * reservations, only that their nodes are gone. When the answer lies
 * after the end of the first record in its way whose successor frees
 * nodes, or its nodes overlap a reservation once rounded, the test is
 * made again from there (backfill.c's TRY_LATER). Running jobs are not
 * in the map (bf_running_job_reserve off): only the will-run sees them.
 *
 * Schedulers (all in priority order: the queue's order, see below):
 *   EASY          the jobs at the head of the queue start while they fit;
 *                 the first that does not gets a reservation at its
 *                 earliest start; every other waiting job starts now if
 *                 it fits without delaying that reservation (in queue
 *                 order, or shortest believed run time first with sjbf).
 *                 Between two passes nothing is reserved.
 *   CONSERVATIVE  every waiting job holds a reservation at its earliest
 *                 start given the jobs before it, made when it arrives
 *                 and never later; a job starts when its reservation's
 *                 time comes. When a job ends before its believed end,
 *                 the plan is compressed: each waiting job in queue order
 *                 moves to its earliest start (never later than it was).
 *                 When a running job outlives its belief, or the queue's
 *                 order changes, the reservations are made again in
 *                 queue order.
 *   SLURM         Slurm's two schedulers, when slurmctld (22.05 to
 *                 24.11) runs them. The main scheduler starts jobs in
 *                 queue order and stops at the first that does not fit.
 *                 It runs in slurmctld's background thread: for jobs
 *                 that arrive or end (each asks it for a pass), at most
 *                 every batch_sched_delay seconds (the first second at
 *                 or after the request that is batch_sched_delay after
 *                 the last such pass); and every sched_interval seconds
 *                 (multiples of it, or from sched_last: see
 *                 sb_replay_conf_t; they count as such passes) whatever
 *                 happened. A change of the queue's order alone runs
 *                 none (measured with SlurmctldDebug=debug: no pass
 *                 came at an epilog's completion, every one at the
 *                 thread's one-second look, bench/RESULTS.md). The backfill scheduler runs when
 *                 something changed (a job arrived, started or ended, a
 *                 waiting job's priority changed) since its last pass, at
 *                 the first second that is bf_interval or more after that
 *                 pass: bf_interval after it when the change came in
 *                 between, else at the change (slurmctld's backfill
 *                 thread sleeps bf_interval after a pass, then looks
 *                 every second); it runs with no job waiting too, and
 *                 that pass counts (with bf_last_set, instead, at
 *                 every second of its grid while jobs wait: see
 *                 sb_replay_conf_t). A job a backfill pass started ends
 *                 after that thread's look in the second it ends (its
 *                 start came at the pass, its end a launch later: a run
 *                 of whole bf_intervals ends just after a pass): the
 *                 pass then does not see it end, the background thread
 *                 is asked for a pass, and backfill looks again the
 *                 next second. It
 *                 tests at most bf_max_job_test
 *                 jobs in queue order: a job
 *                 that fits now without delaying a reservation of this
 *                 pass (one that begins the second it would end counts:
 *                 backfill.c tests the reservations that begin at or
 *                 before a job's end) starts; one whose earliest start is within
 *                 bf_window gets a reservation for the rest of the pass;
 *                 the others none. Reservations cover [start, end)
 *                 rounded down to bf_resolution, at least one step long
 *                 (backfill.c's node space).
 *
 * Priorities: FCFS (the order of arrival), or Slurm's multifactor formula
 *   PriorityWeightAge * age + PriorityWeightFairshare * fair share +
 *   PriorityWeightJobSize * job size, cut to a whole number as Slurm
 * stores it: age = min(1, waited / PriorityMaxAge); job size = size /
 * units (1 - that with PriorityFavorSmall); fair share = the job's
 * association's factor from common/fairshare (Fair Tree, LEVEL_BASED or
 * classic, sb_fairshare_compute()) over the association tree the caller
 * gives, whose usage the replay changes as Slurm's decay thread does
 * (usage_decay.h): every PriorityCalcPeriod while a job runs or waits,
 * usage decays over the period (PriorityDecayHalfLife) and each job that
 * ran in it adds size * seconds, each part as sb_decay_new_usage() adds
 * it; then every waiting job's priority is computed again. A job that
 * arrives gets its priority from the factors of the last pass. Ties go
 * to the job that arrived first. (Slurm runs the decay thread even on
 * an idle machine; here an idle stretch is decayed in one step.)
 *
 * Beliefs. The scheduler plans with each job's believed run time: its
 * limit (PREDICT_LIMIT), or a prediction from runtime_predict.h made
 * when it arrives from the runs that ended before: the mean of the
 * user's last two runs of any job (PREDICT_USER2, Tsafrir et al.), or of
 * similar jobs first (PREDICT_SIMILAR2, 'sbucket forecast's), never more
 * than the limit. A running job that is still running at its believed
 * end was under-predicted: its belief is raised (CORRECT_LIMIT, to its
 * limit at once, as 'sbucket forecast' raises it, and as Tsafrir et
 * al.'s EASY+ and EASY++ figures are reproduced: bench/RESULTS.md; or
 * CORRECT_STEPS, step by step, sb_rt_correct()). A job past
 * its limit (kill off) is believed to run as long again as it has run
 * (at least 60 s more), again and again: a few beliefs per job, however
 * long it overruns.
 *
 * Operations (J jobs, Q waiting jobs, R running jobs, A associations,
 * n the planner's points, at most 2 (R + Q) + 1):
 *
 *   sb_replay_create   O(J log J)     jobs sorted by submit time
 *   sb_replay_destroy  O(J + A)       NULL is fine
 *   sb_replay_step     one event time: O((E + Q) log n) for E events
 *                      (EASY; a pass on arrivals alone tests only them),
 *                      O(Q log n + Q b log n) (CONSERVATIVE's
 *                      compression, b blocking intervals per fit), a
 *                      priority pass O(A log A + Q log Q + R)
 *   sb_replay_run      all events: create, step until done, results
 *   sb_replay_now / done / queued / running   O(1)
 *   sb_replay_out      O(1)
 *   sb_replay_check    O(J + n + R log R + Q)
 *
 * Errors: -1 (or NULL) with errno: EINVAL (a NULL argument, a bad
 * configuration, a job with a negative submit time or run time, a limit
 * < 1, a size < 1 or above the machine, a user or association out of
 * range; whole nodes with CONSERVATIVE, without a policy, units other
 * than nnodes, a node busy or out of order; a decision handing a job to
 * the base, which the replay cannot model), ENOMEM; EFAULT from the
 * checker. A failed step leaves the
 * replay unusable (destroy it). No logging. Not thread-safe.
 */
#ifndef SB_REPLAY_H
#define SB_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "assoc_tree.h"
#include "node.h"
#include "policy.h"

typedef struct sb_replay sb_replay_t;

typedef enum {
	SB_REPLAY_EASY,
	SB_REPLAY_CONSERVATIVE,
	SB_REPLAY_SLURM,
} sb_replay_sched_t;

/* Whole nodes: whose choice places them. */
typedef enum {
	SB_REPLAY_SELECT_BUCKET,	/* select/bucket's decision */
	SB_REPLAY_SELECT_LINEAR,	/* select/linear alone (see the top) */
} sb_replay_select_t;

typedef enum {
	SB_REPLAY_FCFS,
	SB_REPLAY_MULTIFACTOR,
} sb_replay_prio_t;

typedef enum {
	SB_REPLAY_PREDICT_LIMIT,	/* the job's limit */
	SB_REPLAY_PREDICT_USER2,	/* user's last two runs, any job */
	SB_REPLAY_PREDICT_SIMILAR2,	/* similar jobs first */
} sb_replay_predict_t;

typedef enum {
	SB_REPLAY_CORRECT_STEPS,	/* sb_rt_correct() */
	SB_REPLAY_CORRECT_LIMIT,	/* to the limit at once */
} sb_replay_correct_t;

/* Slurm's defaults (sched/backfill and slurmctld, 22.05 to 24.11). */
#define SB_REPLAY_BATCH_SCHED_DELAY 3
#define SB_REPLAY_SCHED_INTERVAL 60
#define SB_REPLAY_BF_INTERVAL 30
#define SB_REPLAY_BF_WINDOW 86400
#define SB_REPLAY_BF_RESOLUTION 60
#define SB_REPLAY_BF_MAX_JOB_TEST 500

/* A job of the workload. */
typedef struct {
	int64_t submit;			/* >= 0 */
	int64_t run;			/* its real run time, >= 0 */
	int64_t limit;			/* requested time, >= 1 */
	int64_t size;			/* units, 1..units */
	uint32_t user;			/* < nusers */
	int assoc;			/* multifactor: its user association
					 * in the tree; else not read */
} sb_replay_job_t;

typedef struct {
	int64_t units;			/* the machine, >= 1 */
	sb_replay_sched_t sched;
	bool kill;			/* at the limit (Slurm's way) */
	sb_replay_predict_t predict;
	sb_replay_correct_t correct;
	bool sjbf;			/* EASY: shortest job backfilled
					 * first */
	/* SLURM (> 0 each; 0 takes the default above) */
	int64_t bf_interval, bf_window, bf_resolution;
	/* SLURM's main scheduler (>= 0 each; the defaults above):
	 * batch_sched_delay 0 runs a pass at each arrival, sched_interval
	 * 0 runs no periodic pass */
	int64_t batch_sched_delay, sched_interval;
	size_t bf_max_job_test;
	/* SLURM, bf_last_set: a live slurmctld's backfill thread, which
	 * last ran bf_last seconds from time 0 (negative: before it):
	 * its passes fall on bf_last + k bf_interval, one at each such
	 * second after bf_last while jobs wait, whatever changed (a live
	 * daemon's thread runs from its start, and on a busy cluster
	 * every interval brings it a change: measured, its passes kept
	 * one phase through whole windows of real logs, bench/RESULTS.md).
	 * Else the passes of a thread that looks for a change (below). */
	bool bf_last_set;
	int64_t bf_last;
	/* SLURM, sched_last_set: the background thread's periodic pass
	 * (every sched_interval) last ran sched_last seconds from time 0
	 * (negative: before it): its passes fall on sched_last + k
	 * sched_interval, as a live daemon's thread counts them from its
	 * own start (measured: bench/RESULTS.md); else on multiples of
	 * sched_interval */
	bool sched_last_set;
	int64_t sched_last;
	/* MULTIFACTOR, prio_last_set: the priority plugin's decay thread
	 * last ran prio_last seconds from time 0 (negative: before it):
	 * its passes fall on prio_last + k calc_period, as a live daemon's
	 * thread counts them from the plugin's start; else on multiples
	 * of calc_period */
	bool prio_last_set;
	int64_t prio_last;
	/* priorities */
	sb_replay_prio_t prio;
	/* MULTIFACTOR: the association tree (borrowed; its usage is the
	 * start's and changes as the replay goes), the algorithm
	 * (SB_FS_FAIR_TREE, ...), LEVEL_BASED's levels, classic's
	 * dampening, the weights, and times in seconds */
	sb_assoc_tree_t *tree;
	int fs_algorithm;
	int levels;
	uint32_t dampening;
	uint32_t weight_age, weight_fs, weight_js;
	bool favor_small;
	int64_t max_age;		/* >= 1 */
	int64_t half_life;		/* <= 0: no decay */
	int64_t calc_period;		/* >= 1 */
	/* whole nodes (see the top): the nodes, their indices 0..nnodes-1,
	 * states IDLE, DOWN, DRAINED or POWERED_DOWN, no jobs, no busy
	 * windows (borrowed; their states change as jobs start and end,
	 * and are idle again at the end); units must equal nnodes; the
	 * allocation policy; whether the base is a consumable-resource one
	 * (select/cons_tres) */
	sb_node_t *nodes;
	size_t nnodes;
	const sb_policy_t *policy;
	bool base_cons;
	/* whole nodes: select/bucket (policy and base_cons read) or
	 * select/linear (SLURM only; neither read) */
	sb_replay_select_t select;
	/* whole nodes, SLURM: slurmctld's clock at time 0, modulo
	 * bf_resolution (any value; the wall clock's seconds since the
	 * epoch will do): backfill.c rounds its map's times down to
	 * multiples of bf_resolution on that clock, not on the log's */
	int64_t bf_clock;
	/* users by index: the predictor's keys */
	const char *const *users;
	size_t nusers;
	/* keep the machine's use and the queue's length over time */
	bool series;
} sb_replay_conf_t;

/* What became of a job. */
typedef struct {
	int64_t start, end;		/* -1 until it starts / ends */
	int64_t believed;		/* the run time first believed */
	uint32_t corrections;		/* beliefs raised while it ran */
	bool killed;			/* ended at its limit */
	bool backfilled;		/* started ahead of a job before it
					 * in the queue */
} sb_replay_out_t;

/* The machine over time: from t[i] to t[i + 1], used[i] units busy and
 * queued[i] jobs waiting (a point per event time that changed them). */
typedef struct {
	int64_t *t, *used;
	size_t *queued;
	size_t n;
} sb_replay_series_t;

/*
 * Fill *@c with the defaults: EASY, kill, limits as beliefs, corrected
 * to the limit, FCFS, Slurm's bf_* defaults, Fair Tree, 4 levels,
 * dampening 1, PriorityMaxAge and PriorityDecayHalfLife 7 days,
 * PriorityCalcPeriod 5 minutes, weights 0, no series; units 0 (the
 * caller's). NULL is ignored. O(1).
 */
void sb_replay_conf_default(sb_replay_conf_t *c);

/*
 * A replay of the @n jobs @jobs (borrowed: they must outlive it) under
 * @c (copied; what it points to is borrowed). Returns it, or NULL with
 * errno EINVAL (see the top; with n == 0 too) or ENOMEM.
 * O(J log J).
 */
sb_replay_t *sb_replay_create(const sb_replay_conf_t *c,
			      const sb_replay_job_t *jobs, size_t n);

/* Free @r. NULL is accepted and ignored. O(J + A). */
void sb_replay_destroy(sb_replay_t *r);

/*
 * Handle the next event time (see the top). Returns 1 when it handled
 * one, 0 when every job has ended (nothing left to do), -1 with errno
 * ENOMEM (the replay is then unusable), EINVAL (r NULL) or whatever the
 * fair-share algorithm sets.
 */
int sb_replay_step(sb_replay_t *r);

/*
 * Step until every job has ended. Returns 0, or -1 as sb_replay_step().
 * O(the sum of the steps).
 */
int sb_replay_finish(sb_replay_t *r);

/* The time of the last event handled (-1 before the first), jobs ended,
 * waiting, running. 0 for NULL. O(1). */
int64_t sb_replay_now(const sb_replay_t *r);
size_t sb_replay_done(const sb_replay_t *r);
size_t sb_replay_queued(const sb_replay_t *r);
size_t sb_replay_running(const sb_replay_t *r);

/*
 * What became of job @i (by its index in the jobs given), or NULL with
 * errno EINVAL (r NULL, i out of range). Valid until the replay is
 * destroyed; final once the job has ended. O(1).
 */
const sb_replay_out_t *sb_replay_out(const sb_replay_t *r, size_t i);

/*
 * The series kept (c->series), or NULL with errno EINVAL (r NULL) or
 * ENOENT (not kept). Valid until the next step. O(1).
 */
const sb_replay_series_t *sb_replay_series(const sb_replay_t *r);

/*
 * Replay the @n jobs under @c from start to end and copy what became of
 * each into @out[0..n), and the series into *@series when it is not NULL
 * (c->series; free it with sb_replay_series_fini()). Returns 0, or -1
 * as sb_replay_create() and sb_replay_step().
 */
int sb_replay_run(const sb_replay_conf_t *c, const sb_replay_job_t *jobs,
		  size_t n, sb_replay_out_t *out, sb_replay_series_t *series);

/* Release what @s holds and zero it; NULL is fine. */
void sb_replay_series_fini(sb_replay_series_t *s);

/*
 * Verify the replay: the units in use are the running jobs' sizes and
 * within the machine; every running job has a span in the planner from
 * its start to its believed end, which is after now; the waiting jobs
 * are in queue order, each with its reservation (CONSERVATIVE, at or
 * after now) or none (EASY, SLURM between passes); the planner's spans
 * are exactly those, and the planner's own check passes; ended jobs ran
 * for their run time or to their limit; no job started before it
 * arrived; on whole nodes, each running job holds as many nodes as its
 * size, no node two jobs, every node of a job ALLOCATED and believed
 * free at the job's believed end, every other node not. Returns 0, or -1 with errno EFAULT (broken), EINVAL (r NULL)
 * or ENOMEM. O(J + n + R log R + Q).
 */
int sb_replay_check(const sb_replay_t *r);

/*
 * The scheduler's, priority's, prediction's and correction's names, as
 * 'sbucket replay' spells them ("easy", "conservative", "slurm";
 * "fcfs", "multifactor"; "limit", "user2", "similar2"; "steps",
 * "limit"), and back: the value, or -1 with errno EINVAL for an unknown
 * name (NULL for an unknown value). O(1).
 */
const char *sb_replay_sched_name(sb_replay_sched_t s);
int sb_replay_sched_parse(const char *name);
const char *sb_replay_prio_name(sb_replay_prio_t p);
int sb_replay_prio_parse(const char *name);
const char *sb_replay_predict_name(sb_replay_predict_t p);
int sb_replay_predict_parse(const char *name);
const char *sb_replay_correct_name(sb_replay_correct_t c);
int sb_replay_correct_parse(const char *name);

#endif /* SB_REPLAY_H */
