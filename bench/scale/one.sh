# one.sh - one run of bench/scale/run: a fresh cluster (a front end on
# 22.05 and 24.11, a slurmd per node from 25.05 on: see run's header),
# one select plugin, one burst; appends a line to $OUT/results.tsv.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Sourced by bench/scale/run with SEL BURST NODES JOBS RUNNING BIG SEED
# PERF OUT set (see run's header for what the bursts are).

. "$here/../../testsuite/cluster/harness.sh"

case $SEL in
bucket+*) SB_BASE=${SEL#bucket+} ;;
*) SB_BASE=linear ;;
esac
SB_SLURMD_DEBUG=error
SB_SCRATCH=${SB_SCRATCH:-/var/tmp}
sb_cluster_init "scale-${SEL//+/-}-$BURST-$NODES"

# Shapes: 40% a, 30% b, 20% c, the rest g (names a00001, ...).
na=$((NODES * 4 / 10)) nb=$((NODES * 3 / 10)) nc=$((NODES * 2 / 10))
ng=$((NODES - na - nb - nc))
_range() { printf '%s[%05d-%05d]' "$1" 1 "$2"; }
sb_nodes "$(_range a $na)" "CPUs=2 RealMemory=4000 Features=a,ib Weight=1"
sb_nodes "$(_range b $nb)" "CPUs=4 RealMemory=8000 Features=b,ib Weight=2"
sb_nodes "$(_range c $nc)" "CPUs=8 RealMemory=16000 Features=c Weight=3"
sb_nodes "$(_range g $ng)" "CPUs=8 RealMemory=32000 Features=g,bigmem Weight=4"
sb_select "${SEL%%+*}"
sb_partition scale "Nodes=ALL Default=YES MaxTime=INFINITE State=UP"
sb_conf "MaxJobCount=100000"
# Backfill as the harness runs it (every second), but without its default
# time limit (bf_max_time = bf_interval): a cycle plans up to
# bf_max_job_test (500) jobs whatever that takes, so its length is the
# plugin's cost, not the limit.
sb_conf "SchedulerParameters=bf_interval=1,bf_max_time=600"
sb_cluster_start
cd "$SB_DIR/jobs" || exit 1
CTLD=$SB_CTLD_PID
cons=0
case $SEL in *cons_tres) cons=1 ;; esac

# Largest node count for bursts a and b: 640 at 10,000 nodes.
MAXN=$((640 * NODES / 10000))
[ "$MAXN" -ge 8 ] || MAXN=8

# ---- measurements ----------------------------------------------------------
_ms() { date +%s%3N; }
_cpu_ticks() {	# utime + stime of slurmctld (all threads, live and gone)
	awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$CTLD/stat"
}
_thread_ns() {	# comm: CPU time (ns) of slurmctld's threads so named
	local t s=0 v
	for t in "/proc/$CTLD/task/"*; do
		[ "$(cat "$t/comm" 2>/dev/null)" = "$1" ] || continue
		v=$(cut -d' ' -f1 "$t/schedstat" 2>/dev/null)
		s=$((s + ${v:-0}))
	done
	echo "$s"
}
HZ=$(getconf CLK_TCK)
_secs() { awk -v t="$1" -v hz="$HZ" 'BEGIN { printf "%.1f", t / hz }'; }
_ns() { awk -v t="$1" 'BEGIN { printf "%.3f", t / 1e9 }'; }
_stat() {	# sdiag section, field
	awk -v sec="$1" -v f="$2" '
		index($0, sec) { in_sec = 1; next }
		in_sec && /^[A-Z]/ && !index($0, ":") { in_sec = 0 }
		in_sec && index($0, f ":") { sub(/.*: */, ""); print; exit }' <<<"$SD"
}
_rpc() {	# sdiag's server-side mean time of an RPC type (us), - if none
	awk -v t="$1" '$1 == t { sub(/.*ave_time:/, ""); print $1; f = 1; exit }
		END { if (!f) print "-" }' <<<"$SD"
}
_median() { sort -n | awk '{ v[NR] = $1 } END { print (NR ? v[int((NR + 1) / 2)] : "-") }'; }

