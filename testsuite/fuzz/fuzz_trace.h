/*
 * fuzz_trace.h - the body fuzz_swf and fuzz_sacct share (fuzz_trace.c).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SB_FUZZ_TRACE_H
#define SB_FUZZ_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "sbucket_input_trace.h"

/* One input read as @format, then replayed (see fuzz_trace.c). */
void fuzz_trace_one(const uint8_t *data, size_t size,
		    sbi_trace_format_t format);

#endif /* SB_FUZZ_TRACE_H */
