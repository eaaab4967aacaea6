/*
 * sbucket_input_sacct.c - sacct -P output read into a trace
 * (sbucket_input_sacct.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "sbucket_input_sacct.h"
#include "shown.h"
#include "slurm_text.h"

void sbi_sacct_init(sbi_sacct_t *s)
{
	memset(s, 0, sizeof(*s));
	s->job = s->user = s->account = s->submit = s->start = s->end = -1;
	s->elapsed = s->limit = s->reqcpus = s->alloccpus = s->nnodes = -1;
	s->first = -1;
}

/* Split @line in place at '|'; the count, or FIELDS_MAX + 1 past it. */
static int _split(char *line, char **f)
{
	int n = 0;

	for (;;) {
		if (n == SBI_SACCT_FIELDS_MAX)
			return SBI_SACCT_FIELDS_MAX + 1;
		f[n++] = line;
		if (!(line = strchr(line, '|')))
			return n;
		*line++ = '\0';
	}
}

static int _header(sbi_sacct_t *s, char *line, const char *path,
		   size_t lineno)
{
	static const char *const names[] = {
		"JobID", "User", "Account", "Submit", "Start", "End",
		"ElapsedRaw", "TimelimitRaw", "ReqCPUS", "AllocCPUS", "NNodes",
	};
	int *col[] = { &s->job, &s->user, &s->account, &s->submit, &s->start,
		       &s->end, &s->elapsed, &s->limit, &s->reqcpus,
		       &s->alloccpus, &s->nnodes };
	char p[SB_SHOWN_BUF], *f[SBI_SACCT_FIELDS_MAX];
	const char *why = NULL;
	int i;
	size_t k;

	sb_shown(p, sizeof(p), path);
	if ((s->nfields = _split(line, f)) > SBI_SACCT_FIELDS_MAX) {
		fprintf(stderr, "sbucket: %s:%zu: header: more than %d "
			"columns\n", p, lineno, SBI_SACCT_FIELDS_MAX);
		return -1;
	}
	for (i = 0; i < s->nfields; i++)
		for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			if (!strcmp(f[i], names[k])) {
				if (*col[k] >= 0) {
					fprintf(stderr, "sbucket: %s:%zu: "
						"header: column %s twice\n", p,
						lineno, names[k]);
					return -1;
				}
				*col[k] = i;
			}
	if (s->job < 0 || s->submit < 0)
		why = "needs JobID and Submit";
	else if (s->elapsed < 0 && (s->start < 0 || s->end < 0))
		why = "needs ElapsedRaw, or Start and End";
	else if (s->reqcpus < 0 && s->alloccpus < 0 && s->nnodes < 0)
		why = "needs ReqCPUS, AllocCPUS or NNodes";
	if (why) {
		fprintf(stderr, "sbucket: %s:%zu: header: %s (sacct -P -o "
			SBI_SACCT_COLUMNS ")\n", p, lineno, why);
		return -1;
	}
	s->header = true;
	return 0;
}

/* One error about column @name's value @v, unless @quiet; returns 1. */
static int _bad(const char *path, size_t lineno, const char *name,
		const char *v, const char *why, bool quiet)
{
	char p[SB_SHOWN_BUF], x[SB_SHOWN_BUF];

	if (!quiet)
		fprintf(stderr, "sbucket: %s:%zu: column %s '%s': %s\n",
			sb_shown(p, sizeof(p), path), lineno, name,
			sb_shown(x, sizeof(x), v), why);
	return 1;
}

/* A count column: -1 when absent or empty, else 0..SBI_TRACE_VALUE_MAX. */
static int _count(char **f, int col, const char *name, int64_t *out,
		  const char *path, size_t lineno, bool quiet)
{
	uint64_t v;

	*out = -1;
	if (col < 0 || !f[col][0])
		return 0;
	if (sb_decimal_in(f[col], 0, SBI_TRACE_VALUE_MAX, &v) < 0)
		return _bad(path, lineno, name, f[col], "not a number",
			    quiet);
	*out = (int64_t) v;
	return 0;
}

/* A time column: 0 and the time, 0 and -1 for none ("Unknown"), 1. */
static int _time(char **f, int col, const char *name, int64_t *out,
		 const char *path, size_t lineno, bool quiet)
{
	*out = -1;
	if (col < 0)
		return 0;
	if (sb_slurm_time(f[col], out) < 0) {
		*out = -1;
		if (errno == ENOENT)
			return 0;
		return _bad(path, lineno, name, f[col], "not a time "
			    "(YYYY-MM-DDTHH:MM:SS)", quiet);
	}
	if (*out < 0 || *out > SBI_TRACE_VALUE_MAX)
		return _bad(path, lineno, name, f[col], "out of range",
			    quiet);
	return 0;
}

