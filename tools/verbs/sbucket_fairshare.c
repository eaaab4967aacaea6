/*
 * sbucket_fairshare.c - 'sbucket fairshare': compute fair share for an
 * association tree, offline, with Slurm's numbers; --explain is
 * sbucket_fairshare_explain.c's.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Input: one association a line, Account|Parent|User|Shares|RawUsage.
 * Output: sshare's columns (parsable, 6-decimal floats) in sshare's order:
 * depth first from root, users before sub-accounts, each group sorted by
 * name (slurmdb_sort_hierarchical_assoc_list()).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assoc_tree.h"
#include "decimal.h"
#include "fairshare.h"
#include "fairshare_level.h"
#include "sbucket.h"
#include "sbucket_fairshare_explain.h"
#include "sbucket_cluster_fairshare.h"
#include "sbucket_input_assoc.h"
#include "shown.h"

#define PROG "sbucket"
/* 2^64: sshare prints RawUsage as an unsigned 64-bit integer. */
#define USAGE_LIMIT 18446744073709551616.0L


struct opts {
	int algorithm;
	int levels;
	long dampening;
	const char *explain;
	const char *file;
	int levels_set;
	int damp_set;
	int pair_only;		/* --explain=U1,U2: the deciding level only */
};

static void _usage(FILE *f)
{
	fprintf(f,
"Usage: sbucket fairshare --algorithm=ALG [--levels=N] [--dampening=D]\n"
"                         [--explain=USER[,USER2]] FILE\n"
"       sbucket fairshare [OPTIONS]          (the live cluster)\n"
"\n"
"Compute fair share for the association tree in FILE ('-' for standard\n"
"input) as Slurm does, and print it like 'sshare -l -P'. Without FILE the\n"
"tree, shares and usage come from the running slurmctld (through sshare)\n"
"and, unless given, the algorithm, levels and dampening from its\n"
"configuration (PriorityType=priority/bucket, through scontrol).\n"
"\n"
"  --algorithm=ALG   level_based (Slurm 14.11 LEVEL_BASED), fair_tree\n"
"                    (Slurm 22.05 Fair Tree) or classic (pre-Fair Tree)\n"
"  --levels=N        level_based buckets, 1-16 (default 4)\n"
"  --dampening=D     classic FairShareDampeningFactor, >= 1 (default 1)\n"
"  --explain=U[,U2]  explain user U's value level by level from root and,\n"
"                    with U2, which level decides their order; a user with\n"
"                    several associations is named ACCOUNT/USER\n"
"  -h, --help        this text\n"
"\n"
"FILE has one association a line, '|'-separated (blank lines and lines\n"
"starting with '#' are ignored):\n"
"  Account|Parent|User|Shares|RawUsage\n"
"An account line leaves User empty and names its parent account in Parent\n"
"(empty or 'root' for the top level). A user line names its account in\n"
"Account, leaves Parent empty and gives RawUsage (a number >= 0). Shares\n"
"is an integer (0-%" PRIu32 ") or 'parent'. An account's RawUsage is what\n"
"Slurm keeps on it (deleted users' usage included); left empty, it is the\n"
"sum of its children's. Root is implicit; a line 'root||||RawUsage' gives\n"
"its usage. Accounts must be defined before they are used.\n"
"\n"
"Output: Account|User|RawShares|NormShares|RawUsage|EffectvUsage|\n"
"FairShare|LevelFS|FSRaw, one line per association, depth first from\n"
"root. LevelFS is filled for fair_tree, FSRaw (hex) for level_based.\n"
"Exit status: 0 ok, 1 bad input, 2 usage error.\n",
		SB_SHARES_MAX);
}

/* One usage error of 'sbucket fairshare' (sbucket_usage_error()). */
static int _usage_error(const char *opt, const char *arg, const char *what)
{
	return sbucket_usage_error("fairshare", opt, arg, what);
}

/* ---- options ---------------------------------------------------------- */

/*
 * The live cluster's algorithm, and its levels / dampening unless given
 * on the command line. -1 after one error line.
 */
static int _live_params(struct opts *o)
{
	int alg, levels;
	long damp;

	if (sbc_fairshare_params(&alg, &levels, &damp) < 0)
		return -1;
	switch (alg) {
	case SB_FS_LEVEL_BASED:
		o->algorithm = SB_FS_LEVEL_BASED;
		break;
	case SB_FS_FAIR_TREE:
		o->algorithm = SB_FS_FAIR_TREE;
		break;
	default:
		o->algorithm = SB_FS_CLASSIC;
		break;
	}
	/* the cluster's own values are not a usage error for the others */
	if (!o->levels_set && o->algorithm == SB_FS_LEVEL_BASED)
		o->levels = levels;
	if (!o->damp_set && o->algorithm == SB_FS_CLASSIC)
		o->dampening = damp;
	return 0;
}

