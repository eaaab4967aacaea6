/*
 * bitmap.c - fixed-length bitmaps with word-at-a-time operations.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Bits live in 64-bit words, bit i in word i / 64 at position i % 64.
 * The bits of the last word beyond the size are always clear: that is
 * what lets count, equal, empty and the searches work on whole words
 * without masking, and sb_bitmap_check() verifies it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bitmap.h"

#define WBITS 64

struct sb_bitmap {
	size_t size;		/* bits */
	size_t nwords;		/* (size + 63) / 64 */
	uint64_t *w;		/* NULL iff nwords == 0 */
};

#if defined(__GNUC__) || defined(__clang__)
#define _popc(x) ((unsigned) __builtin_popcountll(x))
#define _clz(x) ((unsigned) __builtin_clzll(x))
#else
/* Portable fallbacks; still word-parallel (SWAR), no per-bit loops. */
static unsigned _popc(uint64_t x)
{
	x = x - ((x >> 1) & 0x5555555555555555ULL);
	x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
	return (unsigned) ((x * 0x0101010101010101ULL) >> 56);
}

static unsigned _clz(uint64_t x)
{
	x |= x >> 1;
	x |= x >> 2;
	x |= x >> 4;
	x |= x >> 8;
	x |= x >> 16;
	x |= x >> 32;
	return 64 - _popc(x);
}
#endif
/* Lowest set bit: bitmap.h's, shared with callers that walk words. */
#define _ctz(x) sb_bitmap_word_ctz(x)

static size_t _words_for(size_t size)
{
	return size / WBITS + (size % WBITS != 0);
}

/* Mask of the valid bits of the last word (all ones if it is full). */
static uint64_t _tail_mask(size_t size)
{
	unsigned r = size % WBITS;

	return r ? (UINT64_C(1) << r) - 1 : ~UINT64_C(0);
}

/* Bits at and above position p of a word, and at and below it. */
static uint64_t _mask_from(unsigned p)
{
	return ~UINT64_C(0) << p;
}

static uint64_t _mask_upto(unsigned p)
{
	return ~UINT64_C(0) >> (WBITS - 1 - p);
}

static void _clear_tail(sb_bitmap_t *b)
{
	if (b->nwords)
		b->w[b->nwords - 1] &= _tail_mask(b->size);
}

sb_bitmap_t *sb_bitmap_alloc(size_t size)
{
	sb_bitmap_t *b;
	size_t nw = _words_for(size);

	if (nw > SIZE_MAX / sizeof(uint64_t)) {
		errno = EOVERFLOW;
		return NULL;
	}
	if (!(b = malloc(sizeof(*b))))
		return NULL;
	b->size = size;
	b->nwords = nw;
	b->w = NULL;
	if (nw && !(b->w = calloc(nw, sizeof(uint64_t)))) {
		free(b);
		return NULL;
	}
	return b;
}

sb_bitmap_t *sb_bitmap_dup(const sb_bitmap_t *b)
{
	sb_bitmap_t *d;

	if (!b) {
		errno = EINVAL;
		return NULL;
	}
	if (!(d = sb_bitmap_alloc(b->size)))
		return NULL;
	if (b->nwords)
		memcpy(d->w, b->w, b->nwords * sizeof(uint64_t));
	return d;
}

void sb_bitmap_free(sb_bitmap_t *b)
{
	if (!b)
		return;
	free(b->w);
	free(b);
}

int sb_bitmap_resize(sb_bitmap_t *b, size_t size)
{
	size_t nw = _words_for(size);
	uint64_t *w;

	if (!b) {
		errno = EINVAL;
		return -1;
	}
	if (nw > SIZE_MAX / sizeof(uint64_t)) {
		errno = ENOMEM;
		return -1;
	}
	if (nw == 0) {
		free(b->w);
		b->w = NULL;
	} else if (nw != b->nwords) {
		w = realloc(b->w, nw * sizeof(uint64_t));
		if (!w) {
			/* A failed shrink can keep the larger block. */
			if (nw > b->nwords)
				return -1;
			w = b->w;
		}
		if (nw > b->nwords)
			memset(w + b->nwords, 0,
			       (nw - b->nwords) * sizeof(uint64_t));
		b->w = w;
	}
	b->nwords = nw;
	b->size = size;
	/* Shrinking leaves stale bits above the new size in the last word. */
	_clear_tail(b);
	return 0;
}

