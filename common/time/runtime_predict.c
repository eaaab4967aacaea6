/*
 * runtime_predict.c - a job's likely run time from its user's history
 * (runtime_predict.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Only the last two runs of each key matter, so the history keeps no
 * more: a slot per key (a similar-job key and a user key per run), found
 * through a string map. A key spells each name with its length first, so
 * no name can run into the next.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime_predict.h"
#include "sb_time.h"
#include "strmap.h"

typedef struct {
	int64_t end[2], elapsed[2];	/* [0] the latest */
	uint64_t seq[2];		/* when added: breaks end ties */
	size_t n;
} _slot_t;

struct sb_rt_history {
	sb_strmap_t *map;		/* key -> index in slots */
	_slot_t *slots;
	size_t nslots, cap;
	size_t count;			/* runs added */
};

sb_rt_history_t *sb_rt_history_create(void)
{
	sb_rt_history_t *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	if (!(h->map = sb_strmap_create())) {
		free(h);
		return NULL;
	}
	return h;
}

void sb_rt_history_destroy(sb_rt_history_t *h)
{
	if (!h)
		return;
	sb_strmap_destroy(h->map);
	free(h->slots);
	free(h);
}

size_t sb_rt_history_count(const sb_rt_history_t *h)
{
	return h ? h->count : 0;
}

/* The similar-job key (@similar) or the user key, to free(); NULL with
 * errno ENOMEM. */
static char *_key(bool similar, const char *user, const char *part,
		  int64_t limit, uint32_t nodes)
{
	size_t nu = strlen(user), np = part ? strlen(part) : 0;
	size_t len = nu + np + 80;
	char *k = malloc(len);

	if (!k)
		return NULL;
	if (similar)
		snprintf(k, len, "S%zu:%s%zu:%s%" PRId64 ":%" PRIu32, nu, user,
			 np, part ? part : "", limit, nodes);
	else
		snprintf(k, len, "U%zu:%s", nu, user);
	return k;
}

/* Is run (@e1, @s1) later than (@e2, @s2)? */
static bool _later(int64_t e1, uint64_t s1, int64_t e2, uint64_t s2)
{
	return e1 != e2 ? e1 > e2 : s1 > s2;
}

/* Keep the run in slot @s when it is one of the last two. */
static void _keep(_slot_t *s, int64_t end, int64_t elapsed, uint64_t seq)
{
	if (!s->n || _later(end, seq, s->end[0], s->seq[0])) {
		s->end[1] = s->end[0];
		s->elapsed[1] = s->elapsed[0];
		s->seq[1] = s->seq[0];
		s->end[0] = end;
		s->elapsed[0] = elapsed;
		s->seq[0] = seq;
	} else if (s->n < 2 || _later(end, seq, s->end[1], s->seq[1])) {
		s->end[1] = end;
		s->elapsed[1] = elapsed;
		s->seq[1] = seq;
	}
	if (s->n < 2)
		s->n++;
}

/* The slot of @key, made empty when new; SIZE_MAX with errno ENOMEM.
 * *@made says whether it was made (to undo). */
static size_t _slot(sb_rt_history_t *h, const char *key, bool *made)
{
	size_t i = sb_strmap_get(h->map, key);

	*made = false;
	if (i != SIZE_MAX)
		return i;
	if (h->nslots == h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 64;
		_slot_t *v = realloc(h->slots, cap * sizeof(*v));

		if (!v)
			return SIZE_MAX;
		h->slots = v;
		h->cap = cap;
	}
	if (sb_strmap_put(h->map, key, h->nslots) < 0)
		return SIZE_MAX;
	memset(&h->slots[h->nslots], 0, sizeof(h->slots[0]));
	*made = true;
	return h->nslots++;
}

int sb_rt_history_add(sb_rt_history_t *h, const sb_rt_run_t *r)
{
	char *ks = NULL, *ku = NULL;
	size_t is, iu;
	bool made_s, made_u;
	int rc = -1;

	if (!h || !r || !r->user || r->end < 0 || r->elapsed < 0 ||
	    r->elapsed == SB_TIME_INFINITE || r->time_limit < 1) {
		errno = EINVAL;
		return -1;
	}
	if (!(ks = _key(true, r->user, r->partition, r->time_limit,
			r->nodes)) ||
	    !(ku = _key(false, r->user, NULL, 0, 0)))
		goto out;
	/* both slots exist before either changes: no change on failure
	 * (a slot made but unused stays empty, which predicts nothing) */
	if ((is = _slot(h, ks, &made_s)) == SIZE_MAX ||
	    (iu = _slot(h, ku, &made_u)) == SIZE_MAX)
		goto out;
	_keep(&h->slots[is], r->end, r->elapsed, h->count);
	_keep(&h->slots[iu], r->end, r->elapsed, h->count);
	h->count++;
	rc = 0;
out:
	if (rc)
		errno = ENOMEM;
	free(ks);
	free(ku);
	return rc;
}

