#!/bin/bash
# b03-install - 'make install' into a staging directory (DESTDIR) puts the
# three plugins into Slurm's PluginDir as .so files and nothing else there
# (no libtool .la), sbucket into bin, the man pages into man1/5/8 and the
# examples into the documentation;
# 'make uninstall' takes them all out again.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
set -u
build=${SB_TOP_BUILDDIR:-.}
libdir=${SB_SLURM_PLUGINDIR:-/usr/lib/x86_64-linux-gnu/slurm-wlm}
. "$(dirname "$0")/tap.inc"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
if ! make -s -C "$build" install DESTDIR="$stage" >"$stage.log" 2>&1; then
	notok "make install DESTDIR=... succeeds" "$(tail -n 5 "$stage.log")"
	rm -f "$stage.log"
	exit 1
fi
rm -f "$stage.log"
ok "make install DESTDIR=... succeeds"

got=$(cd "$stage$libdir" 2>/dev/null && ls | sort | paste -sd' ')
want="priority_bucket.so select_bucket.so spank_bucket.so"
if [ "$got" = "$want" ]; then
	ok "PluginDir holds exactly the three plugins' .so files"
else
	notok "PluginDir holds exactly the three plugins' .so files" \
		"want: $want" "got:  $got"
fi
prefix=$(sed -n 's/^prefix = //p' "$build/Makefile")
for f in bin/sbucket share/man/man1/sbucket.1 share/man/man5/bucket.conf.5 \
	 share/man/man8/select_bucket.8 share/man/man8/priority_bucket.8 \
	 share/doc/slurm-buckets/examples/bucket.conf.example \
	 share/doc/slurm-buckets/examples/slurm.conf.select.example \
	 share/doc/slurm-buckets/examples/mix-jobs.txt; do
	if [ -e "$stage$prefix/$f" ]; then
		ok "installs $f"
	else
		notok "installs $f" "missing: $stage$prefix/$f"
	fi
done

make -s -C "$build" uninstall DESTDIR="$stage" >/dev/null 2>&1
left=$(find "$stage" -type f | sed "s|^$stage||" | paste -sd' ')
if [ -z "$left" ]; then
	ok "make uninstall removes every installed file"
else
	notok "make uninstall removes every installed file" "left: $left"
fi
exit $fail
