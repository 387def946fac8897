/*
 * Stages 3-4 for the "paper" profile: the timed GPU reuse-distance model of
 * Nugteren et al., HPCA 2014, §§4.2-4.5 on one core.
 *
 * Time is event-driven. A core's step T pops at most one warp from a FIFO
 * of ready warps and issues its next warp instruction's requests in lane
 * order; each request's effect on the LRU stack of its set happens at
 * T + latency ("effect at"). Idle time is skipped: nothing is done per
 * time step per set, only per request and per due effect.
 *
 * Conventions fixed by the paper's worked examples (Tables 3-5):
 *  - a lookup at T sees the effects due before T; the effects due at T
 *    land after the step's issue, in issue order (Tables 3, 4) ...
 *  - ... except that a miss fill of the looked-up line itself that is due
 *    at T lands first: the data arrives as it is asked for (Table 5,
 *    time 2: a hit, with the MSHR already free);
 *  - a miss to a line that is still in flight is a latency miss; it merges
 *    into that line's MSHR entry and, with latency.clip, takes effect with
 *    it (section 4.2, last paragraphs);
 *  - a miss that finds no free MSHR entry (l1.mshrs per core,
 *    l1.mshr_per_warp per warp) is cancelled; the warp keeps what it did
 *    issue, goes to the back of the queue and retries the request later
 *    (section 4.4, Table 5);
 *  - with gpu.divergence a warp re-enters the queue max-latency steps after
 *    it issued (section 4.5); warps due at the same step enter in the
 *    order they issued. Without it the warp re-enters at once: plain
 *    round-robin, as in Tables 2-5.
 *  - blocks of a core start first-done-first-serve as slots free up.
 */
#include "internal.h"
#include "stack_ops.h"

#include <stdlib.h>
#include <string.h>

enum { EFF_HIT = 0, EFF_FILL = 1 };

#define WEV_MARK 0x80000000u
#define WEV_SEEN 0x40000000u /* a store took it out of the LRU stack: not a first touch */
#define WEV_CANCEL 0x3fffffffu

/* The per-step helpers are inlined into sim_paper_core, whose POPCNT clone
 * (HOT_CLONES) then covers the stack operations they inline in turn. */
#define STEP_INLINE static inline __attribute__((always_inline))

/*
 * How far ahead in the request array the plain loop prefetches. The
 * stream is known in advance: request r + PF_AHEAD is the same warp's,
 * PF_AHEAD requests on (or, past its end, another warp's), so it is looked
 * up at least that many requests later. Its line record is fetched
 * PF_AHEAD requests ahead; PF_NEAR ahead, with that record cached by
 * then, what its distance reads (stack_prefetch_distance). One request
 * ahead, within the instruction, hid nothing on a one-thread stream (one
 * request an instruction). bench/README.md (2026-11-28) has the figures:
 * case 0 of the random 64 MiB stream from about 180 to 45 ns an access.
 */
#ifndef PF_AHEAD
#define PF_AHEAD 16
#endif
#ifndef PF_NEAR
#define PF_NEAR 8
#endif

typedef struct effect {
	uint32_t line;
	uint8_t kind, done;
} effect;

typedef struct bucket {
	effect *v;
	uint32_t n, cap;
} bucket;

/* Warps due back at one time step, in the order they issued. */
typedef struct arrivals {
	uint32_t *v;
	uint32_t n, cap;
} arrivals;

/* A line's MSHR entry, apart from its stack record (stamp, set): a hit
 * reads 8 bytes a line, a miss also this. pend: fills still to land (the
 * engines' in-flight count); owner: the warp holding the entry; land: the
 * effect time of the entry's own fill, its low 32 bits (read only while
 * the fill is still to land, so less than 2^32 steps ahead). */
typedef struct line_fill {
	uint32_t pend, owner, land;
} line_fill;

/* A warp's progress: one record, so a pop touches one cache line. */
typedef struct warp_st {
	uint64_t req, req_end;     /* next request; end of the instruction's */
	uint64_t instr, instr_end; /* current instruction; end of the warp's */
	uint32_t held;             /* MSHR entries it holds (under warp_loads: its loads in
				    * flight, less one if the current one is among them) */
	uint32_t nloads, cslot;    /* warp_loads: loads with misses in flight; the
				    * current one's slot + 1, or 0 */
	uint32_t refused;          /* its line's stamp + 1 when refused, or 0 */
	uint32_t rline;            /* and that line */
	uint32_t rcomp;            /* and the stack's compactions then (stamps renumbered
				    * since: the stamp says nothing) */
} warp_st;

typedef struct core_state {
	const sim_input *in;
	const sim_params *p;
	/* the requests: in->co's, or (streaming, in->src) the windows of the
	 * warps' instructions read so far (win: its own arrays, in->co's
	 * lines), each warp's from its feed while it has one */
	const rd_coal *co;
	rd_coal win;
	uint64_t win_rcap, win_icap, win_next; /* rooms; compacted at win_next requests */
	uint32_t win_first;  /* blocks before it (this core's list) are done */
	coal_feed **feed;
	int feed_rc;         /* a feed's failure (RD_ENOMEM, RD_EINVAL): the run's */
	sim_counts *out;
	uint32_t core;
	rd_stack st;
	rd_stack fa;         /* sim_params.shadow: the fully associative shadow */
	rd_policy pol;       /* l1.replacement other than LRU: hit or miss (kind 0: LRU) */
	rd_policy fa_pol;    /* ... and the shadow's */
	sim_counts scratch;  /* under allocate, where a store's request counts as a load's
			      * would (warp_issue_as): its scalar counts only, never
			      * read (a store's are counted apart) */
	int mode;            /* warp_issue's copy: 0, 1 plain (as named there), 2 any */
	/* l1.stores=evict: per line, WEV_MARK while a store's eviction is
	 * its last removal (a load miss then is a write_evict miss), WEV_SEEN
	 * once a store took it out of the LRU stack (its stamp 0 then no
	 * longer means never filled), and in the low bits the fills in
	 * flight at that store, which land without inserting; NULL otherwise */
	uint32_t *wev;
	uint32_t *sskip;     /* ... per line, pending effects the LRU stack drops */
	uint32_t *hpend;     /* ... per line, hits' effects pending */
	int ext;             /* stores or bypassed loads: the general issue path */
	int shadow;
	int by_site;         /* sim_params.by_site */
	int emit;            /* sim_params.emit: record what leaves for the L2 */
	int emit_sect;       /* sim_params.emit_sect: with sectors (l2.sector) */
	/* emit under l1.stores=allocate: per line, written since its fill (a
	 * store hit or missed it); an eviction of a written line is a
	 * write-back to the L2 at the effect's step (now). NULL otherwise. */
	uint8_t *dirty;
	/* l1.sector: per line, the sectors present or in flight while it is
	 * in the cache or on its way (a line miss starts it afresh); the
	 * line-level engine is unchanged, sectors are counted beside it (a
	 * line hit lacking a sector counts as a sector miss) */
	uint8_t *sect;
	uint32_t ev_had;     /* the issuing request's line's sectors at its lookup (events) */
	uint64_t now;
	int wb_fail;         /* a write-back found no memory: the run fails */
	rd_rng rng;
	rd_halfnormal latdist;
	/* per line, beside st.ln (stamp, set): its MSHR entry (line_fill) */
	line_fill *fl;
	/* per warp (global ids) */
	warp_st *warps;
	/* per block */
	uint32_t *block_left;
	/* queues */
	uint32_t *fifo;
	uint64_t fhead, ftail, fmask; /* ring of fmask + 1 (a power of two) */
	/* gpu.scheduler_policy=gto: the ready warps are fifo[0 .. ftail -
	 * fhead) in no order (the counters as for the ring), gpos[w] the
	 * place of warp w there (UINT32_MAX: not ready); greedy the warp
	 * popped last */
	int gto;
	uint32_t *gpos;
	uint32_t greedy;
	/* Two timing wheels of wmask + 1 steps (more than any latency):
	 * effects due, and warps waiting for their latency (at most one
	 * enters per step, so each slot lists them in issue order). */
	bucket *wheel;
	arrivals *back;
	uint64_t wmask, pending, waiting;
	uint32_t used;       /* MSHR entries in use */
	uint64_t *stk;       /* event stacks (teaching views), or NULL */
	uint64_t *stk2;      /* ... a store's set after it */
	uint32_t next_block; /* index into this core's block list */
	uint64_t warps_alive;
	uint64_t issued;     /* requests issued, for progress */
	int events;          /* an event callback listens (case 0 only) */
	uint32_t mshr_cap, warp_cap; /* l1.mshrs, l1.mshr_per_warp; 0 -> no cap */
	int alloc_miss;      /* l1.allocate=miss: pol (POLICY_LRU for LRU) reserves ways */
	/* l1.mshr_per_warp_counts=loads: per warp warp_cap slots, each the
	 * entries in flight of one load; per line the slot of its entry */
	uint32_t *wslot;
	uint8_t *lslot;
	uint64_t version;    /* bumped by anything that can unblock a warp */
} core_state;

