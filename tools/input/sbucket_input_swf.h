/*
 * sbucket_input_swf.h - a log in the Standard Workload Format (the
 * Parallel Workloads Archive's SWF, version 2.2), read into a trace
 * (sbucket_input_trace.h) for 'sbucket replay', and a trace written back
 * as one.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A log is header lines starting with ';' ("; MaxProcs: 128", "; MaxNodes:
 * 128" and "; UnixStartTime: 893466664" are read, the number that starts
 * the value, what follows it a comment; the others are skipped),
 * blank lines, and one job a line: 18 blank-separated numbers, -1 where
 * unknown. Fields 6, 7 and 10 (CPU time, memory) may have decimals,
 * the others are integers >= -1; the submit time is >= 0, and no value
 * passes SBI_TRACE_VALUE_MAX. A job of the trace gets:
 *   num    field 1          submit  field 2      wait  field 3
 *   run    field 4 (-1: it never ran, as a job cancelled while waiting)
 *   size   field 8, requested processors, or field 5, allocated ones,
 *          where 8 is -1 (CTC's log has no field 8); -1 when both are
 *   limit  field 9, requested time (-1, or 0: none)
 *   user   field 12 and account field 13, as written ("-1" too)
 *
 * A malformed line is one error naming the file, the line and the field:
 *   sbucket: log.swf:12: field 4 (run time) '1x0': not a number
 *   sbucket: log.swf:13: 17 fields, want 18 (a line cut short?)
 * or, with skip_bad, a line skipped and counted (t->skipped).
 *
 * Operations (L the line's length, J jobs):
 *   sbi_swf_line   O(L)
 *   sbi_swf_write  O(J)
 */
#ifndef SBUCKET_INPUT_SWF_H
#define SBUCKET_INPUT_SWF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sbucket_input_trace.h"

/*
 * One line of an SWF log (modified) into @t: a header line read, a job
 * appended (t->njobs), a blank line skipped. Returns 0, 1 when the line
 * is malformed (after one error line naming @path, @lineno and the
 * field, unless @quiet), or -1 after "out of memory" (or too many
 * jobs). sbi_trace_read() calls it line by line.
 */
int sbi_swf_line(sbi_trace_t *t, char *line, const char *path,
		 size_t lineno, bool quiet);

/*
 * @t as an SWF log on @f: a header (MaxProcs and MaxNodes when known, or
 * @procs when > 0; UnixStartTime when known), then one line per job with
 * fields 1-5, 8, 9, 12 and 13 from the trace (processors in 5 and 8, the
 * user and account names when they are numbers, else their index + 1)
 * and -1 elsewhere; @wait and @run (per job; NULL: the trace's) replace
 * fields 3 and 4, as a replay's outcome. Returns 0, or -1 with errno
 * when @f could not be written.
 */
int sbi_swf_write(FILE *f, const sbi_trace_t *t, int64_t procs,
		  const int64_t *wait, const int64_t *run);

#endif /* SBUCKET_INPUT_SWF_H */
