/*
 * select_data.h - select/bucket's node and job data, select state and
 * steps: the part of the select framework Slurm had until 25.05
 * (22.05, 24.11), all of it the base's (select_data.c).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * 26.05's framework has no node or job data, no select state and no
 * get_info_from_plugin(): a series that has them builds select_data.c
 * and includes this header in its select_series.c.
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

/*
 * Does the series answer get_info_from_plugin(@dinfo) itself (into
 * @data) instead of the base? 22.05: SELECT_SINGLE_JOB_TEST.
 * (select_series.c)
 */
extern bool series_get_info(enum select_plugindata_info dinfo, void *data);

#endif /* SELECT_DATA_H */
