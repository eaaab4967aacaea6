/*
 * bucket_usage.c - the decay thread of priority/bucket: decays every
 * association's (and QOS's) usage, adds running jobs' usage to their
 * association and every ancestor, honours PriorityCalcPeriod and
 * PriorityUsageResetPeriod, runs the fair-share pass and re-prioritises
 * pending jobs. The time of the last pass and of the last reset survive
 * restarts in priority/multifactor's own state file,
 * StateSaveLocation/priority_last_decay_ran, in its format: a switch
 * between the two plugins then decays every second once. (The usage
 * itself is saved by slurmctld's assoc_mgr, as for every priority plugin.)
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The arithmetic (decay factor, decayed job usage, reset times) is
 * common/usage_decay.h; this file supplies times, walks Slurm's lists
 * and takes the locks.
 */
#include "config.h"

#if HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "sb_slurm.h"

#include "priority_bucket.h"
#include "priority_state.h"
#include "usage_decay.h"

/* priority/multifactor's name: both plugins keep one record of decay */
#define STATE_FILE "priority_last_decay_ran"

static pthread_t decay_thread;
static bool decay_thread_running = false;
static pthread_mutex_t decay_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t decay_cond = PTHREAD_COND_INITIALIZER;
static bool shutdown_req = false;
static bool reconfig_req = false;

/*
 * Time up to which running jobs' usage has been added. Written by the
 * decay thread with the job write lock held; read by job_end (which holds
 * the job write lock too).
 */
static time_t g_last_ran = 0;
static time_t g_last_reset = 0;
/* Per-second decay factor; same locking as g_last_ran. */
static double g_decay_factor = 1.0;

/* ---- state file --------------------------------------------------------- */

static char *_state_path(const char *suffix)
{
	return xstrdup_printf("%s/%s%s", slurm_conf.state_save_location,
			      STATE_FILE, suffix ? suffix : "");
}

/*
 * The last pass and the last reset, as multifactor packs them: two
 * pack_time() values (common/priority_state.h reads them, each taken
 * into [0, now]: a time in the future would stop usage from accruing or
 * postpone PriorityUsageResetPeriod, and is logged). A missing file is a
 * first start. An unreadable or torn one is logged, where multifactor
 * would stop slurmctld: decay then restarts from now, and
 * PriorityUsageResetPeriod counts from the file's last write: every pass
 * writes it, so the lost last reset is no later than that, and a reset
 * that fell due while slurmctld was down still happens (counting from
 * now would skip it).
 */
static void _read_state(time_t *last_ran, time_t *last_reset)
{
	char *path = _state_path(NULL);
	time_t now = time(NULL);
	sb_prio_state_t st;
	buf_t *buf;
	struct stat st_file;

	*last_ran = *last_reset = 0;
	if ((access(path, F_OK) < 0) && (errno == ENOENT)) {
		info("no %s yet: usage decay starts now", path);
		xfree(path);
		return;
	}
	lock_state_files();
	buf = create_mmap_buf(path);
	unlock_state_files();
	if (!buf) {
		error(BUCKET_PFX "cannot read %s; usage decay restarts from now", path);
		goto lost;
	}
	if (sb_prio_state_parse(get_buf_data(buf), size_buf(buf),
				(int64_t) now, &st) < 0) {
		error(BUCKET_PFX "%s is not a priority state file; ignoring it (usage decay restarts from now)", path);
		free_buf(buf);
		goto lost;
	}
	free_buf(buf);
	if (st.ran_clamped)
		error(BUCKET_PFX "%s: the last decay pass is after now (%lld); taken as now",
		      path, (long long) now);
	if (st.reset_clamped)
		error(BUCKET_PFX "%s: the last usage reset is after now (%lld); taken as now, the next reset counts from it",
		      path, (long long) now);
	*last_ran = (time_t) st.last_ran;
	*last_reset = (time_t) st.last_reset;
	log_flag(PRIO, "last pass at %lld, last reset at %lld",
		 (long long) *last_ran, (long long) *last_reset);
	xfree(path);
	return;
lost:
	if (!stat(path, &st_file) && (st_file.st_mtime > 0) &&
	    (st_file.st_mtime <= now)) {
		*last_reset = st_file.st_mtime;
		info("%s: PriorityUsageResetPeriod counts from its last write, %lld",
		     path, (long long) st_file.st_mtime);
	}
	xfree(path);
}

