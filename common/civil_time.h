/*
 * civil_time.h - calendar dates and "YYYY-MM-DDTHH:MM:SS" times as
 * seconds, without the C library's time zone state.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Dates are proleptic Gregorian; day 0 is 1970-01-01. A civil time is
 * read as if it were UTC: two times read from one source (sacct prints
 * the cluster's local time) differ by the right number of seconds except
 * across a daylight-saving change, and the result never depends on TZ,
 * the locale or the machine (mktime() depends on all three).
 *
 * Operations, all O(1) and pure:
 *   sb_civil_days        days since 1970-01-01 of a date
 *   sb_civil_from_days   the date of a day number
 *   sb_civil_parse       "YYYY-MM-DDTHH:MM:SS" -> seconds since 1970
 *   sb_civil_fdiv        floor division (for times before 1970)
 */
#ifndef SB_CIVIL_TIME_H
#define SB_CIVIL_TIME_H

#include <stdint.h>

/* The range sb_civil_days() and sb_civil_from_days() are exact over:
 * |year| <= SB_CIVIL_YEAR_MAX (|days| <= 366 * SB_CIVIL_YEAR_MAX); every
 * intermediate fits easily in 64 bits. Beyond it the results are not
 * meaningful (the callers' inputs are far inside it). */
#define SB_CIVIL_YEAR_MAX 1000000000

/*
 * Floor of @a / @b for @b > 0 (C's '/' truncates towards zero, which is
 * one day off for times before 1970). O(1).
 */
int64_t sb_civil_fdiv(int64_t a, int64_t b);

/*
 * Days since 1970-01-01 of @year-@month-@day (month 1..12, day 1..31;
 * the day is not checked against the month's length: 1970-01-32 is
 * 1970-02-01). Negative before 1970. O(1).
 */
int64_t sb_civil_days(int64_t year, int month, int day);

/*
 * The date of day number @days (as from sb_civil_days()): *year, *month
 * (1..12) and *day (1..31); any of them may be NULL. O(1).
 */
void sb_civil_from_days(int64_t days, int64_t *year, int *month, int *day);

/*
 * Read @s, exactly "YYYY-MM-DDTHH:MM:SS" (four-digit year 0000..9999,
 * two digits for each other field, nothing before or after), as seconds
 * since 1970-01-01T00:00:00 of the same clock (read as UTC) into *t.
 * Returns 0, or -1 with errno EINVAL (NULL, another shape, a month
 * outside 1..12, a day past the month's end, an hour above 23, a minute
 * or second above 59); *t is left alone on failure. O(1).
 */
int sb_civil_parse(const char *s, int64_t *t);

#endif /* SB_CIVIL_TIME_H */
