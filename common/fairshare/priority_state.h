/*
 * priority_state.h - the priority state file of priority/multifactor
 * (and priority/bucket, which keeps the same record):
 * StateSaveLocation/priority_last_decay_ran, read and written.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The file is two times as Slurm's pack_time() writes them: the last
 * decay pass, then the last usage reset, each a 64-bit count of seconds
 * since the epoch, most significant byte first (16 bytes; bytes after
 * them are ignored, as multifactor's reader ignores them). The file is
 * written by slurmctld, but it lives on disk for as long as the cluster
 * does: a clock set wrong once, a copy from another machine or a bad
 * sector can leave times in the future. A last reset in the future
 * postpones PriorityUsageResetPeriod (and past 2^40 stops it until a
 * reconfigure), a last pass in the future stops usage from accruing, so
 * the reader takes every time into [0, now] and says which it moved.
 *
 *   sb_prio_state_parse  O(1)
 *   sb_prio_state_pack   O(1)
 */
#ifndef SB_PRIORITY_STATE_H
#define SB_PRIORITY_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SB_PRIO_STATE_LEN 16	/* the two times */

typedef struct {
	int64_t last_ran;	/* the last decay pass, in [0, now] */
	int64_t last_reset;	/* the last usage reset, in [0, now] */
	bool ran_clamped;	/* it was after now: taken as now */
	bool reset_clamped;	/* likewise */
} sb_prio_state_t;

/*
 * Read the @len bytes at @buf, the file's, at time @now (>= 0), into
 * *@st. Returns 0, or -1 with errno EINVAL (NULL arguments, now < 0,
 * fewer than SB_PRIO_STATE_LEN bytes, a negative time: not such a file);
 * *@st is set only on success.
 */
int sb_prio_state_parse(const void *buf, size_t len, int64_t now,
			sb_prio_state_t *st);

/*
 * The file's bytes for @last_ran and @last_reset into @out
 * (SB_PRIO_STATE_LEN bytes), as pack_time() writes them. Returns 0, or
 * -1 with errno EINVAL (NULL @out, a negative time).
 */
int sb_prio_state_pack(int64_t last_ran, int64_t last_reset,
		       unsigned char out[SB_PRIO_STATE_LEN]);

#endif /* SB_PRIORITY_STATE_H */
