#!/bin/bash
# t32-faults-crash - slurmctld SIGKILLed in the middle of a burst, under
# select/bucket + priority/bucket and, with the same seed at the same
# time on other ports, under select/linear + priority/multifactor (the
# base). crash-burst.run is one such run; faults.inc runs both and
# compares.
#
# Must hold in each run (crash-burst.run checks): no node under two
# running jobs, sampled every second; slurmctld answers within seconds of
# each start; every job submitted is running, pending, or ended in sacct
# or jobcomp; ours log no error, and select/bucket's audit finds after
# every start that its buckets equal a fresh build from slurmctld's
# state.
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
# sb-live: serial (it judges how soon a controller answers after each kill,
#   ours against the base: load from other tests would move it)
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../cluster/harness.sh"

. "$(dirname "$0")/faults.inc"

export SB_CRASH_FAULT=restart
faults_compare t32 "${SB_CRASH_SEED:-1}"
