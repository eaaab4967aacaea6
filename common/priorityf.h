/*
 * priorityf.h - Maui's PRIORITYF node priority expression, for Slurm.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * PRIORITYF is a linear combination of node components (Maui 3 docs,
 * "5.2.2.4 PRIORITY"); nodes with a higher value are allocated first.
 *
 *   expr  := ws* term (ws* sign+ ws* term)* ws*
 *   term  := sign* ws* [number ws* ['*' ws*]] COMPONENT
 *   sign  := '+' | '-'           (each '-' flips the sign)
 *   number:= digits ['.' digits] | '.' digits, then [('e'|'E') [sign] digits]
 *
 * Components (case-insensitive, whole words) and what they read here:
 *
 *   CPROCS   configured CPUs          APROCS   CPUs available now
 *   CMEM     RealMemory (MB)          AMEM     memory available now (MB)
 *   CDISK    TmpDisk (MB)             ADISK    tmp disk available now (MB)
 *   SPEED    node Speed               LOAD     1-minute load
 *   JOBCOUNT running jobs             WEIGHT   Slurm node Weight
 *   PREF     how many of the job's preferred features (--bucket-prefer)
 *            the node has
 *
 * "Available now" is the configured amount on a node a job can start on
 * (whole-node model) and 0 on any other. Maui's ASWAP, CSWAP, USAGE,
 * RESAFFINITY and PRIORITY have no Slurm source and are rejected
 * with a message saying so (Maui silently ignores unknown words; we do
 * not guess). A component written twice adds up (Maui overwrites: a
 * quirk, not documented). A number with no component is an error, and
 * so are coefficients whose sum leaves the range of a double: every
 * coefficient is finite, so is every node's value.
 *
 * The number grammar is also bucket.conf's and sbucket's for speeds
 * and loads (sb_priorityf_number()); numbers are written back in the
 * shortest form that reads back exactly (sb_priorityf_number_fmt()).
 *
 * Operations:
 *   sb_priorityf_parse    O(len)
 *   sb_priorityf_eval     O(components)
 *   sb_priorityf_static   O(1)
 *   sb_priorityf_fmt      O(components)
 *   sb_priorityf_number / number_fmt   O(length of the number)
 */
#ifndef SB_PRIORITYF_H
#define SB_PRIORITYF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "node.h"

typedef enum {
	SB_PF_CPROCS, SB_PF_CMEM, SB_PF_CDISK,
	SB_PF_APROCS, SB_PF_AMEM, SB_PF_ADISK,
	SB_PF_SPEED, SB_PF_LOAD, SB_PF_JOBCOUNT, SB_PF_WEIGHT,
	SB_PF_PREF,
	SB_PF_NCOMP
} sb_pf_comp_t;

typedef struct {
	double coef[SB_PF_NCOMP];
	unsigned used;			/* bit i: component i appears */
} sb_priorityf_t;

/* Room for any sb_priorityf_number_fmt() result. */
#define SB_PF_NUMBER_LEN 32

/*
 * Parse @s into *pf. Returns 0, or -1 with errno EINVAL; then *errpos
 * (if not NULL) is the offset of the offending character and *errmsg a
 * static message such as "unknown component" (the name is not quoted
 * in the message; the position points at it). ERANGE (*errpos at the
 * term) for a coefficient that is not finite, or coefficients of one
 * component that add up beyond the range of a double
 * ("1e308*CMEM+1e308*CMEM"). *pf is unchanged on failure.
 */
int sb_priorityf_parse(const char *s, sb_priorityf_t *pf, size_t *errpos,
		       const char **errmsg);

/*
 * The priority of node @n (higher is allocated first) for a job that
 * prefers @pref of its features (sb_request_pref()): finite, never NaN.
 * A term or sum beyond the range of a double stops at +-DBL_MAX.
 */
double sb_priorityf_eval(const sb_priorityf_t *pf, const sb_node_t *n,
			 uint32_t pref);

/* true if only static components appear (CPROCS, CMEM, CDISK, SPEED,
 * WEIGHT, PREF): then, for one job, the value is a property of the
 * node's signature (features are part of it). */
bool sb_priorityf_static(const sb_priorityf_t *pf);

/* true if WEIGHT appears (the expression then replaces Weight order). */
bool sb_priorityf_uses_weight(const sb_priorityf_t *pf);

/* true if PREF appears (the expression then weighs preferences). */
bool sb_priorityf_uses_pref(const sb_priorityf_t *pf);

/*
 * Canonical form "6*LOAD-0.01*CMEM-JOBCOUNT" (component order), which
 * sb_priorityf_parse() reads back to the same coefficients; a string to
 * free(), or NULL with ENOMEM. "0" when nothing is used.
 */
char *sb_priorityf_fmt(const sb_priorityf_t *pf);

/*
 * The number (grammar above, no sign) that @s starts with: its length
 * in *len and its value in *v. Returns 0, or -1 with errno EINVAL (@s
 * does not start with a number; *len is 0), ERANGE (too large for a
 * double; *len is its length) or ENOMEM; *v is unchanged on failure.
 * A number too small for a double reads as 0. O(length).
 */
int sb_priorityf_number(const char *s, size_t *len, double *v);

/*
 * @v (finite) in the shortest "%.15g" to "%.17g" form that reads back
 * as exactly @v, into @buf (SB_PF_NUMBER_LEN bytes hold any). A
 * non-negative @v is a number of the grammar above. Returns @buf.
 */
char *sb_priorityf_number_fmt(char *buf, size_t cap, double v);

#endif /* SB_PRIORITYF_H */
