#!/bin/bash
# live_priority.sh - the fair-share pass and the decay thread of
# priority/bucket in a live slurmctld with many user associations, next
# to priority/multifactor (Fair Tree) on the same tree in the same run.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage (root, from the source tree, like a live test; SB_SLURM=SERIES, one
# of 'build-aux/slurm-series chroot', runs it in the Debian 13 chroot, on
# build/SERIES/'s plugins):
#   SB_PLUGIN_DIR=$PWD/build/22.05/.plugins bash bench/live_priority.sh [ACCOUNTS USERS]
# (default 100 accounts x 100 users = 10,000 user associations; the same
# USERS user names in every account, Fairshare=10 per account, 1 per
# user). Environment:
#   SB_BENCH_LOAD    sql (default): the tree is written into slurmdbd's
#                    tables in one transaction with its nested-set numbers
#                    computed here, then slurmctld restarted to read it
#                    (seconds for 100,000); sacctmgr: 'sacctmgr add', ten
#                    accounts' users per call (slurmdbd renumbers its
#                    nested-set tree on every insert: ~15 minutes for
#                    10,000, hours for 100,000)
#   SB_BENCH_ALGS    priority/bucket's algorithms to run (default
#                    "level_based fair_tree")
#   SB_BENCH_PASSES  passes of priority/bucket measured (default 10)
#   SB_BENCH_MF      0: priority/bucket only, no priority/multifactor part
#                    (to compare builds of priority/bucket quickly)
#   SB_BENCH_PERF    a directory: perf profiles (software clock, call
#                    graphs) of priority/bucket's decay thread, one per
#                    algorithm, are written there as perf-bucket-ALG.txt
#                    (first round only)
#   SB_BENCH_ROUNDS  rounds (default 1): each round measures
#                    priority/bucket (every algorithm) then
#                    priority/multifactor, slurmctld restarted on each
#                    switch, so that a change in the machine's load shows
#                    as a difference between rounds rather than between
#                    plugins; a RESULT line per plugin and round
#   SB_BENCH_USAGE   1: every user association starts with a usage of its
#                    own (1,000 to 97,000 s, written into slurmctld's
#                    assoc_usage state file before it starts), so that
#                    every pass's decay changes every association's
#                    usage and fair-share values, as on a busy cluster
#                    (default 0: every usage 0, as sacctmgr leaves it)
#   SB_BENCH_SSHARE  runs of 'sshare -a' timed per plugin (default 5;
#                    0 skips it: at 100,000 associations one takes
#                    minutes under either plugin, in the sshare client:
#                    its Account column's tree indentation looks each
#                    line's parent up in a list of every line printed so
#                    far, slurmdb_tree_name_get(), O(n^2))
#
# What is measured, per plugin:
#   decay thread  CPU time of the plugin's decay thread per pass
#                 (/proc/PID/task/TID/schedstat): decay of every
#                 association's usage + the fair-share pass + job
#                 priorities
#   fs pass       the fair-share pass alone, timed the same way for both
#                 plugins: perf uprobes on its entry and return, median
#                 of the passes; priority/bucket's is
#                 bucket_assoc_compute() (read the usage, compute, write
#                 the results back), priority/multifactor's is
#                 fair_tree_decay() (which also walks the job list twice:
#                 100 pending jobs here). Neither with DebugFlags=Priority
#                 (it formats a line per job and pass).
#   sprio, sshare 'sprio' (100 pending jobs) and 'sshare -a' wall time,
#                 median of 5
# priority/multifactor cannot run more often than once a minute, so its
# part takes a few minutes; its first pass (at start) is not counted.
# Last lines: RESULT lines, one per plugin, algorithm and round.
. "$(dirname "$0")/../testsuite/cluster/harness.sh"

NACCT=${1:-100}
NUSER=${2:-100}
PASSES=${SB_BENCH_PASSES:-10}
ROUNDS=${SB_BENCH_ROUNDS:-1}
USAGE=${SB_BENCH_USAGE:-0}
LOAD=${SB_BENCH_LOAD:-sql}
ALGS=${SB_BENCH_ALGS:-level_based fair_tree}
MF_SO=$SB_SLURM_LIBDIR/priority_multifactor.so
SB_CTLD_DEBUG=verbose
sb_cluster_init bench-prio
# the copy slurmctld loads (uprobes attach to a file)
BUCKET_SO=$SB_PLUGIN_DIR/priority_bucket.so
sb_nodes "b1" "CPUs=2 RealMemory=2000"
sb_accounting
sb_conf "PriorityType=priority/bucket"
sb_conf "PriorityParameters=algorithm=${ALGS%% *},calc_period=1"
sb_conf "PriorityCalcPeriod=1"
sb_conf "DebugFlags=Priority"
sb_cluster_start
LOG=$SB_DIR/log/slurmctld.log
total=$((NACCT * NUSER))
_ms() { date +%s%3N; }
_median() { sort -n | awk '{ v[NR] = $1 } END { print (NR ? v[int((NR + 1) / 2)] : "?") }'; }