/*
 * The warp ring. A warp pushed now is popped a queue length later, so its
 * next request is fetched at the push; the line records are fetched as a
 * warp starts its latency wait (warp_issue) and request by request. (Also
 * fetching the line records of the warp a few pops ahead no longer paid
 * once refused warps skipped warp_issue: 10 M synthetic, 3 cases, 1.78 ->
 * 1.67 s without it, medians of 6 alternating runs; with divergence off
 * 2.10 -> 2.01 s.)
 */
STEP_INLINE void fifo_push(core_state *cs, uint32_t w)
{
	__builtin_prefetch(&cs->co->req[cs->warps[w].req]);
	if (__builtin_expect(cs->gto, 0)) {
		uint32_t n = (uint32_t)(cs->ftail++ - cs->fhead);
		cs->fifo[n] = w;
		cs->gpos[w] = n;
		return;
	}
	cs->fifo[cs->ftail++ & cs->fmask] = w;
}

/*
 * Greedy then oldest (GPGPU-Sim's -gpgpu_scheduler gto, its GTX 480
 * configuration's): the warp popped last again while it is ready, else
 * the oldest ready warp, the one with the lowest id (blocks start in id
 * order). A warp refused an MSHR is ready at once, so it is popped again
 * until it issues: other warps' loads wait behind it, as behind a load
 * stalled in an in-order memory pipeline.
 */
static uint32_t gto_pop(core_state *cs)
{
	uint32_t n = (uint32_t)(cs->ftail - cs->fhead++), i;
	if (cs->greedy != UINT32_MAX && cs->gpos[cs->greedy] != UINT32_MAX) {
		i = cs->gpos[cs->greedy];
	} else {
		i = 0;
		for (uint32_t j = 1; j < n; j++)
			if (cs->fifo[j] < cs->fifo[i])
				i = j;
	}
	uint32_t w = cs->fifo[i], last = cs->fifo[n - 1];
	cs->fifo[i] = last;
	cs->gpos[last] = i;
	cs->gpos[w] = UINT32_MAX;
	cs->greedy = w;
	return w;
}

STEP_INLINE uint32_t fifo_pop(core_state *cs)
{
	if (__builtin_expect(cs->gto, 0))
		return gto_pop(cs);
	return cs->fifo[cs->fhead++ & cs->fmask];
}

static int bucket_grow(bucket *b)
{
	effect *v = vec_grow(b->v, &b->cap, sizeof *v, 8);
	if (!v)
		return -1;
	b->v = v;
	return 0;
}

STEP_INLINE int effect_push(core_state *cs, uint64_t at, uint32_t line, uint8_t kind)
{
	bucket *b = &cs->wheel[at & cs->wmask];
	if (b->n == b->cap && bucket_grow(b) < 0)
		return -1;
	b->v[b->n++] = (effect){line, kind, 0};
	cs->pending++;
	return 0;
}

/* l1.mshr_per_warp_counts=loads: held is what mshr_full compares with the
 * cap: the loads in flight, less the current one's (never refused by it). */
static inline void load_held(warp_st *ws)
{
	ws->held = ws->cslot ? ws->nloads - 1 : ws->nloads;
}

/* A new MSHR entry of warp w's current load, for line l. */
static void load_slot_take(core_state *cs, uint32_t w, uint32_t l)
{
	warp_st *ws = &cs->warps[w];
	uint32_t *slot = cs->wslot + (size_t)w * cs->warp_cap;
	if (!ws->cslot) { /* (mshr_full said the warp has a free one) */
		uint32_t i = 0;
		while (slot[i])
			i++;
		ws->cslot = i + 1;
		ws->nloads++;
	}
	slot[ws->cslot - 1]++;
	cs->lslot[l] = (uint8_t)(ws->cslot - 1);
	load_held(ws);
}

/* Line l's entry, of warp w, is done. */
static void load_slot_done(core_state *cs, uint32_t w, uint32_t l)
{
	warp_st *ws = &cs->warps[w];
	uint32_t i = cs->lslot[l];
	if (--cs->wslot[(size_t)w * cs->warp_cap + i] == 0) {
		ws->nloads--;
		if (ws->cslot == i + 1)
			ws->cslot = 0;
		load_held(ws);
	}
}

static void land_emit(core_state *cs, const effect *e, int early);

/* exact: the case keeps exact distances; we: stores evict (cs->wev); ev:
 * events are logged (landings reported; early: before the lookup of its
 * line). Constants in each copy of the event loop; the window is always
 * kept. */
STEP_INLINE void effect_apply(core_state *cs, effect *e, const int exact, const int we,
			      const int ev, const int early)
{
	cs->version++;
	e->done = 1;
	cs->pending--;
	/* Write-evict (we): a store dropped the effects then pending of the
	 * line it removed, from the LRU stack (sskip: the histogram's, the
	 * same whatever the policy) and, under another policy, from the
	 * policy's ways (wev: a hit's effect finds the line gone, the fills
	 * in flight then land without inserting it). */
	int to_stack = 1, to_pol = 1;
	if (we) {
		uint32_t l = e->line, *wv = &cs->wev[l];
		if (e->kind == EFF_HIT)
			cs->hpend[l]--;
		if (cs->sskip[l]) {
			cs->sskip[l]--;
			to_stack = 0;
		}
		if (!cs->pol.kind) {
			to_pol = to_stack;
			if (to_stack && e->kind == EFF_FILL)
				*wv &= WEV_SEEN; /* filled again */
		} else if (*wv & ~WEV_SEEN) {
			if (e->kind == EFF_HIT || (*wv & WEV_CANCEL)) {
				if (e->kind == EFF_FILL)
					(*wv)--;
				to_pol = 0;
			} else {
				*wv &= WEV_SEEN; /* filled again */
			}
		}
	}
	if (to_stack)
		stack_update_as(&cs->st, e->line, exact, 1, we);
	if (cs->pol.kind && to_pol) {
		if (e->kind == EFF_HIT)
			policy_touch(&cs->pol, e->line);
		else if (!cs->alloc_miss) /* (allocated on miss: in its way already) */
			policy_fill(&cs->pol, e->line);
	}
	if (cs->dirty) { /* (stores=allocate with an L2 only) */
		/* (allocated on miss, the eviction and its write-back were at the
		 * reservation: a fill evicts nothing) */
		uint32_t v = cs->pol.kind ? (to_pol && e->kind == EFF_FILL && !cs->alloc_miss
						     ? cs->pol.evicted
						     : UINT32_MAX)
					  : (to_stack ? cs->st.evicted : UINT32_MAX);
		if (v != UINT32_MAX && cs->dirty[v]) {
			cs->dirty[v] = 0;
			if (l2s_add(cs->out, cs->now, cs->co->line_addr[v], cs->core, 1) < 0)
				cs->wb_fail = 1;
		}
	}
	/* The per-access shadow takes the same effects at the same times (and
	 * drops those the cache drops): a fully associative cache of the same
	 * capacity and timing (so a one-set cache, which is one, has no
	 * associativity misses). */
	if (cs->shadow) {
		if (!cs->fa_pol.kind) {
			if (to_stack)
				stack_update_as(&cs->fa, e->line, 0, 1, we);
		} else if (to_pol) {
			if (e->kind == EFF_FILL)
				policy_fill(&cs->fa_pol, e->line);
			else
				policy_touch(&cs->fa_pol, e->line);
		}
	}
	line_fill *f = &cs->fl[e->line];
	if (e->kind == EFF_FILL && --f->pend == 0) {
		cs->used--;
		if (cs->alloc_miss)
			policy_unreserve(&cs->pol, e->line);
		if (cs->wslot)
			load_slot_done(cs, f->owner, e->line);
		else
			cs->warps[f->owner].held--;
	}
	if (ev)
		land_emit(cs, e, early);
}

