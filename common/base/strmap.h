/*
 * strmap.h - a map from strings to indices: find a job by its id, a limit
 * by its key, among 100,000 without comparing every one.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Open addressing with linear probing over a power-of-two table kept at
 * most half full; the map copies its keys. Values are size_t (an index
 * into the caller's array); SIZE_MAX is "absent" and cannot be stored.
 *
 * Operations (n keys, L the key's length):
 *   sb_strmap_create   O(1)
 *   sb_strmap_destroy  O(n)       NULL is fine
 *   sb_strmap_put      O(L) expected, amortised (the table doubles)
 *   sb_strmap_get      O(L) expected
 *   sb_strmap_count    O(1)
 *
 * Errors: -1 (or SIZE_MAX, NULL) with errno; a failed call changes
 * nothing. Not thread-safe; readers may share a map no one modifies.
 */
#ifndef SB_STRMAP_H
#define SB_STRMAP_H

#include <stddef.h>

typedef struct sb_strmap sb_strmap_t;

/* A new empty map, or NULL with errno ENOMEM. */
sb_strmap_t *sb_strmap_create(void);

/* Free @m and its keys; NULL is accepted and ignored. */
void sb_strmap_destroy(sb_strmap_t *m);

/*
 * Map @key to @val, replacing the value of a key already there. Returns
 * 0, or -1 with errno EINVAL (m or key NULL, val SIZE_MAX) or ENOMEM.
 */
int sb_strmap_put(sb_strmap_t *m, const char *key, size_t val);

/*
 * The value of @key, or SIZE_MAX with errno ENOENT (absent) or EINVAL
 * (m or key NULL).
 */
size_t sb_strmap_get(const sb_strmap_t *m, const char *key);

/* How many keys @m holds (0 for NULL). */
size_t sb_strmap_count(const sb_strmap_t *m);

#endif /* SB_STRMAP_H */
