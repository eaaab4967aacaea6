/*
 * node.h - the node and request model used by buckets and placement.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Nodes and requests are plain structs: the select plugin fills them from
 * Slurm's node_record_t / job_record_t, the CLI from its input files. The
 * arrays they point to are owned by the struct and released by
 * sb_node_fini() / sb_request_fini().
 *
 * Operations:
 *   sb_node_init / fini             O(1) / O(size)
 *   sb_node_add_feature             O(F)   keeps features sorted, unique
 *   sb_node_add_gres                O(G)   keeps gres sorted by name
 *   sb_node_add_partition           O(P)
 *   sb_node_add_busy                O(W)   keeps windows sorted, disjoint
 *   sb_node_check                   O(F + G + P + W)
 *   sb_node_pool                    O(W)   free / busy-later / busy at now
 *   sb_node_usable                  O(1)
 *   sb_chunk_match                  O(expr log F + G * gres + log P)
 *   sb_request_init / fini / check  O(1) / O(size) / O(chunks)
 *   sb_request_add_chunk            O(1) amortised
 *   sb_request_add_prefer           O(P)   keeps preferences sorted, unique
 *   sb_request_pref                 O(P log F)
 *   sb_gres_parse                   O(len)
 *
 * Memory, tmp disk: MB. Times: int64_t seconds, SB_TIME_INFINITE for
 * "no limit"; sums clamp at SB_TIME_INFINITE instead of wrapping.
 */
#ifndef SB_NODE_H
#define SB_NODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sb_time.h"

#include "bitmap.h"
#include "node_feature.h"


typedef enum {
	SB_NODE_IDLE,
	SB_NODE_ALLOCATED,
	SB_NODE_DOWN,
	SB_NODE_DRAINED,
	SB_NODE_POWERED_DOWN,	/* idle, powered off: Slurm allocates it */
} sb_node_state_t;

/* The three pools of the bucket model. */
typedef enum {
	SB_POOL_FREE,		/* usable now, no future busy window */
	SB_POOL_LATER,		/* usable now, a busy window later */
	SB_POOL_BUSY,		/* anything else */
} sb_pool_t;

/* A reservation or calendared job on a node: busy in [start, end). */
typedef struct {
	int64_t start, end;
} sb_window_t;

/* A generic resource: name (may contain a type, "gpu:a100") and count. */
typedef struct {
	char *name;
	uint64_t count;
} sb_gres_t;

typedef struct {
	uint32_t index;			/* bit position in bitmaps */
	char *name;
	uint32_t cpus;			/* usable CPUs */
	uint16_t sockets, cores, threads; /* per node, per socket, per core */
	uint64_t real_memory;		/* MB */
	uint64_t tmp_disk;		/* MB */
	char **features;		/* sorted by strcmp, unique */
	size_t nfeatures;
	sb_gres_t *gres;		/* sorted by name, unique */
	size_t ngres;
	uint32_t weight;		/* lower is allocated first */
	char **partitions;		/* sorted, unique */
	size_t npartitions;
	double speed;			/* relative speed, default 1.0 */
	/* Dynamic state. */
	sb_node_state_t state;
	double load;			/* 1-minute load average */
	uint32_t run_jobs;
	int64_t busy_until;		/* when a busy node's jobs end, or
					 * SB_TIME_INFINITE (unknown) */
	sb_window_t *busy;		/* sorted by start, disjoint */
	size_t nbusy;
} sb_node_t;

/*
 * Zero @n and set Slurm's defaults (1 CPU, 1 socket/core/thread, 1 MB,
 * weight 1, speed 1.0, idle). @name is copied. Returns 0, or -1 with
 * errno EINVAL (NULL argument) or ENOMEM.
 */
int sb_node_init(sb_node_t *n, uint32_t index, const char *name);

/* Free what @n owns and zero it. NULL is fine. */
void sb_node_fini(sb_node_t *n);

/*
 * Add a feature / partition name (duplicates are ignored), a gres
 * (a repeated name replaces the count), a busy window [start, end)
 * (overlapping or touching windows are merged). Return 0, or -1 with
 * errno EINVAL (NULL/empty name, start >= end) or ENOMEM.
 */
int sb_node_add_feature(sb_node_t *n, const char *feature);
int sb_node_add_partition(sb_node_t *n, const char *partition);
int sb_node_add_gres(sb_node_t *n, const char *name, uint64_t count);
int sb_node_add_busy(sb_node_t *n, int64_t start, int64_t end);

/*
 * Verify @n: a name, CPUs > 0, sorted unique features / partitions /
 * gres, sorted disjoint windows with start < end. 0, or -1 with errno
 * EFAULT (EINVAL for NULL).
 */
int sb_node_check(const sb_node_t *n);

/* true if the state lets a job start on the node now (idle, powered down). */
bool sb_node_usable(const sb_node_t *n);

