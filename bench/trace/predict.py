#!/usr/bin/env python3
# predict.py - how good the run times behind 'sbucket forecast's likely
# start were on a log's users, beside the users' own estimates, in
# Tsafrir, Etsion and Feitelson's measure (issue #48, item 3).
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: predict.py WINDOW.SWF REAL.TSV SNAPSHOT.json...
#   the snapshots of 'sbucket forecast --json' (bench/trace/window.sh's
#   snapshots/, named by their second from the window's time 0)
# For every job a snapshot saw with a likely start, at the first snapshot
# that saw it: the prediction is likely_end - likely_start (the run time
# the likely start planned with; likely_basis says from what: the
# user's last runs of similar jobs, of any job, or none: the limit), the
# user's estimate is its time limit,
# and the job's run time is its run in the window (the sleep it was
# given). Accuracy is the mean of min(run, x) / max(run, x) (a run of 0
# counts as 1 s), the symmetric ratio the paper averages: 1 when every
# prediction was right. Prints a markdown table by basis.
import glob
import json
import os
import statistics
import sys


def acc(run, x):
    run, x = max(run, 1), max(x, 1)
    return min(run, x) / max(run, x)


def main(argv):
    if len(argv) < 2:
        sys.stderr.write("usage: predict.py WINDOW.SWF REAL.TSV "
                         "SNAPSHOT.json...\n")
        sys.exit(2)
    swf, real = argv[0], argv[1]
    snaps = argv[2:]
    if len(snaps) == 1 and os.path.isdir(snaps[0]):
        snaps = glob.glob(os.path.join(snaps[0], "*.json"))
    snaps.sort(key=lambda p: int(os.path.basename(p).split(".")[0]))
    job = {}
    for line in open(swf):
        if line.startswith(";") or not line.strip():
            continue
        x = line.split()
        job[int(x[0])] = (int(x[3]), int(x[8]))
    num = {}
    for line in open(real):
        x = line.split()
        num[x[1]] = int(x[0])
    seen = {}
    for p in snaps:
        try:
            js = json.load(open(p))["jobs"]	# schema_version 1
        except (ValueError, KeyError, TypeError):
            continue
        for j in js:
            jid = str(j.get("job_id"))
            if jid in seen or jid not in num:
                continue
            if not j.get("likely_start") or not j.get("likely_end"):
                continue
            t = [int(j[k]) for k in ("likely_start", "likely_end")]
            b = j.get("likely_basis") or "limit"
            b = ("similar jobs" if "similar jobs" in b else
                 "the user's jobs" if "the user's jobs" in b else "limit")
            seen[jid] = (t[1] - t[0], b)
    rows = {}
    for jid, (pred, basis) in seen.items():
        run, limit = job[num[jid]]
        for b in (basis, "all"):
            rows.setdefault(b, []).append((acc(run, pred), acc(run, limit)))
    print("| basis | jobs | accuracy of the prediction | accuracy of the "
          "user's estimate (limit) |")
    print("|---|--:|--:|--:|")
    for b in sorted(rows, key=lambda b: (b == "all", b)):
        r = rows[b]
        print("| %s | %d | %.0f %% | %.0f %% |" %
              (b, len(r), 100 * statistics.mean(x[0] for x in r),
               100 * statistics.mean(x[1] for x in r)))


main(sys.argv[1:])
