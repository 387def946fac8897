/*
 * Unit and property tests of the model library: set-index functions bit by
 * bit, scheduling, coalescing, the reuse-distance engine against a naive
 * stack, the whole model against an independent set-associative LRU cache,
 * timing-model properties, determinism, cancellation and the key table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <pthread.h>

#include "internal.h"
#include "stack_ops.h"
#include "testutil.h"

/* ------------------------------------------------------------ hashing */

static uint32_t set_of(const char *hash, enum rd_profile prof, uint32_t line, uint32_t sets,
		       uint64_t byte)
{
	rd_config c;
	char e[128];
	rd_config_default(&c);
	c.model = prof;
	c.l1_line = line;
	assert_int_equal(rd_config_set(&c, "l1.hash", hash, e, sizeof e), 0);
	return rd_set_index(&c, sets, byte / line);
}

static void test_hash_fermi(void **state)
{
	(void)state;
	/* byte address -> set with 32 sets (16 KB) and 64 sets (48 KB) */
	static const struct { uint64_t a; uint32_t s32, s64; } ex[] = {
		{0x0, 0, 0},          {0x80, 1, 1},        {0xF80, 31, 31}, {0x1000, 0, 32},
		{0x2000, 1, 1},       {0x4000, 2, 2},      {0x8000, 4, 4},  {0x10000, 0, 0},
		{0x20000, 8, 8},      {0x80000, 16, 16},   {0x2080, 0, 0},  {0x12345680, 15, 47},
	};
	for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++)
		for (int prof = 0; prof < 2; prof++) {
			assert_int_equal(set_of("fermi", prof, 128, 32, ex[i].a), ex[i].s32);
			assert_int_equal(set_of("fermi", prof, 128, 64, ex[i].a), ex[i].s64);
		}
	/* bits 7-11 XOR 13,14,15,17,19, each input bit on its own */
	assert_int_equal(set_of("fermi", 0, 128, 32, 1u << 13), 1);
	assert_int_equal(set_of("fermi", 0, 128, 32, 1u << 14), 2);
	assert_int_equal(set_of("fermi", 0, 128, 32, 1u << 15), 4);
	assert_int_equal(set_of("fermi", 0, 128, 32, 1u << 17), 8);
	assert_int_equal(set_of("fermi", 0, 128, 32, 1u << 19), 16);
	assert_int_equal(set_of("fermi", 0, 128, 32, 1u << 16), 0);
	assert_int_equal(set_of("fermi", 0, 128, 32, 1u << 18), 0);
	assert_int_equal(set_of("fermi", 0, 128, 64, 1u << 12), 32);
	/* paper profile: byte bits, whatever the line size; the reference
	 * uses line bits, so with 64-byte lines they differ */
	assert_int_equal(set_of("fermi", RD_PROFILE_PAPER, 64, 64, 1u << 13), 1);
	assert_int_equal(set_of("fermi", RD_PROFILE_REF2013, 64, 64, 1u << 12), 1);
	/* reference formula mod 16: l[3:0] ^ (l6 | l7<<1 | l8<<2 | l10<<3) */
	assert_int_equal(set_of("fermi", RD_PROFILE_REF2013, 128, 16, 0x2080), 0);
	assert_int_equal(set_of("fermi", RD_PROFILE_REF2013, 128, 16, (1u << 10) * 128), 8);
	assert_int_equal(set_of("fermi", RD_PROFILE_REF2013, 128, 16, 5 * 128), 5);
}

static void test_hash_others(void **state)
{
	(void)state;
	uint64_t l = 389; /* 0b1_1000_0101 */
	assert_int_equal(set_of("mod", 0, 128, 32, l * 128), 389 % 32);
	assert_int_equal(set_of("mod", 0, 128, 24, l * 128), 389 % 24);
	assert_int_equal(set_of("xor", 0, 128, 32, l * 128), 5 ^ 12);
	assert_int_equal(set_of("xor", 0, 128, 8, l * 128), (389 & 7) ^ ((389 >> 3) & 7));
	assert_int_equal(set_of("smod:2", 0, 128, 32, l * 128), (389 >> 2) % 32);
	assert_int_equal(set_of("smod:0", 0, 128, 32, l * 128), 389 % 32);
	assert_int_equal(set_of("prime", 0, 128, 32, l * 128), 389 % 31);
	assert_int_equal(set_of("prime", 0, 128, 64, l * 128), 389 % 61);
	assert_int_equal(set_of("prime", 0, 128, 24, l * 128), 389 % 23);
	assert_int_equal(set_of("mod", 0, 128, 1, l * 128), 0);
}

/* ------------------------------------------------------------ config */

static void test_config_keys(void **state)
{
	(void)state;
	rd_config c, d;
	char e[160], v[64];
	rd_config_default(&c);
	assert_int_equal(rd_config_check(&c, e, sizeof e), 0);
	assert_int_equal(rd_config_sets(&c), 32);
	/* every key round-trips through get and set */
	for (const rd_key *k = rd_keys; k->name; k++) {
		assert_int_equal(rd_config_get(&c, k->name, v, sizeof v), 0);
		d = c;
		assert_int_equal(rd_config_set(&d, k->name, v, e, sizeof e), 0);
		assert_memory_equal(&c, &d, sizeof c);
	}
	assert_int_equal(rd_config_set(&c, "l1.ways", "0", e, sizeof e), -1);
	assert_string_equal(e, "l1.ways: must be >= 1 (got 0)");
	assert_int_equal(rd_config_set(&c, "l1.line", "96", e, sizeof e), -1);
	assert_string_equal(e, "l1.line: must be a power of two (got 96)");
	assert_int_equal(rd_config_set(&c, "l1.wayz", "4", e, sizeof e), -1);
	assert_int_equal(rd_config_set(&c, "l1.size", "48K", e, sizeof e), 0);
	assert_int_equal(c.l1_size, 49152);
	assert_int_equal(rd_config_set(&c, "l1.size", "-1", e, sizeof e), -1);
	assert_int_equal(rd_config_set(&c, "l1.size", "99999999999", e, sizeof e), -1);
	assert_int_equal(rd_config_set(&c, "l1.hash", "smod:99", e, sizeof e), -1);
	/* whole-config checks */
	rd_config_default(&c);
	c.l1_ways = 8; /* 16 sets: no Fermi hash in the paper profile */
	assert_int_equal(rd_config_check(&c, e, sizeof e), -1);
	assert_non_null(strstr(e, "l1.hash"));
	c.model = RD_PROFILE_REF2013;
	assert_int_equal(rd_config_check(&c, e, sizeof e), 0);
	rd_config_default(&c);
	c.l1_size = 16000;
	assert_int_equal(rd_config_check(&c, e, sizeof e), -1);
	assert_non_null(strstr(e, "l1.size"));
	rd_config_default(&c);
	c.l1_mshr_per_warp = 65;
	assert_int_equal(rd_config_check(&c, e, sizeof e), -1);
	rd_config_default(&c);
	c.l1_ways = 3; /* associativity need not be a power of two */
	c.l1_size = 3 * 128 * 32;
	assert_int_equal(rd_config_check(&c, e, sizeof e), 0);
	/* latencies: at most RD_MAX_LATENCY steps, the half-normal's tail in */
	rd_config_default(&c);
	c.latency_stddev = 0;
	c.latency_miss = RD_MAX_LATENCY;
	assert_int_equal(rd_config_check(&c, e, sizeof e), 0);
	c.latency_stddev = 1;
	assert_int_equal(rd_config_check(&c, e, sizeof e), -1);
	assert_non_null(strstr(e, "latency.miss"));
	rd_config_default(&c);
	c.latency_hit = RD_MAX_LATENCY + 1;
	assert_int_equal(rd_config_check(&c, e, sizeof e), -1);
	assert_non_null(strstr(e, "latency.hit"));
}

/* ------------------------------------------------------------ schedule */

static rd_kernel *flat_kernel(uint32_t nthreads, uint32_t bs, uint32_t loads)
{
	rd_kernel_builder *b = rd_kernel_builder_new("flat", bs, 1, 1);
	for (uint32_t t = 0; t < nthreads; t++)
		for (uint32_t i = 0; i < loads; i++)
			rd_kernel_builder_add(b, t, 0, ((uint64_t)t * loads + i) * 4, 4);
	return rd_kernel_builder_finish(b);
}

static void test_schedule(void **state)
{
	(void)state;
	rd_kernel *k = flat_kernel(10, 4, 1);
	rd_config c;
	rd_sched s;
	rd_config_default(&c);
	c.warp_size = 2;
	c.cores = 2;
	assert_int_equal(sched_build(&s, k, &c), RD_OK);
	assert_int_equal(s.nblocks, 3);
	assert_int_equal(s.warps_per_block, 2);
	uint32_t t0[] = {0, 2, 4, 6, 8, 0}, nt[] = {2, 2, 2, 2, 2, 0};
	for (int w = 0; w < 6; w++) {
		assert_int_equal(s.warp_nt[w], nt[w]);
		if (nt[w])
			assert_int_equal(s.warp_t0[w], t0[w]);
	}
	/* round-robin: core 0 gets blocks 0, 2; core 1 gets block 1 */
	assert_int_equal(s.core_first[1] - s.core_first[0], 2);
	assert_int_equal(s.core_blocks[0], 0);
	assert_int_equal(s.core_blocks[1], 2);
	assert_int_equal(s.core_blocks[2], 1);
	sched_free(&s);
	rd_kernel_free(k);

	/* bpart4: 12 blocks, 2 cores: 0-3 -> 0, 4-7 -> 1, 8-11 -> 0 */
	k = flat_kernel(12, 1, 1);
	c.warp_size = 32;
	c.block_mapping = RD_MAP_BPART4;
	assert_int_equal(sched_build(&s, k, &c), RD_OK);
	uint32_t want0[] = {0, 1, 2, 3, 8, 9, 10, 11}, want1[] = {4, 5, 6, 7};
	assert_int_equal(s.core_first[1], 8);
	assert_memory_equal(s.core_blocks, want0, sizeof want0);
	assert_memory_equal(s.core_blocks + 8, want1, sizeof want1);
	sched_free(&s);
	c.block_mapping = RD_MAP_BPART8;
	assert_int_equal(sched_build(&s, k, &c), RD_OK);
	assert_int_equal(s.core_first[1], 8);
	assert_int_equal(s.core_blocks[8], 8);
	sched_free(&s);

	/* random: each block once, balanced, reproducible, seed-dependent */
	c.block_mapping = RD_MAP_RANDOM;
	c.cores = 3;
	rd_sched s2;
	assert_int_equal(sched_build(&s, k, &c), RD_OK);
	assert_int_equal(sched_build(&s2, k, &c), RD_OK);
	assert_memory_equal(s.core_blocks, s2.core_blocks, 12 * sizeof(uint32_t));
	uint32_t seen[12] = {0};
	for (int i = 0; i < 12; i++)
		seen[s.core_blocks[i]]++;
	for (int i = 0; i < 12; i++)
		assert_int_equal(seen[i], 1);
	for (int i = 0; i < 3; i++)
		assert_int_equal(s.core_first[i + 1] - s.core_first[i], 4);
	sched_free(&s2);
	c.seed = 2;
	assert_int_equal(sched_build(&s2, k, &c), RD_OK);
	assert_true(memcmp(s.core_blocks, s2.core_blocks, 12 * sizeof(uint32_t)) != 0);
	sched_free(&s);
	sched_free(&s2);
	rd_kernel_free(k);

	/* active blocks: Fermi's 1536 threads / 8 blocks */
	static const uint32_t bs[] = {64, 256, 512, 1024, 2048}, want[] = {8, 6, 3, 1, 1};
	rd_config_default(&c);
	for (int i = 0; i < 5; i++) {
		k = flat_kernel(bs[i], bs[i], 1);
		assert_int_equal(sched_build(&s, k, &c), RD_OK);
		assert_int_equal(s.active_blocks, want[i]);
		sched_free(&s);
		rd_kernel_free(k);
	}
	/* gpu.max_threads keeps the first threads only */
	k = flat_kernel(100, 32, 1);
	c.max_threads = 40;
	assert_int_equal(sched_build(&s, k, &c), RD_OK);
	assert_int_equal(s.nthreads, 40);
	assert_int_equal(s.nblocks, 2);
	assert_int_equal(s.warp_nt[1], 8);
	sched_free(&s);
	rd_kernel_free(k);
}

