#!/bin/bash
# t31-sbucket-why-limits - jobs held by licences and QOS limits on a live
# select/bucket cluster with accounting (#25). Three scenarios run side by
# side on nodes that are never the constraint (10 nodes of 2 CPUs, each
# job on a whole node):
#   lic   Licenses=lic:2: holders A (-L lic:1 -t 1) and B (-t 2); W1 waits
#         for a licence, W2 (-t 3) comes later with a higher priority
#         (nice -1000): W2 must start at A's end, W1 at B's end.
#   grp   QOS lim4 GrpTRES=cpu=4: holders G1 (-N1 -c2 -t 1) and G2
#         (-t 2); GW (-N1 -c2) waits (QOSGrpCpuLimit) and starts at G1's
#         end.
#   user  QOS limu MaxTRESPerUser=cpu=2: sbl1 holds U1 (-N1 -c2 -t 1),
#         sbl2 runs U2 (-t 2); sbl1's UW (-N1 -c2) waits
#         (QOSMaxCpuPerUserLimit) and starts at U1's end: U2 is another
#         user's and does not hold sbl1's limit.
# Every job asks for -N1 and the QOS ones for -c2, not -n2: select/bucket
# places such jobs itself, so sbucket why plans them (a node range or
# more tasks than nodes go to the base: node_range, task_count).
# Then SchedulerParameters gets bf_licenses (scontrol reconfigure) and the
# licence scenario runs again on licence blic (BA, BB, BW1, BW2): there
# backfill plans licences, so squeue --start gives the waiting jobs a
# start. A holder ends at StartTime + TimeLimit, once slurmctld's
# time-limit sweep (every 30 s, PERIODIC_TIMEOUT) sees it: a waiting job
# must start no earlier than its holder's end and within SB_SWEEP_ALLOW
# seconds (default 45) of it. squeue --start's answer for every waiting
# job is printed.
#
# sb-live: long (about 3 min: its holders run to time limits of 1 and 2 min)
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# SB_LIMITS_CAPTURE=DIR keeps what scontrol, squeue, sprio, sshare and
# sacctmgr printed while every waiting job waits (DIR, and DIR/bf_licenses
# after bf_licenses is on), with DIR/notes: each holder's start and end,
# each waiting job's reason, squeue --start's answer and the time it
# really started, DIR/names (each job's name here and its id) and what
# sbucket why printed (why.ID, why-json.ID); for the golden cases of
# sbucket why.
. "$(dirname "$0")/../cluster/harness.sh"

SBUCKET=${SBUCKET:-$SB_TOP_BUILDDIR/tools/sbucket}
ALLOW=${SB_SWEEP_ALLOW:-45}
CAP=${SB_LIMITS_CAPTURE:-}
# the one time format sbucket why reads (it sets it for itself too)
export SLURM_TIME_FORMAT=standard

# select/bucket over select/cons_tres (whole nodes: the partition is
# OverSubscribe=EXCLUSIVE). Not over select/linear: from 23.02 on, its
# job_test refuses a job whose licences are not free now in every mode
# but TEST_ONLY, WILL_RUN included (license_job_test at time(NULL)), so
# backfill with bf_licenses never plans a licence job there and squeue
# --start stays N/A (seen on 24.11); cons_tres tests licences over time.
SB_BASE=${SB_BASE:-cons_tres}
sb_cluster_init t31
sb_nodes "n[1-10]" "CPUs=2 RealMemory=2000"
sb_accounting
sb_select bucket
sb_conf "PriorityType=priority/bucket"
sb_conf "PriorityWeightAge=1000"
sb_conf "PriorityMaxAge=1-0"
# QOS limits enforced; no 'safe' (it would hold jobs by their time limit)
sb_conf "AccountingStorageEnforce=associations,limits,qos"
sb_conf "Licenses=lic:2,blic:2"
sb_conf "SchedulerParameters=bf_interval=1,bf_resolution=1"
sb_cluster_start
cd "$SB_DIR/jobs"

# ---- QOS, users ----------------------------------------------------------
sb_user_add sbl1 sbl2 sbl3
sacctmgr -i add qos lim4 GrpTRES=cpu=4 >/dev/null &&
sacctmgr -i add qos limu MaxTRESPerUser=cpu=2 >/dev/null &&
sacctmgr -i add account acctl >/dev/null &&
sacctmgr -i add user sbl1,sbl2,sbl3 Account=acctl QOS=normal,lim4,limu \
	DefaultQOS=normal >/dev/null
