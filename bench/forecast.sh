#!/bin/bash
# forecast.sh - 'sbucket forecast' on stand-in scontrol output of a large
# cluster: NODES nodes (default 10,000), RUNNING running exclusive jobs
# (default 5,000, one node each), PENDING pending jobs (default 10,000).
# Issue #35's target: < 2 s.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: bash bench/forecast.sh [NODES [RUNNING [PENDING]]]
#   SBUCKET (default build/22.05/tools/sbucket), RUNS (default 3).
# The data are generated into a temporary directory (removed at exit) by
# gawk: the config of testsuite/golden/why/data (select/bucket over
# linear, 22.05), nodes of 64 CPUs and 64,000 MB, running job i on node i
# ending 1 to 600 minutes from now; pending jobs in falling priority, of
# three kinds by job number: 7 in 10 whole-node jobs of 1 to 4 nodes
# (select/bucket's), 2 in 10 one-node jobs of 2 tasks (the base's:
# planned on each node's CPUs and memory), 1 in 10 one-node jobs waiting
# for licence lic (Total=4, held by 4 running jobs); time limits 10 to
# 600 minutes. Prints the median, minimum and maximum wall time of RUNS
# runs (text and --json), the peak RSS (GNU time), and how many jobs got
# a start.
#
# The likely start (issue #35 item 6): HISTORY completed runs (default
# 20,000) in a stand-in sacct's output, of the same 50 users, ending over
# the last 13 days, with the pending jobs' time limits and node counts
# (so most jobs have similar runs) and the running jobs' limits, each
# run lasting 20 to 80 % of its limit; the config says
# accounting_storage/slurmdbd. Each mode runs with the history ("text",
# "json") and with --no-history ("text-nohist"), and the likely starts
# are compared with the planned ones (how many earlier, the same, later).
# HISTORY=0 keeps the old runs (no accounting: no likely start).
set -euo pipefail

NODES=${1:-10000}
RUNNING=${2:-5000}
PENDING=${3:-10000}
RUNS=${RUNS:-3}
HISTORY=${HISTORY:-20000}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/standin.inc"
SBUCKET=${SBUCKET:-$top/build/22.05/tools/sbucket}
golden=$top/testsuite/golden/why/data
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

now=1795431981		# 2026-11-23T11:06:21 UTC, as the golden cases
export TZ=UTC

if [ "$HISTORY" -gt 0 ]; then
	sed 's|accounting_storage/none|accounting_storage/slurmdbd|' \
		"$golden/config" >"$d/config"
else
	cp "$golden/config" "$d/"
fi
: >"$d/res"
sed 's/Nodes=f\[1-2\],n\[1-4\]/Nodes=c[1-'"$NODES"']/' \
	"$golden/partition" >"$d/partition"
