/*
 * The parallel cache of RDGC (seed 001 §4.4): the machinery model=rdgc's
 * L1 (sim_rdgc.c) and the L2 (l2.c) share. Each step has two phases:
 *
 *  - fill: the lines whose miss completes by the end of the previous step
 *    arrive, each entering its set's LRU stack (and the replacement
 *    policy's ways) in the order its MSHR entry was taken, and freeing it;
 *  - issue: the requests that took a port (the caller counts ports) are
 *    looked up. A hit moves its line to the top of its stack; a miss takes
 *    an entry of its MSHR set, or merges into the entry of its line in
 *    flight (a latency miss, RDGC's merge) while the entry merges fewer
 *    than the limit; a miss that finds neither is a reservation fail: no
 *    status, no distance, retried in a later step.
 *
 * A miss issued in step i completes at the end of step i + L - 1 (filled
 * before step i + L's accesses); L = 0 fills at once. The distance of an
 * access is its line's depth in its set's LRU stack when it is accepted;
 * sets are per bank (the caller numbers them), so a distance counts the
 * lines of one bank only. Stores: under evict a store that finds its line
 * removes it (its way stays empty until the set's next fill) and one to a
 * line in flight cancels the line's insertion; under allocate a store is a
 * load that is counted apart. Calls nothing above it.
 */
#include "internal.h"
#include "stack_ops.h"

#include <stdlib.h>
#include <string.h>

int pc_init(pcache *pc, uint32_t nsets, const uint32_t *cap, uint32_t nlines,
	    const uint32_t *set_of, uint32_t ways, int repl, uint64_t seed, uint64_t stream,
	    int stores, int need_hist)
{
	memset(pc, 0, sizeof *pc);
	pc->nlines = nlines;
	pc->stores = stores;
	pc->need_hist = need_hist;
	if (stack_init(&pc->st, nsets, cap, nlines, set_of, ways, need_hist) != RD_OK)
		return RD_ENOMEM;
	size_t n = nlines ? nlines : 1;
	pc->done = calloc(n, sizeof *pc->done);
	pc->merges = calloc(n, sizeof *pc->merges);
	pc->flag = calloc(n, sizeof *pc->flag);
	if (!pc->done || !pc->merges || !pc->flag)
		goto fail;
	if (repl != RD_REPL_LRU &&
	    policy_init(&pc->pol, repl, nsets, ways, nlines, set_of, seed, stream) != RD_OK)
		goto fail;
	if (stores == RD_STORES_EVICT &&
	    (stack_holes(&pc->st) < 0 || (pc->pol.kind && policy_holes(&pc->pol) < 0)))
		goto fail;
	return RD_OK;
fail:
	pc_free(pc);
	return RD_ENOMEM;
}

int pc_msets(pcache *pc, uint32_t nmsets, uint32_t mshrs, uint32_t max_merges,
	     const uint32_t *mset_of)
{
	pc->nmsets = nmsets ? nmsets : 1;
	pc->mshrs = mshrs;
	pc->max_merges = max_merges;
	pc->mset_of = mset_of;
	pc->mset_used = calloc(pc->nmsets, sizeof *pc->mset_used);
	return pc->mset_used ? 0 : -1;
}

int pc_writebacks(pcache *pc, sim_counts *wb, uint32_t core)
{
	pc->wb = wb;
	pc->wb_core = core;
	return stack_who(&pc->st);
}

int pc_shadow(pcache *pc, uint32_t nbanks, const uint32_t *cap, const uint32_t *bank_of,
	      uint32_t ways, int repl, uint64_t seed, uint64_t stream)
{
	pc->shadow = 1;
	if (stack_init(&pc->fa, nbanks, cap, pc->nlines, bank_of, ways, 0) != RD_OK)
		return -1;
	if (repl != RD_REPL_LRU &&
	    policy_init(&pc->fa_pol, repl, nbanks, ways, pc->nlines, bank_of, seed, stream) != RD_OK)
		return -1;
	if (pc->stores == RD_STORES_EVICT &&
	    (stack_holes(&pc->fa) < 0 || (pc->fa_pol.kind && policy_holes(&pc->fa_pol) < 0)))
		return -1;
	return 0;
}

void pc_free(pcache *pc)
{
	stack_free(&pc->st);
	if (pc->shadow)
		stack_free(&pc->fa);
	if (pc->fa_pol.kind)
		policy_free(&pc->fa_pol);
	if (pc->pol.kind)
		policy_free(&pc->pol);
	free(pc->done);
	free(pc->merges);
	free(pc->flag);
	free(pc->heap);
	free(pc->mset_used);
	free(pc->fill_core);
	memset(pc, 0, sizeof *pc);
}

static int before(const pc_fill *a, const pc_fill *b)
{
	return a->done < b->done || (a->done == b->done && a->seq < b->seq);
}