size_t sb_bitmap_size(const sb_bitmap_t *b)
{
	return b ? b->size : 0;
}

static int _bad_index(const sb_bitmap_t *b, size_t i)
{
	if (!b) {
		errno = EINVAL;
		return 1;
	}
	if (i >= b->size) {
		errno = ERANGE;
		return 1;
	}
	return 0;
}

int sb_bitmap_set(sb_bitmap_t *b, size_t i)
{
	if (_bad_index(b, i))
		return -1;
	b->w[i / WBITS] |= UINT64_C(1) << (i % WBITS);
	return 0;
}

int sb_bitmap_clear(sb_bitmap_t *b, size_t i)
{
	if (_bad_index(b, i))
		return -1;
	b->w[i / WBITS] &= ~(UINT64_C(1) << (i % WBITS));
	return 0;
}

int sb_bitmap_test(const sb_bitmap_t *b, size_t i)
{
	if (_bad_index(b, i))
		return -1;
	return (int) ((b->w[i / WBITS] >> (i % WBITS)) & 1);
}

static int _bad_range(const sb_bitmap_t *b, size_t first, size_t last)
{
	if (!b || first > last) {
		errno = EINVAL;
		return 1;
	}
	if (last >= b->size) {
		errno = ERANGE;
		return 1;
	}
	return 0;
}

/* Apply a set (on) or clear to [first, last], already validated. */
static void _range(sb_bitmap_t *b, size_t first, size_t last, int on)
{
	size_t lw = first / WBITS, hw = last / WBITS, i;
	uint64_t lo = _mask_from(first % WBITS), hi = _mask_upto(last % WBITS);

	if (lw == hw) {
		lo &= hi;
		if (on)
			b->w[lw] |= lo;
		else
			b->w[lw] &= ~lo;
		return;
	}
	if (on) {
		b->w[lw] |= lo;
		for (i = lw + 1; i < hw; i++)
			b->w[i] = ~UINT64_C(0);
		b->w[hw] |= hi;
	} else {
		b->w[lw] &= ~lo;
		for (i = lw + 1; i < hw; i++)
			b->w[i] = 0;
		b->w[hw] &= ~hi;
	}
}

int sb_bitmap_set_range(sb_bitmap_t *b, size_t first, size_t last)
{
	if (_bad_range(b, first, last))
		return -1;
	_range(b, first, last, 1);
	return 0;
}

int sb_bitmap_clear_range(sb_bitmap_t *b, size_t first, size_t last)
{
	if (_bad_range(b, first, last))
		return -1;
	_range(b, first, last, 0);
	return 0;
}

void sb_bitmap_set_all(sb_bitmap_t *b)
{
	if (!b || !b->nwords)
		return;
	memset(b->w, 0xff, b->nwords * sizeof(uint64_t));
	_clear_tail(b);
}

void sb_bitmap_clear_all(sb_bitmap_t *b)
{
	if (!b || !b->nwords)
		return;
	memset(b->w, 0, b->nwords * sizeof(uint64_t));
}

static int _bad_pair(const sb_bitmap_t *a, const sb_bitmap_t *b)
{
	if (!a || !b || a->size != b->size) {
		errno = EINVAL;
		return 1;
	}
	return 0;
}

int sb_bitmap_copy(sb_bitmap_t *dst, const sb_bitmap_t *src)
{
	if (_bad_pair(dst, src))
		return -1;
	if (dst != src && dst->nwords)
		memcpy(dst->w, src->w, dst->nwords * sizeof(uint64_t));
	return 0;
}

