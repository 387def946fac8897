/*
 * Sweep execution (see sweep_run.h). Inputs are loaded one at a time (one
 * kernel in memory, shared read-only by the workers); each worker thread
 * has its own rd_model, since models cache per-run state and are not
 * shared. The main thread writes results strictly in run order as they
 * complete, so the output does not depend on -j or on thread timing.
 */
#include "sweep_run.h"
#include "samefile.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "batch.h"
#include "readers/readers.h"
#include "writers/writers.h"
#include "progress.h"
#include "sweep.h"
#include "util/util.h"

/* One run of the current input. */
typedef struct sweep_slot {
	unsigned long point;
	rd_result res;
	rd_result l1b;  /* --l1b with an L2: the L1B run */
	int have_l1b;
	double model_s;
	int status;  /* enum rd_status */
	int done;    /* set by a worker under the lock */
} sweep_slot;

/* The work on one input, shared by its workers. */
typedef struct sweep_job {
	const rd_kernel *k;
	const sweep_plan *plan;
	sweep_slot *slots;
	size_t n, next;
	int model_threads; /* rd_model_set_threads: spare CPUs when points are few */
	int by_site;       /* --by: per-site counts */
	int l1b;           /* --l1b: the L1B run of each point with an L2 */
	int stop;      /* set by the main thread after a failure */
	pthread_mutex_t mu;
	pthread_cond_t cv;
} sweep_job;

static void *sweep_worker(void *arg)
{
	sweep_job *j = arg;
	rd_model *m = rd_model_new(j->k);
	if (m)
		rd_model_set_threads(m, j->model_threads);
	for (;;) {
		pthread_mutex_lock(&j->mu);
		if (j->stop || j->next == j->n) {
			pthread_mutex_unlock(&j->mu);
			break;
		}
		sweep_slot *s = &j->slots[j->next++];
		if (j->plan->skip[s->point]) { /* an invalid point: nothing to run */
			s->status = RD_OK;
			s->done = 1;
			pthread_cond_broadcast(&j->cv);
			pthread_mutex_unlock(&j->mu);
			continue;
		}
		pthread_mutex_unlock(&j->mu);
		struct timespec t0;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		rd_callbacks cb = {.by_site = j->by_site};
		const rd_config *cfg = &j->plan->configs[s->point];
		int st = m ? rd_model_run(m, cfg, RD_ALL_CASES, &cb, &s->res) : RD_ENOMEM;
		if (st == RD_OK && j->l1b && cfg->l2_size) { /* --l1b: the L1B run */
			rd_config b = *cfg;
			rd_config_l1b(&b);
			rd_callbacks none = {0};
			st = rd_model_run(m, &b, 1 << RD_CASE_FULL, &none, &s->l1b);
			if (st == RD_OK)
				s->have_l1b = 1;
			else
				rd_result_free(&s->res); /* a failed point holds no result */
		}
		double t = batch_seconds_since(&t0);
		pthread_mutex_lock(&j->mu);
		s->status = st;
		s->model_s = t;
		s->done = 1;
		pthread_cond_broadcast(&j->cv);
		pthread_mutex_unlock(&j->mu);
	}
	rd_model_free(m);
	return NULL;
}

/* Everything the sweep writes to. */
typedef struct sweep_out {
	outfile res;
	output out;
	sidecar side;
	progress prog;
	unsigned long done, total; /* runs of this shard */
} sweep_out;

/* The record of a skipped point (sweep.h): its run, configuration and why. */
static void write_skipped(const cli *c, const sweep_plan *plan, const char *spec,
			  unsigned long point, unsigned long run0, sweep_out *o)
{
	output_run run = {
		.input = spec,
		.kernel = "",
		.config = &plan->configs[point],
		.no_timing = c->no_timing,
		.run = run0 + point,
		.point = point,
		.point_label = plan->labels[point],
		.skipped = plan->skip[point],
	};
	output_write_run(&o->out, &run);
	/* the picture says it too, where its bar would be (issue 40 item 10) */
	if (o->side.plot && plot_add_skipped(o->side.plot, run.run, spec, run.point_label,
					     run.skipped) < 0)
		msg_error("--plot: out of memory");
	progress_update(&o->prog, (double)++o->done / (double)o->total);
}

