/*
 * base_reason.c - which jobs select/bucket places itself (base_reason.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stddef.h>
#include <string.h>

#include "base_reason.h"

bool sb_job_shares(const sb_share_facts_t *f)
{
	if (f->reboot || f->part_exclusive)
		return false;
	if (f->part_force)
		return true;
	if (f->base_cons)
		return !f->job_exclusive;
	return !f->part_no && f->job_share;
}

const char *sb_base_reason(const sb_base_facts_t *f)
{
	uint32_t per_node;

	if (!f)
		return "no_model";
	if (!f->min_nodes || !f->max_nodes)
		return "no_nodes";
	if (!f->model)
		return "no_model";
	if (sb_job_shares(&f->share))
		return "shared";
	if (f->required_nodes)
		return "required_nodes";
	if (f->contiguous)
		return "contiguous";
	if (f->min_nodes != f->max_nodes && !f->feature_count_call)
		return "node_range";
	per_node = f->node_cpus ? f->node_cpus : 1;
	if (f->min_cpus > (uint64_t) f->min_nodes * per_node)
		return "task_count";
	if (f->core_reservation)
		return "core_reservation";
	if (f->will_run && f->preempt_candidates)
		return "preemption";
	if (f->will_run && f->contiguous_policy)
		return "contiguous_policy";
	return NULL;
}

static const struct {
	const char *reason, *text;
} _texts[] = {
	{ "no_nodes", "the job asks for no nodes" },
	{ "no_model", "select/bucket has no model of the nodes" },
	{ "shared", "the job shares nodes (OverSubscribe)" },
	{ "required_nodes", "the job names nodes it must get (-w)" },
	{ "contiguous", "the job asks for contiguous nodes" },
	{ "node_range", "the job asks for a range of node counts, or none" },
	{ "task_count", "the job needs more CPUs than its node count with "
	  "its per-node minimum gives" },
	{ "core_reservation", "cores of its nodes are reserved (CoreCnt "
	  "reservation)" },
	{ "preemption", "jobs could be preempted for it" },
	{ "contiguous_policy", "NodeAllocationPolicy is CONTIGUOUS" },
};

const char *sb_base_reason_text(const char *reason)
{
	size_t i;

	for (i = 0; reason && i < sizeof(_texts) / sizeof(_texts[0]); i++)
		if (!strcmp(reason, _texts[i].reason))
			return _texts[i].text;
	return NULL;
}
