/*
 * bucket_base.c - the select plugin under select/bucket: which one and
 * how it is loaded.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Where Slurm's select framework loads every select_*.so in PluginDir
 * (22.05, 24.11), the base is already in the process; loading it again
 * gives us its entry points (the same shared object: dlopen() counts
 * references, and Slurm's select/cray_aries layered over linear or
 * cons_tres the same way). Where it loads only SelectType (25.05 on),
 * this loads the base. With plugin_load_and_link(), not a plugin
 * context: programs linked with the public libslurm.so load us too, and
 * it exports that function (slurm_plugin_load_and_link) where it
 * exports no plugin_context_create() (24.11 on). The base's symbols are
 * the framework's own, in its order (g_syms[], from select_ops.def as
 * sb_select_ops_t). Its node and job data, where the framework has
 * them, are select_data.c's.
 */
#include "config.h"

#include <stddef.h>

#include "sb_slurm.h"

#include "select_bucket.h"

sb_select_ops_t base;

/* The base's symbols, in sb_select_ops_t's order. */
#define SB_LIST_IF(c, x) SB_LIST_IF_(c, x)
#define SB_LIST_IF_(c, x) SB_LIST_IF_##c(x)
#define SB_LIST_IF_0(x)
#define SB_LIST_IF_1(x) x,
#define SB_STR(s) #s
static const char *g_syms[] = {
	"plugin_id",
#define SB_SELECT_OP(field, sym, ret, params, ...) \
	SB_LIST_IF(SB_SELECT_OP_##field, SB_STR(sym))
#include "select_ops.def"
#undef SB_SELECT_OP
};

_Static_assert(sizeof(g_syms) == sizeof(sb_select_ops_t),
	       "one symbol per entry of sb_select_ops_t");
/* job_test()'s trailing arguments (traits) are the framework's own. */
_Static_assert(__builtin_types_compatible_p(__typeof__(&select_g_job_test),
					    __typeof__(base.job_test)),
	       "sb_select_ops_t.job_test takes select_g_job_test()'s arguments");
static plugin_handle_t g_plugin = PLUGIN_INVALID_HANDLE;
static char *g_name = NULL;
static pthread_mutex_t g_base_lock = PTHREAD_MUTEX_INITIALIZER;

/* BaseSelectType of bucket.conf next to slurm.conf, or NULL. */
static const char *_file_base(void)
{
	char *path = get_extra_conf_path("bucket.conf");
	sb_bucket_conf_t *c = sb_bucket_conf_load(path, NULL, 0);
	const char *name = c ? sb_bucket_conf_base(c) : NULL;

	/* unreadable or bad: slurmctld, which reads it too, says why */
	sb_bucket_conf_free(c);
	xfree(path);
	return name;	/* a static string */
}

extern const char *base_configured(const sb_bucket_conf_t *conf)
{
	const char *file = conf ? sb_bucket_conf_base(conf) : _file_base();
	const char *params = sb_base_from_slurm_conf();

	if (file && params && xstrcmp(file, params)) {
		/* (no select_type_param_string(): not in libslurm.so) */
		error(BUCKET_PFX "bucket.conf's BaseSelectType=%s and SelectTypeParameters (which names %s) name different base plugins: keep one",
		      file, params);
		return NULL;
	}
	if (file)
		return file;
	return params ? params : "select/linear";
}

extern int base_load_type(const char *type)
{
	int rc = SLURM_SUCCESS;

	slurm_mutex_lock(&g_base_lock);
	if (g_plugin != PLUGIN_INVALID_HANDLE)
		goto done;
	g_plugin = plugin_load_and_link(type, ARRAY_SIZE(g_syms), g_syms,
					(void **) &base);
	if (g_plugin == PLUGIN_INVALID_HANDLE) {
		error(BUCKET_PFX "cannot load the base plugin %s: is it in PluginDir (Slurm %s has select/linear and select/cons_tres)?",
		      type, SB_SLURM_RELEASE);
		rc = SLURM_ERROR;
		goto done;
	}
	g_name = xstrdup(type);
	offers_base_loaded();
	/* before select_g_init() asks running_cons_tres(), where it does */
	sb_plugin_id_follow_base(&plugin_id, *base.plugin_id);
	debug("base plugin %s loaded (plugin_id %u)", type, *base.plugin_id);
done:
	slurm_mutex_unlock(&g_base_lock);
	return rc;
}

extern int base_load(const sb_bucket_conf_t *conf)
{
	const char *type = base_configured(conf);

	return type ? base_load_type(type) : SLURM_ERROR;
}

extern bool base_ready(void)
{
	return (g_plugin != PLUGIN_INVALID_HANDLE) ||
	       (base_load(NULL) == SLURM_SUCCESS);
}

extern void base_unload(void)
{
	slurm_mutex_lock(&g_base_lock);
	plugin_unload(g_plugin);	/* its fini(), if loaded */
	g_plugin = PLUGIN_INVALID_HANDLE;
	xfree(g_name);
	slurm_mutex_unlock(&g_base_lock);
}

extern const char *base_name(void)
{
	return g_name;
}

extern bool base_is_cons(void)
{
	return (g_plugin != PLUGIN_INVALID_HANDLE) &&
	       (*base.plugin_id != SELECT_PLUGIN_LINEAR);
}
