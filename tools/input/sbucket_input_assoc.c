/*
 * sbucket_input_assoc.c - the association file of 'sbucket fairshare'
 * and 'sbucket replay --tree' (sbucket_input_assoc.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "sbucket.h"
#include "sbucket_input_assoc.h"
#include "shown.h"

#define MAX_LINE 4096
/* 2^64: sshare prints RawUsage as an unsigned 64-bit integer. */
#define USAGE_LIMIT 18446744073709551616.0L

struct input {
	const char *file;
	int *line_of;		/* defining line of each association id */
	int cap;
	int root_line;		/* the line giving root's usage, 0 for none */
};

static int _bad(const struct input *in, int line, const char *field,
		const char *token, const char *why)
{
	char shown[SB_SHOWN_BUF];

	fprintf(stderr, "sbucket" ": %s:%d: %s '%s': %s\n", in->file, line, field,
		sb_shown(shown, sizeof(shown), token), why);
	return -1;
}

static int _remember_line(struct input *in, int id, int line)
{
	if (id >= in->cap) {
		int cap = in->cap ? in->cap * 2 : 64;
		int *l;

		while (cap <= id)
			cap *= 2;
		if (!(l = realloc(in->line_of, (size_t) cap * sizeof(*l))))
			return -1;
		in->line_of = l;
		in->cap = cap;
	}
	in->line_of[id] = line;
	return 0;
}

static char *_trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' ||
			 e[-1] == '\n'))
		*--e = '\0';
	return s;
}

static const char *_name_problem(const char *s)
{
	size_t len = strlen(s);

	if (!len)
		return "empty";
	if (len > SB_ASSOC_NAME_MAX)
		return "longer than 255 bytes";
	for (; *s; s++)
		if ((unsigned char) *s <= ' ' || *s == ',' || *s == '/' ||
		    *s == 127)
			return "contains a blank, control character, ',' or "
			       "'/'";
	return NULL;
}

static int _parse_shares(const char *s, uint32_t *out)
{
	const char *p;
	uint64_t v = 0;

	if (!strcmp(s, "parent")) {
		*out = SB_SHARES_PARENT;
		return 0;
	}
	if (!*s)
		return -1;
	for (p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (uint64_t) (*p - '0');
		if (v > SB_SHARES_MAX)
			return -2;
	}
	*out = (uint32_t) v;
	return 0;
}

/* A plain decimal: digits, optionally '.' and digits. */
static int _parse_usage(const char *s, long double *out)
{
	const char *p = s;
	char *end;
	long double v;

	if (!(*p >= '0' && *p <= '9'))
		return -1;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p == '.') {
		p++;
		if (!(*p >= '0' && *p <= '9'))
			return -1;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p)
		return -1;
	errno = 0;
	v = strtold(s, &end);
	/* sshare's RawUsage is a 64-bit integer: so is what we print. */
	if (errno || !isfinite(v) || v >= USAGE_LIMIT)
		return -2;
	*out = v;
	return 0;
}

/* RawUsage @tok of line @line into *@out; one message on error. */
static int _usage_token(const struct input *in, int line, const char *tok,
			long double *out)
{
	int rc = _parse_usage(tok, out);

	if (rc == -1)
		return _bad(in, line, "RawUsage", tok, "not a number >= 0 "
			    "(digits, optional fraction)");
	if (rc == -2)
		return _bad(in, line, "RawUsage", tok, "too large (at most "
			    "18446744073709551615)");
	return 0;
}

/* An account's or root's given RawUsage @tok. */
static int _set_usage(sb_assoc_tree_t *t, struct input *in, int id,
		      const char *tok, int line)
{
	long double usage;

	if (_usage_token(in, line, tok, &usage) < 0)
		return -1;
	if (sb_assoc_tree_set_usage(t, id, usage) < 0) {
		fprintf(stderr, "sbucket" ": %s:%d: %s\n", in->file, line,
			strerror(errno));
		return -1;
	}
	return 0;
}

