/*
 * sbucket_chart.c - 'sbucket chart': a node x time chart (SVG) of the
 * jobs in sacct's output or in 'sbucket backfill's plan.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * This file reads the two inputs into a chart (common/chart.h), which
 * lays it out, draws it and counts its numbers. The input's header line
 * says which of the two it is.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chart.h"
#include "decimal.h"
#include "hostlist_fmt.h"
#include "sb_time.h"
#include "sbucket.h"
#include "shown.h"
#include "slurm_text.h"
#include "strbuf.h"

#define PLAN_HEADER "JobId|Start|End|Nodes|Result"
#define SACCT_CMD "sacct -a -X -P -o JobID,User,Account,NodeList,Start,End"
#define MAX_FIELDS 64

static void _usage(FILE *f)
{
	fprintf(f,
"Usage: sbucket chart [OPTIONS] [FILE]\n"
"\n"
"Draw the jobs of FILE (standard input when FILE is '-' or absent) as a\n"
"node x time chart in SVG: one row per node, one box per job and node\n"
"with the job id inside, one colour per user or per job, a time axis.\n"
"FILE is either\n"
"  the accounting of a cluster, as printed by\n"
"      " SACCT_CMD "\n"
"    a header line naming the columns, then one job a line, fields split\n"
"    by '|'. JobID, NodeList, Start and End are required, User is used\n"
"    when present, other columns are ignored. Start and End are\n"
"    YYYY-MM-DDTHH:MM:SS in local time, as sacct prints them. Jobs with\n"
"    Start Unknown or None, or NodeList 'None assigned', never ran and\n"
"    are left out; End Unknown is a job still running (drawn to the\n"
"    chart's end, dashed).\n"
"  or the plan of 'sbucket backfill' with its header line\n"
"      " PLAN_HEADER "\n"
"    (times in seconds; End 'inf' is an open end; 'never' jobs are left\n"
"    out).\n"
"\n"
"Options:\n"
"  -o, --output=FILE    write the SVG to FILE (default: standard output)\n"
"  --color=user|job     a colour per user, with a legend (the default when\n"
"                       FILE has a User column), or per job\n"
"  --nodes=HOSTLIST     rows for these nodes too, even if no job ran there\n"
"  --title=TEXT         a heading\n"
"  --unit=SECONDS:NAME  label the time axis in units of SECONDS seconds\n"
"                       called NAME, e.g. --unit=3600:h (default: elapsed\n"
"                       time such as 1h30m)\n"
"  --stats              print the chart's numbers instead of drawing it:\n"
"                       Jobs|Nodes|Open|Makespan|Gaps|Busy|Utilisation\n"
"                       Open: jobs without an end; Makespan: seconds from\n"
"                       the first start to the last end; Gaps: seconds of\n"
"                       it with no job running; Busy: node-seconds with a\n"
"                       job; Utilisation: Busy / (Nodes x Makespan), in\n"
"                       percent\n"
"  -h, --help           this text\n"
"Exit status: 0, 1 for bad input (one error naming the line and value),\n"
"2 for usage.\n");
}

typedef struct {
	const char *file;	/* for messages */
	size_t line;
	sb_chart_t *chart;
	int by_user;		/* 1 user, 0 job, -1 not said */
	int plan;		/* the input is a plan */
	int64_t t0;		/* earliest start read, for the caption */
	size_t jobs;
	/* sacct: column of each field we read, -1 if absent */
	int c_job, c_user, c_nodes, c_start, c_end;
	int nfields;
} _in_t;

#define ERR(in, ...) do { \
	fprintf(stderr, "sbucket: %s:%zu: ", (in)->file, (in)->line); \
	fprintf(stderr, __VA_ARGS__); \
	fputc('\n', stderr); \
} while (0)

/* Split @s in place at '|' into at most MAX_FIELDS fields; their count,
 * or MAX_FIELDS + 1 when there are more. */
static int _split(char *s, char **f)
{
	int n = 0;

	for (;;) {
		if (n == MAX_FIELDS)
			return MAX_FIELDS + 1;
		f[n++] = s;
		if (!(s = strchr(s, '|')))
			return n;
		*s++ = '\0';
	}
}

