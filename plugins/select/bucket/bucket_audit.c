/*
 * bucket_audit.c - with DebugFlags=SelectType, check the bucket model
 * that bucket_state.c keeps up to date call by call against one built
 * afresh from slurmctld's state.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The model is derived, never saved: a slurmctld that restarts (after a
 * crash, on a backup controller taking over) builds it from the node
 * table, the three node bitmaps and the reservations it recovered. Between
 * builds it is updated from what changed. This file answers "is the
 * updated model what a fresh start on the same node state would give?"
 * each time the model is brought up to date: the fresh model is built by
 * the same steps state_build() uses (convert_node(), sb_model_windows(),
 * sb_bucket_set_create()), and both are compared in a canonical text form,
 * one bucket after another in order of their lowest node index:
 *
 *   red01 x10: free 0-3,7 later - busy 4-6,8-9; blue01 x10: ...
 *
 * (node indices, as scontrol's node order). That form is logged when it
 * changes, so a log reader (and the fault tests) can follow the model
 * across restarts; a difference is an error, and the model is marked
 * stale, so that state_sync() rebuilds it before the decision.
 */
#include "config.h"

#include "sb_slurm.h"

#include "select_bucket.h"

/* The buckets last logged (xmalloc'ed), NULL after a rebuild. */
static char *g_logged = NULL;

extern void state_audit_forget(void)
{
	xfree(g_logged);
}

/* @set's buckets in canonical form (xmalloc'ed), NULL if out of memory. */
static char *_dump(const sb_bucket_set_t *set)
{
	static const char *const pools[] = { "free", "later", "busy" };
	char *out = NULL;
	size_t b;
	int p;

	for (b = 0; b < sb_bucket_set_size(set); b++) {
		xstrfmtcat(out, "%s%s x%zu:", b ? "; " : "",
			   sb_bucket_rep(set, b)->name,
			   sb_bucket_total(set, b));
		for (p = SB_POOL_FREE; p <= SB_POOL_BUSY; p++) {
			char *f = sb_bitmap_fmt(sb_bucket_pool(set, b, p));

			if (!f) {
				xfree(out);
				return NULL;
			}
			xstrfmtcat(out, " %s %s", pools[p], *f ? f : "-");
			free(f);
		}
	}
	return out ? out : xstrdup("no buckets");
}

/*
 * The buckets of a model built afresh at @now (xmalloc'ed), or NULL
 * after logging why not.
 */
static char *_fresh_dump(time_t now)
{
	size_t n = node_record_count, nresv = 0;
	sb_node_t *nodes = xcalloc(n ? n : 1, sizeof(*nodes));
	sb_model_resv_t *resv = NULL;
	sb_bucket_set_t *set = NULL;
	char *out = NULL;

	if (convert_nodes(nodes, n) < 0)
		goto fail;
	resv = state_resv_read(&nresv);
	if ((sb_model_windows(nodes, n, resv, nresv, now) < 0) ||
	    !(set = sb_bucket_set_create(nodes, n, now)) ||
	    !(out = _dump(set)))
		error(BUCKET_PFX "audit: cannot build a fresh model: %m");
fail:
	sb_bucket_set_destroy(set);
	state_resv_free(resv, nresv);
	state_nodes_free(nodes, n);
	return out;
}

extern void state_audit(time_t now)
{
	bucket_state_t *s = &bucket_state;
	char *model, *fresh;

	if (!s->set || s->stale)
		return;
	if (!(model = _dump(s->set)) || !(fresh = _fresh_dump(now))) {
		xfree(model);
		return;
	}
	if (xstrcmp(model, fresh)) {
		error(BUCKET_PFX "audit: the bucket model differs from a fresh build from slurmctld's state, so it is rebuilt: model: %s; fresh: %s",
		      model, fresh);
		s->stale = true;
	} else if (xstrcmp(model, g_logged)) {
		log_flag(SELECT_TYPE, "buckets: %s", model);
		xfree(g_logged);
		g_logged = model;
		model = NULL;
	}
	xfree(model);
	xfree(fresh);
}
