/*
 * node_feature.h - feature expressions of sbatch --constraint.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A constraint string is one of three shapes (Slurm 22.05 --constraint):
 *
 *   plain      "a&(b|c)"        every node must satisfy the expression;
 *                               & binds tighter than |, parentheses group
 *   counts     "[fat*2&thin*4]" or "gpu*4": n nodes satisfying each counted
 *                               term; each term becomes a separate chunk
 *   matching   "[a|b|c]"        every node must have the same one of the
 *                               alternatives (tried in the order written)
 *
 * Feature names are runs of letters, digits and "_-.:/+@"; anything else
 * outside the operators "&|()[]*" is an error. No spaces. At most
 * SB_FEAT_TERMS_MAX feature names and SB_FEAT_DEPTH_MAX nested
 * parentheses (the parser and the tree walks recurse: a bound keeps a
 * long line from overflowing the stack).
 *
 * Operations:
 *   sb_constraint_parse    O(len)      string -> sb_constraint_t
 *   sb_constraint_free     O(size)
 *   sb_feat_expr_eval      O(size log F) against a sorted feature list
 *   sb_feat_expr_dup / free / fmt      O(size)
 */
#ifndef SB_NODE_FEATURE_H
#define SB_NODE_FEATURE_H

#include <stddef.h>
#include <stdint.h>

/* Limits of one constraint (see above). */
#define SB_FEAT_TERMS_MAX 1024
#define SB_FEAT_DEPTH_MAX 64

/* Opaque boolean expression over feature names. */
typedef struct sb_feat_expr sb_feat_expr_t;

typedef enum {
	SB_CONS_PLAIN,		/* exprs[0] applies to every node */
	SB_CONS_COUNTS,		/* counts[i] nodes satisfy exprs[i] */
	SB_CONS_MATCHING,	/* all nodes satisfy the same exprs[i] */
} sb_cons_kind_t;

typedef struct {
	sb_cons_kind_t kind;
	size_t n;			/* number of exprs (>= 1) */
	sb_feat_expr_t **exprs;
	uint32_t *counts;		/* SB_CONS_COUNTS only, else NULL */
} sb_constraint_t;

/*
 * Parse a --constraint string. Returns a new constraint, or NULL with
 * errno EINVAL (syntax error; *errpos gets the offset of the offending
 * character and *errmsg a static description, when not NULL), ERANGE
 * (a count is 0 or too large; same reporting) or ENOMEM. O(len).
 */
sb_constraint_t *sb_constraint_parse(const char *s, size_t *errpos,
				     const char **errmsg);

/* Free a constraint and its expressions; NULL is fine. */
void sb_constraint_free(sb_constraint_t *c);

/*
 * Parse a plain expression (no brackets, no counts). Same errors as
 * sb_constraint_parse().
 */
sb_feat_expr_t *sb_feat_expr_parse(const char *s, size_t *errpos,
				   const char **errmsg);

/*
 * 1 if the node feature list @feat (@n names, sorted by strcmp, unique)
 * satisfies @e, else 0. A NULL expression is satisfied by every node.
 * O(size(e) * log n).
 */
int sb_feat_expr_eval(const sb_feat_expr_t *e, char *const *feat, size_t n);

/* Deep copy; NULL for NULL or with errno ENOMEM. O(size). */
sb_feat_expr_t *sb_feat_expr_dup(const sb_feat_expr_t *e);

/* Free; NULL is fine. */
void sb_feat_expr_free(sb_feat_expr_t *e);

/*
 * Length of the feature name @s starts with (letters, digits and
 * "_-.:/+@"; 0 when it starts with anything else or is NULL). O(len).
 */
size_t sb_feat_name_len(const char *s);

/*
 * Canonical text with minimal parentheses ("a&(b|c)"); a string to
 * free(), or NULL with errno ENOMEM (EINVAL for a NULL expression).
 */
char *sb_feat_expr_fmt(const sb_feat_expr_t *e);

#endif /* SB_NODE_FEATURE_H */
