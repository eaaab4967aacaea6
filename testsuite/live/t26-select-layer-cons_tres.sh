#!/bin/bash
# t26-select-layer-cons_tres - select/bucket over select/cons_tres on a
# cluster with shared nodes: CPU nodes, nodes with two fake GPUs (gres.conf
# File= on two character devices of the test's own, with the numbers of
# /dev/null and /dev/zero: Slurm drops a GPU without a device file) and an
# OverSubscribe=FORCE:2 partition.
# The same jobs run under select/cons_tres, then (daemons restarted)
# under select/bucket with OTHER_CONS_TRES:
#   - shared jobs alone (-n with --mem, --mem-per-cpu, --gres, the
#     oversubscribed partition), all running at once: every job gets the
#     same nodes, cores, memory and GRES in both (scontrol show job -d),
#     and every node shows the same CPUAlloc, AllocMem and GresUsed, which
#     add up to what the jobs hold;
#   - a mix of those with --exclusive multi-node jobs with features, more
#     than fit at once, runs to completion in both; while it runs no core
#     is used twice outside the oversubscribed partition and no exclusive
#     job shares a node with any other job; the exclusive jobs are placed
#     by select/bucket's bucket path.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../cluster/harness.sh"
. "$(dirname "$0")/layer.inc"

SB_CTLD_DEBUG=${SB_CTLD_DEBUG:-verbose}
SB_BASE=cons_tres
sb_cluster_init t26
sb_nodes "c[1-4]" "CPUs=4 Sockets=1 CoresPerSocket=4 ThreadsPerCore=1 RealMemory=4000 Features=cpu Weight=1"
sb_nodes "g[1-2]" "CPUs=4 Sockets=1 CoresPerSocket=4 ThreadsPerCore=1 RealMemory=4000 Features=gpu Gres=gpu:2 Weight=2"
sb_nodes "o[1-2]" "CPUs=2 Sockets=1 CoresPerSocket=2 ThreadsPerCore=1 RealMemory=2000 Features=over Weight=1"
sb_partition main "Nodes=c[1-4],g[1-2] Default=YES MaxTime=INFINITE State=UP"
sb_partition over "Nodes=o[1-2] OverSubscribe=FORCE:2 MaxTime=INFINITE State=UP"
sb_select cons_tres
sb_conf "GresTypes=gpu"
sb_conf "DebugFlags=SelectType"
mkdir -p "$SB_DIR/dev"
mknod "$SB_DIR/dev/gpu0" c 1 3 && mknod "$SB_DIR/dev/gpu1" c 1 5 ||
	sb_die "cannot make the fake GPU devices (mknod)"
echo "NodeName=g[1-2] Name=gpu File=$SB_DIR/dev/gpu[0-1]" >"$SB_DIR/etc/gres.conf"
sb_cluster_start
LOG=$SB_DIR/log/slurmctld.log
cd "$SB_DIR/jobs"

_sub() { sbatch --parsable -o /dev/null "$@"; }
# per node: CPUAlloc AllocMem GresUsed (scontrol show node)
_node_view() {
	scontrol -d show node -o | tr ' ' '\n' |
		awk -F= '$1 == "NodeName" { n = $2 }
			 $1 == "CPUAlloc" { c[n] = $2 }
			 $1 == "AllocMem" { m[n] = $2 }
			 $1 == "GresUsed" { g[n] = $2 }
			 END { for (n in c) print n, "CPUAlloc=" c[n], "AllocMem=" m[n], "GresUsed=" g[n] }' |
		sort
}
# Per node from the running jobs' details: the cores they hold (a core
# two oversubscribing jobs share counts once) and the memory (summed).
_job_view() {
	_holdings | awk '$1 == "mem" { m[$2] += $3 }
		$1 == "core" && !seen[$2 " " $3]++ { c[$2]++ }
		END { for (n in c) print n, "CPUAlloc=" c[n], "AllocMem=" m[n] }' | sort
}

# Shared jobs, all running at once: their resources, then the nodes'.
SHARED=(
	"-n2 --mem=500" "-n2 --mem=500" "-n2 --mem=500"
	"-n1 --mem=1000" "-n3 --mem-per-cpu=200"
	"-n1 --mem=300 --gres=gpu:1" "-n1 --mem=300 --gres=gpu:1"
	"-p over -n2 --mem=200" "-p over -n2 --mem=200" "-p over -n2 --mem=200"
)
shared_phase() {
	local a j ids=()
	for a in "${SHARED[@]}"; do
		# shellcheck disable=SC2086
		ids+=($(_sub $a --wrap 'sleep 600'))
	done
	sb_wait_for 60 _all_running "${ids[@]}" || echo "not all running"
	for j in "${ids[@]}"; do
		echo "job: $(_detail "$j")"
	done
	_node_view | sed 's/^/node: /'
	_job_view >"$SB_DIR/jobview.$1"
	scancel "${ids[@]}"
	sb_wait_for 60 sb_queue_empty
}

