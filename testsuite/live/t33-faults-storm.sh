#!/bin/bash
# t33-faults-storm - an RPC storm while a burst is scheduled: client loops
# run squeue, squeue --start, sprio, sshare, scontrol show job and
# scontrol show node against a slurmctld running select/bucket and
# priority/bucket (SB_STORM_SELECT=linear SB_STORM_PRIORITY=multifactor
# runs Slurm's own, as bench/storm.sh does for the comparison). No RPC
# may take over 30 s (a stall or a deadlock behind our locks), slurmctld
# must not die, the burst must go on being scheduled, and our plugins
# log no error. The storm's latencies and slurmctld's cycle times (sdiag)
# are printed; bench/storm.sh puts them side by side with Slurm's plugins.
#
# sb-live: serial (an RPC storm: it loads the machine and prints latencies and
#   cycle times)
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# SB_STORM_SECONDS (default 30) is how long the clients run,
# SB_STORM_CLIENTS (default 6) how many loops; SB_STORM_OUT=FILE gets the
# figures as KEY=VALUE lines. SB_STORM_NODES=N (bench/storm.sh, with
# SB_FRONT_END for thousands) runs N nodes instead of 32, three in four
# of 2 CPUs, and exclusive jobs of up to N/8 nodes instead of 4.
# Jobs are submitted on a clock, one every SB_STORM_SUBMIT_MS (default
# 150) ms, and SB_STORM_RATE=R paces the clients to R commands a second
# in all (default: each runs its next command as soon as the last ends):
# two stacks compared then get the same jobs and the same RPCs, however
# fast each answers, so their cycle times are of the same work.
. "$(dirname "$0")/../cluster/harness.sh"

SECS=${SB_STORM_SECONDS:-30}
CLIENTS=${SB_STORM_CLIENTS:-6}
SUBMIT_US=$((${SB_STORM_SUBMIT_MS:-150} * 1000))
RATE=${SB_STORM_RATE:-0}
SELECT=${SB_STORM_SELECT:-bucket}
PRIORITY=${SB_STORM_PRIORITY:-bucket}

sb_cluster_init "t33$SELECT"
NODES=${SB_STORM_NODES:-32}
[ "$NODES" -ge 32 ] || sb_die "SB_STORM_NODES=$NODES: at least 32"
NS=$((NODES * 3 / 4))
sb_nodes "$(printf 's[%05d-%05d]' 1 "$NS")" "CPUs=2 RealMemory=1000"
sb_nodes "$(printf 'w[%05d-%05d]' 1 $((NODES - NS)))" "CPUs=4 RealMemory=2000"
RESV=$(printf 's[%05d-%05d]' $((NS - 1)) "$NS")
MAXN=$((NODES / 8))
sb_partition debug "Nodes=ALL Default=YES MaxTime=INFINITE State=UP TRESBillingWeights=CPU=1000"
sb_accounting
sb_select "$SELECT"
sb_conf "PriorityType=priority/$PRIORITY"
sb_conf "AccountingStorageEnforce=associations,limits"
sb_conf "PriorityWeightFairshare=100000"
sb_conf "PriorityWeightAge=1000"
sb_cluster_start
CTLD_LOG=$SB_DIR/log/slurmctld.log

sb_user_add sbst1 sbst2 sbst3
sacctmgr -i add account sta,stb >/dev/null &&
sacctmgr -i add user sbst1,sbst2 Account=sta >/dev/null &&
sacctmgr -i add user sbst3 Account=stb >/dev/null ||
	sb_die "sacctmgr cannot add the accounts"
sb_users_known 30 sbst3:stb || sb_die "slurmctld does not know sbst3's association"
scontrol create reservation ReservationName=ahead StartTime=now+600 \
	Duration=10 Nodes="$RESV" Users=root >/dev/null ||
	sb_die "cannot create the reservation"
sdiag -r >/dev/null 2>&1

