/*
 * base_reason.h - which jobs select/bucket places itself and which it
 * hands to its base plugin (select/linear or select/cons_tres), and why.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The rule of select_bucket(8) "Which job goes where", on plain facts so
 * that the plugin (from job_record_t, per job_test call) and 'sbucket
 * why' (from scontrol's view of a job) decide alike. select/bucket places
 * whole-node exclusive jobs with a fixed node count; every other job goes
 * to the base with one of these reasons, checked in this order:
 *
 *   no_nodes           the job asks for no nodes (burst buffer only)
 *   no_model           no bucket model of the cluster's nodes (yet)
 *   shared             the job shares nodes (sb_job_shares())
 *   required_nodes     it names nodes it must get (-w)
 *   contiguous         --contiguous
 *   node_range         a range of node counts (-N 3-8) or none (-n16);
 *                      one count of "[a*2&b*4]" is not a range
 *   task_count         more CPUs than its nodes' per-node minimums give
 *   core_reservation   cores of its nodes are reserved (CoreCnt)
 *   preemption         WILL_RUN with jobs it could preempt
 *   contiguous_policy  WILL_RUN under NodeAllocationPolicy=CONTIGUOUS
 *
 * Operations: sb_job_shares, sb_base_reason, sb_base_reason_text: O(1).
 */
#ifndef SB_BASE_REASON_H
#define SB_BASE_REASON_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Whether a job shares its nodes, as slurmctld resolves it for the base
 * (node_scheduler.c, _resolve_shared_status()), from the partition's
 * OverSubscribe and the job's own request.
 */
typedef struct {
	bool reboot;		/* it reboots its nodes: never shares */
	bool part_exclusive;	/* OverSubscribe=EXCLUSIVE */
	bool part_no;		/* OverSubscribe=NO */
	bool part_force;	/* OverSubscribe=FORCE:n with n > 1 */
	bool job_share;		/* --oversubscribe (share_res == 1) */
	bool job_exclusive;	/* --exclusive or told not to share
				 * (share_res == 0, or whole_node == 1) */
	bool base_cons;		/* the base is cons_res or cons_tres */
} sb_share_facts_t;

/*
 * true if the job shares nodes: never with reboot or EXCLUSIVE, always
 * with FORCE:n (n > 1); over a consumable-resource base unless the job
 * is exclusive; over linear only when the partition allows it (not NO)
 * and the job asked to share.
 */
bool sb_job_shares(const sb_share_facts_t *f);

/* What one placement question (a job_test call) is about. */
typedef struct {
	uint32_t min_nodes, max_nodes;	/* of this call (0: none) */
	bool model;			/* a bucket model of these nodes */
	sb_share_facts_t share;
	bool required_nodes;		/* -w names at least one node */
	bool contiguous;
	bool feature_count_call;	/* one count of "[a*2&b*4]" */
	uint64_t min_cpus;		/* the job's CPUs in all */
	uint32_t node_cpus;		/* CPUs each node must have */
	bool core_reservation;		/* reserved cores on its nodes */
	bool will_run;			/* the question is WILL_RUN */
	bool preempt_candidates;	/* with jobs it could preempt */
	bool contiguous_policy;		/* its policy is CONTIGUOUS */
} sb_base_facts_t;

/*
 * The reason the base places this job (a static string from the table
 * above), or NULL when select/bucket places it. NULL @f: "no_model".
 */
const char *sb_base_reason(const sb_base_facts_t *f);

/*
 * One line for people about @reason ("the job shares nodes"), or NULL
 * for a string that is not one of the reasons above.
 */
const char *sb_base_reason_text(const char *reason);

#endif /* SB_BASE_REASON_H */
