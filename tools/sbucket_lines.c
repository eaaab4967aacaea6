/*
 * sbucket_lines.c - the lines of sbucket's input files.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "sbucket.h"

ssize_t sbucket_getline(FILE *f, char **buf, size_t *cap, const char *path,
			size_t line)
{
	ssize_t len = getline(buf, cap, f);

	if (len < 0)
		return -1;
	/* The parsers stop at a NUL: what follows would be ignored. */
	if (memchr(*buf, '\0', (size_t) len)) {
		fprintf(stderr, "sbucket: %s:%zu: a NUL byte (not a text "
			"file?)\n", path, line);
		return -2;
	}
	return len;
}
