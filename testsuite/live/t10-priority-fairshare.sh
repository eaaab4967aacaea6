#!/bin/bash
# t10-priority-fairshare - priority/bucket in a live slurmctld: a tree built
# with sacctmgr (several levels, a FairShare=parent account and user)
# accrues usage from real jobs; for each algorithm, what sshare prints
# equals what 'sbucket fairshare' computes offline from sshare's own
# RawShares and RawUsage; sprio's factors follow the multifactor formula;
# the job of the user with the higher fair share starts first; usage and
# factors survive a slurmctld restart; a bad PriorityParameters refuses
# to start (and is only logged on reconfigure).
#
# sb-live: long (about 1 min)
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Decay is off here (PriorityDecayHalfLife=0) and every CPU second bills
# 1000, so usage is an exact integer and sshare's RawUsage loses nothing:
# the offline values must match to the last printed digit.
# t10-priority-split covers decay.
. "$(dirname "$0")/../cluster/harness.sh"

SBUCKET=${SBUCKET:-$SB_TOP_BUILDDIR/tools/sbucket}
export SBUCKET

# the fair-share pass lines are log_flag(PRIO) lines: verbose
SB_CTLD_DEBUG=${SB_CTLD_DEBUG:-verbose}
sb_cluster_init t10
sb_nodes "n[1-4]" "CPUs=2 RealMemory=2000"
sb_partition debug "Nodes=ALL Default=YES MaxTime=INFINITE State=UP TRESBillingWeights=CPU=1000"
sb_accounting
sb_conf "PriorityType=priority/bucket"
sb_conf "PriorityParameters=algorithm=fair_tree,calc_period=2"
# priority_g_job_end() (the usage of a job's last seconds) needs limits
sb_conf "AccountingStorageEnforce=associations,limits"
sb_conf "PriorityDecayHalfLife=0"
sb_conf "PriorityUsageResetPeriod=NONE"
sb_conf "PriorityCalcPeriod=1"
sb_conf "PriorityWeightFairshare=100000"
sb_conf "PriorityWeightAge=1000"
sb_conf "PriorityMaxAge=1-0"
sb_conf "PriorityWeightJobSize=100"
sb_conf "PriorityWeightPartition=10"
sb_conf "PriorityWeightQOS=0"
sb_conf "PriorityWeightTRES=CPU=200"
sb_conf "DebugFlags=Priority"
sb_cluster_start

CTLD_LOG=$SB_DIR/log/slurmctld.log
sb_check "slurmctld loaded priority/bucket" \
	sh -c "scontrol show config | grep -q 'PriorityType *= priority/bucket'"

# ---- the tree ------------------------------------------------------------
#   root
#    |- acctA 40
#    |   |- acctA1 30: sbpa1 1
#    |   `- acctA2 10: sbpa2 1, sbpa3 2
#    `- acctB 60
#        |- acctBP parent: sbpa4 parent, sbpa5 30
#        `- sbpa6 50
USERS="sbpa1 sbpa2 sbpa3 sbpa4 sbpa5 sbpa6"
sb_user_add $USERS
sacctmgr -i add account acctA Fairshare=40 >/dev/null &&
sacctmgr -i add account acctB Fairshare=60 >/dev/null &&
sacctmgr -i add account acctA1 Parent=acctA Fairshare=30 >/dev/null &&
sacctmgr -i add account acctA2 Parent=acctA Fairshare=10 >/dev/null &&
sacctmgr -i add account acctBP Parent=acctB Fairshare=parent >/dev/null &&
sacctmgr -i add user sbpa1 Account=acctA1 Fairshare=1 >/dev/null &&
sacctmgr -i add user sbpa2 Account=acctA2 Fairshare=1 >/dev/null &&
sacctmgr -i add user sbpa3 Account=acctA2 Fairshare=2 >/dev/null &&
sacctmgr -i add user sbpa4 Account=acctBP Fairshare=parent >/dev/null &&
sacctmgr -i add user sbpa5 Account=acctBP Fairshare=30 >/dev/null &&
sacctmgr -i add user sbpa6 Account=acctB Fairshare=50 >/dev/null
sb_check "sacctmgr builds the tree" test $? = 0

