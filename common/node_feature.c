/*
 * node_feature.c - feature expressions of sbatch --constraint.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A small recursive-descent parser: or := and ('|' and)*,
 * and := prim ('&' prim)*, prim := NAME | '(' or ')'. The bracket and
 * count forms are handled at the top level only, as in Slurm.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "node_feature.h"

enum { _LEAF, _AND, _OR };

struct sb_feat_expr {
	int op;
	char *name;			/* _LEAF */
	sb_feat_expr_t *l, *r;		/* _AND, _OR */
};

typedef struct {
	const char *s;
	size_t p;
	unsigned depth;			/* open parentheses */
	size_t terms;			/* feature names so far */
	int err;			/* 0, EINVAL, ERANGE or ENOMEM */
	size_t errpos;
	const char *errmsg;
} _parser_t;

static void _fail(_parser_t *ps, int err, size_t pos, const char *msg)
{
	if (ps->err)
		return;
	ps->err = err;
	ps->errpos = pos;
	ps->errmsg = msg;
}

static int _name_char(char c)
{
	return c && (isalnum((unsigned char) c) || strchr("_-.:/+@", c));
}

size_t sb_feat_name_len(const char *s)
{
	size_t n = 0;

	while (s && _name_char(s[n]))
		n++;
	return n;
}

void sb_feat_expr_free(sb_feat_expr_t *e)
{
	if (!e)
		return;
	sb_feat_expr_free(e->l);
	sb_feat_expr_free(e->r);
	free(e->name);
	free(e);
}

static sb_feat_expr_t *_node(_parser_t *ps, int op, sb_feat_expr_t *l,
			     sb_feat_expr_t *r)
{
	sb_feat_expr_t *e;

	if (!l || !r || !(e = calloc(1, sizeof(*e)))) {
		if (l && r)
			_fail(ps, ENOMEM, ps->p, "out of memory");
		sb_feat_expr_free(l);
		sb_feat_expr_free(r);
		return NULL;
	}
	e->op = op;
	e->l = l;
	e->r = r;
	return e;
}

static sb_feat_expr_t *_or(_parser_t *ps);

static sb_feat_expr_t *_prim(_parser_t *ps)
{
	const char *s = ps->s;
	size_t start = ps->p;
	sb_feat_expr_t *e;

	if (s[ps->p] == '(') {
		/* Bounded: the parser and the tree walks recurse. */
		if (++ps->depth > SB_FEAT_DEPTH_MAX) {
			_fail(ps, EINVAL, ps->p, "parentheses nested too "
			      "deeply");
			return NULL;
		}
		ps->p++;
		if (!(e = _or(ps)))
			return NULL;
		ps->depth--;
		if (s[ps->p] != ')') {
			_fail(ps, EINVAL, ps->p, "expected ')'");
			sb_feat_expr_free(e);
			return NULL;
		}
		ps->p++;
		return e;
	}
	while (_name_char(s[ps->p]))
		ps->p++;
	if (ps->p == start) {
		_fail(ps, EINVAL, start, s[start] ? "expected a feature name"
			: "expected a feature name at the end");
		return NULL;
	}
	if (++ps->terms > SB_FEAT_TERMS_MAX) {
		_fail(ps, EINVAL, start, "too many feature names");
		return NULL;
	}
	if (!(e = calloc(1, sizeof(*e))) ||
	    !(e->name = strndup(s + start, ps->p - start))) {
		free(e);
		_fail(ps, ENOMEM, start, "out of memory");
		return NULL;
	}
	e->op = _LEAF;
	return e;
}

static sb_feat_expr_t *_and_more(_parser_t *ps, sb_feat_expr_t *l)
{
	while (l && ps->s[ps->p] == '&') {
		ps->p++;
		l = _node(ps, _AND, l, _prim(ps));
	}
	return l;
}

static sb_feat_expr_t *_or_more(_parser_t *ps, sb_feat_expr_t *l)
{
	while (l && ps->s[ps->p] == '|') {
		ps->p++;
		l = _node(ps, _OR, l, _and_more(ps, _prim(ps)));
	}
	return l;
}

