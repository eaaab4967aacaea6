/*
 * sbucket_why.c - 'sbucket why JOBID': why a job of the running cluster
 * got its nodes, or why it waits, in select/bucket's own terms.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The model is select/bucket's, rebuilt from what slurmctld shows
 * (sbucket_cluster.h) with the plugin's steps (common/why.h): buckets of
 * alike nodes with future reservations as busy-later windows, the
 * plugin's own decision (common/time/select_decide.h, asked through
 * sbw_verdict()), and WILL_RUN's plan of running jobs' ends and
 * reservations (common/will_run.h). A pending job is explained from the
 * plan of the whole queue (sbucket_forecast_plan.h over
 * common/time/queue_plan.h) by the one object 'sbucket forecast' prints
 * for it too (sbucket_explain.h): its planned start and nodes, what it
 * waits for, its limits and their holders, its likely start. What only
 * 'why' adds: the buckets of the nodes that match it, the decision of
 * select/bucket or its base, WILL_RUN's start with nothing planned
 * before it (both sbw_verdict()), squeue --start's nodes, and the
 * priority factors.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base_reason.h"
#include "bucket.h"
#include "hostlist_fmt.h"
#include "place.h"
#include "sb_time.h"
#include "shown.h"
#include "sbucket.h"
#include "sbucket_fairshare_explain.h"
#include "sbucket_forecast_likely.h"
#include "sbucket_explain.h"
#include "sbucket_forecast_plan.h"
#include "sbucket_explain_fmt.h"
#include "sbucket_why_limits_priv.h"
#include "sbucket_cluster.h"
#include "sbucket_why_model.h"
#include "why.h"

#define PROG "sbucket"
#define CMD "why"

static void _usage(FILE *f)
{
	fprintf(f,
"Usage: sbucket why [--json] [--no-history | --history-days=N] JOBID\n"
"\n"
"Explain a job of the running cluster in select/bucket's terms. For a\n"
"running job: which buckets (groups of alike nodes) and which policy gave\n"
"it its nodes, and whether it took nodes that a reservation needs later;\n"
"or that select/bucket's base plugin placed it, and why. For a pending\n"
"job: what it needs, how many of the nodes that match it are free,\n"
"free until a reservation (busy-later), busy, down or in a reservation it\n"
"may not use, which running jobs, reservations and jobs planned before\n"
"it keep it waiting, and when it is planned to start (the plan of the\n"
"whole queue 'sbucket forecast' prints: select/bucket's WILL_RUN, each\n"
"node's CPUs and memory for jobs the base places, limits and licences),\n"
"next to what squeue --start shows, and its likely start: the queue\n"
"planned again with run times predicted from the users' completed jobs\n"
"in accounting, as 'sbucket forecast' prints it.\n"
"\n"
"  -j, --json  JSON instead of text: {\"schema_version\":1, \"now\":T,\n"
"              \"job\":{...}, \"details\":{...}}, the job's object the one\n"
"              'sbucket forecast --json' prints (sbucket(1), JSON)\n"
"  --no-history      no likely start (sacct is not run)\n"
"  --history-days=N  the completed jobs of the last N days (default 14)\n"
"  -h, --help  this text\n"
"\n"
"The cluster is read through scontrol, squeue and sacct\n"
"(SBUCKET_SCONTROL, SBUCKET_SQUEUE, SBUCKET_SACCT name others). Exit\n"
"status: 0, 1 when the job cannot be explained (no such job, the cluster\n"
"does not run select/bucket, Slurm's commands fail), 2 for usage errors.\n");
}

/* ---- the model (sbucket_why_model.h) ------------------------------------- */

static int _oom(void)
{
	fprintf(stderr, PROG ": out of memory\n");
	return -1;
}

/* ---- text ---------------------------------------------------------------- */

static void _fmt_limit(int64_t s, char *buf, size_t len)
{
	if (s == SB_TIME_INFINITE)
		snprintf(buf, len, "no time limit");
	else if (s >= 86400)
		snprintf(buf, len, "%" PRId64 "-%02" PRId64 ":%02" PRId64
			 ":%02" PRId64, s / 86400, s % 86400 / 3600,
			 s % 3600 / 60, s % 60);
	else
		snprintf(buf, len, "%02" PRId64 ":%02" PRId64 ":%02" PRId64,
			 s / 3600, s % 3600 / 60, s % 60);
}

static void _fmt_sig(const sb_node_t *n, char *buf, size_t len)
{
	size_t k, off;

	off = (size_t) snprintf(buf, len, "%" PRIu32 " CPUs, %" PRIu64 " MB",
				n->cpus, n->real_memory);
	for (k = 0; k < n->nfeatures && off < len; k++)
		off += (size_t) snprintf(buf + off, len - off, "%s%s",
					 k ? "," : ", ", n->features[k]);
	for (k = 0; k < n->ngres && off < len; k++)
		off += (size_t) snprintf(buf + off, len - off, ", %s:%" PRIu64,
					 n->gres[k].name, n->gres[k].count);
	if (n->weight != 1 && off < len)
		off += (size_t) snprintf(buf + off, len - off, ", weight %"
					 PRIu32, n->weight);
	if (n->speed != 1.0 && off < len)
		snprintf(buf + off, len - off, ", speed %g", n->speed);
}

