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

#endif /* SBUCKET_H */
