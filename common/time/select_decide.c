/*
 * select_decide.c - select/bucket's decision for one placement question
 * (select_decide.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sb_time.h"
#include "select_decide.h"

void sb_select_facts_init(sb_select_facts_t *f)
{
	if (!f)
		return;
	memset(f, 0, sizeof(*f));
	f->time_limit = SB_TIME_INFINITE;
	f->base.model = true;
}

int sb_select_facts_request(sb_select_facts_t *f, const sb_request_t *r)
{
	const sb_chunk_t *c;

	if (!f || !r || r->nchunks != 1 || r->nmatch) {
		errno = EINVAL;
		return -1;
	}
	c = &r->chunks[0];
	f->base.min_nodes = f->base.max_nodes = c->count;
	f->base.node_cpus = c->min_cpus;
	f->base.min_cpus = (uint64_t) c->count * (c->min_cpus ? c->min_cpus : 1);
	f->base.required_nodes = r->required && !sb_bitmap_empty(r->required);
	f->base.contiguous = r->contiguous;
	f->base.share.job_exclusive = r->exclusive;
	f->min_memory = c->min_memory;
	f->min_tmp = c->min_tmp;
	f->time_limit = r->time_limit;
	f->match = r;
	return 0;
}

/* A bitmap of the set's node count, or none. */
static bool _sized(const sb_bitmap_t *b, size_t n)
{
	return !b || sb_bitmap_size(b) == n;
}

int sb_select_facts_check(const sb_select_facts_t *f,
			  const sb_bucket_set_t *set, sb_select_mode_t mode)
{
	size_t n = set ? sb_bucket_set_nodes(set) : 0;

	if (!f) {
		errno = EINVAL;
		return -1;
	}
	if (!f->policy || (unsigned) mode > SB_SELECT_WILL_RUN ||
	    (f->window_end && f->window_end < f->window_start))
		goto broken;
	if (set && (!_sized(f->allowed, n) || !_sized(f->offered, n)))
		goto broken;
	if (f->match && (f->match->nchunks != 1 || f->match->nmatch ||
			 f->match->chunks[0].count != f->base.min_nodes ||
			 (set && sb_request_check(f->match, n) < 0)))
		goto broken;
	return 0;
broken:
	errno = EFAULT;
	return -1;
}

void sb_select_verdict_fini(sb_select_verdict_t *v)
{
	if (!v)
		return;
	sb_bitmap_free(v->nodes);
	memset(v, 0, sizeof(*v));
}

const char *sb_select_action_name(sb_select_action_t a)
{
	static const char *const names[] = {
		"ours", "not now", "next set", "base"
	};

	return (unsigned) a <= SB_SELECT_BASE ? names[a] : "?";
}

const char *sb_select_mode_name(sb_select_mode_t m)
{
	static const char *const names[] = {
		"TEST_ONLY", "RUN_NOW", "WILL_RUN"
	};

	return (unsigned) m <= SB_SELECT_WILL_RUN ? names[m] : "?";
}

/* Rule 5: the base decides; @what failed with @err. */
static int _failed(sb_select_verdict_t *v, const char *what, int err)
{
	sb_bitmap_free(v->nodes);
	v->nodes = NULL;
	v->action = SB_SELECT_BASE;
	v->reason = SB_SELECT_OUR_ERROR;
	v->failed = what;
	v->err = err;
	return 0;
}

/*
 * The nodes the job may not have (rule 3): outside f->allowed, in a
 * bucket f->unfit marks or whose nodes do not match f->match's chunk,
 * f->match's excluded nodes. NULL on ENOMEM. O(B (match) + N / 64).
 */