/*
 * Run the given points of one loaded input on up to jobs threads and write
 * them in order. run0 is the run number of the input's point 0. Returns
 * an exit status.
 */
static int sweep_input(const cli *c, const sweep_plan *plan, const rd_kernel *k, const char *spec,
		       double load_s, const unsigned long *points, size_t n, unsigned long run0,
		       unsigned jobs, sweep_out *o)
{
	/* Fewer points than threads: let each model use the spare ones. */
	unsigned workers = jobs < n ? jobs : (unsigned)n, per = workers ? jobs / workers : 1;
	sweep_job j = {.k = k, .plan = plan, .n = n, .model_threads = per > 4 ? 4 : (int)per,
		       .by_site = c->by != OUTPUT_BY_NONE, .l1b = c->l1b};
	j.slots = calloc(n, sizeof *j.slots);
	pthread_t *th = calloc(jobs, sizeof *th);
	if (!j.slots || !th) {
		free(j.slots);
		free(th);
		msg_error("%s: out of memory", spec);
		return EXIT_RUNTIME;
	}
	for (size_t i = 0; i < n; i++)
		j.slots[i].point = points[i];
	pthread_mutex_init(&j.mu, NULL);
	pthread_cond_init(&j.cv, NULL);
	unsigned started = 0;
	while (started < workers &&
	       pthread_create(&th[started], NULL, sweep_worker, &j) == 0)
		started++;
	int rc = EXIT_OK;
	if (started == 0) {
		msg_error("cannot start a worker thread");
		rc = EXIT_RUNTIME;
	}
	size_t w = 0;
	for (; w < n && rc == EXIT_OK; w++) {
		sweep_slot *s = &j.slots[w];
		pthread_mutex_lock(&j.mu);
		while (!s->done)
			pthread_cond_wait(&j.cv, &j.mu);
		pthread_mutex_unlock(&j.mu);
		if (plan->skip[s->point]) {
			write_skipped(c, plan, spec, s->point, run0, o);
			continue;
		}
		if (s->status != RD_OK) {
			msg_error("%s: point %lu: %s", spec, s->point,
				rd_strerror(s->status));
			rc = s->status == RD_EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
			break;
		}
		output_run run = {
			.input = spec,
			.kernel = k->name,
			.config = &plan->configs[s->point],
			.result = &s->res,
			.l1b = s->have_l1b ? &s->l1b : NULL,
			.k = k,
			.by = c->by,
			.top = c->top,
			.load_s = load_s,
			.model_s = s->model_s,
			.no_timing = c->no_timing,
			.run = run0 + s->point,
			.point = s->point,
			.point_label = plan->labels[s->point],
		};
		output_write_run(&o->out, &run);
		if (sidecar_add(&o->side, run.run, s->point, spec, k->name, run.point_label, run.config,
				&s->res) < 0) {
			msg_error("--plot: out of memory");
			rc = EXIT_RUNTIME;
		}
		rd_result_free(&s->res);
		rd_result_free(&s->l1b);
		s->status = -1; /* freed */
		progress_update(&o->prog, (double)++o->done / (double)o->total);
	}
	pthread_mutex_lock(&j.mu);
	j.stop = 1;
	pthread_mutex_unlock(&j.mu);
	for (unsigned t = 0; t < started; t++)
		pthread_join(th[t], NULL);
	/* After a failure: results finished but never written. */
	for (size_t i = 0; i < n; i++)
		if (j.slots[i].done && j.slots[i].status == RD_OK) {
			rd_result_free(&j.slots[i].res);
			rd_result_free(&j.slots[i].l1b);
		}
	pthread_cond_destroy(&j.cv);
	pthread_mutex_destroy(&j.mu);
	free(j.slots);
	free(th);
	return rc;
}

