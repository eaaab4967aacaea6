/*
 * fuzz_jobs.c - the jobs files of 'sbucket place' and 'sbucket
 * backfill', through the whole subcommand.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Input:
 *   #!place OPTIONS         optional first line: the subcommand (place
 *                           or backfill) and options; only --NAME=VALUE
 *                           and --noheader are kept, none that
 *                           getopt_long reads as --config
 *   NODES FILE
 *   %%
 *   JOBS FILE
 *   %%                      optional, place only: a bucket.conf
 *   BUCKET.CONF                (--config)
 * Without a "%%" line the whole input is the jobs file, on a fixed
 * cluster. Exit 0: on stderr only notes of what was ignored
 * ("sbucket: note: ", one line each), the header and one line per job
 * with the subcommand's fields and results, or the usage alone (an
 * option that is -h or abbreviates --help). Exit 1 (bad input):
 * nothing on stdout, one printable line on stderr. Exit 2 (usage):
 * nothing on stdout, the error and a hint. Clusters of more than 2000
 * nodes are skipped: legal, and slow.
 */
#define _GNU_SOURCE

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "sbucket.h"

#define ARGS_MAX 8

static const char _default_nodes[] =
	"NodeName=n[1-4] CPUs=2 RealMemory=8000 Features=a,b Gres=gpu:2\n"
	"NodeName=m[1-2] CPUs=4 RealMemory=16000 Features=b Weight=2 "
	"State=ALLOCATED BusyUntil=100 Busy=200-300\n"
	"NodeName=d1 CPUs=4 State=DOWN Speed=2\n"
	"PartitionName=p Nodes=n[1-4],m[1-2],d1 Default=YES\n";

/* The next "%%" section of *s (cut in place), or NULL at the end. */
static char *_section(char **s)
{
	char *start = *s, *sep;

	if (!start)
		return NULL;
	for (sep = start; (sep = strstr(sep, "%%")); sep += 2)
		if ((sep == start || sep[-1] == '\n') &&
		    (sep[2] == '\n' || !sep[2]))
			break;
	if (!sep) {
		*s = NULL;
		return start;
	}
	*sep = '\0';
	*s = sep[2] ? sep + 3 : sep + 2;
	return start;
}

/* Each output line: @bars '|' and a known result as its last field. */
static void _check_lines(const char *out, size_t len, int bars,
			 const char *const *results, int header)
{
	const char *p = out, *nl, *last;
	size_t n = 0;
	int k, ok;

	while (p < out + len) {
		FUZZ_CHECK((nl = memchr(p, '\n', (size_t) (out + len - p))));
		for (k = 0, last = p; last < nl; last++)
			k += *last == '|';
		FUZZ_CHECK(k == bars);
		last = memrchr(p, '|', (size_t) (nl - p)) + 1;
		if (n++ || !header) {
			for (k = 0, ok = 0; results[k]; k++)
				ok |= (size_t) (nl - last) ==
					strlen(results[k]) &&
					!strncmp(last, results[k],
						 (size_t) (nl - last));
			FUZZ_CHECK(ok);
		}
		p = nl + 1;
	}
	FUZZ_CHECK(!header || n >= 1);
}

/*
 * Whether getopt_long would read @tok as --config (or its -c): the
 * bucket.conf is the input's own third section, and a path given on the
 * command line is the user's own, echoed as given.
 */
static int _names_config(const char *tok)
{
	size_t n;

	if (tok[0] != '-')
		return 0;
	if (tok[1] != '-')
		return strchr(tok + 1, 'c') != NULL;
	n = strcspn(tok, "=");
	return n >= 3 && n <= 8 && !strncmp(tok, "--config", n);
}

/*
 * A run that succeeds may note on stderr what it ignored (a job's
 * --bucket-prefer that bucket.conf does not allow): one printable line
 * each, "sbucket: note: ...".
 */
static void _check_notes(const char *err, size_t len)
{
	const char *p = err, *nl;

	while (p < err + len) {
		FUZZ_CHECK((nl = memchr(p, '\n', (size_t) (err + len - p))));
		FUZZ_CHECK(!strncmp(p, "sbucket: note: ", 15));
		fuzz_check_one_line(p, (size_t) (nl - p) + 1);
		p = nl + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* "base": --base, a job select/bucket hands to its base. */
	static const char *const place_results[] = { "run", "wait", "never",
						     "base", NULL };
	static const char *const backfill_results[] = { "run", "later",
							"never", NULL };
	char *text = fuzz_str(data, size), *rest = text, *opts = NULL;
	char *nodes, *jobs, *conf, *argv[ARGS_MAX + 5], *tok, confopt[64];
	int argc = 0, backfill = 0, header = 1, rc;
	fuzz_capture_t cap;

	if (!strncmp(rest, "#!", 2)) {
		opts = rest + 2;
		rest += strcspn(rest, "\n");
		if (*rest)
			*rest++ = '\0';
	}
	nodes = _section(&rest);
	jobs = _section(&rest);
	conf = _section(&rest);
	if (!jobs) {
		jobs = nodes;
		nodes = (char *) _default_nodes;
	}
	/* Big clusters are legal and only slow: the nodes target has them. */
	if (fuzz_hostlist_names(nodes) > 2000 ||
	    (conf && fuzz_hostlist_names(conf) > 2000)) {
		free(text);
		return 0;
	}
	argv[argc++] = "place";
	for (tok = opts ? strtok(opts, " \t") : NULL; tok;
	     tok = strtok(NULL, " \t")) {
		if (argc == 1 && (!strcmp(tok, "place") ||
				  !strcmp(tok, "backfill"))) {
			backfill = tok[0] == 'b';
			argv[0] = tok;
		} else if (argc < ARGS_MAX && !_names_config(tok) &&
			   ((tok[0] == '-' && strchr(tok, '=')) ||
			    !strcmp(tok, "--noheader"))) {
			header &= strcmp(tok, "--noheader") != 0;
			argv[argc++] = tok;
		}
	}
	if (conf && !backfill) {
		snprintf(confopt, sizeof(confopt), "--config=%s",
			 fuzz_file(2, conf, strlen(conf)));
		argv[argc++] = confopt;
	}
	argv[argc++] = (char *) fuzz_file(0, nodes, strlen(nodes));
	argv[argc++] = (char *) fuzz_file(1, jobs, strlen(jobs));
	argv[argc] = NULL;

	fuzz_capture_start(&cap);
	rc = backfill ? sbucket_backfill_main(argc, argv)
		      : sbucket_place_main(argc, argv);
	fuzz_capture_stop(&cap);
	if (rc == SBUCKET_EXIT_OK && !strncmp(cap.out ? cap.out : "",
					      "Usage: sbucket ", 15)) {
		/* -h, or "--h" (getopt_long's abbreviation of --help),
		 * among the options: the usage, and nothing else */
		FUZZ_CHECK(cap.errlen == 0);
		FUZZ_CHECK(cap.out[cap.outlen - 1] == '\n');
	} else if (rc == SBUCKET_EXIT_OK) {
		_check_notes(cap.err, cap.errlen);
		_check_lines(cap.out, cap.outlen, backfill ? 4 : 3,
			     backfill ? backfill_results : place_results,
			     header);
	} else {
		fuzz_check_refused(rc, &cap);
	}
	fuzz_capture_free(&cap);
	free(text);
	return 0;
}