gawk -v n="$NODES" -v run="$RUNNING" 'BEGIN {
	for (i = 1; i <= n; i++)
		printf "NodeName=c%d Arch=x86_64 CoresPerSocket=1 CPUAlloc=%d CPUEfctv=64 CPUTot=64 AvailableFeatures=(null) ActiveFeatures=(null) Gres=(null) NodeAddr=127.0.0.1 NodeHostName=vm RealMemory=64000 AllocMem=0 Sockets=64 Boards=1 State=%s ThreadsPerCore=1 TmpDisk=0 Weight=1 Owner=N/A MCS_label=N/A Partitions=debug CfgTRES=cpu=64,mem=64000M,billing=64 AllocTRES=cpu=64\n", i, i <= run ? 64 : 0, i <= run ? "ALLOCATED" : "IDLE"
}' >"$d/nodes"
gawk -v run="$RUNNING" -v pend="$PENDING" -v now="$now" '
function t(s) { return strftime("%Y-%m-%dT%H:%M:%S", s, 1) }
function hms(m) { return sprintf("%02d:%02d:00", int(m / 60), m % 60) }
BEGIN {
	start = t(now - 10)
	for (i = 1; i <= run; i++) {
		lim = 1 + (i * 7919) % 600
		printf "JobId=%d JobName=r UserId=u%d(%d) GroupId=u(1000) Priority=100 Nice=0 Account=acct QOS=normal JobState=RUNNING Reason=None Dependency=(null) Reboot=0 TimeLimit=%s EligibleTime=%s StartTime=%s EndTime=%s Scheduler=Main Partition=debug ReqNodeList=(null) ExcNodeList=(null) NodeList=c%d NumNodes=1 NumCPUs=64 NumTasks=1 CPUs/Task=1 TRES=cpu=64,node=1,billing=64 NtasksPerN:B:S:C=0:0:*:* MinCPUsNode=1 MinMemoryNode=0 MinTmpDiskNode=0 Features=(null) OverSubscribe=NO Contiguous=0 Licenses=%s\n", i, i % 50, 1000 + i % 50, hms(lim), start, start, t(now - 10 + lim * 60), i, i <= 4 ? "lic:1" : "(null)"
	}
	for (i = 1; i <= pend; i++) {
		k = i % 10
		lim = 10 + (i * 104729) % 591
		nn = 1 + i % 4
		if (k < 7)
			shape = sprintf("Reason=%s NumNodes=%d-%d NumCPUs=%d NumTasks=%d CPUs/Task=1 TRES=cpu=%d,node=%d,billing=%d Licenses=(null)", i < 100 ? "Resources" : "Priority", nn, nn, nn, nn, nn, nn, nn)
		else if (k < 9)
			shape = "Reason=Priority NumNodes=1 NumCPUs=2 NumTasks=2 CPUs/Task=1 TRES=cpu=2,node=1,billing=2 Licenses=(null)"
		else
			shape = "Reason=Licenses NumNodes=1-1 NumCPUs=1 NumTasks=1 CPUs/Task=1 TRES=cpu=1,node=1,billing=1 Licenses=lic:1"
		printf "JobId=%d JobName=p UserId=u%d(%d) GroupId=u(1000) Priority=%d Nice=0 Account=acct QOS=normal JobState=PENDING %s Dependency=(null) Reboot=0 TimeLimit=%s EligibleTime=%s StartTime=Unknown EndTime=Unknown Scheduler=Main Partition=debug ReqNodeList=(null) ExcNodeList=(null) NodeList= NtasksPerN:B:S:C=0:0:*:* MinCPUsNode=1 MinMemoryNode=0 MinTmpDiskNode=0 Features=(null) OverSubscribe=OK Contiguous=0\n", run + i, i % 50, 1000 + i % 50, 1000000 - i, shape, hms(lim), start
	}
}' >"$d/jobs"
printf 'LicenseName=lic Total=4 Used=4 Free=0 Reserved=0 Remote=no\n' >"$d/lic"
printf 'Current Association Manager state\n\nQOS Records\n\nQOS=normal(1)\n    GrpJobs=N(0) GrpTRES=cpu=N(0)\n' >"$d/assoc_mgr"
sb_standin_scontrol "$d"
sb_standin_squeue "$d"
# the history: pending job i's shape (user, limit, node count) for three
# runs in four, a running job's (one node) for the others
gawk -v hist="$HISTORY" -v run="$RUNNING" -v pend="$PENDING" -v now="$now" '
function t(s) { return strftime("%Y-%m-%dT%H:%M:%S", s, 1) }
BEGIN {
	for (h = 1; h <= hist; h++) {
		if (h % 4) {
			i = 1 + (h * 31) % pend
			k = i % 10
			lim = 10 + (i * 104729) % 591
			nn = k < 7 ? 1 + i % 4 : 1
		} else {
			i = 1 + (h * 17) % run
			lim = 1 + (i * 7919) % 600
			nn = 1
		}
		el = int(lim * 60 * (20 + (h * 37) % 61) / 100)
		printf "%d|u%d|debug|%s|%d|%d|%d\n", 900000 + h, i % 50,
			t(now - 86400 * 13 + h * 40), el, lim, nn
	}
}' >"$d/sacct.out"
printf '#!/bin/sh\ncat %s/sacct.out\n' "$d" >"$d/sacct"
chmod +x "$d/sacct"
export SBUCKET_SCONTROL=$d/scontrol SBUCKET_SQUEUE=$d/squeue SBUCKET_NOW=$now \
	SBUCKET_SACCT=$d/sacct

echo "# sbucket forecast: $NODES nodes, $RUNNING running, $PENDING pending"
echo "# data: $(du -sh "$d" | cut -f1) of scontrol and sacct output" \
	"($HISTORY runs); $RUNS runs each"
for mode in text json text-nohist; do
	times=()
	for _ in $(seq "$RUNS"); do
		args=(forecast)
		[ $mode = json ] && args+=(--json)
		[ $mode = text-nohist ] && args+=(--no-history)
		t0=$(date +%s.%N)
		/usr/bin/time -f %M -o "$d/rss" "$SBUCKET" "${args[@]}" \
			>"$d/out" 2>"$d/err"
		t1=$(date +%s.%N)
		times+=("$(echo "$t1 - $t0" | bc)")
	done
	sorted=$(printf '%s\n' "${times[@]}" | sort -n)
	[ $mode = json ] && cp "$d/out" "$d/out.json"
	printf '%-11s median %.3f s  min %.3f s  max %.3f s  peak RSS %d MB\n' \
		$mode "$(sed -n "$(((RUNS + 1) / 2))p" <<<"$sorted")" \
		"$(head -1 <<<"$sorted")" "$(tail -1 <<<"$sorted")" \
		$(($(cat "$d/rss") / 1024))
done
# one job's object a line (sbucket(1), JSON): its first "start" is the
# planned one
planned=$(grep -c '^{"job_id":"[^"]*",[^{]*"start":[0-9]' "$d/out.json" || true)
none=$(grep -c '^{"job_id":"[^"]*",[^{]*"start":null' "$d/out.json" || true)
echo "jobs with a start: $planned, without: $none"
[ $((planned + none)) -eq "$PENDING" ]
# planned against likely start, per job (seconds since the epoch)
sed -n 's/^{[^{]*"start":\([0-9]*\),.*"likely_start":\([0-9]*\),.*/\1 \2/p' \
	"$d/out.json" | gawk '
	{ n++; if ($2 < $1) early++; else if ($2 == $1) same++; else late++ }
	END {
		printf "likely start against planned: %d earlier, " \
			"%d the same, %d later (of %d with both)\n", early,
			same, late, n
	}' || true
