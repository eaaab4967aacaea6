/*
 * queue_plan.c - one plan of a whole pending queue (queue_plan.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "queue_plan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sb_time.h"

#define WHOLE_NODE UINT32_MAX
#define MAX_ROUNDS 10000	/* nodes <-> limits; each round moves on */

typedef struct {
	int64_t start, end;
	uint32_t cpus;		/* WHOLE_NODE: all of it */
	uint64_t mem;
	int tag;
	bool planned;		/* by sb_qplan_run() */
} _span_t;

typedef struct {
	_span_t *v;
	size_t n, cap;
} _spans_t;

struct sb_qplan {
	const sb_node_t *nodes;
	size_t n;
	int64_t now;
	sb_will_run_t *const *w;
	size_t nw;
	sb_limit_plan_t *lp;
	const sb_bucket_set_t *set;	/* NULL: match node by node */
	_spans_t *spans;	/* per node */
	int64_t *held;		/* per node: held whole from now until
				 * (_held()), side by side */
	sb_bitmap_t *match;	/* scratch: a BASE job's matching nodes */
	uint64_t *mw;		/* scratch: match as words (bitmap.h's
				 * layout), walked without a call per
				 * node */
	size_t nmw;		/* words of mw */
};

sb_qplan_t *sb_qplan_create(const sb_node_t *nodes, size_t n, int64_t now,
			    sb_will_run_t *const *w, size_t nw,
			    sb_limit_plan_t *lp)
{
	sb_qplan_t *q;
	size_t i;

	if (!nodes || !w || !nw || now < 0) {
		errno = EINVAL;
		return NULL;
	}
	for (i = 0; i < nw; i++)
		if (!w[i]) {
			errno = EINVAL;
			return NULL;
		}
	if (!(q = calloc(1, sizeof(*q))) ||
	    !(q->spans = calloc(n + 1, sizeof(*q->spans))) ||
	    !(q->held = calloc(n + 1, sizeof(*q->held))) ||
	    !(q->match = sb_bitmap_alloc(n)) ||
	    !(q->mw = calloc(n / 64 + 1, sizeof(*q->mw)))) {
		if (q) {
			free(q->spans);
			free(q->held);
			sb_bitmap_free(q->match);
		}
		free(q);
		errno = ENOMEM;
		return NULL;
	}
	q->nodes = nodes;
	q->n = n;
	q->now = now;
	q->w = w;
	q->nw = nw;
	q->lp = lp;
	q->nmw = (n + 63) / 64;
	for (i = 0; i < n; i++)
		q->held[i] = now;
	return q;
}

void sb_qplan_destroy(sb_qplan_t *q)
{
	size_t i;

	if (!q)
		return;
	for (i = 0; i < q->n; i++)
		free(q->spans[i].v);
	free(q->spans);
	free(q->held);
	sb_bitmap_free(q->match);
	free(q->mw);
	free(q);
}

int sb_qplan_set_buckets(sb_qplan_t *q, const sb_bucket_set_t *set)
{
	if (!q || (set && sb_bucket_set_nodes(set) != q->n)) {
		errno = EINVAL;
		return -1;
	}
	q->set = set;
	return 0;
}

/*
 * Until when node @i is held whole from now on by spans in every job's
 * way (no tag, using some of it): no whole-node window starting at or
 * after now and before that fits, so a node held past the best start
 * found costs a word. One walk of the sorted spans. O(S).
 */
static int64_t _held(const sb_qplan_t *q, size_t i)
{
	const _spans_t *s = &q->spans[i];
	int64_t h = q->now;
	size_t k;

	for (k = 0; k < s->n && s->v[k].start <= h; k++)
		if (s->v[k].tag < 0 && (s->v[k].cpus || s->v[k].mem) &&
		    s->v[k].end > h)
			h = s->v[k].end;
	return h;
}

static int _add(sb_qplan_t *q, size_t node, uint32_t cpus, uint64_t mem,
		int64_t start, int64_t end, int tag, bool planned)
{
	_spans_t *s = &q->spans[node];
	size_t k;

	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 4;
		_span_t *v = realloc(s->v, cap * sizeof(*v));

		if (!v) {
			errno = ENOMEM;
			return -1;
		}
		s->v = v;
		s->cap = cap;
	}
	/* kept sorted by start: a whole-node fit walks them in time order
	 * and stops at the first span after its window (planned jobs come
	 * mostly in time order, so the shift is short) */
	for (k = s->n; k && s->v[k - 1].start > start; k--)
		s->v[k] = s->v[k - 1];
	s->v[k] = (_span_t) { start, end, cpus, mem, tag, planned };
	s->n++;
	q->held[node] = _held(q, node);
	return 0;
}

