/*
 * Reuse profiles measured by the model itself (seed 003, MLCRP): the
 * as-configured case of a configuration run on one fully associative set
 * with no latency and unlimited MSHRs (the latency-free order:
 * rd_config_profile), whose
 * events carry each load request's core and distance (distinct lines since
 * the line's last use; -1 for a first use: MLCRP's RD). Shared by
 * `profile`, `estimate` and `train`: one distance engine, the model's.
 */
#ifndef RPROFILE_H
#define RPROFILE_H

#include <stdint.h>

#include "progress.h"
#include "rdscope.h"

/* One profile: counts per distance (cold apart). */
typedef struct rp_counts {
	uint32_t core;
	long long interval; /* -1: the whole stream */
	uint64_t requests, cold;
	uint64_t *hist;
	uint32_t len, cap;
} rp_counts;

/*
 * Measure m's kernel under cfg (an rd_config_profile): each core's
 * whole-stream profile, and with interval N one per N requests of each
 * core too (distances over the whole stream), in the order of the stream.
 * prog (may be NULL) is updated. RD_OK with *out (rp_counts_free it), or the
 * model's status.
 */
int rprofile_measure(rd_model *m, const rd_config *cfg, unsigned long interval, progress *prog,
		     rp_counts **out, size_t *n);
void rp_counts_free(rp_counts *v, size_t n);

#endif
