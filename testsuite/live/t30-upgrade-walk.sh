#!/bin/bash
# t30-upgrade-24.11-26.05 - a site's upgrade from Slurm 24.11 to 26.05
# with select/bucket and priority/bucket, in place: a 24.11 cluster
# (Debian 13's daemons, our plugins built for 24.11) with accounting has
# a job running, one pending and usage recorded; slurmdbd, slurmctld and
# every slurmd are stopped and 26.05's started on the same state,
# database and spool with our plugins built for 26.05. The running job
# goes on and ends normally, the pending one is placed by select/bucket,
# a new one too, and usage goes on from where it was. What our 24.11
# build saved with jobs must be what 26.05 reads (nothing of ours).
# Runs on 26.05 (SB_SLURM=26.05); plugins for 24.11 come from
# build/24.11 (built by this test when missing).
#
# sb-live: long (about 1.5 min on 26.05: it builds the 24.11 plugins when
#   missing)
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../cluster/harness.sh"

if [ "$SB_SERIES" != 26.05 ]; then
	echo "skip 1 - the 24.11 -> 26.05 upgrade runs with SB_SLURM=26.05 (this is $SB_SERIES)"
	exit 0
fi
top=$SB_TOP_SRCDIR
new_prefix=$SB_SLURM_PREFIX
new_plugins=${SB_PLUGIN_DIR:?the plugins built for 26.05}
old_build=$top/build/24.11
sys_path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

if [ ! -x /usr/sbin/slurmctld ] || [ "$(sb_series_of /usr)" != 24.11 ]; then
	echo "skip 1 - no Slurm 24.11 in the chroot (SB_SLURM=24.11 ./quickstart deps installs it)"
	exit 0
fi
# Our plugins for 24.11, from this tree.
mkdir -p "$top/build"
if [ -f "$old_build/config.status" ]; then
	env PATH=$sys_path make -C "$old_build" -s -j2 >"${SB_LOG_DIR:-/tmp}/t30-build-24.11.log" 2>&1
else
	env PATH=$sys_path SB_SLURM=24.11 "$top/quickstart" build \
		>"${SB_LOG_DIR:-/tmp}/t30-build-24.11.log" 2>&1
fi || { echo "not ok 1 - building the plugins for 24.11 (see t30-build-24.11.log)"; exit 1; }

sb_use_slurm /usr
SB_PLUGIN_DIR=$old_build/.plugins
sb_cluster_init t30
sb_nodes "n[1-4]" "CPUs=2 RealMemory=2000"
sb_accounting
sb_select bucket
sb_conf "PriorityType=priority/bucket"
sb_conf "PriorityDecayHalfLife=1-0"
# a fair-share pass every 2 s (PriorityCalcPeriod counts minutes)
sb_conf "PriorityParameters=calc_period=2"
sb_conf "DebugFlags=SelectType"
SB_CTLD_DEBUG=verbose
sb_cluster_start

sb_check_eq "the cluster runs Slurm 24.11" 24.11 \
	sh -c "scontrol version | awk '{ print \$NF }' | cut -d. -f1,2"
sb_user_add sbup
sacctmgr -i add account upg Fairshare=10 >/dev/null
sacctmgr -i add user sbup Account=upg >/dev/null
cd "$SB_DIR/jobs" || exit 1
sb_users_known 20 sbup:upg

_sub() { runuser -u sbup -- sbatch --parsable -A upg -o /dev/null "$@"; }
_usage() {
	sshare -a -P -n -o User,RawUsage 2>/dev/null | sed 's/^ *//' |
		awk -F'|' '$1 == "sbup" { print $2 }'
}
_nodes() { squeue -h -j "$1" -o %N; }

# Usage first: a short job that ends on 24.11.
j0=$(_sub -N 1 --exclusive --wrap 'sleep 3')
sb_job_wait "$j0" 60
sb_check_eq "a first job completed on 24.11" COMPLETED sb_job_state "$j0"
sb_check "its usage is recorded" sb_wait_for 30 sh -c "[ \"\$($(declare -f _usage); _usage)\" -gt 0 ]"
used_before=$(_usage)

# One running across the upgrade, one pending behind it.
jrun=$(_sub -N 2 --exclusive -t 5 --wrap 'sleep 45')
sb_check "a 2-node job runs" sb_wait_for 30 sh -c "squeue -h -j $jrun -o %T | grep -qx RUNNING"
run_nodes=$(_nodes "$jrun")
jpend=$(_sub -N 3 --exclusive -t 5 --wrap 'sleep 2')
sb_check "a 3-node job waits behind it" sb_wait_for 10 sh -c "squeue -h -j $jpend -o %T | grep -qx PENDING"
sb_check "select/bucket placed the running job on 24.11" \
	grep -q "JobId=$jrun RUN_NOW: run (bucket path" "$SB_DIR/log/slurmctld.log"

# ---- the upgrade ------------------------------------------------------------
sb_check "the cluster comes back on 26.05 with our plugins built for it" \
	sb_switch_slurm "$new_prefix" "$new_plugins"
sb_check_eq "it runs Slurm 26.05" 26.05 \
	sh -c "scontrol version | awk '{ print \$NF }' | cut -d. -f1,2"
sb_check "slurmctld runs our 26.05 select_bucket.so" \
	grep -q " $SB_DIR/plugins/select_bucket.so\$" "/proc/$SB_CTLD_PID/maps"
sb_check_eq "the running job is still running, on the same nodes" "RUNNING $run_nodes" \
	squeue -h -j "$jrun" -o '%T %N'
sb_check_eq "the pending job is still pending" PENDING \
	squeue -h -j "$jpend" -o %T
used_after=$(_usage)
sb_check "sshare keeps the usage recorded on 24.11 ($used_before -> $used_after)" \
	test -n "$used_after" -a "${used_after:-0}" -ge "$used_before"

sb_job_wait "$jrun" 90
sb_check_eq "the running job ended normally on 26.05" COMPLETED sb_job_state "$jrun"
sb_job_wait "$jpend" 60
sb_check_eq "the pending job ran and completed" COMPLETED sb_job_state "$jpend"
sb_check "select/bucket placed it on 26.05" \
	grep -q "JobId=$jpend RUN_NOW: run (bucket path" "$SB_DIR/log/slurmctld.log"
jnew=$(_sub -N 2 --exclusive -t 5 --wrap 'sleep 1')
sb_job_wait "$jnew" 60
sb_check_eq "a job submitted on 26.05 completed" COMPLETED sb_job_state "$jnew"
sb_check "usage goes on growing on 26.05" \
	sb_wait_for 30 sh -c "[ \"\$($(declare -f _usage); _usage)\" -gt $used_after ]"
sb_check "sacct has the job that ran across the upgrade as completed" \
	sb_wait_for 30 sh -c "sacct -n -P -X -j $jrun -o State | grep -qx COMPLETED"
sb_check_eq "no error of our plugins in slurmctld's log" "" \
	sh -c "grep -E 'error: (select|priority)/bucket' '$SB_DIR/log/slurmctld.log'"
sb_check_eq "slurmctld read every job of the 24.11 state" "" \
	sh -c "grep -iE 'Incomplete job record|unpack.*job|job state.*(corrupt|invalid)' '$SB_DIR/log/slurmctld.log'"

sb_cluster_stop
sb_check "every daemon the harness started is gone ($(sb_pids))" sb_all_gone
