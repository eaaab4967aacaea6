#!/bin/bash
# t23-select-control-linear - the control: the job mix of jobmix.inc runs
# to completion under Slurm's own select/linear on the harness.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
SELECT=linear
SB_BASE=linear
. "$(dirname "$0")/../cluster/harness.sh"
. "$(dirname "$0")/jobmix.inc"
