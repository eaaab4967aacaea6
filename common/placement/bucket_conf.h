/*
 * bucket_conf.h - bucket.conf: the node allocation settings of
 * select/bucket, read by the plugin and by 'sbucket place --config'.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * One parser for both, so the plugin and the offline CLI can never read
 * the same file differently. bucket.conf(5) is the administrator's view;
 * this is the contract.
 *
 * Syntax
 *   - One setting a line, KEY=VALUE. Keys are case-insensitive, as in
 *     slurm.conf; policy names too. '#' starts a comment (anywhere, also
 *     inside quotes); blank lines are ignored; there is no Include.
 *   - A value that holds blanks is quoted, "..." or '...' (slurm.conf
 *     quotes with ", maui.cfg PRIORITYF with '). No escapes, no nesting.
 *     Anything after a global setting's value is an error, so an
 *     unquoted 'PriorityF=SPEED - LOAD' is caught instead of silently
 *     cut at the first blank.
 *   - A line that starts with NodeName=HOSTLIST sets node attributes:
 *     "NodeName=n[1-8],fat1 Speed=2.5". HOSTLIST is Slurm's syntax
 *     (hostlist_fmt.h).
 *   - A line that starts with PartitionName=NAME[,NAME...] sets what the
 *     jobs of those partitions may choose:
 *     "PartitionName=gpu,debug AllowJobPolicies=FASTEST
 *     AllowJobPreferences=YES". Names are Slurm partition names of
 *     letters, digits, '.', '_' and '-', case-sensitive, separated by
 *     commas (no hostlist brackets: partitions are no hosts).
 *
 * Keys (the defaults are the behaviour of a cluster with no bucket.conf)
 *
 *   NodeAllocationPolicy=NAME     default FIRSTAVAILABLE
 *       The cluster's Maui node allocation policy (policy.h). Not Maui's
 *       default LASTAVAILABLE: FIRSTAVAILABLE is Slurm's own order (lower
 *       Weight, then node order), so loading the plugin alone changes
 *       which nodes jobs get in no way.
 *   PriorityF=EXPR                no default
 *       The PRIORITYF expression of policy PRIORITY (priorityf.h). Needed
 *       when NodeAllocationPolicy=PRIORITY or jobs may ask for PRIORITY;
 *       refused otherwise (it would have no effect: most likely a policy
 *       line is missing; Maui ignores it silently).
 *   AllowJobPolicies=NONE|ALL|NAME[,NAME...]    default NONE
 *       The policies a job may ask for instead of the cluster's (the
 *       cluster's own is always allowed: asking for it changes nothing).
 *       A list, not yes/no, so a site can allow FASTEST without letting
 *       every job scatter itself with LASTAVAILABLE. A job asking for
 *       PRIORITY gets the cluster's PriorityF; jobs do not bring their
 *       own expression. The value of every partition not named on a
 *       PartitionName= line that sets it.
 *   AllowJobPreferences=YES|NO                  default NO
 *       Whether a job's preferred features (--bucket-prefer) order its
 *       nodes. They rank above the policy within a Weight tier, so
 *       allowing them lets a job take the nodes the policy would keep
 *       for others (a small job preferring "bigmem" under MINRESOURCE):
 *       the site's choice, per partition if need be. The value of every
 *       partition not named on a PartitionName= line that sets it.
 *   BaseSelectType=select/NAME    not set: the caller's default
 *       The select plugin select/bucket runs over: select/linear,
 *       select/cons_tres or select/cons_res (case-insensitive, kept in
 *       lower case). Which of them a Slurm series has, and the default
 *       when the key is not set, are the plugin's (select_bucket(8)):
 *       Slurm 24.11 has no cons_res and no OTHER_CONS_TRES flag.
 *   NodeName=HOSTLIST Speed=NUMBER          Speed default 1.0
 *       A node's relative speed (Maui's NODECFG SPEED): read by FASTEST,
 *       MAXBALANCE and PRIORITYF's SPEED. NUMBER > 0, written as a
 *       PRIORITYF coefficient ("2", "0.5", ".75", "1e3"). Speed is the
 *       only node attribute here: everything else the policies and
 *       PRIORITYF read (CPUs, RealMemory, TmpDisk, Weight, Gres, load,
 *       running jobs) comes from slurm.conf or slurmctld, and Maui's
 *       PRIORITY, PREF, ... are refused by priorityf.h. A node may be
 *       named once in the whole file; NodeName=DEFAULT is refused (a node
 *       not named keeps 1.0). Whether every named node exists is the
 *       caller's check: it knows the node list, this parser does not.
 *   PartitionName=NAME[,NAME...] AllowJobPolicies=... AllowJobPreferences=...
 *       What the jobs of these partitions may choose, one or both keys
 *       (a key not on the line takes its global value, wherever in the
 *       file that is set; the cluster's own policy is always allowed).
 *       A partition may be named once in the whole file;
 *       PartitionName=DEFAULT is refused (the global keys are every
 *       other partition's). Whether every named partition exists is the
 *       caller's check, as for nodes. A job's partition is the one
 *       slurmctld tries it in (a job submitted to several is judged in
 *       each).
 *
 * Errors
 *   Parsing stops at the first error, in line order (checks between
 *   keys run once the whole file is read, and name the line of the
 *   setting that has to change). The message is one line without a
 *   newline, "FILE:LINE: KEY=VALUE: what is wrong", e.g.
 *     bucket.conf:4: NodeAllocationPolicy=FASTESTT: unknown policy
 *     (expected one of FIRSTAVAILABLE, LASTAVAILABLE, ...)
 *   with KEY as written; a VALUE with blanks is shown in double quotes,
 *   unprintable bytes as '?', and a VALUE over 160 bytes cut with "...".
 *   PriorityF errors add the 1-based column inside the value:
 *     bucket.conf:3: PriorityF="SPEED - 5*USAGE": column 11 ('USAGE'):
 *     Maui component with no Slurm equivalent
 *   The message goes into the caller's buffer (nothing here logs):
 *   SB_BUCKET_CONF_ERRLEN bytes hold any message whose file name is
 *   shorter than 256 bytes; a smaller buffer gets it truncated.
 *
 * Limits (so that a mistake costs one error line, never minutes or
 * gigabytes in slurmctld or in every sbatch): the file is a regular
 * file (a link to one is fine) of at most SB_BUCKET_CONF_BYTES_MAX
 * bytes; it names at most SB_BUCKET_CONF_NODES_MAX nodes in all, counted
 * from the hostlists before any name is made.
 *
 * Use for a reconfigure: parse the new file into a new object; if that
 * fails, log the message and keep the old object (nothing is shared).
 *
 * Operations (L bytes of text, N node names, Q partition names, P
 * policies):
 *   sb_bucket_conf_load / parse     O(L + N log N + Q log Q)
 *   sb_bucket_conf_free             O(N + Q)
 *   sb_bucket_conf_check            O(N + Q)
 *   sb_bucket_conf_policy           O(1)
 *   sb_bucket_conf_priorityf        O(1)
 *   sb_bucket_conf_base             O(1)
 *   sb_bucket_conf_job_allowed      O(log Q)  (Q partitions named)
 *   sb_bucket_conf_job_prefer       O(log Q)
 *   sb_bucket_conf_job_policy       O(P + log Q + len(PriorityF))
 *   sb_bucket_conf_job_option       O(P)
 *   sb_bucket_conf_prefer_option    O(1)
 *   sb_bucket_conf_node             O(log N)  by name
 *   sb_bucket_conf_node_count / at  O(1)
 *   sb_bucket_conf_part_count / at  O(1)
 *   sb_bucket_conf_fmt              O(N log N + Q)
 */
