# harness/series.sh - which Slurm the cluster runs, and what differs
# between Slurm series in the files the harness writes.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# SB_SLURM=SERIES picks the Slurm the cluster runs (default: the
# machine's own), one of 'build-aux/slurm-series list' (22.05, 24.11,
# 25.05, 25.11, 26.05). When it names another series than this machine's
# slurmctld, the script that sourced the harness runs itself again,
# unchanged, inside the Debian 13 chroot (build-aux/sb-chroot), at source
# time, with the checkout and the shared logs (../shared/traces)
# mounted. A series built from source ('build-aux/slurm-series built':
# 26.05 from Debian's source package, 25.05 and 25.11 from a site's
# tarball) runs from the prefix build-aux/slurm-build installed it in
# (SB_SLURM_PREFIX; its bin and sbin go first in PATH), the others from
# Debian's packages (/usr). The directory tree, /tmp and
# the environment are the same inside. SB_SERIES is the running Slurm's
# series.

# The prefix of the Slurm SB_SLURM names here: a built series' own
# (built in the chroot by build-aux/slurm-build), else Debian's /usr.
_sb_slurm_prefix() {
	if [ -n "${SB_SLURM:-}" ] && [ -n "${SB_IN_CHROOT:-}" ] &&
	   [ "$("$SB_TOP_SRCDIR/build-aux/slurm-series" from "$SB_SLURM" 2>/dev/null)" = built ]; then
		"$SB_TOP_SRCDIR/build-aux/slurm-build" -q "$SB_SLURM" prefix 2>/dev/null
		return 0
	fi
	echo /usr
}

