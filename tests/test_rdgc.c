/*
 * RDGC (seed 001): Table 3 cell by cell through the event log, Algorithm 3
 * and the adaptive latency on the notes' derived examples (§C5.2 D1, D2),
 * the geometry of Table 5 (§C5.1 T4), and the L2 against an independent
 * LRU simulator and the banking property.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdscope.h"

static char err[256];

static void set(rd_config *c, const char *k, const char *v)
{
	if (rd_config_set(c, k, v, err, sizeof err) != 0)
		fail_msg("%s=%s: %s", k, v, err);
}

/* ---- Table 3 ---------------------------------------------------------- */

#define MAXEV 64
typedef struct evlog {
	rd_event e[MAXEV];
	int n;
} evlog;

static void log_event(void *ctx, const rd_event *ev)
{
	evlog *l = ctx;
	if (l->n < MAXEV)
		l->e[l->n++] = *ev;
}

/* Table 3's toy: warps w0 = {A, B, C, D}, w1 = {E, F, G, H}, w2 = {A, D}
 * (warps of 4 threads, one block, one access each; A..H lines 0..7 of 4
 * bytes); 2 banks (A, C, E, G on bank 0) of 2 ports, one per-bank fully
 * associative set, 2 MSHRs shared, 2 schedulers, the paper's latency 2
 * (1 here: a miss of step i fills before step i + 1). */
static rd_kernel *table3_kernel(void)
{
	rd_kernel_builder *b = rd_kernel_builder_new("table3", 12, 1, 1);
	static const int lines[] = {0, 1, 2, 3, 4, 5, 6, 7, 0, 3};
	for (int t = 0; t < 10; t++)
		assert_int_equal(rd_kernel_builder_add(b, (uint32_t)t, 0, 4u * (uint64_t)lines[t], 4), 0);
	rd_kernel *k = rd_kernel_builder_finish(b);
	assert_non_null(k);
	return k;
}

static void table3_config(rd_config *c)
{
	rd_config_default(c);
	set(c, "model", "rdgc");
	set(c, "l1.size", "64");
	set(c, "l1.line", "4");
	set(c, "l1.ways", "8");
	set(c, "l1.hash", "mod");
	set(c, "l1.banks", "2");
	set(c, "l1.ports", "2");
	set(c, "l1.mshrs", "2");
	set(c, "gpu.schedulers", "2");
	set(c, "latency.model", "fixed");
	set(c, "latency.miss", "1");
	set(c, "gpu.warp_size", "4");
	assert_int_equal(rd_config_check(c, err, sizeof err), 0);
}

/* The cell of bank b, port p at step t: its line letter and status
 * ("m", "rf", "h"), or NULL if idle. */
static const rd_event *cell(const evlog *l, uint64_t t, uint32_t b, uint32_t p)
{
	for (int i = 0; i < l->n; i++) {
		const rd_event *e = &l->e[i];
		if (e->time == t && e->bank == b && e->port == p && e->outcome != RD_OUT_FILL)
			return e;
	}
	return NULL;
}