STEP_INLINE void effects_due(core_state *cs, uint64_t t, const int exact, const int we,
			     const int ev)
{
	bucket *b = &cs->wheel[t & cs->wmask];
	cs->now = t;
	for (uint32_t i = 0; i < b->n; i++)
		if (!b->v[i].done)
			effect_apply(cs, &b->v[i], exact, we, ev, 0);
	b->n = 0;
}

/* The looked-up line's own fills due now land before the lookup. */
STEP_INLINE void effects_land_line(core_state *cs, uint64_t t, uint32_t line, const int exact,
				   const int we, const int ev)
{
	bucket *b = &cs->wheel[t & cs->wmask];
	cs->now = t;
	for (uint32_t i = 0; i < b->n; i++)
		if (!b->v[i].done && b->v[i].line == line && b->v[i].kind == EFF_FILL)
			effect_apply(cs, &b->v[i], exact, we, ev, 1);
}

/* ---------------------------------------------------------------- streaming */

/* Instructions a warp's window takes; requests below which the windows
 * are not compacted. */
#define WIN_INSTR 64
#define WIN_MIN 1024u

/* The windows of the warps still running moved to fresh arrays, in
 * order, their other instructions dropped: the live warps are those of
 * blocks not done, from the first such on (a warp done or not yet started
 * has an empty window; a block being started counts as not done). */
static int win_compact(core_state *cs)
{
	const rd_sched *s = cs->in->s;
	rd_coal *o = &cs->win;
	uint32_t first = s->core_first[cs->core];
	uint64_t ni = 0, nr = 0;
	rd_req *req = NULL;
	uint64_t *irf = NULL;
	for (int pass = 0; pass < 2; pass++) {
		if (pass) {
			req = malloc((nr ? nr : 1) * sizeof *req);
			irf = malloc((ni + 1) * sizeof *irf);
			if (!req || !irf) {
				free(req);
				free(irf);
				return -1;
			}
			ni = nr = 0;
		}
		while (cs->win_first < cs->next_block &&
		       !cs->block_left[s->core_blocks[first + cs->win_first]])
			cs->win_first++;
		for (uint32_t i = cs->win_first; i < cs->next_block; i++) {
			uint32_t b = s->core_blocks[first + i];
			if (!cs->block_left[b])
				continue;
			for (uint32_t j = 0; j < s->warps_per_block; j++) {
				warp_st *ws = &cs->warps[b * s->warps_per_block + j];
				uint64_t n = ws->instr_end - ws->instr;
				if (!n)
					continue;
				uint64_t r0 = o->instr_req_first[ws->instr];
				uint64_t m = o->instr_req_first[ws->instr_end] - r0;
				if (pass) {
					for (uint64_t k = 0; k < n; k++)
						irf[ni + k] = nr + (o->instr_req_first[ws->instr + k] - r0);
					memcpy(req + nr, o->req + r0, m * sizeof *req);
					ws->req = nr + (ws->req - r0);
					ws->req_end = nr + (ws->req_end - r0);
					ws->instr = ni;
					ws->instr_end = ni + n;
				}
				ni += n;
				nr += m;
			}
		}
	}
	irf[ni] = nr;
	free(o->req);
	free(o->instr_req_first);
	o->req = req;
	o->instr_req_first = irf;
	o->ninstr = ni;
	o->nreq = nr;
	cs->win_rcap = nr ? nr : 1;
	cs->win_icap = ni + 1;
	cs->win_next = 4 * nr > WIN_MIN ? 4 * nr : WIN_MIN;
	return 0;
}

/* Warp w's next window from its feed: 1 (its instructions set), 0 the
 * warp has no more (its feed freed), -1 failed (feed_rc). */
static int warp_refill(core_state *cs, uint32_t w)
{
	coal_feed *f = cs->feed[w];
	if (!f)
		return 0;
	if (cs->win.nreq >= cs->win_next && win_compact(cs) < 0) {
		cs->feed_rc = RD_ENOMEM;
		return -1;
	}
	uint64_t a = cs->win.ninstr;
	int64_t n = coal_feed_more(f, &cs->win, &cs->win_rcap, &cs->win_icap, cs->in->map, NULL,
				   WIN_INSTR);
	if (n <= 0) {
		coal_feed_free(f);
		cs->feed[w] = NULL;
		if (n < 0 && !cs->feed_rc)
			cs->feed_rc = (int)-n;
		return n < 0 ? -1 : 0;
	}
	warp_st *ws = &cs->warps[w];
	ws->instr = a;
	ws->instr_end = a + (uint64_t)n;
	ws->req = cs->win.instr_req_first[a];
	ws->req_end = cs->win.instr_req_first[a + 1];
	return 1;
}

/* Warp w's feed opened and its first window read (warp_refill's
 * answer; failing to open: -1, feed_rc). */
static int warp_open(core_state *cs, uint32_t w)
{
	const rd_sched *s = cs->in->s;
	const sim_input *in = cs->in;
	cs->feed[w] = coal_feed_new(in->src, s->warp_t0[w], s->warp_nt[w], s->warp_size,
				    in->feed_line, in->feed_sector, in->feed_stores);
	if (!cs->feed[w]) {
		if (!cs->feed_rc)
			cs->feed_rc = RD_EINVAL;
		return -1;
	}
	return warp_refill(cs, w);
}

/* Start this core's next block(s): called at start and when one finishes. */
static void block_dispatch(core_state *cs)
{
	const rd_sched *s = cs->in->s;
	const rd_coal *co = cs->co;
	uint32_t first = s->core_first[cs->core], n = s->core_first[cs->core + 1] - first;
	while (cs->next_block < n) {
		uint32_t b = s->core_blocks[first + cs->next_block++];
		uint32_t live = 0;
		cs->block_left[b] = UINT32_MAX; /* (starting: its windows are live) */
		for (uint32_t j = 0; j < s->warps_per_block; j++) {
			uint32_t w = b * s->warps_per_block + j;
			warp_st *ws = &cs->warps[w];
			if (!s->warp_nt[w])
				continue; /* no thread: nothing to schedule */
			if (cs->feed) {
				if (warp_open(cs, w) <= 0)
					continue; /* no load (or failed: feed_rc) */
			} else {
				if (co->warp_instr_first[w] == co->warp_instr_first[w + 1])
					continue; /* no load */
				ws->instr = co->warp_instr_first[w];
				ws->instr_end = co->warp_instr_first[w + 1];
				ws->req = coal_req_first(co, ws->instr);
				ws->req_end = coal_req_first(co, ws->instr + 1);
			}
			ws->held = ws->refused = ws->nloads = ws->cslot = 0;
			fifo_push(cs, w);
			live++;
		}
		cs->block_left[b] = live;
		cs->warps_alive += live;
		if (live)
			return;
	}
}

static void warp_retire(core_state *cs, uint32_t w)
{
	uint32_t b = w / cs->in->s->warps_per_block;
	cs->warps_alive--;
	if (--cs->block_left[b] == 0)
		block_dispatch(cs);
}

/* Has warp w issued its last instruction? (Streaming: once its window's
 * last, only if its feed has no more.) */
STEP_INLINE int warp_exhausted(core_state *cs, uint32_t w)
{
	if (cs->warps[w].instr != cs->warps[w].instr_end)
		return 0;
	return !cs->feed || warp_refill(cs, w) <= 0;
}

/* The set's top entries into out (event stacks). */
static uint32_t set_list(const core_state *cs, uint32_t set, uint64_t *out)
{
	return stack_top(&cs->st, set, cs->co->line_addr, out, stack_depth(cs->in->cb));
}

/* An effect landed (effect_apply, with events): the landing callback. */
static void land_emit(core_state *cs, const effect *e, int early)
{
	const rd_callbacks *cb = cs->in->cb;
	if (!cb->land)
		return;
	uint32_t set = cs->st.ln[e->line].set;
	rd_landing l = {
		.time = cs->now,
		.core = cs->core,
		.set = cs->p->set_ids ? cs->p->set_ids[set] : set,
		.line = cs->co->line_addr[e->line],
		.fill = e->kind == EFF_FILL,
		.early = early,
	};
	if (cs->stk)
		l.stack_len = set_list(cs, set, cs->stk);
	l.stack = cs->stk;
	cb->land(cb->ctx, &l);
}

