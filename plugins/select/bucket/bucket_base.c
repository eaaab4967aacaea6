/*
 * bucket_base.c - the select plugin under select/bucket: which one, how
 * it is loaded, and its node and job data on the wire.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Slurm's select framework loads every select_*.so in PluginDir, so the
 * base is already in the process; a plugin context of our own gives us
 * its entry points (the same shared object: dlopen() counts references,
 * and Slurm's select/cray_aries layers over linear or cons_tres the same
 * way). The symbol names below are the framework's operation table,
 * slurm_select_ops_t of src/common/select.h, in its order.
 *
 * Node and job data travel tagged with *our* plugin_id (the cluster's
 * SelectType), so every program that unpacks them calls our unpack. We
 * put the base's plugin_id in front of the base's own bytes: a program
 * that runs another base (a slurm.conf that differs from slurmctld's)
 * refuses the data with one line instead of misreading it, and a
 * slurmctld that is no longer select/bucket (the site switched back to
 * the base) still reads the job state we saved, by loading that base.
 */
#include "config.h"

#include <stddef.h>

#include "sb_slurm.h"

#include "select_bucket.h"

/* slurm_select_ops_t, field by field. */
static const char *_syms[] = {
	"plugin_id",
	"select_p_state_save",
	"select_p_state_restore",
	"select_p_job_init",
	"select_p_node_init",
	"select_p_job_test",
	"select_p_job_begin",
	"select_p_job_ready",
	"select_p_job_expand",
	"select_p_job_resized",
	"select_p_job_signal",
	"select_p_job_fini",
	"select_p_job_suspend",
	"select_p_job_resume",
	"select_p_step_pick_nodes",
	"select_p_step_start",
	"select_p_step_finish",
	"select_p_select_nodeinfo_pack",
	"select_p_select_nodeinfo_unpack",
	"select_p_select_nodeinfo_alloc",
	"select_p_select_nodeinfo_free",
	"select_p_select_nodeinfo_set_all",
	"select_p_select_nodeinfo_set",
	"select_p_select_nodeinfo_get",
	"select_p_select_jobinfo_alloc",
	"select_p_select_jobinfo_free",
	"select_p_select_jobinfo_set",
	"select_p_select_jobinfo_get",
	"select_p_select_jobinfo_copy",
	"select_p_select_jobinfo_pack",
	"select_p_select_jobinfo_unpack",
	"select_p_select_jobinfo_sprint",
	"select_p_select_jobinfo_xstrdup",
	"select_p_get_info_from_plugin",
	"select_p_update_node_config",
	"select_p_reconfigure",
	"select_p_resv_test",
};

_Static_assert(sizeof(_syms) == sizeof(slurm_select_ops_t),
	       "one symbol per entry of slurm_select_ops_t");

slurm_select_ops_t base;
static plugin_context_t *g_context = NULL;
static char *g_name = NULL;
static uint32_t g_single = 0;
static pthread_mutex_t g_base_lock = PTHREAD_MUTEX_INITIALIZER;

/* The base SelectTypeParameters asks for. */
static const char *_configured(void)
{
	if (slurm_conf.select_type_param & CR_OTHER_CONS_TRES)
		return "select/cons_tres";
	if (slurm_conf.select_type_param & CR_OTHER_CONS_RES)
		return "select/cons_res";
	return "select/linear";
}

static int _load(const char *type)
{
	int rc = SLURM_SUCCESS;

	slurm_mutex_lock(&g_base_lock);
	if (g_context)
		goto done;
	g_context = plugin_context_create("select", type, (void **) &base,
					  _syms, sizeof(_syms));
	if (!g_context) {
		error(BUCKET_PFX "cannot load the base plugin %s (SelectTypeParameters=%s): is it in PluginDir?",
		      type, select_type_param_string(
			      slurm_conf.select_type_param));
		rc = SLURM_ERROR;
		goto done;
	}
	g_name = xstrdup(type);
	/* linear answers without setting it: 0 stays */
	g_single = 0;
	(void) (*base.get_info_from_plugin)(SELECT_SINGLE_JOB_TEST, NULL,
					    &g_single);
	debug("base plugin %s loaded (plugin_id %u, one job_test call with every node: %s)",
	      type, *base.plugin_id, g_single ? "yes" : "no");
done:
	slurm_mutex_unlock(&g_base_lock);
	return rc;
}

extern int base_load(void)
{
	return _load(_configured());
}

extern bool base_ready(void)
{
	return g_context || (base_load() == SLURM_SUCCESS);
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

extern bool base_single_test(void)
{
	return g_single != 0;
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
static int _base_for(uint32_t id)
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
		error(BUCKET_PFX "data packed over the base plugin with plugin_id %u, but this program runs %s (%u): SelectTypeParameters differ from slurmctld's",
		      id, g_name, *base.plugin_id);
		return SLURM_ERROR;
	}
	return SLURM_SUCCESS;
}

/* Our header: the base's plugin_id. */
static int _header_pack(buf_t *buffer)
{
	if (!base_ready())
		return SLURM_ERROR;
	pack32(*base.plugin_id, buffer);
	return SLURM_SUCCESS;
}

/* Read our header and make sure that base is loaded; @what: "node", "job". */
static int _header_unpack(buf_t *buffer, const char *what)
{
	uint32_t id;

	safe_unpack32(&id, buffer);
	return _base_for(id);
unpack_error:
	error(BUCKET_PFX "%s data too short", what);
	return SLURM_ERROR;
}

extern int base_nodeinfo_pack(select_nodeinfo_t *ni, buf_t *buffer,
			      uint16_t protocol_version)
{
	if (_header_pack(buffer) != SLURM_SUCCESS)
		return SLURM_ERROR;
	return (*base.nodeinfo_pack)(ni, buffer, protocol_version);
}

extern int base_nodeinfo_unpack(select_nodeinfo_t **ni, buf_t *buffer,
				uint16_t protocol_version)
{
	*ni = NULL;
	if (_header_unpack(buffer, "node") != SLURM_SUCCESS)
		return SLURM_ERROR;
	return (*base.nodeinfo_unpack)(ni, buffer, protocol_version);
}

extern int base_jobinfo_pack(select_jobinfo_t *ji, buf_t *buffer,
			     uint16_t protocol_version)
{
	if (_header_pack(buffer) != SLURM_SUCCESS)
		return SLURM_ERROR;
	return (*base.jobinfo_pack)(ji, buffer, protocol_version);
}

extern int base_jobinfo_unpack(select_jobinfo_t **ji, buf_t *buffer,
			       uint16_t protocol_version)
{
	*ji = NULL;
	if (_header_unpack(buffer, "job") != SLURM_SUCCESS)
		return SLURM_ERROR;
	return (*base.jobinfo_unpack)(ji, buffer, protocol_version);
}
