/*
 * sbucket_input.c - what sbucket's input readers share: error lines
 * naming file, line and token, and cutting a line into tokens (see
 * sbucket_input.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "sbucket_input.h"
#include "shown.h"

/* One error line; the token and @arg as shown.h shows input. */
void sbi_err(const char *path, size_t line, const char *tok,
		 const char *fmt, const char *arg)
{
	char t[SB_SHOWN_BUF], a[SB_SHOWN_BUF];

	fprintf(stderr, "sbucket: %s:%zu: token '%s': ", path, line,
		sb_shown(t, sizeof(t), tok));
	fprintf(stderr, fmt, sb_shown(a, sizeof(a), arg));
	fputc('\n', stderr);
}

/* The common case: a fixed message. */
void sbi_bad(const char *path, size_t line, const char *tok,
		 const char *msg)
{
	char t[SB_SHOWN_BUF];

	fprintf(stderr, "sbucket: %s:%zu: token '%s': %s\n", path, line,
		sb_shown(t, sizeof(t), tok), msg);
}

/* Cut a line into blank-separated tokens, dropping a '#' comment. */
size_t sbi_tokens(char *line, char **tok, size_t max, int *too_many)
{
	size_t n = 0;
	char *p = line, *hash = strchr(line, '#');

	if (hash)
		*hash = '\0';
	*too_many = 0;
	for (;;) {
		while (*p && isspace((unsigned char) *p))
			*p++ = '\0';
		if (!*p)
			return n;
		if (n == max) {
			*too_many = 1;
			return n;
		}
		tok[n++] = p;
		while (*p && !isspace((unsigned char) *p))
			p++;
	}
}

int sbi_oom(const char *path, size_t line)
{
	fprintf(stderr, "sbucket: %s:%zu: out of memory\n", path, line);
	return -1;
}
