/*
 * sbucket_cluster_config.h - slurmctld's configuration, the one reader
 * of 'scontrol show config' (every verb that asks the running cluster
 * reads it here).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The lines are "Key = Value", written by slurmctld from slurm.conf:
 * an admin's text, no user's. What differs between the series is
 * absorbed here: PreemptType is "preempt/none" (22.05) or "(null)"
 * (24.11 on) for no preemption, both read as none; until 24.11 the
 * select plugin's own section (select/bucket's settings, the heading
 * printed without a line break before "BaseSelectType") is in the
 * output, from 25.05 on it is not and select/bucket's bucket.conf is
 * read from the directory of the SLURM_CONF the output names, as
 * slurmctld reads it.
 *
 *   sbc_config_read     O(lines)
 *   sbc_config_need     O(1)
 *   sbc_config_bucket   O(lines), or bucket.conf's reading
 *   sbc_config_fini     O(1)
 */
#ifndef SBUCKET_CLUSTER_CONFIG_H
#define SBUCKET_CLUSTER_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include "bucket_conf.h"

typedef struct {
	char *select_type;	/* SelectType */
	char *base;		/* BaseSelectType (select/bucket's base),
				 * NULL before sbc_config_bucket() when not
				 * shown */
	bool base_cons;		/* the base gives CPUs, not nodes */
	char *priority_type;	/* PriorityType */
	char *priority_params;	/* PriorityParameters, NULL: none */
	long fs_dampening;	/* FairShareDampeningFactor, >= 1 */
	char *preempt_type;	/* NULL: no preemption */
	char *accounting_type;	/* AccountingStorageType, NULL when not
				 * shown */
	int64_t bf_resolution;	/* SchedulerParameters' bf_resolution
				 * (seconds, default 60) */
	bool bf_licenses;	/* ... plans licences (bf_licenses) */
	char *slurm_conf;	/* SLURM_CONF, the file's path */
	sb_bucket_conf_t *conf;	/* select/bucket's settings
				 * (sbc_config_bucket()) */
	char *section;		/* the select section's settings, as
				 * bucket.conf lines; NULL: none shown */
} sbc_config_t;

/*
 * Read 'scontrol show config' into @c (zeroed first; sbc_config_fini()).
 * Returns 0, or -1 after printing one error line (scontrol failing, no
 * memory).
 */
int sbc_config_read(sbc_config_t *c);

/*
 * Did the output show @key ("SelectType", "PriorityType"), which the
 * caller needs? 0, or -1 after one error line naming the command and
 * the key. O(1).
 */
int sbc_config_need(const sbc_config_t *c, const char *key);

/*
 * select/bucket's settings (c->conf) and its base (c->base,
 * c->base_cons): from the select section of the output, or bucket.conf
 * beside SLURM_CONF (see above; a missing file: the defaults, the base
 * select/linear). 0, or -1 after one error line (bucket.conf's own,
 * naming the file, line, key and value).
 */
int sbc_config_bucket(sbc_config_t *c);

void sbc_config_fini(sbc_config_t *c);

#endif /* SBUCKET_CLUSTER_CONFIG_H */
