/*
 * shown.h - input text made fit to be echoed in a one-line message.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Error messages name the value that is wrong ("bad value 'X' for ..."),
 * and they end up in slurmctld's log, on sbatch's terminal and on
 * sbucket's stderr. A newline in an echoed value would split the message
 * in two, an escape byte would reach the terminal, and a megabyte-long
 * value would flood the log. So every parser of common/ and every caller
 * that echoes input passes it through here first: each byte that is not
 * printable ASCII (isprint() in the C locale; a tab or a UTF-8 byte
 * too) becomes '?', and a value longer than the limit is cut, ending in
 * "...".
 *
 *   sb_shown_put   O(min(n, max))   append to a buffer
 *   sb_shown       O(min(len, SB_SHOWN_MAX))
 */
#ifndef SB_SHOWN_H
#define SB_SHOWN_H

#include <stddef.h>

/* How many bytes of a value sb_shown() keeps. */
#define SB_SHOWN_MAX 160

/* A buffer that holds any sb_shown() result: the value, "...", NUL. */
#define SB_SHOWN_BUF (SB_SHOWN_MAX + 4)

/*
 * Append the first @n bytes of @s (fewer if a NUL comes first) to
 * dst[*len..@cap), as described above: at most @max of them, then "..."
 * if @s goes on. Stops early when @dst is full; @dst stays NUL-terminated
 * (nothing happens when @cap is 0) and *len is its new length. O(min(n,
 * max)).
 */
void sb_shown_put(char *dst, size_t cap, size_t *len, const char *s,
		  size_t n, size_t max);

/*
 * @s as shown in messages, in @dst (SB_SHOWN_BUF bytes hold any value;
 * a smaller @cap cuts it further). Returns @dst; "(null)" for a NULL @s.
 * O(min(strlen(s), SB_SHOWN_MAX)).
 */
const char *sb_shown(char *dst, size_t cap, const char *s);

#endif /* SB_SHOWN_H */