cd "$SB_DIR/jobs"
sb_check "slurmctld knows every user association" \
	sb_users_known 30 sbpa1:acctA1 sbpa6:acctB sbpa4:acctBP

# ---- usage from real jobs ------------------------------------------------
declare -A SLEEP=([sbpa1]=4 [sbpa2]=2 [sbpa3]=6 [sbpa4]=3 [sbpa5]=5 [sbpa6]=2)
declare -A ACCT=([sbpa1]=acctA1 [sbpa2]=acctA2 [sbpa3]=acctA2 [sbpa4]=acctBP [sbpa5]=acctBP [sbpa6]=acctB)
jobs=()
for u in $USERS; do
	jobs+=($(runuser -u "$u" -- sbatch --parsable -A "${ACCT[$u]}" -n1 \
		-o /dev/null --wrap "sleep ${SLEEP[$u]}"))
done
sb_check "six jobs submitted" test ${#jobs[@]} = 6
sb_check "the jobs ran and left the queue" sb_wait_for 90 sb_jobs_gone "${jobs[@]}"

_passes() { grep -c "priority/bucket: bucket_assoc_compute: PRIO: $1 fair-share pass" "$CTLD_LOG"; }
# Two more passes after the last job left: its end usage is in.
_more_passes() { [ "$(_passes "$1")" -ge "$2" ]; }
n=$(_passes fair_tree)
sb_check "fair-share passes continue after the jobs" \
	sb_wait_for 20 _more_passes fair_tree $((n + 2))
_usage_of() { sshare -a -P -n -o User,RawUsage | awk -F'|' -v u="$1" '$1 == u { print $2 }'; }
# the CPUs a job had: the whole node under 22.05's default select/linear
# (2), one under 24.11's select/cons_tres
_cpus_of() { sacct -n -X -P -j "$1" -o AllocCPUS 2>/dev/null | head -n 1; }
ok=yes i=0
for u in $USERS; do
	# its CPUs x 1000 per CPU second (TRESBillingWeights) x its run time
	c=$(_cpus_of "${jobs[$i]}") i=$((i + 1))
	[ "${c:-0}" -gt 0 ] 2>/dev/null &&
		[ "$(_usage_of "$u")" -ge $(( ${SLEEP[$u]} * 1000 * c )) ] 2>/dev/null ||
		ok="no ($u: $(_usage_of "$u") for ${c:-?} CPUs)"
done
sb_check_eq "every user accrued usage for its job's run time" yes echo "$ok"

# ---- sshare vs sbucket fairshare, per algorithm ---------------------------
SSHARE_FMT=Account,User,RawShares,NormShares,RawUsage,EffectvUsage,FairShare,LevelFS
_sshare() {
	sshare -a -P -n -o "$SSHARE_FMT" | sed 's/^ *//'
}
# sbucket's input (Account|Parent|User|Shares|RawUsage) in sshare's order,
# parents from sacctmgr; accounts and root with the usage slurmctld keeps.
_offline_input() {
	local parents
	parents=$(sacctmgr -n -P list assoc format=Account,ParentName,User |
		awk -F'|' '$3 == "" && !($1 == "root" && $2 == "") { print $1 "|" $2 }')
	_sshare | awk -F'|' -v parents="$parents" '
		BEGIN {
			n = split(parents, l, "\n")
			for (i = 1; i <= n; i++) {
				split(l[i], f, "|"); par[f[1]] = f[2]
			}
		}
		$1 == "root" && $2 == "" { print "root||||" $5; next }
		$2 == "" { print $1 "|" par[$1] "||" $3 "|" $5; next }
		{ print $1 "||" $2 "|" $3 "|" $5 }'
}

# Offline LevelFS for level_based: an association's own bucket (its raw
# value without its fs parent's bits) over the bucket maximum.
_level_fs_from_raw() {	# offline output on stdin, levels $1
	awk -F'|' -v levels="$1" -v parents="$(sacctmgr -n -P list assoc format=Account,ParentName,User,Fairshare |
		awk -F'|' '$3 == "" { print $1 "|" $2 "|" $4 }')" '
	function hex2bits(h,   i, c, v, s) {
		s = ""
		for (i = 1; i <= 16; i++) {
			c = index("0123456789ABCDEF", toupper(substr(h, i, 1))) - 1
			s = s sprintf("%d%d%d%d", int(c / 8) % 2, int(c / 4) % 2,
				      int(c / 2) % 2, c % 2)
		}
		return s
	}
	BEGIN {
		n = split(parents, l, "\n")
		for (i = 1; i <= n; i++) {
			split(l[i], f, "|"); par[f[1]] = f[2]; sh[f[1]] = f[3]
		}
		width = int(64 / levels); unused = 64 % levels
	}
	{ line[NR] = $0; acct[NR] = $1; user[NR] = $2; raw[NR] = $9
	  if ($2 == "") araw[$1] = $9 }
	END {
		for (r = 1; r <= NR; r++) {
			if (acct[r] == "root" && user[r] == "") continue
			# fs parent: nearest ancestor account not "parent"
			p = (user[r] == "") ? par[acct[r]] : acct[r]
			while (p != "root" && sh[p] == "parent") p = par[p]
			pb = (p == "root") ? hex2bits("0000000000000000") : hex2bits(araw[p])
			b = hex2bits(raw[r])
			own = ""
			for (i = 1; i <= 64; i++)
				own = own ((substr(b, i, 1) == "1" && substr(pb, i, 1) == "0") ? "1" : "0")
			first = index(own, "1")
			v = 0; m = 0
			if (first) {
				bucket = int((64 - first - unused) / width)
				hi = 64 - (bucket + 1) * width - unused + 1
				for (i = hi; i < hi + width; i++) {
					v = v * 2 + substr(own, i, 1); m = m * 2 + 1
				}
			}
			printf "%s|%s|%.6f\n", acct[r], user[r], m ? v / m : 0
		}
	}'
}

