/* Arrays (seed 002's unit of placement): the model's map (add, order,
 * lookup, refusals), the gap detection on crafted accesses, the counts,
 * the --arrays CSV parser's acceptances and its file:line refusals, and a
 * kernel description's arrays. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <cmocka.h>

#include "testutil.h"
#include "readers/readers.h"

static void test_map_add_find(void **state)
{
	(void)state;
	rd_arrays *as = rd_arrays_new();
	uint32_t other = 99;
	/* added out of order, kept sorted by base */
	assert_int_equal(rd_arrays_add(as, "B", 0x2000, 0x100, 4, 0, NULL), 0);
	assert_int_equal(rd_arrays_add(as, "A", 0x1000, 0x100, 8, 16, NULL), 0);
	assert_int_equal(rd_arrays_add(as, "C", 0x2100, 0x10, 1, 0, NULL), 0); /* adjacent: fine */
	assert_int_equal(as->n, 3);
	assert_string_equal(as->a[0].name, "A");
	assert_string_equal(as->a[1].name, "B");
	assert_string_equal(as->a[2].name, "C");
	assert_int_equal(as->a[0].width, 16);
	/* refusals: overlap (names the other), a name twice, no bytes, wrap */
	assert_int_equal(rd_arrays_add(as, "D", 0x10ff, 2, 1, 0, &other), -3);
	assert_int_equal(other, 0);
	assert_int_equal(rd_arrays_add(as, "D", 0x1f00, 0x101, 1, 0, &other), -3);
	assert_int_equal(other, 1);
	assert_int_equal(rd_arrays_add(as, "B", 0x9000, 4, 4, 0, &other), -4);
	assert_int_equal(other, 1);
	assert_int_equal(rd_arrays_add(as, "E", 0x9000, 0, 4, 0, NULL), -2);
	assert_int_equal(rd_arrays_add(as, "E", UINT64_MAX, 2, 1, 0, NULL), -2);
	assert_int_equal(as->n, 3);
	/* lookups: first byte, last byte, one past (global), between, before */
	assert_int_equal(rd_arrays_find(as, 0x1000), 0);
	assert_int_equal(rd_arrays_find(as, 0x10ff), 0);
	assert_int_equal(rd_arrays_find(as, 0x1100), -1);
	assert_int_equal(rd_arrays_find(as, 0x0fff), -1);
	assert_int_equal(rd_arrays_find(as, 0x2000), 1);
	assert_int_equal(rd_arrays_find(as, 0x2100), 2);
	assert_int_equal(rd_arrays_find(as, 0x210f), 2);
	assert_int_equal(rd_arrays_find(as, 0x2110), -1);
	assert_int_equal(rd_arrays_find(NULL, 0x1000), -1);
	assert_int_equal(rd_arrays_named(as, "C"), 2);
	assert_int_equal(rd_arrays_named(as, "global"), -1);
	rd_arrays_free(as);
}

/* A kernel of loads (tid 0) and stores (tid 1) at the given addresses. */
static rd_kernel *mixed(const uint64_t *ld, const uint16_t *lb, uint32_t nl, const uint64_t *st,
			uint32_t ns)
{
	rd_kernel_builder *b = rd_kernel_builder_new("m", 2, 1, 1);
	for (uint32_t i = 0; i < nl; i++)
		rd_kernel_builder_add(b, 0, 0, ld[i], lb[i]);
	for (uint32_t i = 0; i < ns; i++)
		rd_kernel_builder_add(b, 1, 1, st[i], 4);
	return rd_kernel_builder_finish(b);
}

