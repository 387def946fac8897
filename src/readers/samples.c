/*
 * Samples: where they are and what they are (see samples.h).
 */
#include "samples.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kdesc/kdesc.h"
#include "trace_ocelot.h"
#include "util/util.h"

#ifndef RDSCOPE_DATADIR
#define RDSCOPE_DATADIR "/usr/local/share/rdscope"
#endif

/* Extensions a sample file may have, longest first. */
static const char *const exts[] = {".trc.gz", ".trc.xz", ".traceg.gz", ".traceg.xz", ".nvbit.gz",
				   ".nvbit.xz", ".kdesc", ".traceg", ".nvbit", ".trc", ".rdt"};
#define NEXTS (sizeof exts / sizeof exts[0])

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

size_t samples_stem(const char *file)
{
	for (size_t i = 0; i < NEXTS; i++)
		if (ends_with(file, exts[i]))
			return strlen(file) - strlen(exts[i]);
	return strlen(file);
}

/* The search path, NULL-terminated, malloc'd. */
static char **dirs_list(void)
{
	const char *env = getenv("RDSCOPE_SAMPLES");
	char *exe[3];
	int ne = exe_data_dirs("samples", exe, 3);
	size_t n = 3 + (size_t)ne;
	for (const char *p = env; p && *p; p++)
		n += *p == ':';
	char **d = calloc(n + 1, sizeof *d);
	if (!d) {
		for (int i = 0; i < ne; i++)
			free(exe[i]);
		return NULL;
	}
	size_t k = 0;
	for (const char *p = env; p && *p;) {
		size_t len = strcspn(p, ":");
		if (len && (d[k] = malloc(len + 1))) {
			memcpy(d[k], p, len);
			d[k++][len] = '\0';
		}
		p += len + (p[len] == ':');
	}
	d[k++] = strdup("samples");
	/* The shipped samples wherever rdscope runs from (util/exedir.h). */
	for (int i = 0; i < ne; i++)
		d[k++] = exe[i];
	d[k++] = strdup(RDSCOPE_DATADIR "/samples");
	for (size_t i = 0; i < k; i++)
		if (!d[i]) {
			for (size_t j = 0; j < k; j++)
				free(d[j]);
			free(d);
			return NULL;
		}
	return d;
}

static void dirs_free(char **d)
{
	for (char **p = d; p && *p; p++)
		free(*p);
	free(d);
}

static int exists(const char *path, int *is_dir)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return 0;
	*is_dir = S_ISDIR(st.st_mode);
	return S_ISREG(st.st_mode) || S_ISDIR(st.st_mode);
}

/* A directory that is one trace: Accel-Sim's or NAME_NN.trc files. */
static int trace_dir(const char *path)
{
	char buf[4096];
	int dir;
	snprintf(buf, sizeof buf, "%s/kernelslist.g", path);
	if (exists(buf, &dir) && !dir)
		return 1;
	DIR *d = opendir(path);
	if (!d)
		return 0;
	struct dirent *e;
	int hit = 0;
	while (!hit && (e = readdir(d)))
		hit = trace_ocelot_dir_member(e->d_name);
	closedir(d);
	return hit;
}

int samples_find(const char *name, char *buf, size_t len, char *err, size_t errlen)
{
	char **dirs = dirs_list();
	if (!dirs) {
		snprintf(err, errlen, SAMPLES_PREFIX "%s: out of memory", name);
		return -1;
	}
	if (!*name || strstr(name, "..") || name[0] == '/') {
		snprintf(err, errlen, SAMPLES_PREFIX "%s: not a sample name (see 'rdscope samples')",
			 name);
		dirs_free(dirs);
		return -1;
	}
	for (char **d = dirs; *d; d++) {
		int dir;
		for (size_t i = 0; i < NEXTS; i++) {
			int n = snprintf(buf, len, "%s/%s%s", *d, name, exts[i]);
			if (n > 0 && (size_t)n < len && exists(buf, &dir) && !dir) {
				dirs_free(dirs);
				return 0;
			}
		}
		int n = snprintf(buf, len, "%s/%s", *d, name);
		if (n > 0 && (size_t)n < len && exists(buf, &dir) && dir && trace_dir(buf)) {
			dirs_free(dirs);
			return 0;
		}
	}
	int n = snprintf(err, errlen, SAMPLES_PREFIX "%s: no such sample (searched", name);
	for (char **d = dirs; *d && n > 0 && (size_t)n < errlen; d++)
		n += snprintf(err + n, errlen - (size_t)n, "%s%s", d == dirs ? " " : ":", *d);
	if (n > 0 && (size_t)n < errlen)
		snprintf(err + n, errlen - (size_t)n, "; see 'rdscope samples')");
	dirs_free(dirs);
	return -1;
}

