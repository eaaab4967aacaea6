/*
 * test_base_reason.c - unit tests for common/base_reason: which jobs
 * select/bucket places, against slurmctld's own rule for sharing.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base_reason.h"
#include "sb_test.h"

/*
 * Oracle: node_scheduler.c _resolve_shared_status() (Slurm 22.05) on the
 * raw values: partition max_share (0 EXCLUSIVE, 1 NO, n YES:n, n|FORCE),
 * the job's share_res (0, 1, NO_VAL8) and whole_node (0, 1, 2, 3).
 */
#define FORCE 0x8000
#define NO_VAL8 0xfe

static bool _slurm_shares(bool reboot, unsigned part, unsigned share_res,
			  unsigned whole_node, bool cons)
{
	if (reboot || part == 0)
		return false;
	if ((part & FORCE) && (part & ~FORCE) > 1)
		return true;
	if (cons)
		return !(share_res == 0 || whole_node == 1);
	if (part == 1)
		return false;
	return share_res == 1;
}

START_TEST(test_shares_against_slurm)
{
	static const unsigned parts[] = { 0, 1, 4, FORCE | 1, FORCE | 4 };
	static const unsigned share[] = { 0, 1, NO_VAL8 };
	unsigned p, s, w, rb, cons, checked = 0;

	for (p = 0; p < 5; p++)
		for (s = 0; s < 3; s++)
			for (w = 0; w < 4; w++)
				for (rb = 0; rb < 2; rb++)
					for (cons = 0; cons < 2; cons++) {
		sb_share_facts_t f = {
			.reboot = rb,
			.part_exclusive = parts[p] == 0,
			.part_no = parts[p] == 1,
			.part_force = (parts[p] & FORCE) &&
				(parts[p] & ~FORCE) > 1,
			/* what scontrol's OverSubscribe shows */
			.job_share = share[s] == 1,
			.job_exclusive = share[s] == 0 ||
				(share[s] != 1 && w == 1),
			.base_cons = cons,
		};

		/* share_res 1 with whole_node 1 cannot come from sbatch */
		if (share[s] == 1 && w == 1)
			continue;
		ck_assert_msg(sb_job_shares(&f) ==
			      _slurm_shares(rb, parts[p], share[s], w, cons),
			      "part %x share_res %u whole_node %u reboot %u "
			      "cons %u", parts[p], share[s], w, rb, cons);
		checked++;
	}
	ck_assert_uint_eq(checked, 5 * 3 * 4 * 2 * 2 - 5 * 2 * 2);
}
END_TEST

static sb_base_facts_t _ours(void)
{
	sb_base_facts_t f;

	memset(&f, 0, sizeof(f));
	f.min_nodes = f.max_nodes = 4;
	f.model = true;
	f.share.part_no = true;
	f.min_cpus = 4;
	f.node_cpus = 1;
	return f;
}

START_TEST(test_reasons_in_order)
{
	sb_base_facts_t f = _ours();

	ck_assert_ptr_null(sb_base_reason(&f));
	ck_assert_str_eq(sb_base_reason(NULL), "no_model");
	/* each fact alone gives its reason */
#define ALONE(stmt, want) do { f = _ours(); stmt; \
	ck_assert_str_eq(sb_base_reason(&f), want); } while (0)
	ALONE(f.min_nodes = 0, "no_nodes");
	ALONE(f.max_nodes = 0, "no_nodes");
	ALONE(f.model = false, "no_model");
	ALONE(f.share.part_force = true, "shared");
	ALONE(f.required_nodes = true, "required_nodes");
	ALONE(f.contiguous = true, "contiguous");
	ALONE(f.max_nodes = 8, "node_range");
	ALONE(f.min_cpus = 16, "task_count");
	ALONE(f.core_reservation = true, "core_reservation");
	ALONE((f.will_run = true, f.preempt_candidates = true), "preemption");
	ALONE((f.will_run = true, f.contiguous_policy = true),
	      "contiguous_policy");
	/* not alone: no effect outside WILL_RUN, or a counted feature */
	f = _ours();
	f.preempt_candidates = f.contiguous_policy = true;
	ck_assert_ptr_null(sb_base_reason(&f));
	f = _ours();
	f.max_nodes = 8;
	f.feature_count_call = true;
	ck_assert_ptr_null(sb_base_reason(&f));
	/* the table's order: the first reason wins */
	f = _ours();
	f.required_nodes = f.contiguous = f.core_reservation = true;
	f.min_cpus = 100;
	ck_assert_str_eq(sb_base_reason(&f), "required_nodes");
	f.share.part_force = true;
	ck_assert_str_eq(sb_base_reason(&f), "shared");
	f.min_nodes = 0;
	ck_assert_str_eq(sb_base_reason(&f), "no_nodes");
	/* node_cpus 0 counts as 1 */
	f = _ours();
	f.node_cpus = 0;
	ck_assert_ptr_null(sb_base_reason(&f));
	f.min_cpus = 5;
	ck_assert_str_eq(sb_base_reason(&f), "task_count");
#undef ALONE
}
END_TEST

START_TEST(test_texts)
{
	static const char *const all[] = {
		"no_nodes", "no_model", "shared", "required_nodes",
		"contiguous", "node_range", "task_count", "core_reservation",
		"preemption", "contiguous_policy"
	};
	size_t i;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		ck_assert_ptr_nonnull(sb_base_reason_text(all[i]));
	ck_assert_ptr_null(sb_base_reason_text("forced"));
	ck_assert_ptr_null(sb_base_reason_text(NULL));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("base_reason");
	TCase *tc = tcase_create("base_reason");

	tcase_add_test(tc, test_shares_against_slurm);
	tcase_add_test(tc, test_reasons_in_order);
	tcase_add_test(tc, test_texts);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
