# harness/tap.sh - checks that print TAP lines, and bounded waits.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A live test prints one 'ok N - what' or 'not ok N - what' line per
# check; testsuite/run-tests counts them. A failed sb_check_eq says what
# it expected and got on '#   ' lines under it. Tests never sleep for a
# fixed time to pass: they poll with sb_wait_for, which gives up at once
# when a daemon the harness started has died.

SB_NCHECK=0
SB_NFAIL=0

sb_say() { echo "# [$(date +%T)] $*"; }

# A harness step failed: one 'not ok' line, and the test ends (its EXIT
# trap stops the cluster and keeps the daemon logs).
sb_die() {
	echo "not ok $((SB_NCHECK += 1)) - harness: $*"
	SB_NFAIL=$((SB_NFAIL + 1))
	exit 1
}

sb_check() {
	local what=$1
	shift
	if "$@"; then
		echo "ok $((SB_NCHECK += 1)) - $what"
	else
		echo "not ok $((SB_NCHECK += 1)) - $what"
		SB_NFAIL=$((SB_NFAIL + 1))
	fi
}

sb_check_eq() {
	local what=$1 expected=$2 got
	shift 2
	got=$("$@" 2>&1)
	if [ "$got" = "$expected" ]; then
		echo "ok $((SB_NCHECK += 1)) - $what"
	else
		echo "not ok $((SB_NCHECK += 1)) - $what"
		echo "#   expected: $(printf '%q' "$expected")"
		echo "#   got:      $(printf '%q' "$got")"
		SB_NFAIL=$((SB_NFAIL + 1))
	fi
}

# Polls every 0.1 s for the first second (a daemon answering, a node
# registering: most waits end within it), then every 0.5 s. _sb_alive is
# harness/daemons.sh's.
sb_wait_for() {
	local secs=$1 n=0
	shift
	local end=$((SECONDS + secs))
	while [ $SECONDS -lt $end ]; do
		"$@" >/dev/null 2>&1 && return 0
		_sb_alive || { sb_say "a daemon died while waiting for: $*"; return 1; }
		if [ $((n += 1)) -le 10 ]; then sleep 0.1; else sleep 0.5; fi
	done
	return 1
}
