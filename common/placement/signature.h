/*
 * signature.h - resource signatures: what makes two nodes interchangeable.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Two nodes have the same signature when they agree on every static
 * attribute a request or a static policy can look at: CPUs and their
 * layout (sockets, cores, threads), real memory, tmp disk, features,
 * gres, weight, partitions and speed. (Speed is static; keeping it in the
 * signature lets FASTEST and PRIORITYF=SPEED order buckets.) Dynamic
 * state (state, load, running jobs, busy windows) is not part of it.
 *
 * Operations:
 *   sb_signature_hash   O(F + G + P)  equal signatures hash equal
 *   sb_signature_equal  O(F + G + P)
 *   sb_signature_fmt    O(F + G + P)  "cpus=2(1x2x1) mem=8000 ..."
 */
#ifndef SB_SIGNATURE_H
#define SB_SIGNATURE_H

#include <stdint.h>

#include "node.h"

/* A 64-bit hash of the signature of @n (FNV-1a over its fields). */
uint64_t sb_signature_hash(const sb_node_t *n);

/* 1 if @a and @b have the same signature, else 0. */
int sb_signature_equal(const sb_node_t *a, const sb_node_t *b);

/*
 * The signature as text, e.g.
 * "cpus=2(1x2x1) mem=8000 tmp=0 weight=1 speed=1 features=circle,yellow
 *  gres=gpu:2 partitions=batch" (one line; empty lists are left out).
 * A string to free(), or NULL with errno EINVAL (n NULL) or ENOMEM.
 */
char *sb_signature_fmt(const sb_node_t *n);

#endif /* SB_SIGNATURE_H */
