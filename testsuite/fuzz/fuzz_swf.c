/*
 * fuzz_swf.c - SWF logs (sbucket_input_swf.h), read into a trace and replayed whole
 * by 'sbucket replay' (the checks: fuzz_trace.c).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fuzz.h"
#include "fuzz_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_trace_one(data, size, SBI_TRACE_SWF);
	return 0;
}
