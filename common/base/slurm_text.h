/*
 * slurm_text.h - what Slurm's commands print, read back: the one-line
 * records of 'scontrol show nodes|jobs|res|partition -o', the "Key =
 * Value" lines of 'scontrol show config', and the time and
 * memory values inside them.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A record is a line of fields "Key=Value" separated by blanks. A field
 * starts at a token whose text before its first '=' is a key: a capital
 * letter followed by letters, digits and "_/:" ("NodeName",
 * "CPUs/Task", "AllocNode:Sid", "ReqB:S:C:T"). Any other token belongs to
 * the value before it, with the blanks between them ("OS=Linux 6.1.0
 * #1 SMP", "Reason=not responding [root@...]"), so free-text values keep
 * their blanks. Free text that itself holds " Key=..." would start a
 * field: when a key appears twice, the first one counts, and
 * sb_record_repeated() names it. scontrol prints each key once, so a
 * repeat is text that holds " Key=": a reader of records whose text a
 * user writes (a job's name, comment, paths) refuses such a record
 * (tools/cluster/sbucket_cluster_jobs_text.c).
 *
 * Times are scontrol's default form "YYYY-MM-DDTHH:MM:SS" in local time
 * (callers run Slurm's commands with SLURM_TIME_FORMAT=standard); memory
 * a number with an optional K, M, G, T or P suffix (powers of 1024, MB by
 * default). Durations are sbatch's --time forms, which 'sbucket place'
 * already reads (tools/input/sbucket_input_jobs.h).
 *
 * Operations (L = line length, K = fields):
 *   sb_record_parse        O(L)
 *   sb_record_parse_cached O(L): matching the cache's key sets is O(L)
 *                          each, and there are at most
 *                          SB_RECORD_CACHE_SETS of them
 *   sb_record_get          O(K)
 *   sb_record_value        O(K)
 *   sb_record_count / key_at / value_at   O(1)
 *   sb_record_repeated     O(1)
 *   sb_record_free         O(1)
 *   sb_record_cache_fini   O(1)
 *   sb_record_check        O(K L)
 *   sb_config_line         O(L)
 *   sb_slurm_time          O(1)
 *   sb_slurm_mem           O(1)
 *   sb_slurm_mem_option    O(1)
 *   sb_licenses_parse      O(L + k), k pairs
 *   sb_licenses_free       O(k)
 */
#ifndef SB_SLURM_TEXT_H
#define SB_SLURM_TEXT_H

#include <stddef.h>
#include <stdint.h>

typedef struct sb_record sb_record_t;

/*
 * Cut @line (one record; a trailing newline is ignored) into its
 * fields. Returns a new record (it keeps its own copy of the text), or
 * NULL with errno EINVAL (NULL line, or a line that does not start with
 * a field) or ENOMEM.
 */
sb_record_t *sb_record_parse(const char *line);

/*
 * The key sets that records parsed with one cache share: a record's
 * keys and the table that finds them are kept once per distinct
 * sequence of keys, not once per record, and the record keeps only its
 * values, so a job of 'scontrol show jobs -o' takes a quarter of the
 * memory and sb_record_get() finds a key in a table that stays in the
 * processor's cache. The cache keeps the SB_RECORD_CACHE_SETS sequences
 * seen last (jobs pending, running, in an array print different keys)
 * and a buffer the line is cut in. Start it as SB_RECORD_CACHE_INIT (or
 * zeroed), end it with sb_record_cache_fini(); records outlive it. The
 * sets are counted without atomics: a cache and the records parsed
 * with it are used (and freed) by one thread at a time.
 */
#define SB_RECORD_CACHE_SETS 8

typedef struct {
	struct sb_record_keys *keys[SB_RECORD_CACHE_SETS]; /* most recent
							    * first */
	size_t n;
	char *buf;		/* the line being cut */
	size_t buf_room;
	uint32_t *off;		/* its fields' offsets in buf */
	size_t off_room;
} sb_record_cache_t;

#define SB_RECORD_CACHE_INIT { { NULL }, 0, NULL, 0, NULL, 0 }

/*
 * As sb_record_parse(), sharing the keys with the records of @cache
 * (NULL: none) that have the same keys in the same order. Same returns.
 */
sb_record_t *sb_record_parse_cached(const char *line,
				    sb_record_cache_t *cache);

