#!/bin/bash
# window.sh - one window of a log on one fresh cluster, one stack: what
# bench/trace/run runs for each stack (see run's header).
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Environment: TR_CUT (cut.py's directory), TR_STACK (linear or bucket),
# TR_OUT (this run's results), TR_EVERY (seconds between snapshots of the
# forecast; 0: none), TR_DRAIN (seconds allowed after the last submit for
# the queue to empty), SBUCKET, and testsuite/live/trace.inc's TR_*.
# Writes into TR_OUT: submitted.tsv, real.tsv (trace.inc), slurm.conf,
# sdiag.txt (at the end), snapshots/ (each forecast and squeue --start),
# forecast-rows.txt and forecast-pairs.txt (testsuite/live/forecast.inc's
# rows: the first sighting of each job, and every sighting), times.env
# (T0, the machine's load).
. "$(dirname "$0")/../../testsuite/cluster/harness.sh"

SBUCKET=${SBUCKET:-$SB_TOP_BUILDDIR/tools/sbucket}
EVERY=${TR_EVERY:-60}
export SLURM_TIME_FORMAT=standard
. "$SB_TOP_SRCDIR/testsuite/live/trace.inc"
. "$SB_TOP_SRCDIR/testsuite/live/forecast.inc"

SB_SLURMD_DEBUG=error
SB_SCRATCH=${SB_SCRATCH:-/var/tmp}
sb_cluster_init "trace-$TR_STACK"
tr_conf "$TR_STACK"
sb_cluster_start
cd "$SB_DIR/jobs" || exit 1
mkdir -p "$TR_OUT/snapshots"
cp "$SLURM_CONF" "$TR_OUT/slurm.conf"
tr_users
# T0: the window's time 0: a pass of the decay thread
# (trace.inc's tr_t0)
tr_t0 5
tr_history
DRAIN=${TR_DRAIN:-$((TR_JOBS * 3600))}
LAST=$(sed -n 's/^LAST_SUBMIT=//p' "$TR_CUT/cut.env")
sdiag -r >/dev/null 2>&1
echo "T0=$TR_T0 LOAD_START=\"$(cut -d' ' -f1-3 /proc/loadavg)\"" >"$TR_OUT/times.env"
_tr_sleep_until "$TR_T0"
tr_submit_bg "$TR_OUT/submitted.tsv"
sb_say "window: $TR_JOBS jobs from $(date -d @"$TR_T0" +%T), the last submitted at +$LAST s"

# ---- snapshots of the forecast ---------------------------------------------
# KIND: each pending job's kind of wait when first seen pending: squeue's
# reason (Resources: the job next to start, waiting for nodes; Priority:
# behind a job of higher priority).
declare -A KIND=()
FC_FIRST=1
FC_PAIRS=$TR_OUT/forecast-pairs.txt
: >"$FC_PAIRS"
_pending_kinds() {
	local id r
	while read -r id r; do
		[ -n "${KIND[$id]:-}" ] && continue
		KIND[$id]=${r,,}
	done < <(squeue -h -t PD -o '%i %r' 2>/dev/null)
}
# The window is over once every job submitted has started (sacct has
# its start): starts are what is measured, and a job's end is its start
# plus its run (metrics.py takes it so, live and replayed alike). The
# jobs still running then are cancelled: a log's tail of jobs of hours
# (a 60-hour job of KTH-SP2 runs an hour at K=60) would hold the cluster
# for nothing.
_submitted() { grep -vc ' failed ' "$TR_OUT/submitted.tsv"; }
_window_over() {
	tr_submitted "$TR_OUT/submitted.tsv" || return 1
	tr_collect "$SB_DIR/started.tsv" || return 1
	[ "$(awk '$4 >= 0' "$SB_DIR/started.tsv" | wc -l)" -ge "$(_submitted)" ]
}
next=$TR_T0
n=0
while :; do
	_window_over && break
	[ "$(date +%s)" -lt $((TR_T0 + LAST + DRAIN)) ] ||
		{ sb_say "the window did not end within $DRAIN s of its last submit"; break; }
	sb_running "$SB_CTLD_PID" || sb_die "slurmctld died"
	if [ "$EVERY" -gt 0 ] && [ "$(date +%s)" -ge "$next" ]; then
		_pending_kinds
		if [ ${#KIND[@]} -gt 0 ] && fc_snapshot; then
			n=$((n + 1))
			cp "$SB_DIR/forecast.json" "$TR_OUT/snapshots/$((FC_AT - TR_T0)).json"
			cp "$SB_DIR/squeue-start.txt" "$TR_OUT/snapshots/$((FC_AT - TR_T0)).squeue"
		fi
		next=$((next + EVERY))
	fi
	sleep 1
done
wait "$TR_SUBMITTER" 2>/dev/null
sdiag >"$TR_OUT/sdiag.txt" 2>&1
left=$(squeue -h -o %i 2>/dev/null | tr '\n' ' ')
if [ -n "$left" ]; then
	sb_say "every job has started; cancelling those still running: $left"
	# shellcheck disable=SC2086
	scancel $left
	sb_wait_for 60 sb_queue_empty || sb_say "the queue did not empty"
fi
echo "END=$(date +%s) LOAD_END=\"$(cut -d' ' -f1-3 /proc/loadavg)\" SNAPSHOTS=$n" >>"$TR_OUT/times.env"
# sacct has each end a moment after the job left the queue
_tr_collected() {
	tr_collect "$TR_OUT/real.tsv" &&
		[ "$(awk '$5 >= 0' "$TR_OUT/real.tsv" | wc -l)" -ge "$(_submitted)" ]
}
sb_wait_for 60 _tr_collected || sb_say "sacct does not have every job's end"
while read -r num id sub st en state; do
	[ "$st" -ge 0 ] && FC_REAL[$id]=$((TR_T0 + st))
done <"$TR_OUT/real.tsv"
fc_rows >"$TR_OUT/forecast-rows.txt"
fc_pairs_rows >"$TR_OUT/forecast-pairs-rows.txt"
fc_table "" >"$TR_OUT/forecast-table.md"
sb_say "$(wc -l <"$TR_OUT/real.tsv") jobs in sacct; $n snapshots"
sb_cluster_stop
cp "$SB_DIR/log/slurmctld.log" "$TR_OUT/" 2>/dev/null
