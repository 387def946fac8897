/*
 * Stage 2, coalescing (Nugteren et al., HPCA 2014, §4.1 and §4.6 C;
 * CUDA guide G.4.2 for compute capability 2.x): the k-th loads of a warp's threads form one
 * warp instruction. Within a coalescing group -- the whole warp for
 * accesses of up to 4 bytes, half a warp for 8-byte and a quarter for
 * 16-byte accesses -- every distinct cache line becomes one request, led by
 * the first lane that touches it. Requests keep lane order.
 *
 * Line addresses are renamed to dense 32-bit ids here, once per line size,
 * so that every later stage indexes flat arrays instead of hashing.
 */
#define _DEFAULT_SOURCE /* MADV_DONTNEED (spend_pages) */
#include "internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Dense id of a line, assigning the next id to a new one; -1: no memory.
 * The map starts small and doubles: sized for the loads up front, its
 * random inserts would touch every page of a table far larger than the
 * lines there are. */
static inline __attribute__((always_inline)) int64_t linemap_id(linemap *m, uint64_t line,
								rd_coal *co, uint64_t *cap)
{
	uint64_t h;
	int64_t id = linemap_find(m, line, &h);
	if (id != -2)
		return id; /* there, or -1: no memory */
	if (!cap)
		return -3; /* looking up only (a stream's lines, all named before) */
	if (co->nlines == *cap) {
		uint64_t nc = *cap ? *cap * 2 : 1024;
		uint64_t *la = realloc(co->line_addr, nc * sizeof *la);
		if (!la)
			return -1;
		co->line_addr = la;
		*cap = nc;
	}
	linemap_put(m, h, line, co->nlines);
	co->line_addr[co->nlines] = line;
	return co->nlines++;
}

static uint32_t log2u64(uint64_t v)
{
	uint32_t r = 0;
	while (v > 1)
		v >>= 1, r++;
	return r;
}

static uint32_t group_len(uint32_t ws, uint16_t bytes)
{
	uint32_t g = ws;
	if (bytes == 8)
		g = ws / 2;
	else if (bytes == 16)
		g = ws / 4;
	return g ? g : 1;
}

/* Every few thousand warps, does the caller's progress callback say stop?
 * (A big trace takes a second to coalesce: a stale run stops.) */
/* The sectors (of 1 << sshift bytes) of its line that an access of bytes
 * at addr touches, in a line of 1 << shift bytes (callers ask only with
 * l1.sector on: without it requests carry no mask and the loop no work). */
static inline uint32_t sect_mask(uint64_t addr, uint32_t bytes, uint32_t shift, uint32_t sshift)
{
	uint64_t lmax = ((uint64_t)1 << shift) - 1, off = addr & lmax;
	uint64_t last = off + (bytes ? bytes : 1) - 1;
	if (last > lmax)
		last = lmax;
	uint32_t a = (uint32_t)(off >> sshift), b = (uint32_t)(last >> sshift);
	return ((2u << b) - 1) & ~((1u << a) - 1);
}

static int coal_cancelled(uint32_t w, const rd_callbacks *cb)
{
	return (w & 4095) == 4095 && cb && cb->progress && cb->progress(cb->ctx, 0.0);
}

/* Is addr in an array outside global memory (not the L1's)? */
static int skipped(const coal_skip *skip, uint64_t addr)
{
	if (!skip)
		return 0;
	int64_t ai = rd_arrays_find(skip->arrays, addr);
	return ai >= 0 && skip->skip[ai];
}

/* Lanes taking part in one pass of one warp instruction (coal_stores). */
typedef struct pass_lanes {
	uint32_t n;
	uint32_t *lane;   /* lane numbers, ascending */
	uint64_t *acc;    /* each one's access index (k->addr's or k->store_addr's) */
	uint64_t *addr;   /* ... its address */
	uint16_t *bytes;  /* ... and size */
} pass_lanes;

/* A warp's few recent lines' ids, in front of the line map (a feed's: the
 * same map all its life; an id never changes once given). A warp's
 * passes ask the same lines again and again (corr_kernel's stores: the
 * same 32 lines, 8 KB apart, 2,048 times), and the map's slot of each is
 * a cache miss of a table of megabytes; here 4 KB. */
#define FRONT_N 256
typedef struct coal_front {
	uint64_t key; /* line + 1; 0: empty */
	uint64_t id;
} coal_front;

static inline __attribute__((always_inline)) int64_t front_id(coal_front *fr, linemap *m,
							    uint64_t line, rd_coal *co,
							    uint64_t *cap)
{
	if (!fr)
		return linemap_id(m, line, co, cap);
	coal_front *e = &fr[(line * 0x9e3779b97f4a7c15ull) >> 56];
	if (e->key == line + 1)
		return (int64_t)e->id;
	int64_t id = linemap_id(m, line, co, cap);
	if (id >= 0) {
		e->key = line + 1;
		e->id = (uint64_t)id;
	}
	return id;
}

/* coal_pass's table of line ids, for warps of ws lanes: a power of two,
 * at least twice the leaders a pass can have. Its lead_lane buffer holds
 * coal_lead_buf(ws) words, zeroed. */
static uint32_t coal_lead_tab(uint32_t ws)
{
	uint32_t t = 2;
	while (t < 2 * ws)
		t <<= 1;
	return t;
}

static size_t coal_lead_buf(uint32_t ws)
{
	return (size_t)2 * ws + coal_lead_tab(ws);
}

static inline uint32_t lead_hash(uint32_t id, uint32_t tmask)
{
	return (id * 2654435761u) >> 16 & tmask;
}

/*
 * An instruction's leaders (coal_pass's and the loads' loop's), in the
 * lead_lane buffer of coal_lead_buf(ws) words: each leader's lane, then
 * its line id (+ ws), then a table from line id to its latest leader
 * (+ 2 ws: j + 1, 0 none), emptied after the instruction (lead_clear):
 * a lane finds its line's request in a step or two, not by a scan of
 * the leaders (corr_kernel's stores: 32 lines a pass, 500 compares; the
 * Figure 3 copy's loads: a quarter of coalescing's time in the scan).
 *
 * lead_find: the leader of line id in the group from lane start on, or
 * UINT32_MAX; *hp the line's slot, where lead_add puts a new leader.
 * Leaders are in lane order and a group has one a line, so the latest
 * leads in the group if it is at or after start. Where the instruction's
 * lanes differ in size (mixed) their groups overlap (a 4-byte lane's group
 * of 32 holds an 8-byte lane's of 16), and a lane joins the first leader
 * of its line at or after its group's start: a scan, which ends (the
 * latest is one).
 */
static inline uint32_t lead_find(const uint32_t *lead_lane, uint32_t ws, uint32_t tmask,
				 uint32_t id, uint32_t start, int mixed, uint32_t *hp)
{
	const uint32_t *lead_line = lead_lane + ws, *lead_of = lead_lane + 2 * ws;
	uint32_t h = lead_hash(id, tmask);
	while (lead_of[h] && lead_line[lead_of[h] - 1] != id)
		h = (h + 1) & tmask;
	*hp = h;
	if (!lead_of[h] || lead_lane[lead_of[h] - 1] < start)
		return UINT32_MAX;
	if (!mixed)
		return lead_of[h] - 1;
	uint32_t j = 0;
	while (lead_lane[j] < start)
		j++;
	while (lead_line[j] != id)
		j++;
	return j;
}

