/*
 * json.h - JSON as Slurm's commands print it (squeue --json), read.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Slurm prints a whole queue as one JSON document, 5 to 9 KB a job: 100,000
 * jobs are most of a gigabyte. So the document is read from a stream and
 * walked from the outside (sb_json_object_next(), sb_json_array_next(),
 * sb_json_skip()), and only the values a caller wants, one job at a time,
 * become trees (sb_json_value()). Strings are bytes: UTF-8 is passed
 * through unchecked (json-c, which Slurm prints with, does the same), \u
 * escapes are written as UTF-8, a surrogate pair as one character. A job
 * name, a comment or a path is a string here and nothing else, whatever
 * it holds: that is why sbucket reads jobs from JSON where it can.
 *
 * Bounds: values nest at most SB_JSON_MAX_DEPTH deep, a string (or key)
 * holds at most SB_JSON_MAX_STRING bytes, a tree at most
 * SB_JSON_MAX_NODES values; past them the reader fails with EOVERFLOW.
 *
 * Errors: -1 or NULL with errno EINVAL (not JSON, or not what the call
 * expects; sb_json_error() says where: "line 3, byte 17: expected ','"),
 * EOVERFLOW (a bound), EIO (the read function failed; its errno is
 * lost), ENOMEM. After an error the reader is only good for
 * sb_json_error() and sb_json_reader_destroy().
 *
 * Operations (n: bytes read, k: members of one object or array):
 *   sb_json_reader_create / _mem   O(1)
 *   sb_json_reader_destroy        O(1)
 *   sb_json_object_begin / array_begin / object_next / array_next
 *                                 O(1) + the blanks and key read
 *   sb_json_peek                  O(1) + the blanks
 *   sb_json_skip, sb_json_value   O(n) of the value
 *   sb_json_end                   O(n) of what follows
 *   sb_json_error                 O(1)
 *   sb_json_parse                 O(n)
 *   sb_json_type / count / at / key_at / str / int / num / bool  O(1)
 *   sb_json_get                   O(k)
 *   sb_json_free                  O(values)
 *   sb_json_check                 O(values + bytes)
 *   sb_json_fmt                   O(values + bytes)
 */
#ifndef SB_JSON_H
#define SB_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define SB_JSON_MAX_DEPTH 64
#define SB_JSON_MAX_STRING (16u << 20)
#define SB_JSON_MAX_NODES (1u << 22)

typedef enum {
	SB_JSON_NULL,
	SB_JSON_BOOL,
	SB_JSON_NUMBER,
	SB_JSON_STRING,
	SB_JSON_ARRAY,
	SB_JSON_OBJECT,
} sb_json_type_t;

/* A value read into a tree. */
typedef struct sb_json sb_json_t;

/* A document being read. */
typedef struct sb_json_reader sb_json_reader_t;

/*
 * A reader of the bytes @fn(@arg, buf, n) hands over (up to n; 0 at the
 * end, -1 on an error). NULL with errno ENOMEM.
 */
sb_json_reader_t *sb_json_reader_create(ssize_t (*fn)(void *arg, char *buf,
						      size_t n), void *arg);

/* A reader of the @n bytes at @s (kept by the caller while it reads).
 * NULL with errno ENOMEM. */
sb_json_reader_t *sb_json_reader_mem(const char *s, size_t n);

/* Free @r; NULL is fine. */
void sb_json_reader_destroy(sb_json_reader_t *r);

/*
 * Enter the object (or array) that comes next: 0, or -1 (EINVAL when the
 * next value is something else).
 */
int sb_json_object_begin(sb_json_reader_t *r);
int sb_json_array_begin(sb_json_reader_t *r);

/*
 * The next member of the object entered last: 1 with its key in *@key
 * (valid until the next call on @r) and the reader at its value, which
 * the caller must read (sb_json_value(), sb_json_skip(), or entering
 * it); 0 at the object's end (left); -1 on an error.
 */
int sb_json_object_next(sb_json_reader_t *r, const char **key);

/* The next element of the array entered last: 1 with the reader at it
 * (to be read as above), 0 at the array's end (left), -1. */
int sb_json_array_next(sb_json_reader_t *r);

/*
 * The type of the value that comes next, without reading it (blanks
 * before it are): an sb_json_type_t, or -1 (EINVAL: the input ends, or
 * no value starts there; a failed reader).
 */
int sb_json_peek(sb_json_reader_t *r);

/* Read the next value and forget it: 0 or -1. */
int sb_json_skip(sb_json_reader_t *r);

/* Read the next value into a new tree (sb_json_free()), or NULL. */
sb_json_t *sb_json_value(sb_json_reader_t *r);

/* Nothing but blanks is left: 0, or -1 (EINVAL). */
int sb_json_end(sb_json_reader_t *r);

/* Where and why the last error happened, one printable line ("" when
 * none). */
const char *sb_json_error(const sb_json_reader_t *r);

/*
 * The one value that the @n bytes at @s are (blanks around it allowed)
 * as a tree, or NULL with errno as above and, when @err is not NULL,
 * the error's line in @err (@errlen bytes).
 */
sb_json_t *sb_json_parse(const char *s, size_t n, char *err, size_t errlen);

/* Free a tree; NULL is fine. */
void sb_json_free(sb_json_t *v);

/* The type of @v (SB_JSON_NULL for NULL). */
sb_json_type_t sb_json_type(const sb_json_t *v);

/* The members of an object or elements of an array (0 for anything
 * else), member @i (NULL past the end) and its key (objects only). */
size_t sb_json_count(const sb_json_t *v);
const sb_json_t *sb_json_at(const sb_json_t *v, size_t i);
const char *sb_json_key_at(const sb_json_t *v, size_t i);

/* The member @key of object @v (the first, when a key repeats), NULL
 * when none or @v is no object. */
const sb_json_t *sb_json_get(const sb_json_t *v, const char *key);

/*
 * A string's bytes (NUL-terminated; *@len, when not NULL, its length,
 * which counts any NUL a \u0000 put inside), or NULL when @v is no
 * string.
 */
const char *sb_json_str(const sb_json_t *v, size_t *len);

/*
 * A number that is an integer as written ("12", "-3", not "1.5" or
 * "1e3") into *@out: 0, or -1 with errno EINVAL (no such number) or
 * ERANGE (outside int64_t).
 */
int sb_json_int(const sb_json_t *v, int64_t *out);

/* Any number into *@out: 0, or -1 with errno EINVAL. */
int sb_json_num(const sb_json_t *v, double *out);

/* true or false into *@out: 0, or -1 with errno EINVAL. */
int sb_json_bool(const sb_json_t *v, bool *out);

/*
 * Verify a tree: types known, counts consistent, strings NUL-ended at
 * their length, depth and size within the bounds. 0, or -1 with errno
 * EFAULT (EINVAL for NULL).
 */
int sb_json_check(const sb_json_t *v);

/*
 * The canonical form of a tree: compact, members in their order, strings
 * escaped with \" \\ \n \t \r \b \f and \u00XX for other bytes below
 * 0x20, numbers as written. Parsing it gives the same tree. A new
 * string to free(), or NULL with errno ENOMEM (EINVAL for NULL).
 */
char *sb_json_fmt(const sb_json_t *v);

#endif /* SB_JSON_H */
