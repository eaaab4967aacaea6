/*
 * sbucket_forecast_plan.c - the running cluster's pending queue, planned
 * whole (sbucket_forecast_plan.h).
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

#include "cluster_model.h"
#include "sb_time.h"
#include "sbucket_forecast_plan.h"
#include "sbucket_why_limits.h"
#include "slurm_text.h"

#define PROG "sbucket"

static int _oom(void)
{
	fprintf(stderr, PROG ": out of memory\n");
	return -1;
}

static bool _reason_is(const sbc_job_t *j, const char *r)
{
	return !strcmp(j->reason, r);
}

/*
 * The jobs whose limits are planned: those whose Reason is a counted
 * limit, and those that ask for licences whatever their Reason. Slurm
 * gives a job behind a blocked one in its partition Reason=Priority (or
 * Resources) without looking at its licences, and the licence held by
 * running jobs holds it all the same (t35: a one-task licence job with
 * Reason=Priority was planned to start now, and started at the holder's
 * end).
 */
static bool _counted(const sbc_job_t *j)
{
	if (sbw_limits_reason_kind(j->reason) == SBW_REASON_COUNTED)
		return true;
	return j->nlic || j->lic_or;
}

/* Why backfill never plans @j, into @buf ("" when it does). */
static void _unplanned(const sbc_cluster_t *lv, const sbc_job_t *j, char *buf,
		       size_t len)
{
	const char *part = j->part >= 0 ? lv->parts[j->part].name : "?";

	buf[0] = '\0';
	if (_reason_is(j, "JobHeldUser"))
		snprintf(buf, len, "held by its user (scontrol release)");
	else if (_reason_is(j, "JobHeldAdmin"))
		snprintf(buf, len, "held by an administrator");
	else if (!j->priority)
		snprintf(buf, len, "held (priority 0)");
	else if (_reason_is(j, "DependencyNeverSatisfied"))
		snprintf(buf, len, "a dependency that is never satisfied");
	else if (_reason_is(j, "PartitionDown"))
		snprintf(buf, len, "its partition %s is down", part);
	else if (_reason_is(j, "PartitionInactive"))
		snprintf(buf, len, "its partition %s is inactive", part);
	else if (sbw_limits_reason_kind(j->reason) == SBW_REASON_TIMED)
		snprintf(buf, len, "%s frees only as usage decays or running "
			 "jobs' remaining time shrinks, which sbucket does "
			 "not plan", j->reason);
}

/*
 * The memory a job asks for or holds on each of its @nodes nodes, in MB:
 * its memory per node, else the mem= of its TRES over its nodes; 0 when
 * neither says.
 */
static uint64_t _mem_per_node(const sbc_job_t *j, uint64_t nodes)
{
	if (j->mem_node)
		return j->mem_node;
	return nodes ? j->tres_mem / nodes : j->tres_mem;
}

/* Running job @j's end in @p: its own, or the likely plan's. */
static int64_t _end_of(const sbf_plan_t *p, const sbc_job_t *j)
{
	if (j->state == SBC_SUSPENDED || j->end < 0)
		return SB_TIME_INFINITE;
	return p->run_end ? p->run_end[j - p->m->lv.jobs] : j->end;
}

/* The likely plan's end of a holder of a limit. */
static int64_t _lim_end(const sbc_job_t *j, void *arg)
{
	return _end_of(arg, j);
}

/* qsort has no context argument: the live cluster of the one sort. */
static const sbc_cluster_t *_sort_lv;

static int _by_backfill(const void *pa, const void *pb)
{
	const sbf_job_t *a = pa, *b = pb;

	if (sbw_before(_sort_lv, a->job, b->job))
		return -1;
	return sbw_before(_sort_lv, b->job, a->job) ? 1 : 0;
}

static const sbf_job_t *_pending(const sbf_plan_t *p, const sbc_job_t *j)
{
	size_t i;

	for (i = 0; i < p->njobs; i++)
		if (p->jobs[i].job == j)
			return &p->jobs[i];
	return NULL;
}

const sbf_job_t *sbf_plan_job(const sbf_plan_t *p, const sbc_job_t *j)
{
	return _pending(p, j);
}

