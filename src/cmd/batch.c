/*
 * Batch runs (see batch.h). Inputs are modelled one at a time so only one
 * kernel is in memory; results stream out as they are ready. Output files
 * are committed only when every input succeeded (outfile.h).
 */
#include "batch.h"
#include "samefile.h"
#include "readers/readers.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
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

/* Write one run's result and keep it for --histogram and --plot (kernel i
 * of the inputs is run i, point 0). */
static int batch_emit(const cli *c, const char *spec, const rd_kernel *k, const rd_result *res,
		      const rd_result *l1b, double load_s, double model_s, output *out,
		      sidecar *side, unsigned long index)
{
	output_run run = {
		.input = spec,
		.kernel = k->name,
		.config = &c->config,
		.result = res,
		.l1b = l1b,
		.k = k,
		.by = c->by,
		.top = c->top,
		.load_s = load_s,
		.model_s = model_s,
		.no_timing = c->no_timing,
	};
	output_write_run(out, &run);
	if (sidecar_add(side, index, 0, spec, k->name, NULL, &c->config, res) < 0) {
		msg_error("--plot: out of memory");
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

/*
 * A kernel in parts (rd_parts), where its reader builds blocks apart and
 * the run allows it: each core's blocks built and modelled in turn, on -j
 * threads, so that memory follows one core's share of the kernel, not the
 * kernel. One part at a time is built and coalesced (the turn: the reader
 * is not shared; a description's part is coalesced a chunk of blocks at a
 * time as it is built, rd_part_builder, other readers' once built, and its
 * expanded accesses freed once coalesced, rd_parts_add_spent), the parts'
 * cases run side by side: one part's accesses (a description's: one
 * chunk's) are in memory at a time, whatever -j. A streamed part holds the
 * turn only while its source is opened: its reading builds nothing (it
 * keeps at most RD_STREAM_KEEP requests), so parts read side by side too.
 * RDSCOPE_PARTS=0 models
 * the whole kernel at once (the results are the same bytes:
 * tests/e2e/parts.sh).
 */
typedef struct parts_run {
	const cli *c;
	const rd_config *cfg;  /* the run's configuration (a sweep's point) */
	const char *spec;
	input *in;
	rd_parts *p;
	const uint32_t *cores; /* the cores with blocks */
	uint32_t n;
	pthread_mutex_t turn;  /* building and coalescing a part (the reader too) */
	pthread_mutex_t mu;    /* next, done, rc, err, progress */
	uint32_t next, done;
	int rc;
	char err[1024];
	uint32_t err_part;     /* the part err is of (parts_fail) */
	batch_ctx *ctx;
	int threads, all;      /* a part's cases' threads; alone (see PART_ALONE) */
	int stream;            /* parts streamed where the reader can (batch_stream_parts) */
	/* asked with the fraction of parts done before each part and after
	 * each: nonzero stops the run (RD_ECANCELED); NULL: never */
	int (*stop)(void *ctx, double done);
	/* after each part (under mu): the L1 result of the parts done so far
	 * (rd_parts_peek), NULL: none */
	void (*partial)(void *ctx, const rd_result *r, unsigned done, unsigned total);
	void *stop_ctx;
	int stopped;
} parts_run;

/* A part whose accesses take more than this (10 bytes a load, 18 a store,
 * as built) is modelled alone: the turn is held until its cases are done,
 * which then take every thread. Otherwise the next part would be built
 * while its cases run, and two large parts' requests (and, where the
 * reader builds a part whole, its accesses) would be in memory at once
 * (syr2k at its default size on 132 SMs: 471 MB of accesses a part; 610
 * MB peak for one part built whole, 851 MB for two). */
#define PART_ALONE ((uint64_t)64 << 20)

typedef struct keep_core {
	const rd_config *c;
	uint32_t core;
} keep_core;

static int keep_core_blocks(void *ctx, uint64_t block)
{
	const keep_core *kc = ctx;
	return rd_block_core(kc->c, block) == kc->core;
}

static void turn_end(void *ctx)
{
	pthread_mutex_unlock(ctx);
}

/* The parts done so far, to pr->partial (under pr->mu: one at a time, the
 * parts counted never fewer than the last call's). */
static void parts_partial(parts_run *pr)
{
	rd_result r;
	uint32_t np = 0;
	if (rd_parts_peek(pr->p, &r, &np) != RD_OK)
		return; /* a partial result is a nicety: the final one still comes */
	pr->partial(pr->stop_ctx, &r, np, pr->n);
	rd_result_free(&r);
}

/* A chunk of a part, coalesced as it is built (rd_part_builder). */
static int part_chunk(void *ctx, rd_kernel *chunk)
{
	int rc = rd_part_builder_add(ctx, chunk);
	return rc == RD_OK ? 0 : -1;
}

/* Part i failed with rc and why (under pr->mu): the error kept is the
 * lowest part's, so that the message does not depend on which thread
 * failed first (parts are taken in order, so every part below a failed
 * one was taken and ends before the run does). */
static void parts_fail(parts_run *pr, uint32_t i, int rc, const char *why)
{
	if (pr->rc != EXIT_OK && (pr->stopped || i >= pr->err_part))
		return;
	snprintf(pr->err, sizeof pr->err, "%s", why);
	pr->rc = rc;
	pr->err_part = i;
}

/* pr->stop asked (under pr->mu): once it says stop, the run is stopped
 * (RD_ECANCELED) */
static int parts_asked(parts_run *pr)
{
	if (!pr->stopped && pr->stop && pr->stop(pr->stop_ctx, (double)pr->done / pr->n)) {
		pr->stopped = 1;
		if (pr->rc == EXIT_OK) {
			pr->rc = EXIT_RUNTIME;
			snprintf(pr->err, sizeof pr->err, "%s: %s", pr->spec,
				 rd_strerror(RD_ECANCELED));
		}
	}
	return pr->stopped;
}

/* ... and from inside a part (rd_parts_set_stop: every few thousand
 * requests, from each part's thread) */
static int parts_stop_inside(void *ctx)
{
	parts_run *pr = ctx;
	pthread_mutex_lock(&pr->mu);
	int stop = parts_asked(pr);
	pthread_mutex_unlock(&pr->mu);
	return stop;
}

static void *parts_worker(void *arg)
{
	parts_run *pr = arg;
	for (;;) {
		pthread_mutex_lock(&pr->turn);
		pthread_mutex_lock(&pr->mu);
		if (pr->rc == EXIT_OK && pr->next < pr->n)
			parts_asked(pr);
		if (pr->rc != EXIT_OK || pr->next >= pr->n) {
			pthread_mutex_unlock(&pr->mu);
			pthread_mutex_unlock(&pr->turn);
			return NULL;
		}
		uint32_t part = pr->next++;
		keep_core kc = {pr->cfg, pr->cores[part]};
		pthread_mutex_unlock(&pr->mu);
		rd_kernel *k = NULL;
		char err[1024];
		/* streamed, where the reader and the model can (read a batch
		 * at a time as the model runs it: its accesses never built);
		 * else coalesced a few blocks at a time as it is built, where
		 * the reader can (its accesses never all in memory at once) */
		rd_access_src *src = NULL;
		int stream = pr->stream && input_can_stream(pr->in);
		rd_part_builder *pb = !stream && input_can_chunk(pr->in)
					      ? rd_part_builder_new(pr->cfg, pr->all)
					      : NULL;
		int st = INPUT_ENOMEM;
		if (stream) {
			st = input_stream(pr->in, keep_core_blocks, &kc, &k, &src, err, sizeof err);
		} else if (pb) {
			st = input_chunks(pr->in, keep_core_blocks, &kc, part_chunk, pb, &k, err,
					  sizeof err);
			int bs = st == INPUT_OK ? rd_part_builder_shell(pb, k) : RD_OK;
			if (bs != RD_OK) {
				snprintf(err, sizeof err, "%s: %s", pr->spec, rd_strerror(bs));
				st = bs == RD_ENOMEM ? INPUT_ENOMEM : INPUT_EINPUT;
			}
		} else if (!input_can_chunk(pr->in)) {
			st = input_blocks(pr->in, keep_core_blocks, &kc, &k, err, sizeof err);
		} else {
			snprintf(err, sizeof err, "%s: out of memory", pr->spec);
		}
		if (st != INPUT_OK) {
			rd_kernel_free(k);
			rd_part_builder_free(pb);
			input_stream_free(pr->in, src);
			pthread_mutex_lock(&pr->mu);
			parts_fail(pr, part, st == INPUT_ENOMEM ? EXIT_RUNTIME : EXIT_USAGE, err);
			pthread_mutex_unlock(&pr->mu);
			pthread_mutex_unlock(&pr->turn);
			return NULL;
		}
		int big = memcheck_model(pr->spec, k, err, sizeof err) < 0;
		/* a streamed part's turn ends once its source is open: its
		 * reading keeps at most RD_STREAM_KEEP requests, as its cases
		 * do after, so the parts read side by side (fdtd-2d's 1,500
		 * launches of 132 small parts: their reading is most of it) */
		if (big || src)
			pthread_mutex_unlock(&pr->turn);
		/* (the turn ends once the part is coalesced; alone, once it is
		 * modelled: p's threads are read under the turn; a streamed
		 * run's, set once before the workers start) */
		int alone = !src && k->nloads * 10 + k->nstores * 18 > PART_ALONE, rc = -1;
		if (!big && src) {
			rc = rd_parts_add_stream(pr->p, k, src, NULL, NULL);
		} else if (!big) {
			rd_parts_set_threads(pr->p, alone ? pr->all : pr->threads);
			if (pb)
				rc = rd_parts_add_built(pr->p, k, pb, alone ? NULL : turn_end,
							&pr->turn);
			else
				rc = rd_parts_add_spent(pr->p, k, alone ? NULL : turn_end,
							&pr->turn);
			if (alone)
				pthread_mutex_unlock(&pr->turn);
		}
		/* (a thread's failure: the description's message) */
		const char *why = rc == RD_EINVAL ? input_stream_error(pr->in, src) : NULL;
		if (why)
			snprintf(err, sizeof err, "%s", why);
		input_stream_free(pr->in, src);
		rd_kernel_free(k);
		rd_part_builder_free(pb);
		pthread_mutex_lock(&pr->mu);
		if (rc != RD_OK) {
			if (rc != -1 && !why)
				snprintf(err, sizeof err, "%s: %s", pr->spec, rd_strerror(rc));
			parts_fail(pr, part, rc == RD_EINVAL ? EXIT_USAGE : EXIT_RUNTIME, err);
		}
		pr->done++;
		progress_update(&pr->ctx->prog, (double)pr->done / pr->n);
		if (pr->stop && pr->done < pr->n)
			pr->stop(pr->stop_ctx, (double)pr->done / pr->n); /* (progress only) */
		if (pr->partial && pr->rc == EXIT_OK && pr->done < pr->n)
			parts_partial(pr);
		pthread_mutex_unlock(&pr->mu);
	}
}

/* The result of kernel shape (nblocks blocks, built by in) under cfg for
 * cases, in parts (a progress line unless quiet; stop(stop_ctx, done) asked
 * between parts, NULL: never; partial(stop_ctx, ...) after each part but
 * the last, NULL: never): EXIT_OK with *res, else the exit status with why
 * in err (*stopped set when stop ended it). */
/* Stream a kernel's parts where the reader can (rd_parts_add_stream: the
 * same results, its accesses never built or copied)? The paper's model
 * only. RDSCOPE_STREAM=0 builds (a description's, in chunks) or copies
 * (a mapped .rdt's) them as before (tests/e2e/streamed.sh compares). */
static int batch_stream_parts(const rd_config *cfg)
{
	const char *e = getenv("RDSCOPE_STREAM");
	if (e && !strcmp(e, "0"))
		return 0;
	return cfg->model == RD_PROFILE_PAPER;
}

static int parts_model(const cli *c, const rd_config *cfg, const char *spec, input *in,
		       const rd_kernel *shape, uint64_t nblocks, int cases, int quiet,
		       int (*stop)(void *ctx, double done),
		       void (*partial)(void *ctx, const rd_result *r, unsigned done, unsigned total),
		       void *stop_ctx, int *stopped, rd_result *res, char *err, size_t errlen)
{
	if (stopped)
		*stopped = 0;
	memset(res, 0, sizeof *res);
	/* the cores with blocks, in order (one part each; at least one part) */
	uint32_t *cores = calloc(cfg->cores, sizeof *cores);
	uint8_t *has = calloc(cfg->cores, 1);
	rd_parts *p = rd_parts_new(cfg, cases);
	if (!cores || !has || !p) {
		free(cores);
		free(has);
		rd_parts_free(p);
		snprintf(err, errlen, "%s: out of memory", spec);
		return EXIT_RUNTIME;
	}
	/* RDSCOPE_STREAM_KEEP=N: a streamed part's requests kept up to N (0:
	 * each case reads it again; tests/e2e/stream.sh) */
	const char *keep = getenv("RDSCOPE_STREAM_KEEP");
	if (keep && *keep >= '0' && *keep <= '9')
		rd_parts_set_stream_keep(p, strtoull(keep, NULL, 10));
	/* RDSCOPE_SPILL=N: what leaves the L1s kept in memory up to N bytes,
	 * then in temporary files (1: always; 0: never; tests/e2e/streamed.sh) */
	const char *spill = getenv("RDSCOPE_SPILL");
	if (spill && *spill >= '0' && *spill <= '9')
		rd_parts_set_spill(p, strtoull(spill, NULL, 10));
	for (uint64_t b = 0; b < nblocks; b++)
		has[rd_block_core(cfg, b)] = 1;
	uint32_t n = 0;
	for (uint32_t i = 0; i < cfg->cores; i++)
		if (has[i] || (i == cfg->cores - 1 && !n))
			cores[n++] = i;
	free(has);
	uint32_t ns = cfg->sample_cores;
	if (ns && ns < n) { /* gpu.sample_cores: n evenly spaced of them */
		for (uint32_t i = 0; i < ns; i++)
			cores[i] = cores[rd_sample_pick(n, ns, i)];
		uint64_t th = nblocks * shape->block_size;
		if (cfg->max_threads && th > cfg->max_threads)
			th = cfg->max_threads;
		rd_parts_set_sample(p, n, ns, (uint32_t)th,
				    (uint32_t)((th + shape->block_size - 1) / shape->block_size));
		n = ns;
	}
	unsigned jobs = c->jobs ? c->jobs : util_online_cpus();
	if (jobs > n)
		jobs = n;
	if (jobs < 1)
		jobs = 1;
	batch_ctx ctx = {0};
	progress_init(&ctx.prog, !quiet, shape->name);
	/* each part's cases on what the parts leave of the -j threads (set
	 * before each part starts) */
	unsigned all = c->jobs ? c->jobs : util_online_cpus();
	parts_run pr = {.c = c, .cfg = cfg, .spec = spec, .in = in, .p = p, .cores = cores, .n = n,
			.ctx = &ctx, .threads = (int)(all / jobs), .all = (int)all,
			.stop = stop, .partial = partial, .stop_ctx = stop_ctx,
			.stream = batch_stream_parts(cfg), .err_part = UINT32_MAX};
	pthread_mutex_init(&pr.mu, NULL);
	pthread_mutex_init(&pr.turn, NULL);
	rd_parts_set_threads(p, pr.threads); /* (a streamed part's: parts_worker) */
	if (stop) /* (an edit in the explorer: a long part stops too) */
		rd_parts_set_stop(p, parts_stop_inside, &pr);
	pthread_t th[64];
	unsigned nth = 0;
	for (unsigned t = 1; t < jobs && t < 64; t++)
		if (pthread_create(&th[nth], NULL, parts_worker, &pr) == 0)
			nth++;
	parts_worker(&pr);
	for (unsigned t = 0; t < nth; t++)
		pthread_join(th[t], NULL);
	pthread_mutex_destroy(&pr.mu);
	pthread_mutex_destroy(&pr.turn);
	free(cores);
	int rc = pr.rc;
	if (rc == EXIT_OK) {
		int st = rd_parts_finish(p, shape, NULL, res);
		if (st != RD_OK) {
			snprintf(pr.err, sizeof pr.err, "%s: %s", spec, rd_strerror(st));
			rc = st == RD_EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
		}
	}
	progress_done(&ctx.prog);
	rd_parts_free(p);
	if (stopped)
		*stopped = pr.stopped;
	if (rc != EXIT_OK) {
		rd_result_free(res);
		snprintf(err, errlen, "%s", pr.err);
	}
	return rc;
}

/* parts_model under c's configuration, saying why not. */
static int parts_result(const cli *c, const char *spec, input *in, const rd_kernel *shape,
			uint64_t nblocks, int cases, rd_result *res)
{
	char err[1024];
	int rc = parts_model(c, &c->config, spec, in, shape, nblocks, cases, c->quiet, NULL, NULL,
			     NULL, NULL, res, err, sizeof err);
	if (rc != EXIT_OK)
		msg_error("%s", err);
	return rc;
}

int batch_parts_result(const batch_parts *bp, const rd_config *cfg, int cases, rd_result *res,
		       char *err, size_t errlen)
{
	return parts_model(bp->c, cfg, bp->spec, bp->in, bp->shape, bp->nblocks, cases, 1, NULL,
			   NULL, NULL, NULL, res, err, errlen);
}

int batch_parts_result_stop(const batch_parts *bp, const rd_config *cfg, int cases,
			    int (*stop)(void *ctx, double done),
			    void (*partial)(void *ctx, const rd_result *r, unsigned done,
					    unsigned total),
			    void *ctx, int *stopped, rd_result *res, char *err, size_t errlen)
{
	return parts_model(bp->c, cfg, bp->spec, bp->in, bp->shape, bp->nblocks, cases, 1, stop,
			   partial, ctx, stopped, res, err, errlen);
}

static int batch_kernel_parts(const cli *c, const char *spec, input *in, rd_kernel *shape,
			      uint64_t nblocks, double load_s, output *out, sidecar *side,
			      unsigned long index)
{
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rd_result res;
	int rc = parts_result(c, spec, in, shape, nblocks, RD_ALL_CASES, &res);
	if (rc == EXIT_OK) {
		rc = batch_emit(c, spec, shape, &res, NULL, load_s, batch_seconds_since(&t0), out,
				side, index);
		rd_result_free(&res);
	}
	rd_kernel_free(shape);
	return rc;
}

int batch_parts_config(const cli *c, const rd_config *cfg)
{
	const char *e = getenv("RDSCOPE_PARTS");
	if (e && !strcmp(e, "0"))
		return 0;
	return cfg->cores > 1 && !c->log && c->by == OUTPUT_BY_NONE &&
	       !(c->l1b && cfg->l2_size) && rd_parts_possible(cfg, NULL, 0);
}

/* Model a kernel in parts? (the reader decides whether it can) */
static int batch_parts_wanted(const cli *c)
{
	return batch_parts_config(c, &c->config);
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
	rc = batch_emit(c, spec, k, &res, have_l1b ? &l1b : NULL, load_s, model_s, out, side, index);
	rd_result_free(&l1b);
	rd_result_free(&res);
	rd_model_free(m);
	rd_kernel_free(k);
	return rc;
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
	int noted = 0, parts = batch_parts_wanted(c);
	for (unsigned long nk = 0; st == INPUT_OK; nk++) {
		rd_kernel *k;
		if (nk)
			clock_gettime(CLOCK_MONOTONIC, &t0);
		uint64_t nblocks = 0;
		st = parts ? input_next_shape(in, &k, &nblocks, err, sizeof err)
			   : input_next(in, &k, err, sizeof err);
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
		int rc = nblocks ? batch_kernel_parts(c, spec, in, k, nblocks, batch_seconds_since(&t0),
						      out, side, (*index)++)
				 : batch_kernel(c, spec, k, batch_seconds_since(&t0), out, log, side,
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

/* batch_each_result's fn through batch_each_shape: each kernel's result,
 * in parts (with c's progress line) or of the whole kernel's model. */
typedef struct each_result {
	const cli *c;
	int cases;
	batch_result_fn *fn;
	void *ctx;
} each_result;

static int each_result_one(void *ctx, const char *spec, const rd_kernel *k, rd_model *m,
			   const batch_parts *bp)
{
	const each_result *e = ctx;
	rd_result res;
	int rc = EXIT_OK;
	if (bp) {
		rc = parts_result(e->c, spec, bp->in, bp->shape, bp->nblocks, e->cases, &res);
	} else {
		memset(&res, 0, sizeof res);
		rd_callbacks none = {0};
		int mr = rd_model_run(m, &e->c->config, e->cases, &none, &res);
		if (mr != RD_OK) {
			rd_result_free(&res);
			msg_error("%s: %s", spec, rd_strerror(mr));
			rc = mr == RD_EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
		}
	}
	if (rc == EXIT_OK) {
		int fr = e->fn(e->ctx, spec, k, &res);
		rd_result_free(&res);
		if (fr != RD_OK) {
			msg_error("%s: %s", spec, rd_strerror(fr));
			rc = fr == RD_EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
		}
	}
	return rc;
}

int batch_each_result(const cli *c, const char *spec, int cases, batch_result_fn *fn, void *ctx)
{
	each_result e = {.c = c, .cases = cases, .fn = fn, .ctx = ctx};
	return batch_each_shape(c, spec, batch_parts_wanted(c), each_result_one, &e);
}

int batch_each_shape(const cli *c, const char *spec, int parts, batch_shape_fn *fn, void *ctx)
{
	char err[1024];
	input_opts opts = cli_input_opts(c);
	input *in;
	int st = input_open(spec, &opts, &in, err, sizeof err);
	while (st == INPUT_OK) {
		rd_kernel *k;
		uint64_t nblocks = 0;
		st = parts ? input_next_shape(in, &k, &nblocks, err, sizeof err)
			   : input_next(in, &k, err, sizeof err);
		if (st != INPUT_OK)
			break;
		int rc;
		if (nblocks) {
			batch_parts bp = {.c = c, .spec = spec, .in = in, .shape = k,
					  .nblocks = nblocks};
			rc = fn(ctx, spec, k, NULL, &bp);
		} else if (memcheck_model(spec, k, err, sizeof err) < 0) {
			msg_error("%s", err);
			rc = EXIT_RUNTIME;
		} else {
			rd_model *m = rd_model_new(k);
			if (m) {
				rc = fn(ctx, spec, k, m, NULL);
			} else {
				msg_error("%s: %s", spec, rd_strerror(RD_ENOMEM));
				rc = EXIT_RUNTIME;
			}
			rd_model_free(m);
		}
		rd_kernel_free(k);
		if (rc != EXIT_OK) {
			input_close(in);
			return rc;
		}
	}
	return batch_input_end(in, st, err); /* (in NULL when input_open failed) */
}

int batch_open_parts(const cli *c, const char *spec, batch_parts *bp)
{
	char err[1024];
	input_opts opts = cli_input_opts(c);
	memset(bp, 0, sizeof *bp);
	/* spec has one kernel (or --kernel picks one), built in parts: a
	 * probe counts the kernels selected, reading none (a .rdt's kernel
	 * is checked when read: once, below); anything else is left to
	 * input_load_with (the whole kernel, or its error) */
	input *in;
	if (input_open(spec, &opts, &in, err, sizeof err) != INPUT_OK)
		return 0;
	const struct trace_reader *r = input_reader(in);
	int one = r && r->load_blocks && input_skip(in, err, sizeof err) == INPUT_OK &&
		  input_skip(in, err, sizeof err) == INPUT_END;
	input_close(in);
	if (!one)
		return 0;
	/* the input itself, at its kernel */
	rd_kernel *k = NULL;
	uint64_t nblocks = 0;
	if (input_open(spec, &opts, &in, err, sizeof err) != INPUT_OK)
		return 0;
	if (input_next_shape(in, &k, &nblocks, err, sizeof err) != INPUT_OK || !nblocks) {
		rd_kernel_free(k);
		input_close(in);
		return 0;
	}
	*bp = (batch_parts){.c = c, .spec = spec, .in = in, .shape = k, .nblocks = nblocks};
	return 1;
}

/* A chunk of a part only counted (its loads added to *ctx). */
static int chunk_count(void *ctx, rd_kernel *chunk)
{
	*(uint64_t *)ctx += chunk->nloads;
	rd_kernel_free(chunk);
	return 0;
}

int batch_parts_clearly(const batch_parts *bp)
{
	const rd_config *cfg = &bp->c->config;
	keep_core kc = {cfg, rd_block_core(cfg, 0)};
	rd_kernel *k = NULL;
	char err[1024];
	uint64_t loads = 0;
	/* (counted a chunk at a time where the reader can: not all in memory) */
	int st = input_can_chunk(bp->in)
			 ? input_chunks(bp->in, keep_core_blocks, &kc, chunk_count, &loads, &k, err,
					sizeof err)
			 : input_blocks(bp->in, keep_core_blocks, &kc, &k, err, sizeof err);
	if (st != INPUT_OK)
		return 0; /* (loading it whole says why) */
	if (!input_can_chunk(bp->in))
		loads = k->nloads;
	uint64_t cores = bp->nblocks < cfg->cores ? bp->nblocks : cfg->cores;
	int past = (long double)loads * cores > 2.0L * (long double)trace_max_loads();
	rd_kernel_free(k);
	return past;
}

int batch_parts_after_refusal(const cli *c, const char *spec)
{
	char err[1024];
	input_opts opts = cli_input_opts(c);
	input *in;
	if (input_open(spec, &opts, &in, err, sizeof err) != INPUT_OK)
		return 0;
	const struct trace_reader *r = input_reader(in);
	int yes = r && r->shape_past_limit;
	input_close(in);
	return yes;
}

void batch_close_parts(batch_parts *bp)
{
	rd_kernel_free((rd_kernel *)bp->shape);
	input_close(bp->in);
	memset(bp, 0, sizeof *bp);
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
