/*
 * bucket_conf.c - bucket.conf: the node allocation settings of
 * select/bucket, read by the plugin and by 'sbucket place --config'.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bucket_conf.h"
#include "hostlist_fmt.h"
#include "shown.h"
#include "strbuf.h"
#include "strmap.h"

/* Echoed values are cut here so one bad line cannot flood a log. */
#define SHOW_VALUE_MAX SB_SHOWN_MAX
#define SHOW_KEY_MAX 64

/*
 * Node and partition names as hostnames and Slurm have them; also what
 * keeps the canonical form readable back (no blanks, '=', '#', quotes,
 * brackets, commas).
 */
#define NAME_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" \
	"0123456789._-"

#define POLICY_BIT(k) (1u << (k))
#define ALL_POLICIES ((1u << SB_POLICY_COUNT) - 1)

/* The settings that stand on a line of their own. */
enum {
	KEY_POLICY,
	KEY_PRIORITYF,
	KEY_JOB_POLICIES,
	KEY_JOB_PREFER,
	KEY_BASE,
	KEY_COUNT
};

static const char *const _keys[KEY_COUNT] = {
	"NodeAllocationPolicy", "PriorityF", "AllowJobPolicies",
	"AllowJobPreferences", "BaseSelectType",
};

/* What a job may choose, globally or on a PartitionName= line. */
#define PART_KEYS "AllowJobPolicies, AllowJobPreferences"

/*
 * A partition's settings. While the file is read, a setting its line
 * does not give is PART_UNSET (policies) or -1 (prefer), and policies
 * holds the list as written; once it is read, both are what its jobs
 * may choose (the cluster's policy among the policies).
 */
#define PART_UNSET (1u << 31)
typedef struct {
	sb_bucket_conf_part_t pub;	/* first: &part->pub is the part */
	unsigned policies;
	int prefer;
} _part_t;

/* The select plugins select/bucket can run over (canonical names). */
static const char *const _bases[] = {
	"select/linear", "select/cons_tres", "select/cons_res",
};
#define NBASES (sizeof(_bases) / sizeof(_bases[0]))

struct sb_bucket_conf {
	sb_policy_t policy;		/* the cluster's, for sb_place() */
	bool has_pf;
	sb_priorityf_t pf;
	char *pf_text;			/* as written, for sb_policy_init() */
	unsigned job_mask;		/* allowed to jobs, the cluster's too */
	bool job_prefer;		/* AllowJobPreferences */
	unsigned any_mask;		/* allowed in some partition */
	bool any_prefer;		/* preferences allowed in some */
	const char *base;		/* one of _bases[], or NULL: not set */
	sb_bucket_conf_node_t *nodes;	/* sorted by name once parsed */
	size_t nnodes, cap;
	_part_t *parts;			/* sorted by name once parsed */
	size_t nparts, pcap;
};

/*
 * Where a setting was written: a global key (for duplicates and the
 * checks between keys) or a NodeName= line (for nodes named twice).
 */
typedef struct {
	size_t line;			/* 0: not set, the default holds */
	char *shown;			/* "KEY=VALUE" as shown in messages */
} _where_t;

typedef struct {
	const char *file;
	char *err;
	size_t errlen;
	sb_bucket_conf_t *c;
	sb_policy_kind_t policy;
	unsigned listed;		/* AllowJobPolicies as written */
	bool prefer;			/* AllowJobPreferences as written */
	_where_t at[KEY_COUNT];
	_where_t *nlines;
	size_t nnlines;
	sb_strmap_t *pnames;		/* partition name -> its index */
	/* the AllowJobPolicies= of PartitionName= lines that list PRIORITY */
	_where_t prio_part;		/* the first of them */
} _state_t;

/* One KEY=VALUE of a line, cut in place (both NUL-terminated). */
typedef struct {
	char *key, *val;
} _tok_t;

/* ---- messages ---------------------------------------------------------- */

