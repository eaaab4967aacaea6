#!/bin/bash
# demo.sh - './quickstart demo': live clusters running jobs through
# select/bucket and priority/bucket, then the same tools offline.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
#   1. placements, priorities and fair share on 8 nodes of two kinds;
#   2. the classic four-job mix (jobs 123-126 of markov, julie and mendle
#      on four nodes) run three times: first come first served one job at
#      a time, Slurm's FIFO, and backfill; makespan and utilisation next
#      to the textbook's 9 h / 56.25% and 7 h / 89%;
#   3. jack (25 shares) and jill (75) each submitting six whole-cluster
#      jobs under priority/bucket: who runs in which order, and the usage
#      split after the first 24 hours;
#   4. a busy cluster: 'sbucket forecast' of its queue (the table and the
#      chart) and 'sbucket why' for one waiting job;
#   5. sbucket offline on the example files;
#   6. a replay of a real workload: the first 5,000 jobs of KTH's SP2 log
#      (../shared/traces, cut at run time; skipped with one line when
#      absent) under EASY with the users' estimates, beside EASY with
#      predicted run times and the shortest job backfilled first, and its
#      chart.
# The clusters run side by side, each on ports of its own, and each
# part is printed when its turn comes. Charts (SVG)
# and the accounting they are drawn from go to $SB_DEMO_OUT (default
# demo-charts/ in the current directory; quickstart: the build tree's). Exit status 1 when any step failed.
#
# Environment: SB_PLUGIN_DIR, SBUCKET (set by quickstart; default: the
# build tree build/<series>/'s), SB_SLURM, SB_PORT_BASE,
# SB_DEMO_HOUR (seconds that stand for one hour in part 2, default 4),
# SB_DEMO_FS_HOUR (the same for part 3, default 1), SB_DEMO_OUT.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/testsuite/cluster/harness.sh"

SBUCKET=${SBUCKET:-$SB_TOP_BUILDDIR/tools/sbucket}
HOUR=${SB_DEMO_HOUR:-4}
FS_HOUR=${SB_DEMO_FS_HOUR:-1}
out=${SB_DEMO_OUT:-$PWD/demo-charts}
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 1
failed=0

# Print a command, run it; a failure is remembered for the exit status.
show() {
	echo; echo "\$ $*"
	"$@" || { demo_fail "'$*' exited $?"; return 1; }
}
demo_fail() {
	echo "demo: FAILED: $*" >&2
	failed=1
}
# sacctmgr's confirmations are long blocks: only its errors are shown.
quiet_sacctmgr() { sacctmgr -i "$@" >/dev/null || demo_fail "sacctmgr $*"; }
# slurmctld learns new associations from slurmdbd asynchronously.
assoc_known() {
	scontrol show assoc_mgr users="$1" flags=assoc 2>/dev/null |
		grep -q "UserName=$1("
}
# Every job of the queue has an end time in the accounting.
all_ended() {
	local n
	n=$(sacct -a -X -n -P -o End | grep -c '^[0-9]')
	[ "$n" -ge "$1" ]
}
# At least $1 jobs started, and every job that started has ended, in
# sacct. (A job cancelled while pending has the cancel time as its end
# up to 24.11, none on 26.05.)
started_all_ended() {
	sacct -a -X -n -P -o Start,End | awk -F'|' -v n="$1" '
		$1 ~ /^[0-9]/ { s++; if ($2 ~ /^[0-9]/) e++ }
		END { exit !(s >= n && e == s) }'
}
SACCT_FORMAT=JobID,User,Account,NodeList,Start,End

# The six clusters run side by side (each waits on Slurm most of the
# time), each in a subshell of its own with its own 500 ports
# (SB_PORT_BASE + 500 k) and its output in a file; the parts print them
# in order. bg NAME FUNCTION ARGS... starts one; bg_show NAME waits for
# it, prints its output and returns its status.
bgdir=$(mktemp -d) || exit 1
trap 'rm -rf "$bgdir"' EXIT
declare -A bg_pid=()
bg_slot=0
bg() {
	local name=$1
	shift
	( SB_PORT_BASE=$((${SB_PORT_BASE:-17100} + 500 * bg_slot)); "$@" ) \
		>"$bgdir/$name" 2>&1 </dev/null &
	bg_pid[$name]=$!
	bg_slot=$((bg_slot + 1))
}
bg_show() {
	local rc
	wait "${bg_pid[$1]}"
	rc=$?
	cat "$bgdir/$1"
	return $rc
}

