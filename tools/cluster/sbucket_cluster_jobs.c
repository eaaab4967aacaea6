/*
 * sbucket_cluster_jobs.c - the running cluster's jobs, typed
 * (sbucket_cluster.h): what the JSON reader (_jobs_json.c) and the text
 * reader (_jobs_text.c) found of a job (sbc__raw_t) becomes an sbc_job_t
 * here, the one place that knows what each field means.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sb_time.h"
#include "sbucket_cluster_priv.h"
#include "shown.h"

/*
 * The running jobs' node sets by NodeList: 100,000 jobs on 2,000 nodes
 * name some 2,000 lists, so each list is read and its bitmap (a quarter
 * of a KB for 2,000 nodes) made once, and the jobs share it (c->nodesets
 * owns them). Open addressing on the list's text (a copy the index
 * keeps), with linear probing, at most half full.
 */
typedef struct {
	struct _nodeset_slot {
		char *list;		/* NULL: empty */
		size_t set;		/* index in c->nodesets */
	} *slot;
	size_t nslot;			/* a power of two, or 0 */
	size_t n;
	size_t cap;			/* room in c->nodesets */
} _nodesets_t;

/*
 * The last time one field read, and what it read as: the jobs that one
 * scheduling pass started print one StartTime (and, of one time limit,
 * one EndTime), and mktime() is most of sb_slurm_time(). The zone does
 * not change while sbucket runs, so a memo answers as the call would.
 */
typedef struct {
	char s[32];			/* "" before the first */
	int64_t t;
	int rc;
} _time_memo_t;

struct sbc__jobs_ctx {
	_nodesets_t sets;
	_time_memo_t start, end;
	size_t users_room;		/* in c->users */
	size_t jobs_room;		/* in c->jobs */
};

int sbc__time(sbc__jobs_ctx_t *ctx, bool end, const char *s, int64_t *t)
{
	_time_memo_t *m = end ? &ctx->end : &ctx->start;
	int rc;

	if (s && m->s[0] && !strcmp(s, m->s)) {
		if (!m->rc)
			*t = m->t;
		return m->rc;
	}
	rc = sb_slurm_time(s, t);
	if (s && strlen(s) < sizeof(m->s)) {
		strcpy(m->s, s);
		m->t = rc ? 0 : *t;
		m->rc = rc;
	}
	return rc;
}

void sbc__skip(sbc_cluster_t *c, const char *id, const char *why)
{
	char sh[SB_SHOWN_BUF];

	fprintf(stderr, PROG ": note: job %s is not read: %s\n",
		sb_shown(sh, sizeof(sh), id ? id : "?"), why);
	c->skipped++;
}

int sbc__jobs_room(sbc_cluster_t *c, sbc__jobs_ctx_t *ctx, size_t n)
{
	sbc_job_t *v;
	size_t room;

	if (c->njobs + n <= ctx->jobs_room)
		return 0;
	for (room = ctx->jobs_room ? ctx->jobs_room : 16;
	     room < c->njobs + n; room *= 2)
		;
	if (!(v = realloc(c->jobs, room * sizeof(*v))))
		return sbc__oom();
	c->jobs = v;
	ctx->jobs_room = room;
	return 0;
}

/*
 * The user called @name: the job before's when it is the same user
 * (Slurm lists a user's jobs in a row, mostly), else a copy c->users
 * keeps. NULL out of memory.
 */
static const char *_user(sbc_cluster_t *c, sbc__jobs_ctx_t *ctx,
			 const char *name)
{
	char *u, **v;

	if (c->nusers && !strcmp(c->users[c->nusers - 1], name))
		return c->users[c->nusers - 1];
	if (c->nusers == ctx->users_room) {
		size_t room = ctx->users_room ? 2 * ctx->users_room : 16;

		if (!(v = realloc(c->users, room * sizeof(*v))))
			return NULL;
		c->users = v;
		ctx->users_room = room;
	}
	if (!(u = strdup(name)))
		return NULL;
	return c->users[c->nusers++] = u;
}

static size_t _str_hash(const char *s)
{
	size_t h = 5381;

	for (; *s; s++)
		h = h * 33 + (unsigned char) *s;
	return h;
}

/* Double @ix's table (16 slots at first). 0, or -1 out of memory. */
static int _nodesets_grow(_nodesets_t *ix)
{
	size_t nslot = ix->nslot ? 2 * ix->nslot : 16, i, k;
	struct _nodeset_slot *v = calloc(nslot, sizeof(*v));

	if (!v)
		return -1;
	for (k = 0; k < ix->nslot; k++) {
		if (!ix->slot[k].list)
			continue;
		for (i = _str_hash(ix->slot[k].list) & (nslot - 1); v[i].list;
		     i = (i + 1) & (nslot - 1))
			;
		v[i] = ix->slot[k];
	}
	free(ix->slot);
	ix->slot = v;
	ix->nslot = nslot;
	return 0;
}

