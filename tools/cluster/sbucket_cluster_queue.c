/*
 * sbucket_cluster_queue.c - what Slurm says of the pending queue beside
 * the jobs' records (sbucket_cluster.h): sprio's weighted factors,
 * squeue --start's planned start, a job's Scheduler where the JSON did
 * not show it.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * None of these lines holds a user's text: sprio prints numbers and the
 * job id, squeue --start a time and a node list, and of scontrol's
 * record of one job only Scheduler= is taken, when it is there once.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbucket_cluster_priv.h"
#include "sbucket_cluster_run.h"

static int _sprio_line(void *arg, char *line, size_t len)
{
	sbc_cluster_t *c = arg;
	char *f[SBC_NFACTORS + 1], *p = line;
	sbc_job_t *j;
	int n = 0, k;

	(void) len;
	while (n <= SBC_NFACTORS) {
		while (*p == ' ')
			p++;
		f[n++] = p;
		if (!(p = strchr(p, '|')))
			break;
		*p++ = '\0';
	}
	if (n != SBC_NFACTORS + 1)
		return 0;	/* a heading, or not sprio's */
	for (k = 0; k <= SBC_NFACTORS; k++)
		f[k][strcspn(f[k], " ")] = '\0';
	/* a job pending in several partitions: its first line */
	if (!(j = sbc_job(c, f[0])) || j->have_factors)
		return 0;
	for (k = 0; k < SBC_NFACTORS; k++)
		j->factors[k] = strtoll(f[k + 1], NULL, 10);
	j->have_factors = true;
	return 0;
}

int sbc_sprio(sbc_cluster_t *c)
{
	return sbc_run(SBC_SPRIO, (const char *[]) { "-h", "-o",
		       "%i|%Y|%A|%F|%J|%P|%Q", NULL }, _sprio_line, c);
}

typedef struct {
	int64_t *start;
	char *nodes;
	size_t len;
	int lines;
} _start_t;

static int _start_line(void *arg, char *line, size_t len)
{
	_start_t *s = arg;
	char *bar = strchr(line, '|');

	(void) len;
	if (!bar || s->lines++)
		return 0;
	*bar++ = '\0';
	if (sb_slurm_time(line, s->start) < 0)
		*s->start = -1;
	if (strcmp(bar, "(null)") && strcmp(bar, "N/A"))
		snprintf(s->nodes, s->len, "%s", bar);
	return 0;
}

int sbc_squeue_start(const char *id, int64_t *start, char *nodes,
		     size_t len)
{
	_start_t s = { start, nodes, len, 0 };

	*start = -1;
	nodes[0] = '\0';
	return sbc_run(SBC_SQUEUE, (const char *[]) { "-h", "--start", "-j",
		       id, "-o", "%S|%Y", NULL }, _start_line, &s);
}

typedef struct {
	const char *id;
	int by_backfill;
	int seen;			/* lines that said it */
} _sched_t;

static int _sched_line(void *arg, char *line, size_t len)
{
	_sched_t *s = arg;
	sb_record_t *r;
	const char *v, *id;

	(void) len;
	if (!(r = sb_record_parse(line)))
		return 0;
	id = sb_record_get(r, "JobId");
	v = sb_record_get(r, "Scheduler");
	if (id && v && !strcmp(id, s->id) && !sb_record_repeated(r)) {
		s->by_backfill = !strncmp(v, "Backfill", 8);
		s->seen++;
	}
	sb_record_free(r);
	return 0;
}

void sbc_job_scheduler(sbc_job_t *j)
{
	char err[256];
	_sched_t s = { j->id, -1, 0 };

	if (j->by_backfill >= 0)
		return;
	if (sbc_run_quiet(SBC_SCONTROL, (const char *[]) { "show", "job",
			  "-o", j->id, NULL }, _sched_line, &s, err,
			  sizeof(err)) == 0 && s.seen == 1)
		j->by_backfill = s.by_backfill;
}
