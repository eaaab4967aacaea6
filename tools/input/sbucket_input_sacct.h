/*
 * sbucket_input_sacct.h - a site's own accounting, as sacct prints it
 * with -P, read into a trace (sbucket_input_trace.h) for 'sbucket
 * replay'.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The command (sbucket(1) gives it; START and END as sacct takes them,
 * e.g. 2026-10-01 and now):
 *
 *   sacct -a -X -P -S START -E END -o JobID,User,Account,Submit,Start,
 *         End,ElapsedRaw,TimelimitRaw,ReqCPUS,AllocCPUS,NNodes,State
 *
 * The first line names the columns (sacct prints it; any order, other
 * columns allowed and ignored); then one job a line, fields split by
 * '|'. JobID and Submit are required, and a run time (ElapsedRaw, or
 * Start and End) and a size (ReqCPUS, AllocCPUS or NNodes) must be
 * there. A job of the trace gets:
 *   submit  Submit, in seconds from the earliest Submit of the file
 *           (times are sacct's YYYY-MM-DDTHH:MM:SS, in local time)
 *   run     ElapsedRaw (else End - Start); -1 when the job never started
 *           (Start Unknown or None: pending, or cancelled waiting) or
 *           has not ended (End Unknown: still running), as far as the
 *           columns given say
 *   wait    Start - Submit, when it started
 *   limit   TimelimitRaw (minutes) in seconds; -1 for UNLIMITED,
 *           Partition_Limit or empty
 *   size    ReqCPUS, else AllocCPUS (CPUs), -1 when neither is > 0
 *   nodes   NNodes, -1 when absent
 *   user, account  User, Account ("unknown" when absent or empty)
 * A job step (a JobID with '.', which -X leaves out) is skipped. A bad
 * line gives one error naming the file, the line and the column:
 *   sbucket: jobs.sacct:7: column Submit '2026-13-01T00:00:00': not a time
 * or, with skip_bad, is skipped and counted (t->skipped).
 *
 * Operations (L a line's length, K columns, J jobs):
 *   sbi_sacct_init    O(1)
 *   sbi_sacct_line    O(L + K)
 *   sbi_sacct_finish  O(J)
 */
#ifndef SBUCKET_INPUT_SACCT_H
#define SBUCKET_INPUT_SACCT_H

#include <stdbool.h>
#include <stddef.h>

#include "sbucket_input_trace.h"

/* The command whose output the reader reads (without -S and -E). */
#define SBI_SACCT_COLUMNS "JobID,User,Account,Submit,Start,End,ElapsedRaw," \
	"TimelimitRaw,ReqCPUS,AllocCPUS,NNodes,State"

/* Most columns on a line. */
#define SBI_SACCT_FIELDS_MAX 64

/* Which column holds what (-1: absent), from the header line. */
typedef struct {
	bool header;			/* read */
	int nfields;
	int job, user, account, submit, start, end, elapsed, limit;
	int reqcpus, alloccpus, nnodes;
	int64_t first;			/* the earliest Submit, epoch s */
} sbi_sacct_t;

/* Before the first line. */
void sbi_sacct_init(sbi_sacct_t *s);

/*
 * One line of sacct's output (modified): the header first, then jobs
 * into @t (submit times kept absolute until sbi_sacct_finish()).
 * Returns 0, 1 when the line is malformed (after one error line unless
 * @quiet; a bad header is always reported and is fatal: -1), or -1
 * after "out of memory" or a bad header.
 */
int sbi_sacct_line(sbi_trace_t *t, sbi_sacct_t *s, char *line,
		   const char *path, size_t lineno, bool quiet);

/*
 * After the last line: submit times from the earliest one (t->start
 * becomes it). Returns 0, or -1 after one error line when the file had
 * no header.
 */
int sbi_sacct_finish(sbi_trace_t *t, const sbi_sacct_t *s,
		     const char *path);

#endif /* SBUCKET_INPUT_SACCT_H */
