/*
 * fuzz_priority_state.c - the priority state file
 * (StateSaveLocation/priority_last_decay_ran) as priority/bucket reads
 * it at slurmctld's start (common/fairshare/priority_state.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The input is the file; "now" is fixed. Accepted: both times in
 * [0, now], clamped exactly when the file's was after now, and packed
 * again they read back the same. Refused: EINVAL, *st untouched.
 */
#include <errno.h>
#include <string.h>

#include "fuzz.h"
#include "priority_state.h"

#define NOW 1795431981

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned char now_be[8] = {
		0, 0, 0, 0, 0x6b, 0x04, 0x1e, 0x2d	/* NOW */
	};
	unsigned char b[SB_PRIO_STATE_LEN];
	sb_prio_state_t st, back;

	memset(&st, 0x5a, sizeof(st));
	if (sb_prio_state_parse(data, size, NOW, &st) < 0) {
		FUZZ_CHECK(errno == EINVAL);
		FUZZ_CHECK(st.last_ran == 0x5a5a5a5a5a5a5a5aLL);
		return 0;
	}
	FUZZ_CHECK(size >= SB_PRIO_STATE_LEN);
	FUZZ_CHECK(st.last_ran >= 0 && st.last_ran <= NOW);
	FUZZ_CHECK(st.last_reset >= 0 && st.last_reset <= NOW);
	/* big-endian and not negative: later than now is greater bytes */
	FUZZ_CHECK(st.ran_clamped == (memcmp(data, now_be, 8) > 0));
	FUZZ_CHECK(st.reset_clamped == (memcmp(data + 8, now_be, 8) > 0));
	FUZZ_CHECK(!sb_prio_state_pack(st.last_ran, st.last_reset, b));
	FUZZ_CHECK(!sb_prio_state_parse(b, sizeof(b), NOW, &back));
	FUZZ_CHECK(back.last_ran == st.last_ran &&
		   back.last_reset == st.last_reset);
	FUZZ_CHECK(!back.ran_clamped && !back.reset_clamped);
	if (!st.ran_clamped && !st.reset_clamped)
		FUZZ_CHECK(!memcmp(b, data, sizeof(b)));
	return 0;
}
