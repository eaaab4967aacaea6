/*
 * priority_thread_start.c - the decay thread started by slurmctld, where
 * the priority framework has priority_p_thread_start() and
 * priority_p_recover() (trait SB_HAVE_PRIORITY_THREAD_START; elsewhere
 * init() starts it: priority_bucket.c).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include "sb_slurm.h"

#include "priority_bucket.h"

/*
 * Called by slurmctld once the job state is read, with every slurmctld
 * lock held for writing (controller.c): only start the thread, which
 * waits for the locks itself. Called again after a fini()/init() pair
 * (the controller's loop), never twice for one init().
 */
extern void priority_p_thread_start(void)
{
	if (!running_in_slurmctld())
		return;
	bucket_usage_start();
}

/*
 * After the job state is read: the boost is for priority/basic, not us
 * (0, as multifactor). The decay thread computes every job's factors on
 * its first pass, which runs as soon as slurmctld releases its locks.
 */
extern uint32_t priority_p_recover(uint32_t prio_boost)
{
	return 0;
}
