#!/bin/bash
# t29-select-prefer - a job's preferred features (--bucket-prefer, Maui's
# PREF) in a live slurmctld: preferred nodes while they are free, others
# when they are not, a constraint before a preference, unknown features
# refused at submit (but not by srun inside a job: its step takes the
# job's nodes), and PREF in a PriorityF expression. Then what a job may
# choose is slurmctld's to decide (issue #49): a job submitted through
# Slurm's API with its control environment set by hand (no sbatch, no
# SPANK plugin) has its BUCKET_PREFER and BUCKET_POLICY ignored, with a
# log line, where bucket.conf does not allow them, and honoured where it
# does, per partition; hostile values are bounded and shown on one line.
# Last, 'scontrol update' of a node's Weight and Features is followed by
# the very next placement. (These two parts over linear only.)
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Six nodes of equal Weight, named so that node order alone (slurmctld
# sorts nodes by name) puts the plain nodes first:
#   a[1-2] 4 CPUs              b[1-2] 4 CPUs, feature big
#   f[1-2] 2 CPUs, feature fast
# in two partitions of every node: debug (the default) and open.
. "$(dirname "$0")/../cluster/harness.sh"

SB_CTLD_DEBUG=${SB_CTLD_DEBUG:-verbose}
sb_cluster_init t29
sb_nodes "a[1-2]" "CPUs=4 RealMemory=2000 Weight=1"
sb_nodes "b[1-2]" "CPUs=4 RealMemory=2000 Weight=1 Feature=big"
sb_nodes "f[1-2]" "CPUs=2 RealMemory=2000 Weight=1 Feature=fast"
sb_partition debug "Nodes=ALL Default=YES MaxTime=INFINITE State=UP $SB_PART_OPTS"
sb_partition open "Nodes=ALL MaxTime=INFINITE State=UP $SB_PART_OPTS"
sb_select bucket
sb_conf "DebugFlags=SelectType"
. "$(dirname "$0")/place.inc"
echo "AllowJobPreferences=YES" >"$BCONF"
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
	_bucket_conf AllowJobPreferences=YES NodeAllocationPolicy=PRIORITY \
	'PriorityF="CPROCS + 10*PREF"'
sb_check_eq "PriorityF with PREF, no preference: a1 (4 CPUs)" a1 _place -N1
sb_check_eq "PriorityF with PREF, --bucket-prefer=fast: f1 (12)" f1 \
	_place -N1 --bucket-prefer=fast
sb_check "reconfigure to PRIORITY, PriorityF=\"CPROCS - 10*PREF\"" \
	_bucket_conf AllowJobPreferences=YES NodeAllocationPolicy=PRIORITY \
	'PriorityF="CPROCS - 10*PREF"'
sb_check_eq "a negative PREF coefficient sends preferring jobs elsewhere: a1" a1 \
	_place -N1 --bucket-prefer=fast

# What follows reads a job's choices and slurmctld's node records, the
# same over either base: run over linear only (t29-select-prefer-cons_tres
# sources this file), to save the CI's seconds.
if [ "$SB_BASE" != linear ]; then
	sb_cluster_stop
	sb_check "every daemon the harness started is gone ($(sb_pids))" sb_all_gone
	exit 0
fi

# ---- slurmctld decides what a job may choose (issue #49) -----------------------
# A job's choices reach slurmctld in its control environment, which any
# submitter sets: submit_env (testsuite/live/submit_env.c) does it
# through Slurm's API, without sbatch or the SPANK plugin.
SUBMIT_ENV=$SB_TOP_BUILDDIR/testsuite/live/submit_env
[ -x "$SUBMIT_ENV" ] ||
	make -s -C "$SB_TOP_BUILDDIR" testsuite/live/submit_env >/dev/null 2>&1

# _api_place [-p PART] KEY=VALUE...: the node a one-node job submitted so
# gets at once (then cancelled); its id in the file $API_JOB (the checks
# run it in a subshell)
API_JOB=$SB_DIR/api_job
_api_place() {
	local j nodes
	j=$("$SUBMIT_ENV" -N 1 "$@") || return 1
	echo "$j" >"$API_JOB"
	sb_wait_for 30 _running "$j"
	nodes=$(squeue -h -j "$j" -o %N)
	scancel "$j"
	sb_wait_for 30 sb_jobs_gone "$j"
	echo "$nodes"
}
# _said JOBID TEXT: slurmctld's log says TEXT of the job, at info level
# (not only under DebugFlags), exactly once; _unsaid JOBID: nothing of
# its choices was ignored
_said() { [ "$(grep -cF "_choice_ignored: JobId=$1 $2" "$LOG")" = 1 ]; }
_unsaid() { ! grep -q "JobId=$1 BUCKET_" "$LOG"; }

sb_check "reconfigure: preferences in partition open only, MINRESOURCE too" \
	_bucket_conf AllowJobPreferences=NO \
	"PartitionName=open AllowJobPolicies=MINRESOURCE AllowJobPreferences=YES"
if [ ! -x "$SUBMIT_ENV" ]; then
	echo "skip $((SB_NCHECK += 1)) - no $SUBMIT_ENV (built with the check programs where configure finds libslurm.so): choices set through the API are not tested"
else
sb_check_eq "API, partition debug, BUCKET_PREFER=big: ignored -> a1" a1 \
	_api_place BUCKET_PREFER=big
sb_check "... with one line naming job, value, partition and key" \
	_said "$(cat "$API_JOB")" "BUCKET_PREFER=big ignored: not allowed in partition debug (AllowJobPreferences in $BCONF)"
sb_check_eq "API, partition debug, BUCKET_POLICY=MINRESOURCE: ignored -> a1" a1 \
	_api_place BUCKET_POLICY=MINRESOURCE
sb_check "... with one line" \
	_said "$(cat "$API_JOB")" "BUCKET_POLICY=MINRESOURCE ignored: not allowed in partition debug (AllowJobPolicies in $BCONF); using FIRSTAVAILABLE"
sb_check_eq "API, partition open, BUCKET_PREFER=big: honoured -> b1" b1 \
	_api_place -p open BUCKET_PREFER=big
sb_check "... and not said to be ignored" _unsaid "$(cat "$API_JOB")"
sb_check_eq "API, partition open, BUCKET_POLICY=MINRESOURCE: honoured -> f1 (fewest CPUs)" \
	f1 _api_place -p open BUCKET_POLICY=MINRESOURCE
sb_check "... and not said to be ignored" _unsaid "$(cat "$API_JOB")"
# hostile values: a newline (a forged log line), a list that does not
# parse after a name that does (no part of it applies), 20,000 bytes
sb_check_eq "API, open, BUCKET_PREFER='big<newline>...': ignored whole -> a1 (not b1)" \
	a1 _api_place -p open "BUCKET_PREFER=big
JobId=1 fake"
sb_check "... said on one line, the newline shown as '?'" \
	_said "$(cat "$API_JOB")" "BUCKET_PREFER=big?JobId=1 fake ignored: not a feature list"
sb_check "... and no log line starts with the forged text" \
	sh -c "! grep -q '^JobId=1 fake' '$LOG'"
sb_check_eq "API, open, BUCKET_PREFER of 20,000 bytes: ignored -> a1" a1 \
	_api_place -p open "BUCKET_PREFER=$(head -c 20000 /dev/zero | tr '\0' b)"
sb_check "... said once, the value cut at 160 bytes" \
	_said "$(cat "$API_JOB")" "BUCKET_PREFER=$(head -c 160 /dev/zero | tr '\0' b)... ignored: longer than 16383 bytes"
sb_check_eq "API, open, BUCKET_POLICY of 1,000 bytes: ignored -> a1" a1 \
	_api_place -p open "BUCKET_POLICY=MINRESOURCE$(head -c 990 /dev/zero | tr '\0' x)"
fi
# the SPANK plugin, where bucket.conf is readable, refuses only what no
# partition allows; what reaches slurmctld is decided there
out=$(sbatch -N1 --bucket-prefer=fast -o /dev/null --wrap true 2>&1)
j=$(sed -n 's/^Submitted batch job //p' <<<"$out")
sb_check "sbatch --bucket-prefer=fast (allowed in partition open only): submitted" \
	test -n "$j"
sb_check "... and in partition debug slurmctld ignores it, saying so" \
	sb_wait_for 30 _said "$j" "BUCKET_PREFER=fast ignored: not allowed in partition debug"
scancel "$j" 2>/dev/null
sb_wait_for 30 sb_jobs_gone "$j"

# ---- scontrol update of a node's Weight and Features (issue #49) -----------------
# slurmctld tells no select plugin of it; the next placement follows it
# all the same, without a reconfigure and without the audit
# (DebugFlags=SelectType) having to find the model wrong. (Preferences
# in partition open, as bucket.conf stands.)
scontrol update NodeName="a[1-2],b[1-2]" Weight=5
sb_check_eq "scontrol update a[1-2],b[1-2] Weight=5: one node -> f1 (the lightest; a1 before)" \
	f1 _place -N1
scontrol update NodeName="a[1-2],b[1-2]" Weight=1
# (with a[1-2],b[1-2] still heavier, the weight would win: f1)
sb_check_eq "Weight=1 again: --bucket-prefer=big -> b1" b1 \
	_place -p open -N1 --bucket-prefer=big
scontrol update NodeName=a2 AvailableFeatures=big ActiveFeatures=big
sb_check_eq "scontrol update a2 AvailableFeatures=big: --bucket-prefer=big -> a2" \
	a2 _place -p open -N1 --bucket-prefer=big
scontrol update NodeName=b1 AvailableFeatures=plain ActiveFeatures=plain
sb_check_eq "scontrol update b1 AvailableFeatures=plain: two preferring big -> a2, b2" \
	"a2,b2" _place -p open -N2 --bucket-prefer=big
sb_check "... the model followed each change itself: the audit never found it wrong" \
	sh -c "! grep -q 'audit: the bucket model differs' '$LOG'"

# no preferences anywhere: the SPANK plugin refuses them at submit
sb_check "reconfigure: no preferences anywhere" _bucket_conf AllowJobPreferences=NO
out=$(sbatch -N1 --bucket-prefer=big -o /dev/null --wrap true 2>&1)
sb_check "sbatch --bucket-prefer=big: refused at submit, naming option, value and key" \
	grep -q -- "--bucket-prefer=big: not allowed to jobs (AllowJobPreferences in $BCONF)" <<<"$out"
sb_check_eq "... nothing reached the queue" "" squeue -h -o %i

sb_cluster_stop
sb_check "every daemon the harness started is gone ($(sb_pids))" sb_all_gone
