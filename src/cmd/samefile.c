/*
 * Outputs that are one file, or a file the command reads (see samefile.h).
 */
#include "samefile.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "estimate_cmd.h"
#include "preset/preset.h"
#include "util/util.h"
#include "writers/writers.h"

typedef struct named {
	const char *what; /* "-o", "--log", "input", ... */
	const char *path;
} named;

/* What a path is: a regular file's device and inode, or a new file's
 * resolved path (into buf); 0 when it cannot clash (standard output, a
 * device, a FIFO, a sample, a path that cannot be resolved). */
static int identify(const char *path, struct stat *st, char *buf, size_t len)
{
	if (!path || outfile_by_name_direct(path))
		return 0;
	if (stat(path, st) == 0)
		return S_ISREG(st->st_mode) ? 1 : 0;
	if (errno != ENOENT)
		return 0;
	/* Not there yet: its directory, resolved, and its name. */
	char a[PATH_MAX], b[PATH_MAX], dir[PATH_MAX];
	snprintf(a, sizeof a, "%s", path);
	snprintf(b, sizeof b, "%s", path);
	if (!realpath(dirname(a), dir))
		return 0;
	snprintf(buf, len, "%s/%s", dir, basename(b));
	return 2;
}

static int same(const named *x, const named *y)
{
	struct stat sx, sy;
	char px[PATH_MAX + NAME_MAX + 2], py[PATH_MAX + NAME_MAX + 2];
	int kx = identify(x->path, &sx, px, sizeof px), ky = identify(y->path, &sy, py, sizeof py);
	if (!kx || kx != ky)
		return 0;
	return kx == 1 ? sx.st_dev == sy.st_dev && sx.st_ino == sy.st_ino : !strcmp(px, py);
}

/*
 * The files a command reads. Each is a regular file there now, by device
 * and inode (a file not there cannot be replaced; a device or a pipe is
 * not replaced), with how the command line named it for the message.
 */
#define MAX_READS 64
typedef struct reads {
	struct {
		dev_t dev;
		ino_t ino;
		char what[PATH_MAX + 160]; /* "the input x.trc", "the preset -p NAME (FILE)" */
	} f[MAX_READS];
	int n;
} reads;

static void add_stat(reads *r, const struct stat *st, const char *fmt, const char *a,
		     const char *b)
{
	if (r->n == MAX_READS || !S_ISREG(st->st_mode))
		return;
	r->f[r->n].dev = st->st_dev;
	r->f[r->n].ino = st->st_ino;
	snprintf(r->f[r->n].what, sizeof r->f[r->n].what, fmt, a, b ? b : "");
	r->n++;
}

/* path (when a regular file) is read; fmt takes the strings a and b. */
static void add(reads *r, const char *path, const char *fmt, const char *a, const char *b)
{
	struct stat st;
	if (path && *path && stat(path, &st) == 0)
		add_stat(r, &st, fmt, a, b);
}

/* The file behind an INPUT, as input_open finds it: "-" (standard input,
 * when redirected from a file), rp:PATH[,...], sample:NAME[:VARIANT],
 * FILE or FILE:VARIANT; builtin: kernels read nothing. */
static void add_input(reads *r, const char *in)
{
	char path[PATH_MAX], err[1024];
	struct stat st;
	if (!strcmp(in, "-")) {
		if (fstat(STDIN_FILENO, &st) == 0)
			add_stat(r, &st, "the input %s (standard input)%s", in, NULL);
		return;
	}
	if (!strncmp(in, RP_PREFIX, strlen(RP_PREFIX))) {
		const char *s = in + strlen(RP_PREFIX);
		snprintf(path, sizeof path, "%.*s", (int)strcspn(s, ","), s);
		add(r, path, "the reuse profile %s of the input %s", path, in);
		return;
	}
	if (!strncmp(in, INPUT_BUILTIN_PREFIX, strlen(INPUT_BUILTIN_PREFIX)))
		return;
	if (!strncmp(in, SAMPLES_PREFIX, strlen(SAMPLES_PREFIX))) {
		char name[1024];
		const char *s = in + strlen(SAMPLES_PREFIX);
		snprintf(name, sizeof name, "%.*s", (int)strcspn(s, ":"), s);
		if (samples_find(name, path, sizeof path, err, sizeof err) == 0)
			add(r, path, "the file %s of the input %s", path, in);
		return;
	}
	if (stat(in, &st) == 0) {
		add_stat(r, &st, "the input %s%s", in, NULL);
		return;
	}
	/* FILE:VARIANT (the colon after the last slash) */
	const char *colon = strrchr(in, ':'), *slash = strrchr(in, '/');
	if (colon && (!slash || colon > slash)) {
		snprintf(path, sizeof path, "%.*s", (int)(colon - in), in);
		add(r, path, "the input %s%s", in, NULL);
	}
}