/*
 * The node set of the list @hl (NULL: none) of job @id, shared with the
 * jobs before it that have the same list. NULL after an error.
 */
static sb_bitmap_t *_job_nodeset(sbc_cluster_t *c, _nodesets_t *ix,
				 const char *hl, const char *id)
{
	char what[64];
	sb_bitmap_t *b, **v;
	size_t i;

	if (!hl)
		hl = "";
	if (2 * (ix->n + 1) > ix->nslot && _nodesets_grow(ix) < 0)
		goto oom;
	for (i = _str_hash(hl) & (ix->nslot - 1); ix->slot[i].list;
	     i = (i + 1) & (ix->nslot - 1))
		if (!strcmp(ix->slot[i].list, hl))
			return c->nodesets[ix->slot[i].set];
	if (c->nnodesets == ix->cap) {
		size_t cap = ix->cap ? 2 * ix->cap : 64;

		if (!(v = realloc(c->nodesets, cap * sizeof(*v))))
			goto oom;
		c->nodesets = v;
		ix->cap = cap;
	}
	snprintf(what, sizeof(what), "job %s", id);
	if (!(b = sbc__nodeset(c, hl, what)))
		return NULL;
	if (!(ix->slot[i].list = strdup(hl))) {
		sb_bitmap_free(b);
		goto oom;
	}
	ix->slot[i].set = c->nnodesets;
	ix->n++;
	c->nodesets[c->nnodesets++] = b;
	return b;
oom:
	sbc__oom();
	return NULL;
}

static void _ctx_fini(sbc__jobs_ctx_t *ctx)
{
	size_t i;

	for (i = 0; i < ctx->sets.nslot; i++)
		free(ctx->sets.slot[i].list);
	free(ctx->sets.slot);
}

/* ---- a job's strings, in one block -------------------------------------- */

#define NSTR 16

typedef struct {
	const char **dst[NSTR];
	const char *src[NSTR];
	size_t n, bytes;
} _strings_t;

/* Keep @s (NULL: none; "" too, where @empty_none) for *@dst. */
static void _str(_strings_t *s, const char **dst, const char *v,
		 bool empty_none)
{
	if (v && empty_none && (!*v || !strcmp(v, "(null)") ||
				!strcmp(v, "N/A")))
		v = NULL;
	s->dst[s->n] = dst;
	s->src[s->n++] = v;
	if (v)
		s->bytes += strlen(v) + 1;
}

/* Copy them into one block, the job's text: 0, or -1. */
static int _strings_done(_strings_t *s, char **text)
{
	char *p;
	size_t i;

	if (!(*text = p = malloc(s->bytes + 1)))
		return sbc__oom();
	for (i = 0; i < s->n; i++) {
		size_t len;

		if (!s->src[i]) {
			*s->dst[i] = NULL;
			continue;
		}
		len = strlen(s->src[i]) + 1;
		memcpy(p, s->src[i], len);
		*s->dst[i] = p;
		p += len;
	}
	return 0;
}

/* "gres:gpu:2,gres/nic:1,license/x:1" -> "gpu:2,nic:1" into @buf
 * (22.05 writes "gres:", 24.11 on "gres/"). */
static void _gres(const char *tres, char *buf, size_t len)
{
	size_t off = 0;
	const char *p = tres;

	buf[0] = '\0';
	while (p && *p) {
		size_t n = strcspn(p, ",");

		if (n > 5 && (!strncmp(p, "gres:", 5) ||
			      !strncmp(p, "gres/", 5)) && off < len)
			off += (size_t) snprintf(buf + off, len - off, "%s%.*s",
						 off ? "," : "", (int) (n - 5),
						 p + 5);
		p = p[n] ? p + n + 1 : NULL;
	}
}

/* The mem= of a TRES list ("cpu=4,mem=16000M,node=4") in MB, 0. */
static uint64_t _tres_mem(const char *tres)
{
	const char *m;
	char buf[32];
	uint64_t mb;
	size_t n;

	for (m = tres; m && (m = strstr(m, "mem=")); m += 4)
		if (m == tres || m[-1] == ',')
			break;
	if (!m || (n = strcspn(m + 4, ",")) >= sizeof(buf))
		return 0;
	memcpy(buf, m + 4, n);
	buf[n] = '\0';
	return sb_slurm_mem(buf, &mb) < 0 ? 0 : mb;
}

static sbc_state_t _state(const char *s)
{
	if (!s)
		return SBC_OTHER;
	if (!strcmp(s, "PENDING"))
		return SBC_PENDING;
	if (!strcmp(s, "RUNNING"))
		return SBC_RUNNING;
	if (!strcmp(s, "SUSPENDED"))
		return SBC_SUSPENDED;
	return SBC_OTHER;
}

