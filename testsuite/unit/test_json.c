/*
 * test_json.c - the JSON reader: values and errors written by hand, a
 * stream read a byte at a time, the walk of a Slurm-shaped document,
 * bounds, and random trees (fixed seed) whose canonical form parses back
 * to itself, read from memory and from a stream cut at random places.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "strbuf.h"
#include "sb_test.h"

/* @s parsed, canonical form @want (NULL: refused with @err). */
static void _case(const char *s, const char *want, int err)
{
	char msg[200] = "";
	sb_json_t *v = sb_json_parse(s, strlen(s), msg, sizeof(msg));
	char *f;

	if (!want) {
		ck_assert_msg(!v, "'%s' was taken", s);
		ck_assert_int_eq(errno, err);
		ck_assert_msg(msg[0], "'%s': no message", s);
		return;
	}
	ck_assert_msg(v, "'%s': %s", s, msg);
	ck_assert_int_eq(sb_json_check(v), 0);
	f = sb_json_fmt(v);
	ck_assert_str_eq(f, want);
	free(f);
	sb_json_free(v);
}

START_TEST(test_values)
{
	_case(" null ", "null", 0);
	_case("true", "true", 0);
	_case("[false]", "[false]", 0);
	_case("-0", "-0", 0);
	_case("1.5e-3", "1.5e-3", 0);
	_case("{ \"a\" : [1, 2 ,{}], \"b\":\"x\\ny\" }",
	      "{\"a\":[1,2,{}],\"b\":\"x\\ny\"}", 0);
	_case("\"\\u00e9\\ud83d\\ude00\\/\"", "\"\xc3\xa9\xf0\x9f\x98\x80/\"",
	      0);
	_case("\"a\\u0000b\"", "\"a\\u0000b\"", 0);
	/* raw bytes above 0x7f pass as they are (json-c prints them so) */
	_case("\"\xff\xfe\"", "\"\xff\xfe\"", 0);
	_case("{\"k\":1,\"k\":2}", "{\"k\":1,\"k\":2}", 0);
	_case("", NULL, EINVAL);
	_case("[1,]", NULL, EINVAL);
	_case("{\"a\" 1}", NULL, EINVAL);
	_case("{\"a\":1,}", NULL, EINVAL);
	_case("01", NULL, EINVAL);
	_case("1.", NULL, EINVAL);
	_case("-", NULL, EINVAL);
	_case("\"a\nb\"", NULL, EINVAL);
	_case("\"\\x\"", NULL, EINVAL);
	_case("\"\\ud800\"", NULL, EINVAL);
	_case("\"\\udc00\"", NULL, EINVAL);
	_case("\"abc", NULL, EINVAL);
	_case("[1] 2", NULL, EINVAL);
	_case("tru", NULL, EINVAL);
	_case("{\"a\\u0000\":1}", NULL, EINVAL);
}
END_TEST

START_TEST(test_numbers)
{
	static const char text[] = "[9223372036854775807,-9223372036854775808,"
		"9223372036854775808,2.0,true]";
	sb_json_t *v;
	int64_t i;
	double d;
	bool b;

	v = sb_json_parse(text, sizeof(text) - 1, NULL, 0);
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(sb_json_int(sb_json_at(v, 0), &i), 0);
	ck_assert(i == INT64_MAX);
	ck_assert_int_eq(sb_json_int(sb_json_at(v, 1), &i), 0);
	ck_assert(i == INT64_MIN);
	ck_assert_int_eq(sb_json_int(sb_json_at(v, 2), &i), -1);
	ck_assert_int_eq(errno, ERANGE);
	ck_assert_int_eq(sb_json_int(sb_json_at(v, 3), &i), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_json_num(sb_json_at(v, 3), &d), 0);
	ck_assert(d == 2.0);
	ck_assert_int_eq(sb_json_bool(sb_json_at(v, 4), &b), 0);
	ck_assert(b);
	ck_assert_int_eq(sb_json_bool(sb_json_at(v, 3), &b), -1);
	ck_assert_ptr_null(sb_json_at(v, 5));
	ck_assert_ptr_null(sb_json_str(v, NULL));
	ck_assert_ptr_null(sb_json_get(v, "x"));
	sb_json_free(v);
	sb_json_free(NULL);
	ck_assert_int_eq(sb_json_type(NULL), SB_JSON_NULL);
}
END_TEST

