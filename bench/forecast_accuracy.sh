#!/bin/bash
# forecast_accuracy.sh - how right 'sbucket forecast' and squeue --start
# were, on a live select/bucket (over select/linear) cluster running a
# mixed workload for several minutes (issue #35, item 4).
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage (root, from the source tree, like a live test; SB_SLURM=SERIES runs
# it in the Debian 13 chroot, on build/SERIES/'s plugins):
#   SB_PLUGIN_DIR=$PWD/build/22.05/.plugins bash bench/forecast_accuracy.sh
# The cluster: NODES nodes of 2 CPUs (SB_BENCH_NODES, default 14; the
# last two get a reservation each), Licenses=lic:2, QOS lim4
# (GrpTRES=cpu=4: two nodes' worth under select/linear), bf_interval=1,
# priority/multifactor with an age factor (PriorityWeightAge=1000 over
# PriorityMaxAge 10 minutes). Holders fill the other nodes first, then the
# measured pending jobs come:
#   nodes        10 jobs of 1-4 nodes, 1-3 minutes, nice 0-90
#   licence      4 one-task jobs (-n1, the base places them) -L lic:1
#   limit        3 jobs in lim4 (one node each)
#   dependency   2 chains of 3 (afterany), from the holders
#   reservation  2 jobs, in reservations starting 50 and 55 s after they
#                are made (less than any job's minute: no job fits before)
#   held         2 held jobs (sbatch -H): no start, a stated reason
# sbucket forecast --json and squeue --start of each job are taken at one
# moment; then SB_BENCH_LATE (default 3) jobs of 2 nodes come with nice
# -1000 (ahead of every measured one: the forecast could not know them),
# and the bench polls until every measured job but the held ones started
# (or SB_BENCH_MAX s, default 900, passed).
# Every job sleeps to 3 s under its limit (its end is its limit, as the
# forecast assumes); SB_BENCH_EARLY=1 makes each sleep SB_BENCH_FRAC
# percent (default 40) of it instead, so that the limits overstate the
# runs and the forecast from them is late; there the likely start
# ('likely_start' of the JSON, when it has it) is measured too.
# In that mode the users first get a history (SB_BENCH_HISTORY=0 skips
# it): every shape of job the bench submits (user, time limit, node
# count) runs twice to its early end before the holders come, so that
# accounting holds the runs sbucket's likely start predicts from (the
# mean of the last two similar runs: here the run itself, as a site's
# repeated jobs would).
# Prints a markdown table per kind of wait: jobs, started, and for ours,
# squeue --start's (and likely_start's): how many had a start, median and
# p90 of |real - start| (nearest rank) and the median of real - start
# (> 0: the job started later than said); then each job's row, with its
# priority, age and fair-share factors (sprio) at the snapshot and when
# last seen pending, to tell a change of order from a wrong end.
. "$(dirname "$0")/../testsuite/cluster/harness.sh"

SBUCKET=${SBUCKET:-$SB_TOP_BUILDDIR/tools/sbucket}
NODES=${SB_BENCH_NODES:-14}
LATE=${SB_BENCH_LATE:-3}
MAX=${SB_BENCH_MAX:-900}
EARLY=${SB_BENCH_EARLY:-0}
FRAC=${SB_BENCH_FRAC:-40}
HISTORY=${SB_BENCH_HISTORY:-$EARLY}
export SLURM_TIME_FORMAT=standard
. "$SB_TOP_SRCDIR/testsuite/live/forecast.inc"

sb_cluster_init forecast_accuracy
sb_nodes "n[1-$NODES]" "CPUs=2 RealMemory=2000"
sb_accounting
sb_select bucket
sb_conf "AccountingStorageEnforce=associations,limits,qos"
sb_conf "Licenses=lic:2"
sb_conf "SchedulerParameters=bf_interval=1,bf_resolution=1"
sb_conf "PriorityWeightAge=1000"
sb_conf "PriorityMaxAge=0-0:10"
sb_cluster_start
cd "$SB_DIR/jobs"

sb_user_add sbf1
sacctmgr -i add qos lim4 GrpTRES=cpu=4 >/dev/null &&
sacctmgr -i add account acctf >/dev/null &&
sacctmgr -i add user sbf1 Account=acctf QOS=normal,lim4 \
	DefaultQOS=normal >/dev/null || sb_die "sacctmgr"
sb_users_known 30 sbf1:acctf:lim4 || sb_die "slurmctld does not know sbf1"

_secs() {	# LIMIT-MINUTES -> how long the job sleeps
	if [ "$EARLY" = 1 ]; then
		echo $(($1 * 60 * FRAC / 100))
	else
		echo $(($1 * 60 - 3))
	fi
}
_sub() {	# MINUTES ARGS... -> job id (root's)
	local t=$1
	shift
	sbatch --parsable -o /dev/null -t "$t" "$@" --wrap "sleep $(_secs "$t")"
}
_subf() {	# MINUTES ARGS... -> job id (sbf1's)
	local t=$1
	shift
	runuser -u sbf1 -- sbatch --parsable -o /dev/null -t "$t" -A acctf \
		"$@" --wrap "sleep $(_secs "$t")"
}
_state() { squeue -h -j "$1" -o %T 2>/dev/null; }
_all_running() { local j; for j in "$@"; do [ "$(_state "$j")" = RUNNING ] || return 1; done; }
_none_configuring() { ! squeue -h -t CF -o %i | grep -q .; }

# ---- a history: each shape of job twice, to its end ----------------------
# (user, minutes, nodes) of every holder and measured job below; run
# whole-node, at most the cluster's nodes at a time (slurmctld queues the
# rest), all in the default partition as the measured ones.
_history() {
	local shapes=() ids=() u t n k
	for t in 1 2 3; do
		for n in 1 2 3 4; do shapes+=("root $t $n"); done
	done
	shapes+=("sbf1 1 1" "sbf1 2 1" "sbf1 3 1")
	for k in "${shapes[@]}"; do
		read -r u t n <<<"$k"
		for _ in 1 2; do
			if [ "$u" = root ]; then
				ids+=("$(_sub "$t" -N"$n" --exclusive)")
			else
				ids+=("$(_subf "$t" -N"$n" --exclusive)")
			fi
		done
	done
	_gone() { ! squeue -h -o %i | grep -qxF -f <(printf '%s\n' "${ids[@]}"); }
	sb_wait_for 900 _gone || sb_die "the history's jobs did not all end"
	# what sbucket asks (tools/explain/sbucket_forecast_likely.c), over the hour
	_acct() {
		sacct -a -X -n -P -o JobID,State -S "$(date -d '-1 hour' +%FT%T)" \
			-E "$(date +%FT%T)" 2>&1
	}
	_in_sacct() {
		[ "$(_acct | grep -E '\|COMPLETED$' | cut -d'|' -f1 |
			grep -cxF -f <(printf '%s\n' "${ids[@]}"))" = ${#ids[@]} ]
	}
	if ! sb_wait_for 60 _in_sacct; then
		_acct | head -5 | sed 's/^/#   sacct: /'
		sb_die "the history's jobs are not all in sacct as COMPLETED"
	fi
	sb_say "history: ${#ids[@]} runs of ${#shapes[@]} shapes ended and are in accounting"
}
[ "$HISTORY" = 1 ] && _history

# ---- holders: every node but the last two --------------------------------
declare -A KIND=()
H=()
H+=("$(_sub 1 -L lic:1 -N1)" "$(_sub 2 -L lic:1 -N1)")
H+=("$(_subf 1 -q lim4 -N1)" "$(_subf 3 -q lim4 -N1)")
left=$((NODES - 6))
i=0
while [ $left -gt 0 ]; do
	n=$((1 + i % 2))
	[ $n -gt $left ] && n=$left
	H+=("$(_sub $((1 + i % 3)) -N$n --exclusive)")
	left=$((left - n)) i=$((i + 1))
done
sb_wait_for 60 _all_running "${H[@]}" || sb_die "the holders do not all run"
sb_say "holders: ${H[*]}"
now=$(date +%s)
scontrol create reservation ReservationName=rsv1 StartTime=now+50 \
	Duration=3 Nodes=n$((NODES - 1)) Users=root >/dev/null &&
scontrol create reservation ReservationName=rsv2 StartTime=now+55 \
	Duration=3 Nodes=n$NODES Users=root >/dev/null ||
	sb_die "the reservations"

# ---- the measured pending jobs ------------------------------------------------
for i in 0 1 2 3 4 5 6 7 8 9; do
	KIND[$(_sub $((1 + i % 3)) -N$((1 + i % 4)) --exclusive --nice=$((i * 10)))]=nodes
done
for i in 0 1 2 3; do
	KIND[$(_sub $((1 + i % 2)) -n1 -L lic:1)]=licence
done
for i in 0 1 2; do
	KIND[$(_subf $((1 + i % 2)) -N1 -q lim4)]=limit
done
for c in 4 5; do
	d=${H[$c]}
	for i in 1 2 3; do
		d=$(_sub 1 -N1 -d afterany:"$d")
		KIND[$d]=dependency
	done
done
KIND[$(_sub 1 -N1 --reservation=rsv1)]=reservation
KIND[$(_sub 1 -N1 --reservation=rsv2)]=reservation
KIND[$(_sub 1 -N1 -H)]=held
KIND[$(_sub 2 -N2 -H)]=held
# every job seen by the main scheduler and a backfill pass
sleep 3
sb_say "pending: $(squeue -h -t PD -o '%i:%r' | tr '\n' ' ')"
fc_snapshot || sb_die "sbucket forecast failed: $(cat "$SB_DIR/forecast.err")"
sb_say "snapshot at $(date -d @"$FC_AT" +%T), $((FC_AT - now)) s after the holders ran"
sed 's/^/#   /' "$SB_DIR/forecast.txt"
late=()
for i in $(seq 1 "$LATE"); do
	late+=("$(_sub 1 -N2 --exclusive --nice=-1000)")
done
[ ${#late[@]} -gt 0 ] && sb_say "submitted later, ahead of every measured job: ${late[*]}"
fc_poll $((FC_AT + MAX)) || sb_say "not every job started within $MAX s"

echo
echo "sbucket forecast vs squeue --start: $(date -u +%FT%TZ), Slurm $SB_SERIES, $NODES nodes, ${#KIND[@]} measured jobs, $LATE later, $([ "$EARLY" = 1 ] && echo "jobs run $FRAC % of their limits" || echo "jobs run to 3 s under their limits")"
echo
fc_table ""
echo
echo "job kind planned squeue likely real (epoch s; real - planned, real - squeue) priority/age/fairshare at the snapshot, last seen pending"
fc_rows | while read -r j k p s l r ps pl; do
	e1=- e2=-
	[ "$p" != - ] && [ "$r" != - ] && e1=$((r - p))
	[ "$s" != - ] && [ "$r" != - ] && e2=$((r - s))
	echo "$j $k $p $s $l $r ($e1, $e2) $ps $pl"
done
sb_cluster_stop
