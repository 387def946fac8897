/* Kernel descriptions streamed thread by thread (kd_stream, kd_cursor:
 * src/kdesc/kdesc_cursor.c): every description of samples/ and of the
 * tests' data, every launch, block and thread, read by cursors in batches
 * of 1, 3, 7 and 4096, against the kernel the builder path makes (each
 * thread's loads and stores merged by store_pos); the builder's errors
 * (bounds, stuck loops, expressions) with the same text; two threads
 * sharing a stream; the model's streamed parts (rd_parts_add_stream)
 * reading cursors give the built kernel's counts. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "kdesc.h"
#include "readers/readers.h"
#include "testutil.h"

typedef struct seq {
	uint64_t *addr;
	uint16_t *bytes;
	uint8_t *store;
	size_t n, cap;
} seq;

static void seq_add(seq *s, uint64_t a, uint16_t b, uint8_t st)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->addr = realloc(s->addr, s->cap * sizeof *s->addr);
		s->bytes = realloc(s->bytes, s->cap * sizeof *s->bytes);
		s->store = realloc(s->store, s->cap * sizeof *s->store);
		assert_non_null(s->addr);
		assert_non_null(s->bytes);
		assert_non_null(s->store);
	}
	s->addr[s->n] = a;
	s->bytes[s->n] = b;
	s->store[s->n++] = st;
}

static void seq_free(seq *s)
{
	free(s->addr);
	free(s->bytes);
	free(s->store);
	memset(s, 0, sizeof *s);
}

/* Thread tid's accesses in the built kernel, in program order (as
 * coal_stores reads them: a store where store_pos says, loads between). */
static void built_thread(const rd_kernel *k, uint32_t tid, seq *out)
{
	out->n = 0;
	uint64_t l = 0, lend = 0, s = 0, send = 0;
	if (tid < k->nthreads) {
		l = k->thread_first[tid];
		lend = k->thread_first[tid + 1];
	}
	if (k->nstores)
		rd_kernel_store_range(k, tid, tid + 1, &s, &send);
	for (uint64_t p = 0; l < lend || s < send; p++) {
		if (s < send && k->store_pos[s] == p) {
			seq_add(out, k->store_addr[s], k->store_bytes[s], 1);
			s++;
		} else {
			assert_true(l < lend);
			seq_add(out, k->addr[l], k->bytes[l], 0);
			l++;
		}
	}
}

/* The cursor's whole sequence in batches of `batch` against want (what
 * names it in messages): 0, or -1 with its error (the accesses before it
 * in out, when not NULL; else they are want's first). */
static int cursor_check(const kd_stream *st, kd_cursor *reuse, uint64_t b, uint32_t t,
			uint32_t batch, const seq *want, seq *out, char *err, size_t errlen,
			const char *what)
{
	if (out)
		out->n = 0;
	kd_cursor *c = reuse;
	if (reuse)
		assert_int_equal(kd_cursor_reset(reuse, b, t), 0);
	else
		c = kd_cursor_new(st, b, t);
	assert_non_null(c);
	uint64_t a[4096];
	uint16_t by[4096];
	uint8_t s[4096];
	int rc = 0, shortly = 0;
	size_t at = 0;
	for (;;) {
		int64_t n = kd_cursor_next(c, a, by, s, batch);
		if (n < 0) {
			snprintf(err, errlen, "%s", kd_cursor_error(c));
			rc = -1;
			break;
		}
		assert_true((uint64_t)n <= batch);
		if (!n)
			break;
		if (shortly)
			fail_msg("%s: %lld accesses after a short batch", what, (long long)n);
		shortly = n < (int64_t)batch; /* fewer than asked: the end or an error next */
		for (int64_t i = 0; i < n; i++, at++) {
			if (out)
				seq_add(out, a[i], by[i], s[i]);
			if (!want)
				continue;
			if (at >= want->n)
				fail_msg("%s: more than the %zu accesses expected", what, want->n);
			if (want->addr[at] != a[i] || want->bytes[at] != by[i] ||
			    want->store[at] != s[i])
				fail_msg("%s: access %zu is %s 0x%llx/%u, expected %s 0x%llx/%u", what,
					 at, s[i] ? "store" : "load", (unsigned long long)a[i], by[i],
					 want->store[at] ? "store" : "load",
					 (unsigned long long)want->addr[at], want->bytes[at]);
		}
	}
	if (rc < 0) /* an error stays */
		assert_int_equal(kd_cursor_next(c, a, by, s, batch), -1);
	if (want && at != want->n)
		fail_msg("%s: %zu accesses, expected %zu", what, at, want->n);
	if (!reuse)
		kd_cursor_free(c);
	return rc;
}

