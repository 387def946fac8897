/* The model thread (see worker.h). */
#include "worker.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bgcall.h"
#include "curves.h"
#include "jobs.h"
#include "now.h"
#include "steplog.h"

struct worker {
	const rd_kernel *k;
	rd_model *m;          /* the worker thread's alone */
	rd_model *m_l1b;      /* the L1B runs' (JOB_L1B), made at the first: their
			       * configuration would push the breakdown's out of m's
			       * stages, and an L2-only edit must find its L1s there */
	/* a kernel modelled in parts (worker_start_parts): m is NULL */
	worker_parts_fn *parts_run;
	void (*parts_free)(void *parts);
	void *parts;
	pthread_t th;
	int started;
	int pipe[2];
	atomic_ulong want;    /* newest generation; runs of others stop */

	pthread_mutex_t mu;   /* guards everything below */
	pthread_cond_t cv;
	int quit;
	/* one request and one latest-wins slot per kind */
	int has_req[JOB_NKINDS];
	rd_config req_cfg[JOB_NKINDS];
	unsigned long req_gen[JOB_NKINDS];
	int req_quick;
	char req_key[JOB_NKINDS][32];
	atomic_int asked;       /* a request is pending: speculation yields */
	rd_config spec_cfg[2];  /* speculative runs still to do, for spec_gen */
	int nspec;
	unsigned long spec_gen;
	snap *slot[JOB_NKINDS]; /* latest result not yet taken */
	snap *specq[2];         /* speculative results not yet taken, oldest first */
	unsigned long prog_gen; /* breakdown in progress, 0 = none */
	double prog;
	unsigned long runs, spec_runs;
};

static void poke(worker *w)
{
	char c = 1;
	/* Non-blocking: a full pipe already says "look". */
	ssize_t r = write(w->pipe[1], &c, 1);
	(void)r;
}

/* What one run's callbacks need. */
typedef struct run_ctx {
	worker *w;
	unsigned long gen;
	const rd_config *cfg;
	int partials;      /* publish the model's snapshots */
	double start, last_poke, last_partial;
} run_ctx;

static int on_progress(void *ctx, double f)
{
	run_ctx *r = ctx;
	worker *w = r->w;
	if (atomic_load(&w->want) != r->gen)
		return 1; /* stale: stop now */
	pthread_mutex_lock(&w->mu);
	w->prog = f;
	pthread_mutex_unlock(&w->mu);
	double t = now_s();
	if (t - r->last_poke > 0.05) {
		r->last_poke = t;
		poke(w);
	}
	return 0;
}

static void publish(worker *w, snap *s)
{
	pthread_mutex_lock(&w->mu);
	snap *old;
	if (s->kind == JOB_SPEC) { /* each neighbour counts: a queue, not a slot */
		old = w->specq[1] ? w->specq[0] : NULL;
		if (old)
			w->specq[0] = w->specq[1];
		w->specq[w->specq[0] ? 1 : 0] = s;
	} else {
		old = w->slot[s->kind];
		w->slot[s->kind] = s;
	}
	pthread_mutex_unlock(&w->mu);
	snap_unref(old); /* never taken: latest wins (it was never shared) */
	poke(w);
}

/* No snapshot before a run is this old (a fast run just shows its final
 * result), nor more often than every PARTIAL_EVERY_S. */
#define PARTIAL_AFTER_S 0.03
#define PARTIAL_EVERY_S 0.1

/* A snapshot of a run still going, published as a partial result (copied:
 * the model's lives only during the call), throttled; done of total: the
 * parts counted in it (a kernel in parts), or 0, 0. */
static void partial_publish(run_ctx *rc, const rd_result *r, unsigned done, unsigned total)
{
	worker *w = rc->w;
	double t = now_s();
	if (!rc->partials || atomic_load(&w->want) != rc->gen || t - rc->start < PARTIAL_AFTER_S ||
	    t - rc->last_partial < PARTIAL_EVERY_S)
		return;
	snap *s = snap_new(JOB_BREAKDOWN, rc->gen, rc->cfg);
	uint64_t *h = r->hist_len ? malloc(r->hist_len * sizeof *h) : NULL;
	if (!s || (r->hist_len && !h)) {
		free(s);
		free(h);
		return; /* a snapshot is a nicety: the final result still comes */
	}
	if (h)
		memcpy(h, r->hist, r->hist_len * sizeof *h);
	s->partial = 1;
	s->res = *r;
	s->res.hist = h;
	/* the stores' histogram is the final result's only */
	s->res.hist_w = NULL;
	s->res.hist_w_len = 0;
	/* the L2 runs after every L1: a snapshot has none (and the model's
	 * arrays are not the snapshot's to free) */
	s->res.has_l2 = 0;
	memset(&s->res.l2, 0, sizeof s->res.l2);
	s->res.set_ids = NULL;
	s->res.set_requests = s->res.set_misses = NULL;
	s->res.sites = NULL;
	s->res.nsites = 0;
	s->parts_done = done;
	s->parts_total = total;
	s->seconds = t - rc->start;
	rc->last_partial = t;
	publish(w, s);
}