static sb_bitmap_t *_excluded(const sb_bucket_set_t *set,
			      const sb_select_facts_t *f)
{
	size_t b, nb = sb_bucket_set_size(set);
	const sb_request_t *m = f->match;
	sb_bitmap_t *e;

	if (!(e = sb_bitmap_alloc(sb_bucket_set_nodes(set))))
		return NULL;
	if (f->allowed) {
		sb_bitmap_copy(e, f->allowed);
		sb_bitmap_not(e);
	}
	for (b = 0; (f->unfit || m) && b < nb; b++)
		if ((f->unfit && f->unfit[b]) ||
		    (m && !sb_chunk_match(sb_bucket_rep(set, b), m,
					  &m->chunks[0], NULL)))
			sb_bitmap_or(e, sb_bucket_all(set, b));
	if (m && m->excluded)
		sb_bitmap_or(e, m->excluded);
	return e;
}

/*
 * The request of rule 3 into @r: one chunk of whole nodes, the job's
 * minimums and time limit, its preferences. 0, or -1 with errno (@r is
 * then released).
 */
static int _request(const sb_select_facts_t *f, sb_request_t *r,
		    sb_select_verdict_t *v)
{
	sb_chunk_t *c;
	size_t k;

	sb_request_init(r);
	r->exclusive = true;		/* only such jobs are ours */
	r->time_limit = f->time_limit;
	if (!(c = sb_request_add_chunk(r, f->base.min_nodes)))
		goto fail;
	c->min_cpus = f->base.node_cpus;
	c->min_memory = f->min_memory;
	c->min_tmp = f->min_tmp;
	/*
	 * A list that does not parse (a job of another version, an
	 * environment set by hand) orders nothing: the list is read all or
	 * nothing (node.h); the caller says so.
	 */
	if (f->prefer) {
		if (sb_request_add_prefer_list(r, f->prefer, NULL) < 0) {
			if (errno == ENOMEM)
				goto fail;
			v->prefer_err = errno;
		}
	} else if (f->match) {
		for (k = 0; k < f->match->nprefer; k++)
			if (sb_request_add_prefer(r, f->match->prefer[k]) < 0)
				goto fail;
	}
	return 0;
fail:
	sb_request_fini(r);
	return -1;
}

/* Take chunk 0's nodes out of @pl (the verdict's now). */
static sb_bitmap_t *_take_nodes(sb_placement_t *pl)
{
	sb_bitmap_t *b = pl->nodes[0];

	pl->nodes[0] = NULL;
	return b;
}

/*
 * Rule 4, WILL_RUN: the earliest start on f->plan. 0 (v->result,
 * v->nodes, v->start), or -1 with errno (ENOENT is NEVER, not an error).
 */
static int _plan(const sb_select_facts_t *f, const sb_request_t *r,
		 const sb_bitmap_t *excl, sb_select_verdict_t *v)
{
	int64_t from = f->now, until = 0;
	sb_will_run_result_t res;
	sb_bitmap_t *allowed;
	int rc;

	if (!(allowed = sb_bitmap_dup(excl)))
		return -1;
	sb_bitmap_not(allowed);
	/*
	 * Backfill's window (24.11 on), honoured as the base honours it:
	 * cons_tres starts looking at its start and gives up past its end;
	 * linear reads none.
	 */
	if (f->base.share.base_cons && (f->window_start || f->window_end)) {
		from = f->window_start < f->now ? f->now : f->window_start;
		until = f->window_end;
	}
	rc = sb_will_run_query(f->plan, r, f->policy, allowed, from, &res);
	sb_bitmap_free(allowed);
	if (rc < 0) {
		if (errno != ENOENT)
			return -1;
		v->result = SB_PLACE_NEVER;
		return 0;
	}
	v->nodes = _take_nodes(&res.pl);
	v->start = res.start;
	sb_will_run_result_fini(&res);
	v->result = SB_PLACE_RUN;
	if (until && v->start > until)
		v->result = SB_PLACE_WAIT;
	if (f->test_now_only && v->start > f->now)
		v->result = SB_PLACE_WAIT;
	return 0;
}