/*
 * Write the state atomically, under slurmctld's state file lock as
 * multifactor does: a new file readable by SlurmUser alone (0600, as
 * multifactor's), fsync, rename over the old one, fsync of the
 * directory so the rename itself survives a power cut. On any failure
 * the old file stays as it was.
 */
static void _write_state(time_t last_ran, time_t last_reset)
{
	char *path, *tmp;
	buf_t *buf;
	int fd, dfd, rc = -1;

	if (!xstrcmp(slurm_conf.state_save_location, "/dev/null"))
		return;
	path = _state_path(NULL);
	tmp = _state_path(".new");
	buf = init_buf(64);
	pack_time(last_ran, buf);
	pack_time(last_reset, buf);
	lock_state_files();
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0) {
		/* Slurm's own writers of state files: safe_write() jumps to
		 * rwfail when a write fails; fsync_and_close() retries */
		safe_write(fd, get_buf_data(buf), get_buf_offset(buf));
		rc = 0;
rwfail:
		if (fsync_and_close(fd, "priority decay"))
			rc = -1;
	}
	if (rc || rename(tmp, path)) {
		error(BUCKET_PFX "cannot save %s: %m", path);
		(void) unlink(tmp);
	} else if ((dfd = open(slurm_conf.state_save_location,
			       O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		if (fsync(dfd))
			error(BUCKET_PFX "cannot sync %s: %m",
			      slurm_conf.state_save_location);
		(void) close(dfd);
	}
	unlock_state_files();
	free_buf(buf);
	xfree(tmp);
	xfree(path);
}

/* ---- decay and reset ---------------------------------------------------- */

/*
 * Multiply every association's and QOS's usage by @d: decay, or with
 * d = 0 a reset, which also zeroes the NoDecay QOS decay leaves alone.
 * Caller holds the assoc and qos WRITE locks.
 */
static void _scale_usage_locked(double d)
{
	slurmdb_qos_rec_t *q;
	list_itr_t *itr;

	bucket_assoc_scale_usage(d);
	if (assoc_mgr_qos_list) {
		itr = list_iterator_create(assoc_mgr_qos_list);
		while ((q = list_next(itr)))
			if (q->usage &&
			    (!d || !(q->flags & QOS_FLAG_NO_DECAY)))
				SCALE_USAGE(q->usage, d);
		list_iterator_destroy(itr);
	}
}

/* PriorityUsageResetPeriod: zero every association's and QOS's usage. */
static void _reset_usage(void)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK, .qos = WRITE_LOCK };

	info("PriorityUsageResetPeriod: resetting all usage");
	assoc_mgr_lock(&locks);
	_scale_usage_locked(0.0);
	assoc_mgr_unlock(&locks);
}

static int32_t _utc_offset(time_t now)
{
	struct tm tm;

	if (!localtime_r(&now, &tm))
		return 0;
	if ((tm.tm_gmtoff > SB_DECAY_OFFSET_MAX) ||
	    (tm.tm_gmtoff < -SB_DECAY_OFFSET_MAX))
		return 0;
	return (int32_t) tm.tm_gmtoff;
}

static sb_reset_period_t _reset_period(uint16_t p)
{
	switch (p) {
	case PRIORITY_RESET_NOW:
		return SB_RESET_NOW;
	case PRIORITY_RESET_DAILY:
		return SB_RESET_DAILY;
	case PRIORITY_RESET_WEEKLY:
		return SB_RESET_WEEKLY;
	case PRIORITY_RESET_MONTHLY:
		return SB_RESET_MONTHLY;
	case PRIORITY_RESET_QUARTERLY:
		return SB_RESET_QUARTERLY;
	case PRIORITY_RESET_YEARLY:
		return SB_RESET_YEARLY;
	default:
		return SB_RESET_NONE;
	}
}

/* ---- running jobs' usage ------------------------------------------------ */

