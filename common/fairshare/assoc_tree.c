/*
 * assoc_tree.c - the association tree that fair share is computed over.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "assoc_tree.h"
#include "assoc_tree_priv.h"

/* Accounts share one name scope; users are scoped by their account. */
#define ACCOUNT_SCOPE (-1)

/* strdup() is POSIX, not C11. */
static char *_dup(const char *s)
{
	size_t len = strlen(s) + 1;
	char *d = malloc(len);

	if (d)
		memcpy(d, s, len);
	return d;
}

static uint64_t _hash_key(int scope, const char *name)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ (uint64_t) (uint32_t) scope;

	for (; *name; name++) {
		h ^= (unsigned char) *name;
		h *= 0x100000001b3ULL;
	}
	return h ^ (h >> 29);
}

static int _scope_of(const struct sb_assoc_tree *t, int id)
{
	return t->is_user[id] ? t->parent[id] : ACCOUNT_SCOPE;
}

/* Slot holding (scope, name), or the empty slot where it would go. */
static size_t _hash_slot(const struct sb_assoc_tree *t, int scope,
			 const char *name)
{
	size_t mask = t->hash_cap - 1;
	size_t i = (size_t) _hash_key(scope, name) & mask;
	int id;

	while ((id = t->hash[i]) >= 0) {
		if (_scope_of(t, id) == scope && !strcmp(t->name[id], name))
			return i;
		i = (i + 1) & mask;
	}
	return i;
}

static int _hash_grow(struct sb_assoc_tree *t, size_t cap)
{
	int *old = t->hash;
	size_t old_cap = t->hash_cap, i;
	int *h = malloc(cap * sizeof(*h));

	if (!h)
		return -1;
	for (i = 0; i < cap; i++)
		h[i] = -1;
	t->hash = h;
	t->hash_cap = cap;
	for (i = 0; i < old_cap; i++) {
		int id = old[i];

		if (id >= 0)
			h[_hash_slot(t, _scope_of(t, id), t->name[id])] = id;
	}
	free(old);
	return 0;
}

/* Every per-association array, for growing and freeing them together. */
#define ARRAYS(X) \
	X(name) X(parent) X(first_child) X(last_child) X(next_sibling) \
	X(depth) X(shares) X(is_user) X(fs_parent) X(fs_first) X(fs_count) \
	X(fs_kids) X(level_shares) X(usage) X(usage_given) X(shares_norm) \
	X(usage_efctv) \
	X(level_fs) X(fs_factor) X(fs_raw) X(fs_ranked) X(rank)

/* Grow every array to @cap entries. On failure the arrays that did grow
 * stay larger, which is harmless: t->cap only changes on success. */
static int _grow(struct sb_assoc_tree *t, int cap)
{
#define GROW(f) { \
		void *p = realloc(t->f, (size_t) cap * sizeof(*t->f)); \
		if (!p) \
			return -1; \
		t->f = p; \
	}
	ARRAYS(GROW)
#undef GROW
	t->cap = cap;
	return 0;
}

/* Zero the results of association @id (a fresh one, or every one). */
static void _clear_results(struct sb_assoc_tree *t, int id)
{
	t->shares_norm[id] = 0;
	t->usage_efctv[id] = 0;
	t->level_fs[id] = 0;
	t->fs_factor[id] = 0;
	t->fs_raw[id] = 0;
	t->fs_ranked[id] = 0;
	t->rank[id] = 0;
	t->level_shares[id] = 0;
	t->fs_parent[id] = -1;
	t->fs_first[id] = t->fs_count[id] = 0;
}

sb_assoc_tree_t *sb_assoc_tree_create(void)
{
	struct sb_assoc_tree *t = calloc(1, sizeof(*t));
	char *root = _dup("root");

	if (!t || !root || _grow(t, 16) < 0 || _hash_grow(t, 32) < 0) {
		free(root);
		sb_assoc_tree_destroy(t);	/* n is 0: frees arrays only */
		errno = ENOMEM;
		return NULL;
	}
	t->name[0] = root;
	t->parent[0] = -1;
	t->first_child[0] = t->last_child[0] = t->next_sibling[0] = -1;
	t->depth[0] = 0;
	t->shares[0] = 0;
	t->is_user[0] = 0;
	t->usage[0] = 0;
	t->usage_given[0] = 0;
	_clear_results(t, 0);
	t->n = 1;
	t->n_summed = 1;
	t->rank_users = -1;
	t->hash[_hash_slot(t, ACCOUNT_SCOPE, "root")] = 0;
	return t;
}

