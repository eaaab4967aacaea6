# harness.sh - a throwaway Slurm cluster on loopback, for live tests.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Source it from bash, as root. Everything lives in one scratch directory:
# munged with its own key, slurmctld, one 'slurmd -N <node>' per node
# (Debian builds Slurm with multiple-slurmd) and, on request, MariaDB with
# its own data directory and slurmdbd. Every process is started in the
# foreground under its real name (Slurm keys behaviour off argv[0]) and
# recorded by PID; sb_cluster_stop (also run on exit, whatever happened)
# stops exactly those PIDs and any slurmstepd they left behind.
#
#   sb_cluster_init NAME              scratch dir, trap; call first
#   sb_nodes HOSTLIST "ATTRS"         e.g. sb_nodes "red[1-4]" "CPUs=4 RealMemory=4000 Features=red"
#   sb_partition NAME "ATTRS"         default: one partition 'debug' with every node
#   sb_conf "Key=Value"               extra slurm.conf line (repeatable); it
#                                     replaces the harness's own line for Key
#   sb_accounting                     start MariaDB + slurmdbd, priority/multifactor
#   sb_select NAME                    SelectType=select/NAME (bucket, linear,
#                                     cons_tres); bucket runs over the base
#                                     SB_BASE names (linear or cons_tres)
#   sb_select_lines NAME              the slurm.conf lines sb_select writes
#   sb_bucket_over BASE               select/bucket says it runs over select/BASE
#   sb_running_exclusive              running jobs that hold whole nodes
#   sb_switch_select NAME [SECONDS]   put sb_select_lines NAME into the
#                                     running cluster's slurm.conf and
#                                     sb_restart_all (a SelectType change)
#   sb_cluster_start                  start daemons, wait until every node is idle
#   sb_cluster_stop                   stop everything by PID (idempotent)
#   sb_ctld_stop                      stop slurmctld alone (to restart it)
#   sb_ctld_start [SECONDS]           start slurmctld again; fails if it does
#                                     not answer (e.g. refused its config)
#   sb_nodes_back [SECONDS]           wait until every node answers again
#                                     (after sb_ctld_start, before a test
#                                     that expects given nodes)
#   sb_restart_all [SECONDS]          stop slurmctld and every slurmd, start
#                                     them again (as a SelectType change
#                                     needs); fails unless every node is back
#   sb_use_slurm PREFIX               run the Slurm of PREFIX (before init)
#   sb_switch_slurm PREFIX PLUGINS    upgrade the running cluster in place
#   sb_slurmd_kill NODE               SIGKILL one node's slurmd (a crash)
#   sb_slurmd_start NODE              start one node's slurmd again
#   check "what" CMD...               run CMD; print 'ok N - what' or 'not ok N - what'
#   check_eq "what" EXPECTED CMD...   CMD's stdout must equal EXPECTED
#   wait_for SECONDS CMD...           poll CMD until it succeeds (daemons checked)
#   sb_job_wait JOBID SECONDS         wait until the job has left the queue
#   sb_users_known SECONDS USER:ACCOUNT[:QOS]...
#                                     wait until slurmctld takes a job from
#                                     each user under that account (and QOS)
#   sb_job_state JOBID                the job's final state from scontrol
#   sb_stacks PID WHAT                every thread's stack (gdb) of a daemon
#                                     that hangs, into SB_DIR/log
#   sb_pids                           every PID the harness started
#
# Variables after sb_cluster_init: SB_DIR, SLURM_CONF (exported), SB_HOST.
# SB_BASE (linear, default, or cons_tres) is the base select/bucket runs
# over; with cons_tres, SB_PART_OPTS is "OverSubscribe=EXCLUSIVE", for the
# tests of whole-node semantics to put in their partitions (the default
# partition has it).
# SB_PORT_BASE (default 17100) picks the ports: slurmctld at the base,
# slurmdbd +1, MariaDB +2, nodes from +10.
# SB_FRONT_END=DIR (set before sb_cluster_init; DIR from
# bench/scale/fe-build) runs a front-end Slurm instead: slurmctld and
# slurmd from DIR/sbin with DIR/lib's libslurmfull, and ONE slurmd (the
# front end, port +10) serving every node, so 10,000 nodes fit here.
# LD_LIBRARY_PATH is exported with DIR/lib: the installed clients read
# slurm.conf, and only a front-end libslurmfull accepts FrontendName.

#
# Slurm series: SB_SLURM=22.05|24.11|26.05 picks the Slurm the cluster
# runs (default: the machine's own). When it names another series than
# this machine's slurmctld, the script that sourced the harness runs
# itself again, unchanged, inside the Debian 13 chroot
# (build-aux/sb-chroot), at source time: '. harness.sh' must come before
# anything the script does. 26.05 runs from the prefix
# build-aux/slurm-build installed it in (SB_SLURM_PREFIX; its bin and
# sbin go first in PATH), the others from Debian's packages (/usr). Its directory tree, /tmp and the environment are the same
# inside. SB_SERIES is the running Slurm's series; what differs between
# series in the files the harness writes is in the functions under
# "Slurm series" below.
#
# SB_TOP_SRCDIR (default: this checkout) and SB_TOP_BUILDDIR (default:
# SB_TOP_SRCDIR/build/SB_SERIES) are set by 'make check'.

SB_TOP_SRCDIR=${SB_TOP_SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}

# ---- Slurm series ----------------------------------------------------------
# The prefix of the Slurm SB_SLURM names here: 26.05's own (built in the
# chroot by build-aux/slurm-build), else Debian's /usr.
_sb_slurm_prefix() {
	if [ "${SB_SLURM:-}" = 26.05 ] && [ -n "${SB_IN_CHROOT:-}" ]; then
		"$SB_TOP_SRCDIR/build-aux/slurm-build" -q 26.05 prefix 2>/dev/null
		return 0
	fi
	echo /usr
}

# The series (22.05, 24.11, 26.05) of the slurmctld in $1 (a prefix)
# ("slurm 22.05.8", "slurm-wlm 24.11.5", "slurm 26.05.3"); empty when
# there is none.
_sb_series() {
	local v
	v=$("${1:-/usr}/sbin/slurmctld" -V 2>/dev/null | awk '{ print $NF }')
	[[ $v =~ ^[0-9]+\.[0-9]+ ]] && echo "${BASH_REMATCH[0]}"
	return 0
}

