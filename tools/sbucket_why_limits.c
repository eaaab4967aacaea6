/*
 * sbucket_why_limits.c - 'sbucket why' for a job held by a counted limit
 * (see sbucket_why_limits.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Every limit a job is subject to gets a key ("q|normal|grp|cpu",
 * "q|normal|u|1001|jobs", "a|7|grp|mem", "l|matlab"); the keys of the job
 * explained, and of the pending jobs before it that share one of them,
 * make the limit plan's limits. Running jobs hold the keys already made;
 * they are never a reason to model another limit.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "limit_plan.h"
#include "sb_time.h"
#include "sbucket_why_fmt.h"
#include "sbucket_why_limits.h"
#include "slurm_text.h"
#include "strbuf.h"

#define PROG "sbucket"
#define NONE (-1)		/* a limit Slurm prints as N or empty */

/* ---- reasons ------------------------------------------------------------- */

sbw_reason_kind_t sbw_limits_reason_kind(const char *r)
{
	if (!r)
		return SBW_REASON_OTHER;
	if (!strcmp(r, "Licenses"))
		return SBW_REASON_COUNTED;
	if (strncmp(r, "QOS", 3) && strncmp(r, "Assoc", 5))
		return SBW_REASON_OTHER;
	if (strstr(r, "Minutes") || strstr(r, "Wall") ||
	    strstr(r, "CPUMins"))
		return SBW_REASON_TIMED;
	if (strstr(r, "PerJob") || strstr(r, "PerNode") ||
	    strstr(r, "Submit") || strstr(r, "Accrue") ||
	    strstr(r, "NotAllowed") || strstr(r, "Min") ||
	    strstr(r, "Threshold") || !strcmp(r, "QOSJobLimit") ||
	    !strcmp(r, "QOSResourceLimit") || !strcmp(r, "QOSTimeLimit"))
		return SBW_REASON_OTHER;
	return SBW_REASON_COUNTED;
}

/* The reason Slurm gives for @tres of a limit: @pre + Cpu/Mem/... + @post
 * as slurm_protocol_defs.c spells them. */
static void _reason_name(char *buf, size_t len, const char *scope,
			 const char *tres)
{
	static const struct {
		const char *tres, *grp, *user, *acct;
	} names[] = {
		{ "cpu", "CpuLimit", "CpuPerUserLimit", "CpuPerAccountLimit" },
		{ "mem", "MemLimit", "MemoryPerUser", "MemoryPerAccount" },
		{ "node", "NodeLimit", "NodePerUserLimit",
		  "NodePerAccountLimit" },
		{ "billing", "Billing", "BillingPerUser", "BillingPerAccount" },
		{ "energy", "Energy", "EnergyPerUser", "EnergyPerAccount" },
		{ "gres/", "GRES", "GRESPerUser", "GRESPerAccount" },
		{ "license/", "License", "LicensePerUser",
		  "LicensePerAccount" },
		{ "bb/", "BB", "BBPerUser", "BBPerAccount" },
		{ "jobs", "JobsLimit", "JobsPerUserLimit",
		  "JobsPerAccountLimit" },
		{ NULL, "Unknown", "UnknownPerUser", "UnknownPerAccount" },
	};
	size_t i;

	for (i = 0; names[i].tres; i++) {
		size_t n = strlen(names[i].tres);

		if (names[i].tres[n - 1] == '/' ? !strncmp(tres, names[i].tres,
							   n) :
		    !strcmp(tres, names[i].tres))
			break;
	}
	if (!strcmp(scope, "qos-user"))
		snprintf(buf, len, "QOSMax%s", names[i].user);
	else if (!strcmp(scope, "qos-account"))
		snprintf(buf, len, "QOSMax%s", names[i].acct);
	else if (!strcmp(scope, "assoc-max"))
		snprintf(buf, len, "AssocMaxJobsLimit");
	else
		snprintf(buf, len, "%sGrp%s", !strcmp(scope, "qos") ? "QOS" :
			 "Assoc", names[i].grp);
}

/* ---- a string -> index map (open addressing) ----------------------------- */

typedef struct {
	char **key;
	size_t *val;
	size_t cap, n;
} _map_t;

static uint64_t _hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char) *s) * 1099511628211ULL;
	return h;
}

static void _map_fini(_map_t *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		free(m->key[i]);
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof(*m));
}

/* The value of @key, or SIZE_MAX. */
static size_t _map_get(const _map_t *m, const char *key)
{
	size_t i;

	if (!m->cap)
		return SIZE_MAX;
	for (i = _hash(key) & (m->cap - 1); m->key[i];
	     i = (i + 1) & (m->cap - 1))
		if (!strcmp(m->key[i], key))
			return m->val[i];
	return SIZE_MAX;
}

static int _map_put(_map_t *m, const char *key, size_t val)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap) {
		_map_t g = { 0 };

		g.cap = m->cap ? 2 * m->cap : 64;
		if (!(g.key = calloc(g.cap, sizeof(*g.key))) ||
		    !(g.val = calloc(g.cap, sizeof(*g.val)))) {
			free(g.key);
			return -1;
		}
		for (i = 0; i < m->cap; i++) {
			size_t k;

			if (!m->key[i])
				continue;
			for (k = _hash(m->key[i]) & (g.cap - 1); g.key[k];
			     k = (k + 1) & (g.cap - 1))
				;
			g.key[k] = m->key[i];
			g.val[k] = m->val[i];
		}
		g.n = m->n;
		free(m->key);
		free(m->val);
		*m = g;
	}
	for (i = _hash(key) & (m->cap - 1); m->key[i];
	     i = (i + 1) & (m->cap - 1))
		;
	if (!(m->key[i] = strdup(key)))
		return -1;
	m->val[i] = val;
	m->n++;
	return 0;
}

