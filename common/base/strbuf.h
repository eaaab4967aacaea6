/*
 * strbuf.h - a growing string for the text forms of common/ objects.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The *_fmt() functions of common/ build their canonical strings piece
 * by piece. An allocation failure is remembered instead of reported at
 * every append, so a formatter appends unconditionally and checks once,
 * in sb_strbuf_finish():
 *
 *	sb_strbuf_t b = SB_STRBUF_INIT;
 *
 *	sb_strbuf_add(&b, "0-63");
 *	sb_strbuf_addf(&b, ",%d", 79);
 *	return sb_strbuf_finish(&b);	(NULL with ENOMEM if any append failed)
 *
 *   sb_strbuf_add / addn / addf   amortised O(length of the piece)
 *   sb_strbuf_finish              O(1)
 *
 * The type is public so a buffer can live on the stack; treat its fields
 * as private. Not thread-safe.
 */
#ifndef SB_STRBUF_H
#define SB_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
	char *s;	/* NUL-terminated once anything was appended */
	size_t len;	/* bytes in s, without the NUL */
	size_t cap;	/* bytes allocated */
	bool failed;	/* an append could not allocate: s is freed */
} sb_strbuf_t;

#define SB_STRBUF_INIT { NULL, 0, 0, false }

/* Append the NUL-terminated @piece. */
void sb_strbuf_add(sb_strbuf_t *b, const char *piece);

/* Append the @n bytes at @piece (which need not be NUL-terminated). */
void sb_strbuf_addn(sb_strbuf_t *b, const char *piece, size_t n);

/* Append printf(@fmt, ...). */
void sb_strbuf_addf(sb_strbuf_t *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The built string, to free() ("" when nothing was appended); the buffer
 * is reset to empty. NULL with errno ENOMEM when an append failed (the
 * partial string is already freed).
 */
char *sb_strbuf_finish(sb_strbuf_t *b);

#endif /* SB_STRBUF_H */
