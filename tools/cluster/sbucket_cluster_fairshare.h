/*
 * sbucket_cluster_fairshare.h - the running cluster's association tree
 * and fair-share parameters, for 'sbucket fairshare' without a FILE and
 * 'sbucket why'.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The tree, shares and usage come from slurmctld through sshare (the
 * same REQUEST_SHARE_INFO sshare sends; Slurm 22.05's libslurm has no
 * public call for it), the algorithm from slurmctld's PriorityType,
 * PriorityParameters and FairShareDampeningFactor
 * (sbucket_cluster_config.h). Account and user names are an admin's.
 *
 *   sbc_fairshare_open    O(associations)
 *   sbc_fairshare_params  O(the configuration's lines)
 */
#ifndef SBUCKET_CLUSTER_FAIRSHARE_H
#define SBUCKET_CLUSTER_FAIRSHARE_H

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
FILE *sbc_fairshare_open(void);

/*
 * The algorithm (SB_FS_LEVEL_BASED, SB_FS_FAIR_TREE, SB_FS_CLASSIC) and
 * levels slurmctld's priority/bucket uses, from PriorityParameters, and
 * its FairShareDampeningFactor (>= 1). Returns 0, or -1 after printing
 * one error line (scontrol failing, the cluster not running
 * priority/bucket, a bad PriorityParameters).
 */
int sbc_fairshare_params(int *algorithm, int *levels, long *damp);

#endif /* SBUCKET_CLUSTER_FAIRSHARE_H */
