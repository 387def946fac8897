/* DRAM after the last cache level (seed 002, notes Part B, §C5.1 T6 and
 * §C5.2 D7-D8): the equations on the notes' worked values, the row-buffer
 * classification on crafted address sequences, and the stage in the model
 * (its input with and without an L2, write-backs, saturation, reuse). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "testutil.h"

static char e[256];

static void set(rd_config *c, const char *k, const char *v)
{
	if (rd_config_set(c, k, v, e, sizeof e) != 0)
		fail_msg("%s=%s: %s", k, v, e);
}

/* Eq. 8 (D8): ratios 0.5 / 0.3 / 0.2 at the K80's latencies. */
static void test_eq8_service(void **state)
{
	(void)state;
	assert_float_equal(rd_dram_service(0.5, 0.3, 0.2, 352, 742, 1008), 600.2, 1e-9);
	assert_float_equal(rd_dram_service(1, 0, 0, 352, 742, 1008), 352, 1e-12);
	assert_float_equal(rd_dram_service(0, 0, 1, 352, 742, 1008), 1008, 1e-12);
}

/* Eq. 7 (D8): lambda (3, 1), bank latencies (800, 400): 700. */
static void test_eq7_weighted(void **state)
{
	(void)state;
	const double lam[] = {3, 1}, lat[] = {800, 400};
	assert_float_equal(rd_dram_weighted(lam, lat, 2), 700, 1e-9);
	/* equal rates: the plain mean; no arrivals: 0 */
	const double one[] = {2, 2};
	assert_float_equal(rd_dram_weighted(one, lat, 2), 600, 1e-9);
	assert_float_equal(rd_dram_weighted(lam, lat, 0), 0, 0);
}

/* Eq. 5 (D8): DRAMlat 600, miss ratio 0.4, hit_lat 200, shared memory
 * 30 ns x 0.25: 447.5. */
static void test_eq5_amat(void **state)
{
	(void)state;
	assert_float_equal(rd_amat(600, 0.4, 200, 30, 0.25), 447.5, 1e-9);
	assert_float_equal(rd_amat(600, 0, 200, 0, 0), 200, 1e-12);
}

/* Kingman (D7): the standard form and the paper's printed Eq. 9. */
static void test_kingman(void **state)
{
	(void)state;
	/* ca = cs = 1 at rho 0.5: M/M/1's exact wait, rho / (1 - rho) * tau_s */
	assert_float_equal(rd_kingman(1, 1, 100, 200), 100, 1e-9);
	assert_float_equal(rd_kingman_printed(1, 1, 100, 200), 200, 1e-9);
	assert_float_equal(rd_kingman(2.22, 0.5, 400, 1000), 690.45, 0.005);
	assert_float_equal(rd_kingman_printed(2.22, 0.5, 400, 1000), 906.67, 0.005);
	/* deterministic arrivals and service: no wait */
	assert_float_equal(rd_kingman(0, 0, 400, 1000), 0, 0);
	/* rho >= 1: saturated, never a negative or infinite wait */
	assert_true(rd_kingman(1, 1, 200, 200) < 0);
	assert_true(rd_kingman(1, 1, 300, 200) < 0);
	assert_true(rd_kingman(1, 1, 100, 0) < 0);
	assert_true(rd_kingman_printed(1, 1, 300, 200) < 0);
}

/* T6: the K80's latencies are the defaults, "up to 110 %" apart. */
static void test_k80_ratios(void **state)
{
	(void)state;
	rd_config c;
	rd_config_default(&c);
	assert_int_equal(c.dram_enable, 0);
	assert_float_equal((c.dram_row_miss - c.dram_row_hit) / c.dram_row_hit, 1.108, 0.0005);
	assert_float_equal(c.dram_row_conflict / c.dram_row_hit, 2.86, 0.005);
}

/* The defaults with these masks (the row first: the defaults' row bits
 * would overlap the others). */
