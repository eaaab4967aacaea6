/*
 * sbucket.c - the slurm-buckets admin tool: dispatch to a subcommand.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "sb_config.h"
#include "sbucket.h"

static const struct {
	const char *name;
	sbucket_cmd_f *fn;
	const char *what;
} cmds[] = {
	{ "place", sbucket_place_main,
	  "place jobs on a node list offline (node buckets, policies)" },
	{ "backfill", sbucket_backfill_main,
	  "plan jobs by conservative backfill offline (WILL_RUN)" },
	{ "fairshare", sbucket_fairshare_main,
	  "compute and explain fair share for an association tree" },
	{ "why", sbucket_why_main,
	  "why a job of the running cluster waits or got its nodes" },
	{ "forecast", sbucket_forecast_main,
	  "when each pending job of the running cluster starts, and why" },
	{ "chart", sbucket_chart_main,
	  "draw jobs (sacct's or a backfill plan) as a node x time SVG" },
	{ "replay", sbucket_replay_main,
	  "replay a workload (SWF log) through the schedulers offline" },
};

static void _usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: sbucket COMMAND [OPTIONS] [FILE...]\n\n"
		   "Commands:\n");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-10s %s\n", cmds[i].name, cmds[i].what);
	fprintf(f, "\n'sbucket COMMAND --help' describes one command.\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		_usage(stderr);
		return SBUCKET_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		_usage(stdout);
		return SBUCKET_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("sbucket %s (built for Slurm %s)\n", PACKAGE_VERSION,
		       SB_SLURM_VERSION);
		return SBUCKET_EXIT_OK;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		int rc;

		if (strcmp(argv[1], cmds[i].name))
			continue;
		rc = cmds[i].fn(argc - 1, argv + 1);
		/* Output that could not be written (now, or line by line
		 * before) is a failure too. */
		if ((fflush(stdout) | ferror(stdout)) &&
		    rc == SBUCKET_EXIT_OK) {
			fprintf(stderr, "sbucket: cannot write the output\n");
			rc = SBUCKET_EXIT_INPUT;
		}
		return rc;
	}
	fprintf(stderr, "sbucket: unknown command '%s'\n", argv[1]);
	_usage(stderr);
	return SBUCKET_EXIT_USAGE;
}
