/*
 * slurm_text.c - what Slurm's commands print, read back (slurm_text.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "civil_time.h"
#include "decimal.h"
#include "sb_time.h"
#include "slurm_text.h"

/*
 * A record's field names and their index live in a key set, which the
 * records parsed with one sb_record_cache_t share when their lines name
 * the same keys in the same order (the lines of 'scontrol show jobs -o'
 * do, a few kinds of job apart): a record then holds only its values
 * and one 32-bit offset per field, and a key is looked up in the set's small
 * open-addressing table of field numbers (hash of the key, linear
 * probing), which stays in the processor's cache while 'sbucket why'
 * reads 100,000 jobs. The reference count is not atomic: the records of
 * one cache belong to one thread at a time (slurm_text.h).
 */
struct sb_record_keys {
	size_t refs;		/* records and caches holding the set */
	size_t n;		/* fields */
	uint32_t *name;		/* field i's key: names + name[i] */
	uint16_t *slot;		/* field number + 1, 0 empty */
	size_t nslot;		/* a power of two > 1.5 times n */
	size_t repeated;	/* field number + 1 of the first key the
				 * line has again, 0 none */
	char *names;		/* the keys, NUL-ended, in field order */
};

struct sb_record {
	struct sb_record_keys *keys;
	uint32_t value[];	/* field i's value: text + value[i], the
				 * text (the values, NUL-ended) after
				 * value[keys->n] */
};

/* The values' text of @r. */
static char *_text(const sb_record_t *r)
{
	return (char *) (r->value + r->keys->n);
}

static size_t _key_hash(const char *k)
{
	size_t h = 5381;

	for (; *k; k++)
		h = h * 33 + (unsigned char) *k;
	return h;
}

/* The field number of @key in @ks, or ks->n. */
static size_t _find(const struct sb_record_keys *ks, const char *key)
{
	size_t i, f;

	for (i = _key_hash(key) & (ks->nslot - 1); (f = ks->slot[i]);
	     i = (i + 1) & (ks->nslot - 1))
		if (!strcmp(ks->names + ks->name[f - 1], key))
			return f - 1;
	return ks->n;
}

/*
 * The classes of a byte, by table: a line is read a byte at a time and
 * 100,000 jobs are 40 MB. B: a blank (isspace() in the C locale, which
 * sbucket keeps), K: a character a key may hold after its first
 * (letters, digits, "_/:"), U: a capital letter, which starts a key (and
 * is a K).
 */
#define B 1
#define K 2
#define U (4 | K)
static const unsigned char _cls[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, B, B, B, B, B, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	B, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, K,
	K, K, K, K, K, K, K, K, K, K, K, 0, 0, 0, 0, 0,
	0, U, U, U, U, U, U, U, U, U, U, U, U, U, U, U,
	U, U, U, U, U, U, U, U, U, U, U, 0, 0, 0, 0, K,
	0, K, K, K, K, K, K, K, K, K, K, K, K, K, K, K,
	K, K, K, K, K, K, K, K, K, K, K, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};
#undef B
#undef K
#undef U

static bool _blank(char c)
{
	return _cls[(unsigned char) c] & 1;
}

/* Length of the key at @s when @s starts a field ("Key="), else 0. */
static size_t _key_len(const char *s)
{
	size_t i = 0;

	if (!(_cls[(unsigned char) s[0]] & 4))
		return 0;
	for (i = 1; _cls[(unsigned char) s[i]] & 2; i++)
		;
	return s[i] == '=' ? i : 0;
}


/* Drop blanks at the end of a value. */
static void _rtrim(char *s, char *start)
{
	while (s > start && isspace((unsigned char) s[-1]))
		*--s = '\0';
}

static void _keys_release(struct sb_record_keys *ks)
{
	if (ks && !--ks->refs)
		free(ks);	/* one block (_keys_new) */
}

/*
 * Do the @m keys at @text + off[i] (in order, repeats included) match
 * @ks field for field? Then the record has no repeated key either.
 */
static bool _same_keys(const struct sb_record_keys *ks, const char *text,
		       const uint32_t *off, size_t m)
{
	size_t i;

	if (ks->n != m)
		return false;
	for (i = 0; i < m; i++)
		if (strcmp(ks->names + ks->name[i], text + off[i]))
			return false;
	return true;
}

/*
 * A new key set (one reference) of the @m keys at @text + off[i], a
 * repeated key dropped (the first one counts); off[] is compacted in
 * place to the offsets of the keys kept. NULL with errno ENOMEM.
 */
