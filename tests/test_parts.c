/*
 * A kernel in parts (rd_parts, issue 38): each core's blocks built apart,
 * their threads numbered over their own blocks (rd_kernel.part_block), and
 * modelled by rd_parts_add or rd_parts_add_spent (which frees a part's
 * accesses once coalesced and says so once, by its ready callback), give
 * the counts and thread counts of the whole kernel at once; also where
 * gpu.max_threads cuts a block (in the launch's thread ids); and parts
 * built each in the arrays of the one spent before (rd_kernel_spare).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "internal.h"
#include "testutil.h"

enum { BS = 4, NBLOCKS = 14, CORES = 4, LOADS = 6 };

/* Accesses of 4, 8 and 16 bytes and warps of 8 (1): coalesced in groups
 * of a half and a quarter warp, a line asked by several groups of one
 * instruction. */
static int wide;

static void set(rd_config *c, const char *k, const char *v)
{
	char err[256];
	assert_int_equal(rd_config_set(c, k, v, err, sizeof err), 0);
}

static void config(rd_config *c, uint32_t max_threads)
{
	rd_config_default(c);
	set(c, "gpu.cores", "4");
	set(c, "gpu.warp_size", wide ? "8" : "2");
	set(c, "l1.size", "256");
	set(c, "l1.line", "32");
	set(c, "l1.ways", "2");
	set(c, "l1.hash", "mod");
	set(c, "l1.stores", "allocate");
	c->max_threads = max_threads;
	char err[256];
	assert_int_equal(rd_config_check(c, err, sizeof err), 0);
}

/* Thread g of the launch (its id g): LOADS loads that overlap other
 * threads' and blocks', a store after its second; block 5 has none. */
static void thread_accesses(rd_kernel_builder *b, uint32_t tid, uint64_t g)
{
	if (g / BS == 5)
		return;
	for (uint32_t i = 0; i < LOADS; i++) {
		uint64_t a = ((g * 40 + i * 72) % 1024) + (i % 3) * 4096;
		uint32_t by = wide ? 4u << (i % 3) : 4;
		if (wide)
			a = (g * 8 + i * 24) % 96 & ~(uint64_t)(by - 1);
		assert_int_equal(rd_kernel_builder_add(b, tid, 0, a, by), 0);
		if (i == 1)
			assert_int_equal(rd_kernel_builder_add(b, tid, 1, 8192 + g * 4, 4), 0);
	}
}

/* The whole launch (core < 0), or core's blocks numbered over its own,
 * built in spare's arrays (NULL: none). */
static rd_kernel *build_in(const rd_config *c, int core, rd_kernel_spare *spare)
{
	rd_kernel_builder *b = rd_kernel_builder_new("parts", BS, 1, 1);
	assert_non_null(b);
	rd_kernel_builder_use_spare(b, spare);
	uint32_t *ids = malloc(NBLOCKS * sizeof *ids), n = 0;
	assert_non_null(ids);
	for (uint32_t blk = 0; blk < NBLOCKS; blk++) {
		if (core >= 0 && rd_block_core(c, blk) != (uint32_t)core)
			continue;
		uint32_t local = core >= 0 ? n : blk;
		ids[n++] = blk;
		for (uint32_t t = 0; t < BS; t++)
			thread_accesses(b, local * BS + t, (uint64_t)blk * BS + t);
	}
	rd_kernel *k = rd_kernel_builder_finish(b);
	assert_non_null(k);
	if (core >= 0)
		rd_kernel_set_part_blocks(k, ids, n);
	else
		free(ids);
	return k;
}

static rd_kernel *build(const rd_config *c, int core)
{
	return build_in(c, core, NULL);
}

static void count_ready(void *ctx)
{
	(*(int *)ctx)++;
}

/* The L2 and DRAM levels of two results: the same. */
static void same_levels(const rd_result *a, const rd_result *b)
{
	const rd_level *x = &a->l2, *y = &b->l2;
	assert_int_equal(a->has_l2, b->has_l2);
	assert_int_equal(x->requests, y->requests);
	assert_int_equal(x->hits, y->hits);
	assert_int_equal(x->misses, y->misses);
	for (int i = 0; i < RD_NCLASS; i++)
		assert_int_equal(x->cls[i], y->cls[i]);
	assert_int_equal(x->store_requests, y->store_requests);
	assert_int_equal(x->store_hits, y->store_hits);
	assert_int_equal(x->reservation_fails, y->reservation_fails);
	assert_int_equal(x->merges, y->merges);
	assert_int_equal(x->steps, y->steps);
	assert_int_equal(x->sector_lookups, y->sector_lookups);
	assert_int_equal(x->sector_hits, y->sector_hits);
	assert_int_equal(x->hist_len, y->hist_len);
	assert_int_equal(x->hist_inf, y->hist_inf);
	assert_memory_equal(x->hist, y->hist, x->hist_len * sizeof *x->hist);
	assert_int_equal(x->hist_w_len, y->hist_w_len);
	assert_int_equal(x->hist_w_inf, y->hist_w_inf);
	uint32_t nb = x->partitions * x->banks;
	assert_int_equal(nb, y->partitions * y->banks);
	assert_memory_equal(x->bank_requests, y->bank_requests, nb * sizeof *x->bank_requests);
	assert_memory_equal(x->bank_misses, y->bank_misses, nb * sizeof *x->bank_misses);
	assert_int_equal(a->has_dram, b->has_dram);
	assert_int_equal(a->dram.requests, b->dram.requests);
	assert_int_equal(a->dram.reads, b->dram.reads);
	assert_int_equal(a->dram.writes, b->dram.writes);
	assert_int_equal(a->dram.row_hits, b->dram.row_hits);
	assert_int_equal(a->dram.row_conflicts, b->dram.row_conflicts);
}

