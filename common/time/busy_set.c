/*
 * busy_set.c - when one node cannot be used (see busy_set.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "busy_set.h"

static int _win_cmp(const void *a, const void *b)
{
	const sb_window_t *x = a, *y = b;

	if (x->start != y->start)
		return (x->start > y->start) - (x->start < y->start);
	return (x->end > y->end) - (x->end < y->end);
}

int sb_busy_set_build(int64_t base, int64_t end, int64_t until, bool down,
		      const sb_window_t *win, size_t nwin, sb_busy_set_t *out)
{
	sb_window_t lone, *v = &lone;
	size_t n = 0, m = 0, i;

	memset(out, 0, sizeof(*out));
	/* Without windows there is one at most: no scratch array. */
	if (nwin && !(v = malloc((nwin + 1) * sizeof(*v)))) {
		errno = ENOMEM;
		return -1;
	}
	if (down) {
		v[n++] = (sb_window_t) { base, end };
	} else {
		if (until > base)
			v[n++] = (sb_window_t) { base,
				until < end ? until : end };
		for (i = 0; i < nwin; i++) {
			int64_t s = win[i].start < base ? base : win[i].start;
			int64_t e = win[i].end < end ? win[i].end : end;

			if (s < e)
				v[n++] = (sb_window_t) { s, e };
		}
	}
	if (n > 1) {
		qsort(v, n, sizeof(*v), _win_cmp);
		for (i = 1; i < n; i++) {
			if (v[i].start <= v[m].end) {
				if (v[i].end > v[m].end)
					v[m].end = v[i].end;
			} else {
				v[++m] = v[i];
			}
		}
		n = m + 1;
	}
	out->n = n;
	if (n == 1)
		out->one = v[0];
	else if (n > 1)
		out->w = v;
	if (v != &lone && v != out->w)
		free(v);
	return 0;
}

bool sb_busy_set_free(const sb_busy_set_t *b, int64_t s, int64_t e)
{
	const sb_window_t *w = sb_busy_set_windows(b);
	size_t lo = 0, hi = b->n;

	/* The first window ending after s is the only one that can hit. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (w[mid].end <= s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo == b->n || w[lo].start >= e;
}

int sb_busy_set_check(const sb_busy_set_t *b, int64_t base, int64_t end)
{
	const sb_window_t *w;
	size_t j;

	if (!b || (b->n >= 2) != (b->w != NULL))
		goto bad;
	w = sb_busy_set_windows(b);
	for (j = 0; j < b->n; j++)
		if (w[j].start >= w[j].end || w[j].start < base ||
		    w[j].end > end || (j && w[j - 1].end >= w[j].start))
			goto bad;
	return 0;
bad:
	errno = EFAULT;
	return -1;
}

bool sb_busy_set_equal(const sb_busy_set_t *a, const sb_busy_set_t *b)
{
	return a->n == b->n &&
	       (!a->n || !memcmp(sb_busy_set_windows(a), sb_busy_set_windows(b),
				 a->n * sizeof(*a->w)));
}

void sb_busy_set_fini(sb_busy_set_t *b)
{
	if (!b)
		return;
	free(b->w);
	memset(b, 0, sizeof(*b));
}
