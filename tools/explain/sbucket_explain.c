/*
 * sbucket_explain.c - one job explained (sbucket_explain.h).
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

#include "sb_time.h"
#include "sbucket_explain.h"
#include "sbucket_explain_fmt.h"
#include "sbucket_why_limits_priv.h"

/* ---- the index ----------------------------------------------------------- */

/*
 * Per node, the running jobs on it and the planned pending jobs on it
 * (indices into m->run and p->jobs), so that what a job waits for costs
 * the jobs on its own nodes, not the whole queue. CSR: node i's are
 * v[at[i]..at[i+1]).
 */
struct sbx_index {
	const sbf_plan_t *p;
	size_t *run_at, *run;
	size_t *job_at, *job;
	uint32_t *seen, *seen_job;	/* per running, per pending job */
	uint32_t stamp;
};

void sbx_index_destroy(sbx_index_t *x)
{
	if (!x)
		return;
	free(x->run_at);
	free(x->run);
	free(x->job_at);
	free(x->job);
	free(x->seen);
	free(x->seen_job);
	free(x);
}

/* CSR of @nsets node sets (@set(i), NULL skipped) over @n nodes. */
static int _csr(size_t n, size_t nsets, const sb_bitmap_t *(*set)(
			const void *, size_t), const void *arg, size_t **at,
		size_t **v)
{
	size_t i, total = 0, *fill;
	int64_t k;

	if (!(*at = calloc(n + 2, sizeof(**at))))
		return -1;
	for (i = 0; i < nsets; i++) {
		const sb_bitmap_t *b = set(arg, i);

		for (k = b ? sb_bitmap_first_set(b) : -1; k >= 0;
		     k = sb_bitmap_next_set(b, (size_t) k + 1)) {
			(*at)[k + 1]++;
			total++;
		}
	}
	for (i = 0; i < n; i++)
		(*at)[i + 1] += (*at)[i];
	if (!(*v = malloc((total + 1) * sizeof(**v))) ||
	    !(fill = malloc((n + 1) * sizeof(*fill))))
		return -1;
	memcpy(fill, *at, n * sizeof(*fill));
	for (i = 0; i < nsets; i++) {
		const sb_bitmap_t *b = set(arg, i);

		for (k = b ? sb_bitmap_first_set(b) : -1; k >= 0;
		     k = sb_bitmap_next_set(b, (size_t) k + 1))
			(*v)[fill[k]++] = i;
	}
	free(fill);
	return 0;
}

static const sb_bitmap_t *_run_set(const void *arg, size_t i)
{
	return ((const sbw_model_t *) arg)->run[i].nodes;
}

static const sb_bitmap_t *_job_set(const void *arg, size_t i)
{
	const sbf_job_t *f = &((const sbf_plan_t *) arg)->jobs[i];

	return f->planned && !f->r.never ? f->r.nodes : NULL;
}

sbx_index_t *sbx_index_create(const sbf_plan_t *p)
{
	size_t n = p->m->lv.cl.n;
	sbx_index_t *x = calloc(1, sizeof(*x));

	if (!x || _csr(n, p->m->nrun, _run_set, p->m, &x->run_at,
		       &x->run) < 0 ||
	    _csr(n, p->njobs, _job_set, p, &x->job_at, &x->job) < 0 ||
	    !(x->seen = calloc(p->m->nrun + 1, sizeof(*x->seen))) ||
	    !(x->seen_job = calloc(p->njobs + 1, sizeof(*x->seen_job)))) {
		sbx_index_destroy(x);
		fprintf(stderr, "sbucket: out of memory\n");
		return NULL;
	}
	x->p = p;
	return x;
}

/* ---- what it waits for --------------------------------------------------- */

static int _add(sbx_t *e, size_t *room, sbx_wait_t w)
{
	sbx_wait_t *v;

	if (e->nwaits == *room) {
		size_t r = *room ? 2 * *room : 8;

		if (!(v = realloc(e->waits, r * sizeof(*v))))
			return -1;
		e->waits = v;
		*room = r;
	}
	e->waits[e->nwaits++] = w;
	return 0;
}

static int _by_at(const void *a, const void *b)
{
	const sbx_wait_t *x = a, *y = b;
	size_t lx = strlen(x->id), ly = strlen(y->id);

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	/* job ids in their numeric order */
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return strcmp(x->id, y->id);
}

