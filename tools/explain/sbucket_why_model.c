/*
 * sbucket_why_model.c - the running cluster in select/bucket's model and
 * backfill's view of its queue, shared by 'sbucket why' and 'sbucket
 * forecast' (sbucket_why_model.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostlist_fmt.h"
#include "sb_time.h"
#include "sbucket_why_limits.h"
#include "sbucket_why_model.h"

#define PROG "sbucket"

void sbw_model_fini(sbw_model_t *m)
{
	sb_bucket_set_destroy(m->set);
	free(m->run);
	free(m->run_of);
	free(m->resv);
	free(m->until);
	sb_bitmap_free(m->reserved);
	sbc_fini(&m->lv);
}

static int _oom(void)
{
	fprintf(stderr, PROG ": out of memory\n");
	return -1;
}

/* Buckets with future reservations as windows, running jobs' ends. */
int sbw_model_build(sbw_model_t *m)
{
	sbc_cluster_t *lv = &m->lv;
	size_t i, n = lv->cl.n;

	m->policy = sb_bucket_conf_policy(lv->cfg.conf);
	if ((lv->nresv && !(m->resv = calloc(lv->nresv, sizeof(*m->resv)))) ||
	    !(m->until = calloc(n + 1, sizeof(*m->until))) ||
	    (lv->njobs && (!(m->run = calloc(lv->njobs, sizeof(*m->run))) ||
			   !(m->run_of = calloc(lv->njobs,
						sizeof(*m->run_of))))))
		return _oom();
	for (i = 0; i < lv->nresv; i++) {
		m->resv[i].name = lv->resv[i].name;
		m->resv[i].nodes = lv->resv[i].nodes;
		m->resv[i].start = lv->resv[i].start;
		m->resv[i].end = lv->resv[i].end;
	}
	for (i = 0; i < lv->njobs; i++) {
		const sbc_job_t *j = &lv->jobs[i];

		if (!j->nodes)
			continue;
		m->run[m->nrun].id = j->id;
		m->run[m->nrun].nodes = j->nodes;
		m->run[m->nrun].end = (j->state == SBC_SUSPENDED ||
				       j->end < 0) ? SB_TIME_INFINITE : j->end;
		m->run_of[m->nrun++] = j;
	}
	if (sb_model_windows(lv->cl.nodes, n, m->resv, lv->nresv,
			     lv->now) < 0 ||
	    sb_model_busy_until(m->run, m->nrun, m->until, n) < 0 ||
	    !(m->set = sb_bucket_set_create(lv->cl.nodes, n, lv->now))) {
		fprintf(stderr, PROG ": cannot build the node buckets: %s\n",
			strerror(errno));
		return -1;
	}
	return 0;
}

/* The nodes of reservations active now that @j does not run in. */
int sbw_model_reserved(sbw_model_t *m, const sbc_job_t *j)
{
	size_t i;

	if (!(m->reserved = sb_bitmap_alloc(m->lv.cl.n)))
		return _oom();
	for (i = 0; i < m->lv.nresv; i++)
		if ((int) i != j->resv && m->resv[i].start <= m->lv.now &&
		    m->resv[i].end > m->lv.now)
			sb_bitmap_or(m->reserved, m->resv[i].nodes);
	return 0;
}

