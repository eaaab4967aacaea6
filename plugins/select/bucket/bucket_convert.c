/*
 * bucket_convert.c - the one place where select/bucket turns Slurm's
 * types (node_record_t, job_record_t, bitstr_t) into common/'s.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A node's signature (CPUs layout, RealMemory, TmpDisk, features, gres,
 * Weight, partitions) comes from its configuration; its speed from
 * bucket.conf; its state from slurmctld's node bitmaps at the moment of
 * the decision. Features and node counts of a job are not converted:
 * slurmctld has already cut the bitmap it passes to the nodes with the
 * job's features (and calls once per "[a*2&b*4]" count), so the request
 * is one chunk of whole nodes with the job's per-node minimums.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "sb_slurm.h"

#include "select_bucket.h"

/* "gpu:tesla:2(S:0-1)" -> gpu:tesla, 2; an unreadable item is skipped. */
static void _add_gres(sb_node_t *nd, const char *spec)
{
	char *copy, *tok, *save = NULL, *paren;
	sb_gres_t g;

	if (!spec || !*spec)
		return;
	copy = xstrdup(spec);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if ((paren = strchr(tok, '(')))
			*paren = '\0';
		if (sb_gres_parse(tok, &g) < 0) {
			debug("node %s: gres '%s' left out of its signature",
			      nd->name, tok);
			continue;
		}
		(void) sb_node_add_gres(nd, g.name, g.count);
		free(g.name);
	}
	xfree(copy);
}

static void _add_features(sb_node_t *nd, const char *features)
{
	char *copy, *tok, *save = NULL;

	if (!features || !*features)
		return;
	copy = xstrdup(features);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		(void) sb_node_add_feature(nd, tok);
	xfree(copy);
}

extern sb_node_state_t convert_node_state(size_t i)
{
	node_record_t *node_ptr = node_record_table_ptr[i];

	/*
	 * avail_node_bitmap leaves out nodes that are down, drained or
	 * draining, failing, or not responding: none can start a job now.
	 */
	if (!node_ptr || !avail_node_bitmap || !idle_node_bitmap ||
	    !bit_test(avail_node_bitmap, i))
		return (node_ptr && IS_NODE_DRAIN(node_ptr)) ?
			SB_NODE_DRAINED : SB_NODE_DOWN;
	if (!bit_test(idle_node_bitmap, i))
		return SB_NODE_ALLOCATED;
	if (SB_POWER_DOWN_BITMAP && bit_test(SB_POWER_DOWN_BITMAP, i))
		return SB_NODE_POWERED_DOWN;
	return SB_NODE_IDLE;
}

extern int convert_node(sb_node_t *nd, size_t i, node_record_t *node_ptr,
			const sb_bucket_conf_t *conf)
{
	config_record_t *cfg;
	const sb_bucket_conf_node_t *bn;
	char placeholder[32];
	int k;

	if (!node_ptr || !node_ptr->name) {
		/* A removed dynamic node: never usable. */
		snprintf(placeholder, sizeof(placeholder), "(none%zu)", i);
		if (sb_node_init(nd, (uint32_t) i, placeholder) < 0)
			goto fail;
		nd->state = SB_NODE_DOWN;
		return 0;
	}
	if (sb_node_init(nd, (uint32_t) i, node_ptr->name) < 0)
		goto fail;
	cfg = node_ptr->config_ptr;
	nd->cpus = cfg ? cfg->cpus : node_ptr->cpus;
	nd->sockets = node_ptr->tot_sockets ? node_ptr->tot_sockets : 1;
	nd->cores = node_ptr->cores ? node_ptr->cores : 1;
	nd->threads = node_ptr->threads ? node_ptr->threads : 1;
	nd->real_memory = cfg ? cfg->real_memory : node_ptr->real_memory;
	nd->tmp_disk = cfg ? cfg->tmp_disk : node_ptr->tmp_disk;
	nd->weight = node_ptr->weight;
	_add_features(nd, node_ptr->features);
	_add_gres(nd, node_ptr->gres ? node_ptr->gres :
		  (cfg ? cfg->gres : NULL));
	for (k = 0; k < node_ptr->part_cnt; k++) {
		part_record_t *p = node_ptr->part_pptr[k];

		if (p && p->name)
			(void) sb_node_add_partition(nd, p->name);
	}
	if (conf && (bn = sb_bucket_conf_node(conf, node_ptr->name)))
		nd->speed = bn->speed;
	nd->load = node_ptr->cpu_load / 100.0;
	nd->state = convert_node_state(i);
	nd->run_jobs = (nd->state == SB_NODE_ALLOCATED);
	return 0;
fail:
	error(BUCKET_PFX "cannot describe node %zu: %m", i);
	return -1;
}

extern int convert_nodes(sb_node_t *nodes, size_t n)
{
	size_t i;
	int busy = 0;

	for (i = 0; i < n; i++) {
		if (convert_node(&nodes[i], i, node_record_table_ptr[i],
				 bucket_conf) < 0)
			return -1;
		busy += (nodes[i].state == SB_NODE_ALLOCATED);
	}
	return busy;
}

extern int64_t convert_time_limit(const job_record_t *job_ptr)
{
	uint32_t limit = job_ptr->time_limit;

	if ((limit == NO_VAL) && job_ptr->part_ptr)
		limit = job_ptr->part_ptr->max_time;
	if ((limit == NO_VAL) || (limit == INFINITE))
		return SB_TIME_INFINITE;
	return (int64_t) limit * 60;
}