/* Keep the first SBX_MAX_WAITS of the waits from @n0 on, by end. */
static void _cut(sbx_t *e, size_t n0)
{
	qsort(e->waits + n0, e->nwaits - n0, sizeof(*e->waits), _by_at);
	if (e->nwaits - n0 > SBX_MAX_WAITS) {
		e->more += e->nwaits - n0 - SBX_MAX_WAITS;
		e->nwaits = n0 + SBX_MAX_WAITS;
	}
}

/* What planned job @f waits for, by what decided its start. */
static int _waits(const sbf_plan_t *p, sbx_index_t *x, const sbf_job_t *f,
		  sbx_t *e)
{
	const sbw_model_t *m = p->m;
	const sbc_cluster_t *lv = &m->lv;
	const sb_qp_result_t *r = &f->r;
	size_t i, k, n0, room = 0;
	int64_t nd;

	switch (r->by) {
	case SB_QP_BY_NOW:
		return 0;
	case SB_QP_BY_BEGIN:
		if (f->job->resv >= 0 &&
		    lv->resv[f->job->resv].start == r->start)
			return _add(e, &room, (sbx_wait_t) {
				.kind = SBX_OWN_RESV, .id =
				lv->resv[f->job->resv].name,
				.at = r->start });
		return _add(e, &room, (sbx_wait_t) { .kind = SBX_BEGIN, .id =
					"", .at = r->start });
	case SB_QP_BY_DEPENDENCY: {
		const sbf_dep_t *d = &f->deps[r->dep];

		return _add(e, &room, (sbx_wait_t) { .kind = SBX_DEP, .id =
					d->on ? d->on->id : "?",
					.type = d->type, .at = r->start });
	}
	case SB_QP_BY_LIMITS:
		for (k = 0; f->need && k < sbw_limits_count(p->lim); k++)
			if (f->need[k] && _add(e, &room, (sbx_wait_t) {
				.kind = SBX_LIMIT,
				.id = sbw_limits_what(p->lim, k),
				.limit = k }) < 0)
				return -1;
		return 0;
	case SB_QP_BY_NODES:
		break;
	}
	/* the running jobs on its nodes that end by its start, by end */
	x->stamp++;
	n0 = e->nwaits;
	for (nd = sb_bitmap_first_set(r->nodes); nd >= 0;
	     nd = sb_bitmap_next_set(r->nodes, (size_t) nd + 1))
		for (i = x->run_at[nd]; i < x->run_at[nd + 1]; i++) {
			const sb_model_job_t *o = &m->run[x->run[i]];

			if (x->seen[x->run[i]] == x->stamp || o->end > r->start)
				continue;
			x->seen[x->run[i]] = x->stamp;
			if (_add(e, &room, (sbx_wait_t) { .kind = SBX_RUNNING,
				 .id = o->id, .nodes = o->nodes,
				 .at = o->end }) < 0)
				return -1;
		}
	_cut(e, n0);
	/* jobs planned before it on its nodes, ending by its start */
	n0 = e->nwaits;
	for (nd = sb_bitmap_first_set(r->nodes); nd >= 0;
	     nd = sb_bitmap_next_set(r->nodes, (size_t) nd + 1))
		for (i = x->job_at[nd]; i < x->job_at[nd + 1]; i++) {
			const sbf_job_t *o = &p->jobs[x->job[i]];

			if (x->seen_job[x->job[i]] == x->stamp ||
			    o->r.order >= r->order || o->r.end > r->start ||
			    o->r.end <= lv->now)
				continue;
			x->seen_job[x->job[i]] = x->stamp;
			if (_add(e, &room, (sbx_wait_t) { .kind = SBX_PLANNED,
				 .id = o->job->id, .nodes = o->r.nodes,
				 .at = o->r.end }) < 0)
				return -1;
		}
	_cut(e, n0);
	/* reservations on its nodes that end by its start */
	for (i = 0; i < lv->nresv; i++) {
		const sbc_resv_t *rv = &lv->resv[i];

		if ((int) i == f->job->resv || rv->end <= lv->now ||
		    rv->end > r->start ||
		    sb_bitmap_intersects(rv->nodes, r->nodes) != 1)
			continue;
		if (_add(e, &room, (sbx_wait_t) { .kind = SBX_RESV, .id =
					rv->name, .nodes = rv->nodes,
					.at = rv->end }) < 0)
			return -1;
	}
	return 0;
}

/* ---- its limits ---------------------------------------------------------- */

size_t sbx_holders(const sbf_plan_t *p, size_t k, const sbc_job_t **jobs,
		   int64_t *units, int64_t *ends, size_t max)
{
	const sbw_limits_t *ls = p->lim;
	size_t i, n = 0;

	for (i = 0; ls && i < ls->nuse; i++) {
		const sbwl_use_t *u = &ls->use[i];

		if (u->lim != k)
			continue;
		if (n < max) {
			jobs[n] = u->job;
			units[n] = u->units;
			ends[n] = u->end;
		}
		n++;
	}
	return n;
}

