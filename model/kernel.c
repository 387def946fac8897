/*
 * Kernels: the thread-level accesses of one trace, grouped per thread in
 * program order. Readers append accesses in file order; only the order of
 * each thread's own accesses carries meaning (Nugteren et al., HPCA 2014,
 * §4.6), so the builder sorts stably by thread id into a CSR layout, one
 * for the loads and one for the stores (each store keeping its place
 * among its thread's accesses). Accesses that come thread after thread
 * (descriptions) are written in that layout as they come, with nothing
 * to sort.
 */
#include "internal.h"

#include <pthread.h>
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
	/*
	 * In order: while every access comes with a thread id no smaller than
	 * the one before (descriptions, one-thread programs), the accesses go
	 * straight into the kernel's own layout: the loads' arrays, each
	 * thread's start in first[], the stores with their places. finish
	 * then only hands the arrays over; the first access out of order
	 * turns them into the file-order arrays above (to_file_order) and the
	 * builder sorts at finish as before.
	 */
	int ordered;
	uint32_t cur;           /* the thread of the last access (any: n != 0) */
	uint64_t cur_acc;       /* its accesses so far, loads and stores */
	uint64_t *first;        /* [first_cap] first[t]: loads before thread t, t <= max_tid */
	uint64_t first_cap;
	uint64_t *laddr;        /* [lcap] the loads, by thread */
	uint16_t *lbytes;
	uint32_t *lsite;        /* [lcap] once the first site is used, or NULL */
	uint64_t lcap;
	uint32_t *stid;         /* [scap] the stores, by thread */
	uint64_t *saddr;
	uint16_t *sbytes;
	uint32_t *spos;
	uint64_t scap;
	rd_kernel_spare *spare; /* named in the kernel (rd_kernel_builder_use_spare) */
	int keep_room;          /* finish leaves the arrays their room (rd_kernel_builder_keep_room) */
};

/* One spent part's loads' and stores' arrays, with room for loads and
 * stores of them (all NULL and 0: none). */
struct rd_kernel_spare {
	pthread_mutex_t mu;
	uint64_t *addr;
	uint16_t *bytes;
	uint64_t loads;
	uint32_t *stid, *spos;
	uint64_t *saddr;
	uint16_t *sbytes;
	uint64_t stores;
};

rd_kernel_spare *rd_kernel_spare_new(void)
{
	rd_kernel_spare *s = calloc(1, sizeof *s);
	if (s && pthread_mutex_init(&s->mu, NULL) != 0) {
		free(s);
		return NULL;
	}
	return s;
}

/* (under s->mu) */
static void spare_clear(rd_kernel_spare *s)
{
	free(s->addr);
	free(s->bytes);
	free(s->stid);
	free(s->spos);
	free(s->saddr);
	free(s->sbytes);
	s->addr = s->saddr = NULL;
	s->bytes = s->sbytes = NULL;
	s->stid = s->spos = NULL;
	s->loads = s->stores = 0;
}

void kernel_spare_empty(rd_kernel_spare *s)
{
	pthread_mutex_lock(&s->mu);
	spare_clear(s);
	pthread_mutex_unlock(&s->mu);
}

void kernel_spare_held(rd_kernel_spare *s, uint64_t *loads, uint64_t *stores)
{
	pthread_mutex_lock(&s->mu);
	*loads = s->addr ? s->loads : 0;
	*stores = s->stid ? s->stores : 0;
	pthread_mutex_unlock(&s->mu);
}

void rd_kernel_spare_free(rd_kernel_spare *s)
{
	if (!s)
		return;
	spare_clear(s);
	pthread_mutex_destroy(&s->mu);
	free(s);
}

/* A part of this many bytes of accesses or more (10 a load, 18 a store,
 * as built) is freed, not kept: the spare is held while the part's cases
 * run, which a large part's pages would add to the run's peak (its own
 * are given back as it is coalesced: coal_build_sect). Below it a spare
 * adds at most this much (gemm, l1.stores=ignore on hopper-h100: 63 ->
 * 74 MB). */
#define SPARE_MAX ((uint64_t)64 << 20)

