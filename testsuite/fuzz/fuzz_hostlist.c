/*
 * fuzz_hostlist.c - Slurm hostlist expressions (bucket.conf's NodeName=,
 * sbucket's nodes files, -w and -x).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The count (no expansion) and the expansion agree: the same number of
 * names, or the same error at the same position. Expanded names are
 * never empty and hold no ',', '[' or ']'; sb_hostlist_fmt() of them
 * expands back to the same names in the same order, and so does the
 * format of the names in hostlist order (sb_hostlist_cmp() must then
 * be a consistent order). Expressions of more than 10000 names are
 * only counted: legal, and slow.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "hostlist_fmt.h"

static int _cmp(const void *a, const void *b)
{
	return sb_hostlist_cmp(*(char *const *) a, *(char *const *) b);
}

static void _roundtrip(char **names, size_t n)
{
	char *s, **back;
	size_t nback, i;

	FUZZ_CHECK((s = sb_hostlist_fmt(names, n)) != NULL);
	FUZZ_CHECK(sb_hostlist_expand(s, &back, &nback, NULL, NULL) == 0);
	FUZZ_CHECK(nback == n);
	for (i = 0; i < n; i++)
		FUZZ_CHECK(!strcmp(back[i], names[i]));
	sb_hostlist_free(back, nback);
	free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size), **names;
	const char *msg = NULL, *msg2 = NULL;
	size_t n = 0, count = 0, pos = 0, pos2 = 0, i;
	int rc, err;

	rc = sb_hostlist_count(s, &count, &pos, &msg);
	err = errno;
	if (rc) {
		FUZZ_CHECK(err == EINVAL || err == E2BIG);
		FUZZ_CHECK(pos <= strlen(s));
		fuzz_check_message(msg);
	} else {
		FUZZ_CHECK(count >= 1 && count <= SB_HOSTLIST_MAX);
	}
	if (!rc && count > 10000) {
		free(s);
		return 0;
	}
	if (sb_hostlist_expand(s, &names, &n, &pos2, &msg2)) {
		FUZZ_CHECK(rc && errno == err && pos2 == pos &&
			   !strcmp(msg, msg2));
		free(s);
		return 0;
	}
	FUZZ_CHECK(!rc && n == count);
	for (i = 0; i < n; i++)
		FUZZ_CHECK(names[i][0] && !strpbrk(names[i], ",[]"));
	_roundtrip(names, n);
	qsort(names, n, sizeof(*names), _cmp);
	for (i = 1; i < n; i++)
		FUZZ_CHECK(_cmp(&names[i - 1], &names[i]) <= 0 &&
			   _cmp(&names[i], &names[i - 1]) >= 0);
	_roundtrip(names, n);
	sb_hostlist_free(names, n);
	free(s);
	return 0;
}
