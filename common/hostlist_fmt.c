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
	char **v;			/* the names, room for all */
	size_t n;
	char *buf;			/* the name being built */
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

/* a * b, or anything above SB_HOSTLIST_MAX once it passes it. */
static uint64_t _mul(uint64_t a, uint64_t b)
{
	return a && b > (SB_HOSTLIST_MAX + 1ULL) / a ? SB_HOSTLIST_MAX + 1ULL
						     : a * b;
}

static uint64_t _add(uint64_t a, uint64_t b)
{
	return a + b > SB_HOSTLIST_MAX ? SB_HOSTLIST_MAX + 1ULL : a + b;
}

/* The digits at s[*r..close): their value; *digits gets their count. */
static unsigned long long _digits(const char *s, size_t *r, size_t close,
				  size_t *digits)
{
	unsigned long long v = 0;

	for (*digits = 0; *r < close && s[*r] >= '0' && s[*r] <= '9';
	     (*r)++, (*digits)++)
		if (*digits < SB_HOSTLIST_DIGITS)
			v = v * 10 + (unsigned) (s[*r] - '0');
	return v;
}

/*
 * Check the bracket group opening at s[q] (in an item ending at @end):
 * *close gets its ']' and the return value the number of values in it
 * (saturated, as _add()); 0 after an error.
 */
static uint64_t _group(_exp_t *e, size_t q, size_t end, size_t *close)
{
	const char *s = e->s;
	size_t r, a, b, digits;
	unsigned long long lo, hi;
	uint64_t n = 0;

	for (*close = q + 1; *close < end && s[*close] != ']'; (*close)++)
		if (s[*close] == '[') {
			_fail(e, EINVAL, *close, "nested '['");
			return 0;
		}
	if (*close == end) {
		_fail(e, EINVAL, q, "unbalanced '['");
		return 0;
	}
	if (*close == q + 1) {
		_fail(e, EINVAL, *close, "empty '[ ]'");
		return 0;
	}
	for (r = q + 1; r < *close;) {
		a = r;
		lo = hi = _digits(s, &r, *close, &digits);
		if (!digits) {
			_fail(e, EINVAL, r, "expected a number in '[ ]'");
			return 0;
		}
		if (digits > SB_HOSTLIST_DIGITS) {
			_fail(e, EINVAL, a, "number too large");
			return 0;
		}
		if (r < *close && s[r] == '-') {
			b = ++r;
			hi = _digits(s, &r, *close, &digits);
			if (!digits) {
				_fail(e, EINVAL, r,
				      "expected a number after '-'");
				return 0;
			}
			if (digits > SB_HOSTLIST_DIGITS) {
				_fail(e, EINVAL, b, "number too large");
				return 0;
			}
			if (hi < lo) {
				_fail(e, EINVAL, a, "range goes down");
				return 0;
			}
		}
		if (r < *close && s[r] != ',') {
			_fail(e, EINVAL, r, "unexpected character in '[ ]'");
			return 0;
		}
		if (r < *close && r + 1 == *close) {
			_fail(e, EINVAL, r + 1, "expected a number in '[ ]'");
			return 0;
		}
		n = _add(n, hi - lo >= SB_HOSTLIST_MAX ? SB_HOSTLIST_MAX + 1ULL
						       : hi - lo + 1);
		r += r < *close;
	}
	return n;
}

/* Check the item s[p..end); the number of names it stands for, or 0. */
static uint64_t _scan_item(_exp_t *e, size_t p, size_t end)
{
	const char *s = e->s;
	uint64_t n = 1;
	size_t q, close;

	for (q = p; q < end; q++) {
		if (s[q] == ']') {
			_fail(e, EINVAL, q, "unbalanced ']'");
			return 0;
		}
		if (s[q] != '[')
			continue;
		n = _mul(n, _group(e, q, end, &close));
		if (e->err)
			return 0;
		q = close;
	}
	return n;
}

