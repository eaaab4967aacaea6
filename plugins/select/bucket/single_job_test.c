/*
 * single_job_test.c - how slurmctld offers nodes where a select plugin
 * may ask for one job_test() call with every node
 * (SELECT_SINGLE_JOB_TEST, trait SB_HAVE_SELECT_SINGLE_JOB_TEST): we ask
 * for it, and replay for the base the calls slurmctld would have made it
 * (offers_*(), select_bucket.h; bucket_offers.c is the other way).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Why. select/cons_tres asks for the single call: it weighs the nodes
 * itself (sched_weight). select/linear does not, and slurmctld then calls
 * it once per "node set" (the nodes of one NodeName configuration, in
 * order of Weight), adding sets until there are enough nodes and
 * stopping at the first success: that is how linear honours Weight. We
 * must see every node at once, or our policy would only ever choose
 * inside the first node sets that suffice, so select/bucket always asks
 * for the single call; for the jobs it gives to a base that did not ask,
 * _node_sets_run_now() replays slurmctld's calls on the nodes slurmctld
 * passed: the same node sets (nodes of one configuration and one
 * sched_weight, which slurmctld's single-call mode writes into every
 * node), in the same order, with the same rules for when to call, so the
 * base gives the answer it gives without us.
 *
 * Cost: O(N) to group the nodes and O(S) base calls for S node sets, as
 * slurmctld's own loop; only for RUN_NOW of jobs the base places.
 */
#include "config.h"

#include <stdlib.h>

#include "sb_slurm.h"

#include "select_bucket.h"

/* The base asked for the single call itself (linear leaves 0). */
static uint32_t g_single = 0;

typedef struct {
	uint64_t sched_weight;
	int first;			/* lowest node index: config order */
	config_record_t *config;
	bitstr_t *nodes;
} _set_t;

static int _cmp_set(const void *a, const void *b)
{
	const _set_t *x = a, *y = b;

	if (x->sched_weight != y->sched_weight)
		return (x->sched_weight < y->sched_weight) ? -1 : 1;
	return (x->first > y->first) - (x->first < y->first);
}

/* The node sets of @bitmap, sorted as slurmctld sorts them. */
static _set_t *_node_sets(bitstr_t *bitmap, int *nsets)
{
	_set_t *sets = NULL;
	node_record_t *node_ptr;
	bitoff_t i, last = bit_fls(bitmap);
	int n = 0, cap = 0, k;

	for (i = bit_ffs(bitmap); (i >= 0) && (i <= last); i++) {
		if (!bit_test(bitmap, i) || !(node_ptr = node_record_table_ptr[i]))
			continue;
		for (k = n - 1; k >= 0; k--)
			if ((sets[k].config == node_ptr->config_ptr) &&
			    (sets[k].sched_weight == node_ptr->sched_weight))
				break;
		if (k < 0) {
			if (n == cap) {
				cap = cap ? 2 * cap : 8;
				xrecalloc(sets, cap, sizeof(*sets));
			}
			k = n++;
			sets[k].sched_weight = node_ptr->sched_weight;
			sets[k].first = (int) i;
			sets[k].config = node_ptr->config_ptr;
			sets[k].nodes = bit_alloc(bit_size(bitmap));
		}
		bit_set(sets[k].nodes, i);
	}
	if (n > 1)
		qsort(sets, n, sizeof(*sets), _cmp_set);
	*nsets = n;
	return sets;
}

static int _node_sets_run_now(const sb_job_test_t *t, bool shares)
{
	bool accumulate = shares || slurm_preemption_enabled() ||
		(switch_record_cnt > 1);
	bitstr_t *avail = NULL, *try = NULL;
	int nsets = 0, k, rc = EINVAL;
	_set_t *sets = _node_sets(t->bitmap, &nsets);
	sb_job_test_t u = *t;
	uint32_t n;

	if (!nsets)
		goto done;
	avail = bit_alloc(bit_size(t->bitmap));
	for (k = 0; k < nsets; k++) {
		bool last = ((k + 1) == nsets);

		bit_or(avail, sets[k].nodes);
		/* lightly loaded nodes: gather a whole Weight first */
		if (!last && accumulate &&
		    (sets[k].sched_weight == sets[k + 1].sched_weight))
			continue;
		n = bit_set_count(avail);
		if (!last && ((n < t->min_nodes) || (n < t->req_nodes)))
			continue;
		FREE_NULL_BITMAP(try);
		try = bit_copy(avail);
		if (t->preemptee_job_list)
			FREE_NULL_LIST(*t->preemptee_job_list);
		/* only preempt once every node is considered */
		u.bitmap = try;
		u.preemptee_candidates = last ? t->preemptee_candidates : NULL;
		rc = sb_base_job_test(&u);
		if (rc == SLURM_SUCCESS) {
			/* too many: slurmctld ends the tries there */
			if ((uint32_t) bit_set_count(try) > t->max_nodes)
				rc = EINVAL;
			break;
		}
	}
	if (rc == SLURM_SUCCESS)
		bit_copybits(t->bitmap, try);
done:
	for (k = 0; k < nsets; k++)
		FREE_NULL_BITMAP(sets[k].nodes);
	xfree(sets);
	FREE_NULL_BITMAP(avail);
	FREE_NULL_BITMAP(try);
	return rc;
}

extern void offers_base_loaded(void)
{
	g_single = 0;
	(void) (*base.get_info_from_plugin)(SELECT_SINGLE_JOB_TEST, NULL,
					    &g_single);
	debug("base plugin takes one job_test call with every node: %s",
	      g_single ? "yes" : "no");
}

extern bool offers_get_info(int dinfo, void *data)
{
	/* one call with every node, whatever the base wants (see above) */
	if (dinfo != SELECT_SINGLE_JOB_TEST)
		return false;
	*(uint32_t *) data = 1;
	return true;
}

extern void offers_call_seen(void)
{
}

extern int offers_base_test(const sb_job_test_t *t, bool shares)
{
	if (SELECT_IS_MODE_RUN_NOW(t->mode) && !g_single)
		return _node_sets_run_now(t, shares);
	return sb_base_job_test(t);
}

/* Every node comes in one call: nothing to add, nothing to wait for. */
extern bitstr_t *offers_candidates(const sb_job_test_t *t)
{
	return NULL;
}

extern void offers_outside(job_record_t *job_ptr)
{
}