bool sbw_facts(const sbw_model_t *m, const sbc_job_t *j,
	       sb_select_facts_t *f)
{
	const sbc_cluster_t *lv = &m->lv;
	const sbc_part_t *p = j->part >= 0 ? &lv->parts[j->part] : NULL;
	const sb_request_t *r = &j->req.req;
	sb_base_facts_t *b = &f->base;
	size_t i;

	sb_select_facts_init(f);
	b->min_nodes = j->min_nodes;
	b->max_nodes = j->max_nodes;
	b->share.reboot = j->reboot;
	b->share.part_exclusive = p && p->exclusive;
	b->share.part_no = p && p->no;
	b->share.part_force = p && p->force;
	b->share.job_share = j->share == SBC_SHARE_YES;
	b->share.job_exclusive = j->share == SBC_SHARE_NO;
	b->share.base_cons = lv->cfg.base_cons;
	b->required_nodes = j->req_nodes != NULL;
	b->contiguous = j->contiguous;
	b->min_cpus = j->cpus;
	b->node_cpus = j->node_cpus;
	for (i = 0; i < lv->nresv; i++)
		if (lv->resv[i].partial && (int) i != j->resv &&
		    lv->resv[i].start <= lv->now && lv->resv[i].end > lv->now)
			b->core_reservation = true;
	/* with preemption configured, backfill may offer jobs to preempt:
	 * those of partitions of a lower PriorityTier, or (other kinds of
	 * preemption, which sbucket cannot see) any running job */
	if (lv->cfg.preempt_type &&
	    strcmp(lv->cfg.preempt_type, "preempt/none"))
		for (i = 0; i < m->nrun; i++) {
			const sbc_job_t *o = m->run_of[i];

			if (strcmp(lv->cfg.preempt_type,
				   "preempt/partition_prio") ||
			    (p && o->part >= 0 &&
			     lv->parts[o->part].tier < p->tier))
				b->preempt_candidates = true;
		}
	f->policy = m->policy;
	f->now = lv->now;
	f->allowed = sbw_allowed(m, j);
	if (!j->have_req || r->nchunks != 1 || r->nmatch)
		return false;
	f->min_memory = r->chunks[0].min_memory;
	f->min_tmp = r->chunks[0].min_tmp;
	f->time_limit = r->time_limit;
	f->match = r;
	return true;
}

/*
 * WILL_RUN's start of @j, a job of ours, with nothing of the queue
 * planned before it: the decision's (@one: its request is one question)
 * or the whole request's on the same plan, into v->alone_start (-1:
 * never). 0, or -1 after one error line.
 */
static int _alone(const sbw_model_t *m, const sbc_job_t *j,
		  sb_select_facts_t *f, bool one, sbw_verdict_t *v)
{
	const sbc_cluster_t *lv = &m->lv;
	sb_select_verdict_t d = { 0 };
	sb_will_run_result_t res;
	sb_will_run_t *w;
	int rc = -1;

	if (!(w = sb_model_plan(m->set, lv->now, m->until, m->resv, lv->nresv,
				j->resv >= 0 ? (size_t) j->resv : SIZE_MAX)))
		return _oom();
	f->plan = w;
	if (!one) {
		if (!sb_will_run_query(w, &j->req.req, m->policy, f->allowed,
				       lv->now, &res)) {
			v->alone_start = res.start;
			sb_will_run_result_fini(&res);
		} else if (errno != ENOENT) {
			d.failed = "WILL_RUN";
			d.err = errno;
		}
	} else if (sb_select_decide(m->set, f, SB_SELECT_WILL_RUN, &d) < 0) {
		d.failed = "WILL_RUN";
		d.err = errno;
	} else if (d.action == SB_SELECT_OURS) {
		v->alone_start = d.start;
	}
	/* anything else of a job of ours is "we found none" (never), or
	 * "preemption" where the base would look for jobs to preempt */
	if (d.failed && d.err == ENOMEM)
		_oom();
	else if (d.failed)
		fprintf(stderr, PROG ": job %s: WILL_RUN failed: %s\n",
			j->id, strerror(d.err));
	else
		rc = 0;
	sb_select_verdict_fini(&d);
	sb_will_run_destroy(w);
	return rc;
}

int sbw_verdict(const sbw_model_t *m, const sbc_job_t *j, bool alone,
		sbw_verdict_t *v)
{
	sb_select_facts_t f;
	bool one = sbw_facts(m, j, &f);

	memset(v, 0, sizeof(*v));
	v->alone_start = -1;
	v->base = sb_select_base_reason(m->set, &f, SB_SELECT_WILL_RUN);
	v->base_now = sb_select_base_reason(m->set, &f, SB_SELECT_RUN_NOW);
	v->path = v->base_now || !j->have_req ? NULL :
		sb_place_ineligible(&j->req.req, m->policy);
	if (!alone || v->base)
		return 0;
	return _alone(m, j, &f, one, v);
}

/* Backfill's order (job_scheduler.c sort_job_queue2()): jobs in a
 * reservation, PriorityTier, priority, then job id. */
