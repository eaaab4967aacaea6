/*
 * sbucket_input_jobs.h - the jobs file of sbucket: one job a line,
 * "JobId=ID" and sbatch options (sbucket_input.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SBUCKET_INPUT_JOBS_H
#define SBUCKET_INPUT_JOBS_H

#include <stddef.h>
#include <stdint.h>

#include "node.h"
#include "sbucket_input_nodes.h"

typedef struct {
	char *jobid;
	sb_request_t req;
	/*
	 * -L/--licenses, as written (a name may repeat: Slurm adds the
	 * counts up). Only 'sbucket backfill' plans them; the reader does
	 * not check them against the nodes file's Licenses=.
	 */
	sb_license_t *lic;
	size_t nlic;
} sbi_job_t;

/*
 * Parse one line of a jobs file (modified in place). Returns 1 and
 * fills *job, 0 for a blank or comment line, -1 after printing an error.
 */
int sbi_parse_job(const char *path, size_t lineno, char *line,
		  const sbi_cluster_t *cl, sbi_job_t *job);

void sbi_job_fini(sbi_job_t *job);

/* The jobs of a jobs file, in file order. */
typedef struct {
	sbi_job_t *v;
	size_t *line;			/* the line of each */
	size_t n;
} sbi_jobs_t;

/*
 * What a subcommand refuses in a job that parsed: 0, or 1 after writing
 * the rest of the message, after "job ID", into @why (e.g. ": -w is not
 * supported").
 */
typedef int sbi_refuse_f(const sbi_job_t *job, const void *ctx, char *why,
			 size_t len);

/*
 * Read every job of @path into *jobs (zeroed first) before any is
 * placed, so that a bad line anywhere gives its one error and no
 * output at all. @refuse (may be NULL) is asked about each job in turn
 * and its refusal is printed as "sbucket: PATH:LINE: job ID<why>".
 * 0, or -1 after the error (*jobs is then empty).
 */
int sbi_read_jobs(const char *path, const sbi_cluster_t *cl,
		  sbi_refuse_f *refuse, const void *ctx, sbi_jobs_t *jobs);

void sbi_jobs_fini(sbi_jobs_t *jobs);

/*
 * sbatch --time formats, in seconds: SB_TIME_INFINITE for UNLIMITED and,
 * as sbatch has it, for a limit of zero. Each field is at most 10^9, so
 * the sum never wraps. 0, or -1 for anything else.
 */
int sbi_parse_time(const char *s, int64_t *secs);

#endif /* SBUCKET_INPUT_JOBS_H */