# ---- 1. placements, priorities, fair share ---------------------------
# Each part_* and mix_run runs in a subshell of its own (a cluster each):
# it starts with no failure and returns 1 when a step of its failed.
part_placements() {
	failed=0
	sb_cluster_init demo
	sb_nodes "thin[1-6]" "CPUs=4 RealMemory=8000 Features=thin,yellow Weight=1"
	sb_nodes "fat[1-2]" "CPUs=32 RealMemory=256000 Features=fat,red Weight=10"
	sb_accounting
	sb_conf "SelectType=select/bucket"
	sb_conf "PriorityType=priority/bucket"
	sb_conf "PriorityParameters=algorithm=level_based,levels=4,calc_period=2"
	sb_conf "PriorityWeightFairshare=100000"
	sb_conf "PriorityWeightAge=1000"
	sb_conf "PriorityWeightJobSize=1000"
	sb_conf "DebugFlags=SelectType"
	SB_CTLD_DEBUG=verbose
	# jobs may ask for FASTEST; thin5 and thin6 are the fast ones
	printf '%s\n' NodeAllocationPolicy=FIRSTAVAILABLE AllowJobPolicies=FASTEST \
		'NodeName=thin[5-6] Speed=2' >"$SB_DIR/etc/bucket.conf"
	echo "optional ${SB_PLUGIN_DIR:-$SB_TOP_BUILDDIR/.plugins}/spank_bucket.so" \
		>"$SB_DIR/etc/plugstack.conf"
	sb_cluster_start
	echo; echo "\$ scontrol show config   # the select/bucket part"
	# Slurm prints this title without a line break after it.
	scontrol show config | sed -n '/Select Plugin Configuration/,/^$/p' |
		sed 's/^Select Plugin Configuration/&:\n/'

	sb_user_add sbalice sbbob
	quiet_sacctmgr add account physics Fairshare=60
	quiet_sacctmgr add account chem Fairshare=40
	quiet_sacctmgr add user sbalice Account=physics Fairshare=25
	quiet_sacctmgr add user sbbob Account=chem Fairshare=75
	quiet_sacctmgr add user root Account=physics
	sb_wait_for 20 assoc_known sbbob || demo_fail "slurmctld never learnt sbbob's association"
	# a fair-share pass over the new associations (calc_period=2)
	sb_wait_for 20 sh -c "sshare -h -a -u sbbob -o FairShare | grep -q '[1-9]'"

	cd "$SB_DIR/jobs" || return 1
	local i
	for i in 1 2 3; do
		runuser -u sbalice -- sbatch -Q -A physics -N 2 -C yellow -o /dev/null --wrap 'sleep 4' >/dev/null
		runuser -u sbbob -- sbatch -Q -A chem -N 1 -C fat -o /dev/null --wrap 'sleep 3' >/dev/null
	done
	runuser -u sbbob -- sbatch -Q -A chem -N 2 --bucket-policy=FASTEST -o /dev/null --wrap 'sleep 3' >/dev/null
	[ "$(squeue -h -o %i | wc -l)" = 7 ] || demo_fail "not all 7 jobs were accepted"
	show sinfo -N -o '%N %t %C %m %f'
	show squeue -o '%.4i %.8u %.8a %.8T %.4D %N'
	show sprio -l
	sb_wait_for 60 sb_queue_empty || demo_fail "the jobs did not finish in 60 s"
	sb_wait_for 20 all_ended 7 || demo_fail "sacct does not show 7 finished jobs"
	show sacct -a -X -o JobID,User,Account,State,NodeList,Elapsed
	sb_wait_for 10 sh -c "sshare -h -a -o RawUsage | grep -q '[1-9]'"
	show sshare -a -l -o Account,User,RawShares,NormShares,RawUsage,EffectvUsage,FairShare,LevelFS
	echo
	echo "select/bucket's decisions (DebugFlags=SelectType):"
	grep -o 'JobId=[0-9]* RUN_NOW: .*' "$SB_DIR/log/slurmctld.log" | head -n 12
	show "$SBUCKET" fairshare --explain=sbalice,sbbob
	sb_cluster_stop
	echo
	echo "demo: cluster stopped; every daemon gone: $(sb_all_gone && echo yes || echo NO)"
	sb_all_gone || demo_fail "a daemon outlived the cluster"
	return $failed
}