/* printf checking of every message format. */
static void _msg(_state_t *st, size_t line, const char *what,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int _bad(_state_t *st, size_t line, const char *what,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Append @s (at most @max bytes of it) to dst[*len..cap), as shown.h does. */
static void _put(char *dst, size_t cap, size_t *len, const char *s,
		 size_t max)
{
	sb_shown_put(dst, cap, len, s, SIZE_MAX, max);
}

/* "KEY=VALUE" for messages; VALUE in double quotes if it has blanks. */
static void _show(char *dst, size_t cap, const char *key, const char *val)
{
	size_t len = 0;
	int quote = val[strcspn(val, " \t")] != '\0';

	dst[0] = '\0';
	_put(dst, cap, &len, key, SHOW_KEY_MAX);
	_put(dst, cap, &len, quote ? "=\"" : "=", 2);
	_put(dst, cap, &len, val, SHOW_VALUE_MAX);
	if (quote)
		_put(dst, cap, &len, "\"", 1);
}

/* A raw piece of a line (no KEY=VALUE shape) for messages. */
static void _show_raw(char *dst, size_t cap, const char *s, size_t n)
{
	size_t len = 0;

	sb_shown_put(dst, cap, &len, s, n, SHOW_VALUE_MAX);
}

/* "FILE:LINE: WHAT: message" (no LINE when 0, no WHAT when NULL). */
static void __attribute__((format(printf, 4, 0)))
_vmsg(_state_t *st, size_t line, const char *what, const char *fmt,
      va_list ap)
{
	int n;

	if (!st->err || !st->errlen)
		return;
	if (line && what)
		n = snprintf(st->err, st->errlen, "%s:%zu: %s: ", st->file,
			     line, what);
	else if (line)
		n = snprintf(st->err, st->errlen, "%s:%zu: ", st->file, line);
	else
		n = snprintf(st->err, st->errlen, "%s: ", st->file);
	if (n >= 0 && (size_t) n < st->errlen)
		vsnprintf(st->err + n, st->errlen - (size_t) n, fmt, ap);
}

static void _msg(_state_t *st, size_t line, const char *what,
		 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	_vmsg(st, line, what, fmt, ap);
	va_end(ap);
}

static int _oom(_state_t *st)
{
	_msg(st, 0, NULL, "out of memory");
	errno = ENOMEM;
	return -1;
}

/* ---- nodes ------------------------------------------------------------- */

static int _by_name_line(const void *pa, const void *pb)
{
	const sb_bucket_conf_node_t *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	return a->line < b->line ? -1 : a->line > b->line;
}

static const char *_node_line_shown(const _state_t *st, size_t line)
{
	size_t lo = 0, hi = st->nnlines, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (st->nlines[mid].line == line)
			return st->nlines[mid].shown;
		if (st->nlines[mid].line < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return "NodeName";
}

/*
 * Sort the nodes so far by name (then line) and report a node named
 * twice, at the earliest line that repeats one. Called before any other
 * error is reported, so the first error in line order wins: every node
 * so far comes from the current line or an earlier one. Returns 1 after
 * writing the message, 0 if all names are unique. O(N log N).
 */
static int _dups(_state_t *st)
{
	sb_bucket_conf_node_t *v = st->c->nodes;
	size_t i, g = 0, best = 0, first = 0;
	char name[SHOW_VALUE_MAX + 8];

	if (st->c->nnodes > 1)
		qsort(v, st->c->nnodes, sizeof(*v), _by_name_line);
	for (i = 1; i < st->c->nnodes; i++) {
		if (strcmp(v[i].name, v[i - 1].name)) {
			g = i;
			continue;
		}
		if (!best || v[i].line < v[best].line) {
			best = i;
			first = g;
		}
	}
	if (!best)
		return 0;
	_show_raw(name, sizeof(name), v[best].name, strlen(v[best].name));
	if (v[first].line == v[best].line)
		_msg(st, v[best].line, _node_line_shown(st, v[best].line),
		     "node '%s' is named twice on this line", name);
	else
		_msg(st, v[best].line, _node_line_shown(st, v[best].line),
		     "node '%s' is already named on line %zu", name,
		     v[first].line);
	errno = EINVAL;
	return 1;
}

/* A content error at @line: the message, unless a repeated node precedes. */
static int _bad(_state_t *st, size_t line, const char *what,
		const char *fmt, ...)
{
	va_list ap;

	if (_dups(st))
		return -1;
	va_start(ap, fmt);
	_vmsg(st, line, what, fmt, ap);
	va_end(ap);
	errno = EINVAL;
	return -1;
}

/* ---- values ------------------------------------------------------------ */

/*
 * A number as PRIORITYF writes coefficients, nothing after it: 0, -1
 * (not a number) or -2 (out of range).
 */
static int _number(const char *s, double *v)
{
	size_t len;

	if (sb_priorityf_number(s, &len, v))
		return len && errno == ERANGE ? -2 : -1;
	return s[len] ? -1 : 0;
}

static int _set_policy(_state_t *st, size_t line, const char *shown,
		       const char *val)
{
	int k = sb_policy_lookup(val);

	if (k < 0)
		return _bad(st, line, shown, "unknown policy (expected one "
			    "of %s)", sb_policy_names());
	st->policy = (sb_policy_kind_t) k;
	return 0;
}

/*
 * The word of a PRIORITYF value at @pos, for the message: a run of
 * letters, digits, '_' and '.', with an exponent's sign; else the one
 * character there.
 */
static size_t _pf_word(const char *v, size_t pos)
{
	size_t n = 0;

	while (isalnum((unsigned char) v[pos + n]) || v[pos + n] == '_' ||
	       v[pos + n] == '.' ||
	       ((v[pos + n] == '+' || v[pos + n] == '-') && n &&
		(v[pos + n - 1] == 'e' || v[pos + n - 1] == 'E') &&
		isdigit((unsigned char) v[pos]) &&
		isdigit((unsigned char) v[pos + n + 1])))
		n++;
	return n ? n : 1;
}

static int _set_priorityf(_state_t *st, size_t line, const char *shown,
			  const char *val)
{
	size_t pos = 0;
	const char *msg = NULL;
	char word[SHOW_VALUE_MAX + 8];

	if (sb_priorityf_parse(val, &st->c->pf, &pos, &msg)) {
		if (!val[pos])
			return _bad(st, line, shown, "column %zu (end of "
				    "value): %s", pos + 1, msg);
		_show_raw(word, sizeof(word), val + pos, _pf_word(val, pos));
		return _bad(st, line, shown, "column %zu ('%s'): %s", pos + 1,
			    word, msg);
	}
	if (!(st->c->pf_text = strdup(val)))
		return _oom(st);
	st->c->has_pf = true;
	return 0;
}

/* BaseSelectType: one of _bases[], case-insensitive. */
static int _set_base(_state_t *st, size_t line, const char *shown,
		     const char *val)
{
	size_t i;

	for (i = 0; i < NBASES; i++)
		if (!strcasecmp(val, _bases[i])) {
			st->c->base = _bases[i];
			return 0;
		}
	return _bad(st, line, shown, "unknown base plugin (expected "
		    "select/linear, select/cons_tres or select/cons_res)");
}

/*
 * AllowJobPolicies: NONE, ALL, or NAME[,NAME...] (blanks around names),
 * into *@out (every policy for ALL).
 */
static int _job_policies(_state_t *st, size_t line, const char *shown,
			 const char *val, unsigned *out)
{
	char name[SHOW_VALUE_MAX + 8], exact[32];
	unsigned mask = 0;
	const char *p = val, *e;
	size_t n;
	int k, alone = -1, items = 0;

	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		e = p + strcspn(p, ",");
		for (n = (size_t) (e - p); n && (p[n - 1] == ' ' ||
						  p[n - 1] == '\t'); n--)
			;
		if (!n)
			return _bad(st, line, shown, "an empty name in the "
				    "list");
		_show_raw(name, sizeof(name), p, n);
		/* Longer than any policy name: unknown, no need to copy. */
		k = -1;
		if (n < sizeof(exact)) {
			memcpy(exact, p, n);
			exact[n] = '\0';
			k = sb_policy_lookup(exact);
		}
		items++;
		if (n == 3 && !strncasecmp(p, "ALL", 3))
			alone = 1;
		else if (n == 4 && !strncasecmp(p, "NONE", 4))
			alone = 0;
		else if (k < 0)
			return _bad(st, line, shown, "unknown policy '%s' "
				    "(expected NONE, ALL or a comma-separated "
				    "list of %s)", name,
				    sb_policy_names());
		else if (mask & POLICY_BIT(k))
			return _bad(st, line, shown, "policy '%s' is listed "
				    "twice", name);
		else
			mask |= POLICY_BIT(k);
		if (alone >= 0 && items > 1)
			return _bad(st, line, shown, "ALL and NONE stand "
				    "alone, not in a list");
		if (!*e)
			break;
		p = e + 1;
	}
	*out = alone == 1 ? ALL_POLICIES : mask;
	return 0;
}

/* AllowJobPreferences: YES or NO (case-insensitive), into *@out. */
static int _job_prefer(_state_t *st, size_t line, const char *shown,
		       const char *val, bool *out)
{
	if (!strcasecmp(val, "YES"))
		*out = true;
	else if (!strcasecmp(val, "NO"))
		*out = false;
	else
		return _bad(st, line, shown, "expected YES or NO");
	return 0;
}

/* ---- lines ------------------------------------------------------------- */

static int _blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' ||
	       ch == '\f';
}

/*
 * Cut the next KEY=VALUE at *p into *t. Returns 1, 0 at the end of the
 * line, or -1 after the message.
 */
static int _token(_state_t *st, size_t line, char **p, _tok_t *t)
{
	char *s = *p, *eq, *end, shown[SHOW_VALUE_MAX + 8], q;

	while (_blank(*s))
		s++;
	if (!*s)
		return 0;
	for (eq = s; *eq && *eq != '=' && !_blank(*eq); eq++)
		;
	if (*eq != '=' || eq == s) {
		for (end = eq; *end && !_blank(*end); end++)
			;
		_show_raw(shown, sizeof(shown), s, (size_t) (end - s));
		return _bad(st, line, shown, "expected KEY=VALUE");
	}
	*eq = '\0';
	t->key = s;
	t->val = eq + 1;
	if (*t->val == '"' || *t->val == '\'') {
		q = *t->val++;
		if (!(end = strchr(t->val, q))) {
			*eq = '=';
			for (end = s + strlen(s); end > s && _blank(end[-1]);
			     end--)
				;
			_show_raw(shown, sizeof(shown), s, (size_t) (end - s));
			return _bad(st, line, shown, "no closing quote (%c)",
				    q);
		}
		if (end[1] && !_blank(end[1])) {
			*eq = '=';
			for (end++; *end && !_blank(*end); end++)
				;
			_show_raw(shown, sizeof(shown), s, (size_t) (end - s));
			return _bad(st, line, shown, "text right after the "
				    "closing quote (%c)", q);
		}
		*end = '\0';
		*p = end + 1;
		return 1;
	}
	for (end = t->val; *end && !_blank(*end); end++)
		;
	*p = *end ? end + 1 : end;
	*end = '\0';
	return 1;
}

static int _node_line(_state_t *st, size_t line, char *p, const _tok_t *t0)
{
	sb_bucket_conf_t *c = st->c;
	char shown[2 * SHOW_VALUE_MAX], what[2 * SHOW_VALUE_MAX];
	char **names = NULL;
	const char *msg = NULL;
	size_t nn = 0, i, pos = 0, first = c->nnodes, speed_line = 0;
	double speed = SB_BUCKET_CONF_DEFAULT_SPEED;
	_where_t *nl;
	_tok_t t;
	int r;

	_show(shown, sizeof(shown), t0->key, t0->val);
	if (!*t0->val)
		return _bad(st, line, shown, "empty value");
	if (!strcasecmp(t0->val, "DEFAULT"))
		return _bad(st, line, shown, "not supported (a node that is "
			    "not named keeps Speed=1)");
	/* Counted before they are made: a typo must not cost gigabytes. */
	if ((r = sb_hostlist_count(t0->val, &nn, &pos, &msg)) &&
	    errno == EINVAL)
		return _bad(st, line, shown, "column %zu: %s", pos + 1, msg);
	if (r || nn > SB_BUCKET_CONF_NODES_MAX - c->nnodes)
		return _bad(st, line, shown, "more than %d node names in the "
			    "file", SB_BUCKET_CONF_NODES_MAX);
	if (sb_hostlist_expand(t0->val, &names, &nn, &pos, &msg))
		return _oom(st);
	for (i = 0; i < nn; i++)
		if (names[i][strspn(names[i], NAME_CHARS)]) {
			_show_raw(what, sizeof(what), names[i],
				  strlen(names[i]));
			sb_hostlist_free(names, nn);
			return _bad(st, line, shown, "'%s' is not a node name "
				    "(letters, digits, '.', '_', '-')", what);
		}
	if (!(nl = realloc(st->nlines, (st->nnlines + 1) * sizeof(*nl))))
		goto oom;
	st->nlines = nl;
	if (!(nl[st->nnlines].shown = strdup(shown)))
		goto oom;
	nl[st->nnlines++].line = line;
	if (c->nnodes + nn > c->cap) {
		size_t cap = 2 * c->cap + nn;
		sb_bucket_conf_node_t *v = realloc(c->nodes, cap * sizeof(*v));

		if (!v)
			goto oom;
		c->nodes = v;
		c->cap = cap;
	}
	/* The names move into the nodes; only the array is freed. */
	for (i = 0; i < nn; i++) {
		c->nodes[c->nnodes].name = names[i];
		c->nodes[c->nnodes].speed = SB_BUCKET_CONF_DEFAULT_SPEED;
		c->nodes[c->nnodes++].line = line;
	}
	free(names);
	names = NULL;
	while ((r = _token(st, line, &p, &t)) > 0) {
		_show(what, sizeof(what), t.key, t.val);
		if (strcasecmp(t.key, "Speed"))
			return _bad(st, line, what, "unknown node attribute "
				    "(known: Speed; the others come from "
				    "slurm.conf)");
		if (speed_line)
			return _bad(st, line, what, "given twice on this "
				    "line");
		if (!*t.val)
			return _bad(st, line, what, "empty value");
		if ((r = _number(t.val, &speed)) == -2)
			return _bad(st, line, what, "out of range");
		if (r)
			return _bad(st, line, what, "not a speed (a number "
				    "such as 2, 0.5 or 1e3)");
		if (!(speed > 0))
			return _bad(st, line, what, "must be greater than "
				    "0");
		speed_line = line;
	}
	if (r < 0)
		return -1;
	if (!speed_line)
		return _bad(st, line, shown, "nothing to set (known node "
			    "attributes: Speed)");
	for (i = first; i < c->nnodes; i++)
		c->nodes[i].speed = speed;
	return 0;
oom:
	sb_hostlist_free(names, nn);
	return _oom(st);
}

/* Add partition @name (@n bytes of it) of @line; 0, or -1 after the message. */
static int _part_add(_state_t *st, size_t line, const char *shown,
		     const char *name, size_t n)
{
	sb_bucket_conf_t *c = st->c;
	char what[SHOW_VALUE_MAX + 8], *copy;
	size_t at;

	_show_raw(what, sizeof(what), name, n);
	if (!n)
		return _bad(st, line, shown, "an empty name in the list");
	if (n == 7 && !strncasecmp(name, "DEFAULT", 7))
		return _bad(st, line, shown, "not supported (a partition "
			    "that is not named takes the global "
			    PART_KEYS ")");
	if (strspn(name, NAME_CHARS) < n)
		return _bad(st, line, shown, "'%s' is not a partition name "
			    "(letters, digits, '.', '_', '-')", what);
	if (!(copy = strndup(name, n)))
		return _oom(st);
	if ((at = sb_strmap_get(st->pnames, copy)) != SIZE_MAX) {
		free(copy);
		if (c->parts[at].pub.line == line)
			return _bad(st, line, shown, "partition '%s' is named "
				    "twice on this line", what);
		return _bad(st, line, shown, "partition '%s' is already "
			    "named on line %zu", what, c->parts[at].pub.line);
	}
	if (c->nparts == c->pcap) {
		size_t cap = 2 * c->pcap + 4;
		_part_t *v = realloc(c->parts, cap * sizeof(*v));

		if (!v)
			goto oom;
		c->parts = v;
		c->pcap = cap;
	}
	if (sb_strmap_put(st->pnames, copy, c->nparts))
		goto oom;
	memset(&c->parts[c->nparts], 0, sizeof(c->parts[0]));
	c->parts[c->nparts].pub.name = copy;
	c->parts[c->nparts].pub.line = line;
	c->parts[c->nparts].policies = PART_UNSET;
	c->parts[c->nparts++].prefer = -1;
	return 0;
oom:
	free(copy);
	return _oom(st);
}

/*
 * "PartitionName=NAME[,NAME...] AllowJobPolicies=... AllowJobPreferences=..."
 * (at least one of the two): what the jobs of these partitions may choose.
 */
static int _part_line(_state_t *st, size_t line, char *p, const _tok_t *t0)
{
	sb_bucket_conf_t *c = st->c;
	char shown[2 * SHOW_VALUE_MAX], what[2 * SHOW_VALUE_MAX];
	const char *name = t0->val, *e;
	size_t first = c->nparts, i;
	unsigned mask = PART_UNSET;
	int prefer = -1, r;
	bool yes = false;
	_tok_t t;

	_show(shown, sizeof(shown), t0->key, t0->val);
	if (!*t0->val)
		return _bad(st, line, shown, "empty value");
	if (!st->pnames && !(st->pnames = sb_strmap_create()))
		return _oom(st);
	for (;;) {
		e = name + strcspn(name, ",");
		if (_part_add(st, line, shown, name, (size_t) (e - name)))
			return -1;
		if (!*e)
			break;
		name = e + 1;
	}
	while ((r = _token(st, line, &p, &t)) > 0) {
		_show(what, sizeof(what), t.key, t.val);
		if (strcasecmp(t.key, _keys[KEY_JOB_POLICIES]) &&
		    strcasecmp(t.key, _keys[KEY_JOB_PREFER]))
			return _bad(st, line, what, "unknown partition "
				    "setting (known: " PART_KEYS "; the "
				    "others come from slurm.conf)");
		if (!*t.val)
			return _bad(st, line, what, "empty value");
		if (!strcasecmp(t.key, _keys[KEY_JOB_PREFER])) {
			if (prefer >= 0)
				return _bad(st, line, what, "given twice on "
					    "this line");
			if (_job_prefer(st, line, what, t.val, &yes))
				return -1;
			prefer = yes;
			continue;
		}
		if (mask != PART_UNSET)
			return _bad(st, line, what, "given twice on this "
				    "line");
		if (_job_policies(st, line, what, t.val, &mask))
			return -1;
		/* the first line that needs PriorityF, for _cross_check() */
		if ((mask & POLICY_BIT(SB_POLICY_PRIORITY)) &&
		    !st->prio_part.line) {
			if (!(st->prio_part.shown = strdup(what)))
				return _oom(st);
			st->prio_part.line = line;
		}
	}
	if (r < 0)
		return -1;
	if (mask == PART_UNSET && prefer < 0)
		return _bad(st, line, shown, "nothing to set (known partition "
			    "settings: " PART_KEYS ")");
	for (i = first; i < c->nparts; i++) {
		c->parts[i].policies = mask == PART_UNSET ? PART_UNSET :
			mask;
		c->parts[i].prefer = prefer;
	}
	return 0;
}

static int _line(_state_t *st, size_t line, char *s)
{
	char shown[2 * SHOW_VALUE_MAX], extra[SHOW_VALUE_MAX + 8];
	char *hash = strchr(s, '#'), *p = s, *e;
	_tok_t t;
	int k, r;

	if (hash)
		*hash = '\0';
	if ((r = _token(st, line, &p, &t)) <= 0)
		return r;
	if (!strcasecmp(t.key, "NodeName"))
		return _node_line(st, line, p, &t);
	if (!strcasecmp(t.key, "PartitionName"))
		return _part_line(st, line, p, &t);
	_show(shown, sizeof(shown), t.key, t.val);
	for (k = 0; k < KEY_COUNT; k++)
		if (!strcasecmp(t.key, _keys[k]))
			break;
	if (k == KEY_COUNT) {
		if (!strcasecmp(t.key, "Speed"))
			return _bad(st, line, shown, "a node attribute: it "
				    "goes on a NodeName= line, after the "
				    "names");
		return _bad(st, line, shown, "unknown key (known: "
			    "NodeAllocationPolicy, PriorityF, "
			    "AllowJobPolicies, AllowJobPreferences, "
			    "BaseSelectType, NodeName, PartitionName)");
	}
	if (st->at[k].line)
		return _bad(st, line, shown, "duplicate key (first set on "
			    "line %zu)", st->at[k].line);
	/* Before the value: an unquoted value with blanks is cut short. */
	while (_blank(*p))
		p++;
	if (*p) {
		for (e = p; *e && !_blank(*e); e++)
			;
		_show_raw(extra, sizeof(extra), p, (size_t) (e - p));
		return _bad(st, line, shown, "unexpected '%s' after the "
			    "value (one setting a line; quote a value that "
			    "has blanks)", extra);
	}
	if (!*t.val)
		return _bad(st, line, shown, "empty value");
	switch (k) {
	case KEY_POLICY:
		r = _set_policy(st, line, shown, t.val);
		break;
	case KEY_PRIORITYF:
		r = _set_priorityf(st, line, shown, t.val);
		break;
	case KEY_BASE:
		r = _set_base(st, line, shown, t.val);
		break;
	case KEY_JOB_PREFER:
		r = _job_prefer(st, line, shown, t.val, &st->prefer);
		break;
	default:
		r = _job_policies(st, line, shown, t.val, &st->listed);
		break;
	}
	if (r)
		return r;
	if (!(st->at[k].shown = strdup(shown)))
		return _oom(st);
	st->at[k].line = line;
	return 0;
}

/*
 * The checks between keys, once the file is read: the earliest line
 * among the settings that disagree is reported.
 */
static int _cross_check(_state_t *st)
{
	const unsigned prio = POLICY_BIT(SB_POLICY_PRIORITY);
	size_t line = 0;
	int k = -1;
	const char *msg = NULL;

	if (st->policy == SB_POLICY_PRIORITY && !st->c->has_pf) {
		line = st->at[KEY_POLICY].line;
		k = KEY_POLICY;
		msg = "needs PriorityF= (the PRIORITYF expression)";
	}
	if ((st->listed & prio) && !st->c->has_pf &&
	    (!line || st->at[KEY_JOB_POLICIES].line < line)) {
		line = st->at[KEY_JOB_POLICIES].line;
		k = KEY_JOB_POLICIES;
		msg = "allows PRIORITY, which needs PriorityF= (or list the "
		      "policies jobs may ask for)";
	}
	if (st->prio_part.line && !st->c->has_pf &&
	    (!line || st->prio_part.line < line)) {
		line = st->prio_part.line;
		k = KEY_COUNT;		/* the partition line's */
		msg = "allows PRIORITY, which needs PriorityF= (or list the "
		      "policies jobs may ask for)";
	}
	if (st->c->has_pf && st->policy != SB_POLICY_PRIORITY &&
	    !(st->listed & prio) && !st->prio_part.line &&
	    (!line || st->at[KEY_PRIORITYF].line < line)) {
		line = st->at[KEY_PRIORITYF].line;
		k = KEY_PRIORITYF;
		msg = "unused: only policy PRIORITY reads it (set "
		      "NodeAllocationPolicy=PRIORITY or allow PRIORITY in "
		      "AllowJobPolicies)";
	}
	if (k < 0)
		return 0;
	_msg(st, line, k == KEY_COUNT ? st->prio_part.shown : st->at[k].shown,
	     "%s", msg);
	errno = EINVAL;
	return -1;
}

static int _by_part_name(const void *pa, const void *pb)
{
	return strcmp(((const _part_t *) pa)->pub.name,
		      ((const _part_t *) pb)->pub.name);
}

/*
 * Once the file is read: a partition takes the global settings its line
 * does not give, the cluster's policy among its own; the partitions are
 * sorted by name; what some partition allows is noted for the submit
 * side (sb_bucket_conf_job_option()).
 */
static void _parts_resolve(_state_t *st)
{
	sb_bucket_conf_t *c = st->c;
	const unsigned own = POLICY_BIT(st->policy);
	size_t i;

	c->any_mask = c->job_mask;
	c->any_prefer = c->job_prefer;
	for (i = 0; i < c->nparts; i++) {
		_part_t *pt = &c->parts[i];

		pt->policies = pt->policies == PART_UNSET ? c->job_mask :
			(pt->policies | own);
		if (pt->prefer < 0)
			pt->prefer = c->job_prefer;
		c->any_mask |= pt->policies;
		c->any_prefer = c->any_prefer || pt->prefer;
	}
	if (c->nparts > 1)
		qsort(c->parts, c->nparts, sizeof(*c->parts), _by_part_name);
}

/* Parse the NUL-terminated @buf (cut in place) into st->c. */
static int _parse(_state_t *st, char *buf)
{
	sb_bucket_conf_t *c = st->c;
	size_t line = 0;
	char *s = buf, *nl;

	st->policy = SB_POLICY_FIRSTAVAILABLE;	/* Slurm's own order */
	st->listed = 0;				/* jobs choose nothing */
	st->prefer = false;			/* nor prefer anything */
	while (*s) {
		line++;
		if ((nl = strchr(s, '\n')))
			*nl = '\0';
		if (_line(st, line, s))
			return -1;
		if (!nl)
			break;
		s = nl + 1;
	}
	if (_dups(st) || _cross_check(st))
		return -1;
	if (sb_policy_init(&c->policy, sb_policy_name(st->policy),
			   st->policy == SB_POLICY_PRIORITY ? c->pf_text :
			   NULL, NULL, NULL)) {
		/* Cannot happen after the checks above; say so if it does. */
		_msg(st, 0, NULL, "internal error: policy %s refused",
		     sb_policy_name(st->policy));
		errno = EINVAL;
		return -1;
	}
	c->job_mask = st->listed | POLICY_BIT(st->policy);
	c->job_prefer = st->prefer;
	_parts_resolve(st);
	return 0;
}

static sb_bucket_conf_t *_parse_owned(char *buf, const char *file,
				      char *err, size_t errlen)
{
	_state_t st = { .file = file, .err = err, .errlen = errlen };
	sb_bucket_conf_t *c = NULL;
	size_t i;
	int saved;

	if (!(st.c = calloc(1, sizeof(*st.c)))) {
		_oom(&st);
	} else if (_parse(&st, buf)) {
		saved = errno;
		sb_bucket_conf_free(st.c);
		errno = saved;
	} else {
		c = st.c;
	}
	saved = errno;
	for (i = 0; i < KEY_COUNT; i++)
		free(st.at[i].shown);
	for (i = 0; i < st.nnlines; i++)
		free(st.nlines[i].shown);
	free(st.nlines);
	free(st.prio_part.shown);
	sb_strmap_destroy(st.pnames);
	free(buf);
	errno = saved;
	return c;
}

sb_bucket_conf_t *sb_bucket_conf_parse(const char *text, const char *name,
				       char *err, size_t errlen)
{
	_state_t st = { .file = name ? name : "bucket.conf", .err = err,
			.errlen = errlen };
	char *buf;

	if (!text) {
		_msg(&st, 0, NULL, "no text");
		errno = EINVAL;
		return NULL;
	}
	if (!(buf = strdup(text))) {
		_oom(&st);
		return NULL;
	}
	return _parse_owned(buf, st.file, err, errlen);
}

/* What a file that is not a regular one is, for the message. */
static const char *_file_kind(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a file";
}

sb_bucket_conf_t *sb_bucket_conf_load(const char *path, char *err,
				      size_t errlen)
{
	_state_t st = { .file = path, .err = err, .errlen = errlen };
	struct stat sb;
	char *buf = NULL, *nb, *zero;
	size_t len = 0, cap, line;
	ssize_t n;
	int fd, saved;

	if (!path) {
		st.file = "bucket.conf";
		_msg(&st, 0, NULL, "no file name");
		errno = EINVAL;
		return NULL;
	}
	/*
	 * Non-blocking, so that opening a FIFO does not wait for a writer;
	 * then only a regular file of bounded size is read (a link to
	 * /dev/zero would never end).
	 */
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) < 0
	    || fstat(fd, &sb))
		goto sys;
	if (S_ISDIR(sb.st_mode)) {
		errno = EISDIR;
		goto sys;
	}
	if (!S_ISREG(sb.st_mode)) {
		close(fd);
		_msg(&st, 0, NULL, "not a regular file (%s)",
		     _file_kind(sb.st_mode));
		errno = EINVAL;
		return NULL;
	}
	if (sb.st_size > SB_BUCKET_CONF_BYTES_MAX)
		goto big;
	/*
	 * Read to the end, but never more than one byte over the limit: a
	 * file may grow after fstat().
	 */
	/* One byte to see a file that grew, one for the NUL. */
	cap = (size_t) sb.st_size + 2;
	if (!(buf = malloc(cap)))
		goto oom;
	for (;;) {
		if (len + 1 == cap) {
			if (cap == SB_BUCKET_CONF_BYTES_MAX + 2)
				break;
			cap = SB_BUCKET_CONF_BYTES_MAX + 2;
			if (!(nb = realloc(buf, cap)))
				goto oom;
			buf = nb;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto sys;
		if (!n)
			break;
		len += (size_t) n;
	}
	if (len > SB_BUCKET_CONF_BYTES_MAX)
		goto big;
	close(fd);
	buf[len] = '\0';
	if ((zero = memchr(buf, '\0', len))) {
		for (line = 1, nb = buf; nb < zero; nb++)
			line += *nb == '\n';
		free(buf);
		_msg(&st, line, NULL, "a NUL byte (not a text file?)");
		errno = EINVAL;
		return NULL;
	}
	return _parse_owned(buf, path, err, errlen);
big:
	close(fd);
	free(buf);
	_msg(&st, 0, NULL, "larger than %d bytes", SB_BUCKET_CONF_BYTES_MAX);
	errno = EFBIG;
	return NULL;
oom:
	close(fd);
	free(buf);
	_oom(&st);
	return NULL;
sys:
	saved = errno ? errno : EIO;
	if (fd >= 0)
		close(fd);
	free(buf);
	_msg(&st, 0, NULL, "%s", strerror(saved));
	errno = saved;
	return NULL;
}

