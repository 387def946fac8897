/*
 * Sectored L1s (l1.sector): lines tagged whole, filled by sector; sector
 * lookups and hits counted for loads as Nsight Compute counts them. Each
 * test is a crafted kernel whose sector arithmetic is known by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "internal.h"
#include "testutil.h"

/* The toy cache (no latency, unlimited MSHRs, fully associative) of
 * lines lines of 128 bytes in 32-byte sectors, warps of warp threads. */
static void sect_config(rd_config *c, uint32_t lines, uint32_t warp)
{
	tu_toy_config(c, 128, lines);
	c->warp_size = warp;
	c->l1_sector = 32;
	char err[256];
	if (rd_config_check(c, err, sizeof err))
		fail_msg("%s", err);
}

static void run_all(const rd_kernel *k, const rd_config *c, rd_result *r)
{
	rd_model *m = rd_model_new(k);
	assert_non_null(m);
	assert_int_equal(rd_model_run(m, c, RD_ALL_CASES, NULL, r), RD_OK);
	rd_model_free(m);
}

/* A warp's 4-byte loads over one 128-byte line, twice: one request of 4
 * sectors, all 4 missing; then the same 4 all hit. */
static void test_sector_warp_line(void **state)
{
	(void)state;
	rd_kernel_builder *b = rd_kernel_builder_new("warp", 32, 1, 1);
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t t = 0; t < 32; t++)
			rd_kernel_builder_add(b, t, 0, 0x1000 + t * 4, 4);
	rd_kernel *k = rd_kernel_builder_finish(b);
	rd_config c;
	sect_config(&c, 4, 32);
	rd_result r;
	run_all(k, &c, &r);
	assert_int_equal(r.requests, 2);
	assert_int_equal(r.misses, 1);
	assert_int_equal(r.sector_lookups, 8);
	assert_int_equal(r.sector_hits, 4);
	rd_result_free(&r);
	/* without sectors nothing is counted */
	c.l1_sector = 0;
	run_all(k, &c, &r);
	assert_int_equal(r.sector_lookups, 0);
	assert_int_equal(r.sector_hits, 0);
	assert_int_equal(r.misses, 1);
	rd_result_free(&r);
	rd_kernel_free(k);
}

/* One thread's 4-byte loads over one line, in order, and the toy cache of
 * 4 lines, into c. */
static rd_kernel *walk_kernel(rd_config *c)
{
	uint64_t seq[32];
	for (int i = 0; i < 32; i++)
		seq[i] = 0x2000 + (uint64_t)i * 4;
	sect_config(c, 4, 1);
	return tu_kernel_seq(seq, 32, 4);
}

/* One thread walks a line 4 bytes at a time (Figure 3's pattern): a line
 * miss, then every 8th load a sector miss of a present line; 32 loads,
 * 4 sector misses: 87.5 %, where whole lines give 31 of 32 (96.9 %). The
 * three of a present line are their own class (issue 37 item 1): misses
 * in the counts, hits to the line (the histogram's distance 0). */
static void test_sector_walk(void **state)
{
	(void)state;
	rd_config c;
	rd_kernel *k = walk_kernel(&c);
	rd_result r;
	run_all(k, &c, &r);
	assert_int_equal(r.requests, 32);
	assert_int_equal(r.misses, 4);
	assert_int_equal(r.hits, 28);
	assert_int_equal(r.cls[RD_CLASS_COMPULSORY], 1);
	assert_int_equal(r.cls[RD_CLASS_SECTOR], 3);
	assert_int_equal(r.cls[RD_CLASS_CAPACITY] + r.cls[RD_CLASS_ASSOCIATIVITY] +
				 r.cls[RD_CLASS_LATENCY] + r.cls[RD_CLASS_MSHR],
			 0);
	assert_int_equal(r.sector_lookups, 32);
	assert_int_equal(r.sector_hits, 28);
	assert_int_equal(r.hist_inf, 1);
	assert_int_equal(r.hist_len > 0 ? r.hist[0] : 0, 31);
	rd_result_free(&r);
	/* per access alike, and without sectors a line's one miss */
	c.classes = RD_CLASSES_PER_ACCESS;
	run_all(k, &c, &r);
	assert_int_equal(r.misses, 4);
	assert_int_equal(r.cls[RD_CLASS_SECTOR], 3);
	rd_result_free(&r);
	c.l1_sector = 0;
	run_all(k, &c, &r);
	assert_int_equal(r.misses, 1);
	assert_int_equal(r.cls[RD_CLASS_SECTOR], 0);
	rd_result_free(&r);
	rd_kernel_free(k);
}

