/* Memory spaces per array (seed 002, notes §B3.2): Figure 2's addressing
 * instructions, the shared-memory replay rule on crafted warps (stride 1,
 * 2, 32, broadcast), constant-memory broadcast and serialisation, the
 * refused placements, the mem.* keys, texture2d's tiles and the routing
 * out of the L1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "testutil.h"
#include "internal.h"

static char e[256];

static void set(rd_config *c, const char *k, const char *v)
{
	if (rd_config_set(c, k, v, e, sizeof e) != 0)
		fail_msg("%s=%s: %s", k, v, e);
}

/* A one-warp kernel (32 threads) over arrays A (4 KiB at 0x100000), B (4
 * KiB at 0x200000), V (4 KiB at 0x300000, 2D: 32 floats a row): thread t
 * loads A[t] and B[t], then the loads of extra (addr of lane t, or 0 for
 * none), and stores V[t] when stores. */
static rd_kernel *vadd(int stores, uint64_t (*extra)(uint32_t t, int i), int nextra)
{
	rd_kernel_builder *b = rd_kernel_builder_new("vadd", 32, 1, 1);
	assert_non_null(b);
	for (uint32_t t = 0; t < 32; t++) {
		assert_int_equal(rd_kernel_builder_add(b, t, 0, 0x100000 + 4 * t, 4), 0);
		assert_int_equal(rd_kernel_builder_add(b, t, 0, 0x200000 + 4 * t, 4), 0);
		for (int i = 0; i < nextra; i++)
			assert_int_equal(rd_kernel_builder_add(b, t, 0, extra(t, i), 4), 0);
		if (stores)
			assert_int_equal(rd_kernel_builder_add(b, t, 1, 0x300000 + 4 * t, 4), 0);
	}
	rd_kernel *k = rd_kernel_builder_finish(b);
	assert_non_null(k);
	rd_arrays *as = rd_arrays_new();
	assert_int_equal(rd_arrays_add(as, "A", 0x100000, 4096, 4, 0, NULL), 0);
	assert_int_equal(rd_arrays_add(as, "B", 0x200000, 4096, 4, 0, NULL), 0);
	assert_int_equal(rd_arrays_add(as, "V", 0x300000, 4096, 4, 32, NULL), 0);
	rd_kernel_set_arrays(k, as);
	return k;
}

static void run(const rd_kernel *k, const rd_config *c, rd_result *r)
{
	rd_model *m = rd_model_new(k);
	assert_non_null(m);
	int rc = rd_model_run(m, c, 1 << RD_CASE_FULL, NULL, r);
	rd_model_free(m);
	assert_int_equal(rc, RD_OK);
}

/* Figure 2: v = a + b with a moved; addressing instructions per access
 * (one warp instruction per access here): global 2, texture 0, constant
 * 1, shared 1. */
static void test_figure2_counts(void **state)
{
	(void)state;
	static const struct {
		const char *space;
		enum rd_space sp;
		uint64_t per;
	} want[] = {{"global", RD_SPACE_GLOBAL, 2}, {"texture", RD_SPACE_TEXTURE, 0},
		    {"constant", RD_SPACE_CONSTANT, 1}, {"shared", RD_SPACE_SHARED, 1}};
	rd_kernel *k = vadd(1, NULL, 0);
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		rd_config c;
		rd_config_default(&c);
		set(&c, "mem.A", want[i].space);
		rd_result r;
		run(k, &c, &r);
		assert_true(r.has_spaces);
		const rd_space_stats *s = &r.spaces[want[i].sp];
		uint64_t g = want[i].sp == RD_SPACE_GLOBAL ? 2 : 1; /* B is global */
		assert_int_equal(s->instructions, g);
		assert_int_equal(s->address_instructions, g * want[i].per);
		if (want[i].sp != RD_SPACE_GLOBAL) {
			assert_int_equal(r.spaces[RD_SPACE_GLOBAL].instructions, 1);
			assert_int_equal(r.spaces[RD_SPACE_GLOBAL].address_instructions, 2);
		}
		rd_result_free(&r);
	}
	rd_kernel_free(k);
}

