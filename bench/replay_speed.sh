#!/bin/bash
# replay_speed.sh - how fast 'sbucket replay' replays the logs of
# ../shared/traces/, and how its time grows with the number of jobs
# (issue #47, item 3: SDSC-BLUE under EASY < 2 s, under conservative
# < 20 s, peak memory < 1 GiB; SDSC-SP2 under EASY < 0.5 s).
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: bash bench/replay_speed.sh
#   SBUCKET (default build/22.05/tools/sbucket), TRACES (default
#   ../shared/traces relative to the checkout), RUNS (default 5),
#   CUTS (default "10000 30000 100000 all").
# Each command is timed by farm-bench (the whole process, from outside:
# reading the gzip log, the replay, the metrics; RUNS runs after a
# warm-up; the median, min and max) and printed as a Markdown row: wall
# seconds, CPU seconds, peak MiB. The cuts are SDSC-BLUE's first N job
# lines (with its header), written at run time, uncompressed, into a
# temporary directory that is removed at exit; each is replayed under
# easy, conservative and slurm. With INSTR=1, valgrind's callgrind counts
# the instructions of SDSC-SP2 under each scheduler too (independent of
# the machine's load; about a minute each).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
SBUCKET=${SBUCKET:-$top/build/22.05/tools/sbucket}
TRACES=${TRACES:-$top/../shared/traces}
RUNS=${RUNS:-5}
CUTS=${CUTS:-10000 30000 100000 all}
BLUE=$TRACES/SDSC-BLUE-2000-4.2-cln.swf.gz
SP2=$TRACES/SDSC-SP2-1998-4.2-cln.swf.gz

[ -x "$SBUCKET" ] || { echo "replay_speed: no $SBUCKET (build first)" >&2; exit 2; }
command -v farm-bench >/dev/null || { echo "replay_speed: needs farm-bench" >&2; exit 2; }
for f in "$BLUE" "$SP2"; do
	[ -f "$f" ] || { echo "replay_speed: skipped: $f is absent"; exit 0; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one Markdown row: what, then farm-bench's medians (and spreads)
row() {
	local what=$1 out
	shift
	out=$(farm-bench -n "$RUNS" --timeout 3000 -- "$@" 2>&1)
	awk -v what="$what" '
		$1 == "A" && $2 == "wall" { w = sprintf("%.2f (%.2f-%.2f)", $5, $4, $6) }
		$1 == "A" && $2 == "cpu" { c = sprintf("%.2f", $5) }
		$1 == "A" && $2 == "peak" { p = sprintf("%.0f", $5) }
		END { printf "| %s | %s | %s | %s |\n", what, w, c, p }' <<<"$out"
}

echo "| command | wall s, median (min-max) | cpu s | peak MiB |"
echo "|---|---|---|---|"
for s in easy conservative slurm; do
	row "SDSC-BLUE (243,306 jobs, 1,152 procs), $s" \
		"$SBUCKET" replay --scheduler=$s "$BLUE"
done
row "SDSC-BLUE, easy, --predict=user2 --sjbf" \
	"$SBUCKET" replay --predict=user2 --sjbf "$BLUE"
row "SDSC-BLUE, easy, multifactor (Fair Tree)" \
	"$SBUCKET" replay --fairshare=fair_tree "$BLUE"
for s in easy conservative slurm; do
	row "SDSC-SP2 (59,715 jobs, 128 procs), $s" \
		"$SBUCKET" replay --scheduler=$s "$SP2"
done

echo
echo "| SDSC-BLUE's first N jobs | easy: wall s (peak MiB) | conservative | slurm |"
echo "|---|---|---|---|"
for n in $CUTS; do
	part=$tmp/blue-$n.swf
	# awk stops reading early: zcat's broken pipe is expected
	zcat "$BLUE" | awk -v n="$n" '/^;/ { print; next }
		n != "all" && ++k > n { exit } { print }' >"$part" || true
	jobs=$(grep -vc '^;' "$part")
	line="| $jobs |"
	for s in easy conservative slurm; do
		r=$(row x "$SBUCKET" replay --scheduler=$s "$part")
		w=$(cut -d'|' -f3 <<<"$r" | awk '{ print $1 }')
		p=$(cut -d'|' -f5 <<<"$r" | tr -d ' ')
		line="$line $w ($p) |"
	done
	echo "$line"
done

if [ "${INSTR:-0}" = 1 ] && command -v valgrind >/dev/null; then
	echo
	echo "| SDSC-SP2 under callgrind | instructions |"
	echo "|---|---|"
	for s in easy conservative slurm; do
		n=$(valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" \
			"$SBUCKET" replay --scheduler=$s "$SP2" 2>&1 >/dev/null |
			awk '/Collected/ { print $NF }')
		echo "| $s | $n |"
	done
fi
