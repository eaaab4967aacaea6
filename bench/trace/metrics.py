#!/usr/bin/env python3
# metrics.py - what the users of a log window saw on a live cluster: waits,
# bounded slowdown, utilisation and the users' spread (issue #48, item 4).
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: metrics.py WINDOW.SWF K NAME=REAL.TSV... [--replay NAME=REPLAY.JSON...]
#   WINDOW.SWF  cut.py's window (submit, run, size, user of each job)
#   K           its compression: figures are given back in the log's own
#               time (seconds x K), so that they read as the log's
#   REAL.TSV    trace.inc's tr_collect of a live run, named NAME
#   REPLAY.JSON 'sbucket replay --json' of the window, named NAME: its
#               own summary (its engine's figures) in the same columns
# Prints a markdown table, a column per run: jobs, mean / median / p90
# wait (minutes), mean bounded slowdown, utilisation, makespan, users,
# the users' mean waits (median and largest, minutes) and Jain's index of
# their mean bounded slowdowns. The definitions are sbucket replay's
# (common/time/replay_metrics.h): wait = start - submit; bounded slowdown
# max(1, (wait + run) / max(10 s, run)) in the log's seconds, run the
# job's run in the window (its sleep) and its end start + run, live and
# replayed alike (a live run cancels the jobs still running once every
# job has started, and slurmd's epilog adds a moment to each); utilisation the nodes' busy seconds over nodes x
# makespan, the makespan from the first submit to the last end; medians
# the mean of the two middle values, p90 the nearest rank; all jobs
# counted (no first 1 % left out: a window starts on an empty machine).
import json
import math
import statistics
import sys


def p90(v):
    v = sorted(v)
    return v[max(0, math.ceil(0.9 * len(v)) - 1)]


def figures(jobs, units, k):
    """jobs: (user, submit, start, end, size) in compressed seconds"""
    w = [(s - sub) * k for _, sub, s, _, _ in jobs]
    b = []
    for _, sub, s, e, _ in jobs:
        run = (e - s) * k
        b.append(max(1.0, ((s - sub) * k + run) / max(10.0, run)))
    first = min(j[1] for j in jobs)
    last = max(j[3] for j in jobs)
    busy = sum((e - s) * n for _, _, s, e, n in jobs)
    users = {}
    for (u, _, _, _, _), wi, bi in zip(jobs, w, b):
        users.setdefault(u, []).append((wi, bi))
    uw = [statistics.mean(x[0] for x in v) for v in users.values()]
    ub = [statistics.mean(x[1] for x in v) for v in users.values()]
    jain = sum(ub) ** 2 / (len(ub) * sum(x * x for x in ub))
    return {
        "jobs": len(jobs),
        "mean_wait": statistics.mean(w) / 60,
        "median_wait": statistics.median(w) / 60,
        "p90_wait": p90(w) / 60,
        "mean_bsld": statistics.mean(b),
        "util": busy / (units * (last - first)) if last > first else 0,
        "makespan": (last - first) * k / 3600,
        "users": len(users),
        "user_wait_median": statistics.median(uw) / 60,
        "user_wait_max": max(uw) / 60,
        "jain": jain,
    }


def main(argv):
    if len(argv) < 3:
        sys.stderr.write("usage: metrics.py WINDOW.SWF K NAME=REAL.TSV... "
                         "[--replay NAME=REPLAY.JSON...]\n")
        sys.exit(2)
    swf, k = argv[0], int(argv[1])
    jobs, units = {}, 0
    for line in open(swf):
        if line.startswith(";"):
            if "MaxNodes:" in line:
                units = int(line.split(":")[1])
            continue
        x = line.split()
        if x:
            jobs[int(x[0])] = (x[11], int(x[1]), int(x[4]), int(x[3]))
    cols = []
    replay = False
    for a in argv[2:]:
        if a == "--replay":
            replay = True
            continue
        name, path = a.split("=", 1)
        rows = []
        if replay:
            for j in json.load(open(path))["jobs"]:
                u, sub, size, run = jobs[int(j["job_id"])]
                st = j["start"] - j["submit"] + sub
                rows.append((u, sub, st, st + run, size))
        else:
            for line in open(path):
                num, _, _, st = line.split()[:4]
                u, sub, size, run = jobs[int(num)]
                if int(st) >= 0:
                    rows.append((u, sub, int(st), int(st) + run, size))
        cols.append((name, figures(rows, units, k)))
    print("| | " + " | ".join(n for n, _ in cols) + " |")
    print("|---|" + "--:|" * len(cols))
    for key, label, fmt in (
            ("jobs", "jobs", "%d"),
            ("mean_wait", "mean wait (min)", "%.1f"),
            ("median_wait", "median wait (min)", "%.1f"),
            ("p90_wait", "p90 wait (min)", "%.1f"),
            ("mean_bsld", "mean bounded slowdown", "%.2f"),
            ("util", "utilisation", "%.3f"),
            ("makespan", "makespan (h)", "%.1f"),
            ("users", "users", "%d"),
            ("user_wait_median", "users' mean wait: median (min)", "%.1f"),
            ("user_wait_max", "users' mean wait: largest (min)", "%.1f"),
            ("jain", "Jain's index of users' mean slowdown", "%.3f")):
        print("| %s | " % label +
              " | ".join(fmt % f[key] for _, f in cols) + " |")


main(sys.argv[1:])
