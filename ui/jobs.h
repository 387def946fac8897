/*
 * The teaching views' model runs, on the explorer's model thread (no
 * curses here): the step-through's event log and the miss-rate curves.
 * worker.c picks a job and gives it its rd_model, a staleness test and a
 * way to publish snapshots; the job does the rest.
 */
#ifndef UI_JOBS_H
#define UI_JOBS_H

#include "worker.h"

typedef struct job_env {
	rd_model *m;
	unsigned long gen;
	/* Nonzero when a newer generation wants the thread: stop. */
	int (*stale)(void *ctx);
	/* Hand a snapshot to the UI (latest wins within its kind). */
	void (*publish)(void *ctx, snap *s);
	void *ctx;
} job_env;

/* A window of STEP_MAX requests of cfg with their stacks, replayed
 * (steplog.h), published once: where says which. "" or "@F": from request
 * number F on (0: the first ones; the model then reports the stacks); "tT":
 * around the first request issued at or after time step T (a first run
 * finds it; steplog.want). A window past the run's end becomes its last
 * one. The snapshot's key is where. */
void job_steps(const job_env *env, const rd_config *cfg, const char *where);

/* The breakdown of cfg with its per-site counts (rd_callbacks.by_site),
 * for the sources view; published once. */
void job_sites(const job_env *env, const rd_config *cfg);

/* RDGC's L1B run of cfg (rd_config_l1b: every L1 off; the as-configured
 * case only), for the metrics line's L1B pair; published once, its
 * snapshot's cfg being cfg (the configuration on screen). */
void job_l1b(const job_env *env, const rd_config *cfg);

/* The latency-free curves, then the timing sweep of key (curves.h);
 * published after every run, the last one final (curves->done). */
void job_curves(const job_env *env, const rd_config *cfg, const char *key);

/* The reuse profile of key (an rprof_key: the model's fully associative
 * latency-free case), published once; the snapshot's cfg is key. */
void job_profile(const job_env *env, const rd_config *key);

#endif
