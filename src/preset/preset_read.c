/*
 * Reading presets (preset_load of preset.h). libconfig parses the file;
 * everything after that is ours: the schema (format, version, the groups
 * of the model's dotted keys), "inherits" (libconfig 1.5 cannot override a
 * setting, so a preset cannot simply @include its base and change it),
 * and error reports that name the file, line and key of every problem.
 */
#include "preset.h"

#include <errno.h>
#include <libconfig.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/util.h"

#include "preset_internal.h"
#include "preset_io.h"
#include "preset_path.h"

#define PRESET_FORMAT "rdscope-preset"
#define PRESET_VERSION 1
/* A preset is a page of text; a larger file is not one. It is read once
 * (a pipe such as `-p <(...)` can be read only once), whole. */
#define PRESET_MAX_BYTES (1u << 20)

/* Settings of a preset that are not model keys. */
static const char *const preset_meta_names[] = {"format", "version", "name", "description",
						"inherits"};
#define PRESET_NMETA (sizeof preset_meta_names / sizeof preset_meta_names[0])

/* Is name the first part of some dotted key ("l1" of "l1.ways")? */
static int is_group_name(const char *name)
{
	size_t n = strlen(name);
	for (const rd_key *k = rd_keys; k->name; k++)
		if (strncmp(k->name, name, n) == 0 && k->name[n] == '.')
			return 1;
	return 0;
}

/*
 * "did you mean" over every name a preset may use: the meta settings, the
 * dotted keys and their group names. The hint is copied to out ("" none).
 */
static void preset_suggest(const char *word, char *out, size_t len)
{
	const char *names[160];
	char groups[8][32];
	size_t n = 0, ng = 0;
	for (size_t i = 0; i < PRESET_NMETA; i++)
		names[n++] = preset_meta_names[i];
	for (const rd_key *k = rd_keys; k->name && n + 2 < sizeof names / sizeof names[0]; k++) {
		names[n++] = k->name;
		const char *dot = strchr(k->name, '.');
		if (!dot || ng == 8 || (size_t)(dot - k->name) >= sizeof groups[0])
			continue;
		snprintf(groups[ng], sizeof groups[0], "%.*s", (int)(dot - k->name), k->name);
		size_t g = 0;
		while (g < ng && strcmp(groups[g], groups[ng]) != 0)
			g++;
		if (g == ng)
			names[n++] = groups[ng++];
	}
	const char *s = suggest_closest(word, names, n);
	if (!s)
		s = suggest_key(word); /* "ways" at the top: "l1.ways" */
	snprintf(out, len, "%s", s ? s : "");
}

/* "NAME: unknown WHAT; did you mean 'X'?", or NAME: unknown WHAT and the
 * fallback text when nothing is close. */
static void report_unknown(preset_ctx *x, const char *file, unsigned line, const char *name,
			   const char *what, const char *fallback)
{
	char hint[64];
	preset_suggest(name, hint, sizeof hint);
	if (hint[0])
		preset_error(x, file, line, "%s: unknown %s; did you mean '%s'?", name, what, hint);
	else
		preset_error(x, file, line, "%s: unknown %s%s", name, what, fallback);
}

/*
 * The setting's value as the text rd_config_set takes, or -1 after
 * reporting a value of the wrong type.
 */
static int setting_text(preset_ctx *x, const config_setting_t *s, const char *key,
			const rd_key *k, char *buf, size_t len)
{
	int t = config_setting_type(s);
	const char *file = x->shown[x->depth - 1]; /* the file being applied */
	unsigned line = config_setting_source_line(s);
	const char *want = NULL;
	switch (k->type) {
	case RD_KEY_UINT:
		if (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64)
			snprintf(buf, len, "%lld", config_setting_get_int64(s));
		else if (t == CONFIG_TYPE_STRING && strcmp(key, "seed") == 0)
			/* libconfig integers are signed 64-bit: seeds from 2^63
			 * up can only be written as a string. */
			snprintf(buf, len, "%s", config_setting_get_string(s));
		else
			want = "an integer";
		break;
	case RD_KEY_DOUBLE:
		if (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64)
			snprintf(buf, len, "%lld", config_setting_get_int64(s));
		else if (t == CONFIG_TYPE_FLOAT)
			snprintf(buf, len, "%.17g", config_setting_get_float(s));
		else
			want = "a number";
		break;
	case RD_KEY_BOOL:
		if (t == CONFIG_TYPE_BOOL)
			snprintf(buf, len, "%d", config_setting_get_bool(s) ? 1 : 0);
		else if (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64)
			snprintf(buf, len, "%lld", config_setting_get_int64(s));
		else
			want = "true or false";
		break;
	case RD_KEY_ENUM:
		if (t == CONFIG_TYPE_STRING)
			snprintf(buf, len, "%s", config_setting_get_string(s));
		else
			want = "a string";
		break;
	}
	if (!want)
		return 0;
	if (k->type == RD_KEY_ENUM && k->choices)
		preset_error(x, file, line, "%s: expected a string (%s), got %s", key, k->choices,
			     cfgtype_name(t));
	else
		preset_error(x, file, line, "%s: expected %s, got %s", key, want, cfgtype_name(t));
	return -1;
}

