/*
 * Outputs that are one file, or an input (see samefile.h).
 */
#include "samefile.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* Inputs and presets are compared only when they are files. */
static int existing(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* An input is a file; "FILE:VARIANT" names FILE. Samples and built-in
 * kernels (no such file) never clash. */
static const char *input_file(const char *in, char *buf, size_t len)
{
	struct stat st;
	if (stat(in, &st) == 0)
		return in;
	const char *colon = strrchr(in, ':');
	if (!colon)
		return NULL;
	snprintf(buf, len, "%.*s", (int)(colon - in), in);
	return stat(buf, &st) == 0 ? buf : NULL;
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
	for (size_t i = 0; i < nout; i++) {
		for (size_t j = i + 1; j < nout; j++)
			if (same(&out[i], &out[j])) {
				msg_error("%s %s and %s %s name the same file (one output would be lost)",
					  out[i].what, out[i].path, out[j].what, out[j].path);
				return EXIT_USAGE;
			}
		char buf[PATH_MAX];
		for (int k = 0; k < nin; k++) {
			const char *f = input_file(c->inputs[k], buf, sizeof buf);
			named in = {"input", f};
			if (f && same(&out[i], &in)) { /* f exists (input_file) */
				msg_error("%s %s is the input %s (it would be overwritten)", out[i].what,
					  out[i].path, c->inputs[k]);
				return EXIT_USAGE;
			}
		}
		named mea = {"--measured", c->measured};
		if (c->measured && existing(c->measured) && same(&out[i], &mea)) {
			msg_error("%s %s is the measured file --measured %s (it would be overwritten)",
				  out[i].what, out[i].path, c->measured);
			return EXIT_USAGE;
		}
		named pre = {"-p", c->preset};
		if (c->preset && existing(c->preset) && same(&out[i], &pre)) {
			msg_error("%s %s is the preset -p %s (it would be overwritten)", out[i].what,
				  out[i].path, c->preset);
			return EXIT_USAGE;
		}
	}
	return 0;
}
