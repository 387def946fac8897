/*
 * rdscope's binary trace format (see trace_rdt.h).
 *
 * Loading: the file is mapped read-only and each kernel validated. On a
 * little-endian machine a kernel's arrays are the file's own bytes: the
 * kernel borrows them from the mapping (which lives until the reader and
 * every kernel it lent are freed), so loading costs one pass over
 * thread_first and the sizes (and, in version 3, the stores' arrays but
 * their addresses) for the checks, and the trace is never copied
 * into memory of its own: the kernel streams from the file as the model
 * reads it, and the page cache may drop what was read. A file larger than
 * memory is modelled kernel by kernel in the model's memory alone.
 * Elsewhere (big-endian, or input read into memory: standard input,
 * compressed files) values are copied, byte by byte where need be.
 */
#include "trace_rdt.h"

#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static int little_endian(void)
{
	const uint16_t one = 1;
	return *(const unsigned char *)&one == 1;
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

/* ---------------------------------------------------------------- reading */

/* The file's mapping, shared by the reader and the kernels it lent. */
typedef struct rdt_map {
	void *p;
	size_t len;
	atomic_int refs;
} rdt_map;

/* Drop one reference (an rd_kernel release hook, and the reader's). */
static void map_unref(void *ctx)
{
	rdt_map *m = ctx;
	if (atomic_fetch_sub(&m->refs, 1) == 1) {
		munmap(m->p, m->len);
		free(m);
	}
}

/* An rd_kernel drop hook: the pages wholly inside [p, p + n) and inside
 * the mapping are dropped (read from the file again when next touched;
 * the mapping is private, read-only and never written, so nothing is
 * lost). A range outside the mapping is left alone. */
static void map_drop(void *ctx, const void *p, size_t n)
{
#ifdef MADV_DONTNEED
	const rdt_map *m = ctx;
	const uintptr_t page = 4096, base = (uintptr_t)m->p, end = base + m->len;
	uintptr_t s = ((uintptr_t)p + page - 1) & ~(page - 1), e = ((uintptr_t)p + n) & ~(page - 1);
	if (s < base || e > end || s >= e)
		return;
	madvise((void *)s, e - s, MADV_DONTNEED);
#else
	(void)ctx, (void)p, (void)n;
#endif
}

typedef struct rdt_reader {
	trace_reader base;
	const char *shown;
	char *shown_copy;
	const unsigned char *data;
	uint64_t size;
	rdt_map *map; /* NULL: data is a malloc'ed copy */
	uint32_t nkernels, next;
	uint32_t version;
	uint32_t entry; /* table entry size: RDT_ENTRY, RDT_ENTRY_V2 before version 3 */
	uint64_t table;
	char name[RDT_NAME_MAX + 1];
	/* A kernel past the load limit modelled in parts (rdt_load_blocks):
	 * the current kernel whole (rdt_next drops it), lent and checked
	 * once, whose parts are copied from it; or NULL. unlimited: rdt_load
	 * takes a kernel past the limit (for this). */
	rd_kernel *whole;
	int unlimited;
} rdt_reader;

/* A kernel checked for parts (unlimited): the checks hand back each chunk
 * of an array they have read (elements [i - RDT_CHUNK, i) of width bytes
 * at base, when i is a multiple of RDT_CHUNK), so that checking a kernel
 * larger than memory does not hold it. */
#define RDT_CHUNK (1u << 20)
static inline void let_go(const rdt_reader *r, const void *base, uint64_t i, size_t width)
{
	if (r->unlimited && i && !(i % RDT_CHUNK))
		map_drop(r->map, (const char *)base + (i - RDT_CHUNK) * width, (size_t)RDT_CHUNK * width);
}

static int rdt_fail(rdt_reader *r, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static int rdt_fail(rdt_reader *r, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(r->base.err, r->base.errlen, "%s: %s", r->shown, msg);
	return -1;
}

/* Is [off, off + n * width) inside the file? */
static int in_file(const rdt_reader *r, uint64_t off, uint64_t n, uint64_t width)
{
	if (off > r->size || n > (r->size - off) / width)
		return 0;
	return 1;
}

/*
 * malloc for the kernel's large arrays (rd_kernel_free frees them): big
 * ones 2 MiB-aligned and marked for transparent huge pages, so that
 * filling 100 MB takes 50 page faults instead of 25 000.
 */
static void *big_alloc(size_t n)
{
	const size_t huge = 2u << 20;
	if (n < 4 * huge)
		return malloc(n);
	void *p;
	if (posix_memalign(&p, huge, n) != 0)
		return NULL;
#ifdef MADV_HUGEPAGE
	madvise(p, n & ~(huge - 1), MADV_HUGEPAGE);
#endif
	return p;
}

static int rdt_next(trace_reader *rr, const char **name)
{
	rdt_reader *r = (rdt_reader *)rr;
	rd_kernel_free(r->whole);
	r->whole = NULL;
	if (r->next >= r->nkernels)
		return 0;
	const unsigned char *e = r->data + r->table + (uint64_t)r->next * r->entry;
	uint64_t off = get64(e);
	uint32_t len = get32(e + 8);
	if (len == 0 || len > RDT_NAME_MAX || !in_file(r, off, len, 1))
		return rdt_fail(r, "kernel %u: name outside the file or longer than %d bytes",
				r->next, RDT_NAME_MAX);
	memcpy(r->name, r->data + off, len);
	r->name[len] = '\0';
	if (strlen(r->name) != len)
		return rdt_fail(r, "kernel %u: NUL byte in its name", r->next);
	r->next++;
	*name = r->name;
	return 1;
}

/* A version-2 kernel's sites (table entry e) into k, checked: copied,
 * since the kernel owns its sites. */
static int rdt_sites(rdt_reader *r, const unsigned char *e, rd_kernel *k)
{
	uint32_t nsites = get32(e + 28);
	uint64_t off = get64(e + 56), n = k->nloads;
	if (!nsites && !off)
		return TRACE_OK;
	uint64_t tab = off + ((n * 4 + 7) & ~7ull);
	if (!nsites || !off || off % 8 || !in_file(r, off, n, 4) || tab < off ||
	    !in_file(r, tab, nsites, RDT_SITE))
		return rdt_fail(r, "kernel %s: its %u sites do not fit in the file", r->name, nsites),
		       TRACE_EINPUT;
	/* the per-load sites are lent with the other arrays where they are */
	const unsigned char *p = r->data + off;
	if (k->release)
		k->site = (uint32_t *)(uintptr_t)p;
	else
		k->site = big_alloc((n ? n : 1) * sizeof *k->site);
	k->sites = calloc(nsites, sizeof *k->sites);
	if (!k->site || !k->sites) {
		rdt_fail(r, "out of memory");
		return TRACE_ENOMEM;
	}
	k->nsites = nsites;
	for (uint64_t i = 0; i < n; i++) {
		let_go(r, k->site, i, 4);
		if (!k->release)
			k->site[i] = get32(p + i * 4);
		if (k->site[i] >= nsites)
			return rdt_fail(r, "kernel %s: load %llu has site %u of %u", r->name,
					(unsigned long long)i, k->site[i], nsites),
			       TRACE_EINPUT;
	}
	uint64_t text = tab + (uint64_t)nsites * RDT_SITE;
	for (uint32_t i = 0; i < nsites; i++) {
		const unsigned char *q = r->data + tab + (uint64_t)i * RDT_SITE;
		k->sites[i].pc = get64(q);
		k->sites[i].line = get32(q + 8);
		uint32_t len[2] = {get32(q + 12), get32(q + 16)};
		char **dst[2] = {&k->sites[i].ref, &k->sites[i].array};
		for (int j = 0; j < 2; j++) {
			if (!len[j])
				continue;
			if (len[j] > RDT_NAME_MAX || !in_file(r, text, len[j], 1))
				return rdt_fail(r, "kernel %s: site %u's text is outside the file or longer "
						   "than %d bytes", r->name, i, RDT_NAME_MAX),
				       TRACE_EINPUT;
			if (memchr(r->data + text, 0, len[j]))
				return rdt_fail(r, "kernel %s: NUL byte in site %u's text", r->name, i),
				       TRACE_EINPUT;
			if (!(*dst[j] = malloc(len[j] + 1))) {
				rdt_fail(r, "out of memory");
				return TRACE_ENOMEM;
			}
			memcpy(*dst[j], r->data + text, len[j]);
			(*dst[j])[len[j]] = '\0';
			text += len[j];
		}
	}
	return TRACE_OK;
}

/*
 * A version-3 kernel's stores (table entry e) into k: lent from the
 * mapping like the loads when k borrows them, else copied; then checked,
 * since the coalescer walks store_tid and store_pos without bounds of its
 * own (a store whose place lies beyond its thread's accesses would be
 * dropped, a place left behind would never be reached, and
 * rd_kernel_store_range's binary search needs the ids sorted).
 */
static int rdt_stores(rdt_reader *r, const unsigned char *e, rd_kernel *k)
{
	uint64_t off = get64(e + 64), n = k->nstores;
	uint32_t nt = get32(e + 72);
	if (!off && !nt)
		return TRACE_OK; /* counted only, as in versions 1 and 2 */
	if (!off || !nt || !n)
		return rdt_fail(r, "kernel %s: stores offset %llu with %u store threads and %llu "
				   "stores", r->name, (unsigned long long)off, nt,
				(unsigned long long)n), TRACE_EINPUT;
	if (nt > RD_MAX_THREAD_ID + 1u)
		return rdt_fail(r, "kernel %s: %u store threads, more than the model takes", r->name,
				nt), TRACE_EINPUT;
	if (n > trace_max_loads() && !r->unlimited)
		return rdt_fail(r, "kernel %s: %llu stores, more than %llu", r->name,
				(unsigned long long)n, (unsigned long long)trace_max_loads()),
		       TRACE_EINPUT;
	/* n is bounded above, so these sums cannot wrap */
	uint64_t tid_off = off + n * 8, pos_off = tid_off + n * 4, bytes_off = pos_off + n * 4;
	if (off % 8 || !in_file(r, off, n, 8) || !in_file(r, tid_off, n, 4) ||
	    !in_file(r, pos_off, n, 4) || !in_file(r, bytes_off, n, 2))
		return rdt_fail(r, "kernel %s: its %llu stores do not fit in the file (truncated?)",
				r->name, (unsigned long long)n), TRACE_EINPUT;
	const unsigned char *a = r->data + off, *t = r->data + tid_off, *p = r->data + pos_off,
			    *b = r->data + bytes_off;
	k->store_threads = nt;
	if (k->release) {
		/* lent, like the loads: 8-byte aligned offset in a page-aligned
		 * mapping, so each array is aligned to its width */
		k->store_addr = (uint64_t *)(uintptr_t)a;
		k->store_tid = (uint32_t *)(uintptr_t)t;
		k->store_pos = (uint32_t *)(uintptr_t)p;
		k->store_bytes = (uint16_t *)(uintptr_t)b;
	} else {
		k->store_addr = big_alloc(n * sizeof *k->store_addr);
		k->store_tid = big_alloc(n * sizeof *k->store_tid);
		k->store_pos = big_alloc(n * sizeof *k->store_pos);
		k->store_bytes = big_alloc(n * sizeof *k->store_bytes);
		if (!k->store_addr || !k->store_tid || !k->store_pos || !k->store_bytes) {
			rdt_fail(r, "out of memory");
			return TRACE_ENOMEM;
		}
		if (little_endian()) {
			memcpy(k->store_addr, a, n * 8);
			memcpy(k->store_tid, t, n * 4);
			memcpy(k->store_pos, p, n * 4);
			memcpy(k->store_bytes, b, n * 2);
		} else {
			for (uint64_t i = 0; i < n; i++) {
				k->store_addr[i] = get64(a + i * 8);
				k->store_tid[i] = get32(t + i * 4);
				k->store_pos[i] = get32(p + i * 4);
				k->store_bytes[i] = (uint16_t)(b[i * 2] | b[i * 2 + 1] << 8);
			}
		}
	}
	const char *bad = NULL;
	uint64_t at = 0;
	for (uint64_t i = 0; !bad && i < n; i++) {
		let_go(r, k->store_tid, i, 4);
		if (k->store_tid[i] >= nt)
			bad = "a store's thread id is not below the store thread count", at = i;
		else if (i && k->store_tid[i] < k->store_tid[i - 1])
			bad = "store_tid decreases", at = i;
	}
	if (!bad && k->store_tid[n - 1] != nt - 1)
		bad = "its last store's thread is not the last store thread (store thread count "
		      "is 1 + the largest thread id with a store)", at = n - 1;
	for (uint64_t i = 0; !bad && i < n; i++) {
		let_go(r, k->store_bytes, i, 2);
		if (k->store_bytes[i] == 0)
			bad = "a store of 0 bytes", at = i;
	}
	/* Each store's loads before it (its place less its index in the
	 * thread's run) must lie within the thread's loads (none beyond the
	 * load threads) and never fall, which is the same as the places
	 * rising strictly: then each place is reached, in the coalescer's
	 * walk, before the thread's accesses run out. */
	uint64_t run = 0, loads = 0; /* the index of the thread's first store; its loads */
	for (uint64_t i = 0; !bad && i < n; i++) {
		let_go(r, k->store_tid, i, 4);
		let_go(r, k->store_pos, i, 4);
		uint32_t tid = k->store_tid[i];
		if (!i || tid != k->store_tid[i - 1]) {
			run = i;
			loads = tid < k->nthreads ? k->thread_first[tid + 1] - k->thread_first[tid] : 0;
		}
		uint64_t idx = i - run, pos = k->store_pos[i];
		if (idx && pos <= k->store_pos[i - 1])
			bad = "store_pos does not rise within a thread", at = i;
		else if (pos < idx || pos - idx > loads)
			bad = "a store placed beyond its thread's loads", at = i;
	}
	if (bad)
		return rdt_fail(r, "kernel %s: %s (at %llu)", r->name, bad, (unsigned long long)at),
		       TRACE_EINPUT;
	return TRACE_OK;
}

static int rdt_load(trace_reader *rr, rd_kernel **out)
{
	rdt_reader *r = (rdt_reader *)rr;
	*out = NULL;
	uint32_t ki = r->next - 1;
	const unsigned char *e = r->data + r->table + (uint64_t)ki * r->entry;
	uint32_t bx = get32(e + 12), by = get32(e + 16), bz = get32(e + 20);
	uint32_t nthreads = get32(e + 24);
	uint64_t nloads = get64(e + 32), nstores = get64(e + 40), off = get64(e + 48);
	if (bx == 0 || by == 0 || bz == 0 || (uint64_t)bx * by * bz > UINT32_MAX)
		return rdt_fail(r, "kernel %s: block %ux%ux%u is not a block size", r->name, bx, by,
				bz), TRACE_EINPUT;
	if (nthreads > RD_MAX_THREAD_ID + 1u)
		return rdt_fail(r, "kernel %s: %u threads, more than the model takes", r->name,
				nthreads), TRACE_EINPUT;
	if (nloads > trace_max_loads() && !r->unlimited)
		return rdt_fail(r, "kernel %s: %llu loads, more than %llu", r->name,
				(unsigned long long)nloads, (unsigned long long)trace_max_loads()),
		       TRACE_EINPUT;
	uint64_t first_off = off, addr_off = first_off + ((uint64_t)nthreads + 1) * 8,
		 bytes_off = addr_off + nloads * 8;
	if (off % 8 || !in_file(r, first_off, (uint64_t)nthreads + 1, 8) ||
	    !in_file(r, addr_off, nloads, 8) || !in_file(r, bytes_off, nloads, 2))
		return rdt_fail(r, "kernel %s: its %u threads and %llu loads do not fit in the file "
				   "(truncated?)", r->name, nthreads, (unsigned long long)nloads),
		       TRACE_EINPUT;
	const unsigned char *f = r->data + first_off, *a = r->data + addr_off,
			    *b = r->data + bytes_off;
	/* borrow the mapping's bytes when they are the model's layout (the
	 * offsets are 8-byte aligned in a page-aligned mapping) */
	int lend = r->map && little_endian();
	rd_kernel *k = calloc(1, sizeof *k);
	if (k) {
		k->name = strdup(r->name);
		if (lend) {
			/* read-only memory: nothing writes into a loaded kernel */
			k->thread_first = (uint64_t *)(uintptr_t)f;
			k->addr = (uint64_t *)(uintptr_t)a;
			k->bytes = (uint16_t *)(uintptr_t)b;
			k->release = map_unref;
			k->drop = map_drop;
			k->release_ctx = r->map;
			atomic_fetch_add(&r->map->refs, 1);
		} else {
			k->thread_first = big_alloc(((size_t)nthreads + 1) * sizeof *k->thread_first);
			k->addr = big_alloc((nloads ? nloads : 1) * sizeof *k->addr);
			k->bytes = big_alloc((nloads ? nloads : 1) * sizeof *k->bytes);
		}
	}
	if (!k || !k->name || !k->thread_first || !k->addr || !k->bytes) {
		rd_kernel_free(k);
		rr->oom = 1;
		rdt_fail(r, "out of memory");
		return TRACE_ENOMEM;
	}
	k->block_dim[0] = bx, k->block_dim[1] = by, k->block_dim[2] = bz;
	k->block_size = bx * by * bz;
	k->nthreads = nthreads;
	k->nloads = nloads;
	k->nstores = nstores;
	if (lend) {
		/* nothing to copy */
	} else if (little_endian()) {
		memcpy(k->thread_first, f, ((size_t)nthreads + 1) * 8);
		memcpy(k->addr, a, nloads * 8);
		memcpy(k->bytes, b, nloads * 2);
	} else {
		for (uint64_t t = 0; t <= nthreads; t++)
			k->thread_first[t] = get64(f + t * 8);
		for (uint64_t i = 0; i < nloads; i++) {
			k->addr[i] = get64(a + i * 8);
			k->bytes[i] = (uint16_t)(b[i * 2] | b[i * 2 + 1] << 8);
		}
	}
	/* the model trusts these: check them all */
	const char *bad = NULL;
	uint64_t at = 0;
	if (k->thread_first[0] != 0)
		bad = "thread_first[0] is not 0";
	for (uint64_t t = 0; !bad && t < nthreads; t++) {
		let_go(r, k->thread_first, t, 8);
		if (k->thread_first[t + 1] < k->thread_first[t])
			bad = "thread_first decreases", at = t + 1;
	}
	if (!bad && k->thread_first[nthreads] != nloads)
		bad = "thread_first does not end at the load count", at = nthreads;
	if (!bad && nthreads && k->thread_first[nthreads - 1] == nloads)
		bad = "its last thread has no loads (thread count is 1 + the last thread with a "
		      "load)", at = nthreads - 1;
	for (uint64_t i = 0; !bad && i < nloads; i++) {
		let_go(r, k->bytes, i, 2);
		if (k->bytes[i] == 0)
			bad = "an access of 0 bytes", at = i;
	}
	if (bad) {
		rdt_fail(r, "kernel %s: %s (at %llu)", r->name, bad, (unsigned long long)at);
		rd_kernel_free(k);
		return TRACE_EINPUT;
	}
	int src = r->version >= 2 ? rdt_sites(r, e, k) : TRACE_OK;
	if (src == TRACE_OK && r->version >= 3)
		src = rdt_stores(r, e, k);
	if (src != TRACE_OK) {
		rr->oom = src == TRACE_ENOMEM;
		rd_kernel_free(k);
		return src;
	}
	*out = k;
	return TRACE_OK;
}

/* The part of whole kernel w of the blocks keep() accepts into *out, and
 * w's blocks into *nblocks (if not NULL). */
static int rdt_part(rdt_reader *r, const rd_kernel *w, int (*keep)(void *ctx, uint64_t block),
		    void *ctx, uint64_t *nblocks, rd_kernel **out)
{
	uint64_t bs = w->block_size, nt = w->nthreads > w->store_threads ? w->nthreads
									 : w->store_threads;
	uint64_t nb = (nt + bs - 1) / bs, kept = 0, loads = 0, stores = 0;
	if (nblocks)
		*nblocks = nb;
	for (uint64_t b = 0; b < nb; b++)
		kept += keep(ctx, b) != 0;
	uint32_t *ids = malloc((kept ? kept : 1) * sizeof *ids);
	rd_kernel *k = calloc(1, sizeof *k);
	if (!ids || !k || !(k->name = strdup(w->name))) {
		free(ids);
		rd_kernel_free(k);
		r->base.oom = 1;
		return rdt_fail(r, "out of memory"), TRACE_ENOMEM;
	}
	/* the kept blocks, their loads and stores (each block's a run) */
	uint64_t j = 0, lth = 0, sth = 0; /* 1 + the last local thread with a load, a store */
	for (uint64_t b = 0; b < nb; b++) {
		if (!keep(ctx, b))
			continue;
		ids[j] = (uint32_t)b;
		uint64_t t0 = b * bs, t1 = t0 + bs;
		uint64_t l0 = w->thread_first[t0 < w->nthreads ? t0 : w->nthreads];
		uint64_t l1 = w->thread_first[t1 < w->nthreads ? t1 : w->nthreads];
		if (l1 > l0) {
			loads += l1 - l0;
			uint64_t last = (t1 < w->nthreads ? t1 : w->nthreads) - 1;
			while (w->thread_first[last] == l1) /* its last thread with a load */
				last--;
			lth = j * bs + (last - t0) + 1;
		}
		uint64_t lo = 0, hi = 0;
		if (w->store_tid) {
			rd_kernel_store_range(w, (uint32_t)t0, (uint32_t)(t1 < nt ? t1 : nt), &lo, &hi);
			stores += hi - lo;
			if (hi > lo)
				sth = j * bs + (w->store_tid[hi - 1] - t0) + 1;
		}
		j++;
	}
	uint64_t lim = trace_max_loads();
	if (loads > lim || stores > lim) {
		free(ids);
		rd_kernel_free(k);
		return rdt_fail(r, "kernel %s: more than %llu %s in one SM's %llu block%s, which it "
				   "models at once (in memory whole, 10 bytes a load, 18 a store): "
				   "more SMs (gpu.cores) make them fewer",
				r->name, (unsigned long long)lim, loads > lim ? "loads" : "stores",
				(unsigned long long)kept, kept == 1 ? "" : "s"),
		       TRACE_EINPUT;
	}
	k->block_dim[0] = w->block_dim[0], k->block_dim[1] = w->block_dim[1];
	k->block_dim[2] = w->block_dim[2];
	k->block_size = w->block_size;
	k->nthreads = (uint32_t)lth;
	k->nloads = loads;
	k->nstores = stores;
	k->store_threads = (uint32_t)sth;
	k->thread_first = big_alloc((lth + 1) * sizeof *k->thread_first);
	k->addr = big_alloc((loads ? loads : 1) * sizeof *k->addr);
	k->bytes = big_alloc((loads ? loads : 1) * sizeof *k->bytes);
	if (stores) {
		k->store_addr = big_alloc(stores * sizeof *k->store_addr);
		k->store_tid = big_alloc(stores * sizeof *k->store_tid);
		k->store_pos = big_alloc(stores * sizeof *k->store_pos);
		k->store_bytes = big_alloc(stores * sizeof *k->store_bytes);
	}
	if (!k->thread_first || !k->addr || !k->bytes ||
	    (stores && (!k->store_addr || !k->store_tid || !k->store_pos || !k->store_bytes))) {
		free(ids);
		rd_kernel_free(k);
		r->base.oom = 1;
		return rdt_fail(r, "out of memory"), TRACE_ENOMEM;
	}
	uint64_t at = 0, sat = 0;
	k->thread_first[0] = 0;
	for (j = 0; j < kept; j++) {
		uint64_t t0 = (uint64_t)ids[j] * bs;
		for (uint64_t i = 0; i < bs && j * bs + i < lth; i++) {
			uint64_t t = t0 + i;
			uint64_t n = t < w->nthreads ? w->thread_first[t + 1] - w->thread_first[t] : 0;
			if (n) {
				memcpy(k->addr + at, w->addr + w->thread_first[t], n * sizeof *k->addr);
				memcpy(k->bytes + at, w->bytes + w->thread_first[t], n * sizeof *k->bytes);
			}
			at += n;
			k->thread_first[j * bs + i + 1] = at;
		}
		/* the block's loads read: their pages go back */
		uint64_t e0 = t0 < w->nthreads ? t0 : w->nthreads;
		uint64_t e1 = t0 + bs < w->nthreads ? t0 + bs : w->nthreads;
		uint64_t l0 = w->thread_first[e0], l1 = w->thread_first[e1];
		map_drop(r->map, w->addr + l0, (l1 - l0) * sizeof *w->addr);
		map_drop(r->map, w->bytes + l0, (l1 - l0) * sizeof *w->bytes);
		map_drop(r->map, w->thread_first + e0, (e1 - e0) * sizeof *w->thread_first);
		if (stores) {
			uint64_t lo, hi;
			rd_kernel_store_range(w, (uint32_t)t0, (uint32_t)(t0 + bs < nt ? t0 + bs : nt), &lo,
					      &hi);
			for (uint64_t i = lo; i < hi; i++, sat++) {
				k->store_addr[sat] = w->store_addr[i];
				k->store_bytes[sat] = w->store_bytes[i];
				k->store_pos[sat] = w->store_pos[i];
				k->store_tid[sat] = (uint32_t)(j * bs + (w->store_tid[i] - t0));
			}
			map_drop(r->map, w->store_addr + lo, (hi - lo) * sizeof *w->store_addr);
			map_drop(r->map, w->store_tid + lo, (hi - lo) * sizeof *w->store_tid);
			map_drop(r->map, w->store_pos + lo, (hi - lo) * sizeof *w->store_pos);
			map_drop(r->map, w->store_bytes + lo, (hi - lo) * sizeof *w->store_bytes);
		}
	}
	rd_kernel_set_part_blocks(k, ids, (uint32_t)kept);
	*out = k;
	return TRACE_OK;
}

static int rdt_whole(rdt_reader *r);

/*
 * A kernel past the load limit (RDSCOPE_MAX_LOADS), read from a mapped
 * file, is modelled in parts (rd_parts): the whole kernel is lent from the
 * mapping and checked once, and each part -- the blocks keep() accepts,
 * their threads numbered over the part's own blocks (rd_kernel.part_block)
 * -- is copied out of it, so that memory holds one part's accesses (10
 * bytes a load, 18 a store) and the limit counts a part's. Asked for its
 * shape (nblocks), a kernel within the limit, one whose stores are counted
 * only (versions 1 and 2) or one of a file read into memory (compressed,
 * or standard input) is loaded whole as rdt_load does (*nblocks 0: the
 * caller models it whole); any kernel of a mapped file gives its parts.
 */
static int rdt_load_blocks(trace_reader *rr, int (*keep)(void *ctx, uint64_t block), void *ctx,
			   uint64_t *nblocks, rd_kernel **out)
{
	rdt_reader *r = (rdt_reader *)rr;
	*out = NULL;
	const unsigned char *e = r->data + r->table + (uint64_t)(r->next - 1) * r->entry;
	uint64_t nloads = get64(e + 32), nstores = get64(e + 40);
	int counted = nstores && (r->version < 3 || (!get64(e + 64) && !get32(e + 72)));
	uint64_t lim = trace_max_loads();
	int can = r->map && little_endian() && !counted;
	if (nblocks && (!can || (nloads <= lim && nstores <= lim))) {
		*nblocks = 0; /* the kernel whole (or the limit's error) */
		return rdt_load(rr, out);
	}
	if (!can) /* (a part asked of a kernel the shape gave whole) */
		return rdt_fail(r, "kernel %s: cannot be read in parts (stores counted only, or "
				   "the file not mapped)", r->name),
		       TRACE_EINPUT;
	int rc = rdt_whole(r);
	return rc != TRACE_OK ? rc : rdt_part(r, r->whole, keep, ctx, nblocks, out);
}

/* The current kernel whole (r->whole), lent from the mapping and checked
 * once for its parts. */
static int rdt_whole(rdt_reader *r)
{
	trace_reader *rr = &r->base;
	if (!r->whole) {
		r->unlimited = 1;
		int rc = rdt_load(rr, &r->whole);
		r->unlimited = 0;
		if (rc != TRACE_OK)
			return rc;
		/* checked: its pages go back (the parts read theirs again) */
		const rd_kernel *w = r->whole;
		map_drop(r->map, w->thread_first, ((size_t)w->nthreads + 1) * sizeof *w->thread_first);
		map_drop(r->map, w->addr, w->nloads * sizeof *w->addr);
		map_drop(r->map, w->bytes, w->nloads * sizeof *w->bytes);
		if (w->site)
			map_drop(r->map, w->site, w->nloads * sizeof *w->site);
		if (w->store_tid) {
			map_drop(r->map, w->store_addr, w->nstores * sizeof *w->store_addr);
			map_drop(r->map, w->store_tid, w->nstores * sizeof *w->store_tid);
			map_drop(r->map, w->store_pos, w->nstores * sizeof *w->store_pos);
			map_drop(r->map, w->store_bytes, w->nstores * sizeof *w->store_bytes);
		}
	}
	return TRACE_OK;
}

/*
 * The part rdt_load_blocks would copy out, streamed (trace_reader.
 * load_stream): its shape and a source reading its threads from the
 * mapped kernel in place (rd_kernel_src_new), nothing copied; its load
 * limit is gone. Only where rdt_load_blocks gives parts (a mapped file,
 * stores in the trace).
 */
static int rdt_load_stream(trace_reader *rr, int (*keep)(void *ctx, uint64_t block), void *ctx,
			   rd_kernel **shape, rd_access_src **src)
{
	rdt_reader *r = (rdt_reader *)rr;
	*shape = NULL;
	*src = NULL;
	const unsigned char *e = r->data + r->table + (uint64_t)(r->next - 1) * r->entry;
	int counted = get64(e + 40) && (r->version < 3 || (!get64(e + 64) && !get32(e + 72)));
	if (!r->map || !little_endian() || counted)
		return rdt_fail(r, "kernel %s: cannot be streamed (stores counted only, or the file "
				   "not mapped)", r->name),
		       TRACE_EINPUT;
	int rc = rdt_whole(r);
	if (rc != TRACE_OK)
		return rc;
	const rd_kernel *w = r->whole;
	uint64_t bs = w->block_size, nt = w->nthreads > w->store_threads ? w->nthreads
									 : w->store_threads;
	uint64_t nb = bs ? (nt + bs - 1) / bs : 0, kept = 0;
	for (uint64_t b = 0; b < nb; b++)
		kept += keep(ctx, b) != 0;
	uint32_t *ids = malloc((kept ? kept : 1) * sizeof *ids);
	rd_kernel *k = calloc(1, sizeof *k);
	if (ids && k && (k->name = strdup(w->name))) {
		uint64_t j = 0;
		for (uint64_t b = 0; b < nb; b++)
			if (keep(ctx, b))
				ids[j++] = (uint32_t)b;
		*src = rd_kernel_src_new(w, ids, (uint32_t)kept);
	}
	if (!*src) {
		free(ids);
		rd_kernel_free(k);
		r->base.oom = 1;
		return rdt_fail(r, "out of memory"), TRACE_ENOMEM;
	}
	memcpy(k->block_dim, w->block_dim, sizeof k->block_dim);
	k->block_size = w->block_size;
	rd_kernel_set_part_blocks(k, ids, (uint32_t)kept);
	*shape = k;
	return TRACE_OK;
}

static const char *rdt_stream_error(const rd_access_src *src)
{
	(void)src;
	return NULL; /* (the kernel was checked whole: reading it cannot fail) */
}

static void rdt_close(trace_reader *rr)
{
	rdt_reader *r = (rdt_reader *)rr;
	rd_kernel_free(r->whole);
	if (r->map)
		map_unref(r->map);
	else
		free((void *)r->data);
	free(r->shown_copy);
	free(r);
}

int trace_rdt_lends(const char *path)
{
	char magic[8];
	FILE *f = little_endian() ? fopen(path, "rb") : NULL;
	int yes = f && fread(magic, 1, 8, f) == 8 && memcmp(magic, RDT_MAGIC, 8) == 0;
	if (f)
		fclose(f);
	return yes;
}

/* What is wrong with a header (RDT_HEADER bytes at h), or NULL; size is
 * the file's (0: not known yet; 1: shorter than a header). */
static const char *header_bad(const unsigned char *h, uint64_t size)
{
	if (size == 1 || memcmp(h, RDT_MAGIC, 8) != 0)
		return "not an rdscope .rdt file (bad magic)";
	if (get32(h + 8) < 1 || get32(h + 8) > RDT_VERSION)
		return "unsupported .rdt version";
	if (size && get64(h + 24) != size)
		return "file size differs from the header's (truncated or extended)";
	return NULL;
}

trace_reader *trace_rdt_reader(textin *t, char *err, size_t errlen, int *oom)
{
	*oom = 0;
	rdt_reader *r = calloc(1, sizeof *r);
	char *shown = r ? strdup(textin_shown(t)) : NULL;
	if (!r || !shown) {
		free(r);
		*oom = 1;
		snprintf(err, errlen, "%s: out of memory", textin_shown(t));
		textin_close(t);
		return NULL;
	}
	r->shown = r->shown_copy = shown;
	r->base.next = rdt_next;
	r->base.load = rdt_load;
	r->base.load_blocks = rdt_load_blocks;
	r->base.load_stream = rdt_load_stream;
	r->base.stream_error = rdt_stream_error;
	r->base.stream_free = rd_kernel_src_free;
	r->base.shape_past_limit = 1;
	r->base.close = rdt_close;
	r->base.err = err;
	r->base.errlen = errlen;
	uint64_t size = textin_plain_size(t);
	if (size && size <= SIZE_MAX) {
		/* not MAP_POPULATE: the file may be larger than memory */
		void *m = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, textin_fd(t), 0);
		rdt_map *map = m != MAP_FAILED ? malloc(sizeof *map) : NULL;
		if (map) {
			map->p = m;
			map->len = (size_t)size;
			atomic_init(&map->refs, 1);
			r->map = map;
			r->data = m;
			r->size = size;
		} else if (m != MAP_FAILED) {
			munmap(m, (size_t)size);
		}
	}
	if (!r->map) {
		/* A pipe or a compressed file: read it all, but check the header
		 * as soon as it is in, and read no more than the size it gives
		 * (so /dev/zero is refused at its first bytes, not when memory
		 * runs out). */
		size_t cap = 1 << 20, len = 0;
		uint64_t want = UINT64_MAX;
		unsigned char *buf = malloc(cap);
		const char *early = NULL;
		for (;;) {
			if (!buf) {
				*oom = 1;
				snprintf(err, errlen, "%s: out of memory", shown);
				textin_close(t);
				rdt_close(&r->base);
				return NULL;
			}
			if (len == cap) {
				unsigned char *b = realloc(buf, cap * 2);
				if (!b) {
					free(buf);
					buf = NULL;
					continue;
				}
				buf = b;
				cap *= 2;
			}
			long n = textin_read(t, buf + len, cap - len);
			if (n < 0) {
				free(buf);
				*oom = textin_oom(t);
				textin_close(t);
				rdt_close(&r->base);
				return NULL;
			}
			if (n == 0)
				break;
			if (len < RDT_HEADER && len + (size_t)n >= RDT_HEADER) {
				early = header_bad(buf, 0);
				want = get64(buf + 24);
			}
			len += (size_t)n;
			if (early || len > want)
				break; /* header_bad below says why */
		}
		r->data = buf;
		r->size = len;
	}
	textin_close(t);
	const unsigned char *h = r->data;
	const char *bad = header_bad(h, r->size < RDT_HEADER ? 1 : r->size);
	if (!bad) {
		r->version = get32(h + 8);
		r->nkernels = get32(h + 12);
		r->table = get64(h + 16);
		r->entry = r->version >= 3 ? RDT_ENTRY : RDT_ENTRY_V2;
		if (r->table < RDT_HEADER || !in_file(r, r->table, r->nkernels, r->entry))
			bad = "kernel table outside the file";
	}
	if (bad) {
		if (!strcmp(bad, "unsupported .rdt version"))
			snprintf(err, errlen, "%s: .rdt version %u (this rdscope reads versions 1 to %d)",
				 shown, get32(h + 8), RDT_VERSION);
		else
			snprintf(err, errlen, "%s: %s", shown, bad);
		rdt_close(&r->base);
		return NULL;
	}
	return &r->base;
}

/* ---------------------------------------------------------------- writing */

typedef struct rdt_entry {
	unsigned char e[RDT_ENTRY];
	char *name;
} rdt_entry;

struct rdt_writer {
	FILE *f;
	uint64_t pos;
	rdt_entry *ent;
	uint32_t n, cap;
};

static int wr(rdt_writer *w, const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, w->f) != n)
		return -1;
	w->pos += n;
	return 0;
}

