/*
 * sbucket_fairshare.c - 'sbucket fairshare': compute and explain fair
 * share for an association tree, offline, with Slurm's numbers.
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
#include "fairshare_classic.h"
#include "fairshare_level.h"
#include "fairshare_tree.h"
#include "sbucket.h"
#include "sbucket_fairshare_live.h"
#include "shown.h"

#define PROG "sbucket"
#define MAX_LINE 4096
/* 2^64: sshare prints RawUsage as an unsigned 64-bit integer. */
#define USAGE_LIMIT 18446744073709551616.0L

enum { ALG_NONE, ALG_LEVEL, ALG_TREE, ALG_CLASSIC };

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

/* One usage error: @what, with @arg quoted after @opt when given (no
 * message at all when @what is NULL: the caller printed it). */
static int _usage_error(const char *opt, const char *arg, const char *what)
{
	char shown[SB_SHOWN_BUF];

	if (!what)
		;
	else if (arg)
		fprintf(stderr, PROG ": %s '%s': %s\n", opt,
			sb_shown(shown, sizeof(shown), arg), what);
	else if (opt)
		fprintf(stderr, PROG ": %s %s\n", opt, what);
	else
		fprintf(stderr, PROG ": %s\n", what);
	fprintf(stderr, "Try 'sbucket fairshare --help'.\n");
	return SBUCKET_EXIT_USAGE;
}

/* ---- options ---------------------------------------------------------- */

/* Value of --name=V or --name V; NULL when @arg is another option. */
static const char *_opt_value(const char *arg, const char *name, int argc,
			      char **argv, int *i, int *missing)
{
	size_t len = strlen(name);

	if (strncmp(arg, name, len))
		return NULL;
	if (arg[len] == '=')
		return arg + len + 1;
	if (arg[len])
		return NULL;
	if (*i + 1 >= argc) {
		*missing = 1;
		return NULL;
	}
	return argv[++*i];
}

static int _parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/*
 * The live cluster's algorithm, and its levels / dampening unless given
 * on the command line. -1 after one error line.
 */
static int _live_params(struct opts *o)
{
	int alg, levels;
	long damp;

	if (sbucket_fairshare_live_params(&alg, &levels, &damp) < 0)
		return -1;
	switch (alg) {
	case SB_FS_LEVEL_BASED:
		o->algorithm = ALG_LEVEL;
		break;
	case SB_FS_FAIR_TREE:
		o->algorithm = ALG_TREE;
		break;
	default:
		o->algorithm = ALG_CLASSIC;
		break;
	}
	/* the cluster's own values are not a usage error for the others */
	if (!o->levels_set && o->algorithm == ALG_LEVEL)
		o->levels = levels;
	if (!o->damp_set && o->algorithm == ALG_CLASSIC)
		o->dampening = damp;
	return 0;
}

static int _parse_opts(int argc, char **argv, struct opts *o)
{
	char shown[SB_SHOWN_BUF];
	int i, missing;

	memset(o, 0, sizeof(*o));
	o->levels = 4;
	o->dampening = 1;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		long n;

		missing = 0;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			_usage(stdout);
			return -1;
		}
		if ((v = _opt_value(a, "--algorithm", argc, argv, &i,
				    &missing))) {
			if (!strcmp(v, "level_based"))
				o->algorithm = ALG_LEVEL;
			else if (!strcmp(v, "fair_tree"))
				o->algorithm = ALG_TREE;
			else if (!strcmp(v, "classic"))
				o->algorithm = ALG_CLASSIC;
			else
				return _usage_error("--algorithm", v,
						    "not level_based, "
						    "fair_tree or classic");
		} else if ((v = _opt_value(a, "--levels", argc, argv, &i,
					   &missing))) {
			if (_parse_long(v, SB_FS_LEVELS_MIN, SB_FS_LEVELS_MAX,
					&n) < 0)
				return _usage_error("--levels", v,
						    "not an integer from 1 "
						    "to 16");
			o->levels = (int) n;
			o->levels_set = 1;
		} else if ((v = _opt_value(a, "--dampening", argc, argv, &i,
					   &missing))) {
			if (_parse_long(v, 1, UINT16_MAX, &n) < 0)
				return _usage_error("--dampening", v,
						    "not an integer from 1 "
						    "to 65535");
			o->dampening = n;
			o->damp_set = 1;
		} else if ((v = _opt_value(a, "--explain", argc, argv, &i,
					   &missing))) {
			if (!*v)
				return _usage_error("--explain", v,
						    "no user");
			o->explain = v;
		} else if (missing) {
			return _usage_error(a, NULL, "needs a value");
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, PROG ": unknown option '%s'\n",
				sb_shown(shown, sizeof(shown), a));
			return _usage_error(NULL, NULL, NULL);
		} else if (o->file) {
			fprintf(stderr, PROG ": extra argument '%s' (one FILE "
				"only)\n", sb_shown(shown, sizeof(shown), a));
			return _usage_error(NULL, NULL, NULL);
		} else {
			o->file = a;
		}
	}
	if (!o->file) {
		o->file = SBUCKET_LIVE_FILE;
		if (o->algorithm == ALG_NONE &&
		    _live_params(o) < 0)
			return SBUCKET_EXIT_INPUT;
	}
	if (o->algorithm == ALG_NONE)
		return _usage_error("--algorithm", NULL, "is required "
				    "(level_based, fair_tree or classic)");
	if (o->levels_set && o->algorithm != ALG_LEVEL)
		return _usage_error("--levels", NULL,
				    "applies to level_based only");
	if (o->damp_set && o->algorithm != ALG_CLASSIC)
		return _usage_error("--dampening", NULL,
				    "applies to classic only");
	return 0;
}