static int heap_push(pcache *pc, uint64_t done, uint32_t line)
{
	if (pc->nheap == pc->heap_cap) {
		uint64_t nc = pc->heap_cap ? pc->heap_cap * 2 : 64;
		pc_fill *h = realloc(pc->heap, nc * sizeof *h);
		if (!h)
			return -1;
		pc->heap = h;
		pc->heap_cap = nc;
	}
	pc_fill f = {done, pc->seq++, line};
	uint64_t i = pc->nheap++;
	while (i && before(&f, &pc->heap[(i - 1) / 2])) {
		pc->heap[i] = pc->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	pc->heap[i] = f;
	return 0;
}

static pc_fill heap_pop(pcache *pc)
{
	pc_fill top = pc->heap[0], last = pc->heap[--pc->nheap];
	uint64_t i = 0, n = pc->nheap;
	for (;;) {
		uint64_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && before(&pc->heap[c + 1], &pc->heap[c]))
			c++;
		if (!before(&pc->heap[c], &last))
			break;
		pc->heap[i] = pc->heap[c];
		i = c;
	}
	if (n)
		pc->heap[i] = last;
	return top;
}

static int in_cache(const pcache *pc, uint32_t l)
{
	return pc->pol.kind ? policy_has(&pc->pol, l) : stack_hit_inline(&pc->st, l);
}

/* The shadow's view of a line (pc_shadow). */
static int fa_has(const pcache *pc, uint32_t l)
{
	return pc->fa_pol.kind ? policy_has(&pc->fa_pol, l) : stack_hit_inline(&pc->fa, l);
}

/* The line's data arrives: into its set (unless a store cancelled it). */
static void land(pcache *pc, uint32_t l)
{
	if (pc->flag[l] & PC_F_CANCEL) {
		pc->flag[l] &= (uint8_t)~PC_F_CANCEL;
		return;
	}
	stack_update_inline(&pc->st, l);
	if (pc->pol.kind)
		policy_fill(&pc->pol, l);
	if (pc->shadow) {
		stack_update_inline(&pc->fa, l);
		if (pc->fa_pol.kind)
			policy_fill(&pc->fa_pol, l);
	}
	if (pc->wb) {
		uint32_t v = pc->pol.kind ? pc->pol.evicted : pc->st.evicted;
		if (v != UINT32_MAX && (pc->flag[v] & PC_F_DIRTY)) {
			pc->flag[v] &= (uint8_t)~PC_F_DIRTY;
			if (l2s_add(pc->wb, pc->now, pc->line_addr[v], pc->wb_core, 1) < 0)
				pc->wb_fail = 1;
		}
	}
}

static void fill_event(pcache *pc, uint32_t l, uint64_t t, uint32_t core)
{
	uint32_t b = pc->bank_of ? pc->bank_of[l] : 0, bp = pc->banks_per_part ? pc->banks_per_part : 1;
	rd_event ev = {
		.time = t + 1, .core = pc->fill_core ? pc->fill_core[l] : core,
		.line = pc->line_addr ? pc->line_addr[l] : l,
		.addr = (pc->line_addr ? pc->line_addr[l] : l) * pc->line_bytes,
		.set = pc->set_show ? pc->set_show[l] : pc->st.ln[l].set, .distance = -1, .outcome = RD_OUT_FILL, .cls = -1,
		.effect_at = t + 1, .mshrs_used = pc->used, .level = pc->level,
		.partition = b / bp, .bank = b % bp, .mshrs_free = pc_free_entries(pc, l),
	};
	pc->cb->event(pc->cb->ctx, &ev);
}

/* A fill that completed at the end of step t landed (the L1's, events). */
static void fill_landing(pcache *pc, uint32_t l, uint64_t t, uint32_t core)
{
	rd_landing ld = {
		.time = t, .core = pc->fill_core ? pc->fill_core[l] : core,
		.set = pc->set_show ? pc->set_show[l] : pc->st.ln[l].set,
		.line = pc->line_addr ? pc->line_addr[l] : l, .fill = 1,
	};
	if (pc->stk && pc->line_addr)
		ld.stack_len = stack_top(&pc->st, pc->st.ln[l].set, pc->line_addr, pc->stk,
					 stack_depth(pc->cb));
	ld.stack = pc->stk;
	pc->cb->land(pc->cb->ctx, &ld);
}

HOT_CLONES int pc_fills(pcache *pc, uint64_t t, uint32_t core)
{
	while (pc->nheap && pc->heap[0].done < t) {
		pc_fill f = heap_pop(pc);
		pc->now = t == UINT64_MAX ? f.done + 1 : t;
		uint32_t l = f.line;
		land(pc, l);
		pc->flag[l] &= (uint8_t)~PC_F_PEND;
		pc->merges[l] = 0;
		pc->mset_used[pc->mset_of[l]]--;
		pc->used--;
		if (pc->cb && pc->cb->event) {
			/* (the L1's landing first: its set now; then its row) */
			if (pc->level == 1 && pc->cb->land)
				fill_landing(pc, l, f.done, core);
			fill_event(pc, l, f.done, core);
		}
	}
	return pc->wb_fail ? -1 : 0;
}