static int _parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "algorithm", required_argument, NULL, 'a' },
		{ "levels", required_argument, NULL, 'l' },
		{ "dampening", required_argument, NULL, 'd' },
		{ "explain", required_argument, NULL, 'e' },
		{ NULL, 0, NULL, 0 }
	};
	char shown[SB_SHOWN_BUF];
	uint64_t n;
	int c, i;

	memset(o, 0, sizeof(*o));
	o->levels = 4;
	o->dampening = 1;
	sbucket_getopt_start();
	while ((c = sbucket_getopt("fairshare", argc, argv, "h", longopts)) !=
	       -1) {
		const char *v = optarg;

		switch (c) {
		case 'h':
			_usage(stdout);
			return -1;
		case 'a':
			if (!strcmp(v, "level_based"))
				o->algorithm = SB_FS_LEVEL_BASED;
			else if (!strcmp(v, "fair_tree"))
				o->algorithm = SB_FS_FAIR_TREE;
			else if (!strcmp(v, "classic"))
				o->algorithm = SB_FS_CLASSIC;
			else
				return _usage_error("--algorithm", v,
						    "not level_based, "
						    "fair_tree or classic");
			break;
		case 'l':
			if (sb_decimal_in(v, SB_FS_LEVELS_MIN, SB_FS_LEVELS_MAX,
					&n) < 0)
				return _usage_error("--levels", v,
						    "not an integer from 1 "
						    "to 16");
			o->levels = (int) n;
			o->levels_set = 1;
			break;
		case 'd':
			if (sb_decimal_in(v, 1, UINT16_MAX, &n) < 0)
				return _usage_error("--dampening", v,
						    "not an integer from 1 "
						    "to 65535");
			o->dampening = n;
			o->damp_set = 1;
			break;
		case 'e':
			if (!*v)
				return _usage_error("--explain", v,
						    "no user");
			o->explain = v;
			break;
		default:
			return SBUCKET_EXIT_USAGE;
		}
	}
	for (i = optind; i < argc; i++) {
		if (o->file) {
			fprintf(stderr, PROG ": extra argument '%s' (one FILE "
				"only)\n", sb_shown(shown, sizeof(shown),
						    argv[i]));
			return _usage_error(NULL, NULL, NULL);
		}
		o->file = argv[i];
	}
	if (!o->file) {
		o->file = SBUCKET_LIVE_FILE;
		if (o->algorithm == SB_FS_NONE &&
		    _live_params(o) < 0)
			return SBUCKET_EXIT_INPUT;
	}
	if (o->algorithm == SB_FS_NONE)
		return _usage_error("--algorithm", NULL, "is required "
				    "(level_based, fair_tree or classic)");
	if (o->levels_set && o->algorithm != SB_FS_LEVEL_BASED)
		return _usage_error("--levels", NULL,
				    "applies to level_based only");
	if (o->damp_set && o->algorithm != SB_FS_CLASSIC)
		return _usage_error("--dampening", NULL,
				    "applies to classic only");
	return 0;
}

/* ---- input ------------------------------------------------------------ */

/* The tree of @file (the live tree, '-' or a file) into @t. */
static int _read_tree(sb_assoc_tree_t *t, const char **file)
{
	FILE *f;
	int rc;

	if (!strcmp(*file, SBUCKET_LIVE_FILE)) {
		if (!(f = sbc_fairshare_open()))
			return -1;
		*file = "<live tree>";
	} else if (!strcmp(*file, "-")) {
		f = stdin;
		*file = "<stdin>";
	} else if (!(f = fopen(*file, "r"))) {
		fprintf(stderr, PROG ": %s: %s\n", *file, strerror(errno));
		return -1;
	}
	rc = sbi_read_assoc(f, *file, t);
	if (f != stdin)
		fclose(f);
	return rc;
}

/* ---- output ----------------------------------------------------------- */

/* sshare's print_fields_double(): Slurm's "unset" values print empty. */
static void _put_double(double v)
{
	if (v == (double) UINT64_C(0xfffffffffffffffe) ||
	    v == (double) UINT64_MAX || v == 4294967294.0 ||
	    v == 4294967295.0)
		return;
	printf("%f", v);
}

static void _print_line(const sb_assoc_tree_t *t, int id, int alg)
{
	sb_assoc_info_t a;

	sb_assoc_tree_get(t, id, &a);
	printf("%s|%s|", a.account, a.is_user ? a.name : "");
	if (id == SB_ASSOC_ROOT)
		;
	else if (a.shares == SB_SHARES_PARENT)
		printf("parent");
	else
		printf("%" PRIu32, a.shares);
	putchar('|');
	_put_double(a.shares_norm);
	printf("|%" PRIu64 "|", (uint64_t) a.usage_raw);
	_put_double((double) a.usage_efctv);
	putchar('|');
	if (alg == SB_FS_CLASSIC || a.is_user)
		_put_double(a.fs_factor);
	putchar('|');
	if (alg == SB_FS_FAIR_TREE && a.shares != SB_SHARES_PARENT)
		_put_double((double) a.level_fs);
	putchar('|');
	if (alg == SB_FS_LEVEL_BASED)
		printf("%016" PRIX64, a.fs_raw);
	putchar('\n');
}

