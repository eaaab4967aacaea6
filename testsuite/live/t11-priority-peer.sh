#!/bin/bash
# t11-priority-peer - priority/bucket next to Slurm's own priority/multifactor
# on one cluster with accounting: the same association tree (about 30
# associations: several levels, a user in two accounts, FairShare=parent
# accounts and users, a user under root, 0 shares), the same usage from
# real jobs and the same pending jobs. For Fair Tree and for classic fair
# share, 'sshare -a -l -P', 'sprio -l' and squeue's priorities under
# multifactor and under bucket (PriorityType switched, slurmctld restarted,
# nothing else changed) are identical, before and after deleting a user and
# an account, and after a Fairshare changed under a running priority/bucket. With decay on, a switch in either direction decays every
# second once (the plugins share multifactor's priority_last_decay_ran).
# slurmctld refuses PriorityFlags that would make sshare and the jobs
# disagree.
#
# sb-live: long (about 1.5 min)
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Decay is off for the comparisons (PriorityDecayHalfLife=0): the state
# does not move between the two captures, so every printed digit must be
# equal. Pending jobs wait in DOWN partitions, nothing runs while comparing.
. "$(dirname "$0")/../cluster/harness.sh"

sb_cluster_init t11
sb_nodes "n[1-4]" "CPUs=2 RealMemory=2000"
BILL="TRESBillingWeights=CPU=1000"
sb_partition debug "Nodes=ALL Default=YES MaxTime=INFINITE State=UP $BILL"
# where the compared jobs wait: two partitions, different factors and tiers
sb_partition hold1 "Nodes=ALL MaxTime=INFINITE State=DOWN PriorityJobFactor=10 PriorityTier=1 $BILL"
sb_partition hold2 "Nodes=ALL MaxTime=120 State=DOWN PriorityJobFactor=40 PriorityTier=2 $BILL"
sb_partition hold3 "Nodes=ALL MaxTime=INFINITE State=DOWN PriorityJobFactor=100 PriorityTier=1 $BILL"
sb_accounting
# the usage of a job's last seconds (priority_g_job_end) needs limits
sb_conf "AccountingStorageEnforce=associations,limits"
sb_conf "PriorityType=priority/multifactor"
sb_conf "PriorityParameters=algorithm=fair_tree,calc_period=2"
sb_conf "PriorityFlags=SMALL_RELATIVE_TO_TIME"
sb_conf "PriorityDecayHalfLife=0"
sb_conf "PriorityUsageResetPeriod=NONE"
sb_conf "PriorityCalcPeriod=1"
sb_conf "PriorityWeightFairshare=100000"
sb_conf "PriorityWeightAge=0"
sb_conf "PriorityWeightJobSize=1000"
sb_conf "PriorityWeightPartition=1000"
sb_conf "PriorityWeightQOS=500"
sb_conf "PriorityWeightTRES=CPU=200"
sb_cluster_start
STATE=$SB_DIR/state/ctld

# ---- the tree --------------------------------------------------------------
#   root
#    |- sbpp0 5                    a user directly under root
#    |- pA 41
#    |   |- pA1 30: sbpp1 1, sbpp2 2
#    |   |- pA2 10: sbpp3 1, sbpp4 0       sbpp3 is deleted later
#    |   `- pAP parent: sbpp5 parent, sbpp6 3
#    |- pB 60: sbpp7 50, sbpp1 10           sbpp1 in two accounts
#    |   |- pB1 20: sbpp8 1, sbpp9 1 (no usage)
#    |   |   `- pB11 5: sbpp10 1
#    |   `- pB2 parent
#    |       `- pB21 11: sbpp11 1
#    |- pZ 0: sbpp12 1                      0 shares, with usage
#    `- pD 10: sbpp13 1, sbpp14 1           deleted later
# Shares with which no usage of these jobs ties two accounts of one
# level (41 and 11, not 40 and 10): two accounts of exactly equal Level
# FS are ordered by their places in a list, which a restart need not
# keep. Once, beside other tests, pA's four users moved two ranks
# between the two captures, as if pA and pD (two users) had changed
# places: with jobs a second longer than asked, pA's 16 CPU-seconds and
# pD's 4 are such a tie (40/16 = 10/4).
USERS=$(seq -f 'sbpp%g' 0 14)
sb_user_add $USERS
TREE="account pA root 41
account pB root 60
account pZ root 0
account pD root 10
account pA1 pA 30
account pA2 pA 10
account pAP pA parent
account pB1 pB 20
account pB11 pB1 5
account pB2 pB parent
account pB21 pB2 11
user sbpp0 root 5
user sbpp1 pA1 1
user sbpp2 pA1 2
user sbpp3 pA2 1
user sbpp4 pA2 0
user sbpp5 pAP parent
user sbpp6 pAP 3
user sbpp7 pB 50
user sbpp1 pB 10
user sbpp8 pB1 1
user sbpp9 pB1 1
user sbpp10 pB11 1
user sbpp11 pB21 1
user sbpp12 pZ 1
user sbpp13 pD 1
user sbpp14 pD 1"
_add_tree() {
	local kind name above shares
	while read -r kind name above shares; do
		case $kind in
		account) sacctmgr -i add account "$name" Parent="$above" Fairshare="$shares" ;;
		user) sacctmgr -i add user "$name" Account="$above" Fairshare="$shares" ;;
		esac >/dev/null || return 1
	done <<<"$TREE"
}
_add_tree
rc=$?
sb_check "sacctmgr builds a tree of $(sacctmgr -n -P list assoc format=ID | wc -l) associations" test $rc = 0

