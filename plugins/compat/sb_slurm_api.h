/*
 * sb_slurm_api.h - what differs in Slurm's public API (slurm/slurm.h)
 * between the Slurm trees slurm-buckets builds for, under one set of
 * names, for programs that are clients of it: the live tests' own
 * (testsuite/live/submit_env.c, list_public.c). sb_slurm.h does the
 * same for the plugins and Slurm's internal headers; like it, this tests
 * traits (sb_slurm_traits.h, m4/sb_slurm_traits.m4), never a version.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SB_SLURM_API_H
#define SB_SLURM_API_H

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "sb_slurm_traits.h"

/* The id of the job a submission made, from its submit_response_msg_t. */
#if SB_HAVE_SUBMIT_RESPONSE_STEP_ID
#define SB_SUBMIT_JOB_ID(resp) ((resp)->step_id.job_id)
#else
#define SB_SUBMIT_JOB_ID(resp) ((resp)->job_id)
#endif

/* Every step of every job into *@resp, as slurm_get_job_steps() does. */
#if SB_HAVE_GET_JOB_STEPS_STEP_ID
#define SB_GET_ALL_JOB_STEPS(resp, show_flags) \
	slurm_get_job_steps(NULL, (resp), (show_flags))
#else
#define SB_GET_ALL_JOB_STEPS(resp, show_flags) \
	slurm_get_job_steps((time_t) 0, NO_VAL, NO_VAL, (resp), (show_flags))
#endif

/*
 * The CPUs of the node @node (a node_info_t *) that jobs hold, into the
 * uint16_t *@cpus: SLURM_SUCCESS or SLURM_ERROR. Where the node's select
 * data say it, slurm_get_select_nodeinfo() asks the cluster's select
 * plugin, in the client's own process.
 */
#if SB_HAVE_NODE_INFO_ALLOC_CPUS
#define SB_NODE_ALLOC_CPUS(node, cpus) \
	(*(cpus) = (node)->alloc_cpus, SLURM_SUCCESS)
#else
#define SB_NODE_ALLOC_CPUS(node, cpus) \
	slurm_get_select_nodeinfo((node)->select_nodeinfo, \
				  SELECT_NODEDATA_SUBCNT, \
				  NODE_STATE_ALLOCATED, (cpus))
#endif

#endif /* SB_SLURM_API_H */
