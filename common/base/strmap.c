/*
 * strmap.c - a map from strings to indices (strmap.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strmap.h"

struct sb_strmap {
	char **key;		/* NULL: an empty slot */
	size_t *val;
	size_t cap;		/* 0 or a power of two */
	size_t n;
};

/* FNV-1a: short keys ("12345", "q|normal|grp|cpu") spread well. */
static uint64_t _hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char) *s) * 1099511628211ULL;
	return h;
}

/* The slot of @key, or the empty slot where it would go. */
static size_t _slot(char *const *key, size_t cap, const char *k)
{
	size_t i;

	for (i = _hash(k) & (cap - 1); key[i] && strcmp(key[i], k);
	     i = (i + 1) & (cap - 1))
		;
	return i;
}

sb_strmap_t *sb_strmap_create(void)
{
	sb_strmap_t *m = calloc(1, sizeof(*m));

	if (!m)
		errno = ENOMEM;
	return m;
}

void sb_strmap_destroy(sb_strmap_t *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->cap; i++)
		free(m->key[i]);
	free(m->key);
	free(m->val);
	free(m);
}

/* Double the table (or make the first one); -1 when out of memory. */
static int _grow(sb_strmap_t *m)
{
	size_t cap = m->cap ? 2 * m->cap : 64, i, k;
	char **key = calloc(cap, sizeof(*key));
	size_t *val = calloc(cap, sizeof(*val));

	if (!key || !val) {
		free(key);
		free(val);
		return -1;
	}
	for (i = 0; i < m->cap; i++) {
		if (!m->key[i])
			continue;
		k = _slot(key, cap, m->key[i]);
		key[k] = m->key[i];
		val[k] = m->val[i];
	}
	free(m->key);
	free(m->val);
	m->key = key;
	m->val = val;
	m->cap = cap;
	return 0;
}

int sb_strmap_put(sb_strmap_t *m, const char *key, size_t val)
{
	size_t i;
	char *k;

	if (!m || !key || val == SIZE_MAX) {
		errno = EINVAL;
		return -1;
	}
	if (m->cap) {
		i = _slot(m->key, m->cap, key);
		if (m->key[i]) {
			m->val[i] = val;
			return 0;
		}
	}
	/* at most half full keeps probes short */
	if ((2 * (m->n + 1) > m->cap && _grow(m) < 0) || !(k = strdup(key))) {
		errno = ENOMEM;
		return -1;
	}
	i = _slot(m->key, m->cap, key);
	m->key[i] = k;
	m->val[i] = val;
	m->n++;
	return 0;
}

size_t sb_strmap_get(const sb_strmap_t *m, const char *key)
{
	size_t i;

	if (!m || !key) {
		errno = EINVAL;
		return SIZE_MAX;
	}
	if (!m->cap || !m->key[i = _slot(m->key, m->cap, key)]) {
		errno = ENOENT;
		return SIZE_MAX;
	}
	return m->val[i];
}

size_t sb_strmap_count(const sb_strmap_t *m)
{
	return m ? m->n : 0;
}
