/*
 * sbucket_why_live.c - the running cluster as 'sbucket why' sees it
 * (sbucket_why_live.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "decimal.h"
#include "hostlist_fmt.h"
#include "sb_time.h"
#include "sbucket_why_live.h"
#include "strbuf.h"
#include "strmap.h"

#define PROG "sbucket"

static const char *_bin(const char *env, const char *dflt)
{
	const char *b = getenv(env);

	return (b && *b) ? b : dflt;
}

/*
 * Run "@bin @args" and hand each output line to @fn; a line @fn refuses
 * (-1) stops the reading. Returns 0, or -1 after printing one error line
 * (the command's own first line when it fails), or, when @err is not
 * NULL and the command cannot run or fails, after writing why there
 * instead (its first line, "failed, no output" or "cannot run: ...").
 */
int sbw_live_run_err(const char *env, const char *dflt, const char *args,
		     int (*fn)(void *, char *), void *arg, char *err,
		     size_t errlen)
{
	char cmd[1024], *buf = NULL, first[256] = "";
	size_t cap = 0;
	ssize_t len;
	FILE *p;
	int rc = 0, status;

	snprintf(cmd, sizeof(cmd), "%s %s 2>&1", _bin(env, dflt), args);
	if (!(p = popen(cmd, "r"))) {
		if (err)
			snprintf(err, errlen, "cannot run: %s",
				 strerror(errno));
		else
			fprintf(stderr, PROG ": cannot run %s: %s\n", dflt,
				strerror(errno));
		return -1;
	}
	/* 100,000 jobs are 150 MB of scontrol output: read it in large
	 * pieces (a failure keeps stdio's own buffer) */
	(void) setvbuf(p, NULL, _IOFBF, 1 << 20);
	while ((len = getline(&buf, &cap, p)) >= 0) {
		while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
			buf[--len] = '\0';
		if (!first[0])
			snprintf(first, sizeof(first), "%s", buf);
		if (!rc && fn(arg, buf) < 0)
			rc = -1;	/* drained below */
	}
	free(buf);
	status = pclose(p);
	if (status && !rc) {
		if (err)
			snprintf(err, errlen, "%s", first[0] ? first :
				 "failed, no output");
		else
			fprintf(stderr, PROG ": '%s %s' failed: %s\n", dflt,
				args, first[0] ? first : "no output");
		rc = -1;
	}
	return rc;
}

int sbw_live_run(const char *env, const char *dflt, const char *args,
		 int (*fn)(void *, char *), void *arg)
{
	return sbw_live_run_err(env, dflt, args, fn, arg, NULL, 0);
}

/* ---- scontrol show config ------------------------------------------------ */

static int _dup(char **dst, const char *v)
{
	free(*dst);
	if (!(*dst = strdup(v))) {
		fprintf(stderr, PROG ": out of memory\n");
		return -1;
	}
	return 0;
}

typedef struct {
	sbw_live_t *lv;
	sb_strbuf_t conf;		/* bucket.conf from its settings */
	bool section;			/* select/bucket's lines were shown */
	char *slurm_conf;		/* SLURM_CONF, the file's path */
} _config_t;

/* Does the comma-separated list @list hold @word? */
static bool _has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ',') && (!p[n] || p[n] == ','))
			return true;
	return false;
}

static int _config_line(void *arg, char *line)
{
	_config_t *c = arg;
	char *key, *val;
	size_t len;

	if (sb_config_line(line, &key, &val) < 0)
		return 0;
	/* scontrol prints the plugin's heading without a line break */
	len = strlen(key);
	if (len >= 14 && !strcmp(key + len - 14, "BaseSelectType")) {
		c->section = true;
		return _dup(&c->lv->base, val);
	}
	if (!strcmp(key, "SLURM_CONF"))
		return _dup(&c->slurm_conf, val);
	if (!strcmp(key, "SelectType"))
		return _dup(&c->lv->select_type, val);
	if (!strcmp(key, "PriorityType"))
		return _dup(&c->lv->priority_type, val);
	if (!strcmp(key, "AccountingStorageType"))
		return _dup(&c->lv->accounting_type, val);
	/* no preemption: 22.05 shows preempt/none, 24.11 (null) */
	if (!strcmp(key, "PreemptType"))
		return strcmp(val, "(null)") ?
			_dup(&c->lv->preempt_type, val) : 0;
	if (!strcmp(key, "SchedulerParameters")) {
		const char *bf = strstr(val, "bf_resolution=");

		if (bf && atoi(bf + 14) > 0)
			c->lv->bf_resolution = atoi(bf + 14);
		c->lv->bf_licenses = _has_word(val, "bf_licenses");
		return 0;
	}
	if (!strcmp(key, "NodeAllocationPolicy") ||
	    !strcmp(key, "AllowJobPolicies"))
		sb_strbuf_addf(&c->conf, "%s=%s\n", key, val);
	else if (!strcmp(key, "PriorityF"))
		sb_strbuf_addf(&c->conf, "PriorityF=\"%s\"\n", val);
	else if (!strcmp(key, "NodeSpeed"))	/* "n[1-4] Speed=2" */
		sb_strbuf_addf(&c->conf, "NodeName=%s\n", val);
	return 0;
}

