/*
 * json.c - JSON as Slurm's commands print it, read (json.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "strbuf.h"

#define CHUNK 65536
#define MAX_NUMBER 512		/* bytes of a number as written */

struct sb_json {
	sb_json_type_t type;
	bool b;			/* BOOL */
	bool is_int;		/* NUMBER written as an integer in range */
	int64_t i;
	double d;
	char *s;		/* STRING, or NUMBER as written */
	size_t len;
	sb_json_t **v;		/* ARRAY, OBJECT */
	char **k;		/* OBJECT's keys */
	size_t n, room;
};

struct sb_json_reader {
	ssize_t (*fn)(void *, char *, size_t);
	void *arg;
	char *own;		/* the stream's buffer */
	const char *p, *end;	/* what is read and not used yet */
	bool eof;
	size_t used;		/* bytes before p, since the start */
	size_t line, line_start;	/* for messages */
	int depth;		/* containers entered with *_begin() */
	char open[SB_JSON_MAX_DEPTH + 1];	/* '{' or '[' */
	bool first[SB_JSON_MAX_DEPTH + 1];	/* before the first member */
	char *key;		/* the last member's key */
	size_t key_len, key_room;
	size_t nodes;		/* of the tree being read */
	bool failed;
	char error[160];
};

/* ---- the bytes ----------------------------------------------------------- */

/* Fail with @err and a message "line L, byte B: @what". */
static int _fail(sb_json_reader_t *r, int err, const char *what)
{
	if (!r->failed) {
		r->failed = true;
		snprintf(r->error, sizeof(r->error), "line %zu, byte %zu: %s",
			 r->line, r->used - r->line_start + 1, what);
	}
	errno = err;
	return -1;
}

/* At least one byte to look at: 1, 0 at the end, -1 on a read error. */
static int _fill(sb_json_reader_t *r)
{
	ssize_t n;

	if (r->p < r->end)
		return 1;
	if (r->eof || !r->fn)
		return 0;
	do
		n = r->fn(r->arg, r->own, CHUNK);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return _fail(r, EIO, "cannot read the input");
	if (n == 0) {
		r->eof = true;
		return 0;
	}
	r->p = r->own;
	r->end = r->own + n;
	return 1;
}

/* The next byte without using it, -1 at the end or on an error. */
static int _peek(sb_json_reader_t *r)
{
	if (r->failed || _fill(r) <= 0)
		return -1;
	return (unsigned char) *r->p;
}

static void _take(sb_json_reader_t *r)
{
	r->p++;
	r->used++;
}

/* Skip blanks; the next byte as _peek(). */
static int _blanks(sb_json_reader_t *r)
{
	int c;

	while ((c = _peek(r)) == ' ' || c == '\t' || c == '\n' || c == '\r') {
		_take(r);
		if (c == '\n') {
			r->line++;
			r->line_start = r->used;
		}
	}
	return c;
}

/* Use byte @c, which must come next (after blanks): 0, or -1. */
static int _expect(sb_json_reader_t *r, char c, const char *what)
{
	if (_blanks(r) != (unsigned char) c)
		return r->failed ? -1 : _fail(r, EINVAL, what);
	_take(r);
	return 0;
}

/* Use the literal @word ("true"): 0, or -1. */
static int _word(sb_json_reader_t *r, const char *word)
{
	for (; *word; word++) {
		if (_peek(r) != (unsigned char) *word)
			return r->failed ? -1 : _fail(r, EINVAL,
						      "not a JSON value");
		_take(r);
	}
	return 0;
}

/* ---- strings ------------------------------------------------------------- */

/* Append @n bytes to *@s (*@len, *@room): 0, or -1. */
static int _put(sb_json_reader_t *r, char **s, size_t *len, size_t *room,
		const char *b, size_t n)
{
	if (*len + n > SB_JSON_MAX_STRING)
		return _fail(r, EOVERFLOW, "a string longer than 16 MiB");
	if (*len + n + 1 > *room) {
		size_t want = *room ? *room : 64;
		char *v;

		while (want < *len + n + 1)
			want *= 2;
		if (!(v = realloc(*s, want)))
			return _fail(r, ENOMEM, "out of memory");
		*s = v;
		*room = want;
	}
	memcpy(*s + *len, b, n);
	*len += n;
	(*s)[*len] = '\0';
	return 0;
}

