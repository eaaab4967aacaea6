/*
 * sb_bench_slurm.h - Slurm's own Fair Tree pass, for benchmarks that time
 * it next to ours on the same tree in the same process.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * bench_fairshare_slurm.c loads the installed priority_multifactor.so
 * (Slurm 22.05's own code, not rebuilt), builds Slurm's association
 * records (slurmdb_assoc_rec_t, as assoc_mgr links them: parent and fs
 * parent, fs children lists in Slurm's hierarchical order, level shares,
 * Fair Tree's normalised shares, usage on every association) for a tree
 * given as arrays, and
 * calls the plugin's fair_tree_decay() with no jobs: the Fair Tree part
 * of each decay cycle (Level FS, sorting, ranking under the assoc lock).
 * This header is Slurm-free so that the benchmark itself is too.
 *
 *   sb_bench_slurm_load     dlopen the plugin, find fair_tree_decay
 *   sb_bench_slurm_build    Slurm's records for n associations   O(n)
 *   sb_bench_slurm_pass     one fair_tree_decay()                  O(n log k)
 *   sb_bench_slurm_factor   a user's fs_factor after a pass        O(1)
 *   sb_bench_slurm_free     release the records                    O(n)
 */
#ifndef SB_BENCH_SLURM_H
#define SB_BENCH_SLURM_H

#include <stddef.h>
#include <stdint.h>

/*
 * Load @plugindir/priority_multifactor.so. Returns 0, or -1 with a
 * reason in @err (@len bytes).
 */
int sb_bench_slurm_load(const char *plugindir, char *err, size_t len);

/*
 * Replace Slurm's tree with @n associations in depth-first insertion
 * order (parents before children, 0 is root): @parent (-1 for root), raw
 * @shares (0x7FFFFFFF for 'parent'), @usage as slurmctld keeps it on
 * each, @is_user and @name (the account, or the user). Returns 0, or -1
 * when not loaded or on a record Slurm cannot unpack.
 */
int sb_bench_slurm_build(int n, const int *parent, const uint32_t *shares,
			 const long double *usage,
			 const unsigned char *is_user,
			 const char *const *name);

/* One Slurm Fair Tree pass over the tree built last. */
void sb_bench_slurm_pass(void);

/* fs_factor of association @id after the last pass (0 for accounts). */
double sb_bench_slurm_factor(int id);

/* Release the tree built last. */
void sb_bench_slurm_free(void);

#endif /* SB_BENCH_SLURM_H */
