#!/bin/bash
# t35-sbucket-forecast - how right 'sbucket forecast' is on a live
# select/bucket (over select/linear) cluster whose starts are knowable
# (issue #35, item 4). Seven nodes of 2 CPUs; the holders run to just
# under their time limit of 1 minute (they sleep SLEEP s of the 60), so each
# ends at StartTime + TimeLimit - (60 - SLEEP), not up to 30 s after it
# as when slurmctld's time-limit sweep (PERIODIC_TIMEOUT) ends it:
#   nodes        R1 (-N2 -C big) holds n[1-2]; NW (-N2 -C big
#                --exclusive) waits for them (Resources)
#   licence      L1 (-L lic:1; Licenses=lic:1) on n3; LW (-n1 -L lic:1,
#                one task: the base places it) waits (Licenses, or
#                Priority: 22.05's main scheduler stops at NW first)
#   limit        G1 (QOS lim2 GrpTRES=cpu=2) on n4; GW in lim2 waits
#                (QOSGrpCpuLimit)
#   dependency   X1 on n5; D1 afterany:X1, D2 afterany:D1 (Dependency)
#   reservation  rsv on n7 from a moment after the snapshot; RW in it
#                waits (Reservation)
#   (n6 is free: a node for LW, GW and D1 as soon as their licence, limit
#   or dependency allows, so that each waits for that alone)
#   held         HJ (sbatch -H): never, with a stated reason
# The features keep NW on n[1-2] and every other job off them, so that
# no waiting job can take another's nodes when ends meet in one second.
# n7 is free until rsv starts, for less than any job's 1 minute.
# At one moment the test takes sbucket forecast --json and squeue --start
# of each job, then polls until every job but HJ has started, and checks
# that every pending job has a planned start or a no_start reason and
# that each real start is within ALLOW s of the planned one: the holder
# ends up to 60 - SLEEP s (3) before its limit, and the waiting job starts
# at the next scheduling, the main scheduler's on the job's end or
# backfill's a bf_interval (1 s) later; ALLOW (default 8) is that, plus
# 4 s for job launch and slurmctld's agents on a machine running other
# tests; D2, planned from D1's planned end, may start 2 x (60 - SLEEP)
# s early (D1 started early and ran SLEEP s), so its bound is ALLOW +
# (60 - SLEEP). What each job waits for (the JSON's waits_for) must name
# its kind. Coverage and errors, ours and squeue --start's (and
# likely_start's when the JSON has it), are printed as '#' lines.
#
# sb-live: long (about 2 min: the chain D1, D2 runs two 1-minute limits)
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../cluster/harness.sh"

SBUCKET=${SBUCKET:-$SB_TOP_BUILDDIR/tools/sbucket}
ALLOW=${SB_FORECAST_ALLOW:-8}
SLEEP=57
export SLURM_TIME_FORMAT=standard
. "$SB_TOP_SRCDIR/testsuite/live/forecast.inc"

sb_cluster_init t35
sb_nodes "n[1-2]" "CPUs=2 RealMemory=2000 Features=big"
sb_nodes "n[3-7]" "CPUs=2 RealMemory=2000 Features=small"
sb_accounting
sb_select bucket
sb_conf "AccountingStorageEnforce=associations,limits,qos"
sb_conf "Licenses=lic:1"
sb_conf "SchedulerParameters=bf_interval=1,bf_resolution=1"
sb_cluster_start
cd "$SB_DIR/jobs"

sb_user_add sbf1
sacctmgr -i add qos lim2 GrpTRES=cpu=2 >/dev/null &&
sacctmgr -i add account acctf >/dev/null &&
sacctmgr -i add user sbf1 Account=acctf QOS=normal,lim2 \
	DefaultQOS=normal >/dev/null
sb_check "sacctmgr adds QOS lim2 (GrpTRES=cpu=2) and user sbf1" test $? = 0
sb_check "slurmctld knows sbf1 in lim2" sb_users_known 30 sbf1:acctf:lim2

_state() { squeue -h -j "$1" -o %T 2>/dev/null; }
_running() { [ "$(_state "$1")" = RUNNING ]; }
_all_running() { local j; for j in "$@"; do _running "$j" || return 1; done; }
_reason_is() {	# JOB REASON|REASON...
	[[ "|$2|" == *"|$(squeue -h -j "$1" -o %r 2>/dev/null)|"* ]]
}
_sub() {	# ARGS... -> job id (root's, SLEEP s)
	sbatch --parsable -o /dev/null -t 1 "$@" --wrap "sleep $SLEEP"
}
_subf() {	# ARGS... -> job id (sbf1's, in acctf)
	runuser -u sbf1 -- sbatch --parsable -o /dev/null -t 1 -A acctf \
		"$@" --wrap "sleep $SLEEP"
}

# ---- holders ----------------------------------------------------------------
declare -A JOB=() KIND=()
JOB[R1]=$(_sub -N2 -C big --exclusive)
JOB[L1]=$(_sub -N1 -C small -L lic:1)
JOB[G1]=$(_subf -N1 -C small -q lim2)
JOB[X1]=$(_sub -N1 -C small)
sb_check "holders R1, L1, G1, X1 run" sb_wait_for 30 _all_running \
	"${JOB[R1]}" "${JOB[L1]}" "${JOB[G1]}" "${JOB[X1]}"