/* Request r's event. used0: the MSHR entries in use at its lookup.
 * listed: -1, or (a store that changed its set) the entries cs->stk
 * holds, the set as the store found it: its set now is the event's
 * after. */
static void event_emit(core_state *cs, uint64_t T, uint32_t w, uint64_t r, uint32_t set,
		       int64_t d, enum rd_outcome o, int cls, uint32_t lat, uint64_t eff,
		       uint32_t used0, int32_t listed)
{
	const rd_kernel *k = cs->in->k;
	const rd_sched *s = cs->in->s;
	const rd_coal *co = cs->co;
	const rd_req *rq = &co->req[r];
	uint64_t instr = cs->warps[w].instr - co->warp_instr_first[w];
	uint64_t addr = !co->req_acc ? k->addr[k->thread_first[coal_req_thread(s, w, rq)] + instr]
		      : rq->store  ? k->store_addr[co->req_acc[r]]
				   : k->addr[co->req_acc[r]];
	rd_event ev = {
		.time = T,
		.core = cs->core,
		.block = sched_block_id(s, w / s->warps_per_block),
		.warp = sched_warp_id(s, w),
		.thread = coal_req_thread(s, w, rq),
		.nthreads = rq->nthr,
		.instr = (uint32_t)instr,
		.store = rq->store,
		.addr = addr,
		.line = co->line_addr[rq->line],
		.set = cs->p->set_ids ? cs->p->set_ids[set] : set,
		.distance = d,
		.outcome = o,
		.cls = cls,
		.latency = lat,
		.effect_at = eff,
		.mshrs_used = cs->used,
		.level = 1,
		.mshrs_free = cs->mshr_cap ? cs->mshr_cap - cs->used : UINT32_MAX,
		.mshrs_before = used0,
	};
	if (cs->sect && o != RD_OUT_CANCEL && !rq->store) { /* (loads' sectors) */
		ev.sect_ask = rq->sect;
		ev.sect_had = cs->ev_had;
	}
	if (cs->stk) {
		ev.stack = cs->stk;
		ev.stack_len = listed >= 0 ? (uint32_t)listed : set_list(cs, set, cs->stk);
		ev.after = cs->stk;
		ev.after_len = ev.stack_len;
		if (listed >= 0) {
			ev.after = cs->stk2;
			ev.after_len = set_list(cs, set, cs->stk2);
		}
	}
	cs->in->cb->event(cs->in->cb->ctx, &ev);
}

/* Warp w waits until step `at` (within the wheel's reach). */
STEP_INLINE int warp_wait(core_state *cs, uint64_t at, uint32_t w)
{
	arrivals *a = &cs->back[at & cs->wmask];
	if (a->n == a->cap) {
		uint32_t *v = vec_grow(a->v, &a->cap, sizeof *v, 4);
		if (!v)
			return -1;
		a->v = v;
	}
	a->v[a->n++] = w;
	cs->waiting++;
	return 0;
}

/* The warps due at T rejoin the queue (or retire), in issue order. */
STEP_INLINE void warps_arrive(core_state *cs, uint64_t T)
{
	arrivals *a = &cs->back[T & cs->wmask];
	for (uint32_t i = 0; i < a->n; i++) {
		uint32_t w = a->v[i];
		cs->version++;
		if (warp_exhausted(cs, w))
			warp_retire(cs, w);
		else
			fifo_push(cs, w);
	}
	cs->waiting -= a->n;
	a->n = 0;
}

/* The next step at or after T when a waiting warp is due; UINT64_MAX if
 * none waits. (Only when idle or skipping: a scan of the wheel.) */
static uint64_t next_arrival(const core_state *cs, uint64_t T)
{
	if (!cs->waiting)
		return UINT64_MAX;
	while (!cs->back[T & cs->wmask].n)
		T++;
	return T;
}

/* Would a miss of warp w find no MSHR entry free (per core or per warp)? */
STEP_INLINE int mshr_full(const core_state *cs, const warp_st *ws)
{
	/* both tests, one branch for the caller */
	return (cs->used >= cs->mshr_cap) | (ws->held >= cs->warp_cap);
}

/*
 * A refused request stays a miss needing a new entry while its line is
 * neither updated nor in flight (its distance only grows). If the warp
 * would still find no MSHR entry, popping it only costs a step: the loop
 * answers that from the warp's and the line's records, without the
 * request or warp_issue (half the pops of an MSHR-bound kernel).
 */
STEP_INLINE int still_refused(const core_state *cs, const warp_st *ws)
{
	if (!ws->refused || !mshr_full(cs, ws))
		return 0;
	return ws->refused == cs->st.ln[ws->rline].stamp + 1 && !cs->fl[ws->rline].pend &&
	       ws->rcomp == (uint32_t)cs->st.compactions;
}

/*
 * A store request under l1.stores=evict (request r of warp w, at T): it
 * goes past the L1 and takes no MSHR. If its line is there (by the
 * policy's say), the line is removed, leaving its way empty; if the line
 * is in flight, the fills in flight land without inserting it. Either way
 * the line's next load miss is a write_evict miss. The LRU stack the
 * histogram reads loses the line if an LRU cache would have held it
 * (whatever the policy: the histogram is LRU's), and so does the
 * per-access shadow. The event shows the set as the store found it.
 */
static int store_evict(core_state *cs, uint32_t w, uint64_t T, uint64_t r, const int events,
		       const int need_hist, const int shadow, const int pol)
{
	const rd_req *rq = &cs->co->req[r];
	uint32_t l = rq->line;
	rd_line *ln = &cs->st.ln[l];
	sim_counts *out = cs->out;
	/* (A store needs no data: unlike a load's, its line's fill due now
	 * does not land first; it is in flight, and cancelled.) */
	int in_stack = stack_hit_inline(&cs->st, l);
	int hit = pol ? policy_has(&cs->pol, l) : in_stack;
	int64_t d = need_hist ? stack_distance_inline(&cs->st, l) : hit - 1;
	/* The LRU stack's view: the line in its ways, or effects of it
	 * pending (a hit's or a fill's); the policy's: in its ways, or in
	 * flight. Under LRU the two are one. */
	uint32_t pend = cs->fl[l].pend, pending = pend + cs->hpend[l];
	int stack_evicts = in_stack || pending;
	int evicts = pol ? hit || pend : stack_evicts;
	enum rd_outcome o = evicts ? RD_OUT_EVICT : RD_OUT_BYPASS;
	/* (the event, after the removal, shows the set as the store found
	 * it, and after it) */
	int32_t listed = events && cs->stk ? (int32_t)set_list(cs, ln->set, cs->stk) : -1;
	if (in_stack) {
		if (stack_evict(&cs->st, l) < 0)
			return -1;
		cs->wev[l] |= WEV_SEEN;
	}
	if (stack_evicts)
		cs->sskip[l] = pending;
	if (evicts) {
		if (pol)
			policy_evict(&cs->pol, l);
		out->store_hits += hit;
		out->store_evictions++;
		cs->wev[l] = (cs->wev[l] & WEV_SEEN) | WEV_MARK | (pend & WEV_CANCEL);
		cs->version++;
	}
	if (shadow) {
		if (cs->fa_pol.kind)
			policy_evict(&cs->fa_pol, l);
		else if (stack_hit_inline(&cs->fa, l) && stack_evict(&cs->fa, l) < 0)
			return -1;
	}
	if (events)
		event_emit(cs, T, w, r, ln->set, d, o, -1, 0, T, cs->used, listed);
	out->store_requests++;
	if (need_hist && hist_w_add(out, d) < 0)
		return -1;
	if (cs->emit && l2s_add_sect(out, T, cs->co->line_addr[l], cs->core, 1,
				     cs->emit_sect ? rq->sect : 0) < 0)
		return -1;
	cs->issued++;
	return 0;
}

/* Issue warp w's current instruction at T. Returns -1 on no memory, 1 if
 * the warp was refused an MSHR before issuing anything, else 0. events,
 * need_hist, per_set: the case's cs->events, p->need_hist and
 * out->nsets != 0, constants in the copies warp_issue makes. */