/*
 * The points of one input modelled in parts (batch_parts_result): one
 * point after another, each on the -j threads (its parts depend on its
 * cores and schedule), written as each is done. The same records as
 * sweep_input's.
 */
static int sweep_input_parts(const cli *c, const sweep_plan *plan, const batch_parts *bp,
			     double load_s, const unsigned long *points, size_t n,
			     unsigned long run0, sweep_out *o)
{
	const rd_kernel *k = bp->shape;
	const char *spec = bp->spec;
	for (size_t q = 0; q < n; q++) {
		unsigned long p = points[q];
		if (plan->skip[p]) {
			write_skipped(c, plan, spec, p, run0, o);
			continue;
		}
		struct timespec t0;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		rd_result res;
		char err[1024];
		int rc = batch_parts_result(bp, &plan->configs[p], RD_ALL_CASES, &res, err,
					    sizeof err);
		if (rc != EXIT_OK) {
			msg_error("%s", err);
			return rc;
		}
		output_run run = {
			.input = spec,
			.kernel = k->name,
			.config = &plan->configs[p],
			.result = &res,
			.k = k,
			.by = c->by,
			.top = c->top,
			.load_s = load_s,
			.model_s = batch_seconds_since(&t0),
			.no_timing = c->no_timing,
			.run = run0 + p,
			.point = p,
			.point_label = plan->labels[p],
		};
		output_write_run(&o->out, &run);
		rc = EXIT_OK;
		if (sidecar_add(&o->side, run.run, p, spec, k->name, run.point_label, run.config,
				&res) < 0) {
			msg_error("--plot: out of memory");
			rc = EXIT_RUNTIME;
		}
		rd_result_free(&res);
		if (rc != EXIT_OK)
			return rc;
		progress_update(&o->prog, (double)++o->done / (double)o->total);
	}
	return EXIT_OK;
}

/* Input i's points of this shard in parts, where every one of them that
 * runs would be (run's rule, batch_parts_config) and its reader builds
 * its one kernel so: 1 with its status in *rc, else 0 (load it whole). */
static int sweep_one_input_parts(const cli *c, const sweep_plan *plan, int i,
				 const unsigned long *points, size_t n, unsigned long run0,
				 sweep_out *o, int *rc)
{
	for (size_t q = 0; q < n; q++)
		if (!plan->skip[points[q]] && !batch_parts_config(c, &plan->configs[points[q]]))
			return 0;
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	batch_parts bp;
	if (!batch_open_parts(c, c->inputs[i], &bp))
		return 0;
	double load_s = batch_seconds_since(&t0);
	for (size_t q = 0; q < n; q++)
		if (!plan->skip[points[q]] &&
		    batch_note_counted_stores(c->inputs[i], bp.shape, plan->configs[points[q]].stores))
			break;
	*rc = sweep_input_parts(c, plan, &bp, load_s, points, n, run0, o);
	batch_close_parts(&bp);
	return 1;
}