int samples_data_file(const char *rel, char *buf, size_t len)
{
	char **dirs = dirs_list();
	for (char **d = dirs; d && *d; d++) {
		int dir, n = snprintf(buf, len, "%s/%s", *d, rel);
		if (n > 0 && (size_t)n < len && exists(buf, &dir) && !dir) {
			dirs_free(dirs);
			return 0;
		}
	}
	dirs_free(dirs);
	return -1;
}

/* ---------------------------------------------------------------- listing */

typedef struct entry {
	char *name, *path;
	int is_dir;
} entry;

typedef struct entries {
	entry *e;
	size_t n, cap;
	int bad;
} entries;

static void add(entries *es, const char *name, size_t nlen, const char *path, int is_dir)
{
	for (size_t i = 0; i < es->n; i++)
		if (strlen(es->e[i].name) == nlen && !strncmp(es->e[i].name, name, nlen))
			return; /* shadowed by an earlier directory */
	if (es->n == es->cap) {
		size_t cap = es->cap ? es->cap * 2 : 64;
		entry *e = realloc(es->e, cap * sizeof *e);
		if (!e) {
			es->bad = 1;
			return;
		}
		es->e = e;
		es->cap = cap;
	}
	char *n = malloc(nlen + 1), *p = strdup(path);
	if (!n || !p) {
		free(n);
		free(p);
		es->bad = 1;
		return;
	}
	memcpy(n, name, nlen);
	n[nlen] = '\0';
	es->e[es->n++] = (entry){.name = n, .path = p, .is_dir = is_dir};
}

static void walk(entries *es, const char *root, const char *rel, int depth)
{
	char dpath[4096];
	snprintf(dpath, sizeof dpath, "%s%s%s", root, *rel ? "/" : "", rel);
	DIR *d = opendir(dpath);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		const char *f = e->d_name;
		if (f[0] == '.')
			continue;
		char path[4096], name[4096];
		int np = snprintf(path, sizeof path, "%s/%s", dpath, f);
		int nn = snprintf(name, sizeof name, "%s%s%s", rel, *rel ? "/" : "", f);
		if (np < 0 || (size_t)np >= sizeof path || nn < 0 || (size_t)nn >= sizeof name)
			continue;
		int dir;
		if (!exists(path, &dir))
			continue;
		if (dir) {
			if (trace_dir(path))
				add(es, name, strlen(name), path, 1);
			else if (depth < 3)
				walk(es, root, name, depth + 1);
			continue;
		}
		size_t stem = samples_stem(name);
		if (stem == strlen(name))
			continue; /* not a trace or description (README, index) */
		add(es, name, stem, path, 0);
	}
	closedir(d);
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const entry *)a)->name, ((const entry *)b)->name);
}

/* The first comment of a plain .trc ("# text" after the header), all its
 * lines joined: a description continued on a second "#" line is whole
 * ("thread t loads x[2t] then x[2t+1]", not "thread t loads"). */
static int trc_comment(const char *path, char *out, size_t len)
{
	FILE *fp = fopen(path, "r");
	if (!fp)
		return -1;
	char line[512];
	int rc = -1;
	size_t o = 0;
	out[0] = '\0';
	for (int n = 0; n < 12 && fgets(line, sizeof line, fp); n++) {
		if (line[0] != '#') {
			if (rc == 0)
				break; /* the comment ended */
			continue;
		}
		char *s = line + 1 + strspn(line + 1, " \t");
		s[strcspn(s, "\r\n")] = '\0';
		if (!*s) {
			if (rc == 0)
				break; /* an empty comment line ends a paragraph */
			continue;
		}
		if (o < len) {
			int k = snprintf(out + o, len - o, "%s%s", o ? " " : "", s);
			if (k > 0)
				o += (size_t)k;
		}
		rc = 0;
	}
	fclose(fp);
	return rc;
}

