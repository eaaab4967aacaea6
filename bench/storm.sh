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
		TESTS_ONLY=live SB_LIVE_FILTER='t33*' ./quickstart check 2>&1 |
		grep -E '^   (not )?ok [0-9]|passed'
done
echo "# Slurm $series, $SECS s, $CLIENTS clients, ${SB_STORM_NODES:-32} nodes${SB_FRONT_END:+ (front end)}"
paste -d= "$logs/storm-bucket.out" "$logs/storm-linear.out" |
	awk -F= '{ printf "%-22s %14s %14s\n", $1, $2, $4 }'