/* dst[0..dn) = src[0..sn), zero-filled when dn > sn. */
static void _copy_words(uint64_t *dst, size_t dn, const uint64_t *src,
			size_t sn)
{
	size_t n = sn < dn ? sn : dn;

	if (n)
		memcpy(dst, src, n * sizeof(uint64_t));
	if (dn > n)
		memset(dst + n, 0, (dn - n) * sizeof(uint64_t));
}

int sb_bitmap_load_words(sb_bitmap_t *b, const uint64_t *words,
			 size_t nwords)
{
	if (!b || (!words && nwords)) {
		errno = EINVAL;
		return -1;
	}
	_copy_words(b->w, b->nwords, words, nwords);
	_clear_tail(b);
	return 0;
}

int sb_bitmap_store_words(const sb_bitmap_t *b, uint64_t *words,
			  size_t nwords)
{
	if (!b || (!words && nwords)) {
		errno = EINVAL;
		return -1;
	}
	_copy_words(words, nwords, b->w, b->nwords);
	return 0;
}

int sb_bitmap_and(sb_bitmap_t *dst, const sb_bitmap_t *src)
{
	size_t i;

	if (_bad_pair(dst, src))
		return -1;
	for (i = 0; i < dst->nwords; i++)
		dst->w[i] &= src->w[i];
	return 0;
}

int sb_bitmap_or(sb_bitmap_t *dst, const sb_bitmap_t *src)
{
	size_t i;

	if (_bad_pair(dst, src))
		return -1;
	for (i = 0; i < dst->nwords; i++)
		dst->w[i] |= src->w[i];
	return 0;
}

int sb_bitmap_andnot(sb_bitmap_t *dst, const sb_bitmap_t *src)
{
	size_t i;

	if (_bad_pair(dst, src))
		return -1;
	for (i = 0; i < dst->nwords; i++)
		dst->w[i] &= ~src->w[i];
	return 0;
}

/* Both operands keep the bits past size clear, so the result does too. */
int sb_bitmap_xor(sb_bitmap_t *dst, const sb_bitmap_t *src)
{
	size_t i;

	if (_bad_pair(dst, src))
		return -1;
	for (i = 0; i < dst->nwords; i++)
		dst->w[i] ^= src->w[i];
	return 0;
}

int sb_bitmap_not(sb_bitmap_t *dst)
{
	size_t i;

	if (!dst) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < dst->nwords; i++)
		dst->w[i] = ~dst->w[i];
	_clear_tail(dst);
	return 0;
}

size_t sb_bitmap_count(const sb_bitmap_t *b)
{
	size_t i, n = 0;

	if (!b)
		return 0;
	for (i = 0; i < b->nwords; i++)
		n += _popc(b->w[i]);
	return n;
}

int64_t sb_bitmap_count_range(const sb_bitmap_t *b, size_t first,
			      size_t last)
{
	size_t lw, hw, i;
	uint64_t lo, hi;
	int64_t n;

	if (_bad_range(b, first, last))
		return -1;
	lw = first / WBITS;
	hw = last / WBITS;
	lo = _mask_from(first % WBITS);
	hi = _mask_upto(last % WBITS);
	if (lw == hw)
		return _popc(b->w[lw] & lo & hi);
	n = _popc(b->w[lw] & lo) + _popc(b->w[hw] & hi);
	for (i = lw + 1; i < hw; i++)
		n += _popc(b->w[i]);
	return n;
}

int64_t sb_bitmap_count_and(const sb_bitmap_t *a, const sb_bitmap_t *b)
{
	size_t i;
	int64_t n = 0;

	if (_bad_pair(a, b))
		return -1;
	for (i = 0; i < a->nwords; i++)
		n += _popc(a->w[i] & b->w[i]);
	return n;
}

int sb_bitmap_empty(const sb_bitmap_t *b)
{
	size_t i;

	if (!b)
		return 1;
	for (i = 0; i < b->nwords; i++)
		if (b->w[i])
			return 0;
	return 1;
}

/*
 * Lowest index >= from whose bit equals @want, or b->size if none. The
 * clear search inverts each word; the inverted tail bits of the last
 * word look clear, hence the final bound check.
 */
