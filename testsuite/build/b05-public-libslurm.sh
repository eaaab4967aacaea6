#!/bin/bash
# b05-public-libslurm - select_bucket.so loads into a program linked with
# Slurm's public libslurm.so (a site's own client of the API, pyslurm),
# not only into Slurm's own commands, which link libslurmfull: where
# select data travel with jobs and nodes (Slurm 22.05, 24.11) such a
# program loads every select plugin of PluginDir to read them. That
# library exports Slurm's functions under their slurm_* names only and
# none of slurmctld's data, so:
#   - a data relocation (a global read, a function's address taken)
#     against a symbol it lacks fails dlopen() itself, lazy binding or
#     not, and the program with it ("fatal: Can't find plugin for
#     select/bucket"): every one must be to a symbol libslurm.so, the C
#     library or the plugin itself has, or be weak. Exact.
#   - a function it lacks, called, ends the program: every function the
#     plugin calls must be in libslurm.so or the C library, or be a weak
#     reference (select_bucket.h lists them: what only slurmctld has),
#     which only code that runs in slurmctld calls. The test lists where
#     each is used, for review; the live test t28 runs the client's paths.
# priority_bucket.so and spank_bucket.so are loaded by slurmctld,
# slurmd, slurmstepd and Slurm's own commands only (sshare, sprio, srun,
# sbatch: libslurmfull), never by libslurm.so: b02 covers them.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
set -u
build=${SB_TOP_BUILDDIR:-.}
. "$(dirname "$0")/tap.inc"

lib=${SB_SLURM_LIBSLURM:-$(sed -n 's/^SLURM_LIBSLURM = //p' "$build/Makefile" 2>/dev/null)}
so=$build/plugins/select/bucket/.libs/select_bucket.so
if [ -z "$lib" ] || [ ! -f "$lib" ]; then
	# no libslurm-dev: nothing to check against, as configure said
	echo "skip 1 - no public libslurm.so (configure's SLURM_LIBSLURM: '$lib')"
	exit 0
fi
if [ ! -f "$so" ]; then
	notok "select_bucket.so is built" "not found: $so"
	exit $fail
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
_names() { awk '{ print $NF }' | sed 's/@.*//' | sort -u; }
{
	nm -D --defined-only "$lib"
	for l in /lib/x86_64-linux-gnu/libc.so.6 /lib/x86_64-linux-gnu/libm.so.6; do
		[ -e "$l" ] && nm -D --defined-only "$l"
	done
	# the plugin's own (plugin_type, ...), and the toolchain's weak hooks
	nm -D --defined-only "$so"
	printf '%s\n' _ITM_deregisterTMCloneTable _ITM_registerTMCloneTable \
		__gmon_start__
} 2>/dev/null | _names >"$tmp/have"
nm -D --undefined-only "$so" | awk '$1 == "w" || $1 == "v"' | _names >"$tmp/weak"

# The dynamic relocations naming a symbol: "TYPE SYMBOL", JUMP_SLOT the
# functions called through the PLT (bound at the first call), every
# other type bound by dlopen().
readelf -rW "$so" | awk '$3 ~ /^R_/ && NF >= 5 { print $3, $5 }' |
	sed 's/@[^ ]*$//' | sort -u >"$tmp/relocs"
_missing() {
	awk -v want="$1" '($1 == "R_X86_64_JUMP_SLOT") == (want == "func") { print $2 }' \
		"$tmp/relocs" | sort -u | comm -23 - "$tmp/have" |
		comm -23 - "$tmp/weak" | grep -Ev '^__(asan|ubsan|lsan|sanitizer)_' |
		paste -sd' '
}
n_data=$(awk '$1 != "R_X86_64_JUMP_SLOT"' "$tmp/relocs" | wc -l)
missing=$(_missing data)
if [ -z "$missing" ]; then
	ok "select_bucket.so: each of its $n_data data relocations resolves in a libslurm.so program, or is weak (dlopen() succeeds)"
else
	notok "select_bucket.so: each of its data relocations resolves in a libslurm.so program, or is weak (dlopen() succeeds)" \
		"not in $lib, libc or the plugin: $missing" \
		"(a global of slurmctld or libslurmfull, or a function's address: declare it in select_bucket.h's weak list, or call its slurm_* alias: sb_slurm.h)"
fi
missing=$(_missing func)
if [ -z "$missing" ]; then
	ok "select_bucket.so: every function it calls is in libslurm.so or libc, or a weak reference"
else
	notok "select_bucket.so: every function it calls is in libslurm.so or libc, or a weak reference" \
		"not in $lib or libc: $missing" \
		"(call its slurm_* alias, or, if only slurmctld runs the code that calls it, list it in select_bucket.h's weak references)"
fi

# Where the weak references libslurm.so lacks are used, for review: only
# code that runs in slurmctld may reach them. A function is called
# through its PLT entry ("<name@plt>"); data are read through their GOT
# slot, whose address the relocation gives.
comm -23 "$tmp/weak" "$tmp/have" >"$tmp/ctld_only"
readelf -rW "$so" | awk 'FNR == NR { want[$1]; next }
	$3 ~ /^R_/ && ($5 in want) { a = $1; sub(/^0+/, "", a); print a, $5 }' \
	"$tmp/ctld_only" - >"$tmp/slots"
objdump -d --no-show-raw-insn "$so" 2>/dev/null | awk '
	FILENAME == ARGV[1] { want[$1]; next }
	FILENAME == ARGV[2] { slot[$1] = $2; next }
	/^[0-9a-f]+ <.*>:$/ { fn = $2; gsub(/[<>:]/, "", fn); next }
	fn ~ /@plt$/ { next }	# the PLT entries themselves
	{
		s = ""
		if (match($0, /<[^>@]*@plt>/))
			s = substr($0, RSTART + 1, RLENGTH - 6)
		else if (match($0, /# [0-9a-f]+ /))
			s = slot[substr($0, RSTART + 2, RLENGTH - 3)]
		if (s != "" && (s in want) && !((s, fn) in seen)) {
			seen[s, fn]
			used[s] = used[s] " " fn
		}
	}
	END { for (s in want) print "# slurmctld only: " s ":" (s in used ? used[s] : " (unused)") }
' "$tmp/ctld_only" "$tmp/slots" - | sort
exit $fail
