/*
 * select_bucket.h - what the files of select/bucket share.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * select/bucket is a layer over one of Slurm's own select plugins, the
 * "base": select/linear by default, select/cons_tres with bucket.conf's
 * BaseSelectType=select/cons_tres (or, on Slurm 22.05, with
 * SelectTypeParameters=OTHER_CONS_TRES; select/cons_res likewise). The base owns every allocation: job resources, cores,
 * memory, GRES, OverSubscribe, node data for sinfo, reservations. We only
 * choose *which* nodes a whole-node exclusive job with a fixed node count
 * gets (node buckets and a Maui allocation policy) and hand exactly those
 * nodes to the base's job_test, which allocates them; every other job
 * goes to the base unchanged.
 *
 *   select_bucket.c    the framework entry points we answer ourselves
 *                      (start, reconfigure, job_test, job_begin),
 *                      bucket.conf
 *   bucket_base.c      loading the base plugin
 *   select_data.c      node and job data on the wire (the base's, behind
 *                      a header naming the base), select state, steps,
 *                      scontrol show config, where the framework has
 *                      them (SB_HAVE_SELECT_DATA; select_data.h)
 *   single_job_test.c  how slurmctld offers nodes, where we may ask for
 *                      one call with every node
 *                      (SB_HAVE_SELECT_SINGLE_JOB_TEST) ...
 *   bucket_offers.c    ... or where it offers them node set by node set
 *                      to a base that does not weigh nodes
 *   bucket_convert.c   Slurm types -> common/ types (the only place):
 *                      nodes, and a job_test() call's facts for the
 *                      decision (convert_job_facts())
 *   bucket_state.c     the bucket model, derived from slurmctld's own node
 *                      bitmaps and reservations at each decision; the
 *                      plan of running jobs' ends for WILL_RUN
 *   bucket_job_place.c job_test(): convert, ask the decision
 *                      (common/time/select_decide.h: which jobs we place,
 *                      RUN_NOW, TEST_ONLY, WILL_RUN), hand its verdict to
 *                      the base
 *
 * A job through select_p_job_test(): its arguments as one sb_job_test_t
 * (sb_select.h); under bucket_lock the model brought up to date
 * (state_sync()) and the call's facts converted once (convert_job_facts());
 * sb_select_decide() gives the verdict, asking the conversion for what
 * only a job of ours needs (the nodes it may have, GRES, the plan); the
 * lock released, the base allocates our nodes or decides itself.
 *
 * What differs between Slurm releases is absorbed by plugins/compat/
 * (sb_slurm.h, sb_select.h: the base's operation table from
 * select_ops.def, job_test()'s arguments; select_forward.c: every entry
 * point that passes the call to the base, generated from
 * select_ops.def), and by the files above named after a trait.
 *
 * No private ledger: which nodes are free, busy or down is read from
 * slurmctld (avail_node_bitmap, idle_node_bitmap, the powered-down nodes) at
 * every decision, so the model cannot disagree with sinfo.
 *
 * Locking: slurmctld calls the select plugin with its own locks held
 * (job and node locks, as each call site documents); bucket_lock guards
 * the model against the other threads that call in (backfill, RPC
 * handlers), is taken last and never held across a call into the base.
 */
#ifndef SELECT_BUCKET_H
#define SELECT_BUCKET_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "sb_slurm.h"
#include "sb_select.h"

#include "bucket.h"
#include "bucket_conf.h"
#include "cluster_model.h"
#include "node.h"
#include "place.h"
#include "policy.h"
#include "select_decide.h"
#include "will_run.h"

/*
 * What only slurmctld has, or only libslurmfull exports: weak
 * references. Every Slurm program that loads the select plugins loads
 * this one: sinfo, squeue, srun, slurmd, and any program linked with
 * the public libslurm.so (pyslurm, a site's own client of the API)
 * that reads jobs or nodes. That library exports only slurm_* names
 * (sb_slurm.h asks for those); there the data below are NULL and the
 * functions absent, and only code that runs in slurmctld uses them
 * (only slurmctld builds buckets). A strong reference to data that a
 * program lacks fails dlopen() itself, lazy binding or not, and
 * with it the program ("Can't find plugin for select/bucket");
 * testsuite/build/b05 checks that every strong one is in libslurm.so.
 */
