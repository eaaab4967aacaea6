/*
 * sbucket_backfill.c - 'sbucket backfill': conservative backfill offline.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Jobs are planned in file order (file order is priority order) with the
 * WILL_RUN engine the select plugin uses (common/will_run.h): each job
 * gets the earliest start at which it fits without moving the window of
 * any job planned before it, and its nodes are then busy for its window.
 *
 * The nodes file is the one of 'sbucket place' (read by
 * tools/input/sbucket_input_nodes.c); its BusyUntil=T key, the time the jobs
 * running on a busy node end, matters only here.
 *
 * Licences (issue 25). The nodes file's Licenses= line declares them,
 * its LicensesUsed= lines say what running jobs hold until when, and a
 * job's -L asks for some. Licences have a count and no identity, so one
 * limit per licence name in a limit plan (common/time/limit_plan.h) is
 * exact for them. A job's start is the earliest s >= now at which
 * WILL_RUN finds its nodes free for its time limit from s and every
 * licence it needs has room during [s, s + limit): each of the two
 * answers the earliest start at or after the other's, until they agree
 * (both only move later, through finitely many ends). Then both plans
 * take the job. As Slurm at submit (licenses.c, license_validate()), a
 * job asking for a licence that is not declared, or for more than the
 * declared count, is refused.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bucket.h"
#include "decimal.h"
#include "hostlist_fmt.h"
#include "policy.h"
#include "sbucket.h"
#include "sbucket_input_jobs.h"
#include "shown.h"

/* Command-line text in a message, as shown.h shows input. */
#define SHOWN(s) sb_shown(shown, sizeof(shown), s)
#include "limit_plan.h"
#include "will_run.h"

static void _usage(FILE *f)
{
	fprintf(f,
"Usage: sbucket backfill [OPTIONS] NODES_FILE JOBS_FILE\n"
"\n"
"Conservative backfill: plan the jobs of JOBS_FILE in order (file order\n"
"is priority order) on the nodes of NODES_FILE. Each job gets the\n"
"earliest start at which it fits without moving the planned window of\n"
"any job before it; its nodes are then busy for its time limit. Print\n"
"one line per job: JobId|Start|End|Nodes|Result\n"
"  Start, End  seconds (End = Start + time limit; 'inf' without a limit)\n"
"  Nodes       the nodes of each chunk as a hostlist, chunks joined by '+'\n"
"  Result      run (starts now), later, or never (no start exists)\n"
"Nodes are whole and exclusive. -w and --contiguous are not supported.\n"
"\n"
"Options:\n"
"  --now=T            the current time in seconds (default 0)\n"
"  --policy=NAME      node allocation policy (see 'sbucket place --help');\n"
"                     orders buckets, Weight first\n"
"  --priorityf=EXPR   PRIORITY's expression\n"
"  --noheader         do not print the header line\n"
"  -h, --help         this text\n"
"\n"
"NODES_FILE: as for 'sbucket place', plus\n"
"  BusyUntil=T        on a busy node (State=ALLOCATED or Jobs=N): its jobs\n"
"                     end at T seconds (UNLIMITED: never). Without it a\n"
"                     busy node stays busy. A time at or before --now is\n"
"                     taken as now + 1 (the job is overdue, about to end).\n"
"  Busy=START-END     reservations: the node cannot be used then.\n"
"  State=DOWN|DRAINED nodes are never free.\n"
"  Licenses=NAME[:COUNT][,NAME[:COUNT]...]  on a line of its own, once:\n"
"                     the cluster's licences (as slurm.conf; COUNT 1 if\n"
"                     not given).\n"
"  LicensesUsed=NAME[:COUNT][,...] [Until=T]  licences running jobs hold\n"
"                     until T seconds (no Until= or UNLIMITED: never\n"
"                     freed); any number of such lines, after Licenses=.\n"
"JOBS_FILE: as for 'sbucket place'; -t is the time limit (no -t: none);\n"
"  -L, --licenses=NAME[:COUNT][,...]  licences the job holds from its start\n"
"                     to its end: it starts when its nodes are free and\n"
"                     its licences have room. A licence that is not\n"
"                     declared, or more than its count, is refused, as\n"
"                     Slurm refuses such a job at submit. '|' (any one\n"
"                     of several licences) is not supported.\n"
"'#' starts a comment. Exit status: 0, 1 for bad input, 2 for usage.\n");
}

/*
 * When each node is free of its running jobs: a busy node (State=ALLOCATED
 * or Jobs=N) at its BusyUntil= (unknown: never), any other node now.
 */