/* ---- input ------------------------------------------------------------ */

struct input {
	const char *file;
	int *line_of;		/* defining line of each association id */
	int cap;
	int root_line;		/* the line giving root's usage, 0 for none */
};

static int _bad(const struct input *in, int line, const char *field,
		const char *token, const char *why)
{
	char shown[SB_SHOWN_BUF];

	fprintf(stderr, PROG ": %s:%d: %s '%s': %s\n", in->file, line, field,
		sb_shown(shown, sizeof(shown), token), why);
	return -1;
}

static int _remember_line(struct input *in, int id, int line)
{
	if (id >= in->cap) {
		int cap = in->cap ? in->cap * 2 : 64;
		int *l;

		while (cap <= id)
			cap *= 2;
		if (!(l = realloc(in->line_of, (size_t) cap * sizeof(*l))))
			return -1;
		in->line_of = l;
		in->cap = cap;
	}
	in->line_of[id] = line;
	return 0;
}

static char *_trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' ||
			 e[-1] == '\n'))
		*--e = '\0';
	return s;
}

static const char *_name_problem(const char *s)
{
	size_t len = strlen(s);

	if (!len)
		return "empty";
	if (len > SB_ASSOC_NAME_MAX)
		return "longer than 255 bytes";
	for (; *s; s++)
		if ((unsigned char) *s <= ' ' || *s == ',' || *s == '/' ||
		    *s == 127)
			return "contains a blank, control character, ',' or "
			       "'/'";
	return NULL;
}

static int _parse_shares(const char *s, uint32_t *out)
{
	const char *p;
	uint64_t v = 0;

	if (!strcmp(s, "parent")) {
		*out = SB_SHARES_PARENT;
		return 0;
	}
	if (!*s)
		return -1;
	for (p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (uint64_t) (*p - '0');
		if (v > SB_SHARES_MAX)
			return -2;
	}
	*out = (uint32_t) v;
	return 0;
}

/* A plain decimal: digits, optionally '.' and digits. */
static int _parse_usage(const char *s, long double *out)
{
	const char *p = s;
	char *end;
	long double v;

	if (!(*p >= '0' && *p <= '9'))
		return -1;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p == '.') {
		p++;
		if (!(*p >= '0' && *p <= '9'))
			return -1;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p)
		return -1;
	errno = 0;
	v = strtold(s, &end);
	/* sshare's RawUsage is a 64-bit integer: so is what we print. */
	if (errno || !isfinite(v) || v >= USAGE_LIMIT)
		return -2;
	*out = v;
	return 0;
}

/* RawUsage @tok of line @line into *@out; one message on error. */
static int _usage_token(const struct input *in, int line, const char *tok,
			long double *out)
{
	int rc = _parse_usage(tok, out);

	if (rc == -1)
		return _bad(in, line, "RawUsage", tok, "not a number >= 0 "
			    "(digits, optional fraction)");
	if (rc == -2)
		return _bad(in, line, "RawUsage", tok, "too large (at most "
			    "18446744073709551615)");
	return 0;
}

