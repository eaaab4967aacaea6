#!/bin/bash
# b01-configure-versions - configure refuses a Slurm source tree or daemon of
# another version, an unconfigured tree and a missing tree, each with one
# clear message; it accepts the matching tree.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
set -u
top=${SB_TOP_SRCDIR:?}
src=${SB_SLURM_SOURCE:?the configured Slurm source tree}
. "$(dirname "$0")/tap.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A pristine copy of what configure reads: the checkout may itself be
# configured in place, which rules out a VPATH build from it.
pristine="$tmp/src"
mkdir -p "$pristine/common/base"
cp -r "$top/configure" "$top/Makefile.in" "$top/sb_config.h.in" \
	"$top/build-aux" "$pristine/"
cp "$top/common/base/bitmap.h" "$pristine/common/base/"
# configure knows a Slurm series by its plugins/series/<series>/sb_slurm.h
for d in "$top"/plugins/series/*/; do
	mkdir -p "$pristine/plugins/series/$(basename "$d")"
	cp "$d/sb_slurm.h" "$pristine/plugins/series/$(basename "$d")/"
done

# run_configure NAME ARGS...: configure in a fresh build dir; output in $out.
run_configure() {
	local d="$tmp/$1"
	shift
	mkdir -p "$d"
	out=$(cd "$d" && "$pristine/configure" -q "$@" 2>&1)
}

# expect_refusal WHAT MESSAGE ARGS...
expect_refusal() {
	local what=$1 msg=$2
	shift 2
	if run_configure "b$n" "$@"; then
		notok "$what" "configure succeeded"
	elif grep -qF -- "$msg" <<<"$out"; then
		ok "$what"
	else
		notok "$what" "expected: $msg" "got: $(tail -n 2 <<<"$out")"
	fi
}

# A source tree that claims another micro version.
fake="$tmp/slurm-22.05.9"
mkdir -p "$fake/src/slurmctld" "$fake/src/common" "$fake/slurm"
touch "$fake/src/slurmctld/slurmctld.h" "$fake/src/common/bitstring.h"
sed 's/^#define SLURM_VERSION_NUMBER .*/#define SLURM_VERSION_NUMBER 0x160509/' \
	"$src/config.h" >"$fake/config.h"
cp "$src/slurm/slurm_version.h" "$fake/slurm/"
expect_refusal "a source tree of 22.05.9 is refused" \
	"Slurm versions disagree: public header 22.05.8, source tree 22.05.9" \
	--with-slurm-source="$fake"

rm "$fake/config.h"
expect_refusal "an unconfigured source tree is refused" \
	"has no config.h: it is not configured" --with-slurm-source="$fake"

expect_refusal "a directory that is no Slurm tree is refused" \
	"is not a Slurm source tree" --with-slurm-source="$tmp"

expect_refusal "a missing --with-slurm-source is refused" \
	"--with-slurm-source=DIR is required"

# A daemon of another version.
printf '#!/bin/sh\necho "slurm-wlm 22.05.7"\n' >"$tmp/slurmctld"
chmod +x "$tmp/slurmctld"
expect_refusal "a slurmctld of 22.05.7 is refused" \
	"Slurm versions disagree: public header 22.05.8, source tree 22.05.8, $tmp/slurmctld 22.05.7" \
	--with-slurm-source="$src" --with-slurmctld="$tmp/slurmctld"

if run_configure good --with-slurm-source="$src" &&
   grep -q 'Slurm version ........ 22.05.8 (0x160508' <<<"$out"; then
	ok "the matching tree is accepted and its version printed"
else
	notok "the matching tree is accepted and its version printed" "$(tail -n 3 <<<"$out")"
fi
exit $fail