/* Per site (--by site): the walk's loads are 32 sites (one per load
 * number); the sector misses are the loads at 8, 16 and 24, each its
 * site's one miss, and the sites add up to the kernel. */
static void test_sector_sites(void **state)
{
	(void)state;
	rd_config c;
	rd_kernel *k = walk_kernel(&c);
	rd_model *m = rd_model_new(k);
	assert_non_null(m);
	rd_callbacks cb = {.by_site = 1};
	rd_result r;
	assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, &cb, &r), RD_OK);
	assert_int_equal(r.nsites, 32);
	uint64_t sect = 0, hits = 0, misses = 0;
	for (uint32_t s = 0; s < r.nsites; s++) {
		const rd_site_result *q = &r.sites[s];
		int want = s == 8 || s == 16 || s == 24;
		assert_int_equal(q->cls[RD_CLASS_SECTOR], want);
		assert_int_equal(q->hits + q->misses, q->requests);
		if (want)
			assert_int_equal(rd_site_main_class(q), RD_CLASS_SECTOR);
		sect += q->cls[RD_CLASS_SECTOR];
		hits += q->hits;
		misses += q->misses;
	}
	assert_int_equal(sect, r.cls[RD_CLASS_SECTOR]);
	assert_int_equal(hits, r.hits);
	assert_int_equal(misses, r.misses);
	rd_result_free(&r);
	rd_model_free(m);
	rd_kernel_free(k);
}

/* The events say each request's sectors (the step view draws them): the
 * walk's load 0 asks sector 0 of a missing line, load 8 sector 1 of a line
 * holding sector 0 (a sector miss: outcome hit, class sector), load 9 the
 * same sector again (a hit). */
typedef struct sect_ev {
	uint32_t ask[32], had[32];
	int cls[32], outcome[32];
	int n;
} sect_ev;

static void on_event(void *ctx, const rd_event *ev)
{
	sect_ev *s = ctx;
	if (ev->outcome == RD_OUT_CANCEL || s->n >= 32)
		return;
	s->ask[s->n] = ev->sect_ask;
	s->had[s->n] = ev->sect_had;
	s->cls[s->n] = ev->cls;
	s->outcome[s->n++] = (int)ev->outcome;
}

static void test_sector_events(void **state)
{
	(void)state;
	rd_config c;
	rd_kernel *k = walk_kernel(&c);
	rd_model *m = rd_model_new(k);
	assert_non_null(m);
	sect_ev s = {0};
	rd_callbacks cb = {.event = on_event, .ctx = &s};
	rd_result r;
	assert_int_equal(rd_model_run(m, &c, 1 << RD_CASE_FULL, &cb, &r), RD_OK);
	assert_int_equal(s.n, 32);
	assert_int_equal(s.ask[0], 1);
	assert_int_equal(s.had[0], 0);
	assert_int_equal(s.cls[0], RD_CLASS_COMPULSORY);
	assert_int_equal(s.ask[8], 2);
	assert_int_equal(s.had[8], 1);
	assert_int_equal(s.outcome[8], RD_OUT_HIT);
	assert_int_equal(s.cls[8], RD_CLASS_SECTOR);
	assert_int_equal(s.ask[9], 2);
	assert_int_equal(s.had[9], 3);
	assert_int_equal(s.cls[9], -1);
	assert_int_equal(s.had[31], 15);
	rd_result_free(&r);
	/* without sectors, none */
	c.l1_sector = 0;
	s.n = 0;
	assert_int_equal(rd_model_run(m, &c, 1 << RD_CASE_FULL, &cb, &r), RD_OK);
	assert_int_equal(s.ask[8] | s.had[8] | s.had[31], 0);
	rd_result_free(&r);
	rd_model_free(m);
	rd_kernel_free(k);
}

