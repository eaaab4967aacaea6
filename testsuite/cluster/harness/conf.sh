# harness/conf.sh - the cluster's description (nodes, partitions, extra
# lines, accounting, the select plugin) and the slurm.conf written from it.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# What a mode (harness/front_end.sh, harness/backup.sh) writes
# differently comes through its hooks (_sb_mode, harness/daemons.sh) and
# SB_NODE_ADDR / SB_DBD_HOST, the addresses nodes and slurmdbd are
# reached at.

SB_NODES=()		# "HOSTLIST|FIRST_PORT|COUNT|ATTRS", one per sb_nodes
SB_NODE_NAMES=()
SB_PART_LINES=()
SB_EXTRA_CONF=()
SB_ACCT=0
SB_NODE_ADDR=127.0.0.1
SB_DBD_HOST=localhost

sb_nodes() {
	local hl=$1 attrs=${2:-} names n
	names=$(_sb_expand "$hl") || sb_die "bad hostlist '$hl'"
	n=$(wc -w <<<"$names")
	SB_NODES+=("$hl|$((SB_PORT_BASE + 10 + ${#SB_NODE_NAMES[@]}))|$n|$attrs")
	# shellcheck disable=SC2206
	SB_NODE_NAMES+=($names)
}

# "n[1-3,7]x" -> "n1x n2x n3x n7x" (one bracket group, as the tests use).
_sb_expand() {
	local hl=$1 pre ranges post r a b i
	if [[ $hl =~ ^([^][]*)\[([0-9,-]+)\]([^][]*)$ ]]; then
		pre=${BASH_REMATCH[1]} ranges=${BASH_REMATCH[2]} post=${BASH_REMATCH[3]}
		for r in ${ranges//,/ }; do
			a=${r%-*} b=${r#*-}
			[ -n "$a" ] && [ -n "$b" ] && [ "$a" -le "$b" ] || return 1
			for ((i = 10#$a; i <= 10#$b; i++)); do
				printf '%s%0*d%s\n' "$pre" ${#a} "$i" "$post"
			done
		done
	elif [[ $hl =~ ^[A-Za-z0-9_.-]+$ ]]; then
		echo "$hl"
	else
		return 1
	fi
}

# A NodeName line: HOSTLIST FIRST_PORT COUNT ATTRS. Each slurmd of a
# plain cluster listens on a port of its own.
_sb_plain_node_line() {
	local port=$2
	[ "$3" -gt 1 ] && port="[$2-$(($2 + $3 - 1))]"
	echo "NodeName=$1 NodeHostname=$SB_HOST NodeAddr=$SB_NODE_ADDR Port=$port $4"
}

sb_partition() { SB_PART_LINES+=("PartitionName=$1 $2"); }

sb_select_lines() {
	case $1 in
	bucket)
		echo "SelectType=select/bucket"
		if _sb_base_in_slurm_conf; then
			[ "$SB_BASE" = cons_tres ] &&
				echo "SelectTypeParameters=OTHER_CONS_TRES,CR_Core_Memory"
		else
			# the base: bucket.conf's BaseSelectType (_sb_bucket_base)
			[ "$SB_BASE" = cons_tres ] &&
				echo "SelectTypeParameters=CR_Core_Memory"
		fi
		;;
	cons_tres)
		echo "SelectType=select/cons_tres"
		echo "SelectTypeParameters=CR_Core_Memory"
		;;
	*) echo "SelectType=select/$1" ;;
	esac
	return 0
}

sb_select() {
	local l
	while read -r l; do
		sb_conf "$l"
	done < <(sb_select_lines "$1")
}

sb_switch_select() {
	local lines
	lines=$(sb_select_lines "$1")
	sed -i '/^SelectType=/Id; /^SelectTypeParameters=/Id' "$SLURM_CONF"
	printf '%s\n' "$lines" >>"$SLURM_CONF"
	[ "$1" = bucket ] && _sb_bucket_base replace
	sb_restart_all "${2:-60}"
}

sb_conf() { SB_EXTRA_CONF+=("$1"); }
sb_accounting() { SB_ACCT=1; }

# Drop the lines whose key an sb_conf line sets (keys are case-insensitive).
_sb_drop_overridden() {
	local keys="" l
	for l in "${SB_EXTRA_CONF[@]}"; do
		keys+="${l%%=*}|"
	done
	[ -n "$keys" ] || { cat; return; }
	awk -v keys="${keys%|}" 'BEGIN {
		n = split(tolower(keys), k, "|")
		for (i = 1; i <= n; i++) drop[k[i]] = 1
	}
	{ key = tolower($0); sub(/=.*/, "", key); if (!(key in drop)) print }'
}

# The controller lines of slurm.conf.
_sb_plain_conf_ctld() { echo "SlurmctldHost=$SB_HOST"; }

_sb_write_conf() {
	local n hl port count attrs
	{
		{
		cat <<EOC
# written by testsuite/cluster/harness.sh for '$SB_NAME'
ClusterName=${SB_NAME//[^a-z0-9]/}
$(_sb_mode conf_ctld)
SlurmctldPort=$SB_PORT_BASE
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SB_DIR/munge/munge.socket
PluginDir=${SB_PLUGIN_DIR:+$SB_PLUGIN_DIR:}$SB_SLURM_LIBDIR
PlugStackConfig=$SB_DIR/etc/plugstack.conf
StateSaveLocation=$SB_DIR/state/ctld
SlurmdSpoolDir=$SB_DIR/spool/%n
SlurmctldPidFile=$SB_DIR/run/slurmctld.pid
SlurmdPidFile=$SB_DIR/run/slurmd-%n.pid
SlurmctldLogFile=$SB_DIR/log/slurmctld.log
SlurmdLogFile=$SB_DIR/log/slurmd-%n.log
SlurmctldDebug=${SB_CTLD_DEBUG:-info}
SlurmdDebug=${SB_SLURMD_DEBUG:-info}
SlurmdParameters=config_overrides
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=1
MessageTimeout=5
EOC
		if [ "$SB_ACCT" = 1 ]; then
			cat <<EOC
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=$SB_DBD_HOST
AccountingStoragePort=$((SB_PORT_BASE + 1))
# For slurmdbd connections Slurm takes the munge socket from here.
AccountingStoragePass=$SB_DIR/munge/munge.socket
AccountingStorageEnforce=associations
PriorityType=priority/multifactor
PriorityWeightFairshare=10000
PriorityCalcPeriod=1
EOC
		else
			echo "AccountingStorageType=accounting_storage/none"
		fi
		_sb_series_conf
		} | _sb_drop_overridden
		printf '%s\n' "${SB_EXTRA_CONF[@]}"
		_sb_mode conf_nodes_before
		for n in "${SB_NODES[@]}"; do
			IFS='|' read -r hl port count attrs <<<"$n"
			_sb_mode node_line "$hl" "$port" "$count" "$attrs"
		done
		if [ ${#SB_PART_LINES[@]} = 0 ]; then
			echo "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP $SB_PART_OPTS"
		else
			printf '%s\n' "${SB_PART_LINES[@]}"
		fi
	} >"$SLURM_CONF"
	[ -f "$SB_DIR/etc/plugstack.conf" ] || : >"$SB_DIR/etc/plugstack.conf"
	_sb_series_files
	if grep -qix 'SelectType=select/bucket' "$SLURM_CONF"; then
		_sb_bucket_base add
	fi
}
_sb_plain_conf_nodes_before() { return 0; }

# slurmdbd has no -f: it reads slurmdbd.conf next to $SLURM_CONF.
_sb_write_dbd_conf() {
	cat >"$SB_DIR/etc/slurmdbd.conf" <<EOC
AuthType=auth/munge
AuthInfo=socket=$SB_DIR/munge/munge.socket
DbdHost=localhost
DbdPort=$((SB_PORT_BASE + 1))
SlurmUser=root
LogFile=$SB_DIR/log/slurmdbd.log
PidFile=$SB_DIR/run/slurmdbd.pid
DebugLevel=info
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$((SB_PORT_BASE + 2))
StorageUser=slurm
StoragePass=sbtest
StorageLoc=slurm_acct_db
EOC
	chmod 0600 "$SB_DIR/etc/slurmdbd.conf"
}