/* Remove @delta TRES seconds from a grp_used_tres_run_secs array. */
static void _sub_run_secs(uint64_t *run_secs, uint32_t cnt,
			  const uint64_t *delta, int n)
{
	int i;

	for (i = 0; run_secs && (i < n) && (i < (int) cnt); i++) {
		if (i == TRES_ARRAY_ENERGY)
			continue;
		if (delta[i] > run_secs[i])
			run_secs[i] = 0;
		else
			run_secs[i] -= delta[i];
	}
}

static void _add_tres_raw(long double *raw, uint32_t cnt,
			  const long double *add, int n)
{
	int i;

	for (i = 0; raw && (i < n) && (i < (int) cnt); i++)
		if (i != TRES_ARRAY_ENERGY)
			raw[i] += add[i];
}

/* Remove @delta TRES seconds of @job_ptr from everything @qos counts. */
static void _qos_run_secs(slurmdb_qos_rec_t *qos, job_record_t *job_ptr,
			  const uint64_t *delta, int n)
{
	if (!qos || !qos->usage)
		return;
	_sub_run_secs(qos->usage->grp_used_tres_run_secs, qos->usage->tres_cnt,
		      delta, n);
	sb_qos_used_run_secs(qos, job_ptr, delta, n);
}

/* Usage and TRES run time of one QOS for one job. */
static void _qos_usage(slurmdb_qos_rec_t *qos, job_record_t *job_ptr,
		       double run_secs, double usage,
		       double run_secs_nd, double usage_nd,
		       const long double *tres_decay,
		       const long double *tres_nodecay,
		       const uint64_t *tres_delta, int n, bool limits)
{
	bool nd;

	if (!qos || !qos->usage)
		return;
	nd = (qos->flags & QOS_FLAG_NO_DECAY);
	qos->usage->grp_used_wall += nd ? run_secs_nd : run_secs;
	qos->usage->usage_raw += (long double) (nd ? usage_nd : usage);
	if (!limits)
		return;
	_add_tres_raw(qos->usage->usage_tres_raw, qos->usage->tres_cnt,
		      nd ? tres_nodecay : tres_decay, n);
	_qos_run_secs(qos, job_ptr, tres_delta, n);
}

/*
 * Add the usage @job_ptr had from @start_period to @end_period to its QOS,
 * its association and every ancestor up to root. @at_end: the job ended
 * (count only up to its end, and only once). Job write lock held; assoc
 * WRITE, qos WRITE, tres READ held when @assoc_locked.
 */