void sb_assoc_tree_destroy(sb_assoc_tree_t *t)
{
	int i;

	if (!t)
		return;
	for (i = 0; i < t->n; i++)
		free(t->name[i]);
#define FREE(f) free(t->f);
	ARRAYS(FREE)
#undef FREE
	free(t->hash);
	free(t->work);
	free(t->rank_ranked);
	free(t->rank_factor);
	free(t);
}

void *sb__assoc_tree_work(struct sb_assoc_tree *t, size_t size)
{
	if (size > t->work_size) {
		void *w = malloc(size);

		if (!w) {
			errno = ENOMEM;
			return NULL;
		}
		free(t->work);
		t->work = w;
		t->work_size = size;
	}
	return t->work;
}

static bool _valid_name(const char *name)
{
	size_t len;

	if (!name)
		return false;
	len = strlen(name);
	return len > 0 && len <= SB_ASSOC_NAME_MAX;
}

static bool _valid_shares(uint32_t shares)
{
	return shares <= SB_SHARES_MAX || shares == SB_SHARES_PARENT;
}

static bool _valid_usage(long double usage)
{
	return isfinite(usage) && usage >= 0;
}

static bool _is_account(const struct sb_assoc_tree *t, int id)
{
	return t && id >= 0 && id < t->n && !t->is_user[id];
}

/* Common part of adding an account or a user; errno set on failure. */
static int _add(struct sb_assoc_tree *t, int parent, const char *name,
		uint32_t shares, bool is_user, long double usage)
{
	int scope = is_user ? parent : ACCOUNT_SCOPE;
	char *copy;
	int id;

	if (!_is_account(t, parent) || !_valid_name(name) ||
	    !_valid_shares(shares) || (is_user && !_valid_usage(usage))) {
		errno = EINVAL;
		return -1;
	}
	if (t->n >= INT_MAX - 1) {
		errno = ERANGE;
		return -1;
	}
	if (t->hash[_hash_slot(t, scope, name)] >= 0) {
		errno = EEXIST;
		return -1;
	}
	/* Grow everything first so that nothing can fail after. */
	if (t->n == t->cap &&
	    _grow(t, t->cap <= INT_MAX / 2 ? t->cap * 2 : INT_MAX) < 0)
		goto nomem;
	if ((size_t) (t->n + 1) * 2 > t->hash_cap &&
	    _hash_grow(t, t->hash_cap * 2) < 0)
		goto nomem;
	if (!(copy = _dup(name)))
		goto nomem;

	id = t->n++;
	t->name[id] = copy;
	t->parent[id] = parent;
	t->first_child[id] = t->last_child[id] = t->next_sibling[id] = -1;
	t->depth[id] = t->depth[parent] + 1;
	t->shares[id] = shares;
	t->is_user[id] = is_user;
	t->usage[id] = is_user ? usage : 0;
	t->usage_given[id] = is_user;
	_clear_results(t, id);
	if (t->last_child[parent] < 0)
		t->first_child[parent] = id;
	else
		t->next_sibling[t->last_child[parent]] = id;
	t->last_child[parent] = id;
	t->hash[_hash_slot(t, scope, name)] = id;
	if (is_user)
		t->n_users++;
	else
		t->n_summed++;
	t->layout_ok = false;
	t->level_norms_ok = false;
	t->sums_ok = false;
	t->algorithm = SB_FS_NONE;
	return id;
nomem:
	errno = ENOMEM;
	return -1;
}

int sb_assoc_tree_add_account(sb_assoc_tree_t *t, int parent,
			      const char *name, uint32_t shares)
{
	return _add(t, parent, name, shares, false, 0);
}

int sb_assoc_tree_add_user(sb_assoc_tree_t *t, int account,
			   const char *name, uint32_t shares,
			   long double usage)
{
	return _add(t, account, name, shares, true, usage);
}

