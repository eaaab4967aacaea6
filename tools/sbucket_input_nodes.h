/*
 * sbucket_input_nodes.h - the nodes file of sbucket: slurm.conf-style
 * lines, one NodeName= or PartitionName= line each, KEY=VALUE tokens
 * separated by blanks, '#' starts a comment (sbucket_input.h).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SBUCKET_INPUT_NODES_H
#define SBUCKET_INPUT_NODES_H

#include <stddef.h>

#include "node.h"
#include "place.h"

typedef struct {
	sb_node_t *nodes;		/* nodes[i].index == i, file order */
	size_t n;
	size_t *by_name;		/* indices sorted by name */
	size_t nindexed;		/* nodes in by_name */
	char *default_partition;	/* Default=YES partition, or NULL */
} sbi_cluster_t;

/* Read a nodes file into *cl (zeroed first). 0, or -1 after an error. */
int sbi_read_nodes(const char *path, sbi_cluster_t *cl);

void sbi_cluster_fini(sbi_cluster_t *cl);

/*
 * Print the chunks of a placement to stdout as hostlists of their node
 * names, in hostlist order, joined by '+'. 0, or -1 with errno ENOMEM.
 */
int sbi_print_placement(const sbi_cluster_t *cl, const sb_placement_t *pl);

/* Index of the node called @name, or -1. O(log n). */
long sbi_find_node(const sbi_cluster_t *cl, const char *name);

#endif /* SBUCKET_INPUT_NODES_H */
