#!/bin/bash
# t24-select-conf-robust - a bucket.conf that is not a file, or is huge,
# or names millions of nodes, costs one error line at 'scontrol
# reconfigure' and at sbatch, never a hang or gigabytes (issue 16, items
# 1 and 2): slurmctld keeps answering, keeps its previous settings and
# stays small; each read of the file logs one line; sbatch
# --bucket-policy returns at once. An option value
# with control bytes is echoed printable (item 8).
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Four nodes; bucket.conf makes r3 the fastest and the policy FASTEST,
# so a one-node job lands on r3 as long as those settings hold.
#
# From Slurm 23.11 on (24.11 here) 'scontrol reconfigure' starts
# slurmctld afresh, and the new one reads bucket.conf as at start: a bad
# file is refused with the same one line, and a slurmctld in the
# foreground (-D, as the harness runs it) exits, where a daemonized one
# would go on with its old configuration (its parent resumes, as after a
# bad slurm.conf). There the checks are: one error line, slurmctld gone
# at once (no hang, no gigabytes read), sbatch --bucket-policy returns,
# and a restart with the good file gives the settings back.
. "$(dirname "$0")/../cluster/harness.sh"

SB_CTLD_DEBUG=${SB_CTLD_DEBUG:-verbose}
sb_cluster_init t24
sb_nodes "r[1-4]" "CPUs=2 RealMemory=2000 Weight=1"
sb_select bucket
. "$(dirname "$0")/place.inc"
GOOD='NodeAllocationPolicy=FASTEST
AllowJobPolicies=FIRSTAVAILABLE
NodeName=r3 Speed=3'
printf '%s\n' "$GOOD" >"$BCONF"
_spank_on
sb_cluster_start
LOG=$SB_DIR/log/slurmctld.log
cd "$SB_DIR/jobs"

_count() { grep -cF -- "$1" "$LOG"; }
_more() { [ "$(_count "$1")" -gt "$2" ]; }
_rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$SB_CTLD_PID/status"; }
# Replace bucket.conf (by a command), reconfigure, and check what
# slurmctld logged and still does.
_bad_conf() {
	local what=$1 msg=$2 n keep
	shift 2
	rm -f "$BCONF"
	"$@"
	n=$(_count "$msg")
	if [ "${SB_SERIES:-22.05}" != 22.05 ]; then
		_bad_conf_restart "$what" "$msg" "$n"
		return
	fi
	keep=$(_count "keeping the previous settings")
	sb_check "$what: scontrol reconfigure returns" \
		timeout 60 scontrol reconfigure
	sb_check "... an error line names the file and what is wrong" \
		sb_wait_for 30 _more "$msg" "$n"
	sb_check "... the previous settings are kept" \
		sb_wait_for 10 _more "keeping the previous settings" "$keep"
	# select/bucket reads the file at each rebuild of its state (twice
	# in a reconfigure): each read logs its one line, nothing more.
	sb_check_eq "... one error line per read of the file" \
		$(($(_count "keeping the previous settings") - keep)) \
		echo $(($(_count "$msg") - n))
	sb_check "... slurmctld answers" timeout 10 scontrol ping
	sb_check "... and stays small (RSS $(_rss_kb) kB < 500 MB)" \
		test "$(_rss_kb)" -lt 512000
	sb_check "... sbatch --bucket-policy returns (the submit host cannot use the file)" \
		sh -c "timeout 30 sbatch --bucket-policy=FIRSTAVAILABLE -o /dev/null --wrap true >/dev/null"
	sb_check_eq "... FASTEST and r3's speed still hold: one node -> r3" r3 _place -N1
}

