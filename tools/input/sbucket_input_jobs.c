/*
 * sbucket_input_jobs.c - the jobs file of sbucket (see
 * sbucket_input_jobs.h).
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
#include "sbucket_input_jobs.h"
#include "shown.h"
#include "slurm_text.h"

int sbi_parse_time(const char *s, int64_t *secs)
{
	uint64_t v[4] = { 0 }, t;
	int nf = 0, days = 0;
	const char *p = s, *end;

	if (!strcasecmp(s, "UNLIMITED") || !strcasecmp(s, "INFINITE")) {
		*secs = SB_TIME_INFINITE;
		return 0;
	}
	if (strchr(s, '-')) {
		/* Bounded as the other fields: the sum below cannot wrap. */
		if (sb_decimal_parse(p, 1000000000, &v[0], &end) ||
		    *end != '-')
			return -1;
		days = 1;
		nf = 1;
		p = end + 1;
	}
	for (;;) {
		if (nf == 4 || sb_decimal_parse(p, 1000000000, &v[nf++], &end))
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

void sbi_job_fini(sbi_job_t *job)
{
	free(job->jobid);
	sb_request_fini(&job->req);
	sb_licenses_free(job->lic, job->nlic);
	memset(job, 0, sizeof(*job));
}

/* A node set from a hostlist, for -w / -x. */
static int _nodeset(const char *path, size_t line, const char *tok,
		    const char *val, const sbi_cluster_t *cl,
		    sb_bitmap_t **out)
{
	char **names = NULL;
	size_t nn = 0, i, errpos;
	const char *msg;
	long idx;

	if (*out) {
		sbi_bad(path, line, tok, "option given twice");
		return -1;
	}
	if (sb_hostlist_expand(val, &names, &nn, &errpos, &msg)) {
		sbi_bad(path, line, tok, errno == ENOMEM ? "out of memory"
		     : msg);
		return -1;
	}
	if (!(*out = sb_bitmap_alloc(cl->n))) {
		sb_hostlist_free(names, nn);
		return sbi_oom(path, line);
	}
	for (i = 0; i < nn; i++) {
		if ((idx = sbi_find_node(cl, names[i])) < 0) {
			sbi_err(path, line, tok, "unknown node '%s'", names[i]);
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
		   const char *val, const sbi_cluster_t *cl, sb_request_t *r)
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
		sbi_bad(path, line, tok, msg);
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
			sbi_bad(path, line, tok, msg);
			return -1;
		}
	}
	return 0;
}