/*
 * From 25.05 on 'scontrol show config' has no select plugin section: read
 * bucket.conf next to the slurm.conf it names, as slurmctld does (a
 * missing file: the defaults, select/linear the base).
 */
static int _read_bucket_conf(sbw_live_t *lv, const char *slurm_conf)
{
	char err[SB_BUCKET_CONF_ERRLEN], *path, *slash;
	const char *base;
	size_t n;

	if (!slurm_conf) {
		fprintf(stderr, PROG ": 'scontrol show config' shows neither "
			"select/bucket's settings nor SLURM_CONF: cannot find "
			"bucket.conf\n");
		return -1;
	}
	slash = strrchr(slurm_conf, '/');
	n = slash ? (size_t) (slash - slurm_conf) + 1 : 0;
	if (!(path = malloc(n + sizeof("bucket.conf")))) {
		fprintf(stderr, PROG ": out of memory\n");
		return -1;
	}
	memcpy(path, slurm_conf, n);
	strcpy(path + n, "bucket.conf");
	lv->conf = sb_bucket_conf_load(path, err, sizeof(err));
	if (!lv->conf && errno == ENOENT)
		lv->conf = sb_bucket_conf_parse("", path, err, sizeof(err));
	if (!lv->conf) {
		fprintf(stderr, PROG ": %s\n", err);
		free(path);
		return -1;
	}
	free(path);
	base = sb_bucket_conf_base(lv->conf);
	return _dup(&lv->base, base ? base : "select/linear");
}

static int _read_config(sbw_live_t *lv)
{
	_config_t c = { lv, SB_STRBUF_INIT, false, NULL };
	char err[SB_BUCKET_CONF_ERRLEN], *text = NULL;
	int rc = -1, ran;

	ran = sbw_live_run("SBUCKET_SCONTROL", "scontrol", "show config",
		   _config_line, &c);

	text = sb_strbuf_finish(&c.conf);
	if (ran < 0)
		goto fail;
	if (!text) {
		fprintf(stderr, PROG ": out of memory\n");
		goto fail;
	}
	if (!lv->select_type) {
		fprintf(stderr, PROG ": 'scontrol show config' shows no "
			"SelectType: is slurmctld running?\n");
		goto fail;
	}
	if (c.section || strcmp(lv->select_type, "select/bucket")) {
		lv->conf = sb_bucket_conf_parse(text, "slurmctld's bucket.conf",
						err, sizeof(err));
		if (!lv->conf) {
			fprintf(stderr, PROG ": %s\n", err);
			goto fail;
		}
	} else if (_read_bucket_conf(lv, c.slurm_conf) < 0) {
		goto fail;
	}
	lv->base_cons = lv->base && strstr(lv->base, "cons_");
	rc = 0;
fail:
	free(text);
	free(c.slurm_conf);
	return rc;
}

/* ---- records ------------------------------------------------------------- */

typedef struct {
	sb_record_t **v;
	size_t n, cap;
	const char *first_key;		/* records start with it */
	sb_record_cache_t keys;		/* the records share their keys */
} _records_t;

static int _record_line(void *arg, char *line)
{
	_records_t *rs = arg;
	sb_record_t *r, **v;

	if (!(r = sb_record_parse_cached(line, &rs->keys)))
		return 0;	/* "No jobs in the system" and the like */
	if (strcmp(sb_record_key_at(r, 0), rs->first_key)) {
		sb_record_free(r);
		return 0;
	}
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? rs->cap * 2 : 16;

		if (!(v = realloc(rs->v, cap * sizeof(*v)))) {
			sb_record_free(r);
			fprintf(stderr, PROG ": out of memory\n");
			return -1;
		}
		rs->v = v;
		rs->cap = cap;
	}
	rs->v[rs->n++] = r;
	return 0;
}

static int _records(const char *what, const char *first_key,
		    _records_t *rs)
{
	char args[64];

	memset(rs, 0, sizeof(*rs));
	rs->first_key = first_key;
	snprintf(args, sizeof(args), "show %s -o", what);
	if (sbw_live_run("SBUCKET_SCONTROL", "scontrol", args, _record_line, rs) < 0) {
		while (rs->n)
			sb_record_free(rs->v[--rs->n]);
		free(rs->v);
		sb_record_cache_fini(&rs->keys);
		return -1;
	}
	sb_record_cache_fini(&rs->keys);
	return 0;
}

/*
 * Every record of 'scontrol show @what -o' into a new array of @size-byte
 * elements (*array, zeroed), each handed to @fn with its index; *count
 * counts the elements handed over so far, so a failure leaves what the
 * caller frees. @fn may keep the record (setting *rec to NULL); @ctx is
 * handed to it.
 */