scontrol create reservation ReservationName=rsv StartTime=now+40 \
	Duration=2 Nodes=n7 Users=root >/dev/null
sb_check "reservation rsv on n7 in 40 s" \
	sh -c "scontrol show res rsv | grep -q 'State=INACTIVE'"

# ---- the waiting jobs -------------------------------------------------------
JOB[NW]=$(_sub -N2 -C big --exclusive) KIND[${JOB[NW]}]=nodes
JOB[LW]=$(_sub -n1 -C small -L lic:1) KIND[${JOB[LW]}]=licence
JOB[GW]=$(_subf -N1 -C small -q lim2) KIND[${JOB[GW]}]=limit
JOB[D1]=$(_sub -N1 -C small -d afterany:"${JOB[X1]}") KIND[${JOB[D1]}]=dependency
JOB[D2]=$(_sub -N1 -C small -d afterany:"${JOB[D1]}") KIND[${JOB[D2]}]=dependency
JOB[RW]=$(_sub -N1 --reservation=rsv) KIND[${JOB[RW]}]=reservation
JOB[HJ]=$(_sub -N1 -C small -H) KIND[${JOB[HJ]}]=held
# LW: Licenses, or Priority when the main scheduler stopped at NW in
# the partition (22.05) before it looked at LW's licence
declare -A WANT=([NW]=Resources [LW]='Licenses|Priority' [GW]=QOSGrpCpuLimit
	[D1]=Dependency [D2]=Dependency [RW]=Reservation [HJ]=JobHeldUser)
for n in NW LW GW D1 D2 RW HJ; do
	sb_check "$n (job ${JOB[$n]}, ${KIND[${JOB[$n]}]}) pends for ${WANT[$n]}" \
		sb_wait_for 30 _reason_is "${JOB[$n]}" "${WANT[$n]}"
done
# backfill passes every second: let one see every waiting job
sleep 2

# ---- the snapshot -----------------------------------------------------------
sb_check "sbucket forecast --json reads the cluster" fc_snapshot
sed 's/^/#   /' "$SB_DIR/forecast.txt"
sed 's/^/#   /' "$SB_DIR/squeue-start.txt"
for n in NW LW GW D1 D2 RW HJ; do
	j=${JOB[$n]}
	sb_check "$n (job $j): a planned start (${FC_PLAN[$j]:-none}) or a no_start reason (${FC_NOSTART[$j]:-none})" \
		test -n "${FC_PLAN[$j]:-}${FC_NOSTART[$j]:-}"
done
_held_ok() { [ -z "$1" ] && grep -qi held <<<"$2"; }
sb_check "HJ (held) has no start, and its reason says held" \
	_held_ok "${FC_PLAN[${JOB[HJ]}]:-}" "${FC_NOSTART[${JOB[HJ]}]:-}"
# what each waits for, as the JSON's waits_for names it
declare -A WAITS=([NW]="running_job" [LW]="limit licence lic"
	[GW]="limit QOS lim2 GrpTRES cpu" [D1]=dependency [D2]=dependency
	[RW]=reservation)
for n in NW LW GW D1 D2 RW; do
	j=${JOB[$n]}
	sb_check "$n (job $j) waits for: ${WAITS[$n]} (${FC_WAITS[$j]:-nothing})" \
		grep -qF "${WAITS[$n]}" <<<"${FC_WAITS[$j]:-}"
done

# ---- the real starts ----------------------------------------------------------
last=0
for n in NW LW GW D1 D2 RW; do
	p=${FC_PLAN[${JOB[$n]}]:-0}
	[ "$p" -gt "$last" ] && last=$p
done
[ "$last" -gt 0 ] || last=$((FC_AT + 150))
sb_check "every job but HJ starts (by the last planned start + $ALLOW s + 20)" \
	fc_poll $((last + ALLOW + 20))
for n in NW LW GW D1 D2 RW; do
	j=${JOB[$n]} p=${FC_PLAN[${JOB[$n]}]:-} r=${FC_REAL[${JOB[$n]}]:-}
	sb_say "$n job $j (${KIND[$j]}): planned ${p:-none}, squeue --start ${FC_SQ[$j]:-none}, likely ${FC_LIKELY[$j]:-none}, real ${r:-none}${p:+${r:+, real - planned $((r - p)) s}}"
	a=$ALLOW
	[ "$n" = D2 ] && a=$((ALLOW + 60 - SLEEP))
	sb_check "$n (${KIND[$j]}) started within $a s of its planned start" \
		test -n "$p" -a -n "$r" -a "$(( ${r:-0} - ${p:-0} ))" -ge "-$a" \
		-a "$(( ${r:-0} - ${p:-0} ))" -le "$a"
done
echo "# coverage and |real - start| (s), at $(date -d @"$FC_AT" +%T):"
fc_table "#   "

sb_cluster_stop
sb_check "every daemon the harness started is gone ($(sb_pids))" sb_all_gone
