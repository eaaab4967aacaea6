/*
 * fuzz_assoc.c - the association files of 'sbucket fairshare', through
 * the whole subcommand, with each of the three algorithms and
 * --explain.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Input: the file itself. A first line "#!OPTIONS" (a comment to the
 * file) gives options: only --algorithm=, --levels=, --dampening= and
 * --explain= are kept. Without --algorithm= the file is run with each
 * algorithm in turn (with the options that apply to it). Exit 0:
 * nothing on stderr; without --explain the header and one line of nine
 * fields per association (root and every line of the file); with it,
 * some lines. Exit 1: nothing on stdout, one printable line on stderr.
 * Exit 2 (usage): nothing on stdout, the error and a hint.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "sbucket.h"

#define ARGS_MAX 8

/*
 * Is the line [s, e) root's own (root||||RawUsage)? It sets root's usage
 * instead of adding an association. Fields are trimmed as the reader
 * trims them: blanks and tabs, and a trailing CR.
 */
static int _root_line(const char *s, const char *e)
{
	const char *f[3], *bar;
	size_t len;
	int nf;

	for (nf = 0, f[0] = s; nf < 2; nf++) {
		if (!(bar = memchr(f[nf], '|', (size_t) (e - f[nf]))))
			return 0;
		f[nf + 1] = bar + 1;
	}
	/* field 0 is "root" */
	s = f[0] + strspn(f[0], " \t");
	for (len = (size_t) (f[1] - 1 - s); len && strchr(" \t\r", s[len - 1]);
	     len--)
		;
	if (len != 4 || strncmp(s, "root", 4))
		return 0;
	/* field 2 (User) is empty */
	for (s = f[2]; s < e && *s != '|'; s++)
		if (!strchr(" \t\r", *s))
			return 0;
	return 1;
}

/* Associations in the file: lines that are neither blank, '#' nor root's. */
static size_t _associations(const char *s)
{
	size_t n = 0;
	const char *e;

	while (*s) {
		s += strspn(s, " \t");
		e = s + strcspn(s, "\n");
		if (*s && *s != '\n' && *s != '#' &&
		    !strchr("\n", s[strspn(s, " \t\r")]) && !_root_line(s, e))
			n++;
		s = e + (*e == '\n');
	}
	return n;
}

static void _run(char **argv, int argc, const char *text, size_t size,
		 int explain)
{
	fuzz_capture_t cap;
	const char *p, *nl;
	int rc, bars;

	fuzz_capture_start(&cap);
	rc = sbucket_fairshare_main(argc, argv);
	fuzz_capture_stop(&cap);
	if (rc == SBUCKET_EXIT_OK) {
		FUZZ_CHECK(cap.errlen == 0);
		FUZZ_CHECK(cap.outlen > 0 && cap.out[cap.outlen - 1] == '\n');
		if (!explain) {
			FUZZ_CHECK(strlen(text) == size);
			FUZZ_CHECK(fuzz_lines(cap.out, cap.outlen) ==
				   2 + _associations(text));
			for (p = cap.out; (nl = strchr(p, '\n')); p = nl + 1) {
				for (bars = 0; p < nl; p++)
					bars += *p == '|';
				FUZZ_CHECK(bars == 8);
			}
		}
	} else {
		fuzz_check_refused(rc, &cap);
	}
	fuzz_capture_free(&cap);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const algorithms[] = {
		"--algorithm=level_based", "--algorithm=fair_tree",
		"--algorithm=classic",
	};
	char *text = fuzz_str(data, size), *line = NULL, *tok;
	char *argv[ARGS_MAX + 4];
	char *opts[ARGS_MAX];
	const char *path = fuzz_file(0, data, size);
	int nopts = 0, algorithm = 0, explain = 0, argc, i, a;

	if (!strncmp(text, "#!", 2)) {
		line = strndup(text + 2, strcspn(text + 2, "\n"));
		FUZZ_CHECK(line != NULL);
		for (tok = strtok(line, " \t"); tok && nopts < ARGS_MAX - 3;
		     tok = strtok(NULL, " \t")) {
			if (!strncmp(tok, "--algorithm=", 12))
				algorithm = 1;
			else if (!strncmp(tok, "--explain=", 10))
				explain = 1;
			else if (strncmp(tok, "--levels=", 9) &&
				 strncmp(tok, "--dampening=", 12))
				continue;
			opts[nopts++] = tok;
		}
	}
	for (a = 0; a < (algorithm ? 1 : 3); a++) {
		argc = 0;
		argv[argc++] = "fairshare";
		if (!algorithm)
			argv[argc++] = (char *) algorithms[a];
		for (i = 0; i < nopts; i++)
			/* Without --algorithm=: the options that apply. */
			if (algorithm ||
			    ((strncmp(opts[i], "--levels=", 9) || a == 0) &&
			     (strncmp(opts[i], "--dampening=", 12) || a == 2)))
				argv[argc++] = opts[i];
		argv[argc++] = (char *) path;
		argv[argc] = NULL;
		_run(argv, argc, text, size, explain);
	}
	free(line);
	free(text);
	return 0;
}
