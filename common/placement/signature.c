/*
 * signature.c - resource signatures: what makes two nodes interchangeable.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "signature.h"
#include "strbuf.h"

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

static uint64_t _mix(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ c[i]) * FNV_PRIME;
	return h;
}

static uint64_t _mix_u64(uint64_t h, uint64_t v)
{
	return _mix(h, &v, sizeof(v));
}

/* Strings end with their NUL so "ab","c" and "a","bc" differ. */
static uint64_t _mix_str(uint64_t h, const char *s)
{
	return _mix(h, s, strlen(s) + 1);
}

uint64_t sb_signature_hash(const sb_node_t *n)
{
	uint64_t h = FNV_OFFSET, bits;
	double sp;
	size_t i;

	h = _mix_u64(h, n->cpus);
	h = _mix_u64(h, n->sockets);
	h = _mix_u64(h, n->cores);
	h = _mix_u64(h, n->threads);
	h = _mix_u64(h, n->real_memory);
	h = _mix_u64(h, n->tmp_disk);
	h = _mix_u64(h, n->weight);
	/* Hash the bits of speed, with -0.0 folded into 0.0 as == does. */
	sp = n->speed == 0 ? 0.0 : n->speed;
	memcpy(&bits, &sp, sizeof(bits));
	h = _mix_u64(h, bits);
	h = _mix_u64(h, n->nfeatures);
	for (i = 0; i < n->nfeatures; i++)
		h = _mix_str(h, n->features[i]);
	h = _mix_u64(h, n->ngres);
	for (i = 0; i < n->ngres; i++) {
		h = _mix_str(h, n->gres[i].name);
		h = _mix_u64(h, n->gres[i].count);
	}
	h = _mix_u64(h, n->npartitions);
	for (i = 0; i < n->npartitions; i++)
		h = _mix_str(h, n->partitions[i]);
	return h;
}

static int _names_equal(char *const *a, char *const *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(a[i], b[i]))
			return 0;
	return 1;
}

int sb_signature_equal(const sb_node_t *a, const sb_node_t *b)
{
	size_t i;

	if (a->cpus != b->cpus || a->sockets != b->sockets ||
	    a->cores != b->cores || a->threads != b->threads ||
	    a->real_memory != b->real_memory || a->tmp_disk != b->tmp_disk ||
	    a->weight != b->weight || a->speed != b->speed ||
	    a->nfeatures != b->nfeatures || a->ngres != b->ngres ||
	    a->npartitions != b->npartitions)
		return 0;
	for (i = 0; i < a->ngres; i++)
		if (a->gres[i].count != b->gres[i].count ||
		    strcmp(a->gres[i].name, b->gres[i].name))
			return 0;
	return _names_equal(a->features, b->features, a->nfeatures) &&
	       _names_equal(a->partitions, b->partitions, a->npartitions);
}

static void _add_list(sb_strbuf_t *b, const char *key, char *const *v,
		      size_t n)
{
	size_t i;

	if (!n)
		return;
	sb_strbuf_add(b, key);
	for (i = 0; i < n; i++) {
		if (i)
			sb_strbuf_add(b, ",");
		sb_strbuf_add(b, v[i]);
	}
}

char *sb_signature_fmt(const sb_node_t *n)
{
	sb_strbuf_t b = SB_STRBUF_INIT;
	size_t i;

	if (!n) {
		errno = EINVAL;
		return NULL;
	}
	sb_strbuf_addf(&b,
		       "cpus=%u(%ux%ux%u) mem=%llu tmp=%llu weight=%u speed=%g",
		       (unsigned) n->cpus, (unsigned) n->sockets,
		       (unsigned) n->cores, (unsigned) n->threads,
		       (unsigned long long) n->real_memory,
		       (unsigned long long) n->tmp_disk, (unsigned) n->weight,
		       n->speed);
	_add_list(&b, " features=", n->features, n->nfeatures);
	for (i = 0; i < n->ngres; i++)
		sb_strbuf_addf(&b, "%s%s:%llu", i ? "," : " gres=",
			       n->gres[i].name,
			       (unsigned long long) n->gres[i].count);
	_add_list(&b, " partitions=", n->partitions, n->npartitions);
	return sb_strbuf_finish(&b);
}