/* ---- JSON ---------------------------------------------------------------- */

static void _jkey(const char *k, int *first)
{
	printf("%s", *first ? "" : ",");
	*first = 0;
	sbx_jstr(k);
	putchar(':');
}

/* ---- what the job needs -------------------------------------------------- */

/* "4 nodes with thin, 2 CPUs each, 1000 MB" per chunk, into @out. */
static void _needs_text(const sb_request_t *r, char *out, size_t len)
{
	size_t c, g, off = 0;

	for (c = 0; c < r->nchunks && off < len; c++) {
		const sb_chunk_t *ch = &r->chunks[c];
		char *feat = ch->features ? sb_feat_expr_fmt(ch->features)
					  : NULL;

		off += (size_t) snprintf(out + off, len - off, "%s%" PRIu32
					 " node%s", c ? " + " : "", ch->count,
					 ch->count == 1 ? "" : "s");
		if (feat && off < len)
			off += (size_t) snprintf(out + off, len - off,
						 " with feature %s", feat);
		free(feat);
		if (off < len)
			off += (size_t) snprintf(out + off, len - off,
						 ", %" PRIu32 " CPU%s",
						 ch->min_cpus ? ch->min_cpus
							      : 1,
						 ch->min_cpus > 1 ? "s" : "");
		if (ch->min_memory && off < len)
			off += (size_t) snprintf(out + off, len - off,
						 ", %" PRIu64 " MB",
						 ch->min_memory);
		if (ch->min_tmp && off < len)
			off += (size_t) snprintf(out + off, len - off,
						 ", %" PRIu64 " MB tmp",
						 ch->min_tmp);
		for (g = 0; g < ch->ngres && off < len; g++)
			off += (size_t) snprintf(out + off, len - off,
						 ", %s:%" PRIu64,
						 ch->gres[g].name,
						 ch->gres[g].count);
		if (off < len)
			off += (size_t) snprintf(out + off, len - off,
						 " each");
	}
	for (c = 0; c < r->nmatch && off < len; c++) {
		char *feat = sb_feat_expr_fmt(r->match[c]);

		off += (size_t) snprintf(out + off, len - off, "%s%s",
					 c ? "|" : ", all with the same one of "
					 "[", feat ? feat : "?");
		free(feat);
		if (c + 1 == r->nmatch && off < len)
			off += (size_t) snprintf(out + off, len - off, "]");
	}
}

/* ---- the explanation ----------------------------------------------------- */

typedef struct {
	sbw_model_t *m;
	sbc_job_t *j;
	sbw_verdict_t v;		/* select/bucket's or its base's */
	sb_why_bucket_t *census;
	size_t ncensus;
	sb_bitmap_t *matching;		/* union of the census */
	/* pending */
	sbf_plan_t qp;			/* the whole queue, planned */
	bool history;			/* make the likely plan */
	int days;			/* of history */
	sbf_likely_t lk;		/* the likely plan, beside qp */
	sbx_index_t *x;
	sbx_t x_job;			/* the one explanation */
	int64_t raw_start;		/* the plan's own, before backfill's
					 * step; -1 */
	const char *bf_resv;		/* the reservation that moved it */
	int64_t sq_start;
	char sq_nodes[1024];
} _expl_t;

static void _expl_fini(_expl_t *e)
{
	sb_why_census_free(e->census, e->ncensus);
	sb_bitmap_free(e->matching);
	sbx_fini(&e->x_job);
	sbx_index_destroy(e->x);
	sbf_likely_fini(&e->lk);
	sbf_plan_fini(&e->qp);
}

static int _census(_expl_t *e)
{
	sbw_model_t *m = e->m;
	size_t i;

	if (sb_why_census(m->set, &e->j->req.req, sbw_allowed(m, e->j),
			  m->reserved, &e->census, &e->ncensus) < 0 ||
	    !(e->matching = sb_bitmap_alloc(m->lv.cl.n)))
		return _oom();
	for (i = 0; i < e->ncensus; i++)
		sb_bitmap_or(e->matching, e->census[i].nodes);
	return 0;
}

/*
 * The pending job explained: the whole queue planned once (the plan
 * 'sbucket forecast' prints), the likely plan beside it, and the job's
 * one explanation from them.
 */
