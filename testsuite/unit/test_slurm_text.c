/*
 * test_slurm_text.c - unit tests for common/slurm_text: scontrol's
 * one-line records, config lines, times, memory sizes and licence lists.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sb_test.h"
#include "sb_time.h"
#include "slurm_text.h"

/* A node line as Slurm 22.05's scontrol printed it (testsuite/live/t28). */
static const char node_line[] =
	"NodeName=f1 Arch=x86_64 CoresPerSocket=1  CPUAlloc=4 CPUEfctv=4 "
	"CPUTot=4 CPULoad=4.02 AvailableFeatures=fat ActiveFeatures=fat "
	"Gres=(null) NodeAddr=127.0.0.1 OS=Linux 6.1.0 #1 SMP PREEMPT_DYNAMIC "
	"@0  RealMemory=4000 AllocMem=0 State=IDLE+DRAIN Reason=t28 "
	"[root@2026-11-23T11:06:18] AllocTRES= CapWatts=n/a\n";

START_TEST(test_node_record)
{
	sb_record_t *r = sb_record_parse(node_line);

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(sb_record_check(r), 0);
	ck_assert_str_eq(sb_record_get(r, "NodeName"), "f1");
	ck_assert_str_eq(sb_record_get(r, "CPUTot"), "4");
	ck_assert_str_eq(sb_record_get(r, "CoresPerSocket"), "1");
	ck_assert_str_eq(sb_record_get(r, "OS"),
			 "Linux 6.1.0 #1 SMP PREEMPT_DYNAMIC @0");
	ck_assert_str_eq(sb_record_get(r, "Reason"),
			 "t28 [root@2026-11-23T11:06:18]");
	ck_assert_str_eq(sb_record_get(r, "AllocTRES"), "");
	ck_assert_str_eq(sb_record_get(r, "CapWatts"), "n/a");
	ck_assert_str_eq(sb_record_get(r, "Gres"), "(null)");
	errno = 0;
	ck_assert_ptr_null(sb_record_value(r, "Gres"));
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_ptr_null(sb_record_value(r, "AllocTRES"));
	ck_assert_ptr_null(sb_record_get(r, "Weight"));
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_str_eq(sb_record_key_at(r, 0), "NodeName");
	ck_assert_ptr_null(sb_record_key_at(r, sb_record_count(r)));
	sb_record_free(r);
}
END_TEST

START_TEST(test_job_keys_and_repeats)
{
	sb_record_t *r = sb_record_parse(
		"JobId=7 JobName=a b CPUs/Task=2 AllocNode:Sid=h:1 "
		"NtasksPerN:B:S:C=0:0:*:* ReqB:S:C:T=0:0:*:* "
		"Command=/bin/x --opt=1 NodeList=n[1-2] Comment=NodeList=evil");

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(sb_record_check(r), 0);
	ck_assert_str_eq(sb_record_get(r, "JobName"), "a b");
	ck_assert_str_eq(sb_record_get(r, "CPUs/Task"), "2");
	ck_assert_str_eq(sb_record_get(r, "AllocNode:Sid"), "h:1");
	ck_assert_str_eq(sb_record_get(r, "NtasksPerN:B:S:C"), "0:0:*:*");
	/* "--opt=1" is no key: it stays in Command's value */
	ck_assert_str_eq(sb_record_get(r, "Command"), "/bin/x --opt=1");
	/* the first NodeList counts */
	ck_assert_str_eq(sb_record_get(r, "NodeList"), "n[1-2]");
	ck_assert_str_eq(sb_record_get(r, "Comment"), "NodeList=evil");
	ck_assert_ptr_null(sb_record_repeated(r));
	sb_record_free(r);
	/* a job name holding " Key=": the repeat is named */
	r = sb_record_parse("JobId=8 JobName=x UserId=root(0) JobState=RUNNING "
			    "UserId=u1(1001) JobState=PENDING Priority=1");
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(sb_record_check(r), 0);
	ck_assert_str_eq(sb_record_get(r, "UserId"), "root(0)");
	ck_assert_str_eq(sb_record_repeated(r), "UserId");
	sb_record_free(r);
	ck_assert_ptr_null(sb_record_repeated(NULL));
}
END_TEST

START_TEST(test_not_records)
{
	errno = 0;
	ck_assert_ptr_null(sb_record_parse("No jobs in the system"));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(sb_record_parse(""));
	ck_assert_ptr_null(sb_record_parse("nodename=x"));
	ck_assert_ptr_null(sb_record_parse(NULL));
	ck_assert_int_eq(sb_record_check(NULL), -1);
	sb_record_free(NULL);
}
END_TEST

/* Random records with blanks inside values, parsed back (oracle: the
 * fields that were written). */
