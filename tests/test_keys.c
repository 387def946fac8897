/*
 * The model's key table (model/config.c) and what is generated from it:
 * defaults, set/get, rd_config_equal and the range checks.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rdscope.h"

static char e[512];

/* The defaults the table gives are the paper's Fermi configuration. */
static void test_keys_defaults(void **state)
{
	(void)state;
	rd_config c, want;
	memset(&c, 0x5a, sizeof c);
	rd_config_default(&c);
	memset(&want, 0, sizeof want);
	want.model = RD_PROFILE_PAPER;
	want.l1_size = 16384;
	want.l1_line = 128;
	want.l1_ways = 4;
	want.l1_hash = RD_HASH_FERMI;
	want.l1_mshrs = 64;
	want.l1_mshr_per_warp = 6;
	want.latency_miss = 100;
	want.latency_stddev = 5.0;
	want.latency_clip = want.divergence = 1;
	want.warp_size = 32;
	want.cores = 1;
	want.max_active_threads = 1536;
	want.max_active_blocks = 8;
	want.block_mapping = RD_MAP_RR;
	want.seed = 1;
	/* RDGC's keys (seed 001) at the values that leave the paper as it was */
	want.l1_banks = want.l1_mshr_sets = 1;
	want.schedulers = 2;
	want.latency_model = RD_LATENCY_FIXED;
	want.latency_k1 = 2.0;
	want.latency_k2 = 0.25;
	want.l2_size = 0; /* no L2 */
	want.l2_line = 128;
	want.l2_ways = 8;
	want.l2_hash = RD_HASH_MOD;
	want.l2_stores = RD_STORES_ALLOCATE;
	want.l2_partitions = want.l2_banks = want.l2_mshr_sets = 1;
	want.latency_l2 = 1;
	/* DRAM (seed 002): off; our default mapping (bits 3-10 column, 11-12
	 * channel, 13-16 bank, 17-47 row) and the K80's latencies */
	want.dram_enable = 0;
	want.dram_col_mask = 0x7f8;
	want.dram_channel_mask = 0x1800;
	want.dram_bank_mask = 0x1e000;
	want.dram_row_mask = 0xfffffffe0000ull;
	want.tex_size = 12288; /* memory spaces (seed 002) */
	want.tex_line = 32;
	want.tex_ways = 4;
	want.const_size = 8192;
	want.const_line = 64;
	want.const_ways = 4;
	want.smem_size = 49152;
	want.smem_banks = 32;
	want.smem_bank_width = 4;
	want.dram_row_hit = 352;
	want.dram_row_miss = 742;
	want.dram_row_conflict = 1008;
	want.dram_ns_per_step = 1;
	/* Every byte: the rest (smod's shift, padding) is zero. */
	assert_memory_equal(&c, &want, sizeof c);
	assert_true(rd_config_equal(&c, &want));
	assert_int_equal(rd_config_check(&c, e, sizeof e), 0);
}

/* Every row is whole: its default sets and reads back as written, its
 * field has the size of its type, an enum's choices are its names. */
