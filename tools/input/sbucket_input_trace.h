/*
 * sbucket_input_trace.h - a workload as 'sbucket replay' reads it: the
 * jobs of a log (SWF, sbucket_input_swf.h) or of a site's accounting
 * (sacct -P, sbucket_input_sacct.h), read by one call that tells them
 * apart, and the lines of a file that may be gzip-compressed.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A trace keeps each job as its log gives it (times in seconds from the
 * trace's start, -1 where the log does not know), users and accounts by
 * index into name tables, and the machine the log describes. What a
 * replay makes of a job the log does not know enough about (no run time,
 * no size, no limit) is the replay's choice, not the reader's.
 *
 * Files: read through zlib, which reads a gzip file and a plain one
 * alike (a .swf.gz log as the Parallel Workloads Archive ships it, or
 * its decompressed .swf); '-' is standard input. A file must be a
 * regular file (or a pipe, for '-') of at most SBI_TRACE_FILE_MAX bytes
 * as stored; a line holds at most SBI_TRACE_LINE_MAX bytes and no NUL
 * byte; a trace at most SBI_TRACE_JOBS_MAX jobs.
 */
#ifndef SBUCKET_INPUT_TRACE_H
#define SBUCKET_INPUT_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "strmap.h"

#define SBI_TRACE_FILE_MAX (INT64_C(4) << 30)	/* 4 GiB stored */
#define SBI_TRACE_LINE_MAX 65536
#define SBI_TRACE_JOBS_MAX ((size_t) 50000000)
/* Times and sizes above this are refused: sums stay far from overflow. */
#define SBI_TRACE_VALUE_MAX (INT64_C(1) << 40)

/* One job as the log gives it. */
typedef struct {
	int64_t num;			/* its number (SWF field 1, sacct's
					 * JobID when it is one), -1 */
	char *id;			/* sacct's JobID as written; NULL
					 * (SWF: the number) */
	int64_t submit;			/* >= 0 */
	int64_t wait;			/* as it waited on its machine, -1 */
	int64_t run;			/* -1: it never ran */
	int64_t limit;			/* requested time, -1: none known */
	int64_t size;			/* units it asked for, -1 unknown */
	int64_t nodes;			/* whole nodes, -1 unknown */
	uint32_t user, account;		/* index into the name tables */
} sbi_trace_job_t;

typedef struct {
	sbi_trace_job_t *jobs;
	size_t njobs, cap;
	char **users, **accounts;
	size_t nusers, naccounts;
	sb_strmap_t *umap, *amap;
	int64_t max_procs;		/* the log's machine, -1 unknown */
	int64_t max_nodes;
	int64_t start;			/* time 0 in Unix seconds, -1 */
	size_t skipped;			/* bad lines skipped (skip_bad) */
} sbi_trace_t;

/* What a file holds. */
typedef enum {
	SBI_TRACE_AUTO,			/* see sbi_trace_read() */
	SBI_TRACE_SWF,
	SBI_TRACE_SACCT,
} sbi_trace_format_t;

/*
 * Read the workload of @path ('-': standard input; gzip or not) into @t
 * (initialised), as an SWF log (sbucket_input_swf.h) or sacct's -P
 * output (sbucket_input_sacct.h); SBI_TRACE_AUTO decides by the first
 * line that is not blank: sacct's when it holds a '|', else SWF. A
 * malformed line stops the reading with its one error line, or, with
 * @skip_bad, is skipped and counted (t->skipped). Returns 0, or -1 after
 * one error line. O(bytes).
 */
int sbi_trace_read(const char *path, sbi_trace_format_t format,
		   bool skip_bad, sbi_trace_t *t);

/* An empty trace; 0, or -1 after "sbucket: out of memory". */
int sbi_trace_init(sbi_trace_t *t);

/* Release what @t holds; a zeroed @t and NULL are fine. */
void sbi_trace_fini(sbi_trace_t *t);

/* The index of user (or account) @name in @t, added when new; SIZE_MAX
 * with errno ENOMEM. */
size_t sbi_trace_user(sbi_trace_t *t, const char *name);
size_t sbi_trace_account(sbi_trace_t *t, const char *name);

/*
 * Room for one more job of @user and @account (their names interned): a
 * pointer to it, zeroed but for them (the caller fills the rest and
 * then counts it with t->njobs++), or NULL after one error line ("more
 * than 50000000 jobs" at @path:@lineno, or out of memory).
 */
sbi_trace_job_t *sbi_trace_add(sbi_trace_t *t, const char *user,
			       const char *account, const char *path,
			       size_t lineno);

/* ---- the lines of a file, gzip or not ------------------------------------ */

typedef struct sbi_lines sbi_lines_t;

/*
 * Open @path ('-': standard input) for reading line by line. Returns the
 * reader, or NULL after one error line naming the file ("sbucket: PATH:
 * No such file or directory", "... not a regular file", "... larger than
 * 4 GiB").
 */
sbi_lines_t *sbi_lines_open(const char *path);

/*
 * The next line (without its newline, NUL-terminated, valid until the
 * next call) into *@line and its length into *@len; its number (from 1)
 * into *@lineno. Returns 1, 0 at the end of the file, or -1 after one
 * error line ("sbucket: PATH:LINE: a NUL byte (not a text file?)",
 * "... longer than 65536 bytes", "sbucket: PATH: gzip: <zlib's word>").
 */
int sbi_lines_next(sbi_lines_t *l, char **line, size_t *len,
		   size_t *lineno);

/* Close @l; NULL is fine. */
void sbi_lines_close(sbi_lines_t *l);

#endif /* SBUCKET_INPUT_TRACE_H */
