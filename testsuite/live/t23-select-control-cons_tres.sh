#!/bin/bash
# t23-select-control-cons_tres - the control for the cons_tres base: the job
# mix of jobmix.inc runs to completion under Slurm's select/cons_tres with
# every node OverSubscribe=EXCLUSIVE.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
SELECT=cons_tres
SB_BASE=cons_tres
. "$(dirname "$0")/../cluster/harness.sh"
. "$(dirname "$0")/jobmix.inc"
