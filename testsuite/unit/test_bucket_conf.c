/*
 * test_bucket_conf.c - the bucket.conf parser.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * test_inputs[] lists texts with what they must give: the canonical
 * dump for accepted ones, the exact one-line message for the expected
 * failures. Every accepted configuration passes the invariant checker
 * and reads back from its own dump unchanged. Then the accessors, the
 * file reader, and fixed-seed random files against an oracle.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bucket_conf.h"
#include "sb_test.h"

#define DEFAULTS "NodeAllocationPolicy=FIRSTAVAILABLE\n" \
		 "AllowJobPolicies=NONE\n" \
		 "AllowJobPreferences=NO\n"

static const struct {
	const char *in;
	int rc;
	const char *out;	/* rc 0: sb_bucket_conf_fmt(); -1: message */
} test_inputs[] = {
	/* Accepted. */
	{ "", 0, DEFAULTS },
	{ "\n\n# only comments\n   \t\n", 0, DEFAULTS },
	{ "NodeAllocationPolicy=FIRSTAVAILABLE\nAllowJobPolicies=NONE\n", 0,
	  DEFAULTS },
	/* Keys and policy names are case-insensitive; CRLF is fine. */
	{ "nodeallocationpolicy=fastest\r\n", 0,
	  "NodeAllocationPolicy=FASTEST\nAllowJobPolicies=NONE\n"
	  "AllowJobPreferences=NO\n" },
	{ "  NODEALLOCATIONPOLICY=MaxBalance   # comment\n", 0,
	  "NodeAllocationPolicy=MAXBALANCE\nAllowJobPolicies=NONE\n"
	  "AllowJobPreferences=NO\n" },
	/* The base plugin, kept in lower case, after the policies. */
	{ "BaseSelectType=Select/Cons_TRES\n", 0,
	  DEFAULTS "BaseSelectType=select/cons_tres\n" },
	{ "BaseSelectType=select/linear\nNodeName=n1 Speed=2\n", 0,
	  DEFAULTS "BaseSelectType=select/linear\nNodeName=n1 Speed=2\n" },
	{ "BaseSelectType=cons_tres\n", -1,
	  "bucket.conf:1: BaseSelectType=cons_tres: unknown base plugin "
	  "(expected select/linear, select/cons_tres or select/cons_res)" },
	{ "BaseSelectType=select/bucket\n", -1,
	  "bucket.conf:1: BaseSelectType=select/bucket: unknown base plugin "
	  "(expected select/linear, select/cons_tres or select/cons_res)" },
	{ "BaseSelectType=select/linear\nBaseSelectType=select/linear\n",
	  -1, "bucket.conf:2: BaseSelectType=select/linear: duplicate key "
	  "(first set on line 1)" },
	/* Both quote styles; the canonical PriorityF has no blanks. */
	{ "NodeAllocationPolicy=PRIORITY\n"
	  "PriorityF=\"SPEED + .01 * AMEM - 10 * JOBCOUNT\"\n", 0,
	  "NodeAllocationPolicy=PRIORITY\n"
	  "PriorityF=0.01*AMEM+SPEED-10*JOBCOUNT\n"
	  "AllowJobPolicies=NONE\nAllowJobPreferences=NO\n" },
	{ "PriorityF='6*LOAD + -.01 * CMEM - JOBCOUNT'\n"
	  "NodeAllocationPolicy=priority\n", 0,
	  "NodeAllocationPolicy=PRIORITY\n"
	  "PriorityF=-0.01*CMEM+6*LOAD-JOBCOUNT\n"
	  "AllowJobPolicies=NONE\nAllowJobPreferences=NO\n" },
	{ "NodeAllocationPolicy=PRIORITY\nPriorityF=WEIGHT\n", 0,
	  "NodeAllocationPolicy=PRIORITY\nPriorityF=WEIGHT\n"
	  "AllowJobPolicies=NONE\nAllowJobPreferences=NO\n" },
	/* PriorityF only for jobs that ask for PRIORITY. */
	{ "AllowJobPolicies=PRIORITY,FASTEST\nPriorityF=CPROCS\n", 0,
	  "NodeAllocationPolicy=FIRSTAVAILABLE\nPriorityF=CPROCS\n"
	  "AllowJobPolicies=FASTEST,PRIORITY\nAllowJobPreferences=NO\n" },
	/* The cluster's own policy is allowed anyway: it drops out. */
	{ "NodeAllocationPolicy=FASTEST\n"
	  "AllowJobPolicies=\" fastest , minresource \"\n", 0,
	  "NodeAllocationPolicy=FASTEST\nAllowJobPolicies=MINRESOURCE\n"
	  "AllowJobPreferences=NO\n" },
	{ "NodeAllocationPolicy=FASTEST\nAllowJobPolicies=FASTEST\n", 0,
	  "NodeAllocationPolicy=FASTEST\nAllowJobPolicies=NONE\n"
	  "AllowJobPreferences=NO\n" },
	/* Every other policy listed is ALL. */
	{ "NodeAllocationPolicy=CPULOAD\nPriorityF=SPEED\n"
	  "AllowJobPolicies=FIRSTAVAILABLE,LASTAVAILABLE,MINRESOURCE,"
	  "CONTIGUOUS,MAXBALANCE,FASTEST,PRIORITY\n", 0,
	  "NodeAllocationPolicy=CPULOAD\nPriorityF=SPEED\n"
	  "AllowJobPolicies=ALL\nAllowJobPreferences=NO\n" },
	{ "AllowJobPolicies=all\nPriorityF=SPEED\n", 0,
	  "NodeAllocationPolicy=FIRSTAVAILABLE\nPriorityF=SPEED\n"
	  "AllowJobPolicies=ALL\nAllowJobPreferences=NO\n" },
	/* Speeds: grouped by value, slowest first, names in hostlist order. */
	{ "NodeName=n[1-4],n9 Speed=2\n"
	  "nodename=n[5-8] SPEED=.5\n"
	  "NodeName=n10 Speed=2.0   # same speed as n[1-4]\n", 0,
	  DEFAULTS "NodeName=n[5-8] Speed=0.5\n"
	  "NodeName=n[1-4,9-10] Speed=2\n" },
	{ "NodeName=\"n[001-003],x.y_z-1\" Speed=1e3\n"
	  "NodeName=a Speed=0.1\nNodeName=b Speed=1e-5\n"
	  "NodeName=c Speed=0.30000000000000004\n", 0,
	  DEFAULTS "NodeName=b Speed=1e-05\nNodeName=a Speed=0.1\n"
	  "NodeName=c Speed=0.30000000000000004\n"
	  "NodeName=n[001-003],x.y_z-1 Speed=1000\n" },
	{ "NodeName=r[1-2]n[1-2] Speed=3\n", 0,
	  DEFAULTS "NodeName=r1n[1-2],r2n[1-2] Speed=3\n" },
	/* What jobs may choose: globally, and per partition. */
	{ "allowjobpreferences=yes\n", 0,
	  "NodeAllocationPolicy=FIRSTAVAILABLE\nAllowJobPolicies=NONE\n"
	  "AllowJobPreferences=YES\n" },
	{ "PartitionName=b.x_y-1 AllowJobPolicies=\"FASTEST, PRIORITY\"\n"
	  "PriorityF=SPEED\nNodeName=n1 Speed=2\n"
	  "partitionname=a allowjobpreferences=No\n", 0,
	  "NodeAllocationPolicy=FIRSTAVAILABLE\nPriorityF=SPEED\n"
	  "AllowJobPolicies=NONE\nAllowJobPreferences=NO\n"
	  "NodeName=n1 Speed=2\n"
	  "PartitionName=a AllowJobPolicies=NONE AllowJobPreferences=NO\n"
	  "PartitionName=b.x_y-1 AllowJobPolicies=FASTEST,PRIORITY "
	  "AllowJobPreferences=NO\n" },
	/* The cluster's policy is every partition's too. */
	{ "PartitionName=p AllowJobPolicies=ALL\nPriorityF=LOAD\n"
	  "NodeAllocationPolicy=CPULOAD\n", 0,
	  "NodeAllocationPolicy=CPULOAD\nPriorityF=LOAD\n"
	  "AllowJobPolicies=NONE\nAllowJobPreferences=NO\n"
	  "PartitionName=p AllowJobPolicies=ALL AllowJobPreferences=NO\n" },

	/* Expected failures: the one message, exactly. */
	{ "NodeAllocationPolicy=FASTESTT\n", -1,
	  "bucket.conf:1: NodeAllocationPolicy=FASTESTT: unknown policy "
	  "(expected one of FIRSTAVAILABLE, LASTAVAILABLE, MINRESOURCE, "
	  "CPULOAD, CONTIGUOUS, MAXBALANCE, FASTEST, PRIORITY)" },
	{ "# policy\n\n\nNodeAllocationPolicy=BESTFIT\n", -1,
	  "bucket.conf:4: NodeAllocationPolicy=BESTFIT: unknown policy "
	  "(expected one of FIRSTAVAILABLE, LASTAVAILABLE, MINRESOURCE, "
	  "CPULOAD, CONTIGUOUS, MAXBALANCE, FASTEST, PRIORITY)" },
	{ "NodeAllocationPolicy=\n", -1,
	  "bucket.conf:1: NodeAllocationPolicy=: empty value" },
	{ "NodeAllocationPolicy=\"\"\n", -1,
	  "bucket.conf:1: NodeAllocationPolicy=: empty value" },
	{ "NodeAllocationPolicy=FASTEST\nnodeallocationpolicy=FASTEST\n", -1,
	  "bucket.conf:2: nodeallocationpolicy=FASTEST: duplicate key "
	  "(first set on line 1)" },
	{ "NodeAllocationPolicy=FASTEST AllowJobPolicies=ALL\n", -1,
	  "bucket.conf:1: NodeAllocationPolicy=FASTEST: unexpected "
	  "'AllowJobPolicies=ALL' after the value (one setting a line; "
	  "quote a value that has blanks)" },
	/* The unquoted expression is caught, not cut at "SPEED". */
	{ "NodeAllocationPolicy=PRIORITY\nPriorityF=SPEED - 10*JOBCOUNT\n",
	  -1, "bucket.conf:2: PriorityF=SPEED: unexpected '-' after the "
	  "value (one setting a line; quote a value that has blanks)" },
	{ "NodeAllocPolicy=FASTEST\n", -1,
	  "bucket.conf:1: NodeAllocPolicy=FASTEST: unknown key (known: "
	  "NodeAllocationPolicy, PriorityF, AllowJobPolicies, "
	  "AllowJobPreferences, BaseSelectType, NodeName, PartitionName)" },
	{ "FASTEST\n", -1, "bucket.conf:1: FASTEST: expected KEY=VALUE" },
	{ "=FASTEST\n", -1, "bucket.conf:1: =FASTEST: expected KEY=VALUE" },
	{ "PriorityF=\"SPEED - LOAD\n", -1,
	  "bucket.conf:1: PriorityF=\"SPEED - LOAD: no closing quote (\")" },
	{ "PriorityF='SPEED'x\n", -1,
	  "bucket.conf:1: PriorityF='SPEED'x: text right after the "
	  "closing quote (')" },
	/* '#' always starts a comment, quotes or not. */
	{ "PriorityF=\"SPEED # fast\"\n", -1,
	  "bucket.conf:1: PriorityF=\"SPEED: no closing quote (\")" },
	/* PRIORITYF errors give the column inside the value. */
	{ "NodeAllocationPolicy=PRIORITY\nPriorityF=\"SPEED - 5*USAGE\"\n",
	  -1, "bucket.conf:2: PriorityF=\"SPEED - 5*USAGE\": column 11 "
	  "('USAGE'): Maui component with no Slurm equivalent" },
	{ "PriorityF=\"LOAD +\"\n", -1,
	  "bucket.conf:1: PriorityF=\"LOAD +\": column 7 (end of value): "
	  "expected a component at the end" },
	{ "PriorityF=2**LOAD\n", -1,
	  "bucket.conf:1: PriorityF=2**LOAD: column 3 ('*'): expected a "
	  "component after the coefficient" },
	{ "PriorityF=1e+999*SPEED\n", -1,
	  "bucket.conf:1: PriorityF=1e+999*SPEED: column 1 ('1e+999'): "
	  "coefficient out of range" },
	{ "PriorityF=LOADX\n", -1,
	  "bucket.conf:1: PriorityF=LOADX: column 1 ('LOADX'): unknown "
	  "component" },
	/* Checks between keys name the line to change. */
	{ "NodeAllocationPolicy=PRIORITY\n", -1,
	  "bucket.conf:1: NodeAllocationPolicy=PRIORITY: needs PriorityF= "
	  "(the PRIORITYF expression)" },
	{ "# jobs\nAllowJobPolicies=ALL\n", -1,
	  "bucket.conf:2: AllowJobPolicies=ALL: allows PRIORITY, which "
	  "needs PriorityF= (or list the policies jobs may ask for)" },
	{ "PriorityF=SPEED\nNodeAllocationPolicy=FASTEST\n", -1,
	  "bucket.conf:1: PriorityF=SPEED: unused: only policy PRIORITY "
	  "reads it (set NodeAllocationPolicy=PRIORITY or allow PRIORITY "
	  "in AllowJobPolicies)" },
	{ "AllowJobPolicies=PRIORITY\nNodeAllocationPolicy=PRIORITY\n", -1,
	  "bucket.conf:1: AllowJobPolicies=PRIORITY: allows PRIORITY, "
	  "which needs PriorityF= (or list the policies jobs may ask for)" },
	{ "AllowJobPolicies=FASTEST,ALL\n", -1,
	  "bucket.conf:1: AllowJobPolicies=FASTEST,ALL: ALL and NONE stand "
	  "alone, not in a list" },
	{ "AllowJobPolicies=NONE,FASTEST\n", -1,
	  "bucket.conf:1: AllowJobPolicies=NONE,FASTEST: ALL and NONE stand "
	  "alone, not in a list" },
	{ "AllowJobPolicies=FASTEST,,CPULOAD\n", -1,
	  "bucket.conf:1: AllowJobPolicies=FASTEST,,CPULOAD: an empty name "
	  "in the list" },
	{ "AllowJobPolicies=FASTEST,\n", -1,
	  "bucket.conf:1: AllowJobPolicies=FASTEST,: an empty name in the "
	  "list" },
	{ "AllowJobPolicies=FASTEST,fastest\n", -1,
	  "bucket.conf:1: AllowJobPolicies=FASTEST,fastest: policy "
	  "'fastest' is listed twice" },
	{ "AllowJobPolicies=yes\n", -1,
	  "bucket.conf:1: AllowJobPolicies=yes: unknown policy 'yes' "
	  "(expected NONE, ALL or a comma-separated list of FIRSTAVAILABLE, "
	  "LASTAVAILABLE, MINRESOURCE, CPULOAD, CONTIGUOUS, MAXBALANCE, "
	  "FASTEST, PRIORITY)" },
	/* Node lines. */
	{ "NodeName=n[1-\n", -1,
	  "bucket.conf:1: NodeName=n[1-: column 2: unbalanced '['" },
	{ "NodeName=n1\n", -1,
	  "bucket.conf:1: NodeName=n1: nothing to set (known node "
	  "attributes: Speed)" },
	{ "NodeName= Speed=2\n", -1,
	  "bucket.conf:1: NodeName=: empty value" },
	{ "NodeName=default Speed=2\n", -1,
	  "bucket.conf:1: NodeName=default: not supported (a node that is "
	  "not named keeps Speed=1)" },
	{ "NodeName=\"n1 n2\" Speed=2\n", -1,
	  "bucket.conf:1: NodeName=\"n1 n2\": 'n1 n2' is not a node name "
	  "(letters, digits, '.', '_', '-')" },
	{ "NodeName=n1 Speed=0\n", -1,
	  "bucket.conf:1: Speed=0: must be greater than 0" },
	{ "NodeName=n1 Speed=-1\n", -1,
	  "bucket.conf:1: Speed=-1: not a speed (a number such as 2, 0.5 "
	  "or 1e3)" },
	{ "NodeName=n1 Speed=inf\n", -1,
	  "bucket.conf:1: Speed=inf: not a speed (a number such as 2, 0.5 "
	  "or 1e3)" },
	{ "NodeName=n1 Speed=0x10\n", -1,
	  "bucket.conf:1: Speed=0x10: not a speed (a number such as 2, 0.5 "
	  "or 1e3)" },
	{ "NodeName=n1 Speed=1e999\n", -1,
	  "bucket.conf:1: Speed=1e999: out of range" },
	{ "NodeName=n1 Speed=\n", -1,
	  "bucket.conf:1: Speed=: empty value" },
	{ "NodeName=n1 Speed=2 speed=3\n", -1,
	  "bucket.conf:1: speed=3: given twice on this line" },
	{ "NodeName=n1 Weight=3\n", -1,
	  "bucket.conf:1: Weight=3: unknown node attribute (known: Speed; "
	  "the others come from slurm.conf)" },
	{ "Speed=3\n", -1,
	  "bucket.conf:1: Speed=3: a node attribute: it goes on a NodeName= "
	  "line, after the names" },
	{ "NodeName=n1 Speed=2 3\n", -1,
	  "bucket.conf:1: 3: expected KEY=VALUE" },
	{ "NodeName=n[1-4] Speed=2\nNodeName=n[3-5] Speed=1\n", -1,
	  "bucket.conf:2: NodeName=n[3-5]: node 'n3' is already named on "
	  "line 1" },
	{ "NodeName=n[1-4],n2 Speed=2\n", -1,
	  "bucket.conf:1: NodeName=n[1-4],n2: node 'n2' is named twice on "
	  "this line" },
	/* The first error in line order wins, repeated nodes included. */
	{ "NodeName=b Speed=1\nNodeName=a,b Speed=1\nFOO=1\n", -1,
	  "bucket.conf:2: NodeName=a,b: node 'b' is already named on line "
	  "1" },
	{ "NodeName=a[1-9] Speed=1\nNodeName=a9 Speed=x\n", -1,
	  "bucket.conf:2: NodeName=a9: node 'a9' is already named on line "
	  "1" },
	{ "NodeName=a[1-2] Speed=1\nFOO=1\nNodeName=a2 Speed=1\n", -1,
	  "bucket.conf:2: FOO=1: unknown key (known: NodeAllocationPolicy, "
	  "PriorityF, AllowJobPolicies, AllowJobPreferences, "
	  "BaseSelectType, NodeName, PartitionName)" },
	{ "NodeName=z Speed=1\nNodeName=y Speed=1\nNodeName=y,z Speed=1\n",
	  -1, "bucket.conf:3: NodeName=y,z: node 'y' is already named on "
	  "line 2" },
	/* Partition lines. */
	{ "PartitionName=p1\n", -1,
	  "bucket.conf:1: PartitionName=p1: nothing to set (known partition "
	  "settings: AllowJobPolicies, AllowJobPreferences)" },
	{ "PartitionName= AllowJobPreferences=YES\n", -1,
	  "bucket.conf:1: PartitionName=: empty value" },
	{ "PartitionName=Default AllowJobPreferences=YES\n", -1,
	  "bucket.conf:1: PartitionName=Default: not supported (a partition "
	  "that is not named takes the global AllowJobPolicies, "
	  "AllowJobPreferences)" },
	{ "PartitionName=a,,b AllowJobPreferences=YES\n", -1,
	  "bucket.conf:1: PartitionName=a,,b: an empty name in the list" },
	{ "PartitionName=a, AllowJobPreferences=YES\n", -1,
	  "bucket.conf:1: PartitionName=a,: an empty name in the list" },
	{ "PartitionName=p[1-2] AllowJobPreferences=YES\n", -1,
	  "bucket.conf:1: PartitionName=p[1-2]: 'p[1-2]' is not a partition "
	  "name (letters, digits, '.', '_', '-')" },
	{ "PartitionName=a AllowJobPreferences=maybe\n", -1,
	  "bucket.conf:1: AllowJobPreferences=maybe: expected YES or NO" },
	{ "AllowJobPreferences=1\n", -1,
	  "bucket.conf:1: AllowJobPreferences=1: expected YES or NO" },
	{ "AllowJobPreferences=YES\nAllowJobPreferences=NO\n", -1,
	  "bucket.conf:2: AllowJobPreferences=NO: duplicate key (first set "
	  "on line 1)" },
	{ "PartitionName=a AllowJobPreferences=YES AllowJobPreferences=NO\n",
	  -1, "bucket.conf:1: AllowJobPreferences=NO: given twice on this "
	  "line" },
	{ "PartitionName=a AllowJobPolicies=FASTEST allowjobpolicies=NONE\n",
	  -1, "bucket.conf:1: allowjobpolicies=NONE: given twice on this "
	  "line" },
	{ "PartitionName=a AllowJobPolicies=FASTST\n", -1,
	  "bucket.conf:1: AllowJobPolicies=FASTST: unknown policy 'FASTST' "
	  "(expected NONE, ALL or a comma-separated list of FIRSTAVAILABLE, "
	  "LASTAVAILABLE, MINRESOURCE, CPULOAD, CONTIGUOUS, MAXBALANCE, "
	  "FASTEST, PRIORITY)" },
	{ "PartitionName=a MaxTime=10\n", -1,
	  "bucket.conf:1: MaxTime=10: unknown partition setting (known: "
	  "AllowJobPolicies, AllowJobPreferences; the others come from "
	  "slurm.conf)" },
	{ "PartitionName=a AllowJobPreferences=\n", -1,
	  "bucket.conf:1: AllowJobPreferences=: empty value" },
	{ "PartitionName=a,b AllowJobPreferences=YES\n"
	  "PartitionName=c,b AllowJobPreferences=NO\n", -1,
	  "bucket.conf:2: PartitionName=c,b: partition 'b' is already named "
	  "on line 1" },
	{ "PartitionName=a,b,a AllowJobPreferences=YES\n", -1,
	  "bucket.conf:1: PartitionName=a,b,a: partition 'a' is named twice "
	  "on this line" },
	{ "PartitionName=a AllowJobPolicies=PRIORITY\n", -1,
	  "bucket.conf:1: AllowJobPolicies=PRIORITY: allows PRIORITY, which "
	  "needs PriorityF= (or list the policies jobs may ask for)" },
	{ "PartitionName=a AllowJobPolicies=FASTEST\n"
	  "PartitionName=b AllowJobPolicies=ALL\n", -1,
	  "bucket.conf:2: AllowJobPolicies=ALL: allows PRIORITY, which "
	  "needs PriorityF= (or list the policies jobs may ask for)" },
	{ "PriorityF=SPEED\nPartitionName=a AllowJobPolicies=FASTEST\n", -1,
	  "bucket.conf:1: PriorityF=SPEED: unused: only policy PRIORITY "
	  "reads it (set NodeAllocationPolicy=PRIORITY or allow PRIORITY "
	  "in AllowJobPolicies)" },
	{ "AllowJobPreferences=YES PartitionName=a\n", -1,
	  "bucket.conf:1: AllowJobPreferences=YES: unexpected "
	  "'PartitionName=a' after the value (one setting a line; quote a "
	  "value that has blanks)" },
	/* Line-level errors come before the checks between keys. */
	{ "NodeAllocationPolicy=PRIORITY\nNodeName=n1 Speed=0\n", -1,
	  "bucket.conf:2: Speed=0: must be greater than 0" },
	/* Messages stay one printable line. */
	{ "NodeAllocationPolicy=\"FAST\tEST\x01\"\n", -1,
	  "bucket.conf:1: NodeAllocationPolicy=\"FAST?EST?\": unknown policy "
	  "(expected one of FIRSTAVAILABLE, LASTAVAILABLE, MINRESOURCE, "
	  "CPULOAD, CONTIGUOUS, MAXBALANCE, FASTEST, PRIORITY)" },
};

