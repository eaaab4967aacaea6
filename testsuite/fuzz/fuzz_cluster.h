/*
 * fuzz_cluster.h - what the fuzz targets of the running cluster's reader
 * share (fuzz_cluster_text.c, fuzz_cluster_json.c): a small cluster
 * whose configuration, nodes, partition and reservation are fixed (t28's,
 * testsuite/golden/why/data), the jobs being the input, fed through
 * sbc_run_source() as the commands would print them, and the checks of
 * what the reader made of them.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SB_FUZZ_CLUSTER_H
#define SB_FUZZ_CLUSTER_H

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "sbucket_cluster.h"
#include "sbucket_cluster_run.h"

static const char fuzz_cl_config[] =
	"Configuration data as of 2026-11-23T11:06:21\n"
	"AccountingStorageType   = accounting_storage/none\n"
	"PreemptType             = preempt/none\n"
	"PriorityType            = priority/basic\n"
	"SchedulerParameters     = bf_interval=1,bf_resolution=1\n"
	"SelectType              = select/bucket\n"
	"SLURM_CONF              = /var/lib/t28/etc/slurm.conf\n"
	"\n"
	"Select Plugin ConfigurationBaseSelectType          = select/linear\n"
	"NodeAllocationPolicy    = FIRSTAVAILABLE\n"
	"AllowJobPolicies        = NONE\n";

#define FUZZ_CL_NODE(name, cpus, mem, feat) \
	"NodeName=" name " Arch=x86_64 CoresPerSocket=1  CPUAlloc=0 " \
	"CPUEfctv=" cpus " CPUTot=" cpus " CPULoad=0.10 AvailableFeatures=" \
	feat " ActiveFeatures=" feat " Gres=(null) NodeAddr=127.0.0.1 " \
	"NodeHostName=vm Port=17614 Version=22.05.8 OS=Linux 6.1 #1 SMP  " \
	"RealMemory=" mem " AllocMem=0 FreeMem=22320 Sockets=" cpus \
	" Boards=1 State=IDLE ThreadsPerCore=1 TmpDisk=0 Weight=1 " \
	"Owner=N/A MCS_label=N/A Partitions=debug\n"

static const char fuzz_cl_nodes[] =
	FUZZ_CL_NODE("f1", "4", "4000", "fat")
	FUZZ_CL_NODE("f2", "4", "4000", "fat")
	FUZZ_CL_NODE("n1", "2", "2000", "thin")
	FUZZ_CL_NODE("n2", "2", "2000", "thin")
	FUZZ_CL_NODE("n3", "2", "2000", "thin")
	FUZZ_CL_NODE("n4", "2", "2000", "thin");

static const char fuzz_cl_partition[] =
	"PartitionName=debug AllowGroups=ALL Default=YES MaxTime=UNLIMITED "
	"Nodes=f[1-2],n[1-4] PriorityJobFactor=1 PriorityTier=1 "
	"OverSubscribe=NO State=UP TotalCPUs=16 TotalNodes=6\n";

static const char fuzz_cl_res[] =
	"ReservationName=maint StartTime=2026-11-23T11:16:15 "
	"EndTime=2026-11-23T12:16:15 Duration=01:00:00 Nodes=n4 NodeCnt=1 "
	"CoreCnt=2 Features=(null) Flags=MAINT,SPEC_NODES\n";

/* The input, and (the text target) the JobIds its lines start with. */
static const char *fuzz_cl_input;
static size_t fuzz_cl_len;
static char *fuzz_cl_ids;
static int fuzz_cl_json;		/* the input is squeue's JSON */

static int fuzz_cl_is(const char *const *args, const char *want)
{
	char buf[128];
	size_t off = 0;

	buf[0] = '\0';
	for (; *args && off < sizeof(buf); args++)
		off += (size_t) snprintf(buf + off, sizeof(buf) - off, "%s%s",
					 off ? " " : "", *args);
	return !strcmp(buf, want);
}

static const char *fuzz_cl_source(sbc_cmd_t cmd, const char *const *args,
				  size_t *len)
{
	const char *s = NULL;

	if (cmd == SBC_SCONTROL && fuzz_cl_is(args, "show config"))
		s = fuzz_cl_config;
	else if (cmd == SBC_SCONTROL && fuzz_cl_is(args, "show nodes -o"))
		s = fuzz_cl_nodes;
	else if (cmd == SBC_SCONTROL && fuzz_cl_is(args, "show partition -o"))
		s = fuzz_cl_partition;
	else if (cmd == SBC_SCONTROL && fuzz_cl_is(args, "show res -o"))
		s = fuzz_cl_res;
	else if (cmd == SBC_SCONTROL && fuzz_cl_is(args, "show jobs -o") &&
		 !fuzz_cl_json) {
		*len = fuzz_cl_len;
		return fuzz_cl_input;
	} else if (cmd == SBC_SQUEUE && fuzz_cl_is(args, "--json -t all") &&
		   fuzz_cl_json) {
		*len = fuzz_cl_len;
		return fuzz_cl_input;
	} else if (cmd == SBC_SQUEUE && fuzz_cl_is(args, "-h -t all -o %A") &&
		   fuzz_cl_ids) {
		s = fuzz_cl_ids;
	}
	*len = s ? strlen(s) : 0;
	return s;
}