static void test_detect_gaps(void **state)
{
	(void)state;
	/* region 1: 4-byte loads at 0x1000-0x100f, one 0x100 bytes past that
	 * (less than the gap: the same array), an 8-byte load at 0x1200 (end
	 * 0x1208); region 2 starts exactly a gap (0x10000) later, at 0x11208;
	 * a 1-byte load 0xffef past its end (less than the gap) joins it */
	static const uint64_t ld[] = {0x1008, 0x1000, 0x1004, 0x100c, 0x1110, 0x1200,
				      0x11210, 0x11208, 0x21207};
	static const uint16_t lb[] = {4, 4, 4, 4, 4, 8, 8, 8, 1};
	static const uint64_t st[] = {0x1000, 0x11208};
	rd_kernel *k = mixed(ld, lb, 9, st, 2);
	rd_arrays *as = rd_arrays_detect(k, 0x10000);
	assert_non_null(as);
	assert_int_equal(as->n, 2);
	assert_string_equal(as->a[0].name, "a0");
	assert_int_equal(as->a[0].base, 0x1000);
	assert_int_equal(as->a[0].bytes, 0x208);
	assert_int_equal(as->a[0].elem, 4); /* four of 4 bytes (and a store), one of 8 */
	assert_int_equal(as->a[0].width, 0);
	assert_string_equal(as->a[1].name, "a1");
	assert_int_equal(as->a[1].base, 0x11208);
	assert_int_equal(as->a[1].bytes, 0x10000);
	assert_int_equal(as->a[1].elem, 8);
	/* counts: loads and stores per array, nothing global here */
	rd_array_counts n;
	assert_int_equal(rd_arrays_count(as, k, &n), 0);
	assert_int_equal(n.loads[0], 6);
	assert_int_equal(n.stores[0], 1);
	assert_int_equal(n.loads[1], 3);
	assert_int_equal(n.stores[1], 1);
	assert_int_equal(n.loads[2] + n.stores[2], 0);
	rd_array_counts_free(&n);
	rd_arrays_free(as);
	/* a gap of 0xed splits region 1 at its 0x100-byte hole but not at
	 * its 0xec-byte one (0x1114 to 0x1200), and region 2 from its last byte */
	as = rd_arrays_detect(k, 0xed);
	assert_int_equal(as->n, 4);
	assert_int_equal(as->a[0].bytes, 0x10);
	assert_int_equal(as->a[1].base, 0x1110);
	assert_int_equal(as->a[1].bytes, 0x1208 - 0x1110);
	assert_int_equal(as->a[1].elem, 4); /* a tie of 4 and 8: the smaller */
	assert_int_equal(as->a[3].base, 0x21207);
	assert_int_equal(as->a[3].bytes, 1);
	/* a map without the last array: its accesses are global */
	rd_arrays *part = rd_arrays_new();
	assert_int_equal(rd_arrays_add(part, "x", 0x1000, 0x10, 4, 0, NULL), 0);
	assert_int_equal(rd_arrays_count(part, k, &n), 0);
	assert_int_equal(n.loads[0], 4);
	assert_int_equal(n.stores[0], 1);
	assert_int_equal(n.loads[1], 5);
	assert_int_equal(n.stores[1], 1);
	rd_array_counts_free(&n);
	rd_arrays_free(part);
	rd_arrays_free(as);
	rd_kernel_free(k);
}

/* A version-2 .rdt counted its stores without their addresses (nstores
 * set, store_addr NULL): the arrays are found from the loads, the stores
 * counted outside every array, and no placement refused for them (this
 * crashed rdscope arrays and the explorer's start on such a file). */
static void test_stores_without_addresses(void **state)
{
	(void)state;
	static const uint64_t ld[] = {0x1000, 0x1004, 0x40000};
	static const uint16_t lb[] = {4, 4, 4};
	static const uint64_t st[] = {0x1000, 0x1008};
	rd_kernel *k = mixed(ld, lb, 3, st, 2);
	/* as the reader of an old .rdt leaves them */
	uint32_t *tid = k->store_tid, *pos = k->store_pos;
	uint64_t *addr = k->store_addr;
	uint16_t *bytes = k->store_bytes;
	k->store_tid = NULL, k->store_pos = NULL, k->store_addr = NULL, k->store_bytes = NULL;
	rd_arrays *as = rd_arrays_detect(k, 0x10000);
	assert_non_null(as);
	assert_int_equal(as->n, 2);
	assert_int_equal(as->a[0].bytes, 8);
	rd_array_counts n;
	assert_int_equal(rd_arrays_count(as, k, &n), 0);
	assert_int_equal(n.loads[0], 2);
	assert_int_equal(n.stores[0], 0);
	assert_int_equal(n.stores[2], 2);
	rd_array_counts_free(&n);
	rd_kernel_set_arrays(k, as);
	rd_config c;
	rd_config_default(&c);
	char err[256];
	assert_int_equal(rd_config_set(&c, "mem.a0", "texture", err, sizeof err), 0);
	assert_int_equal(rd_spaces_check(&c, k, err, sizeof err), 0);
	k->store_tid = tid, k->store_pos = pos, k->store_addr = addr, k->store_bytes = bytes;
	assert_int_equal(rd_spaces_check(&c, k, err, sizeof err), -1); /* with them: refused */
	rd_kernel_free(k);
}

