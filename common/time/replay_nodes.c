/*
 * replay_nodes.c - the replay on whole nodes: every start, and every
 * "when could it start" of a reservation, is select/bucket's own
 * decision (select_decide.h), in RUN_NOW or in WILL_RUN on a plan of
 * the running jobs' believed ends (replay.h, "Whole nodes").
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The replay owns the nodes' dynamic state while it runs: a node is
 * ALLOCATED (one job on it) or as the caller gave it (IDLE, DOWN,
 * DRAINED); the bucket set follows each change (sb_bucket_set_update()),
 * and until[i] holds the believed end of the job on node i, which a
 * WILL_RUN plan is built from.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "linear_pick.h"
#include "replay.h"
#include "replay_priv.h"
#include "sb_time.h"
#include "select_decide.h"

int sb__replay_nodes_init(struct sb_replay *r)
{
	size_t i;

	bool linear = r->c.select == SB_REPLAY_SELECT_LINEAR;

	if (!r->c.nodes || (!linear && !r->c.policy) || !r->c.nnodes ||
	    (int64_t) r->c.nnodes != r->c.units ||
	    (unsigned) r->c.select > SB_REPLAY_SELECT_LINEAR ||
	    r->c.sched == SB_REPLAY_CONSERVATIVE ||
	    (linear && r->c.sched != SB_REPLAY_SLURM)) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < r->c.nnodes; i++) {
		const sb_node_t *n = &r->c.nodes[i];

		if (n->index != i || n->run_jobs || n->nbusy ||
		    n->state == SB_NODE_ALLOCATED) {
			errno = EINVAL;
			return -1;
		}
	}
	if (!(r->until = calloc(r->c.nnodes, sizeof(*r->until))) ||
	    !(r->jnodes = calloc(r->n, sizeof(*r->jnodes)))) {
		errno = ENOMEM;
		return -1;
	}
	if (!(r->usable = sb_bitmap_alloc(r->c.nnodes))) {
		errno = ENOMEM;
		return -1;
	}
	for (i = 0; i < r->c.nnodes; i++)
		if (r->c.nodes[i].state == SB_NODE_IDLE)
			sb_bitmap_set(r->usable, i);
	if (!linear) {
		if (!(r->set = sb_bucket_set_create(r->c.nodes, r->c.nnodes,
						    0))) {
			errno = ENOMEM;
			return -1;
		}
		return 0;
	}
	if (!(r->idle = sb_bitmap_dup(r->usable))) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

void sb__replay_nodes_fini(struct sb_replay *r)
{
	size_t i;

	if (r->jnodes)
		for (i = 0; i < r->n; i++)
			sb_bitmap_free(r->jnodes[i]);
	free(r->jnodes);
	free(r->until);
	sb_bucket_set_destroy(r->set);
	sb_bitmap_free(r->usable);
	sb_bitmap_free(r->idle);
}

/* The question of waiting job @j now, in @mode (on @plan in WILL_RUN),
 * for its believed run, on the nodes @allowed (NULL: all). */
static int _decide(struct sb_replay *r, size_t j, sb_select_mode_t mode,
		   const sb_will_run_t *plan, const sb_bitmap_t *allowed,
		   sb_select_verdict_t *v)
{
	const sb_replay_job_t *jb = &r->jobs[j];
	sb_request_t req;
	sb_select_facts_t f;
	int rc = -1;

	sb_request_init(&req);
	req.exclusive = true;
	req.time_limit = r->st[j].est;
	if (!sb_request_add_chunk(&req, (uint32_t) jb->size))
		goto out;
	sb_select_facts_init(&f);
	if (sb_select_facts_request(&f, &req) < 0)
		goto out;
	f.policy = r->c.policy;
	f.now = r->now;
	f.base.share.base_cons = r->c.base_cons;
	f.base.share.part_no = true;	/* Slurm's OverSubscribe default */
	f.plan = plan;
	f.allowed = allowed;
	if (sb_bucket_set_set_now(r->set, r->now) < 0 ||
	    sb_select_decide(r->set, &f, mode, v) < 0)
		goto out;
	if (v->failed) {
		errno = v->err ? v->err : EINVAL;
		goto out;
	}
	if (v->action == SB_SELECT_BASE || v->action == SB_SELECT_NEXT_SET) {
		/* a whole-node exclusive job of one count is select/bucket's:
		 * anything else is a job the replay cannot model */
		errno = EINVAL;
		goto out;
	}
	rc = 0;
out:
	sb_request_fini(&req);
	return rc;
}