static size_t _next(const sb_bitmap_t *b, size_t from, int want)
{
	size_t wi;
	uint64_t x, flip = want ? 0 : ~UINT64_C(0);
	size_t r;

	if (from >= b->size)
		return b->size;
	wi = from / WBITS;
	x = (b->w[wi] ^ flip) & _mask_from(from % WBITS);
	while (!x) {
		if (++wi == b->nwords)
			return b->size;
		x = b->w[wi] ^ flip;
	}
	r = wi * WBITS + _ctz(x);
	return r < b->size ? r : b->size;
}

static int64_t _found(const sb_bitmap_t *b, size_t r)
{
	if (r >= b->size) {
		errno = ENOENT;
		return -1;
	}
	return (int64_t) r;
}

int64_t sb_bitmap_next_set(const sb_bitmap_t *b, size_t from)
{
	if (!b) {
		errno = EINVAL;
		return -1;
	}
	return _found(b, _next(b, from, 1));
}

int64_t sb_bitmap_first_set(const sb_bitmap_t *b)
{
	return sb_bitmap_next_set(b, 0);
}

int64_t sb_bitmap_next_clear(const sb_bitmap_t *b, size_t from)
{
	if (!b) {
		errno = EINVAL;
		return -1;
	}
	return _found(b, _next(b, from, 0));
}

int64_t sb_bitmap_first_clear(const sb_bitmap_t *b)
{
	return sb_bitmap_next_clear(b, 0);
}

int64_t sb_bitmap_prev_set(const sb_bitmap_t *b, size_t from)
{
	size_t wi;
	uint64_t x;

	if (!b) {
		errno = EINVAL;
		return -1;
	}
	if (!b->size) {
		errno = ENOENT;
		return -1;
	}
	if (from >= b->size)
		from = b->size - 1;
	wi = from / WBITS;
	x = b->w[wi] & _mask_upto(from % WBITS);
	while (!x) {
		if (wi == 0) {
			errno = ENOENT;
			return -1;
		}
		x = b->w[--wi];
	}
	return (int64_t) (wi * WBITS + (WBITS - 1 - _clz(x)));
}

int64_t sb_bitmap_last_set(const sb_bitmap_t *b)
{
	return sb_bitmap_prev_set(b, SIZE_MAX);
}

/*
 * Shared body of pick and take. Whole words are taken with one OR while
 * they fit; only the last, partial word is peeled one set bit at a time.
 */
static int64_t _pick(sb_bitmap_t *src_rw, const sb_bitmap_t *src, size_t n,
		     sb_bitmap_t *dst)
{
	size_t wi, left = n;
	uint64_t x, got, low;
	unsigned c;

	if (_bad_pair(src, dst) || src == dst) {
		errno = EINVAL;
		return -1;
	}
	for (wi = 0; wi < src->nwords && left; wi++) {
		if (!(x = src->w[wi]))
			continue;
		c = _popc(x);
		if (c <= left) {
			got = x;
			left -= c;
		} else {
			got = 0;
			while (left) {
				low = x & (~x + 1);
				got |= low;
				x ^= low;
				left--;
			}
		}
		dst->w[wi] |= got;
		if (src_rw)
			src_rw->w[wi] &= ~got;
	}
	return (int64_t) (n - left);
}

int64_t sb_bitmap_pick(const sb_bitmap_t *src, size_t n, sb_bitmap_t *dst)
{
	return _pick(NULL, src, n, dst);
}

int64_t sb_bitmap_take(sb_bitmap_t *src, size_t n, sb_bitmap_t *dst)
{
	return _pick(src, src, n, dst);
}

int sb_bitmap_equal(const sb_bitmap_t *a, const sb_bitmap_t *b)
{
	if (!a || !b)
		return a == b;
	if (a->size != b->size)
		return 0;
	return !a->nwords ||
	       !memcmp(a->w, b->w, a->nwords * sizeof(uint64_t));
}

int sb_bitmap_subset(const sb_bitmap_t *a, const sb_bitmap_t *b)
{
	size_t i;

	if (_bad_pair(a, b))
		return -1;
	for (i = 0; i < a->nwords; i++)
		if (a->w[i] & ~b->w[i])
			return 0;
	return 1;
}

