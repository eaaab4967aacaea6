#!/bin/bash
# t28-sbucket-why - 'sbucket why JOBID' on a live select/bucket cluster: a
# reservation ahead on one node, a running job that took that node while it
# was still free (busy-later), a blocked top job that must wait for the
# reservation to end, a short job backfilled beside it, and a request that
# can never run (its second node is drained). sbucket why names the right
# blockers, and its planned start equals squeue --start; for a job it
# places and one the base places (-w) it gives the path and the reason the
# plugin itself logged (DebugFlags=SelectType). Jobs with hostile names
# (Key=value text, a newline, quotes, 1,024 characters) change nothing
# sbucket reads, from squeue's JSON or from scontrol's text. A client
# of the public libslurm.so (list_public) lists the same jobs, steps and
# nodes as squeue and scontrol: select/bucket loads into it.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# SB_WHY_CAPTURE=DIR keeps what scontrol and squeue printed, for the
# golden cases of testsuite/golden/why.
. "$(dirname "$0")/../cluster/harness.sh"

SBUCKET=${SBUCKET:-$SB_TOP_BUILDDIR/tools/sbucket}
sb_cluster_init t28
sb_nodes "n[1-4]" "CPUs=2 RealMemory=2000 Features=thin"
sb_nodes "f[1-2]" "CPUs=4 RealMemory=4000 Features=fat"
SB_CTLD_DEBUG=${SB_CTLD_DEBUG:-verbose}
sb_select bucket
sb_conf "SchedulerParameters=bf_interval=1,bf_resolution=1"
sb_conf "DebugFlags=SelectType"
sb_cluster_start
LOG=$SB_DIR/log/slurmctld.log
cd "$SB_DIR/jobs"

_state() { squeue -h -j "$1" -o %T; }
_running() { [ "$(_state "$1")" = RUNNING ]; }
_epoch() { date -d "$1" +%s 2>/dev/null; }
_sq_start() { squeue -h --start -j "$1" -o %S; }
_planned() { local s; s=$(_sq_start "$1"); [ -n "$s" ] && [ "$s" != N/A ]; }
_why() { "$SBUCKET" why "$@" 2>&1; }
# sbucket why JOB into $out, shown in the log
_explain() { out=$(_why "$@"); sed 's/^/#   /' <<<"$out"; }

# a maintenance reservation on n4 in 10 minutes, for an hour
scontrol create reservation ReservationName=maint StartTime=now+10minutes \
	Duration=60 Nodes=n4 Users=root Flags=maint >/dev/null
sb_check "a reservation on n4 starts in 10 minutes" \
	sh -c "scontrol show res maint | grep -q 'State=INACTIVE'"

# A: 3 thin nodes for 5 minutes: n4 is free until the reservation, long
# enough, and select/bucket takes such busy-later nodes first
a=$(sbatch --parsable -N3 -C thin -t 5 -o /dev/null --wrap 'sleep 600')
sb_check "job A (3 thin nodes, 5 min) runs" sb_wait_for 30 _running "$a"
sb_check_eq "... on n[1-2,4]: the busy-later node n4 first" "n[1-2,4]" \
	squeue -h -j "$a" -o %N
_explain "$a"
sb_check "sbucket why A: placed by select/bucket" \
	grep -q "^Placed by:  select/bucket, policy FIRSTAVAILABLE" <<<"$out"
sb_check "sbucket why A: its 3 thin nodes from one bucket" \
	grep -q "3 of 4: n\[1-2,4\]" <<<"$out"
sb_check "... as the plugin logged it (bucket path)" \
	grep -q "JobId=$a RUN_NOW: run (bucket path, policy FIRSTAVAILABLE) nodes n\[1-2,4\]" "$LOG"
sb_check "sbucket why A: n4 was busy-later, and A ends before maint" \
	grep -q "Busy-later: n4 was free until reservation maint .*; the job ends before it starts" <<<"$out"

