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
	sb_window_t *v;
	size_t n = 0, m = 0, i;

	out->w = NULL;
	out->n = 0;
	if (!(v = malloc((nwin + 1) * sizeof(*v)))) {
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
	if (!n) {
		free(v);
		return 0;
	}
	qsort(v, n, sizeof(*v), _win_cmp);
	for (i = 1; i < n; i++) {
		if (v[i].start <= v[m].end) {
			if (v[i].end > v[m].end)
				v[m].end = v[i].end;
		} else {
			v[++m] = v[i];
		}
	}
	out->w = v;
	out->n = m + 1;
	return 0;
}

bool sb_busy_set_free(const sb_busy_set_t *b, int64_t s, int64_t e)
{
	size_t lo = 0, hi = b->n;

	/* The first window ending after s is the only one that can hit. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (b->w[mid].end <= s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo == b->n || b->w[lo].start >= e;
}

int sb_busy_set_check(const sb_busy_set_t *b, int64_t base, int64_t end)
{
	size_t j;

	if (!b || (b->n && !b->w))
		goto bad;
	for (j = 0; j < b->n; j++)
		if (b->w[j].start >= b->w[j].end || b->w[j].start < base ||
		    b->w[j].end > end ||
		    (j && b->w[j - 1].end >= b->w[j].start))
			goto bad;
	return 0;
bad:
	errno = EFAULT;
	return -1;
}

bool sb_busy_set_equal(const sb_busy_set_t *a, const sb_busy_set_t *b)
{
	return a->n == b->n &&
	       (!a->n || !memcmp(a->w, b->w, a->n * sizeof(*a->w)));
}

void sb_busy_set_fini(sb_busy_set_t *b)
{
	if (!b)
		return;
	free(b->w);
	b->w = NULL;
	b->n = 0;
}
