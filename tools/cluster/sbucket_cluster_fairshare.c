/*
 * sbucket_cluster_fairshare.c - the running cluster's association tree
 * and fair-share parameters (sbucket_cluster_fairshare.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * 'sshare -a -P -n -o Account,User,RawShares,RawUsage' prints the whole
 * tree depth first, users before sub-accounts, with the Account column
 * indented one space per level: an account's parent is the last account
 * printed one level up, a user's account is named on its line. Accounts
 * and root keep the RawUsage slurmctld has on them, which includes what
 * deleted users and sub-accounts used.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "priority_params.h"
#include "sbucket_cluster_run.h"
#include "sbucket_cluster_config.h"
#include "sbucket_cluster_fairshare.h"
#include "shown.h"

#define PROG "sbucket"
#define LIVE_MAX_LINE 4096
#define LIVE_MAX_DEPTH 256

/* Split @s at '|' into at most @n fields; returns the field count. */
static int _split(char *s, char **f, int n)
{
	int i = 0;

	f[i++] = s;
	while (i < n && (s = strchr(s, '|'))) {
		*s++ = '\0';
		f[i++] = s;
	}
	return i;
}

/* Reading sshare's lines into the input form. */
typedef struct {
	FILE *out;
	char *parents[LIVE_MAX_DEPTH];	/* the last account of each
					 * depth */
	int line;
} _tree_t;

static int _tree_line(void *arg, char *buf, size_t len)
{
	_tree_t *t = arg;
	char *f[4], *acct, sh[SB_SHOWN_BUF];
	int depth = 0;

	t->line++;
	if (len > LIVE_MAX_LINE || _split(buf, f, 4) != 4) {
		fprintf(stderr, PROG ": sshare: line %d not understood: "
			"'%s'\n", t->line, sb_shown(sh, sizeof(sh), buf));
		return -1;
	}
	for (acct = f[0]; *acct == ' '; acct++)
		depth++;
	if (!*acct || depth >= LIVE_MAX_DEPTH) {
		fprintf(stderr, PROG ": sshare: unexpected line %d: no "
			"account or too deep\n", t->line);
		return -1;
	}
	if (*f[1]) {		/* a user association */
		fprintf(t->out, "%s||%s|%s|%s\n", acct, f[1], f[2],
			*f[3] ? f[3] : "0");
		return 0;
	}
	free(t->parents[depth]);
	if (!(t->parents[depth] = strdup(acct))) {
		fprintf(stderr, PROG ": out of memory\n");
		return -1;
	}
	if (depth == 0) {	/* root */
		fprintf(t->out, "root||||%s\n", *f[3] ? f[3] : "0");
		return 0;
	}
	if (!t->parents[depth - 1]) {
		fprintf(stderr, PROG ": sshare: line %d: account '%s' has no "
			"parent line\n", t->line, sb_shown(sh, sizeof(sh),
							   acct));
		return -1;
	}
	fprintf(t->out, "%s|%s||%s|%s\n", acct, t->parents[depth - 1], f[2],
		f[3]);
	return 0;
}

FILE *sbc_fairshare_open(void)
{
	static const char *const args[] = { "-a", "-P", "-n", "-o",
		"Account,User,RawShares,RawUsage", NULL };
	_tree_t t;
	int i, rc;

	memset(&t, 0, sizeof(t));
	if (!(t.out = tmpfile())) {
		fprintf(stderr, PROG ": cannot create a temporary file: %s\n",
			strerror(errno));
		return NULL;
	}
	sbc_run_setup();
	fprintf(t.out, "# live tree from: sshare -a -P -n -o "
		"Account,User,RawShares,RawUsage\n");
	rc = sbc_run(SBC_SSHARE, args, _tree_line, &t);
	for (i = 0; i < LIVE_MAX_DEPTH; i++)
		free(t.parents[i]);
	if (!rc && !t.line) {
		fprintf(stderr, PROG ": sshare printed no associations\n");
		rc = -1;
	}
	if (rc < 0 || fflush(t.out) || fseek(t.out, 0, SEEK_SET)) {
		fclose(t.out);
		return NULL;
	}
	return t.out;
}

int sbc_fairshare_params(int *algorithm, int *levels, long *damp)
{
	char err[SB_PRIO_ERR_MAX];
	sb_priority_params_t pp;
	sbc_config_t c;
	int rc = -1;

	if (sbc_config_read(&c) < 0 || sbc_config_need(&c, "PriorityType") < 0)
		goto out;
	if (strcmp(c.priority_type, "priority/bucket")) {
		fprintf(stderr, PROG ": the cluster runs %s, not "
			"priority/bucket: give --algorithm\n", c.priority_type);
		goto out;
	}
	if (sb_priority_params_parse(c.priority_params, &pp, err,
				     sizeof(err)) < 0) {
		fprintf(stderr, PROG ": slurmctld's %s\n", err);
		goto out;
	}
	*algorithm = pp.algorithm;
	*levels = pp.levels;
	*damp = c.fs_dampening;
	rc = 0;
out:
	sbc_config_fini(&c);
	return rc;
}
