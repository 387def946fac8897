/* Helpers shared by the model's unit tests (header-only, static). */
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include <stdlib.h>
#include <string.h>

#include "rdscope.h"

/* A kernel of nthreads threads, thread t loading addrs[t][0..n[t]) (bytes
 * each), in blocks of bs threads. */
static inline rd_kernel *tu_kernel(uint32_t nthreads, uint32_t bs, const uint32_t *n,
				   const uint64_t *const *addrs, uint32_t bytes)
{
	rd_kernel_builder *b = rd_kernel_builder_new("test", bs, 1, 1);
	for (uint32_t t = 0; t < nthreads; t++)
		for (uint32_t i = 0; i < n[t]; i++)
			rd_kernel_builder_add(b, t, 0, addrs[t][i], bytes);
	return rd_kernel_builder_finish(b);
}

/* One thread loading seq[0..n) (byte addresses). */
static inline rd_kernel *tu_kernel_seq(const uint64_t *seq, uint32_t n, uint32_t bytes)
{
	const uint64_t *a[1] = {seq};
	return tu_kernel(1, 1, &n, a, bytes);
}

typedef struct tu_log {
	rd_event ev[4096];
	int n;
} tu_log;

static inline void tu_log_event(void *ctx, const rd_event *ev)
{
	tu_log *l = ctx;
	if (l->n < 4096)
		l->ev[l->n++] = *ev;
}

/* Configuration of the paper's toy examples: one core, warps of one
 * thread, a fully associative cache of `lines` lines of `line` bytes,
 * unlimited MSHRs, no latency, no divergence. */
static inline void tu_toy_config(rd_config *c, uint32_t line, uint32_t lines)
{
	rd_config_default(c);
	c->l1_line = line;
	c->l1_ways = lines;
	c->l1_size = line * lines;
	c->l1_hash = RD_HASH_MOD;
	c->l1_mshrs = 0;
	c->l1_mshr_per_warp = 0;
	c->latency_hit = 0;
	c->latency_miss = 0;
	c->latency_stddev = 0;
	c->latency_clip = 0;
	c->divergence = 0;
	c->warp_size = 1;
}

/* Run case 0 only and log its events. Returns the model status. */
static inline int tu_run_log(const rd_kernel *k, const rd_config *c, tu_log *log, rd_result *r)
{
	rd_callbacks cb = {.event = tu_log_event, .ctx = log};
	log->n = 0;
	rd_model *m = rd_model_new(k);
	int rc = rd_model_run(m, c, 1, &cb, r);
	rd_model_free(m);
	return rc;
}

/* Two results with the same counts: requests, hits, misses, classes,
 * each case's misses, time and histogram. */
static inline void tu_assert_same_counts(const rd_result *a, const rd_result *b)
{
	assert_int_equal(a->requests, b->requests);
	assert_int_equal(a->hits, b->hits);
	assert_int_equal(a->misses, b->misses);
	for (int i = 0; i < RD_NCLASS; i++)
		assert_int_equal(a->cls[i], b->cls[i]);
	for (int i = 0; i < RD_NCASES; i++)
		assert_int_equal(a->case_misses[i], b->case_misses[i]);
	assert_int_equal(a->time_steps, b->time_steps);
	assert_int_equal(a->hist_len, b->hist_len);
	assert_int_equal(a->hist_inf, b->hist_inf);
	assert_memory_equal(a->hist, b->hist, a->hist_len * sizeof *a->hist);
}

#endif