static void masks(rd_config *c, const char *col, const char *bank, const char *channel,
		  const char *row)
{
	rd_config_default(c);
	set(c, "dram.row_mask", row);
	set(c, "dram.col_mask", col);
	set(c, "dram.bank_mask", bank);
	set(c, "dram.channel_mask", channel);
	assert_int_equal(rd_config_check(c, e, sizeof e), 0);
}

/* A small mapping: column bits 0-3, bank 4-5, channel 6, row 8-11. */
static void small_map(rd_config *c)
{
	masks(c, "0xf", "0x30", "0x40", "0xf00");
}

static void test_mapping(void **state)
{
	(void)state;
	rd_config c;
	small_map(&c);
	assert_int_equal(rd_dram_banks(&c), 8);
	assert_int_equal(rd_dram_bank(&c, 0x000), 0);
	assert_int_equal(rd_dram_bank(&c, 0x030), 3);
	assert_int_equal(rd_dram_bank(&c, 0x040), 4); /* channel 1, bank 0 */
	assert_int_equal(rd_dram_bank(&c, 0x070), 7);
	assert_int_equal(rd_dram_bank(&c, 0xf3f), 3); /* row and column bits ignored */
	assert_int_equal(rd_dram_row(&c, 0xa3f), 0xa);
	/* scattered bits pack from the lowest */
	set(&c, "dram.bank_mask", "0x1010");
	set(&c, "dram.channel_mask", "0");
	set(&c, "dram.row_mask", "0");
	assert_int_equal(rd_dram_bank(&c, 0x1000), 2);
	assert_int_equal(rd_dram_bank(&c, 0x0010), 1);
	/* the K80 preset's masks are accepted: 14 bank bits */
	set(&c, "dram.row_mask", "0x3fff00");
	set(&c, "dram.col_mask", "0x1c0000000");
	set(&c, "dram.bank_mask", "0x23fc000f8");
	assert_int_equal(rd_config_check(&c, e, sizeof e), 0);
	assert_int_equal(rd_dram_banks(&c), 16384);
}

static void test_mask_checks(void **state)
{
	(void)state;
	rd_config c;
	small_map(&c);
	set(&c, "dram.bank_mask", "0x130"); /* bit 8 is a row bit */
	assert_int_equal(rd_config_check(&c, e, sizeof e), -1);
	assert_string_equal(e, "dram.bank_mask: shares bit 8 with dram.row_mask (the masks must "
			       "not overlap)");
	small_map(&c);
	set(&c, "dram.channel_mask", "0xffff0000");
	set(&c, "dram.row_mask", "0xf00");
	assert_int_equal(rd_config_check(&c, e, sizeof e), -1);
	assert_non_null(strstr(e, "dram.channel_mask: with dram.bank_mask, more than 16"));
	small_map(&c);
	set(&c, "dram.ns_per_step", "0");
	assert_int_equal(rd_config_check(&c, e, sizeof e), -1);
	assert_non_null(strstr(e, "dram.ns_per_step: must be a finite number > 0"));
	rd_config_default(&c);
	set(&c, "model", "reference-2013");
	set(&c, "dram.enable", "1");
	assert_int_equal(rd_config_check(&c, e, sizeof e), -1);
	assert_non_null(strstr(e, "dram.enable: the reference-2013 profile"));
}