STEP_INLINE int warp_issue_as(core_state *cs, uint32_t w, uint64_t T, const int events,
				const int need_hist, const int per_set, const int shadow,
				const int by_site, const int pol, const int ext)
{
	const rd_coal *co = cs->co;
	const sim_params *p = cs->p;
	sim_counts *const counts = cs->out;
	warp_st *ws = &cs->warps[w];
	rd_line *const lines = cs->st.ln;
	/* the request index lives in a register; ws->req is written back */
	const uint64_t end = ws->req_end, first_req = ws->req;
	uint64_t r = first_req;
	uint32_t maxlat = 0;
	int cancelled = 0;
	ws->refused = 0; /* retried in full: still_refused said no, or events are logged */
	/* The instruction's distances read the bitmap words at its lines'
	 * stamps (their line records were fetched as the warp was queued):
	 * asked for together, their cache misses overlap. */
	if (need_hist)
		for (uint64_t q = r; q < end; q++)
			stack_prefetch_distance(&cs->st, co->req[q].line);
	for (; r < end; r++) {
		const rd_req *rq = &co->req[r];
		/* Large traces' line records miss in every cache; start fetching
		 * those of the request PF_AHEAD on (and its MSHR entry, which a
		 * miss reads) while this one is worked on. */
		if (r + PF_AHEAD < co->nreq) {
			__builtin_prefetch(&lines[rq[PF_AHEAD].line]);
			__builtin_prefetch(&cs->fl[rq[PF_AHEAD].line]);
		}
		uint32_t l = rq->line;
		rd_line *ln = &lines[l];
		uint32_t set = ln->set;
		/* A store under allocate is counted apart (its hits and misses
		 * are not the loads'): what the load's path counts goes to a
		 * scratch record that nothing reads, its own counts below. */
		sim_counts *out = counts;
		if (ext && rq->store) {
			if (cs->wev) {
				if (store_evict(cs, w, T, r, events, need_hist, shadow, pol) < 0)
					return -1;
				continue;
			}
			out = &cs->scratch;
		}
		/* Hit or miss comes from the set's window in O(1), in every
		 * case; the exact distance (case 0) only feeds the histogram
		 * and the log, below. */
		int hit = pol ? policy_ready(&cs->pol, l) : stack_hit_inline(&cs->st, l);
		/* A load's line whose fill is due now lands first (the data
		 * arrives as it is asked for); a store's does not: it merges
		 * into the fill in flight, as a load after it would, so the LRU
		 * stack sees the same effects in the same order whatever the
		 * policy (whether the fill is due depends on the policy's hit). */
		line_fill *f = &cs->fl[l];
		if (!hit && f->pend && !(ext && rq->store)) {
			effects_land_line(cs, T, l, need_hist, ext && cs->wev, events);
			hit = pol ? policy_ready(&cs->pol, l) : stack_hit_inline(&cs->st, l);
		}
		const uint32_t used0 = cs->used; /* (the event's: dead without events) */
		uint32_t lat;
		uint64_t eff;
		int cls = -1;
		enum rd_outcome o = RD_OUT_MISS;
		/* The shadow is asked before the MSHR check (a refused request is
		 * asked again when it retries); effect_apply feeds it. */
		int fa_hit = shadow && (cs->fa_pol.kind ? policy_has(&cs->fa_pol, l)
							: stack_hit_inline(&cs->fa, l));
		if (hit) {
			o = RD_OUT_HIT;
			lat = p->lat_hit;
			eff = T + lat;
			if (effect_push(cs, eff, l, EFF_HIT) < 0)
				return -1;
			if (ext && cs->wev)
				cs->hpend[l]++;
			out->hits++;
		} else if (f->pend) {
			/* In flight: merge into its MSHR entry (a latency miss). */
			cls = RD_CLASS_LATENCY;
			if (p->clip) {
				eff = T + (uint32_t)(f->land - (uint32_t)T);
			} else {
				eff = T + p->lat_miss + halfnormal_draw(&cs->latdist, &cs->rng);
			}
			lat = (uint32_t)(eff - T);
			if (effect_push(cs, eff, l, EFF_FILL) < 0)
				return -1;
			f->pend++;
			out->misses++;
			out->latency++;
		} else if (ext && p->bypass) {
			/* past the L1: no lookup, no MSHR, the data after a miss's
			 * latency (loads only: stores=allocate is refused) */
			cls = RD_CLASS_BYPASS;
			lat = p->lat_miss + halfnormal_draw(&cs->latdist, &cs->rng);
			eff = T + lat;
			out->misses++;
			out->bypass++;
			if (cs->emit && l2s_add_sect(counts, T, co->line_addr[l], cs->core, 0,
						     cs->emit_sect ? rq->sect : 0) < 0)
				return -1;
		} else if (mshr_full(cs, ws) || (pol && cs->alloc_miss && !policy_can_reserve(&cs->pol, l))) {
			/* no MSHR entry, or (allocating on miss) every way of
			 * the set reserved: refused, retried later */
			counts->cancels++;
			cancelled = 1;
			ws->refused = ln->stamp + 1;
			ws->rline = l;
			ws->rcomp = (uint32_t)cs->st.compactions;
			if (events)
				event_emit(cs, T, w, r, set,
					   need_hist ? stack_distance_inline(&cs->st, l) : -1,
					   RD_OUT_CANCEL, -1, 0, 0, used0, -1);
			break;
		} else {
			lat = p->lat_miss + halfnormal_draw(&cs->latdist, &cs->rng);
			eff = T + lat;
			if (effect_push(cs, eff, l, EFF_FILL) < 0)
				return -1;
			cs->used++;
			if (cs->wslot)
				load_slot_take(cs, w, l);
			else
				ws->held++;
			if (pol && cs->alloc_miss) {
				policy_reserve(&cs->pol, l);
				uint32_t v = cs->pol.evicted;
				if (cs->dirty && v != UINT32_MAX && cs->dirty[v]) {
					cs->dirty[v] = 0;
					if (l2s_add(counts, T, co->line_addr[v], cs->core, 1) < 0)
						return -1;
				}
			}
			/* requested before iff it has landed once (nothing in flight
			 * here): the first request of a line is compulsory */
			int first = ln->stamp == 0 && !(ext && cs->wev && (cs->wev[l] & WEV_SEEN));
			f->owner = w;
			f->pend = 1;
			f->land = (uint32_t)eff;
			out->misses++;
			/* a new entry: the line is asked of the L2 (a store's miss
			 * under allocate fetches its line: a read), its sectors
			 * under l2.sector */
			if (cs->emit && l2s_add_sect(counts, T, co->line_addr[l], cs->core, 0,
						     cs->emit_sect ? rq->sect : 0) < 0)
				return -1;
			if (ext && cs->wev && (cs->wev[l] & WEV_MARK)) {
				/* its last removal was a store's (not a first touch) */
				out->write_evict++;
				cls = RD_CLASS_WRITE_EVICT;
			} else if (first) {
				out->compulsory++;
				cls = RD_CLASS_COMPULSORY;
			} else if (fa_hit) {
				/* a fully associative cache of the same capacity would hit */
				out->assoc_access++;
				cls = RD_CLASS_ASSOCIATIVITY;
			} else {
				cls = RD_CLASS_CAPACITY;
			}
		}
		if (ext && cs->sect) {
			/* The line's sectors: those of a hit or of a line in
			 * flight are there or coming; a new miss brings only
			 * the ones asked for; a bypassed load brings none. A
			 * load's sectors are looked up one by one (as Nsight
			 * Compute counts them); a store's take their place. */
			uint32_t had = o == RD_OUT_HIT || cls == RD_CLASS_LATENCY ? cs->sect[l] : 0;
			cs->ev_had = had;
			if (!rq->store) {
				out->sect_lookups += (uint64_t)__builtin_popcount(rq->sect);
				out->sect_hits += (uint64_t)__builtin_popcount(rq->sect & had);
				/* l2.sector: the sectors a present line lacks are
				 * asked of the L2 (a line miss asked for its own) */
				uint32_t lack = rq->sect & ~had;
				/* A line hit lacking a sector is a sector miss: a
				 * miss of its own class in the counts, a hit to
				 * the line-level engine (its time and effect). */
				if (lack && o == RD_OUT_HIT) {
					out->hits--;
					out->misses++;
					out->sector++;
					cls = RD_CLASS_SECTOR;
				}
				if (cs->emit_sect && lack && (o == RD_OUT_HIT || cls == RD_CLASS_LATENCY) &&
				    l2s_add_sect(counts, T, co->line_addr[l], cs->core, 0, lack) < 0)
					return -1;
			}
			if (cls != RD_CLASS_BYPASS)
				cs->sect[l] = (uint8_t)(had | rq->sect);
		}
		/* without a histogram only hit or miss is known: 0 or -1 */
		int64_t d = need_hist ? stack_distance_inline(&cs->st, l) : hit - 1;
		if (ext && rq->store) { /* stores=allocate: counted apart */
			if (cs->dirty)
				cs->dirty[l] = 1;
			counts->store_requests++;
			counts->store_hits += o == RD_OUT_HIT;
			/* (the scratch is not reset: 300 bytes a store were a
			 * third of corr_kernel's time in this loop) */
			if (need_hist && hist_w_add(counts, d) < 0)
				return -1;
			goto tail;
		}
		out->requests++;
		if (per_set) {
			out->set_requests[set]++;
			out->set_misses[set] += o == RD_OUT_MISS || cls == RD_CLASS_SECTOR;
		}
		if (need_hist && hist_add(out, d) < 0)
			return -1;
		if (by_site) {
			const rd_kernel *k = cs->in->k;
			uint64_t i = ws->instr - co->warp_instr_first[w];
			uint64_t t0 = k->thread_first[coal_req_thread(cs->in->s, w, rq)];
			uint64_t a = t0 + i;
			if (ext && co->req_acc) { /* instructions count stores too */
				a = co->req_acc[r];
				i = a - t0;
			}
			uint32_t st = site_of(k, a, i);
			site_counts *sc = &out->site[st];
			sc->requests++;
			int smiss = cls == RD_CLASS_SECTOR; /* (outcome: a hit) */
			sc->hits += o == RD_OUT_HIT && !smiss;
			sc->misses += o == RD_OUT_MISS || smiss;
			sc->compulsory += cls == RD_CLASS_COMPULSORY;
			sc->latency += cls == RD_CLASS_LATENCY;
			sc->assoc_access += cls == RD_CLASS_ASSOCIATIVITY;
			sc->write_evict += cls == RD_CLASS_WRITE_EVICT;
			sc->bypass += cls == RD_CLASS_BYPASS;
			sc->sector += smiss;
			if (need_hist)
				out->site_hist[(size_t)st * (RD_SITE_BINS + 1) +
					       (d < 0 ? RD_SITE_BINS : (size_t)site_bin(d))]++;
		}
	tail:
		if (lat > maxlat)
			maxlat = lat;
		if (events)
			event_emit(cs, T, w, r, set, d, o, cls, lat, eff, used0, -1);
		cs->issued++;
	}
	ws->req = r;
	int refused = cancelled && maxlat == 0 && r == first_req;
	if (!refused)
		cs->version++;
	if (!cancelled && ++ws->instr != ws->instr_end)
		ws->req_end = coal_req_first(co, ws->instr + 1); /* ws->req is its start */
	if (!cancelled && cs->wslot && ws->cslot) { /* the next load is a new one */
		ws->cslot = 0;
		load_held(ws);
	}
	uint64_t back = T + (p->divergence && !cancelled ? maxlat : 0);
	/* Whether it waits its latency or a queue length, it is time enough
	 * to fetch the line records of its next requests (ws->req is the
	 * first); a warp refused outright has them fetched already. (Before,
	 * only waiting warps were; without divergence, where none wait: 10 M
	 * synthetic, 3 cases, 2.35 -> 1.84 s, medians of 4 alternating runs.) */
	if (!refused)
		for (uint64_t q = ws->req, e = q + 8 < ws->req_end ? q + 8 : ws->req_end; q < e; q++)
			__builtin_prefetch(&lines[co->req[q].line]);
	if (back == T) {
		if (warp_exhausted(cs, w))
			warp_retire(cs, w);
		else
			fifo_push(cs, w);
		return refused;
	}
	return warp_wait(cs, back, w);
}

