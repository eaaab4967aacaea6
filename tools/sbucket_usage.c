/*
 * sbucket_usage.c - what the subcommands share about their options: one
 * usage error, the same shape for all of them; --policy and --priorityf.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
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
