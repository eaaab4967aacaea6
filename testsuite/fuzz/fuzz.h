/*
 * fuzz.h - what the fuzz targets of testsuite/fuzz/ share.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Each fuzz_<parser>.c defines LLVMFuzzerTestOneInput(): it feeds the
 * input to one parser the way its real caller does and checks more than
 * "no crash": what is accepted passes the invariant checker and its
 * canonical form parses back to the same value; what is refused gives
 * one printable line and prints nothing else. A failed check aborts
 * with a message (fuzz_fail()), which libFuzzer reports as a crash.
 *
 * Built two ways (testsuite/fuzz/fuzz.am): with clang's libFuzzer by
 * 'make fuzz', and with the ordinary compiler and fuzz_main.c, which
 * replays the seed corpus and every regression input ('make check').
 */
#ifndef SB_FUZZ_H
#define SB_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Abort, naming the check (and the input when the replay driver runs). */
#define FUZZ_CHECK(cond) \
	((cond) ? (void) 0 : fuzz_fail(__FILE__, __LINE__, #cond))

void fuzz_fail(const char *file, int line, const char *what)
	__attribute__((noreturn));

/* Set by fuzz_main.c: the file being replayed, for fuzz_fail(). */
extern const char *fuzz_input_name;

/* The input as a NUL-terminated string to free() (cut at a NUL byte). */
char *fuzz_str(const uint8_t *data, size_t size);

/*
 * The input as a file that can be opened by name: @slot (0-3) picks one
 * of four in-memory files, rewritten each time. Returns its path
 * ("/proc/self/fd/N"), valid until the next call with the same slot.
 */
const char *fuzz_file(int slot, const void *data, size_t size);

/* What a call printed: stdout and stderr swapped for memory streams. */
typedef struct {
	char *out, *err;		/* NUL-terminated after stop */
	size_t outlen, errlen;
	FILE *o, *e, *saved_out, *saved_err;
} fuzz_capture_t;

void fuzz_capture_start(fuzz_capture_t *c);
void fuzz_capture_stop(fuzz_capture_t *c);
void fuzz_capture_free(fuzz_capture_t *c);

/* Whether the @len bytes at @s are printable ASCII (' ' to '~'). */
int fuzz_printable(const char *s, size_t len);

/* @s is one line of printable ASCII, not empty, no newline. */
void fuzz_check_message(const char *s);

/* @s (@len bytes) is exactly one printable line ending in '\n'. */
void fuzz_check_one_line(const char *s, size_t len);

/*
 * What an sbucket subcommand printed when it refused its input (exit
 * status @rc): nothing on stdout; for SBUCKET_EXIT_INPUT one printable
 * line "sbucket: ..." on stderr, for SBUCKET_EXIT_USAGE the error line
 * and at most a hint line.
 */
void fuzz_check_refused(int rc, const fuzz_capture_t *c);

/* How many lines (newlines) @s holds. */
size_t fuzz_lines(const char *s, size_t len);

/*
 * How many names the hostlists of @s stand for, added up over every
 * blank-separated word holding a '[' (the value of a KEY=VALUE word),
 * outside '#' comments as the readers cut lines; words that are no
 * hostlist count 0. Targets skip inputs that would make hundreds of
 * thousands of nodes, which are legal and only slow.
 */
size_t fuzz_hostlist_names(const char *s);

#endif /* SB_FUZZ_H */
