#!/bin/bash
# live_select.sh - the same bursts of jobs through a live cluster under
# select/linear, select/bucket over linear, select/cons_tres and
# select/bucket over cons_tres, side by side: sdiag's main and backfill
# scheduler cycle times and jobs started per second.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage (root, from the source tree, like a live test; SB_SLURM=SERIES, one
# of 'build-aux/slurm-series chroot', runs it in the Debian 13 chroot, on
# build/SERIES/'s plugins):
#   SB_PLUGIN_DIR=$PWD/build/22.05/.plugins bash bench/live_select.sh [NODES [JOBS [MAXN]]]
# Defaults: 500 nodes (one slurmd each, ~6.5 MB apiece), 500 jobs, a fixed
# seed. Nodes come in two shapes and colours so there are buckets to
# choose between; half the jobs ask for a colour. Each plugin and burst
# gets a fresh cluster. Bursts (BURSTS, default "exclusive mixed"):
#   exclusive  --exclusive -N 1..MAXN (MAXN=32), sleep 2-9 s, -t 5: the jobs
#              select/bucket places itself (bucket path)
#   mixed      half of those, half shared -n 1..8 jobs (--mem-per-cpu=100
#              under cons_tres), which select/bucket hands to the base
# Plugins (PLUGINS, default "linear bucket+linear cons_tres
# bucket+cons_tres").
#
# What is measured, per plugin and burst:
#   submit    seconds to submit the burst
#   started   seconds from the first submission until no job is pending
#   drained   seconds until the queue is empty
#   jobs/s    jobs started per second (JOBS / started)
#   main      sdiag "Main schedule statistics": mean and max cycle (us)
#   backfill  sdiag "Backfilling stats": mean and max cycle (us)
set -u
NODES=${1:-500}
JOBS=${2:-500}
MAXN=${3:-32}
BURSTS=${BURSTS:-exclusive mixed}
PLUGINS=${PLUGINS:-linear bucket+linear cons_tres bucket+cons_tres}
here=$(cd "$(dirname "$0")" && pwd)

if [ "${SB_BENCH_ONE:-}" = "" ]; then
	out=$(mktemp)
	for burst in $BURSTS; do
		for sel in $PLUGINS; do
			echo "# $sel, $burst burst: $NODES nodes, $JOBS jobs" >&2
			SB_BENCH_ONE="$sel $burst" bash "$0" "$NODES" "$JOBS" \
				"$MAXN" | tee -a "$out" | sed 's/^/#   /' >&2
		done
	done
	echo
	printf '%-17s %-9s %6s %6s %7s %8s %8s %7s %19s %19s\n' plugin burst \
		nodes jobs submit started drained jobs/s "main mean/max us" \
		"backfill mean/max us"
	grep '^RESULT ' "$out" | while read -r _ sel burst n j sub st dr jps mm mx bm bx; do
		printf '%-17s %-9s %6s %6s %6ss %7ss %7ss %7s %9s/%-9s %9s/%-9s\n' \
			"$sel" "$burst" "$n" "$j" "$sub" "$st" "$dr" "$jps" \
			"$mm" "$mx" "$bm" "$bx"
	done
	rm -f "$out"
	exit 0
fi

. "$here/../testsuite/cluster/harness.sh"
read -r SEL BURST <<<"$SB_BENCH_ONE"
case $SEL in
bucket+*) SB_BASE=${SEL#bucket+} ;;
esac
SB_SLURMD_DEBUG=error
sb_cluster_init "bench${SEL//[^a-z]/}$BURST"
half=$((NODES / 2))
sb_nodes "a[0001-$(printf %04d "$half")]" "CPUs=2 RealMemory=1000 Features=a Weight=1"
sb_nodes "b[0001-$(printf %04d $((NODES - half)))]" "CPUs=4 RealMemory=2000 Features=b Weight=2"
sb_select "${SEL%%+*}"
sb_partition bench "Nodes=ALL Default=YES MaxTime=INFINITE State=UP"
sb_conf "MaxJobCount=100000"
sb_cluster_start
cd "$SB_DIR/jobs"

sdiag -r >/dev/null
RANDOM=42
t0=$SECONDS
for ((i = 0; i < JOBS; i++)); do
	n=$((RANDOM % MAXN + 1))
	c=""
	case $((RANDOM % 4)) in
	0) c="-C a"; [ "$n" -gt "$half" ] && n=$half ;;
	1) c="-C b"; [ "$n" -gt $((NODES - half)) ] && n=$((NODES - half)) ;;
	esac
	what="-N $n --exclusive"
	if [ "$BURST" = mixed ] && [ $((RANDOM % 2)) = 0 ]; then
		what="-n $((RANDOM % 8 + 1))"
		[ "$SEL" != linear ] && [ "$SEL" != bucket+linear ] &&
			what+=" --mem-per-cpu=100"
	fi
	# shellcheck disable=SC2086
	sbatch -Q $what $c -t 5 -o /dev/null \
		--wrap "sleep $((RANDOM % 8 + 2))" >/dev/null ||
		echo "# submit failed: $what $c" >&2
done
t_sub=$((SECONDS - t0))
sb_wait_for 1800 sb_queue_empty -t PENDING
t_start=$((SECONDS - t0))
sb_wait_for 600 sb_queue_empty
t_drain=$((SECONDS - t0))
sd=$(sdiag)
_stat() {	# section, field
	awk -v sec="$1" -v f="$2" '
		index($0, sec) { in_sec = 1; next }
		in_sec && /^[A-Z]/ && !index($0, ":") { in_sec = 0 }
		in_sec && index($0, f ":") { sub(/.*: */, ""); print; exit }' <<<"$sd"
}
mm=$(_stat "Main schedule statistics" "Mean cycle")
mx=$(_stat "Main schedule statistics" "Max cycle")
bm=$(_stat "Backfilling stats" "Mean cycle")
bx=$(_stat "Backfilling stats" "Max cycle")
jps=$(awk -v j="$JOBS" -v s="$t_start" 'BEGIN { printf "%.1f", s ? j / s : 0 }')
echo "RESULT $SEL $BURST $NODES $JOBS $t_sub $t_start $t_drain $jps ${mm:-?} ${mx:-?} ${bm:-?} ${bx:-?}"
sb_cluster_stop