static void test_table3(void **state)
{
	(void)state;
	rd_kernel *k = table3_kernel();
	rd_config c;
	table3_config(&c);
	rd_model *m = rd_model_new(k);
	evlog log = {.n = 0};
	rd_callbacks cb = {.event = log_event, .ctx = &log};
	rd_result r;
	assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, &cb, &r), RD_OK);

	/* Port contents, statuses and distances per step (the paper's rows;
	 * "-" an idle port; a letter's status m, rf or h; d its distance, -2
	 * for none (rf), -1 infinite). */
	static const struct {
		const char *line, *status;
		int d;
	} want[5][2][2] = {
		/* step 0: B0 A m inf, C m inf; B1 B rf, D rf */
		{{{"A", "m", -1}, {"C", "m", -1}}, {{"B", "rf", -2}, {"D", "rf", -2}}},
		{{{"E", "rf", -2}, {"G", "rf", -2}}, {{"B", "m", -1}, {"D", "m", -1}}},
		{{{"E", "m", -1}, {"G", "m", -1}}, {{"F", "rf", -2}, {"H", "rf", -2}}},
		{{{"-", "", 0}, {"-", "", 0}}, {{"F", "m", -1}, {"H", "m", -1}}},
		{{{"A", "h", 3}, {"-", "", 0}}, {{"D", "h", 2}, {"-", "", 0}}},
	};
	for (uint64_t t = 0; t < 5; t++)
		for (uint32_t b = 0; b < 2; b++)
			for (uint32_t p = 0; p < 2; p++) {
				const rd_event *e = cell(&log, t, b, p);
				const char *wl = want[t][b][p].line;
				if (wl[0] == '-') {
					if (e)
						fail_msg("step %llu B%u/P%u: want idle, got line %llu",
							 (unsigned long long)t, b, p,
							 (unsigned long long)e->line);
					continue;
				}
				if (!e)
					fail_msg("step %llu B%u/P%u: want %s, got idle",
						 (unsigned long long)t, b, p, wl);
				assert_int_equal('A' + (int)e->line, wl[0]);
				const char *st = e->outcome == RD_OUT_HIT    ? "h"
						 : e->outcome == RD_OUT_MISS ? "m"
						 : e->outcome == RD_OUT_RF   ? "rf"
									     : "?";
				assert_string_equal(st, want[t][b][p].status);
				if (want[t][b][p].d != -2)
					assert_int_equal(e->distance, want[t][b][p].d);
				assert_int_equal(e->level, 1);
			}
	/* #Free MSHR after each step's issue phase: 0 0 0 0 2 */
	static const uint32_t free_after[5] = {0, 0, 0, 0, 2};
	for (uint64_t t = 0; t < 5; t++) {
		const rd_event *last = NULL;
		for (int i = 0; i < log.n; i++)
			if (log.e[i].time == t && log.e[i].outcome != RD_OUT_FILL)
				last = &log.e[i];
		assert_non_null(last);
		assert_int_equal(last->mshrs_free, free_after[t]);
	}
	/* Update row (fills, in MSHR order, before the step's accesses):
	 * -, A C, B D, E G, F H */
	static const char *const fills[5] = {"", "AC", "BD", "EG", "FH"};
	for (uint64_t t = 0; t < 5; t++) {
		char got[8] = "";
		int n = 0;
		for (int i = 0; i < log.n; i++)
			if (log.e[i].outcome == RD_OUT_FILL && log.e[i].time == t && n < 7)
				got[n++] = (char)('A' + log.e[i].line);
		got[n] = 0;
		assert_string_equal(got, fills[t]);
	}
	/* Totals: 10 served, 2 hits (3 on B0, 2 on B1), 8 cold misses, 6
	 * reservation fails, 0 merges, 5 steps */
	assert_int_equal(r.requests, 10);
	assert_int_equal(r.hits, 2);
	assert_int_equal(r.misses, 8);
	assert_int_equal(r.cls[RD_CLASS_COMPULSORY], 8);
	assert_int_equal(r.reservation_fails, 6);
	assert_int_equal(r.cls[RD_CLASS_LATENCY], 0);
	assert_int_equal(r.time_steps, 5);
	assert_int_equal(r.hist_inf, 8);
	assert_true(r.hist_len == 4 && r.hist[2] == 1 && r.hist[3] == 1);
	rd_metrics mt;
	rd_metrics_of(&r, NULL, &mt);
	assert_true(mt.l1_r_hit > 0.1999 && mt.l1_r_hit < 0.2001);
	assert_int_equal(mt.l1_r_trans, 10);
	assert_int_equal(mt.steps, 5);
	rd_result_free(&r);
	rd_model_free(m);
	rd_kernel_free(k);
}

/* Table 3 with a fixed latency L: the pairs B D, E G, F H each wait for
 * the fills of the pair before, so the run lasts 3L + 2 steps with
 * 10L - 4 reservation fails (L = 1: Table 3's 5 and 6; L = 2: the 8 steps
 * the notes find for the reading they reject, a miss holding its entry to
 * the end of step i + 1, which does not give Table 3). Long latencies
 * finish at once: the steps in which nothing changes are skipped, their
 * fails counted. */
