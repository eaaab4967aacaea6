/*
 * sbucket_cluster_nodes.c - the running cluster's nodes, partitions and
 * reservations (sbucket_cluster.h): 'scontrol show nodes|partition|res
 * -o', records that an admin's and Slurm's text fills.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sb_time.h"
#include "sbucket_cluster_priv.h"
#include "shown.h"

/* "sbucket: 'scontrol show WHAT -o': KIND NAME: no key KEY"; -1. */
static int _no_key(const char *what, const char *kind, const char *name,
		   const char *key)
{
	char sh[SB_SHOWN_BUF];

	fprintf(stderr, PROG ": 'scontrol show %s -o': %s %s: no key %s\n",
		what, kind, sb_shown(sh, sizeof(sh), name), key);
	return -1;
}

/* "... KIND NAME: KEY=VALUE: not understood"; -1. */
static int _bad_field(const char *what, const char *kind, const char *name,
		      const char *key, const char *val)
{
	char sh[SB_SHOWN_BUF], sv[SB_SHOWN_BUF];

	fprintf(stderr, PROG ": 'scontrol show %s -o': %s %s: %s=%s: not "
		"understood\n", what, kind, sb_shown(sh, sizeof(sh), name),
		key, sb_shown(sv, sizeof(sv), val ? val : ""));
	return -1;
}

/*
 * Every record of 'scontrol show @what -o' (starting with @key) into a
 * new array *@array of @size-byte elements (zeroed), each made by @fn
 * from its record; *@count counts those begun, so that a failure leaves
 * what the caller's sbc_fini() frees. 0, or -1 after one error line.
 */
