#!/bin/bash
# b02-plugin-symbols - each built plugin exports exactly what its plugin
# framework looks up, carries the exact Slurm version, and every symbol it
# needs is found where the program that loads it will look: slurmctld's
# exported symbols, libslurmfull, the C library. Data symbols of
# slurmctld must be weak in select/bucket, which sinfo, squeue, srun and
# slurmd load too (they have none of them); b05 checks what a program
# linked with the public libslurm.so finds.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
set -u
build=${SB_TOP_BUILDDIR:-.}
libdir=${SB_SLURM_PLUGINDIR:-/usr/lib/x86_64-linux-gnu/slurm-wlm}
ctld=$(readlink -f "$(command -v slurmctld || echo /usr/sbin/slurmctld)")
. "$(dirname "$0")/tap.inc"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{
	nm -D --defined-only "$ctld"
	nm -D --defined-only "$libdir/libslurmfull.so"
	for l in /lib/x86_64-linux-gnu/libc.so.6 /lib/x86_64-linux-gnu/libm.so.6; do
		[ -e "$l" ] && nm -D --defined-only "$l"
	done
} 2>/dev/null | awk '{ print $3 }' | sed 's/@.*//' | sort -u >"$tmp/have"

# A build instrumented with ASan or UBSan (CI's sanitizer build) calls
# into the sanitizer runtime, which comes with the program that loads the
# plugin (linked into it, or preloaded), never from Slurm: not missing.
SANITIZER_RUNTIME='^__(asan|ubsan|lsan|sanitizer)_'

# plugin: its .so and the exports its framework needs (a regex)
declare -A WANT=(
	[select_bucket]='^(plugin_(name|type|id|version)|init|fini|select_p_.*)$'
	[priority_bucket]='^(plugin_(name|type|version)|init|fini|priority_p_.*|job_list|last_(job|part)_update|slurmctld_tres_cnt|accounting_enforce|cluster_cpus|acct_db_conn)$'
	[spank_bucket]='^(plugin_(name|type|version)|spank_plugin_version|slurm_spank_.*)$'
)
for p in select_bucket priority_bucket spank_bucket; do
	so=$(ls "$build"/plugins/*/bucket/.libs/"$p.so" 2>/dev/null | head -n 1)
	if [ -z "$so" ]; then
		notok "$p.so is built" "not found under $build/plugins"
		continue
	fi
	extra=$(nm -D --defined-only "$so" | awk '{ print $3 }' |
		grep -Ev "${WANT[$p]}" | paste -sd' ')
	if [ -z "$extra" ]; then
		ok "$p.so exports only its framework's symbols"
	else
		notok "$p.so exports only its framework's symbols" "extra: $extra"
	fi
	# a hook the plugin defines but its map hides is never called
	# (spank_bucket.so's slurm_spank_exit was)
	hidden=$(nm "$so" 2>/dev/null | awk '$2 ~ /^[tT]$/ { print $3 }' |
		grep -E "${WANT[$p]}" | sort -u |
		comm -23 - <(nm -D --defined-only "$so" | awk '{ print $3 }' |
			sed 's/@.*//' | sort -u) | paste -sd' ')
	if [ -z "$hidden" ]; then
		ok "$p.so exports every framework function it defines"
	else
		notok "$p.so exports every framework function it defines" \
			"hidden: $hidden"
	fi
	# weak ones too: NULL in slurmctld would crash it (only the
	# toolchain's own hooks are absent everywhere)
	missing=$(nm -D --undefined-only "$so" | awk '{ print $2 }' |
		sed 's/@.*//' | grep -Ev "$SANITIZER_RUNTIME" |
		grep -Ev '^(_ITM_(de)?registerTMCloneTable|__gmon_start__)$' | sort -u |
		comm -23 - "$tmp/have" | paste -sd' ')
	if [ -z "$missing" ]; then
		ok "every symbol $p.so needs is in slurmctld, libslurmfull or libc"
	else
		notok "every symbol $p.so needs is in slurmctld, libslurmfull or libc" \
			"missing: $missing"
	fi
done

# Only functions may stay unresolved outside slurmctld: a data symbol
# would fail dlopen() in sinfo or slurmd.
so=$build/plugins/select/bucket/.libs/select_bucket.so
ctld_data=$(nm -D --defined-only "$ctld" | awk '$2 ~ /^[BDGRS]$/ { print $3 }' |
	sed 's/@.*//' | sort -u)
full=$(nm -D --defined-only "$libdir/libslurmfull.so" | awk '{ print $3 }' | sed 's/@.*//' | sort -u)
strong=$(nm -D --undefined-only "$so" | awk '$1 == "U" { print $2 }' | sed 's/@.*//' |
	sort -u | comm -12 - <(echo "$ctld_data") | comm -23 - <(echo "$full") | paste -sd' ')
if [ -z "$strong" ]; then
	ok "select_bucket.so refers to slurmctld's data weakly (loadable by sinfo, slurmd)"
else
	notok "select_bucket.so refers to slurmctld's data weakly" "strong: $strong"
fi

# plugin_version must be SLURM_VERSION_NUMBER exactly (Slurm compares it)
want=$(printf '%d' "$(sed -n 's/^#define SLURM_VERSION_NUMBER *//p' \
	"$build/config.log" "${SB_SLURM_PREFIX:-/usr}/include/slurm/slurm_version.h" \
	2>/dev/null | head -n 1)")
for p in select_bucket priority_bucket; do
	so=$build/plugins/$( [ $p = select_bucket ] && echo select || echo priority)/bucket/.libs/$p.so
	got=$(gdb -batch -ex 'print plugin_version' "$so" 2>/dev/null | sed -n 's/^\$1 = //p')
	if [ -z "$got" ]; then
		# no gdb: read the symbol's 4 bytes with objdump
		off=$(nm "$so" | awk '$3 == "plugin_version" { print $1 }')
		got=$(objdump -s -j .rodata --start-address=0x$off \
			--stop-address=$((16#$off + 4)) "$so" 2>/dev/null |
			awk 'NR > 4 { print $2; exit }' |
			sed 's/\(..\)\(..\)\(..\)\(..\)/0x\4\3\2\1/')
		got=$((got))
	fi
	if [ "$got" = "$want" ]; then
		ok "$p.so is built for Slurm version number $want"
	else
		notok "$p.so is built for Slurm version number $want" "got '$got'"
	fi
done
exit $fail