/* ------------------------------------------------------------ coalescing */

/* k scheduled under the defaults and coalesced into 128-byte lines. */
static void coalesce_kernel(const rd_kernel *k, int lanes, int stores, rd_sched *s, rd_coal *co)
{
	rd_config c;
	rd_config_default(&c);
	assert_int_equal(sched_build(s, k, &c), RD_OK);
	assert_int_equal(coal_build(co, k, s, 128, lanes, stores, NULL), RD_OK);
}

/* Requests of a single 32-thread warp whose thread t loads f(t). */
static uint64_t coalesce_one(uint64_t (*f)(uint32_t), uint32_t bytes, uint32_t *nthr_first)
{
	rd_kernel_builder *b = rd_kernel_builder_new("w", 32, 1, 1);
	for (uint32_t t = 0; t < 32; t++)
		rd_kernel_builder_add(b, t, 0, f(t), bytes);
	rd_kernel *k = rd_kernel_builder_finish(b);
	rd_sched s;
	rd_coal co;
	coalesce_kernel(k, 1, 0, &s, &co);
	uint64_t n = co.nreq;
	assert_int_equal(co.ninstr, 1);
	if (nthr_first)
		*nthr_first = co.req[0].nthr;
	coal_free(&co);
	sched_free(&s);
	rd_kernel_free(k);
	return n;
}

static uint64_t f_seq4(uint32_t t) { return 4096 + 4 * t; }
static uint64_t f_stride128(uint32_t t) { return 128 * t; }
static uint64_t f_seq8(uint32_t t) { return 8 * t; }
static uint64_t f_same(uint32_t t) { (void)t; return 256; }
static uint64_t f_two(uint32_t t) { return (t % 2) * 128; }
static uint64_t f_unaligned(uint32_t t) { return 64 + 4 * t; }

static void test_coalescing(void **state)
{
	(void)state;
	uint32_t n0;
	assert_int_equal(coalesce_one(f_seq4, 4, &n0), 1);
	assert_int_equal(n0, 32);
	assert_int_equal(coalesce_one(f_stride128, 4, &n0), 32);
	assert_int_equal(n0, 1);
	assert_int_equal(coalesce_one(f_seq8, 8, NULL), 2);    /* two half-warps */
	assert_int_equal(coalesce_one(f_same, 4, NULL), 1);
	assert_int_equal(coalesce_one(f_same, 8, NULL), 2);    /* one per half-warp */
	assert_int_equal(coalesce_one(f_same, 16, NULL), 4);   /* one per quarter-warp */
	assert_int_equal(coalesce_one(f_two, 4, &n0), 2);
	assert_int_equal(n0, 16);
	assert_int_equal(coalesce_one(f_unaligned, 4, NULL), 2); /* straddles a line */
}

/* One instruction whose lanes differ in size: lane 0 loads 4 bytes of a
 * line (its group: the warp), lane 16 loads 8 bytes of it (its group:
 * lanes 16-31, where lane 0 does not lead: a second request), lane 17
 * loads 4 bytes of it and joins the first request, whose group (the
 * warp) it shares; the other lanes load lines of their own. Through the
 * loads' loop and, with stores taken, coal_pass. */
static void test_coalescing_mixed_sizes(void **state)
{
	(void)state;
	for (int stores = 0; stores < 2; stores++) {
		rd_kernel_builder *b = rd_kernel_builder_new("w", 32, 1, 1);
		for (uint32_t t = 0; t < 32; t++) {
			uint64_t a = t == 0 ? 256 : t == 16 ? 264 : t == 17 ? 260 : 8192 + 128 * (uint64_t)t;
			rd_kernel_builder_add(b, t, 0, a, t == 16 ? 8 : 4);
		}
		if (stores) /* (a store: coalescing by passes, coal_pass's) */
			rd_kernel_builder_add(b, 31, 1, 1 << 20, 4);
		rd_kernel *k = rd_kernel_builder_finish(b);
		rd_sched s;
		rd_coal co;
		coalesce_kernel(k, 0, stores, &s, &co);
		assert_int_equal(co.ninstr, 1 + stores);
		assert_int_equal(co.nreq, 31 + stores);
		int seen = 0;
		for (uint64_t r = 0; r < co.nreq; r++) {
			if (co.req[r].lane == 0) {
				assert_int_equal(co.req[r].nthr, 2); /* lanes 0 and 17 */
				seen++;
			} else if (co.req[r].lane == 16) {
				assert_int_equal(co.req[r].nthr, 1);
				assert_int_equal(co.req[r].line, co.req[0].line);
				seen++;
			} else {
				assert_int_equal(co.req[r].nthr, 1);
			}
		}
		assert_int_equal(seen, 2);
		coal_free(&co);
		sched_free(&s);
		rd_kernel_free(k);
	}
}

/* ------------------------------------------------------------ random traces */

typedef struct lcg {
	uint64_t s;
} lcg;
static uint32_t lcg_next(lcg *g, uint32_t n)
{
	g->s = g->s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)((g->s >> 33) % n);
}

/* nthreads threads in blocks of bs, each with `loads` 4-byte loads from a
 * pool of `pool` lines (line size 32), mixing reuse and streaming. */
static rd_kernel *random_kernel(lcg *g, uint32_t nthreads, uint32_t bs, uint32_t loads,
				uint32_t pool)
{
	rd_kernel_builder *b = rd_kernel_builder_new("rand", bs, 1, 1);
	for (uint32_t t = 0; t < nthreads; t++)
		for (uint32_t i = 0; i < loads; i++) {
			uint64_t line = lcg_next(g, 4) ? lcg_next(g, pool) : (t * 7 + i) % (pool * 2);
			rd_kernel_builder_add(b, t, lcg_next(g, 10) == 0, line * 32 + 4 * lcg_next(g, 8),
					      4);
		}
	return rd_kernel_builder_finish(b);
}

static const char *const hashes[] = {"mod", "xor", "smod:1", "prime", "fermi"};

/* A naive LRU stack per set and core: the list of lines, most recent
 * first; distance = position. Requests at the same time see the stacks as
 * they were before that time's updates (4-byte loads: no line twice). */
typedef struct naive {
	uint32_t *st[64];
	uint32_t n[64];
} naive;

static int64_t naive_find(naive *nv, uint32_t set, uint32_t line)
{
	for (uint32_t i = 0; i < nv->n[set]; i++)
		if (nv->st[set][i] == line)
			return i;
	return -1;
}

static void naive_touch(naive *nv, uint32_t set, uint32_t line)
{
	int64_t p = naive_find(nv, set, line);
	uint32_t *s = nv->st[set];
	if (p < 0)
		p = nv->n[set]++;
	memmove(s + 1, s, (size_t)p * sizeof *s);
	s[0] = line;
}

static void check_against_naive(const tu_log *log)
{
	naive nv;
	memset(&nv, 0, sizeof nv);
	for (int s = 0; s < 64; s++)
		nv.st[s] = calloc(4096, sizeof(uint32_t));
	int i = 0;
	while (i < log->n) {
		int j = i;
		while (j < log->n && log->ev[j].time == log->ev[i].time &&
		       log->ev[j].core == log->ev[i].core)
			j++;
		if (i && log->ev[i].core != log->ev[i - 1].core) /* a new core: new stacks */
			for (int s = 0; s < 64; s++)
				nv.n[s] = 0;
		for (int q = i; q < j; q++) {
			const rd_event *e = &log->ev[q];
			int64_t d = naive_find(&nv, e->set, (uint32_t)e->line);
			if (d != e->distance)
				fail_msg("event %d (t=%llu line %llu set %u): distance %lld, naive %lld", q,
					 (unsigned long long)e->time, (unsigned long long)e->line, e->set,
					 (long long)e->distance, (long long)d);
		}
		for (int q = i; q < j; q++)
			naive_touch(&nv, log->ev[q].set, (uint32_t)log->ev[q].line);
		i = j;
	}
	for (int s = 0; s < 64; s++)
		free(nv.st[s]);
}

static void zero_timing(rd_config *c)
{
	c->latency_hit = c->latency_miss = 0;
	c->latency_stddev = 0;
	c->l1_mshrs = c->l1_mshr_per_warp = 0;
}

/* Window mode (an N-way LRU set's contents) agrees with the exact stack:
 * a line is resident iff its exact distance is below N, after every
 * update of random traces over a few sets, for several N; a stack that
 * keeps both (the as-configured case's) answers both as the two do. */
static void test_stack_window(void **state)
{
	(void)state;
	lcg g = {29};
	const uint32_t nsets = 3, nlines = 200, nupd = 3000;
	uint32_t set_of[200], cap[3] = {nupd, nupd, nupd};
	for (uint32_t l = 0; l < nlines; l++)
		set_of[l] = l % nsets;
	const uint32_t windows[] = {1, 2, 4, 7, 16, 64};
	for (size_t wi = 0; wi < sizeof windows / sizeof windows[0]; wi++) {
		rd_stack ex, win, both;
		assert_int_equal(stack_init(&ex, nsets, cap, nlines, set_of, 0, 1), RD_OK);
		assert_int_equal(stack_init(&win, nsets, cap, nlines, set_of, windows[wi], 0), RD_OK);
		assert_int_equal(stack_init(&both, nsets, cap, nlines, set_of, windows[wi], 1), RD_OK);
		for (uint32_t u = 0; u < nupd; u++) {
			/* skewed: a hot few lines and a long tail, so that both
			 * window moves (a line in it, one falling out) happen */
			uint32_t l = lcg_next(&g, 4) ? (uint32_t)lcg_next(&g, 12) : (uint32_t)lcg_next(&g, nlines);
			stack_update(&ex, l);
			stack_update(&win, l);
			stack_update(&both, l);
			for (uint32_t q = 0; q < nlines; q++) {
				int64_t d = stack_distance(&ex, q);
				int hit = d >= 0 && d < windows[wi];
				if (hit != stack_hit_inline(&win, q))
					fail_msg("window %u, update %u: line %u distance %lld but %s",
						 windows[wi], u, q, (long long)d,
						 hit ? "not resident" : "resident");
				if (hit != stack_hit_inline(&both, q) || d != stack_distance(&both, q))
					fail_msg("window %u and tree, update %u: line %u", windows[wi], u, q);
			}
		}
		stack_free(&ex);
		stack_free(&win);
		stack_free(&both);
	}
}

/* A set that runs out of stamps renumbers its marks (stack_compact):
 * against the same stack given room for every update (its sets padded
 * with lines never used), after every update and store eviction of
 * random traces, every line's distance (with a tree), residence (with a
 * window) and the line pushed out (with who) are the same, under window
 * sizes 0-16, with and without holes; the renumbering ran. */
