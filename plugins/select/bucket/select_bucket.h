/*
 * select_bucket.h - what the files of select/bucket share.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 *   select_bucket.c   framework entry points, bucket.conf, locking
 *   bucket_convert.c  Slurm types -> common/ types (the only place)
 *   bucket_state.c    the plugin's model of the cluster: nodes, buckets,
 *                     which nodes our jobs hold, reservations, the clock
 *   bucket_job_test.c RUN_NOW, TEST_ONLY, WILL_RUN and reservations
 *   bucket_resrcs.c   job_resources_t of whole-node allocations
 *   bucket_info.c     select_nodeinfo (sinfo's allocated CPUs), jobinfo
 *
 * Every node a job gets is a whole node and serves that job alone (as
 * select/linear without OverSubscribe): a node is in use by at most one
 * of our jobs. Slurm's own node states (down, drained, completing,
 * reserved) reach us through the bitmaps slurmctld passes in; what only
 * we know is which nodes our jobs hold, and that is the "busy" pool of
 * the buckets.
 *
 * Locking: slurmctld calls the select plugin with its own locks held
 * (job and node locks, as each call site documents); bucket_lock guards
 * the plugin's state against the other threads that call in (backfill,
 * RPC handlers) and is always taken last.
 */
#ifndef SELECT_BUCKET_H
#define SELECT_BUCKET_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/slurmctld/slurmctld.h"

#include "bucket.h"
#include "bucket_conf.h"
#include "node.h"
#include "place.h"
#include "policy.h"
#include "will_run.h"

/*
 * slurmctld's own globals. Every Slurm program that loads the select
 * plugins loads this one (sinfo, squeue, srun, slurmd): weak references
 * let them, and there they are NULL and never used (only slurmctld
 * builds buckets). Functions resolve lazily, when slurmctld calls them.
 */
extern List job_list __attribute__((weak));
extern List part_list __attribute__((weak));
extern List resv_list __attribute__((weak));
extern time_t last_resv_update __attribute__((weak));

/*
 * info() and debug() prefix plugin messages with "select/bucket:
 * <function>: " themselves (SLURM_PLUGIN_DEBUG); error() and fatal() do
 * not, so those start with BUCKET_PFX. log_flag(SELECT_TYPE, ...) lines
 * show with DebugFlags=SelectType.
 */
#define BUCKET_PFX "select/bucket: "

/* The plugin's model of the cluster (bucket_state.c). */
typedef struct {
	size_t n;			/* node_record_count when built */
	sb_node_t *nodes;		/* index = Slurm's node index */
	sb_bucket_set_t *set;
	uint16_t *jobs;			/* our jobs holding each node */
	uint32_t *seen_state;		/* node_state when last synced */
	time_t seen_node_update;	/* last_node_update when synced */
	time_t nodes_synced;		/* when the states were compared */
	time_t resv_synced;		/* when the windows were rebuilt */
	int64_t next_window;		/* earliest reservation start ahead */
	uint64_t gen;			/* bumped by every change of state */
	bool stale;			/* a node's signature changed */
	/* WILL_RUN's plan, rebuilt when gen or the second changes */
	sb_will_run_t *plan;
	uint64_t plan_gen;
	int64_t plan_base;
} bucket_state_t;

extern pthread_mutex_t bucket_lock;
extern bucket_state_t bucket_state;	/* under bucket_lock */
extern sb_bucket_conf_t *bucket_conf;	/* under bucket_lock */

/* ---- bucket_convert.c: Slurm -> common/ -------------------------------- */

/*
 * Fill @nd (index @i) from Slurm's node @node_ptr (NULL: a defunct slot,
 * a down placeholder) and bucket.conf's speed. Returns 0 or -1 (logged).
 */
extern int convert_node(sb_node_t *nd, size_t i, node_record_t *node_ptr,
			const sb_bucket_conf_t *conf);

/* The sb_node_state_t of @node_ptr given @jobs of ours on it. */
extern sb_node_state_t convert_node_state(const node_record_t *node_ptr,
					  uint16_t jobs);

/* Seconds a job may run (SB_TIME_INFINITE when unlimited). */
extern int64_t convert_time_limit(const job_record_t *job_ptr);

