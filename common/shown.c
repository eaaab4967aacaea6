/*
 * shown.c - input text made fit to be echoed in a one-line message.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdint.h>

#include "shown.h"

/* isprint() of the C locale, whatever locale the program runs in. */
static int _printable(char ch)
{
	return ch >= ' ' && ch <= '~';
}

void sb_shown_put(char *dst, size_t cap, size_t *len, const char *s,
		  size_t n, size_t max)
{
	size_t i;

	if (!cap)
		return;
	for (i = 0; i < n && s[i] && *len + 1 < cap; i++) {
		if (i == max) {
			const char *dots = "...";

			while (*dots && *len + 1 < cap)
				dst[(*len)++] = *dots++;
			break;
		}
		dst[(*len)++] = _printable(s[i]) ? s[i] : '?';
	}
	dst[*len] = '\0';
}

const char *sb_shown(char *dst, size_t cap, const char *s)
{
	size_t len = 0;

	sb_shown_put(dst, cap, &len, s ? s : "(null)", SIZE_MAX, SB_SHOWN_MAX);
	return dst;
}
