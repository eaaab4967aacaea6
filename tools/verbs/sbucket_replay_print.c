/*
 * sbucket_replay_print.c - what 'sbucket replay' prints: the summary,
 * two configurations side by side, a line per job, and JSON
 * (sbucket_replay.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Waits print in minutes, as Tsafrir, Etsion and Feitelson's tables
 * give them; JSON in seconds.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assoc_tree.h"
#include "priority_params.h"
#include "sbucket_explain_fmt.h"
#include "sbucket_replay.h"

const char *sbr_job_id(const sbr_run_t *r, size_t i, char *buf,
		       size_t len)
{
	const sbi_trace_job_t *tj = &r->t->jobs[r->in.from[i]];

	if (tj->id)
		return tj->id;
	snprintf(buf, len, "%" PRId64, tj->num);
	return buf;
}

static const char *_user(const sbr_run_t *r, size_t i)
{
	return r->t->users[r->in.jobs[i].user];
}

/* "729d 17h 22m", "3h 04m", "45s". */
static void _span(int64_t s, char *buf, size_t len)
{
	if (s >= 86400)
		snprintf(buf, len, "%" PRId64 "d %" PRId64 "h %02" PRId64 "m",
			 s / 86400, s % 86400 / 3600, s % 3600 / 60);
	else if (s >= 3600)
		snprintf(buf, len, "%" PRId64 "h %02" PRId64 "m", s / 3600,
			 s % 3600 / 60);
	else if (s >= 60)
		snprintf(buf, len, "%" PRId64 "m %02" PRId64 "s", s / 60,
			 s % 60);
	else
		snprintf(buf, len, "%" PRId64 "s", s);
}

static const char *_fs_name(int alg)
{
	const char *n = sb_priority_params_algorithm_name(alg);

	return n ? n : "?";
}

/* The configuration in words. */
static void _conf(const sbr_run_t *r, char *buf, size_t len)
{
	const sb_replay_conf_t *c = &r->c->rc;
	size_t n;

	n = (size_t) snprintf(buf, len, "%s", sb_replay_sched_name(c->sched));
	if (c->sched == SB_REPLAY_SLURM && n < len)
		n += (size_t) snprintf(buf + n, len - n, " (bf_interval=%"
				       PRId64 " bf_window=%" PRId64
				       " bf_resolution=%" PRId64
				       " bf_max_job_test=%zu)",
				       c->bf_interval ? c->bf_interval :
				       SB_REPLAY_BF_INTERVAL,
				       (c->bf_window ? c->bf_window :
					SB_REPLAY_BF_WINDOW) / 60,
				       c->bf_resolution ? c->bf_resolution :
				       SB_REPLAY_BF_RESOLUTION,
				       c->bf_max_job_test ?
				       c->bf_max_job_test :
				       (size_t) SB_REPLAY_BF_MAX_JOB_TEST);
	if (r->c->nodes_file && n < len &&
	    c->select == SB_REPLAY_SELECT_LINEAR)
		n += (size_t) snprintf(buf + n, len - n, " on whole nodes "
				       "(select/linear)");
	else if (r->c->nodes_file && n < len)
		n += (size_t) snprintf(buf + n, len - n, " on whole nodes (%s, "
				       "select/bucket over %s)",
				       sb_policy_name(r->pol.kind),
				       c->base_cons ? "cons_tres" : "linear");
	if (c->sjbf && n < len)
		n += (size_t) snprintf(buf + n, len - n, ", shortest job "
				       "backfilled first");
	if (n < len && c->prio == SB_REPLAY_MULTIFACTOR) {
		n += (size_t) snprintf(buf + n, len - n, ", multifactor with "
				       "%s", _fs_name(c->fs_algorithm));
		if (c->fs_algorithm == SB_FS_LEVEL_BASED && n < len)
			n += (size_t) snprintf(buf + n, len - n, " (%d levels)",
					       c->levels);
		if (n < len)
			n += (size_t) snprintf(buf + n, len - n,
					       " (PriorityWeightAge=%" PRIu32
					       " PriorityWeightFairshare=%"
					       PRIu32 " PriorityWeightJobSize="
					       "%" PRIu32 " PriorityMaxAge=%"
					       PRId64 " PriorityDecayHalfLife="
					       "%" PRId64
					       " PriorityCalcPeriod=%" PRId64
					       "%s; minutes)",
					       c->weight_age, c->weight_fs,
					       c->weight_js, c->max_age / 60,
					       c->half_life / 60,
					       c->calc_period / 60,
					       c->favor_small ?
					       " PriorityFavorSmall=YES" : "");
	} else if (n < len) {
		n += (size_t) snprintf(buf + n, len - n, ", first come first "
				       "served");
	}
	if (n < len)
		n += (size_t) snprintf(buf + n, len - n, ", run times from %s",
				       c->predict == SB_REPLAY_PREDICT_LIMIT ?
				       "the limits" :
				       c->predict == SB_REPLAY_PREDICT_USER2 ?
				       "the user's last two runs" :
				       "similar jobs' last two runs");
	if (n < len && c->predict != SB_REPLAY_PREDICT_LIMIT)
		n += (size_t) snprintf(buf + n, len - n, " (corrected %s)",
				       c->correct == SB_REPLAY_CORRECT_STEPS ?
				       "in steps" : "to the limit");
	if (n < len)
		snprintf(buf + n, len - n, ", %s", c->kill ?
			 "killed at the limit" : "never killed");
}

