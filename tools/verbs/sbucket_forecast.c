/*
 * sbucket_forecast.c - 'sbucket forecast': when each pending job of the
 * running cluster starts, on which nodes, and what it waits for.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The whole queue is planned once (sbucket_forecast_plan.h, over
 * common/time/queue_plan.h); this file filters and prints it, in
 * planned-start order, next to what squeue --start shows (the job's
 * StartTime as slurmctld shows it: the start backfill last planned).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chart.h"
#include "sb_time.h"
#include "sbucket.h"
#include "sbucket_forecast_likely.h"
#include "sbucket_forecast_plan.h"
#include "sbucket_why_fmt.h"

#define CMD "forecast"
#define MAX_WAITS 8		/* running or planned jobs named per job */

static void _usage(FILE *f)
{
	fprintf(f,
"Usage: sbucket forecast [-u USER] [-p PARTITION] [-A ACCOUNT] [--json]\n"
"                        [--chart=FILE] [--no-history | --history-days=N]\n"
"\n"
"Plan every pending job of the running cluster at once, as conservative\n"
"backfill would in its order: whole-node jobs on select/bucket's WILL_RUN,\n"
"jobs the base places on each node's free CPUs and memory over time,\n"
"licences and QOS or association limits, dependencies, begin times and\n"
"reservations, so that no two jobs get the same nodes or units. Print\n"
"each job's planned start and end, its nodes and what it waits for, in\n"
"planned-start order, with squeue --start's value beside it; a job whose\n"
"start cannot be known gets \"no start\" and why.\n"
"\n"
"Time limits are upper bounds users overstate, so a plan from them is\n"
"late. Where accounting holds the users' completed jobs, the queue is\n"
"planned again with run times predicted from them (the mean of the\n"
"user's last two runs of similar jobs: same partition, time limit and\n"
"node count; else of any job; capped by the limit; a running job past\n"
"its prediction ends at its limit) and each job's likely start is\n"
"printed beside the planned one.\n"
"\n"
"  -u USER       only USER's jobs (the plan still holds every job)\n"
"  -p PARTITION  only jobs of PARTITION\n"
"  -A ACCOUNT    only jobs of ACCOUNT\n"
"  --json        a JSON array, one object per job\n"
"  --chart=FILE  also draw the plan as a node x time SVG chart into FILE\n"
"                (running jobs from now, then the jobs shown, coloured by\n"
"                user, as 'sbucket chart' draws)\n"
"  --no-history  no likely start (sacct is not run)\n"
"  --history-days=N  the completed jobs of the last N days (default 14)\n"
"  -h, --help    this text\n"
"\n"
"The cluster is read through scontrol, its history through sacct\n"
"(SBUCKET_SCONTROL, SBUCKET_SACCT name others).\n"
"Exit status: 0, 1 when the cluster cannot be read or does not run\n"
"select/bucket, 2 for usage errors.\n");
}

/* ---- what a job waits for ------------------------------------------------ */

typedef enum {
	W_RUNNING, W_PLANNED, W_RESV, W_LIMIT, W_DEP, W_BEGIN,
} _wkind_t;

typedef struct {
	_wkind_t kind;
	const char *id;			/* job, reservation or limit name */
	const char *type;		/* dependency type */
	const sb_bitmap_t *nodes;
	int64_t at;			/* end, or when met */
	size_t limit;
} _wait_t;

typedef struct {
	_wait_t v[4096];			/* the running and planned
					 * jobs on its nodes (cut to
					 * MAX_WAITS each), its limits */
	size_t n, more;
} _waits_t;

static void _w(_waits_t *w, _wait_t x)
{
	if (w->n < sizeof(w->v) / sizeof(w->v[0]))
		w->v[w->n++] = x;
	else
		w->more++;
}

/*
 * Per node, the running jobs on it and the planned pending jobs on it
 * (indices into m->run and p->jobs), so that what a job waits for costs
 * the jobs on its own nodes, not the whole queue.
 */
