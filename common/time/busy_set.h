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
 * Most nodes of a plan have no window: idle ones have an empty set, busy
 * or down ones a single window. A set of one window keeps it inline, and
 * building a set without windows allocates nothing, so building and
 * freeing the sets of a 10,000-node plan does not make 10,000
 * allocations; only sets of two windows or more are on the heap.
 *
 *   sb_busy_set_build   O(k log k), k = windows + 1; no allocation
 *                       without windows
 *   sb_busy_set_windows O(1)
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

/*
 * n windows, sorted, disjoint, not touching: read them through
 * sb_busy_set_windows(). With one window it is @one and @w is NULL;
 * with two or more they are @w (the heap). No pointer into the struct
 * itself: a plain copy moves a set (the copy then owns @w).
 */
typedef struct {
	size_t n;
	sb_window_t *w;		/* n >= 2: the windows; else NULL */
	sb_window_t one;	/* n == 1: the window */
} sb_busy_set_t;

/*
 * The busy set over [@base, @end) of a node busy until @until (<= base:
 * idle), down (busy throughout) or not, with windows @win[0..@nwin)
 * (any order, may overlap; parts outside the horizon are cut off), into
 * *@out, which the caller frees with sb_busy_set_fini(). Returns 0, or
 * -1 with errno ENOMEM (*out then empty; only possible with @nwin > 0).
 */
int sb_busy_set_build(int64_t base, int64_t end, int64_t until, bool down,
		      const sb_window_t *win, size_t nwin, sb_busy_set_t *out);

/*
 * @b's windows, b->n of them, in order; NULL when there is none. Valid
 * until @b is finished or moved. O(1).
 */
static inline const sb_window_t *sb_busy_set_windows(const sb_busy_set_t *b)
{
	return b->n == 1 ? &b->one : b->w;
}

/* Whether no window of @b meets [@s, @e). O(log r). */
bool sb_busy_set_free(const sb_busy_set_t *b, int64_t s, int64_t e);

/*
 * 0 if @b's windows are non-empty, sorted, disjoint, not touching and in
 * [@base, @end), and stored where the type says (inline for one, on the
 * heap for more); else -1 with errno EFAULT.
 */
int sb_busy_set_check(const sb_busy_set_t *b, int64_t base, int64_t end);

/* Whether @a and @b hold the same windows. */
bool sb_busy_set_equal(const sb_busy_set_t *a, const sb_busy_set_t *b);

/* Free @b's windows and empty it; NULL is fine. O(1). */
void sb_busy_set_fini(sb_busy_set_t *b);

#endif /* SB_BUSY_SET_H */
