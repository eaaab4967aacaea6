/*
 * replay_priv.h - the replay's layout, shared by replay.c (events, jobs,
 * beliefs, the checker), replay_sched.c (the schedulers) and
 * replay_prio.c (priorities); not part of the API.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A job's span in the planner is the scheduler's belief about it: a
 * running job's [start, start + est), a waiting job's reservation
 * [res, res + est) (CONSERVATIVE between passes; EASY's head and
 * SLURM's tested jobs only during a pass). The queue holds the waiting
 * jobs in queue order: priority, highest first, then arrival.
 */
#ifndef SB_REPLAY_PRIV_H
#define SB_REPLAY_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bitmap.h"
#include "bucket.h"
#include "planner.h"
#include "replay.h"
#include "runtime_predict.h"
#include "will_run.h"

enum { SB__R_FUTURE, SB__R_WAITING, SB__R_RUNNING, SB__R_DONE };

/* Heap events; at one time, ends before beliefs. */
enum { SB__EV_END = 0, SB__EV_BELIEF = 1 };

typedef struct {
	int64_t est;			/* believed run time now */
	int64_t span;			/* planner span id, 0: none */
	int64_t res;			/* reserved start (with a span while
					 * waiting) */
	int64_t end;			/* the real end, once started */
	size_t arrival;			/* rank of arrival: ties */
	uint32_t prio;			/* multifactor; 0 under FCFS */
	uint8_t state;
	bool late;			/* SLURM: a backfill pass started it,
					 * so its end comes after that
					 * thread's look in its second */
} sb__rjob_t;

typedef struct {
	int64_t t;
	size_t job;
	int kind;
} sb__rev_t;

struct sb_replay {
	sb_replay_conf_t c;
	const sb_replay_job_t *jobs;
	size_t n;
	sb_replay_out_t *out;
	sb__rjob_t *st;
	size_t *order;			/* job indices in arrival order */
	size_t next;			/* next arrival in order */
	sb__rev_t *heap;
	size_t nheap, capheap;
	size_t *queue, nq;		/* waiting jobs, queue order */
	size_t *run, nrun;		/* running jobs, any order */
	size_t *runpos;			/* job -> index in run */
	sb_planner_t *plan;
	int64_t now, used;
	size_t done;
	sb_rt_history_t *hist;
	size_t *arrived, narrived;	/* this step's arrivals */
	size_t *scratch;		/* a pass's candidates */
	bool failed;
	/* CONSERVATIVE: the earliest reservation (a job starts then, even
	 * when nothing else happens: a single compression pass can leave
	 * a reservation after a gap), -1: none */
	int64_t resv_at;
	/* SLURM */
	int64_t bf_at;			/* next backfill pass, -1: none */
	int64_t bf_last;		/* the last backfill pass */
	bool bf_change;			/* something changed since */
	int64_t bg_at;			/* the background's pass for
					 * arrivals, -1: none due */
	int64_t bg_last;		/* its last pass */
	bool bg_ask;			/* jobs arrived since */
	bool in_bf;			/* a backfill pass is starting jobs */
	size_t *late_end, nlate;	/* this step's ends of late jobs */
	/* MULTIFACTOR */
	int64_t tick_at;		/* next priority pass */
	int64_t last_tick;
	bool prio_changed;		/* a waiting job's priority changed
					 * at this step's pass */
	double factor;			/* per-second decay */
	size_t nassoc;
	int *parent;			/* by association id */
	bool *given;			/* usage kept on it (users, and the
					 * accounts the tree was given) */
	long double *usage;
	double *fs;			/* fair-share factor, users */
	bool fs_stale;
	size_t *ended, nended;		/* ended since the last pass */
	/* whole nodes */
	sb_bucket_set_t *set;
	int64_t *until;			/* by node: believed end, 0 idle */
	sb_bitmap_t **jnodes;		/* by job: its nodes while it runs */
	/* select/linear: the nodes jobs may use (IDLE at the start), and
	 * those of them idle now */
	sb_bitmap_t *usable, *idle;
	/* series */
	sb_replay_series_t series;
	size_t capseries;
};

/* The first second after @t on the grid @phase + k @period (@period >
 * 0): where a daemon thread that runs every @period passes next
 * (replay.h: bf_last, sched_last, prio_last). O(1). */
static inline int64_t sb__replay_grid_after(int64_t t, int64_t phase,
					    int64_t period)
{
	int64_t d = t - phase;

	return phase + (d / period - (d % period < 0) + 1) * period;
}

/* Is waiting job @a before @b in the queue? */
static inline bool sb__replay_before(const struct sb_replay *r, size_t a,
				     size_t b)
{
	if (r->st[a].prio != r->st[b].prio)
		return r->st[a].prio > r->st[b].prio;
	return r->st[a].arrival < r->st[b].arrival;
}

/* replay.c: start job @j now (its span added unless it holds one from
 * now), backfilled or not, on @nodes (whole nodes: taken over; else
 * NULL); 0 or -1 (errno). */
int sb__replay_start(struct sb_replay *r, size_t j, bool backfilled,
		     sb_bitmap_t *nodes);

