/*
 * rdscope: entry point. Parses the command line and hands over to the
 * command; everything else lives in its own module. Also the glue between
 * the command line and the explorer (ui/explorer.h), which includes no
 * src/ header: its options and the src/ services it needs (reading the
 * input, preset files, the SIGBUS handler's terminal) are filled here.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch.h"
#include "cli.h"
#include "count_cmd.h"
#include "estimate_cmd.h"
#include "explorer.h"
#include "kernel_pick.h"
#include "preset/preset.h"
#include "rdscope.h"
#include "readers/readers.h"
#include "util/util.h"

_Static_assert((int)EXPLORER_OK == EXIT_OK && (int)EXPLORER_ERUNTIME == EXIT_RUNTIME &&
		       (int)EXPLORER_EUSAGE == EXIT_USAGE,
	       "the explorer's exit statuses are rdscope's");

/* Should the no-command form open the explorer (rather than print text)?
 * Yes with --script or --teach, or when standard input and output are
 * terminals and no batch-only option (-o, --log, -q, -f csv|json) was
 * given. */
static int explorer_wanted(const cli *c)
{
	if (c->script || c->teach)
		return 1;
	if (c->output || c->log || c->quiet || c->format != OUTPUT_TEXT)
		return 0; /* batch-only options */
	if (c->ninputs && strcmp(c->inputs[0], "-") == 0)
		return 0;
	return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
}

/*
 * The explorer's kernel (explorer_opts.load): the input's only one, the
 * one --kernel names, or, for a multi-kernel input on a terminal, the one
 * picked from its list.
 */
static int explorer_load(const explorer_opts *o, int interactive, rd_kernel **k, char *err,
			 size_t len)
{
	const cli *c = o->ctx;
	input_opts opts = cli_input_opts(c);
	char **names = NULL;
	size_t n = 0;
	int st;
	if (c->kernel || !interactive ||
	    input_names(o->input, &opts, &names, &n, err, len) != INPUT_OK || n < 2) {
		input_names_free(names, n);
		st = input_load_with(o->input, &opts, k, err, len);
	} else {
		int i = kernel_pick(o->input, names, n);
		input_names_free(names, n);
		if (i < 0) {
			snprintf(err, len, "%s: no kernel chosen", o->input);
			return EXIT_USAGE;
		}
		char idx[24];
		snprintf(idx, sizeof idx, "%d", i);
		input_opts io = {.format = c->input_format, .kernel = idx};
		input *in;
		st = input_open(o->input, &io, &in, err, len);
		if (st == INPUT_OK) {
			st = input_next(in, k, err, len);
			input_close(in);
		}
	}
	return st == INPUT_OK ? EXIT_OK : st == INPUT_ENOMEM ? EXIT_RUNTIME : EXIT_USAGE;
}

/*
 * The explorer's kernel in parts (explorer_opts.parts_open, parts_run,
 * parts_free): where load refused it and run would model it in parts
 * (batch_parts_config), its shape, handed to the explorer, which frees it
 * after parts_free.
 */
static int explorer_parts_open(const explorer_opts *o, int refused, rd_kernel **k, void **parts)
{
	const cli *c = o->ctx;
	if (!batch_parts_config(c, &c->config))
		return -1;
	if (!refused && batch_parts_after_refusal(c, o->input))
		return -1; /* (a .rdt: loaded whole first, refused at once) */
	batch_parts *bp = malloc(sizeof *bp);
	if (!bp || !batch_open_parts(c, o->input, bp)) {
		free(bp);
		return -1;
	}
	if (!refused && !batch_parts_clearly(bp)) {
		batch_close_parts(bp);
		free(bp);
		return -1;
	}
	*k = (rd_kernel *)bp->shape;
	*parts = bp;
	return 0;
}