static sb_feat_expr_t *_or(_parser_t *ps)
{
	return _or_more(ps, _and_more(ps, _prim(ps)));
}

sb_feat_expr_t *sb_feat_expr_parse(const char *s, size_t *errpos,
				   const char **errmsg)
{
	_parser_t ps = { .s = s };
	sb_feat_expr_t *e = NULL;

	if (!s) {
		errno = EINVAL;
		return NULL;
	}
	if (!*s)
		_fail(&ps, EINVAL, 0, "empty feature expression");
	else if ((e = _or(&ps)) && s[ps.p]) {
		_fail(&ps, EINVAL, ps.p, s[ps.p] == ')' ? "unbalanced ')'"
			: "unexpected character");
		sb_feat_expr_free(e);
		e = NULL;
	}
	if (!e) {
		if (errpos)
			*errpos = ps.errpos;
		if (errmsg)
			*errmsg = ps.errmsg;
		errno = ps.err;
	}
	return e;
}

/* Append (e, count) to c; count 0 for forms without counts. */
static int _push(_parser_t *ps, sb_constraint_t *c, sb_feat_expr_t *e,
		 uint32_t count, int counted)
{
	sb_feat_expr_t **x;
	uint32_t *n;

	if (!e)
		return -1;
	x = realloc(c->exprs, (c->n + 1) * sizeof(*x));
	if (x)
		c->exprs = x;
	if (x && counted) {
		n = realloc(c->counts, (c->n + 1) * sizeof(*n));
		if (!n)
			x = NULL;
		else
			(c->counts = n)[c->n] = count;
	}
	if (!x) {
		sb_feat_expr_free(e);
		_fail(ps, ENOMEM, ps->p, "out of memory");
		return -1;
	}
	c->exprs[c->n++] = e;
	return 0;
}

/* '*' COUNT at ps->p; returns the count or 0 after an error. */
static uint32_t _count(_parser_t *ps)
{
	const char *s = ps->s;
	size_t start;
	uint64_t v = 0;

	if (s[ps->p] != '*') {
		_fail(ps, EINVAL, ps->p, "expected '*' and a node count");
		return 0;
	}
	start = ++ps->p;
	while (s[ps->p] >= '0' && s[ps->p] <= '9') {
		if (v <= UINT32_MAX)
			v = v * 10 + (uint64_t) (s[ps->p] - '0');
		ps->p++;
	}
	if (ps->p == start) {
		_fail(ps, EINVAL, start, "expected a node count after '*'");
		return 0;
	}
	if (v == 0 || v > UINT32_MAX) {
		_fail(ps, ERANGE, start, "node count out of range");
		return 0;
	}
	return (uint32_t) v;
}

void sb_constraint_free(sb_constraint_t *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->n; i++)
		sb_feat_expr_free(c->exprs[i]);
	free(c->exprs);
	free(c->counts);
	free(c);
}