static int _read_all(sbw_live_t *lv, const char *what, const char *key,
		     void **array, size_t size, size_t *count,
		     int (*fn)(sbw_live_t *, sb_record_t **, size_t, void *),
		     void *ctx)
{
	_records_t rs;
	size_t i;
	int rc = -1;

	if (_records(what, key, &rs) < 0)
		return -1;
	if (rs.n && !(*array = calloc(rs.n, size))) {
		fprintf(stderr, PROG ": out of memory\n");
		goto out;
	}
	for (i = 0; i < rs.n; i++) {
		*count = i + 1;
		if (fn(lv, &rs.v[i], i, ctx) < 0)
			goto out;
	}
	rc = 0;
out:
	for (i = 0; i < rs.n; i++)
		sb_record_free(rs.v[i]);
	free(rs.v);
	return rc;
}

static int _bad_field(const char *what, const char *name, const char *key,
		      const char *val)
{
	fprintf(stderr, PROG ": scontrol: %s %s: %s=%s: not understood\n",
		what, name, key, val ? val : "(missing)");
	return -1;
}

uint64_t sbw_leading_number(const char *s)
{
	const char *end;
	uint64_t v;

	return sb_decimal_parse(s, UINT64_MAX, &v, &end) ? 0 : v;
}

static int _u32(const char *s, uint32_t *v)
{
	uint64_t x;

	if (sb_decimal_parse(s, UINT32_MAX, &x, NULL))
		return -1;
	*v = (uint32_t) x;
	return 0;
}

/* A hostlist of the cluster's nodes as a bitmap; NULL after an error. */
static sb_bitmap_t *_nodeset(const sbw_live_t *lv, const char *hl,
			     const char *what)
{
	sb_bitmap_t *b = sb_bitmap_alloc(lv->cl.n);
	char **names = NULL;
	size_t n = 0, i;
	long idx;

	if (!b) {
		fprintf(stderr, PROG ": out of memory\n");
		return NULL;
	}
	if (!hl || !*hl || !strcmp(hl, "(null)"))
		return b;
	/* one name, as most jobs run on, expands to itself: find it without
	 * the expander (one that is not a node's gets the expander's error) */
	if (!strpbrk(hl, "[],") && (idx = sbi_find_node(&lv->cl, hl)) >= 0) {
		sb_bitmap_set(b, (size_t) idx);
		return b;
	}
	if (sb_hostlist_expand(hl, &names, &n, NULL, NULL) < 0) {
		fprintf(stderr, PROG ": scontrol: %s: node list '%s' not "
			"understood\n", what, hl);
		sb_bitmap_free(b);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		if ((idx = sbi_find_node(&lv->cl, names[i])) < 0) {
			fprintf(stderr, PROG ": scontrol: %s: no node '%s'\n",
				what, names[i]);
			sb_bitmap_free(b);
			b = NULL;
			break;
		}
		sb_bitmap_set(b, (size_t) idx);
	}
	sb_hostlist_free(names, n);
	return b;
}

/* ---- nodes --------------------------------------------------------------- */

/*
 * select/bucket's node states (bucket_convert.c) from scontrol's State:
 * drained or draining, down / not responding / failing, any job or
 * completing, powered down, else idle.
 */
static sb_node_state_t _node_state(const char *s)
{
	if (strstr(s, "DRAIN"))
		return SB_NODE_DRAINED;
	if (!strncmp(s, "DOWN", 4) || !strncmp(s, "FUTURE", 6) ||
	    !strncmp(s, "UNKNOWN", 7) || strchr(s, '*') || strstr(s, "FAIL") ||
	    strstr(s, "NOT_RESPONDING") || strstr(s, "POWERING_UP"))
		return SB_NODE_DOWN;
	if (!strncmp(s, "ALLOC", 5) || !strncmp(s, "MIXED", 5) ||
	    strstr(s, "COMPLETING"))
		return SB_NODE_ALLOCATED;
	if (strstr(s, "POWERED_DOWN") || strstr(s, "POWER_DOWN"))
		return SB_NODE_POWERED_DOWN;
	return SB_NODE_IDLE;
}

/* Add the comma-separated items of @list with @add (NULL-safe). */
static int _add_list(sb_node_t *nd, const char *list,
		     int (*add)(sb_node_t *, const char *))
{
	char *copy, *tok, *save = NULL;
	int rc = 0;

	if (!list || !*list || !strcmp(list, "(null)"))
		return 0;
	if (!(copy = strdup(list)))
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save))
		rc = add(nd, tok);
	free(copy);
	return rc;
}

/* "gpu:tesla:2(S:0-1)" -> gpu:tesla 2; an item we cannot read is left
 * out of the node's signature, as the plugin does. */
static int _add_gres(sb_node_t *nd, const char *item)
{
	char buf[256], *paren;
	sb_gres_t g;
	int rc;

	snprintf(buf, sizeof(buf), "%s", item);
	if ((paren = strchr(buf, '(')))
		*paren = '\0';
	if (sb_gres_parse(buf, &g) < 0)
		return 0;
	rc = sb_node_add_gres(nd, g.name, g.count);
	free(g.name);
	return rc;
}