#define SB_WEAK_(x) _Pragma(#x)
#define SB_WEAK(sym) SB_WEAK_(weak sym)
/* slurmctld's data */
SB_WEAK(job_list)
SB_WEAK(part_list)
SB_WEAK(resv_list)
SB_WEAK(last_resv_update)
SB_WEAK(last_node_update)
SB_WEAK(last_job_update)
SB_WEAK(avail_node_bitmap)
SB_WEAK(idle_node_bitmap)
SB_WEAK(SB_POWER_DOWN_BITMAP)
/* libslurmfull's node table */
SB_WEAK(node_record_count)
SB_WEAK(node_record_table_ptr)
SB_WEAK(config_list)
SB_WEAK(switch_record_cnt)
/* functions of slurmctld, or of libslurmfull not aliased slurm_* */
SB_WEAK(bit_and_not)
SB_WEAK(bitmap2node_name)
SB_WEAK(find_node_record)
SB_WEAK(find_part_record)
SB_WEAK(gres_job_test)
SB_WEAK(select_type_param_string)
SB_WEAK(slurm_preemption_enabled)
SB_WEAK(valid_feature_counts)

/*
 * info() and debug() prefix plugin messages with "select/bucket:
 * <function>: " themselves (SLURM_PLUGIN_DEBUG); error() and fatal() do
 * not, so those start with BUCKET_PFX. log_flag(SELECT_TYPE, ...) lines
 * show with DebugFlags=SelectType.
 */
#define BUCKET_PFX "select/bucket: "

/* The bucket model (bucket_state.c). */
typedef struct {
	size_t n;			/* node_record_count when built */
	sb_node_t *nodes;		/* index = Slurm's node index */
	sb_bucket_set_t *set;
	time_t resv_synced;		/* when the windows were rebuilt */
	int64_t next_window;		/* earliest reservation start ahead */
	bool stale;			/* a node's signature changed */
	/*
	 * Node configuration changes slurmctld does not tell us of (scontrol
	 * update NodeName=... Weight=, AvailableFeatures=, Gres=): the
	 * last_node_update seen, when, and convert_config_sum() then.
	 */
	time_t nodes_seen, nodes_seen_at;
	uint64_t config_sum;
	/*
	 * WILL_RUN's plan, kept while the cluster changes: a job that
	 * starts and a node that changes are marked in plan_dirty
	 * (state_job_begin, _sync_nodes) and applied at the next WILL_RUN;
	 * a new second, or a job that ends, is suspended, resumed or resized
	 * (state_plan_behind), brings it forward from the job list
	 * (sb_will_run_advance); a reservation or a rebuilt model drop it
	 * (state_plan_drop).
	 */
	sb_will_run_t *plan;
	int64_t *plan_until;		/* per node, its running jobs' end */
	sb_bitmap_t *plan_dirty;	/* nodes to plan again */
	int64_t plan_now;		/* the second it stands at */
	bool plan_behind;		/* jobs changed since */
} bucket_state_t;

extern pthread_mutex_t bucket_lock;
extern bucket_state_t bucket_state;	/* under bucket_lock */
extern sb_bucket_conf_t *bucket_conf;	/* under bucket_lock */

/* ---- bucket_base.c: the select plugin under us ------------------------- */

/* The base's entry points: base (sb_select.h), valid after base_load(). */

/*
 * Load the base @conf names (base_configured()), once. Returns
 * SLURM_SUCCESS, or SLURM_ERROR after logging one line naming the
 * plugin.
 */
extern int base_load(const sb_bucket_conf_t *conf);

/* Load the base @type ("select/linear") unless one is loaded; as above. */
extern int base_load_type(const char *type);

/*
 * The base the configuration names: @conf's BaseSelectType (NULL @conf:
 * bucket.conf next to slurm.conf is read for it, as programs other than
 * slurmctld do), else the base slurm.conf names
 * (sb_base_from_slurm_conf()), else select/linear. Both set and
 * different: NULL, after logging one line naming both.
 */
extern const char *base_configured(const sb_bucket_conf_t *conf);
extern void base_unload(void);

/*
 * The base is loaded (loading the configured one if not yet): for the
 * node and job data calls, which reach us by plugin_id even in programs
 * whose SelectType is not ours (data packed when it was).
 */
extern bool base_ready(void);

/* "select/linear", ..., or NULL before base_load(). */
extern const char *base_name(void);

/* Is the base a consumable-resource plugin (cons_res, cons_tres)? */
extern bool base_is_cons(void);

/* Ours, what slurmctld reads (select_bucket.c; sb_select.h says when it
 * becomes the base's). */
extern SB_PLUGIN_ID_CONST uint32_t plugin_id;

/* ---- how slurmctld offers nodes: single_job_test.c or bucket_offers.c --- */

/* The base was just loaded (asked what it wants of slurmctld). */
extern void offers_base_loaded(void);

/*
 * Do we answer get_info_from_plugin(@dinfo) ourselves (into @data)
 * (an enum select_plugindata_info, where the framework has one) instead
 * of the base? (SELECT_SINGLE_JOB_TEST where it exists.)
 */