/* An account's or root's given RawUsage @tok. */
static int _set_usage(sb_assoc_tree_t *t, struct input *in, int id,
		      const char *tok, int line)
{
	long double usage;

	if (_usage_token(in, line, tok, &usage) < 0)
		return -1;
	if (sb_assoc_tree_set_usage(t, id, usage) < 0) {
		fprintf(stderr, PROG ": %s:%d: %s\n", in->file, line,
			strerror(errno));
		return -1;
	}
	return 0;
}

static int _parse_line(sb_assoc_tree_t *t, struct input *in, char *buf,
		       int line)
{
	char *f[5], *p = buf, whole[80], a[SB_SHOWN_BUF], u[SB_SHOWN_BUF];
	size_t wlen = 0;
	int nf = 0, id, acct, parent;
	uint32_t shares;
	long double usage = 0;
	const char *why;
	char cnt[16];
	int rc;

	/* Keep the line for the message, shortened if needed. */
	sb_shown_put(whole, sizeof(whole), &wlen, buf, SIZE_MAX,
		     sizeof(whole) - 4);
	for (;;) {
		char *bar = strchr(p, '|');

		if (nf < 5)
			f[nf] = p;
		nf++;
		if (!bar)
			break;
		*bar = '\0';
		p = bar + 1;
	}
	if (nf != 5) {
		snprintf(cnt, sizeof(cnt), "%d", nf);
		fprintf(stderr, PROG ": %s:%d: line '%s': %s fields, expected "
			"5 (Account|Parent|User|Shares|RawUsage)\n", in->file,
			line, whole, cnt);
		return -1;
	}
	for (nf = 0; nf < 5; nf++)
		f[nf] = _trim(f[nf]);

	if ((why = _name_problem(f[0])))
		return _bad(in, line, "Account", f[0], why);
	if (!*f[2] && !strcmp(f[0], "root")) {
		/* root's usage, as Slurm keeps it */
		if (*f[1] || *f[3] || !*f[4])
			return _bad(in, line, "Account", f[0],
				    "root is implicit: its line may only "
				    "give RawUsage (root||||RawUsage)");
		if (in->root_line)
			return _bad(in, line, "Account", f[0],
				    "root's usage given twice");
		in->root_line = line;
		return _set_usage(t, in, SB_ASSOC_ROOT, f[4], line);
	}
	rc = _parse_shares(f[3], &shares);
	if (rc == -1)
		return _bad(in, line, "Shares", f[3],
			    "not an integer or 'parent'");
	if (rc == -2)
		return _bad(in, line, "Shares", f[3],
			    "out of range (0-2147483646)");

	if (!*f[2]) {
		/* An account line. */
		if (!*f[1]) {
			parent = SB_ASSOC_ROOT;
		} else if ((parent = sb_assoc_tree_find_account(t, f[1])) < 0) {
			return _bad(in, line, "Parent", f[1],
				    "no such account (define accounts "
				    "before use)");
		}
		if ((id = sb_assoc_tree_find_account(t, f[0])) >= 0) {
			snprintf(cnt, sizeof(cnt), "%d", in->line_of[id]);
			fprintf(stderr, PROG ": %s:%d: Account '%s': defined "
				"twice (first on line %s)\n", in->file, line,
				sb_shown(a, sizeof(a), f[0]), cnt);
			return -1;
		}
		id = sb_assoc_tree_add_account(t, parent, f[0], shares);
		if (id >= 0 && *f[4] &&
		    _set_usage(t, in, id, f[4], line) < 0)
			return -1;
	} else {
		if ((why = _name_problem(f[2])))
			return _bad(in, line, "User", f[2], why);
		if (*f[1])
			return _bad(in, line, "Parent", f[1],
				    "must be empty on a user line (the "
				    "user's account is the Account field)");
		if ((acct = sb_assoc_tree_find_account(t, f[0])) < 0)
			return _bad(in, line, "Account", f[0],
				    "no such account (define accounts "
				    "before use)");
		if (_usage_token(in, line, f[4], &usage) < 0)
			return -1;
		if ((id = sb_assoc_tree_find_user(t, acct, f[2])) >= 0) {
			snprintf(cnt, sizeof(cnt), "%d", in->line_of[id]);
			fprintf(stderr, PROG ": %s:%d: User '%s': already in "
				"account '%s' (line %s)\n", in->file, line,
				sb_shown(u, sizeof(u), f[2]),
				sb_shown(a, sizeof(a), f[0]), cnt);
			return -1;
		}
		id = sb_assoc_tree_add_user(t, acct, f[2], shares, usage);
	}
	if (id < 0 || _remember_line(in, id, line) < 0) {
		fprintf(stderr, PROG ": %s:%d: %s\n", in->file, line,
			strerror(errno ? errno : ENOMEM));
		return -1;
	}
	return 0;
}

