/*
 * sbucket_place.c - 'sbucket place': place jobs on a node list offline.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Jobs are placed in file order at time 0 with the engine the select
 * plugin uses (common/place.h). A job that runs keeps its nodes for the
 * rest of the file, so later jobs see them busy. With --base, each job
 * goes through select/bucket's own decision (common/time/select_decide.h,
 * RUN_NOW), the call the plugin makes in slurmctld: which jobs it leaves
 * to its base and why, and where it puts the others.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bucket.h"
#include "bucket_conf.h"
#include "hostlist_fmt.h"
#include "place.h"
#include "policy.h"
#include "sbucket.h"
#include "select_decide.h"
#include "sbucket_input_jobs.h"
#include "shown.h"

static void _usage(FILE *f)
{
	fprintf(f,
"Usage: sbucket place [OPTIONS] NODES_FILE JOBS_FILE\n"
"\n"
"Place the jobs of JOBS_FILE, in order, at time 0 on the nodes of\n"
"NODES_FILE, and print one line per job: JobId|Nodes|Path|Result\n"
"  Nodes   the nodes of each chunk as a hostlist, chunks joined by '+'\n"
"  Path    'bucket', or 'node:REASON' for the per-node path (REASON is\n"
"          not_exclusive, required_nodes, contiguous, policy_order or\n"
"          forced)\n"
"  Result  run, wait (could run later) or never (can never run here)\n"
"A job that runs keeps its nodes for the rest of the file.\n"
"\n"
"Options:\n"
"  --config=FILE      read a bucket.conf (bucket.conf(5)): its\n"
"                     NodeAllocationPolicy, PriorityF and node speeds\n"
"                     (these replace Speed= of NODES_FILE; every node\n"
"                     it names must be in NODES_FILE)\n"
"  --policy=NAME      node allocation policy: FIRSTAVAILABLE (default),\n"
"                     LASTAVAILABLE, MINRESOURCE, CPULOAD, CONTIGUOUS,\n"
"                     MAXBALANCE, FASTEST, PRIORITY; overrides --config\n"
"  --priorityf=EXPR   PRIORITY's expression, e.g. 'SPEED-10*JOBCOUNT'\n"
"                     (CPROCS CMEM CDISK APROCS AMEM ADISK SPEED LOAD\n"
"                     JOBCOUNT WEIGHT); overrides --config\n"
"  --path=auto|bucket|node  force a path (bucket: ineligible jobs are\n"
"                     an error); default auto\n"
"  --base=linear|cons_tres  answer as select/bucket over that base plugin\n"
"                     answers slurmctld: each job through its decision\n"
"                     (RUN_NOW, partitions OverSubscribe=NO); a job it\n"
"                     leaves to the base prints no nodes, Path\n"
"                     base:REASON (select_bucket(8)) and Result base;\n"
"                     wait and never are its 'not now'. Not with --path;\n"
"                     -C with counts or [a|b] is refused (the plugin is\n"
"                     asked once per count)\n"
"  --noheader         do not print the JobId|Nodes|Path|Result header\n"
"  -h, --help         this text\n"
"\n"
"NODES_FILE: slurm.conf-style lines\n"
"  NodeName=n[1-1430] CPUs=2 RealMemory=8000 Features=yellow,circle\n"
"      Weight=1 Gres=gpu:2 [Sockets= CoresPerSocket= ThreadsPerCore=\n"
"      TmpDisk= State=IDLE|ALLOCATED|DOWN|DRAINED|POWERED_DOWN Load=\n"
"      Speed= Jobs= Busy=START-END[,START-END...] (seconds from 0)\n"
"      BusyUntil=T (when a busy node's jobs end; 'sbucket backfill')]\n"
"  PartitionName=batch Nodes=n[1-10] [Default=YES]\n"
"  Licenses=matlab:8,... and LicensesUsed= lines ('sbucket backfill')\n"
"JOBS_FILE: one job a line, sbatch-like\n"
"  JobId=7 -N 4 --exclusive --constraint=yellow --mem=2000 -t 30\n"
"  (also --tmp --mincpus -c --ntasks-per-node --gres -w -x -p\n"
"  --contiguous; -C takes &, |, ( ), [a|b] and [a*2&b*4])\n"
"  -L/--licenses is read and ignored: placement is about nodes\n"
"  ('sbucket backfill' plans licences)\n"
"'#' starts a comment. Exit status: 0, 1 for bad input, 2 for usage.\n");
}

/*
 * The speeds of bucket.conf replace the nodes file's. A node it names
 * that the nodes file lacks is an error (a typo would silently change
 * nothing); the earliest such line is reported.
 */
