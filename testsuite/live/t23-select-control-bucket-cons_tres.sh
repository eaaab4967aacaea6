#!/bin/bash
# t23-select-control-bucket-cons_tres - the job mix of jobmix.inc runs to
# completion under select/bucket over select/cons_tres (every node
# OverSubscribe=EXCLUSIVE) as under cons_tres alone
# (t23-select-control-cons_tres), no node serving two jobs at once.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
SELECT=bucket
SB_BASE=cons_tres
. "$(dirname "$0")/../cluster/harness.sh"
. "$(dirname "$0")/jobmix.inc"