# What else is running: other benchmarks and the load, for the record.
_others() {	# (processes of our own process group are ours)
	local mine q
	mine=$(ps -o pgid= -p $$ | tr -d ' ')
	for q in $(pgrep -f 'bench/live_|bench/scale/run|fuzz_|cc1|run-tests' 2>/dev/null); do
		[ "$(ps -o pgid= -p "$q" 2>/dev/null | tr -d ' ')" = "$mine" ] && continue
		{ tr '\0' ' ' <"/proc/$q/cmdline"; } 2>/dev/null |
			grep -oE 'bench/[a-z_/]+(\.sh)?|fuzz_[a-z_]+|cc1|run-tests' | head -n 1
	done | sort | uniq -c | awk '{ printf "%s%s*%s", s, $2, $1; s = "," }'
}
OTHERS=$(_others)
LOAD=$(cut -d' ' -f1 /proc/loadavg)

# ---- perf ------------------------------------------------------------------
PERF_PID=
PERF_DATA=$OUT/perf-${SEL//+/-}-$BURST-$NODES.data
_perf_start() {
	[ "$PERF" = 1 ] || return 0
	perf record -q -e cpu-clock -F "${SB_PERF_FREQ:-199}" \
		--call-graph dwarf,16384 -p "$CTLD" -o "$PERF_DATA" \
		>"$SB_DIR/log/perf.out" 2>&1 &
	PERF_PID=$!
	sleep 1
}
_perf_stop() {
	[ -n "$PERF_PID" ] || return 0
	kill -INT "$PERF_PID" 2>/dev/null
	wait "$PERF_PID" 2>/dev/null
	PERF_PID=
	perf script -i "$PERF_DATA" -F comm,tid,ip,sym,dso 2>/dev/null |
		awk -f "$here/perf-share.awk" \
		>"$OUT/perf-${SEL//+/-}-$BURST-$NODES.txt"
	[ -n "${SB_PERF_KEEP:-}" ] || rm -f "$PERF_DATA"
}

# ---- bursts ----------------------------------------------------------------
# Largest job per feature: a and bigmem jobs fit beside burst (b)'s
# reservations on half of those nodes (the same jobs in every burst).
FEATS=(ib a c bigmem)
FEAT_NODES=($((na + nb)) $((na / 2)) "$nc" $((ng / 2)))

# One exclusive job of (a): -N n, maybe a feature. Reads RANDOM.
_excl_job() {	# max time limit
	local n=$((RANDOM % MAXN + 1)) f=$((RANDOM % 4)) c=""
	if [ $((RANDOM % 4)) != 0 ]; then
		c="-C ${FEATS[$f]}"
		[ "$n" -gt "${FEAT_NODES[$f]}" ] && n=${FEAT_NODES[$f]}
	fi
	JOB="-N $n --exclusive $c -t $((RANDOM % $1 + 1))"
}

_submit() {	# sbatch arguments; sleep 2-9 s
	# shellcheck disable=SC2086
	sbatch -Q $1 -o /dev/null --wrap "sleep $((RANDOM % 8 + 2))" \
		>/dev/null || echo "# submit failed: $1" >&2
}

_burst_ab() {
	local i r lo
	# Half of the a nodes from +1 minute, half of the g (bigmem) nodes
	# from +3, five minutes each: jobs that would end after those
	# starts go elsewhere, or wait.
	if [ "$BURST" = b ]; then
		scontrol create reservation reservationname=soon users=root \
			starttime=now+1minutes duration=5 flags=ignore_jobs \
			nodes="$(_range a $((na / 2)))" >/dev/null ||
			echo "not ok - reservation soon"
		scontrol create reservation reservationname=later users=root \
			starttime=now+3minutes duration=5 flags=ignore_jobs \
			nodes="$(_range g $((ng / 2)))" >/dev/null ||
			echo "not ok - reservation later"
	fi
	RANDOM=$SEED
	for ((i = 0; i < JOBS; i++)); do
		if [ "$BURST" = a ]; then
			_excl_job 10
			_submit "$JOB"
			continue
		fi
		r=$((RANDOM % 4))
		case $r in
		0|1) _excl_job 20 ;;
		2)	JOB="-n $((RANDOM % 16 + 1)) -t $((RANDOM % 20 + 1))"
			[ "$cons" = 1 ] && JOB+=" --mem-per-cpu=100" ;;
		3)	lo=$((RANDOM % (MAXN / 2) + 1))
			JOB="-N $lo-$((2 * lo)) --exclusive -t $((RANDOM % 20 + 1))" ;;
		esac
		_submit "$JOB"
	done
}