/* Leader j (the next) of line id, at lane, in slot h (lead_find's). */
static inline void lead_add(uint32_t *lead_lane, uint32_t ws, uint32_t h, uint32_t j,
			    uint32_t lane, uint32_t id)
{
	lead_lane[j] = lane;
	lead_lane[ws + j] = id;
	lead_lane[2 * ws + h] = j + 1;
}

/* The table emptied after n leaders: from each one's line's first slot to
 * the next empty one (what is cleared of a run of slots is always its
 * end: every line's slot, at or after its first, is reached). */
static inline void lead_clear(uint32_t *lead_lane, uint32_t ws, uint32_t tmask, uint32_t n)
{
	uint32_t *lead_of = lead_lane + 2 * ws;
	for (uint32_t j = 0; j < n; j++)
		for (uint32_t h = lead_hash(lead_lane[ws + j], tmask); lead_of[h]; h = (h + 1) & tmask)
			lead_of[h] = 0;
}

/* One pass (the loads, or the stores) of a warp instruction: lanes in
 * order, each distinct line of a coalescing group one request led by its
 * first lane; as coal_build's loop below, which it mirrors for kernels
 * with stores. lead_lane: coal_lead_buf(ws) words, zeroed, left so. -1:
 * no memory; -3: a line not in the map, which line_cap NULL does not
 * extend (coal_feed_more). */
static int coal_pass(rd_coal *co, linemap *map, uint64_t *line_cap, const pass_lanes *pl,
		     uint32_t shift, uint32_t ws, int store, uint64_t *nr, uint32_t *lead_lane,
		     uint64_t *lead_req, const coal_skip *skip, uint32_t sect, uint32_t sshift,
		     coal_front *front)
{
	const uint64_t *addr = pl->addr;
	const uint16_t *bytes = pl->bytes;
	uint32_t nlead = 0, g0 = 0;
	int mixed = 0; /* lanes of two group sizes: their groups overlap */
	rd_req *const req = co->req;
	/* (lead_find's table, emptied again on the way out) */
	const uint32_t tmask = coal_lead_tab(ws) - 1;
	int rc = 0;
	/* the previous lane's line and group, and its leader's request: a
	 * lane with both the same joins that request, no look-up (gemm's
	 * warps: one line a pass); its lanes and sectors are added once the
	 * run of such lanes ends (nthr counts modulo its width either way).
	 * A lane of the previous one's size below its group's end is in its
	 * group: its group is not worked out again. */
	uint64_t prev_line = UINT64_MAX, prev_r = 0;
	uint32_t prev_start = UINT32_MAX, prev_end = 0, prev_by = UINT32_MAX, run = 0, run_m = 0;
	for (uint32_t x = 0; x < pl->n; x++) {
		uint32_t i = pl->lane[x], a = x;
		if (skip && skipped(skip, addr[a]))
			continue;
		uint64_t line = addr[a] >> shift;
		uint32_t by = bytes[a];
		uint32_t m = sect ? sect_mask(addr[a], by, shift, sshift) : 0;
		if (line == prev_line && by == prev_by && i < prev_end) {
			run++;
			run_m |= m;
			continue;
		}
		uint32_t g = group_len(ws, (uint16_t)by);
		mixed |= g0 && g != g0;
		if (!g0)
			g0 = g;
		/* (a power of two, but for an odd warp size: no division) */
		uint32_t start = g & (g - 1) ? g * (i / g) : i & ~(g - 1);
		prev_by = by;
		prev_end = start + g;
		if (line == prev_line && start == prev_start) {
			run++;
			run_m |= m;
			continue;
		}
		if (run) {
			req[prev_r].nthr += run;
			req[prev_r].sect |= run_m;
			run = run_m = 0;
		}
		int64_t id = front_id(front, map, line, co, line_cap);
		if (id < 0) {
			rc = id == -3 ? -3 : -1;
			break;
		}
		prev_line = line;
		prev_start = start;
		uint32_t h, j = lead_find(lead_lane, ws, tmask, (uint32_t)id, start, mixed, &h);
		if (j != UINT32_MAX) {
			prev_r = lead_req[j];
			run = 1;
			run_m = m;
			continue;
		}
		req[*nr] = (rd_req){.line = (uint32_t)id, .lane = i, .nthr = 1,
				    .store = (uint32_t)store, .sect = m};
		if (co->req_acc)
			co->req_acc[*nr] = pl->acc[x];
		prev_r = *nr;
		lead_add(lead_lane, ws, h, nlead, i, (uint32_t)id);
		lead_req[nlead++] = (*nr)++;
	}
	if (run) {
		req[prev_r].nthr += run;
		req[prev_r].sect |= run_m;
	}
	lead_clear(lead_lane, ws, tmask, nlead);
	return rc;
}

/* The whole pages of array a's first n bytes from byte `from` on, the
 * bytes before `from` read too: what nothing reads again, given back to
 * the system (a kernel being spent: see coal_build_sect). The bytes are
 * the kernel's own (malloc'ed); a page wholly inside the array holds none
 * of the allocator's, and the array is freed, not read, after. */
static void spend_pages(const void *a, size_t from, size_t n)
{
#ifdef MADV_DONTNEED
	const uintptr_t page = 4096, base = ((uintptr_t)a + page - 1) & ~(page - 1);
	uintptr_t s = ((uintptr_t)a + from) & ~(page - 1), e = ((uintptr_t)a + n) & ~(page - 1);
	if (s < base)
		s = base;
	if (s < e)
		madvise((void *)s, e - s, MADV_DONTNEED);
#else
	(void)a, (void)from, (void)n;
#endif
}

/* A kernel spent with fewer bytes of accesses than this (10 a load, 18 a
 * store) keeps its pages: the next part's accesses reuse them, where
 * giving them back costs a system call and a fault a page (gemm at its
 * default size on 132 SMs, 40 MB a part: 1.4 s more system time). */
#define COAL_SPEND_MIN ((uint64_t)64 << 20)

/* Spending: the loads [*l, l1) and stores [*st, s1), all read, given back
 * once they are 4 MiB of addresses or more (or at the end, last); the
 * marks move on. */
static void spend_read(const rd_kernel *k, uint64_t *l, uint64_t l1, uint64_t *st, uint64_t s1,
		       int last)
{
	if (l1 > *l && (last || l1 - *l >= (1u << 19))) {
		spend_pages(k->addr, *l * sizeof *k->addr, l1 * sizeof *k->addr);
		spend_pages(k->bytes, *l * sizeof *k->bytes, l1 * sizeof *k->bytes);
		*l = l1;
	}
	if (s1 > *st && (last || s1 - *st >= (1u << 19))) {
		/* (store_tid stays: the warps' binary searches read it) */
		spend_pages(k->store_addr, *st * sizeof *k->store_addr, s1 * sizeof *k->store_addr);
		spend_pages(k->store_bytes, *st * sizeof *k->store_bytes, s1 * sizeof *k->store_bytes);
		spend_pages(k->store_pos, *st * sizeof *k->store_pos, s1 * sizeof *k->store_pos);
		*st = s1;
	}
}

