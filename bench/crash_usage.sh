#!/bin/bash
# crash_usage.sh - one job, two SIGKILLs of slurmctld while it runs, under
# priority/bucket and, at the same time on other ports, under
# priority/multifactor: the fair-share usage each charges, read with
# sshare at the same moments. With the same history both must charge the
# same (decay off, every CPU second bills 1000); t32's bursts cannot show
# it, since their histories differ from run to run.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: bash bench/crash_usage.sh     (about 2 minutes)
#   Runs this machine's Slurm (22.05) from build/22.05; SB_PORT_BASE
#   (default 17700) and +200 for the two clusters.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build/22.05
port=${SB_PORT_BASE:-17700}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

if [ "${1:-}" != --run ]; then
	export SB_PLUGIN_DIR=$build/.plugins SB_TOP_BUILDDIR=$build
	id sbcr1 >/dev/null 2>&1 || useradd -M -N -s /bin/sh sbcr1
	SB_PORT_BASE=$port bash "$0" --run bucket >"$out/bucket" 2>&1 &
	SB_PORT_BASE=$((port + 200)) bash "$0" --run multifactor >"$out/multifactor" 2>&1
	wait
	echo "# seconds after submit, RawUsage and job state under priority/bucket | priority/multifactor"
	paste <(grep '^at ' "$out/bucket") <(grep '^at ' "$out/multifactor") |
		awk '{ printf "%-8s %-10s %-10s %-10s | %-10s %s\n", $1, $2, $3, $4, $7, $8 }'
	exit 0
fi

# ---- one cluster: --run bucket|multifactor ---------------------------------
MODE=$2
. "$top/testsuite/cluster/harness.sh"
SB_CTLD_SETTLE=0
sb_cluster_init "usage$MODE"
sb_nodes "c[01-04]" "CPUs=2 RealMemory=1000"
sb_partition debug "Nodes=ALL Default=YES MaxTime=INFINITE State=UP TRESBillingWeights=CPU=1000"
sb_accounting
sb_select linear
sb_conf "PriorityType=priority/$MODE"
sb_conf "AccountingStorageEnforce=associations,limits"
sb_conf "PriorityDecayHalfLife=0"
sb_conf "PriorityUsageResetPeriod=NONE"
sb_cluster_start
sacctmgr -i add account cra >/dev/null
sacctmgr -i add user sbcr1 Account=cra >/dev/null
_known() { runuser -u sbcr1 -- sbatch --test-only -A cra --wrap true 2>&1 | grep -q 'to start'; }
sb_wait_for 30 _known || sb_die "slurmctld does not know sbcr1"
sb_ctld_stop			# a controller that has saved its state
sb_ctld_start 30 || sb_die "slurmctld did not start again"
cd "$SB_DIR/jobs"
j=$(runuser -u sbcr1 -- sbatch --parsable -A cra -N2 --exclusive -t 3 \
	-o /dev/null --wrap "sleep 100")
t0=$SECONDS
at() {
	echo "at $((SECONDS - t0))s $(sshare -h -P -a -o User,RawUsage |
		awk -F'|' '$1 == "sbcr1" { print $2 }') $(squeue -h -j "$j" -o %T)"
}
_kill() {
	sb_ctld_kill
	sb_ctld_start 20
}
sleep 10; at
_kill; at
sleep 8; at
_kill; at
sleep 40; at
sleep 30; at
sleep 25; at