/* The JobIds at the start of the input's lines, one a line (what squeue
 * -o %A lists of the jobs scontrol shows). */
static char *fuzz_cl_line_ids(const char *s, size_t n)
{
	char *out = malloc(n + 2), *o = out;
	size_t i = 0;

	if (!out)
		return NULL;
	while (i < n) {
		if (i + 6 < n && !memcmp(s + i, "JobId=", 6)) {
			size_t k = i + 6;

			while (k < n && s[k] >= '0' && s[k] <= '9')
				*o++ = s[k++];
			if (k > i + 6)
				*o++ = '\n';
		}
		while (i < n && s[i] != '\n')
			i++;
		i++;
	}
	*o = '\0';
	return out;
}

/*
 * More nodes a bracket range of the input names than a real list does
 * (a range past 100,000 is legal, and only slow to expand): skip it.
 */
static int fuzz_cl_big_range(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned long long lo = 0, hi = 0;
		size_t k = i + 1, d;

		if (s[i] != '[' && s[i] != ',' && s[i] != '-')
			continue;
		for (d = 0; k < n && s[k] >= '0' && s[k] <= '9'; k++, d++)
			lo = lo * 10 + (unsigned long long) (s[k] - '0');
		if (d > 5 && lo > 100000)
			return 1;
		if (k < n && s[k] == '-') {
			for (k++, d = 0; k < n && s[k] >= '0' && s[k] <= '9';
			     k++, d++)
				hi = hi * 10 + (unsigned long long) (s[k] - '0');
			if (d > 5 || (hi > lo && hi - lo > 100000))
				return 1;
		}
	}
	return 0;
}

/*
 * Read the cluster with the input as the jobs (@json: squeue's JSON, else
 * scontrol's text) and check: read, every job passes the checker and its
 * request is built or refused in one line, and stderr holds only notes;
 * refused, nothing on stdout and every stderr line sbucket's, the last
 * one the error.
 */
static void fuzz_cl_run(const uint8_t *data, size_t size, int json)
{
	fuzz_capture_t cap;
	sbc_cluster_t c;
	const char *p, *nl, *last = NULL;
	size_t i;
	int rc;

	if (fuzz_cl_big_range((const char *) data, size))
		return;
	fuzz_cl_input = (const char *) data;
	fuzz_cl_len = size;
	fuzz_cl_json = json;
	fuzz_cl_ids = json ? NULL : fuzz_cl_line_ids((const char *) data, size);
	sbc_run_source(fuzz_cl_source);
	setenv("SBUCKET_NOW", "1795431981", 1);
	setenv("TZ", "UTC", 1);
	fuzz_capture_start(&cap);
	rc = sbc_read(&c);
	if (!rc) {
		FUZZ_CHECK(sbc_check(&c) == 0);
		for (i = 0; i < c.njobs; i++) {
			sbc_job_t *j = &c.jobs[i];

			FUZZ_CHECK(sbc_job(&c, j->id) != NULL);
			if (sbc_request(&c, j) == 0)
				FUZZ_CHECK(j->have_req && j->req_line);
		}
	}
	sbc_fini(&c);
	fuzz_capture_stop(&cap);
	sbc_run_source(NULL);
	FUZZ_CHECK(cap.outlen == 0);
	for (p = cap.err; *p; p = nl + 1) {
		FUZZ_CHECK((nl = strchr(p, '\n')) != NULL);
		FUZZ_CHECK(!strncmp(p, "sbucket: ", 9));
		for (last = p; last < nl; last++)
			FUZZ_CHECK(*last >= 0x20 && *last < 0x7f);
		last = p;
	}
	/* read: notes (and a job's one line for its request); refused: the
	 * error comes last */
	if (rc)
		FUZZ_CHECK(last && strncmp(last, "sbucket: note: ", 15));
	fuzz_capture_free(&cap);
	free(fuzz_cl_ids);
	fuzz_cl_ids = NULL;
}

#endif /* SB_FUZZ_CLUSTER_H */
