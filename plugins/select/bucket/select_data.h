/*
 * select_data.h - select/bucket's node and job data, select state and
 * steps, where the select framework has them (SB_HAVE_SELECT_DATA: Slurm
 * until 24.11), all of it the base's (select_data.c).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Later frameworks have no node or job data, no select state and no
 * get_info_from_plugin(): select.am builds select_data.c only where the
 * tree has them.
 */
#ifndef SELECT_DATA_H
#define SELECT_DATA_H

#include "select_bucket.h"

/*
 * Our header on the wire: the base's plugin_id (4 bytes), then the
 * base's own bytes. A program that unpacks it finds (or loads) the same
 * base, or refuses the data with one clear line naming both bases.
 * SLURM_SUCCESS or SLURM_ERROR (logged); @what: "node", "job".
 */
extern int base_header_pack(buf_t *buffer);
extern int base_header_unpack(buf_t *buffer, const char *what);

#endif /* SELECT_DATA_H */
