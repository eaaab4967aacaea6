/*
 * sb_slurm.h - Slurm 24.11's internal headers for every plugin of
 * slurm-buckets (see plugins/series/22.05/sb_slurm.h for the scheme).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * 24.11 moved the plugin interfaces to src/interfaces/ and the job
 * record to src/common/job_record.h; its names are the ones the plugins
 * use, so this header only gathers the includes.
 */
#ifndef SB_SLURM_H
#define SB_SLURM_H

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/assoc_mgr.h"
#include "src/common/bitstring.h"
#include "src/common/fd.h"
#include "src/common/job_features.h"
#include "src/common/job_record.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/pack.h"
#include "src/common/plugin.h"
#include "src/common/read_config.h"
#include "src/common/run_in_daemon.h"
#include "src/common/state_save.h"
#include "src/common/timers.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/interfaces/gres.h"
#include "src/interfaces/mcs.h"
#include "src/interfaces/preempt.h"
#include "src/interfaces/priority.h"
#include "src/interfaces/select.h"
#include "src/interfaces/site_factor.h"
#include "src/interfaces/topology.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"
#include "src/slurmctld/state_save.h"

#define SB_SLURM_SERIES "24.11"

#define SB_POWER_DOWN_BITMAP power_down_node_bitmap

/*
 * Words before a bitstr_t's bits: private to 24.11's bitstring.c (2, as
 * in 22.05), so bucket_convert.c checks the layout once before relying
 * on it.
 */
#define SB_BITSTR_OVERHEAD 2

/* See 22.05's: 24.11 dropped the core bitmap and disable_binding. */
static inline uint32_t sb_gres_job_test(list_t *job_gres_list,
					list_t *node_gres_list,
					uint32_t job_id, char *node_name)
{
	return gres_job_test(job_gres_list, node_gres_list, true, 0, 0,
			     job_id, node_name);
}

/* Microseconds between START_TIMER and END_TIMER. */
#define SB_DELTA_TIMER DELTA_TIMER

/* A thread of ours (26.05 names them; this series does not). */
#define sb_thread_create(name, id_ptr, func, arg) \
	slurm_thread_create(id_ptr, func, arg)

#endif /* SB_SLURM_H */