# The series (22.05, 24.11, 25.05, ...) of the slurmctld in $1 (a prefix)
# ("slurm 22.05.8", "slurm-wlm 24.11.5", "slurm 26.05.3"); empty when
# there is none.
sb_series_of() {
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
	local others series=$SB_TOP_SRCDIR/build-aux/slurm-series binds
	have=$(sb_series_of "$(_sb_slurm_prefix)")
	[ -z "$want" ] || [ "$want" = "$have" ] && return 0
	if [ -n "${SB_IN_CHROOT:-}" ]; then
		echo "not ok 1 - harness: SB_SLURM=$want but the chroot's slurmctld is '${have:-missing}' (SB_SLURM=$want ./quickstart build)"
		exit 1
	fi
	others=$("$series" chroot)
	if [ "$("$series" in "$want" 2>/dev/null)" != chroot ]; then
		echo "not ok 1 - harness: SB_SLURM=$want: this machine has Slurm ${have:-none}; other series: ${others// /, } (Debian 13 chroot)"
		exit 1
	fi
	[ "$(id -u)" = 0 ] || { echo "not ok 1 - harness: SB_SLURM=$want needs root (chroot)"; exit 1; }
	"$chroot" create >&2 ||
		{ echo "not ok 1 - harness: build-aux/sb-chroot create failed"; exit 1; }
	# (and a site's tarball a series is built from, for its prefix)
	binds=(--bind "$SB_TOP_SRCDIR")
	[[ ${SB_SLURM_DEPS:-} == /* ]] && [ -d "$SB_SLURM_DEPS" ] &&
		binds+=(--bind "$SB_SLURM_DEPS")
	[[ ${SB_SLURM_TARBALL:-} == /* ]] && [ -f "$SB_SLURM_TARBALL" ] &&
		binds+=(--bind "$(dirname "$SB_SLURM_TARBALL")")
	# and the real logs tests cut windows of (../shared/traces)
	[ -d "$SB_TOP_SRCDIR/../shared/traces" ] &&
		binds+=(--bind "$SB_TOP_SRCDIR/../shared/traces")
	echo "# [$(date +%T)] Slurm $want: running $0 in the chroot ($("$chroot" path))"
	exec "$chroot" run "${binds[@]}" bash "$(realpath "$0")" "$@"
}

# The Slurm this script runs: its prefix, daemons, series, clients first
# in PATH, PluginDir, and the build tree of our plugins for it.
_sb_series_init() {
	SB_SLURM_PREFIX=$(_sb_slurm_prefix)
	SB_SBIN=$SB_SLURM_PREFIX/sbin
	SB_SERIES=$(sb_series_of "$SB_SLURM_PREFIX")
	if [ "$SB_SLURM_PREFIX" != /usr ]; then
		export PATH=$SB_SLURM_PREFIX/bin:$SB_SLURM_PREFIX/sbin:$PATH
		SB_SLURM_PLUGINDIR=${SB_SLURM_PLUGINDIR:-$SB_SLURM_PREFIX/lib/slurm}
	fi
	SB_SLURM_LIBDIR=${SB_SLURM_PLUGINDIR:-/usr/lib/x86_64-linux-gnu/slurm-wlm}
	SB_TOP_BUILDDIR=${SB_TOP_BUILDDIR:-$SB_TOP_SRCDIR/build/$SB_SERIES}
}

# sb_use_slurm PREFIX: run the Slurm installed in PREFIX (/usr: Debian's)
# from here on, whatever SB_SLURM said: its daemons, its clients first in
# PATH, its PluginDir. Before sb_cluster_init, or through sb_switch_slurm.
sb_use_slurm() {
	local prefix=$1 keep=() d p
	[ -x "$prefix/sbin/slurmctld" ] || sb_die "sb_use_slurm: no $prefix/sbin/slurmctld"
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
	SB_SERIES=$(sb_series_of "$prefix")
	if [ "$prefix" = /usr ]; then
		SB_SLURM_LIBDIR=/usr/lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)/slurm-wlm
	else
		SB_SLURM_LIBDIR=$prefix/lib/slurm
	fi
	hash -r
}

# Has the Slurm of SB_TOP_BUILDDIR the API trait $1 (SB_HAVE_...)? As
# configure found it: the tests follow the plugins' compat layer.
sb_slurm_has() {
	local h=$SB_TOP_BUILDDIR/sb_slurm_traits.h
	[ -f "$h" ] || sb_die "sb_slurm_has: no $h (configure writes it)"
	grep -q "^#define $1 1\$" "$h"
}

# sb_plugindir_lock [SECONDS]: hold Slurm's PluginDir (SB_SLURM_LIBDIR)
# until the script exits, waiting up to SECONDS (default 900) for another
# test that holds it: the tests that install our plugins into it (t03,
# t04) run one after the other, whatever runs side by side. An flock(1)
# on a file in /tmp (the chroot's /tmp is the host's), one per PluginDir
# path; the daemons started afterwards inherit the descriptor, and
# sb_cluster_stop ends them.
sb_plugindir_lock() {
	local f
	f=/tmp/slurm-buckets-plugindir-$(printf '%s' "$SB_SLURM_LIBDIR" | md5sum | cut -c1-12).lock
	exec {_sb_plugindir_fd}>>"$f" || sb_die "sb_plugindir_lock: cannot open $f"
	flock -w "${1:-900}" "$_sb_plugindir_fd" ||
		sb_die "sb_plugindir_lock: $SB_SLURM_LIBDIR still held by another test after ${1:-900} s ($f)"
}

# Is the running Slurm older than series $1? (23.02 < 24.11)
sb_series_lt() {
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
	sb_series_lt 23.02 && return 0
	if ! awk '$2 == "/sys/fs/cgroup" { f = 1 } END { exit !f }' /proc/self/mounts; then
		echo "CgroupPlugin=disabled" >"$SB_DIR/etc/cgroup.conf"
	fi
	return 0
}

# Does select/bucket take its base from SelectTypeParameters=OTHER_CONS_TRES?
# 24.11 removed that flag: bucket.conf's BaseSelectType names the base.
_sb_base_in_slurm_conf() { sb_series_lt 23.11; }

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
# show config' where the select framework has get_info_from_plugin (until
# 24.11); later ones print no select plugin section there, so slurmctld's
# log says it.
sb_bucket_over() {
	if sb_slurm_has SB_HAVE_SELECT_DATA; then
		scontrol show config | grep -q "BaseSelectType *= select/$1"
	else
		grep -q "select/bucket: .*choosing nodes over the base plugin select/$1\$" \
			"$SB_DIR/log/slurmctld.log"
	fi
}

# The running jobs that hold their nodes whole (--exclusive, or a
# partition with OverSubscribe=EXCLUSIVE). squeue's %h says NO for them
# until 25.11; 26.05 shows oversubscription there (NO for most jobs) and
# exclusivity in -O Exclusive (NODE, USER, MCS, TOPO; NO for none), which
# 25.11's squeue does not have yet.
sb_running_exclusive() {
	if sb_series_lt 26.05; then
		squeue -h -t RUNNING -o '%i %h' | awk '$2 == "NO" { print $1 }'
	else
		squeue -h -t RUNNING -O JobID,Exclusive | awk '$2 != "NO" { print $1 }'
	fi
}