static int _apply_speeds(const sb_bucket_conf_t *conf, const char *conf_path,
			 const char *nodes_path, sbi_cluster_t *cl)
{
	const sb_bucket_conf_node_t *cn, *missing = NULL;
	size_t i;
	long idx;

	for (i = 0; i < sb_bucket_conf_node_count(conf); i++) {
		cn = sb_bucket_conf_node_at(conf, i);
		if ((idx = sbi_find_node(cl, cn->name)) >= 0)
			cl->nodes[idx].speed = cn->speed;
		else if (!missing || cn->line < missing->line)
			missing = cn;
	}
	if (!missing)
		return 0;
	fprintf(stderr, "sbucket: %s:%zu: NodeName=%s: not a node of %s\n",
		conf_path, missing->line, missing->name, nodes_path);
	return -1;
}

/* --path=bucket: a job that cannot take it is an input error. */
static int _refuse_node_path(const sbi_job_t *job, const void *ctx,
			     char *why, size_t len)
{
	const char *reason = sb_place_ineligible(&job->req, ctx);

	if (!reason)
		return 0;
	snprintf(why, len, " cannot take the bucket path (%s)", reason);
	return 1;
}

/* --base: a job of several counts or alternatives is no one question. */
static int _refuse_counts(const sbi_job_t *job, const void *ctx, char *why,
			  size_t len)
{
	if (job->req.nchunks == 1 && !job->req.nmatch)
		return 0;
	snprintf(why, len, ": -C with counts or [a|b] is asked of "
		 "select/bucket once per count, not with --base");
	return 1;
}

/*
 * select/bucket's answer for @job (--base): its decision in RUN_NOW into
 * *@v, printed as the engine's answer is. 0, or -1 with errno.
 */
static int _decide(sb_bucket_set_t *set, const sbi_cluster_t *cl,
		   const sbi_job_t *job, const sb_policy_t *pol, bool cons,
		   sb_select_verdict_t *v)
{
	sb_placement_t pl = { .result = SB_PLACE_RUN, .nchunks = 1 };
	sb_select_facts_t f;

	sb_select_facts_init(&f);
	if (sb_select_facts_request(&f, &job->req) < 0)
		return -1;
	f.policy = pol;
	f.base.share.base_cons = cons;
	f.base.share.part_no = true;	/* Slurm's OverSubscribe default */
	if (sb_select_decide(set, &f, SB_SELECT_RUN_NOW, v) < 0)
		return -1;
	if (v->failed) {
		errno = v->err;
		return -1;
	}
	printf("%s|", job->jobid);
	if (v->action == SB_SELECT_OURS) {
		pl.nodes = &v->nodes;
		if (sbi_print_placement(cl, &pl) < 0)
			return -1;
	}
	if (v->action == SB_SELECT_BASE)
		printf("|base:%s|base\n", v->reason);
	else if (v->path)
		printf("|node:%s|%s\n", v->path,
		       sb_place_result_name(v->result));
	else
		printf("|bucket|%s\n", sb_place_result_name(v->result));
	return 0;
}

/*
 * A job's --bucket-prefer that bucket.conf @conf (@conf_path) does not
 * allow in its partition is dropped, with one note, as slurmctld drops
 * it (AllowJobPreferences: sb_bucket_conf_job_prefer()).
 */
