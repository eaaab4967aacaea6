/*
 * hostlist_fmt.c - Slurm hostlist expressions: "n[1-3,5],login1".
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostlist_fmt.h"
#include "strbuf.h"

typedef struct {
	char **v;
	size_t n, cap;
	const char *s;
	int err;
	size_t errpos;
	const char *errmsg;
} _exp_t;

static void _fail(_exp_t *e, int err, size_t pos, const char *msg)
{
	if (e->err)
		return;
	e->err = err;
	e->errpos = pos;
	e->errmsg = msg;
}

static void _push(_exp_t *e, const char *name, size_t len)
{
	char **v;

	if (e->err)
		return;
	if (e->n >= SB_HOSTLIST_MAX) {
		_fail(e, E2BIG, 0, "too many names");
		return;
	}
	if (e->n == e->cap) {
		size_t cap = e->cap ? 2 * e->cap : 64;

		if (!(v = realloc(e->v, cap * sizeof(*v)))) {
			_fail(e, ENOMEM, 0, "out of memory");
			return;
		}
		e->v = v;
		e->cap = cap;
	}
	if (!(e->v[e->n] = strndup(name, len))) {
		_fail(e, ENOMEM, 0, "out of memory");
		return;
	}
	e->n++;
}

/*
 * Expand the item text at s[p..end) with `done` already produced (the
 * part before p, expanded) in buf[0..blen).
 */
static void _item(_exp_t *e, size_t p, size_t end, char *buf, size_t blen)
{
	const char *s = e->s;
	size_t q, close, r;

	/* Copy literal text up to the next bracket. */
	for (q = p; q < end && s[q] != '['; q++) {
		if (s[q] == ']') {
			_fail(e, EINVAL, q, "unbalanced ']'");
			return;
		}
		buf[blen++] = s[q];
	}
	if (q == end) {
		_push(e, buf, blen);
		return;
	}
	for (close = q + 1; close < end && s[close] != ']'; close++)
		if (s[close] == '[') {
			_fail(e, EINVAL, close, "nested '['");
			return;
		}
	if (close == end) {
		_fail(e, EINVAL, q, "unbalanced '['");
		return;
	}
	if (close == q + 1) {
		_fail(e, EINVAL, close, "empty '[ ]'");
		return;
	}
	/* Each number or range inside [ ]. */
	for (r = q + 1; r < close && !e->err;) {
		unsigned long long lo = 0, hi;
		size_t a = r, width, digits = 0;
		int pad;

		while (r < close && s[r] >= '0' && s[r] <= '9') {
			if (lo > UINT32_MAX) {
				_fail(e, EINVAL, a, "number too large");
				return;
			}
			lo = lo * 10 + (unsigned) (s[r++] - '0');
			digits++;
		}
		if (!digits) {
			_fail(e, EINVAL, r, "expected a number in '[ ]'");
			return;
		}
		pad = s[a] == '0' && digits > 1;
		width = digits;
		hi = lo;
		if (r < close && s[r] == '-') {
			size_t b = ++r;

			hi = 0;
			while (r < close && s[r] >= '0' && s[r] <= '9') {
				if (hi > UINT32_MAX) {
					_fail(e, EINVAL, b, "number too large");
					return;
				}
				hi = hi * 10 + (unsigned) (s[r++] - '0');
			}
			if (r == b) {
				_fail(e, EINVAL, r,
				      "expected a number after '-'");
				return;
			}
			if (hi < lo) {
				_fail(e, EINVAL, a, "range goes down");
				return;
			}
		}
		if (r < close && s[r] != ',') {
			_fail(e, EINVAL, r, "unexpected character in '[ ]'");
			return;
		}
		if (r < close && r + 1 == close) {
			_fail(e, EINVAL, r + 1, "expected a number in '[ ]'");
			return;
		}
		if (hi - lo >= SB_HOSTLIST_MAX) {
			_fail(e, E2BIG, a, "too many names");
			return;
		}
		r += r < close;
		for (; lo <= hi && !e->err; lo++) {
			int k = sprintf(buf + blen, "%0*llu",
					pad ? (int) width : 1, lo);

			_item(e, close + 1, end, buf, blen + (size_t) k);
		}
	}
}