static int _node(sbw_live_t *lv, sb_record_t **rec, size_t i,
		 void *ctx)
{
	const sb_record_t *r = *rec;
	sb_node_t *nd = &lv->cl.nodes[i];
	const char *name = sb_record_get(r, "NodeName"), *v;
	const sb_bucket_conf_node_t *bn;
	uint32_t x, boards = 1;
	uint64_t mb;

	if (sb_node_init(nd, (uint32_t) i, name) < 0)
		goto oom;
	if (_u32(sb_record_get(r, "CPUTot"), &nd->cpus) < 0 || !nd->cpus)
		return _bad_field("node", name, "CPUTot",
				  sb_record_get(r, "CPUTot"));
	if (!_u32(sb_record_get(r, "Boards"), &x) && x)
		boards = x;
	if (!_u32(sb_record_get(r, "Sockets"), &x) && x)
		nd->sockets = (uint16_t) (x * boards);
	if (!_u32(sb_record_get(r, "CoresPerSocket"), &x) && x)
		nd->cores = (uint16_t) x;
	if (!_u32(sb_record_get(r, "ThreadsPerCore"), &x) && x)
		nd->threads = (uint16_t) x;
	v = sb_record_get(r, "RealMemory");
	if (!v || sb_slurm_mem(v, &mb) < 0)
		return _bad_field("node", name, "RealMemory", v);
	nd->real_memory = mb;
	if ((v = sb_record_get(r, "TmpDisk")) && !sb_slurm_mem(v, &mb))
		nd->tmp_disk = mb;
	if (!_u32(sb_record_get(r, "Weight"), &x))
		nd->weight = x;
	if (_add_list(nd, sb_record_get(r, "AvailableFeatures"),
		      sb_node_add_feature) < 0 ||
	    _add_list(nd, sb_record_get(r, "Gres"), _add_gres) < 0 ||
	    _add_list(nd, sb_record_get(r, "Partitions"),
		      sb_node_add_partition) < 0)
		goto oom;
	if ((v = sb_record_value(r, "CPULoad")))
		nd->load = strtod(v, NULL);
	if (!(v = sb_record_get(r, "State")))
		return _bad_field("node", name, "State", v);
	nd->state = _node_state(v);
	nd->run_jobs = nd->state == SB_NODE_ALLOCATED;
	if ((bn = sb_bucket_conf_node(lv->conf, name)))
		nd->speed = bn->speed;
	return 0;
oom:
	fprintf(stderr, PROG ": node %s: %s\n", name, strerror(errno));
	return -1;
}

static const sb_node_t *_sort_nodes;

static int _by_name(const void *a, const void *b)
{
	return strcmp(_sort_nodes[*(const size_t *) a].name,
		      _sort_nodes[*(const size_t *) b].name);
}

static int _read_nodes(sbw_live_t *lv)
{
	size_t i;

	if (_read_all(lv, "nodes", "NodeName", (void **) &lv->cl.nodes,
		      sizeof(sb_node_t), &lv->cl.n, _node, NULL) < 0)
		return -1;
	if (!lv->cl.n) {
		fprintf(stderr, PROG ": scontrol shows no nodes\n");
		return -1;
	}
	if (!(lv->cl.by_name = malloc(lv->cl.n * sizeof(size_t)))) {
		fprintf(stderr, PROG ": out of memory\n");
		return -1;
	}
	for (i = 0; i < lv->cl.n; i++)
		lv->cl.by_name[i] = i;
	_sort_nodes = lv->cl.nodes;
	qsort(lv->cl.by_name, lv->cl.n, sizeof(size_t), _by_name);
	for (i = 1; i < lv->cl.n; i++)
		if (!strcmp(lv->cl.nodes[lv->cl.by_name[i]].name,
			    lv->cl.nodes[lv->cl.by_name[i - 1]].name)) {
			fprintf(stderr, PROG ": scontrol shows node %s twice\n",
				lv->cl.nodes[lv->cl.by_name[i]].name);
			return -1;
		}
	lv->cl.nindexed = lv->cl.n;
	return 0;
}

/* ---- partitions ---------------------------------------------------------- */

static int _part(sbw_live_t *lv, sb_record_t **rec, size_t i,
		 void *ctx)
{
	sbw_part_t *p = &lv->parts[i];
	const char *v;

	if (_dup(&p->name, sb_record_get(*rec, "PartitionName")))
		return -1;
	v = sb_record_get(*rec, "Default");
	p->is_default = v && !strcmp(v, "YES");
	if (p->is_default && !lv->cl.default_partition &&
	    _dup(&lv->cl.default_partition, p->name))
		return -1;
	if ((v = sb_record_get(*rec, "OverSubscribe"))) {
		p->exclusive = !strcmp(v, "EXCLUSIVE");
		p->no = !strcmp(v, "NO");
		p->force = !strncmp(v, "FORCE:", 6) &&
			sbw_leading_number(v + 6) > 1;
	}
	(void) _u32(sb_record_get(*rec, "PriorityTier"), &p->tier);
	v = sb_record_get(*rec, "MaxTime");
	return _dup(&p->max_time, v ? v : "UNLIMITED");
}

