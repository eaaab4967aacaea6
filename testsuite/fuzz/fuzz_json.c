/*
 * fuzz_json.c - JSON as Slurm's commands print it, through the reader of
 * common/base/json.h, whole (sb_json_parse()) and walked from a stream
 * (the way sbucket reads squeue --json: an object, its members, the
 * elements of an array value as trees).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Accepted: the tree passes sb_json_check(), its canonical form parses
 * back to the same canonical form, and the walk accepts an object input
 * too. Refused: one printable line saying where and why, errno EINVAL or
 * EOVERFLOW.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "json.h"

typedef struct {
	const uint8_t *d;
	size_t n, off;
} _src_t;

/* The input a few bytes at a time, as a pipe hands it over. */
static ssize_t _read(void *arg, char *buf, size_t n)
{
	_src_t *s = arg;
	size_t k = s->n - s->off;

	if (k > 7)
		k = 7;
	if (k > n)
		k = n;
	memcpy(buf, s->d + s->off, k);
	s->off += k;
	return (ssize_t) k;
}

/* The walk: 1 accepted, 0 refused. */
static int _walk(const uint8_t *data, size_t size)
{
	_src_t src = { data, size, 0 };
	sb_json_reader_t *r = sb_json_reader_create(_read, &src);
	const char *key;
	int more, ok = 0;

	FUZZ_CHECK(r != NULL);
	if (sb_json_object_begin(r) < 0)
		goto out;
	while ((more = sb_json_object_next(r, &key)) == 1) {
		FUZZ_CHECK(key != NULL);
		if (sb_json_peek(r) != SB_JSON_ARRAY) {
			if (sb_json_skip(r) < 0)
				goto out;
			continue;
		}
		FUZZ_CHECK(sb_json_array_begin(r) == 0);
		while ((more = sb_json_array_next(r)) == 1) {
			sb_json_t *v = sb_json_value(r);

			if (!v)
				goto out;
			FUZZ_CHECK(sb_json_check(v) == 0);
			sb_json_free(v);
		}
		if (more < 0)
			goto out;
	}
	ok = more == 0 && sb_json_end(r) == 0;
out:
	if (!ok) {
		FUZZ_CHECK(errno == EINVAL || errno == EOVERFLOW);
		fuzz_check_message(sb_json_error(r));
	}
	sb_json_reader_destroy(r);
	return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[200] = "", *f1, *f2;
	sb_json_t *v, *w;
	int walked;

	v = sb_json_parse((const char *) data, size, err, sizeof(err));
	walked = _walk(data, size);
	if (!v) {
		FUZZ_CHECK(errno == EINVAL || errno == EOVERFLOW);
		fuzz_check_message(err);
		FUZZ_CHECK(!walked);
		return 0;
	}
	FUZZ_CHECK(sb_json_check(v) == 0);
	/* an object (of arrays or not) walks as it parses */
	if (sb_json_type(v) == SB_JSON_OBJECT)
		FUZZ_CHECK(walked);
	FUZZ_CHECK((f1 = sb_json_fmt(v)) != NULL);
	FUZZ_CHECK((w = sb_json_parse(f1, strlen(f1), err, sizeof(err))));
	FUZZ_CHECK((f2 = sb_json_fmt(w)) != NULL);
	FUZZ_CHECK(!strcmp(f1, f2));
	free(f1);
	free(f2);
	sb_json_free(v);
	sb_json_free(w);
	return 0;
}
