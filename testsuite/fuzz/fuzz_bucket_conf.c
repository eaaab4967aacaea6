/*
 * fuzz_bucket_conf.c - bucket.conf, read from a file as slurmctld and
 * the SPANK plugin read it (sb_bucket_conf_load()).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Accepted: the invariant checker passes; the canonical dump parses
 * back, dumps the same, and gives the same policy, PriorityF, allowed
 * job policies and node speeds; every job policy answer agrees with
 * the allowed set. Refused: errno says why and the message is one
 * printable line naming the file. Files whose hostlists make more than
 * 20000 names are skipped: legal, and only slow.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bucket_conf.h"
#include "fuzz.h"

static void _same(const sb_bucket_conf_t *a, const sb_bucket_conf_t *b)
{
	const sb_priorityf_t *pa = sb_bucket_conf_priorityf(a);
	const sb_priorityf_t *pb = sb_bucket_conf_priorityf(b);
	size_t i;
	int k;

	FUZZ_CHECK(sb_bucket_conf_policy(a)->kind ==
		   sb_bucket_conf_policy(b)->kind);
	FUZZ_CHECK(!pa == !pb);
	if (pa) {
		FUZZ_CHECK(pa->used == pb->used);
		for (k = 0; k < SB_PF_NCOMP; k++)
			FUZZ_CHECK(pa->coef[k] == pb->coef[k]);
	}
	for (k = 0; k < SB_POLICY_COUNT; k++)
		FUZZ_CHECK(sb_bucket_conf_job_allowed(a, NULL, k) ==
			   sb_bucket_conf_job_allowed(b, NULL, k));
	FUZZ_CHECK(sb_bucket_conf_job_prefer(a, NULL) ==
		   sb_bucket_conf_job_prefer(b, NULL));
	FUZZ_CHECK(sb_bucket_conf_part_count(a) ==
		   sb_bucket_conf_part_count(b));
	for (i = 0; i < sb_bucket_conf_part_count(a); i++) {
		const char *name = sb_bucket_conf_part_at(a, i)->name;

		FUZZ_CHECK(!strcmp(name, sb_bucket_conf_part_at(b, i)->name));
		FUZZ_CHECK(sb_bucket_conf_job_prefer(a, name) ==
			   sb_bucket_conf_job_prefer(b, name));
		for (k = 0; k < SB_POLICY_COUNT; k++)
			FUZZ_CHECK(sb_bucket_conf_job_allowed(a, name, k) ==
				   sb_bucket_conf_job_allowed(b, name, k));
	}
	FUZZ_CHECK(sb_bucket_conf_node_count(a) ==
		   sb_bucket_conf_node_count(b));
	for (i = 0; i < sb_bucket_conf_node_count(a); i++) {
		const sb_bucket_conf_node_t *na = sb_bucket_conf_node_at(a, i);
		const sb_bucket_conf_node_t *nb = sb_bucket_conf_node_at(b, i);

		FUZZ_CHECK(!strcmp(na->name, nb->name));
		FUZZ_CHECK(na->speed == nb->speed);
		FUZZ_CHECK(sb_bucket_conf_node(a, na->name) == na);
	}
}

/* A job of @part (NULL: the global settings) gets what is allowed. */
static void _job_policies_in(const sb_bucket_conf_t *c, const char *part)
{
	sb_policy_t p;
	int k, rc;

	for (k = 0; k < SB_POLICY_COUNT; k++) {
		rc = sb_bucket_conf_job_policy(c, part, sb_policy_name(k), &p);
		if (sb_bucket_conf_job_allowed(c, part, k)) {
			FUZZ_CHECK(rc == 0 && p.kind == (sb_policy_kind_t) k);
		} else {
			FUZZ_CHECK(rc == -1 && errno == EPERM);
		}
	}
}

static void _job_policies(const sb_bucket_conf_t *c)
{
	size_t i;

	_job_policies_in(c, NULL);
	for (i = 0; i < sb_bucket_conf_part_count(c); i++)
		_job_policies_in(c, sb_bucket_conf_part_at(c, i)->name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[SB_BUCKET_CONF_ERRLEN], err2[SB_BUCKET_CONF_ERRLEN];
	const char *path;
	char *text, *dump, *dump2;
	sb_bucket_conf_t *c, *back;

	/* Legal but slow: lists of more than 20000 names (unit-tested). */
	text = fuzz_str(data, size);
	if (fuzz_hostlist_names(text) > 20000) {
		free(text);
		return 0;
	}
	path = fuzz_file(0, data, size);
	memset(err, 0, sizeof(err));
	c = sb_bucket_conf_load(path, err, sizeof(err));
	if (!c) {
		FUZZ_CHECK(errno == EINVAL || errno == EFBIG);
		fuzz_check_message(err);
		FUZZ_CHECK(!strncmp(err, path, strlen(path)));
		/* The string parser agrees, when there is no NUL byte. */
		if (strlen(text) == size) {
			FUZZ_CHECK(!sb_bucket_conf_parse(text, path, err2,
							 sizeof(err2)));
			FUZZ_CHECK(!strcmp(err, err2));
		}
		free(text);
		return 0;
	}
	FUZZ_CHECK(err[0] == '\0');
	FUZZ_CHECK(sb_bucket_conf_check(c) == 0);
	_job_policies(c);
	FUZZ_CHECK((dump = sb_bucket_conf_fmt(c)) != NULL);
	back = sb_bucket_conf_parse(dump, NULL, err, sizeof(err));
	if (!back)
		fuzz_fail(__FILE__, __LINE__, err);
	FUZZ_CHECK(sb_bucket_conf_check(back) == 0);
	_same(c, back);
	FUZZ_CHECK((dump2 = sb_bucket_conf_fmt(back)) != NULL);
	FUZZ_CHECK(!strcmp(dump, dump2));
	free(dump);
	free(dump2);
	sb_bucket_conf_free(back);
	sb_bucket_conf_free(c);
	free(text);
	return 0;
}
