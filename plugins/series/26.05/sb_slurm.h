/*
 * sb_slurm.h - Slurm 26.05's internal headers for every plugin of
 * slurm-buckets (see plugins/series/22.05/sb_slurm.h for the scheme).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The plugins use 24.11's names; what 26.05 renamed is mapped back here:
 * the SelectTypeParameters bits (CR_* became SELECT_*),
 * slurm_thread_create(), which takes a thread name first, and the
 * timers (DELTA_TIMER).
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
#include "src/common/threadpool.h"
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

#define SB_SLURM_SERIES "26.05"

#define SB_POWER_DOWN_BITMAP power_down_node_bitmap

/* SelectTypeParameters (slurm.h, enum select_type_flags since 25.05) */
#define CR_CPU SELECT_CPU
#define CR_SOCKET SELECT_SOCKET
#define CR_CORE SELECT_CORE
#define CR_MEMORY SELECT_MEMORY

/* Microseconds between START_TIMER and END_TIMER (DELTA_TIMER is gone). */
#define SB_DELTA_TIMER TIMER_DURATION_USEC()

/* Words before a bitstr_t's bits: private to bitstring.c (2, as before). */
#define SB_BITSTR_OVERHEAD 2

/* A thread of ours: 26.05 names each thread (at most 15 characters). */
#define sb_thread_create(name, id_ptr, func, arg) \
	slurm_thread_create(name, id_ptr, func, arg)

/* See 22.05's: as in 24.11. */
static inline uint32_t sb_gres_job_test(list_t *job_gres_list,
					list_t *node_gres_list,
					uint32_t job_id, char *node_name)
{
	return gres_job_test(job_gres_list, node_gres_list, true, 0, 0,
			     job_id, node_name);
}

#endif /* SB_SLURM_H */
