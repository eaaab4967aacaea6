/*
 * policy.c - Maui node allocation policies, with Slurm's node Weight.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"

static const char *const _names[SB_POLICY_COUNT] = {
	"FIRSTAVAILABLE", "LASTAVAILABLE", "MINRESOURCE", "CPULOAD",
	"CONTIGUOUS", "MAXBALANCE", "FASTEST", "PRIORITY",
};

static int _eq_nocase(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (toupper((unsigned char) *a) != toupper((unsigned char) *b))
			return 0;
	return !*a && !*b;
}

const char *sb_policy_name(sb_policy_kind_t kind)
{
	return (unsigned) kind < SB_POLICY_COUNT ? _names[kind] : "UNKNOWN";
}

int sb_policy_init(sb_policy_t *p, const char *name, const char *priorityf,
		   size_t *errpos, const char **errmsg)
{
	sb_policy_t out;
	int k;

	if (!p || !name) {
		errno = EINVAL;
		return -1;
	}
	memset(&out, 0, sizeof(out));
	for (k = 0; k < SB_POLICY_COUNT; k++)
		if (_eq_nocase(name, _names[k]))
			break;
	if (k == SB_POLICY_COUNT) {
		errno = ENOENT;
		return -1;
	}
	out.kind = (sb_policy_kind_t) k;
	if ((out.kind == SB_POLICY_PRIORITY) != (priorityf != NULL)) {
		if (errpos)
			*errpos = 0;
		if (errmsg)
			*errmsg = priorityf ?
				"PRIORITYF needs policy PRIORITY" :
				"policy PRIORITY needs a PRIORITYF";
		errno = EINVAL;
		return -1;
	}
	if (priorityf &&
	    sb_priorityf_parse(priorityf, &out.pf, errpos, errmsg)) {
		errno = EINVAL;
		return -1;
	}
	*p = out;
	return 0;
}

bool sb_policy_static(const sb_policy_t *p)
{
	switch (p->kind) {
	case SB_POLICY_FIRSTAVAILABLE:
	case SB_POLICY_MINRESOURCE:
	case SB_POLICY_FASTEST:
		return true;
	case SB_POLICY_PRIORITY:
		return sb_priorityf_static(&p->pf);
	default:
		return false;
	}
}

void sb_policy_key(const sb_policy_t *p, const sb_node_t *n, uint32_t pref,
		   int64_t end, int64_t next_start, sb_policy_key_t *key)
{
	double *k = key->k + 2;		/* the policy's own fields */
	size_t i;
	double gres = 0;

	memset(key, 0, sizeof(*key));
	key->idx = n->index;
	key->k[0] = n->weight;
	key->k[1] = -(double) pref;
	switch (p->kind) {
	case SB_POLICY_LASTAVAILABLE:
		/* Time left between the job's end and the next window. */
		k[0] = next_start == SB_TIME_INFINITE ||
		       end == SB_TIME_INFINITE ? INFINITY :
		       (double) next_start - (double) end;
		break;
	case SB_POLICY_MINRESOURCE:
		for (i = 0; i < n->ngres; i++)
			gres += (double) n->gres[i].count;
		k[0] = n->cpus;
		k[1] = (double) n->real_memory;
		k[2] = (double) n->tmp_disk;
		k[3] = gres;
		break;
	case SB_POLICY_CPULOAD:
		k[0] = -((double) n->cpus - n->load);
		break;
	case SB_POLICY_MAXBALANCE:
		k[0] = n->speed;
		break;
	case SB_POLICY_FASTEST:
		k[0] = -n->speed;
		break;
	case SB_POLICY_PRIORITY:
		if (sb_priorityf_uses_weight(&p->pf))
			key->k[0] = 0;
		if (sb_priorityf_uses_pref(&p->pf))
			key->k[1] = 0;
		k[0] = -sb_priorityf_eval(&p->pf, n, pref);
		break;
	default:
		break;
	}
}

int sb_policy_key_cmp(const sb_policy_key_t *a, const sb_policy_key_t *b)
{
	int i;

	for (i = 0; i < SB_POLICY_KEYS; i++) {
		if (a->k[i] < b->k[i])
			return -1;
		if (a->k[i] > b->k[i])
			return 1;
	}
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int _qcmp(const void *a, const void *b)
{
	return sb_policy_key_cmp(a, b);
}

void sb_policy_sort(sb_policy_key_t *keys, size_t n)
{
	if (n > 1)
		qsort(keys, n, sizeof(*keys), _qcmp);
}
