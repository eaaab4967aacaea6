/*
 * sbucket_explain_fmt.h - times and JSON values as 'sbucket why' and
 * 'sbucket forecast' print them ('sbucket replay' prints its JSON strings
 * through sbx_jstr() too).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SBUCKET_EXPLAIN_FMT_H
#define SBUCKET_EXPLAIN_FMT_H

#include <stddef.h>
#include <stdint.h>

/* @t as "2026-11-23T11:08:18" (local time), "-" for t < 0, "never" for
 * SB_TIME_INFINITE. */
void sbx_time(int64_t t, char *buf, size_t len);

/* @t from @now: "in 4 min 54 s", "2 h 3 min ago", "now", "no end". */
void sbx_rel(int64_t t, int64_t now, char *buf, size_t len);

/* A JSON string to stdout, "null" for NULL. */
void sbx_jstr(const char *s);

/* A time as JSON: epoch seconds, null when < 0 or SB_TIME_INFINITE. */
void sbx_jtime(int64_t t);

#endif /* SBUCKET_EXPLAIN_FMT_H */