static int _hex4(sb_json_reader_t *r, unsigned *u)
{
	int i, c;

	*u = 0;
	for (i = 0; i < 4; i++) {
		c = _peek(r);
		if (c >= '0' && c <= '9')
			*u = *u * 16 + (unsigned) (c - '0');
		else if (c >= 'a' && c <= 'f')
			*u = *u * 16 + (unsigned) (c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*u = *u * 16 + (unsigned) (c - 'A' + 10);
		else
			return r->failed ? -1 : _fail(r, EINVAL,
						      "a bad \\u escape");
		_take(r);
	}
	return 0;
}

/* The UTF-8 of code point @u into @b: its length. */
static size_t _utf8(unsigned long u, char *b)
{
	if (u < 0x80) {
		b[0] = (char) u;
		return 1;
	}
	if (u < 0x800) {
		b[0] = (char) (0xc0 | (u >> 6));
		b[1] = (char) (0x80 | (u & 0x3f));
		return 2;
	}
	if (u < 0x10000) {
		b[0] = (char) (0xe0 | (u >> 12));
		b[1] = (char) (0x80 | ((u >> 6) & 0x3f));
		b[2] = (char) (0x80 | (u & 0x3f));
		return 3;
	}
	b[0] = (char) (0xf0 | (u >> 18));
	b[1] = (char) (0x80 | ((u >> 12) & 0x3f));
	b[2] = (char) (0x80 | ((u >> 6) & 0x3f));
	b[3] = (char) (0x80 | (u & 0x3f));
	return 4;
}

/*
 * A string (the reader at its '"') into *@s, *@len (*@room its
 * allocation; @s NULL: read and forget it). 0, or -1.
 */
static int _string(sb_json_reader_t *r, char **s, size_t *len, size_t *room)
{
	size_t n = 0;

	if (s)
		*len = 0;
	if (_peek(r) != '"')
		return r->failed ? -1 : _fail(r, EINVAL, "expected a string");
	_take(r);
	for (;;) {
		const char *q;
		char b[4];
		unsigned u, lo;
		int c;

		if (_fill(r) <= 0)
			return r->failed ? -1 : _fail(r, EINVAL,
						      "a string not ended");
		/* the plain bytes that are there, at once */
		for (q = r->p; q < r->end && *q != '"' && *q != '\\' &&
		     (unsigned char) *q >= 0x20; q++)
			;
		if (q > r->p) {
			size_t k = (size_t) (q - r->p);

			if (n + k > SB_JSON_MAX_STRING)
				return _fail(r, EOVERFLOW, "a string longer "
					     "than 16 MiB");
			if (s && _put(r, s, len, room, r->p, k) < 0)
				return -1;
			n += k;
			r->used += k;
			r->p = q;
			continue;
		}
		c = (unsigned char) *r->p;
		_take(r);
		if (c == '"')
			break;
		if (c < 0x20)
			return _fail(r, EINVAL, "a control character in a "
				     "string");
		/* an escape */
		c = _peek(r);
		if (c < 0)
			return r->failed ? -1 : _fail(r, EINVAL,
						      "a string not ended");
		_take(r);
		switch (c) {
		case '"': case '\\': case '/':
			b[0] = (char) c;
			break;
		case 'b': b[0] = '\b'; break;
		case 'f': b[0] = '\f'; break;
		case 'n': b[0] = '\n'; break;
		case 'r': b[0] = '\r'; break;
		case 't': b[0] = '\t'; break;
		case 'u':
			if (_hex4(r, &u) < 0)
				return -1;
			if (u >= 0xd800 && u < 0xdc00) {
				/* a high surrogate: its low one follows */
				if (_word(r, "\\u") < 0 || _hex4(r, &lo) < 0)
					return -1;
				if (lo < 0xdc00 || lo >= 0xe000)
					return _fail(r, EINVAL, "a lone "
						     "surrogate");
				u = 0x10000 + ((u - 0xd800) << 10) +
					(lo - 0xdc00);
			} else if (u >= 0xdc00 && u < 0xe000) {
				return _fail(r, EINVAL, "a lone surrogate");
			}
			{
				size_t k = _utf8(u, b);

				if (s && _put(r, s, len, room, b, k) < 0)
					return -1;
				n += k;
			}
			continue;
		default:
			return _fail(r, EINVAL, "a bad escape in a string");
		}
		if (s && _put(r, s, len, room, b, 1) < 0)
			return -1;
		n++;
		if (n > SB_JSON_MAX_STRING)
			return _fail(r, EOVERFLOW, "a string longer than "
				     "16 MiB");
	}
	if (s && !*s && _put(r, s, len, room, "", 0) < 0)
		return -1;
	return 0;
}

/* ---- numbers ------------------------------------------------------------- */

static bool _digit(int c)
{
	return c >= '0' && c <= '9';
}

/* A number as written into @buf (MAX_NUMBER + 1 bytes): 0, or -1. */
static int _number(sb_json_reader_t *r, char *buf, size_t *n)
{
	size_t k = 0;
	int c, digits;

#define TAKE() do {							\
		if (k == MAX_NUMBER)					\
			return _fail(r, EOVERFLOW, "a number too long");\
		buf[k++] = (char) c;					\
		_take(r);						\
	} while (0)
	if ((c = _peek(r)) == '-')
		TAKE();
	c = _peek(r);
	if (c == '0') {
		TAKE();
	} else if (_digit(c)) {
		while (_digit(c = _peek(r)))
			TAKE();
	} else {
		return r->failed ? -1 : _fail(r, EINVAL, "not a JSON value");
	}
	if ((c = _peek(r)) == '.') {
		TAKE();
		for (digits = 0; _digit(c = _peek(r)); digits++)
			TAKE();
		if (!digits)
			return r->failed ? -1 : _fail(r, EINVAL,
						      "a bad number");
	}
	if ((c = _peek(r)) == 'e' || c == 'E') {
		TAKE();
		if ((c = _peek(r)) == '+' || c == '-')
			TAKE();
		for (digits = 0; _digit(c = _peek(r)); digits++)
			TAKE();
		if (!digits)
			return r->failed ? -1 : _fail(r, EINVAL,
						      "a bad number");
	}
#undef TAKE
	if (r->failed)
		return -1;
	buf[k] = '\0';
	*n = k;
	return 0;
}