/* c's kernel in parts (built whole, or spent: freed once coalesced), what
 * leaves their L1s spilled past `spill` bytes (rd_parts_set_spill): the
 * whole kernel's counts, its L2's and its DRAM's. */
static void check_parts_of(const rd_config *c, int spent, uint64_t spill)
{
	rd_kernel *whole = build(c, -1);
	rd_model *m = rd_model_new(whole);
	rd_result want;
	assert_int_equal(rd_model_run(m, c, RD_ALL_CASES, NULL, &want), RD_OK);
	rd_model_free(m);

	rd_parts *p = rd_parts_new(c, RD_ALL_CASES);
	assert_non_null(p);
	rd_parts_set_spill(p, spill);
	for (int core = 0; core < CORES; core++) {
		rd_kernel *k = build(c, core);
		assert_non_null(k->part_block);
		if (spent) {
			int ready = 0;
			assert_int_equal(rd_parts_add_spent(p, k, count_ready, &ready), RD_OK);
			assert_int_equal(ready, 1);
			assert_null(k->addr); /* freed once coalesced */
			assert_null(k->store_addr);
		} else {
			assert_int_equal(rd_parts_add(p, k, NULL), RD_OK);
		}
		rd_kernel_free(k);
	}
	rd_kernel *shape = rd_kernel_builder_finish(rd_kernel_builder_new("parts", BS, 1, 1));
	rd_result got;
	assert_int_equal(rd_parts_finish(p, shape, NULL, &got), RD_OK);
	tu_assert_same_counts(&want, &got);
	same_levels(&want, &got);
	assert_int_equal(got.accesses, want.accesses);
	assert_int_equal(got.threads_total, want.threads_total);
	assert_int_equal(got.threads_modelled, want.threads_modelled);
	rd_result_free(&want);
	rd_result_free(&got);
	rd_parts_free(p);
	rd_kernel_free(shape);
	rd_kernel_free(whole);
}

static void check_parts(uint32_t max_threads, int spent)
{
	rd_config c;
	config(&c, max_threads);
	check_parts_of(&c, spent, RD_SPILL_AT);
}

/* rd_parts_set_spill: what leaves the L1s spilled to temporary files (1:
 * every byte; a small limit: some parts in memory, some in files) and the
 * L2 reading them back as it admits: the whole kernel's counts, its L2's
 * and its DRAM's, with bank queues long enough to grow and wrap the
 * window of requests read (one port a bank, one MSHR entry, a slow L2),
 * sectors, and DRAM with and without an L2. */
static void check_spill(const char *const *kv, uint64_t spill)
{
	rd_config c;
	config(&c, 0);
	for (int i = 0; kv[i]; i += 2)
		set(&c, kv[i], kv[i + 1]);
	char err[256];
	assert_int_equal(rd_config_check(&c, err, sizeof err), 0);
	check_parts_of(&c, 0, spill);
}

static void test_parts_whole(void **state)
{
	(void)state;
	check_parts(0, 0);
	check_parts(0, 1);
}

/* gpu.max_threads = 30 cuts block 7 (threads 28..31) after its second
 * thread: block 7 is core 3's second, local threads 4, 5 of that part */
static void test_parts_max_threads(void **state)
{
	(void)state;
	check_parts(30, 0);
	check_parts(30, 1);
	check_parts(9, 1);
}

/* Each part built in the arrays the one before left in the spare (taken:
 * the spare is empty while it builds), the same counts as the whole;
 * rd_parts_finish empties the spare of the last part's. */
static void test_parts_spare(void **state)
{
	(void)state;
	rd_config c;
	config(&c, 0);
	rd_kernel *whole = build(&c, -1);
	rd_model *m = rd_model_new(whole);
	rd_result want;
	assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, NULL, &want), RD_OK);
	rd_model_free(m);
	rd_kernel_spare *spare = rd_kernel_spare_new();
	assert_non_null(spare);
	rd_parts *p = rd_parts_new(&c, RD_ALL_CASES);
	assert_non_null(p);
	uint64_t loads, stores;
	for (int core = 0; core < CORES; core++) {
		rd_kernel *k = build_in(&c, core, spare);
		assert_ptr_equal(k->spare, spare);
		kernel_spare_held(spare, &loads, &stores);
		assert_int_equal(loads, 0); /* the part before's: taken */
		assert_int_equal(stores, 0);
		uint64_t nl = k->nloads, ns = k->nstores;
		assert_true(nl > 0 && ns > 0);
		assert_int_equal(rd_parts_add_spent(p, k, NULL, NULL), RD_OK);
		assert_null(k->addr);
		assert_null(k->store_addr);
		kernel_spare_held(spare, &loads, &stores);
		assert_int_equal(loads, nl); /* this part's, for the next */
		assert_int_equal(stores, ns);
		rd_kernel_free(k);
	}
	rd_kernel *shape = rd_kernel_builder_finish(rd_kernel_builder_new("parts", BS, 1, 1));
	rd_result got;
	assert_int_equal(rd_parts_finish(p, shape, NULL, &got), RD_OK);
	kernel_spare_held(spare, &loads, &stores);
	assert_int_equal(loads, 0);
	assert_int_equal(stores, 0);
	tu_assert_same_counts(&want, &got);
	assert_int_equal(got.accesses, want.accesses);
	rd_result_free(&want);
	rd_result_free(&got);
	rd_parts_free(p);
	rd_kernel_free(shape);
	rd_kernel_free(whole);
	rd_kernel_spare_free(spare);
}