# The burst: jobs keep coming for the whole storm, three users, 70%
# exclusive jobs of 1-4 nodes, the rest one task.
cd "$SB_DIR/jobs"
RANDOM=33
# Sleep until $1 (microseconds of EPOCHREALTIME); at once when past it.
_sleep_until() {
	local left=$(($1 - ${EPOCHREALTIME/./}))
	[ "$left" -gt 0 ] && sleep "$((left / 1000000)).$(printf %06d $((left % 1000000)))"
	return 0
}
_burst() {
	local end=$1 u a shape n=0 next=${EPOCHREALTIME/./}
	while [ "${EPOCHREALTIME%.*}" -lt "$end" ]; do
		u=$((1 + RANDOM % 3))
		a=$([ $u = 3 ] && echo stb || echo sta)
		if ((RANDOM % 10 < 7)); then
			shape="-N$((1 + RANDOM % MAXN)) --exclusive"
		else
			shape="-n1"
		fi
		# shellcheck disable=SC2086
		runuser -u "sbst$u" -- sbatch -Q -A "$a" -t 1 -o /dev/null \
			$shape --wrap "sleep $((1 + RANDOM % 3))" && n=$((n + 1))
		next=$((next + SUBMIT_US))
		_sleep_until "$next"
	done
	echo "$n" >"$SB_DIR/burst.count"
}

# One client: the commands in turn, each timed (ms) into its own file;
# one that has not answered in 35 s is killed and counted as 35000.
CMDS=("squeue" "squeue --start" "sprio" "sshare -a" "scontrol show job"
      "scontrol show node")