/* Rule 4, TEST_ONLY and RUN_NOW. As _plan(). */
static int _place(sb_bucket_set_t *set, const sb_select_facts_t *f,
		  sb_request_t *r, sb_bitmap_t *excl, sb_select_mode_t mode,
		  sb_select_verdict_t *v)
{
	sb_placement_t pl;
	int rc;

	/* nothing excluded: no mask for the placement to apply */
	r->excluded = sb_bitmap_empty(excl) ? NULL : excl;
	rc = (mode == SB_SELECT_TEST_ONLY) ?
		sb_place_ideal(set, r, f->policy, SB_PATH_AUTO, &pl) :
		sb_place(set, r, f->policy, SB_PATH_AUTO, &pl);
	r->excluded = NULL;		/* the caller's, not the request's */
	if (rc < 0)
		return -1;
	v->path = pl.bucket_path ? NULL : pl.reason;
	v->result = pl.result;
	if (pl.result == SB_PLACE_RUN)
		v->nodes = _take_nodes(&pl);
	sb_placement_fini(&pl);
	return 0;
}

/* Rules 6-8 on what the placement found. */
static void _act(const sb_select_facts_t *f, sb_select_mode_t mode,
		 sb_select_verdict_t *v)
{
	bool cands = f->base.preempt_candidates;

	if (v->result != SB_PLACE_RUN) {
		sb_bitmap_free(v->nodes);
		v->nodes = NULL;
		v->start = 0;
		if ((mode == SB_SELECT_RUN_NOW && !cands) ||
		    (mode == SB_SELECT_WILL_RUN &&
		     v->result == SB_PLACE_WAIT)) {
			v->action = SB_SELECT_NOT_NOW;
			return;
		}
		v->action = SB_SELECT_BASE;
		v->reason = cands ? SB_SELECT_PREEMPTION :
			SB_SELECT_FOUND_NONE;
		return;
	}
	if (mode == SB_SELECT_RUN_NOW && f->offered &&
	    sb_bitmap_subset(v->nodes, f->offered) != 1) {
		v->action = SB_SELECT_NEXT_SET;
		return;
	}
	v->action = SB_SELECT_OURS;
}

/* Rules 3-8 for a job of ours, its facts complete. */
static int _ours(sb_bucket_set_t *set, const sb_select_facts_t *f,
		 sb_select_mode_t mode, sb_select_verdict_t *v)
{
	size_t n = sb_bucket_set_nodes(set);
	sb_bitmap_t *excl;
	sb_request_t r;
	int rc;

	if (!_sized(f->allowed, n) || !_sized(f->offered, n) ||
	    (f->match && (f->match->nchunks != 1 ||
			  !_sized(f->match->excluded, n))) ||
	    (mode == SB_SELECT_WILL_RUN && !f->plan))
		return _failed(v, "facts", EINVAL);
	if (!(excl = _excluded(set, f)))
		return _failed(v, "memory", errno);
	if (_request(f, &r, v) < 0) {
		sb_bitmap_free(excl);
		return _failed(v, "memory", errno);
	}
	v->placed = true;
	rc = (mode == SB_SELECT_WILL_RUN) ? _plan(f, &r, excl, v) :
		_place(set, f, &r, excl, mode, v);
	if (rc < 0)
		_failed(v, (mode == SB_SELECT_WILL_RUN) ? "WILL_RUN" :
			"placement", errno);
	else
		_act(f, mode, v);
	sb_request_fini(&r);
	sb_bitmap_free(excl);
	return 0;
}

const char *sb_select_base_reason(const sb_bucket_set_t *set,
				  const sb_select_facts_t *f,
				  sb_select_mode_t mode)
{
	sb_base_facts_t bf;

	if (!f || !f->policy)
		return "no_model";
	bf = f->base;
	bf.will_run = (mode == SB_SELECT_WILL_RUN);
	bf.contiguous_policy = (f->policy->kind == SB_POLICY_CONTIGUOUS);
	bf.model = bf.model && set;
	return sb_base_reason(&bf);
}

