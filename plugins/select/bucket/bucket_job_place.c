/*
 * bucket_job_place.c - select_p_job_test() of select/bucket: the job's
 * facts converted once, the decision asked once, its verdict handed to
 * the base plugin.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Which jobs are ours, where they go in each mode, when "not now" is our
 * answer, when we wait for the next node set and when the base decides
 * (and why) are the decision's rules (common/time/select_decide.h), which
 * 'sbucket place', 'sbucket why' and the replay apply offline too. Here:
 *
 *   convert_job_facts()   job_ptr, the partition and the offered nodes
 *                         -> sb_select_facts_t (bucket_convert.c), under
 *                         bucket_lock after state_sync();
 *   sb_select_decide()    the verdict;
 *   then, the lock released, the verdict to slurmctld and the base:
 *     OURS       RUN_NOW, TEST_ONLY: the base's job_test on exactly our
 *                nodes, so it builds the job's resources on them; if it
 *                refuses them, it decides on every node offered ("refused
 *                ours"). WILL_RUN: our nodes, start and CPUs.
 *     NOT_NOW    EINVAL.
 *     NEXT_SET   EINVAL, and the attempt remembered (offers_outside()).
 *     BASE       the base decides on every node offered, as slurmctld
 *                called (offers_base_test()).
 * Each verdict is logged under DebugFlags=SelectType.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "sb_slurm.h"

#include "select_bucket.h"

/* Node names of @nodes, Slurm's hostlist form (xfree it). */
static char *_names(const bitstr_t *nodes)
{
	return bitmap2node_name((bitstr_t *) nodes);
}

static uint32_t _cpus_of(bitstr_t *nodes)
{
	node_record_t *node_ptr;
	uint32_t sum = 0;
	bitoff_t i, last = bit_fls(nodes);

	for (i = bit_ffs(nodes); (i >= 0) && (i <= last); i++)
		if (bit_test(nodes, i) && (node_ptr = node_record_table_ptr[i]))
			sum += node_ptr->config_ptr ?
				node_ptr->config_ptr->cpus : node_ptr->cpus;
	return sum;
}

/* The base decides the call @t on every node offered; @why is logged. */
static int _base_test(const sb_job_test_t *t, const bucket_facts_t *bf,
		      const char *why)
{
	char *hl;
	int rc;

	rc = offers_base_test(t, sb_job_shares(&bf->f.base.share));

	if (slurm_conf.debug_flags & DEBUG_FLAG_SELECT_TYPE) {
		hl = (rc == SLURM_SUCCESS) ? _names(t->bitmap) : NULL;
		log_flag(SELECT_TYPE, "%pJ %s: %s decides (%s): %s%s",
			 t->job_ptr, sb_select_mode_name(bf->mode),
			 base_name(), why,
			 (rc == SLURM_SUCCESS) ? "run on " : "no",
			 hl ? hl : "");
		xfree(hl);
	}
	return rc;
}

/*
 * What the decision said of our job before any answer: the preferences
 * it could not read, the request it placed (@prefer: the preferences it
 * read), what failed. Under bucket_lock (nothing else reads the facts).
 */
static void _log_decision(const sb_job_test_t *t, const bucket_facts_t *bf,
			  const sb_select_verdict_t *v, const char *prefer)
{
	const sb_select_facts_t *f = &bf->f;

	if (v->prefer_err)
		convert_prefer_ignored(t->job_ptr, f->prefer, v->prefer_err);
	if (v->placed && (bf->mode != SB_SELECT_WILL_RUN))
		log_flag(SELECT_TYPE, "%pJ needs %u nodes, each with %u CPUs, %"PRIu64" MB, %"PRIu64" MB tmp%s%s",
			 t->job_ptr, f->base.min_nodes, f->base.node_cpus,
			 f->min_memory, f->min_tmp,
			 prefer ? ", preferring " : "", prefer ? prefer : "");
	if (v->failed && (!strcmp(v->failed, "placement") ||
			  !strcmp(v->failed, "WILL_RUN")))
		error(BUCKET_PFX "%pJ: %s failed: %s", t->job_ptr, v->failed,
		      slurm_strerror(v->err));
}