START_TEST(test_random_records)
{
	static const char *const words[] = {
		"a", "x=1", "--opt=2", "(null)", "#1", "[r@t]", "b:c", "0-3"
	};
	sb_test_rng_t rng;
	int round;

	sb_test_rng_seed(&rng, 1414);
	for (round = 0; round < 2000; round++) {
		char line[4096], keys[12][16], vals[12][256];
		size_t n = 1 + sb_test_rng_below(&rng, 12), i, off = 0;
		sb_record_t *r;

		for (i = 0; i < n; i++) {
			size_t w = sb_test_rng_below(&rng, 4), k, voff = 0;
			const char *sep;

			snprintf(keys[i], sizeof(keys[i]), "K%zu%c", i,
				 "a/:_"[sb_test_rng_below(&rng, 4)]);
			vals[i][0] = '\0';
			for (k = 0; k < w; k++)
				voff += (size_t) snprintf(vals[i] + voff,
					sizeof(vals[i]) - voff, "%s%s",
					k ? (sb_test_rng_below(&rng, 2) ? " " :
					     "  ") : "",
					words[sb_test_rng_below(&rng, 8)]);
			sep = !i ? "" : sb_test_rng_below(&rng, 2) ? " " : "  ";

			off += (size_t) snprintf(line + off, sizeof(line) - off,
						 "%s%s=%s", sep, keys[i],
						 vals[i]);
		}
		if (sb_test_rng_below(&rng, 2))
			snprintf(line + off, sizeof(line) - off, " \n");
		r = sb_record_parse(line);
		ck_assert_ptr_nonnull(r);
		ck_assert_int_eq(sb_record_check(r), 0);
		ck_assert_uint_eq(sb_record_count(r), n);
		for (i = 0; i < n; i++) {
			ck_assert_str_eq(sb_record_key_at(r, i), keys[i]);
			ck_assert_str_eq(sb_record_get(r, keys[i]), vals[i]);
		}
		sb_record_free(r);
	}
}
END_TEST

/*
 * Records parsed with a key cache read back as records parsed alone
 * (oracle), whichever of a few key sequences (one with a repeat, more
 * sequences than the cache holds) each line uses, and stay whole after
 * the cache is gone and the records that shared their keys are freed.
 */
START_TEST(test_cached_records)
{
	static const char *const shapes[] = {
		"JobId=%d JobName=a b JobState=RUNNING NodeList=n%d",
		"JobId=%d JobName=w JobState=PENDING NodeList= Reason=None",
		"JobId=%d ArrayJobId=%d ArrayTaskId=1 JobState=PENDING",
		"JobId=%d JobName=x JobId=%d JobState=RUNNING",	/* repeat */
		"JobId=%d  A=%d", "JobId=%d B=%d", "JobId=%d C=%d",
		"JobId=%d D=%d", "JobId=%d E=%d", "JobId=%d F=%d",
		"JobId=%d G=%d", "JobId=%d H=%d", "JobId=%d I=%d",
	};
	enum { NSHAPES = sizeof(shapes) / sizeof(shapes[0]), NREC = 3000 };
	sb_record_cache_t cache = SB_RECORD_CACHE_INIT;
	sb_record_t **cached = calloc(NREC, sizeof(*cached));
	sb_record_t **alone = calloc(NREC, sizeof(*alone));
	sb_test_rng_t rng;
	size_t i, k;

	ck_assert_ptr_nonnull(cached);
	ck_assert_ptr_nonnull(alone);
	sb_test_rng_seed(&rng, 2525);
	for (i = 0; i < NREC; i++) {
		/* mostly runs of one shape, as scontrol's jobs come */
		size_t shape = (i / 8 + (sb_test_rng_below(&rng, 4) ? 0 :
			       sb_test_rng_below(&rng, NSHAPES))) % NSHAPES;
		char line[256];

		snprintf(line, sizeof(line), shapes[shape], (int) i,
			 (int) (i * 7));
		cached[i] = sb_record_parse_cached(line, &cache);
		alone[i] = sb_record_parse(line);
		ck_assert_ptr_nonnull(cached[i]);
		ck_assert_ptr_nonnull(alone[i]);
		ck_assert_uint_le(cache.n, SB_RECORD_CACHE_SETS);
	}
	ck_assert_ptr_null(sb_record_parse_cached("No jobs", &cache));
	/* a quarter freed before the cache, the rest after */
	for (i = 0; i < NREC; i += 4) {
		sb_record_free(cached[i]);
		cached[i] = NULL;
	}
	sb_record_cache_fini(&cache);
	ck_assert_uint_eq(cache.n, 0);
	sb_record_cache_fini(&cache);
	sb_record_cache_fini(NULL);
	for (i = 0; i < NREC; i++) {
		if (cached[i]) {
			size_t n = sb_record_count(alone[i]);

			ck_assert_int_eq(sb_record_check(cached[i]), 0);
			ck_assert_uint_eq(sb_record_count(cached[i]), n);
			for (k = 0; k < n; k++) {
				const char *key = sb_record_key_at(alone[i], k);

				ck_assert_str_eq(sb_record_key_at(cached[i], k),
						 key);
				ck_assert_str_eq(sb_record_get(cached[i], key),
						 sb_record_get(alone[i], key));
			}
			ck_assert_ptr_null(sb_record_get(cached[i], "Nope"));
			sb_record_free(cached[i]);
		}
		sb_record_free(alone[i]);
	}
	free(cached);
	free(alone);
}
END_TEST