/* A part of 64 MiB of accesses or more (10 bytes a load as built) is not
 * kept: its arrays are freed, the spare left empty (it would hold them
 * while the part's cases run); one just below is kept. */
static void test_parts_spare_large(void **state)
{
	(void)state;
	rd_config c;
	config(&c, 0);
	rd_kernel_spare *spare = rd_kernel_spare_new();
	assert_non_null(spare);
	rd_parts *p = rd_parts_new(&c, 1);
	assert_non_null(p);
	const uint64_t big = ((uint64_t)64 << 20) / 10 + 1;
	for (int i = 0; i < 2; i++) {
		uint64_t n = i ? big : big - 1; /* below, then at the limit */
		rd_kernel_builder *b = rd_kernel_builder_new("big", BS, 1, 1);
		assert_non_null(b);
		rd_kernel_builder_use_spare(b, spare);
		for (uint64_t j = 0; j < n; j++) /* one line again and again */
			assert_int_equal(rd_kernel_builder_add(b, 0, 0, 64 + (j & 7) * 4, 4), 0);
		rd_kernel *k = rd_kernel_builder_finish(b);
		assert_non_null(k);
		uint32_t *ids = malloc(sizeof *ids);
		assert_non_null(ids);
		ids[0] = 0;
		rd_kernel_set_part_blocks(k, ids, 1);
		assert_int_equal(rd_parts_add_spent(p, k, NULL, NULL), RD_OK);
		uint64_t loads, stores;
		kernel_spare_held(spare, &loads, &stores);
		assert_int_equal(loads, i ? 0 : n);
		rd_kernel_free(k);
	}
	rd_parts_free(p);
	rd_kernel_spare_free(spare);
}

/* rd_parts_peek: none before the first part; after each, the L1 of the
 * parts so far (partial, the counts growing, classes summing to the
 * misses, no L2), the parts untouched: after the last, the whole
 * kernel's L1 counts, and rd_parts_finish still gives the whole result. */
static void test_parts_peek(void **state)
{
	(void)state;
	rd_config c;
	config(&c, 0);
	set(&c, "l2.size", "4096");
	rd_kernel *whole = build(&c, -1);
	rd_model *m = rd_model_new(whole);
	rd_result want;
	assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, NULL, &want), RD_OK);
	rd_model_free(m);
	assert_true(want.has_l2);
	rd_parts *p = rd_parts_new(&c, RD_ALL_CASES);
	assert_non_null(p);
	rd_result r;
	uint32_t np = 99;
	assert_int_equal(rd_parts_peek(p, &r, &np), RD_OK);
	assert_int_equal(np, 0);
	assert_int_equal(r.requests, 0);
	assert_int_equal(r.partial, 1);
	rd_result_free(&r);
	uint64_t last = 0;
	for (int core = 0; core < CORES; core++) {
		rd_kernel *k = build(&c, core);
		assert_int_equal(rd_parts_add_spent(p, k, NULL, NULL), RD_OK);
		rd_kernel_free(k);
		assert_int_equal(rd_parts_peek(p, &r, &np), RD_OK);
		assert_int_equal(np, core + 1);
		assert_int_equal(r.partial, 1);
		assert_int_equal(r.cores_used, core + 1);
		assert_false(r.has_l2);
		assert_false(r.has_dram);
		assert_true(r.requests > last);
		last = r.requests;
		uint64_t cls = 0, hist = r.hist_inf;
		for (int i = 0; i < RD_NCLASS; i++)
			cls += r.cls[i];
		assert_int_equal(cls, r.misses);
		assert_int_equal(r.hits + r.misses, r.requests);
		for (uint32_t d = 0; d < r.hist_len; d++)
			hist += r.hist[d];
		assert_true(hist > 0);
		if (core == CORES - 1) { /* every part: the whole kernel's L1 */
			tu_assert_same_counts(&want, &r);
			assert_int_equal(r.accesses, want.accesses);
			assert_int_equal(r.store_requests, want.store_requests);
			assert_true(r.miss_rate == want.miss_rate);
		}
		rd_result_free(&r);
	}
	rd_kernel *shape = rd_kernel_builder_finish(rd_kernel_builder_new("parts", BS, 1, 1));
	rd_result got;
	assert_int_equal(rd_parts_finish(p, shape, NULL, &got), RD_OK);
	tu_assert_same_counts(&want, &got);
	assert_int_equal(got.l2.requests, want.l2.requests);
	assert_int_equal(got.l2.misses, want.l2.misses);
	rd_result_free(&want);
	rd_result_free(&got);
	rd_parts_free(p);
	rd_kernel_free(shape);
	rd_kernel_free(whole);
}

