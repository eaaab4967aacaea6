/*
 * bucket_convert.c - the one place where select/bucket turns Slurm's
 * types (node_record_t, job_record_t, bitstr_t) into common/'s.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A node's signature (CPUs layout, RealMemory, TmpDisk, features, gres,
 * Weight, partitions) comes from its configuration (Weight from its
 * config record, which 'scontrol update NodeName=... Weight=' changes and
 * slurmctld's own node sets read: node_record_t's weight keeps
 * slurm.conf's); its speed from bucket.conf; its state from slurmctld's
 * node bitmaps at the moment of the decision. Features and node counts
 * of a job are not converted: slurmctld has already cut the bitmap it
 * passes to the nodes with the job's features (and calls once per
 * "[a*2&b*4]" count), so the request is one chunk of whole nodes with
 * the job's per-node minimums.
 *
 * A job_test() call becomes the decision's facts here and nowhere else
 * (convert_job_facts(), common/time/select_decide.h): everything
 * select/bucket decides from job_ptr, its details and partition and the
 * offered nodes, read once per call; what only a job of ours needs is
 * read when the decision asks (_complete()).
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "sb_slurm.h"

#include "select_bucket.h"
#include "shown.h"

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
	nd->weight = cfg ? cfg->weight : node_ptr->weight;
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

/* FNV-1a over @len bytes of @p, from @h. */
static uint64_t _fnv(uint64_t h, const void *p, size_t len)
{
	const unsigned char *b = p;

	while (len--)
		h = (h ^ *b++) * UINT64_C(0x100000001b3);
	return h;
}

static uint64_t _fnv_str(uint64_t h, const char *s)
{
	/* the NUL too: "a" then "" differs from "" then "a" */
	return s ? _fnv(h, s, strlen(s) + 1) : _fnv(h, "", 1);
}

