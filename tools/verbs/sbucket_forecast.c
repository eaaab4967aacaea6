/*
 * sbucket_forecast.c - 'sbucket forecast': when each pending job of the
 * running cluster starts, on which nodes, and what it waits for.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The whole queue is planned once (sbucket_forecast_plan.h, over
 * common/time/queue_plan.h); this file filters and prints it, in
 * planned-start order, next to what squeue --start shows (the job's
 * StartTime as slurmctld shows it: the start backfill last planned).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chart.h"
#include "sb_time.h"
#include "sbucket.h"
#include "sbucket_forecast_likely.h"
#include "sbucket_explain.h"
#include "sbucket_forecast_plan.h"
#include "sbucket_explain_fmt.h"

#define CMD "forecast"
#define LINE 8192		/* a job's waits, as one line */

static void _usage(FILE *f)
{
	fprintf(f,
"Usage: sbucket forecast [-u USER] [-p PARTITION] [-A ACCOUNT] [-j]\n"
"                        [--chart=FILE] [--no-history | --history-days=N]\n"
"\n"
"Plan every pending job of the running cluster at once, as conservative\n"
"backfill would in its order: whole-node jobs on select/bucket's WILL_RUN,\n"
"jobs the base places on each node's free CPUs and memory over time,\n"
"licences and QOS or association limits, dependencies, begin times and\n"
"reservations, so that no two jobs get the same nodes or units. Print\n"
"each job's planned start and end, its nodes and what it waits for, in\n"
"planned-start order, with squeue --start's value beside it; a job whose\n"
"start cannot be known gets \"no start\" and why.\n"
"\n"
"Time limits are upper bounds users overstate, so a plan from them is\n"
"late. Where accounting holds the users' completed jobs, the queue is\n"
"planned again with run times predicted from them (the mean of the\n"
"user's last two runs of similar jobs: same partition, time limit and\n"
"node count; else of any job; capped by the limit; a running job past\n"
"its prediction ends at its limit) and each job's likely start is\n"
"printed beside the planned one.\n"
"\n"
"  -u, --user=USER          only USER's jobs (the plan still holds every\n"
"                           job)\n"
"  -p, --partition=PARTITION  only jobs of PARTITION\n"
"  -A, --account=ACCOUNT    only jobs of ACCOUNT\n"
"  -j, --json    JSON: {\"schema_version\":1, \"now\":T, \"jobs\":[...]},\n"
"                one job's object a line (sbucket(1), JSON)\n"
"  --chart=FILE  also draw the plan as a node x time SVG chart into FILE\n"
"                (running jobs from now, then the jobs shown, coloured by\n"
"                user, as 'sbucket chart' draws)\n"
"  --no-history  no likely start (sacct is not run)\n"
"  --history-days=N  the completed jobs of the last N days (default 14)\n"
"  -h, --help    this text\n"
"\n"
"The cluster is read through scontrol, its history through sacct\n"
"(SBUCKET_SCONTROL, SBUCKET_SACCT name others).\n"
"Exit status: 0, 1 when the cluster cannot be read or does not run\n"
"select/bucket, 2 for usage errors.\n");
}

typedef struct {
	const char *user, *part, *account;
} _filter_t;

static bool _shown(const sbf_plan_t *p, const sbf_job_t *f,
		   const _filter_t *flt)
{
	const sbc_job_t *j = f->job;
	const sbc_cluster_t *lv = &p->m->lv;

	if (flt->user && (!j->user || strcmp(j->user, flt->user)))
		return false;
	if (flt->account && (!j->account || strcmp(j->account, flt->account)))
		return false;
	if (flt->part && (j->part < 0 ||
			  strcmp(lv->parts[j->part].name, flt->part)))
		return false;
	return true;
}

/* Planned-start order: planned jobs by start (then the plan's order),
 * then those without a start in backfill's order. */
static int _by_start(const void *pa, const void *pb)
{
	const sbf_job_t *a = *(const sbf_job_t *const *) pa;
	const sbf_job_t *b = *(const sbf_job_t *const *) pb;
	bool sa = a->planned && !a->r.never, sb = b->planned && !b->r.never;

	if (sa != sb)
		return sa ? -1 : 1;
	if (sa && a->r.start != b->r.start)
		return a->r.start < b->r.start ? -1 : 1;
	if (sa && a->r.order != b->r.order)
		return a->r.order < b->r.order ? -1 : 1;
	return a < b ? -1 : a > b;
}

