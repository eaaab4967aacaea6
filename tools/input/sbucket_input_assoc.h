/*
 * sbucket_input_assoc.h - an association tree as a file: what 'sbucket
 * fairshare' computes over, and what 'sbucket replay --tree' replays
 * multifactor's fair share on.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * One association a line, '|'-separated (blank lines and lines starting
 * with '#' ignored):
 *   Account|Parent|User|Shares|RawUsage
 * An account line leaves User empty and names its parent account in
 * Parent (empty for the top level); a user line names its account in
 * Account, leaves Parent empty and gives RawUsage (a number >= 0).
 * Shares is an integer (0-2147483646) or 'parent'. An account's
 * RawUsage is what Slurm keeps on it; left empty, it is its children's
 * sum. Root is implicit; 'root||||RawUsage' gives its usage. Accounts
 * are defined before they are used. A bad line is one error naming the
 * file, the line and the field ("sbucket: tree.txt:4: Shares 'x': not
 * an integer or 'parent'").
 *
 * Operations: sbi_read_assoc  O(bytes + associations)
 */
#ifndef SBUCKET_INPUT_ASSOC_H
#define SBUCKET_INPUT_ASSOC_H

#include <stdio.h>

#include "assoc_tree.h"

/*
 * Read the association file open as @f (named @name in messages) into
 * @t (a new tree holding only root). Returns 0, or -1 after one error
 * line (the tree then holds what was read before it).
 */
int sbi_read_assoc(FILE *f, const char *name, sb_assoc_tree_t *t);

#endif /* SBUCKET_INPUT_ASSOC_H */