#ifndef SB_BUCKET_CONF_H
#define SB_BUCKET_CONF_H

#include <stdbool.h>
#include <stddef.h>

#include "policy.h"
#include "priorityf.h"

/* An error buffer of this size holds every message (see above). */
#define SB_BUCKET_CONF_ERRLEN 1024

/* The largest file sb_bucket_conf_load() reads (4 MiB). */
#define SB_BUCKET_CONF_BYTES_MAX 4194304

/* At most this many node names in one file (NodeName= lines together). */
#define SB_BUCKET_CONF_NODES_MAX 1048576

/* Speed of a node that bucket.conf does not name (node.h's default). */
#define SB_BUCKET_CONF_DEFAULT_SPEED 1.0

typedef struct sb_bucket_conf sb_bucket_conf_t;

/* The attributes of one node named on a NodeName= line. */
typedef struct {
	const char *name;
	double speed;			/* > 0, finite */
	size_t line;			/* the NodeName= line that named it */
} sb_bucket_conf_node_t;

/*
 * A partition named on a PartitionName= line (what its jobs may choose:
 * sb_bucket_conf_job_allowed(), sb_bucket_conf_job_prefer()).
 */
typedef struct {
	const char *name;
	size_t line;			/* the PartitionName= line */
} sb_bucket_conf_part_t;