static int _plan(_expl_t *e)
{
	const sbf_job_t *f;

	if (sbf_plan_run(&e->qp, e->m) < 0 ||
	    (e->history && sbf_likely_make(&e->lk, &e->qp, e->days) < 0) ||
	    !(e->x = sbx_index_create(&e->qp)))
		return -1;
	if (!(f = sbf_plan_job(&e->qp, e->j))) {
		fprintf(stderr, PROG ": job %s is not in the queue's plan\n",
			e->j->id);
		return -1;
	}
	e->raw_start = f->planned && !f->r.never ? f->plan_start : -1;
	if (e->raw_start >= 0)
		(void) sbw_backfill_step(&e->m->lv, e->j, f->plan_start,
					 f->r.nodes, &e->bf_resv);
	return sbx_explain(&e->qp, &e->lk, e->x, f, &e->x_job);
}

/* ---- priority (priority/bucket) ------------------------------------------ */

static const char *const _factor_names[SBC_NFACTORS] = {
	"priority", "age", "fair share", "job size", "partition", "QOS"
};

/* The same, as JSON keys. */
static const char *const _factor_keys[SBC_NFACTORS] = {
	"priority", "age", "fair_share", "job_size", "partition", "qos"
};

static bool _priority_bucket(const sbw_model_t *m)
{
	return m->lv.cfg.priority_type &&
		!strcmp(m->lv.cfg.priority_type, "priority/bucket");
}

/*
 * What puts @a before @j in backfill's order: a reservation, the
 * partition's PriorityTier, the priority factor that adds the most to
 * the difference (SBC_FAIRSHARE etc., in *factor), or the job id.
 */
static const char *_ahead_why(const sbw_model_t *m, const sbc_job_t *a,
			      const sbc_job_t *j, int *factor)
{
	const sbc_cluster_t *lv = &m->lv;
	int64_t best = 0;
	int k;

	*factor = -1;
	if (a->resv >= 0 && j->resv < 0)
		return "it runs in a reservation";
	if (a->part >= 0 && j->part >= 0 &&
	    lv->parts[a->part].tier != lv->parts[j->part].tier)
		return "its partition's PriorityTier is higher";
	if (a->priority == j->priority)
		return "the same priority, submitted earlier";
	if (a->have_factors && j->have_factors)
		for (k = SBC_AGE; k < SBC_NFACTORS; k++)
			if (a->factors[k] - j->factors[k] > best) {
				best = a->factors[k] - j->factors[k];
				*factor = k;
			}
	return *factor >= 0 ? _factor_names[*factor] : "a higher priority";
}

/* Pending jobs before @j in backfill's order, into @v; their number. */
static size_t _ahead(const sbw_model_t *m, const sbc_job_t *j,
		     const sbc_job_t **v)
{
	const sbc_cluster_t *lv = &m->lv;
	size_t i, k, n = 0;

	for (i = 0; i < lv->njobs; i++) {
		const sbc_job_t *o = &lv->jobs[i];

		if (o == j || !sbw_plannable(o) || !sbw_before(lv, o, j))
			continue;
		for (k = n++; k > 0 && sbw_before(lv, o, v[k - 1]); k--)
			v[k] = v[k - 1];
		v[k] = o;
	}
	return n;
}

static void _print_priority_text(const _expl_t *e)
{
	const sbw_model_t *m = e->m;
	const sbc_job_t *j = e->j, **v, *fs = NULL;
	char pair[600];
	size_t n, i;
	int k, f;

	if (j->have_factors) {
		printf("Priority:   %" PRId64, j->factors[SBC_PRIO]);
		for (k = SBC_AGE, f = 0; k < SBC_NFACTORS; k++)
			if (j->factors[k])
				printf(" %s %s %" PRId64, f++ ? "+" : "=",
				       _factor_names[k], j->factors[k]);
		printf(" (sprio)\n");
	}
	if (!(v = calloc(m->lv.njobs + 1, sizeof(*v))))
		return;
	n = _ahead(m, j, v);
	if (n)
		printf("Ahead of it in backfill's order:\n");
	for (i = 0; i < n; i++) {
		const char *why = _ahead_why(m, v[i], j, &f);

		if (i == 10) {
			printf("  ... and %zu more\n", n - i);
			break;
		}
		printf("  job %-8s user %-10s priority %-10" PRIu32 " ",
		       v[i]->id, v[i]->user, v[i]->priority);
		if (f >= 0)
			printf("%s decides: %+" PRId64 "\n", why,
			       v[i]->factors[f] - j->factors[f]);
		else
			printf("%s\n", why);
		if (f == SBC_FAIRSHARE && !fs && strcmp(v[i]->user, j->user))
			fs = v[i];
	}
	free(v);
	if (!fs)
		return;
	if (fs->account && j->account)
		snprintf(pair, sizeof(pair), "%s/%s,%s/%s", fs->account,
			 fs->user, j->account, j->user);
	else
		snprintf(pair, sizeof(pair), "%s,%s", fs->user, j->user);
	printf("Fair share of job %s's user and this job's user "
	       "('sbucket fairshare --explain=%s'):\n", fs->id, pair);
	fflush(stdout);
	(void) sbucket_fairshare_live_decide(pair);
}

