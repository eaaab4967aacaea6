#!/bin/bash
# t30-upgrade-walk - a site's upgrades through the series of the chroot
# (build-aux/slurm-series chroot: 24.11 -> 26.05, and 25.05 and 25.11 on
# the way where a site's tarball built them; each hop within Slurm's
# three releases back) with select/bucket and
# priority/bucket, in place: a 24.11 cluster (Debian 13's daemons, our
# plugins built for 24.11) with accounting has usage recorded, a job
# running and one pending; at each hop slurmdbd, slurmctld and every
# slurmd are stopped and the next series' started on the same state,
# database and spool with our plugins built for it. The one running job
# goes on through every hop on the same nodes, usage goes on from where
# it was, and a new job is placed by select/bucket on each series; at the
# end the running job completes, the pending one is placed too. What each
# of our builds saved with jobs must be what the next series reads
# (nothing of ours). Runs on the last series (SB_SLURM=26.05); the
# plugins of the others come from build/SERIES (built by this test when
# missing; their Slurm must be there: SB_SLURM=SERIES ./quickstart deps).
# A series tested only with a site's tarball (build-aux/slurm-series
# site) that is not built here is left out of the walk, said in a line.
#
# sb-live: long (about 20 s on 26.05, the walk 10 s of it; minutes when
#   it builds the older series' plugins)
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../cluster/harness.sh"

