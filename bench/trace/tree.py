#!/usr/bin/env python3
# tree.py - the association tree bench/trace's cluster has, as an
# 'sbucket fairshare' file for 'sbucket replay --tree' (issue #48,
# item 2).
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: tree.py USERS.TSV > TREE
#   USERS.TSV  cut.py's users.tsv (uid gid jobs): each log user is an
#              association of the account of its first group (trace.inc,
#              tr_users), every share 1, as the cluster was given them
# The tree also holds root's own user association under root, which
# every Slurm cluster has (slurmdbd makes it with the cluster): it is a
# sibling of the accounts, so it counts in how fair share ranks them
# (one more user for Fair Tree's ranks, one more sibling at the top for
# LEVEL_BASED's bits). A replay of an SWF log alone has no such user;
# given this tree, its fair share is the cluster's. Nobody's usage is
# given: the cluster's starts at zero too (the history is in the
# database, not in slurmctld's usage).
import sys


def main(argv):
    if len(argv) != 2:
        print("usage: tree.py USERS.TSV", file=sys.stderr)
        sys.exit(2)
    accts, users = [], []
    seen = set()
    with open(argv[1]) as f:
        for n, line in enumerate(f, 1):
            w = line.split()
            if not w:
                continue
            if len(w) < 2 or not w[0].isdigit() or not w[1].isdigit():
                print("tree.py: %s:%d: want 'uid gid jobs'" % (argv[1], n),
                      file=sys.stderr)
                sys.exit(1)
            uid, gid = w[0], w[1]
            if uid in seen:
                continue
            seen.add(uid)
            if gid not in accts:
                accts.append(gid)
            users.append((gid, uid))
    print("# bench/trace's cluster: an account per group under root, each"
          " log user in its\n# first group's account, root's own user;"
          " every share 1, no usage")
    for a in accts:
        print("%s|||1|" % a)
    for a, u in users:
        print("%s||%s|1|0" % (a, u))
    print("root||root|1|0")


if __name__ == "__main__":
    main(sys.argv)
