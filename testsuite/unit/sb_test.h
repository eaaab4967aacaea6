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

#include "sb_rng.h"

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
