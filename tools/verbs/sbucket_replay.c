/*
 * sbucket_replay.c - 'sbucket replay': a whole workload (an SWF log or a
 * site's sacct output) through the product's own engines, under one
 * configuration or two side by side.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * This file reads the options and the trace, turns the trace into the
 * replay's jobs (common/time/replay.h), runs it and hands the outcome to
 * sbucket_replay_print.c and sbucket_replay_chart.c. The options after
 * --compare make the second configuration, starting from the first.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "decimal.h"
#include "priority_params.h"
#include "sb_time.h"
#include "sbucket.h"
#include "sbucket_input_assoc.h"
#include "sbucket_input_jobs.h"
#include "sbucket_input_sacct.h"
#include "sbucket_input_swf.h"
#include "sbucket_replay.h"
#include "shown.h"

#define CMD "replay"

/* Multifactor's weights when none is given (Slurm's are all 0, which
 * would make every job's priority the same). */
#define DEF_WEIGHT_AGE 1000
#define DEF_WEIGHT_FS 10000
/* --nodes without --policy: bucket.conf's default, as 'sbucket place' */
#define DEF_POLICY "FIRSTAVAILABLE"

static void _usage(FILE *f)
{
	fprintf(f,
"Usage: sbucket replay [OPTIONS] TRACE [--compare OPTIONS]\n"
"\n"
"Replay a whole workload through slurm-buckets' own engines: each job of\n"
"TRACE arrives at its submit time, waits for the scheduler chosen, and\n"
"runs for its real run time (killed at its time limit when longer, as\n"
"Slurm does). Print what the users would have seen: waits, bounded\n"
"slowdown, utilisation, each user's figures and how fairly they fare.\n"
"TRACE is a log in the Standard Workload Format (.swf, or .swf.gz as the\n"
"Parallel Workloads Archive ships it) or a cluster's own accounting, as\n"
"  sacct -a -X -P -S START -E END -o " SBI_SACCT_COLUMNS "\n"
"prints it (see sbucket(1)); '-' is standard input, gzip or not.\n"
"\n"
"The machine and the scheduler:\n"
"  --procs=N             N interchangeable units (processors, or nodes\n"
"                        counted whole); default: the log's MaxProcs\n"
"  --nodes=FILE          whole nodes instead: a nodes file as 'sbucket\n"
"                        place' reads it; each job gets whole nodes,\n"
"                        exclusive, placed by select/bucket's own decision\n"
"                        (easy and slurm); its node count is sacct's\n"
"                        NNodes, else its size over --cpus-per-node\n"
"                        (default: the fewest CPUs of a node), rounded\n"
"                        up; node states other than DOWN and DRAINED and\n"
"                        busy windows are not read: the machine starts empty\n"
"  --policy=NAME, --priorityf=EXPR, --base=linear|cons_tres\n"
"                        with --nodes: the allocation policy (default\n"
"                        FIRSTAVAILABLE) and the base (default linear), as\n"
"                        'sbucket place' takes them\n"
"  --select=bucket|linear\n"
"                        with --nodes: whose choice places the nodes:\n"
"                        select/bucket's decision (default), or\n"
"                        select/linear alone (--scheduler=slurm: its best\n"
"                        fit over runs of consecutive nodes)\n"
"  --bf-clock=S          with --nodes: slurmctld's clock at the trace's\n"
"                        time 0, in seconds (the epoch's will do; default\n"
"                        0): backfill's map of reserved nodes rounds its\n"
"                        times down to bf_resolution on that clock\n"
"  --scheduler=S         easy (default: one reservation, for the head of\n"
"                        the queue), conservative (one for every waiting\n"
"                        job), or slurm (Slurm's main scheduler at a job's\n"
"                        end, for arrivals at most every batch_sched_delay\n"
"                        and every sched_interval; its backfill at most\n"
"                        every bf_interval after a change: bf_max_job_test\n"
"                        jobs, reservations within bf_window)\n"
"  --priority=P          fcfs (default: order of arrival) or multifactor\n"
"                        (Slurm's formula: age, fair share, job size)\n"
"  --fairshare=ALG       fair_tree (default), level_based or classic: the\n"
"                        fair share of multifactor (implies it); users and\n"
"                        accounts (the log's groups) from the trace, shares\n"
"                        1 each, usage decayed as the replay goes\n"
"  --tree=FILE           multifactor's association tree and usage from FILE\n"
"                        ('sbucket fairshare's format: Account|Parent|User|\n"
"                        Shares|RawUsage; implies multifactor); a user it\n"
"                        lacks gets 1 share in its trace account, or under\n"
"                        root\n"
"  --set=KEY=VALUE       a slurm.conf setting, as slurm.conf spells it:\n"
"                        PriorityWeightAge, PriorityWeightFairshare,\n"
"                        PriorityWeightJobSize (default 1000, 10000 and 0\n"
"                        when no weight is set), PriorityMaxAge,\n"
"                        PriorityDecayHalfLife (7-0 each), PriorityCalcPeriod\n"
"                        (5), PriorityFavorSmall, FairShareDampeningFactor,\n"
"                        PriorityParameters (priority/bucket's algorithm\n"
"                        and levels), SchedulerParameters (bf_interval,\n"
"                        bf_window, bf_resolution, bf_max_job_test;\n"
"                        batch_sched_delay (3) and sched_interval (60),\n"
"                        when the main scheduler runs)\n"
"  --bf-last=S           slurm: a live slurmctld's backfill thread, which\n"
"                        last ran S seconds after the trace's time 0\n"
"                        (negative: before it): a pass every bf_interval\n"
"                        from S while jobs wait, whatever changed (its\n"
"                        thread runs from the daemon's start; bench/trace\n"
"                        reads S off the log); default: a thread that\n"
"                        passes bf_interval after its last pass when\n"
"                        something changed, else at the first change\n"
"  --main-last=S         slurm: a live slurmctld's background thread, whose\n"
"                        periodic pass (every sched_interval) last ran S\n"
"                        seconds after time 0 (negative: before it): its\n"
"                        passes fall on S plus multiples of sched_interval\n"
"                        (bench/trace reads S off the log); default: on\n"
"                        multiples of sched_interval from time 0\n"
"  --prio-last=S         multifactor: a live slurmctld's decay thread (its\n"
"                        priority plugin's), which last ran S seconds\n"
"                        after time 0 (negative: before it): its passes\n"
"                        fall on S plus multiples of PriorityCalcPeriod\n"
"                        (bench/trace reads S off the log); default: on\n"
"                        multiples of it from time 0\n"
"  --predict=WHAT        what the scheduler believes of a run time: limit\n"
"                        (default: the requested time), user2 (the mean of\n"
"                        the user's last two runs, capped by the limit:\n"
"                        Tsafrir, Etsion and Feitelson's), or similar2 (of\n"
"                        similar jobs first, as 'sbucket forecast')\n"
"  --correct=HOW         a job that outlives its prediction is believed to\n"
"                        run to its limit (limit, the default, as\n"
"                        'sbucket forecast'), or a little longer each time\n"
"                        (steps: +1, 5, 15, 30 min, 1, 2, 5, 10, 20, 50,\n"
"                        100 h over the prediction)\n"
"  --sjbf                easy: backfill the shortest (believed) job first\n"
"  --no-kill, --kill     let jobs run past their limit, or not (default)\n"
"  --no-sjbf             the opposite of --sjbf (after --compare)\n"
"\n"
"Output:\n"
"  --drop-first=PCT      leave the first PCT %% of jobs to end out of the\n"
"                        averages (1 in Tsafrir et al.'s tables)\n"
"  --jobs                a line per job: JobId|User|Submit|Start|End|Size|\n"
"                        Wait (seconds from the trace's start)\n"
"  --users               each user's jobs, waits and slowdown\n"
"  --json                one JSON object: {\"summary\": ..., \"jobs\": [...]},\n"
"                        every job in \"jobs\" (an array of two such\n"
"                        objects with --compare)\n"
"  --chart=FILE.svg      utilisation and jobs waiting over time, and the\n"
"                        mean wait by job size, as SVG (both\n"
"                        configurations with --compare)\n"
"  --swf-out=FILE        the replayed schedule as an SWF log\n"
"  --format=swf|sacct    what TRACE is (default: sacct's when its first\n"
"                        line holds a '|', else SWF)\n"
"  --skip-bad            skip malformed lines of TRACE (and count them)\n"
"                        instead of stopping at the first\n"
"  --compare OPTIONS     a second configuration (the first, changed by\n"
"                        OPTIONS), replayed on the same trace and shown\n"
"                        beside the first\n"
"  -h, --help            this text\n"
"\n"
"Jobs that never ran (an SWF run time of -1; in sacct's output no Start,\n"
"or no End yet) or give no processor count are left out, and so are\n"
"jobs larger than the machine; the summary counts them.\n"
"A job with no requested time gets its run time as its limit.\n"
"Exit status: 0, 1 for bad input (one error naming the line and field),\n"
"2 for usage errors.\n");
}

