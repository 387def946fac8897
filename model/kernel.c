/*
 * Kernels: the thread-level accesses of one trace, grouped per thread in
 * program order. Readers append accesses in file order; only the order of
 * each thread's own accesses carries meaning (Nugteren et al., HPCA 2014,
 * §4.6), so the builder sorts stably by thread id into a CSR layout, one
 * for the loads and one for the stores (each store keeping its place
 * among its thread's accesses).
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rd_kernel_builder {
	char *name;
	uint32_t dim[3];
	uint64_t n, cap;        /* accesses, loads and stores, in file order */
	uint64_t loads, stores;
	uint32_t *tid;
	uint64_t *addr;
	uint16_t *bytes;
	uint64_t *is_store;     /* [cap / 64] bit i: access i is a store */
	uint32_t max_tid;       /* largest thread id with a load (any) */
	uint32_t max_tid_st;    /* ... with a store (stores != 0) */
	int any;
	uint32_t *site;         /* [cap] once the first site is used, or NULL */
	rd_site *sites;
	uint32_t nsites, sites_cap;
};

rd_kernel_builder *rd_kernel_builder_new(const char *name, uint32_t bx, uint32_t by, uint32_t bz)
{
	rd_kernel_builder *b = calloc(1, sizeof *b);
	if (!b)
		return NULL;
	b->name = strdup(name ? name : "kernel");
	if (!b->name) {
		free(b);
		return NULL;
	}
	b->dim[0] = bx;
	b->dim[1] = by;
	b->dim[2] = bz;
	return b;
}

static int grow_to(rd_kernel_builder *b, uint64_t cap)
{
	uint32_t *t = realloc(b->tid, cap * sizeof *t);
	if (!t)
		return -1;
	b->tid = t;
	uint64_t *a = realloc(b->addr, cap * sizeof *a);
	if (!a)
		return -1;
	b->addr = a;
	uint16_t *s = realloc(b->bytes, cap * sizeof *s);
	if (!s)
		return -1;
	b->bytes = s;
	uint64_t *f = realloc(b->is_store, (cap + 63) / 64 * sizeof *f);
	if (!f)
		return -1;
	if (cap > b->cap) /* the new words start clear */
		memset(f + (b->cap + 63) / 64, 0, ((cap + 63) / 64 - (b->cap + 63) / 64) * sizeof *f);
	b->is_store = f;
	if (b->site) {
		uint32_t *st = realloc(b->site, cap * sizeof *st);
		if (!st)
			return -1;
		b->site = st;
	}
	b->cap = cap;
	return 0;
}

static int grow(rd_kernel_builder *b)
{
	return grow_to(b, b->cap ? b->cap * 2 : 4096);
}

void rd_kernel_builder_reserve(rd_kernel_builder *b, uint64_t n)
{
	if (b->n + n > b->cap)
		grow_to(b, b->n + n); /* a failed hint is harmless: add() grows */
}

static char *dup_or_null(const char *s, int *oom)
{
	if (!s)
		return NULL;
	char *d = strdup(s);
	if (!d)
		*oom = 1;
	return d;
}

int64_t rd_kernel_builder_site(rd_kernel_builder *b, const rd_site *s)
{
	if (b->nsites == UINT32_MAX)
		return -1;
	if (!b->nsites && !b->site) { /* the loads so far are at site 0 */
		b->site = calloc(b->cap ? b->cap : 1, sizeof *b->site);
		if (!b->site)
			return -1;
	}
	if (b->nsites == b->sites_cap) {
		rd_site *v = vec_grow(b->sites, &b->sites_cap, sizeof *v, 16);
		if (!v)
			return -1;
		b->sites = v;
	}
	int oom = 0;
	rd_site c = {.pc = s->pc, .line = s->line};
	c.ref = dup_or_null(s->ref, &oom);
	c.array = dup_or_null(s->array, &oom);
	if (oom) {
		free(c.ref);
		free(c.array);
		return -1;
	}
	b->sites[b->nsites] = c;
	return b->nsites++;
}

int rd_kernel_builder_add_at(rd_kernel_builder *b, uint32_t tid, int is_store, uint64_t addr,
			     uint32_t bytes, uint32_t site)
{
	uint64_t n = b->n;
	if (rd_kernel_builder_add(b, tid, is_store, addr, bytes) < 0)
		return -1;
	if (b->n > n && b->site)
		b->site[n] = site < b->nsites ? site : 0;
	return 0;
}

