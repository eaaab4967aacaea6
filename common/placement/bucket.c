/*
 * bucket.c - node buckets: nodes with one signature, split into pools.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Signatures are found through an open-addressing hash table while the
 * set is built (OpenPBS scans its bucket list linearly per node, which
 * is O(N B); hashing keeps the build linear when buckets are many).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bucket.h"
#include "signature.h"

#define NPOOLS 3

typedef struct {
	size_t first;			/* lowest node index */
	size_t total;
	sb_bitmap_t *all;
	sb_bitmap_t *truth[NPOOLS];
	size_t count[NPOOLS];
	sb_bitmap_t *work[NPOOLS];	/* NULL until the first reset */
} _bucket_t;

struct sb_bucket_set {
	const sb_node_t *nodes;
	size_t n;
	int64_t now;
	size_t nb;
	_bucket_t *b;
	size_t *node_bucket;
	unsigned char *node_pool;
	int64_t *next_start;
	sb_bitmap_t *timed;		/* nodes with busy windows */
};

static void _bucket_free(_bucket_t *b)
{
	int p;

	sb_bitmap_free(b->all);
	for (p = 0; p < NPOOLS; p++) {
		sb_bitmap_free(b->truth[p]);
		sb_bitmap_free(b->work[p]);
	}
}

void sb_bucket_set_destroy(sb_bucket_set_t *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nb; i++)
		_bucket_free(&s->b[i]);
	free(s->b);
	free(s->node_bucket);
	free(s->node_pool);
	free(s->next_start);
	sb_bitmap_free(s->timed);
	free(s);
}

static int _bucket_new(sb_bucket_set_t *s, size_t first)
{
	_bucket_t *b;
	int p;

	/* s->b has room for n buckets: one per node at worst. */
	b = &s->b[s->nb];
	memset(b, 0, sizeof(*b));
	b->first = first;
	if (!(b->all = sb_bitmap_alloc(s->n)))
		return -1;
	for (p = 0; p < NPOOLS; p++)
		if (!(b->truth[p] = sb_bitmap_alloc(s->n))) {
			_bucket_free(b);
			return -1;
		}
	s->nb++;
	return 0;
}

sb_bucket_set_t *sb_bucket_set_create(const sb_node_t *nodes, size_t n,
				      int64_t now)
{
	sb_bucket_set_t *s;
	size_t cap = 16, i, slot, *table = NULL;
	uint64_t *hashes = NULL, h;
	const size_t empty = (size_t) -1;

	if (!nodes && n) {
		errno = EINVAL;
		return NULL;
	}
	for (i = 0; i < n; i++)
		if (nodes[i].index != i) {
			errno = EINVAL;
			return NULL;
		}
	if (!(s = calloc(1, sizeof(*s))))
		return NULL;
	s->nodes = nodes;
	s->n = n;
	s->now = now;
	while (cap < 2 * n)
		cap *= 2;
	if (!(s->b = malloc((n ? n : 1) * sizeof(*s->b))) ||
	    !(s->node_bucket = malloc((n ? n : 1) * sizeof(size_t))) ||
	    !(s->node_pool = malloc(n ? n : 1)) ||
	    !(s->next_start = malloc((n ? n : 1) * sizeof(int64_t))) ||
	    !(s->timed = sb_bitmap_alloc(n)) ||
	    !(table = malloc(cap * sizeof(size_t))) ||
	    !(hashes = malloc(cap * sizeof(uint64_t))))
		goto fail;
	for (i = 0; i < cap; i++)
		table[i] = empty;
	for (i = 0; i < n; i++) {
		h = sb_signature_hash(&nodes[i]);
		for (slot = h & (cap - 1); table[slot] != empty;
		     slot = (slot + 1) & (cap - 1))
			if (hashes[slot] == h &&
			    sb_signature_equal(&nodes[s->b[table[slot]].first],
					       &nodes[i]))
				break;
		if (table[slot] == empty) {
			if (_bucket_new(s, i))
				goto fail;
			table[slot] = s->nb - 1;
			hashes[slot] = h;
		}
		s->node_bucket[i] = table[slot];
		s->b[table[slot]].total++;
		sb_bitmap_set(s->b[table[slot]].all, i);
		s->node_pool[i] = SB_POOL_BUSY;
		s->next_start[i] = SB_TIME_INFINITE;
		sb_bitmap_set(s->b[table[slot]].truth[SB_POOL_BUSY], i);
		s->b[table[slot]].count[SB_POOL_BUSY]++;
		sb_bucket_set_update(s, i);
	}
	free(table);
	free(hashes);
	return s;
fail:
	free(table);
	free(hashes);
	sb_bucket_set_destroy(s);
	errno = ENOMEM;
	return NULL;
}

size_t sb_bucket_set_size(const sb_bucket_set_t *s)
{
	return s ? s->nb : 0;
}

size_t sb_bucket_set_nodes(const sb_bucket_set_t *s)
{
	return s ? s->n : 0;
}

int64_t sb_bucket_set_now(const sb_bucket_set_t *s)
{
	return s->now;
}

const sb_node_t *sb_bucket_set_node_array(const sb_bucket_set_t *s)
{
	return s->nodes;
}

