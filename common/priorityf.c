/*
 * priorityf.c - Maui's PRIORITYF node priority expression, for Slurm.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "priorityf.h"

static const char *const _names[SB_PF_NCOMP] = {
	"CPROCS", "CMEM", "CDISK", "APROCS", "AMEM", "ADISK",
	"SPEED", "LOAD", "JOBCOUNT", "WEIGHT", "PREF",
};

/* Maui components with nothing to read in Slurm. */
static const char *const _maui_only[] = {
	"ASWAP", "CSWAP", "USAGE", "RESAFFINITY", "PRIORITY",
};

static int _word_is(const char *s, size_t len, const char *name)
{
	size_t i;

	if (strlen(name) != len)
		return 0;
	for (i = 0; i < len; i++)
		if (toupper((unsigned char) s[i]) != name[i])
			return 0;
	return 1;
}

static void _skip_ws(const char *s, size_t *p)
{
	while (s[*p] == ' ' || s[*p] == '\t')
		(*p)++;
}

/* Length of a number at s (grammar in the header), 0 if none. */
static size_t _number_len(const char *s)
{
	size_t p = 0, e;

	while (isdigit((unsigned char) s[p]))
		p++;
	/* digits ['.' digits] | '.' digits: "5." is not a number. */
	if (s[p] == '.' && isdigit((unsigned char) s[p + 1]))
		for (p++; isdigit((unsigned char) s[p]); p++)
			;
	if (!p)
		return 0;
	if (s[p] == 'e' || s[p] == 'E') {
		e = p + 1;
		if (s[e] == '+' || s[e] == '-')
			e++;
		if (isdigit((unsigned char) s[e])) {
			while (isdigit((unsigned char) s[e]))
				e++;
			p = e;
		}
	}
	return p;
}

int sb_priorityf_number(const char *s, size_t *len, double *v)
{
	char num[64], *copy = num;
	size_t n;
	double d;

	if (!s || !len || !v) {
		errno = EINVAL;
		return -1;
	}
	if (!(n = _number_len(s))) {
		*len = 0;
		errno = EINVAL;
		return -1;
	}
	/* strtod() reads more than the grammar ("0x1p3"): a copy stops it. */
	if (n >= sizeof(num) && !(copy = malloc(n + 1)))
		return -1;
	memcpy(copy, s, n);
	copy[n] = '\0';
	d = strtod(copy, NULL);
	if (copy != num)
		free(copy);
	*len = n;
	if (!isfinite(d)) {
		errno = ERANGE;
		return -1;
	}
	*v = d;
	return 0;
}