static void _json_priority(const _expl_t *e, int *first)
{
	const sbw_model_t *m = e->m;
	const sbc_job_t *j = e->j, **v;
	size_t n, i;
	int k, f;

	_jkey("priority_factors", first);
	if (!j->have_factors) {
		fputs("null", stdout);
	} else {
		putchar('{');
		for (k = 0; k < SBC_NFACTORS; k++) {
			printf("%s", k ? "," : "");
			sbx_jstr(_factor_keys[k]);
			printf(":%" PRId64, j->factors[k]);
		}
		putchar('}');
	}
	_jkey("ahead", first);
	putchar('[');
	if ((v = calloc(m->lv.njobs + 1, sizeof(*v)))) {
		n = _ahead(m, j, v);
		for (i = 0; i < n; i++) {
			const char *why = _ahead_why(m, v[i], j, &f);

			printf("%s{\"job\":", i ? "," : "");
			sbx_jstr(v[i]->id);
			printf(",\"user\":");
			sbx_jstr(v[i]->user);
			printf(",\"account\":");
			sbx_jstr(v[i]->account);
			printf(",\"priority\":%" PRIu32 ",\"because\":",
			       v[i]->priority);
			sbx_jstr(f >= 0 ? _factor_keys[f] : why);
			putchar('}');
		}
		free(v);
	}
	putchar(']');
}

/* ---- printing: people ---------------------------------------------------- */

static void _print_census_text(const _expl_t *e)
{
	const sbc_cluster_t *lv = &e->m->lv;
	char sig[256], *hl[64];
	size_t i, wn = 5, ws = 0, nb = e->ncensus < 64 ? e->ncensus : 64;

	for (i = 0; i < nb; i++) {
		hl[i] = sbw_hostlist(lv, e->census[i].nodes);
		if (hl[i] && strlen(hl[i]) > wn)
			wn = strlen(hl[i]);
		_fmt_sig(sb_bucket_rep(e->m->set, e->census[i].bucket), sig,
			 sizeof(sig));
		if (strlen(sig) > ws)
			ws = strlen(sig);
	}
	printf("  %-*s  %-*s  %4s  %10s  %4s  %4s  %8s\n", (int) wn, "NODES",
	       (int) ws, "EACH", "FREE", "BUSY-LATER", "BUSY", "DOWN",
	       "RESERVED");
	for (i = 0; i < nb; i++) {
		const size_t *c = e->census[i].count;

		_fmt_sig(sb_bucket_rep(e->m->set, e->census[i].bucket), sig,
			 sizeof(sig));
		printf("  %-*s  %-*s  %4zu  %10zu  %4zu  %4zu  %8zu\n",
		       (int) wn, hl[i] ? hl[i] : "?", (int) ws, sig,
		       c[SB_WHY_FREE], c[SB_WHY_LATER], c[SB_WHY_BUSY],
		       c[SB_WHY_DOWN], c[SB_WHY_RESERVED]);
		free(hl[i]);
	}
	if (e->ncensus > nb)
		printf("  ... and %zu more buckets\n", e->ncensus - nb);
}

static void _print_head(const _expl_t *e, const char *what)
{
	const sbc_job_t *j = e->j;
	const sbc_cluster_t *lv = &e->m->lv;

	printf("Job %s (user %s, partition %s, priority %" PRIu32 ") %s\n",
	       j->id, j->user, j->part >= 0 ? lv->parts[j->part].name : "?",
	       j->priority, what);
}

/* Who places it: a pending job's in WILL_RUN, a running job's at its
 * start. */
static const char *_base(const _expl_t *e)
{
	return e->j->state == SBC_PENDING ? e->v.base : e->v.base_now;
}

static void _print_placed_by(const _expl_t *e)
{
	const char *base = _base(e);

	if (base && !e->v.base_now)
		printf("Placed by:  select/bucket, policy %s, when it starts; "
		       "its planned start is %s's: %s\n",
		       sb_policy_name(e->m->policy->kind),
		       e->m->lv.cfg.base ? e->m->lv.cfg.base : "the base",
		       sb_base_reason_text(base));
	else if (base)
		printf("Placed by:  %s, select/bucket's base: %s\n",
		       e->m->lv.cfg.base ? e->m->lv.cfg.base : "the base",
		       sb_base_reason_text(base));
	else
		printf("Placed by:  select/bucket, policy %s, %s\n",
		       sb_policy_name(e->m->policy->kind),
		       e->v.path ? "node by node (the policy orders nodes "
		       "per job)" : "counting over buckets");
}

/* The matching nodes that are down: what keeps a job from ever running. */
static void _print_down(const _expl_t *e)
{
	const sbc_cluster_t *lv = &e->m->lv;
	sb_bitmap_t *down = sb_bitmap_alloc(lv->cl.n);
	char *hl;
	int64_t i;

	if (!down)
		return;
	for (i = sb_bitmap_first_set(e->matching); i >= 0;
	     i = sb_bitmap_next_set(e->matching, (size_t) i + 1))
		if (sb_why_node_state(e->m->set, (size_t) i,
				      e->m->reserved) == SB_WHY_DOWN)
			sb_bitmap_set(down, (size_t) i);
	if (!sb_bitmap_empty(down) && (hl = sbw_hostlist(lv, down))) {
		printf("Down or drained: %s\n", hl);
		free(hl);
	}
	sb_bitmap_free(down);
}

