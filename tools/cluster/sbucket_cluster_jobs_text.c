/*
 * sbucket_cluster_jobs_text.c - the jobs from 'scontrol show jobs -o',
 * where the commands print no JSON (sbucket_cluster.h says what is
 * trusted and why).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * scontrol writes a job's record on one line, its fields "Key=Value"
 * joined by blanks, the user's text (JobName right after JobId; Command,
 * WorkDir, Comment, StdErr, StdIn, StdOut and others after the fields a
 * scheduler reads) printed as it is. So:
 *   - a line that does not start with "JobId=" and a digit goes on the
 *     record before it (a newline in the user's text);
 *   - a record is read only when every key is there once, the keys this
 *     reader needs are all there, and the optional keys it reads stand
 *     where scontrol prints them (ArrayJobId and ArrayTaskId before
 *     JobName, Reservation between Features and OverSubscribe,
 *     TresPerNode after OverSubscribe), so that text a user wrote
 *     cannot stand in for a field of the record;
 *   - a record whose JobId another record has too, or that 'squeue -h -t
 *     all -o %A' does not list, is a line a user's newline made, or the
 *     job it copies: none of them is read.
 * A record not read is skipped with a note (sbc__skip()).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "sb_time.h"
#include "sbucket_cluster_priv.h"
#include "sbucket_cluster_run.h"
#include "strbuf.h"
#include "strmap.h"

/* The keys every job record of every series has. "A|B": either. */
static const char *const _keys[] = {
	"JobId", "JobName", "UserId", "Account", "QOS", "Priority",
	"JobState", "Reason", "Dependency", "Reboot", "TimeLimit",
	"EligibleTime", "StartTime", "EndTime", "Scheduler", "Partition",
	"ReqNodeList", "ExcNodeList", "NodeList", "NumNodes", "NumCPUs",
	"NumTasks", "CPUs/Task", "NtasksPerN:B:S:C", "MinCPUsNode",
	"MinMemoryNode|MinMemoryCPU", "MinTmpDiskNode", "Features",
	"OverSubscribe", "Contiguous", "Licenses", "TRES|ReqTRES", NULL
};

typedef struct {
	sb_record_t **v;
	size_t n, cap;
	sb_strbuf_t cur;		/* the record being joined */
	bool have;			/* cur holds one */
	sb_record_cache_t keys;
} _read_t;

/* Does @line start a record ("JobId=" and a digit)? */
static bool _starts(const char *line)
{
	return !strncmp(line, "JobId=", 6) && line[6] >= '0' &&
		line[6] <= '9';
}

/* The field number of @key in @r, -1 when it has none. */
static long _at(const sb_record_t *r, const char *key)
{
	size_t i, n = sb_record_count(r);

	for (i = 0; i < n; i++)
		if (!strcmp(sb_record_key_at(r, i), key))
			return (long) i;
	return -1;
}

/* Why record @r cannot be trusted (in @buf), NULL when it can. */
static const char *_distrust(const sb_record_t *r, char *buf, size_t len)
{
	const char *rep = sb_record_repeated(r), *miss;
	long name, feat, over, k;

	if (rep) {
		snprintf(buf, len, "its record names %s twice (a name, "
			 "comment or path holding \"Key=value\" text)", rep);
		return buf;
	}
	if ((miss = sbc__missing(r, _keys))) {
		snprintf(buf, len, "its record has no %s", miss);
		return buf;
	}
	name = _at(r, "JobName");
	feat = _at(r, "Features");
	over = _at(r, "OverSubscribe");
	if (((k = _at(r, "ArrayJobId")) >= 0 && k > name) ||
	    ((k = _at(r, "ArrayTaskId")) >= 0 && k > name) ||
	    ((k = _at(r, "Reservation")) >= 0 && (k < feat || k > over)) ||
	    ((k = _at(r, "TresPerNode")) >= 0 && k < over)) {
		snprintf(buf, len, "its record has %s out of its place (text "
			 "a user wrote)", sb_record_key_at(r, (size_t) k));
		return buf;
	}
	return NULL;
}

/* The record joined so far, parsed and kept. 0, or -1. */
static int _done(_read_t *rd)
{
	sb_record_t *r, **v;
	char *text;

	if (!rd->have)
		return 0;
	rd->have = false;
	if (!(text = sb_strbuf_finish(&rd->cur)))
		return sbc__oom();
	r = sb_record_parse_cached(text, &rd->keys);
	free(text);
	if (!r)
		return errno == ENOMEM ? sbc__oom() : 0;
	if (rd->n == rd->cap) {
		size_t cap = rd->cap ? rd->cap * 2 : 64;

		if (!(v = realloc(rd->v, cap * sizeof(*v)))) {
			sb_record_free(r);
			return sbc__oom();
		}
		rd->v = v;
		rd->cap = cap;
	}
	rd->v[rd->n++] = r;
	return 0;
}

