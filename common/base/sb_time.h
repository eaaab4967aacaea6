/*
 * sb_time.h - time arithmetic shared by the node model, placement and
 * WILL_RUN.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Times are int64_t seconds. "Never ends" is SB_TIME_INFINITE; sums that
 * would pass it stop there instead of wrapping, so a job with no time
 * limit, or a horizon at the end of time, stays ordered after every
 * finite time.
 */
#ifndef SB_TIME_H
#define SB_TIME_H

#include <stdint.h>

#define SB_TIME_INFINITE INT64_MAX

/* a + b for b >= 0, saturating at SB_TIME_INFINITE. O(1). */
static inline int64_t sb_time_add(int64_t a, int64_t b)
{
	return a > 0 && b > SB_TIME_INFINITE - a ? SB_TIME_INFINITE : a + b;
}

#endif /* SB_TIME_H */