/* Each limit it needs: its use, what it alone allows, its holders. */
static void _print_limits_text(const _expl_t *e)
{
	const sbx_t *x = &e->x_job;
	const sbc_cluster_t *lv = &e->m->lv;
	const sbc_job_t *h[SBX_MAX_HOLDERS];
	int64_t units[SBX_MAX_HOLDERS], ends[SBX_MAX_HOLDERS];
	char t1[32], t2[48];
	size_t i, k, n;

	if (!x->nlimits)
		return;
	printf("Limits it needs (the earliest start each allows):\n");
	for (i = 0; i < x->nlimits; i++) {
		const sbwl_lim_t *l = &e->qp.lim->lim[x->limits[i].k];

		sbx_time(x->limits[i].allows, t1, sizeof(t1));
		sbx_rel(x->limits[i].allows, lv->now, t2, sizeof(t2));
		printf("  %s%s: limit %" PRId64 ", in use %" PRId64 ", the job "
		       "needs %" PRId64 "; ", l->what, strcmp(l->reason,
		       e->j->reason) ? "" : " (the Reason)", l->limit,
		       l->shown_use, x->limits[i].need);
		if (x->limits[i].allows < 0)
			printf("never allows it\n");
		else
			printf("allows %s (%s)\n", t1, t2);
		n = sbx_holders(&e->qp, x->limits[i].k, h, units, ends,
				SBX_MAX_HOLDERS);
		for (k = 0; k < n && k < SBX_MAX_HOLDERS; k++) {
			sbx_time(ends[k], t1, sizeof(t1));
			sbx_rel(ends[k], lv->now, t2, sizeof(t2));
			printf("    held by job %-8s (user %s) %" PRId64,
			       h[k]->id, h[k]->user, units[k]);
			if (ends[k] == SB_TIME_INFINITE)
				printf(", no time limit\n");
			else
				printf(" until %s (%s)\n", t1, t2);
		}
		if (n > SBX_MAX_HOLDERS)
			printf("    ... and %zu more holders\n",
			       n - SBX_MAX_HOLDERS);
	}
}

static void _print_pending_text(const _expl_t *e)
{
	const sbw_model_t *m = e->m;
	const sbc_cluster_t *lv = &m->lv;
	const sbc_job_t *j = e->j;
	const sbx_t *x = &e->x_job;
	char buf[1024], t1[32], t2[48], lim[32];
	size_t i;

	snprintf(buf, sizeof(buf), "is pending (%s)", j->reason);
	_print_head(e, buf);
	_print_placed_by(e);
	_needs_text(&j->req.req, buf, sizeof(buf));
	_fmt_limit(j->time_limit, lim, sizeof(lim));
	printf("Needs:      %s, for %s\n", buf, lim);
	if (!e->ncensus) {
		printf("No node matches it%s.\n", j->resv >= 0 ?
		       " in its reservation" : "");
	} else {
		printf("Nodes that match it, by bucket:\n");
		_print_census_text(e);
	}
	if (x->nwaits)
		printf("Waits for:\n");
	for (i = 0; i < x->nwaits; i++) {
		sbx_wait_text(lv, &e->qp, &x->waits[i], buf, sizeof(buf));
		printf("  %s\n", buf);
	}
	if (x->more)
		printf("  ... and %zu more\n", x->more);
	_print_limits_text(e);
	if (!x->has_start) {
		if (x->f->planned && x->f->r.never == SB_QP_NEVER_NODES)
			_print_down(e);
		printf("Planned start: none: %s\n", x->no_start);
	} else {
		char *hl = sbw_hostlist(lv, x->nodes);

		sbx_time(x->start, t1, sizeof(t1));
		sbx_rel(x->start, lv->now, t2, sizeof(t2));
		printf("Planned start: %s (%s) on %s\n", t1, t2,
		       hl ? hl : "?");
		free(hl);
		if (e->v.base)
			printf("  on its nodes' free CPUs and memory over "
			       "time, as the base would place it\n");
		if (e->bf_resv) {
			sbx_time(e->raw_start, t1, sizeof(t1));
			printf("  reservation %s ends at %s; backfill plans "
			       "the job at its next step after that\n",
			       e->bf_resv, t1);
		}
		if (x->f->r.by == SB_QP_BY_LIMITS) {
			sbx_time(x->f->r.nodes_start, t1, sizeof(t1));
			printf("  its limits allow it only then; its nodes are "
			       "free %s%s\n", x->f->r.nodes_start > lv->now ?
			       "from " : "now", x->f->r.nodes_start > lv->now ?
			       t1 : "");
		}
		if (!e->v.base && x->f->r.by == SB_QP_BY_NODES &&
		    e->v.alone_start >= 0 && e->v.alone_start < e->raw_start) {
			sbx_time(e->v.alone_start, t1, sizeof(t1));
			printf("  without the jobs planned before it: %s\n",
			       t1);
		}
	}
	if (x->likely) {
		sbx_time(x->likely_start, t1, sizeof(t1));
		sbx_rel(x->likely_start, lv->now, t2, sizeof(t2));
		if (x->likely_start < 0)
			printf("Likely start: none\n");
		else
			printf("Likely start: %s (%s), with run times "
			       "predicted from accounting\n", t1, t2);
		sbf_likely_runtime(&e->lk, &e->qp, j, buf, sizeof(buf));
		printf("  its own run time: %s\n", buf);
	}
	sbx_time(e->sq_start, t1, sizeof(t1));
	if (e->sq_start < 0 && sbw_held_by_limit(lv, j))
		printf("squeue --start: no planned start (backfill skips a "
		       "job its QOS or association limits hold, and plans "
		       "licences only with bf_licenses)\n");
	else if (e->sq_start < 0)
		printf("squeue --start: no planned start%s\n",
		       !x->has_start ? " (the same)" : e->v.base ? "" :
		       " (backfill has not planned it yet, or stops before "
		       "it: bf_window, bf_max_job_test)");
	else
		printf("squeue --start: %s%s%s%s\n", t1,
		       e->sq_nodes[0] ? " on " : "", e->sq_nodes,
		       e->v.base || !x->has_start ? "" :
		       e->sq_start == x->start ? " (the same)" :
		       " (differs: backfill has not planned it since, or "
		       "rounds to bf_resolution)");
	if (_priority_bucket(e->m))
		_print_priority_text(e);
}