int sb_qplan_use(sb_qplan_t *q, size_t node, uint32_t cpus, uint64_t mem,
		 int64_t start, int64_t end, int tag)
{
	if (!q || node >= q->n || start >= end) {
		errno = EINVAL;
		return -1;
	}
	return _add(q, node, cpus, mem, start, end, tag, false);
}

void sb_qplan_result_fini(sb_qp_result_t *r)
{
	if (!r)
		return;
	sb_bitmap_free(r->nodes);
	free(r->allows);
	memset(r, 0, sizeof(*r));
}

static bool _node_down(const sb_node_t *n)
{
	return n->state == SB_NODE_DOWN || n->state == SB_NODE_DRAINED;
}

/*
 * CPUs and memory in use on node @i at time @p, spans of tag @skip left
 * out (a whole-node span counts as the node's all); *whole when one
 * covers p.
 */
static void _use_at(const sb_qplan_t *q, size_t i, int64_t p, int skip,
		    uint64_t *cpus, uint64_t *mem, bool *whole)
{
	const _spans_t *s = &q->spans[i];
	size_t k;

	*cpus = 0;
	*mem = 0;
	*whole = false;
	for (k = 0; k < s->n; k++) {
		const _span_t *v = &s->v[k];

		if (v->start > p || v->end <= p ||
		    (skip >= 0 && v->tag == skip))
			continue;
		if (v->cpus == WHOLE_NODE) {
			*whole = true;
			continue;
		}
		*cpus += v->cpus;
		*mem += v->mem;
	}
}

/* Has node @i @c CPUs and @m MB free over [s, e) for job tag @skip?
 * c UINT32_MAX: the whole node (nothing else on it). */
static bool _fits(const sb_qplan_t *q, size_t i, int64_t s, int64_t e,
		  uint32_t c, uint64_t m, int skip)
{
	const sb_node_t *nd = &q->nodes[i];
	const _spans_t *sp = &q->spans[i];
	uint64_t cpus, mem;
	bool whole;
	size_t k;

	if (c == WHOLE_NODE) {
		/* the whole node: free when no span that uses any of it
		 * meets [s, e), one pass over the spans up to e */
		if (_node_down(nd))
			return false;
		for (k = 0; k < sp->n && sp->v[k].start < e; k++) {
			const _span_t *v = &sp->v[k];

			if (v->end > s &&
			    (v->cpus || v->mem) &&
			    (skip < 0 || v->tag != skip))
				return false;
		}
		return true;
	}
	if (_node_down(nd) || c > nd->cpus || m > nd->real_memory)
		return false;
	/* use only grows at a span's start: s and the starts inside */
	_use_at(q, i, s, skip, &cpus, &mem, &whole);
	if (whole || cpus + c > nd->cpus || mem + m > nd->real_memory)
		return false;
	for (k = 0; k < sp->n; k++) {
		const _span_t *v = &sp->v[k];

		if (v->start <= s || v->start >= e ||
		    (skip >= 0 && v->tag == skip))
			continue;
		_use_at(q, i, v->start, skip, &cpus, &mem, &whole);
		if (whole || cpus + c > nd->cpus || mem + m > nd->real_memory)
			return false;
	}
	return true;
}

static int _cmp_time(const void *a, const void *b)
{
	int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;

	return x < y ? -1 : x > y;
}

/* A BASE job's matching nodes into q->match: per bucket when the plan
 * has them (a bucket's nodes are alike), else node by node. */