static void test_keys_rows(void **state)
{
	(void)state;
	/* (the count is the table's: no second list of keys to keep) */
	size_t rows = 0;
	while (rd_keys[rows].name)
		rows++;
	assert_int_equal(rd_key_count(), rows);
	assert_true(rows > 60);
	for (size_t i = 0; i < rd_key_count(); i++) {
		const rd_key *k = &rd_keys[i];
		assert_non_null(k->name);
		assert_ptr_equal(rd_key_find(k->name), k);
		assert_non_null(k->help);
		assert_non_null(k->unit);
		assert_non_null(k->def);
		assert_true(k->offset + k->size <= sizeof(rd_config));
		rd_config c;
		memset(&c, 0, sizeof c);
		char v[64];
		if (rd_config_set(&c, k->name, k->def, e, sizeof e) != 0)
			fail_msg("%s: default '%s' refused: %s", k->name, k->def, e);
		assert_int_equal(rd_config_get(&c, k->name, v, sizeof v), 0);
		assert_string_equal(v, k->def);
		switch (k->type) {
		case RD_KEY_UINT:
			assert_true(k->size == 4 || k->size == 8);
			break;
		case RD_KEY_DOUBLE:
			assert_int_equal(k->size, sizeof(double));
			break;
		case RD_KEY_BOOL:
		case RD_KEY_ENUM:
			assert_int_equal(k->size, sizeof(int));
			break;
		}
		if (k->max)
			assert_true(k->max >= k->min);
		if (k->type != RD_KEY_ENUM) {
			assert_null(k->choices);
			continue;
		}
		/* "a|b|c:N|d" from the names, ":N" after the one with an argument */
		char joined[256] = "";
		for (int j = 0; j < k->nnames; j++) {
			size_t n = strlen(joined);
			snprintf(joined + n, sizeof joined - n, "%s%s%s", j ? "|" : "", k->names[j],
				 k->arg_name && j == k->arg_choice ? ":N" : "");
		}
		assert_string_equal(joined, k->choices);
	}
	assert_null(rd_keys[rd_key_count()].name);
}

