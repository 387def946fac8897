/* The teaching views' runs (see jobs.h). */
#include "jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curves.h"
#include "rprof.h"
#include "steplog.h"

/* ---------------------------------------------------------------- steps */

typedef struct steps_ctx {
	const job_env *env;
	steplog *log;
	/* finding a time: the first request at or after it */
	uint64_t time, count, found;
	int have;
} steps_ctx;

static void steps_event(void *ctx, const rd_event *ev)
{
	steps_ctx *sc = ctx;
	steplog_add(sc->log, ev);
}

static void steps_land(void *ctx, const rd_landing *ld)
{
	steps_ctx *sc = ctx;
	steplog_land(sc->log, ld);
}

/* Stop when stale, and once the log is full: the model reports progress
 * every few thousand requests, so a long trace costs only that much more. */
static int steps_progress(void *ctx, double f)
{
	(void)f;
	steps_ctx *sc = ctx;
	return sc->env->stale(sc->env->ctx) || (sc->log->truncated && sc->log->tail_done) ||
	       sc->log->oom;
}

static void find_event(void *ctx, const rd_event *ev)
{
	steps_ctx *sc = ctx;
	if (!sc->have && ev->time >= sc->time) {
		sc->have = 1;
		sc->found = sc->count;
	}
	sc->count++;
}

static int find_progress(void *ctx, double f)
{
	(void)f;
	steps_ctx *sc = ctx;
	return sc->env->stale(sc->env->ctx) || sc->have;
}

/* The window's first request for a request n (views/step.c asks so too). */
static uint64_t around(uint64_t n)
{
	uint64_t half = STEP_MAX / 2, q = STEP_MAX / 4;
	return n < half ? 0 : (n - half) / q * q;
}

/* One run keeping the window from first: the status. */
static int steps_run(const job_env *env, const rd_config *cfg, steps_ctx *sc, uint64_t first)
{
	steplog_free(sc->log);
	sc->log = steplog_new_at(cfg, first);
	if (!sc->log)
		return RD_ENOMEM;
	/* The sets as the model lists them, and the landings, from the
	 * first request on: the window's cache is what they say. */
	rd_callbacks cb = {.progress = steps_progress, .event = steps_event, .land = steps_land,
			   .event_stacks = 1, .stack_depth = &sc->log->depth, .ctx = sc};
	rd_result res;
	int st = rd_model_run(env->m, cfg, 1 << RD_CASE_FULL, &cb, &res);
	if (st == RD_OK)
		rd_result_free(&res);
	if (env->stale(env->ctx))
		return RD_ECANCELED;
	/* Stopped because the log was full: what it holds is the answer. */
	int full = st == RD_ECANCELED && sc->log->truncated && sc->log->tail_done;
	if (st == RD_OK || full)
		st = steplog_end(sc->log, st == RD_OK) < 0 ? RD_ENOMEM : RD_OK;
	return st;
}

void job_steps(const job_env *env, const rd_config *cfg, const char *where)
{
	steps_ctx sc = {.env = env};
	snap *s = snap_new(JOB_STEPS, env->gen, cfg);
	if (!s)
		return;
	snprintf(s->key, sizeof s->key, "%s", where ? where : "");
	uint64_t first = 0, want = 0;
	int st = RD_OK;
	if (where && where[0] == 't') { /* find the request first */
		sc.time = strtoull(where + 1, NULL, 10);
		rd_callbacks cb = {.progress = find_progress, .event = find_event, .ctx = &sc};
		rd_result res;
		st = rd_model_run(env->m, cfg, 1 << RD_CASE_FULL, &cb, &res);
		if (st == RD_OK)
			rd_result_free(&res);
		if (st == RD_OK || (st == RD_ECANCELED && sc.have))
			st = RD_OK;
		want = sc.have ? sc.found : sc.count ? sc.count - 1 : 0;
		first = around(want);
	} else if (where && where[0] == '@') {
		first = strtoull(where + 1, NULL, 10);
		want = first;
	}
	if (st == RD_OK && !env->stale(env->ctx)) {
		st = steps_run(env, cfg, &sc, first);
		/* Past the end: the last window. */
		if (st == RD_OK && !sc.log->n && sc.log->complete && sc.log->seen) {
			uint64_t last = sc.log->seen - 1;
			want = last;
			st = steps_run(env, cfg, &sc, last >= STEP_MAX ? last + 1 - STEP_MAX : 0);
		}
	}
	if (env->stale(env->ctx) || st == RD_ECANCELED) {
		steplog_free(sc.log);
		free(s);
		return;
	}
	if (sc.log)
		sc.log->want = want;
	s->status = st;
	s->steps = sc.log;
	env->publish(env->ctx, s);
}

/* ---------------------------------------------------------------- curves */

static int curves_progress(void *ctx, double f)
{
	(void)f;
	const job_env *env = ctx;
	return env->stale(env->ctx);
}