int sbi_sacct_line(sbi_trace_t *t, sbi_sacct_t *s, char *line,
		   const char *path, size_t lineno, bool quiet)
{
	char p[SB_SHOWN_BUF], *f[SBI_SACCT_FIELDS_MAX];
	int64_t submit, start, end, elapsed, limit = -1, req, alloc, nodes;
	const char *user, *account;
	sbi_trace_job_t *j;
	int n;

	if (!line[strspn(line, " \t")])
		return 0;
	if (!s->header)
		return _header(s, line, path, lineno);
	if ((n = _split(line, f)) != s->nfields) {
		if (!quiet)
			fprintf(stderr, "sbucket: %s:%zu: %s%d fields, want %d "
				"(the header's)\n",
				sb_shown(p, sizeof(p), path), lineno,
				n > SBI_SACCT_FIELDS_MAX ? "more than " : "",
				n > SBI_SACCT_FIELDS_MAX ?
				SBI_SACCT_FIELDS_MAX : n, s->nfields);
		return 1;
	}
	if (!f[s->job][0])
		return _bad(path, lineno, "JobID", "", "empty", quiet);
	if (strchr(f[s->job], '.'))
		return 0;		/* a step: not a job */
	if (_time(f, s->submit, "Submit", &submit, path, lineno, quiet) ||
	    _time(f, s->start, "Start", &start, path, lineno, quiet) ||
	    _time(f, s->end, "End", &end, path, lineno, quiet) ||
	    _count(f, s->elapsed, "ElapsedRaw", &elapsed, path, lineno,
		   quiet) ||
	    _count(f, s->reqcpus, "ReqCPUS", &req, path, lineno, quiet) ||
	    _count(f, s->alloccpus, "AllocCPUS", &alloc, path, lineno,
		   quiet) ||
	    _count(f, s->nnodes, "NNodes", &nodes, path, lineno, quiet))
		return 1;
	if (submit < 0)
		return _bad(path, lineno, "Submit", f[s->submit],
			    "unknown: a replay needs it", quiet);
	if (start >= 0 && start < submit)
		return _bad(path, lineno, "Start", f[s->start],
			    "before Submit", quiet);
	if (s->limit >= 0 && f[s->limit][0] &&
	    strcmp(f[s->limit], "UNLIMITED") &&
	    strcmp(f[s->limit], "Partition_Limit")) {
		uint64_t m;

		if (sb_decimal_in(f[s->limit], 1, SBI_TRACE_VALUE_MAX / 60,
				  &m) < 0)
			return _bad(path, lineno, "TimelimitRaw",
				    f[s->limit], "not a number of minutes "
				    "(or UNLIMITED)", quiet);
		limit = (int64_t) m * 60;
	}
	user = s->user >= 0 && f[s->user][0] ? f[s->user] : "unknown";
	account = s->account >= 0 && f[s->account][0] ? f[s->account] :
		"unknown";
	if (!(j = sbi_trace_add(t, user, account, path, lineno)))
		return -1;
	if (!(j->id = strdup(f[s->job]))) {
		fprintf(stderr, "sbucket: out of memory\n");
		return -1;
	}
	j->num = -1;
	j->submit = submit;
	j->wait = start >= 0 ? start - submit : -1;
	/* a run time only for a job that started and ended (as far as the
	 * columns given tell) */
	j->run = -1;
	if ((s->start < 0 || start >= 0) && (s->end < 0 || end >= 0))
		j->run = elapsed >= 0 ? elapsed :
			start >= 0 && end >= start ? end - start : -1;
	j->limit = limit;
	j->size = req > 0 ? req : alloc > 0 ? alloc : -1;
	j->nodes = nodes > 0 ? nodes : -1;
	t->njobs++;
	if (s->first < 0 || submit < s->first)
		s->first = submit;
	return 0;
}

int sbi_sacct_finish(sbi_trace_t *t, const sbi_sacct_t *s,
		     const char *path)
{
	char p[SB_SHOWN_BUF];
	size_t i;

	if (!s->header) {
		fprintf(stderr, "sbucket: %s: no header line (sacct -P -o "
			SBI_SACCT_COLUMNS ")\n", sb_shown(p, sizeof(p), path));
		return -1;
	}
	for (i = 0; i < t->njobs; i++)
		t->jobs[i].submit -= s->first;
	t->start = s->first;
	return 0;
}
