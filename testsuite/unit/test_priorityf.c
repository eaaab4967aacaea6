/*
 * test_priorityf.c - the PRIORITYF parser and evaluator.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Accepted strings include every example of Maui's documentation that
 * only uses components Slurm can supply; the others must fail at the
 * exact position of the Maui-only component.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "priorityf.h"
#include "sb_test.h"

START_TEST(test_parse_ok)
{
	static const struct {
		const char *in, *canon;
	} ok[] = {
		/* Maui's self-test string (MSys.c). */
		{ "6*LOAD + -.01 * CMEM - JOBCOUNT",
		  "-0.01*CMEM+6*LOAD-JOBCOUNT" },
		/* Maui docs, example 1. */
		{ "SPEED+ .01 * AMEM - 10 * JOBCOUNT",
		  "0.01*AMEM+SPEED-10*JOBCOUNT" },
		{ "JOBCOUNT", "JOBCOUNT" },
		{ "10 * APROCS - LOAD - JOBCOUNT",
		  "10*APROCS-LOAD-JOBCOUNT" },
		{ "load", "LOAD" },
		{ "  -cprocs  ", "-CPROCS" },
		{ "2 CMEM", "2*CMEM" },
		{ "1e3*CDISK+ADISK", "1000*CDISK+ADISK" },
		{ "LOAD+LOAD", "2*LOAD" },
		{ "--SPEED", "SPEED" },
		{ "WEIGHT-SPEED", "-SPEED+WEIGHT" },
		{ "0*LOAD", "0*LOAD" },
	};
	size_t i;
	sb_priorityf_t pf;
	char *s;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		ck_assert_msg(sb_priorityf_parse(ok[i].in, &pf, NULL, NULL)
			      == 0, "parse '%s'", ok[i].in);
		s = sb_priorityf_fmt(&pf);
		ck_assert_str_eq(s, ok[i].canon);
		free(s);
	}
	sb_priorityf_parse("6*LOAD + -.01 * CMEM - JOBCOUNT", &pf, NULL,
			   NULL);
	ck_assert(pf.coef[SB_PF_LOAD] == 6);
	ck_assert(fabs(pf.coef[SB_PF_CMEM] + 0.01) < 1e-12);
	ck_assert(pf.coef[SB_PF_JOBCOUNT] == -1);
	ck_assert(!sb_priorityf_static(&pf));
	ck_assert(!sb_priorityf_uses_weight(&pf));
	sb_priorityf_parse("CPROCS+CMEM+CDISK+SPEED+WEIGHT", &pf, NULL, NULL);
	ck_assert(sb_priorityf_static(&pf));
	ck_assert(sb_priorityf_uses_weight(&pf));
}
END_TEST

START_TEST(test_parse_errors)
{
	static const struct {
		const char *in;
		size_t pos;
		const char *msg;
		int err;
	} bad[] = {
		{ "", 0, "empty expression", EINVAL },
		{ "   ", 3, "empty expression", EINVAL },
		/* Maui docs, example 2 and the PREF example. */
		{ "-LOAD - 5*USAGE", 10, "Maui component with no Slurm "
		  "equivalent", EINVAL },
		{ "PRIORITY + APROCS", 0, "Maui component with no Slurm "
		  "equivalent", EINVAL },
		{ "5 * PREF - LOAD", 4, "Maui component with no Slurm "
		  "equivalent", EINVAL },
		{ "LOAD +", 6, "expected a component at the end", EINVAL },
		{ "LOAD CMEM", 5, "expected '+' or '-' between terms",
		  EINVAL },
		{ "3", 1, "expected a component at the end", EINVAL },
		{ "3*", 2, "expected a component at the end", EINVAL },
		{ "2**LOAD", 2, "expected a component after the coefficient",
		  EINVAL },
		{ "FOO", 0, "unknown component", EINVAL },
		{ "LOAD+LOADX", 5, "unknown component", EINVAL },
		{ "LOAD*2", 4, "expected '+' or '-' between terms", EINVAL },
		{ "(LOAD)", 0, "expected a number or a component", EINVAL },
		{ "1e999*LOAD", 0, "coefficient out of range", ERANGE },
		{ "0x10*LOAD", 1, "unknown component", EINVAL },
	};
	size_t i, pos;
	const char *msg;
	sb_priorityf_t pf, before;

	memset(&before, 0x5a, sizeof(before));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		pf = before;
		pos = 99;
		msg = NULL;
		errno = 0;
		ck_assert_int_eq(sb_priorityf_parse(bad[i].in, &pf, &pos,
						    &msg), -1);
		ck_assert_msg(errno == bad[i].err, "'%s': errno %d",
			      bad[i].in, errno);
		ck_assert_msg(pos == bad[i].pos, "'%s': pos %zu want %zu",
			      bad[i].in, pos, bad[i].pos);
		ck_assert_str_eq(msg, bad[i].msg);
		/* No side effects on failure. */
		ck_assert(!memcmp(&pf, &before, sizeof(pf)));
	}
}
END_TEST

START_TEST(test_eval)
{
	sb_node_t n;
	sb_priorityf_t pf;

	sb_node_init(&n, 0, "n0");
	n.cpus = 4;
	n.real_memory = 8000;
	n.tmp_disk = 100;
	n.load = 1.5;
	n.speed = 2;
	n.weight = 3;
	sb_priorityf_parse("10*APROCS-LOAD-JOBCOUNT", &pf, NULL, NULL);
	ck_assert(sb_priorityf_eval(&pf, &n) == 40 - 1.5);
	/* Allocated: nothing is available now. */
	n.state = SB_NODE_ALLOCATED;
	n.run_jobs = 2;
	ck_assert(sb_priorityf_eval(&pf, &n) == -1.5 - 2);
	sb_priorityf_parse("CPROCS+CMEM+CDISK+AMEM+ADISK+SPEED+WEIGHT", &pf,
			   NULL, NULL);
	ck_assert(sb_priorityf_eval(&pf, &n) == 4 + 8000 + 100 + 2 + 3);
	n.state = SB_NODE_IDLE;
	n.run_jobs = 0;
	ck_assert(sb_priorityf_eval(&pf, &n) ==
		  4 + 8000 + 100 + 8000 + 100 + 2 + 3);
	sb_node_fini(&n);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("priorityf");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse_ok);
	tcase_add_test(tc, test_parse_errors);
	tcase_add_test(tc, test_eval);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
