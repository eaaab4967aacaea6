/*
 * spank_bucket.c - a SPANK plugin that lets a job choose its node
 * allocation policy: sbatch/salloc/srun --bucket-policy=NAME.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The name is checked where the job is submitted: a policy that does not
 * exist, or (when the submit host can read bucket.conf next to its
 * slurm.conf) one that AllowJobPolicies does not list, stops the
 * submission with one error line naming the option and the value. The
 * choice travels to slurmctld in the job control environment as
 * BUCKET_POLICY=NAME, where select/bucket reads it (and checks it again:
 * bucket.conf may have changed since).
 *
 * Public SPANK API only (slurm/spank.h), plus common/.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <slurm/spank.h>

#include "bucket_conf.h"
#include "policy.h"

SPANK_PLUGIN(bucket, 1);

#define OPT SB_BUCKET_CONF_JOB_OPTION
#define POLICY_MAX 32

static char policy[POLICY_MAX] = "";

/* bucket.conf next to the slurm.conf this command reads. */
static void _conf_path(char *buf, size_t len)
{
	const char *conf = getenv("SLURM_CONF");
	const char *slash;

	if (!conf || !*conf)
		conf = "/etc/slurm/slurm.conf";
	slash = strrchr(conf, '/');
	if (!slash)
		snprintf(buf, len, "bucket.conf");
	else
		snprintf(buf, len, "%.*s/bucket.conf", (int) (slash - conf),
			 conf);
}

static int _opt_cb(int val, const char *optarg, int remote)
{
	char path[PATH_MAX], err[SB_BUCKET_CONF_ERRLEN];
	sb_bucket_conf_t *c = NULL;
	int kind;

	/* Unreadable here (or in the job's step): slurmctld decides. */
	path[0] = '\0';
	if (!remote) {
		_conf_path(path, sizeof(path));
		c = sb_bucket_conf_load(path, err, sizeof(err));
	}
	kind = sb_bucket_conf_job_option(c, path, optarg, err, sizeof(err));
	sb_bucket_conf_free(c);
	if (kind < 0) {
		slurm_error("%s", err);
		return -1;
	}
	snprintf(policy, sizeof(policy), "%s",
		 sb_policy_name((sb_policy_kind_t) kind));
	return 0;
}

static struct spank_option _option = {
	"bucket-policy", "NAME",
	"Node allocation policy for this job (select/bucket; e.g. FASTEST, "
	"MINRESOURCE), if bucket.conf's AllowJobPolicies allows it",
	1, 0, _opt_cb
};

int slurm_spank_init(spank_t sp, int ac, char **av)
{
	/* the only way to have an option in sbatch and salloc */
	if (spank_option_register(sp, &_option) != ESPANK_SUCCESS) {
		slurm_error("spank_bucket: cannot register " OPT);
		return -1;
	}
	return 0;
}

int slurm_spank_init_post_opt(spank_t sp, int ac, char **av)
{
	spank_context_t ctx = spank_context();
	spank_err_t rc;

	if (!policy[0] || ((ctx != S_CTX_ALLOCATOR) && (ctx != S_CTX_LOCAL)))
		return 0;
	rc = spank_job_control_setenv(sp, "BUCKET_POLICY", policy, 1);
	if (rc != ESPANK_SUCCESS) {
		slurm_error(OPT "=%s: cannot pass it on to slurmctld: %s",
			    policy, spank_strerror(rc));
		return -1;
	}
	return 0;
}