static int _line(void *arg, char *line, size_t len)
{
	_read_t *rd = arg;

	if (_starts(line)) {
		if (_done(rd) < 0)
			return -1;
		rd->have = true;
	} else if (rd->have) {
		/* a newline in the user's text: the record goes on */
		sb_strbuf_add(&rd->cur, "\n");
	} else {
		return 0;	/* "No jobs in the system" */
	}
	/* a NUL would cut the record short: drop what follows it */
	sb_strbuf_addn(&rd->cur, line, strnlen(line, len));
	return 0;
}

/* The job ids 'squeue -h -t all -o %A' lists, into @ids. */
static int _id_line(void *arg, char *line, size_t len)
{
	sb_strmap_t *ids = arg;

	(void) len;
	line += strspn(line, " ");
	line[strcspn(line, " ")] = '\0';
	if (*line && sb_strmap_put(ids, line, 1) < 0)
		return sbc__oom();
	return 0;
}

/* "7", "1-4", "N/A" (0) as a count and an upper end (0: none). */
static void _range(const char *s, uint32_t *lo, uint32_t *hi)
{
	char buf[64], *dash;

	*lo = *hi = 0;
	snprintf(buf, sizeof(buf), "%s", s ? s : "");
	if ((dash = strchr(buf, '-'))) {
		*dash = '\0';
		(void) sbc__u32(dash + 1, hi);
	}
	(void) sbc__u32(buf, lo);
}

/* A record of a job into @raw (its strings point into the record). */
static void _raw(sbc__jobs_ctx_t *ctx, const sb_record_t *r, sbc__raw_t *raw)
{
	const char *v;
	uint32_t x;
	uint64_t mb;

	memset(raw, 0, sizeof(*raw));
	raw->id = sb_record_get(r, "JobId");
	raw->name = sb_record_get(r, "JobName");
	raw->state = sb_record_get(r, "JobState");
	/* "name(uid)" */
	v = sb_record_get(r, "UserId");
	raw->user = v;
	raw->reason = sb_record_get(r, "Reason");
	raw->account = sb_record_get(r, "Account");
	raw->qos = sb_record_get(r, "QOS");
	raw->partition = sb_record_get(r, "Partition");
	raw->features = sb_record_get(r, "Features");
	raw->req_nodes = sb_record_get(r, "ReqNodeList");
	raw->exc_nodes = sb_record_get(r, "ExcNodeList");
	raw->gres = sb_record_get(r, "TresPerNode");
	raw->licenses = sb_record_get(r, "Licenses");
	raw->dependency = sb_record_get(r, "Dependency");
	raw->nodelist = sb_record_get(r, "NodeList");
	raw->resv = sb_record_get(r, "Reservation");
	/* 22.05: TRES= (what it asks, then what it got); 24.11 on:
	 * ReqTRES= and AllocTRES= */
	if (!(raw->tres = sb_record_get(r, "TRES")))
		raw->tres = sb_record_get(r, strcmp(raw->state, "PENDING") ?
					  "AllocTRES" : "ReqTRES");
	raw->array_job_id = sbc_leading_number(sb_record_get(r,
							     "ArrayJobId"));
	raw->array_task = sb_record_get(r, "ArrayTaskId");
	v = sb_record_get(r, "Scheduler");
	raw->by_backfill = !strncmp(v, "Backfill", 8);
	(void) sbc__u32(sb_record_get(r, "Priority"), &raw->priority);
	_range(sb_record_get(r, "NumNodes"), &raw->min_nodes,
	       &raw->max_nodes);
	_range(sb_record_get(r, "NumCPUs"), &x, &(uint32_t) { 0 });
	raw->num_cpus = x;
	(void) sbc__u32(sb_record_get(r, "NumTasks"), &raw->num_tasks);
	(void) sbc__u32(sb_record_get(r, "CPUs/Task"), &raw->cpus_per_task);
	raw->tasks_per_node = (uint32_t) sbc_leading_number(
		sb_record_get(r, "NtasksPerN:B:S:C"));
	(void) sbc__u32(sb_record_get(r, "MinCPUsNode"), &raw->min_cpus_node);
	if (sbc__time(ctx, false, sb_record_get(r, "StartTime"),
		      &raw->start) < 0)
		raw->start = -1;
	if (sbc__time(ctx, true, sb_record_get(r, "EndTime"), &raw->end) < 0)
		raw->end = -1;
	if (sb_slurm_time(sb_record_get(r, "EligibleTime"), &raw->eligible) <
	    0)
		raw->eligible = -1;
	v = sb_record_get(r, "TimeLimit");
	if (!strcmp(v, "Partition_Limit"))
		raw->time_limit = SBC__PART_LIMIT;
	else if (sbi_parse_time(v, &raw->time_limit) < 0)
		raw->time_limit = SB_TIME_INFINITE;
	if ((v = sb_record_get(r, "MinMemoryNode")) && !sb_slurm_mem(v, &mb))
		raw->mem_node = mb;
	if ((v = sb_record_get(r, "MinMemoryCPU")) && !sb_slurm_mem(v, &mb))
		raw->mem_cpu = mb;
	if (!sb_slurm_mem(sb_record_get(r, "MinTmpDiskNode"), &mb))
		raw->tmp_node = mb;
	v = sb_record_get(r, "OverSubscribe");
	raw->share = !strcmp(v, "NO") ? SBC_SHARE_NO : !strcmp(v, "YES") ?
		SBC_SHARE_YES : !strcmp(v, "OK") ? SBC_SHARE_OK :
		SBC_SHARE_OTHER;
	raw->reboot = strcmp(sb_record_get(r, "Reboot"), "0") != 0;
	raw->contiguous = !strcmp(sb_record_get(r, "Contiguous"), "1");
}