/* ---------------------------------------------------------------- */
/* Header                                                            */

static int _header(_in_t *in, char *line)
{
	static const char *const need[] = { "JobID", "NodeList", "Start",
					    "End" };
	char *f[MAX_FIELDS];
	int *col[] = { &in->c_job, &in->c_nodes, &in->c_start, &in->c_end };
	int i, k;

	if (!strcmp(line, PLAN_HEADER)) {
		in->plan = 1;
		in->nfields = 5;
		return 0;
	}
	in->c_job = in->c_user = in->c_nodes = in->c_start = in->c_end = -1;
	if ((in->nfields = _split(line, f)) > MAX_FIELDS) {
		ERR(in, "header: more than %d columns", MAX_FIELDS);
		return -1;
	}
	for (i = 0; i < in->nfields; i++) {
		int *c = !strcmp(f[i], "User") ? &in->c_user : NULL;

		for (k = 0; !c && k < 4; k++)
			if (!strcmp(f[i], need[k]))
				c = col[k];
		if (!c)
			continue;
		if (*c >= 0) {
			ERR(in, "header: column '%s' twice", f[i]);
			return -1;
		}
		*c = i;
	}
	for (k = 0; k < 4; k++)
		if (*col[k] < 0) {
			ERR(in, "header: no column '%s' (want the output of "
			    "'" SACCT_CMD "' or of 'sbucket backfill')",
			    need[k]);
			return -1;
		}
	return 0;
}

/* ---------------------------------------------------------------- */
/* Rows                                                              */

/* Expand the hostlists of @s joined by @sep ('+' for a plan's chunks,
 * none for sacct) into *names. */
static int _nodes(_in_t *in, const char *col, const char *s, int sep,
		  char ***names, size_t *n)
{
	char *copy, *chunk, *save = NULL, **all = NULL, **part;
	char seps[2] = { (char) sep, '\0' };
	size_t np, errpos, i;
	const char *msg = NULL;
	int rc = -1;

	*names = NULL;
	*n = 0;
	if (!(copy = strdup(s)))
		return -1;
	for (chunk = sep ? strtok_r(copy, seps, &save) : copy; chunk;
	     chunk = sep ? strtok_r(NULL, seps, &save) : NULL) {
		char **grown;

		if (sb_hostlist_expand(chunk, &part, &np, &errpos, &msg)) {
			if (errno == ENOMEM)
				goto fail;
			ERR(in, "%s: bad hostlist '%s' at column %zu: %s", col,
			    s, (size_t) (chunk - copy) + errpos + 1,
			    msg ? msg : strerror(errno));
			errno = EINVAL;
			goto fail;
		}
		if (!(grown = realloc(all, (*n + np + 1) * sizeof(*all)))) {
			sb_hostlist_free(part, np);
			goto fail;
		}
		all = grown;
		memcpy(all + *n, part, np * sizeof(*part));
		*n += np;
		free(part);
	}
	if (!*n) {
		ERR(in, "%s: no node in '%s'", col, s);
		errno = EINVAL;
		goto fail;
	}
	*names = all;
	all = NULL;
	rc = 0;
fail:
	if (all) {
		for (i = 0; i < *n; i++)
			free(all[i]);
		free(all);
		*n = 0;
	}
	free(copy);
	return rc;
}

/* A plan's time: seconds >= 0, or 'inf' where @inf_ok. */
static int _plan_time(_in_t *in, const char *col, const char *s, int inf_ok,
		      int64_t *t)
{
	uint64_t v;

	if (inf_ok && !strcmp(s, "inf")) {
		*t = SB_TIME_INFINITE;
		return 0;
	}
	if (sb_decimal_parse(s, SB_CHART_TIME_MAX, &v, NULL)) {
		ERR(in, "%s: not a time in seconds: '%s'", col, s);
		return -1;
	}
	*t = (int64_t) v;
	return 0;
}

/* A time of sacct's (local time): 0, 1 for none ("Unknown", "None"...),
 * -1 after an error. */