/* Set and get over each kind of key, with the messages of refusals. */
static void test_keys_set_get(void **state)
{
	(void)state;
	rd_config c;
	char v[64];
	rd_config_default(&c);
	static const char *const ok[][3] = {
		{"l1.hash", "smod:7", "smod:7"},	{"l1.hash", "prime", "prime"},
		{"model", "reference-2013", "reference-2013"}, {"seed", "0x10", "16"},
		{"seed", "18446744073709551615", "18446744073709551615"},
		{"latency.clip", "off", "0"},		{"gpu.divergence", "true", "1"},
		{"latency.stddev", "2.5", "2.5"},	{"l1.size", "1M", "1048576"},
		{"gpu.block_mapping", "bpart8", "bpart8"}, {"gpu.warp_size", "5000", "5000"},
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		assert_int_equal(rd_config_set(&c, ok[i][0], ok[i][1], e, sizeof e), 0);
		assert_int_equal(rd_config_get(&c, ok[i][0], v, sizeof v), 0);
		assert_string_equal(v, ok[i][2]);
	}
	assert_int_equal(c.l1_hash_shift, 7); /* prime after smod:7 leaves the shift */
	static const char *const bad[][3] = {
		{"l1.hash", "smod:64", "l1.hash: smod:N needs a shift N from 0 to 63 (got 'smod:64')"},
		{"l1.hash", "smod", "l1.hash: must be one of mod|xor|fermi|smod:N|prime (got 'smod')"},
		{"seed", "x", "seed: not an unsigned integer (got 'x')"},
		{"gpu.cores", "4G", "gpu.cores: not an unsigned integer below 2^32 (got '4G')"},
		{"gpu.cores", "0", "gpu.cores: must be >= 1 (got 0)"},
		{"l1.line", "0", "l1.line: must be >= 1 (got 0)"},
		{"l1.line", "48", "l1.line: must be a power of two (got 48)"},
		{"latency.stddev", "-0.5", "latency.stddev: must be >= 0 (got -0.5)"},
		{"latency.stddev", "inf", "latency.stddev: not a number (got 'inf')"},
		{"latency.clip", "yes", "latency.clip: must be 0 or 1 (got 'yes')"},
		{"l1.sets", "2", "l1.sets: unknown key"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(rd_config_set(&c, bad[i][0], bad[i][1], e, sizeof e), -1);
		assert_string_equal(e, bad[i][2]);
	}
	assert_int_equal(rd_config_get(&c, "l1.sets", v, sizeof v), -1);
	assert_int_equal(rd_config_get(&c, "seed", v, 20), -1); /* 20 digits need 21 bytes */
	c.l1_hash = (enum rd_hash)9;
	assert_int_equal(rd_config_get(&c, "l1.hash", v, sizeof v), 0);
	assert_string_equal(v, "?");
}

/* rd_config_check refuses c with msg; then c is the defaults again. */
static void check_fails(rd_config *c, const char *msg)
{
	assert_int_equal(rd_config_check(c, e, sizeof e), -1);
	assert_string_equal(e, msg);
	rd_config_default(c);
}

/* The whole-configuration checks: ranges from the table, in table order,
 * the problems between keys where their key stands. */
static void test_keys_check(void **state)
{
	(void)state;
	static const struct {
		const char *set[3];
		const char *msg;
	} cases[] = {
		{{"gpu.warp_size=2000"}, "gpu.warp_size: must be between 1 and 1024 (got 2000)"},
		{{"gpu.cores=4097"}, "gpu.cores: must be between 1 and 4096 (got 4097)"},
		{{"latency.hit=1073741825"}, "latency.hit: must be at most 1073741824 (got 1073741825)"},
		{{"latency.miss=1073741824"},
		 "latency.miss + 8 * latency.stddev: must be at most 1073741824 (got 1073741864)"},
		{{"l1.mshr_per_warp=65"}, "l1.mshr_per_warp: 65 is more than l1.mshrs (64)"},
		{{"l1.size=16000"},
		 "l1.size: 16000 bytes is not a whole number of sets of 4 ways x 128-byte lines"},
		{{"l1.size=256"}, "l1.size: 256 bytes is smaller than one set (4 ways x 128-byte lines)"},
		{{"l1.ways=8"}, "l1.hash: fermi needs 32 or 64 sets (this cache has 16)"},
		{{"l1.size=12288", "l1.hash=xor"},
		 "l1.hash: xor needs a power-of-two number of sets (this cache has 24)"},
		/* several problems: the first in table order */
		{{"l1.size=16000", "gpu.cores=5000"},
		 "l1.size: 16000 bytes is not a whole number of sets of 4 ways x 128-byte lines"},
		{{"l1.mshr_per_warp=65", "gpu.warp_size=2000"},
		 "l1.mshr_per_warp: 65 is more than l1.mshrs (64)"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		rd_config c;
		rd_config_default(&c);
		for (int j = 0; j < 3 && cases[i].set[j]; j++) {
			char key[64];
			const char *eq = strchr(cases[i].set[j], '=');
			snprintf(key, sizeof key, "%.*s", (int)(eq - cases[i].set[j]), cases[i].set[j]);
			assert_int_equal(rd_config_set(&c, key, eq + 1, e, sizeof e), 0);
		}
		check_fails(&c, cases[i].msg);
	}
	/* Fields set directly: a key a problem between keys depends on is
	 * named first, whatever the other's row. */
	rd_config c;
	rd_config_default(&c);
	c.l1_line = 96;
	c.l1_size = 1000;
	check_fails(&c, "l1.line: must be a power of two (got 96)");
	c.l1_ways = 0;
	check_fails(&c, "l1.ways: must be >= 1 (got 0)");
	c.l1_size = 0;
	check_fails(&c, "l1.size: 0 bytes is smaller than one set (4 ways x 128-byte lines)");
	c.latency_stddev = NAN;
	c.latency_miss = RD_MAX_LATENCY;
	check_fails(&c, "latency.stddev: must be a finite number >= 0");
	c.l1_hash = RD_HASH_SMOD;
	c.l1_hash_shift = 64;
	check_fails(&c, "l1.hash: smod shift must be <= 63 (got 64)");
	c.max_active_blocks = 0;
	check_fails(&c, "gpu.max_active_blocks: must be >= 1 (got 0)");
}

/* rd_config_equal: field by field, as the keys' text would compare. */
static void test_keys_equal(void **state)
{
	(void)state;
	rd_config a, b;
	rd_config_default(&a);
	rd_config_default(&b);
	assert_true(rd_config_equal(&a, &b));
	/* Each key changed alone makes a difference. */
	for (const rd_key *k = rd_keys; k->name; k++) {
		static const char *const other[] = {"reference-2013", "0", "1", "2", "3", "mod", "random", "0.5",
						    "per-access", "fifo", "evict", "bypass", "xor", "adaptive",
						    "miss", "loads", "gto"};
		char was[64], now[64];
		rd_config_get(&a, k->name, was, sizeof was);
		int changed = 0;
		for (size_t i = 0; i < sizeof other / sizeof other[0] && !changed; i++) {
			b = a;
			if (rd_config_set(&b, k->name, other[i], e, sizeof e) == 0) {
				rd_config_get(&b, k->name, now, sizeof now);
				changed = strcmp(was, now) != 0;
			}
		}
		assert_true(changed);
		if (rd_config_equal(&a, &b))
			fail_msg("%s: %s and %s compare equal", k->name, was, now);
		assert_false(rd_config_equal(&b, &a));
	}
	/* What the text does not show does not count: smod's shift under
	 * another hash, a boolean's other true values; doubles are exact. */
	b = a;
	b.l1_hash_shift = 9;
	assert_true(rd_config_equal(&a, &b));
	a.l1_hash = b.l1_hash = RD_HASH_SMOD;
	assert_false(rd_config_equal(&a, &b));
	a.l1_hash_shift = 9;
	assert_true(rd_config_equal(&a, &b));
	b.latency_clip = 7;
	assert_true(rd_config_equal(&a, &b));
	b.latency_stddev = nextafter(a.latency_stddev, 10.0);
	assert_false(rd_config_equal(&a, &b));
}

/* Every row says where its key acts: at least one stage, profiles among
 * the three, a condition on a key that exists with a value it takes, and
 * RDGC's default one the key takes. */
static void test_keys_facts(void **state)
{
	(void)state;
	for (const rd_key *k = rd_keys; k->name; k++) {
		if (!k->stages || (k->stages & ~RD_STAGES_ALL))
			fail_msg("%s: stages 0x%x", k->name, k->stages);
		assert_true((k->profiles & ~7u) == 0);
		rd_config c;
		rd_config_default(&c);
		if (k->def_rdgc && rd_config_set(&c, k->name, k->def_rdgc, e, sizeof e) != 0)
			fail_msg("%s: def_rdgc '%s' refused: %s", k->name, k->def_rdgc, e);
		/* each of its conditions ('|' between them) names another key
		 * and a value it takes */
		for (const char *w = k->when; w;) {
			const char *bar = strchr(w, '|');
			char one[128], key[64];
			snprintf(one, sizeof one, "%.*s", (int)(bar ? bar - w : (long)strlen(w)), w);
			w = bar ? bar + 1 : NULL;
			const char *eq = strchr(one, '=');
			assert_non_null(eq);
			size_t n = (size_t)(eq - one) - (eq > one && eq[-1] == '!');
			assert_true(n < sizeof key);
			memcpy(key, one, n);
			key[n] = '\0';
			if (!rd_key_find(key) || rd_key_find(key) == k)
				fail_msg("%s: condition '%s' names no other key", k->name, one);
			if (rd_config_set(&c, key, eq + 1, e, sizeof e) != 0)
				fail_msg("%s: condition '%s': %s", k->name, one, e);
		}
	}
	/* model=rdgc moves the keys still at the paper's defaults to RDGC's,
	 * and back */
	rd_config c, d;
	rd_config_default(&c);
	assert_int_equal(rd_config_set(&c, "model", "rdgc", e, sizeof e), 0);
	for (const rd_key *k = rd_keys; k->name; k++) {
		char v[64];
		rd_config_get(&c, k->name, v, sizeof v);
		if (k->def_rdgc)
			assert_string_equal(v, k->def_rdgc);
	}
	assert_int_equal(rd_config_set(&c, "model", "paper", e, sizeof e), 0);
	rd_config_default(&d);
	assert_true(rd_config_equal(&c, &d));
	for (int s = 0; s < RD_NSTAGES; s++)
		assert_non_null(rd_stage_name((enum rd_stage)s));
	assert_null(rd_stage_name(RD_NSTAGES));
}

/* A small kernel with loads and stores over several blocks, so that every
 * stage has work: 4 blocks of 32 threads; each warp reads 80 lines of its
 * own twice (a core's two warps 160 lines, more than the L1 holds, so the
 * second pass misses in the L1 and finds some in the L2) and writes a
 * line every fourth load. */
static rd_kernel *facts_kernel(void)
{
	rd_kernel_builder *b = rd_kernel_builder_new("facts", 32, 1, 1);
	for (uint32_t t = 0; t < 128; t++)
		for (uint32_t i = 0; i < 112; i++) {
			uint64_t a = 0x10000 + (uint64_t)(i % 56) * 1024 + (uint64_t)(t / 32) * 128 +
				     (uint64_t)(t % 32) * 4;
			rd_kernel_builder_add(b, t, 0, a, 4);
			if (i % 4 == 3)
				rd_kernel_builder_add(b, t, 1, 0x100000 + (uint64_t)t * 4 + i * 512, 4);
		}
	return rd_kernel_builder_finish(b);
}

/* The bases a key is tried from: the paper's with an L2 and DRAM, RDGC's
 * with the same (adaptive latency), the reference's, and the paper's with
 * write-evict stores and blocks mapped at random, and the paper's with a
 * unified L1. */
static void facts_base(rd_config *c, int which)
{
	rd_config_default(c);
	c->cores = 2;
	c->stores = RD_STORES_ALLOCATE;
	c->l1_hash = RD_HASH_XOR; /* (fermi takes 32 or 64 sets only) */
	c->l2_hash = RD_HASH_XOR;
	if (which == 2) {
		c->stores = RD_STORES_IGNORE;
		assert_int_equal(rd_config_set(c, "model", "reference-2013", e, sizeof e), 0);
		return;
	}
	if (which == 1) {
		assert_int_equal(rd_config_set(c, "model", "rdgc", e, sizeof e), 0);
		c->l1_banks = 2;
	}
	c->l2_size = 32768; /* (16 sets a bank: the second pass hits in part) */
	c->l2_partitions = 2;
	c->dram_enable = 1;
	if (which == 4) { /* a unified L1 (Hopper's 256 KB) */
		assert_int_equal(rd_config_set(c, "l1.unified", "262144", e, sizeof e), 0);
		assert_int_equal(rd_config_set(c, "l1.carveout", "233472", e, sizeof e), 0);
		/* ... with sectors in the L1 and the L2 (Hopper's 32 bytes) */
		assert_int_equal(rd_config_set(c, "l1.sector", "32", e, sizeof e), 0);
		assert_int_equal(rd_config_set(c, "l2.sector", "32", e, sizeof e), 0);
	}
	if (which == 3) { /* write-evict, per-access classes, random mapping */
		c->stores = RD_STORES_EVICT;
		c->classes = RD_CLASSES_PER_ACCESS;
		c->block_mapping = RD_MAP_RANDOM;
	}
	if (rd_config_check(c, e, sizeof e) != 0)
		fail_msg("base %d: %s", which, e);
}

/* Other values of key k from c's that the whole configuration takes:
 * up to max texts into out. */
static int facts_others(const rd_config *c, const rd_key *k, char out[][64], int max)
{
	char now[64];
	rd_config_get(c, k->name, now, sizeof now);
	const char *cand[16];
	char num[10][64];
	int nc = 0;
	if (k->type == RD_KEY_ENUM) {
		for (int j = 0; j < k->nnames && nc < 16; j++)
			cand[nc++] = k->names[j];
		if (k->arg_name) { /* smod:N */
			snprintf(num[0], sizeof num[0], "%s:3", k->names[k->arg_choice]);
			cand[nc++] = num[0];
		}
	} else if (k->type == RD_KEY_BOOL) {
		cand[nc++] = "0";
		cand[nc++] = "1";
	} else {
		double v = strtod(now, NULL);
		const double f[] = {2, 0.5, 0, 1, 4, 3, 1, 1, 1};
		for (int j = 0; j < 9; j++) {
			double x = j == 2 ? 0 : j == 3 ? v + 1 : v * f[j];
			if (j == 5)
				x = v + 256;
			if (j == 6) /* (a sector or a small size from 0) */
				x = v + 32;
			if (j == 7) /* (a unified array from 0) */
				x = v + 262144;
			if (j == 8) /* (a carve-out from 0) */
				x = v + 65536;
			if (k->type == RD_KEY_UINT)
				snprintf(num[j], sizeof num[j], "%llu", (unsigned long long)x);
			else
				snprintf(num[j], sizeof num[j], "%g", x);
			cand[nc++] = num[j];
		}
	}
	int n = 0;
	for (int j = 0; j < nc && n < max; j++) {
		rd_config t = *c;
		char got[64];
		if (rd_config_set(&t, k->name, cand[j], e, sizeof e) != 0 ||
		    rd_config_check(&t, e, sizeof e) != 0)
			continue;
		rd_config_get(&t, k->name, got, sizeof got);
		if (!strcmp(got, now))
			continue;
		int dup = 0;
		for (int i = 0; i < n; i++)
			dup |= !strcmp(out[i], got);
		if (!dup)
			snprintf(out[n++], 64, "%s", got);
	}
	return n;
}

static void facts_same_result(const rd_result *a, const rd_result *b, const char *what)
{
	if (a->misses != b->misses || a->hits != b->hits || a->requests != b->requests ||
	    memcmp(a->cls, b->cls, sizeof a->cls) || a->time_steps != b->time_steps ||
	    a->store_hits != b->store_hits || a->has_l2 != b->has_l2 ||
	    a->l2.misses != b->l2.misses || a->l2.hits != b->l2.hits ||
	    a->l2.sector_lookups != b->l2.sector_lookups || a->l2.sector_hits != b->l2.sector_hits ||
	    a->sector_lookups != b->sector_lookups || a->sector_hits != b->sector_hits ||
	    a->l2.hist_len != b->l2.hist_len ||
	    (a->l2.hist_len && memcmp(a->l2.hist, b->l2.hist, a->l2.hist_len * sizeof *a->l2.hist)) ||
	    a->has_dram != b->has_dram || a->dram.row_hits != b->dram.row_hits ||
	    a->dram.row_conflicts != b->dram.row_conflicts ||
	    memcmp(&a->dram.service_time, &b->dram.service_time, sizeof(double)) ||
	    memcmp(&a->dram.latency, &b->dram.latency, sizeof(double)) ||
	    memcmp(&a->dram.amat, &b->dram.amat, sizeof(double)) ||
	    memcmp(a->case_misses, b->case_misses, sizeof a->case_misses) ||
	    a->hist_len != b->hist_len ||
	    (a->hist_len && memcmp(a->hist, b->hist, a->hist_len * sizeof *a->hist)))
		fail_msg("%s: a kept stage gave another result than a cold run", what);
}

/* Changing any key reruns no stage before the first its row names, and
 * gives what a cold run of the new configuration gives (a stage whose key
 * is missing from its rows would return a stale result). */
static void test_keys_stages(void **state)
{
	(void)state;
	rd_kernel *k = facts_kernel();
	assert_non_null(k);
	int tried = 0;
	for (const rd_key *key = rd_keys; key->name; key++) {
		if (key->flags & RD_KEY_SPACES)
			continue; /* no placements here: test_spaces */
		int tried_before = tried;
		for (int which = 0; which < 5; which++) {
			rd_config base;
			facts_base(&base, which);
			if (!rd_key_applies(&base, key, e, sizeof e))
				continue;
			char alt[8][64];
			int n = facts_others(&base, key, alt, 8);
			rd_model *warm = rd_model_new(k);
			rd_result r0;
			assert_int_equal(rd_model_run(warm, &base, RD_ALL_CASES, NULL, &r0), RD_OK);
			rd_result_free(&r0);
			for (int j = 0; j < n; j++) {
				rd_config c = base;
				assert_int_equal(rd_config_set(&c, key->name, alt[j], e, sizeof e), 0);
				uint64_t before[RD_NSTAGES], after[RD_NSTAGES];
				rd_model_stage_runs(warm, before);
				rd_result rw, rc;
				assert_int_equal(rd_model_run(warm, &c, RD_ALL_CASES, NULL, &rw), RD_OK);
				rd_model_stage_runs(warm, after);
				rd_model *cold = rd_model_new(k);
				assert_int_equal(rd_model_run(cold, &c, RD_ALL_CASES, NULL, &rc), RD_OK);
				char what[1024];
				snprintf(what, sizeof what, "%s=%s (base %d)", key->name, alt[j], which);
				facts_same_result(&rw, &rc, what);
				int first = __builtin_ctz(key->stages);
				for (int s = 0; s < first; s++)
					if (s != RD_STAGE_SPACES && after[s] != before[s])
						fail_msg("%s reran %s, before its first stage %s", what,
							 rd_stage_name(s), rd_stage_name(first));
				rd_result_free(&rw);
				rd_result_free(&rc);
				rd_model_free(cold);
				/* back to the base: a kept result serves it again */
				assert_int_equal(rd_model_run(warm, &base, RD_ALL_CASES, NULL, &rw), RD_OK);
				rd_result_free(&rw);
				tried++;
			}
			rd_model_free(warm);
		}
		if (tried == tried_before)
			fail_msg("%s: no other value tried from any base", key->name);
	}
	assert_true(tried > 100);
	rd_kernel_free(k);
}

/* A key that does not apply (its profile does not model it, or its
 * condition does not hold) can take another value only where
 * rd_config_check refuses it or the result is the same: on random
 * configurations of the three profiles. */
static void test_keys_applies(void **state)
{
	(void)state;
	rd_kernel *k = facts_kernel();
	uint64_t seed = 12345;
	int ignored = 0;
	for (int round = 0; round < 24; round++) {
		rd_config base;
		facts_base(&base, round % 5);
		/* a few random keys of the base changed first */
		for (int j = 0; j < 4; j++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			const rd_key *key = &rd_keys[(seed >> 33) % rd_key_count()];
			char alt[8][64];
			int n = facts_others(&base, key, alt, 8);
			if (n)
				assert_int_equal(rd_config_set(&base, key->name, alt[(seed >> 40) % n], e,
							       sizeof e), 0);
		}
		rd_result r0;
		rd_model *m = rd_model_new(k);
		assert_int_equal(rd_model_run(m, &base, RD_ALL_CASES, NULL, &r0), RD_OK);
		for (const rd_key *key = rd_keys; key->name; key++) {
			char why[64];
			if (rd_key_applies(&base, key, why, sizeof why) || (key->flags & RD_KEY_SPACES))
				continue;
			assert_true(why[0] != '\0');
			char alt[8][64];
			int n = facts_others(&base, key, alt, 8);
			for (int j = 0; j < n; j++) {
				rd_config c = base;
				rd_result r;
				assert_int_equal(rd_config_set(&c, key->name, alt[j], e, sizeof e), 0);
				assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, NULL, &r), RD_OK);
				char what[1024];
				snprintf(what, sizeof what, "%s=%s %s (round %d)", key->name, alt[j], why,
					 round);
				facts_same_result(&r, &r0, what);
				rd_result_free(&r);
				ignored++;
			}
		}
		rd_result_free(&r0);
		rd_model_free(m);
	}
	assert_true(ignored > 50);
	rd_kernel_free(k);
}

