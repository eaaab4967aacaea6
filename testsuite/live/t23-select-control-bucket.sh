#!/bin/bash
# t23-select-control-bucket - the job mix of jobmix.inc, which runs under
# select/linear (t23-select-control-linear), runs to completion under
# select/bucket over it too, no node serving two jobs at once.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
SELECT=bucket
SB_BASE=linear
. "$(dirname "$0")/../cluster/harness.sh"
. "$(dirname "$0")/jobmix.inc"
