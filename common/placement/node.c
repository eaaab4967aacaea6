/*
 * node.c - the node and request model used by buckets and placement.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "node.h"

int sb_node_init(sb_node_t *n, uint32_t index, const char *name)
{
	if (!n || !name || !*name) {
		errno = EINVAL;
		return -1;
	}
	memset(n, 0, sizeof(*n));
	if (!(n->name = strdup(name)))
		return -1;
	n->index = index;
	n->cpus = 1;
	n->sockets = n->cores = n->threads = 1;
	n->real_memory = 1;
	n->weight = 1;
	n->speed = 1.0;
	n->state = SB_NODE_IDLE;
	n->busy_until = SB_TIME_INFINITE;	/* a busy node stays busy */
	return 0;
}

static void _free_names(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void sb_node_fini(sb_node_t *n)
{
	size_t i;

	if (!n)
		return;
	free(n->name);
	_free_names(n->features, n->nfeatures);
	_free_names(n->partitions, n->npartitions);
	for (i = 0; i < n->ngres; i++)
		free(n->gres[i].name);
	free(n->gres);
	free(n->busy);
	memset(n, 0, sizeof(*n));
}

/* Insert a copy of s into the sorted set v[*n]; duplicates are no-ops. */
static int _add_name(char ***v, size_t *n, const char *s)
{
	size_t lo = 0, hi = *n, mid;
	char **nv, *copy;
	int c;

	if (!s || !*s) {
		errno = EINVAL;
		return -1;
	}
	while (lo < hi) {
		mid = (lo + hi) / 2;
		c = strcmp((*v)[mid], s);
		if (!c)
			return 0;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!(copy = strdup(s)))
		return -1;
	if (!(nv = realloc(*v, (*n + 1) * sizeof(*nv)))) {
		free(copy);
		return -1;
	}
	memmove(nv + lo + 1, nv + lo, (*n - lo) * sizeof(*nv));
	nv[lo] = copy;
	*v = nv;
	(*n)++;
	return 0;
}

int sb_node_add_feature(sb_node_t *n, const char *feature)
{
	if (!n) {
		errno = EINVAL;
		return -1;
	}
	return _add_name(&n->features, &n->nfeatures, feature);
}

int sb_node_add_partition(sb_node_t *n, const char *partition)
{
	if (!n) {
		errno = EINVAL;
		return -1;
	}
	return _add_name(&n->partitions, &n->npartitions, partition);
}

int sb_node_add_gres(sb_node_t *n, const char *name, uint64_t count)
{
	size_t i;
	sb_gres_t *g;
	char *copy;

	if (!n || !name || !*name) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < n->ngres; i++) {
		int c = strcmp(n->gres[i].name, name);

		if (!c) {
			n->gres[i].count = count;
			return 0;
		}
		if (c > 0)
			break;
	}
	if (!(copy = strdup(name)))
		return -1;
	if (!(g = realloc(n->gres, (n->ngres + 1) * sizeof(*g)))) {
		free(copy);
		return -1;
	}
	memmove(g + i + 1, g + i, (n->ngres - i) * sizeof(*g));
	g[i].name = copy;
	g[i].count = count;
	n->gres = g;
	n->ngres++;
	return 0;
}

int sb_node_add_busy(sb_node_t *n, int64_t start, int64_t end)
{
	size_t i, j, k;
	sb_window_t *w;

	if (!n || start >= end) {
		errno = EINVAL;
		return -1;
	}
	/* Grow first so that failure leaves the list as it was. */
	if (!(w = realloc(n->busy, (n->nbusy + 1) * sizeof(*w))))
		return -1;
	n->busy = w;
	/* Windows [i, j) overlap or touch the new one: merge them. */
	for (i = 0; i < n->nbusy && w[i].end < start; i++)
		;
	for (j = i; j < n->nbusy && w[j].start <= end; j++) {
		if (w[j].start < start)
			start = w[j].start;
		if (w[j].end > end)
			end = w[j].end;
	}
	if (j == i) {
		memmove(w + i + 1, w + i, (n->nbusy - i) * sizeof(*w));
		n->nbusy++;
	} else {
		k = j - i - 1;
		memmove(w + i + 1, w + j, (n->nbusy - j) * sizeof(*w));
		n->nbusy -= k;
	}
	w[i].start = start;
	w[i].end = end;
	return 0;
}

static int _sorted_unique(char *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!v[i] || !*v[i] || (i && strcmp(v[i - 1], v[i]) >= 0))
			return 0;
	return 1;
}