/* Fill @v (a NUMBER) from its text. */
static void _number_value(sb_json_t *v)
{
	const char *s = v->s;
	bool neg = *s == '-';
	uint64_t u = 0;

	v->d = strtod(s, NULL);
	v->is_int = !strpbrk(s, ".eE");
	for (s += neg; v->is_int && *s; s++) {
		if (u > (UINT64_MAX - (uint64_t) (*s - '0')) / 10) {
			v->is_int = false;
			break;
		}
		u = u * 10 + (uint64_t) (*s - '0');
	}
	if (v->is_int && (neg ? u > (uint64_t) INT64_MAX + 1 :
			  u > (uint64_t) INT64_MAX))
		v->is_int = false;
	if (v->is_int)
		v->i = neg ? (int64_t) (0 - u) : (int64_t) u;
}

/* ---- values -------------------------------------------------------------- */

static sb_json_t *_node(sb_json_reader_t *r, sb_json_type_t type)
{
	sb_json_t *v;

	if (++r->nodes > SB_JSON_MAX_NODES) {
		_fail(r, EOVERFLOW, "a value of more than 4 Mi values");
		return NULL;
	}
	if (!(v = calloc(1, sizeof(*v)))) {
		_fail(r, ENOMEM, "out of memory");
		return NULL;
	}
	v->type = type;
	return v;
}

