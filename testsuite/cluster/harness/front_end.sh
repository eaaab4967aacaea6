# harness/front_end.sh - the front-end mode: thousands of nodes on one
# machine (bench/scale, bench/storm.sh).
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# SB_FRONT_END=DIR (set before sb_cluster_init; DIR from
# bench/scale/fe-build) runs a front-end Slurm: slurmctld and slurmd from
# DIR/sbin with DIR/lib's libslurmfull, and ONE slurmd (the front end,
# port SB_PORT_BASE + 10) serving every node. LD_LIBRARY_PATH is exported
# with DIR/lib: the installed clients read slurm.conf, and only a
# front-end libslurmfull accepts FrontendName. The hooks of the mode
# (harness/daemons.sh) are here.

_sb_front_end_init() {
	[ -x "$SB_FRONT_END/sbin/slurmctld" ] ||
		sb_die "SB_FRONT_END=$SB_FRONT_END: no sbin/slurmctld (run bench/scale/fe-build)"
	SB_SBIN=$SB_FRONT_END/sbin
	export LD_LIBRARY_PATH=$SB_FRONT_END/lib
}

_sb_front_end_conf_nodes_before() {
	echo "FrontendName=$SB_HOST FrontendAddr=127.0.0.1 Port=$((SB_PORT_BASE + 10))"
}

# Nodes have no address or port of their own: the front end serves them.
_sb_front_end_node_line() {
	echo "NodeName=$1 NodeHostname=$SB_HOST $4"
}

# One slurmd for every node, running the front-end slurmstepd (slurmd
# would exec /usr/sbin/slurmstepd).
_sb_front_end_slurmds_start() {
	mkdir -p "$SB_DIR/spool/$SB_HOST"
	"$SB_SBIN/slurmd" -D -f "$SLURM_CONF" -d "$SB_SBIN/slurmstepd" \
		>>"$SB_DIR/log/slurmd-$SB_HOST.out" 2>&1 &
	_sb_track $!
	SB_SLURMD_PID[$SB_HOST]=$!
}

# A front end builds slurmctld and slurmd alone: slurmdbd is the
# Slurm's own, on its own libslurmfull (env execs: the same PID).
_sb_front_end_dbd_cmd() {
	echo "env -u LD_LIBRARY_PATH $SB_SLURM_PREFIX/sbin/slurmdbd"
}