int sb_rt_history_check(const sb_rt_history_t *h)
{
	size_t i;

	if (!h) {
		errno = EINVAL;
		return -1;
	}
	if (sb_strmap_count(h->map) != h->nslots || h->nslots > h->cap)
		goto broken;
	for (i = 0; i < h->nslots; i++) {
		const _slot_t *s = &h->slots[i];

		if (s->n > 2 || (s->n && s->elapsed[0] < 0) ||
		    (s->n == 2 && (s->elapsed[1] < 0 ||
				   !_later(s->end[0], s->seq[0], s->end[1],
					   s->seq[1]))) ||
		    (s->n && s->seq[0] >= h->count) ||
		    (s->n == 2 && s->seq[1] >= h->count))
			goto broken;
	}
	return 0;
broken:
	errno = EFAULT;
	return -1;
}

/* The prediction of slot @s (non-empty) into @out. */
static void _from(const _slot_t *s, sb_rt_basis_t basis, int64_t limit,
		  sb_rt_pred_t *out)
{
	int64_t sum = s->elapsed[0];

	out->basis = basis;
	out->nruns = s->n;
	out->runs[0] = s->elapsed[0];
	out->runs[1] = s->n > 1 ? s->elapsed[1] : 0;
	if (s->n > 1)
		sum = s->elapsed[0] > SB_TIME_INFINITE - s->elapsed[1] ?
			SB_TIME_INFINITE - 1 : s->elapsed[0] + s->elapsed[1];
	/* rounded up: (a + b) / 2 without overflow */
	out->runtime = s->n > 1 ? sum / 2 + sum % 2 : sum;
	if (out->runtime < 1)
		out->runtime = 1;
	if (out->runtime > limit) {
		out->runtime = limit;
		out->capped = true;
	}
}

/* The prediction of @user's job: from its similar jobs first when
 * @similar, else (or without them) from the user's jobs of any kind. */
static int _predict(const sb_rt_history_t *h, bool similar, const char *user,
		    const char *partition, int64_t time_limit, uint32_t nodes,
		    sb_rt_pred_t *out)
{
	char *k;
	size_t i;

	if (!user || !out || time_limit < 1) {
		errno = EINVAL;
		return -1;
	}
	memset(out, 0, sizeof(*out));
	out->basis = SB_RT_NONE;
	out->runtime = time_limit;
	if (!h)
		return 0;
	/* a key not built (ENOMEM) is a key not found: no prediction */
	if (similar && (k = _key(true, user, partition, time_limit, nodes))) {
		i = sb_strmap_get(h->map, k);
		free(k);
		if (i != SIZE_MAX && h->slots[i].n) {
			_from(&h->slots[i], SB_RT_SIMILAR, time_limit, out);
			return 0;
		}
	}
	if ((k = _key(false, user, NULL, 0, 0))) {
		i = sb_strmap_get(h->map, k);
		free(k);
		if (i != SIZE_MAX && h->slots[i].n)
			_from(&h->slots[i], SB_RT_USER, time_limit, out);
	}
	return 0;
}

int sb_rt_predict(const sb_rt_history_t *h, const char *user,
		  const char *partition, int64_t time_limit, uint32_t nodes,
		  sb_rt_pred_t *out)
{
	return _predict(h, true, user, partition, time_limit, nodes, out);
}

int sb_rt_predict_user(const sb_rt_history_t *h, const char *user,
		       int64_t time_limit, sb_rt_pred_t *out)
{
	return _predict(h, false, user, NULL, time_limit, 0, out);
}

int64_t sb_rt_correct(int64_t predicted, int64_t limit, unsigned n)
{
	/* Tsafrir, Etsion and Feitelson's steps, in seconds */
	static const int64_t step[SB_RT_CORRECT_STEPS] = {
		60, 300, 900, 1800, 3600, 7200, 18000, 36000, 72000,
		180000, 360000,
	};
	int64_t e;

	if (predicted < 1 || limit < predicted || !n) {
		errno = EINVAL;
		return -1;
	}
	if (n > SB_RT_CORRECT_STEPS)
		return limit;
	e = sb_time_add(predicted, step[n - 1]);
	return e < limit ? e : limit;
}

int64_t sb_rt_running_end(int64_t start, int64_t limit_end, int64_t runtime,
			  int64_t now)
{
	int64_t e;

	if (runtime < 1 || start < 0 || limit_end < start) {
		errno = EINVAL;
		return -1;
	}
	e = sb_time_add(start, runtime);
	if (e <= now)
		return limit_end;	/* past its prediction: its limit */
	return e < limit_end ? e : limit_end;
}