/* Why a limit never lets @f start, into @buf (the first cause found). */
static void _never_limits(const sbf_plan_t *p, const sbx_t *e, char *buf,
			  size_t len)
{
	const sbw_limits_t *ls = p->lim;
	size_t i, k;

	for (i = 0; i < e->nlimits; i++) {
		const sbwl_lim_t *l = &ls->lim[e->limits[i].k];

		if (e->limits[i].need > l->limit) {
			snprintf(buf, len, "it needs %" PRId64 " of %s, more "
				 "than its limit %" PRId64, e->limits[i].need,
				 l->what, l->limit);
			return;
		}
	}
	for (i = 0; i < e->nlimits; i++) {
		if (e->limits[i].allows >= 0)
			continue;
		k = e->limits[i].k;
		for (size_t u = 0; u < ls->nuse; u++)
			if (ls->use[u].lim == k &&
			    ls->use[u].end == SB_TIME_INFINITE) {
				snprintf(buf, len, "running job %s holds %"
					 PRId64 " of %s and has no time limit",
					 ls->use[u].job->id, ls->use[u].units,
					 ls->lim[k].what);
				return;
			}
		snprintf(buf, len, "%s never has the room", ls->lim[k].what);
		return;
	}
	snprintf(buf, len, "a limit it needs never has the room");
}

/* The limits @f needs, with what each alone allows. */
static int _limits(const sbf_plan_t *p, const sbf_job_t *f, sbx_t *e)
{
	size_t k, n = p->lim ? sbw_limits_count(p->lim) : 0;

	if (!f->need || !n)
		return 0;
	if (!(e->limits = calloc(n, sizeof(*e->limits))))
		return -1;
	for (k = 0; k < n; k++)
		if (f->need[k] > 0)
			e->limits[e->nlimits++] = (sbx_limit_t) {
				k, f->need[k], f->r.allows ? f->r.allows[k] :
				-1 };
	return 0;
}

/* ---- the whole ----------------------------------------------------------- */

/* Why @f has no start, into @buf. */
static void _no_start(const sbf_plan_t *p, const sbf_job_t *f, sbx_t *e,
		      char *buf, size_t len)
{
	const sbf_dep_t *d;

	buf[0] = '\0';
	if (!f->planned) {
		snprintf(buf, len, "%s", f->no_start);
		return;
	}
	switch (f->r.never) {
	case SB_QP_NEVER_NONE:
		break;
	case SB_QP_NEVER_NODES:
		snprintf(buf, len, "even when every running job has ended, "
			 "too few nodes that match it are up and outside "
			 "reservations for long enough");
		break;
	case SB_QP_NEVER_LIMITS:
		_never_limits(p, e, buf, len);
		break;
	case SB_QP_NEVER_DEPENDENCY:
		d = &f->deps[f->r.dep];
		if (d->on)
			snprintf(buf, len, "it depends (%s) on job %s, which "
				 "has no start", d->type, d->on->id);
		else
			snprintf(buf, len, "a dependency (%s) that is never "
				 "met", d->type);
		break;
	case SB_QP_NEVER_CYCLE:
		snprintf(buf, len, "a cycle of dependencies");
		break;
	}
}

int sbx_explain(const sbf_plan_t *p, const sbf_likely_t *l, sbx_index_t *x,
		const sbf_job_t *f, sbx_t *e)
{
	const sbc_cluster_t *lv = &p->m->lv;
	const sbf_job_t *lf = l ? sbf_likely_job(l, p, f) : NULL;

	memset(e, 0, sizeof(*e));
	e->job = f->job;
	e->f = f;
	e->start = e->end = -1;
	e->likely_start = e->likely_end = -1;
	if (f->planned)
		e->placed_by = f->qj.kind == SB_QP_BASE ?
			(lv->cfg.base ? lv->cfg.base : "the base") :
			"select/bucket";
	e->has_start = f->planned && !f->r.never;
	if (e->has_start) {
		e->start = f->r.start;
		e->end = f->r.end == SB_TIME_INFINITE ? -1 : f->r.end;
		e->nodes = f->r.nodes;
	}
	if (_limits(p, f, e) < 0 || (e->has_start && _waits(p, x, f, e) < 0)) {
		sbx_fini(e);
		fprintf(stderr, "sbucket: out of memory\n");
		return -1;
	}
	if (!e->has_start)
		_no_start(p, f, e, e->no_start, sizeof(e->no_start));
	if (lf) {
		e->likely = true;
		if (lf->planned && !lf->r.never) {
			e->likely_start = lf->r.start;
			e->likely_end = lf->r.end == SB_TIME_INFINITE ? -1 :
				lf->r.end;
		}
		sbf_likely_basis(l, p, f->job, e->likely_basis,
				 sizeof(e->likely_basis));
	}
	return 0;
}

