/*
 * sbucket_why_limits_priv.h - what the parts of 'sbucket why's limits
 * share: what slurmctld shows of licences, QOS and associations
 * (sbucket_why_limits_read.c), the limits of the plan and their uses
 * (sbucket_why_limits.c), read by the output (sbucket_why_limits_print.c).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SBUCKET_WHY_LIMITS_PRIV_H
#define SBUCKET_WHY_LIMITS_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sbucket_why_limits.h"
#include "sbucket_why_live.h"
#include "strmap.h"

#define PROG "sbucket"
#define NONE (-1)		/* a limit Slurm prints as N or empty */
#define SB_KEY 512		/* a limit's key, truncated */

/* @parts joined by '|' into @buf (of SB_KEY bytes), truncated. */
void sbwl_cat(char *buf, const char *const *parts, size_t n);

/* Print "out of memory"; -1. */
int sbwl_oom(void);

/* One TRES of a limit: "cpu=4(2)" -> cpu, 4, 2; "mem=N(0)" -> NONE. */
typedef struct {
	char *name;
	int64_t limit, used;
} sbwl_tres_t;

typedef struct {
	char *name;		/* uid (per user) or account */
	int64_t max_jobs, jobs;
	sbwl_tres_t *tres;
	size_t ntres;
} sbwl_per_t;

typedef struct {
	char *name;
	int64_t grp_jobs, grp_jobs_used;
	sbwl_tres_t *grp;
	size_t ngrp;
	sbwl_per_t *user, *acct;
	size_t nuser, nacct;
} sbwl_qos_t;

typedef struct {
	uint32_t id;
	char *account, *user, *partition, *parent;
	int64_t grp_jobs, grp_jobs_used, max_jobs, max_jobs_used;
	sbwl_tres_t *grp;
	size_t ngrp;
} sbwl_assoc_t;

typedef struct {
	char *name;
	int64_t total, used;
} sbwl_lic_t;

/* A limit of the plan. */
typedef struct {
	char *reason;		/* as Slurm names it when it holds a job */
	char *what;		/* "QOS normal GrpTRES cpu" */
	const char *scope;	/* license, qos, qos-user, qos-account,
				 * assoc, assoc-max */
	char *owner;		/* licence, QOS or account name */
	char *who;		/* the user or account a per-X limit is of */
	char *tres;		/* cpu, mem, gres/gpu, jobs, licence name */
	int64_t limit, shown_use;
	int64_t held;		/* by the running jobs we saw */
	int64_t need;		/* the job explained needs */
	int64_t allows;		/* earliest start it allows the job, -1 */
} sbwl_lim_t;

typedef struct {
	const sbw_job_t *job;
	size_t lim;
	int64_t units, end;	/* end: SB_TIME_INFINITE without a limit */
	int64_t start;		/* ahead: planned start, -1 never */
	bool ahead;
} sbwl_use_t;

struct sbwl_jinfo;

struct sbw_limits {
	sbw_live_t *lv;
	const sbw_job_t *j;
	const char *reason;
	sbw_reason_kind_t kind;
	sbwl_lic_t *lic;
	size_t nlic;
	sbwl_qos_t *qos;
	size_t nqos;
	sbwl_assoc_t *assoc;
	size_t nassoc;
	sb_strmap_t *assoc_by;	/* "account|user|partition" -> index */
	sbwl_lim_t *lim;
	size_t nlim, caplim;
	sb_strmap_t *lim_by;	/* key -> index */
	sbwl_use_t *use;
	size_t nuse, capuse;
	struct sbwl_jinfo *info;	/* per job of lv, what the walks read */
	int64_t start;		/* the limits' planned start, -1 */
	char why[256];
};


/*
 * Read 'scontrol show lic -o' and 'scontrol show assoc_mgr
 * flags=assoc,qos' into ls->lic, ls->qos, ls->assoc (and assoc_by). 0,
 * or -1 after printing one error line. sbwl_read_fini() frees them.
 */
int sbwl_read(sbw_limits_t *ls);
void sbwl_read_fini(sbw_limits_t *ls);

#endif /* SBUCKET_WHY_LIMITS_PRIV_H */