/* Warp instructions coal_stores gathers at a time, lane after lane: a
 * lane's accesses are read in order, a cache line of each of its arrays
 * at once (read instruction after instruction, a warp's lanes' arrays,
 * each thread's thousands of accesses apart, fight over the CPU cache's
 * same few sets: gemm's coalescing waited on them most of its time). */
#define COAL_TILE 8

/* coal_build for l1.stores not ignore: warp instruction k is each lane's
 * k-th access; its load requests, then its store requests. spend: the
 * accesses are given back as they are read (see coal_build_sect), when
 * the warps come in thread order (a part's do). */
static int coal_stores(rd_coal *co, const rd_kernel *k, const rd_sched *s, uint32_t shift,
		       linemap *map, uint64_t *line_cap, uint32_t *lead_lane, uint64_t *lead_req,
		       const coal_skip *skip, const rd_callbacks *cb, uint32_t sect, uint32_t sshift,
		       int spend)
{
	uint32_t ws = s->warp_size ? s->warp_size : 1;
	for (uint32_t w = 1; spend && w < s->nwarps; w++)
		if (s->warp_t0[w] < s->warp_t0[w - 1] + s->warp_nt[w - 1])
			spend = 0; /* out of thread order: what is read is not a prefix */
	uint64_t spent_l = 0, spent_s = 0;
	/* per lane: next load, end of loads, next store, end of stores */
	uint64_t *cur = malloc((size_t)ws * 4 * sizeof *cur);
	/* per instruction of a tile, its loads' pass and its stores' */
	size_t nl = (size_t)ws * 2 * COAL_TILE;
	uint32_t *lanes = malloc(nl * sizeof *lanes);
	uint64_t *accs = malloc(nl * sizeof *accs);
	uint64_t *addrs = malloc(nl * sizeof *addrs);
	uint16_t *bytes = malloc(nl * sizeof *bytes);
	pass_lanes pass[2 * COAL_TILE];
	int rc = RD_ENOMEM;
	if (!cur || !lanes || !accs || !addrs || !bytes)
		goto out;
	for (size_t j = 0; j < 2 * COAL_TILE; j++)
		pass[j] = (pass_lanes){0, lanes + j * ws, accs + j * ws, addrs + j * ws,
				       bytes + j * ws};
	uint64_t ni = 0, nr = 0;
	co->instr_req_first[0] = 0;
	for (uint32_t w = 0; w < s->nwarps; w++) {
		if (coal_cancelled(w, cb)) {
			rc = RD_ECANCELED;
			goto out;
		}
		co->warp_instr_first[w] = ni;
		uint32_t t0 = s->warp_t0[w], nt = s->warp_nt[w];
		uint64_t kmax = 0, sp, send;
		/* the warp's stores, in thread order: one search, then a walk */
		rd_kernel_store_range(k, t0, t0 + nt, &sp, &send);
		for (uint32_t i = 0; i < nt; i++) {
			uint32_t t = t0 + i;
			uint64_t s0 = sp;
			while (sp < send && k->store_tid[sp] == t)
				sp++;
			uint64_t n = kernel_loads(k, t) + (sp - s0);
			if (n > kmax)
				kmax = n;
			cur[4 * i] = t < k->nthreads ? k->thread_first[t] : 0;
			cur[4 * i + 1] = t < k->nthreads ? k->thread_first[t + 1] : 0;
			cur[4 * i + 2] = s0;
			cur[4 * i + 3] = sp;
		}
		for (uint64_t k0 = 0; k0 < kmax; k0 += COAL_TILE) {
			uint32_t kn = kmax - k0 < COAL_TILE ? (uint32_t)(kmax - k0) : COAL_TILE;
			for (uint32_t d = 0; d < 2 * kn; d++)
				pass[d].n = 0;
			/* lane after lane (so each pass's lanes ascend), its
			 * accesses of the tile's instructions */
			for (uint32_t i = 0; i < nt; i++) {
				uint64_t *c = &cur[4 * i];
				for (uint32_t d = 0; d < kn; d++) {
					pass_lanes *pl;
					uint64_t a;
					if (c[2] < c[3] && k->store_pos[c[2]] == k0 + d) {
						pl = &pass[2 * d + 1];
						a = c[2]++;
						pl->addr[pl->n] = k->store_addr[a];
						pl->bytes[pl->n] = k->store_bytes[a];
					} else if (c[0] < c[1]) {
						pl = &pass[2 * d];
						a = c[0]++;
						pl->addr[pl->n] = k->addr[a];
						pl->bytes[pl->n] = k->bytes[a];
					} else {
						continue;
					}
					pl->lane[pl->n] = i;
					pl->acc[pl->n++] = a;
				}
				/* its next tile's, asked for now */
				if (c[0] + COAL_TILE < c[1]) {
					__builtin_prefetch(&k->addr[c[0] + COAL_TILE]);
					__builtin_prefetch(&k->bytes[c[0] + COAL_TILE]);
				}
				if (c[2] + COAL_TILE < c[3]) {
					__builtin_prefetch(&k->store_pos[c[2] + COAL_TILE]);
					__builtin_prefetch(&k->store_addr[c[2] + COAL_TILE]);
					__builtin_prefetch(&k->store_bytes[c[2] + COAL_TILE]);
				}
			}
			for (uint32_t d = 0; d < kn; d++) {
				/* the next instruction's first lines' slots, asked
				 * for ahead (a part's lines' map outgrows the CPU's
				 * nearest caches: gemm's, 512 KB) */
				for (uint32_t e = 2 * d + 2; e < 2 * d + 4 && e < 2 * kn; e++)
					if (pass[e].n)
						linemap_prefetch(map, pass[e].addr[0] >> shift);
				if (coal_pass(co, map, line_cap, &pass[2 * d], shift, ws, 0, &nr,
					      lead_lane, lead_req, skip, sect, sshift, NULL) < 0 ||
				    coal_pass(co, map, line_cap, &pass[2 * d + 1], shift, ws, 1, &nr,
					      lead_lane, lead_req, skip, sect, sshift, NULL) < 0)
					goto out;
				if (nr == co->instr_req_first[ni])
					continue; /* every lane outside global memory */
				co->instr_req_first[++ni] = nr;
			}
		}
		if (spend) {
			uint32_t te = t0 + nt < k->nthreads ? t0 + nt : k->nthreads;
			spend_read(k, &spent_l, k->thread_first[te], &spent_s, send,
				   w + 1 == s->nwarps);
		}
	}
	co->warp_instr_first[s->nwarps] = ni;
	co->ninstr = ni;
	co->nreq = nr;
	rc = RD_OK;
out:
	free(cur);
	free(lanes);
	free(accs);
	free(addrs);
	free(bytes);
	return rc;
}

/* Shrink co's arrays to what was used (failure to shrink is harmless);
 * ident: each instruction has one request, so no instruction index
 * (coal_req_first). */
void coal_shrink(rd_coal *co, int ident)
{
	rd_req *rq = realloc(co->req, (co->nreq ? co->nreq : 1) * sizeof *rq);
	if (rq)
		co->req = rq;
	if (co->req_acc) {
		uint64_t *ra = realloc(co->req_acc, (co->nreq ? co->nreq : 1) * sizeof *ra);
		if (ra)
			co->req_acc = ra;
	}
	if (ident) {
		free(co->instr_req_first);
		co->instr_req_first = NULL;
	} else {
		uint64_t *ir = realloc(co->instr_req_first, (co->ninstr + 1) * sizeof *ir);
		if (ir)
			co->instr_req_first = ir;
	}
}

