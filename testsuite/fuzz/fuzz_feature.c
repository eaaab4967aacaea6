/*
 * fuzz_feature.c - --constraint feature expressions, as sbucket reads
 * them from a jobs file.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Accepted: each expression's canonical form parses back to the same
 * canonical form and to an expression that every subset of the feature
 * names in the input evaluates the same way (up to 2^6 subsets); a deep
 * copy is equal too. Counts are within 1..2^32-1. Refused: a static
 * message, a position inside the string, errno EINVAL or ERANGE.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "node_feature.h"

#define NAMES_MAX 6

static int _cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* Up to NAMES_MAX distinct words of @s made of feature name bytes. */
static size_t _names(const char *s, char **v)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz"
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:/+@";
	size_t n = 0, len, i;

	while (*s && n < NAMES_MAX) {
		s += strcspn(s, chars);
		if (!(len = strspn(s, chars)))
			break;
		FUZZ_CHECK((v[n] = strndup(s, len)) != NULL);
		for (i = 0; i < n && strcmp(v[i], v[n]); i++)
			;
		if (i < n)
			free(v[n]);
		else
			n++;
		s += len;
	}
	return n;
}

/*
 * a and b agree on every subset of names[0..n) (sorted, so each subset
 * taken in order is a sorted feature list too).
 */
static void _same_truth(const sb_feat_expr_t *a, const sb_feat_expr_t *b,
			char **names, size_t n)
{
	char *sub[NAMES_MAX];
	unsigned mask;
	size_t i, k;

	for (mask = 0; mask < 1u << n; mask++) {
		for (i = k = 0; i < n; i++)
			if (mask & 1u << i)
				sub[k++] = names[i];
		FUZZ_CHECK(sb_feat_expr_eval(a, sub, k) ==
			   sb_feat_expr_eval(b, sub, k));
	}
}

static void _expr(const sb_feat_expr_t *e, char **names, size_t n)
{
	sb_feat_expr_t *back, *copy;
	char *canon, *canon2, *canon3;

	FUZZ_CHECK((canon = sb_feat_expr_fmt(e)) != NULL);
	back = sb_feat_expr_parse(canon, NULL, NULL);
	FUZZ_CHECK(back != NULL);
	FUZZ_CHECK((canon2 = sb_feat_expr_fmt(back)) != NULL);
	FUZZ_CHECK(!strcmp(canon, canon2));
	FUZZ_CHECK((copy = sb_feat_expr_dup(e)) != NULL);
	FUZZ_CHECK((canon3 = sb_feat_expr_fmt(copy)) != NULL);
	FUZZ_CHECK(!strcmp(canon, canon3));
	_same_truth(e, back, names, n);
	free(canon);
	free(canon2);
	free(canon3);
	sb_feat_expr_free(back);
	sb_feat_expr_free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size), *names[NAMES_MAX];
	const char *msg = NULL;
	size_t pos = (size_t) -1, n, i;
	sb_constraint_t *c;
	sb_feat_expr_t *e;

	n = _names(s, names);
	qsort(names, n, sizeof(*names), _cmp);
	if (!(c = sb_constraint_parse(s, &pos, &msg))) {
		FUZZ_CHECK(errno == EINVAL || errno == ERANGE);
		FUZZ_CHECK(pos <= strlen(s));
		fuzz_check_message(msg);
	} else {
		FUZZ_CHECK(c->n >= 1 && c->exprs);
		FUZZ_CHECK((c->kind == SB_CONS_COUNTS) == (c->counts != NULL));
		for (i = 0; i < c->n; i++) {
			FUZZ_CHECK(!c->counts || c->counts[i] >= 1);
			_expr(c->exprs[i], names, n);
		}
		sb_constraint_free(c);
	}
	/* The plain form alone, as --constraint without brackets. */
	if ((e = sb_feat_expr_parse(s, &pos, &msg))) {
		_expr(e, names, n);
		sb_feat_expr_free(e);
	} else {
		FUZZ_CHECK(errno == EINVAL);
		FUZZ_CHECK(pos <= strlen(s));
		fuzz_check_message(msg);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(s);
	return 0;
}
