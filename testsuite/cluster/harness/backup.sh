# harness/backup.sh - the backup-controller mode: two slurmctld, each in
# namespaces of its own (t34, crash-burst.run).
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
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
# addresses are 198.18.X.0/24 (RFC 2544's benchmarking block, never
# routed; TEST-NET-1 may be the machine's own network, as it is in this
# workplace's sandboxes), X from SB_PORT_BASE in hundreds, so that
# clusters on other ports (a test slot of run-tests is 500 ports, its
# second cluster +200) never share one. sb_cluster_stop removes it all:
# the holders by PID, the veth by name.
#
#   sb_ctld_role 1|2       control, standby (a backup waiting, answering
#                          pings), starting or down: from the
#                          controller's process, the last role line it
#                          logged and scontrol ping
#   sb_ctld_role_is 1|2 ROLE
#   sb_backup_start        start the backup; waits until it is in standby
#   sb_takeover [SECONDS]  scontrol takeover: the primary exits, the
#                          backup takes control

declare -A SB_NS_PID=()

sb_backup_controller() {
	local x=$(( (SB_PORT_BASE / 100) % 256 ))
	[ -n "${SB_DIR:-}" ] || sb_die "sb_backup_controller: call sb_cluster_init first"
	[ "$SB_MODE" = plain ] || sb_die "sb_backup_controller: not with a $SB_MODE cluster"
	SB_MODE=backup
	SB_HA_TIMEOUT=${1:-6}
	SB_HA_ADDR0=198.18.$x.1
	SB_HA_ADDR1=198.18.$x.2
	SB_HA_ADDR2=198.18.$x.3
	SB_HA_LINK=sb$SB_PORT_BASE
	SB_NODE_ADDR=$SB_HA_ADDR0
	SB_DBD_HOST=$SB_HA_ADDR0
	mkdir -p "$SB_DIR/backup/log" "$SB_DIR/backup/run"
}

_sb_backup_conf_ctld() {
	echo "SlurmctldHost=ctl1($SB_HA_ADDR1)"
	echo "SlurmctldHost=ctl2($SB_HA_ADDR2)"
	echo "SlurmctldTimeout=$SB_HA_TIMEOUT"
}

# Start slurmctld N in its namespaces, in the background.
_sb_backup_ctld_run() {
	local at
	at=$(_sb_ctld_log_size "$1")
	if [ "$1" = 1 ]; then
		nsenter -t "${SB_NS_PID[ctl1]}" -n -u -- \
			"$SB_SBIN/slurmctld" -D -f "$SLURM_CONF" >>"$SB_DIR/log/slurmctld.out" 2>&1 &
	else
		# its own mount namespace: its log and pid file (-r: the
		# holder's root, the chroot's inside the chroot)
		nsenter -t "${SB_NS_PID[ctl2]}" -n -u -m -r -- \
			"$SB_SBIN/slurmctld" -D -f "$SLURM_CONF" >>"$SB_DIR/backup/log/slurmctld.out" 2>&1 &
	fi
	_sb_ctld_started "$1" $! "$at"
}

# Does slurmctld N answer as the controller in charge: its role is
# control and the cluster answers squeue.
_sb_backup_ctld_answers() {
	sb_ctld_role_is "$1" control && squeue -h -o %i >/dev/null 2>&1
}

_sb_backup_ctlds_up() {
	sb_backup_start ||
		sb_die "the backup slurmctld did not wait in standby (see $SB_DIR/backup/log/slurmctld.log)"
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
	SB_PID_T0[$!]=$(_sb_starttime $!)
	sb_wait_for 10 test -e "$SB_DIR/ns-$name.ready" ||
		sb_die "the $name namespace did not come up (see $SB_DIR/log/namespaces.log)"
}

