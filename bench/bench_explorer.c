/*
 * Explorer responsiveness through the explorer's own worker (ui/worker.c):
 * after an edit, how long until the first frame's data (a partial snapshot
 * or the final result) and until the final result. Each edit sets
 * latency.miss on the synthetic kernel to a value not used before (the
 * model keeps recent results per case: a value seen before would time that
 * reuse, not the model); medians of 9 edits. Stage building is warmed up first (an
 * edit of the ways reuses coalescing), as in a session. Then how soon the
 * next step's result is ready when the explorer speculates on it.
 * Usage: bench_explorer REQUESTS_IN_MILLIONS
 */
#define _POSIX_C_SOURCE 200809L
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_common.h"
#include "rdscope.h"
#include "worker.h"

/* Wait for gen's results; first and final times since t0. */
static void wait_final(worker *w, unsigned long gen, double t0, double *first, double *final)
{
	*first = -1;
	for (;;) {
		struct pollfd p = {.fd = worker_fd(w), .events = POLLIN};
		poll(&p, 1, 1000);
		unsigned long pg;
		double pr;
		snap *s = worker_take(w, &pg, &pr);
		if (!s)
			continue;
		if (s->gen == gen) {
			double t = now() - t0;
			if (*first < 0)
				*first = t;
			if (!s->partial) {
				*final = t;
				snap_unref(s);
				return;
			}
		}
		snap_unref(s);
	}
}

int main(int argc, char **argv)
{
	double millions = argc > 1 ? atof(argv[1]) : 1;
	uint32_t threads = (uint32_t)(millions * 32768);
	rd_kernel *k = synthetic(threads, 128, millions > 2 ? 1 << 18 : 1 << 15);
	char err[128];
	worker *w = worker_start(k, err, sizeof err);
	if (!k || !w) {
		fprintf(stderr, "bench: %s\n", err);
		return 1;
	}
	rd_config c;
	rd_config_default(&c);
	double first, final, f[9], g[9];
	unsigned long gen = 1;
	worker_submit(w, gen, &c, 1); /* builds the stages */
	wait_final(w, gen, now(), &first, &final);
	for (int i = 0; i < 9; i++) {
		c.latency_miss = 102 + 2 * (uint32_t)i; /* the warm-up ran 100 */
		double t0 = now();
		worker_submit(w, ++gen, &c, 1);
		wait_final(w, gen, t0, &f[i], &g[i]);
	}
	qsort(f, 9, sizeof *f, cmp_double);
	qsort(g, 9, sizeof *g, cmp_double);
	printf("| explorer edit of latency.miss, %.0fM requests: first frame / final result | %.0f ms / %.0f ms (medians of 9) |\n",
	       millions, f[4] * 1e3, g[4] * 1e3);
	/* Speculation: after a result, the explorer has the worker compute the
	 * selected parameter's next step while the user looks; a step taken
	 * after this long is answered from the explorer's memo at once. */
	double ready[5];
	for (int i = 0; i < 5; i++) {
		rd_config next = c;
		next.latency_miss = c.latency_miss + 10 + (uint32_t)i; /* never run before */
		double t0 = now();
		worker_speculate(w, gen, &next, 1);
		for (;;) {
			struct pollfd p = {.fd = worker_fd(w), .events = POLLIN};
			poll(&p, 1, 1000);
			snap *s = worker_take(w, NULL, NULL);
			int got = s && s->kind == JOB_SPEC;
			snap_unref(s);
			if (got)
				break;
		}
		ready[i] = now() - t0;
	}
	qsort(ready, 5, sizeof *ready, cmp_double);
	printf("| explorer step of latency.miss, %.0fM requests: the next step's result ready (speculated while idle) | %.0f ms after the last result (median of 5); a step after that is shown at once |\n",
	       millions, ready[2] * 1e3);
	/* An L2-only edit (seed 001's L2 behind the L1): the L1's cases and
	 * the L2's stream are kept, only the L2's banks rerun. latency.l2
	 * takes a value not used before each time. */
	if (millions <= 2) {
		rd_config l2 = c;
		static const char *const kv[][2] = {
			{"l1.stores", "evict"}, {"l2.size", "1M"},  {"l2.partitions", "4"},
			{"l2.banks", "2"},      {"l2.ports", "2"},  {"l2.mshrs", "32"},
			{"l2.mshr_sets", "4"},
		};
		for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
			if (rd_config_set(&l2, kv[i][0], kv[i][1], err, sizeof err))
				fprintf(stderr, "bench: %s\n", err);
		worker_submit(w, ++gen, &l2, 1);
		wait_final(w, gen, now(), &first, &final);
		for (int i = 0; i < 9; i++) {
			l2.latency_l2 = 2 + (uint32_t)i;
			double t0 = now();
			worker_submit(w, ++gen, &l2, 1);
			wait_final(w, gen, t0, &f[i], &g[i]);
		}
		qsort(g, 9, sizeof *g, cmp_double);
		printf("| explorer edit of latency.l2 (an L2-only edit), %.0fM requests: final result | %.0f ms (median of 9) |\n",
		       millions, g[4] * 1e3);
	}
	worker_stop(w);
	rd_kernel_free(k);
	return 0;
}
