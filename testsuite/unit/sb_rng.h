/*
 * sb_rng.h - the fixed-seed PRNG shared by the unit tests and benchmarks.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SB_RNG_H
#define SB_RNG_H

#include <stdint.h>

/*
 * A small fixed-seed PRNG (splitmix64) so every randomized test is
 * reproducible from its seed alone, on every libc.
 */
typedef struct {
	uint64_t s;
} sb_test_rng_t;

static inline void sb_test_rng_seed(sb_test_rng_t *r, uint64_t seed)
{
	r->s = seed;
}

static inline uint64_t sb_test_rng_next(sb_test_rng_t *r)
{
	uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n); n > 0. The tiny modulo bias is irrelevant here. */
static inline uint64_t sb_test_rng_below(sb_test_rng_t *r, uint64_t n)
{
	return sb_test_rng_next(r) % n;
}

/* Uniform in [lo, hi]. */
static inline int64_t sb_test_rng_range(sb_test_rng_t *r, int64_t lo,
					int64_t hi)
{
	return lo + (int64_t) sb_test_rng_below(r, (uint64_t) (hi - lo) + 1);
}

#endif /* SB_RNG_H */
