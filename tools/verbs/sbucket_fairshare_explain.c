/*
 * sbucket_fairshare_explain.c - 'sbucket fairshare --explain': why a user
 * gets its fair-share factor, and which level decides between two users.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assoc_tree.h"
#include "fairshare_level.h"
#include "sbucket.h"
#include "sbucket_fairshare_explain.h"

static int _find_user(const sb_assoc_tree_t *t, const char *spec)
{
	const char *slash = strchr(spec, '/');
	int n = sb_assoc_tree_count(t), i, found = -1, count = 0;

	if (slash) {
		char acct[SB_ASSOC_NAME_MAX + 1];
		size_t len = (size_t) (slash - spec);
		int a;

		if (len > SB_ASSOC_NAME_MAX)
			return -1;
		memcpy(acct, spec, len);
		acct[len] = '\0';
		if ((a = sb_assoc_tree_find_account(t, acct)) < 0)
			return -1;
		return sb_assoc_tree_find_user(t, a, slash + 1);
	}
	for (i = 1; i < n; i++) {
		sb_assoc_info_t a;

		sb_assoc_tree_get(t, i, &a);
		if (a.is_user && !strcmp(a.name, spec)) {
			found = i;
			count++;
		}
	}
	return count > 1 ? -2 : found;
}

/* Fair Tree's sibling order (Level FS desc, users first, input order). */
static int _ft_before(const sb_assoc_info_t *x, const sb_assoc_info_t *y)
{
	if (x->level_fs != y->level_fs)
		return x->level_fs > y->level_fs;
	if (x->is_user != y->is_user)
		return x->is_user;
	return x->id < y->id;
}

/* 1-based position of @id among its fs siblings, and their number. */
static void _ft_position(const sb_assoc_tree_t *t, int id, int *pos,
			 int *of)
{
	sb_assoc_info_t me, o;
	int n = sb_assoc_tree_count(t), i;

	sb_assoc_tree_get(t, id, &me);
	*pos = 1;
	*of = 0;
	for (i = 1; i < n; i++) {
		sb_assoc_tree_get(t, i, &o);
		if (o.fs_parent != me.fs_parent)
			continue;
		(*of)++;
		if (i != id && _ft_before(&o, &me))
			(*pos)++;
	}
}

/* Path from root: ids root..@id along direct parents; returns length. */
static int _path(const sb_assoc_tree_t *t, int id, int *v)
{
	sb_assoc_info_t a;
	int k = 0, i;

	for (; id >= 0; id = a.parent) {
		sb_assoc_tree_get(t, id, &a);
		v[k++] = id;
	}
	for (i = 0; i < k / 2; i++) {
		int x = v[i];

		v[i] = v[k - 1 - i];
		v[k - 1 - i] = x;
	}
	return k;
}

static const char *_label(const sb_assoc_info_t *a)
{
	return a->name;
}

/* The bits an association adds to its parent's raw value, as the level
 * value of its bucket (its level: one below its fs parent's). */
static void _level_value(const sb_assoc_tree_t *t, const sb_assoc_info_t *a,
			 int levels)
{
	sb_assoc_info_t f;
	int width = 64 / levels, lvl = 0, sh;

	for (f = *a; f.fs_parent > SB_ASSOC_ROOT; lvl++)
		sb_assoc_tree_get(t, f.fs_parent, &f);
	sh = sb_fairshare_level_shift(levels, lvl);
	if (a->shares == SB_SHARES_PARENT && !a->is_user)
		printf("  adds no bits");
	else if (sh < 0)
		printf("  below the last level, adds no bits");
	else
		printf("  value %0*" PRIX64 "%s", (width + 3) / 4,
		       (a->fs_raw >> sh) & (UINT64_MAX >> (64 - width)),
		       a->shares ? "" : " (0 shares: last among its siblings)");
	printf("  FSRaw %016" PRIX64, a->fs_raw);
}

/*
 * "1st", "2nd", "15th" ... into @buf: the place counted from the top.
 * Slurm's rank counts the other way (the last user ranks 1, the first
 * N), which a reader takes for first.
 */
static const char *_place(uint32_t rank, int users, char *buf, size_t size)
{
	long p = (long) users + 1 - (long) rank;
	const char *sfx = "th";

	if ((p % 100 < 11) || (p % 100 > 13)) {
		if (p % 10 == 1)
			sfx = "st";
		else if (p % 10 == 2)
			sfx = "nd";
		else if (p % 10 == 3)
			sfx = "rd";
	}
	snprintf(buf, size, "%ld%s", p, sfx);
	return buf;
}