/* A key with two conditions applies when either holds: RDGC's adaptive
 * latency reads the L2's partitions and banks with no L2 (the applies
 * test above found a run that changed with l2.partitions "off"). */
static void test_keys_when_any(void **state)
{
	(void)state;
	rd_config c;
	char why[64];
	rd_config_default(&c);
	const rd_key *k = rd_key_find("l2.partitions");
	assert_non_null(k);
	assert_int_equal(rd_key_applies(&c, k, why, sizeof why), 0);
	assert_string_equal(why, "(l2.size 0: off)");
	assert_int_equal(rd_config_set(&c, "model", "rdgc", e, sizeof e), 0);
	assert_int_equal(rd_config_set(&c, "latency.model", "adaptive", e, sizeof e), 0);
	assert_int_equal(rd_key_applies(&c, k, why, sizeof why), 1);
	assert_string_equal(why, "");
	assert_int_equal(rd_key_applies(&c, rd_key_find("l2.banks"), why, sizeof why), 1);
	assert_int_equal(rd_key_applies(&c, rd_key_find("l2.ways"), why, sizeof why), 0);
}

/* A unified L1: the carve-out (shared memory's part, as ncu prints it)
 * leaves the L1 the rest, with the ways following and the sets kept; a
 * carve-out the GPU does not offer is refused with the list. */