/* Add @m (key @key, NULL for an array) to container @v: 0, or -1. */
static int _add(sb_json_reader_t *r, sb_json_t *v, sb_json_t *m, char *key)
{
	if (v->n == v->room) {
		size_t room = v->room ? 2 * v->room : 8;
		sb_json_t **nv = realloc(v->v, room * sizeof(*nv));
		char **nk;

		if (!nv)
			return _fail(r, ENOMEM, "out of memory");
		v->v = nv;
		if (v->type == SB_JSON_OBJECT) {
			if (!(nk = realloc(v->k, room * sizeof(*nk))))
				return _fail(r, ENOMEM, "out of memory");
			v->k = nk;
		}
		v->room = room;
	}
	v->v[v->n] = m;
	if (v->type == SB_JSON_OBJECT)
		v->k[v->n] = key;
	v->n++;
	return 0;
}

/*
 * The next value at nesting @depth: a tree when @build, else read and
 * forgotten (returns a non-NULL dummy on success). NULL on an error.
 */
static sb_json_t *_value(sb_json_reader_t *r, int depth, bool build)
{
	static sb_json_t skipped;
	sb_json_t *v = NULL, *m;
	char num[MAX_NUMBER + 1], *key;
	size_t n, room;
	int c = _blanks(r);

	if (c < 0) {
		if (!r->failed)
			_fail(r, EINVAL, "a value expected, the input ends");
		return NULL;
	}
	if (c == '{' || c == '[') {
		bool obj = c == '{', first = true;

		if (depth >= SB_JSON_MAX_DEPTH) {
			_fail(r, EOVERFLOW, "values nested too deep");
			return NULL;
		}
		_take(r);
		if (build && !(v = _node(r, obj ? SB_JSON_OBJECT :
					 SB_JSON_ARRAY)))
			return NULL;
		for (;;) {
			c = _blanks(r);
			if (c == (obj ? '}' : ']')) {
				_take(r);
				break;
			}
			if (!first && _expect(r, ',', obj ?
					      "expected ',' or '}'" :
					      "expected ',' or ']'") < 0)
				goto fail;
			first = false;
			key = NULL;
			if (obj) {
				n = room = 0;
				if (_blanks(r) < 0 && !r->failed) {
					_fail(r, EINVAL, "an object not "
					      "ended");
					goto fail;
				}
				if (_string(r, build ? &key : NULL, &n,
					    &room) < 0 ||
				    (build && strlen(key) != n &&
				     _fail(r, EINVAL, "a NUL in a key") < 0) ||
				    _expect(r, ':', "expected ':'") < 0) {
					free(key);
					goto fail;
				}
			}
			if (!(m = _value(r, depth + 1, build))) {
				free(key);
				goto fail;
			}
			if (build && _add(r, v, m, key) < 0) {
				free(key);
				sb_json_free(m);
				goto fail;
			}
		}
		return build ? v : &skipped;
	}
	if (c == '"') {
		if (build && !(v = _node(r, SB_JSON_STRING)))
			return NULL;
		room = 0;
		if (_string(r, build ? &v->s : NULL, build ? &v->len : &n,
			    &room) < 0)
			goto fail;
		return build ? v : &skipped;
	}
	if (c == 't' || c == 'f' || c == 'n') {
		const char *w = c == 't' ? "true" : c == 'f' ? "false" :
			"null";

		if (_word(r, w) < 0)
			return NULL;
		if (!build)
			return &skipped;
		if (!(v = _node(r, c == 'n' ? SB_JSON_NULL : SB_JSON_BOOL)))
			return NULL;
		v->b = c == 't';
		return v;
	}
	if (_number(r, num, &n) < 0)
		return NULL;
	if (!build)
		return &skipped;
	if (!(v = _node(r, SB_JSON_NUMBER)))
		return NULL;
	if (!(v->s = malloc(n + 1))) {
		_fail(r, ENOMEM, "out of memory");
		goto fail;
	}
	memcpy(v->s, num, n + 1);
	v->len = n;
	_number_value(v);
	return v;
fail:
	sb_json_free(v);
	return NULL;
}