/* The flags fixed per case, as constants: the helper cases' and case 0's
 * usual copies test none of them per request (any other mix: the last).
 * exact is the loop's constant: a case keeps exact stacks iff it wants
 * the histogram (core_init). */
STEP_INLINE int warp_issue(core_state *cs, uint32_t w, uint64_t T, const int exact)
{
	if (!exact && cs->mode == 0)
		return warp_issue_as(cs, w, T, 0, 0, 0, 0, 0, 0, 0);
	if (exact && cs->mode == 1)
		return warp_issue_as(cs, w, T, 0, 1, 1, 0, 0, 0, 0);
	/* stores and bypassed loads apart: the other policies test no store
	 * flag per request */
	if (!cs->ext)
		return warp_issue_as(cs, w, T, cs->events, exact, cs->out->nsets != 0, cs->shadow,
				     cs->by_site, cs->pol.kind != 0, 0);
	return warp_issue_as(cs, w, T, cs->events, exact, cs->out->nsets != 0, cs->shadow,
			     cs->by_site, cs->pol.kind != 0, 1);
}

static void core_free(core_state *cs)
{
	for (uint32_t w = 0; cs->feed && w < cs->in->s->nwarps; w++)
		coal_feed_free(cs->feed[w]);
	free(cs->feed);
	free(cs->win.req);
	free(cs->win.instr_req_first);
	stack_free(&cs->st);
	stack_free(&cs->fa);
	policy_free(&cs->pol);
	policy_free(&cs->fa_pol);
	halfnormal_free(&cs->latdist);
	free(cs->fl);
	free(cs->wslot);
	free(cs->lslot);
	free(cs->wev);
	free(cs->sskip);
	free(cs->hpend);
	free(cs->dirty);
	free(cs->sect);
	free(cs->stk);
	free(cs->stk2);
	free(cs->warps);
	free(cs->block_left);
	free(cs->fifo);
	free(cs->gpos);
	for (uint64_t i = 0; cs->wheel && i <= cs->wmask; i++)
		free(cs->wheel[i].v);
	for (uint64_t i = 0; cs->back && i <= cs->wmask; i++)
		free(cs->back[i].v);
	free(cs->wheel);
	free(cs->back);
}