# B: all 4 thin nodes for 10 minutes: n4's gap before maint is too short,
# so B waits for maint to end
b=$(sbatch --parsable -N4 -C thin -t 10 -o /dev/null --wrap 'sleep 600')
sb_check "the top job B (4 thin nodes) gets a planned start" sb_wait_for 30 _planned "$b"
_explain "$b"
sb_check "sbucket why B: pending, placed by select/bucket" \
	grep -q "^Placed by:  select/bucket" <<<"$out"
sb_check "sbucket why B: 4 matching thin nodes: 1 free, 3 busy" \
	grep -Eq "^  n\[1-4\] +2 CPUs, 2000 MB, thin +1 +0 +3 +0 +0$" <<<"$out"
sb_check "sbucket why B: waits for job A" \
	grep -Eq "^  running job $a on n\[1-2,4\] " <<<"$out"
sb_check "sbucket why B: the reservation maint is in its way" \
	grep -Eq "^  reservation maint on n4 " <<<"$out"
maint_end=$(_epoch "$(scontrol show res maint | sed -n 's/.*EndTime=\([^ ]*\).*/\1/p')")
json=$(_why --json "$b")
wr=$(sed -n 's/.*"will_run_start":\([0-9]*\).*/\1/p' <<<"$json")
ours=$(sed -n 's/^"job":{[^{]*"start":\([0-9]*\),.*/\1/p' <<<"$json")
theirs=$(_epoch "$(_sq_start "$b")")
sb_check "sbucket why B: WILL_RUN's start is the end of maint ($wr, $maint_end)" \
	test "$wr" = "$maint_end"
sb_check "sbucket why B: planned start ($ours) equals squeue --start ($theirs)" \
	test "$ours" = "$theirs"
sb_check "sbucket why B: the text says so too" \
	grep -q "^squeue --start: .* (the same)" <<<"$out"

# C: one thin node for 2 minutes fits on n3 before B: backfilled
c=$(sbatch --parsable -N1 -C thin -t 2 -o /dev/null --wrap 'sleep 600')
sb_check "job C (1 thin node, 2 min) is backfilled" sb_wait_for 30 _running "$c"
_explain "$c"
sb_check "sbucket why C: running on n3, by select/bucket" \
	grep -q "^Job $c .*is running on n3 since" <<<"$out"
sb_check "sbucket why C: started by backfill" \
	grep -q "^Started by: backfill" <<<"$out"
sb_check "B keeps its planned start" test "$(_epoch "$(_sq_start "$b")")" = "$ours"

# D: 2 fat nodes while f2 is drained: never
scontrol update NodeName=f2 State=DRAIN Reason=t28 >/dev/null
d=$(sbatch --parsable -N2 -C fat -t 5 -o /dev/null --wrap 'sleep 600')
sb_check "job D (2 fat nodes, f2 drained) stays pending" \
	sh -c "sleep 3; [ \"\$(squeue -h -j $d -o %T)\" = PENDING ]"
_explain "$d"
sb_check "sbucket why D: f1 free, f2 down" \
	grep -Eq "^  f\[1-2\] +4 CPUs, 4000 MB, fat +1 +0 +0 +1 +0$" <<<"$out"
sb_check "sbucket why D: never" \
	grep -q "^Planned start: none: even when every running job has ended" <<<"$out"
sb_check "sbucket why D: squeue --start has no start either" \
	grep -q "^squeue --start: no planned start (the same)" <<<"$out"

# Hostile names (issue #49): text a user writes must not stand in for a
# field of a job. Held jobs (they change nobody's plan) named with
# "Key=value" text that claims root, a top priority, a running state on
# nodes that do not exist, a newline followed by a record of its own,
# separators and quotes, 1,024 characters; Slurm takes all of them.
long=$(printf 'L%.0s' $(seq 1 1024))
hostile=()
for name in "x UserId=root(0) Priority=4294967295 JobState=RUNNING NodeList=n[1-64] EndTime=2030-01-01T00:00:00" \
	"y JobState=RUNNING NodeList=nosuch" \
	$'nl\nJobId=999 JobName=fake UserId=root(0) Priority=4294967295 JobState=RUNNING Reason=None NodeList=f1' \
	"q'\"|;,=" "$long"; do
	hostile+=("$(sbatch --parsable --hold -N1 -C thin -t 5 -o /dev/null \
		-J "$name" --wrap 'sleep 600')")
