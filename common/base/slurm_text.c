/*
 * slurm_text.c - what Slurm's commands print, read back (slurm_text.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "civil_time.h"
#include "decimal.h"
#include "sb_time.h"
#include "slurm_text.h"

struct sb_record {
	char *text;		/* the line, cut into NUL-ended pieces */
	size_t n;
	char **keys;
	char **values;
};

/* Length of the key at @s when @s starts a field ("Key="), else 0. */
static size_t _key_len(const char *s)
{
	size_t i = 0;

	if (!isupper((unsigned char) s[0]))
		return 0;
	for (i = 1; s[i] && s[i] != '='; i++)
		if (!isalnum((unsigned char) s[i]) && !strchr("_/:", s[i]))
			return 0;
	return s[i] == '=' ? i : 0;
}

static int _seen(const sb_record_t *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->keys[i], key))
			return 1;
	return 0;
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
	size_t cap, len, k;
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
	if (!(r = calloc(1, sizeof(*r))))
		return NULL;
	len = strlen(line);
	cap = len / 2 + 2;	/* a field takes at least "K=" */
	r->text = strdup(line);
	r->keys = malloc(cap * sizeof(*r->keys));
	r->values = malloc(cap * sizeof(*r->values));
	if (!r->text || !r->keys || !r->values) {
		sb_record_free(r);
		errno = ENOMEM;
		return NULL;
	}
	p = r->text;
	while (*p) {
		size_t kl = _key_len(p);

		if (kl) {
			/* the value before ends at the last token's end */
			if (val_end)
				*val_end = '\0';
			p[kl] = '\0';
			if (!_seen(r, p)) {	/* a repeat is dropped */
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
	return r;
}

void sb_record_free(sb_record_t *r)
{
	if (!r)
		return;
	free(r->text);
	free(r->keys);
	free(r->values);
	free(r);
}

const char *sb_record_get(const sb_record_t *r, const char *key)
{
	size_t i;

	if (!r || !key) {
		errno = EINVAL;
		return NULL;
	}
	for (i = 0; i < r->n; i++)
		if (!strcmp(r->keys[i], key))
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