static rd_arrays *parse_ok(const char *text)
{
	rd_arrays *as;
	char err[512];
	if (arrays_parse(text, strlen(text), "t.csv", &as, err, sizeof err) != 0)
		fail_msg("refused: %s", err);
	return as;
}

static void parse_bad(const char *text, const char *want)
{
	rd_arrays *as = (rd_arrays *)1;
	char err[512];
	assert_int_equal(arrays_parse(text, strlen(text), "t.csv", &as, err, sizeof err), -1);
	assert_null(as);
	if (strcmp(err, want))
		fail_msg("got  '%s'\nwant '%s'", err, want);
}

static void test_csv_accepts(void **state)
{
	(void)state;
	rd_arrays *as = parse_ok("# the matmul trace's arrays\n"
				 "name,base,bytes,elem,width\n"
				 "B,0x20000000,16384,4,64\n"
				 "\n"
				 "A , 268435456 , 0x4000 , 4 \r\n"
				 "c_1.x,0x30000000,8,8,\n");
	assert_int_equal(as->n, 3);
	assert_string_equal(as->a[0].name, "A");
	assert_int_equal(as->a[0].base, 0x10000000);
	assert_int_equal(as->a[0].bytes, 16384);
	assert_int_equal(as->a[0].width, 0);
	assert_string_equal(as->a[1].name, "B");
	assert_int_equal(as->a[1].width, 64);
	assert_string_equal(as->a[2].name, "c_1.x");
	assert_int_equal(as->a[2].elem, 8);
	rd_arrays_free(as);
	/* the top of the address space: the last byte at 2^64 - 2 */
	as = parse_ok("top,0xfffffffffffffff0,15,1\n");
	assert_int_equal(as->a[0].base + as->a[0].bytes, UINT64_MAX);
	rd_arrays_free(as);
	parse_bad("top,0xfffffffffffffff0,16,16\n",
		  "t.csv:1: base + bytes: past the end of the 64-bit address space");
	as = parse_ok("top,0xfffffffffffffff0,15,1\n");
	assert_int_equal(as->a[0].base + as->a[0].bytes - 1, UINT64_MAX - 1);
	rd_arrays_free(as);
}

