/*
 * fuzz_nodes.c - the nodes files of 'sbucket place' and 'sbucket
 * backfill' (sbp_read_nodes()).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Accepted: nothing printed; every node passes sb_node_check(), sits at
 * its index, and is found by name through the sorted index, which holds
 * every node once. Refused: nothing on stdout, exactly one printable
 * line on stderr, and an empty cluster. Files of more than 20000 nodes
 * are skipped: legal, and slow.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "sbucket_place_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_str(data, size);
	fuzz_capture_t cap;
	sbp_cluster_t cl;
	const char *path;
	size_t i;
	int rc;

	if (fuzz_hostlist_names(text) > 20000) {
		free(text);
		return 0;
	}
	path = fuzz_file(0, data, size);
	fuzz_capture_start(&cap);
	rc = sbp_read_nodes(path, &cl);
	fuzz_capture_stop(&cap);
	FUZZ_CHECK(cap.outlen == 0);
	if (rc) {
		FUZZ_CHECK(rc == -1);
		fuzz_check_one_line(cap.err, cap.errlen);
		FUZZ_CHECK(!strncmp(cap.err, "sbucket: ", 9));
		FUZZ_CHECK(cl.n == 0 && !cl.nodes && !cl.by_name);
	} else {
		FUZZ_CHECK(cap.errlen == 0);
		FUZZ_CHECK(cl.n >= 1 && cl.nindexed == cl.n);
		for (i = 0; i < cl.n; i++) {
			FUZZ_CHECK(cl.nodes[i].index == i);
			FUZZ_CHECK(sb_node_check(&cl.nodes[i]) == 0);
			FUZZ_CHECK(cl.nodes[i].speed > 0);
			FUZZ_CHECK(sbp_find_node(&cl, cl.nodes[i].name) ==
				   (long) i);
			FUZZ_CHECK(!i ||
				   strcmp(cl.nodes[cl.by_name[i - 1]].name,
					  cl.nodes[cl.by_name[i]].name) < 0);
		}
		FUZZ_CHECK(!cl.default_partition || cl.default_partition[0]);
		sbp_cluster_fini(&cl);
	}
	fuzz_capture_free(&cap);
	free(text);
	return 0;
}
