#!/bin/bash
# t48-trace-window - a few dozen jobs of a real log on a live cluster,
# against 'sbucket replay' of the same window (issue #48): bench/trace's
# tooling and the replay's agreement with slurmctld, on a small machine.
#
# The window: KTH-SP2's jobs submitted from second START of the log
# (the first JOBS of them), cut at run time from ../shared/traces/ by
# bench/trace/cut.py, every time divided by K, the machine and every
# job's size divided by 10 (10 nodes, one slurmd each; the bench runs the
# log's own 100 on a front end), the 28 days before as history. The
# cluster runs select/bucket and priority/bucket (testsuite/live/
# trace.inc: the log's users in accounts of their groups, the history
# written into accounting, the jobs submitted as their users at their
# compressed times). Checked:
#   - the cut: JOBS jobs, a history of the window's users;
#   - the history is what 'sbucket forecast' reads: sacct lists it as
#     completed jobs, and a snapshot of the forecast taken while jobs
#     wait gives a likely start from it;
#   - every job was submitted within 1 s of its time, started and ended
#     (sacct);
#   - at least AGREE percent (80) of the starts agree with the replay's
#     (bench/trace/live-args: the cluster's slurm.conf's scheduler and
#     priority values, its nodes placed by select/bucket's own decision,
#     the phases of its daemon's threads read off its log, its tree)
#     within bf_interval (BF, 10 s), as
#     bench/trace/compare.py counts them.
# The figures are printed as '#' lines. At K=1800 the window's 30 jobs
# (a user's chain of five 8-node jobs among single-node jobs of eleven
# others) run in about 45 s; 28 to 30 of the 30 agreed within 10 s in
# each of seven runs here (22.05 and 24.11, 2026-11-29), |replay - real|
# median 1-4 s, the replay 2-5 s early on average (slurmd's epilog,
# which frees a job's nodes, completes up to a second after the job, and
# the chain adds them up: bench/RESULTS.md).
# SB_TRACE_START, SB_TRACE_JOBS, SB_TRACE_K, SB_TRACE_BF and
# SB_TRACE_AGREE change the window and the check.
#
# sb-live: long (about a minute: the window runs for its compressed time)
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../cluster/harness.sh"

SBUCKET=${SBUCKET:-$SB_TOP_BUILDDIR/tools/sbucket}
LOG=$SB_TOP_SRCDIR/../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz
START=${SB_TRACE_START:-2495050}
JOBS=${SB_TRACE_JOBS:-30}
K=${SB_TRACE_K:-1800}
BF=${SB_TRACE_BF:-10}
AGREE=${SB_TRACE_AGREE:-80}
export SLURM_TIME_FORMAT=standard
if [ ! -r "$LOG" ]; then
	echo "skip 1 - no $(basename "$LOG") in ../shared/traces/ (the shared logs are not on this machine)"
	exit 0
fi
TR_BF_INTERVAL=$BF
TR_BF_RESOLUTION=$BF
TR_CALC_PERIOD=5	# priority/bucket's calc_period, s: a pass every 5 s
. "$SB_TOP_SRCDIR/testsuite/live/trace.inc"
. "$SB_TOP_SRCDIR/testsuite/live/forecast.inc"

sb_cluster_init t48
TR_CUT=$SB_DIR/cut
sb_check "cut.py: $JOBS jobs of KTH-SP2 from second $START, K=$K, 28 days of history" \
	python3 "$SB_TOP_SRCDIR/bench/trace/cut.py" "$LOG" "$START" d2 "$K" d28 \
	"$TR_CUT" --max-jobs "$JOBS" --shrink 10
hist=$(sed -n 's/^HISTORY_JOBS=//p' "$TR_CUT/cut.env")
sb_check_eq "the window has $JOBS jobs" "$JOBS" sed -n 's/^JOBS=//p' "$TR_CUT/cut.env"
sb_check "a history of the window's users ($hist jobs)" test "${hist:-0}" -gt 0
tr_conf bucket
sb_cluster_start
cd "$SB_DIR/jobs" || exit 1
tr_users
tr_t0 4
tr_history
_tr_sleep_until "$TR_T0"
tr_submit_bg "$SB_DIR/submitted.tsv"
# one snapshot of the forecast once jobs wait
declare -A KIND=()
_waiting() {
	local id r
	while read -r id r; do
		KIND[$id]=${r,,}
	done < <(squeue -h -t PD -o '%i %r' 2>/dev/null)
	[ ${#KIND[@]} -gt 0 ]
}
_done() { tr_submitted "$SB_DIR/submitted.tsv" && tr_all_done "$SB_DIR/submitted.tsv"; }
if sb_wait_for 60 _waiting && fc_snapshot; then
	likely=$(python3 -c '
import json, sys
print(sum(1 for j in json.load(open(sys.argv[1]))["jobs"]
          if (j.get("likely_basis") or "limit") != "limit"))' \
		"$SB_DIR/forecast.json")
	sb_check "the forecast's likely start reads the history (${likely:-0} jobs of the snapshot predicted from it)" \
		test "${likely:-0}" -gt 0
else
	sb_check "a snapshot of the forecast while jobs wait" false
fi
sb_wait_for 300 _done || sb_say "the window did not end in 300 s"
wait "$TR_SUBMITTER" 2>/dev/null
_late() { awk '$2 == "failed" || $4 - $3 > 1' "$SB_DIR/submitted.tsv"; }
sb_check_eq "every job submitted by its user within 1 s of its time" "" _late
_collected() {
	tr_collect "$SB_DIR/real.tsv" &&
		[ "$(awk '$4 >= 0 && $5 >= 0' "$SB_DIR/real.tsv" | wc -l)" = "$JOBS" ]
}
sb_check "sacct has the $JOBS jobs' starts and ends" sb_wait_for 30 _collected
_hist_in_sacct() {
	[ "$(sacct -a -X -n -P -s CD -S "$(date -d @$((TR_T0 - 14 * 86400)) +%FT%T)" \
		-E "$(date -d @"$TR_T0" +%FT%T)" -o JobName | grep -c '^swf')" = "$hist" ]
}
sb_check "sacct lists the $hist jobs of the history as completed before the window" \
	sb_wait_for 30 _hist_in_sacct
# the cluster's options, and where its daemon's threads ran
# (bench/trace/live-args)
args=$(tr_replay_args) || sb_die "bench/trace/live-args failed"
sb_say "sbucket replay $args"
# shellcheck disable=SC2086
"$SBUCKET" replay $args --json "$TR_CUT/window.swf" >"$SB_DIR/replay.json" \
	2>"$SB_DIR/replay.err"
sb_check "sbucket replay of the window" test -s "$SB_DIR/replay.json"
sb_check "at least $AGREE % of the starts agree with the replay within bf_interval ($BF s)" \
	python3 "$SB_TOP_SRCDIR/bench/trace/compare.py" "$TR_CUT/window.swf" \
	"$SB_DIR/real.tsv" "$SB_DIR/replay.json" "$BF" --check "$AGREE"
python3 "$SB_TOP_SRCDIR/bench/trace/compare.py" "$TR_CUT/window.swf" \
	"$SB_DIR/real.tsv" "$SB_DIR/replay.json" "$BF" --worst 5 2>&1 | sed 's/^/#   /'
sb_cluster_stop
