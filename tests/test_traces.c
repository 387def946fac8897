/*
 * Unit tests of the trace readers' building blocks: kernel-description
 * expressions (C semantics), SASS opcode widths, the NVBit warp-slot
 * mapping, multi-member gzip, and the .rdt writer/reader on edge cases.
 * Expected values are worked out by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#include "input.h"
#include "kdesc_expr.h"
#include "trace_rdt.h"
#include "trace_sass.h"

/* ---------------------------------------------------------------- expressions */

static int resolve_xy(void *ctx, const char *name, size_t len)
{
	(void)ctx;
	if (len == 1 && name[0] == 'x')
		return 0;
	if (len == 11 && !strncmp(name, "threadIdx.y", 11))
		return 1;
	return -1;
}

/* Evaluate src with x = 7, threadIdx.y = -3; *e gets the eval error. */
static int64_t ev(const char *src, int *perr, int *e)
{
	kx_prog prog = {0};
	char err[256] = "";
	kx_parser ps = {.prog = &prog, .src = src, .p = src, .resolve = resolve_xy,
			.err = err, .errlen = sizeof err};
	int n = kx_parse(&ps);
	kx_skip(&ps);
	*perr = n < 0 || *ps.p;
	int64_t vals[2] = {7, -3};
	*e = 0;
	int64_t v = n < 0 ? 0 : kx_eval(prog.n, n, vals, e);
	kx_prog_free(&prog);
	return v;
}

static void test_expr_c_semantics(void **state)
{
	(void)state;
	static const struct {
		const char *src;
		int64_t want;
	} cases[] = {
		{"1 + 2 * 3", 7},
		{"(1 + 2) * 3", 9},
		{"x / 2", 3},
		{"-x / 2", -3},            /* C truncates toward zero */
		{"-x % 3", -1},            /* sign of the dividend */
		{"threadIdx.y * x + 1", -20},
		{"1 << 4 >> 2", 4},
		{"x > 3 && threadIdx.y < 0", 1},
		{"x < 3 || 0", 0},
		{"!x", 0},
		{"~0", -1},
		{"x == 7 ? 10 : 20", 10},
		{"min(x, 3) + max(x, 3)", 10},
		{"abs(threadIdx.y)", 3},
		{"5 & 3 | 8 ^ 1", 9},      /* & before ^ before | */
		{"0x10 + 10", 26},
		{"2 - 3 - 4", -5},         /* left to right */
		{"x % 4 != 1", 1},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int perr, e;
		int64_t v = ev(cases[i].src, &perr, &e);
		if (perr || e || v != cases[i].want)
			fail_msg("%s: got %lld (parse %d, eval %d), want %lld", cases[i].src,
				 (long long)v, perr, e, (long long)cases[i].want);
	}
}

static void test_expr_errors(void **state)
{
	(void)state;
	int perr, e;
	ev("x / (x - 7)", &perr, &e);
	assert_int_equal(perr, 0);
	assert_int_equal(e, KX_DIVZERO);
	ev("1 << x * 10", &perr, &e);
	assert_int_equal(e, KX_SHIFT);
	ev("1 / 0", &perr, &e); /* constant: folded, so a parse error */
	assert_int_equal(perr, 1);
	ev("y + 1", &perr, &e);
	assert_int_equal(perr, 1);
	ev("A[1]", &perr, &e);
	assert_int_equal(perr, 1);
	ev("x +", &perr, &e);
	assert_int_equal(perr, 1);
	ev("x++", &perr, &e);
	assert_int_equal(perr, 1);
	/* hash: deterministic, non-negative, not the identity */
	int64_t a = ev("hash(12345)", &perr, &e), b = ev("hash(12345)", &perr, &e);
	assert_true(a == b && a >= 0 && a != 12345);
	assert_true(ev("hash(1)", &perr, &e) != ev("hash(2)", &perr, &e));
}

/* ---------------------------------------------------------------- SASS */