static void _job_usage(job_record_t *job_ptr, time_t start_period,
		       time_t end_period, bool at_end, bool assoc_locked)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK, .qos = WRITE_LOCK,
				   .tres = READ_LOCK };
	int n = slurmctld_tres_cnt, i;
	uint64_t tres_delta[MAX(n, 1)];
	long double tres_decay[MAX(n, 1)], tres_nodecay[MAX(n, 1)];
	uint64_t limit_end, tres_secs = 0;
	double run_delta, decayed_secs, billable, uf = 1.0;
	double usage, usage_nd, run_secs, run_secs_nd;
	bool limits = (accounting_enforce & ACCOUNTING_ENFORCE_LIMITS);
	slurmdb_qos_rec_t *qos, *part_qos = NULL;
	slurmdb_assoc_rec_t *a;
	double factor = g_decay_factor;

	if (job_ptr->end_time_exp == (time_t) NO_VAL)
		return;		/* its end was counted already */
	if (job_ptr->start_time > start_period)
		start_period = job_ptr->start_time;
	if (at_end && job_ptr->end_time && (end_period > job_ptr->end_time))
		end_period = job_ptr->end_time;
	run_delta = difftime(end_period, start_period);
	if (run_delta < 0)
		run_delta = 0;

	/*
	 * acct_policy charged time_limit * TRES up front into
	 * grp_used_tres_run_secs; give back what has now been used (and at
	 * the end, everything up to the limit).
	 */
	limit_end = (uint64_t) job_ptr->start_time +
		(uint64_t) job_ptr->time_limit * 60;
	if ((uint64_t) start_period >= limit_end)
		tres_secs = 0;
	else if (IS_JOB_FINISHED(job_ptr) || IS_JOB_COMPLETING(job_ptr) ||
		 IS_JOB_RESIZING(job_ptr))
		tres_secs = limit_end - (uint64_t) start_period;
	else if (end_period > job_ptr->end_time_exp) {
		double d = difftime(job_ptr->end_time_exp, start_period);
		tres_secs = (d > 0) ? (uint64_t) d : 0;
	} else
		tres_secs = (uint64_t) run_delta;
	if (at_end)
		job_ptr->end_time_exp = (time_t) NO_VAL;

	if (!assoc_locked)
		assoc_mgr_lock(&locks);
	billable = calc_job_billable_tres(job_ptr, start_period, true);
	qos = job_ptr->qos_ptr;
	if (qos && (qos->usage_factor >= 0))
		uf = qos->usage_factor;
	decayed_secs = sb_decay_new_usage(factor, (int64_t) run_delta, 1.0,
					  -1.0);
	usage = sb_decay_new_usage(factor, (int64_t) run_delta, billable, uf);
	run_secs = decayed_secs * uf;
	usage_nd = run_delta * billable * uf;
	run_secs_nd = run_delta * uf;
	tres_secs = (uint64_t) (tres_secs * uf);

	memset(tres_delta, 0, sizeof(tres_delta));
	memset(tres_decay, 0, sizeof(tres_decay));
	memset(tres_nodecay, 0, sizeof(tres_nodecay));
	for (i = 0; job_ptr->tres_alloc_cnt && (i < n); i++) {
		uint64_t c = job_ptr->tres_alloc_cnt[i];

		if (!c || (c == NO_CONSUME_VAL64))
			continue;
		tres_delta[i] = tres_secs * c;
		tres_decay[i] = (long double) run_secs * c;
		tres_nodecay[i] = (long double) run_secs_nd * c;
	}

	_qos_usage(qos, job_ptr, run_secs, usage, run_secs_nd, usage_nd,
		   tres_decay, tres_nodecay, tres_delta, n, limits);
	if (job_ptr->part_ptr && (job_ptr->part_ptr->qos_ptr != qos))
		part_qos = job_ptr->part_ptr->qos_ptr;
	_qos_usage(part_qos, job_ptr, run_secs, usage, run_secs_nd, usage_nd,
		   tres_decay, tres_nodecay, tres_delta, n, limits);

	/* the association and every ancestor, root included */
	for (a = job_ptr->assoc_ptr; a && a->usage;
	     a = a->usage->parent_assoc_ptr) {
		a->usage->grp_used_wall += run_secs;
		a->usage->usage_raw += (long double) usage;
		if (assoc_locked)
			bucket_assoc_usage_added(a);
		if (limits) {
			_add_tres_raw(a->usage->usage_tres_raw,
				      a->usage->tres_cnt, tres_decay, n);
			_sub_run_secs(a->usage->grp_used_tres_run_secs,
				      a->usage->tres_cnt, tres_delta, n);
		}
	}
	if (!assoc_locked)
		assoc_mgr_unlock(&locks);
	log_flag(PRIO, "%pJ: %.0f s x billable %.2f x usage factor %.2f, decayed: +%f usage%s",
		 job_ptr, run_delta, billable, uf, usage,
		 at_end ? " (end)" : "");
}

/* Does @job_ptr accrue usage now? */
static bool _accrues(job_record_t *job_ptr)
{
	if (IS_JOB_FINISHED(job_ptr) || IS_JOB_COMPLETING(job_ptr))
		return false;
	if (IS_JOB_PENDING(job_ptr) &&
	    !(prio_settings.flags & PRIORITY_FLAGS_CALCULATE_RUNNING))
		return false;
	if (IS_JOB_POWER_UP_NODE(job_ptr))
		return false;
	return job_ptr->start_time && job_ptr->assoc_ptr;
}

/*
 * After a restart or an association reset, acct_policy charged every
 * running job's whole time limit again: give back what ran before
 * @last_ran. Job read lock and assoc locks are taken here.
 */