/* core's blocks (a part) built in chunks of per blocks, each coalesced by
 * pb as it comes and consumed (spare: the chunk's arrays left there, not
 * the part's); the part's shape, its shell made. */
static rd_kernel *build_chunked(const rd_config *c, int core, uint32_t per, rd_part_builder *pb,
				rd_kernel_spare *spare)
{
	uint32_t *all = malloc(NBLOCKS * sizeof *all), n = 0;
	assert_non_null(all);
	for (uint32_t blk = 0; blk < NBLOCKS; blk++)
		if (rd_block_core(c, blk) == (uint32_t)core)
			all[n++] = blk;
	for (uint32_t i0 = 0; i0 < n; i0 += per) {
		uint32_t m = n - i0 < per ? n - i0 : per;
		rd_kernel_builder *b = rd_kernel_builder_new("parts", BS, 1, 1);
		assert_non_null(b);
		rd_kernel_builder_use_spare(b, spare);
		for (uint32_t j = 0; j < m; j++)
			for (uint32_t t = 0; t < BS; t++)
				thread_accesses(b, j * BS + t, (uint64_t)all[i0 + j] * BS + t);
		rd_kernel *ck = rd_kernel_builder_finish(b);
		assert_non_null(ck);
		uint32_t *ids = malloc(m * sizeof *ids);
		assert_non_null(ids);
		memcpy(ids, all + i0, m * sizeof *ids);
		rd_kernel_set_part_blocks(ck, ids, m);
		uint64_t nl = ck->nloads, ns = ck->nstores, loads, stores;
		assert_int_equal(rd_part_builder_add(pb, ck), RD_OK);
		if (spare) { /* the chunk's accesses, spent: the part's never all held */
			kernel_spare_held(spare, &loads, &stores);
			assert_int_equal(loads, nl);
			assert_int_equal(stores, ns);
		}
	}
	rd_kernel *shape = rd_kernel_builder_finish(rd_kernel_builder_new("parts", BS, 1, 1));
	assert_non_null(shape);
	rd_kernel_set_part_blocks(shape, all, n);
	assert_int_equal(rd_part_builder_shell(pb, shape), RD_OK);
	return shape;
}

/* Parts coalesced a chunk of blocks at a time (rd_part_builder; a chunk
 * of 1, 2 or 3 blocks: the empty block 5 a chunk of its own, chunks cut by
 * gpu.max_threads) give the whole kernel's counts, and the part built
 * whole's thread index and counts. */
static void check_chunked(uint32_t max_threads, const char *key, const char *val)
{
	rd_config c;
	config(&c, max_threads);
	if (key)
		set(&c, key, val);
	rd_kernel *whole = build(&c, -1);
	rd_model *m = rd_model_new(whole);
	rd_result want;
	assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, NULL, &want), RD_OK);
	rd_model_free(m);
	for (uint32_t per = 1; per <= 3; per++) {
		rd_kernel_spare *spare = rd_kernel_spare_new();
		assert_non_null(spare);
		rd_parts *p = rd_parts_new(&c, RD_ALL_CASES);
		assert_non_null(p);
		for (int core = 0; core < CORES; core++) {
			rd_part_builder *pb = rd_part_builder_new(&c, 2);
			assert_non_null(pb);
			rd_kernel *k = build_chunked(&c, core, per, pb, spare);
			rd_kernel *w = build(&c, core); /* the part built whole */
			assert_int_equal(k->nthreads, w->nthreads);
			assert_int_equal(k->nloads, w->nloads);
			assert_int_equal(k->nstores, w->nstores);
			assert_int_equal(k->store_threads, w->store_threads);
			assert_memory_equal(k->thread_first, w->thread_first,
					    (w->nthreads + 1) * sizeof *w->thread_first);
			assert_null(k->store_tid); /* (the builder's: which threads have stores) */
			rd_kernel_free(w);
			k->spare = spare;
			int ready = 0;
			assert_int_equal(rd_parts_add_built(p, k, pb, count_ready, &ready), RD_OK);
			assert_int_equal(ready, 1);
			rd_part_builder_free(pb);
			rd_kernel_free(k);
		}
		rd_kernel *shape = rd_kernel_builder_finish(rd_kernel_builder_new("parts", BS, 1, 1));
		rd_result got;
		assert_int_equal(rd_parts_finish(p, shape, NULL, &got), RD_OK);
		tu_assert_same_counts(&want, &got);
		assert_int_equal(got.accesses, want.accesses);
		assert_int_equal(got.threads_total, want.threads_total);
		assert_int_equal(got.threads_modelled, want.threads_modelled);
		rd_result_free(&got);
		rd_parts_free(p);
		rd_kernel_free(shape);
		rd_kernel_spare_free(spare);
	}
	rd_result_free(&want);
	rd_kernel_free(whole);
}