static int pad8(rdt_writer *w)
{
	static const unsigned char zero[8];
	return wr(w, zero, (size_t)((8 - w->pos % 8) % 8));
}

/* n values of width 2, 4 or 8, little-endian. */
static int wr_array(rdt_writer *w, const void *p, uint64_t n, int width)
{
	if (little_endian())
		return wr(w, p, (size_t)(n * (uint64_t)width));
	unsigned char buf[4096];
	size_t used = 0;
	for (uint64_t i = 0; i < n; i++) {
		if (width == 8)
			put64(buf + used, ((const uint64_t *)p)[i]);
		else if (width == 4)
			put32(buf + used, ((const uint32_t *)p)[i]);
		else
			buf[used] = (unsigned char)((const uint16_t *)p)[i],
			buf[used + 1] = (unsigned char)(((const uint16_t *)p)[i] >> 8);
		used += (size_t)width;
		if (used + 8 > sizeof buf) {
			if (wr(w, buf, used) < 0)
				return -1;
			used = 0;
		}
	}
	return wr(w, buf, used);
}

/* A kernel's sites (version 2), their offset and count into entry e. */
static int wr_sites(rdt_writer *w, unsigned char *e, const rd_kernel *k)
{
	if (pad8(w) < 0)
		return -1;
	put32(e + 28, k->nsites);
	put64(e + 56, w->pos);
	unsigned char buf[4096];
	size_t used = 0;
	for (uint64_t i = 0; i < k->nloads; i++) {
		put32(buf + used, k->site[i]);
		used += 4;
		if (used + 4 > sizeof buf) {
			if (wr(w, buf, used) < 0)
				return -1;
			used = 0;
		}
	}
	if (wr(w, buf, used) < 0 || pad8(w) < 0)
		return -1;
	for (uint32_t i = 0; i < k->nsites; i++) {
		const rd_site *s = &k->sites[i];
		size_t rl = s->ref ? strlen(s->ref) : 0, al = s->array ? strlen(s->array) : 0;
		unsigned char q[RDT_SITE] = {0};
		put64(q, s->pc);
		put32(q + 8, s->line);
		put32(q + 12, (uint32_t)(rl > RDT_NAME_MAX ? RDT_NAME_MAX : rl));
		put32(q + 16, (uint32_t)(al > RDT_NAME_MAX ? RDT_NAME_MAX : al));
		if (wr(w, q, sizeof q) < 0)
			return -1;
	}
	for (uint32_t i = 0; i < k->nsites; i++) {
		const rd_site *s = &k->sites[i];
		size_t rl = s->ref ? strlen(s->ref) : 0, al = s->array ? strlen(s->array) : 0;
		if (wr(w, s->ref, rl > RDT_NAME_MAX ? RDT_NAME_MAX : rl) < 0 ||
		    wr(w, s->array, al > RDT_NAME_MAX ? RDT_NAME_MAX : al) < 0)
			return -1;
	}
	return 0;
}