int sb_node_check(const sb_node_t *n)
{
	size_t i;

	if (!n) {
		errno = EINVAL;
		return -1;
	}
	if (!n->name || !*n->name || !n->cpus ||
	    !_sorted_unique(n->features, n->nfeatures) ||
	    !_sorted_unique(n->partitions, n->npartitions))
		goto broken;
	for (i = 0; i < n->ngres; i++)
		if (!n->gres[i].name || (i && strcmp(n->gres[i - 1].name,
						     n->gres[i].name) >= 0))
			goto broken;
	for (i = 0; i < n->nbusy; i++)
		if (n->busy[i].start >= n->busy[i].end ||
		    (i && n->busy[i - 1].end >= n->busy[i].start))
			goto broken;
	return 0;
broken:
	errno = EFAULT;
	return -1;
}

bool sb_node_usable(const sb_node_t *n)
{
	return n->state == SB_NODE_IDLE || n->state == SB_NODE_POWERED_DOWN;
}

sb_pool_t sb_node_pool(const sb_node_t *n, int64_t now, int64_t *next_start)
{
	size_t i;

	if (next_start)
		*next_start = SB_TIME_INFINITE;
	if (!sb_node_usable(n) || n->run_jobs)
		return SB_POOL_BUSY;
	/* Windows are sorted and disjoint: the first one not over is it. */
	for (i = 0; i < n->nbusy && n->busy[i].end <= now; i++)
		;
	if (i == n->nbusy)
		return SB_POOL_FREE;
	if (n->busy[i].start <= now)
		return SB_POOL_BUSY;
	if (next_start)
		*next_start = n->busy[i].start;
	return SB_POOL_LATER;
}

int sb_gres_parse(const char *s, sb_gres_t *g)
{
	const char *colon;
	uint64_t v = 1;
	size_t len;

	if (!s || !g || !*s || *s == ':') {
		errno = EINVAL;
		return -1;
	}
	len = strlen(s);
	colon = strrchr(s, ':');
	if (colon && colon[1] >= '0' && colon[1] <= '9') {
		if (sb_decimal_in(colon + 1, 1, UINT64_MAX, &v)) {
			errno = EINVAL;
			return -1;
		}
		len = (size_t) (colon - s);
	} else if (colon && !colon[1]) {
		errno = EINVAL;
		return -1;
	}
	if (!(g->name = strndup(s, len)))
		return -1;
	g->count = v;
	return 0;
}

void sb_request_init(sb_request_t *r)
{
	memset(r, 0, sizeof(*r));
	r->time_limit = SB_TIME_INFINITE;
}

void sb_request_fini(sb_request_t *r)
{
	size_t i, j;

	if (!r)
		return;
	for (i = 0; i < r->nchunks; i++) {
		for (j = 0; j < r->chunks[i].ngres; j++)
			free(r->chunks[i].gres[j].name);
		free(r->chunks[i].gres);
		sb_feat_expr_free(r->chunks[i].features);
	}
	free(r->chunks);
	for (i = 0; i < r->nmatch; i++)
		sb_feat_expr_free(r->match[i]);
	free(r->match);
	free(r->partition);
	sb_bitmap_free(r->required);
	sb_bitmap_free(r->excluded);
	for (i = 0; i < r->nprefer; i++)
		free(r->prefer[i]);
	free(r->prefer);
	sb_request_init(r);
}

int sb_request_add_prefer(sb_request_t *r, const char *feature)
{
	if (!r) {
		errno = EINVAL;
		return -1;
	}
	return _add_name(&r->prefer, &r->nprefer, feature);
}

sb_chunk_t *sb_request_add_chunk(sb_request_t *r, uint32_t count)
{
	sb_chunk_t *c;

	if (!r || !count) {
		errno = EINVAL;
		return NULL;
	}
	if (r->nchunks >= SB_MAX_CHUNKS) {
		errno = E2BIG;
		return NULL;
	}
	if (!(c = realloc(r->chunks, (r->nchunks + 1) * sizeof(*c))))
		return NULL;
	r->chunks = c;
	c += r->nchunks++;
	memset(c, 0, sizeof(*c));
	c->count = count;
	return c;
}

int sb_request_check(const sb_request_t *r, size_t nnodes)
{
	size_t i;

	if (!r || !r->nchunks || r->nchunks > SB_MAX_CHUNKS ||
	    r->time_limit < 0)
		goto bad;
	for (i = 0; i < r->nchunks; i++)
		if (!r->chunks[i].count)
			goto bad;
	if ((r->required && sb_bitmap_size(r->required) != nnodes) ||
	    (r->excluded && sb_bitmap_size(r->excluded) != nnodes))
		goto bad;
	if (r->required && r->excluded &&
	    sb_bitmap_intersects(r->required, r->excluded))
		goto bad;
	for (i = 0; i < r->nprefer; i++)
		if (!r->prefer[i] || !*r->prefer[i] ||
		    (i && strcmp(r->prefer[i - 1], r->prefer[i]) >= 0))
			goto bad;
	return 0;
bad:
	errno = EINVAL;
	return -1;
}

uint64_t sb_request_nodes(const sb_request_t *r)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < r->nchunks; i++)
		n += r->chunks[i].count;
	return n;
}