/* The line of name in dir/index, if any. */
static int index_line(const char *path, const char *name, char *out, size_t len)
{
	char ipath[4096];
	/* the index sits in the samples directory that holds the sample: walk up */
	snprintf(ipath, sizeof ipath, "%s", path);
	for (int up = 0; up < 4; up++) {
		char *slash = strrchr(ipath, '/');
		if (!slash)
			return -1;
		*slash = '\0';
		char f[4200];
		snprintf(f, sizeof f, "%s/index", ipath);
		FILE *fp = fopen(f, "r");
		if (!fp)
			continue;
		char line[1024];
		size_t n = strlen(name);
		while (fgets(line, sizeof line, fp)) {
			if (!strncmp(line, name, n) && (line[n] == ' ' || line[n] == '\t')) {
				char *s = line + n;
				s += strspn(s, " \t");
				s[strcspn(s, "\r\n")] = '\0';
				snprintf(out, len, "%s", s);
				fclose(fp);
				return 0;
			}
		}
		fclose(fp);
		return -1;
	}
	return -1;
}

int samples_list(FILE *f)
{
	char **dirs = dirs_list();
	if (!dirs)
		return -1;
	entries es = {0};
	for (char **d = dirs; *d; d++)
		walk(&es, *d, "", 0);
	dirs_free(dirs);
	if (es.bad) {
		for (size_t i = 0; i < es.n; i++)
			free(es.e[i].name), free(es.e[i].path);
		free(es.e);
		return -1;
	}
	if (es.n)
		qsort(es.e, es.n, sizeof *es.e, entry_cmp);
	fprintf(f, "%-36s %s\n", "builtin:fig3",
		"the paper's Figure 3: column-major copy, one block of 256 threads (the default)");
	fprintf(f, "%-36s %s\n", "builtin:colcopy:H[:W[:E]]",
		"Figure 3's copy: H threads, W columns (1024), E-byte elements (4)");
	for (size_t i = 0; i < es.n; i++) {
		char desc[512] = "", vars[256] = "", label[600];
		const entry *e = &es.e[i];
		if (ends_with(e->path, ".kdesc"))
			kdesc_summary(e->path, desc, sizeof desc, vars, sizeof vars);
		else if (ends_with(e->path, ".trc"))
			trc_comment(e->path, desc, sizeof desc);
		if (!desc[0])
			index_line(e->path, e->name, desc, sizeof desc);
		snprintf(label, sizeof label, SAMPLES_PREFIX "%s%s%s%s", e->name, vars[0] ? "[:" : "",
			 vars, vars[0] ? "]" : "");
		if (strlen(label) > 36)
			fprintf(f, "%s\n%-36s %s\n", label, "", desc[0] ? desc : "-");
		else
			fprintf(f, "%-36s %s\n", label, desc[0] ? desc : "-");
		char try_[512] = "";
		if (ends_with(e->path, ".kdesc"))
			kdesc_try(e->path, try_, sizeof try_);
		if (*try_)
			fprintf(f, "%-36s try: %s\n", "", try_);
		free(e->name);
		free(e->path);
	}
	free(es.e);
	return 0;
}

/* The description file of INPUT (a sample:NAME or a description file,
 * with or without :VARIANT) into path: 1, or 0 when it is none. */
static int desc_path(const char *input, char *path, size_t len)
{
	char err[256];
	if (!strncmp(input, SAMPLES_PREFIX, strlen(SAMPLES_PREFIX))) {
		char name[1024];
		const char *n = input + strlen(SAMPLES_PREFIX);
		snprintf(name, sizeof name, "%.*s", (int)strcspn(n, ":"), n);
		if (samples_find(name, path, len, err, sizeof err) < 0)
			return 0;
	} else {
		/* FILE or FILE:VARIANT */
		snprintf(path, len, "%s", input);
		if (!ends_with(path, ".kdesc")) {
			char *colon = strrchr(path, ':');
			if (colon)
				*colon = '\0';
		}
	}
	return ends_with(path, ".kdesc");
}

void samples_try(const char *input, char *out, size_t len)
{
	out[0] = '\0';
	char path[4096];
	if (desc_path(input, path, sizeof path))
		kdesc_try(path, out, len);
}

int samples_source(const char *input, char **text, char *err, size_t len)
{
	char path[4096], why[256];
	*text = NULL;
	if (!desc_path(input, path, sizeof path)) {
		snprintf(err, len, "%s is not a kernel description", input);
		return -1;
	}
	*text = cfg_read_text(path, KDESC_MAX_BYTES, "kernel description", why, sizeof why);
	if (!*text) {
		snprintf(err, len, "%s: %s", path, why);
		return -1;
	}
	return 0;
}
