/*
 * sbucket_input.h - what sbucket's input readers share.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The readers of sbucket's input files: the nodes file
 * (sbucket_input_nodes.h: slurm.conf-style NodeName= and PartitionName=
 * lines) and the jobs file (sbucket_input_jobs.h: "JobId=ID" and sbatch
 * options), read by 'sbucket place', 'sbucket backfill' and 'sbucket
 * why'. Every reader prints one error naming the file, the line and the
 * token ("sbucket: jobs.txt:3: token '--mem=abc': not a memory size")
 * and returns -1; none exits. Their names start with sbi_.
 */
#ifndef SBUCKET_INPUT_H
#define SBUCKET_INPUT_H

#include <stddef.h>

/* Most tokens on one line. */
#define SBI_MAX_TOKENS 256

/*
 * "sbucket: PATH:LINE: token 'TOK': " then @fmt with @arg (one "%s"),
 * both as shown.h shows input.
 */
void sbi_err(const char *path, size_t line, const char *tok,
	     const char *fmt, const char *arg);

/* "sbucket: PATH:LINE: token 'TOK': MSG". */
void sbi_bad(const char *path, size_t line, const char *tok,
	     const char *msg);

/* "sbucket: PATH:LINE: out of memory"; returns -1. */
int sbi_oom(const char *path, size_t line);

/*
 * Cut @line (modified) into blank-separated tokens, dropping a '#'
 * comment: up to @max into @tok; *too_many set when there were more.
 * Returns how many.
 */
size_t sbi_tokens(char *line, char **tok, size_t max, int *too_many);

#endif /* SBUCKET_INPUT_H */