static void test_parts_chunked(void **state)
{
	(void)state;
	check_chunked(0, NULL, NULL);
	check_chunked(30, NULL, NULL);
	check_chunked(9, NULL, NULL);
	check_chunked(0, "l1.stores", "ignore");
	check_chunked(0, "l1.stores", "evict");
	check_chunked(0, "l1.sector", "8");
}

/* Chunks that are not the shape's blocks are refused (RD_EINVAL), and a
 * chunk after a failure is only freed. */
static void test_parts_chunked_mismatch(void **state)
{
	(void)state;
	rd_config c;
	config(&c, 0);
	rd_part_builder *pb = rd_part_builder_new(&c, 1);
	assert_non_null(pb);
	rd_kernel *k = build_chunked(&c, 1, 2, pb, NULL);
	rd_kernel *other = rd_kernel_builder_finish(rd_kernel_builder_new("parts", BS, 1, 1));
	uint32_t *ids = malloc(sizeof *ids);
	assert_non_null(ids);
	ids[0] = 1;
	rd_kernel_set_part_blocks(other, ids, 1); /* one block, the builder's are more */
	assert_int_equal(rd_part_builder_shell(pb, other), RD_EINVAL);
	rd_kernel *bad = rd_kernel_builder_finish(rd_kernel_builder_new("parts", BS + 1, 1, 1));
	assert_int_equal(rd_part_builder_add(pb, bad), RD_EINVAL); /* (no part_block) */
	rd_kernel *after = rd_kernel_builder_finish(rd_kernel_builder_new("parts", BS, 1, 1));
	assert_int_equal(rd_part_builder_add(pb, after), RD_EINVAL);
	rd_kernel_free(other);
	rd_kernel_free(k);
	rd_part_builder_free(pb);
}

static void test_launch_ids(void **state)
{
	(void)state;
	rd_config c;
	config(&c, 0);
	rd_kernel *k = build(&c, 3); /* blocks 3, 7, 11 */
	assert_int_equal(k->part_nblocks, 3);
	assert_int_equal(rd_kernel_launch_thread(k, 0), 12);
	assert_int_equal(rd_kernel_launch_thread(k, 5), 29);
	assert_int_equal(rd_kernel_launch_thread(k, 11), 47);
	assert_int_equal(rd_kernel_threads_below(k, 12), 0);
	assert_int_equal(rd_kernel_threads_below(k, 14), 2);
	assert_int_equal(rd_kernel_threads_below(k, 16), 4);
	assert_int_equal(rd_kernel_threads_below(k, 30), 6);
	assert_int_equal(rd_kernel_threads_below(k, 1000), 12);
	rd_kernel_free(k);
}

/* A part's accesses read from the part built whole (rd_kernel_src_new over
 * its own blocks), at most batch at a time, its cursors counted. */
typedef struct kc_src {
	const rd_kernel *k;
	uint32_t batch;
	_Atomic int opened, closed; /* (the cases open cursors on their own threads) */
	rd_access_src *in;
	_Atomic int reopened;       /* (kc_reopen's moves) */
} kc_src;

/* The source over the part built whole (before any open: a part's
 * reading and its cases open cursors on several threads). */
static void kc_init(kc_src *s)
{
	uint32_t *ids = malloc((s->k->part_nblocks + 1) * sizeof *ids);
	assert_non_null(ids);
	for (uint32_t b = 0; b < s->k->part_nblocks; b++)
		ids[b] = b;
	s->in = rd_kernel_src_new(s->k, ids, s->k->part_nblocks);
	assert_non_null(s->in);
	free(ids);
}

static void *kc_open(void *ctx, uint32_t t)
{
	kc_src *s = ctx;
	void *c = s->in->open(s->in->ctx, t);
	assert_non_null(c);
	s->opened++;
	void **pc = malloc(2 * sizeof *pc);
	assert_non_null(pc);
	pc[0] = s;
	pc[1] = c;
	return pc;
}

static int64_t kc_next(void *cur, uint64_t *addr, uint16_t *bytes, uint8_t *store, uint32_t max)
{
	void **pc = cur;
	kc_src *s = pc[0];
	return s->in->next(pc[1], addr, bytes, store, max < s->batch ? max : s->batch);
}

/* A cursor moved to thread t (rd_access_src.reopen: the feed's cursors
 * moved from warp to warp): the wrapper kept, its cursor another's. */
static int kc_reopen(void *cur, uint32_t t)
{
	void **pc = cur;
	kc_src *s = pc[0];
	void *c = s->in->open(s->in->ctx, t);
	if (!c)
		return -1;
	s->in->close(pc[1]);
	pc[1] = c;
	s->reopened++;
	return 0;
}

static void kc_close(void *cur)
{
	void **pc = cur;
	kc_src *s = pc[0];
	s->in->close(pc[1]);
	s->closed++;
	free(pc);
}

/* A streamed part's shape: no accesses, w's part blocks. */
static rd_kernel *shape_of(const rd_kernel *w)
{
	rd_kernel *shape = rd_kernel_builder_finish(rd_kernel_builder_new("parts", BS, 1, 1));
	assert_non_null(shape);
	uint32_t *ids = malloc(w->part_nblocks * sizeof *ids);
	assert_non_null(ids);
	memcpy(ids, w->part_block, w->part_nblocks * sizeof *ids);
	rd_kernel_set_part_blocks(shape, ids, w->part_nblocks);
	return shape;
}