int coal_build(rd_coal *co, const rd_kernel *k, const rd_sched *s, uint32_t line_size,
	       int lanes, int stores, const rd_callbacks *cb)
{
	return coal_build_skip(co, k, s, line_size, lanes, stores, NULL, cb, 1);
}

/* Coalescing reads the loads in thread order: tell the kernel's lender
 * that those before thread t (from load `kept` on) are read, 4 MiB of
 * addresses at a time or, at the end (last), all. Returns the new mark. */
static uint64_t coal_drop(const rd_kernel *k, uint64_t kept, uint32_t t, int last)
{
	uint64_t done = k->thread_first[t];
	if (done <= kept || (!last && done - kept < (1u << 19)))
		return kept;
	k->drop(k->release_ctx, k->addr + kept, (size_t)(done - kept) * sizeof *k->addr);
	k->drop(k->release_ctx, k->bytes + kept, (size_t)(done - kept) * sizeof *k->bytes);
	return done;
}

/* ... and within a warp of long threads (a one-thread stream), every
 * COAL_DROP_RUN + 1 loads: each lane's loads before its kk-th. */
#define COAL_DROP_RUN ((1u << 16) - 1)
static void coal_drop_run(const rd_kernel *k, uint32_t t0, uint32_t nt, uint64_t kk,
			  uint64_t k0)
{
	uint64_t back = kk - k0 < COAL_DROP_RUN + 1 ? kk - k0 : COAL_DROP_RUN + 1;
	for (uint32_t i = 0; i < nt; i++) {
		uint64_t a = k->thread_first[t0 + i], e = k->thread_first[t0 + i + 1];
		uint64_t from = a + kk - back, to = a + kk;
		if (to > e)
			to = e;
		if (from < to) {
			k->drop(k->release_ctx, k->addr + from, (size_t)(to - from) * sizeof *k->addr);
			k->drop(k->release_ctx, k->bytes + from, (size_t)(to - from) * sizeof *k->bytes);
		}
	}
}

/* Instructions of the warp of threads [t0, t0 + nt): its longest thread's
 * loads. */
static uint64_t warp_kmax(const rd_kernel *k, uint32_t t0, uint32_t nt)
{
	uint64_t kmax = 0;
	for (uint32_t i = 0; i < nt; i++) {
		uint64_t n = k->thread_first[t0 + i + 1] - k->thread_first[t0 + i];
		if (n > kmax)
			kmax = n;
	}
	return kmax;
}

/* Loads of that warp's first kk instructions. */
static uint64_t warp_loads_before(const rd_kernel *k, uint32_t t0, uint32_t nt, uint64_t kk)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < nt; i++) {
		uint64_t m = k->thread_first[t0 + i + 1] - k->thread_first[t0 + i];
		n += m < kk ? m : kk;
	}
	return n;
}

/*
 * One run of the load path's loop over warps [w0, w1), from instruction
 * kb of warp w0 and up to (not with) instruction ke of warp w1 - 1 (0 and
 * UINT64_MAX: whole warps): its requests at
 * req[0 ..], its instructions' first requests at irf[0 ..] (relative to
 * the run; left unwritten while ident: see coal_build_skip), its warps'
 * first instructions at wif[w] (relative), its lines named by map into
 * lc (line_addr, nlines; and lc's load_line, load_on with lanes).
 */
typedef struct coal_run {
	const rd_kernel *k;
	const rd_sched *s;
	uint32_t shift;
	uint32_t sect, sshift; /* sector bytes (0: no masks) and their log2 */
	int lanes;
	const coal_skip *skip;
	const rd_callbacks *cb; /* its progress is asked (NULL: not) */
	atomic_int *stop;       /* raised by a run that stops; seen by the other */
	uint32_t w0, w1;
	uint64_t kb, ke;
	rd_coal *lc;
	linemap map;
	uint64_t line_cap;
	rd_req *req;
	uint64_t *irf, *wif;
	uint64_t ni, nr;
	int ident;
	uint32_t *lead_lane; /* coal_lead_buf(warp size) words, zeroed */
	uint64_t *lead_req;
	coal_front *front;   /* FRONT_N, zeroed (coal_warps's) */
	int rc;
} coal_run;

/* How many of a thread's loads ahead coal_warps fetches a line's slot
 * (COAL_PF1: in a one-thread warp's shorter loop). */
#define COAL_PF 16
#ifndef COAL_PF1
#define COAL_PF1 32
#endif

/* A tile of coal_warps: the loads of COAL_TILE warp instructions read
 * lane after lane (as coal_stores's), instruction d's n[d] of them from
 * d * warp size on. */
typedef struct coal_tile {
	uint32_t n[COAL_TILE];
	uint32_t *lane;
	uint64_t *acc, *addr;
	uint16_t *bytes;
} coal_tile;

static int coal_warps_in(coal_run *r, coal_tile *tl);

static int coal_warps(coal_run *r)
{
	size_t n = (size_t)(r->s->warp_size ? r->s->warp_size : 1) * COAL_TILE;
	coal_tile tl = {.lane = malloc(n * sizeof *tl.lane),
			.acc = malloc(n * sizeof *tl.acc),
			.addr = malloc(n * sizeof *tl.addr),
			.bytes = malloc(n * sizeof *tl.bytes)};
	r->front = calloc(FRONT_N, sizeof *r->front);
	int rc = tl.lane && tl.acc && tl.addr && tl.bytes && r->front ? coal_warps_in(r, &tl)
								      : RD_ENOMEM;
	free(r->front);
	r->front = NULL;
	free(tl.lane);
	free(tl.acc);
	free(tl.addr);
	free(tl.bytes);
	return rc;
}