/*
 * Read the file @path. Returns a new configuration, or NULL with errno
 *   EINVAL  bad content (the message in @err), a NULL @path, or @path
 *           is not a regular file: "PATH: not a regular file (a FIFO)"
 *           (a character device, ...); it is not read, a FIFO is not
 *           even waited for
 *   EFBIG   larger than SB_BUCKET_CONF_BYTES_MAX bytes: "PATH: larger
 *           than 4194304 bytes" (checked before reading, and again
 *           while reading, should the file grow)
 *   ENOMEM  out of memory
 *   any errno of open() or read() (ENOENT, EACCES, EISDIR, EIO, ...);
 *           the message is then "PATH: strerror"
 * @err (may be NULL) gets a NUL-terminated message of at most @errlen
 * bytes on failure and is left alone on success. A NUL byte in the file
 * is an error (EINVAL). O(L + N log N).
 */
sb_bucket_conf_t *sb_bucket_conf_load(const char *path, char *err,
				      size_t errlen);

/*
 * The same on the text @text, with @name standing for the file name in
 * messages (NULL: "bucket.conf"). An empty @text gives the defaults.
 * Returns a new configuration, or NULL with errno EINVAL (bad content,
 * or a NULL @text) or ENOMEM.
 */
sb_bucket_conf_t *sb_bucket_conf_parse(const char *text, const char *name,
				       char *err, size_t errlen);

/* Free @c; NULL is fine. */
void sb_bucket_conf_free(sb_bucket_conf_t *c);

/*
 * Verify the invariants: a valid cluster policy; PriorityF present iff
 * the cluster policy or a policy allowed to jobs (globally or in a
 * partition) is PRIORITY, and then it equals the cluster policy's
 * expression when that is PRIORITY; job policies within the known ones,
 * the cluster's among them, globally and in every partition; nodes
 * sorted by strcmp(), unique, named, with a finite speed > 0 and a line
 * > 0; partitions likewise, their names of the characters above; what
 * some partition allows the union of them all. Returns 0, or -1 with
 * errno EFAULT (EINVAL for NULL). O(N + Q).
 */
int sb_bucket_conf_check(const sb_bucket_conf_t *c);

/*
 * The cluster's policy, ready for sb_place() (for PRIORITY its
 * expression is PriorityF). Valid until sb_bucket_conf_free(). O(1).
 */
const sb_policy_t *sb_bucket_conf_policy(const sb_bucket_conf_t *c);

/* PriorityF, or NULL when the file sets none. O(1). */
const sb_priorityf_t *sb_bucket_conf_priorityf(const sb_bucket_conf_t *c);

/*
 * BaseSelectType: "select/linear", "select/cons_tres" or
 * "select/cons_res" (a static string), or NULL when the file sets none.
 * O(1).
 */
const char *sb_bucket_conf_base(const sb_bucket_conf_t *c);

/*
 * true if a job of partition @part may ask for policy @kind: it is the
 * cluster's policy or the partition's AllowJobPolicies lists it (its
 * PartitionName= line's, else the global one; NULL @part: the global
 * one). false for an out-of-range @kind. O(log Q).
 */
bool sb_bucket_conf_job_allowed(const sb_bucket_conf_t *c, const char *part,
				sb_policy_kind_t kind);

/*
 * true if the preferred features of a job of partition @part order its
 * nodes: AllowJobPreferences=YES on its PartitionName= line, else
 * globally (NULL @part: the global value). O(log Q).
 */
bool sb_bucket_conf_job_prefer(const sb_bucket_conf_t *c, const char *part);

/*
 * The policy for a job of partition @part (NULL: the global settings)
 * that asks for @name (case-insensitive), in *out. Returns 0, or -1
 * with errno ENOENT (no such policy), EPERM (not allowed to the jobs of
 * @part) or EINVAL (a NULL argument); *out is unchanged on failure.
 * O(P + log Q + len(PriorityF)).
 */
int sb_bucket_conf_job_policy(const sb_bucket_conf_t *c, const char *part,
			      const char *name, sb_policy_t *out);

/* The option of the SPANK plugin by which a job chooses its policy. */
#define SB_BUCKET_CONF_JOB_OPTION "--bucket-policy"

