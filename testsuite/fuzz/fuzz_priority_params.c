/*
 * fuzz_priority_params.c - slurm.conf's PriorityParameters as
 * priority/bucket reads it.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Accepted: values within their ranges; the canonical form parses back
 * to the same parameters. Refused: EINVAL, one printable line, the
 * output untouched.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fairshare_level.h"
#include "fuzz.h"
#include "priority_params.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size), err[SB_PRIO_ERR_MAX], canon[64];
	sb_priority_params_t p, back;

	memset(&p, 0x5a, sizeof(p));
	if (sb_priority_params_parse(s, &p, err, sizeof(err))) {
		FUZZ_CHECK(errno == EINVAL);
		fuzz_check_message(err);
		/* Room for every message: none is cut short. */
		FUZZ_CHECK(strlen(err) + 1 < sizeof(err));
		FUZZ_CHECK(p.algorithm == 0x5a5a5a5a);
		free(s);
		return 0;
	}
	FUZZ_CHECK(err[0] == '\0');
	FUZZ_CHECK(sb_priority_params_algorithm_name(p.algorithm) != NULL);
	FUZZ_CHECK(p.levels >= SB_FS_LEVELS_MIN &&
		   p.levels <= SB_FS_LEVELS_MAX);
	FUZZ_CHECK(p.calc_period >= 0 &&
		   p.calc_period <= SB_PRIO_CALC_PERIOD_MAX);
	FUZZ_CHECK(sb_priority_params_fmt(&p, canon, sizeof(canon)) != NULL);
	FUZZ_CHECK(sb_priority_params_parse(canon, &back, err,
					    sizeof(err)) == 0);
	FUZZ_CHECK(back.algorithm == p.algorithm && back.levels == p.levels &&
		   back.calc_period == p.calc_period);
	free(s);
	return 0;
}
