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

sb_user_add sbalice
sb_check "sacctmgr adds account physics" \
	sacctmgr -i add account physics Fairshare=60 Description=phys Organization=sci
sb_check "sacctmgr adds user sbalice to physics" \
	sacctmgr -i add user sbalice Account=physics Fairshare=10
sb_check "sacctmgr adds user root to physics" \
	sacctmgr -i add user root Account=physics
sb_check_eq "sacctmgr lists the association" "physics|sbalice|10" \
	sacctmgr -n -P list assoc user=sbalice format=Account,User,Fairshare
sb_check_eq "sshare -a shows account physics with 60 raw shares" "physics||60" \
	sh -c "sshare -a -P -n -o Account,User,RawShares | sed 's/^ *//' | grep '^physics||'"
sb_check_eq "sshare -a shows user sbalice under physics" "physics|sbalice|10" \
	sh -c "sshare -a -P -n -o Account,User,RawShares | sed 's/^ *//' | grep '|sbalice|'"

cd "$SB_DIR/jobs"
sb_users_known 20 sbalice:physics
j=$(runuser -u sbalice -- sbatch --parsable -A physics -o /dev/null --wrap 'sleep 1')
sb_check "sbalice can submit to physics" grep -qE '^[0-9]+$' <<<"$j"
sb_job_wait "$j" 60
sb_check_eq "the job completed" COMPLETED sb_job_state "$j"
sb_check "sacct records the job for sbalice/physics" \
	sb_wait_for 30 sh -c "sacct -n -P -X -j $j -o User,Account,State | grep -qx 'sbalice|physics|COMPLETED'"
nobody=$(runuser -u sbalice -- sbatch --parsable -A chem -o /dev/null --wrap true 2>&1)
sb_check "a job for an account sbalice is not in is refused" \
	grep -q 'Invalid account' <<<"$nobody"

sb_cluster_stop
sb_check "every daemon the harness started is gone ($(sb_pids))" sb_all_gone