static void _busy_until(const sbi_cluster_t *cl, int64_t *until)
{
	size_t i;

	for (i = 0; i < cl->n; i++) {
		const sb_node_t *n = &cl->nodes[i];

		until[i] = n->state == SB_NODE_ALLOCATED || n->run_jobs ?
			n->busy_until : 0;
	}
}

/*
 * The units of each declared licence @job asks for into @need (one per
 * licence of @cl, zeroed first); repeated names add up, as in Slurm.
 * Returns -1 with *@bad the item of a licence that is not declared, 1
 * with *@bad the first item of a licence asked for above its count,
 * else 0.
 */
static int _need(const sbi_cluster_t *cl, const sbi_job_t *job,
		 int64_t *need, size_t *bad)
{
	size_t k;
	long idx;

	for (k = 0; k < cl->nlic; k++)
		need[k] = 0;
	for (k = 0; k < job->nlic; k++) {
		if ((idx = sbi_find_license(cl, job->lic[k].name)) < 0) {
			*bad = k;
			return -1;
		}
		/* At most SBI_MAX_TOKENS items of INT32_MAX: no overflow. */
		need[idx] += job->lic[k].count;
	}
	for (k = 0; k < job->nlic; k++) {
		idx = sbi_find_license(cl, job->lic[k].name);
		if (need[idx] > cl->lic[idx].count) {
			*bad = k;
			return 1;
		}
	}
	return 0;
}

/*
 * What backfill refuses (input errors): -w and --contiguous, which
 * WILL_RUN does not plan; licences Slurm would refuse at submit.
 * @ctx: the cluster; its licence count + 1 of scratch in need.
 */
typedef struct {
	const sbi_cluster_t *cl;
	int64_t *need;
} _refuse_ctx_t;

static int _refuse_unsupported(const sbi_job_t *job, const void *ctx,
			       char *why, size_t len)
{
	const _refuse_ctx_t *c = ctx;
	char name[SB_SHOWN_BUF];
	size_t bad;
	long idx;
	int got;

	if ((job->req.required && !sb_bitmap_empty(job->req.required)) ||
	    job->req.contiguous) {
		snprintf(why, len, ": -w and --contiguous are not supported "
			 "by backfill");
		return 1;
	}
	if (!(got = _need(c->cl, job, c->need, &bad)))
		return 0;
	sb_shown(name, sizeof(name), job->lic[bad].name);
	if (got < 0) {
		snprintf(why, len, ": licence '%s' is not declared by the "
			 "nodes file's Licenses= (Slurm refuses such a job at "
			 "submit)", name);
		return 1;
	}
	idx = sbi_find_license(c->cl, job->lic[bad].name);
	snprintf(why, len, ": asks for %" PRId64 " of licence '%s', more "
		 "than the %" PRId64 " declared (Slurm refuses such a job at "
		 "submit)", c->need[idx], name, c->cl->lic[idx].count);
	return 1;
}

/*
 * The earliest start >= now of @job on both plans into *@res: WILL_RUN
 * for its nodes, @lp for the licences it needs (@need). 0, or -1 with
 * errno (ENOENT: it never starts).
 */
static int _plan(const sb_will_run_t *w, const sb_limit_plan_t *lp,
		 const sbi_job_t *job, const int64_t *need, bool licences,
		 const sb_policy_t *pol, int64_t now,
		 sb_will_run_result_t *res)
{
	int64_t s = now, ls;

	for (;;) {
		if (sb_will_run_query(w, &job->req, pol, NULL, s, res))
			return -1;
		if (!licences)
			return 0;
		if (sb_limit_plan_earliest(lp, need, res->start,
					   job->req.time_limit, &ls)) {
			sb_will_run_result_fini(res);
			return -1;
		}
		if (ls == res->start)
			return 0;
		/* The licences are later: the nodes again from there. */
		s = ls;
		sb_will_run_result_fini(res);
	}
}

/* ---------------------------------------------------------------- */
/* Output                                                            */

static void _print_time(int64_t t)
{
	if (t == SB_TIME_INFINITE)
		printf("inf");
	else
		printf("%" PRId64, t);
}

/* ---------------------------------------------------------------- */

