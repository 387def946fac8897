/* The model thread (see worker.h). */
#include "worker.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct worker {
	const rd_kernel *k;
	rd_model *m;          /* the worker thread's alone */
	pthread_t th;
	int started;
	int pipe[2];
	atomic_ulong want;    /* newest generation; runs of others stop */

	pthread_mutex_t mu;   /* guards everything below */
	pthread_cond_t cv;
	int quit;
	int has_req;
	rd_config req_cfg;
	unsigned long req_gen;
	int req_quick;
	snap *slot;           /* latest result not yet taken */
	unsigned long prog_gen; /* run in progress, 0 = idle */
	double prog;
	unsigned long runs;
};

snap *snap_ref(snap *s)
{
	if (s)
		s->refs++;
	return s;
}

void snap_unref(snap *s)
{
	if (s && --s->refs == 0) {
		rd_result_free(&s->res);
		free(s);
	}
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

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
	if (w->slot) { /* never taken: latest wins */
		rd_result_free(&w->slot->res);
		free(w->slot);
	}
	w->slot = s;
	pthread_mutex_unlock(&w->mu);
	poke(w);
}

/* No snapshot before a run is this old (a fast run just shows its final
 * result), nor more often than every PARTIAL_EVERY_S. */
#define PARTIAL_AFTER_S 0.03
#define PARTIAL_EVERY_S 0.1

/* The model's snapshot of a run still going, published as a partial
 * result (copied: the model's lives only during the call). */
static void on_partial(void *ctx, const rd_result *r)
{
	run_ctx *rc = ctx;
	worker *w = rc->w;
	double t = now_s();
	if (!rc->partials || atomic_load(&w->want) != rc->gen || t - rc->start < PARTIAL_AFTER_S ||
	    t - rc->last_partial < PARTIAL_EVERY_S)
		return;
	snap *s = calloc(1, sizeof *s);
	uint64_t *h = r->hist_len ? malloc(r->hist_len * sizeof *h) : NULL;
	if (!s || (r->hist_len && !h)) {
		free(s);
		free(h);
		return; /* a snapshot is a nicety: the final result still comes */
	}
	if (h)
		memcpy(h, r->hist, r->hist_len * sizeof *h);
	s->refs = 1;
	s->gen = rc->gen;
	s->cfg = *rc->cfg;
	s->status = RD_OK;
	s->partial = 1;
	s->res = *r;
	s->res.hist = h;
	s->seconds = t - rc->start;
	rc->last_partial = t;
	publish(w, s);
}

/* One run of the full breakdown; returns 0 when done (published), -1 when
 * stopped or failed. *secs: the model's wall time. */
static int run_pass(worker *w, const rd_config *cfg, unsigned long gen, int partials,
		    double *secs)
{
	snap *s = calloc(1, sizeof *s);
	if (!s)
		return -1;
	s->refs = 1;
	s->gen = gen;
	s->cfg = *cfg;
	double t0 = now_s();
	run_ctx ctx = {.w = w, .gen = gen, .cfg = cfg, .partials = partials, .start = t0,
		       .last_poke = t0};
	rd_callbacks cb = {.progress = on_progress, .partial = on_partial, .ctx = &ctx};
	pthread_mutex_lock(&w->mu);
	w->runs++;
	pthread_mutex_unlock(&w->mu);
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

static void *worker_main(void *arg)
{
	worker *w = arg;
	pthread_mutex_lock(&w->mu);
	for (;;) {
		while (!w->quit && !w->has_req)
			pthread_cond_wait(&w->cv, &w->mu);
		if (w->quit)
			break;
		rd_config cfg = w->req_cfg;
		unsigned long gen = w->req_gen;
		int quick = w->req_quick;
		w->has_req = 0;
		w->prog_gen = gen;
		w->prog = 0;
		pthread_mutex_unlock(&w->mu);

		if (atomic_load(&w->want) == gen) {
			double secs;
			run_pass(w, &cfg, gen, quick, &secs);
		}

		pthread_mutex_lock(&w->mu);
		w->prog_gen = 0;
		w->prog = 0;
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

worker *worker_start(const rd_kernel *k, char *err, size_t len)
{
	worker *w = calloc(1, sizeof *w);
	if (!w) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	w->k = k;
	w->pipe[0] = w->pipe[1] = -1;
	atomic_init(&w->want, 0);
	w->m = rd_model_new(k);
	if (!w->m) {
		snprintf(err, len, "out of memory");
		free(w);
		return NULL;
	}
	/* The breakdown's cases on up to 4 threads (the model's own). */
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	rd_model_set_threads(w->m, ncpu < 1 ? 1 : ncpu > 4 ? 4 : (int)ncpu);
	if (pipe(w->pipe) < 0) {
		snprintf(err, len, "pipe: %s", strerror(errno));
		rd_model_free(w->m);
		free(w);
		return NULL;
	}
	for (int i = 0; i < 2; i++) {
		fcntl(w->pipe[i], F_SETFL, fcntl(w->pipe[i], F_GETFL) | O_NONBLOCK);
		fcntl(w->pipe[i], F_SETFD, FD_CLOEXEC);
	}
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	/* Signals (SIGWINCH for resizes, SIGINT, ...) go to the UI thread. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int rc = pthread_create(&w->th, NULL, worker_main, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		snprintf(err, len, "cannot start the model thread: %s", strerror(rc));
		w->started = 0;
		worker_stop(w);
		return NULL;
	}
	w->started = 1;
	return w;
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
	if (w->slot) {
		rd_result_free(&w->slot->res);
		free(w->slot);
	}
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	close(w->pipe[0]);
	close(w->pipe[1]);
	rd_model_free(w->m);
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
		w->req_cfg = *cfg;
		w->req_gen = gen;
		w->req_quick = quick;
		w->has_req = 1;
		pthread_cond_signal(&w->cv);
	} else {
		w->has_req = 0;
	}
	pthread_mutex_unlock(&w->mu);
}

snap *worker_take(worker *w, unsigned long *prog_gen, double *prog)
{
	char buf[64];
	while (read(w->pipe[0], buf, sizeof buf) > 0)
		;
	pthread_mutex_lock(&w->mu);
	snap *s = w->slot;
	w->slot = NULL;
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