static int coal_warps_in(coal_run *r, coal_tile *tl)
{
	const rd_kernel *k = r->k;
	const rd_sched *s = r->s;
	const uint32_t shift = r->shift, sect = r->sect, sshift = r->sshift;
	const int lanes = r->lanes;
	const coal_skip *skip = r->skip;
	rd_coal *co = r->lc;
	rd_req *const req = r->req;
	uint64_t *const irf = r->irf;
	uint32_t *const lead_lane = r->lead_lane;
	uint64_t *const lead_req = r->lead_req;
	const uint32_t ws = s->warp_size ? s->warp_size : 1;
	/* (lead_find's table, emptied after each instruction) */
	const uint32_t tmask = coal_lead_tab(ws) - 1;
	/* the run's recent lines' ids in front of the map (its ids never
	 * change in a run): a lane's next loads are mostly in its line */
	coal_front *const front = r->front;
	uint64_t ni = 0, nr = 0;
	int ident = 1;
	/* loads below it were dropped (k->drop); a run that starts inside a
	 * warp leaves the warp's first part to the other run */
	uint32_t tk = r->kb ? s->warp_t0[r->w0] + s->warp_nt[r->w0] : s->warp_t0[r->w0];
	uint64_t kept = k->thread_first[tk < k->nthreads ? tk : k->nthreads];
	for (uint32_t w = r->w0; w < r->w1; w++) {
		/* (every 4096 of its warps; the second half only sees the
		 * first's stop: the progress callback is the caller's) */
		if (coal_cancelled(w - r->w0, r->cb) ||
		    (r->stop && atomic_load_explicit(r->stop, memory_order_relaxed)))
			return RD_ECANCELED;
		if (k->drop && w > r->w0 && s->warp_t0[w] <= k->nthreads)
			kept = coal_drop(k, kept, s->warp_t0[w], 0);
		uint64_t k0 = w == r->w0 ? r->kb : 0;
		if (!k0) /* (a warp started by the other run keeps its start) */
			r->wif[w] = ni;
		uint32_t t0 = s->warp_t0[w], nt = s->warp_nt[w];
		uint64_t kmax = warp_kmax(k, t0, nt);
		int cut = w == r->w1 - 1 && r->ke < kmax; /* the other run goes on in it */
		if (cut)
			kmax = r->ke;
		/* A one-thread warp (a CPU's stream, gpu.warp_size=1): each load
		 * its own instruction and request, so no tile, groups or
		 * leaders; a run of loads in one line named once. What the loop
		 * below does for it, in a fifth of the steps. */
		if (ws == 1 && nt == 1 && ident && !lanes && !sect) {
			const uint64_t *ad = k->addr + k->thread_first[t0];
			uint64_t last = UINT64_MAX;
			uint32_t last_id = 0;
			const int pf = r->map.mask >= LINEMAP_PF_MIN;
			for (uint64_t kk = k0; kk < kmax; kk++) {
				if (k->drop && kk > k0 && !(kk & COAL_DROP_RUN))
					coal_drop_run(k, t0, nt, kk, k0);
				uint64_t a = ad[kk];
				if (skipped(skip, a))
					continue; /* (no request: no instruction) */
				uint64_t line = a >> shift;
				if (line != last) {
					if (pf && kk + COAL_PF1 < kmax)
						linemap_prefetch(&r->map, ad[kk + COAL_PF1] >> shift);
					int64_t id = linemap_id(&r->map, line, co, &r->line_cap);
					if (id < 0)
						return RD_ENOMEM;
					last = line;
					last_id = (uint32_t)id;
				}
				req[nr++] = (rd_req){.line = last_id, .lane = 0, .nthr = 1, .sect = 0};
			}
			ni = nr; /* (ident: instruction i is request i) */
		} else for (uint64_t kk = k0; kk < kmax; kk++) {
			uint32_t d = (uint32_t)((kk - k0) % COAL_TILE);
			if (!d) { /* the tile's loads, lane after lane */
				uint32_t kn = kmax - kk < COAL_TILE ? (uint32_t)(kmax - kk) : COAL_TILE;
				for (uint32_t e = 0; e < kn; e++)
					tl->n[e] = 0;
				for (uint32_t i = 0; i < nt; i++) {
					uint64_t f = k->thread_first[t0 + i] + kk;
					uint64_t end = k->thread_first[t0 + i + 1];
					for (uint32_t e = 0; e < kn && f + e < end; e++) {
						size_t x = (size_t)e * ws + tl->n[e]++;
						tl->lane[x] = i;
						tl->acc[x] = f + e;
						tl->addr[x] = k->addr[f + e];
						tl->bytes[x] = k->bytes[f + e];
					}
					if (f + 2 * COAL_TILE <= end) { /* its next tile's */
						__builtin_prefetch(&k->addr[f + COAL_TILE]);
						__builtin_prefetch(&k->addr[f + 2 * COAL_TILE - 1]);
						__builtin_prefetch(&k->bytes[f + 2 * COAL_TILE - 1]);
					}
				}
			}
			if (k->drop && kk > k0 && !(kk & COAL_DROP_RUN))
				coal_drop_run(k, t0, nt, kk, k0);
			uint32_t nlead = 0, g0 = 0;
			int mixed = 0; /* lanes of two group sizes (coal_pass's) */
			/* the previous lane's line, group and leader: neighbouring
			 * lanes mostly share a line, and then share its leader;
			 * a run of such lanes' threads and sectors is added to the
			 * leader's request once it ends (each lane's bit-field
			 * update read back by the next stalled the CPU: most of
			 * coalescing's time under l1.sector) */
			uint64_t prev_line = UINT64_MAX;
			uint32_t prev_start = UINT32_MAX, prev_j = 0, prev_id = 0, run = 0, run_m = 0;
			for (size_t x = (size_t)d * ws, xe = x + tl->n[d]; x < xe; x++) {
				/* (the lanes with a kk-th load, in order) */
				uint32_t i = tl->lane[x];
				uint64_t a = tl->acc[x], ad = tl->addr[x];
				uint16_t by = tl->bytes[x];
				if (skipped(skip, ad))
					continue;
				uint64_t line = ad >> shift;
				uint32_t g = group_len(s->warp_size, by);
				mixed |= g0 && g != g0;
				if (!g0)
					g0 = g;
				/* (a power of two, but for an odd warp size: no division) */
				uint32_t start = g & (g - 1) ? g * (i / g) : i & ~(g - 1);
				if (line == prev_line && start == prev_start) {
					if (lanes)
						co->load_line[a] = prev_id;
					run++;
					if (sect)
						run_m |= sect_mask(ad, by, shift, sshift);
					continue;
				}
				if (run) {
					req[lead_req[prev_j]].nthr += run;
					req[lead_req[prev_j]].sect |= run_m;
					run = run_m = 0;
				}
				uint32_t m = sect ? sect_mask(ad, by, shift, sshift) : 0;
				/* the slot of this thread's load COAL_PF on, asked for
				 * now: a large table's probe misses the CPU's caches
				 * (the 64 MiB random stream's line numbering: 78 ns
				 * of CPU an access before, over both halves) */
				if (r->map.mask >= LINEMAP_PF_MIN && a + COAL_PF < k->thread_first[t0 + i + 1])
					linemap_prefetch(&r->map, k->addr[a + COAL_PF] >> shift);
				int64_t id = front_id(front, &r->map, line, co, &r->line_cap);
				if (id < 0)
					return RD_ENOMEM;
				if (lanes)
					co->load_line[a] = (uint32_t)id;
				prev_line = line;
				prev_start = start;
				prev_id = (uint32_t)id;
				uint32_t h, j = lead_find(lead_lane, ws, tmask, (uint32_t)id, start,
							       mixed, &h);
				if (j != UINT32_MAX) {
					prev_j = j;
					req[lead_req[j]].nthr++;
					if (sect)
						req[lead_req[j]].sect |= m;
					continue;
				}
				if (lanes)
					co->load_on[a] = 1;
				req[nr] = (rd_req){.line = (uint32_t)id, .lane = i, .nthr = 1, .sect = m};
				prev_j = nlead;
				lead_add(lead_lane, ws, h, nlead, i, (uint32_t)id);
				lead_req[nlead++] = nr++;
			}
			lead_clear(lead_lane, ws, tmask, nlead);
			if (run) {
				req[lead_req[prev_j]].nthr += run;
				req[lead_req[prev_j]].sect |= run_m;
			}
			if (nr == (ident ? ni : irf[ni]))
				continue; /* every lane outside global memory */
			if (ident && nr == ni + 1) {
				ni++;
				continue;
			}
			if (ident) { /* the first instruction of more than one request */
				for (uint64_t i = 0; i <= ni; i++)
					irf[i] = i;
				ident = 0;
			}
			irf[++ni] = nr;
		}
		/* a warp shared with the other run: its own part's last loads */
		if (k->drop && (k0 || cut) && kmax > k0)
			coal_drop_run(k, t0, nt, kmax, k0);
	}
	if (k->drop) { /* up to the warp it ends in, or its end */
		uint32_t te = r->ke != UINT64_MAX ? s->warp_t0[r->w1 - 1]
			    : r->w1 < s->nwarps ? s->warp_t0[r->w1] : k->nthreads;
		coal_drop(k, kept, te < k->nthreads ? te : k->nthreads, 1);
	}
	r->ni = ni;
	r->nr = nr;
	r->ident = ident;
	return RD_OK;
}