/* The running job's nodes, per bucket, and the busy-later ones taken. */
static void _print_running_text(const _expl_t *e)
{
	const sbw_model_t *m = e->m;
	const sbc_cluster_t *lv = &m->lv;
	const sbc_job_t *j = e->j;
	char t1[32], t2[32], sig[256], *hl;
	size_t b, nb = sb_bucket_set_size(m->set), k;
	sb_bitmap_t *mine = sb_bitmap_alloc(lv->cl.n);
	int64_t i;

	sbx_time(j->start, t1, sizeof(t1));
	sbx_time(j->end, t2, sizeof(t2));
	hl = sbw_hostlist(lv, j->nodes);
	{
		char what[1200];

		snprintf(what, sizeof(what), "is %s on %s since %s, until %s",
			 j->state == SBC_SUSPENDED ? "suspended" : "running",
			 hl ? hl : "?", t1, j->end < 0 ? "no limit" : t2);
		_print_head(e, what);
	}
	free(hl);
	_print_placed_by(e);
	printf("Started by: %s\n", j->by_backfill > 0 ? "backfill" :
	       j->by_backfill == 0 ? "the main scheduler" : "not shown");
	if (e->lk.predicted) {
		int64_t le;
		char basis[300];

		sbf_likely_running(&e->lk, lv, j, &le, basis, sizeof(basis));
		sbx_time(le, t1, sizeof(t1));
		sbx_rel(le, lv->now, t2, sizeof(t2));
		if (le == SB_TIME_INFINITE)
			printf("Likely end: none (%s)\n", j->state ==
			       SBC_SUSPENDED ? "suspended" : "no time limit");
		else
			printf("Likely end: %s (%s): %s\n", t1, t2, basis);
	}
	if (!mine)
		return;
	printf("Its nodes, by bucket:\n");
	for (b = 0; b < nb; b++) {
		sb_bitmap_copy(mine, sb_bucket_all(m->set, b));
		sb_bitmap_and(mine, j->nodes);
		if (sb_bitmap_empty(mine))
			continue;
		hl = sbw_hostlist(lv, mine);
		_fmt_sig(sb_bucket_rep(m->set, b), sig, sizeof(sig));
		printf("  %zu of %zu: %-16s (%s)\n", sb_bitmap_count(mine),
		       sb_bucket_total(m->set, b), hl ? hl : "?", sig);
		free(hl);
	}
	/* busy-later: its nodes with a reservation starting after it began */
	for (i = sb_bitmap_first_set(j->nodes); i >= 0;
	     i = sb_bitmap_next_set(j->nodes, (size_t) i + 1))
		for (k = 0; k < lv->nresv; k++) {
			const sbc_resv_t *r = &lv->resv[k];

			if (r->start <= j->start || r->start <= lv->now ||
			    sb_bitmap_test(r->nodes, (size_t) i) != 1)
				continue;
			sbx_time(r->start, t1, sizeof(t1));
			printf("Busy-later: %s was free until reservation %s "
			       "(from %s)%s\n", lv->cl.nodes[i].name, r->name,
			       t1, j->end >= 0 && j->end <= r->start ?
			       "; the job ends before it starts" :
			       "; the job may still run when it starts");
		}
	sb_bitmap_free(mine);
}