# 24.11: the reconfigured slurmctld refuses the file as at start.
_bad_conf_restart() {
	local what=$1 msg=$2 n=$3
	sb_check "$what: scontrol reconfigure returns" \
		sh -c 'timeout 60 scontrol reconfigure; [ $? != 124 ]'
	sb_check "... an error line names the file and what is wrong" \
		sb_wait_for 30 _more "$msg" "$n"
	sb_check "... slurmctld refuses it as at start (in the foreground: exits)" \
		sb_wait_for 30 sb_ended "$SB_CTLD_PID"
	sb_check_eq "... one error line for its one read of the file" 1 \
		echo $(($(_count "$msg") - n))
	sb_check "... sbatch --bucket-policy returns (the submit host cannot use the file)" \
		sh -c "timeout 30 sbatch --bucket-policy=FIRSTAVAILABLE -o /dev/null --wrap true >/dev/null 2>&1; [ \$? != 124 ]"
	rm -f "$BCONF"
	printf '%s\n' "$GOOD" >"$BCONF"
	sb_ctld_stop
	sb_check "... slurmctld starts again with the good file; every node answers" \
		_start_nodes_back
	sb_check "... and stays small (RSS $(_rss_kb) kB < 500 MB)" \
		test "$(_rss_kb)" -lt 512000
	sb_check "... and every node is idle again (none still completing a job of before)" \
		sb_nodes_idle 30
	sb_check_eq "... FASTEST and r3's speed hold again: one node -> r3" r3 \
		_place_fastest
}

# (Every node idle first: a job cancelled just before the restart may
# still be completing in the state slurmctld saved; on CI, 2 cores under
# load, its node would come back COMPLETING, and FASTEST rightly take
# another one.)
# _place -N1, and what each node's state was when it is not r3
_place_fastest() {
	local n
	n=$(_place -N1)
	[ "$n" = r3 ] || n="$n (nodes: $(sinfo -h -N -o '%N=%t' | tr '\n' ' '))"
	echo "$n"
}

sb_check_eq "FASTEST from bucket.conf: one node -> r3" r3 _place -N1

_bad_conf "bucket.conf a link to /dev/zero" \
	"error: select/bucket: $BCONF: not a regular file (a character device)" \
	ln -s /dev/zero "$BCONF"
_bad_conf "bucket.conf a FIFO" \
	"error: select/bucket: $BCONF: not a regular file (a FIFO)" \
	mkfifo "$BCONF"
_bad_conf "bucket.conf of 1 GB (sparse)" \
	"error: select/bucket: $BCONF: larger than 4194304 bytes" \
	truncate -s 1G "$BCONF"
_bad_conf "a 31-byte bucket.conf naming 10 million nodes" \
	"error: select/bucket: $BCONF:1: NodeName=n[1-10000000]: more than 1048576 node names in the file" \
	sh -c "printf 'NodeName=n[1-10000000] Speed=2\n' >'$BCONF'"
_bad_conf "a syntax error after a range of 10 million" \
	"error: select/bucket: $BCONF:1: NodeName=n[1-9999999],m[: column 15: unbalanced '['" \
	sh -c "printf 'NodeName=n[1-9999999],m[ Speed=2\n' >'$BCONF'"

# Item 8: the SPANK option's value is echoed printable, on one line.
printf '%s\n' "$GOOD" >"$BCONF"
out=$(timeout 30 sbatch -N1 --bucket-policy=$'FAST\e[2J\nEST' -o /dev/null --wrap true 2>&1)
sb_check "--bucket-policy with an escape and a newline: refused on one printable line" \
	grep -q -- "--bucket-policy=FAST?\[2J?EST: unknown policy" <<<"$out"
sb_check "... with no control byte in it" \
	sh -c "! printf '%s' \"\$1\" | grep -q \$'[\\x01-\\x09\\x0b-\\x1f]'" sh "$out"

n=$(_count "NodeAllocationPolicy=FIRSTAVAILABLE from $BCONF")
printf 'NodeAllocationPolicy=FIRSTAVAILABLE\n' >"$BCONF"
scontrol reconfigure >/dev/null 2>&1
sb_check "a good bucket.conf again: taken at reconfigure" \
	sb_wait_for 30 _more "NodeAllocationPolicy=FIRSTAVAILABLE from $BCONF" "$n"
sb_check_eq "FIRSTAVAILABLE: one node -> r1" r1 _place -N1

sb_cluster_stop
sb_check "every daemon the harness started is gone ($(sb_pids))" sb_all_gone
