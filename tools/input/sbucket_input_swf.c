/*
 * sbucket_input_swf.c - a log in the Standard Workload Format, read into
 * a trace and written back (sbucket_input_swf.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbucket_input_swf.h"
#include "shown.h"

#define NFIELDS 18

static const char *const _field[NFIELDS] = {
	"job number", "submit time", "wait time", "run time",
	"allocated processors", "average CPU time", "used memory",
	"requested processors", "requested time", "requested memory",
	"status", "user id", "group id", "executable number",
	"queue number", "partition number", "preceding job", "think time",
};

/* Fields that may have decimals (CPU time, memory). */
static bool _decimal_ok(int f)
{
	return f == 5 || f == 6 || f == 9;
}

/*
 * Field @s (@n bytes) as an integer >= -1 into *@v, or, for a decimal
 * field, checked only (*v its whole part). NULL, or what is wrong.
 */
static const char *_number(const char *s, size_t n, bool decimal,
			   int64_t *v)
{
	size_t i = 0;
	int64_t x = 0;
	bool neg = false, digits = false;

	if (s[0] == '-') {
		neg = true;
		i++;
	}
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		digits = true;
		if (x > SBI_TRACE_VALUE_MAX)
			return "out of range";
		x = x * 10 + (s[i] - '0');
	}
	if (decimal && i < n && s[i] == '.') {
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			digits = true;
	}
	if (!digits || i != n)
		return "not a number";
	if (x > SBI_TRACE_VALUE_MAX)
		return "out of range";
	if (neg && x != 1 && !(decimal && x == 0))
		return "negative (-1 is unknown)";
	if (neg && decimal && x == 0)
		return "negative (-1 is unknown)";
	*v = neg ? -x : x;
	return NULL;
}

/*
 * "; Key: value" header lines: MaxProcs, MaxNodes, UnixStartTime. The
 * value is the number that starts it; what follows is a comment (CTC's
 * "MaxNodes: 338 (batch partition; 512 total)").
 */
static int _header(sbi_trace_t *t, const char *line, const char *path,
		   size_t lineno, bool quiet)
{
	static const char *const keys[] = { "MaxProcs:", "MaxNodes:",
					    "UnixStartTime:" };
	int64_t *dst[] = { &t->max_procs, &t->max_nodes, &t->start };
	char p[SB_SHOWN_BUF], v[SB_SHOWN_BUF];
	const char *s = line + 1;
	size_t k, n;
	int64_t x;

	while (*s == ' ' || *s == '\t')
		s++;
	for (k = 0; k < 3; k++) {
		const char *why;

		n = strlen(keys[k]);
		if (strncmp(s, keys[k], n))
			continue;
		s += n;
		while (*s == ' ' || *s == '\t')
			s++;
		n = strcspn(s, " \t");
		if ((why = _number(s, n, false, &x)) || x < 0) {
			if (quiet)
				return -1;
			fprintf(stderr, "sbucket: %s:%zu: %.*s '%s': %s\n",
				sb_shown(p, sizeof(p), path), lineno,
				(int) strlen(keys[k]) - 1, keys[k],
				sb_shown(v, sizeof(v), s),
				why ? why : "not a number >= 0");
			return -1;
		}
		*dst[k] = x;
		return 0;
	}
	return 0;
}

/* One job line into @t; 0, 1 (malformed: reported unless @quiet), -1
 * (out of memory). */