/* The model's snapshot of the as-configured case (rd_callbacks.partial). */
static void on_partial(void *ctx, const rd_result *r)
{
	partial_publish(ctx, r, 0, 0);
}

/* The L1 of a kernel's parts done so far (worker_parts_fn's partial: one
 * call at a time, maybe on the parts' threads). */
static void on_parts_partial(void *ctx, const rd_result *r, unsigned done, unsigned total)
{
	partial_publish(ctx, r, done ? done : 1, total ? total : 1);
}

/* A speculative run stops for any newer generation or request. */
static int on_spec_progress(void *ctx, double f)
{
	(void)f;
	run_ctx *r = ctx;
	return atomic_load(&r->w->want) != r->gen || atomic_load(&r->w->asked);
}

/* One speculative breakdown (worker_speculate): published if it finished. */
static void spec_pass(worker *w, const rd_config *cfg, unsigned long gen)
{
	snap *s = snap_new(JOB_SPEC, gen, cfg);
	if (!s)
		return;
	double t0 = now_s();
	run_ctx ctx = {.w = w, .gen = gen, .cfg = cfg, .start = t0};
	rd_callbacks cb = {.progress = on_spec_progress, .ctx = &ctx};
	s->status = rd_model_run(w->m, cfg, RD_ALL_CASES, &cb, &s->res);
	s->seconds = now_s() - t0;
	if (s->status != RD_OK) {
		snap_unref(s);
		return; /* stopped (or failed: the real run will say why) */
	}
	publish(w, s);
}

/* One run of the full breakdown; returns 0 when done (published), -1 when
 * stopped or failed. *secs: the model's wall time. */
static int run_pass(worker *w, const rd_config *cfg, unsigned long gen, int partials,
		    double *secs)
{
	snap *s = snap_new(JOB_BREAKDOWN, gen, cfg);
	if (!s)
		return -1;
	double t0 = now_s();
	run_ctx ctx = {.w = w, .gen = gen, .cfg = cfg, .partials = partials, .start = t0,
		       .last_poke = t0};
	rd_callbacks cb = {.progress = on_progress, .partial = on_partial, .ctx = &ctx};
	s->status = rd_model_run(w->m, cfg, RD_ALL_CASES, &cb, &s->res);
	s->seconds = *secs = now_s() - t0;
	if (s->status == RD_ECANCELED) {
		free(s);
		return -1;
	}
	int ok = s->status == RD_OK;
	publish(w, s);
	return ok ? 0 : -1;
}

/* The breakdown of a kernel in parts: stopped by a newer generation
 * (on_progress, asked between parts and inside them), the fraction of
 * parts done its progress, the parts' L1 so far its partial results
 * (on_parts_partial). */
static int parts_pass(worker *w, const rd_config *cfg, unsigned long gen)
{
	snap *s = snap_new(JOB_BREAKDOWN, gen, cfg);
	if (!s)
		return -1;
	double t0 = now_s();
	run_ctx ctx = {.w = w, .gen = gen, .cfg = cfg, .partials = 1, .start = t0,
		       .last_poke = t0};
	char err[1024] = "";
	s->status = w->parts_run(w->parts, cfg, on_progress, on_parts_partial, &ctx, &s->res, err,
				 sizeof err);
	s->seconds = now_s() - t0;
	if (s->status == RD_ECANCELED) {
		free(s);
		return -1;
	}
	if (s->status != RD_OK)
		snprintf(s->err, sizeof s->err, "%s", err);
	int ok = s->status == RD_OK;
	publish(w, s);
	return ok ? 0 : -1;
}

/* The job interface (jobs.h) over this worker. */
typedef struct job_ctx {
	worker *w;
	unsigned long gen;
} job_ctx;