static int _sacct_time(_in_t *in, const char *col, const char *s,
		       int64_t *t)
{
	if (!sb_slurm_time(s, t))
		return 0;
	if (errno == ENOENT)
		return 1;
	ERR(in, "%s: not a time: '%s' (want YYYY-MM-DDTHH:MM:SS)", col, s);
	return -1;
}

static int _strcmp_ptr(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* A name found twice among @names (which it sorts), or NULL. */
static const char *_twice(char **names, size_t n)
{
	size_t i;

	qsort(names, n, sizeof(*names), _strcmp_ptr);
	for (i = 1; i < n; i++)
		if (!strcmp(names[i - 1], names[i]))
			return names[i];
	return NULL;
}

/* Read one row into the chart; 0 also for a row left out. */
static int _row(_in_t *in, char *line)
{
	char *f[MAX_FIELDS], **names = NULL;
	const char *job, *key, *start_s, *end_s, *nodes_s, *twice;
	int64_t start, end;
	size_t n = 0, i;
	int nf, got, rc = -1;

	nf = _split(line, f);
	if (nf != in->nfields) {
		ERR(in, "%d fields, the header has %d", nf > MAX_FIELDS ?
		    MAX_FIELDS + 1 : nf, in->nfields);
		return -1;
	}
	if (in->plan) {
		job = f[0], start_s = f[1], end_s = f[2], nodes_s = f[3];
		key = NULL;
		if (!strcmp(f[4], "never"))
			return 0;
		if (strcmp(f[4], "run") && strcmp(f[4], "later")) {
			ERR(in, "Result: '%s' (want run, later or never)",
			    f[4]);
			return -1;
		}
	} else {
		job = f[in->c_job], nodes_s = f[in->c_nodes];
		start_s = f[in->c_start], end_s = f[in->c_end];
		key = in->by_user && in->c_user >= 0 ? f[in->c_user] : NULL;
		if (!strcmp(nodes_s, "None assigned"))
			return 0;
		if (strchr(job, '.')) {
			ERR(in, "JobID '%s' is a job step (run sacct with -X)",
			    job);
			return -1;
		}
		if (key && !*key) {
			ERR(in, "User: empty for job '%s'", job);
			return -1;
		}
	}
	if (!*job) {
		ERR(in, "%s: empty", in->plan ? "JobId" : "JobID");
		return -1;
	}
	if (in->plan) {
		if (_plan_time(in, "Start", start_s, 0, &start) ||
		    _plan_time(in, "End", end_s, 1, &end))
			return -1;
	} else {
		/* No start: it never ran. No end: it still runs. */
		if ((got = _sacct_time(in, "Start", start_s, &start)))
			return got < 0 ? -1 : 0;
		if ((got = _sacct_time(in, "End", end_s, &end)) < 0)
			return -1;
		if (got)
			end = SB_TIME_INFINITE;
	}
	if (end < start) {
		ERR(in, "End '%s' is before Start '%s'", end_s, start_s);
		return -1;
	}
	if (_nodes(in, in->plan ? "Nodes" : "NodeList", nodes_s,
		   in->plan ? '+' : 0, &names, &n))
		goto out;
	if ((twice = _twice(names, n))) {
		ERR(in, "%s: node '%s' twice in '%s'", in->plan ? "Nodes" :
		    "NodeList", twice, nodes_s);
		errno = EINVAL;
		goto out;
	}
	if (sb_chart_add_job(in->chart, job, key, start, end,
			     (const char *const *) names, n)) {
		if (errno == EINVAL)
			ERR(in, "a control character in JobID, User or a node "
			    "name");
		goto out;
	}
	if (!in->jobs++ || start < in->t0)
		in->t0 = start;
	rc = 0;
out:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

/* Read @in->file into the chart. */
static int _read(_in_t *in)
{
	FILE *f = stdin;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = -1;

	if (strcmp(in->file, "-") && !(f = fopen(in->file, "r"))) {
		fprintf(stderr, "sbucket: %s: %s\n", in->file, strerror(errno));
		return -1;
	}
	if (f == stdin)
		in->file = "<stdin>";
	while ((len = getline(&buf, &cap, f)) >= 0) {
		in->line++;
		if (len && buf[len - 1] == '\n')
			buf[--len] = '\0';
		if (len && buf[len - 1] == '\r')
			buf[--len] = '\0';
		if (in->line == 1) {
			if (_header(in, buf))
				goto out;
			if (in->by_user > 0 && (in->plan || in->c_user < 0)) {
				ERR(in, "--color=user: the input has no User "
				    "column");
				goto out;
			}
			if (in->by_user < 0)
				in->by_user = !in->plan && in->c_user >= 0;
			continue;
		}
		if (!len)
			continue;
		if (_row(in, buf)) {
			if (errno == ENOMEM)
				fprintf(stderr, "sbucket: out of memory\n");
			goto out;
		}
	}
	if (ferror(f)) {
		fprintf(stderr, "sbucket: %s: %s\n", in->file, strerror(errno));
		goto out;
	}
	if (!in->line) {
		fprintf(stderr, "sbucket: %s: empty (no header line)\n",
			in->file);
		goto out;
	}
	if (!in->jobs) {
		fprintf(stderr, "sbucket: %s: no job that ran: nothing to "
			"draw\n", in->file);
		goto out;
	}
	rc = 0;
out:
	free(buf);
	if (f != stdin)
		fclose(f);
	return rc;
}

/* ---------------------------------------------------------------- */
/* Output                                                            */

static int _parse_unit(const char *s, int64_t *unit, const char **name)
{
	const char *end;
	uint64_t v;

	if (sb_decimal_parse(s, SB_CHART_TIME_MAX, &v, &end) || v < 1 ||
	    (*end && *end != ':'))
		return -1;
	*unit = (int64_t) v;
	*name = *end ? end + 1 : "";
	return 0;
}

static int _print_stats(const sb_chart_t *c)
{
	sb_chart_stats_t st;

	if (sb_chart_stats(c, &st))
		return -1;
	printf("Jobs|Nodes|Open|Makespan|Gaps|Busy|Utilisation\n");
	printf("%zu|%zu|%zu|%" PRId64 "|%" PRId64 "|%" PRId64 "|%" PRId64
	       ".%02" PRId64 "\n", st.jobs, st.nodes, st.open, st.makespan,
	       st.gaps, st.busy, st.util_bp / 100, st.util_bp % 100);
	return 0;
}

/* "t = 0 at 2026-11-23T10:24:48" (sacct, local time as it printed it)
 * or "t = 0 at 0 s of the plan". */
static char *_caption(const _in_t *in)
{
	sb_strbuf_t b = SB_STRBUF_INIT;
	time_t t0 = (time_t) in->t0;
	struct tm tm;
	char when[32];

	if (in->plan) {
		sb_strbuf_addf(&b, "t = 0 at %" PRId64 " s of the plan", in->t0);
	} else if (localtime_r(&t0, &tm) &&
		   strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm)) {
		sb_strbuf_addf(&b, "t = 0 at %s", when);
	}
	return sb_strbuf_finish(&b);
}

static int _write_svg(const _in_t *in, const char *out, const char *title,
		      int64_t unit, const char *unit_name)
{
	sb_chart_opts_t o = { 0 };
	char *svg = NULL, *caption;
	FILE *f = stdout;
	int rc = -1;

	if (!(caption = _caption(in)))
		goto oom;
	o.title = title;
	o.caption = caption;
	o.summary = true;
	o.legend = in->by_user > 0;
	o.unit = unit;
	o.unit_name = unit_name;
	if (!(svg = sb_chart_svg(in->chart, &o)))
		goto oom;
	if (out && !(f = fopen(out, "w"))) {
		fprintf(stderr, "sbucket: %s: %s\n", out, strerror(errno));
		goto fail;
	}
	if (fputs(svg, f) == EOF || (f != stdout && fclose(f))) {
		fprintf(stderr, "sbucket: %s: %s\n", out ? out : "<stdout>",
			strerror(errno));
		f = stdout;
		goto fail;
	}
	f = stdout;
	rc = 0;
	goto fail;
oom:
	fprintf(stderr, "sbucket: out of memory\n");
fail:
	if (f != stdout)
		fclose(f);
	free(svg);
	free(caption);
	return rc;
}

/* ---------------------------------------------------------------- */

int sbucket_chart_main(int argc, char **argv)
{
	const char *out = NULL, *title = NULL, *nodes = NULL, *unit_name = NULL;
	int64_t unit = 0;
	int i, stats = 0, nfiles = 0, rc = SBUCKET_EXIT_INPUT;
	_in_t in = { .file = NULL, .by_user = -1 };

	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "output", required_argument, NULL, 'o' },
		{ "color", required_argument, NULL, 'C' },
		{ "nodes", required_argument, NULL, 'N' },
		{ "title", required_argument, NULL, 'T' },
		{ "unit", required_argument, NULL, 'U' },
		{ "stats", no_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	sbucket_getopt_start();
	while ((c = sbucket_getopt("chart", argc, argv, "ho:", longopts)) !=
	       -1) {
		switch (c) {
		case 'h':
			_usage(stdout);
			return SBUCKET_EXIT_OK;
		case 'o':
			if (!*optarg)
				return sbucket_cmd_error("chart", "-o needs a "
							 "file");
			out = optarg;
			break;
		case 'C':
			if (!strcmp(optarg, "user"))
				in.by_user = 1;
			else if (!strcmp(optarg, "job"))
				in.by_user = 0;
			else
				return sbucket_usage_error("chart", "--color",
							   optarg, "not user "
							   "or job");
			break;
		case 'N':
			nodes = optarg;
			break;
		case 'T':
			title = optarg;
			break;
		case 'U':
			if (_parse_unit(optarg, &unit, &unit_name)) {
				char sh[SB_SHOWN_BUF];

				fprintf(stderr, "sbucket chart: --unit: want "
					"SECONDS:NAME with SECONDS >= 1, e.g. "
					"3600:h: '%s'\n", sb_shown(sh,
					sizeof(sh), optarg));
				return SBUCKET_EXIT_USAGE;
			}
			break;
		case 'S':
			stats = 1;
			break;
		default:
			return SBUCKET_EXIT_USAGE;
		}
	}
	for (i = optind; i < argc; i++)
		if (sbucket_operand("chart", argv[i], &in.file, &nfiles, 1))
			return SBUCKET_EXIT_USAGE;
	if (stats && (out || title)) {
		fprintf(stderr, "sbucket chart: --stats draws nothing: no -o "
			"or --title with it\n");
		return SBUCKET_EXIT_USAGE;
	}
	if (!in.file)
		in.file = "-";
	if (!(in.chart = sb_chart_create()))
		goto oom;
	if (nodes) {
		char **names;
		size_t n, k, errpos;
		const char *msg = NULL;

		if (sb_hostlist_expand(nodes, &names, &n, &errpos, &msg)) {
			if (errno == ENOMEM)
				goto oom;
			fprintf(stderr, "sbucket chart: --nodes: bad hostlist "
				"'%s' at column %zu: %s\n", nodes, errpos + 1,
				msg ? msg : strerror(errno));
			rc = SBUCKET_EXIT_USAGE;
			goto out;
		}
		for (k = 0; k < n; k++)
			if (sb_chart_add_node(in.chart, names[k]))
				break;
		sb_hostlist_free(names, n);
		if (k < n) {
			fprintf(stderr, "sbucket chart: --nodes: '%s': %s\n",
				nodes, strerror(errno));
			rc = SBUCKET_EXIT_USAGE;
			goto out;
		}
	}
	if (_read(&in))
		goto out;
	if (stats ? _print_stats(in.chart) :
	    _write_svg(&in, out, title, unit, unit_name))
		goto out;
	rc = SBUCKET_EXIT_OK;
	goto out;
oom:
	fprintf(stderr, "sbucket: out of memory\n");
out:
	sb_chart_destroy(in.chart);
	return rc;
}