typedef struct {
	size_t *run_at, *run;		/* node i's running jobs:
					 * run[run_at[i]..run_at[i+1]) */
	size_t *job_at, *job;
	uint32_t *seen;			/* per running job, per pending job */
	uint32_t *seen_job;
	uint32_t stamp;
} _index_t;

static void _index_fini(_index_t *x)
{
	free(x->run_at);
	free(x->run);
	free(x->job_at);
	free(x->job);
	free(x->seen);
	free(x->seen_job);
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

static int _index(const sbf_plan_t *p, _index_t *x)
{
	size_t n = p->m->lv.cl.n;

	memset(x, 0, sizeof(*x));
	if (_csr(n, p->m->nrun, _run_set, p->m, &x->run_at, &x->run) < 0 ||
	    _csr(n, p->njobs, _job_set, p, &x->job_at, &x->job) < 0 ||
	    !(x->seen = calloc(p->m->nrun + 1, sizeof(*x->seen))) ||
	    !(x->seen_job = calloc(p->njobs + 1, sizeof(*x->seen_job))))
		return -1;
	return 0;
}

static int _by_at(const void *a, const void *b)
{
	const _wait_t *x = a, *y = b;

	size_t lx = strlen(x->id), ly = strlen(y->id);

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	/* job ids in their numeric order */
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return strcmp(x->id, y->id);
}

static void _waits(const sbf_plan_t *p, _index_t *x, const sbf_job_t *f,
		   _waits_t *w)
{
	const sbw_model_t *m = p->m;
	const sbc_cluster_t *lv = &m->lv;
	const sb_qp_result_t *r = &f->r;
	size_t i, k, n0;
	int64_t nd;

	memset(w, 0, sizeof(*w));
	if (!f->planned || r->never)
		return;
	switch (r->by) {
	case SB_QP_BY_NOW:
		return;
	case SB_QP_BY_BEGIN:
		if (f->job->resv >= 0 &&
		    lv->resv[f->job->resv].start == r->start)
			_w(w, (_wait_t) { .kind = W_RESV, .id =
					  lv->resv[f->job->resv].name,
					  .at = r->start });
		else
			_w(w, (_wait_t) { .kind = W_BEGIN, .at = r->start });
		return;
	case SB_QP_BY_DEPENDENCY: {
		const sbf_dep_t *d = &f->deps[r->dep];

		_w(w, (_wait_t) { .kind = W_DEP, .id = d->on ? d->on->id :
				  "?", .type = d->type, .at = r->start });
		return;
	}
	case SB_QP_BY_LIMITS:
		for (k = 0; f->need && k < sbw_limits_count(p->lim); k++)
			if (f->need[k])
				_w(w, (_wait_t) { .kind = W_LIMIT, .id =
						  sbw_limits_what(p->lim, k),
						  .limit = k });
		return;
	case SB_QP_BY_NODES:
		break;
	}
	/* the running jobs on its nodes that end by its start, by end */
	x->stamp++;
	n0 = w->n;
	for (nd = sb_bitmap_first_set(r->nodes); nd >= 0;
	     nd = sb_bitmap_next_set(r->nodes, (size_t) nd + 1))
		for (i = x->run_at[nd]; i < x->run_at[nd + 1]; i++) {
			const sb_model_job_t *o = &m->run[x->run[i]];

			if (x->seen[x->run[i]] == x->stamp || o->end > r->start)
				continue;
			x->seen[x->run[i]] = x->stamp;
			_w(w, (_wait_t) { .kind = W_RUNNING, .id = o->id,
					  .nodes = o->nodes, .at = o->end });
		}
	qsort(w->v + n0, w->n - n0, sizeof(*w->v), _by_at);
	if (w->n - n0 > MAX_WAITS) {
		w->more += w->n - n0 - MAX_WAITS;
		w->n = n0 + MAX_WAITS;
	}
	/* jobs planned before it on its nodes, ending by its start */
	n0 = w->n;
	for (nd = sb_bitmap_first_set(r->nodes); nd >= 0;
	     nd = sb_bitmap_next_set(r->nodes, (size_t) nd + 1))
		for (i = x->job_at[nd]; i < x->job_at[nd + 1]; i++) {
			const sbf_job_t *o = &p->jobs[x->job[i]];

			if (x->seen_job[x->job[i]] == x->stamp ||
			    o->r.order >= r->order || o->r.end > r->start ||
			    o->r.end <= lv->now)
				continue;
			x->seen_job[x->job[i]] = x->stamp;
			_w(w, (_wait_t) { .kind = W_PLANNED, .id = o->job->id,
					  .nodes = o->r.nodes,
					  .at = o->r.end });
		}
	qsort(w->v + n0, w->n - n0, sizeof(*w->v), _by_at);
	if (w->n - n0 > MAX_WAITS) {
		w->more += w->n - n0 - MAX_WAITS;
		w->n = n0 + MAX_WAITS;
	}
	/* reservations on its nodes that end by its start */
	for (i = 0; i < lv->nresv; i++) {
		const sbc_resv_t *rv = &lv->resv[i];

		if ((int) i == f->job->resv || rv->end <= lv->now ||
		    rv->end > r->start ||
		    sb_bitmap_intersects(rv->nodes, r->nodes) != 1)
			continue;
		_w(w, (_wait_t) { .kind = W_RESV, .id = rv->name,
				  .nodes = rv->nodes, .at = rv->end });
	}
}

/* ---- printing ------------------------------------------------------------ */

static void _iso(int64_t t, char *buf, size_t len)
{
	time_t tt = (time_t) t;
	struct tm tm;

	if (t < 0 || t == SB_TIME_INFINITE) {
		snprintf(buf, len, "null");
		return;
	}
	gmtime_r(&tt, &tm);
	strftime(buf, len, "\"%Y-%m-%dT%H:%M:%SZ\"", &tm);
}

static void _jiso(int64_t t)
{
	char buf[40];

	_iso(t, buf, sizeof(buf));
	fputs(buf, stdout);
}

static void _jnodes(const sbc_cluster_t *lv, const sb_bitmap_t *b)
{
	char *hl = b ? sbw_hostlist(lv, b) : NULL;

	sbw_jstr(hl);
	free(hl);
}

static void _holders(const sbf_plan_t *p, size_t k, bool json)
{
	const sbc_job_t *h[MAX_WAITS];
	size_t n = sbw_limits_holders(p->lim, k, h, MAX_WAITS), i;

	if (json) {
		putchar('[');
		for (i = 0; i < n && i < MAX_WAITS; i++) {
			printf("%s", i ? "," : "");
			sbw_jstr(h[i]->id);
		}
		putchar(']');
		return;
	}
	if (!n) {
		printf(" (no running job holds it; jobs planned before it "
		       "do)");
		return;
	}
	printf(" (held by job%s", n > 1 ? "s" : "");
	for (i = 0; i < n && i < MAX_WAITS; i++)
		printf("%s %s", i ? "," : "", h[i]->id);
	if (n > MAX_WAITS)
		printf(" and %zu more", n - MAX_WAITS);
	printf(")");
}

static const char *const _wnames[] = {
	"running_job", "planned_job", "reservation", "limit", "dependency",
	"begin_time",
};

static void _json_waits(const sbf_plan_t *p, const _waits_t *w)
{
	const sbc_cluster_t *lv = &p->m->lv;
	size_t i;

	putchar('[');
	for (i = 0; i < w->n; i++) {
		const _wait_t *x = &w->v[i];

		printf("%s{\"kind\":\"%s\"", i ? "," : "", _wnames[x->kind]);
		switch (x->kind) {
		case W_RUNNING:
		case W_PLANNED:
			printf(",\"job\":");
			sbw_jstr(x->id);
			printf(",\"nodes\":");
			_jnodes(lv, x->nodes);
			printf(",\"end\":");
			_jiso(x->at);
			break;
		case W_RESV:
			printf(",\"name\":");
			sbw_jstr(x->id);
			printf(",\"at\":");
			_jiso(x->at);
			break;
		case W_LIMIT:
			printf(",\"limit\":");
			sbw_jstr(x->id);
			printf(",\"holders\":");
			_holders(p, x->limit, true);
			break;
		case W_DEP:
			printf(",\"type\":");
			sbw_jstr(x->type);
			printf(",\"job\":");
			sbw_jstr(x->id);
			printf(",\"at\":");
			_jiso(x->at);
			break;
		case W_BEGIN:
			printf(",\"at\":");
			_jiso(x->at);
			break;
		}
		putchar('}');
	}
	putchar(']');
}

static void _text_waits(const sbf_plan_t *p, const sbf_job_t *f,
			const _waits_t *w)
{
	const sbc_cluster_t *lv = &p->m->lv;
	char t[32];
	size_t i;

	if (!f->planned || f->r.never)
		return;
	if (!w->n) {
		printf("    starts now\n");
		return;
	}
	printf("    waits for:");
	for (i = 0; i < w->n; i++) {
		const _wait_t *x = &w->v[i];
		char *hl = x->nodes ? sbw_hostlist(lv, x->nodes) : NULL;

		sbw_fmt_time(x->at, t, sizeof(t));
		printf("%s ", i ? ";" : "");
		switch (x->kind) {
		case W_RUNNING:
			printf("running job %s on %s (ends %s)", x->id,
			       hl ? hl : "?", t);
			break;
		case W_PLANNED:
			printf("job %s planned before it on %s (ends %s)",
			       x->id, hl ? hl : "?", t);
			break;
		case W_RESV:
			if (x->nodes)
				printf("reservation %s on %s (ends %s)", x->id,
				       hl ? hl : "?", t);
			else
				printf("its reservation %s (starts %s)", x->id,
				       t);
			break;
		case W_LIMIT:
			printf("%s", x->id);
			_holders(p, x->limit, false);
			break;
		case W_DEP:
			printf("%s on job %s (%s)", x->type, x->id, t);
			break;
		case W_BEGIN:
			printf("its begin time %s", t);
			break;
		}
		free(hl);
	}
	if (w->more)
		printf("; and %zu more", w->more);
	putchar('\n');
}

/* Why @f has no start, into @buf. */
static void _no_start(const sbf_plan_t *p, const sbf_job_t *f, char *buf,
		      size_t len)
{
	const sbf_dep_t *d;

	if (!f->planned) {
		snprintf(buf, len, "%s", f->no_start);
		return;
	}
	switch (f->r.never) {
	case SB_QP_NEVER_NONE:
		buf[0] = '\0';
		break;
	case SB_QP_NEVER_NODES:
		snprintf(buf, len, "even when every running job has ended, "
			 "too few nodes that match it are up and outside "
			 "reservations for long enough");
		break;
	case SB_QP_NEVER_LIMITS:
		snprintf(buf, len, "a limit it needs never has the room (it "
			 "needs more than the limit, or a holder has no time "
			 "limit)");
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
	(void) p;
}

typedef struct {
	const char *user, *part, *account;
} _filter_t;

static bool _shown(const sbf_plan_t *p, const sbf_job_t *f,
		   const _filter_t *flt)
{
	const sbc_job_t *j = f->job;
	const sbc_cluster_t *lv = &p->m->lv;

	if (flt->user && (!j->user || strcmp(j->user, flt->user)))
		return false;
	if (flt->account && (!j->account || strcmp(j->account, flt->account)))
		return false;
	if (flt->part && (j->part < 0 ||
			  strcmp(lv->parts[j->part].name, flt->part)))
		return false;
	return true;
}

/* Planned-start order: planned jobs by start (then the plan's order),
 * then those without a start in backfill's order. */
static int _by_start(const void *pa, const void *pb)
{
	const sbf_job_t *a = *(const sbf_job_t *const *) pa;
	const sbf_job_t *b = *(const sbf_job_t *const *) pb;
	bool sa = a->planned && !a->r.never, sb = b->planned && !b->r.never;

	if (sa != sb)
		return sa ? -1 : 1;
	if (sa && a->r.start != b->r.start)
		return a->r.start < b->r.start ? -1 : 1;
	if (sa && a->r.order != b->r.order)
		return a->r.order < b->r.order ? -1 : 1;
	return a < b ? -1 : a > b;
}

static void _print(const sbf_plan_t *p, const sbf_likely_t *l,
		   const _filter_t *flt, bool json)
{
	const sbc_cluster_t *lv = &p->m->lv;
	const sbf_job_t **v = calloc(p->njobs + 1, sizeof(*v));
	size_t i, n = 0;
	_waits_t *w = malloc(sizeof(*w));
	_index_t x;

	memset(&x, 0, sizeof(x));
	if (!v || !w || _index(p, &x) < 0) {
		fprintf(stderr, "sbucket: out of memory\n");
		free(v);
		free(w);
		_index_fini(&x);
		return;
	}
	for (i = 0; i < p->njobs; i++)
		if (_shown(p, &p->jobs[i], flt))
			v[n++] = &p->jobs[i];
	qsort(v, n, sizeof(*v), _by_start);
	if (json)
		putchar('[');
	else if (n && l->on)
		printf("%-10s %-10s %-10s %-16s %-19s  %-19s  %-19s  %s\n",
		       "JOBID", "USER", "PARTITION", "NODES", "PLANNED START",
		       "LIKELY START", "PLANNED END", "SQUEUE --START");
	else if (n)
		printf("%-10s %-10s %-10s %-16s %-19s  %-19s  %s\n", "JOBID",
		       "USER", "PARTITION", "NODES", "PLANNED START",
		       "PLANNED END", "SQUEUE --START");
	else
		printf("No pending job%s.\n", flt->user || flt->part ||
		       flt->account ? " matches" : "");
	for (i = 0; i < n; i++) {
		const sbf_job_t *f = v[i];
		const sbf_job_t *lf = sbf_likely_job(l, p, f);
		const sbc_job_t *j = f->job;
		bool has = f->planned && !f->r.never;
		bool lhas = lf && lf->planned && !lf->r.never;
		char basis[200], t4[32];
		const char *part = j->part >= 0 ? lv->parts[j->part].name :
			NULL;
		char why[300], t1[32], t2[32], t3[32], *hl;

		_waits(p, &x, f, w);
		_no_start(p, f, why, sizeof(why));
		hl = has ? sbw_hostlist(lv, f->r.nodes) : NULL;
		if (json) {
			printf("%s{\"job_id\":", i ? "," : "");
			sbw_jstr(j->id);
			printf(",\"user\":");
			sbw_jstr(j->user);
			printf(",\"account\":");
			sbw_jstr(j->account);
			printf(",\"partition\":");
			sbw_jstr(part);
			printf(",\"priority\":%" PRIu32, j->priority);
			printf(",\"placed_by\":");
			sbw_jstr(!f->planned ? NULL : f->qj.kind == SB_QP_BASE ?
				 "base" : "select/bucket");
			printf(",\"planned_start\":");
			_jiso(has ? f->r.start : -1);
			printf(",\"planned_end\":");
			_jiso(has ? f->r.end : -1);
			printf(",\"likely_start\":");
			_jiso(lhas ? lf->r.start : -1);
			printf(",\"likely_end\":");
			_jiso(lhas ? lf->r.end : -1);
			printf(",\"likely_basis\":");
			if (lf)
				sbf_likely_basis(l, p, j, basis,
						 sizeof(basis));
			sbw_jstr(lf ? basis : NULL);
			printf(",\"nodes\":");
			sbw_jstr(hl);
			printf(",\"waits_for\":");
			_json_waits(p, w);
			printf(",\"reason\":");
			sbw_jstr(j->reason);
			printf(",\"no_start\":");
			sbw_jstr(has ? NULL : why);
			printf(",\"squeue_start\":");
			_jiso(j->start);
			putchar('}');
		} else {
			sbw_fmt_time(has ? f->r.start : -1, t1, sizeof(t1));
			sbw_fmt_time(has ? f->r.end : -1, t2, sizeof(t2));
			sbw_fmt_time(j->start, t3, sizeof(t3));
			if (has && f->r.end == SB_TIME_INFINITE)
				snprintf(t2, sizeof(t2), "no time limit");
			printf("%-10s %-10s %-10s %-16s %-19s  ", j->id,
			       j->user ? j->user : "?", part ? part : "?",
			       hl ? hl : "-", has ? t1 : "no start");
			sbw_fmt_time(lhas ? lf->r.start : -1, t4, sizeof(t4));
			if (lf)
				printf("%-19s  ", lhas ? t4 : "no start");
			printf("%-19s  %s\n", t2, j->start < 0 ? "N/A" : t3);
			if (has)
				_text_waits(p, f, w);
			else
				printf("    no start: %s\n", why);
			if (lhas) {
				sbf_likely_runtime(l, p, j, basis,
						   sizeof(basis));
				printf("    likely run time: %s\n", basis);
			}
		}
		free(hl);
	}
	if (json)
		printf("]\n");
	free(v);
	free(w);
	_index_fini(&x);
}

/* ---- the chart ----------------------------------------------------------- */

/* Add a job on @nodes over [@s, @e) to @c; 0 or -1 (errno). */
static int _chart_job(sb_chart_t *c, const sbc_cluster_t *lv, const char *id,
		      const char *user, const sb_bitmap_t *nodes, int64_t s,
		      int64_t e, const char **names)
{
	size_t n = 0;
	int64_t i;

	for (i = sb_bitmap_first_set(nodes); i >= 0;
	     i = sb_bitmap_next_set(nodes, (size_t) i + 1))
		names[n++] = lv->cl.nodes[i].name;
	if (!n)
		return 0;
	return sb_chart_add_job(c, id, user && user[0] ? user : NULL, s, e,
				names, n);
}

/*
 * The plan as 'sbucket chart' draws it, into @file: the running jobs
 * from now to their ends, the planned jobs shown, rows for every node.
 * 0, or -1 after one error line.
 */
static int _chart(const sbf_plan_t *p, const _filter_t *flt,
		  const char *file)
{
	const sbc_cluster_t *lv = &p->m->lv;
	const char **names = calloc(lv->cl.n + 1, sizeof(*names));
	sb_chart_opts_t o = { 0 };
	sb_chart_t *c = sb_chart_create();
	char *svg = NULL, cap[96], t[32];
	FILE *f = NULL;
	size_t i;
	int rc = -1;

	if (!names || !c)
		goto oom;
	for (i = 0; i < lv->cl.n; i++)
		if (sb_chart_add_node(c, lv->cl.nodes[i].name) < 0)
			goto oom;
	for (i = 0; i < lv->njobs; i++) {
		const sbc_job_t *j = &lv->jobs[i];
		int64_t e = j->state == SBC_SUSPENDED || j->end < 0 ?
			SB_TIME_INFINITE : j->end;

		if (j->nodes && _chart_job(c, lv, j->id, j->user, j->nodes,
					   lv->now, e > lv->now ? e :
					   lv->now, names) < 0)
			goto oom;
	}
	for (i = 0; i < p->njobs; i++) {
		const sbf_job_t *q = &p->jobs[i];

		if (q->planned && !q->r.never && _shown(p, q, flt) &&
		    _chart_job(c, lv, q->job->id, q->job->user, q->r.nodes,
			       q->r.start, q->r.end, names) < 0)
			goto oom;
	}
	sbw_fmt_time(lv->now, t, sizeof(t));
	snprintf(cap, sizeof(cap), "sbucket forecast at %s", t);
	o.title = "Planned starts";
	o.caption = cap;
	o.summary = true;
	o.legend = true;
	if (!(svg = sb_chart_svg(c, &o))) {
		if (errno != ENOENT)
			goto oom;
		fprintf(stderr, "sbucket: --chart: no job to draw\n");
		goto out;
	}
	if (!(f = fopen(file, "w"))) {
		fprintf(stderr, "sbucket: --chart '%s': %s\n", file,
			strerror(errno));
		goto out;
	}
	if (fputs(svg, f) == EOF) {
		fprintf(stderr, "sbucket: --chart '%s': %s\n", file,
			strerror(errno));
		fclose(f);
		goto out;
	}
	if (fclose(f)) {
		fprintf(stderr, "sbucket: --chart '%s': %s\n", file,
			strerror(errno));
		goto out;
	}
	rc = 0;
	goto out;
oom:
	fprintf(stderr, "sbucket: out of memory\n");
out:
	free(svg);
	free(names);
	sb_chart_destroy(c);
	return rc;
}

/* ---- main ---------------------------------------------------------------- */

int sbucket_forecast_main(int argc, char **argv)
{
	_filter_t flt = { NULL, NULL, NULL };
	const char *chart = NULL, *days_arg = NULL;
	bool json = false, history = true;
	int i, rc, days = SBF_HISTORY_DAYS;
	sbf_likely_t l;
	sbf_plan_t p;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], **dst = NULL;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			_usage(stdout);
			return SBUCKET_EXIT_OK;
		} else if (!strcmp(a, "--json")) {
			json = true;
			continue;
		} else if (!strcmp(a, "--no-history")) {
			history = false;
			continue;
		} else if (!strncmp(a, "--history-days=", 15)) {
			if (days_arg)
				return sbucket_usage_error(CMD,
							   "--history-days",
							   a + 15,
							   "given twice");
			days_arg = a + 15;
			if (sbf_history_days(days_arg, &days) < 0)
				return sbucket_usage_error(CMD,
							   "--history-days",
							   days_arg,
							   "is not a number of "
							   "days (1-3650)");
			continue;
		} else if (!strncmp(a, "--chart=", 8)) {
			if (!a[8])
				return sbucket_usage_error(CMD, "--chart",
							   NULL,
							   "needs a file");
			if (chart)
				return sbucket_usage_error(CMD, "--chart",
							   a + 8,
							   "given twice");
			chart = a + 8;
			continue;
		} else if (!strcmp(a, "--chart")) {
			dst = &chart;
		} else if (!strcmp(a, "-u")) {
			dst = &flt.user;
		} else if (!strcmp(a, "-p")) {
			dst = &flt.part;
		} else if (!strcmp(a, "-A")) {
			dst = &flt.account;
		} else {
			const char *ops[1];
			int nops = 0;

			/* no operands: an unknown option or one too many */
			return sbucket_operand(CMD, a, ops, &nops, 0);
		}
		if (i + 1 >= argc)
			return sbucket_usage_error(CMD, a, NULL,
						   "needs a value");
		if (!argv[i + 1][0] || argv[i + 1][0] == '-')
			return sbucket_usage_error(CMD, a, argv[i + 1],
						   "is not a name");
		if (*dst)
			return sbucket_usage_error(CMD, a, argv[i + 1],
						   "given twice");
		*dst = argv[++i];
	}
	if (days_arg && !history)
		return sbucket_usage_error(CMD, "--history-days", days_arg,
					   "goes with no --no-history");
	memset(&l, 0, sizeof(l));
	rc = sbf_plan(&p);
	if (!rc && flt.part) {
		size_t k;

		for (k = 0; k < p.m->lv.nparts &&
		     strcmp(p.m->lv.parts[k].name, flt.part); k++)
			;
		if (k == p.m->lv.nparts) {
			sbf_plan_fini(&p);
			return sbucket_usage_error(CMD, "-p", flt.part,
						   "no such partition");
		}
	}
	if (!rc && history && sbf_likely_make(&l, &p, days) < 0)
		rc = -1;
	if (!rc) {
		sbf_likely_note(&l);
		_print(&p, &l, &flt, json);
	}
	if (!rc && chart && _chart(&p, &flt, chart) < 0)
		rc = -1;
	sbf_likely_fini(&l);
	sbf_plan_fini(&p);
	if (rc)
		return SBUCKET_EXIT_INPUT;
	return fflush(stdout) ? SBUCKET_EXIT_INPUT : SBUCKET_EXIT_OK;
}
