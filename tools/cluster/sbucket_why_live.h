/*
 * sbucket_why_live.h - the running cluster as 'sbucket why' sees it.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Read from slurmctld through its own commands, as 'sbucket fairshare'
 * without FILE does: 'scontrol show config' (SelectType, the base,
 * bucket.conf's effective settings, PriorityType, PreemptType),
 * 'scontrol show nodes|partition|res|jobs -o', and for one job 'squeue
 * --start'. SBUCKET_SCONTROL and SBUCKET_SQUEUE name other binaries
 * (default: scontrol and squeue from PATH); they run with
 * SLURM_TIME_FORMAT=standard. SBUCKET_NOW (seconds since the epoch)
 * stands in for the current time.
 *
 * Nodes become sb_node_t (the fields select/bucket's bucket_convert.c
 * reads, from scontrol's names for them), each job's request is written
 * as a line of 'sbucket place''s jobs file and read by its parser
 * (sbi_parse_job()), so both commands read requests alike.
 */
#ifndef SBUCKET_WHY_LIVE_H
#define SBUCKET_WHY_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bitmap.h"
#include "bucket_conf.h"
#include "sbucket_input_jobs.h"
#include "slurm_text.h"

typedef struct {
	char *name;
	bool is_default;
	bool exclusive, no, force;	/* OverSubscribe EXCLUSIVE, NO,
					 * FORCE:n with n > 1 */
	uint32_t tier;			/* PriorityTier */
	char *max_time;			/* MaxTime as printed */
} sbw_part_t;

typedef struct {
	char *name;
	sb_bitmap_t *nodes;
	int64_t start, end;
	bool partial;			/* cores, not whole nodes */
	sb_record_t *rec;
} sbw_resv_t;

typedef enum {
	SBW_PENDING,
	SBW_RUNNING,
	SBW_SUSPENDED,
	SBW_OTHER,			/* completing, done, ... */
} sbw_state_t;

/* sprio's weighted factors of a pending job, in this order. */
enum { SBW_PRIO, SBW_AGE, SBW_FAIRSHARE, SBW_JOBSIZE, SBW_PARTITION, SBW_QOS,
       SBW_NFACTORS };

typedef struct {
	const char *id;			/* JobId, in rec */
	sb_record_t *rec;
	sbw_state_t state;
	const char *user;		/* UserId's name (lv->users owns
					 * it, shared by jobs in a row) */
	const char *account;		/* NULL when none; in rec */
	bool have_factors;		/* sbw_live_sprio() found it */
	int64_t factors[SBW_NFACTORS];
	uint32_t priority;
	int part;			/* index in parts, -1 unknown */
	uint32_t min_nodes, max_nodes;	/* max 0: none given */
	uint64_t cpus;			/* NumCPUs */
	uint32_t node_cpus;		/* CPUs each node must have */
	int64_t start, end;		/* -1 when not shown */
	int64_t time_limit;		/* seconds, SB_TIME_INFINITE */
	sb_bitmap_t *nodes;		/* running: its nodes, else NULL;
					 * shared by the jobs of one
					 * NodeList (lv->nodesets owns
					 * it): read only */
	int resv;			/* index in resv, -1 none */
	sbi_job_t req;			/* as 'sbucket place' reads it */
	bool have_req;			/* req could be built */
	char *req_line;			/* the line req was read from */
} sbw_job_t;

typedef struct {
	int64_t now;
	char *select_type;		/* SelectType */
	char *base;			/* BaseSelectType (select/bucket) */
	bool base_cons;
	char *priority_type, *preempt_type;
	char *accounting_type;		/* AccountingStorageType, NULL
					 * when not shown */
	int64_t bf_resolution;		/* SchedulerParameters, seconds */
	bool bf_licenses;		/* SchedulerParameters: backfill
					 * plans licences */
	sb_bucket_conf_t *conf;		/* bucket.conf, slurmctld's */
	sbi_cluster_t cl;		/* nodes, by name */
	sbw_part_t *parts;
	size_t nparts;
	sbw_resv_t *resv;
	size_t nresv;
	sbw_job_t *jobs;
	size_t njobs;
	sb_bitmap_t **nodesets;		/* the jobs' node sets, one per
					 * distinct NodeList */
	size_t nnodesets;
	char **users;			/* the jobs' user names */
	size_t nusers;
	struct sb_strmap *by_id;	/* JobId -> index in jobs, made by
					 * the first sbw_live_job() */
} sbw_live_t;

/*
 * The decimal number @s starts with ("123_4" -> 123, "2:0:*:*" -> 2), 0
 * when it starts with none: slurmctld's own fields, read leniently.
 */
uint64_t sbw_leading_number(const char *s);

/*
 * Read everything but the jobs' requests. 0, or -1 after printing one
 * error line (a command missing or failing, output it does not
 * understand). @lv is zeroed first; release with sbw_live_fini().
 */
int sbw_live_read(sbw_live_t *lv);

/*
 * Build job @j's request (j->req, j->req_line) from its record; -1 after
 * printing one error naming the job (e.g. a constraint the parser does
 * not take). A job placed by the base still gets a request: its count
 * and per-node minimums describe the nodes it could use.
 */
int sbw_live_request(sbw_live_t *lv, sbw_job_t *j);

void sbw_live_fini(sbw_live_t *lv);

/*
 * Run "BIN @args", BIN being $@env or else @dflt, with stderr joined to
 * stdout, and hand each output line (newline removed) to @fn; a line @fn
 * refuses (-1) stops the handing, the output is still drained. Returns
 * 0, or -1 after printing one error line (the command's own first line
 * when it fails).
 */
int sbw_live_run(const char *env, const char *dflt, const char *args,
		 int (*fn)(void *, char *), void *arg);

/*
 * sbw_live_run(), but a command that cannot run or fails is said in
 * @err (@errlen bytes, one line: its own first line, "failed, no
 * output" or "cannot run: ...") instead of on stderr: for a command
 * whose failure is no error (sacct without accounting).
 */
int sbw_live_run_err(const char *env, const char *dflt, const char *args,
		     int (*fn)(void *, char *), void *arg, char *err,
		     size_t errlen);

/*
 * The weighted priority factors of every pending job, from 'sprio -h -o'
 * (SBUCKET_SPRIO names another binary). 0, or -1 after one error line.
 */
int sbw_live_sprio(sbw_live_t *lv);

/*
 * The job called @id (a job id, or ARRAYID_TASKID), or NULL. O(1)
 * expected for a job id (an index made on the first call, O(jobs)), a
 * scan of the jobs for an array task's name.
 */
sbw_job_t *sbw_live_job(sbw_live_t *lv, const char *id);

/*
 * squeue --start for job @id: its planned start in *start (-1 when
 * squeue shows none) and its planned nodes in @nodes (a buffer of @len
 * bytes, "" when none). 0, or -1 after printing one error line.
 */
int sbw_live_squeue_start(const char *id, int64_t *start, char *nodes,
			  size_t len);

#endif /* SBUCKET_WHY_LIVE_H */