/* Load input i and run its points of this shard. */
static int sweep_one_input(const cli *c, const sweep_plan *plan, int i, unsigned jobs,
			   unsigned long *points, sweep_out *o)
{
	unsigned long P = plan->npoints, run0 = (unsigned long)i * P;
	unsigned long shard_n = c->shard_n ? c->shard_n : 1;
	size_t n = 0;
	for (unsigned long p = 0; p < P; p++)
		if ((run0 + p) % shard_n == c->shard_k)
			points[n++] = p;
	if (n == 0)
		return EXIT_OK; /* nothing of this input in our shard: do not load it */
	size_t valid = 0;
	for (size_t q = 0; q < n; q++)
		valid += !plan->skip[points[q]];
	if (valid == 0) { /* only skipped points: no need to load it either */
		for (size_t q = 0; q < n; q++)
			write_skipped(c, plan, c->inputs[i], points[q], run0, o);
		return EXIT_OK;
	}
	int prc;
	if (sweep_one_input_parts(c, plan, i, points, n, run0, o, &prc))
		return prc;
	char err[1024];
	input_opts opts = cli_input_opts(c);
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rd_kernel *k;
	int st = input_load_with(c->inputs[i], &opts, &k, err, sizeof err);
	if (st != INPUT_OK) {
		msg_error("%s", err);
		return st == INPUT_ENOMEM ? EXIT_RUNTIME : EXIT_USAGE;
	}
	double load_s = batch_seconds_since(&t0);
	/* the note of a kernel whose stores are counted only, for the first
	 * point of this input that models stores */
	for (size_t q = 0; q < n; q++)
		if (!plan->skip[points[q]] &&
		    batch_note_counted_stores(c->inputs[i], k, plan->configs[points[q]].stores))
			break;
	for (size_t q = 0; q < n; q++) {
		int sp = plan->skip[points[q]] ? EXIT_OK
					       : batch_spaces_prepare(c, c->inputs[i], k,
								      &plan->configs[points[q]]);
		if (sp != EXIT_OK) {
			rd_kernel_free(k);
			return sp;
		}
	}
	int rc = sweep_input(c, plan, k, c->inputs[i], load_s, points, n, run0, jobs, o);
	rd_kernel_free(k);
	return rc;
}

/*
 * The JSON header members of a sweep: the plan (varied keys and values,
 * inputs, the base configuration), and (only when sharded, so that merge
 * can drop it and match the unsharded header) the shard. id gets the
 * plan's hash, which sweep CSVs carry in their last column so that merge
 * can tell shards of one sweep from shards of another.
 */
static char *sweep_json_header(const cli *c, const sweep_plan *plan, char *id, size_t idlen)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	fputs("\"sweep\":{\"vary\":[", f);
	sweep_plan_json_axes(f, plan);
	fputs("],\"inputs\":[", f);
	for (int i = 0; i < c->ninputs; i++) {
		if (i)
			putc(',', f);
		output_json_quote(f, c->inputs[i]);
	}
	fprintf(f, "],\"points\":%lu,\"runs_total\":%lu,\"base\":", plan->npoints,
		plan->npoints * (unsigned long)c->ninputs);
	output_json_config(f, &c->config);
	fputs("},", f);
	/* What identifies the sweep, for CSV (JSON has it in the header):
	 * FNV-1a of the sweep member so far, the shard left out. */
	fflush(f);
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)buf[i]) * 0x100000001b3ull;
	snprintf(id, idlen, "%016llx", (unsigned long long)h);
	if (c->shard_n > 1)
		fprintf(f, "\"shard\":{\"index\":%u,\"count\":%u},", c->shard_k, c->shard_n);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

int sweep_check(const cli *c)
{
	if (c->nvary == 0)
		return cli_command_error(c, "%s: no --vary KEY=V1,V2,... given (use 'run' for one "
					    "point)");
	if (c->ninputs == 0)
		return cli_command_error(c, "%s: no INPUT given");
	return 0;
}

