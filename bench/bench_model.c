/*
 * Model benchmark: builds its inputs in memory (nothing large ships) and
 * prints one Markdown row per input: requests, ns per coalesced request
 * for the as-configured case alone and per case for the full four-case
 * breakdown, wall time, and peak RSS. Medians of REPS runs.
 * Usage: bench_model [REPS [fig3|1m|10m]]
 *        bench_model --trc FILE THREADS   write the synthetic kernel as text
 *        bench_model --cancel             cancel latency, medians of 9
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_common.h"
#include "rdscope.h"
#include "sample_builtin.h"

/* The synthetic kernel as an Ocelot trace, for load-speed measurements. */
static int write_trc(const char *path, uint32_t nthreads)
{
	rd_kernel *k = synthetic(nthreads, 32, 1 << 15);
	FILE *f = fopen(path, "w");
	if (!k || !f)
		return 1;
	fprintf(f, "blocksize: 256 1 1\n");
	for (uint32_t t = 0; t < k->nthreads; t++)
		for (uint64_t a = k->thread_first[t]; a < k->thread_first[t + 1]; a++)
			fprintf(f, "%u 0 %llu %u\n", t, (unsigned long long)k->addr[a], k->bytes[a]);
	rd_kernel_free(k);
	return fclose(f) != 0;
}

/* Cancel latency as the explorer sees it: another thread raises a flag
 * (an edit), the run notices at its next progress report and returns. */
typedef struct cancel_probe {
	atomic_int flag;
	double raised;
} cancel_probe;

static int probe_progress(void *ctx, double f)
{
	(void)f;
	return atomic_load(&((cancel_probe *)ctx)->flag);
}

static void *probe_raise(void *ctx)
{
	cancel_probe *cp = ctx;
	struct timespec d = {0, 30 * 1000 * 1000};
	nanosleep(&d, NULL);
	cp->raised = now();
	atomic_store(&cp->flag, 1);
	return NULL;
}

static int cancel_latency(void)
{
	rd_kernel *k = synthetic(32768, 128, 1 << 15);
	rd_config c;
	rd_config_default(&c);
	rd_model *m = rd_model_new(k);
	rd_model_set_threads(m, 2);
	rd_result r;
	rd_model_run(m, &c, 1, NULL, &r); /* build the stages first */
	rd_result_free(&r);
	double lat[9];
	for (int i = 0; i < 9; i++) {
		cancel_probe cp;
		atomic_init(&cp.flag, 0);
		rd_callbacks cb = {.progress = probe_progress, .ctx = &cp};
		c.seed = 2000 + (uint64_t)i; /* nothing replayed: see bench() */
		pthread_t th;
		pthread_create(&th, NULL, probe_raise, &cp);
		int rc = rd_model_run(m, &c, RD_ALL_CASES, &cb, &r);
		double back = now();
		pthread_join(th, NULL);
		if (rc != RD_ECANCELED) {
			fprintf(stderr, "bench: run finished before the cancel\n");
			return 1;
		}
		lat[i] = back - cp.raised;
	}
	qsort(lat, 9, sizeof *lat, cmp_double);
	printf("| cancel latency (1M requests, breakdown on 2 threads) | %.2f ms median, %.2f ms max of 9 |\n",
	       lat[4] * 1e3, lat[8] * 1e3);
	rd_model_free(m);
	rd_kernel_free(k);
	return 0;
}

/* Resident and peak-resident KiB from /proc (0 where unavailable). */
static long proc_kib(const char *field)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long v = 0;
	size_t n = strlen(field);
	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, field, n) == 0)
			v = atol(line + n + 1);
	if (f)
		fclose(f);
	return v;
}

/* Forget the peak so far (the trace builder's), so VmHWM then tells the
 * model's own peak. */
static void peak_reset(void)
{
	FILE *f = fopen("/proc/self/clear_refs", "w");
	if (f) {
		fputs("5", f);
		fclose(f);
	}
}

