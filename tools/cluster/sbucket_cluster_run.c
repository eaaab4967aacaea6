/*
 * sbucket_cluster_run.c - running Slurm's commands
 * (sbucket_cluster_run.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE		/* pipe2() */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sbucket_cluster_run.h"
#include "shown.h"
#include "strbuf.h"

#define PROG "sbucket"

extern char **environ;

static const struct {
	const char *name, *env;
} _cmds[SBC_NCMDS] = {
	[SBC_SCONTROL] = { "scontrol", "SBUCKET_SCONTROL" },
	[SBC_SQUEUE] = { "squeue", "SBUCKET_SQUEUE" },
	[SBC_SPRIO] = { "sprio", "SBUCKET_SPRIO" },
	[SBC_SSHARE] = { "sshare", "SBUCKET_SSHARE" },
	[SBC_SACCT] = { "sacct", "SBUCKET_SACCT" },
};

const char *sbc_cmd_name(sbc_cmd_t cmd)
{
	return cmd < SBC_NCMDS ? _cmds[cmd].name : "?";
}

const char *sbc_cmd_env(sbc_cmd_t cmd)
{
	return cmd < SBC_NCMDS ? _cmds[cmd].env : "?";
}

void sbc_run_setup(void)
{
	/* scontrol's and squeue's times in the one form the readers read */
	setenv("SLURM_TIME_FORMAT", "standard", 1);
}

/* sbc_run_source()'s: the commands' output from memory. */
static sbc_source_fn _source;

void sbc_run_source(sbc_source_fn fn)
{
	_source = fn;
}

struct sbc_proc {
	const char *mem;		/* _source's answer */
	size_t mlen, moff;
	bool mfail;			/* _source's command fails */
	pid_t pid;
	int out, err;			/* read ends, -1 at their end */
	char first[256];		/* stderr's first line */
	size_t nfirst;
	bool first_done;		/* its newline was seen */
	char what[48];			/* "scontrol", for messages */
};

/*
 * Is @st (of a directory) safe to hold what root runs: root's, and
 * writable by no one else, or sticky (no one else can replace root's
 * files in it)?
 */
static bool _dir_safe(const struct stat *st)
{
	return st->st_uid == 0 &&
		(!(st->st_mode & (S_IWGRP | S_IWOTH)) ||
		 (st->st_mode & S_ISVTX));
}

/*
 * The binary named by @env's value @v, for root: its real path (to
 * free()), or NULL after writing why not into @err.
 */
static char *_root_binary(const char *env, const char *v, char *err,
			  size_t errlen)
{
	char sh[SB_SHOWN_BUF], *real = NULL, *dir = NULL, *slash;
	struct stat st;

	sb_shown(sh, sizeof(sh), v);
	if (!strchr(v, '/')) {
		snprintf(err, errlen, "%s=%s: refused: sbucket runs as root "
			 "and the value names no path", env, sh);
		return NULL;
	}
	if (!(real = realpath(v, NULL)) || stat(real, &st) < 0 ||
	    !(dir = strdup(real))) {
		snprintf(err, errlen, "%s=%s: %s", env, sh, strerror(errno));
		free(real);
		return NULL;
	}
	if (!S_ISREG(st.st_mode) || st.st_uid != 0 ||
	    (st.st_mode & (S_IWGRP | S_IWOTH)))
		goto unsafe;
	/* every directory above it, up to / (realpath()'s is absolute) */
	for (;;) {
		slash = strrchr(dir, '/');
		slash[slash == dir ? 1 : 0] = '\0';
		if (stat(dir, &st) < 0 || !_dir_safe(&st))
			goto unsafe;
		if (!strcmp(dir, "/"))
			break;
	}
	free(dir);
	return real;
unsafe:
	snprintf(err, errlen, "%s=%s: refused: sbucket runs as root, and "
		 "runs only a file of root's in directories of root's that "
		 "no one else can write", env, sh);
	free(dir);
	free(real);
	return NULL;
}

/*
 * The program to run for @cmd into *@prog (*@own: a copy to free, or
 * NULL): the SBUCKET_ variable's value where it is taken, else the
 * command's name. 0, or -1 after writing why into @err.
 */
static int _program(sbc_cmd_t cmd, const char **prog, char **own, char *err,
		    size_t errlen)
{
	const char *env = _cmds[cmd].env, *v = getenv(env);

	*own = NULL;
	*prog = _cmds[cmd].name;
	if (!v || !*v)
		return 0;
	if (getuid() != geteuid() || getgid() != getegid()) {
		snprintf(err, errlen, "%s: refused: sbucket runs set-id, and "
			 "takes no binary from its caller's environment", env);
		return -1;
	}
	if (geteuid() == 0) {
		if (!(*own = _root_binary(env, v, err, errlen)))
			return -1;
		*prog = *own;
		return 0;
	}
	*prog = v;
	return 0;
}