static int core_init(core_state *cs)
{
	const rd_sched *s = cs->in->s;
	const sim_params *p = cs->p;
	uint32_t nl = cs->in->co->nlines ? cs->in->co->nlines : 1;
	cs->co = cs->in->co;
	if (cs->in->src) {
		cs->win.line_addr = cs->in->co->line_addr; /* (not its own) */
		cs->win.nlines = cs->in->co->nlines;
		cs->win_next = WIN_MIN;
		cs->co = &cs->win;
		if (!(cs->feed = calloc(s->nwarps ? s->nwarps : 1, sizeof *cs->feed)))
			return -1;
	}
	uint64_t nwarps_core = (uint64_t)(s->core_first[cs->core + 1] - s->core_first[cs->core]) *
			       s->warps_per_block;
	if (stack_init(&cs->st, p->nsets, p->set_cap + (size_t)cs->core * p->nsets, nl, p->set_of,
		       p->ways, p->need_hist))
		return -1;
	cs->shadow = p->shadow;
	cs->by_site = p->by_site;
	cs->emit = p->emit;
	cs->emit_sect = p->emit && p->emit_sect && p->sector;
	if (p->emit && p->stores == RD_STORES_ALLOCATE) {
		cs->dirty = calloc(nl ? nl : 1, 1);
		if (!cs->dirty || stack_who(&cs->st) < 0)
			return -1;
	}
	/* each core and case draws its random victims from a stream of its
	 * own, apart from the latencies' (rng below); the per-access shadow
	 * draws the same stream, so that a one-set cache, which is its own
	 * fully associative cache, has no associativity misses under random
	 * either (with more sets the two draw at different times) */
	uint64_t stream = 0x7265706c0000ull + (uint64_t)cs->core * 16 + (uint64_t)p->case_id * 2;
	/* allocation on miss keeps LRU in ways too (POLICY_LRU) */
	int kind = p->repl == RD_REPL_LRU && p->alloc_miss ? POLICY_LRU : p->repl;
	if (kind != RD_REPL_LRU &&
	    policy_init(&cs->pol, kind, p->nsets, p->ways, nl, p->set_of, p->seed, stream))
		return -1;
	/* the per-access shadow allocates on fill: its LRU is a stack */
	if (p->repl != RD_REPL_LRU && p->shadow &&
	    policy_init(&cs->fa_pol, p->repl, 1, p->sets * p->ways, nl, p->shadow_set_of, p->seed,
			stream))
		return -1;
	if (p->by_site && counts_sites(cs->out, p->nsites, p->need_hist) < 0)
		return -1;
	if (p->shadow && stack_init(&cs->fa, 1, p->shadow_cap + cs->core, nl, p->shadow_set_of,
				    p->sets * p->ways, 0))
		return -1;
	/* (sectors are counted on the general issue path too) */
	cs->ext = (p->stores != RD_STORES_IGNORE && (cs->co->req_acc || (cs->in->k->part_block && cs->in->k->nstores))) || p->bypass || p->sector;
	if (p->sector && !(cs->sect = calloc(nl, 1)))
		return -1;
	if (p->stores == RD_STORES_EVICT) {
		if (stack_holes(&cs->st) < 0 || (cs->pol.kind && policy_holes(&cs->pol) < 0) ||
		    (p->shadow && (cs->fa_pol.kind ? policy_holes(&cs->fa_pol) : stack_holes(&cs->fa)) < 0) ||
		    !(cs->wev = calloc(nl, sizeof *cs->wev)) ||
		    !(cs->sskip = calloc(nl, sizeof *cs->sskip)) ||
		    !(cs->hpend = calloc(nl, sizeof *cs->hpend)))
			return -1;
	}
	/* (untouched by the plain loop: calloc's pages stay unmapped) */
	cs->fl = calloc(nl, sizeof *cs->fl);
	cs->warps = calloc(s->nwarps ? s->nwarps : 1, sizeof *cs->warps);
	cs->block_left = calloc(s->nblocks ? s->nblocks : 1, sizeof *cs->block_left);
	uint64_t fn = 1; /* a mask, not a division, per pop and push */
	while (fn < nwarps_core + 1)
		fn <<= 1;
	cs->fmask = fn - 1;
	cs->fifo = malloc(fn * sizeof *cs->fifo);
	cs->gto = p->gto;
	cs->greedy = UINT32_MAX;
	if (p->gto) {
		cs->gpos = malloc((s->nwarps ? s->nwarps : 1) * sizeof *cs->gpos);
		if (!cs->gpos)
			return -1;
		memset(cs->gpos, 0xff, (s->nwarps ? s->nwarps : 1) * sizeof *cs->gpos);
	}
	uint64_t maxlat = p->lat_miss + (uint64_t)(8.0 * p->sigma) + 2;
	if (p->lat_hit > maxlat)
		maxlat = p->lat_hit;
	uint64_t wn = 1;
	while (wn <= maxlat + 1)
		wn <<= 1;
	cs->wmask = wn - 1;
	cs->wheel = calloc(wn, sizeof *cs->wheel);
	cs->back = calloc(wn, sizeof *cs->back);
	if (!cs->fl || !cs->warps || !cs->block_left || !cs->fifo || !cs->wheel || !cs->back)
		return -1;
	if (p->record_events) {
		if (counts_sets(cs->out, p->nsets) < 0)
			return -1;
		const rd_callbacks *cb = cs->in->cb;
		/* (the stacks list a set's top from its exact marks: each
		 * stamp's line kept, as for write-backs) */
		if (cb && cb->event && cb->event_stacks && cs->st.exact &&
		    (!(cs->stk = malloc(RD_EVENT_STACK * sizeof *cs->stk)) ||
		     !(cs->stk2 = malloc(RD_EVENT_STACK * sizeof *cs->stk2)) ||
		     (!cs->st.who && stack_who(&cs->st) < 0)))
			return -1;
	}
	cs->events = p->record_events && cs->in->cb && cs->in->cb->event;
	/* warp_issue's copy, chosen once: the two plain ones test no flag */
	int plain = !cs->events && !cs->shadow && !cs->by_site && !cs->pol.kind && !cs->ext;
	cs->mode = !plain ? 2 : cs->out->nsets ? 1 : 0;
	cs->mshr_cap = p->mshrs ? p->mshrs : UINT32_MAX;
	cs->warp_cap = p->per_warp ? p->per_warp : UINT32_MAX;
	cs->alloc_miss = p->alloc_miss;
	if (p->alloc_miss && policy_reservations(&cs->pol) < 0)
		return -1;
	if (p->warp_loads && p->per_warp) {
		cs->wslot = calloc((size_t)(s->nwarps ? s->nwarps : 1) * p->per_warp, sizeof *cs->wslot);
		cs->lslot = calloc(nl, 1);
		if (!cs->wslot || !cs->lslot)
			return -1;
	}
	rng_seed(&cs->rng, p->seed, cs->core);
	return halfnormal_init(&cs->latdist, p->sigma);
}

/*
 * Fast-forward over steps in which every pop is a refused warp: with E the
 * next time an effect is due and A the next arrival, steps T .. min(E, A-1)
 * each refuse the front warp (effects due at E land after E's pop). The
 * queue rotates by that many; the effects at E then land.
 */
static uint64_t spin_skip(core_state *cs, uint64_t T)
{
	uint64_t E = UINT64_MAX, A = next_arrival(cs, T);
	if (cs->pending)
		for (uint64_t t = T; t <= T + cs->wmask; t++)
			if (cs->wheel[t & cs->wmask].n) {
				E = t;
				break;
			}
	uint64_t end = E < UINT64_MAX && E + 1 < A ? E + 1 : A;
	if (end == UINT64_MAX || end <= T)
		return T; /* nothing to skip to (cannot happen with refusals) */
	uint64_t k = end - T, n = cs->ftail - cs->fhead;
	/* (greedy then oldest pops the same refused warp each step: no turn) */
	for (uint64_t i = 0; !cs->gto && i < k % n; i++) {
		uint32_t w = cs->fifo[cs->fhead++ & cs->fmask];
		fifo_push(cs, w);
	}
	cs->out->cancels += k;
	if (end == E + 1)
		effects_due(cs, E, cs->st.exact, cs->wev != NULL, 0);
	return end;
}

/* Progress every SIM_CHUNK requests issued, and (teaching views) a
 * snapshot of the counts every RD_PARTIAL_EVERY: the marks of both loops. */
typedef struct loop_marks {
	uint64_t next_report, reported, next_partial;
} loop_marks;

#define LOOP_MARKS_START {SIM_CHUNK, 0, RD_PARTIAL_EVERY}

/* Called once issued reaches next_report: RD_ECANCELED if the caller says
 * stop, RD_ENOMEM if a snapshot found no memory, else RD_OK. */
static int loop_report(core_state *cs, uint64_t T, loop_marks *mk)
{
	mk->next_report += SIM_CHUNK;
	uint64_t delta = cs->issued - mk->reported;
	mk->reported = cs->issued;
	if (sim_progress(cs->in, delta))
		return RD_ECANCELED;
	if (cs->p->record_events && cs->issued >= mk->next_partial) {
		mk->next_partial += RD_PARTIAL_EVERY;
		cs->out->time = T;
		if (sim_partial(cs->in, cs->out) < 0)
			return RD_ENOMEM;
	}
	return RD_OK;
}

/* The event loop from step 0 until the core's warps are done. exact is a
 * constant in each copy (sim_paper_core makes one per value), so the stack
 * updates test no case flag. */
STEP_INLINE int core_loop(core_state *cs, const int exact, const int we, const int ev)
{
	sim_counts *out = cs->out;
	uint64_t T = 0, spin = 0;
	loop_marks mk = LOOP_MARKS_START;
	int fast = !cs->events, rc;
	while (cs->warps_alive) {
		if (cs->back[T & cs->wmask].n)
			warps_arrive(cs, T);
		/* (tests in order of how rarely they hold: branches predicted) */
		if (spin >= cs->ftail - cs->fhead && spin && fast) {
			/* Every queued warp was refused an MSHR and nothing has
			 * changed since: until an effect lands or a warp arrives,
			 * each step only rotates the queue. Skip to then. (Not when
			 * logging: the log lists every refusal.) */
			T = spin_skip(cs, T);
			spin = 0;
			continue;
		}
		if (cs->fhead == cs->ftail) {
			if (!cs->warps_alive)
				break;
			/* Idle: land what is due, then skip the steps where
			 * nothing is due until the next arrival; or jump to it. */
			if (cs->pending) {
				effects_due(cs, T++, exact, we, ev);
				uint64_t A = next_arrival(cs, T);
				while (T < A && cs->pending && !cs->wheel[T & cs->wmask].n)
					T++;
			} else {
				T = next_arrival(cs, T);
			}
			continue;
		}
		uint32_t w = fifo_pop(cs);
		uint64_t v0 = cs->version;
		int st;
		if (fast && still_refused(cs, &cs->warps[w])) {
			out->cancels++;
			if (cs->gto) /* (its request is cached: no prefetch) */
				fifo_push(cs, w);
			else
				cs->fifo[cs->ftail++ & cs->fmask] = w;
			st = 1;
		} else if ((st = warp_issue(cs, w, T, exact)) < 0) {
			return RD_ENOMEM;
		}
		effects_due(cs, T, exact, we, ev);
		spin = st == 1 && cs->version == v0 ? spin + 1 : 0;
		T++;
		if (cs->issued >= mk.next_report && (rc = loop_report(cs, T, &mk)) != RD_OK)
			return rc;
	}
	if (T > out->time)
		out->time = T;
	return RD_OK;
}