int sbi_parse_job(const char *path, size_t line, char *text,
		  const sbi_cluster_t *cl, sbi_job_t *job)
{
	char *tok[SBI_MAX_TOKENS], *val, *cons_tok = NULL, *cons = NULL;
	const char *msg;
	size_t nt, i, errpos, k;
	int too_many, m;
	uint64_t nodes = 0, mincpus = 0, cpt = 1, tpn = 1, v;
	int have_nodes = 0;
	uint64_t mem = 0, tmp = 0;
	sb_gres_t *gres = NULL;
	size_t ngres = 0;
	sb_constraint_t *c = NULL;
	sb_request_t *r = &job->req;
	int rc = -1;

	memset(job, 0, sizeof(*job));
	sb_request_init(r);
	nt = sbi_tokens(text, tok, SBI_MAX_TOKENS, &too_many);
	if (too_many) {
		sbi_bad(path, line, tok[SBI_MAX_TOKENS - 1],
		     "too many tokens on one line");
		return -1;
	}
	if (!nt)
		return 0;
	for (i = 0; i < nt; i++) {
		char *t = tok[i];

		if (!strncasecmp(t, "JobId=", 6)) {
			if (job->jobid || !t[6]) {
				sbi_bad(path, line, t, job->jobid ?
				     "JobId given twice" : "empty JobId");
				goto out;
			}
			if (strchr(t + 6, '|')) {
				sbi_bad(path, line, t, "'|' in a JobId");
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
			if (sb_decimal_in(val, 1, UINT32_MAX, &nodes)) {
				sbi_bad(path, line, tok[i], val && strchr(val, '-')
				     ? "node count ranges (MIN-MAX) are not "
				       "supported" : "not a node count");
				goto out;
			}
			have_nodes = 1;
		} else if ((val = _optval(tok, nt, &i, "--constraint", "-C",
					  &m)), m) {
			if (!val) {
				sbi_bad(path, line, tok[i], "missing constraint");
				goto out;
			}
			cons_tok = tok[i];
			cons = val;
		} else if ((val = _optval(tok, nt, &i, "--mem", NULL, &m)),
			   m) {
			if (sb_slurm_mem_option(val, &mem)) {
				sbi_bad(path, line, tok[i], "not a memory size");
				goto out;
			}
		} else if ((val = _optval(tok, nt, &i, "--tmp", NULL, &m)),
			   m) {
			if (sb_slurm_mem_option(val, &tmp)) {
				sbi_bad(path, line, tok[i], "not a memory size");
				goto out;
			}
		} else if ((val = _optval(tok, nt, &i, "--mincpus", NULL,
					  &m)), m) {
			if (sb_decimal_parse(val, UINT32_MAX, &mincpus, NULL)) {
				sbi_bad(path, line, tok[i], "not a count");
				goto out;
			}
		} else if ((val = _optval(tok, nt, &i, "--cpus-per-task",
					  "-c", &m)), m) {
			if (sb_decimal_in(val, 1, UINT32_MAX, &cpt)) {
				sbi_bad(path, line, tok[i], "not a count");
				goto out;
			}
		} else if ((val = _optval(tok, nt, &i, "--ntasks-per-node",
					  NULL, &m)), m) {
			if (sb_decimal_in(val, 1, UINT32_MAX, &tpn)) {
				sbi_bad(path, line, tok[i], "not a count");
				goto out;
			}
		} else if ((val = _optval(tok, nt, &i, "--gres", NULL, &m)),
			   m) {
			char *save = NULL, *g, *copy;
			sb_gres_t *ng;

			if (!val || ngres) {
				sbi_bad(path, line, tok[i], val ? "option given "
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
					sbi_bad(path, line, tok[i], "not a gres "
					     "(name[:type]:count)");
					goto out;
				}
				ngres++;
			}
			free(copy);
		} else if ((val = _optval(tok, nt, &i, "--time", "-t", &m)),
			   m) {
			if (!val || sbi_parse_time(val, &r->time_limit)) {
				sbi_bad(path, line, tok[i], "not a time limit "
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
				sbi_bad(path, line, tok[i], val ? "option given "
				     "twice" : "missing partition");
				goto out;
			}
			if (strchr(val, ',')) {
				sbi_bad(path, line, tok[i], "several partitions "
				     "are not supported");
				goto out;
			}
			if (!(r->partition = strdup(val)))
				goto oom;
		} else if ((val = _optval(tok, nt, &i, "--licenses", "-L",
					  &m)), m) {
			if (!val || job->lic) {
				sbi_bad(path, line, tok[i], val ? "option given "
				     "twice" : "missing licence list");
				goto out;
			}
			/* "-L LIST" as one token in messages. */
			char opt[SB_SHOWN_BUF];

			if (val == tok[i] && i)
				snprintf(opt, sizeof(opt), "%s %s", tok[i - 1],
					 val);
			else
				snprintf(opt, sizeof(opt), "%s", tok[i]);
			if (sbi_parse_licenses(path, line, opt, val,
					       &job->lic, &job->nlic))
				goto out;
		} else if ((val = _optval(tok, nt, &i, "--bucket-prefer",
					  NULL, &m)), m) {
			if (!val || r->nprefer) {
				sbi_bad(path, line, tok[i], val ? "option given "
				     "twice" : "missing feature list");
				goto out;
			}
			if (_prefer(path, line, tok[i], val, cl, r) < 0)
				goto out;
		} else {
			sbi_bad(path, line, tok[i], "unknown option (known: "
			     "JobId=, -N, --exclusive, -C, --mem, --tmp, "
			     "--mincpus, -c, --ntasks-per-node, --gres, -t, "
			     "-w, -x, -p, --contiguous, --bucket-prefer, "
			     "-L)");
			goto out;
		}
		continue;
bad_list:
		if (!val)
			sbi_bad(path, line, tok[i], "missing node list");
		goto out;
	}
	if (!job->jobid) {
		sbi_bad(path, line, tok[0], "the line has no JobId=");
		goto out;
	}
	if (r->required && r->excluded &&
	    sb_bitmap_intersects(r->required, r->excluded)) {
		sbi_bad(path, line, tok[0], "a node is both required (-w) "
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
			sbi_bad(path, line, tok[0], "-N is smaller than "
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
			sbi_bad(path, line, cons_tok, "the feature counts "
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
		sbi_bad(path, line, tok[0], "CPUs per node out of range");
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
	sbi_bad(path, line, cons_tok, "too many chunks");
	goto out;
oom:
	rc = sbi_oom(path, line);
out:
	for (k = 0; k < ngres; k++)
		free(gres[k].name);
	free(gres);
	sb_constraint_free(c);
	if (rc != 1)
		sbi_job_fini(job);
	return rc;
}

void sbi_jobs_fini(sbi_jobs_t *jobs)
{
	size_t i;

	for (i = 0; i < jobs->n; i++)
		sbi_job_fini(&jobs->v[i]);
	free(jobs->v);
	free(jobs->line);
	memset(jobs, 0, sizeof(*jobs));
}

int sbi_read_jobs(const char *path, const sbi_cluster_t *cl,
		  sbi_refuse_f *refuse, const void *ctx, sbi_jobs_t *jobs)
{
	char *buf = NULL, why[256], id[SB_SHOWN_BUF];
	size_t cap = 0, line = 0, room = 0;
	ssize_t len;
	sbi_job_t job, *v;
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
		if ((got = sbi_parse_job(path, line, buf, cl, &job)) < 0)
			goto out;
		if (!got)
			continue;
		if (refuse && refuse(&job, ctx, why, sizeof(why))) {
			fprintf(stderr, "sbucket: %s:%zu: job %s%s\n", path,
				line, sb_shown(id, sizeof(id), job.jobid),
				why);
			sbi_job_fini(&job);
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
	sbi_job_fini(&job);
	sbi_oom(path, line);
out:
	free(buf);
	fclose(f);
	if (rc)
		sbi_jobs_fini(jobs);
	return rc;
}