static void *coal_worker(void *arg)
{
	coal_run *r = arg;
	r->rc = coal_warps(r);
	if (r->rc != RD_OK)
		atomic_store(r->stop, 1);
	return NULL;
}

/* Loads of warp w. */
static uint64_t warp_loads(const rd_kernel *k, const rd_sched *s, uint32_t w)
{
	uint32_t t0 = s->warp_t0[w], t1 = t0 + s->warp_nt[w];
	return k->thread_first[t1] - k->thread_first[t0];
}

/*
 * The second half of the warps (by loads) on a thread of its own, into
 * the tail of the arrays: requests from req + loadsA (a request has a
 * load of its own, so the first half's fit before), instruction starts
 * from instr_req_first + loadsA + 1, lines in a map and list of its own.
 * Then its lines are named after the first half's, in the order it met
 * them, its requests renamed and moved down, its offsets shifted: the
 * result is the serial loop's, id for id (tests/test_mechanisms.c).
 */
static int coal_halves(rd_coal *co, coal_run *a, uint32_t w1, uint64_t kmid, uint64_t loads_a)
{
	const rd_sched *s = a->s;
	uint32_t ws = s->warp_size ? s->warp_size : 1;
	atomic_int stop;
	atomic_init(&stop, 0);
	rd_coal bl = {0};
	coal_run b = *a;
	memset(&b.map, 0, sizeof b.map);
	b.cb = NULL;
	b.stop = a->stop = &stop;
	/* the first run ends at instruction kmid of warp w1 (or before it,
	 * kmid 0), where the second starts */
	b.w0 = w1;
	b.kb = kmid;
	a->w1 = kmid ? w1 + 1 : w1;
	a->ke = kmid ? kmid : UINT64_MAX;
	b.lc = &bl;
	/* (the lanes' arrays are the kernel's, by load: the halves write
	 * apart; the second's ids renamed below) */
	bl.load_line = co->load_line;
	bl.load_on = co->load_on;
	b.line_cap = 0;
	b.req = co->req + loads_a;
	b.irf = co->instr_req_first + loads_a + 1;
	b.lead_lane = calloc(coal_lead_buf(ws), sizeof *b.lead_lane);
	b.lead_req = malloc((size_t)ws * sizeof *b.lead_req);
	b.rc = RD_ENOMEM;
	int rc = RD_ENOMEM, started = 0;
	pthread_t th;
	if (!b.lead_lane || !b.lead_req || linemap_init(&b.map, 1 << 14) < 0)
		goto out;
	started = pthread_create(&th, NULL, coal_worker, &b) == 0;
	rc = coal_warps(a);
	if (rc != RD_OK)
		atomic_store(&stop, 1);
	if (started)
		pthread_join(th, NULL);
	else
		coal_worker(&b); /* no thread: the second half after the first */
	if (rc == RD_OK || (rc == RD_ECANCELED && b.rc == RD_ENOMEM))
		rc = b.rc;
	if (rc != RD_OK)
		goto out;
	/* the second half's lines, named in the order it met them */
	for (uint32_t j = 0; j < bl.nlines; j++) {
		int64_t id = linemap_id(&a->map, bl.line_addr[j], co, &a->line_cap);
		if (id < 0) {
			rc = RD_ENOMEM;
			goto out;
		}
		bl.line_addr[j] = (uint64_t)id; /* (now the new id) */
	}
	for (uint64_t r = 0; r < b.nr; r++) { /* down: never past what it reads */
		rd_req q = b.req[r];
		q.line = (uint32_t)bl.line_addr[q.line];
		co->req[a->nr + r] = q;
	}
	if (co->load_line) /* (every load named: lanes are not split with a skip) */
		for (uint32_t w = w1; w < s->nwarps; w++)
			for (uint32_t i = 0; i < s->warp_nt[w]; i++) {
				uint32_t t = s->warp_t0[w] + i;
				const rd_kernel *k = a->k;
				uint64_t f = k->thread_first[t] + (w == w1 ? kmid : 0);
				for (uint64_t x = f; x < k->thread_first[t + 1]; x++)
					co->load_line[x] = (uint32_t)bl.line_addr[co->load_line[x]];
			}
	if (!(a->ident && b.ident)) {
		if (a->ident)
			for (uint64_t i = 0; i <= a->ni; i++)
				co->instr_req_first[i] = i;
		for (uint64_t i = 1; i <= b.ni; i++)
			co->instr_req_first[a->ni + i] = a->nr + (b.ident ? i : b.irf[i]);
		a->ident = 0;
	}
	for (uint32_t w = kmid ? w1 + 1 : w1; w < s->nwarps; w++)
		co->warp_instr_first[w] += a->ni;
	a->ni += b.ni;
	a->nr += b.nr;
out:
	linemap_free(&b.map);
	free(bl.line_addr);
	free(b.lead_lane);
	free(b.lead_req);
	return rc;
}

/* Coalescing of at least this many loads takes two threads (when given). */
#define COAL_PAR_MIN (1u << 18)

int coal_build_skip(rd_coal *co, const rd_kernel *k, const rd_sched *s, uint32_t line_size,
		    int lanes, int stores, const coal_skip *skip, const rd_callbacks *cb,
		    int threads)
{
	return coal_build_sect(co, k, s, line_size, 0, lanes, stores, skip, cb, threads, 0);
}

int coal_build_sect(rd_coal *co, const rd_kernel *k, const rd_sched *s, uint32_t line_size,
		    uint32_t sector, int lanes, int stores, const coal_skip *skip,
		    const rd_callbacks *cb, int threads, int spend)
{
	return coal_build_lines(co, k, s, line_size, sector, lanes, stores, skip, cb, threads,
				spend, NULL);
}

void coal_lines_free(coal_lines *l)
{
	linemap_free(&l->map);
	free(l->line_addr);
	memset(l, 0, sizeof *l);
}

int64_t coal_lines_id(coal_lines *l, uint64_t line)
{
	rd_coal co = {.nlines = l->nlines, .line_addr = l->line_addr};
	int64_t id = linemap_id(&l->map, line, &co, &l->cap);
	l->line_addr = co.line_addr;
	l->nlines = co.nlines;
	return id;
}