# ---- 2. the four-job mix ----------------------------------------------
# JobID user account name hours nodes, in submission order.
MIX=("123 markov phys-part neutro3 2 2" "124 markov phys-part neutro3 2 2"
     "125 julie bio-env biodiv 1 1" "126 mendle bio-epi denovo 4 4")

# mix_run NAME SCHEDULER ONE_AT_A_TIME: the mix on a fresh 4-node
# cluster; its accounting goes to $out/NAME.sacct.
mix_run() {
	local name=$1 sched=$2 one=$3 m id u a j h n lic=() got
	failed=0
	sb_cluster_init "mix$name"
	sb_nodes "node[1-4]" "CPUs=2 RealMemory=1000"
	sb_accounting
	sb_conf "SelectType=select/bucket"
	sb_conf "SchedulerType=$sched"
	# priority/basic: strictly the order of submission
	sb_conf "PriorityType=priority/basic"
	sb_conf "FirstJobId=123"
	if [ "$one" = 1 ]; then
		# one license for the whole cluster: one job at a time
		sb_conf "Licenses=onejob:1"
		lic=(-L onejob)
	fi
	sb_cluster_start
	for a in phys-part bio-env bio-epi; do
		quiet_sacctmgr add account "$a"
	done
	sb_user_add sbmarkov sbjulie sbmendle
	quiet_sacctmgr add user sbmarkov Account=phys-part
	quiet_sacctmgr add user sbjulie Account=bio-env
	quiet_sacctmgr add user sbmendle Account=bio-epi
	for u in sbmarkov sbjulie sbmendle; do
		sb_wait_for 20 assoc_known $u || demo_fail "slurmctld never learnt $u's association"
	done
	cd "$SB_DIR/jobs" || return 1
	for m in "${MIX[@]}"; do
		read -r id u a j h n <<<"$m"
		got=$(runuser -u "sb$u" -- sbatch --parsable -A "$a" -J "$j" \
			-N "$n" --exclusive -t 1 "${lic[@]}" -o /dev/null \
			--wrap "sleep $((h * HOUR))")
		[ "$got" = "$id" ] || demo_fail "job $j of sb$u got id '$got', not $id"
	done
	sb_wait_for $((20 * HOUR + 30)) sb_queue_empty || demo_fail "the mix did not finish"
	sb_wait_for 20 all_ended 4 || demo_fail "sacct does not show 4 finished jobs"
	[ "$(sacct -a -X -n -o State | grep -c COMPLETED)" = 4 ] ||
		demo_fail "not every job of the mix COMPLETED"
	sacct -a -X -P -o "$SACCT_FORMAT" >"$out/$name.sacct" ||
		demo_fail "sacct for $name"
	sed 's/^/    /' "$out/$name.sacct"
	sb_cluster_stop
	sb_all_gone || demo_fail "a daemon outlived the cluster"
	return $failed
}

# chart NAME TITLE UNIT: draw $out/NAME.sacct into $out/NAME.svg.
chart() {
	"$SBUCKET" chart --unit="$3" --nodes='node[1-4]' --title="$2" \
		-o "$out/$1.svg" "$out/$1.sacct" || demo_fail "sbucket chart $1"
}

# "makespan gaps busy utilisation%" of $out/NAME.sacct (sbucket chart
# --stats: seconds, seconds with no job running, node-seconds).
mix_stats() {
	"$SBUCKET" chart --stats --nodes='node[1-4]' "$out/$1.sacct" |
		awk -F'|' 'NR == 2 { print $4, $5, $6, $7 }'
}

