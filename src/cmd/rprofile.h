/*
 * Reuse profiles measured by the model itself (seed 003, MLCRP): the
 * as-configured case of a configuration run on one fully associative set
 * with no latency and unlimited MSHRs (the latency-free order), whose
 * events carry each load request's core and distance (distinct lines since
 * the line's last use; -1 for a first use: MLCRP's RD). Shared by
 * `profile`, `estimate` and `train`: one distance engine, the model's.
 */
#ifndef RPROFILE_H
#define RPROFILE_H

#include <stdint.h>

#include "progress.h"
#include "rdscope.h"

/* c's cache and GPU under the paper profile in the latency-free order: no
 * latency, unlimited MSHRs, loads cached, stores and the L2 left out. */
void profile_latency_free(const rd_config *c, rd_config *out);

/* The configuration whose as-configured case measures c's profile: one
 * fully associative set of the same lines, no latency, unlimited MSHRs,
 * loads cached, no L2 (the latency-free order; the paper profile). */
void profile_config(const rd_config *c, rd_config *out);

/* One profile: counts per distance (cold apart). */
typedef struct rprof {
	uint32_t core;
	long long interval; /* -1: the whole stream */
	uint64_t requests, cold;
	uint64_t *hist;
	uint32_t len, cap;
} rprof;

/*
 * Measure m's kernel under cfg (a profile_config): each core's
 * whole-stream profile, and with interval N one per N requests of each
 * core too (distances over the whole stream), in the order of the stream.
 * prog (may be NULL) is updated. RD_OK with *out (rprof_free it), or the
 * model's status.
 */
int rprofile_measure(rd_model *m, const rd_config *cfg, unsigned long interval, progress *prog,
		     rprof **out, size_t *n);
void rprof_free(rprof *v, size_t n);

#endif