# classic goes with PriorityFlags=NO_FAIR_TREE (as in multifactor), the
# other two with Slurm's default Fair Tree flag
_switch_algorithm() {	# algorithm
	local n
	n=$(_passes "$1")
	sed -i -e "s/^PriorityParameters=.*/PriorityParameters=algorithm=$1,calc_period=2/" \
		-e '/^PriorityFlags=/d' "$SLURM_CONF"
	[ "$1" != classic ] || echo "PriorityFlags=NO_FAIR_TREE" >>"$SLURM_CONF"
	scontrol reconfigure >/dev/null 2>&1 &&
		sb_wait_for 30 _more_passes "$1" $((n + 2))
}

_compare() {	# algorithm
	local alg=$1 live off diffs
	live=$(_sshare)
	off=$(_offline_input | "$SBUCKET" fairshare --algorithm="$alg" - | tail -n +2)
	[ -n "$off" ] || { echo "#   sbucket fairshare printed nothing"; return 1; }
	case $alg in
	fair_tree)	# NormShares EffectvUsage FairShare(users) LevelFS
		diffs=$(diff <(awk -F'|' '!($1 == "root" && $2 == "") { print $1 "|" $2 "|" $4 "|" $6 "|" $7 "|" ($3 == "parent" ? "" : $8) }' <<<"$live") \
			     <(awk -F'|' '!($1 == "root" && $2 == "") { print $1 "|" $2 "|" $4 "|" $6 "|" $7 "|" ($3 == "parent" ? "" : $8) }' <<<"$off")) ;;
	level_based)	# NormShares EffectvUsage FairShare(users) LevelFS(own bucket)
		diffs=$(diff <(awk -F'|' '!($1 == "root" && $2 == "") { print $1 "|" $2 "|" $4 "|" $6 "|" $7 }' <<<"$live") \
			     <(awk -F'|' '!($1 == "root" && $2 == "") { print $1 "|" $2 "|" $4 "|" $6 "|" $7 }' <<<"$off");
			diff <(awk -F'|' '!($1 == "root" && $2 == "") && $3 != "parent" { print $1 "|" $2 "|" $8 }' <<<"$live") \
			     <(_level_fs_from_raw 4 <<<"$off" | grep -v -F -f <(awk -F'|' '$3 == "parent" { print $1 "|" $2 "|" }' <<<"$live"))) ;;
	classic)	# NormShares EffectvUsage FairShare(users)
		diffs=$(diff <(awk -F'|' '!($1 == "root" && $2 == "") { print $1 "|" $2 "|" $4 "|" $6 "|" ($2 == "" ? "" : $7) }' <<<"$live") \
			     <(awk -F'|' '!($1 == "root" && $2 == "") { print $1 "|" $2 "|" $4 "|" $6 "|" ($2 == "" ? "" : $7) }' <<<"$off")) ;;
	esac
	if [ -n "$diffs" ]; then
		echo "#   sshare (<) vs sbucket fairshare (>) for $alg:"
		sed 's/^/#   /' <<<"$diffs"
		return 1
	fi
}