# (c): fill the cluster with allocations that run no process, 1 or 3
# nodes each (RUNNING jobs cover 2 x RUNNING nodes), then time WILL_RUN.
_burst_c() {
	local i t0 id start
	RANDOM=$SEED
	for ((i = 0; i < RUNNING; i++)); do
		salloc -Q --no-shell --exclusive -N $((i % 2 ? 3 : 1)) \
			-t $((RANDOM % 291 + 10)) >/dev/null 2>&1 ||
			echo "# salloc failed ($i)" >&2
	done
	T_FILL=$(($(_ms) - T0))
	RUNNING_NOW=$(squeue -h -t R -o %i | wc -l)
	# The right answer: the first end time at which B nodes are free
	# (no job of the fill asks for a feature).
	ORACLE=$(squeue -h -t R -o '%e %D' | sort | awk -v n="$NODES" -v b="$BIG" '
		{ e[NR] = $1; d[NR] = $2; busy += $2 }
		END { free = n - busy; if (free >= b) { print "now"; exit }
		      for (i = 1; i <= NR; i++) { free += d[i]; if (free >= b) { print e[i]; exit } }
		      print "never" }')
	sdiag -r >/dev/null
	# --perf: only the WILL_RUN RPCs (20 of them, for enough samples) and
	# the backfill cycle that plans the job are recorded (the fill is
	# thousands of other RPCs on the same threads)
	local tests=5
	[ "$PERF" = 1 ] && tests=20
	_perf_start
	TEST_MS=$(for ((i = 0; i < tests; i++)); do
		t0=$(_ms)
		sbatch --test-only -N "$BIG" --exclusive -t 60 --wrap true \
			>"$SB_DIR/testonly.out" 2>&1
		echo $(($(_ms) - t0))
	done | _median)
	TEST_START=$(sed -n 's/.* to start at \([^ ]*\) .*/\1/p' "$SB_DIR/testonly.out" | head -n 1)
	t0=$(_ms)
	id=$(sbatch --parsable -N "$BIG" --exclusive -t 60 -o /dev/null --wrap true)
	_started() {
		start=$(squeue -h -j "$id" --start -o %S 2>/dev/null)
		[ -n "$start" ] && [ "$start" != N/A ]
	}
	sb_wait_for 600 _started
	BF_TO_START=$(($(_ms) - t0))
	_perf_stop
	SQ_START=$(squeue -h -j "$id" --start -o %S 2>/dev/null)
	SQUEUE_MS=$(for i in 1 2 3 4 5; do
		t0=$(_ms)
		squeue -h -j "$id" --start >/dev/null
		echo $(($(_ms) - t0))
	done | _median)
	# (backfill runs again only when something changes: its cycles
	# since 'sdiag -r' are those that planned the big job)
}

sdiag -r >/dev/null
cpu0=$(_cpu_ticks) bf0=$(_thread_ns bckfl) sa0=$(_thread_ns sched_agent)
[ "$BURST" = c ] || _perf_start
T0=$(_ms)
T_SUB=- T_START=- T_DRAIN=- JPS=- T_FILL=- RUNNING_NOW=- TEST_MS=- TEST_START=-
BF_TO_START=- SQ_START=- SQUEUE_MS=- ORACLE=-
case $BURST in
a|b)
	_burst_ab
	T_SUB=$(($(_ms) - T0))
	sb_wait_for 3600 sb_queue_empty -t PENDING
	T_START=$(($(_ms) - T0))
	sb_wait_for 900 sb_queue_empty
	T_DRAIN=$(($(_ms) - T0))
	JPS=$(awk -v j="$JOBS" -v s="$T_START" 'BEGIN { printf "%.1f", s ? j * 1000 / s : 0 }')
	;;