/* ---- printing: JSON ------------------------------------------------------ */

static void _json_census(const _expl_t *e)
{
	const sbc_cluster_t *lv = &e->m->lv;
	size_t i, k;

	putchar('[');
	for (i = 0; i < e->ncensus; i++) {
		const sb_node_t *rep = sb_bucket_rep(e->m->set,
						     e->census[i].bucket);
		char *hl = sbw_hostlist(lv, e->census[i].nodes);
		int first = 1;

		printf("%s{", i ? "," : "");
		_jkey("nodes", &first);
		sbx_jstr(hl);
		free(hl);
		_jkey("cpus", &first);
		printf("%" PRIu32, rep->cpus);
		_jkey("memory_mb", &first);
		printf("%" PRIu64, rep->real_memory);
		_jkey("features", &first);
		putchar('[');
		for (k = 0; k < rep->nfeatures; k++) {
			printf("%s", k ? "," : "");
			sbx_jstr(rep->features[k]);
		}
		putchar(']');
		_jkey("weight", &first);
		printf("%" PRIu32, rep->weight);
		for (k = 0; k < SB_WHY_NSTATES; k++) {
			char key[16];
			size_t c;

			snprintf(key, sizeof(key), "%s",
				 sb_why_state_name((sb_why_state_t) k));
			for (c = 0; key[c]; c++)
				if (key[c] == '-')
					key[c] = '_';
			_jkey(key, &first);
			printf("%zu", e->census[i].count[k]);
		}
		putchar('}');
	}
	putchar(']');
}

/* A running job's nodes per bucket: [{"nodes":..,"taken":k,"of":n}] */
static void _json_taken(const _expl_t *e)
{
	const sbw_model_t *m = e->m;
	sb_bitmap_t *mine = sb_bitmap_alloc(m->lv.cl.n);
	size_t b, n = 0;
	char *hl;

	putchar('[');
	for (b = 0; mine && b < sb_bucket_set_size(m->set); b++) {
		sb_bitmap_copy(mine, sb_bucket_all(m->set, b));
		sb_bitmap_and(mine, e->j->nodes);
		if (sb_bitmap_empty(mine))
			continue;
		hl = sbw_hostlist(&m->lv, mine);
		printf("%s{\"nodes\":", n++ ? "," : "");
		sbx_jstr(hl);
		printf(",\"taken\":%zu,\"of\":%zu}", sb_bitmap_count(mine),
		       sb_bucket_total(m->set, b));
		free(hl);
	}
	putchar(']');
	sb_bitmap_free(mine);
}

/* What only 'why' says of a job, the JSON's "details". */
static void _json_details(const _expl_t *e)
{
	const sbw_model_t *m = e->m;
	const sbc_cluster_t *lv = &m->lv;
	const sbc_job_t *j = e->j;
	const char *base = _base(e);
	char buf[1024], *hl;
	int first = 1;
	size_t i, n = 0;

	putchar('{');
	_jkey("base_reason", &first);
	sbx_jstr(base);
	_jkey("policy", &first);
	sbx_jstr(sb_policy_name(m->policy->kind));
	_jkey("path", &first);
	sbx_jstr(base ? NULL : e->v.path ? "per-node" : "bucket");
	_jkey("needs", &first);
	_needs_text(&j->req.req, buf, sizeof(buf));
	sbx_jstr(buf);
	_jkey("time_limit", &first);
	sbx_jtime(j->time_limit);
	if (j->state != SBC_PENDING) {
		_jkey("scheduler", &first);
		sbx_jstr(j->by_backfill > 0 ? "backfill" : j->by_backfill == 0 ?
			 "main" : NULL);
		_jkey("buckets", &first);
		_json_taken(e);
		_jkey("busy_later", &first);
		putchar('[');
		for (i = 0; i < lv->nresv; i++) {
			const sbc_resv_t *r = &lv->resv[i];
			sb_bitmap_t *both;

			if (r->start <= j->start || r->start <= lv->now ||
			    sb_bitmap_intersects(r->nodes, j->nodes) != 1 ||
			    !(both = sb_bitmap_dup(r->nodes)))
				continue;
			sb_bitmap_and(both, j->nodes);
			hl = sbw_hostlist(lv, both);
			printf("%s{\"reservation\":", n++ ? "," : "");
			sbx_jstr(r->name);
			printf(",\"nodes\":");
			sbx_jstr(hl);
			printf(",\"start\":");
			sbx_jtime(r->start);
			printf("}");
			free(hl);
			sb_bitmap_free(both);
		}
		printf("]}");
		return;
	}
	_jkey("buckets", &first);
	_json_census(e);
	_jkey("will_run_start", &first);
	sbx_jtime(e->v.base ? -1 : e->v.alone_start);
	_jkey("nodes_start", &first);
	sbx_jtime(e->x_job.has_start ? e->x_job.f->r.nodes_start : -1);
	_jkey("raw_start", &first);
	sbx_jtime(e->raw_start);
	_jkey("step_reservation", &first);
	sbx_jstr(e->bf_resv);
	_jkey("squeue_nodes", &first);
	sbx_jstr(e->sq_nodes[0] ? e->sq_nodes : NULL);
	if (_priority_bucket(m))
		_json_priority(e, &first);
	putchar('}');
}

