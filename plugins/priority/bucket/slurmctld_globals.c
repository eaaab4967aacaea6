/*
 * slurmctld_globals.c - slurmctld's globals, for the clients that load
 * priority/bucket (sshare, sprio).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include "priority_bucket.h"

/*
 * slurmctld's globals, defined here so sshare and sprio (which have none
 * of them) can dlopen() the plugin. They are exported (see
 * priority_bucket.map) so that inside slurmctld its own definitions
 * interpose on these.
 */
list_t *job_list = NULL;
time_t last_job_update = (time_t) 0;
time_t last_part_update = (time_t) 0;
int slurmctld_tres_cnt = 0;
uint16_t accounting_enforce = 0;
uint32_t cluster_cpus = NO_VAL;
void *acct_db_conn = NULL;