/* Every file c reads: its INPUTs and the files its options name. */
static void collect(const cli *c, reads *r, int nin)
{
	for (int k = 0; k < nin; k++) {
		/* check and preset take presets as INPUTs */
		if (c->cmd == CLI_CHECK || c->cmd == CLI_PRESET) {
			char files[PRESET_CHAIN_MAX][PATH_MAX];
			int n = preset_files(c->inputs[k], files, PRESET_CHAIN_MAX);
			for (int i = 0; i < n; i++)
				add(r, files[i], i ? "the preset %s that the input %s inherits"
						   : "the preset %s of the input %s",
				    files[i], c->inputs[k]);
		}
		add_input(r, c->inputs[k]);
	}
	if (c->preset) {
		char files[PRESET_CHAIN_MAX][PATH_MAX];
		int n = preset_files(c->preset, files, PRESET_CHAIN_MAX);
		for (int i = 0; i < n; i++)
			add(r, files[i], i ? "the preset %s that -p %s inherits" : "the preset %s of -p %s",
			    files[i], c->preset);
	}
	add(r, c->measured, "the measured file --measured %s%s", c->measured, NULL);
	add(r, c->arrays, "the arrays file --arrays %s%s", c->arrays, NULL);
	add(r, c->sample_times, "the sample times --sample %s%s", c->sample_times, NULL);
	add(r, c->from_c, "the C file --from-c %s%s", c->from_c, NULL);
	add(r, c->script, "the key script --script %s%s", c->script, NULL);
	add(r, c->model_file, "the estimator --model %s%s", c->model_file, NULL);
	char path[PATH_MAX];
	if (c->cmd == CLI_ESTIMATE && !c->model_file &&
	    samples_data_file(ESTIMATE_MODEL_FILE, path, sizeof path) == 0)
		add(r, path, "the shipped estimator %s (estimate reads it without --model)%s", path,
		    NULL);
}

int samefile_check(const cli *c)
{
	named out[5];
	size_t nout = 0;
	int nin = c->ninputs;
	if (c->cmd == CLI_CONVERT && c->ninputs == 2) {
		out[nout++] = (named){"OUT", c->inputs[1]};
		nin = 1;
	}
	if (c->output)
		out[nout++] = (named){"-o", c->output};
	if (c->log)
		out[nout++] = (named){"--log", c->log};
	if (c->histogram)
		out[nout++] = (named){"--histogram", c->histogram};
	if (c->plot)
		out[nout++] = (named){"--plot", c->plot};
	if (!nout)
		return 0;
	static reads r; /* about 280 KB: not on the stack */
	r.n = 0;
	collect(c, &r, nin);
	for (size_t i = 0; i < nout; i++) {
		for (size_t j = i + 1; j < nout; j++)
			if (same(&out[i], &out[j])) {
				msg_error("%s %s and %s %s name the same file (one output would be lost)",
					  out[i].what, out[i].path, out[j].what, out[j].path);
				return EXIT_USAGE;
			}
		struct stat st;
		if (outfile_by_name_direct(out[i].path) || stat(out[i].path, &st) != 0 ||
		    !S_ISREG(st.st_mode))
			continue; /* a new file, or one written through: nothing read is lost */
		for (int k = 0; k < r.n; k++)
			if (r.f[k].dev == st.st_dev && r.f[k].ino == st.st_ino) {
				msg_error("%s %s is %s (it would be overwritten)", out[i].what,
					  out[i].path, r.f[k].what);
				return EXIT_USAGE;
			}
	}
	return 0;
}
