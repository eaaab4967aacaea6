/*
 * sbucket_cluster.h - the running cluster, read from Slurm's commands
 * into typed fields: what 'sbucket why' and 'sbucket forecast' explain.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Read from slurmctld through its own commands (sbucket_cluster_run.h:
 * an argument vector, no shell, stderr apart):
 *   'scontrol show config'               sbucket_cluster_config.h
 *   'scontrol show nodes|partition|res -o'  the nodes, partitions and
 *       reservations: records an admin's and Slurm's text fills, read
 *       as text (slurm_text.h)
 *   the jobs: 'squeue --json -t all' where the commands print JSON
 *       (every series from 22.05 on, when Slurm was built with its JSON
 *       serializer), else 'scontrol show jobs -o' (below)
 * and, for one verb or another, 'sprio', 'squeue --start' (here),
 * licences and limits (sbucket_cluster_limits.h), the association tree
 * (sbucket_cluster_fairshare.h). SBUCKET_NOW (seconds since the epoch)
 * stands in for the current time.
 *
 * A job's fields are typed here and nowhere else: no caller sees a
 * record. What differs between the series is absorbed here too: TRES=
 * (22.05) or ReqTRES=/AllocTRES= (24.11 on) become the job's tres (what
 * it asks while pending, what it holds once running); licences joined by
 * ',' (22.05) or ';' (24.11 on) become one list; JSON's numbers are plain
 * (22.05, data_parser v0.0.38) or {set, infinite, number} (24.11 on).
 *
 * What a user writes (a job's name, comment, paths, command) can hold
 * anything Slurm takes, and Slurm takes separators, "Key=value" text,
 * quotes, 1,024 characters and newlines (checked on 22.05 and 24.11).
 * In JSON such text is a string and nothing else. In scontrol's text it
 * could read as fields, or (a newline) as a record of its own, so the
 * text reader trusts a job's record only when it cannot have been
 * forged: a record that spans lines, names a key twice, lacks a key the
 * reader needs, has an optional key the reader reads out of its place,
 * or names a JobId another record names or that 'squeue -h -t all -o %A'
 * (job ids only) does not list, is not read: it is skipped, with one
 * note line on stderr, and the run goes on. A key that no job record
 * has is an error naming the command and the key (a Slurm this reader
 * does not know).
 *
 * Nodes become sb_node_t (the fields select/bucket's bucket_convert.c
 * reads, from scontrol's names for them); each job's request is written
 * as a line of 'sbucket place''s jobs file and read by its parser
 * (sbi_parse_job()), so both commands read requests alike.
 *
 * Operations (N nodes, J jobs, R reservations, L bytes of output):
 *   sbc_read           O(L + J log J + N log N)
 *   sbc_request        O(the request's line)
 *   sbc_job            O(1) expected (O(J) the first time, and for an
 *                      array task's name)
 *   sbc_sprio          O(its output)
 *   sbc_squeue_start   O(its output)
 *   sbc_job_scheduler  O(one record)
 *   sbc_leading_number O(length)
 *   sbc_fini           O(N + J + R)
 *   sbc_check          O(N + J + R)
 */
#ifndef SBUCKET_CLUSTER_H
#define SBUCKET_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bitmap.h"
#include "sbucket_cluster_config.h"
#include "sbucket_input_jobs.h"
#include "slurm_text.h"

typedef struct {
	char *name;
	bool is_default;
	bool exclusive, no, force;	/* OverSubscribe EXCLUSIVE, NO,
					 * FORCE:n with n > 1 */
	uint32_t tier;			/* PriorityTier */
	char *max_time;			/* MaxTime as printed */
} sbc_part_t;

typedef struct {
	char *name;
	sb_bitmap_t *nodes;
	int64_t start, end;
	bool partial;			/* cores, not whole nodes */
} sbc_resv_t;

typedef enum {
	SBC_PENDING,
	SBC_RUNNING,
	SBC_SUSPENDED,
	SBC_OTHER,			/* completing, done, ... */
} sbc_state_t;

/* sprio's weighted factors of a pending job, in this order. */
enum { SBC_PRIO, SBC_AGE, SBC_FAIRSHARE, SBC_JOBSIZE, SBC_PARTITION, SBC_QOS,
       SBC_NFACTORS };

/* A job's OverSubscribe. */
typedef enum {
	SBC_SHARE_OK,			/* the partition's, or none said */
	SBC_SHARE_NO,			/* --exclusive */
	SBC_SHARE_YES,			/* --oversubscribe */
	SBC_SHARE_OTHER,		/* USER, MCS, TOPO */
} sbc_share_t;