static void test_sass_opcodes(void **state)
{
	(void)state;
	static const struct {
		const char *op;
		enum sass_kind kind;
		uint32_t bytes;
		int generic;
	} cases[] = {
		{"LDG.E", SASS_LOAD, 4, 0},
		{"LDG.E.64", SASS_LOAD, 8, 0},
		{"LDG.E.128.CONSTANT.SYS", SASS_LOAD, 16, 0},
		{"LDG.E.U8", SASS_LOAD, 1, 0},
		{"LDG.E.S16", SASS_LOAD, 2, 0},
		{"LDGSTS.E.BYPASS.LTC128B.128", SASS_LOAD, 16, 0},
		{"LD.E.64", SASS_LOAD, 8, 1},
		{"LD", SASS_LOAD, 4, 1},
		{"STG.E.64", SASS_STORE, 8, 0},
		{"ST.E", SASS_STORE, 4, 1},
		{"LDS.U.128", SASS_OTHER, 16, 0},
		{"LDSM.16.M88.4", SASS_OTHER, 2, 0},
		{"LDL.64", SASS_OTHER, 8, 0},
		{"STS", SASS_OTHER, 4, 0},
		{"ATOMG.E.ADD.STRONG.GPU", SASS_OTHER, 4, 0},
		{"RED.E.ADD", SASS_OTHER, 4, 0},
		{"LDC.64", SASS_OTHER, 8, 0},
		{"IMAD.MOV.U32", SASS_OTHER, 4, 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint32_t bytes;
		int generic;
		enum sass_kind k = sass_opcode(cases[i].op, strlen(cases[i].op), &bytes, &generic);
		if (k != cases[i].kind || bytes != cases[i].bytes || generic != cases[i].generic)
			fail_msg("%s: kind %d bytes %u generic %d", cases[i].op, k, bytes, generic);
	}
}

/* ---------------------------------------------------------------- readers */

static char tmpdir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof tmpdir, "/tmp/rdscope-traces-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static rd_kernel *load1(const char *path)
{
	rd_kernel *k = NULL;
	char err[1024];
	int rc = input_load(path, &k, err, sizeof err);
	if (rc != INPUT_OK)
		fail_msg("%s", err);
	return k;
}

/* Two NVBit SM warp slots of one CTA become its two warps; lanes keep
 * their thread ids whichever slot comes first. */
static void test_nvbit_warp_slots(void **state)
{
	(void)state;
	char path[128];
	snprintf(path, sizeof path, "%s/slots.nvbit", tmpdir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "Kernel k - grid size 1,1,1 - block size 64,1,1 - nregs 8 - shmem 0 - cuda "
		   "stream id 0\n");
	/* slot 9 first: 9 mod 2 = warp 1 (threads 32..63), then slot 12: warp 0 */
	for (int s = 0; s < 2; s++) {
		fprintf(f, "CTA 0,0,0 - warp %d - LDG.E - ", s ? 12 : 9);
		for (int l = 0; l < 32; l++)
			fprintf(f, "0x%016x ", 0x1000 * (s ? 1 : 2) + 4 * l);
		fputc('\n', f);
	}
	fclose(f);
	rd_kernel *k = load1(path);
	assert_int_equal(k->nthreads, 64);
	assert_int_equal(k->nloads, 64);
	/* thread 0 (warp 0) has the slot-12 address, thread 32 the slot-9 one */
	assert_int_equal(k->addr[k->thread_first[0]], 0x1000);
	assert_int_equal(k->addr[k->thread_first[32]], 0x2000);
	rd_kernel_free(k);
	/* a third slot in a two-warp CTA is an error */
	f = fopen(path, "a");
	fprintf(f, "CTA 0,0,0 - warp 5 - LDG.E - ");
	for (int l = 0; l < 32; l++)
		fprintf(f, "0x%016x ", 0x3000 + 4 * l);
	fputc('\n', f);
	fclose(f);
	char err[1024];
	assert_int_equal(input_load(path, &k, err, sizeof err), INPUT_EINPUT);
	assert_non_null(strstr(err, "slots.nvbit:4: CTA 0,0,0 has more than the 2 warps"));
}

/* gzip files may hold several members (cat a.gz b.gz): all are read. */
static void test_gzip_members(void **state)
{
	(void)state;
	char path[128];
	snprintf(path, sizeof path, "%s/two.trc.gz", tmpdir);
	gzFile g = gzopen(path, "wb");
	gzputs(g, "blocksize: 2 1 1\n0 0 100 4\n");
	gzclose(g);
	g = gzopen(path, "ab"); /* a second member */
	gzputs(g, "1 0 200 4\n");
	gzclose(g);
	rd_kernel *k = load1(path);
	assert_int_equal(k->nloads, 2);
	assert_int_equal(k->addr[1], 200);
	rd_kernel_free(k);
}

/* Write kernels to path as .rdt (rdscope's writer). */
static void write_rdt(const char *path, rd_kernel *const *k, int n)
{
	FILE *f = fopen(path, "w+");
	assert_non_null(f);
	rdt_writer *w = rdt_writer_open(f);
	assert_non_null(w);
	for (int i = 0; i < n; i++)
		assert_int_equal(rdt_writer_add(w, k[i]), 0);
	assert_int_equal(rdt_writer_finish(w), 0);
	fclose(f);
}

/* The store arrays of a and b are the same. */
static void assert_same_stores(const rd_kernel *a, const rd_kernel *b)
{
	assert_int_equal(a->nstores, b->nstores);
	assert_int_equal(a->store_threads, b->store_threads);
	assert_non_null(b->store_tid);
	assert_memory_equal(a->store_tid, b->store_tid, a->nstores * sizeof *a->store_tid);
	assert_memory_equal(a->store_addr, b->store_addr, a->nstores * sizeof *a->store_addr);
	assert_memory_equal(a->store_bytes, b->store_bytes, a->nstores * sizeof *a->store_bytes);
	assert_memory_equal(a->store_pos, b->store_pos, a->nstores * sizeof *a->store_pos);
}

/* The .rdt of a kernel with no loads (only stores) and one with a thread
 * without loads in the middle reads back as written. */
static void test_rdt_roundtrip_edges(void **state)
{
	(void)state;
	rd_kernel_builder *b = rd_kernel_builder_new("stores only", 32, 1, 1);
	rd_kernel_builder_add(b, 3, 1, 64, 4);
	rd_kernel *k0 = rd_kernel_builder_finish(b);
	b = rd_kernel_builder_new("gap", 4, 2, 1);
	rd_kernel_builder_add(b, 0, 0, 8, 8);
	rd_kernel_builder_add(b, 2, 0, 16, 2);
	rd_kernel_builder_add(b, 2, 0, 24, 2);
	rd_kernel *k1 = rd_kernel_builder_finish(b);
	char path[128];
	snprintf(path, sizeof path, "%s/e.rdt", tmpdir);
	FILE *f = fopen(path, "w+");
	rdt_writer *w = rdt_writer_open(f);
	assert_int_equal(rdt_writer_add(w, k0), 0);
	assert_int_equal(rdt_writer_add(w, k1), 0);
	assert_int_equal(rdt_writer_finish(w), 0);
	fclose(f);
	input *in;
	char err[512];
	assert_int_equal(input_open(path, NULL, &in, err, sizeof err), INPUT_OK);
	rd_kernel *r0, *r1, *r2;
	assert_int_equal(input_next(in, &r0, err, sizeof err), INPUT_OK);
	assert_int_equal(input_next(in, &r1, err, sizeof err), INPUT_OK);
	assert_int_equal(input_next(in, &r2, err, sizeof err), INPUT_END);
	input_close(in);
	assert_string_equal(r0->name, "stores only");
	assert_int_equal(r0->nthreads, 0);
	assert_int_equal(r0->nloads, 0);
	assert_int_equal(r0->nstores, 1);
	assert_same_stores(k0, r0); /* thread 3's store, beyond the (no) load threads */
	assert_int_equal(r1->block_size, 8);
	assert_int_equal(r1->nthreads, 3);
	assert_int_equal(r1->thread_first[1], 1);
	assert_int_equal(r1->thread_first[2], 1);
	assert_int_equal(r1->thread_first[3], 3);
	assert_int_equal(r1->addr[2], 24);
	assert_int_equal(r1->bytes[0], 8);
	rd_kernel_free(k0);
	rd_kernel_free(k1);
	rd_kernel_free(r0);
	rd_kernel_free(r1);
}

/* Version 3 keeps the stores: a kernel with loads and stores interleaved,
 * a thread with stores only inside the load threads and one beyond them,
 * reads back with the builder's arrays, mapped (lent) and gzip'ed
 * (copied); a store placed beyond its thread's loads is refused. */
static void test_rdt_roundtrip_stores(void **state)
{
	(void)state;
	rd_kernel_builder *b = rd_kernel_builder_new("mixed", 8, 1, 1);
	rd_kernel_builder_add(b, 0, 0, 0, 4);   /* t0: L S L S */
	rd_kernel_builder_add(b, 0, 1, 64, 4);
	rd_kernel_builder_add(b, 1, 0, 128, 8); /* t1: L */
	rd_kernel_builder_add(b, 2, 1, 512, 2); /* t2: S S (no loads) */
	rd_kernel_builder_add(b, 0, 0, 4, 4);
	rd_kernel_builder_add(b, 0, 1, 68, 16);
	rd_kernel_builder_add(b, 3, 0, 256, 4); /* t3: L L */
	rd_kernel_builder_add(b, 2, 1, 514, 2);
	rd_kernel_builder_add(b, 3, 0, 260, 4);
	rd_kernel_builder_add(b, 6, 1, 1024, 1); /* t6: S (beyond the loads) */
	rd_kernel *k = rd_kernel_builder_finish(b);
	assert_non_null(k);
	/* what the builder makes, worked out by hand */
	assert_int_equal(k->nstores, 5);
	assert_int_equal(k->store_threads, 7);
	static const uint32_t tid[5] = {0, 0, 2, 2, 6};
	static const uint32_t pos[5] = {1, 3, 0, 1, 0};
	static const uint64_t saddr[5] = {64, 68, 512, 514, 1024};
	static const uint16_t sbytes[5] = {4, 16, 2, 2, 1};
	assert_memory_equal(k->store_tid, tid, sizeof tid);
	assert_memory_equal(k->store_pos, pos, sizeof pos);
	assert_memory_equal(k->store_addr, saddr, sizeof saddr);
	assert_memory_equal(k->store_bytes, sbytes, sizeof sbytes);

	char path[128], gz[140];
	snprintf(path, sizeof path, "%s/s.rdt", tmpdir);
	write_rdt(path, &k, 1);
	rd_kernel *r = load1(path);
	assert_non_null(r->release); /* mapped: lent, stores too */
	assert_same_stores(k, r);
	assert_memory_equal(k->addr, r->addr, k->nloads * sizeof *k->addr);
	rd_kernel_free(r);

	/* gzip'ed: read into memory and copied */
	FILE *f = fopen(path, "rb");
	unsigned char buf[4096];
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	snprintf(gz, sizeof gz, "%s/s.rdt.gz", tmpdir);
	gzFile g = gzopen(gz, "wb");
	assert_int_equal(gzwrite(g, buf, (unsigned)n), (int)n);
	gzclose(g);
	r = load1(gz);
	assert_null(r->release);
	assert_same_stores(k, r);
	rd_kernel_free(r);

	/* damage: t0's second store placed after 3 loads (t0 has 2) */
	uint64_t table, soff;
	memcpy(&table, buf + 16, 8); /* the test runs little-endian */
	memcpy(&soff, buf + table + 64, 8);
	uint64_t at = soff + 8 * 5 + 4 * 5 + 4 * 1; /* store_pos[1], after addr and tid */
	uint32_t four = 4;
	memcpy(buf + at, &four, 4);
	f = fopen(path, "wb");
	fwrite(buf, 1, n, f);
	fclose(f);
	input *in;
	char err[512];
	assert_int_equal(input_open(path, NULL, &in, err, sizeof err), INPUT_OK);
	assert_int_equal(input_next(in, &r, err, sizeof err), INPUT_EINPUT);
	input_close(in);
	assert_non_null(strstr(err, "kernel mixed: a store placed beyond its thread's loads (at 1)"));
	rd_kernel_free(k);
}

/* Little-endian n-byte v at p. */
static void put_le(unsigned char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

/* A version-2 file (64-byte table entries, no stores section) still
 * reads: its stores counted, their arrays NULL. Made by hand: one
 * thread, one load, two stores. */
static void test_rdt_v2_reads(void **state)
{
	(void)state;
	unsigned char f[136] = {0};
	memcpy(f, RDT_MAGIC, 8);
	put_le(f + 8, 2, 4);           /* version */
	put_le(f + 12, 1, 4);          /* one kernel */
	put_le(f + 16, 72, 8);         /* table */
	put_le(f + 24, sizeof f, 8);   /* file size */
	put_le(f + 32, 0, 8);          /* thread_first 0 1 */
	put_le(f + 40, 1, 8);
	put_le(f + 48, 0x100, 8);      /* addr */
	put_le(f + 56, 4, 2);          /* bytes */
	memcpy(f + 64, "v2", 2);       /* name */
	unsigned char *e = f + 72;     /* table entry, 64 bytes */
	put_le(e, 64, 8);
	put_le(e + 8, 2, 4);
	put_le(e + 12, 1, 4), put_le(e + 16, 1, 4), put_le(e + 20, 1, 4);
	put_le(e + 24, 1, 4);          /* nthreads */
	put_le(e + 32, 1, 8);          /* nloads */
	put_le(e + 40, 2, 8);          /* nstores */
	put_le(e + 48, 32, 8);         /* data */
	char path[128];
	snprintf(path, sizeof path, "%s/v2.rdt", tmpdir);
	FILE *fp = fopen(path, "wb");
	fwrite(f, 1, sizeof f, fp);
	fclose(fp);
	rd_kernel *k = load1(path);
	assert_string_equal(k->name, "v2");
	assert_int_equal(k->nloads, 1);
	assert_int_equal(k->addr[0], 0x100);
	assert_int_equal(k->nstores, 2);
	assert_int_equal(k->store_threads, 0);
	assert_null(k->store_tid);
	assert_null(k->store_pos);
	rd_kernel_free(k);
	/* the same entry read as version 3 would run past the table */
	put_le(f + 8, 3, 4);
	fp = fopen(path, "wb");
	fwrite(f, 1, sizeof f, fp);
	fclose(fp);
	char err[512];
	assert_int_equal(input_load(path, &k, err, sizeof err), INPUT_EINPUT);
	assert_non_null(strstr(err, "kernel table outside the file"));
}

/* The static list --help shows is the formats' table's, and each name in
 * it is one --input-format takes (and a wrong one is refused). */
static void test_format_names(void **state)
{
	(void)state;
	char names[256];
	size_t n = input_format_names(names, sizeof names);
	assert_int_equal(n, strlen(names));
	assert_string_equal(names, INPUT_FORMATS);
	char *save = NULL;
	for (char *t = strtok_r(names, "|", &save); t; t = strtok_r(NULL, "|", &save))
		assert_true(input_format_known(t));
	assert_false(input_format_known("ocelotx"));
	assert_false(input_format_known(""));
	/* a short buffer: the length it needs, the text cut */
	char small[8];
	assert_int_equal(input_format_names(small, sizeof small), n);
	assert_int_equal(strlen(small), sizeof small - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_names),
		cmocka_unit_test(test_expr_c_semantics),
		cmocka_unit_test(test_expr_errors),
		cmocka_unit_test(test_sass_opcodes),
		cmocka_unit_test(test_nvbit_warp_slots),
		cmocka_unit_test(test_gzip_members),
		cmocka_unit_test(test_rdt_roundtrip_edges),
		cmocka_unit_test(test_rdt_roundtrip_stores),
		cmocka_unit_test(test_rdt_v2_reads),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