/*
 * The value of a job's --bucket-policy=@arg, as the SPANK plugin checks
 * it where the job is submitted: a policy name (case-insensitive) that
 * @c allows to the jobs of some partition (the submit side cannot know
 * which partition slurmctld will try; slurmctld checks again, with its
 * own file and the job's partition, and only its check counts). @c is
 * NULL when bucket.conf cannot be read there: then any policy passes.
 * Returns the policy (a sb_policy_kind_t), or -1 with errno ENOENT (no
 * such policy, or a NULL @arg) or EPERM (not allowed), and one line in
 * @err (when not NULL; SB_BUCKET_CONF_ERRLEN bytes hold any) that names
 * the option and the value as shown.h shows it, e.g.
 *   --bucket-policy=FASTST: unknown policy (expected one of ...)
 *   --bucket-policy=MINRESOURCE: not allowed to jobs (AllowJobPolicies
 *   in @path)
 * O(P).
 */
int sb_bucket_conf_job_option(const sb_bucket_conf_t *c, const char *path,
			      const char *arg, char *err, size_t errlen);

/* The option of the SPANK plugin by which a job prefers features. */
#define SB_BUCKET_CONF_PREFER_OPTION "--bucket-prefer"

/*
 * A job's --bucket-prefer=@arg as the SPANK plugin checks it where the
 * job is submitted, against @c (NULL: bucket.conf unreadable there, any
 * passes): allowed when AllowJobPreferences=YES globally or for some
 * partition (as above, slurmctld's check is the one that counts). The
 * list itself is checked by sb_request_add_prefer_list(). Returns 0, or
 * -1 with errno EPERM and one line in @err (when not NULL), e.g.
 *   --bucket-prefer=bigmem: not allowed to jobs (AllowJobPreferences
 *   in @path)
 * O(1).
 */
int sb_bucket_conf_prefer_option(const sb_bucket_conf_t *c, const char *path,
				 const char *arg, char *err, size_t errlen);

/*
 * The attributes of node @name (exact, case-sensitive, as Slurm node
 * names), or NULL with errno ENOENT when the file does not name it (its
 * speed is then SB_BUCKET_CONF_DEFAULT_SPEED). Valid until
 * sb_bucket_conf_free(). O(log N).
 */
const sb_bucket_conf_node_t *sb_bucket_conf_node(const sb_bucket_conf_t *c,
						 const char *name);

/*
 * The nodes the file names, in strcmp() order of their names: @i in
 * [0, count). sb_bucket_conf_node_at() returns NULL with errno ERANGE
 * for i >= count. O(1).
 */
size_t sb_bucket_conf_node_count(const sb_bucket_conf_t *c);
const sb_bucket_conf_node_t *sb_bucket_conf_node_at(const sb_bucket_conf_t *c,
						    size_t i);

/*
 * The partitions the file names, in strcmp() order of their names: @i
 * in [0, count). sb_bucket_conf_part_at() returns NULL with errno ERANGE
 * for i >= count. O(1).
 */
size_t sb_bucket_conf_part_count(const sb_bucket_conf_t *c);
const sb_bucket_conf_part_t *sb_bucket_conf_part_at(const sb_bucket_conf_t *c,
						    size_t i);

/*
 * Every effective setting, defaults included, in bucket.conf syntax
 * (parsing it back gives the same configuration), one per line, each
 * ending in '\n':
 *
 *   NodeAllocationPolicy=FIRSTAVAILABLE
 *   PriorityF=SPEED-10*JOBCOUNT          (only when set: no default)
 *   AllowJobPolicies=NONE
 *   AllowJobPreferences=NO
 *   NodeName=n[1-4,9] Speed=2            (one line per speed, slowest
 *                                         first, names in hostlist order)
 *   PartitionName=gpu AllowJobPolicies=FASTEST AllowJobPreferences=YES
 *                                        (one line per partition, in
 *                                         strcmp() order, both keys as
 *                                         they hold for it)
 *
 * PriorityF in sb_priorityf_fmt()'s form; AllowJobPolicies as NONE, ALL
 * (every policy is allowed, counting the cluster's) or the list in
 * policy.h order without the cluster's policy; speeds in the shortest
 * form that reads back exactly. A string to free(), or NULL with errno
 * ENOMEM (EINVAL for NULL). O(N log N + Q).
 */
char *sb_bucket_conf_fmt(const sb_bucket_conf_t *c);

#endif /* SB_BUCKET_CONF_H */