int coal_build_lines(rd_coal *co, const rd_kernel *k, const rd_sched *s, uint32_t line_size,
		     uint32_t sector, int lanes, int stores, const coal_skip *skip,
		     const rd_callbacks *cb, int threads, int spend, coal_lines *shared)
{
	memset(co, 0, sizeof *co);
	uint32_t shift = log2u64(line_size);
	stores = stores && k->nstores && k->store_tid;
	uint64_t nloads = k->nloads + (stores ? k->nstores : 0);
	if (!nloads)
		nloads = 1;
	coal_run run = {.k = k, .s = s, .shift = shift, .lanes = lanes, .skip = skip, .cb = cb,
			.w0 = 0, .w1 = s->nwarps, .kb = 0, .ke = UINT64_MAX, .lc = co,
			.sect = sector, .sshift = sector ? log2u64(sector) : 0};
	int rc = RD_ENOMEM;

	co->warp_instr_first = calloc((size_t)s->nwarps + 1, sizeof *co->warp_instr_first);
	co->instr_req_first = malloc((nloads + 2) * sizeof *co->instr_req_first);
	co->req = malloc(nloads * sizeof *co->req);
	/* the access index is read by events and per-site runs only: a part
	 * (rd_parts: neither) goes without (8 bytes a request; sim_paper
	 * tells its stores by k->part_block) */
	int acc = stores && !k->part_block;
	if (acc)
		co->req_acc = malloc(nloads * sizeof *co->req_acc);
	if (lanes) {
		co->load_line = malloc(nloads * sizeof *co->load_line);
		co->load_on = calloc(nloads, 1);
	}
	run.lead_lane = calloc(coal_lead_buf(s->warp_size ? s->warp_size : 1), sizeof *run.lead_lane);
	run.lead_req = malloc((size_t)(s->warp_size ? s->warp_size : 1) * sizeof *run.lead_req);
	if (!co->warp_instr_first || !co->instr_req_first || !co->req ||
	    (lanes && (!co->load_line || !co->load_on)) || (acc && !co->req_acc) ||
	    !run.lead_lane || !run.lead_req)
		goto out;
	if (shared) { /* the lines named so far: the map and list go on */
		if (!shared->map.slot && linemap_init(&shared->map, 1 << 14) < 0)
			goto out;
		run.map = shared->map;
		co->line_addr = shared->line_addr;
		co->nlines = shared->nlines;
		run.line_cap = shared->cap;
	} else if (linemap_init(&run.map, 1 << 14) < 0) {
		goto out;
	}
	/* While every instruction so far has one request (a one-thread
	 * stream, or no two lanes sharing nothing), instr_req_first is the
	 * identity: it is not written (its pages stay untouched) and, if it
	 * stays so, freed (NULL: coal_req_first). */
	run.ident = 0;
	if (stores) {
		if ((rc = coal_stores(co, k, s, shift, &run.map, &run.line_cap, run.lead_lane,
				      run.lead_req, skip, cb, run.sect, run.sshift,
				      spend && !k->release && !lanes &&
					      k->nloads * 10 + k->nstores * 18 >= COAL_SPEND_MIN)))
			goto out;
		goto shrink;
	}
	run.req = co->req;
	run.irf = co->instr_req_first;
	run.wif = co->warp_instr_first;
	/* Two threads for a large kernel (with the reference profile's
	 * per-lane replay too, each load's line renamed after, but not when
	 * loads are left out: those have no line): the halves split
	 * where the loads pass half, between warps or, inside a warp (a
	 * one-thread stream is one warp), between two of its instructions. */
	uint32_t w1 = 0;
	uint64_t loads_a = 0, total = 0, kmid = 0;
	if (threads > 1 && (!lanes || !skip) && s->nwarps && k->nloads >= COAL_PAR_MIN)
		for (uint32_t w = 0; w < s->nwarps; w++) /* (the scheduled threads' only) */
			total += warp_loads(k, s, w);
	if (total >= COAL_PAR_MIN) {
		uint64_t lw;
		while (w1 < s->nwarps && 2 * (loads_a + (lw = warp_loads(k, s, w1))) <= total) {
			loads_a += lw;
			w1++;
		}
		if (w1 < s->nwarps) {
			/* the first instruction of warp w1 at which half is read */
			uint32_t t0 = s->warp_t0[w1], nt = s->warp_nt[w1];
			uint64_t kw = warp_kmax(k, t0, nt), lo = 0, hi = kw;
			while (lo < hi) {
				uint64_t mid = lo + (hi - lo) / 2;
				if (2 * (loads_a + warp_loads_before(k, t0, nt, mid)) < total)
					lo = mid + 1;
				else
					hi = mid;
			}
			kmid = lo == kw ? 0 : lo;
			if (lo && !kmid)
				loads_a += warp_loads(k, s, w1++);
			else
				loads_a += warp_loads_before(k, t0, nt, kmid);
		}
	}
	if ((w1 > 0 || kmid) && w1 < s->nwarps)
		rc = coal_halves(co, &run, w1, kmid, loads_a);
	else
		rc = coal_warps(&run);
	if (rc != RD_OK)
		goto out;
	co->warp_instr_first[s->nwarps] = run.ni;
	co->ninstr = run.ni;
	co->nreq = run.nr;
shrink:
	coal_shrink(co, run.ident);
	rc = RD_OK;
out:
	if (shared && run.map.slot) { /* (handed back, grown, whatever rc) */
		shared->map = run.map;
		shared->line_addr = co->line_addr;
		shared->nlines = co->nlines;
		shared->cap = run.line_cap;
		co->line_addr = NULL;
	} else {
		linemap_free(&run.map);
	}
	free(run.lead_lane);
	free(run.lead_req);
	if (rc != RD_OK)
		coal_free(co);
	return rc;
}

void coal_free(rd_coal *co)
{
	free(co->line_addr);
	free(co->warp_instr_first);
	free(co->instr_req_first);
	free(co->req);
	free(co->req_acc);
	free(co->load_line);
	free(co->load_on);
	free(co->lane_acc);
	memset(co, 0, sizeof *co);
}

/* ---------------------------------------------------------------- streaming */

/*
 * A warp's instructions coalesced as its threads' accesses are read, a
 * few at a time, from their cursors (rd_access_src): what coal_stores
 * (or, without stores, the loads' loop) makes of the same accesses, a
 * window of instructions at a time. Instruction d of the warp is each
 * lane's d-th access (its d-th load where stores are dropped); its loads
 * are one pass, its stores another, lanes in order. A lane reads
 * FEED_BUF accesses ahead.
 */
#define FEED_BUF 32

typedef struct feed_lane {
	void *cur;
	uint32_t pos, n;
	int ended;
	uint64_t loads, stores; /* read so far (stores too where dropped) */
	uint64_t addr[FEED_BUF];
	uint16_t bytes[FEED_BUF];
	uint8_t store[FEED_BUF];
} feed_lane;

struct coal_feed {
	const rd_access_src *src;
	uint32_t nt, ws, shift, sect, sshift;
	uint32_t cap;           /* lanes allocated (coal_feed_reset's most) */
	uint32_t nopen;         /* lanes with a cursor (nt, or more after a reset to fewer) */
	const linemap *front_map; /* the map front's ids are of (NULL: none yet) */
	int stores;
	int failed;
	pass_lanes pass[2];
	uint32_t *lanes, *lead_lane;
	uint64_t *accs, *addrs, *lead_req;
	uint16_t *bytes;
	coal_front front[FRONT_N];
	feed_lane lane[];
};

