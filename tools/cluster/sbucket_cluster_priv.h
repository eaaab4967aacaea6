/*
 * sbucket_cluster_priv.h - what the parts of the cluster's reader share
 * (sbucket_cluster.c the whole, _nodes.c nodes, partitions and
 * reservations, _jobs.c, _jobs_text.c and _jobs_json.c the jobs,
 * _request.c a job's request, _queue.c sprio and squeue --start).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SBUCKET_CLUSTER_PRIV_H
#define SBUCKET_CLUSTER_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "sbucket_cluster.h"
#include "slurm_text.h"

#define PROG "sbucket"

/* "sbucket: out of memory"; -1. */
int sbc__oom(void);

/* *@dst = a copy of @v (the old one freed): 0, or -1 after one line. */
int sbc__dup(char **dst, const char *v);

/* A decimal number of at most UINT32_MAX, all of @s: 0, or -1. */
int sbc__u32(const char *s, uint32_t *v);

/* A hostlist of the cluster's nodes as a bitmap ("" and "(null)": none);
 * NULL after an error line naming @what. */
sb_bitmap_t *sbc__nodeset(const sbc_cluster_t *c, const char *hl,
			  const char *what);

/* The records of 'scontrol show WHAT -o' that start with a key. */
typedef struct {
	sb_record_t **v;
	size_t n, cap;
	const char *first_key;		/* the records start with it */
	sb_record_cache_t keys;		/* their shared key sets */
} sbc__records_t;

/* Read them into @rs (zeroed first): 0, or -1 after one error line. */
int sbc__records(const char *what, const char *first_key, sbc__records_t *rs);
void sbc__records_free(sbc__records_t *rs);

/*
 * The first of @keys (NULL-terminated) that @r lacks, NULL when it has
 * them all. A key given as "A|B" is there when either is.
 */
const char *sbc__missing(const sb_record_t *r, const char *const *keys);

/* 'scontrol show nodes|partition|res -o' into c->cl, c->parts, c->resv
 * (sbucket_cluster_nodes.c). 0, or -1 after one error line. */
int sbc__read_nodes(sbc_cluster_t *c);
int sbc__read_parts(sbc_cluster_t *c);
int sbc__read_resv(sbc_cluster_t *c);

/* The partition called @name (the first of a list "a,b"), -1 none. */
int sbc__part_index(const sbc_cluster_t *c, const char *name);

/* ---- the jobs (sbucket_cluster_jobs.c) ---- */

/* A job as its source says it, before it is typed: strings (NULL: not
 * shown or none) and numbers. */
typedef struct {
	const char *id, *name, *state, *user, *uid, *account, *qos, *reason;
	const char *partition, *features, *req_nodes, *exc_nodes, *gres;
	const char *licenses, *dependency, *tres, *nodelist, *resv;
	const char *array_task;
	uint64_t array_job_id;
	int by_backfill;		/* -1 not shown */
	uint32_t priority;
	uint32_t min_nodes, max_nodes;	/* max 0: none */
	uint64_t num_cpus;		/* 0 when not shown */
	uint32_t num_tasks;		/* 0 when not shown */
	uint32_t cpus_per_task;		/* 0 when not shown */
	uint32_t tasks_per_node;	/* 0 when none */
	uint32_t min_cpus_node;		/* 0 when not shown */
	int64_t start, end, eligible;	/* -1 when none */
	int64_t time_limit;		/* seconds, SB_TIME_INFINITE, or
					 * SBC__PART_LIMIT */
	uint64_t mem_node, mem_cpu, tmp_node;
	sbc_share_t share;
	bool reboot, contiguous;
} sbc__raw_t;

#define SBC__PART_LIMIT (-2)		/* the partition's MaxTime */

/* What the reading keeps from one job to the next. */
typedef struct sbc__jobs_ctx sbc__jobs_ctx_t;

/* Add the job @raw says to c->jobs (room made by the caller: c->jobs has
 * room for it). 0, or -1 after one error line. */
int sbc__job_add(sbc_cluster_t *c, sbc__jobs_ctx_t *ctx,
		 const sbc__raw_t *raw);

/* Make room for @n more jobs in c->jobs: 0, or -1 after one line. */
int sbc__jobs_room(sbc_cluster_t *c, sbc__jobs_ctx_t *ctx, size_t n);

/* One note line on stderr about a job record not read, counted in
 * c->skipped. */
void sbc__skip(sbc_cluster_t *c, const char *id, const char *why);

/*
 * The jobs from 'squeue --json -t all' (sbucket_cluster_jobs_json.c):
 * 1 when read, 0 when the command gave no JSON (it fails: a Slurm
 * without its JSON serializer; nothing printed), -1 after one error line.
 */
int sbc__jobs_json(sbc_cluster_t *c, sbc__jobs_ctx_t *ctx);

/* The jobs from 'scontrol show jobs -o' (sbucket_cluster_jobs_text.c).
 * 0, or -1 after one error line. */
int sbc__jobs_text(sbc_cluster_t *c, sbc__jobs_ctx_t *ctx);

/* Every job into c->jobs: from JSON where the commands print it, else
 * from text. 0, or -1 after one error line. */
int sbc__read_jobs(sbc_cluster_t *c);

/* A time as scontrol prints it, memoised (one scheduling pass starts
 * many jobs at one time): 0, or -1 (sb_slurm_time()'s). */
int sbc__time(sbc__jobs_ctx_t *ctx, bool end, const char *s, int64_t *t);

#endif /* SBUCKET_CLUSTER_PRIV_H */