void sbx_running(const sbc_cluster_t *c, const sbf_likely_t *l,
		 const sbc_job_t *j, sbx_t *e)
{
	int64_t le = -1;

	memset(e, 0, sizeof(*e));
	e->job = j;
	e->has_start = true;
	e->start = j->start;
	e->end = j->state == SBC_SUSPENDED ? -1 : j->end;
	e->nodes = j->nodes;
	e->likely_start = e->likely_end = -1;
	if (l && l->predicted) {
		sbf_likely_running(l, c, j, &le, e->likely_basis,
				   sizeof(e->likely_basis));
		e->likely = true;
		e->likely_end = le == SB_TIME_INFINITE ? -1 : le;
	}
}

void sbx_fini(sbx_t *e)
{
	free(e->waits);
	free(e->limits);
	memset(e, 0, sizeof(*e));
}

/* ---- printing ------------------------------------------------------------ */

/* ,"@key":VALUE for a string, a time, a node set (NULL: null). */
static void _js(const char *key, const char *v)
{
	printf(",\"%s\":", key);
	sbx_jstr(v);
}

static void _jt(const char *key, int64_t t)
{
	printf(",\"%s\":", key);
	sbx_jtime(t);
}

static void _jn(const sbc_cluster_t *c, const char *key,
		const sb_bitmap_t *b)
{
	char *hl = b ? sbw_hostlist(c, b) : NULL;

	_js(key, hl);
	free(hl);
}

static const char *const _kinds[] = {
	[SBX_RUNNING] = "running_job", [SBX_PLANNED] = "planned_job",
	[SBX_RESV] = "reservation", [SBX_OWN_RESV] = "own_reservation",
	[SBX_LIMIT] = "limit", [SBX_DEP] = "dependency",
	[SBX_BEGIN] = "begin_time",
};

static void _json_waits(const sbc_cluster_t *c, const sbx_t *e)
{
	size_t i;

	putchar('[');
	for (i = 0; i < e->nwaits; i++) {
		const sbx_wait_t *w = &e->waits[i];

		printf("%s{\"kind\":\"%s\"", i ? "," : "", _kinds[w->kind]);
		switch (w->kind) {
		case SBX_RUNNING:
		case SBX_PLANNED:
			_js("job_id", w->id);
			_jn(c, "nodes", w->nodes);
			_jt("end", w->at);
			break;
		case SBX_RESV:
			_js("name", w->id);
			_jn(c, "nodes", w->nodes);
			_jt("end", w->at);
			break;
		case SBX_OWN_RESV:
			_js("name", w->id);
			_jt("start", w->at);
			break;
		case SBX_LIMIT:
			_js("limit", w->id);
			break;
		case SBX_DEP:
			_js("type", w->type);
			_js("job_id", w->id);
			_jt("at", w->at);
			break;
		case SBX_BEGIN:
			_jt("at", w->at);
			break;
		}
		putchar('}');
	}
	putchar(']');
}

static void _json_limits(const sbf_plan_t *p, const sbx_t *e)
{
	const sbc_job_t *h[SBX_MAX_HOLDERS];
	int64_t units[SBX_MAX_HOLDERS], ends[SBX_MAX_HOLDERS];
	size_t i, k, n;

	putchar('[');
	for (i = 0; i < e->nlimits; i++) {
		const sbwl_lim_t *l = &p->lim->lim[e->limits[i].k];

		printf("%s{\"limit\":", i ? "," : "");
		sbx_jstr(l->what);
		_js("reason", l->reason);
		_js("scope", l->scope);
		_js("owner", l->owner);
		_js("of", l->who);
		_js("tres", l->tres);
		printf(",\"total\":%" PRId64 ",\"in_use\":%" PRId64
		       ",\"needed\":%" PRId64, l->limit, l->shown_use,
		       e->limits[i].need);
		_jt("allows", e->limits[i].allows);
		n = sbx_holders(p, e->limits[i].k, h, units, ends,
				SBX_MAX_HOLDERS);
		printf(",\"holders\":[");
		for (k = 0; k < n && k < SBX_MAX_HOLDERS; k++) {
			printf("%s{\"job_id\":", k ? "," : "");
			sbx_jstr(h[k]->id);
			_js("user", h[k]->user);
			printf(",\"units\":%" PRId64, units[k]);
			_jt("end", ends[k]);
			putchar('}');
		}
		printf("],\"holders_more\":%zu}", n > SBX_MAX_HOLDERS ?
		       n - SBX_MAX_HOLDERS : 0);
	}
	putchar(']');
}

