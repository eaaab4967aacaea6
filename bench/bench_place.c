/*
 * bench_place.c - bucket path vs per-node path vs a bare popcount floor.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Workload (issue #3): N nodes (1k = 1,024, 10k = 10,240, 100k =
 * 102,400) in 10 buckets of consecutive nodes (10 signatures: a feature
 * f0..f9 and a weight that grows with the bucket number). Above 1k, a
 * fixed-seed 10% of the nodes are allocated and 1% carry a reservation
 * far in the future (busy-later). The job: 1,024 nodes, exclusive, one
 * chunk, any feature, 1 hour. Timed per placement, averaged over
 * repetitions:
 *   bucket  sb_place(SB_PATH_BUCKET)  (cached counts, buckets, bitmaps)
 *   node    sb_place(SB_PATH_NODE)    (every node checked and sorted)
 *   floor   popcount of the 10 buckets' free bitmaps, nothing else
 *   decide  sb_select_decide() in RUN_NOW on the same job's facts, as
 *           select/bucket asks it per job_test call (issue #46): the
 *           rules, the request built from the facts, the nodes it may
 *           not have, then the bucket path (AUTO picks it)
 * Both paths and the decision must give the job 1,024 nodes (checked);
 * the decision's column says what it costs beyond the bucket path's.
 * Instructions
 * come from perf_event_open(2) when the kernel allows it; otherwise the
 * column says n/a.
 *
 * Usage: bench_place [--quick]    (--quick: 1k and 10k only)
 */
#define _GNU_SOURCE

#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sb_bench.h"

#include "bucket.h"
#include "place.h"
#include "policy.h"
#include "select_decide.h"

#define NBUCKETS 10
#define JOB_NODES 1024

static sb_test_rng_t _rng_state = { 0x5eed0003ULL };

static uint64_t _rng(void)
{
	return sb_test_rng_next(&_rng_state);
}

/* An instructions counter for this thread, or -1 if not allowed. */
static int _perf_open(void)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_HARDWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return (int) syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

typedef struct {
	double sec;		/* per placement */
	double instr;		/* per placement, < 0 if unavailable */
} _cost_t;

static volatile size_t _sink;

static int _place_once(sb_bucket_set_t *s, const sb_request_t *r,
		       const sb_policy_t *p, sb_path_t path)
{
	sb_placement_t pl;
	int ok;

	if (sb_place(s, r, p, path, &pl)) {
		perror("sb_place");
		exit(1);
	}
	ok = pl.result == SB_PLACE_RUN &&
	     sb_bitmap_count(pl.nodes[0]) == JOB_NODES;
	sb_placement_fini(&pl);
	return ok;
}

/* One decision of select/bucket for the same job, RUN_NOW. */
static int _decide_once(sb_bucket_set_t *s, const sb_policy_t *p)
{
	sb_select_facts_t f;
	sb_select_verdict_t v;
	int ok;

	sb_select_facts_init(&f);
	f.base.min_nodes = f.base.max_nodes = JOB_NODES;
	f.base.node_cpus = 1;
	f.base.min_cpus = JOB_NODES;
	f.base.share.job_exclusive = true;
	f.time_limit = 3600;
	f.policy = p;
	if (sb_select_decide(s, &f, SB_SELECT_RUN_NOW, &v)) {
		perror("sb_select_decide");
		exit(1);
	}
	ok = v.action == SB_SELECT_OURS &&
	     sb_bitmap_count(v.nodes) == JOB_NODES;
	sb_select_verdict_fini(&v);
	return ok;
}

static void _floor_once(const sb_bucket_set_t *s)
{
	size_t b, n = 0;

	for (b = 0; b < sb_bucket_set_size(s); b++)
		n += sb_bitmap_count(sb_bucket_pool(s, b, SB_POOL_FREE));
	_sink = n;
}

/* kind: 0 bucket, 1 node, 2 floor, 3 decide. */
static _cost_t _measure(sb_bucket_set_t *s, const sb_request_t *r,
			const sb_policy_t *p, int kind, int fd)
{
	_cost_t c = { 0, -1 };
	long reps = 1, i;
	double t0, t;
	uint64_t cnt = 0;

	/* Grow the repetition count until a run takes >= 0.2 s. */
	for (;;) {
		if (fd >= 0) {
			ioctl(fd, PERF_EVENT_IOC_RESET, 0);
			ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		}
		t0 = sb_bench_now();
		for (i = 0; i < reps; i++) {
			if (kind == 2)
				_floor_once(s);
			else if (kind == 3 ? !_decide_once(s, p) :
				 !_place_once(s, r, p, kind ? SB_PATH_NODE :
					      SB_PATH_BUCKET)) {
				fprintf(stderr, "placement failed\n");
				exit(1);
			}
		}
		t = sb_bench_now() - t0;
		if (fd >= 0) {
			ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
			if (read(fd, &cnt, sizeof(cnt)) != sizeof(cnt))
				cnt = 0;
		}
		if (t >= 0.2 || reps >= (1L << 26))
			break;
		reps *= t > 0.02 ? 2 : 10;
	}
	c.sec = t / (double) reps;
	if (fd >= 0 && cnt)
		c.instr = (double) cnt / (double) reps;
	return c;
}

