/*
 * bucket_base.c - the select plugin under select/bucket: which one, how
 * it is loaded, and its node and job data on the wire.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Slurm's select framework loads every select_*.so in PluginDir (22.05,
 * 24.11), so the base is already in the process; a plugin context of our
 * own gives us its entry points (the same shared object: dlopen() counts
 * references, and Slurm's select/cray_aries layered over linear or
 * cons_tres the same way). Its symbols, in the framework's order, are
 * the series' (series_base_syms[]).
 *
 * Node data travel tagged with *our* plugin_id (the cluster's
 * SelectType), so every program that unpacks them calls our unpack. We
 * put the base's plugin_id in front of the base's own bytes: a program
 * that runs another base (a configuration that differs from slurmctld's)
 * refuses the data with one line instead of misreading it, and a program
 * that does not run select/bucket loads the base that packed them. Node
 * data are never saved. Job data are saved with the job, so their form
 * is the series' (select_series.c): on 22.05 the same header, which lets
 * a slurmctld switched back to the base read the jobs we saved; on 24.11
 * the base's own bytes alone (none), because 26.05 reads exactly Slurm's
 * 4-byte plugin id there and nothing after it.
 */
#include "config.h"

#include <stddef.h>

#include "sb_slurm.h"

#include "select_bucket.h"

sb_select_ops_t base;
static plugin_context_t *g_context = NULL;
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
	const char *params = series_base_from_slurm_conf();

	if (file && params && xstrcmp(file, params)) {
		error(BUCKET_PFX "bucket.conf's BaseSelectType=%s and SelectTypeParameters=%s name different base plugins (%s): keep one",
		      file, select_type_param_string(
			      slurm_conf.select_type_param), params);
		return NULL;
	}
	if (file)
		return file;
	return params ? params : "select/linear";
}

static int _load(const char *type)
{
	int rc = SLURM_SUCCESS;

	slurm_mutex_lock(&g_base_lock);
	if (g_context)
		goto done;
	g_context = plugin_context_create("select", type, (void **) &base,
					  series_base_syms,
					  series_base_syms_size);
	if (!g_context) {
		error(BUCKET_PFX "cannot load the base plugin %s: is it in PluginDir (Slurm %s has select/linear and select/cons_tres)?",
		      type, SB_SLURM_SERIES);
		rc = SLURM_ERROR;
		goto done;
	}
	g_name = xstrdup(type);
	series_base_loaded();
	debug("base plugin %s loaded (plugin_id %u)", type, *base.plugin_id);
done:
	slurm_mutex_unlock(&g_base_lock);
	return rc;
}

extern int base_load(const sb_bucket_conf_t *conf)
{
	const char *type = base_configured(conf);

	return type ? _load(type) : SLURM_ERROR;
}

extern bool base_ready(void)
{
	return g_context || (base_load(NULL) == SLURM_SUCCESS);
}

extern void base_unload(void)
{
	slurm_mutex_lock(&g_base_lock);
	if (g_context && (plugin_context_destroy(g_context) != SLURM_SUCCESS))
		error(BUCKET_PFX "cannot unload the base plugin %s", g_name);
	g_context = NULL;
	xfree(g_name);
	slurm_mutex_unlock(&g_base_lock);
}

extern const char *base_name(void)
{
	return g_name;
}

extern bool base_is_cons(void)
{
	return g_context && (*base.plugin_id != SELECT_PLUGIN_LINEAR);
}

/*
 * Make sure the base that packed data with plugin_id @id is loaded:
 * the configured one, or (when this program is not running select/bucket
 * any more, the base was never loaded) the one that packed it.
 */
extern int base_for(uint32_t id)
{
	char *name, *type;
	int rc;

	if (!g_context) {
		name = select_plugin_id_to_string((int) id);
		if (!name) {
			error(BUCKET_PFX "data packed by an unknown base plugin (plugin_id %u)",
			      id);
			return SLURM_ERROR;
		}
		type = xstrdup_printf("select/%s", name);
		rc = _load(type);
		xfree(type);
		if (rc != SLURM_SUCCESS)
			return rc;
	}
	if (*base.plugin_id != id) {
		error(BUCKET_PFX "data packed over the base plugin with plugin_id %u, but this program runs %s (%u): its bucket.conf (BaseSelectType) or slurm.conf differs from slurmctld's",
		      id, g_name, *base.plugin_id);
		return SLURM_ERROR;
	}
	return SLURM_SUCCESS;
}

extern int base_header_pack(buf_t *buffer)
{
	if (!base_ready())
		return SLURM_ERROR;
	pack32(*base.plugin_id, buffer);
	return SLURM_SUCCESS;
}

/* Read our header and make sure that base is loaded; @what: "node", "job". */
extern int base_header_unpack(buf_t *buffer, const char *what)
{
	uint32_t id;

	safe_unpack32(&id, buffer);
	return base_for(id);
unpack_error:
	error(BUCKET_PFX "%s data too short", what);
	return SLURM_ERROR;
}

extern int base_nodeinfo_pack(select_nodeinfo_t *ni, buf_t *buffer,
			      uint16_t protocol_version)
{
	if (base_header_pack(buffer) != SLURM_SUCCESS)
		return SLURM_ERROR;
	return (*base.nodeinfo_pack)(ni, buffer, protocol_version);
}

extern int base_nodeinfo_unpack(select_nodeinfo_t **ni, buf_t *buffer,
				uint16_t protocol_version)
{
	*ni = NULL;
	if (base_header_unpack(buffer, "node") != SLURM_SUCCESS)
		return SLURM_ERROR;
	return (*base.nodeinfo_unpack)(ni, buffer, protocol_version);
}