sbc_proc_t *sbc_proc_start(sbc_cmd_t cmd, const char *const *args, char *err,
		      size_t errlen)
{
	posix_spawn_file_actions_t fa;
	int out[2] = { -1, -1 }, er[2] = { -1, -1 }, rc;
	const char *prog, **argv = NULL;
	char *own = NULL;
	sbc_proc_t *p = NULL;
	size_t n = 0, i;

	if (cmd >= SBC_NCMDS) {
		snprintf(err, errlen, "no such command");
		return NULL;
	}
	if (_source) {
		if (!(p = calloc(1, sizeof(*p)))) {
			snprintf(err, errlen, "out of memory");
			return NULL;
		}
		p->mem = _source(cmd, args, &p->mlen);
		p->mfail = !p->mem;
		p->out = p->err = -1;
		snprintf(p->what, sizeof(p->what), "%s", _cmds[cmd].name);
		return p;
	}
	if (_program(cmd, &prog, &own, err, errlen) < 0)
		return NULL;
	while (args && args[n])
		n++;
	if (!(argv = calloc(n + 2, sizeof(*argv))) ||
	    !(p = calloc(1, sizeof(*p)))) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	argv[0] = prog;
	for (i = 0; i < n; i++)
		argv[i + 1] = args[i];
	snprintf(p->what, sizeof(p->what), "%s", _cmds[cmd].name);
	if (pipe2(out, O_CLOEXEC) < 0 || pipe2(er, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "cannot run %s: %s", p->what,
			 strerror(errno));
		goto fail;
	}
	if ((rc = posix_spawn_file_actions_init(&fa))) {
		snprintf(err, errlen, "cannot run %s: %s", p->what,
			 strerror(rc));
		goto fail;
	}
	/* its stdin is nothing; stdout and stderr are two pipes (the
	 * dup2()s clear their close-on-exec flag) */
	rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY,
					      0);
	if (!rc)
		rc = posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	if (!rc)
		rc = posix_spawn_file_actions_adddup2(&fa, er[1], 2);
	if (!rc)
		rc = posix_spawnp(&p->pid, prog, &fa, NULL,
				  (char *const *) argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		char sh[SB_SHOWN_BUF];

		snprintf(err, errlen, "cannot run %s: %s", sb_shown(sh,
			 sizeof(sh), prog), strerror(rc));
		goto fail;
	}
	close(out[1]);
	close(er[1]);
	p->out = out[0];
	p->err = er[0];
	free(argv);
	free(own);
	return p;
fail:
	for (i = 0; i < 2; i++) {
		if (out[i] >= 0)
			close(out[i]);
		if (er[i] >= 0)
			close(er[i]);
	}
	free(argv);
	free(own);
	free(p);
	return NULL;
}

/* Read what stderr has: its first line kept, the rest dropped. */
static void _read_err(sbc_proc_t *p)
{
	char buf[4096];
	ssize_t n, i;

	do
		n = read(p->err, buf, sizeof(buf));
	while (n < 0 && errno == EINTR);
	if (n <= 0) {
		close(p->err);
		p->err = -1;
		return;
	}
	for (i = 0; i < n && !p->first_done; i++) {
		if (buf[i] == '\n' && p->nfirst) {
			p->first_done = true;
		} else if (buf[i] != '\n' && buf[i] != '\r' &&
			   p->nfirst + 1 < sizeof(p->first)) {
			p->first[p->nfirst++] = buf[i];
			p->first[p->nfirst] = '\0';
		}
	}
}