sb_constraint_t *sb_constraint_parse(const char *s, size_t *errpos,
				     const char **errmsg)
{
	_parser_t ps = { .s = s };
	sb_constraint_t *c;
	sb_feat_expr_t *e;
	int bracket;
	uint32_t n;

	if (!s) {
		errno = EINVAL;
		return NULL;
	}
	if (!(c = calloc(1, sizeof(*c))))
		return NULL;
	bracket = s[0] == '[';
	ps.p = bracket;
	if (!*s) {
		_fail(&ps, EINVAL, 0, "empty constraint");
		goto fail;
	}
	if (!(e = _prim(&ps)))
		goto fail;
	if (s[ps.p] == '*') {
		/* Counts: every term joined by '&' carries its own count. */
		c->kind = SB_CONS_COUNTS;
		for (;;) {
			if (!(n = _count(&ps))) {
				sb_feat_expr_free(e);
				goto fail;
			}
			if (_push(&ps, c, e, n, 1))
				goto fail;
			if (s[ps.p] != '&')
				break;
			ps.p++;
			if (!(e = _prim(&ps)))
				goto fail;
			if (s[ps.p] != '*') {
				sb_feat_expr_free(e);
				_fail(&ps, EINVAL, ps.p, "every term of a "
				      "counted constraint needs '*COUNT'");
				goto fail;
			}
		}
	} else if (bracket) {
		c->kind = SB_CONS_MATCHING;
		if (_push(&ps, c, _and_more(&ps, e), 0, 0))
			goto fail;
		while (s[ps.p] == '|') {
			ps.p++;
			if (_push(&ps, c, _and_more(&ps, _prim(&ps)), 0, 0))
				goto fail;
		}
	} else {
		c->kind = SB_CONS_PLAIN;
		if (_push(&ps, c, _or_more(&ps, _and_more(&ps, e)), 0, 0))
			goto fail;
	}
	if (bracket) {
		if (s[ps.p] != ']') {
			_fail(&ps, EINVAL, ps.p, "expected ']'");
			goto fail;
		}
		ps.p++;
	}
	if (s[ps.p]) {
		_fail(&ps, EINVAL, ps.p, s[ps.p] == '*' ?
		      "a count applies to one feature term only" :
		      "unexpected character");
		goto fail;
	}
	return c;
fail:
	sb_constraint_free(c);
	if (errpos)
		*errpos = ps.errpos;
	if (errmsg)
		*errmsg = ps.errmsg;
	errno = ps.err ? ps.err : ENOMEM;
	return NULL;
}

static int _cmp_name(const void *key, const void *elem)
{
	return strcmp((const char *) key, *(char *const *) elem);
}

int sb_feat_expr_eval(const sb_feat_expr_t *e, char *const *feat, size_t n)
{
	if (!e)
		return 1;
	switch (e->op) {
	case _LEAF:
		return n && bsearch(e->name, feat, n, sizeof(*feat),
				    _cmp_name) != NULL;
	case _AND:
		return sb_feat_expr_eval(e->l, feat, n) &&
		       sb_feat_expr_eval(e->r, feat, n);
	default:
		return sb_feat_expr_eval(e->l, feat, n) ||
		       sb_feat_expr_eval(e->r, feat, n);
	}
}

sb_feat_expr_t *sb_feat_expr_dup(const sb_feat_expr_t *e)
{
	sb_feat_expr_t *d;

	if (!e || !(d = calloc(1, sizeof(*d))))
		return NULL;
	d->op = e->op;
	if ((e->name && !(d->name = strdup(e->name))) ||
	    (e->l && !(d->l = sb_feat_expr_dup(e->l))) ||
	    (e->r && !(d->r = sb_feat_expr_dup(e->r)))) {
		sb_feat_expr_free(d);
		return NULL;
	}
	return d;
}

/* Length of the text of e, or writes it at out when out is not NULL. */
static size_t _fmt(const sb_feat_expr_t *e, int parent, char *out)
{
	size_t n = 0, k;
	int prec = e->op == _LEAF ? 3 : e->op == _AND ? 2 : 1;
	int paren = prec < parent;

	if (paren && out)
		out[n] = '(';
	n += paren;
	if (e->op == _LEAF) {
		k = strlen(e->name);
		if (out)
			memcpy(out + n, e->name, k);
		n += k;
	} else {
		n += _fmt(e->l, prec, out ? out + n : NULL);
		if (out)
			out[n] = e->op == _AND ? '&' : '|';
		n++;
		n += _fmt(e->r, prec, out ? out + n : NULL);
	}
	if (paren && out)
		out[n] = ')';
	return n + paren;
}

char *sb_feat_expr_fmt(const sb_feat_expr_t *e)
{
	size_t n;
	char *s;

	if (!e) {
		errno = EINVAL;
		return NULL;
	}
	n = _fmt(e, 0, NULL);
	if (!(s = malloc(n + 1)))
		return NULL;
	_fmt(e, 0, s);
	s[n] = '\0';
	return s;
}
