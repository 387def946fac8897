/*
 * Batch runs (see batch.h). Inputs are modelled one at a time so only one
 * kernel is in memory; results stream out as they are ready. Output files
 * are committed only when every input succeeded (outfile.h).
 */
#include "batch.h"
#include "samefile.h"
#include "readers/readers.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "writers/writers.h"
#include "progress.h"
#include "util/util.h"

/* What the model's callbacks need. */
typedef struct batch_ctx {
	progress prog;
	FILE *log;   /* event log, or NULL */
} batch_ctx;

static int batch_on_progress(void *ctx, double fraction)
{
	progress_update(&((batch_ctx *)ctx)->prog, fraction);
	return 0;
}

static void batch_on_event(void *ctx, const rd_event *ev)
{
	output_log_event(((batch_ctx *)ctx)->log, ev);
}

double batch_seconds_since(const struct timespec *t0)
{
	struct timespec t1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

int batch_read_arrays(const char *path, rd_arrays **out)
{
	char err[1024];
	int rc = arrays_read(path, out, err, sizeof err);
	if (rc == -2) {
		msg_error("%s: out of memory", path);
		return EXIT_RUNTIME;
	}
	if (rc < 0) {
		msg_error("%s", err);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int batch_arrays_attach(const cli *c, const char *spec, rd_kernel *k)
{
	if (c->arrays) { /* --arrays replaces whatever the kernel had */
		rd_arrays *as = NULL;
		int rc = batch_read_arrays(c->arrays, &as);
		if (rc != EXIT_OK)
			return rc;
		rd_kernel_set_arrays(k, as);
	} else if (!k->arrays) {
		rd_arrays *as = rd_arrays_detect(k, c->gap ? c->gap : RD_ARRAYS_GAP_DEFAULT);
		if (!as) {
			msg_error("%s: out of memory", spec);
			return EXIT_RUNTIME;
		}
		rd_kernel_set_arrays(k, as);
	}
	return EXIT_OK;
}

int batch_spaces_prepare(const cli *c, const char *spec, rd_kernel *k, const rd_config *cfg)
{
	if (!rd_config_has_spaces(cfg))
		return EXIT_OK;
	char err[1024];
	int rc = batch_arrays_attach(c, spec, k);
	if (rc != EXIT_OK)
		return rc;
	if (rd_spaces_check(cfg, k, err, sizeof err) < 0) {
		msg_error("%s: %s", spec, err);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* Model one kernel of INPUT spec and write its result (run index). Frees
 * k. Returns an exit status. */
static int batch_kernel(const cli *c, const char *spec, rd_kernel *k, double load_s, output *out,
			FILE *log, sidecar *side, unsigned long index)
{
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	char err[512];
	if (memcheck_model(spec, k, err, sizeof err) < 0) {
		msg_error("%s", err);
		rd_kernel_free(k);
		return EXIT_RUNTIME;
	}
	int sp = batch_spaces_prepare(c, spec, k, &c->config);
	if (sp != EXIT_OK) {
		rd_kernel_free(k);
		return sp;
	}
	rd_model *m = rd_model_new(k);
	if (!m) {
		msg_error("%s: out of memory", spec);
		rd_kernel_free(k);
		return EXIT_RUNTIME;
	}
	/* the breakdown's cases on the CPUs (-j; the model takes at most one
	 * thread per case) */
	rd_model_set_threads(m, (int)(c->jobs ? c->jobs : util_online_cpus()));
	batch_ctx ctx = {.log = log};
	progress_init(&ctx.prog, !c->quiet, k->name);
	rd_callbacks cb = {
		.progress = batch_on_progress,
		.event = log ? batch_on_event : NULL,
		.by_site = c->by != OUTPUT_BY_NONE,
		.ctx = &ctx,
	};
	rd_result res;
	memset(&res, 0, sizeof res);
	int rc = rd_model_run(m, &c->config, RD_ALL_CASES, &cb, &res);
	progress_done(&ctx.prog);
	double model_s = batch_seconds_since(&t0);
	if (rc != RD_OK) {
		msg_error("%s: %s", spec, rd_strerror(rc));
		rd_model_free(m);
		rd_kernel_free(k);
		/* Invalid input or configuration is the user's to fix. */
		return rc == RD_EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
	}
	/* --l1b: the L1B run (the same model: its stages before the L1 are
	 * kept), its as-configured case only; no events or progress */
	rd_result l1b;
	memset(&l1b, 0, sizeof l1b);
	int have_l1b = 0;
	if (c->l1b && c->config.l2_size) {
		rd_config cfg = c->config;
		rd_config_l1b(&cfg);
		rd_callbacks none = {0};
		rc = rd_model_run(m, &cfg, 1 << RD_CASE_FULL, &none, &l1b);
		if (rc != RD_OK) {
			msg_error("%s: --l1b: %s", spec, rd_strerror(rc));
			rd_result_free(&res);
			rd_model_free(m);
			rd_kernel_free(k);
			return rc == RD_EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
		}
		have_l1b = 1;
		model_s = batch_seconds_since(&t0);
	}
	output_run run = {
		.input = spec,
		.kernel = k->name,
		.config = &c->config,
		.result = &res,
		.l1b = have_l1b ? &l1b : NULL,
		.k = k,
		.by = c->by,
		.top = c->top,
		.load_s = load_s,
		.model_s = model_s,
		.no_timing = c->no_timing,
	};
	output_write_run(out, &run);
	/* --histogram and --plot: kernel i of the inputs is run i, point 0. */
	if (sidecar_add(side, index, 0, spec, k->name, NULL, &c->config, &res) < 0) {
		msg_error("--plot: out of memory");
		rd_result_free(&l1b);
		rd_result_free(&res);
		rd_model_free(m);
		rd_kernel_free(k);
		return EXIT_RUNTIME;
	}
	rd_result_free(&l1b);
	rd_result_free(&res);
	rd_model_free(m);
	rd_kernel_free(k);
	return EXIT_OK;
}

/*
 * A kernel with stores counted but not kept (a .rdt of version 1 or 2:
 * every other reader keeps them) is modelled as if it had none: its
 * results would silently differ from the trace's, so say so (once per
 * input, by the callers).
 */
int batch_note_counted_stores(const char *spec, const rd_kernel *k, enum rd_stores s)
{
	if (s == RD_STORES_IGNORE || !k->nstores || k->store_tid)
		return 0;
	msg_error("note: %s: kernel %s has %llu stores counted but not their addresses (an .rdt "
		  "before version 3): l1.stores=%s models it without them; convert the original "
		  "trace again", spec, k->name, (unsigned long long)k->nstores, rd_stores_name(s));
	return 1;
}

/* Model every selected kernel of one INPUT; *index counts the runs. */
static int batch_one(const cli *c, const char *spec, output *out, FILE *log, sidecar *side,
		     unsigned long *index)
{
	char err[1024];
	input_opts opts = cli_input_opts(c);
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0); /* the first load includes opening */
	input *in;
	int st = input_open(spec, &opts, &in, err, sizeof err);
	int noted = 0;
	for (unsigned long nk = 0; st == INPUT_OK; nk++) {
		rd_kernel *k;
		if (nk)
			clock_gettime(CLOCK_MONOTONIC, &t0);
		st = input_next(in, &k, err, sizeof err);
		if (st != INPUT_OK)
			break;
		if (log && nk == 1) {
			snprintf(err, sizeof err, "--log: %s has more than one kernel; choose one with "
						  "--kernel NAME|INDEX", spec);
			rd_kernel_free(k);
			st = INPUT_EINPUT;
			break;
		}
		if (!noted)
			noted = batch_note_counted_stores(spec, k, c->config.stores);
		int rc = batch_kernel(c, spec, k, batch_seconds_since(&t0), out, log, side,
				      (*index)++);
		if (rc != EXIT_OK) {
			input_close(in);
			return rc;
		}
	}
	return batch_input_end(in, st, err);
}

/*
 * Every INPUT opened (and closed) before any output starts, so that a
 * missing or unreadable input, or one of no format rdscope knows, fails
 * the run before a result is written (a JSON document on standard output
 * would otherwise stop half-way). With --log, an input of several kernels
 * and no --kernel is refused here too: the log is of one kernel. Standard
 * input can be read only once and is left to the run itself.
 */
int batch_check_inputs(const cli *c, const char *const *inputs, int n, const input_opts *o)
{
	char err[1024];
	for (int i = 0; i < n; i++) {
		if (!strcmp(inputs[i], "-"))
			continue;
		int st;
		if (c->log && !c->kernel) { /* opens it, and counts its kernels */
			char **names = NULL;
			size_t nk = 0;
			st = input_names(inputs[i], o, &names, &nk, err, sizeof err);
			input_names_free(names, nk);
			if (st == INPUT_OK && nk > 1) {
				snprintf(err, sizeof err, "--log: %s has more than one kernel; choose one "
							  "with --kernel NAME|INDEX", inputs[i]);
				st = INPUT_EINPUT;
			}
		} else {
			input *in;
			st = input_open(inputs[i], o, &in, err, sizeof err);
			if (st == INPUT_OK)
				input_close(in);
		}
		if (st != INPUT_OK) {
			msg_error("%s", err);
			return st == INPUT_ENOMEM ? EXIT_RUNTIME : EXIT_USAGE;
		}
	}
	return EXIT_OK;
}

int batch_run(const cli *c)
{
	if (samefile_check(c))
		return EXIT_USAGE;
	char err[1024];
	outfile res_file = {0}, log_file = {0};
	sidecar side = {0};
	outfile_catch_signals();
	/* Without INPUT (only possible without a command): the built-in sample. */
	static const char *const sample[] = {INPUT_BUILTIN_PREFIX "fig3"};
	const char *const *inputs = c->ninputs ? c->inputs : sample;
	int n = c->ninputs ? c->ninputs : 1;
	/* Open outputs first: a bad path should fail before minutes of work. */
	if (outfile_open(&res_file, c->output ? c->output : "-", err, sizeof err) < 0) {
		msg_error("%s", err);
		return EXIT_RUNTIME;
	}
	if (c->log && outfile_open(&log_file, c->log, err, sizeof err) < 0) {
		msg_error("%s", err);
		outfile_abort(&res_file);
		return EXIT_RUNTIME;
	}
	if (sidecar_open(&side, c->histogram, c->plot, err, sizeof err) < 0) {
		msg_error("%s", err);
		outfile_abort(&log_file);
		outfile_abort(&res_file);
		return EXIT_RUNTIME;
	}
	if (side.plot) {
		plot_set_size(side.plot, c->plot_w, c->plot_h);
		plot_set_hists(side.plot, c->plot_hist);
	}
	input_opts opts = cli_input_opts(c);
	int rc = batch_check_inputs(c, inputs, n, &opts);
	if (rc != EXIT_OK) {
		sidecar_abort(&side);
		outfile_abort(&log_file);
		outfile_abort(&res_file);
		return rc;
	}
	if (c->log)
		output_log_header(log_file.f);
	if (c->l1b && !c->config.l2_size)
		msg_error("note: --l1b: no L2 (l2.size=0): L2_Hit_L1B and L2_Trans_L1B are not "
			  "computed");

	output out;
	output_begin(&out, res_file.f, c->format);
	out.by = c->by;
	unsigned long runs = 0;
	for (int i = 0; i < n; i++) {
		rc = batch_one(c, inputs[i], &out, c->log ? log_file.f : NULL, &side, &runs);
		if (rc != EXIT_OK) {
			/* A file is not written at all; standard output, already
			 * written to, is at least well-formed (JSON closed). */
			if (!res_file.path) {
				output_end(&out);
				fflush(res_file.f);
			}
			sidecar_abort(&side);
			outfile_abort(&log_file);
			outfile_abort(&res_file);
			return rc;
		}
	}
	output_end(&out);

	if (c->log && outfile_commit(&log_file, err, sizeof err) < 0) {
		msg_error("cannot write event log: %s", err);
		rc = EXIT_RUNTIME;
	}
	if (rc == EXIT_OK && sidecar_commit(&side, err, sizeof err) < 0) {
		msg_error("cannot write results: %s", err);
		rc = EXIT_RUNTIME;
	}
	sidecar_abort(&side);
	if (rc == EXIT_OK && outfile_commit(&res_file, err, sizeof err) < 0) {
		msg_error("cannot write results: %s", err);
		rc = EXIT_RUNTIME;
	}
	if (rc != EXIT_OK)
		outfile_abort(&res_file);
	return rc;
}

int batch_input_end(input *in, int st, const char *err)
{
	input_close(in);
	if (st == INPUT_END)
		return EXIT_OK;
	msg_error("%s", err);
	return st == INPUT_ENOMEM ? EXIT_RUNTIME : EXIT_USAGE;
}

int batch_each_kernel(const cli *c, const char *spec, batch_kernel_fn *fn, void *ctx)
{
	char err[1024];
	input_opts opts = cli_input_opts(c);
	input *in;
	int st = input_open(spec, &opts, &in, err, sizeof err);
	while (st == INPUT_OK) {
		rd_kernel *k;
		st = input_next(in, &k, err, sizeof err);
		if (st != INPUT_OK)
			break;
		if (memcheck_model(spec, k, err, sizeof err) < 0) {
			msg_error("%s", err);
			rd_kernel_free(k);
			input_close(in);
			return EXIT_RUNTIME;
		}
		rd_model *m = rd_model_new(k);
		int rc = m ? fn(ctx, spec, k, m) : RD_ENOMEM;
		rd_model_free(m);
		rd_kernel_free(k);
		if (rc != RD_OK) {
			msg_error("%s: %s", spec, rd_strerror(rc));
			input_close(in);
			return rc == RD_EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
		}
	}
	return batch_input_end(in, st, err); /* (in NULL when input_open failed) */
}

int batch_output_begin(const cli *c, outfile *out)
{
	char err[1024];
	memset(out, 0, sizeof *out);
	outfile_catch_signals();
	if (outfile_open(out, c->output ? c->output : "-", err, sizeof err) < 0) {
		msg_error("%s", err);
		return EXIT_RUNTIME;
	}
	return 0;
}

int batch_output_end(outfile *out, int rc)
{
	char err[1024];
	if (rc != EXIT_OK) {
		if (!out->path)
			fflush(out->f);
		outfile_abort(out);
		return rc;
	}
	if (outfile_commit(out, err, sizeof err) < 0) {
		msg_error("cannot write results: %s", err);
		outfile_abort(out);
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}