/* @parts joined by '|' into @buf (of SB_KEY bytes), truncated. */
#define SB_KEY 512
static void _cat(char *buf, const char *const *parts, size_t n)
{
	size_t off = 0, i, len;

	for (i = 0; i < n; i++) {
		len = strlen(parts[i]);
		if (off + len + 2 > SB_KEY)
			len = SB_KEY - off - 2;
		if (i)
			buf[off++] = '|';
		memcpy(buf + off, parts[i], len);
		off += len;
	}
	buf[off] = '\0';
}

/* ---- what slurmctld shows ------------------------------------------------ */

/* One TRES of a limit: "cpu=4(2)" -> cpu, 4, 2; "mem=N(0)" -> NONE. */
typedef struct {
	char *name;
	int64_t limit, used;
} _tres_t;

typedef struct {
	char *name;		/* uid (per user) or account */
	int64_t max_jobs, jobs;
	_tres_t *tres;
	size_t ntres;
} _per_t;

typedef struct {
	char *name;
	int64_t grp_jobs, grp_jobs_used;
	_tres_t *grp;
	size_t ngrp;
	_per_t *user, *acct;
	size_t nuser, nacct;
} _qos_t;

typedef struct {
	uint32_t id;
	char *account, *user, *partition, *parent;
	int64_t grp_jobs, grp_jobs_used, max_jobs, max_jobs_used;
	_tres_t *grp;
	size_t ngrp;
} _assoc_t;

typedef struct {
	char *name;
	int64_t total, used;
} _lic_t;

/* A limit of the plan. */
typedef struct {
	char *reason;		/* as Slurm names it when it holds a job */
	char *what;		/* "QOS normal GrpTRES cpu" */
	const char *scope;	/* license, qos, qos-user, qos-account,
				 * assoc, assoc-max */
	char *owner;		/* licence, QOS or account name */
	char *who;		/* the user or account a per-X limit is of */
	char *tres;		/* cpu, mem, gres/gpu, jobs, licence name */
	int64_t limit, shown_use;
	int64_t held;		/* by the running jobs we saw */
	int64_t need;		/* the job explained needs */
	int64_t allows;		/* earliest start it allows the job, -1 */
	bool forever;		/* a holder never ends */
	const char *forever_job;
} _lim_t;

typedef struct {
	const sbw_job_t *job;
	size_t lim;
	int64_t units, end;	/* end: SB_TIME_INFINITE without a limit */
	int64_t start;		/* ahead: planned start, -1 never */
	bool ahead;
} _use_t;

struct _jinfo;

struct sbw_limits {
	sbw_live_t *lv;
	const sbw_job_t *j;
	const char *reason;
	sbw_reason_kind_t kind;
	_lic_t *lic;
	size_t nlic;
	_qos_t *qos;
	size_t nqos;
	_assoc_t *assoc;
	size_t nassoc;
	_map_t assoc_by;	/* "account|user|partition" -> index */
	_lim_t *lim;
	size_t nlim, caplim;
	_map_t lim_by;		/* key -> index */
	_use_t *use;
	size_t nuse, capuse;
	struct _jinfo *info;	/* per job of lv, what the walks read */
	int64_t start;		/* the limits' planned start, -1 */
	const char *unknown;	/* why the start cannot be known */
	char why[256];
};