static int _parse_line(sb_assoc_tree_t *t, struct input *in, char *buf,
		       int line)
{
	char *f[5], *p = buf, whole[80], a[SB_SHOWN_BUF], u[SB_SHOWN_BUF];
	size_t wlen = 0;
	int nf = 0, id, acct, parent;
	uint32_t shares;
	long double usage = 0;
	const char *why;
	char cnt[16];
	int rc;

	/* Keep the line for the message, shortened if needed. */
	sb_shown_put(whole, sizeof(whole), &wlen, buf, SIZE_MAX,
		     sizeof(whole) - 4);
	for (;;) {
		char *bar = strchr(p, '|');

		if (nf < 5)
			f[nf] = p;
		nf++;
		if (!bar)
			break;
		*bar = '\0';
		p = bar + 1;
	}
	if (nf != 5) {
		snprintf(cnt, sizeof(cnt), "%d", nf);
		fprintf(stderr, "sbucket" ": %s:%d: line '%s': %s fields, expected "
			"5 (Account|Parent|User|Shares|RawUsage)\n", in->file,
			line, whole, cnt);
		return -1;
	}
	for (nf = 0; nf < 5; nf++)
		f[nf] = _trim(f[nf]);

	if ((why = _name_problem(f[0])))
		return _bad(in, line, "Account", f[0], why);
	if (!*f[2] && !strcmp(f[0], "root")) {
		/* root's usage, as Slurm keeps it */
		if (*f[1] || *f[3] || !*f[4])
			return _bad(in, line, "Account", f[0],
				    "root is implicit: its line may only "
				    "give RawUsage (root||||RawUsage)");
		if (in->root_line)
			return _bad(in, line, "Account", f[0],
				    "root's usage given twice");
		in->root_line = line;
		return _set_usage(t, in, SB_ASSOC_ROOT, f[4], line);
	}
	rc = _parse_shares(f[3], &shares);
	if (rc == -1)
		return _bad(in, line, "Shares", f[3],
			    "not an integer or 'parent'");
	if (rc == -2)
		return _bad(in, line, "Shares", f[3],
			    "out of range (0-2147483646)");

	if (!*f[2]) {
		/* An account line. */
		if (!*f[1]) {
			parent = SB_ASSOC_ROOT;
		} else if ((parent = sb_assoc_tree_find_account(t, f[1])) < 0) {
			return _bad(in, line, "Parent", f[1],
				    "no such account (define accounts "
				    "before use)");
		}
		if ((id = sb_assoc_tree_find_account(t, f[0])) >= 0) {
			snprintf(cnt, sizeof(cnt), "%d", in->line_of[id]);
			fprintf(stderr, "sbucket" ": %s:%d: Account '%s': defined "
				"twice (first on line %s)\n", in->file, line,
				sb_shown(a, sizeof(a), f[0]), cnt);
			return -1;
		}
		id = sb_assoc_tree_add_account(t, parent, f[0], shares);
		if (id >= 0 && *f[4] &&
		    _set_usage(t, in, id, f[4], line) < 0)
			return -1;
	} else {
		if ((why = _name_problem(f[2])))
			return _bad(in, line, "User", f[2], why);
		if (*f[1])
			return _bad(in, line, "Parent", f[1],
				    "must be empty on a user line (the "
				    "user's account is the Account field)");
		if ((acct = sb_assoc_tree_find_account(t, f[0])) < 0)
			return _bad(in, line, "Account", f[0],
				    "no such account (define accounts "
				    "before use)");
		if (_usage_token(in, line, f[4], &usage) < 0)
			return -1;
		if ((id = sb_assoc_tree_find_user(t, acct, f[2])) >= 0) {
			snprintf(cnt, sizeof(cnt), "%d", in->line_of[id]);
			fprintf(stderr, "sbucket" ": %s:%d: User '%s': already in "
				"account '%s' (line %s)\n", in->file, line,
				sb_shown(u, sizeof(u), f[2]),
				sb_shown(a, sizeof(a), f[0]), cnt);
			return -1;
		}
		id = sb_assoc_tree_add_user(t, acct, f[2], shares, usage);
	}
	if (id < 0 || _remember_line(in, id, line) < 0) {
		fprintf(stderr, "sbucket" ": %s:%d: %s\n", in->file, line,
			strerror(errno ? errno : ENOMEM));
		return -1;
	}
	return 0;
}

int sbi_read_assoc(FILE *f, const char *name, sb_assoc_tree_t *t)
{
	struct input in = { name, NULL, 0, 0 };
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	int line = 0, rc = 0;

	while ((len = sbucket_getline(f, &buf, &cap, in.file,
				      (size_t) line + 1)) >= 0) {
		char *s;

		line++;
		if (len - (buf[len - 1] == '\n') > MAX_LINE) {
			fprintf(stderr, "sbucket: %s:%d: line longer than %d "
				"bytes\n", in.file, line, MAX_LINE);
			rc = -1;
			break;
		}
		s = _trim(buf);
		if (!*s || *s == '#')
			continue;
		if (_parse_line(t, &in, s, line) < 0) {
			rc = -1;
			break;
		}
	}
	if (len == -2)
		rc = -1;
	if (!rc && ferror(f)) {
		fprintf(stderr, "sbucket: %s: read error\n", in.file);
		rc = -1;
	}
	free(buf);
	free(in.line_of);
	return rc;
}
