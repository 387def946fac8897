/* What the benchmark programs share: a clock, medians, and the synthetic
 * kernel they all measure (header-only: each program is one file). */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <stdlib.h>
#include <time.h>

#include "rdscope.h"

static inline double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* nthreads threads in blocks of 256, each with `loads` 4-byte loads;
 * groups of 4 neighbouring threads share a line, lines drawn from a seeded
 * generator over `pool` lines (so about loads/4 requests per thread, a mix
 * of hits, capacity and conflict misses) or streamed. */
static inline rd_kernel *synthetic_stores(uint32_t nthreads, uint32_t loads, uint32_t pool,
					  uint32_t store_every);

static inline rd_kernel *synthetic(uint32_t nthreads, uint32_t loads, uint32_t pool)
{
	return synthetic_stores(nthreads, loads, pool, 0);
}

/* The same accesses, every store_every-th of a thread's a store (0: none). */
static inline rd_kernel *synthetic_stores(uint32_t nthreads, uint32_t loads, uint32_t pool,
					  uint32_t store_every)
{
	rd_kernel_builder *b = rd_kernel_builder_new("synthetic", 256, 1, 1);
	for (uint32_t t = 0; t < nthreads; t++) {
		uint64_t s = 0x9E3779B97F4A7C15ULL * ((t >> 2) + 1);
		for (uint32_t i = 0; i < loads; i++) {
			s ^= s << 13, s ^= s >> 7, s ^= s << 17;
			uint64_t line = (i & 1) ? s % pool : ((t >> 2) * 3 + i) % (pool * 4);
			int st = store_every && i % store_every == store_every - 1;
			if (rd_kernel_builder_add(b, t, st, line * 128 + (t & 3) * 4, 4) < 0)
				return NULL;
		}
	}
	return rd_kernel_builder_finish(b);
}

#endif
