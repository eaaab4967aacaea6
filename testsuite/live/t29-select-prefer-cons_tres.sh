#!/bin/bash
# t29-select-prefer-cons_tres - t29-select-prefer.sh with select/bucket over
# select/cons_tres (SelectTypeParameters=OTHER_CONS_TRES,CR_Core_Memory)
# and every partition OverSubscribe=EXCLUSIVE: the same answers as over
# linear.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
SB_BASE=cons_tres
. "$(dirname "$0")/t29-select-prefer.sh"