/* Apply one model key; remember where it was set. */
static void apply_key(preset_ctx *x, const config_setting_t *s, const char *key, rd_config *cfg)
{
	const char *file = x->shown[x->depth - 1]; /* the file being applied */
	unsigned line = config_setting_source_line(s);
	int i = preset_key_index(key);
	if (i < 0) {
		report_unknown(x, file, line, key, "key", " (see 'rdscope keys')");
		return;
	}
	char text[512], err[512];
	if (setting_text(x, s, key, &rd_keys[i], text, sizeof text) < 0) {
		x->bad[i] = 1;
		return;
	}
	if (rd_config_set(cfg, key, text, err, sizeof err) < 0) {
		preset_error(x, file, line, "%s", err);
		x->bad[i] = 1;
		return;
	}
	free(x->origin_file[i]);
	x->origin_file[i] = strdup(file ? file : "");
	x->origin_line[i] = line;
}

/* mem = { NAME = "SPACE"; ... }: the placements (names vary per kernel,
 * so they are not rows of the key table). */
static void apply_mem(preset_ctx *x, const config_setting_t *g, rd_config *cfg)
{
	const char *file = x->shown[x->depth - 1];
	for (int i = 0; i < config_setting_length(g); i++) {
		const config_setting_t *s = config_setting_get_elem(g, (unsigned)i);
		unsigned line = config_setting_source_line(s);
		char key[256], err[512];
		snprintf(key, sizeof key, "mem.%s", config_setting_name(s));
		if (config_setting_type(s) != CONFIG_TYPE_STRING) {
			preset_error(x, file, line,
				     "%s: expected a string (global|texture|texture2d|constant|shared), "
				     "got %s", key, cfgtype_name(config_setting_type(s)));
			continue;
		}
		if (rd_config_set(cfg, key, config_setting_get_string(s), err, sizeof err) < 0)
			preset_error(x, file, line, "%s", err);
	}
}

static void apply_group(preset_ctx *x, const config_setting_t *g, rd_config *cfg)
{
	const char *group = config_setting_name(g);
	for (int i = 0; i < config_setting_length(g); i++) {
		const config_setting_t *s = config_setting_get_elem(g, (unsigned)i);
		char key[256];
		snprintf(key, sizeof key, "%s.%s", group, config_setting_name(s));
		apply_key(x, s, key, cfg);
	}
}

static int is_meta(const char *name)
{
	for (size_t i = 0; i < PRESET_NMETA; i++)
		if (strcmp(name, preset_meta_names[i]) == 0)
			return 1;
	return 0;
}

/* format, version, name, description, inherits: their types and values. */
static void check_meta(preset_ctx *x, const char *path, const config_setting_t *root,
		       const config_setting_t **inherits)
{
	*inherits = NULL;
	const config_setting_t *s = config_setting_get_member(root, "format");
	if (!s)
		preset_error(x, path, 1, "format: missing; a preset starts with format = \"%s\";",
			     PRESET_FORMAT);
	else if (config_setting_type(s) != CONFIG_TYPE_STRING ||
		 strcmp(config_setting_get_string(s), PRESET_FORMAT) != 0)
		preset_error(x, path, config_setting_source_line(s),
			     "format: must be \"%s\" (is this an rdscope preset?)", PRESET_FORMAT);
	s = config_setting_get_member(root, "version");
	if (!s)
		preset_error(x, path, 1, "version: missing; this rdscope reads version = %d;",
			     PRESET_VERSION);
	else if (config_setting_type(s) != CONFIG_TYPE_INT)
		preset_error(x, path, config_setting_source_line(s), "version: expected an integer, got %s",
			     cfgtype_name(config_setting_type(s)));
	else if (config_setting_get_int(s) != PRESET_VERSION)
		preset_error(x, path, config_setting_source_line(s),
			     "version: %d is not supported (this rdscope reads version %d)",
			     config_setting_get_int(s), PRESET_VERSION);
	static const char *const strings[] = {"name", "description", "inherits"};
	for (int i = 0; i < 3; i++) {
		s = config_setting_get_member(root, strings[i]);
		if (s && config_setting_type(s) != CONFIG_TYPE_STRING)
			preset_error(x, path, config_setting_source_line(s), "%s: expected a string, got %s",
				     strings[i], cfgtype_name(config_setting_type(s)));
		else if (s && i == 2)
			*inherits = s;
	}
}

