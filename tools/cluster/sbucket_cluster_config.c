/*
 * sbucket_cluster_config.c - slurmctld's configuration
 * (sbucket_cluster_config.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "sbucket_cluster_config.h"
#include "sbucket_cluster_run.h"
#include "slurm_text.h"
#include "strbuf.h"

#define PROG "sbucket"

static int _dup(char **dst, const char *v)
{
	free(*dst);
	if (!(*dst = strdup(v))) {
		fprintf(stderr, PROG ": out of memory\n");
		return -1;
	}
	return 0;
}

/* Does the comma-separated list @list hold @word? */
static bool _has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ',') && (!p[n] || p[n] == ','))
			return true;
	return false;
}

typedef struct {
	sbc_config_t *c;
	sb_strbuf_t section;		/* select/bucket's lines, as
					 * bucket.conf's */
	bool in_section;		/* they were shown */
} _read_t;

static int _line(void *arg, char *line, size_t len)
{
	_read_t *rd = arg;
	sbc_config_t *c = rd->c;
	char *key, *val;
	size_t klen;

	(void) len;
	if (sb_config_line(line, &key, &val) < 0)
		return 0;
	/* scontrol prints the plugin's heading without a line break */
	klen = strlen(key);
	if (klen >= 14 && !strcmp(key + klen - 14, "BaseSelectType")) {
		rd->in_section = true;
		return _dup(&c->base, val);
	}
	if (!strcmp(key, "SLURM_CONF"))
		return _dup(&c->slurm_conf, val);
	if (!strcmp(key, "SelectType"))
		return _dup(&c->select_type, val);
	if (!strcmp(key, "PriorityType"))
		return _dup(&c->priority_type, val);
	if (!strcmp(key, "PriorityParameters"))
		return strcmp(val, "(null)") ?
			_dup(&c->priority_params, val) : 0;
	if (!strcmp(key, "FairShareDampeningFactor")) {
		uint64_t u;

		/* 0 is Slurm's 1 */
		c->fs_dampening = sb_decimal_in(val, 1, LONG_MAX, &u) ? 1 :
			(long) u;
		return 0;
	}
	if (!strcmp(key, "AccountingStorageType"))
		return _dup(&c->accounting_type, val);
	/* no preemption: 22.05 shows preempt/none, 24.11 on (null) */
	if (!strcmp(key, "PreemptType")) {
		if (!strcmp(val, "(null)") || !strcmp(val, "preempt/none"))
			return 0;
		return _dup(&c->preempt_type, val);
	}
	if (!strcmp(key, "SchedulerParameters")) {
		const char *bf = strstr(val, "bf_resolution=");
		uint64_t u;

		if (bf && !sb_decimal_parse(bf + 14, INT32_MAX, &u, NULL) &&
		    u > 0)
			c->bf_resolution = (int64_t) u;
		c->bf_licenses = _has_word(val, "bf_licenses");
		return 0;
	}
	if (!strcmp(key, "NodeAllocationPolicy") ||
	    !strcmp(key, "AllowJobPolicies") ||
	    !strcmp(key, "AllowJobPreferences"))
		sb_strbuf_addf(&rd->section, "%s=%s\n", key, val);
	else if (!strcmp(key, "PriorityF"))
		sb_strbuf_addf(&rd->section, "PriorityF=\"%s\"\n", val);
	else if (!strcmp(key, "NodeSpeed"))	/* "n[1-4] Speed=2" */
		sb_strbuf_addf(&rd->section, "NodeName=%s\n", val);
	else if (!strcmp(key, "PartitionChoices"))
		/* "gpu AllowJobPolicies=... AllowJobPreferences=..." */
		sb_strbuf_addf(&rd->section, "PartitionName=%s\n", val);
	return 0;
}

int sbc_config_read(sbc_config_t *c)
{
	_read_t rd = { c, SB_STRBUF_INIT, false };
	int rc;

	memset(c, 0, sizeof(*c));
	c->bf_resolution = 60;		/* sched/backfill's default */
	c->fs_dampening = 1;
	sbc_run_setup();
	rc = sbc_run(SBC_SCONTROL, (const char *[]) { "show", "config", NULL },
		     _line, &rd);
	c->section = sb_strbuf_finish(&rd.section);
	if (rc < 0)
		return -1;
	if (!c->section) {
		fprintf(stderr, PROG ": out of memory\n");
		return -1;
	}
	if (!rd.in_section) {
		free(c->section);
		c->section = NULL;
	}
	return 0;
}

int sbc_config_need(const sbc_config_t *c, const char *key)
{
	if ((!strcmp(key, "SelectType") && c->select_type) ||
	    (!strcmp(key, "PriorityType") && c->priority_type))
		return 0;
	fprintf(stderr, PROG ": 'scontrol show config' shows no %s: is "
		"slurmctld running?\n", key);
	return -1;
}

/*
 * From 25.05 on 'scontrol show config' has no select plugin section: read
 * bucket.conf next to the slurm.conf it names, as slurmctld does (a
 * missing file: the defaults).
 */
static int _bucket_conf_file(sbc_config_t *c)
{
	char err[SB_BUCKET_CONF_ERRLEN], *path, *slash;
	size_t n;

	if (!c->slurm_conf) {
		fprintf(stderr, PROG ": 'scontrol show config' shows neither "
			"select/bucket's settings nor SLURM_CONF: cannot find "
			"bucket.conf\n");
		return -1;
	}
	slash = strrchr(c->slurm_conf, '/');
	n = slash ? (size_t) (slash - c->slurm_conf) + 1 : 0;
	if (!(path = malloc(n + sizeof("bucket.conf")))) {
		fprintf(stderr, PROG ": out of memory\n");
		return -1;
	}
	memcpy(path, c->slurm_conf, n);
	strcpy(path + n, "bucket.conf");
	c->conf = sb_bucket_conf_load(path, err, sizeof(err));
	if (!c->conf && errno == ENOENT)
		c->conf = sb_bucket_conf_parse("", path, err, sizeof(err));
	free(path);
	if (!c->conf) {
		fprintf(stderr, PROG ": %s\n", err);
		return -1;
	}
	return 0;
}

int sbc_config_bucket(sbc_config_t *c)
{
	char err[SB_BUCKET_CONF_ERRLEN];
	const char *base;

	if (sbc_config_need(c, "SelectType") < 0)
		return -1;
	if (c->section || strcmp(c->select_type, "select/bucket")) {
		c->conf = sb_bucket_conf_parse(c->section ? c->section : "",
					       "slurmctld's bucket.conf", err,
					       sizeof(err));
		if (!c->conf) {
			fprintf(stderr, PROG ": %s\n", err);
			return -1;
		}
	} else {
		if (_bucket_conf_file(c) < 0)
			return -1;
		base = sb_bucket_conf_base(c->conf);
		if (_dup(&c->base, base ? base : "select/linear") < 0)
			return -1;
	}
	c->base_cons = c->base && strstr(c->base, "cons_");
	return 0;
}

void sbc_config_fini(sbc_config_t *c)
{
	free(c->select_type);
	free(c->base);
	free(c->priority_type);
	free(c->priority_params);
	free(c->preempt_type);
	free(c->accounting_type);
	free(c->slurm_conf);
	free(c->section);
	sb_bucket_conf_free(c->conf);
	memset(c, 0, sizeof(*c));
}
