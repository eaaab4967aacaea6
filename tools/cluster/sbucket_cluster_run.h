/*
 * sbucket_cluster_run.h - running Slurm's commands: the one way sbucket
 * starts scontrol, squeue, sprio, sshare and sacct.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A command runs from an argument vector (posix_spawnp(), no shell: no
 * word of it is ever read by one), with Slurm's time format pinned
 * (SLURM_TIME_FORMAT=standard, set by sbc_run_setup()). Its standard
 * output is what the readers parse; its standard error is kept apart
 * (its first line names a failure, the rest is drained), so that a
 * warning never reaches a parser.
 *
 * Which binary: SBUCKET_SCONTROL, SBUCKET_SQUEUE, SBUCKET_SPRIO,
 * SBUCKET_SSHARE and SBUCKET_SACCT name others (stand-ins, a site's own
 * wrapper); by default the command's name, looked up in PATH. Such a
 * variable comes from whoever started sbucket, so it is refused, with
 * one line, where that is not the user it runs as:
 *   - in a set-id sbucket (the real and effective user or group differ):
 *     always;
 *   - running as root (sudo -E keeps the caller's environment): unless it
 *     names a path (a '/' in it) to a regular file owned by root and
 *     writable by no one else, in directories that are all root's and
 *     writable by no one else (or sticky, as /tmp), so that only root
 *     could have put there what runs.
 * A refused variable is an error (sbucket stops): running another binary
 * than the one named would answer a question nobody asked.
 *
 * Operations:
 *   sbc_cmd_name, sbc_cmd_env  O(1)
 *   sbc_run_setup    O(1)
 *   sbc_proc_start   O(1) + the spawn (an override's path checked:
 *                    O(its depth))
 *   sbc_proc_read    O(n) bytes read, waiting for the command
 *   sbc_proc_finish  O(the rest of the output) + the wait
 *   sbc_run, sbc_run_quiet  O(output)
 *   sbc_run_source   O(1)
 */
#ifndef SBUCKET_CLUSTER_RUN_H
#define SBUCKET_CLUSTER_RUN_H

#include <stddef.h>
#include <sys/types.h>

/* The commands sbucket runs. */
typedef enum {
	SBC_SCONTROL,
	SBC_SQUEUE,
	SBC_SPRIO,
	SBC_SSHARE,
	SBC_SACCT,
	SBC_NCMDS
} sbc_cmd_t;

/* Its name ("scontrol"), and the variable that names another binary
 * ("SBUCKET_SCONTROL"). */
const char *sbc_cmd_name(sbc_cmd_t cmd);
const char *sbc_cmd_env(sbc_cmd_t cmd);

/*
 * What the commands read from the environment: SLURM_TIME_FORMAT=standard
 * (the one form the readers parse). Call once before the first command.
 */
void sbc_run_setup(void);

/* A command running, its standard output being read. */
typedef struct sbc_proc sbc_proc_t;

/* The longest line sbc_run() hands over (a job record of 100,000 nodes
 * is far below it). */
#define SBC_LINE_MAX (64u << 20)

/*
 * Start @cmd with the words @args (NULL-terminated, the program's name
 * not included). Returns the running command, or NULL after writing why
 * into @err (@errlen bytes, one line: "cannot run scontrol: ...", a
 * refused SBUCKET_ variable).
 */
sbc_proc_t *sbc_proc_start(sbc_cmd_t cmd, const char *const *args, char *err,
		      size_t errlen);

/*
 * Up to @n bytes of its standard output into @buf (its standard error is
 * read meanwhile, so the command never blocks on it). Returns how many,
 * 0 at the end, -1 with errno on a read error.
 */
ssize_t sbc_proc_read(sbc_proc_t *p, char *buf, size_t n);

/*
 * Drain what is left, wait for the command and free @p (NULL: 0).
 * Returns 0 when it exited with status 0, else -1 after writing into
 * @err why: its standard error's first line, "exit status N, no
 * message", "killed by signal N".
 */
int sbc_proc_finish(sbc_proc_t *p, char *err, size_t errlen);

/*
 * Run @cmd @args and hand each line of its standard output (the newline
 * removed; @len its length, NUL bytes in it possible) to @fn; a line @fn
 * refuses (-1) stops the handing (the output is still drained) and
 * makes the result -1 (@fn printed why). Returns 0, or -1 after printing
 * one error line: "sbucket: 'scontrol show config' failed: <its first
 * error line>", a line longer than SBC_LINE_MAX, a refused variable.
 */
int sbc_run(sbc_cmd_t cmd, const char *const *args,
	    int (*fn)(void *arg, char *line, size_t len), void *arg);

/*
 * sbc_run(), but a command that cannot run or fails is said in @err
 * instead of on stderr (for a command whose failure is no error: sacct
 * without accounting). @fn's refusal is still -1 with @err "".
 */
int sbc_run_quiet(sbc_cmd_t cmd, const char *const *args,
		  int (*fn)(void *arg, char *line, size_t len), void *arg,
		  char *err, size_t errlen);

/*
 * The commands' output from memory, for the fuzz targets of the readers
 * (testsuite/fuzz/fuzz_cluster_*.c): while @fn is set (NULL: unset), no
 * command runs; @fn answers for each, with the bytes of its standard
 * output (*@len of them, to outlive the reading) or NULL for a command
 * that fails ("failed" its message).
 */
typedef const char *(*sbc_source_fn)(sbc_cmd_t cmd, const char *const *args,
				     size_t *len);
void sbc_run_source(sbc_source_fn fn);

#endif /* SBUCKET_CLUSTER_RUN_H */