/* Publish a copy of cv so far. */
static int curves_publish(const job_env *env, const curves *cv, const rd_config *cfg,
			  const char *key, int status)
{
	snap *s = snap_new(JOB_CURVES, env->gen, cfg);
	curves *c = malloc(sizeof *c);
	if (!s || !c) {
		free(s);
		free(c);
		return -1;
	}
	*c = *cv;
	s->curves = c;
	s->status = status;
	s->partial = !cv->done;
	snprintf(s->key, sizeof s->key, "%s", key ? key : "");
	env->publish(env->ctx, s);
	return 0;
}

void job_curves(const job_env *env, const rd_config *cfg, const char *key)
{
	curves *cv = malloc(sizeof *cv);
	if (!cv)
		return;
	curves_plan(cv, cfg, key);
	rd_callbacks cb = {.progress = curves_progress, .ctx = (void *)env};
	int status = RD_OK;
	for (int r = 0; r < cv->nruns && status == RD_OK; r++) {
		rd_config rc;
		rd_result res;
		curves_run_config(cv, r, &rc);
		status = rd_model_run(env->m, &rc, 1 << RD_CASE_FULL, &cb, &res);
		if (status != RD_OK)
			break;
		curves_run_fill(cv, r, &res);
		rd_result_free(&res);
		if (curves_publish(env, cv, cfg, key, RD_OK) < 0)
			status = RD_ENOMEM;
	}
	for (int i = 0; i < cv->nsweep && status == RD_OK; i++) {
		if (!cv->sweep_err[i][0]) {
			rd_result res;
			status = rd_model_run(env->m, &cv->sweep_cfg[i], 1 << RD_CASE_FULL, &cb, &res);
			if (status != RD_OK)
				break;
			/* The hardware's view, as `rdscope run` reports miss_rate. */
			cv->sw[i] = (curve_pt){1, res.requests,
					       res.misses - res.cls[RD_CLASS_LATENCY]};
			rd_result_free(&res);
		}
		cv->sweep_done = i + 1;
		if (i + 1 < cv->nsweep && curves_publish(env, cv, cfg, key, RD_OK) < 0)
			status = RD_ENOMEM;
	}
	if (status != RD_ECANCELED && !env->stale(env->ctx)) {
		cv->done = 1;
		curves_publish(env, cv, cfg, key, status);
	}
	free(cv);
}

/* ---------------------------------------------------------------- sites */

static int sites_progress(void *ctx, double f)
{
	(void)f;
	const job_env *env = ctx;
	return env->stale(env->ctx);
}

void job_sites(const job_env *env, const rd_config *cfg)
{
	snap *s = snap_new(JOB_SITES, env->gen, cfg);
	if (!s)
		return;
	rd_callbacks cb = {.progress = sites_progress, .by_site = 1, .ctx = (void *)env};
	int st = rd_model_run(env->m, cfg, RD_ALL_CASES, &cb, &s->res);
	if (env->stale(env->ctx) || st == RD_ECANCELED) {
		snap_unref(s);
		return;
	}
	s->status = st;
	env->publish(env->ctx, s);
}

/* ---------------------------------------------------------------- L1B */

void job_l1b(const job_env *env, const rd_config *cfg)
{
	snap *s = snap_new(JOB_L1B, env->gen, cfg);
	if (!s)
		return;
	rd_config c = *cfg;
	rd_config_l1b(&c);
	rd_callbacks cb = {.progress = sites_progress, .ctx = (void *)env};
	int st = rd_model_run(env->m, &c, 1 << RD_CASE_FULL, &cb, &s->res);
	if (env->stale(env->ctx) || st == RD_ECANCELED) {
		snap_unref(s);
		return;
	}
	s->status = st;
	env->publish(env->ctx, s);
}

/* ---------------------------------------------------------------- profile */

typedef struct prof_ctx {
	const job_env *env;
	rprof *p;
	int failed;
} prof_ctx;

static int prof_progress(void *ctx, double f)
{
	(void)f;
	const prof_ctx *pc = ctx;
	return pc->failed || pc->env->stale(pc->env->ctx);
}

/* Each load request of the latency-free run, core after core. */
static void prof_event(void *ctx, const rd_event *ev)
{
	prof_ctx *pc = ctx;
	if (pc->failed || ev->store || ev->level != 1 ||
	    (ev->outcome != RD_OUT_HIT && ev->outcome != RD_OUT_MISS))
		return;
	if (rprof_add(pc->p, ev->core, ev->distance) < 0)
		pc->failed = 1;
}

void job_profile(const job_env *env, const rd_config *key)
{
	snap *s = snap_new(JOB_PROFILE, env->gen, key);
	if (!s)
		return;
	s->any_cfg = 1;
	s->prof = rprof_new(key);
	prof_ctx pc = {env, s->prof, !s->prof};
	rd_callbacks cb = {.progress = prof_progress, .event = prof_event, .ctx = &pc};
	rd_result r;
	int st = pc.failed ? RD_ENOMEM : rd_model_run(env->m, key, 1 << RD_CASE_FULL, &cb, &r);
	if (st == RD_OK)
		rd_result_free(&r);
	if (env->stale(env->ctx) || st == RD_ECANCELED) {
		snap_unref(s);
		return;
	}
	s->status = pc.failed ? RD_ENOMEM : st;
	env->publish(env->ctx, s);
}