static int job_stale(void *ctx)
{
	job_ctx *j = ctx;
	return atomic_load(&j->w->want) != j->gen;
}

static void job_publish(void *ctx, snap *s)
{
	job_ctx *j = ctx;
	publish(j->w, s);
}

/* The first kind asked for: the breakdown on screen goes first. */
static int next_kind(const worker *w)
{
	for (int k = 0; k < JOB_NKINDS; k++)
		if (w->has_req[k])
			return k;
	return -1;
}

static void *worker_main(void *arg)
{
	worker *w = arg;
	pthread_mutex_lock(&w->mu);
	for (;;) {
		int kind;
		while (!w->quit && (kind = next_kind(w)) < 0 &&
		       !(w->nspec && w->spec_gen == atomic_load(&w->want)))
			pthread_cond_wait(&w->cv, &w->mu);
		if (w->quit)
			break;
		if (kind < 0 && w->parts) { /* no speculation in parts */
			w->nspec = 0;
			continue;
		}
		if (kind < 0) { /* idle: the next speculative run */
			rd_config cfg = w->spec_cfg[0];
			unsigned long gen = w->spec_gen;
			w->spec_cfg[0] = w->spec_cfg[1];
			w->nspec--;
			w->spec_runs++;
			pthread_mutex_unlock(&w->mu);
			spec_pass(w, &cfg, gen);
			pthread_mutex_lock(&w->mu);
			continue;
		}
		rd_config cfg = w->req_cfg[kind];
		unsigned long gen = w->req_gen[kind];
		int quick = w->req_quick;
		char key[32];
		memcpy(key, w->req_key[kind], sizeof key);
		w->has_req[kind] = 0;
		atomic_store(&w->asked, next_kind(w) >= 0);
		if (kind == JOB_BREAKDOWN)
			w->prog_gen = gen;
		w->prog = 0;
		int run = atomic_load(&w->want) == gen; /* not stale already */
		w->runs += run;
		pthread_mutex_unlock(&w->mu);

		if (run && w->parts) {
			if (kind == JOB_BREAKDOWN)
				parts_pass(w, &cfg, gen);
		} else if (run) {
			double secs;
			job_ctx jc = {w, gen};
			job_env env = {w->m, gen, job_stale, job_publish, &jc};
			if (kind == JOB_BREAKDOWN)
				run_pass(w, &cfg, gen, quick, &secs);
			else if (kind == JOB_STEPS)
				job_steps(&env, &cfg, key);
			else if (kind == JOB_SITES)
				job_sites(&env, &cfg);
			else if (kind == JOB_L1B) {
				if (!w->m_l1b)
					w->m_l1b = rd_model_new(w->k);
				env.m = w->m_l1b;
				if (env.m)
					job_l1b(&env, &cfg);
			}
			else if (kind == JOB_PROFILE)
				job_profile(&env, &cfg);
			else
				job_curves(&env, &cfg, key);
		}

		pthread_mutex_lock(&w->mu);
		w->prog_gen = 0;
		w->prog = 0;
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

static worker *start(const rd_kernel *k, worker_parts_fn *run, void (*free_parts)(void *parts),
		     void *parts, char *err, size_t len)
{
	worker *w = calloc(1, sizeof *w);
	if (!w) {
		if (parts)
			free_parts(parts);
		snprintf(err, len, "out of memory");
		return NULL;
	}
	w->k = k;
	w->pipe[0] = w->pipe[1] = -1;
	atomic_init(&w->want, 0);
	atomic_init(&w->asked, 0);
	w->parts_run = run;
	w->parts_free = free_parts;
	w->parts = parts;
	if (!parts) {
		w->m = rd_model_new(k);
		if (!w->m) {
			snprintf(err, len, "out of memory");
			free(w);
			return NULL;
		}
		/* The breakdown's cases on up to 4 threads (the model's own). */
		long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
		rd_model_set_threads(w->m, ncpu < 1 ? 1 : ncpu > 4 ? 4 : (int)ncpu);
	}
	if (pipe(w->pipe) < 0) {
		snprintf(err, len, "pipe: %s", strerror(errno));
		rd_model_free(w->m);
		if (parts)
			free_parts(parts);
		free(w);
		return NULL;
	}
	for (int i = 0; i < 2; i++) {
		fcntl(w->pipe[i], F_SETFL, fcntl(w->pipe[i], F_GETFL) | O_NONBLOCK);
		fcntl(w->pipe[i], F_SETFD, FD_CLOEXEC);
	}
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	int rc = bgcall_thread(&w->th, 0, worker_main, w);
	if (rc != 0) {
		snprintf(err, len, "cannot start the model thread: %s", strerror(rc));
		w->started = 0;
		worker_stop(w);
		return NULL;
	}
	w->started = 1;
	return w;
}

worker *worker_start(const rd_kernel *k, char *err, size_t len)
{
	return start(k, NULL, NULL, NULL, err, len);
}

worker *worker_start_parts(const rd_kernel *shape, worker_parts_fn *run,
			   void (*free_parts)(void *parts), void *parts, char *err, size_t len)
{
	return start(shape, run, free_parts, parts, err, len);
}

void worker_stop(worker *w)
{
	if (!w)
		return;
	if (w->started) {
		atomic_store(&w->want, (unsigned long)-1); /* stop a run now */
		pthread_mutex_lock(&w->mu);
		w->quit = 1;
		pthread_cond_signal(&w->cv);
		pthread_mutex_unlock(&w->mu);
		pthread_join(w->th, NULL);
	}
	for (int k = 0; k < JOB_NKINDS; k++)
		snap_unref(w->slot[k]);
	snap_unref(w->specq[0]);
	snap_unref(w->specq[1]);
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	close(w->pipe[0]);
	close(w->pipe[1]);
	rd_model_free(w->m);
	rd_model_free(w->m_l1b);
	if (w->parts)
		w->parts_free(w->parts);
	free(w);
}

int worker_fd(const worker *w)
{
	return w->pipe[0];
}

void worker_submit(worker *w, unsigned long gen, const rd_config *cfg, int quick)
{
	atomic_store(&w->want, gen);
	pthread_mutex_lock(&w->mu);
	if (cfg) {
		w->req_cfg[JOB_BREAKDOWN] = *cfg;
		w->req_gen[JOB_BREAKDOWN] = gen;
		w->req_quick = quick;
		w->has_req[JOB_BREAKDOWN] = 1;
		atomic_store(&w->asked, 1);
		pthread_cond_signal(&w->cv);
	} else {
		w->has_req[JOB_BREAKDOWN] = 0;
		atomic_store(&w->asked, next_kind(w) >= 0);
	}
	pthread_mutex_unlock(&w->mu);
}

void worker_submit_job(worker *w, int kind, unsigned long gen, const rd_config *cfg,
		       const char *key)
{
	if (kind <= JOB_BREAKDOWN || kind >= JOB_NKINDS)
		return;
	atomic_store(&w->want, gen);
	pthread_mutex_lock(&w->mu);
	w->req_cfg[kind] = *cfg;
	w->req_gen[kind] = gen;
	snprintf(w->req_key[kind], sizeof w->req_key[kind], "%s", key ? key : "");
	w->has_req[kind] = 1;
	atomic_store(&w->asked, 1);
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

void worker_speculate(worker *w, unsigned long gen, const rd_config *cfgs, int n)
{
	pthread_mutex_lock(&w->mu);
	w->nspec = n < 0 ? 0 : n > 2 ? 2 : n;
	for (int i = 0; i < w->nspec; i++)
		w->spec_cfg[i] = cfgs[i];
	w->spec_gen = gen;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

snap *worker_take(worker *w, unsigned long *prog_gen, double *prog)
{
	char buf[64];
	while (read(w->pipe[0], buf, sizeof buf) > 0)
		;
	pthread_mutex_lock(&w->mu);
	snap *s = NULL;
	for (int k = 0; k < JOB_NKINDS && !s; k++) {
		s = w->slot[k];
		w->slot[k] = NULL;
	}
	if (!s && w->specq[0]) {
		s = w->specq[0];
		w->specq[0] = w->specq[1];
		w->specq[1] = NULL;
	}
	if (prog_gen)
		*prog_gen = w->prog_gen;
	if (prog)
		*prog = w->prog;
	pthread_mutex_unlock(&w->mu);
	return s;
}

unsigned long worker_runs(worker *w)
{
	pthread_mutex_lock(&w->mu);
	unsigned long n = w->runs;
	pthread_mutex_unlock(&w->mu);
	return n;
}

unsigned long worker_spec_runs(worker *w)
{
	pthread_mutex_lock(&w->mu);
	unsigned long n = w->spec_runs;
	pthread_mutex_unlock(&w->mu);
	return n;
}
