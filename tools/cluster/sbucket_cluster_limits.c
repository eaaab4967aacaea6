/*
 * sbucket_cluster_limits.c - the licences, QOS and associations
 * slurmctld shows (sbucket_cluster_limits.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "sbucket_cluster_limits.h"
#include "sbucket_cluster_priv.h"
#include "sbucket_cluster_run.h"
#include "slurm_text.h"
#include "strbuf.h"

/* ---- keys ---------------------------------------------------------------- */

void sbc_limits_key(char *buf, const char *const *parts, size_t n)
{
	size_t off = 0, i, len;

	for (i = 0; i < n; i++) {
		len = strlen(parts[i]);
		if (off + len + 2 > SBC_LIMITS_KEY)
			len = SBC_LIMITS_KEY - off - 2;
		if (i)
			buf[off++] = '|';
		memcpy(buf + off, parts[i], len);
		off += len;
	}
	buf[off] = '\0';
}

static char *_strndup0(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

/* "N" or "" -> SBC_NO_LIMIT, else the number; -2 when not a number. */
static int64_t _num(const char *s, size_t n)
{
	uint64_t v;
	const char *end;

	if (!n || (n == 1 && s[0] == 'N'))
		return SBC_NO_LIMIT;
	if (sb_decimal_parse(s, INT64_MAX, &v, &end) || (end != s + n))
		return -2;
	return (int64_t) v;
}

/* "N(0)", "4(2)", "" -> limit and use (SBC_NO_LIMIT, 0 when absent). */
static int _limit_used(const char *s, int64_t *limit, int64_t *used)
{
	const char *p;

	*limit = SBC_NO_LIMIT;
	*used = 0;
	if (!s || !*s)
		return 0;
	p = strchr(s, '(');
	if ((*limit = _num(s, p ? (size_t) (p - s) : strlen(s))) == -2)
		return -1;
	if (p) {
		const char *q = strchr(p, ')');

		if (!q || (*used = _num(p + 1, (size_t) (q - p - 1))) < 0)
			return -1;
	}
	return 0;
}

/* "cpu=4(2),mem=N(0),gres/gpu=N(0)" -> TRES with a limit. */
static int _tres_list(const char *s, sbc_tres_t **out, size_t *n)
{
	const char *p = s;

	*out = NULL;
	*n = 0;
	while (p && *p) {
		const char *comma = strchr(p, ','), *eq = strchr(p, '=');
		size_t len = comma ? (size_t) (comma - p) : strlen(p);
		char val[64];
		int64_t lim, used;
		sbc_tres_t *v;

		if (!eq || eq > p + len)
			return -1;
		snprintf(val, sizeof(val), "%.*s", (int) (p + len - eq - 1),
			 eq + 1);
		if (_limit_used(val, &lim, &used))
			return -1;
		if (lim != SBC_NO_LIMIT) {
			if (!(v = realloc(*out, (*n + 1) * sizeof(*v))))
				return -1;
			*out = v;
			v[*n].limit = lim;
			v[*n].used = used;
			if (!(v[*n].name = _strndup0(p, (size_t) (eq - p))))
				return -1;
			(*n)++;
		}
		p = comma ? comma + 1 : NULL;
	}
	return 0;
}

static void _tres_free(sbc_tres_t *t, size_t n)
{
	while (n--)
		free(t[n].name);
	free(t);
}

/* The name before "(id)": "normal(1)" -> normal, "u1(1001)" -> u1. */
static char *_name(const char *s)
{
	return _strndup0(s ? s : "", s ? strcspn(s, "(") : 0);
}

static int _lic_line(void *arg, char *line, size_t len)
{
	sbc_limits_t *ls = arg;
	sb_record_t *r;
	sbc_lic_t *v;
	int64_t total, used;
	const char *t, *u;

	if (strncmp(line, "LicenseName=", 12) || !(r = sb_record_parse(line)))
		return 0;
	t = sb_record_get(r, "Total");
	u = sb_record_get(r, "Used");
	total = t ? _num(t, strlen(t)) : -2;
	used = u ? _num(u, strlen(u)) : -2;
	if (total < 0 || used < 0) {
		fprintf(stderr, PROG ": scontrol show lic: %s: Total=%s "
			"Used=%s: not understood\n", line, t ? t : "(missing)",
			u ? u : "(missing)");
		sb_record_free(r);
		return -1;
	}
	if (!(v = realloc(ls->lic, (ls->nlic + 1) * sizeof(*v))) ||
	    !((ls->lic = v)[ls->nlic].name =
	      strdup(sb_record_get(r, "LicenseName")))) {
		sb_record_free(r);
		return sbc__oom();
	}
	v[ls->nlic].total = total;
	v[ls->nlic++].used = used;
	sb_record_free(r);
	return 0;
}

/*
 * 'scontrol show assoc_mgr flags=assoc,qos', as slurmctld prints it (the
 * same in 22.05, 24.11 and 26.05): a record starts with "ClusterName="
 * (an association) or "QOS=" at the start of a line, its fields follow
 * on indented lines. A QOS ends with "Account Limits" and "User Limits",
 * each followed by one indented name line per account or uid and that
 * one's fields ("MaxJobsPA=N(2) ..." / "MaxTRESPU=cpu=2(2),...") further
 * indented. The reader joins a record's lines and parses it whole when
 * the next one starts.
 */
enum { _AM_NONE, _AM_ASSOC, _AM_QOS, _AM_QOS_ACCT, _AM_QOS_USER };

typedef struct {
	sbc_limits_t *ls;
	int mode;
	sb_strbuf_t head;		/* the record's fields */
	sbc_per_t **per;			/* the QOS list being read */
	size_t *nper;
	sb_strbuf_t body;		/* the per-entry's fields */
	char *name;			/* the per-entry's account or uid */
	const char *jobs_key, *tres_key;
} _am_t;

/* The per-account or per-user entry read so far into its list. */
static int _am_per_done(_am_t *am)
{
	char *text = sb_strbuf_finish(&am->body);
	sb_record_t *r = NULL;
	sbc_per_t *v;
	int rc = -1;

	if (!am->name) {
		free(text);
		return 0;
	}
	if (!text || !(v = realloc(*am->per, (*am->nper + 1) * sizeof(*v))))
		goto out;
	*am->per = v;
	v += (*am->nper)++;
	memset(v, 0, sizeof(*v));
	v->name = am->name;
	am->name = NULL;
	if (*text && !(r = sb_record_parse(text)))
		goto out;
	rc = _limit_used(r ? sb_record_get(r, am->jobs_key) : NULL,
			 &v->max_jobs, &v->jobs) ||
		_tres_list(r && sb_record_get(r, am->tres_key) ?
			   sb_record_get(r, am->tres_key) : "", &v->tres,
			   &v->ntres) ? -1 : 0;
out:
	free(am->name);
	am->name = NULL;
	sb_record_free(r);
	free(text);
	return rc;
}

static int _qos_record(sbc_limits_t *ls, const char *text, sbc_qos_t *q)
{
	sb_record_t *r = sb_record_parse(text);
	int rc = -1;

	if (r && (q->name = _name(sb_record_get(r, "QOS"))) &&
	    !_limit_used(sb_record_get(r, "GrpJobs"), &q->grp_jobs,
			 &q->grp_jobs_used) &&
	    !_tres_list(sb_record_get(r, "GrpTRES") ?
			sb_record_get(r, "GrpTRES") : "", &q->grp, &q->ngrp))
		rc = 0;
	sb_record_free(r);
	return rc;
}

static int _assoc_record(sbc_limits_t *ls, const char *text)
{
	sb_record_t *r;
	sbc_assoc_t *a;
	const char *id;
	char key[SBC_LIMITS_KEY];
	int rc = -1;

	if (!(a = realloc(ls->assoc, (ls->nassoc + 1) * sizeof(*a))))
		return sbc__oom();
	ls->assoc = a;
	a += ls->nassoc++;
	memset(a, 0, sizeof(*a));
	if (!(r = sb_record_parse(text)))
		goto fail;
	id = sb_record_get(r, "ID");
	a->id = id ? (uint32_t) strtoul(id, NULL, 10) : 0;
	if (!(a->account = _name(sb_record_get(r, "Account"))) ||
	    !(a->user = _name(sb_record_get(r, "UserName"))) ||
	    !(a->partition = _name(sb_record_get(r, "Partition"))) ||
	    !(a->parent = _name(sb_record_get(r, "ParentAccount"))) ||
	    _limit_used(sb_record_get(r, "GrpJobs"), &a->grp_jobs,
			&a->grp_jobs_used) ||
	    _limit_used(sb_record_get(r, "MaxJobs"), &a->max_jobs,
			&a->max_jobs_used) ||
	    _tres_list(sb_record_get(r, "GrpTRES") ?
		       sb_record_get(r, "GrpTRES") : "", &a->grp, &a->ngrp))
		goto fail;
	{
		const char *parts[] = { a->account, a->user, a->partition };

		sbc_limits_key(key, parts, 3);
	}
	sb_record_free(r);
	if (sb_strmap_get(ls->assoc_by, key) == SIZE_MAX &&
	    sb_strmap_put(ls->assoc_by, key, ls->nassoc - 1))
		return sbc__oom();
	return 0;
fail:
	fprintf(stderr, PROG ": scontrol show assoc_mgr: association %.200s: "
		"not understood\n", text);
	sb_record_free(r);
	return rc;
}

/* The record read so far, parsed. */
static int _am_done(_am_t *am)
{
	sbc_limits_t *ls = am->ls;
	int mode = am->mode;
	char *text;
	int rc = 0;

	if (_am_per_done(am) < 0)
		goto bad;
	am->mode = _AM_NONE;
	if (!(text = sb_strbuf_finish(&am->head)))
		return sbc__oom();
	if (mode == _AM_ASSOC)
		rc = _assoc_record(ls, text);
	else if (mode != _AM_NONE &&
		 _qos_record(ls, text, &ls->qos[ls->nqos - 1]) < 0)
		rc = -1;
	if (rc < 0 && mode != _AM_ASSOC)
		fprintf(stderr, PROG ": scontrol show assoc_mgr: QOS %.200s: "
			"not understood\n", text);
	free(text);
	return rc;
bad:
	fprintf(stderr, PROG ": scontrol show assoc_mgr: the per-account or "
		"per-user limits of a QOS: not understood\n");
	return -1;
}

static int _assoc_mgr_line(void *arg, char *line, size_t len)
{
	_am_t *am = arg;
	sbc_limits_t *ls = am->ls;
	const char *t = line + strspn(line, " \t");
	size_t indent = (size_t) (t - line);

	if (!indent) {
		if (_am_done(am) < 0)
			return -1;
		if (!strncmp(line, "ClusterName=", 12)) {
			am->mode = _AM_ASSOC;
		} else if (!strncmp(line, "QOS=", 4)) {
			sbc_qos_t *q = realloc(ls->qos, (ls->nqos + 1) *
					    sizeof(*q));

			if (!q)
				return sbc__oom();
			ls->qos = q;
			memset(&q[ls->nqos++], 0, sizeof(*q));
			am->mode = _AM_QOS;
		} else {
			return 0;	/* headings, blank lines */
		}
		sb_strbuf_add(&am->head, line);
		return 0;
	}
	if (am->mode == _AM_NONE || !*t)
		return 0;
	if (am->mode != _AM_ASSOC && (!strcmp(t, "Account Limits") ||
				      !strcmp(t, "User Limits"))) {
		sbc_qos_t *q = &ls->qos[ls->nqos - 1];
		bool user = t[0] == 'U';

		if (_am_per_done(am) < 0)
			return -1;
		am->mode = user ? _AM_QOS_USER : _AM_QOS_ACCT;
		am->per = user ? &q->user : &q->acct;
		am->nper = user ? &q->nuser : &q->nacct;
		am->jobs_key = user ? "MaxJobsPU" : "MaxJobsPA";
		am->tres_key = user ? "MaxTRESPU" : "MaxTRESPA";
		return 0;
	}
	if (am->mode == _AM_QOS_ACCT || am->mode == _AM_QOS_USER) {
		/* a name line: no '=' ("No Accounts", "No Users": none) */
		if (!strchr(t, '=')) {
			if (_am_per_done(am) < 0)
				return -1;
			if (!strcmp(t, "No Accounts") || !strcmp(t, "No Users"))
				return 0;
			/* a user is "1001" (22.05) or "alice(1001)" (24.11
			 * on): its uid, as jobs' UserId= give it */
			if (am->mode == _AM_QOS_USER && strchr(t, '(') &&
			    t[strlen(t) - 1] == ')')
				t = strchr(t, '(') + 1;
			if (!(am->name = _strndup0(t, strcspn(t, ")"))))
				return sbc__oom();
			return 0;
		}
		sb_strbuf_add(&am->body, " ");
		sb_strbuf_add(&am->body, t);
		return 0;
	}
	sb_strbuf_add(&am->head, " ");
	sb_strbuf_add(&am->head, t);
	return 0;
}

/* Read 'scontrol show assoc_mgr flags=assoc,qos'. */
static int _read_assoc_mgr(sbc_limits_t *ls)
{
	_am_t am = { .ls = ls };
	int rc;

	rc = sbc_run(SBC_SCONTROL, (const char *[]) { "show", "assoc_mgr",
		     "flags=assoc,qos", NULL }, _assoc_mgr_line, &am);
	if (!rc)
		rc = _am_done(&am);
	free(sb_strbuf_finish(&am.head));
	free(sb_strbuf_finish(&am.body));
	free(am.name);
	return rc;
}

int sbc_limits_read(sbc_limits_t *ls)
{
	memset(ls, 0, sizeof(*ls));
	if (!(ls->assoc_by = sb_strmap_create()))
		return sbc__oom();
	return sbc_run(SBC_SCONTROL, (const char *[]) { "show", "lic", "-o",
		       NULL }, _lic_line, ls) < 0 || _read_assoc_mgr(ls) < 0 ?
		-1 : 0;
}

void sbc_limits_fini(sbc_limits_t *ls)
{
	size_t i;

	for (i = 0; i < ls->nlic; i++)
		free(ls->lic[i].name);
	free(ls->lic);
	for (i = 0; i < ls->nqos; i++) {
		sbc_qos_t *q = &ls->qos[i];
		size_t k;

		free(q->name);
		_tres_free(q->grp, q->ngrp);
		for (k = 0; k < q->nuser; k++) {
			free(q->user[k].name);
			_tres_free(q->user[k].tres, q->user[k].ntres);
		}
		for (k = 0; k < q->nacct; k++) {
			free(q->acct[k].name);
			_tres_free(q->acct[k].tres, q->acct[k].ntres);
		}
		free(q->user);
		free(q->acct);
	}
	free(ls->qos);
	for (i = 0; i < ls->nassoc; i++) {
		sbc_assoc_t *a = &ls->assoc[i];

		free(a->account);
		free(a->user);
		free(a->partition);
		free(a->parent);
		_tres_free(a->grp, a->ngrp);
	}
	free(ls->assoc);
	sb_strmap_destroy(ls->assoc_by);
	memset(ls, 0, sizeof(*ls));
}
