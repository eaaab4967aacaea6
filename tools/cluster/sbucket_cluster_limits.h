/*
 * sbucket_cluster_limits.h - the licences, QOS and associations
 * slurmctld shows: what the limits of 'sbucket why' and 'sbucket
 * forecast' count against.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Read from 'scontrol show lic -o' (each licence's Total and Used) and
 * 'scontrol show assoc_mgr flags=assoc,qos' (each QOS's GrpTRES and
 * GrpJobs, its per-user MaxTRESPU/MaxJobsPU and per-account
 * MaxTRESPA/MaxJobsPA, each association's GrpTRES, GrpJobs, MaxJobs and
 * parent): names an admin gave, no user's text. The series differ in
 * how a QOS's per-user limits name the user: its uid ("1031", 22.05) or
 * "name(uid)" (24.11 on); both are read as the uid, as the jobs' user
 * numbers give it.
 *
 *   sbc_limits_read   O(lines + associations)
 *   sbc_limits_key    O(key)
 *   sbc_limits_fini   O(what was read)
 */
#ifndef SBUCKET_CLUSTER_LIMITS_H
#define SBUCKET_CLUSTER_LIMITS_H

#include <stddef.h>
#include <stdint.h>

#include "strmap.h"

#define SBC_NO_LIMIT (-1)	/* a limit Slurm prints as N or empty */
#define SBC_LIMITS_KEY 512	/* a key's bytes, truncated */

/* One TRES of a limit: "cpu=4(2)" -> cpu, 4, 2; "mem=N(0)" is none. */
typedef struct {
	char *name;
	int64_t limit, used;
} sbc_tres_t;

/* A QOS's limits of one user (by uid) or account. */
typedef struct {
	char *name;
	int64_t max_jobs, jobs;
	sbc_tres_t *tres;
	size_t ntres;
} sbc_per_t;

typedef struct {
	char *name;
	int64_t grp_jobs, grp_jobs_used;
	sbc_tres_t *grp;
	size_t ngrp;
	sbc_per_t *user, *acct;
	size_t nuser, nacct;
} sbc_qos_t;

typedef struct {
	uint32_t id;
	char *account, *user, *partition, *parent;
	int64_t grp_jobs, grp_jobs_used, max_jobs, max_jobs_used;
	sbc_tres_t *grp;
	size_t ngrp;
} sbc_assoc_t;

typedef struct {
	char *name;
	int64_t total, used;
} sbc_lic_t;

typedef struct {
	sbc_lic_t *lic;
	size_t nlic;
	sbc_qos_t *qos;
	size_t nqos;
	sbc_assoc_t *assoc;
	size_t nassoc;
	sb_strmap_t *assoc_by;	/* "account|user|partition" -> index */
} sbc_limits_t;

/* Read them into @ls (zeroed first; sbc_limits_fini()). 0, or -1 after
 * printing one error line. */
int sbc_limits_read(sbc_limits_t *ls);

/* @parts joined by '|' into @buf (SBC_LIMITS_KEY bytes), truncated: the
 * keys of assoc_by, and of the limits made from these. */
void sbc_limits_key(char *buf, const char *const *parts, size_t n);

void sbc_limits_fini(sbc_limits_t *ls);

#endif /* SBUCKET_CLUSTER_LIMITS_H */
