#!/bin/bash
# chart.sh - the charts of a bench/trace/run output directory (issue #48):
# each stack's starts, live against replayed, and the jobs waiting over
# time, live and replayed.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: bench/trace/chart.sh OUT [NAME]
# Writes OUT/NAME-starts.svg (a point per job: its start in the replay
# against its start on the live cluster, in the log's hours from the
# window's start, a stack a colour, the band of +- bf_interval around
# the diagonal) and OUT/NAME-waiting.svg (jobs waiting over the log's
# hours, each stack live and replayed). NAME defaults to the log's.
# Needs gnuplot (gnuplot-nox) and report's replay.json of each stack.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
OUT=${1:?usage: chart.sh OUT [NAME]}
command -v gnuplot >/dev/null || { echo "chart.sh: no gnuplot (apt-get install gnuplot-nox)" >&2; exit 1; }
# shellcheck disable=SC1091
. "$OUT/cut/cut.env"
NAME=${2:-${LOG%%-[0-9]*}}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
stacks=()
for s in linear bucket; do
	[ -f "$OUT/$s/real.tsv" ] && [ -f "$OUT/$s/replay.json" ] && stacks+=("$s")
done
[ ${#stacks[@]} -gt 0 ] || { echo "chart.sh: no stack with real.tsv and replay.json (run report first)" >&2; exit 1; }
bf=$(sed -n 's/.*bf_interval=\([0-9]*\).*/\1/p' "$OUT/${stacks[0]}/slurm.conf" | tail -n 1)
for s in "${stacks[@]}"; do
	python3 - "$OUT/cut/window.swf" "$OUT/$s/real.tsv" "$OUT/$s/replay.json" \
		"$K" "$d/$s" <<'EOF'
import json, sys
swf, real, rep, k, out = sys.argv[1:]
k = int(k)
sub = {}
for l in open(swf):
    if not l.startswith(";") and l.strip():
        x = l.split()
        sub[int(x[0])] = int(x[1])
live = {}
for l in open(real):
    x = l.split()
    if int(x[3]) >= 0:
        live[int(x[0])] = (int(x[2]), int(x[3]))
r = {}
for j in json.load(open(rep))["jobs"]:
    n = int(j["job_id"])
    r[n] = j["start"] - j["submit"] + sub[n]
h = k / 3600.0
with open(out + ".starts", "w") as f:
    for n in sorted(live):
        if n in r:
            f.write("%g %g\n" % (live[n][1] * h, r[n] * h))
def waiting(starts, name):
    ev = []
    for n, st in starts.items():
        ev.append((sub[n], 1))
        ev.append((st, -1))
    ev.sort(key=lambda e: (e[0], e[1]))
    q = 0
    with open(out + name, "w") as f:
        for t, d in ev:
            f.write("%g %d\n" % (t * h, q))
            q += d
            f.write("%g %d\n" % (t * h, q))
waiting({n: v[1] for n, v in live.items()}, ".wlive")
waiting({n: v for n, v in r.items() if n in live}, ".wrep")
EOF
done
colours=(linear '#1f77b4' bucket '#d62728')
_col() {
	local i
	for ((i = 0; i < ${#colours[@]}; i += 2)); do
		[ "${colours[i]}" != "$1" ] || echo "${colours[i + 1]}"
	done
}
band=$(awk -v b="$bf" -v k="$K" 'BEGIN { print b * k / 3600 }')
{
	echo "set terminal svg size 640,560 dynamic font 'Helvetica,12' background '#ffffff'"
	echo "set output '$OUT/$NAME-starts.svg'"
	echo "set termoption noenhanced"
	echo "set xrange [0:*]"
	echo "set yrange [0:*]"
	echo "set title \"$NAME: each job's start, live slurmctld and sbucket replay\""
	echo "set xlabel 'start on the live cluster (log hours from the window start)'"
	echo "set ylabel 'start in the replay (log hours)'"
	echo "set key top left"
	echo "set grid"
	echo "set size ratio -1"
	plot="plot x + $band with lines lc rgb '#bbbbbb' dt 2 title '+- bf_interval', x - $band with lines lc rgb '#bbbbbb' dt 2 notitle, x with lines lc rgb '#888888' notitle"
	for s in "${stacks[@]}"; do
		plot+=", '$d/$s.starts' using 1:2 with points pt 7 ps 0.5 lc rgb '$(_col "$s")' title '$s'"
	done
	echo "$plot"
	echo "set output '$OUT/$NAME-waiting.svg'"
	echo "set terminal svg size 760,380 dynamic font 'Helvetica,12' background '#ffffff'"
	echo "set size noratio"
	echo "set termoption noenhanced"
	echo "set title '$NAME: jobs waiting, live slurmctld (solid) and sbucket replay (dashed)'"
	echo "set xlabel 'log hours from the window start'"
	echo "set ylabel 'jobs waiting'"
	echo "set key top right"
	plot="plot"
	sep=""
	for s in "${stacks[@]}"; do
		plot+="$sep '$d/$s.wlive' using 1:2 with lines lw 1.5 lc rgb '$(_col "$s")' title '$s live', '$d/$s.wrep' using 1:2 with lines lw 1.5 dt 2 lc rgb '$(_col "$s")' title '$s replay'"
		sep=","
	done
	echo "$plot"
} >"$d/plot.gp"
gnuplot "$d/plot.gp"
echo "$OUT/$NAME-starts.svg $OUT/$NAME-waiting.svg"
