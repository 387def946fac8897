/*
 * rdscope estimate: miss rates estimated from each INPUT's reuse profile
 * alone (seed 003): the binomial (SDCM-style) set-associative estimate,
 * the fully associative LRU cache of the same lines (Mattson) and the
 * learned estimator (MLCRP §IV; `rdscope train`'s weights), for the
 * configured cache and every point of --vary. The profile (rprofile.h) is
 * measured once per kernel and again only for a point whose profile
 * configuration differs (another l1.line, other GPU keys). JSON is
 * "rdscope-results" with one run per point (input, kernel, config,
 * miss_rate), so `rdscope compare` takes it beside a run or sweep's.
 */
#ifndef ESTIMATE_CMD_H
#define ESTIMATE_CMD_H

#include "cli.h"
#include "rprofile.h"

/* The --method bits. */
enum estimate_method { EST_BINOMIAL = 1, EST_FA = 2, EST_LEARNED = 4, EST_ALL = 7 };

/* The shipped weights, found among the samples (samples.h). */
#define ESTIMATE_MODEL_FILE "models/mlcrp.txt"

int estimate_run(const cli *c);

/* One kernel's estimates for a cache of sets x ways of line bytes, from
 * its cores' whole-stream profiles (intervals skipped), weighted by their
 * requests: miss rates, and the learned merge rate weighted by the
 * learned misses (m NULL: no learned estimate, 0). */
typedef struct estimate_values {
	uint64_t requests;
	double binomial, fa, learned, merge;
} estimate_values;
void estimate_profiles(const rp_counts *v, size_t n, uint32_t sets, uint32_t ways, uint32_t line,
		       const rd_mlp *m, estimate_values *e);

/* Read a weights file: 0 with *m, or an exit status with "PATH:LINE: why"
 * printed. */
int estimate_load_model(const char *path, rd_mlp **m);
/* The same, saying nothing: 0 with *m, else -1 (*m NULL). */
int estimate_load_quiet(const char *path, rd_mlp **m);

#endif
