#!/bin/bash
# t02-accounting - MariaDB + slurmdbd come up with the cluster; sacctmgr
# creates an account and a user, sshare shows them, jobs are accounted.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../cluster/harness.sh"

sb_cluster_init t02
sb_nodes "n[1-4]" "CPUs=2 RealMemory=2000"
sb_accounting
sb_cluster_start

id sbalice >/dev/null 2>&1 || useradd -M -N -s /bin/sh sbalice
check "sacctmgr adds account physics" \
	sacctmgr -i add account physics Fairshare=60 Description=phys Organization=sci
check "sacctmgr adds user sbalice to physics" \
	sacctmgr -i add user sbalice Account=physics Fairshare=10
check "sacctmgr adds user root to physics" \
	sacctmgr -i add user root Account=physics
check_eq "sacctmgr lists the association" "physics|sbalice|10" \
	sacctmgr -n -P list assoc user=sbalice format=Account,User,Fairshare
check_eq "sshare -a shows account physics with 60 raw shares" "physics||60" \
	sh -c "sshare -a -P -n -o Account,User,RawShares | sed 's/^ *//' | grep '^physics||'"
check_eq "sshare -a shows user sbalice under physics" "physics|sbalice|10" \
	sh -c "sshare -a -P -n -o Account,User,RawShares | sed 's/^ *//' | grep '|sbalice|'"

cd "$SB_DIR/jobs"
sb_users_known 20 sbalice:physics
j=$(runuser -u sbalice -- sbatch --parsable -A physics -o /dev/null --wrap 'sleep 1')
check "sbalice can submit to physics" grep -qE '^[0-9]+$' <<<"$j"
sb_job_wait "$j" 60
check_eq "the job completed" COMPLETED sb_job_state "$j"
check "sacct records the job for sbalice/physics" \
	wait_for 30 sh -c "sacct -n -P -X -j $j -o User,Account,State | grep -qx 'sbalice|physics|COMPLETED'"
nobody=$(runuser -u sbalice -- sbatch --parsable -A chem -o /dev/null --wrap true 2>&1)
check "a job for an account sbalice is not in is refused" \
	grep -q 'Invalid account' <<<"$nobody"

sb_cluster_stop
check "every daemon the harness started is gone ($(sb_pids))" sb_all_gone
