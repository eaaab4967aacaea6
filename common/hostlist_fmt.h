/*
 * hostlist_fmt.h - Slurm hostlist expressions: "n[1-3,5],login1".
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Slurm's own hostlist_* functions live in libslurmfull, so these carry
 * the sb_ prefix. Brackets hold comma-separated numbers and ranges; a
 * number with a leading zero fixes the width ("n[001-010]"); several
 * bracket groups in one item multiply ("r[1-2]n[1-2]" is 4 names). A
 * number in brackets has at most SB_HOSTLIST_DIGITS digits, leading
 * zeros included: as many as sb_hostlist_fmt() puts in one, so whatever
 * it writes reads back.
 *
 * The whole expression is checked and its names counted before any is
 * made: a syntax error anywhere, or a count over SB_HOSTLIST_MAX, is
 * reported at once, whatever the brackets multiply to.
 *
 *   sb_hostlist_count    O(length)
 *   sb_hostlist_expand   O(length + output)
 *   sb_hostlist_cmp      O(length)
 *   sb_hostlist_fmt      O(total length)
 */
#ifndef SB_HOSTLIST_FMT_H
#define SB_HOSTLIST_FMT_H

#include <stddef.h>

/* At most this many names from one expression (a typo guard). */
#define SB_HOSTLIST_MAX 10000000

/* At most this many digits in a number in brackets. */
#define SB_HOSTLIST_DIGITS 18

/*
 * Check @s and count its names without making them: *n gets the count.
 * Returns 0, or -1 with errno EINVAL (a NULL argument, or a syntax
 * error: *errpos gets its offset and *errmsg a static message, when
 * not NULL) or E2BIG (more than SB_HOSTLIST_MAX names; *errpos 0,
 * *errmsg "too many names"). O(length), no allocation.
 */
int sb_hostlist_count(const char *s, size_t *n, size_t *errpos,
		      const char **errmsg);

/*
 * Expand @s into *names (an array of *n strings, free each and the
 * array; sb_hostlist_free() does both). Returns 0, or -1 with errno
 * EINVAL or E2BIG (as sb_hostlist_count(), nothing allocated) or ENOMEM
 * (*errpos 0, *errmsg "out of memory"). O(length + output).
 */
int sb_hostlist_expand(const char *s, char ***names, size_t *n,
		       size_t *errpos, const char **errmsg);

/* Free an array from sb_hostlist_expand(). */
void sb_hostlist_free(char **names, size_t n);

/*
 * Hostlist order, as Slurm sorts names: by the text before the trailing
 * number, then by that number ("n9" before "n10"; with equal values, the
 * shorter digit string first). A strcmp()-style result. O(length).
 */
int sb_hostlist_cmp(const char *a, const char *b);

/*
 * Compress @names (in the given order) into a hostlist: consecutive
 * names sharing a prefix and numeric suffixes in ascending order share
 * one bracket, e.g. n2861 n2862 n2863 n2864 -> "n[2861-2864]". "" for
 * n == 0. A string to free(), or NULL with errno ENOMEM.
 */
char *sb_hostlist_fmt(char *const *names, size_t n);

#endif /* SB_HOSTLIST_FMT_H */