/* Does the plain loop (core_loop_plain) give this case's counts? Only
 * with no latency at all, no MSHR cap, LRU, loads only, round-robin and
 * nothing logged or sent on (issue 23: a plain LRU cache's fast path). */
static int core_plain(const core_state *cs)
{
	const sim_params *p = cs->p;
	return p->lat_hit == 0 && p->lat_miss == 0 && p->sigma == 0 && !cs->events &&
	       !cs->by_site && !cs->pol.kind && !cs->ext && !cs->gto && !cs->alloc_miss &&
	       !cs->wslot && !cs->emit && !cs->wev && !cs->dirty && !cs->stk &&
	       cs->mshr_cap == UINT32_MAX && cs->warp_cap == UINT32_MAX;
}

/*
 * The plain loop: no latency at all (hit, miss and spread 0), no MSHR cap,
 * LRU, loads only, round-robin, nothing logged. Every effect of a step
 * then lands at the end of that step in issue order, no warp ever waits
 * and no miss is refused, so the event loop reduces to: pop a warp, look
 * up its instruction's requests, land their effects, push it back. Counts,
 * histogram and time are the event loop's (tests/test_mechanisms.c compares
 * them). A line asked twice in one step (two coalescing groups) has its
 * fill land before the second lookup, as effects_land_line does; the
 * step's misses are found in its effects, behind a 64-bit filter of their
 * lines (bit line % 64), so the loop writes no per-line state beside the
 * stack's own record.
 */
STEP_INLINE int core_loop_plain(core_state *cs, const int exact, const int shadow)
{
	const rd_coal *co = cs->co;
	sim_counts *out = cs->out;
	rd_line *const lines = cs->st.ln;
	const int per_set = out->nsets != 0;
	const uint64_t ways = cs->st.window;
	uint64_t nreq = co->nreq; /* (streaming: the windows' so far) */
	uint64_t T = 0;
	loop_marks mk = LOOP_MARKS_START;
	int rc;
	bucket *b = &cs->wheel[0]; /* the step's effects: (line, fill?, landed) */
	while (cs->fhead != cs->ftail) {
		uint32_t w = cs->fifo[cs->fhead++ & cs->fmask];
		warp_st *ws = &cs->warps[w];
		const uint64_t end = ws->req_end;
		uint64_t missed = 0; /* bit l % 64: line l may have missed this step */
		b->n = 0;
		for (uint64_t r = ws->req; r < end; r++) {
			uint32_t l = co->req[r].line;
			if (r + PF_AHEAD < nreq) {
				__builtin_prefetch(&lines[co->req[r + PF_AHEAD].line]);
				if (shadow)
					__builtin_prefetch(&cs->fa.ln[co->req[r + PF_AHEAD].line]);
			}
			if (exact && r + PF_NEAR < nreq)
				stack_prefetch_distance(&cs->st, co->req[r + PF_NEAR].line);
			rd_line *ln = &lines[l];
			/* With exact distances, the distance says hit or miss
			 * (below the ways) and the stack keeps no window (its
			 * upkeep: 12 % of case 0's time on issue 23's stream). */
			int64_t d = exact ? stack_distance_inline(&cs->st, l) : 0;
			int hit = exact ? (uint64_t)d < ways : stack_hit_inline(&cs->st, l);
			if (!hit && (missed >> (l & 63) & 1)) { /* missed earlier this step? landed */
				for (uint32_t i = 0; i < b->n; i++)
					if (!b->v[i].done && b->v[i].line == l && b->v[i].kind == EFF_FILL) {
						b->v[i].done = 1;
						stack_update_as(&cs->st, l, exact, !exact, 0);
						if (shadow)
							stack_update_as(&cs->fa, l, 0, 1, 0);
					}
				if (exact)
					d = stack_distance_inline(&cs->st, l);
				hit = exact ? (uint64_t)d < ways : stack_hit_inline(&cs->st, l);
			}
			int fa_hit = shadow && stack_hit_inline(&cs->fa, l);
			if (b->n == b->cap && bucket_grow(b) < 0)
				return RD_ENOMEM;
			b->v[b->n++] = (effect){l, hit ? EFF_HIT : EFF_FILL, 0};
			if (hit) {
				out->hits++;
			} else {
				out->misses++;
				if (ln->stamp == 0)
					out->compulsory++;
				else if (fa_hit)
					out->assoc_access++;
				missed |= 1ULL << (l & 63);
			}
			out->requests++;
			if (per_set) {
				out->set_requests[ln->set]++;
				out->set_misses[ln->set] += !hit;
			}
			if (exact && hist_add(out, d) < 0)
				return RD_ENOMEM;
		}
		cs->issued += end - ws->req;
		for (uint32_t i = 0; i < b->n; i++) {
			effect *e = &b->v[i];
			if (e->done)
				continue;
			stack_update_as(&cs->st, e->line, exact, !exact, 0);
			if (shadow)
				stack_update_as(&cs->fa, e->line, 0, 1, 0);
		}
		ws->req = end;
		if (++ws->instr != ws->instr_end) {
			ws->req_end = coal_req_first(co, ws->instr + 1);
			cs->fifo[cs->ftail++ & cs->fmask] = w;
		} else if (cs->feed && warp_refill(cs, w) > 0) {
			cs->fifo[cs->ftail++ & cs->fmask] = w;
			nreq = co->nreq;
		} else {
			warp_retire(cs, w);
			nreq = co->nreq;
		}
		T++;
		if (cs->issued >= mk.next_report && (rc = loop_report(cs, T, &mk)) != RD_OK)
			return rc;
	}
	if (T > out->time)
		out->time = T;
	return RD_OK;
}

/* The loop of a case whose events are logged (landings reported): a copy
 * of its own, apart from the others. */
static __attribute__((noinline)) int core_loop_events(core_state *cs)
{
	return core_loop(cs, cs->st.exact, cs->wev != NULL, 1);
}

HOT_CLONES int sim_paper_core(const sim_input *in, uint32_t core, const sim_params *p, sim_counts *out)
{
	core_state cs = {.in = in, .p = p, .out = out, .core = core};
	int rc = RD_ENOMEM;
	if (core_init(&cs) == 0) {
		/* First the active set: the core's first active_blocks blocks. */
		uint32_t nb = in->s->core_first[core + 1] - in->s->core_first[core];
		for (uint32_t i = 0; i < in->s->active_blocks && cs.next_block < nb; i++)
			block_dispatch(&cs);
		/* one copy per case kind: exact distances, stores that evict;
		 * the plain loop's per exact distances and shadow */
		if (core_plain(&cs))
			rc = cs.st.exact ? (cs.shadow ? core_loop_plain(&cs, 1, 1) : core_loop_plain(&cs, 1, 0))
					 : (cs.shadow ? core_loop_plain(&cs, 0, 1) : core_loop_plain(&cs, 0, 0));
		else if (cs.events)
			rc = core_loop_events(&cs);
		else if (cs.wev)
			rc = cs.st.exact ? core_loop(&cs, 1, 1, 0) : core_loop(&cs, 0, 1, 0);
		else
			rc = cs.st.exact ? core_loop(&cs, 1, 0, 0) : core_loop(&cs, 0, 0, 0);
		if (rc == RD_OK && cs.wb_fail)
			rc = RD_ENOMEM;
		if (rc == RD_OK && cs.feed_rc)
			rc = cs.feed_rc;
	}
	core_free(&cs);
	return rc;
}