void kernel_spend_accesses(rd_kernel *k)
{
	rd_kernel_spare *s = k->spare;
	if (s && !k->release && k->addr && k->bytes && k->nloads * 10 + k->nstores * 18 < SPARE_MAX) {
		pthread_mutex_lock(&s->mu);
		spare_clear(s);
		s->addr = k->addr;
		s->bytes = k->bytes;
		s->loads = k->room_loads > k->nloads ? k->room_loads : k->nloads;
		k->addr = NULL;
		k->bytes = NULL;
		if (k->store_tid && k->store_addr && k->store_bytes && k->store_pos) {
			s->stid = k->store_tid;
			s->saddr = k->store_addr;
			s->sbytes = k->store_bytes;
			s->spos = k->store_pos;
			s->stores = k->room_stores > k->nstores ? k->room_stores : k->nstores;
			k->store_tid = k->store_pos = NULL;
			k->store_addr = NULL;
			k->store_bytes = NULL;
		}
		pthread_mutex_unlock(&s->mu);
	}
	kernel_free_accesses(k);
}

void rd_kernel_builder_use_spare(rd_kernel_builder *b, rd_kernel_spare *s)
{
	b->spare = s;
	if (!s || !b->ordered || b->n || b->laddr || b->lbytes || b->stid || b->saddr ||
	    b->sbytes || b->spos)
		return;
	pthread_mutex_lock(&s->mu);
	b->laddr = s->addr;
	b->lbytes = s->bytes;
	b->lcap = s->addr ? s->loads : 0;
	b->stid = s->stid;
	b->saddr = s->saddr;
	b->sbytes = s->sbytes;
	b->spos = s->spos;
	b->scap = s->stid ? s->stores : 0;
	s->addr = s->saddr = NULL;
	s->bytes = s->sbytes = NULL;
	s->stid = s->spos = NULL;
	s->loads = s->stores = 0;
	pthread_mutex_unlock(&s->mu);
}

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
	b->ordered = 1;
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

/* In order: room for need loads, need stores, first[] up to need. */
static int grow_loads(rd_kernel_builder *b, uint64_t need)
{
	uint64_t cap = b->lcap ? b->lcap * 2 : 4096;
	if (cap < need)
		cap = need;
	uint64_t *a = realloc(b->laddr, cap * sizeof *a);
	if (!a)
		return -1;
	b->laddr = a;
	uint16_t *s = realloc(b->lbytes, cap * sizeof *s);
	if (!s)
		return -1;
	b->lbytes = s;
	if (b->lsite) {
		uint32_t *st = realloc(b->lsite, cap * sizeof *st);
		if (!st)
			return -1;
		b->lsite = st;
	}
	b->lcap = cap;
	return 0;
}

static int grow_stores(rd_kernel_builder *b, uint64_t need)
{
	uint64_t cap = b->scap ? b->scap * 2 : 1024;
	if (cap < need)
		cap = need;
	uint32_t *t = realloc(b->stid, cap * sizeof *t);
	if (!t)
		return -1;
	b->stid = t;
	uint64_t *a = realloc(b->saddr, cap * sizeof *a);
	if (!a)
		return -1;
	b->saddr = a;
	uint16_t *s = realloc(b->sbytes, cap * sizeof *s);
	if (!s)
		return -1;
	b->sbytes = s;
	uint32_t *p = realloc(b->spos, cap * sizeof *p);
	if (!p)
		return -1;
	b->spos = p;
	b->scap = cap;
	return 0;
}

static int grow_first(rd_kernel_builder *b, uint64_t need)
{
	uint64_t cap = b->first_cap ? b->first_cap * 2 : 1024;
	if (cap < need)
		cap = need;
	uint64_t *f = realloc(b->first, cap * sizeof *f);
	if (!f)
		return -1;
	b->first = f;
	b->first_cap = cap;
	return 0;
}

static void free_ordered(rd_kernel_builder *b)
{
	free(b->first);
	free(b->laddr);
	free(b->lbytes);
	free(b->lsite);
	free(b->stid);
	free(b->saddr);
	free(b->sbytes);
	free(b->spos);
	b->first = b->laddr = b->saddr = NULL;
	b->lbytes = b->sbytes = NULL;
	b->lsite = b->stid = b->spos = NULL;
	b->first_cap = b->lcap = b->scap = 0;
}