/*
 * Parse a preset's text: 0, or -1 with the line and reason. Presets inherit
 * instead of including, and libconfig 1.5 exit()s the whole process when
 * an include names something its scanner cannot read (`@include "."`;
 * upstream libconfig issue 292), so no text with one is handed to it; nor
 * one nested deeper than libconfig's recursion should go.
 */
static int parse_text(config_t *cf, const char *text, unsigned *line, const char **why)
{
	if ((*line = cfg_include_line(text))) {
		*why = "@include is not supported in presets (use inherits = \"NAME\";)";
		return -1;
	}
	if ((*line = cfg_nesting_line(text, CFG_MAX_NEST))) {
		*why = "groups and lists nested too deeply";
		return -1;
	}
	if (config_read_string(cf, text))
		return 0;
	*line = (unsigned)config_error_line(cf);
	*why = config_error_text(cf);
	return -1;
}

/* Read and syntax-check a file; 0, or -1 after reporting why not. */
static int read_config(preset_ctx *x, config_t *cf, const char *path, const char *from,
		       unsigned from_line)
{
	char why[256];
	char *text = cfg_read_text(path, PRESET_MAX_BYTES, "preset", why, sizeof why);
	if (!text) {
		if (from)
			preset_error(x, from, from_line, "inherits: %s: %s", path, why);
		else
			preset_error(x, path, 0, "%s", why);
		return -1;
	}
	unsigned line;
	const char *msg;
	/* integers beyond 32 bits read as written, not truncated by libconfig */
	long wide = cfg_widen_ints(&text);
	if (wide) {
		if (wide < 0)
			preset_error(x, path, 0, "out of memory");
		else
			preset_error(x, path, (unsigned)wide, "an integer beyond 64 bits (%lld to %lld, "
							      "hex up to 16 digits)",
				     (long long)INT64_MIN, (long long)INT64_MAX);
		free(text);
		return -1;
	}
	int rc = parse_text(cf, text, &line, &msg);
	if (rc < 0)
		preset_error(x, path, line, "%s", msg);
	free(text);
	return rc;
}

static int preset_read(preset_ctx *x, const char *path, rd_config *cfg, const char *from,
		       unsigned from_line);

/* The file of the base spec that the preset at path inherits: 0 with it
 * in base, or -1 with the reason in err. */
static int inherited_path(const char *path, const char *spec, char *base, size_t len, char *err,
			  size_t errlen)
{
	if (!preset_path_is_file(spec))
		return preset_path_find(spec, base, len, err, errlen);
	if (spec[0] == '/' || !strchr(path, '/')) {
		snprintf(base, len, "%s", spec);
	} else {
		/* A relative file is relative to the preset naming it. */
		int dir = (int)(strrchr(path, '/') - path);
		snprintf(base, len, "%.*s/%s", dir, path, spec);
	}
	return 0;
}

/* Load the base a preset inherits from, before its own settings. */
static void read_inherited(preset_ctx *x, const char *path, const config_setting_t *inh,
			   rd_config *cfg)
{
	const char *spec = config_setting_get_string(inh);
	unsigned line = config_setting_source_line(inh);
	char base[PATH_MAX], err[1024];
	if (inherited_path(path, spec, base, sizeof base, err, sizeof err) < 0) {
		preset_error(x, path, line, "inherits: %s", err);
		return;
	}
	preset_read(x, base, cfg, path, line);
}

static int preset_read(preset_ctx *x, const char *path, rd_config *cfg, const char *from,
		       unsigned from_line)
{
	char real[PATH_MAX];
	if (!realpath(path, real))
		snprintf(real, sizeof real, "%s", path);
	for (int i = 0; i < x->depth; i++) {
		if (strcmp(x->chain[i], real) == 0) {
			char cycle[2048];
			size_t used = 0;
			for (int j = i; j < x->depth && used < sizeof cycle; j++) {
				int n = snprintf(cycle + used, sizeof cycle - used, "%s -> ", x->shown[j]);
				used = n < 0 ? used : used + (size_t)n;
			}
			preset_error(x, from, from_line, "inherits: cycle: %s%s",
				     used < sizeof cycle ? cycle : "", path);
			return -1;
		}
	}
	if (x->depth == PRESET_MAX_DEPTH) {
		preset_error(x, from, from_line, "inherits: more than %d levels", PRESET_MAX_DEPTH);
		return -1;
	}
	config_t cf;
	config_init(&cf);
	if (read_config(x, &cf, path, from, from_line) < 0) {
		config_destroy(&cf);
		return -1;
	}
	x->shown[x->depth] = path;
	x->chain[x->depth++] = real;
	const config_setting_t *root = config_root_setting(&cf), *inh;
	check_meta(x, path, root, &inh);
	if (inh)
		read_inherited(x, path, inh, cfg);
	for (int i = 0; i < config_setting_length(root); i++) {
		const config_setting_t *s = config_setting_get_elem(root, (unsigned)i);
		const char *name = config_setting_name(s);
		unsigned line = config_setting_source_line(s);
		const char *file = x->shown[x->depth - 1]; /* the file being applied */
		if (is_meta(name))
			continue;
		if (strcmp(name, "mem") == 0 && config_setting_type(s) == CONFIG_TYPE_GROUP) {
			apply_mem(x, s, cfg);
		} else if (is_group_name(name)) {
			if (config_setting_type(s) == CONFIG_TYPE_GROUP)
				apply_group(x, s, cfg);
			else
				preset_error(x, file, line, "%s: expected a group, %s = { ... };, got %s",
					     name, name, cfgtype_name(config_setting_type(s)));
		} else if (config_setting_type(s) == CONFIG_TYPE_GROUP && !rd_key_find(name)) {
			report_unknown(x, file, line, name, "group", "");
		} else {
			apply_key(x, s, name, cfg);
		}
	}
	x->depth--;
	config_destroy(&cf);
	return 0;
}