static int64_t _units(const sbr_run_t *r)
{
	return r->units;
}

void sbr_print_summary(const sbr_run_t *r, bool users)
{
	const sb_replay_metrics_t *m = &r->m;
	char buf[1024];
	size_t i, drop = m->jobs - m->counted;

	printf("trace        %zu job%s", r->t->njobs,
	       r->t->njobs == 1 ? "" : "s");
	if (r->t->skipped)
		printf(" (%zu bad lines skipped)", r->t->skipped);
	printf("\nleft out     %zu never ran, %zu without a size, %zu larger "
	       "than the machine\n", r->in.never_ran, r->in.no_size,
	       r->in.too_large);
	printf("replayed     %zu job%s on %" PRId64 " %s", m->jobs,
	       m->jobs == 1 ? "" : "s", _units(r), r->unit_name);
	if (r->in.no_limit)
		printf("; %zu without a limit: %s run time as the limit",
		       r->in.no_limit, r->in.no_limit == 1 ? "its" :
		       "their");
	_conf(r, buf, sizeof(buf));
	printf("\nscheduler    %s\n", buf);
	if (r->c->tree_file)
		printf("tree         %s: %d associations, %zu user%s it "
		       "lacked added with 1 share\n", r->c->tree_file,
		       sb_assoc_tree_count(r->tree), r->tree_added,
		       r->tree_added == 1 ? "" : "s");
	printf("counted      %zu job%s", m->counted,
	       m->counted == 1 ? "" : "s");
	if (drop)
		printf(" (the first %g%% to end left out: %zu)",
		       r->c->drop_first, drop);
	printf("\nwait         mean %.1f min, median %.1f min, p90 %.1f min, "
	       "max %.1f min\n", m->mean_wait / 60, m->median_wait / 60,
	       m->p90_wait / 60, m->max_wait / 60);
	printf("slowdown     mean %.2f, median %.2f, p90 %.2f (bounded at "
	       "%d s)\n", m->mean_bsld, m->median_bsld, m->p90_bsld,
	       SB_REPLAY_BSLD_BOUND);
	printf("response     mean %.1f min\n", m->mean_response / 60);
	_span(m->makespan, buf, sizeof(buf));
	printf("utilisation  %.2f%% over a makespan of %s\n",
	       m->utilization * 100, buf);
	printf("run times    believed with %.1f%% accuracy, %zu job%s killed "
	       "at the limit\n", m->accuracy * 100, m->killed,
	       m->killed == 1 ? "" : "s");
	printf("backfilled   %zu job%s started ahead of a job before %s\n",
	       m->backfilled, m->backfilled == 1 ? "" : "s",
	       m->backfilled == 1 ? "it" : "them");
	printf("users        %zu, Jain's index of their mean slowdowns "
	       "%.4f\n", m->users, m->jain);
	if (!users)
		return;
	printf("User|Jobs|MeanWait|P90Wait|MeanSlowdown\n");
	for (i = 0; i < m->nusers; i++) {
		const sb_replay_user_metrics_t *u = &m->user[i];

		if (!u->jobs)
			continue;
		printf("%s|%zu|%.1f|%.1f|%.2f\n", r->t->users[i], u->jobs,
		       u->mean_wait / 60, u->p90_wait / 60, u->mean_bsld);
	}
}