/* A kernel's stores (version 3), their offset and thread count into
 * entry e. A kernel whose stores are only counted (read from a version 1
 * or 2 file) keeps offset 0: it stays counted only. */
static int wr_stores(rdt_writer *w, unsigned char *e, const rd_kernel *k)
{
	if (!k->nstores || !k->store_tid)
		return 0;
	if (pad8(w) < 0)
		return -1;
	put64(e + 64, w->pos);
	put32(e + 72, k->store_threads);
	if (wr_array(w, k->store_addr, k->nstores, 8) < 0 ||
	    wr_array(w, k->store_tid, k->nstores, 4) < 0 ||
	    wr_array(w, k->store_pos, k->nstores, 4) < 0 ||
	    wr_array(w, k->store_bytes, k->nstores, 2) < 0)
		return -1;
	return 0;
}

rdt_writer *rdt_writer_open(FILE *f)
{
	rdt_writer *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	w->f = f;
	unsigned char h[RDT_HEADER] = {0};
	if (wr(w, h, sizeof h) < 0) {
		free(w);
		return NULL;
	}
	return w;
}

int rdt_writer_add(rdt_writer *w, const rd_kernel *k)
{
	if (w->n == w->cap) {
		uint32_t cap = w->cap ? w->cap * 2 : 16;
		rdt_entry *e = realloc(w->ent, cap * sizeof *e);
		if (!e) {
			errno = ENOMEM;
			return -1;
		}
		w->ent = e;
		w->cap = cap;
	}
	rdt_entry *e = &w->ent[w->n];
	memset(e, 0, sizeof *e);
	size_t len = strlen(k->name);
	if (len == 0 || len > RDT_NAME_MAX)
		len = len ? RDT_NAME_MAX : 0;
	e->name = malloc(len ? len : 1);
	if (!e->name) {
		errno = ENOMEM;
		return -1;
	}
	memcpy(e->name, len ? k->name : "", len);
	if (pad8(w) < 0)
		return free(e->name), -1;
	put32(e->e + 8, (uint32_t)len);
	put32(e->e + 12, k->block_dim[0]);
	put32(e->e + 16, k->block_dim[1]);
	put32(e->e + 20, k->block_dim[2]);
	put32(e->e + 24, k->nthreads);
	put64(e->e + 32, k->nloads);
	put64(e->e + 40, k->nstores);
	put64(e->e + 48, w->pos);
	if (wr_array(w, k->thread_first, (uint64_t)k->nthreads + 1, 8) < 0 ||
	    wr_array(w, k->addr, k->nloads, 8) < 0 || wr_array(w, k->bytes, k->nloads, 2) < 0 ||
	    (k->site && wr_sites(w, e->e, k) < 0) || wr_stores(w, e->e, k) < 0) {
		free(e->name);
		return -1;
	}
	w->n++;
	return 0;
}

