#!/bin/bash
# t03-package - the plugins as a site installs them, then run from Slurm's
# own PluginDir. A Slurm built from source (26.05, in its own prefix):
# 'make install' into that Slurm's PluginDir, and 'make uninstall'
# afterwards leaves none of our files. Debian's Slurm (22.05, 24.11):
# the Debian package, built (build-aux/build-deb --nocheck)
# unless dist/ holds one newer than every source file, lintian-clean,
# installed with apt-get; a cluster that uses Slurm's own PluginDir alone (no override)
# then runs a job through select/bucket, priority/bucket and the SPANK
# plugin as the package installed them; 'apt-get remove' leaves none of
# the package's files behind. Nothing is touched when the machine already
# has the package, or plugins of ours in Slurm's PluginDir from 'make
# install'.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../cluster/harness.sh"

top=${SB_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${SB_TOP_BUILDDIR:-$top}
libdir=$SB_SLURM_LIBDIR
# Slurm's PluginDir only: the plugins must come from the package.
SB_PLUGIN_DIR=
version=$(sed -n 's/^PACKAGE_VERSION = //p' "$build/Makefile")
arch=$(dpkg --print-architecture)
deb=$build/dist/slurm-buckets_${version}_$arch.deb
if [ "$SB_SLURM_PREFIX" = /usr ]; then
	mode=deb
	slurm_version=$(dpkg-query -W -f='${Version}' slurm-wlm-basic-plugins)
else
	mode=make
	slurm_version=$("$SB_SBIN/slurmctld" -V | awk '{ print $NF }')
fi

# t04 installs into the same PluginDir: one after the other.
sb_plugindir_lock
if dpkg-query -W -f='${Status}' slurm-buckets 2>/dev/null | grep -q installed; then
	echo "skip 1 - slurm-buckets is installed on this machine already: not touching it"
	exit 0
fi
for p in select_bucket priority_bucket spank_bucket; do
	if [ -e "$libdir/$p.so" ]; then
		echo "skip 1 - $libdir/$p.so is there already (make install?): not touching it"
		exit 0
	fi
done

if [ $mode = deb ]; then
# ---- build, unless an up-to-date .deb is there ---------------------------
_stale() {
	[ ! -f "$deb" ] && return 0
	[ -n "$(find "$top/common" "$top/plugins" "$top/tools" "$top/doc" \
		"$top/etc" "$top/debian" "$top/configure.ac" "$top/Makefile.am" \
		-newer "$deb" -type f -print -quit)" ]
}
if _stale; then
	echo "# building $deb (build-aux/build-deb --nocheck)"
	sb_check "the package builds" "$top/build-aux/build-deb" --nocheck "$build"
fi
[ -f "$deb" ] || { echo "not ok - no $deb"; exit 1; }

sb_check_eq "it depends on exactly the installed Slurm ($slurm_version)" \
	"slurm-wlm-basic-plugins (= $slurm_version), slurmctld (= $slurm_version) | slurmd (= $slurm_version) | slurm-client (= $slurm_version)" \
	sh -c "dpkg-deb -f '$deb' Depends | sed 's/, /\\n/g' | grep slurm | paste -sd '#' | sed 's/#/, /g'"
files=$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { sub(/^\./, "", $6); print $6 }')
want="$libdir/priority_bucket.so
$libdir/select_bucket.so
$libdir/spank_bucket.so
/usr/bin/sbucket
/usr/share/man/man1/sbucket.1.gz
/usr/share/man/man5/bucket.conf.5.gz
/usr/share/man/man8/priority_bucket.8.gz
/usr/share/man/man8/select_bucket.8.gz
/usr/share/man/man8/spank_bucket.8.gz
/usr/share/doc/slurm-buckets/examples/bucket.conf.example
/usr/share/doc/slurm-buckets/examples/mix-jobs.txt"
got=$(printf '%s\n' "$files" | grep -Fx -f <(printf '%s\n' "$want") | sort)
sb_check_eq "it holds the plugins, sbucket, the man pages and the examples" \
	"$(sort <<<"$want")" echo "$got"
fi

sb_cluster_init t03
# Installed from here on: removed again on the way out, whatever happens.
installed=0
_remove() {
	[ $installed = 1 ] || return 0
	if [ $mode = make ]; then
		make -C "$build" -s uninstall >"$SB_DIR/log/make-uninstall.log" 2>&1
	else
		DEBIAN_FRONTEND=noninteractive apt-get -q -y -o DPkg::Lock::Timeout=300 \
			remove slurm-buckets >"$SB_DIR/log/apt-remove.log" 2>&1
	fi
	installed=0
}
sb_on_exit _remove

if [ $mode = deb ]; then
	# apt's sandbox user and lintian (which wants no root) must be able to
	# read the file, and lintian to enter its working directory (a checkout
	# under /root or a 0700 directory is closed to it).
	cp "$deb" "$SB_DIR/"
	chmod 0644 "$SB_DIR/$(basename "$deb")"
	sb_check "lintian finds no error and no warning" runuser -u nobody -- \
		env -C / HOME=/tmp lintian --fail-on error,warning "$SB_DIR/$(basename "$deb")"
	installed=1
	sb_check "apt-get installs it" sh -c "DEBIAN_FRONTEND=noninteractive apt-get -q -y \
		-o DPkg::Lock::Timeout=300 install '$SB_DIR/$(basename "$deb")' \
		>'$SB_DIR/log/apt-install.log' 2>&1"
	sb_check_eq "dpkg knows it as installed" "install ok installed" \
		dpkg-query -W -f='${Status}' slurm-buckets
	sb_check_eq "sbucket on PATH is the package's" "/usr/bin/sbucket" command -v sbucket
	sb_check_eq "sbucket --version" "sbucket $version (built for Slurm ${slurm_version%%-*})" \
		/usr/bin/sbucket --version
else
	installed=1
	sb_check "make install puts the plugins into Slurm's PluginDir" \
		sh -c "make -C '$build' -s install >'$SB_DIR/log/make-install.log' 2>&1"
	bindir=$(sed -n 's/^bindir = //p' "$build/Makefile")
	bindir=${bindir/'${exec_prefix}'/$(sed -n 's/^exec_prefix = //p' "$build/Makefile")}
	bindir=${bindir/'${prefix}'/$(sed -n 's/^prefix = //p' "$build/Makefile")}
	sb_check_eq "sbucket --version" "sbucket $version (built for Slurm $slurm_version)" \
		"$bindir/sbucket" --version
fi

sb_nodes "n[1-4]" "CPUs=2 RealMemory=2000"
sb_conf "SelectType=select/bucket"
sb_conf "PriorityType=priority/bucket"
sb_conf "DebugFlags=SelectType"
SB_CTLD_DEBUG=verbose
printf '%s\n' NodeAllocationPolicy=FIRSTAVAILABLE AllowJobPolicies=FASTEST \
	'NodeName=n[3-4] Speed=2' >"$SB_DIR/etc/bucket.conf"
# a relative path: Slurm looks for it in PluginDir
echo "required spank_bucket.so" >"$SB_DIR/etc/plugstack.conf"
sb_cluster_start
sb_check_eq "PluginDir is Slurm's own" "$libdir" \
	sh -c "scontrol show config | sed -n 's/^PluginDir *= //p'"
for p in select_bucket priority_bucket; do
	sb_check "slurmctld runs the package's $p.so" \
		grep -q " $libdir/$p.so\$" "/proc/$SB_CTLD_PID/maps"
done

cd "$SB_DIR/jobs" || exit 1
j=$(sbatch --parsable -N 2 --exclusive --bucket-policy=FASTEST -o /dev/null --wrap 'sleep 1')
sb_check "a job asking for FASTEST is accepted (the SPANK plugin)" grep -qE '^[0-9]+$' <<<"$j"
sb_job_wait "$j" 60
sb_check_eq "it completed" COMPLETED sb_job_state "$j"
sb_check "select/bucket placed it on the fast nodes" grep -q \
	"JobId=$j RUN_NOW: run (bucket path, policy FASTEST) nodes n\[3-4\]" \
	"$SB_DIR/log/slurmctld.log"
out=$(sbatch --bucket-policy=NOPE -N 1 --wrap true 2>&1)
sb_check "the SPANK plugin refuses an unknown policy" \
	grep -q "bucket-policy=NOPE: unknown policy" <<<"$out"
sb_cluster_stop
sb_check "every daemon the harness started is gone ($(sb_pids))" sb_all_gone

# ---- remove -----------------------------------------------------------------
if [ $mode = make ]; then
	sb_check "make uninstall removes it" _remove
	left=$(for p in select_bucket priority_bucket spank_bucket; do
		ls "$libdir/$p".* 2>/dev/null; done)
	sb_check_eq "no plugin of ours is left in PluginDir" "" echo "$left"
	exit 0
fi
sb_check "apt-get remove removes it" _remove
sb_check_eq "dpkg no longer has it" "" \
	sh -c "dpkg-query -W -f='\${Status}' slurm-buckets 2>/dev/null | grep -v not-installed"
left=$(for f in $files; do [ -e "$f" ] && echo "$f"; done)
sb_check_eq "no file of the package is left" "" echo "$left"
sb_check "its documentation directory is gone" test ! -e /usr/share/doc/slurm-buckets
