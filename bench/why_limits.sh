#!/bin/bash
# why_limits.sh - 'sbucket why' for a job held by a QOS limit, on stand-in
# scontrol output of a large queue: RUNNING jobs holding the QOS's
# GrpTRES=cpu limit (default 100,000) and AHEAD pending jobs in the same
# QOS before it (default 10,000), on NODES nodes (default 2,000). Issue
# #25's target: < 0.5 s.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: bash bench/why_limits.sh [RUNNING [AHEAD [NODES]]]
#   SBUCKET (default build/22.05/tools/sbucket), RUNS (default 5).
# The data are generated into a temporary directory (removed at exit): the
# config of testsuite/golden/why/data (select/bucket, 22.05) with its base
# made select/cons_tres (holders of 1 CPU sharing nodes need a base that
# shares them: over select/linear, or with OverSubscribe=NO, each would
# hold, and each pending job be counted for, a whole node's CPUs, as
# Slurm counts them; so the jobs are OverSubscribe=OK),
# NODES nodes of 64 CPUs, running jobs of 1 CPU each spread over them
# (ends one second apart, so every holder has its own end), the pending
# jobs ahead at a higher priority, and the job explained last. Prints the
# median, minimum and maximum wall time of RUNS runs, text and --json,
# and the planned start, which must be the end of the (AHEAD + 1)-th
# holder: the jobs ahead take the first AHEAD units freed.
set -euo pipefail

RUNNING=${1:-100000}
AHEAD=${2:-10000}
NODES=${3:-2000}
RUNS=${RUNS:-5}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/standin.inc"
SBUCKET=${SBUCKET:-$top/build/22.05/tools/sbucket}
golden=$top/testsuite/golden/why/data
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

now=1795431981		# 2026-11-23T11:06:21 UTC, as the golden cases
limit=$RUNNING		# every running job holds one CPU: the QOS is full
export TZ=UTC

sed 's|BaseSelectType *= select/linear|BaseSelectType          = select/cons_tres|' \
	"$golden/config" >"$d/config"
grep -q 'BaseSelectType *= select/cons_tres' "$d/config" ||
	{ echo "why_limits.sh: no BaseSelectType line in $golden/config" >&2; exit 1; }
: >"$d/res"
sed 's/Nodes=f\[1-2\],n\[1-4\]/Nodes=c[1-'"$NODES"']/' \
	"$golden/partition" >"$d/partition"