done
sb_check "Slurm takes the ${#hostile[@]} hostile names (newline and 1,024 characters too)" \
	test "${#hostile[@]}" = 5 -a -n "${hostile[4]}"
sb_check "... and prints the newline in 'scontrol show jobs -o' as it is: a line of its own" \
	sh -c "scontrol show jobs -o | grep -q '^JobId=999 JobName=fake'"
_not_forged() { ! grep -Eq 'n\[1-64\]|nosuch|^999 ' <<<"$fc"; }
# squeue that prints no JSON, as a Slurm built without it: the text path
printf '#!/bin/sh\n[ "$1" = --json ] && { echo "squeue: unrecognized option" >&2; exit 1; }\nexec squeue "$@"\n' \
	>"$SB_DIR/squeue-text"
chmod 755 "$SB_DIR/squeue-text"
# sbucket through the JSON path (Slurm's own squeue) or the text one
_sb() {
	if [ $path = json ]; then
		"$SBUCKET" "$@"
	else
		SBUCKET_SQUEUE=$SB_DIR/squeue-text "$SBUCKET" "$@"
	fi
}
for path in json text; do
	fc=$(_sb forecast 2>"$SB_DIR/fc.err")
	rc=$?
	sed 's/^/#   /' <<<"$fc" | cut -c1-160
	sed 's/^/#   stderr: /' "$SB_DIR/fc.err" | cut -c1-160
	sb_check "forecast ($path): reads the queue with hostile names (exit $rc)" test $rc = 0
	sb_check "forecast ($path): B keeps its planned start" \
		grep -Eq "^$b +root +debug +n\[1-4\] +$(_sq_start "$b") " <<<"$fc"
	sb_check "forecast ($path): no job claims n[1-64], nosuch or job 999" \
		_not_forged
	if [ $path = json ]; then
		sb_check "forecast (json): every hostile job is read, held" \
			test "$(grep -Ec "^(${hostile[0]}|${hostile[1]}|${hostile[2]}|${hostile[3]}|${hostile[4]}) " <<<"$fc")" = 5
		out=$(_why "${hostile[0]}")
		sb_check "why (json): the job named 'x UserId=root(0) ... NodeList=n[1-64]' is a held pending job" \
			grep -q "^Job ${hostile[0]} (user root, partition debug, priority 0) is pending (JobHeldUser)" <<<"$out"
	else
		# (26.05 prints the name twice in a record: the newline makes
		# two lines claiming job 999, and the second is noted first as
		# a JobId named twice; either note says it is not read)
		sb_check "forecast (text): the records a name could forge are skipped with a note, the others read" \
			test "$(grep -o '^sbucket: note: job [^ ]* is not read: ' "$SB_DIR/fc.err" | sort -u | wc -l)" = 4
		sb_check "... among them the line the newline made (no job 999)" \
			grep -Eq '^sbucket: note: job 999 is not read: (squeue lists no such job|another record names the same JobId)' "$SB_DIR/fc.err"
		sb_check "forecast (text): the names with quotes and 1,024 characters are read" \
			test "$(grep -Ec "^(${hostile[3]}|${hostile[4]}) " <<<"$fc")" = 2
	fi
	out=$(_sb why "$b" 2>&1)
	sb_check "why B ($path): unchanged, planned as squeue --start" \
		grep -q "^squeue --start: .* (the same)" <<<"$out"
done

