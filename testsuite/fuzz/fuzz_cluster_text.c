/*
 * fuzz_cluster_text.c - the jobs of the running cluster from 'scontrol
 * show jobs -o', as sbucket reads them where Slurm prints no JSON: the
 * input is scontrol's output (fuzz_cluster.h has the rest of the
 * cluster and the checks).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Read: the cluster passes sbc_check(), every job is found by its id and
 * its request is built or refused in one line, stderr holds sbucket's
 * notes only. Refused: nothing on stdout, sbucket's lines on stderr,
 * the error last.
 */
#include "fuzz_cluster.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_cl_run(data, size, 0);
	return 0;
}
