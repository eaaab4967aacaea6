#!/bin/bash
# t20-select-place - select/bucket in a live slurmctld on 40 nodes of four
# shapes and colours: placement on the right colour, Weight order, chunk
# order of "[blue*2&fat*3]", never-runnable jobs refused at submit, srun
# steps inside an allocation, sinfo's allocated CPUs and the memory a job
# holds, busy-later nodes around an advanced reservation, a node drained
# under a job and resumed, and a slurmctld restart with running jobs.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../cluster/harness.sh"

# log_flag(SELECT_TYPE) lines are verbose ones
SB_CTLD_DEBUG=${SB_CTLD_DEBUG:-verbose}
sb_cluster_init "t20$SB_BASE"
sb_nodes "red[01-10]" "CPUs=2 RealMemory=2000 Features=red Weight=10"
sb_nodes "blue[01-10]" "CPUs=2 RealMemory=2000 Features=blue Weight=5"
sb_nodes "green[01-10]" "CPUs=4 RealMemory=4000 Features=green Weight=1"
sb_nodes "fat[01-10]" "CPUs=8 Sockets=2 CoresPerSocket=4 ThreadsPerCore=1 RealMemory=16000 Features=fat,yellow Weight=20"
sb_select bucket
sb_conf "DebugFlags=SelectType"
sb_cluster_start
LOG=$SB_DIR/log/slurmctld.log
cd "$SB_DIR/jobs"

sb_check "slurmctld runs select/bucket" sh -c \
	"scontrol show config | grep -q 'SelectType *= select/bucket'"
sb_check "... over select/$SB_BASE" sb_bucket_over "$SB_BASE"
if sb_slurm_has SB_HAVE_SELECT_DATA; then
	sb_check_eq "scontrol show config shows the policy and 4 buckets" \
		"NodeAllocationPolicy=FIRSTAVAILABLE NodeBuckets=4" sh -c \
		"scontrol show config | awk '\$1 == \"NodeAllocationPolicy\" || \$1 == \"NodeBuckets\" { print \$1 \"=\" \$3 }' | sort | paste -sd' '"
else
	# no select plugin section in 'scontrol show config' (25.05 on)
	sb_check_eq "slurmctld's log shows the policy and 4 buckets" \
		"NodeAllocationPolicy=FIRSTAVAILABLE NodeBuckets=4" sh -c \
		"echo \$(sed -n 's/.*select\/bucket: .*\(NodeAllocationPolicy=[A-Z_]*\) from .*/\1/p' '$SB_DIR/log/slurmctld.log' | tail -n 1) NodeBuckets=\$(sed -n 's/.*select\/bucket: .*state_build: [0-9]* nodes in \([0-9]*\) buckets.*/\1/p' '$SB_DIR/log/slurmctld.log' | tail -n 1)"
fi

_nodes() { squeue -h -j "$1" -o %N; }
_running() { [ "$(squeue -h -j "$1" -o %T)" = RUNNING ]; }
_expand() { scontrol show hostnames "$1" | paste -sd' '; }

# ---- colour, weight, chunks ---------------------------------------------
a=$(sbatch --parsable -N4 -C red --exclusive -o /dev/null --wrap 'sleep 600')
sb_check "a 4-node red job runs" sb_wait_for 30 _running "$a"
sb_check_eq "... on the first four red nodes" "red[01-04]" _nodes "$a"
sb_check "... placed by the bucket path" \
	grep -q "JobId=$a RUN_NOW: run (bucket path, policy FIRSTAVAILABLE) nodes red\[01-04\]" "$LOG"

b=$(sbatch --parsable -N2 -o /dev/null --wrap 'sleep 600')
sb_check "a job without constraint runs" sb_wait_for 30 _running "$b"
sb_check_eq "... on the lowest Weight nodes (green, Weight=1)" "green[01-02]" _nodes "$b"

c=$(sbatch --parsable -N5 --constraint="[blue*2&fat*3]" -o /dev/null --wrap 'sleep 600')
sb_check "a [blue*2&fat*3] job runs" sb_wait_for 30 _running "$c"
sb_check_eq "... on 2 blue and 3 fat nodes" "blue01 blue02 fat01 fat02 fat03" \
	_expand "$(_nodes "$c")"

