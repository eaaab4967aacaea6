#!/bin/bash
# t21-select-backfill - backfill with select/bucket's WILL_RUN: a top job
# waits for every node; its planned start (squeue --start) is the end of
# the running job, computed by our WILL_RUN; a short job that ends before
# then is backfilled, a long one is not; sbatch --test-only asks WILL_RUN
# too; a preemptable job's nodes are offered to a higher-priority one.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../cluster/harness.sh"

SB_CTLD_DEBUG=${SB_CTLD_DEBUG:-verbose}
sb_cluster_init t21
sb_nodes "n[1-8]" "CPUs=2 RealMemory=2000"
sb_select bucket
sb_conf "DebugFlags=SelectType"
sb_conf "SchedulerParameters=bf_interval=1,bf_resolution=1"
sb_cluster_start
LOG=$SB_DIR/log/slurmctld.log
cd "$SB_DIR/jobs"

_running() { [ "$(squeue -h -j "$1" -o %T)" = RUNNING ]; }
_pending() { [ "$(squeue -h -j "$1" -o %T)" = PENDING ]; }
_epoch() { date -d "$1" +%s 2>/dev/null; }
_field() { scontrol show job "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1; }

blocker=$(sbatch --parsable -N4 -t 5 -o /dev/null --wrap 'sleep 600')
sb_check "a 4-node job runs for up to 5 minutes" sb_wait_for 30 _running "$blocker"
end=$(_epoch "$(_field "$blocker" EndTime)")
top=$(sbatch --parsable -N8 -t 10 -o /dev/null --wrap 'sleep 600')
sb_check "an 8-node job waits" sh -c "sleep 2; [ \"\$(squeue -h -j $top -o %T)\" = PENDING ]"

# backfill plans the top job: WILL_RUN answers with the blocker's end
_planned() {
	local s
	s=$(squeue -h --start -j "$top" -o %S)
	[ -n "$s" ] && [ "$s" != N/A ] && [ "$(_epoch "$s")" -ge "$end" ]
}
sb_check "squeue --start shows a planned start for the top job" sb_wait_for 30 _planned
start=$(_epoch "$(squeue -h --start -j "$top" -o %S)")
sb_check "... at the end of the running job ($((start - end)) s after it)" \
	test "$start" -ge "$end" -a "$start" -le $((end + 2))
sb_check "... computed by select/bucket's WILL_RUN" \
	grep -q "JobId=$top WILL_RUN: start $start (in [0-9]* s) on n\[1-8\]" "$LOG"

# a short job ends before that: backfilled; a long one would delay it
short=$(sbatch --parsable -N2 -t 2 -o /dev/null --wrap 'sleep 600')
long=$(sbatch --parsable -N2 -t 20 -o /dev/null --wrap 'sleep 600')
sb_check "a 2-minute 2-node job is backfilled" sb_wait_for 30 _running "$short"
sb_check "a 20-minute 2-node job is not (it would delay the top job)" \
	sh -c "sleep 3; [ \"\$(squeue -h -j $long -o %T)\" = PENDING ]"
sb_check "the top job keeps its planned start" \
	test "$(_epoch "$(squeue -h --start -j "$top" -o %S)")" -le $((end + 2))

# sbatch --test-only: job_start_data() asks WILL_RUN
out=$(sbatch --test-only -N2 -t 1 --wrap true 2>&1)
sb_check "sbatch --test-only answers from WILL_RUN ($out)" \
	grep -q "to start at .* on nodes" <<<"$out"
out=$(sbatch --test-only -N9 -t 1 --wrap true 2>&1)
sb_check "sbatch --test-only refuses 9 of 8 nodes" \
	grep -qi "not available\|node count" <<<"$out"

# a running job's longer time limit reaches no select call: the kept plan
# sees it when it is brought forward at the next second
mark=$(wc -l <"$LOG")
scontrol update JobId="$blocker" TimeLimit=7
end2=$(_epoch "$(_field "$blocker" EndTime)")
_moved() {
	local s
	s=$(squeue -h --start -j "$top" -o %S)
	[ -n "$s" ] && [ "$s" != N/A ] && [ "$(_epoch "$s")" -ge "$end2" ]
}
sb_check "the running job's time limit goes from 5 to 7 minutes" \
	test "$end2" -ge $((end + 120))
sb_check "... and the top job's planned start follows it" sb_wait_for 30 _moved
start2=$(_epoch "$(squeue -h --start -j "$top" -o %S)")
sb_check "... to the new end ($((start2 - end2)) s after it)" \
	test "$start2" -le $((end2 + 2))
sb_check "... and the 20-minute job still waits" _pending "$long"
scancel "$blocker" "$top" "$short" "$long"
sb_check "the queue empties" sb_wait_for 60 sb_queue_empty
# WILL_RUN's plan is kept and follows the jobs that start; a new second
# or jobs that end bring it forward from the job list. DebugFlags=SelectType
# checks a plan kept within a second against the job list (before the
# time limit changed: within that second it is the one expected
# difference) and a plan brought forward with the invariant checker
sb_check "a job start was applied to WILL_RUN's kept plan" \
	grep -q "starts: its nodes are busy until .* in WILL_RUN's kept plan" "$LOG"
sb_check "the kept plan was brought forward (a new second, jobs that ended)" \
	grep -q "WILL_RUN's kept plan brought to [0-9]*: [0-9]* nodes changed" "$LOG"
sb_check_eq "every kept plan held the running jobs' ends" "" \
	sh -c "head -n $mark '$LOG' | grep \"WILL_RUN's kept plan has node\""
sb_check_eq "every plan brought forward passed its check" "" \
	grep "fails its check" "$LOG"

# ---- preemption: a low-priority partition's job yields its nodes ---------
sb_ctld_stop
cat >>"$SLURM_CONF" <<EOF
PreemptType=preempt/partition_prio
PreemptMode=CANCEL
PartitionName=low Nodes=ALL PriorityTier=1 MaxTime=INFINITE State=UP
PartitionName=high Nodes=ALL PriorityTier=10 MaxTime=INFINITE State=UP
EOF
sb_check "slurmctld restarts with preemption by partition" sb_ctld_start 60
sb_wait_for 30 sh -c "sinfo -h -p high -o %t | grep -qx idle"
low=$(sbatch --parsable -p low -N8 -o /dev/null --wrap 'sleep 600')
sb_check "a low-priority job takes all 8 nodes" sb_wait_for 30 _running "$low"
high=$(sbatch --parsable -p high -N4 -o /dev/null --wrap 'sleep 600')
sb_check "a high-priority 4-node job preempts it and runs" sb_wait_for 60 _running "$high"
# (its 8 nodes finish it one by one: the high job may start on the first
# 4 while the low job is still COMPLETING on the others, which squeue
# lists: sb_job_wait waits until it is gone from there)
sb_job_wait "$low" 30
sb_check_eq "... the low-priority job was preempted (PreemptMode=CANCEL)" PREEMPTED sb_job_state "$low"
scancel "$high"
sb_check "the queue empties" sb_wait_for 60 sb_queue_empty

sb_cluster_stop
sb_check "every daemon the harness started is gone ($(sb_pids))" sb_all_gone