static struct sb_record_keys *_keys_new(const char *text, uint32_t *off,
					size_t m)
{
	struct sb_record_keys *ks;
	size_t i, k, nslot, bytes = 0;
	char *dst;

	for (i = 0; i < m; i++)
		bytes += strlen(text + off[i]) + 1;
	for (nslot = 16; nslot <= m + m / 2; nslot *= 2)
		;
	if (!(ks = malloc(sizeof(*ks) + m * sizeof(uint32_t) +
			  nslot * sizeof(uint16_t) + bytes))) {
		errno = ENOMEM;
		return NULL;
	}
	ks->refs = 1;
	ks->n = 0;
	ks->repeated = 0;
	ks->name = (uint32_t *) (ks + 1);
	ks->slot = (uint16_t *) (ks->name + m);
	ks->nslot = nslot;
	memset(ks->slot, 0, nslot * sizeof(*ks->slot));
	ks->names = dst = (char *) (ks->slot + nslot);
	for (k = 0; k < m; k++) {
		const char *key = text + off[k];
		size_t len = strlen(key);

		if ((i = _find(ks, key)) < ks->n) {
			/* a repeat is dropped, and remembered */
			if (!ks->repeated)
				ks->repeated = i + 1;
			continue;
		}
		memcpy(dst, key, len + 1);
		ks->name[ks->n] = (uint32_t) (dst - ks->names);
		dst += len + 1;
		for (i = _key_hash(key) & (nslot - 1); ks->slot[i];
		     i = (i + 1) & (nslot - 1))
			;
		ks->slot[i] = (uint16_t) (ks->n + 1);
		off[ks->n++] = off[k];
	}
	return ks;
}

/*
 * The key set of the @m keys at @text + off[i]: one of @cache's (made
 * the most recent), or a new one, which @cache then keeps in place of
 * its least recent. The caller gets a reference; off[] as _keys_new().
 */
static struct sb_record_keys *_keys_of(sb_record_cache_t *cache,
				       const char *text, uint32_t *off,
				       size_t m)
{
	struct sb_record_keys *ks;
	size_t i;

	for (i = 0; i < cache->n; i++) {
		if (!_same_keys(cache->keys[i], text, off, m))
			continue;
		ks = cache->keys[i];
		memmove(cache->keys + 1, cache->keys, i * sizeof(*cache->keys));
		cache->keys[0] = ks;
		ks->refs++;
		return ks;
	}
	if (!(ks = _keys_new(text, off, m)))
		return NULL;
	if (cache->n == SB_RECORD_CACHE_SETS)
		_keys_release(cache->keys[--cache->n]);
	memmove(cache->keys + 1, cache->keys, cache->n * sizeof(*cache->keys));
	cache->keys[0] = ks;
	cache->n++;
	ks->refs++;
	return ks;
}

/* Room for a line of @len bytes and @cap fields in @c. 0, or -1. */
static int _room(sb_record_cache_t *c, size_t len, size_t cap)
{
	char *buf;
	uint32_t *off;

	if (len + 1 > c->buf_room) {
		if (!(buf = realloc(c->buf, 2 * (len + 1))))
			return -1;
		c->buf = buf;
		c->buf_room = 2 * (len + 1);
	}
	if (cap > c->off_room) {
		if (!(off = realloc(c->off, 2 * cap * sizeof(*off))))
			return -1;
		c->off = off;
		c->off_room = 2 * cap;
	}
	return 0;
}

sb_record_t *sb_record_parse_cached(const char *line, sb_record_cache_t *cache)
{
	sb_record_cache_t own = SB_RECORD_CACHE_INIT;
	sb_record_t *r = NULL;
	struct sb_record_keys *ks;
	size_t cap, len, k, m = 0, bytes = 0;
	char *p, *val_end = NULL, *dst;

	if (!line) {
		errno = EINVAL;
		return NULL;
	}
	while (isspace((unsigned char) *line))
		line++;
	if (!_key_len(line)) {
		errno = EINVAL;
		return NULL;
	}
	/* without a cache, a throwaway one: the record keeps its key set */
	if (!cache)
		cache = &own;
	len = strlen(line);
	/* every field has an '=', so their count bounds the fields */
	for (cap = 1, p = strchr(line, '='); p; p = strchr(p + 1, '='))
		cap++;
	/* the line is cut in the cache's buffer, and the record gets the
	 * values alone: its keys are its key set's */
	if (cap >= 65535 || len >= UINT32_MAX || _room(cache, len, cap) < 0)
		goto oom;
	memcpy(cache->buf, line, len + 1);
	p = cache->buf;
	while (*p) {
		size_t kl = _key_len(p);

		if (kl) {
			/* the value before ends at the last token's end */
			if (val_end)
				*val_end = '\0';
			p[kl] = '\0';
			cache->off[m++] = (uint32_t) (p - cache->buf);
			p += kl + 1;
		}
		while (*p && !_blank(*p))
			p++;
		val_end = p;
		while (_blank(*p))
			p++;
	}
	if (val_end)
		*val_end = '\0';
	if (!(ks = _keys_of(cache, cache->buf, cache->off, m)))
		goto oom;
	/* off[k]: field k's key, then its value, blanks before it dropped */
	for (k = 0; k < ks->n; k++) {
		p = cache->buf + cache->off[k];
		p += strlen(p) + 1;
		while (_blank(*p))
			p++;
		cache->off[k] = (uint32_t) (p - cache->buf);
		bytes += strlen(p) + 1;
	}
	if (!(r = malloc(sizeof(*r) + ks->n * sizeof(uint32_t) + bytes))) {
		_keys_release(ks);
		goto oom;
	}
	r->keys = ks;
	dst = _text(r);
	for (k = 0; k < ks->n; k++) {
		p = cache->buf + cache->off[k];
		len = strlen(p) + 1;
		memcpy(dst, p, len);
		r->value[k] = (uint32_t) (dst - _text(r));
		dst += len;
	}
	sb_record_cache_fini(&own);
	return r;
oom:
	sb_record_cache_fini(&own);
	errno = ENOMEM;
	return NULL;
}