int sbc__job_add(sbc_cluster_t *c, sbc__jobs_ctx_t *ctx,
		 const sbc__raw_t *raw)
{
	sbc_job_t *j = &c->jobs[c->njobs];
	_strings_t s = { .n = 0 };
	char gres[512], sh[SB_SHOWN_BUF];
	uint32_t cpt;
	size_t k;

	memset(j, 0, sizeof(*j));
	j->state = _state(raw->state);
	j->resv = -1;
	j->array_job_id = raw->array_job_id;
	j->by_backfill = raw->by_backfill;
	j->priority = raw->priority;
	j->part = sbc__part_index(c, raw->partition);
	j->min_nodes = raw->min_nodes;
	/* scontrol shows a running job's count only; a maximum below the
	 * minimum (no Slurm prints one) is none */
	j->max_nodes = j->state == SBC_PENDING ? raw->max_nodes :
		raw->min_nodes;
	if (j->max_nodes && j->max_nodes < j->min_nodes)
		j->max_nodes = j->min_nodes;
	cpt = raw->cpus_per_task ? raw->cpus_per_task : 1;
	/* what it asked for: a pending job's NumCPUs; once running, that is
	 * what it got (whole nodes), so its tasks tell */
	if (j->state == SBC_PENDING && raw->num_cpus)
		j->cpus = raw->num_cpus;
	else if (raw->num_tasks)
		j->cpus = (uint64_t) raw->num_tasks * cpt;
	else
		j->cpus = (uint64_t) j->min_nodes * cpt;
	j->node_cpus = raw->min_cpus_node ? raw->min_cpus_node : 1;
	if (raw->tasks_per_node && (uint64_t) raw->tasks_per_node * cpt >
	    j->node_cpus)
		j->node_cpus = raw->tasks_per_node * cpt;
	j->start = raw->start;
	j->end = raw->end;
	j->eligible = raw->eligible;
	j->time_limit = raw->time_limit;
	if (j->time_limit == SBC__PART_LIMIT) {
		if (j->part < 0 || sbi_parse_time(c->parts[j->part].max_time,
						  &j->time_limit) < 0)
			j->time_limit = SB_TIME_INFINITE;
	}
	j->mem_node = raw->mem_node;
	j->mem_cpu = raw->mem_cpu;
	j->tmp_node = raw->tmp_node;
	j->share = raw->share;
	j->reboot = raw->reboot;
	j->contiguous = raw->contiguous;
	if (!(j->user = _user(c, ctx, raw->user ? raw->user : "?")))
		return sbc__oom();
	/* licences: "lic:1", "a:1;b:2" (24.11 on join with ';'); an OR
	 * list ("a|b", 26.05) names no count of one licence */
	if (raw->licenses && *raw->licenses &&
	    strcmp(raw->licenses, "(null)") &&
	    sb_licenses_parse(raw->licenses, &j->lic, &j->nlic, NULL) < 0) {
		if (errno == ENOMEM)
			return sbc__oom();
		j->lic = NULL;
		j->nlic = 0;
		j->lic_or = errno == ENOTSUP;
	}
	_gres(raw->gres, gres, sizeof(gres));
	j->tres_mem = _tres_mem(raw->tres);
	_str(&s, &j->id, raw->id, false);
	_str(&s, &j->array_task, raw->array_job_id ? raw->array_task : NULL,
	     true);
	_str(&s, &j->name, raw->name ? raw->name : "", false);
	_str(&s, &j->state_name, raw->state ? raw->state : "?", false);
	_str(&s, &j->uid, raw->uid, true);
	_str(&s, &j->account, raw->account, true);
	_str(&s, &j->qos, raw->qos, true);
	_str(&s, &j->reason, raw->reason ? raw->reason : "None", false);
	_str(&s, &j->features, raw->features, true);
	_str(&s, &j->req_nodes, raw->req_nodes, true);
	_str(&s, &j->exc_nodes, raw->exc_nodes, true);
	_str(&s, &j->gres, gres, true);
	_str(&s, &j->dependency, raw->dependency, true);
	_str(&s, &j->tres, raw->tres, true);
	if (_strings_done(&s, &j->text) < 0) {
		sb_licenses_free(j->lic, j->nlic);
		return -1;
	}
	c->njobs++;
	if ((j->state == SBC_RUNNING || j->state == SBC_SUSPENDED) &&
	    !(j->nodes = _job_nodeset(c, &ctx->sets, raw->nodelist,
				      sb_shown(sh, sizeof(sh), j->id))))
		return -1;
	if (raw->resv && *raw->resv && strcmp(raw->resv, "(null)"))
		for (k = 0; k < c->nresv; k++)
			if (!strcmp(c->resv[k].name, raw->resv))
				j->resv = (int) k;
	return 0;
}

int sbc__read_jobs(sbc_cluster_t *c)
{
	sbc__jobs_ctx_t ctx;
	int rc;

	memset(&ctx, 0, sizeof(ctx));
	rc = sbc__jobs_json(c, &ctx);
	if (!rc)
		rc = sbc__jobs_text(c, &ctx);
	else if (rc > 0)
		rc = 0;
	_ctx_fini(&ctx);
	return rc;
}