int sbucket_backfill_main(int argc, char **argv)
{
	const char *policy = "FIRSTAVAILABLE", *priorityf = NULL;
	const char *files[2];
	char shown[SB_SHOWN_BUF];
	int nfiles = 0, header = 1, i, rc = SBUCKET_EXIT_INPUT;
	int64_t now = 0, *until = NULL;
	sb_policy_t pol;
	sbi_cluster_t cl = { 0 };
	sb_bucket_set_t *set = NULL;
	sb_will_run_t *w = NULL;
	sb_limit_plan_t *lp = NULL;
	int64_t *limit = NULL, *need = NULL;
	_refuse_ctx_t rctx;
	sbi_jobs_t jobs = { 0 };
	char id[SB_SHOWN_BUF];
	size_t j;

	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "policy", required_argument, NULL, 'P' },
		{ "priorityf", required_argument, NULL, 'f' },
		{ "now", required_argument, NULL, 't' },
		{ "noheader", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 }
	};
	uint64_t v;
	int c;

	sbucket_getopt_start();
	while ((c = sbucket_getopt("backfill", argc, argv, "h", longopts)) !=
	       -1) {
		switch (c) {
		case 'h':
			_usage(stdout);
			return SBUCKET_EXIT_OK;
		case 'P':
			policy = optarg;
			break;
		case 'f':
			priorityf = optarg;
			break;
		case 't':
			if (sb_decimal_parse(optarg, INT64_MAX - 1, &v, NULL)) {
				fprintf(stderr, "sbucket backfill: --now: "
					"not a time in seconds >= 0: '%s'\n",
					SHOWN(optarg));
				return SBUCKET_EXIT_USAGE;
			}
			now = (int64_t) v;
			break;
		case 'n':
			header = 0;
			break;
		default:
			return SBUCKET_EXIT_USAGE;
		}
	}
	for (i = optind; i < argc; i++)
		if (sbucket_operand("backfill", argv[i], files, &nfiles, 2))
			return SBUCKET_EXIT_USAGE;
	if (nfiles != 2)
		return sbucket_cmd_error("backfill",
					 "expected NODES_FILE and JOBS_FILE");
	if (sbucket_policy_option("backfill", policy, priorityf, &pol))
		return SBUCKET_EXIT_USAGE;
	/* Results and a later error keep their order when both are piped. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (sbi_read_nodes(files[0], &cl))
		return SBUCKET_EXIT_INPUT;
	if (!(until = malloc((cl.n + 1) * sizeof(*until))))
		goto oom;
	_busy_until(&cl, until);
	if (!(set = sb_bucket_set_create(cl.nodes, cl.n, now)) ||
	    !(w = sb_will_run_create(set, now, INT64_MAX - now, until)))
		goto oom;
	/* One limit per declared licence, held by LicensesUsed= lines. */
	if (!(limit = malloc((cl.nlic + 1) * sizeof(*limit))) ||
	    !(need = malloc((cl.nlic + 1) * sizeof(*need))))
		goto oom;
	for (j = 0; j < cl.nlic; j++)
		limit[j] = cl.lic[j].count;
	if (!(lp = sb_limit_plan_create(now, limit, cl.nlic)))
		goto oom;
	for (j = 0; j < cl.nheld; j++)
		if (sb_limit_plan_hold(lp, cl.held[j].lic, cl.held[j].count,
				       cl.held[j].until))
			goto oom;
	rctx = (_refuse_ctx_t) { .cl = &cl, .need = need };
	if (sbi_read_jobs(files[1], &cl, _refuse_unsupported, &rctx, &jobs))
		goto out;
	/* Every line is good: from here on only memory can fail. */
	if (header)
		printf("JobId|Start|End|Nodes|Result\n");
	for (j = 0; j < jobs.n; j++) {
		sbi_job_t *job = &jobs.v[j];
		sb_will_run_result_t res;
		size_t bad;
		int got;

		/* _refuse_unsupported() has checked them: it returns 0. */
		(void) _need(&cl, job, need, &bad);
		got = _plan(w, lp, job, need, job->nlic > 0, &pol, now, &res);
		if (got && errno != ENOENT) {
			fprintf(stderr, "sbucket: %s:%zu: job %s: %s\n",
				files[1], jobs.line[j],
				sb_shown(id, sizeof(id), job->jobid),
				strerror(errno));
			goto out;
		}
		if (got) {
			printf("%s||||never\n", job->jobid);
			continue;
		}
		printf("%s|", job->jobid);
		_print_time(res.start);
		printf("|");
		_print_time(res.end);
		printf("|");
		if (sbi_print_placement(&cl, &res.pl) ||
		    sb_will_run_commit(w, &res) ||
		    (job->nlic && sb_limit_plan_add(lp, need, res.start,
						    job->req.time_limit))) {
			sb_will_run_result_fini(&res);
			goto oom;
		}
		printf("|%s\n", res.start == now ? "run" : "later");
		sb_will_run_result_fini(&res);
	}
	rc = SBUCKET_EXIT_OK;
	goto out;
oom:
	fprintf(stderr, "sbucket: out of memory\n");
out:
	sbi_jobs_fini(&jobs);
	sb_limit_plan_destroy(lp);
	free(limit);
	free(need);
	sb_will_run_destroy(w);
	sb_bucket_set_destroy(set);
	free(until);
	sbi_cluster_fini(&cl);
	return rc;
}