_client() {
	local c=$1 end=$2 i=0 t0 rc cmd next=${EPOCHREALTIME/./} step=0
	[ "$RATE" -gt 0 ] && step=$((CLIENTS * 1000000 / RATE))
	while [ "${EPOCHREALTIME%.*}" -lt "$end" ]; do
		if [ "$step" -gt 0 ]; then
			next=$((next + step))
			_sleep_until "$next"
		fi
		cmd=${CMDS[$(((c + i) % ${#CMDS[@]}))]}
		t0=${EPOCHREALTIME/./}
		# shellcheck disable=SC2086
		timeout 35 $cmd >/dev/null 2>&1
		rc=$?
		echo "$(((${EPOCHREALTIME/./} - t0) / 1000)) $rc $cmd" \
			>>"$SB_DIR/storm.$c"
		i=$((i + 1))
	done
}

# CPU time (ns) of slurmctld's thread named $1 (the main scheduler's
# sched_agent, backfill's bckfl), summed over threads of that name
_thread_cpu() {
	local t sum=0
	for t in "/proc/$SB_CTLD_PID/task/"*; do
		[ "$(cat "$t/comm" 2>/dev/null)" = "$1" ] &&
			sum=$((sum + $(awk '{ print $1 }' "$t/schedstat")))
	done
	echo "$sum"
}
sched_cpu0=$(_thread_cpu sched_agent)
bf_cpu0=$(_thread_cpu bckfl)

end=$((${EPOCHREALTIME%.*} + SECS))
_burst "$end" &
pids=($!)
# SB_STORM_LOCKS=DIR: the lock waits and holds of every slurmctld thread
# over the storm (bench/lockwait.sh), but its first and last 10 s
if [ -n "${SB_STORM_LOCKS:-}" ] && [ "$SECS" -gt 30 ]; then
	(sleep 10; bash "$SB_TOP_SRCDIR/bench/lockwait.sh" record "$SB_CTLD_PID" \
		$((SECS - 20)) "$SB_STORM_LOCKS") &
	pids+=($!)
fi
# SB_STORM_PERF=DIR: a profile (with call graphs) of the main scheduler's
# and the backfill thread over the storm, but its first and last 10 s
_tids() {
	local t out=
	for t in "/proc/$SB_CTLD_PID/task/"*; do
		case "$(cat "$t/comm" 2>/dev/null)" in
		sched_agent|bckfl) out=${out:+$out,}${t##*/} ;;
		esac
	done
	echo "$out"
}
if [ -n "${SB_STORM_PERF:-}" ] && [ "$SECS" -gt 30 ]; then
	mkdir -p "$SB_STORM_PERF"
	(sleep 10; perf record -q -F 999 --call-graph dwarf,16384 -t "$(_tids)" \
		-o "$SB_STORM_PERF/perf.data" -- sleep $((SECS - 20)) \
		>"$SB_STORM_PERF/record.log" 2>&1) &
	pids+=($!)
fi
for ((c = 0; c < CLIENTS; c++)); do
	_client "$c" "$end" &
	pids+=($!)
done
wait "${pids[@]}"

cat "$SB_DIR"/storm.* >"$SB_DIR/storm"
rpcs=$(wc -l <"$SB_DIR/storm")
slowest=$(sort -n "$SB_DIR/storm" | tail -n 1)
failed=$(awk '$2 != 0' "$SB_DIR/storm" | wc -l)
p99=$(sort -n "$SB_DIR/storm" | awk '{ v[NR] = $1 }
	END { i = int(NR * 0.99); if (i < 1) i = 1; print v[i] }')
median=$(sort -n "$SB_DIR/storm" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
submitted=$(cat "$SB_DIR/burst.count" 2>/dev/null || echo 0)

sb_check "slurmctld is alive after $rpcs client RPCs in $SECS s" \
	sb_running "$SB_CTLD_PID"
sb_check "no client RPC took over 30 s (slowest: ${slowest%% *} ms, ${slowest#* * })" \
	test "${slowest%% *}" -le 30000
sb_check_eq "every client RPC succeeded" "0" echo "$failed"
sb_check "the burst was accepted while the storm ran ($submitted jobs)" \
	test "$submitted" -gt 20
# jobs slurmctld has started: still in its memory (MinJobAge), not pending
_nstarted() { squeue -h -t all -o %T 2>/dev/null | grep -vc PENDING; }
_started() { [ "$(_nstarted)" -gt 20 ]; }
sb_check "jobs went on being started during the storm" sb_wait_for 30 _started
sb_check_eq "no error from select/bucket or priority/bucket" "" \
	grep -E 'error: (select|priority)/bucket' "$CTLD_LOG"

# slurmctld's own figures for the storm: RPCs served and cycle times
sd=$(sdiag 2>/dev/null)
_sd() { awk -v k="$1" -v n="$2" 'index($0, k) { c++; if (c == n) { sub(/.*: */, ""); print $1 + 0; exit } }' <<<"$sd"; }
main_mean=$(_sd "Mean cycle:" 1)
main_max=$(_sd "Max cycle:" 1)
bf_mean=$(_sd "Mean cycle:" 2)
bf_max=$(_sd "Max cycle:" 2)
main_cycles=$(_sd "Total cycles:" 1)
main_depth=$(_sd "Mean depth cycle:" 1)
bf_cycles=$(_sd "Total cycles:" 2)
bf_depth=$(_sd "Depth Mean:" 1)
bf_try_depth=$(_sd "Depth Mean (try depth):" 1)
bf_jobs=$(_sd "Total backfilled jobs (since last stats cycle start):" 1)
sched_cpu_ms=$((($(_thread_cpu sched_agent) - sched_cpu0) / 1000000))
bf_cpu_ms=$((($(_thread_cpu bckfl) - bf_cpu0) / 1000000))
started=$(_nstarted)
figures="select=$SELECT
priority=$PRIORITY
nodes=$NODES
seconds=$SECS
clients=$CLIENTS
client_rate=$RATE
rpcs=$rpcs
rpc_median_ms=$median
rpc_p99_ms=$p99
rpc_max_ms=${slowest%% *}
rpc_failed=$failed
jobs_submitted=$submitted
jobs_started=$started
main_cycle_mean_us=$main_mean
main_cycle_max_us=$main_max
bf_cycle_mean_us=$bf_mean
bf_cycle_max_us=$bf_max
main_cycles=$main_cycles
main_depth_mean=$main_depth
main_thread_cpu_ms=$sched_cpu_ms
bf_cycles=$bf_cycles
bf_depth_mean=$bf_depth
bf_try_depth_mean=$bf_try_depth
bf_jobs_backfilled=$bf_jobs
bf_thread_cpu_ms=$bf_cpu_ms"
sed 's/^/# /' <<<"$figures"
[ -n "${SB_STORM_OUT:-}" ] && echo "$figures" >"$SB_STORM_OUT"

sb_cluster_stop
sb_check "every daemon the harness started is gone ($(sb_pids))" sb_all_gone