/* Our nodes the base allocates (RUN_NOW, TEST_ONLY), or it decides. */
static int _base_on_ours(const sb_job_test_t *t, const bucket_facts_t *bf,
			 bitstr_t *ours)
{
	bitstr_t *offered = bit_copy(t->bitmap);
	char *hl;
	int rc;

	bit_copybits(t->bitmap, ours);
	rc = sb_base_job_test(t);
	if (rc != SLURM_SUCCESS) {
		bit_copybits(t->bitmap, offered);
		rc = _base_test(t, bf, SB_SELECT_REFUSED_OURS);
		/*
		 * Only a base that takes other nodes refused our choice; one
		 * that refuses every node refused the job (its licences, a
		 * limit checked there): no matter of ours, said only under
		 * DebugFlags=SelectType.
		 */
		hl = _names(ours);
		if (rc == SLURM_SUCCESS)
			info("%pJ %s: %s refused the nodes we chose (%s) and took others",
			     t->job_ptr, sb_select_mode_name(bf->mode),
			     base_name(), hl);
		else
			log_flag(SELECT_TYPE, "%pJ %s: %s refused the job on our nodes (%s) and on every node offered",
				 t->job_ptr, sb_select_mode_name(bf->mode),
				 base_name(), hl);
		xfree(hl);
	}
	FREE_NULL_BITMAP(offered);
	return rc;
}

extern int job_test(const sb_job_test_t *t)
{
	job_record_t *job_ptr = t->job_ptr;
	const char *mode, *path, *policy, *res_name, *prefer;
	sb_select_verdict_t v;
	bucket_facts_t bf;
	bitstr_t *ours = NULL;
	char *hl;
	int rc;

	slurm_mutex_lock(&bucket_lock);
	state_sync(time(NULL));
	convert_job_facts(&bf, t);
	if (sb_select_decide(bucket_state.set, &bf.f, bf.mode, &v) < 0) {
		/* only a job without a policy gets here: the base's */
		v.action = SB_SELECT_BASE;
		v.reason = SB_SELECT_OUR_ERROR;
	}
	/* a list the decision read is names only; one it could not, none */
	prefer = v.prefer_err ? NULL : bf.f.prefer;
	_log_decision(t, &bf, &v, prefer);
	if (v.nodes) {
		ours = bit_alloc(bucket_state.n);
		convert_sb_to_bitstr(v.nodes, ours);
	}
	/* bucket.conf's policy may be gone once the lock is released */
	policy = sb_policy_name(bf.f.policy->kind);
	convert_job_facts_fini(&bf);
	slurm_mutex_unlock(&bucket_lock);

	mode = sb_select_mode_name(bf.mode);
	path = v.path;
	if ((v.action == SB_SELECT_NOT_NOW) ||
	    ((v.action == SB_SELECT_BASE) && (v.placed || v.failed))) {
		/*
		 * RUN_NOW is offered free nodes only: whatever is missing,
		 * the answer is "not now" (TEST_ONLY decides "never").
		 */
		res_name = v.failed ? "error" :
			(bf.mode == SB_SELECT_RUN_NOW) ? "not now" :
			sb_place_result_name(v.result);
		log_flag(SELECT_TYPE, "%pJ %s: %s (%s path%s%s, policy %s)",
			 job_ptr, mode, res_name, path ? "per-node" : "bucket",
			 path ? ", reason " : "", path ? path : "", policy);
	}
	switch (v.action) {
	case SB_SELECT_NOT_NOW:
		rc = EINVAL;
		break;
	case SB_SELECT_BASE:
		rc = _base_test(t, &bf, v.reason);
		break;
	case SB_SELECT_NEXT_SET:
		if (slurm_conf.debug_flags & DEBUG_FLAG_SELECT_TYPE) {
			hl = _names(ours);
			log_flag(SELECT_TYPE, "%pJ RUN_NOW: our nodes %s are not all in this node set, waiting for the next (policy %s)",
				 job_ptr, hl, policy);
			xfree(hl);
		}
		offers_outside(job_ptr);
		rc = EINVAL;
		break;
	case SB_SELECT_OURS:
		if (slurm_conf.debug_flags & DEBUG_FLAG_SELECT_TYPE) {
			hl = _names(ours);
			if (bf.mode == SB_SELECT_WILL_RUN)
				log_flag(SELECT_TYPE, "%pJ WILL_RUN: start %ld (in %ld s) on %s, policy %s",
					 job_ptr, (long) v.start,
					 (long) (v.start - time(NULL)), hl,
					 policy);
			else
				log_flag(SELECT_TYPE, "%pJ %s: run (%s path%s%s, policy %s%s%s) nodes %s",
					 job_ptr, mode,
					 path ? "per-node" : "bucket",
					 path ? ", reason " : "",
					 path ? path : "", policy,
					 prefer ? ", preferring " : "",
					 prefer ? prefer : "", hl);
			xfree(hl);
		}
		if (bf.mode == SB_SELECT_WILL_RUN) {
			bit_copybits(t->bitmap, ours);
			job_ptr->start_time = (time_t) v.start;
			job_ptr->total_cpus = _cpus_of(t->bitmap);
			rc = SLURM_SUCCESS;
		} else {
			rc = _base_on_ours(t, &bf, ours);
		}
		break;
	default:
		rc = _base_test(t, &bf, SB_SELECT_OUR_ERROR);
		break;
	}
	FREE_NULL_BITMAP(ours);
	sb_select_verdict_fini(&v);
	return rc;
}
