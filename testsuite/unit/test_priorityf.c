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
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"
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
		/* Maui docs, example 2 (PREF is ours since issue 18). */
		{ "-LOAD - 5*USAGE", 10, "Maui component with no Slurm "
		  "equivalent", EINVAL },
		{ "PRIORITY + APROCS", 0, "Maui component with no Slurm "
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
		/* Issue 16, item 3: the promised ERANGE for sums too. */
		{ "1e308*CMEM+1e308*CMEM", 11, "coefficients of one "
		  "component add up out of range", ERANGE },
		{ "-1.7e308*LOAD - 1.7e308 LOAD", 16, "coefficients of one "
		  "component add up out of range", ERANGE },
		/* ... and "digits ['.' digits]": no bare trailing dot. */
		{ "5.CMEM", 1, "expected a component after the coefficient",
		  EINVAL },
		{ "5. * CMEM", 1, "expected a component after the "
		  "coefficient", EINVAL },
		{ ".CMEM", 0, "expected a number or a component", EINVAL },
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
	ck_assert(sb_priorityf_eval(&pf, &n, 0) == 40 - 1.5);
	/* Allocated: nothing is available now. */
	n.state = SB_NODE_ALLOCATED;
	n.run_jobs = 2;
	ck_assert(sb_priorityf_eval(&pf, &n, 0) == -1.5 - 2);
	sb_priorityf_parse("CPROCS+CMEM+CDISK+AMEM+ADISK+SPEED+WEIGHT", &pf,
			   NULL, NULL);
	ck_assert(sb_priorityf_eval(&pf, &n, 0) == 4 + 8000 + 100 + 2 + 3);
	n.state = SB_NODE_IDLE;
	n.run_jobs = 0;
	ck_assert(sb_priorityf_eval(&pf, &n, 0) ==
		  4 + 8000 + 100 + 8000 + 100 + 2 + 3);
	/* Maui's PREF example: 5 * PREF - LOAD */
	ck_assert_int_eq(sb_priorityf_parse("5 * PREF - LOAD", &pf, NULL,
					    NULL), 0);
	ck_assert(sb_priorityf_uses_pref(&pf));
	ck_assert(!sb_priorityf_static(&pf));	/* LOAD */
	ck_assert(sb_priorityf_eval(&pf, &n, 0) == -1.5);
	ck_assert(sb_priorityf_eval(&pf, &n, 2) == 10 - 1.5);
	sb_priorityf_parse("PREF+WEIGHT", &pf, NULL, NULL);
	ck_assert(sb_priorityf_static(&pf));
	ck_assert(sb_priorityf_uses_pref(&pf));
	sb_node_fini(&n);
}
END_TEST

/*
 * Issue 16, item 3: the canonical form reads back to the same
 * coefficients, bit for bit: 16- and 17-digit constants (the formatter
 * used to print 15 digits), tiny and huge ones, fixed-seed random ones.
 */
START_TEST(test_fmt_roundtrip)
{
	static const char *const in[] = {
		"1.234567890123456*CMEM",
		"0.30000000000000004*LOAD-0.1*SPEED",
		"1.7976931348623157e308*WEIGHT",
		"4.9406564584124654e-324*CDISK",
		"123456789012345678*CPROCS+1e-300*AMEM",
	};
	sb_test_rng_t rng;
	sb_priorityf_t pf, back;
	char *s;
	size_t i;
	int k;

	for (i = 0; i < sizeof(in) / sizeof(in[0]) + 2000; i++) {
		if (i < sizeof(in) / sizeof(in[0])) {
			ck_assert_int_eq(sb_priorityf_parse(in[i], &pf, NULL,
							    NULL), 0);
		} else {
			if (i == sizeof(in) / sizeof(in[0]))
				sb_test_rng_seed(&rng, 16);
			memset(&pf, 0, sizeof(pf));
			for (k = 0; k < SB_PF_NCOMP; k++) {
				if (sb_test_rng_below(&rng, 2))
					continue;
				pf.used |= 1u << k;
				/* any finite double, by its bits */
				do {
					uint64_t bits = sb_test_rng_next(&rng);

					memcpy(&pf.coef[k], &bits,
					       sizeof(bits));
				} while (!isfinite(pf.coef[k]));
			}
			if (!pf.used)
				continue;
		}
		ck_assert_ptr_nonnull(s = sb_priorityf_fmt(&pf));
		ck_assert_msg(!sb_priorityf_parse(s, &back, NULL, NULL),
			      "'%s' does not parse", s);
		ck_assert_uint_eq(back.used, pf.used);
		for (k = 0; k < SB_PF_NCOMP; k++)
			ck_assert_msg(back.coef[k] == pf.coef[k] ||
				      !(pf.used & (1u << k)),
				      "'%s': component %d: %.17g != %.17g", s,
				      k, back.coef[k], pf.coef[k]);
		free(s);
	}
}
END_TEST

