/*
 * sbucket_cluster_jobs_json.c - the jobs from 'squeue --json -t all'
 * (sbucket_cluster.h): every job a JSON object, every text a string, so
 * nothing a user writes can stand in for a field.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Two forms, told apart by the value of "job_state" (a string, or an
 * array of the state and its flags):
 *   - Slurm 22.05 (openapi/v0.0.38): plain numbers; a time limit of
 *     4294967295 minutes is none, 4294967294 the partition's; no
 *     Scheduler (by_backfill -1: sbc_job_scheduler() asks scontrol).
 *   - 23.02 on (data_parser v0.0.39 and later; 24.11 prints v0.0.42):
 *     numbers as {"set", "infinite", "number"} (not set: not given,
 *     infinite: no limit); the flag BACKFILL_ATTEMPTED is scontrol's
 *     Scheduler=Backfill (the same bit, BACKFILL_SCHED).
 * Both: job_id, name, user_name, user_id, account, qos, partition,
 * state_reason, priority, node_count, max_nodes, cpus, tasks,
 * cpus_per_task, tasks_per_node, minimum_cpus_per_node, start_time,
 * end_time, eligible_time, time_limit (minutes), nodes, resv_name,
 * features, required_nodes, excluded_nodes, tres_per_node, licenses,
 * dependency, contiguous, reboot, shared, memory_per_node,
 * memory_per_cpu, minimum_tmp_disk_per_node, tres_req_str,
 * tres_alloc_str, array_job_id, array_task_id, array_task_string. A job
 * object without one of them is an error naming the key (a form this
 * reader does not know); a job whose values are not of their type is
 * skipped with a note.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "sb_time.h"
#include "sbucket_cluster_priv.h"
#include "sbucket_cluster_run.h"

/* The keys every job object has, in both forms. */
static const char *const _keys[] = {
	"job_id", "name", "user_name", "user_id", "account", "qos",
	"partition", "job_state", "state_reason", "priority", "node_count",
	"max_nodes", "cpus", "tasks", "cpus_per_task", "tasks_per_node",
	"minimum_cpus_per_node", "start_time", "end_time", "eligible_time",
	"time_limit", "nodes", "resv_name", "features", "required_nodes",
	"excluded_nodes", "tres_per_node", "licenses", "dependency",
	"contiguous", "reboot", "shared", "memory_per_node",
	"memory_per_cpu", "minimum_tmp_disk_per_node", "tres_req_str",
	"tres_alloc_str", "array_job_id", "array_task_id",
	"array_task_string", "flags", NULL
};

/* The value kinds of a number field. */
enum { _NONE, _NUM, _INF };

/*
 * A number field: _NUM with *@v, _NONE (null, or not set), _INF
 * (infinite); -1 when it is no number of either form.
 */
static int _num(const sb_json_t *x, int64_t *v)
{
	const sb_json_t *set, *inf;
	bool b;

	if (sb_json_type(x) == SB_JSON_NULL)
		return _NONE;
	if (sb_json_type(x) == SB_JSON_NUMBER)
		return sb_json_int(x, v) ? -1 : _NUM;
	if (sb_json_type(x) != SB_JSON_OBJECT ||
	    !(set = sb_json_get(x, "set")) || sb_json_bool(set, &b) < 0)
		return -1;
	if ((inf = sb_json_get(x, "infinite")) && !sb_json_bool(inf, &b) && b)
		return _INF;
	(void) sb_json_bool(set, &b);
	if (!b)
		return _NONE;
	return sb_json_int(sb_json_get(x, "number"), v) ? -1 : _NUM;
}

/* A count: the number, 0 when none; -1 when not one. */
static int _count(const sb_json_t *x, uint64_t max, uint64_t *out)
{
	int64_t v = 0;
	int k = _num(x, &v);

	*out = 0;
	if (k < 0)
		return -1;
	if (k == _NUM && v > 0)
		*out = (uint64_t) v > max ? max : (uint64_t) v;
	return 0;
}