coal_feed *coal_feed_new(const rd_access_src *src, uint32_t t0, uint32_t nt, uint32_t ws,
			 uint32_t line_size, uint32_t sector, int stores)
{
	uint32_t cap = nt > ws ? nt : ws;
	coal_feed *f = calloc(1, sizeof *f + (size_t)cap * sizeof *f->lane);
	if (!f)
		return NULL;
	f->src = src;
	f->nt = nt;
	f->cap = cap;
	f->ws = ws ? ws : 1;
	f->shift = log2u64(line_size);
	f->sect = sector;
	f->sshift = sector ? log2u64(sector) : 0;
	f->stores = stores;
	size_t n = cap ? cap : 1;
	f->lanes = malloc(2 * n * sizeof *f->lanes);
	f->accs = calloc(2 * n, sizeof *f->accs);
	f->addrs = malloc(2 * n * sizeof *f->addrs);
	f->bytes = malloc(2 * n * sizeof *f->bytes);
	f->lead_lane = calloc(coal_lead_buf(f->ws), sizeof *f->lead_lane);
	f->lead_req = malloc((size_t)f->ws * sizeof *f->lead_req);
	if (!f->lanes || !f->accs || !f->addrs || !f->bytes || !f->lead_lane || !f->lead_req) {
		coal_feed_free(f);
		return NULL;
	}
	for (int j = 0; j < 2; j++)
		f->pass[j] = (pass_lanes){0, f->lanes + j * n, f->accs + j * n, f->addrs + j * n,
					  f->bytes + j * n};
	if (coal_feed_reset(f, t0, nt) < 0) { /* (no lane open yet: each opened) */
		coal_feed_free(f);
		return NULL;
	}
	return f;
}

int coal_feed_reset(coal_feed *f, uint32_t t0, uint32_t nt)
{
	if (nt > f->cap)
		return -1;
	const rd_access_src *src = f->src;
	f->failed = 0;
	f->nt = nt;
	for (uint32_t i = 0; i < nt; i++) {
		feed_lane *L = &f->lane[i];
		L->pos = L->n = 0;
		L->ended = 0;
		L->loads = L->stores = 0;
		if (i < f->nopen && src->reopen && src->reopen(L->cur, t0 + i) == 0)
			continue;
		if (i < f->nopen)
			src->close(L->cur);
		L->cur = src->open(src->ctx, t0 + i);
		if (!L->cur) {
			/* (the lanes after it keep their cursors, closed by
			 * coal_feed_free; this one has none) */
			for (uint32_t j = i + 1; j < f->nopen; j++)
				src->close(f->lane[j].cur);
			f->nopen = i;
			f->nt = i;
			f->failed = 1;
			return -1;
		}
	}
	if (nt > f->nopen)
		f->nopen = nt;
	return 0;
}

void coal_feed_free(coal_feed *f)
{
	if (!f)
		return;
	for (uint32_t i = 0; i < f->nopen; i++)
		if (f->lane[i].cur)
			f->src->close(f->lane[i].cur);
	free(f->lanes);
	free(f->accs);
	free(f->addrs);
	free(f->bytes);
	free(f->lead_lane);
	free(f->lead_req);
	free(f);
}

void coal_feed_counts(const coal_feed *f, uint32_t lane, uint64_t *loads, uint64_t *stores)
{
	*loads = f->lane[lane].loads;
	*stores = f->lane[lane].stores;
}

/* Lane L's next accesses (stores dropped unless kept): 0, or -1 failed. */
static int feed_fill(coal_feed *f, feed_lane *L)
{
	L->pos = L->n = 0;
	while (!L->ended && !L->n) {
		int64_t n = f->src->next(L->cur, L->addr, L->bytes, L->store, FEED_BUF);
		if (n < 0 || n > FEED_BUF)
			return -1;
		if (!n) {
			L->ended = 1;
			break;
		}
		uint32_t k = 0;
		for (uint32_t j = 0; j < (uint32_t)n; j++) {
			L->stores += L->store[j] != 0;
			L->loads += L->store[j] == 0;
			if (L->store[j] && !f->stores)
				continue;
			L->addr[k] = L->addr[j];
			L->bytes[k] = L->bytes[j];
			L->store[k++] = L->store[j] != 0;
		}
		L->n = k;
	}
	return 0;
}

static int feed_room(void **p, uint64_t *cap, uint64_t need, size_t size)
{
	return vec_room(p, cap, need, size, 256);
}

int64_t coal_feed_more(coal_feed *f, rd_coal *co, uint64_t *rcap, uint64_t *icap, linemap *map,
		       uint64_t *line_cap, uint64_t max)
{
	if (f->failed)
		return -RD_EINVAL;
	if (f->front_map != map) { /* (front's ids are one map's) */
		memset(f->front, 0, sizeof f->front);
		f->front_map = map;
	}
	if (feed_room((void **)&co->instr_req_first, icap, co->ninstr + 1,
		      sizeof *co->instr_req_first) < 0)
		return -RD_ENOMEM;
	co->instr_req_first[co->ninstr] = co->nreq;
	uint64_t made = 0;
	while (made < max) {
		pass_lanes *pl = f->pass;
		pl[0].n = pl[1].n = 0;
		for (uint32_t i = 0; i < f->nt; i++) {
			feed_lane *L = &f->lane[i];
			if (L->pos == L->n && feed_fill(f, L) < 0) {
				/* the lanes before it read to their ends: a thread
				 * failing later in its own program but before this one
				 * in thread order is the one the source reports */
				for (uint32_t j = 0; j < i; j++)
					while (!f->lane[j].ended && feed_fill(f, &f->lane[j]) == 0)
						;
				f->failed = 1;
				return -RD_EINVAL;
			}
			if (L->pos == L->n)
				continue;
			uint32_t j = L->pos++;
			pass_lanes *q = &pl[L->store[j]];
			q->lane[q->n] = i;
			q->addr[q->n] = L->addr[j];
			q->bytes[q->n++] = L->bytes[j];
		}
		if (!pl[0].n && !pl[1].n)
			break; /* every lane has ended */
		if (feed_room((void **)&co->req, rcap, co->nreq + pl[0].n + pl[1].n, sizeof *co->req) <
			    0 ||
		    feed_room((void **)&co->instr_req_first, icap, co->ninstr + 2,
			      sizeof *co->instr_req_first) < 0)
			return -RD_ENOMEM;
		uint64_t nr = co->nreq;
		for (int s = 0; s < 2; s++) {
			int rc = pl[s].n ? coal_pass(co, map, line_cap, &pl[s], f->shift, f->ws, s, &nr,
						     f->lead_lane, f->lead_req, NULL, f->sect,
						     f->sshift, f->front)
					 : 0;
			if (rc < 0) {
				f->failed = rc == -3;
				return rc == -3 ? -RD_EINVAL : -RD_ENOMEM;
			}
		}
		if (nr == co->nreq)
			continue;
		co->nreq = nr;
		co->instr_req_first[++co->ninstr] = nr;
		made++;
	}
	return (int64_t)made;
}