sb_record_t *sb_record_parse(const char *line)
{
	return sb_record_parse_cached(line, NULL);
}

void sb_record_free(sb_record_t *r)
{
	if (!r)
		return;
	_keys_release(r->keys);
	free(r);	/* one block (sb_record_parse_cached) */
}

void sb_record_cache_fini(sb_record_cache_t *cache)
{
	if (!cache)
		return;
	while (cache->n)
		_keys_release(cache->keys[--cache->n]);
	free(cache->buf);
	free(cache->off);
	cache->buf = NULL;
	cache->off = NULL;
	cache->buf_room = cache->off_room = 0;
}

const char *sb_record_get(const sb_record_t *r, const char *key)
{
	size_t i;

	if (!r || !key) {
		errno = EINVAL;
		return NULL;
	}
	if ((i = _find(r->keys, key)) < r->keys->n)
		return _text(r) + r->value[i];
	errno = ENOENT;
	return NULL;
}

const char *sb_record_value(const sb_record_t *r, const char *key)
{
	const char *v = sb_record_get(r, key);

	if (v && (!*v || !strcmp(v, "(null)") || !strcmp(v, "N/A"))) {
		errno = ENOENT;
		return NULL;
	}
	return v;
}

const char *sb_record_repeated(const sb_record_t *r)
{
	if (!r || !r->keys->repeated)
		return NULL;
	return r->keys->names + r->keys->name[r->keys->repeated - 1];
}

size_t sb_record_count(const sb_record_t *r)
{
	return r ? r->keys->n : 0;
}

const char *sb_record_key_at(const sb_record_t *r, size_t i)
{
	return r && i < r->keys->n ? r->keys->names + r->keys->name[i] : NULL;
}

const char *sb_record_value_at(const sb_record_t *r, size_t i)
{
	return r && i < r->keys->n ? _text(r) + r->value[i] : NULL;
}

int sb_record_check(const sb_record_t *r)
{
	size_t i, j, len, n = sb_record_count(r);

	if (!r) {
		errno = EINVAL;
		return -1;
	}
	if (!n)
		goto bad;
	for (i = 0; i < n; i++) {
		const char *key = sb_record_key_at(r, i);
		const char *val = sb_record_value_at(r, i);
		char probe[256];

		len = strlen(key);
		if (!len || len + 2 > sizeof(probe))
			goto bad;
		memcpy(probe, key, len);
		probe[len] = '=';
		probe[len + 1] = '\0';
		if (_key_len(probe) != len)
			goto bad;
		len = strlen(val);
		if (len && (isspace((unsigned char) val[0]) ||
			    isspace((unsigned char) val[len - 1])))
			goto bad;
		for (j = 0; j < i; j++)
			if (!strcmp(key, sb_record_key_at(r, j)))
				goto bad;
	}
	return 0;
bad:
	errno = EFAULT;
	return -1;
}

int sb_config_line(char *line, char **key, char **value)
{
	char *eq, *end, *v;

	if (!line || !key || !value) {
		errno = EINVAL;
		return -1;
	}
	if (!(eq = strstr(line, " = "))) {
		errno = ENOENT;
		return -1;
	}
	for (end = eq; end > line && isspace((unsigned char) end[-1]); end--)
		;
	*end = '\0';
	for (v = eq + 3; isspace((unsigned char) *v); v++)
		;
	end = v + strlen(v);
	_rtrim(end, v);
	while (isspace((unsigned char) *line))
		line++;
	*key = line;
	*value = v;
	return 0;
}

