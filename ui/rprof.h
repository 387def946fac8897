/*
 * The explorer's reuse profile (seed 003, MLCRP) of the kernel on screen,
 * and the estimates made from it (pure: no curses, no threads; the worker
 * measures it, see jobs.h). The profile is the one `rdscope profile`
 * prints: the model's fully associative latency-free case
 * (rd_config_profile), each load request's distance in distinct lines
 * (-1 for a first use), the cores' streams summed. Its distances depend
 * neither on the cache's size nor on its ways, so one profile answers
 * every geometry of the same line size at once: the binomial and fully
 * associative estimates of model/estimate.c, computed on the UI thread in
 * microseconds while the exact model runs.
 *
 * Over time: the profile per interval of `every` requests of each core (a
 * core's i-th interval added to the others' i-th, as the cores run side
 * by side), in log2 buckets, at most RPROF_COLS intervals (neighbours
 * merged and `every` doubled when the stream is longer).
 */
#ifndef UI_RPROF_H
#define UI_RPROF_H

#include <stdint.h>

#include "rdscope.h"

/* Buckets: cold (-1), 0, 1, 2-3, 4-7, ..., [2^31, 2^32). */
#define RPROF_BUCKETS 34
#define RPROF_COLS 96

typedef struct rprof {
	rd_config key;      /* rprof_key of the configuration measured */
	uint64_t requests, cold;
	uint64_t *hist;     /* hist[d]: requests at distance d (d < len) */
	uint32_t len, cap;
	uint64_t every;     /* requests of a core per interval */
	int ncols;
	uint64_t col[RPROF_COLS][RPROF_BUCKETS];
	long long core;     /* the core being added (-1 before the first) */
	uint64_t core_req;  /* its requests so far */
} rprof;

/* The configuration whose profile the explorer keeps for c: c's
 * rd_config_profile with the size set to a fixed number of lines, so two
 * configurations share a profile exactly when their keys are equal
 * (rd_config_equal). */
void rprof_key(const rd_config *c, rd_config *key);

/* A new empty profile of key (NULL: out of memory); free with rprof_free. */
rprof *rprof_new(const rd_config *key);
void rprof_free(rprof *p);

/* Add one load request of core at distance d (-1: cold): 0, or -1 when
 * out of memory. Requests come core after core, each in issue order. */
int rprof_add(rprof *p, uint32_t core, int64_t d);

/* d's bucket: 0 for cold, 1 for 0, 2 for 1, then 1 + bit length. */
int rprof_bucket(int64_t d);

/* Buckets in use: one past the last non-empty one (at least 2). */
int rprof_nbuckets(const rprof *p);

/* Requests of the whole profile in bucket b. */
uint64_t rprof_bucket_count(const rprof *p, int b);

/* The largest distance measured (0 if none), and the peaks (model's
 * detector, as `rdscope profile` prints them). */
uint32_t rprof_max_rd(const rprof *p);
uint32_t rprof_peaks(const rprof *p);

/* Estimated hit rates of c's geometry (sets x ways of c's lines) from the
 * profile alone: binomial (SDCM-style) and fully associative of as many
 * lines. 0 and both set, or -1 when the profile is empty. */
int rprof_estimate(const rprof *p, const rd_config *c, double *binomial, double *fa);

/* The learned estimator's miss rate and MSHR merge rate of c's geometry
 * from the profile (the cores' summed: an approximation where they
 * differ), or -1 when the profile is empty or there is no whole number of
 * sets. */
int rprof_learned(const rprof *p, const rd_config *c, const rd_mlp *m, double *miss, double *merge);

#endif
