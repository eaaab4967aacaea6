# harness/jobs.sh - users, associations and jobs.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later

# sb_user_add USER...: local users (no home, no group of their own) for
# jobs to run as, unless they exist. Tests run side by side and useradd
# refuses to work while another holds /etc/passwd's lock ("cannot lock
# /etc/passwd; try again later"): one at a time, under a lock of ours
# (in /tmp, which the chroot shares).
sb_user_add() {
	local u
	for u in "$@"; do
		id "$u" >/dev/null 2>&1 && continue
		flock /tmp/.sb-useradd.lock sh -c \
			'id "$1" >/dev/null 2>&1 || useradd -M -N -s /bin/sh "$1"' sh "$u" ||
			sb_die "cannot add the user $u"
	done
}

# sacctmgr's additions reach slurmctld a moment after sacctmgr returns:
# a user's association (and QOS) is known once slurmctld would start a
# job of theirs under it (sbatch --test-only, run from a directory the
# user may read).
_sb_can_submit() {
	local u=${1%%:*} rest=${1#*:} a q=
	a=${rest%%:*}
	[ "$rest" != "$a" ] && q=${rest#*:}
	runuser -u "$u" -- sbatch --test-only -A "$a" ${q:+-q "$q"} --wrap true 2>&1 |
		grep -q 'to start'
}
_sb_all_can_submit() {
	local p
	for p in "$@"; do
		_sb_can_submit "$p" || return 1
	done
}
sb_users_known() {
	local secs=$1
	shift
	sb_wait_for "$secs" _sb_all_can_submit "$@"
}

# "Is the queue empty?" has one answer here, because the easy one is
# wrong: squeue that cannot reach slurmctld (a busy controller, a
# restart, a timeout) prints nothing, and an empty output read as "no
# jobs" lets a test go on while jobs still run. Only an squeue that
# exited 0 counts. Both list the whole queue (squeue's default states:
# pending, running, completing, ...) rather than 'squeue -j', which
# fails ("Invalid job id specified") once slurmctld has purged the job.
#
# sb_queue_empty [SQUEUE_FILTER...]: squeue answered and listed no job
# (e.g. 'sb_queue_empty -t PENDING', 'sb_queue_empty -p debug').
sb_queue_empty() {
	local q
	q=$(squeue -h -o %i "$@") && [ -z "$q" ]
}
# sb_jobs_gone JOBID...: squeue answered and listed none of the jobs.
sb_jobs_gone() {
	local q j
	q=$(squeue -h -o %i) || return 1
	for j in "$@"; do
		grep -qxF -- "$j" <<<"$q" && return 1
	done
	return 0
}
sb_job_wait() { sb_wait_for "${2:-60}" sb_jobs_gone "$1"; }
sb_job_state() {
	scontrol show job "$1" 2>/dev/null |
		sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -n 1
}
