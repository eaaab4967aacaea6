/*
 * sbucket_cluster_request.c - a job's request, written as a line of
 * 'sbucket place''s jobs file and read by its parser (sbucket_cluster.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sb_time.h"
#include "sbucket_cluster_priv.h"
#include "shown.h"
#include "strbuf.h"

/*
 * Add " @opt @v" to @b; false when @v holds a blank or a control
 * character, which would make it more than one word of the line (Slurm
 * checks these values, so that would be text it did not write).
 */
static bool _word(sb_strbuf_t *b, const char *opt, const char *v)
{
	const char *p;

	for (p = v; *p; p++)
		if ((unsigned char) *p <= ' ' || *p == 0x7f)
			return false;
	sb_strbuf_addf(b, " %s%s%s", opt, opt[strlen(opt) - 1] == '=' ?
		       "" : " ", v);
	return true;
}

int sbc_request(sbc_cluster_t *c, sbc_job_t *j)
{
	sb_strbuf_t b = SB_STRBUF_INIT;
	char where[128], sh[SB_SHOWN_BUF], *copy;
	uint64_t mem = j->mem_node;
	bool ok = true;
	int got;

	sb_strbuf_addf(&b, "JobId=%s -N %" PRIu32 " --exclusive", j->id,
		       j->min_nodes ? j->min_nodes : 1);
	if (j->features)
		ok &= _word(&b, "-C", j->features);
	if (!mem && j->mem_cpu)
		mem = j->mem_cpu * (j->node_cpus ? j->node_cpus : 1);
	sb_strbuf_addf(&b, " --mem=%" PRIu64 " --tmp=%" PRIu64
		       " --mincpus=%" PRIu32, mem, j->tmp_node, j->node_cpus);
	if (j->time_limit == SB_TIME_INFINITE)
		sb_strbuf_add(&b, " -t UNLIMITED");
	else
		sb_strbuf_addf(&b, " -t 0:0:%" PRId64, j->time_limit);
	if (j->part >= 0)
		ok &= _word(&b, "-p", c->parts[j->part].name);
	if (j->gres)
		ok &= _word(&b, "--gres=", j->gres);
	if (j->req_nodes)
		ok &= _word(&b, "-w", j->req_nodes);
	if (j->exc_nodes)
		ok &= _word(&b, "-x", j->exc_nodes);
	if (j->contiguous)
		sb_strbuf_add(&b, " --contiguous");
	free(j->req_line);
	if (!(j->req_line = sb_strbuf_finish(&b)))
		return sbc__oom();
	if (!ok) {
		fprintf(stderr, PROG ": job %s: its request cannot be "
			"modelled: a value holds a blank: %s\n", j->id,
			sb_shown(sh, sizeof(sh), j->req_line));
		return -1;
	}
	if (!(copy = strdup(j->req_line)))
		return sbc__oom();
	snprintf(where, sizeof(where), "job %s, as", j->id);
	got = sbi_parse_job(where, 1, copy, &c->cl, &j->req);
	free(copy);
	if (got != 1) {
		fprintf(stderr, PROG ": job %s: its request cannot be "
			"modelled: %s\n", j->id,
			sb_shown(sh, sizeof(sh), j->req_line));
		return -1;
	}
	j->have_req = true;
	return 0;
}
