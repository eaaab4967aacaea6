/*
 * select_data.c - select/bucket's node and job data, where the select
 * framework has them (select_data.h): what we pack and unpack around
 * the base's, and our lines in 'scontrol show config'. The other data,
 * state and step entries pass the call to the base as they are
 * (plugins/compat/select_forward.c).
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * All of it is the base's. Node data travel tagged with *our* plugin_id
 * (the cluster's SelectType), so every program that unpacks them calls
 * our unpack: we put the base's plugin_id in front of the base's own
 * bytes, so a program that runs another base (a configuration that
 * differs from slurmctld's) refuses the data with one line instead of
 * misreading it, and a program that does not run select/bucket loads the
 * base that packed them. Node data are never saved. Job data are saved
 * with the job, so their form must outlive an upgrade: where the
 * framework prints jobs' data (jobinfo_xstrdup: 22.05) they carry the
 * same header, which lets a slurmctld switched back to the base read the
 * jobs we saved; elsewhere (24.11) the base's own bytes alone (none),
 * because the next releases read exactly Slurm's 4-byte plugin id there
 * and nothing after it (SB_JOB_DATA_HEADER, sb_select.h). Our lines in 'scontrol show config' come from here too
 * (SELECT_CONFIG_INFO).
 */
#include "config.h"

#include <string.h>

#include "sb_slurm.h"

#include "select_data.h"

/*
 * The bases BaseSelectType may name, by the plugin_id they pack data
 * with. Slurm's select_plugin_id_to_string() would say it too, but the
 * public libslurm.so does not export it, and its programs unpack our
 * data as well (slurm_load_jobs(), slurm_load_node()).
 */
static const struct {
	uint32_t id;
	const char *type;
} _bases[] = {
	{ SELECT_PLUGIN_LINEAR, "select/linear" },
	{ SELECT_PLUGIN_CONS_TRES, "select/cons_tres" },
	{ SELECT_PLUGIN_CONS_RES, "select/cons_res" },
};

/*
 * Make sure the base that packed data with plugin_id @id is loaded:
 * the configured one, or (when this program is not running select/bucket
 * any more, the base was never loaded) the one that packed it.
 */
static int _base_for(uint32_t id)
{
	const char *type = NULL;
	size_t i;

	if (!base_name()) {
		for (i = 0; !type && (i < ARRAY_SIZE(_bases)); i++)
			if (_bases[i].id == id)
				type = _bases[i].type;
		if (!type) {
			error(BUCKET_PFX "data packed by an unknown base plugin (plugin_id %u)",
			      id);
			return SLURM_ERROR;
		}
		if (base_load_type(type) != SLURM_SUCCESS)
			return SLURM_ERROR;
	}
	if (*base.plugin_id != id) {
		error(BUCKET_PFX "data packed over the base plugin with plugin_id %u, but this program runs %s (%u): its bucket.conf (BaseSelectType) or slurm.conf differs from slurmctld's",
		      id, base_name(), *base.plugin_id);
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
	return _base_for(id);
unpack_error:
	error(BUCKET_PFX "%s data too short", what);
	return SLURM_ERROR;
}

static int _nodeinfo_pack(select_nodeinfo_t *ni, buf_t *buffer,
			  uint16_t protocol_version)
{
	if (base_header_pack(buffer) != SLURM_SUCCESS)
		return SLURM_ERROR;
	return (*base.nodeinfo_pack)(ni, buffer, protocol_version);
}

static int _nodeinfo_unpack(select_nodeinfo_t **ni, buf_t *buffer,
			    uint16_t protocol_version)
{
	*ni = NULL;
	if (base_header_unpack(buffer, "node") != SLURM_SUCCESS)
		return SLURM_ERROR;
	return (*base.nodeinfo_unpack)(ni, buffer, protocol_version);
}

extern int select_p_select_nodeinfo_pack(select_nodeinfo_t *nodeinfo,
					 buf_t *buffer,
					 uint16_t protocol_version)
{
	return _nodeinfo_pack(nodeinfo, buffer, protocol_version);
}

extern int select_p_select_nodeinfo_unpack(select_nodeinfo_t **nodeinfo,
					   buf_t *buffer,
					   uint16_t protocol_version)
{
	return _nodeinfo_unpack(nodeinfo, buffer, protocol_version);
}

static void _add_pair(list_t *l, const char *name, const char *value)
{
	config_key_pair_t *p = xmalloc(sizeof(*p));

	p->name = xstrdup(name);
	p->value = xstrdup(value);
	list_append(l, p);
}

/* The base, bucket.conf's effective settings, for 'scontrol show config'. */
static void _config_pairs(list_t *l)
{
	char *text, *line, *save = NULL, *eq, buf[64];

	_add_pair(l, "BaseSelectType", base_name());
	slurm_mutex_lock(&bucket_lock);
	_add_pair(l, "BucketConf", bucket_conf_file());
	snprintf(buf, sizeof(buf), "%zu",
		 sb_bucket_set_size(bucket_state.set));
	_add_pair(l, "NodeBuckets", buf);
	if (bucket_conf && (text = sb_bucket_conf_fmt(bucket_conf))) {
		for (line = strtok_r(text, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			if (!(eq = strchr(line, '=')))
				continue;
			*eq = '\0';
			/* the base in use is the first line */
			if (!strcmp(line, "BaseSelectType"))
				continue;
			if (!strcmp(line, "NodeName")) {
				/* "n[1-4] Speed=2" */
				_add_pair(l, "NodeSpeed", eq + 1);
				continue;
			}
			if (!strcmp(line, "PartitionName")) {
				/* "gpu AllowJobPolicies=... AllowJobPreferences=..." */
				_add_pair(l, "PartitionChoices", eq + 1);
				continue;
			}
			_add_pair(l, line, eq + 1);
		}
		free(text);
	}
	slurm_mutex_unlock(&bucket_lock);
}

extern int select_p_get_info_from_plugin(enum select_plugindata_info dinfo,
					 job_record_t *job_ptr, void *data)
{
	list_t **l = data;
	int rc;

	/* what we answer ourselves (one call with every node, if asked) */
	if (offers_get_info(dinfo, data))
		return SLURM_SUCCESS;
	if (dinfo != SELECT_CONFIG_INFO)
		return (*base.get_info_from_plugin)(dinfo, job_ptr, data);
	/* the base's lines (if it has any), then ours */
	*l = NULL;
	rc = (*base.get_info_from_plugin)(dinfo, job_ptr, data);
	if (!bucket_in_ctld())
		return rc;
	if (!*l)
		*l = list_create(destroy_config_key_pair);
	_config_pairs(*l);
	return SLURM_SUCCESS;
}

extern int select_p_select_jobinfo_pack(select_jobinfo_t *jobinfo,
					buf_t *buffer,
					uint16_t protocol_version)
{
	if (SB_JOB_DATA_HEADER) {
		if (base_header_pack(buffer) != SLURM_SUCCESS)
			return SLURM_ERROR;
	} else if (!base_ready()) {
		return SLURM_SUCCESS;
	}
	return (*base.jobinfo_pack)(jobinfo, buffer, protocol_version);
}

extern int select_p_select_jobinfo_unpack(select_jobinfo_t **jobinfo,
					  buf_t *buffer,
					  uint16_t protocol_version)
{
	*jobinfo = NULL;
	if (SB_JOB_DATA_HEADER) {
		if (base_header_unpack(buffer, "job") != SLURM_SUCCESS)
			return SLURM_ERROR;
	} else if (!base_ready()) {
		return SLURM_SUCCESS;
	}
	return (*base.jobinfo_unpack)(jobinfo, buffer, protocol_version);
}
