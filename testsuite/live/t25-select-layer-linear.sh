#!/bin/bash
# t25-select-layer-linear - select/bucket over select/linear answers as
# select/linear does for the jobs linear places, on the same cluster:
# the same scenario runs under SelectType=select/linear, then (daemons
# restarted) under select/bucket, and each answer must be equal:
#   - task-sized jobs on 2-CPU and 8-CPU nodes: -n16 (node count and
#     nodes), -n12 in a MaxNodes=2 partition, -N 3-8 with 4 free nodes;
#   - jobs pinned with -w or --contiguous whose nodes are busy: their
#     planned start (squeue --start, from WILL_RUN) against the blocking
#     job's end, and a later long job not backfilled onto their nodes;
#   - OverSubscribe=FORCE:2: two jobs on each node.
# Then, under select/bucket only, nodes that leave under a running job
# come back: one set DOWN and one whose slurmd is killed; afterwards a job
# for every node runs (no node is held by a job that is gone). Last,
# SelectTypeParameters=CR_Core over linear stops slurmctld with one line.
#
# sb-live: long (about 1 min)
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../cluster/harness.sh"

SB_CTLD_DEBUG=${SB_CTLD_DEBUG:-verbose}
sb_cluster_init t25
sb_nodes "s[1-4]" "CPUs=2 RealMemory=2000 Weight=1"
sb_nodes "b[1-4]" "CPUs=8 RealMemory=8000 Weight=2"
sb_partition main "Nodes=ALL Default=YES MaxTime=INFINITE State=UP"
sb_partition two "Nodes=ALL MaxNodes=2 MaxTime=INFINITE State=UP"
sb_partition force "Nodes=s[1-2] OverSubscribe=FORCE:2 MaxTime=INFINITE State=UP"
sb_select linear
sb_conf "DebugFlags=SelectType"
sb_conf "SchedulerParameters=bf_interval=1,bf_resolution=1"
# a node whose slurmd is gone is DOWN after this many seconds
sb_conf "SlurmdTimeout=10"
sb_cluster_start
LOG=$SB_DIR/log/slurmctld.log
cd "$SB_DIR/jobs"