sb_check "sacctmgr adds QOS lim4 (GrpTRES=cpu=4), limu (MaxTRESPerUser=cpu=2) and users sbl1-3" \
	test $? = 0
sb_check "slurmctld knows the users and QOS" \
	sb_users_known 30 sbl1:acctl:limu sbl2:acctl:limu sbl3:acctl:lim4

# ---- helpers ---------------------------------------------------------------
_state() { squeue -h -j "$1" -o %T 2>/dev/null; }
_running() { [ "$(_state "$1")" = RUNNING ]; }
_all_running() { local j; for j in "$@"; do _running "$j" || return 1; done; }
_field() { scontrol show job "$1" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1; }
_epoch() { date -d "$1" +%s 2>/dev/null; }
_reason() { squeue -h -j "$1" -o %r 2>/dev/null; }
_reason_is() { [ "$(_reason "$1")" = "$2" ]; }
_sq_start() { squeue -h --start -j "$1" -o '%S|%Y' 2>/dev/null; }
_sq_start_epoch() { local s; s=$(_sq_start "$1"); _epoch "${s%%|*}"; }
_planned() { [ -n "$(_sq_start_epoch "$1")" ]; }
# Every job -N1: without it a job's node count is a range (NumNodes=1
# with no upper end) and select/bucket leaves it to its base (node_range).
_sub() {	# USER ARGS... -> job id
	local u=$1
	shift
	if [ "$u" = root ]; then
		sbatch --parsable -N1 -o /dev/null "$@" --wrap 'sleep 600'
	else
		runuser -u "$u" -- sbatch --parsable -N1 -A acctl -o /dev/null "$@" --wrap 'sleep 600'
	fi
}

# ---- sbucket why ------------------------------------------------------------
# Its --json's job object (the "job" line, sbucket(1) "JSON") and its
# planned start (the object's first "start", before any nested object).
_jjob() { sed -n 's/^"job":\(.*\),$/\1/p' <<<"$1"; }
_jstart() { _jjob "$1" | sed -n 's/^{[^{]*"start":\(null\|[0-9]*\),.*/\1/p'; }
# its "limits" array
_jlimits() { _jjob "$1" | sed -n 's/.*"limits":\[\(.*\)\],"likely_start".*/\1/p'; }
# what each waiting job's "limits" must say (after its "reason")
declare -A LIMIT_IS=([W1]='"scope":"license","owner":"lic"'
	[W2]='"scope":"license","owner":"lic"'
	[BW1]='"scope":"license","owner":"blic"'
	[BW2]='"scope":"license","owner":"blic"'
	[GW]='"scope":"qos","owner":"lim4","of":null,"tres":"cpu","total":4'
	[UW]='"scope":"qos-user","owner":"limu","of":"sbl1","tres":"cpu","total":2')
declare -A PLANNED=()
_hm() { date -d @"$1" +%FT%T; }
# sbucket why for waiting job NAME, whose holder ends at END[HOLDER]:
# planned start, the limit it names, the text's lines, squeue --start.
_why_checks() {	# NAME
	local n=$1 j=${JOB[$1]} h=${HOLDER[$1]} json text lim ps sq
	json=$("$SBUCKET" why --json "$j" 2>&1)
	text=$("$SBUCKET" why "$j" 2>&1)
	sed 's/^/#   /' <<<"$text"
	if [ -n "${WHY_DIR:-}" ]; then
		echo "$text" >"$WHY_DIR/why.$j"
		echo "$json" >"$WHY_DIR/why-json.$j"
	fi
	ps=$(_jstart "$json")
	PLANNED[$n]=$ps
	sq=$(_sq_start_epoch "$j")
	note "sbucket why $n job $j: planned_start ${ps:-?} ($( [ -n "$ps" ] && [ "$ps" != null ] && _hm "$ps")), squeue --start '$(_sq_start "$j")' (${sq:-none}), $h's end ${END[$h]}"
	sb_check "sbucket why $n: planned start ${ps:-?} is $h's end ${END[$h]}" \
		test "$ps" = "${END[$h]}"
	sb_check "sbucket why $n: the text says Planned start: $(_hm "${END[$h]}")" \
		grep -q "^Planned start: $(_hm "${END[$h]}")" <<<"$text"
	lim=$(_jlimits "$json")
	sb_check "sbucket why $n: its limits name ${WANT[$n]}: ${LIMIT_IS[$n]}" \
		grep -qF "\"reason\":\"${WANT[$n]}\",\"scope\":" <<<"$lim"
	sb_check "... ${LIMIT_IS[$n]}" grep -qF "${LIMIT_IS[$n]}" <<<"$lim"
	sb_check "sbucket why $n: $h (job ${JOB[$h]}) is among its holders" \
		grep -qE "\\{\"job_id\":\"${JOB[$h]}\",\"user\":\"[^\"]*\",\"units\":[0-9]+,\"end\":${END[$h]}\\}" <<<"$lim"
}