# ---- the tree ----------------------------------------------------------------
# slurmdbd 22.05 keeps each cluster's associations as a nested set (lft,
# rgt): root (1 .. 2n), its user root (2, 3), then every account with its
# users. From 23.11 on it keeps a lineage instead ("/ACCT/" for an
# account, "/ACCT/0-USER/" for a user) and the parent's id_assoc, and
# 26.05's table has no lft and rgt any more; each is written when the
# table has it.
_has_column() {
	mariadb --socket="$SB_MYSQL_SOCK" -N slurm_acct_db \
		-e "SHOW COLUMNS FROM \`${1}_assoc_table\` LIKE '$2'" | grep -q "$2"
}
_load_sql() {
	local c=${SB_NAME//[^a-z0-9]/} lineage=0 nested=0
	_has_column "$c" lineage && lineage=1
	_has_column "$c" lft && nested=1
	awk -v A="$NACCT" -v U="$NUSER" -v c="$c" -v now="$(date +%s)" \
		-v lin="$lineage" -v nest="$nested" '
	function flush() { if (n) { print sql ";"; n = 0 } }
	function row(kind, v) {
		if (n == 1000)
			flush()
		if (!n) {
			if (kind == "assoc")
				sql = "INSERT INTO `" c "_assoc_table` (creation_time, mod_time, is_def, `user`, acct, parent_acct" (nest ? ", lft, rgt" : "") ", shares" (lin ? ", id_parent, lineage" : "") ") VALUES " v
			else if (kind == "acct")
				sql = "INSERT IGNORE INTO acct_table (creation_time, mod_time, name, description, organization) VALUES " v
			else
				sql = "INSERT IGNORE INTO user_table (creation_time, mod_time, name, admin_level) VALUES " v
		} else
			sql = sql "," v
		n++
	}
	BEGIN {
		print "START TRANSACTION;"
		if (nest) {
			printf "UPDATE `%s_assoc_table` SET lft = 1, rgt = %d WHERE acct = \"root\" AND `user` = \"\";\n", c, 4 + A * (2 * U + 2)
			printf "UPDATE `%s_assoc_table` SET lft = 2, rgt = 3 WHERE acct = \"root\" AND `user` = \"root\";\n", c
		}
		for (a = 1; a <= A; a++)
			row("acct", sprintf("(%d,%d,\"bencha%05d\",\"bench\",\"bench\")", now, now, a))
		flush()
		for (u = 1; u <= U; u++)
			row("user", sprintf("(%d,%d,\"benchu%05d\",1)", now, now, u))
		flush()
		if (lin)
			printf "SET @root = (SELECT id_assoc FROM `%s_assoc_table` WHERE acct = \"root\" AND `user` = \"\");\n", c
		for (a = 1; a <= A; a++) {
			l = 4 + (a - 1) * (2 * U + 2)
			x = lin ? sprintf(",@root,\"/bencha%05d/\"", a) : ""
			y = nest ? sprintf(",%d,%d", l, l + 2 * U + 1) : ""
			row("assoc", sprintf("(%d,%d,0,\"\",\"bencha%05d\",\"root\"%s,10%s)", now, now, a, y, x))
			for (u = 1; u <= U; u++) {
				x = lin ? sprintf(",0,\"/bencha%05d/0-benchu%05d/\"", a, u) : ""
				y = nest ? sprintf(",%d,%d", l + 2 * u - 1, l + 2 * u) : ""
				row("assoc", sprintf("(%d,%d,%d,\"benchu%05d\",\"bencha%05d\",\"\"%s,1%s)", now, now, a == 1, u, a, y, x))
			}
		}
		flush()
		# a user association'"'"'s parent is its account'"'"'s
		if (lin)
			printf "UPDATE `%s_assoc_table` u JOIN `%s_assoc_table` p ON p.acct = u.acct AND p.`user` = \"\" SET u.id_parent = p.id_assoc WHERE u.`user` LIKE \"benchu%%\";\n", c, c
		print "COMMIT;"
	}' | mariadb --socket="$SB_MYSQL_SOCK" slurm_acct_db ||
		{ echo "not ok - loading the tree into slurm_acct_db"; exit 1; }
	# slurmctld reads the associations when it connects to slurmdbd
	sb_ctld_stop
	sb_ctld_start 600 || { echo "not ok - slurmctld after loading the tree"; exit 1; }
}

_load_sacctmgr() {
	local accts users a batch
	accts=$(seq -f 'bencha%05g' 1 "$NACCT" | paste -sd,)
	users=$(seq -f 'benchu%05g' 1 "$NUSER" | paste -sd,)
	sacctmgr -i add account "$accts" Fairshare=10 >/dev/null
	for ((a = 1; a <= NACCT; a += 10)); do
		batch=$(seq -f 'bencha%05g' "$a" $((a + 9 < NACCT ? a + 9 : NACCT)) | paste -sd,)
		sacctmgr -i add user "$users" Account="$batch" Fairshare=1 >/dev/null 2>&1 ||
			{ echo "not ok - sacctmgr add user ... Account=$batch"; exit 1; }
	done
}

t0=$SECONDS
case $LOAD in
sql) _load_sql ;;
sacctmgr) _load_sacctmgr ;;
*) echo "not ok - SB_BENCH_LOAD=$LOAD: expected sql or sacctmgr"; exit 1 ;;
esac
sb_say "$LOAD: $NACCT accounts and $total user associations in $((SECONDS - t0)) s"