part_mix() {
	# (the runs themselves started with the others: see the end)
	local runs=("fcfs sched/builtin 1" "fifo sched/builtin 0"
		    "backfill sched/backfill 0")
	local titles=("first come, first served, one job at a time (sched/builtin, one license for all jobs)"
		      "Slurm's FIFO, jobs side by side (sched/builtin)"
		      "backfill (sched/backfill)")
	local seed=("9 h, 56.25%" "-" "7 h, 89%")
	local i r name sched one ms gaps busy util hours rows=()

	echo
	echo "== The four-job mix: jobs 123-126 on node[1-4], 1 h = $HOUR s"
	printf '   %-5s %-7s %-10s %-8s %5s %5s\n' JobID User Account Name Hours Nodes
	for r in "${MIX[@]}"; do
		read -r id u a j h n <<<"$r"
		printf '   %-5s %-7s %-10s %-8s %5s %5s\n' "$id" "$u" "$a" "$j" "$h" "$n"
	done
	for i in 0 1 2; do
		read -r name sched one <<<"${runs[$i]}"
		echo
		echo "-- run $((i + 1)) of 3: ${titles[$i]}"
		bg_show "mix-$name" || demo_fail "the $name run"
		if [ ! -s "$out/$name.sacct" ]; then
			rows+=("${titles[$i]%% (*}|failed|||${seed[$i]}")
			continue
		fi
		chart "$name" "${titles[$i]}" "$HOUR:h"
		read -r ms gaps busy util <<<"$(mix_stats "$name")"
		[ -n "$util" ] || demo_fail "no numbers for the $name run"
		hours=$(awk -v s="$ms" -v g="$gaps" -v h="$HOUR" \
			'BEGIN { printf "%.1f h|%.1f h", s / h, (s - g) / h }')
		rows+=("${titles[$i]%% (*}|$hours|$util%|${seed[$i]}")
	done
	echo
	echo "== The four-job mix: measured (1 h = $HOUR s) and the textbook's numbers"
	printf '   %-45s %-9s %-13s %-12s %s\n' run makespan "jobs running" utilisation textbook
	for r in "${rows[@]}"; do
		IFS='|' read -r name ms run util sd <<<"$r"
		printf '   %-45s %-9s %-13s %-12s %s\n' "$name" "$ms" "$run" "$util" "$sd"
	done
	cat <<EOF
   jobs running: the makespan less the moments no job runs anywhere (the
   hand-overs between jobs). Slurm takes up to a second to hand nodes on
   (a job's completion) and records times to the second; at 1 h = $HOUR s
   a second is $((3600 / HOUR / 60)) minutes.
   utilisation: busy node-hours / (4 nodes x makespan). The textbook's own
   FCFS chart has 25 busy node-hours of 36, 69.4%: its 56.25% is the mean
   of each job's share of the cluster (50, 50, 25, 100%). Slurm's FIFO
   already runs 123 and 124 side by side, which is all the textbook's
   backfill chart gains: in this mix no later job fits a hole before 126.
EOF
}

# ---- 3. jack and jill ------------------------------------------------
part_fairshare() {
	failed=0
	sb_cluster_init fairshare
	sb_nodes "node[1-4]" "CPUs=2 RealMemory=1000"
	sb_accounting
	sb_conf "SelectType=select/bucket"
	sb_conf "PriorityType=priority/bucket"
	sb_conf "PriorityParameters=algorithm=level_based,levels=4,calc_period=1"
	sb_conf "PriorityWeightFairshare=100000"
	sb_conf "PriorityWeightAge=0"
	sb_conf "FirstJobId=201"
	sb_cluster_start
	sb_user_add sbjack sbjill
	quiet_sacctmgr add account rpi
	quiet_sacctmgr add user sbjack Account=rpi Fairshare=25
	quiet_sacctmgr add user sbjill Account=rpi Fairshare=75
	sb_wait_for 20 assoc_known sbjack && sb_wait_for 20 assoc_known sbjill ||
		demo_fail "slurmctld never learnt jack's and jill's associations"
	# both in a fair-share pass (no usage yet: they tie)
	sb_wait_for 20 sh -c "[ \$(sshare -h -a -P -o User,FairShare | awk -F'|' '\$1 ~ /^sbj/ && \$2 > 0' | wc -l) = 2 ]" ||
		demo_fail "no fair share for jack and jill"
	cd "$SB_DIR/jobs" || return 1
	local i u started
	for i in 1 2 3 4 5 6; do
		for u in sbjill sbjack; do
			runuser -u $u -- sbatch -Q -A rpi -J "${u#sb}$i" -N 4 \
				--exclusive -t 1 -o /dev/null \
				--wrap "sleep $((6 * FS_HOUR))" >/dev/null ||
				demo_fail "sbatch for $u"
		done
	done
	show sprio -o '%.5i %.8u %.10Y %.10F'
	# The first 24 hours: four jobs. Then the rest is cancelled.
	started() { [ "$(sacct -a -X -n -P -o Start | grep -c '^[0-9]')" -ge 4 ]; }
	sb_wait_for $((40 * FS_HOUR + 30)) started || demo_fail "four jobs never started"
	scancel -t PENDING
	sb_wait_for $((10 * FS_HOUR + 30)) sb_queue_empty || demo_fail "the jobs did not finish"
	sb_wait_for 20 started_all_ended 4 || demo_fail "sacct does not show every job ended"
	# one more fair-share pass after the last job (calc_period=1)
	sleep 2
	sacct -a -X -P -o "$SACCT_FORMAT" | grep -v '|None assigned|' >"$out/fairshare.sacct"
	show sshare -a -l -o Account,User,RawShares,NormShares,RawUsage,EffectvUsage,FairShare,LevelFS
	sshare -a -h -P -o User,RawUsage | awk -F'|' '$1 ~ /^sbj/ { print $1, $2 }' \
		>"$out/fairshare.usage"
	sb_cluster_stop
	sb_all_gone || demo_fail "a daemon outlived the cluster"
	return $failed
}

fairshare_report() {
	local f=$out/fairshare.sacct order
	echo
	echo "== jack (25 shares) and jill (75): who ran, in order (1 h = $FS_HOUR s)"
	[ -s "$f" ] || { demo_fail "no accounting from the fair-share run"; return; }
	local t0= k=0 start id user s
	while IFS='|' read -r start id user; do
		s=$(date -d "$start" +%s) || continue
		[ -n "$t0" ] || t0=$s
		printf '   %d. job %s %-7s from %4.1f h\n' $((k += 1)) "$id" "$user" \
			"$(awk -v s=$((s - t0)) -v h="$FS_HOUR" 'BEGIN { print s / h }')"
	done < <(awk -F'|' 'NR > 1 { print $5 "|" $1 "|" $2 }' "$f" | sort)
	order=$(awk -F'|' 'NR > 1 { print $5, $2 }' "$f" | sort | awk '{ sub(/^sb/, "", $2); printf "%s%s", sep, $2; sep = ", " }')
	echo "   measured: $order"
	echo "   textbook: jill, jill, jill, jack"
	awk -F'|' 'NR > 1 { n[$2]++ } END { t = n["sbjack"] + n["sbjill"];
		if (t) printf "   usage after the first 24 h (jobs x 6 h): jack %.0f%%, jill %.0f%% (textbook: 25%%, 75%%)\n",
			100 * n["sbjack"] / t, 100 * n["sbjill"] / t }' "$f"
	awk '{ u[$1] = $2; t += $2 } END { if (t) printf "   priority/bucket'"'"'s RawUsage: jack %.1f%%, jill %.1f%%\n",
		100 * u["sbjack"] / t, 100 * u["sbjill"] / t }' "$out/fairshare.usage"
	cat <<EOF
   The textbook ranks by share minus usage, so jill (0.75) goes first and
   stays ahead until she has used 75%. Slurm's fair share compares each
   user's share of the usage so far with their share of the cluster: with
   no usage they tie (jill's job was submitted first), after jill's first
   job jack's 0% is further below his 25% than her 100% is below 75%.
   The split after 24 hours is the same.
EOF
}