static void test_table3_latencies(void **state)
{
	(void)state;
	rd_kernel *k = table3_kernel();
	static const char *const lat[] = {"1", "2", "3", "7", "1000000"};
	static const uint64_t L[] = {1, 2, 3, 7, 1000000};
	for (int i = 0; i < 5; i++) {
		rd_config c;
		table3_config(&c);
		set(&c, "latency.miss", lat[i]);
		rd_model *m = rd_model_new(k);
		rd_result r;
		assert_int_equal(rd_model_run(m, &c, 1, NULL, &r), RD_OK);
		assert_int_equal(r.time_steps, 3 * L[i] + 2);
		assert_int_equal(r.reservation_fails, 10 * L[i] - 4);
		assert_int_equal(r.hits, 2);
		rd_result_free(&r);
		rd_model_free(m);
	}
	rd_kernel_free(k);
}

/* ---- Algorithm 3 and the adaptive latency (notes §C5.2 D1, D2) ------- */

static void test_algorithm3(void **state)
{
	(void)state;
	uint32_t cb, n;
	rd_concurrent_blocks(8, 10, 32, 64, &cb, &n);
	assert_true(cb == 8 && n == 2);
	rd_concurrent_blocks(4, 40, 16, 64, &cb, &n);
	assert_true(cb == 16 && n == 3);
	rd_concurrent_blocks(4, 3, 16, 64, &cb, &n);
	assert_true(cb == 3 && n == 1);
	rd_concurrent_blocks(4, 0, 16, 64, &cb, &n);
	assert_true(cb == 0 && n == 0);
}

static void test_adaptive_latency(void **state)
{
	(void)state;
	assert_int_equal(rd_adaptive_latency(2, 0.25, 16, 8, 8), 6);
	assert_int_equal(rd_adaptive_latency(8, 1, 32, 8, 8), 40);
	assert_int_equal(rd_adaptive_latency(1, 0.125, 5, 8, 8), 2);  /* 1.625 */
	assert_int_equal(rd_adaptive_latency(2, 0.25, 32, 26, 14), 17); /* 16.857 */
	assert_int_equal(rd_adaptive_latency(0, 0, 0, 1, 1), 1);       /* at least 1 */
}

/* ---- geometry (notes §C5.1 T4) and the profile switch ----------------- */

static void test_geometry(void **state)
{
	(void)state;
	rd_config c;
	rd_config_default(&c);
	set(&c, "model", "rdgc");
	set(&c, "l1.size", "24K");
	set(&c, "l1.line", "32");
	set(&c, "l1.ways", "192");
	set(&c, "l1.hash", "xor");
	assert_int_equal(rd_config_sets(&c), 4);
	set(&c, "l2.size", "1792K");
	set(&c, "l2.line", "32");
	set(&c, "l2.ways", "8");
	set(&c, "l2.partitions", "7");
	set(&c, "l2.banks", "2");
	assert_int_equal(rd_config_l2_sets(&c), 512); /* 7168 sets in 14 banks */
	set(&c, "l2.mshr_sets", "4");
	assert_int_equal(rd_config_check(&c, err, sizeof err), 0);
	set(&c, "l2.mshr_sets", "8");
	assert_int_equal(rd_config_check(&c, err, sizeof err), -1);
	assert_non_null(strstr(err, "l2.mshr_sets"));
	set(&c, "l2.mshr_sets", "4");
	set(&c, "l2.size", "1000K");
	assert_int_equal(rd_config_check(&c, err, sizeof err), -1);
	assert_non_null(strstr(err, "l2.size"));
	rd_config_default(&c);
	set(&c, "l2.size", "512K");
	set(&c, "l2.line", "32");
	assert_int_equal(rd_config_l2_sets(&c), 2048); /* GT 740M */

	/* the paper profile refuses RDGC's own keys; switching moves defaults */
	rd_config_default(&c);
	set(&c, "l1.banks", "2");
	assert_int_equal(rd_config_check(&c, err, sizeof err), -1);
	assert_non_null(strstr(err, "model=rdgc"));
	rd_config_default(&c);
	set(&c, "l1.mshrs", "16");
	set(&c, "model", "rdgc");
	assert_int_equal(c.l1_mshrs, 16);   /* set by hand: kept */
	assert_int_equal(c.l1_ports, 2);    /* paper default -> RDGC's */
	assert_int_equal(c.l1_max_merges, 8);
	assert_int_equal(c.latency_model, RD_LATENCY_ADAPTIVE);
	assert_int_equal(rd_config_check(&c, err, sizeof err), 0);
	set(&c, "model", "paper");
	assert_int_equal(c.l1_ports, 0);
	assert_int_equal(c.l1_mshr_per_warp, 6);
	assert_int_equal(rd_config_check(&c, err, sizeof err), 0);
}

