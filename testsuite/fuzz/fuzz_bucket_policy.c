/*
 * fuzz_bucket_policy.c - the SPANK plugin's --bucket-policy=NAME, as
 * checked where a job is submitted (sb_bucket_conf_job_option()).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Input: the option's value on the first line; the rest, if any, is the
 * bucket.conf the submit host reads (none when it does not parse, as
 * when the file is unreadable there, or names more than 20000 nodes,
 * which is legal and only slow). Accepted: a policy whose name is
 * the value in another case, allowed by the file to the jobs of some
 * partition. Refused: ENOENT for an unknown name, EPERM for one the
 * file allows nowhere, and one printable line that names the option.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bucket_conf.h"
#include "fuzz.h"

/* Policy @k is allowed to the jobs of some partition, or globally. */
static int _anywhere(const sb_bucket_conf_t *c, int k)
{
	size_t i;

	if (sb_bucket_conf_job_allowed(c, NULL, k))
		return 1;
	for (i = 0; i < sb_bucket_conf_part_count(c); i++)
		if (sb_bucket_conf_job_allowed(c,
				sb_bucket_conf_part_at(c, i)->name, k))
			return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size), *nl, err[SB_BUCKET_CONF_ERRLEN];
	sb_bucket_conf_t *c = NULL;
	int kind, k;

	if ((nl = strchr(s, '\n'))) {
		*nl = '\0';
		if (fuzz_hostlist_names(nl + 1) <= 20000)
			c = sb_bucket_conf_parse(nl + 1, "bucket.conf", err,
						 sizeof(err));
	}
	for (k = 0; k < SB_POLICY_COUNT; k++)
		if (!strcasecmp(s, sb_policy_name(k)))
			break;
	memset(err, 0, sizeof(err));
	kind = sb_bucket_conf_job_option(c, "/etc/slurm/bucket.conf", s, err,
					 sizeof(err));
	if (kind >= 0) {
		FUZZ_CHECK(kind == k && err[0] == '\0');
		FUZZ_CHECK(!c || _anywhere(c, kind));
	} else {
		fuzz_check_message(err);
		FUZZ_CHECK(!strncmp(err, SB_BUCKET_CONF_JOB_OPTION "=",
				    strlen(SB_BUCKET_CONF_JOB_OPTION) + 1));
		if (k == SB_POLICY_COUNT)
			FUZZ_CHECK(errno == ENOENT);
		else
			FUZZ_CHECK(errno == EPERM && c && !_anywhere(c, k));
	}
	sb_bucket_conf_free(c);
	free(s);
	return 0;
}