/* ---- two side by side ---------------------------------------------------- */

/* One row: the two values and the change from the first. */
static void _row(const char *label, double a, double b, const char *fmt,
		 double scale)
{
	char va[48], vb[48];

	snprintf(va, sizeof(va), fmt, a / scale);
	snprintf(vb, sizeof(vb), fmt, b / scale);
	printf("%-22s %-16s %-16s", label, va, vb);
	if (a != 0.0)
		printf(" %+.1f%%", (b - a) / a * 100);
	else
		printf(" %s", b != 0.0 ? "from 0" : "=");
	putchar('\n');
}

void sbr_print_compare(const sbr_run_t *a, const sbr_run_t *b)
{
	const sb_replay_metrics_t *x = &a->m, *y = &b->m;
	char buf[1024];

	_conf(a, buf, sizeof(buf));
	printf("A: %s, %" PRId64 " %s\n", buf, _units(a), a->unit_name);
	_conf(b, buf, sizeof(buf));
	printf("B: %s, %" PRId64 " %s\n", buf, _units(b), b->unit_name);
	printf("%-22s %-16s %-16s %s\n", "", "A", "B", "B against A");
	_row("jobs replayed", (double) x->jobs, (double) y->jobs, "%.0f", 1);
	_row("jobs counted", (double) x->counted, (double) y->counted, "%.0f",
	     1);
	_row("mean wait (min)", x->mean_wait, y->mean_wait, "%.1f", 60);
	_row("median wait (min)", x->median_wait, y->median_wait, "%.1f", 60);
	_row("p90 wait (min)", x->p90_wait, y->p90_wait, "%.1f", 60);
	_row("max wait (min)", x->max_wait, y->max_wait, "%.1f", 60);
	_row("mean slowdown", x->mean_bsld, y->mean_bsld, "%.2f", 1);
	_row("p90 slowdown", x->p90_bsld, y->p90_bsld, "%.2f", 1);
	_row("mean response (min)", x->mean_response, y->mean_response,
	     "%.1f", 60);
	_row("utilisation (%)", x->utilization, y->utilization, "%.2f", 0.01);
	_row("makespan (h)", (double) x->makespan, (double) y->makespan,
	     "%.1f", 3600);
	_row("accuracy (%)", x->accuracy, y->accuracy, "%.1f", 0.01);
	_row("killed", (double) x->killed, (double) y->killed, "%.0f", 1);
	_row("backfilled", (double) x->backfilled, (double) y->backfilled,
	     "%.0f", 1);
	_row("Jain's index", x->jain, y->jain, "%.4f", 1);
}

/* ---- jobs ---------------------------------------------------------------- */

void sbr_print_jobs(const sbr_run_t *r)
{
	char id[32];
	size_t i;

	printf("JobId|User|Submit|Start|End|Size|Wait\n");
	for (i = 0; i < r->in.n; i++) {
		const sb_replay_job_t *j = &r->in.jobs[i];
		const sb_replay_out_t *o = &r->out[i];

		printf("%s|%s|%" PRId64 "|%" PRId64 "|%" PRId64 "|%" PRId64
		       "|%" PRId64 "\n", sbr_job_id(r, i, id, sizeof(id)),
		       _user(r, i), j->submit, o->start, o->end, j->size,
		       o->start - j->submit);
	}
}