declare -A JOB=() END=() REASON=() SQ=() STARTED=()
NOTES=$SB_DIR/notes
: >"$NOTES"
note() { echo "$*" >>"$NOTES"; echo "# $*"; }

_capture() {	# DIR
	local d=$1 j
	[ -n "$d" ] || return 0
	mkdir -p "$d"
	{
		scontrol show config >"$d/config"
		[ -f "$SB_DIR/etc/bucket.conf" ] && cp "$SB_DIR/etc/bucket.conf" "$d/"
		cp "$SLURM_CONF" "$d/slurm.conf"
		scontrol show lic >"$d/lic"
		scontrol show lic -o >"$d/lic-o"
		scontrol show assoc_mgr flags=assoc,qos >"$d/assoc_mgr"
		scontrol show assoc_mgr flags=users,assoc,qos >"$d/assoc_mgr-users"
		scontrol show jobs -o >"$d/jobs"
		scontrol show nodes -o >"$d/nodes"
		scontrol show partition -o >"$d/partition"
		scontrol show res -o >"$d/res"
		sprio -h -o '%i|%Y|%A|%F|%J|%P|%Q' >"$d/sprio"
		sprio -l >"$d/sprio-l"
		sshare -a -P -n -o Account,User,RawShares,RawUsage >"$d/sshare"
		sacctmgr show qos -P >"$d/sacctmgr-qos"
		sacctmgr show assoc -P >"$d/sacctmgr-assoc"
		for j in $(squeue -h -t PD -o %i); do
			squeue -h --start -j "$j" -o '%S|%Y' >"$d/start.$j"
		done
		date +%s >"$d/now"
	} 2>>"$d/errors"
	[ -s "$d/errors" ] || rm -f "$d/errors"
}

# the holders: submitted together, all running before any waiter comes
_holders() {	# "NAME|USER|ARGS"...
	local l n u a ids=()
	for l in "$@"; do
		IFS='|' read -r n u a <<<"$l"
		# shellcheck disable=SC2086
		JOB[$n]=$(_sub "$u" $a)
		ids+=("${JOB[$n]}")
	done
	sb_wait_for 30 _all_running "${ids[@]}"
}
_record_holder() {	# NAME
	local j=${JOB[$1]} s e
	s=$(_field "$j" StartTime) e=$(_field "$j" EndTime)
	END[$1]=$(_epoch "$e")
	note "holder $1 job $j user $(_field "$j" UserId | sed 's/(.*//') start $s ($(_epoch "$s")) end $e (${END[$1]}) limit $(_field "$j" TimeLimit)"
}

# ---- phase 1: lic, grp and user, without bf_licenses ------------------------
# (the QOS holders a few seconds after the licence holders: their ends
# differ, so a start time is seen to come from one or the other)
sb_check "holders A, B (lic) run" _holders \
	"A|root|-L lic:1 -t 1" "B|root|-L lic:1 -t 2"
sleep 3
sb_check "holders G1, G2 (lim4), U1, U2 (limu) run" _holders \
	"G1|sbl3|-q lim4 -c2 -t 1" "G2|sbl3|-q lim4 -c2 -t 2" \
	"U1|sbl1|-q limu -c2 -t 1" "U2|sbl2|-q limu -c2 -t 2"
for n in A B G1 G2 U1 U2; do _record_holder "$n"; done
declare -A WANT=([W1]=Licenses [W2]=Licenses [GW]=QOSGrpCpuLimit
	[UW]=QOSMaxCpuPerUserLimit [BW1]=Licenses [BW2]=Licenses)