c)	_burst_c ;;
esac
SD=$(sdiag)
cpu1=$(_cpu_ticks) bf1=$(_thread_ns bckfl) sa1=$(_thread_ns sched_agent)
RSS=$(awk '/^VmHWM:/ { printf "%d", $2 / 1024 }' "/proc/$CTLD/status")
_perf_stop
# The slurmds' memory at the end of the burst, mean per slurmd in MB:
# RSS, and private memory (Private_Clean + Private_Dirty of smaps_rollup),
# what one more slurmd costs, since the binary and libraries are shared.
# With a slurmd per node the private size is what bounds the node count.
SD_RSS=- SD_PRIV=-
if [ ${#SB_SLURMD_PID[@]} -gt 0 ]; then
	read -r SD_RSS SD_PRIV < <(for p in "${SB_SLURMD_PID[@]}"; do
		cat "/proc/$p/smaps_rollup" 2>/dev/null && echo END
	done | awk '/^Rss:/ { r += $2 } /^Private_(Clean|Dirty):/ { v += $2 }
		/^END$/ { n++ }
		END { if (n) printf "%.1f %.2f\n", r / n / 1024, v / n / 1024; else print "- -" }')
fi
# batch jobs that ended with status 0 (the others failed or were killed)
OK_JOBS=$(grep -c '_job_complete: JobId=.* WEXITSTATUS 0' "$SB_DIR/log/slurmctld.log")

_s() { awk -v v="$1" 'BEGIN { if (v == "-") print "-"; else printf "%.1f", v / 1000 }'; }
hdr="plugin burst nodes jobs submit_s started_s drained_s jobs_per_s main_mean_us main_max_us main_depth bf_mean_us bf_max_us bf_cycles bf_depth ctld_cpu_s sched_agent_cpu_s bckfl_cpu_s rss_peak_mb ok_jobs running fill_s testonly_ms testonly_start squeue_start_ms to_start_s start oracle_start load others willrun_rpc_us jobinfo_rpc_us main_cycles slurm slurmds slurmd_rss_mb slurmd_private_mb"
[ -s "$OUT/results.tsv" ] || tr ' ' '\t' <<<"$hdr" >"$OUT/results.tsv"
line=(
	"$SEL" "$BURST" "$NODES" "$JOBS"
	"$(_s "$T_SUB")" "$(_s "$T_START")" "$(_s "$T_DRAIN")" "$JPS"
	"$(_stat 'Main schedule statistics' 'Mean cycle')"
	"$(_stat 'Main schedule statistics' 'Max cycle')"
	"$(_stat 'Main schedule statistics' 'Mean depth cycle')"
	"$(_stat 'Backfilling stats' 'Mean cycle')"
	"$(_stat 'Backfilling stats' 'Max cycle')"
	"$(_stat 'Backfilling stats' 'Total cycles')"
	"$(_stat 'Backfilling stats' 'Depth Mean')"
	"$(_secs $((cpu1 - cpu0)))" "$(_ns $((sa1 - sa0)))"
	"$(_ns $((bf1 - bf0)))" "$RSS" "$OK_JOBS"
	"$RUNNING_NOW" "$(_s "$T_FILL")" "$TEST_MS" "${TEST_START:--}"
	"$SQUEUE_MS" "$(_s "$BF_TO_START")" "${SQ_START:--}" "$ORACLE"
	"$LOAD" "${OTHERS:-none}"
	"$(_rpc REQUEST_JOB_WILL_RUN)" "$(_rpc REQUEST_JOB_INFO_SINGLE)"
	"$(_stat 'Main schedule statistics' 'Total cycles')"
	"$SB_SERIES" "${#SB_SLURMD_PID[@]}" "$SD_RSS" "$SD_PRIV"
)
for i in "${!line[@]}"; do
	line[i]=${line[i]//[[:space:]]/_}
	line[i]=${line[i]:--}
done
(IFS=$'\t'; echo "${line[*]}") >>"$OUT/results.tsv"
echo "RESULT ${line[*]}"
sb_cluster_stop
