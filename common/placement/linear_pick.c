/*
 * linear_pick.c - select/linear's choice of whole nodes (linear_pick.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The runs are found again from @usable minus what was taken at each
 * round: a job takes one run whole unless it is the last, so rounds are
 * few (the runs it spans), and no table of runs needs keeping.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "linear_pick.h"

int sb_linear_pick(const sb_bitmap_t *usable, size_t count, sb_bitmap_t *out)
{
	size_t n, need = count;

	if (!usable || !out || !count ||
	    sb_bitmap_size(usable) != sb_bitmap_size(out)) {
		errno = EINVAL;
		return -1;
	}
	sb_bitmap_clear_all(out);
	if (sb_bitmap_count(usable) < count)
		return 0;
	n = sb_bitmap_size(usable);
	while (need) {
		/* the best run of usable nodes not taken yet: [bs, bs+bl) */
		int64_t i = sb_bitmap_first_set(usable), bs = -1;
		size_t bl = 0;
		bool bsuff = false;

		while (i >= 0) {
			size_t s = (size_t) i, e = s;
			bool suff;

			while (e < n && sb_bitmap_test(usable, e) &&
			       !sb_bitmap_test(out, e))
				e++;
			if (e == s) {	/* taken: the next untaken one */
				i = sb_bitmap_next_set(usable, s + 1);
				continue;
			}
			suff = e - s >= need;
			if (bs < 0 || (suff && !bsuff) ||
			    (suff && e - s < bl) || (!suff && !bsuff &&
						     e - s > bl)) {
				bs = (int64_t) s;
				bl = e - s;
				bsuff = suff;
			}
			i = e < n ? sb_bitmap_next_set(usable, e) : -1;
		}
		if (bs < 0)
			break;	/* cannot happen: the count was checked */
		if (bl > need)
			bl = need;
		if (sb_bitmap_set_range(out, (size_t) bs,
					(size_t) bs + bl - 1) < 0)
			return -1;
		need -= bl;
	}
	return 1;
}