static int _read_parts(sbw_live_t *lv)
{
	return _read_all(lv, "partition", "PartitionName",
			 (void **) &lv->parts, sizeof(*lv->parts),
			 &lv->nparts, _part, NULL);
}

static int _part_index(const sbw_live_t *lv, const char *name)
{
	size_t i, len;

	if (!name)
		return -1;
	/* a pending job may list several partitions: the first one */
	len = strcspn(name, ",");
	for (i = 0; i < lv->nparts; i++)
		if (strlen(lv->parts[i].name) == len &&
		    !strncmp(lv->parts[i].name, name, len))
			return (int) i;
	return -1;
}

/* ---- reservations -------------------------------------------------------- */

/* Cores of the nodes in @b (sockets x cores per socket). */
static uint64_t _cores(const sbw_live_t *lv, const sb_bitmap_t *b)
{
	uint64_t sum = 0;
	int64_t i;

	for (i = sb_bitmap_first_set(b); i >= 0;
	     i = sb_bitmap_next_set(b, (size_t) i + 1))
		sum += (uint64_t) lv->cl.nodes[i].sockets *
			lv->cl.nodes[i].cores;
	return sum;
}

static int _resv(sbw_live_t *lv, sb_record_t **rec, size_t i,
		 void *ctx)
{
	sbw_resv_t *r = &lv->resv[i];
	const char *name = sb_record_get(*rec, "ReservationName"), *v;
	uint32_t cores;

	r->rec = *rec;
	*rec = NULL;
	if (_dup(&r->name, name))
		return -1;
	if (!(r->nodes = _nodeset(lv, sb_record_get(r->rec, "Nodes"), name)))
		return -1;
	v = sb_record_get(r->rec, "StartTime");
	if (!v || sb_slurm_time(v, &r->start) < 0)
		return _bad_field("reservation", name, "StartTime", v);
	v = sb_record_get(r->rec, "EndTime");
	if (!v || sb_slurm_time(v, &r->end) < 0)
		r->end = SB_TIME_INFINITE;
	if (!_u32(sb_record_get(r->rec, "CoreCnt"), &cores))
		r->partial = cores < _cores(lv, r->nodes);
	return 0;
}

static int _read_resv(sbw_live_t *lv)
{
	return _read_all(lv, "res", "ReservationName", (void **) &lv->resv,
			 sizeof(*lv->resv), &lv->nresv, _resv, NULL);
}

/* ---- jobs ---------------------------------------------------------------- */

static sbw_state_t _job_state(const char *s)
{
	if (!s)
		return SBW_OTHER;
	if (!strcmp(s, "PENDING"))
		return SBW_PENDING;
	if (!strcmp(s, "RUNNING"))
		return SBW_RUNNING;
	if (!strcmp(s, "SUSPENDED"))
		return SBW_SUSPENDED;
	return SBW_OTHER;
}

/* "4-4", "3", "2-8" */
static int _range(const char *s, uint32_t *lo, uint32_t *hi)
{
	char buf[64], *dash;

	if (!s)
		return -1;
	snprintf(buf, sizeof(buf), "%s", s);
	*hi = 0;
	if ((dash = strchr(buf, '-'))) {
		*dash = '\0';
		if (_u32(dash + 1, hi) < 0)
			return -1;
	}
	return _u32(buf, lo);
}

/*
 * The running jobs' node sets by NodeList: 100,000 jobs on 2,000 nodes
 * name some 2,000 lists, so each list is read and its bitmap (a quarter
 * of a KB for 2,000 nodes) made once, and the jobs share it (lv->nodesets
 * owns them). Open addressing on the list's text, which the jobs'
 * records keep, with linear probing, at most half full.
 */
