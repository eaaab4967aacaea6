/*
 * sbucket_fairshare_live.c - the live association tree for 'sbucket
 * fairshare' run without a FILE (see sbucket_fairshare_live.h).
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
#include "sbucket_fairshare_live.h"

#define PROG "sbucket"
#define LIVE_MAX_LINE 4096
#define LIVE_MAX_DEPTH 256

static const char *_bin(const char *env, const char *dflt)
{
	const char *b = getenv(env);

	return (b && *b) ? b : dflt;
}

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

static void _chomp(char *s)
{
	size_t len = strlen(s);

	while (len && (s[len - 1] == '\n' || s[len - 1] == '\r'))
		s[--len] = '\0';
}

FILE *sbucket_fairshare_live_open(void)
{
	char cmd[1024], buf[LIVE_MAX_LINE + 2], *f[4], bad[256] = "";
	char *parents[LIVE_MAX_DEPTH] = { 0 };
	FILE *p = NULL, *out = NULL;
	int line = 0, ok = 0, i, status;

	snprintf(cmd, sizeof(cmd), "%s -a -P -n -o "
		 "Account,User,RawShares,RawUsage 2>&1",
		 _bin("SBUCKET_SSHARE", "sshare"));
	if (!(out = tmpfile())) {
		fprintf(stderr, PROG ": cannot create a temporary file: %s\n",
			strerror(errno));
		return NULL;
	}
	if (!(p = popen(cmd, "r"))) {
		fprintf(stderr, PROG ": cannot run sshare: %s\n",
			strerror(errno));
		goto fail;
	}
	fprintf(out, "# live tree from: %s\n", cmd);
	while (fgets(buf, sizeof(buf), p)) {
		char *acct;
		int depth = 0;

		line++;
		_chomp(buf);
		if (_split(buf, f, 4) != 4) {
			/* reported after pclose(): sshare's own error, or
			 * output we do not understand */
			snprintf(bad, sizeof(bad), "%s", buf);
			goto drain;
		}
		for (acct = f[0]; *acct == ' '; acct++)
			depth++;
		if (!*acct || depth >= LIVE_MAX_DEPTH) {
			fprintf(stderr, PROG ": sshare: unexpected line %d: "
				"no account or too deep\n", line);
			goto drain;
		}
		if (*f[1]) {		/* a user association */
			fprintf(out, "%s||%s|%s|%s\n", acct, f[1], f[2],
				*f[3] ? f[3] : "0");
			continue;
		}
		free(parents[depth]);
		if (!(parents[depth] = strdup(acct))) {
			fprintf(stderr, PROG ": out of memory\n");
			goto drain;
		}
		if (depth == 0) {	/* root */
			fprintf(out, "root||||%s\n", *f[3] ? f[3] : "0");
			continue;
		}
		if (!parents[depth - 1]) {
			fprintf(stderr, PROG ": sshare: line %d: account '%s' "
				"has no parent line\n", line, acct);
			goto drain;
		}
		fprintf(out, "%s|%s||%s|%s\n", acct, parents[depth - 1], f[2],
			f[3]);
	}
	ok = 1;
drain:
	while (fgets(buf, sizeof(buf), p))
		;
	status = pclose(p);
	p = NULL;
	if (bad[0]) {
		if (status)
			fprintf(stderr, PROG ": cannot read the live tree: "
				"%s\n", bad);
		else
			fprintf(stderr, PROG ": sshare: unexpected line %d: "
				"'%s'\n", line, bad);
	} else if (ok && status) {
		fprintf(stderr, PROG ": '%s' failed (status %d)\n", cmd,
			status);
		ok = 0;
	}
	if (ok && !line) {
		fprintf(stderr, PROG ": sshare printed no associations\n");
		ok = 0;
	}
fail:
	for (i = 0; i < LIVE_MAX_DEPTH; i++)
		free(parents[i]);
	if (!ok || fflush(out) || fseek(out, 0, SEEK_SET)) {
		fclose(out);
		return NULL;
	}
	return out;
}

int sbucket_fairshare_live_params(int *algorithm, int *levels, long *damp)
{
	char cmd[1024], buf[LIVE_MAX_LINE + 2], err[SB_PRIO_ERR_MAX];
	char *type = NULL, *params = NULL;
	long d = 1;
	sb_priority_params_t pp;
	FILE *p;
	int rc = -1;

	snprintf(cmd, sizeof(cmd), "%s show config 2>&1",
		 _bin("SBUCKET_SCONTROL", "scontrol"));
	if (!(p = popen(cmd, "r"))) {
		fprintf(stderr, PROG ": cannot run scontrol: %s\n",
			strerror(errno));
		return -1;
	}
	while (fgets(buf, sizeof(buf), p)) {
		char *eq = strchr(buf, '='), *key = buf, *v, *end;

		_chomp(buf);
		if (!eq)
			continue;
		for (end = eq; end > key && end[-1] == ' '; end--)
			;
		*end = '\0';
		for (v = eq + 1; *v == ' '; v++)
			;
		if (!strcmp(key, "PriorityType") && !type)
			type = strdup(v);
		else if (!strcmp(key, "PriorityParameters") && !params)
			params = strdup(v);
		else if (!strcmp(key, "FairShareDampeningFactor")) {
			uint64_t u;

			/* 0 is Slurm's 1 */
			d = sb_decimal_in(v, 1, LONG_MAX, &u) ? 1 : (long) u;
		}
	}
	if (pclose(p) || !type) {
		fprintf(stderr, PROG ": '%s' failed: is slurmctld running?\n",
			cmd);
		goto out;
	}
	if (strcmp(type, "priority/bucket")) {
		fprintf(stderr, PROG ": the cluster runs %s, not "
			"priority/bucket: give --algorithm\n", type);
		goto out;
	}
	if (params && !strcmp(params, "(null)")) {
		free(params);
		params = NULL;
	}
	if (sb_priority_params_parse(params, &pp, err, sizeof(err)) < 0) {
		fprintf(stderr, PROG ": slurmctld's %s\n", err);
		goto out;
	}
	*algorithm = pp.algorithm;
	*levels = pp.levels;
	*damp = d;
	rc = 0;
out:
	free(type);
	free(params);
	return rc;
}