/* Ask @mode for @j; OURS: 1 with its nodes (and start), else 0. */
static int _ask(struct sb_replay *r, size_t j, sb_select_mode_t mode,
		const sb_will_run_t *plan, const sb_bitmap_t *allowed,
		int64_t *start, sb_bitmap_t **nodes)
{
	sb_select_verdict_t v;
	int rc = -1;

	*nodes = NULL;
	if (_decide(r, j, mode, plan, allowed, &v) < 0)
		goto out;
	rc = 0;
	if (v.action == SB_SELECT_OURS) {
		if (start)
			*start = v.start;
		*nodes = v.nodes;
		v.nodes = NULL;
		rc = 1;
	}
out:
	sb_select_verdict_fini(&v);
	return rc;
}

/* select/linear's pick of job @j's count on @avail: 1 with the nodes,
 * 0 none, -1. */
static int _linear_pick(struct sb_replay *r, const sb_bitmap_t *avail,
			size_t j, sb_bitmap_t **nodes)
{
	sb_bitmap_t *out = sb_bitmap_alloc(r->c.nnodes);
	int rc;

	*nodes = NULL;
	if (!out)
		return -1;
	rc = sb_linear_pick(avail, (size_t) r->jobs[j].size, out);
	if (rc == 1)
		*nodes = out;
	else
		sb_bitmap_free(out);
	return rc;
}

int sb__replay_nodes_now(struct sb_replay *r, size_t j, sb_bitmap_t **nodes)
{
	if (r->c.select == SB_REPLAY_SELECT_LINEAR)
		return _linear_pick(r, r->idle, j, nodes);
	return _ask(r, j, SB_SELECT_RUN_NOW, NULL, NULL, NULL, nodes);
}

/* qsort has no context: the replay of the one sort. */
static const struct sb_replay *_end_r;

/* Running jobs by believed end, then by start, then by index. */
static int _by_end(const void *pa, const void *pb)
{
	size_t a = *(const size_t *) pa, b = *(const size_t *) pb;
	const struct sb_replay *r = _end_r;
	int64_t ea = sb_time_add(r->out[a].start, r->st[a].est);
	int64_t eb = sb_time_add(r->out[b].start, r->st[b].est);

	if (ea != eb)
		return ea < eb ? -1 : 1;
	if (r->out[a].start != r->out[b].start)
		return r->out[a].start < r->out[b].start ? -1 : 1;
	return a < b ? -1 : a > b;
}

int sb__replay_linear_when(struct sb_replay *r, const sb_bitmap_t *avail,
			   size_t j, int64_t *start, sb_bitmap_t **nodes)
{
	sb_bitmap_t *room = NULL;
	size_t *ends = NULL, k;
	int rc = -1, got;

	*nodes = NULL;
	if (!(room = sb_bitmap_dup(r->idle)) ||
	    sb_bitmap_and(room, avail) < 0)
		goto out;
	if ((got = _linear_pick(r, room, j, nodes)) != 0) {
		*start = r->now;
		rc = got < 0 ? -1 : 0;
		goto out;
	}
	if (r->nrun && !(ends = malloc(r->nrun * sizeof(*ends))))
		goto out;
	if (r->nrun)
		memcpy(ends, r->run, r->nrun * sizeof(*ends));
	_end_r = r;
	qsort(ends, r->nrun, sizeof(*ends), _by_end);
	rc = 1;
	for (k = 0; k < r->nrun; k++) {
		size_t o = ends[k];
		int64_t end = sb_time_add(r->out[o].start, r->st[o].est);

		if (sb_bitmap_or(room, r->jnodes[o]) < 0 ||
		    sb_bitmap_and(room, avail) < 0) {
			rc = -1;
			break;
		}
		if ((got = _linear_pick(r, room, j, nodes)) < 0) {
			rc = -1;
			break;
		}
		if (got) {
			*start = end <= r->now ? r->now + 1 : end;
			rc = 0;
			break;
		}
	}
out:
	free(ends);
	sb_bitmap_free(room);
	return rc;
}

sb_will_run_t *sb__replay_nodes_plan(struct sb_replay *r)
{
	return sb_will_run_create(r->set, r->now, SB_TIME_INFINITE, r->until);
}

int sb__replay_nodes_when(struct sb_replay *r, const sb_will_run_t *plan,
			  const sb_bitmap_t *avail, size_t j, int64_t *start,
			  sb_bitmap_t **nodes)
{
	int rc = _ask(r, j, SB_SELECT_WILL_RUN, plan, avail, start, nodes);

	return rc < 0 ? -1 : !rc;
}

