/*
 * usage_decay.h - usage decay and usage reset periods, as pure functions.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Slurm's priority/multifactor decays every association's raw usage in its
 * decay thread and zeroes it on PriorityUsageResetPeriod. The arithmetic
 * lives here so the priority plugin, the CLI and the tests share it; the
 * plugin only supplies times and applies the results.
 *
 * Reproduced from priority_multifactor.c (22.05):
 *  - per-second decay factor 1 - 0.693 / half_life (Slurm's first-order
 *    stand-in for 2^(-1 / half_life)); 1 (no decay) when half_life <= 0;
 *  - over an elapsed time: factor^elapsed (pow, double), at least DBL_MIN;
 *  - usage of a running job over run_delta seconds:
 *    run_delta * factor^run_delta * billable TRES * QOS usage factor
 *    (the QOS factor only when >= 0, as Slurm);
 *  - next reset: from the local midnight of the last reset: DAILY the next
 *    midnight, WEEKLY the next Sunday midnight (both then stepped forward
 *    while a whole period still lies before now), MONTHLY the 1st of the
 *    next month, QUARTERLY the 1st of April / July / October / January,
 *    YEARLY January 1st. Slurm uses localtime()/mktime(); here the local
 *    time is UTC + @utc_offset seconds, fixed (the caller passes its
 *    current offset, e.g. tm_gmtoff), which differs from mktime() only
 *    across a DST change.
 *
 * Operations, all O(1) and pure:
 *   sb_decay_factor        per-second factor from the half-life
 *   sb_decay_over          factor over elapsed seconds
 *   sb_decay_apply         usage * decay over elapsed seconds
 *   sb_decay_new_usage     decayed usage of a running job
 *   sb_reset_parse / sb_reset_name   PriorityUsageResetPeriod words
 *   sb_reset_next          time of the next reset
 */
#ifndef SB_USAGE_DECAY_H
#define SB_USAGE_DECAY_H

#include <stdint.h>

/* PriorityUsageResetPeriod. */
typedef enum {
	SB_RESET_NONE = 0,
	SB_RESET_NOW,
	SB_RESET_DAILY,
	SB_RESET_WEEKLY,
	SB_RESET_MONTHLY,
	SB_RESET_QUARTERLY,
	SB_RESET_YEARLY,
} sb_reset_period_t;

/* Times accepted by sb_reset_next(): |t| <= SB_DECAY_TIME_MAX seconds. */
#define SB_DECAY_TIME_MAX (INT64_C(1) << 40)
/* Largest |utc_offset| accepted, in seconds (26 hours). */
#define SB_DECAY_OFFSET_MAX (26 * 3600)

/*
 * Per-second decay factor for a half-life of @half_life seconds:
 * 1 - 0.693 / half_life, or 1.0 when @half_life <= 0 (decay off).
 */
double sb_decay_factor(int64_t half_life);

/*
 * The decay over @elapsed seconds: @factor ^ @elapsed, floored at DBL_MIN
 * so usage never reaches 0 by decay; 1.0 when @elapsed <= 0.
 */
double sb_decay_over(double factor, int64_t elapsed);

/*
 * @usage decayed over @elapsed seconds with per-second @factor:
 * usage * sb_decay_over(factor, elapsed) in long double (Slurm multiplies
 * the long double usage by the double decay).
 */
long double sb_decay_apply(long double usage, double factor, int64_t elapsed);

/*
 * Usage a running job adds over @run_delta seconds (negative counts as 0):
 * run_delta * factor^run_delta * @billable, times @usage_factor when that
 * is >= 0 (Slurm ignores a negative QOS UsageFactor).
 */
double sb_decay_new_usage(double factor, int64_t run_delta, double billable,
			  double usage_factor);

/*
 * Parse a PriorityUsageResetPeriod word (NONE, NOW, DAILY, WEEKLY,
 * MONTHLY, QUARTERLY, YEARLY; case-insensitive) into *@out.
 * Returns 0, or -1 with errno EINVAL (unknown word or NULL). O(1).
 */
int sb_reset_parse(const char *word, sb_reset_period_t *out);

/* The upper-case word for @p, or NULL with errno EINVAL. */
const char *sb_reset_name(sb_reset_period_t p);

/*
 * When usage is next reset, given the last reset @last_reset and the
 * current time @now (seconds since the epoch) and the local offset
 * @utc_offset. NONE gives INT64_MAX (never); NOW gives @now (reset at
 * once; Slurm then switches to NONE). Returns the time, or -1 with errno
 * EINVAL (unknown period, offset beyond SB_DECAY_OFFSET_MAX) or ERANGE (a
 * time beyond SB_DECAY_TIME_MAX).
 */
int64_t sb_reset_next(sb_reset_period_t p, int64_t last_reset, int64_t now,
		      int32_t utc_offset);

#endif /* SB_USAGE_DECAY_H */
