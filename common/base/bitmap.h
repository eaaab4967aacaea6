/*
 * bitmap.h - fixed-length bitmaps with word-at-a-time operations.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A bitmap is a set of indices in [0, size). Node buckets keep one bit per
 * node, so every operation here is done 64 bits at a time (popcount and
 * count-trailing-zeros on whole words); nothing loops over single bits
 * except where it must visit each set bit it returns.
 *
 * Operations (n = size in bits, w = n / 64 words, k = bits visited):
 *
 *   lifecycle   sb_bitmap_alloc        O(w)      new, all clear
 *               sb_bitmap_dup          O(w)      copy into a new bitmap
 *               sb_bitmap_free         O(1)      NULL is fine
 *               sb_bitmap_resize       O(w)      grow (new bits clear) or cut
 *               sb_bitmap_size         O(1)
 *   single bit  sb_bitmap_set / clear / test      O(1)
 *   ranges      sb_bitmap_set_range / clear_range O(w)
 *               sb_bitmap_set_all / clear_all     O(w)
 *   logic       sb_bitmap_copy / and / or / andnot / xor / not   O(w)
 *   counting    sb_bitmap_count        O(w)      popcount of the whole map
 *               sb_bitmap_count_range  O(w)      popcount of [first, last]
 *               sb_bitmap_count_and    O(w)      popcount of a & b, no copy
 *               sb_bitmap_empty        O(w)
 *   search      sb_bitmap_first_set / next_set     O(w) worst case
 *               sb_bitmap_first_clear / next_clear O(w) worst case
 *               sb_bitmap_last_set / prev_set      O(w) worst case
 *   picking     sb_bitmap_pick         O(w + k)  dst |= first n set bits
 *               sb_bitmap_take         O(w + k)  move first n set bits
 *   words       sb_bitmap_load_words / store_words  O(w)
 *               sb_bitmap_word_ctz     O(1)      lowest set bit of a word
 *   compare     sb_bitmap_equal        O(w)
 *               sb_bitmap_subset       O(w)
 *               sb_bitmap_intersects   O(w)
 *   text        sb_bitmap_fmt          O(w + runs)  "0-63,79-97"
 *               sb_bitmap_parse        O(len + w)
 *   invariant   sb_bitmap_check        O(1)
 *
 * Conventions: functions that can fail return -1 (or NULL) and set errno;
 * a failed call changes nothing. Two-bitmap operations require equal sizes
 * (EINVAL otherwise). Index-returning searches return -1 with errno ENOENT
 * when there is no such bit, so the usual loop is
 *
 *	for (i = sb_bitmap_first_set(b); i >= 0;
 *	     i = sb_bitmap_next_set(b, i + 1))
 *
 * Bitmaps are not thread-safe; callers serialise access to one bitmap.
 */
#ifndef SB_BITMAP_H
#define SB_BITMAP_H

#include <stddef.h>
#include <stdint.h>

/* Opaque: the word layout is private to bitmap.c. */
typedef struct sb_bitmap sb_bitmap_t;

/*
 * Allocate a bitmap of @size bits, all clear. @size may be 0.
 * Returns the bitmap, or NULL with errno ENOMEM (or EOVERFLOW when @size
 * cannot be represented in memory). O(size / 64).
 */
sb_bitmap_t *sb_bitmap_alloc(size_t size);

/* A new bitmap equal to @b. NULL with EINVAL (b NULL) or ENOMEM. O(w). */
sb_bitmap_t *sb_bitmap_dup(const sb_bitmap_t *b);

/* Release @b. NULL is accepted and ignored. O(1). */
void sb_bitmap_free(sb_bitmap_t *b);

/*
 * Change the size of @b to @size bits. Growing adds clear bits; shrinking
 * drops the bits at and above @size. Returns 0, or -1 with errno EINVAL
 * (b NULL) or ENOMEM (b unchanged). O(w).
 */
int sb_bitmap_resize(sb_bitmap_t *b, size_t size);

/* Number of bits in @b (0 for NULL). O(1). */
size_t sb_bitmap_size(const sb_bitmap_t *b);