typedef struct {
	/* the strings below point into text, the job's one block */
	char *text;
	const char *id;			/* JobId, "12" */
	uint64_t array_job_id;		/* 0: no array task */
	const char *array_task;		/* ArrayTaskId ("3", "4-9") */
	const char *name;		/* JobName: the user's text */
	sbc_state_t state;
	const char *state_name;		/* JobState, "COMPLETED" */
	const char *user;		/* the user's name (c->users owns it,
					 * shared by jobs in a row) */
	const char *uid;		/* the user's number, "1001" */
	const char *account;		/* NULL when none */
	const char *qos;		/* NULL when none */
	const char *reason;		/* why it waits as Slurm names it
					 * ("Resources", "Licenses",
					 * "None"); never NULL */
	int by_backfill;		/* started by backfill: 1, by the main
					 * scheduler: 0, not shown: -1
					 * (22.05's JSON: see
					 * sbc_job_scheduler()) */
	uint32_t priority;
	int part;			/* index in parts (the first of a
					 * list), -1 unknown */
	uint32_t min_nodes, max_nodes;	/* max 0: none given */
	uint64_t cpus;			/* what it asks (pending), or its
					 * tasks' CPUs (running) */
	uint32_t node_cpus;		/* CPUs each node must have */
	int64_t start, end;		/* -1 when not shown */
	int64_t eligible;		/* EligibleTime, -1 when none */
	int64_t time_limit;		/* seconds, SB_TIME_INFINITE */
	sb_bitmap_t *nodes;		/* running: its nodes, else NULL;
					 * shared by the jobs of one
					 * NodeList (c->nodesets owns
					 * it): read only */
	int resv;			/* index in resv, -1 none */
	const char *features;		/* NULL when none */
	const char *req_nodes, *exc_nodes;	/* NULL when none */
	const char *gres;		/* per node, "gpu:2,nic:1", NULL */
	sb_license_t *lic;		/* its licences (its own) */
	size_t nlic;
	bool lic_or;			/* an OR list ("a|b"): any one of
					 * them, no count of one (nlic 0) */
	const char *dependency;		/* Dependency=, NULL when none */
	uint64_t mem_node, mem_cpu;	/* MB asked per node, per CPU (0) */
	uint64_t tmp_node;		/* MB of tmp per node */
	const char *tres;		/* what it asks (pending) or holds:
					 * "cpu=4,mem=16000M,node=4", NULL */
	uint64_t tres_mem;		/* its mem= in MB, 0 when none */
	sbc_share_t share;
	bool reboot, contiguous;
	bool have_factors;		/* sbc_sprio() found it */
	int64_t factors[SBC_NFACTORS];
	sbi_job_t req;			/* as 'sbucket place' reads it */
	bool have_req;			/* req could be built */
	char *req_line;			/* the line req was read from */
} sbc_job_t;

typedef struct {
	int64_t now;
	sbc_config_t cfg;		/* 'scontrol show config' */
	sbi_cluster_t cl;		/* nodes, by name */
	sbc_part_t *parts;
	size_t nparts;
	sbc_resv_t *resv;
	size_t nresv;
	sbc_job_t *jobs;
	size_t njobs;
	size_t skipped;			/* job records not read */
	bool json;			/* the jobs came from JSON */
	sb_bitmap_t **nodesets;		/* the jobs' node sets, one per
					 * distinct NodeList */
	size_t nnodesets;
	char **users;			/* the jobs' user names */
	size_t nusers;
	struct sb_strmap *by_id;	/* JobId -> index in jobs, made by
					 * the first sbc_job() */
} sbc_cluster_t;

/*
 * The decimal number @s starts with ("123_4" -> 123, "2:0:*:*" -> 2), 0
 * when it starts with none: slurmctld's own fields, read leniently.
 */
uint64_t sbc_leading_number(const char *s);

/*
 * Read everything but the jobs' requests into @c (zeroed first; release
 * with sbc_fini()). 0, or -1 after printing one error line (a command
 * missing or failing, output it does not understand).
 */
int sbc_read(sbc_cluster_t *c);

/*
 * Build job @j's request (j->req, j->req_line) from its fields; -1 after
 * printing one error naming the job (e.g. a constraint the parser does
 * not take). A job placed by the base still gets a request: its count
 * and per-node minimums describe the nodes it could use.
 */
int sbc_request(sbc_cluster_t *c, sbc_job_t *j);

void sbc_fini(sbc_cluster_t *c);

/*
 * Verify what sbc_read() made: nodes (each one's invariants, the name
 * index), partitions and reservations named, and every job: its strings
 * there (id digits only), its partition, reservation and node set within
 * the cluster, a node set exactly for the running and suspended ones,
 * its licences counted, its node counts and CPUs sane. 0, or -1 with
 * errno EFAULT (EINVAL for NULL). O(N + J + R).
 */
int sbc_check(const sbc_cluster_t *c);

/*
 * The weighted priority factors of every pending job, from 'sprio -h -o'.
 * 0, or -1 after one error line.
 */
int sbc_sprio(sbc_cluster_t *c);

/*
 * The job called @id (a job id, or ARRAYID_TASKID), or NULL.
 */
sbc_job_t *sbc_job(sbc_cluster_t *c, const char *id);

/*
 * squeue --start for job @id: its planned start in *start (-1 when
 * squeue shows none) and its planned nodes in @nodes (a buffer of @len
 * bytes, "" when none). 0, or -1 after printing one error line.
 */
int sbc_squeue_start(const char *id, int64_t *start, char *nodes,
		     size_t len);

/*
 * j->by_backfill when the jobs' source did not show it (22.05's JSON):
 * from 'scontrol show job -o ID', taken only when Scheduler= is there
 * once. Stays -1 otherwise. Never an error.
 */
void sbc_job_scheduler(sbc_job_t *j);

#endif /* SBUCKET_CLUSTER_H */