static void test_keys_carveout(void **state)
{
	(void)state;
	rd_config c;
	rd_config_default(&c);
	/* the H100's 256 KB array in 4 sets of 128-byte lines */
	assert_int_equal(rd_config_set(&c, "l1.size", "196608", e, sizeof e), 0);
	assert_int_equal(rd_config_set(&c, "l1.ways", "384", e, sizeof e), 0);
	assert_int_equal(rd_config_set(&c, "l1.hash", "mod", e, sizeof e), 0);
	assert_int_equal(rd_config_set(&c, "l1.unified", "262144", e, sizeof e), 0);
	assert_int_equal(c.l1_size, 262144); /* no shared memory yet */
	assert_int_equal(c.l1_ways, 512);
	const struct { const char *carve; uint32_t size, ways; } h100[] = {
		{"16384", 245760, 480}, /* carve-out 0 %: 240 KB, 1,920 lines */
		{"65536", 196608, 384}, /* 25 %: 192 KB */
		{"233472", 28672, 56},  /* 100 %: 28 KB, 224 lines */
	};
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(rd_config_set(&c, "l1.carveout", h100[i].carve, e, sizeof e), 0);
		assert_int_equal(c.l1_size, h100[i].size);
		assert_int_equal(c.l1_ways, h100[i].ways);
		assert_int_equal(rd_config_sets(&c), 4);
		if (rd_config_check(&c, e, sizeof e) != 0)
			fail_msg("carve-out %s: %s", h100[i].carve, e);
	}
	/* a size Hopper does not offer: refused, with the ones it does */
	assert_int_equal(rd_config_set(&c, "l1.carveout", "131072", e, sizeof e), 0);
	assert_int_equal(rd_config_check(&c, e, sizeof e), -1);
	assert_string_equal(e, "l1.carveout: a 262144-byte unified L1 offers 0, 8192, 16384, 32768, "
			       "65536, 102400, 135168, 167936, 200704, 233472 (got 131072)");
	/* l1.size set apart from the carve-out: said */
	assert_int_equal(rd_config_set(&c, "l1.carveout", "65536", e, sizeof e), 0);
	assert_int_equal(rd_config_set(&c, "l1.size", "98304", e, sizeof e), 0);
	assert_int_equal(rd_config_set(&c, "l1.ways", "192", e, sizeof e), 0);
	assert_int_equal(rd_config_check(&c, e, sizeof e), -1);
	assert_non_null(strstr(e, "l1.carveout: the L1 is l1.unified - l1.carveout = 196608 bytes"));
	/* a carve-out without a unified L1 */
	rd_config_default(&c);
	assert_int_equal(rd_config_set(&c, "l1.carveout", "8192", e, sizeof e), 0);
	assert_int_equal(rd_config_check(&c, e, sizeof e), -1);
	assert_non_null(strstr(e, "needs a unified L1"));
	/* Volta's and Ampere's lists; another size takes any carve-out below it */
	uint32_t v[16];
	assert_int_equal(rd_l1_carveouts(128 * 1024, v, 16), 6);
	assert_int_equal(v[5], 96 * 1024);
	assert_int_equal(rd_l1_carveouts(192 * 1024, v, 16), 8);
	assert_int_equal(v[7], 164 * 1024);
	assert_int_equal(rd_l1_carveouts(64 * 1024, v, 16), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys_defaults),
		cmocka_unit_test(test_keys_rows),
		cmocka_unit_test(test_keys_set_get),
		cmocka_unit_test(test_keys_check),
		cmocka_unit_test(test_keys_equal),
		cmocka_unit_test(test_keys_facts),
		cmocka_unit_test(test_keys_stages),
		cmocka_unit_test(test_keys_applies),
		cmocka_unit_test(test_keys_when_any),
		cmocka_unit_test(test_keys_carveout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
