/*
 * sbucket_usage.c - what the subcommands share about their options:
 * getopt_long() with one shape of usage error for all of them;
 * --policy and --priorityf.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "sbucket.h"
#include "shown.h"

int sbucket_usage_error(const char *cmd, const char *opt, const char *arg,
			const char *what)
{
	char shown[SB_SHOWN_BUF];

	if (!what)
		;
	else if (arg)
		fprintf(stderr, "sbucket: %s '%s': %s\n", opt,
			sb_shown(shown, sizeof(shown), arg), what);
	else if (opt)
		fprintf(stderr, "sbucket: %s %s\n", opt, what);
	else
		fprintf(stderr, "sbucket: %s\n", what);
	fprintf(stderr, "Try 'sbucket %s --help'.\n", cmd);
	return SBUCKET_EXIT_USAGE;
}

int sbucket_policy_option(const char *cmd, const char *policy,
			  const char *priorityf, sb_policy_t *pol)
{
	char shown[SB_SHOWN_BUF];
	const char *msg = NULL;
	size_t errpos = 0;

	if (!sb_policy_init(pol, policy, priorityf, &errpos, &msg))
		return 0;
	if (errno == ENOENT)
		fprintf(stderr, "sbucket %s: unknown policy '%s'\n", cmd,
			sb_shown(shown, sizeof(shown), policy));
	else if (priorityf && msg && strstr(msg, "PRIORITYF") == NULL)
		fprintf(stderr, "sbucket %s: --priorityf: column %zu: %s: "
			"'%s'\n", cmd, errpos + 1, msg,
			sb_shown(shown, sizeof(shown), priorityf + errpos));
	else
		fprintf(stderr, "sbucket %s: %s\n", cmd, msg ? msg :
			"bad policy");
	return -1;
}

int sbucket_cmd_error(const char *cmd, const char *what)
{
	fprintf(stderr, "sbucket %s: %s\nTry 'sbucket %s --help'.\n", cmd,
		what, cmd);
	return SBUCKET_EXIT_USAGE;
}

int sbucket_operand(const char *cmd, const char *a, const char **ops,
		    int *nops, int max)
{
	char shown[SB_SHOWN_BUF], what[SB_SHOWN_BUF + 32];

	sb_shown(shown, sizeof(shown), a);
	if (a[0] == '-' && a[1]) {
		snprintf(what, sizeof(what), "unknown option '%s'", shown);
	} else if (*nops < max) {
		ops[(*nops)++] = a;
		return 0;
	} else {
		snprintf(what, sizeof(what), "too many arguments ('%s')",
			 shown);
	}
	return sbucket_cmd_error(cmd, what);
}

void sbucket_getopt_start(void)
{
	optind = 0;		/* glibc: start over, whatever came before */
	opterr = 0;		/* the errors are said below */
}

int sbucket_getopt(const char *cmd, int argc, char **argv,
		   const char *shortopts, const struct option *longopts)
{
	char shortbuf[128], shown[SB_SHOWN_BUF], what[SB_SHOWN_BUF + 48];
	const char *bad;
	int c;

	/* ':' first: a missing value is told apart from an unknown option */
	snprintf(shortbuf, sizeof(shortbuf), ":%s", shortopts);
	c = getopt_long(argc, argv, shortbuf, longopts, NULL);
	if (c != '?' && c != ':')
		return c;
	bad = argv[optind - 1] ? argv[optind - 1] : "?";
	if (c == ':' && strncmp(bad, "--", 2))
		snprintf(what, sizeof(what), "option '-%c' needs a value",
			 optopt);
	else if (c == ':')
		snprintf(what, sizeof(what), "option '%s' needs a value",
			 sb_shown(shown, sizeof(shown), bad));
	else if (optopt && !strncmp(bad, "--", 2)) {
		/* the name alone: cut at '=' before it is shown */
		char name[SB_SHOWN_BUF];

		snprintf(name, sizeof(name), "%.*s", (int) strcspn(bad, "="),
			 bad);
		snprintf(what, sizeof(what), "option '%s' takes no value",
			 sb_shown(shown, sizeof(shown), name));
	} else if (optopt) {
		/* a byte of an argument: shown escaped, as any other input */
		char opt[3] = { '-', (char) optopt, '\0' };

		snprintf(what, sizeof(what), "unknown option '%s'",
			 sb_shown(shown, sizeof(shown), opt));
	} else
		snprintf(what, sizeof(what), "unknown option '%s'",
			 sb_shown(shown, sizeof(shown), bad));
	sbucket_cmd_error(cmd, what);
	return SBUCKET_OPT_ERROR;
}