int sweep_run(const cli *c)
{
	if (samefile_check(c))
		return EXIT_USAGE;
	static char err[16384];
	sweep_plan plan;
	if (sweep_plan_build(&plan, &c->config, c->vary, c->nvary, err, sizeof err) < 0) {
		cli_print_errors(err);
		return EXIT_USAGE;
	}
	/* --by: a point of the reference profile has no per-site counts */
	for (unsigned long p = 0; c->by != OUTPUT_BY_NONE && p < plan.npoints; p++)
		if (!plan.skip[p] && plan.configs[p].model == RD_PROFILE_REF2013) {
			plan.skip[p] = strdup("--by: the reference-2013 profile has no breakdown by "
					      "source (it reproduces the 2013 code's totals)");
			if (!plan.skip[p]) {
				msg_error("out of memory");
				sweep_plan_free(&plan);
				return EXIT_RUNTIME;
			}
			plan.nskip++;
		}
	unsigned jobs = c->jobs ? c->jobs : util_online_cpus();
	unsigned long shard_n = c->shard_n ? c->shard_n : 1;
	/* Invalid points are skipped (their records say so): one warning
	 * each, from the shard that has runs of it. */
	for (unsigned long p = 0; p < plan.npoints; p++) {
		int mine = 0;
		for (int i = 0; i < c->ninputs && !mine; i++)
			mine = ((unsigned long)i * plan.npoints + p) % shard_n == c->shard_k;
		if (plan.skip[p] && mine)
			msg_error("warning: --vary: point %lu (%s) skipped: %s", p, plan.labels[p],
				  plan.skip[p]);
	}
	unsigned long runs = plan.npoints * (unsigned long)c->ninputs;
	sweep_out o;
	memset(&o, 0, sizeof o);
	o.total = runs / shard_n + (c->shard_k < runs % shard_n);
	const char **extra = calloc((size_t)plan.naxes + 1, sizeof *extra);
	unsigned long *points = calloc(plan.npoints, sizeof *points);
	char sweep_id[17];
	char *json = sweep_json_header(c, &plan, sweep_id, sizeof sweep_id);
	int rc = EXIT_OK, nextra = 0;
	if (!extra || !points || !json) {
		msg_error("out of memory");
		rc = EXIT_RUNTIME;
		goto out;
	}
	for (int a = 0; a < plan.naxes; a++)
		if (!output_csv_has_column(plan.axes[a].key))
			extra[nextra++] = plan.axes[a].key;
	outfile_catch_signals();
	/* Open every output first: a bad path should fail before hours of work. */
	if (outfile_open(&o.res, c->output ? c->output : "-", err, sizeof err) < 0 ||
	    sidecar_open(&o.side, c->histogram, c->plot, err, sizeof err) < 0) {
		msg_error("%s", err);
		outfile_abort(&o.res);
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (o.side.plot) {
		plot_set_size(o.side.plot, c->plot_w, c->plot_h);
		plot_set_hists(o.side.plot, c->plot_hist);
	}
	/* Every input opened before output starts (batch.c), so a missing
	 * one leaves no half-written document. */
	input_opts opts = cli_input_opts(c);
	rc = batch_check_inputs(c, c->inputs, c->ninputs, &opts);
	if (rc != EXIT_OK) {
		sidecar_abort(&o.side);
		outfile_abort(&o.res);
		goto out;
	}
	output_begin_sweep(&o.out, o.res.f, c->format, json, extra, nextra, sweep_id);
	o.out.by = c->by;
	progress_init(&o.prog, !c->quiet, "sweep");
	for (int i = 0; i < c->ninputs && rc == EXIT_OK; i++)
		rc = sweep_one_input(c, &plan, i, jobs, points, &o);
	progress_done(&o.prog);
	if (rc != EXIT_OK && !o.res.path) {
		/* A file is not written at all; standard output, already written
		 * to, is at least well-formed (JSON closed), as run's. */
		output_end(&o.out);
		fflush(o.res.f);
	}
	if (rc == EXIT_OK) {
		output_end(&o.out);
		if (sidecar_commit(&o.side, err, sizeof err) < 0 ||
		    outfile_commit(&o.res, err, sizeof err) < 0) {
			msg_error("cannot write results: %s", err);
			rc = EXIT_RUNTIME;
		}
	}
	sidecar_abort(&o.side);
	outfile_abort(&o.res);
out:
	free(extra);
	free(points);
	free(json);
	sweep_plan_free(&plan);
	return rc;
}
