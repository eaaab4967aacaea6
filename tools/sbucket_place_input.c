/*
 * sbucket_place_input.c - the nodes and jobs files of 'sbucket place'.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Nodes file: slurm.conf-style lines, one NodeName= or PartitionName=
 * line each, KEY=VALUE tokens separated by blanks, '#' starts a comment.
 * Jobs file: one job a line, "JobId=ID" and sbatch options.
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

#include "hostlist_fmt.h"
#include "node_feature.h"
#include "priorityf.h"
#include "sbucket.h"
#include "sbucket_place_input.h"
#include "shown.h"

#define MAX_TOKENS 256

/* One error line; the token and @arg as shown.h shows input. */
static void _err(const char *path, size_t line, const char *tok,
		 const char *fmt, const char *arg)
{
	char t[SB_SHOWN_BUF], a[SB_SHOWN_BUF];

	fprintf(stderr, "sbucket: %s:%zu: token '%s': ", path, line,
		sb_shown(t, sizeof(t), tok));
	fprintf(stderr, fmt, sb_shown(a, sizeof(a), arg));
	fputc('\n', stderr);
}

/* The common case: a fixed message. */
static void _bad(const char *path, size_t line, const char *tok,
		 const char *msg)
{
	char t[SB_SHOWN_BUF];

	fprintf(stderr, "sbucket: %s:%zu: token '%s': %s\n", path, line,
		sb_shown(t, sizeof(t), tok), msg);
}

/* Cut a line into blank-separated tokens, dropping a '#' comment. */
static size_t _tokens(char *line, char **tok, size_t max, int *too_many)
{
	size_t n = 0;
	char *p = line, *hash = strchr(line, '#');

	if (hash)
		*hash = '\0';
	*too_many = 0;
	for (;;) {
		while (*p && isspace((unsigned char) *p))
			*p++ = '\0';
		if (!*p)
			return n;
		if (n == max) {
			*too_many = 1;
			return n;
		}
		tok[n++] = p;
		while (*p && !isspace((unsigned char) *p))
			p++;
	}
}

/* A decimal unsigned integer <= max, nothing else. */
static int _uint(const char *s, unsigned long long max,
		 unsigned long long *v)
{
	char *end;

	if (!isdigit((unsigned char) *s))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return *end || errno || *v > max ? -1 : 0;
}

/* A number as PRIORITYF writes one (so as bucket.conf's speeds). */
static int _number(const char *s, double *v)
{
	size_t len;

	return sb_priorityf_number(s, &len, v) || s[len] ? -1 : 0;
}

