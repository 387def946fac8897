/*
 * Stage 1, scheduling (Nugteren et al., HPCA 2014, §4.1): threads ->
 * warps -> blocks -> cores. Thread t of the trace is lane (t mod bs) of block (t div bs);
 * warps never span blocks, so a block's last warp may be partial.
 *
 * Blocks without a load (with l1.stores not ignore: without an access) are dropped (the paper profile's dispatch skips
 * them: under rr and bpart, which deal by block id, they change nothing;
 * the random mapping shuffles the blocks with loads, so on a trace with
 * empty blocks it deals differently from before), so a trace whose thread ids are sparse
 * costs per block it uses, not per id: blocks are numbered densely and
 * block_id maps them back. The reference-2013 profile keeps them all, as
 * its fixed groups of active blocks count empty ones.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

uint32_t sched_core_of(const rd_config *c, uint64_t b)
{
	switch (c->block_mapping) {
	case RD_MAP_BPART4:
		return (uint32_t)(b / 4 % c->cores);
	case RD_MAP_BPART8:
		return (uint32_t)(b / 8 % c->cores);
	default:
		return (uint32_t)(b % c->cores);
	}
}

/* Has block b a load (or, with stores, a store) among threads < nthreads? */
static int block_has_loads(const rd_kernel *k, uint32_t nthreads, uint32_t bs, uint32_t b,
			   int stores)
{
	uint64_t t0 = (uint64_t)b * bs, t1 = t0 + bs;
	if (t1 > nthreads)
		t1 = nthreads;
	uint64_t l0 = t0 < k->nthreads ? t0 : k->nthreads, l1 = t1 < k->nthreads ? t1 : k->nthreads;
	if (k->thread_first[l1] > k->thread_first[l0])
		return 1;
	if (!stores || !k->store_threads)
		return 0;
	uint64_t lo, hi;
	rd_kernel_store_range(k, (uint32_t)t0, (uint32_t)t1, &lo, &hi);
	return hi > lo;
}

uint32_t rd_block_core(const rd_config *c, uint64_t block)
{
	return sched_core_of(c, block);
}

uint32_t rd_sample_pick(uint32_t active, uint32_t n, uint32_t i)
{
	return n ? (uint32_t)((2ull * i + 1) * active / (2ull * n)) : i;
}

