#!/bin/bash
# replay_fidelity.sh - Tsafrir, Etsion and Feitelson's EASY, EASY+ and
# EASY++ (tables 2 and 3 of their 2005 report, the pre-print of IEEE TPDS
# 18(6), 2007) replayed by 'sbucket replay' on the four logs of
# ../shared/traces/, beside the published figures (issue #47, item 2).
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: bash bench/replay_fidelity.sh [--variants]
#   SBUCKET (default build/22.05/tools/sbucket), TRACES (default
#   ../shared/traces relative to the checkout).
# Prints a Markdown table: per log and scheduler, our mean wait (minutes)
# and mean bounded slowdown (bounded at 10 s, the first 1 % of jobs to end
# left out) beside the paper's, and the gaps in percent. CTC is replayed
# at 512 processors, as the paper has it (its log says 338, its batch
# partition). --variants adds the rows that explain the gaps: jobs never
# killed at their limit, the step-by-step correction of predictions, and
# user estimates with shortest job backfilled first (the paper's
# EASY-SJBF). The logs are read in place (zlib reads them compressed);
# a log that is absent is skipped with one line.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
SBUCKET=${SBUCKET:-$top/build/22.05/tools/sbucket}
TRACES=${TRACES:-$top/../shared/traces}
variants=0
[ "${1:-}" = --variants ] && variants=1

[ -x "$SBUCKET" ] || { echo "replay_fidelity: no $SBUCKET (build first)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "replay_fidelity: needs python3 (reads --json)" >&2; exit 2; }

# log, processors, then the paper's wait / slowdown for EASY, EASY+,
# EASY++, EASY-SJBF
logs=(
	"SDSC-SP2-1998-4.2-cln 128 363.0 99.0 340.7 87.5 326 72 362 89"
	"CTC-SP2-1996-3.1-cln 512 21.3 4.6 18.3 3.8 14 3 19 4"
	"KTH-SP2-1996-2.1-cln 100 114.2 89.9 108.3 79.2 94 57 102 73"
	"SDSC-BLUE-2000-4.2-cln 1152 77.1 21.7 69.0 17.5 53 11 68 16"
)

# our wait and slowdown for the options given
run() {
	"$SBUCKET" replay --drop-first=1 --json "$@" | python3 -c '
import json, sys
s = json.load(sys.stdin)["summary"]
print("%.1f %.1f %.1f" % (s["mean_wait_s"] / 60, s["mean_bounded_slowdown"], 100 * s["accuracy"]))'
}

gap() {
	python3 -c "print('%+.1f' % (100.0 * ($1 - $2) / $2))"
}

echo "| log (processors) | scheduler | ours: wait (min) / slowdown | paper | gap wait / slowdown | accuracy |"
echo "|---|---|---|---|---|---|"
for l in "${logs[@]}"; do
	read -r name procs w0 b0 w1 b1 w2 b2 w3 b3 <<<"$l"
	f=$TRACES/$name.swf.gz
	if [ ! -f "$f" ]; then
		echo "| $name | skipped: $f is absent | | | | |"
		continue
	fi
	rows=("EASY|$w0|$b0|"
	      "EASY+|$w1|$b1|--predict=user2"
	      "EASY++|$w2|$b2|--predict=user2 --sjbf")
	if [ $variants = 1 ]; then
		rows+=("EASY, never killed|$w0|$b0|--no-kill"
		       "EASY+, corrected in steps|$w1|$b1|--predict=user2 --correct=steps"
		       "EASY++, corrected in steps|$w2|$b2|--predict=user2 --sjbf --correct=steps"
		       "EASY-SJBF (estimates)|$w3|$b3|--sjbf")
	fi
	for r in "${rows[@]}"; do
		IFS='|' read -r what pw pb opts <<<"$r"
		# shellcheck disable=SC2086
		read -r w b acc < <(run "$f" --procs="$procs" $opts)
		echo "| $name ($procs) | $what | $w / $b | $pw / $pb | $(gap "$w" "$pw") / $(gap "$b" "$pb") | $acc % |"
	done
done