START_TEST(test_bounds)
{
	char buf[400];
	int i;

	for (i = 0; i < SB_JSON_MAX_DEPTH; i++)
		buf[i] = '[';
	for (i = 0; i < SB_JSON_MAX_DEPTH; i++)
		buf[SB_JSON_MAX_DEPTH + i] = ']';
	buf[2 * SB_JSON_MAX_DEPTH] = '\0';
	_case(buf, buf, 0);
	memmove(buf + 1, buf, strlen(buf) + 1);
	buf[0] = '[';
	strcat(buf, "]");
	_case(buf, NULL, EOVERFLOW);
}
END_TEST

/* A stream that hands over a string @step bytes at a time. */
typedef struct {
	const char *s;
	size_t n, off, step;
	int fail_at;		/* a read error at this offset, -1 none */
} _stream_t;

static ssize_t _read(void *arg, char *buf, size_t n)
{
	_stream_t *st = arg;
	size_t k = st->n - st->off;

	if (st->fail_at >= 0 && st->off >= (size_t) st->fail_at)
		return -1;
	if (k > st->step)
		k = st->step;
	if (k > n)
		k = n;
	memcpy(buf, st->s + st->off, k);
	st->off += k;
	return (ssize_t) k;
}

/* squeue --json's shape: the jobs walked one at a time. */
START_TEST(test_walk)
{
	static const char doc[] =
		"{\n  \"meta\": {\"plugin\": {\"type\": \"x\"}},\n"
		"  \"jobs\": [\n    {\"job_id\": 1, \"name\": \"a b=c\"},\n"
		"    {\"job_id\": 2, \"name\": \"x\\nJobId=9\"}\n  ],\n"
		"  \"errors\": []\n}\n";
	size_t step;

	for (step = 1; step <= sizeof(doc); step++) {
		_stream_t st = { doc, sizeof(doc) - 1, 0, step, -1 };
		sb_json_reader_t *r = sb_json_reader_create(_read, &st);
		const char *key;
		int got = 0, rc;

		ck_assert_ptr_nonnull(r);
		ck_assert_int_eq(sb_json_peek(r), SB_JSON_OBJECT);
		ck_assert_int_eq(sb_json_object_begin(r), 0);
		while ((rc = sb_json_object_next(r, &key)) == 1) {
			if (strcmp(key, "jobs")) {
				ck_assert_int_eq(sb_json_skip(r), 0);
				continue;
			}
			ck_assert_int_eq(sb_json_peek(r), SB_JSON_ARRAY);
			ck_assert_int_eq(sb_json_array_begin(r), 0);
			while ((rc = sb_json_array_next(r)) == 1) {
				sb_json_t *j = sb_json_value(r);
				int64_t id;

				ck_assert_ptr_nonnull(j);
				ck_assert_int_eq(sb_json_int(sb_json_get(j,
					"job_id"), &id), 0);
				ck_assert_int_eq(id, ++got);
				ck_assert_str_eq(sb_json_str(sb_json_get(j,
					"name"), NULL), got == 1 ? "a b=c" :
					"x\nJobId=9");
				sb_json_free(j);
			}
			ck_assert_int_eq(rc, 0);
		}
		ck_assert_int_eq(rc, 0);
		ck_assert_int_eq(got, 2);
		ck_assert_int_eq(sb_json_end(r), 0);
		ck_assert_str_eq(sb_json_error(r), "");
		sb_json_reader_destroy(r);
	}
}
END_TEST