/*
 * Set, clear or test bit @i. set/clear return 0; test returns 1 if set,
 * 0 if clear. All return -1 with errno EINVAL (b NULL) or ERANGE
 * (i >= size). O(1).
 */
int sb_bitmap_set(sb_bitmap_t *b, size_t i);
int sb_bitmap_clear(sb_bitmap_t *b, size_t i);
int sb_bitmap_test(const sb_bitmap_t *b, size_t i);

/*
 * Set or clear every bit in the inclusive range [@first, @last].
 * Returns 0, or -1 with errno EINVAL (b NULL, first > last) or ERANGE
 * (last >= size). O(w).
 */
int sb_bitmap_set_range(sb_bitmap_t *b, size_t first, size_t last);
int sb_bitmap_clear_range(sb_bitmap_t *b, size_t first, size_t last);

/* Set or clear every bit. NULL is ignored. O(w). */
void sb_bitmap_set_all(sb_bitmap_t *b);
void sb_bitmap_clear_all(sb_bitmap_t *b);

/*
 * dst = src, dst &= src, dst |= src, dst &= ~src, dst ^= src (the bits
 * that differ), dst = ~dst.
 * Return 0, or -1 with errno EINVAL (NULL argument or sizes differ).
 * O(w). dst and src may be the same bitmap.
 */
int sb_bitmap_copy(sb_bitmap_t *dst, const sb_bitmap_t *src);
int sb_bitmap_and(sb_bitmap_t *dst, const sb_bitmap_t *src);
int sb_bitmap_or(sb_bitmap_t *dst, const sb_bitmap_t *src);
int sb_bitmap_andnot(sb_bitmap_t *dst, const sb_bitmap_t *src);
int sb_bitmap_xor(sb_bitmap_t *dst, const sb_bitmap_t *src);
int sb_bitmap_not(sb_bitmap_t *dst);

/*
 * Exchange the bits with a plain array of 64-bit words, bit i in
 * words[i / 64] at bit (i % 64) counted from the least significant: the
 * layout of other libraries' bitmaps (the select plugin reads Slurm's
 * bitstr_t this way, a word at a time instead of a bit at a time).
 * load: @b takes the bits of @words[0..nwords); bits at or beyond the
 * size are ignored, words missing at the end count as zero.
 * store: @words[0..nwords) gets @b's bits, zero beyond its size.
 * Return 0, or -1 with errno EINVAL (b NULL, or words NULL with nwords
 * > 0). O(w + nwords).
 */
int sb_bitmap_load_words(sb_bitmap_t *b, const uint64_t *words,
			 size_t nwords);
int sb_bitmap_store_words(const sb_bitmap_t *b, uint64_t *words,
			  size_t nwords);

/*
 * The position (0 to 63) of the lowest set bit of the word @x, which must
 * not be 0 (the result is undefined then). With sb_bitmap_store_words(),
 * a loop visits the set bits of bitmaps combined word by word, without a
 * call per bit, e.g. the bits of a & b:
 *
 *	for (k = 0; k < nwords; k++)
 *		for (x = aw[k] & bw[k]; x; x &= x - 1)
 *			visit(k * 64 + sb_bitmap_word_ctz(x));
 *
 * Inline: it is a single instruction where the compiler has one. O(1).
 */
static inline unsigned sb_bitmap_word_ctz(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
	return (unsigned) __builtin_ctzll(x);
#else
	unsigned n = 0, half;

	/* Halve the window while the lowest set bit is not in its low half. */
	for (half = 32; half; half /= 2)
		if (!(x & ((UINT64_C(1) << half) - 1))) {
			n += half;
			x >>= half;
		}
	return n;
#endif
}

/* Number of set bits in @b (0 for NULL). O(w). */
size_t sb_bitmap_count(const sb_bitmap_t *b);

/*
 * Number of set bits in the inclusive range [@first, @last], or -1 with
 * errno EINVAL (b NULL, first > last) or ERANGE (last >= size). O(w).
 */
int64_t sb_bitmap_count_range(const sb_bitmap_t *b, size_t first,
			      size_t last);

/*
 * Number of bits set in both @a and @b, without building a & b; -1 with
 * EINVAL (NULL argument or sizes differ). O(w).
 */