_sb_backup_net_up() {
	local hub n k addr
	ip link del "$SB_HA_LINK" 2>/dev/null	# a run killed before it cleaned up
	for n in hub ctl1 ctl2; do
		_sb_ns_hold "$n"
	done
	hub=${SB_NS_PID[hub]}
	{
		ip link add "$SB_HA_LINK" type veth peer name up0 netns "$hub" &&
		nsenter -t "$hub" -n ip link set up0 master sbbr up &&
		ip addr add "$SB_HA_ADDR0/24" dev "$SB_HA_LINK" &&
		ip link set "$SB_HA_LINK" up
	} >>"$SB_DIR/log/namespaces.log" 2>&1 ||
		sb_die "cannot link the hub namespace (see $SB_DIR/log/namespaces.log)"
	for k in 1 2; do
		n=ctl$k
		[ $k = 1 ] && addr=$SB_HA_ADDR1 || addr=$SB_HA_ADDR2
		{
			nsenter -t "$hub" -n ip link add "$n" type veth peer name eth0 netns "${SB_NS_PID[$n]}" &&
			nsenter -t "$hub" -n ip link set "$n" master sbbr up &&
			nsenter -t "${SB_NS_PID[$n]}" -n ip addr add "$addr/24" dev eth0 &&
			nsenter -t "${SB_NS_PID[$n]}" -n ip link set eth0 up
		} >>"$SB_DIR/log/namespaces.log" 2>&1 ||
			sb_die "cannot link the $n namespace (see $SB_DIR/log/namespaces.log)"
	done
	sb_say "controllers ctl1 ($SB_HA_ADDR1), ctl2 ($SB_HA_ADDR2); nodes and slurmdbd at $SB_HA_ADDR0 ($SB_HA_LINK); holders ${SB_NS_PID[*]}"
}

# Remove what _sb_backup_net_up made, whatever is left of it.
_sb_backup_net_down() {
	local p
	for p in "${SB_NS_PID[@]}"; do
		kill -KILL "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	ip link del "$SB_HA_LINK" 2>/dev/null
	return 0
}

_sb_backup_stopped_also() {
	echo "; namespace holders ${SB_NS_PID[*]}, $SB_HA_LINK removed"
}

_sb_backup_gone() {
	local p
	for p in "${SB_NS_PID[@]}"; do
		sb_running "$p" && return 1
	done
	! ip link show "$SB_HA_LINK" >/dev/null 2>&1
}

sb_ctld_role() {
	local pid role
	[ "$1" = 2 ] && pid=${SB_BACKUP_PID:-} || pid=${SB_CTLD_PID:-}
	if [ -z "$pid" ] || ! sb_running "$pid"; then
		echo down
		return 0
	fi
	role=$(sb_ctld_log_since "$1" |
		awk '/Running as primary controller/ { r = "control" }
		     /slurmctld running in background mode/ { r = "standby" }
		     END { print r ? r : "starting" }')
	# A backup logs its standby at once but takes RPCs only some seconds
	# later (24.11: 5 s, run_backup()), and a takeover sent before then
	# fails ("Unable to contact slurm controller"; once, 24.11's backup
	# died of SIGSEGV there, under Slurm's own plugins too): until it
	# answers a ping it is starting.
	if [ "$role" = standby ] &&
	   ! scontrol ping 2>/dev/null | grep -q '^Slurmctld(backup) at .* is UP$'; then
		role=starting
	fi
	echo "$role"
}
sb_ctld_role_is() { [ "$(sb_ctld_role "$1")" = "$2" ]; }

# sb_takeover [SECONDS]: 'scontrol takeover', as an admin hands control
# to the backup before the primary's host goes down: the backup asks the
# primary to stop (it saves its state and exits) and takes over. Waits
# for both; fails unless the backup answers in control in time.
sb_takeover() {
	local secs=${1:-30} p=${SB_CTLD_PID:-}
	scontrol takeover >/dev/null || return 1
	if [ -n "$p" ]; then
		sb_wait_for "$secs" sb_ended "$p" || return 1
		_sb_stop_pids "$p"
		SB_CTLD_PID=
	fi
	sb_wait_for "$secs" _sb_backup_ctld_answers 2
}

sb_backup_start() {
	_sb_backup_ctld_run 2
	sb_wait_for "${1:-30}" sb_ctld_role_is 2 standby
}