# SB_BENCH_USAGE=1: slurmctld's assoc_usage state file (what
# load_assoc_usage() reads at start: a 16-bit protocol version, the time,
# then per association its id, usage_raw as text, its TRES usage (none)
# and its group wall time, big-endian) with a usage for every user
# association; slurmctld adds each to the ancestors itself. The version is
# the one the stopped slurmctld just wrote there.
_load_usage() {
	local c=${SB_NAME//[^a-z0-9]/} f=$SB_DIR/state/ctld/assoc_usage
	sb_ctld_stop
	[ -s "$f" ] || { echo "not ok - no $f to take the version from"; exit 1; }
	mariadb --socket="$SB_MYSQL_SOCK" -N slurm_acct_db \
		-e "SELECT id_assoc FROM \`${c}_assoc_table\` WHERE \`user\` LIKE 'benchu%'" |
		perl -e '
			open(my $h, "<", $ARGV[0]) or die; binmode $h;
			read($h, my $ver, 2) == 2 or die; close $h;
			binmode STDOUT;
			print $ver, pack("Q>", time);
			while (my $id = <STDIN>) {
				chomp $id;
				my $u = sprintf("%.6f", 1000 * (1 + ($id * 37) % 97));
				print pack("N", $id), pack("N", length($u) + 1), $u, "\0",
					pack("N", 0), pack("N", 0);
			}' "$f" >"$f.new" && mv "$f.new" "$f" ||
		{ echo "not ok - writing $f"; exit 1; }
	sb_ctld_start 600 || { echo "not ok - slurmctld with the usage"; exit 1; }
}
if [ "$USAGE" = 1 ]; then
	_load_usage
	sb_say "usage: every user association's set in assoc_usage"
fi

# 100 pending jobs (they begin in two hours) for sprio.
cd "$SB_DIR/jobs" || exit 1
for ((j = 0; j < 100; j++)); do
	sbatch -Q --begin=now+2hours -o /dev/null --wrap true >/dev/null
done

# Thread TID of slurmctld's thread named $1.
_tid() {
	local t
	for t in "/proc/$SB_CTLD_PID/task/"*; do
		[ "$(cat "$t/comm" 2>/dev/null)" = "$1" ] && { basename "$t"; return; }
	done
}
_cpu_ns() { awk '{ print $1 }' "/proc/$SB_CTLD_PID/task/$1/schedstat"; }
SSHARE_RUNS=${SB_BENCH_SSHARE:-5}
_lat_n() {	# N command...: median wall ms of N runs
	local n=$1 i t
	shift
	for ((i = 0; i < n; i++)); do
		t=$(_ms)
		"$@" >/dev/null 2>&1
		echo $(($(_ms) - t))
	done | _median
}
_lat() { _lat_n 5 "$@"; }
_sshare_lat() { if [ "$SSHARE_RUNS" -gt 0 ]; then _lat_n "$SSHARE_RUNS" sshare -a; else echo -; fi; }
PASS_RE="fair-share pass over $((total + NACCT + 2)) associations"
_passes() { grep -c "$PASS_RE" "$LOG"; }
_at_least() { [ "$(_passes)" -ge "$1" ]; }

# Calls of FUNC... in SO timed by perf uprobes on their entry and return
# (the probes are the machine's, not the process': removed again at once).
PROBE_DATA=
# uprobes live in tracefs. The chroot of a series (build-aux/sb-chroot)
# has /sys but not the tracefs mounted on the host's /sys/kernel/tracing:
# mount it there, in the chroot's own mount namespace.
_probe_ready() {
	if ! command -v perf >/dev/null; then
		sb_say "no perf here: the fs pass is not timed (apt-get install linux-perf${SB_IN_CHROOT:+, in the chroot})"
		return 1
	fi
	[ -e /sys/kernel/tracing/uprobe_events ] ||
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
	[ -e /sys/kernel/tracing/uprobe_events ] && return 0
	sb_say "no tracefs at /sys/kernel/tracing: the fs pass is not timed"
	return 1
}
_probe_start() {	# SO FUNC...
	local so=$1 f
	shift
	PROBE_GRP=probe_$(basename "$so" .so | tr -c 'a-zA-Z0-9_\n' _)
	PROBE_DATA=$SB_DIR/probe-$1.data
	probe_pid=
	_probe_ready || return 0
	perf probe -q -d "$PROBE_GRP:*" >/dev/null 2>&1
	for f in "$@"; do
		perf probe -q -x "$so" --add "$f" 2>/dev/null &&
			perf probe -q -x "$so" --add "$f%return" 2>/dev/null ||
			return 0
	done
	perf record -q -e "$PROBE_GRP:*" -p "$SB_CTLD_PID" \
		-o "$PROBE_DATA" >/dev/null 2>&1 &
	probe_pid=$!
	sleep 1
}
_probe_stop() {
	if [ -n "$probe_pid" ]; then
		kill -INT "$probe_pid" 2>/dev/null
		wait "$probe_pid" 2>/dev/null
	fi
	perf probe -q -d "$PROBE_GRP:*" >/dev/null 2>&1
}
# FUNC's calls, ms each: per thread, the first entry to the matching
# return (the PLT stub and the function both fire for an exported one)
_probe_times() {
	[ -n "$probe_pid" ] || return 0
	perf script -i "$PROBE_DATA" -F tid,time,event 2>/dev/null |
		awk -v f="$1" '{ t = $2; sub(/:$/, "", t); e = $3; sub(/:$/, "", e); sub(/^[^:]*:/, "", e) }
		     e == f "__return" { if ($1 in s) { print (t - s[$1]) * 1000; delete s[$1] } next }
		     e == f && !($1 in s) { s[$1] = t }'
}
_probe_count() { _probe_times "$1" | wc -l; }
_probe_median() {
	[ -n "$probe_pid" ] || { echo "?"; return; }
	_probe_times "$1" | _median | awk '{ printf "%.2f", $1 }'
}
_probe_max() {
	[ -n "$probe_pid" ] || { echo "?"; return; }
	_probe_times "$1" | sort -n | tail -1 | awk '{ printf "%.2f", $1 }'
}

# ---- the plugins, round after round ---------------------------------------
# slurmctld with priority/bucket and algorithm $1, or with
# priority/multifactor ($1 = mf); restarted only when that changes.
# Without DebugFlags=Priority for multifactor: it then logs every
# association on every pass, which would be measured too. priority/bucket
# gets it only to see its first pass in the log, and loses it before it
# is measured.
_switch() {
	local want
	if [ "$1" = mf ]; then
		grep -q '^PriorityType=priority/multifactor' "$SLURM_CONF" && return 0
		sb_ctld_stop
		sed -i 's|^PriorityType=.*|PriorityType=priority/multifactor|; /^DebugFlags=/d' "$SLURM_CONF"
		want="priority/multifactor"
	else
		grep -q '^PriorityType=priority/bucket' "$SLURM_CONF" &&
			grep -q "^PriorityParameters=algorithm=$1," "$SLURM_CONF" &&
			grep -q '^DebugFlags=Priority' "$SLURM_CONF" && return 0
		sb_ctld_stop
		sed -i "s|^PriorityType=.*|PriorityType=priority/bucket|; s|^PriorityParameters=.*|PriorityParameters=algorithm=$1,calc_period=1|; /^DebugFlags=/d" "$SLURM_CONF"
		echo "DebugFlags=Priority" >>"$SLURM_CONF"
		want="priority/bucket $1"
	fi
	sb_ctld_start 600 || { echo "not ok - slurmctld with $want"; exit 1; }
}

_bench_bucket() {	# ALG ROUND
	local alg=$1 round=$2 n0 tid c0 c1 n thread pass pmax walk sprio_ms sshare_ms
	_switch "$alg"
	n0=$(_passes)
	sb_check "priority/bucket $alg round $round: a pass over every association" sb_wait_for 600 _at_least $((n0 + 1))
	tid=$(_tid bucket_decay)
	# measured as multifactor is, without debug logging: DebugFlags=
	# Priority formats a line per job and pass, which multifactor's
	# figures do not pay for
	scontrol setdebugflags -Priority
	sleep 2
	_probe_start "$BUCKET_SO" bucket_assoc_compute bucket_assoc_pass_begin
	c0=$(_cpu_ns "$tid")
	sleep "$PASSES"
	c1=$(_cpu_ns "$tid")
	_probe_stop
	n=$(_probe_count bucket_assoc_compute)
	thread=$(awk -v c="$((c1 - c0))" -v n="$n" 'BEGIN { printf "%.2f", n ? c / n / 1e6 : 0 }')
	pass=$(_probe_median bucket_assoc_compute)
	pmax=$(_probe_max bucket_assoc_compute)
	walk=$(_probe_median bucket_assoc_pass_begin)
	if [ "$round" = 1 ] && [ -n "${SB_BENCH_PERF:-}" ] && command -v perf >/dev/null; then
		mkdir -p "$SB_BENCH_PERF"
		perf record -q -F 999 -g -t "$tid" -o "$SB_DIR/perf-$alg.data" \
			-- sleep 20 >/dev/null 2>&1
		perf report -i "$SB_DIR/perf-$alg.data" --no-children \
			--percent-limit 0.5 --stdio -g none 2>/dev/null \
			>"$SB_BENCH_PERF/perf-bucket-$alg.txt"
	fi
	sprio_ms=$(_lat sprio)
	sshare_ms=$(_sshare_lat)
	results+=("RESULT priority/bucket $alg $total $pass $thread $sprio_ms $sshare_ms $walk $round")
	sb_say "round $round: priority/bucket $alg: fair-share pass $pass ms (max $pmax of $n passes; + list check $walk ms), decay thread $thread ms CPU per pass"
}

# A pass every PriorityCalcPeriod (1 minute at least): a burst of CPU time
# of the decay thread, seen by polling its schedstat. The first burst (at
# start) is skipped; the next two are measured.
_mf_started() { [ -n "$(_tid decay)" ]; }
_bench_mf() {	# ROUND
	local round=$1 tid bursts prev cur acc seen s0 mf_thread mf_pass sprio_ms sshare_ms
	_switch mf
	sb_wait_for 30 _mf_started
	tid=$(_tid decay)
	_probe_start "$MF_SO" fair_tree_decay
	bursts=()
	prev=$(_cpu_ns "$tid"); acc=0; seen=0; s0=$SECONDS
	while [ ${#bursts[@]} -lt 2 ] && [ $((SECONDS - s0)) -lt 400 ]; do
		sleep 0.2
		cur=$(_cpu_ns "$tid") || break
		if [ "$cur" -gt "$prev" ]; then
			acc=$((acc + cur - prev))
		elif [ "$acc" -gt 0 ]; then
			[ "$seen" -gt 0 ] && bursts+=("$acc")
			seen=$((seen + 1)); acc=0
		fi
		prev=$cur
	done
	mf_thread=$(printf '%s\n' "${bursts[@]}" | awk '{ s += $1; n++ } END { if (n) printf "%.2f", s / n / 1e6; else print "?" }')
	_probe_stop
	mf_pass=$(_probe_median fair_tree_decay)
	sprio_ms=$(_lat sprio)
	sshare_ms=$(_sshare_lat)
	results+=("RESULT priority/multifactor fair_tree $total $mf_pass $mf_thread $sprio_ms $sshare_ms - $round")
	sb_say "round $round: priority/multifactor fair_tree: fair-share pass $mf_pass ms, decay thread $mf_thread ms CPU per pass"
}

results=()
for ((round = 1; round <= ROUNDS; round++)); do
	for alg in $ALGS; do
		_bench_bucket "$alg" "$round"
	done
	[ "${SB_BENCH_MF:-1}" = 0 ] || _bench_mf "$round"
done

echo "# $total user associations ($NACCT accounts x $NUSER users), loaded by $LOAD"
echo "# usage: $([ "$USAGE" = 1 ] && echo "every user association's set (SB_BENCH_USAGE=1)" || echo 0); $ROUNDS round(s)"
echo "# RESULT plugin algorithm associations fs_pass_ms decay_thread_ms_per_pass sprio_ms sshare_a_ms list_check_ms round"
printf '%s\n' "${results[@]}"
sb_cluster_stop