static int _add_dep(sbf_job_t *f, const char *type, sb_qp_dep_kind_t kind,
		    const sbc_job_t *on, int64_t at, int64_t delay)
{
	sbf_dep_t *v = realloc(f->deps, (f->ndeps + 1) * sizeof(*v));

	if (!v)
		return _oom();
	f->deps = v;
	v[f->ndeps++] = (sbf_dep_t) { kind, type, on, at, delay };
	return 0;
}

static const char *const _dep_types[] = {
	"after", "afterany", "afterok", "afternotok", NULL
};

/*
 * Job @f's dependencies from Dependency= ("afterok:12(unfulfilled),
 * afterany:13_*(unfulfilled)", "singleton(unfulfilled)"; '?' joins
 * alternatives, planned here as if all were needed). Those met or
 * failed are left out (a failed one makes the Reason
 * DependencyNeverSatisfied, handled before).
 */
static int _deps(sbf_plan_t *p, sbf_job_t *f)
{
	sbc_cluster_t *lv = &p->m->lv;
	const char *v = f->job->dependency;
	char *s, *tok, *save = NULL;
	size_t i;
	int rc = -1;

	if (!v)
		return 0;
	if (!(s = strdup(v)))
		return _oom();
	for (tok = strtok_r(s, ",?", &save); tok;
	     tok = strtok_r(NULL, ",?", &save)) {
		char *st = strchr(tok, '('), *ids, *id, *save2 = NULL;
		size_t t;

		if (st && strncmp(st, "(unfulfilled)", 13))
			continue;
		if (st)
			*st = '\0';
		if (!strcmp(tok, "singleton")) {
			const char *name = f->job->name;

			for (i = 0; name && i < lv->njobs; i++) {
				const sbc_job_t *o = &lv->jobs[i];
				const char *on = o->name;

				if (o == f->job || !on || strcmp(on, name) ||
				    strcmp(o->user, f->job->user) ||
				    (o->state == SBC_PENDING &&
				     sbc_leading_number(o->id) >
				     sbc_leading_number(f->job->id)) ||
				    o->state == SBC_OTHER)
					continue;
				if (_add_dep(f, "singleton", SB_QP_AFTERANY, o,
					     0, 0) < 0)
					goto out;
			}
			continue;
		}
		if (!(ids = strchr(tok, ':')))
			continue;
		*ids++ = '\0';
		for (t = 0; _dep_types[t] && strcmp(_dep_types[t], tok); t++)
			;
		if (!_dep_types[t])
			continue;	/* aftercorr, aftersingleton, ... */
		for (id = strtok_r(ids, ":", &save2); id;
		     id = strtok_r(NULL, ":", &save2)) {
			char *plus = strchr(id, '+');
			int64_t delay = 0;
			const sbc_job_t *o;

			if (plus) {
				*plus = '\0';
				/* after:N+MINUTES: minutes after its start */
				delay = 60 * (int64_t) sbc_leading_number(
					plus + 1);
			}
			o = sbc_job(lv, id);
			if (_add_dep(f, _dep_types[t], (sb_qp_dep_kind_t) t,
				     o, lv->now, delay) < 0)
				goto out;
		}
	}
	rc = 0;
out:
	free(s);
	return rc;
}

/* The queue plan's form of @f's dependencies: indices into @idx's. */
static int _qdeps(sbf_plan_t *p, sbf_job_t *f, const size_t *qidx)
{
	size_t d;

	if (!f->ndeps)
		return 0;
	if (!(f->qdeps = calloc(f->ndeps, sizeof(*f->qdeps))))
		return _oom();
	for (d = 0; d < f->ndeps; d++) {
		sbf_dep_t *dp = &f->deps[d];
		sb_qp_dep_t *q = &f->qdeps[d];
		const sbf_job_t *o = dp->on ? _pending(p, dp->on) : NULL;

		q->kind = dp->kind;
		q->job = SIZE_MAX;
		q->at = p->m->lv.now;
		q->delay = dp->kind == SB_QP_AFTER ? dp->delay : 0;
		if (o && o->planned) {
			q->job = qidx[o - p->jobs];
		} else if (o) {
			q->at = SB_TIME_INFINITE;	/* it never starts */
		} else if (dp->on && dp->kind != SB_QP_AFTER &&
			   (dp->on->state == SBC_RUNNING ||
			    dp->on->state == SBC_SUSPENDED)) {
			q->at = _end_of(p, dp->on);
		} else if (dp->on && dp->kind == SB_QP_AFTER &&
			   dp->on->start >= 0 &&
			   (dp->on->state == SBC_RUNNING ||
			    dp->on->state == SBC_SUSPENDED)) {
			/* started: met once its delay has passed */
			q->at = sb_time_add(dp->on->start, dp->delay);
			if (q->at < p->m->lv.now)
				q->at = p->m->lv.now;
		}
		dp->at = q->at;
	}
	f->qj.deps = f->qdeps;
	f->qj.ndeps = f->ndeps;
	return 0;
}

