/*
 * Miss-rate curves (pure: no curses, no threads; the worker runs the
 * model for them, see jobs.h).
 *
 * Latency-free curves: with no latency and unlimited MSHRs the order of
 * the requests does not depend on hits and misses, so one run per set
 * count S gives each request's distance in its set's LRU stack, and a
 * cache of S sets and W ways misses exactly the requests at distance >= W
 * (Mattson's one-pass property; S = 1 gives the fully associative cache of
 * every size at once). A curve per associativity W then takes, for each
 * cache size C, the run with S = C / (line x W). The configuration of each
 * point is the explorer's with latency.hit = latency.miss = 0,
 * latency.stddev = 0, l1.mshrs = l1.mshr_per_warp = 0, l1.size = C and
 * l1.ways = W: `rdscope run` on it gives the same miss rate. Where the
 * hash refuses the set count (fermi: 32 or 64 sets), a point, a run and
 * a sweep point of the cache's geometry take the hash the parameters
 * pane switches to (rd_config_hash_fallback; the CSV's l1.hash says).
 *
 * Timing sweep (Nugteren et al., HPCA 2014, Figure 12): the full model at a few values of one
 * parameter around the current one, 0.25x 0.5x 1x 2x 4x for cache size,
 * associativity, line size and MSHRs as in the paper, the neighbouring
 * values otherwise.
 */
#ifndef UI_CURVES_H
#define UI_CURVES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rdscope.h"

#define CURVE_SIZES 7      /* cache sizes: current / 8 .. current x 8 */
#define CURVE_WAYS_MAX 8   /* curves: 1 2 4 8 16, the current ways, full */
#define CURVE_RUNS_MAX 24  /* set counts run */
#define SWEEP_MAX 8

typedef struct curve_pt {
	int valid;          /* run (a configuration the model accepts) */
	uint64_t requests;
	uint64_t misses;    /* without latency misses (the hardware's view) */
} curve_pt;

typedef struct curves {
	rd_config cfg;      /* the explorer's configuration */
	/* latency-free curves */
	int nsizes, nways;
	uint32_t size[CURVE_SIZES];     /* bytes */
	uint32_t ways[CURVE_WAYS_MAX];  /* 0: fully associative (one set) */
	curve_pt lf[CURVE_WAYS_MAX][CURVE_SIZES];
	int nruns;                      /* set counts to run */
	uint32_t run_sets[CURVE_RUNS_MAX];
	int runs_done;
	/* timing sweep of one parameter */
	char key[32];                   /* "" when none is selected */
	int nsweep;
	int sweep_cur;                  /* the current value's point */
	char label[SWEEP_MAX][12];      /* "0.25x" ... or "" */
	char value[SWEEP_MAX][24];
	rd_config sweep_cfg[SWEEP_MAX];
	char sweep_err[SWEEP_MAX][256]; /* why a point is not run ("" if it is) */
	int sweep_hash[SWEEP_MAX];      /* the point took the fallback hash */
	int lf_hash;                    /* some latency-free point did */
	curve_pt sw[SWEEP_MAX];
	int sweep_done;                 /* points finished (run or refused) */
	int done;                       /* every run finished */
} curves;

/* Plan the curves of configuration c and the sweep of key (NULL or "": no
 * sweep; a key must be one of the parameters pane's). */
void curves_plan(curves *cv, const rd_config *c, const char *key);

/* The configuration of latency-free run r (set count run_sets[r]). */
void curves_run_config(const curves *cv, int r, rd_config *out);

/* Fill the points that run r gives from its result's histogram. */
void curves_run_fill(curves *cv, int r, const rd_result *res);

/* The configuration of latency-free point (ways wi, size si): what
 * `rdscope run` takes to give the same miss rate (the fallback hash where
 * the cache's takes no such set count). 0, or -1 when the model refuses
 * it even so. */
int curves_point_config(const curves *cv, int wi, int si, rd_config *out);

/* Miss rate of a point (0..1), or -1 when it has no value. */
double curves_rate(const curve_pt *p);

/* Write every value as CSV (the screen tests compare it with `rdscope
 * sweep`): curve,key,value,l1.size,l1.ways,requests,misses,miss_rate,
 * l1.hash. */
void curves_write_csv(const curves *cv, FILE *f);

#endif
