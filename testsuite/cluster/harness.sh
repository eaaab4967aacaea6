# harness.sh - a throwaway Slurm cluster on loopback, for live tests.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Source it from bash, as root, before the script does anything else
# (it may run the script again in the Debian 13 chroot: see SB_SLURM).
# Everything a cluster has lives in one scratch directory: munged with
# its own key, slurmctld, one 'slurmd -N <node>' per node (Debian builds
# Slurm with multiple-slurmd) and, on request, MariaDB with its own data
# directory and slurmdbd. Every process is started in the foreground
# under its real name (Slurm keys behaviour off argv[0]) and recorded by
# PID; sb_cluster_stop (also run on exit, whatever happened) stops
# exactly those PIDs and any slurmstepd they left behind.
#
# This file is the harness's API: every function a test may call, in the
# order a test calls them. They live in harness/, one concern a file:
#   tap.sh        checks (ok / not ok lines) and bounded waits
#   series.sh     the Slurm series (SB_SLURM), the chroot, what differs
#                 between series in the files the harness writes
#   conf.sh       the cluster's description and slurm.conf
#   daemons.sh    starting and stopping munged, MariaDB, slurmdbd,
#                 slurmctld and the slurmds; where the time goes
#   front_end.sh  the front-end mode (SB_FRONT_END: one slurmd for all)
#   backup.sh     the backup-controller mode (two slurmctld, namespaces)
#   jobs.sh       users, associations and jobs
# Names beginning '_sb_' are the parts' own.
#
# ---- a cluster ---------------------------------------------------------------
#   sb_cluster_init NAME              scratch dir, trap; call first
#   sb_nodes HOSTLIST "ATTRS"         e.g. sb_nodes "red[1-4]" "CPUs=4 RealMemory=4000 Features=red"
#   sb_partition NAME "ATTRS"         default: one partition 'debug' with every node
#   sb_conf "Key=Value"               extra slurm.conf line (repeatable); it
#                                     replaces the harness's own line for Key
#   sb_accounting                     start MariaDB + slurmdbd, priority/multifactor
#   sb_select NAME                    SelectType=select/NAME (bucket, linear,
#                                     cons_tres); bucket runs over the base
#                                     SB_BASE names (linear or cons_tres)
#   sb_select_lines NAME              the slurm.conf lines sb_select writes
#   sb_backup_controller [TIMEOUT]    a backup slurmctld (see harness/backup.sh;
#                                     after sb_cluster_init)
#   sb_cluster_start                  start daemons, wait until every node is idle
#   sb_cluster_stop                   stop everything by PID (idempotent)
#   sb_all_gone                       true when no process the harness started runs
#   sb_running PID, sb_ended PID      is PID a running process of this
#                                     cluster (not just any process: PIDs
#                                     come back)
#   sb_pids                           every PID the harness started
#   sb_on_exit CMD                    run CMD at exit, after the cluster
#                                     has stopped (the EXIT trap is the
#                                     harness's)
#
# ---- checks (TAP) --------------------------------------------------------------
#   sb_check "what" CMD...            run CMD; print 'ok N - what' or 'not ok N - what'
#   sb_check_eq "what" EXPECTED CMD...
#                                     CMD's stdout must equal EXPECTED
#   sb_wait_for SECONDS CMD...        poll CMD until it succeeds (fails at
#                                     once when a daemon died)
#   sb_say TEXT...                    a '# [HH:MM:SS] TEXT' line
#   sb_die TEXT...                    a 'not ok - harness: TEXT' line, and
#                                     the test ends
#
# ---- daemons while the cluster runs ----------------------------------------------
#   sb_ctld_stop                      stop slurmctld alone (to restart it)
#   sb_ctld_start [SECONDS]           start slurmctld again; fails if it does
#                                     not answer (e.g. refused its config)
#   sb_ctld_kill                      SIGKILL slurmctld (the primary): a crash
#   sb_ctld_log 1|2                   controller N's slurmctld.log
#   sb_ctld_log_since 1|2             what controller N logged since its last start
#   sb_nodes_back [SECONDS]           wait until every node answers again
#                                     (after sb_ctld_start, before a test
#                                     that expects given nodes)
#   sb_nodes_idle [SECONDS]           wait until every node is idle (none
#                                     still completing a job of before)
#   sb_restart_all [SECONDS]          stop slurmctld and every slurmd, start
#                                     them again (as a SelectType change
#                                     needs); fails unless every node is back
#   sb_switch_select NAME [SECONDS]   put sb_select_lines NAME into the
#                                     running cluster's slurm.conf and
#                                     sb_restart_all (a SelectType change)
#   sb_slurmd_kill NODE               SIGKILL one node's slurmd (a crash)
#   sb_slurmd_start NODE              start one node's slurmd again
#   sb_stacks PID WHAT                every thread's stack (gdb) of a daemon
#                                     that hangs, into SB_DIR/log
#   sb_ctld_answers 1|2               does controller N answer, in charge?
#   sb_ctld_role 1|2, sb_ctld_role_is 1|2 ROLE, sb_backup_start,
#   sb_takeover [SECONDS]             the backup controller (harness/backup.sh)
#
# ---- Slurm series ---------------------------------------------------------------
#   sb_series_of PREFIX               the series of PREFIX's slurmctld (24.11)
#   sb_series_lt SERIES               is the running Slurm older than SERIES?
#   sb_slurm_has TRAIT                does the Slurm our plugins are built
#                                     for have TRAIT (SB_HAVE_..., its
#                                     build's sb_slurm_traits.h)?
#   sb_plugindir_lock [SECONDS]       hold Slurm's PluginDir until exit (a
#                                     test that installs into it: t03, t04)
#   sb_use_slurm PREFIX               run the Slurm of PREFIX (before init)
#   sb_switch_slurm PREFIX PLUGINS [SECONDS]
#                                     upgrade the running cluster in place
#   sb_bucket_over BASE               select/bucket says it runs over select/BASE
#   sb_bucket_conf_base               the bucket.conf lines select/bucket
#                                     needs on this series
#   sb_running_exclusive              running jobs that hold whole nodes
#
# ---- users and jobs ---------------------------------------------------------------
#   sb_user_add USER...               create local users (no home) unless they exist
#   sb_users_known SECONDS USER:ACCOUNT[:QOS]...
#                                     wait until slurmctld takes a job from
#                                     each user under that account (and QOS)
#   sb_queue_empty [SQUEUE_FILTER...] squeue answered and listed no job
#   sb_jobs_gone JOBID...             squeue answered and listed none of them
#   sb_job_wait JOBID SECONDS         wait until the job has left the queue
#   sb_job_state JOBID                the job's final state from scontrol
#
# Variables after sb_cluster_init: SB_DIR, SLURM_CONF (exported), SB_HOST,
# SB_SERIES (the running Slurm's series), SB_CTLD_PID.
# SB_BASE (linear, default, or cons_tres) is the base select/bucket runs
# over; with cons_tres, SB_PART_OPTS is "OverSubscribe=EXCLUSIVE", for the
# tests of whole-node semantics to put in their partitions (the default
# partition has it).
# SB_PORT_BASE (default 17100) picks the ports: slurmctld at the base,
# slurmdbd +1, MariaDB +2, nodes from +10; a test owns SB_PORT_BASE to
# +499 (testsuite/run-tests runs tests side by side 500 ports apart), and
# a second cluster of its own goes at +200. Keep every slot below
# Linux's ephemeral ports (net.ipv4.ip_local_port_range, 32768 on): a
# client's outgoing connection may hold one of them, and the slurmd
# given it dies with "Address already in use" (a second suite beside
# CI's: SB_PORT_BASE=26000, not 43000).
# SB_FRONT_END=DIR (set before sb_cluster_init; DIR from
# bench/scale/fe-build) runs a front-end Slurm (harness/front_end.sh).
# SB_CTLD_SETTLE=0 starts jobs before slurmctld's first ping round (see
# _sb_ctld_settle). SB_KEEP=1 keeps the scratch directory. SB_CACHE
# (default /var/cache/slurm-buckets) keeps MariaDB's data directory made
# once and copied for each cluster.
#
# SB_TOP_SRCDIR (default: this checkout) and SB_TOP_BUILDDIR (default:
# SB_TOP_SRCDIR/build/SB_SERIES) are set by 'make check'; SB_LOG_DIR (set
# by testsuite/run-tests) gets the daemon logs of a failed test and each
# cluster's times (SB_LOG_DIR/times/).

SB_TOP_SRCDIR=${SB_TOP_SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
SB_HARNESS=$SB_TOP_SRCDIR/testsuite/cluster/harness

. "$SB_HARNESS/tap.sh"
. "$SB_HARNESS/series.sh"
# (may run the script again in the chroot, with the same arguments)
_sb_enter_series "$@"
_sb_series_init
. "$SB_HARNESS/conf.sh"
. "$SB_HARNESS/daemons.sh"
. "$SB_HARNESS/front_end.sh"
. "$SB_HARNESS/backup.sh"
. "$SB_HARNESS/jobs.sh"