int sched_build(rd_sched *s, const rd_kernel *k, const rd_config *c)
{
	memset(s, 0, sizeof *s);
	if (k->block_size == 0 || c->warp_size == 0 || c->cores == 0)
		return RD_EINVAL;
	uint32_t bs = k->block_size, ws = c->warp_size;
	int stores = c->stores != RD_STORES_IGNORE;
	s->nthreads = k->nthreads;
	if (stores && k->store_threads > s->nthreads)
		s->nthreads = k->store_threads;
	/* (a part numbered over its own blocks: its threads below the limit) */
	uint64_t cap = c->max_threads ? rd_kernel_threads_below(k, c->max_threads) : 0;
	if (c->max_threads && s->nthreads > cap)
		s->nthreads = (uint32_t)cap;
	s->warp_size = ws;
	uint32_t all = (uint32_t)(((uint64_t)s->nthreads + bs - 1) / bs);
	s->nblocks = all;
	if (c->model != RD_PROFILE_REF2013) {
		uint32_t used = 0;
		for (uint32_t b = 0; b < all; b++)
			used += block_has_loads(k, s->nthreads, bs, b, stores);
		if (used < all) {
			s->block_id = malloc((used ? used : 1) * sizeof *s->block_id);
			if (!s->block_id)
				return RD_ENOMEM;
			used = 0;
			for (uint32_t b = 0; b < all; b++)
				if (block_has_loads(k, s->nthreads, bs, b, stores))
					s->block_id[used++] = b;
			s->nblocks = used;
		}
	}
	s->warps_per_block = (bs + ws - 1) / ws;
	uint64_t nwarps = (uint64_t)s->nblocks * s->warps_per_block;
	if (nwarps > UINT32_MAX) {
		sched_free(s);
		return RD_EINVAL;
	}
	s->nwarps = (uint32_t)nwarps;
	s->ncores = c->cores;
	s->warp_t0 = malloc((nwarps ? nwarps : 1) * sizeof *s->warp_t0);
	s->warp_nt = malloc((nwarps ? nwarps : 1) * sizeof *s->warp_nt);
	s->core_first = calloc((size_t)c->cores + 1, sizeof *s->core_first);
	s->core_blocks = malloc((s->nblocks ? s->nblocks : 1) * sizeof *s->core_blocks);
	uint32_t *order = malloc((s->nblocks ? s->nblocks : 1) * sizeof *order);
	uint32_t *core = malloc((s->nblocks ? s->nblocks : 1) * sizeof *core);
	if (!s->warp_t0 || !s->warp_nt || !s->core_first || !s->core_blocks || !order || !core) {
		free(order);
		free(core);
		sched_free(s);
		return RD_ENOMEM;
	}
	for (uint32_t b = 0; b < s->nblocks; b++)
		for (uint32_t j = 0; j < s->warps_per_block; j++) {
			uint64_t ob = sched_block_id(s, b);
			uint64_t t0 = ob * bs + (uint64_t)j * ws;
			uint64_t end = ob * bs + (uint64_t)(j + 1) * ws;
			if (end > (ob + 1) * bs)
				end = (ob + 1) * bs;
			if (end > s->nthreads)
				end = s->nthreads;
			uint32_t w = b * s->warps_per_block + j;
			s->warp_t0[w] = (uint32_t)(t0 < end ? t0 : 0);
			s->warp_nt[w] = (uint16_t)(t0 < end ? end - t0 : 0);
		}
	/* Dispatch order: block ids ascending, or a seeded shuffle dealt
	 * round-robin (balanced across cores) for the random mapping. */
	for (uint32_t b = 0; b < s->nblocks; b++)
		order[b] = b;
	if (c->block_mapping == RD_MAP_RANDOM) {
		rd_rng r;
		rng_seed(&r, c->seed, 0x6d6170ULL);
		for (uint32_t i = s->nblocks; i > 1; i--) {
			uint32_t j = (uint32_t)(rng_next(&r) % i);
			uint32_t t = order[i - 1];
			order[i - 1] = order[j];
			order[j] = t;
		}
		for (uint32_t i = 0; i < s->nblocks; i++)
			core[i] = i % c->cores;
	} else {
		for (uint32_t i = 0; i < s->nblocks; i++)
			core[i] = sched_core_of(c, rd_kernel_launch_thread(k, (uint64_t)sched_block_id(
							    s, order[i]) * bs) / bs);
	}
	for (uint32_t i = 0; i < s->nblocks; i++)
		s->core_first[core[i] + 1]++;
	for (uint32_t i = 0; i < c->cores; i++)
		s->core_first[i + 1] += s->core_first[i];
	uint32_t *fill = calloc(c->cores, sizeof *fill);
	if (!fill) {
		free(order);
		free(core);
		sched_free(s);
		return RD_ENOMEM;
	}
	for (uint32_t i = 0; i < s->nblocks; i++)
		s->core_blocks[s->core_first[core[i]] + fill[core[i]]++] = order[i];
	free(fill);
	free(order);
	free(core);
	s->cores_active = sched_cores_used(s);
	if (c->sample_cores && c->sample_cores < s->cores_active && c->model != RD_PROFILE_REF2013) {
		/* gpu.sample_cores: the chosen cores keep their blocks, the others none */
		uint32_t a = 0, j = 0, w = 0, n = c->sample_cores;
		for (uint32_t k = 0; k < c->cores; k++) {
			uint32_t b0 = s->core_first[k], b1 = s->core_first[k + 1];
			int keep = 0;
			if (b1 > b0) {
				keep = j < n && a == rd_sample_pick(s->cores_active, n, j);
				j += keep;
				a++;
			}
			s->core_first[k] = w;
			for (uint32_t i = b0; keep && i < b1; i++)
				s->core_blocks[w++] = s->core_blocks[i];
		}
		s->core_first[c->cores] = w;
		s->cores_sampled = n;
	}
	uint32_t a = c->max_active_threads / bs;
	if (a > c->max_active_blocks)
		a = c->max_active_blocks;
	/* A block larger than the thread limit could not launch on hardware;
	 * the model still runs it, alone. */
	s->active_blocks = a ? a : 1;
	return RD_OK;
}

void sched_free(rd_sched *s)
{
	free(s->warp_t0);
	free(s->warp_nt);
	free(s->core_first);
	free(s->core_blocks);
	free(s->block_id);
	memset(s, 0, sizeof *s);
}
