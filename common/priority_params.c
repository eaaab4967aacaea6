/*
 * priority_params.c - PriorityParameters of the priority/bucket plugin.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fairshare_level.h"
#include "priority_params.h"
#include "shown.h"

/* A value as echoed in a message (shown.h), in the buffer @buf. */
#define SHOWN(buf, s) sb_shown(buf, sizeof(buf), s)

static const struct {
	const char *name;
	int algorithm;
} algorithms[] = {
	{ "level_based", SB_FS_LEVEL_BASED },
	{ "fair_tree", SB_FS_FAIR_TREE },
	{ "classic", SB_FS_CLASSIC },
};
#define NALGORITHMS (sizeof(algorithms) / sizeof(algorithms[0]))

void sb_priority_params_default(sb_priority_params_t *p)
{
	if (!p)
		return;
	p->algorithm = SB_PRIO_DEFAULT_ALGORITHM;
	p->levels = SB_PRIO_DEFAULT_LEVELS;
	p->calc_period = 0;
}

const char *sb_priority_params_algorithm_name(int algorithm)
{
	size_t i;

	for (i = 0; i < NALGORITHMS; i++)
		if (algorithms[i].algorithm == algorithm)
			return algorithms[i].name;
	errno = EINVAL;
	return NULL;
}

static int _fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	errno = EINVAL;
	return -1;
}

/* Decimal integer in [lo, hi], digits only. */
static int _parse_int(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

int sb_priority_params_parse(const char *str, sb_priority_params_t *out,
			     char *err, size_t errlen)
{
	sb_priority_params_t p;
	char *copy = NULL, *pair, *save = NULL, *val;
	char a[SB_SHOWN_BUF], b[SB_SHOWN_BUF];
	int seen_alg = 0, seen_levels = 0, seen_period = 0, rc = -1;
	size_t i;
	long n;

	if (err && errlen)
		err[0] = '\0';
	if (!out)
		return _fail(err, errlen, "no output for PriorityParameters");
	sb_priority_params_default(&p);
	if (!str || !*str) {
		*out = p;
		return 0;
	}
	/* Empty pairs (",,", leading or trailing ',') are mistakes too. */
	if (str[0] == ',' || str[strlen(str) - 1] == ',' ||
	    strstr(str, ",,"))
		return _fail(err, errlen, "empty key=value pair in "
			     "PriorityParameters '%s'", SHOWN(a, str));
	if (!(copy = strdup(str))) {
		errno = ENOMEM;
		return -1;
	}
	for (pair = strtok_r(copy, ",", &save); pair;
	     pair = strtok_r(NULL, ",", &save)) {
		if (!(val = strchr(pair, '='))) {
			_fail(err, errlen, "missing '=' after PriorityParameters "
			      "key '%s' (want key=value)", SHOWN(a, pair));
			goto fail;
		}
		*val++ = '\0';
		if (!strcasecmp(pair, "algorithm")) {
			if (seen_alg++) {
				_fail(err, errlen, "PriorityParameters key "
				      "'algorithm' given twice (second value "
				      "'%s')", SHOWN(a, val));
				goto fail;
			}
			for (i = 0; i < NALGORITHMS; i++)
				if (!strcasecmp(val, algorithms[i].name))
					break;
			if (i == NALGORITHMS) {
				_fail(err, errlen, "bad value '%s' for "
				      "PriorityParameters key 'algorithm' "
				      "(want level_based, fair_tree or "
				      "classic)", SHOWN(a, val));
				goto fail;
			}
			p.algorithm = algorithms[i].algorithm;
		} else if (!strcasecmp(pair, "levels")) {
			if (seen_levels++) {
				_fail(err, errlen, "PriorityParameters key "
				      "'levels' given twice (second value "
				      "'%s')", SHOWN(a, val));
				goto fail;
			}
			if (_parse_int(val, SB_FS_LEVELS_MIN, SB_FS_LEVELS_MAX,
				       &n) < 0) {
				_fail(err, errlen, "bad value '%s' for "
				      "PriorityParameters key 'levels' (want "
				      "an integer from %d to %d)",
				      SHOWN(a, val),
				      SB_FS_LEVELS_MIN, SB_FS_LEVELS_MAX);
				goto fail;
			}
			p.levels = (int) n;
		} else if (!strcasecmp(pair, "calc_period")) {
			if (seen_period++) {
				_fail(err, errlen, "PriorityParameters key "
				      "'calc_period' given twice (second value "
				      "'%s')", SHOWN(a, val));
				goto fail;
			}
			if (_parse_int(val, 1, SB_PRIO_CALC_PERIOD_MAX,
				       &n) < 0) {
				_fail(err, errlen, "bad value '%s' for "
				      "PriorityParameters key 'calc_period' "
				      "(want seconds from 1 to %d)",
				      SHOWN(a, val),
				      SB_PRIO_CALC_PERIOD_MAX);
				goto fail;
			}
			p.calc_period = (int) n;
		} else {
			_fail(err, errlen, "unknown key '%s' (value '%s') in "
			      "PriorityParameters (known: algorithm, levels, "
			      "calc_period)", SHOWN(a, pair), SHOWN(b, val));
			goto fail;
		}
	}
	*out = p;
	rc = 0;
fail:
	free(copy);
	if (rc)
		errno = EINVAL;
	return rc;
}

char *sb_priority_params_fmt(const sb_priority_params_t *p, char *buf,
			     size_t buflen)
{
	const char *name;
	int len;

	if (!p || !buf || !(name = sb_priority_params_algorithm_name(
				    p->algorithm))) {
		errno = EINVAL;
		return NULL;
	}
	if (p->calc_period)
		len = snprintf(buf, buflen, "algorithm=%s,levels=%d,"
			       "calc_period=%d", name, p->levels,
			       p->calc_period);
	else
		len = snprintf(buf, buflen, "algorithm=%s,levels=%d", name,
			       p->levels);
	if (len < 0 || (size_t) len >= buflen) {
		errno = ERANGE;
		return NULL;
	}
	return buf;
}