static void test_stack_compact(void **state)
{
	(void)state;
	const uint32_t nsets = 3, nlines = 120, nupd = 8000, pad = 40000;
	uint32_t *set_of = malloc((nlines + pad) * sizeof *set_of), cap[3] = {nupd, nupd, nupd};
	assert_non_null(set_of);
	for (uint32_t l = 0; l < nlines + pad; l++)
		set_of[l] = l % nsets;
	const uint32_t windows[] = {0, 1, 4, 16};
	for (int mode = 0; mode < 16; mode++) {
		uint32_t win = windows[mode & 3];
		int exact = mode >> 2 & 1, holes = mode >> 3 & 1, who = exact || win;
		if (!exact && !win)
			continue;
		if (holes && !win)
			continue; /* (a store evicts from the ways) */
		lcg g = {(uint64_t)mode + 7};
		rd_stack c, r;
		assert_int_equal(stack_init(&c, nsets, cap, nlines, set_of, win, exact), RD_OK);
		assert_int_equal(stack_init(&r, nsets, cap, nlines + pad, set_of, win, exact), RD_OK);
		if (holes) {
			assert_int_equal(stack_holes(&c), 0);
			assert_int_equal(stack_holes(&r), 0);
		}
		if (who && win) {
			assert_int_equal(stack_who(&c), 0);
			assert_int_equal(stack_who(&r), 0);
		}
		for (uint32_t u = 0; u < nupd; u++) {
			uint32_t l = lcg_next(&g, 4) ? (uint32_t)lcg_next(&g, 9) : (uint32_t)lcg_next(&g, nlines);
			if (holes && lcg_next(&g, 10) == 0) {
				if (stack_hit_inline(&r, l)) {
					assert_int_equal(stack_evict(&c, l), 0);
					assert_int_equal(stack_evict(&r, l), 0);
				}
			} else {
				stack_update(&c, l);
				stack_update(&r, l);
				if (c.who && c.evicted != r.evicted)
					fail_msg("mode %d, update %u: pushed out %u, not %u", mode, u,
						 c.evicted, r.evicted);
			}
			for (uint32_t q = 0; q < nlines; q++) {
				if (exact && stack_distance(&c, q) != stack_distance(&r, q))
					fail_msg("mode %d, update %u: line %u at %lld, not %lld", mode, u, q,
						 (long long)stack_distance(&c, q),
						 (long long)stack_distance(&r, q));
				if (win && stack_hit_inline(&c, q) != stack_hit_inline(&r, q))
					fail_msg("mode %d, update %u: line %u resident %d, not %d", mode, u,
						 q, stack_hit_inline(&c, q), stack_hit_inline(&r, q));
			}
		}
		assert_true(c.compactions > 10);
		assert_int_equal(r.compactions, 0);
		stack_free(&c);
		stack_free(&r);
	}
	free(set_of);
}

/* The engine equals a naive stack on thousands of random traces. */
static void test_engine_vs_naive(void **state)
{
	(void)state;
	lcg g = {42};
	static const uint32_t ws[] = {1, 4, 32}, sets[] = {1, 2, 4, 8, 32}, ways[] = {1, 2, 3, 4};
	int runs = 0;
	for (int rep = 0; rep < 25; rep++)
		for (int a = 0; a < 3; a++)
			for (int b = 0; b < 5; b++)
				for (int h = 0; h < 5; h++) {
					if (h == 4 && sets[b] != 32)
						continue; /* Fermi needs 32 or 64 sets */
					uint32_t nthreads = 1 + lcg_next(&g, 48);
					rd_kernel *k = random_kernel(&g, nthreads, 1 + lcg_next(&g, 16),
								     1 + lcg_next(&g, 6), 4 + lcg_next(&g, 60));
					rd_config c;
					char e[128];
					rd_config_default(&c);
					zero_timing(&c);
					c.warp_size = ws[a];
					c.l1_line = 32;
					c.l1_ways = ways[lcg_next(&g, 4)];
					c.l1_size = c.l1_line * c.l1_ways * sets[b];
					c.cores = 1 + lcg_next(&g, 2);
					c.divergence = (int)lcg_next(&g, 2);
					assert_int_equal(rd_config_set(&c, "l1.hash", hashes[h], e, sizeof e), 0);
					tu_log *log = malloc(sizeof *log);
					rd_result r;
					assert_int_equal(tu_run_log(k, &c, log, &r), RD_OK);
					assert_int_equal(log->n, (int)r.requests);
					check_against_naive(log);
					free(log);
					rd_result_free(&r);
					rd_kernel_free(k);
					runs++;
				}
	assert_true(runs > 1000);
}

/* An independent set-associative LRU cache (ways with ages, no stacks). */
static uint64_t lru_cache_misses(const rd_config *c, const rd_kernel *k)
{
	uint32_t sets = rd_config_sets(c), ways = c->l1_ways;
	uint64_t *tag = calloc((size_t)sets * ways, sizeof *tag);
	uint64_t *age = calloc((size_t)sets * ways, sizeof *age);
	uint64_t misses = 0, now = 0;
	for (uint64_t i = 0; i < k->nloads; i++) {
		uint64_t line = k->addr[i] / c->l1_line;
		uint32_t s = rd_set_index(c, sets, line);
		uint64_t *tg = tag + (size_t)s * ways, *ag = age + (size_t)s * ways;
		uint32_t hit = ways, lru = 0;
		for (uint32_t w = 0; w < ways; w++) {
			if (ag[w] && tg[w] == line)
				hit = w;
			if (ag[w] < ag[lru])
				lru = w;
		}
		if (hit == ways) {
			misses++;
			hit = lru;
			tg[hit] = line;
		}
		ag[hit] = ++now;
	}
	free(tag);
	free(age);
	return misses;
}

static void test_single_thread_equals_lru_cache(void **state)
{
	(void)state;
	lcg g = {7};
	for (int rep = 0; rep < 40; rep++)
		for (int h = 0; h < 5; h++) {
			rd_kernel_builder *b = rd_kernel_builder_new("one", 1, 1, 1);
			uint32_t n = 200 + lcg_next(&g, 2000), pool = 8 + lcg_next(&g, 600);
			for (uint32_t i = 0; i < n; i++)
				rd_kernel_builder_add(b, 0, 0, (uint64_t)lcg_next(&g, pool) * 128 * (1 + h) +
							      4 * lcg_next(&g, 32), 4);
			rd_kernel *k = rd_kernel_builder_finish(b);
			rd_config c;
			char e[128];
			rd_config_default(&c);
			zero_timing(&c);
			c.warp_size = 1;
			assert_int_equal(rd_config_set(&c, "l1.hash", hashes[h], e, sizeof e), 0);
			c.l1_line = h == 4 ? 128 : 32u << lcg_next(&g, 3);
			c.l1_ways = h == 4 ? 4 : 1 + lcg_next(&g, 8);
			uint32_t sets = h == 4 ? 32 : 1u << lcg_next(&g, 6);
			c.l1_size = c.l1_line * c.l1_ways * sets;
			rd_model *m = rd_model_new(k);
			rd_result r;
			assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, NULL, &r), RD_OK);
			assert_int_equal(r.misses, lru_cache_misses(&c, k));
			rd_result_free(&r);
			rd_model_free(m);
			rd_kernel_free(k);
		}
}

/* ------------------------------------------------------------ timing model */

static void run_all(const rd_kernel *k, const rd_config *c, rd_result *r)
{
	rd_model *m = rd_model_new(k);
	assert_int_equal(rd_model_run(m, c, RD_ALL_CASES, NULL, r), RD_OK);
	rd_model_free(m);
}

/* A cache of far more sets than the trace has lines keeps only the used
 * sets (memory proportional to the input): 2^17 sets (numbered densely)
 * and 2^16 sets (the configuration's numbering) put every line of a
 * trace of fewer than 2^16 lines alone in its set, so both give the same
 * counts; the dense run names the sets it used, ascending. */
static void test_sets_dense(void **state)
{
	(void)state;
	lcg g = {4242};
	for (int rep = 0; rep < 12; rep++) {
		rd_kernel *k = random_kernel(&g, 32 + lcg_next(&g, 300), 32 << lcg_next(&g, 3),
					     1 + lcg_next(&g, 6), 16 + lcg_next(&g, 400));
		rd_config a, b;
		rd_config_default(&a);
		a.model = rep % 3 == 0 ? RD_PROFILE_REF2013 : RD_PROFILE_PAPER;
		a.l1_hash = RD_HASH_MOD;
		a.l1_line = 32;
		a.l1_ways = 1;
		a.l1_size = 32u << 16;
		b = a;
		b.l1_size = 32u << 17;
		rd_result ra, rb;
		run_all(k, &a, &ra);
		run_all(k, &b, &rb);
		assert_null(ra.set_ids);
		assert_int_equal(ra.nsets, 1u << 16);
		assert_non_null(rb.set_ids);
		assert_true(rb.nsets < 1u << 16);
		assert_int_equal(ra.hits, rb.hits);
		assert_int_equal(ra.misses, rb.misses);
		for (int i = 0; i < RD_NCLASS; i++)
			assert_int_equal(ra.cls[i], rb.cls[i]);
		assert_int_equal(ra.hist_inf, rb.hist_inf);
		assert_int_equal(ra.hist_len, rb.hist_len);
		assert_memory_equal(ra.hist, rb.hist, ra.hist_len * sizeof *ra.hist);
		for (uint32_t i = 0; i < rb.nsets; i++) {
			if (i)
				assert_true(rb.set_ids[i - 1] < rb.set_ids[i]);
			assert_true(rb.set_requests[i] > 0);
			/* lines below 2^16: set s of either cache is the same line */
			assert_true(rb.set_ids[i] < 1u << 16);
			assert_int_equal(rb.set_requests[i], ra.set_requests[rb.set_ids[i]]);
			assert_int_equal(rb.set_misses[i], ra.set_misses[rb.set_ids[i]]);
		}
		rd_result_free(&ra);
		rd_result_free(&rb);
		rd_kernel_free(k);
	}
}

/* ------------------------------------------- per-access classes (3C) */

/* An independent three-C simulator (Hill; Dinero IV's -l1-dccc): per-set
 * LRU lists, a fully associative LRU list of the same capacity and the
 * set of lines ever seen, each fed the requests in order. */
typedef struct ccc_sim {
	uint32_t sets, ways, cap;
	uint64_t *sa;     /* [sets * ways], most recent first; n_sa per set */
	uint32_t *n_sa;
	uint64_t *fa;     /* [cap], most recent first */
	uint32_t n_fa;
	uint64_t *seen;
	uint32_t nseen, seen_cap;
} ccc_sim;

/* Move (or insert) v to the front of list l of n (capacity c); 1 if it was there. */
static int lru_touch(uint64_t *l, uint32_t *n, uint32_t c, uint64_t v)
{
	uint32_t i = 0;
	while (i < *n && l[i] != v)
		i++;
	int found = i < *n;
	if (!found)
		i = *n < c ? (*n)++ : c - 1;
	for (; i > 0; i--)
		l[i] = l[i - 1];
	l[0] = v;
	return found;
}

/* -1 hit, else the miss's class */
static int ccc_access(ccc_sim *s, uint64_t line)
{
	uint32_t set = (uint32_t)(line % s->sets);
	int hit = lru_touch(s->sa + (size_t)set * s->ways, &s->n_sa[set], s->ways, line);
	int fa_hit = lru_touch(s->fa, &s->n_fa, s->cap, line);
	int seen = 0;
	for (uint32_t i = 0; i < s->nseen && !seen; i++)
		seen = s->seen[i] == line;
	if (!seen) {
		if (s->nseen == s->seen_cap) {
			s->seen_cap = s->seen_cap ? 2 * s->seen_cap : 64;
			s->seen = realloc(s->seen, s->seen_cap * sizeof *s->seen);
			assert_non_null(s->seen);
		}
		s->seen[s->nseen++] = line;
	}
	if (hit)
		return -1;
	return !seen ? RD_CLASS_COMPULSORY : fa_hit ? RD_CLASS_ASSOCIATIVITY : RD_CLASS_CAPACITY;
}

/* The configuration's own order (one thread per warp, zero latency,
 * unlimited MSHRs), mod hash, 32-byte lines, the given ways and sets:
 * where the independent simulators' serial order is the model's. */