static int add_file_order(rd_kernel_builder *b, uint32_t tid, int is_store, uint64_t addr,
			  uint32_t bytes);

/*
 * The accesses so far out of the in-order layout into the file-order
 * arrays, thread by thread, each thread's loads and stores in their order
 * (the order finish's stable sort by thread gives them: the same kernel).
 * 0, or -1 when out of memory (the builder as it was).
 */
static int to_file_order(rd_kernel_builder *b)
{
	uint64_t n = b->n, loads = b->loads, stores = b->stores;
	uint32_t max_tid = b->max_tid, max_tid_st = b->max_tid_st;
	int any = b->any;
	if (grow_to(b, n > 4096 ? n : 4096) < 0)
		return -1;
	if (b->lsite && !b->site && !(b->site = calloc(b->cap, sizeof *b->site)))
		return -1;
	b->ordered = 0;
	b->n = b->loads = b->stores = 0;
	b->any = 0;
	b->max_tid = b->max_tid_st = 0;
	uint64_t nt = any ? (uint64_t)max_tid + 1 : 0;
	uint64_t end = stores && max_tid_st >= nt ? (uint64_t)max_tid_st + 1 : nt;
	uint64_t si = 0;
	for (uint64_t t = 0; t < end; t++) {
		uint64_t li = t < nt ? b->first[t] : 0;
		uint64_t lend = t + 1 < nt ? b->first[t + 1] : t < nt ? loads : 0;
		for (uint64_t pos = 0;; pos++) {
			if (si < stores && b->stid[si] == t && b->spos[si] <= pos) {
				add_file_order(b, (uint32_t)t, 1, b->saddr[si], b->sbytes[si]);
				si++;
			} else if (li < lend) {
				uint64_t i = b->n;
				add_file_order(b, (uint32_t)t, 0, b->laddr[li], b->lbytes[li]);
				if (b->site)
					b->site[i] = b->lsite ? b->lsite[li] : 0;
				li++;
			} else {
				break;
			}
		}
	}
	assert(b->n == n && b->loads == loads && b->stores == stores);
	free_ordered(b);
	return 0;
}

