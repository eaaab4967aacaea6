/*
 * sbucket_cluster.c - the running cluster, read (sbucket_cluster.h): the
 * whole, and the helpers its parts share (sbucket_cluster_priv.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "decimal.h"
#include "hostlist_fmt.h"
#include "sbucket_cluster_priv.h"
#include "sbucket_cluster_run.h"
#include "shown.h"
#include "strmap.h"

int sbc__oom(void)
{
	fprintf(stderr, PROG ": out of memory\n");
	return -1;
}

int sbc__dup(char **dst, const char *v)
{
	free(*dst);
	if (!(*dst = strdup(v)))
		return sbc__oom();
	return 0;
}

uint64_t sbc_leading_number(const char *s)
{
	const char *end;
	uint64_t v;

	return s && !sb_decimal_parse(s, UINT64_MAX, &v, &end) ? v : 0;
}

int sbc__u32(const char *s, uint32_t *v)
{
	uint64_t x;

	if (!s || sb_decimal_parse(s, UINT32_MAX, &x, NULL))
		return -1;
	*v = (uint32_t) x;
	return 0;
}

sb_bitmap_t *sbc__nodeset(const sbc_cluster_t *c, const char *hl,
			  const char *what)
{
	sb_bitmap_t *b = sb_bitmap_alloc(c->cl.n);
	char **names = NULL, sh[SB_SHOWN_BUF];
	size_t n = 0, i;
	long idx;

	if (!b) {
		sbc__oom();
		return NULL;
	}
	if (!hl || !*hl || !strcmp(hl, "(null)"))
		return b;
	/* one name, as most jobs run on, expands to itself: find it without
	 * the expander (one that is not a node's gets the expander's error) */
	if (!strpbrk(hl, "[],") && (idx = sbi_find_node(&c->cl, hl)) >= 0) {
		sb_bitmap_set(b, (size_t) idx);
		return b;
	}
	if (sb_hostlist_expand(hl, &names, &n, NULL, NULL) < 0) {
		fprintf(stderr, PROG ": %s: node list '%s' not understood\n",
			what, sb_shown(sh, sizeof(sh), hl));
		sb_bitmap_free(b);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		if ((idx = sbi_find_node(&c->cl, names[i])) < 0) {
			fprintf(stderr, PROG ": %s: no node '%s'\n", what,
				sb_shown(sh, sizeof(sh), names[i]));
			sb_bitmap_free(b);
			b = NULL;
			break;
		}
		sb_bitmap_set(b, (size_t) idx);
	}
	sb_hostlist_free(names, n);
	return b;
}

/* ---- records ------------------------------------------------------------- */

static int _record_line(void *arg, char *line, size_t len)
{
	sbc__records_t *rs = arg;
	sb_record_t *r, **v;

	(void) len;
	if (!(r = sb_record_parse_cached(line, &rs->keys)))
		return 0;	/* "No reservations in the system" */
	if (strcmp(sb_record_key_at(r, 0), rs->first_key)) {
		sb_record_free(r);
		return 0;
	}
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? rs->cap * 2 : 16;

		if (!(v = realloc(rs->v, cap * sizeof(*v)))) {
			sb_record_free(r);
			return sbc__oom();
		}
		rs->v = v;
		rs->cap = cap;
	}
	rs->v[rs->n++] = r;
	return 0;
}

int sbc__records(const char *what, const char *first_key, sbc__records_t *rs)
{
	memset(rs, 0, sizeof(*rs));
	rs->first_key = first_key;
	if (sbc_run(SBC_SCONTROL, (const char *[]) { "show", what, "-o",
						     NULL }, _record_line,
		    rs) < 0) {
		sbc__records_free(rs);
		return -1;
	}
	sb_record_cache_fini(&rs->keys);
	return 0;
}

void sbc__records_free(sbc__records_t *rs)
{
	while (rs->n)
		sb_record_free(rs->v[--rs->n]);
	free(rs->v);
	sb_record_cache_fini(&rs->keys);
	memset(rs, 0, sizeof(*rs));
}

const char *sbc__missing(const sb_record_t *r, const char *const *keys)
{
	char one[64];

	for (; *keys; keys++) {
		const char *bar = strchr(*keys, '|');

		if (!bar) {
			if (!sb_record_get(r, *keys))
				return *keys;
			continue;
		}
		snprintf(one, sizeof(one), "%.*s", (int) (bar - *keys),
			 *keys);
		if (!sb_record_get(r, one) && !sb_record_get(r, bar + 1))
			return *keys;
	}
	return NULL;
}

/* ---- the whole ----------------------------------------------------------- */

int sbc_read(sbc_cluster_t *c)
{
	const char *now = getenv("SBUCKET_NOW");
	uint64_t t;

	memset(c, 0, sizeof(*c));
	c->now = (int64_t) time(NULL);
	if (now && *now) {
		if (sb_decimal_parse(now, INT64_MAX / 2, &t, NULL) < 0) {
			char sh[SB_SHOWN_BUF];

			fprintf(stderr, PROG ": SBUCKET_NOW '%s' is not a "
				"number of seconds since the epoch\n",
				sb_shown(sh, sizeof(sh), now));
			return -1;
		}
		c->now = (int64_t) t;
	}
	if (sbc_config_read(&c->cfg) < 0 || sbc_config_bucket(&c->cfg) < 0 ||
	    sbc__read_nodes(c) < 0 || sbc__read_parts(c) < 0 ||
	    sbc__read_resv(c) < 0)
		return -1;
	return sbc__read_jobs(c);
}