int sb_hostlist_expand(const char *s, char ***names, size_t *n,
		       size_t *errpos, const char **errmsg)
{
	_exp_t e = { .s = s };
	size_t p = 0, q, depth;
	char *buf;

	if (!s || !names || !n) {
		errno = EINVAL;
		return -1;
	}
	/* Every name is shorter than its item plus 20 digits per bracket. */
	if (!(buf = malloc(strlen(s) * 11 + 32)))
		return -1;
	if (!*s)
		_fail(&e, EINVAL, 0, "empty host list");
	while (s[p] && !e.err) {
		for (q = p, depth = 0; s[q] && (depth || s[q] != ','); q++)
			if (s[q] == '[')
				depth++;
			else if (s[q] == ']' && depth)
				depth--;
		if (q == p) {
			_fail(&e, EINVAL, p, "empty name");
			break;
		}
		_item(&e, p, q, buf, 0);
		p = q;
		if (s[p] == ',') {
			p++;
			if (!s[p])
				_fail(&e, EINVAL, p, "empty name at the end");
		}
	}
	free(buf);
	if (e.err) {
		sb_hostlist_free(e.v, e.n);
		if (errpos)
			*errpos = e.errpos;
		if (errmsg)
			*errmsg = e.errmsg;
		errno = e.err;
		return -1;
	}
	*names = e.v;
	*n = e.n;
	return 0;
}

void sb_hostlist_free(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* Split a name into prefix length, number, digit count, leading zero. */
typedef struct {
	size_t plen, digits;
	unsigned long long num;
	int lz;
} _split_t;

static _split_t _split(const char *name)
{
	_split_t sp = { 0 };
	size_t len = strlen(name), i = len;

	while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9' &&
	       len - i < 18)
		i--;
	sp.plen = i;
	sp.digits = len - i;
	if (sp.digits) {
		sp.num = strtoull(name + i, NULL, 10);
		sp.lz = name[i] == '0' && sp.digits > 1;
	}
	return sp;
}

int sb_hostlist_cmp(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), da = la, db = lb;

	while (da && isdigit((unsigned char) a[da - 1]))
		da--;
	while (db && isdigit((unsigned char) b[db - 1]))
		db--;
	if (da != db || strncmp(a, b, da))
		return strcmp(a, b);
	/* Same prefix: fewer digits is smaller, then digit by digit. */
	if (la - da != lb - db)
		return la - da < lb - db ? -1 : 1;
	return strcmp(a + da, b + db);
}

static void _add_num(sb_strbuf_t *o, unsigned long long v, size_t width)
{
	sb_strbuf_addf(o, "%0*llu", (int) width, v);
}

char *sb_hostlist_fmt(char *const *names, size_t n)
{
	sb_strbuf_t o = SB_STRBUF_INIT;
	size_t i = 0, j, width, nranges;
	_split_t a, b;

	while (i < n && !o.failed) {
		if (i)
			sb_strbuf_add(&o, ",");
		a = _split(names[i]);
		if (!a.digits) {
			sb_strbuf_add(&o, names[i]);
			i++;
			continue;
		}
		/* Extend the group while prefix and width rules agree. */
		width = a.lz ? a.digits : 1;
		for (j = i + 1; j < n; j++) {
			_split_t prev = _split(names[j - 1]);

			b = _split(names[j]);
			if (!b.digits || b.plen != a.plen ||
			    strncmp(names[j], names[i], a.plen) ||
			    b.num <= prev.num ||
			    (b.digits != a.digits && (b.lz || a.lz)))
				break;
		}
		sb_strbuf_addn(&o, names[i], a.plen);
		if (j == i + 1) {
			sb_strbuf_addn(&o, names[i] + a.plen, a.digits);
			i = j;
			continue;
		}
		sb_strbuf_add(&o, "[");
		nranges = 0;
		while (i < j) {
			size_t k = i;
			unsigned long long lo = _split(names[i]).num;

			while (k + 1 < j && _split(names[k + 1]).num ==
			       _split(names[k]).num + 1)
				k++;
			if (nranges++)
				sb_strbuf_add(&o, ",");
			_add_num(&o, lo, width);
			if (k > i) {
				sb_strbuf_add(&o, "-");
				_add_num(&o, _split(names[k]).num, width);
			}
			i = k + 1;
		}
		sb_strbuf_add(&o, "]");
	}
	return sb_strbuf_finish(&o);
}