static void _init_run_secs(time_t last_ran)
{
	slurmctld_lock_t job_read_lock = { .job = READ_LOCK };
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK, .qos = WRITE_LOCK,
				   .tres = READ_LOCK };
	int n = slurmctld_tres_cnt, i;
	uint64_t delta[MAX(n, 1)];
	job_record_t *job_ptr;
	list_itr_t *itr;

	if (!(slurm_conf.accounting_storage_enforce &
	      ACCOUNTING_ENFORCE_LIMITS) || !last_ran || !job_list)
		return;
	lock_slurmctld(job_read_lock);
	assoc_mgr_lock(&locks);
	itr = list_iterator_create(job_list);
	while ((job_ptr = list_next(itr))) {
		slurmdb_assoc_rec_t *a;
		double f = 1.0;

		if ((job_ptr->end_time_exp == (time_t) NO_VAL) ||
		    !IS_JOB_RUNNING(job_ptr) ||
		    (job_ptr->start_time > last_ran) ||
		    !job_ptr->tres_alloc_cnt)
			continue;
		if (job_ptr->qos_ptr && (job_ptr->qos_ptr->usage_factor >= 0))
			f = job_ptr->qos_ptr->usage_factor;
		f *= (double) (last_ran - job_ptr->start_time);
		memset(delta, 0, sizeof(delta));
		for (i = 0; i < n; i++)
			if (job_ptr->tres_alloc_cnt[i] != NO_CONSUME_VAL64)
				delta[i] = job_ptr->tres_alloc_cnt[i] * f;
		_qos_run_secs(job_ptr->qos_ptr, job_ptr, delta, n);
		if (job_ptr->part_ptr &&
		    (job_ptr->part_ptr->qos_ptr != job_ptr->qos_ptr))
			_qos_run_secs(job_ptr->part_ptr->qos_ptr, job_ptr,
				      delta, n);
		for (a = job_ptr->assoc_ptr; a && a->usage;
		     a = a->usage->parent_assoc_ptr)
			_sub_run_secs(a->usage->grp_used_tres_run_secs,
				      a->usage->tres_cnt, delta, n);
	}
	list_iterator_destroy(itr);
	assoc_mgr_unlock(&locks);
	unlock_slurmctld(job_read_lock);
}

/* ---- the thread ---------------------------------------------------------- */

/*
 * One pass: decay, running jobs' usage since the last pass, fair share,
 * under one hold of the locks, so assoc_mgr's list is compared with the
 * fair-share layout once (bucket_assoc_pass_begin). Job write lock held.
 */
static void _usage_pass(time_t now)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK, .qos = WRITE_LOCK,
				   .tres = READ_LOCK };
	prio_settings_t conf;

	prio_settings_snapshot(&conf, NULL, 0);
	assoc_mgr_lock(&locks);
	bucket_assoc_pass_begin();
	if (g_last_ran && (now > g_last_ran)) {
		double d = sb_decay_over(g_decay_factor, now - g_last_ran);

		if (d < 1.0)
			_scale_usage_locked(d);
		/* move the mark under the same job lock, so job_end never
		 * counts a second twice */
		if (job_list) {
			list_itr_t *itr = list_iterator_create(job_list);
			job_record_t *job_ptr;

			while ((job_ptr = list_next(itr)))
				if (_accrues(job_ptr))
					_job_usage(job_ptr, g_last_ran, now,
						   false, true);
			list_iterator_destroy(itr);
		}
	}
	g_last_ran = now;
	if (conf.calc_fairshare)
		(void) bucket_assoc_compute(&conf);
	bucket_assoc_pass_end();
	assoc_mgr_unlock(&locks);
}

/* PriorityParameters calc_period, else PriorityCalcPeriod (seconds). */
static int _calc_period(void)
{
	int period;

	slurm_mutex_lock(&prio_settings_lock);
	period = prio_settings.params.calc_period;
	slurm_mutex_unlock(&prio_settings_lock);
	if (period <= 0)
		period = slurm_conf.priority_calc_period;
	return MAX(period, 1);
}

