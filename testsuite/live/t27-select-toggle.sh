#!/bin/bash
# t27-select-toggle - switching SelectType between a Slurm select plugin
# and select/bucket over it, with jobs running, in both directions, as
# select_bucket(8) documents it (stop slurmctld and every slurmd, change
# SelectType, start them): select/linear -> select/bucket -> select/linear,
# then select/cons_tres -> select/bucket (OTHER_CONS_TRES) ->
# select/cons_tres. After each switch every running job is still running
# on the same nodes and cores; new jobs then fill the free nodes and none
# of them gets a node, or a core, that a job already holds.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../cluster/harness.sh"
. "$(dirname "$0")/layer.inc"

SB_CTLD_DEBUG=${SB_CTLD_DEBUG:-verbose}
sb_cluster_init t27
sb_nodes "t[1-8]" "CPUs=4 Sockets=1 CoresPerSocket=4 ThreadsPerCore=1 RealMemory=4000 Features=any Weight=1"
sb_select linear
sb_conf "DebugFlags=SelectType"
sb_cluster_start
cd "$SB_DIR/jobs"

_sub() { sbatch --parsable -o /dev/null "$@" --wrap 'sleep 900'; }
# every running job with its nodes and cores, one line each
_holding() {
	local j
	for j in $(squeue -h -t RUNNING -o %i | sort -n); do
		echo "$j $(_detail "$j")"
	done
}
# jobs $@ run, and nothing is held twice
_fill() {
	local ids=("$@")
	sb_wait_for 60 _all_running "${ids[@]}"
}

# FROM TO: jobs under FROM; switch to TO; the same jobs hold the same;
# new jobs fill the rest; switch back; the same again.
toggle() {
	local from=$1 to=$2 first=() more=() before after
	if [ "$from" = cons_tres ]; then
		first=($(_sub -N2 --exclusive) $(_sub -n2 --mem=1000)
		       $(_sub -n3 --mem=500) $(_sub -N1 --exclusive))
	else
		first=($(_sub -N2) $(_sub -N1) $(_sub -N1 -w t8))
	fi
	sb_check "$from: ${#first[@]} jobs run" _fill "${first[@]}"
	before=$(_holding)
	sb_check "switch $from -> $to with the jobs running" sb_switch_select "$to"
	sb_check_eq "$to: every job still runs with the same nodes and cores" \
		"$before" _holding
	if [ "$from" = cons_tres ]; then
		more=($(_sub -N2 --exclusive) $(_sub -n4) $(_sub -n2 --mem=500))
	else
		more=($(_sub -N2) $(_sub -N1) $(_sub -N1))
	fi
	sb_check "$to: new jobs run beside them" _fill "${more[@]}"
	sb_check_eq "$to: no node or core held twice" "" _overlaps
	after=$(_holding)
	sb_check "switch $to -> $from with the jobs running" sb_switch_select "$from"
	sb_check_eq "$from again: every job still runs with the same nodes and cores" \
		"$after" _holding
	sb_check_eq "$from again: no node or core held twice" "" _overlaps
	scancel $(squeue -h -o %i)
	sb_check "$from: the queue empties" sb_wait_for 60 sb_queue_empty
}

toggle linear bucket
SB_BASE=cons_tres
sb_check "switch to select/cons_tres (no jobs)" sb_switch_select cons_tres
toggle cons_tres bucket

sb_cluster_stop
sb_check "every daemon the harness started is gone ($(sb_pids))" sb_all_gone
