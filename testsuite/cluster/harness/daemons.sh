# harness/daemons.sh - the cluster's life: its scratch directory, its
# daemons started and stopped by PID, and where its time goes.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A cluster runs in one of three modes (SB_MODE): plain (this file),
# front_end (harness/front_end.sh) and backup (harness/backup.sh). What a
# mode does differently is a hook, _sb_<mode>_<hook>, called through
# _sb_mode; a mode without its own hook gets the plain one. The hooks:
#   init              checks and settings at sb_cluster_init
#   conf_ctld         slurm.conf's controller lines
#   conf_nodes_before slurm.conf lines before the nodes
#   node_line         one NodeName line (harness/conf.sh)
#   net_up, net_down  what the mode needs before its daemons and after
#   ctld_run N        start slurmctld N (1: SB_CTLD_PID, 2: the backup)
#   ctld_answers N    does slurmctld N answer, in charge?
#   ctlds_up          after the first slurmctld answers (a backup starts)
#   slurmds_start     start the nodes' slurmd(s)
#   dbd_cmd           the slurmdbd command line
#   gone              has the mode's own (namespaces, links) gone?

SB_MODE=plain
SB_PIDS=()
SB_STOPPED=0
declare -A SB_SLURMD_PID=()	# by node name
SB_CTLD_LOG_AT=()		# where controller N's current run begins in its log
declare -A SB_TIME=()		# seconds (as microseconds) per phase
declare -A SB_PID_T0=()		# PID -> its process's start time (sb_running)
SB_TIME_MARK=

_sb_mode() {
	local f=_sb_${SB_MODE}_$1
	declare -F "$f" >/dev/null || f=_sb_plain_$1
	shift
	"$f" "$@"
}

# ---- where the time goes ------------------------------------------------------
# _sb_phase NAME: the time since the last mark goes to phase NAME.
_sb_phase() {
	local now=${EPOCHREALTIME/./}
	SB_TIME[$1]=$(( ${SB_TIME[$1]:-0} + now - ${SB_TIME_MARK:-$now} ))
	SB_TIME_MARK=$now
}
_sb_secs() { printf '%d.%d' $(( ${SB_TIME[$1]:-0} / 1000000 )) $(( ${SB_TIME[$1]:-0} % 1000000 / 100000 )); }
# One line: start (its phases), body, stop, in seconds.
_sb_times() {
	local start=0 p
	for p in munge db ctld nodes settle; do
		start=$((start + ${SB_TIME[$p]:-0}))
	done
	SB_TIME[start]=$start
	echo "times ($SB_NAME): start $(_sb_secs start) s (munge $(_sb_secs munge), db $(_sb_secs db), ctld $(_sb_secs ctld), nodes $(_sb_secs nodes), settle $(_sb_secs settle)), body $(_sb_secs body) s, stop $(_sb_secs stop) s"
}

# ---- a cluster ------------------------------------------------------------------
sb_cluster_init() {
	local name=$1
	[ "$(id -u)" = 0 ] || sb_die "live tests need root"
	SB_BASE=${SB_BASE:-linear}
	case $SB_BASE in
	linear) SB_PART_OPTS="" ;;
	cons_tres) SB_PART_OPTS="OverSubscribe=EXCLUSIVE" ;;
	*) sb_die "SB_BASE=$SB_BASE: expected linear or cons_tres" ;;
	esac
	SB_NAME=$name
	SB_DIR=$(mktemp -d "${SB_SCRATCH:-/tmp}/sb-$name.XXXXXX") ||
		sb_die "cannot create a scratch directory"
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
			sb_die "cannot copy the plugins of $SB_PLUGIN_DIR"
		SB_PLUGIN_DIR=$SB_DIR/plugins
	fi
	SB_HOST=$(hostname)
	getent hosts "$SB_HOST" >/dev/null ||
		sb_die "hostname '$SB_HOST' does not resolve (add it to /etc/hosts)"
	SB_PORT_BASE=${SB_PORT_BASE:-17100}
	SB_SBIN=$SB_SLURM_PREFIX/sbin
	[ -n "${SB_FRONT_END:-}" ] && SB_MODE=front_end
	_sb_mode init
	export SLURM_CONF="$SB_DIR/etc/slurm.conf"
	trap '_sb_exit_trap' EXIT
	sb_say "cluster '$name' in $SB_DIR"
}
_sb_plain_init() { return 0; }