/* A store then a load of the same sector: under l1.stores=allocate the
 * store brings its sector (the load hits); ignored, it does not. */
static void test_sector_store_then_load(void **state)
{
	(void)state;
	rd_kernel_builder *b = rd_kernel_builder_new("st", 1, 1, 1);
	rd_kernel_builder_add(b, 0, 1, 0x3004, 4); /* store, sector 0 */
	rd_kernel_builder_add(b, 0, 0, 0x3000, 4); /* load, sector 0 */
	rd_kernel_builder_add(b, 0, 0, 0x3020, 4); /* load, sector 1 */
	rd_kernel *k = rd_kernel_builder_finish(b);
	rd_config c;
	sect_config(&c, 4, 1);
	c.stores = RD_STORES_ALLOCATE;
	rd_result r;
	run_all(k, &c, &r);
	assert_int_equal(r.sector_lookups, 2); /* loads only */
	assert_int_equal(r.sector_hits, 1);
	assert_int_equal(r.store_requests, 1);
	/* the load of sector 1: its line there (the store's), its sector not */
	assert_int_equal(r.hits, 1);
	assert_int_equal(r.cls[RD_CLASS_SECTOR], 1);
	rd_result_free(&r);
	c.stores = RD_STORES_IGNORE;
	run_all(k, &c, &r);
	assert_int_equal(r.sector_lookups, 2);
	assert_int_equal(r.sector_hits, 0);
	assert_int_equal(r.cls[RD_CLASS_COMPULSORY], 1);
	assert_int_equal(r.cls[RD_CLASS_SECTOR], 1);
	rd_result_free(&r);
	rd_kernel_free(k);
}

/* A line that leaves the cache loses its sectors: in a one-line cache,
 * A's sector 0, then B (A leaves), then A's sector 1 (a line miss: only
 * sector 1 comes), then A's sector 0 (a sector miss of a present line),
 * then A's sector 1 (a hit). */
static void test_sector_eviction(void **state)
{
	(void)state;
	const uint64_t seq[] = {0x0, 0x400, 0x20, 0x4, 0x24};
	rd_kernel *k = tu_kernel_seq(seq, 5, 4);
	rd_config c;
	sect_config(&c, 1, 1);
	rd_result r;
	run_all(k, &c, &r);
	assert_int_equal(r.misses, 4); /* A, B, A again; A's sector 0 */
	assert_int_equal(r.cls[RD_CLASS_SECTOR], 1);
	assert_int_equal(r.hits, 1);
	assert_int_equal(r.sector_lookups, 5);
	assert_int_equal(r.sector_hits, 1);
	rd_result_free(&r);
	rd_kernel_free(k);
}

/* The key's checks: a power of two dividing the line into at most 8
 * sectors, under model=paper only. */
static void test_sector_checks(void **state)
{
	(void)state;
	rd_config c;
	char err[256];
	rd_config_default(&c);
	const char *bad[] = {"24", "256", "8"}; /* not a power of two; above the line; 16 sectors */
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(rd_config_set(&c, "l1.sector", bad[i], err, sizeof err), 0);
		assert_int_equal(rd_config_check(&c, err, sizeof err), -1);
		assert_non_null(strstr(err, "l1.sector: must be 0 or a power of two dividing l1.line"));
	}
	assert_int_equal(rd_config_set(&c, "l1.sector", "32", err, sizeof err), 0);
	assert_int_equal(rd_config_check(&c, err, sizeof err), 0);
	assert_int_equal(rd_config_set(&c, "model", "rdgc", err, sizeof err), 0);
	assert_int_equal(rd_config_check(&c, err, sizeof err), -1);
	assert_non_null(strstr(err, "model=paper only"));
}

/* An L2 of 64 lines (128 bytes, 32-byte sectors with l2.sector) behind
 * the toy L1. */
static void l2_config(rd_config *c, uint32_t l1_lines, uint32_t warp, uint32_t l1_sector)
{
	sect_config(c, l1_lines, warp);
	c->l1_sector = l1_sector;
	c->l2_size = 64 * 128;
	c->l2_line = 128;
	c->l2_ways = 8;
	c->l2_sector = 32;
	char err[256];
	if (rd_config_check(c, err, sizeof err))
		fail_msg("%s", err);
}