void sb_bucket_conf_free(sb_bucket_conf_t *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nnodes; i++)
		free((char *) c->nodes[i].name);
	free(c->nodes);
	for (i = 0; i < c->nparts; i++)
		free((char *) c->parts[i].pub.name);
	free(c->parts);
	free(c->pf_text);
	free(c);
}

/* ---- queries ----------------------------------------------------------- */

static bool _pf_equal(const sb_priorityf_t *a, const sb_priorityf_t *b)
{
	int k;

	if (a->used != b->used)
		return false;
	for (k = 0; k < SB_PF_NCOMP; k++)
		if ((a->used & (1u << k)) && a->coef[k] != b->coef[k])
			return false;
	return true;
}

int sb_bucket_conf_check(const sb_bucket_conf_t *c)
{
	const unsigned prio = POLICY_BIT(SB_POLICY_PRIORITY);
	size_t i;
	unsigned any = 0;
	bool any_prefer;

	if (!c) {
		errno = EINVAL;
		return -1;
	}
	any = c->job_mask;
	any_prefer = c->job_prefer;
	for (i = 0; i < c->nparts; i++) {
		const _part_t *pt = &c->parts[i];
		const char *name = pt->pub.name;

		if (!name || !name[0] || name[strspn(name, NAME_CHARS)] ||
		    !pt->pub.line || (pt->policies & ~ALL_POLICIES) ||
		    !(pt->policies & POLICY_BIT(c->policy.kind)) ||
		    (pt->prefer != 0 && pt->prefer != 1) ||
		    (i && strcmp(c->parts[i - 1].pub.name, name) >= 0))
			goto fault;
		any |= pt->policies;
		any_prefer = any_prefer || pt->prefer;
	}
	if ((c->nparts && !c->parts) || c->nparts > c->pcap ||
	    any != c->any_mask || any_prefer != c->any_prefer)
		goto fault;
	if ((unsigned) c->policy.kind >= SB_POLICY_COUNT ||
	    (c->job_mask & ~ALL_POLICIES) ||
	    !(c->job_mask & POLICY_BIT(c->policy.kind)) ||
	    c->has_pf != !!(any & prio) ||
	    c->has_pf != !!c->pf_text ||
	    (c->policy.kind == SB_POLICY_PRIORITY &&
	     !_pf_equal(&c->policy.pf, &c->pf)) ||
	    (c->nnodes && !c->nodes) || c->nnodes > c->cap)
		goto fault;
	for (i = 0; c->base && i < NBASES && c->base != _bases[i]; i++)
		;
	if (c->base && i == NBASES)
		goto fault;
	for (i = 0; i < c->nnodes; i++) {
		const sb_bucket_conf_node_t *n = &c->nodes[i];

		if (!n->name || !n->name[0] || !n->line ||
		    !isfinite(n->speed) || !(n->speed > 0) ||
		    (i && strcmp(c->nodes[i - 1].name, n->name) >= 0))
			goto fault;
	}
	return 0;
fault:
	errno = EFAULT;
	return -1;
}

