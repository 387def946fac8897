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
#include <assert.h>
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

/* A stable order of n thread ids (an LSD radix sort, 13 bits a pass:
 * thread ids are below 2^26): perm[i] is the index of the i-th. tmp is
 * n more entries, cnt SORT_R + 1. */
enum { SORT_BITS = 13, SORT_R = 1 << SORT_BITS };
static_assert(RD_MAX_THREAD_ID < (1ull << (2 * SORT_BITS)), "two passes cover a thread id");

static void sort_tids(const uint32_t *tid, uint64_t n, uint32_t *perm, uint32_t *tmp,
		      uint64_t *cnt)
{
	enum { BITS = SORT_BITS, R = SORT_R };
	for (uint64_t i = 0; i < n; i++)
		perm[i] = (uint32_t)i;
	for (int pass = 0; pass < 2; pass++) {
		int sh = pass * BITS;
		memset(cnt, 0, (R + 1) * sizeof *cnt);
		for (uint64_t i = 0; i < n; i++)
			cnt[((tid[i] >> sh) & (R - 1)) + 1]++;
		for (int d = 0; d < R; d++)
			cnt[d + 1] += cnt[d];
		for (uint64_t i = 0; i < n; i++) {
			uint32_t x = perm[i];
			tmp[cnt[(tid[x] >> sh) & (R - 1)]++] = x;
		}
		memcpy(perm, tmp, n * sizeof *perm);
	}
}

rd_kernel *rd_kernel_builder_finish(rd_kernel_builder *b)
{
	rd_kernel *k = calloc(1, sizeof *k);
	/* per store, in file order: its thread, where its thread's loads had
	 * got to then (UINT64_MAX: a thread without loads), address, size;
	 * then the stable order by thread */
	uint32_t *stid = NULL, *perm = NULL, *ptmp = NULL;
	uint64_t *fp = NULL, *sa = NULL, *cnt = NULL;
	uint16_t *sb = NULL;
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
	uint64_t ns = b->stores;
	if (ns && !fail) {
		k->store_threads = b->max_tid_st + 1;
		k->store_tid = malloc(ns * sizeof *k->store_tid);
		k->store_addr = malloc(ns * sizeof *k->store_addr);
		k->store_bytes = malloc(ns * sizeof *k->store_bytes);
		k->store_pos = malloc(ns * sizeof *k->store_pos);
		stid = malloc(ns * sizeof *stid);
		perm = malloc(ns * sizeof *perm);
		ptmp = malloc(ns * sizeof *ptmp);
		fp = malloc(ns * sizeof *fp);
		sa = malloc(ns * sizeof *sa);
		sb = malloc(ns * sizeof *sb);
		cnt = malloc((SORT_R + 1) * sizeof *cnt);
		fail = !cnt || !k->store_tid || !k->store_addr || !k->store_bytes || !k->store_pos || !stid ||
		       !perm || !ptmp || !fp || !sa || !sb;
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
		free(stid), free(perm), free(ptmp), free(fp), free(sa), free(sb), free(cnt);
		rd_kernel_builder_free(b);
		rd_kernel_free(k);
		return NULL;
	}
	/* Counting sort of the loads by thread id; stable, so program order
	 * is kept. The starts serve as the fill positions, each advancing to
	 * the next thread's start, then shift back: no second array of
	 * thread ids. */
	for (uint64_t i = 0; i < b->n; i++)
		if (!ns || !builder_store(b, i))
			k->thread_first[b->tid[i] + 1]++;
	for (uint32_t t = 0; t < k->nthreads; t++)
		k->thread_first[t + 1] += k->thread_first[t];
	uint64_t j = 0;
	for (uint64_t i = 0; i < b->n; i++) {
		uint32_t t = b->tid[i];
		if (ns && builder_store(b, i)) {
			stid[j] = t;
			fp[j] = t < k->nthreads ? k->thread_first[t] : UINT64_MAX;
			sa[j] = b->addr[i];
			sb[j++] = b->bytes[i];
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
	if (ns) {
		/* The stores by thread, stably; a store's place among its
		 * thread's accesses is the loads before it plus the stores. */
		sort_tids(stid, ns, perm, ptmp, cnt);
		uint64_t run = 0;
		for (uint64_t i = 0; i < ns; i++) {
			uint32_t x = perm[i], t = stid[x];
			run = i && k->store_tid[i - 1] == t ? run + 1 : 0;
			k->store_tid[i] = t;
			k->store_addr[i] = sa[x];
			k->store_bytes[i] = sb[x];
			uint64_t loads = fp[x] == UINT64_MAX ? 0 : fp[x] - k->thread_first[t];
			uint64_t pos = loads + run;
			k->store_pos[i] = pos > UINT32_MAX ? UINT32_MAX : (uint32_t)pos;
		}
	}
	free(stid), free(perm), free(ptmp), free(fp), free(sa), free(sb), free(cnt);
	rd_kernel_builder_free(b);
	return k;
}

void rd_kernel_store_range(const rd_kernel *k, uint32_t t0, uint32_t t1, uint64_t *lo,
			   uint64_t *hi)
{
	uint64_t n = k->store_tid ? k->nstores : 0;
	uint32_t key[2] = {t0, t1};
	uint64_t *out[2] = {lo, hi};
	for (int e = 0; e < 2; e++) { /* the first store of a thread >= key */
		uint64_t a = 0, z = n;
		while (a < z) {
			uint64_t m = a + (z - a) / 2;
			if (k->store_tid[m] < key[e])
				a = m + 1;
			else
				z = m;
		}
		*out[e] = a;
	}
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
		free(k->store_tid);
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

int rd_kernel_builder_add_serial(rd_kernel_builder *b, const rd_kernel *k)
{
	int64_t site0 = -1;
	for (uint32_t s = 0; s < k->nsites && k->sites; s++) {
		int64_t id = rd_kernel_builder_site(b, &k->sites[s]);
		if (id < 0)
			return -1;
		if (s == 0)
			site0 = id;
	}
	rd_kernel_builder_reserve(b, k->nloads + k->nstores);
	uint32_t nt = k->nthreads > k->store_threads ? k->nthreads : k->store_threads;
	uint64_t si = 0;
	for (uint32_t t = 0; t < nt; t++) {
		uint64_t li = t < k->nthreads ? k->thread_first[t] : 0;
		uint64_t lend = t < k->nthreads ? k->thread_first[t + 1] : 0;
		/* the thread's loads and stores merged by each store's place */
		for (uint64_t pos = 0;; pos++) {
			int store = si < k->nstores && k->store_tid[si] == t && k->store_pos[si] <= pos;
			if (store) {
				if (rd_kernel_builder_add(b, 0, 1, k->store_addr[si],
							  k->store_bytes[si]) < 0)
					return -1;
				si++;
			} else if (li < lend) {
				uint32_t site = k->site && site0 >= 0 ? (uint32_t)site0 + k->site[li] : 0;
				if (rd_kernel_builder_add_at(b, 0, 0, k->addr[li], k->bytes[li], site) < 0)
					return -1;
				li++;
			} else if (!(si < k->nstores && k->store_tid[si] == t)) {
				break;
			}
		}
	}
	return 0;
}