int64_t sb_bitmap_count_and(const sb_bitmap_t *a, const sb_bitmap_t *b);

/* 1 if no bit is set (or b is NULL), else 0. O(w). */
int sb_bitmap_empty(const sb_bitmap_t *b);

/*
 * Lowest set (clear) bit at index >= @from; first_* start at 0. Returns
 * the index, or -1 with errno ENOENT when there is none (including
 * from >= size) or EINVAL (b NULL). O(w) worst case, O(1) when the
 * answer is in the same word as @from.
 */
int64_t sb_bitmap_first_set(const sb_bitmap_t *b);
int64_t sb_bitmap_next_set(const sb_bitmap_t *b, size_t from);
int64_t sb_bitmap_first_clear(const sb_bitmap_t *b);
int64_t sb_bitmap_next_clear(const sb_bitmap_t *b, size_t from);

/*
 * Highest set bit (at index <= @from for prev_set; a @from beyond the end
 * means "from the last bit"). Returns the index, or -1 with errno ENOENT
 * (none) or EINVAL (b NULL). O(w) worst case.
 */
int64_t sb_bitmap_last_set(const sb_bitmap_t *b);
int64_t sb_bitmap_prev_set(const sb_bitmap_t *b, size_t from);

/*
 * Set in @dst the @n lowest set bits of @src (fewer if @src has fewer);
 * @src is unchanged. Returns the number of bits picked, or -1 with errno
 * EINVAL (NULL argument, sizes differ, or src == dst). O(w + n).
 */
int64_t sb_bitmap_pick(const sb_bitmap_t *src, size_t n, sb_bitmap_t *dst);

/*
 * Like sb_bitmap_pick(), but also clears the picked bits in @src: moves
 * up to @n of the lowest set bits from @src to @dst. Returns the number
 * moved, or -1 with errno EINVAL. O(w + n).
 */
int64_t sb_bitmap_take(sb_bitmap_t *src, size_t n, sb_bitmap_t *dst);

/*
 * 1 if @a and @b have the same size and the same bits, else 0
 * (two NULLs are equal). O(w).
 */
int sb_bitmap_equal(const sb_bitmap_t *a, const sb_bitmap_t *b);

/*
 * 1 if every bit of @a is set in @b (a subset of b), 0 if not; -1 with
 * EINVAL (NULL argument or sizes differ). O(w).
 */
int sb_bitmap_subset(const sb_bitmap_t *a, const sb_bitmap_t *b);

/*
 * 1 if @a and @b share a set bit, 0 if not; -1 with EINVAL (NULL
 * argument or sizes differ). O(w).
 */
int sb_bitmap_intersects(const sb_bitmap_t *a, const sb_bitmap_t *b);

/*
 * The canonical text form of @b: ascending, comma-separated runs, a run
 * of one bit as "7", a longer run as "first-last", e.g. "0-63,79-97".
 * The empty set is "". Returns a string to free(), or NULL with errno
 * EINVAL (b NULL) or ENOMEM. O(w + runs).
 */
char *sb_bitmap_fmt(const sb_bitmap_t *b);

/*
 * Parse @s into a new bitmap of @size bits. Accepts the canonical form
 * and also unsorted, overlapping or adjacent runs ("5,1-3,2"); no spaces,
 * no signs, decimal only. Returns the bitmap, or NULL with errno EINVAL
 * (syntax error, or a run with first > last) or ERANGE (an index >=
 * size) or ENOMEM. On EINVAL/ERANGE, if @errpos is not NULL it receives
 * the offset in @s of the offending character or number. O(len + w).
 */
sb_bitmap_t *sb_bitmap_parse(const char *s, size_t size, size_t *errpos);

/*
 * Verify the internal invariants of @b: the word count matches the size,
 * storage exists when the size is not zero, and every bit beyond the size
 * in the last word is clear (so whole-word popcounts are exact). Returns
 * 0, or -1 with errno EFAULT (broken) or EINVAL (b NULL). O(1).
 */
int sb_bitmap_check(const sb_bitmap_t *b);

#endif /* SB_BITMAP_H */