static int _read_tree(sb_assoc_tree_t *t, struct input *in)
{
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f;
	int line = 0, rc = 0;

	if (!strcmp(in->file, SBUCKET_LIVE_FILE)) {
		if (!(f = sbucket_fairshare_live_open()))
			return -1;
		in->file = "<live tree>";
	} else if (!strcmp(in->file, "-")) {
		f = stdin;
		in->file = "<stdin>";
	} else if (!(f = fopen(in->file, "r"))) {
		fprintf(stderr, PROG ": %s: %s\n", in->file, strerror(errno));
		return -1;
	}
	while ((len = sbucket_getline(f, &buf, &cap, in->file,
				      (size_t) line + 1)) >= 0) {
		char *s;

		line++;
		if (len - (buf[len - 1] == '\n') > MAX_LINE) {
			fprintf(stderr, PROG ": %s:%d: line longer than %d "
				"bytes\n", in->file, line, MAX_LINE);
			rc = -1;
			break;
		}
		s = _trim(buf);
		if (!*s || *s == '#')
			continue;
		if (_parse_line(t, in, s, line) < 0) {
			rc = -1;
			break;
		}
	}
	if (len == -2)
		rc = -1;
	if (!rc && ferror(f)) {
		fprintf(stderr, PROG ": %s: read error\n", in->file);
		rc = -1;
	}
	if (f != stdin)
		fclose(f);
	free(buf);
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
	if (alg == ALG_CLASSIC || a.is_user)
		_put_double(a.fs_factor);
	putchar('|');
	if (alg == ALG_TREE && a.shares != SB_SHARES_PARENT)
		_put_double((double) a.level_fs);
	putchar('|');
	if (alg == ALG_LEVEL)
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

/* ---- explain ---------------------------------------------------------- */

static int _find_user(const sb_assoc_tree_t *t, const char *spec)
{
	const char *slash = strchr(spec, '/');
	int n = sb_assoc_tree_count(t), i, found = -1, count = 0;

	if (slash) {
		char acct[SB_ASSOC_NAME_MAX + 1];
		size_t len = (size_t) (slash - spec);
		int a;

		if (len > SB_ASSOC_NAME_MAX)
			return -1;
		memcpy(acct, spec, len);
		acct[len] = '\0';
		if ((a = sb_assoc_tree_find_account(t, acct)) < 0)
			return -1;
		return sb_assoc_tree_find_user(t, a, slash + 1);
	}
	for (i = 1; i < n; i++) {
		sb_assoc_info_t a;

		sb_assoc_tree_get(t, i, &a);
		if (a.is_user && !strcmp(a.name, spec)) {
			found = i;
			count++;
		}
	}
	return count > 1 ? -2 : found;
}

/* Fair Tree's sibling order (Level FS desc, users first, input order). */
static int _ft_before(const sb_assoc_info_t *x, const sb_assoc_info_t *y)
{
	if (x->level_fs != y->level_fs)
		return x->level_fs > y->level_fs;
	if (x->is_user != y->is_user)
		return x->is_user;
	return x->id < y->id;
}

/* 1-based position of @id among its fs siblings, and their number. */
static void _ft_position(const sb_assoc_tree_t *t, int id, int *pos,
			 int *of)
{
	sb_assoc_info_t me, o;
	int n = sb_assoc_tree_count(t), i;

	sb_assoc_tree_get(t, id, &me);
	*pos = 1;
	*of = 0;
	for (i = 1; i < n; i++) {
		sb_assoc_tree_get(t, i, &o);
		if (o.fs_parent != me.fs_parent)
			continue;
		(*of)++;
		if (i != id && _ft_before(&o, &me))
			(*pos)++;
	}
}

/* Path from root: ids root..@id along direct parents; returns length. */
static int _path(const sb_assoc_tree_t *t, int id, int *v)
{
	sb_assoc_info_t a;
	int k = 0, i;

	for (; id >= 0; id = a.parent) {
		sb_assoc_tree_get(t, id, &a);
		v[k++] = id;
	}
	for (i = 0; i < k / 2; i++) {
		int x = v[i];

		v[i] = v[k - 1 - i];
		v[k - 1 - i] = x;
	}
	return k;
}

static const char *_label(const sb_assoc_info_t *a)
{
	return a->name;
}

/* The bits an association adds to its parent's raw value, as the level
 * value of its bucket (its level: one below its fs parent's). */
static void _level_value(const sb_assoc_tree_t *t, const sb_assoc_info_t *a,
			 int levels)
{
	sb_assoc_info_t f;
	int width = 64 / levels, lvl = 0, sh;

	for (f = *a; f.fs_parent > SB_ASSOC_ROOT; lvl++)
		sb_assoc_tree_get(t, f.fs_parent, &f);
	sh = sb_fairshare_level_shift(levels, lvl);
	if (a->shares == SB_SHARES_PARENT && !a->is_user)
		printf("  adds no bits");
	else if (sh < 0)
		printf("  below the last level, adds no bits");
	else
		printf("  value %0*" PRIX64 "%s", (width + 3) / 4,
		       (a->fs_raw >> sh) & (UINT64_MAX >> (64 - width)),
		       a->shares ? "" : " (0 shares: last among its siblings)");
	printf("  FSRaw %016" PRIX64, a->fs_raw);
}

static void _explain_one(const sb_assoc_tree_t *t, int id, int alg,
			 int levels)
{
	sb_assoc_info_t u, a;
	int *path = malloc((size_t) sb_assoc_tree_count(t) * sizeof(*path));
	int k, i, users = sb_assoc_tree_users(t);
	int width = 64 / levels;

	if (!path)
		return;
	sb_assoc_tree_get(t, id, &u);
	k = _path(t, id, path);
	if (alg == ALG_TREE) {
		printf("%s (account %s), Fair Tree: FairShare %f = rank %"
		       PRIu32 " / %d users (higher ranks first)\n", u.name,
		       u.account, u.fs_factor, u.rank, users);
		printf("  path from root; at each level siblings are ranked "
		       "by LevelFS = NormShares / EffectvUsage, highest "
		       "first:\n");
	} else if (alg == ALG_LEVEL) {
		printf("%s (account %s), LEVEL_BASED with %d levels of %d "
		       "bits: FSRaw %016" PRIX64 ", FairShare %f = rank %"
		       PRIu32 " / %d users (higher ranks first)\n", u.name,
		       u.account, levels, width, u.fs_raw, u.fs_factor, u.rank,
		       users);
		printf("  path from root; each level adds value = 1 + "
		       "2^(-EffectvUsage / (0.1 + 0.9 * NormShares)) * "
		       "(2^%d - 2), truncated:\n", width);
	} else {
		printf("%s (account %s), classic: FairShare %f = "
		       "2^(-EffectvUsage / NormShares / dampening)\n",
		       u.name, u.account, u.fs_factor);
		printf("  path from root:\n");
	}
	for (i = 0; i < k; i++) {
		sb_assoc_tree_get(t, path[i], &a);
		if (i == 0) {
			if (alg == ALG_LEVEL)
				printf("    %-12s  FSRaw %016" PRIX64 "\n",
				       _label(&a), a.fs_raw);
			else
				printf("    %s\n", _label(&a));
			continue;
		}
		printf("    %-12s", _label(&a));
		if (a.shares == SB_SHARES_PARENT) {
			sb_assoc_info_t f;

			sb_assoc_tree_get(t, a.fs_parent, &f);
			if (a.is_user)
				printf("  Shares parent: ranks first among "
				       "the children of %s", f.name);
			else
				printf("  Shares parent: its children count "
				       "as children of %s", f.name);
			if (alg == ALG_LEVEL)
				_level_value(t, &a, levels);
			putchar('\n');
			continue;
		}
		printf("  NormShares %f  EffectvUsage %f", a.shares_norm,
		       (double) a.usage_efctv);
		if (alg == ALG_TREE) {
			int pos, of;

			_ft_position(t, path[i], &pos, &of);
			printf("  LevelFS %f  (%d of %d)", (double) a.level_fs,
			       pos, of);
		} else if (alg == ALG_LEVEL) {
			_level_value(t, &a, levels);
		} else {
			printf("  FairShare %f", a.fs_factor);
		}
		putchar('\n');
	}
	free(path);
}

/* Nearest common fs ancestor and the fs children under it on each side. */
static int _fs_common(const sb_assoc_tree_t *t, int x, int y, int *sx,
		      int *sy)
{
	sb_assoc_info_t a;
	int n = sb_assoc_tree_count(t);
	char *mark = calloc((size_t) n, 1);
	int i, prev = -1, anc = -1;

	if (!mark)
		return -1;
	for (i = x; i >= 0; i = a.fs_parent) {
		sb_assoc_tree_get(t, i, &a);
		mark[i] = 1;
	}
	for (i = y; i >= 0; prev = i, i = a.fs_parent) {
		sb_assoc_tree_get(t, i, &a);
		if (mark[i]) {
			anc = i;
			break;
		}
	}
	*sy = prev;
	for (i = x, prev = -1; i != anc; prev = i, i = a.fs_parent)
		sb_assoc_tree_get(t, i, &a);
	*sx = prev;
	free(mark);
	return anc;
}

static void _explain_pair(const sb_assoc_tree_t *t, int x, int y, int alg,
			  int levels)
{
	sb_assoc_info_t ux, uy, c, sx, sy;
	int ix, iy, anc;

	sb_assoc_tree_get(t, x, &ux);
	sb_assoc_tree_get(t, y, &uy);
	printf("%s vs %s:\n", ux.name, uy.name);
	if (alg == ALG_CLASSIC) {
		printf("  classic compares the users' own factors: %f vs %f",
		       ux.fs_factor, uy.fs_factor);
		if (ux.fs_factor == uy.fs_factor)
			printf(", so they are equal\n");
		else
			printf(", so %s ranks higher\n",
			       ux.fs_factor > uy.fs_factor ? ux.name : uy.name);
		return;
	}
	if ((anc = _fs_common(t, x, y, &ix, &iy)) < 0)
		return;
	sb_assoc_tree_get(t, anc, &c);
	sb_assoc_tree_get(t, ix, &sx);
	sb_assoc_tree_get(t, iy, &sy);
	printf("  first common ancestor: %s\n", c.name);
	if (alg == ALG_TREE) {
		printf("  deciding level: the children of %s, where %s's "
		       "side is %s %s (LevelFS %f) and %s's side is %s %s "
		       "(LevelFS %f)\n", c.name, ux.name,
		       sx.is_user ? "user" : "account", sx.name,
		       (double) sx.level_fs, uy.name,
		       sy.is_user ? "user" : "account", sy.name,
		       (double) sy.level_fs);
		if (sx.level_fs != sy.level_fs) {
			const sb_assoc_info_t *hi = sx.level_fs > sy.level_fs
				? &sx : &sy;
			char bx[64], by[64];

			snprintf(bx, sizeof(bx), "%f", (double) sx.level_fs);
			snprintf(by, sizeof(by), "%f", (double) sy.level_fs);
			if (!strcmp(bx, by))
				printf("  (they differ beyond 6 decimals: "
				       "%.21Lg vs %.21Lg)\n", sx.level_fs,
				       sy.level_fs);

			printf("  %s has the higher LevelFS, so it is ranked "
			       "first and everything under it ranks above "
			       "the other side\n", hi->name);
		} else {
			printf("  they are tied (exactly equal LevelFS): users "
			       "sort before accounts, then input order; a tied "
			       "user or account passes its rank on to the "
			       "first user ranked after it\n");
		}
		printf("  result: %s rank %" PRIu32 " (FairShare %f), %s rank %"
		       PRIu32 " (FairShare %f)\n", ux.name, ux.rank,
		       ux.fs_factor, uy.name, uy.rank, uy.fs_factor);
	} else {
		int width = 64 / levels, lvl;
		uint64_t diff = ux.fs_raw ^ uy.fs_raw;

		if (!diff) {
			printf("  identical FSRaw %016" PRIX64 ": they share "
			       "rank %" PRIu32 " (FairShare %f)\n", ux.fs_raw,
			       ux.rank, ux.fs_factor);
			return;
		}
		for (lvl = 0; lvl < levels; lvl++) {
			int sh = sb_fairshare_level_shift(levels, lvl);
			uint64_t mask = (UINT64_MAX >> (64 - width)) << sh;

			if (diff & mask) {
				printf("  deciding level: level %d (bits %d-%d)"
				       ", the level of %s and %s: %0*" PRIX64
				       " vs %0*" PRIX64 "; the higher value "
				       "ranks first, whatever lower levels "
				       "hold\n", lvl + 1, sh, sh + width - 1,
				       sx.name, sy.name, width / 4 ? width / 4
				       : 1, (ux.fs_raw & mask) >> sh,
				       width / 4 ? width / 4 : 1,
				       (uy.fs_raw & mask) >> sh);
				break;
			}
		}
		printf("  result: %s rank %" PRIu32 " (FairShare %f), %s rank %"
		       PRIu32 " (FairShare %f)\n", ux.name, ux.rank,
		       ux.fs_factor, uy.name, uy.rank, uy.fs_factor);
	}
}

static int _explain(const sb_assoc_tree_t *t, const char *spec, int alg,
		    int levels, int pair_only)
{
	char buf[2 * (SB_ASSOC_NAME_MAX + 1) + 2];
	char *second = NULL;
	int ids[2], i, n = 1;

	if (strlen(spec) >= sizeof(buf))
		return _usage_error("--explain", spec, "too long");
	strcpy(buf, spec);
	if ((second = strchr(buf, ','))) {
		*second++ = '\0';
		n = 2;
		if (strchr(second, ','))
			return _usage_error("--explain", spec,
					    "at most two users");
	}
	for (i = 0; i < n; i++) {
		const char *u = i ? second : buf;

		ids[i] = _find_user(t, u);
		if (ids[i] == -2)
			return _usage_error("--explain", u,
					    "user has several associations, "
					    "name one as ACCOUNT/USER");
		if (ids[i] < 0)
			return _usage_error("--explain", u,
					    "no such user association");
	}
	if (n == 2 && ids[0] == ids[1])
		return _usage_error("--explain", spec, "the same user "
				    "association twice");
	if (n == 2 && pair_only) {
		_explain_pair(t, ids[0], ids[1], alg, levels);
		return 0;
	}
	_explain_one(t, ids[0], alg, levels);
	if (n == 2) {
		_explain_one(t, ids[1], alg, levels);
		_explain_pair(t, ids[0], ids[1], alg, levels);
	}
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
	struct input in;
	sb_assoc_info_t root;
	sb_assoc_tree_t *t = NULL;
	int rc, ret = SBUCKET_EXIT_INPUT;

	memset(&in, 0, sizeof(in));
	in.file = o.file;
	if (!(t = sb_assoc_tree_create())) {
		fprintf(stderr, PROG ": %s\n", strerror(errno));
		return SBUCKET_EXIT_INPUT;
	}
	if (_read_tree(t, &in) < 0)
		goto out;
	if (o.algorithm == ALG_LEVEL)
		rc = sb_fairshare_level_compute(t, o.levels);
	else if (o.algorithm == ALG_TREE)
		rc = sb_fairshare_tree_compute(t);
	else
		rc = sb_fairshare_classic_compute(t, (uint32_t) o.dampening);
	if (rc < 0) {
		if (errno == ERANGE)
			fprintf(stderr, PROG ": %s: the shares of one level "
				"add up beyond 4294967295 (Slurm would wrap "
				"around)\n", in.file);
		else
			fprintf(stderr, PROG ": %s: %s\n", in.file,
				strerror(errno));
		goto out;
	}
	/* Root has the sum of all: no account's usage is larger. */
	sb_assoc_tree_get(t, SB_ASSOC_ROOT, &root);
	if (root.usage_raw >= USAGE_LIMIT) {
		fprintf(stderr, PROG ": %s: RawUsage adds up beyond "
			"18446744073709551615 (sshare's 64-bit integer)\n",
			in.file);
		goto out;
	}
	if (o.explain)
		ret = _explain(t, o.explain, o.algorithm, o.levels,
			       o.pair_only);
	else
		ret = _print_tree(t, o.algorithm) < 0 ? SBUCKET_EXIT_INPUT
						      : SBUCKET_EXIT_OK;
	if (fflush(stdout) != 0 && ret == SBUCKET_EXIT_OK)
		ret = SBUCKET_EXIT_INPUT;
out:
	sb_assoc_tree_destroy(t);
	free(in.line_of);
	return ret;
}
