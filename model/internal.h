/*
 * Internal interfaces between the model's pipeline stages. Not installed;
 * the public API is rdscope.h.
 */
#ifndef RD_INTERNAL_H
#define RD_INTERNAL_H

#include "rdscope.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The engines' per-step lists grow by doubling (from `first`): the grown
 * array, *cap updated; or NULL, with v and *cap as they were. */
static inline void *vec_grow(void *v, uint32_t *cap, size_t size, uint32_t first)
{
	uint32_t nc = *cap ? *cap * 2 : first;
	void *nv = realloc(v, (size_t)nc * size);
	if (nv)
		*cap = nc;
	return nv;
}

/* *p (of *cap entries of size) with room for need entries: doubled from
 * first (0 or -1: no memory, *p and *cap as they were). */
static inline int vec_room(void **p, uint64_t *cap, uint64_t need, size_t size, uint64_t first)
{
	if (need <= *cap)
		return 0;
	uint64_t nc = *cap ? *cap * 2 : first;
	while (nc < need)
		nc *= 2;
	void *q = realloc(*p, nc * size);
	if (!q)
		return -1;
	*p = q;
	*cap = nc;
	return 0;
}

/* vec_room, the entries it adds zeroed (counts grown as ids come). */
static inline int vec_room_zero(void **p, uint64_t *cap, uint64_t need, size_t size, uint64_t first)
{
	uint64_t had = *cap;
	if (vec_room(p, cap, need, size, first) < 0)
		return -1;
	memset((char *)*p + had * size, 0, (*cap - had) * size);
	return 0;
}

/* A grown table's pages (or any fresh array's) written once, before its
 * probes read them: a fresh page read first is the kernel's shared zero
 * page, and the write that follows faults again and, with two threads
 * running, flushes that mapping from every CPU (an interprocessor
 * interrupt, costly in a virtual machine: 8 % of the mixed 8 MiB stream's
 * cycles at 1 M loads with both coalescing halves growing their maps,
 * 2026-11-29). The bytes written are zero, as calloc's. */
static inline void pages_write(void *p, size_t bytes)
{
	volatile unsigned char *b = p;
	for (size_t i = 0; i < bytes; i += 4096)
		b[i] = 0;
}

/* ---- line address -> dense id (coalesce.c's lines, the L2's) ---------- */
/* A slot holds its key and id side by side: a probe of a table larger
 * than the CPU's caches misses once, not once for the key and once more
 * for the id (the 64 MiB random stream's coalescing: 2 misses an access). */
typedef struct linemap_slot {
	uint64_t key; /* line address + 1; 0 marks an empty slot */
	uint32_t val; /* its id (the slot is 16 bytes: 8-byte aligned) */
} linemap_slot;

typedef struct linemap {
	linemap_slot *slot;
	uint64_t mask, n;
} linemap;

static inline uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

/* linemap.c: a table for about hint lines (it doubles as they come);
 * doubling; freeing. -1: no memory. */
int linemap_init(linemap *m, uint64_t hint);
int linemap_grow(linemap *m);
void linemap_free(linemap *m);

/* The id of line, or -2 and in *slot where to put it (linemap_put), or
 * -1: no memory. The map starts small and doubles: sized for the loads
 * up front, its random inserts would touch every page of a table far
 * larger than the lines there are. */
static inline __attribute__((always_inline)) int64_t linemap_find(linemap *m, uint64_t line,
								  uint64_t *slot)
{
	uint64_t key = line + 1, h;
	for (;;) { /* (a loop, not a call after growing: inlined where used) */
		h = mix64(key) & m->mask;
		while (m->slot[h].key) {
			if (m->slot[h].key == key)
				return m->slot[h].val;
			h = (h + 1) & m->mask;
		}
		if ((m->n + 1) * 2 <= m->mask + 1)
			break;
		if (linemap_grow(m) < 0)
			return -1;
	}
	*slot = h;
	return -2;
}

/* A table this large (slots) is worth fetching ahead (linemap_prefetch):
 * smaller ones stay in the CPU's caches. */
#define LINEMAP_PF_MIN (1u << 16)

/* Asks the CPU for line's first slot ahead of its linemap_find. (Inlined
 * always: GCC takes a function whose only effect is a prefetch for one
 * without effects, and drops its calls.) */
static inline __attribute__((always_inline)) void linemap_prefetch(const linemap *m,
								   uint64_t line)
{
	__builtin_prefetch(&m->slot[mix64(line + 1) & m->mask]);
}

static inline void linemap_put(linemap *m, uint64_t slot, uint64_t line, uint32_t id)
{
	m->slot[slot].key = line + 1;
	m->slot[slot].val = id;
	m->n++;
}

/* rd_set_index with the prime hash's modulus computed once (prime: the
 * caller's rd_hash_prime(sets), used only under RD_HASH_PRIME): the stages
 * index every line, and the modulus costs a trial division per candidate. */
static inline uint32_t set_index_p(const rd_config *c, uint32_t sets, uint32_t prime,
				   uint64_t line)
{
	if (c->l1_hash == RD_HASH_PRIME)
		return sets <= 1 ? 0 : (uint32_t)(line % prime);
	return rd_set_index(c, sets, line);
}

/* ---- stage 1: schedule (threads -> warps -> blocks -> cores) ---------- */
typedef struct rd_sched {
	uint32_t nthreads;        /* threads modelled (after gpu.max_threads) */
	uint32_t warp_size;
	uint32_t nblocks;         /* blocks modelled, numbered densely */
	uint32_t *block_id;       /* [nblocks] the kernel's id of each, or NULL:
				   * the same (blocks without loads dropped) */
	uint32_t warps_per_block; /* ceil(block size / warp size) */
	uint32_t nwarps;          /* nblocks * warps_per_block (some may be empty);
				   * warp w is in block w / warps_per_block */
	uint32_t *warp_t0;        /* [nwarps] first thread of each warp */
	uint16_t *warp_nt;        /* [nwarps] threads in each warp (0: empty) */
	uint32_t ncores;
	uint32_t *core_first;     /* [ncores + 1] index into core_blocks */
	uint32_t *core_blocks;    /* blocks of each core, in dispatch order */
	uint32_t active_blocks;   /* blocks running at once on a core */
	uint32_t cores_active;    /* cores given blocks by the dispatcher */
	uint32_t cores_sampled;   /* gpu.sample_cores: those that keep them, or 0: all */
} rd_sched;

