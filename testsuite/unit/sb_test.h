/*
 * sb_test.h - helpers shared by the Check unit tests.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SB_TEST_H
#define SB_TEST_H

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "sb_rng.h"

#if defined(__SANITIZE_ADDRESS__)
#define SB_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SB_TEST_ASAN 1
#endif
#endif

/*
 * Cap this process's address space at @bytes, so that code that would
 * allocate without bound fails with ENOMEM (an assertion can see it)
 * instead of taking the machine's memory. Check runs each test in a
 * process of its own: the cap ends with the test. Not under
 * AddressSanitizer, which reserves terabytes of address space up front
 * (it reports huge allocations by itself).
 */
static inline void sb_test_limit_memory(size_t bytes)
{
#ifndef SB_TEST_ASAN
	struct rlimit rl = { bytes, bytes };

	ck_assert_int_eq(setrlimit(RLIMIT_AS, &rl), 0);
#else
	(void) bytes;
#endif
}

/*
 * Run one suite and return a process exit status. Check prints its own
 * summary line ("100%: Checks: N, Failures: 0, Errors: 0"), which
 * testsuite/run-tests adds up.
 */
static inline int sb_test_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif /* SB_TEST_H */