if [ -n "${SB_WHY_CAPTURE:-}" ]; then
	mkdir -p "$SB_WHY_CAPTURE"
	{
		scontrol show config >"$SB_WHY_CAPTURE/config"
		# 26.05 shows no select section: sbucket why reads the file
		cp "$SB_DIR/etc/bucket.conf" "$SB_WHY_CAPTURE/bucket.conf"
		scontrol show nodes -o >"$SB_WHY_CAPTURE/nodes"
		scontrol show partition -o >"$SB_WHY_CAPTURE/partition"
		scontrol show res -o >"$SB_WHY_CAPTURE/res"
		scontrol show jobs -o >"$SB_WHY_CAPTURE/jobs"
		squeue --json -t all >"$SB_WHY_CAPTURE/squeue.json"
		squeue -h -t all -o %A >"$SB_WHY_CAPTURE/squeue.ids"
		for j in "$a" "$b" "$c" "$d" "${hostile[@]}"; do
			squeue -h --start -j "$j" -o '%S|%Y' >"$SB_WHY_CAPTURE/start.$j"
		done
		date +%s >"$SB_WHY_CAPTURE/now"
		echo "$a $b $c $d ${hostile[*]}" >"$SB_WHY_CAPTURE/ids"
	} 2>/dev/null
fi

# E: names its node (-w f1): the base places it, for the plugin's reason
e=$(sbatch --parsable -w f1 -t 1 -o /dev/null --wrap 'sleep 600')
sb_check "job E (-w f1) runs" sb_wait_for 30 _running "$e"
_explain "$e"
sb_check "sbucket why E: the base placed it, as it names its node" \
	grep -Eq "^Placed by:  select/(linear|cons_tres), select/bucket's base: the job names nodes it must get" <<<"$out"
sb_check "... for the reason the plugin logged (required_nodes)" \
	grep -Eq "JobId=$e RUN_NOW: select/(linear|cons_tres) decides \(required_nodes\)" "$LOG"

# A client of Slurm's public libslurm.so (a site's program, pyslurm),
# not of libslurmfull as Slurm's own commands: reading jobs or nodes
# loads select/bucket into it where select data travel with them (22.05
# and 24.11), to unpack them. It lists what squeue and scontrol list:
# ours (A, C), the base's (E), pending and held jobs, steps, allocated
# CPUs (asked of the select plugin there). Before, 22.05's died of it:
# "fatal: Can't find plugin for select/bucket".
LIST_PUBLIC=$SB_TOP_BUILDDIR/testsuite/live/list_public
if [ ! -x "$LIST_PUBLIC" ]; then
	echo "skip $((SB_NCHECK += 1)) - no $LIST_PUBLIC (built with the check programs where configure finds libslurm.so): a client of the public API is not tested"
else
	_public() { "$LIST_PUBLIC" "$1" | sort; }
	sb_check_eq "a libslurm.so client lists every job, as squeue" \
		"$(squeue -h -t all -o '%i %N' | sort)" _public jobs
	sb_check_eq "... every step, as squeue -s" \
		"$(squeue -h -s -o '%i %N' | sort)" _public steps
	sb_check_eq "... every node's allocated CPUs, as scontrol" \
		"$(scontrol -o show node | sort |
			sed -n 's/^NodeName=\([^ ]*\) .*CPUAlloc=\([0-9]*\).*/\1 \2/p')" \
		_public nodes
	if sb_slurm_has SB_HAVE_SELECT_DATA; then
		sb_check "... with select/bucket loaded into it" sh -c \
			"LD_DEBUG=files '$LIST_PUBLIC' nodes 2>&1 >/dev/null |
			grep -q 'calling init: [^ ]*/select_bucket\.so'"
	fi
fi

# not select/bucket: said plainly
scancel "$a" "$b" "$c" "$d" "$e" "${hostile[@]}"
sb_check "the queue empties" sb_wait_for 60 sb_queue_empty
sb_switch_select linear
out=$(_why 1)
sb_check "under select/linear, sbucket why says it explains select/bucket only" \
	grep -q "SelectType is select/linear, not select/bucket" <<<"$out"

sb_cluster_stop
sb_check "every daemon the harness started is gone ($(sb_pids))" sb_all_gone