sb_check "fair_tree: sshare equals sbucket fairshare for every association" _compare fair_tree
# 'sbucket fairshare' without a FILE reads the live tree and algorithm.
_live_same() {	# algorithm
	local live off
	live=$("$SBUCKET" fairshare 2>&1)
	off=$(_offline_input | "$SBUCKET" fairshare --algorithm="$1" - 2>&1)
	[ "$live" = "$off" ] && [ -n "$live" ] && return 0
	diff <(echo "$live") <(echo "$off") | sed 's/^/#   /'
	return 1
}
sb_check "sbucket fairshare (live, fair_tree) prints the offline table" _live_same fair_tree
sb_check "sbucket fairshare --explain works on the live tree" \
	sh -c "'$SBUCKET' fairshare --explain=sbpa1,sbpa6 | grep -q sbpa6"
sb_check "switch to level_based with scontrol reconfigure" _switch_algorithm level_based
sb_check "sbucket fairshare (live, level_based) prints the offline table, FSRaw too" _live_same level_based
sb_check "level_based: sshare equals sbucket fairshare (LevelFS = own bucket)" _compare level_based
sb_check "level_based: every LevelFS is in (0,1]" sh -c \
	"sshare -a -P -n -o Account,User,RawShares,LevelFS | sed 's/^ *//' | awk -F'|' '!(\$1 == \"root\" && \$2 == \"\") && \$3 != \"parent\" && !(\$4 > 0 && \$4 <= 1) { bad = 1 } END { exit bad }'"
sb_check "switch to classic with scontrol reconfigure" _switch_algorithm classic
sb_check "classic: sshare equals sbucket fairshare for every association" _compare classic
# Without the Fair Tree flag sshare before 25.11 computes FairShare
# itself, for every association, through the plugin's
# priority_p_calc_fs_factor(): this loads priority_bucket.so inside
# sshare. From 25.11 on sshare prints the fs_factor slurmctld keeps, for
# user lines only (the framework has no calc_fs_factor any more). Root's
# line is left out: its NormShares is assoc_mgr's, which a reconfigure
# does not redo (0 from the Fair Tree start here), with
# priority/multifactor too.
_client_classic() {
	local live off
	live=$(sshare -a -P -n -o Account,User,FairShare 2>&1 | sed 's/^ *//' | tail -n +2)
	off=$(_offline_input | "$SBUCKET" fairshare --algorithm=classic - | tail -n +3 | cut -d'|' -f1,2,7)
	sb_slurm_has SB_HAVE_PRIORITY_CALC_FS_FACTOR ||
		off=$(awk -F'|' -v OFS='|' '$2 == "" { $3 = "" } { print }' <<<"$off")
	[ "$live" = "$off" ] && return 0
	echo "#   sshare without Fair Tree (<) vs sbucket fairshare (>):"
	diff <(echo "$live") <(echo "$off") | sed 's/^/#   /'
	return 1
}
if sb_slurm_has SB_HAVE_PRIORITY_CALC_FS_FACTOR; then
	sb_check "classic: sshare loads the plugin and prints the same FairShare for every line" _client_classic
else
	sb_check "classic: sshare prints slurmctld's FairShare, the same for every user line" _client_classic
fi

# A bad value on reconfigure. 22.05 reconfigures in place: the plugin
# logs it and keeps the old algorithm. 24.11 reconfigures by executing
# slurmctld again: the new image refuses to start, with the one line, as
# at any start; a daemon then resumes with its old configuration, this
# foreground one (-D) is gone with it and is started again.
sed -i "s/^PriorityParameters=.*/PriorityParameters=algorithm=bogus,calc_period=2/" "$SLURM_CONF"
scontrol reconfigure >/dev/null 2>&1
BAD="priority/bucket: bad value 'bogus' for PriorityParameters key 'algorithm'"
_refused() {
	local i
	for i in $(seq 60); do
		sb_running "$SB_CTLD_PID" || break
		sleep 0.5
	done
	! sb_running "$SB_CTLD_PID" && grep -q "fatal: $BAD" "$CTLD_LOG"
}
if [ "$SB_SERIES" = 22.05 ]; then
	sb_check "reconfigure with a bad PriorityParameters logs the key and value" \
		sb_wait_for 20 grep -q "error: $BAD.*keeping algorithm=classic" "$CTLD_LOG"