static int _u32(const sb_json_t *x, uint32_t *out)
{
	uint64_t v;

	if (_count(x, UINT32_MAX, &v) < 0)
		return -1;
	*out = (uint32_t) v;
	return 0;
}

/* A time: seconds since the epoch, -1 when none (0 or not set). */
static int _time(const sb_json_t *x, int64_t *out)
{
	int64_t v = 0;
	int k = _num(x, &v);

	if (k < 0)
		return -1;
	*out = k == _NUM && v > 0 ? v : -1;
	return 0;
}

/* A string field ("" kept: the typing drops it where it means none). */
static const char *_s(const sb_json_t *job, const char *key)
{
	return sb_json_str(sb_json_get(job, key), NULL);
}

/* Does the array (or string) @x hold @word? */
static bool _has(const sb_json_t *x, const char *word)
{
	size_t i;

	if (sb_json_str(x, NULL))
		return !strcmp(sb_json_str(x, NULL), word);
	for (i = 0; i < sb_json_count(x); i++) {
		const char *s = sb_json_str(sb_json_at(x, i), NULL);

		if (s && !strcmp(s, word))
			return true;
	}
	return false;
}

/* The state as scontrol names it. */
static const char *_state(const sb_json_t *x)
{
	static const char *const base[] = {
		"PENDING", "RUNNING", "SUSPENDED", "COMPLETED", "CANCELLED",
		"FAILED", "TIMEOUT", "NODE_FAIL", "PREEMPTED", "BOOT_FAIL",
		"DEADLINE", "OUT_OF_MEMORY", NULL
	};
	size_t i;

	if (sb_json_str(x, NULL))
		return sb_json_str(x, NULL);
	/* a completing job is that first (scontrol's JobState) */
	if (_has(x, "COMPLETING"))
		return "COMPLETING";
	for (i = 0; base[i]; i++)
		if (_has(x, base[i]))
			return base[i];
	return sb_json_str(sb_json_at(x, 0), NULL);
}

/*
 * Job object @job into @raw (its strings point into @job, @buf holds
 * the numbers written as text): NULL, or why the job cannot be read.
 */