int rd_kernel_builder_add(rd_kernel_builder *b, uint32_t tid, int is_store, uint64_t addr,
			  uint32_t bytes)
{
	if (tid > RD_MAX_THREAD_ID)
		return -1;
	if (b->n == b->cap && grow(b) < 0)
		return -1;
	b->tid[b->n] = tid;
	b->addr[b->n] = addr;
	b->bytes[b->n] = (uint16_t)(bytes > 0xffff ? 0xffff : bytes);
	if (b->site)
		b->site[b->n] = 0;
	if (is_store) {
		b->is_store[b->n >> 6] |= 1ull << (b->n & 63);
		if (!b->stores || tid > b->max_tid_st)
			b->max_tid_st = tid;
		b->stores++;
	} else {
		if (!b->any || tid > b->max_tid)
			b->max_tid = tid;
		b->any = 1;
		b->loads++;
	}
	b->n++;
	return 0;
}

uint64_t rd_kernel_builder_loads(const rd_kernel_builder *b)
{
	return b->loads;
}

uint64_t rd_kernel_builder_stores(const rd_kernel_builder *b)
{
	return b->stores;
}

uint32_t rd_kernel_builder_threads(const rd_kernel_builder *b)
{
	return b->any ? b->max_tid + 1 : 0;
}

void rd_kernel_builder_free(rd_kernel_builder *b)
{
	if (!b)
		return;
	free(b->name);
	free(b->tid);
	free(b->addr);
	free(b->bytes);
	free(b->is_store);
	free(b->site);
	for (uint32_t i = 0; i < b->nsites; i++) {
		free(b->sites[i].ref);
		free(b->sites[i].array);
	}
	free(b->sites);
	free(b);
}

static int builder_store(const rd_kernel_builder *b, uint64_t i)
{
	return (int)(b->is_store[i >> 6] >> (i & 63) & 1);
}