void sbx_json(const sbc_cluster_t *c, const sbf_plan_t *p, const sbx_t *e)
{
	const sbc_job_t *j = e->job;

	printf("{\"job_id\":");
	sbx_jstr(j->id);
	_js("user", j->user);
	_js("account", j->account);
	_js("partition", j->part >= 0 ? c->parts[j->part].name : NULL);
	printf(",\"priority\":%" PRIu32, j->priority);
	_js("state", j->state == SBC_PENDING ? "pending" : j->state ==
	    SBC_SUSPENDED ? "suspended" : "running");
	_js("reason", j->reason);
	_js("placed_by", e->placed_by);
	_jt("start", e->start);
	_jt("end", e->end);
	_jn(c, "nodes", e->nodes);
	_js("no_start", e->no_start[0] ? e->no_start : NULL);
	printf(",\"waits_for\":");
	_json_waits(c, e);
	printf(",\"waits_more\":%zu,\"limits\":", e->more);
	if (p && e->nlimits)
		_json_limits(p, e);
	else
		printf("[]");
	_jt("likely_start", e->likely_start);
	_jt("likely_end", e->likely_end);
	_js("likely_basis", e->likely ? e->likely_basis : NULL);
	_jt("squeue_start", j->state == SBC_PENDING ? j->start : -1);
	putchar('}');
}

void sbx_wait_text(const sbc_cluster_t *c, const sbf_plan_t *p,
		   const sbx_wait_t *w, char *buf, size_t len)
{
	char t[32], *hl = w->nodes ? sbw_hostlist(c, w->nodes) : NULL;
	const sbc_job_t *h[SBX_MAX_HOLDERS];
	int64_t units[SBX_MAX_HOLDERS], ends[SBX_MAX_HOLDERS];
	size_t n, i, off;

	sbx_time(w->at, t, sizeof(t));
	switch (w->kind) {
	case SBX_RUNNING:
		snprintf(buf, len, "running job %s on %s (ends %s)", w->id,
			 hl ? hl : "?", t);
		break;
	case SBX_PLANNED:
		snprintf(buf, len, "job %s planned before it on %s (ends %s)",
			 w->id, hl ? hl : "?", t);
		break;
	case SBX_RESV:
		snprintf(buf, len, "reservation %s on %s (ends %s)", w->id,
			 hl ? hl : "?", t);
		break;
	case SBX_OWN_RESV:
		snprintf(buf, len, "its reservation %s (starts %s)", w->id, t);
		break;
	case SBX_LIMIT:
		n = sbx_holders(p, w->limit, h, units, ends, SBX_MAX_HOLDERS);
		off = (size_t) snprintf(buf, len, "%s", w->id);
		if (!n) {
			snprintf(buf + off, len - off, " (no running job "
				 "holds it; jobs planned before it do)");
			break;
		}
		off += (size_t) snprintf(buf + off, len - off, " (held by "
					 "job%s", n > 1 ? "s" : "");
		for (i = 0; i < n && i < SBX_MAX_HOLDERS && off < len; i++)
			off += (size_t) snprintf(buf + off, len - off,
						 "%s %s", i ? "," : "",
						 h[i]->id);
		if (n > SBX_MAX_HOLDERS && off < len)
			off += (size_t) snprintf(buf + off, len - off,
						 " and %zu more",
						 n - SBX_MAX_HOLDERS);
		if (off < len)
			snprintf(buf + off, len - off, ")");
		break;
	case SBX_DEP:
		snprintf(buf, len, "%s on job %s (%s)", w->type, w->id, t);
		break;
	case SBX_BEGIN:
		snprintf(buf, len, "its begin time %s", t);
		break;
	}
	free(hl);
}

void sbx_waits_line(const sbc_cluster_t *c, const sbf_plan_t *p,
		    const sbx_t *e, char *buf, size_t len)
{
	char one[512];
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < e->nwaits && off < len; i++) {
		sbx_wait_text(c, p, &e->waits[i], one, sizeof(one));
		off += (size_t) snprintf(buf + off, len - off, "%s%s",
					 i ? "; " : "", one);
	}
	if (e->more && off < len)
		snprintf(buf + off, len - off, "; and %zu more", e->more);
}
