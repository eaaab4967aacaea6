/*
 * sbucket_input_trace.c - a workload as 'sbucket replay' reads it, and
 * the lines of a file that may be gzip-compressed
 * (sbucket_input_trace.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Lines are cut from large blocks that zlib decompresses (gzread), not
 * read one by one (gzgets): SDSC-BLUE's 25 MB go through in a few tens
 * of milliseconds.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "sbucket_input_sacct.h"
#include "sbucket_input_swf.h"
#include "sbucket_input_trace.h"
#include "shown.h"

#define BLOCK (256 * 1024)

/* ---- the trace ----------------------------------------------------------- */

int sbi_trace_init(sbi_trace_t *t)
{
	memset(t, 0, sizeof(*t));
	t->max_procs = t->max_nodes = t->start = -1;
	if (!(t->umap = sb_strmap_create()) ||
	    !(t->amap = sb_strmap_create())) {
		sbi_trace_fini(t);
		fprintf(stderr, "sbucket: out of memory\n");
		return -1;
	}
	return 0;
}

void sbi_trace_fini(sbi_trace_t *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->njobs; i++)
		free(t->jobs[i].id);
	for (i = 0; i < t->nusers; i++)
		free(t->users[i]);
	for (i = 0; i < t->naccounts; i++)
		free(t->accounts[i]);
	free(t->jobs);
	free(t->users);
	free(t->accounts);
	sb_strmap_destroy(t->umap);
	sb_strmap_destroy(t->amap);
	memset(t, 0, sizeof(*t));
}

static size_t _intern(sb_strmap_t *m, char ***names, size_t *n,
		      const char *name)
{
	size_t i = sb_strmap_get(m, name);
	char **v, *c;

	if (i != SIZE_MAX)
		return i;
	if (!(v = realloc(*names, (*n + 1) * sizeof(*v))))
		return SIZE_MAX;
	*names = v;
	if (!(c = strdup(name)))
		return SIZE_MAX;
	if (sb_strmap_put(m, name, *n) < 0) {
		free(c);
		return SIZE_MAX;
	}
	v[*n] = c;
	return (*n)++;
}

size_t sbi_trace_user(sbi_trace_t *t, const char *name)
{
	return _intern(t->umap, &t->users, &t->nusers, name);
}

size_t sbi_trace_account(sbi_trace_t *t, const char *name)
{
	return _intern(t->amap, &t->accounts, &t->naccounts, name);
}

sbi_trace_job_t *sbi_trace_add(sbi_trace_t *t, const char *user,
			       const char *account, const char *path,
			       size_t lineno)
{
	char p[SB_SHOWN_BUF];
	sbi_trace_job_t *j;
	size_t u, a;

	if (t->njobs == SBI_TRACE_JOBS_MAX) {
		fprintf(stderr, "sbucket: %s:%zu: more than %zu jobs\n",
			sb_shown(p, sizeof(p), path), lineno,
			SBI_TRACE_JOBS_MAX);
		return NULL;
	}
	if (t->njobs == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024;
		sbi_trace_job_t *v = realloc(t->jobs, cap * sizeof(*v));

		if (!v)
			goto oom;
		t->jobs = v;
		t->cap = cap;
	}
	if ((u = sbi_trace_user(t, user)) == SIZE_MAX ||
	    (a = sbi_trace_account(t, account)) == SIZE_MAX)
		goto oom;
	j = &t->jobs[t->njobs];
	memset(j, 0, sizeof(*j));
	j->user = (uint32_t) u;
	j->account = (uint32_t) a;
	return j;
oom:
	fprintf(stderr, "sbucket: out of memory\n");
	return NULL;
}

/* ---- lines --------------------------------------------------------------- */

struct sbi_lines {
	const char *path;
	gzFile gz;
	char *buf;			/* decompressed bytes */
	size_t len, pos;		/* held, and read up to */
	char *line;			/* the line handed out */
	size_t cap;
	size_t lineno;
	bool eof;
};