static void _base_match(sb_qplan_t *q, const sb_qp_job_t *j)
{
	const sb_request_t *r = j->req;
	size_t i, b;

	sb_bitmap_clear_all(q->match);
	if (q->set) {
		for (b = 0; b < sb_bucket_set_size(q->set); b++)
			if (sb_chunk_match(sb_bucket_rep(q->set, b), r,
					   &r->chunks[0], NULL) == 1)
				sb_bitmap_or(q->match,
					     sb_bucket_all(q->set, b));
	} else {
		for (i = 0; i < q->n; i++)
			if (sb_chunk_match(&q->nodes[i], r, &r->chunks[0],
					   NULL) == 1)
				sb_bitmap_set(q->match, i);
	}
	if (j->allowed)
		sb_bitmap_and(q->match, j->allowed);
	if (r->excluded)
		sb_bitmap_andnot(q->match, r->excluded);
	if (r->required)
		sb_bitmap_and(q->match, r->required);
}

/*
 * The earliest s >= @t at which node @i is free whole over [s, s + d)
 * (no span that uses any of it meets it), when earlier than @best (-1:
 * none); else -1. One walk of the spans in start order: a span in the
 * way moves s to its end (every start before that end meets it), and the
 * first span starting at or after s + d ends the walk. s is t or the end
 * of a span, as _node_earliest()'s candidates. O(S).
 */
static int64_t _whole_earliest_node(const sb_qplan_t *q, size_t i,
				    int64_t t, int64_t d, int skip,
				    int64_t best)
{
	const _spans_t *sp = &q->spans[i];
	int64_t s = t, e = sb_time_add(t, d);
	size_t k;

	if (_node_down(&q->nodes[i]))
		return -1;
	for (k = 0; k < sp->n && sp->v[k].start < e; k++) {
		const _span_t *v = &sp->v[k];

		if (v->end <= s || !(v->cpus || v->mem) ||
		    (skip >= 0 && v->tag == skip))
			continue;
		if (v->end == SB_TIME_INFINITE ||
		    (best >= 0 && v->end >= best))
			return -1;
		s = v->end;
		e = sb_time_add(s, d);
	}
	return s;
}

/*
 * The earliest s >= @t at which node @i has @c CPUs and @m MB free over
 * [s, s + d): t or the end of one of its spans; -1 when never.
 */
static int64_t _node_earliest(const sb_qplan_t *q, size_t i, int64_t t,
			      int64_t d, uint32_t c, uint64_t m, int skip)
{
	const _spans_t *sp = &q->spans[i];
	int64_t best = -1;
	size_t k;

	if (_fits(q, i, t, sb_time_add(t, d), c, m, skip))
		return t;
	/* the candidates are few (a node's spans): try each, keep the least */
	for (k = 0; k < sp->n; k++) {
		int64_t e = sp->v[k].end;

		if (e <= t || e == SB_TIME_INFINITE ||
		    (best >= 0 && e >= best) ||
		    (skip >= 0 && sp->v[k].tag == skip))
			continue;
		if (_fits(q, i, e, sb_time_add(e, d), c, m, skip))
			best = e;
	}
	return best;
}

/*
 * A BASE job's earliest start >= @t: the first time at which enough of
 * its matching nodes fit, lowest indices first. One node: the least of
 * each node's earliest (stopping at a node that fits at t). More: the
 * candidates are t and the ends of the spans on its matching nodes,
 * each counted over them. 0 with *start and @nodes set; -1 with errno
 * ENOENT (never) or ENOMEM.
 */