top=$SB_TOP_SRCDIR
walk=$("$top/build-aux/slurm-series" chroot)
last=${walk##* }
if [ "$SB_SERIES" != "$last" ]; then
	echo "skip 1 - the upgrade walk ${walk// / -> } runs with SB_SLURM=$last (this is $SB_SERIES)"
	exit 0
fi
sys_path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

# Each series' Slurm (prefix) and our plugins built for it.
declare -A prefix plugins
prefix[$last]=$SB_SLURM_PREFIX
plugins[$last]=${SB_PLUGIN_DIR:?the plugins built for $last}
hops=
for s in ${walk% *}; do
	if [ "$("$top/build-aux/slurm-series" from "$s")" = debian ]; then
		p=/usr
	else
		p=$("$top/build-aux/slurm-build" -q "$s" prefix 2>/dev/null) || p=
	fi
	if [ -z "$p" ] || [ "$(sb_series_of "$p")" != "$s" ]; then
		if [ "$("$top/build-aux/slurm-series" source "$s")" = site ]; then
			echo "# Slurm $s is not built here (a site's tarball: SB_SLURM_TARBALL): the walk goes past it"
			continue
		fi
		echo "skip 1 - no Slurm $s in the chroot (SB_SLURM=$s ./quickstart deps installs or builds it)"
		exit 0
	fi
	prefix[$s]=$p
	plugins[$s]=$top/build/$s/.plugins
	hops="$hops $s"
done
walk="${hops# } $last"
# Our plugins for them, from this tree (quickstart puts a built
# series' prefix first in PATH itself; nothing else of Slurm's may be;
# nor make check's MAKEFLAGS, its jobserver and variables).
mkdir -p "$top/build"
for s in ${walk% *}; do
	log=${SB_LOG_DIR:-/tmp}/t30-build-$s.log
	path=$sys_path
	[ "${prefix[$s]}" = /usr ] || path=${prefix[$s]}/bin:${prefix[$s]}/sbin:$sys_path
	if [ -f "$top/build/$s/config.status" ]; then
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL PATH="$path" \
			make -C "$top/build/$s" -s -j2 >"$log" 2>&1
	else
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL PATH=$sys_path SB_SLURM="$s" \
			"$top/quickstart" build >"$log" 2>&1
	fi || { echo "not ok 1 - building the plugins for $s (see ${log##*/})"; exit 1; }
done

first=${walk%% *}
sb_use_slurm "${prefix[$first]}"
SB_PLUGIN_DIR=${plugins[$first]}
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

log=$SB_DIR/log/slurmctld.log
_version() { scontrol version | awk '{ print $NF }' | cut -d. -f1,2; }
# Does slurmctld map the select_bucket.so of plugin directory $1?
_maps_ours() {
	local f
	f=$(awk '$6 ~ /\/select_bucket\.so$/ && NF == 6 { print $6; exit }' \
		"/proc/$SB_CTLD_PID/maps")
	[ -n "$f" ] && cmp -s "$f" "$1/select_bucket.so"
}
_sub() { runuser -u sbup -- sbatch --parsable -A upg -o /dev/null "$@"; }
_usage() {
	sshare -a -P -n -o User,RawUsage 2>/dev/null | sed 's/^ *//' |
		awk -F'|' '$1 == "sbup" { print $2 }'
}
_usage_gt() { local u; u=$(_usage); [ -n "$u" ] && [ "$u" -gt "$1" ]; }
# A small exclusive job: it completes, placed by select/bucket.
_placed() {
	local j
	j=$(_sub -N 2 --exclusive -t 1 --wrap true)
	sb_job_wait "$j" 60
	sb_check_eq "a job submitted on $1 completed" COMPLETED sb_job_state "$j"
	sb_check "select/bucket placed it on $1" \
		grep -q "JobId=$j RUN_NOW: run (bucket path" "$log"
}

sb_check_eq "the cluster runs Slurm $first" "$first" _version
sb_check "slurmctld maps our select_bucket.so built for $first" \
	_maps_ours "${plugins[$first]}"
sb_user_add sbup
sacctmgr -i add account upg Fairshare=10 >/dev/null
sacctmgr -i add user sbup Account=upg >/dev/null
cd "$SB_DIR/jobs" || exit 1
sb_users_known 20 sbup:upg

# Usage first: a short job that ends on the first series.
j0=$(_sub -N 1 --exclusive --wrap 'sleep 3')
sb_job_wait "$j0" 60
sb_check_eq "a first job completed on $first" COMPLETED sb_job_state "$j0"
sb_check "its usage is recorded" sb_wait_for 30 _usage_gt 0

# One job running across every hop, until the walk is done (a hop takes
# 0.5-1 s, the walk 10 s on 2 CPUs: its 5 min limit leaves room), one
# pending behind it.
jrun=$(_sub -N 2 --exclusive -t 5 --wrap \
	'for i in $(seq 560); do [ -e walk-done ] && exit 0; sleep 0.5; done; exit 1')
sb_check "a 2-node job runs" sb_wait_for 30 sh -c "squeue -h -j $jrun -o %T | grep -qx RUNNING"
run_nodes=$(squeue -h -j "$jrun" -o %N)
jpend=$(_sub -N 3 --exclusive -t 5 --wrap 'sleep 2')
sb_check "a 3-node job waits behind it" sb_wait_for 10 sh -c "squeue -h -j $jpend -o %T | grep -qx PENDING"
sb_check "select/bucket placed the running job on $first" \
	grep -q "JobId=$jrun RUN_NOW: run (bucket path" "$log"

# ---- the walk ----------------------------------------------------------------
from=$first
for s in ${walk#* }; do
	used_before=$(_usage)
	t0=$EPOCHREALTIME
	sb_check "the cluster comes back on $s with our plugins built for it" \
		sb_switch_slurm "${prefix[$s]}" "${plugins[$s]}"
	sb_say "hop $from -> $s: $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s"
	sb_check_eq "it runs Slurm $s" "$s" _version
	sb_check "slurmctld maps our select_bucket.so built for $s" \
		_maps_ours "${plugins[$s]}"
	sb_check_eq "the job running since $first still runs, on the same nodes" \
		"RUNNING $run_nodes" squeue -h -j "$jrun" -o '%T %N'
	sb_check_eq "the pending job still waits" PENDING squeue -h -j "$jpend" -o %T
	used=$(_usage)
	sb_check "sshare keeps the usage ($from $used_before -> $s $used)" \
		test -n "$used" -a "${used:-0}" -ge "${used_before:-0}"
	_placed "$s"
	from=$s
done

: >walk-done
sb_job_wait "$jrun" 60
sb_check_eq "the job running since $first ended normally on $last" COMPLETED sb_job_state "$jrun"
sb_job_wait "$jpend" 60
sb_check_eq "the pending job ran and completed" COMPLETED sb_job_state "$jpend"
sb_check "select/bucket placed it on $last" \
	grep -q "JobId=$jpend RUN_NOW: run (bucket path" "$log"
sb_check "usage goes on growing on $last" sb_wait_for 30 _usage_gt "${used:-0}"
sb_check "sacct has the job that ran across the walk as completed" \
	sb_wait_for 30 sh -c "sacct -n -P -X -j $jrun -o State | grep -qx COMPLETED"
sb_check_eq "no error of our plugins in any daemon's log" "" \
	sh -c "grep -rhE 'error: (select|priority|spank)/bucket|error: .*_bucket\\.so' '$SB_DIR/log'"
sb_check_eq "slurmctld read every job of each series' state" "" \
	sh -c "grep -iE 'Incomplete job record|unpack.*job|job state.*(corrupt|invalid)' '$log'"

sb_cluster_stop
sb_check "every daemon the harness started is gone ($(sb_pids))" sb_all_gone
