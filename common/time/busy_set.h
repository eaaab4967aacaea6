/*
 * busy_set.h - when one node cannot be used: sorted, merged windows.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Over a horizon [base, end), a node is busy from base until its running
 * jobs end (until), over the whole horizon when it is down, and during
 * its windows (sb_window_t, node.h: reservations, jobs planned on it).
 * Its busy set is the union of these, clipped to the horizon, as windows
 * sorted by start, disjoint and not touching (touching ones are merged:
 * fewer segments to walk). The plan of WILL_RUN (will_run.h) keeps one
 * per node and asks it: is the node free over [s, e), and where are its
 * free gaps?
 *
 *   sb_busy_set_build   O(k log k), k = windows + 1
 *   sb_busy_set_free    O(log r), r = windows of the set
 *   sb_busy_set_check   O(r)
 *   sb_busy_set_equal   O(r)
 *   sb_busy_set_fini    O(1)       NULL is fine
 */
#ifndef SB_BUSY_SET_H
#define SB_BUSY_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "node.h"	/* sb_window_t */

typedef struct {
	sb_window_t *w;		/* sorted, disjoint, not touching */
	size_t n;
} sb_busy_set_t;

/*
 * The busy set over [@base, @end) of a node busy until @until (<= base:
 * idle), down (busy throughout) or not, with windows @win[0..@nwin)
 * (any order, may overlap; parts outside the horizon are cut off), into
 * *@out (a new array the caller frees with sb_busy_set_fini(); w NULL
 * when the set is empty). Returns 0, or -1 with errno ENOMEM (*out then
 * empty).
 */
int sb_busy_set_build(int64_t base, int64_t end, int64_t until, bool down,
		      const sb_window_t *win, size_t nwin, sb_busy_set_t *out);

/* Whether no window of @b meets [@s, @e). O(log r). */
bool sb_busy_set_free(const sb_busy_set_t *b, int64_t s, int64_t e);

/*
 * 0 if @b's windows are non-empty, sorted, disjoint, not touching and in
 * [@base, @end); else -1 with errno EFAULT.
 */
int sb_busy_set_check(const sb_busy_set_t *b, int64_t base, int64_t end);

/* Whether @a and @b hold the same windows. */
bool sb_busy_set_equal(const sb_busy_set_t *a, const sb_busy_set_t *b);

/* Free @b's windows and empty it; NULL is fine. */
void sb_busy_set_fini(sb_busy_set_t *b);

#endif /* SB_BUSY_SET_H */