static const char *_raw(const sb_json_t *job, sbc__raw_t *raw, char *id,
			size_t idlen, char *uid, size_t uidlen, char *task,
			size_t tasklen)
{
	const sb_json_t *sh = sb_json_get(job, "shared");
	const sb_json_t *st = sb_json_get(job, "job_state");
	bool v38 = sb_json_type(st) == SB_JSON_STRING;
	uint64_t u;
	int64_t v;
	int k;

	memset(raw, 0, sizeof(*raw));
	if (_num(sb_json_get(job, "job_id"), &v) != _NUM || v <= 0)
		return "job_id is no job id";
	snprintf(id, idlen, "%" PRId64, v);
	raw->id = id;
	if (!(raw->name = _s(job, "name")) ||
	    !(raw->user = _s(job, "user_name")) ||
	    !(raw->account = _s(job, "account")) ||
	    !(raw->qos = _s(job, "qos")) ||
	    !(raw->partition = _s(job, "partition")) ||
	    !(raw->reason = _s(job, "state_reason")) ||
	    !(raw->state = _state(st)) ||
	    !(raw->nodelist = _s(job, "nodes")) ||
	    !(raw->resv = _s(job, "resv_name")) ||
	    !(raw->features = _s(job, "features")) ||
	    !(raw->req_nodes = _s(job, "required_nodes")) ||
	    !(raw->exc_nodes = _s(job, "excluded_nodes")) ||
	    !(raw->gres = _s(job, "tres_per_node")) ||
	    !(raw->licenses = _s(job, "licenses")) ||
	    !(raw->dependency = _s(job, "dependency")))
		return "a text field is no string";
	raw->tres = _s(job, strcmp(raw->state, "PENDING") ?
		       "tres_alloc_str" : "tres_req_str");
	if (_num(sb_json_get(job, "user_id"), &v) == _NUM && v >= 0) {
		snprintf(uid, uidlen, "%" PRId64, v);
		raw->uid = uid;
	}
	if (_count(sb_json_get(job, "array_job_id"), UINT64_MAX, &u) < 0)
		return "array_job_id is no number";
	raw->array_job_id = u;
	if ((k = _num(sb_json_get(job, "array_task_id"), &v)) == _NUM &&
	    v >= 0 && !(v38 && v == 4294967294LL)) {
		snprintf(task, tasklen, "%" PRId64, v);
		raw->array_task = task;
	} else {
		raw->array_task = _s(job, "array_task_string");
	}
	/* scontrol's Scheduler=Backfill: not in 22.05's form */
	raw->by_backfill = v38 ? -1 :
		_has(sb_json_get(job, "flags"), "BACKFILL_ATTEMPTED");
	if (_u32(sb_json_get(job, "priority"), &raw->priority) < 0 ||
	    _u32(sb_json_get(job, "node_count"), &raw->min_nodes) < 0 ||
	    _u32(sb_json_get(job, "max_nodes"), &raw->max_nodes) < 0 ||
	    _count(sb_json_get(job, "cpus"), UINT64_MAX, &raw->num_cpus) < 0 ||
	    _u32(sb_json_get(job, "tasks"), &raw->num_tasks) < 0 ||
	    _u32(sb_json_get(job, "cpus_per_task"), &raw->cpus_per_task) < 0 ||
	    _u32(sb_json_get(job, "tasks_per_node"), &raw->tasks_per_node) <
	    0 ||
	    _u32(sb_json_get(job, "minimum_cpus_per_node"),
		 &raw->min_cpus_node) < 0 ||
	    _count(sb_json_get(job, "memory_per_node"), UINT64_MAX,
		   &raw->mem_node) < 0 ||
	    _count(sb_json_get(job, "memory_per_cpu"), UINT64_MAX,
		   &raw->mem_cpu) < 0 ||
	    _count(sb_json_get(job, "minimum_tmp_disk_per_node"), UINT64_MAX,
		   &raw->tmp_node) < 0)
		return "a count is no number";
	/* 22.05 prints NO_VAL16 and NO_VAL as they are */
	if (raw->cpus_per_task >= 65534)
		raw->cpus_per_task = 0;
	if (raw->tasks_per_node >= 65534)
		raw->tasks_per_node = 0;
	if (raw->min_cpus_node >= 65534)
		raw->min_cpus_node = 0;
	if (raw->num_tasks >= 4294967294u)
		raw->num_tasks = 0;
	if (_time(sb_json_get(job, "start_time"), &raw->start) < 0 ||
	    _time(sb_json_get(job, "end_time"), &raw->end) < 0 ||
	    _time(sb_json_get(job, "eligible_time"), &raw->eligible) < 0)
		return "a time is no number";
	k = _num(sb_json_get(job, "time_limit"), &v);
	if (k < 0)
		return "time_limit is no number";
	if (k == _INF || (k == _NUM && v38 && v == 4294967295LL))
		raw->time_limit = SB_TIME_INFINITE;
	else if (k == _NONE || (k == _NUM && v38 && v == 4294967294LL))
		raw->time_limit = SBC__PART_LIMIT;
	else
		raw->time_limit = v <= 0 ? 0 : v > INT64_MAX / 120 ?
			SB_TIME_INFINITE : v * 60;
	if (sb_json_bool(sb_json_get(job, "contiguous"), &raw->contiguous) <
	    0 || sb_json_bool(sb_json_get(job, "reboot"), &raw->reboot) < 0)
		return "contiguous or reboot is no boolean";
	/* OverSubscribe: none NO, oversubscribe YES, user, mcs, topo;
	 * nothing said: OK */
	raw->share = _has(sh, "none") ? SBC_SHARE_NO :
		_has(sh, "oversubscribe") ? SBC_SHARE_YES :
		_has(sh, "user") || _has(sh, "mcs") || _has(sh, "topo") ?
		SBC_SHARE_OTHER : SBC_SHARE_OK;
	return NULL;
}

