#!/usr/bin/env python3
# prio-last.py - where the live cluster's priority plugin runs its decay
# pass (every calc_period), read off its log, for 'sbucket replay
# --prio-last' (issue #48, item 2).
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: prio-last.py SLURMCTLD.LOG T0 CALC_PERIOD
#   SLURMCTLD.LOG  the stack's slurmctld log (this machine's local time)
#   T0             the window's time 0, seconds since the epoch
#   CALC_PERIOD    the plugin's calc_period, seconds
# Prints one whole number, seconds from T0 (negative: before it): the
# second of the last decay pass at or before T0. The thread starts with
# the plugin (priority/bucket logs "prio_settings_load",
# priority/multifactor "_read_last_decay_ran" on a fresh state) and runs
# a pass every calc_period from there (measured: priority/bucket's state
# file written at 10:48:47.505 by a thread started at 10:24:47.508), so
# its passes fall on that start's fraction of a second: a pass at x.505
# is in second x, before backfill's pass at x.52 and after an arrival at
# x.01; the replay counts it at x. Nothing when neither line is there.
import re
import sys
import time


def die(msg):
    print("prio-last.py: error: " + msg, file=sys.stderr)
    sys.exit(1)


def main(argv):
    if len(argv) != 4:
        die("usage: prio-last.py SLURMCTLD.LOG T0 CALC_PERIOD")
    log = argv[1]
    try:
        t0, period = int(argv[2]), int(argv[3])
    except ValueError:
        die("T0 and CALC_PERIOD are whole numbers")
    if period < 1:
        die("CALC_PERIOD %d is not positive" % period)
    stamp = re.compile(r"^\[(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?\]")
    start = None
    with open(log, errors="replace") as f:
        for line in f:
            if ("priority/bucket: prio_settings_load" not in line and
                    "priority/multifactor: _read_last_decay_ran" not in line):
                continue
            m = stamp.match(line)
            if m:
                start = time.mktime(time.strptime(m.group(1),
                                                  "%Y-%m-%dT%H:%M:%S"))
                start += float(m.group(2) or 0)
                break
    if start is None:
        return
    # the last pass at or before T0, in whole seconds
    k = int((t0 - start) // period)
    print(int(start + k * period) - t0)


if __name__ == "__main__":
    main(sys.argv)
