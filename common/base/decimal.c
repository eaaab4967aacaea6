/*
 * decimal.c - the one reader of unsigned decimal integers (see decimal.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "decimal.h"

int sb_decimal_parse(const char *s, uint64_t max, uint64_t *v,
		     const char **end)
{
	const char *p = s;
	uint64_t x = 0;
	bool over = false;

	if (!s || !v || *s < '0' || *s > '9') {
		errno = EINVAL;
		return -1;
	}
	/* Read every digit even past max: "99999999999999999999x" is out
	 * of range, not text after a number. */
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned) (*p - '0');

		if (over || d > max || x > (max - d) / 10)
			over = true;
		else
			x = x * 10 + d;
	}
	if (!end && *p) {
		errno = EINVAL;
		return -1;
	}
	if (over) {
		errno = ERANGE;
		return -1;
	}
	*v = x;
	if (end)
		*end = p;
	return 0;
}

int sb_decimal_in(const char *s, uint64_t lo, uint64_t hi, uint64_t *v)
{
	uint64_t x;

	if (sb_decimal_parse(s, hi, &x, NULL))
		return -1;
	if (x < lo) {
		errno = ERANGE;
		return -1;
	}
	*v = x;
	return 0;
}