int sbw_before(const sbc_cluster_t *lv, const sbc_job_t *a,
		   const sbc_job_t *b)
{
	uint32_t ta = a->part >= 0 ? lv->parts[a->part].tier : 0;
	uint32_t tb = b->part >= 0 ? lv->parts[b->part].tier : 0;
	uint64_t ia = sbc_leading_number(a->id);
	uint64_t ib = sbc_leading_number(b->id);

	if ((a->resv >= 0) != (b->resv >= 0))
		return a->resv >= 0;
	if (ta != tb)
		return ta > tb;
	if (a->priority != b->priority)
		return a->priority > b->priority;
	return ia < ib;
}

/* Does backfill plan this pending job (not held, not waiting for a
 * dependency or a begin time)? */
bool sbw_plannable(const sbc_job_t *j)
{
	static const char *const wait[] = {
		"Dependency", "DependencyNeverSatisfied", "BeginTime",
		"JobHeldUser", "JobHeldAdmin", "PartitionDown",
		"PartitionInactive", NULL
	};
	const char *r;
	size_t i;

	if (j->state != SBC_PENDING || !j->priority)
		return false;
	r = j->reason;
	for (i = 0; wait[i]; i++)
		if (!strcmp(r, wait[i]))
			return false;
	return true;
}

/*
 * Does backfill skip this job for its limits (acct_policy_job_runnable_*
 * fail before it is planned), or its licences without bf_licenses? Then
 * it reserves no nodes in backfill's plan.
 */
bool sbw_held_by_limit(const sbc_cluster_t *lv, const sbc_job_t *j)
{
	const char *r = j->reason;

	if (sbw_limits_reason_kind(r) == SBW_REASON_OTHER)
		return false;
	return !lv->cfg.bf_licenses || strcmp(r, "Licenses");
}

/* The nodes a job may use: its reservation's, or all (NULL). */
const sb_bitmap_t *sbw_allowed(const sbw_model_t *m, const sbc_job_t *j)
{
	return j->resv >= 0 ? m->lv.resv[j->resv].nodes : NULL;
}

sb_bitmap_t *sbw_union(const sb_placement_t *pl, size_t n)
{
	sb_bitmap_t *u = sb_bitmap_alloc(n);
	size_t c;

	for (c = 0; u && c < pl->nchunks; c++)
		sb_bitmap_or(u, pl->nodes[c]);
	return u;
}

static int _hl_cmp(const void *a, const void *b)
{
	return sb_hostlist_cmp(*(char *const *) a, *(char *const *) b);
}

/* The names of @b as a hostlist, to free(); NULL on ENOMEM. */
char *sbw_hostlist(const sbc_cluster_t *lv, const sb_bitmap_t *b)
{
	char **names = malloc((lv->cl.n + 1) * sizeof(*names)), *hl;
	size_t k = 0;
	int64_t i;

	if (!names)
		return NULL;
	for (i = sb_bitmap_first_set(b); i >= 0;
	     i = sb_bitmap_next_set(b, (size_t) i + 1))
		names[k++] = lv->cl.nodes[i].name;
	qsort(names, k, sizeof(*names), _hl_cmp);
	hl = sb_hostlist_fmt(names, k);
	free(names);
	return hl;
}

/* "2 CPUs, 2000 MB, thin, gpu:2" for a bucket's nodes. */

int64_t sbw_backfill_step(const sbc_cluster_t *lv, const sbc_job_t *j,
			  int64_t start, const sb_bitmap_t *nodes,
			  const char **resv)
{
	int64_t res = lv->cfg.bf_resolution > 0 ? lv->cfg.bf_resolution : 1, end;
	int64_t bf = start;
	size_t k;

	if (start <= lv->now)
		return start;
	for (k = 0; k < lv->nresv; k++) {
		end = lv->resv[k].end;
		if ((int) k == j->resv || end != start ||
		    sb_bitmap_intersects(lv->resv[k].nodes, nodes) != 1)
			continue;
		bf = (end + res - 1) / res * res + 1;
		if (resv)
			*resv = lv->resv[k].name;
	}
	return bf;
}