int sb_bucket_set_update(sb_bucket_set_t *s, size_t idx)
{
	_bucket_t *b;
	sb_pool_t old, new;

	if (!s || idx >= s->n) {
		errno = ERANGE;
		return -1;
	}
	b = &s->b[s->node_bucket[idx]];
	if (s->nodes[idx].nbusy)
		sb_bitmap_set(s->timed, idx);
	else
		sb_bitmap_clear(s->timed, idx);
	old = (sb_pool_t) s->node_pool[idx];
	new = sb_node_pool(&s->nodes[idx], s->now, &s->next_start[idx]);
	if (old == new)
		return 0;
	sb_bitmap_clear(b->truth[old], idx);
	b->count[old]--;
	sb_bitmap_set(b->truth[new], idx);
	b->count[new]++;
	s->node_pool[idx] = (unsigned char) new;
	return 0;
}

int sb_bucket_set_set_now(sb_bucket_set_t *s, int64_t now)
{
	int64_t i;

	if (!s) {
		errno = EINVAL;
		return -1;
	}
	s->now = now;
	/* Only a node with windows can change pool when time moves. */
	for (i = sb_bitmap_first_set(s->timed); i >= 0;
	     i = sb_bitmap_next_set(s->timed, (size_t) i + 1))
		sb_bucket_set_update(s, (size_t) i);
	return 0;
}

size_t sb_bucket_of(const sb_bucket_set_t *s, size_t idx)
{
	return s->node_bucket[idx];
}

sb_pool_t sb_bucket_node_pool(const sb_bucket_set_t *s, size_t idx)
{
	return (sb_pool_t) s->node_pool[idx];
}

int64_t sb_bucket_next_start(const sb_bucket_set_t *s, size_t idx)
{
	return s->next_start[idx];
}

const sb_node_t *sb_bucket_rep(const sb_bucket_set_t *s, size_t b)
{
	return &s->nodes[s->b[b].first];
}

const sb_bitmap_t *sb_bucket_all(const sb_bucket_set_t *s, size_t b)
{
	return s->b[b].all;
}

size_t sb_bucket_total(const sb_bucket_set_t *s, size_t b)
{
	return s->b[b].total;
}

const sb_bitmap_t *sb_bucket_pool(const sb_bucket_set_t *s, size_t b,
				  sb_pool_t pool)
{
	return s->b[b].truth[pool];
}

size_t sb_bucket_count(const sb_bucket_set_t *s, size_t b, sb_pool_t pool)
{
	return s->b[b].count[pool];
}

int sb_bucket_working_reset(sb_bucket_set_t *s, size_t b)
{
	_bucket_t *k = &s->b[b];
	int p;

	for (p = 0; p < NPOOLS; p++) {
		if (!k->work[p] && !(k->work[p] = sb_bitmap_dup(k->truth[p])))
			return -1;
		sb_bitmap_copy(k->work[p], k->truth[p]);
	}
	return 0;
}

sb_bitmap_t *sb_bucket_working(sb_bucket_set_t *s, size_t b,
			       sb_pool_t pool)
{
	return s->b[b].work[pool];
}

int sb_bucket_set_check(const sb_bucket_set_t *s)
{
	size_t i, k, seen = 0;
	int p;
	int64_t ns;

	if (!s) {
		errno = EINVAL;
		return -1;
	}
	for (k = 0; k < s->nb; k++) {
		const _bucket_t *b = &s->b[k];
		size_t sum = 0;

		if (sb_bitmap_check(b->all) ||
		    sb_bitmap_count(b->all) != b->total ||
		    sb_bitmap_first_set(b->all) != (int64_t) b->first ||
		    (k && b->first <= s->b[k - 1].first))
			goto broken;
		for (p = 0; p < NPOOLS; p++) {
			if (sb_bitmap_check(b->truth[p]) ||
			    sb_bitmap_count(b->truth[p]) != b->count[p] ||
			    sb_bitmap_subset(b->truth[p], b->all) != 1)
				goto broken;
			sum += b->count[p];
			/* Pools are disjoint: each pair shares nothing. */
			if (sb_bitmap_intersects(b->truth[p],
						 b->truth[(p + 1) % NPOOLS]))
				goto broken;
			if (b->work[p] && sb_bitmap_check(b->work[p]))
				goto broken;
		}
		if (sum != b->total)
			goto broken;
		seen += b->total;
	}
	if (seen != s->n)
		goto broken;
	for (i = 0; i < s->n; i++) {
		const _bucket_t *b = &s->b[s->node_bucket[i]];

		if (sb_bitmap_test(s->timed, i) != (s->nodes[i].nbusy > 0) ||
		    sb_bitmap_test(b->all, i) != 1 ||
		    sb_bitmap_test(b->truth[s->node_pool[i]], i) != 1 ||
		    !sb_signature_equal(&s->nodes[b->first], &s->nodes[i]) ||
		    sb_node_pool(&s->nodes[i], s->now, &ns) !=
		    (sb_pool_t) s->node_pool[i] || ns != s->next_start[i])
			goto broken;
	}
	return 0;
broken:
	errno = EFAULT;
	return -1;
}
