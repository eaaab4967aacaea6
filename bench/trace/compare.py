#!/usr/bin/env python3
# compare.py - the replay's starts against the live cluster's, job by job
# (issue #48, item 2).
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: compare.py WINDOW.SWF REAL.TSV REPLAY.JSON TOLERANCE [--worst N]
#                   [--check SHARE]
#   WINDOW.SWF   cut.py's window (the input both were given)
#   REAL.TSV     trace.inc's tr_collect: num jobid submit start end state,
#                seconds from the window's time 0
#   REPLAY.JSON  'sbucket replay --json' of WINDOW.SWF: its "jobs", each
#                with job_id (the SWF job number), submit and start
#   TOLERANCE    seconds (bf_interval): a start agrees when |replay -
#                real| <= TOLERANCE
# Prints one line "agree A/N (P %) within T s; |replay - real| median M s,
# p90 Q s, max X s; replay - real mean S s; submit lag median L s, max Y s"
# and, with --worst N, the N jobs that differ most. The replay's times
# are brought to the window's time 0 through each job's submit time, so
# a replay that counts from the first submit compares the same. Medians
# are the mean of the two middle values, p90 the nearest rank. With
# --check SHARE the exit status is 1 when fewer than SHARE percent agree.
import json
import math
import statistics
import sys


def die(msg):
    sys.stderr.write("compare.py: error: %s\n" % msg)
    sys.exit(2)


def main(argv):
    worst, check = 0, None
    pos = []
    i = 0
    while i < len(argv):
        if argv[i] in ("--worst", "--check") and i + 1 < len(argv):
            if argv[i] == "--worst":
                worst = int(argv[i + 1])
            else:
                check = float(argv[i + 1])
            i += 2
            continue
        pos.append(argv[i])
        i += 1
    if len(pos) != 4:
        die("usage: compare.py WINDOW.SWF REAL.TSV REPLAY.JSON TOLERANCE "
            "[--worst N] [--check SHARE]")
    swf, real, rep, tol = pos
    tol = float(tol)
    planned = {}
    for line in open(swf):
        if line.startswith(";") or not line.strip():
            continue
        x = line.split()
        planned[int(x[0])] = (int(x[1]), int(x[3]), int(x[4]), int(x[8]))
    live = {}
    for line in open(real):
        num, jid, sub, st, en, state = line.split()[:6]
        live[int(num)] = (int(sub), int(st), int(en), state, jid)
    try:
        jobs = json.load(open(rep))["jobs"]
    except (OSError, ValueError, KeyError) as e:
        die("%s: %s" % (rep, e))
    rows = []
    missing = 0
    for j in jobs:
        num = int(j["job_id"])
        if num not in planned or num not in live or live[num][1] < 0:
            missing += 1
            continue
        sub = planned[num][0]
        start = j["start"] - j["submit"] + sub
        rows.append((num, start, live[num][1], live[num][0] - sub))
    if not rows:
        die("no job is in both the replay and the live run")
    diff = [r[1] - r[2] for r in rows]
    a = sorted(abs(d) for d in diff)
    lag = sorted(r[3] for r in rows)
    n = len(rows)
    agree = sum(1 for d in a if d <= tol)
    p90 = a[max(0, math.ceil(0.9 * n) - 1)]
    print("agree %d/%d (%.1f %%) within %g s; |replay - real| median %g s, "
          "p90 %g s, max %g s; replay - real mean %+.1f s; submit lag "
          "median %g s, max %g s%s" %
          (agree, n, 100.0 * agree / n, tol, statistics.median(a), p90,
           a[-1], statistics.mean(diff), statistics.median(lag), lag[-1],
           "; %d jobs in one only" % missing if missing else ""))
    if worst:
        print("job submit replay real replay-real size limit run")
        for r in sorted(rows, key=lambda r: -abs(r[1] - r[2]))[:worst]:
            p = planned[r[0]]
            print("%d %d %d %d %+d %d %d %d" % (r[0], p[0], r[1], r[2],
                                                r[1] - r[2], p[2], p[3],
                                                p[1]))
    if check is not None and 100.0 * agree / n < check:
        sys.exit(1)


main(sys.argv[1:])
