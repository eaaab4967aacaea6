/*
 * decimal.h - the one reader of unsigned decimal integers in input text.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Counts, times in seconds, memory sizes and parameters are all written
 * as plain digits: no sign, no blank, no base prefix (strtoul() would take
 * " +0x1f" and "-1" as numbers). Every parser of common/, the plugins and
 * the CLI reads such numbers here, so they all accept the same text.
 *
 *   sb_decimal_parse   O(length of the digits)
 *   sb_decimal_in      O(length of s)   all of s, in [lo, hi]
 */
#ifndef SB_DECIMAL_H
#define SB_DECIMAL_H

#include <stdint.h>

/*
 * The digits '0'-'9' at the start of @s (at least one) as a number of at
 * most @max, into *v. With @end NULL the digits must be all of @s;
 * otherwise *end is set past them (text may follow). Returns 0, or -1
 * with errno EINVAL (s or v NULL, no digit first, text after the digits
 * with end NULL) or ERANGE (above max, however many digits). *v and *end
 * are left alone on failure.
 */
int sb_decimal_parse(const char *s, uint64_t max, uint64_t *v,
		     const char **end);

/*
 * All of @s as a number in [@lo, @hi], into *v: sb_decimal_parse() with
 * end NULL, and ERANGE below lo too. Same errors.
 */
int sb_decimal_in(const char *s, uint64_t lo, uint64_t hi, uint64_t *v);

#endif /* SB_DECIMAL_H */
