/*
 * fuzz_util.c - what the fuzz targets of testsuite/fuzz/ share.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "hostlist_fmt.h"
#include "sbucket.h"

const char *fuzz_input_name;

void fuzz_fail(const char *file, int line, const char *what)
{
	/* Straight to fd 2: stderr may be a capture right now. */
	dprintf(2, "fuzz check failed: %s:%d: %s%s%s\n", file, line, what,
		fuzz_input_name ? " (input " : "",
		fuzz_input_name ? fuzz_input_name : "");
	if (fuzz_input_name)
		dprintf(2, ")\n");
	abort();
}

char *fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	FUZZ_CHECK(s != NULL);
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

const char *fuzz_file(int slot, const void *data, size_t size)
{
	static int fd[4] = { -1, -1, -1, -1 };
	static char path[4][32];

	FUZZ_CHECK(slot >= 0 && slot < 4);
	if (fd[slot] < 0) {
		fd[slot] = memfd_create("fuzz", MFD_CLOEXEC);
		FUZZ_CHECK(fd[slot] >= 0);
		snprintf(path[slot], sizeof(path[slot]), "/proc/self/fd/%d",
			 fd[slot]);
	}
	FUZZ_CHECK(ftruncate(fd[slot], 0) == 0);
	FUZZ_CHECK(size == 0 ||
		   pwrite(fd[slot], data, size, 0) == (ssize_t) size);
	return path[slot];
}

void fuzz_capture_start(fuzz_capture_t *c)
{
	memset(c, 0, sizeof(*c));
	fflush(stdout);
	fflush(stderr);
	c->o = open_memstream(&c->out, &c->outlen);
	c->e = open_memstream(&c->err, &c->errlen);
	FUZZ_CHECK(c->o && c->e);
	c->saved_out = stdout;
	c->saved_err = stderr;
	stdout = c->o;
	stderr = c->e;
}

void fuzz_capture_stop(fuzz_capture_t *c)
{
	stdout = c->saved_out;
	stderr = c->saved_err;
	FUZZ_CHECK(fclose(c->o) == 0);
	FUZZ_CHECK(fclose(c->e) == 0);
}

void fuzz_capture_free(fuzz_capture_t *c)
{
	free(c->out);
	free(c->err);
}

int fuzz_printable(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] < ' ' || s[i] > '~')
			return 0;
	return 1;
}

void fuzz_check_message(const char *s)
{
	FUZZ_CHECK(s && *s);
	FUZZ_CHECK(fuzz_printable(s, strlen(s)));
}

void fuzz_check_one_line(const char *s, size_t len)
{
	FUZZ_CHECK(len > 1 && s[len - 1] == '\n');
	FUZZ_CHECK(fuzz_printable(s, len - 1));
}

void fuzz_check_refused(int rc, const fuzz_capture_t *c)
{
	FUZZ_CHECK(rc == SBUCKET_EXIT_INPUT || rc == SBUCKET_EXIT_USAGE);
	FUZZ_CHECK(c->outlen == 0);
	if (rc == SBUCKET_EXIT_INPUT) {
		fuzz_check_one_line(c->err, c->errlen);
		FUZZ_CHECK(!strncmp(c->err, "sbucket: ", 9));
	} else {
		FUZZ_CHECK(fuzz_lines(c->err, c->errlen) <= 2);
		fuzz_check_one_line(c->err, strcspn(c->err, "\n") + 1);
	}
}

size_t fuzz_lines(const char *s, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		n += s[i] == '\n';
	return n;
}

size_t fuzz_hostlist_names(const char *s)
{
	size_t total = 0, n, len, line;
	const char *w, *eq, *end;
	char *word;

	while (*s) {
		/* one line, without its '#' comment, as the readers cut it */
		line = strcspn(s, "\n");
		end = memchr(s, '#', line);
		end = end ? end : s + line;
		for (w = s; w < end; w += len) {
			w += strspn(w, " \t\r\v\f");
			if (w >= end)
				break;
			len = strcspn(w, " \t\r\v\f");
			if (w + len > end)
				len = (size_t) (end - w);
			if (!memchr(w, '[', len))
				continue;
			/* KEY=VALUE: the value is the hostlist */
			eq = memchr(w, '=', len);
			FUZZ_CHECK((word = eq ? strndup(eq + 1, len - (size_t)
							 (eq + 1 - w)) :
				    strndup(w, len)) != NULL);
			if (!sb_hostlist_count(word, &n, NULL, NULL) ||
			    (errno == E2BIG && (n = SB_HOSTLIST_MAX)))
				total = n > SIZE_MAX - total ? SIZE_MAX :
					total + n;
			free(word);
		}
		s += line;
		s += *s == '\n';
	}
	return total;
}
