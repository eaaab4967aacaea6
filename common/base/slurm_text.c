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
 * A record finds a key through a small open-addressing table of field
 * numbers (hash of the key, linear probing), so reading a job's 100
 * fields one by one does not compare every key each time: 'sbucket why'
 * reads 100,000 jobs.
 */
struct sb_record {
	char *text;		/* the line, cut into NUL-ended pieces */
	size_t n;
	char **keys;
	char **values;
	uint16_t *slot;		/* field number + 1, 0 empty */
	size_t nslot;		/* a power of two > 1.5 times the '=' */
};

static size_t _key_hash(const char *k)
{
	size_t h = 5381;

	for (; *k; k++)
		h = h * 33 + (unsigned char) *k;
	return h;
}

/* The field number of @key, or r->n. */
static size_t _find(const sb_record_t *r, const char *key)
{
	size_t i, f;

	for (i = _key_hash(key) & (r->nslot - 1); (f = r->slot[i]);
	     i = (i + 1) & (r->nslot - 1))
		if (!strcmp(r->keys[f - 1], key))
			return f - 1;
	return r->n;
}

/* Characters a key may hold after its first: letters, digits, "_/:". */
static bool _key_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		(c >= '0' && c <= '9') || c == '_' || c == '/' || c == ':';
}

/* Length of the key at @s when @s starts a field ("Key="), else 0. */
static size_t _key_len(const char *s)
{
	size_t i = 0;

	if (s[0] < 'A' || s[0] > 'Z')
		return 0;
	for (i = 1; s[i] && s[i] != '='; i++)
		if (!_key_char((unsigned char) s[i]))
			return 0;
	return s[i] == '=' ? i : 0;
}


/* Drop blanks at the end of a value. */
static void _rtrim(char *s, char *start)
{
	while (s > start && isspace((unsigned char) s[-1]))
		*--s = '\0';
}

sb_record_t *sb_record_parse(const char *line)
{
	sb_record_t *r;
	size_t cap, len, k, nslot;
	char *p, *val_end = NULL;

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
	len = strlen(line);
	/* every field has an '=', so their count bounds the fields */
	for (cap = 1, p = strchr(line, '='); p; p = strchr(p + 1, '='))
		cap++;
	for (nslot = 16; nslot <= cap + cap / 2; nslot *= 2)
		;
	/* one block: the record, keys, values, slots, then the text */
	if (cap >= 65535 || !(r = malloc(sizeof(*r) + 2 * cap * sizeof(char *) +
					 nslot * sizeof(uint16_t) + len + 1))) {
		errno = ENOMEM;
		return NULL;
	}
	r->n = 0;
	r->keys = (char **) (r + 1);
	r->values = r->keys + cap;
	r->slot = (uint16_t *) (r->values + cap);
	r->nslot = nslot;
	memset(r->slot, 0, nslot * sizeof(*r->slot));
	r->text = (char *) (r->slot + nslot);
	memcpy(r->text, line, len + 1);
	p = r->text;
	while (*p) {
		size_t kl = _key_len(p);

		if (kl) {
			/* the value before ends at the last token's end */
			if (val_end)
				*val_end = '\0';
			p[kl] = '\0';
			if (_find(r, p) == r->n) {	/* a repeat is dropped */
				size_t i = _key_hash(p) & (r->nslot - 1);

				while (r->slot[i])
					i = (i + 1) & (r->nslot - 1);
				r->slot[i] = (uint16_t) (r->n + 1);
				r->keys[r->n] = p;
				r->values[r->n] = p + kl + 1;
				r->n++;
			}
			p += kl + 1;
		}
		while (*p && !isspace((unsigned char) *p))
			p++;
		val_end = p;
		while (*p && isspace((unsigned char) *p))
			p++;
	}
	if (val_end)
		*val_end = '\0';
	for (k = 0; k < r->n; k++)
		while (isspace((unsigned char) *r->values[k]))
			r->values[k]++;
	/* give back the room for fields that were not there (a job's line
	 * of 1,500 bytes has some 90 fields, not 750): 100,000 records */
	return r;
}

void sb_record_free(sb_record_t *r)
{
	if (!r)
		return;
	free(r);	/* one block (sb_record_parse) */
}

const char *sb_record_get(const sb_record_t *r, const char *key)
{
	size_t i;

	if (!r || !key) {
		errno = EINVAL;
		return NULL;
	}
	/* the first letter rules out nearly every key without a call */
	if ((i = _find(r, key)) < r->n)
		return r->values[i];
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

size_t sb_record_count(const sb_record_t *r)
{
	return r ? r->n : 0;
}

const char *sb_record_key_at(const sb_record_t *r, size_t i)
{
	return r && i < r->n ? r->keys[i] : NULL;
}

const char *sb_record_value_at(const sb_record_t *r, size_t i)
{
	return r && i < r->n ? r->values[i] : NULL;
}

int sb_record_check(const sb_record_t *r)
{
	size_t i, j, len;

	if (!r) {
		errno = EINVAL;
		return -1;
	}
	if (!r->n)
		goto bad;
	for (i = 0; i < r->n; i++) {
		char probe[256];

		len = strlen(r->keys[i]);
		if (!len || len + 2 > sizeof(probe))
			goto bad;
		memcpy(probe, r->keys[i], len);
		probe[len] = '=';
		probe[len + 1] = '\0';
		if (_key_len(probe) != len)
			goto bad;
		len = strlen(r->values[i]);
		if (len && (isspace((unsigned char) r->values[i][0]) ||
			    isspace((unsigned char) r->values[i][len - 1])))
			goto bad;
		for (j = 0; j < i; j++)
			if (!strcmp(r->keys[i], r->keys[j]))
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