static int _base_earliest(sb_qplan_t *q, const sb_qp_job_t *j, int64_t t,
			  int64_t *start, sb_bitmap_t *nodes)
{
	uint64_t need = sb_request_nodes(j->req);
	uint32_t c = j->exclusive ? WHOLE_NODE : j->cpus ? j->cpus : 1;
	int64_t *cand = NULL, i;
	size_t k, nc = 0, cap = 16;
	int rc = -1;

	if (j->req->required && sb_bitmap_count(j->req->required) > need)
		need = sb_bitmap_count(j->req->required);
	_base_match(q, j);
	sb_bitmap_clear_all(nodes);
	if (need == 1) {
		int64_t best = -1, at = -1;
		uint64_t x = 0;

		/* the matching nodes in index order, a word at a time */
		(void) sb_bitmap_store_words(q->match, q->mw, q->nmw);
		for (k = 0; best != t; x &= x - 1) {
			int64_t e;

			while (!x && k < q->nmw)
				x = q->mw[k++];
			if (!x)
				break;
			i = (int64_t) ((k - 1) * 64 + sb_bitmap_word_ctz(x));

			/* t >= now: held to the best or later, no better */
			if (c == WHOLE_NODE && best >= 0 && q->held[i] >= best)
				continue;
			e = c == WHOLE_NODE ?
				_whole_earliest_node(q, (size_t) i, t,
						     j->duration, j->own_tag,
						     best) :
				_node_earliest(q, (size_t) i, t, j->duration,
					       c, j->mem, j->own_tag);

			if (e >= 0 && (best < 0 || e < best)) {
				best = e;
				at = i;
			}
		}
		if (best < 0) {
			errno = ENOENT;
			return -1;
		}
		sb_bitmap_set(nodes, (size_t) at);
		*start = best;
		return 0;
	}
	if (!(cand = malloc(cap * sizeof(*cand))))
		goto oom;
	cand[nc++] = t;
	for (i = sb_bitmap_first_set(q->match); i >= 0;
	     i = sb_bitmap_next_set(q->match, (size_t) i + 1)) {
		for (k = 0; k < q->spans[i].n; k++) {
			int64_t e = q->spans[i].v[k].end;

			if (e <= t || e == SB_TIME_INFINITE)
				continue;
			if (nc == cap) {
				int64_t *v = realloc(cand, 2 * cap *
						     sizeof(*v));

				if (!v)
					goto oom;
				cand = v;
				cap *= 2;
			}
			cand[nc++] = e;
		}
	}
	qsort(cand, nc, sizeof(*cand), _cmp_time);
	for (k = 0; k < nc; k++) {
		int64_t s = cand[k], e = sb_time_add(s, j->duration);
		uint64_t got = 0;

		if (k && cand[k] == cand[k - 1])
			continue;
		sb_bitmap_clear_all(nodes);
		for (i = sb_bitmap_first_set(q->match); i >= 0 && got < need;
		     i = sb_bitmap_next_set(q->match, (size_t) i + 1))
			if (_fits(q, (size_t) i, s, e, c, j->mem,
				  j->own_tag)) {
				sb_bitmap_set(nodes, (size_t) i);
				got++;
			}
		if (got >= need) {
			*start = s;
			rc = 0;
			goto out;
		}
	}
	sb_bitmap_clear_all(nodes);
	errno = ENOENT;
	goto out;
oom:
	errno = ENOMEM;
out:
	free(cand);
	return rc;
}

/* A WHOLE job's earliest start >= @t, its nodes into @nodes. */
static int _whole_earliest(const sb_qplan_t *q, const sb_qp_job_t *j,
			   const sb_policy_t *p, int64_t t, int64_t *start,
			   sb_will_run_result_t *res, sb_bitmap_t *nodes)
{
	size_t c;

	sb_will_run_result_fini(res);
	if (sb_will_run_query(q->w[j->plan], j->req, p, j->allowed, t,
			      res) < 0)
		return -1;
	*start = res->start;
	sb_bitmap_clear_all(nodes);
	for (c = 0; c < res->pl.nchunks; c++)
		sb_bitmap_or(nodes, res->pl.nodes[c]);
	return 0;
}

/* Put planned job @j on its nodes @nodes over [s, e) everywhere. */
static int _commit(sb_qplan_t *q, const sb_qp_job_t *j, int64_t s,
		   int64_t e, const sb_bitmap_t *nodes,
		   const sb_will_run_result_t *res)
{
	int64_t i;
	size_t k;

	for (i = sb_bitmap_first_set(nodes); i >= 0;
	     i = sb_bitmap_next_set(nodes, (size_t) i + 1)) {
		if (j->kind == SB_QP_WHOLE || j->exclusive) {
			if (_add(q, (size_t) i, WHOLE_NODE, 0, s, e, -1,
				 true) < 0)
				return -1;
		} else if (_add(q, (size_t) i, j->cpus ? j->cpus : 1, j->mem,
				s, e, -1, true) < 0) {
			return -1;
		}
		if (j->kind == SB_QP_BASE)
			for (k = 0; k < q->nw; k++)
				if (sb_will_run_reserve(q->w[k], (size_t) i, s,
							e) < 0)
					return -1;
	}
	if (j->kind == SB_QP_WHOLE)
		for (k = 0; k < q->nw; k++)
			if (sb_will_run_commit(q->w[k], res) < 0)
				return -1;
	if (q->lp && j->need && sb_limit_plan_add(q->lp, j->need, s,
						  j->duration) < 0)
		return -1;
	return 0;
}