/* Eq. 3: the change in issued instructions against every array global.
 * A in constant memory: 32 distinct addresses (31 replays) and two
 * misses (A's 128 bytes are two 64-byte lines: two more) instead of one
 * coalesced line (no replay); 1 addressing instruction instead of 2. */
static void test_eq3(void **state)
{
	(void)state;
	rd_kernel *k = vadd(0, NULL, 0);
	rd_config c;
	rd_config_default(&c);
	set(&c, "mem.A", "constant");
	rd_result r;
	run(k, &c, &r);
	assert_int_equal(r.delta_address, -1);
	assert_int_equal(r.delta_replays, 33);
	assert_int_equal(r.issued_delta, 32);
	assert_int_equal(r.warps, 1);
	rd_result_free(&r);
	set(&c, "mem.A", "global");
	run(k, &c, &r);
	assert_int_equal(r.issued_delta, 0);
	assert_int_equal(r.delta_address, 0);
	rd_result_free(&r);
	set(&c, "mem.A", "shared"); /* stride 1: no conflict; 1 addressing instead of 2 */
	run(k, &c, &r);
	assert_int_equal(r.delta_address, -1);
	assert_int_equal(r.delta_replays, 0);
	rd_result_free(&r);
	rd_kernel_free(k);
}

/* Rule 4 on crafted warps: 32 lanes of 4-byte words, 32 banks of 4 bytes. */
static void test_shared_replays(void **state)
{
	(void)state;
	uint64_t a[32], scratch[32];
	static const struct {
		uint32_t stride; /* words between lanes */
		uint32_t replays;
	} cases[] = {{1, 0}, {2, 1}, {4, 3}, {32, 31}, {0, 0} /* broadcast */, {33, 0}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		for (uint32_t l = 0; l < 32; l++)
			a[l] = 0x4000 + 4ull * cases[i].stride * l;
		assert_int_equal(spaces_shared_replays(a, 32, 32, 4, scratch), cases[i].replays);
	}
	/* two words in one bank, the others shared by several lanes: 1 */
	for (uint32_t l = 0; l < 32; l++)
		a[l] = l < 16 ? 0 : 128;
	assert_int_equal(spaces_shared_replays(a, 32, 32, 4, scratch), 1);
	/* 8-byte bank words: stride 2 words of 4 bytes is conflict-free */
	for (uint32_t l = 0; l < 32; l++)
		a[l] = 8ull * l;
	assert_int_equal(spaces_shared_replays(a, 32, 32, 8, scratch), 0);
}

/* The same rule through the model: lane t reads S[t * stride]. */
static uint64_t stride_addr;
static uint64_t shared_lane(uint32_t t, int i)
{
	(void)i;
	return 0x100000 + 4 * stride_addr * t;
}

static void test_shared_in_model(void **state)
{
	(void)state;
	static const uint32_t strides[] = {1, 2, 32, 0};
	static const uint64_t replays[] = {0, 1, 31, 0};
	for (size_t i = 0; i < 4; i++) {
		stride_addr = strides[i];
		rd_kernel *k = vadd(0, shared_lane, 1);
		rd_config c;
		rd_config_default(&c);
		set(&c, "mem.A", "shared");
		rd_result r;
		run(k, &c, &r);
		const rd_space_stats *s = &r.spaces[RD_SPACE_SHARED];
		assert_int_equal(s->instructions, 2);
		assert_int_equal(s->requests, 2);
		assert_int_equal(s->misses, 0);
		assert_int_equal(s->replays, replays[i]); /* A[t] itself: no conflict */
		rd_result_free(&r);
		rd_kernel_free(k);
	}
}

/* Rules 2-3: one address is one request (broadcast); n distinct addresses
 * are n requests and n - 1 replays; each miss one replay more. */
static uint64_t const_lanes;
static uint64_t const_lane(uint32_t t, int i)
{
	(void)i;
	return 0x200000 + 4 * (t % const_lanes);
}