# ---- 4. a busy cluster: what each waiting job waits for ---------------
# Four nodes, two running jobs that hold them for minutes, and a queue
# behind them: 'sbucket forecast' plans every pending job at once (the
# table, then the plan as a chart), 'sbucket why' explains one of them.
# Nothing runs to its end: the jobs are cancelled once shown.
part_forecast() {
	failed=0
	sb_cluster_init demofc
	sb_nodes "node[1-4]" "CPUs=2 RealMemory=2000 Features=gpu Weight=1"
	sb_select bucket
	sb_conf "SchedulerParameters=bf_interval=1,bf_resolution=1"
	sb_cluster_start
	cd "$SB_DIR/jobs" || return 1
	sb_user_add sbcarol sbdave
	local a b w1 w2 w3
	a=$(runuser -u sbcarol -- sbatch --parsable -N2 -t 10 -o /dev/null --wrap 'sleep 600')
	b=$(runuser -u sbdave -- sbatch --parsable -N2 -t 5 -o /dev/null --wrap 'sleep 600')
	w1=$(runuser -u sbcarol -- sbatch --parsable -N3 -t 20 -o /dev/null --wrap 'sleep 600')
	w2=$(runuser -u sbdave -- sbatch --parsable -N1 -t 4 -o /dev/null --wrap 'sleep 600')
	w3=$(runuser -u sbdave -- sbatch --parsable -N2 -t 10 -d "afterany:$w1" -o /dev/null --wrap 'sleep 600')
	_running2() { [ "$(squeue -h -t R -o %i | wc -l)" = 2 ]; }
	_planned() { squeue -h --start -j "$w1" -o %S | grep -q '^[0-9]'; }
	sb_wait_for 30 _running2 || demo_fail "jobs $a and $b did not start"
	sb_wait_for 30 _planned || demo_fail "backfill did not plan job $w1"
	show squeue -o '%.4i %.8u %.8T %.4D %.10l %R'
	show "$SBUCKET" forecast --chart="$out/forecast.svg"
	echo "(the plan as a chart: $out/forecast.svg)"
	show "$SBUCKET" why "$w1"
	scancel "$a" "$b" "$w1" "$w2" "$w3"
	sb_wait_for 60 sb_queue_empty || demo_fail "the queue did not empty"
	sb_cluster_stop
	sb_all_gone || demo_fail "a daemon outlived the cluster"
	return $failed
}