static void serial_config(rd_config *c, uint32_t ways, uint32_t sets)
{
	rd_config_default(c);
	c->l1_hash = RD_HASH_MOD;
	c->l1_line = 32;
	c->l1_ways = ways;
	c->l1_size = 32 * ways * sets;
	c->latency_hit = c->latency_miss = 0;
	c->latency_stddev = 0;
	c->l1_mshrs = c->l1_mshr_per_warp = 0;
	c->warp_size = 1;
}

typedef struct ev_list {
	rd_event *v;
	uint32_t n, cap;
} ev_list;

static void ev_collect(void *ctx, const rd_event *ev)
{
	ev_list *l = ctx;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		l->v = realloc(l->v, l->cap * sizeof *l->v);
		assert_non_null(l->v);
	}
	l->v[l->n++] = *ev;
}

/* Where the order is the configuration's own (zero latency, unlimited
 * MSHRs, one thread per warp), classes=per-access gives each request the
 * independent simulator's label, and totals equal to its three-C counts. */
static void test_classes_per_access(void **state)
{
	(void)state;
	lcg g = {777};
	uint64_t seen_cls[RD_NCLASS] = {0};
	for (int rep = 0; rep < 60; rep++) {
		rd_kernel *k = random_kernel(&g, 1 + lcg_next(&g, 12), 1 + lcg_next(&g, 4),
					     20 + lcg_next(&g, 200), 8 + lcg_next(&g, 120));
		rd_config c;
		uint32_t ways = 1 + lcg_next(&g, 4);
		serial_config(&c, ways, 1u << lcg_next(&g, 4));
		assert_int_equal(rd_config_set(&c, "classes", "per-access", NULL, 0), 0);
		ev_list evs = {0};
		rd_callbacks cb = {.event = ev_collect, .ctx = &evs};
		rd_result r;
		rd_model *m = rd_model_new(k);
		assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, &cb, &r), RD_OK);
		ccc_sim s = {.sets = rd_config_sets(&c), .ways = c.l1_ways};
		s.cap = s.sets * s.ways;
		s.sa = calloc((size_t)s.sets * s.ways, sizeof *s.sa);
		s.n_sa = calloc(s.sets, sizeof *s.n_sa);
		s.fa = calloc(s.cap, sizeof *s.fa);
		uint64_t want[RD_NCLASS] = {0}, hits = 0;
		assert_int_equal(evs.n, r.requests);
		for (uint32_t i = 0; i < evs.n; i++) {
			const rd_event *e = &evs.v[i];
			int x = ccc_access(&s, e->line);
			assert_int_equal(e->outcome, x < 0 ? RD_OUT_HIT : RD_OUT_MISS);
			assert_int_equal(e->cls, x);
			if (x < 0)
				hits++;
			else
				want[x]++;
		}
		assert_int_equal(r.hits, hits);
		for (int i = 0; i < RD_NCLASS; i++) {
			assert_int_equal(r.cls[i], want[i]);
			seen_cls[i] += want[i];
		}
		/* the events' labels are the same under classes=difference */
		rd_result r2;
		ev_list e2 = {0};
		cb.ctx = &e2;
		c.classes = RD_CLASSES_DIFFERENCE;
		assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, &cb, &r2), RD_OK);
		assert_int_equal(e2.n, evs.n);
		for (uint32_t i = 0; i < evs.n; i++)
			assert_int_equal(e2.v[i].cls, evs.v[i].cls);
		assert_int_equal(r2.misses, r.misses);
		rd_result_free(&r2);
		free(e2.v);
		rd_result_free(&r);
		rd_model_free(m);
		free(s.sa), free(s.n_sa), free(s.fa), free(s.seen), free(evs.v);
		rd_kernel_free(k);
	}
	/* the streams exercised every three-C label */
	assert_true(seen_cls[RD_CLASS_COMPULSORY] > 100);
	assert_true(seen_cls[RD_CLASS_CAPACITY] > 100);
	assert_true(seen_cls[RD_CLASS_ASSOCIATIVITY] > 100);
}

/* ------------------------------------------------------ results by site */

/* A random kernel whose loads carry sites: load i of a thread is at site
 * (i * 7 + t / 64) % nsites (so one warp instruction may span sites). */
static rd_kernel *sited_kernel(lcg *g, uint32_t nthreads, uint32_t loads, uint32_t pool,
			       uint32_t nsites)
{
	rd_kernel_builder *b = rd_kernel_builder_new("sited", 64, 1, 1);
	for (uint32_t i = 0; i < nsites; i++) {
		char ref[32];
		snprintf(ref, sizeof ref, "a%u[i]", i);
		rd_site st = {.pc = 0x100 + 16 * i, .line = 3 + i, .ref = ref, .array = "a"};
		assert_int_equal(rd_kernel_builder_site(b, &st), i);
	}
	for (uint32_t t = 0; t < nthreads; t++)
		for (uint32_t i = 0; i < loads; i++) {
			uint64_t line = lcg_next(g, 4) ? lcg_next(g, pool) : (t * 7 + i) % (pool * 2);
			assert_int_equal(rd_kernel_builder_add_at(b, t, lcg_next(g, 10) == 0,
								  line * 32 + 4 * lcg_next(g, 8), 4,
								  (i * 7 + t / 64) % nsites), 0);
		}
	return rd_kernel_builder_finish(b);
}

/* Per-site results sum exactly to the kernel's: requests, hits, misses,
 * every class (differences shared out), and the histogram in log2 bins;
 * under both ways of telling classes apart, with several cores and with
 * sites from the kernel or from load numbers. */
static void test_sites_sum(void **state)
{
	(void)state;
	lcg g = {31337};
	for (int rep = 0; rep < 80; rep++) {
		uint32_t nsites = rep % 2 ? 1 + lcg_next(&g, 6) : 0;
		rd_kernel *k = nsites ? sited_kernel(&g, 64 + lcg_next(&g, 500), 1 + lcg_next(&g, 8),
						     16 + lcg_next(&g, 300), nsites)
				      : random_kernel(&g, 64 + lcg_next(&g, 500), 32 << lcg_next(&g, 3),
						      1 + lcg_next(&g, 8), 16 + lcg_next(&g, 300));
		rd_config c;
		rd_config_default(&c);
		c.l1_hash = RD_HASH_MOD;
		c.l1_line = 32;
		c.l1_size = 32 * 4 * (1u << lcg_next(&g, 4));
		c.l1_mshrs = 1 + lcg_next(&g, 16);
		c.l1_mshr_per_warp = 0;
		c.latency_miss = lcg_next(&g, 60);
		c.cores = 1 + lcg_next(&g, 3);
		c.classes = rep % 3 == 0 ? RD_CLASSES_PER_ACCESS : RD_CLASSES_DIFFERENCE;
		rd_callbacks cb = {.by_site = 1};
		rd_model *m = rd_model_new(k);
		rd_result r, plain;
		assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, &cb, &r), RD_OK);
		assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, NULL, &plain), RD_OK);
		assert_int_equal(r.nsites, rd_kernel_nsites(k));
		if (nsites)
			assert_int_equal(r.nsites, nsites);
		/* the same totals as without sites */
		assert_int_equal(r.hits, plain.hits);
		assert_memory_equal(r.cls, plain.cls, sizeof r.cls);
		assert_null(plain.sites);
		uint64_t req = 0, hits = 0, miss = 0, cls[RD_NCLASS] = {0}, bins[RD_SITE_BINS] = {0}, inf = 0;
		for (uint32_t i = 0; i < r.nsites; i++) {
			const rd_site_result *s = &r.sites[i];
			req += s->requests, hits += s->hits, miss += s->misses, inf += s->hist_inf;
			uint64_t sc = 0, sh = s->hist_inf;
			for (int j = 0; j < RD_NCLASS; j++)
				cls[j] += s->cls[j], sc += s->cls[j];
			for (int j = 0; j < RD_SITE_BINS; j++)
				bins[j] += s->hist[j], sh += s->hist[j];
			assert_int_equal(sc, s->misses);
			assert_int_equal(s->hits + s->misses, s->requests);
			assert_int_equal(sh, s->requests);
		}
		assert_int_equal(req, r.requests);
		assert_int_equal(hits, r.hits);
		assert_int_equal(miss, r.misses);
		assert_memory_equal(cls, r.cls, sizeof cls);
		assert_int_equal(inf, r.hist_inf);
		uint64_t want[RD_SITE_BINS] = {0};
		for (uint32_t d = 0; d < r.hist_len; d++) {
			int b = 0;
			while (b < RD_SITE_BINS - 1 && d >= (1ull << b))
				b++;
			want[b] += r.hist[d];
		}
		assert_memory_equal(bins, want, sizeof want);
		rd_result_free(&r);
		rd_result_free(&plain);
		/* the reference profile has no per-site breakdown */
		c.model = RD_PROFILE_REF2013;
		assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, &cb, &r), RD_EINVAL);
		rd_result_free(&r);
		rd_model_free(m);
		rd_kernel_free(k);
	}
}

/* ------------------------------------------------ replacement policies */

/* An independent set-associative cache of each policy (seed 001 §3;
 * Dinero IV's -l1-drepl), fed the requests in order: per set, the ways'
 * lines with their insertion order, access count and last access. */
typedef struct repl_sim {
	int kind;
	uint32_t sets, ways;
	uint64_t *line, *ins, *cnt, *last; /* [sets * ways]; line 0: empty (lines + 1 kept) */
	uint64_t clock;
	rd_rng rng;
} repl_sim;

/* 1 hit, 0 miss; the line is then in the cache. */
static int repl_access(repl_sim *s, uint64_t line)
{
	uint64_t *L = s->line + (line % s->sets) * s->ways;
	uint64_t *I = s->ins + (line % s->sets) * s->ways, *C = s->cnt + (line % s->sets) * s->ways,
		 *A = s->last + (line % s->sets) * s->ways;
	s->clock++;
	for (uint32_t w = 0; w < s->ways; w++)
		if (L[w] == line + 1) {
			C[w]++;
			A[w] = s->clock;
			if (s->kind == RD_REPL_LRU)
				I[w] = s->clock; /* LRU: the last access orders */
			return 1;
		}
	uint32_t v = s->ways;
	for (uint32_t w = 0; w < s->ways && v == s->ways; w++)
		if (!L[w])
			v = w;
	if (v == s->ways) {
		if (s->kind == RD_REPL_RANDOM) {
			v = (uint32_t)(rng_next(&s->rng) % s->ways);
		} else {
			v = 0;
			for (uint32_t w = 1; w < s->ways; w++) {
				int better = s->kind == RD_REPL_LFU
						     ? C[w] < C[v] || (C[w] == C[v] && A[w] < A[v])
						     : I[w] < I[v];
				if (better)
					v = w;
			}
		}
	}
	L[v] = line + 1;
	I[v] = A[v] = s->clock;
	C[v] = 1;
	return 0;
}

/* In the configuration's own order (one thread per warp, zero latency,
 * unlimited MSHRs), every policy's hits and misses equal the independent
 * simulator's, request by request; a one-way cache is the same under all;
 * and the policies do differ somewhere. */