/*
 * The JSON: the schema's version, the time it is of, the job's one
 * object (sbucket_explain.h; 'sbucket forecast' prints the same) on a
 * line of its own, and what only 'why' adds.
 */
static void _json(const _expl_t *e)
{
	const sbc_cluster_t *lv = &e->m->lv;

	printf("{\"schema_version\":%d,\"now\":%" PRId64 ",\n\"job\":",
	       SBX_SCHEMA, lv->now);
	sbx_json(lv, e->j->state == SBC_PENDING ? &e->qp : NULL, &e->x_job);
	printf(",\n\"details\":");
	_json_details(e);
	printf("}\n");
}

/* ---- main ---------------------------------------------------------------- */

int sbucket_why_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "json", no_argument, NULL, 'j' },
		{ "no-history", no_argument, NULL, 'n' },
		{ "history-days", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 }
	};
	const char *id = NULL, *days_arg = NULL;
	bool json = false, history = true;
	int days = SBF_HISTORY_DAYS, nids = 0, c;
	sbw_model_t m;
	_expl_t e;
	int i, rc = SBUCKET_EXIT_INPUT;

	sbucket_getopt_start();
	while ((c = sbucket_getopt(CMD, argc, argv, "hj", longopts)) != -1) {
		switch (c) {
		case 'h':
			_usage(stdout);
			return SBUCKET_EXIT_OK;
		case 'j':
			json = true;
			break;
		case 'n':
			history = false;
			break;
		case 'd':
			if (sbf_history_option(CMD, optarg, &days_arg, &days))
				return SBUCKET_EXIT_USAGE;
			break;
		default:
			return SBUCKET_EXIT_USAGE;
		}
	}
	for (i = optind; i < argc; i++)
		if (sbucket_operand(CMD, argv[i], &id, &nids, 1))
			return SBUCKET_EXIT_USAGE;
	if (!id)
		return sbucket_usage_error(CMD, NULL, NULL, "no JOBID");
	if (days_arg && !history)
		return sbucket_usage_error(CMD, "--history-days", days_arg,
					   "goes with no --no-history");
	memset(&m, 0, sizeof(m));
	memset(&e, 0, sizeof(e));
	e.m = &m;
	e.history = history;
	e.days = days;
	if (sbc_read(&m.lv) < 0)
		goto out;
	if (strcmp(m.lv.cfg.select_type, "select/bucket")) {
		printf("Job %s: the cluster's SelectType is %s, not "
		       "select/bucket: sbucket why explains select/bucket's "
		       "decisions only.\n", id, m.lv.cfg.select_type);
		goto out;
	}
	if (!(e.j = sbc_job(&m.lv, id))) {
		fprintf(stderr, PROG ": no job %s in slurmctld's queue\n", id);
		goto out;
	}
	if (e.j->state == SBC_OTHER) {
		printf("Job %s is %s: sbucket why explains pending and running "
		       "jobs only.\n", id, e.j->state_name);
		goto out;
	}
	if (sbw_model_build(&m) < 0 || sbw_model_reserved(&m, e.j) < 0)
		goto out;
	if (sbc_request(&m.lv, e.j) < 0) {
		printf("Job %s: sbucket why cannot model its request.\n", id);
		goto out;
	}
	if (sbw_verdict(&m, e.j, e.j->state == SBC_PENDING, &e.v) < 0 ||
	    _census(&e) < 0)
		goto out;
	if (e.j->state == SBC_PENDING) {
		if (_plan(&e) < 0)
			goto out;
		sbf_likely_note(&e.lk);
		if (sbc_squeue_start(id, &e.sq_start, e.sq_nodes,
				     sizeof(e.sq_nodes)) < 0 ||
		    (_priority_bucket(&m) && sbc_sprio(&m.lv) < 0))
			goto out;
	} else {
		/* who started it, where the jobs' JSON does not say */
		sbc_job_scheduler(e.j);
		/* its likely end, no plan */
		if (e.history && sbf_likely_predict(&e.lk, &m.lv, e.days) < 0)
			goto out;
		sbf_likely_note(&e.lk);
		sbx_running(&m.lv, &e.lk, e.j, &e.x_job);
	}
	if (json)
		_json(&e);
	else if (e.j->state == SBC_PENDING)
		_print_pending_text(&e);
	else
		_print_running_text(&e);
	rc = fflush(stdout) ? SBUCKET_EXIT_INPUT : SBUCKET_EXIT_OK;
out:
	_expl_fini(&e);
	sbw_model_fini(&m);
	return rc;
}