typedef struct opened {
	trace_reader *r;
	char err[1024];
} opened;

/* A reader over path (variant and defines as -D), or NULL when it does
 * not open (a description refused when read: no launch to stream). */
static int open_desc(opened *o, const char *path, const char *variant)
{
	int oom = 0;
	textin *t = textin_open(path, 1 << 20, o->err, sizeof o->err, &oom);
	if (!t)
		return -1;
	o->r = kdesc_reader(t, path, variant, NULL, 0, o->err, sizeof o->err, &oom);
	return o->r ? 0 : -1;
}

typedef struct tally {
	unsigned files, launches, threads, errors, skipped;
	uint64_t accesses;
} tally;

static const uint32_t batches[] = {1, 3, 7, 4096};

/*
 * Every launch, block and thread of the description at path: the cursors'
 * sequences against the built kernel's, or the builder's error against the
 * first cursor's (threads in the builder's order); batches of 7 and 4096
 * by one cursor reset from thread to thread. cap: max_threads (0: the
 * description's).
 */
static void check_file(const char *path, const char *variant, uint32_t cap, tally *ty)
{
	opened o;
	if (open_desc(&o, path, variant) < 0)
		return;
	ty->files++;
	if (cap)
		kdesc_set_max_threads(o.r, cap);
	const char *name;
	seq want = {0}, got = {0};
	char what[1024], cerr[1024];
	for (size_t launch = 0; o.r->next(o.r, &name) == 1; launch++) {
		rd_kernel *k = NULL;
		int rc = o.r->load(o.r, &k);
		char berr[1024];
		snprintf(berr, sizeof berr, "%s", o.err);
		kd_stream *st = kd_stream_new(o.r, launch);
		if (!st) { /* the launch's own errors: the same */
			assert_int_not_equal(rc, TRACE_OK);
			assert_string_equal(o.err, berr);
			break;
		}
		ty->launches++;
		uint64_t nb = kd_stream_blocks(st);
		uint32_t bs = kd_stream_block_size(st);
		kd_cursor *keep = kd_cursor_new(st, 0, 0);
		assert_non_null(keep);
		if (rc == TRACE_OK) {
			assert_int_equal(bs, k->block_size);
			for (uint64_t b = 0; b < nb; b++)
				for (uint32_t t = 0; t < bs; t++) {
					built_thread(k, (uint32_t)(b * bs + t), &want);
					for (size_t i = 0; i < sizeof batches / sizeof *batches; i++) {
						snprintf(what, sizeof what,
							 "%s%s%s launch %zu block %llu thread %u batch %u",
							 path, variant ? ":" : "", variant ? variant : "",
							 launch, (unsigned long long)b, t, batches[i]);
						if (cursor_check(st, i >= 2 ? keep : NULL, b, t,
								 batches[i], &want, NULL, cerr,
								 sizeof cerr, what) < 0)
							fail_msg("%s: %s", what, cerr);
					}
					ty->threads++;
					ty->accesses += want.n;
				}
		} else if (strstr(berr, " loads in one ") || strstr(berr, " stores in one ")) {
			ty->skipped++;
		} else {
			/* the first thread that fails fails as the builder did, in
			 * batches of each size (the cursor has no load limit) */
			int found = 0;
			for (uint64_t b = 0; b < nb && !found; b++)
				for (uint32_t t = 0; t < bs && !found; t++) {
					if (cursor_check(st, keep, b, t, 4096, NULL, &want, cerr,
							 sizeof cerr, path) == 0)
						continue;
					found = 1;
					snprintf(what, sizeof what, "%s launch %zu", path, launch);
					assert_string_equal(cerr, berr);
					for (size_t i = 0; i < 3; i++) {
						assert_int_equal(cursor_check(st, i ? keep : NULL,
									      b, t, batches[i],
									      &want, NULL, cerr,
									      sizeof cerr, what),
								 -1);
						assert_string_equal(cerr, berr);
					}
				}
			if (!found)
				fail_msg("%s launch %zu: the builder failed (%s), no cursor did", path,
					 launch, berr);
			ty->errors++;
		}
		kd_cursor_free(keep);
		kd_stream_free(st);
		rd_kernel_free(k);
		if (rc != TRACE_OK)
			break;
	}
	seq_free(&want);
	seq_free(&got);
	o.r->close(o.r);
}