static int _cmp_name(const void *key, const void *elem)
{
	return strcmp((const char *) key, *(char *const *) elem);
}

static bool _has_name(char *const *v, size_t n, const char *s)
{
	return n && bsearch(s, v, n, sizeof(*v), _cmp_name);
}

/*
 * The names of @list as a sorted set of their own (*out, *nout), read
 * whole before @r changes: a list that fails adds nothing. Counts the
 * names new to @r, so that the limit is on the union.
 */
static int _prefer_list_read(const sb_request_t *r, const char *list,
			     char ***out, size_t *nout, size_t *errpos)
{
	size_t p = 0, len, total = r->nprefer;
	char name[256];

	for (;;) {
		len = sb_feat_name_len(list + p);
		if (!len || len >= sizeof(name) ||
		    (list[p + len] && list[p + len] != ',')) {
			*errpos = p + (len < sizeof(name) ? len : 0);
			errno = EINVAL;
			return -1;
		}
		memcpy(name, list + p, len);
		name[len] = '\0';
		if (!_has_name(r->prefer, r->nprefer, name) &&
		    !_has_name(*out, *nout, name)) {
			if (total == SB_MAX_PREFER) {
				*errpos = p;
				errno = E2BIG;
				return -1;
			}
			if (_add_name(out, nout, name) < 0)
				return -1;
			total++;
		}
		p += len;
		if (!list[p])
			return 0;
		p++;		/* the comma */
	}
}

int sb_request_add_prefer_list(sb_request_t *r, const char *list,
			       size_t *errpos)
{
	char **add = NULL, **all;
	size_t nadd = 0, i = 0, j = 0, n = 0, pos = 0;

	if (!r || !list || !*list) {
		if (errpos)
			*errpos = 0;
		errno = EINVAL;
		return -1;
	}
	/* bounded before it is read: no valid list is longer */
	if (strnlen(list, SB_PREFER_LIST_MAX + 1) > SB_PREFER_LIST_MAX) {
		if (errpos)
			*errpos = SB_PREFER_LIST_MAX;
		errno = E2BIG;
		return -1;
	}
	if (_prefer_list_read(r, list, &add, &nadd, &pos) < 0) {
		int saved = errno;

		_free_names(add, nadd);
		if (errpos)
			*errpos = pos;
		errno = saved;
		return -1;
	}
	if (!nadd)
		return 0;
	if (!(all = malloc((r->nprefer + nadd) * sizeof(*all)))) {
		_free_names(add, nadd);
		return -1;
	}
	/* merge two sorted sets with nothing in common */
	while (i < r->nprefer || j < nadd)
		all[n++] = (j == nadd || (i < r->nprefer &&
					  strcmp(r->prefer[i], add[j]) < 0)) ?
			r->prefer[i++] : add[j++];
	free(r->prefer);
	free(add);
	r->prefer = all;
	r->nprefer = n;
	return 0;
}

uint32_t sb_request_pref(const sb_request_t *r, const sb_node_t *n)
{
	uint32_t k = 0;
	size_t i;

	if (!r || !n || !n->nfeatures)
		return 0;
	for (i = 0; i < r->nprefer; i++)
		if (bsearch(r->prefer[i], n->features, n->nfeatures,
			    sizeof(*n->features), _cmp_name))
			k++;
	return k;
}

/*
 * How many of gres @name node @n has. An untyped name ("gpu") counts
 * every type of it ("gpu:a100", "gpu:v100"), as Slurm matches an
 * untyped request against typed node gres. O(G).
 */
static uint64_t _gres_count(const sb_node_t *n, const char *name)
{
	size_t i, len = strlen(name);
	int typed = strchr(name, ':') != NULL;
	uint64_t sum = 0;

	for (i = 0; i < n->ngres; i++) {
		const char *g = n->gres[i].name;

		if (!strcmp(g, name) ||
		    (!typed && !strncmp(g, name, len) && g[len] == ':'))
			sum += n->gres[i].count;
	}
	return sum;
}

int sb_chunk_match(const sb_node_t *n, const sb_request_t *r,
		   const sb_chunk_t *c, const sb_feat_expr_t *match)
{
	size_t i;

	if (n->cpus < c->min_cpus || n->real_memory < c->min_memory ||
	    n->tmp_disk < c->min_tmp)
		return 0;
	for (i = 0; i < c->ngres; i++)
		if (_gres_count(n, c->gres[i].name) < c->gres[i].count)
			return 0;
	if (r->partition &&
	    (!n->npartitions || !bsearch(r->partition, n->partitions,
					 n->npartitions, sizeof(char *),
					 _cmp_name)))
		return 0;
	return sb_feat_expr_eval(c->features, n->features, n->nfeatures) &&
	       sb_feat_expr_eval(match, n->features, n->nfeatures);
}