static int explorer_parts_run(void *parts, const rd_config *cfg,
			      int (*stop)(void *ctx, double done),
			      void (*partial)(void *ctx, const rd_result *r, unsigned done,
					      unsigned total),
			      void *ctx, rd_result *res, char *err, size_t len)
{
	const batch_parts *bp = parts;
	memset(res, 0, sizeof *res);
	/* the rule of rdscope run, under the configuration on screen */
	if (!batch_parts_config(bp->c, cfg)) {
		char why[256] = "";
		if (!rd_parts_possible(cfg, why, sizeof why))
			snprintf(err, len, "this kernel is modelled SM by SM, which this configuration "
					   "does not allow: %s", why);
		else
			snprintf(err, len, "this kernel is modelled SM by SM, which needs more than "
					   "one SM (gpu.cores) and RDSCOPE_PARTS not 0");
		return RD_EINVAL;
	}
	int stopped = 0;
	int rc = batch_parts_result_stop(bp, cfg, RD_ALL_CASES, stop, partial, ctx, &stopped, res,
					 err, len);
	if (rc == EXIT_OK)
		return RD_OK;
	return stopped ? RD_ECANCELED : rc == EXIT_USAGE ? RD_EINVAL : RD_ENOMEM;
}

static void explorer_parts_free(void *parts)
{
	batch_parts *bp = parts;
	if (!bp)
		return;
	bp->shape = NULL; /* the explorer's kernel, freed by it */
	batch_close_parts(bp);
	free(bp);
}

/*
 * Another input for the explorer (explorer_opts.input_load, off the UI
 * thread): "SPEC" or "SPEC --kernel NAME|INDEX", read as `rdscope run`
 * reads it (by its content), non-interactively.
 */
static int explorer_input_load(const char *text, int (*stop)(void *ctx), void *ctx, rd_kernel **k,
			       char *err, size_t len)
{
	char spec[1024], kern[256] = "";
	snprintf(spec, sizeof spec, "%s", text);
	char *opt = strstr(spec, " --kernel ");
	if (opt) {
		*opt = '\0';
		snprintf(kern, sizeof kern, "%s", opt + 10);
		kern[strcspn(kern, " ")] = '\0';
		for (char *e = spec + strlen(spec); e > spec && e[-1] == ' ';)
			*--e = '\0';
	}
	input_opts opts = {.kernel = kern[0] ? kern : NULL};
	trace_stop_set(stop, ctx); /* this thread's read: Esc stops it */
	int st = input_load_with(spec, &opts, k, err, len);
	trace_stop_set(NULL, NULL);
	return st == INPUT_OK ? 0 : -1;
}

/* The explorer's count view (explorer_opts.count, off the UI thread):
 * count_kdesc, its results copied into the explorer's own type. */
typedef struct count_stop {
	int (*stop)(void *ctx);
	void *ctx;
} count_stop;

static int count_progress(void *ctx, double f)
{
	(void)f;
	const count_stop *s = ctx;
	return s->stop(s->ctx);
}

static int explorer_count_run(const char *input, const char *const *defines, size_t ndefines,
			      uint32_t line, const uint64_t *bytes, int nlevels, int (*stop)(void *ctx),
			      void *ctx, explorer_count *out, char *err, size_t len)
{
	memset(out, 0, sizeof *out);
	if (nlevels < 1 || nlevels > EXPLORER_COUNT_LEVELS) {
		snprintf(err, len, "count: 1 to %d sizes", EXPLORER_COUNT_LEVELS);
		return -1;
	}
	input_opts opts = {.defines = defines, .ndefines = ndefines};
	count_stop cs = {stop, ctx};
	counted k;
	if (count_kdesc(input, &opts, line, bytes, nlevels, 0, count_progress, &cs, &k, err, len) !=
	    EXIT_OK)
		return -1;
	out->line = line;
	out->nlevels = nlevels;
	memcpy(out->bytes, bytes, (size_t)nlevels * sizeof *bytes);
	out->accesses = k.accesses;
	out->compulsory = k.compulsory;
	memcpy(out->capacity, k.capacity, (size_t)nlevels * sizeof *k.capacity);
	out->lines = rd_count_lines(k.cnt);
	out->seconds = k.seconds;
	if (k.flat.used)
		snprintf(out->path, sizeof out->path, "flat path (loop %s)", k.flat.var);
	else
		snprintf(out->path, sizeof out->path, "streamed: %.140s", k.flat.why);
	int64_t v;
	const char *name;
	for (int i = 0; i < EXPLORER_COUNT_PARAMS && (name = kdesc_param(k.r, i, &v)); i++) {
		snprintf(out->pname[i], sizeof out->pname[i], "%s", name);
		out->pval[i] = v;
		out->nparams = i + 1;
	}
	out->refs = calloc((size_t)(k.nrefs ? k.nrefs : 1), sizeof *out->refs);
	if (!out->refs) {
		counted_free(&k);
		snprintf(err, len, "out of memory");
		return -1;
	}
	const rd_count_ref *R = rd_count_refs(k.cnt);
	for (int i = 0; i < k.nrefs; i++) {
		explorer_count_ref *x = &out->refs[i];
		x->line = k.info[i].line;
		snprintf(x->text, sizeof x->text, "%.63s", k.info[i].text);
		x->store = k.info[i].store;
		x->accesses = R[i].accesses;
		x->compulsory = R[i].compulsory;
		memcpy(x->capacity, R[i].capacity, (size_t)nlevels * sizeof *R[i].capacity);
	}
	out->nrefs = k.nrefs;
	counted_free(&k);
	return 0;
}