/* Parts streamed (rd_parts_add_stream: each thread's accesses read a
 * batch at a time, by the lines' first reading and then by each case as
 * it runs) give the whole kernel's counts, and the thread index of the
 * part built whole; every cursor opened is closed. */
static void check_stream_keep(const char *key, const char *val, uint32_t batch, uint64_t keep,
			      int reopen)
{
	rd_config c;
	config(&c, 0);
	if (key)
		set(&c, key, val);
	rd_kernel *whole = build(&c, -1);
	rd_model *m = rd_model_new(whole);
	rd_result want;
	assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, NULL, &want), RD_OK);
	rd_model_free(m);
	rd_parts *p = rd_parts_new(&c, RD_ALL_CASES);
	assert_non_null(p);
	rd_parts_set_threads(p, 2);
	rd_parts_set_stream_keep(p, keep);
	int moved = 0;
	for (int core = 0; core < CORES; core++) {
		rd_kernel *w = build(&c, core); /* the part built whole: the source */
		kc_src src = {w, batch, 0, 0, NULL, 0};
		kc_init(&src);
		rd_access_src as = {&src, kc_open, kc_next, kc_close, reopen ? kc_reopen : NULL};
		rd_kernel *shape = shape_of(w);
		int ready = 0;
		assert_int_equal(rd_parts_add_stream(p, shape, &as, count_ready, &ready), RD_OK);
		if (reopen) { /* (a warp's cursors moved on to the next warp's threads) */
			moved += src.reopened;
			assert_int_equal(src.opened + src.reopened, (int)(w->part_nblocks * BS));
			assert_int_equal(src.opened, src.closed);
		}
		assert_int_equal(ready, 1);
		/* read once (kept), or again by each case run (those provably
		 * case 0's are not) */
		int nt = (int)(w->part_nblocks * BS);
		if (c.max_threads) { /* (threads past it are not read) */
			assert_int_equal(src.opened, src.closed);
			rd_kernel_free(shape);
			rd_kernel_src_free(src.in);
			rd_kernel_free(w);
			continue;
		}
		if (keep && !reopen)
			assert_int_equal(src.opened, nt);
		else if (!keep)
			assert_true(src.opened >= 2 * nt && src.opened % nt == 0);
		assert_int_equal(src.opened, src.closed);
		assert_int_equal(shape->nthreads, w->nthreads);
		assert_int_equal(shape->nloads, w->nloads);
		assert_int_equal(shape->nstores, w->nstores);
		assert_int_equal(shape->store_threads, w->store_threads);
		assert_memory_equal(shape->thread_first, w->thread_first,
				    (w->nthreads + 1) * sizeof *w->thread_first);
		rd_kernel_free(shape);
		rd_kernel_src_free(src.in);
		rd_kernel_free(w);
	}
	assert_true(!reopen || moved > 0);
	rd_kernel *shape = rd_kernel_builder_finish(rd_kernel_builder_new("parts", BS, 1, 1));
	rd_result got;
	assert_int_equal(rd_parts_finish(p, shape, NULL, &got), RD_OK);
	tu_assert_same_counts(&want, &got);
	assert_int_equal(got.accesses, want.accesses);
	assert_int_equal(got.threads_total, want.threads_total);
	assert_int_equal(got.threads_modelled, want.threads_modelled);
	rd_result_free(&got);
	rd_result_free(&want);
	rd_parts_free(p);
	rd_kernel_free(shape);
	rd_kernel_free(whole);
}

/* Read again by each case, and kept from the first reading. */
static void check_stream(const char *key, const char *val, uint32_t batch)
{
	check_stream_keep(key, val, batch, 0, 0);
	check_stream_keep(key, val, batch, RD_STREAM_KEEP, 0);
	check_stream_keep(key, val, batch, RD_STREAM_KEEP, 1);
}

static void test_parts_stream(void **state)
{
	(void)state;
	for (uint32_t batch = 1; batch <= 64; batch *= 4) {
		check_stream(NULL, NULL, batch);
		check_stream("l1.stores", "ignore", batch);
		check_stream("l1.stores", "evict", batch);
		check_stream("l1.sector", "8", batch);
	}
	/* groups within a warp: the streamed passes' table of leaders
	 * against the expanded loop (loads only: the whole kernel's loads are
	 * coalesced there) and against the store passes */
	wide = 1;
	check_stream(NULL, NULL, 3);
	check_stream("l1.stores", "ignore", 3);
	wide = 0;
	check_stream("gpu.divergence", "0", 5);
	check_stream("l1.mshr_per_warp", "1", 5);
	check_stream("gpu.scheduler_policy", "gto", 5);
	check_stream("l1.replacement", "random", 5);
	check_stream("latency.miss", "0", 5);
	/* gpu.max_threads ending a part inside a block, and between blocks */
	check_stream("gpu.max_threads", "9", 3);
	check_stream("gpu.max_threads", "30", 3);
	check_stream("gpu.max_threads", "32", 3);
}

