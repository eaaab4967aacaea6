/*
 * strbuf.c - a growing string for the text forms of common/ objects.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

/* Make room for @n more bytes and the NUL; false once allocation failed. */
static bool _reserve(sb_strbuf_t *b, size_t n)
{
	size_t cap;
	char *s;

	if (b->failed)
		return false;
	if (b->len + n + 1 <= b->cap)
		return true;
	cap = b->cap ? b->cap : 64;
	while (cap < b->len + n + 1)
		cap *= 2;
	if (!(s = realloc(b->s, cap))) {
		free(b->s);
		b->s = NULL;
		b->len = b->cap = 0;
		b->failed = true;
		return false;
	}
	b->s = s;
	b->cap = cap;
	return true;
}

void sb_strbuf_addn(sb_strbuf_t *b, const char *piece, size_t n)
{
	if (!_reserve(b, n))
		return;
	memcpy(b->s + b->len, piece, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void sb_strbuf_add(sb_strbuf_t *b, const char *piece)
{
	sb_strbuf_addn(b, piece, strlen(piece));
}

void sb_strbuf_addf(sb_strbuf_t *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		/* Only an invalid format gets here: treat it as a failure. */
		free(b->s);
		b->s = NULL;
		b->len = b->cap = 0;
		b->failed = true;
		return;
	}
	if (!_reserve(b, (size_t) n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t) n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t) n;
}

char *sb_strbuf_finish(sb_strbuf_t *b)
{
	char *s;

	if (b->failed) {
		*b = (sb_strbuf_t) SB_STRBUF_INIT;
		errno = ENOMEM;
		return NULL;
	}
	/* Nothing appended: still a string the caller can free(). */
	if (!(s = b->s) && (s = malloc(1)))
		*s = '\0';
	*b = (sb_strbuf_t) SB_STRBUF_INIT;
	if (!s)
		errno = ENOMEM;
	return s;
}