/*
 * The directory a write to path lands in, by stat: an existing file's
 * (links followed), a dangling link's target's, or a new file's. -1 when
 * there is none (the write then fails on its own).
 */
static int landing_dir(const char *path, struct stat *dir)
{
	char target[PATH_MAX], buf[PATH_MAX];
	char *real = realpath(path, NULL);
	if (real) {
		snprintf(buf, sizeof buf, "%s", real);
		free(real);
	} else {
		struct stat l;
		ssize_t n;
		snprintf(buf, sizeof buf, "%s", path);
		if (lstat(path, &l) == 0 && S_ISLNK(l.st_mode) &&
		    (n = readlink(path, target, sizeof target - 1)) > 0) {
			target[n] = '\0';
			const char *slash = strrchr(path, '/');
			int w = target[0] == '/' || !slash
					? snprintf(buf, sizeof buf, "%s", target)
					: snprintf(buf, sizeof buf, "%.*s/%s", (int)(slash - path), path,
						   target);
			if (w < 0 || (size_t)w >= sizeof buf)
				return -1;
		}
	}
	char *slash = strrchr(buf, '/');
	if (!slash)
		snprintf(buf, sizeof buf, ".");
	else if (slash == buf)
		buf[1] = '\0';
	else
		*slash = '\0';
	return stat(buf, dir);
}

/*
 * Is path in one of rdscope's own preset folders: the first directory of
 * the preset search path, ./presets (in the source tree, where `make run`
 * starts rdscope, the shipped presets), those beside the binary, or the
 * last, DATADIR/presets (the installed ones; preset_path.h)? Compared by device and inode; 1 with the
 * folder in dir.
 */
static int shipped_presets(const char *path, char *dir, size_t len)
{
	struct stat d, s;
	int hit = 0;
	if (landing_dir(path, &d) < 0)
		return 0;
	char **dirs = preset_path_list();
	for (size_t i = 0; dirs && dirs[i] && !hit; i++) {
		hit = preset_path_shipped(dirs, i) && stat(dirs[i], &s) == 0 && s.st_dev == d.st_dev &&
		      s.st_ino == d.st_ino;
		if (hit)
			snprintf(dir, len, "%s", dirs[i]);
	}
	preset_path_free(dirs);
	return hit;
}

/* The explorer's export (explorer_opts.preset_save, off the UI thread):
 * never into the shipped presets, an existing file only when told to
 * replace it. */
static int explorer_preset_save(const char *path, const rd_config *cfg, const char *name,
				const char *description, int replace, char *err, size_t len)
{
	struct stat st;
	char dir[PATH_MAX];
	if (shipped_presets(path, dir, sizeof dir)) {
		snprintf(err, len, "%s: not written: %s/ holds rdscope's own presets; save it elsewhere",
			 path, dir);
		return -1;
	}
	if (!replace && stat(path, &st) == 0 && !S_ISDIR(st.st_mode))
		return 1;
	return preset_save(path, cfg, name, description, err, len);
}

/* The explorer's picture (explorer_opts.svg_save, off the UI thread): the
 * --plot SVG of what its screen shows (the result, the pinned one, the
 * L2's and the DRAM's panels), written like every output (outfile.h). */
