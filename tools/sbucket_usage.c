/*
 * sbucket_usage.c - one usage error of a subcommand, the same shape for
 * all of them.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>

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