/* ---- the reader ---------------------------------------------------------- */

sb_json_reader_t *sb_json_reader_create(ssize_t (*fn)(void *, char *, size_t),
					void *arg)
{
	sb_json_reader_t *r = calloc(1, sizeof(*r));

	if (!r || !(r->own = malloc(CHUNK))) {
		free(r);
		errno = ENOMEM;
		return NULL;
	}
	r->fn = fn;
	r->arg = arg;
	r->p = r->end = r->own;
	r->line = 1;
	return r;
}

sb_json_reader_t *sb_json_reader_mem(const char *s, size_t n)
{
	sb_json_reader_t *r = calloc(1, sizeof(*r));

	if (!r) {
		errno = ENOMEM;
		return NULL;
	}
	r->p = s ? s : "";
	r->end = r->p + (s ? n : 0);
	r->eof = true;
	r->line = 1;
	return r;
}

void sb_json_reader_destroy(sb_json_reader_t *r)
{
	if (!r)
		return;
	free(r->own);
	free(r->key);
	free(r);
}

const char *sb_json_error(const sb_json_reader_t *r)
{
	return r && r->failed ? r->error : "";
}

static int _begin(sb_json_reader_t *r, char open)
{
	if (r->failed) {
		errno = EINVAL;
		return -1;
	}
	if (r->depth >= SB_JSON_MAX_DEPTH)
		return _fail(r, EOVERFLOW, "values nested too deep");
	if (_expect(r, open, open == '{' ? "expected an object" :
		    "expected an array") < 0)
		return -1;
	r->depth++;
	r->open[r->depth] = open;
	r->first[r->depth] = true;
	return 0;
}

int sb_json_object_begin(sb_json_reader_t *r)
{
	return _begin(r, '{');
}

int sb_json_array_begin(sb_json_reader_t *r)
{
	return _begin(r, '[');
}

/* The next member or element of the container entered last: 1, 0 at
 * its end, -1. */
static int _next(sb_json_reader_t *r, char open)
{
	char close = open == '{' ? '}' : ']';
	int c;

	if (r->failed || !r->depth || r->open[r->depth] != open) {
		if (!r->failed)
			return _fail(r, EINVAL, open == '{' ? "not in an "
				     "object" : "not in an array");
		errno = EINVAL;
		return -1;
	}
	c = _blanks(r);
	if (c == (unsigned char) close) {
		_take(r);
		r->depth--;
		return 0;
	}
	if (c < 0)
		return r->failed ? -1 : _fail(r, EINVAL, open == '{' ?
					      "an object not ended" :
					      "an array not ended");
	if (!r->first[r->depth] && _expect(r, ',', open == '{' ?
					   "expected ',' or '}'" :
					   "expected ',' or ']'") < 0)
		return -1;
	r->first[r->depth] = false;
	return 1;
}

int sb_json_object_next(sb_json_reader_t *r, const char **key)
{
	int rc = _next(r, '{');

	if (rc <= 0)
		return rc;
	if (_blanks(r) < 0 && !r->failed)
		return _fail(r, EINVAL, "an object not ended");
	if (_string(r, &r->key, &r->key_len, &r->key_room) < 0)
		return -1;
	if (strlen(r->key) != r->key_len)
		return _fail(r, EINVAL, "a NUL in a key");
	if (_expect(r, ':', "expected ':'") < 0)
		return -1;
	*key = r->key;
	return 1;
}

int sb_json_array_next(sb_json_reader_t *r)
{
	return _next(r, '[');
}