# Each first waiting job has its reason before the second comes: the
# main scheduler looks at new batch jobs together (batch_sched_delay).
JOB[W1]=$(_sub root -L lic:1 -t 1)
sb_wait_for 20 _reason_is "${JOB[W1]}" Licenses
# later, and ahead of W1: root may lower a job's nice below 0
# (-t 3: planned from A's end, W2 must not end before B, or W1 could
# take W2's licence first: A and B may start a second apart)
JOB[W2]=$(_sub root -L lic:1 -t 3 --nice=-1000)
JOB[GW]=$(_sub sbl3 -q lim4 -c2 -t 1)
JOB[UW]=$(_sub sbl1 -q limu -c2 -t 1)
# the holder each waiting job waits for
declare -A HOLDER=([W1]=B [W2]=A [GW]=G1 [UW]=U1 [BW1]=BB [BW2]=BA)
for n in W1 W2 GW UW; do
	sb_check "$n (job ${JOB[$n]}) pends for ${WANT[$n]}" \
		sb_wait_for 30 _reason_is "${JOB[$n]}" "${WANT[$n]}"
	REASON[$n]=$(_reason "${JOB[$n]}")
	note "waiting $n job ${JOB[$n]} reason ${REASON[$n]} (state $(_state "${JOB[$n]}"))"
done
_prio() { sprio -h -o '%i %Y' | awk -v j="$1" '$1 == j { print $2 }'; }
p1=$(_prio "${JOB[W1]}") p2=$(_prio "${JOB[W2]}")
note "sprio: W1 priority $p1, W2 priority $p2"
sb_check "sprio puts W2 ($p2) ahead of W1 ($p1)" test "${p2:-0}" -gt "${p1:-0}"
# backfill passes every second: let one see every waiting job
sleep 3
_capture "$CAP"
for n in W1 W2 GW UW; do
	SQ[$n]=$(_sq_start "${JOB[$n]}")
	note "squeue --start $n job ${JOB[$n]}: '${SQ[$n]}' (its holder ${HOLDER[$n]} ends $(date -d @"${END[${HOLDER[$n]}]}" +%FT%T))"
done
[ -n "$CAP" ] && for n in A B W1 W2 G1 G2 GW U1 U2 UW; do
	echo "$n ${JOB[$n]}"
done >"$CAP/names"
WHY_DIR=$CAP
for n in W2 W1 GW UW; do _why_checks "$n"; done
# U2 runs in limu too, but as sbl2: not one of UW's holders
_holds_not() { ! _jlimits "$("$SBUCKET" why --json "$1" 2>&1)" | grep -qF "{\"job_id\":\"$2\""; }
sb_check "sbucket why UW: U2 (job ${JOB[U2]}, sbl2's) does not hold sbl1's limit" \
	_holds_not "${JOB[UW]}" "${JOB[U2]}"

# ---- phase 2: bf_licenses, on licence blic ----------------------------------
sed -i 's/^SchedulerParameters=.*/&,bf_licenses/' "$SLURM_CONF"
scontrol reconfigure >/dev/null 2>&1
sb_check "SchedulerParameters has bf_licenses after scontrol reconfigure" \
	sb_wait_for 30 sh -c "scontrol show config | grep -q '^SchedulerParameters .*bf_licenses'"
sb_check "holders BA, BB (blic) run" _holders \
	"BA|root|-L blic:1 -t 1" "BB|root|-L blic:1 -t 2"
for n in BA BB; do _record_holder "$n"; done
# With bf_licenses the main scheduler stops at the first job blocked on
# licences (job_scheduler.c): a job behind it keeps Reason=None. BW1 and
# BW2 go ahead of W1 and W2, BW2 ahead of BW1.
JOB[BW1]=$(_sub root -L blic:1 -t 1 --nice=-2000)
sb_wait_for 20 _reason_is "${JOB[BW1]}" Licenses
JOB[BW2]=$(_sub root -L blic:1 -t 3 --nice=-3000)
for n in BW1 BW2; do
	sb_check "$n (job ${JOB[$n]}) pends for ${WANT[$n]}" \
		sb_wait_for 30 _reason_is "${JOB[$n]}" "${WANT[$n]}"
	REASON[$n]=$(_reason "${JOB[$n]}")
	note "waiting $n job ${JOB[$n]} reason ${REASON[$n]} (bf_licenses)"
	sb_check "with bf_licenses squeue --start plans $n" \
		sb_wait_for 30 _planned "${JOB[$n]}"
done
sleep 2
_capture "${CAP:+$CAP/bf_licenses}"
for n in BW1 BW2 W1 W2 GW UW; do
	SQ[$n.bf]=$(_sq_start "${JOB[$n]}")
	note "squeue --start (bf_licenses) $n job ${JOB[$n]}: '${SQ[$n.bf]}' (its holder ${HOLDER[$n]} ends $(date -d @"${END[${HOLDER[$n]}]}" +%FT%T))"