/* replay.c: drop the started jobs from the queue. O(Q). */
void sb__replay_compact(struct sb_replay *r);

/* replay_sched.c: one scheduling pass after this step's events.
 * @full: something freed units or the queue's order changed (else only
 * this step's arrivals are new); @rebuild (CONSERVATIVE): the
 * reservations were dropped, make them again; @hole (CONSERVATIVE): a
 * job ended before its belief, compress. 0 or -1 (errno). */
int sb__replay_schedule(struct sb_replay *r, bool full, bool rebuild,
			bool hole);

/* replay_sched.c: drop every waiting job's reservation (CONSERVATIVE).
 * 0 or -1. */
int sb__replay_unreserve(struct sb_replay *r);

/* replay_sched.c: SLURM's backfill pass. 0 or -1. */
int sb__replay_backfill(struct sb_replay *r);

/* replay_sched.c: SLURM's passes due now, after this step's events
 * (replay.h): @ended, a job ended; @changed, a waiting job's priority
 * changed. 0 or -1. */
int sb__replay_slurm(struct sb_replay *r, bool ended, bool changed);

/* replay_sched.c: SLURM's first periodic pass of the main scheduler
 * after @t (sched_interval > 0; on multiples of it, or from
 * sched_last). O(1). */
int64_t sb__replay_periodic_after(const struct sb_replay *r, int64_t t);

/* replay_sched.c: SLURM, after this step's passes: jobs a backfill pass
 * started (sb__rjob_t.late) ended now, after the backfill thread looked
 * this second: the main scheduler runs at their end, backfill at its
 * next look. 0 or -1. */
int sb__replay_slurm_late(struct sb_replay *r);

/* replay_prio.c: set up multifactor from the configuration (the tree's
 * layout and usage). 0 or -1 (EINVAL, ENOMEM). */
int sb__replay_prio_init(struct sb_replay *r);
void sb__replay_prio_fini(struct sb_replay *r);

/* replay_prio.c: the priority of waiting job @j now, into its record.
 * 0 or -1 (the fair-share pass failing). */
int sb__replay_prio_set(struct sb_replay *r, size_t j);

/* replay_prio.c: the priority pass at now: decay, usage of the jobs that
 * ran, fair share, every waiting job's priority, the queue sorted.
 * *@moved: the queue's order changed. 0 or -1. */
int sb__replay_prio_pass(struct sb_replay *r, bool *moved);

/* replay_prio.c: where job @j (waiting, its priority set) goes in the
 * queue: the index it is inserted at. O(log Q). */
size_t sb__replay_queue_pos(const struct sb_replay *r, size_t j);

/* replay_nodes.c: whole nodes (replay.h). init checks the nodes and
 * makes the set (EINVAL, ENOMEM); now: RUN_NOW for waiting job @j
 * (select/bucket's, or select/linear's pick of the idle nodes), 1 with
 * its nodes, 0 not now; plan: select/bucket's WILL_RUN plan of the
 * running jobs' beliefs (NULL, errno); when: select/bucket's WILL_RUN on
 * @plan, on the nodes @avail alone (NULL: all), 0 with the start and
 * nodes, 1 never; hold: the nodes unusable over [start, end) in @plan;
 * take / release: running job @j's nodes allocated / idle again;
 * belief: its nodes' believed end after a correction; check: the nodes
 * against the running jobs (EFAULT). */
int sb__replay_nodes_init(struct sb_replay *r);
void sb__replay_nodes_fini(struct sb_replay *r);
int sb__replay_nodes_now(struct sb_replay *r, size_t j,
			 sb_bitmap_t **nodes);
sb_will_run_t *sb__replay_nodes_plan(struct sb_replay *r);
int sb__replay_nodes_when(struct sb_replay *r, const sb_will_run_t *plan,
			  const sb_bitmap_t *avail, size_t j, int64_t *start,
			  sb_bitmap_t **nodes);
int sb__replay_nodes_hold(sb_will_run_t *plan, const sb_bitmap_t *nodes,
			  int64_t start, int64_t end);
int sb__replay_nodes_take(struct sb_replay *r, size_t j,
			  sb_bitmap_t *nodes);
int sb__replay_nodes_release(struct sb_replay *r, size_t j);
void sb__replay_nodes_belief(struct sb_replay *r, size_t j);
int sb__replay_nodes_check(const struct sb_replay *r);

/* replay_nodes.c, select/linear: its will-run for waiting job @j on the
 * nodes @avail (the running jobs' believed ends in order, their nodes
 * added until linear_pick finds the job's count): 0 with the start (now,
 * or the end that made room; now + 1 for an end already past) and the
 * nodes, 1 never, -1 (errno). O(R log R + R n). */
int sb__replay_linear_when(struct sb_replay *r, const sb_bitmap_t *avail,
			   size_t j, int64_t *start, sb_bitmap_t **nodes);

/* replay_bfmap.c: SLURM's backfill pass on whole nodes (replay.h),
 * over the first @nc jobs of the queue. 0 or -1. */
int sb__replay_backfill_map(struct sb_replay *r, size_t nc);

#endif /* SB_REPLAY_PRIV_H */