extern bool offers_get_info(int dinfo, void *data);

/* slurmctld called select_p_job_test(), for any job. */
extern void offers_call_seen(void);

/*
 * The base decides the call @t of a job we do not place, as slurmctld
 * would have called it without us (replaying slurmctld's node sets for a
 * base that takes them one at a time where we asked for a single call).
 * @shares: the job shares nodes.
 */
extern int offers_base_test(const sb_job_test_t *t, bool shares);

/*
 * The nodes to choose among for one of our jobs, when slurmctld offers
 * them node set by node set (over a base that does not weigh nodes,
 * RUN_NOW): every node the job could be offered in this attempt,
 * t->bitmap included (a new bitmap, which the caller frees). NULL:
 * choose among t->bitmap.
 */
extern bitstr_t *offers_candidates(const sb_job_test_t *t);

/*
 * The nodes we chose among offers_candidates() are not all in this
 * call's bitmap: we answer "not in these" and wait for the node set that
 * holds them. Remembered, so that an attempt that ends there makes the
 * next attempt choose among the offered nodes only.
 */
extern void offers_outside(job_record_t *job_ptr);

/* ---- bucket_convert.c: Slurm -> common/ -------------------------------- */

/*
 * Fill @nd (index @i) from Slurm's node @node_ptr (NULL: a defunct slot,
 * a down placeholder) and bucket.conf's speed. Returns 0 or -1 (logged).
 */
extern int convert_node(sb_node_t *nd, size_t i, node_record_t *node_ptr,
			const sb_bucket_conf_t *conf);

/*
 * convert_node() for every node of slurmctld's table into @nodes (@n of
 * them, node_record_count), with bucket_conf's speeds: the one way a
 * model's nodes are read, for a build and for the audit's fresh one.
 * Returns how many are allocated, or -1 (logged).
 */
extern int convert_nodes(sb_node_t *nodes, size_t n);

/*
 * A fingerprint of slurmctld's node configuration records (config_list:
 * each record's address, Weight, CPUs, RealMemory, TmpDisk, Features and
 * Gres), which 'scontrol update NodeName=...' changes for Weight,
 * AvailableFeatures and Gres (in place, or splitting a record off for
 * the nodes updated) without telling the select plugin. Equal sums:
 * no record changed, but for a 2^-64 chance. A number, not a copy of
 * the records. O(C) for C records, plus their strings.
 */
extern uint64_t convert_config_sum(void);

/*
 * The sb_node_state_t of node @i as slurmctld's bitmaps have it: not in
 * avail_node_bitmap -> down (drained when draining), not idle ->
 * allocated (any job, shared or not), powered down, else idle.
 */
extern sb_node_state_t convert_node_state(size_t i);

/* Slurm bitstr_t <-> sb_bitmap_t (same size), a word at a time. */
extern void convert_bitstr_to_sb(const bitstr_t *b, sb_bitmap_t *out);
extern void convert_sb_to_bitstr(const sb_bitmap_t *b, bitstr_t *out);

/*
 * One job_test() call as the decision sees it (select_decide.h): the
 * facts, converted once from job_ptr, its details and partition and the
 * nodes offered, and what the conversion holds for them.
 */
typedef struct {
	sb_select_facts_t f;
	sb_select_mode_t mode;
	const sb_job_test_t *t;		/* the call */
	sb_policy_t job_policy;		/* the job's own, when it chose one */
	/* made for a job of ours (f.complete), freed by _fini() */
	sb_bitmap_t *allowed, *offered;
	bool *unfit;
	sb_will_run_t *own_plan;
} bucket_facts_t;

/*
 * The facts of the call @t into @bf, under bucket_lock after
 * state_sync(): size, sharing, per-node minimums, time limit, policy
 * and preferences (the job's BUCKET_POLICY and BUCKET_PREFER, read
 * once, bounded, and taken only where bucket.conf lets the jobs of its
 * partition choose them; a choice ignored is said once per job),
 * backfill's window; what only a job of ours needs (the nodes it
 * may have, its GRES, the loads, WILL_RUN's plan) on the decision's
 * demand. O(1) plus the feature list; the demand O(B + N / 64) and the
 * plan (state_plan()).
 */
extern void convert_job_facts(bucket_facts_t *bf, const sb_job_test_t *t);

/* Free what the demand made (under bucket_lock); @bf's facts stay. */
extern void convert_job_facts_fini(bucket_facts_t *bf);

/*
 * The decision could not read @job_ptr's BUCKET_PREFER=@prefer (the
 * verdict's prefer_err, @err): say so, at info level once per job (as
 * for a choice its partition does not allow), under DebugFlags=SelectType
 * at every pass. Under bucket_lock.
 */