static double run_with(rd_model *m, const rd_config *c, int cases, const rd_callbacks *cb,
		       rd_result *r)
{
	double t0 = now();
	if (rd_model_run(m, c, cases, cb, r) != RD_OK) {
		fprintf(stderr, "bench: model failed\n");
		exit(1);
	}
	return now() - t0;
}

static double run_once(rd_model *m, const rd_config *c, int cases, rd_result *r)
{
	double t0 = now();
	if (rd_model_run(m, c, cases, NULL, r) != RD_OK) {
		fprintf(stderr, "bench: model failed\n");
		exit(1);
	}
	return now() - t0;
}

/* The requests a configuration's run has (for per-request figures). */
static uint64_t m_requests(rd_model *m, const rd_config *c)
{
	rd_result r;
	run_once(m, c, 1, &r);
	uint64_t n = r.requests;
	rd_result_free(&r);
	return n ? n : 1;
}

static void bench(const char *name, rd_kernel *k, int reps)
{
	rd_config c;
	rd_config_default(&c);
	double one[16], all[16], par[16];
	rd_result r;
	/* The first run builds the cached stages (schedule, coalescing, set
	 * index): that is a batch run's extra cost, not a rerun's. */
	rd_model *m = rd_model_new(k);
	peak_reset();
	long loaded = proc_kib("VmRSS:");
	double first = run_once(m, &c, 1, &r);
	rd_result_free(&r);
	/* A seed of its own for every timed run: the model reuses a case whose
	 * parameters are unchanged, and a rerun of the same configuration
	 * would time that reuse, not the model. */
	for (int i = 0; i < reps; i++) {
		c.seed = 1000 + 3 * (uint64_t)i;
		one[i] = run_once(m, &c, 1, &r);
		rd_result_free(&r);
		rd_model_set_threads(m, 2);
		c.seed++;
		par[i] = run_once(m, &c, RD_ALL_CASES, &r);
		rd_result_free(&r);
		rd_model_set_threads(m, 1);
		c.seed++;
		all[i] = run_once(m, &c, RD_ALL_CASES, &r);
		if (i + 1 < reps)
			rd_result_free(&r);
	}
	long model_peak = proc_kib("VmHWM:") - loaded;
	rd_model_free(m);
	qsort(one, (size_t)reps, sizeof *one, cmp_double);
	qsort(all, (size_t)reps, sizeof *all, cmp_double);
	qsort(par, (size_t)reps, sizeof *par, cmp_double);
	double n = (double)r.requests;
	printf("| %s | %llu | %.3f | %.0f | %.0f | %.3f | %.3f | %.3f | %ld | %.1f |\n", name,
	       (unsigned long long)r.requests, first - one[reps / 2], one[reps / 2] / n * 1e9,
	       all[reps / 2] / n / 4 * 1e9, one[reps / 2], all[reps / 2], par[reps / 2],
	       loaded / 1024, model_peak * 1024.0 / n);
	fflush(stdout);
	rd_result_free(&r);
}

/* What the opt-in features cost (the breakdown, one thread): results by
 * site (--by site) and per-access classes, against the plain run, in
 * alternating runs (paired: the machine's load hits all alike). */