int sb_assoc_tree_set_usage(sb_assoc_tree_t *t, int id, long double usage)
{
	if (!t || id < 0 || id >= t->n || !_valid_usage(usage)) {
		errno = EINVAL;
		return -1;
	}
	if (!t->usage_given[id]) {
		t->usage_given[id] = 1;
		t->n_summed--;
	}
	t->usage[id] = usage;
	/* Only sums of accounts never given a usage can go stale. */
	if (t->n_summed)
		t->sums_ok = false;
	t->algorithm = SB_FS_NONE;
	return 0;
}

int sb_assoc_tree_find_account(const sb_assoc_tree_t *t, const char *name)
{
	int id;

	if (!t || !name) {
		errno = EINVAL;
		return -1;
	}
	id = t->hash[_hash_slot(t, ACCOUNT_SCOPE, name)];
	if (id < 0)
		errno = ENOENT;
	return id;
}

int sb_assoc_tree_find_user(const sb_assoc_tree_t *t, int account,
			    const char *name)
{
	int id;

	if (!name || !_is_account(t, account)) {
		errno = EINVAL;
		return -1;
	}
	id = t->hash[_hash_slot(t, account, name)];
	if (id < 0)
		errno = ENOENT;
	return id;
}

int sb_assoc_tree_count(const sb_assoc_tree_t *t)
{
	return t ? t->n : 0;
}

int sb_assoc_tree_users(const sb_assoc_tree_t *t)
{
	return t ? t->n_users : 0;
}

/* 0 if @t and @out are given and @id is one of @t's; else -1, errno set. */
static int _readable(const sb_assoc_tree_t *t, int id, const void *out)
{
	if (!t || !out) {
		errno = EINVAL;
		return -1;
	}
	if (id < 0 || id >= t->n) {
		errno = ENOENT;
		return -1;
	}
	return 0;
}

int sb_assoc_tree_get_result(const sb_assoc_tree_t *t, int id,
			     sb_assoc_result_t *out)
{
	if (_readable(t, id, out) < 0)
		return -1;
	out->is_user = t->is_user[id];
	out->shares_norm = t->shares_norm[id];
	out->usage_efctv = t->usage_efctv[id];
	out->level_fs = t->level_fs[id];
	out->fs_factor = t->fs_factor[id];
	return 0;
}

int sb_assoc_tree_get(const sb_assoc_tree_t *t, int id, sb_assoc_info_t *out)
{
	if (_readable(t, id, out) < 0)
		return -1;
	out->id = id;
	out->parent = t->parent[id];
	out->fs_parent = t->fs_parent[id];
	out->is_user = t->is_user[id];
	out->name = t->name[id];
	out->account = t->is_user[id] ? t->name[t->parent[id]] : t->name[id];
	out->shares = t->shares[id];
	out->level_shares = t->level_shares[id];
	out->depth = t->depth[id];
	out->usage_raw = t->usage[id];
	out->usage_given = t->usage_given[id];
	out->shares_norm = t->shares_norm[id];
	out->usage_efctv = t->usage_efctv[id];
	out->level_fs = t->level_fs[id];
	out->fs_factor = t->fs_factor[id];
	out->fs_raw = t->fs_raw[id];
	out->fs_ranked = t->fs_ranked[id];
	out->rank = t->rank[id];
	return 0;
}

int sb_assoc_tree_first_child(const sb_assoc_tree_t *t, int id)
{
	int c;

	if (!t || id < 0 || id >= t->n) {
		errno = EINVAL;
		return -1;
	}
	if ((c = t->first_child[id]) < 0)
		errno = ENOENT;
	return c;
}

int sb_assoc_tree_next_sibling(const sb_assoc_tree_t *t, int id)
{
	int s;

	if (!t || id < 0 || id >= t->n) {
		errno = EINVAL;
		return -1;
	}
	if ((s = t->next_sibling[id]) < 0)
		errno = ENOENT;
	return s;
}

int sb_assoc_tree_algorithm(const sb_assoc_tree_t *t)
{
	return t ? t->algorithm : SB_FS_NONE;
}