/* What each running job uses of its nodes, and the reservations. */
static int _uses(sbf_plan_t *p)
{
	sbc_cluster_t *lv = &p->m->lv;
	size_t i;
	int64_t k;

	for (i = 0; i < lv->njobs; i++) {
		const sbc_job_t *j = &lv->jobs[i];
		uint64_t mem = 0, nn, cpus;
		int64_t end;

		if (!j->nodes || !(nn = sb_bitmap_count(j->nodes)))
			continue;
		end = _end_of(p, j);
		if (end <= lv->now)
			end = lv->now + 1;
		cpus = (j->cpus + nn - 1) / nn;
		/* whole nodes: a base that gives them (select/linear), an
		 * exclusive job */
		if (!lv->cfg.base_cons || j->share == SBC_SHARE_NO ||
		    cpus > UINT32_MAX - 1)
			cpus = UINT32_MAX;
		mem = _mem_per_node(j, nn);
		for (k = sb_bitmap_first_set(j->nodes); k >= 0;
		     k = sb_bitmap_next_set(j->nodes, (size_t) k + 1))
			if (sb_qplan_use(p->q, (size_t) k, (uint32_t) cpus,
					 mem, lv->now, end, -1) < 0)
				return _oom();
	}
	for (i = 0; i < lv->nresv; i++) {
		const sbc_resv_t *r = &lv->resv[i];
		int64_t s = r->start > lv->now ? r->start : lv->now;

		if (r->end <= s)
			continue;
		for (k = sb_bitmap_first_set(r->nodes); k >= 0;
		     k = sb_bitmap_next_set(r->nodes, (size_t) k + 1))
			if (sb_qplan_use(p->q, (size_t) k, UINT32_MAX, 0, s,
					 r->end, (int) i) < 0)
				return _oom();
	}
	return 0;
}

/* The likely plan's p->until: each node busy until its running jobs'
 * likely ends. */
static int _until(sbf_plan_t *p)
{
	sbw_model_t *m = p->m;
	sb_model_job_t *run = calloc(m->nrun + 1, sizeof(*run));
	size_t i;
	int rc;

	if (!run || !(p->until = calloc(m->lv.cl.n + 1, sizeof(*p->until)))) {
		free(run);
		return _oom();
	}
	for (i = 0; i < m->nrun; i++) {
		run[i] = m->run[i];
		run[i].end = _end_of(p, m->run_of[i]);
	}
	rc = sb_model_busy_until(run, m->nrun, p->until, m->lv.cl.n);
	free(run);
	if (rc < 0)
		fprintf(stderr, PROG ": cannot build the likely plan: %s\n",
			strerror(errno));
	return rc;
}