static void test_replacement_policies(void **state)
{
	(void)state;
	lcg g = {2024};
	uint64_t differs = 0;
	for (int rep = 0; rep < 40; rep++) {
		rd_kernel *k = random_kernel(&g, 1 + lcg_next(&g, 6), 1 + lcg_next(&g, 4),
					     40 + lcg_next(&g, 200), 8 + lcg_next(&g, 100));
		rd_config c;
		uint32_t ways = 1 + lcg_next(&g, 6);
		serial_config(&c, ways, 1u << lcg_next(&g, 3));
		c.seed = 7 + (uint64_t)rep;
		uint64_t hits[4] = {0};
		for (int kind = RD_REPL_LRU; kind <= RD_REPL_RANDOM; kind++) {
			c.replacement = (enum rd_replacement)kind;
			ev_list evs = {0};
			rd_callbacks cb = {.event = ev_collect, .ctx = &evs};
			rd_result r;
			rd_model *m = rd_model_new(k);
			assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, &cb, &r), RD_OK);
			uint32_t sets = rd_config_sets(&c);
			repl_sim s = {.kind = kind, .sets = sets, .ways = c.l1_ways};
			s.line = calloc((size_t)sets * c.l1_ways, sizeof *s.line);
			s.ins = calloc((size_t)sets * c.l1_ways, sizeof *s.ins);
			s.cnt = calloc((size_t)sets * c.l1_ways, sizeof *s.cnt);
			s.last = calloc((size_t)sets * c.l1_ways, sizeof *s.last);
			/* the model's stream for core 0, case 0 (model/sim_paper.c) */
			rng_seed(&s.rng, c.seed, 0x7265706c0000ull);
			for (uint32_t i = 0; i < evs.n; i++) {
				int h = repl_access(&s, evs.v[i].line);
				if (h != (evs.v[i].outcome == RD_OUT_HIT))
					fail_msg("rep %d, %s: request %u: model %s, simulator %s", rep,
						 rd_replacement_name((enum rd_replacement)kind), i,
						 evs.v[i].outcome == RD_OUT_HIT ? "hit" : "miss",
						 h ? "hit" : "miss");
			}
			assert_int_equal(evs.n, r.requests);
			hits[kind] = r.hits;
			free(s.line), free(s.ins), free(s.cnt), free(s.last), free(evs.v);
			rd_result_free(&r);
			rd_model_free(m);
		}
		if (c.l1_ways == 1)
			for (int kind = 1; kind < 4; kind++)
				assert_int_equal(hits[kind], hits[0]); /* one way: no choice */
		differs += hits[1] != hits[0] || hits[2] != hits[0] || hits[3] != hits[0];
		rd_kernel_free(k);
	}
	assert_true(differs > 5);
	/* the reference profile models LRU only */
	rd_config c;
	rd_config_default(&c);
	c.model = RD_PROFILE_REF2013;
	c.replacement = RD_REPL_FIFO;
	char e[256];
	assert_int_equal(rd_config_check(&c, e, sizeof e), -1);
	assert_non_null(strstr(e, "l1.replacement: the reference-2013 profile models LRU only"));
}

/* ------------------------------------------------ stores and bypass */

/* The independent cache above with stores (seed 001 §3-4): evict removes
 * a line a store finds (its way empty, the lowest empty way filled
 * first), allocate treats a store as a load. Per line: inserted once
 * (a miss of a line never inserted is compulsory) and evicted by a store
 * since its last insertion (a miss then is write_evict). */
typedef struct wsim {
	repl_sim c;
	uint8_t *inserted, *we; /* [lines] */
	uint64_t misses, we_misses, compulsory, bypass, store_hits, store_requests;
} wsim;

/* enum rd_outcome of one access; *cls its class (-1: none). */
static int wsim_access(wsim *s, uint64_t line, int store, int stores, int bypass, int *cls)
{
	*cls = -1;
	if (store && stores == RD_STORES_EVICT) {
		s->store_requests++;
		uint64_t *L = s->c.line + (line % s->c.sets) * s->c.ways;
		for (uint32_t w = 0; w < s->c.ways; w++)
			if (L[w] == line + 1) {
				L[w] = 0;
				s->we[line] = 1;
				s->store_hits++;
				return RD_OUT_EVICT;
			}
		return RD_OUT_BYPASS;
	}
	if (!store && bypass) {
		s->misses++;
		s->bypass++;
		*cls = RD_CLASS_BYPASS;
		return RD_OUT_MISS;
	}
	int hit = repl_access(&s->c, line);
	if (store) {
		s->store_requests++;
		s->store_hits += hit;
	} else if (!hit) {
		s->misses++;
		*cls = s->we[line] ? RD_CLASS_WRITE_EVICT : !s->inserted[line] ? RD_CLASS_COMPULSORY : -1;
		s->we_misses += s->we[line];
		s->compulsory += !s->we[line] && !s->inserted[line];
	}
	if (!hit) {
		s->inserted[line] = 1;
		s->we[line] = 0;
	}
	return hit ? RD_OUT_HIT : RD_OUT_MISS;
}

/* One thread, warp size 1, zero latency, unlimited MSHRs, mod hash:
 * random loads and stores give, for every combination of l1.stores,
 * l1.loads and l1.replacement, the independent simulator's outcome on
 * every request, and its misses, write_evict misses and store hits. */
static void test_stores_policies(void **state)
{
	(void)state;
	lcg g = {4242};
	uint64_t we_seen = 0, differ = 0, one_set = 0;
	for (int rep = 0; rep < 30; rep++) {
		uint32_t nlines = 4 + lcg_next(&g, 40), n = 50 + lcg_next(&g, 300);
		rd_kernel_builder *b = rd_kernel_builder_new("ws", 1, 1, 1);
		uint64_t *addr = malloc(n * sizeof *addr);
		int *st = malloc(n * sizeof *st);
		for (uint32_t i = 0; i < n; i++) {
			addr[i] = (uint64_t)lcg_next(&g, nlines) * 32 + lcg_next(&g, 8) * 4;
			st[i] = lcg_next(&g, 3) == 0;
			assert_int_equal(rd_kernel_builder_add(b, 0, st[i], addr[i], 4), 0);
		}
		rd_kernel *k = rd_kernel_builder_finish(b);
		assert_non_null(k);
		rd_config c;
		serial_config(&c, 1 + lcg_next(&g, 4), 1u << lcg_next(&g, 3));
		c.seed = 11 + (uint64_t)rep;
		for (int stores = 0; stores <= RD_STORES_ALLOCATE; stores++)
			for (int bypass = 0; bypass <= 1; bypass++)
				for (int kind = RD_REPL_LRU; kind <= RD_REPL_RANDOM; kind++) {
					if (bypass && stores == RD_STORES_ALLOCATE)
						continue;
					c.stores = (enum rd_stores)stores;
					c.loads = bypass ? RD_LOADS_BYPASS : RD_LOADS_CACHE;
					c.replacement = (enum rd_replacement)kind;
					uint32_t sets = rd_config_sets(&c);
					wsim s = {.c = {.kind = kind, .sets = sets, .ways = c.l1_ways}};
					s.c.line = calloc((size_t)sets * c.l1_ways, sizeof *s.c.line);
					s.c.ins = calloc((size_t)sets * c.l1_ways, sizeof *s.c.ins);
					s.c.cnt = calloc((size_t)sets * c.l1_ways, sizeof *s.c.cnt);
					s.c.last = calloc((size_t)sets * c.l1_ways, sizeof *s.c.last);
					s.inserted = calloc(nlines, 1);
					s.we = calloc(nlines, 1);
					rng_seed(&s.c.rng, c.seed, 0x7265706c0000ull);
					ev_list evs = {0};
					rd_callbacks cb = {.event = ev_collect, .ctx = &evs};
					rd_result r, q;
					rd_model *m = rd_model_new(k);
					assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, &cb, &r), RD_OK);
					/* without events: the same counts */
					rd_model *m2 = rd_model_new(k);
					assert_int_equal(rd_model_run(m2, &c, RD_ALL_CASES, NULL, &q), RD_OK);
					if (sets == 1) { /* one set is fully associative: no conflicts */
						rd_config cp = c;
						cp.classes = RD_CLASSES_PER_ACCESS;
						rd_result pa;
						assert_int_equal(rd_model_run(m2, &cp, RD_ALL_CASES, NULL, &pa),
								 RD_OK);
						if (pa.cls[RD_CLASS_ASSOCIATIVITY])
							fail_msg("rep %d stores %s loads %s %s, one set: %llu "
								 "associativity misses per access",
								 rep, rd_stores_name(c.stores),
								 rd_loads_name(c.loads),
								 rd_replacement_name(c.replacement),
								 (unsigned long long)pa.cls[RD_CLASS_ASSOCIATIVITY]);
						assert_int_equal(pa.misses, q.misses);
						rd_result_free(&pa);
						one_set++;
					}
					uint32_t e = 0;
					for (uint32_t i = 0; i < n; i++) {
						if (st[i] && stores == RD_STORES_IGNORE)
							continue;
						int cls, o = wsim_access(&s, addr[i] / 32, st[i], stores, bypass,
									 &cls);
						assert_true(e < evs.n);
						const rd_event *ev = &evs.v[e++];
						if ((int)ev->outcome != o || ev->store != st[i] ||
						    (cls >= 0 && ev->cls != cls))
							fail_msg("rep %d stores %s loads %s %s: access %u (%s of "
								 "line %llu): model outcome %d class %d, "
								 "simulator %d class %d",
								 rep, rd_stores_name(c.stores), rd_loads_name(c.loads),
								 rd_replacement_name(c.replacement), i,
								 st[i] ? "store" : "load",
								 (unsigned long long)(addr[i] / 32), ev->outcome,
								 ev->cls, o, cls);
					}
					assert_int_equal(e, evs.n);
					assert_int_equal(r.misses, s.misses);
					assert_int_equal(r.cls[RD_CLASS_WRITE_EVICT], s.we_misses);
					assert_int_equal(r.cls[RD_CLASS_COMPULSORY], s.compulsory);
					assert_int_equal(r.cls[RD_CLASS_BYPASS], s.bypass);
					assert_int_equal(r.store_hits, s.store_hits);
					assert_int_equal(r.store_requests, s.store_requests);
					assert_int_equal(q.misses, r.misses);
					assert_memory_equal(q.cls, r.cls, sizeof q.cls);
					assert_int_equal(q.store_hits, r.store_hits);
					uint64_t hw = q.hist_w_inf, h = q.hist_inf;
					for (uint32_t d = 0; d < q.hist_w_len; d++)
						hw += q.hist_w[d];
					for (uint32_t d = 0; d < q.hist_len; d++)
						h += q.hist[d];
					assert_int_equal(hw, q.store_requests);
					assert_int_equal(h, q.requests);
					we_seen += s.we_misses;
					differ += stores == RD_STORES_EVICT && !bypass &&
						  s.we_misses > 0;
					free(s.c.line), free(s.c.ins), free(s.c.cnt), free(s.c.last);
					free(s.inserted), free(s.we), free(evs.v);
					rd_result_free(&r);
					rd_result_free(&q);
					rd_model_free(m);
					rd_model_free(m2);
				}
		free(addr);
		free(st);
		rd_kernel_free(k);
	}
	assert_true(we_seen > 20);
	assert_true(differ > 10);
	assert_true(one_set > 10);
}

/* A one-set cache is its own fully associative cache: per access, no
 * miss is an associativity miss, under any policy, store mode, latency
 * and MSHR limit (the shadow takes the cache's effects at their times).
 * And at zero latency the reads' and writes' histograms are LRU's under
 * every policy, stores that evict included. */