else
	sb_check "reconfigure with a bad PriorityParameters is refused with the key and value" \
		_refused
	sed -i "s/^PriorityParameters=.*/PriorityParameters=algorithm=classic,calc_period=2/" "$SLURM_CONF"
	sb_ctld_stop
	sb_check "slurmctld starts again with the old algorithm" sb_ctld_start 60
fi
n=$(_passes classic)
sb_check "... and keeps computing with the old algorithm" \
	sb_wait_for 20 _more_passes classic $((n + 2))
sb_check "back to level_based" _switch_algorithm level_based

# ---- sprio and the start order --------------------------------------------
# The user with the highest and the one with the lowest fair share.
fs_sorted=$(sshare -a -P -n -o User,FairShare | awk -F'|' '$1 ~ /^sbpa[12356]$/ { print $2 "|" $1 }' | sort -t'|' -k1,1g)
low=$(head -n 1 <<<"$fs_sorted" | cut -d'|' -f2)
high=$(tail -n 1 <<<"$fs_sorted" | cut -d'|' -f2)
sb_check "two users with different fair shares ($low < $high)" test -n "$low" -a -n "$high" \
	-a "$(head -n 1 <<<"$fs_sorted" | cut -d'|' -f1)" != "$(tail -n 1 <<<"$fs_sorted" | cut -d'|' -f1)"
blocker=$(sbatch --parsable -A root -N4 --exclusive -o /dev/null --wrap 'sleep 300')
sb_check "a job fills the cluster" sb_wait_for 30 sh -c "squeue -h -j $blocker -o %T | grep -qx RUNNING"
# the low fair-share user's job is submitted first (older: more age)
jlow=$(runuser -u "$low" -- sbatch --parsable -A "${ACCT[$low]}" -N4 --exclusive -o /dev/null --wrap 'sleep 2')
jhigh=$(runuser -u "$high" -- sbatch --parsable -A "${ACCT[$high]}" -N4 --exclusive -o /dev/null --wrap 'sleep 2')
_in_sprio() { sprio -h -j "$1" -o %i 2>/dev/null | grep -q "$1"; }
sb_check "sprio lists both pending jobs" sb_wait_for 20 sh -c "$(declare -f _in_sprio); _in_sprio $jlow && _in_sprio $jhigh"

# sprio's factors against the formula: the normalised fair share is the
# user's FairShare in sshare, the partition factor 1, and the job's
# priority the weighted sum of what sprio shows.
_sprio_formula() {	# job user
	local job=$1 user=$2 line fs prio
	line=$(sprio -h -j "$job" -o '%a|%f|%j|%p|%q|%S|%N|%A|%F|%J|%P|%T')
	fs=$(sshare -P -n -u "$user" -o User,FairShare | awk -F'|' -v u="$user" '$1 == u { print $2 }')
	prio=$(squeue -h -j "$job" -o %Q)
	awk -F'|' -v fs="$fs" -v prio="$prio" -v line="$line" 'BEGIN {
		split(line, f, "|")
		a = f[1]; F = f[2]; j = f[3]; p = f[4]
		bad = 0
		if (F - fs > 0.000001 || fs - F > 0.000001) { print "#   fairshare " F " != sshare " fs; bad = 1 }
		if (!(j > 0 && j <= 1)) { print "#   jobsize " j " not in (0,1]"; bad = 1 }
		if (p != 1.0000000) { print "#   partition " p " != 1"; bad = 1 }
		if (f[9] != sprintf("%.0f", F * 100000)) { print "#   weighted fairshare " f[9]; bad = 1 }
		# weighted TRES: "cpu=N,..." up to 8 CPUs of 8 x weight 200
		tres = 0; n = split(f[12], t, ",")
		for (i = 1; i <= n; i++) { sub(/.*=/, "", t[i]); tres += t[i] }
		if (!(tres > 0 && tres <= 200)) { print "#   tres " f[12]; bad = 1 }
		want = int(a * 1000 + F * 100000 + j * 100 + p * 10 + tres + f[6] - f[7])
		if (prio - want > 1 || want - prio > 1) { print "#   priority " prio " != formula " want; bad = 1 }
		exit bad
	}'
}
sb_check "sprio factors follow the formula for $low's job" _sprio_formula "$jlow" "$low"
sb_check "sprio factors follow the formula for $high's job" _sprio_formula "$jhigh" "$high"
sb_check "$high's job has the higher priority" \
	test "$(squeue -h -j "$jhigh" -o %Q)" -gt "$(squeue -h -j "$jlow" -o %Q)"