static void _instr(char *buf, size_t len, double v)
{
	if (v < 0)
		snprintf(buf, len, "%10s", "n/a");
	else
		snprintf(buf, len, "%10.0f", v);
}

static void _run(size_t n, int fd)
{
	sb_node_t *nodes = calloc(n, sizeof(*nodes));
	sb_bucket_set_t *s;
	sb_request_t r;
	sb_policy_t p;
	_cost_t cb, cn, cf, cd;
	size_t i;
	char name[32], ib[4][32];
	double t0, build;

	for (i = 0; i < n; i++) {
		size_t b = i * NBUCKETS / n;

		snprintf(name, sizeof(name), "n%zu", i);
		sb_node_init(&nodes[i], (uint32_t) i, name);
		nodes[i].cpus = 64;
		nodes[i].real_memory = 256000;
		nodes[i].weight = (uint32_t) (1 + b);
		snprintf(name, sizeof(name), "f%zu", b);
		sb_node_add_feature(&nodes[i], name);
		if (n > 1024) {
			uint64_t x = _rng() % 100;

			if (x < 10) {
				nodes[i].state = SB_NODE_ALLOCATED;
				nodes[i].run_jobs = 1;
			} else if (x == 10) {
				sb_node_add_busy(&nodes[i], 86400, 90000);
			}
		}
	}
	t0 = sb_bench_now();
	s = sb_bucket_set_create(nodes, n, 0);
	build = sb_bench_now() - t0;
	if (!s || sb_bucket_set_size(s) != NBUCKETS) {
		fprintf(stderr, "bucket set: %s\n", strerror(errno));
		exit(1);
	}
	sb_request_init(&r);
	r.exclusive = true;
	r.time_limit = 3600;
	sb_request_add_chunk(&r, JOB_NODES)->min_cpus = 1;
	sb_policy_init(&p, "FIRSTAVAILABLE", NULL, NULL, NULL);

	cb = _measure(s, &r, &p, 0, fd);
	cn = _measure(s, &r, &p, 1, fd);
	cf = _measure(s, &r, &p, 2, fd);
	cd = _measure(s, &r, &p, 3, fd);
	_instr(ib[0], sizeof(ib[0]), cb.instr);
	_instr(ib[1], sizeof(ib[1]), cn.instr);
	_instr(ib[2], sizeof(ib[2]), cf.instr);
	_instr(ib[3], sizeof(ib[3]), cd.instr);
	printf("%7zu  %10.2f %s  %10.2f %s  %8.3f %s  %8.0fx  %6.2fx  "
	       "%10.2f %s  (build %.2f ms)\n", n, cb.sec * 1e6, ib[0],
	       cn.sec * 1e6, ib[1], cf.sec * 1e6, ib[2], cn.sec / cb.sec,
	       cb.sec / cf.sec, cd.sec * 1e6, ib[3], build * 1e3);
	sb_request_fini(&r);
	sb_bucket_set_destroy(s);
	for (i = 0; i < n; i++)
		sb_node_fini(&nodes[i]);
	free(nodes);
}

int main(int argc, char **argv)
{
	int quick = 0, fd;
	static const size_t sizes[] = { 1024, 10240, 102400 };
	size_t k;

	if (argc > 1 && !strcmp(argv[1], "--quick"))
		quick = 1;
	else if (argc > 1) {
		fprintf(stderr, "Usage: bench_place [--quick]\n");
		return 2;
	}
	fd = _perf_open();
	printf("bench_place: place a %d-node exclusive job, %d buckets, "
	       "FIRSTAVAILABLE\n", JOB_NODES, NBUCKETS);
	if (fd < 0)
		printf("instructions: n/a (perf_event_open: %s)\n",
		       strerror(errno));
	printf("%7s  %10s %10s  %10s %10s  %8s %10s  %9s  %7s  %10s %10s\n",
	       "nodes", "bucket us", "instr", "node us", "instr", "floor us",
	       "instr", "node/bkt", "bkt/flr", "decide us", "instr");
	for (k = 0; k < (quick ? 2 : 3); k++)
		_run(sizes[k], fd);
	if (fd >= 0)
		close(fd);
	return 0;
}