/* l2.sector: a warp asks for sector 0 of a line (an L1 miss: the L2 is
 * asked for that sector), then for the whole line (an L1 hit lacking
 * sectors 1-3: the L2 is asked for those three, its line present but
 * they are not). The L2: 2 requests, 4 sector lookups, 0 hits. Without
 * l1.sector every request is a whole line's: one request, 4 lookups. */
static void test_l2_sector_asks(void **state)
{
	(void)state;
	rd_kernel_builder *b = rd_kernel_builder_new("warp", 32, 1, 1);
	for (uint32_t t = 0; t < 32; t++)
		rd_kernel_builder_add(b, t, 0, 0x1000 + (t % 8) * 4, 4);
	for (uint32_t t = 0; t < 32; t++)
		rd_kernel_builder_add(b, t, 0, 0x1000 + t * 4, 4);
	rd_kernel *k = rd_kernel_builder_finish(b);
	rd_config c;
	l2_config(&c, 4, 32, 32);
	rd_result r;
	run_all(k, &c, &r);
	assert_int_equal(r.sector_lookups, 5); /* the L1: 1 + 4, one hit */
	assert_int_equal(r.sector_hits, 1);
	assert_true(r.has_l2);
	assert_int_equal(r.l2.requests, 2);
	assert_int_equal(r.l2.sector_lookups, 4);
	assert_int_equal(r.l2.sector_hits, 0);
	assert_true(rd_level_hit_rate(&r.l2) == 0.0);
	rd_result_free(&r);
	c.l1_sector = 0;
	run_all(k, &c, &r);
	assert_int_equal(r.l2.requests, 1);
	assert_int_equal(r.l2.sector_lookups, 4);
	assert_int_equal(r.l2.sector_hits, 0);
	rd_result_free(&r);
	/* without l2.sector the L2 counts no sectors and sees what it saw */
	c.l1_sector = 32;
	c.l2_sector = 0;
	run_all(k, &c, &r);
	assert_int_equal(r.l2.requests, 1);
	assert_int_equal(r.l2.sector_lookups, 0);
	assert_int_equal(r.l2.sector_hits, 0);
	rd_result_free(&r);
	rd_kernel_free(k);
}

/* The L2 keeps what the L1 lost: in a one-line L1, A whole (4 L2 sector
 * misses), B whole (4 more; A leaves the L1), then A's sector 0 (an L1
 * miss asking the L2 for one sector, which it has): 9 lookups, 1 hit. */
static void test_l2_sector_keeps(void **state)
{
	(void)state;
	rd_kernel_builder *b = rd_kernel_builder_new("warp", 32, 1, 1);
	const uint64_t base[] = {0x0, 0x400};
	for (int i = 0; i < 2; i++)
		for (uint32_t t = 0; t < 32; t++)
			rd_kernel_builder_add(b, t, 0, base[i] + t * 4, 4);
	for (uint32_t t = 0; t < 32; t++)
		rd_kernel_builder_add(b, t, 0, 0x4, 4);
	rd_kernel *k = rd_kernel_builder_finish(b);
	rd_config c;
	l2_config(&c, 1, 32, 32);
	rd_result r;
	run_all(k, &c, &r);
	assert_int_equal(r.l2.requests, 3);
	assert_int_equal(r.l2.sector_lookups, 9);
	assert_int_equal(r.l2.sector_hits, 1);
	assert_true(rd_level_hit_rate(&r.l2) == 1.0 / 9.0);
	rd_result_free(&r);
	rd_kernel_free(k);
}

/* l2.fetch: one thread walks 128 bytes 4 at a time, each sector reaching
 * the L2 on its own (an L1 miss, then three sector misses of the present
 * line). With 32-byte fetches all 4 miss; with 64-byte ones the second of
 * each pair came with the first (2 of 4 hit); with 128, 3 of 4. */
