#!/usr/bin/env python3
# main-last.py - where the live cluster's background thread runs its
# periodic main-scheduler pass (every sched_interval), read off its log,
# for 'sbucket replay --main-last' (issue #48, item 2).
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: main-last.py SLURMCTLD.LOG T0
#   SLURMCTLD.LOG  the stack's slurmctld log (its times are this
#                  machine's local time, as slurmctld writes them)
#   T0             the window's time 0, seconds since the epoch
# Prints one whole number, seconds from T0 (negative: before it): the
# second of the last full-queue pass before T0 when the log has them
# ("Running job scheduler for full queue", SlurmctldDebug=debug and up),
# else the second the controller started ("Running as primary
# controller"), where slurmctld's background thread starts counting
# sched_interval (controller.c: last_full_sched_time is its start, and a
# pass comes at the first of its one-second looks that is sched_interval
# or more after the last). Nothing when the log has neither.
import re
import sys
import time


def die(msg):
    print("main-last.py: error: " + msg, file=sys.stderr)
    sys.exit(1)


def seconds(stamp):
    """A log stamp (2026-11-29T10:20:48.177) as whole epoch seconds."""
    return int(time.mktime(time.strptime(stamp.split(".")[0],
                                         "%Y-%m-%dT%H:%M:%S")))


def main(argv):
    if len(argv) != 3:
        die("usage: main-last.py SLURMCTLD.LOG T0")
    log, t0 = argv[1:]
    try:
        t0 = int(t0)
    except ValueError:
        die("T0 '%s' is not a whole number" % t0)
    stamp = re.compile(r"^\[(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?)\]")
    start = full = None
    with open(log, errors="replace") as f:
        for line in f:
            m = stamp.match(line)
            if not m:
                continue
            if start is None and "Running as primary controller" in line:
                start = seconds(m.group(1))
            elif "Running job scheduler for full queue" in line:
                t = seconds(m.group(1))
                if t <= t0:
                    full = t
    last = full if full is not None else start
    if last is not None:
        print(last - t0)


if __name__ == "__main__":
    main(sys.argv)