extern uint64_t convert_config_sum(void)
{
	config_record_t *cfg;
	list_itr_t *itr;
	uint64_t sum = 0, h;

	if (!config_list)
		return 0;
	itr = list_iterator_create(config_list);
	while ((cfg = list_next(itr))) {
		h = _fnv(UINT64_C(0xcbf29ce484222325), &cfg, sizeof(cfg));
		h = _fnv(h, &cfg->weight, sizeof(cfg->weight));
		h = _fnv(h, &cfg->cpus, sizeof(cfg->cpus));
		h = _fnv(h, &cfg->real_memory, sizeof(cfg->real_memory));
		h = _fnv(h, &cfg->tmp_disk, sizeof(cfg->tmp_disk));
		h = _fnv_str(h, cfg->feature);
		h = _fnv_str(h, cfg->gres);
		sum += h;	/* the list's order is no change */
	}
	list_iterator_destroy(itr);
	return sum;
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

/* Seconds a job may run (SB_TIME_INFINITE when unlimited). */
static int64_t _time_limit(const job_record_t *job_ptr)
{
	uint32_t limit = job_ptr->time_limit;

	if ((limit == NO_VAL) && job_ptr->part_ptr)
		limit = job_ptr->part_ptr->max_time;
	if ((limit == NO_VAL) || (limit == INFINITE))
		return SB_TIME_INFINITE;
	return (int64_t) limit * 60;
}

/* CPUs each node must have for @job_ptr (tasks per node x CPUs each). */
static uint32_t _node_cpus(const job_record_t *job_ptr)
{
	const job_details_t *d = job_ptr->details;
	uint32_t cpus = d->pn_min_cpus;

	if (d->ntasks_per_node)
		cpus = MAX(cpus, (uint32_t) d->ntasks_per_node *
			   MAX(d->cpus_per_task, 1));
	return cpus;
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
 * BUCKET_PREFER=FEATURE[,FEATURE...] (--bucket-prefer). Any submitter
 * can set that environment directly (libslurm's job_desc, slurmrestd),
 * whatever plugstack.conf loads and whatever the submit host checked:
 * what a job may choose is decided here alone, by bucket.conf's
 * AllowJobPolicies and AllowJobPreferences for the partition slurmctld
 * tries it in, and a value is bounded before anything reads it.
 */
#define POLICY_VALUE_MAX 32	/* longer than any policy name */

/*
 * The value of @key in the job's control environment (NULL: absent);
 * *@too_long when it goes on past @max bytes, which are all that is
 * looked at.
 */
static const char *_job_env(const job_record_t *job_ptr, const char *key,
			    size_t max, bool *too_long)
{
	size_t len = strlen(key);
	uint32_t i;

	*too_long = false;
	for (i = 0; i < job_ptr->spank_job_env_size; i++) {
		const char *e = job_ptr->spank_job_env[i];

		if (e && !strncmp(e, key, len) && (e[len] == '=')) {
			*too_long = (strnlen(e + len + 1, max + 1) > max);
			return e + len + 1;
		}
	}
	return NULL;
}

/*
 * Jobs whose ignored choices were said at info level, so that a job
 * tried at every scheduling pass is named once (later passes say it
 * under DebugFlags=SelectType): a slot per job_id % CHOICE_SLOTS, a bit
 * per key. A job whose slot was taken since is named again. Under
 * bucket_lock.
 */
#define CHOICE_SLOTS 256
enum { CHOICE_POLICY = 1, CHOICE_PREFER = 2 };
static struct {
	uint32_t job_id;
	unsigned keys;
} _said[CHOICE_SLOTS];

/* "%pJ KEY=VALUE ignored: WHY", once per job and key (see above). */
static void _choice_ignored(const job_record_t *job_ptr, unsigned key,
			    const char *value, const char *why)
{
	const char *name = (key == CHOICE_POLICY) ? "BUCKET_POLICY" :
		"BUCKET_PREFER";
	unsigned slot = job_ptr->job_id % CHOICE_SLOTS;
	char shown[SB_SHOWN_BUF];

	sb_shown(shown, sizeof(shown), value);
	if ((_said[slot].job_id == job_ptr->job_id) &&
	    (_said[slot].keys & key)) {
		log_flag(SELECT_TYPE, "%pJ %s=%s ignored: %s",
			 (job_record_t *) job_ptr, name, shown, why);
		return;
	}
	if (_said[slot].job_id != job_ptr->job_id) {
		_said[slot].job_id = job_ptr->job_id;
		_said[slot].keys = 0;
	}
	_said[slot].keys |= key;
	info("%pJ %s=%s ignored: %s", (job_record_t *) job_ptr, name, shown,
	     why);
}

/* The partition slurmctld tries the job in, for bucket.conf. */
static const char *_part_name(const job_record_t *job_ptr)
{
	return job_ptr->part_ptr ? job_ptr->part_ptr->name : NULL;
}

/* "not allowed in partition P (KEY in FILE)" into @why. */
static void _not_allowed(char *why, size_t len, const char *part,
			 const char *key)
{
	snprintf(why, len, "not allowed in partition %s (%s in %s)",
		 part ? part : "(none)", key, bucket_conf_file());
}

/*
 * The job's BUCKET_PREFER when its partition allows preferences and the
 * value is not too long (whether it parses is the decision's: verdict
 * prefer_err, said by convert_prefer_ignored()), else NULL.
 */
static const char *_prefer(const job_record_t *job_ptr)
{
	const char *part = _part_name(job_ptr), *value;
	char why[256];
	bool too_long;

	if (!(value = _job_env(job_ptr, "BUCKET_PREFER", SB_PREFER_LIST_MAX,
			       &too_long)))
		return NULL;
	if (!sb_bucket_conf_job_prefer(bucket_conf, part)) {
		_not_allowed(why, sizeof(why), part, "AllowJobPreferences");
		_choice_ignored(job_ptr, CHOICE_PREFER, value, why);
		return NULL;
	}
	if (too_long) {
		snprintf(why, sizeof(why), "longer than %d bytes",
			 SB_PREFER_LIST_MAX);
		_choice_ignored(job_ptr, CHOICE_PREFER, value, why);
		return NULL;
	}
	return value;
}

extern void convert_prefer_ignored(const job_record_t *job_ptr,
				   const char *prefer, int err)
{
	char why[128];

	if (err == E2BIG)
		snprintf(why, sizeof(why), "more than %d features",
			 SB_MAX_PREFER);
	else if (err == EINVAL)
		snprintf(why, sizeof(why), "not a feature list (names of letters, digits and _-.:/+@ joined by ',')");
	else
		snprintf(why, sizeof(why), "%s", slurm_strerror(err));
	_choice_ignored(job_ptr, CHOICE_PREFER, prefer, why);
}

/* ---- one job_test() call: the decision's facts ------------------------- */

/*
 * What decides whether the job shares its nodes, as slurmctld resolves
 * it for the base (node_scheduler.c), without changing the job.
 */
static void _share_facts(const job_record_t *job_ptr, sb_share_facts_t *f)
{
	const job_details_t *d = job_ptr->details;
	uint16_t part_share = job_ptr->part_ptr ?
		job_ptr->part_ptr->max_share : 1;

	memset(f, 0, sizeof(*f));
	f->reboot = job_ptr->reboot;
	f->part_exclusive = (part_share == 0);
	f->part_no = (part_share == 1);
	f->part_force = (part_share & SHARED_FORCE) &&
		((part_share & ~SHARED_FORCE) > 1);
	f->job_share = (d->share_res == 1);
	f->job_exclusive = (d->share_res == 0) ||
		(d->whole_node == WHOLE_NODE_REQUIRED);
	f->base_cons = base_is_cons();
}

/*
 * Is this one of slurmctld's calls for the nodes of one counted feature
 * ("[blue*2&fat*3]")? It asks for exactly that count (min_nodes =
 * req_nodes, and the job's min_nodes set to it for the call) while
 * max_nodes stays the job's.
 */
static bool _feature_count_call(const sb_job_test_t *t)
{
	const job_details_t *d = t->job_ptr->details;
	job_feature_t *feat;
	list_itr_t *itr;
	bool found = false;

	if ((t->min_nodes == t->max_nodes) ||
	    (t->min_nodes != t->req_nodes) ||
	    (d->min_nodes != t->min_nodes) || !d->feature_list_use)
		return false;
	itr = list_iterator_create(d->feature_list_use);
	while (!found && (feat = list_next(itr)))
		found = (feat->count == t->min_nodes);
	list_iterator_destroy(itr);
	return found;
}

/*
 * The policy: the job's own (BUCKET_POLICY) when bucket.conf lets the
 * jobs of its partition ask for it, else the cluster's.
 */
static const sb_policy_t *_policy(bucket_facts_t *bf)
{
	const job_record_t *job_ptr = bf->t->job_ptr;
	const sb_policy_t *cluster = sb_bucket_conf_policy(bucket_conf);
	const char *part = _part_name(job_ptr), *name;
	char why[256];
	bool too_long;

	if (!(name = _job_env(job_ptr, "BUCKET_POLICY", POLICY_VALUE_MAX,
			      &too_long)))
		return cluster;
	if (!too_long &&
	    !sb_bucket_conf_job_policy(bucket_conf, part, name,
				       &bf->job_policy))
		return &bf->job_policy;
	if (!too_long && (errno == EPERM))
		_not_allowed(why, sizeof(why), part, "AllowJobPolicies");
	else
		snprintf(why, sizeof(why), "no such policy%s",
			 too_long ? " (longer than any policy name)" : "");
	snprintf(why + strlen(why), sizeof(why) - strlen(why), "; using %s",
		 sb_policy_name(cluster->kind));
	_choice_ignored(job_ptr, CHOICE_POLICY, name, why);
	return cluster;
}

/* Buckets whose GRES cannot serve the job (Slurm's own test), or NULL. */
static bool *_unfit(const sb_bucket_set_t *set, job_record_t *job_ptr)
{
	size_t b, nb = sb_bucket_set_size(set);
	node_record_t *node_ptr;
	bool *unfit;

	if (!job_ptr->gres_list_req || !list_count(job_ptr->gres_list_req))
		return NULL;
	unfit = xcalloc(nb + 1, sizeof(*unfit));
	for (b = 0; b < nb; b++) {
		node_ptr = node_record_table_ptr[sb_bucket_rep(set, b)->index];
		if (node_ptr &&
		    !sb_gres_job_test(job_ptr->gres_list_req,
				      node_ptr->gres_list, job_ptr->job_id,
				      node_ptr->name))
			unfit[b] = true;
	}
	return unfit;
}

/*
 * sb_select_complete_f: what only a job of ours needs, asked once the
 * base rules let it through. The nodes' loads for a policy that reads
 * them; the nodes it may have (every node of this attempt where
 * slurmctld offers them node set by node set: offers_candidates(), with
 * this call's own as f->offered; else this call's); its GRES; WILL_RUN's
 * plan (for a job in a reservation, one of its own).
 */
static int _complete(sb_select_facts_t *f, const sb_bucket_set_t *set,
		     void *arg)
{
	bucket_facts_t *bf = arg;
	const sb_job_test_t *t = bf->t;
	bitstr_t *cands;

	if (!sb_policy_static(f->policy))
		state_sync_loads();
	cands = offers_candidates(t);
	if (!(bf->allowed = sb_bitmap_alloc(bucket_state.n)) ||
	    (cands && !(bf->offered = sb_bitmap_alloc(bucket_state.n)))) {
		FREE_NULL_BITMAP(cands);
		return -1;
	}
	convert_bitstr_to_sb(cands ? cands : t->bitmap, bf->allowed);
	if (cands)
		convert_bitstr_to_sb(t->bitmap, bf->offered);
	FREE_NULL_BITMAP(cands);
	f->allowed = bf->allowed;
	f->offered = bf->offered;
	f->unfit = bf->unfit = _unfit(set, t->job_ptr);
	if (bf->mode == SB_SELECT_WILL_RUN) {
		f->plan = state_plan((time_t) f->now, t->job_ptr->resv_ptr,
				     &bf->own_plan);
		if (!f->plan) {
			errno = EAGAIN;	/* state_plan() said why */
			return -1;
		}
	}
	return 0;
}

extern void convert_job_facts(bucket_facts_t *bf, const sb_job_test_t *t)
{
	job_record_t *job_ptr = t->job_ptr;
	const job_details_t *d = job_ptr->details;
	sb_select_facts_t *f = &bf->f;
	sb_base_facts_t *b = &f->base;
	time_t from, until;
	uint64_t mem;

	memset(bf, 0, sizeof(*bf));
	bf->t = t;
	bf->mode = SELECT_IS_MODE_TEST_ONLY(t->mode) ? SB_SELECT_TEST_ONLY :
		SELECT_IS_MODE_WILL_RUN(t->mode) ? SB_SELECT_WILL_RUN :
		SB_SELECT_RUN_NOW;
	sb_select_facts_init(f);

	b->min_nodes = t->min_nodes;
	b->max_nodes = t->max_nodes;
	b->model = (bit_size(t->bitmap) == (bitoff_t) bucket_state.n);
	_share_facts(job_ptr, &b->share);
	b->required_nodes = d->req_node_bitmap &&
		(bit_ffs(d->req_node_bitmap) >= 0);
	b->contiguous = d->contiguous;
	b->feature_count_call = _feature_count_call(t);
	b->min_cpus = d->min_cpus;
	b->node_cpus = _node_cpus(job_ptr);
	b->core_reservation = sb_job_test_core_reserved(t);
	b->preempt_candidates = t->preemptee_candidates &&
		list_count(t->preemptee_candidates);

	mem = d->pn_min_memory;
	if (mem & MEM_PER_CPU)
		mem = (mem & ~MEM_PER_CPU) * MAX(b->node_cpus, 1);
	f->min_memory = mem;
	f->min_tmp = d->pn_min_tmp_disk;
	f->time_limit = _time_limit(job_ptr);
	f->prefer = _prefer(job_ptr);
	f->policy = _policy(bf);
	f->now = (int64_t) time(NULL);
	f->test_now_only = (job_ptr->bit_flags & TEST_NOW_ONLY);
	if (sb_job_test_will_run_window(t, &from, &until)) {
		f->window_start = (int64_t) from;
		f->window_end = (int64_t) until;
	}
	f->complete = _complete;
	f->complete_arg = bf;
}

extern void convert_job_facts_fini(bucket_facts_t *bf)
{
	sb_bitmap_free(bf->allowed);
	sb_bitmap_free(bf->offered);
	xfree(bf->unfit);
	sb_will_run_destroy(bf->own_plan);
	bf->allowed = bf->offered = NULL;
	bf->own_plan = NULL;
}
