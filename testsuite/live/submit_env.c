/*
 * submit_env.c - submit a batch job through libslurm with a job control
 * environment (spank_job_env) set by hand, as any user of the API or of
 * slurmrestd can: no sbatch, no SPANK plugin, none of their checks. The
 * live tests show with it that what a job may choose is slurmctld's to
 * decide (select/bucket, bucket.conf's AllowJobPolicies and
 * AllowJobPreferences).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 *   submit_env [-N NODES] [-p PARTITION] [-t MINUTES] [-o FILE]
 *              [-s SCRIPT_LINE] [KEY=VALUE...]
 *
 * Each KEY=VALUE goes into spank_job_env as given. The job is exclusive
 * (whole nodes, as sbatch --exclusive), runs /bin/sh with SCRIPT_LINE
 * (default: "sleep 600") as the calling user, in the current directory,
 * with the calling environment. Prints the job id; exit status 0, or 1
 * with Slurm's error on stderr.
 *
 * Public API only (slurm/slurm.h, through plugins/compat/sb_slurm_api.h
 * for what differs between Slurm series), linked with the public
 * libslurm.so as any client of the API is.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sb_slurm_api.h"

extern char **environ;

static void _usage(void)
{
	fprintf(stderr, "usage: submit_env [-N NODES] [-p PARTITION] "
		"[-t MINUTES] [-o FILE] [-s SCRIPT_LINE] [KEY=VALUE...]\n");
	exit(2);
}

/* A positive count of minutes or nodes, or the usage. */
static uint32_t _count(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || !v || v > 1000000)
		_usage();
	return (uint32_t) v;
}

int main(int argc, char **argv)
{
	job_desc_msg_t desc;
	submit_response_msg_t *resp = NULL;
	char cwd[4096], *script, *line = "sleep 600";
	char *partition = NULL, *out = "/dev/null";
	uint32_t nodes = 1, minutes = 0;
	size_t len, envc = 0;
	int opt, rc;

	while ((opt = getopt(argc, argv, "N:p:t:o:s:")) != -1) {
		switch (opt) {
		case 'N':
			nodes = _count(optarg);
			break;
		case 'p':
			partition = optarg;
			break;
		case 't':
			minutes = _count(optarg);
			break;
		case 'o':
			out = optarg;
			break;
		case 's':
			line = optarg;
			break;
		default:
			_usage();
		}
	}
	for (opt = optind; opt < argc; opt++)
		if (!strchr(argv[opt], '=') || argv[opt][0] == '=')
			_usage();
	if (!getcwd(cwd, sizeof(cwd))) {
		perror("submit_env: getcwd");
		return 1;
	}
	len = strlen(line) + 16;
	if (!(script = malloc(len)))
		return 1;
	snprintf(script, len, "#!/bin/sh\n%s\n", line);
	while (environ[envc])
		envc++;

	slurm_init(NULL);
	slurm_init_job_desc_msg(&desc);
	desc.name = "submit_env";
	desc.script = script;
	desc.min_nodes = desc.max_nodes = nodes;
	desc.shared = 0;			/* whole nodes, --exclusive */
	desc.partition = partition;
	if (minutes)
		desc.time_limit = minutes;
	desc.user_id = getuid();
	desc.group_id = getgid();
	desc.work_dir = cwd;
	desc.std_out = out;
	desc.environment = environ;
	desc.env_size = (uint32_t) envc;
	desc.spank_job_env = argv + optind;
	desc.spank_job_env_size = (uint32_t) (argc - optind);

	rc = slurm_submit_batch_job(&desc, &resp);
	if (rc != SLURM_SUCCESS) {
		fprintf(stderr, "submit_env: %s\n", slurm_strerror(errno));
		free(script);
		return 1;
	}
	printf("%u\n", SB_SUBMIT_JOB_ID(resp));
	slurm_free_submit_response_response_msg(resp);
	free(script);
	slurm_fini();
	return 0;
}