static int _job(sbi_trace_t *t, char *line, const char *path,
		size_t lineno, bool quiet)
{
	char p[SB_SHOWN_BUF], v[SB_SHOWN_BUF], save;
	char *f[NFIELDS + 1], *s = line;
	size_t len[NFIELDS + 1], n = 0;
	int64_t x[NFIELDS];
	sbi_trace_job_t *j;
	int k;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		if (n == NFIELDS + 1)
			break;
		f[n] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		len[n] = (size_t) (s - f[n]);
		n++;
	}
	if (n != NFIELDS) {
		if (!quiet)
			fprintf(stderr, "sbucket: %s:%zu: %s%zu fields, want "
				"%d%s\n", sb_shown(p, sizeof(p), path), lineno,
				n > NFIELDS ? "more than " : "",
				n > NFIELDS ? (size_t) NFIELDS : n, NFIELDS,
				n < NFIELDS ? " (a line cut short?)" : "");
		return 1;
	}
	for (k = 0; k < NFIELDS; k++) {
		const char *why = _number(f[k], len[k], _decimal_ok(k),
					  &x[k]);

		if (!why && k == 1 && x[k] < 0)
			why = "unknown: a replay needs it";
		if (why) {
			if (!quiet) {
				save = f[k][len[k]];
				f[k][len[k]] = '\0';
				fprintf(stderr, "sbucket: %s:%zu: field %d "
					"(%s) '%s': %s\n",
					sb_shown(p, sizeof(p), path), lineno,
					k + 1, _field[k],
					sb_shown(v, sizeof(v), f[k]), why);
				f[k][len[k]] = save;
			}
			return 1;
		}
	}
	f[11][len[11]] = '\0';
	f[12][len[12]] = '\0';
	if (!(j = sbi_trace_add(t, f[11], f[12], path, lineno)))
		return -1;
	j->num = x[0];
	j->submit = x[1];
	j->wait = x[2];
	j->run = x[3];
	j->size = x[7] > 0 ? x[7] : x[4] > 0 ? x[4] : -1;
	j->nodes = -1;
	j->limit = x[8] > 0 ? x[8] : -1;
	t->njobs++;
	return 0;
}

int sbi_swf_line(sbi_trace_t *t, char *line, const char *path,
		 size_t lineno, bool quiet)
{
	size_t i = strspn(line, " \t");

	if (!line[i])
		return 0;
	if (line[i] == ';')
		return _header(t, line + i, path, lineno, quiet) < 0 ? 1 : 0;
	return _job(t, line, path, lineno, quiet);
}

/* A name as an SWF number: itself when it is one, else @i + 1. */
static void _id(char *buf, size_t len, const char *name, size_t i)
{
	int64_t x;

	if (!_number(name, strlen(name), false, &x))
		snprintf(buf, len, "%" PRId64, x);
	else
		snprintf(buf, len, "%zu", i + 1);
}

int sbi_swf_write(FILE *f, const sbi_trace_t *t, int64_t procs,
		  const int64_t *wait, const int64_t *run)
{
	char u[32], a[32];
	size_t i;

	fprintf(f, "; Version: 2.2\n; Computer: sbucket replay\n");
	if (t->start >= 0)
		fprintf(f, "; UnixStartTime: %" PRId64 "\n", t->start);
	if (t->max_nodes > 0)
		fprintf(f, "; MaxNodes: %" PRId64 "\n", t->max_nodes);
	if (procs > 0 || t->max_procs > 0)
		fprintf(f, "; MaxProcs: %" PRId64 "\n",
			procs > 0 ? procs : t->max_procs);
	for (i = 0; i < t->njobs; i++) {
		const sbi_trace_job_t *j = &t->jobs[i];

		_id(u, sizeof(u), t->users[j->user], j->user);
		_id(a, sizeof(a), t->accounts[j->account], j->account);
		fprintf(f, "%" PRId64 " %" PRId64 " %" PRId64 " %" PRId64
			" %" PRId64 " -1 -1 %" PRId64 " %" PRId64
			" -1 -1 %s %s -1 -1 -1 -1 -1\n",
			j->num >= 0 ? j->num : (int64_t) i + 1, j->submit,
			wait ? wait[i] : j->wait, run ? run[i] : j->run,
			j->size, j->size, j->limit, u, a);
	}
	return fflush(f) || ferror(f) ? -1 : 0;
}