void sbc_fini(sbc_cluster_t *c)
{
	size_t i;

	sb_strmap_destroy(c->by_id);
	sbc_config_fini(&c->cfg);
	for (i = 0; i < c->nparts; i++) {
		free(c->parts[i].name);
		free(c->parts[i].max_time);
	}
	free(c->parts);
	for (i = 0; i < c->nresv; i++) {
		free(c->resv[i].name);
		sb_bitmap_free(c->resv[i].nodes);
	}
	free(c->resv);
	for (i = 0; i < c->njobs; i++) {
		sbc_job_t *j = &c->jobs[i];

		free(j->text);
		sb_licenses_free(j->lic, j->nlic);
		if (j->have_req)
			sbi_job_fini(&j->req);
		free(j->req_line);
	}
	free(c->jobs);
	for (i = 0; i < c->nnodesets; i++)
		sb_bitmap_free(c->nodesets[i]);
	free(c->nodesets);
	for (i = 0; i < c->nusers; i++)
		free(c->users[i]);
	free(c->users);
	sbi_cluster_fini(&c->cl);
	memset(c, 0, sizeof(*c));
}

sbc_job_t *sbc_job(sbc_cluster_t *c, const char *id)
{
	/* only an array task's name has a '_': other ids need no scan */
	const char *us = strchr(id, '_');
	size_t i, len;

	/* sprio asks once per pending job: an index, not a scan each */
	if (!c->by_id && (c->by_id = sb_strmap_create()))
		for (i = 0; i < c->njobs; i++)
			if (sb_strmap_get(c->by_id, c->jobs[i].id) ==
			    SIZE_MAX &&	/* the first of a repeated id */
			    sb_strmap_put(c->by_id, c->jobs[i].id, i) < 0) {
				sb_strmap_destroy(c->by_id);
				c->by_id = NULL;	/* scan instead */
				break;
			}
	if (!us && c->by_id) {
		i = sb_strmap_get(c->by_id, id);
		return i == SIZE_MAX ? NULL : &c->jobs[i];
	}
	for (i = 0; i < c->njobs; i++) {
		const sbc_job_t *j = &c->jobs[i];

		if (!strcmp(j->id, id))
			return &c->jobs[i];
		if (!us || !j->array_job_id || !j->array_task)
			continue;
		/* an array task as squeue names it, "12_3" */
		len = (size_t) (us - id);
		if (sbc_leading_number(id) == j->array_job_id &&
		    strspn(id, "0123456789") == len &&
		    !strcmp(us + 1, j->array_task))
			return &c->jobs[i];
	}
	return NULL;
}

static int _job_check(const sbc_cluster_t *c, const sbc_job_t *j)
{
	bool runs = j->state == SBC_RUNNING || j->state == SBC_SUSPENDED;
	size_t k;

	if (!j->id || !*j->id || strspn(j->id, "0123456789") !=
	    strlen(j->id) || !j->name || !j->state_name || !j->user ||
	    !j->reason || j->part < -1 || j->part >= (int) c->nparts ||
	    j->resv < -1 || j->resv >= (int) c->nresv || !j->node_cpus ||
	    (j->max_nodes && j->max_nodes < j->min_nodes) ||
	    runs != (j->nodes != NULL) ||
	    (j->nodes && sb_bitmap_size(j->nodes) != c->cl.n) ||
	    (j->nlic && !j->lic) || (j->lic_or && j->nlic) ||
	    (j->array_task && !j->array_job_id) || j->time_limit < 0)
		return -1;
	for (k = 0; k < j->nlic; k++)
		if (!j->lic[k].name || j->lic[k].count < 0)
			return -1;
	return 0;
}

int sbc_check(const sbc_cluster_t *c)
{
	size_t i;

	if (!c) {
		errno = EINVAL;
		return -1;
	}
	if (!c->cl.n || c->cl.nindexed != c->cl.n)
		goto bad;
	for (i = 0; i < c->cl.n; i++)
		if (sb_node_check(&c->cl.nodes[i]) < 0)
			goto bad;
	for (i = 1; i < c->cl.n; i++)
		if (strcmp(c->cl.nodes[c->cl.by_name[i - 1]].name,
			   c->cl.nodes[c->cl.by_name[i]].name) >= 0)
			goto bad;
	for (i = 0; i < c->nparts; i++)
		if (!c->parts[i].name || !c->parts[i].max_time)
			goto bad;
	for (i = 0; i < c->nresv; i++)
		if (!c->resv[i].name || !c->resv[i].nodes ||
		    sb_bitmap_size(c->resv[i].nodes) != c->cl.n)
			goto bad;
	for (i = 0; i < c->njobs; i++)
		if (_job_check(c, &c->jobs[i]) < 0)
			goto bad;
	return 0;
bad:
	errno = EFAULT;
	return -1;
}
