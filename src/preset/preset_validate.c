/*
 * Whole-configuration checks of a preset. rd_config_check reports the
 * first problem only; to report them all we repair the key it names (back
 * to the default) and check again. The cache geometry keys are repaired
 * together, since one bad size makes every later geometry message a
 * consequence, not a problem of its own.
 */
#include <stdio.h>
#include <string.h>

#include "preset_internal.h"

static const char *const geometry_keys[] = {"l1.size", "l1.line", "l1.ways", "l1.hash"};
#define NGEOMETRY (sizeof geometry_keys / sizeof geometry_keys[0])

static int is_geometry(const char *key)
{
	for (size_t i = 0; i < NGEOMETRY; i++)
		if (strcmp(key, geometry_keys[i]) == 0)
			return 1;
	return 0;
}

/* Set key of c back to its value in the defaults. */
static void repair(rd_config *c, const char *key)
{
	rd_config def;
	char v[128], err[256];
	rd_config_default(&def);
	if (rd_config_get(&def, key, v, sizeof v) == 0)
		rd_config_set(c, key, v, err, sizeof err);
}

/*
 * Where to report a problem of key: where the key was set; else where a
 * key the message mentions was set (a per-warp limit above the total is
 * the total's fault when only the total is in the file); else any
 * geometry key for a geometry problem; else the top file's first line.
 */
static void locate(const preset_ctx *x, const char *key, const char *msg, const char **file,
		   unsigned *line)
{
	int i = preset_key_index(key);
	if (i >= 0 && x->origin_file[i])
		goto found;
	for (i = 0; rd_keys[i].name; i++)
		if (strchr(rd_keys[i].name, '.') && x->origin_file[i] && strstr(msg, rd_keys[i].name))
			goto found;
	if (is_geometry(key)) {
		for (size_t g = 0; g < NGEOMETRY; g++) {
			i = preset_key_index(geometry_keys[g]);
			if (i >= 0 && x->origin_file[i])
				goto found;
		}
	}
	*file = x->top_file;
	*line = 1;
	return;
found:
	*file = x->origin_file[i];
	*line = x->origin_line[i];
}

void preset_validate(preset_ctx *x, const rd_config *cfg)
{
	rd_config c = *cfg;
	char repaired[8][64];
	int nrepaired = 0;
	while (nrepaired < 8) {
		char msg[512], key[64];
		if (rd_config_check(&c, msg, sizeof msg) == 0)
			return;
		const char *colon = strchr(msg, ':');
		size_t n = colon ? (size_t)(colon - msg) : 0;
		if (n == 0 || n >= sizeof key) {
			preset_error(x, x->top_file, 1, "%s", msg);
			return;
		}
		memcpy(key, msg, n);
		key[n] = '\0';
		for (int r = 0; r < nrepaired; r++)
			if (strcmp(repaired[r], key) == 0)
				return; /* repairing did not help: nothing more to learn */
		int i = preset_key_index(key);
		/* A rejected value was already reported; the check then only
		 * sees the value it fell back to. */
		if (i < 0 || !x->bad[i]) {
			const char *file;
			unsigned line;
			locate(x, key, msg, &file, &line);
			preset_error(x, file, line, "%s", msg);
		}
		snprintf(repaired[nrepaired++], sizeof repaired[0], "%s", key);
		if (is_geometry(key)) {
			for (size_t g = 0; g < NGEOMETRY; g++)
				repair(&c, geometry_keys[g]);
		} else {
			repair(&c, key);
		}
	}
}
