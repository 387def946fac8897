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
	assert_int_equal(rd_key_count(), 69);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys_defaults),
		cmocka_unit_test(test_keys_rows),
		cmocka_unit_test(test_keys_set_get),
		cmocka_unit_test(test_keys_check),
		cmocka_unit_test(test_keys_equal),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
