/*
 * spank_bucket.c - a SPANK plugin for a job's own choices in select/bucket:
 * sbatch/salloc/srun --bucket-policy=NAME (its node allocation policy) and
 * --bucket-prefer=FEATURE[,FEATURE...] (features it prefers, Maui's PREF).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Both are checked where the job is submitted (not by srun inside an
 * allocation, whose step runs on the job's nodes: it says so in one line
 * and asks slurmctld nothing), each refusal one error line naming the
 * option and the value: a policy that does not exist,
 * or (when the submit host can read bucket.conf next to its slurm.conf)
 * one that no partition's AllowJobPolicies lists; a feature list that
 * does not parse, names a feature no node has (asked of slurmctld), or
 * that no partition's AllowJobPreferences lets order nodes. The choices
 * travel to slurmctld in the job control environment as
 * BUCKET_POLICY=NAME and BUCKET_PREFER=a,b (sorted), where select/bucket
 * decides, for the partition it tries the job in, what is honoured.
 * These checks are a courtesy to the user: anyone can set that
 * environment without this plugin, and only slurmctld's checks count.
 *
 * Public Slurm API only (slurm/spank.h, slurm/slurm.h), plus common/.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <slurm/slurm.h>
#include <slurm/spank.h>

#include "bucket_conf.h"
#include "node.h"
#include "policy.h"
#include "shown.h"

SPANK_PLUGIN(bucket, 1);

#define OPT SB_BUCKET_CONF_JOB_OPTION
#define PREFER_OPT SB_BUCKET_CONF_PREFER_OPTION
#define POLICY_MAX 32

static char policy[POLICY_MAX] = "";
/* the preferred features, parsed (sorted, unique) */
static sb_request_t prefer;

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

/*
 * bucket.conf as the submit host reads it into @path, or NULL: unreadable
 * here (or in the job's step, @remote), where slurmctld alone decides.
 */
static sb_bucket_conf_t *_conf(int remote, char *path, size_t len)
{
	char err[SB_BUCKET_CONF_ERRLEN];

	path[0] = '\0';
	if (remote)
		return NULL;
	_conf_path(path, len);
	return sb_bucket_conf_load(path, err, sizeof(err));
}

/*
 * The job srun runs a step of, when it runs inside an allocation
 * (SLURM_JOB_ID, which salloc and sbatch set for it), else NULL.
 */
static const char *_allocation(void)
{
	const char *id = getenv("SLURM_JOB_ID");

	if (!id || !*id)
		id = getenv("SLURM_JOBID");
	return (id && *id) ? id : NULL;
}