/* Has the description a variant `small`? */
static int has_small(const char *path)
{
	char desc[512], vars[512];
	if (kdesc_summary(path, desc, sizeof desc, vars, sizeof vars) < 0)
		return 0;
	for (char *p = strtok(vars, ", "); p; p = strtok(NULL, ", "))
		if (!strcmp(p, "small"))
			return 1;
	return 0;
}

static void check_dir(const char *dir, int all_files, tally *ty)
{
	DIR *dp = opendir(dir);
	assert_non_null(dp);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0;
	while ((de = readdir(dp))) {
		if (de->d_name[0] == '.')
			continue;
		names = realloc(names, (n + 1) * sizeof *names);
		size_t len = strlen(dir) + strlen(de->d_name) + 2;
		names[n] = malloc(len);
		snprintf(names[n++], len, "%s/%s", dir, de->d_name);
	}
	closedir(dp);
	for (size_t i = 0; i < n; i++) {
		struct stat sb;
		size_t len = strlen(names[i]);
		if (stat(names[i], &sb) == 0 && S_ISDIR(sb.st_mode))
			check_dir(names[i], all_files, ty);
		else if (all_files || (len > 6 && !strcmp(names[i] + len - 6, ".kdesc")))
			/* small variants and at most 512 threads a launch: fast */
			check_file(names[i], has_small(names[i]) ? "small" : NULL, 512, ty);
		free(names[i]);
	}
	free(names);
}

static void test_samples(void **state)
{
	(void)state;
	tally ty = {0};
	check_dir("samples", 0, &ty);
	printf("# samples: %u descriptions, %u launches, %u threads, %llu accesses\n", ty.files,
	       ty.launches, ty.threads, (unsigned long long)ty.accesses);
	assert_true(ty.files >= 40);
	assert_int_equal(ty.skipped, 0);
	assert_true(ty.threads > 10000);
}

static void test_test_data(void **state)
{
	(void)state;
	tally ty = {0};
	check_dir("tests/bad", 0, &ty);
	check_dir("tests/fuzz/corpus/kdesc", 1, &ty);
	check_dir("tests/fuzz/corpus/countflat", 1, &ty);
	printf("# tests' data: %u descriptions, %u launches, %u threads, %u errors\n", ty.files,
	       ty.launches, ty.threads, ty.errors);
	assert_true(ty.files >= 30);
	assert_true(ty.errors >= 3); /* bounds, division by zero, overflows */
}