/* ---- the L2 against an independent LRU simulator ---------------------- */

/* A set-associative LRU cache over line addresses: misses of a stream. */
typedef struct lru {
	uint64_t *tag; /* [sets * ways], most recent first; UINT64_MAX empty */
	uint32_t sets, ways;
} lru;

static int lru_access(lru *c, uint64_t line, uint32_t set)
{
	uint64_t *s = c->tag + (size_t)set * c->ways;
	uint32_t i = 0;
	while (i < c->ways && s[i] != line)
		i++;
	int hit = i < c->ways;
	if (!hit)
		i = c->ways - 1;
	memmove(s + 1, s, i * sizeof *s);
	s[0] = line;
	return hit;
}

static rd_kernel *random_kernel(uint32_t threads, uint32_t per, uint64_t span, unsigned seed,
				int stores)
{
	rd_kernel_builder *b = rd_kernel_builder_new("rand", threads, 1, 1);
	uint64_t x = seed * 2654435761u + 1;
	for (uint32_t t = 0; t < threads; t++)
		for (uint32_t i = 0; i < per; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			uint64_t a = (x >> 33) % span;
			int st = stores && ((x >> 20) & 3) == 0;
			assert_int_equal(rd_kernel_builder_add(b, t, st, a * 8, 8), 0);
		}
	return rd_kernel_builder_finish(b);
}

/* One core, one thread, no latency, unlimited MSHRs and ports: the L2's
 * misses are an LRU cache's fed the L1's misses in order; with the L1
 * bypassed, fed the whole stream. */
static void test_l2_equals_lru(void **state)
{
	(void)state;
	for (int bypass = 0; bypass < 2; bypass++)
		for (unsigned seed = 1; seed <= 3; seed++) {
			rd_kernel *k = random_kernel(1, 4000, 3000, seed, 0);
			rd_config c;
			rd_config_default(&c);
			set(&c, "l1.size", "2K");
			set(&c, "l1.line", "32");
			set(&c, "l1.ways", "2");
			set(&c, "l1.hash", "mod");
			set(&c, "l1.mshrs", "0");
			set(&c, "l1.mshr_per_warp", "0");
			set(&c, "latency.miss", "0");
			set(&c, "latency.stddev", "0");
			set(&c, "gpu.warp_size", "1");
			set(&c, "l2.size", "8K");
			set(&c, "l2.line", "64");
			set(&c, "l2.ways", "4");
			if (bypass) {
				set(&c, "l1.loads", "bypass");
				set(&c, "l1.stores", "evict");
			}
			assert_int_equal(rd_config_check(&c, err, sizeof err), 0);
			rd_model *m = rd_model_new(k);
			rd_result r;
			assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, NULL, &r), RD_OK);
			assert_true(r.has_l2);
			/* the independent simulators */
			lru l1 = {calloc(64, 8), 32, 2}, l2 = {calloc(128, 8), 32, 4};
			memset(l1.tag, 0xff, 64 * 8);
			memset(l2.tag, 0xff, 128 * 8);
			uint64_t l2req = 0, l2miss = 0;
			for (uint64_t i = 0; i < k->nloads; i++) {
				uint64_t a = k->addr[i], line = a / 32;
				if (!bypass && lru_access(&l1, line, (uint32_t)(line % 32)))
					continue;
				uint64_t line2 = a / 64;
				l2req++;
				l2miss += !lru_access(&l2, line2, (uint32_t)(line2 % 32));
			}
			assert_int_equal(r.l2.requests, l2req);
			assert_int_equal(r.l2.misses, l2miss);
			assert_int_equal(r.l2.hits, l2req - l2miss);
			free(l1.tag);
			free(l2.tag);
			rd_result_free(&r);
			rd_model_free(m);
			rd_kernel_free(k);
		}
}

/* Under l1.stores=allocate the L1 sends the L2 its misses' fetches and
 * the write-backs of written lines it evicts (after the fetch that evicts
 * them): an LRU cache with dirty bits in front of an LRU L2, both
 * profiles (one thread, no latency, unlimited MSHRs and ports). */