typedef struct {
	struct _nodeset_slot {
		const char *list;	/* NULL: empty */
		size_t set;		/* index in lv->nodesets */
	} *slot;
	size_t nslot;			/* a power of two, or 0 */
	size_t n;
	size_t cap;			/* room in lv->nodesets */
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

/* What the jobs' reading keeps from one job to the next. */
typedef struct {
	_nodesets_t sets;
	_time_memo_t start, end;
	size_t users_room;		/* in lv->users */
} _jobs_ctx_t;

/*
 * The user name of UserId @uid ("name(uid)"): the job before's when it
 * is the same user (scontrol lists a user's jobs in a row, mostly),
 * else a copy lv->users keeps. NULL out of memory.
 */
static const char *_user(sbw_live_t *lv, _jobs_ctx_t *ctx, const char *uid)
{
	size_t len = strcspn(uid, "(");
	char *u, **v;

	if (lv->nusers) {
		u = lv->users[lv->nusers - 1];
		if (!strncmp(u, uid, len) && !u[len])
			return u;
	}
	if (lv->nusers == ctx->users_room) {
		size_t room = ctx->users_room ? 2 * ctx->users_room : 16;

		if (!(v = realloc(lv->users, room * sizeof(*v))))
			return NULL;
		lv->users = v;
		ctx->users_room = room;
	}
	if (!(u = strndup(uid, len)))
		return NULL;
	return lv->users[lv->nusers++] = u;
}

/* sb_slurm_time(@s), or the memo's answer when @s is the time before. */
static int _time(_time_memo_t *m, const char *s, int64_t *t)
{
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
 * The node set of the list @hl (NULL: none) of job @what, shared with
 * the jobs before it that have the same list. NULL after an error.
 */
static sb_bitmap_t *_job_nodeset(sbw_live_t *lv, _nodesets_t *ix,
				 const char *hl, const char *what)
{
	sb_bitmap_t *b, **v;
	size_t i;

	if (!hl)
		hl = "";
	if (2 * (ix->n + 1) > ix->nslot && _nodesets_grow(ix) < 0)
		goto oom;
	for (i = _str_hash(hl) & (ix->nslot - 1); ix->slot[i].list;
	     i = (i + 1) & (ix->nslot - 1))
		if (!strcmp(ix->slot[i].list, hl))
			return lv->nodesets[ix->slot[i].set];
	if (lv->nnodesets == ix->cap) {
		size_t cap = ix->cap ? 2 * ix->cap : 64;

		if (!(v = realloc(lv->nodesets, cap * sizeof(*v))))
			goto oom;
		lv->nodesets = v;
		ix->cap = cap;
	}
	if (!(b = _nodeset(lv, hl, what)))
		return NULL;
	ix->slot[i].list = hl;
	ix->slot[i].set = lv->nnodesets;
	ix->n++;
	lv->nodesets[lv->nnodesets++] = b;
	return b;
oom:
	fprintf(stderr, PROG ": out of memory\n");
	return NULL;
}

static int _job(sbw_live_t *lv, sb_record_t **rec, size_t i, void *arg)
{
	_jobs_ctx_t *ctx = arg;
	sbw_job_t *j = &lv->jobs[i];
	const sb_record_t *r = *rec;
	const char *v, *name;
	uint32_t x, cpt = 1, tpn = 0;

	j->rec = *rec;
	*rec = NULL;
	/* the records start with JobId (_read_all) */
	j->id = name = sb_record_get(r, "JobId");
	j->state = _job_state(sb_record_get(r, "JobState"));
	j->resv = -1;
	v = sb_record_get(r, "UserId");
	if (!(j->user = _user(lv, ctx, v ? v : "?"))) {
		fprintf(stderr, PROG ": out of memory\n");
		return -1;
	}
	j->account = sb_record_value(r, "Account");
	(void) _u32(sb_record_get(r, "Priority"), &j->priority);
	j->part = _part_index(lv, sb_record_get(r, "Partition"));
	if (_range(sb_record_get(r, "NumNodes"), &j->min_nodes,
		   &j->max_nodes) < 0)
		j->min_nodes = j->max_nodes = 0;
	if (j->state != SBW_PENDING)	/* scontrol shows the count only */
		j->max_nodes = j->min_nodes;
	if (!_u32(sb_record_get(r, "CPUs/Task"), &x) && x)
		cpt = x;
	/* what it asked for: a pending job's NumCPUs; once running, that is
	 * what it got (whole nodes), so its tasks tell */
	if (j->state == SBW_PENDING &&
	    !_range(sb_record_get(r, "NumCPUs"), &x, &tpn))
		j->cpus = x;
	else if (!_u32(sb_record_get(r, "NumTasks"), &x))
		j->cpus = (uint64_t) x * cpt;
	else
		j->cpus = (uint64_t) j->min_nodes * cpt;
	tpn = 0;
	if ((v = sb_record_get(r, "NtasksPerN:B:S:C")))
		tpn = (uint32_t) sbw_leading_number(v);
	if (_u32(sb_record_get(r, "MinCPUsNode"), &j->node_cpus) < 0)
		j->node_cpus = 1;
	if (tpn && tpn * cpt > j->node_cpus)
		j->node_cpus = tpn * cpt;
	v = sb_record_get(r, "StartTime");
	if (!v || _time(&ctx->start, v, &j->start) < 0)
		j->start = -1;
	v = sb_record_get(r, "EndTime");
	if (!v || _time(&ctx->end, v, &j->end) < 0)
		j->end = -1;
	v = sb_record_get(r, "TimeLimit");
	if (v && !strcmp(v, "Partition_Limit") && j->part >= 0)
		v = lv->parts[j->part].max_time;
	if (!v || sbi_parse_time(v, &j->time_limit) < 0)
		j->time_limit = SB_TIME_INFINITE;
	if ((j->state == SBW_RUNNING || j->state == SBW_SUSPENDED) &&
	    !(j->nodes = _job_nodeset(lv, &ctx->sets,
				      sb_record_value(r, "NodeList"), name)))
		return -1;
	if ((v = sb_record_value(r, "Reservation"))) {
		size_t k;

		for (k = 0; k < lv->nresv; k++)
			if (!strcmp(lv->resv[k].name, v))
				j->resv = (int) k;
	}
	return 0;
}

static int _read_jobs(sbw_live_t *lv)
{
	_jobs_ctx_t ctx;
	int rc;

	memset(&ctx, 0, sizeof(ctx));
	rc = _read_all(lv, "jobs", "JobId", (void **) &lv->jobs,
		       sizeof(*lv->jobs), &lv->njobs, _job, &ctx);
	free(ctx.sets.slot);
	return rc;
}

/* ---- a job's request ----------------------------------------------------- */

/* TresPerNode "gres:gpu:2,gres/nic:1" -> "gpu:2,nic:1" into @b. */
static void _gres_option(sb_strbuf_t *b, const char *tres)
{
	char *copy = strdup(tres), *tok, *save = NULL;
	const char *sep = " --gres=";

	if (!copy) {
		b->failed = true;
		return;
	}
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strncmp(tok, "gres:", 5) || !strncmp(tok, "gres/", 5))
			tok += 5;
		else
			continue;	/* not a GRES (licenses, ...) */
		sb_strbuf_addf(b, "%s%s", sep, tok);
		sep = ",";
	}
	free(copy);
}