static void bench_options(const char *name, rd_kernel *k, int reps)
{
	rd_config c;
	rd_config_default(&c);
	rd_result r;
	rd_model *m = rd_model_new(k);
	run_once(m, &c, RD_ALL_CASES, &r); /* the stages */
	rd_result_free(&r);
	enum { NV = 6 }; /* plain, --by site, per-access, fifo, lfu, random */
	double t[NV][16];
	long peak[NV] = {0};
	rd_callbacks site = {.by_site = 1};
	for (int i = 0; i < reps; i++)
		for (int v = 0; v < NV; v++) {
			rd_config cv = c;
			cv.seed = 5000 + 7 * (uint64_t)i + (uint64_t)v;
			if (v == 2)
				cv.classes = RD_CLASSES_PER_ACCESS;
			if (v >= 3)
				cv.replacement = (enum rd_replacement)(RD_REPL_FIFO + (v - 3));
			long base = proc_kib("VmRSS:");
			peak_reset();
			t[v][i] = run_with(m, &cv, RD_ALL_CASES, v == 1 ? &site : NULL, &r);
			long p = proc_kib("VmHWM:") - base;
			if (p > peak[v])
				peak[v] = p;
			rd_result_free(&r);
		}
	double n = (double)m_requests(m, &c);
	rd_model_free(m);
	for (int v = 0; v < NV; v++)
		qsort(t[v], (size_t)reps, sizeof *t[v], cmp_double);
	double b = t[0][reps / 2];
	printf("| %s | %.3f | %.3f (%.2fx) | %.3f (%.2fx) | %+.1f | %+.1f | %.2fx | %.2fx | %.2fx |\n",
	       name, b, t[1][reps / 2], t[1][reps / 2] / b, t[2][reps / 2], t[2][reps / 2] / b,
	       (double)(peak[1] - peak[0]) * 1024.0 / n, (double)(peak[2] - peak[0]) * 1024.0 / n,
	       t[3][reps / 2] / b, t[4][reps / 2] / b, t[5][reps / 2] / b);
	fflush(stdout);
}

/* What stores cost (the breakdown, one thread), on a kernel whose every
 * 4th access is a store: l1.stores evict and allocate against ignore,
 * alternating runs. */
static void bench_stores(const char *name, rd_kernel *k, int reps)
{
	rd_config c;
	rd_config_default(&c);
	rd_result r;
	rd_model *m = rd_model_new(k);
	enum { NV = 3 }; /* ignore, evict, allocate */
	double t[NV][16];
	uint64_t req[NV] = {0};
	for (int v = 0; v < NV; v++) { /* each one's stages, built once */
		rd_config cv = c;
		cv.stores = (enum rd_stores)v;
		run_once(m, &cv, RD_ALL_CASES, &r);
		rd_result_free(&r);
	}
	for (int i = 0; i < reps; i++)
		for (int v = 0; v < NV; v++) {
			rd_config cv = c;
			cv.stores = (enum rd_stores)v;
			cv.seed = 9000 + 7 * (uint64_t)i + (uint64_t)v;
			t[v][i] = run_once(m, &cv, RD_ALL_CASES, &r);
			req[v] = r.requests + r.store_requests;
			rd_result_free(&r);
		}
	rd_model_free(m);
	for (int v = 0; v < NV; v++)
		qsort(t[v], (size_t)reps, sizeof *t[v], cmp_double);
	double b = t[0][reps / 2];
	printf("| %s | %.3f | %.3f (%.2fx) | %.3f (%.2fx) | %.2fx | %.2fx |\n", name, b,
	       t[1][reps / 2], t[1][reps / 2] / b, t[2][reps / 2], t[2][reps / 2] / b,
	       t[1][reps / 2] / (double)req[1] / (b / (double)req[0]),
	       t[2][reps / 2] / (double)req[2] / (b / (double)req[0]));
	fflush(stdout);
}

/* Issue 18's targets: the L2 stages per L2 request (an L2-only edit: the
 * L1's cases are kept, only the L2 reruns), and a model=rdgc run with its
 * L2 against the paper profile's L1-only run. */
static void l2_config(rd_config *c)
{
	char e[128];
	static const char *const kv[][2] = {
		{"l1.stores", "evict"}, {"l2.size", "1M"},    {"l2.line", "128"},
		{"l2.partitions", "4"}, {"l2.banks", "2"},    {"l2.ports", "2"},
		{"l2.mshrs", "32"},     {"l2.mshr_sets", "4"}, {"l2.max_merges", "8"},
	};
	for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
		if (rd_config_set(c, kv[i][0], kv[i][1], e, sizeof e))
			fprintf(stderr, "bench: %s\n", e);
}

