#!/bin/bash
# report.sh - tables (Markdown) and plots (gnuplot, SVG) from the
# results.tsv of bench/scale/run.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: bench/scale/report.sh DIR [DIR...]
# Reads every DIR/results.tsv (later lines win for the same plugin, burst,
# node and job count), writes DIR/tables.md (the first DIR) and, when
# burst (a) ran at more than one node count, DIR/cycles-main.svg and
# DIR/cycles-backfill.svg: mean cycle against node count, per plugin.
set -eu
[ $# -ge 1 ] || { echo "usage: $0 DIR [DIR...]" >&2; exit 2; }
out=$1
all=$(mktemp)
trap 'rm -f "$all" "$all".*' EXIT
for d in "$@"; do
	[ -f "$d/results.tsv" ] && tail -n +2 "$d/results.tsv"
done | tee "$all.raw" | awk -F'\t' '{ k = $1 FS $2 FS $3 FS $4; if (!(k in row)) ord[++n] = k; row[k] = $0 }
	END { for (i = 1; i <= n; i++) print row[ord[i]] }' >"$all"
[ -s "$all" ] || { echo "report: no results in $*" >&2; exit 1; }

# Columns (one.sh's header): 1 plugin 2 burst 3 nodes 4 jobs 5 submit_s
# 6 started_s 7 drained_s 8 jobs_per_s 9 main_mean_us 10 main_max_us
# 11 main_depth 12 bf_mean_us 13 bf_max_us 14 bf_cycles 15 bf_depth
# 16 ctld_cpu_s 17 sched_agent_cpu_s 18 bckfl_cpu_s 19 rss_peak_mb
# 20 ok_jobs 21 running 22 fill_s 23 testonly_ms 24 testonly_start
# 25 squeue_start_ms 26 to_start_s 27 start 28 oracle_start 29 load
# 30 others 31 willrun_rpc_us 32 jobinfo_rpc_us 33 main_cycles 34 slurm
# 35 slurmds 36 slurmd_rss_mb 37 slurmd_private_mb (older files stop at
# 33, 22.05's front end, or at 35)
# One Slurm per report: a front end's timings and those of a cluster
# whose slurmds share the CPUs with slurmctld do not compare (every row
# checked: a later one of the same shape would hide an earlier one).
slurm=$(awk -F'\t' '{ print ($34 == "" ? "22.05" : $34) \
	($35 != "" && $35 == $3 ? ", one slurmd per node" : ", a front end (one slurmd)") }' "$all.raw" | sort -u)
[ "$(wc -l <<<"$slurm")" = 1 ] ||
	{ echo "report: results of several Slurms ($(paste -sd';' <<<"$slurm")): report each apart" >&2; exit 1; }
ms() { awk -v v="$1" 'BEGIN { if (v !~ /^[0-9.]+$/) print "-"; else if (v < 10000) printf "%.2f", v / 1000; else printf "%.0f", v / 1000 }'; }

{
echo "Slurm $slurm."
echo
echo "### Bursts (a) and (b): cycles, throughput, cost"
echo
echo "| plugin | burst | nodes | jobs | submit s | all started s | drained s | jobs/s | main mean / max ms | main cycles | main depth | main CPU ms / cycle | backfill mean / max ms | bf cycles | bf depth | ctld CPU s | sched_agent CPU s | bckfl CPU s | RSS MB | ok | load | others |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
awk -F'\t' '$2 != "c"' "$all" | while IFS=$'\t' read -r -a f; do
	cpc=$(awk -v c="${f[16]}" -v n="${f[32]:-}" 'BEGIN { if (n + 0 > 0) printf "%.2f", c * 1000 / n; else print "-" }')
	echo "| ${f[0]} | ${f[1]} | ${f[2]} | ${f[3]} | ${f[4]} | ${f[5]} | ${f[6]} | ${f[7]} | $(ms "${f[8]}") / $(ms "${f[9]}") | ${f[32]:--} | ${f[10]} | $cpc | $(ms "${f[11]}") / $(ms "${f[12]}") | ${f[13]} | ${f[14]} | ${f[15]} | ${f[16]} | ${f[17]} | ${f[18]} | ${f[19]} | ${f[28]} | ${f[29]} |"
done
echo
echo "### Ratios of mean cycles (how many times shorter under select/bucket)"
echo
echo "| burst | nodes | jobs | main: linear / bucket+linear | main: cons_tres / bucket+linear | main: cons_tres / bucket+cons_tres | backfill: linear / bucket+linear | backfill: cons_tres / bucket+linear | backfill: cons_tres / bucket+cons_tres |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
awk -F'\t' '$2 != "c" {
	k = $2 FS $3 FS $4
	if (!(k in seen)) { seen[k] = 1; ord[++n] = k }
	m[k, $1] = $9; b[k, $1] = $12
}
function r(x, y) { return (x > 0 && y > 0) ? sprintf("%.2fx", x / y) : "-" }
END {
	for (i = 1; i <= n; i++) {
		k = ord[i]; split(k, p, FS)
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", p[1], p[2], p[3],
		    r(m[k, "linear"], m[k, "bucket+linear"]),
		    r(m[k, "cons_tres"], m[k, "bucket+linear"]),
		    r(m[k, "cons_tres"], m[k, "bucket+cons_tres"]),
		    r(b[k, "linear"], b[k, "bucket+linear"]),
		    r(b[k, "cons_tres"], b[k, "bucket+linear"]),
		    r(b[k, "cons_tres"], b[k, "bucket+cons_tres"])
	}
}' "$all"
if awk -F'\t' '$2 == "c" { f = 1 } END { exit !f }' "$all"; then
	echo
	echo "### Burst (c): WILL_RUN with the cluster full"
	echo
	echo "| plugin | nodes | running jobs | fill s | sbatch --test-only ms (median of 5) | WILL_RUN RPC in slurmctld ms (mean of 5) | its start | squeue --start ms | submit to start shown s | squeue's start | right start | backfill mean / max ms | bf depth | RSS MB | load | others |"
	echo "|---|---:|---:|---:|---:|---:|---|---:|---:|---|---|---:|---:|---:|---:|---|"
	awk -F'\t' '$2 == "c"' "$all" | while IFS=$'\t' read -r -a f; do
		echo "| ${f[0]} | ${f[2]} | ${f[20]} | ${f[21]} | ${f[22]} | $(ms "${f[30]}") | ${f[23]} | ${f[24]} | ${f[25]} | ${f[26]} | ${f[27]} | $(ms "${f[11]}") / $(ms "${f[12]}") | ${f[14]} | ${f[18]} | ${f[28]} | ${f[29]} |"
	done
	echo
	echo "| nodes | WILL_RUN RPC: linear / bucket+linear | cons_tres / bucket+cons_tres | test-only wall: linear / bucket+linear | cons_tres / bucket+cons_tres | backfill cycle: linear / bucket+linear | cons_tres / bucket+cons_tres |"
	echo "|---:|---:|---:|---:|---:|---:|---:|"
	awk -F'\t' '$2 == "c" { if (!($3 in s)) { s[$3] = 1; o[++n] = $3 } t[$3, $1] = $23; b[$3, $1] = $12; w[$3, $1] = $31 }
	function r(x, y) { return (x > 0 && y > 0) ? sprintf("%.1fx", x / y) : "-" }
	END { for (i = 1; i <= n; i++) { k = o[i]
		printf "| %s | %s | %s | %s | %s | %s | %s |\n", k,
		    r(w[k, "linear"], w[k, "bucket+linear"]),
		    r(w[k, "cons_tres"], w[k, "bucket+cons_tres"]),
		    r(t[k, "linear"], t[k, "bucket+linear"]),
		    r(t[k, "cons_tres"], t[k, "bucket+cons_tres"]),
		    r(b[k, "linear"], b[k, "bucket+linear"]),
		    r(b[k, "cons_tres"], b[k, "bucket+cons_tres"]) } }' "$all"
fi
if awk -F'\t' '$35 > 1 && $37 ~ /^[0-9.]+$/ { f = 1 } END { exit !f }' "$all"; then
	echo
	echo "### The slurmds (one per node): memory at the end of each run"
	echo
	echo "Private memory is what one more slurmd costs (the binary and"
	echo "libraries are shared); it bounds the nodes a machine can hold."
	echo
	echo "| plugin | burst | nodes | slurmds | RSS MB per slurmd (mean) | private MB per slurmd (mean) | private MB, all slurmds |"
	echo "|---|---|---:|---:|---:|---:|---:|"
	awk -F'\t' '$35 > 1 && $37 ~ /^[0-9.]+$/ {
		printf "| %s | %s | %s | %s | %s | %s | %.0f |\n", $1, $2, $3, $35, $36, $37, $35 * $37 }' "$all"
