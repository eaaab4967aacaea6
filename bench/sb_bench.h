/*
 * sb_bench.h - helpers shared by the benchmarks.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SB_BENCH_H
#define SB_BENCH_H

#include <time.h>

#include "sb_rng.h"	/* the unit tests' generator: same inputs, same seed */

/* Monotonic wall time in seconds. */
static inline double sb_bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

#endif /* SB_BENCH_H */