/* Memory sizes: MB by default, K/M/G/T suffixes (powers of 1024). */
static int _mem(const char *s, uint64_t *mb)
{
	char *end;
	unsigned long long v;
	int shift = 0;

	if (!isdigit((unsigned char) *s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (toupper((unsigned char) *end)) {
	case '\0':
		*mb = v;
		return 0;
	case 'K':
		*mb = (v + 1023) / 1024;
		return end[1] ? -1 : 0;
	case 'M':
		break;
	case 'G':
		shift = 10;
		break;
	case 'T':
		shift = 20;
		break;
	default:
		return -1;
	}
	if (end[1] || v > (UINT64_MAX >> shift))
		return -1;
	*mb = (uint64_t) v << shift;
	return 0;
}

static const sb_node_t *_sort_nodes;

static int _by_name(const void *a, const void *b)
{
	return strcmp(_sort_nodes[*(const size_t *) a].name,
		      _sort_nodes[*(const size_t *) b].name);
}

long sbp_find_node(const sbp_cluster_t *cl, const char *name)
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

void sbp_cluster_fini(sbp_cluster_t *cl)
{
	size_t i;

	for (i = 0; i < cl->n; i++)
		sb_node_fini(&cl->nodes[i]);
	free(cl->nodes);
	free(cl->by_name);
	free(cl->default_partition);
	memset(cl, 0, sizeof(*cl));
}

/*
 * Add nodes [first, n) to the by-name index: sort the new ones, check
 * them against each other and the old ones, merge. O(n + k log k).
 * Returns 0, -1 on ENOMEM, or 1 with *dup the index of a repeated name.
 */
static int _index_add(sbp_cluster_t *cl, size_t first, size_t *dup)
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
		    sbp_find_node(cl, cl->nodes[nw[i]].name) >= 0) {
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

static int _oom(const char *path, size_t line)
{
	fprintf(stderr, "sbucket: %s:%zu: out of memory\n", path, line);
	return -1;
}

/* Apply one KEY=VALUE of a NodeName line to the template node. */
static int _node_key(const char *path, size_t line, const char *tok,
		     const char *key, const char *val, sb_node_t *t,
		     int *have_cpus)
{
	unsigned long long v;
	double d;
	uint64_t mb;

	if (!strcasecmp(key, "CPUs") || !strcasecmp(key, "Procs")) {
		if (_uint(val, UINT32_MAX, &v) || !v)
			goto not_count;
		t->cpus = (uint32_t) v;
		*have_cpus = 1;
	} else if (!strcasecmp(key, "Sockets")) {
		if (_uint(val, UINT16_MAX, &v) || !v)
			goto not_count;
		t->sockets = (uint16_t) v;
	} else if (!strcasecmp(key, "CoresPerSocket")) {
		if (_uint(val, UINT16_MAX, &v) || !v)
			goto not_count;
		t->cores = (uint16_t) v;
	} else if (!strcasecmp(key, "ThreadsPerCore")) {
		if (_uint(val, UINT16_MAX, &v) || !v)
			goto not_count;
		t->threads = (uint16_t) v;
	} else if (!strcasecmp(key, "RealMemory") ||
		   !strcasecmp(key, "TmpDisk")) {
		if (_mem(val, &mb)) {
			_bad(path, line, tok, "not a memory size");
			return -1;
		}
		if (!strcasecmp(key, "TmpDisk"))
			t->tmp_disk = mb;
		else
			t->real_memory = mb;
	} else if (!strcasecmp(key, "Weight")) {
		if (_uint(val, UINT32_MAX, &v))
			goto not_count;
		t->weight = (uint32_t) v;
	} else if (!strcasecmp(key, "Features") ||
		   !strcasecmp(key, "Feature")) {
		char *copy = strdup(val), *save = NULL, *f;

		if (!copy)
			return _oom(path, line);
		for (f = strtok_r(copy, ",", &save); f;
		     f = strtok_r(NULL, ",", &save)) {
			size_t k;

			for (k = 0; f[k]; k++)
				if (!isalnum((unsigned char) f[k]) &&
				    !strchr("_-.:/+@", f[k]))
					break;
			if (f[k]) {
				free(copy);
				_bad(path, line, tok, "not a valid "
				     "feature name (letters, digits, _-.:/+@)");
				return -1;
			}
			if (sb_node_add_feature(t, f)) {
				free(copy);
				return _oom(path, line);
			}
		}
		free(copy);
	} else if (!strcasecmp(key, "Gres")) {
		char *copy = strdup(val), *save = NULL, *f;
		sb_gres_t g;

		if (!copy)
			return _oom(path, line);
		for (f = strtok_r(copy, ",", &save); f;
		     f = strtok_r(NULL, ",", &save)) {
			if (sb_gres_parse(f, &g)) {
				free(copy);
				_bad(path, line, tok, "not a gres "
				     "(name[:type]:count)");
				return -1;
			}
			if (sb_node_add_gres(t, g.name, g.count)) {
				free(g.name);
				free(copy);
				return _oom(path, line);
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
			_bad(path, line, tok, "not a node state (IDLE, "
			     "ALLOCATED, DOWN, DRAINED, POWERED_DOWN)");
			return -1;
		}
	} else if (!strcasecmp(key, "Load")) {
		if (_number(val, &d)) {
			_bad(path, line, tok, "not a load (a number >= 0 such "
			     "as 0, 1.5 or 2e1)");
			return -1;
		}
		t->load = d;
	} else if (!strcasecmp(key, "Speed")) {
		/* As bucket.conf's Speed: a speed of 0 is no speed. */
		if (_number(val, &d) || !(d > 0)) {
			_bad(path, line, tok, "not a speed (a number > 0 such "
			     "as 2, 0.5 or 1e3)");
			return -1;
		}
		t->speed = d;
	} else if (!strcasecmp(key, "Jobs")) {
		if (_uint(val, UINT32_MAX, &v))
			goto not_count;
		t->run_jobs = (uint32_t) v;
	} else if (!strcasecmp(key, "BusyUntil")) {
		/* Seconds from 0, like Busy=; only 'sbucket backfill' uses it. */
		if (!strcasecmp(val, "UNLIMITED") ||
		    !strcasecmp(val, "INFINITE")) {
			t->busy_until = SB_TIME_INFINITE;
		} else if (!_uint(val, INT64_MAX, &v)) {
			t->busy_until = (int64_t) v;
		} else {
			_bad(path, line, tok, "not a time (seconds from 0, "
			     "or UNLIMITED)");
			return -1;
		}
	} else if (!strcasecmp(key, "Busy")) {
		char *copy = strdup(val), *save = NULL, *f, *dash, *end;
		long long a, b;

		if (!copy)
			return _oom(path, line);
		for (f = strtok_r(copy, ",", &save); f;
		     f = strtok_r(NULL, ",", &save)) {
			dash = strchr(f + 1, '-');
			errno = 0;
			a = strtoll(f, &end, 10);
			if (!dash || end != dash || *f < '0' || *f > '9')
				goto bad_busy;
			b = strtoll(dash + 1, &end, 10);
			if (*end || errno || dash[1] < '0' || dash[1] > '9' ||
			    a >= b)
				goto bad_busy;
			if (sb_node_add_busy(t, a, b)) {
				free(copy);
				return _oom(path, line);
			}
		}
		free(copy);
		return 0;
bad_busy:
		free(copy);
		_bad(path, line, tok, "not a busy window list "
		     "(START-END seconds, START < END, comma-separated)");
		return -1;
	} else {
		_bad(path, line, tok, "unknown node key (known: "
		     "NodeName, CPUs, Sockets, CoresPerSocket, "
		     "ThreadsPerCore, RealMemory, TmpDisk, Features, Gres, "
		     "Weight, State, Load, Speed, Jobs, Busy, BusyUntil)");
		return -1;
	}
	return 0;
not_count:
	_bad(path, line, tok, "not a count");
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
		      sbp_cluster_t *cl)
{
	sb_node_t t;
	char **names = NULL, *val, key[64];
	size_t nn = 0, i, errpos, first = cl->n, dup;
	const char *msg, *until_tok = NULL;
	int have_cpus = 0, rc = -1;
	sb_node_t *nv;

	if (sb_node_init(&t, 0, "template"))
		return _oom(path, line);
	for (i = 1; i < nt; i++) {
		if (!(val = strchr(tok[i], '='))) {
			_bad(path, line, tok[i], "expected KEY=VALUE");
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
				_bad(path, line, tok[i],
				     "BusyUntil= given twice");
				goto out;
			}
			until_tok = tok[i];
		}
	}
	/* Only a busy node has running jobs that end. */
	if (until_tok && t.state != SB_NODE_ALLOCATED && !t.run_jobs) {
		_bad(path, line, until_tok, "BusyUntil= is for busy nodes "
		     "(State=ALLOCATED or Jobs=N)");
		goto out;
	}
	if (!have_cpus)
		t.cpus = (uint32_t) t.sockets * t.cores * t.threads;
	val = strchr(tok[0], '=') + 1;
	if (!strcasecmp(val, "DEFAULT")) {
		_bad(path, line, tok[0], "NodeName=DEFAULT is not "
		     "supported: give every key on each line");
		goto out;
	}
	if (sb_hostlist_expand(val, &names, &nn, &errpos, &msg)) {
		if (errno == ENOMEM) {
			rc = _oom(path, line);
			goto out;
		}
		_bad(path, line, tok[0], msg);
		goto out;
	}
	if (!(nv = realloc(cl->nodes, (cl->n + nn) * sizeof(*nv)))) {
		rc = _oom(path, line);
		goto out;
	}
	cl->nodes = nv;
	for (i = 0; i < nn; i++) {
		if (sb_node_init(&cl->nodes[cl->n], (uint32_t) cl->n,
				 names[i]) ||
		    _copy_node(&cl->nodes[cl->n], &t)) {
			cl->n++;
			rc = _oom(path, line);
			goto out;
		}
		cl->n++;
	}
	if ((rc = _index_add(cl, first, &dup)) < 0) {
		rc = _oom(path, line);
		goto out;
	}
	if (rc) {
		_err(path, line, tok[0], "node '%s' is defined twice",
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
			   size_t nt, sbp_cluster_t *cl)
{
	const char *pname = strchr(tok[0], '=') + 1, *msg;
	char **names = NULL, *val;
	size_t nn = 0, i, errpos;
	long idx;
	int rc = -1, have_nodes = 0;

	if (!*pname) {
		_bad(path, line, tok[0], "empty partition name");
		return -1;
	}
	for (i = 1; i < nt; i++) {
		if (!(val = strchr(tok[i], '='))) {
			_bad(path, line, tok[i], "expected KEY=VALUE");
			goto out;
		}
		val++;
		if (!strncasecmp(tok[i], "Nodes=", 6)) {
			size_t k;

			if (have_nodes++) {
				_bad(path, line, tok[i], "Nodes= given twice");
				goto out;
			}
			if (sb_hostlist_expand(val, &names, &nn, &errpos,
					       &msg)) {
				_bad(path, line, tok[i], errno == ENOMEM ?
				     "out of memory" : msg);
				goto out;
			}
			for (k = 0; k < nn; k++) {
				if ((idx = sbp_find_node(cl, names[k])) < 0) {
					_err(path, line, tok[i], "unknown node "
					     "'%s' (define nodes before their "
					     "partitions)", names[k]);
					goto out;
				}
				if (sb_node_add_partition(&cl->nodes[idx],
							  pname)) {
					rc = _oom(path, line);
					goto out;
				}
			}
		} else if (!strncasecmp(tok[i], "Default=", 8)) {
			if (!strcasecmp(val, "YES")) {
				if (cl->default_partition) {
					_bad(path, line, tok[i], "a second "
					     "default partition");
					goto out;
				}
				if (!(cl->default_partition = strdup(pname))) {
					rc = _oom(path, line);
					goto out;
				}
			} else if (strcasecmp(val, "NO")) {
				_bad(path, line, tok[i], "expected YES or NO");
				goto out;
			}
		} else {
			_bad(path, line, tok[i], "unknown partition key "
			     "(known: PartitionName, Nodes, Default)");
			goto out;
		}
	}
	if (!have_nodes) {
		_bad(path, line, tok[0], "a partition needs Nodes=");
		goto out;
	}
	rc = 0;
out:
	sb_hostlist_free(names, nn);
	return rc;
}

int sbp_read_nodes(const char *path, sbp_cluster_t *cl)
{
	FILE *f;
	char *buf = NULL, *tok[MAX_TOKENS];
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
		nt = _tokens(buf, tok, MAX_TOKENS, &too_many);
		if (too_many) {
			_bad(path, line, tok[MAX_TOKENS - 1],
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
		} else {
			_bad(path, line, tok[0], "a line starts with "
			     "NodeName= or PartitionName=");
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
		sbp_cluster_fini(cl);
	return rc;
}

int sbp_parse_time(const char *s, int64_t *secs)
{
	unsigned long long v[4] = { 0 }, t;
	int nf = 0, days = 0;
	const char *p = s;
	char *end;

	if (!strcasecmp(s, "UNLIMITED") || !strcasecmp(s, "INFINITE")) {
		*secs = SB_TIME_INFINITE;
		return 0;
	}
	if (strchr(s, '-')) {
		if (!isdigit((unsigned char) *p))
			return -1;
		errno = 0;
		v[0] = strtoull(p, &end, 10);
		/* Bounded as the other fields: the sum below cannot wrap. */
		if (*end != '-' || errno || v[0] > 1000000000ULL)
			return -1;
		days = 1;
		nf = 1;
		p = end + 1;
	}
	for (;;) {
		if (!isdigit((unsigned char) *p) || nf == 4)
			return -1;
		errno = 0;
		v[nf++] = strtoull(p, &end, 10);
		if (errno || v[nf - 1] > 1000000000ULL)
			return -1;
		if (!*end)
			break;
		if (*end != ':')
			return -1;
		p = end + 1;
	}
	if (days)		/* D-H, D-H:M, D-H:M:S */
		t = v[0] * 86400 + v[1] * 3600 + v[2] * 60 + v[3];
	else if (nf == 1)	/* M */
		t = v[0] * 60;
	else if (nf == 2)	/* M:S */
		t = v[0] * 60 + v[1];
	else if (nf == 3)	/* H:M:S */
		t = v[0] * 3600 + v[1] * 60 + v[2];
	else
		return -1;
	/* As sbatch: a limit of zero is no limit. */
	*secs = t ? (int64_t) t : SB_TIME_INFINITE;
	return 0;
}

void sbp_job_fini(sbp_job_t *job)
{
	free(job->jobid);
	sb_request_fini(&job->req);
	memset(job, 0, sizeof(*job));
}

/* A node set from a hostlist, for -w / -x. */
static int _nodeset(const char *path, size_t line, const char *tok,
		    const char *val, const sbp_cluster_t *cl,
		    sb_bitmap_t **out)
{
	char **names = NULL;
	size_t nn = 0, i, errpos;
	const char *msg;
	long idx;

	if (*out) {
		_bad(path, line, tok, "option given twice");
		return -1;
	}
	if (sb_hostlist_expand(val, &names, &nn, &errpos, &msg)) {
		_bad(path, line, tok, errno == ENOMEM ? "out of memory"
		     : msg);
		return -1;
	}
	if (!(*out = sb_bitmap_alloc(cl->n))) {
		sb_hostlist_free(names, nn);
		return _oom(path, line);
	}
	for (i = 0; i < nn; i++) {
		if ((idx = sbp_find_node(cl, names[i])) < 0) {
			_err(path, line, tok, "unknown node '%s'", names[i]);
			sb_hostlist_free(names, nn);
			return -1;
		}
		sb_bitmap_set(*out, (size_t) idx);
	}
	sb_hostlist_free(names, nn);
	return 0;
}

/*
 * The value of an option at tok[*i]: "--name=value", "-Xvalue", or the
 * next token for "--name value" / "-X value". NULL if missing.
 */
static char *_optval(char **tok, size_t nt, size_t *i, const char *lng,
		     const char *shrt, int *matched)
{
	size_t l = strlen(lng);
	char *t = tok[*i];

	*matched = 0;
	if (!strncmp(t, lng, l) && (t[l] == '=' || !t[l])) {
		*matched = 1;
		if (t[l] == '=')
			return t + l + 1;
	} else if (shrt && !strncmp(t, shrt, 2)) {
		*matched = 1;
		if (t[2])
			return t + 2;
	} else {
		return NULL;
	}
	if (*i + 1 < nt && tok[*i + 1][0] != '-') {
		(*i)++;
		return tok[*i];
	}
	return NULL;
}

/*
 * --bucket-prefer's list @val of token @tok into @r: feature names, each
 * one some node of @cl has (as the SPANK plugin checks at submission).
 */
static int _prefer(const char *path, size_t line, const char *tok,
		   const char *val, const sbp_cluster_t *cl, sb_request_t *r)
{
	char msg[96], shown[SB_SHOWN_BUF];
	size_t pos, i, k;
	bool found;

	if (sb_request_add_prefer_list(r, val, &pos) < 0) {
		if (errno == E2BIG)
			snprintf(msg, sizeof(msg), "more than %d features",
				 SB_MAX_PREFER);
		else
			snprintf(msg, sizeof(msg), "not a feature list "
				 "(names joined by ',') at offset %zu", pos);
		_bad(path, line, tok, msg);
		return -1;
	}
	for (k = 0; k < r->nprefer; k++) {
		found = false;
		for (i = 0; !found && i < cl->n; i++)
			found = sb_request_pref(&(sb_request_t) {
				.prefer = &r->prefer[k], .nprefer = 1 },
				&cl->nodes[i]) > 0;
		if (!found) {
			snprintf(msg, sizeof(msg), "no node has feature '%s'",
				 sb_shown(shown, sizeof(shown), r->prefer[k]));
			_bad(path, line, tok, msg);
			return -1;
		}
	}
	return 0;
}

int sbp_parse_job(const char *path, size_t line, char *text,
		  const sbp_cluster_t *cl, sbp_job_t *job)
{
	char *tok[MAX_TOKENS], *val, *cons_tok = NULL, *cons = NULL;
	const char *msg;
	size_t nt, i, errpos, k;
	int too_many, m;
	unsigned long long nodes = 0, mincpus = 0, cpt = 1, tpn = 1, v;
	int have_nodes = 0;
	uint64_t mem = 0, tmp = 0;
	sb_gres_t *gres = NULL;
	size_t ngres = 0;
	sb_constraint_t *c = NULL;
	sb_request_t *r = &job->req;
	int rc = -1;

	memset(job, 0, sizeof(*job));
	sb_request_init(r);
	nt = _tokens(text, tok, MAX_TOKENS, &too_many);
	if (too_many) {
		_bad(path, line, tok[MAX_TOKENS - 1],
		     "too many tokens on one line");
		return -1;
	}
	if (!nt)
		return 0;
	for (i = 0; i < nt; i++) {
		char *t = tok[i];

		if (!strncasecmp(t, "JobId=", 6)) {
			if (job->jobid || !t[6]) {
				_bad(path, line, t, job->jobid ?
				     "JobId given twice" : "empty JobId");
				goto out;
			}
			if (strchr(t + 6, '|')) {
				_bad(path, line, t, "'|' in a JobId");
				goto out;
			}
			if (!(job->jobid = strdup(t + 6)))
				goto oom;
			continue;
		}
		if (!strcmp(t, "--exclusive")) {
			r->exclusive = true;
			continue;
		}
		if (!strcmp(t, "--contiguous")) {
			r->contiguous = true;
			continue;
		}
		if ((val = _optval(tok, nt, &i, "--nodes", "-N", &m)), m) {
			if (!val || _uint(val, UINT32_MAX, &nodes) || !nodes) {
				_bad(path, line, tok[i], val && strchr(val, '-')
				     ? "node count ranges (MIN-MAX) are not "
				       "supported" : "not a node count");
				goto out;
			}
			have_nodes = 1;
		} else if ((val = _optval(tok, nt, &i, "--constraint", "-C",
					  &m)), m) {
			if (!val) {
				_bad(path, line, tok[i], "missing constraint");
				goto out;
			}
			cons_tok = tok[i];
			cons = val;
		} else if ((val = _optval(tok, nt, &i, "--mem", NULL, &m)),
			   m) {
			if (!val || _mem(val, &mem)) {
				_bad(path, line, tok[i], "not a memory size");
				goto out;
			}
		} else if ((val = _optval(tok, nt, &i, "--tmp", NULL, &m)),
			   m) {
			if (!val || _mem(val, &tmp)) {
				_bad(path, line, tok[i], "not a memory size");
				goto out;
			}
		} else if ((val = _optval(tok, nt, &i, "--mincpus", NULL,
					  &m)), m) {
			if (!val || _uint(val, UINT32_MAX, &mincpus)) {
				_bad(path, line, tok[i], "not a count");
				goto out;
			}
		} else if ((val = _optval(tok, nt, &i, "--cpus-per-task",
					  "-c", &m)), m) {
			if (!val || _uint(val, UINT32_MAX, &cpt) || !cpt) {
				_bad(path, line, tok[i], "not a count");
				goto out;
			}
		} else if ((val = _optval(tok, nt, &i, "--ntasks-per-node",
					  NULL, &m)), m) {
			if (!val || _uint(val, UINT32_MAX, &tpn) || !tpn) {
				_bad(path, line, tok[i], "not a count");
				goto out;
			}
		} else if ((val = _optval(tok, nt, &i, "--gres", NULL, &m)),
			   m) {
			char *save = NULL, *g, *copy;
			sb_gres_t *ng;

			if (!val || ngres) {
				_bad(path, line, tok[i], val ? "option given "
				     "twice" : "missing gres");
				goto out;
			}
			if (!(copy = strdup(val)))
				goto oom;
			for (g = strtok_r(copy, ",", &save); g;
			     g = strtok_r(NULL, ",", &save)) {
				if (!(ng = realloc(gres, (ngres + 1) *
						   sizeof(*ng)))) {
					free(copy);
					goto oom;
				}
				gres = ng;
				if (sb_gres_parse(g, &gres[ngres])) {
					free(copy);
					_bad(path, line, tok[i], "not a gres "
					     "(name[:type]:count)");
					goto out;
				}
				ngres++;
			}
			free(copy);
		} else if ((val = _optval(tok, nt, &i, "--time", "-t", &m)),
			   m) {
			if (!val || sbp_parse_time(val, &r->time_limit)) {
				_bad(path, line, tok[i], "not a time limit "
				     "(M, M:S, H:M:S, D-H, D-H:M, D-H:M:S, "
				     "UNLIMITED)");
				goto out;
			}
		} else if ((val = _optval(tok, nt, &i, "--nodelist", "-w",
					  &m)), m) {
			if (!val || _nodeset(path, line, tok[i], val, cl,
					     &r->required))
				goto bad_list;
		} else if ((val = _optval(tok, nt, &i, "--exclude", "-x",
					  &m)), m) {
			if (!val || _nodeset(path, line, tok[i], val, cl,
					     &r->excluded))
				goto bad_list;
		} else if ((val = _optval(tok, nt, &i, "--partition", "-p",
					  &m)), m) {
			if (!val || r->partition) {
				_bad(path, line, tok[i], val ? "option given "
				     "twice" : "missing partition");
				goto out;
			}
			if (strchr(val, ',')) {
				_bad(path, line, tok[i], "several partitions "
				     "are not supported");
				goto out;
			}
			if (!(r->partition = strdup(val)))
				goto oom;
		} else if ((val = _optval(tok, nt, &i, "--bucket-prefer",
					  NULL, &m)), m) {
			if (!val || r->nprefer) {
				_bad(path, line, tok[i], val ? "option given "
				     "twice" : "missing feature list");
				goto out;
			}
			if (_prefer(path, line, tok[i], val, cl, r) < 0)
				goto out;
		} else {
			_bad(path, line, tok[i], "unknown option (known: "
			     "JobId=, -N, --exclusive, -C, --mem, --tmp, "
			     "--mincpus, -c, --ntasks-per-node, --gres, -t, "
			     "-w, -x, -p, --contiguous, --bucket-prefer)");
			goto out;
		}
		continue;
bad_list:
		if (!val)
			_bad(path, line, tok[i], "missing node list");
		goto out;
	}
	if (!job->jobid) {
		_bad(path, line, tok[0], "the line has no JobId=");
		goto out;
	}
	if (r->required && r->excluded &&
	    sb_bitmap_intersects(r->required, r->excluded)) {
		_bad(path, line, tok[0], "a node is both required (-w) "
		     "and excluded (-x)");
		goto out;
	}
	if (!r->partition && cl->default_partition &&
	    !(r->partition = strdup(cl->default_partition)))
		goto oom;
	if (r->required) {
		size_t nreq = sb_bitmap_count(r->required);

		if (!have_nodes)
			nodes = nreq;
		else if (nodes < nreq) {
			_bad(path, line, tok[0], "-N is smaller than "
			     "the -w node list");
			goto out;
		}
	}
	if (cons && !(c = sb_constraint_parse(cons, &errpos, &msg))) {
		if (errno == ENOMEM)
			goto oom;
		char t[SB_SHOWN_BUF];

		fprintf(stderr, "sbucket: %s:%zu: token '%s': %s at column "
			"%zu of the constraint\n", path, line,
			sb_shown(t, sizeof(t), cons_tok), msg, errpos + 1);
		goto out;
	}
	if (!have_nodes && !r->required)
		nodes = 1;
	if (c && c->kind == SB_CONS_COUNTS) {
		unsigned long long sum = 0;

		for (k = 0; k < c->n; k++)
			sum += c->counts[k];
		if (!have_nodes && !r->required)
			nodes = sum;
		if (sum > nodes) {
			_bad(path, line, cons_tok, "the feature counts "
			     "add up to more than the node count");
			goto out;
		}
		for (k = 0; k < c->n; k++) {
			sb_chunk_t *ch = sb_request_add_chunk(r, c->counts[k]);

			if (!ch)
				goto too_big;
			ch->features = c->exprs[k];
			c->exprs[k] = NULL;
		}
		if (sum < nodes &&
		    !sb_request_add_chunk(r, (uint32_t) (nodes - sum)))
			goto too_big;
	} else {
		sb_chunk_t *ch = sb_request_add_chunk(r, (uint32_t) nodes);

		if (!ch)
			goto oom;
		if (c && c->kind == SB_CONS_PLAIN) {
			ch->features = c->exprs[0];
			c->exprs[0] = NULL;
		} else if (c) {
			r->match = c->exprs;
			r->nmatch = c->n;
			c->exprs = NULL;
			c->n = 0;
		}
	}
	v = cpt * tpn;
	if (v > mincpus)
		mincpus = v;
	if (mincpus > UINT32_MAX) {
		_bad(path, line, tok[0], "CPUs per node out of range");
		goto out;
	}
	for (k = 0; k < r->nchunks; k++) {
		sb_chunk_t *ch = &r->chunks[k];
		size_t g;

		ch->min_cpus = (uint32_t) mincpus;
		ch->min_memory = mem;
		ch->min_tmp = tmp;
		if (ngres && !(ch->gres = calloc(ngres, sizeof(*ch->gres))))
			goto oom;
		for (g = 0; g < ngres; g++) {
			ch->gres[g].count = gres[g].count;
			if (!(ch->gres[g].name = strdup(gres[g].name)))
				goto oom;
			ch->ngres++;
		}
	}
	rc = 1;
	goto out;
too_big:
	_bad(path, line, cons_tok, "too many chunks");
	goto out;
oom:
	rc = _oom(path, line);
out:
	for (k = 0; k < ngres; k++)
		free(gres[k].name);
	free(gres);
	sb_constraint_free(c);
	if (rc != 1)
		sbp_job_fini(job);
	return rc;
}

void sbp_jobs_fini(sbp_jobs_t *jobs)
{
	size_t i;

	for (i = 0; i < jobs->n; i++)
		sbp_job_fini(&jobs->v[i]);
	free(jobs->v);
	free(jobs->line);
	memset(jobs, 0, sizeof(*jobs));
}

int sbp_read_jobs(const char *path, const sbp_cluster_t *cl,
		  sbp_refuse_f *refuse, const void *ctx, sbp_jobs_t *jobs)
{
	char *buf = NULL, why[256], id[SB_SHOWN_BUF];
	size_t cap = 0, line = 0, room = 0;
	ssize_t len;
	sbp_job_t job, *v;
	size_t *l;
	FILE *f;
	int got, rc = -1;

	memset(jobs, 0, sizeof(*jobs));
	if (!(f = fopen(path, "r"))) {
		fprintf(stderr, "sbucket: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((len = sbucket_getline(f, &buf, &cap, path, line + 1)) >= 0) {
		line++;
		if ((got = sbp_parse_job(path, line, buf, cl, &job)) < 0)
			goto out;
		if (!got)
			continue;
		if (refuse && refuse(&job, ctx, why, sizeof(why))) {
			fprintf(stderr, "sbucket: %s:%zu: job %s%s\n", path,
				line, sb_shown(id, sizeof(id), job.jobid),
				why);
			sbp_job_fini(&job);
			goto out;
		}
		if (jobs->n == room) {
			room = room ? 2 * room : 64;
			if (!(v = realloc(jobs->v, room * sizeof(*v))))
				goto oom;
			jobs->v = v;
			if (!(l = realloc(jobs->line, room * sizeof(*l))))
				goto oom;
			jobs->line = l;
		}
		jobs->line[jobs->n] = line;
		jobs->v[jobs->n++] = job;
	}
	if (len == -2)
		goto out;
	if (ferror(f)) {
		fprintf(stderr, "sbucket: %s: %s\n", path, strerror(errno));
		goto out;
	}
	rc = 0;
	goto out;
oom:
	sbp_job_fini(&job);
	_oom(path, line);
out:
	free(buf);
	fclose(f);
	if (rc)
		sbp_jobs_fini(jobs);
	return rc;
}

static int _hostlist_order(const void *pa, const void *pb)
{
	return sb_hostlist_cmp(*(char *const *) pa, *(char *const *) pb);
}

int sbp_print_placement(const sbp_cluster_t *cl, const sb_placement_t *pl)
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