# Run the sourcing script inside the chroot when SB_SLURM asks for a
# series this machine does not have (called once, at source time, with
# the script's arguments).
_sb_enter_series() {
	local want=${SB_SLURM:-} have chroot=$SB_TOP_SRCDIR/build-aux/sb-chroot
	have=$(_sb_series "$(_sb_slurm_prefix)")
	[ -z "$want" ] || [ "$want" = "$have" ] && return 0
	if [ -n "${SB_IN_CHROOT:-}" ]; then
		echo "not ok 1 - harness: SB_SLURM=$want but the chroot's slurmctld is '${have:-missing}' (SB_SLURM=$want ./quickstart build)"
		exit 1
	fi
	case $want in
	24.11|26.05) ;;
	*)	echo "not ok 1 - harness: SB_SLURM=$want: this machine has Slurm ${have:-none}; other series: 24.11, 26.05 (Debian 13 chroot)"
		exit 1 ;;
	esac
	[ "$(id -u)" = 0 ] || { echo "not ok 1 - harness: SB_SLURM=$want needs root (chroot)"; exit 1; }
	"$chroot" create >&2 ||
		{ echo "not ok 1 - harness: build-aux/sb-chroot create failed"; exit 1; }
	echo "# [$(date +%T)] Slurm $want: running $0 in the chroot ($("$chroot" path))"
	exec "$chroot" run --bind "$SB_TOP_SRCDIR" bash "$(realpath "$0")" "$@"
}
_sb_enter_series "$@"
SB_SLURM_PREFIX=$(_sb_slurm_prefix)
SB_SBIN=$SB_SLURM_PREFIX/sbin
SB_SERIES=$(_sb_series "$SB_SLURM_PREFIX")
if [ "$SB_SLURM_PREFIX" != /usr ]; then
	# its clients (scontrol, squeue, sacctmgr...) before any others
	export PATH=$SB_SLURM_PREFIX/bin:$SB_SLURM_PREFIX/sbin:$PATH
	SB_SLURM_PLUGINDIR=${SB_SLURM_PLUGINDIR:-$SB_SLURM_PREFIX/lib/slurm}
fi
SB_TOP_BUILDDIR=${SB_TOP_BUILDDIR:-$SB_TOP_SRCDIR/build/$SB_SERIES}

# Is the running Slurm older than series $1? (23.02 < 24.11)
_sb_series_lt() {
	[ "$SB_SERIES" != "$1" ] &&
		[ "$(printf '%s\n' "$SB_SERIES" "$1" | sort -V | head -n 1)" = "$SB_SERIES" ]
}

# Lines for slurm.conf that this series needs (before SB_EXTRA_CONF: a
# test's sb_conf replaces them).
_sb_series_conf() {
	return 0
}

# Files next to slurm.conf that this series needs. From 23.x on, slurmd
# loads a cgroup plugin whatever ProctrackType and TaskPlugin say, and
# fails without a cgroup file system (as in the chroot):
# CgroupPlugin=disabled then.
_sb_series_files() {
	_sb_series_lt 23.02 && return 0
	if ! awk '$2 == "/sys/fs/cgroup" { f = 1 } END { exit !f }' /proc/self/mounts; then
		echo "CgroupPlugin=disabled" >"$SB_DIR/etc/cgroup.conf"
	fi
	return 0
}

# Does select/bucket take its base from SelectTypeParameters=OTHER_CONS_TRES?
# 24.11 removed that flag: bucket.conf's BaseSelectType names the base.
_sb_base_in_slurm_conf() { _sb_series_lt 23.11; }

# Put BaseSelectType=select/SB_BASE into the cluster's bucket.conf (24.11
# on): 'add' keeps a BaseSelectType the test wrote itself, 'replace' does not.
_sb_bucket_base() {
	local f=$SB_DIR/etc/bucket.conf
	_sb_base_in_slurm_conf && return 0
	if [ -f "$f" ] && grep -qi '^BaseSelectType=' "$f"; then
		[ "$1" = add ] && return 0
		sed -i '/^BaseSelectType=/Id' "$f"
	fi
	echo "BaseSelectType=select/$SB_BASE" >>"$f"
}

# The bucket.conf lines select/bucket needs on this series, for tests
# that write bucket.conf again while the cluster runs.
sb_bucket_conf_base() {
	_sb_base_in_slurm_conf || echo "BaseSelectType=select/${SB_BASE:-linear}"
	return 0
}

# Does the running select/bucket say it runs over select/$1? In 'scontrol
# show config' until 24.11; 26.05 prints no select plugin section there,
# so slurmctld's log says it.
sb_bucket_over() {
	if _sb_series_lt 25.05; then
		scontrol show config | grep -q "BaseSelectType *= select/$1"
	else
		grep -q "select/bucket: .*choosing nodes over the base plugin select/$1\$" \
			"$SB_DIR/log/slurmctld.log"
	fi
}

# The running jobs that hold their nodes whole (--exclusive, or a
# partition with OverSubscribe=EXCLUSIVE). squeue's %h says NO for them
# until 24.11; 26.05 shows oversubscription there (NO for most jobs) and
# exclusivity in -O Exclusive (NODE, USER, MCS, TOPO; NO for none).
sb_running_exclusive() {
	if _sb_series_lt 25.05; then
		squeue -h -t RUNNING -o '%i %h' | awk '$2 == "NO" { print $1 }'
	else
		squeue -h -t RUNNING -O JobID,Exclusive | awk '$2 != "NO" { print $1 }'
	fi
}

# ---------------------------------------------------------------------------
SB_SLURM_LIBDIR=${SB_SLURM_PLUGINDIR:-/usr/lib/x86_64-linux-gnu/slurm-wlm}
SB_PIDS=()
SB_NODE_LINES=()
SB_NODE_NAMES=()
SB_PART_LINES=()
SB_EXTRA_CONF=()
SB_ACCT=0
SB_NCHECK=0
SB_NFAIL=0
SB_STOPPED=0

_sb_say() { echo "# [$(date +%T)] $*"; }
_sb_die() {
	echo "not ok $((SB_NCHECK += 1)) - harness: $*"
	SB_NFAIL=$((SB_NFAIL + 1))
	exit 1
}

