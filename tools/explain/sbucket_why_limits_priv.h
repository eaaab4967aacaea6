/*
 * sbucket_why_limits_priv.h - what the parts of 'sbucket why's limits
 * share: the limits of the plan and their uses (sbucket_why_limits.c),
 * over what slurmctld shows of licences, QOS and associations
 * (sbucket_cluster_limits.h), read by the explanation of a job
 * (sbucket_explain.c) and 'sbucket why''s text of it.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SBUCKET_WHY_LIMITS_PRIV_H
#define SBUCKET_WHY_LIMITS_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sbucket_cluster_limits.h"
#include "sbucket_why_limits.h"
#include "sbucket_cluster.h"
#include "strmap.h"

#define PROG "sbucket"

/* Print "out of memory"; -1. */
int sbwl_oom(void);

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
} sbwl_lim_t;

/* A running job's units of a limit, held until its end. */
typedef struct {
	const sbc_job_t *job;
	size_t lim;
	int64_t units, end;	/* end: SB_TIME_INFINITE without a limit */
} sbwl_use_t;

struct sbwl_jinfo;

struct sbw_limits {
	sbc_cluster_t *lv;
	sbc_limits_t sl;	/* what slurmctld shows */
	sbwl_lim_t *lim;
	size_t nlim, caplim;
	sb_strmap_t *lim_by;	/* key -> index */
	sbwl_use_t *use;
	size_t nuse, capuse;
	struct sbwl_jinfo *info;	/* per job of lv, what the walks read */
};


#endif /* SBUCKET_WHY_LIMITS_PRIV_H */