int sb_select_decide(sb_bucket_set_t *set, sb_select_facts_t *f,
		     sb_select_mode_t mode, sb_select_verdict_t *v)
{
	const char *why;

	if (!v || !f || !f->policy || (unsigned) mode > SB_SELECT_WILL_RUN) {
		if (v)
			memset(v, 0, sizeof(*v));
		errno = EINVAL;
		return -1;
	}
	memset(v, 0, sizeof(*v));
	if ((why = sb_select_base_reason(set, f, mode))) {
		v->action = SB_SELECT_BASE;
		v->reason = why;
		return 0;
	}
	/* rule 2 */
	if (f->complete && f->complete(f, set, f->complete_arg) < 0)
		return _failed(v, "facts", errno);
	return _ours(set, f, mode, v);
}

/* Is @reason one of sb_base_reason()'s? */
static bool _base_reason(const char *reason)
{
	return sb_base_reason_text(reason) != NULL;
}

int sb_select_verdict_check(const sb_select_verdict_t *v,
			    const sb_select_facts_t *f,
			    const sb_bucket_set_t *set,
			    sb_select_mode_t mode)
{
	bool fallback;
	size_t b, n;
	int64_t i;

	if (!v || !f) {
		errno = EINVAL;
		return -1;
	}
	switch (v->action) {
	case SB_SELECT_BASE:
		if (!v->reason || v->nodes)
			goto broken;
		if (!strcmp(v->reason, SB_SELECT_OUR_ERROR)) {
			if (!v->failed || !v->err)
				goto broken;
			return 0;
		}
		/* rule 6's fall-backs, after a placement */
		fallback = !strcmp(v->reason, SB_SELECT_FOUND_NONE) ||
			(!strcmp(v->reason, SB_SELECT_PREEMPTION) && v->placed);
		if (fallback) {
			if (!v->placed || v->result == SB_PLACE_RUN ||
			    (mode == SB_SELECT_RUN_NOW &&
			     !f->base.preempt_candidates) ||
			    (mode == SB_SELECT_WILL_RUN &&
			     v->result == SB_PLACE_WAIT) ||
			    (f->base.preempt_candidates !=
			     !strcmp(v->reason, SB_SELECT_PREEMPTION)))
				goto broken;
			return 0;
		}
		/* rule 1 */
		if (!_base_reason(v->reason) || v->placed)
			goto broken;
		return 0;
	case SB_SELECT_NOT_NOW:
		if (v->nodes || !v->placed || v->result == SB_PLACE_RUN ||
		    mode == SB_SELECT_TEST_ONLY ||
		    (mode == SB_SELECT_RUN_NOW &&
		     f->base.preempt_candidates) ||
		    (mode == SB_SELECT_WILL_RUN &&
		     v->result != SB_PLACE_WAIT))
			goto broken;
		return 0;
	case SB_SELECT_OURS:
	case SB_SELECT_NEXT_SET:
		break;
	default:
		goto broken;
	}
	if (!set || !v->nodes || !v->placed || v->result != SB_PLACE_RUN)
		goto broken;
	n = sb_bucket_set_nodes(set);
	if (sb_bitmap_size(v->nodes) != n ||
	    sb_bitmap_count(v->nodes) != f->base.min_nodes ||
	    (f->allowed && sb_bitmap_subset(v->nodes, f->allowed) != 1) ||
	    (f->match && f->match->excluded &&
	     sb_bitmap_intersects(v->nodes, f->match->excluded) != 0))
		goto broken;
	for (i = sb_bitmap_first_set(v->nodes); i >= 0;
	     i = sb_bitmap_next_set(v->nodes, (size_t) i + 1)) {
		b = sb_bucket_of(set, (size_t) i);
		if ((f->unfit && f->unfit[b]) ||
		    (f->match && !sb_chunk_match(sb_bucket_rep(set, b),
						 f->match,
						 &f->match->chunks[0], NULL)))
			goto broken;
	}
	if (mode == SB_SELECT_WILL_RUN && v->start < f->now)
		goto broken;
	/* rule 7: outside this call's nodes, and only then */
	if ((v->action == SB_SELECT_NEXT_SET) !=
	    (mode == SB_SELECT_RUN_NOW && f->offered &&
	     sb_bitmap_subset(v->nodes, f->offered) == 0))
		goto broken;
	return 0;
broken:
	errno = EFAULT;
	return -1;
}