static void test_constant_serialisation(void **state)
{
	(void)state;
	static const uint64_t distinct[] = {1, 4, 32};
	for (size_t i = 0; i < 3; i++) {
		const_lanes = distinct[i];
		/* B[t], then twice the crafted read of B (all in B's first line) */
		rd_kernel *k = vadd(0, const_lane, 2);
		rd_config c;
		rd_config_default(&c);
		set(&c, "mem.B", "constant");
		set(&c, "const.line", "256");
		rd_result r;
		run(k, &c, &r);
		const rd_space_stats *s = &r.spaces[RD_SPACE_CONSTANT];
		uint64_t n = distinct[i];
		assert_int_equal(s->instructions, 3);
		assert_int_equal(s->requests, 32 + 2 * n);
		assert_int_equal(s->misses, 1); /* B's first 128 bytes: one 256-byte line */
		assert_int_equal(s->hits, 32 + 2 * n - 1);
		assert_int_equal(s->replays, 31 + 2 * (n - 1) + 1);
		rd_result_free(&r);
		rd_kernel_free(k);
	}
}

/* Refusals: a stored array to texture or constant, an array larger than
 * constant memory or smem.size, texture2d of a 1-D array, a name the
 * kernel has no array of. */
static void test_refusals(void **state)
{
	(void)state;
	rd_kernel *k = vadd(1, NULL, 0);
	rd_arrays *as = rd_arrays_new();
	assert_int_equal(rd_arrays_add(as, "A", 0x100000, 4096, 4, 0, NULL), 0);
	assert_int_equal(rd_arrays_add(as, "B", 0x200000, 65540, 4, 0, NULL), 0);
	assert_int_equal(rd_arrays_add(as, "V", 0x300000, 4096, 4, 32, NULL), 0);
	rd_kernel_set_arrays(k, as);
	static const struct {
		const char *key, *value, *err;
	} cases[] = {
		{"mem.V", "texture", "mem.V: V is stored to (32 stores) and texture memory is read-only"},
		{"mem.V", "constant", "mem.V: V is stored to (32 stores) and constant memory is read-only"},
		{"mem.V", "texture2d", "mem.V: V is stored to (32 stores) and texture2d memory is "
				       "read-only"},
		{"mem.B", "constant", "mem.B: B is 65540 bytes, more than constant memory's 65536"},
		{"mem.B", "shared", "mem.B: B is 65540 bytes, more than smem.size (49152) shared "
				    "memory per block"},
		{"mem.A", "texture2d", "mem.A: texture2d needs a 2D layout and A has no row width"},
		{"mem.Z", "global", "mem.Z: kernel vadd has no array Z (its arrays: A, B, V)"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		rd_config c;
		rd_config_default(&c);
		set(&c, cases[i].key, cases[i].value);
		assert_int_equal(rd_spaces_check(&c, k, e, sizeof e), -1);
		if (strncmp(e, cases[i].err, strlen(cases[i].err)) != 0)
			fail_msg("%s=%s: got \"%s\"", cases[i].key, cases[i].value, e);
		rd_result r;
		rd_model *m = rd_model_new(k);
		assert_int_equal(rd_model_run(m, &c, 1, NULL, &r), RD_EINVAL);
		rd_model_free(m);
	}
	/* allowed: the stored array in shared memory, A in constant */
	rd_config c;
	rd_config_default(&c);
	set(&c, "mem.V", "shared");
	set(&c, "mem.A", "constant");
	assert_int_equal(rd_spaces_check(&c, k, e, sizeof e), 0);
	rd_kernel_free(k);
}

/* The keys: mem.NAME sorted, replaced, bounded, printed, compared. */
static void test_mem_keys(void **state)
{
	(void)state;
	rd_config a, b;
	rd_config_default(&a);
	rd_config_default(&b);
	char buf[64];
	assert_int_equal(rd_config_get(&a, "mem.X", buf, sizeof buf), 0);
	assert_string_equal(buf, "global");
	set(&a, "mem.B", "shared");
	set(&a, "mem.A", "texture");
	set(&b, "mem.A", "constant");
	set(&b, "mem.B", "shared");
	assert_false(rd_config_equal(&a, &b));
	set(&b, "mem.A", "texture");
	assert_true(rd_config_equal(&a, &b));
	assert_int_equal(a.mem_n, 2);
	assert_string_equal(a.mem[0].name, "A");
	assert_int_equal(rd_config_get(&a, "mem.A", buf, sizeof buf), 0);
	assert_string_equal(buf, "texture");
	assert_int_equal(rd_config_set(&a, "mem.A", "local", e, sizeof e), -1);
	assert_non_null(strstr(e, "global|texture|texture2d|constant|shared"));
	assert_int_equal(rd_config_set(&a, "mem.1x", "shared", e, sizeof e), -1);
	assert_int_equal(rd_config_set(&a, "mem.global", "shared", e, sizeof e), -1);
	for (int i = 0; i < RD_MEM_MAX - 2; i++) {
		snprintf(buf, sizeof buf, "mem.x%d", i);
		set(&a, buf, "shared");
	}
	assert_int_equal(rd_config_set(&a, "mem.y", "shared", e, sizeof e), -1);
	assert_non_null(strstr(e, "at most 16"));
	set(&a, "mem.A", "global"); /* replacing is not adding */
	/* the reference-2013 profile models the L1 alone */
	set(&b, "model", "reference-2013");
	assert_int_equal(rd_config_check(&b, e, sizeof e), -1);
	assert_non_null(strstr(e, "mem.A"));
}

/* rd_config_unset_mem: the setting goes, the others stay sorted; the last
 * one gone, the configuration equals one that never had placements. */
static void test_mem_unset(void **state)
{
	(void)state;
	rd_config a, b;
	rd_config_default(&a);
	rd_config_default(&b);
	set(&a, "mem.C", "shared");
	set(&a, "mem.A", "texture");
	set(&a, "mem.B", "constant");
	assert_int_equal(rd_config_unset_mem(&a, "B"), 1);
	assert_int_equal(a.mem_n, 2);
	assert_string_equal(a.mem[0].name, "A");
	assert_string_equal(a.mem[1].name, "C");
	assert_int_equal(rd_config_space(&a, "B"), RD_SPACE_GLOBAL);
	assert_int_equal(rd_config_space(&a, "C"), RD_SPACE_SHARED);
	assert_int_equal(rd_config_unset_mem(&a, "B"), 0);
	assert_int_equal(rd_config_unset_mem(&a, "A"), 1);
	assert_int_equal(rd_config_unset_mem(&a, "C"), 1);
	assert_false(rd_config_has_spaces(&a));
	assert_true(rd_config_equal(&a, &b));
	assert_int_equal(memcmp(&a.mem, &b.mem, sizeof a.mem), 0);
}

/* texture2d: a line holds a tw x th tile; a column of th rows shares it. */
static void test_tex2d_tiles(void **state)
{
	(void)state;
	uint32_t tw, th;
	spaces_tile_shape(32, 4, &tw, &th); /* 8 floats */
	assert_int_equal(tw, 4);
	assert_int_equal(th, 2);
	spaces_tile_shape(128, 4, &tw, &th); /* 32 floats */
	assert_int_equal(tw, 8);
	assert_int_equal(th, 4);
	spaces_tile_shape(4, 8, &tw, &th); /* an element larger than a line */
	assert_int_equal(tw * th, 1);
	rd_array a = {.name = "T", .base = 0x1000, .bytes = 64 * 64 * 4, .elem = 4, .width = 64};
	/* rows 0..3 of column 0 in one 128-byte line; row 4 in the next tile row */
	uint64_t l0 = spaces_tex2d_addr(&a, 128, 0x1000) >> 7;
	for (uint64_t r = 0; r < 4; r++)
		for (uint64_t col = 0; col < 8; col++)
			assert_int_equal(spaces_tex2d_addr(&a, 128, 0x1000 + (r * 64 + col) * 4) >> 7, l0);
	assert_int_not_equal(spaces_tex2d_addr(&a, 128, 0x1000 + 4 * 64 * 4) >> 7, l0);
	assert_int_not_equal(spaces_tex2d_addr(&a, 128, 0x1000 + 8 * 4) >> 7, l0);
	/* a byte within an element stays in it */
	assert_int_equal(spaces_tex2d_addr(&a, 128, 0x1000 + 64 * 4 + 2),
			 spaces_tex2d_addr(&a, 128, 0x1000 + 64 * 4) + 2);
}

/* Routing: A placed in texture leaves the L1 (its requests are the
 * texture cache's); every placement global gives the L1's result unchanged. */
static void test_routing(void **state)
{
	(void)state;
	rd_kernel *k = vadd(0, NULL, 0);
	rd_config c;
	rd_config_default(&c);
	rd_result base, glob, tex;
	run(k, &c, &base);
	set(&c, "mem.A", "global");
	run(k, &c, &glob);
	assert_false(base.has_spaces);
	assert_true(glob.has_spaces);
	assert_int_equal(glob.requests, base.requests);
	assert_int_equal(glob.misses, base.misses);
	assert_int_equal(glob.spaces[RD_SPACE_GLOBAL].requests, base.requests);
	assert_int_equal(glob.spaces[RD_SPACE_GLOBAL].replays, 0); /* 128 bytes: one line */
	set(&c, "mem.A", "texture");
	run(k, &c, &tex);
	assert_int_equal(tex.requests, base.requests - 1); /* A's one line */
	assert_int_equal(tex.spaces[RD_SPACE_TEXTURE].requests, 4); /* 128 bytes of 32-byte lines */
	assert_int_equal(tex.spaces[RD_SPACE_TEXTURE].misses, 4);
	rd_result_free(&base);
	rd_result_free(&glob);
	rd_result_free(&tex);
	rd_kernel_free(k);
}

/* Texture and constant misses continue into the L2 (and DRAM): one
 * request per miss at L1-line granularity. A in texture: its four 32-byte
 * lines miss, four requests of one 128-byte line, beside B's L1 miss. */
static void test_offchip(void **state)
{
	(void)state;
	rd_kernel *k = vadd(0, NULL, 0);
	rd_config c;
	rd_config_default(&c);
	set(&c, "l2.size", "65536");
	rd_result base, tex, dram;
	run(k, &c, &base);
	assert_int_equal(base.l2.requests, 2); /* A's and B's lines from the L1s */
	set(&c, "mem.A", "texture");
	run(k, &c, &tex);
	assert_int_equal(tex.spaces[RD_SPACE_TEXTURE].misses, 4);
	assert_int_equal(tex.l2.requests, 1 + 4);
	set(&c, "l2.size", "0");
	set(&c, "dram.enable", "1");
	run(k, &c, &dram);
	assert_int_equal(dram.dram.requests, 1 + 4);
	/* shared memory has no L2 traffic */
	rd_result sh;
	set(&c, "mem.A", "shared");
	run(k, &c, &sh);
	assert_int_equal(sh.dram.requests, 1);
	rd_result_free(&base);
	rd_result_free(&tex);
	rd_result_free(&dram);
	rd_result_free(&sh);
	rd_kernel_free(k);
}

/* One kept model, runs in turn with and without placements: each as a
 * fresh model gives it (the L2's and DRAM's kept inputs are not reused
 * across the merged stream). */
static void test_offchip_kept(void **state)
{
	(void)state;
	rd_kernel *k = vadd(0, NULL, 0);
	rd_model *m = rd_model_new(k);
	assert_non_null(m);
	static const char *const seq[] = {"-", "texture", "-", "constant", "texture", "-"};
	for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
		rd_config c;
		rd_config_default(&c);
		set(&c, "l2.size", "65536");
		set(&c, "dram.enable", "1");
		if (seq[i][0] != '-')
			set(&c, "mem.A", seq[i]);
		rd_result kept, fresh;
		assert_int_equal(rd_model_run(m, &c, 1 << RD_CASE_FULL, NULL, &kept), RD_OK);
		run(k, &c, &fresh);
		assert_int_equal(kept.l2.requests, fresh.l2.requests);
		assert_int_equal(kept.l2.misses, fresh.l2.misses);
		assert_int_equal(kept.dram.requests, fresh.dram.requests);
		assert_int_equal(kept.requests, fresh.requests);
		rd_result_free(&kept);
		rd_result_free(&fresh);
	}
	rd_model_free(m);
	rd_kernel_free(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_figure2_counts),
		cmocka_unit_test(test_eq3),
		cmocka_unit_test(test_shared_replays),
		cmocka_unit_test(test_shared_in_model),
		cmocka_unit_test(test_constant_serialisation),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_mem_keys),
		cmocka_unit_test(test_mem_unset),
		cmocka_unit_test(test_tex2d_tiles),
		cmocka_unit_test(test_routing),
		cmocka_unit_test(test_offchip),
		cmocka_unit_test(test_offchip_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