awk -v n="$NODES" 'BEGIN {
	for (i = 1; i <= n; i++)
		printf "NodeName=c%d Arch=x86_64 CoresPerSocket=1 CPUAlloc=64 CPUEfctv=64 CPUTot=64 AvailableFeatures=(null) ActiveFeatures=(null) Gres=(null) NodeAddr=127.0.0.1 NodeHostName=vm RealMemory=64000 AllocMem=0 Sockets=64 Boards=1 State=ALLOCATED ThreadsPerCore=1 TmpDisk=0 Weight=1 Owner=N/A MCS_label=N/A Partitions=debug CfgTRES=cpu=64,mem=64000M,billing=64 AllocTRES=cpu=64\n", i
}' >"$d/nodes"
# jobs: RUNNING holders (1 CPU, ending 1 s apart from now + 60), AHEAD
# pending jobs (priority 2000), the job explained (priority 1000)
awk -v run="$RUNNING" -v ahead="$AHEAD" -v n="$NODES" -v now="$now" '
function t(s,   c) { c = "date -u -d @" s " +%Y-%m-%dT%H:%M:%S"; c | getline r; close(c); return r }
BEGIN {
	start = t(now - 10)
	for (i = 1; i <= run; i++) {
		end = now + 60 + i
		# EndTime from StartTime + TimeLimit (minutes), as scontrol
		lim = int((end - (now - 10) + 59) / 60)
		endt = (now - 10) + lim * 60
		printf "JobId=%d JobName=h UserId=u1(1001) GroupId=u1(1001) Priority=100 Nice=0 Account=acct QOS=lim JobState=RUNNING Reason=None Dependency=(null) Reboot=0 TimeLimit=%d EligibleTime=%s StartTime=%s EndTime=@%d Scheduler=Main Partition=debug ReqNodeList=(null) ExcNodeList=(null) NodeList=c%d NumNodes=1 NumCPUs=1 NumTasks=1 CPUs/Task=1 TRES=cpu=1,node=1,billing=1 NtasksPerN:B:S:C=0:0:*:* MinCPUsNode=1 MinMemoryNode=0 MinTmpDiskNode=0 Features=(null) OverSubscribe=OK Contiguous=0 Licenses=(null)\n", i, lim, start, start, endt, (i - 1) % n + 1
	}
	for (i = 1; i <= ahead + 1; i++)
		printf "JobId=%d JobName=w UserId=u1(1001) GroupId=u1(1001) Priority=%d Nice=0 Account=acct QOS=lim JobState=PENDING Reason=QOSGrpCpuLimit Dependency=(null) Reboot=0 TimeLimit=1-00:00:00 EligibleTime=%s StartTime=Unknown EndTime=Unknown Scheduler=Main Partition=debug ReqNodeList=(null) ExcNodeList=(null) NodeList= NumNodes=1-1 NumCPUs=1 NumTasks=1 CPUs/Task=1 TRES=cpu=1,node=1,billing=1 NtasksPerN:B:S:C=0:0:*:* MinCPUsNode=1 MinMemoryNode=0 MinTmpDiskNode=0 Features=(null) OverSubscribe=OK Contiguous=0 Licenses=(null)\n", run + i, i <= ahead ? 2000 : 1000, start
}' | awk '
/EndTime=@/ {
	match($0, /EndTime=@[0-9]+/)
	s = substr($0, RSTART + 9, RLENGTH - 9)
	if (!(s in cache)) { c = "date -u -d @" s " +%Y-%m-%dT%H:%M:%S"; c | getline cache[s]; close(c) }
	sub(/EndTime=@[0-9]+/, "EndTime=" cache[s])
}
{ print }' >"$d/jobs"
printf 'LicenseName=lic Total=2 Used=0 Free=2 Reserved=0 Remote=no\n' >"$d/lic"
{
	echo "Current Association Manager state"
	echo
	echo "QOS Records"
	echo
	echo "QOS=lim(2)"
	echo "    UsageRaw=0.000000"
	echo "    GrpJobs=N($RUNNING) GrpJobsAccrue=N(0) GrpSubmitJobs=N(0) GrpWall=N(0.00)"
	echo "    GrpTRES=cpu=$limit($RUNNING),mem=N(0),energy=N(0),node=N($RUNNING),billing=N($RUNNING)"
	echo "    GrpTRESMins=cpu=N(0)"
	echo "    GrpTRESRunMins=cpu=N(0)"
	echo "    PreemptMode=OFF"
	echo "    Priority=0"
	echo "    Account Limits"
	echo "        No Accounts"
	echo "    User Limits"
	echo "      1001"
	echo "        MaxJobsPU=N($RUNNING) MaxJobsAccruePU=N(0) MaxSubmitJobsPU=N($((RUNNING + AHEAD + 1)))"
	echo "        MaxTRESPU=cpu=N($RUNNING),mem=N(0),energy=N(0),node=N($RUNNING),billing=N($RUNNING)"
} >"$d/assoc_mgr"
sb_standin_scontrol "$d"
sb_standin_squeue "$d"
target=$((RUNNING + AHEAD + 1))
export SBUCKET_SCONTROL=$d/scontrol SBUCKET_SQUEUE=$d/squeue SBUCKET_NOW=$now

echo "# sbucket why $target: $RUNNING running jobs hold QOS lim's GrpTRES=cpu=$limit, $AHEAD pending ahead, $NODES nodes"
echo "# data: $(du -sh "$d" | cut -f1) of scontrol output; $RUNS runs each"
for mode in text json; do
	times=()
	for _ in $(seq "$RUNS"); do
		t0=$(date +%s.%N)
		if [ $mode = json ]; then
			out=$("$SBUCKET" why --json "$target")
		else
			out=$("$SBUCKET" why "$target")
		fi
		t1=$(date +%s.%N)
		times+=("$(echo "$t1 - $t0" | bc)")
	done
	sorted=$(printf '%s\n' "${times[@]}" | sort -n)
	printf '%-5s median %.3f s  min %.3f s  max %.3f s\n' $mode \
		"$(sed -n "$(((RUNS + 1) / 2))p" <<<"$sorted")" \
		"$(head -1 <<<"$sorted")" "$(tail -1 <<<"$sorted")"
done
want=$(awk -v r="$RUNNING" -v a="$AHEAD" -v now="$now" 'BEGIN {
	i = a + 1; end = now + 60 + i; lim = int((end - (now - 10) + 59) / 60)
	print (now - 10) + lim * 60 }')
got=$(grep -o '"limits_start":[0-9]*' <<<"$out" | cut -d: -f2)
echo "limits_start $got (expected $want: the end of holder $((AHEAD + 1)))"
[ "$got" = "$want" ]