MIX=(
	"--exclusive -N2 -C cpu -t 5|sleep 3"
	"-n2 --mem=500|sleep 2"
	"--exclusive -N1 -C gpu --gres=gpu:2|sleep 2"
	"-n3 --mem-per-cpu=300|sleep 3"
	"-p over -n2|sleep 2"
	"--exclusive -N3 -C cpu|sleep 2"
	"-n1 --gres=gpu:1 --mem=100|sleep 3"
	"-p over -n1|sleep 1"
	"--exclusive -N2 -C gpu|sleep 1"
	"-n4 --mem=1000|sleep 2"
	"--exclusive -N4 -C cpu|srun -N4 -n4 true"
	"-n2 --gres=gpu:1|sleep 1"
	"-p over -n2 -N1|sleep 2"
	"--exclusive -N1 -C cpu --mem=3000|sleep 1"
	"-n6 --mem-per-cpu=100|sleep 2"
	"--exclusive -N6|sleep 1"
)
mix_phase() {
	local m ids=() seen=""
	for m in "${MIX[@]}"; do
		# shellcheck disable=SC2086
		ids+=($(_sub ${m%%|*} --wrap "${m#*|}"))
	done
	echo "accepted: ${#ids[@]} of ${#MIX[@]}"
	_drained() {
		seen+=$(_overlaps main)
		sb_queue_empty
	}
	sb_wait_for 300 _drained || echo "did not drain"
	echo "overlaps: ${seen:-none}"
	echo "states: $(for j in "${ids[@]}"; do sb_job_state "$j"; done | sort | uniq -c | sed 's/^ *//' | paste -sd' ')"
}

shared_phase cons_tres >"$SB_DIR/cons_tres.shared"
mix_phase >"$SB_DIR/cons_tres.mix"
sed 's/^/# cons_tres: /' "$SB_DIR/cons_tres.shared" "$SB_DIR/cons_tres.mix"
sb_check_eq "cons_tres: the nodes' CPUAlloc and AllocMem add up to the jobs'" \
	"$(cat "$SB_DIR/jobview.cons_tres")" sh -c \
	"sed -n 's/^node: \([^ ]*\) \(CPUAlloc=[0-9]*\) \(AllocMem=[0-9]*\).*/\1 \2 \3/p' '$SB_DIR/cons_tres.shared' | grep -v 'CPUAlloc=0 '"
sb_check_eq "cons_tres: the mix ran to completion" "states: ${#MIX[@]} COMPLETED" \
	grep '^states:' "$SB_DIR/cons_tres.mix"

sb_check "switch to select/bucket over cons_tres, every daemon restarted" \
	sb_switch_select bucket
sb_check "slurmctld runs select/bucket over select/cons_tres" sb_bucket_over cons_tres
shared_phase bucket >"$SB_DIR/bucket.shared"
mix_phase >"$SB_DIR/bucket.mix"
sed 's/^/# bucket: /' "$SB_DIR/bucket.shared" "$SB_DIR/bucket.mix"

i=0
while IFS= read -r line; do
	i=$((i + 1))
	sb_check_eq "shared job $i (${SHARED[$((i - 1))]}): same nodes, cores, memory, GRES" \
		"$line" sed -n "${i}p" "$SB_DIR/bucket.shared"
done < <(grep '^job:' "$SB_DIR/cons_tres.shared")
sb_check_eq "every node: the same CPUAlloc, AllocMem and GresUsed" \
	"$(grep '^node:' "$SB_DIR/cons_tres.shared")" grep '^node:' "$SB_DIR/bucket.shared"
sb_check "... and g1 shows the two GPUs its two one-GPU jobs hold" grep -q \
	'^node: g1 .*GresUsed=gpu:2' "$SB_DIR/bucket.shared"
sb_check_eq "bucket: the mix ran to completion" "states: ${#MIX[@]} COMPLETED" \
	grep '^states:' "$SB_DIR/bucket.mix"
sb_check_eq "no core used twice, no exclusive job sharing a node" \
	"overlaps: none" grep '^overlaps:' "$SB_DIR/bucket.mix"
sb_check_eq "(the same held under cons_tres)" "overlaps: none" \
	grep '^overlaps:' "$SB_DIR/cons_tres.mix"
sb_check "the exclusive jobs were placed by the bucket path" grep -q \
	"RUN_NOW: run (bucket path, policy FIRSTAVAILABLE)" "$LOG"
sb_check "the shared ones by cons_tres" grep -q \
	"RUN_NOW: select/cons_tres decides (shared)" "$LOG"

sb_cluster_stop
sb_check "every daemon the harness started is gone ($(sb_pids))" sb_all_gone