fi
} >"$out/tables.md"

# Plots: burst (a), mean cycle (ms) against node count, per plugin.
sizes=$(awk -F'\t' '$2 == "a" { print $3 }' "$all" | sort -un | wc -l)
if [ "$sizes" -gt 1 ] && command -v gnuplot >/dev/null; then
	for p in linear cons_tres bucket+linear bucket+cons_tres; do
		awk -F'\t' -v p="$p" '$1 == p && $2 == "a" { print $3, $9 / 1000, $12 / 1000 }' \
			"$all" | sort -n >"$all.$p"
	done
	# x tics at the node counts run; the job count in the title when
	# every run had the same
	xtics=$(awk -F'\t' '$2 == "a" { print $3 }' "$all" | sort -un | paste -sd,)
	jobs=$(awk -F'\t' '$2 == "a" { print $4 }' "$all" | sort -u)
	[ "$(wc -l <<<"$jobs")" = 1 ] && jobs=", $jobs jobs" || jobs=""
	xrange=$(tr ',' '\n' <<<"$xtics" | sort -n | sed -n '1p;$p' | paste -sd' ' |
		awk '{ printf "%g:%g", $1 * 0.8, $2 * 1.25 }')
	for what in main:2 backfill:3; do
		name=${what%:*} col=${what#*:}
		gnuplot <<EOF
set terminal svg size 720,440 dynamic font "sans,12"
set termoption noenhanced
set output "$out/cycles-$name.svg"
set title "burst (a)$jobs: mean $name scheduling cycle against node count"
set xlabel "nodes"
set ylabel "mean $name cycle (ms)"
set logscale xy
set xtics ($xtics)
set xrange [$xrange]
set grid
set key top left
plot "$all.linear" using 1:$col with linespoints title "select/linear", \
     "$all.cons_tres" using 1:$col with linespoints title "select/cons_tres", \
     "$all.bucket+linear" using 1:$col with linespoints title "select/bucket over linear", \
     "$all.bucket+cons_tres" using 1:$col with linespoints title "select/bucket over cons_tres"
EOF
	done
fi
cat "$out/tables.md"