int sb__replay_nodes_hold(sb_will_run_t *plan, const sb_bitmap_t *nodes,
			  int64_t start, int64_t end)
{
	int64_t i;

	for (i = sb_bitmap_first_set(nodes); i >= 0;
	     i = sb_bitmap_next_set(nodes, (size_t) i + 1))
		if (sb_will_run_reserve(plan, (size_t) i, start, end) < 0)
			return -1;
	return 0;
}

/* Node @i runs a job believed to end at @until (0: none now). */
static int _node(struct sb_replay *r, size_t i, bool busy, int64_t until)
{
	sb_node_t *n = &r->c.nodes[i];

	n->state = busy ? SB_NODE_ALLOCATED : SB_NODE_IDLE;
	n->run_jobs = busy ? 1 : 0;
	r->until[i] = until;
	if (!r->set)
		return busy ? sb_bitmap_clear(r->idle, i) :
			      sb_bitmap_set(r->idle, i);
	return sb_bucket_set_update(r->set, i);
}

int sb__replay_nodes_take(struct sb_replay *r, size_t j, sb_bitmap_t *nodes)
{
	int64_t i, until = sb_time_add(r->now, r->st[j].est);

	r->jnodes[j] = nodes;
	for (i = sb_bitmap_first_set(nodes); i >= 0;
	     i = sb_bitmap_next_set(nodes, (size_t) i + 1))
		if (_node(r, (size_t) i, true, until) < 0)
			return -1;
	return 0;
}

int sb__replay_nodes_release(struct sb_replay *r, size_t j)
{
	const sb_bitmap_t *nodes = r->jnodes[j];
	int64_t i;

	for (i = sb_bitmap_first_set(nodes); i >= 0;
	     i = sb_bitmap_next_set(nodes, (size_t) i + 1))
		if (_node(r, (size_t) i, false, 0) < 0)
			return -1;
	sb_bitmap_free(r->jnodes[j]);
	r->jnodes[j] = NULL;
	return 0;
}

void sb__replay_nodes_belief(struct sb_replay *r, size_t j)
{
	const sb_bitmap_t *nodes = r->jnodes[j];
	int64_t i, until = sb_time_add(r->out[j].start, r->st[j].est);

	for (i = sb_bitmap_first_set(nodes); i >= 0;
	     i = sb_bitmap_next_set(nodes, (size_t) i + 1))
		r->until[i] = until;
}

int sb__replay_nodes_check(const struct sb_replay *r)
{
	sb_bitmap_t *seen = sb_bitmap_alloc(r->c.nnodes);
	size_t i, k;
	int rc = -1;

	if (!seen)
		return -1;
	for (k = 0; k < r->nrun; k++) {
		size_t j = r->run[k];
		const sb_bitmap_t *nodes = r->jnodes[j];
		int64_t i2;

		if (!nodes || sb_bitmap_count(nodes) !=
		    (size_t) r->jobs[j].size ||
		    sb_bitmap_intersects(nodes, seen) != 0)
			goto broken;
		for (i2 = sb_bitmap_first_set(nodes); i2 >= 0;
		     i2 = sb_bitmap_next_set(nodes, (size_t) i2 + 1)) {
			const sb_node_t *n = &r->c.nodes[i2];

			if (n->state != SB_NODE_ALLOCATED || n->run_jobs != 1 ||
			    r->until[i2] != sb_time_add(r->out[j].start,
							r->st[j].est))
				goto broken;
			sb_bitmap_set(seen, (size_t) i2);
		}
	}
	for (i = 0; i < r->c.nnodes; i++) {
		const sb_node_t *n = &r->c.nodes[i];

		if (!sb_bitmap_test(seen, i) &&
		    (n->state == SB_NODE_ALLOCATED || n->run_jobs ||
		     r->until[i]))
			goto broken;
	}
	for (i = 0; i < r->n; i++)
		if (r->jnodes[i] && r->st[i].state != SB__R_RUNNING)
			goto broken;
	/* select/linear: idle is usable but the running jobs' nodes */
	for (i = 0; r->idle && i < r->c.nnodes; i++)
		if (sb_bitmap_test(r->idle, i) !=
		    (sb_bitmap_test(r->usable, i) && !sb_bitmap_test(seen, i)))
			goto broken;
	rc = 0;
	goto out;
broken:
	errno = EFAULT;
out:
	sb_bitmap_free(seen);
	return rc;
}