/* Row hit: the row is open; miss: no row open; conflict: another row. */
static void test_row_classification(void **state)
{
	(void)state;
	rd_config c;
	small_map(&c);
	static const uint64_t a[] = {
		0x000,  /* bank 0, row 0: nothing open -> miss */
		0x001,  /* same row, another column -> hit */
		0x100,  /* bank 0, row 1 -> conflict */
		0x010,  /* bank 1, row 0: its first -> miss */
		0x10f,  /* bank 0, row 1 open -> hit */
		0x040,  /* channel 1's bank 0 is another bank -> miss */
		0x000,  /* bank 0, row 0 (row 1 open) -> conflict */
		0x1000, /* bit 12 is in no mask: bank 0, row 0 -> hit */
		0x050,  /* channel 1 bank 1 -> miss */
		0x150,  /* channel 1 bank 1 row 1 -> conflict */
	};
	static const enum rd_row want[] = {RD_ROW_MISS, RD_ROW_HIT, RD_ROW_CONFLICT, RD_ROW_MISS,
					   RD_ROW_HIT, RD_ROW_MISS, RD_ROW_CONFLICT, RD_ROW_HIT,
					   RD_ROW_MISS, RD_ROW_CONFLICT};
	enum rd_row got[10];
	assert_int_equal(rd_dram_classify(&c, a, NULL, 10, got), 0);
	for (int i = 0; i < 10; i++)
		if (got[i] != want[i])
			fail_msg("request %d (0x%llx): got %d, want %d", i, (unsigned long long)a[i],
				 got[i], want[i]);
	/* a row idle longer than dram.row_timeout is closed: a miss */
	set(&c, "dram.ns_per_step", "10");
	set(&c, "dram.row_timeout", "50");
	static const uint64_t b[] = {0x000, 0x000, 0x000, 0x100, 0x100};
	static const uint64_t t[] = {0, 3, 10, 15, 30};
	/* gaps 30 ns (hit), 70 ns (closed: miss), 50 ns (not more: conflict),
	 * 150 ns (closed: miss) */
	static const enum rd_row want2[] = {RD_ROW_MISS, RD_ROW_HIT, RD_ROW_MISS, RD_ROW_CONFLICT,
					    RD_ROW_MISS};
	assert_int_equal(rd_dram_classify(&c, b, t, 5, got), 0);
	for (int i = 0; i < 5; i++)
		if (got[i] != want2[i])
			fail_msg("timeout request %d: got %d, want %d", i, got[i], want2[i]);
}

/* The model with DRAM: one thread, one load per warp instruction, every
 * line new (compulsory misses), so what leaves the L1 is the sequence. */
static rd_kernel *seq_kernel(const uint64_t *a, uint32_t n)
{
	return tu_kernel_seq(a, n, 4);
}

static void run(rd_model *m, const rd_config *c, rd_result *r)
{
	int rc = rd_model_run(m, c, RD_ALL_CASES, NULL, r);
	if (rc != RD_OK)
		fail_msg("run: %s", rd_strerror(rc));
}

/* 128-byte lines under small_map's masks widened: column 0-7, bank 8-9,
 * row 12-15 (channel none). */
static void line_map(rd_config *c)
{
	masks(c, "0xff", "0x300", "0", "0xf000");
	set(c, "dram.enable", "1");
	set(c, "latency.stddev", "0");
}

static void test_stage_l1_stream(void **state)
{
	(void)state;
	/* lines: bank 0 row 0 (miss), bank 0 row 0 other line (hit), bank 0
	 * row 1 (conflict), bank 1 row 0 (miss), bank 0 row 1 (hit), bank 0
	 * row 0 (conflict) */
	static const uint64_t a[] = {0x0000, 0x0080, 0x1000, 0x0100, 0x1080, 0x0000};
	/* the last is line 0 again: an L1 hit, it never reaches DRAM; so
	 * DRAM sees 5 requests: miss, hit, conflict, miss, hit */
	rd_kernel *k = seq_kernel(a, 6);
	rd_model *m = rd_model_new(k);
	rd_config c;
	line_map(&c);
	rd_result r;
	run(m, &c, &r);
	assert_true(r.has_dram);
	assert_false(r.has_l2);
	assert_int_equal(r.dram.requests, r.misses - r.cls[RD_CLASS_LATENCY]);
	assert_int_equal(r.dram.requests, 5);
	assert_int_equal(r.dram.reads, 5);
	assert_int_equal(r.dram.writes, 0);
	assert_int_equal(r.dram.row_misses, 2);
	assert_int_equal(r.dram.row_hits, 2);
	assert_int_equal(r.dram.row_conflicts, 1);
	assert_int_equal(r.dram.banks, 4);
	assert_int_equal(r.dram.banks_used, 2);
	/* Eq. 5's miss ratio: the L1's (no L2) */
	assert_float_equal(r.dram.miss_ratio, r.miss_rate_all, 0);
	/* the L1's numbers are those of a run without DRAM */
	rd_result off;
	rd_config c0 = c;
	set(&c0, "dram.enable", "0");
	rd_model *m0 = rd_model_new(k);
	run(m0, &c0, &off);
	assert_false(off.has_dram);
	assert_int_equal(off.misses, r.misses);
	assert_int_equal(off.hits, r.hits);
	assert_int_equal(off.time_steps, r.time_steps);
	rd_result_free(&off);
	rd_model_free(m0);
	rd_result_free(&r);
	rd_model_free(m);
	rd_kernel_free(k);
}