static void test_writebacks(void **state)
{
	(void)state;
	for (int rdgc = 0; rdgc < 2; rdgc++)
		for (unsigned seed = 1; seed <= 3; seed++) {
			rd_kernel *k = random_kernel(1, 4000, 1500, seed, 1);
			rd_config c;
			rd_config_default(&c);
			if (rdgc) {
				set(&c, "model", "rdgc");
				set(&c, "l1.ports", "0");
				set(&c, "l1.max_merges", "0");
				set(&c, "latency.model", "fixed");
			}
			set(&c, "l1.size", "2K");
			set(&c, "l1.line", "32");
			set(&c, "l1.ways", "2");
			set(&c, "l1.hash", "mod");
			set(&c, "l1.mshrs", "0");
			set(&c, "l1.mshr_per_warp", "0");
			set(&c, "l1.stores", "allocate");
			set(&c, "latency.miss", "0");
			set(&c, "latency.stddev", "0");
			set(&c, "gpu.warp_size", "1");
			set(&c, "l2.size", "8K");
			set(&c, "l2.line", "64");
			set(&c, "l2.ways", "4");
			/* (with latency, a write-back and the fetch that evicts it can
			 * meet in one L2 line in one step: a merge) */
			set(&c, "latency.l2", "0");
			assert_int_equal(rd_config_check(&c, err, sizeof err), 0);
			rd_model *m = rd_model_new(k);
			rd_result r;
			assert_int_equal(rd_model_run(m, &c, 1, NULL, &r), RD_OK);
			/* the thread's accesses in program order: merge loads and stores */
			uint64_t rd = 0, wr = 0, rmiss = 0, whit = 0;
			lru l1 = {calloc(64, 8), 32, 2}, l2 = {calloc(128, 8), 32, 4};
			memset(l1.tag, 0xff, 64 * 8);
			memset(l2.tag, 0xff, 128 * 8);
			uint8_t dirty[1500 * 8 / 32 + 2] = {0};
			uint64_t li = 0, si = 0;
			while (li < k->nloads || si < k->nstores) {
				int st = si < k->nstores && k->store_pos[si] == li + si;
				uint64_t a = st ? k->store_addr[si++] : k->addr[li++];
				uint64_t line = a / 32;
				uint64_t *set0 = l1.tag + (line % 32) * 2;
				uint64_t victim = set0[1];
				if (!lru_access(&l1, line, (uint32_t)(line % 32))) {
					uint64_t l2l = line / 2;
					rd++;
					rmiss += !lru_access(&l2, l2l, (uint32_t)(l2l % 32));
					if (victim != UINT64_MAX && dirty[victim]) {
						dirty[victim] = 0;
						uint64_t v2 = victim / 2;
						wr++;
						whit += lru_access(&l2, v2, (uint32_t)(v2 % 32));
					}
				}
				if (st)
					dirty[line] = 1;
			}
			assert_true(wr > 0);
			assert_int_equal(r.l2.requests, rd);
			assert_int_equal(r.l2.store_requests, wr);
			if (r.l2.misses != rmiss)
				fail_msg("rdgc %d seed %u: L2 misses %llu, want %llu", rdgc, seed,
					 (unsigned long long)r.l2.misses, (unsigned long long)rmiss);
			if (r.l2.store_hits != whit || r.l2.store_requests != wr || r.l2.requests != rd)
				fail_msg("rdgc %d seed %u: L2 reads %llu/%llu writes %llu/%llu hits %llu/%llu", rdgc,
					 seed, (unsigned long long)r.l2.requests, (unsigned long long)rd,
					 (unsigned long long)r.l2.store_requests, (unsigned long long)wr,
					 (unsigned long long)r.l2.store_hits, (unsigned long long)whit);
			free(l1.tag);
			free(l2.tag);
			rd_result_free(&r);
			rd_model_free(m);
			rd_kernel_free(k);
		}
}

/* Splitting a fully associative L2 into banks never changes its cold
 * misses, and (with unlimited ports and MSHRs, no latency) no access's
 * distance grows: the histogram of the banked cache is dominated. */
