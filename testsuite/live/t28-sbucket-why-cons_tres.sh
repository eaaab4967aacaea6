#!/bin/bash
# t28-sbucket-why-cons_tres - t28-sbucket-why.sh with select/bucket over
# select/cons_tres (SelectTypeParameters=OTHER_CONS_TRES,CR_Core_Memory) and
# the partition OverSubscribe=EXCLUSIVE: the same explanations.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
SB_BASE=cons_tres
. "$(dirname "$0")/t28-sbucket-why.sh"