START_TEST(test_config_line)
{
	char a[] = "Select Plugin ConfigurationBaseSelectType          "
		   "= select/linear";
	char b[] = "PriorityParameters      = algorithm=level_based,levels=4  ";
	char c[] = "Configuration data as of 2026-11-23T11:06:21";
	char *k, *v;

	ck_assert_int_eq(sb_config_line(a, &k, &v), 0);
	ck_assert_str_eq(k, "Select Plugin ConfigurationBaseSelectType");
	ck_assert_str_eq(v, "select/linear");
	ck_assert_int_eq(sb_config_line(b, &k, &v), 0);
	ck_assert_str_eq(k, "PriorityParameters");
	ck_assert_str_eq(v, "algorithm=level_based,levels=4");
	errno = 0;
	ck_assert_int_eq(sb_config_line(c, &k, &v), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

START_TEST(test_times)
{
	int64_t t;

	setenv("TZ", "UTC", 1);
	tzset();
	ck_assert_int_eq(sb_slurm_time("2026-11-23T11:06:21", &t), 0);
	ck_assert_int_eq(t, 1795431981);
	ck_assert_int_eq(sb_slurm_time("1970-01-01T00:00:00", &t), 0);
	ck_assert_int_eq(t, 0);
	errno = 0;
	ck_assert_int_eq(sb_slurm_time("Unknown", &t), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sb_slurm_time("N/A", &t), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(sb_slurm_time("None", &t), -1);
	ck_assert_int_eq(sb_slurm_time("2026-11-23 11:06:21", &t), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_slurm_time("2026-11-23T11:06:21x", &t), -1);
	ck_assert_int_eq(sb_slurm_time("+2026-11-23T11:06:21", &t), -1);
}
END_TEST

START_TEST(test_memory)
{
	uint64_t mb;

	ck_assert_int_eq(sb_slurm_mem("0", &mb), 0);
	ck_assert_uint_eq(mb, 0);
	ck_assert_int_eq(sb_slurm_mem("9000M", &mb), 0);
	ck_assert_uint_eq(mb, 9000);
	ck_assert_int_eq(sb_slurm_mem("2G", &mb), 0);
	ck_assert_uint_eq(mb, 2048);
	ck_assert_int_eq(sb_slurm_mem("3T", &mb), 0);
	ck_assert_uint_eq(mb, 3 << 20);
	ck_assert_int_eq(sb_slurm_mem("1025K", &mb), 0);
	ck_assert_uint_eq(mb, 2);
	errno = 0;
	ck_assert_int_eq(sb_slurm_mem("2GB", &mb), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_slurm_mem("-1", &mb), -1);
	ck_assert_int_eq(sb_slurm_mem("", &mb), -1);
	ck_assert_int_eq(sb_slurm_mem("99999999999999999999P", &mb), -1);
	ck_assert_int_eq(errno, ERANGE);
	ck_assert_int_eq(sb_slurm_mem("17179869184P", &mb), -1);
	ck_assert_int_eq(errno, ERANGE);
}
END_TEST

/* sb_licenses_parse on @s: 0 and the pairs as "name:count ..." in @got. */
static int _lics(const char *s, char *got, size_t len, size_t *errpos)
{
	sb_license_t *v;
	size_t n, i, o = 0;

	got[0] = '\0';
	if (sb_licenses_parse(s, &v, &n, errpos))
		return -1;
	for (i = 0; i < n; i++)
		o += (size_t) snprintf(got + o, len - o, "%s%s:%lld",
				       i ? " " : "", v[i].name,
				       (long long) v[i].count);
	sb_licenses_free(v, n);
	return 0;
}

START_TEST(test_licenses)
{
	char got[256];
	size_t pos;
	sb_license_t *v = (sb_license_t *) 1;
	size_t n = 7;

	ck_assert_int_eq(_lics("matlab:8", got, sizeof(got), &pos), 0);
	ck_assert_str_eq(got, "matlab:8");
	ck_assert_int_eq(_lics("matlab", got, sizeof(got), &pos), 0);
	ck_assert_str_eq(got, "matlab:1");
	/* ',' and ';' (newer scontrol prints ';'), repeats and zero kept. */
	ck_assert_int_eq(_lics("a:2,fluent;a:0,x@db:3", got, sizeof(got),
			       &pos), 0);
	ck_assert_str_eq(got, "a:2 fluent:1 a:0 x@db:3");
	ck_assert_int_eq(_lics("big:2147483647", got, sizeof(got), &pos), 0);
	ck_assert_str_eq(got, "big:2147483647");

	/* Errors: errno, and the offset of the item at fault. */
	errno = 0;
	ck_assert_int_eq(_lics("a:1,b:2147483648", got, sizeof(got), &pos),
			 -1);
	ck_assert_int_eq(errno, ERANGE);
	ck_assert_uint_eq(pos, 4);
	ck_assert_int_eq(_lics("a:1|b", got, sizeof(got), &pos), -1);
	ck_assert_int_eq(errno, ENOTSUP);
	ck_assert_uint_eq(pos, 0);
	ck_assert_int_eq(_lics("a:1,b|c", got, sizeof(got), &pos), -1);
	ck_assert_int_eq(errno, ENOTSUP);
	ck_assert_uint_eq(pos, 4);
	static const struct {
		const char *s;
		size_t pos;
	} bad[] = {
		{ "", 0 }, { ",a", 0 }, { "a,", 2 }, { "a,,b", 2 },
		{ ":3", 0 }, { "a:", 0 }, { "a:-1", 0 }, { "a:x", 0 },
		{ "a:1x", 0 }, { "a:1:2", 0 }, { "b,a b:1", 2 },
		{ "a=2", 0 }, { "a(n1):1", 0 }, { "a:+1", 0 },
		{ "a:0x10", 0 }, { "ok,a\tb", 3 }, { "a: 1", 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		pos = 99;
		ck_assert_msg(_lics(bad[i].s, got, sizeof(got), &pos) == -1,
			      "'%s' parsed", bad[i].s);
		ck_assert_msg(errno == EINVAL, "'%s': errno %d", bad[i].s,
			      errno);
		ck_assert_msg(pos == bad[i].pos, "'%s': offset %zu",
			      bad[i].s, pos);
	}
	/* NULL arguments; errpos may be NULL; *out and *n untouched. */
	ck_assert_int_eq(sb_licenses_parse(NULL, &v, &n, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(sb_licenses_parse("a", NULL, &n, NULL), -1);
	ck_assert_int_eq(sb_licenses_parse("a", &v, NULL, NULL), -1);
	ck_assert_int_eq(sb_licenses_parse("a,", &v, &n, NULL), -1);
	ck_assert_ptr_eq(v, (sb_license_t *) 1);
	ck_assert_uint_eq(n, 7);
	sb_licenses_free(NULL, 3);
}
END_TEST

/* Random text: no crash, and every success round-trips to its pairs. */
START_TEST(test_licenses_random)
{
	static const char alpha[] = "ab:,;1|0 =9";
	char s[24], back[256], again[256], first[256];
	sb_license_t *v;
	size_t n, i, len, o;
	sb_test_rng_t rng;
	int k;

	sb_test_rng_seed(&rng, 25);
	for (k = 0; k < 20000; k++) {
		len = sb_test_rng_below(&rng, sizeof(s) - 1);
		for (i = 0; i < len; i++)
			s[i] = alpha[sb_test_rng_below(&rng,
						       sizeof(alpha) - 1)];
		s[len] = '\0';
		if (sb_licenses_parse(s, &v, &n, NULL))
			continue;
		ck_assert_uint_ge(n, 1);
		/* Written back as name:count, the pairs parse the same. */
		for (i = o = 0; i < n; i++) {
			ck_assert_ptr_nonnull(v[i].name);
			ck_assert_int_gt(strlen(v[i].name), 0);
			ck_assert_int_ge(v[i].count, 0);
			o += (size_t) snprintf(back + o, sizeof(back) - o,
					       "%s%s:%lld", i ? "," : "",
					       v[i].name,
					       (long long) v[i].count);
		}
		sb_licenses_free(v, n);
		ck_assert_int_eq(_lics(s, first, sizeof(first), NULL), 0);
		ck_assert_int_eq(_lics(back, again, sizeof(again), NULL), 0);
		ck_assert_str_eq(first, again);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("slurm_text");
	TCase *tc = tcase_create("slurm_text");

	tcase_add_test(tc, test_node_record);
	tcase_add_test(tc, test_job_keys_and_repeats);
	tcase_add_test(tc, test_not_records);
	tcase_add_test(tc, test_random_records);
	tcase_add_test(tc, test_cached_records);
	tcase_add_test(tc, test_config_line);
	tcase_add_test(tc, test_times);
	tcase_add_test(tc, test_memory);
	tcase_add_test(tc, test_licenses);
	tcase_add_test(tc, test_licenses_random);
	suite_add_tcase(s, tc);
	return sb_test_run(s);
}
