#!/usr/bin/env python3
# bf-last.py - when the live cluster's backfill thread last ran before the
# window's first job, read off its log, for 'sbucket replay --bf-last'
# (issue #48, item 2).
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: bf-last.py SLURMCTLD.LOG REAL.TSV WINDOW.SWF BF_INTERVAL
#   SLURMCTLD.LOG  the stack's slurmctld log: its "sched/backfill:
#                  _start_job: Started JobId=N" lines name the jobs that
#                  a backfill pass started
#   REAL.TSV       trace.inc's tr_collect (num jobid submit start end
#                  state, seconds from the window's time 0): their starts
#                  as sacct has them, the second each pass began
#   WINDOW.SWF     cut.py's window: its first submit time
# Prints one whole number, the latest second before the first submit
# that falls on the passes' phase (their starts modulo bf_interval, the
# most common value: the thread's passes drift by about a millisecond
# each), or nothing when no job was backfilled (then the replay's
# default holds). Why the phase is read and not computed: slurmctld's
# backfill thread runs from the daemon's start, bf_interval after its
# last pass while something changed, and waits while a job completes;
# nothing in the window tells where its passes fall.
import collections
import re
import sys


def die(msg):
    print("bf-last.py: error: " + msg, file=sys.stderr)
    sys.exit(1)


def main(argv):
    if len(argv) != 5:
        die("usage: bf-last.py SLURMCTLD.LOG REAL.TSV WINDOW.SWF "
            "BF_INTERVAL")
    log, real, swf, interval = argv[1:]
    try:
        interval = int(interval)
    except ValueError:
        die("BF_INTERVAL '%s' is not a whole number" % interval)
    if interval < 1:
        die("BF_INTERVAL %d is not positive" % interval)
    started = set()
    pat = re.compile(r"sched/backfill: _start_job: Started JobId=(\d+)")
    with open(log, errors="replace") as f:
        for line in f:
            m = pat.search(line)
            if m:
                started.add(m.group(1))
    phase = collections.Counter()
    with open(real) as f:
        for n, line in enumerate(f, 1):
            v = line.split()
            if len(v) < 4:
                die("%s:%d: wants num jobid submit start" % (real, n))
            if v[1] in started:
                phase[int(v[3]) % interval] += 1
    first = None
    with open(swf) as f:
        for line in f:
            if line.startswith(";") or not line.strip():
                continue
            t = int(line.split()[1])
            first = t if first is None else min(first, t)
    if first is None:
        die("%s: no job" % swf)
    if not phase:
        return 0
    p = phase.most_common(1)[0][0]
    # the latest s < first with s % interval == p
    s = first - 1 - ((first - 1 - p) % interval)
    print(s)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