/* A description written for the test into a temporary file. */
static char *write_desc(const char *text)
{
	char *path = strdup("/tmp/rdscope-kcursor-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	size_t len = strlen(text);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	return path;
}

/* IF/ELSE, LET, nested and triangular loops, strided (the first) and
 * not, stores between loads, vector accesses, an array without dims, an
 * empty loop, a statement of several references (cut by every batch
 * size). */
static const char features[] =
	"format = \"rdscope-kernel\";\nversion = 1;\nparams = { N = 12; };\n"
	"arrays = { A = { elem = 4; dims = [\"N\", \"N\"]; }; B = { elem = 8; dims = [\"N\"]; };\n"
	"  C = { elem = 2; dims = [\"N * N\"]; }; D = { elem = 2; }; };\n"
	"kernels = ( { name = \"k\"; grid = [2, 1]; block = [3, 2];\n"
	"  body = (\n"
	"    \"i = blockIdx.x * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x\",\n"
	"    \"s = 0\",\n"
	"    { for = \"j = 0; j <= i; j++\"; do = ( \"load A[i][j], B[j]\", \"store C[i * N + j]\" ); },\n"
	"    { for = \"j = i; j < N; j = j + 2\";\n"
	"      do = ( { if = \"j % 3 == 0\"; then = ( \"load B[j]\", \"s = s + j\" );\n"
	"               else = ( \"store A[j][i], B[N - 1 - j]\" ); },\n"
	"             { for = \"k = 0; k < j % 4; k++\"; do = ( \"load A[k][j], D[k - j]\" ); },\n"
	"             { load = \"B[s % N], A[s % N][j]\"; bytes = 16; } ); },\n"
	"    \"store B[s % N]\",\n"
	"    { for = \"j = 0; j < 0; j++\"; do = ( \"load A[0][0]\" ); },\n"
	"    { if = \"i > 100\"; then = ( \"load A[0][0]\" ); }\n"
	"  ); } );\n";

static void test_features(void **state)
{
	(void)state;
	char *path = write_desc(features);
	tally ty = {0};
	check_file(path, NULL, 0, &ty);
	assert_int_equal(ty.files, 1);
	assert_int_equal(ty.threads, 12);
	assert_true(ty.accesses > 200);
	unlink(path);
	free(path);
}

/* The first failing thread of path's only launch: its error (the
 * builder's, the same text) and the accesses it made before. */
static void check_error(const char *text, const char *want_in, size_t before)
{
	char *path = write_desc(text);
	tally ty = {0};
	check_file(path, NULL, 0, &ty); /* the same error as the builder */
	assert_int_equal(ty.errors, 1);
	opened o;
	assert_int_equal(open_desc(&o, path, NULL), 0);
	kd_stream *st = kd_stream_new(o.r, 0);
	assert_non_null(st);
	seq got = {0};
	char err[1024];
	int failed = 0;
	for (uint32_t t = 0; t < kd_stream_block_size(st) && !failed; t++)
		if (cursor_check(st, NULL, 0, t, 1, NULL, &got, err, sizeof err, path) < 0) {
			failed = 1;
			if (!strstr(err, want_in))
				fail_msg("error \"%s\" does not say \"%s\"", err, want_in);
			assert_int_equal(got.n, before);
		}
	assert_true(failed);
	seq_free(&got);
	kd_stream_free(st);
	o.r->close(o.r);
	unlink(path);
	free(path);
}

static void test_errors(void **state)
{
	(void)state;
	/* thread 2 reads A[8] at j = 2, after 5 accesses (not strided: the
	 * whole run is not in bounds) */
	check_error("format = \"rdscope-kernel\";\nversion = 1;\nparams = { N = 8; };\n"
		    "arrays = { A = { elem = 4; dims = [\"N\"]; }; };\n"
		    "kernels = ( { name = \"k\"; grid = [1]; block = [4];\n"
		    "  body = ( \"i = threadIdx.x\",\n"
		    "    { for = \"j = 0; j < 4; j++\"; do = ( \"load A[j], A[i * 3 + j]\" ); } ); } );\n",
		    ":7: kernel k, block (0,0,0) thread (2,0,0): A[8]: index outside 0..7", 5);
	/* a step that leaves the variable where it was */
	check_error("format = \"rdscope-kernel\";\nversion = 1;\nparams = { N = 8; };\n"
		    "arrays = { A = { elem = 4; dims = [\"N\"]; }; };\n"
		    "kernels = ( { name = \"k\"; grid = [1]; block = [4];\n"
		    "  body = ( \"load A[threadIdx.x]\",\n"
		    "    { for = \"j = 0; j < 4; j = j * 1\"; do = ( \"load A[j]\", \"store A[j]\" ); } ); } );\n",
		    "thread (0,0,0): the loop does not advance: its step leaves j at 0, so it would "
		    "never end",
		    3);
	/* an expression's error in a LET inside a loop, after 3 accesses */
	check_error("format = \"rdscope-kernel\";\nversion = 1;\nparams = { N = 8; };\n"
		    "arrays = { A = { elem = 4; dims = [\"N\"]; }; };\n"
		    "kernels = ( { name = \"k\"; grid = [1]; block = [4];\n"
		    "  body = ( { for = \"j = 0; j < 4; j++\";\n"
		    "    do = ( \"load A[j]\", \"x = 6 / (1 - j + threadIdx.x)\", \"load A[x]\" ); } ); } );\n",
		    "division by zero", 3);
}

/* Two threads, each reading every thread of one shared stream: the same
 * sequences as one thread alone (run it under -fsanitize=thread). */
typedef struct worker {
	const kd_stream *st;
	uint64_t sum, n;
} worker;

static void *work(void *arg)
{
	worker *w = arg;
	uint64_t a[256];
	uint16_t by[256];
	uint8_t s[256];
	uint64_t nb = kd_stream_blocks(w->st);
	uint32_t bs = kd_stream_block_size(w->st);
	/* the lanes of a warp at once, round robin, as the model pulls them */
	for (uint64_t b = 0; b < nb; b++)
		for (uint32_t t0 = 0; t0 < bs; t0 += 32) {
			kd_cursor *c[32];
			uint32_t nt = bs - t0 < 32 ? bs - t0 : 32, live = nt;
			for (uint32_t i = 0; i < nt; i++)
				c[i] = kd_cursor_new(w->st, b, t0 + i);
			while (live)
				for (uint32_t i = 0; i < nt; i++) {
					if (!c[i])
						continue;
					int64_t n = kd_cursor_next(c[i], a, by, s, 256);
					if (n <= 0) {
						kd_cursor_free(c[i]);
						c[i] = NULL;
						live--;
						continue;
					}
					for (int64_t j = 0; j < n; j++)
						w->sum = w->sum * 1000003u +
							 (a[j] ^ ((uint64_t)by[j] << 48) ^
							  ((uint64_t)s[j] << 63) ^ (b * bs + t0 + i));
					w->n += (uint64_t)n;
				}
		}
	return NULL;
}

static void test_threads(void **state)
{
	(void)state;
	opened o;
	assert_int_equal(open_desc(&o, "samples/polybench/corr.kdesc", "small"), 0);
	kdesc_set_max_threads(o.r, 256);
	for (size_t launch = 0; launch < 4; launch++) {
		kd_stream *st = kd_stream_new(o.r, launch);
		assert_non_null(st);
		worker one = {.st = st}, w[2] = {{.st = st}, {.st = st}};
		work(&one);
		pthread_t th[2];
		for (int i = 0; i < 2; i++)
			assert_int_equal(pthread_create(&th[i], NULL, work, &w[i]), 0);
		for (int i = 0; i < 2; i++)
			assert_int_equal(pthread_join(th[i], NULL), 0);
		assert_true(one.n > 0);
		for (int i = 0; i < 2; i++) {
			assert_int_equal(w[i].n, one.n);
			assert_int_equal(w[i].sum, one.sum);
		}
		kd_stream_free(st);
	}
	o.r->close(o.r);
}

/* Out of range: no cursor; past its end, a cursor says 0 again. */
static void test_bounds(void **state)
{
	(void)state;
	opened o;
	assert_int_equal(open_desc(&o, "samples/polybench/gemm.kdesc", "small"), 0);
	assert_null(kd_stream_new(o.r, 5));
	assert_non_null(strstr(o.err, "no such launch"));
	kd_stream *st = kd_stream_new(o.r, 0);
	assert_non_null(st);
	assert_null(kd_cursor_new(st, kd_stream_blocks(st), 0));
	assert_null(kd_cursor_new(st, 0, kd_stream_block_size(st)));
	kd_cursor *c = kd_cursor_new(st, 0, 0);
	uint64_t a[4096];
	uint16_t by[4096];
	uint8_t s[4096];
	int64_t n = kd_cursor_next(c, a, by, s, 4096);
	assert_true(n > 0 && n < 4096);
	assert_int_equal(kd_cursor_next(c, a, by, s, 4096), 0);
	assert_int_equal(kd_cursor_next(c, a, by, s, 4096), 0);
	assert_string_equal(kd_cursor_error(c), "");
	/* reset: out of range refused, the cursor as it was; else the
	 * thread again from its start */
	assert_int_equal(kd_cursor_reset(c, kd_stream_blocks(st), 0), -1);
	assert_int_equal(kd_cursor_next(c, a, by, s, 4096), 0);
	assert_int_equal(kd_cursor_reset(c, 0, 0), 0);
	assert_int_equal(kd_cursor_next(c, a, by, s, 4096), n);
	/* a few hundred bytes a cursor */
	assert_true(kd_stream_cursor_bytes(st) >= 200 && kd_stream_cursor_bytes(st) <= 1024);
	kd_cursor_free(c);
	kd_stream_free(st);
	o.r->close(o.r);
}

/* The model's streamed parts (rd_parts_add_stream) reading kd cursors:
 * part thread t is lane t % block size of block part_block[t / block
 * size]. */
typedef struct part_src {
	const kd_stream *s;
	const uint32_t *blocks;
	uint32_t bs;
} part_src;

static void *ps_open(void *ctx, uint32_t t)
{
	part_src *p = ctx;
	return kd_cursor_new(p->s, p->blocks[t / p->bs], t % p->bs);
}

static int64_t ps_next(void *c, uint64_t *addr, uint16_t *bytes, uint8_t *store, uint32_t max)
{
	return kd_cursor_next(c, addr, bytes, store, max);
}

static void ps_close(void *c)
{
	kd_cursor_free(c);
}

/* Launch `launch` of path:variant modelled whole (the kernel kd_load
 * builds) and in parts streamed from cursors, core by core: the same
 * counts. */
static void check_model(const char *path, const char *variant, size_t launch, const char *key,
			const char *val)
{
	rd_config c;
	rd_config_default(&c);
	char err[256];
	assert_int_equal(rd_config_set(&c, "gpu.cores", "3", err, sizeof err), 0);
	if (key)
		assert_int_equal(rd_config_set(&c, key, val, err, sizeof err), 0);
	assert_int_equal(rd_config_check(&c, err, sizeof err), 0);
	opened o;
	assert_int_equal(open_desc(&o, path, variant), 0);
	const char *name;
	for (size_t i = 0; i <= launch; i++)
		assert_int_equal(o.r->next(o.r, &name), 1);
	rd_kernel *whole = NULL;
	assert_int_equal(o.r->load(o.r, &whole), TRACE_OK);
	rd_model *m = rd_model_new(whole);
	rd_result want;
	assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, NULL, &want), RD_OK);
	rd_model_free(m);
	kd_stream *st = kd_stream_new(o.r, launch);
	assert_non_null(st);
	uint64_t nb = kd_stream_blocks(st);
	uint32_t bs = kd_stream_block_size(st);
	rd_parts *p = rd_parts_new(&c, RD_ALL_CASES);
	assert_non_null(p);
	rd_parts_set_threads(p, 2);
	for (uint32_t core = 0; core < 3; core++) {
		uint32_t *ids = malloc((size_t)nb * sizeof *ids), n = 0;
		assert_non_null(ids);
		for (uint64_t b = 0; b < nb; b++)
			if (rd_block_core(&c, b) == core)
				ids[n++] = (uint32_t)b;
		rd_kernel *shape = rd_kernel_builder_finish(rd_kernel_builder_new(
			whole->name, whole->block_dim[0], whole->block_dim[1], whole->block_dim[2]));
		assert_non_null(shape);
		rd_kernel_set_part_blocks(shape, ids, n);
		part_src ps = {st, shape->part_block, bs};
		rd_access_src as = {&ps, ps_open, ps_next, ps_close, NULL};
		assert_int_equal(rd_parts_add_stream(p, shape, &as, NULL, NULL), RD_OK);
		rd_kernel_free(shape);
	}
	rd_kernel *shape = rd_kernel_builder_finish(rd_kernel_builder_new(
		whole->name, whole->block_dim[0], whole->block_dim[1], whole->block_dim[2]));
	rd_result got;
	assert_int_equal(rd_parts_finish(p, shape, NULL, &got), RD_OK);
	tu_assert_same_counts(&want, &got);
	assert_int_equal(got.accesses, want.accesses);
	assert_true(want.accesses > 1000);
	rd_result_free(&got);
	rd_result_free(&want);
	rd_parts_free(p);
	rd_kernel_free(shape);
	rd_kernel_free(whole);
	kd_stream_free(st);
	o.r->close(o.r);
}

static void test_model(void **state)
{
	(void)state;
	check_model("samples/polybench/corr.kdesc", "small", 3, NULL, NULL);
	check_model("samples/polybench/corr.kdesc", "small", 3, "l1.stores", "allocate");
	check_model("samples/polybench/gemm.kdesc", "small", 0, "l1.stores", "evict");
	check_model("samples/kernels/stencil.kdesc", "small", 0, NULL, NULL);
}

int main(void)
{
	/* a launch past 16 M loads fails in the builder at once (the fuzz
	 * corpus's loops of 2^28 iterations): no sample comes near */
	setenv("RDSCOPE_MAX_LOADS", "16777216", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_features), cmocka_unit_test(test_errors),
		cmocka_unit_test(test_bounds),   cmocka_unit_test(test_threads),
		cmocka_unit_test(test_samples),  cmocka_unit_test(test_test_data),
		cmocka_unit_test(test_model),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