int sb_bitmap_intersects(const sb_bitmap_t *a, const sb_bitmap_t *b)
{
	size_t i;

	if (_bad_pair(a, b))
		return -1;
	for (i = 0; i < a->nwords; i++)
		if (a->w[i] & b->w[i])
			return 1;
	return 0;
}

/* Append the decimal form of v to s at *len (room is guaranteed). */
static void _put_num(char *s, size_t *len, size_t v)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = (char) ('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		s[(*len)++] = tmp[--n];
}

char *sb_bitmap_fmt(const sb_bitmap_t *b)
{
	/* One run needs at most two 20-digit numbers, '-' and ','. */
	enum { RUN_MAX = 2 * 20 + 2 };
	size_t cap = 64, len = 0, first, last;
	char *s, *t;

	if (!b) {
		errno = EINVAL;
		return NULL;
	}
	if (!(s = malloc(cap)))
		return NULL;
	first = _next(b, 0, 1);
	while (first < b->size) {
		last = _next(b, first, 0) - 1;
		if (len + RUN_MAX + 1 > cap) {
			if (!(t = realloc(s, cap * 2))) {
				free(s);
				return NULL;
			}
			s = t;
			cap *= 2;
		}
		if (len)
			s[len++] = ',';
		_put_num(s, &len, first);
		if (last > first) {
			s[len++] = '-';
			_put_num(s, &len, last);
		}
		first = _next(b, last + 1, 1);
	}
	s[len] = '\0';
	return s;
}

/*
 * Read a decimal number at s[*pos]. Returns 0 and the value (saturated
 * at SIZE_MAX), or -1 if there is no digit there.
 */
static int _get_num(const char *s, size_t *pos, size_t *val)
{
	size_t v = 0, p = *pos;

	if (s[p] < '0' || s[p] > '9')
		return -1;
	for (; s[p] >= '0' && s[p] <= '9'; p++) {
		size_t d = (size_t) (s[p] - '0');

		v = (v > (SIZE_MAX - d) / 10) ? SIZE_MAX : v * 10 + d;
	}
	*pos = p;
	*val = v;
	return 0;
}

sb_bitmap_t *sb_bitmap_parse(const char *s, size_t size, size_t *errpos)
{
	sb_bitmap_t *b;
	size_t p = 0, at = 0, first, last;
	int err = 0;

	if (!s) {
		errno = EINVAL;
		return NULL;
	}
	if (!(b = sb_bitmap_alloc(size)))
		return NULL;
	while (s[p]) {
		at = p;
		if (_get_num(s, &p, &first)) {
			err = EINVAL;
			break;
		}
		last = first;
		if (s[p] == '-') {
			p++;
			if (_get_num(s, &p, &last)) {
				at = p;
				err = EINVAL;
				break;
			}
		}
		if (first > last) {
			err = EINVAL;
			break;
		}
		if (last >= size) {
			if (first < size) {
				/* Point at the number that is too big. */
				at = (size_t) (strchr(s + at, '-') - s) + 1;
			}
			err = ERANGE;
			break;
		}
		_range(b, first, last, 1);
		if (s[p] == ',') {
			p++;
			if (!s[p]) {
				at = p;
				err = EINVAL;
				break;
			}
		} else if (s[p]) {
			at = p;
			err = EINVAL;
			break;
		}
	}
	if (err) {
		sb_bitmap_free(b);
		if (errpos)
			*errpos = at;
		errno = err;
		return NULL;
	}
	return b;
}

int sb_bitmap_check(const sb_bitmap_t *b)
{
	if (!b) {
		errno = EINVAL;
		return -1;
	}
	if (b->nwords != _words_for(b->size) || (b->nwords && !b->w) ||
	    (!b->nwords && b->w) ||
	    (b->nwords && (b->w[b->nwords - 1] & ~_tail_mask(b->size)))) {
		errno = EFAULT;
		return -1;
	}
	return 0;
}