void rdt_writer_free(rdt_writer *w)
{
	if (!w)
		return;
	for (uint32_t i = 0; i < w->n; i++)
		free(w->ent[i].name);
	free(w->ent);
	free(w);
}

int rdt_writer_finish(rdt_writer *w)
{
	int rc = 0;
	for (uint32_t i = 0; i < w->n && rc == 0; i++) {
		uint32_t len = get32(w->ent[i].e + 8);
		put64(w->ent[i].e, w->pos);
		rc = wr(w, w->ent[i].name, len);
	}
	if (rc == 0)
		rc = pad8(w);
	uint64_t table = w->pos;
	for (uint32_t i = 0; i < w->n && rc == 0; i++)
		rc = wr(w, w->ent[i].e, RDT_ENTRY);
	unsigned char h[RDT_HEADER] = {0};
	memcpy(h, RDT_MAGIC, 8);
	put32(h + 8, RDT_VERSION);
	put32(h + 12, w->n);
	put64(h + 16, table);
	put64(h + 24, w->pos);
	if (rc == 0 && (fflush(w->f) != 0 || fseek(w->f, 0, SEEK_SET) != 0 ||
			fwrite(h, 1, sizeof h, w->f) != sizeof h || fflush(w->f) != 0))
		rc = -1;
	rdt_writer_free(w);
	return rc;
}