rd_kernel *rd_kernel_builder_finish(rd_kernel_builder *b)
{
	rd_kernel *k = calloc(1, sizeof *k);
	uint64_t *fp = NULL; /* per store: its thread's load fill position then */
	if (!k) {
		rd_kernel_builder_free(b);
		return NULL;
	}
	k->name = b->name;
	b->name = NULL;
	memcpy(k->block_dim, b->dim, sizeof k->block_dim);
	uint64_t bs = (uint64_t)b->dim[0] * b->dim[1] * b->dim[2];
	k->block_size = bs > UINT32_MAX ? UINT32_MAX : (uint32_t)bs;
	/* As the reference: threads = 1 + the largest thread id with a load. */
	k->nthreads = b->any ? b->max_tid + 1 : 0;
	k->nloads = b->loads;
	k->nstores = b->stores;
	k->thread_first = calloc((size_t)k->nthreads + 1, sizeof *k->thread_first);
	k->addr = malloc((b->loads ? b->loads : 1) * sizeof *k->addr);
	k->bytes = malloc((b->loads ? b->loads : 1) * sizeof *k->bytes);
	int fail = !k->thread_first || !k->addr || !k->bytes;
	if (b->stores && !fail) {
		k->store_threads = b->max_tid_st + 1;
		k->store_first = calloc((size_t)k->store_threads + 1, sizeof *k->store_first);
		k->store_addr = malloc(b->stores * sizeof *k->store_addr);
		k->store_bytes = malloc(b->stores * sizeof *k->store_bytes);
		k->store_pos = malloc(b->stores * sizeof *k->store_pos);
		fp = malloc(b->stores * sizeof *fp);
		fail = !k->store_first || !k->store_addr || !k->store_bytes || !k->store_pos || !fp;
	}
	if (!fail && b->nsites) {
		k->site = malloc((b->loads ? b->loads : 1) * sizeof *k->site);
		fail = !k->site;
		if (!fail) {
			k->sites = b->sites;
			k->nsites = b->nsites;
			b->sites = NULL;
			b->nsites = 0;
		}
	}
	if (fail) {
		free(fp);
		rd_kernel_builder_free(b);
		rd_kernel_free(k);
		return NULL;
	}
	/* Counting sorts by thread id; stable, so program order is kept. The
	 * starts serve as the fill positions, each advancing to the next
	 * thread's start, then shift back: no second array of thread ids. */
	for (uint64_t i = 0; i < b->n; i++) {
		if (b->stores && builder_store(b, i))
			k->store_first[b->tid[i] + 1]++;
		else
			k->thread_first[b->tid[i] + 1]++;
	}
	for (uint32_t t = 0; t < k->nthreads; t++)
		k->thread_first[t + 1] += k->thread_first[t];
	for (uint32_t t = 0; t < k->store_threads; t++)
		k->store_first[t + 1] += k->store_first[t];
	for (uint64_t i = 0; i < b->n; i++) {
		uint32_t t = b->tid[i];
		if (b->stores && builder_store(b, i)) {
			uint64_t p = k->store_first[t]++;
			k->store_addr[p] = b->addr[i];
			k->store_bytes[p] = b->bytes[i];
			/* the loads of t so far end here (a thread without loads:
			 * none, marked UINT64_MAX) */
			fp[p] = t < k->nthreads ? k->thread_first[t] : UINT64_MAX;
			continue;
		}
		uint64_t p = k->thread_first[t]++;
		k->addr[p] = b->addr[i];
		k->bytes[p] = b->bytes[i];
		if (k->site)
			k->site[p] = b->site[i];
	}
	if (k->nthreads)
		memmove(k->thread_first + 1, k->thread_first, (size_t)k->nthreads * sizeof *k->thread_first);
	k->thread_first[0] = 0;
	if (k->store_threads)
		memmove(k->store_first + 1, k->store_first, (size_t)k->store_threads * sizeof *k->store_first);
	if (k->store_first)
		k->store_first[0] = 0;
	/* A store's place among its thread's accesses: the loads before it
	 * plus the stores before it. */
	for (uint32_t t = 0; t < k->store_threads; t++)
		for (uint64_t p = k->store_first[t]; p < k->store_first[t + 1]; p++) {
			uint64_t loads = fp[p] == UINT64_MAX ? 0 : fp[p] - k->thread_first[t];
			uint64_t pos = loads + (p - k->store_first[t]);
			k->store_pos[p] = pos > UINT32_MAX ? UINT32_MAX : (uint32_t)pos;
		}
	free(fp);
	rd_kernel_builder_free(b);
	return k;
}

void rd_kernel_free(rd_kernel *k)
{
	if (!k)
		return;
	free(k->name);
	if (k->release) {
		k->release(k->release_ctx);
	} else {
		free(k->thread_first);
		free(k->addr);
		free(k->bytes);
		free(k->site);
		free(k->store_first);
		free(k->store_addr);
		free(k->store_bytes);
		free(k->store_pos);
	}
	for (uint32_t i = 0; i < k->nsites; i++) {
		free(k->sites[i].ref);
		free(k->sites[i].array);
	}
	free(k->sites);
	free(k);
}

uint32_t rd_kernel_nsites(const rd_kernel *k)
{
	if (k->site)
		return k->nsites;
	uint64_t m = 0;
	for (uint32_t t = 0; t < k->nthreads; t++)
		if (k->thread_first[t + 1] - k->thread_first[t] > m)
			m = k->thread_first[t + 1] - k->thread_first[t];
	return m < RD_SITE_LOADS_MAX ? (uint32_t)m : RD_SITE_LOADS_MAX;
}

void rd_kernel_site_label(const rd_kernel *k, uint32_t i, char *buf, size_t len)
{
	const rd_site *s = k->site && i < k->nsites ? &k->sites[i] : NULL;
	if (s && s->line && s->ref)
		snprintf(buf, len, "line %u %s", s->line, s->ref);
	else if (s && s->pc && s->line)
		snprintf(buf, len, "pc 0x%llx line %u", (unsigned long long)s->pc, s->line);
	else if (s && s->pc)
		snprintf(buf, len, "pc 0x%llx", (unsigned long long)s->pc);
	else if (s)
		snprintf(buf, len, "site %u", i);
	else
		snprintf(buf, len, "load %u%s", i, i == RD_SITE_LOADS_MAX - 1 ? " and later" : "");
}