static int _oom(void)
{
	fprintf(stderr, PROG ": out of memory\n");
	return -1;
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

/* "N" or "" -> NONE, else the number; -2 when not a number. */
static int64_t _num(const char *s, size_t n)
{
	int64_t v = 0;
	size_t i;

	if (!n || (n == 1 && s[0] == 'N'))
		return NONE;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' || v > INT64_MAX / 10 - 9)
			return -2;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* "N(0)", "4(2)", "" -> limit and use (NONE, 0 when absent). */
static int _limit_used(const char *s, int64_t *limit, int64_t *used)
{
	const char *p;

	*limit = NONE;
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
static int _tres_list(const char *s, _tres_t **out, size_t *n)
{
	const char *p = s;

	*out = NULL;
	*n = 0;
	while (p && *p) {
		const char *comma = strchr(p, ','), *eq = strchr(p, '=');
		size_t len = comma ? (size_t) (comma - p) : strlen(p);
		char val[64];
		int64_t lim, used;
		_tres_t *v;

		if (!eq || eq > p + len)
			return -1;
		snprintf(val, sizeof(val), "%.*s", (int) (p + len - eq - 1),
			 eq + 1);
		if (_limit_used(val, &lim, &used))
			return -1;
		if (lim != NONE) {
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

static void _tres_free(_tres_t *t, size_t n)
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

static int _lic_line(void *arg, char *line)
{
	sbw_limits_t *ls = arg;
	sb_record_t *r;
	_lic_t *v;
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
		return _oom();
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
	sbw_limits_t *ls;
	int mode;
	sb_strbuf_t head;		/* the record's fields */
	_per_t **per;			/* the QOS list being read */
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
	_per_t *v;
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

static int _qos_record(sbw_limits_t *ls, const char *text, _qos_t *q)
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

static int _assoc_record(sbw_limits_t *ls, const char *text)
{
	sb_record_t *r;
	_assoc_t *a;
	const char *id;
	char key[SB_KEY];
	int rc = -1;

	if (!(a = realloc(ls->assoc, (ls->nassoc + 1) * sizeof(*a))))
		return _oom();
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

		_cat(key, parts, 3);
	}
	sb_record_free(r);
	if (_map_get(&ls->assoc_by, key) == SIZE_MAX &&
	    _map_put(&ls->assoc_by, key, ls->nassoc - 1))
		return _oom();
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
	sbw_limits_t *ls = am->ls;
	int mode = am->mode;
	char *text;
	int rc = 0;

	if (_am_per_done(am) < 0)
		goto bad;
	am->mode = _AM_NONE;
	if (!(text = sb_strbuf_finish(&am->head)))
		return _oom();
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

static int _assoc_mgr_line(void *arg, char *line)
{
	_am_t *am = arg;
	sbw_limits_t *ls = am->ls;
	const char *t = line + strspn(line, " \t");
	size_t indent = (size_t) (t - line);

	if (!indent) {
		if (_am_done(am) < 0)
			return -1;
		if (!strncmp(line, "ClusterName=", 12)) {
			am->mode = _AM_ASSOC;
		} else if (!strncmp(line, "QOS=", 4)) {
			_qos_t *q = realloc(ls->qos, (ls->nqos + 1) *
					    sizeof(*q));

			if (!q)
				return _oom();
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
		_qos_t *q = &ls->qos[ls->nqos - 1];
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
			if (strcmp(t, "No Accounts") && strcmp(t, "No Users") &&
			    !(am->name = strdup(t)))
				return _oom();
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
static int _read_assoc_mgr(sbw_limits_t *ls)
{
	_am_t am = { .ls = ls };
	int rc;

	rc = sbw_live_run("SBUCKET_SCONTROL", "scontrol",
			  "show assoc_mgr flags=assoc,qos", _assoc_mgr_line,
			  &am);
	if (!rc)
		rc = _am_done(&am);
	free(sb_strbuf_finish(&am.head));
	free(sb_strbuf_finish(&am.body));
	free(am.name);
	return rc;
}

/* ---- a job's limits ------------------------------------------------------ */

/* The units of TRES @name in a job's TRES= field @s ("mem" in MB). */
static int64_t _job_tres(const char *s, const char *name)
{
	size_t n = strlen(name);

	if (!strcmp(name, "jobs"))
		return 1;
	while (s && *s) {
		if (!strncmp(s, name, n) && s[n] == '=') {
			uint64_t mb;

			if (!strcmp(name, "mem")) {
				char v[64];

				snprintf(v, sizeof(v), "%.*s",
					 (int) strcspn(s + n + 1, ","),
					 s + n + 1);
				return sb_slurm_mem(v, &mb) ? 0 :
					(int64_t) mb;
			}
			return (int64_t) sbw_leading_number(s + n + 1);
		}
		s = strchr(s, ',');
		s = s ? s + 1 : NULL;
	}
	return 0;
}

/* What the walks read of a job, looked up once per job. */
struct _jinfo {
	bool done;
	const _qos_t *q;
	const _per_t *pu, *pa;		/* its user's and account's entries */
	const _assoc_t *a;		/* its association */
	const char *lic, *tres;
	char uid[24];
};

typedef struct {
	sbw_limits_t *ls;
	const sbw_job_t *j;
	const struct _jinfo *info;
	bool create;
	/* what to do with each (limit, units) of the job */
	int (*fn)(sbw_limits_t *ls, const sbw_job_t *j, size_t lim,
		  int64_t units, void *arg);
	void *arg;
} _walk_t;

/* A new limit for @key: its names, as the output shows them. */
static int _new_limit(sbw_limits_t *ls, const char *key, const char *scope,
		      const char *owner, const char *who, const char *tres,
		      int64_t limit, int64_t shown)
{
	bool jobs = !strcmp(tres, "jobs");
	char buf[256];
	_lim_t *l;

	if (ls->nlim == ls->caplim) {
		size_t cap = ls->caplim ? 2 * ls->caplim : 16;

		if (!(l = realloc(ls->lim, cap * sizeof(*l))))
			return _oom();
		ls->lim = l;
		ls->caplim = cap;
	}
	l = &ls->lim[ls->nlim];
	memset(l, 0, sizeof(*l));
	l->scope = scope;
	l->limit = limit;
	l->shown_use = shown;
	l->allows = -1;
	if (!strcmp(scope, "license"))
		snprintf(buf, sizeof(buf), "Licenses");
	else
		_reason_name(buf, sizeof(buf), scope, tres);
	if (!(l->reason = strdup(buf)) || !(l->owner = strdup(owner)) ||
	    (who && !(l->who = strdup(who))) || !(l->tres = strdup(tres)))
		return _oom();
	if (!strcmp(scope, "license"))
		snprintf(buf, sizeof(buf), "licence %s", owner);
	else if (!strcmp(scope, "qos"))
		snprintf(buf, sizeof(buf), "QOS %s Grp%s%s", owner,
			 jobs ? "Jobs" : "TRES ", jobs ? "" : tres);
	else if (!strcmp(scope, "qos-user"))
		snprintf(buf, sizeof(buf), "QOS %s Max%sPerUser%s%s (user %s)",
			 owner, jobs ? "Jobs" : "TRES", jobs ? "" : " ",
			 jobs ? "" : tres, who);
	else if (!strcmp(scope, "qos-account"))
		snprintf(buf, sizeof(buf), "QOS %s Max%sPerAccount%s%s "
			 "(account %s)", owner, jobs ? "Jobs" : "TRES",
			 jobs ? "" : " ", jobs ? "" : tres, who);
	else if (!strcmp(scope, "assoc"))
		snprintf(buf, sizeof(buf), "association %s%s%s Grp%s%s", owner,
			 who ? " user " : "", who ? who : "",
			 jobs ? "Jobs" : "TRES ", jobs ? "" : tres);
	else
		snprintf(buf, sizeof(buf), "association %s user %s MaxJobs",
			 owner, who ? who : "?");
	if (!(l->what = strdup(buf)) || _map_put(&ls->lim_by, key, ls->nlim))
		return _oom();
	ls->nlim++;
	return 0;
}

/*
 * The limit whose key is @parts joined (its last part the TRES) with
 * @units of the job: found, or made when the walk may make limits, and
 * handed to the walk's function. Unset limits and TRES the job does not
 * use are passed over before a key is built.
 */
static int _one(_walk_t *w, const char *const *parts, size_t nparts,
		const char *scope, const char *owner, const char *who,
		int64_t limit, int64_t shown, int64_t units)
{
	sbw_limits_t *ls = w->ls;
	const char *tres = parts[nparts - 1];
	char key[SB_KEY];
	size_t i;

	if (limit == NONE || units <= 0)
		return 0;
	_cat(key, parts, nparts);
	if ((i = _map_get(&ls->lim_by, key)) == SIZE_MAX) {
		if (!w->create)
			return 0;
		if (_new_limit(ls, key, scope, owner, who, tres, limit,
			       shown) < 0)
			return -1;
		i = ls->nlim - 1;
	}
	return w->fn(ls, w->j, i, units, w->arg);
}

static const _qos_t *_qos(const sbw_limits_t *ls, const char *name)
{
	size_t i;

	for (i = 0; name && i < ls->nqos; i++)
		if (!strcmp(ls->qos[i].name, name))
			return &ls->qos[i];
	return NULL;
}

static const _per_t *_per(const _per_t *v, size_t n, const char *name)
{
	size_t i;

	for (i = 0; name && i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	return NULL;
}

/* Each TRES limit of @t; the key is @kpre's parts and the TRES. */
static int _tres_limits(_walk_t *w, const char **kpre, size_t nk,
			const char *scope, const char *owner, const char *who,
			const _tres_t *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		kpre[nk] = t[i].name;
		if (_one(w, kpre, nk + 1, scope, owner, who, t[i].limit,
			 t[i].used, _job_tres(w->info->tres, t[i].name)) < 0)
			return -1;
	}
	return 0;
}

/* The association of @acct and @user in @part, else in no partition. */
static const _assoc_t *_assoc_of(const sbw_limits_t *ls, const char *acct,
				 const char *user, const char *part)
{
	const char *parts[] = { acct, user, part ? part : "" };
	char key[SB_KEY];
	size_t i;

	_cat(key, parts, 3);
	if ((i = _map_get(&ls->assoc_by, key)) == SIZE_MAX && part &&
	    *part) {
		parts[2] = "";
		_cat(key, parts, 3);
		i = _map_get(&ls->assoc_by, key);
	}
	return i == SIZE_MAX ? NULL : &ls->assoc[i];
}

/* What the walks need of job @j (once). */
static const struct _jinfo *_info(sbw_limits_t *ls, const sbw_job_t *j)
{
	struct _jinfo *in = &ls->info[j - ls->lv->jobs];
	const char *uid, *c;

	if (in->done)
		return in;
	in->done = true;
	in->q = _qos(ls, sb_record_value(j->rec, "QOS"));
	if ((uid = sb_record_get(j->rec, "UserId")) && (c = strchr(uid, '(')))
		snprintf(in->uid, sizeof(in->uid), "%.*s",
			 (int) strcspn(c + 1, ")"), c + 1);
	if (in->q) {
		in->pu = _per(in->q->user, in->q->nuser, in->uid);
		in->pa = _per(in->q->acct, in->q->nacct, j->account);
	}
	in->lic = sb_record_value(j->rec, "Licenses");
	in->tres = sb_record_get(j->rec, "TRES");
	in->a = j->account ? _assoc_of(ls, j->account, j->user,
				       sb_record_get(j->rec, "Partition")) :
		NULL;
	return in;
}

/* Hand every limit job @j is subject to to @w's function. */
static int _walk(_walk_t *w)
{
	sbw_limits_t *ls = w->ls;
	const struct _jinfo *in = w->info;
	const char *lic = in->lic, *k[6];
	const _qos_t *q = in->q;
	const _assoc_t *a = in->a;
	char id[16];
	size_t depth;

	/* licences: "matlab:2,lic:1" */
	while (lic && *lic) {
		size_t len = strcspn(lic, ","), i;
		char name[128];
		const char *c;
		int64_t units = 1;

		snprintf(name, sizeof(name), "%.*s", (int) len, lic);
		if ((c = strpbrk(name, ":*"))) {
			units = (int64_t) sbw_leading_number(c + 1);
			name[c - name] = '\0';
		}
		k[0] = "l";
		k[1] = name;
		for (i = 0; i < ls->nlic; i++)
			if (!strcmp(ls->lic[i].name, name) &&
			    _one(w, k, 2, "license", name, NULL,
				 ls->lic[i].total, ls->lic[i].used, units) < 0)
				return -1;
		lic = lic[len] ? lic + len + 1 : NULL;
	}
	if (q) {
		k[0] = "q";
		k[1] = q->name;
		k[2] = "grp";
		if (_tres_limits(w, k, 3, "qos", q->name, NULL, q->grp,
				 q->ngrp) < 0)
			return -1;
		k[3] = "jobs";
		if (_one(w, k, 4, "qos", q->name, NULL, q->grp_jobs,
			 q->grp_jobs_used, 1) < 0)
			return -1;
		if (in->pu) {
			k[2] = "u";
			k[3] = in->uid;
			if (_tres_limits(w, k, 4, "qos-user", q->name,
					 w->j->user, in->pu->tres,
					 in->pu->ntres) < 0)
				return -1;
			k[4] = "jobs";
			if (_one(w, k, 5, "qos-user", q->name, w->j->user,
				 in->pu->max_jobs, in->pu->jobs, 1) < 0)
				return -1;
		}
		if (in->pa) {
			k[2] = "a";
			k[3] = in->pa->name;
			if (_tres_limits(w, k, 4, "qos-account", q->name,
					 in->pa->name, in->pa->tres,
					 in->pa->ntres) < 0)
				return -1;
			k[4] = "jobs";
			if (_one(w, k, 5, "qos-account", q->name,
				 in->pa->name, in->pa->max_jobs, in->pa->jobs,
				 1) < 0)
				return -1;
		}
	}
	/* the association and its ancestors (a bound on the walk guards
	 * against a cycle in what was printed) */
	k[0] = "a";
	k[1] = id;
	if (a) {
		snprintf(id, sizeof(id), "%" PRIu32, a->id);
		k[2] = "max";
		k[3] = "jobs";
		if (_one(w, k, 4, "assoc-max", a->account, a->user, a->max_jobs,
			 a->max_jobs_used, 1) < 0)
			return -1;
	}
	for (depth = 0; a && depth < 64; depth++) {
		const char *who = a->user[0] ? a->user : NULL;

		snprintf(id, sizeof(id), "%" PRIu32, a->id);
		k[2] = "grp";
		if (_tres_limits(w, k, 3, "assoc", a->account, who, a->grp,
				 a->ngrp) < 0)
			return -1;
		k[3] = "jobs";
		if (_one(w, k, 4, "assoc", a->account, who, a->grp_jobs,
			 a->grp_jobs_used, 1) < 0)
			return -1;
		/* a user's association -> its account's -> the parent's */
		if (who)
			a = _assoc_of(ls, a->account, "", "");
		else if (a->parent[0])
			a = _assoc_of(ls, a->parent, "", "");
		else
			a = NULL;
	}
	return 0;
}

static int _walk_job(sbw_limits_t *ls, const sbw_job_t *j, bool create,
		     int (*fn)(sbw_limits_t *, const sbw_job_t *, size_t,
			       int64_t, void *), void *arg)
{
	_walk_t w = { ls, j, _info(ls, j), create, fn, arg };

	return _walk(&w);
}

/* ---- planning ------------------------------------------------------------ */

static int _add_use(sbw_limits_t *ls, const sbw_job_t *j, size_t lim,
		    int64_t units, bool ahead)
{
	_use_t *u;

	if (ls->nuse == ls->capuse) {
		size_t cap = ls->capuse ? 2 * ls->capuse : 64;

		if (!(u = realloc(ls->use, cap * sizeof(*u))))
			return _oom();
		ls->use = u;
		ls->capuse = cap;
	}
	u = &ls->use[ls->nuse++];
	u->job = j;
	u->lim = lim;
	u->units = units;
	u->ahead = ahead;
	u->start = -1;
	u->end = j->time_limit == SB_TIME_INFINITE || j->end < 0 ?
		SB_TIME_INFINITE : j->end;
	return 0;
}

static int _mark(sbw_limits_t *ls, const sbw_job_t *j, size_t lim,
		 int64_t units, void *arg)
{
	*(bool *) arg = true;
	return 0;
}

static int _target(sbw_limits_t *ls, const sbw_job_t *j, size_t lim,
		   int64_t units, void *arg)
{
	ls->lim[lim].need += units;
	return 0;
}

static int _holder(sbw_limits_t *ls, const sbw_job_t *j, size_t lim,
		   int64_t units, void *arg)
{
	ls->lim[lim].held += units;
	return _add_use(ls, j, lim, units, false);
}

static int _ahead_use(sbw_limits_t *ls, const sbw_job_t *j, size_t lim,
		      int64_t units, void *arg)
{
	return _add_use(ls, j, lim, units, true);
}

static int _need(sbw_limits_t *ls, const sbw_job_t *j, size_t lim,
		 int64_t units, void *arg)
{
	((int64_t *) arg)[lim] += units;
	return 0;
}

/* qsort has no context argument: the order's, for one call. */
static const sbw_live_t *_sort_lv;
static sbw_before_fn _sort_before;

static int _by_order(const void *pa, const void *pb)
{
	const sbw_job_t *a = *(const sbw_job_t *const *) pa;
	const sbw_job_t *b = *(const sbw_job_t *const *) pb;

	if (_sort_before(_sort_lv, a, b))
		return -1;
	return _sort_before(_sort_lv, b, a) ? 1 : 0;
}

static int64_t _duration(const sbw_job_t *j)
{
	return j->time_limit > 0 ? j->time_limit : 1;
}

/* Why no start is known, into ls->why (the first cause found). */
static void _why_unknown(sbw_limits_t *ls)
{
	size_t i;

	for (i = 0; i < ls->nlim; i++) {
		const _lim_t *l = &ls->lim[i];

		if (l->need > l->limit) {
			snprintf(ls->why, sizeof(ls->why), "it needs %" PRId64
				 " of %s, more than its limit %" PRId64 ": "
				 "never", l->need, l->what, l->limit);
			return;
		}
	}
	for (i = 0; i < ls->nuse; i++) {
		const _use_t *u = &ls->use[i];

		if (ls->lim[u->lim].need && u->end == SB_TIME_INFINITE &&
		    (!u->ahead || u->start >= 0)) {
			snprintf(ls->why, sizeof(ls->why), "%s job %s holds "
				 "%" PRId64 " of %s%s and has no time limit",
				 u->ahead ? "the planned" : "running",
				 u->job->id, u->units, ls->lim[u->lim].what,
				 u->ahead ? " before it" : "");
			return;
		}
	}
	snprintf(ls->why, sizeof(ls->why), "the units it needs never free");
}

static int _plan(sbw_limits_t *ls, sbw_before_fn before,
		 bool (*plannable)(const sbw_job_t *))
{
	sbw_live_t *lv = ls->lv;
	const sbw_job_t **ahead = NULL;
	int64_t *lim = NULL, *need = NULL, start;
	sb_limit_plan_t *lp = NULL;
	size_t i, k, nahead = 0;
	int rc = -1;

	/* 1. the job's limits, then the pending jobs before it sharing one
	 * (with their own limits too) */
	if (_walk_job(ls, ls->j, true, _target, NULL) < 0)
		return -1;
	if (!(ahead = calloc(lv->njobs + 1, sizeof(*ahead))))
		return _oom();
	for (i = 0; i < lv->njobs; i++) {
		const sbw_job_t *o = &lv->jobs[i];
		bool shares = false;

		if (o == ls->j || !plannable(o) || !before(lv, o, ls->j) ||
		    _walk_job(ls, o, false, _mark, &shares) < 0)
			continue;
		if (shares)
			ahead[nahead++] = o;
	}
	for (i = 0; i < nahead; i++)
		if (_walk_job(ls, ahead[i], true, _mark, &(bool){ false }) < 0)
			goto out;
	/* 2. what the running jobs hold */
	for (i = 0; i < lv->njobs; i++) {
		const sbw_job_t *o = &lv->jobs[i];

		if ((o->state == SBW_RUNNING || o->state == SBW_SUSPENDED) &&
		    _walk_job(ls, o, false, _holder, NULL) < 0)
			goto out;
	}
	if (!(lim = calloc(ls->nlim + 1, sizeof(*lim))) ||
	    !(need = calloc(ls->nlim + 1, sizeof(*need)))) {
		_oom();
		goto out;
	}
	for (k = 0; k < ls->nlim; k++)
		lim[k] = ls->lim[k].limit;
	if (!(lp = sb_limit_plan_create(lv->now, lim, ls->nlim)))
		goto oom;
	for (i = 0; i < ls->nuse; i++)
		if (sb_limit_plan_hold(lp, ls->use[i].lim, ls->use[i].units,
				       ls->use[i].end) < 0)
			goto oom;
	/* units Slurm counts that no running job shows (completing jobs):
	 * about to be released */
	for (k = 0; k < ls->nlim; k++)
		if (ls->lim[k].shown_use > ls->lim[k].held &&
		    sb_limit_plan_hold(lp, k, ls->lim[k].shown_use -
				       ls->lim[k].held, lv->now + 1) < 0)
			goto oom;
	/* 3. the jobs before it, in backfill's order, each at its earliest */
	_sort_lv = lv;
	_sort_before = before;
	qsort(ahead, nahead, sizeof(*ahead), _by_order);
	for (i = 0; i < nahead; i++) {
		size_t u0 = ls->nuse;

		memset(need, 0, ls->nlim * sizeof(*need));
		if (_walk_job(ls, ahead[i], false, _ahead_use, NULL) < 0 ||
		    _walk_job(ls, ahead[i], false, _need, need) < 0)
			goto out;
		if (sb_limit_plan_earliest(lp, need, lv->now,
					   _duration(ahead[i]), &start) < 0) {
			if (errno != ENOENT)
				goto oom;
			continue;	/* never: it takes nothing */
		}
		if (sb_limit_plan_add(lp, need, start, _duration(ahead[i])) < 0)
			goto oom;
		for (k = u0; k < ls->nuse; k++) {
			ls->use[k].start = start;
			ls->use[k].end = sb_time_add(start,
						     _duration(ahead[i]));
		}
	}
	/* 4. the job: every limit at once, and each alone */
	memset(need, 0, ls->nlim * sizeof(*need));
	for (k = 0; k < ls->nlim; k++)
		need[k] = ls->lim[k].need;
	ls->start = -1;
	if (!sb_limit_plan_earliest(lp, need, lv->now, _duration(ls->j),
				    &start))
		ls->start = start;
	else if (errno != ENOENT)
		goto oom;
	for (k = 0; k < ls->nlim; k++) {
		if (!need[k])
			continue;
		if (!sb_limit_plan_earliest_one(lp, k, need[k], lv->now,
						_duration(ls->j), &start))
			ls->lim[k].allows = start;
		else if (errno != ENOENT)
			goto oom;
	}
	if (ls->start < 0)
		_why_unknown(ls);
	rc = 0;
	goto out;
oom:
	_oom();
out:
	sb_limit_plan_destroy(lp);
	free(lim);
	free(need);
	free(ahead);
	return rc;
}

sbw_limits_t *sbw_limits_explain(sbw_live_t *lv, sbw_job_t *j,
				 sbw_before_fn before,
				 bool (*plannable)(const sbw_job_t *))
{
	sbw_limits_t *ls = calloc(1, sizeof(*ls));

	if (!ls) {
		_oom();
		return NULL;
	}
	ls->lv = lv;
	ls->j = j;
	ls->start = -1;
	ls->reason = sb_record_get(j->rec, "Reason");
	ls->kind = sbw_limits_reason_kind(ls->reason);
	if (!(ls->info = calloc(lv->njobs + 1, sizeof(*ls->info)))) {
		free(ls);
		_oom();
		return NULL;
	}
	if (sbw_live_run("SBUCKET_SCONTROL", "scontrol", "show lic -o",
			 _lic_line, ls) < 0 ||
	    _read_assoc_mgr(ls) < 0 ||
	    _plan(ls, before, plannable) < 0) {
		sbw_limits_free(ls);
		return NULL;
	}
	if (ls->kind == SBW_REASON_TIMED) {
		ls->start = -1;
		snprintf(ls->why, sizeof(ls->why), "%s frees only as usage "
			 "decays or running jobs' remaining time shrinks "
			 "(GrpTRESMins, GrpTRESRunMins, GrpWall), which "
			 "sbucket does not plan", ls->reason);
	} else if (!ls->nlim && ls->kind == SBW_REASON_COUNTED) {
		snprintf(ls->why, sizeof(ls->why), "slurmctld shows no set "
			 "limit of %s that the job needs (the partition's QOS "
			 "is not modelled)", ls->reason);
	}
	return ls;
}

void sbw_limits_free(sbw_limits_t *ls)
{
	size_t i;

	if (!ls)
		return;
	for (i = 0; i < ls->nlic; i++)
		free(ls->lic[i].name);
	free(ls->lic);
	for (i = 0; i < ls->nqos; i++) {
		_qos_t *q = &ls->qos[i];
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
		_assoc_t *a = &ls->assoc[i];

		free(a->account);
		free(a->user);
		free(a->partition);
		free(a->parent);
		_tres_free(a->grp, a->ngrp);
	}
	free(ls->assoc);
	_map_fini(&ls->assoc_by);
	for (i = 0; i < ls->nlim; i++) {
		free(ls->lim[i].reason);
		free(ls->lim[i].what);
		free(ls->lim[i].owner);
		free(ls->lim[i].who);
		free(ls->lim[i].tres);
	}
	free(ls->lim);
	_map_fini(&ls->lim_by);
	free(ls->use);
	free(ls->info);
	free(ls);
}

int sbw_limits_start(const sbw_limits_t *ls, int64_t *start)
{
	*start = ls->start;
	return ls->start < 0 ? 1 : 0;
}

/* ---- output -------------------------------------------------------------- */

/* Holders and jobs ahead shown per limit in the text. */
#define SHOW 5

/* The limits shown: those the job needs units of. */
static bool _shown(const _lim_t *l)
{
	return l->need > 0;
}

static int _by_end(const void *pa, const void *pb)
{
	const _use_t *a = *(const _use_t *const *) pa;
	const _use_t *b = *(const _use_t *const *) pb;
	int64_t ea = a->ahead ? a->start : a->end;
	int64_t eb = b->ahead ? b->start : b->end;

	if (a->ahead != b->ahead)
		return a->ahead ? 1 : -1;
	return ea < eb ? -1 : ea > eb;
}

/* The uses of limit @k (holders by end, then jobs ahead by start). */
static size_t _uses(const sbw_limits_t *ls, size_t k, const _use_t **v)
{
	size_t i, n = 0;

	for (i = 0; i < ls->nuse; i++)
		if (ls->use[i].lim == k)
			v[n++] = &ls->use[i];
	qsort(v, n, sizeof(*v), _by_end);
	return n;
}

void sbw_limits_print_text(const sbw_limits_t *ls)
{
	const int64_t now = ls->lv->now;
	const _use_t **v = calloc(ls->nuse + 1, sizeof(*v));
	char t1[32], t2[48];
	size_t k, i, n;

	printf("Limits it needs (the earliest start each allows):\n");
	if (!ls->nlim)
		printf("  none that slurmctld shows\n");
	for (k = 0; k < ls->nlim; k++) {
		const _lim_t *l = &ls->lim[k];
		size_t nh = 0, na = 0, th, ta;

		if (!_shown(l))
			continue;
		printf("  %s%s: limit %" PRId64 ", in use %" PRId64 ", the "
		       "job needs %" PRId64, l->what,
		       ls->reason && !strcmp(ls->reason, l->reason) ?
		       " (the Reason)" : "", l->limit, l->shown_use, l->need);
		if (l->allows >= 0) {
			sbw_fmt_time(l->allows, t1, sizeof(t1));
			sbw_fmt_rel(l->allows, now, t2, sizeof(t2));
			printf("; allows %s (%s)\n", t1, t2);
		} else {
			printf("; allows no start\n");
		}
		n = v ? _uses(ls, k, v) : 0;
		for (i = 0, th = ta = 0; i < n; i++) {
			th += !v[i]->ahead;
			ta += v[i]->ahead && v[i]->start >= 0;
		}
		for (i = 0; i < n; i++) {
			const _use_t *u = v[i];
			size_t *c = u->ahead ? &na : &nh;

			if (u->ahead && u->start < 0)
				continue;
			if ((*c)++ >= SHOW)
				continue;
			if (u->ahead) {
				sbw_fmt_time(u->start, t1, sizeof(t1));
				printf("    planned before it: job %-8s "
				       "(user %s, priority %" PRIu32 ") %"
				       PRId64 " from %s\n", u->job->id,
				       u->job->user, u->job->priority,
				       u->units, t1);
			} else if (u->end == SB_TIME_INFINITE) {
				printf("    held by job %-8s (user %s) %"
				       PRId64 ", no time limit\n", u->job->id,
				       u->job->user, u->units);
			} else {
				sbw_fmt_time(u->end, t1, sizeof(t1));
				sbw_fmt_rel(u->end, now, t2, sizeof(t2));
				printf("    held by job %-8s (user %s) %"
				       PRId64 " until %s (%s)\n", u->job->id,
				       u->job->user, u->units, t1, t2);
			}
			if (*c == SHOW && (u->ahead ? ta : th) > SHOW)
				printf("    ... and %zu more %s (--json lists "
				       "them all)\n", (u->ahead ? ta : th) - SHOW,
				       u->ahead ? "planned before it" :
				       "holders, ending later");
		}
		if (l->shown_use > l->held)
			printf("    %" PRId64 " more in use by jobs not "
			       "running (completing): about to be free\n",
			       l->shown_use - l->held);
	}
	free(v);
	if (ls->start >= 0) {
		sbw_fmt_time(ls->start, t1, sizeof(t1));
		sbw_fmt_rel(ls->start, now, t2, sizeof(t2));
		printf("Its limits allow it from %s (%s)\n", t1, t2);
	} else {
		printf("Its limits allow no start that can be known: %s\n",
		       ls->why);
	}
}

void sbw_limits_print_json(const sbw_limits_t *ls)
{
	const _use_t **v = calloc(ls->nuse + 1, sizeof(*v));
	size_t k, i, n, out = 0;

	putchar('[');
	for (k = 0; k < ls->nlim; k++) {
		const _lim_t *l = &ls->lim[k];
		size_t nh = 0, na = 0;

		if (!_shown(l))
			continue;
		printf("%s{\"reason\":", out++ ? "," : "");
		sbw_jstr(l->reason);
		printf(",\"name\":");
		sbw_jstr(l->what);
		printf(",\"scope\":");
		sbw_jstr(l->scope);
		printf(",\"%s\":", !strcmp(l->scope, "license") ? "license" :
		       !strncmp(l->scope, "qos", 3) ? "qos" : "account");
		sbw_jstr(l->owner);
		if (l->who) {
			printf(",\"%s\":", !strcmp(l->scope, "qos-account") ?
			       "account_of" : "user");
			sbw_jstr(l->who);
		}
		printf(",\"tres\":");
		sbw_jstr(l->tres);
		printf(",\"limit\":%" PRId64 ",\"in_use\":%" PRId64
		       ",\"needed\":%" PRId64 ",\"allows\":", l->limit,
		       l->shown_use, l->need);
		sbw_jtime(l->allows);
		n = v ? _uses(ls, k, v) : 0;
		printf(",\"holders\":[");
		for (i = 0; i < n; i++) {
			if (v[i]->ahead)
				continue;
			printf("%s{\"job\":", nh++ ? "," : "");
			sbw_jstr(v[i]->job->id);
			printf(",\"user\":");
			sbw_jstr(v[i]->job->user);
			printf(",\"units\":%" PRId64 ",\"end\":",
			       v[i]->units);
			sbw_jtime(v[i]->end);
			putchar('}');
		}
		printf("],\"ahead\":[");
		for (i = 0; i < n; i++) {
			if (!v[i]->ahead)
				continue;
			printf("%s{\"job\":", na++ ? "," : "");
			sbw_jstr(v[i]->job->id);
			printf(",\"priority\":%" PRIu32 ",\"units\":%" PRId64
			       ",\"planned_start\":", v[i]->job->priority,
			       v[i]->units);
			sbw_jtime(v[i]->start);
			putchar('}');
		}
		printf("]}");
	}
	putchar(']');
	free(v);
}
