#!/bin/bash
# crash.sh - t32-faults-crash over several seeds: slurmctld SIGKILLed 5
# times in a burst of 84 jobs under select/bucket + priority/bucket and,
# at the same time, under select/linear + priority/multifactor. One seed
# is noisy (the kills fall on different jobs in each run); the sums over
# seeds are what issue #26 compares: ours may not be worse than the
# base's. SB_CRASH_FAULT=takeover does the same with t34-faults-takeover
# (a backup controller: the primary SIGKILLed, started again, then
# scontrol takeover; 56 jobs).
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: bash bench/crash.sh [SEEDS]      (default "1 2 3 4 5")
#   SB_SLURM=SERIES (one of 'build-aux/slurm-series chroot') runs that
#   series' build in the chroot, as './quickstart check' does; the
#   default is this machine's 22.05.
# Each seed is one 'make check' of the test (about 70 to 90 s); its
# table is kept in the build's testsuite/logs/<test>-seed<N>.table.
# Prints, per figure, each seed's pair and the sums.
set -uo pipefail

SEEDS=${1:-1 2 3 4 5}
top=$(cd "$(dirname "$0")/.." && pwd)
series=${SB_SLURM:-22.05}
logs=$top/build/$series/testsuite/logs
case ${SB_CRASH_FAULT:-restart} in
takeover) t=t34 ;;
*) t=t32 ;;
esac
cd "$top" || exit 1

for s in $SEEDS; do
	SB_CRASH_SEED=$s TESTS_ONLY=live SB_LIVE_FILTER="$t*" \
		./quickstart check 2>&1 | grep -E '^   (not )?ok [0-9]|passed'
done

echo "# $t, Slurm $series, seeds: $SEEDS (select/bucket / base per seed; sums)"
for s in $SEEDS; do
	[ -f "$logs/$t-seed$s.table" ] || { echo "no table for seed $s" >&2; exit 1; }
	sed "s/^# /$s /" "$logs/$t-seed$s.table"
done | awk '
	{ k = $2; o[k] = o[k] sprintf(" %s/%s", $3, $4); so[k] += $3; sb[k] += $4
	  if (!(k in seen)) { seen[k] = 1; order[n++] = k } }
	END { for (i = 0; i < n; i++) { k = order[i]
		judged = k ~ /^(lost|not_completed|recorded_twice|not_in_jobcomp|drained_nodes)$/
		printf "%-20s%s   sum %s / %s%s\n", k, o[k], so[k], sb[k],
			judged ? (so[k] <= sb[k] ? "   ok" : "   WORSE") : "" } }'