static int _cmp_names(const sb_assoc_tree_t *t, int x, int y)
{
	sb_assoc_info_t a, b;

	sb_assoc_tree_get(t, x, &a);
	sb_assoc_tree_get(t, y, &b);
	if (a.is_user != b.is_user)
		return a.is_user ? -1 : 1;
	return strcmp(a.name, b.name);
}

/* Children of @id in sshare's order, into @v (returns the count). */
static int _sorted_children(const sb_assoc_tree_t *t, int id, int *v)
{
	int c, k = 0, j;

	for (c = sb_assoc_tree_first_child(t, id); c >= 0;
	     c = sb_assoc_tree_next_sibling(t, c)) {
		for (j = k++; j > 0 && _cmp_names(t, c, v[j - 1]) < 0; j--)
			v[j] = v[j - 1];
		v[j] = c;
	}
	return k;
}

static int _print_tree(const sb_assoc_tree_t *t, int alg)
{
	int n = sb_assoc_tree_count(t);
	int *stack = malloc((size_t) n * sizeof(*stack));
	int *kids = malloc((size_t) n * sizeof(*kids));
	int sp = 0;

	if (!stack || !kids) {
		free(stack);
		free(kids);
		fprintf(stderr, PROG ": %s\n", strerror(ENOMEM));
		return -1;
	}
	printf("Account|User|RawShares|NormShares|RawUsage|EffectvUsage|"
	       "FairShare|LevelFS|FSRaw\n");
	stack[sp++] = SB_ASSOC_ROOT;
	while (sp) {
		int id = stack[--sp], k, i;

		_print_line(t, id, alg);
		k = _sorted_children(t, id, kids);
		/* Push in reverse so the first child prints next. */
		for (i = k - 1; i >= 0; i--)
			stack[sp++] = kids[i];
	}
	free(stack);
	free(kids);
	return 0;
}

/* ---- main ------------------------------------------------------------- */

/* The tree of o.file, computed, printed or explained. */
static int _run(struct opts o);

int sbucket_fairshare_main(int argc, char **argv)
{
	struct opts o;
	int rc;

	if ((rc = _parse_opts(argc, argv, &o)) != 0)
		return rc < 0 ? SBUCKET_EXIT_OK : rc;
	return _run(o);
}

int sbucket_fairshare_live_decide(const char *pair)
{
	struct opts o;

	memset(&o, 0, sizeof(o));
	o.levels = 4;
	o.dampening = 1;
	o.file = SBUCKET_LIVE_FILE;
	o.explain = pair;
	o.pair_only = 1;
	if (_live_params(&o) < 0)
		return SBUCKET_EXIT_INPUT;
	return _run(o);
}

static int _run(struct opts o)
{
	const char *file = o.file;
	sb_assoc_info_t a;
	sb_assoc_tree_t *t = NULL;
	int rc, id, ret = SBUCKET_EXIT_INPUT;

	if (!(t = sb_assoc_tree_create())) {
		fprintf(stderr, PROG ": %s\n", strerror(errno));
		return SBUCKET_EXIT_INPUT;
	}
	if (_read_tree(t, &file) < 0)
		goto out;
	rc = sb_fairshare_compute(t, o.algorithm, o.levels,
				  (uint32_t) o.dampening);
	if (rc < 0) {
		if (errno == ERANGE)
			fprintf(stderr, PROG ": %s: the shares of one level "
				"add up beyond 4294967295 (Slurm would wrap "
				"around)\n", file);
		else
			fprintf(stderr, PROG ": %s: %s\n", file,
				strerror(errno));
		goto out;
	}
	/*
	 * An account's usage is the sum of its children's, but root's line
	 * may give root less than that sum: look at every association.
	 */
	for (id = 0; id < sb_assoc_tree_count(t); id++) {
		sb_assoc_tree_get(t, id, &a);
		if (a.usage_raw >= USAGE_LIMIT) {
			fprintf(stderr, PROG ": %s: RawUsage adds up beyond "
				"18446744073709551615 (sshare's 64-bit "
				"integer)\n", file);
			goto out;
		}
	}
	if (o.explain)
		ret = sbucket_fairshare_explain(t, o.explain, o.algorithm,
						o.levels, o.pair_only);
	else
		ret = _print_tree(t, o.algorithm) < 0 ? SBUCKET_EXIT_INPUT
						      : SBUCKET_EXIT_OK;
	if (fflush(stdout) != 0 && ret == SBUCKET_EXIT_OK)
		ret = SBUCKET_EXIT_INPUT;
out:
	sb_assoc_tree_destroy(t);
	return ret;
}
