/*
 * sbucket.h - subcommands of the sbucket admin tool.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Each subcommand lives in tools/verbs/sbucket_<name>.c and has the
 * signature of main(): argv[0] is the subcommand name. It returns 0 on
 * success, 1 when the input is bad (after printing one error naming file,
 * line and token to stderr), 2 on a usage error.
 */
#ifndef SBUCKET_H
#define SBUCKET_H

#include <getopt.h>
#include <stdio.h>
#include <sys/types.h>

#include "policy.h"

#define SBUCKET_EXIT_OK    0
#define SBUCKET_EXIT_INPUT 1
#define SBUCKET_EXIT_USAGE 2

typedef int sbucket_cmd_f(int argc, char **argv);

/* Subcommands, one per file. */
extern sbucket_cmd_f sbucket_place_main;
extern sbucket_cmd_f sbucket_fairshare_main;
extern sbucket_cmd_f sbucket_backfill_main;
extern sbucket_cmd_f sbucket_why_main;
extern sbucket_cmd_f sbucket_chart_main;
extern sbucket_cmd_f sbucket_forecast_main;
extern sbucket_cmd_f sbucket_replay_main;

/*
 * The next line of input file @path (line number @line, for the
 * message) into getline()'s *buf / *cap. Returns its length, -1 at the
 * end of the file or on a read error (ferror() tells), or -2 after
 * printing "sbucket: PATH:LINE: a NUL byte (not a text file?)": a NUL
 * would end the line early for every parser, silently.
 */
ssize_t sbucket_getline(FILE *f, char **buf, size_t *cap, const char *path,
			size_t line);

/* sbucket_getopt()'s answer after a usage error it printed. */
#define SBUCKET_OPT_ERROR (-2)

/*
 * Every subcommand reads its options with getopt_long() through these:
 * sbucket_getopt_start() before the first option (a subcommand may run
 * more than once in one process: the fuzz targets), then
 * sbucket_getopt() until it returns -1. Short options may be grouped,
 * long ones abbreviated and given as --opt=VALUE or --opt VALUE, options
 * and operands may come in any order, "--" ends the options; the
 * operands are argv[optind..argc) at the end. Returns an option's val,
 * -1 at the end, or SBUCKET_OPT_ERROR after one usage error on stderr
 * ("sbucket CMD: unknown option 'X'", "... option 'X' needs a value",
 * "... option '--X' takes no value", then the --help hint).
 */
void sbucket_getopt_start(void);
int sbucket_getopt(const char *cmd, int argc, char **argv,
		   const char *shortopts, const struct option *longopts);

/*
 * One usage error of subcommand @cmd on stderr: "sbucket: OPT 'ARG':
 * WHAT" (ARG through sb_shown(); without @arg "sbucket: OPT WHAT",
 * without @opt too "sbucket: WHAT"; nothing when @what is NULL: the
 * caller printed it), then "Try 'sbucket CMD --help'.". Returns
 * SBUCKET_EXIT_USAGE.
 */
int sbucket_usage_error(const char *cmd, const char *opt, const char *arg,
			const char *what);

/*
 * "sbucket CMD: WHAT" and "Try 'sbucket CMD --help'." on stderr (the
 * form of place, backfill and chart). Returns SBUCKET_EXIT_USAGE.
 */
int sbucket_cmd_error(const char *cmd, const char *what);

/*
 * A word @a of subcommand @cmd's command line that none of its options
 * took: an unknown option (it starts with '-' and is not "-" alone), or
 * the next of at most @max operands, stored in ops[(*nops)++]. Returns 0,
 * or SBUCKET_EXIT_USAGE after sbucket_cmd_error() with "unknown option
 * 'A'" or "too many arguments ('A')" (A as sb_shown() shows it).
 */
int sbucket_operand(const char *cmd, const char *a, const char **ops,
		    int *nops, int max);

/*
 * *@pol from --policy=@policy and --priorityf=@priorityf (NULL when not
 * given) of subcommand @cmd (sb_policy_init()). Returns 0, or -1 after
 * one error line: an unknown policy, a PRIORITYF that does not parse (its
 * column), or one given with the wrong policy.
 */
int sbucket_policy_option(const char *cmd, const char *policy,
			  const char *priorityf, sb_policy_t *pol);

#endif /* SBUCKET_H */