/* With c->stores not ignore, threads and blocks with stores count too. */
int sched_build(rd_sched *s, const rd_kernel *k, const rd_config *c);
/* The core block b (the kernel's id) goes to, by gpu.block_mapping (not
 * random: that one deals the blocks with loads in a shuffled order). */
uint32_t sched_core_of(const rd_config *c, uint64_t b);
/* The cores given blocks. */
static inline uint32_t sched_cores_used(const rd_sched *s)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < s->ncores; i++)
		n += s->core_first[i + 1] > s->core_first[i];
	return n;
}
/* Thread t's loads and stores (0 beyond their lists). */
static inline uint64_t kernel_loads(const rd_kernel *k, uint32_t t)
{
	return t < k->nthreads ? k->thread_first[t + 1] - k->thread_first[t] : 0;
}
static inline uint64_t kernel_stores(const rd_kernel *k, uint32_t t)
{
	uint64_t lo, hi;
	rd_kernel_store_range(k, t, t + 1, &lo, &hi);
	return hi - lo;
}
void sched_free(rd_sched *s);
/* The kernel's id of (dense) block b, and of warp w. */
static inline uint32_t sched_block_id(const rd_sched *s, uint32_t b)
{
	return s->block_id ? s->block_id[b] : b;
}
static inline uint32_t sched_warp_id(const rd_sched *s, uint32_t w)
{
	return sched_block_id(s, w / s->warps_per_block) * s->warps_per_block +
	       w % s->warps_per_block;
}

/* ---- stage 2: coalescing --------------------------------------------- */
/* One request: a distinct line of one warp instruction's coalescing group. */
typedef struct rd_req {
	uint32_t line;       /* dense line id */
	/* the leader's lane (its thread: coal_req_thread), the threads
	 * merged into this request (warps are at most 1024 threads) and
	 * whether it is a store request (built with stores only); 8 bytes a
	 * request */
	uint32_t lane : 11;
	uint32_t nthr : 12;
	uint32_t store : 1;
	uint32_t sect : 8;   /* the sectors its lanes touch (l1.sector; else 0) */
} rd_req;
_Static_assert(sizeof(rd_req) == 8, "a request is 8 bytes");

typedef struct rd_coal {
	uint32_t nlines;
	uint64_t *line_addr;        /* [nlines] dense id -> line address */
	uint64_t *warp_instr_first; /* [nwarps + 1] into instr_req_first */
	uint64_t *instr_req_first;  /* [ninstr + 1] into req; NULL when each
				     * instruction has one request (coal_req_first) */
	uint64_t ninstr, nreq;
	rd_req *req;
	/* Built with stores (l1.stores not ignore): per request, the leader's
	 * load index (k->addr) or, for a store request, store index
	 * (k->store_addr); NULL otherwise, where warp instruction i of thread
	 * t is its load thread_first[t] + i, and NULL for a part of a kernel
	 * (k->part_block: only events and per-site runs read it, which parts
	 * refuse). */
	uint64_t *req_acc;
	/* Per thread-level load, for the reference profile's per-lane replay
	 * only (NULL unless built with lanes: 5 bytes a load). */
	uint32_t *load_line;        /* [nloads] dense line id */
	uint8_t *load_on;           /* [nloads] 0: coalesced away */
	/* The same as sim_ref2013 reads them (ref2013_lanes): built once for
	 * every case of every run on this coalescing, NULL until then. */
	uint32_t *lane_acc;
} rd_coal;

/* The leader thread (global id) of request rq of warp w. */
static inline uint32_t coal_req_thread(const rd_sched *s, uint32_t w, const rd_req *rq)
{
	return s->warp_t0[w] + rq->lane;
}

/* The first request of warp instruction i (i = ninstr: nreq). */
static inline uint64_t coal_req_first(const rd_coal *co, uint64_t i)
{
	return co->instr_req_first ? co->instr_req_first[i] : i;
}

/* cb (may be NULL): its progress callback is asked every few thousand
 * warps whether to stop; RD_ECANCELED then. */
/* Shrink co's arrays to what was used; ident: one request an instruction. */
void coal_shrink(rd_coal *co, int ident);
int coal_build(rd_coal *co, const rd_kernel *k, const rd_sched *s, uint32_t line_size,
	       int lanes, int stores, const rd_callbacks *cb);
/* Memory spaces: the arrays (by rd_arrays_find index) whose accesses are
 * not the L1's; skip[i] nonzero for array i. */
typedef struct coal_skip {
	const rd_arrays *arrays;
	const uint8_t *skip;
} coal_skip;
/* coal_build leaving out the lanes in skipped arrays (NULL: none), and a
 * warp instruction none of whose lanes is left; with threads > 1 a large
 * kernel is coalesced in two halves at once (the same result). */
int coal_build_skip(rd_coal *co, const rd_kernel *k, const rd_sched *s, uint32_t line_size,
		    int lanes, int stores, const coal_skip *skip, const rd_callbacks *cb,
		    int threads);
/* coal_build_skip giving each request the mask of the sector-byte sectors
 * of its line that its lanes touch (rd_req.sect; sector 0: none). spend:
 * k's accesses are freed after (rd_parts_add_spent) and nothing else
 * reads them: with stores, and 64 MiB of them or more (as built), their
 * pages are given back as they are read,
 * so that a part's accesses and its requests are not both in memory
 * (store_tid and the thread index stay; k's own arrays only). */
int coal_build_sect(rd_coal *co, const rd_kernel *k, const rd_sched *s, uint32_t line_size,
		    uint32_t sector, int lanes, int stores, const coal_skip *skip,
		    const rd_callbacks *cb, int threads, int spend);
void coal_free(rd_coal *co);
/* Lines named over several coalescings: a part coalesced a few blocks at
 * a time (rd_part_builder) numbers them as one coalescing of the whole
 * part would, in the order its warps meet them. */
typedef struct coal_lines {
	linemap map;
	uint64_t *line_addr; /* [nlines] (cap of room) */
	uint32_t nlines;
	uint64_t cap;
} coal_lines;
/* coal_build_sect naming k's lines after those of shared (NULL: its own),
 * which it extends: co->line_addr stays NULL (the lines are shared's,
 * co->nlines their count on RD_OK); coal_lines_free frees them. */
int coal_build_lines(rd_coal *co, const rd_kernel *k, const rd_sched *s, uint32_t line_size,
		     uint32_t sector, int lanes, int stores, const coal_skip *skip,
		     const rd_callbacks *cb, int threads, int spend, coal_lines *shared);
