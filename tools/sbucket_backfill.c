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
 * tools/sbucket_place_input.c); its BusyUntil=T key, the time the jobs
 * running on a busy node end, matters only here.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bucket.h"
#include "hostlist_fmt.h"
#include "policy.h"
#include "sbucket.h"
#include "sbucket_place_input.h"
#include "shown.h"

/* Command-line text in a message, as shown.h shows input. */
#define SHOWN(s) sb_shown(shown, sizeof(shown), s)
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
"JOBS_FILE: as for 'sbucket place'; -t is the time limit (no -t: none).\n"
"'#' starts a comment. Exit status: 0, 1 for bad input, 2 for usage.\n");
}

/*
 * When each node is free of its running jobs: a busy node (State=ALLOCATED
 * or Jobs=N) at its BusyUntil= (unknown: never), any other node now.
 */
static void _busy_until(const sbp_cluster_t *cl, int64_t *until)
{
	size_t i;

	for (i = 0; i < cl->n; i++) {
		const sb_node_t *n = &cl->nodes[i];

		until[i] = n->state == SB_NODE_ALLOCATED || n->run_jobs ?
			n->busy_until : 0;
	}
}

/* -w and --contiguous: WILL_RUN does not plan them (input errors). */
static int _refuse_unsupported(const sbp_job_t *job, const void *ctx,
			       char *why, size_t len)
{
	if ((!job->req.required || sb_bitmap_empty(job->req.required)) &&
	    !job->req.contiguous)
		return 0;
	snprintf(why, len, ": -w and --contiguous are not supported by "
		 "backfill");
	return 1;
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
	const char *files[2], *msg = NULL;
	char shown[SB_SHOWN_BUF];
	int nfiles = 0, header = 1, i, rc = SBUCKET_EXIT_INPUT;
	int64_t now = 0, *until = NULL;
	sb_policy_t pol;
	sbp_cluster_t cl = { 0 };
	sb_bucket_set_t *set = NULL;
	sb_will_run_t *w = NULL;
	sbp_jobs_t jobs = { 0 };
	char *end, id[SB_SHOWN_BUF];
	size_t j, errpos = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			_usage(stdout);
			return SBUCKET_EXIT_OK;
		} else if (!strncmp(a, "--policy=", 9)) {
			policy = a + 9;
		} else if (!strncmp(a, "--priorityf=", 12)) {
			priorityf = a + 12;
		} else if (!strncmp(a, "--now=", 6)) {
			long long v;

			errno = 0;
			v = strtoll(a + 6, &end, 10);
			if (!isdigit((unsigned char) a[6]) || *end || errno ||
			    v == INT64_MAX) {
				fprintf(stderr, "sbucket backfill: --now: "
					"not a time in seconds >= 0: '%s'\n",
					SHOWN(a + 6));
				return SBUCKET_EXIT_USAGE;
			}
			now = v;
		} else if (!strcmp(a, "--noheader")) {
			header = 0;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "sbucket backfill: unknown option "
				"'%s'\nTry 'sbucket backfill --help'.\n",
				SHOWN(a));
			return SBUCKET_EXIT_USAGE;
		} else if (nfiles < 2) {
			files[nfiles++] = a;
		} else {
			fprintf(stderr, "sbucket backfill: too many arguments "
				"('%s')\nTry 'sbucket backfill --help'.\n",
				SHOWN(a));
			return SBUCKET_EXIT_USAGE;
		}
	}
	if (nfiles != 2) {
		fprintf(stderr, "sbucket backfill: expected NODES_FILE and "
			"JOBS_FILE\nTry 'sbucket backfill --help'.\n");
		return SBUCKET_EXIT_USAGE;
	}
	if (sb_policy_init(&pol, policy, priorityf, &errpos, &msg)) {
		if (errno == ENOENT)
			fprintf(stderr, "sbucket backfill: unknown policy "
				"'%s'\n", SHOWN(policy));
		else if (priorityf && msg && strstr(msg, "PRIORITYF") == NULL)
			fprintf(stderr, "sbucket backfill: --priorityf: "
				"column %zu: %s: '%s'\n", errpos + 1, msg,
				SHOWN(priorityf + errpos));
		else
			fprintf(stderr, "sbucket backfill: %s\n", msg ? msg :
				"bad policy");
		return SBUCKET_EXIT_USAGE;
	}
	/* Results and a later error keep their order when both are piped. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (sbp_read_nodes(files[0], &cl))
		return SBUCKET_EXIT_INPUT;
	if (!(until = malloc((cl.n + 1) * sizeof(*until))))
		goto oom;
	_busy_until(&cl, until);
	if (!(set = sb_bucket_set_create(cl.nodes, cl.n, now)) ||
	    !(w = sb_will_run_create(set, now, INT64_MAX - now, until)))
		goto oom;
	if (sbp_read_jobs(files[1], &cl, _refuse_unsupported, NULL, &jobs))
		goto out;
	/* Every line is good: from here on only memory can fail. */
	if (header)
		printf("JobId|Start|End|Nodes|Result\n");
	for (j = 0; j < jobs.n; j++) {
		sbp_job_t *job = &jobs.v[j];
		sb_will_run_result_t res;
		int got;

		got = sb_will_run_query(w, &job->req, &pol, NULL, now, &res);
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
		if (sbp_print_placement(&cl, &res.pl) ||
		    sb_will_run_commit(w, &res)) {
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
	sbp_jobs_fini(&jobs);
	sb_will_run_destroy(w);
	sb_bucket_set_destroy(set);
	free(until);
	sbp_cluster_fini(&cl);
	return rc;
}
