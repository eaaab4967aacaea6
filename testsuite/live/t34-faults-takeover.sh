#!/bin/bash
# t34-faults-takeover - a backup controller taking over in the middle of
# a burst, under select/bucket + priority/bucket and, with the same seed
# at the same time on other ports, under select/linear +
# priority/multifactor (the base).
#
# Two slurmctld share StateSaveLocation (SlurmctldHost twice,
# SlurmctldTimeout=6), each in network, UTS (host names ctl1, ctl2) and,
# for the backup, mount namespaces the harness makes and removes
# (sb_backup_controller); the slurmds, slurmdbd and the clients reach
# them over veth pairs, and no packet leaves the machine. In a seeded
# burst (crash-burst.run, SB_CRASH_FAULT=takeover) the primary is
# SIGKILLed and the backup takes over; the primary is started again and
# takes control back; 'scontrol takeover' hands control to the backup.
#
# Must hold in each run: no node under two running jobs, sampled every
# second; a controller in charge within seconds of each fault; the
# backup starts jobs each time it is in control; every job submitted is
# running, pending, or ended in sacct or jobcomp. Ours also: no plugin
# error;
# select/bucket's audit finds, each time a controller takes control,
# that its buckets equal a fresh build from that controller's state;
# select/bucket places jobs on the backup; priority/bucket's usage in
# sshare after each handover that saves state is at least what it was
# before. What Slurm does not promise across the SIGKILL (jobs recorded
# twice or not COMPLETED, nodes drained for a job ID handed out twice,
# usage since the last save) is printed side by side with the base;
# bench/crash.sh (SB_CRASH_FAULT=takeover) sums it over seeds.
#
# sb-live: serial (it judges how soon a controller answers after each fault,
#   ours against the base)
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../cluster/harness.sh"
. "$(dirname "$0")/faults.inc"

export SB_CRASH_FAULT=takeover
faults_compare t34 "${SB_CRASH_SEED:-1}"