/*
 * Which pool @n is in at time @now: BUSY if not usable, running jobs, or
 * a window covers @now; LATER if a window starts after @now (and
 * *next_start, if not NULL, gets the earliest such start); else FREE
 * (*next_start = SB_TIME_INFINITE). O(W).
 */
sb_pool_t sb_node_pool(const sb_node_t *n, int64_t now, int64_t *next_start);


/*
 * Parse a gres spec "name[:type]:count" or "name[:type]" (count 1) into
 * *g (name copied). Returns 0, or -1 with errno EINVAL (empty name,
 * count not a positive integer) or ENOMEM.
 */
int sb_gres_parse(const char *s, sb_gres_t *g);

/* One chunk of a request: @count nodes, each meeting every minimum. */
typedef struct {
	uint32_t count;
	uint32_t min_cpus;
	uint64_t min_memory;		/* MB */
	uint64_t min_tmp;		/* MB */
	sb_gres_t *gres;		/* per node */
	size_t ngres;
	sb_feat_expr_t *features;	/* NULL: any node */
} sb_chunk_t;

/* Requests have at most this many chunks (chunk sets are 64-bit masks). */
#define SB_MAX_CHUNKS 64

typedef struct {
	sb_chunk_t *chunks;
	size_t nchunks;
	/*
	 * Slurm's matching OR "[a|b]": when nmatch > 0 every node of the
	 * job satisfies the same match[i] as well as its chunk's features.
	 */
	sb_feat_expr_t **match;
	size_t nmatch;
	char *partition;		/* NULL: any partition */
	int64_t time_limit;		/* seconds, SB_TIME_INFINITE */
	sb_bitmap_t *required;		/* NULL: none; must all be used */
	sb_bitmap_t *excluded;		/* NULL: none */
	bool contiguous;
	bool exclusive;
	/*
	 * Features the job prefers but does not require (Maui's PREF):
	 * they order nodes (policy.h), never exclude one. Sorted, unique.
	 */
	char **prefer;
	size_t nprefer;
} sb_request_t;

/* Zero @r, time limit infinite. */
void sb_request_init(sb_request_t *r);

/* Free what @r owns (chunks, expressions, bitmaps) and zero it. */
void sb_request_fini(sb_request_t *r);

/*
 * Append a zeroed chunk of @count nodes; returns it (owned by @r), or
 * NULL with errno EINVAL (count 0) / E2BIG (SB_MAX_CHUNKS) / ENOMEM.
 */
sb_chunk_t *sb_request_add_chunk(sb_request_t *r, uint32_t count);

/*
 * Add feature @feature to the job's preferences (a repeated name is a
 * no-op). Returns 0, or -1 with errno EINVAL (NULL, empty) or ENOMEM.
 */
int sb_request_add_prefer(sb_request_t *r, const char *feature);

/* At most this many preferred features a job. */
#define SB_MAX_PREFER 64

/*
 * The longest list sb_request_add_prefer_list() reads: SB_MAX_PREFER
 * names of 255 characters and their commas. A caller that takes a list
 * from a user (a job's BUCKET_PREFER) bounds it by this before anything
 * else.
 */
#define SB_PREFER_LIST_MAX (SB_MAX_PREFER * 256 - 1)

/*
 * Add the comma-separated feature names of @list ("fast,ssd") to @r's
 * preferences, all or none: a list that fails adds no name (a list
 * that does not parse orders nothing, not the names before the fault).
 * Returns 0, or -1 with errno EINVAL (an empty list or name, a name of
 * 256 characters or more, a character that is no name's), E2BIG (more
 * than SB_PREFER_LIST_MAX bytes, checked before the list is read, or
 * more than SB_MAX_PREFER names with @r's own) or ENOMEM; *errpos, when
 * not NULL, is then the offset of the offending character
 * (SB_PREFER_LIST_MAX for a list too long). O(len + P log P).
 */
int sb_request_add_prefer_list(sb_request_t *r, const char *list,
			       size_t *errpos);

/* How many of @r's preferred features node @n has (Maui's PREF). */
uint32_t sb_request_pref(const sb_request_t *r, const sb_node_t *n);

/*
 * Verify @r against a cluster of @nnodes nodes: 1..SB_MAX_CHUNKS chunks
 * of count >= 1, required/excluded bitmaps of @nnodes bits and disjoint,
 * preferences sorted, unique and not empty. 0, or -1 with errno EINVAL.
 */
int sb_request_check(const sb_request_t *r, size_t nnodes);

/* Total nodes over all chunks. */
uint64_t sb_request_nodes(const sb_request_t *r);

/*
 * 1 if node @n satisfies chunk @c of request @r statically (CPUs,
 * memory, tmp disk, gres, features, partition, and @match when not
 * NULL), ignoring its state; else 0. An untyped gres request ("gpu:2")
 * is met by the node's gres of that name summed over types.
 */
int sb_chunk_match(const sb_node_t *n, const sb_request_t *r,
		   const sb_chunk_t *c, const sb_feat_expr_t *match);

#endif /* SB_NODE_H */