_state() { squeue -h -j "$1" -o %T; }
_running() { [ "$(_state "$1")" = RUNNING ]; }
_epoch() { date -d "$1" +%s 2>/dev/null; }
_field() { scontrol show job "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1; }
_sub() { sbatch --parsable -o /dev/null "$@" --wrap 'sleep 600'; }
_clear() {
	scancel $(squeue -h -o %i) 2>/dev/null
	sb_wait_for 60 sb_queue_empty
}
# planned start of $1 minus the end of $2 (seconds), once backfill has
# planned it
_planned() {
	local s
	s=$(squeue -h --start -j "$1" -o %S)
	[ -n "$s" ] && [ "$s" != N/A ]
}
_delta() {
	sb_wait_for 30 _planned "$1" || { echo none; return; }
	echo $(($(_epoch "$(squeue -h --start -j "$1" -o %S)") -
		$(_epoch "$(_field "$2" EndTime)")))
}

# The scenario; one "key: value" line per answer.
scenario() {
	local j h b p l out n

	j=$(_sub -n16 -t 10)
	sb_wait_for 30 _running "$j"
	echo "-n16: $(squeue -h -j "$j" -o '%D nodes %N')"
	_clear

	out=$(sbatch --parsable -p two -n12 -t 10 -o /dev/null --wrap 'sleep 600' 2>&1)
	if [[ $out =~ ^[0-9]+$ ]] && sb_wait_for 30 _running "$out"; then
		echo "-p two -n12: $(squeue -h -j "$out" -o '%D nodes')"
	elif [[ $out =~ ^[0-9]+$ ]]; then
		# accepted, never started (26.05's linear): the same reason
		echo "-p two -n12: pending ($(squeue -h -j "$out" -o %r))"
	else
		echo "-p two -n12: refused ($out)"
	fi
	_clear

	h=$(_sub -w 's[1-2],b[1-2]' -t 10)
	sb_wait_for 30 _running "$h"
	j=$(_sub -N 3-8 -t 10)
	sb_wait_for 30 _running "$j"
	echo "-N 3-8 with 4 free: $(squeue -h -j "$j" -o '%D nodes %N')"
	_clear

	# s2 is the only free node; the pinned job needs s1 and s2
	b=$(_sub -w s1 -t 5)
	h=$(_sub -w 's[3-4],b[1-4]' -t 10)
	sb_wait_for 30 _running "$b"
	sb_wait_for 30 _running "$h"
	p=$(_sub -w 's[1-2]' -t 5)
	echo "-w s[1-2] starts after the blocker by: $(_delta "$p" "$b") s"
	l=$(_sub -N1 -t 60)
	sleep 4		# several backfill cycles (bf_interval=1)
	echo "a later 60-minute job while -w waits: $(_state "$l")"
	scancel "$p" "$l"
	sb_wait_for 30 sb_jobs_gone "$p" "$l"

	p=$(_sub -N2 --contiguous -p main -t 5)
	echo "--contiguous starts after the blocker by: $(_delta "$p" "$b") s"
	l=$(_sub -N1 -t 60)
	sleep 4
	echo "a later 60-minute job while --contiguous waits: $(_state "$l")"
	_clear

	for n in 1 2 3 4; do
		j=$(_sub -p force -N1 -t 10)
	done
	sb_wait_for 30 _running "$j"
	sleep 2
	echo "OverSubscribe=FORCE:2, 4 one-node jobs: $(squeue -h -p force -t RUNNING -o %N | sort | uniq -c | awk '{ print $2 "=" $1 }' | paste -sd' ')"
	_clear
}

scenario >"$SB_DIR/linear.out" 2>&1
sb_check "the scenario ran under select/linear" test -s "$SB_DIR/linear.out"
sed 's/^/# linear: /' "$SB_DIR/linear.out"

sb_check "switch to select/bucket (over linear), every daemon restarted" \
	sb_switch_select bucket
sb_check "slurmctld runs select/bucket over select/linear" sb_bucket_over linear
scenario >"$SB_DIR/bucket.out" 2>&1
while IFS= read -r line; do
	key=${line%%: *}
	sb_check_eq "$key: as select/linear (${line#*: })" "$line" \
		grep -F -- "$key: " "$SB_DIR/bucket.out"
done <"$SB_DIR/linear.out"
sb_check "the task-sized and pinned jobs went to linear" sh -c \
	"grep -q 'select/linear decides (node_range)' '$LOG' &&
	 grep -q 'select/linear decides (required_nodes)' '$LOG' &&
	 grep -q 'select/linear decides (contiguous)' '$LOG' &&
	 grep -q 'select/linear decides (shared)' '$LOG'"

# ---- nodes that leave under a running job come back --------------------
_all_nodes() {
	local j
	j=$(_sub -N8 -t 5)
	sb_wait_for 60 _running "$j"
	local rc=$?
	scancel "$j"
	sb_wait_for 30 sb_queue_empty
	return $rc
}
j=$(_sub -N2 -w 'b[1-2]' -t 10)
sb_check "a job on b1 and b2 runs" sb_wait_for 30 _running "$j"
scontrol update NodeName=b1 State=DOWN Reason=t25
# (ReturnToService=2 may bring b1 back at once: look at the job instead)
sb_check "b1 set DOWN under it: the job is requeued" sb_wait_for 30 grep -q \
	"requeue job JobId=$j due to failure of node b1" "$LOG"
scontrol update NodeName=b1 State=RESUME 2>/dev/null
scancel "$j"
sb_check "b1 is idle again in sinfo" sb_wait_for 60 sh -c \
	"sinfo -h -N -o '%N %t' | grep -qx 'b1 idle'"
sb_check "then a job for all 8 nodes runs (no node held by a gone job)" _all_nodes

j=$(_sub -N1 -w b3 -t 10)
sb_check "a job on b3 runs" sb_wait_for 30 _running "$j"
sb_slurmd_kill b3
sb_check "b3's slurmd killed: b3 goes down" sb_wait_for 60 sh -c \
	"sinfo -h -n b3 -o %t | grep -q down"
sb_slurmd_start b3
scancel "$j" 2>/dev/null
sb_check "b3's slurmd back: b3 idle in sinfo" sb_wait_for 60 sh -c \
	"sinfo -h -N -o '%N %t' | grep -qx 'b3 idle'"
sb_check "then a job for all 8 nodes runs" _all_nodes

sb_ctld_stop
echo "SelectTypeParameters=CR_Core" >>"$SLURM_CONF"
: >"$SB_DIR/log/slurmctld.out"
if sb_ctld_start 20; then started=yes; else started=no; fi
sb_check_eq "CR_Core over select/linear: slurmctld refuses to start" no echo "$started"
sb_check "... with one line naming the value and the fix" grep -q \
	"SelectTypeParameters=CR_CORE: CR_CPU, CR_CORE and CR_SOCKET need a consumable-resource base (BaseSelectType=select/cons_tres in bucket.conf)" \
	"$SB_DIR/log/slurmctld.out" "$LOG"

sb_cluster_stop
sb_check "every daemon the harness started is gone ($(sb_pids))" sb_all_gone