/* Every dependency of job @i on a queued job is planned (or never)? */
static bool _ready(const sb_qp_job_t *j, const bool *done)
{
	size_t d;

	for (d = 0; d < j->ndeps; d++)
		if (j->deps[d].job != SIZE_MAX && !done[j->deps[d].job])
			return false;
	return true;
}

/*
 * r->allows: for each limit job @j needs, the earliest start from @t it
 * alone allows, before @j is committed. 0, or -1 with errno.
 */
static int _allows(sb_qplan_t *q, const sb_qp_job_t *j, int64_t t,
		   sb_qp_result_t *r)
{
	size_t k, n = sb_limit_plan_count(q->lp);

	if (!(r->allows = malloc((n + 1) * sizeof(*r->allows)))) {
		errno = ENOMEM;
		return -1;
	}
	for (k = 0; k < n; k++) {
		r->allows[k] = -1;
		if (j->need[k] <= 0)
			continue;
		if (sb_limit_plan_earliest_one(q->lp, k, j->need[k], t,
					       j->duration,
					       &r->allows[k]) < 0) {
			if (errno != ENOENT)
				return -1;
			r->allows[k] = -1;
		}
	}
	return 0;
}

/* Plan job @jobs[i] into @r, given the results of its predecessors. */
static int _plan_one(sb_qplan_t *q, const sb_qp_job_t *jobs, size_t i,
		     const sb_policy_t *p, sb_qp_result_t *out)
{
	const sb_qp_job_t *j = &jobs[i];
	sb_qp_result_t *r = &out[i];
	sb_will_run_result_t res;
	int64_t t = q->now, s = 0, ls;
	bool limited = false;
	size_t d, round;
	int rc = -1;

	memset(&res, 0, sizeof(res));
	r->start = r->end = r->nodes_start = -1;
	r->by = SB_QP_BY_NOW;
	if (j->begin > t) {
		t = j->begin;
		r->by = SB_QP_BY_BEGIN;
	}
	for (d = 0; d < j->ndeps; d++) {
		const sb_qp_dep_t *dp = &j->deps[d];
		int64_t at = dp->at;

		if (dp->job != SIZE_MAX) {
			const sb_qp_result_t *o = &out[dp->job];

			at = o->never ? SB_TIME_INFINITE :
			     dp->kind == SB_QP_AFTER ?
			     sb_time_add(o->start, dp->delay > 0 ? dp->delay :
					 0) : o->end;
		}
		if (at == SB_TIME_INFINITE) {
			r->never = SB_QP_NEVER_DEPENDENCY;
			r->dep = d;
			return 0;
		}
		if (at > t) {
			t = at;
			r->by = SB_QP_BY_DEPENDENCY;
			r->dep = d;
		}
	}
	if (q->lp && j->need && _allows(q, j, t, r) < 0)
		goto out;
	if (!(r->nodes = sb_bitmap_alloc(q->n)))
		goto oom;
	for (round = 0; round < MAX_ROUNDS; round++) {
		int got = j->kind == SB_QP_WHOLE ?
			_whole_earliest(q, j, p, t, &s, &res, r->nodes) :
			_base_earliest(q, j, t, &s, r->nodes);

		if (got < 0 && errno == ENOENT) {
			r->never = SB_QP_NEVER_NODES;
			goto never;
		}
		if (got < 0)
			goto out;
		if (!round)
			r->nodes_start = s;
		if (!q->lp || !j->need)
			break;
		if (sb_limit_plan_earliest(q->lp, j->need, s, j->duration,
					   &ls) < 0) {
			if (errno != ENOENT)
				goto out;
			r->never = SB_QP_NEVER_LIMITS;
			goto never;
		}
		if (ls == s)
			break;
		t = ls;
		limited = true;
	}
	if (round == MAX_ROUNDS) {
		errno = EINVAL;
		goto out;
	}
	r->start = s;
	r->end = sb_time_add(s, j->duration);
	if (limited && s == t)
		r->by = SB_QP_BY_LIMITS;
	else if (s > t)
		r->by = SB_QP_BY_NODES;
	if (_commit(q, j, s, r->end, r->nodes, &res) < 0)
		goto out;
	rc = 0;
	goto out;
never:
	sb_bitmap_free(r->nodes);
	r->nodes = NULL;
	r->start = r->end = r->nodes_start = -1;
	rc = 0;
	goto out;
oom:
	errno = ENOMEM;
out:
	sb_will_run_result_fini(&res);
	return rc;
}