static void test_one_set_per_access(void **state)
{
	(void)state;
	lcg g = {777};
	for (int rep = 0; rep < 24; rep++) {
		uint32_t nthreads = 1 + lcg_next(&g, 96), n = 10 + lcg_next(&g, 40);
		rd_kernel_builder *b = rd_kernel_builder_new("one", 32, 1, 1);
		for (uint32_t t = 0; t < nthreads; t++)
			for (uint32_t i = 0; i < n; i++)
				assert_int_equal(rd_kernel_builder_add(b, t, lcg_next(&g, 4) == 0,
								       (uint64_t)lcg_next(&g, 48) * 32, 4),
						 0);
		rd_kernel *k = rd_kernel_builder_finish(b);
		rd_config c;
		rd_config_default(&c);
		c.l1_hash = RD_HASH_MOD;
		c.l1_line = 32;
		c.l1_ways = 2 + lcg_next(&g, 8);
		c.l1_size = 32 * c.l1_ways; /* one set */
		c.latency_miss = lcg_next(&g, 3) ? lcg_next(&g, 50) : 0;
		c.latency_stddev = lcg_next(&g, 2) * 3.0;
		c.l1_mshrs = lcg_next(&g, 2) ? 1 + lcg_next(&g, 8) : 0;
		c.l1_mshr_per_warp = 0;
		c.classes = RD_CLASSES_PER_ACCESS;
		c.seed = 3 + (uint64_t)rep;
		rd_model *m = rd_model_new(k);
		for (int st = 0; st <= RD_STORES_ALLOCATE; st++)
			for (int kind = RD_REPL_LRU; kind <= RD_REPL_RANDOM; kind++) {
				c.stores = (enum rd_stores)st;
				c.replacement = (enum rd_replacement)kind;
				rd_result r;
				assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, NULL, &r), RD_OK);
				if (r.cls[RD_CLASS_ASSOCIATIVITY])
					fail_msg("rep %d %s %s latency %u mshrs %u: %llu associativity "
						 "misses in one set", rep, rd_stores_name(c.stores),
						 rd_replacement_name(c.replacement), c.latency_miss,
						 c.l1_mshrs,
						 (unsigned long long)r.cls[RD_CLASS_ASSOCIATIVITY]);
				rd_result_free(&r);
			}
		/* zero latency, unlimited MSHRs (the order then is the
		 * policies' alike): the histograms do not depend on the policy */
		c.l1_mshrs = 0;
		c.latency_miss = c.latency_hit = 0;
		c.latency_stddev = 0;
		c.classes = RD_CLASSES_DIFFERENCE;
		c.l1_size = 32 * c.l1_ways * (1u << lcg_next(&g, 3));
		for (int st = 0; st <= RD_STORES_ALLOCATE; st++) {
			rd_result base;
			c.stores = (enum rd_stores)st;
			c.replacement = RD_REPL_LRU;
			assert_int_equal(rd_model_run(m, &c, 1, NULL, &base), RD_OK);
			for (int kind = RD_REPL_FIFO; kind <= RD_REPL_RANDOM; kind++) {
				rd_result r;
				c.replacement = (enum rd_replacement)kind;
				assert_int_equal(rd_model_run(m, &c, 1, NULL, &r), RD_OK);
				if (r.hist_inf != base.hist_inf || r.hist_len != base.hist_len)
					fail_msg("rep %d %s %s: inf %llu, len %u; lru inf %llu, len %u", rep,
						 rd_stores_name(c.stores), rd_replacement_name(c.replacement),
						 (unsigned long long)r.hist_inf, r.hist_len,
						 (unsigned long long)base.hist_inf, base.hist_len);
				assert_memory_equal(r.hist, base.hist, base.hist_len * sizeof *r.hist);
				assert_int_equal(r.hist_w_len, base.hist_w_len);
				assert_int_equal(r.hist_w_inf, base.hist_w_inf);
				if (base.hist_w_len)
					assert_memory_equal(r.hist_w, base.hist_w,
							    base.hist_w_len * sizeof *r.hist_w);
				rd_result_free(&r);
			}
			rd_result_free(&base);
		}
		rd_model_free(m);
		rd_kernel_free(k);
	}
}

/* Warp instructions with stores (a hand-checked example): instruction k
 * is each lane's k-th access; its load requests come first, then its
 * store requests, each coalesced per line. Two lanes, warp size 2, zero
 * latency, mod hash, 32-byte lines:
 *   lane 0: load 0, store 64, load 0
 *   lane 1: load 4, load 128, store 68
 * instr 0: loads of lines 0 (lanes 0, 1: one request)
 * instr 1: load of line 4 (lane 1), then the store of line 2 (lane 0)
 * instr 2: load of line 0 (lane 0), then the store of line 2 (lane 1) */
static void test_store_instructions(void **state)
{
	(void)state;
	rd_kernel_builder *b = rd_kernel_builder_new("si", 2, 1, 1);
	/* file order mixes the lanes: only each lane's own order counts */
	assert_int_equal(rd_kernel_builder_add(b, 0, 0, 0, 4), 0);
	assert_int_equal(rd_kernel_builder_add(b, 1, 0, 4, 4), 0);
	assert_int_equal(rd_kernel_builder_add(b, 1, 0, 128, 4), 0);
	assert_int_equal(rd_kernel_builder_add(b, 0, 1, 64, 4), 0);
	assert_int_equal(rd_kernel_builder_add(b, 0, 0, 0, 4), 0);
	assert_int_equal(rd_kernel_builder_add(b, 1, 1, 68, 4), 0);
	rd_kernel *k = rd_kernel_builder_finish(b);
	assert_non_null(k);
	assert_int_equal(k->nloads, 4);
	assert_int_equal(k->nstores, 2);
	assert_int_equal(k->store_threads, 2);
	assert_int_equal(k->store_pos[0], 1); /* lane 0's second access */
	assert_int_equal(k->store_pos[1], 2); /* lane 1's third */
	rd_config c;
	serial_config(&c, 4, 1);
	c.warp_size = 2;
	static const struct {
		uint64_t line;
		int store;
		uint32_t instr, nthr;
		enum rd_outcome o;
	} want[] = {
		{0, 0, 0, 2, RD_OUT_MISS}, {4, 0, 1, 1, RD_OUT_MISS}, {2, 1, 1, 1, RD_OUT_BYPASS},
		{0, 0, 2, 1, RD_OUT_HIT},  {2, 1, 2, 1, RD_OUT_BYPASS},
	};
	for (int stores = RD_STORES_IGNORE; stores <= RD_STORES_ALLOCATE; stores++) {
		c.stores = (enum rd_stores)stores;
		ev_list evs = {0};
		rd_callbacks cb = {.event = ev_collect, .ctx = &evs};
		rd_result r;
		rd_model *m = rd_model_new(k);
		assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, &cb, &r), RD_OK);
		if (stores == RD_STORES_IGNORE) {
			/* loads only: instruction k is the k-th load, 0 and 4 then
			 * 0 and 128 (two lines) */
			assert_int_equal(evs.n, 3);
			assert_int_equal(r.store_requests, 0);
			assert_int_equal(r.hist_w_len + r.hist_w_inf, 0);
		} else {
			assert_int_equal(evs.n, 5);
			for (uint32_t i = 0; i < 5; i++) {
				enum rd_outcome o = want[i].o;
				if (stores == RD_STORES_ALLOCATE && want[i].store)
					o = i == 2 ? RD_OUT_MISS : RD_OUT_HIT; /* allocated at 2 */
				assert_int_equal(evs.v[i].line, want[i].line);
				assert_int_equal(evs.v[i].store, want[i].store);
				assert_int_equal(evs.v[i].instr, want[i].instr);
				assert_int_equal(evs.v[i].nthreads, want[i].nthr);
				assert_int_equal(evs.v[i].outcome, o);
			}
			assert_int_equal(evs.v[2].addr, 64);
			assert_int_equal(evs.v[4].addr, 68);
			assert_int_equal(r.requests, 3);
			assert_int_equal(r.store_requests, 2);
			assert_int_equal(r.store_hits, stores == RD_STORES_ALLOCATE ? 1 : 0);
		}
		free(evs.v);
		rd_result_free(&r);
		rd_model_free(m);
	}
	/* threads with only stores are modelled too (not under ignore) */
	b = rd_kernel_builder_new("so", 1, 1, 1);
	assert_int_equal(rd_kernel_builder_add(b, 0, 0, 0, 4), 0);
	assert_int_equal(rd_kernel_builder_add(b, 3, 1, 0, 4), 0);
	rd_kernel *k2 = rd_kernel_builder_finish(b);
	c.warp_size = 1;
	rd_result r;
	rd_model *m = rd_model_new(k2);
	c.stores = RD_STORES_IGNORE;
	assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, NULL, &r), RD_OK);
	assert_int_equal(r.threads_total, 1);
	assert_int_equal(r.store_requests, 0);
	rd_result_free(&r);
	c.stores = RD_STORES_EVICT;
	assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, NULL, &r), RD_OK);
	assert_int_equal(r.threads_total, 4);
	assert_int_equal(r.store_requests, 1);
	assert_int_equal(r.store_hits, 1); /* block 3 runs after block 0 */
	rd_result_free(&r);
	rd_model_free(m);
	rd_kernel_free(k2);
	rd_kernel_free(k);
	/* refused combinations */
	char e[256];
	rd_config_default(&c);
	c.loads = RD_LOADS_BYPASS;
	c.stores = RD_STORES_ALLOCATE;
	assert_int_equal(rd_config_check(&c, e, sizeof e), -1);
	assert_non_null(strstr(e, "l1.loads: bypass with l1.stores=allocate"));
	rd_config_default(&c);
	c.model = RD_PROFILE_REF2013;
	c.stores = RD_STORES_EVICT;
	assert_int_equal(rd_config_check(&c, e, sizeof e), -1);
	assert_non_null(strstr(e, "l1.stores: the reference-2013 profile ignores stores"));
}

static void test_timing_properties(void **state)
{
	(void)state;
	lcg g = {99};
	for (int rep = 0; rep < 200; rep++) {
		rd_kernel *k = random_kernel(&g, 32 + lcg_next(&g, 600), 32 << lcg_next(&g, 3),
					     1 + lcg_next(&g, 8), 16 + lcg_next(&g, 400));
		rd_config c;
		rd_config_default(&c);
		c.l1_line = 32;
		c.l1_size = 32 * 4 * 32;
		c.latency_miss = lcg_next(&g, 120);
		c.latency_hit = lcg_next(&g, 3);
		c.latency_stddev = lcg_next(&g, 3) * 2.5;
		c.l1_mshrs = lcg_next(&g, 3) ? 1 + lcg_next(&g, 64) : 0;
		c.l1_mshr_per_warp = c.l1_mshrs ? lcg_next(&g, c.l1_mshrs + 1) : 0;
		c.latency_clip = (int)lcg_next(&g, 2);
		c.divergence = (int)lcg_next(&g, 2);
		c.cores = 1 + lcg_next(&g, 3);
		c.model = lcg_next(&g, 4) == 0 ? RD_PROFILE_REF2013 : RD_PROFILE_PAPER;
		rd_result r;
		run_all(k, &c, &r);
		/* per-set counts add up to the totals (case 0) */
		uint64_t sr = 0, sm = 0;
		assert_int_equal(r.nsets, rd_config_sets(&c));
		assert_null(r.set_ids);
		for (uint32_t s = 0; s < r.nsets; s++)
			sr += r.set_requests[s], sm += r.set_misses[s];
		assert_int_equal(sr, r.requests);
		if (c.model == RD_PROFILE_PAPER)
			assert_int_equal(sm, r.misses);
		uint64_t sum = r.hits, h = r.hist_inf;
		for (int i = 0; i < RD_NCLASS; i++)
			sum += r.cls[i];
		for (uint32_t d = 0; d < r.hist_len; d++)
			h += r.hist[d];
		assert_int_equal(h, r.requests);
		assert_int_equal(r.hits + r.misses, r.requests);
		if (c.model == RD_PROFILE_PAPER)
			assert_int_equal(sum, r.requests); /* the classes add up */
		rd_result_free(&r);
		/* unlimited MSHRs: no MSHR misses, no cancels */
		c.l1_mshrs = c.l1_mshr_per_warp = 0;
		run_all(k, &c, &r);
		assert_int_equal(r.cls[RD_CLASS_MSHR], 0);
		assert_int_equal(r.cancels, 0);
		rd_result_free(&r);
		rd_kernel_free(k);
	}
}