/*
 * Issue 16, item 3: every node gets a finite value, whatever the
 * coefficients and the node's numbers, so the PRIORITY order is a total
 * order. Huge coefficients on CMEM and CDISK used to give inf - inf =
 * NaN on a node with both, which compared equal to everything.
 */
START_TEST(test_eval_saturates)
{
	sb_policy_t p;
	sb_policy_key_t keys[3];
	sb_node_t n[3];
	size_t i;

	memset(&p, 0, sizeof(p));
	p.kind = SB_POLICY_PRIORITY;
	p.pf.used = 1u << SB_PF_CMEM | 1u << SB_PF_CDISK;
	p.pf.coef[SB_PF_CMEM] = 1e308;
	p.pf.coef[SB_PF_CDISK] = -1e308;
	for (i = 0; i < 3; i++) {
		char name[8];

		snprintf(name, sizeof(name), "n%zu", i);
		sb_node_init(&n[i], (uint32_t) i, name);
		n[i].cpus = 1;
	}
	n[0].real_memory = 10;		/* 1e309 - 1e309: was NaN */
	n[0].tmp_disk = 10;
	n[1].real_memory = 0;		/* 0 */
	n[2].real_memory = 10;		/* 1e309: was inf */
	ck_assert(sb_priorityf_eval(&p.pf, &n[0], 0) == 0);
	ck_assert(sb_priorityf_eval(&p.pf, &n[1], 0) == 0);
	ck_assert(sb_priorityf_eval(&p.pf, &n[2], 0) == DBL_MAX);
	n[1].tmp_disk = 10;
	ck_assert(sb_priorityf_eval(&p.pf, &n[1], 0) == -DBL_MAX);
	for (i = 0; i < 3; i++)
		sb_policy_key(&p, &n[i], 0, 0, SB_TIME_INFINITE, &keys[i]);
	sb_policy_sort(keys, 3);
	ck_assert_uint_eq(keys[0].idx, 2);
	ck_assert_uint_eq(keys[1].idx, 0);
	ck_assert_uint_eq(keys[2].idx, 1);
	for (i = 0; i < 3; i++)
		sb_node_fini(&n[i]);
}
END_TEST

START_TEST(test_number)
{
	static const struct {
		const char *in;
		int rc;
		size_t len;
		double v;
	} cases[] = {
		{ "2", 0, 1, 2 }, { "0.5x", 0, 3, 0.5 }, { ".75", 0, 3, .75 },
		{ "1e3*", 0, 3, 1000 }, { "1E+2", 0, 4, 100 },
		{ "1e-400", 0, 6, 0 }, { "5.", 0, 1, 5 }, { "5e", 0, 1, 5 },
		{ "0x10", 0, 1, 0 }, { "007", 0, 3, 7 },
		{ "1e309", -1, 5, 0 }, { "", -1, 0, 0 }, { "-1", -1, 0, 0 },
		{ ".", -1, 0, 0 }, { "inf", -1, 0, 0 }, { "nan", -1, 0, 0 },
		{ " 1", -1, 0, 0 },
		{ "0.00000000000000000000000000000000000000000000000000000"
		  "0000000000000001", 0, 71, 1e-69 },
	};
	char buf[SB_PF_NUMBER_LEN];
	size_t i, len;
	double v;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		v = -1;
		len = 99;
		ck_assert_int_eq(sb_priorityf_number(cases[i].in, &len, &v),
				 cases[i].rc);
		ck_assert_msg(len == cases[i].len, "'%s': len %zu",
			      cases[i].in, len);
		if (!cases[i].rc)
			ck_assert(v == cases[i].v);
		else
			ck_assert(v == -1);
	}
	ck_assert_str_eq(sb_priorityf_number_fmt(buf, sizeof(buf), 0.1), "0.1");
	ck_assert_str_eq(sb_priorityf_number_fmt(buf, sizeof(buf),
						 1.234567890123456),
			 "1.234567890123456");
	ck_assert_str_eq(sb_priorityf_number_fmt(buf, sizeof(buf),
						 0.1 + 0.2),
			 "0.30000000000000004");
	ck_assert_str_eq(sb_priorityf_number_fmt(buf, sizeof(buf), 1e21),
			 "1e+21");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("priorityf");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse_ok);
	tcase_add_test(tc, test_parse_errors);
	tcase_add_test(tc, test_eval);
	tcase_add_test(tc, test_fmt_roundtrip);
	tcase_add_test(tc, test_eval_saturates);
	tcase_add_test(tc, test_number);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
