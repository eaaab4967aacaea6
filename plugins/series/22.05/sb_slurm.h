/*
 * sb_slurm.h - Slurm 22.05's internal headers, under the names the plugins
 * use (24.11's), for every plugin of slurm-buckets.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * One directory of plugins/series/ per supported Slurm series; configure
 * puts the one of the Slurm it builds for on the include path. The plugin
 * logic includes this header instead of Slurm's and reads as one version:
 * every difference of names, header paths and signatures is absorbed
 * here, whole entry points that differ are in this directory's .c files.
 *
 * Names: the plugins use 24.11's list_t / list_itr_t (a list is a
 * pointer, list_t *), job_details_t, and SB_* macros for fields that
 * moved.
 */
#ifndef SB_SLURM_H
#define SB_SLURM_H

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/assoc_mgr.h"
#include "src/common/bitstring.h"
#include "src/common/fd.h"
#include "src/common/gres.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/pack.h"
#include "src/common/plugin.h"
#include "src/common/read_config.h"
#include "src/common/run_in_daemon.h"
#include "src/common/select.h"
#include "src/common/site_factor.h"
#include "src/common/slurm_mcs.h"
#include "src/common/slurm_priority.h"
#include "src/common/slurm_selecttype_info.h"
#include "src/common/slurm_topology.h"
#include "src/common/timers.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/preempt.h"
#include "src/slurmctld/slurmctld.h"
#include "src/slurmctld/state_save.h"

/* 24.11's names for 22.05's types. */
typedef struct xlist list_t;
typedef struct listIterator list_itr_t;
typedef struct job_details job_details_t;

/* The series, for messages: "22.05". */
#define SB_SLURM_SERIES "22.05"

/* Powered-down nodes (24.11: power_down_node_bitmap). */
#define SB_POWER_DOWN_BITMAP power_node_bitmap

/* Words before a bitstr_t's bits (public in 22.05's bitstring.h). */
#define SB_BITSTR_OVERHEAD BITSTR_OVERHEAD

/*
 * Can the job's GRES be served by the node's, counting all of the node's
 * GRES as free and every core usable? (0: no)
 */
static inline uint32_t sb_gres_job_test(list_t *job_gres_list,
					list_t *node_gres_list,
					uint32_t job_id, char *node_name)
{
	return gres_job_test(job_gres_list, node_gres_list, true, NULL, 0, 0,
			     job_id, node_name, false);
}

/* Microseconds between START_TIMER and END_TIMER. */
#define SB_DELTA_TIMER DELTA_TIMER

/* A thread of ours (26.05 names them; this series does not). */
#define sb_thread_create(name, id_ptr, func, arg) \
	slurm_thread_create(id_ptr, func, arg)

#endif /* SB_SLURM_H */