static void bench_l2(const char *name, rd_kernel *k, int reps)
{
	rd_config paper, l2, rdgc;
	char e[128];
	rd_config_default(&paper);
	paper.stores = RD_STORES_EVICT;
	l2 = paper;
	l2_config(&l2);
	rdgc = l2;
	rd_config_set(&rdgc, "model", "rdgc", e, sizeof e);
	rd_config_set(&rdgc, "l1.hash", "xor", e, sizeof e);
	rd_result r;
	double tp[16], te[16], tr[16];
	uint64_t l2req = 0;
	rd_model *mp = rd_model_new(k), *me = rd_model_new(k), *mr = rd_model_new(k);
	run_once(me, &l2, RD_ALL_CASES, &r); /* the L1's cases, kept */
	rd_result_free(&r);
	for (int i = 0; i < reps; i++) {
		rd_config cp = paper, cr = rdgc, ce = l2;
		cp.seed = cr.seed = 5000 + (uint64_t)i; /* fresh L1 runs */
		tp[i] = run_once(mp, &cp, RD_ALL_CASES, &r);
		rd_result_free(&r);
		tr[i] = run_once(mr, &cr, RD_ALL_CASES, &r);
		rd_result_free(&r);
		ce.l2_ways = i % 2 ? 16 : 8; /* an L2-only edit each time */
		ce.l2_size = ce.l2_ways * (1u << 17);
		te[i] = run_once(me, &ce, RD_ALL_CASES, &r);
		l2req = r.l2.requests + r.l2.store_requests;
		rd_result_free(&r);
	}
	rd_model_free(mp);
	rd_model_free(me);
	rd_model_free(mr);
	qsort(tp, (size_t)reps, sizeof *tp, cmp_double);
	qsort(te, (size_t)reps, sizeof *te, cmp_double);
	qsort(tr, (size_t)reps, sizeof *tr, cmp_double);
	double p = tp[reps / 2], ed = te[reps / 2], rg = tr[reps / 2];
	printf("| %s | %llu | %.3f | %.1f | %.3f | %.3f (%.2fx) |\n", name, (unsigned long long)l2req,
	       ed, ed * 1e9 / (double)(l2req ? l2req : 1), p, rg, rg / p);
	fflush(stdout);
}

/* The binomial estimate over a profile of 4,097 distances (0..4095 and
 * cold), at 1 to 1024 ways of 1024 sets: microseconds per estimate. */
