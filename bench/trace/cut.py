#!/usr/bin/env python3
# cut.py - a window of an SWF log, compressed, for bench/trace/run and
# testsuite/live/t48-trace-window (issue #48, item 1).
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: cut.py LOG START LENGTH K HISTORY OUTDIR [--max-jobs N] [--shrink D]
#   LOG      an SWF log, .swf or .swf.gz (read, never copied)
#   START    the window's start: seconds after the log's UnixStartTime,
#            or DAY (a decimal number of days) written "dDAY" (d58.5)
#   LENGTH   seconds, or "dDAYS", or "hHOURS"
#   K        the compression: every time divided by K (an integer >= 1)
#   HISTORY  the completed jobs of the HISTORY seconds ("dDAYS") before
#            START are the history (0: none)
#   --max-jobs N  the window's first N jobs only (a short live test)
#   --shrink D    a machine D times smaller and every job's size divided
#            by D, rounded up (a plain cluster of few slurmds for the
#            live test; the log's own machine otherwise)
# Writes into OUTDIR:
#   window.swf   the window's jobs as the cluster runs them, in SWF: field
#                2 the submit time in compressed seconds from the window's
#                start, 3 -1 (the wait is what is measured), 4 the run
#                time, 5 and 8 the node count, 9 the time limit in
#                seconds (whole minutes), 11 1, 12 user, 13 group; the
#                header has MaxNodes and MaxProcs of the machine (after
#                --shrink). This is sbucket replay's input.
#   history.tsv  num user group submit start end limit_min nodes: each
#                completed job of the history of a user of the window (no
#                other user's runs are ever predicted from), times in
#                compressed seconds from the window's start (negative)
#   users.tsv    user group jobs: every (user, group) pair of the window
#   cut.env      MACHINE= JOBS= HISTORY_JOBS= K= and the window, for the
#                shell
# The mapping (the same for the window and the history):
#   submit  floor((submit - START) / K)
#   run     round(run / K), at least 1 s (a replay counts 0 as 1 s), and
#           at most the limit: a job that ran past its requested time is
#           cut at its limit, where Slurm would have killed it (left to
#           slurmctld the kill lands up to 30 s late: its time-limit
#           sweep runs every PERIODIC_TIMEOUT)
#   limit   ceil(requested / K / 60) whole minutes (Slurm keeps minutes),
#           at least 1; a job with none (-1) gets the longest limit of
#           the log
#   nodes   field 8 (requested processors), field 5 where it is -1; the
#           SP2 logs count one processor per node. A job of no size or
#           larger than the machine is left out, as are jobs that never
#           ran (run time -1: cancelled while waiting).
# Queues and partitions are not kept: every job goes to one partition.
import gzip
import math
import os
import sys


def die(msg):
    sys.stderr.write("cut.py: error: %s\n" % msg)
    sys.exit(1)


def secs(v, what):
    try:
        if v[0] == "d":
            return int(round(float(v[1:]) * 86400))
        if v[0] == "h":
            return int(round(float(v[1:]) * 3600))
        return int(v)
    except (ValueError, IndexError):
        die("%s '%s': expected seconds, dDAYS or hHOURS" % (what, v))