sb_cluster_start() {
	[ ${#SB_NODE_NAMES[@]} -gt 0 ] || sb_die "no nodes: call sb_nodes first"
	_sb_phase init
	_sb_write_conf
	# (first: a backup's slurmdbd address, SB_HA_ADDR0, is on its veth)
	_sb_mode net_up
	_sb_start_munge
	_sb_phase munge
	if [ "$SB_ACCT" = 1 ]; then
		_sb_start_mariadb
		_sb_start_slurmdbd
		_sb_phase db
	fi
	_sb_mode ctld_run 1
	SB_CTLD_T0=${EPOCHREALTIME/./}
	sb_wait_for 30 sb_ctld_answers 1 ||
		sb_die "slurmctld did not answer (see $SB_DIR/log/slurmctld.log)"
	_sb_mode ctlds_up
	_sb_phase ctld
	_sb_mode slurmds_start
	sb_wait_for $((30 + ${#SB_NODE_NAMES[@]} / 4)) _sb_all_idle ||
		sb_die "not every node became idle: $(sinfo -h -N -o '%N:%t' 2>&1 | tr '\n' ' ')"
	_sb_phase nodes
	_sb_ctld_settle
	_sb_phase settle
	sb_say "${#SB_NODE_NAMES[@]} nodes idle; daemons: ${SB_PIDS[*]}"
}
_sb_plain_net_up() { return 0; }
_sb_plain_net_down() { return 0; }
_sb_plain_ctlds_up() { return 0; }

_sb_all_idle() {
	local want=${#SB_NODE_NAMES[@]} got
	got=$(sinfo -h -N -o '%N %t' 2>/dev/null | awk '$2 == "idle"' | sort -u | wc -l)
	[ "$got" = "$want" ]
}

sb_pids() { echo "${SB_PIDS[@]}"; }

# sb_running PID: is PID a running process of this cluster? A PID alone
# does not say: once a process has ended its PID is free, and with tests
# side by side starting thousands of processes it comes back soon (PIDs
# wrap at 32768 here) as somebody else's. A process the harness started
# is known by its start time (_sb_track), which exec keeps (slurmctld
# and, from 23.11, slurmd exec themselves again at 'scontrol
# reconfigure'); any other (a job step) by what it holds of this cluster
# (_sb_ours).
#
# One look can be wrong while a daemon execs itself: when exec() is
# called from a thread other than the main one (slurmd 24.11's signal
# thread at 'scontrol reconfigure'), the kernel lets the main thread die
# first (a zombie under the PID) and then moves the exec'ing thread onto
# the PID, start time included. A poll that lands in that instant saw a
# daemon "end" (t10 on 24.11, CI of 2026-11-28). So sb_running looks a
# second time, 0.25 s later, before it answers "no"; _sb_running_now is
# the single look, for loops that poll anyway (stopping, sb_all_gone).
sb_running() {
	_sb_running_now "$1" && return 0
	sleep 0.25
	_sb_running_now "$1"
}
_sb_running_now() {
	local s
	read -r s 2>/dev/null <"/proc/$1/stat" || return 1
	s=${s##*) }
	# shellcheck disable=SC2086
	set -- "$1" $s
	[ "$2" != Z ] || return 1	# (fields from the state on: 3, 4, ...)
	if [ -n "${SB_PID_T0[$1]:-}" ]; then
		[ "${21}" = "${SB_PID_T0[$1]}" ]
	else
		_sb_ours "$1"
	fi
}

# Is PID (a job step) of this cluster: this cluster's SLURM_CONF in its
# environment, or a file of SB_DIR open (the slurmd log it inherits)?
# The environment alone is not enough: from 24.11 on, slurmstepd's
# process title ("slurmstepd: [7.batch]") is written over the memory
# /proc/PID/environ shows, and the steps of those series were never
# found (8 left after a CI run, 2026-11-28).
_sb_ours() {
	local f
	grep -qzxF "SLURM_CONF=$SLURM_CONF" "/proc/$1/environ" 2>/dev/null &&
		return 0
	for f in /proc/"$1"/fd/*; do
		[[ "$(readlink "$f" 2>/dev/null)" == "$SB_DIR"/* ]] && return 0
	done
	return 1
}

# When PID's process started (clock ticks since boot: /proc/PID/stat
# field 22).
_sb_starttime() {
	local s
	read -r s 2>/dev/null <"/proc/$1/stat" || return 1
	s=${s##*) }
	# shellcheck disable=SC2086
	set -- $s
	echo "${20}"
}

# _sb_track PID: a daemon the harness has just started (SB_PIDS).
_sb_track() {
	SB_PIDS+=("$1")
	SB_PID_T0[$1]=$(_sb_starttime "$1")
}

sb_ended() { ! sb_running "$1"; }

# Is every daemon we started still running? (One that is not says how
# it ended.)
_sb_alive() {
	local p
	for p in "${SB_PIDS[@]}"; do
		sb_running "$p" && continue
		sb_say "$p has ended: $(_sb_end_of "$p")"
		return 1
	done
}

# How the harness's child PID ended, once it has: "exit status N" or
# "signal NAME"; reaps it. (Never waits for a process still running.)
_sb_end_of() {
	local rc
	if kill -0 "$1" 2>/dev/null && ! sb_running "$1"; then
		echo "its PID is another process's now"
		return 0
	fi
	wait "$1" 2>/dev/null
	rc=$?
	if [ $rc = 127 ]; then
		echo "not a child of this shell (or reaped already)"
	elif [ $rc -gt 128 ]; then
		echo "signal $(kill -l $((rc - 128)) 2>/dev/null || echo $((rc - 128)))"
	else
		echo "exit status $rc"
	fi
}

# ---- munged, MariaDB, slurmdbd ----------------------------------------------------
_sb_start_munge() {
	local d=$SB_DIR/munge
	dd if=/dev/urandom of="$d/munge.key" bs=1024 count=1 2>/dev/null
	chmod 0400 "$d/munge.key"
	/usr/sbin/munged --foreground --key-file="$d/munge.key" \
		--socket="$d/munge.socket" --pid-file="$d/munged.pid" \
		--log-file="$d/munged.log" --seed-file="$d/munged.seed" \
		>"$SB_DIR/log/munged.out" 2>&1 &
	SB_MUNGE_PID=$!
	_sb_track $!
	sb_wait_for 10 munge -n -S "$d/munge.socket" ||
		sb_die "munged did not come up (see $SB_DIR/log/munged.out)"
}

# SB_MARIADBD: mariadbd's command line for the directory $1 (its data,
# temporary files, pid file and log) and socket $2. (An array to run,
# not a function: a function run with & is a subshell of its own, whose
# PID is not mariadbd's.)
_sb_mariadbd_cmd() {
	SB_MARIADBD=(/usr/sbin/mariadbd --no-defaults --user=mysql
		--datadir="$1/data" --tmpdir="$1/tmp" --socket="$2"
		--pid-file="$1/mysqld.pid" --log-error="$1/mariadbd.log"
		--innodb-buffer-pool-size=128M --innodb-log-file-size=16M
		--innodb-lock-wait-timeout=900)
	# MariaDB 11.6 on (Debian 13's 11.8) isolates snapshots, which Slurm
	# does not support: slurmdbd 26.05 logs an error at its start and
	# would stop at a write conflict.
	local v
	v=$(/usr/sbin/mariadbd --version 2>/dev/null | awk '{ print $3 }')
	if [ "$(printf '%s\n11.6\n' "${v%%-*}" | sort -V | head -n 1)" = 11.6 ]; then
		SB_MARIADBD+=(--innodb-snapshot-isolation=OFF)
	fi
}

# A MariaDB data directory holding the slurm user and an empty
# slurm_acct_db, made once per machine and MariaDB version in
# SB_CACHE (default /var/cache/slurm-buckets) and copied for each
# cluster: mariadb-install-db takes 0.6 s of CPU on a quiet machine and
# 2 s beside other tests, a copy 0.1 s. Made under a lock (tests start
# side by side), whole or not at all (DIR/.complete). Prints DIR.
_sb_mariadb_template() {
	local v dir t sock pid
	v=$(/usr/sbin/mariadbd --version 2>/dev/null | awk '{ print $3 }')
	dir=${SB_CACHE:-/var/cache/slurm-buckets}/mariadb-${v:-unknown}
	if [ ! -f "$dir/.complete" ]; then
		mkdir -p "${dir%/*}" || return 1
		exec 9>"$dir.lock"
		flock 9
		if [ ! -f "$dir/.complete" ]; then
			t=$dir.new
			sock=$t/mysqld.sock
			rm -rf "$t" "$dir"
			mkdir -p "$t/data" "$t/tmp"
			chown -R mysql:mysql "$t"
			TMPDIR=$t/tmp mariadb-install-db --user=mysql --datadir="$t/data" \
				--skip-test-db >"$t/install.log" 2>&1 || { exec 9>&-; return 1; }
			_sb_mariadbd_cmd "$t" "$sock"
			"${SB_MARIADBD[@]}" --skip-networking >"$t/mariadbd.out" 2>&1 &
			pid=$!
			local i
			for i in $(seq 100); do
				mariadb-admin --socket="$sock" ping >/dev/null 2>&1 && break
				sleep 0.1
			done
			# The database exists before slurmdbd connects: when it
			# does not, slurmdbd 24.11 creates it and then reuses the
			# connection handle whose connect failed, and with
			# MariaDB 11.8's client library every query on that
			# handle fails ("Number of columns in result (=1) set
			# execeeds maxmimum allowed number of columns (=0)").
			mariadb --socket="$sock" -e "
				CREATE DATABASE IF NOT EXISTS slurm_acct_db;
				CREATE OR REPLACE USER 'slurm'@'127.0.0.1' IDENTIFIED BY 'sbtest';
				CREATE OR REPLACE USER 'slurm'@'localhost' IDENTIFIED BY 'sbtest';
				GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';
				GRANT ALL ON slurm_acct_db.* TO 'slurm'@'localhost';
				FLUSH PRIVILEGES;" >>"$t/install.log" 2>&1 &&
			mariadb-admin --socket="$sock" shutdown >>"$t/install.log" 2>&1 &&
			wait "$pid" && rm -f "$t"/*.pid "$t"/mysqld.sock* "$t/tmp"/* &&
			: >"$t/.complete" && mv "$t" "$dir" ||
				{ kill -KILL "$pid" 2>/dev/null; exec 9>&-; return 1; }
		fi
		exec 9>&-
	fi
	echo "$dir"
}

_sb_start_mariadb() {
	# mariadbd runs as mysql: its data, socket, pid and log live in a
	# directory that user owns; its own temporary directory (two
	# clusters at once would meet in /tmp's "#sql-temptable-*" files).
	local d=$SB_DIR/mysql tmpl
	SB_MYSQL_SOCK=$d/mysqld.sock
	tmpl=$(_sb_mariadb_template) ||
		sb_die "cannot make MariaDB's data directory (see ${SB_CACHE:-/var/cache/slurm-buckets}/mariadb-*.new/install.log)"
	mkdir -p "$d/tmp"
	cp -a "$tmpl/data" "$d/data" || sb_die "cannot copy $tmpl/data"
	chown -R mysql:mysql "$d"
	_sb_mariadbd_cmd "$d" "$SB_MYSQL_SOCK"
	"${SB_MARIADBD[@]}" --bind-address=127.0.0.1 --port=$((SB_PORT_BASE + 2)) \
		>"$SB_DIR/log/mariadbd.out" 2>&1 &
	SB_MYSQL_PID=$!
	_sb_track $!
	sb_wait_for 30 mariadb-admin --socket="$SB_MYSQL_SOCK" ping ||
		sb_die "mariadbd did not come up: $(tail -n 3 "$d/mariadbd.log" 2>/dev/null)"
}

_sb_start_slurmdbd() {
	_sb_write_dbd_conf
	_sb_run_slurmdbd
	sacctmgr -i add cluster "${SB_NAME//[^a-z0-9]/}" >/dev/null ||
		sb_die "sacctmgr add cluster failed"
}

# Start slurmdbd on the written slurmdbd.conf; wait until it says it has
# started (once more than its log said so far).
_sb_run_slurmdbd() {
	local log=$SB_DIR/log/slurmdbd.log n
	n=$(grep -c 'slurmdbd version .* started' "$log" 2>/dev/null)
	local cmd
	read -ra cmd < <(_sb_mode dbd_cmd)
	"${cmd[@]}" -D >>"$SB_DIR/log/slurmdbd.out" 2>&1 &
	SB_DBD_PID=$!
	_sb_track "$SB_DBD_PID"
	# (a database of an older Slurm is converted first: minutes allowed)
	sb_wait_for 180 sh -c "[ \$(grep -c 'slurmdbd version .* started' '$log') -gt ${n:-0} ]" ||
		sb_die "slurmdbd did not start (see $log)"
}
_sb_plain_dbd_cmd() { echo "$SB_SBIN/slurmdbd"; }

# ---- slurmctld ----------------------------------------------------------------
sb_ctld_stop() {
	[ -n "${SB_CTLD_PID:-}" ] || return 0
	_sb_stop_pids "$SB_CTLD_PID"
	SB_CTLD_PID=
}

sb_ctld_start() {
	_sb_mode ctld_run 1
	sb_wait_for "${1:-30}" sb_ctld_answers 1
}

# SIGKILL slurmctld (the primary): a crash, no state saved.
sb_ctld_kill() {
	[ -n "${SB_CTLD_PID:-}" ] || return 0
	_sb_stop_pids -KILL "$SB_CTLD_PID"
	SB_CTLD_PID=
}

# _sb_ctld_started N PID: slurmctld N runs as PID, its lines in its log
# from OFFSET on (sb_ctld_log_since).
_sb_ctld_started() {
	_sb_track "$2"
	if [ "$1" = 2 ]; then SB_BACKUP_PID=$2; else SB_CTLD_PID=$2; fi
	SB_CTLD_LOG_AT[$1]=$3
}

# The size of controller N's log now: where a run started now begins.
# (Taken before the start: after it, the new run may have written.)
_sb_ctld_log_size() { stat -c %s "$(sb_ctld_log "$1")" 2>/dev/null || echo 0; }

_sb_plain_ctld_run() {
	local at
	at=$(_sb_ctld_log_size 1)
	"$SB_SBIN/slurmctld" -D -f "$SLURM_CONF" >>"$SB_DIR/log/slurmctld.out" 2>&1 &
	_sb_ctld_started 1 $! "$at"
}

# sb_ctld_answers N: does slurmctld N answer, in charge?
sb_ctld_answers() { _sb_mode ctld_answers "$1"; }
_sb_plain_ctld_answers() { scontrol ping >/dev/null 2>&1; }

sb_ctld_log() {
	if [ "$1" = 2 ]; then echo "$SB_DIR/backup/log/slurmctld.log"
	else echo "$SB_DIR/log/slurmctld.log"; fi
}

# What controller N logged since its last start (SB_CTLD_LOG_AT).
sb_ctld_log_since() {
	tail -c +$((${SB_CTLD_LOG_AT[$1]:-0} + 1)) "$(sb_ctld_log "$1")" 2>/dev/null
}

# Wait until slurmctld has been up SB_CTLD_SETTLE seconds (default 4),
# once its nodes are idle (sb_cluster_start; not after a restart, where
# slurmds may start after slurmctld and its first ping round must find
# them), when that round asks nodes of this cluster to register. About
# 3 s after it starts (MIN_CHECKIN_TIME), slurmctld's first ping round
# asks the nodes at places [W, 2W) of its node table to register, W its
# TreeWidth, at most 50 (ping_nodes(): the offset starts at W): none on
# a cluster of fewer than W nodes, and that cluster does not wait (Slurm
# 22.05's TreeWidth is 50, 24.11's and 26.05's 16). To answer, slurmd
# connects to each of its slurmstepds, and one still starting (its
# socket bound, not yet listening) is taken for a stray: slurmd deletes
# its batch script and the job exits 2 ("execve(): slurm_script: No
# such file or directory", seen on 26.05.3 under CI load, under any
# select plugin). Jobs submitted after that round do not meet it.
_sb_ctld_settle() {
	local left w
	[ "${SB_CTLD_SETTLE:-4}" = 0 ] && return 0
	w=$(scontrol show config 2>/dev/null | awk '$1 == "TreeWidth" { print $3 }')
	[[ $w =~ ^[0-9]+$ ]] && [ "$w" -gt 50 ] && w=50
	[[ $w =~ ^[0-9]+$ ]] && [ ${#SB_NODE_NAMES[@]} -lt "$w" ] && return 0
	left=$(( ${SB_CTLD_SETTLE:-4} * 1000000 - (${EPOCHREALTIME/./} - SB_CTLD_T0) ))
	[ "$left" -gt 0 ] && sleep "$(printf '%d.%06d' $((left / 1000000)) $((left % 1000000)))"
	return 0
}

# ---- slurmd ------------------------------------------------------------------
sb_slurmd_start() {
	mkdir -p "$SB_DIR/spool/$1"
	"$SB_SBIN/slurmd" -D -N "$1" -f "$SLURM_CONF" \
		>>"$SB_DIR/log/slurmd-$1.out" 2>&1 &
	_sb_track $!
	SB_SLURMD_PID[$1]=$!
}

_sb_plain_slurmds_start() {
	local n
	for n in "${SB_NODE_NAMES[@]}"; do
		sb_slurmd_start "$n"
	done
}

sb_slurmd_kill() {
	local p=${SB_SLURMD_PID[$1]:-}
	[ -n "$p" ] || return 1
	_sb_stop_pids -KILL "$p"
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
	sb_wait_for "${1:-30}" _sb_all_back
}

# Every node idle, as the cluster's start waits for (_sb_all_idle).
sb_nodes_idle() {
	sb_wait_for "${1:-30}" _sb_all_idle
}

# ---- restarts and upgrades --------------------------------------------------------
sb_restart_all() {
	local secs=${1:-60}
	sb_ctld_stop
	_sb_stop_pids "${SB_SLURMD_PID[@]}"
	SB_SLURMD_PID=()
	sb_ctld_start "$secs" || return 1
	_sb_mode slurmds_start
	sb_nodes_back "$secs"
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
		{ sb_say "cannot copy the plugins of $plugins"; return 1; }
	sed -i "s|^PluginDir=.*|PluginDir=$SB_DIR/plugins:$SB_SLURM_LIBDIR|" "$SLURM_CONF"
	_sb_series_files
	[ "$SB_ACCT" = 1 ] && _sb_run_slurmdbd
	sb_ctld_start "$secs" || return 1
	_sb_mode slurmds_start
	sb_nodes_back "$secs"
}

# ---- stopping -------------------------------------------------------------------
# _sb_stop_pids [-KILL | -WAIT SECONDS] PID...: the one way a process of
# the harness is stopped. SIGTERM to each PID (in the order given) and up
# to 30 s (-WAIT: SECONDS) for them to exit, then SIGKILL; -KILL sends
# SIGKILL at once (a crash). Reaped, and no longer the harness's.
_sb_stop_pids() {
	local sig=TERM patience=30 p q i end keep=()
	case ${1:-} in
	-KILL) sig=KILL; shift ;;
	-WAIT) patience=$2; shift 2 ;;
	esac
	local mine=()
	for p in "$@"; do
		# one that ended by itself says how (a crash is a signal)
		if ! sb_running "$p"; then
			sb_say "$p had ended before it was stopped: $(_sb_end_of "$p")"
			continue
		fi
		mine+=("$p")
		kill -$sig "$p" 2>/dev/null
	done
	# (every 0.05 s for the first second: most exit within it)
	i=0
	end=$((SECONDS + patience))
	while [ $SECONDS -lt $end ]; do
		q=0
		for p in "${mine[@]}"; do
			_sb_running_now "$p" && q=1
		done
		[ $q = 0 ] && break
		if [ $((i += 1)) -le 20 ]; then sleep 0.05; else sleep 0.25; fi
	done
	for p in "${mine[@]}"; do
		if _sb_running_now "$p"; then
			[ $sig = TERM ] &&
				sb_say "$p ($(cat "/proc/$p/comm" 2>/dev/null)) still runs $patience s after SIGTERM: SIGKILL"
			kill -KILL "$p" 2>/dev/null
		fi
		wait "$p" 2>/dev/null
	done
	for q in "${SB_PIDS[@]}"; do
		[[ " $* " == *" $q "* ]] || keep+=("$q")
	done
	SB_PIDS=("${keep[@]}")
}

# slurmstepd processes are daemons of their own; find ours (_sb_ours).
_sb_our_stepds() {
	local p
	for p in $(pgrep -x slurmstepd 2>/dev/null); do
		_sb_running_now "$p" && echo "$p"
	done
}

sb_cluster_stop() {
	[ "$SB_STOPPED" = 1 ] && return 0
	SB_STOPPED=1
	local all=("${SB_PIDS[@]}")
	_sb_phase body
	# The jobs go first, and are gone before their nodes stop: a slurmd
	# told to stop while it ends a job hangs in its shutdown (24.11:
	# "Caught SIGTERM" and nothing after, the 30 s out).
	if [ -n "${SB_CTLD_PID:-}" ] && sb_running "$SB_CTLD_PID"; then
		scancel --quiet $(squeue -h -o %i 2>/dev/null) 2>/dev/null
		sb_wait_for 15 sb_queue_empty 2>/dev/null
	fi
	# Each layer once those above it have gone: the nodes, the
	# controllers (they save state), slurmdbd (it commits), MariaDB,
	# munged last (everything above authenticates through it: a slurmd
	# whose munged went first hangs in its shutdown). Then the job
	# steps left. A slurmd keeps nothing worth waiting for, and one
	# with jobs whose controller is gone (t22 ends so) may take 30 s and
	# more: 5 s.
	_sb_stop_pids -WAIT 5 "${SB_SLURMD_PID[@]}"
	_sb_stop_pids ${SB_BACKUP_PID:-} ${SB_CTLD_PID:-}
	_sb_stop_pids ${SB_DBD_PID:-}
	_sb_stop_pids ${SB_MYSQL_PID:-}
	_sb_stop_pids "${SB_PIDS[@]}"
	_sb_stop_pids -KILL $(_sb_our_stepds)
	_sb_mode net_down
	# Reap our children so their PIDs are really gone.
	wait 2>/dev/null
	_sb_phase stop
	sb_say "stopped: ${all[*]}$(_sb_mode stopped_also)"
	sb_say "$(_sb_times)"
	[ -n "${SB_LOG_DIR:-}" ] && mkdir -p "$SB_LOG_DIR/times" &&
		_sb_times >>"$SB_LOG_DIR/times/${SB_TEST_NAME:-$(basename "$0" .sh)}"
	SB_PIDS=("${all[@]}")	# (for sb_pids and sb_all_gone)
}
_sb_plain_stopped_also() { return 0; }

# True when no process the harness started is running any more.
sb_all_gone() {
	local p
	for p in "${SB_PIDS[@]}" $(_sb_our_stepds); do
		_sb_running_now "$p" && return 1
	done
	_sb_mode gone
}
_sb_plain_gone() { return 0; }

# sb_stacks PID WHAT: every thread's stack of a daemon that hangs (gdb),
# into SB_DIR/log/stacks-WHAT.txt (copied with the logs on failure); the
# frames of our plugins and of lock waits are printed.
sb_stacks() {
	local f=$SB_DIR/log/stacks-$2.txt
	if ! sb_running "$1"; then
		sb_say "no stacks of $2 ($1): it has ended: $(_sb_end_of "$1")"
		return 0
	fi
	command -v gdb >/dev/null || { sb_say "no gdb: no stacks of $2 ($1)"; return 0; }
	# in the daemon's mount namespace (the backup's is its own), to
	# read the files it mapped
	timeout 60 nsenter -t "$1" -m -r -- gdb -p "$1" -batch \
		-ex 'thread apply all bt' >"$f" 2>&1
	sb_say "stacks of $2 ($1): $f"
	grep -E '^Thread |bucket|_lock|pthread_join|cond_wait' "$f" | head -n 80 | sed 's/^/#   /'
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

# sb_on_exit CMD: run CMD (eval'd) when the script exits, after the
# cluster has stopped: the harness's EXIT trap is the script's, so a test
# that must undo something on exit hands it here.
SB_ON_EXIT=()
sb_on_exit() { SB_ON_EXIT+=("$1"); }

_sb_exit_trap() {
	local rc=$? h
	sb_cluster_stop
	for h in "${SB_ON_EXIT[@]}"; do
		eval "$h"
	done
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
