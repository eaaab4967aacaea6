#!/bin/bash
# t04-package-rpm - the RPM of the plugins (slurm-buckets.spec), as an
# RPM site installs it, on a Slurm built from source (25.05, 25.11,
# 26.05; Debian's Slurm, 22.05 and 24.11, has t03's .deb instead). The
# RPM is built by Debian's rpmbuild from the release tarball against the
# build's Slurm tree (build-aux/build-rpm --nocheck) unless dist/ holds
# one newer than every source file; rpmlint finds no error in it; it
# requires exactly that Slurm's version-release and holds the plugins in
# that Slurm's PluginDir, sbucket, the man pages and the examples under
# its prefix. 'rpm -i --nodeps' (no Slurm RPM here to satisfy its
# Requires) with a scratch rpm database installs it; a cluster that uses
# Slurm's own PluginDir alone runs a job through select/bucket,
# priority/bucket and the SPANK plugin as the RPM installed them; 'rpm -e'
# leaves none of its files behind. Nothing is touched when Slurm's
# PluginDir already has plugins of ours (make install?).
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../cluster/harness.sh"

top=${SB_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${SB_TOP_BUILDDIR:-$top}
libdir=$SB_SLURM_LIBDIR
prefix=$SB_SLURM_PREFIX
# Slurm's PluginDir only: the plugins must come from the RPM.
SB_PLUGIN_DIR=

if [ "$prefix" = /usr ]; then
	echo "skip 1 - Slurm $SB_SERIES is Debian's: its package is the .deb (t03)"
	exit 0
fi
for c in rpm rpmbuild rpmlint; do
	if ! command -v $c >/dev/null; then
		echo "skip 1 - no $c here (apt-get install rpm rpmlint; ./quickstart check installs them)"
		exit 0
	fi
done

version=$(sed -n 's/^PACKAGE_VERSION = //p' "$build/Makefile")
slurm_src=$(sed -n 's/^SLURM_SOURCE_DIR = //p' "$build/Makefile")
slurm_version=$("$SB_SBIN/slurmctld" -V | awk '{ print $NF }')
# upstream's slurm.spec: Release is META's (plus the dist tag, none here)
slurm_release=$(sed -n 's/^[[:space:]]*Release:[[:space:]]*//p' "$slurm_src/META" | head -n 1)
arch=$(rpm --eval '%{_arch}')
rpmfile=$build/dist/slurm-buckets-$version-1.slurm$slurm_version.$arch.rpm

# ---- build, unless an up-to-date RPM is there --------------------------------
_stale() {
	[ ! -f "$rpmfile" ] && return 0
	[ -n "$(find "$top/common" "$top/plugins" "$top/tools" "$top/doc" \
		"$top/etc" "$top/slurm-buckets.spec.in" "$top/configure.ac" \
		"$top/Makefile.am" -newer "$rpmfile" -type f -print -quit)" ]
}
if _stale; then
	echo "# building $rpmfile (build-aux/build-rpm --nocheck)"
	t0=$SECONDS
	sb_check "the RPM builds" "$top/build-aux/build-rpm" --nocheck "$build"
	sb_say "built in $((SECONDS - t0)) s"
fi
[ -f "$rpmfile" ] || { echo "not ok - no $rpmfile"; exit 1; }

# rpmlint's report on '#' lines when it finds an error (its warnings:
# build-aux/build-rpm --rpmlint shows them)
_rpmlint() {
	local out rc=0
	out=$(rpmlint --ignore-unused-rpmlintrc -r "$top/slurm-buckets.rpmlintrc" \
		"$rpmfile" 2>&1) || rc=$?
	[ $rc = 0 ] || printf '%s\n' "$out" | sed 's/^/#   /'
	return $rc
}
sb_check "rpmlint finds no error (slurm-buckets.rpmlintrc)" _rpmlint
sb_check_eq "it is named after the Slurm it is for" \
	"slurm-buckets-$version-1.slurm$slurm_version.$arch" \
	rpm -qp --qf '%{NAME}-%{VERSION}-%{RELEASE}.%{ARCH}' "$rpmfile"
sb_check_eq "it requires exactly that Slurm ($slurm_version-$slurm_release)" \
	"(slurm-slurmctld = $slurm_version-$slurm_release if slurm-slurmctld)
slurm(x86-64) = $slurm_version-$slurm_release" \
	sh -c "rpm -qpR '$rpmfile' | grep -E '^[(]?slurm' | sort"
files=$(rpm -qpl "$rpmfile")
want="$libdir/priority_bucket.so
$libdir/select_bucket.so
$libdir/spank_bucket.so
$prefix/bin/sbucket
$prefix/share/man/man1/sbucket.1.gz
$prefix/share/man/man5/bucket.conf.5.gz
$prefix/share/man/man8/priority_bucket.8.gz
$prefix/share/man/man8/select_bucket.8.gz
$prefix/share/man/man8/spank_bucket.8.gz
$prefix/share/doc/slurm-buckets/examples/bucket.conf.example
$prefix/share/doc/slurm-buckets/examples/mix-jobs.txt
$prefix/share/licenses/slurm-buckets-$version/COPYING"
got=$(printf '%s\n' "$files" | grep -Fx -f <(printf '%s\n' "$want") | sort)
sb_check_eq "it holds the plugins, sbucket, the man pages and the examples" \
	"$(sort <<<"$want")" echo "$got"
sb_check_eq "every other file is under Slurm's prefix (or a build-id link)" "" \
	sh -c "printf '%s\n' '$files' | grep -v -e '^$prefix/' -e '^/usr/lib/.build-id'"

# ---- install ------------------------------------------------------------------
# t03 installs into the same PluginDir: one after the other.
sb_plugindir_lock
for p in select_bucket priority_bucket spank_bucket; do
	if [ -e "$libdir/$p.so" ]; then
		echo "skip $((SB_NCHECK + 1)) - $libdir/$p.so is there already (make install?): not touching it"
		exit 0
	fi
done

sb_cluster_init t04
# What of the package's paths is there before (directories such as
# PluginDir and share/man/man1 are): rpm -e must leave exactly that.
before=$(for f in $files; do [ -e "$f" ] && echo "$f"; done)
db=$SB_DIR/rpmdb
installed=0
_remove() {
	[ $installed = 1 ] || return 0
	rpm -e --dbpath "$db" slurm-buckets >"$SB_DIR/log/rpm-e.log" 2>&1 || return 1
	installed=0
}
sb_on_exit _remove

sb_check "a scratch rpm database" rpm --initdb --dbpath "$db"
installed=1
sb_check "rpm -i --nodeps installs it" sh -c "rpm -i --nodeps --dbpath '$db' \
	'$rpmfile' >'$SB_DIR/log/rpm-i.log' 2>&1"
sb_check_eq "rpm knows it as installed" "slurm-buckets-$version-1.slurm$slurm_version.$arch" \
	rpm -q --dbpath "$db" slurm-buckets
sb_check_eq "sbucket --version" "sbucket $version (built for Slurm $slurm_version)" \
	"$prefix/bin/sbucket" --version

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
	sb_check "slurmctld runs the RPM's $p.so" \
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

# ---- remove -------------------------------------------------------------------
sb_check "rpm -e removes it" _remove
sb_check_eq "rpm no longer has it" "package slurm-buckets is not installed" \
	rpm -q --dbpath "$db" slurm-buckets
left=$(for f in $files; do [ -e "$f" ] && echo "$f"; done)
sb_check_eq "no file of the RPM is left (but the directories there before)" \
	"$before" echo "$left"
sb_check "its documentation directory is gone" test ! -e "$prefix/share/doc/slurm-buckets"
