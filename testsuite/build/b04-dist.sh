#!/bin/bash
# b04-dist - 'make dist' (the tarball the Debian package is built from)
# holds every file git tracks but .gitignore, and the tarball's debian/
# changelog is at configure.ac's version.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
set -u
top=${SB_TOP_SRCDIR:-.}
build=${SB_TOP_BUILDDIR:-.}
. "$(dirname "$0")/tap.inc"

if ! git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	echo "skip $((n += 1)) - no git checkout to compare the tarball with"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
version=$(sed -n 's/^PACKAGE_VERSION = //p' "$build/Makefile")
# Its own distdir name, so a concurrent 'make dist' is not disturbed.
if ! make -s -C "$build" dist distdir=b04-dist >"$tmp/log" 2>&1; then
	notok "make dist succeeds" "$(tail -n 5 "$tmp/log")"
	exit 1
fi
ok "make dist succeeds"
tar -tf "$build/b04-dist.tar.xz" | sed 's|^b04-dist/||' | sort >"$tmp/dist"
rm -f "$build/b04-dist.tar.xz"
missing=$(cd "$top" && { git ls-files; git ls-files --others --exclude-standard; } |
	grep -vx '.gitignore' | sort -u | comm -23 - "$tmp/dist")
if [ -z "$missing" ]; then
	ok "the tarball holds every file of the checkout"
else
	notok "the tarball holds every file of the checkout" \
		"missing (add them to a _SOURCES or EXTRA_DIST):" $missing
fi
cl=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version 2>&1)
if [ "$cl" = "$version" ]; then
	ok "debian/changelog is at configure.ac's version ($version)"
else
	notok "debian/changelog is at configure.ac's version" \
		"configure.ac: $version" "debian/changelog: $cl"
fi
exit $fail
