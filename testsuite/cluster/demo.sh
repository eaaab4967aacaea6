#!/bin/bash
# demo.sh - a local Slurm cluster with accounting running a few jobs
# through select/bucket and priority/bucket, for './quickstart demo'.
# Everything is stopped (by PID) at the end.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/testsuite/cluster/harness.sh"

show() { echo; echo "\$ $*"; "$@"; }

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
echo "optional ${SB_PLUGIN_DIR:-$top/.plugins}/spank_bucket.so" \
	>"$SB_DIR/etc/plugstack.conf"
sb_cluster_start
echo; echo "\$ scontrol show config   # the select/bucket part"
scontrol show config | sed -n '/Select Plugin Configuration/,$p'

for u in sbalice sbbob; do
	id $u >/dev/null 2>&1 || useradd -M -N -s /bin/sh $u
done
sacctmgr -i -Q add account physics Fairshare=60
sacctmgr -i -Q add account chem Fairshare=40
sacctmgr -i -Q add user sbalice Account=physics Fairshare=25
sacctmgr -i -Q add user sbbob Account=chem Fairshare=75
sacctmgr -i -Q add user root Account=physics
wait_for 20 sh -c "runuser -u sbbob -- sbatch --test-only -A chem --wrap true 2>&1 | grep -q 'to start'"
# a fair-share pass over the new associations (calc_period=2)
wait_for 20 sh -c "sshare -h -a -u sbbob -o FairShare | grep -q '[1-9]'"

cd "$SB_DIR/jobs"
for i in 1 2 3; do
	runuser -u sbalice -- sbatch -Q -A physics -N 2 -C yellow -o /dev/null --wrap 'sleep 4'
	runuser -u sbbob -- sbatch -Q -A chem -N 1 -C fat -o /dev/null --wrap 'sleep 3'
done
runuser -u sbbob -- sbatch -Q -A chem -N 2 --bucket-policy=FASTEST -o /dev/null --wrap 'sleep 3'
show sinfo -N -o '%N %t %C %m %f'
show squeue -o '%.4i %.8u %.8a %.8T %.4D %N'
show sprio -l
wait_for 60 sh -c '[ -z "$(squeue -h)" ]'
show sacct -a -X -o JobID,User,Account,State,NodeList,Elapsed
wait_for 10 sh -c "sshare -h -a -o RawUsage | grep -q '[1-9]'"
show sshare -a -l -o Account,User,RawShares,NormShares,RawUsage,EffectvUsage,FairShare,LevelFS
echo
echo "select/bucket's decisions (DebugFlags=SelectType):"
grep -o 'JobId=[0-9]* RUN_NOW: .*' "$SB_DIR/log/slurmctld.log" | head -n 12
[ -x "${SBUCKET:-}" ] && show "$SBUCKET" fairshare --explain=sbalice,sbbob
sb_cluster_stop
echo
echo "demo: cluster stopped; every daemon gone: $(sb_all_gone && echo yes || echo NO)"
sb_all_gone || exit 1

# Offline: what the library under the plugins decides, and why.
if [ -x "${SBUCKET:-}" ]; then
	ex=$top/etc/examples
	echo
	echo "demo: offline runs on $ex (see sbucket(1))"
	show "$SBUCKET" --version
	show "$SBUCKET" place "$ex/nodes.conf" "$ex/jobs.txt"
	show "$SBUCKET" backfill "$ex/nodes.conf" "$ex/jobs.txt"
	show "$SBUCKET" fairshare --algorithm=fair_tree --explain=alice,erin \
		"$ex/assoc.txt"
fi