static void _allow_prefer(const sb_bucket_conf_t *conf, const char *conf_path,
			  const sbi_cluster_t *cl, const char *jobs_path,
			  size_t line, sbi_job_t *job)
{
	sb_request_t *r = &job->req;
	/* without -p, slurmctld runs the job in the default partition */
	const char *p = r->partition ? r->partition : cl->default_partition;
	char id[SB_SHOWN_BUF], part[SB_SHOWN_BUF];
	size_t k;

	if (!r->nprefer || sb_bucket_conf_job_prefer(conf, p))
		return;
	fprintf(stderr, "sbucket: note: %s:%zu: job %s: --bucket-prefer "
		"ignored: not allowed in partition %s (AllowJobPreferences "
		"in %s)\n", jobs_path, line,
		sb_shown(id, sizeof(id), job->jobid),
		p ? sb_shown(part, sizeof(part), p) : "(none)", conf_path);
	for (k = 0; k < r->nprefer; k++)
		free(r->prefer[k]);
	free(r->prefer);
	r->prefer = NULL;
	r->nprefer = 0;
}

/* The job's nodes are allocated from now on. */
static void _commit(sbi_cluster_t *cl, sb_bucket_set_t *set,
		    const sb_placement_t *pl)
{
	size_t c;
	int64_t i;

	for (c = 0; c < pl->nchunks; c++)
		for (i = sb_bitmap_first_set(pl->nodes[c]); i >= 0;
		     i = sb_bitmap_next_set(pl->nodes[c], (size_t) i + 1)) {
			cl->nodes[i].state = SB_NODE_ALLOCATED;
			cl->nodes[i].run_jobs++;
			sb_bucket_set_update(set, (size_t) i);
		}
}