static int bench_estimate(void)
{
	enum { LEN = 4096 };
	static uint64_t h[LEN];
	uint64_t x = 7;
	for (int d = 0; d < LEN; d++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		h[d] = (x >> 40) % 1000;
	}
	double worst = 0, sink = 0;
	for (uint32_t ways = 1; ways <= 1024; ways *= 2) {
		double t[9];
		for (int i = 0; i < 9; i++) {
			double t0 = now();
			for (int r = 0; r < 100; r++)
				sink += rd_profile_estimate(h, LEN, 1000 + (uint64_t)r, ways, 1024u * ways);
			t[i] = (now() - t0) / 100;
		}
		qsort(t, 9, sizeof *t, cmp_double);
		if (t[4] > worst)
			worst = t[4];
	}
	printf("| binomial estimate of a 4,097-bin profile, 1 to 1024 ways (the slowest) | %.1f us "
	       "(median of 9 x 100)%s |\n", worst * 1e6, sink < 0 ? " " : "");
	/* The learned estimate of the same profile: its features and one
	 * forward pass, for the shipped shape and MLCRP's (the time does not
	 * depend on the weights' values). */
	static const uint32_t shapes[][5] = {{RD_LEARN_NFEAT, 64, 32, RD_LEARN_NOUT},
					     {RD_LEARN_NFEAT, 1024, 128, 32, RD_LEARN_NOUT}};
	static const uint32_t nshape[] = {4, 5};
	static const char *const names[] = {"19-64-32-2 (shipped)", "19-1024-128-32-2 (MLCRP's)"};
	for (int s = 0; s < 2; s++) {
		rd_mlp *m = rd_mlp_new(shapes[s], nshape[s], 1);
		if (!m)
			return 1;
		double t[9];
		for (int i = 0; i < 9; i++) {
			double t0 = now();
			for (int r = 0; r < 100; r++) {
				double f[RD_LEARN_NFEAT], y[RD_LEARN_NOUT];
				rd_learn_features(h, LEN, 1000 + (uint64_t)r, 32, 4, 128, f);
				rd_mlp_predict(m, f, y);
				sink += y[0];
			}
			t[i] = (now() - t0) / 100;
		}
		qsort(t, 9, sizeof *t, cmp_double);
		printf("| learned estimate of a 4,097-bin profile (features + MLP %s) | %.1f us "
		       "(median of 9 x 100)%s |\n", names[s], t[4] * 1e6, sink < 0 ? " " : "");
		rd_mlp_free(m);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--estimate") == 0)
		return bench_estimate();
	if (argc == 4 && strcmp(argv[1], "--trc") == 0)
		return write_trc(argv[2], (uint32_t)atoi(argv[3]));
	if (argc == 2 && strcmp(argv[1], "--cancel") == 0)
		return cancel_latency();
	int reps = argc > 1 ? atoi(argv[1]) : 3;
	if (reps < 1 || reps > 15)
		reps = 3;
	const char *only = argc > 2 ? argv[2] : "";
	printf("| input | requests | stages s | ns/request, as configured | ns/request/case, breakdown | as configured s | breakdown s | breakdown s, 2 threads | trace RSS MiB | model peak bytes/request |\n");
	printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	if (!*only || strstr("fig3", only)) {
		rd_kernel *k = sample_colcopy(1024, 1024, 4);
		bench("fig3 colcopy 1024 threads", k, reps);
		rd_kernel_free(k);
	}
	if (!*only || strstr("1m", only)) {
		rd_kernel *k = synthetic(32768, 128, 1 << 15);
		bench("synthetic 1M", k, reps);
		rd_kernel_free(k);
	}
	if (!*only || strstr("10m", only)) {
		rd_kernel *k = synthetic(327680, 128, 1 << 18);
		bench("synthetic 10M", k, reps);
		rd_kernel_free(k);
	}
	if (!*only || strstr("options", only)) {
		printf("\n| input | breakdown s (LRU) | --by site s (ratio) | classes=per-access s (ratio) | "
		       "--by site extra peak bytes/request | per-access extra peak bytes/request | "
		       "fifo / LRU | lfu / LRU | random / LRU |\n");
		printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
		rd_kernel *k = synthetic(32768, 128, 1 << 15);
		bench_options("synthetic 1M", k, reps);
		rd_kernel_free(k);
		k = synthetic(327680, 128, 1 << 18);
		bench_options("synthetic 10M", k, reps);
		rd_kernel_free(k);
	}
	if (!*only || strstr("stores", only)) {
		printf("\n| input (every 4th access a store) | breakdown s, stores=ignore | "
		       "stores=evict s (ratio) | stores=allocate s (ratio) | evict per request / ignore "
		       "| allocate per request / ignore |\n");
		printf("|---|---:|---:|---:|---:|---:|\n");
		rd_kernel *k = synthetic_stores(32768, 128, 1 << 15, 4);
		bench_stores("synthetic 1M", k, reps);
		rd_kernel_free(k);
	}
	if (!*only || strstr("l2", only)) {
		printf("\n| input (every 4th access a store) | L2 requests | L2-only edit s | ns per L2 "
		       "request | paper, L1 only, breakdown s | rdgc with L2, breakdown s (ratio) |\n");
		printf("|---|---:|---:|---:|---:|---:|\n");
		rd_kernel *k = synthetic_stores(32768, 128, 1 << 15, 4);
		bench_l2("synthetic 1M", k, reps);
		rd_kernel_free(k);
	}
	return 0;
}