int sb_json_peek(sb_json_reader_t *r)
{
	int c;

	if (r->failed) {
		errno = EINVAL;
		return -1;
	}
	switch ((c = _blanks(r))) {
	case '{': return SB_JSON_OBJECT;
	case '[': return SB_JSON_ARRAY;
	case '"': return SB_JSON_STRING;
	case 't': case 'f': return SB_JSON_BOOL;
	case 'n': return SB_JSON_NULL;
	default:
		if (c == '-' || (c >= '0' && c <= '9'))
			return SB_JSON_NUMBER;
		if (!r->failed)
			_fail(r, EINVAL, c < 0 ? "a value expected, the input "
			      "ends" : "not a JSON value");
		errno = EINVAL;
		return -1;
	}
}

int sb_json_skip(sb_json_reader_t *r)
{
	if (r->failed) {
		errno = EINVAL;
		return -1;
	}
	return _value(r, r->depth, false) ? 0 : -1;
}

sb_json_t *sb_json_value(sb_json_reader_t *r)
{
	if (r->failed) {
		errno = EINVAL;
		return NULL;
	}
	r->nodes = 0;
	return _value(r, r->depth, true);
}

int sb_json_end(sb_json_reader_t *r)
{
	if (r->failed) {
		errno = EINVAL;
		return -1;
	}
	if (_blanks(r) >= 0)
		return _fail(r, EINVAL, "more after the value");
	return r->failed ? -1 : 0;
}

sb_json_t *sb_json_parse(const char *s, size_t n, char *err, size_t errlen)
{
	sb_json_reader_t *r = sb_json_reader_mem(s, n);
	sb_json_t *v;
	int e;

	if (!r)
		return NULL;
	if ((v = sb_json_value(r)) && sb_json_end(r) < 0) {
		sb_json_free(v);
		v = NULL;
	}
	e = errno;
	if (!v && err && errlen)
		snprintf(err, errlen, "%s", r->error);
	sb_json_reader_destroy(r);
	errno = e;
	return v;
}

/* ---- trees --------------------------------------------------------------- */

void sb_json_free(sb_json_t *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->n; i++) {
		sb_json_free(v->v[i]);
		if (v->k)
			free(v->k[i]);
	}
	free(v->v);
	free(v->k);
	free(v->s);
	free(v);
}

sb_json_type_t sb_json_type(const sb_json_t *v)
{
	return v ? v->type : SB_JSON_NULL;
}

size_t sb_json_count(const sb_json_t *v)
{
	return v && (v->type == SB_JSON_ARRAY || v->type == SB_JSON_OBJECT) ?
		v->n : 0;
}

const sb_json_t *sb_json_at(const sb_json_t *v, size_t i)
{
	return i < sb_json_count(v) ? v->v[i] : NULL;
}

const char *sb_json_key_at(const sb_json_t *v, size_t i)
{
	return v && v->type == SB_JSON_OBJECT && i < v->n ? v->k[i] : NULL;
}

const sb_json_t *sb_json_get(const sb_json_t *v, const char *key)
{
	size_t i;

	if (!v || v->type != SB_JSON_OBJECT || !key)
		return NULL;
	for (i = 0; i < v->n; i++)
		if (!strcmp(v->k[i], key))
			return v->v[i];
	return NULL;
}

const char *sb_json_str(const sb_json_t *v, size_t *len)
{
	if (!v || v->type != SB_JSON_STRING)
		return NULL;
	if (len)
		*len = v->len;
	return v->s;
}

int sb_json_int(const sb_json_t *v, int64_t *out)
{
	if (!v || v->type != SB_JSON_NUMBER || strpbrk(v->s, ".eE")) {
		errno = EINVAL;
		return -1;
	}
	if (!v->is_int) {
		errno = ERANGE;
		return -1;
	}
	*out = v->i;
	return 0;
}

int sb_json_num(const sb_json_t *v, double *out)
{
	if (!v || v->type != SB_JSON_NUMBER) {
		errno = EINVAL;
		return -1;
	}
	*out = v->d;
	return 0;
}

