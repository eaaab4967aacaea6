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
	"$top/slurm-buckets.spec.in" \
	"$top/build-aux" "$pristine/"
cp "$top/common/base/bitmap.h" "$pristine/common/base/"
# configure reads the supported series (build-aux/slurm-series, copied
# above) and the select entries it knows (plugins/compat/select_ops.def)
mkdir -p "$pristine/plugins/compat"
cp "$top/plugins/compat/select_ops.def" "$pristine/plugins/compat/"

# run_configure NAME ARGS...: configure in a fresh build dir; output in $out.
run_configure() {
	local d="$tmp/$1"
	shift
	mkdir -p "$d"
	# a Slurm in a prefix of its own (26.05): its public headers
	out=$(cd "$d" && "$pristine/configure" -q \
		--with-slurm="${SB_SLURM_PREFIX:-/usr}" "$@" 2>&1)
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

# The version of the tree under test (22.05.8 or 24.11.5), and others.
num=$(($(sed -n 's/^#define SLURM_VERSION_NUMBER *//p' "$src/config.h")))
vstr() { printf '%d.%02d.%d' $(($1 >> 16)) $((($1 >> 8) & 255)) $(($1 & 255)); }
ver=$(vstr $num)
series=${ver%.*}
next=$(vstr $((num + 1)))
prev=$(vstr $((num - 1)))

# A source tree that claims another micro version.
fake="$tmp/slurm-$next"
mkdir -p "$fake/src/slurmctld" "$fake/src/common" "$fake/slurm"
touch "$fake/src/slurmctld/slurmctld.h" "$fake/src/common/bitstring.h"
sed "s/^#define SLURM_VERSION_NUMBER .*/#define SLURM_VERSION_NUMBER $(printf '0x%06x' $((num + 1)))/" \
	"$src/config.h" >"$fake/config.h"
cp "$src/slurm/slurm_version.h" "$fake/slurm/"
expect_refusal "a source tree of $next is refused" \
	"Slurm versions disagree: public header $ver, source tree $next" \
	--with-slurm-source="$fake"

rm "$fake/config.h"
expect_refusal "an unconfigured source tree is refused" \
	"has no config.h: it is not configured" --with-slurm-source="$fake"

expect_refusal "a directory that is no Slurm tree is refused" \
	"is not a Slurm source tree" --with-slurm-source="$tmp"

expect_refusal "a missing --with-slurm-source is refused" \
	"--with-slurm-source=DIR is required"

# A daemon of another version.
printf '#!/bin/sh\necho "slurm-wlm %s"\n' "$prev" >"$tmp/slurmctld"
chmod +x "$tmp/slurmctld"
expect_refusal "a slurmctld of $prev is refused" \
	"Slurm versions disagree: public header $ver, source tree $ver, $tmp/slurmctld $prev" \
	--with-slurm-source="$src" --with-slurmctld="$tmp/slurmctld"

# Header, tree and daemon of a series the plugins do not support (23.02).
old="$tmp/slurm-23.02.7"
mkdir -p "$old/src/slurmctld" "$old/src/common" "$old/slurm" \
	"$tmp/prefix/include/slurm"
touch "$old/src/slurmctld/slurmctld.h" "$old/src/common/bitstring.h"
sed 's/^#define SLURM_VERSION_NUMBER .*/#define SLURM_VERSION_NUMBER 0x170207/' \
	"$src/config.h" >"$old/config.h"
sed 's/^#define SLURM_VERSION_NUMBER .*/#define SLURM_VERSION_NUMBER 0x170207/' \
	"$src/slurm/slurm_version.h" >"$old/slurm/slurm_version.h"
cp "$old/slurm/slurm_version.h" "$tmp/prefix/include/slurm/"
printf '#!/bin/sh\necho "slurm 23.02.7"\n' >"$tmp/slurmctld-23"
chmod +x "$tmp/slurmctld-23"
expect_refusal "a Slurm of an unsupported series (23.02) is refused, naming the supported ones" \
	"Slurm 23.02.7 is of the series 23.02, which slurm-buckets does not support (supported: $("$top/build-aux/slurm-series" list))" \
	--with-slurm-source="$old" --with-slurm="$tmp/prefix" \
	--with-slurmctld="$tmp/slurmctld-23"

# The same tree with a select framework we do not know: one entry more,
# then two entries swapped (a tree of links to $src, its select.c a copy).
newapi="$tmp/slurm-newapi"
cp -rs "$src" "$newapi"
sel=$(cd "$newapi" && ls src/interfaces/select.c src/common/select.c 2>/dev/null | head -n 1)
rm "$newapi/$sel"
sed 's/^\([[:space:]]*\)"plugin_id",/&\n\1"select_p_job_teleport",/' \
	"$src/$sel" >"$newapi/$sel"
expect_refusal "a select framework with an entry we do not know is refused, naming it" \
	"Slurm's select framework looks up select_p_job_teleport, which plugins/compat/select_ops.def does not know" \
	--with-slurm-source="$newapi"
sed '/"select_p_job_begin",/{h;d}; /"select_p_job_ready",/G' "$src/$sel" >"$newapi/$sel"
expect_refusal "a select framework with its entries in another order is refused" \
	"Slurm's select framework has its entries in another order than plugins/compat/select_ops.def" \
	--with-slurm-source="$newapi"
cp "$src/$sel" "$newapi/$sel"
prio=$(cd "$newapi" && ls src/interfaces/priority.c src/common/slurm_priority.c 2>/dev/null | head -n 1)
rm "$newapi/$prio"
sed 's/^\([[:space:]]*\)"priority_p_set",/&\n\1"priority_p_teleport",/' \
	"$src/$prio" >"$newapi/$prio"
expect_refusal "a priority framework with a symbol priority/bucket lacks is refused, naming it" \
	"Slurm's priority framework looks up priority_p_teleport, which priority/bucket does not have" \
	--with-slurm-source="$newapi"

if run_configure good --with-slurm-source="$src" &&
   grep -q "Slurm version ........ $ver ($(printf '0x%06x' $num)" <<<"$out" &&
   grep -q "Slurm series ......... $series (its traits: sb_slurm_traits.h)" <<<"$out" &&
   grep -q '^#define SB_HAVE_SELECT_DATA [01]$' "$tmp/good/sb_slurm_traits.h"; then
	ok "the matching tree is accepted, its version, series and traits written"
else
	notok "the matching tree is accepted, its version, series and traits written" "$(tail -n 3 <<<"$out")"
fi
exit $fail
