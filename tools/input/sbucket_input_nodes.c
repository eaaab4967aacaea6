/*
 * sbucket_input_nodes.c - the nodes file of sbucket (see
 * sbucket_input_nodes.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "decimal.h"
#include "hostlist_fmt.h"
#include "node_feature.h"
#include "priorityf.h"
#include "sbucket.h"
#include "sbucket_input.h"
#include "sbucket_input_nodes.h"
#include "shown.h"
#include "slurm_text.h"

/* A number as PRIORITYF writes one (so as bucket.conf's speeds). */
static int _number(const char *s, double *v)
{
	size_t len;

	return sb_priorityf_number(s, &len, v) || s[len] ? -1 : 0;
}

static const sb_node_t *_sort_nodes;

static int _by_name(const void *a, const void *b)
{
	return strcmp(_sort_nodes[*(const size_t *) a].name,
		      _sort_nodes[*(const size_t *) b].name);
}

long sbi_find_node(const sbi_cluster_t *cl, const char *name)
{
	size_t lo = 0, hi = cl->nindexed, mid;
	int c;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		c = strcmp(cl->nodes[cl->by_name[mid]].name, name);
		if (!c)
			return (long) cl->by_name[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

void sbi_cluster_fini(sbi_cluster_t *cl)
{
	size_t i;

	for (i = 0; i < cl->n; i++)
		sb_node_fini(&cl->nodes[i]);
	free(cl->nodes);
	free(cl->by_name);
	free(cl->default_partition);
	sb_licenses_free(cl->lic, cl->nlic);
	free(cl->held);
	memset(cl, 0, sizeof(*cl));
}

/*
 * Add nodes [first, n) to the by-name index: sort the new ones, check
 * them against each other and the old ones, merge. O(n + k log k).
 * Returns 0, -1 on ENOMEM, or 1 with *dup the index of a repeated name.
 */
static int _index_add(sbi_cluster_t *cl, size_t first, size_t *dup)
{
	size_t k = cl->n - first, i, a, b, o, *nw, *v;

	if (!(nw = malloc((k + 1) * sizeof(*nw))))
		return -1;
	for (i = 0; i < k; i++)
		nw[i] = first + i;
	_sort_nodes = cl->nodes;
	qsort(nw, k, sizeof(*nw), _by_name);
	for (i = 0; i < k; i++)
		if ((i && !strcmp(cl->nodes[nw[i - 1]].name,
				  cl->nodes[nw[i]].name)) ||
		    sbi_find_node(cl, cl->nodes[nw[i]].name) >= 0) {
			*dup = nw[i];
			free(nw);
			return 1;
		}
	if (!(v = malloc((cl->n + 1) * sizeof(*v)))) {
		free(nw);
		return -1;
	}
	for (a = b = o = 0; a < first || b < k;)
		if (b == k || (a < first &&
			       strcmp(cl->nodes[cl->by_name[a]].name,
				      cl->nodes[nw[b]].name) < 0))
			v[o++] = cl->by_name[a++];
		else
			v[o++] = nw[b++];
	free(nw);
	free(cl->by_name);
	cl->by_name = v;
	return 0;
}

/* Apply one KEY=VALUE of a NodeName line to the template node. */
static int _node_key(const char *path, size_t line, const char *tok,
		     const char *key, const char *val, sb_node_t *t,
		     int *have_cpus)
{
	uint64_t v, mb;
	double d;

	if (!strcasecmp(key, "CPUs") || !strcasecmp(key, "Procs")) {
		if (sb_decimal_in(val, 1, UINT32_MAX, &v))
			goto not_count;
		t->cpus = (uint32_t) v;
		*have_cpus = 1;
	} else if (!strcasecmp(key, "Sockets")) {
		if (sb_decimal_in(val, 1, UINT16_MAX, &v))
			goto not_count;
		t->sockets = (uint16_t) v;
	} else if (!strcasecmp(key, "CoresPerSocket")) {
		if (sb_decimal_in(val, 1, UINT16_MAX, &v))
			goto not_count;
		t->cores = (uint16_t) v;
	} else if (!strcasecmp(key, "ThreadsPerCore")) {
		if (sb_decimal_in(val, 1, UINT16_MAX, &v))
			goto not_count;
		t->threads = (uint16_t) v;
	} else if (!strcasecmp(key, "RealMemory") ||
		   !strcasecmp(key, "TmpDisk")) {
		if (sb_slurm_mem_option(val, &mb)) {
			sbi_bad(path, line, tok, "not a memory size");
			return -1;
		}
		if (!strcasecmp(key, "TmpDisk"))
			t->tmp_disk = mb;
		else
			t->real_memory = mb;
	} else if (!strcasecmp(key, "Weight")) {
		if (sb_decimal_parse(val, UINT32_MAX, &v, NULL))
			goto not_count;
		t->weight = (uint32_t) v;
	} else if (!strcasecmp(key, "Features") ||
		   !strcasecmp(key, "Feature")) {
		char *copy = strdup(val), *save = NULL, *f;

		if (!copy)
			return sbi_oom(path, line);
		for (f = strtok_r(copy, ",", &save); f;
		     f = strtok_r(NULL, ",", &save)) {
			size_t k;

			for (k = 0; f[k]; k++)
				if (!isalnum((unsigned char) f[k]) &&
				    !strchr("_-.:/+@", f[k]))
					break;
			if (f[k]) {
				free(copy);
				sbi_bad(path, line, tok, "not a valid "
				     "feature name (letters, digits, _-.:/+@)");
				return -1;
			}
			if (sb_node_add_feature(t, f)) {
				free(copy);
				return sbi_oom(path, line);
			}
		}
		free(copy);
	} else if (!strcasecmp(key, "Gres")) {
		char *copy = strdup(val), *save = NULL, *f;
		sb_gres_t g;

		if (!copy)
			return sbi_oom(path, line);
		for (f = strtok_r(copy, ",", &save); f;
		     f = strtok_r(NULL, ",", &save)) {
			if (sb_gres_parse(f, &g)) {
				free(copy);
				sbi_bad(path, line, tok, "not a gres "
				     "(name[:type]:count)");
				return -1;
			}
			if (sb_node_add_gres(t, g.name, g.count)) {
				free(g.name);
				free(copy);
				return sbi_oom(path, line);
			}
			free(g.name);
		}
		free(copy);
	} else if (!strcasecmp(key, "State")) {
		if (!strcasecmp(val, "IDLE"))
			t->state = SB_NODE_IDLE;
		else if (!strcasecmp(val, "ALLOCATED") ||
			 !strcasecmp(val, "ALLOC"))
			t->state = SB_NODE_ALLOCATED;
		else if (!strcasecmp(val, "DOWN"))
			t->state = SB_NODE_DOWN;
		else if (!strcasecmp(val, "DRAINED") ||
			 !strcasecmp(val, "DRAIN"))
			t->state = SB_NODE_DRAINED;
		else if (!strcasecmp(val, "POWERED_DOWN") ||
			 !strcasecmp(val, "POWER_DOWN"))
			t->state = SB_NODE_POWERED_DOWN;
		else {
			sbi_bad(path, line, tok, "not a node state (IDLE, "
			     "ALLOCATED, DOWN, DRAINED, POWERED_DOWN)");
			return -1;
		}
	} else if (!strcasecmp(key, "Load")) {
		if (_number(val, &d)) {
			sbi_bad(path, line, tok, "not a load (a number >= 0 such "
			     "as 0, 1.5 or 2e1)");
			return -1;
		}
		t->load = d;
	} else if (!strcasecmp(key, "Speed")) {
		/* As bucket.conf's Speed: a speed of 0 is no speed. */
		if (_number(val, &d) || !(d > 0)) {
			sbi_bad(path, line, tok, "not a speed (a number > 0 such "
			     "as 2, 0.5 or 1e3)");
			return -1;
		}
		t->speed = d;
	} else if (!strcasecmp(key, "Jobs")) {
		if (sb_decimal_parse(val, UINT32_MAX, &v, NULL))
			goto not_count;
		t->run_jobs = (uint32_t) v;
	} else if (!strcasecmp(key, "BusyUntil")) {
		/* Seconds from 0, like Busy=; only 'sbucket backfill' uses it. */
		if (!strcasecmp(val, "UNLIMITED") ||
		    !strcasecmp(val, "INFINITE")) {
			t->busy_until = SB_TIME_INFINITE;
		} else if (!sb_decimal_in(val, 0, INT64_MAX, &v)) {
			t->busy_until = (int64_t) v;
		} else {
			sbi_bad(path, line, tok, "not a time (seconds from 0, "
			     "or UNLIMITED)");
			return -1;
		}
	} else if (!strcasecmp(key, "Busy")) {
		char *copy = strdup(val), *save = NULL, *f, *dash;
		const char *end;
		uint64_t a, b;

		if (!copy)
			return sbi_oom(path, line);
		for (f = strtok_r(copy, ",", &save); f;
		     f = strtok_r(NULL, ",", &save)) {
			dash = strchr(f + 1, '-');
			if (sb_decimal_parse(f, INT64_MAX, &a, &end) ||
			    !dash || end != dash ||
			    sb_decimal_parse(dash + 1, INT64_MAX, &b, NULL) ||
			    a >= b)
				goto bad_busy;
			if (sb_node_add_busy(t, (int64_t) a, (int64_t) b)) {
				free(copy);
				return sbi_oom(path, line);
			}
		}
		free(copy);
		return 0;
bad_busy:
		free(copy);
		sbi_bad(path, line, tok, "not a busy window list "
		     "(START-END seconds, START < END, comma-separated)");
		return -1;
	} else {
		sbi_bad(path, line, tok, "unknown node key (known: "
		     "NodeName, CPUs, Sockets, CoresPerSocket, "
		     "ThreadsPerCore, RealMemory, TmpDisk, Features, Gres, "
		     "Weight, State, Load, Speed, Jobs, Busy, BusyUntil)");
		return -1;
	}
	return 0;
not_count:
	sbi_bad(path, line, tok, "not a count");
	return -1;
}

/* Copy the static and state attributes of template t into node n. */
static int _copy_node(sb_node_t *n, const sb_node_t *t)
{
	size_t i;

	n->cpus = t->cpus;
	n->sockets = t->sockets;
	n->cores = t->cores;
	n->threads = t->threads;
	n->real_memory = t->real_memory;
	n->tmp_disk = t->tmp_disk;
	n->weight = t->weight;
	n->speed = t->speed;
	n->state = t->state;
	n->load = t->load;
	n->run_jobs = t->run_jobs;
	n->busy_until = t->busy_until;
	for (i = 0; i < t->nfeatures; i++)
		if (sb_node_add_feature(n, t->features[i]))
			return -1;
	for (i = 0; i < t->ngres; i++)
		if (sb_node_add_gres(n, t->gres[i].name, t->gres[i].count))
			return -1;
	for (i = 0; i < t->nbusy; i++)
		if (sb_node_add_busy(n, t->busy[i].start, t->busy[i].end))
			return -1;
	return 0;
}

static int _node_line(const char *path, size_t line, char **tok, size_t nt,
		      sbi_cluster_t *cl)
{
	sb_node_t t;
	char **names = NULL, *val, key[64];
	size_t nn = 0, i, errpos, first = cl->n, dup;
	const char *msg, *until_tok = NULL;
	int have_cpus = 0, rc = -1;
	sb_node_t *nv;

	if (sb_node_init(&t, 0, "template"))
		return sbi_oom(path, line);
	for (i = 1; i < nt; i++) {
		if (!(val = strchr(tok[i], '='))) {
			sbi_bad(path, line, tok[i], "expected KEY=VALUE");
			goto out;
		}
		if ((size_t) (val - tok[i]) >= sizeof(key))
			val = tok[i];	/* too long for any known key */
		memcpy(key, tok[i], (size_t) (val - tok[i]));
		key[val - tok[i]] = '\0';
		if (_node_key(path, line, tok[i], key, val + 1, &t,
			      &have_cpus))
			goto out;
		if (!strcasecmp(key, "BusyUntil")) {
			if (until_tok) {
				sbi_bad(path, line, tok[i],
				     "BusyUntil= given twice");
				goto out;
			}
			until_tok = tok[i];
		}
	}
	/* Only a busy node has running jobs that end. */
	if (until_tok && t.state != SB_NODE_ALLOCATED && !t.run_jobs) {
		sbi_bad(path, line, until_tok, "BusyUntil= is for busy nodes "
		     "(State=ALLOCATED or Jobs=N)");
		goto out;
	}
	if (!have_cpus)
		t.cpus = (uint32_t) t.sockets * t.cores * t.threads;
	val = strchr(tok[0], '=') + 1;
	if (!strcasecmp(val, "DEFAULT")) {
		sbi_bad(path, line, tok[0], "NodeName=DEFAULT is not "
		     "supported: give every key on each line");
		goto out;
	}
	/* Node lists are fields of sbucket's '|'-separated output. */
	if (strchr(val, '|')) {
		sbi_bad(path, line, tok[0], "'|' in a node name");
		goto out;
	}
	if (sb_hostlist_expand(val, &names, &nn, &errpos, &msg)) {
		if (errno == ENOMEM) {
			rc = sbi_oom(path, line);
			goto out;
		}
		sbi_bad(path, line, tok[0], msg);
		goto out;
	}
	if (!(nv = realloc(cl->nodes, (cl->n + nn) * sizeof(*nv)))) {
		rc = sbi_oom(path, line);
		goto out;
	}
	cl->nodes = nv;
	for (i = 0; i < nn; i++) {
		if (sb_node_init(&cl->nodes[cl->n], (uint32_t) cl->n,
				 names[i]) ||
		    _copy_node(&cl->nodes[cl->n], &t)) {
			cl->n++;
			rc = sbi_oom(path, line);
			goto out;
		}
		cl->n++;
	}
	if ((rc = _index_add(cl, first, &dup)) < 0) {
		rc = sbi_oom(path, line);
		goto out;
	}
	if (rc) {
		sbi_err(path, line, tok[0], "node '%s' is defined twice",
		     cl->nodes[dup].name);
		rc = -1;
		goto out;
	}
	cl->nindexed = cl->n;
out:
	sb_hostlist_free(names, nn);
	sb_node_fini(&t);
	return rc;
}

static int _partition_line(const char *path, size_t line, char **tok,
			   size_t nt, sbi_cluster_t *cl)
{
	const char *pname = strchr(tok[0], '=') + 1, *msg;
	char **names = NULL, *val;
	size_t nn = 0, i, errpos;
	long idx;
	int rc = -1, have_nodes = 0;

	if (!*pname) {
		sbi_bad(path, line, tok[0], "empty partition name");
		return -1;
	}
	for (i = 1; i < nt; i++) {
		if (!(val = strchr(tok[i], '='))) {
			sbi_bad(path, line, tok[i], "expected KEY=VALUE");
			goto out;
		}
		val++;
		if (!strncasecmp(tok[i], "Nodes=", 6)) {
			size_t k;

			if (have_nodes++) {
				sbi_bad(path, line, tok[i], "Nodes= given twice");
				goto out;
			}
			if (sb_hostlist_expand(val, &names, &nn, &errpos,
					       &msg)) {
				sbi_bad(path, line, tok[i], errno == ENOMEM ?
				     "out of memory" : msg);
				goto out;
			}
			for (k = 0; k < nn; k++) {
				if ((idx = sbi_find_node(cl, names[k])) < 0) {
					sbi_err(path, line, tok[i], "unknown node "
					     "'%s' (define nodes before their "
					     "partitions)", names[k]);
					goto out;
				}
				if (sb_node_add_partition(&cl->nodes[idx],
							  pname)) {
					rc = sbi_oom(path, line);
					goto out;
				}
			}
		} else if (!strncasecmp(tok[i], "Default=", 8)) {
			if (!strcasecmp(val, "YES")) {
				if (cl->default_partition) {
					sbi_bad(path, line, tok[i], "a second "
					     "default partition");
					goto out;
				}
				if (!(cl->default_partition = strdup(pname))) {
					rc = sbi_oom(path, line);
					goto out;
				}
			} else if (strcasecmp(val, "NO")) {
				sbi_bad(path, line, tok[i], "expected YES or NO");
				goto out;
			}
		} else {
			sbi_bad(path, line, tok[i], "unknown partition key "
			     "(known: PartitionName, Nodes, Default)");
			goto out;
		}
	}
	if (!have_nodes) {
		sbi_bad(path, line, tok[0], "a partition needs Nodes=");
		goto out;
	}
	rc = 0;
out:
	sb_hostlist_free(names, nn);
	return rc;
}

long sbi_find_license(const sbi_cluster_t *cl, const char *name)
{
	size_t i;

	for (i = 0; i < cl->nlic; i++)
		if (!strcmp(cl->lic[i].name, name))
			return (long) i;
	return -1;
}

int sbi_parse_licenses(const char *path, size_t line, const char *tok,
		       const char *val, sb_license_t **v, size_t *n)
{
	size_t pos, len;
	char item[128];

	if (!sb_licenses_parse(val, v, n, &pos))
		return 0;
	if (errno == ENOMEM)
		return sbi_oom(path, line);
	if (errno == ENOTSUP) {
		sbi_bad(path, line, tok, "'|' (any one of several licences) "
		     "is not supported");
		return -1;
	}
	/* The item at fault, up to the next ',' or ';'. */
	len = strcspn(val + pos, ",;");
	if (len >= sizeof(item))
		len = sizeof(item) - 1;
	memcpy(item, val + pos, len);
	item[len] = '\0';
	if (!*val)
		sbi_bad(path, line, tok, "an empty licence list");
	else if (!len)
		sbi_bad(path, line, tok, "an empty item in the licence list");
	else if (*item == ':')
		sbi_err(path, line, tok, "an empty licence name in '%s'",
			item);
	else if (errno == ERANGE)
		sbi_err(path, line, tok, "licence count above 2147483647 in "
			"'%s'", item);
	else
		sbi_err(path, line, tok, "'%s' is not NAME or NAME:COUNT (a "
			"count of digits; no blank or ,;:|=() in a name)", item);
	return -1;
}

/* "Licenses=LIST": the cluster's licences, once, distinct names. */
static int _licenses_line(const char *path, size_t line, char **tok,
			  size_t nt, sbi_cluster_t *cl)
{
	const char *val = strchr(tok[0], '=') + 1;
	char first[32];
	size_t i, k;

	if (nt > 1) {
		sbi_bad(path, line, tok[1], "a Licenses= line holds one list "
		     "(NAME[:COUNT] joined by ',')");
		return -1;
	}
	if (cl->lic_line) {
		snprintf(first, sizeof(first), "%zu", cl->lic_line);
		sbi_err(path, line, tok[0], "Licenses= given twice (first on "
			"line %s)", first);
		return -1;
	}
	if (sbi_parse_licenses(path, line, tok[0], val, &cl->lic, &cl->nlic))
		return -1;
	cl->lic_line = line;
	/* Slurm adds repeated names up; here one is more likely a typo. */
	for (i = 1; i < cl->nlic; i++)
		for (k = 0; k < i; k++)
			if (!strcmp(cl->lic[i].name, cl->lic[k].name)) {
				sbi_err(path, line, tok[0], "licence '%s' is "
					"declared twice", cl->lic[i].name);
				return -1;
			}
	return 0;
}

/*
 * "LicensesUsed=LIST [Until=T]": running jobs hold these licences until
 * T (no Until=, or UNLIMITED: for ever), as BusyUntil= for nodes.
 */
static int _licenses_used_line(const char *path, size_t line, char **tok,
			       size_t nt, sbi_cluster_t *cl)
{
	const char *val = strchr(tok[0], '=') + 1, *until_tok = NULL;
	int64_t until = SB_TIME_INFINITE;
	sb_license_t *v = NULL;
	sbi_lic_held_t *h;
	size_t n = 0, i;
	uint64_t t;
	long idx;
	int rc = -1;

	for (i = 1; i < nt; i++) {
		if (strncasecmp(tok[i], "Until=", 6)) {
			sbi_bad(path, line, tok[i], "unknown LicensesUsed= key "
			     "(known: Until)");
			return -1;
		}
		if (until_tok) {
			sbi_bad(path, line, tok[i], "Until= given twice");
			return -1;
		}
		until_tok = tok[i];
		if (!strcasecmp(tok[i] + 6, "UNLIMITED") ||
		    !strcasecmp(tok[i] + 6, "INFINITE")) {
			until = SB_TIME_INFINITE;
		} else if (!sb_decimal_in(tok[i] + 6, 0, INT64_MAX - 1, &t)) {
			until = (int64_t) t;
		} else {
			sbi_bad(path, line, tok[i], "not a time (seconds from "
			     "0, or UNLIMITED)");
			return -1;
		}
	}
	if (sbi_parse_licenses(path, line, tok[0], val, &v, &n))
		return -1;
	if (!(h = realloc(cl->held, (cl->nheld + n) * sizeof(*h)))) {
		rc = sbi_oom(path, line);
		goto out;
	}
	cl->held = h;
	for (i = 0; i < n; i++) {
		if ((idx = sbi_find_license(cl, v[i].name)) < 0) {
			sbi_err(path, line, tok[0], "licence '%s' is not "
				"declared (declare it on a Licenses= line "
				"above)", v[i].name);
			goto out;
		}
		h[cl->nheld + i] = (sbi_lic_held_t) {
			.lic = (size_t) idx, .count = v[i].count,
			.until = until };
	}
	cl->nheld += n;
	rc = 0;
out:
	sb_licenses_free(v, n);
	return rc;
}

int sbi_read_nodes(const char *path, sbi_cluster_t *cl)
{
	FILE *f;
	char *buf = NULL, *tok[SBI_MAX_TOKENS];
	size_t cap = 0, line = 0, nt;
	ssize_t len;
	int rc = -1, too_many;

	memset(cl, 0, sizeof(*cl));
	if (!(f = fopen(path, "r"))) {
		fprintf(stderr, "sbucket: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((len = sbucket_getline(f, &buf, &cap, path, line + 1)) >= 0) {
		line++;
		nt = sbi_tokens(buf, tok, SBI_MAX_TOKENS, &too_many);
		if (too_many) {
			sbi_bad(path, line, tok[SBI_MAX_TOKENS - 1],
			     "too many tokens on one line");
			goto out;
		}
		if (!nt)
			continue;
		if (!strncasecmp(tok[0], "NodeName=", 9)) {
			if (_node_line(path, line, tok, nt, cl))
				goto out;
		} else if (!strncasecmp(tok[0], "PartitionName=", 14)) {
			if (_partition_line(path, line, tok, nt, cl))
				goto out;
		} else if (!strncasecmp(tok[0], "Licenses=", 9)) {
			if (_licenses_line(path, line, tok, nt, cl))
				goto out;
		} else if (!strncasecmp(tok[0], "LicensesUsed=", 13)) {
			if (_licenses_used_line(path, line, tok, nt, cl))
				goto out;
		} else {
			sbi_bad(path, line, tok[0], "a line starts with "
			     "NodeName=, PartitionName=, Licenses= or "
			     "LicensesUsed=");
			goto out;
		}
	}
	if (len == -2)
		goto out;
	if (ferror(f)) {
		fprintf(stderr, "sbucket: %s: %s\n", path, strerror(errno));
		goto out;
	}
	if (!cl->n) {
		fprintf(stderr, "sbucket: %s: no nodes defined\n", path);
		goto out;
	}
	rc = 0;
out:
	free(buf);
	fclose(f);
	if (rc)
		sbi_cluster_fini(cl);
	return rc;
}

static int _hostlist_order(const void *pa, const void *pb)
{
	return sb_hostlist_cmp(*(char *const *) pa, *(char *const *) pb);
}

int sbi_print_placement(const sbi_cluster_t *cl, const sb_placement_t *pl)
{
	char **names, *hl;
	size_t c, k;
	int64_t i;

	if (!(names = malloc((cl->n + 1) * sizeof(*names))))
		return -1;
	for (c = 0; c < pl->nchunks; c++) {
		k = 0;
		for (i = sb_bitmap_first_set(pl->nodes[c]); i >= 0;
		     i = sb_bitmap_next_set(pl->nodes[c], (size_t) i + 1))
			names[k++] = cl->nodes[i].name;
		qsort(names, k, sizeof(*names), _hostlist_order);
		if (!(hl = sb_hostlist_fmt(names, k))) {
			free(names);
			return -1;
		}
		printf("%s%s", c ? "+" : "", hl);
		free(hl);
	}
	free(names);
	return 0;
}
