#!/bin/bash
# demo.sh - a local Slurm cluster with accounting running a few jobs, for
# './quickstart demo'. Everything is stopped (by PID) at the end.
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
sb_cluster_start

for u in sbalice sbbob; do
	id $u >/dev/null 2>&1 || useradd -M -N -s /bin/sh $u
done
sacctmgr -i -Q add account physics Fairshare=60
sacctmgr -i -Q add account chem Fairshare=40
sacctmgr -i -Q add user sbalice Account=physics Fairshare=25
sacctmgr -i -Q add user sbbob Account=chem Fairshare=75
sacctmgr -i -Q add user root Account=physics
wait_for 20 sh -c "runuser -u sbbob -- sbatch --test-only -A chem --wrap true 2>&1 | grep -q 'to start'"

cd "$SB_DIR/jobs"
for i in 1 2 3; do
	runuser -u sbalice -- sbatch -Q -A physics -N 2 -C yellow -o /dev/null --wrap 'sleep 4'
	runuser -u sbbob -- sbatch -Q -A chem -N 1 -C fat -o /dev/null --wrap 'sleep 3'
done
show sinfo -N -o '%N %t %c %m %f'
show squeue -o '%.4i %.8u %.8a %.8T %.4D %N'
wait_for 60 sh -c '[ -z "$(squeue -h)" ]'
show sacct -a -X -o JobID,User,Account,State,NodeList,Elapsed
show sshare -a -o Account,User,RawShares,NormShares,RawUsage,FairShare
sb_cluster_stop
echo
echo "demo: cluster stopped; every daemon gone: $(sb_all_gone && echo yes || echo NO)"

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
