/*
 * policy.h - Maui node allocation policies, with Slurm's node Weight.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Defined from Maui's documentation (3.x, section 5.2), not its code.
 * Every policy is an order on candidate nodes; Slurm's node Weight is the
 * primary key (lower first) unless the policy is PRIORITY with a
 * PRIORITYF that uses WEIGHT, and the node index is the last tie-break.
 *
 *   FIRSTAVAILABLE  index order ("the order the resource manager reports")
 *   LASTAVAILABLE   best fit in time: nodes whose free time left after the
 *                   job ends (next busy window start - job end) is the
 *                   smallest come first; nodes with no window come last
 *   MINRESOURCE     fewest configured resources first: CPUs, then memory,
 *                   then tmp disk, then total gres count
 *   CPULOAD         most unused CPU power first: CPUs - load, highest first
 *   CONTIGUOUS      nodes in one block of consecutive indices; of the
 *                   blocks that work, the one with the lowest total weight,
 *                   then the lowest index (placement enumerates blocks)
 *   MAXBALANCE      the set with the smallest speed span (max - min speed);
 *                   ties go to the slowest set, as Maui fills from the
 *                   slowest. Weight stays primary: the lowest weight tier
 *                   that can hold the job is used (placement enumerates)
 *   FASTEST         highest speed first
 *   PRIORITY        highest PRIORITYF value first (priorityf.h)
 *
 * Preferences (Maui's PREF, the job's --bucket-prefer features): right
 * after Weight, nodes with more of the job's preferred features come
 * first, then the policy's own order; under PRIORITY with a PRIORITYF
 * that uses PREF, the expression weighs them instead. A preference only
 * orders nodes: it never excludes one (sb_request_pref()).
 *
 * Static policies (FIRSTAVAILABLE, MINRESOURCE, FASTEST, PRIORITY with a
 * static PRIORITYF) depend only on signature attributes, so they order
 * buckets and the bucket path can serve them (nodes within a bucket go
 * by index, busy-later first). The others need a per-job node order.
 *
 * Operations:
 *   sb_policy_parse / name     O(1)
 *   sb_policy_key              O(1)
 *   sb_policy_key_cmp          O(1)   total order
 *   sb_policy_sort             O(n log n)
 */
#ifndef SB_POLICY_H
#define SB_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "node.h"
#include "priorityf.h"

typedef enum {
	SB_POLICY_FIRSTAVAILABLE,
	SB_POLICY_LASTAVAILABLE,
	SB_POLICY_MINRESOURCE,
	SB_POLICY_CPULOAD,
	SB_POLICY_CONTIGUOUS,
	SB_POLICY_MAXBALANCE,
	SB_POLICY_FASTEST,
	SB_POLICY_PRIORITY,
	SB_POLICY_COUNT
} sb_policy_kind_t;

typedef struct {
	sb_policy_kind_t kind;
	sb_priorityf_t pf;		/* PRIORITY only */
} sb_policy_t;

/*
 * An order key: compared field by field, ascending, then by index:
 * Weight, the job's preferences, then the policy's own fields.
 */
#define SB_POLICY_KEYS 6
typedef struct {
	double k[SB_POLICY_KEYS];
	size_t idx;
} sb_policy_key_t;

/*
 * Set *p to policy @name (case-insensitive, e.g. "lastavailable"),
 * with @priorityf (required for PRIORITY, refused for the others).
 * Returns 0, or -1 with errno ENOENT (unknown name) or EINVAL (a
 * PRIORITYF missing / not allowed / not parsable: *errpos and *errmsg
 * then describe the position in @priorityf, as sb_priorityf_parse()).
 */
int sb_policy_init(sb_policy_t *p, const char *name, const char *priorityf,
		   size_t *errpos, const char **errmsg);

/* Upper-case name of a policy kind ("FIRSTAVAILABLE"). */
const char *sb_policy_name(sb_policy_kind_t kind);

/* true if @p orders nodes by signature attributes only (see above). */
bool sb_policy_static(const sb_policy_t *p);

/*
 * Fill *key for node @n, for a job that has @pref of its preferred
 * features on it (sb_request_pref()) and ends at @end when the node's
 * next busy window starts at @next_start (SB_TIME_INFINITE: none). For
 * static policies @end and @next_start are ignored.
 */
void sb_policy_key(const sb_policy_t *p, const sb_node_t *n, uint32_t pref,
		   int64_t end, int64_t next_start, sb_policy_key_t *key);

/* <0, 0, >0 as a sorts before, equal to, after b. */
int sb_policy_key_cmp(const sb_policy_key_t *a, const sb_policy_key_t *b);

/* Sort keys ascending. */
void sb_policy_sort(sb_policy_key_t *keys, size_t n);

#endif /* SB_POLICY_H */
