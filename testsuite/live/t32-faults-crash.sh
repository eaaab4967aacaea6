#!/bin/bash
# t32-faults-crash - slurmctld SIGKILLed in the middle of a burst, under
# select/bucket + priority/bucket and, with the same seed at the same
# time on other ports, under select/linear + priority/multifactor (the
# base). crash-burst.run is one such run; this script runs both and
# compares.
#
# Must hold in each run (crash-burst.run checks): no node under two
# running jobs, sampled every second; slurmctld answers within seconds of
# each start; every job submitted is running, pending or in sacct; ours
# log no error, and select/bucket's audit finds after every start that
# its buckets equal a fresh build from slurmctld's state.
#
# Slurm itself does not promise that a job which ended while slurmctld
# was down is recorded once and as COMPLETED (it is recovered from the
# last saved state as running, and runs to its time limit or again), nor
# that usage charged since the last save survives, nor that a job ID
# handed out after the last save is not handed out again (the slurmd that
# ran the first one drains its node: "Duplicate jobid"). Those figures
# are printed side by side, not judged: with one seed they depend on
# which jobs each kill falls on, and one drained node changes the rest of
# a run. bench/crash.sh sums them over several seeds, where ours must not
# be worse than the base's (bench/RESULTS.md).
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../cluster/harness.sh"

SEED=${SB_CRASH_SEED:-1}
KILLS=${SB_CRASH_KILLS:-5}
export SB_CRASH_KILLS=$KILLS
[ "$(id -u)" = 0 ] || _sb_die "live tests need root"
for u in sbcr1 sbcr2; do
	id "$u" >/dev/null 2>&1 || useradd -M -N -s /bin/sh "$u"
done
run=$(mktemp -d "${SB_SCRATCH:-/tmp}/sb-t32.XXXXXX") ||
	_sb_die "cannot create a scratch directory"
trap 'rm -rf "$run"' EXIT
here=$(dirname "$0")
port=${SB_PORT_BASE:-17100}

SB_PORT_BASE=$port bash "$here/crash-burst.run" bucket "$SEED" \
	"$run/bucket.out" >"$run/bucket.log" 2>&1 &
p1=$!
SB_PORT_BASE=$((port + 200)) bash "$here/crash-burst.run" base "$SEED" \
	"$run/base.out" >"$run/base.log" 2>&1 &
p2=$!
wait "$p1"; rc1=$?
wait "$p2"; rc2=$?

for m in bucket base; do
	# each run's checks, named by the run
	grep -E '^(not )?ok ' "$run/$m.log" |
		sed -E "s/^((not )?ok) [0-9]+ - /\1 - $m: /"
	grep '^#' "$run/$m.log" | tail -n 60
done
check "the select/bucket run finished (exit $rc1)" test "$rc1" = 0
check "the base run finished (exit $rc2)" test "$rc2" = 0
[ -s "$run/bucket.out" ] && [ -s "$run/base.out" ] ||
	_sb_die "a run left no figures"

declare -A ours=() base=()
while IFS='=' read -r k v; do ours[$k]=$v; done <"$run/bucket.out"
while IFS='=' read -r k v; do base[$k]=$v; done <"$run/base.out"
echo "# seed $SEED, $KILLS kills        select/bucket  base"
table() {
	for k in jobs started running pending lost not_completed \
		 recorded_twice not_in_jobcomp drained_nodes slowest_answer_ms \
		 usage billed; do
		printf '# %-24s %12s %6s\n' "$k" "${ours[$k]}" "${base[$k]}"
	done
}
table
[ -n "${SB_LOG_DIR:-}" ] && table >"$SB_LOG_DIR/t32-seed$SEED.table"
# What each run lost for good: a job neither running, pending nor in
# sacct (each run checks that none is).
check "lost jobs: select/bucket ${ours[lost]}, base ${base[lost]}" \
	test "${ours[lost]}" -le "${base[lost]}"
