/*
 * civil_time.c - calendar dates and "YYYY-MM-DDTHH:MM:SS" times as
 * seconds, without the C library's time zone state.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The day arithmetic counts in 400-year eras (146097 days, the Gregorian
 * cycle) with years starting on March 1st, so that the leap day is the
 * last day of its year and the month lengths from March on follow one
 * linear formula.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "civil_time.h"

#define DAY INT64_C(86400)

int64_t sb_civil_fdiv(int64_t a, int64_t b)
{
	return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

int64_t sb_civil_days(int64_t year, int month, int day)
{
	int64_t era, yoe, doy, doe;

	year -= month <= 2;
	era = sb_civil_fdiv(year, 400);
	yoe = year - era * 400;
	doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

void sb_civil_from_days(int64_t days, int64_t *year, int *month, int *day)
{
	int64_t era, doe, yoe, doy, mp;
	int m;

	days += 719468;
	era = sb_civil_fdiv(days, 146097);
	doe = days - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	m = (int) (mp < 10 ? mp + 3 : mp - 9);
	if (year)
		*year = yoe + era * 400 + (m <= 2);
	if (month)
		*month = m;
	if (day)
		*day = (int) (doy - (153 * mp + 2) / 5 + 1);
}

/* @n digits at @s as a number, or -1 if any of them is not a digit. */
static int _digits(const char *s, int n)
{
	int v = 0, i;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

static int _month_days(int year, int month)
{
	static const int len[12] = { 31, 28, 31, 30, 31, 30,
				     31, 31, 30, 31, 30, 31 };
	int leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;

	return len[month - 1] + (month == 2 && leap);
}

int sb_civil_parse(const char *s, int64_t *t)
{
	int y, mo, d, h, mi, se;

	if (!s || !t || strlen(s) != 19)
		goto bad;
	/* "YYYY-MM-DDTHH:MM:SS": separators at fixed places, then the end. */
	if (s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' ||
	    s[16] != ':')
		goto bad;
	y = _digits(s, 4);
	mo = _digits(s + 5, 2);
	d = _digits(s + 8, 2);
	h = _digits(s + 11, 2);
	mi = _digits(s + 14, 2);
	se = _digits(s + 17, 2);
	if (y < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 ||
	    mi < 0 || mi > 59 || se < 0 || se > 59 || s[19] != '\0' ||
	    d > _month_days(y, mo))
		goto bad;
	*t = sb_civil_days(y, mo, d) * DAY + h * 3600 + mi * 60 + se;
	return 0;
bad:
	errno = EINVAL;
	return -1;
}