/*
 * Release @cache's key sets (records parsed with it keep theirs) and
 * buffers; @cache may be used again. NULL is fine.
 */
void sb_record_cache_fini(sb_record_cache_t *cache);

/* Free @r; NULL is fine. */
void sb_record_free(sb_record_t *r);

/*
 * The value of @key (exact, case-sensitive) as printed, blanks at its
 * ends removed; "" for "Key=". NULL with errno ENOENT when the record has
 * no such field (EINVAL for NULL arguments).
 */
const char *sb_record_get(const sb_record_t *r, const char *key);

/*
 * As sb_record_get(), but NULL (errno ENOENT) also for Slurm's ways of
 * printing "nothing": "", "(null)" and "N/A".
 */
const char *sb_record_value(const sb_record_t *r, const char *key);

/*
 * The first key @r's line had more than once (its first copy is the one
 * sb_record_get() returns, the others are dropped), or NULL when none
 * repeats (or @r is NULL).
 */
const char *sb_record_repeated(const sb_record_t *r);

/* The number of fields, and field @i's key and value (i < count). */
size_t sb_record_count(const sb_record_t *r);
const char *sb_record_key_at(const sb_record_t *r, size_t i);
const char *sb_record_value_at(const sb_record_t *r, size_t i);

/*
 * Verify @r: at least one field, every key well-formed and its value
 * free of blanks at the ends, no key twice. 0, or -1 with errno EFAULT
 * (EINVAL for NULL).
 */
int sb_record_check(const sb_record_t *r);

/*
 * Split a 'scontrol show config' line "Key    = Value" in place: *key
 * and *value point into @line, blanks trimmed. Returns 0, or -1 with
 * errno ENOENT for a line without " = " (headings, blank lines), EINVAL
 * for NULL arguments.
 */
int sb_config_line(char *line, char **key, char **value);

/*
 * "2026-11-23T10:54:24" (local time) -> seconds since the epoch in *t.
 * Returns 0, or -1 with errno ENOENT for "Unknown", "None", "N/A", "" and
 * "(null)" (no time), EINVAL for anything else that is not such a time.
 */
int sb_slurm_time(const char *s, int64_t *t);

/*
 * "9000", "9000M", "2G", "512K" (rounded up to whole MB) -> MB in *mb.
 * Returns 0, or -1 with errno EINVAL (not a size) or ERANGE.
 */
int sb_slurm_mem(const char *s, uint64_t *mb);

/*
 * A size as sbatch's --mem, --tmp (and slurm.conf's RealMemory, TmpDisk)
 * take it: sb_slurm_mem()'s form, with the unit letter in either case
 * and no P (Slurm's str_to_mbytes()). Same returns.
 */
int sb_slurm_mem_option(const char *s, uint64_t *mb);

/* One licence of a list: a name and a count. */
typedef struct {
	char *name;
	int64_t count;		/* 0 .. INT32_MAX */
} sb_license_t;

/*
 * A licence list as slurm.conf's Licenses=, sbatch's -L/--licenses and
 * 'scontrol show job's Licenses= write it: "name[:count]" items joined
 * by ',' or ';' ("matlab:2,fluent", "a:1;b:2"); a bare name counts 1.
 * Into a new array *@out of *@n pairs (free with sb_licenses_free()),
 * in the order written, repeated names kept (Slurm adds them up; the
 * caller decides), zero counts kept. A name is at least one character,
 * none of them a blank, a control character or one of ",;:|=()".
 * Stricter than Slurm 22.05's reader (licenses.c,
 * _build_license_list), which skips empty items and reads "a:" as 0.
 * Returns 0, or -1 with errno and *@errpos (may be NULL) the offset in
 * @s of the item at fault:
 *   EINVAL   NULL s/out/n, an empty list or item, an empty name, a bad
 *            character in a name, a count that is not digits
 *   ERANGE   a count above INT32_MAX (Slurm's counts are int32_t)
 *   ENOTSUP  '|': an OR list ("a:4|b", any one of them, as later
 *            Slurm series read -L), which one count per name cannot
 *            describe
 *   ENOMEM
 * *out and *n are set only on success.
 */
int sb_licenses_parse(const char *s, sb_license_t **out, size_t *n,
		      size_t *errpos);

/* Free @n pairs of @v from sb_licenses_parse(); NULL is fine. */
void sb_licenses_free(sb_license_t *v, size_t n);

#endif /* SB_SLURM_TEXT_H */