static void test_csv_refusals(void **state)
{
	(void)state;
	parse_bad("A,0,16\n", "t.csv:1: expected 4 or 5 fields 'name,base,bytes,elem[,width]', got 3");
	parse_bad("# c\nA,0,16,4,1,1\n",
		  "t.csv:2: expected 4 or 5 fields 'name,base,bytes,elem[,width]', got more than 5");
	parse_bad(",0,4,4\n", "t.csv:1: empty array name");
	parse_bad("1A,0,4,4\n",
		  "t.csv:1: array name '1A': a letter or '_' first, then letters, digits, '_' or '.'");
	parse_bad("a-b,0,4,4\n",
		  "t.csv:1: array name 'a-b': a letter or '_' first, then letters, digits, '_' or '.'");
	parse_bad("global,0,4,4\n",
		  "t.csv:1: 'global' names the accesses outside every array; choose another name");
	parse_bad("A,-1,4,4\n",
		  "t.csv:1: base: expected an unsigned integer (decimal or 0x hex), got '-1'");
	parse_bad("A,0x,4,4\n",
		  "t.csv:1: base: expected an unsigned integer (decimal or 0x hex), got '0x'");
	parse_bad("A,0,4K,4\n",
		  "t.csv:1: bytes: expected an unsigned integer (decimal or 0x hex), got '4K'");
	parse_bad("A,0,0x10000000000000000,1\n",
		  "t.csv:1: bytes: expected an unsigned integer (decimal or 0x hex), got "
		  "'0x10000000000000000'");
	parse_bad("A,0,0,4\n", "t.csv:1: bytes: an array of 0 bytes");
	parse_bad("A,0xffffffffffffffff,2,1\n",
		  "t.csv:1: base + bytes: past the end of the 64-bit address space");
	parse_bad("A,0,4,0\n", "t.csv:1: elem: element size must be 1 to 65535 bytes, got 0");
	parse_bad("A,0,65536,65536\n",
		  "t.csv:1: elem: element size must be 1 to 65535 bytes, got 65536");
	parse_bad("A,0,10,4\n", "t.csv:1: bytes: 10 is not a whole number of 4-byte elements");
	parse_bad("A,0,16,4,3\n", "t.csv:1: width: 4 elements are not a whole number of rows of 3");
	parse_bad("A,0,16,4,0\n", "t.csv:1: width: elements per row must be 1 to 2^32 - 1, got 0");
	parse_bad("A,0x10,16,4\n\nB,0x18,16,4\n",
		  "t.csv:3: B [0x18, 0x28) overlaps A [0x10, 0x20) of line 1");
	parse_bad("B,0x100,16,4\nA,0x10,16,4\nA,0x1000,4,4\n",
		  "t.csv:3: array 'A' named twice (first on line 2)");
	parse_bad("# nothing\n\n", "t.csv:2: no arrays (expected lines 'name,base,bytes,elem[,width]')");
	parse_bad("", "t.csv:1: no arrays (expected lines 'name,base,bytes,elem[,width]')");
	parse_bad("name,base,bytes,elem\n",
		  "t.csv:1: no arrays (expected lines 'name,base,bytes,elem[,width]')");
	/* a header is only the first line */
	parse_bad("A,0,4,4\nname,base,bytes,elem\n",
		  "t.csv:2: base: expected an unsigned integer (decimal or 0x hex), got 'base'");
	const char nul[] = "A,0,4,4\nB,8,4\0,4\n";
	rd_arrays *as;
	char err[256];
	assert_int_equal(arrays_parse(nul, sizeof nul - 1, "t.csv", &as, err, sizeof err), -1);
	assert_string_equal(err, "t.csv:2: a NUL byte: not a text file");
}

/* A file: read whole, errors named by its path. */
static void test_csv_file(void **state)
{
	(void)state;
	char path[] = "/tmp/rdscope-arraysXXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs("A,0,4,4\nB,2,4,4\n", f);
	fclose(f);
	rd_arrays *as;
	char err[512], want[600];
	assert_int_equal(arrays_read(path, &as, err, sizeof err), -1);
	snprintf(want, sizeof want, "%s:2: B [0x2, 0x6) overlaps A [0x0, 0x4) of line 1", path);
	assert_string_equal(err, want);
	unlink(path);
	assert_int_equal(arrays_read(path, &as, err, sizeof err), -1);
	assert_non_null(strstr(err, path));
}

/* A kernel description names its arrays: the model's map has them, 2D
 * ones with their row width. */
static void test_kdesc_arrays(void **state)
{
	(void)state;
	input_opts o = {0};
	input *in;
	char err[512];
	rd_kernel *k;
	assert_int_equal(input_open("samples/kernels/matmul.kdesc:small", &o, &in, err, sizeof err),
			 INPUT_OK);
	assert_int_equal(input_next(in, &k, err, sizeof err), INPUT_OK);
	assert_non_null(k->arrays);
	assert_int_equal(k->arrays->n, 3);
	assert_string_equal(k->arrays->a[0].name, "A");
	assert_int_equal(k->arrays->a[0].bytes, 32 * 32 * 4);
	assert_int_equal(k->arrays->a[0].width, 32);
	rd_array_counts n;
	assert_int_equal(rd_arrays_count(k->arrays, k, &n), 0);
	/* C is stored once per thread; every access is in an array */
	assert_int_equal(n.stores[2], k->nstores);
	assert_int_equal(n.loads[0] + n.loads[1], k->nloads);
	assert_int_equal(n.loads[3] + n.stores[3], 0);
	rd_array_counts_free(&n);
	rd_kernel_free(k);
	input_close(in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map_add_find),  cmocka_unit_test(test_detect_gaps),
		cmocka_unit_test(test_csv_accepts),   cmocka_unit_test(test_csv_refusals),
		cmocka_unit_test(test_csv_file),      cmocka_unit_test(test_kdesc_arrays),
		cmocka_unit_test(test_stores_without_addresses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