extern uint32_t convert_node_cpus(const job_record_t *job_ptr)
{
	const job_details_t *d = job_ptr->details;
	uint32_t cpus = d->pn_min_cpus;

	if (d->ntasks_per_node)
		cpus = MAX(cpus, (uint32_t) d->ntasks_per_node *
			   MAX(d->cpus_per_task, 1));
	return cpus;
}

extern int convert_request(sb_request_t *r, job_record_t *job_ptr,
			   uint32_t count)
{
	job_details_t *d = job_ptr->details;
	const char *prefer;
	sb_chunk_t *c;
	uint64_t mem;

	sb_request_init(r);
	r->exclusive = true;		/* only such jobs are ours */
	r->time_limit = convert_time_limit(job_ptr);
	if (!(c = sb_request_add_chunk(r, count)))
		goto fail;
	c->min_cpus = convert_node_cpus(job_ptr);
	mem = d->pn_min_memory;
	if (mem & MEM_PER_CPU)
		mem = (mem & ~MEM_PER_CPU) * MAX(c->min_cpus, 1);
	c->min_memory = mem;
	c->min_tmp = d->pn_min_tmp_disk;
	/*
	 * Checked at submission; one that no longer parses (a job of
	 * another version, an edited environment) orders nothing.
	 */
	if ((prefer = convert_job_prefer(job_ptr)) &&
	    (sb_request_add_prefer_list(r, prefer, NULL) < 0))
		verbose("%pJ: BUCKET_PREFER=%s ignored: %m", job_ptr, prefer);
	return 0;
fail:
	error(BUCKET_PFX "cannot describe %pJ: %m", job_ptr);
	sb_request_fini(r);
	return -1;
}

/*
 * bitstr_t keeps its bits LSB first in 64-bit words after a header of
 * SB_BITSTR_OVERHEAD words (sb_slurm.h), so whole words are copied.
 * 24.11 no longer publishes the header's size: the layout is checked
 * once on a bitmap of Slurm's own, and if it were ever different (or on
 * a big-endian build) the copies go bit by bit.
 */
static bool _words_ok(void)
{
	static int ok = -1;	/* a benign race: every thread finds the same */
	bitstr_t *t;

#ifdef SLURM_BIGENDIAN
	return false;
#endif
	if (ok < 0) {
		t = bit_alloc(130);
		bit_set(t, 0);
		bit_set(t, 129);
		ok = (((uint64_t *) (t + SB_BITSTR_OVERHEAD))[0] == 1) &&
			(((uint64_t *) (t + SB_BITSTR_OVERHEAD))[2] == 2);
		FREE_NULL_BITMAP(t);
		if (!ok)
			error(BUCKET_PFX "Slurm's bitmaps are not laid out as expected: copying them bit by bit");
	}
	return ok;
}

extern void convert_bitstr_to_sb(const bitstr_t *b, sb_bitmap_t *out)
{
	bitoff_t i, n = bit_size((bitstr_t *) b);

	if (_words_ok()) {
		(void) sb_bitmap_load_words(out, (const uint64_t *)
					    (b + SB_BITSTR_OVERHEAD),
					    ((size_t) n + 63) / 64);
		return;
	}
	sb_bitmap_clear_all(out);
	for (i = 0; i < n; i++)
		if (bit_test((bitstr_t *) b, i))
			sb_bitmap_set(out, (size_t) i);
}

extern void convert_sb_to_bitstr(const sb_bitmap_t *b, bitstr_t *out)
{
	bitoff_t bits = bit_size(out);
	size_t words = (bits + 63) / 64;
	int64_t i;

	if (_words_ok()) {
		(void) sb_bitmap_store_words(b, (uint64_t *)
					     (out + SB_BITSTR_OVERHEAD), words);
		/* bitstr_t keeps bits past its size clear too */
		if (bits % 64)
			((uint64_t *) (out + SB_BITSTR_OVERHEAD))[words - 1] &=
				(UINT64_C(1) << (bits % 64)) - 1;
		return;
	}
	bit_clear_all(out);
	for (i = sb_bitmap_first_set(b); i >= 0;
	     i = sb_bitmap_next_set(b, (size_t) i + 1))
		bit_set(out, i);
}

/*
 * The SPANK plugin (spank_bucket.so) puts the job's choices into its job
 * control environment: BUCKET_POLICY=NAME (--bucket-policy) and
 * BUCKET_PREFER=FEATURE[,FEATURE...] (--bucket-prefer).
 */
static const char *_job_env(const job_record_t *job_ptr, const char *key)
{
	size_t len = strlen(key);
	uint32_t i;

	for (i = 0; i < job_ptr->spank_job_env_size; i++) {
		const char *e = job_ptr->spank_job_env[i];

		if (e && !strncmp(e, key, len) && (e[len] == '='))
			return e + len + 1;
	}
	return NULL;
}

extern const char *convert_job_policy_name(const job_record_t *job_ptr)
{
	return _job_env(job_ptr, "BUCKET_POLICY");
}

extern const char *convert_job_prefer(const job_record_t *job_ptr)
{
	return _job_env(job_ptr, "BUCKET_PREFER");
}