/* A store under evict (see the top). */
static int store_evict(pcache *pc, uint32_t l)
{
	sim_counts *out = pc->out;
	int hit = in_cache(pc, l), lru_hit = stack_hit_inline(&pc->st, l);
	int pend = (pc->flag[l] & PC_F_PEND) != 0;
	if (lru_hit && stack_evict(&pc->st, l) < 0)
		return -1;
	if (hit && pc->pol.kind)
		policy_evict(&pc->pol, l);
	if (pc->shadow) {
		if (pc->fa_pol.kind) {
			if (policy_has(&pc->fa_pol, l))
				policy_evict(&pc->fa_pol, l);
		} else if (stack_hit_inline(&pc->fa, l) && stack_evict(&pc->fa, l) < 0) {
			return -1;
		}
	}
	if (pend)
		pc->flag[l] |= PC_F_CANCEL;
	if (hit || pend)
		pc->flag[l] |= PC_F_WEV;
	out->store_requests++;
	out->store_hits += (uint64_t)hit;
	out->store_evictions += (uint64_t)(hit || pend);
	pc->cls = -1;
	if (pc->need_hist && hist_w_add(out, pc->d) < 0)
		return -1;
	return hit || pend ? PC_EVICT : PC_PAST;
}

HOT_CLONES int pc_access(pcache *pc, uint32_t l, int store, uint64_t t)
{
	sim_counts *out = pc->out;
	pc->d = pc->need_hist ? stack_distance_inline(&pc->st, l) : -1;
	pc->cls = -1;
	pc->last_lat = 0;
	pc->now = t;
	pc->emitted = 0;
	if (store && pc->stores == RD_STORES_EVICT)
		return store_evict(pc, l);
	int rc;
	if (in_cache(pc, l)) {
		stack_update_inline(&pc->st, l);
		if (pc->pol.kind)
			policy_touch(&pc->pol, l);
		if (pc->shadow) {
			stack_update_inline(&pc->fa, l);
			if (pc->fa_pol.kind)
				policy_touch(&pc->fa_pol, l);
		}
		rc = PC_HIT;
	} else if (pc->flag[l] & PC_F_PEND) {
		if (pc->max_merges && pc->merges[l] >= pc->max_merges) {
			out->cancels++;
			return PC_RF;
		}
		pc->merges[l]++;
		pc->cls = RD_CLASS_LATENCY;
		pc->last_lat = (uint32_t)(pc->done[l] + 1 - t);
		rc = PC_MERGE;
	} else {
		uint32_t ms = pc->mset_of[l];
		if (pc->mshrs && pc->mset_used[ms] >= pc->mshrs) {
			out->cancels++;
			return PC_RF;
		}
		uint32_t lat = pc->adaptive ? rd_adaptive_latency(pc->k1, pc->k2, pc->used + 1,
								   pc->cores, pc->l2p)
					    : pc->lat;
		pc->last_lat = lat;
		if (pc->flag[l] & PC_F_WEV)
			pc->cls = RD_CLASS_WRITE_EVICT;
		else if (!(pc->flag[l] & PC_F_SEEN))
			pc->cls = RD_CLASS_COMPULSORY;
		else if (pc->shadow && fa_has(pc, l))
			pc->cls = RD_CLASS_ASSOCIATIVITY;
		else
			pc->cls = RD_CLASS_CAPACITY;
		pc->flag[l] = (uint8_t)((pc->flag[l] & ~PC_F_WEV) | PC_F_SEEN);
		if (lat == 0) {
			/* the read leaves before the write-back its fill causes */
			if (pc->wb) {
				if (l2s_add(pc->wb, t, pc->line_addr[l], pc->wb_core, 0) < 0)
					return -1;
				pc->emitted = 1;
			}
			land(pc, l);
			if (pc->wb_fail)
				return -1;
		} else {
			pc->done[l] = t + lat - 1;
			if (pc->fill_core)
				pc->fill_core[l] = pc->req_core;
			if (heap_push(pc, pc->done[l], l) < 0)
				return -1;
			pc->flag[l] |= PC_F_PEND;
			pc->mset_used[ms]++;
			pc->used++;
		}
		rc = PC_MISS;
	}
	pc->flag[l] |= PC_F_SEEN;
	if (store) { /* allocate: counted apart */
		if (pc->wb)
			pc->flag[l] |= PC_F_DIRTY;
		out->store_requests++;
		out->store_hits += rc == PC_HIT;
		if (pc->need_hist && hist_w_add(out, pc->d) < 0)
			return -1;
		return rc;
	}
	out->requests++;
	if (rc == PC_HIT) {
		out->hits++;
	} else {
		out->misses++;
		out->latency += rc == PC_MERGE;
		out->compulsory += pc->cls == RD_CLASS_COMPULSORY;
		out->write_evict += pc->cls == RD_CLASS_WRITE_EVICT;
		out->assoc_access += pc->cls == RD_CLASS_ASSOCIATIVITY;
	}
	if (pc->need_hist && hist_add(out, pc->d) < 0)
		return -1;
	return rc;
}
