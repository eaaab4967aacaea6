/*
 * sbucket_fairshare_explain.h - 'sbucket fairshare --explain'.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SBUCKET_FAIRSHARE_EXPLAIN_H
#define SBUCKET_FAIRSHARE_EXPLAIN_H

#include "assoc_tree.h"

/*
 * Explain to stdout, over tree @t computed with @alg (and @levels), the
 * users of @spec: "U" or "U1,U2" (a user as ACCOUNT/USER when it has
 * several associations): each one's path and numbers, then for two the
 * level that decides between them; with @pair_only that level alone.
 * Returns sbucket's exit status (SBUCKET_EXIT_USAGE after one error
 * line: unknown or ambiguous user, more than two, the same one twice).
 */
int sbucket_fairshare_explain(const sb_assoc_tree_t *t, const char *spec,
			      int alg, int levels, int pair_only);

/*
 * 'sbucket fairshare --explain=U1,U2' on the live tree and slurmctld's
 * algorithm, printing only which level decides between the two users
 * (@pair is "U1,U2", a user as ACCOUNT/USER when it has several
 * associations): 'sbucket why' shows it for the job ahead by fair share
 * (sbucket_fairshare.c). Returns sbucket's exit status, after printing
 * one error line when not 0.
 */
int sbucket_fairshare_live_decide(const char *pair);

#endif /* SBUCKET_FAIRSHARE_EXPLAIN_H */