/*
 * A key that no record has: a Slurm this reader does not know, an error
 * (1 after one line). A record without it is only skipped.
 */
static int _unknown_form(const _read_t *rd)
{
	size_t i, k;

	for (k = 0; rd->n && _keys[k]; k++) {
		const char *one[] = { _keys[k], NULL };

		for (i = 0; i < rd->n && sbc__missing(rd->v[i], one); i++)
			;
		if (i == rd->n) {
			fprintf(stderr, PROG ": 'scontrol show jobs -o': no "
				"job record has the key %s\n", _keys[k]);
			return 1;
		}
	}
	return 0;
}

int sbc__jobs_text(sbc_cluster_t *c, sbc__jobs_ctx_t *ctx)
{
	_read_t rd;
	sb_strmap_t *ids = NULL, *seen = NULL;
	char why[200], user[256], uid[32];
	size_t i;
	int rc = -1;

	memset(&rd, 0, sizeof(rd));
	if (sbc_run(SBC_SCONTROL, (const char *[]) { "show", "jobs", "-o",
						     NULL }, _line, &rd) < 0 ||
	    _done(&rd) < 0 || _unknown_form(&rd))
		goto out;
	if (!(ids = sb_strmap_create()) || !(seen = sb_strmap_create())) {
		sbc__oom();
		goto out;
	}
	if (rd.n && sbc_run(SBC_SQUEUE, (const char *[]) { "-h", "-t", "all",
			    "-o", "%A", NULL }, _id_line, ids) < 0)
		goto out;
	/* ids named twice */
	for (i = 0; i < rd.n; i++) {
		const char *id = sb_record_get(rd.v[i], "JobId");
		size_t was = sb_strmap_get(seen, id);

		if (sb_strmap_put(seen, id, was == SIZE_MAX ? 1 : was + 1) <
		    0) {
			sbc__oom();
			goto out;
		}
	}
	if (sbc__jobs_room(c, ctx, rd.n) < 0)
		goto out;
	for (i = 0; i < rd.n; i++) {
		const sb_record_t *r = rd.v[i];
		const char *id = sb_record_get(r, "JobId"), *bad, *paren;
		sbc__raw_t raw;

		if (sb_strmap_get(seen, id) > 1) {
			sbc__skip(c, id, "another record names the same "
				  "JobId (a newline in a name, comment or "
				  "path made a record of its own)");
			continue;
		}
		if (sb_strmap_get(ids, id) == SIZE_MAX) {
			sbc__skip(c, id, "squeue lists no such job (a newline "
				  "in a name, comment or path made a record of "
				  "its own)");
			continue;
		}
		if ((bad = _distrust(r, why, sizeof(why)))) {
			sbc__skip(c, id, bad);
			continue;
		}
		_raw(ctx, r, &raw);
		/* UserId is "name(uid)" */
		snprintf(user, sizeof(user), "%.*s",
			 (int) strcspn(raw.user, "("), raw.user);
		uid[0] = '\0';
		if ((paren = strchr(raw.user, '(')))
			snprintf(uid, sizeof(uid), "%.*s",
				 (int) strcspn(paren + 1, ")"), paren + 1);
		raw.user = user;
		raw.uid = uid[0] ? uid : NULL;
		if (sbc__job_add(c, ctx, &raw) < 0)
			goto out;
	}
	rc = 0;
out:
	for (i = 0; i < rd.n; i++)
		sb_record_free(rd.v[i]);
	free(rd.v);
	free(sb_strbuf_finish(&rd.cur));
	sb_record_cache_fini(&rd.keys);
	sb_strmap_destroy(ids);
	sb_strmap_destroy(seen);
	return rc;
}