static int explorer_svg_save(const char *path, const char *input, const char *kernel,
			     const explorer_svg_run *runs, int nruns, int panels, int replace,
			     char *err, size_t len)
{
	struct stat st;
	/* ask before replacing a file; a device or FIFO is written through */
	if (!replace && stat(path, &st) == 0 && S_ISREG(st.st_mode))
		return 1;
	plot *p = plot_new();
	int ok = p != NULL;
	for (int i = 0; ok && i < nruns; i++)
		ok = plot_add(p, (unsigned long)i, input, kernel, runs[i].caption, runs[i].cfg,
			      runs[i].res) == 0;
	if (!ok) {
		plot_free(p);
		snprintf(err, len, "out of memory");
		return -1;
	}
	plot_set_panels(p, PLOT_L1 | (panels & EXPLORER_SVG_L2 ? PLOT_L2 : 0) |
				   (panels & EXPLORER_SVG_DRAM ? PLOT_DRAM : 0));
	outfile o = {0};
	if (outfile_open(&o, path, err, len) < 0) {
		plot_free(p);
		return -1;
	}
	plot_write(p, o.f);
	plot_free(p);
	return outfile_commit(&o, err, len);
}

/* --measured FILE for the explorer: read once, looked up by kernel name
 * (the first launch of its name, as validate matches one kernel) */
static measured_set explorer_measured_set;

static int explorer_measured(void *ctx, const char *kernel, double *l1, double *l2)
{
	(void)ctx;
	const measured_row *r = measured_find(&explorer_measured_set, kernel);
	if (!r)
		return -1;
	*l1 = r->l1;
	*l2 = r->l2;
	return 0;
}

static int explorer_from_cli(cli *c)
{
	static char try_hint[512];
	if (c->ninputs)
		samples_try(c->inputs[0], try_hint, sizeof try_hint);
	explorer_opts o = {
		.try_hint = *try_hint ? try_hint : NULL,
		.input = c->ninputs ? c->inputs[0] : INPUT_BUILTIN_PREFIX "fig3",
		.builtin_prefix = INPUT_BUILTIN_PREFIX,
		.config = c->config,
		.no_timing = c->no_timing,
		.script = c->script,
		.color = c->color,
		.teach = c->teach,
		.ctx = c,
		.load = explorer_load,
		.parts_open = explorer_parts_open,
		.parts_run = explorer_parts_run,
		.parts_free = explorer_parts_free,
		.preset_load = preset_load,
		.preset_save = explorer_preset_save,
		.svg_save = explorer_svg_save,
		.source_text = samples_source,
		.input_load = explorer_input_load,
		.count = explorer_count_run,
		.terminal = sigbus_terminal,
	};
	/* the learned estimator for the profile view, if it is installed
	 * (a missing or broken weights file only leaves it out) */
	char path[4096];
	rd_mlp *mlp = NULL;
	if (samples_data_file(ESTIMATE_MODEL_FILE, path, sizeof path) == 0)
		estimate_load_quiet(path, &mlp);
	o.learned = mlp;
	if (c->measured) {
		char err[1024];
		if (measured_read(c->measured, &explorer_measured_set, err, sizeof err) < 0) {
			msg_error("%s", err);
			rd_mlp_free(mlp);
			return EXIT_USAGE;
		}
		o.measured = explorer_measured;
		o.measured_name = c->measured;
	}
	int rc = explorer_run(&o);
	rd_mlp_free(mlp);
	if (c->measured)
		measured_free(&explorer_measured_set);
	return rc;
}

int main(int argc, char **argv)
{
	sigbus_install();
	char why[256];
	cli c;
	int rc = cli_parse(&c, argc, argv);
	if (rc == 0) {
		/* On a terminal the no-command form opens the explorer (only
		 * main.c calls into ui/); in pipes and scripts, and every
		 * command, runs by its row of CLI_COMMANDS. */
		if (c.cmd != CLI_DEFAULT || !explorer_wanted(&c))
			rc = cli_commands[c.cmd].run(&c);
		else if (!c.script && !c.teach && !explorer_terminal_ok(why, sizeof why)) {
			/* A terminal the explorer cannot draw on (TERM=dumb):
			 * the text result, as `rdscope run` prints it. */
			msg_error("%s: printing the text result instead", why);
			rc = cli_commands[c.cmd].run(&c);
		} else {
			rc = explorer_from_cli(&c);
		}
	}
	cli_free(&c);
	/* Help, version and keys go to stdout too: report a failed write. */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (rc == EXIT_OK)
			msg_error("cannot write to standard output");
		rc = rc == EXIT_OK ? EXIT_RUNTIME : rc;
	}
	return rc;
}