/* The job objects of the "jobs" array, added. */
static int _jobs(sbc_cluster_t *c, sbc__jobs_ctx_t *ctx, sb_json_reader_t *r)
{
	int more;

	if (sb_json_array_begin(r) < 0)
		return -1;
	while ((more = sb_json_array_next(r)) == 1) {
		sb_json_t *job = sb_json_value(r);
		char id[32], uid[32], task[32];
		const char *bad;
		sbc__raw_t raw;
		size_t k;

		if (!job)
			return -1;
		for (k = 0; _keys[k] && sb_json_get(job, _keys[k]); k++)
			;
		if (_keys[k]) {
			fprintf(stderr, PROG ": 'squeue --json': a job has no "
				"key %s\n", _keys[k]);
			sb_json_free(job);
			return -2;
		}
		if ((bad = _raw(job, &raw, id, sizeof(id), uid, sizeof(uid),
				task, sizeof(task)))) {
			int64_t v = 0;

			(void) _num(sb_json_get(job, "job_id"), &v);
			snprintf(id, sizeof(id), "%" PRId64, v);
			sbc__skip(c, id, bad);
		} else if (sbc__jobs_room(c, ctx, 1) < 0 ||
			   sbc__job_add(c, ctx, &raw) < 0) {
			sb_json_free(job);
			return -2;
		}
		sb_json_free(job);
	}
	return more;
}

/* The command's output, the byte read to see there is one first. */
typedef struct {
	sbc_proc_t *p;
	char first;
	bool have_first;
} _src_t;

static ssize_t _read(void *arg, char *buf, size_t n)
{
	_src_t *s = arg;

	if (s->have_first && n) {
		buf[0] = s->first;
		s->have_first = false;
		return 1;
	}
	return sbc_proc_read(s->p, buf, n);
}

int sbc__jobs_json(sbc_cluster_t *c, sbc__jobs_ctx_t *ctx)
{
	static const char *const args[] = { "--json", "-t", "all", NULL };
	char err[512] = "";
	sb_json_reader_t *r = NULL;
	_src_t src = { NULL, 0, false };
	const char *key;
	int rc = -1, more, jobs = 0;

	if (!(src.p = sbc_proc_start(SBC_SQUEUE, args, err, sizeof(err)))) {
		fprintf(stderr, PROG ": %s\n", err);
		return -1;
	}
	/* no output at all, and a failure: a Slurm without JSON */
	if (sbc_proc_read(src.p, &src.first, 1) <= 0) {
		if (sbc_proc_finish(src.p, err, sizeof(err)) < 0)
			return 0;
		fprintf(stderr, PROG ": 'squeue --json -t all' printed "
			"nothing\n");
		return -1;
	}
	src.have_first = true;
	if (!(r = sb_json_reader_create(_read, &src))) {
		sbc__oom();
		goto out;
	}
	if (sb_json_object_begin(r) < 0)
		goto bad;
	while ((more = sb_json_object_next(r, &key)) == 1) {
		if (strcmp(key, "jobs")) {
			if (sb_json_skip(r) < 0)
				goto bad;
			continue;
		}
		jobs = 1;
		if ((more = _jobs(c, ctx, r)) == -2)
			goto out;
		if (more < 0)
			goto bad;
	}
	if (more < 0 || sb_json_end(r) < 0)
		goto bad;
	if (!jobs) {
		fprintf(stderr, PROG ": 'squeue --json -t all': no key "
			"jobs\n");
		goto out;
	}
	rc = 1;
	goto out;
bad:
	fprintf(stderr, PROG ": 'squeue --json -t all': not understood: %s\n",
		sb_json_error(r));
out:
	sb_json_reader_destroy(r);
	if (sbc_proc_finish(src.p, err, sizeof(err)) < 0 && rc > 0) {
		fprintf(stderr, PROG ": 'squeue --json -t all' failed: %s\n",
			err);
		rc = -1;
	}
	return rc;
}
