/*
 * list_public.c - list the cluster's jobs, their steps and its nodes
 * through Slurm's public library alone, as a site's own client of the
 * API or pyslurm does: linked with libslurm.so (-lslurm), never with
 * libslurmfull, which Slurm's own commands link. Reading jobs or nodes
 * loads the select plugins of PluginDir into such a program (every one
 * of them on Slurm 22.05 and 24.11), select/bucket too, and calls it to
 * unpack their select data: the live tests show with it that a cluster
 * running select/bucket stays readable by every client.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 *   list_public jobs    a line per job: "JOBID NODES", as
 *                       'squeue -h -t all -o "%i %N"' prints it
 *   list_public steps   a line per step: "JOBID.STEP NODES" (STEP a
 *                       number, batch, extern or interactive)
 *   list_public nodes   a line per node: "NODE CPUALLOC", the CPUs jobs
 *                       hold (slurm_get_select_nodeinfo() where the
 *                       select plugin says it)
 *
 * Exit status 0; 1 with Slurm's error on stderr; 2 for a usage error.
 * A library that cannot load the cluster's SelectType ends the program
 * itself (fatal: "Can't find plugin for select/bucket"), status 1.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sb_slurm_api.h"

static int _fail(const char *what)
{
	fprintf(stderr, "list_public: %s: %s\n", what,
		slurm_strerror(errno));
	return 1;
}

static int _jobs(void)
{
	job_info_msg_t *msg = NULL;
	uint32_t i;

	if (slurm_load_jobs((time_t) 0, &msg, SHOW_ALL) != SLURM_SUCCESS)
		return _fail("slurm_load_jobs");
	for (i = 0; i < msg->record_count; i++) {
		job_info_t *j = &msg->job_array[i];

		printf("%u %s\n", j->job_id, j->nodes ? j->nodes : "");
	}
	slurm_free_job_info_msg(msg);
	return 0;
}

/* A step's name after the job id, as squeue and sacct print it. */
static void _step_name(uint32_t step, char *buf, size_t len)
{
	if (step == SLURM_BATCH_SCRIPT)
		snprintf(buf, len, "batch");
	else if (step == SLURM_EXTERN_CONT)
		snprintf(buf, len, "extern");
	else if (step == SLURM_INTERACTIVE_STEP)
		snprintf(buf, len, "interactive");
	else
		snprintf(buf, len, "%u", step);
}

static int _steps(void)
{
	job_step_info_response_msg_t *msg = NULL;
	char name[32];
	uint32_t i;

	if (SB_GET_ALL_JOB_STEPS(&msg, SHOW_ALL) != SLURM_SUCCESS)
		return _fail("slurm_get_job_steps");
	for (i = 0; i < msg->job_step_count; i++) {
		job_step_info_t *s = &msg->job_steps[i];

		_step_name(s->step_id.step_id, name, sizeof(name));
		printf("%u.%s %s\n", s->step_id.job_id, name,
		       s->nodes ? s->nodes : "");
	}
	slurm_free_job_step_info_response_msg(msg);
	return 0;
}

static int _nodes(void)
{
	node_info_msg_t *msg = NULL;
	uint16_t cpus;
	uint32_t i;

	if (slurm_load_node((time_t) 0, &msg, SHOW_ALL) != SLURM_SUCCESS)
		return _fail("slurm_load_node");
	for (i = 0; i < msg->record_count; i++) {
		node_info_t *n = &msg->node_array[i];

		if (!n->name)
			continue;	/* a hole in the node table */
		cpus = 0;
		if (SB_NODE_ALLOC_CPUS(n, &cpus) != SLURM_SUCCESS) {
			slurm_free_node_info_msg(msg);
			return _fail("a node's allocated CPUs");
		}
		printf("%s %u\n", n->name, cpus);
	}
	slurm_free_node_info_msg(msg);
	return 0;
}

int main(int argc, char **argv)
{
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: list_public jobs|steps|nodes\n");
		return 2;
	}
	slurm_init(NULL);
	if (!strcmp(argv[1], "jobs")) {
		rc = _jobs();
	} else if (!strcmp(argv[1], "steps")) {
		rc = _steps();
	} else if (!strcmp(argv[1], "nodes")) {
		rc = _nodes();
	} else {
		fprintf(stderr, "usage: list_public jobs|steps|nodes\n");
		rc = 2;
	}
	slurm_fini();
	return rc;
}