/* A kernel of long threads (blocks of bs; per loads each, a store every seventh, over
 * 64 KiB), whole or core's blocks (as build_in). */
static rd_kernel *build_long(const rd_config *c, int core, uint32_t per, uint32_t bs)
{
	rd_kernel_builder *b = rd_kernel_builder_new("long", bs, 1, 1);
	assert_non_null(b);
	uint32_t *ids = malloc(NBLOCKS * sizeof *ids), n = 0;
	assert_non_null(ids);
	for (uint32_t blk = 0; blk < NBLOCKS; blk++) {
		if (core >= 0 && rd_block_core(c, blk) != (uint32_t)core)
			continue;
		uint32_t local = core >= 0 ? n : blk;
		ids[n++] = blk;
		for (uint32_t t = 0; t < bs; t++) {
			uint64_t g = (uint64_t)blk * bs + t;
			uint32_t len = per - (uint32_t)(g % 5) * 7; /* (warps end apart) */
			for (uint32_t i = 0; i < len; i++) {
				uint64_t a = (g * 4 + (uint64_t)i * 132 + (i % 11) * 4096) % 65536;
				assert_int_equal(rd_kernel_builder_add(b, local * bs + t, i % 7 == 3, a, 4),
						 0);
			}
		}
	}
	rd_kernel *k = rd_kernel_builder_finish(b);
	assert_non_null(k);
	if (core >= 0)
		rd_kernel_set_part_blocks(k, ids, n);
	else
		free(ids);
	return k;
}

/* Long threads streamed: each case's windows are compacted many times
 * (a part has thousands of requests); the same counts as the whole. */
static void test_parts_stream_long(void **state)
{
	(void)state;
	/* (one block at a time: a block's warps start while the windows are
	 * compacted) */
	const char *keys[][2] = {{NULL, NULL},
				 {"l1.sector", "8"},
				 {"l1.stores", "ignore"},
				 {"gpu.divergence", "0"},
				 {"gpu.max_active_blocks", "1"},
				 {"gpu.warp_size", "1"},
				 {"gpu.max_active_blocks", "1"}};
	/* (the last: blocks of 32 warps, each block's start a compaction) */
	for (int x = 0; x < 7; x++) {
		rd_config c;
		config(&c, 0);
		if (keys[x][0])
			set(&c, keys[x][0], keys[x][1]);
		if (x == 5)
			set(&c, "gpu.max_active_blocks", "1");
		rd_kernel *whole = build_long(&c, -1, 700, x == 6 ? 64 : BS);
		rd_model *m = rd_model_new(whole);
		rd_result want;
		assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, NULL, &want), RD_OK);
		rd_model_free(m);
		rd_parts *p = rd_parts_new(&c, RD_ALL_CASES);
		assert_non_null(p);
		/* (read again; kept; kept until past 1,000 requests, then read again) */
		rd_parts_set_stream_keep(p, x == 1 ? RD_STREAM_KEEP : x == 2 ? 1000 : 0);
		if (x == 4)
			rd_parts_set_threads(p, 2);
		for (int core = 0; core < CORES; core++) {
			rd_kernel *w = build_long(&c, core, 700, x == 6 ? 64 : BS);
			kc_src src = {w, 13, 0, 0, NULL, 0};
			kc_init(&src);
			rd_access_src as = {&src, kc_open, kc_next, kc_close, NULL};
			rd_kernel *shape = rd_kernel_builder_finish(
				rd_kernel_builder_new("long", x == 6 ? 64 : BS, 1, 1));
			uint32_t *ids = malloc(w->part_nblocks * sizeof *ids);
			assert_non_null(ids);
			memcpy(ids, w->part_block, w->part_nblocks * sizeof *ids);
			rd_kernel_set_part_blocks(shape, ids, w->part_nblocks);
			assert_int_equal(rd_parts_add_stream(p, shape, &as, NULL, NULL), RD_OK);
			assert_int_equal(src.opened, src.closed);
			rd_kernel_free(shape);
			rd_kernel_src_free(src.in);
			rd_kernel_free(w);
		}
		rd_kernel *shape =
			rd_kernel_builder_finish(rd_kernel_builder_new("long", x == 6 ? 64 : BS, 1, 1));
		rd_result got;
		assert_int_equal(rd_parts_finish(p, shape, NULL, &got), RD_OK);
		assert_true(want.requests > 4 * 4 * 1024); /* (windows compacted) */
		tu_assert_same_counts(&want, &got);
		assert_int_equal(got.accesses, want.accesses);
		rd_result_free(&got);
		rd_result_free(&want);
		rd_parts_free(p);
		rd_kernel_free(shape);
		rd_kernel_free(whole);
	}
}

/* rd_parts_set_stop: asked while a part is read and modelled; stop at
 * the n-th question (0: never), counting them */
typedef struct stop_at {
	int n, asked;
} stop_at;

static int stop_when(void *ctx)
{
	stop_at *s = ctx;
	s->asked++;
	return s->n && s->asked >= s->n;
}

/* One core's part streamed (keep: its requests kept) or built whole, with
 * a stop at the n-th question: the status; *asked the questions. */
