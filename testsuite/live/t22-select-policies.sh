#!/bin/bash
# t22-select-policies - select/bucket's Maui node allocation policies in a
# live slurmctld, each with a case whose answer is visible by hand, set
# through bucket.conf and 'scontrol reconfigure'; a job's own policy
# through the SPANK option --bucket-policy; a bad bucket.conf kept out on
# reconfigure and refused at start (a node or a partition slurm.conf
# lacks too).
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Eight nodes of equal Weight, so the policy alone orders them:
#   p[1-2] 8 CPUs 16000 MB speed 1    p[3-4] 2 CPUs  2000 MB speed 3
#   p[5-6] 4 CPUs  8000 MB speed 2    p[7-8] 2 CPUs  4000 MB speed 1
. "$(dirname "$0")/../cluster/harness.sh"

SB_CTLD_DEBUG=${SB_CTLD_DEBUG:-verbose}
sb_cluster_init t22
sb_nodes "p[1-2]" "CPUs=8 RealMemory=16000 Weight=1"
sb_nodes "p[3-4]" "CPUs=2 RealMemory=2000 Weight=1"
sb_nodes "p[5-6]" "CPUs=4 RealMemory=8000 Weight=1"
sb_nodes "p[7-8]" "CPUs=2 RealMemory=4000 Weight=1"
sb_select bucket
sb_conf "DebugFlags=SelectType"
. "$(dirname "$0")/place.inc"
SPEEDS='NodeName=p[3-4] Speed=3
NodeName=p[5-6] Speed=2'
printf '%s\n' "$SPEEDS" >"$BCONF"
_spank_on
sb_cluster_start
LOG=$SB_DIR/log/slurmctld.log
cd "$SB_DIR/jobs"

# bucket.conf = the speeds + the given lines; reconfigure; wait for it
_policy() { _bucket_conf "$SPEEDS" "$@"; }

sb_check_eq "FIRSTAVAILABLE (default): one node -> p1" p1 _place -N1
sb_check_eq "FIRSTAVAILABLE: three nodes -> node order" "p[1-3]" _place -N3

sb_check "reconfigure to MINRESOURCE" _policy NodeAllocationPolicy=MINRESOURCE
sb_check_eq "MINRESOURCE: fewest CPUs, then least memory -> p3" p3 _place -N1
sb_check_eq "MINRESOURCE: three -> p3, p4 (2 CPUs 2000 MB), p7 (2 CPUs 4000 MB)" \
	"p[3-4,7]" _place -N3

sb_check "reconfigure to FASTEST" _policy NodeAllocationPolicy=FASTEST
sb_check_eq "FASTEST: three -> p3, p4 (speed 3), p5 (speed 2)" "p[3-5]" _place -N3

sb_check "reconfigure to MAXBALANCE" _policy NodeAllocationPolicy=MAXBALANCE
sb_check_eq "MAXBALANCE: three of one speed -> the speed-1 nodes p1, p2, p7" \
	"p[1-2,7]" _place -N3
sb_check "... by the per-node path (the policy orders nodes per job)" \
	grep -q "RUN_NOW: run (per-node path, reason policy_order, policy MAXBALANCE) nodes p\[1-2,7\]" "$LOG"

sb_check "reconfigure to CPULOAD" _policy NodeAllocationPolicy=CPULOAD
# every slurmd of this host reports the same load: CPUs minus load
# orders the nodes by their CPUs
sb_check_eq "CPULOAD: three -> most idle CPU power, p1, p2 (8), p5 (4)" \
	"p[1-2,5]" _place -N3

sb_check "reconfigure to PRIORITY with PriorityF" \
	_policy NodeAllocationPolicy=PRIORITY 'PriorityF="CMEM + 10000*SPEED"'
# p3: 2000 + 30000, p5: 8000 + 20000, p1: 16000 + 10000, p7: 14000
sb_check_eq "PRIORITY CMEM+10000*SPEED: three -> p3, p4 (32000), p5 (28000)" \
	"p[3-5]" _place -N3

sb_check "reconfigure to CONTIGUOUS" _policy NodeAllocationPolicy=CONTIGUOUS
hold=$(sbatch --parsable -w p2 -o /dev/null --wrap 'sleep 600')
sb_wait_for 30 _running "$hold"
sb_check_eq "CONTIGUOUS with p2 busy: two -> p3, p4 (not p1 and p3)" \
	"p[3-4]" _place -N2
scancel "$hold"

sb_check "reconfigure to LASTAVAILABLE" _policy NodeAllocationPolicy=LASTAVAILABLE
scontrol create reservation ReservationName=soon StartTime=now+3600 \
	Duration=60 Nodes=p6 Users=root >/dev/null
sb_check_eq "LASTAVAILABLE: a 50-minute job fits best before p6's reservation" \
	p6 _place -N1 -t 50
sb_check_eq "... a 70-minute one cannot use p6" p1 _place -N1 -t 70
scontrol delete ReservationName=soon

