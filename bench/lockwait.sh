#!/bin/bash
# lockwait.sh - how long each of slurmctld's threads waits for and holds
# the slurmctld locks (lock_slurmctld/unlock_slurmctld), and what the
# main scheduler's and the backfill thread's cycles wait for, measured
# with uprobes on the running slurmctld. For bench/storm.sh (through
# t33-faults-storm's SB_STORM_LOCKS) or by hand.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: bash bench/lockwait.sh record PID SECONDS DIR
#        bash bench/lockwait.sh report DIR
#   record  adds the probes to PID's binary (/proc/PID/exe; it must have
#           its symbol table: Debian's slurmctld and bench/scale/fe-build's
#           do), records SECONDS of them into DIR/perf.data, removes them
#           and writes DIR/events (perf script's text).
#   report  one line per thread name: lock calls, total and mean wait,
#           the longest wait, total hold (lock's return to the thread's
#           next unlock) and the longest hold; then the same for the
#           main scheduler's cycles (schedule(): from its entry to its
#           return) and the backfill thread, whose cycles yield and take
#           the locks again.
#
# Needs root (uprobes) and perf. A probe costs a few microseconds a hit:
# the figures are for comparing stacks under the same probes, not for
# the cycle times without them.
set -uo pipefail

_record() {
	local pid=$1 secs=$2 dir=$3 exe ev=()
	exe=$(readlink "/proc/$pid/exe") || { echo "lockwait: no process $pid" >&2; return 1; }
	mkdir -p "$dir" || return 1
	perf probe -q -d 'sblock:*' 2>/dev/null
	# (perf names a return probe NAME__return)
	for p in "lock=lock_slurmctld" "lock=lock_slurmctld%return" \
		 "unlock=unlock_slurmctld" "sched=schedule" \
		 "sched=schedule%return"; do
		perf probe -q -x "$exe" -a "sblock:$p" >/dev/null 2>&1 ||
			{ echo "lockwait: cannot probe ${p#*=} in $exe" >&2; return 1; }
	done
	ev=(-e 'sblock:*')
	perf record -q -o "$dir/perf.data" "${ev[@]}" -p "$pid" -- sleep "$secs" \
		>"$dir/record.log" 2>&1
	perf probe -q -d 'sblock:*' >/dev/null 2>&1
	perf script -i "$dir/perf.data" -F comm,tid,time,event >"$dir/events" 2>/dev/null
	[ -s "$dir/events" ] || { echo "lockwait: no events in $dir" >&2; return 1; }
}

# perf script lines: COMM TID TIME: sblock:EVENT: (threads' comm may hold
# spaces; the time ends with ':').
_report() {
	awk '
	{
		for (i = 1; i <= NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+:$/) break
		t = substr($i, 1, length($i) - 1) * 1e6
		tid = $(i - 1)
		comm = $1
		for (j = 2; j < i - 1; j++) comm = comm " " $j
		ev = $(i + 1); sub(/^sblock:/, "", ev); sub(/:$/, "", ev)
		name[tid] = comm
		if (ev == "lock") {
			in_lock[tid] = t
		} else if (ev == "lock__return" && (tid in in_lock)) {
			w = t - in_lock[tid]; delete in_lock[tid]
			n[comm]++; wait[comm] += w
			if (w > wmax[comm]) wmax[comm] = w
			held[tid] = t
			if (tid in in_sched) swait[tid] += w
		} else if (ev == "unlock" && (tid in held)) {
			h = t - held[tid]; delete held[tid]
			hold[comm] += h
			if (h > hmax[comm]) hmax[comm] = h
		} else if (ev == "sched") {
			in_sched[tid] = t; swait[tid] = 0
		} else if (ev == "sched__return" && (tid in in_sched)) {
			d = t - in_sched[tid]; delete in_sched[tid]
			sc[comm]++; sdur[comm] += d; sw[comm] += swait[tid]
		}
		if (first == "" || t < first) first = t
		if (t > last) last = t
	}
	END {
		printf "# %.1f s of events\n", (last - first) / 1e6
		printf "%-16s %8s %10s %9s %9s %10s %9s\n", "thread", "locks",
		       "wait_ms", "mean_us", "max_us", "hold_ms", "max_us"
		cmd = "sort -k3,3nr"
		for (c in n)
			printf "%-16s %8d %10.1f %9.1f %9.0f %10.1f %9.0f\n", c, n[c],
			       wait[c] / 1e3, wait[c] / n[c], wmax[c], hold[c] / 1e3,
			       hmax[c] | cmd
		close(cmd)
		for (c in sc)
			printf "# schedule() in %s: %d calls, mean %.0f us, of which lock wait %.0f us\n",
			       c, sc[c], sdur[c] / sc[c], sw[c] / sc[c]
	}' "$1/events"
}

case "${1:-}" in
record) shift; _record "$@" ;;
report) shift; _report "$@" ;;
*) echo "usage: $0 record PID SECONDS DIR | report DIR" >&2; exit 2 ;;
esac