void coal_lines_free(coal_lines *l);
/* line's id in l, named after l's lines if new; -1: no memory. */
int64_t coal_lines_id(coal_lines *l, uint64_t line);
/* A warp's instructions coalesced as its threads' accesses are read
 * (rd_access_src; coalesce.c): threads t0 .. t0 + nt - 1 of the part,
 * warp size ws; stores kept as their own pass, or dropped as read. */
typedef struct coal_feed coal_feed;
coal_feed *coal_feed_new(const rd_access_src *src, uint32_t t0, uint32_t nt, uint32_t ws,
			 uint32_t line_size, uint32_t sector, int stores); /* NULL: failed */
void coal_feed_free(coal_feed *f);
/* f made ready for threads t0 .. t0 + nt - 1 (nt at most the warp size or
 * the first nt), its cursors reopened (rd_access_src.reopen) or closed and
 * opened, its buffers kept: 0, or -1 failed (f then only to free). */
int coal_feed_reset(coal_feed *f, uint32_t t0, uint32_t nt);
/* Up to max more instructions appended to co (req, instr_req_first,
 * ninstr, nreq; rooms *rcap, *icap grown; co->instr_req_first[co->ninstr]
 * is co->nreq after): how many, 0 once the warp has ended, or -RD_ENOMEM,
 * -RD_EINVAL (a cursor failed, or line_cap NULL and a line not in map:
 * looking up only, no line added). */
int64_t coal_feed_more(coal_feed *f, rd_coal *co, uint64_t *rcap, uint64_t *icap, linemap *map,
		       uint64_t *line_cap, uint64_t max);
/* Lane i's accesses read so far: loads and stores (dropped ones too). */
void coal_feed_counts(const coal_feed *f, uint32_t lane, uint64_t *loads, uint64_t *stores);

/* ---- memory spaces (spaces.c) ------------------------------------------ */
struct sim_counts;
/* The spaces stage: per space of rd_space_stats (global's requests, hits
 * and misses are the L1's, filled by the caller). space_of as
 * rd_spaces_resolve gives it. miss_out (or NULL): each texture and
 * constant miss appended as an l2s record (L1 line address) at its core's
 * warp-instruction ordinal, each core's in order; core_instr (or NULL,
 * else s->ncores entries): each core's warp instructions (the ordinals'
 * end). RD_OK, RD_ENOMEM or RD_ECANCELED. */
int spaces_run(const rd_kernel *k, const rd_sched *s, const rd_config *c,
	       const uint8_t *space_of, rd_space_stats *out, struct sim_counts *miss_out,
	       uint64_t *core_instr, const rd_callbacks *cb);
/* texture2d's tile of one texture line: tw elements wide, th rows high
 * (th the largest power of two with th * th <= elements per line) [ours]. */
void spaces_tile_shape(uint32_t line, uint32_t elem, uint32_t *tw, uint32_t *th);
/* An address of 2D array a as the texture cache sees it: the array laid
 * out tile after tile (row-major tiles, row-major within a tile). */
uint64_t spaces_tex2d_addr(const rd_array *a, uint32_t line, uint64_t addr);
/* Rule 4: the most distinct words (addr / width) in one bank (word mod
 * banks) minus one; scratch holds n values. */
uint32_t spaces_shared_replays(const uint64_t *addr, uint32_t n, uint32_t banks, uint32_t width,
			       uint64_t *scratch);

/* ---- stage 3 helper: per-set LRU stacks (Bennett-Kruskal + Fenwick) --- */
/* What a lookup needs of a line, in one 8-byte record: one cache miss
 * per request instead of one per array, and half the bytes of the
 * 16-byte record that also held the MSHR's count and owner (the paper
 * engine keeps those apart, for misses only). */
typedef struct rd_line {
	uint32_t stamp; /* last update stamp in its set, 0 = never updated */
	uint32_t set;   /* set index under the case's hash */
} rd_line;

/* One set's bookkeeping, together: every stack operation reads it. */
typedef struct rd_set {
	uint64_t off;       /* the set owns words off .. off + nw - 1 */
	uint64_t nw;
	uint64_t built;     /* words below this are counted in the tree */
	uint32_t counter;   /* next stamp, from 1 */
	uint32_t live;      /* lines with a stamp */
	/* window mode: the oldest stamp among the set's `window` most recent
	 * marks (0: none yet), and how many marks are at or above it */
	uint32_t bound, inwin;
} rd_set;

/* A set's holes (stack_evict): marks whose line a store removed. */
typedef struct rd_holes {
	uint32_t *v;        /* their stamps */
	uint32_t n, cap;
} rd_holes;

typedef struct rd_stack {
	uint32_t nsets;
	rd_set *set;        /* [nsets] */
	uint64_t *bits;     /* bit p of a set's words: stamp p is some line's latest
			     * (without a tree: only from the set's bound up) */
	uint32_t *tree;     /* per set, a Fenwick tree over its words' bit counts */
	int exact;          /* keep the tree: exact distances of any length */
	uint32_t window;    /* the ways whose LRU contents are kept, or 0 */
	rd_line *ln;        /* [nlines] */
	uint32_t nlines;
	rd_holes *holes;    /* [nsets] (stack_holes), or NULL: nothing is ever evicted */
	/* stack_who: per stamp (as the bits), the line that holds it, so that
	 * an update reports the line it pushed out of the window (evicted,
	 * UINT32_MAX: none); NULL otherwise */
	uint32_t *who;
	uint32_t evicted;
	/* where a set may run out of stamps (stack_init): each set's lines
	 * (set_line[set_first[s] ..]) and a word count per word of the
	 * largest set, for stack_compact; else NULL. How many times it ran
	 * (warps that remember a stamp compare it too; tests) */
	uint32_t *set_first, *set_line, *pre;
	uint64_t compactions;
} rd_stack;

/* *c += n, at most UINT32_MAX (a stack's updates counted for stack_init:
 * a wrapped count would undersize it) */