int sb_slurm_time(const char *s, int64_t *t)
{
	struct tm tm;
	int64_t civil, days, y;
	time_t v;

	if (!s || !t) {
		errno = EINVAL;
		return -1;
	}
	if (!*s || !strcmp(s, "Unknown") || !strcmp(s, "None") ||
	    !strcmp(s, "N/A") || !strcmp(s, "(null)")) {
		errno = ENOENT;
		return -1;
	}
	/* The grammar is civil_time's; the clock is the local one. */
	if (sb_civil_parse(s, &civil))
		return -1;
	days = sb_civil_fdiv(civil, 86400);
	memset(&tm, 0, sizeof(tm));
	sb_civil_from_days(days, &y, &tm.tm_mon, &tm.tm_mday);
	tm.tm_year = (int) (y - 1900);
	tm.tm_mon--;
	tm.tm_hour = (int) ((civil - days * 86400) / 3600);
	tm.tm_min = (int) ((civil - days * 86400) / 60 % 60);
	tm.tm_sec = (int) ((civil - days * 86400) % 60);
	tm.tm_isdst = -1;
	v = mktime(&tm);
	if (v == (time_t) -1) {
		errno = EINVAL;
		return -1;
	}
	*t = (int64_t) v;
	return 0;
}

/*
 * Digits, then nothing (MB) or one unit letter of @units (upper case;
 * lower case too when @any_case): K rounds up to whole MB, M, G, T, P
 * shift by 0, 10, 20, 30 bits.
 */
static int _mem(const char *s, uint64_t *mb, const char *units,
		bool any_case)
{
	static const char order[] = "MGTP";
	const char *end, *u;
	uint64_t v;
	int c;

	if (!mb) {
		errno = EINVAL;
		return -1;
	}
	if (sb_decimal_parse(s, UINT64_MAX, &v, &end))
		return -1;
	if (!*end) {
		*mb = v;
		return 0;
	}
	c = any_case ? toupper((unsigned char) *end) : *end;
	if (end[1] || !strchr(units, c)) {
		errno = EINVAL;
		return -1;
	}
	if (c == 'K') {
		*mb = v / 1024 + (v % 1024 != 0);
		return 0;
	}
	u = strchr(order, c);
	if (v > (UINT64_MAX >> (10 * (u - order)))) {
		errno = ERANGE;
		return -1;
	}
	*mb = v << (10 * (u - order));
	return 0;
}

int sb_slurm_mem(const char *s, uint64_t *mb)
{
	return _mem(s, mb, "KMGTP", false);
}

int sb_slurm_mem_option(const char *s, uint64_t *mb)
{
	return _mem(s, mb, "KMGT", true);
}

void sb_licenses_free(sb_license_t *v, size_t n)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

/* A character a licence name may not hold. */
static bool _lic_special(char c)
{
	return isspace((unsigned char) c) || iscntrl((unsigned char) c) ||
	       strchr(",;:|=()", c);
}

int sb_licenses_parse(const char *s, sb_license_t **out, size_t *n,
		      size_t *errpos)
{
	sb_license_t *v = NULL, *nv;
	size_t k = 0, room = 0, len, item;
	const char *p, *end;
	uint64_t c;
	int err = EINVAL;

	if (errpos)
		*errpos = 0;
	if (!s || !out || !n) {
		errno = EINVAL;
		return -1;
	}
	if (strchr(s, '|')) {
		/* Point at the item that holds the first '|'. */
		for (p = s, item = 0; *p != '|'; p++)
			if (*p == ',' || *p == ';')
				item = (size_t) (p - s) + 1;
		if (errpos)
			*errpos = item;
		errno = ENOTSUP;
		return -1;
	}
	p = s;
	for (;;) {
		item = (size_t) (p - s);
		for (len = 0; p[len] && !_lic_special(p[len]); len++)
			;
		if (!len || (p[len] && p[len] != ':' && p[len] != ',' &&
			     p[len] != ';'))
			goto bad;
		c = 1;
		end = p + len;
		if (*end == ':') {
			if (sb_decimal_parse(end + 1, INT32_MAX, &c, &end)) {
				if (errno == ERANGE)
					err = ERANGE;
				goto bad;
			}
			if (*end && *end != ',' && *end != ';')
				goto bad;
		}
		if (k == room) {
			room = room ? 2 * room : 4;
			if (!(nv = realloc(v, room * sizeof(*v))))
				goto oom;
			v = nv;
		}
		if (!(v[k].name = strndup(p, len)))
			goto oom;
		v[k++].count = (int64_t) c;
		if (!*end)
			break;
		p = end + 1;
	}
	*out = v;
	*n = k;
	return 0;
oom:
	sb_licenses_free(v, k);
	errno = ENOMEM;
	return -1;
bad:
	sb_licenses_free(v, k);
	if (errpos)
		*errpos = item;
	errno = err;
	return -1;
}