static void ctx_free(preset_ctx *x)
{
	for (size_t i = 0; x->origin_file && i < x->nkeys; i++)
		free(x->origin_file[i]);
	free(x->origin_file);
	free(x->origin_line);
	free(x->bad);
}

int preset_load(const char *spec, rd_config *cfg, char *err, size_t errlen)
{
	char path[PATH_MAX];
	if (errlen)
		err[0] = '\0';
	if (!preset_path_is_file(spec)) {
		if (preset_path_find(spec, path, sizeof path, err, errlen) < 0)
			return -1;
	} else {
		snprintf(path, sizeof path, "%s", spec);
	}
	preset_ctx x = {.err = err, .errlen = errlen, .nkeys = rd_key_count(), .top_file = path};
	x.origin_file = calloc(x.nkeys, sizeof *x.origin_file);
	x.origin_line = calloc(x.nkeys, sizeof *x.origin_line);
	x.bad = calloc(x.nkeys, 1);
	if (!x.origin_file || !x.origin_line || !x.bad) {
		ctx_free(&x);
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	rd_config work = *cfg;
	if (preset_read(&x, path, &work, NULL, 0) == 0)
		preset_validate(&x, &work);
	ctx_free(&x);
	if (x.nerrors)
		return -1;
	*cfg = work;
	return 0;
}

int preset_files(const char *spec, char (*files)[PATH_MAX], int max)
{
	char path[PATH_MAX], err[1024];
	int n = 0;
	if (!preset_path_is_file(spec)) {
		if (preset_path_find(spec, path, sizeof path, err, sizeof err) < 0)
			return 0;
	} else {
		snprintf(path, sizeof path, "%s", spec);
	}
	while (n < max && n < PRESET_MAX_DEPTH) {
		struct stat st;
		snprintf(files[n++], PATH_MAX, "%s", path);
		/* Only a regular file is read again (a pipe is read once). */
		if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
			break;
		char why[256];
		char *text = cfg_read_text(path, PRESET_MAX_BYTES, "preset", why, sizeof why);
		if (!text)
			break;
		config_t cf;
		config_init(&cf);
		unsigned line;
		const char *msg, *inh = NULL;
		int ok = parse_text(&cf, text, &line, &msg) == 0 &&
			 config_lookup_string(&cf, "inherits", &inh);
		char base[PATH_MAX];
		ok = ok && inherited_path(path, inh, base, sizeof base, err, sizeof err) == 0;
		config_destroy(&cf);
		free(text);
		if (!ok)
			break;
		for (int i = 0; i < n && ok; i++) /* a cycle: preset_load says so */
			ok = strcmp(files[i], base) != 0;
		if (!ok)
			break;
		snprintf(path, sizeof path, "%s", base);
	}
	return n;
}

int preset_meta_read(const char *path, char *name, size_t namelen, char *desc, size_t desclen)
{
	config_t cf;
	config_init(&cf);
	char why[256], *text = cfg_read_text(path, PRESET_MAX_BYTES, "preset", why, sizeof why);
	unsigned line;
	const char *msg;
	int rc = text ? parse_text(&cf, text, &line, &msg) : -1;
	free(text);
	const char *s;
	if (name && namelen)
		snprintf(name, namelen, "%s",
			 rc == 0 && config_lookup_string(&cf, "name", &s) ? s : "");
	if (desc && desclen)
		snprintf(desc, desclen, "%s",
			 rc == 0 && config_lookup_string(&cf, "description", &s) ? s : "");
	config_destroy(&cf);
	return rc;
}