/* Parse, check, dump, and read the dump back to the same dump. */
static char *_roundtrip(const char *in)
{
	char err[SB_BUCKET_CONF_ERRLEN] = "", err2[SB_BUCKET_CONF_ERRLEN];
	sb_bucket_conf_t *c, *c2;
	char *s, *s2;

	c = sb_bucket_conf_parse(in, NULL, err, sizeof(err));
	ck_assert_msg(c, "'%s': %s", in, err);
	ck_assert_int_eq(sb_bucket_conf_check(c), 0);
	ck_assert_ptr_nonnull(s = sb_bucket_conf_fmt(c));
	c2 = sb_bucket_conf_parse(s, "dump", err2, sizeof(err2));
	ck_assert_msg(c2, "dump of '%s' does not read back: %s", in, err2);
	ck_assert_int_eq(sb_bucket_conf_check(c2), 0);
	ck_assert_ptr_nonnull(s2 = sb_bucket_conf_fmt(c2));
	ck_assert_str_eq(s2, s);
	free(s2);
	sb_bucket_conf_free(c2);
	sb_bucket_conf_free(c);
	return s;
}

START_TEST(test_table)
{
	char err[SB_BUCKET_CONF_ERRLEN];
	sb_bucket_conf_t *c;
	size_t i;
	char *s;

	for (i = 0; i < sizeof(test_inputs) / sizeof(test_inputs[0]); i++) {
		const char *in = test_inputs[i].in;

		if (test_inputs[i].rc == 0) {
			s = _roundtrip(in);
			ck_assert_msg(!strcmp(s, test_inputs[i].out),
				      "'%s':\ngot\n%swant\n%s", in, s,
				      test_inputs[i].out);
			free(s);
			continue;
		}
		strcpy(err, "untouched");
		errno = 0;
		c = sb_bucket_conf_parse(in, NULL, err, sizeof(err));
		ck_assert_msg(!c, "'%s' was accepted", in);
		ck_assert_int_eq(errno, EINVAL);
		ck_assert_msg(!strcmp(err, test_inputs[i].out),
			      "'%s':\ngot  %s\nwant %s", in, err,
			      test_inputs[i].out);
		ck_assert(!strchr(err, '\n'));
	}
}
END_TEST