/*
 * Cut @s into items at the commas outside brackets, calling @item on
 * each (with the state, its start and end) until an error. Returns the
 * sum of @item's results, saturated as _add().
 */
static uint64_t _items(_exp_t *e,
		       uint64_t (*item)(_exp_t *, size_t, size_t))
{
	const char *s = e->s;
	size_t p = 0, q, depth;
	uint64_t n = 0;

	if (!*s)
		_fail(e, EINVAL, 0, "empty host list");
	while (s[p] && !e->err) {
		for (q = p, depth = 0; s[q] && (depth || s[q] != ','); q++)
			if (s[q] == '[')
				depth++;
			else if (s[q] == ']' && depth)
				depth--;
		if (q == p) {
			_fail(e, EINVAL, p, "empty name");
			break;
		}
		n = _add(n, item(e, p, q));
		p = q;
		if (s[p] == ',') {
			p++;
			if (!s[p])
				_fail(e, EINVAL, p, "empty name at the end");
		}
	}
	return n;
}

/*
 * Expand the (checked) item text at s[p..end) with the part before p,
 * expanded, in buf[0..blen).
 */
static void _expand(_exp_t *e, size_t p, size_t end, char *buf, size_t blen)
{
	const char *s = e->s;
	size_t q, close, r, digits;
	unsigned long long lo, hi;
	int width;

	for (q = p; q < end && s[q] != '['; q++)
		buf[blen++] = s[q];
	if (q == end) {
		if (!(e->v[e->n] = strndup(buf, blen)))
			_fail(e, ENOMEM, 0, "out of memory");
		else
			e->n++;
		return;
	}
	close = q + 1 + strcspn(s + q + 1, "]");
	for (r = q + 1; r < close && !e->err; r++) {
		lo = hi = _digits(s, &r, close, &digits);
		/* A leading zero fixes the width ("n[01-10]"). */
		width = s[r - digits] == '0' && digits > 1 ? (int) digits : 1;
		if (r < close && s[r] == '-') {
			r++;
			hi = _digits(s, &r, close, &digits);
		}
		for (; lo <= hi && !e->err; lo++)
			_expand(e, close + 1, end,
				buf, blen + (size_t) sprintf(buf + blen,
							     "%0*llu", width,
							     lo));
	}
}

static uint64_t _expand_item(_exp_t *e, size_t p, size_t end)
{
	_expand(e, p, end, e->buf, 0);
	return 0;
}

int sb_hostlist_count(const char *s, size_t *n, size_t *errpos,
		      const char **errmsg)
{
	_exp_t e = { .s = s };
	uint64_t count;

	if (!s || !n) {
		errno = EINVAL;
		return -1;
	}
	count = _items(&e, _scan_item);
	if (!e.err && count > SB_HOSTLIST_MAX)
		_fail(&e, E2BIG, 0, "too many names");
	if (e.err) {
		if (errpos)
			*errpos = e.errpos;
		if (errmsg)
			*errmsg = e.errmsg;
		errno = e.err;
		return -1;
	}
	*n = (size_t) count;
	return 0;
}

int sb_hostlist_expand(const char *s, char ***names, size_t *n,
		       size_t *errpos, const char **errmsg)
{
	_exp_t e = { .s = s };
	size_t count;

	if (!names || !n) {
		errno = EINVAL;
		return -1;
	}
	if (sb_hostlist_count(s, &count, errpos, errmsg))
		return -1;
	/* A name is never longer than its item: digits come from digits. */
	if (!(e.v = malloc(count * sizeof(*e.v))) ||
	    !(e.buf = malloc(strlen(s) + 1))) {
		free(e.v);
		errno = ENOMEM;
		return -1;
	}
	_items(&e, _expand_item);
	free(e.buf);
	if (e.err) {
		sb_hostlist_free(e.v, e.n);
		if (errpos)
			*errpos = 0;
		if (errmsg)
			*errmsg = "out of memory";
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
	       len - i < SB_HOSTLIST_DIGITS)
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
