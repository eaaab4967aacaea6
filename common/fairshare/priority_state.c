/*
 * priority_state.c - the priority state file, read and written
 * (priority_state.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <string.h>

#include "priority_state.h"

static int64_t _be64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return (int64_t) v;
}

static void _put64(unsigned char *p, int64_t t)
{
	uint64_t v = (uint64_t) t;
	int i;

	for (i = 7; i >= 0; i--) {
		p[i] = (unsigned char) (v & 0xff);
		v >>= 8;
	}
}

int sb_prio_state_parse(const void *buf, size_t len, int64_t now,
			sb_prio_state_t *st)
{
	const unsigned char *p = buf;
	int64_t ran, reset;

	if (!buf || !st || now < 0 || len < SB_PRIO_STATE_LEN) {
		errno = EINVAL;
		return -1;
	}
	ran = _be64(p);
	reset = _be64(p + 8);
	if (ran < 0 || reset < 0) {
		errno = EINVAL;
		return -1;
	}
	memset(st, 0, sizeof(*st));
	st->last_ran = ran;
	st->last_reset = reset;
	if (ran > now) {
		st->last_ran = now;
		st->ran_clamped = true;
	}
	if (reset > now) {
		st->last_reset = now;
		st->reset_clamped = true;
	}
	return 0;
}

int sb_prio_state_pack(int64_t last_ran, int64_t last_reset,
		       unsigned char out[SB_PRIO_STATE_LEN])
{
	if (!out || last_ran < 0 || last_reset < 0) {
		errno = EINVAL;
		return -1;
	}
	_put64(out, last_ran);
	_put64(out + 8, last_reset);
	return 0;
}