# ---- 5. offline ---------------------------------------------------------
part_offline() {
	local ex=$top/etc/examples
	echo
	echo "demo: offline runs on $ex (see sbucket(1))"
	show "$SBUCKET" --version
	show "$SBUCKET" place "$ex/nodes.conf" "$ex/jobs.txt"
	show "$SBUCKET" backfill "$ex/nodes.conf" "$ex/jobs.txt"
	show "$SBUCKET" fairshare --algorithm=fair_tree --explain=alice,erin \
		"$ex/assoc.txt"
	echo; echo "\$ $SBUCKET backfill $ex/mix-nodes.conf $ex/mix-jobs.txt | $SBUCKET chart -o $out/plan.svg"
	"$SBUCKET" backfill "$ex/mix-nodes.conf" "$ex/mix-jobs.txt" >"$out/plan.txt" &&
		cat "$out/plan.txt" &&
		"$SBUCKET" chart --unit=3600:h --title="sbucket backfill's plan of the four-job mix" \
			-o "$out/plan.svg" "$out/plan.txt" ||
		demo_fail "sbucket backfill | sbucket chart"
}

bg placements part_placements
for r in "fcfs sched/builtin 1" "fifo sched/builtin 0" "backfill sched/backfill 0"; do
	read -r name sched one <<<"$r"
	bg "mix-$name" mix_run "$name" "$sched" "$one"
done
bg fairshare part_fairshare
bg forecast part_forecast
bg_show placements || demo_fail "part 1 (placements)"
part_mix
bg_show fairshare || demo_fail "part 3 (jack and jill)"
fairshare_report
if [ -s "$out/fairshare.sacct" ]; then
	"$SBUCKET" chart --unit="$FS_HOUR:h" --nodes='node[1-4]' \
		--title="jack (25 shares) and jill (75) under priority/bucket" \
		-o "$out/fairshare.svg" "$out/fairshare.sacct" ||
		demo_fail "sbucket chart fairshare"
fi
bg_show forecast || demo_fail "part 4 (forecast and why)"
part_offline

# ---- 6. a real workload replayed, two configurations side by side -------
part_replay() {
	local log=$top/../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz
	local cut=$out/kth-5000.swf

	echo
	if [ ! -f "$log" ]; then
		echo "demo: replay skipped: no $log (the shared logs are not here)"
		return 0
	fi
	echo "demo: a real workload, KTH's SP2 (100 nodes), its first 5,000 jobs,"
	echo "replayed under EASY as logged, and with run times predicted from"
	echo "each user's last two jobs and the shortest job backfilled first"
	# awk stops reading early: zcat's broken pipe is expected
	{ zcat "$log" || true; } | awk '/^;/ { print; next } ++n > 5000 { exit } { print }' \
		>"$cut" || { demo_fail "cannot cut $log"; return 1; }
	show "$SBUCKET" replay --drop-first=1 --chart="$out/replay.svg" "$cut" \
		--compare --predict=user2 --sjbf
}
part_replay

echo
echo "demo: charts (open them in a web browser):"
charts="fcfs fifo backfill fairshare forecast plan"
[ -f "$top/../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz" ] &&
	charts="$charts replay"
for f in $charts; do
	if [ -s "$out/$f.svg" ]; then
		echo "   $out/$f.svg"
	else
		demo_fail "no chart $out/$f.svg"
	fi
done
if [ $failed = 0 ]; then
	echo "demo: done"
else
	echo "demo: some steps FAILED (see 'demo: FAILED' above)"
fi
exit $failed