def main(argv):
    opts = {"--max-jobs": 0, "--shrink": 1}
    pos = []
    i = 0
    while i < len(argv):
        if argv[i] in opts:
            if i + 1 >= len(argv) or not argv[i + 1].isdigit() or \
               int(argv[i + 1]) < 1:
                die("%s needs a positive number" % argv[i])
            opts[argv[i]] = int(argv[i + 1])
            i += 2
            continue
        pos.append(argv[i])
        i += 1
    if len(pos) != 6:
        die("usage: cut.py LOG START LENGTH K HISTORY OUTDIR "
            "[--max-jobs N] [--shrink D]")
    log, start, length, k, hist, out = pos
    start = secs(start, "START")
    length = secs(length, "LENGTH")
    hist = secs(hist, "HISTORY")
    if not k.isdigit() or int(k) < 1:
        die("K '%s': expected an integer >= 1" % k)
    k = int(k)
    if length < 1:
        die("LENGTH must be at least 1 s")
    shrink = opts["--shrink"]

    opener = gzip.open if log.endswith(".gz") else open
    machine = 0
    unix_start = 0
    jobs = []
    try:
        with opener(log, "rt") as f:
            for n, line in enumerate(f, 1):
                if line.startswith(";"):
                    kv = line[1:].split(":", 1)
                    if len(kv) == 2 and kv[0].strip() == "MaxNodes":
                        machine = int(kv[1].split()[0])
                    if len(kv) == 2 and kv[0].strip() == "UnixStartTime":
                        unix_start = int(kv[1].split()[0])
                    continue
                x = line.split()
                if not x:
                    continue
                if len(x) != 18:
                    die("%s:%d: %d fields, not 18" % (log, n, len(x)))
                try:
                    # (fields 6 and 7 may be decimals: SDSC-SP2's are)
                    jobs.append([int(float(v)) for v in x[:13]])
                except ValueError:
                    die("%s:%d: a field is not a number" % (log, n))
    except OSError as e:
        die("%s: %s" % (log, e.strerror))
    if machine < 1:
        die("%s: no MaxNodes in the header" % log)
    maxlim = max((j[8] for j in jobs), default=60)
    if maxlim < 1:
        maxlim = 60
    mach = -(-machine // shrink)

    def shape(j):
        """(nodes, limit minutes, run) compressed, or None to leave out"""
        size = j[7] if j[7] > 0 else j[4]
        if size < 1 or size > machine or j[3] < 0:
            return None
        size = -(-size // shrink)
        req = j[8] if j[8] > 0 else maxlim
        lim = max(1, math.ceil(req / k / 60))
        run = max(1, int(math.floor(j[3] / k + 0.5)))
        return size, lim, min(run, lim * 60)

    os.makedirs(out, exist_ok=True)
    win = []
    for j in jobs:
        if start <= j[1] < start + length:
            s = shape(j)
            if s:
                win.append((j, s))
    if opts["--max-jobs"]:
        win = win[:opts["--max-jobs"]]
    if not win:
        die("no job of %s was submitted in [%d, %d)" %
            (log, start, start + length))
    users = {}
    with open(os.path.join(out, "window.swf"), "w") as w:
        w.write("; Version: 2.2\n")
        w.write("; Note: a window of %s cut by bench/trace/cut.py: jobs "
                "submitted in [%d, %d) s of the log, times divided by "
                "%d%s\n" % (os.path.basename(log), start, start + length, k,
                            ", sizes by %d" % shrink if shrink > 1 else ""))
        w.write("; UnixStartTime: %d\n" % (unix_start + start))
        w.write("; MaxJobs: %d\n; MaxRecords: %d\n" % (len(win), len(win)))
        w.write("; MaxNodes: %d\n; MaxProcs: %d\n;\n" % (mach, mach))
        for j, (size, lim, run) in win:
            sub = (j[1] - start) // k
            w.write("%d %d -1 %d %d -1 -1 %d %d -1 1 %d %d -1 -1 -1 -1 -1\n"
                    % (j[0], sub, run, size, size, lim * 60, j[11], j[12]))
            users[(j[11], j[12])] = users.get((j[11], j[12]), 0) + 1
    nh = 0
    wusers = set(u for u, _ in users)
    with open(os.path.join(out, "history.tsv"), "w") as h:
        for j in jobs:
            if j[2] < 0 or j[3] < 0:
                continue
            end = j[1] + j[2] + j[3]
            if not (start - hist <= end < start) or hist <= 0:
                continue
            s = shape(j)
            if not s or j[11] not in wusers:
                continue
            size, lim, run = s
            e = (end - start) // k
            h.write("%d %d %d %d %d %d %d %d\n" %
                    (j[0], j[11], j[12], (j[1] - start) // k, e - run, e,
                     lim, size))
            nh += 1
    with open(os.path.join(out, "users.tsv"), "w") as u:
        for (uid, gid), n in sorted(users.items()):
            u.write("%d %d %d\n" % (uid, gid, n))
    last = max(((j[1] - start) // k) for j, _ in win)
    with open(os.path.join(out, "cut.env"), "w") as e:
        e.write("MACHINE=%d\nJOBS=%d\nHISTORY_JOBS=%d\nK=%d\nUSERS=%d\n"
                "WINDOW_START=%d\nWINDOW_LENGTH=%d\nLAST_SUBMIT=%d\n"
                "LOG=%s\n" % (mach, len(win), nh, k, len(users), start,
                              length, last, os.path.basename(log)))


main(sys.argv[1:])
