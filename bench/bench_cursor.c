/*
 * Cursor benchmark (src/kdesc/kdesc_cursor.c): a description's threads
 * streamed by kd_cursor_next, one thread after another on one core, in
 * batches of BATCH accesses; prints the accesses, the time (wall and CPU)
 * and the accesses per second. All threads of the launch (no
 * max_threads), the first THREADS of them.
 * Usage: bench_cursor FILE[:VARIANT] LAUNCH THREADS [BATCH (1024)]
 *   bench_cursor samples/polybench/gemm.kdesc 0 20000
 *   bench_cursor samples/polybench/corr.kdesc 3 2    (corr_kernel: 12.6 M a thread)
 * (`make B=DIR DIR/bench/bench_cursor`; not part of bench/run.)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kdesc.h"
#include "readers/readers.h"

static double clock_s(clockid_t id)
{
	struct timespec t;
	clock_gettime(id, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: bench_cursor FILE[:VARIANT] LAUNCH THREADS [BATCH]\n");
		return 2;
	}
	char path[4096];
	snprintf(path, sizeof path, "%s", argv[1]);
	char *colon = strrchr(path, ':');
	const char *variant = NULL;
	if (colon) {
		*colon = '\0';
		variant = colon + 1;
	}
	size_t launch = strtoull(argv[2], NULL, 10);
	uint64_t nth = strtoull(argv[3], NULL, 10);
	uint32_t batch = argc > 4 ? (uint32_t)strtoul(argv[4], NULL, 10) : 1024;
	if (!batch)
		batch = 1;
	char err[1024];
	int oom = 0;
	textin *t = textin_open(path, 1 << 20, err, sizeof err, &oom);
	trace_reader *r = t ? kdesc_reader(t, path, variant, NULL, 0, err, sizeof err, &oom) : NULL;
	if (!r) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	kdesc_set_max_threads(r, 0);
	kd_stream *s = kd_stream_new(r, launch);
	uint64_t *a = malloc(batch * sizeof *a);
	uint16_t *b = malloc(batch * sizeof *b);
	uint8_t *st = malloc(batch);
	if (!s || !a || !b || !st) {
		fprintf(stderr, "%s\n", s ? "out of memory" : err);
		return 1;
	}
	uint32_t bs = kd_stream_block_size(s);
	if (nth > kd_stream_blocks(s) * bs)
		nth = kd_stream_blocks(s) * bs;
	uint64_t total = 0, sum = 0;
	double w0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	for (uint64_t i = 0; i < nth; i++) {
		kd_cursor *c = kd_cursor_new(s, i / bs, (uint32_t)(i % bs));
		if (!c)
			return 1;
		int64_t n;
		while ((n = kd_cursor_next(c, a, b, st, batch)) > 0) {
			total += (uint64_t)n;
			sum += a[n - 1] + b[0] + st[0]; /* (the accesses are used) */
		}
		if (n < 0) {
			fprintf(stderr, "%s\n", kd_cursor_error(c));
			return 1;
		}
		kd_cursor_free(c);
	}
	double wall = clock_s(CLOCK_MONOTONIC) - w0, cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
	printf("%s launch %zu: %llu threads, %llu accesses (%.0f a thread), batch %u: wall %.3f s "
	       "(%.1f M/s), cpu %.3f s (%.1f M/s), %zu bytes a cursor [%llu]\n",
	       argv[1], launch, (unsigned long long)nth, (unsigned long long)total,
	       nth ? (double)total / (double)nth : 0.0, batch, wall, (double)total / wall / 1e6, cpu,
	       (double)total / cpu / 1e6, kd_stream_cursor_bytes(s), (unsigned long long)(sum & 0xff));
	free(a);
	free(b);
	free(st);
	kd_stream_free(s);
	r->close(r);
	return 0;
}
