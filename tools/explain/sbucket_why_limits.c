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
#include "sbucket_why_limits_priv.h"
#include "slurm_text.h"

int sbwl_oom(void)
{
	fprintf(stderr, PROG ": out of memory\n");
	return -1;
}

/* ---- reasons ------------------------------------------------------------- */

sbw_reason_kind_t sbw_limits_reason_kind(const char *r)
{
	if (!r)
		return SBW_REASON_OTHER;
	if (!strcmp(r, "Licenses"))
		return SBW_REASON_COUNTED;
	if (strncmp(r, "QOS", 3) && strncmp(r, "Assoc", 5))
		return SBW_REASON_OTHER;
	/* a job over a per-job or per-node limit never starts: not ours */
	if (strstr(r, "PerJob") || strstr(r, "PerNode"))
		return SBW_REASON_OTHER;
	if (strstr(r, "Minutes") || strstr(r, "Wall") ||
	    strstr(r, "CPUMins"))
		return SBW_REASON_TIMED;
	if (strstr(r, "Submit") || strstr(r, "Accrue") ||
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
			return (int64_t) sbc_leading_number(s + n + 1);
		}
		s = strchr(s, ',');
		s = s ? s + 1 : NULL;
	}
	return 0;
}

/*
 * The CPUs a pending job on whole nodes is counted for once it runs: a
 * base that gives whole nodes (select/linear) or OverSubscribe=NO
 * (--exclusive) allocates every CPU of its nodes, and QOS and
 * association cpu limits count those, not the cpu= it asks for (t35's
 * bench: three one-task jobs of lim4 GrpTRES=cpu=4 on 2-CPU nodes ran
 * one after the other). Which nodes it gets is not known yet: its
 * minimum node count times the fewest CPUs of a node that could take it
 * (CPUs at least its per-node minimum). 0 for other jobs.
 */
static int64_t _whole_cpus(const sbc_cluster_t *lv, const sbc_job_t *j)
{
	uint32_t best = 0;
	size_t i;

	if (j->state != SBC_PENDING ||
	    (lv->cfg.base_cons && j->share != SBC_SHARE_NO))
		return 0;
	for (i = 0; i < lv->cl.n; i++) {
		uint32_t c = lv->cl.nodes[i].cpus;

		if (c >= j->node_cpus && (!best || c < best))
			best = c;
	}
	return (int64_t) best * (j->min_nodes ? j->min_nodes : 1);
}

/* What the walks read of a job, looked up once per job. */
struct sbwl_jinfo {
	bool done;
	const sbc_qos_t *q;
	const sbc_per_t *pu, *pa;		/* its user's and account's entries */
	const sbc_assoc_t *a;		/* its association */
	const sb_license_t *lic;	/* its licences (an OR list: none) */
	size_t nlic;
	const char *tres;
	int64_t whole_cpus;		/* a pending job on whole nodes:
					 * the CPUs Slurm will count, 0
					 * otherwise */
	const char *uid;		/* its user's number, "" unknown */
};

typedef struct {
	sbw_limits_t *ls;
	const sbc_job_t *j;
	const struct sbwl_jinfo *info;
	bool create;
	/* what to do with each (limit, units) of the job */
	int (*fn)(sbw_limits_t *ls, const sbc_job_t *j, size_t lim,
		  int64_t units, void *arg);
	void *arg;
} _walk_t;

/* Room for one more element in the array *@v of *@cap: 0, or -1. */
static int _grow(void **v, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap ? 2 * *cap : 16;
	void *g;

	if (n < *cap)
		return 0;
	if (!(g = realloc(*v, c * size)))
		return -1;
	*v = g;
	*cap = c;
	return 0;
}