static void _print(const sbf_plan_t *p, const sbf_likely_t *l,
		   const _filter_t *flt, bool json)
{
	const sbc_cluster_t *lv = &p->m->lv;
	const sbf_job_t **v = calloc(p->njobs + 1, sizeof(*v));
	sbx_index_t *x = sbx_index_create(p);
	size_t i, n = 0;
	char *line = malloc(LINE);

	if (!v || !x || !line) {
		fprintf(stderr, "sbucket: out of memory\n");
		goto out;
	}
	for (i = 0; i < p->njobs; i++)
		if (_shown(p, &p->jobs[i], flt))
			v[n++] = &p->jobs[i];
	qsort(v, n, sizeof(*v), _by_start);
	if (json) {
		printf("{\"schema_version\":%d,\"now\":%" PRId64 ",\"jobs\":[",
		       SBX_SCHEMA, lv->now);
	} else if (n && l->on) {
		printf("%-10s %-10s %-10s %-16s %-19s  %-19s  %-19s  %s\n",
		       "JOBID", "USER", "PARTITION", "NODES", "PLANNED START",
		       "LIKELY START", "PLANNED END", "SQUEUE --START");
	} else if (n) {
		printf("%-10s %-10s %-10s %-16s %-19s  %-19s  %s\n", "JOBID",
		       "USER", "PARTITION", "NODES", "PLANNED START",
		       "PLANNED END", "SQUEUE --START");
	} else {
		printf("No pending job%s.\n", flt->user || flt->part ||
		       flt->account ? " matches" : "");
	}
	for (i = 0; i < n; i++) {
		const sbc_job_t *j = v[i]->job;
		const char *part = j->part >= 0 ? lv->parts[j->part].name :
			NULL;
		char t1[32], t2[32], t3[32], t4[32], *hl;
		sbx_t e;

		if (sbx_explain(p, l, x, v[i], &e) < 0)
			break;
		if (json) {
			printf("%s\n", i ? "," : "");
			sbx_json(lv, p, &e);
			sbx_fini(&e);
			continue;
		}
		hl = e.has_start ? sbw_hostlist(lv, e.nodes) : NULL;
		sbx_time(e.start, t1, sizeof(t1));
		sbx_time(e.end, t2, sizeof(t2));
		sbx_time(j->start, t3, sizeof(t3));
		sbx_time(e.likely_start, t4, sizeof(t4));
		if (e.has_start && e.end < 0)
			snprintf(t2, sizeof(t2), "no time limit");
		printf("%-10s %-10s %-10s %-16s %-19s  ", j->id,
		       j->user ? j->user : "?", part ? part : "?",
		       hl ? hl : "-", e.has_start ? t1 : "no start");
		if (e.likely)
			printf("%-19s  ", e.likely_start >= 0 ? t4 :
			       "no start");
		printf("%-19s  %s\n", t2, j->start < 0 ? "N/A" : t3);
		if (!e.has_start) {
			printf("    no start: %s\n", e.no_start);
		} else if (!e.nwaits) {
			printf("    starts now\n");
		} else {
			sbx_waits_line(lv, p, &e, line, LINE);
			printf("    waits for: %s\n", line);
		}
		if (e.likely && e.likely_start >= 0) {
			sbf_likely_runtime(l, p, j, line, LINE);
			printf("    likely run time: %s\n", line);
		}
		free(hl);
		sbx_fini(&e);
	}
	if (json)
		printf("%s]}\n", n ? "\n" : "");
out:
	free(v);
	free(line);
	sbx_index_destroy(x);
}

/* ---- the chart ----------------------------------------------------------- */

/* Add a job on @nodes over [@s, @e) to @c; 0 or -1 (errno). */
static int _chart_job(sb_chart_t *c, const sbc_cluster_t *lv, const char *id,
		      const char *user, const sb_bitmap_t *nodes, int64_t s,
		      int64_t e, const char **names)
{
	size_t n = 0;
	int64_t i;

	for (i = sb_bitmap_first_set(nodes); i >= 0;
	     i = sb_bitmap_next_set(nodes, (size_t) i + 1))
		names[n++] = lv->cl.nodes[i].name;
	if (!n)
		return 0;
	return sb_chart_add_job(c, id, user && user[0] ? user : NULL, s, e,
				names, n);
}

/*
 * The plan as 'sbucket chart' draws it, into @file: the running jobs
 * from now to their ends, the planned jobs shown, rows for every node.
 * 0, or -1 after one error line.
 */
