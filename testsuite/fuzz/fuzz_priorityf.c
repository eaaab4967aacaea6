/*
 * fuzz_priorityf.c - PRIORITYF expressions (bucket.conf's PriorityF,
 * sbucket's --priorityf) and their numbers.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Accepted: the canonical form parses back to the same coefficients,
 * bit for bit, and formats the same; every node's value is finite.
 * Refused: a static message, a position inside the string, errno
 * EINVAL or ERANGE, *pf untouched. The number reader agrees with the
 * grammar: what it reads is a prefix, and its shortest form reads back.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "priorityf.h"

/* Nodes with small, large and zero numbers, idle and busy. */
static void _eval(const sb_priorityf_t *pf)
{
	static const double big = 1.7e308;
	sb_node_t n;
	int i;

	for (i = 0; i < 4; i++) {
		FUZZ_CHECK(sb_node_init(&n, 0, "n") == 0);
		n.cpus = i ? 64u << i : 0;
		n.real_memory = i == 3 ? UINT64_MAX : (uint64_t) i * 1000;
		n.tmp_disk = i == 2 ? UINT64_MAX : 0;
		n.speed = i == 1 ? big : 1;
		n.load = i == 3 ? big : 0.5;
		n.run_jobs = i & 1 ? 3 : 0;
		n.weight = i == 2 ? UINT32_MAX : 1;
		FUZZ_CHECK(isfinite(sb_priorityf_eval(pf, &n, 0)));
		sb_node_fini(&n);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size), *canon, *canon2;
	char num[SB_PF_NUMBER_LEN];
	sb_priorityf_t pf, back, before;
	const char *msg = NULL;
	size_t pos = (size_t) -1, len;
	double v, w;
	int k;

	memset(&pf, 0x5a, sizeof(pf));
	before = pf;
	if (sb_priorityf_parse(s, &pf, &pos, &msg)) {
		FUZZ_CHECK(errno == EINVAL || errno == ERANGE);
		FUZZ_CHECK(pos <= strlen(s));
		fuzz_check_message(msg);
		FUZZ_CHECK(!memcmp(&pf, &before, sizeof(pf)));
	} else {
		FUZZ_CHECK(pf.used && !(pf.used >> SB_PF_NCOMP));
		for (k = 0; k < SB_PF_NCOMP; k++)
			FUZZ_CHECK(isfinite(pf.coef[k]));
		_eval(&pf);
		FUZZ_CHECK((canon = sb_priorityf_fmt(&pf)) != NULL);
		FUZZ_CHECK(sb_priorityf_parse(canon, &back, NULL, NULL) == 0);
		FUZZ_CHECK(back.used == pf.used);
		for (k = 0; k < SB_PF_NCOMP; k++)
			FUZZ_CHECK(back.coef[k] == pf.coef[k]);
		FUZZ_CHECK((canon2 = sb_priorityf_fmt(&back)) != NULL);
		FUZZ_CHECK(!strcmp(canon, canon2));
		free(canon);
		free(canon2);
	}
	v = -1;
	len = (size_t) -1;
	if (sb_priorityf_number(s, &len, &v)) {
		FUZZ_CHECK(errno == EINVAL || errno == ERANGE);
		FUZZ_CHECK(errno == EINVAL ? len == 0 : len > 0);
		FUZZ_CHECK(v == -1);
	} else {
		FUZZ_CHECK(len > 0 && len <= strlen(s));
		FUZZ_CHECK(isfinite(v) && v >= 0);
		sb_priorityf_number_fmt(num, sizeof(num), v);
		FUZZ_CHECK(!sb_priorityf_number(num, &len, &w));
		FUZZ_CHECK(len == strlen(num) && w == v);
	}
	free(s);
	return 0;
}