void rd_kernel_builder_reserve(rd_kernel_builder *b, uint64_t n)
{
	/* a failed hint is harmless: add() grows */
	if (b->ordered) {
		if (b->loads + n > b->lcap)
			grow_loads(b, b->loads + n);
	} else if (b->n + n > b->cap) {
		grow_to(b, b->n + n);
	}
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
	if (b->ordered) {
		if (!b->nsites && !b->lsite) { /* the loads so far are at site 0 */
			b->lsite = calloc(b->lcap ? b->lcap : 1, sizeof *b->lsite);
			if (!b->lsite)
				return -1;
		}
	} else if (!b->nsites && !b->site) {
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

/* Room in first[] for thread tid's start (and the end after it). Where
 * there is none (sparse thread ids: 8 bytes for each id up to tid), the
 * builder leaves the in-order layout: the accesses are kept in file order
 * and finish says what the thread ids cost, as for any trace. 1 room,
 * 0 left the layout, -1 out of memory. */
static int first_room(rd_kernel_builder *b, uint32_t tid)
{
	if ((uint64_t)tid + 2 <= b->first_cap || grow_first(b, (uint64_t)tid + 2) == 0)
		return 1;
	return to_file_order(b) < 0 ? -1 : 0;
}

/* An access in order (tid no smaller than the last one's). site: the
 * load's site id when the builder has sites. 0, 1 when the builder left
 * the in-order layout instead (first_room: add it in file order), -1. */
static int add_ordered(rd_kernel_builder *b, uint32_t tid, int is_store, uint64_t addr,
		       uint32_t bytes, uint32_t site)
{
	if (tid != b->cur || !b->n) {
		b->cur = tid;
		b->cur_acc = 0;
	}
	uint16_t by = (uint16_t)(bytes > 0xffff ? 0xffff : bytes);
	if (is_store) {
		if (b->stores == b->scap && grow_stores(b, b->stores + 1) < 0)
			return -1;
		uint64_t i = b->stores;
		b->stid[i] = tid;
		b->saddr[i] = addr;
		b->sbytes[i] = by;
		b->spos[i] = (uint32_t)b->cur_acc;
		if (!b->stores || tid > b->max_tid_st)
			b->max_tid_st = tid;
		b->stores++;
	} else {
		if (b->loads == b->lcap && grow_loads(b, b->loads + 1) < 0)
			return -1;
		if (!b->any || tid > b->max_tid) { /* the thread's first load */
			int room = first_room(b, tid);
			if (room <= 0)
				return room < 0 ? -1 : 1;
			for (uint64_t t = b->any ? (uint64_t)b->max_tid + 1 : 0; t <= tid; t++)
				b->first[t] = b->loads;
			b->max_tid = tid;
			b->any = 1;
		}
		uint64_t i = b->loads;
		b->laddr[i] = addr;
		b->lbytes[i] = by;
		if (b->lsite)
			b->lsite[i] = site;
		b->loads++;
	}
	b->cur_acc++;
	b->n++;
	return 0;
}

/* Is an access of tid in order? Else (or a thread too long for its
 * places, 2^32 accesses) the builder leaves the in-order layout first. */
static int keep_order(rd_kernel_builder *b, uint32_t tid)
{
	if (!b->n || tid > b->cur || (tid == b->cur && b->cur_acc < UINT32_MAX))
		return 1;
	return to_file_order(b) < 0 ? -1 : 0;
}

int rd_kernel_builder_add_at(rd_kernel_builder *b, uint32_t tid, int is_store, uint64_t addr,
			     uint32_t bytes, uint32_t site)
{
	if (tid > RD_MAX_THREAD_ID)
		return -1;
	if (b->ordered) {
		int k = keep_order(b, tid);
		if (k < 0)
			return -1;
		if (k && (k = add_ordered(b, tid, is_store, addr, bytes,
					  site < b->nsites ? site : 0)) <= 0)
			return k;
	}
	uint64_t n = b->n;
	if (add_file_order(b, tid, is_store, addr, bytes) < 0)
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
	if (b->ordered) {
		int k = keep_order(b, tid);
		if (k < 0)
			return -1;
		if (k && (k = add_ordered(b, tid, is_store, addr, bytes, 0)) <= 0)
			return k;
	}
	return add_file_order(b, tid, is_store, addr, bytes);
}

/*
 * Not yet in rdscope.h (declared by their one caller, src/kdesc/kdesc_int.h):
 * a hint of a kernel's loads and stores, a loop's accesses at once, and
 * arrays finished with their room.
 */
void rd_kernel_builder_keep_room(rd_kernel_builder *b);
void rd_kernel_builder_expect(rd_kernel_builder *b, uint64_t loads, uint64_t stores,
			      uint64_t threads);
int rd_kernel_builder_add_strided(rd_kernel_builder *b, uint32_t tid, int n, const uint8_t *is_store,
				  uint64_t *addr, const uint64_t *step, const uint32_t *bytes,
				  const uint32_t *site, uint64_t trips);

enum { STRIDED_MAX = 64 }; /* accesses a round, at most, taken at once */

/* An in-order builder's loads' and stores' arrays are not fitted to their
 * counts at finish (rd_kernel.room_loads, room_stores say their room):
 * kernels built one after another in a spare's arrays (a part's chunks,
 * of unequal sizes) keep their pages, where a fitted array would give
 * back what the next, larger one faults in again (gemm at its default
 * size: 2 s of system time). */
void rd_kernel_builder_keep_room(rd_kernel_builder *b)
{
	b->keep_room = 1;
}

/* Expect about loads more loads and stores more stores, and thread ids
 * below threads (a hint: the arrays are made that large at once, and
 * fitted at finish). */
void rd_kernel_builder_expect(rd_kernel_builder *b, uint64_t loads, uint64_t stores,
			      uint64_t threads)
{
	if (!b->ordered) {
		rd_kernel_builder_reserve(b, loads + stores);
		return;
	}
	if (loads && b->loads + loads > b->lcap)
		grow_loads(b, b->loads + loads);
	if (stores && b->stores + stores > b->scap)
		grow_stores(b, b->stores + stores);
	if (threads > RD_MAX_THREAD_ID + 1ull)
		threads = RD_MAX_THREAD_ID + 1ull;
	if (threads && threads + 1 > b->first_cap)
		grow_first(b, threads + 1);
}

/*
 * trips rounds of the n accesses of thread tid, access q of a round at
 * addr[q] + step[q] * round (addr[] advanced past the last round), a store
 * if is_store[q], of bytes[q] bytes, a load at site[q]: what as many
 * rd_kernel_builder_add_at calls would add, in one. 0, or -1 (as those).
 */
int rd_kernel_builder_add_strided(rd_kernel_builder *b, uint32_t tid, int n, const uint8_t *is_store,
				  uint64_t *addr, const uint64_t *step, const uint32_t *bytes,
				  const uint32_t *site, uint64_t trips)
{
	if (tid > RD_MAX_THREAD_ID)
		return -1;
	uint64_t nl = 0, ns = 0;
	for (int q = 0; q < n; q++)
		ns += is_store[q] != 0;
	nl = (uint64_t)n - ns;
	if (!n || !trips)
		return 0;
	int k = b->ordered ? keep_order(b, tid) : 0;
	if (k < 0)
		return -1;
	uint64_t cur_acc = b->n && tid == b->cur ? b->cur_acc : 0;
	if (!k || n > STRIDED_MAX || trips > (UINT32_MAX - cur_acc) / (uint64_t)n) {
		/* out of order, or a thread too long for its places: one by one */
		for (uint64_t t = 0; t < trips; t++)
			for (int q = 0; q < n; q++) {
				if (rd_kernel_builder_add_at(b, tid, is_store[q], addr[q], bytes[q],
							     site[q]) < 0)
					return -1;
				addr[q] += step[q];
			}
		return 0;
	}
	if ((nl && b->loads + nl * trips > b->lcap && grow_loads(b, b->loads + nl * trips) < 0) ||
	    (ns && b->stores + ns * trips > b->scap && grow_stores(b, b->stores + ns * trips) < 0))
		return -1;
	if (nl && (!b->any || tid > b->max_tid)) { /* the thread's first load */
		int room = first_room(b, tid);
		if (room < 0)
			return -1;
		if (!room)
			return rd_kernel_builder_add_strided(b, tid, n, is_store, addr, step, bytes,
							     site, trips);
		for (uint64_t t = b->any ? (uint64_t)b->max_tid + 1 : 0; t <= tid; t++)
			b->first[t] = b->loads;
		b->max_tid = tid;
		b->any = 1;
	}
	if (ns && (!b->stores || tid > b->max_tid_st))
		b->max_tid_st = tid;
	uint16_t by[STRIDED_MAX];
	uint32_t st[STRIDED_MAX];
	for (int q = 0; q < n; q++) {
		by[q] = (uint16_t)(bytes[q] > 0xffff ? 0xffff : bytes[q]);
		st[q] = site[q] < b->nsites ? site[q] : 0;
	}
	uint64_t li = b->loads, si = b->stores;
	uint64_t *la = b->laddr, *sa = b->saddr;
	uint16_t *lb = b->lbytes, *sb = b->sbytes;
	uint32_t *ls = b->lsite, *stid = b->stid, *sp = b->spos;
	uint32_t pos = (uint32_t)cur_acc;
	for (uint64_t t = 0; t < trips; t++)
		for (int q = 0; q < n; q++, pos++) {
			if (is_store[q]) {
				stid[si] = tid;
				sa[si] = addr[q];
				sb[si] = by[q];
				sp[si++] = pos;
			} else {
				la[li] = addr[q];
				lb[li] = by[q];
				if (ls)
					ls[li] = st[q];
				li++;
			}
			addr[q] += step[q];
		}
	b->loads = li;
	b->stores = si;
	b->n += (uint64_t)n * trips;
	b->cur = tid;
	b->cur_acc = pos;
	return 0;
}

static int add_file_order(rd_kernel_builder *b, uint32_t tid, int is_store, uint64_t addr,
			  uint32_t bytes)
{
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
	free_ordered(b);
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

/* p (n entries of size bytes, at least one kept) shrunk to its size. */
static void *fit(void *p, uint64_t n, size_t size)
{
	void *q = realloc(p, (n ? n : 1) * size);
	return q ? q : p;
}

/* finish for accesses that came in order: the arrays handed over. */
static rd_kernel *finish_ordered(rd_kernel_builder *b)
{
	rd_kernel *k = calloc(1, sizeof *k);
	uint64_t nt = b->any ? (uint64_t)b->max_tid + 1 : 0;
	if (!k || (nt + 1 > b->first_cap && grow_first(b, nt + 1) < 0) ||
	    (!b->laddr && grow_loads(b, 1) < 0)) {
		free(k);
		rd_kernel_builder_free(b);
		return NULL;
	}
	k->name = b->name;
	b->name = NULL;
	k->spare = b->spare;
	memcpy(k->block_dim, b->dim, sizeof k->block_dim);
	uint64_t bs = (uint64_t)b->dim[0] * b->dim[1] * b->dim[2];
	k->block_size = bs > UINT32_MAX ? UINT32_MAX : (uint32_t)bs;
	k->nthreads = (uint32_t)nt;
	k->nloads = b->loads;
	k->nstores = b->stores;
	b->first[nt] = b->loads;
	k->thread_first = fit(b->first, nt + 1, sizeof *b->first);
	int room = b->keep_room && b->loads;
	k->addr = room ? b->laddr : fit(b->laddr, b->loads, sizeof *b->laddr);
	k->bytes = room ? b->lbytes : fit(b->lbytes, b->loads, sizeof *b->lbytes);
	k->room_loads = room ? b->lcap : 0;
	b->first = b->laddr = NULL;
	b->lbytes = NULL;
	if (b->nsites) {
		k->site = fit(b->lsite, b->loads, sizeof *b->lsite);
		b->lsite = NULL;
		k->sites = b->sites;
		k->nsites = b->nsites;
		b->sites = NULL;
		b->nsites = 0;
	}
	uint64_t ns = b->stores;
	if (ns) {
		k->store_threads = b->max_tid_st + 1;
		if (b->keep_room) {
			k->store_tid = b->stid;
			k->store_addr = b->saddr;
			k->store_bytes = b->sbytes;
			k->store_pos = b->spos;
			k->room_stores = b->scap;
		} else {
			k->store_tid = fit(b->stid, ns, sizeof *b->stid);
			k->store_addr = fit(b->saddr, ns, sizeof *b->saddr);
			k->store_bytes = fit(b->sbytes, ns, sizeof *b->sbytes);
			k->store_pos = fit(b->spos, ns, sizeof *b->spos);
		}
		b->stid = b->spos = NULL;
		b->saddr = NULL;
		b->sbytes = NULL;
	}
	rd_kernel_builder_free(b);
	return k;
}

rd_kernel *rd_kernel_builder_finish(rd_kernel_builder *b)
{
	if (b->ordered)
		return finish_ordered(b);
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
	k->spare = b->spare;
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

void kernel_free_accesses(rd_kernel *k)
{
	if (k->release)
		return;
	free(k->addr);
	free(k->bytes);
	free(k->site);
	free(k->store_tid);
	free(k->store_addr);
	free(k->store_bytes);
	free(k->store_pos);
	k->addr = NULL;
	k->bytes = NULL;
	k->site = NULL;
	k->store_tid = k->store_pos = NULL;
	k->store_addr = NULL;
	k->store_bytes = NULL;
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
		kernel_free_accesses(k);
	}
	for (uint32_t i = 0; i < k->nsites; i++) {
		free(k->sites[i].ref);
		free(k->sites[i].array);
	}
	free(k->sites);
	rd_arrays_free(k->arrays);
	free(k->part_block);
	free(k);
}

void rd_kernel_set_part_blocks(rd_kernel *k, uint32_t *ids, uint32_t n)
{
	if (k->part_block != ids)
		free(k->part_block);
	k->part_block = ids;
	k->part_nblocks = ids ? n : 0;
}

uint64_t rd_kernel_launch_thread(const rd_kernel *k, uint64_t t)
{
	uint64_t bs = k->block_size ? k->block_size : 1;
	if (!k->part_block || t / bs >= k->part_nblocks)
		return t;
	return (uint64_t)k->part_block[t / bs] * bs + t % bs;
}

uint64_t rd_kernel_threads_below(const rd_kernel *k, uint64_t m)
{
	if (!k->part_block)
		return m;
	uint64_t bs = k->block_size ? k->block_size : 1;
	uint32_t a = 0, z = k->part_nblocks; /* the first block not wholly below m */
	while (a < z) {
		uint32_t mid = a + (z - a) / 2;
		if (((uint64_t)k->part_block[mid] + 1) * bs <= m)
			a = mid + 1;
		else
			z = mid;
	}
	uint64_t n = (uint64_t)a * bs, first = a < k->part_nblocks ? (uint64_t)k->part_block[a] * bs : m;
	return n + (m > first ? m - first : 0);
}

void rd_kernel_set_arrays(rd_kernel *k, rd_arrays *as)
{
	if (k->arrays != as)
		rd_arrays_free(k->arrays);
	k->arrays = as;
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

/* ---------------------------------------------------------------- a part read in place */

typedef struct ksrc {
	rd_access_src base; /* first: the handle is this struct */
	const rd_kernel *k;
	uint32_t *blocks, n, bs;
} ksrc;

typedef struct ksrc_cur {
	const rd_kernel *k;
	uint64_t li, le, si, se, pos;
} ksrc_cur;

static void *ksrc_open(void *ctx, uint32_t t)
{
	ksrc *s = ctx;
	if (t / s->bs >= s->n)
		return NULL;
	ksrc_cur *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	const rd_kernel *k = s->k;
	uint64_t T = (uint64_t)s->blocks[t / s->bs] * s->bs + t % s->bs;
	c->k = k;
	if (T < k->nthreads) {
		c->li = k->thread_first[T];
		c->le = k->thread_first[T + 1];
	}
	if (k->nstores && k->store_tid && T <= UINT32_MAX - 1)
		rd_kernel_store_range(k, (uint32_t)T, (uint32_t)T + 1, &c->si, &c->se);
	return c;
}

/* The thread's loads and stores merged in program order (store_pos: a
 * store's place among them). */
static int64_t ksrc_next(void *cur, uint64_t *addr, uint16_t *bytes, uint8_t *store, uint32_t max)
{
	ksrc_cur *c = cur;
	const rd_kernel *k = c->k;
	uint32_t n = 0;
	while (n < max) {
		if (c->si < c->se && (k->store_pos[c->si] == c->pos || c->li == c->le)) {
			addr[n] = k->store_addr[c->si];
			bytes[n] = k->store_bytes[c->si++];
			store[n++] = 1;
		} else if (c->li < c->le) {
			addr[n] = k->addr[c->li];
			bytes[n] = k->bytes[c->li++];
			store[n++] = 0;
		} else {
			break;
		}
		c->pos++;
	}
	return n;
}

static void ksrc_close(void *cur)
{
	free(cur);
}

rd_access_src *rd_kernel_src_new(const rd_kernel *k, const uint32_t *blocks, uint32_t n)
{
	ksrc *s = calloc(1, sizeof *s);
	if (!s || !k->block_size || !(s->blocks = malloc((n ? n : 1) * sizeof *s->blocks))) {
		free(s);
		return NULL;
	}
	memcpy(s->blocks, blocks, (size_t)n * sizeof *s->blocks);
	s->k = k;
	s->n = n;
	s->bs = k->block_size;
	s->base = (rd_access_src){s, ksrc_open, ksrc_next, ksrc_close, NULL};
	return &s->base;
}

void rd_kernel_src_free(rd_access_src *src)
{
	if (!src)
		return;
	ksrc *s = (ksrc *)src;
	free(s->blocks);
	free(s);
}