int sb_json_bool(const sb_json_t *v, bool *out)
{
	if (!v || v->type != SB_JSON_BOOL) {
		errno = EINVAL;
		return -1;
	}
	*out = v->b;
	return 0;
}

static int _check(const sb_json_t *v, int depth, size_t *nodes)
{
	size_t i;

	if (!v || depth > SB_JSON_MAX_DEPTH || ++*nodes > SB_JSON_MAX_NODES)
		return -1;
	switch (v->type) {
	case SB_JSON_NULL:
	case SB_JSON_BOOL:
		return v->n || v->s ? -1 : 0;
	case SB_JSON_NUMBER:
	case SB_JSON_STRING:
		if (!v->s || v->s[v->len] || v->n ||
		    v->len > SB_JSON_MAX_STRING ||
		    (v->type == SB_JSON_NUMBER && strlen(v->s) != v->len))
			return -1;
		return 0;
	case SB_JSON_ARRAY:
	case SB_JSON_OBJECT:
		if (v->n > v->room || (v->n && !v->v) ||
		    (v->type == SB_JSON_OBJECT && v->n && !v->k) ||
		    (v->type == SB_JSON_ARRAY && v->k))
			return -1;
		for (i = 0; i < v->n; i++)
			if ((v->type == SB_JSON_OBJECT && !v->k[i]) ||
			    _check(v->v[i], depth + 1, nodes) < 0)
				return -1;
		return 0;
	}
	return -1;
}

int sb_json_check(const sb_json_t *v)
{
	size_t nodes = 0;

	if (!v) {
		errno = EINVAL;
		return -1;
	}
	if (_check(v, 0, &nodes) < 0) {
		errno = EFAULT;
		return -1;
	}
	return 0;
}

static void _fmt_str(sb_strbuf_t *b, const char *s, size_t n)
{
	size_t i;

	sb_strbuf_add(b, "\"");
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char) s[i];

		switch (c) {
		case '"': sb_strbuf_add(b, "\\\""); break;
		case '\\': sb_strbuf_add(b, "\\\\"); break;
		case '\n': sb_strbuf_add(b, "\\n"); break;
		case '\t': sb_strbuf_add(b, "\\t"); break;
		case '\r': sb_strbuf_add(b, "\\r"); break;
		case '\b': sb_strbuf_add(b, "\\b"); break;
		case '\f': sb_strbuf_add(b, "\\f"); break;
		default:
			if (c < 0x20)
				sb_strbuf_addf(b, "\\u%04x", c);
			else
				sb_strbuf_addn(b, s + i, 1);
		}
	}
	sb_strbuf_add(b, "\"");
}

static void _fmt(sb_strbuf_t *b, const sb_json_t *v)
{
	size_t i;

	switch (v->type) {
	case SB_JSON_NULL:
		sb_strbuf_add(b, "null");
		return;
	case SB_JSON_BOOL:
		sb_strbuf_add(b, v->b ? "true" : "false");
		return;
	case SB_JSON_NUMBER:
		sb_strbuf_add(b, v->s);
		return;
	case SB_JSON_STRING:
		_fmt_str(b, v->s, v->len);
		return;
	case SB_JSON_ARRAY:
	case SB_JSON_OBJECT:
		sb_strbuf_add(b, v->type == SB_JSON_ARRAY ? "[" : "{");
		for (i = 0; i < v->n; i++) {
			if (i)
				sb_strbuf_add(b, ",");
			if (v->type == SB_JSON_OBJECT) {
				_fmt_str(b, v->k[i], strlen(v->k[i]));
				sb_strbuf_add(b, ":");
			}
			_fmt(b, v->v[i]);
		}
		sb_strbuf_add(b, v->type == SB_JSON_ARRAY ? "]" : "}");
		return;
	}
}

char *sb_json_fmt(const sb_json_t *v)
{
	sb_strbuf_t b = SB_STRBUF_INIT;

	if (!v) {
		errno = EINVAL;
		return NULL;
	}
	_fmt(&b, v);
	return sb_strbuf_finish(&b);
}