const sb_policy_t *sb_bucket_conf_policy(const sb_bucket_conf_t *c)
{
	return &c->policy;
}

const sb_priorityf_t *sb_bucket_conf_priorityf(const sb_bucket_conf_t *c)
{
	return c->has_pf ? &c->pf : NULL;
}

const char *sb_bucket_conf_base(const sb_bucket_conf_t *c)
{
	return c->base;
}

/* The settings of partition @part, or NULL: the global ones hold. */
static const _part_t *_part(const sb_bucket_conf_t *c, const char *part)
{
	size_t lo = 0, hi = c->nparts, mid;
	int r;

	while (part && lo < hi) {
		mid = (lo + hi) / 2;
		if (!(r = strcmp(c->parts[mid].pub.name, part)))
			return &c->parts[mid];
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

bool sb_bucket_conf_job_allowed(const sb_bucket_conf_t *c, const char *part,
				sb_policy_kind_t kind)
{
	const _part_t *pt = _part(c, part);

	return (unsigned) kind < SB_POLICY_COUNT &&
	       ((pt ? pt->policies : c->job_mask) & POLICY_BIT(kind));
}

bool sb_bucket_conf_job_prefer(const sb_bucket_conf_t *c, const char *part)
{
	const _part_t *pt = _part(c, part);

	return pt ? pt->prefer : c->job_prefer;
}

int sb_bucket_conf_job_policy(const sb_bucket_conf_t *c, const char *part,
			      const char *name, sb_policy_t *out)
{
	int k;

	if (!c || !name || !out) {
		errno = EINVAL;
		return -1;
	}
	if ((k = sb_policy_lookup(name)) < 0) {
		errno = ENOENT;
		return -1;
	}
	if (!sb_bucket_conf_job_allowed(c, part, (sb_policy_kind_t) k)) {
		errno = EPERM;
		return -1;
	}
	return sb_policy_init(out, sb_policy_name((sb_policy_kind_t) k),
			      k == SB_POLICY_PRIORITY ? c->pf_text : NULL,
			      NULL, NULL);
}

int sb_bucket_conf_job_option(const sb_bucket_conf_t *c, const char *path,
			      const char *arg, char *err, size_t errlen)
{
	char shown[SB_SHOWN_BUF];
	int k = arg ? sb_policy_lookup(arg) : -1;

	if (k < 0) {
		if (err && errlen)
			snprintf(err, errlen, SB_BUCKET_CONF_JOB_OPTION "=%s: "
				 "unknown policy (expected one of %s)",
				 sb_shown(shown, sizeof(shown), arg ? arg : ""),
				 sb_policy_names());
		errno = ENOENT;
		return -1;
	}
	if (c && !(c->any_mask & POLICY_BIT(k))) {
		if (err && errlen)
			snprintf(err, errlen, SB_BUCKET_CONF_JOB_OPTION "=%s: "
				 "not allowed to jobs (AllowJobPolicies in "
				 "%s)", sb_shown(shown, sizeof(shown), arg),
				 path ? path : "bucket.conf");
		errno = EPERM;
		return -1;
	}
	return k;
}

int sb_bucket_conf_prefer_option(const sb_bucket_conf_t *c, const char *path,
				 const char *arg, char *err, size_t errlen)
{
	char shown[SB_SHOWN_BUF];

	if (!c || c->any_prefer)
		return 0;
	if (err && errlen)
		snprintf(err, errlen, SB_BUCKET_CONF_PREFER_OPTION "=%s: not "
			 "allowed to jobs (AllowJobPreferences in %s)",
			 sb_shown(shown, sizeof(shown), arg ? arg : ""),
			 path ? path : "bucket.conf");
	errno = EPERM;
	return -1;
}

size_t sb_bucket_conf_part_count(const sb_bucket_conf_t *c)
{
	return c->nparts;
}

const sb_bucket_conf_part_t *sb_bucket_conf_part_at(const sb_bucket_conf_t *c,
						    size_t i)
{
	if (i >= c->nparts) {
		errno = ERANGE;
		return NULL;
	}
	return &c->parts[i].pub;
}

const sb_bucket_conf_node_t *sb_bucket_conf_node(const sb_bucket_conf_t *c,
						 const char *name)
{
	size_t lo = 0, hi = c->nnodes, mid;
	int r;

	while (name && lo < hi) {
		mid = (lo + hi) / 2;
		if (!(r = strcmp(c->nodes[mid].name, name)))
			return &c->nodes[mid];
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	errno = ENOENT;
	return NULL;
}

size_t sb_bucket_conf_node_count(const sb_bucket_conf_t *c)
{
	return c->nnodes;
}

const sb_bucket_conf_node_t *sb_bucket_conf_node_at(const sb_bucket_conf_t *c,
						    size_t i)
{
	if (i >= c->nnodes) {
		errno = ERANGE;
		return NULL;
	}
	return &c->nodes[i];
}

/* ---- canonical form ---------------------------------------------------- */

static int _by_speed_name(const void *pa, const void *pb)
{
	const sb_bucket_conf_node_t *a = *(const sb_bucket_conf_node_t *
					   const *) pa;
	const sb_bucket_conf_node_t *b = *(const sb_bucket_conf_node_t *
					   const *) pb;

	if (a->speed != b->speed)
		return a->speed < b->speed ? -1 : 1;
	return sb_hostlist_cmp(a->name, b->name);
}

/* "AllowJobPolicies=" and @mask as NONE, ALL or the list without ours. */
static void _fmt_policies(sb_strbuf_t *b, const sb_bucket_conf_t *c,
			  unsigned mask)
{
	unsigned rest = mask & ~POLICY_BIT(c->policy.kind);
	int kind, first = 1;

	sb_strbuf_add(b, "AllowJobPolicies=");
	if (mask == ALL_POLICIES) {
		sb_strbuf_add(b, "ALL");
		return;
	}
	if (!rest)
		sb_strbuf_add(b, "NONE");
	for (kind = 0; kind < SB_POLICY_COUNT; kind++)
		if (rest & POLICY_BIT(kind)) {
			sb_strbuf_addf(b, "%s%s", first ? "" : ",",
				       sb_policy_name((sb_policy_kind_t) kind));
			first = 0;
		}
}

char *sb_bucket_conf_fmt(const sb_bucket_conf_t *c)
{
	sb_strbuf_t b = SB_STRBUF_INIT;
	const sb_bucket_conf_node_t **v = NULL;
	char **names = NULL, *pf = NULL, *hl, num[SB_PF_NUMBER_LEN];
	size_t i, j, k;

	if (!c) {
		errno = EINVAL;
		return NULL;
	}
	if ((c->nnodes && (!(v = malloc(c->nnodes * sizeof(*v))) ||
			   !(names = malloc(c->nnodes * sizeof(*names))))) ||
	    (c->has_pf && !(pf = sb_priorityf_fmt(&c->pf))))
		goto oom;
	sb_strbuf_addf(&b, "NodeAllocationPolicy=%s\n",
		       sb_policy_name(c->policy.kind));
	if (pf)
		sb_strbuf_addf(&b, "PriorityF=%s\n", pf);
	_fmt_policies(&b, c, c->job_mask);
	sb_strbuf_addf(&b, "\nAllowJobPreferences=%s\n",
		       c->job_prefer ? "YES" : "NO");
	if (c->base)
		sb_strbuf_addf(&b, "BaseSelectType=%s\n", c->base);
	for (i = 0; i < c->nnodes; i++)
		v[i] = &c->nodes[i];
	if (c->nnodes > 1)
		qsort(v, c->nnodes, sizeof(*v), _by_speed_name);
	for (i = 0; i < c->nnodes; i = j) {
		for (j = i, k = 0; j < c->nnodes && v[j]->speed == v[i]->speed;
		     j++)
			names[k++] = (char *) v[j]->name;
		if (!(hl = sb_hostlist_fmt(names, k)))
			goto oom;
		sb_priorityf_number_fmt(num, sizeof(num), v[i]->speed);
		sb_strbuf_addf(&b, "NodeName=%s Speed=%s\n", hl, num);
		free(hl);
	}
	for (i = 0; i < c->nparts; i++) {
		sb_strbuf_addf(&b, "PartitionName=%s ", c->parts[i].pub.name);
		_fmt_policies(&b, c, c->parts[i].policies);
		sb_strbuf_addf(&b, " AllowJobPreferences=%s\n",
			       c->parts[i].prefer ? "YES" : "NO");
	}
	free(v);
	free(names);
	free(pf);
	return sb_strbuf_finish(&b);
oom:
	free(sb_strbuf_finish(&b));
	free(v);
	free(names);
	free(pf);
	errno = ENOMEM;
	return NULL;
}