cd "$SB_DIR/jobs"
sb_check "slurmctld knows the user associations" \
	sb_users_known 30 sbpp14:pD sbpp11:pB21 sbpp0:root

# ---- usage from real jobs (whole nodes: 2 CPUs x 1000 a second) ------------
RUNS="sbpp0:root:2 sbpp1:pA1:3 sbpp2:pA1:1 sbpp3:pA2:4 sbpp4:pA2:2
sbpp5:pAP:1 sbpp6:pAP:2 sbpp7:pB:3 sbpp1:pB:2 sbpp8:pB1:1 sbpp10:pB11:2
sbpp11:pB21:1 sbpp12:pZ:2 sbpp13:pD:3 sbpp14:pD:1"
jobs=()
for r in $RUNS; do
	IFS=: read -r u a s <<<"$r"
	jobs+=($(runuser -u "$u" -- sbatch --parsable -p debug -A "$a" -n1 \
		-o /dev/null --wrap "sleep $s"))
done
sb_check "${#jobs[@]} usage jobs submitted" test ${#jobs[@]} = 15
sb_check "the usage jobs ran and left the queue" sb_wait_for 120 sb_queue_empty -p debug

# ---- pending jobs, compared with sprio and squeue --------------------------
# SMALL_RELATIVE_TO_TIME: hold1 and hold3 have no time limit (MaxTime=
# INFINITE), so jobs without -t there have none. Jobs in two partitions:
# different tiers in either order, equal tiers in either order, and one
# with an administrator's priority.
PEND="sbpp1:pA1:hold1:-n1 sbpp2:pA1:hold1:-n8 sbpp4:pA2:hold1:-N2
sbpp6:pAP:hold1:-n2,-t30 sbpp7:pB:hold2:-n1 sbpp1:pB:hold1,hold2:-n4
sbpp8:pB1:hold1,hold2:-n1,-t10 sbpp9:pB1:hold2:-N1 sbpp10:pB11:hold1:-n3
sbpp11:pB21:hold1:-n1 sbpp12:pZ:hold1:-n1 sbpp0:root:hold1:-n2
sbpp7:pB:hold2,hold1:-n1 sbpp7:pB:hold1,hold3:-n1 sbpp7:pB:hold3,hold1:-n2
sbpp2:pA1:hold3,hold2:-n1"
pend=()
for r in $PEND; do
	IFS=: read -r u a p o <<<"$r"
	pend+=($(runuser -u "$u" -- sbatch --parsable -p "$p" -A "$a" ${o//,/ } \
		-o /dev/null --wrap true))
done
sb_check "${#pend[@]} jobs wait in the DOWN partitions" test ${#pend[@]} = 16
sb_check "an administrator sets one job's priority" \
	scontrol update job="${pend[15]}" priority=5000

# QOS with a priority (the default one has none); from 24.11 on a job may
# ask for several, and gets one priority per partition and QOS and one
# sprio line each.
sacctmgr -i add qos sbq1 Priority=10 >/dev/null &&
sacctmgr -i add qos sbq2 Priority=100 >/dev/null &&
sacctmgr -i modify user sbpp7 set qos+=sbq1,sbq2 >/dev/null
sb_check "sacctmgr adds two QOS" test $? = 0
sb_check "slurmctld knows the QOS" sb_users_known 30 sbpp7:pB:sbq2
QPEND="hold1:sbq2:-n1 hold1,hold2:sbq1:-n2"
[ "$SB_SERIES" = 22.05 ] ||
	QPEND+=" hold1,hold2:sbq1,sbq2:-n1 hold2:sbq2,sbq1:-n2 hold3,hold1:sbq1,normal:-n1"
qpend=()
for r in $QPEND; do
	IFS=: read -r p q o <<<"$r"
	qpend+=($(runuser -u sbpp7 -- sbatch --parsable -p "$p" -A pB -q "$q" \
		$o -o /dev/null --wrap true))
done
sb_check "${#qpend[@]} jobs with QOS wait too" test ${#qpend[@]} = $(wc -w <<<"$QPEND")

# ---- switching plugins ------------------------------------------------------
_set_conf() {	# KEY [VALUE]: replace KEY's line, drop it without VALUE
	sed -i "/^$1=/d" "$SLURM_CONF"
	[ $# -lt 2 ] || [ -z "$2" ] || echo "$1=$2" >>"$SLURM_CONF"
}
# seconds since the epoch of the last pass, from the shared state file
_last_decay() {
	local h
	h=$(od -An -tx1 -N8 "$STATE/priority_last_decay_ran" 2>/dev/null | tr -d ' \n')
	[ ${#h} = 16 ] && echo $((16#$h))
}
_passed_since() { local t; t=$(_last_decay) && [ "$t" -ge "$1" ]; }
# restart slurmctld with PriorityType=$1 and wait for its first pass
_restart_with() {
	local t0
	sb_ctld_stop
	_set_conf PriorityType "priority/$1"
	# a whole second apart: the first pass must have time to decay
	t0=$(($(date +%s) + 1))
	sleep 1
	sb_ctld_start 60 && sb_wait_for 60 _passed_since "$t0"
}

SHARE_FMT="sshare -a -l -P"
_capture() {	# file prefix
	sshare -a -l -P >"$1.sshare" 2>&1
	sprio -l 2>&1 | sort >"$1.sprio"
	squeue -h -t PD -o '%i|%P|%Q' 2>&1 | sort >"$1.squeue"
}
_same() {	# what: multifactor vs bucket capture files
	local what=$1 d
	d=$(diff "$SB_DIR/mf.$what" "$SB_DIR/bk.$what")
	[ -z "$d" ] && [ -s "$SB_DIR/mf.$what" ] && return 0
	echo "#   priority/multifactor (<) vs priority/bucket (>):"
	sed 's/^/#   /' <<<"$d"
	return 1
}
_peer() {	# label
	sb_check "$1: slurmctld runs priority/multifactor" _restart_with multifactor
	_capture "$SB_DIR/mf"
	sb_check "$1: slurmctld runs priority/bucket" _restart_with bucket
	_capture "$SB_DIR/bk"
	sb_check "$1: sshare -a -l -P identical" _same sshare
	sb_check "$1: sprio -l identical" _same sprio
	sb_check "$1: squeue's job priorities identical" _same squeue
}

_peer "fair_tree"
_set_conf PriorityFlags NO_FAIR_TREE,SMALL_RELATIVE_TO_TIME
_set_conf PriorityFavorSmall YES
_set_conf PriorityParameters algorithm=classic,calc_period=2
_peer "classic"

# ---- deleting a user and an account ----------------------------------------
# Slurm keeps their usage in the account above (and every ancestor).
_usage_of() {	# ACCOUNT [USER]: its RawUsage as sshare prints it
	sshare -a -P -n -o Account,User,RawUsage | sed 's/^ *//' |
		awk -F'|' -v a="$1" -v u="${2:-}" '$1 == a && $2 == u { print $3 }'
}
# what the usage jobs left (a job's CPUs, so its usage, depend on the
# Slurm series' default SelectType: read it, do not assume it)
pa2_usage=$(_usage_of pa2) sbpp3_usage=$(_usage_of pa2 sbpp3)
sbpp4_usage=$(_usage_of pa2 sbpp4)
sacctmgr -i delete user name=sbpp3 account=pA2 >/dev/null &&
sacctmgr -i delete account name=pD >/dev/null
sb_check "sacctmgr deletes user sbpp3 from pA2 and account pD" test $? = 0
_gone() { ! sshare -a -P -n -o Account,User | grep -q -e 'sbpp3' -e '^ *pd|'; }
sb_check "slurmctld dropped the deleted associations" sb_wait_for 30 _gone
_kept() {	# pA2 keeps sbpp3's usage beside sbpp4's (decay is off)
	[ "${sbpp3_usage:-0}" -gt 0 ] &&
		[ "$pa2_usage" = $((sbpp3_usage + sbpp4_usage)) ] &&
		[ "$(_usage_of pa2)" = "$pa2_usage" ]
}
sb_check "slurmctld keeps the deleted user's usage on its account" _kept
_peer "classic, after deletions"
_set_conf PriorityFlags SMALL_RELATIVE_TO_TIME
_set_conf PriorityFavorSmall NO
_set_conf PriorityParameters algorithm=fair_tree,calc_period=2
_peer "fair_tree, after deletions"

# ---- a change in place, seen without a restart -------------------------------
# 'sacctmgr modify ... Fairshare' changes the record where it is (the list
# keeps its items and order): priority/bucket, running since the last
# capture, must see it at its next pass, as multifactor does after a
# restart. sshare only: sprio and squeue differ here for another reason
# (sbpp7's jobs' JobSize factor 0 under bucket after the update in place,
# 2 under multifactor after the restart; their FairShare equal). Those
# jobs have no time limit and two partitions, so with
# SMALL_RELATIVE_TO_TIME their size is divided by the MaxTime of the
# partition job_ptr->part_ptr points at when the factor is computed
# (multifactor's priority_p_set() and ours alike): hold1's INFINITE gives
# 0, hold2's 120 minutes 2. The scheduler moves part_ptr from partition
# to partition as it tries them; a restart sets it to the first of its
# list, which Slurm sorts by PriorityTier (hold2). The
# formula is the same, its input is not.
sacctmgr -i modify user name=sbpp7 account=pB set Fairshare=25 >/dev/null
sb_check "sacctmgr sets sbpp7's Fairshare in pB to 25" test $? = 0
_shares_now() {
	sshare -a -P -n -o Account,User,RawShares | sed 's/^ *//' | grep -q '^pb|sbpp7|25$'
}
sb_check "slurmctld has sbpp7's new Fairshare" sb_wait_for 30 _shares_now
t0=$(($(date +%s) + 1))
sleep 1
sb_check "priority/bucket passes after the change" sb_wait_for 30 _passed_since "$t0"
t0=$(($(date +%s) + 1))
sleep 1
sb_wait_for 30 _passed_since "$t0"
_capture "$SB_DIR/bk"
sb_check "in place: slurmctld runs priority/multifactor" _restart_with multifactor
_capture "$SB_DIR/mf"
sb_check "in place: sshare -a -l -P identical" _same sshare

# ---- decay across a switch --------------------------------------------------
# Half-life 1 minute; both plugins pass once a minute (PriorityCalcPeriod),
# so after the first pass of a start usage stays put while it is read.
_set_conf PriorityDecayHalfLife 1
_set_conf PriorityParameters algorithm=fair_tree
_usage_now() {	# "Account|User|RawUsage" lines with usage, and the pass time
	local t
	t=$(_last_decay) || return 1
	sshare -a -P -n -o Account,User,RawUsage | awk -F'|' '$3 > 0' >"$1"
	[ "$(_last_decay)" = "$t" ] && echo "$t" >"$1.time"
}
# after == before * f^(t_after - t_before); "before" is always the first
# reading, so a second decayed twice anywhere in between shows
_decayed_once() {	# before after
	awk -F'|' -v t0="$(cat "$1.time")" -v t1="$(cat "$2.time")" '
		NR == FNR { u[$1 "|" $2] = $3; next }
		{ k = $1 "|" $2; n++
		  want = u[k] * (1 - 0.693 / 60) ^ (t1 - t0)
		  if (!(k in u) || $3 - want > 2 || want - $3 > 2) {
			printf "#   %s: %s, want %.1f (%s x f^%d)\n", k, $3, want, u[k], t1 - t0
			bad = 1
		  } }
		END { exit bad || !n }' "$1" "$2" &&
	sb_say "$(wc -l <"$2") associations decayed over $(($(cat "$2.time") - $(cat "$1.time"))) s as one"
}
sb_check "decay: slurmctld runs priority/multifactor" _restart_with multifactor
_usage_now "$SB_DIR/u.mf1"
sb_check "decay: slurmctld runs priority/bucket" _restart_with bucket
_usage_now "$SB_DIR/u.bk1"
sb_check "decay: multifactor -> bucket decays each second once" \
	_decayed_once "$SB_DIR/u.mf1" "$SB_DIR/u.bk1"
sb_check "decay: slurmctld runs priority/multifactor again" _restart_with multifactor
_usage_now "$SB_DIR/u.mf2"
sb_check "decay: bucket -> multifactor decays each second once" \
	_decayed_once "$SB_DIR/u.mf1" "$SB_DIR/u.mf2"

# ---- a state file from the future ---------------------------------------------
# Both times ten years ahead (a clock once set wrong): priority/bucket
# takes each as now, says so in its log, and writes sane times back, so
# that PriorityUsageResetPeriod counts from now instead of in ten years.
_be64() { printf "$(printf '%016x' "$1" | sed 's/../\\x&/g')"; }
_state_time() {	# 0: the last pass, 8: the last reset
	local h
	h=$(od -An -tx1 -j"$1" -N8 "$STATE/priority_last_decay_ran" 2>/dev/null |
		tr -d ' \n')
	[ ${#h} = 16 ] && echo $((16#$h))
}
_sane_since() {	# T0: both times in [T0, now]
	local ran reset now
	ran=$(_state_time 0) && reset=$(_state_time 8) || return 1
	now=$(date +%s)
	[ "$ran" -ge "$1" ] && [ "$ran" -le "$now" ] && [ "$reset" -le "$now" ]
}
sb_ctld_stop
_set_conf PriorityType priority/bucket
future=$(($(date +%s) + 10 * 365 * 86400))
{ _be64 "$future"; _be64 "$future"; } >"$STATE/priority_last_decay_ran"
t0=$(date +%s)
sb_check "future state file: slurmctld starts with priority/bucket" sb_ctld_start 60
sb_check "... logs that the last reset was after now" \
	sb_wait_for 30 grep -q "the last usage reset is after now" \
	"$SB_DIR/log/slurmctld.log"
sb_check "... and its next pass writes both times no later than now" \
	sb_wait_for 30 _sane_since "$t0"

# ---- PriorityFlags that make sshare and the jobs disagree --------------------
_refused() {	# flags parameters expected-log-text
	sb_ctld_stop
	_set_conf PriorityType priority/bucket
	_set_conf PriorityFlags "$1"
	_set_conf PriorityParameters "$2"
	: >"$SB_DIR/log/slurmctld.out"
	if sb_ctld_start 20; then
		echo "#   slurmctld started with PriorityFlags=$1 PriorityParameters=$2"
		return 1
	fi
	sb_ctld_stop
	grep -q -F "$3" "$SB_DIR/log/slurmctld.out" "$SB_DIR/log/slurmctld.log" && return 0
	echo "#   no line '$3'"
	return 1
}
sb_check "NO_FAIR_TREE with algorithm=fair_tree is refused with one line" \
	_refused NO_FAIR_TREE algorithm=fair_tree \
	"fatal: priority/bucket: PriorityFlags=NO_FAIR_TREE needs PriorityParameters algorithm=classic"
sb_check "DEPTH_OBLIVIOUS with algorithm=level_based is refused with one line" \
	_refused DEPTH_OBLIVIOUS algorithm=level_based \
	"fatal: priority/bucket: PriorityFlags=DEPTH_OBLIVIOUS is not supported"
sb_check "algorithm=classic without NO_FAIR_TREE is refused with one line" \
	_refused "" algorithm=classic \
	"fatal: priority/bucket: PriorityParameters algorithm=classic needs PriorityFlags=NO_FAIR_TREE"

sb_cluster_stop
sb_check "every daemon the harness started is gone ($(sb_pids))" sb_all_gone
