/*
 * priority_fs_factor.c - priority_p_calc_fs_factor(), where the priority
 * framework looks it up (trait SB_HAVE_PRIORITY_CALC_FS_FACTOR: Slurm
 * until 25.05; it went in 25.11). Without it sshare prints the fs_factor
 * slurmctld keeps per association, which ours fills for every
 * association in every mode (bucket_assoc.c).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sb_slurm.h"

#include "fairshare_classic.h"
#include "priority_bucket.h"

/*
 * The classic factor 2^(-(UE / S) / FairShareDampeningFactor). sshare
 * prints it for every association when the Fair Tree flag is off, and
 * slurmctld uses it for QOS UsageThreshold.
 */
extern double priority_p_calc_fs_factor(long double usage_efctv,
					long double shares_norm)
{
	uint32_t damp = prio_settings.damp ? prio_settings.damp : 1;

	if (fuzzy_equal(usage_efctv, NO_VAL) || isnan(usage_efctv))
		return 0.0;
	return sb_fairshare_classic_factor(usage_efctv, shares_norm, damp);
}
