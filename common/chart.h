/*
 * chart.h - a node x time chart of jobs, drawn as SVG.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A chart holds nodes (by name) and jobs: a label (the job id), a colour
 * key (the user, or the job id itself), a window [start, end) in seconds
 * and the nodes the job ran on. end == SB_TIME_INFINITE is an open end
 * (a job still running, or planned without a time limit).
 *
 * Layout. Nodes are rows in hostlist order (sb_hostlist_cmp: "n9" before
 * "n10"), time runs left to right from the earliest start (t0) to the
 * chart's end (t1: the latest finite end or start, and at least one
 * second after every start); an open job is drawn to t1 with a dashed
 * outline. Jobs sharing a node at the same time get lanes: the node's
 * row is split so that no two boxes overlap (each job takes the lowest
 * lane free at its start, jobs taken by start, then end, then the order
 * they were added). Each job has one box per node, its label inside when
 * it fits, and a tooltip (<title>) with the label, key, node and times.
 *
 * Colours. Distinct keys are sorted (hostlist order, then strcmp) and
 * take the palette's colours in that order, cycling after
 * SB_CHART_COLOURS: the same set of keys always gets the same colours.
 *
 * The SVG is a function of the chart and the options alone: no clock, no
 * locale, no floating point (coordinates are computed in tenths of a
 * pixel with integer arithmetic), so a golden file can hold it.
 *
 * Operations (N nodes, J jobs, b boxes = sum of the jobs' node counts,
 * k distinct keys, L total length of the names):
 *
 *   lifecycle  sb_chart_create       O(1)
 *              sb_chart_destroy      O(N + J)   NULL is fine
 *   content    sb_chart_add_node     O(log N + N) (sorted insert)
 *              sb_chart_add_job      O(n log N) for a job on n nodes
 *   results    sb_chart_stats        O(b log b + J log J + N)
 *              sb_chart_svg          O(b log b + k log k + N + L)
 *              sb_chart_fmt          O(b log b + N + L)
 *   invariant  sb_chart_check        O(N log N + b)
 *
 * Errors: -1 (or NULL) with errno, and a failed call changes nothing:
 * EINVAL (NULL, an empty name or label, a name, label or key with a
 * control character, start > end, a time outside +-SB_CHART_TIME_MAX, a
 * node twice in one job, no node), E2BIG (more than SB_CHART_NODES_MAX
 * nodes), ENOENT (a result of an empty chart: no job), ENOMEM.
 *
 * Canonical text form (sb_chart_fmt): one item per node in row order,
 * "<node>:" followed by "-" (no job) or its jobs in lane-layout order
 * joined by "+", each "<label>[<start>,<end>)" ("inf" for an open end):
 *   "n1:123[0,7200)+125[7200,10800) n2:123[0,7200) n3:-"
 */
#ifndef SB_CHART_H
#define SB_CHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct sb_chart sb_chart_t;

/* Times accepted: |t| <= SB_CHART_TIME_MAX (about 34,000 years), so
 * differences times the chart's width in tenths of a pixel fit 64 bits. */
#define SB_CHART_TIME_MAX (INT64_C(1) << 40)

/* At most this many rows (so busy node-seconds fit in 64 bits). */
#define SB_CHART_NODES_MAX ((size_t) 1 << 20)

/* Colours in the palette, before they repeat. */
#define SB_CHART_COLOURS 12

typedef struct {
	const char *title;	/* a heading, or NULL */
	const char *caption;	/* a line under the axis, or NULL */
	/* After the caption: "4 jobs on 4 nodes, makespan 9h, utilisation
	 * 69.44%" (see sb_chart_stats; ", 1 open-ended" when jobs have
	 * an open end). */
	bool summary;
	bool legend;		/* a legend of the keys and their colours */
	/*
	 * The axis unit: ticks at multiples of @unit seconds (1, 2, 5,
	 * 10, 20, 50... units apart, at most 12 intervals), labelled
	 * "<n><unit_name>" ("2h"). unit 0: seconds, ticks 1, 2, 5, 10,
	 * 15, 30 s, 1, 2, 5, 10, 15, 30 min, 1, 2, 3, 6, 12 h, or 1, 2,
	 * 5, 10... days apart, labelled as "1h30m", "45s", "2d".
	 */
	int64_t unit;
	const char *unit_name;	/* NULL: "" */
} sb_chart_opts_t;

/* What a chart says in numbers (sb_chart_stats). */
typedef struct {
	size_t jobs;		/* jobs added */
	size_t nodes;		/* rows */
	size_t open;		/* jobs with an open end */
	int64_t t0, t1;		/* the axis: earliest start, chart end */
	int64_t makespan;	/* t1 - t0 */
	/* Seconds of the makespan with no job running anywhere. */
	int64_t gaps;
	/* Node-seconds with at least one job, over every node (a node
	 * shared by two jobs at once counts once). */
	int64_t busy;
	/* busy / (nodes * makespan) in hundredths of a percent, rounded
	 * half up: 6944 is 69.44%. */
	int64_t util_bp;
} sb_chart_stats_t;

/* An empty chart, or NULL with errno ENOMEM. */
sb_chart_t *sb_chart_create(void);

/* Free @c. NULL is accepted and ignored. */
void sb_chart_destroy(sb_chart_t *c);

/*
 * Add a row for node @name (a node no job ran on still gets a row).
 * Adding a node twice is not an error: the row exists once. Returns 0,
 * or -1 with errno EINVAL (NULL, empty, a control character), E2BIG or
 * ENOMEM.
 */
int sb_chart_add_node(sb_chart_t *c, const char *name);

/*
 * Add job @label, coloured by @key (NULL: the label), over [@start,
 * @end) on the @n nodes @names (rows are added as needed). @end may be
 * SB_TIME_INFINITE (an open end) and may equal @start (drawn one pixel
 * wide). Labels need not be unique. Returns 0, or -1 with errno EINVAL
 * (NULL, empty label or key, control characters, n == 0, a node named
 * twice, start > end, a finite time outside +-SB_CHART_TIME_MAX), E2BIG
 * (rows past SB_CHART_NODES_MAX) or ENOMEM.
 */
int sb_chart_add_job(sb_chart_t *c, const char *label, const char *key,
		     int64_t start, int64_t end, const char *const *names,
		     size_t n);

/*
 * Fill *@st. Returns 0, or -1 with errno EINVAL (NULL), ENOENT (no
 * job) or ENOMEM.
 */
int sb_chart_stats(const sb_chart_t *c, sb_chart_stats_t *st);

/*
 * The chart as a standalone SVG document (a string to free()), drawn
 * with @o (NULL: no title, caption, summary or legend, unit 0). Returns NULL
 * with errno EINVAL (NULL chart, unit < 0 or above SB_CHART_TIME_MAX),
 * ENOENT (no job) or ENOMEM.
 */
char *sb_chart_svg(const sb_chart_t *c, const sb_chart_opts_t *o);

/*
 * The canonical text form (see above), a string to free(); "" for a
 * chart without nodes. NULL with errno EINVAL (NULL) or ENOMEM.
 */
char *sb_chart_fmt(const sb_chart_t *c);

/*
 * Check every invariant: rows strictly in hostlist order with unique
 * names, every job's nodes valid and distinct, start <= end, times in
 * range, labels and keys non-empty. 0, or -1 with errno EFAULT (EINVAL
 * for NULL, ENOMEM when it cannot allocate its scratch space).
 */
int sb_chart_check(const sb_chart_t *c);

#endif /* SB_CHART_H */