static void test_banking_property(void **state)
{
	(void)state;
	for (unsigned seed = 1; seed <= 4; seed++) {
		rd_kernel *k = random_kernel(64, 40, 700, seed, 1);
		uint64_t cold[2] = {0, 0};
		uint64_t *hist[2];
		uint32_t len[2];
		for (int banked = 0; banked < 2; banked++) {
			rd_config c;
			rd_config_default(&c);
			set(&c, "l1.size", "1K");
			set(&c, "l1.line", "32");
			set(&c, "l1.ways", "2");
			set(&c, "l1.hash", "mod");
			set(&c, "l1.stores", "evict");
			set(&c, "gpu.cores", "2");
			set(&c, "l2.size", "4K");
			set(&c, "l2.line", "32");
			set(&c, "l2.ways", banked ? "32" : "128");
			set(&c, "l2.banks", banked ? "4" : "1");
			set(&c, "latency.l2", "0");
			assert_int_equal(rd_config_check(&c, err, sizeof err), 0);
			rd_model *m = rd_model_new(k);
			rd_result r;
			assert_int_equal(rd_model_run(m, &c, 1, NULL, &r), RD_OK);
			cold[banked] = r.l2.cls[RD_CLASS_COMPULSORY];
			len[banked] = r.l2.hist_len;
			hist[banked] = calloc(r.l2.hist_len + 1, sizeof **hist);
			memcpy(hist[banked], r.l2.hist, r.l2.hist_len * sizeof **hist);
			assert_int_equal(r.l2.partitions * r.l2.banks, banked ? 4 : 1);
			uint64_t sum = 0;
			for (uint32_t b = 0; b < r.l2.partitions * r.l2.banks; b++)
				sum += r.l2.bank_requests[b];
			assert_int_equal(sum, r.l2.requests + r.l2.store_requests);
			rd_result_free(&r);
			rd_model_free(m);
		}
		assert_true(cold[0] > 0);
		assert_int_equal(cold[0], cold[1]);
		/* cumulative: at every d, at least as many banked distances <= d */
		uint64_t a = 0, b = 0;
		uint32_t n = len[0] > len[1] ? len[0] : len[1];
		for (uint32_t d = 0; d < n; d++) {
			a += d < len[0] ? hist[0][d] : 0;
			b += d < len[1] ? hist[1][d] : 0;
			assert_true(b >= a);
		}
		free(hist[0]);
		free(hist[1]);
		rd_kernel_free(k);
	}
}

/* An L2-only edit reuses the L1 (same stream) and equals a fresh run. */
static void test_l2_edit_matches_fresh(void **state)
{
	(void)state;
	rd_kernel *k = random_kernel(256, 20, 5000, 9, 1);
	rd_config c;
	rd_config_default(&c);
	set(&c, "l1.stores", "evict");
	set(&c, "gpu.cores", "4");
	set(&c, "l2.size", "64K");
	set(&c, "l2.ports", "2");
	set(&c, "l2.mshrs", "8");
	rd_model *m = rd_model_new(k);
	rd_result r1, r2, r3;
	assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, NULL, &r1), RD_OK);
	set(&c, "l2.banks", "4");
	assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, NULL, &r2), RD_OK);
	rd_model *f = rd_model_new(k);
	assert_int_equal(rd_model_run(f, &c, RD_ALL_CASES, NULL, &r3), RD_OK);
	assert_int_equal(r1.misses, r2.misses); /* the L1 unchanged */
	assert_int_equal(r2.l2.misses, r3.l2.misses);
	assert_int_equal(r2.l2.hits, r3.l2.hits);
	assert_int_equal(r2.l2.reservation_fails, r3.l2.reservation_fails);
	assert_int_equal(r2.l2.steps, r3.l2.steps);
	assert_int_equal(r2.l2.store_requests, r3.l2.store_requests);
	assert_true(r1.l2.requests == r2.l2.requests && r2.l2.requests > 0);
	assert_true(r2.l2.reservation_fails > 0 || r2.l2.merges > 0 || r2.l2.steps > 0);
	rd_result_free(&r1);
	rd_result_free(&r2);
	rd_result_free(&r3);
	rd_model_free(m);
	rd_model_free(f);
	rd_kernel_free(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table3),
		cmocka_unit_test(test_table3_latencies),
		cmocka_unit_test(test_algorithm3),
		cmocka_unit_test(test_adaptive_latency),
		cmocka_unit_test(test_geometry),
		cmocka_unit_test(test_l2_equals_lru),
		cmocka_unit_test(test_writebacks),
		cmocka_unit_test(test_banking_property),
		cmocka_unit_test(test_l2_edit_matches_fresh),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