scancel "$blocker"
_one_started() { squeue -h -j "$jlow,$jhigh" -t RUNNING,COMPLETING -o %i | grep -q .; }
sb_wait_for 60 _one_started
sb_check_eq "the job of the user with the higher fair share starts first" \
	"$jhigh" squeue -h -j "$jlow,$jhigh" -t RUNNING,COMPLETING -o %i
sb_check "both jobs finish" sb_wait_for 60 sb_queue_empty

# ---- restart ----------------------------------------------------------------
n=$(_passes level_based)
sb_wait_for 20 _more_passes level_based $((n + 2))
before=$(sshare -a -P -n -o Account,User,RawUsage,FairShare,LevelFS | sed 's/^ *//')
sb_ctld_stop
sb_check "slurmctld saved the decay state (multifactor's file)" test -s "$SB_DIR/state/ctld/priority_last_decay_ran"
sb_check_eq "... readable by SlurmUser alone, as multifactor writes it" 600 \
	stat -c %a "$SB_DIR/state/ctld/priority_last_decay_ran"
sb_check "slurmctld restarts" sb_ctld_start 60
n=$(_passes level_based)
sb_check "fair-share passes resume" sb_wait_for 30 _more_passes level_based $((n + 2))
sb_check_eq "usage, FairShare and LevelFS survive the restart" "$before" \
	sh -c "sshare -a -P -n -o Account,User,RawUsage,FairShare,LevelFS | sed 's/^ *//'"
sb_check "the restarted slurmctld read its last pass time" \
	grep -q 'priority/bucket: _read_state: PRIO: last pass at' "$CTLD_LOG"

# ---- a torn decay state file ------------------------------------------------
# (multifactor stops slurmctld here; priority/bucket logs it and goes on)
DECAY=$SB_DIR/state/ctld/priority_last_decay_ran
sb_ctld_stop
printf 'torn' >"$DECAY"
touch -d '1 hour ago' "$DECAY"
sb_check "slurmctld starts with a torn decay state file" sb_ctld_start 60
sb_check "... one error line names the file" grep -q \
	"error: priority/bucket: $DECAY is not a priority state file; ignoring it (usage decay restarts from now)" \
	"$CTLD_LOG"
sb_check "... PriorityUsageResetPeriod counts from the file's last write" \
	grep -q "priority/bucket: _read_state: $DECAY: PriorityUsageResetPeriod counts from its last write" \
	"$CTLD_LOG"
sb_check "... the next pass writes it whole again (two times, 16 bytes)" \
	sb_wait_for 30 sh -c "[ \$(stat -c %s '$DECAY') = 16 ]"

# ---- bad PriorityParameters at start ----------------------------------------
sb_ctld_stop
sed -i "s/^PriorityParameters=.*/PriorityParameters=algorithm=level_based,levels=20/" "$SLURM_CONF"
: >"$SB_DIR/log/slurmctld.out"
# sb_ctld_start returns as soon as slurmctld exits (or after 30 s)
if sb_ctld_start 30; then started=yes; else started=no; fi
sb_check_eq "slurmctld refuses to start with levels=20" no echo "$started"
sb_ctld_stop
sb_check "one clear line names the key and the value" grep -q \
	"fatal: priority/bucket: bad value '20' for PriorityParameters key 'levels' (want an integer from 1 to 16)" \
	"$SB_DIR/log/slurmctld.out" "$CTLD_LOG"

sb_cluster_stop
sb_check "every daemon the harness started is gone ($(sb_pids))" sb_all_gone