static void _explain_one(const sb_assoc_tree_t *t, int id, int alg,
			 int levels)
{
	sb_assoc_info_t u, a;
	int *path = malloc((size_t) sb_assoc_tree_count(t) * sizeof(*path));
	int k, i, users = sb_assoc_tree_users(t);
	int width = 64 / levels;
	char pl[24];

	if (!path)
		return;
	sb_assoc_tree_get(t, id, &u);
	k = _path(t, id, path);
	if (alg == SB_FS_FAIR_TREE) {
		printf("%s (account %s), Fair Tree: %s of %d users, "
		       "FairShare %f = (%d + 1 - %ld) / %d\n", u.name,
		       u.account, _place(u.rank, users, pl, sizeof(pl)),
		       users, u.fs_factor, users,
		       (long) users + 1 - (long) u.rank, users);
		printf("  path from root; at each level siblings are ranked "
		       "by LevelFS = NormShares / EffectvUsage, highest "
		       "first:\n");
	} else if (alg == SB_FS_LEVEL_BASED) {
		printf("%s (account %s), LEVEL_BASED with %d levels of %d "
		       "bits: FSRaw %016" PRIX64 ", %s of %d users by FSRaw "
		       "(highest first), FairShare %f = (%d + 1 - %ld) / %d\n",
		       u.name, u.account, levels, width, u.fs_raw,
		       _place(u.rank, users, pl, sizeof(pl)), users,
		       u.fs_factor, users, (long) users + 1 - (long) u.rank,
		       users);
		printf("  path from root; each level adds value = 1 + "
		       "2^(-EffectvUsage / (0.1 + 0.9 * NormShares)) * "
		       "(2^%d - 2), truncated:\n", width);
	} else {
		printf("%s (account %s), classic: FairShare %f = "
		       "2^(-EffectvUsage / NormShares / dampening)\n",
		       u.name, u.account, u.fs_factor);
		printf("  path from root:\n");
	}
	for (i = 0; i < k; i++) {
		sb_assoc_tree_get(t, path[i], &a);
		if (i == 0) {
			if (alg == SB_FS_LEVEL_BASED)
				printf("    %-12s  FSRaw %016" PRIX64 "\n",
				       _label(&a), a.fs_raw);
			else
				printf("    %s\n", _label(&a));
			continue;
		}
		printf("    %-12s", _label(&a));
		if (a.shares == SB_SHARES_PARENT) {
			sb_assoc_info_t f;

			sb_assoc_tree_get(t, a.fs_parent, &f);
			if (a.is_user)
				printf("  Shares parent: ranks first among "
				       "the children of %s", f.name);
			else
				printf("  Shares parent: its children count "
				       "as children of %s", f.name);
			if (alg == SB_FS_LEVEL_BASED)
				_level_value(t, &a, levels);
			putchar('\n');
			continue;
		}
		printf("  NormShares %f  EffectvUsage %f", a.shares_norm,
		       (double) a.usage_efctv);
		if (alg == SB_FS_FAIR_TREE) {
			int pos, of;

			_ft_position(t, path[i], &pos, &of);
			printf("  LevelFS %f  (%d of %d)", (double) a.level_fs,
			       pos, of);
		} else if (alg == SB_FS_LEVEL_BASED) {
			_level_value(t, &a, levels);
		} else {
			printf("  FairShare %f", a.fs_factor);
		}
		putchar('\n');
	}
	free(path);
}

/* Nearest common fs ancestor and the fs children under it on each side. */
static int _fs_common(const sb_assoc_tree_t *t, int x, int y, int *sx,
		      int *sy)
{
	sb_assoc_info_t a;
	int n = sb_assoc_tree_count(t);
	char *mark = calloc((size_t) n, 1);
	int i, prev = -1, anc = -1;

	if (!mark)
		return -1;
	for (i = x; i >= 0; i = a.fs_parent) {
		sb_assoc_tree_get(t, i, &a);
		mark[i] = 1;
	}
	for (i = y; i >= 0; prev = i, i = a.fs_parent) {
		sb_assoc_tree_get(t, i, &a);
		if (mark[i]) {
			anc = i;
			break;
		}
	}
	*sy = prev;
	for (i = x, prev = -1; i != anc; prev = i, i = a.fs_parent)
		sb_assoc_tree_get(t, i, &a);
	*sx = prev;
	free(mark);
	return anc;
}

/* "result: alice 5th of 5 (FairShare 0.200000), bob 1st of 5 (...)" */
static void _result(const sb_assoc_info_t *ux, const sb_assoc_info_t *uy,
		    int users)
{
	char px[24], py[24];

	printf("  result: %s %s of %d (FairShare %f), %s %s of %d "
	       "(FairShare %f)\n", ux->name,
	       _place(ux->rank, users, px, sizeof(px)), users, ux->fs_factor,
	       uy->name, _place(uy->rank, users, py, sizeof(py)), users,
	       uy->fs_factor);
}