/* Saturation: everything in a burst is rho >= 1, reported as such (NAN
 * delays, no negative or infinite number); slow arrivals are not. */
static void test_stage_saturation(void **state)
{
	(void)state;
	uint64_t a[64];
	for (int i = 0; i < 64; i++)
		a[i] = (uint64_t)i * 0x1000; /* bank 0, rows 0-15 in turn: conflicts */
	rd_kernel *k = seq_kernel(a, 64);
	rd_model *m = rd_model_new(k);
	rd_config c;
	line_map(&c);
	set(&c, "dram.ns_per_step", "0.001");
	rd_result r;
	run(m, &c, &r);
	assert_int_equal(r.dram.requests, 64);
	assert_int_equal(r.dram.row_misses, 1);
	assert_int_equal(r.dram.row_conflicts, 63);
	assert_int_equal(r.dram.saturated, 1);
	assert_true(r.dram.max_utilisation >= 1);
	assert_true(isnan(r.dram.queue_delay) && isnan(r.dram.latency) && isnan(r.dram.amat));
	assert_true(isfinite(r.dram.service_time) && r.dram.service_time > 0);
	rd_result_free(&r);
	/* a DRAM-only edit on the same model: the slow clock is not saturated */
	set(&c, "dram.ns_per_step", "1000000");
	run(m, &c, &r);
	assert_int_equal(r.dram.saturated, 0);
	assert_true(r.dram.max_utilisation < 1);
	assert_true(isfinite(r.dram.queue_delay) && r.dram.queue_delay >= 0);
	/* Eq. 8 of one bank: 1 miss and 63 conflicts */
	double ts = (742.0 + 63 * 1008.0) / 64;
	assert_float_equal(r.dram.service_time, ts, 1e-9);
	assert_float_equal(r.dram.latency, r.dram.queue_delay + ts, 1e-6);
	assert_float_equal(r.dram.amat, r.dram.latency * r.dram.miss_ratio + c.dram_cache_hit,
			   1e-6);
	rd_result_free(&r);
	rd_model_free(m);
	rd_kernel_free(k);
}

/* Deterministic arrivals and one service time: Kingman's wait is 0 and
 * the latency the service time. */
static void test_stage_deterministic(void **state)
{
	(void)state;
	uint64_t a[32];
	for (int i = 0; i < 32; i++)
		a[i] = (uint64_t)i * 0x80; /* 32 lines, all in bank 0, row 0 below */
	rd_kernel *k = seq_kernel(a, 32);
	rd_model *m = rd_model_new(k);
	rd_config c;
	line_map(&c);
	set(&c, "dram.bank_mask", "0x100000");
	set(&c, "dram.row_mask", "0xf000000");
	set(&c, "dram.col_mask", "0xfffff");
	set(&c, "dram.row_miss", "352"); /* one service time */
	set(&c, "dram.ns_per_step", "1000");
	set(&c, "gpu.divergence", "1");
	rd_result r;
	run(m, &c, &r);
	assert_int_equal(r.dram.requests, 32);
	assert_int_equal(r.dram.row_hits, 31);
	assert_int_equal(r.dram.banks_used, 1);
	assert_int_equal(r.dram.saturated, 0);
	/* one thread: a request every latency.miss steps, evenly */
	assert_float_equal(r.dram.queue_delay, 0, 1e-9);
	assert_float_equal(r.dram.latency, 352, 1e-9);
	rd_result_free(&r);
	rd_model_free(m);
	rd_kernel_free(k);
}