/* One WILL_RUN plan per reservation a whole-node job runs in. */
static int _plans(sbf_plan_t *p)
{
	sbw_model_t *m = p->m;
	sbc_cluster_t *lv = &m->lv;
	const int64_t *until = p->until ? p->until : m->until;
	size_t i;

	if (!(p->w = calloc(lv->nresv + 1, sizeof(*p->w))) ||
	    !(p->plan_of_resv = malloc((lv->nresv + 1) *
				       sizeof(*p->plan_of_resv))))
		return _oom();
	for (i = 0; i < lv->nresv; i++)
		p->plan_of_resv[i] = -1;
	p->nw = 1;
	if (!(p->w[0] = sb_model_plan(m->set, lv->now, until, m->resv,
				      lv->nresv, SIZE_MAX)))
		goto fail;
	for (i = 0; i < p->njobs; i++) {
		int r = p->jobs[i].job->resv;

		if (!p->jobs[i].planned || p->jobs[i].qj.kind != SB_QP_WHOLE ||
		    r < 0)
			continue;
		if (p->plan_of_resv[r] < 0) {
			if (!(p->w[p->nw] = sb_model_plan(m->set, lv->now,
							  until, m->resv,
							  lv->nresv,
							  (size_t) r)))
				goto fail;
			p->plan_of_resv[r] = (int) p->nw++;
		}
		p->jobs[i].qj.plan = (size_t) p->plan_of_resv[r];
	}
	return 0;
fail:
	fprintf(stderr, PROG ": cannot build WILL_RUN's plan: %s\n",
		strerror(errno));
	return -1;
}

/* @f as a job of the queue plan (f->planned false: no start, why). */
static int _job(sbf_plan_t *p, sbf_job_t *f)
{
	sbw_model_t *m = p->m;
	sbc_cluster_t *lv = &m->lv;
	sbc_job_t *j = f->job;
	sb_qp_job_t *q = &f->qj;
	sbw_verdict_t v;
	uint64_t n;

	_unplanned(lv, j, f->no_start, sizeof(f->no_start));
	if (f->no_start[0])
		return 0;
	if (!j->have_req && sbc_request(lv, j) < 0) {
		snprintf(f->no_start, sizeof(f->no_start), "sbucket cannot "
			 "model its request");
		return 0;
	}
	q->req = &j->req.req;
	(void) sbw_verdict(m, j, false, &v);	/* no @alone: no failure */
	q->kind = v.base ? SB_QP_BASE : SB_QP_WHOLE;
	q->allowed = sbw_allowed(m, j);
	q->own_tag = j->resv;
	q->duration = p->dur ? p->dur[j - lv->jobs] :
		j->time_limit > 0 ? j->time_limit : 1;
	if (p->dur) {
		/* a copy of the request's fields, read only, with the run
		 * time predicted as its limit */
		f->req = j->req.req;
		f->req.time_limit = q->duration;
		q->req = &f->req;
	}
	n = sb_request_nodes(q->req);
	n = n ? n : 1;
	q->cpus = (uint32_t) ((j->cpus + n - 1) / n);
	if (q->cpus < j->node_cpus)
		q->cpus = j->node_cpus;
	q->mem = q->req->nchunks ? q->req->chunks[0].min_memory : 0;
	if (_mem_per_node(j, n) > q->mem)
		q->mem = _mem_per_node(j, n);
	/* select/linear gives whole nodes; so does --exclusive */
	q->exclusive = !lv->cfg.base_cons || j->share == SBC_SHARE_NO;
	if (_reason_is(j, "BeginTime") && j->eligible > 0)
		q->begin = j->eligible;
	if (j->resv >= 0 && lv->resv[j->resv].start > q->begin)
		q->begin = lv->resv[j->resv].start;
	if (p->lim) {
		int got;

		if (!(f->need = calloc(sbw_limits_count(p->lim) + 1,
				       sizeof(*f->need))))
			return _oom();
		if ((got = sbw_limits_need(p->lim, j, f->need)) < 0)
			return -1;
		f->needs_limits = got > 0;
		q->need = got > 0 ? f->need : NULL;
	}
	f->planned = true;
	return 0;
}

int sbf_plan(sbf_plan_t *p)
{
	sbc_cluster_t *lv = &p->own.lv;

	memset(p, 0, sizeof(*p));
	if (sbc_read(lv) < 0)
		return -1;
	if (strcmp(lv->cfg.select_type, "select/bucket")) {
		printf("The cluster's SelectType is %s, not select/bucket: "
		       "sbucket forecast plans select/bucket's clusters "
		       "only.\n", lv->cfg.select_type);
		return 1;
	}
	if (sbw_model_build(&p->own) < 0)
		return -1;
	return sbf_plan_run(p, &p->own);
}

