/*
 * The preset search path (see preset_path.h).
 */
#include "preset_path.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/util.h"

/* The install directory; the Makefile passes its DATADIR. */
#ifndef RDSCOPE_DATADIR
#define RDSCOPE_DATADIR "/usr/local/share/rdscope"
#endif

#define PRESET_EXT ".cfg"

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

int preset_path_is_file(const char *spec)
{
	return strchr(spec, '/') || ends_with(spec, PRESET_EXT);
}

static char *str_printf(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 1;
	char *s = malloc(n);
	if (s)
		snprintf(s, n, "%s%s", a, b);
	return s;
}

/* Append a copy of dir (n bytes of it) unless empty; -1 when out of memory. */
static int dirs_add(char ***dirs, size_t *n, const char *dir, size_t len)
{
	if (len == 0)
		return 0;
	char **d = realloc(*dirs, (*n + 2) * sizeof *d);
	if (!d)
		return -1;
	*dirs = d;
	d[*n] = malloc(len + 1);
	if (!d[*n])
		return -1;
	memcpy(d[*n], dir, len);
	d[*n][len] = '\0';
	d[++*n] = NULL;
	return 0;
}

char **preset_path_list(void)
{
	char **dirs = calloc(1, sizeof *dirs);
	size_t n = 0;
	if (!dirs)
		return NULL;
	int bad = dirs_add(&dirs, &n, "presets", 8);
	const char *env = getenv("RDSCOPE_PRESET_PATH");
	for (const char *p = env; p && *p && !bad;) {
		const char *colon = strchr(p, ':');
		size_t len = colon ? (size_t)(colon - p) : strlen(p);
		bad = dirs_add(&dirs, &n, p, len);
		p += len + (colon != NULL);
	}
	/* XDG base directories: $HOME/.config when XDG_CONFIG_HOME is unset
	 * or not absolute (the specification says to ignore relative ones). */
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	char *user = NULL;
	if (xdg && xdg[0] == '/')
		user = str_printf(xdg, "/rdscope/presets");
	else if (home && home[0] == '/')
		user = str_printf(home, "/.config/rdscope/presets");
	if (user && !bad)
		bad = dirs_add(&dirs, &n, user, strlen(user));
	free(user);
	/* The shipped presets wherever rdscope runs from: beside the binary
	 * of a built tree or a moved install, then the install directory. */
	char *exe[3];
	int ne = exe_data_dirs("presets", exe, 3);
	for (int i = 0; i < ne; i++) {
		if (!bad)
			bad = dirs_add(&dirs, &n, exe[i], strlen(exe[i]));
		free(exe[i]);
	}
	if (!bad)
		bad = dirs_add(&dirs, &n, RDSCOPE_DATADIR "/presets", strlen(RDSCOPE_DATADIR "/presets"));
	if (bad) {
		preset_path_free(dirs);
		return NULL;
	}
	return dirs;
}

int preset_path_shipped(char **dirs, size_t i)
{
	if (i == 0 || !dirs[i + 1])
		return 1; /* ./presets, DATADIR/presets */
	char *exe[3];
	int ne = exe_data_dirs("presets", exe, 3), hit = 0;
	for (int k = 0; k < ne; k++) {
		hit |= strcmp(exe[k], dirs[i]) == 0;
		free(exe[k]);
	}
	return hit;
}

void preset_path_free(char **dirs)
{
	for (char **d = dirs; d && *d; d++)
		free(*d);
	free(dirs);
}

static int is_regular(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int preset_path_find(const char *name, char *buf, size_t len, char *err, size_t errlen)
{
	char **dirs = preset_path_list();
	if (!dirs) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	for (char **d = dirs; *d; d++) {
		int n = snprintf(buf, len, "%s/%s" PRESET_EXT, *d, name);
		if (n > 0 && (size_t)n < len && is_regular(buf)) {
			preset_path_free(dirs);
			return 0;
		}
	}
	/* Not found: say where we looked and what the user may have meant. */
	int n = snprintf(err, errlen, "%s: no such preset (searched", name);
	for (char **d = dirs; *d && n > 0 && (size_t)n < errlen; d++)
		n += snprintf(err + n, errlen - (size_t)n, "%s%s", d == dirs ? " " : ":", *d);
	preset_path_free(dirs);
	preset_entry *e;
	int ne = preset_path_entries(&e);
	const char *hint = NULL;
	if (ne > 0) {
		const char **names = malloc((size_t)ne * sizeof *names);
		if (names) {
			for (int i = 0; i < ne; i++)
				names[i] = e[i].name;
			hint = suggest_closest(name, names, (size_t)ne);
			if (hint && n > 0 && (size_t)n < errlen)
				n += snprintf(err + n, errlen - (size_t)n, "); did you mean '%s'?", hint);
			free(names);
		}
	}
	if (!hint && n > 0 && (size_t)n < errlen)
		snprintf(err + n, errlen - (size_t)n, "; see 'rdscope presets')");
	if (ne > 0)
		preset_path_entries_free(e, ne);
	return -1;
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const preset_entry *)a)->name, ((const preset_entry *)b)->name);
}

static int entries_has(const preset_entry *e, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(e[i].name, name) == 0)
			return 1;
	return 0;
}

int preset_path_entries(preset_entry **out)
{
	*out = NULL;
	char **dirs = preset_path_list();
	if (!dirs)
		return -1;
	preset_entry *e = NULL;
	int n = 0, bad = 0;
	for (char **d = dirs; *d && !bad; d++) {
		DIR *dir = opendir(*d);
		if (!dir)
			continue; /* a missing directory is normal: not every one exists */
		struct dirent *de;
		while (!bad && (de = readdir(dir))) {
			const char *f = de->d_name;
			if (f[0] == '.' || !ends_with(f, PRESET_EXT))
				continue;
			size_t len = strlen(f) - strlen(PRESET_EXT);
			char *name = malloc(len + 1), *path = str_printf(*d, "/");
			char *full = path ? str_printf(path, f) : NULL;
			free(path);
			if (name) {
				memcpy(name, f, len);
				name[len] = '\0';
			}
			preset_entry *ne = name && full ? realloc(e, ((size_t)n + 1) * sizeof *e) : NULL;
			if (!ne) {
				free(name);
				free(full);
				bad = 1;
				break;
			}
			e = ne;
			if (!is_regular(full) || entries_has(e, n, name)) {
				free(name);
				free(full);
				continue;
			}
			e[n].name = name;
			e[n].path = full;
			n++;
		}
		closedir(dir);
	}
	preset_path_free(dirs);
	if (bad) {
		preset_path_entries_free(e, n);
		return -1;
	}
	if (n)
		qsort(e, (size_t)n, sizeof *e, entry_cmp);
	*out = e;
	return n;
}

void preset_path_entries_free(preset_entry *e, int n)
{
	for (int i = 0; i < n; i++) {
		free(e[i].name);
		free(e[i].path);
	}
	free(e);
}