/* Zero latencies and unlimited MSHRs: no latency misses, and the as-
 * configured result equals the no-latency case (the core model). */
static void test_zero_latency_is_core_model(void **state)
{
	(void)state;
	lcg g = {5};
	for (int rep = 0; rep < 100; rep++) {
		rd_kernel *k = random_kernel(&g, 64 + lcg_next(&g, 300), 64, 1 + lcg_next(&g, 6),
					     16 + lcg_next(&g, 300));
		rd_config c;
		rd_config_default(&c);
		zero_timing(&c);
		c.l1_line = 32;
		c.l1_size = 32 * 4 * 32;
		rd_result r;
		run_all(k, &c, &r);
		assert_int_equal(r.cls[RD_CLASS_LATENCY], 0);
		assert_int_equal(r.misses, r.case_misses[RD_CASE_NO_LATENCY]);
		assert_int_equal(r.misses, r.case_misses[RD_CASE_NO_MSHR]);
		rd_result_free(&r);
		rd_kernel_free(k);
	}
}

/* The reference profile's cases 1-3 keep a window of ways + 1 instead of
 * exact distances (sim_ref2013.c). With one set the fully associative case
 * is the as-configured one, so its window must decide every access as
 * case 0's exact stack does (a distance equal to the ways is a miss for
 * the time loop, not one for the classes: the window's edge) and count
 * the same misses; random traces whose reuse clusters around the ways. */
static void test_ref2013_window_cases(void **state)
{
	(void)state;
	lcg g = {13};
	static const uint32_t ways[] = {1, 2, 3, 4, 8};
	for (int rep = 0; rep < 60; rep++) {
		uint32_t w = ways[rep % 5];
		rd_kernel *k = random_kernel(&g, 32 + lcg_next(&g, 200), 32 * (1 + lcg_next(&g, 4)),
					     1 + lcg_next(&g, 12), w + 1 + lcg_next(&g, 3 * w + 4));
		rd_config c;
		rd_config_default(&c);
		char e[160];
		assert_int_equal(rd_config_set(&c, "model", "reference-2013", e, sizeof e), 0);
		c.l1_line = 32;
		c.l1_ways = w;
		c.l1_size = 32 * w; /* one set */
		c.latency_miss = lcg_next(&g, 3) ? 1 + lcg_next(&g, 40) : 0;
		c.latency_stddev = lcg_next(&g, 2) ? 0 : 3;
		c.l1_mshrs = lcg_next(&g, 2) ? 0 : 1 + lcg_next(&g, 8);
		c.l1_mshr_per_warp = 0;
		if (rd_config_check(&c, e, sizeof e) != 0)
			fail_msg("%s", e);
		rd_result r;
		run_all(k, &c, &r);
		assert_true(r.requests > 0);
		assert_int_equal(r.case_misses[RD_CASE_FULLY_ASSOC], r.case_misses[RD_CASE_FULL]);
		assert_int_equal(r.cls[RD_CLASS_ASSOCIATIVITY], 0);
		rd_result_free(&r);
		rd_kernel_free(k);
	}
}

/* Each breakdown case equals its configuration run on its own as the
 * as-configured case (which takes exact distances; the other cases only
 * ask whether a request hits). */
static void test_cases_match_own_runs(void **state)
{
	(void)state;
	lcg g = {77};
	for (int rep = 0; rep < 40; rep++) {
		rd_kernel *k = random_kernel(&g, 64 + lcg_next(&g, 400), 32 << lcg_next(&g, 3),
					     1 + lcg_next(&g, 8), 32 + lcg_next(&g, 500));
		rd_config c;
		rd_config_default(&c);
		c.l1_line = 32;
		c.l1_ways = 1 + lcg_next(&g, 6);
		c.l1_size = 32 * c.l1_ways * 32;
		c.latency_miss = lcg_next(&g, 100);
		c.latency_stddev = lcg_next(&g, 2) * 3.0;
		c.l1_mshrs = lcg_next(&g, 2) ? 4 + lcg_next(&g, 40) : 0;
		c.l1_mshr_per_warp = c.l1_mshrs ? lcg_next(&g, 7) : 0;
		c.latency_clip = (int)lcg_next(&g, 2);
		c.divergence = (int)lcg_next(&g, 2);
		rd_result all, one;
		run_all(k, &c, &all);
		rd_config v[RD_NCASES];
		v[RD_CASE_FULLY_ASSOC] = c;
		v[RD_CASE_FULLY_ASSOC].l1_ways = c.l1_ways * 32;
		v[RD_CASE_FULLY_ASSOC].l1_hash = RD_HASH_MOD;
		v[RD_CASE_NO_LATENCY] = c;
		v[RD_CASE_NO_LATENCY].latency_hit = v[RD_CASE_NO_LATENCY].latency_miss = 0;
		v[RD_CASE_NO_LATENCY].latency_stddev = 0;
		v[RD_CASE_NO_MSHR] = c;
		v[RD_CASE_NO_MSHR].l1_mshrs = v[RD_CASE_NO_MSHR].l1_mshr_per_warp = 0;
		for (int i = 1; i < RD_NCASES; i++) {
			rd_model *m = rd_model_new(k);
			assert_int_equal(rd_model_run(m, &v[i], 1, NULL, &one), RD_OK);
			if (one.misses != all.case_misses[i])
				fail_msg("rep %d case %d: %llu misses on its own, %llu in the breakdown", rep,
					 i, (unsigned long long)one.misses,
					 (unsigned long long)all.case_misses[i]);
			rd_result_free(&one);
			rd_model_free(m);
		}
		rd_result_free(&all);
		rd_kernel_free(k);
	}
}

/* A model kept across edits (reusing the cases an edit leaves alone)
 * gives exactly what a fresh model gives, whatever the order of edits. */
static void test_edits_match_fresh(void **state)
{
	(void)state;
	lcg g = {4242};
	rd_kernel *k = random_kernel(&g, 700, 64, 6, 400);
	rd_model *kept = rd_model_new(k);
	rd_config c;
	rd_config_default(&c);
	c.l1_line = 32;
	c.l1_size = 32 * 4 * 32;
	char e[128];
	static const char *const edits[][2] = {
		{"l1.ways", "8"},      {"l1.size", "8K"},     {"latency.miss", "40"},
		{"l1.mshrs", "16"},    {"l1.hash", "mod"},    {"l1.ways", "4"},
		{"l1.size", "4K"},     {"latency.miss", "100"}, {"l1.line", "64"},
		{"l1.line", "32"},     {"model", "reference-2013"}, {"model", "paper"},
		{"gpu.divergence", "0"}, {"latency.clip", "0"}, {"l1.mshr_per_warp", "0"},
		{"seed", "9"},         {"gpu.cores", "2"},    {"l1.hash", "xor"},
	};
	for (int step = 0; step < 60; step++) {
		const char *const *ed = edits[lcg_next(&g, sizeof edits / sizeof edits[0])];
		rd_config t = c;
		if (rd_config_set(&t, ed[0], ed[1], e, sizeof e) < 0 || rd_config_check(&t, e, sizeof e) < 0)
			continue;
		c = t;
		rd_result a, b;
		assert_int_equal(rd_model_run(kept, &c, RD_ALL_CASES, NULL, &a), RD_OK);
		rd_model *fresh = rd_model_new(k);
		assert_int_equal(rd_model_run(fresh, &c, RD_ALL_CASES, NULL, &b), RD_OK);
		rd_model_free(fresh);
		assert_memory_equal(a.cls, b.cls, sizeof a.cls);
		assert_memory_equal(a.case_misses, b.case_misses, sizeof a.case_misses);
		assert_int_equal(a.hits, b.hits);
		assert_int_equal(a.hist_len, b.hist_len);
		assert_memory_equal(a.hist, b.hist, a.hist_len * sizeof *a.hist);
		assert_int_equal(a.nsets, b.nsets);
		assert_memory_equal(a.set_misses, b.set_misses, a.nsets * sizeof *a.set_misses);
		rd_result_free(&a);
		rd_result_free(&b);
	}
	rd_model_free(kept);
	rd_kernel_free(k);
}

static void test_mshr_limits(void **state)
{
	(void)state;
	/* one warp, 32 uncoalesced misses per instruction, 4 instructions */
	rd_kernel_builder *b = rd_kernel_builder_new("unco", 32, 1, 1);
	for (uint32_t i = 0; i < 4; i++)
		for (uint32_t t = 0; t < 32; t++)
			rd_kernel_builder_add(b, t, 0, ((uint64_t)t * 64 + i) * 128, 4);
	rd_kernel *k = rd_kernel_builder_finish(b);
	rd_config c;
	rd_config_default(&c);
	c.latency_stddev = 0;
	tu_log *log = malloc(sizeof *log);
	rd_result r;
	/* at most 6 entries per warp: never more than 6 in use */
	assert_int_equal(tu_run_log(k, &c, log, &r), RD_OK);
	assert_true(r.cancels > 0);
	for (int i = 0; i < log->n; i++)
		assert_true(log->ev[i].mshrs_used <= 6);
	assert_int_equal(r.requests, 128);
	rd_result_free(&r);
	c.l1_mshr_per_warp = 0;
	c.l1_mshrs = 10;
	assert_int_equal(tu_run_log(k, &c, log, &r), RD_OK);
	for (int i = 0; i < log->n; i++)
		assert_true(log->ev[i].mshrs_used <= 10);
	rd_result_free(&r);
	free(log);
	rd_kernel_free(k);
}

static void test_determinism(void **state)
{
	(void)state;
	lcg g = {3};
	rd_kernel *k = random_kernel(&g, 512, 128, 8, 300);
	rd_config c;
	rd_config_default(&c);
	c.l1_line = 32;
	c.l1_size = 32 * 4 * 32;
	c.latency_stddev = 20;
	rd_result a, b;
	run_all(k, &c, &a);
	run_all(k, &c, &b);
	assert_int_equal(a.hist_len, b.hist_len);
	assert_memory_equal(a.hist, b.hist, a.hist_len * sizeof *a.hist);
	assert_memory_equal(a.cls, b.cls, sizeof a.cls);
	assert_int_equal(a.time_steps, b.time_steps);
	c.seed = 12345;
	rd_result d;
	run_all(k, &c, &d);
	assert_true(d.time_steps != a.time_steps || d.hist_len != a.hist_len ||
		    memcmp(d.hist, a.hist, a.hist_len * sizeof *a.hist) != 0);
	rd_result_free(&a);
	rd_result_free(&b);
	rd_result_free(&d);
	rd_kernel_free(k);
}

/* Runs that log events take every step one by one; runs that do not skip
 * over steps where blocked warps only rotate. Both must agree exactly. */
static void test_fast_forward_exact(void **state)
{
	(void)state;
	lcg g = {11};
	tu_log *log = malloc(sizeof *log);
	for (int rep = 0; rep < 60; rep++) {
		rd_kernel *k = random_kernel(&g, 64 + lcg_next(&g, 200), 32 << lcg_next(&g, 3),
					     1 + lcg_next(&g, 6), 64 + lcg_next(&g, 400));
		rd_config c;
		rd_config_default(&c);
		c.l1_line = 32;
		c.l1_size = 32 * 4 * 32;
		c.l1_mshrs = 1 + lcg_next(&g, 16);
		c.l1_mshr_per_warp = lcg_next(&g, c.l1_mshrs + 1);
		/* every third run with fills landing before a refused warp's
		 * turn comes again: its line is then updated, not in flight */
		c.latency_miss = rep % 3 ? 20 + lcg_next(&g, 100) : 1 + lcg_next(&g, 6);
		c.latency_hit = lcg_next(&g, 2);
		c.divergence = (int)lcg_next(&g, 2);
		rd_result a, b;
		assert_int_equal(tu_run_log(k, &c, log, &a), RD_OK);
		rd_model *m = rd_model_new(k);
		assert_int_equal(rd_model_run(m, &c, 1, NULL, &b), RD_OK);
		rd_model_free(m);
		assert_true(a.cancels > 0 || rep % 7); /* most runs do block */
		assert_int_equal(a.cancels, b.cancels);
		assert_int_equal(a.time_steps, b.time_steps);
		assert_int_equal(a.misses, b.misses);
		assert_int_equal(a.hist_inf, b.hist_inf);
		assert_int_equal(a.hist_len, b.hist_len);
		assert_memory_equal(a.hist, b.hist, a.hist_len * sizeof *a.hist);
		rd_result_free(&a);
		rd_result_free(&b);
		rd_kernel_free(k);
	}
	free(log);
}