int sbf_plan_run(sbf_plan_t *p, sbw_model_t *m)
{
	sbc_cluster_t *lv = &m->lv;
	sb_qp_job_t *qjobs = NULL;
	sb_qp_result_t *res = NULL;
	size_t *qidx = NULL, i, nq = 0;
	bool limits = false;
	int rc = -1;

	p->m = m;
	if (!(p->jobs = calloc(lv->njobs + 1, sizeof(*p->jobs))))
		return _oom();
	for (i = 0; i < lv->njobs; i++)
		if (lv->jobs[i].state == SBC_PENDING) {
			p->jobs[p->njobs++].job = &lv->jobs[i];
			limits |= _counted(&lv->jobs[i]);
		}
	_sort_lv = lv;
	qsort(p->jobs, p->njobs, sizeof(*p->jobs), _by_backfill);
	/* the limits, only when a job waits for one (they cost two more
	 * scontrol calls) */
	if (limits && !p->lim && !(p->lim = sbw_limits_queue(lv, _counted)))
		return -1;
	if (p->lim && !(p->lp = sbw_limits_plan_ends(p->lim, p->run_end ?
						     _lim_end : NULL, p)))
		return -1;
	if (p->run_end && _until(p) < 0)
		return -1;
	for (i = 0; i < p->njobs; i++)
		if (_job(p, &p->jobs[i]) < 0 || _deps(p, &p->jobs[i]) < 0)
			return -1;
	if (_plans(p) < 0)
		return -1;
	if (!(p->q = sb_qplan_create(lv->cl.nodes, lv->cl.n, lv->now, p->w,
				     p->nw, p->lp)) ||
	    sb_qplan_set_buckets(p->q, m->set) < 0)
		return _oom();
	if (_uses(p) < 0)
		return -1;
	if (!(qjobs = calloc(p->njobs + 1, sizeof(*qjobs))) ||
	    !(res = calloc(p->njobs + 1, sizeof(*res))) ||
	    !(qidx = calloc(p->njobs + 1, sizeof(*qidx))))
		goto oom;
	for (i = 0; i < p->njobs; i++)
		if (p->jobs[i].planned)
			qidx[i] = nq++;
	for (i = 0; i < p->njobs; i++) {
		if (_qdeps(p, &p->jobs[i], qidx) < 0)
			goto out;
		if (p->jobs[i].planned)
			qjobs[qidx[i]] = p->jobs[i].qj;
	}
	if (sb_qplan_run(p->q, qjobs, nq, m->policy, res) < 0) {
		fprintf(stderr, PROG ": cannot plan the queue: %s\n",
			strerror(errno));
		goto out;
	}
	for (i = 0; i < p->njobs; i++) {
		sbf_job_t *f = &p->jobs[i];
		int64_t bf;

		if (!f->planned)
			continue;
		f->r = res[qidx[i]];
		f->plan_start = f->r.start;
		if (f->r.never)
			continue;
		/* where backfill shows it ('sbucket why' shows the same) */
		bf = sbw_backfill_step(lv, f->job, f->r.start, f->r.nodes,
				       NULL);
		f->r.end = sb_time_add(f->r.end, bf - f->r.start);
		f->r.start = bf;
	}
	rc = 0;
	goto out;
oom:
	_oom();
out:
	free(qjobs);
	free(res);
	free(qidx);
	return rc;
}

int sbf_plan_with(sbf_plan_t *p, sbf_plan_t *from, const int64_t *run_end,
		  const int64_t *dur)
{
	p->run_end = run_end;
	p->dur = dur;
	p->lim = from->lim;
	p->lim_lent = true;
	return sbf_plan_run(p, from->m);
}

void sbf_plan_fini(sbf_plan_t *p)
{
	size_t i;

	for (i = 0; p->jobs && i < p->njobs; i++) {
		sb_qplan_result_fini(&p->jobs[i].r);
		free(p->jobs[i].qdeps);
		free(p->jobs[i].deps);
		free(p->jobs[i].need);
	}
	free(p->jobs);
	sb_qplan_destroy(p->q);
	for (i = 0; p->w && i < p->nw; i++)
		sb_will_run_destroy(p->w[i]);
	free(p->w);
	free(p->plan_of_resv);
	sb_limit_plan_destroy(p->lp);
	if (!p->lim_lent)
		sbw_limits_free(p->lim);
	free(p->until);
	sbw_model_fini(&p->own);
}
