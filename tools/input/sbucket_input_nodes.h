/*
 * sbucket_input_nodes.h - the nodes file of sbucket: slurm.conf-style
 * lines, one NodeName= or PartitionName= line each, KEY=VALUE tokens
 * separated by blanks, '#' starts a comment (sbucket_input.h); and, as
 * slurm.conf has them, the cluster's licences: one "Licenses=LIST" line,
 * and "LicensesUsed=LIST [Until=T]" lines for the licences running jobs
 * hold (only 'sbucket backfill' plans licences).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SBUCKET_INPUT_NODES_H
#define SBUCKET_INPUT_NODES_H

#include <stddef.h>

#include "node.h"
#include "place.h"
#include "slurm_text.h"

/* Licences that running jobs hold: a LicensesUsed= item. */
typedef struct {
	size_t lic;			/* index into sbi_cluster_t.lic */
	int64_t count;
	int64_t until;			/* SB_TIME_INFINITE: never freed */
} sbi_lic_held_t;

typedef struct {
	sb_node_t *nodes;		/* nodes[i].index == i, file order */
	size_t n;
	size_t *by_name;		/* indices sorted by name */
	size_t nindexed;		/* nodes in by_name */
	char *default_partition;	/* Default=YES partition, or NULL */
	sb_license_t *lic;		/* Licenses=: names distinct, file order */
	size_t nlic;
	size_t lic_line;		/* the Licenses= line, 0: none */
	sbi_lic_held_t *held;		/* LicensesUsed= items, file order */
	size_t nheld;
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

/* Index of the declared licence called @name, or -1. O(licences). */
long sbi_find_license(const sbi_cluster_t *cl, const char *name);

/*
 * A licence list (sb_licenses_parse()) at value @val of token @tok, into
 * *@v and *@n; one error "PATH:LINE: token 'TOK': ..." naming the item at
 * fault otherwise. 0, or -1 after the error.
 */
int sbi_parse_licenses(const char *path, size_t line, const char *tok,
		       const char *val, sb_license_t **v, size_t *n);

#endif /* SBUCKET_INPUT_NODES_H */
