/*
 * sbucket_explain_fmt.c - times and JSON as the explanations print them
 * (see sbucket_explain_fmt.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include "sb_time.h"
#include "sbucket_explain_fmt.h"

void sbx_time(int64_t t, char *buf, size_t len)
{
	time_t tt = (time_t) t;
	struct tm tm;

	if (t < 0) {
		snprintf(buf, len, "-");
		return;
	}
	if (t == SB_TIME_INFINITE) {
		snprintf(buf, len, "never");
		return;
	}
	localtime_r(&tt, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
}

/* "in 4 min 54 s", "2 h 3 min ago", "now" */
void sbx_rel(int64_t t, int64_t now, char *buf, size_t len)
{
	int64_t d = t >= now ? t - now : now - t;
	char v[48];

	if (t == SB_TIME_INFINITE) {
		snprintf(buf, len, "no end");
		return;
	}
	if (!d) {
		snprintf(buf, len, "now");
		return;
	}
	if (d < 60)
		snprintf(v, sizeof(v), "%" PRId64 " s", d);
	else if (d < 3600)
		snprintf(v, sizeof(v), "%" PRId64 " min %" PRId64 " s",
			 d / 60, d % 60);
	else if (d < 86400)
		snprintf(v, sizeof(v), "%" PRId64 " h %" PRId64 " min",
			 d / 3600, d % 3600 / 60);
	else
		snprintf(v, sizeof(v), "%" PRId64 " days %" PRId64 " h",
			 d / 86400, d % 86400 / 3600);
	snprintf(buf, len, t >= now ? "in %s" : "%s ago", v);
}

void sbx_jstr(const char *s)
{
	if (!s) {
		fputs("null", stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char) *s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

void sbx_jtime(int64_t t)
{
	if (t < 0 || t == SB_TIME_INFINITE)
		fputs("null", stdout);
	else
		printf("%" PRId64, t);
}