static int _opt_cb(int val, const char *optarg, int remote)
{
	char path[PATH_MAX], err[SB_BUCKET_CONF_ERRLEN];
	sb_bucket_conf_t *c = _conf(remote, path, sizeof(path));
	int kind;

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

static int _prefer_cb(int val, const char *optarg, int remote)
{
	char shown[SB_SHOWN_BUF], path[PATH_MAX], err[SB_BUCKET_CONF_ERRLEN];
	sb_bucket_conf_t *c = _conf(remote, path, sizeof(path));
	size_t pos = 0;
	int rc;

	/* srun's step inside an allocation chooses nothing (below) */
	rc = ((spank_context() == S_CTX_LOCAL) && _allocation()) ? 0 :
		sb_bucket_conf_prefer_option(c, path, optarg, err,
					     sizeof(err));
	sb_bucket_conf_free(c);
	if (rc < 0) {
		slurm_error("%s", err);
		return -1;
	}
	sb_request_fini(&prefer);
	if (sb_request_add_prefer_list(&prefer, optarg, &pos) < 0) {
		if (errno == E2BIG)
			slurm_error(PREFER_OPT "=%s: more than %d features "
				    "or %d bytes",
				    sb_shown(shown, sizeof(shown), optarg),
				    SB_MAX_PREFER, SB_PREFER_LIST_MAX);
		else
			slurm_error(PREFER_OPT "=%s: not a feature list "
				    "(names joined by ',') at offset %zu",
				    sb_shown(shown, sizeof(shown), optarg),
				    pos);
		sb_request_fini(&prefer);
		return -1;
	}
	return 0;
}

/* Does @name appear in the comma-separated feature list @list? */
static bool _in_list(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *p = list;

	while (p && *p) {
		if (!strncmp(p, name, len) && (!p[len] || (p[len] == ',')))
			return true;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return false;
}

/*
 * Every preferred feature is one some node has (available or active),
 * as slurmctld knows the nodes now. 0, or -1 after one error line.
 */
static int _prefer_check(void)
{
	char shown[SB_SHOWN_BUF];
	node_info_msg_t *nodes = NULL;
	size_t k;
	uint32_t i;
	bool found;

	/*
	 * The API's error is in errno (slurm_get_errno() returned just that
	 * and is gone in 24.11): read it before anything can change it.
	 */
	if (slurm_load_node(0, &nodes, SHOW_ALL) != SLURM_SUCCESS) {
		int err = errno;

		slurm_error(PREFER_OPT ": cannot check the features: no node "
			    "list from slurmctld (%s)", slurm_strerror(err));
		return -1;
	}
	for (k = 0; k < prefer.nprefer; k++) {
		found = false;
		for (i = 0; !found && (i < nodes->record_count); i++)
			found = _in_list(nodes->node_array[i].features,
					 prefer.prefer[k]) ||
				_in_list(nodes->node_array[i].features_act,
					 prefer.prefer[k]);
		if (!found) {
			slurm_error(PREFER_OPT "=%s: no node has this feature",
				    sb_shown(shown, sizeof(shown),
					     prefer.prefer[k]));
			slurm_free_node_info_msg(nodes);
			return -1;
		}
	}
	slurm_free_node_info_msg(nodes);
	return 0;
}

/* BUCKET_PREFER=a,b for slurmctld. */
static int _prefer_pass_on(spank_t sp)
{
	size_t k, len = 1;
	spank_err_t rc;
	char *list;

	for (k = 0; k < prefer.nprefer; k++)
		len += strlen(prefer.prefer[k]) + 1;
	if (!(list = malloc(len))) {
		slurm_error(PREFER_OPT ": out of memory");
		return -1;
	}
	list[0] = '\0';
	for (k = 0; k < prefer.nprefer; k++) {
		if (k)
			strcat(list, ",");
		strcat(list, prefer.prefer[k]);
	}
	rc = spank_job_control_setenv(sp, "BUCKET_PREFER", list, 1);
	if (rc != ESPANK_SUCCESS)
		slurm_error(PREFER_OPT "=%s: cannot pass it on to slurmctld: %s",
			    list, spank_strerror(rc));
	free(list);
	return (rc == ESPANK_SUCCESS) ? 0 : -1;
}

static struct spank_option _options[] = {
	{ "bucket-policy", "NAME",
	  "Node allocation policy for this job (select/bucket; e.g. FASTEST, "
	  "MINRESOURCE), if bucket.conf's AllowJobPolicies allows it",
	  1, 0, _opt_cb },
	{ "bucket-prefer", "FEATURE[,FEATURE...]",
	  "Node features this job prefers but does not require "
	  "(select/bucket): nodes with more of them come first, if "
	  "bucket.conf's AllowJobPreferences allows it",
	  1, 0, _prefer_cb },
};

int slurm_spank_init(spank_t sp, int ac, char **av)
{
	size_t i;

	/* the only way to have an option in sbatch and salloc */
	for (i = 0; i < sizeof(_options) / sizeof(_options[0]); i++)
		if (spank_option_register(sp, &_options[i]) !=
		    ESPANK_SUCCESS) {
			slurm_error("spank_bucket: cannot register --%s",
				    _options[i].name);
			return -1;
		}
	return 0;
}

int slurm_spank_init_post_opt(spank_t sp, int ac, char **av)
{
	spank_context_t ctx = spank_context();
	const char *job;
	spank_err_t rc;

	if ((ctx != S_CTX_ALLOCATOR) && (ctx != S_CTX_LOCAL))
		return 0;
	/* a step takes its job's nodes: nothing to choose, nor to check
	 * against slurmctld's node table */
	if ((ctx == S_CTX_LOCAL) && (prefer.nprefer || policy[0]) &&
	    (job = _allocation())) {
		char shown[SB_SHOWN_BUF];

		slurm_info("%s: a step of job %s runs on the job's nodes; "
			   "the choice is for a job (sbatch, salloc, or srun "
			   "outside an allocation)", prefer.nprefer ?
			   PREFER_OPT : OPT,
			   sb_shown(shown, sizeof(shown), job));
		return 0;
	}
	if (prefer.nprefer &&
	    ((_prefer_check() < 0) || (_prefer_pass_on(sp) < 0)))
		return -1;
	if (!policy[0])
		return 0;
	rc = spank_job_control_setenv(sp, "BUCKET_POLICY", policy, 1);
	if (rc != ESPANK_SUCCESS) {
		slurm_error(OPT "=%s: cannot pass it on to slurmctld: %s",
			    policy, spank_strerror(rc));
		return -1;
	}
	return 0;
}

/*
 * Every context calls it once, last (the map exports it: the loader only
 * finds exported hooks). Free the preferred features and forget both
 * choices, so nothing outlives the command or step that made them.
 */
int slurm_spank_exit(spank_t sp, int ac, char **av)
{
	sb_request_fini(&prefer);
	policy[0] = '\0';
	return 0;
}