/* ---- JSON ---------------------------------------------------------------- */

static void _jbool(const char *key, bool v)
{
	printf(",\"%s\":%s", key, v ? "true" : "false");
}

void sbr_print_json(const sbr_run_t *r)
{
	const sb_replay_metrics_t *m = &r->m;
	const sb_replay_conf_t *c = &r->c->rc;
	char id[32];
	size_t i;
	bool first = true;

	printf("{\"summary\":{\"trace_jobs\":%zu,\"skipped_lines\":%zu,"
	       "\"never_ran\":%zu,\"no_size\":%zu,\"too_large\":%zu,"
	       "\"no_limit\":%zu,\"%s\":%" PRId64 ",\"scheduler\":",
	       r->t->njobs, r->t->skipped, r->in.never_ran, r->in.no_size,
	       r->in.too_large, r->in.no_limit, r->unit_name, _units(r));
	sbx_jstr(sb_replay_sched_name(c->sched));
	printf(",\"priority\":");
	sbx_jstr(sb_replay_prio_name(c->prio));
	printf(",\"fairshare\":");
	sbx_jstr(c->prio == SB_REPLAY_MULTIFACTOR ?
		 _fs_name(c->fs_algorithm) : NULL);
	printf(",\"predict\":");
	sbx_jstr(sb_replay_predict_name(c->predict));
	printf(",\"correct\":");
	sbx_jstr(sb_replay_correct_name(c->correct));
	_jbool("sjbf", c->sjbf);
	_jbool("kill", c->kill);
	printf(",\"drop_first_pct\":%g,\"jobs\":%zu,\"counted\":%zu,"
	       "\"mean_wait_s\":%.3f,\"median_wait_s\":%.3f,"
	       "\"p90_wait_s\":%.3f,\"max_wait_s\":%.3f,"
	       "\"mean_bounded_slowdown\":%.6f,"
	       "\"median_bounded_slowdown\":%.6f,"
	       "\"p90_bounded_slowdown\":%.6f,\"mean_response_s\":%.3f,"
	       "\"utilization\":%.6f,\"makespan_s\":%" PRId64 ","
	       "\"accuracy\":%.6f,\"killed\":%zu,\"backfilled\":%zu,"
	       "\"users\":%zu,\"jain_index\":%.6f,\"per_user\":[",
	       r->c->drop_first, m->jobs, m->counted, m->mean_wait,
	       m->median_wait, m->p90_wait, m->max_wait, m->mean_bsld,
	       m->median_bsld, m->p90_bsld, m->mean_response,
	       m->utilization, m->makespan, m->accuracy, m->killed,
	       m->backfilled, m->users, m->jain);
	for (i = 0; i < m->nusers; i++) {
		const sb_replay_user_metrics_t *u = &m->user[i];

		if (!u->jobs)
			continue;
		printf("%s{\"user\":", first ? "" : ",");
		sbx_jstr(r->t->users[i]);
		printf(",\"jobs\":%zu,\"mean_wait_s\":%.3f,\"p90_wait_s\":"
		       "%.3f,\"mean_bounded_slowdown\":%.6f}", u->jobs,
		       u->mean_wait, u->p90_wait, u->mean_bsld);
		first = false;
	}
	printf("]},\"jobs\":[");
	for (i = 0; i < r->in.n; i++) {
		const sb_replay_job_t *j = &r->in.jobs[i];
		const sb_replay_out_t *o = &r->out[i];

		printf("%s{\"job_id\":", i ? "," : "");
		sbx_jstr(sbr_job_id(r, i, id, sizeof(id)));
		printf(",\"user\":");
		sbx_jstr(_user(r, i));
		printf(",\"submit\":%" PRId64 ",\"start\":%" PRId64
		       ",\"end\":%" PRId64 ",\"size\":%" PRId64
		       ",\"wait\":%" PRId64, j->submit, o->start, o->end,
		       j->size, o->start - j->submit);
		_jbool("killed", o->killed);
		_jbool("backfilled", o->backfilled);
		putchar('}');
	}
	printf("]}");
}
