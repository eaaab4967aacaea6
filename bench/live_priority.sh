#!/bin/bash
# live_priority.sh - one full fair-share pass of priority/bucket in a
# live slurmctld with 10k user associations created by sacctmgr, next to
# priority/multifactor (Fair Tree) on the same tree in the same run.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage (root, from the build tree, like a live test):
#   SB_PLUGIN_DIR=$PWD/.plugins bash bench/live_priority.sh [ACCOUNTS USERS]
# (default 100 accounts x 100 users = 10,000 user associations).
#
# What is measured: the CPU time of the plugin's decay thread per pass
# (/proc/PID/task/TID/schedstat, nanoseconds), i.e. decay of every
# association's usage + the fair-share pass + job priorities (no jobs
# here), for both plugins alike; priority/bucket also logs the fair-share
# pass alone (DebugFlags=Priority). priority/multifactor cannot run more
# often than once a minute, so its part takes a few minutes.
. "$(dirname "$0")/../testsuite/cluster/harness.sh"

NACCT=${1:-100}
NUSER=${2:-100}
PASSES=${SB_BENCH_PASSES:-10}
SB_CTLD_DEBUG=verbose
sb_cluster_init bench-prio
sb_nodes "b1" "CPUs=2 RealMemory=2000"
sb_accounting
sb_conf "PriorityType=priority/bucket"
sb_conf "PriorityParameters=algorithm=level_based,calc_period=1"
sb_conf "PriorityCalcPeriod=1"
sb_conf "DebugFlags=Priority"
sb_cluster_start
LOG=$SB_DIR/log/slurmctld.log

accts=$(seq -f 'bencha%03g' 1 "$NACCT" | paste -sd,)
users=$(seq -f 'benchu%03g' 1 "$NUSER" | paste -sd,)
t0=$SECONDS
sacctmgr -i add account "$accts" Fairshare=10 >/dev/null
# ten accounts' users per call: one call for all 10k did not finish in 15
# minutes (slurmdbd renumbers its nested-set tree on every insert)
for ((a = 1; a <= NACCT; a += 10)); do
	batch=$(seq -f 'bencha%03g' "$a" $((a + 9 < NACCT ? a + 9 : NACCT)) | paste -sd,)
	sacctmgr -i add user "$users" Account="$batch" Fairshare=1 >/dev/null 2>&1 ||
		{ echo "not ok - sacctmgr add user ... Account=$batch"; exit 1; }
done
total=$((NACCT * NUSER))
_sb_say "sacctmgr created $NACCT accounts and $total user associations in $((SECONDS - t0)) s"

# Thread TID of the decay thread of slurmctld named $1.
_tid() {
	local t
	for t in /proc/$SB_CTLD_PID/task/*; do
		[ "$(cat "$t/comm" 2>/dev/null)" = "$1" ] && { basename "$t"; return; }
	done
}
_cpu_ns() { awk '{ print $1 }' "/proc/$SB_CTLD_PID/task/$1/schedstat"; }
_passes() { grep -c "fair-share pass over $((total + NACCT + 2)) associations" "$LOG"; }
_at_least() { [ "$(_passes)" -ge "$1" ]; }

# ---- priority/bucket -------------------------------------------------------
check "slurmctld sees every association" wait_for 600 _at_least 1
tid=$(_tid bucket_decay)
n0=$(_passes); c0=$(_cpu_ns "$tid")
wait_for $((PASSES * 3 + 30)) _at_least $((n0 + PASSES))
n1=$(_passes); c1=$(_cpu_ns "$tid")
bucket_thread=$(awk -v c="$((c1 - c0))" -v n="$((n1 - n0))" 'BEGIN { printf "%.2f", c / n / 1e6 }')
bucket_pass=$(grep "fair-share pass over $((total + NACCT + 2)) associations" "$LOG" |
	tail -n "$PASSES" | sed 's/.* took \([0-9]*\) usec/\1/' | sort -n |
	awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] / 1000 }')

# ---- priority/multifactor (Fair Tree) on the same tree ---------------------
# Without DebugFlags=Priority: multifactor then logs every association on
# every pass, which would be measured too.
sb_ctld_stop
sed -i 's|^PriorityType=.*|PriorityType=priority/multifactor|; /^DebugFlags=/d' "$SLURM_CONF"
sb_ctld_start 60 || { echo "not ok - slurmctld with priority/multifactor"; exit 1; }
_mf_started() { [ -n "$(_tid decay)" ]; }
wait_for 30 _mf_started
tid=$(_tid decay)
# A pass every PriorityCalcPeriod (1 minute at least): a burst of CPU time
# of the decay thread, seen by polling its schedstat. The first burst (at
# start) is skipped; the next two are measured.
bursts=()
prev=$(_cpu_ns "$tid"); acc=0; seen=0; s0=$SECONDS
while [ ${#bursts[@]} -lt 2 ] && [ $((SECONDS - s0)) -lt 200 ]; do
	sleep 0.2
	cur=$(_cpu_ns "$tid") || break
	if [ "$cur" -gt "$prev" ]; then
		acc=$((acc + cur - prev))
	elif [ "$acc" -gt 0 ]; then
		[ "$seen" -gt 0 ] && bursts+=("$acc")
		seen=$((seen + 1)); acc=0
	fi
	prev=$cur
done
mf_thread=$(printf '%s\n' "${bursts[@]}" | awk '{ s += $1; n++ } END { if (n) printf "%.2f", s / n / 1e6; else print "?" }')
bucket_cmp=$(awk -v a="$bucket_thread" -v b="$mf_thread" 'BEGIN { if (a > 0 && b > 0) printf "%.1fx", b / a; else print "?" }')

echo "# $total user associations ($NACCT accounts x $NUSER users)"
echo "# priority/bucket level_based: fair-share pass ${bucket_pass} ms (median of $PASSES), decay thread ${bucket_thread} ms CPU per pass"
echo "# priority/multifactor Fair Tree: decay thread ${mf_thread} ms CPU per pass (mean of ${#bursts[@]}); bucket is $bucket_cmp faster"
sb_cluster_stop