int sbw_live_request(sbw_live_t *lv, sbw_job_t *j)
{
	const sb_record_t *r = j->rec;
	sb_strbuf_t b = SB_STRBUF_INIT;
	const char *v;
	char where[128];
	uint64_t mem = 0, tmp = 0;
	int got;

	sb_strbuf_addf(&b, "JobId=%s -N %" PRIu32 " --exclusive", j->id,
		       j->min_nodes ? j->min_nodes : 1);
	if ((v = sb_record_value(r, "Features")))
		sb_strbuf_addf(&b, " -C %s", v);
	if ((v = sb_record_get(r, "MinMemoryNode")))
		(void) sb_slurm_mem(v, &mem);
	else if ((v = sb_record_get(r, "MinMemoryCPU")) &&
		 !sb_slurm_mem(v, &mem))
		mem *= j->node_cpus ? j->node_cpus : 1;
	if ((v = sb_record_get(r, "MinTmpDiskNode")))
		(void) sb_slurm_mem(v, &tmp);
	sb_strbuf_addf(&b, " --mem=%" PRIu64 " --tmp=%" PRIu64
		       " --mincpus=%" PRIu32, mem, tmp, j->node_cpus);
	if (j->time_limit == SB_TIME_INFINITE)
		sb_strbuf_add(&b, " -t UNLIMITED");
	else
		sb_strbuf_addf(&b, " -t 0:0:%" PRId64, j->time_limit);
	if (j->part >= 0)
		sb_strbuf_addf(&b, " -p %s", lv->parts[j->part].name);
	if ((v = sb_record_value(r, "TresPerNode")))
		_gres_option(&b, v);
	if ((v = sb_record_value(r, "ReqNodeList")))
		sb_strbuf_addf(&b, " -w %s", v);
	if ((v = sb_record_value(r, "ExcNodeList")))
		sb_strbuf_addf(&b, " -x %s", v);
	if ((v = sb_record_get(r, "Contiguous")) && !strcmp(v, "1"))
		sb_strbuf_add(&b, " --contiguous");
	free(j->req_line);
	if (!(j->req_line = sb_strbuf_finish(&b))) {
		fprintf(stderr, PROG ": out of memory\n");
		return -1;
	}
	{
		char *copy = strdup(j->req_line);

		if (!copy) {
			fprintf(stderr, PROG ": out of memory\n");
			return -1;
		}
		snprintf(where, sizeof(where), "job %s, as", j->id);
		got = sbi_parse_job(where, 1, copy, &lv->cl, &j->req);
		free(copy);
	}
	if (got != 1) {
		fprintf(stderr, PROG ": job %s: its request cannot be "
			"modelled: %s\n", j->id, j->req_line);
		return -1;
	}
	j->have_req = true;
	return 0;
}

/* ---- the whole ----------------------------------------------------------- */

int sbw_live_read(sbw_live_t *lv)
{
	const char *now = getenv("SBUCKET_NOW");

	memset(lv, 0, sizeof(*lv));
	lv->now = (int64_t) time(NULL);
	lv->bf_resolution = 60;		/* sched/backfill's default */
	if (now && *now)
		lv->now = strtoll(now, NULL, 10);
	/* scontrol's and squeue's times in the one form we read */
	setenv("SLURM_TIME_FORMAT", "standard", 1);
	if (_read_config(lv) < 0 || _read_nodes(lv) < 0 ||
	    _read_parts(lv) < 0 || _read_resv(lv) < 0 || _read_jobs(lv) < 0)
		return -1;
	return 0;
}

