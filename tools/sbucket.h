/*
 * sbucket.h - subcommands of the sbucket admin tool.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Each subcommand lives in tools/sbucket_<name>.c and has the signature of
 * main(): argv[0] is the subcommand name. It returns 0 on success, 1 when
 * the input is bad (after printing one error naming file, line and token
 * to stderr), 2 on a usage error.
 */
#ifndef SBUCKET_H
#define SBUCKET_H

#include <stdio.h>
#include <sys/types.h>

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

/*
 * The next line of input file @path (line number @line, for the
 * message) into getline()'s *buf / *cap. Returns its length, -1 at the
 * end of the file or on a read error (ferror() tells), or -2 after
 * printing "sbucket: PATH:LINE: a NUL byte (not a text file?)": a NUL
 * would end the line early for every parser, silently.
 */
ssize_t sbucket_getline(FILE *f, char **buf, size_t *cap, const char *path,
			size_t line);

#endif /* SBUCKET_H */
