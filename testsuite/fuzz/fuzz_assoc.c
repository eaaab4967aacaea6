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

/* Associations in the file: lines that are neither blank nor '#'. */
static size_t _associations(const char *s)
{
	size_t n = 0;

	while (*s) {
		s += strspn(s, " \t");
		if (*s && *s != '\n' && *s != '#' &&
		    !strchr("\n", s[strspn(s, " \t\r")]))
			n++;
		s += strcspn(s, "\n");
		s += *s == '\n';
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
			    (strncmp(opts[i], "--levels=", 9) || a == 0) &&
			    (strncmp(opts[i], "--dampening=", 12) || a == 2))
				argv[argc++] = opts[i];
		argv[argc++] = (char *) path;
		argv[argc] = NULL;
		_run(argv, argc, text, size, explain);
	}
	free(line);
	free(text);
	return 0;
}