static int _chart(const sbf_plan_t *p, const _filter_t *flt,
		  const char *file)
{
	const sbc_cluster_t *lv = &p->m->lv;
	const char **names = calloc(lv->cl.n + 1, sizeof(*names));
	sb_chart_opts_t o = { 0 };
	sb_chart_t *c = sb_chart_create();
	char *svg = NULL, cap[96], t[32];
	FILE *f = NULL;
	size_t i;
	int rc = -1;

	if (!names || !c)
		goto oom;
	for (i = 0; i < lv->cl.n; i++)
		if (sb_chart_add_node(c, lv->cl.nodes[i].name) < 0)
			goto oom;
	for (i = 0; i < lv->njobs; i++) {
		const sbc_job_t *j = &lv->jobs[i];
		int64_t e = j->state == SBC_SUSPENDED || j->end < 0 ?
			SB_TIME_INFINITE : j->end;

		if (j->nodes && _chart_job(c, lv, j->id, j->user, j->nodes,
					   lv->now, e > lv->now ? e :
					   lv->now, names) < 0)
			goto oom;
	}
	for (i = 0; i < p->njobs; i++) {
		const sbf_job_t *q = &p->jobs[i];

		if (q->planned && !q->r.never && _shown(p, q, flt) &&
		    _chart_job(c, lv, q->job->id, q->job->user, q->r.nodes,
			       q->r.start, q->r.end, names) < 0)
			goto oom;
	}
	sbx_time(lv->now, t, sizeof(t));
	snprintf(cap, sizeof(cap), "sbucket forecast at %s", t);
	o.title = "Planned starts";
	o.caption = cap;
	o.summary = true;
	o.legend = true;
	if (!(svg = sb_chart_svg(c, &o))) {
		if (errno != ENOENT)
			goto oom;
		fprintf(stderr, "sbucket: --chart: no job to draw\n");
		goto out;
	}
	if (!(f = fopen(file, "w"))) {
		fprintf(stderr, "sbucket: --chart '%s': %s\n", file,
			strerror(errno));
		goto out;
	}
	if (fputs(svg, f) == EOF) {
		fprintf(stderr, "sbucket: --chart '%s': %s\n", file,
			strerror(errno));
		fclose(f);
		goto out;
	}
	if (fclose(f)) {
		fprintf(stderr, "sbucket: --chart '%s': %s\n", file,
			strerror(errno));
		goto out;
	}
	rc = 0;
	goto out;
oom:
	fprintf(stderr, "sbucket: out of memory\n");
out:
	free(svg);
	free(names);
	sb_chart_destroy(c);
	return rc;
}

/* ---- main ---------------------------------------------------------------- */

int sbucket_forecast_main(int argc, char **argv)
{
	_filter_t flt = { NULL, NULL, NULL };
	const char *chart = NULL, *days_arg = NULL;
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "json", no_argument, NULL, 'j' },
		{ "no-history", no_argument, NULL, 'n' },
		{ "history-days", required_argument, NULL, 'd' },
		{ "chart", required_argument, NULL, 'c' },
		{ "user", required_argument, NULL, 'u' },
		{ "partition", required_argument, NULL, 'p' },
		{ "account", required_argument, NULL, 'A' },
		{ NULL, 0, NULL, 0 }
	};
	bool json = false, history = true;
	int c, rc, days = SBF_HISTORY_DAYS;
	sbf_likely_t l;
	sbf_plan_t p;

	sbucket_getopt_start();
	while ((c = sbucket_getopt(CMD, argc, argv, "hju:p:A:", longopts)) !=
	       -1) {
		const char **dst = NULL, *opt = NULL;

		switch (c) {
		case 'h':
			_usage(stdout);
			return SBUCKET_EXIT_OK;
		case 'j':
			json = true;
			continue;
		case 'n':
			history = false;
			continue;
		case 'd':
			if (sbf_history_option(CMD, optarg, &days_arg, &days))
				return SBUCKET_EXIT_USAGE;
			continue;
		case 'c':
			if (!*optarg)
				return sbucket_usage_error(CMD, "--chart",
							   NULL,
							   "needs a file");
			dst = &chart;
			opt = "--chart";
			break;
		case 'u':
			dst = &flt.user;
			opt = "-u";
			break;
		case 'p':
			dst = &flt.part;
			opt = "-p";
			break;
		case 'A':
			dst = &flt.account;
			opt = "-A";
			break;
		default:
			return SBUCKET_EXIT_USAGE;
		}
		if (c != 'c' && (!optarg[0] || optarg[0] == '-'))
			return sbucket_usage_error(CMD, opt, optarg,
						   "is not a name");
		if (*dst)
			return sbucket_usage_error(CMD, opt, optarg,
						   "given twice");
		*dst = optarg;
	}
	if (optind < argc) {
		const char *ops[1];
		int nops = 0;

		/* no operands: one too many */
		return sbucket_operand(CMD, argv[optind], ops, &nops, 0);
	}
	if (days_arg && !history)
		return sbucket_usage_error(CMD, "--history-days", days_arg,
					   "goes with no --no-history");
	memset(&l, 0, sizeof(l));
	rc = sbf_plan(&p);
	if (!rc && flt.part) {
		size_t k;

		for (k = 0; k < p.m->lv.nparts &&
		     strcmp(p.m->lv.parts[k].name, flt.part); k++)
			;
		if (k == p.m->lv.nparts) {
			sbf_plan_fini(&p);
			return sbucket_usage_error(CMD, "-p", flt.part,
						   "no such partition");
		}
	}
	if (!rc && history && sbf_likely_make(&l, &p, days) < 0)
		rc = -1;
	if (!rc) {
		sbf_likely_note(&l);
		_print(&p, &l, &flt, json);
	}
	if (!rc && chart && _chart(&p, &flt, chart) < 0)
		rc = -1;
	sbf_likely_fini(&l);
	sbf_plan_fini(&p);
	if (rc)
		return SBUCKET_EXIT_INPUT;
	return fflush(stdout) ? SBUCKET_EXIT_INPUT : SBUCKET_EXIT_OK;
}