static inline void cap_add(uint32_t *c, uint64_t n)
{
	uint64_t v = (uint64_t)*c + n;
	*c = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* Room a set is given: STACK_ROOM times its lines and window, and
 * STACK_SLACK more (stack_init), at most its updates: how often a long run
 * renumbers (stack_compact), once per (STACK_ROOM - 1) times its lines of
 * updates, each renumbering O(its lines). 8, not 2: a set's bitmap and
 * tree take 1.5 bytes a line (its record 8), and issue 23's stream at
 * 10 M loads renumbered every 330 updates of a set of 260 lines (5 % of
 * its CPU; 0.95x its time with 8, 0.94x on the mixed 8 MiB stream;
 * gesummv whole on hopper-h100, the largest PolyBench peak, 191 -> 195
 * MB, 2026-11-29). */
#define STACK_ROOM 8
#define STACK_SLACK 64
void stack_compact(rd_stack *st, uint32_t set);

/* cap[s] = most updates set s can see; set_of[l] = set of line l.
 * window N > 0: whether a line is among its set's N most recent
 * (stack_hit_inline: an N-way LRU set's contents), in O(1); exact: exact
 * distances of any length too (stack_distance), in O(log). A case that
 * keeps both decides hit or miss by the window. */
int stack_init(rd_stack *st, uint32_t nsets, const uint32_t *cap, uint32_t nlines,
	       const uint32_t *set_of, uint32_t window, int exact);
void stack_free(rd_stack *st);
/* Distinct lines of its set updated since the line's last update; -1: never. */
int64_t stack_distance(const rd_stack *st, uint32_t line);
/* The entries an event's stack lists at most (rd_callbacks.stack_depth). */
static inline uint32_t stack_depth(const rd_callbacks *cb)
{
	uint32_t d = cb->stack_depth ? *cb->stack_depth : 0;
	return d && d < RD_EVENT_STACK ? d : RD_EVENT_STACK;
}

/* The top entries of a set, most recent first: its lines as line
 * addresses and its holes as RD_HOLE | stamp; at most cap. Needs exact
 * distances and stack_who; O(cap + the words its marks span). */
uint32_t stack_top(const rd_stack *st, uint32_t set, const uint64_t *line_addr, uint64_t *out,
		   uint32_t cap);
void stack_update(rd_stack *st, uint32_t line);
/* Let lines be removed (l1.stores=evict): 0, or -1 out of memory. */
int stack_holes(rd_stack *st);
/* Report evictions from the window (write-backs): 0, or -1 out of memory. */
int stack_who(rd_stack *st);
/* Remove a line in its set's window (an LRU cache hit): its way is left
 * empty. The line's mark stays as a hole, so the lines below keep their
 * depth, until the set's next insertion fills it instead of pushing its
 * oldest line out: the window keeps holding exactly the set's contents.
 * The line's stamp becomes 0 (not in the stack). -1: out of memory. */
int stack_evict(rd_stack *st, uint32_t line);

/* ---- warps waiting for a time step (the reference engine: it orders
 * warps due at once by id, so a heap; the paper engine's order is that of
 * issue, which its timing wheel keeps for free) ------------------------- */
typedef struct wentry {
	uint64_t at, tie; /* due time; order among warps due at once */
	uint32_t w;
} wentry;

typedef struct wheap {
	wentry *v;
	uint64_t n, cap;
} wheap;

int wheap_push(wheap *h, uint64_t at, uint64_t tie, uint32_t w); /* -1: no memory */
wentry wheap_pop(wheap *h);
void wheap_free(wheap *h);
/* Is a warp due at or before t? */
static inline int wheap_due(const wheap *h, uint64_t t)
{
	return h->n && h->v[0].at <= t;
}

/* ---- seeded generator for latencies and random mappings -------------- */
typedef struct rd_rng {
	uint64_t s;
} rd_rng;

void rng_seed(rd_rng *r, uint64_t seed, uint64_t stream);
/* splitmix64: one draw per miss in the engines' loop, so inline */
static inline uint64_t rng_next(rd_rng *r)
{
	uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}
/* |N(0, sigma^2)| rounded to an integer, truncated at 8 sigma. */
uint32_t rng_halfnormal(rd_rng *r, double sigma);

/*
 * The same distribution as an alias table (Walker/Vose): the rounded
 * half-normal takes the values 0..8 sigma, so one 64-bit draw picks a value
 * exactly, without log() and cos() per latency. Falls back to
 * rng_halfnormal for very large sigma.
 */
typedef struct rd_halfnormal {
	double sigma;
	uint32_t n;        /* values 0 .. n-1; 0: use rng_halfnormal */
	uint32_t *thresh;  /* [n] keep value i if the low 32 bits are below */
	uint32_t *alias;   /* [n] otherwise take alias[i] */
} rd_halfnormal;

int halfnormal_init(rd_halfnormal *h, double sigma);
void halfnormal_free(rd_halfnormal *h);
static inline uint32_t halfnormal_draw(const rd_halfnormal *h, rd_rng *r)
{
	if (!h->n)
		return rng_halfnormal(r, h->sigma);
	uint64_t u = rng_next(r);
	uint32_t i = (uint32_t)(((u >> 32) * h->n) >> 32);
	return (uint32_t)u < h->thresh[i] ? i : h->alias[i];
}

/* ---- replacement policies other than LRU (policy.c) ------------------- */
/* Each set's ways as they are: which line each holds and what the policy
 * keeps of it, and where each line is. Hit or miss is presence; an access
 * (a hit's effect) updates the policy's state; a fill inserts the line,
 * into the lowest empty way, else over the policy's victim. */
typedef struct rd_policy {
	int kind;                 /* enum rd_replacement (not LRU) */
	uint32_t nsets, ways;
	const uint32_t *set_of;   /* [nlines] set of each line */
	/* [nsets * ways] each way's line (UINT32_MAX: empty) and when it was
	 * inserted (FIFO's order once a refilled empty way broke its ring),
	 * together: a victim's scan reads one record a way */
	struct rd_way {
		uint32_t line;
		uint32_t reserved; /* allocated on miss, its fill still to land */
		uint64_t stamp;    /* POLICY_LRU: its last access */
	} *way;
	/* LFU in O(1) (a fully associative set has hundreds of ways): per set
	 * a list of count buckets, ascending, each a list of its ways, least
	 * recently accessed first (the victim: the first way of the first
	 * bucket). Way w is in bucket lfu_node[w], between lfu_prev[w] and
	 * lfu_next[w]; buckets come from a pool (free ones chained by next). */
	uint32_t *lfu_prev, *lfu_next, *lfu_node; /* [nsets * ways] */
	struct rd_lfu_bucket {
		uint32_t count, head, tail, prev, next;
	} *lfu_bucket;            /* [nsets * ways + 1] */
	uint32_t *lfu_first;      /* [nsets] the set's first bucket, or UINT32_MAX */
	uint32_t lfu_free;        /* the pool's first free bucket */
	uint32_t *line_way;       /* [nlines] way of the line, or UINT32_MAX */
	uint32_t *set_used;       /* [nsets] ways filled: the empty ones are the rest, in
				   * order (a way once filled is only ever replaced) */
	uint32_t *set_next;       /* [nsets] FIFO: the way inserted first (a ring) */
	uint32_t *set_free;       /* [nsets] ways a store emptied (policy_evict), or NULL */
	uint8_t *set_mixed;       /* [nsets] FIFO: a refilled empty way broke the ring's order */
	uint64_t clock;           /* fills so far: the insertions' order */
	rd_rng rng;               /* random: its own stream */
	uint32_t evicted;         /* the line the last policy_fill replaced, or UINT32_MAX */
	uint32_t *set_resv;       /* [nsets] ways reserved (policy_reservations), or NULL */
} rd_policy;

/* LRU kept in ways (not a kind of its own in enum rd_replacement: LRU
 * alone is the stacks' window): for l1.allocate=miss, whose reserved ways
 * a stack cannot keep. Its victim is the least recently accessed way. */
#define POLICY_LRU 16

int policy_init(rd_policy *p, int kind, uint32_t nsets, uint32_t ways, uint32_t nlines,
		const uint32_t *set_of, uint64_t seed, uint64_t stream);
void policy_free(rd_policy *p);
static inline int policy_has(const rd_policy *p, uint32_t line)
{
	return p->line_way[line] != UINT32_MAX;
}
/* An access to a line in the cache (none if it is not). */
void policy_touch(rd_policy *p, uint32_t line);
/* The line's data arrives: inserted (an access if it is there already). */
void policy_fill(rd_policy *p, uint32_t line);
/* Let lines be removed (l1.stores=evict): 0, or -1 out of memory. */
int policy_holes(rd_policy *p);
/* Remove a line that is in the cache: its way is empty until the set's
 * next fill, which takes the lowest empty way before any victim. */
void policy_evict(rd_policy *p, uint32_t line);
/* Allocation on miss (l1.allocate=miss): 0, or -1 out of memory. */
int policy_reservations(rd_policy *p);
/* Is the line there with its data (not reserved)? */
static inline int policy_ready(const rd_policy *p, uint32_t line)
{
	uint32_t w = p->line_way[line];
	return w != UINT32_MAX && !p->way[w].reserved;
}
/* May a miss of the line take a way now (not every way of its set reserved)? */
static inline int policy_can_reserve(const rd_policy *p, uint32_t line)
{
	return p->set_resv[p->set_of[line]] < p->ways;
}
/* The miss takes a way now (policy_can_reserve held): the victim among the
 * unreserved ways is replaced (evicted says which) and the way reserved. */
void policy_reserve(rd_policy *p, uint32_t line);
/* The reserved line's fill lands: the way is an ordinary one again. */
void policy_unreserve(rd_policy *p, uint32_t line);

/* ---- stage 3-4: timed simulation of one case on one core ------------- */
typedef struct sim_params {
	uint32_t sets, ways;       /* of the configuration */
	/* The sets the lines use, numbered densely: nsets of them, set_of[l]
	 * in [0, nsets), and set_ids[i] the configuration's set index of
	 * dense set i (NULL: the numbering is the configuration's own). A
	 * cache of 2^26 sets touched by 8 lines keeps 8 stacks, not 2^26. */
	uint32_t nsets;
	const uint32_t *set_ids;
	const uint32_t *set_of;    /* [nlines] dense set of each line */
	/* [cores * nsets] requests each core sends each set: the most updates
	 * its stack sees there (kept with the set index, not counted per run) */
	const uint32_t *set_cap;
	uint32_t lat_hit, lat_miss;
	double sigma;
	uint32_t mshrs, per_warp;  /* 0 = unlimited */
	int clip;
	int divergence;
	uint64_t seed;
	int record_events;
	int need_hist;             /* exact distances for the histogram */
	/* Case 0: label each miss per access with a shadow fully associative
	 * LRU stack of sets * ways lines, fed every request as it issues
	 * (over shadow_set_of, all zeros, sized by shadow_cap[core]). */
	int shadow;
	const uint32_t *shadow_set_of;
	const uint32_t *shadow_cap;
	int repl;                  /* enum rd_replacement */
	int stores;                /* enum rd_stores */
	int bypass;                /* l1.loads=bypass */
	int alloc_miss;            /* l1.allocate=miss */
	int sector;                /* l1.sector: count sector lookups (rd_req.sect) */
	int warp_loads;            /* l1.mshr_per_warp_counts=loads (with a per-warp cap) */
	int gto;                   /* gpu.scheduler_policy=gto */
	int case_id;               /* enum rd_case: the random policy's stream */
	/* Per-site counts (rd_callbacks.by_site): nsites of them, the site of
	 * a load from the kernel's sites or its per-thread load number. */
	int by_site;
	uint32_t nsites;
	/* Case 0 with an L2: record the requests leaving the L1 (sim_counts.l2s) */
	int emit;
	/* l2.sector (with sector): each request carries its sectors, and a
	 * load's sectors missing from a present line are asked of the L2 */
	int emit_sect;
	/* model=rdgc (sim_rdgc_core): banks (bank_of[l] of each line, from
	 * the set index stage), ports, MSHR sets and merges; schedulers;
	 * Algorithm 3's limits; the latency (lat_miss when fixed) */
	int rdgc;
	const uint32_t *bank_of;
	uint32_t banks, ports, mshr_sets, max_merges, schedulers;
	uint32_t maxcb, maxcw;
	uint32_t line_bytes;       /* l1.line (events' fill addresses) */
	int adaptive;
	double k1, k2;
	uint32_t l2p;
} sim_params;

/* One site's counts in one case (sim_counts.site). */
typedef struct site_counts {
	uint64_t requests, hits, misses, compulsory, latency, assoc_access;
	uint64_t write_evict, bypass, sector;
} site_counts;

/* The misses of a case (sim_counts or site_counts) whose class is known
 * per request: the rest are split by the cases' differences. */
#define COUNTS_KNOWN(c) \
	((c)->compulsory + (c)->latency + (c)->write_evict + (c)->bypass + (c)->sector)

/* The site of thread t's load number i (of load a = first[t] + i). */
static inline uint32_t site_of(const rd_kernel *k, uint64_t a, uint64_t i)
{
	if (k->site)
		return k->site[a];
	return i < RD_SITE_LOADS_MAX - 1 ? (uint32_t)i : RD_SITE_LOADS_MAX - 1;
}
static inline int site_bin(int64_t d)
{
	int b = 0;
	while (b < RD_SITE_BINS - 1 && (uint64_t)d >= (1ull << b))
		b++;
	return b;
}

/* Requests leaving the L1s (l2req's fields), packed: about 5 bytes a
 * record against l2req's 24 (rd_parts keeps its parts' so; syrk's 20 M
 * records at its default size on 132 SMs). Records in runs of one core;
 * each record a head byte (bit 0 a store; bit 1 a run starts; bits 2..7
 * sect + 1, or 0: sect follows as a varint), then varints (7 bits a byte,
 * low first): at a run's start its core, t and line, else t and line as
 * zigzag differences from the run's previous record. A run decodes from
 * its start alone. */
typedef struct l2pack {
	uint8_t *b;
	uint64_t len, cap, n;
	uint64_t t, line; /* the last record's, and its core (appending) */
	uint32_t core;
	/* spill_at nonzero: once b holds that many bytes they go to the end
	 * of f, a temporary file (made then), flen bytes long: the pack is
	 * f's bytes, then b's (l2pack_flush moves b's there too) */
	uint64_t spill_at, flen;
	FILE *f;
	int ioerr; /* f could not be made, written or read */
} l2pack;

/* A reader of a pack from a run's start (p its first byte). */
typedef struct l2pack_cur {
	const uint8_t *p;
	uint64_t t, line;
	uint32_t core;
} l2pack_cur;

static inline uint64_t l2pack_varint(const uint8_t **pp)
{
	const uint8_t *p = *pp;
	uint64_t v = 0;
	for (int sh = 0;; sh += 7) {
		uint8_t x = *p++;
		v |= (uint64_t)(x & 0x7f) << sh;
		if (!(x & 0x80))
			break;
	}
	*pp = p;
	return v;
}

static inline uint64_t l2pack_unzig(uint64_t v)
{
	return (v >> 1) ^ (0 - (v & 1));
}

/* v as a varint at p: past it (at most 10 bytes) */
static inline uint8_t *l2pack_put(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* a two's complement difference d, zigzagged: small either way */
static inline uint64_t l2pack_zig(uint64_t d)
{
	return d << 1 ^ (0 - (d >> 63));
}

typedef struct sim_counts {
	uint64_t requests, hits, misses;
	uint64_t compulsory, latency; /* first touches; misses to in-flight lines */
	uint64_t assoc_access;        /* other misses the shadow would hit (sim_params.shadow) */
	uint64_t write_evict;         /* misses of lines a store evicted (l1.stores=evict) */
	uint64_t bypass;              /* loads sent past the cache (l1.loads=bypass) */
	uint64_t sector;              /* line hits missing a sector (l1.sector): misses */
	uint64_t store_requests, store_hits, store_evictions;
	uint64_t sect_lookups, sect_hits; /* loads' sectors (sim_params.sector) */
	uint64_t cancels;
	uint64_t time;
	uint64_t *hist;               /* finite distances */
	uint32_t hist_len, hist_cap;
	uint64_t hist_inf;
	uint64_t *hist_w;             /* the store requests' distances (case 0) */
	uint32_t hist_w_len, hist_w_cap;
	uint64_t hist_w_inf;
	uint32_t nsets;               /* per-set counts (case 0 only), or 0 */
	uint64_t *set_requests, *set_misses;
	uint32_t nsites;              /* per-site counts (sim_params.by_site), or 0 */
	site_counts *site;
	uint32_t ncore_rm;            /* case 0: each core's requests and misses (core_rm[2k],
				       * [2k + 1]), for gpu.sample_cores' spread, or 0 */
	uint64_t *core_rm;
	uint64_t *site_hist;          /* case 0: [nsites * (RD_SITE_BINS + 1)], inf last */
	/* sim_params.emit: the requests that leave the L1 for the L2, in issue
	 * order per core, cores one after the other */
	struct l2req *l2s;
	uint64_t nl2s, l2s_cap;
	l2pack pk; /* or packed (a kernel in parts': see l2pack), n records */
	/* nonzero: every so many records the l2s so far are packed onto pk
	 * (older records in pk, newer in l2s; a part's case 0: 3 bytes a
	 * record kept rather than 24) */
	uint32_t pack_every;
} sim_counts;

/* One request leaving an L1: its step, core, L1 line address, whether it
 * is a write (a store leaving the L1), and under l2.sector the L1 line's
 * sectors it carries (bit i: l1.sector bytes at i * l1.sector; 0: the
 * whole line) */
typedef struct l2req {
	uint64_t t;
	uint64_t line;
	uint32_t core;
	uint16_t store;
	uint16_t sect;
} l2req;

/* The next record at cur: its t, line, core, store and sect in *q; 1 when
 * it starts a run. */
static inline int l2pack_next(l2pack_cur *cur, l2req *q)
{
	const uint8_t *p = cur->p;
	uint8_t h = *p++;
	int start = h >> 1 & 1;
	uint32_t sect = h >> 2;
	sect = sect ? sect - 1 : (uint32_t)l2pack_varint(&p);
	if (start) {
		cur->core = (uint32_t)l2pack_varint(&p);
		cur->t = l2pack_varint(&p);
		cur->line = l2pack_varint(&p);
	} else {
		cur->t += l2pack_unzig(l2pack_varint(&p));
		cur->line += l2pack_unzig(l2pack_varint(&p));
	}
	cur->p = p;
	*q = (l2req){cur->t, cur->line, cur->core, (uint16_t)(h & 1), (uint16_t)sect};
	return start;
}

/* n records of v appended to pk (-1: out of memory); pk freed and
 * cleared; c's pack (if any) appended to its records as l2reqs and freed
 * (-1: out of memory, c unchanged). */
int l2pack_add(l2pack *pk, const l2req *v, uint64_t n);
/* from's records after to's (from's first is a start record): 0, -1. */
int l2pack_cat(l2pack *to, const l2pack *from);
/* pk's bytes in memory written to the end of its file (made if it has
 * none): 0, or -1 (the file could not be made or written) */
int l2pack_flush(l2pack *pk);
/* A pack in a file read back into memory (to: the records of from, b
 * only; from unchanged): 0, -1 */
int l2pack_load(l2pack *to, const l2pack *from);
void l2pack_free(l2pack *pk);
int l2pack_unpack(sim_counts *c);

/* k's accesses (addresses, sizes, sites, the stores' arrays) freed and
 * NULL, unless lent (k->release): rd_parts_add_spent frees them once a
 * part is coalesced, since what the cases and the report read of a
 * kernel is its counts, thread index and arrays (by-site runs and events,
 * which read more, are not parts' business). */
void kernel_free_accesses(rd_kernel *k);
/* kernel_free_accesses once k's part is coalesced: its arrays go to
 * k->spare where there is one (the last ones there freed). */
void kernel_spend_accesses(rd_kernel *k);
/* The arrays s holds, freed (rd_parts_finish). */
void kernel_spare_empty(rd_kernel_spare *s);
/* The loads and stores the arrays s holds have room for (tests). */
void kernel_spare_held(rd_kernel_spare *s, uint64_t *loads, uint64_t *stores);

/* Append one (-1: out of memory); l2s_add_sect with its sectors. */
int l2s_add(sim_counts *c, uint64_t t, uint64_t line, uint32_t core, int store);
int l2s_add_sect(sim_counts *c, uint64_t t, uint64_t line, uint32_t core, int store,
		 uint32_t sect);

/* What the threads running one rd_model_run share: progress and cancel. */
typedef struct sim_shared {
	_Atomic uint64_t done;   /* requests issued, all cases and threads */
	_Atomic int cancel;      /* set by the caller's callback, or an error */
	uint64_t total;          /* requests of all cases to run */
	const rd_callbacks *cb;
} sim_shared;

/* Shared read-only inputs of a simulation. */
typedef struct sim_input {
	const rd_kernel *k;
	const rd_sched *s;
	const rd_coal *co;
	const rd_callbacks *cb;  /* events: only the caller's thread runs case 0 */
	sim_shared *sh;
	int caller;              /* 1 on the thread that called rd_model_run */
	const sim_counts *acc;   /* case 0: the cores already done, for partials */
	/* streaming (rd_parts_add_stream; sim_paper only): co has the lines
	 * only (map: line -> id, read, never extended), and each warp's
	 * requests are coalesced from src as it runs, with these l1.line,
	 * l1.sector and stores (not ignored) */
	const rd_access_src *src;
	linemap *map;
	uint32_t feed_line, feed_sector;
	int feed_stores;
} sim_input;

/* ---- stage 5: classify (cc: the counts of each case run, bit i of cases
 * set when case i ran) ---------------------------------------------------- */
void classify_paper(rd_result *r, const sim_counts cc[RD_NCASES], int cases, int per_access);
/* Per-site results (r->sites) from the cases' per-site counts, each class
 * summing exactly to r's totals (classify_paper's, already in r): the
 * differences are shared among the sites in proportion to their own.
 * 0, or -1 out of memory. */
int classify_sites(rd_result *r, const sim_counts cc[RD_NCASES], int cases, int per_access);
void classify_ref2013(rd_result *r, const sim_counts cc[RD_NCASES], int cases, uint32_t ways,
		      uint32_t sets);

/* Count distance d (< 0: infinite) in c's histogram; -1: no memory. */
int hist_add_slow(sim_counts *c, int64_t d);
/* The same in the stores' histogram. */
int hist_w_add(sim_counts *c, int64_t d);
static inline int hist_add(sim_counts *c, int64_t d)
{
	if (d >= 0 && (uint64_t)d < c->hist_cap) {
		c->hist[d]++;
		if ((uint32_t)d >= c->hist_len)
			c->hist_len = (uint32_t)d + 1;
		return 0;
	}
	return hist_add_slow(c, d); /* infinite, or the histogram grows */
}
/* counts.c: free and clear (a freed counter is an empty one, ready to
 * merge into); case 0's per-set counters (0 or -1: no memory); add one
 * case's counts to another (0 or -1: no memory). */
void counts_free(sim_counts *c);
int counts_sets(sim_counts *c, uint32_t nsets);
int counts_sites(sim_counts *c, uint32_t nsites, int hist);
int counts_merge(sim_counts *to, const sim_counts *from);
/* Every count of c times num / den, rounded (gpu.sample_cores; each site
 * kept whole, its sums within rounding of the kernel's); the stream
 * to the L2 and the per-core counts are left as they are. */
void counts_scale(sim_counts *c, uint64_t num, uint64_t den);
int sim_paper_core(const sim_input *in, uint32_t core, const sim_params *p, sim_counts *out);
int sim_rdgc_core(const sim_input *in, uint32_t core, const sim_params *p, sim_counts *out);

/* ---- the parallel cache (pcache.c): banks, ports, MSHR sets with merge
 * limits, fills in MSHR order (seed 001 §4.4), shared by model=rdgc's L1
 * (sim_rdgc.c) and the L2 (l2.c). Each step: pc_fills, then each request
 * that takes a port (the caller counts ports) is tried with pc_access. */
enum { PC_HIT, PC_MISS, PC_MERGE, PC_RF, PC_EVICT, PC_PAST };
typedef struct pc_fill {
	uint64_t done, seq;
	uint32_t line;
} pc_fill;
typedef struct pcache {
	rd_stack st;
	rd_policy pol;            /* kind 0: LRU (the stack's window) */
	uint32_t nlines;
	const uint32_t *mset_of;  /* [nlines] MSHR set of each line */
	uint32_t nmsets, mshrs, max_merges; /* 0: unlimited */
	uint32_t *mset_used;      /* [nmsets] */
	uint32_t used;            /* entries in use, all sets */
	int stores;               /* enum rd_stores */
	int need_hist;
	uint32_t lat;             /* fixed latency, or ... */
	int adaptive;             /* ... rd_adaptive_latency(k1, k2, used, cores, l2p) */
	double k1, k2;
	uint32_t cores, l2p;
	uint64_t *done;           /* [nlines] the fill's step (while pending) */
	uint32_t *merges;         /* [nlines] merged into its entry */
	uint8_t *flag;            /* [nlines] PC_F_* */
	pc_fill *heap;            /* fills in (done, seq) order */
	uint64_t nheap, heap_cap, seq;
	sim_counts *out;
	/* events: the callback, and the event each fill reports (the caller
	 * fills its level, core; line addresses and banks from these) */
	const rd_callbacks *cb;
	const uint64_t *line_addr;
	uint32_t line_bytes;      /* (a fill's address: its line's first byte) */
	const uint32_t *set_show; /* [nlines] the set its events name (within its bank) */
	uint64_t *stk;            /* events' stacks (RD_EVENT_STACK), or NULL: none */
	uint32_t *fill_core;      /* [nlines] the core whose miss a fill answers, or NULL
				   * (a fill's row then names the fills' caller's core) */
	uint32_t req_core;        /* the core of the request pc_access is given */
	const uint32_t *bank_of;  /* [nlines] bank (partition-major) */
	uint32_t banks_per_part;
	int level;
	/* pc_shadow: each miss that is not compulsory, latency or
	 * write_evict is an associativity miss if a fully associative cache
	 * of each bank's lines (one set per bank, same policy), fed the same
	 * effects at the same times, holds the line (Hill's three Cs) */
	/* write-backs (stores=allocate, pc_writebacks): evicted written lines
	 * go to wb (as l2s records of core wb_core at the step they leave) */
	sim_counts *wb;
	uint32_t wb_core;
	uint64_t now;
	int wb_fail;
	int emitted;              /* pc_access sent the miss's read itself (L = 0: its
				   * fill's write-back follows it) */
	int shadow;
	rd_stack fa;
	rd_policy fa_pol;
	/* the last access's results, for the caller's event and stream */
	int64_t d;
	int cls;
	uint32_t last_lat;
} pcache;
#define PC_F_SEEN 1u  /* a miss or hit of it happened (not a first touch) */
#define PC_F_PEND 2u  /* a fill is in flight */
#define PC_F_WEV 4u   /* a store removed it since its last fill */
#define PC_F_CANCEL 8u /* the fill in flight lands without inserting */
#define PC_F_DIRTY 16u /* written since its fill (stores=allocate): evicted, a write-back */

/* set_of/cap as stack_init's; ways the window; mset_of per line. */
int pc_init(pcache *pc, uint32_t nsets, const uint32_t *cap, uint32_t nlines,
	    const uint32_t *set_of, uint32_t ways, int repl, uint64_t seed, uint64_t stream,
	    int stores, int need_hist);
/* The shadow above: bank_of[l] each line's bank, cap[b] the updates of
 * bank b, ways the lines of a bank. -1: out of memory. */
int pc_shadow(pcache *pc, uint32_t nbanks, const uint32_t *cap, const uint32_t *bank_of,
	      uint32_t ways, int repl, uint64_t seed, uint64_t stream);
/* Record write-backs of written lines into wb (stores=allocate). -1: out
 * of memory. */
int pc_writebacks(pcache *pc, sim_counts *wb, uint32_t core);
/* MSHR sets: nmsets of mshrs entries (0: unlimited), merges per entry
 * (0: unlimited), mset_of[l] the set of line l. -1: out of memory. */
int pc_msets(pcache *pc, uint32_t nmsets, uint32_t mshrs, uint32_t max_merges,
	     const uint32_t *mset_of);
void pc_free(pcache *pc);
/* Land the fills due before step t, in MSHR order. -1: out of memory. */
int pc_fills(pcache *pc, uint64_t t, uint32_t core);
/* Try one request at step t: PC_HIT, PC_MISS (a new entry), PC_MERGE,
 * PC_RF (refused), or for a store under evict PC_EVICT / PC_PAST. Counts
 * go to pc->out; pc->d and pc->cls are the access's distance and class.
 * -1: out of memory. */
int pc_access(pcache *pc, uint32_t line, int store, uint64_t t);
/* The step at whose start the next fill lands (UINT64_MAX: none in
 * flight): a step in which no request was accepted changes nothing until
 * then, so the engines skip to it (counting the reservation fails of the
 * steps skipped, which repeat the last one's exactly). */
static inline uint64_t pc_next_fill(const pcache *pc)
{
	return pc->nheap ? pc->heap[0].done + 1 : UINT64_MAX;
}
/* Free entries of line's MSHR set (UINT32_MAX: unlimited). */
static inline uint32_t pc_free_entries(const pcache *pc, uint32_t line)
{
	return pc->mshrs ? pc->mshrs - pc->mset_used[pc->mset_of[line]] : UINT32_MAX;
}

/* ---- the L2 stage (l2.c): the cores' streams (c0->l2s) merged by step,
 * round-robin across cores within a step, to L2 lines, partitions, banks
 * and sets, through the L2's banks; results into out (its arrays owned).
 * cb: events (level 2) and cancel. */
typedef struct l2_cache l2_cache;
/* The merged stream kept between runs (the rd_model's, or NULL): reused
 * while the stream's serial (case 0's counts), l1.line and l2.line are the
 * same, so that an edit of the L2's other keys reruns the banks alone. */
/* dstream (or NULL): the requests leaving the L2 for DRAM appended (read
 * misses that take a new entry; stores under l2.stores=evict; write-backs
 * under allocate), L2 line addresses, in time order. */
int l2_run(const rd_config *c, const sim_counts *c0, uint64_t serial, uint32_t ncores,
	   const rd_callbacks *cb, l2_cache **cache, rd_level *out, sim_counts *dstream);
/* A one-time run's (rd_parts_finish's): the merged stream that l2_run
 * (or, without an L2 but with DRAM, l1_stream) will read built into
 * *cache, and c0's records or pack, which it was made of, freed (the
 * pack about 3 bytes a record, the stream about 9: syrk's 20 M at its
 * default size on 132 SMs). */
int l2_stream_take(const rd_config *c, sim_counts *c0, uint64_t serial, uint32_t ncores,
		   l2_cache **cache);
/* Without an L2: the L1s' merged stream (the L2's input: seed 001's L2
 * trace at l1.line granularity) appended to out, L1 line addresses. */
int l1_stream(const rd_config *c, const sim_counts *c0, uint64_t serial, uint32_t ncores,
	      l2_cache **cache, sim_counts *out);
/* The DRAM stage (dram.c) over n requests of line_bytes-byte lines; out's
 * amat is left NAN for the caller. */
int dram_run(const rd_config *c, const l2req *v, uint64_t n, uint32_t line_bytes,
	     const rd_callbacks *cb, rd_dram *out);
void l2_cache_free(l2_cache *k);
/* The bytes k's merged stream holds, and its requests through *n (tests:
 * about 9 a request). */
uint64_t l2_cache_bytes(const l2_cache *k, uint64_t *n);
int sim_ref2013(const sim_input *in, const sim_params *p, sim_counts *out);
/* co->lane_acc for the first nthreads threads of k, unless built: 0, or
 * -1 out of memory. Called before the cases start (they share it). */
int ref2013_lanes(rd_coal *co, const rd_kernel *k, uint32_t nthreads);
/* Report `delta` more requests issued; nonzero: stop (cancelled). Only the
 * caller's thread invokes the user's progress callback. */
int sim_progress(const sim_input *in, uint64_t delta);
/* Hand a snapshot of case 0 (in->acc plus the running core's `now`) to
 * the partial callback, if there is one. -1: out of memory. */
int sim_partial(const sim_input *in, const sim_counts *now);
/* Requests between progress reports: well under a millisecond of work, so a
 * stale run stops within milliseconds of being cancelled. */
#define SIM_CHUNK (1u << 12)

#endif
