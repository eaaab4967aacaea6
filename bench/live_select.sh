#!/bin/bash
# live_select.sh - the same burst of whole-node jobs through a live cluster
# with select/linear and with select/bucket, side by side: sdiag's main
# and backfill scheduler cycle times and jobs started per second.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage (root, from the build tree, like a live test):
#   SB_PLUGIN_DIR=$PWD/.plugins bash bench/live_select.sh [NODES [JOBS [MAXN]]]
# Defaults: 500 nodes (one slurmd each, ~6.5 MB apiece), 500 jobs of 1 to
# MAXN=32 nodes (--exclusive, sleep 2-9 s, -t 5), a fixed seed. Nodes come
# in two shapes and colours so there are buckets to choose between; half
# the jobs ask for a colour. Each plugin gets a fresh cluster.
#
# What is measured, per plugin:
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
here=$(cd "$(dirname "$0")" && pwd)

if [ "${SB_BENCH_ONE:-}" = "" ]; then
	out=$(mktemp)
	for sel in select/linear select/bucket; do
		echo "# $sel: $NODES nodes, $JOBS jobs (1-$MAXN nodes each)" >&2
		SB_BENCH_ONE=$sel bash "$0" "$NODES" "$JOBS" "$MAXN" |
			tee -a "$out" | sed 's/^/#   /' >&2
	done
	echo
	printf '%-14s %6s %6s %7s %8s %8s %7s %19s %19s\n' plugin nodes jobs \
		submit started drained jobs/s "main mean/max us" \
		"backfill mean/max us"
	grep '^RESULT ' "$out" | while read -r _ sel n j sub st dr jps mm mx bm bx; do
		printf '%-14s %6s %6s %6ss %7ss %7ss %7s %9s/%-9s %9s/%-9s\n' \
			"$sel" "$n" "$j" "$sub" "$st" "$dr" "$jps" "$mm" "$mx" \
			"$bm" "$bx"
	done
	rm -f "$out"
	exit 0
fi

. "$here/../testsuite/cluster/harness.sh"
SEL=$SB_BENCH_ONE
SB_SLURMD_DEBUG=error
sb_cluster_init "bench${SEL#select/}"
half=$((NODES / 2))
sb_nodes "a[0001-$(printf %04d "$half")]" "CPUs=2 RealMemory=1000 Features=a Weight=1"
sb_nodes "b[0001-$(printf %04d $((NODES - half)))]" "CPUs=4 RealMemory=2000 Features=b Weight=2"
sb_conf "SelectType=$SEL"
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
	# shellcheck disable=SC2086
	sbatch -Q -N "$n" $c --exclusive -t 5 -o /dev/null \
		--wrap "sleep $((RANDOM % 8 + 2))" >/dev/null ||
		echo "# submit failed: -N $n $c" >&2
done
t_sub=$((SECONDS - t0))
_none_pending() { [ -z "$(squeue -h -t PENDING -o %i)" ]; }
wait_for 1800 _none_pending
t_start=$((SECONDS - t0))
wait_for 600 sh -c '[ -z "$(squeue -h -o %i)" ]'
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
echo "RESULT $SEL $NODES $JOBS $t_sub $t_start $t_drain $jps ${mm:-?} ${mx:-?} ${bm:-?} ${bx:-?}"
sb_cluster_stop
