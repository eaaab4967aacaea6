/*
 * sbucket_why_limits_print.c - the limits part of 'sbucket why', as text
 * and as JSON (sbucket_why_limits.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sb_time.h"
#include "sbucket_why_fmt.h"
#include "sbucket_why_limits_priv.h"

/* Holders and jobs ahead shown per limit in the text. */
#define SHOW 5

/* The limits shown: those the job needs units of. */
static bool _shown(const sbwl_lim_t *l)
{
	return l->need > 0;
}

static int _by_end(const void *pa, const void *pb)
{
	const sbwl_use_t *a = *(const sbwl_use_t *const *) pa;
	const sbwl_use_t *b = *(const sbwl_use_t *const *) pb;
	int64_t ea = a->ahead ? a->start : a->end;
	int64_t eb = b->ahead ? b->start : b->end;

	if (a->ahead != b->ahead)
		return a->ahead ? 1 : -1;
	return ea < eb ? -1 : ea > eb;
}

/* The uses of limit @k (holders by end, then jobs ahead by start). */
static size_t _uses(const sbw_limits_t *ls, size_t k, const sbwl_use_t **v)
{
	size_t i, n = 0;

	for (i = 0; i < ls->nuse; i++)
		if (ls->use[i].lim == k)
			v[n++] = &ls->use[i];
	qsort(v, n, sizeof(*v), _by_end);
	return n;
}

void sbw_limits_print_text(const sbw_limits_t *ls)
{
	const int64_t now = ls->lv->now;
	const sbwl_use_t **v = calloc(ls->nuse + 1, sizeof(*v));
	char t1[32], t2[48];
	size_t k, i, n;

	printf("Limits it needs (the earliest start each allows):\n");
	if (!ls->nlim)
		printf("  none that slurmctld shows\n");
	for (k = 0; k < ls->nlim; k++) {
		const sbwl_lim_t *l = &ls->lim[k];
		size_t nh = 0, na = 0, th, ta;

		if (!_shown(l))
			continue;
		printf("  %s%s: limit %" PRId64 ", in use %" PRId64 ", the "
		       "job needs %" PRId64, l->what,
		       ls->reason && !strcmp(ls->reason, l->reason) ?
		       " (the Reason)" : "", l->limit, l->shown_use, l->need);
		if (l->allows >= 0) {
			sbw_fmt_time(l->allows, t1, sizeof(t1));
			sbw_fmt_rel(l->allows, now, t2, sizeof(t2));
			printf("; allows %s (%s)\n", t1, t2);
		} else {
			printf("; allows no start\n");
		}
		n = v ? _uses(ls, k, v) : 0;
		for (i = 0, th = ta = 0; i < n; i++) {
			th += !v[i]->ahead;
			ta += v[i]->ahead && v[i]->start >= 0;
		}
		for (i = 0; i < n; i++) {
			const sbwl_use_t *u = v[i];
			size_t *c = u->ahead ? &na : &nh;

			if (u->ahead && u->start < 0)
				continue;
			if ((*c)++ >= SHOW)
				continue;
			if (u->ahead) {
				sbw_fmt_time(u->start, t1, sizeof(t1));
				printf("    planned before it: job %-8s "
				       "(user %s, priority %" PRIu32 ") %"
				       PRId64 " from %s\n", u->job->id,
				       u->job->user, u->job->priority,
				       u->units, t1);
			} else if (u->end == SB_TIME_INFINITE) {
				printf("    held by job %-8s (user %s) %"
				       PRId64 ", no time limit\n", u->job->id,
				       u->job->user, u->units);
			} else {
				sbw_fmt_time(u->end, t1, sizeof(t1));
				sbw_fmt_rel(u->end, now, t2, sizeof(t2));
				printf("    held by job %-8s (user %s) %"
				       PRId64 " until %s (%s)\n", u->job->id,
				       u->job->user, u->units, t1, t2);
			}
			if (*c == SHOW && (u->ahead ? ta : th) > SHOW)
				printf("    ... and %zu more %s (--json lists "
				       "them all)\n", (u->ahead ? ta : th) - SHOW,
				       u->ahead ? "planned before it" :
				       "holders, ending later");
		}
		if (l->shown_use > l->held)
			printf("    %" PRId64 " more in use by jobs not "
			       "running (completing): about to be free\n",
			       l->shown_use - l->held);
	}
	free(v);
	if (ls->start >= 0) {
		sbw_fmt_time(ls->start, t1, sizeof(t1));
		sbw_fmt_rel(ls->start, now, t2, sizeof(t2));
		printf("Its limits allow it from %s (%s)\n", t1, t2);
	} else {
		printf("Its limits allow no start that can be known: %s\n",
		       ls->why);
	}
}

void sbw_limits_print_json(const sbw_limits_t *ls)
{
	const sbwl_use_t **v = calloc(ls->nuse + 1, sizeof(*v));
	size_t k, i, n, out = 0;

	putchar('[');
	for (k = 0; k < ls->nlim; k++) {
		const sbwl_lim_t *l = &ls->lim[k];
		size_t nh = 0, na = 0;

		if (!_shown(l))
			continue;
		printf("%s{\"reason\":", out++ ? "," : "");
		sbw_jstr(l->reason);
		printf(",\"name\":");
		sbw_jstr(l->what);
		printf(",\"scope\":");
		sbw_jstr(l->scope);
		printf(",\"%s\":", !strcmp(l->scope, "license") ? "license" :
		       !strncmp(l->scope, "qos", 3) ? "qos" : "account");
		sbw_jstr(l->owner);
		if (l->who) {
			printf(",\"%s\":", !strcmp(l->scope, "qos-account") ?
			       "account_of" : "user");
			sbw_jstr(l->who);
		}
		printf(",\"tres\":");
		sbw_jstr(l->tres);
		printf(",\"limit\":%" PRId64 ",\"in_use\":%" PRId64
		       ",\"needed\":%" PRId64 ",\"allows\":", l->limit,
		       l->shown_use, l->need);
		sbw_jtime(l->allows);
		n = v ? _uses(ls, k, v) : 0;
		printf(",\"holders\":[");
		for (i = 0; i < n; i++) {
			if (v[i]->ahead)
				continue;
			printf("%s{\"job\":", nh++ ? "," : "");
			sbw_jstr(v[i]->job->id);
			printf(",\"user\":");
			sbw_jstr(v[i]->job->user);
			printf(",\"units\":%" PRId64 ",\"end\":",
			       v[i]->units);
			sbw_jtime(v[i]->end);
			putchar('}');
		}
		printf("],\"ahead\":[");
		for (i = 0; i < n; i++) {
			if (!v[i]->ahead)
				continue;
			printf("%s{\"job\":", na++ ? "," : "");
			sbw_jstr(v[i]->job->id);
			printf(",\"priority\":%" PRIu32 ",\"units\":%" PRId64
			       ",\"planned_start\":", v[i]->job->priority,
			       v[i]->units);
			sbw_jtime(v[i]->start);
			putchar('}');
		}
		printf("]}");
	}
	putchar(']');
	free(v);
}