/* Slurm's _get_children_level_shares(): a 'parent' child adds its own fs
 * children's shares. In a tree built by fs parent such a child has none,
 * but the rule is kept so that the sum is Slurm's by construction. */
static uint64_t _fs_kids_shares(const struct sb_assoc_tree *t, int id,
				int guard)
{
	const int *kids = t->fs_kids + t->fs_first[id];
	uint64_t sum = 0;
	int i;

	for (i = 0; i < t->fs_count[id]; i++) {
		uint32_t sh = t->shares[kids[i]];

		if (sh != SB_SHARES_PARENT)
			sum += sh;
		else if (guard > 0)
			sum += _fs_kids_shares(t, kids[i], guard - 1);
	}
	return sum;
}

static int _layout(struct sb_assoc_tree *t)
{
	int *next = NULL, i, n = t->n;
	uint32_t *level = NULL;

	next = malloc((size_t) n * sizeof(*next));
	level = malloc((size_t) n * sizeof(*level));
	if (!next || !level) {
		errno = ENOMEM;
		goto fail;
	}
	t->fs_parent[0] = -1;
	memset(t->fs_count, 0, (size_t) n * sizeof(*t->fs_count));
	for (i = 1; i < n; i++) {
		int p = t->parent[i];

		/* Parents precede children, so a 'parent' parent already
		 * knows its own fs parent. */
		if (p == SB_ASSOC_ROOT || t->shares[p] != SB_SHARES_PARENT)
			t->fs_parent[i] = p;
		else
			t->fs_parent[i] = t->fs_parent[p];
		t->fs_count[t->fs_parent[i]]++;
	}
	/* Counting sort by fs parent; the scan keeps insertion order. */
	t->fs_first[0] = 0;
	for (i = 0; i + 1 < n; i++)
		t->fs_first[i + 1] = t->fs_first[i] + t->fs_count[i];
	memcpy(next, t->fs_first, (size_t) n * sizeof(*next));
	for (i = 1; i < n; i++)
		t->fs_kids[next[t->fs_parent[i]]++] = i;

	/* Level shares, computed aside so that ERANGE changes nothing. */
	level[0] = 0;
	for (i = 0; i < n; i++) {
		const int *kids = t->fs_kids + t->fs_first[i];
		uint64_t sum;
		int j;

		if (!t->fs_count[i])
			continue;
		sum = _fs_kids_shares(t, i, 1);
		if (sum > UINT32_MAX) {
			errno = ERANGE;
			goto fail;
		}
		for (j = 0; j < t->fs_count[i]; j++)
			level[kids[j]] = (uint32_t) sum;
	}
	memcpy(t->level_shares, level, (size_t) n * sizeof(*level));
	free(next);
	free(level);
	t->layout_ok = true;
	return 0;
fail:
	free(next);
	free(level);
	return -1;
}

int sb__assoc_tree_prepare(struct sb_assoc_tree *t)
{
	const unsigned char *given = t->usage_given;
	const int *parent = t->parent;
	long double *usage = t->usage;
	int i;

	if (!t->layout_ok && _layout(t) < 0)
		return -1;
	if (t->sums_ok || !t->n_summed) {
		t->sums_ok = true;
		return 0;
	}
	for (i = 0; i < t->n; i++)
		if (!given[i])
			usage[i] = 0;
	/*
	 * Children have larger ids than parents: a backward scan completes
	 * each subtree's sum before adding it into its parent; a parent
	 * given its own usage keeps it. Consecutive siblings are summed in
	 * a register first, because storing and reloading an 80-bit long
	 * double per child costs more than the addition.
	 */
	i = t->n - 1;
	while (i > 0) {
		int p = parent[i];
		long double acc = usage[i--];

		while (i > 0 && parent[i] == p)
			acc += usage[i--];
		if (!given[p])
			usage[p] += acc;
	}
	t->sums_ok = true;
	return 0;
}

void sb__assoc_tree_level_norms(struct sb_assoc_tree *t)
{
	int i;

	if (t->level_norms_ok)
		return;
	t->shares_norm[0] = 0.0;
	for (i = 1; i < t->n; i++)
		t->shares_norm[i] = sb__fs_norm_level(t, i);
	t->level_norms_ok = true;
}

