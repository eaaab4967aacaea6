/*
 * fuzz_trace.h - what fuzz_swf and fuzz_sacct share (fuzz_trace.c): one
 * input read as a workload in one format, and 'sbucket replay' whole on
 * it.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SB_FUZZ_TRACE_H
#define SB_FUZZ_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "sbucket_input_trace.h"

/*
 * Feed the @size bytes @data (an optional first line "#!OPTIONS" of
 * sbucket replay's options, then the log) to the reader as @format and
 * to 'sbucket replay', checking what fuzz_trace.c's header says; a
 * failed check aborts (fuzz_fail()).
 */
void fuzz_trace_one(const uint8_t *data, size_t size,
		    sbi_trace_format_t format);

#endif /* SB_FUZZ_TRACE_H */