/* The alias-table sampler draws the rounded half-normal: its frequencies
 * match the direct (Box-Muller) sampler's and the exact probabilities. */
static void test_halfnormal_alias(void **state)
{
	(void)state;
	static const double sigmas[] = {0.7, 5.0, 20.0};
	for (int si = 0; si < 3; si++) {
		double sigma = sigmas[si];
		rd_halfnormal h;
		assert_int_equal(halfnormal_init(&h, sigma), 0);
		assert_true(h.n > 0);
		enum { N = 400000 };
		uint32_t kmax = (uint32_t)(8 * sigma + 0.5);
		uint64_t *fa = calloc(kmax + 2, sizeof *fa), *fb = calloc(kmax + 2, sizeof *fb);
		rd_rng a, b;
		rng_seed(&a, 1, 0);
		rng_seed(&b, 2, 0);
		double mean = 0;
		for (int i = 0; i < N; i++) {
			uint32_t x = halfnormal_draw(&h, &a), y = rng_halfnormal(&b, sigma);
			assert_true(x <= kmax && y <= kmax);
			fa[x]++;
			fb[y]++;
			mean += x;
		}
		mean /= N;
		/* E[round(|Z| sigma)] is close to sigma sqrt(2/pi) for sigma >> 1 */
		if (sigma >= 5)
			assert_true(fabs(mean - sigma * 0.7978845608) < 0.02 * sigma);
		for (uint32_t k = 0; k <= kmax; k++) {
			double lo = erf((k - 0.5) / (sigma * sqrt(2.0))), hi = erf((k + 0.5) / (sigma * sqrt(2.0)));
			double pk = (k ? hi - lo : hi) * N;
			/* within 5 standard deviations of the binomial count */
			double tol = 5 * sqrt(pk + 1) + 1;
			if (fabs((double)fa[k] - pk) > tol || fabs((double)fb[k] - pk) > tol)
				fail_msg("sigma %g value %u: alias %llu, direct %llu, expected %.0f", sigma, k,
					 (unsigned long long)fa[k], (unsigned long long)fb[k], pk);
		}
		free(fa);
		free(fb);
		halfnormal_free(&h);
	}
}

typedef struct thread_check {
	pthread_t caller;
	int calls, foreign;
} thread_check;

static int note_thread(void *ctx, double f)
{
	thread_check *tc = ctx;
	(void)f;
	tc->calls++;
	if (!pthread_equal(pthread_self(), tc->caller))
		tc->foreign++;
	return 0;
}

/* Cases on several threads: the same result as on one, callbacks only on
 * the caller's thread. */
static void test_threads_same_result(void **state)
{
	(void)state;
	lcg g = {21};
	for (int rep = 0; rep < 12; rep++) {
		rd_kernel *k = random_kernel(&g, 2000 + lcg_next(&g, 4000), 128, 16, 2000);
		rd_config c;
		rd_config_default(&c);
		c.l1_line = 32;
		c.l1_size = 32 * 4 * 32;
		c.cores = 1 + lcg_next(&g, 2);
		c.model = rep % 3 == 0 ? RD_PROFILE_REF2013 : RD_PROFILE_PAPER;
		rd_result a, b;
		rd_model *m = rd_model_new(k);
		assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, NULL, &a), RD_OK);
		rd_model_set_threads(m, 1 + (int)lcg_next(&g, 4));
		thread_check tc = {.caller = pthread_self()};
		rd_callbacks cb = {.progress = note_thread, .ctx = &tc};
		assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, &cb, &b), RD_OK);
		assert_int_equal(tc.foreign, 0);
		assert_memory_equal(a.cls, b.cls, sizeof a.cls);
		assert_memory_equal(a.case_misses, b.case_misses, sizeof a.case_misses);
		assert_int_equal(a.hist_len, b.hist_len);
		assert_memory_equal(a.hist, b.hist, a.hist_len * sizeof *a.hist);
		assert_int_equal(a.time_steps, b.time_steps);
		rd_result_free(&a);
		rd_result_free(&b);
		rd_model_free(m);
		rd_kernel_free(k);
	}
}

typedef struct snaps {
	int n, bad;
	uint64_t last;
} snaps;

static void take_snapshot(void *ctx, const rd_result *r)
{
	snaps *sn = ctx;
	uint64_t h = r->hist_inf;
	for (uint32_t d = 0; d < r->hist_len; d++)
		h += r->hist[d];
	uint64_t cls = 0;
	for (int i = 0; i < RD_NCLASS; i++)
		cls += r->cls[i];
	if (!r->partial || h != r->requests || r->hits + r->misses != r->requests ||
	    cls != r->misses || r->requests <= sn->last)
		sn->bad++;
	sn->last = r->requests;
	sn->n++;
}

/* Snapshots of the as-configured case arrive while it runs, each one
 * consistent and further along; the final result is not marked partial. A
 * rerun of the same configuration is replayed without snapshots. */
static void test_partial_snapshots(void **state)
{
	(void)state;
	rd_kernel *k = flat_kernel(4096, 256, 64); /* 262144 requests */
	rd_config c;
	rd_config_default(&c);
	c.l1_line = 32;
	c.l1_size = 32 * 4 * 32;
	c.cores = 2;
	snaps sn = {0};
	rd_callbacks cb = {.partial = take_snapshot, .ctx = &sn};
	rd_model *m = rd_model_new(k);
	rd_model_set_threads(m, 2);
	rd_result r;
	assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, &cb, &r), RD_OK);
	assert_int_equal(r.partial, 0);
	assert_true(sn.n >= 3);
	assert_int_equal(sn.bad, 0);
	assert_true(sn.last <= r.requests); /* the last may fall at the very end */
	/* the same configuration again: every case replayed, final at once
	 * (no snapshots) and the same result */
	snaps again = {0};
	cb.ctx = &again;
	rd_result r2;
	assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, &cb, &r2), RD_OK);
	assert_int_equal(again.n, 0);
	assert_int_equal(r2.misses, r.misses);
	assert_memory_equal(r2.cls, r.cls, sizeof r.cls);
	assert_int_equal(r2.hist_len, r.hist_len);
	assert_memory_equal(r2.hist, r.hist, r.hist_len * sizeof *r.hist);
	assert_int_equal(r2.nsets, r.nsets);
	assert_memory_equal(r2.set_misses, r.set_misses, r.nsets * sizeof *r.set_misses);
	rd_result_free(&r2);
	/* ... also after another configuration ran in between (recent results
	 * are kept per case, not only the last) */
	rd_config b = c;
	b.latency_miss += 7;
	assert_int_equal(rd_model_run(m, &b, RD_ALL_CASES, NULL, &r2), RD_OK);
	rd_result_free(&r2);
	again.n = 0;
	assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, &cb, &r2), RD_OK);
	assert_int_equal(again.n, 0);
	assert_memory_equal(r2.cls, r.cls, sizeof r.cls);
	rd_result_free(&r2);
	rd_result_free(&r);
	rd_model_free(m);
	rd_kernel_free(k);
}

/* Cancels at its n-th call made before any request ran (stage building). */
static int cancel_in_stages(void *ctx, double f)
{
	int *left = ctx;
	return f == 0.0 && --*left == 0;
}

/* A stale run also stops while its stages are built (coalescing a big
 * trace takes a while), and the model is whole afterwards. */
static void test_cancel_in_stages(void **state)
{
	(void)state;
	rd_kernel *k = flat_kernel(1 << 18, 256, 1); /* 8192 warps */
	rd_config c;
	rd_config_default(&c);
	int left = 3; /* before coalescing, then in it after 4096 warps */
	rd_callbacks cb = {.progress = cancel_in_stages, .ctx = &left};
	rd_model *m = rd_model_new(k);
	rd_result a, b;
	assert_int_equal(rd_model_run(m, &c, 1, &cb, &a), RD_ECANCELED);
	assert_int_equal(left, 0);
	assert_int_equal(rd_model_run(m, &c, 1, NULL, &a), RD_OK);
	rd_model_free(m);
	m = rd_model_new(k);
	assert_int_equal(rd_model_run(m, &c, 1, NULL, &b), RD_OK);
	assert_int_equal(a.requests, b.requests);
	assert_int_equal(a.misses, b.misses);
	assert_int_equal(a.hist_inf, b.hist_inf);
	rd_result_free(&a);
	rd_result_free(&b);
	rd_model_free(m);
	rd_kernel_free(k);
}

static int cancel_at_once(void *ctx, double f)
{
	(*(int *)ctx)++;
	(void)f;
	return 1;
}

static void test_cancel(void **state)
{
	(void)state;
	rd_kernel *k = flat_kernel(4096, 256, 64); /* 262144 loads */
	rd_config c;
	rd_config_default(&c);
	c.l1_line = 32; /* threads 256 bytes apart: one request per load */
	c.l1_size = 32 * 4 * 32;
	int calls = 0;
	rd_callbacks cb = {.progress = cancel_at_once, .ctx = &calls};
	rd_model *m = rd_model_new(k);
	rd_result r;
	assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, &cb, &r), RD_ECANCELED);
	assert_int_equal(calls, 1);
	/* with helper threads too */
	rd_model_set_threads(m, 4);
	calls = 0;
	assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, &cb, &r), RD_ECANCELED);
	assert_int_equal(calls, 1);
	/* the model stays usable: a run without cancelling completes */
	assert_int_equal(rd_model_run(m, &c, 1, NULL, &r), RD_OK);
	assert_int_equal(r.requests, 4096 * 64);
	rd_result_free(&r);
	rd_model_free(m);
	rd_kernel_free(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash_fermi),
		cmocka_unit_test(test_hash_others),
		cmocka_unit_test(test_config_keys),
		cmocka_unit_test(test_schedule),
		cmocka_unit_test(test_sets_dense),
		cmocka_unit_test(test_classes_per_access),
		cmocka_unit_test(test_sites_sum),
		cmocka_unit_test(test_replacement_policies),
		cmocka_unit_test(test_stores_policies),
		cmocka_unit_test(test_store_instructions),
		cmocka_unit_test(test_one_set_per_access),
		cmocka_unit_test(test_coalescing),
		cmocka_unit_test(test_coalescing_mixed_sizes),
		cmocka_unit_test(test_stack_window),
		cmocka_unit_test(test_stack_compact),
		cmocka_unit_test(test_ref2013_window_cases),
		cmocka_unit_test(test_engine_vs_naive),
		cmocka_unit_test(test_single_thread_equals_lru_cache),
		cmocka_unit_test(test_timing_properties),
		cmocka_unit_test(test_zero_latency_is_core_model),
		cmocka_unit_test(test_cases_match_own_runs),
		cmocka_unit_test(test_edits_match_fresh),
		cmocka_unit_test(test_mshr_limits),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_fast_forward_exact),
		cmocka_unit_test(test_halfnormal_alias),
		cmocka_unit_test(test_threads_same_result),
		cmocka_unit_test(test_partial_snapshots),
		cmocka_unit_test(test_cancel),
		cmocka_unit_test(test_cancel_in_stages),
	};
	return cmocka_run_group_tests_name("model", tests, NULL, NULL);
}
