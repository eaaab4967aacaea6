# perf-share.awk - where slurmctld's time goes, from
#   perf script -F comm,tid,ip,sym,dso
# of a 'perf record --call-graph dwarf' run (bench/scale/one.sh).
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Each sample is charged to the innermost select plugin on its stack,
# walking from the leaf: select_bucket.so (ours: the layer and common/,
# with whatever Slurm or libc code it calls), the base select plugin
# (select_linear.so, select_cons_tres.so, even when called by us), or,
# with no select plugin on the stack, Slurm (slurmctld, libslurmfull,
# sched/backfill, libc...). Per thread name: sched_agent runs the main
# scheduler, bckfl backfill, srvcn the RPCs (submissions, --test-only).
# Then the functions: for ours, the innermost select_bucket.so frame
# (our function) and the leaf; for Slurm, the innermost slurmctld or
# sched_backfill frame and the leaf.

function dso(line) {
	if (match(line, /\([^()]*\)$/))
		return substr(line, RSTART + 1, RLENGTH - 2)
	return "?"
}
function sym(line,    s) {
	s = line
	sub(/^[ \t]*[0-9a-f]+ /, "", s)
	sub(/ \([^()]*\)$/, "", s)
	sub(/\+0x[0-9a-f]+$/, "", s)
	return s
}
function kind(d) {
	if (d ~ /select_bucket\.so$/)
		return "ours"
	if (d ~ /select_(linear|cons_tres|cons_res)\.so$/)
		return "base"
	return ""
}
function flush(    i, k, cls, own, leaf, ctld) {
	if (!nf)
		return
	cls = "slurm"
	own = ""
	ctld = ""
	leaf = fsym[1] " [" fdso[1] "]"
	for (i = 1; i <= nf; i++) {
		k = kind(fdso[i])
		if (k != "") {
			cls = k
			own = fsym[i]
			break
		}
	}
	for (i = 1; i <= nf && ctld == ""; i++)
		if (fdso[i] ~ /(slurmctld|sched_backfill\.so)$/)
			ctld = fsym[i]
	n[comm, cls]++
	tot[comm]++
	all[cls]++
	total++
	comms[comm] = 1
	if (cls == "ours") {
		ourfn[own]++
		ourleaf[leaf]++
	} else if (cls == "base") {
		basefn[own]++
	} else {
		slurmfn[ctld == "" ? "(no slurmctld frame)" : ctld]++
		slurmleaf[leaf]++
	}
	nf = 0
}
function top(arr, title, max,    k, i, j, m, keys, tmp) {
	m = 0
	for (k in arr)
		keys[++m] = k
	for (i = 2; i <= m; i++) {	# insertion sort, largest first
		tmp = keys[i]
		for (j = i - 1; j >= 1 && arr[keys[j]] < arr[tmp]; j--)
			keys[j + 1] = keys[j]
		keys[j + 1] = tmp
	}
	printf "\n%s\n", title
	for (i = 1; i <= m && i <= max; i++)
		printf "  %6.2f%%  %s\n", 100 * arr[keys[i]] / total, keys[i]
}

/^[^ \t]/ {
	flush()
	comm = $1
	next
}
/^[ \t]+[0-9a-f]+ / {
	nf++
	fdso[nf] = dso($0)
	sub(/.*\//, "", fdso[nf])
	fsym[nf] = sym($0)
	next
}
/^$/ { flush() }

END {
	flush()
	if (!total) {
		print "no samples"
		exit
	}
	printf "%d samples (cpu-clock)\n\n", total
	printf "%-14s %8s %8s %8s %8s\n", "thread", "samples", "ours", "base", "slurm"
	for (c in comms)
		printf "%-14s %8d %7.1f%% %7.1f%% %7.1f%%\n", c, tot[c],
		       100 * n[c, "ours"] / tot[c], 100 * n[c, "base"] / tot[c],
		       100 * n[c, "slurm"] / tot[c]
	printf "%-14s %8d %7.1f%% %7.1f%% %7.1f%%\n", "all", total,
	       100 * all["ours"] / total, 100 * all["base"] / total,
	       100 * all["slurm"] / total
	top(ourfn, "ours, by our innermost function (% of all samples)", 15)
	top(ourleaf, "ours, by leaf function", 15)
	top(basefn, "base plugin, by its innermost function", 10)
	top(slurmfn, "Slurm, by innermost slurmctld/backfill function", 20)
	top(slurmleaf, "Slurm, by leaf function", 15)
}
