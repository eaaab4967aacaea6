#!/bin/bash
# storm.sh - t33-faults-storm's RPC storm, for minutes, under select/bucket
# + priority/bucket and then under select/linear + priority/multifactor
# on the same machine: client RPC latencies and slurmctld's cycle times
# (sdiag) side by side.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: bash bench/storm.sh [SECONDS [CLIENTS]]   (default 180, 6)
#   SB_SLURM=SERIES (one of 'build-aux/slurm-series chroot') runs that
#   series' build in the chroot, as './quickstart check' does; the
#   default is this machine's 22.05.
#   SB_PORT_BASE as for the live tests.
#   SB_STORM_NODES=N runs N nodes (t33's header); for thousands, on
#   22.05, SB_FRONT_END=$(bench/scale/fe-build --quiet): one slurmd
#   serves them all.
#   SB_STORM_RATE=R paces the clients to R commands a second in all, and
#   SB_STORM_SUBMIT_MS the burst (default a job every 150 ms): both
#   stacks then get the same work (t33's header).
#   SB_STORM_PERF=DIR profiles the main scheduler's and the backfill
#   thread over the storm (perf record, call graphs) into DIR/SELECT.
#   SB_STORM_LOCKS=DIR records every slurmctld thread's lock waits and
#   holds over the storm (bench/lockwait.sh) into DIR/SELECT, and prints
#   them after the figures.
set -uo pipefail

SECS=${1:-180}
CLIENTS=${2:-6}
top=$(cd "$(dirname "$0")/.." && pwd)
series=${SB_SLURM:-22.05}
logs=$top/build/$series/testsuite/logs
cd "$top" || exit 1

for m in bucket:bucket linear:multifactor; do
	sel=${m%%:*} prio=${m#*:}
	# (inside the chroot the logs directory is the same path)
	SB_STORM_SELECT=$sel SB_STORM_PRIORITY=$prio SB_STORM_SECONDS=$SECS \
		SB_STORM_CLIENTS=$CLIENTS SB_STORM_OUT=$logs/storm-$sel.out \
		SB_STORM_LOCKS=${SB_STORM_LOCKS:+$SB_STORM_LOCKS/$sel} \
		SB_STORM_PERF=${SB_STORM_PERF:+$SB_STORM_PERF/$sel} \
		TESTS_ONLY=live SB_LIVE_FILTER='t33*' ./quickstart check 2>&1 |
		grep -E '^   (not )?ok [0-9]|passed'
done
echo "# Slurm $series, $SECS s, $CLIENTS clients, ${SB_STORM_NODES:-32} nodes${SB_FRONT_END:+ (front end)}"
paste -d= "$logs/storm-bucket.out" "$logs/storm-linear.out" |
	awk -F= '{ printf "%-22s %14s %14s\n", $1, $2, $4 }'
if [ -n "${SB_STORM_LOCKS:-}" ]; then
	for sel in bucket linear; do
		echo "# lock waits and holds under $sel (bench/lockwait.sh report)"
		bash bench/lockwait.sh report "$SB_STORM_LOCKS/$sel"
	done
fi