sbi_lines_t *sbi_lines_open(const char *path)
{
	char p[SB_SHOWN_BUF];
	sbi_lines_t *l = NULL;
	struct stat st;
	int fd;

	sb_shown(p, sizeof(p), path);
	fd = strcmp(path, "-") ? open(path, O_RDONLY) : dup(0);
	if (fd < 0) {
		fprintf(stderr, "sbucket: %s: %s\n", p, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0) {
		fprintf(stderr, "sbucket: %s: %s\n", p, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode) && !(!strcmp(path, "-") &&
				      S_ISFIFO(st.st_mode))) {
		fprintf(stderr, "sbucket: %s: not a regular file\n", p);
		goto fail;
	}
	if (S_ISREG(st.st_mode) && st.st_size > SBI_TRACE_FILE_MAX) {
		fprintf(stderr, "sbucket: %s: larger than 4 GiB\n", p);
		goto fail;
	}
	if (!(l = calloc(1, sizeof(*l))) || !(l->buf = malloc(BLOCK)) ||
	    !(l->line = malloc(BLOCK + 1))) {
		fprintf(stderr, "sbucket: out of memory\n");
		goto fail;
	}
	l->cap = BLOCK + 1;
	l->path = path;
	if (!(l->gz = gzdopen(fd, "rb"))) {
		fprintf(stderr, "sbucket: %s: out of memory\n", p);
		goto fail;
	}
	gzbuffer(l->gz, BLOCK);
	return l;
fail:
	if (l) {
		free(l->buf);
		free(l->line);
		free(l);
	}
	close(fd);
	return NULL;
}

void sbi_lines_close(sbi_lines_t *l)
{
	if (!l)
		return;
	if (l->gz)
		gzclose(l->gz);
	free(l->buf);
	free(l->line);
	free(l);
}

/* zlib's error on @l, if any: one error line, -1; else 0. */
static int _gz_error(sbi_lines_t *l)
{
	char p[SB_SHOWN_BUF];
	const char *msg;
	int e;

	msg = gzerror(l->gz, &e);
	if (e == Z_OK || e == Z_STREAM_END)
		return 0;
	/* zlib names the file "<fd:3>: ": we name it ourselves */
	if (msg[0] == '<' && strstr(msg, ">: "))
		msg = strstr(msg, ">: ") + 3;
	fprintf(stderr, "sbucket: %s: gzip: %s\n",
		sb_shown(p, sizeof(p), l->path),
		e == Z_ERRNO ? strerror(errno) : msg);
	return -1;
}

/* More bytes into l->buf; 1, 0 at the end, -1 after an error line. */
static int _fill(sbi_lines_t *l)
{
	int n;

	if (l->eof)
		return 0;
	n = gzread(l->gz, l->buf, BLOCK);
	if (n < 0) {
		char p[SB_SHOWN_BUF];

		if (!_gz_error(l))
			fprintf(stderr, "sbucket: %s: read error\n",
				sb_shown(p, sizeof(p), l->path));
		return -1;
	}
	if (n == 0) {
		/* the end, or a gzip stream cut short or corrupt */
		if (_gz_error(l) < 0)
			return -1;
		l->eof = true;
		return 0;
	}
	l->len = (size_t) n;
	l->pos = 0;
	return 1;
}

int sbi_lines_next(sbi_lines_t *l, char **line, size_t *len,
		   size_t *lineno)
{
	char p[SB_SHOWN_BUF];
	size_t n = 0;
	int rc;

	for (;;) {
		char *nl;
		size_t take;

		if (l->pos == l->len) {
			if ((rc = _fill(l)) < 0)
				return -1;
			if (!rc) {
				if (!n)
					return 0;
				break;	/* a last line without newline */
			}
		}
		nl = memchr(l->buf + l->pos, '\n', l->len - l->pos);
		take = (nl ? (size_t) (nl - l->buf) : l->len) - l->pos;
		if (n + take > SBI_TRACE_LINE_MAX) {
			fprintf(stderr, "sbucket: %s:%zu: longer than %d "
				"bytes\n", sb_shown(p, sizeof(p), l->path),
				l->lineno + 1, SBI_TRACE_LINE_MAX);
			return -1;
		}
		if (n + take + 1 > l->cap) {
			char *v = realloc(l->line, n + take + 1);

			if (!v) {
				fprintf(stderr, "sbucket: out of memory\n");
				return -1;
			}
			l->line = v;
			l->cap = n + take + 1;
		}
		memcpy(l->line + n, l->buf + l->pos, take);
		n += take;
		l->pos += take;
		if (nl) {
			l->pos++;
			break;
		}
	}
	l->line[n] = '\0';
	l->lineno++;
	if (memchr(l->line, '\0', n)) {
		fprintf(stderr, "sbucket: %s:%zu: a NUL byte (not a text "
			"file?)\n", sb_shown(p, sizeof(p), l->path),
			l->lineno);
		return -1;
	}
	if (n && l->line[n - 1] == '\r')	/* a file from Windows */
		l->line[--n] = '\0';
	*line = l->line;
	*len = n;
	*lineno = l->lineno;
	return 1;
}

/* ---- a whole file -------------------------------------------------------- */

int sbi_trace_read(const char *path, sbi_trace_format_t format,
		   bool skip_bad, sbi_trace_t *t)
{
	sbi_lines_t *l = sbi_lines_open(path);
	sbi_sacct_t sacct;
	size_t len, lineno;
	char *line;
	int rc;

	if (!l)
		return -1;
	sbi_sacct_init(&sacct);
	while ((rc = sbi_lines_next(l, &line, &len, &lineno)) > 0) {
		if (format == SBI_TRACE_AUTO) {
			if (!line[strspn(line, " \t")])
				continue;
			format = strchr(line, '|') ? SBI_TRACE_SACCT :
				SBI_TRACE_SWF;
		}
		rc = format == SBI_TRACE_SACCT ?
			sbi_sacct_line(t, &sacct, line, path, lineno,
				       skip_bad) :
			sbi_swf_line(t, line, path, lineno, skip_bad);
		if (rc < 0)
			break;
		if (rc) {
			if (!skip_bad) {
				rc = -1;
				break;
			}
			t->skipped++;
		}
	}
	sbi_lines_close(l);
	if (rc < 0)
		return -1;
	if (format == SBI_TRACE_SACCT)
		return sbi_sacct_finish(t, &sacct, path);
	return 0;
}