int sb_qplan_run(sb_qplan_t *q, const sb_qp_job_t *jobs, size_t njobs,
		 const sb_policy_t *p, sb_qp_result_t *out)
{
	bool *done = NULL, progress;
	size_t i, d, order = 0, *wait = NULL, nwait = 0;

	if (!q || (njobs && (!jobs || !out)) || !p) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < njobs; i++) {
		if (!jobs[i].req || !jobs[i].req->nchunks ||
		    (jobs[i].kind == SB_QP_WHOLE && jobs[i].plan >= q->nw) ||
		    jobs[i].duration < 1 || (jobs[i].ndeps && !jobs[i].deps)) {
			errno = EINVAL;
			return -1;
		}
		for (d = 0; d < jobs[i].ndeps; d++)
			if (jobs[i].deps[d].job != SIZE_MAX &&
			    jobs[i].deps[d].job >= njobs) {
				errno = EINVAL;
				return -1;
			}
	}
	memset(out, 0, njobs * sizeof(*out));
	if (!(done = calloc(njobs + 1, sizeof(*done)))) {
		errno = ENOMEM;
		return -1;
	}
	/* in order; a job waits for its queued predecessors, and is planned
	 * as soon as the last of them is */
	if (!(wait = calloc(njobs + 1, sizeof(*wait))))
		goto oom;
	for (i = 0; i < njobs; i++) {
		if (!_ready(&jobs[i], done)) {
			wait[nwait++] = i;
			continue;
		}
		if (_plan_one(q, jobs, i, p, out) < 0)
			goto fail;
		out[i].order = order++;
		done[i] = true;
		for (progress = true; progress && nwait;) {
			size_t w, kept = 0;

			progress = false;
			for (w = 0; w < nwait; w++) {
				size_t k = wait[w];

				if (!_ready(&jobs[k], done)) {
					wait[kept++] = k;
					continue;
				}
				if (_plan_one(q, jobs, k, p, out) < 0)
					goto fail;
				out[k].order = order++;
				done[k] = true;
				progress = true;
			}
			nwait = kept;
		}
	}
	for (i = 0; i < njobs; i++)
		if (!done[i]) {
			out[i].never = SB_QP_NEVER_CYCLE;
			out[i].start = out[i].end = -1;
			out[i].nodes_start = -1;
			out[i].order = order++;
		}
	free(done);
	free(wait);
	return 0;
oom:
	errno = ENOMEM;
fail:
	d = (size_t) errno;
	for (i = 0; i < njobs; i++)
		sb_qplan_result_fini(&out[i]);
	free(done);
	free(wait);
	errno = (int) d;
	return -1;
}

int sb_qplan_check(const sb_qplan_t *q)
{
	size_t i, k;

	if (!q) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < q->n; i++) {
		const _spans_t *s = &q->spans[i];

		if (s->n > s->cap || (s->n && !s->v) ||
		    q->held[i] != _held(q, i))
			goto broken;
		for (k = 0; k < s->n; k++) {
			const _span_t *v = &s->v[k];
			uint64_t cpus = 0, mem = 0;
			size_t m;

			if (v->start >= v->end ||
			    (k && v->start < s->v[k - 1].start))
				goto broken;
			if (!v->planned)
				continue;
			/* at its start, planned spans and shared running
			 * ones fit the node together */
			for (m = 0; m < s->n; m++) {
				const _span_t *o = &s->v[m];

				if (o->start > v->start || o->end <= v->start)
					continue;
				if (o->planned && m != k &&
				    (o->cpus == WHOLE_NODE ||
				     v->cpus == WHOLE_NODE))
					goto broken;
				if (o->cpus == WHOLE_NODE)
					continue;
				cpus += o->cpus;
				mem += o->mem;
			}
			if (v->cpus != WHOLE_NODE &&
			    (cpus > q->nodes[i].cpus ||
			     mem > q->nodes[i].real_memory))
				goto broken;
		}
	}
	return 0;
broken:
	errno = EFAULT;
	return -1;
}