static int stream_stopped(int stream, uint64_t keep, int n, int *asked)
{
	rd_config c;
	config(&c, 0);
	rd_parts *p = rd_parts_new(&c, RD_ALL_CASES);
	assert_non_null(p);
	rd_parts_set_stream_keep(p, keep);
	stop_at sa = {n, 0};
	rd_parts_set_stop(p, stop_when, &sa);
	rd_kernel *w = build_long(&c, 1, 700, BS);
	int ready = 0, rc;
	if (stream) {
		kc_src src = {w, 5, 0, 0, NULL, 0};
		kc_init(&src);
		rd_access_src as = {&src, kc_open, kc_next, kc_close, NULL};
		rd_kernel *shape = shape_of(w);
		rc = rd_parts_add_stream(p, shape, &as, count_ready, &ready);
		assert_int_equal(src.opened, src.closed);
		rd_kernel_free(shape);
		rd_kernel_src_free(src.in);
		rd_kernel_free(w);
	} else {
		rc = rd_parts_add_spent(p, w, count_ready, &ready);
		rd_kernel_free(w);
	}
	assert_int_equal(ready, 1);
	rd_parts_free(p);
	*asked = sa.asked;
	return rc;
}

/* A stop asked inside parts (the explorer's edit during a long part):
 * never, the part runs (asked while it is read and while its cases run:
 * more often than the stages alone would ask); at any question,
 * RD_ECANCELED and asked no more, cursors closed, ready called once,
 * nothing leaked (make asan). */
static void test_parts_stop(void **state)
{
	(void)state;
	for (int mode = 0; mode < 3; mode++) { /* read again, kept, built */
		int stream = mode < 2, asked = 0, again = 0;
		uint64_t keep = mode == 1 ? RD_STREAM_KEEP : 0;
		assert_int_equal(stream_stopped(stream, keep, 0, &asked), RD_OK);
		assert_true(asked > 2); /* (the stages ask twice) */
		int at[] = {1, 2, asked / 2, asked};
		for (int i = 0; i < 4; i++) {
			assert_int_equal(stream_stopped(stream, keep, at[i], &again), RD_ECANCELED);
			assert_int_equal(again, at[i]);
		}
	}
}

/* Streaming is the paper's model only; ready is called either way. */
static void test_parts_stream_refused(void **state)
{
	(void)state;
	const char *keys[][2] = {{"model", "rdgc"}, {"model", "reference-2013"}};
	for (int i = 0; i < 2; i++) {
		rd_config c;
		config(&c, 0);
		set(&c, keys[i][0], keys[i][1]);
		rd_parts *p = rd_parts_new(&c, RD_ALL_CASES);
		if (!p)
			continue; /* (not a configuration parts take at all) */
		rd_kernel *w = build(&c, 1);
		kc_src src = {w, 7, 0, 0, NULL, 0};
		kc_init(&src);
		rd_access_src as = {&src, kc_open, kc_next, kc_close, NULL};
		rd_kernel *shape = shape_of(w);
		int ready = 0;
		assert_int_equal(rd_parts_add_stream(p, shape, &as, count_ready, &ready), RD_EINVAL);
		assert_int_equal(ready, 1);
		assert_int_equal(src.opened, src.closed);
		rd_kernel_free(shape);
		rd_kernel_src_free(src.in);
		rd_kernel_free(w);
		rd_parts_free(p);
	}
}

static void test_parts_spill(void **state)
{
	(void)state;
	static const char *const queued[] = {
		"l2.size", "1024", "l2.line", "64", "l2.ways", "2", "l2.partitions", "2",
		"l2.banks", "2", "l2.ports", "1", "l2.mshrs", "1", "latency.l2", "40",
		"l2.stores", "evict", "dram.enable", "1", NULL};
	static const char *const sectors[] = {
		"l1.sector", "8", "l2.size", "2048", "l2.line", "16", "l2.sector", "8",
		"l2.ports", "2", NULL};
	static const char *const dram_only[] = {"dram.enable", "1", NULL};
	static const char *const allocate[] = {"l2.size", "512", "l2.ways", "1", "l2.mshrs", "2",
					       "l2.max_merges", "1", "latency.l2", "7", NULL};
	const char *const *cfg[] = {queued, sectors, dram_only, allocate};
	for (int w = 0; w < 2; w++) {
		wide = w;
		for (size_t i = 0; i < sizeof cfg / sizeof *cfg; i++) {
			check_spill(cfg[i], 1);
			check_spill(cfg[i], 40);
			check_spill(cfg[i], 0);
		}
	}
	wide = 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parts_whole),
		cmocka_unit_test(test_parts_max_threads),
		cmocka_unit_test(test_parts_spare),
		cmocka_unit_test(test_parts_spare_large),
		cmocka_unit_test(test_parts_peek),
		cmocka_unit_test(test_parts_chunked),
		cmocka_unit_test(test_parts_chunked_mismatch),
		cmocka_unit_test(test_launch_ids),
		cmocka_unit_test(test_parts_stream),
		cmocka_unit_test(test_parts_stream_refused),
		cmocka_unit_test(test_parts_stream_long),
		cmocka_unit_test(test_parts_stop),
		cmocka_unit_test(test_parts_spill),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
