#!/bin/bash
# t29-select-prefer - a job's preferred features (--bucket-prefer, Maui's
# PREF) in a live slurmctld: preferred nodes while they are free, others
# when they are not, a constraint before a preference, unknown features
# refused at submit (but not by srun inside a job: its step takes the
# job's nodes), and PREF in a PriorityF expression.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Six nodes of equal Weight, named so that node order alone (slurmctld
# sorts nodes by name) puts the plain nodes first:
#   a[1-2] 4 CPUs              b[1-2] 4 CPUs, feature big
#   f[1-2] 2 CPUs, feature fast
. "$(dirname "$0")/../cluster/harness.sh"

SB_CTLD_DEBUG=${SB_CTLD_DEBUG:-verbose}
sb_cluster_init t29
sb_nodes "a[1-2]" "CPUs=4 RealMemory=2000 Weight=1"
sb_nodes "b[1-2]" "CPUs=4 RealMemory=2000 Weight=1 Feature=big"
sb_nodes "f[1-2]" "CPUs=2 RealMemory=2000 Weight=1 Feature=fast"
sb_select bucket
sb_conf "DebugFlags=SelectType"
. "$(dirname "$0")/place.inc"
: >"$BCONF"
_spank_on
sb_cluster_start
LOG=$SB_DIR/log/slurmctld.log
cd "$SB_DIR/jobs"

sb_check "sbatch --help shows --bucket-prefer" \
	sh -c "sbatch --help | grep -q -- '--bucket-prefer=FEATURE'"
sb_check_eq "no preference: one node -> a1 (node order)" a1 _place -N1
sb_check_eq "--bucket-prefer=fast: one node -> f1" f1 _place -N1 --bucket-prefer=fast
sb_check "... the DebugFlags line names the preference" \
	grep -q "RUN_NOW: run (bucket path, policy FIRSTAVAILABLE, preferring fast) nodes f1" "$LOG"
sb_check_eq "--bucket-prefer=fast: two nodes -> f[1-2]" "f[1-2]" \
	_place -N2 --bucket-prefer=fast
sb_check_eq "--bucket-prefer=fast: three nodes -> both fast ones, then a1" \
	"a1,f[1-2]" _place -N3 --bucket-prefer=fast
sb_check_eq "--bucket-prefer=big,fast: three -> b[1-2] and f1 (one each), in node order" \
	"b[1-2],f1" _place -N3 --bucket-prefer=big,fast

hold=$(sbatch --parsable -N2 -w "f[1-2]" -o /dev/null --wrap 'sleep 600')
sb_check "a job holds both fast nodes" sb_wait_for 30 _running "$hold"
sb_check_eq "--bucket-prefer=fast with f[1-2] busy: runs at once, on a1" a1 \
	_place -N1 --bucket-prefer=fast
scancel "$hold"
sb_wait_for 30 sb_jobs_gone "$hold"

sb_check_eq "-C big --bucket-prefer=fast: the constraint wins -> b1" b1 \
	_place -N1 -C big --bucket-prefer=fast
sb_check_eq "-C big --bucket-prefer=fast, two nodes -> b[1-2]" "b[1-2]" \
	_place -N2 -C big --bucket-prefer=fast

out=$(sbatch -N1 --bucket-prefer=turbo -o /dev/null --wrap true 2>&1)
sb_check "--bucket-prefer=turbo (no node has it): refused at submit, naming option and value" \
	grep -q -- "--bucket-prefer=turbo: no node has this feature" <<<"$out"
out=$(sbatch -N1 --bucket-prefer='fast|big' -o /dev/null --wrap true 2>&1)
sb_check "--bucket-prefer='fast|big' (not a list of names): refused at submit" \
	grep -q -- "--bucket-prefer=fast|big: not a feature list" <<<"$out"
sb_check_eq "... neither reached the queue" "" squeue -h -o %i
# inside an allocation srun runs a step on the job's nodes: its choices
# change nothing, and it asks slurmctld for no node table to check them
sbatch --wait -N1 -o "$SB_DIR/jobs/step.out" \
	--wrap 'srun --bucket-prefer=turbo true; echo "srun exit $?"' >/dev/null
sb_check "srun --bucket-prefer=turbo inside a job: the step runs" \
	grep -qx "srun exit 0" "$SB_DIR/jobs/step.out"
sb_check "... with one line saying the choice is for a job" \
	grep -q -- "--bucket-prefer: a step of job [0-9]* runs on the job's nodes" \
	"$SB_DIR/jobs/step.out"

# PREF in PriorityF: 4 CPUs beat 2 unless the job prefers what the
# 2-CPU nodes have (2 + 10*1 = 12 > 4).
sb_check "reconfigure to PRIORITY, PriorityF=\"CPROCS + 10*PREF\"" \
	_bucket_conf NodeAllocationPolicy=PRIORITY 'PriorityF="CPROCS + 10*PREF"'
sb_check_eq "PriorityF with PREF, no preference: a1 (4 CPUs)" a1 _place -N1
sb_check_eq "PriorityF with PREF, --bucket-prefer=fast: f1 (12)" f1 \
	_place -N1 --bucket-prefer=fast
sb_check "reconfigure to PRIORITY, PriorityF=\"CPROCS - 10*PREF\"" \
	_bucket_conf NodeAllocationPolicy=PRIORITY 'PriorityF="CPROCS - 10*PREF"'
sb_check_eq "a negative PREF coefficient sends preferring jobs elsewhere: a1" a1 \
	_place -N1 --bucket-prefer=fast

sb_cluster_stop
sb_check "every daemon the harness started is gone ($(sb_pids))" sb_all_gone