static int _read_all(sbc_cluster_t *c, const char *what, const char *key,
		     void **array, size_t size, size_t *count,
		     int (*fn)(sbc_cluster_t *, const sb_record_t *, size_t))
{
	sbc__records_t rs;
	size_t i;
	int rc = -1;

	if (sbc__records(what, key, &rs) < 0)
		return -1;
	if (rs.n && !(*array = calloc(rs.n, size))) {
		sbc__oom();
		goto out;
	}
	for (i = 0; i < rs.n; i++) {
		*count = i + 1;
		if (fn(c, rs.v[i], i) < 0)
			goto out;
	}
	rc = 0;
out:
	sbc__records_free(&rs);
	return rc;
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

static const char *const _node_keys[] = {
	"NodeName", "CPUTot", "Sockets", "CoresPerSocket", "ThreadsPerCore",
	"Boards", "RealMemory", "TmpDisk", "Weight", "AvailableFeatures",
	"Gres", "State", NULL
};

static int _node(sbc_cluster_t *c, const sb_record_t *r, size_t i)
{
	sb_node_t *nd = &c->cl.nodes[i];
	const char *name = sb_record_get(r, "NodeName"), *v, *miss;
	const sb_bucket_conf_node_t *bn;
	uint32_t x, boards = 1;
	uint64_t mb;

	if ((miss = sbc__missing(r, _node_keys)))
		return _no_key("nodes", "node", name, miss);
	if (sb_node_init(nd, (uint32_t) i, name) < 0)
		goto oom;
	if (sbc__u32(sb_record_get(r, "CPUTot"), &nd->cpus) < 0 || !nd->cpus)
		return _bad_field("nodes", "node", name, "CPUTot",
				  sb_record_get(r, "CPUTot"));
	if (!sbc__u32(sb_record_get(r, "Boards"), &x) && x)
		boards = x;
	if (!sbc__u32(sb_record_get(r, "Sockets"), &x) && x)
		nd->sockets = (uint16_t) (x * boards);
	if (!sbc__u32(sb_record_get(r, "CoresPerSocket"), &x) && x)
		nd->cores = (uint16_t) x;
	if (!sbc__u32(sb_record_get(r, "ThreadsPerCore"), &x) && x)
		nd->threads = (uint16_t) x;
	v = sb_record_get(r, "RealMemory");
	if (sb_slurm_mem(v, &mb) < 0)
		return _bad_field("nodes", "node", name, "RealMemory", v);
	nd->real_memory = mb;
	if (!sb_slurm_mem(sb_record_get(r, "TmpDisk"), &mb))
		nd->tmp_disk = mb;
	if (!sbc__u32(sb_record_get(r, "Weight"), &x))
		nd->weight = x;
	if (_add_list(nd, sb_record_get(r, "AvailableFeatures"),
		      sb_node_add_feature) < 0 ||
	    _add_list(nd, sb_record_get(r, "Gres"), _add_gres) < 0 ||
	    _add_list(nd, sb_record_get(r, "Partitions"),
		      sb_node_add_partition) < 0)
		goto oom;
	if ((v = sb_record_value(r, "CPULoad")))
		nd->load = strtod(v, NULL);
	nd->state = _node_state(sb_record_get(r, "State"));
	nd->run_jobs = nd->state == SB_NODE_ALLOCATED;
	if ((bn = sb_bucket_conf_node(c->cfg.conf, name)))
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

int sbc__read_nodes(sbc_cluster_t *c)
{
	sbc__records_t rs;
	size_t i;
	int rc = -1;

	if (sbc__records("nodes", "NodeName", &rs) < 0)
		return -1;
	if (!rs.n) {
		fprintf(stderr, PROG ": scontrol shows no nodes\n");
		goto out;
	}
	if (!(c->cl.nodes = calloc(rs.n, sizeof(*c->cl.nodes))) ||
	    !(c->cl.by_name = malloc(rs.n * sizeof(size_t)))) {
		sbc__oom();
		goto out;
	}
	for (i = 0; i < rs.n; i++) {
		c->cl.n = i + 1;
		if (_node(c, rs.v[i], i) < 0)
			goto out;
	}
	for (i = 0; i < c->cl.n; i++)
		c->cl.by_name[i] = i;
	_sort_nodes = c->cl.nodes;
	qsort(c->cl.by_name, c->cl.n, sizeof(size_t), _by_name);
	for (i = 1; i < c->cl.n; i++)
		if (!strcmp(c->cl.nodes[c->cl.by_name[i]].name,
			    c->cl.nodes[c->cl.by_name[i - 1]].name)) {
			fprintf(stderr, PROG ": scontrol shows node %s twice\n",
				c->cl.nodes[c->cl.by_name[i]].name);
			goto out;
		}
	c->cl.nindexed = c->cl.n;
	rc = 0;
out:
	sbc__records_free(&rs);
	return rc;
}

/* ---- partitions ---------------------------------------------------------- */

static const char *const _part_keys[] = {
	"PartitionName", "Default", "MaxTime", "OverSubscribe",
	"PriorityTier", NULL
};

static int _part(sbc_cluster_t *c, const sb_record_t *r, size_t i)
{
	sbc_part_t *p = &c->parts[i];
	const char *v, *miss;

	if ((miss = sbc__missing(r, _part_keys)))
		return _no_key("partition", "partition",
			       sb_record_get(r, "PartitionName"), miss);
	if (sbc__dup(&p->name, sb_record_get(r, "PartitionName")))
		return -1;
	p->is_default = !strcmp(sb_record_get(r, "Default"), "YES");
	if (p->is_default && !c->cl.default_partition &&
	    sbc__dup(&c->cl.default_partition, p->name))
		return -1;
	v = sb_record_get(r, "OverSubscribe");
	p->exclusive = !strcmp(v, "EXCLUSIVE");
	p->no = !strcmp(v, "NO");
	p->force = !strncmp(v, "FORCE:", 6) &&
		sbc_leading_number(v + 6) > 1;
	(void) sbc__u32(sb_record_get(r, "PriorityTier"), &p->tier);
	return sbc__dup(&p->max_time, sb_record_get(r, "MaxTime"));
}

int sbc__read_parts(sbc_cluster_t *c)
{
	return _read_all(c, "partition", "PartitionName", (void **) &c->parts,
			 sizeof(*c->parts), &c->nparts, _part);
}

int sbc__part_index(const sbc_cluster_t *c, const char *name)
{
	size_t i, len;

	if (!name)
		return -1;
	/* a pending job may list several partitions: the first one */
	len = strcspn(name, ",");
	for (i = 0; i < c->nparts; i++)
		if (strlen(c->parts[i].name) == len &&
		    !strncmp(c->parts[i].name, name, len))
			return (int) i;
	return -1;
}

/* ---- reservations -------------------------------------------------------- */

/* Cores of the nodes in @b (sockets x cores per socket). */
static uint64_t _cores(const sbc_cluster_t *c, const sb_bitmap_t *b)
{
	uint64_t sum = 0;
	int64_t i;

	for (i = sb_bitmap_first_set(b); i >= 0;
	     i = sb_bitmap_next_set(b, (size_t) i + 1))
		sum += (uint64_t) c->cl.nodes[i].sockets *
			c->cl.nodes[i].cores;
	return sum;
}

static const char *const _resv_keys[] = {
	"ReservationName", "StartTime", "EndTime", "Nodes", "CoreCnt", NULL
};

static int _resv(sbc_cluster_t *c, const sb_record_t *r, size_t i)
{
	sbc_resv_t *rv = &c->resv[i];
	const char *name = sb_record_get(r, "ReservationName"), *v, *miss;
	char what[200], sh[SB_SHOWN_BUF];
	uint32_t cores;

	if ((miss = sbc__missing(r, _resv_keys)))
		return _no_key("res", "reservation", name, miss);
	if (sbc__dup(&rv->name, name))
		return -1;
	snprintf(what, sizeof(what), "'scontrol show res -o': reservation %s",
		 sb_shown(sh, sizeof(sh), name));
	if (!(rv->nodes = sbc__nodeset(c, sb_record_get(r, "Nodes"), what)))
		return -1;
	v = sb_record_get(r, "StartTime");
	if (sb_slurm_time(v, &rv->start) < 0)
		return _bad_field("res", "reservation", name, "StartTime", v);
	if (sb_slurm_time(sb_record_get(r, "EndTime"), &rv->end) < 0)
		rv->end = SB_TIME_INFINITE;
	if (!sbc__u32(sb_record_get(r, "CoreCnt"), &cores))
		rv->partial = cores < _cores(c, rv->nodes);
	return 0;
}

int sbc__read_resv(sbc_cluster_t *c)
{
	return _read_all(c, "res", "ReservationName", (void **) &c->resv,
			 sizeof(*c->resv), &c->nresv, _resv);
}