/* A new limit for @key: its names, as the output shows them. */
static int _new_limit(sbw_limits_t *ls, const char *key, const char *scope,
		      const char *owner, const char *who, const char *tres,
		      int64_t limit, int64_t shown)
{
	bool jobs = !strcmp(tres, "jobs");
	char buf[256];
	sbwl_lim_t *l;

	if (_grow((void **) &ls->lim, &ls->caplim, ls->nlim, sizeof(*l)))
		return sbwl_oom();
	l = &ls->lim[ls->nlim];
	memset(l, 0, sizeof(*l));
	l->scope = scope;
	l->limit = limit;
	l->shown_use = shown;
	if (!strcmp(scope, "license"))
		snprintf(buf, sizeof(buf), "Licenses");
	else
		_reason_name(buf, sizeof(buf), scope, tres);
	if (!(l->reason = strdup(buf)) || !(l->owner = strdup(owner)) ||
	    (who && !(l->who = strdup(who))) || !(l->tres = strdup(tres)))
		return sbwl_oom();
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
	if (!(l->what = strdup(buf)) || sb_strmap_put(ls->lim_by, key, ls->nlim))
		return sbwl_oom();
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
	char key[SBC_LIMITS_KEY];
	size_t i;

	if (limit == SBC_NO_LIMIT || units <= 0)
		return 0;
	sbc_limits_key(key, parts, nparts);
	if ((i = sb_strmap_get(ls->lim_by, key)) == SIZE_MAX) {
		if (!w->create)
			return 0;
		if (_new_limit(ls, key, scope, owner, who, tres, limit,
			       shown) < 0)
			return -1;
		i = ls->nlim - 1;
	}
	return w->fn(ls, w->j, i, units, w->arg);
}

static const sbc_qos_t *_qos(const sbw_limits_t *ls, const char *name)
{
	size_t i;

	for (i = 0; name && i < ls->sl.nqos; i++)
		if (!strcmp(ls->sl.qos[i].name, name))
			return &ls->sl.qos[i];
	return NULL;
}

static const sbc_per_t *_per(const sbc_per_t *v, size_t n, const char *name)
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
			const sbc_tres_t *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		kpre[nk] = t[i].name;
		int64_t u = _job_tres(w->info->tres, t[i].name);

		if (!strcmp(t[i].name, "cpu") && w->info->whole_cpus > u)
			u = w->info->whole_cpus;
		if (_one(w, kpre, nk + 1, scope, owner, who, t[i].limit,
			 t[i].used, u) < 0)
			return -1;
	}
	return 0;
}

/* The association of @acct and @user in @part, else in no partition. */
static const sbc_assoc_t *_assoc_of(const sbw_limits_t *ls, const char *acct,
				 const char *user, const char *part)
{
	const char *parts[] = { acct, user, part ? part : "" };
	char key[SBC_LIMITS_KEY];
	size_t i;

	sbc_limits_key(key, parts, 3);
	if ((i = sb_strmap_get(ls->sl.assoc_by, key)) == SIZE_MAX && part &&
	    *part) {
		parts[2] = "";
		sbc_limits_key(key, parts, 3);
		i = sb_strmap_get(ls->sl.assoc_by, key);
	}
	return i == SIZE_MAX ? NULL : &ls->sl.assoc[i];
}

/* What the walks need of job @j (once). */
static const struct sbwl_jinfo *_info(sbw_limits_t *ls, const sbc_job_t *j)
{
	struct sbwl_jinfo *in = &ls->info[j - ls->lv->jobs];

	if (in->done)
		return in;
	in->done = true;
	in->q = _qos(ls, j->qos);
	in->uid = j->uid ? j->uid : "";
	if (in->q) {
		in->pu = _per(in->q->user, in->q->nuser, in->uid);
		in->pa = _per(in->q->acct, in->q->nacct, j->account);
	}
	/* an OR list of licences (26.05) names no count of one: none */
	in->lic = j->lic;
	in->nlic = j->nlic;
	in->tres = j->tres;
	in->whole_cpus = _whole_cpus(ls->lv, j);
	in->a = j->account ? _assoc_of(ls, j->account, j->user, j->part >= 0 ?
				       ls->lv->parts[j->part].name : NULL) :
		NULL;
	return in;
}

/*
 * A QOS's limits per user or per account (@per, of @who): its TRES and
 * job count, keyed by @k[0..1] (the QOS), @kind ("u" or "a") and @id.
 */
static int _per_limits(_walk_t *w, const char **k, const char *kind,
		       const char *id, const char *scope, const char *qos,
		       const char *who, const sbc_per_t *per)
{
	k[2] = kind;
	k[3] = id;
	if (_tres_limits(w, k, 4, scope, qos, who, per->tres, per->ntres) < 0)
		return -1;
	k[4] = "jobs";
	return _one(w, k, 5, scope, qos, who, per->max_jobs, per->jobs, 1);
}

/*
 * A QOS's or an association's group limits (@scope "qos" or "assoc", of
 * @owner, for @who): its TRES and its job count, keyed by @k[0..1].
 */