extern void convert_prefer_ignored(const job_record_t *job_ptr,
				   const char *prefer, int err);

/* ---- bucket_state.c ---------------------------------------------------- */

/* (Re)build the model from slurmctld's node table and bitmaps. */
extern int state_build(void);
extern void state_free(void);

/*
 * Bring the model up to date before a decision: nodes whose
 * configuration slurmctld changed without telling us (when
 * last_node_update moved, convert_config_sum(): O(C); a node that
 * differs rebuilds the model), nodes whose bit in avail_node_bitmap,
 * idle_node_bitmap or the powered-down nodes changed since the last call
 * (O(N / 64) word compares plus the changed nodes), reservations
 * (busy-later windows) and the clock.
 */
extern void state_sync(time_t now);

/*
 * slurmctld's reservations as the model sees them: the ones with nodes
 * of this cluster's size, their bitmaps converted, the name pointing into
 * the record (which tells them apart). The array and bitmaps are the
 * caller's to free with state_resv_free(). O(R N / 64).
 */
extern sb_model_resv_t *state_resv_read(size_t *nresv);
extern void state_resv_free(sb_model_resv_t *v, size_t n);

/* sb_node_fini() on @n nodes, then the array; NULL is fine. */
extern void state_nodes_free(sb_node_t *nodes, size_t n);

/* Node @i registered: rebuild later if its signature changed. O(1). */
extern void state_node_config(int i);

/* Current load averages, for policies that read them. O(N). */
extern void state_sync_loads(void);

/* ---- bucket_audit.c ---------------------------------------------------- */

/*
 * With DebugFlags=SelectType, after each state_sync(): compare the model
 * with one built afresh from slurmctld's nodes, bitmaps and reservations
 * at @now (what a restarted slurmctld starts from). The buckets are
 * logged in canonical form when they change; a difference is logged as
 * an error naming both forms, and the model is marked stale (state_sync()
 * rebuilds it before the decision).
 * O(N (sig + W) + R N / 64).
 */
extern void state_audit(time_t now);

/* Forget the last buckets logged (the model was rebuilt). O(1). */
extern void state_audit_forget(void);

/*
 * WILL_RUN's plan at @now: each node busy until the last running job on
 * it ends, reservations, down nodes. Built once (O(jobs N / 64 +
 * N r log r)) and kept: in step with the jobs that start
 * (state_job_begin) and the nodes that change, and brought forward from
 * the job list when the second changes or jobs ended, were suspended,
 * resumed or resized (state_plan_behind): O(jobs N / 64 + N + changed
 * nodes x r log r), no busy set built again for a node that did not
 * change. A running job's new time limit is seen when the second
 * changes: slurmctld tells the select plugin nothing of it. With
 * DebugFlags=SelectType a plan kept within a second is checked against
 * the job list first and one brought forward by the invariant checker.
 * @skip_resv: a reservation the job runs in (its nodes are no obstacle
 * to it; the plan is then built for this call only and returned in
 * *@own, for the caller to destroy).
 */
extern sb_will_run_t *state_plan(time_t now, const void *skip_resv,
				 sb_will_run_t **own);

/*
 * @job_ptr starts (select_p_job_begin): its nodes are busy until its end
 * in the kept plan, as a plan built now would have them, from the next
 * WILL_RUN on (they are marked; it plans them). Under bucket_lock.
 * O(N / 64 + its nodes).
 */
extern void state_job_begin(job_record_t *job_ptr);

/*
 * The running jobs changed in a way the plan is not kept in step with (a
 * job ended, was suspended, resumed or resized): the next WILL_RUN brings
 * the kept plan forward from the job list first. Under bucket_lock. O(1).
 */
extern void state_plan_behind(void);

/*
 * Forget the kept plan (reservations changed, the model is rebuilt, the
 * plan cannot be kept): the next WILL_RUN builds it again. Under
 * bucket_lock. O(plan).
 */
extern void state_plan_drop(void);

/* ---- bucket_job_place.c ------------------------------------------------ */

/* select_p_job_test(), the call's arguments in @t (sb_select.h). */
extern int job_test(const sb_job_test_t *t);

/* ---- select_bucket.c ---------------------------------------------------- */

/* select/bucket is the cluster's SelectType and this is slurmctld. */
extern bool bucket_in_ctld(void);

/* The bucket.conf read last, or "(none)"; under bucket_lock. */
extern const char *bucket_conf_file(void);

/*
 * The running jobs changed in a way WILL_RUN's kept plan does not follow
 * (select_forward.c, before the base hears of it): state_plan_behind().
 */
extern void bucket_jobs_changed(void);

#endif /* SELECT_BUCKET_H */