static void test_l2_fetch(void **state)
{
	(void)state;
	uint64_t seq[32];
	for (int i = 0; i < 32; i++)
		seq[i] = 0x5000 + (uint64_t)i * 4;
	rd_kernel *k = tu_kernel_seq(seq, 32, 4);
	rd_config c;
	l2_config(&c, 4, 1, 32);
	const uint32_t fetch[] = {0, 32, 64, 128}, hits[] = {0, 0, 2, 3};
	for (int i = 0; i < 4; i++) {
		c.l2_fetch = fetch[i];
		rd_result r;
		run_all(k, &c, &r);
		assert_int_equal(r.l2.requests, 4);
		assert_int_equal(r.l2.sector_lookups, 4);
		assert_int_equal(r.l2.sector_hits, hits[i]);
		rd_result_free(&r);
	}
	rd_kernel_free(k);
}

/* An L1 line of two L2 lines: a request asks only the L2 lines holding
 * its sectors (one thread, one 4-byte load in the second half, then one
 * in the first). A whole-line L1 request (no l1.sector) asks both. */
static void test_l2_sector_halves(void **state)
{
	(void)state;
	const uint64_t seq[] = {0x6090, 0x6010};
	rd_kernel *k = tu_kernel_seq(seq, 2, 4);
	rd_config c;
	tu_toy_config(&c, 256, 4);
	c.l1_sector = 32;
	c.l2_size = 64 * 128;
	c.l2_line = 128;
	c.l2_ways = 8;
	c.l2_sector = 32;
	char err[256];
	if (rd_config_check(&c, err, sizeof err))
		fail_msg("%s", err);
	rd_result r;
	run_all(k, &c, &r);
	assert_int_equal(r.l2.requests, 2); /* the line's miss, then the sector miss */
	assert_int_equal(r.l2.sector_lookups, 2);
	assert_int_equal(r.l2.hits + r.l2.misses, 2);
	assert_int_equal(r.l2.sector_bytes, 32);
	rd_result_free(&r);
	c.l1_sector = 0; /* one request of the L1 line: both L2 lines, 4 sectors each */
	run_all(k, &c, &r);
	assert_int_equal(r.l2.requests, 2);
	assert_int_equal(r.l2.sector_lookups, 8);
	rd_result_free(&r);
	rd_kernel_free(k);
}

/* l2.sector's checks, as l1.sector's over l2.line. */
static void test_l2_sector_checks(void **state)
{
	(void)state;
	rd_config c;
	char err[256];
	rd_config_default(&c);
	assert_int_equal(rd_config_set(&c, "l2.size", "65536", err, sizeof err), 0);
	const char *bad[] = {"24", "256", "8"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(rd_config_set(&c, "l2.sector", bad[i], err, sizeof err), 0);
		assert_int_equal(rd_config_check(&c, err, sizeof err), -1);
		assert_non_null(strstr(err, "l2.sector: must be 0 or a power of two dividing l2.line"));
	}
	assert_int_equal(rd_config_set(&c, "l2.sector", "32", err, sizeof err), 0);
	assert_int_equal(rd_config_check(&c, err, sizeof err), 0);
	/* l2.fetch: a power of two from the sector to the line */
	const char *badf[] = {"16", "48", "256"};
	for (size_t i = 0; i < sizeof badf / sizeof badf[0]; i++) {
		assert_int_equal(rd_config_set(&c, "l2.fetch", badf[i], err, sizeof err), 0);
		assert_int_equal(rd_config_check(&c, err, sizeof err), -1);
		assert_non_null(strstr(err, "l2.fetch: must be 0 or a power of two from l2.sector (32)"));
	}
	assert_int_equal(rd_config_set(&c, "l2.fetch", "64", err, sizeof err), 0);
	assert_int_equal(rd_config_check(&c, err, sizeof err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sector_warp_line),
		cmocka_unit_test(test_sector_walk),
		cmocka_unit_test(test_sector_sites),
		cmocka_unit_test(test_sector_events),
		cmocka_unit_test(test_sector_store_then_load),
		cmocka_unit_test(test_sector_eviction),
		cmocka_unit_test(test_sector_checks),
		cmocka_unit_test(test_l2_sector_asks),
		cmocka_unit_test(test_l2_sector_keeps),
		cmocka_unit_test(test_l2_sector_checks),
		cmocka_unit_test(test_l2_fetch),
		cmocka_unit_test(test_l2_sector_halves),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