enum {
	O_PROCS = 256, O_NODES, O_POLICY, O_PRIORITYF, O_BASE, O_CPN, O_SCHED, O_PRIO, O_FS, O_SET, O_TREE, O_PREDICT,
	O_CORRECT,
	O_SJBF, O_NO_SJBF, O_KILL, O_NO_KILL, O_DROP, O_JOBS, O_USERS, O_BF_LAST,
	O_SELECT, O_BF_CLOCK, O_MAIN_LAST, O_PRIO_LAST,
	O_JSON, O_CHART, O_SWF_OUT, O_SKIP_BAD, O_FORMAT,
};

static const struct option _opts[] = {
	{ "procs", required_argument, NULL, O_PROCS },
	{ "nodes", required_argument, NULL, O_NODES },
	{ "policy", required_argument, NULL, O_POLICY },
	{ "priorityf", required_argument, NULL, O_PRIORITYF },
	{ "base", required_argument, NULL, O_BASE },
	{ "select", required_argument, NULL, O_SELECT },
	{ "bf-clock", required_argument, NULL, O_BF_CLOCK },
	{ "cpus-per-node", required_argument, NULL, O_CPN },
	{ "scheduler", required_argument, NULL, O_SCHED },
	{ "priority", required_argument, NULL, O_PRIO },
	{ "fairshare", required_argument, NULL, O_FS },
	{ "set", required_argument, NULL, O_SET },
	{ "tree", required_argument, NULL, O_TREE },
	{ "predict", required_argument, NULL, O_PREDICT },
	{ "correct", required_argument, NULL, O_CORRECT },
	{ "sjbf", no_argument, NULL, O_SJBF },
	{ "no-sjbf", no_argument, NULL, O_NO_SJBF },
	{ "kill", no_argument, NULL, O_KILL },
	{ "no-kill", no_argument, NULL, O_NO_KILL },
	{ "drop-first", required_argument, NULL, O_DROP },
	{ "bf-last", required_argument, NULL, O_BF_LAST },
	{ "main-last", required_argument, NULL, O_MAIN_LAST },
	{ "prio-last", required_argument, NULL, O_PRIO_LAST },
	{ "jobs", no_argument, NULL, O_JOBS },
	{ "users", no_argument, NULL, O_USERS },
	{ "json", no_argument, NULL, O_JSON },
	{ "chart", required_argument, NULL, O_CHART },
	{ "swf-out", required_argument, NULL, O_SWF_OUT },
	{ "skip-bad", no_argument, NULL, O_SKIP_BAD },
	{ "format", required_argument, NULL, O_FORMAT },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* What applies to the whole command, not to one configuration. */
typedef struct {
	const char *trace;
	bool jobs, users, json, skip_bad;
	sbi_trace_format_t format;
	const char *chart, *swf_out;
	bool weights_set[2];
} _global_t;

/* ---- --set --------------------------------------------------------------- */

static int _bad_set(const char *key, const char *val, const char *what)
{
	char k[SB_SHOWN_BUF], v[SB_SHOWN_BUF];

	fprintf(stderr, "sbucket: --set %s '%s': %s\n",
		sb_shown(k, sizeof(k), key), sb_shown(v, sizeof(v), val),
		what);
	return sbucket_usage_error(CMD, NULL, NULL, NULL);
}

/* A duration as slurm.conf writes PriorityMaxAge ("7-0", minutes). */
static int _duration(const char *v, int64_t *secs)
{
	if (sbi_parse_time(v, secs) < 0 || *secs == SB_TIME_INFINITE)
		return -1;
	return 0;
}

/* SchedulerParameters: the bf_ options the replay models. */
static int _sched_params(sbr_conf_t *c, const char *val)
{
	char *dup = strdup(val), *save = NULL, *tok;
	int rc = 0;

	if (!dup) {
		fprintf(stderr, "sbucket: out of memory\n");
		return SBUCKET_EXIT_INPUT;
	}
	for (tok = strtok_r(dup, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		uint64_t x;

		if (!eq) {
			rc = _bad_set("SchedulerParameters", tok,
				      "want bf_interval=S, bf_window=MIN, "
				      "bf_resolution=S, bf_max_job_test=N, "
				      "batch_sched_delay=S or sched_interval=S");
			break;
		}
		*eq++ = '\0';
		if (!strcmp(tok, "bf_interval") &&
		    !sb_decimal_in(eq, 1, 10800, &x))
			c->rc.bf_interval = (int64_t) x;
		else if (!strcmp(tok, "bf_window") &&
			 !sb_decimal_in(eq, 1, 43200, &x))
			c->rc.bf_window = (int64_t) x * 60;
		else if (!strcmp(tok, "bf_resolution") &&
			 !sb_decimal_in(eq, 1, 3600, &x))
			c->rc.bf_resolution = (int64_t) x;
		else if (!strcmp(tok, "bf_max_job_test") &&
			 !sb_decimal_in(eq, 1, 1000000, &x))
			c->rc.bf_max_job_test = (size_t) x;
		else if (!strcmp(tok, "batch_sched_delay") &&
			 !sb_decimal_in(eq, 0, 86400, &x))
			c->rc.batch_sched_delay = (int64_t) x;
		else if (!strcmp(tok, "sched_interval") &&
			 !sb_decimal_in(eq, 0, 86400, &x))
			c->rc.sched_interval = (int64_t) x;
		else
			rc = _bad_set(tok, eq,
				      !strcmp(tok, "bf_interval") ||
				      !strcmp(tok, "bf_window") ||
				      !strcmp(tok, "bf_resolution") ||
				      !strcmp(tok, "bf_max_job_test") ||
				      !strcmp(tok, "batch_sched_delay") ||
				      !strcmp(tok, "sched_interval") ?
				      "out of range (bf_interval 1-10800 s, "
				      "bf_window 1-43200 min, bf_resolution "
				      "1-3600 s, bf_max_job_test 1-1000000, "
				      "batch_sched_delay and sched_interval "
				      "0-86400 s)" :
				      "not a SchedulerParameters option the "
				      "replay models (bf_interval, bf_window, "
				      "bf_resolution, bf_max_job_test, "
				      "batch_sched_delay, sched_interval)");
	}
	free(dup);
	return rc;
}

static int _set(sbr_conf_t *c, const char *arg, bool *weights)
{
	static const char *const wkeys[] = { "PriorityWeightAge",
					     "PriorityWeightFairshare",
					     "PriorityWeightJobSize" };
	uint32_t *w[] = { &c->rc.weight_age, &c->rc.weight_fs,
			  &c->rc.weight_js };
	char key[64];
	const char *eq = strchr(arg, '='), *val;
	uint64_t x;
	int64_t secs;
	size_t k;

	if (!eq || eq == arg || (size_t) (eq - arg) >= sizeof(key))
		return sbucket_usage_error(CMD, "--set", arg,
					   "want KEY=VALUE, a slurm.conf "
					   "setting");
	memcpy(key, arg, (size_t) (eq - arg));
	key[eq - arg] = '\0';
	val = eq + 1;
	for (k = 0; k < 3; k++) {
		if (strcasecmp(key, wkeys[k]))
			continue;
		if (sb_decimal_in(val, 0, UINT32_MAX, &x) < 0)
			return _bad_set(key, val, "not a weight (0-4294967295)");
		*w[k] = (uint32_t) x;
		*weights = true;
		return 0;
	}
	if (!strcasecmp(key, "PriorityMaxAge") ||
	    !strcasecmp(key, "PriorityDecayHalfLife") ||
	    !strcasecmp(key, "PriorityCalcPeriod")) {
		bool age = !strcasecmp(key, "PriorityMaxAge");
		bool calc = !strcasecmp(key, "PriorityCalcPeriod");

		if (_duration(val, &secs) < 0 || ((age || calc) && !secs))
			return _bad_set(key, val, "not a time (minutes, "
					"or days-hours:minutes:seconds)");
		if (age)
			c->rc.max_age = secs;
		else if (calc)
			c->rc.calc_period = secs;
		else
			c->rc.half_life = secs;
		return 0;
	}
	if (!strcasecmp(key, "PriorityFavorSmall")) {
		if (!strcasecmp(val, "yes"))
			c->rc.favor_small = true;
		else if (!strcasecmp(val, "no"))
			c->rc.favor_small = false;
		else
			return _bad_set(key, val, "want YES or NO");
		return 0;
	}
	if (!strcasecmp(key, "FairShareDampeningFactor")) {
		if (sb_decimal_in(val, 1, UINT32_MAX, &x) < 0)
			return _bad_set(key, val, "not a number >= 1");
		c->rc.dampening = (uint32_t) x;
		return 0;
	}
	if (!strcasecmp(key, "PriorityParameters")) {
		sb_priority_params_t pp;
		char err[SB_PRIO_ERR_MAX];

		if (sb_priority_params_parse(val, &pp, err, sizeof(err)) < 0) {
			fprintf(stderr, "sbucket: --set: %s\n", err);
			return sbucket_usage_error(CMD, NULL, NULL, NULL);
		}
		c->rc.fs_algorithm = pp.algorithm;
		c->rc.levels = pp.levels;
		if (pp.calc_period)
			c->rc.calc_period = pp.calc_period;
		c->rc.prio = SB_REPLAY_MULTIFACTOR;
		return 0;
	}
	if (!strcasecmp(key, "SchedulerParameters"))
		return _sched_params(c, val);
	return _bad_set(key, val, "not a setting the replay models (see "
			"'sbucket replay --help')");
}

/* ---- options ------------------------------------------------------------- */

/* Option @o as its messages name it: its long name, however given. */
static const char *_opt_name(int o)
{
	static char buf[32];
	const struct option *p;

	for (p = _opts; p->name && p->val != o; p++)
		;
	snprintf(buf, sizeof(buf), "--%s", p->name ? p->name : "?");
	return buf;
}

static int _enum(const char *opt, const char *arg, int v, const char *want,
		 int *out)
{
	if (v < 0)
		return sbucket_usage_error(CMD, opt, arg, want);
	*out = v;
	return 0;
}

/*
 * The options of @argv[0..argc) into @c (and, unless @second, @g);
 * @second: after --compare, only a configuration's options. 0, or an
 * exit status after the error.
 */
static int _options(int argc, char **argv, sbr_conf_t *c, _global_t *g,
		    bool second)
{
	int o, rc, v = 0, ntraces = 0;
	uint64_t x;

	sbucket_getopt_start();
	while ((o = sbucket_getopt(CMD, argc, argv, "h", _opts)) != -1) {
		const char *name = _opt_name(o);

		rc = 0;
		switch (o) {
		case 'h':
			if (second)
				goto global;
			_usage(stdout);
			return -1;
		case O_PROCS:
			if (sb_decimal_in(optarg, 1, SBI_TRACE_VALUE_MAX,
					  &x) < 0)
				return sbucket_usage_error(CMD, "--procs",
							   optarg,
							   "is not a number of "
							   "units >= 1");
			c->procs = (int64_t) x;
			if (second)	/* the second machine replaces the first */
				c->nodes_file = NULL;
			break;
		case O_NODES:
			if (!*optarg)
				return sbucket_usage_error(CMD, name, NULL,
							   "needs a file");
			c->nodes_file = optarg;
			if (second)
				c->procs = 0;
			break;
		case O_POLICY:
			c->policy = optarg;
			break;
		case O_PRIORITYF:
			c->priorityf = optarg;
			break;
		case O_SELECT:
			if (!strcmp(optarg, "bucket") ||
			    !strcmp(optarg, "select/bucket"))
				c->rc.select = SB_REPLAY_SELECT_BUCKET;
			else if (!strcmp(optarg, "linear") ||
				 !strcmp(optarg, "select/linear"))
				c->rc.select = SB_REPLAY_SELECT_LINEAR;
			else
				return sbucket_usage_error(CMD, "--select",
							   optarg, "want bucket "
							   "or linear");
			break;
		case O_BF_CLOCK:
			/* the epoch's seconds, up to the year 33,658 */
			if (sb_decimal_in(optarg, 0, 999999999999LL, &x) < 0)
				return sbucket_usage_error(CMD, "--bf-clock",
							   optarg,
							   "is not a whole "
							   "number of seconds");
			c->rc.bf_clock = (int64_t) x;
			c->bf_clock_set = true;
			break;
		case O_BASE:
			c->base_set = true;
			if (!strcmp(optarg, "linear") ||
			    !strcmp(optarg, "select/linear"))
				c->rc.base_cons = false;
			else if (!strcmp(optarg, "cons_tres") ||
				 !strcmp(optarg, "select/cons_tres"))
				c->rc.base_cons = true;
			else
				return sbucket_usage_error(CMD, "--base",
							   optarg, "want linear "
							   "or cons_tres");
			break;
		case O_CPN:
			if (sb_decimal_in(optarg, 1, UINT32_MAX, &x) < 0)
				return sbucket_usage_error(CMD,
							   "--cpus-per-node",
							   optarg, "is not a "
							   "number >= 1");
			c->cpus_per_node = (int64_t) x;
			break;
		case O_SCHED:
			rc = _enum("--scheduler", optarg,
				   sb_replay_sched_parse(optarg),
				   "want easy, conservative or slurm", &v);
			c->rc.sched = (sb_replay_sched_t) v;
			break;
		case O_PRIO:
			rc = _enum("--priority", optarg,
				   sb_replay_prio_parse(optarg),
				   "want fcfs or multifactor", &v);
			c->rc.prio = (sb_replay_prio_t) v;
			break;
		case O_FS:
			v = !strcmp(optarg, "fair_tree") ? SB_FS_FAIR_TREE :
				!strcmp(optarg, "level_based") ?
				SB_FS_LEVEL_BASED : !strcmp(optarg, "classic") ?
				SB_FS_CLASSIC : -1;
			rc = _enum("--fairshare", optarg, v,
				   "want fair_tree, level_based or classic",
				   &c->rc.fs_algorithm);
			c->rc.prio = SB_REPLAY_MULTIFACTOR;
			break;
		case O_SET:
			rc = _set(c, optarg, &g->weights_set[second]);
			break;
		case O_TREE:
			if (!*optarg)
				return sbucket_usage_error(CMD, name, NULL,
							   "needs a file");
			c->tree_file = optarg;
			c->rc.prio = SB_REPLAY_MULTIFACTOR;
			break;
		case O_PREDICT:
			rc = _enum("--predict", optarg,
				   sb_replay_predict_parse(optarg),
				   "want limit, user2 or similar2", &v);
			c->rc.predict = (sb_replay_predict_t) v;
			break;
		case O_CORRECT:
			rc = _enum("--correct", optarg,
				   sb_replay_correct_parse(optarg),
				   "want limit or steps", &v);
			c->rc.correct = (sb_replay_correct_t) v;
			break;
		case O_SJBF:
		case O_NO_SJBF:
			c->rc.sjbf = o == O_SJBF;
			break;
		case O_KILL:
		case O_NO_KILL:
			c->rc.kill = o == O_KILL;
			break;
		case O_DROP: {
			char *end;
			double d;

			errno = 0;
			d = strtod(optarg, &end);
			if (errno || end == optarg || *end ||
			    !(d >= 0.0 && d < 100.0))
				return sbucket_usage_error(CMD, "--drop-first",
							   optarg,
							   "is not a percentage "
							   "in [0, 100)");
			c->drop_first = d;
			break;
		}
		case O_BF_LAST:
		case O_MAIN_LAST:
		case O_PRIO_LAST: {
			bool neg = optarg[0] == '-';
			int64_t v;

			/* digits as every number (decimal.h), and a sign;
			 * a year either way: seconds, not a mistyped date */
			if (sb_decimal_in(optarg + neg, 0, 31536000, &x) < 0)
				return sbucket_usage_error(CMD, _opt_name(o),
							   optarg,
							   "is not a whole "
							   "number of seconds "
							   "within a year of "
							   "time 0");
			v = neg ? -(int64_t) x : (int64_t) x;
			if (o == O_BF_LAST) {
				c->rc.bf_last_set = true;
				c->rc.bf_last = v;
			} else if (o == O_MAIN_LAST) {
				c->rc.sched_last_set = true;
				c->rc.sched_last = v;
			} else {
				c->rc.prio_last_set = true;
				c->rc.prio_last = v;
			}
			break;
		}
		case O_JOBS:
		case O_USERS:
		case O_JSON:
		case O_SKIP_BAD:
			if (second)
				goto global;
			if (o == O_JOBS)
				g->jobs = true;
			else if (o == O_USERS)
				g->users = true;
			else if (o == O_JSON)
				g->json = true;
			else
				g->skip_bad = true;
			break;
		case O_CHART:
		case O_SWF_OUT:
			if (second)
				goto global;
			if (!*optarg)
				return sbucket_usage_error(CMD, name, NULL,
							   "needs a file");
			*(o == O_CHART ? &g->chart : &g->swf_out) = optarg;
			break;
		case O_FORMAT:
			if (second)
				goto global;
			if (!strcmp(optarg, "swf"))
				g->format = SBI_TRACE_SWF;
			else if (!strcmp(optarg, "sacct"))
				g->format = SBI_TRACE_SACCT;
			else
				return sbucket_usage_error(CMD, "--format",
							   optarg,
							   "want swf or sacct");
			break;
		default:	/* SBUCKET_OPT_ERROR: said */
			return SBUCKET_EXIT_USAGE;
		}
		if (rc)
			return rc;
		continue;
global:
		return sbucket_usage_error(CMD, name, NULL,
					   "goes before --compare: it is not "
					   "part of a configuration");
	}
	for (; optind < argc; optind++) {
		if (second)
			return sbucket_usage_error(CMD, "trace", argv[optind],
						   "goes before --compare");
		if (sbucket_operand(CMD, argv[optind], &g->trace, &ntraces,
				    1))
			return SBUCKET_EXIT_USAGE;
	}
	return 0;
}

/* ---- the jobs of a configuration ----------------------------------------- */

static void _input_fini(sbr_input_t *in)
{
	free(in->jobs);
	free(in->from);
	memset(in, 0, sizeof(*in));
}

/* A trace job's size on @r's machine: units, or whole nodes (its
 * NNodes, else its size over the CPUs per node, rounded up). */
static int64_t _size(const sbr_run_t *r, const sbi_trace_job_t *tj)
{
	if (!r->c->nodes_file || tj->size < 1)
		return tj->size;
	if (tj->nodes > 0)
		return tj->nodes;
	return (tj->size + r->cpn - 1) / r->cpn;
}

/* The trace's jobs the machine of @r can replay. 0, or -1 (ENOMEM). */
static int _input(sbr_run_t *r, int64_t units)
{
	const sbi_trace_t *t = r->t;
	sbr_input_t *in = &r->in;
	size_t i;

	memset(in, 0, sizeof(*in));
	if (!(in->jobs = malloc((t->njobs + 1) * sizeof(*in->jobs))) ||
	    !(in->from = malloc((t->njobs + 1) * sizeof(*in->from))))
		return -1;
	for (i = 0; i < t->njobs; i++) {
		const sbi_trace_job_t *tj = &t->jobs[i];
		sb_replay_job_t *j = &in->jobs[in->n];

		if (tj->run < 0) {
			in->never_ran++;
			continue;
		}
		if (tj->size < 1) {
			in->no_size++;
			continue;
		}
		if (_size(r, tj) > units) {
			in->too_large++;
			continue;
		}
		j->submit = tj->submit;
		j->run = tj->run;
		j->size = _size(r, tj);
		j->user = tj->user;
		j->assoc = 0;
		if (tj->limit > 0) {
			j->limit = tj->limit;
		} else {
			j->limit = tj->run > 0 ? tj->run : 1;
			in->no_limit++;
		}
		in->from[in->n++] = i;
	}
	return 0;
}

/*
 * Multifactor's association tree: from --tree's file, or an account
 * per account of the trace (an SWF log's group) under root, shares 1
 * each, with no usage. Each job's association: its user's in its
 * account, else the user's first one in the tree; a user the tree
 * lacks is added with 1 share in its account (root when the tree lacks
 * that too) and counted. 0, or -1 after one error line.
 */
static int _tree(sbr_run_t *r)
{
	const sbi_trace_t *t = r->t;
	int *acct = NULL, *first = NULL;
	size_t i;
	int rc = -1, n;

	if (!(r->tree = sb_assoc_tree_create()) ||
	    !(acct = malloc((t->naccounts + 1) * sizeof(*acct))) ||
	    !(first = malloc((t->nusers + 1) * sizeof(*first))))
		goto oom;
	if (r->c->tree_file) {
		FILE *f = strcmp(r->c->tree_file, "-") ?
			fopen(r->c->tree_file, "r") : NULL;

		if (!f) {
			fprintf(stderr, "sbucket: --tree '%s': %s\n",
				r->c->tree_file, strcmp(r->c->tree_file, "-") ?
				strerror(errno) : "not standard input (the "
				"trace may be)");
			goto out;
		}
		n = sbi_read_assoc(f, r->c->tree_file, r->tree);
		fclose(f);
		if (n < 0)
			goto out;
	}
	for (i = 0; i < t->naccounts; i++) {
		const char *an = t->accounts[i];

		acct[i] = !strcmp(an, "root") ? SB_ASSOC_ROOT :
			sb_assoc_tree_find_account(r->tree, an);
	}
	for (i = 0; i < t->nusers; i++)
		first[i] = -1;
	/* the users' first associations in the tree */
	n = sb_assoc_tree_count(r->tree);
	for (i = 0; (int) i < n; i++) {
		sb_assoc_info_t a;
		size_t u;

		if (sb_assoc_tree_get(r->tree, (int) i, &a) < 0 ||
		    !a.is_user)
			continue;
		u = sb_strmap_get(t->umap, a.name);
		if (u != SIZE_MAX && first[u] < 0)
			first[u] = (int) i;
	}
	for (i = 0; i < r->in.n; i++) {
		const sbi_trace_job_t *tj = &t->jobs[r->in.from[i]];
		const char *un = t->users[tj->user];
		int a = acct[tj->account], u = -1;

		if (a < 0 && !r->c->tree_file) {
			a = sb_assoc_tree_add_account(r->tree, SB_ASSOC_ROOT,
						      t->accounts[tj->account],
						      1);
			if (a < 0)
				goto oom;
			acct[tj->account] = a;
		}
		if (a >= 0)
			u = sb_assoc_tree_find_user(r->tree, a, un);
		if (u < 0)
			u = first[tj->user];
		if (u < 0) {
			u = sb_assoc_tree_add_user(r->tree, a >= 0 ? a :
						   SB_ASSOC_ROOT, un, 1, 0.0L);
			if (u < 0)
				goto oom;
			first[tj->user] = u;
			if (r->c->tree_file)
				r->tree_added++;
		}
		r->in.jobs[i].assoc = u;
	}
	rc = 0;
	goto out;
oom:
	fprintf(stderr, "sbucket: out of memory\n");
out:
	free(acct);
	free(first);
	return rc;
}

/*
 * --nodes: read the nodes file into r->cl, start it empty (every node
 * idle but down and drained ones, no busy window), the policy, the CPUs
 * per node; the machine's units into *@units. 0, or -1 after one error
 * line.
 */
static int _machine(sbr_run_t *r, sb_replay_conf_t *rc, int64_t *units)
{
	size_t i;

	if (sbi_read_nodes(r->c->nodes_file, &r->cl) < 0)
		return -1;
	if (!r->cl.n) {
		fprintf(stderr, "sbucket: --nodes '%s': no node\n",
			r->c->nodes_file);
		return -1;
	}
	if (rc->select != SB_REPLAY_SELECT_LINEAR &&
	    sbucket_policy_option(CMD, r->c->policy, r->c->priorityf,
				  &r->pol) < 0)
		return -1;
	r->cpn = r->c->cpus_per_node;
	for (i = 0; i < r->cl.n; i++) {
		sb_node_t *n = &r->cl.nodes[i];

		if (n->state != SB_NODE_DOWN && n->state != SB_NODE_DRAINED)
			n->state = SB_NODE_IDLE;
		n->run_jobs = 0;
		n->busy_until = 0;
		free(n->busy);
		n->busy = NULL;
		n->nbusy = 0;
		if (!r->c->cpus_per_node && (!r->cpn || n->cpus < r->cpn))
			r->cpn = n->cpus ? n->cpus : 1;
	}
	rc->nodes = r->cl.nodes;
	rc->nnodes = r->cl.n;
	rc->policy = &r->pol;
	*units = (int64_t) r->cl.n;
	return 0;
}

static void _run_fini(sbr_run_t *r)
{
	_input_fini(&r->in);
	sbi_cluster_fini(&r->cl);
	sb_assoc_tree_destroy(r->tree);
	free(r->out);
	sb_replay_series_fini(&r->series);
	sb_replay_metrics_fini(&r->m);
	memset(r, 0, sizeof(*r));
}

/* Replay @c over @t into @r. 0, or -1 after one error line. */
static int _run(sbr_run_t *r, const sbr_conf_t *c, const sbi_trace_t *t,
		const char *name, bool series)
{
	sb_replay_conf_t rc = c->rc;
	int64_t units = c->procs > 0 ? c->procs : t->max_procs;

	memset(r, 0, sizeof(*r));
	r->c = c;
	r->t = t;
	r->trace_name = name;
	if (c->nodes_file && _machine(r, &rc, &units) < 0)
		return -1;
	if (units < 1) {
		fprintf(stderr, "sbucket: the trace does not say its machine's "
			"size (an SWF log's '; MaxProcs:' line): give "
			"--procs\n");
		return -1;
	}
	if (_input(r, units) < 0)
		goto oom;
	if (!r->in.n) {
		fprintf(stderr, "sbucket: no job to replay (%zu never ran, %zu "
			"without a size, %zu larger than %" PRId64 " units)\n",
			r->in.never_ran, r->in.no_size, r->in.too_large,
			units);
		return -1;
	}
	rc.units = units;
	r->units = units;
	r->unit_name = c->nodes_file ? "nodes" : "units";
	rc.users = (const char *const *) t->users;
	rc.nusers = t->nusers;
	rc.series = series;
	if (rc.prio == SB_REPLAY_MULTIFACTOR) {
		if (_tree(r) < 0)
			return -1;
		rc.tree = r->tree;
	}
	if (!(r->out = malloc(r->in.n * sizeof(*r->out))))
		goto oom;
	if (sb_replay_run(&rc, r->in.jobs, r->in.n, r->out,
			  series ? &r->series : NULL) < 0) {
		if (errno == ENOMEM)
			goto oom;
		fprintf(stderr, "sbucket: replay: %s\n", strerror(errno));
		return -1;
	}
	if (sb_replay_metrics(r->in.jobs, r->out, r->in.n, units,
			      c->drop_first, t->nusers, &r->m) < 0)
		goto oom;
	return 0;
oom:
	fprintf(stderr, "sbucket: out of memory\n");
	return -1;
}

/* The replayed schedule as an SWF log onto @f (@file in messages). */
static int _swf_out(const sbr_run_t *r, FILE *f, const char *file)
{
	const sbi_trace_t *t = r->t;
	int64_t *wait = NULL, *run = NULL;
	sbi_trace_t sub = *t;
	sbi_trace_job_t *jobs = NULL;
	size_t i;
	int rc = -1;

	if (!(wait = malloc((r->in.n + 1) * sizeof(*wait))) ||
	    !(run = malloc((r->in.n + 1) * sizeof(*run))) ||
	    !(jobs = malloc((r->in.n + 1) * sizeof(*jobs)))) {
		fprintf(stderr, "sbucket: out of memory\n");
		goto out;
	}
	for (i = 0; i < r->in.n; i++) {
		jobs[i] = t->jobs[r->in.from[i]];
		jobs[i].limit = r->in.jobs[i].limit;
		wait[i] = r->out[i].start - r->in.jobs[i].submit;
		run[i] = r->out[i].end - r->out[i].start;
	}
	sub.jobs = jobs;
	sub.njobs = r->in.n;
	if (sbi_swf_write(f, &sub, r->c->procs > 0 ? r->c->procs :
			  t->max_procs, wait, run) < 0) {
		fprintf(stderr, "sbucket: --swf-out '%s': %s\n", file,
			strerror(errno));
		goto out;
	}
	rc = 0;
out:
	free(wait);
	free(run);
	free(jobs);
	return rc;
}

/* ---- main ---------------------------------------------------------------- */

/* Open --chart's or --swf-out's @file for writing before anything is
 * replayed or printed: a file that cannot be written is one error
 * line, and nothing on standard output. */
static FILE *_open_out(const char *opt, const char *file)
{
	char shown[SB_SHOWN_BUF];
	FILE *f = fopen(file, "w");

	if (!f)
		fprintf(stderr, "sbucket: %s '%s': %s\n", opt,
			sb_shown(shown, sizeof(shown), file), strerror(errno));
	return f;
}

/* Close what _open_out() opened; 0, or -1 after one error line. */
static int _close_out(FILE *f, const char *opt, const char *file, int rc)
{
	char shown[SB_SHOWN_BUF];

	if (!f)
		return rc;
	if (fclose(f) && !rc) {
		fprintf(stderr, "sbucket: %s '%s': %s\n", opt,
			sb_shown(shown, sizeof(shown), file), strerror(errno));
		return -1;
	}
	return rc;
}

int sbucket_replay_main(int argc, char **argv)
{
	sbr_conf_t conf[2];
	sbr_run_t run[2];
	FILE *chart_f = NULL, *swf_f = NULL;
	_global_t g;
	sbi_trace_t t;
	int i, cmp = -1, rc, n;

	memset(&g, 0, sizeof(g));
	memset(run, 0, sizeof(run));
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--compare")) {
			cmp = i;
			break;
		}
	memset(&conf[0], 0, sizeof(conf[0]));
	sb_replay_conf_default(&conf[0].rc);
	if ((rc = _options(cmp < 0 ? argc : cmp, argv, &conf[0], &g, false)))
		return rc < 0 ? SBUCKET_EXIT_OK : rc;
	conf[1] = conf[0];
	if (cmp >= 0) {
		argv[cmp] = argv[0];
		if ((rc = _options(argc - cmp, argv + cmp, &conf[1], &g,
				   true)))
			return rc;
		if (cmp == argc - 1)
			return sbucket_usage_error(CMD, "--compare", NULL,
						   "needs the options of the "
						   "second configuration");
	}
	if (!g.trace)
		return sbucket_cmd_error(CMD, "no trace given");
	if (g.jobs && (cmp >= 0 || g.json))
		return sbucket_usage_error(CMD, "--jobs", NULL,
					   "goes with one configuration, "
					   "without --json (whose \"jobs\" "
					   "holds them)");
	if (g.swf_out && cmp >= 0)
		return sbucket_usage_error(CMD, "--swf-out", NULL,
					   "goes with one configuration");
	n = cmp >= 0 ? 2 : 1;
	for (i = 0; i < n; i++) {
		sb_replay_conf_t *c = &conf[i].rc;

		if (conf[i].nodes_file && conf[i].procs)
			return sbucket_usage_error(CMD, "--nodes", NULL,
						   "and --procs: one machine");
		if (!conf[i].nodes_file && (conf[i].policy ||
					    conf[i].priorityf ||
					    conf[i].cpus_per_node))
			return sbucket_usage_error(CMD, conf[i].policy ?
						   "--policy" :
						   conf[i].priorityf ?
						   "--priorityf" :
						   "--cpus-per-node", NULL,
						   "goes with --nodes");
		if (conf[i].nodes_file &&
		    c->sched == SB_REPLAY_CONSERVATIVE)
			return sbucket_usage_error(CMD, "--nodes", NULL,
						   "goes with --scheduler=easy "
						   "or slurm (conservative "
						   "runs on --procs)");
		if (c->select == SB_REPLAY_SELECT_LINEAR) {
			const char *why = !conf[i].nodes_file ?
					  "goes with --nodes" :
					  c->sched != SB_REPLAY_SLURM ?
					  "goes with --scheduler=slurm" :
					  conf[i].policy || conf[i].priorityf ||
					  conf[i].base_set ?
					  "does not take select/bucket's "
					  "--policy, --priorityf or --base" :
					  NULL;

			if (why)
				return sbucket_usage_error(CMD, "--select",
							   "linear", why);
		}
		if (conf[i].bf_clock_set && !conf[i].nodes_file)
			return sbucket_usage_error(CMD, "--bf-clock", NULL,
						   "goes with --nodes");
		if (conf[i].nodes_file &&
		    c->select != SB_REPLAY_SELECT_LINEAR) {
			sb_policy_t pol = { 0 };

			if (!conf[i].policy)
				conf[i].policy = DEF_POLICY;
			if (sbucket_policy_option(CMD, conf[i].policy,
						  conf[i].priorityf, &pol) < 0)
				return SBUCKET_EXIT_USAGE;
			/* select/bucket leaves a contiguous job's
			 * reservation (WILL_RUN) to the base, which the
			 * replay does not model */
			if (pol.kind == SB_POLICY_CONTIGUOUS)
				return sbucket_usage_error(CMD, "--policy",
							   conf[i].policy,
							   "cannot be replayed: "
							   "select/bucket leaves "
							   "a waiting contiguous "
							   "job's reservation to "
							   "the base plugin");
		}

		if (c->sjbf && c->sched != SB_REPLAY_EASY)
			return sbucket_usage_error(CMD, "--sjbf", NULL,
						   "goes with --scheduler=easy");
		if (c->prio_last_set && c->prio != SB_REPLAY_MULTIFACTOR)
			return sbucket_usage_error(CMD, "--prio-last", NULL,
						   "goes with "
						   "--priority=multifactor");
		if ((c->bf_last_set || c->sched_last_set) &&
		    c->sched != SB_REPLAY_SLURM)
			return sbucket_usage_error(CMD, c->bf_last_set ?
						   "--bf-last" :
						   "--main-last", NULL,
						   "goes with --scheduler=slurm");
		if (c->prio == SB_REPLAY_MULTIFACTOR &&
		    !g.weights_set[0] && !g.weights_set[i] &&
		    !c->weight_age && !c->weight_fs && !c->weight_js) {
			c->weight_age = DEF_WEIGHT_AGE;
			c->weight_fs = DEF_WEIGHT_FS;
		}
	}
	if (sbi_trace_init(&t) < 0)
		return SBUCKET_EXIT_INPUT;
	rc = SBUCKET_EXIT_INPUT;
	if ((g.chart && !(chart_f = _open_out("--chart", g.chart))) ||
	    (g.swf_out && !(swf_f = _open_out("--swf-out", g.swf_out))))
		goto out;
	if (sbi_trace_read(g.trace, g.format, g.skip_bad, &t) < 0)
		goto out;
	if (!t.njobs) {
		fprintf(stderr, "sbucket: %s: no job in the trace\n",
			g.trace);
		goto out;
	}
	for (i = 0; i < n; i++)
		if (_run(&run[i], &conf[i], &t, g.trace, g.chart != NULL) < 0)
			goto out;
	/* the files first: what is printed is printed once all went well */
	if (chart_f &&
	    _close_out(chart_f, "--chart", g.chart,
		       sbr_chart(&run[0], n == 2 ? &run[1] : NULL, chart_f,
				 g.chart)) < 0) {
		chart_f = NULL;
		goto out;
	}
	chart_f = NULL;
	if (swf_f && _close_out(swf_f, "--swf-out", g.swf_out,
				_swf_out(&run[0], swf_f, g.swf_out)) < 0) {
		swf_f = NULL;
		goto out;
	}
	swf_f = NULL;
	if (g.json) {
		if (n == 2)
			printf("[");
		for (i = 0; i < n; i++) {
			if (i)
				printf(",");
			sbr_print_json(&run[i]);
		}
		printf(n == 2 ? "]\n" : "\n");
	} else if (n == 2) {
		sbr_print_compare(&run[0], &run[1]);
	} else {
		sbr_print_summary(&run[0], g.users);
		if (g.jobs)
			sbr_print_jobs(&run[0]);
	}
	rc = SBUCKET_EXIT_OK;
out:
	if (chart_f)
		fclose(chart_f);
	if (swf_f)
		fclose(swf_f);
	for (i = 0; i < 2; i++)
		_run_fini(&run[i]);
	sbi_trace_fini(&t);
	return rc;
}