char *sb_priorityf_number_fmt(char *buf, size_t cap, double v)
{
	int digits;

	for (digits = 15; digits < 17; digits++) {
		snprintf(buf, cap, "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, cap, "%.17g", v);
	return buf;
}

int sb_priorityf_parse(const char *s, sb_priorityf_t *pf, size_t *errpos,
		       const char **errmsg)
{
	sb_priorityf_t out;
	size_t p = 0, at = 0, term, len, k;
	const char *msg = NULL;
	int err = EINVAL, neg, nterms = 0, r;
	double coef;

	if (!s || !pf) {
		errno = EINVAL;
		return -1;
	}
	memset(&out, 0, sizeof(out));
	_skip_ws(s, &p);
	while (s[p]) {
		/* Signs: required between terms, optional before the first. */
		neg = 0;
		at = p;
		while (s[p] == '+' || s[p] == '-' || s[p] == ' ' ||
		       s[p] == '\t')
			if (s[p++] == '-')
				neg = !neg;
		if (nterms && p == at) {
			msg = "expected '+' or '-' between terms";
			goto fail;
		}
		at = term = p;
		coef = 1.0;
		r = sb_priorityf_number(s + p, &len, &coef);
		if (r && len) {
			err = errno;
			msg = err == ERANGE ? "coefficient out of range" :
			      "out of memory";
			goto fail;
		}
		if (len) {
			p += len;
			_skip_ws(s, &p);
			if (s[p] == '*') {
				p++;
				_skip_ws(s, &p);
			}
			at = p;
		}
		if (!isalpha((unsigned char) s[p])) {
			msg = s[p] ? (len ? "expected a component after the "
				      "coefficient" : "expected a number or a "
				      "component")
				   : "expected a component at the end";
			goto fail;
		}
		for (len = 0; isalnum((unsigned char) s[p + len]) ||
			      s[p + len] == '_'; len++)
			;
		for (k = 0; k < SB_PF_NCOMP; k++)
			if (_word_is(s + p, len, _names[k]))
				break;
		if (k == SB_PF_NCOMP) {
			size_t m;

			msg = "unknown component";
			for (m = 0; m < sizeof(_maui_only) /
				    sizeof(_maui_only[0]); m++)
				if (_word_is(s + p, len, _maui_only[m]))
					msg = "Maui component with no Slurm "
					      "equivalent";
			goto fail;
		}
		/* A component written twice adds up: within range too. */
		out.coef[k] += neg ? -coef : coef;
		if (!isfinite(out.coef[k])) {
			at = term;
			err = ERANGE;
			msg = "coefficients of one component add up out of "
			      "range";
			goto fail;
		}
		out.used |= 1u << k;
		p += len;
		nterms++;
		_skip_ws(s, &p);
	}
	if (!nterms) {
		at = p;
		msg = "empty expression";
		goto fail;
	}
	*pf = out;
	return 0;
fail:
	if (errpos)
		*errpos = at;
	if (errmsg)
		*errmsg = msg;
	errno = err;
	return -1;
}

/* @v as a double within +-DBL_MAX (no inf, so no inf - inf = NaN). */
static double _clamp(double v)
{
	return v > DBL_MAX ? DBL_MAX : v < -DBL_MAX ? -DBL_MAX : v;
}

double sb_priorityf_eval(const sb_priorityf_t *pf, const sb_node_t *n,
			 uint32_t pref)
{
	double v[SB_PF_NCOMP], sum = 0;
	int avail = sb_node_usable(n) && !n->run_jobs;
	int k;

	v[SB_PF_CPROCS] = n->cpus;
	v[SB_PF_CMEM] = (double) n->real_memory;
	v[SB_PF_CDISK] = (double) n->tmp_disk;
	v[SB_PF_APROCS] = avail ? n->cpus : 0;
	v[SB_PF_AMEM] = avail ? (double) n->real_memory : 0;
	v[SB_PF_ADISK] = avail ? (double) n->tmp_disk : 0;
	v[SB_PF_SPEED] = n->speed;
	v[SB_PF_LOAD] = n->load;
	v[SB_PF_JOBCOUNT] = n->run_jobs;
	v[SB_PF_WEIGHT] = n->weight;
	v[SB_PF_PREF] = pref;
	/*
	 * Saturating: a large coefficient times a large value stops at
	 * +-DBL_MAX, and so does the sum, so every node gets a number and
	 * the order stays total (a NaN compares false with everything).
	 */
	for (k = 0; k < SB_PF_NCOMP; k++)
		if (pf->used & (1u << k))
			sum = _clamp(sum + _clamp(pf->coef[k] * v[k]));
	return sum;
}

bool sb_priorityf_static(const sb_priorityf_t *pf)
{
	unsigned dyn = (1u << SB_PF_APROCS) | (1u << SB_PF_AMEM) |
		       (1u << SB_PF_ADISK) | (1u << SB_PF_LOAD) |
		       (1u << SB_PF_JOBCOUNT);

	return !(pf->used & dyn);
}

bool sb_priorityf_uses_weight(const sb_priorityf_t *pf)
{
	return pf->used & (1u << SB_PF_WEIGHT);
}

bool sb_priorityf_uses_pref(const sb_priorityf_t *pf)
{
	return pf->used & (1u << SB_PF_PREF);
}

char *sb_priorityf_fmt(const sb_priorityf_t *pf)
{
	char *s = malloc(SB_PF_NCOMP * (SB_PF_NUMBER_LEN + 12) + 2);
	char num[SB_PF_NUMBER_LEN];
	size_t len = 0;
	int k;
	double c;

	if (!s)
		return NULL;
	for (k = 0; k < SB_PF_NCOMP; k++) {
		if (!(pf->used & (1u << k)))
			continue;
		c = pf->coef[k];
		if (c < 0)
			s[len++] = '-';
		else if (len)
			s[len++] = '+';
		c = fabs(c);
		if (c != 1.0)
			len += (size_t) sprintf(s + len, "%s*",
						sb_priorityf_number_fmt(
							num, sizeof(num), c));
		len += (size_t) sprintf(s + len, "%s", _names[k]);
	}
	if (!len)
		s[len++] = '0';
	s[len] = '\0';
	return s;
}