ssize_t sbc_proc_read(sbc_proc_t *p, char *buf, size_t n)
{
	struct pollfd fds[2];
	ssize_t got;

	if (p->mem || p->mfail) {
		size_t k = p->mlen - p->moff < n ? p->mlen - p->moff : n;

		if (k)
			memcpy(buf, p->mem + p->moff, k);
		p->moff += k;
		return (ssize_t) k;
	}
	while (p->out >= 0) {
		nfds_t k = 0;

		fds[k++] = (struct pollfd) { .fd = p->out, .events = POLLIN };
		if (p->err >= 0)
			fds[k++] = (struct pollfd) { .fd = p->err,
						     .events = POLLIN };
		if (poll(fds, k, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (k > 1 && fds[1].revents)
			_read_err(p);
		if (!fds[0].revents)
			continue;
		do
			got = read(p->out, buf, n);
		while (got < 0 && errno == EINTR);
		if (got < 0)
			return -1;
		if (got > 0)
			return got;
		close(p->out);
		p->out = -1;
	}
	return 0;
}

int sbc_proc_finish(sbc_proc_t *p, char *err, size_t errlen)
{
	char buf[65536], sh[SB_SHOWN_BUF];
	int status, rc = -1;

	if (!p)
		return 0;
	if (p->mem || p->mfail) {
		rc = p->mfail ? -1 : 0;
		if (rc)
			snprintf(err, errlen, "failed");
		free(p);
		return rc;
	}
	while (sbc_proc_read(p, buf, sizeof(buf)) > 0)
		;
	if (p->out >= 0)
		close(p->out);
	while (p->err >= 0)
		_read_err(p);
	while (waitpid(p->pid, &status, 0) < 0) {
		if (errno != EINTR) {
			snprintf(err, errlen, "%s: %s", p->what,
				 strerror(errno));
			goto out;
		}
	}
	if (WIFEXITED(status) && !WEXITSTATUS(status)) {
		rc = 0;
	} else if (p->nfirst) {
		snprintf(err, errlen, "%s", sb_shown(sh, sizeof(sh),
						      p->first));
	} else if (WIFEXITED(status)) {
		snprintf(err, errlen, "exit status %d, no message",
			 WEXITSTATUS(status));
	} else {
		snprintf(err, errlen, "killed by signal %d",
			 WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	}
out:
	free(p);
	return rc;
}

/* "scontrol show config", for messages. */
static void _display(sbc_cmd_t cmd, const char *const *args, char *buf,
		     size_t len)
{
	size_t off = (size_t) snprintf(buf, len, "%s", sbc_cmd_name(cmd));

	for (; args && *args && off < len; args++)
		off += (size_t) snprintf(buf + off, len - off, " %s", *args);
}

/* Append @n bytes of @s to the line *@line (*@len of *@room): 0, or -1
 * when it would pass SBC_LINE_MAX or memory is short. */
static int _append(char **line, size_t *len, size_t *room, const char *s,
		   size_t n)
{
	if (*len + n > SBC_LINE_MAX)
		return -1;
	if (*len + n + 1 > *room) {
		size_t r = 2 * (*len + n + 1);
		char *v = realloc(*line, r);

		if (!v)
			return -1;
		*line = v;
		*room = r;
	}
	memcpy(*line + *len, s, n);
	*len += n;
	return 0;
}

#define CHUNK 65536

static int _run(sbc_cmd_t cmd, const char *const *args,
		int (*fn)(void *, char *, size_t), void *arg, char *err,
		size_t errlen, bool quiet)
{
	char why[512] = "", cmdline[256], *line = NULL, *buf;
	size_t len = 0, room = 0;
	bool refused = false, too_long = false;
	sbc_proc_t *p;
	ssize_t n;
	int rc, read_errno;

	if (!(buf = malloc(CHUNK))) {
		fprintf(stderr, PROG ": out of memory\n");
		return -1;
	}
	if (!(p = sbc_proc_start(cmd, args, why, sizeof(why)))) {
		free(buf);
		if (quiet)
			snprintf(err, errlen, "%s", why);
		else
			fprintf(stderr, PROG ": %s\n", why);
		return -1;
	}
	while ((n = sbc_proc_read(p, buf, CHUNK)) > 0) {
		const char *s = buf, *end = buf + n, *nl;

		while (s < end) {
			size_t seg;

			nl = memchr(s, '\n', (size_t) (end - s));
			seg = (size_t) ((nl ? nl : end) - s);
			if (!refused && !too_long &&
			    _append(&line, &len, &room, s, seg) < 0)
				too_long = true;
			s += seg;
			if (!nl)
				break;
			s++;
			if (!refused && !too_long) {
				while (len && line[len - 1] == '\r')
					len--;
				if (!line && _append(&line, &len, &room, "",
						     0) < 0) {
					too_long = true;
					continue;
				}
				line[len] = '\0';
				if (fn(arg, line, len) < 0)
					refused = true;
			}
			len = 0;
		}
	}
	/* the last line, when it has no newline */
	if (!n && len && !refused && !too_long) {
		line[len] = '\0';
		if (fn(arg, line, len) < 0)
			refused = true;
	}
	read_errno = errno;
	free(buf);
	free(line);
	rc = sbc_proc_finish(p, why, sizeof(why));
	_display(cmd, args, cmdline, sizeof(cmdline));
	if (quiet)
		err[0] = '\0';
	if (refused)
		return -1;
	if (too_long || n < 0) {
		fprintf(stderr, PROG ": '%s': %s\n", cmdline, too_long ?
			"a line longer than 64 MiB, or out of memory" :
			strerror(read_errno));
		return -1;
	}
	if (rc < 0) {
		if (quiet)
			snprintf(err, errlen, "%s", why);
		else
			fprintf(stderr, PROG ": '%s' failed: %s\n", cmdline,
				why);
		return -1;
	}
	return 0;
}

int sbc_run(sbc_cmd_t cmd, const char *const *args,
	    int (*fn)(void *, char *, size_t), void *arg)
{
	return _run(cmd, args, fn, arg, NULL, 0, false);
}

int sbc_run_quiet(sbc_cmd_t cmd, const char *const *args,
		  int (*fn)(void *, char *, size_t), void *arg, char *err,
		  size_t errlen)
{
	return _run(cmd, args, fn, arg, err, errlen, true);
}