int sb_assoc_tree_rollup(sb_assoc_tree_t *t)
{
	if (!t) {
		errno = EINVAL;
		return -1;
	}
	return sb__assoc_tree_prepare(t);
}

/* ---- invariant checker ------------------------------------------------ */

#define CHECK(cond) do { if (!(cond)) goto bad; } while (0)

int sb_assoc_tree_check(const sb_assoc_tree_t *t)
{
	long double *sum = NULL;
	int i, users = 0, entries = 0, summed = 0;
	size_t h;

	if (!t) {
		errno = EINVAL;
		return -1;
	}
	CHECK(t->n >= 1 && t->n <= t->cap);
	CHECK(t->parent[0] == -1 && !t->is_user[0] && t->depth[0] == 0);
	CHECK(!strcmp(t->name[0], "root"));
	for (i = 0; i < t->n; i++) {
		int c, prev = -1, kids = 0;

		CHECK(t->name[i] && _valid_name(t->name[i]));
		if (i > 0) {
			int p = t->parent[i];

			CHECK(p >= 0 && p < i && !t->is_user[p]);
			CHECK(t->depth[i] == t->depth[p] + 1);
			CHECK(_valid_shares(t->shares[i]));
		}
		CHECK(_valid_usage(t->usage[i]));
		if (t->is_user[i]) {
			users++;
			CHECK(t->first_child[i] < 0 && t->last_child[i] < 0);
			CHECK(t->usage_given[i]);
		} else if (!t->usage_given[i]) {
			summed++;
		}
		for (c = t->first_child[i]; c >= 0; c = t->next_sibling[c]) {
			CHECK(c > i && c < t->n && t->parent[c] == i);
			CHECK(c > prev);
			prev = c;
			CHECK(++kids <= t->n);
		}
		CHECK(prev == t->last_child[i]);
		CHECK(t->hash[_hash_slot(t, _scope_of(t, i), t->name[i])] == i);
	}
	CHECK(users == t->n_users);
	CHECK(summed == t->n_summed);
	for (h = 0; h < t->hash_cap; h++)
		if (t->hash[h] >= 0)
			entries++;
	CHECK(entries == t->n);
	if (!t->layout_ok)
		return 0;

	/* Derived layout and sums, recomputed the slow way. */
	if (!(sum = calloc((size_t) t->n, sizeof(*sum)))) {
		errno = ENOMEM;
		return -1;
	}
	for (i = t->n - 1; i > 0; i--) {
		int f = t->parent[i], j, found = 0;

		while (f != SB_ASSOC_ROOT && t->shares[f] == SB_SHARES_PARENT)
			f = t->parent[f];
		CHECK(t->fs_parent[i] == f);
		for (j = 0; j < t->fs_count[f]; j++)
			if (t->fs_kids[t->fs_first[f] + j] == i)
				found++;
		CHECK(found == 1);
		CHECK(t->shares[i] != SB_SHARES_PARENT || t->is_user[i] ||
		      t->fs_count[i] == 0);
		if (t->usage_given[i])
			sum[i] = t->usage[i];
		sum[t->parent[i]] += sum[i];
	}
	for (i = 0; i < t->n; i++) {
		const int *kids = t->fs_kids + t->fs_first[i];
		int j;

		for (j = 1; j < t->fs_count[i]; j++)
			CHECK(kids[j - 1] < kids[j]);
		/* summed in another order: equal up to rounding */
		if (!t->usage_given[i] && t->sums_ok)
			CHECK(fabsl(sum[i] - t->usage[i]) <=
			      sum[i] * t->n * LDBL_EPSILON);
		if (i > 0) {
			int f = t->fs_parent[i];
			const int *sib = t->fs_kids + t->fs_first[f];
			int ns = t->fs_count[f];
			uint64_t s = 0;

			for (j = 0; j < ns; j++)
				if (t->shares[sib[j]] != SB_SHARES_PARENT)
					s += t->shares[sib[j]];
			CHECK(s == t->level_shares[i]);
		}
	}
	free(sum);
	return 0;
bad:
	free(sum);
	errno = EFAULT;
	return -1;
}
