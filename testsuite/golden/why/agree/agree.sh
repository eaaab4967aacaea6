#!/bin/sh
# For every capture of ../README: 'sbucket forecast --json' lists each
# pending job's object (one a line) and 'sbucket why --json ID' prints
# that job's object on its "job" line: the two must be the same bytes.
# The JSON captures are read twice, from squeue's JSON and from
# scontrol's text (a file no-json here makes the stand-in fail --json).
# A case folder given after them (with the case's own views, and
# accounting's stand-in for the likely start) is where both run. Prints
# one line per capture and path; any job whose objects differ is named
# with both objects.
set -u
export TZ=UTC
here=$(pwd)
run() {	# CAPTURE NOW PATH [CASE]
	d=$here/../$1
	cd "${4:-$here}" || exit 1
	if [ "$3" = text ]; then : >no-json; else rm -f no-json; fi
	export SBUCKET_NOW=$2 SBUCKET_SCONTROL=$d/scontrol \
		SBUCKET_SQUEUE=$d/squeue SBUCKET_SPRIO=$d/sprio
	$SBUCKET forecast --json 2>/dev/null |
		sed -n 's/^\({"job_id":"\([^"]*\)".*}\),\{0,1\}$/\2 \1/p' >fc.out
	n=0 bad=0
	while read -r id obj; do
		n=$((n + 1))
		w=$($SBUCKET why --json "$id" 2>/dev/null |
			sed -n 's/^"job":\(.*\),$/\1/p')
		if [ "$w" != "$obj" ]; then
			bad=$((bad + 1))
			echo "$1 ($3): job $id differs"
			echo "  forecast: $obj"
			echo "  why:      $w"
		fi
	done <fc.out
	echo "$1${4:+ in ${4#"$here/"}} ($3): $n pending jobs, $bad differ"
	rm -f fc.out no-json
	cd "$here" || exit 1
}
run data 1795431981 text
run data-24.11 1795721965 text
run data-25.05 1795837930 text
run data-25.11 1795837938 text
run data-26.05 1795733738 text
run data-limits 1795746121 text
run data-limits-24.11 1795747555 text
run data-limits-26.05 1795747556 text
run data-limits-bf 1795746128 text
run data-json 1795913749 json
run data-json 1795913749 text
run data-json-24.11 1795913761 json
run data-json-24.11 1795913761 text
# the likely start, from a history (../../forecast/README)
SBUCKET_SACCT=$here/../data/sacct run data 1795431981 text \
	"$here/../../forecast/likely"
SBUCKET_SACCT=$here/../data/sacct run data 1795431981 text \
	"$here/../../forecast/likely_past_prediction"
SBUCKET_SACCT=$here/../data/sacct run data-limits 1795746121 text \
	"$here/../../forecast/likely_limits"