# ---- never-runnable jobs are refused at submit ----------------------------
out=$(sbatch -N11 -C red -o /dev/null --wrap true 2>&1)
sb_check "11 red nodes (10 exist): refused at submit" \
	grep -q "Requested node configuration is not available" <<<"$out"
out=$(sbatch -N1 -C "red&blue" -o /dev/null --wrap true 2>&1)
sb_check "a node both red and blue (none): refused at submit" \
	grep -q "Requested node configuration is not available" <<<"$out"
out=$(sbatch -N1 -C red --mem=3000 -o /dev/null --wrap true 2>&1)
sb_check "a red node with 3000 MB (they have 2000): refused at submit" \
	grep -q "Requested node configuration is not available" <<<"$out"

# ---- sinfo's CPUs, the job's memory ---------------------------------------
# (sinfo -n asks for one node, which slurmctld answers without refreshing
# the allocated counts: ask for all of them)
_cpus() { sinfo -h -N -o '%N %C' | awk -v n="$1" '$1 == n { print $2 }'; }
sb_check_eq "sinfo: red01 has 2 of 2 CPUs allocated" "2/0/0/2" _cpus red01
sb_check_eq "sinfo: fat01 has 8 of 8 CPUs allocated" "8/0/0/8" _cpus fat01
sb_check_eq "sinfo: red05 is idle" "0/2/0/2" _cpus red05
# The base allocates: select/linear counts no memory (no CR_Memory);
# cons_tres with CR_Core_Memory gives an exclusive job its nodes' memory
# unless it asks for less.
# (24.11 names the line AllocTRES=, 22.05 TRES=)
_tres() {
	scontrol show job "$1" |
		sed -n 's/^ *\(Alloc\)\{0,1\}TRES=\([^ ]*\).*/\2/p'
}
if [ "$SB_BASE" = linear ]; then
	want_a="cpu=8,node=4,billing=8" want_d="cpu=8,node=1,billing=8"
else
	want_a="cpu=8,mem=8000M,node=4,billing=8" want_d="cpu=8,mem=1000M,node=1,billing=8"
fi
sb_check_eq "job a holds 4 whole nodes, as select/$SB_BASE allocates them" \
	"$want_a" _tres "$a"
d=$(sbatch --parsable -N1 -C fat --mem=1000 -o /dev/null --wrap 'sleep 600')
sb_check "a fat job asking for 1000 MB runs" sb_wait_for 30 _running "$d"
sb_check_eq "... holding a whole fat node's CPUs (and the memory it asked for)" \
	"$want_d" _tres "$d"

# ---- steps inside an allocation --------------------------------------------
# Slurm 25.05.8's srun does not return once two concurrent steps of a
# job have ended (their tasks ran; select/linear alone does the same;
# 24.11, 25.11 and 26.05 return): there the two run one after the other.
par='&'
[ "$SB_SERIES" = 25.05 ] && par=';'
e=$(sbatch --parsable -N2 -C blue -o "$SB_DIR/jobs/e.out" --wrap \
	"srun --exact -N2 -n2 hostname $par srun --exact -N2 -n2 hostname $par wait; srun -N1 -n1 true")
sb_check "a job with concurrent srun steps finishes" sb_job_wait "$e" 60
sb_check_eq "... COMPLETED" COMPLETED sb_job_state "$e"
# (srun's own notes aside: over cons_tres the first step has the job's
# memory, and a second that asks while it runs waits, "step creation
# temporarily disabled, retrying", as it did under CI's load)
sb_check_eq "... its two 2-task steps printed 4 lines" 4 \
	sh -c "grep -cv '^srun: ' '$SB_DIR/jobs/e.out'"
sb_check_eq "... it had blue03 and blue04 (blue01-02 held by c)" \
	"blue[03-04]" sh -c "scontrol show job $e | sed -n 's/^ *NodeList=//p'"

# ---- busy-later nodes around an advanced reservation ------------------------
scontrol create reservation ReservationName=later StartTime=now+3600 \
	Duration=60 Nodes=blue[09-10] Users=root >/dev/null
