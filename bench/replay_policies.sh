#!/bin/bash
# replay_policies.sh - what the four shared logs say about our choices:
# each replayed by 'sbucket replay' under first come first served,
# multifactor with Fair Tree, and multifactor with priority/bucket's
# LEVEL_BASED (the same weights), with the users' estimates and with
# predictions (issue #47, item 4).
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: bash bench/replay_policies.sh [CHART_DIR]
#   SBUCKET (default build/22.05/tools/sbucket), TRACES (default
#   ../shared/traces relative to the checkout).
# Prints a Markdown table: per log, priority and beliefs, the mean and
# p90 wait (minutes), the mean bounded slowdown, and the users' spread:
# Jain's index of the users' mean slowdowns and the worst user's mean
# slowdown (users with at least 10 jobs counted). EASY, killed at the
# limit, the first 1 % of jobs to end left out, CTC at 512 processors.
# Multifactor: PriorityWeightFairshare=10000, PriorityWeightAge=1000,
# PriorityMaxAge and PriorityDecayHalfLife 7 days, PriorityCalcPeriod
# 5 minutes (the replay's defaults), accounts from the logs' groups,
# shares 1. With CHART_DIR, one chart per log (replay-LOG.svg):
# first come first served against LEVEL_BASED, with user estimates.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
SBUCKET=${SBUCKET:-$top/build/22.05/tools/sbucket}
TRACES=${TRACES:-$top/../shared/traces}
charts=${1:-}

[ -x "$SBUCKET" ] || { echo "replay_policies: no $SBUCKET (build first)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "replay_policies: needs python3 (reads --json)" >&2; exit 2; }

logs=("SDSC-SP2-1998-4.2-cln 128" "CTC-SP2-1996-3.1-cln 512"
      "KTH-SP2-1996-2.1-cln 100" "SDSC-BLUE-2000-4.2-cln 1152")

row() {
	"$SBUCKET" replay --drop-first=1 --json "$@" | python3 -c '
import json, sys
s = json.load(sys.stdin)["summary"]
users = [u for u in s["per_user"] if u["jobs"] >= 10]
worst = max(u["mean_bounded_slowdown"] for u in users)
print("%.1f | %.1f | %.1f | %.3f | %.1f" % (s["mean_wait_s"] / 60,
      s["p90_wait_s"] / 60, s["mean_bounded_slowdown"], s["jain_index"],
      worst))'
}

echo "| log | priority | run times | mean wait (min) | p90 wait | mean slowdown | Jain's index | worst user's slowdown |"
echo "|---|---|---|---|---|---|---|---|"
for l in "${logs[@]}"; do
	read -r name procs <<<"$l"
	f=$TRACES/$name.swf.gz
	if [ ! -f "$f" ]; then
		echo "| $name | skipped: $f is absent | | | | | | |"
		continue
	fi
	for prio in "first come first served|" \
		    "Fair Tree|--fairshare=fair_tree" \
		    "LEVEL_BASED|--fairshare=level_based"; do
		IFS='|' read -r pname popt <<<"$prio"
		for b in "estimates|" "predicted|--predict=user2"; do
			IFS='|' read -r bname bopt <<<"$b"
			# shellcheck disable=SC2086
			echo "| ${name%%-[0-9]*} ($procs) | $pname | $bname | $(row "$f" --procs="$procs" $popt $bopt) |"
		done
	done
	if [ -n "$charts" ]; then
		"$SBUCKET" replay --procs="$procs" --chart="$charts/replay-${name%%-[0-9]*}.svg" \
			"$f" --compare --fairshare=level_based >/dev/null
	fi
done
