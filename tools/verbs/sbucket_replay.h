/*
 * sbucket_replay.h - what the parts of 'sbucket replay' share: a
 * configuration as the command line gave it, the jobs a trace gives it,
 * and a replay's outcome (sbucket_replay.c reads and runs;
 * sbucket_replay_print.c prints; sbucket_replay_chart.c draws).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SBUCKET_REPLAY_H
#define SBUCKET_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "replay.h"
#include "replay_metrics.h"
#include "policy.h"
#include "sbucket_input_nodes.h"
#include "sbucket_input_trace.h"

/* One configuration (two with --compare). */
typedef struct {
	sb_replay_conf_t rc;		/* the engine's (units 0: the log's) */
	int64_t procs;			/* --procs, 0: the log's MaxProcs */
	double drop_first;		/* --drop-first, percent */
	const char *tree_file;		/* --tree: an 'sbucket fairshare'
					 * file, NULL: from the trace */
	/* --nodes: whole nodes of a nodes file (NULL: units) */
	const char *nodes_file;
	const char *policy, *priorityf;	/* --policy, --priorityf */
	bool base_set;			/* --base given */
	bool bf_clock_set;		/* --bf-clock given */
	int64_t cpus_per_node;		/* 0: the fewest CPUs of a node */
} sbr_conf_t;

/* The jobs a configuration replays, and those it cannot. */
typedef struct {
	sb_replay_job_t *jobs;
	size_t *from;			/* replayed job -> trace job */
	size_t n;
	size_t never_ran;		/* no run time (cancelled waiting) */
	size_t no_size;			/* no processor count */
	size_t too_large;		/* larger than the machine */
	size_t no_limit;		/* ran to their run time as limit */
} sbr_input_t;

/* A configuration's replay. */
typedef struct {
	const sbr_conf_t *c;
	const sbi_trace_t *t;
	const char *trace_name;		/* as given on the command line */
	sbr_input_t in;
	sbi_cluster_t cl;		/* --nodes: the nodes */
	sb_policy_t pol;
	int64_t cpn;			/* CPUs per node of a job's size */
	int64_t units;			/* the machine: units or nodes */
	const char *unit_name;		/* "units" or "nodes" */
	sb_assoc_tree_t *tree;		/* multifactor */
	size_t tree_added;		/* users --tree's file lacked */
	sb_replay_out_t *out;		/* per replayed job */
	sb_replay_series_t series;	/* with --chart */
	sb_replay_metrics_t m;
} sbr_run_t;

/* ---- sbucket_replay_print.c ---------------------------------------------- */

/* The summary of @r (and the users' table with @users) as text. */
void sbr_print_summary(const sbr_run_t *r, bool users);

/* The two replays side by side. */
void sbr_print_compare(const sbr_run_t *a, const sbr_run_t *b);

/* One line per job: JobId|User|Submit|Start|End|Size|Wait. */
void sbr_print_jobs(const sbr_run_t *r);

/* {"summary": {...}, "jobs": [...]}, every job in "jobs". */
void sbr_print_json(const sbr_run_t *r);

/* A job's id as the trace gives it into @buf. */
const char *sbr_job_id(const sbr_run_t *r, size_t i, char *buf,
		       size_t len);

/* ---- sbucket_replay_chart.c ---------------------------------------------- */

/*
 * The chart of one replay (or two, @b not NULL; both replayed with their
 * series) onto @f (named @file in messages): utilisation and jobs
 * waiting over time, mean wait by job size. 0, or -1 after one error
 * line.
 */
int sbr_chart(const sbr_run_t *a, const sbr_run_t *b, FILE *f,
	      const char *file);

#endif /* SBUCKET_REPLAY_H */