# ---- a job's own policy (SPANK) ----------------------------------------------
sb_check "reconfigure: FIRSTAVAILABLE, jobs may ask for FASTEST" \
	_policy NodeAllocationPolicy=FIRSTAVAILABLE AllowJobPolicies=FASTEST
sb_check "sbatch --help shows --bucket-policy" \
	sh -c "sbatch --help | grep -q -- '--bucket-policy=NAME'"
sb_check_eq "--bucket-policy=FASTEST: one node -> p3" p3 \
	_place -N1 --bucket-policy=FASTEST
sb_check_eq "without it: p1" p1 _place -N1
out=$(sbatch -N1 --bucket-policy=MINRESOURCE -o /dev/null --wrap true 2>&1)
sb_check "--bucket-policy=MINRESOURCE (not allowed): refused at submit, naming option and value" \
	grep -q -- "--bucket-policy=MINRESOURCE: not allowed to jobs (AllowJobPolicies in $BCONF)" <<<"$out"
out=$(sbatch -N1 --bucket-policy=FASTST -o /dev/null --wrap true 2>&1)
sb_check "--bucket-policy=FASTST (no such policy): refused at submit" \
	grep -q -- "--bucket-policy=FASTST: unknown policy (expected one of FIRSTAVAILABLE" <<<"$out"

# ---- a bad bucket.conf -----------------------------------------------------------
n=$(grep -c "keeping the previous settings" "$LOG")
# (sb_bucket_conf_base: the base, on the series that has it there)
printf 'NodeAllocationPolicy=FASTESTT\n%s\n' "$(sb_bucket_conf_base)" >"$BCONF"
scontrol reconfigure >/dev/null 2>&1
sb_check "reconfigure with a bad policy: one error line names file, line, key and value" \
	sb_wait_for 30 grep -q "error: select/bucket: $BCONF:1: NodeAllocationPolicy=FASTESTT: unknown policy" "$LOG"
if [ "${SB_SERIES:-22.05}" = 22.05 ]; then
	sb_check "... and the previous settings stay" \
		sb_wait_for 10 sh -c "[ \$(grep -c 'keeping the previous settings' '$LOG') -gt $n ]"
	sb_check_eq "... jobs still get FASTEST when they ask" p3 \
		_place -N1 --bucket-policy=FASTEST
else
	# From 23.11 on, 'scontrol reconfigure' starts slurmctld afresh
	# (exec): the new one reads bucket.conf as at start and refuses it.
	# A daemonized slurmctld then goes on as before (its parent resumes,
	# as after a bad slurm.conf); one in the foreground (-D, as here)
	# has no parent to go back to and exits.
	sb_check "... and slurmctld refuses it as at start (in the foreground: exits)" \
		sb_wait_for 30 sb_ended "$SB_CTLD_PID"
	printf '%s\nAllowJobPolicies=FASTEST\n%s\n' "$SPEEDS" \
		"$(sb_bucket_conf_base)" >"$BCONF"
	sb_ctld_stop
	sb_check "... and starts again with a good bucket.conf; every node answers" \
		_start_nodes_back
	sb_check_eq "... where jobs get FASTEST when they ask" p3 \
		_place -N1 --bucket-policy=FASTEST
	printf 'NodeAllocationPolicy=FASTESTT\n%s\n' \
		"$(sb_bucket_conf_base)" >"$BCONF"
fi

sb_ctld_stop
: >"$SB_DIR/log/slurmctld.out"
if sb_ctld_start 20; then started=yes; else started=no; fi
sb_check_eq "slurmctld refuses to start with the bad bucket.conf" no echo "$started"
sb_ctld_stop
sb_check "... with one line naming file, line, key and value" grep -q \
	"$BCONF:1: NodeAllocationPolicy=FASTESTT: unknown policy" \
	"$SB_DIR/log/slurmctld.out" "$LOG"
printf 'NodeName=p9 Speed=2\n%s\n' "$(sb_bucket_conf_base)" >"$BCONF"
if sb_ctld_start 20; then started=yes; else started=no; fi
sb_check_eq "slurmctld refuses to start when bucket.conf names a node slurm.conf lacks" \
	no echo "$started"
sb_ctld_stop
sb_check "... naming it" grep -q "$BCONF:1: NodeName=p9: no such node in slurm.conf" \
	"$SB_DIR/log/slurmctld.out" "$LOG"
printf 'PartitionName=debug,nosuch AllowJobPreferences=YES\n%s\n' \
	"$(sb_bucket_conf_base)" >"$BCONF"
if sb_ctld_start 20; then started=yes; else started=no; fi
sb_check_eq "... or a partition slurm.conf lacks" no echo "$started"
sb_ctld_stop
sb_check "... naming it" grep -q \
	"$BCONF:1: PartitionName=nosuch: no such partition in slurm.conf" \
	"$SB_DIR/log/slurmctld.out" "$LOG"

sb_cluster_stop
sb_check "every daemon the harness started is gone ($(sb_pids))" sb_all_gone