static void *_decay_main(void *arg)
{
	slurmctld_lock_t job_write_lock = { .job = WRITE_LOCK,
					    .node = READ_LOCK,
					    .part = READ_LOCK };
	sb_reset_period_t reset = _reset_period(
		slurm_conf.priority_reset_period);
	int64_t next_reset = 0;
	struct timespec wake;
	time_t now;

#if HAVE_SYS_PRCTL_H
	if (prctl(PR_SET_NAME, "bucket_decay", NULL, NULL, NULL) < 0)
		error(BUCKET_PFX "cannot name the decay thread: %m");
#endif
	_init_run_secs(g_last_ran);
	clock_gettime(CLOCK_REALTIME, &wake);

	slurm_mutex_lock(&decay_lock);
	while (!shutdown_req) {
		now = time(NULL);
		if (reconfig_req) {
			reset = _reset_period(slurm_conf.priority_reset_period);
			next_reset = 0;
			reconfig_req = false;
			/* the period may have changed: count from now */
			clock_gettime(CLOCK_REALTIME, &wake);
		}
		slurm_mutex_unlock(&decay_lock);

		/* PriorityUsageResetPeriod first, as priority/multifactor */
		if (reset == SB_RESET_NOW) {
			_reset_usage();
			g_last_reset = now;
			reset = SB_RESET_NONE;
		} else if (reset != SB_RESET_NONE) {
			if (!next_reset)
				next_reset = sb_reset_next(
					reset, g_last_reset ? g_last_reset :
					now, now, _utc_offset(now));
			if ((next_reset > 0) && (now >= next_reset)) {
				_reset_usage();
				g_last_reset = next_reset;
				next_reset = sb_reset_next(reset, g_last_reset,
							   now,
							   _utc_offset(now));
			}
		}

		lock_slurmctld(job_write_lock);
		site_factor_g_update();
		_usage_pass(now);
		bucket_job_recalc_all(now);
		unlock_slurmctld(job_write_lock);

		_write_state(now, g_last_reset);

		slurm_mutex_lock(&decay_lock);
		wake.tv_sec += _calc_period();
		if (wake.tv_sec < time(NULL))	/* fell behind: no burst */
			wake.tv_sec = time(NULL) + 1;
		while (!shutdown_req && !reconfig_req &&
		       (pthread_cond_timedwait(&decay_cond, &decay_lock,
					       &wake) != ETIMEDOUT))
			;
	}
	slurm_mutex_unlock(&decay_lock);
	return NULL;
}

static double _factor_from_conf(void)
{
	return sb_decay_factor((int64_t) slurm_conf.priority_decay_hl);
}

extern void bucket_usage_init(void)
{
	_read_state(&g_last_ran, &g_last_reset);
	if (!g_last_reset)
		g_last_reset = time(NULL);
	g_decay_factor = _factor_from_conf();
	log_flag(PRIO, "decay factor %.15f per second (half-life %u s)",
		 g_decay_factor, slurm_conf.priority_decay_hl);
}

extern void bucket_usage_start(void)
{
	if (decay_thread_running)
		return;
	shutdown_req = false;
	reconfig_req = false;
	sb_thread_create("bucket_decay", &decay_thread, _decay_main, NULL);
	decay_thread_running = true;
	log_flag(PRIO, "decay thread started");
}

extern void bucket_usage_stop(void)
{
	if (!decay_thread_running)
		return;
	slurm_mutex_lock(&decay_lock);
	shutdown_req = true;
	slurm_cond_broadcast(&decay_cond);
	slurm_mutex_unlock(&decay_lock);
	pthread_join(decay_thread, NULL);
	decay_thread_running = false;
}

extern void bucket_usage_reconfig(bool assoc_clear)
{
	/*
	 * A new PriorityDecayHalfLife applies from now on. A plain store:
	 * readers hold the job lock, which some reconfigure paths hold
	 * already when they call us (scontrol setdebugflags), so it cannot be
	 * taken here.
	 */
	g_decay_factor = _factor_from_conf();
	if (assoc_clear)
		_init_run_secs(g_last_ran);
	slurm_mutex_lock(&decay_lock);
	reconfig_req = true;
	slurm_cond_broadcast(&decay_cond);
	slurm_mutex_unlock(&decay_lock);
}

extern void bucket_usage_job_end(job_record_t *job_ptr)
{
	if (!job_ptr->assoc_ptr || !g_last_ran)
		return;
	_job_usage(job_ptr, g_last_ran, time(NULL), true, false);
}
