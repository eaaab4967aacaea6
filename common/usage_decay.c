/*
 * usage_decay.c - usage decay and usage reset periods, as pure functions.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stddef.h>

#include "civil_time.h"
#include "usage_decay.h"

#define DAY INT64_C(86400)
#define WEEK (7 * DAY)

double sb_decay_factor(int64_t half_life)
{
	if (half_life <= 0)
		return 1.0;
	return 1 - (0.693 / (double) half_life);
}

double sb_decay_over(double factor, int64_t elapsed)
{
	double d;

	if (elapsed <= 0)
		return 1.0;
	d = pow(factor, (double) elapsed);
	/* Slurm floors here so a long outage cannot zero all usage. */
	if (d < DBL_MIN)
		d = DBL_MIN;
	return d;
}

long double sb_decay_apply(long double usage, double factor, int64_t elapsed)
{
	return usage * sb_decay_over(factor, elapsed);
}

double sb_decay_new_usage(double factor, int64_t run_delta, double billable,
			  double usage_factor)
{
	double delta = run_delta > 0 ? (double) run_delta : 0.0;
	double u = delta * pow(factor, delta) * billable;

	if (usage_factor >= 0)
		u *= usage_factor;
	return u;
}

/* ASCII case-insensitive equality (no locale, no POSIX strcasecmp). */
static int _same_word(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a >= 'a' && *a <= 'z' ? (char) (*a - 32) : *a;
		char y = *b >= 'a' && *b <= 'z' ? (char) (*b - 32) : *b;

		if (x != y)
			return 0;
	}
	return *a == *b;
}

static const char *const _names[] = {
	"NONE", "NOW", "DAILY", "WEEKLY", "MONTHLY", "QUARTERLY", "YEARLY",
};

int sb_reset_parse(const char *word, sb_reset_period_t *out)
{
	size_t i;

	if (!word || !out) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < sizeof(_names) / sizeof(_names[0]); i++) {
		if (_same_word(word, _names[i])) {
			*out = (sb_reset_period_t) i;
			return 0;
		}
	}
	errno = EINVAL;
	return -1;
}

const char *sb_reset_name(sb_reset_period_t p)
{
	if ((int) p < 0 || (size_t) p >= sizeof(_names) / sizeof(_names[0])) {
		errno = EINVAL;
		return NULL;
	}
	return _names[p];
}

/* Step @t forward by whole @period while t + period < now (Slurm's loop,
 * in closed form). */
static int64_t _catch_up(int64_t t, int64_t period, int64_t now)
{
	if (t + period < now)
		t += ((now - t - 1) / period) * period;
	return t;
}

int64_t sb_reset_next(sb_reset_period_t p, int64_t last_reset, int64_t now,
		      int32_t utc_offset)
{
	int64_t day, midnight, y;
	int m;

	if ((int) p < 0 || p > SB_RESET_YEARLY ||
	    utc_offset > SB_DECAY_OFFSET_MAX ||
	    utc_offset < -SB_DECAY_OFFSET_MAX) {
		errno = EINVAL;
		return -1;
	}
	if (last_reset > SB_DECAY_TIME_MAX || last_reset < -SB_DECAY_TIME_MAX ||
	    now > SB_DECAY_TIME_MAX || now < -SB_DECAY_TIME_MAX) {
		errno = ERANGE;
		return -1;
	}
	if (p == SB_RESET_NONE)
		return INT64_MAX;
	if (p == SB_RESET_NOW)
		return now;

	day = sb_civil_fdiv(last_reset + utc_offset, DAY);
	midnight = day * DAY - utc_offset;
	switch (p) {
	case SB_RESET_DAILY:
		return _catch_up(midnight + DAY, DAY, now);
	case SB_RESET_WEEKLY: {
		/* 1970-01-01 was a Thursday; Sunday is weekday 0. */
		int wday = (int) (((day % 7) + 7 + 4) % 7);

		return _catch_up(midnight + DAY * (7 - wday), WEEK, now);
	}
	default:
		break;
	}
	sb_civil_from_days(day, &y, &m, NULL);
	switch (p) {
	case SB_RESET_MONTHLY:
		if (++m > 12) {
			m = 1;
			y++;
		}
		break;
	case SB_RESET_QUARTERLY:
		if (m < 4) {
			m = 4;
		} else if (m < 7) {
			m = 7;
		} else if (m < 10) {
			m = 10;
		} else {
			m = 1;
			y++;
		}
		break;
	default:	/* SB_RESET_YEARLY */
		m = 1;
		y++;
		break;
	}
	return sb_civil_days(y, m, 1) * DAY - utc_offset;
}
