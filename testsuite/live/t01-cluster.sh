#!/bin/bash
# t01-cluster - the harness brings up 8 nodes in two shapes, runs jobs, and
# leaves nothing behind.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../cluster/harness.sh"

sb_cluster_init t01
sb_nodes "thin[1-4]" "CPUs=4 Boards=1 SocketsPerBoard=1 CoresPerSocket=4 ThreadsPerCore=1 RealMemory=4000 Features=thin,red Weight=1"
sb_nodes "fat[1-4]" "CPUs=16 Boards=1 SocketsPerBoard=2 CoresPerSocket=8 ThreadsPerCore=1 RealMemory=64000 Features=fat,blue Weight=10"
sb_cluster_start

sb_check_eq "sinfo: 8 nodes idle" "8" \
	sh -c "sinfo -h -N -o '%N %t' | awk '\$2 == \"idle\"' | sort -u | wc -l"
sb_check_eq "sinfo: thin nodes advertise 4 CPUs, 4000 MB, features thin,red" \
	"thin[1-4] 4 4000 thin,red" sinfo -h -n 'thin[1-4]' -o '%N %c %m %f'
sb_check_eq "sinfo: fat nodes advertise 16 CPUs, 64000 MB, features fat,blue" \
	"fat[1-4] 16 64000 fat,blue" sinfo -h -n 'fat[1-4]' -o '%N %c %m %f'
sb_check_eq "scontrol: fat1 has 2 sockets x 8 cores" "CoresPerSocket=8 Sockets=2" \
	sh -c "scontrol show node fat1 | grep -oE '(CoresPerSocket|Sockets)=[0-9]+' | sort | xargs"

cd "$SB_DIR/jobs"
j1=$(sbatch --parsable -o out-%j -C fat --wrap 'echo "host=$SLURMD_NODENAME"')
j2=$(sbatch --parsable -o out-%j -C red -N 2 --wrap 'srun hostname | sort')
j3=$(sbatch --parsable -o out-%j -N 8 --wrap 'echo nodes=$SLURM_JOB_NUM_NODES')
for j in $j1 $j2 $j3; do
	sb_job_wait "$j" 60
	sb_check_eq "job $j completed" COMPLETED sb_job_state "$j"
done
sb_check "job $j1 ran on a fat node" grep -qE '^host=fat[1-4]$' "out-$j1"
sb_check_eq "job $j2 ran srun on 2 red nodes" "2" \
	sh -c "grep -c '^vm\$\\|^$SB_HOST\$' out-$j2"
sb_check_eq "job $j3 had all 8 nodes" "nodes=8" cat "out-$j3"
j4=$(sbatch --parsable -o /dev/null -C 'red&blue' --wrap true 2>&1)
echo "# submit of an impossible job said: $j4"
sb_check "a job no node can satisfy is refused at submit" \
	grep -q 'Requested node configuration is not available' <<<"$j4"

sb_cluster_stop
sb_check "every daemon the harness started is gone ($(sb_pids))" sb_all_gone