int sbucket_place_main(int argc, char **argv)
{
	const char *policy = NULL, *priorityf = NULL, *conf_path = NULL;
	const char *files[2];
	char err[SB_BUCKET_CONF_ERRLEN];
	sb_bucket_conf_t *conf = NULL;
	sb_path_t path = SB_PATH_AUTO;
	int nfiles = 0, header = 1, i, rc = SBUCKET_EXIT_INPUT;
	int base = -1;			/* --base: 0 linear, 1 cons_tres */
	bool path_set = false;
	sb_policy_t pol;
	sbi_cluster_t cl = { 0 };
	sbi_jobs_t jobs = { 0 };
	sb_bucket_set_t *set = NULL;
	char id[SB_SHOWN_BUF];
	size_t j;

	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "config", required_argument, NULL, 'c' },
		{ "policy", required_argument, NULL, 'P' },
		{ "priorityf", required_argument, NULL, 'f' },
		{ "path", required_argument, NULL, 'p' },
		{ "base", required_argument, NULL, 'b' },
		{ "noheader", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	sbucket_getopt_start();
	while ((c = sbucket_getopt("place", argc, argv, "h", longopts)) != -1) {
		switch (c) {
		case 'h':
			_usage(stdout);
			return SBUCKET_EXIT_OK;
		case 'c':
			conf_path = optarg;
			break;
		case 'P':
			policy = optarg;
			break;
		case 'f':
			priorityf = optarg;
			break;
		case 'p':
			if (!strcmp(optarg, "auto"))
				path = SB_PATH_AUTO;
			else if (!strcmp(optarg, "bucket"))
				path = SB_PATH_BUCKET;
			else if (!strcmp(optarg, "node"))
				path = SB_PATH_NODE;
			else
				return sbucket_usage_error("place", "--path",
							   optarg, "not auto, "
							   "bucket or node");
			path_set = true;
			break;
		case 'b':
			if (!strcmp(optarg, "linear") ||
			    !strcmp(optarg, "select/linear"))
				base = 0;
			else if (!strcmp(optarg, "cons_tres") ||
				 !strcmp(optarg, "select/cons_tres"))
				base = 1;
			else
				return sbucket_usage_error("place", "--base",
							   optarg, "not linear "
							   "or cons_tres");
			break;
		case 'n':
			header = 0;
			break;
		default:
			return SBUCKET_EXIT_USAGE;
		}
	}
	for (i = optind; i < argc; i++)
		if (sbucket_operand("place", argv[i], files, &nfiles, 2))
			return SBUCKET_EXIT_USAGE;
	if (nfiles != 2)
		return sbucket_cmd_error("place",
					 "expected NODES_FILE and JOBS_FILE");
	if (base >= 0 && path_set)
		return sbucket_cmd_error("place", "--base decides the path "
					 "as select/bucket does: not with "
					 "--path");
	if (conf_path &&
	    !(conf = sb_bucket_conf_load(conf_path, err, sizeof(err)))) {
		fprintf(stderr, "sbucket: %s\n", err);
		return SBUCKET_EXIT_INPUT;
	}
	/*
	 * --policy and --priorityf override the file's NodeAllocationPolicy
	 * and PriorityF, one key each: the file's PriorityF still serves a
	 * --policy=PRIORITY.
	 */
	if (!policy && conf)
		policy = sb_policy_name(sb_bucket_conf_policy(conf)->kind);
	else if (!policy)
		policy = "FIRSTAVAILABLE";
	if (!priorityf && conf && sb_bucket_conf_priorityf(conf) &&
	    !strcasecmp(policy, sb_policy_name(SB_POLICY_PRIORITY))) {
		/* The file's expression as parsed, not re-read from text. */
		memset(&pol, 0, sizeof(pol));
		pol.kind = SB_POLICY_PRIORITY;
		pol.pf = *sb_bucket_conf_priorityf(conf);
	} else if (sbucket_policy_option("place", policy, priorityf, &pol)) {
		rc = SBUCKET_EXIT_USAGE;
		goto out;
	}
	/* Results and a later error keep their order when both are piped. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (sbi_read_nodes(files[0], &cl) ||
	    (conf && _apply_speeds(conf, conf_path, files[0], &cl)))
		goto out;
	if (!(set = sb_bucket_set_create(cl.nodes, cl.n, 0))) {
		fprintf(stderr, "sbucket: %s\n", strerror(errno));
		goto out;
	}
	if (sbi_read_jobs(files[1], &cl, base >= 0 ? _refuse_counts :
			  path == SB_PATH_BUCKET ? _refuse_node_path : NULL,
			  &pol, &jobs))
		goto out;
	/* Every line is good: from here on only memory can fail. */
	for (j = 0; conf && j < jobs.n; j++)
		_allow_prefer(conf, conf_path, &cl, files[1], jobs.line[j],
			      &jobs.v[j]);
	if (header)
		printf("JobId|Nodes|Path|Result\n");
	for (j = 0; j < jobs.n; j++) {
		sbi_job_t *job = &jobs.v[j];
		sb_select_verdict_t v = { 0 };
		sb_placement_t pl;

		if (base >= 0) {
			if (_decide(set, &cl, job, &pol, base, &v) < 0) {
				fprintf(stderr, "sbucket: %s:%zu: job %s: %s\n",
					files[1], jobs.line[j],
					sb_shown(id, sizeof(id), job->jobid),
					strerror(errno));
				sb_select_verdict_fini(&v);
				goto out;
			}
			pl.result = SB_PLACE_RUN;
			pl.nchunks = 1;
			pl.nodes = &v.nodes;
			if (v.action == SB_SELECT_OURS)
				_commit(&cl, set, &pl);
			sb_select_verdict_fini(&v);
			continue;
		}
		if (sb_place(set, &job->req, &pol, path, &pl)) {
			fprintf(stderr, "sbucket: %s:%zu: job %s: %s\n",
				files[1], jobs.line[j],
				sb_shown(id, sizeof(id), job->jobid),
				strerror(errno));
			goto out;
		}
		printf("%s|", job->jobid);
		if (pl.result == SB_PLACE_RUN && sbi_print_placement(&cl, &pl)) {
			fprintf(stderr, "sbucket: out of memory\n");
			sb_placement_fini(&pl);
			goto out;
		}
		if (pl.bucket_path)
			printf("|bucket|%s\n", sb_place_result_name(pl.result));
		else
			printf("|node:%s|%s\n", pl.reason,
			       sb_place_result_name(pl.result));
		if (pl.result == SB_PLACE_RUN)
			_commit(&cl, set, &pl);
		sb_placement_fini(&pl);
	}
	rc = SBUCKET_EXIT_OK;
out:
	sbi_jobs_fini(&jobs);
	sb_bucket_set_destroy(set);
	sbi_cluster_fini(&cl);
	sb_bucket_conf_free(conf);
	return rc;
}