START_TEST(test_accessors)
{
	static const char text[] =
		"NodeAllocationPolicy=FASTEST\n"
		"PriorityF='SPEED - 10*JOBCOUNT'\n"
		"AllowJobPolicies=minresource,PRIORITY\n"
		"NodeName=n[1-3] Speed=2.5\n"
		"NodeName=m7 Speed=0.5\n";
	char err[SB_BUCKET_CONF_ERRLEN];
	sb_bucket_conf_t *c;
	const sb_bucket_conf_node_t *n;
	const sb_priorityf_t *pf;
	sb_policy_t pol, before;
	int k;

	c = sb_bucket_conf_parse(text, NULL, err, sizeof(err));
	ck_assert_msg(c, "%s", err);
	ck_assert_int_eq(sb_bucket_conf_check(c), 0);
	ck_assert_int_eq(sb_bucket_conf_policy(c)->kind, SB_POLICY_FASTEST);
	ck_assert_ptr_nonnull(pf = sb_bucket_conf_priorityf(c));
	ck_assert(pf->coef[SB_PF_SPEED] == 1);
	ck_assert(pf->coef[SB_PF_JOBCOUNT] == -10);
	ck_assert_uint_eq(pf->used, (1u << SB_PF_SPEED) |
			  (1u << SB_PF_JOBCOUNT));

	/* The cluster's policy and the listed ones, nothing else. */
	for (k = 0; k < SB_POLICY_COUNT; k++)
		ck_assert_int_eq(sb_bucket_conf_job_allowed(c, NULL, k),
				 k == SB_POLICY_FASTEST ||
				 k == SB_POLICY_MINRESOURCE ||
				 k == SB_POLICY_PRIORITY);
	ck_assert(!sb_bucket_conf_job_allowed(c, NULL, SB_POLICY_COUNT));
	ck_assert(!sb_bucket_conf_job_allowed(c, "p",
					      (sb_policy_kind_t) -1));

	memset(&before, 0x5a, sizeof(before));
	pol = before;
	ck_assert_int_eq(sb_bucket_conf_job_policy(c, NULL, "Priority",
						   &pol), 0);
	ck_assert_int_eq(pol.kind, SB_POLICY_PRIORITY);
	ck_assert(pol.pf.coef[SB_PF_JOBCOUNT] == -10);
	ck_assert_int_eq(sb_bucket_conf_job_policy(c, NULL, "fastest",
						   &pol), 0);
	ck_assert_int_eq(pol.kind, SB_POLICY_FASTEST);
	pol = before;
	errno = 0;
	ck_assert_int_eq(sb_bucket_conf_job_policy(c, NULL, "CPULOAD",
						   &pol), -1);
	ck_assert_int_eq(errno, EPERM);
	ck_assert(!memcmp(&pol, &before, sizeof(pol)));
	errno = 0;
	ck_assert_int_eq(sb_bucket_conf_job_policy(c, NULL, "FAST", &pol), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert(!memcmp(&pol, &before, sizeof(pol)));
	errno = 0;
	ck_assert_int_eq(sb_bucket_conf_job_policy(c, NULL, NULL, &pol), -1);
	ck_assert_int_eq(errno, EINVAL);

	/* Nodes: by exact name, in strcmp() order. */
	ck_assert_uint_eq(sb_bucket_conf_node_count(c), 4);
	ck_assert_str_eq(sb_bucket_conf_node_at(c, 0)->name, "m7");
	ck_assert_str_eq(sb_bucket_conf_node_at(c, 3)->name, "n3");
	errno = 0;
	ck_assert_ptr_null(sb_bucket_conf_node_at(c, 4));
	ck_assert_int_eq(errno, ERANGE);
	ck_assert_ptr_nonnull(n = sb_bucket_conf_node(c, "n2"));
	ck_assert(n->speed == 2.5);
	ck_assert_uint_eq(n->line, 4);
	ck_assert_ptr_nonnull(n = sb_bucket_conf_node(c, "m7"));
	ck_assert(n->speed == 0.5);
	ck_assert_uint_eq(n->line, 5);
	errno = 0;
	ck_assert_ptr_null(sb_bucket_conf_node(c, "N2"));
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_ptr_null(sb_bucket_conf_node(c, "n4"));
	ck_assert_ptr_null(sb_bucket_conf_node(c, ""));
	sb_bucket_conf_free(c);

	/* PRIORITY as the cluster policy: ready for sb_place(). */
	c = sb_bucket_conf_parse("NodeAllocationPolicy=PRIORITY\n"
				 "PriorityF=CMEM+WEIGHT\n", NULL, err,
				 sizeof(err));
	ck_assert_msg(c, "%s", err);
	ck_assert_int_eq(sb_bucket_conf_policy(c)->kind, SB_POLICY_PRIORITY);
	ck_assert(sb_priorityf_uses_weight(&sb_bucket_conf_policy(c)->pf));
	ck_assert(sb_bucket_conf_policy(c)->pf.coef[SB_PF_CMEM] == 1);
	ck_assert_int_eq(sb_bucket_conf_job_policy(c, NULL, "FASTEST",
						   &pol), -1);
	ck_assert_int_eq(errno, EPERM);
	sb_bucket_conf_free(c);

	/* The base plugin: a static, canonical name. */
	c = sb_bucket_conf_parse("basESelecttype=SELECT/CONS_TRES\n", NULL,
				 NULL, 0);
	ck_assert_ptr_nonnull(c);
	ck_assert_str_eq(sb_bucket_conf_base(c), "select/cons_tres");
	ck_assert_int_eq(sb_bucket_conf_check(c), 0);
	sb_bucket_conf_free(c);

	/* Defaults. */
	c = sb_bucket_conf_parse("", NULL, NULL, 0);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(sb_bucket_conf_policy(c)->kind,
			 SB_POLICY_FIRSTAVAILABLE);
	ck_assert_ptr_null(sb_bucket_conf_priorityf(c));
	ck_assert_ptr_null(sb_bucket_conf_base(c));
	ck_assert_uint_eq(sb_bucket_conf_node_count(c), 0);
	ck_assert_ptr_null(sb_bucket_conf_node(c, "n1"));
	for (k = 0; k < SB_POLICY_COUNT; k++)
		ck_assert_int_eq(sb_bucket_conf_job_allowed(c, "any", k),
				 k == SB_POLICY_FIRSTAVAILABLE);
	ck_assert(!sb_bucket_conf_job_prefer(c, NULL));
	ck_assert(!sb_bucket_conf_job_prefer(c, "any"));
	ck_assert_uint_eq(sb_bucket_conf_part_count(c), 0);
	sb_bucket_conf_free(c);
}
END_TEST

/*
 * What a job may choose, per partition: a PartitionName= line's keys,
 * the global ones for what it does not set and for every partition not
 * named; the submit side's "allowed somewhere".
 */
START_TEST(test_partitions)
{
	static const char text[] =
		"NodeAllocationPolicy=MINRESOURCE\n"
		"PartitionName=gpu,debug AllowJobPreferences=yes\n"
		"PartitionName=fast AllowJobPolicies=FASTEST\n"
		"PartitionName=none AllowJobPolicies=NONE "
		"AllowJobPreferences=NO\n"
		"AllowJobPolicies=CPULOAD\n";
	char err[SB_BUCKET_CONF_ERRLEN], *dump;
	sb_bucket_conf_t *c;
	const sb_bucket_conf_part_t *pt;
	sb_policy_t pol;
	int k;

	c = sb_bucket_conf_parse(text, NULL, err, sizeof(err));
	ck_assert_msg(c, "%s", err);
	ck_assert_int_eq(sb_bucket_conf_check(c), 0);
	/* partitions in strcmp() order, each with its line */
	ck_assert_uint_eq(sb_bucket_conf_part_count(c), 4);
	ck_assert_str_eq(sb_bucket_conf_part_at(c, 0)->name, "debug");
	ck_assert_uint_eq(sb_bucket_conf_part_at(c, 0)->line, 2);
	ck_assert_str_eq(sb_bucket_conf_part_at(c, 1)->name, "fast");
	ck_assert_ptr_nonnull(pt = sb_bucket_conf_part_at(c, 3));
	ck_assert_str_eq(pt->name, "none");
	ck_assert_uint_eq(pt->line, 4);
	errno = 0;
	ck_assert_ptr_null(sb_bucket_conf_part_at(c, 4));
	ck_assert_int_eq(errno, ERANGE);
	for (k = 0; k < SB_POLICY_COUNT; k++) {
		bool own = k == SB_POLICY_MINRESOURCE;

		/* gpu, debug: the global list (set after their line) */
		ck_assert_int_eq(sb_bucket_conf_job_allowed(c, "gpu", k),
				 own || k == SB_POLICY_CPULOAD);
		ck_assert_int_eq(sb_bucket_conf_job_allowed(c, "debug", k),
				 own || k == SB_POLICY_CPULOAD);
		ck_assert_int_eq(sb_bucket_conf_job_allowed(c, "fast", k),
				 own || k == SB_POLICY_FASTEST);
		ck_assert_int_eq(sb_bucket_conf_job_allowed(c, "none", k),
				 own);
		/* a partition not named, or none: the global settings */
		ck_assert_int_eq(sb_bucket_conf_job_allowed(c, "other", k),
				 own || k == SB_POLICY_CPULOAD);
		ck_assert_int_eq(sb_bucket_conf_job_allowed(c, NULL, k),
				 own || k == SB_POLICY_CPULOAD);
		/* names are case-sensitive, as Slurm's */
		ck_assert_int_eq(sb_bucket_conf_job_allowed(c, "FAST", k),
				 own || k == SB_POLICY_CPULOAD);
	}
	ck_assert(sb_bucket_conf_job_prefer(c, "gpu"));
	ck_assert(sb_bucket_conf_job_prefer(c, "debug"));
	ck_assert(!sb_bucket_conf_job_prefer(c, "fast"));
	ck_assert(!sb_bucket_conf_job_prefer(c, "none"));
	ck_assert(!sb_bucket_conf_job_prefer(c, "other"));
	ck_assert(!sb_bucket_conf_job_prefer(c, NULL));
	ck_assert_int_eq(sb_bucket_conf_job_policy(c, "fast", "fastest",
						   &pol), 0);
	ck_assert_int_eq(pol.kind, SB_POLICY_FASTEST);
	errno = 0;
	ck_assert_int_eq(sb_bucket_conf_job_policy(c, "gpu", "fastest",
						   &pol), -1);
	ck_assert_int_eq(errno, EPERM);
	ck_assert_int_eq(sb_bucket_conf_job_policy(c, "none", "MinResource",
						   &pol), 0);
	/* the submit side: allowed in some partition */
	ck_assert_int_eq(sb_bucket_conf_job_option(c, "b.conf", "FASTEST",
						   err, sizeof(err)),
			 SB_POLICY_FASTEST);
	ck_assert_int_eq(sb_bucket_conf_job_option(c, "b.conf", "MAXBALANCE",
						   err, sizeof(err)), -1);
	ck_assert_int_eq(sb_bucket_conf_prefer_option(c, "b.conf", "x", err,
						      sizeof(err)), 0);
	/* the canonical form: what holds for each, one line each */
	ck_assert_ptr_nonnull(dump = _roundtrip(text));
	ck_assert_str_eq(dump,
		"NodeAllocationPolicy=MINRESOURCE\n"
		"AllowJobPolicies=CPULOAD\n"
		"AllowJobPreferences=NO\n"
		"PartitionName=debug AllowJobPolicies=CPULOAD "
		"AllowJobPreferences=YES\n"
		"PartitionName=fast AllowJobPolicies=FASTEST "
		"AllowJobPreferences=NO\n"
		"PartitionName=gpu AllowJobPolicies=CPULOAD "
		"AllowJobPreferences=YES\n"
		"PartitionName=none AllowJobPolicies=NONE "
		"AllowJobPreferences=NO\n");
	free(dump);
	sb_bucket_conf_free(c);

	/* preferences nowhere: refused where the job is submitted */
	c = sb_bucket_conf_parse("PartitionName=a AllowJobPolicies=ALL\n"
				 "PriorityF=SPEED\n", NULL, err, sizeof(err));
	ck_assert_msg(c, "%s", err);
	errno = 0;
	ck_assert_int_eq(sb_bucket_conf_prefer_option(c, "/etc/b.conf",
						      "big\nmem", err,
						      sizeof(err)), -1);
	ck_assert_int_eq(errno, EPERM);
	ck_assert_str_eq(err, "--bucket-prefer=big?mem: not allowed to jobs "
			 "(AllowJobPreferences in /etc/b.conf)");
	ck_assert_int_eq(sb_bucket_conf_prefer_option(NULL, NULL, "x", NULL,
						      0), 0);
	/* ALL in one partition: every policy may be asked for somewhere */
	ck_assert_int_eq(sb_bucket_conf_job_option(c, "b.conf", "PRIORITY",
						   err, sizeof(err)),
			 SB_POLICY_PRIORITY);
	ck_assert(sb_bucket_conf_job_allowed(c, "a", SB_POLICY_PRIORITY));
	ck_assert(!sb_bucket_conf_job_allowed(c, "b", SB_POLICY_PRIORITY));
	sb_bucket_conf_free(c);
}
END_TEST

START_TEST(test_args)
{
	char err[16];

	errno = 0;
	ck_assert_ptr_null(sb_bucket_conf_parse(NULL, NULL, NULL, 0));
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_ptr_null(sb_bucket_conf_load(NULL, NULL, 0));
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(sb_bucket_conf_check(NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_ptr_null(sb_bucket_conf_fmt(NULL));
	ck_assert_int_eq(errno, EINVAL);
	sb_bucket_conf_free(NULL);

	/* A short buffer gets the start of the message, terminated. */
	ck_assert_ptr_null(sb_bucket_conf_parse("X=1", "f", err,
						sizeof(err)));
	ck_assert_str_eq(err, "f:1: X=1: unkno");
	ck_assert_ptr_null(sb_bucket_conf_parse("X=1", "f", err, 1));
	ck_assert_str_eq(err, "");
	/* No buffer at all is fine. */
	ck_assert_ptr_null(sb_bucket_conf_parse("X=1", "f", NULL, 99));
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

/* Write @len bytes of @text to a new temporary file; its path in @path. */
static void _tmpfile(char *path, const char *text, size_t len)
{
	int fd;

	strcpy(path, "/tmp/test_bucket_conf.XXXXXX");
	ck_assert_int_ge(fd = mkstemp(path), 0);
	ck_assert_int_eq(write(fd, text, len), (ssize_t) len);
	close(fd);
}

START_TEST(test_load)
{
	static const char text[] =
		"# bucket.conf\n"
		"NodeAllocationPolicy=MAXBALANCE\n"
		"NodeName=n[1-2] Speed=3\n";
	char path[64], err[SB_BUCKET_CONF_ERRLEN], want[256], *a, *b;
	sb_bucket_conf_t *c, *d;
	char *big;
	size_t i, len;

	/* The file and the string give the same configuration. */
	_tmpfile(path, text, strlen(text));
	c = sb_bucket_conf_load(path, err, sizeof(err));
	ck_assert_msg(c, "%s", err);
	ck_assert_int_eq(sb_bucket_conf_check(c), 0);
	d = sb_bucket_conf_parse(text, NULL, err, sizeof(err));
	ck_assert_ptr_nonnull(a = sb_bucket_conf_fmt(c));
	ck_assert_ptr_nonnull(b = sb_bucket_conf_fmt(d));
	ck_assert_str_eq(a, b);
	free(a);
	free(b);
	sb_bucket_conf_free(c);
	sb_bucket_conf_free(d);
	unlink(path);

	/* Errors name the path as given. */
	_tmpfile(path, "Speed=1\n", 8);
	ck_assert_ptr_null(sb_bucket_conf_load(path, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s:1: Speed=1: a node attribute: it "
		 "goes on a NodeName= line, after the names", path);
	ck_assert_str_eq(err, want);
	unlink(path);

	_tmpfile(path, "# ok\nNodeName=n1 Speed=2\x00\n", 26);
	errno = 0;
	ck_assert_ptr_null(sb_bucket_conf_load(path, err, sizeof(err)));
	ck_assert_int_eq(errno, EINVAL);
	snprintf(want, sizeof(want), "%s:2: a NUL byte (not a text file?)",
		 path);
	ck_assert_str_eq(err, want);
	unlink(path);

	errno = 0;
	ck_assert_ptr_null(sb_bucket_conf_load(path, err, sizeof(err)));
	ck_assert_int_eq(errno, ENOENT);
	snprintf(want, sizeof(want), "%s: %s", path, strerror(ENOENT));
	ck_assert_str_eq(err, want);

	errno = 0;
	ck_assert_ptr_null(sb_bucket_conf_load("/", err, sizeof(err)));
	ck_assert_int_eq(errno, EISDIR);
	snprintf(want, sizeof(want), "/: %s", strerror(EISDIR));
	ck_assert_str_eq(err, want);

	/* A file larger than the read buffer's first sizes. */
	len = 0;
	ck_assert_ptr_nonnull(big = malloc(40 * 5000 + 64));
	for (i = 0; i < 5000; i++)
		len += (size_t) sprintf(big + len,
					"NodeName=node%zu Speed=%zu\n", i,
					i % 7 + 1);
	len += (size_t) sprintf(big + len, "NodeAllocationPolicy=FASTEST");
	_tmpfile(path, big, len);
	c = sb_bucket_conf_load(path, err, sizeof(err));
	ck_assert_msg(c, "%s", err);
	ck_assert_int_eq(sb_bucket_conf_check(c), 0);
	ck_assert_uint_eq(sb_bucket_conf_node_count(c), 5000);
	ck_assert(sb_bucket_conf_node(c, "node4999")->speed == 4999 % 7 + 1);
	ck_assert_int_eq(sb_bucket_conf_policy(c)->kind, SB_POLICY_FASTEST);
	sb_bucket_conf_free(c);
	unlink(path);
	free(big);
}
END_TEST

/*
 * --bucket-policy as the SPANK plugin checks it: known names in any
 * case, AllowJobPolicies when bucket.conf is at hand, any known name
 * when it is not; one printable line naming option and value (issue
 * 16, item 8: the value used to be echoed raw).
 */
START_TEST(test_job_option)
{
	char err[SB_BUCKET_CONF_ERRLEN];
	sb_bucket_conf_t *c;

	ck_assert_ptr_nonnull(c = sb_bucket_conf_parse(
		"NodeAllocationPolicy=FIRSTAVAILABLE\n"
		"AllowJobPolicies=FASTEST\n", NULL, err, sizeof(err)));
	ck_assert_int_eq(sb_bucket_conf_job_option(c, "/etc/b.conf",
						   "fastest", err, sizeof(err)),
			 SB_POLICY_FASTEST);
	ck_assert_int_eq(sb_bucket_conf_job_option(c, "/etc/b.conf",
						   "FirstAvailable", err,
						   sizeof(err)),
			 SB_POLICY_FIRSTAVAILABLE);
	errno = 0;
	ck_assert_int_eq(sb_bucket_conf_job_option(c, "/etc/b.conf",
						   "MINRESOURCE", err,
						   sizeof(err)), -1);
	ck_assert_int_eq(errno, EPERM);
	ck_assert_str_eq(err, "--bucket-policy=MINRESOURCE: not allowed to "
			 "jobs (AllowJobPolicies in /etc/b.conf)");
	ck_assert_int_eq(sb_bucket_conf_job_option(NULL, NULL, "MINRESOURCE",
						   err, sizeof(err)),
			 SB_POLICY_MINRESOURCE);
	errno = 0;
	ck_assert_int_eq(sb_bucket_conf_job_option(c, "/etc/b.conf",
						   "FAST\nEST\x1b", err,
						   sizeof(err)), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_str_eq(err, "--bucket-policy=FAST?EST?: unknown policy "
			 "(expected one of FIRSTAVAILABLE, LASTAVAILABLE, "
			 "MINRESOURCE, CPULOAD, CONTIGUOUS, MAXBALANCE, "
			 "FASTEST, PRIORITY)");
	ck_assert_int_eq(sb_bucket_conf_job_option(NULL, NULL, "", err,
						   sizeof(err)), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(strncmp(err, "--bucket-policy=: unknown", 25), 0);
	ck_assert_int_eq(sb_bucket_conf_job_option(NULL, NULL, NULL, NULL, 0),
			 -1);
	sb_bucket_conf_free(c);
}
END_TEST

/*
 * Issue 16, item 1: what is not a regular file of sane size is refused
 * before it is read. A FIFO used to block in fopen() until a writer
 * came, a link to /dev/zero to be read until memory ran out, and a
 * large file to be read whole. The tests run under a memory cap and a
 * short timeout (see main()), so the old reader fails them instead of
 * hanging.
 */
START_TEST(test_load_not_regular)
{
	char dir[] = "/tmp/test_bucket_conf.XXXXXX", path[64], err[256];
	char want[128];
	int fd;

	sb_test_limit_memory((size_t) 512 << 20);
	ck_assert_ptr_nonnull(mkdtemp(dir));

	snprintf(path, sizeof(path), "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	errno = 0;
	ck_assert_ptr_null(sb_bucket_conf_load(path, err, sizeof(err)));
	ck_assert_int_eq(errno, EINVAL);
	snprintf(want, sizeof(want), "%s: not a regular file (a FIFO)", path);
	ck_assert_str_eq(err, want);
	unlink(path);

	snprintf(path, sizeof(path), "%s/zero", dir);
	ck_assert_int_eq(symlink("/dev/zero", path), 0);
	errno = 0;
	ck_assert_ptr_null(sb_bucket_conf_load(path, err, sizeof(err)));
	ck_assert_int_eq(errno, EINVAL);
	snprintf(want, sizeof(want), "%s: not a regular file (a character "
		 "device)", path);
	ck_assert_str_eq(err, want);
	unlink(path);

	/* Sparse: one byte over the limit, costing no disk. */
	snprintf(path, sizeof(path), "%s/big", dir);
	ck_assert_int_ge(fd = open(path, O_WRONLY | O_CREAT, 0600), 0);
	ck_assert_int_eq(ftruncate(fd, SB_BUCKET_CONF_BYTES_MAX + 1), 0);
	close(fd);
	errno = 0;
	ck_assert_ptr_null(sb_bucket_conf_load(path, err, sizeof(err)));
	ck_assert_int_eq(errno, EFBIG);
	snprintf(want, sizeof(want), "%s: larger than %d bytes", path,
		 SB_BUCKET_CONF_BYTES_MAX);
	ck_assert_str_eq(err, want);
	unlink(path);

	/* At the limit the file is read (and refused for its NUL bytes). */
	ck_assert_int_ge(fd = open(path, O_WRONLY | O_CREAT, 0600), 0);
	ck_assert_int_eq(ftruncate(fd, SB_BUCKET_CONF_BYTES_MAX), 0);
	close(fd);
	errno = 0;
	ck_assert_ptr_null(sb_bucket_conf_load(path, err, sizeof(err)));
	ck_assert_int_eq(errno, EINVAL);
	snprintf(want, sizeof(want), "%s:1: a NUL byte (not a text file?)",
		 path);
	ck_assert_str_eq(err, want);
	unlink(path);
	rmdir(dir);
}
END_TEST

/*
 * Issue 16, item 2: node names are counted from the hostlist before any
 * is made, against a limit for the whole file. A 29-byte typo used to
 * cost seconds and most of a gigabyte (under the cap: ENOMEM) at every
 * start, reconfigure and sbatch before it was refused, or was accepted.
 */
START_TEST(test_node_limit)
{
	char err[SB_BUCKET_CONF_ERRLEN], text[128];
	sb_bucket_conf_t *c;

	sb_test_limit_memory((size_t) 512 << 20);
	errno = 0;
	ck_assert_ptr_null(sb_bucket_conf_parse("NodeName=n[1-10000000] "
						"Speed=2\n", NULL, err,
						sizeof(err)));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_str_eq(err, "bucket.conf:1: NodeName=n[1-10000000]: more "
			 "than 1048576 node names in the file");
	/* Brackets multiply: counted as a product, not range by range. */
	ck_assert_ptr_null(sb_bucket_conf_parse("NodeName=r[1-2000]n[1-600] "
						"Speed=2\n", NULL, err,
						sizeof(err)));
	ck_assert_str_eq(err, "bucket.conf:1: NodeName=r[1-2000]n[1-600]: "
			 "more than 1048576 node names in the file");
	/* A syntax error after a huge range: found without expanding. */
	ck_assert_ptr_null(sb_bucket_conf_parse(
		"NodeName=a_rather_long_node_name_prefix[1-9999999],b[ "
		"Speed=2\n", NULL, err, sizeof(err)));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_str_eq(err, "bucket.conf:1: NodeName=a_rather_long_node_"
			 "name_prefix[1-9999999],b[: column 44: unbalanced "
			 "'['");
	/* The limit counts every line. */
	snprintf(text, sizeof(text), "NodeName=n[1-%d] Speed=2\n"
		 "NodeName=m1 Speed=3\n", SB_BUCKET_CONF_NODES_MAX);
	ck_assert_ptr_null(sb_bucket_conf_parse(text, NULL, err,
						sizeof(err)));
	ck_assert_str_eq(err, "bucket.conf:2: NodeName=m1: more than 1048576 "
			 "node names in the file");
	text[strcspn(text, "\n") + 1] = '\0';
	c = sb_bucket_conf_parse(text, NULL, err, sizeof(err));
	ck_assert_msg(c, "%s", err);
	ck_assert_uint_eq(sb_bucket_conf_node_count(c),
			  SB_BUCKET_CONF_NODES_MAX);
	sb_bucket_conf_free(c);
}
END_TEST

/*
 * Fixed-seed random files: NodeName lines over disjoint random ranges
 * of "cN" with random speeds, in random order, global keys mixed in.
 * Every node lookup matches the oracle (the speed drawn for it, or not
 * named), and the dump reads back unchanged.
 */
START_TEST(test_random)
{
	enum { MAXN = 400 };
	sb_test_rng_t rng;
	double want[MAXN];
	size_t wline[MAXN];
	char *text, name[64], err[SB_BUCKET_CONF_ERRLEN];
	size_t len, line, lo, hi, i, named;
	double sp;
	sb_bucket_conf_t *c;
	const sb_bucket_conf_node_t *n;
	int round, k;

	ck_assert_ptr_nonnull(text = malloc(64 * MAXN + 256));
	sb_test_rng_seed(&rng, 20261122);
	for (round = 0; round < 300; round++) {
		len = 0;
		line = 0;
		named = 0;
		for (i = 0; i < MAXN; i++)
			want[i] = 0;
		k = (int) sb_test_rng_below(&rng, SB_POLICY_COUNT - 1);
		for (lo = 0; lo < MAXN; lo = hi + 1) {
			hi = lo + (size_t) sb_test_rng_below(&rng, 20);
			if (hi >= MAXN)
				hi = MAXN - 1;
			if (k >= 0 && sb_test_rng_below(&rng, 8) == 0) {
				/* PRIORITY is last: never picked here. */
				len += (size_t) sprintf(text + len,
					"NodeAllocationPolicy=%s\n",
					sb_policy_name((sb_policy_kind_t) k));
				line++;
				k = -1;
			}
			if (sb_test_rng_below(&rng, 3) == 0)
				continue;	/* not named: default */
			sp = (double) sb_test_rng_range(&rng, 1, 400) / 8;

			len += (size_t) sprintf(text + len,
				"%sNodeName=c[%zu-%zu] %s=%g\n",
				sb_test_rng_below(&rng, 2) ? "" : "  ", lo, hi,
				sb_test_rng_below(&rng, 2) ? "Speed" : "speed",
				sp);
			line++;
			for (i = lo; i <= hi; i++) {
				want[i] = sp;
				wline[i] = line;
				named++;
			}
		}
		c = sb_bucket_conf_parse(text, NULL, err, sizeof(err));
		ck_assert_msg(c, "round %d: %s", round, err);
		ck_assert_int_eq(sb_bucket_conf_check(c), 0);
		ck_assert_uint_eq(sb_bucket_conf_node_count(c), named);
		for (i = 0; i < MAXN; i++) {
			snprintf(name, sizeof(name), "c%zu", i);
			n = sb_bucket_conf_node(c, name);
			if (want[i] == 0) {
				ck_assert_ptr_null(n);
				continue;
			}
			ck_assert_msg(n && n->speed == want[i] &&
				      n->line == wline[i], "round %d: %s",
				      round, name);
		}
		sb_bucket_conf_free(c);
		free(_roundtrip(text));

		/* The same file with one node repeated at the end. */
		i = (size_t) sb_test_rng_below(&rng, MAXN);
		len += (size_t) sprintf(text + len, "NodeName=c%zu Speed=1\n",
					i);
		c = sb_bucket_conf_parse(text, NULL, err, sizeof(err));
		if (want[i] == 0) {
			ck_assert_msg(c, "round %d: %s", round, err);
			snprintf(name, sizeof(name), "c%zu", i);
			ck_assert_ptr_nonnull(n = sb_bucket_conf_node(c, name));
			ck_assert(n->speed == 1 && n->line == line + 1);
			sb_bucket_conf_free(c);
			continue;
		}
		ck_assert_ptr_null(c);
		snprintf(name, sizeof(name), "node 'c%zu' is already named on "
			 "line %zu", i, wline[i]);
		ck_assert_msg(strstr(err, name), "round %d: %s", round, err);
	}
	free(text);
}
END_TEST

/*
 * Damaged files: every byte of a good file replaced in turn by
 * characters that matter to the syntax. Each result is either a valid
 * configuration (it passes the checker and reads back) or one
 * message line that names the file and a line.
 */
START_TEST(test_damage)
{
	static const char good[] =
		"NodeAllocationPolicy=PRIORITY\n"
		"PriorityF=\"SPEED - 2*LOAD\"\n"
		"AllowJobPolicies=FASTEST,MAXBALANCE\n"
		"NodeName=n[1-3],m Speed=1.5 # fast ones\n";
	static const char subst[] = " =\"'#,[]-\n\tx0.";
	char text[sizeof(good)], err[SB_BUCKET_CONF_ERRLEN];
	sb_bucket_conf_t *c;
	size_t i, j, accepted = 0, refused = 0;

	for (i = 0; i + 1 < sizeof(good); i++)
		for (j = 0; j + 1 < sizeof(subst); j++) {
			memcpy(text, good, sizeof(good));
			text[i] = subst[j];
			c = sb_bucket_conf_parse(text, NULL, err, sizeof(err));
			if (c) {
				ck_assert_int_eq(sb_bucket_conf_check(c), 0);
				sb_bucket_conf_free(c);
				free(_roundtrip(text));
				accepted++;
				continue;
			}
			ck_assert_int_eq(errno, EINVAL);
			ck_assert_msg(!strncmp(err, "bucket.conf:", 12) &&
				      !strchr(err, '\n'), "%s", err);
			refused++;
		}
	ck_assert_uint_gt(accepted, 0);
	ck_assert_uint_gt(refused, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bucket_conf");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_table);
	tcase_add_test(tc, test_accessors);
	tcase_add_test(tc, test_args);
	tcase_add_test(tc, test_load);
	tcase_add_test(tc, test_random);
	tcase_add_test(tc, test_damage);
	tcase_add_test(tc, test_job_option);
	tcase_add_test(tc, test_partitions);
	suite_add_tcase(s, tc);
	/* What used to hang or eat memory: fail fast instead. */
	tc = tcase_create("limits");
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, test_load_not_regular);
	tcase_add_test(tc, test_node_limit);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