/*
 * A request of one chunk of @count whole nodes for @job_ptr: per-node
 * minimums, time limit, required nodes; excluded is left to the caller.
 * Returns 0 or -1 (logged).
 */
extern int convert_request(sb_request_t *r, job_record_t *job_ptr,
			   uint32_t count);

/* Slurm bitstr_t <-> sb_bitmap_t (same size), a word at a time. */
extern void convert_bitstr_to_sb(const bitstr_t *b, sb_bitmap_t *out);
extern void convert_sb_to_bitstr(const sb_bitmap_t *b, bitstr_t *out);

/* The policy a job asked for through the SPANK plugin, or NULL. */
extern const char *convert_job_policy_name(const job_record_t *job_ptr);

/* ---- bucket_state.c ---------------------------------------------------- */

/* (Re)build the model from slurmctld's node table and running jobs. */
extern int state_build(void);
extern void state_free(void);

/*
 * Bring the model up to date before a decision: node states changed
 * since the last call, reservations (busy-later windows) and the clock.
 * O(N) compare when last_node_update moved, else O(1) plus the nodes
 * that changed.
 */
extern void state_sync(time_t now);

/*
 * Nodes slurmctld offers in @offered that the model holds down or
 * drained: their state changed without last_node_update moving; compare
 * them again. O(N / 64) when there are none.
 */
extern void state_sync_offered(const sb_bitmap_t *offered);

/* Node @i registered: rebuild later if its signature changed. O(1). */
extern void state_node_config(int i);

/* Current load averages, for policies that read them. O(N). */
extern void state_sync_loads(void);

/*
 * A job of ours takes its nodes (job_begin), gives them all back (its
 * end: once, however often it is reported), or gives back one node when
 * it shrinks.
 */
extern void state_job_begin(job_record_t *job_ptr);
extern bool state_job_end(job_record_t *job_ptr);	/* true: it held */
extern void state_job_shrink(job_record_t *job_ptr, int node_index);

/* One more (+1) or one less (-1) job on each node of @nodes. */
extern void state_hold(const bitstr_t *nodes, int delta);

/* Which nodes our jobs hold (the model's own bitmap, read only). */
extern const sb_bitmap_t *state_held(void);

/*
 * Per node, when the running jobs on it end (0: none; SB_TIME_INFINITE
 * while one is suspended), leaving out @free_jobs (may be NULL), whose
 * nodes are added to @freed (may be NULL). With @ends (room for every
 * job), each finite end is stored there, *nends of them, unsorted. The
 * array is the caller's to xfree(). O(jobs N / 64).
 */
extern int64_t *state_busy_until(List free_jobs, sb_bitmap_t *freed,
				 int64_t *ends, size_t *nends);

/*
 * WILL_RUN's plan at @now: cached until the state or the second
 * changes. @skip_resv: a reservation the job runs in (its nodes are no
 * obstacle to it; the plan is then built for this call only, and
 * returned in *@own to be destroyed by the caller). @free_jobs: jobs
 * whose nodes count as free now (preemption candidates), or NULL.
 */
extern sb_will_run_t *state_plan(time_t now, const void *skip_resv,
				 List free_jobs, sb_will_run_t **own);

/* ---- bucket_job_test.c -------------------------------------------------- */

extern int job_test(job_record_t *job_ptr, bitstr_t *bitmap,
		    uint32_t min_nodes, uint32_t max_nodes,
		    uint32_t req_nodes, uint16_t mode,
		    List preemptee_candidates, List *preemptee_job_list);

extern bitstr_t *job_test_resv(uint32_t node_cnt, bitstr_t *avail_bitmap);

/* ---- bucket_resrcs.c ---------------------------------------------------- */

/* Whole-node job_resources for @job_ptr on @nodes; sets total_cpus. */
extern void resrcs_build(job_record_t *job_ptr, bitstr_t *nodes);

/* CPUs of node @i a job may use (cpus_per_task, ntasks_per_node...). */
extern uint32_t resrcs_avail_cpus(const job_record_t *job_ptr, int i);

/* Allocate / release the job's GRES on its nodes. */
extern void resrcs_gres_alloc(job_record_t *job_ptr);
extern void resrcs_gres_dealloc(job_record_t *job_ptr);

#endif /* SELECT_BUCKET_H */
