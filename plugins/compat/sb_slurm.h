/*
 * sb_slurm.h - Slurm's internal headers under the names the plugins use,
 * whatever the Slurm tree they are built against: every plugin of
 * slurm-buckets includes this instead of Slurm's headers.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The compat layer (plugins/compat/) absorbs what differs between Slurm
 * releases by *trait*: configure asks the tree what it has and writes
 * the answers, 0 or 1 each, into sb_slurm_traits.h
 * (m4/sb_slurm_traits.m4). Only the files of plugins/compat/ test them;
 * the plugin logic above reads as one Slurm. The names are 24.11's
 * (list_t, job_details_t, CR_*, ...), since most releases have them.
 * Whole entry points that differ live in files named after their trait,
 * chosen by the automake conditional of the same name.
 */
#ifndef SB_SLURM_H
#define SB_SLURM_H

#include "sb_slurm_traits.h"

/*
 * First, as in Slurm's own plugins: the functions of Slurm's common code
 * under their "slurm_" names (bit_alloc is slurm_bit_alloc), which both
 * libslurmfull and the public libslurm.so export. A program linked with
 * libslurm.so (pyslurm, a site's own client) loads every select plugin
 * of PluginDir when it reads jobs or nodes, ours too, and its library
 * has no other names for them: what select/bucket calls there must be
 * found (testsuite/build/b05).
 */
#include "src/common/slurm_xlator.h"

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/assoc_mgr.h"
#include "src/common/bitstring.h"
#include "src/common/fd.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/pack.h"
#include "src/common/plugin.h"
#include "src/common/read_config.h"
#include "src/common/run_in_daemon.h"
#include "src/common/timers.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#if SB_HAVE_JOB_FEATURES_H
#include "src/common/job_features.h"
#endif
#if SB_HAVE_JOB_RECORD_H
#include "src/common/job_record.h"
#endif
#if SB_HAVE_COMMON_STATE_SAVE_H
#include "src/common/state_save.h"
#endif
#if SB_HAVE_THREADPOOL_H
#include "src/common/threadpool.h"
#endif
#if SB_HAVE_SRC_INTERFACES
#include "src/interfaces/gres.h"
#include "src/interfaces/mcs.h"
#include "src/interfaces/preempt.h"
#include "src/interfaces/priority.h"
#include "src/interfaces/select.h"
#include "src/interfaces/site_factor.h"
#include "src/interfaces/topology.h"
#else
#include "src/common/gres.h"
#include "src/common/select.h"
#include "src/common/site_factor.h"
#include "src/common/slurm_mcs.h"
#include "src/common/slurm_priority.h"
#include "src/common/slurm_selecttype_info.h"
#include "src/common/slurm_topology.h"
#include "src/slurmctld/preempt.h"
#endif
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"
#include "src/slurmctld/state_save.h"

/* The Slurm the plugins are built for, for messages: "25.11.7". */
#define SB_SLURM_RELEASE SLURM_VERSION_STRING

#if !SB_HAVE_LIST_T
typedef struct xlist list_t;
typedef struct listIterator list_itr_t;
#endif

#if !SB_HAVE_JOB_DETAILS_T
typedef struct job_details job_details_t;
#endif

/* Powered-down nodes. */
#if SB_HAVE_POWER_DOWN_NODE_BITMAP
#define SB_POWER_DOWN_BITMAP power_down_node_bitmap
#else
#define SB_POWER_DOWN_BITMAP power_node_bitmap
#endif

/*
 * Words before a bitstr_t's bits. Where bitstring.c keeps it private it
 * has stayed 2, as the public one was; bucket_convert.c checks the
 * layout once before relying on it.
 */
#if SB_HAVE_PUBLIC_BITSTR_OVERHEAD
#define SB_BITSTR_OVERHEAD BITSTR_OVERHEAD
#else
#define SB_BITSTR_OVERHEAD 2
#endif

/*
 * Can the job's GRES be served by the node's, counting all of the node's
 * GRES as free and every core usable? (0: no)
 */
static inline uint32_t sb_gres_job_test(list_t *job_gres_list,
					list_t *node_gres_list,
					uint32_t job_id, char *node_name)
{
#if SB_HAVE_GRES_JOB_TEST_CORE_BITMAP
	return gres_job_test(job_gres_list, node_gres_list, true, NULL, 0, 0,
			     job_id, node_name, false);
#else
	return gres_job_test(job_gres_list, node_gres_list, true, 0, 0,
			     job_id, node_name);
#endif
}

/* Microseconds between START_TIMER and END_TIMER. */
#if SB_HAVE_DELTA_TIMER
#define SB_DELTA_TIMER DELTA_TIMER
#else
#define SB_DELTA_TIMER TIMER_DURATION_USEC()
#endif

/* A thread of ours, named where Slurm names threads (15 characters). */
#if SB_HAVE_NAMED_THREADS
#define sb_thread_create(name, id_ptr, func, arg) \
	slurm_thread_create(name, id_ptr, func, arg)
#else
#define sb_thread_create(name, id_ptr, func, arg) \
	slurm_thread_create(id_ptr, func, arg)
#endif

/* SelectTypeParameters bits: CR_* until 25.05, SELECT_* after. */
#if !SB_HAVE_CR_CPU
#define CR_CPU SELECT_CPU
#define CR_SOCKET SELECT_SOCKET
#define CR_CORE SELECT_CORE
#define CR_MEMORY SELECT_MEMORY
#endif

#endif /* SB_SLURM_H */
