/*
 * fuzz_trace.c - what fuzz_swf and fuzz_sacct share: a workload read by
 * sbi_trace_read() in one format, and 'sbucket replay' whole on it.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Input: an SWF log or sacct -P output (gzip or not), optionally after a
 * first line
 *   #!OPTIONS               options of 'sbucket replay' (--NAME=VALUE
 *                           and --NAME words are kept; --swf-out and
 *                           --chart are not, nor --nodes or --tree
 *                           naming a file by bytes that do not
 *                           print); "--skip-bad" also makes
 *                           the reader skip bad lines (an abbreviated
 *                           --help prints the usage: exit 0 too)
 * The reader: accepted, nothing printed; every job's fields in their
 * ranges, users and accounts known; the trace written as SWF
 * (sbi_swf_write()) reads back, as SWF, to the same text again (a
 * canonical form). Refused: nothing on stdout, one printable line on
 * stderr.
 * The subcommand: exit 0 with nothing on stderr and the summary (or JSON
 * object) on stdout, or exit 1 or 2 with one error line (and a hint).
 */
#define _GNU_SOURCE

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "fuzz_trace.h"
#include "sbucket.h"
#include "sbucket_input_swf.h"

#define ARGS_MAX 12

/* The trace as SWF text, to free(). */
static char *_text(const sbi_trace_t *t, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	FUZZ_CHECK(f != NULL);
	FUZZ_CHECK(sbi_swf_write(f, t, 0, NULL, NULL) == 0);
	fclose(f);
	return buf;
}

static void _check_trace(const sbi_trace_t *t)
{
	size_t i;

	for (i = 0; i < t->njobs; i++) {
		const sbi_trace_job_t *j = &t->jobs[i];

		FUZZ_CHECK(j->submit >= 0 && j->submit <= SBI_TRACE_VALUE_MAX);
		FUZZ_CHECK(j->run >= -1 && j->run <= SBI_TRACE_VALUE_MAX);
		FUZZ_CHECK(j->size == -1 || j->size >= 1);
		FUZZ_CHECK(j->limit == -1 || j->limit >= 1);
		FUZZ_CHECK(j->user < t->nusers && j->account < t->naccounts);
	}
}

/* The reader alone, and its canonical form. */
static void _reader(const char *path, sbi_trace_format_t format,
		    bool skip_bad)
{
	fuzz_capture_t cap;
	sbi_trace_t t, t2;
	char *a, *b;
	size_t la, lb;
	int rc;

	FUZZ_CHECK(sbi_trace_init(&t) == 0);
	fuzz_capture_start(&cap);
	rc = sbi_trace_read(path, format, skip_bad, &t);
	fuzz_capture_stop(&cap);
	FUZZ_CHECK(cap.outlen == 0);
	if (rc) {
		FUZZ_CHECK(rc == -1);
		fuzz_check_one_line(cap.err, cap.errlen);
		FUZZ_CHECK(!strncmp(cap.err, "sbucket: ", 9));
		fuzz_capture_free(&cap);
		sbi_trace_fini(&t);
		return;
	}
	FUZZ_CHECK(cap.errlen == 0);
	fuzz_capture_free(&cap);
	_check_trace(&t);
	/* written back, read again, written again: the same text */
	a = _text(&t, &la);
	FUZZ_CHECK(sbi_trace_init(&t2) == 0);
	FUZZ_CHECK(sbi_trace_read(fuzz_file(1, a, la), SBI_TRACE_SWF, false,
				  &t2) == 0);
	FUZZ_CHECK(t2.njobs == t.njobs && !t2.skipped);
	b = _text(&t2, &lb);
	FUZZ_CHECK(la == lb && !memcmp(a, b, la));
	free(a);
	free(b);
	sbi_trace_fini(&t);
	sbi_trace_fini(&t2);
}

void fuzz_trace_one(const uint8_t *data, size_t size,
		    sbi_trace_format_t format)
{
	const uint8_t *log = data;
	size_t loglen = size;
	char *opts = NULL, *argv[ARGS_MAX + 3], *tok;
	const char *path;
	bool skip_bad = false;
	fuzz_capture_t cap;
	int argc = 0, rc;

	if (size >= 2 && !memcmp(data, "#!", 2)) {
		const uint8_t *nl = memchr(data, '\n', size);
		size_t n = nl ? (size_t) (nl - data) : size;

		opts = strndup((const char *) data + 2, n - 2);
		log = nl ? nl + 1 : data + size;
		loglen = size - (size_t) (log - data);
	}
	argv[argc++] = "replay";
	argv[argc++] = format == SBI_TRACE_SACCT ? "--format=sacct" :
		"--format=swf";
	for (tok = opts ? strtok(opts, " \t") : NULL; tok;
	     tok = strtok(NULL, " \t")) {
		size_t nl = strcspn(tok, "=");

		/* no files written, and no --format: getopt_long takes
		 * any unambiguous abbreviation ("--swf" for --swf-out) */
		if (argc >= ARGS_MAX || strncmp(tok, "--", 2) ||
		    (nl > 2 && (!strncmp("--swf-out", tok, nl) ||
				!strncmp("--chart", tok, nl) ||
				!strncmp("--format", tok, nl))))
			continue;
		/* a file named on the command line is the caller's own,
		 * echoed as given in its errors: only printable names */
		if (nl > 2 && (!strncmp("--nodes", tok, nl) ||
			       !strncmp("--tree", tok, nl)) &&
		    !fuzz_printable(tok + nl, strlen(tok + nl)))
			continue;
		skip_bad |= !strcmp(tok, "--skip-bad");
		argv[argc++] = tok;
	}
	path = fuzz_file(0, log, loglen);
	_reader(path, format, skip_bad);
	argv[argc++] = (char *) path;
	argv[argc] = NULL;
	fuzz_capture_start(&cap);
	rc = sbucket_replay_main(argc, argv);
	fuzz_capture_stop(&cap);
	if (rc == SBUCKET_EXIT_OK) {
		FUZZ_CHECK(cap.errlen == 0);
		FUZZ_CHECK(cap.outlen > 0 && cap.out[cap.outlen - 1] == '\n');
		/* getopt_long takes "--h" for "--help": the usage */
		FUZZ_CHECK(!strncmp(cap.out, "trace ", 6) ||
			   !strncmp(cap.out, "A: ", 3) ||
			   cap.out[0] == '{' || cap.out[0] == '[' ||
			   !strncmp(cap.out, "Usage: sbucket replay", 21));
	} else {
		fuzz_check_refused(rc, &cap);
	}
	fuzz_capture_free(&cap);
	free(opts);
}
