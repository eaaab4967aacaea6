/*
 * sbucket_fairshare_live.h - the live association tree for 'sbucket
 * fairshare' run without a FILE.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The tree, shares and usage come from slurmctld through sshare (the
 * same REQUEST_SHARE_INFO sshare sends; Slurm 22.05's libslurm has no
 * public call for it), the algorithm from slurmctld's PriorityParameters
 * through scontrol. SBUCKET_SSHARE and SBUCKET_SCONTROL name other
 * binaries (default: sshare and scontrol from PATH).
 */
#ifndef SBUCKET_FAIRSHARE_LIVE_H
#define SBUCKET_FAIRSHARE_LIVE_H

#include <stdio.h>

/* What to pass as FILE to mean "the live tree". */
#define SBUCKET_LIVE_FILE "@live"

/*
 * The live tree in 'sbucket fairshare' input form
 * (Account|Parent|User|Shares|RawUsage, accounts before their users, in
 * sshare's order), as a temporary FILE positioned at its start; the
 * caller fcloses it. NULL after printing one error line to stderr
 * (sshare missing or failing, unexpected output).
 */
FILE *sbucket_fairshare_live_open(void);

/*
 * The algorithm (SB_FS_LEVEL_BASED, SB_FS_FAIR_TREE, SB_FS_CLASSIC) and
 * levels slurmctld's priority/bucket uses, from PriorityParameters, and
 * its FairShareDampeningFactor (>= 1). Returns 0, or -1 after printing
 * one error line (scontrol failing, the cluster not running
 * priority/bucket, a bad PriorityParameters).
 */
int sbucket_fairshare_live_params(int *algorithm, int *levels, long *damp);

/*
 * 'sbucket fairshare --explain=U1,U2' on the live tree and slurmctld's
 * algorithm, printing only which level decides between the two users
 * (@pair is "U1,U2", a user as ACCOUNT/USER when it has several
 * associations). For 'sbucket why' (tools/verbs/sbucket_fairshare.c). Returns
 * sbucket's exit status, after printing one error line when not 0.
 */
int sbucket_fairshare_live_decide(const char *pair);

#endif /* SBUCKET_FAIRSHARE_LIVE_H */