START_TEST(test_walk_errors)
{
	_stream_t st = { "{\"a\": [1, 2]}", 13, 0, 1, 7 };
	sb_json_reader_t *r = sb_json_reader_create(_read, &st);
	const char *key;

	ck_assert_int_eq(sb_json_object_begin(r), 0);
	ck_assert_int_eq(sb_json_object_next(r, &key), 1);
	ck_assert_int_eq(sb_json_skip(r), -1);
	ck_assert_int_eq(errno, EIO);
	ck_assert_msg(strstr(sb_json_error(r), "cannot read"), "%s",
		      sb_json_error(r));
	ck_assert_int_eq(sb_json_skip(r), -1);
	sb_json_reader_destroy(r);

	r = sb_json_reader_mem("[1]", 3);
	ck_assert_int_eq(sb_json_object_begin(r), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_msg(strstr(sb_json_error(r), "line 1, byte 1: expected an "
			     "object"), "%s", sb_json_error(r));
	sb_json_reader_destroy(r);

	r = sb_json_reader_mem("{\"a\":1}", 7);
	ck_assert_int_eq(sb_json_array_next(r), -1);
	sb_json_reader_destroy(r);

	r = sb_json_reader_mem("\n\n  {\"a\" 1}", 11);
	ck_assert_int_eq(sb_json_object_begin(r), 0);
	ck_assert_int_eq(sb_json_object_next(r, &key), -1);
	ck_assert_str_eq(sb_json_error(r), "line 3, byte 8: expected ':'");
	sb_json_reader_destroy(r);
	sb_json_reader_destroy(NULL);
}
END_TEST

/* ---- random trees -------------------------------------------------------- */

static void _rand_str(sb_test_rng_t *g, sb_strbuf_t *b)
{
	static const char *const pieces[] = {
		"a", "Key=value ", "\\n", "\\\"", "\\\\", "\\t", "\\u0001",
		"\\u00e9", "\\ud83d\\ude00", "|", ";", "'", "\xc3\xa9", " ",
	};
	size_t n = sb_test_rng_below(g, 6), i;

	sb_strbuf_add(b, "\"");
	for (i = 0; i < n; i++)
		sb_strbuf_add(b, pieces[sb_test_rng_below(g, sizeof(pieces) /
							  sizeof(*pieces))]);
	sb_strbuf_add(b, "\"");
}

/* A random JSON text of depth at most @depth, blanks here and there. */
static void _rand(sb_test_rng_t *g, sb_strbuf_t *b, int depth)
{
	static const char *const nums[] = {
		"0", "-1", "12", "4294901759", "1.5", "-2e10", "3E+2", "0.25",
	};
	size_t n, i;
	int kind = (int) sb_test_rng_below(g, depth > 0 ? 7 : 5);

	if (sb_test_rng_below(g, 4) == 0)
		sb_strbuf_add(b, " \n");
	switch (kind) {
	case 0: sb_strbuf_add(b, "null"); break;
	case 1: sb_strbuf_add(b, sb_test_rng_below(g, 2) ? "true" : "false");
		break;
	case 2: sb_strbuf_add(b, nums[sb_test_rng_below(g, 8)]); break;
	case 3:
	case 4: _rand_str(g, b); break;
	default:
		n = sb_test_rng_below(g, 5);
		sb_strbuf_add(b, kind == 5 ? "[" : "{");
		for (i = 0; i < n; i++) {
			if (i)
				sb_strbuf_add(b, ",");
			if (kind == 6) {
				_rand_str(g, b);
				sb_strbuf_add(b, ":");
			}
			_rand(g, b, depth - 1);
		}
		sb_strbuf_add(b, kind == 5 ? "]" : "}");
	}
	if (sb_test_rng_below(g, 4) == 0)
		sb_strbuf_add(b, "\t ");
}

START_TEST(test_random)
{
	sb_test_rng_t g;
	size_t c;

	sb_test_rng_seed(&g, 49);
	for (c = 0; c < 3000; c++) {
		sb_strbuf_t b = SB_STRBUF_INIT;
		char *text, *f1, *f2;
		sb_json_t *v, *w;
		sb_json_reader_t *r;
		_stream_t st;

		_rand(&g, &b, 5);
		text = sb_strbuf_finish(&b);
		v = sb_json_parse(text, strlen(text), NULL, 0);
		SB_REQ_CASE(v && !sb_json_check(v), c);
		f1 = sb_json_fmt(v);
		w = sb_json_parse(f1, strlen(f1), NULL, 0);
		SB_REQ_CASE(w && !sb_json_check(w), c);
		f2 = sb_json_fmt(w);
		SB_REQ_CASE(!strcmp(f1, f2), c);
		/* the same text through a stream cut at random */
		st = (_stream_t) { text, strlen(text), 0,
				   1 + sb_test_rng_below(&g, 7), -1 };
		r = sb_json_reader_create(_read, &st);
		sb_json_free(w);
		w = sb_json_value(r);
		SB_REQ_CASE(w && !sb_json_end(r), c);
		free(f2);
		f2 = sb_json_fmt(w);
		SB_REQ_CASE(!strcmp(f1, f2), c);
		/* a byte cut off the end: refused, or still one value */
		if (strlen(text) > 1) {
			sb_json_t *x = sb_json_parse(text, strlen(text) - 1,
						     NULL, 0);

			SB_REQ_CASE(!x || !sb_json_check(x), c);
			sb_json_free(x);
		}
		sb_json_reader_destroy(r);
		sb_json_free(v);
		sb_json_free(w);
		free(f1);
		free(f2);
		free(text);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("json");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_values);
	tcase_add_test(tc, test_numbers);
	tcase_add_test(tc, test_bounds);
	tcase_add_test(tc, test_walk);
	tcase_add_test(tc, test_walk_errors);
	tcase_add_test(tc, test_random);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
