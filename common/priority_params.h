/*
 * priority_params.h - PriorityParameters of the priority/bucket plugin.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * slurm.conf's PriorityParameters is a free string handed to the priority
 * plugin. priority/bucket reads comma-separated key=value pairs from it:
 *
 *	algorithm=level_based|fair_tree|classic	(default level_based)
 *	levels=N				(1-16, default 4)
 *	calc_period=S				(1-86400 seconds; default:
 *						 PriorityCalcPeriod)
 *
 * calc_period exists because PriorityCalcPeriod cannot go below one
 * minute, too coarse for small test clusters and demonstrations.
 *
 * Keys and values are case-insensitive. Parsing is strict: an unknown or
 * repeated key, a missing '=', an empty pair or a bad value is an error
 * whose message names the key and the value, so slurmctld can refuse to
 * start with one clear line. 'levels' is accepted with every algorithm
 * (only level_based uses it), so an admin can switch the algorithm alone.
 *
 * Operations:
 *   sb_priority_params_default   O(1)   the defaults
 *   sb_priority_params_parse     O(len) parse a PriorityParameters string
 *   sb_priority_params_fmt       O(1)   canonical string form
 *   sb_priority_params_algorithm_name   O(1)
 */
#ifndef SB_PRIORITY_PARAMS_H
#define SB_PRIORITY_PARAMS_H

#include <stddef.h>

#include "assoc_tree.h"		/* SB_FS_LEVEL_BASED, ... */

#define SB_PRIO_DEFAULT_ALGORITHM SB_FS_LEVEL_BASED
#define SB_PRIO_DEFAULT_LEVELS 4
/* Room for any message sb_priority_params_parse() writes. */
#define SB_PRIO_ERR_MAX 512

typedef struct {
	int algorithm;		/* SB_FS_LEVEL_BASED, _FAIR_TREE, _CLASSIC */
	int levels;		/* SB_FS_LEVELS_MIN..SB_FS_LEVELS_MAX */
	int calc_period;	/* seconds; 0: PriorityCalcPeriod */
} sb_priority_params_t;

/* Largest calc_period accepted, in seconds (one day). */
#define SB_PRIO_CALC_PERIOD_MAX 86400

/*
 * Fill *@p with the defaults (level_based, 4 levels, calc_period 0). NULL
 * is ignored.
 */
void sb_priority_params_default(sb_priority_params_t *p);

/*
 * Parse @str (NULL or "" give the defaults) into *@out. On error, writes
 * one line without a trailing newline into @err (when @err is not NULL and
 * @errlen > 0; SB_PRIO_ERR_MAX bytes hold any), with the keys and values
 * it echoes made printable and cut as shown.h does, e.g.
 *	"unknown key 'level' (value '4') in PriorityParameters (known:
 *	 algorithm, levels, calc_period)"
 *	"bad value 'fairtree' for PriorityParameters key 'algorithm' (want
 *	 level_based, fair_tree or classic)"
 * Returns 0, or -1 with errno EINVAL (bad string, or @out NULL); *@out is
 * untouched on failure. O(strlen(str)).
 */
int sb_priority_params_parse(const char *str, sb_priority_params_t *out,
			     char *err, size_t errlen);

/*
 * The canonical form of *@p, "algorithm=fair_tree,levels=4" (with
 * ",calc_period=S" when set), into @buf.
 * Returns @buf, or NULL with errno EINVAL (NULL arguments, bad algorithm)
 * or ERANGE (@buflen too small).
 */
char *sb_priority_params_fmt(const sb_priority_params_t *p, char *buf,
			     size_t buflen);

/* "level_based", "fair_tree", "classic", or NULL with errno EINVAL. */
const char *sb_priority_params_algorithm_name(int algorithm);

#endif /* SB_PRIORITY_PARAMS_H */