static int _grp_limits(_walk_t *w, const char **k, const char *scope,
		       const char *owner, const char *who,
		       const sbc_tres_t *grp, size_t ngrp, int64_t jobs,
		       int64_t jobs_used)
{
	k[2] = "grp";
	if (_tres_limits(w, k, 3, scope, owner, who, grp, ngrp) < 0)
		return -1;
	k[3] = "jobs";
	return _one(w, k, 4, scope, owner, who, jobs, jobs_used, 1);
}

/* Hand every limit job @j is subject to to @w's function. */
static int _walk(_walk_t *w)
{
	sbw_limits_t *ls = w->ls;
	const struct sbwl_jinfo *in = w->info;
	const char *k[6];
	const sbc_qos_t *q = in->q;
	const sbc_assoc_t *a = in->a;
	char id[16];
	size_t depth, l;

	/* its licences, as many units as it asks of each */
	for (l = 0; l < in->nlic; l++) {
		size_t i;

		k[0] = "l";
		k[1] = in->lic[l].name;
		for (i = 0; i < ls->sl.nlic; i++)
			if (!strcmp(ls->sl.lic[i].name, k[1]) &&
			    _one(w, k, 2, "license", k[1], NULL,
				 ls->sl.lic[i].total, ls->sl.lic[i].used,
				 in->lic[l].count) < 0)
				return -1;
	}
	if (q) {
		k[0] = "q";
		k[1] = q->name;
		if (_grp_limits(w, k, "qos", q->name, NULL, q->grp, q->ngrp,
				q->grp_jobs, q->grp_jobs_used) < 0)
			return -1;
		if ((in->pu && _per_limits(w, k, "u", in->uid, "qos-user",
					   q->name, w->j->user, in->pu) < 0) ||
		    (in->pa && _per_limits(w, k, "a", in->pa->name,
					   "qos-account", q->name, in->pa->name,
					   in->pa) < 0))
			return -1;
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
		if (_grp_limits(w, k, "assoc", a->account, who, a->grp,
				a->ngrp, a->grp_jobs, a->grp_jobs_used) < 0)
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

static int _walk_job(sbw_limits_t *ls, const sbc_job_t *j, bool create,
		     int (*fn)(sbw_limits_t *, const sbc_job_t *, size_t,
			       int64_t, void *), void *arg)
{
	_walk_t w = { ls, j, _info(ls, j), create, fn, arg };

	return _walk(&w);
}

/* ---- planning ------------------------------------------------------------ */

static int _add_use(sbw_limits_t *ls, const sbc_job_t *j, size_t lim,
		    int64_t units)
{
	sbwl_use_t *u;

	if (_grow((void **) &ls->use, &ls->capuse, ls->nuse, sizeof(*u)))
		return sbwl_oom();
	u = &ls->use[ls->nuse++];
	u->job = j;
	u->lim = lim;
	u->units = units;
	u->end = j->time_limit == SB_TIME_INFINITE || j->end < 0 ?
		SB_TIME_INFINITE : j->end;
	return 0;
}

static int _mark(sbw_limits_t *ls, const sbc_job_t *j, size_t lim,
		 int64_t units, void *arg)
{
	*(bool *) arg = true;
	return 0;
}

static int _holder(sbw_limits_t *ls, const sbc_job_t *j, size_t lim,
		   int64_t units, void *arg)
{
	ls->lim[lim].held += units;
	return _add_use(ls, j, lim, units);
}

static int _need(sbw_limits_t *ls, const sbc_job_t *j, size_t lim,
		 int64_t units, void *arg)
{
	((int64_t *) arg)[lim] += units;
	return 0;
}

/* A holder's units of one limit until an end. */
typedef struct {
	size_t lim;
	int64_t end, units;
} _held_t;

static int _by_lim_end(const void *pa, const void *pb)
{
	const _held_t *a = pa, *b = pb;

	if (a->lim != b->lim)
		return a->lim < b->lim ? -1 : 1;
	return a->end < b->end ? -1 : a->end > b->end;
}

/*
 * The running jobs' units into @lp: one span per limit and end, their
 * units summed (100,000 holders of one QOS end at a few thousand
 * distinct times), so the planner holds points, not jobs. A job's end is
 * @end(job, @arg) when @end is given and it has one (the likely plan's).
 */
static int _hold_all(sbw_limits_t *ls, sb_limit_plan_t *lp,
		     int64_t (*end)(const sbc_job_t *, void *), void *arg)
{
	_held_t *v = calloc(ls->nuse + 1, sizeof(*v));
	size_t i, k;
	int rc = -1;

	if (!v)
		return -1;
	for (i = 0; i < ls->nuse; i++) {
		const sbwl_use_t *u = &ls->use[i];

		v[i].lim = u->lim;
		v[i].units = u->units;
		v[i].end = end && u->end != SB_TIME_INFINITE ?
			end(u->job, arg) : u->end;
		if (end && v[i].end <= ls->lv->now)
			v[i].end = ls->lv->now + 1;
	}
	qsort(v, ls->nuse, sizeof(*v), _by_lim_end);
	for (i = 0; i < ls->nuse; i = k) {
		int64_t units = 0;

		for (k = i; k < ls->nuse && v[k].lim == v[i].lim &&
		     v[k].end == v[i].end; k++)
			units += v[k].units;
		if (sb_limit_plan_hold(lp, v[i].lim, units, v[i].end) < 0)
			goto out;
	}
	rc = 0;
out:
	free(v);
	return rc;
}

/* ---- the whole queue ('sbucket forecast') ------------------------------- */

sbw_limits_t *sbw_limits_queue(sbc_cluster_t *lv,
			       bool (*want)(const sbc_job_t *))
{
	sbw_limits_t *ls = calloc(1, sizeof(*ls));
	size_t i;

	if (!ls) {
		sbwl_oom();
		return NULL;
	}
	ls->lv = lv;
	if (!(ls->info = calloc(lv->njobs + 1, sizeof(*ls->info))) ||
	    !(ls->lim_by = sb_strmap_create())) {
		sbwl_oom();
		goto fail;
	}
	if (sbc_limits_read(&ls->sl) < 0)
		goto fail;
	for (i = 0; i < lv->njobs; i++) {
		const sbc_job_t *o = &lv->jobs[i];

		if (o->state == SBC_PENDING && want(o) &&
		    _walk_job(ls, o, true, _mark, &(bool){ false }) < 0)
			goto fail;
	}
	for (i = 0; i < lv->njobs; i++) {
		const sbc_job_t *o = &lv->jobs[i];

		if ((o->state == SBC_RUNNING || o->state == SBC_SUSPENDED) &&
		    _walk_job(ls, o, false, _holder, NULL) < 0)
			goto fail;
	}
	return ls;
fail:
	sbw_limits_free(ls);
	return NULL;
}

size_t sbw_limits_count(const sbw_limits_t *ls)
{
	return ls->nlim;
}

int sbw_limits_need(sbw_limits_t *ls, const sbc_job_t *j, int64_t *need)
{
	size_t k;

	memset(need, 0, (ls->nlim + 1) * sizeof(*need));
	if (_walk_job(ls, j, false, _need, need) < 0)
		return -1;
	for (k = 0; k < ls->nlim; k++)
		if (need[k])
			return 1;
	return 0;
}

sb_limit_plan_t *sbw_limits_plan_ends(sbw_limits_t *ls,
				      int64_t (*end)(const sbc_job_t *,
						     void *), void *arg)
{
	int64_t *lim = calloc(ls->nlim + 1, sizeof(*lim));
	sb_limit_plan_t *lp = NULL;
	size_t k;

	if (!lim)
		goto oom;
	for (k = 0; k < ls->nlim; k++)
		lim[k] = ls->lim[k].limit;
	if (!(lp = sb_limit_plan_create(ls->lv->now, lim, ls->nlim)) ||
	    _hold_all(ls, lp, end, arg) < 0)
		goto oom;
	for (k = 0; k < ls->nlim; k++)
		if (ls->lim[k].shown_use > ls->lim[k].held &&
		    sb_limit_plan_hold(lp, k, ls->lim[k].shown_use -
				       ls->lim[k].held, ls->lv->now + 1) < 0)
			goto oom;
	free(lim);
	return lp;
oom:
	free(lim);
	sb_limit_plan_destroy(lp);
	sbwl_oom();
	return NULL;
}

const char *sbw_limits_what(const sbw_limits_t *ls, size_t k)
{
	return k < ls->nlim ? ls->lim[k].what : NULL;
}

void sbw_limits_free(sbw_limits_t *ls)
{
	size_t i;

	if (!ls)
		return;
	sbc_limits_fini(&ls->sl);
	for (i = 0; i < ls->nlim; i++) {
		free(ls->lim[i].reason);
		free(ls->lim[i].what);
		free(ls->lim[i].owner);
		free(ls->lim[i].who);
		free(ls->lim[i].tres);
	}
	free(ls->lim);
	sb_strmap_destroy(ls->lim_by);
	free(ls->use);
	free(ls->info);
	free(ls);
}