static void _explain_pair(const sb_assoc_tree_t *t, int x, int y, int alg,
			  int levels)
{
	sb_assoc_info_t ux, uy, c, sx, sy;
	int ix, iy, anc, users = sb_assoc_tree_users(t);
	char pl[24];

	sb_assoc_tree_get(t, x, &ux);
	sb_assoc_tree_get(t, y, &uy);
	printf("%s vs %s:\n", ux.name, uy.name);
	if (alg == SB_FS_CLASSIC) {
		printf("  classic compares the users' own factors: %f vs %f",
		       ux.fs_factor, uy.fs_factor);
		if (ux.fs_factor == uy.fs_factor)
			printf(", so they are equal\n");
		else
			printf(", so %s ranks higher\n",
			       ux.fs_factor > uy.fs_factor ? ux.name : uy.name);
		return;
	}
	if ((anc = _fs_common(t, x, y, &ix, &iy)) < 0)
		return;
	sb_assoc_tree_get(t, anc, &c);
	sb_assoc_tree_get(t, ix, &sx);
	sb_assoc_tree_get(t, iy, &sy);
	printf("  first common ancestor: %s\n", c.name);
	if (alg == SB_FS_FAIR_TREE) {
		printf("  deciding level: the children of %s, where %s's "
		       "side is %s %s (LevelFS %f) and %s's side is %s %s "
		       "(LevelFS %f)\n", c.name, ux.name,
		       sx.is_user ? "user" : "account", sx.name,
		       (double) sx.level_fs, uy.name,
		       sy.is_user ? "user" : "account", sy.name,
		       (double) sy.level_fs);
		if (sx.level_fs != sy.level_fs) {
			const sb_assoc_info_t *hi = sx.level_fs > sy.level_fs
				? &sx : &sy;
			char bx[64], by[64];

			snprintf(bx, sizeof(bx), "%f", (double) sx.level_fs);
			snprintf(by, sizeof(by), "%f", (double) sy.level_fs);
			if (!strcmp(bx, by))
				printf("  (they differ beyond 6 decimals: "
				       "%.21Lg vs %.21Lg)\n", sx.level_fs,
				       sy.level_fs);

			printf("  %s has the higher LevelFS, so it is ranked "
			       "first and everything under it ranks above "
			       "the other side\n", hi->name);
		} else {
			printf("  they are tied (exactly equal LevelFS): users "
			       "sort before accounts, then input order; a tied "
			       "user or account passes its rank on to the "
			       "first user ranked after it\n");
		}
		_result(&ux, &uy, users);
	} else {
		int width = 64 / levels, lvl;
		uint64_t diff = ux.fs_raw ^ uy.fs_raw;

		if (!diff) {
			printf("  identical FSRaw %016" PRIX64 ": they share "
			       "the %s place of %d (FairShare %f)\n",
			       ux.fs_raw, _place(ux.rank, users, pl,
						 sizeof(pl)), users,
			       ux.fs_factor);
			return;
		}
		for (lvl = 0; lvl < levels; lvl++) {
			int sh = sb_fairshare_level_shift(levels, lvl);
			uint64_t mask = (UINT64_MAX >> (64 - width)) << sh;

			if (diff & mask) {
				printf("  deciding level: level %d (bits %d-%d)"
				       ", the level of %s and %s: %0*" PRIX64
				       " vs %0*" PRIX64 "; the higher value "
				       "ranks first, whatever lower levels "
				       "hold\n", lvl + 1, sh, sh + width - 1,
				       sx.name, sy.name, width / 4 ? width / 4
				       : 1, (ux.fs_raw & mask) >> sh,
				       width / 4 ? width / 4 : 1,
				       (uy.fs_raw & mask) >> sh);
				break;
			}
		}
		_result(&ux, &uy, users);
	}
}

int sbucket_fairshare_explain(const sb_assoc_tree_t *t, const char *spec,
			      int alg, int levels, int pair_only)
{
	char buf[2 * (SB_ASSOC_NAME_MAX + 1) + 2];
	char *second = NULL;
	int ids[2], i, n = 1;

	if (strlen(spec) >= sizeof(buf))
		return sbucket_usage_error("fairshare", "--explain", spec, "too long");
	strcpy(buf, spec);
	if ((second = strchr(buf, ','))) {
		*second++ = '\0';
		n = 2;
		if (strchr(second, ','))
			return sbucket_usage_error("fairshare", "--explain", spec,
					    "at most two users");
	}
	for (i = 0; i < n; i++) {
		const char *u = i ? second : buf;

		ids[i] = _find_user(t, u);
		if (ids[i] == -2)
			return sbucket_usage_error("fairshare", "--explain", u,
					    "user has several associations, "
					    "name one as ACCOUNT/USER");
		if (ids[i] < 0)
			return sbucket_usage_error("fairshare", "--explain", u,
					    "no such user association");
	}
	if (n == 2 && ids[0] == ids[1])
		return sbucket_usage_error("fairshare", "--explain", spec, "the same user "
				    "association twice");
	if (n == 2 && pair_only) {
		_explain_pair(t, ids[0], ids[1], alg, levels);
		return 0;
	}
	_explain_one(t, ids[0], alg, levels);
	if (n == 2) {
		_explain_one(t, ids[1], alg, levels);
		_explain_pair(t, ids[0], ids[1], alg, levels);
	}
	return 0;
}