sb_check "a reservation on blue[09-10] from now+1h" \
	sh -c "scontrol show reservation later | grep -q 'Nodes=blue\[09-10\]'"
f=$(sbatch --parsable -N2 -C blue -t 30 -o /dev/null --wrap 'sleep 600')
sb_check "a 30 min blue job runs" sb_wait_for 30 _running "$f"
sb_check_eq "... on the reserved nodes: it ends before the reservation (busy-later first)" \
	"blue[09-10]" _nodes "$f"
g=$(sbatch --parsable -N2 -C blue -t 90 -o /dev/null --wrap 'sleep 600')
sb_check "a 90 min blue job runs" sb_wait_for 30 _running "$g"
sb_check_eq "... not on reserved nodes: it would overrun the reservation" \
	"blue[03-04]" _nodes "$g"
scancel "$f" "$g"
scontrol delete ReservationName=later

# ---- drain a node under a job, resume it ------------------------------------
scontrol update NodeName=red01 State=DRAIN Reason=t20
sb_check "red01 drains under job a" sb_wait_for 10 sh -c \
	"sinfo -h -n red01 -o %T | grep -qx draining"
sb_check "job a keeps running" _running "$a"
scancel "$a"
sb_check "job a ends; red01 is drained" sb_wait_for 30 sh -c \
	"sinfo -h -n red01 -o %T | grep -qx drained"
h=$(sbatch --parsable -N10 -C red -o /dev/null --wrap 'sleep 600')
_pending() { [ "$(squeue -h -j "$1" -o %T)" = PENDING ]; }
sb_check "a 10-node red job waits while red01 is drained" sh -c \
	"sleep 3; [ \"\$(squeue -h -j $h -o %T)\" = PENDING ]"
scontrol update NodeName=red01 State=RESUME
sb_check "after resume it runs" sb_wait_for 30 _running "$h"
sb_check_eq "... on every red node" "red[01-10]" _nodes "$h"
scancel "$h"
sb_wait_for 30 sh -c "sinfo -h -n red01 -o %T | grep -qx idle"

# ---- restart with running jobs -------------------------------------------------
before=$(squeue -h -t RUNNING -o '%i %N' | sort)
busy=$(squeue -h -t RUNNING -o %N | xargs -n1 scontrol show hostnames | sort)
sb_ctld_stop
sb_check "slurmctld restarts with jobs running" sb_ctld_start 60
sb_check "... and rebuilt the buckets" \
	grep -q "state_build: 40 nodes in 4 buckets" "$LOG"
sb_check_eq "the running jobs keep their nodes" "$before" \
	sh -c "squeue -h -t RUNNING -o '%i %N' | sort"
new=()
for i in $(seq 12); do
	new+=($(sbatch --parsable -N1 -o /dev/null --wrap 'sleep 600'))
done
_all_placed() {
	local j
	for j in "${new[@]}"; do
		[ "$(squeue -h -j "$j" -o %T)" = RUNNING ] || return 1
	done
}
sb_check "twelve new jobs run" sb_wait_for 60 _all_placed
dups=$(squeue -h -t RUNNING -o %N | xargs -n1 scontrol show hostnames | sort | uniq -d)
sb_check_eq "no node runs two jobs" "" echo "$dups"
newnodes=$(for j in "${new[@]}"; do _nodes "$j"; done | xargs -n1 scontrol show hostnames | sort)
sb_check_eq "no new job landed on a node busy before the restart" "" \
	comm -12 <(echo "$busy") <(echo "$newnodes")
scancel $(squeue -h -o %i)
sb_check "the queue empties" sb_wait_for 60 sb_queue_empty
# every node came back: none is left held by a job that ended
all=$(sbatch --parsable -N40 -o /dev/null --wrap 'sleep 600')
sb_check "then a 40-node job runs" sb_wait_for 30 _running "$all"
sb_check_eq "... on every node" "blue[01-10],fat[01-10],green[01-10],red[01-10]" \
	_nodes "$all"
scancel "$all"

sb_cluster_stop
sb_check "every daemon the harness started is gone ($(sb_pids))" sb_all_gone