/* Behind an L2: its read misses, its stores (evict) or its write-backs
 * (allocate) reach DRAM; a DRAM-only edit gives what a fresh model gives. */
static void test_stage_after_l2(void **state)
{
	(void)state;
	/* 32 threads, each loading 8 lines then storing them, in 1 block */
	rd_kernel_builder *b = rd_kernel_builder_new("ls", 32, 1, 1);
	for (uint32_t t = 0; t < 32; t++) {
		for (uint32_t i = 0; i < 8; i++)
			rd_kernel_builder_add(b, t, 0, (uint64_t)(t * 8 + i) * 4096, 4);
		for (uint32_t i = 0; i < 8; i++)
			rd_kernel_builder_add(b, t, 1, (uint64_t)(t * 8 + i) * 4096 + 4, 4);
	}
	rd_kernel *k = rd_kernel_builder_finish(b);
	rd_model *m = rd_model_new(k);
	rd_config c;
	rd_config_default(&c);
	set(&c, "dram.enable", "1");
	set(&c, "l2.size", "16K");
	set(&c, "l2.ways", "2");
	set(&c, "l1.stores", "evict");
	set(&c, "l2.stores", "evict");
	rd_result r;
	run(m, &c, &r);
	assert_true(r.has_l2);
	/* evict: every store the L2 sees goes on to DRAM */
	assert_int_equal(r.dram.writes, r.l2.store_requests);
	assert_true(r.dram.writes > 0);
	assert_int_equal(r.dram.reads, r.l2.misses - r.l2.cls[RD_CLASS_LATENCY]);
	assert_float_equal(r.dram.miss_ratio, r.l2.miss_rate, 0);
	rd_result_free(&r);
	/* allocate: a small L2 evicts written lines, written back */
	set(&c, "l2.stores", "allocate");
	run(m, &c, &r);
	assert_true(r.dram.writes > 0);
	assert_true(r.dram.writes <= r.l2.store_requests);
	uint64_t wb = r.dram.writes;
	rd_result_free(&r);
	/* ignore: no writes */
	set(&c, "l2.stores", "ignore");
	run(m, &c, &r);
	assert_int_equal(r.dram.writes, 0);
	rd_result_free(&r);
	/* a DRAM-only edit on the kept model equals a fresh model's run */
	set(&c, "l2.stores", "allocate");
	set(&c, "dram.row_hit", "100");
	set(&c, "dram.ns_per_step", "1000");
	run(m, &c, &r);
	assert_int_equal(r.dram.writes, wb);
	rd_model *fresh = rd_model_new(k);
	rd_result f;
	run(fresh, &c, &f);
	assert_memory_equal(&r.dram, &f.dram, sizeof r.dram);
	assert_int_equal(r.l2.misses, f.l2.misses);
	rd_result_free(&f);
	rd_model_free(fresh);
	rd_result_free(&r);
	rd_model_free(m);
	rd_kernel_free(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eq8_service),
		cmocka_unit_test(test_eq7_weighted),
		cmocka_unit_test(test_eq5_amat),
		cmocka_unit_test(test_kingman),
		cmocka_unit_test(test_k80_ratios),
		cmocka_unit_test(test_mapping),
		cmocka_unit_test(test_mask_checks),
		cmocka_unit_test(test_row_classification),
		cmocka_unit_test(test_stage_l1_stream),
		cmocka_unit_test(test_stage_saturation),
		cmocka_unit_test(test_stage_deterministic),
		cmocka_unit_test(test_stage_after_l2),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
