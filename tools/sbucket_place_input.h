/*
 * sbucket_place_input.h - the nodes and jobs files of 'sbucket place'.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Both readers print one error naming the file, the line and the token
 * ("sbucket: jobs.txt:3: token '--mem=abc': not a memory size") and
 * return -1; they never exit.
 */
#ifndef SBUCKET_PLACE_INPUT_H
#define SBUCKET_PLACE_INPUT_H

#include <stddef.h>

#include "node.h"
#include "place.h"

typedef struct {
	sb_node_t *nodes;		/* nodes[i].index == i, file order */
	size_t n;
	size_t *by_name;		/* indices sorted by name */
	size_t nindexed;		/* nodes in by_name */
	char *default_partition;	/* Default=YES partition, or NULL */
} sbp_cluster_t;

typedef struct {
	char *jobid;
	sb_request_t req;
} sbp_job_t;

/* Read a nodes file into *cl (zeroed first). 0, or -1 after an error. */
int sbp_read_nodes(const char *path, sbp_cluster_t *cl);

void sbp_cluster_fini(sbp_cluster_t *cl);

/*
 * Print the chunks of a placement to stdout as hostlists of their node
 * names, in hostlist order, joined by '+'. 0, or -1 with errno ENOMEM.
 */
int sbp_print_placement(const sbp_cluster_t *cl, const sb_placement_t *pl);

/* Index of the node called @name, or -1. O(log n). */
long sbp_find_node(const sbp_cluster_t *cl, const char *name);

/*
 * Parse one line of a jobs file (modified in place). Returns 1 and
 * fills *job, 0 for a blank or comment line, -1 after printing an error.
 */
int sbp_parse_job(const char *path, size_t lineno, char *line,
		  const sbp_cluster_t *cl, sbp_job_t *job);

void sbp_job_fini(sbp_job_t *job);

/* The jobs of a jobs file, in file order. */
typedef struct {
	sbp_job_t *v;
	size_t *line;			/* the line of each */
	size_t n;
} sbp_jobs_t;

/*
 * What a subcommand refuses in a job that parsed: 0, or 1 after writing
 * the rest of the message, after "job ID", into @why (e.g. ": -w is not
 * supported").
 */
typedef int sbp_refuse_f(const sbp_job_t *job, const void *ctx, char *why,
			 size_t len);

/*
 * Read every job of @path into *jobs (zeroed first) before any is
 * placed, so that a bad line anywhere gives its one error and no
 * output at all. @refuse (may be NULL) is asked about each job in turn
 * and its refusal is printed as "sbucket: PATH:LINE: job ID<why>".
 * 0, or -1 after the error (*jobs is then empty).
 */
int sbp_read_jobs(const char *path, const sbp_cluster_t *cl,
		  sbp_refuse_f *refuse, const void *ctx, sbp_jobs_t *jobs);

void sbp_jobs_fini(sbp_jobs_t *jobs);

/*
 * sbatch --time formats, in seconds: SB_TIME_INFINITE for UNLIMITED and,
 * as sbatch has it, for a limit of zero. Each field is at most 10^9, so
 * the sum never wraps. 0, or -1 for anything else.
 */
int sbp_parse_time(const char *s, int64_t *secs);

#endif /* SBUCKET_PLACE_INPUT_H */