sb_cluster_init() {
	local name=$1
	[ "$(id -u)" = 0 ] || _sb_die "live tests need root"
	SB_BASE=${SB_BASE:-linear}
	case $SB_BASE in
	linear) SB_PART_OPTS="" ;;
	cons_tres) SB_PART_OPTS="OverSubscribe=EXCLUSIVE" ;;
	*) _sb_die "SB_BASE=$SB_BASE: expected linear or cons_tres" ;;
	esac
	SB_NAME=$name
	SB_DIR=$(mktemp -d "${SB_SCRATCH:-/tmp}/sb-$name.XXXXXX") ||
		_sb_die "cannot create a scratch directory"
	# Daemons run as root but jobs may run as other users, and munged
	# refuses a socket directory that others can write.
	chmod 0755 "$SB_DIR"
	mkdir -p "$SB_DIR"/{etc,log,run,state/ctld,spool,munge,jobs}
	chmod 1777 "$SB_DIR/jobs"
	# Jobs' users load plugins too (sbatch reads PluginDir, the SPANK
	# plugin): a build tree under /root or a mktemp directory is closed to
	# them, so the cluster gets its own copy in SB_DIR.
	if [ -n "${SB_PLUGIN_DIR:-}" ]; then
		mkdir -p "$SB_DIR/plugins"
		cp -L "$SB_PLUGIN_DIR"/*.so "$SB_DIR/plugins/" ||
			_sb_die "cannot copy the plugins of $SB_PLUGIN_DIR"
		SB_PLUGIN_DIR=$SB_DIR/plugins
	fi
	SB_HOST=$(hostname)
	getent hosts "$SB_HOST" >/dev/null ||
		_sb_die "hostname '$SB_HOST' does not resolve (add it to /etc/hosts)"
	SB_PORT_BASE=${SB_PORT_BASE:-17100}
	SB_SBIN=$SB_SLURM_PREFIX/sbin
	if [ -n "${SB_FRONT_END:-}" ]; then
		[ -x "$SB_FRONT_END/sbin/slurmctld" ] ||
			_sb_die "SB_FRONT_END=$SB_FRONT_END: no sbin/slurmctld (run bench/scale/fe-build)"
		SB_SBIN=$SB_FRONT_END/sbin
		export LD_LIBRARY_PATH=$SB_FRONT_END/lib
	fi
	export SLURM_CONF="$SB_DIR/etc/slurm.conf"
	trap '_sb_exit_trap' EXIT
	_sb_say "cluster '$name' in $SB_DIR"
}

sb_nodes() {
	local hl=$1 attrs=${2:-}
	local names
	names=$(_sb_expand "$hl") || _sb_die "bad hostlist '$hl'"
	local n
	n=$(wc -w <<<"$names")
	local first=$((SB_PORT_BASE + 10 + ${#SB_NODE_NAMES[@]}))
	local port="$first"
	[ "$n" -gt 1 ] && port="[$first-$((first + n - 1))]"
	# shellcheck disable=SC2206
	SB_NODE_NAMES+=($names)
	if [ -n "${SB_FRONT_END:-}" ]; then
		SB_NODE_LINES+=("NodeName=$hl NodeHostname=$SB_HOST $attrs")
	else
		# (NodeAddr: _sb_write_conf puts in the address the controllers reach)
		SB_NODE_LINES+=("NodeName=$hl NodeHostname=$SB_HOST NodeAddr=127.0.0.1 Port=$port $attrs")
	fi
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

sb_switch_select() {
	local lines
	lines=$(sb_select_lines "$1")
	sed -i '/^SelectType=/Id; /^SelectTypeParameters=/Id' "$SLURM_CONF"
	printf '%s\n' "$lines" >>"$SLURM_CONF"
	[ "$1" = bucket ] && _sb_bucket_base replace
	sb_restart_all "${2:-60}"
}

sb_select() {
	local l
	while read -r l; do
		sb_conf "$l"
	done < <(sb_select_lines "$1")
}
sb_conf() { SB_EXTRA_CONF+=("$1"); }
sb_accounting() { SB_ACCT=1; }
sb_pids() { echo "${SB_PIDS[@]}"; }

# Is every daemon we started still running?
_sb_alive() {
	local p
	for p in "${SB_PIDS[@]}"; do
		kill -0 "$p" 2>/dev/null || return 1
	done
}

wait_for() {
	local secs=$1
	shift
	local end=$((SECONDS + secs))
	while [ $SECONDS -lt $end ]; do
		"$@" >/dev/null 2>&1 && return 0
		_sb_alive || { _sb_say "a daemon died while waiting for: $*"; return 1; }
		sleep 0.5
	done
	return 1
}

# sacctmgr's additions reach slurmctld a moment after sacctmgr returns:
# a user's association (and QOS) is known once slurmctld would start a
# job of theirs under it (sbatch --test-only, run from a directory the
# user may read).
_sb_can_submit() {
	local u=${1%%:*} rest=${1#*:} a q=
	a=${rest%%:*}
	[ "$rest" != "$a" ] && q=${rest#*:}
	runuser -u "$u" -- sbatch --test-only -A "$a" ${q:+-q "$q"} --wrap true 2>&1 |
		grep -q 'to start'
}
_sb_all_can_submit() {
	local p
	for p in "$@"; do
		_sb_can_submit "$p" || return 1
	done
}
sb_users_known() {
	local secs=$1
	shift
	wait_for "$secs" _sb_all_can_submit "$@"
}

check() {
	local what=$1
	shift
	if "$@"; then
		echo "ok $((SB_NCHECK += 1)) - $what"
	else
		echo "not ok $((SB_NCHECK += 1)) - $what"
		SB_NFAIL=$((SB_NFAIL + 1))
	fi
}

check_eq() {
	local what=$1 expected=$2 got
	shift 2
	got=$("$@" 2>&1)
	if [ "$got" = "$expected" ]; then
		echo "ok $((SB_NCHECK += 1)) - $what"
	else
		echo "not ok $((SB_NCHECK += 1)) - $what"
		echo "#   expected: $(printf '%q' "$expected")"
		echo "#   got:      $(printf '%q' "$got")"
		SB_NFAIL=$((SB_NFAIL + 1))
	fi
}

_sb_job_gone() { [ -z "$(squeue -h -j "$1" -o %i 2>/dev/null)" ]; }
sb_job_wait() { wait_for "${2:-60}" _sb_job_gone "$1"; }
sb_job_state() {
	scontrol show job "$1" 2>/dev/null |
		sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -n 1
}

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

_sb_write_conf() {
	local nodes_all
	nodes_all=$(IFS=,; echo "${SB_NODE_NAMES[*]}")
	{
		{
		cat <<EOF
# written by testsuite/cluster/harness.sh for '$SB_NAME'
ClusterName=${SB_NAME//[^a-z0-9]/}
$(_sb_ctld_hosts)
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
EOF
		if [ "$SB_ACCT" = 1 ]; then
			cat <<EOF
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=${SB_HA_ADDR0:-localhost}
AccountingStoragePort=$((SB_PORT_BASE + 1))
# For slurmdbd connections Slurm takes the munge socket from here.
AccountingStoragePass=$SB_DIR/munge/munge.socket
AccountingStorageEnforce=associations
PriorityType=priority/multifactor
PriorityWeightFairshare=10000
PriorityCalcPeriod=1
EOF
		else
			echo "AccountingStorageType=accounting_storage/none"
		fi
		_sb_series_conf
		} | _sb_drop_overridden
		printf '%s\n' "${SB_EXTRA_CONF[@]}"
		[ -n "${SB_FRONT_END:-}" ] &&
			echo "FrontendName=$SB_HOST FrontendAddr=127.0.0.1 Port=$((SB_PORT_BASE + 10))"
		printf '%s\n' "${SB_NODE_LINES[@]}" |
			sed "s/ NodeAddr=127\.0\.0\.1 / NodeAddr=${SB_HA_ADDR0:-127.0.0.1} /"
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

_sb_start_munge() {
	local d=$SB_DIR/munge
	dd if=/dev/urandom of="$d/munge.key" bs=1024 count=1 2>/dev/null
	chmod 0400 "$d/munge.key"
	/usr/sbin/munged --foreground --key-file="$d/munge.key" \
		--socket="$d/munge.socket" --pid-file="$d/munged.pid" \
		--log-file="$d/munged.log" --seed-file="$d/munged.seed" \
		>"$SB_DIR/log/munged.out" 2>&1 &
	SB_PIDS+=($!)
	wait_for 10 munge -n -S "$d/munge.socket" ||
		_sb_die "munged did not come up (see $SB_DIR/log/munged.out)"
}

_sb_start_mariadb() {
	# mariadbd runs as mysql: its data, socket, pid and log live in a
	# directory that user owns.
	local d=$SB_DIR/mysql
	SB_MYSQL_SOCK=$d/mysqld.sock
	mkdir -p "$d/data" "$d/tmp"
	chown -R mysql:mysql "$d"
	# Its own temporary directory: two clusters installing at once (t32)
	# would meet in /tmp's "#sql-temptable-*" files.
	TMPDIR=$d/tmp mariadb-install-db --user=mysql --datadir="$d/data" --skip-test-db \
		>"$SB_DIR/log/mariadb-install.log" 2>&1 ||
		_sb_die "mariadb-install-db failed (see $SB_DIR/log/mariadb-install.log)"
	/usr/sbin/mariadbd --no-defaults --user=mysql --datadir="$d/data" \
		--tmpdir="$d/tmp" \
		--socket="$SB_MYSQL_SOCK" --pid-file="$d/mysqld.pid" \
		--bind-address=127.0.0.1 --port=$((SB_PORT_BASE + 2)) \
		--innodb-buffer-pool-size=128M --innodb-lock-wait-timeout=900 \
		--log-error="$d/mariadbd.log" >"$SB_DIR/log/mariadbd.out" 2>&1 &
	SB_PIDS+=($!)
	wait_for 30 mariadb-admin --socket="$SB_MYSQL_SOCK" ping ||
		_sb_die "mariadbd did not come up: $(tail -n 3 "$d/mariadbd.log" 2>/dev/null)"
	# The database exists before slurmdbd connects: when it does not,
	# slurmdbd 24.11 creates it and then reuses the connection handle
	# whose connect failed, and with MariaDB 11.8's client library every
	# query on that handle fails ("Number of columns in result (=1) set
	# execeeds maxmimum allowed number of columns (=0)").
	mariadb --socket="$SB_MYSQL_SOCK" -e "
		CREATE DATABASE IF NOT EXISTS slurm_acct_db;
		CREATE OR REPLACE USER 'slurm'@'127.0.0.1' IDENTIFIED BY 'sbtest';
		CREATE OR REPLACE USER 'slurm'@'localhost' IDENTIFIED BY 'sbtest';
		GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';
		GRANT ALL ON slurm_acct_db.* TO 'slurm'@'localhost';
		FLUSH PRIVILEGES;" || _sb_die "cannot create the slurm database user"
}

_sb_start_slurmdbd() {
	# slurmdbd has no -f: it reads slurmdbd.conf next to $SLURM_CONF.
	cat >"$SB_DIR/etc/slurmdbd.conf" <<EOF
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
EOF
	chmod 0600 "$SB_DIR/etc/slurmdbd.conf"
	_sb_run_slurmdbd
	sacctmgr -i add cluster "${SB_NAME//[^a-z0-9]/}" >/dev/null ||
		_sb_die "sacctmgr add cluster failed"
}

# Start slurmdbd on the written slurmdbd.conf; wait until it says it has
# started (once more than its log said so far).
_sb_run_slurmdbd() {
	local log=$SB_DIR/log/slurmdbd.log n
	n=$(grep -c 'slurmdbd version .* started' "$log" 2>/dev/null)
	if [ -n "${SB_FRONT_END:-}" ]; then
		# a front end builds slurmctld alone: the Slurm's own
		# slurmdbd, on its own libslurmfull (env execs: same PID)
		env -u LD_LIBRARY_PATH "$SB_SLURM_PREFIX/sbin/slurmdbd" -D \
			>>"$SB_DIR/log/slurmdbd.out" 2>&1 &
	else
		"$SB_SBIN/slurmdbd" -D >>"$SB_DIR/log/slurmdbd.out" 2>&1 &
	fi
	SB_DBD_PID=$!
	SB_PIDS+=($SB_DBD_PID)
	# (a database of an older Slurm is converted first: minutes allowed)
	wait_for 180 sh -c "[ \$(grep -c 'slurmdbd version .* started' '$log') -gt ${n:-0} ]" ||
		_sb_die "slurmdbd did not start (see $log)"
}

_sb_all_idle() {
	local want=${#SB_NODE_NAMES[@]} got
	got=$(sinfo -h -N -o '%N %t' 2>/dev/null | awk '$2 == "idle"' | sort -u | wc -l)
	[ "$got" = "$want" ]
}

sb_cluster_start() {
	[ ${#SB_NODE_NAMES[@]} -gt 0 ] || _sb_die "no nodes: call sb_nodes first"
	_sb_write_conf
	# (first: slurmdbd's address, SB_HA_ADDR0, is on its veth)
	[ -n "$SB_HA_ADDR0" ] && _sb_ha_net_up
	_sb_start_munge
	if [ "$SB_ACCT" = 1 ]; then
		_sb_start_mariadb
		_sb_start_slurmdbd
	fi
	_sb_ctld_run 1
	SB_CTLD_T0=${EPOCHREALTIME/./}
	wait_for 30 _sb_ctld_answers 1 ||
		_sb_die "slurmctld did not answer (see $SB_DIR/log/slurmctld.log)"
	if [ -n "$SB_HA_ADDR0" ]; then
		sb_backup_start ||
			_sb_die "the backup slurmctld did not wait in standby (see $SB_DIR/backup/log/slurmctld.log)"
	fi
	_sb_start_slurmds
	wait_for $((30 + ${#SB_NODE_NAMES[@]} / 4)) _sb_all_idle ||
		_sb_die "not every node became idle: $(sinfo -h -N -o '%N:%t' 2>&1 | tr '\n' ' ')"
	_sb_ctld_settle
	_sb_say "${#SB_NODE_NAMES[@]} nodes idle; daemons: ${SB_PIDS[*]}"
}

# slurmd PIDs by node name
declare -A SB_SLURMD_PID=()

sb_slurmd_start() {
	mkdir -p "$SB_DIR/spool/$1"
	"$SB_SBIN/slurmd" -D -N "$1" -f "$SLURM_CONF" \
		>>"$SB_DIR/log/slurmd-$1.out" 2>&1 &
	SB_PIDS+=($!)
	SB_SLURMD_PID[$1]=$!
}

# The front end: one slurmd for every node, running the front-end
# slurmstepd (slurmd would exec /usr/sbin/slurmstepd).
_sb_start_front_end() {
	mkdir -p "$SB_DIR/spool/$SB_HOST"
	"$SB_SBIN/slurmd" -D -f "$SLURM_CONF" -d "$SB_SBIN/slurmstepd" \
		>>"$SB_DIR/log/slurmd-$SB_HOST.out" 2>&1 &
	SB_PIDS+=($!)
	SB_SLURMD_PID[$SB_HOST]=$!
}

_sb_start_slurmds() {
	local n
	[ -n "${SB_FRONT_END:-}" ] && { _sb_start_front_end; return; }
	for n in "${SB_NODE_NAMES[@]}"; do
		sb_slurmd_start "$n"
	done
}

# Stop PIDs (TERM, then KILL after 30 s) and forget them.
_sb_stop_pids() {
	local p q i keep=()
	for p in "$@"; do
		kill -TERM "$p" 2>/dev/null
	done
	for i in $(seq 120); do
		q=0
		for p in "$@"; do
			kill -0 "$p" 2>/dev/null && q=1
		done
		[ $q = 0 ] && break
		sleep 0.25
	done
	for p in "$@"; do
		kill -0 "$p" 2>/dev/null && kill -KILL "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	for q in "${SB_PIDS[@]}"; do
		[[ " $* " == *" $q "* ]] || keep+=("$q")
	done
	SB_PIDS=("${keep[@]}")
}

sb_slurmd_kill() {
	local p=${SB_SLURMD_PID[$1]:-}
	[ -n "$p" ] || return 1
	kill -KILL "$p" 2>/dev/null
	wait "$p" 2>/dev/null
	_sb_stop_pids "$p"
	unset "SB_SLURMD_PID[$1]"
}

# Every node answers again: none is down, unknown or not responding.
_sb_all_back() {
	local bad
	bad=$(sinfo -h -N -o '%N %t' 2>/dev/null | awk '$2 ~ /(down|unk|\*|fail|boot)/' | wc -l)
	[ "$bad" = 0 ] && [ -n "$(sinfo -h -N -o %N 2>/dev/null)" ]
}

# After a restart, slurmctld 26.05 holds every node UNKNOWN, and
# schedules none, until its slurmd registers again; the slurmds answer
# its first ping round one by one, 2-5 s after the start. A job placed
# before that gets the nodes that answered first (t22 on CI: FASTEST
# gave p6, as p3 had not answered yet).
sb_nodes_back() {
	wait_for "${1:-30}" _sb_all_back
}

sb_restart_all() {
	local secs=${1:-60} n
	sb_ctld_stop
	_sb_stop_pids "${SB_SLURMD_PID[@]}"
	SB_SLURMD_PID=()
	sb_ctld_start "$secs" || return 1
	_sb_start_slurmds
	sb_nodes_back "$secs"
}

sb_ctld_stop() {
	[ -n "${SB_CTLD_PID:-}" ] || return 0
	_sb_stop_pids "$SB_CTLD_PID"
	SB_CTLD_PID=
}

sb_ctld_start() {
	local secs=${1:-30}
	_sb_ctld_run 1
	wait_for "$secs" _sb_ctld_answers 1
}

# SIGKILL slurmctld (the primary): a crash, no state saved.
sb_ctld_kill() {
	[ -n "${SB_CTLD_PID:-}" ] || return 0
	kill -KILL "$SB_CTLD_PID" 2>/dev/null
	_sb_stop_pids "$SB_CTLD_PID"
	SB_CTLD_PID=
}

# Start slurmctld N (1: the primary, SB_CTLD_PID; 2: the backup,
# SB_BACKUP_PID) in the background, in its namespaces when there are two.
_sb_ctld_run() {
	local out=$SB_DIR/log/slurmctld.out pid
	if [ -z "$SB_HA_ADDR0" ]; then
		"$SB_SBIN/slurmctld" -D -f "$SLURM_CONF" >>"$out" 2>&1 &
	elif [ "$1" = 1 ]; then
		nsenter -t "${SB_NS_PID[ctl1]}" -n -u -- \
			"$SB_SBIN/slurmctld" -D -f "$SLURM_CONF" >>"$out" 2>&1 &
	else
		# its own mount namespace: its log and pid file (-r: the
		# holder's root, the chroot's inside the chroot)
		out=$SB_DIR/backup/log/slurmctld.out
		nsenter -t "${SB_NS_PID[ctl2]}" -n -u -m -r -- \
			"$SB_SBIN/slurmctld" -D -f "$SLURM_CONF" >>"$out" 2>&1 &
	fi
	pid=$!
	SB_PIDS+=($pid)
	if [ "$1" = 2 ]; then SB_BACKUP_PID=$pid; else SB_CTLD_PID=$pid; fi
	# where this process's lines in the log begin (sb_ctld_role)
	SB_CTLD_LOG_AT[$1]=$(stat -c %s "$(sb_ctld_log "$1")" 2>/dev/null || echo 0)
}

# Does slurmctld N answer as the controller in charge? With one
# controller: scontrol ping. With two: its role (sb_ctld_role) is
# control and the cluster answers squeue.
_sb_ctld_answers() {
	if [ -z "$SB_HA_ADDR0" ]; then
		scontrol ping >/dev/null 2>&1
	else
		_sb_role_is "$1" control && squeue -h -o %i >/dev/null 2>&1
	fi
}

# Wait until slurmctld has been up SB_CTLD_SETTLE seconds (default 4),
# once its nodes are idle (sb_cluster_start; not after a restart, where
# slurmds may start after slurmctld and its first ping round must find
# them). About 3 s after it starts, slurmctld's first ping round asks some nodes
# to register (ping_nodes, MIN_CHECKIN_TIME). To answer, slurmd connects
# to each of its slurmstepds, and one still starting (its socket bound,
# not yet listening) is taken for a stray: slurmd deletes its batch script
# and the job exits 2 ("execve(): slurm_script: No such file or
# directory", seen on 26.05.3 under CI load, under any select plugin).
# Jobs submitted after that round do not meet it.
_sb_ctld_settle() {
	local left
	left=$(( ${SB_CTLD_SETTLE:-4} * 1000000 - (${EPOCHREALTIME/./} - SB_CTLD_T0) ))
	[ "$left" -gt 0 ] && sleep "$(printf '%d.%06d' $((left / 1000000)) $((left % 1000000)))"
	return 0
}

# ---- a backup controller ---------------------------------------------------
# sb_backup_controller [TIMEOUT]  (after sb_cluster_init, before
# sb_cluster_start): two slurmctld sharing StateSaveLocation, ctl1 the
# primary (SB_CTLD_PID) and ctl2 the backup (SB_BACKUP_PID), with
# SlurmctldTimeout=TIMEOUT (default 6 s). slurmctld takes its role from
# its host name and binds every address on SlurmctldPort, so each runs
# in a network and UTS namespace of its own, held open by a 'sleep' the
# harness starts (SB_NS_PID):
#   hub   a bridge joining the others (no frame crosses the machine's own
#         bridges or firewall)
#   ctl1  host name ctl1, address SB_HA_ADDR1
#   ctl2  host name ctl2, address SB_HA_ADDR2, and a mount namespace that
#         puts SB_DIR/backup/{log,run} over SB_DIR/{log,run}: the
#         backup's slurmctld.log and pid file are its own
# The machine's namespace, where slurmd, slurmdbd and every client stay,
# reaches the hub through one veth pair, sb<SB_PORT_BASE> at
# SB_HA_ADDR0: the nodes' NodeAddr and AccountingStorageHost. The
# addresses are a /28 of 192.0.2.0/24 (TEST-NET-1, never routed) picked
# by SB_PORT_BASE, so two clusters on other ports can run at once.
# sb_cluster_stop removes it all: the holders by PID, the veth by name.
#
#   sb_ctld_role 1|2       control, standby (a backup waiting), starting
#                          or down: from the controller's process and
#                          the last role line it logged
#   sb_backup_start        start the backup; waits until it is in standby
#   sb_takeover [SECONDS]  scontrol takeover: the primary exits, the
#                          backup takes control
#   sb_ctld_kill           SIGKILL the primary (not the backup)
#   sb_ctld_log 1|2        controller N's slurmctld.log
#   sb_ctld_log_since 1|2  what controller N logged since its last start
SB_HA_ADDR0=
declare -A SB_NS_PID=()
SB_CTLD_LOG_AT=()

sb_backup_controller() {
	local i=$(( (SB_PORT_BASE / 100) % 16 ))
	[ -n "${SB_DIR:-}" ] || _sb_die "sb_backup_controller: call sb_cluster_init first"
	[ -z "${SB_FRONT_END:-}" ] || _sb_die "sb_backup_controller: not with a front end"
	SB_HA_TIMEOUT=${1:-6}
	SB_HA_ADDR0=192.0.2.$((16 * i + 1))
	SB_HA_ADDR1=192.0.2.$((16 * i + 2))
	SB_HA_ADDR2=192.0.2.$((16 * i + 3))
	SB_HA_LINK=sb$SB_PORT_BASE
	mkdir -p "$SB_DIR/backup/log" "$SB_DIR/backup/run"
}

# slurm.conf's controller lines.
_sb_ctld_hosts() {
	if [ -z "$SB_HA_ADDR0" ]; then
		echo "SlurmctldHost=$SB_HOST"
		return 0
	fi
	echo "SlurmctldHost=ctl1($SB_HA_ADDR1)"
	echo "SlurmctldHost=ctl2($SB_HA_ADDR2)"
	echo "SlurmctldTimeout=$SB_HA_TIMEOUT"
}

# A namespace holder NAME: 'sleep' in new network and UTS namespaces
# (and a mount namespace for ctl2), its host name NAME, loopback up; the
# hub gets a bridge. Ready once its setup is done (SB_DIR/ns-NAME.ready).
_sb_ns_hold() {
	local name=$1 setup mnt=()
	setup='ip link set lo up && echo "$0" >/proc/sys/kernel/hostname'
	case $name in
	hub) setup+=' && ip link add sbbr type bridge && ip link set sbbr up' ;;
	ctl2)
		# Mounts made here must not reach the machine's namespace.
		# unshare's '--propagation private' fails in the chroot (its
		# / is no mount point), where build-aux/sb-chroot has made
		# every mount private already: try, then check.
		mnt=(--mount --propagation unchanged)
		setup+=" && { mount --make-rprivate / 2>/dev/null ||"
		setup+=" ! grep -q ' shared:' /proc/self/mountinfo; }"
		setup+=" && mount --bind '$SB_DIR/backup/log' '$SB_DIR/log'"
		setup+=" && mount --bind '$SB_DIR/backup/run' '$SB_DIR/run'"
		;;
	esac
	rm -f "$SB_DIR/ns-$name.ready"
	unshare --net --uts "${mnt[@]}" -- sh -c \
		"$setup && : >'$SB_DIR/ns-$name.ready' && exec sleep infinity" "$name" \
		>>"$SB_DIR/log/namespaces.log" 2>&1 &
	SB_NS_PID[$name]=$!
	wait_for 10 test -e "$SB_DIR/ns-$name.ready" ||
		_sb_die "the $name namespace did not come up (see $SB_DIR/log/namespaces.log)"
}

_sb_ha_net_up() {
	local hub n k addr
	ip link del "$SB_HA_LINK" 2>/dev/null	# a run killed before it cleaned up
	for n in hub ctl1 ctl2; do
		_sb_ns_hold "$n"
	done
	hub=${SB_NS_PID[hub]}
	{
		ip link add "$SB_HA_LINK" type veth peer name up0 netns "$hub" &&
		nsenter -t "$hub" -n ip link set up0 master sbbr up &&
		ip addr add "$SB_HA_ADDR0/28" dev "$SB_HA_LINK" &&
		ip link set "$SB_HA_LINK" up
	} >>"$SB_DIR/log/namespaces.log" 2>&1 ||
		_sb_die "cannot link the hub namespace (see $SB_DIR/log/namespaces.log)"
	for k in 1 2; do
		n=ctl$k
		[ $k = 1 ] && addr=$SB_HA_ADDR1 || addr=$SB_HA_ADDR2
		{
			nsenter -t "$hub" -n ip link add "$n" type veth peer name eth0 netns "${SB_NS_PID[$n]}" &&
			nsenter -t "$hub" -n ip link set "$n" master sbbr up &&
			nsenter -t "${SB_NS_PID[$n]}" -n ip addr add "$addr/28" dev eth0 &&
			nsenter -t "${SB_NS_PID[$n]}" -n ip link set eth0 up
		} >>"$SB_DIR/log/namespaces.log" 2>&1 ||
			_sb_die "cannot link the $n namespace (see $SB_DIR/log/namespaces.log)"
	done
	_sb_say "controllers ctl1 ($SB_HA_ADDR1), ctl2 ($SB_HA_ADDR2); nodes and slurmdbd at $SB_HA_ADDR0 ($SB_HA_LINK); holders ${SB_NS_PID[*]}"
}

# Remove what _sb_ha_net_up made, whatever is left of it.
_sb_ha_net_down() {
	local p
	[ -n "$SB_HA_ADDR0" ] || return 0
	for p in "${SB_NS_PID[@]}"; do
		kill -KILL "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	ip link del "$SB_HA_LINK" 2>/dev/null
	return 0
}

sb_ctld_log() {
	if [ "$1" = 2 ]; then echo "$SB_DIR/backup/log/slurmctld.log"
	else echo "$SB_DIR/log/slurmctld.log"; fi
}

# What controller N logged since its last start (SB_CTLD_LOG_AT).
sb_ctld_log_since() {
	tail -c +$((${SB_CTLD_LOG_AT[$1]:-0} + 1)) "$(sb_ctld_log "$1")" 2>/dev/null
}

sb_ctld_role() {
	local pid
	[ "$1" = 2 ] && pid=${SB_BACKUP_PID:-} || pid=${SB_CTLD_PID:-}
	if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then
		echo down
		return 0
	fi
	sb_ctld_log_since "$1" |
		awk '/Running as primary controller/ { r = "control" }
		     /slurmctld running in background mode/ { r = "standby" }
		     END { print r ? r : "starting" }'
}

# sb_takeover [SECONDS]: 'scontrol takeover', as an admin hands control
# to the backup before the primary's host goes down: the backup asks the
# primary to stop (it saves its state and exits) and takes over. Waits
# for both; fails unless the backup answers in control in time.
sb_takeover() {
	local secs=${1:-30} p=${SB_CTLD_PID:-}
	scontrol takeover >/dev/null || return 1
	if [ -n "$p" ]; then
		wait_for "$secs" sh -c "! kill -0 $p 2>/dev/null" || return 1
		_sb_stop_pids "$p"
		SB_CTLD_PID=
	fi
	wait_for "$secs" _sb_ctld_answers 2
}

sb_backup_start() {
	_sb_ctld_run 2
	wait_for "${1:-30}" _sb_role_is 2 standby
}
_sb_role_is() { [ "$(sb_ctld_role "$1")" = "$2" ]; }

# sb_use_slurm PREFIX: run the Slurm installed in PREFIX (/usr: Debian's)
# from here on, whatever SB_SLURM said: its daemons, its clients first in
# PATH, its PluginDir. Before sb_cluster_init, or through sb_switch_slurm.
sb_use_slurm() {
	local prefix=$1 keep=() d p
	[ -x "$prefix/sbin/slurmctld" ] || _sb_die "sb_use_slurm: no $prefix/sbin/slurmctld"
	IFS=: read -ra d <<<"$PATH"
	for p in "${d[@]}"; do
		[ "$SB_SLURM_PREFIX" != /usr ] && [[ $p == "$SB_SLURM_PREFIX"/* ]] && continue
		keep+=("$p")
	done
	PATH=$(IFS=:; echo "${keep[*]}")
	[ "$prefix" = /usr ] || PATH=$prefix/bin:$prefix/sbin:$PATH
	export PATH
	SB_SLURM_PREFIX=$prefix
	SB_SBIN=$prefix/sbin
	SB_SERIES=$(_sb_series "$prefix")
	if [ "$prefix" = /usr ]; then
		SB_SLURM_LIBDIR=/usr/lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)/slurm-wlm
	else
		SB_SLURM_LIBDIR=$prefix/lib/slurm
	fi
	hash -r
}

# sb_switch_slurm PREFIX PLUGIN_DIR [SECONDS]: upgrade the running cluster
# in place, as a site does: slurmdbd, slurmctld and every slurmd stopped
# (running jobs' slurmstepd go on), the Slurm of PREFIX with our plugins
# from PLUGIN_DIR (built for it) put in, the new daemons started on the
# same state, database and spool. Fails unless every node is back.
sb_switch_slurm() {
	local prefix=$1 plugins=$2 secs=${3:-120}
	_sb_stop_pids "${SB_SLURMD_PID[@]}"
	SB_SLURMD_PID=()
	sb_ctld_stop
	if [ -n "${SB_DBD_PID:-}" ]; then
		_sb_stop_pids "$SB_DBD_PID"
		SB_DBD_PID=
	fi
	sb_use_slurm "$prefix"
	rm -f "$SB_DIR"/plugins/*.so
	cp -L "$plugins"/*.so "$SB_DIR/plugins/" ||
		{ _sb_say "cannot copy the plugins of $plugins"; return 1; }
	sed -i "s|^PluginDir=.*|PluginDir=$SB_DIR/plugins:$SB_SLURM_LIBDIR|" "$SLURM_CONF"
	_sb_series_files
	[ "$SB_ACCT" = 1 ] && _sb_run_slurmdbd
	sb_ctld_start "$secs" || return 1
	_sb_start_slurmds
	sb_nodes_back "$secs"
}

# slurmstepd processes are daemons of their own; find ours by SLURM_CONF.
_sb_our_stepds() {
	local p
	for p in $(pgrep -x slurmstepd 2>/dev/null); do
		# (the process may be gone by now: no message for that)
		{ tr '\0' '\n' <"/proc/$p/environ"; } 2>/dev/null |
			grep -qx "SLURM_CONF=$SLURM_CONF" && echo "$p"
	done
}

sb_cluster_stop() {
	[ "$SB_STOPPED" = 1 ] && return 0
	SB_STOPPED=1
	local p i alive
	if [ -n "${SB_CTLD_PID:-}" ] && kill -0 "$SB_CTLD_PID" 2>/dev/null; then
		scancel --quiet $(squeue -h -o %i 2>/dev/null) 2>/dev/null
	fi
	# Newest first: nodes, slurmctld, slurmdbd, mariadbd, munged.
	for ((i = ${#SB_PIDS[@]} - 1; i >= 0; i--)); do
		kill -TERM "${SB_PIDS[$i]}" 2>/dev/null
	done
	for i in $(seq 40); do
		alive=0
		for p in "${SB_PIDS[@]}"; do
			kill -0 "$p" 2>/dev/null && alive=1
		done
		[ $alive = 0 ] && break
		sleep 0.25
	done
	for p in "${SB_PIDS[@]}" $(_sb_our_stepds); do
		kill -0 "$p" 2>/dev/null && kill -KILL "$p" 2>/dev/null
	done
	_sb_ha_net_down
	# Reap our children so their PIDs are really gone.
	wait 2>/dev/null
	_sb_say "stopped: ${SB_PIDS[*]}${SB_HA_ADDR0:+; namespace holders ${SB_NS_PID[*]}, $SB_HA_LINK removed}"
}

# sb_stacks PID WHAT: every thread's stack of a daemon that hangs (gdb),
# into SB_DIR/log/stacks-WHAT.txt (copied with the logs on failure); the
# frames of our plugins and of lock waits are printed.
sb_stacks() {
	local f=$SB_DIR/log/stacks-$2.txt
	command -v gdb >/dev/null || { _sb_say "no gdb: no stacks of $2 ($1)"; return 0; }
	# in the daemon's mount namespace (the backup's is its own), to
	# read the files it mapped
	timeout 60 nsenter -t "$1" -m -r -- gdb -p "$1" -batch \
		-ex 'thread apply all bt' >"$f" 2>&1
	_sb_say "stacks of $2 ($1): $f"
	grep -E '^Thread |bucket|_lock|pthread_join|cond_wait' "$f" | head -n 80 | sed 's/^/#   /'
}

# True when no PID the harness started is running any more.
sb_all_gone() {
	local p
	for p in "${SB_PIDS[@]}" "${SB_NS_PID[@]}" $(_sb_our_stepds); do
		kill -0 "$p" 2>/dev/null && return 1
	done
	[ -z "$SB_HA_ADDR0" ] || ! ip link show "$SB_HA_LINK" >/dev/null 2>&1
}

_sb_tails() {
	local f
	# slurmctld's log last: a reader of the end of the output sees it.
	for f in $(ls "$SB_DIR"/log/slurmd-*.log "$SB_DIR"/log/slurmd-*.out \
			2>/dev/null | head -n 2) \
		 $(ls "$SB_DIR"/log/*.out 2>/dev/null | grep -v /slurmd-) \
		 "$SB_DIR"/munge/munged.log "$SB_DIR"/mysql/mariadbd.log \
		 "$SB_DIR"/log/slurmdbd.log "$SB_DIR"/backup/log/slurmctld.log \
		 "$SB_DIR"/log/slurmctld.log; do
		[ -s "$f" ] || continue
		echo "# ---- tail $f"
		tail -n 25 "$f" | sed 's/^/# /'
	done
}

_sb_exit_trap() {
	local rc=$?
	sb_cluster_stop
	if [ $rc != 0 ] || [ "$SB_NFAIL" != 0 ]; then
		_sb_tails
		if [ -n "${SB_LOG_DIR:-}" ]; then
			rm -rf "$SB_LOG_DIR/$SB_NAME-daemon-logs" \
				"$SB_LOG_DIR/$SB_NAME-backup-daemon-logs"
			cp -r "$SB_DIR/log" "$SB_LOG_DIR/$SB_NAME-daemon-logs" 2>/dev/null
			[ -d "$SB_DIR/backup/log" ] && cp -r "$SB_DIR/backup/log" \
				"$SB_LOG_DIR/$SB_NAME-backup-daemon-logs" 2>/dev/null
		fi
		[ $rc = 0 ] && rc=1
	fi
	[ "${SB_KEEP:-0}" = 1 ] || [ $rc != 0 ] || rm -rf "$SB_DIR"
	exit $rc
}