void sbw_live_fini(sbw_live_t *lv)
{
	size_t i;

	sb_strmap_destroy(lv->by_id);
	free(lv->select_type);
	free(lv->accounting_type);
	free(lv->base);
	free(lv->priority_type);
	free(lv->preempt_type);
	sb_bucket_conf_free(lv->conf);
	for (i = 0; i < lv->nparts; i++) {
		free(lv->parts[i].name);
		free(lv->parts[i].max_time);
	}
	free(lv->parts);
	for (i = 0; i < lv->nresv; i++) {
		free(lv->resv[i].name);
		sb_bitmap_free(lv->resv[i].nodes);
		sb_record_free(lv->resv[i].rec);
	}
	free(lv->resv);
	for (i = 0; i < lv->njobs; i++) {
		sbw_job_t *j = &lv->jobs[i];

		sb_record_free(j->rec);
		if (j->have_req)
			sbi_job_fini(&j->req);
		free(j->req_line);
	}
	free(lv->jobs);
	for (i = 0; i < lv->nnodesets; i++)
		sb_bitmap_free(lv->nodesets[i]);
	free(lv->nodesets);
	for (i = 0; i < lv->nusers; i++)
		free(lv->users[i]);
	free(lv->users);
	sbi_cluster_fini(&lv->cl);
	memset(lv, 0, sizeof(*lv));
}

sbw_job_t *sbw_live_job(sbw_live_t *lv, const char *id)
{
	/* only an array task's name has a '_': other ids need no record */
	bool task = strchr(id, '_') != NULL;
	size_t i;

	/* sprio asks once per pending job: an index, not a scan each */
	if (!lv->by_id && (lv->by_id = sb_strmap_create()))
		for (i = 0; i < lv->njobs; i++)
			if (sb_strmap_get(lv->by_id, lv->jobs[i].id) ==
			    SIZE_MAX &&	/* the first of a repeated id */
			    sb_strmap_put(lv->by_id, lv->jobs[i].id, i) < 0) {
				sb_strmap_destroy(lv->by_id);
				lv->by_id = NULL;	/* scan instead */
				break;
			}
	if (!task && lv->by_id) {
		i = sb_strmap_get(lv->by_id, id);
		return i == SIZE_MAX ? NULL : &lv->jobs[i];
	}
	for (i = 0; i < lv->njobs; i++) {
		const sb_record_t *r = lv->jobs[i].rec;
		const char *a, *t;
		size_t len;

		if (!strcmp(lv->jobs[i].id, id))
			return &lv->jobs[i];
		if (!task)
			continue;
		a = sb_record_get(r, "ArrayJobId");
		t = sb_record_get(r, "ArrayTaskId");
		len = a ? strlen(a) : 0;
		/* an array task as squeue names it, "12_3" */
		if (a && t && !strncmp(id, a, len) && id[len] == '_' &&
		    !strcmp(id + len + 1, t))
			return &lv->jobs[i];
	}
	return NULL;
}

static int _sprio_line(void *arg, char *line)
{
	sbw_live_t *lv = arg;
	char *f[SBW_NFACTORS + 1], *p = line;
	sbw_job_t *j;
	int n = 0, k;

	while (n <= SBW_NFACTORS) {
		while (*p == ' ')
			p++;
		f[n++] = p;
		if (!(p = strchr(p, '|')))
			break;
		*p++ = '\0';
	}
	if (n != SBW_NFACTORS + 1)
		return 0;	/* a heading, or not sprio's */
	for (k = 0; k <= SBW_NFACTORS; k++)
		f[k][strcspn(f[k], " ")] = '\0';
	/* a job pending in several partitions: its first line */
	if (!(j = sbw_live_job(lv, f[0])) || j->have_factors)
		return 0;
	for (k = 0; k < SBW_NFACTORS; k++)
		j->factors[k] = strtoll(f[k + 1], NULL, 10);
	j->have_factors = true;
	return 0;
}

int sbw_live_sprio(sbw_live_t *lv)
{
	return sbw_live_run("SBUCKET_SPRIO", "sprio",
			    "-h -o '%i|%Y|%A|%F|%J|%P|%Q'",
		    _sprio_line, lv);
}

typedef struct {
	int64_t *start;
	char *nodes;
	size_t len;
	int lines;
} _start_t;

static int _start_line(void *arg, char *line)
{
	_start_t *s = arg;
	char *bar = strchr(line, '|');

	if (!bar || s->lines++)
		return 0;
	*bar++ = '\0';
	if (sb_slurm_time(line, s->start) < 0)
		*s->start = -1;
	if (strcmp(bar, "(null)") && strcmp(bar, "N/A"))
		snprintf(s->nodes, s->len, "%s", bar);
	return 0;
}

int sbw_live_squeue_start(const char *id, int64_t *start, char *nodes,
			  size_t len)
{
	char args[128];
	_start_t s = { start, nodes, len, 0 };

	*start = -1;
	nodes[0] = '\0';
	snprintf(args, sizeof(args), "-h --start -j %s -o '%%S|%%Y'", id);
	return sbw_live_run("SBUCKET_SQUEUE", "squeue", args, _start_line, &s);
}