done
[ -n "$CAP" ] && for n in BA BB BW1 BW2; do
	echo "$n ${JOB[$n]}"
done >"$CAP/bf_licenses/names"
# With bf_licenses backfill plans licences: its start is the peer
WHY_DIR=${CAP:+$CAP/bf_licenses}
for n in BW2 BW1; do _why_checks "$n"; done
# (W1 and W2 printed only: from 23.11 on 'scontrol reconfigure' restarts
# slurmctld, and the pending jobs it recovers show NumNodes=1, no longer
# 1-1, which select/bucket leaves to its base)
for n in BW2 BW1 W2 W1; do
	ps=$(_jstart "$("$SBUCKET" why --json "${JOB[$n]}" 2>&1)")
	sq=$(_sq_start_epoch "${JOB[$n]}")
	note "bf_licenses: $n job ${JOB[$n]}: sbucket why ${ps:-?}, squeue --start ${sq:-none} (NumNodes=$(_field "${JOB[$n]}" NumNodes))"
	[ "$n" = W2 ] || [ "$n" = W1 ] && continue
	# (bf_resolution=1: backfill's times are whole seconds, as ours)
	sb_check "bf_licenses: sbucket why $n's planned start ($ps) equals squeue --start's (${sq:-none})" \
		test -n "$sq" -a "$ps" = "$sq"
done

# ---- the starts ---------------------------------------------------------------
WAITERS="W1 W2 GW UW BW1 BW2"
_poll_starts() {
	local n
	for n in $WAITERS; do
		[ -n "${STARTED[$n]:-}" ] && continue
		_running "${JOB[$n]}" && STARTED[$n]=$(_epoch "$(_field "${JOB[$n]}" StartTime)")
	done
	for n in $WAITERS; do
		[ -n "${STARTED[$n]:-}" ] || return 1
	done
}
deadline=$((${END[BB]} + ALLOW + 15))
while [ "$(date +%s)" -lt $deadline ] && ! _poll_starts; do
	sleep 1
done
for n in A B G1 G2 U1 U2 BA BB; do
	e=$(_epoch "$(_field "${JOB[$n]}" EndTime)")
	note "holder $n job ${JOB[$n]} ended $(date -d @"$e" +%FT%T) ($e), $((e - ${END[$n]})) s after its time limit (sweep lag), state $(_field "${JOB[$n]}" JobState)"
done
for n in $WAITERS; do
	h=${HOLDER[$n]} s=${STARTED[$n]:-}
	if [ -n "$s" ]; then
		note "started $n job ${JOB[$n]} at $(date -d @"$s" +%FT%T) ($s), $((s - ${END[$h]})) s after $h's end ${END[$h]}"
	else
		note "started $n job ${JOB[$n]}: not by $(date -d @"$deadline" +%FT%T)"
	fi
	sb_check "$n starts at $h's end ${END[$h]} or up to ${ALLOW} s later (${s:-never})" \
		test -n "$s" -a "${s:-0}" -ge "${END[$h]}" -a "${s:-0}" -le $((${END[$h]} + ALLOW))
	p=${PLANNED[$n]:-}
	[[ $p =~ ^[0-9]+$ ]] || p=0
	sb_check "$n starts by sbucket why's planned start ${PLANNED[$n]:-?} + ${ALLOW} s (${s:-never}, $(( ${s:-0} - p )) s after it)" \
		test -n "$s" -a "$p" -gt 0 -a "${s:-0}" -ge "$p" -a "${s:-0}" -le $((p + ALLOW))
done
sb_check "W2 (higher priority, later) started before W1" \
	test "${STARTED[W2]:-9999999999}" -lt "${STARTED[W1]:-0}"
sb_check "BW2 started before BW1" \
	test "${STARTED[BW2]:-9999999999}" -lt "${STARTED[BW1]:-0}"
sb_check "UW started before U2's end: another user's job does not hold sbl1's limit" \
	test "${STARTED[UW]:-9999999999}" -lt "${END[U2]}"

if [ -n "$CAP" ]; then
	{ echo "series $SB_SERIES"; cat "$NOTES"; } >"$CAP/notes"
	cp "$SB_DIR/log/slurmctld.log" "$CAP/slurmctld.log" 2>/dev/null
fi

sb_cluster_stop
sb_check "every daemon the harness started is gone ($(sb_pids))" sb_all_gone
