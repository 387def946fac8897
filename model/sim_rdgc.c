/*
 * model=rdgc's L1 on one core: RDGC's Algorithm 2 (seed 001 §4.3) over the
 * parallel cache of pcache.c.
 *
 * The core's blocks run in waves of CB blocks (Algorithm 3: at most
 * gpu.max_active_blocks, and CB * warps per block at most MAXCW =
 * gpu.max_active_threads / gpu.warp_size). Within a wave, for each access
 * number j (a warp's j-th instruction), each block, each group of
 * gpu.schedulers consecutive warps, the group's requests (its warps' j-th
 * instructions, coalesced) issue together: ordered by warp, then bank,
 * then their order within the warp (the order that reproduces the paper's
 * Table 3, notes §A6.4), each step the requests not yet accepted take a
 * free port of their bank in that order and are tried; a reservation fail
 * keeps its port and retries next step. The next group issues in the step
 * after every request of this one was accepted (a reservation fail stalls
 * the whole warp group, not only its request: seed 001 §4.4).
 *
 * Loads under l1.loads=bypass and stores under l1.stores=evict take a port
 * and go past (no MSHR); those, each miss that takes a new MSHR entry, and
 * under allocate each store miss's fetch, leave for the L2 (sim_params.emit).
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct greq {
	uint64_t r;       /* request index in the coalesced list */
	uint32_t warp;    /* global warp id */
	uint32_t bank;
	uint64_t order;   /* (warp in group, bank, position) rank */
	uint32_t instr;   /* the warp's instruction (access number) */
	int done;
} greq;

typedef struct rdgc_core {
	const sim_input *in;
	const sim_params *p;
	sim_counts *out;
	uint32_t core;
	pcache pc;
	uint32_t *port_used;   /* [banks]: ports taken in step port_step */
	uint32_t *bank_left;   /* [banks]: the group's requests not yet accepted */
	uint64_t *port_step;
	greq *g;
	uint32_t gn, gcap;
	uint64_t t;
	uint64_t issued, reported, next_partial;
	uint32_t *mset_of;
	uint64_t *stk;    /* event stacks (rd_callbacks.event_stacks), or NULL: the set as
			   * the request found it (stk_n entries) */
	uint64_t *stk2;   /* ... after it */
	uint32_t stk_n;
	uint32_t used0;   /* events: the MSHR entries in use at the request's lookup */
	uint32_t *show;   /* events: each line's set within its bank */
} rdgc_core;

static void emit_event(rdgc_core *rc, const greq *q, int outcome, uint32_t port)
{
	const rd_coal *co = rc->in->co;
	const rd_req *rq = &co->req[q->r];
	const rd_sched *s = rc->in->s;
	const rd_kernel *k = rc->in->k;
	const sim_params *p = rc->p;
	uint64_t addr = !co->req_acc ? k->addr[k->thread_first[coal_req_thread(s, q->warp, rq)] + q->instr]
		      : rq->store  ? k->store_addr[co->req_acc[q->r]]
				   : k->addr[co->req_acc[q->r]];
	uint32_t set = rc->pc.st.ln[rq->line].set;
	uint32_t banks = p->banks ? p->banks : 1;
	uint32_t spb = p->sets / banks ? p->sets / banks : 1;
	rd_event ev = {
		.time = rc->t, .core = rc->core, .block = sched_block_id(s, q->warp / s->warps_per_block),
		.warp = sched_warp_id(s, q->warp), .thread = coal_req_thread(s, q->warp, rq), .nthreads = rq->nthr,
		.instr = q->instr, .store = rq->store, .addr = addr, .line = co->line_addr[rq->line],
		.set = (p->set_ids ? p->set_ids[set] : set) % spb, .distance = rc->pc.d,
		.outcome = outcome, .cls = rc->pc.cls, .latency = rc->pc.last_lat,
		.effect_at = rc->t + (rc->pc.last_lat ? rc->pc.last_lat - 1 : 0),
		.mshrs_used = rc->pc.used, .level = 1, .bank = q->bank, .port = port,
		.mshrs_free = pc_free_entries(&rc->pc, rq->line),
		.mshrs_before = rc->used0,
	};
	if (rc->stk) {
		ev.stack = rc->stk;
		ev.stack_len = rc->stk_n;
		ev.after = rc->stk2;
		ev.after_len = stack_top(&rc->pc.st, set, co->line_addr, rc->stk2,
					 stack_depth(rc->in->cb));
	}
	const rd_callbacks *cb = rc->in->cb;
	cb->event(cb->ctx, &ev);
	/* A hit, or a fill of latency 0, landed at the lookup: said after
	 * the request (a miss's fill lands in pc_fills, a merge's with it). */
	if (cb->land && rd_event_has_effect(&ev) &&
	    (outcome == RD_OUT_HIT || (outcome == RD_OUT_MISS && !rc->pc.last_lat))) {
		rd_landing ld = {.time = ev.effect_at, .core = ev.core, .set = ev.set, .line = ev.line,
				 .fill = outcome == RD_OUT_MISS,
				 .stack = ev.after, .stack_len = ev.after_len};
		cb->land(cb->ctx, &ld);
	}
}

/* One request of the group at step t, with a port. 1: accepted. */
static int try_req(rdgc_core *rc, greq *q, uint32_t port)
{
	const rd_coal *co = rc->in->co;
	const rd_req *rq = &co->req[q->r];
	const sim_params *p = rc->p;
	sim_counts *out = rc->out;
	int events = p->record_events && rc->in->cb && rc->in->cb->event;
	uint32_t l = rq->line;
	int outcome, leave = 0, write = 0;
	if (events) { /* the set as the request finds it */
		rc->used0 = rc->pc.used;
		if (rc->stk)
			rc->stk_n = stack_top(&rc->pc.st, rc->pc.st.ln[l].set, co->line_addr, rc->stk,
					      stack_depth(rc->in->cb));
	}
	if (rq->store && p->stores == RD_STORES_EVICT) {
		int o = pc_access(&rc->pc, l, 1, rc->t);
		if (o < 0)
			return -1;
		outcome = o == PC_EVICT ? RD_OUT_EVICT : RD_OUT_BYPASS;
		leave = write = 1;
	} else if (!rq->store && p->bypass) {
		rc->pc.d = rc->pc.need_hist ? stack_distance(&rc->pc.st, l) : -1;
		rc->pc.emitted = 0;
		rc->pc.cls = RD_CLASS_BYPASS;
		rc->pc.last_lat = 0;
		out->requests++;
		out->misses++;
		out->bypass++;
		if (rc->pc.need_hist && hist_add(out, rc->pc.d) < 0)
			return -1;
		outcome = RD_OUT_MISS;
		leave = 1;
	} else {
		int o = pc_access(&rc->pc, l, rq->store, rc->t);
		if (o < 0)
			return -1;
		if (o == PC_RF) {
			if (events)
				emit_event(rc, q, RD_OUT_RF, port);
			return 0;
		}
		outcome = o == PC_HIT ? RD_OUT_HIT : o == PC_MERGE ? RD_OUT_MERGE : RD_OUT_MISS;
		leave = o == PC_MISS;
		if (!rq->store && out->nsets) {
			uint32_t set = rc->pc.st.ln[l].set;
			out->set_requests[set]++;
			out->set_misses[set] += o != PC_HIT;
		}
	}
	if (!rq->store && p->by_site) { /* an accepted load: its site's counts */
		const rd_kernel *k = rc->in->k;
		uint64_t t0 = k->thread_first[coal_req_thread(rc->in->s, q->warp, rq)];
		uint64_t i = q->instr, a = t0 + i;
		if (co->req_acc) { /* instructions count stores too */
			a = co->req_acc[q->r];
			i = a - t0;
		}
		uint32_t st = site_of(k, a, i);
		site_counts *sc = &out->site[st];
		int cls = rc->pc.cls;
		sc->requests++;
		sc->hits += outcome == RD_OUT_HIT;
		sc->misses += outcome != RD_OUT_HIT;
		sc->compulsory += cls == RD_CLASS_COMPULSORY;
		sc->latency += cls == RD_CLASS_LATENCY;
		sc->assoc_access += cls == RD_CLASS_ASSOCIATIVITY;
		sc->write_evict += cls == RD_CLASS_WRITE_EVICT;
		sc->bypass += cls == RD_CLASS_BYPASS;
		if (out->site_hist) {
			int64_t d = rc->pc.d;
			out->site_hist[(size_t)st * (RD_SITE_BINS + 1) +
				       (d < 0 ? RD_SITE_BINS : (size_t)site_bin(d))]++;
		}
	}
	if (leave && p->emit && !rc->pc.emitted &&
	    l2s_add(out, rc->t, co->line_addr[l], rc->core, write) < 0)
		return -1;
	if (events)
		emit_event(rc, q, outcome, port);
	rc->issued++;
	return 1;
}

/* Issue one warp group until every request is accepted. */
static int group_run(rdgc_core *rc)
{
	const sim_params *p = rc->p;
	uint32_t left = rc->gn;
	/* a group is a few warps' requests, nearly in order: insertion sort */
	for (uint32_t i = 1; i < rc->gn; i++) {
		greq x = rc->g[i];
		uint32_t j = i;
		while (j && rc->g[j - 1].order > x.order) {
			rc->g[j] = rc->g[j - 1];
			j--;
		}
		rc->g[j] = x;
	}
	/* requests left per bank, and the banks with some: a step's scan
	 * stops once every such bank's ports are taken */
	uint32_t live = 0, lo = 0;
	for (uint32_t i = 0; i < rc->gn; i++)
		live += rc->bank_left[rc->g[i].bank]++ == 0;
	while (left) {
		if (pc_fills(&rc->pc, rc->t, rc->core) < 0)
			return -1;
		uint64_t rf0 = rc->out->cancels, left0 = left;
		uint32_t full = 0;
		while (lo < rc->gn && rc->g[lo].done)
			lo++;
		for (uint32_t i = lo; i < rc->gn && !(p->ports && full == live); i++) {
			greq *q = &rc->g[i];
			if (q->done)
				continue;
			uint32_t b = q->bank;
			if (rc->port_step[b] != rc->t + 1) {
				rc->port_step[b] = rc->t + 1;
				rc->port_used[b] = 0;
			}
			if (p->ports && rc->port_used[b] >= p->ports)
				continue;
			uint32_t port = rc->port_used[b]++;
			full += p->ports && rc->port_used[b] == p->ports;
			int a = try_req(rc, q, port);
			if (a < 0)
				return -1;
			if (a) {
				q->done = 1;
				left--;
				if (--rc->bank_left[b] == 0) {
					live--;
					full -= p->ports && rc->port_used[b] == p->ports;
				}
			}
		}
		/* nothing accepted: nothing changes before the next fill */
		uint64_t next = pc_next_fill(&rc->pc);
		if (left && left == left0 && next != UINT64_MAX && next > rc->t + 1) {
			rc->out->cancels += (rc->out->cancels - rf0) * (next - rc->t - 1);
			rc->t = next;
		} else {
			rc->t++;
		}
	}
	if (rc->issued - rc->reported >= SIM_CHUNK) {
		uint64_t delta = rc->issued - rc->reported;
		rc->reported = rc->issued;
		if (sim_progress(rc->in, delta))
			return RD_ECANCELED;
		if (p->record_events && rc->issued >= rc->next_partial) {
			rc->next_partial += RD_PARTIAL_EVERY;
			if (rc->t > rc->out->time)
				rc->out->time = rc->t;
			if (sim_partial(rc->in, rc->out) < 0)
				return -1;
		}
	}
	return 0;
}

/* Add warp w's instruction j (if it has one) to the group; wi is the
 * warp's rank in the group. */
static int group_add(rdgc_core *rc, uint32_t w, uint32_t wi, uint64_t j)
{
	const rd_coal *co = rc->in->co;
	uint64_t i0 = co->warp_instr_first[w], i1 = co->warp_instr_first[w + 1];
	if (j >= i1 - i0)
		return 0;
	uint64_t r0 = coal_req_first(co, i0 + j), r1 = coal_req_first(co, i0 + j + 1);
	for (uint64_t r = r0; r < r1; r++) {
		if (rc->gn == rc->gcap) {
			greq *ng = vec_grow(rc->g, &rc->gcap, sizeof *ng, 64);
			if (!ng)
				return -1;
			rc->g = ng;
		}
		uint32_t b = rc->p->bank_of ? rc->p->bank_of[co->req[r].line] : 0;
		/* rank: warp in group, bank (< 2^10 by the key's range),
		 * position (an instruction has at most warp_size <= 1024) */
		uint32_t pos = (uint32_t)(r - r0);
		rc->g[rc->gn++] = (greq){.r = r, .warp = w, .bank = b,
					 .order = ((uint64_t)wi << 32) | ((uint64_t)b << 20) | (pos & 0xfffff),
					 .instr = (uint32_t)j};
	}
	return 0;
}

int sim_rdgc_core(const sim_input *in, uint32_t core, const sim_params *p, sim_counts *out)
{
	const rd_sched *s = in->s;
	const rd_coal *co = in->co;
	rdgc_core rc = {.in = in, .p = p, .out = out, .core = core, .next_partial = RD_PARTIAL_EVERY};
	int rcode = RD_ENOMEM;
	uint32_t nsets = p->nsets ? p->nsets : 1;
	uint32_t banks = p->banks ? p->banks : 1;
	const uint32_t *cap = p->set_cap + (size_t)core * nsets;
	if (pc_init(&rc.pc, nsets, cap, co->nlines, p->set_of, p->ways, p->repl,
		    p->seed ^ ((uint64_t)core << 32), (uint64_t)p->case_id, p->stores,
		    p->need_hist || p->record_events) != RD_OK)
		return RD_ENOMEM;
	rc.mset_of = calloc(co->nlines ? co->nlines : 1, sizeof *rc.mset_of);
	rc.port_used = calloc(banks, sizeof *rc.port_used);
	rc.port_step = calloc(banks, sizeof *rc.port_step);
	rc.bank_left = calloc(banks, sizeof *rc.bank_left);
	if (!rc.mset_of || !rc.port_used || !rc.port_step || !rc.bank_left)
		goto done;
	uint32_t msets = p->mshr_sets ? p->mshr_sets : 1;
	for (uint32_t l = 0; l < co->nlines; l++) {
		uint32_t b = p->bank_of ? p->bank_of[l] : 0;
		rc.mset_of[l] = (uint32_t)((uint64_t)b * msets / banks);
	}
	if (pc_msets(&rc.pc, msets, p->mshrs, p->max_merges, rc.mset_of) < 0)
		goto done;
	if (p->by_site && counts_sites(out, p->nsites, p->need_hist) < 0)
		goto done;
	/* per-access labels (classes=per-access, and the events'): a fully
	 * associative shadow per bank, fed the same effects and drawing the
	 * same random stream (a bank of one set, its own fully associative
	 * cache, then has no associativity misses under random either) */
	if (p->shadow && pc_shadow(&rc.pc, banks, p->shadow_cap + (size_t)core * banks,
				   p->shadow_set_of, (p->sets / banks) * p->ways, p->repl,
				   p->seed ^ ((uint64_t)core << 32), (uint64_t)p->case_id) < 0)
		goto done;
	if (p->record_events && counts_sets(out, p->nsets) < 0)
		goto done;
	if (p->emit && p->stores == RD_STORES_ALLOCATE && pc_writebacks(&rc.pc, out, core) < 0)
		goto done;
	rc.pc.lat = p->lat_miss;
	rc.pc.adaptive = p->adaptive;
	rc.pc.k1 = p->k1;
	rc.pc.k2 = p->k2;
	rc.pc.l2p = p->l2p;
	/* active cores: those with blocks */
	uint32_t active = 0;
	for (uint32_t c = 0; c < s->ncores; c++)
		active += s->core_first[c + 1] > s->core_first[c];
	rc.pc.cores = active;
	rc.pc.cb = p->record_events ? in->cb : NULL;
	rc.pc.line_addr = co->line_addr;
	rc.pc.line_bytes = p->line_bytes;
	rc.pc.bank_of = p->bank_of;
	rc.pc.banks_per_part = banks;
	rc.pc.level = 1;
	rc.pc.out = out;
	if (p->need_hist || p->record_events)
		rc.pc.need_hist = 1;
	if (p->record_events && in->cb && in->cb->event) { /* fills name their set in its bank */
		uint32_t spb = p->sets / banks ? p->sets / banks : 1;
		if (!(rc.show = malloc((co->nlines ? co->nlines : 1) * sizeof *rc.show)))
			goto done;
		for (uint32_t l = 0; l < co->nlines; l++) {
			uint32_t st = p->set_of[l];
			rc.show[l] = (p->set_ids ? p->set_ids[st] : st) % spb;
		}
		rc.pc.set_show = rc.show;
	}
	if (p->record_events && in->cb && in->cb->event && in->cb->event_stacks && rc.pc.st.exact) {
		/* (listed from the stack's marks: each stamp's line kept) */
		rc.stk = malloc(RD_EVENT_STACK * sizeof *rc.stk);
		rc.stk2 = malloc(RD_EVENT_STACK * sizeof *rc.stk2);
		rc.pc.stk = rc.stk2;
		if (!rc.stk || !rc.stk2 || (!rc.pc.st.who && stack_who(&rc.pc.st) < 0))
			goto done;
	}

	uint32_t bsm = s->core_first[core + 1] - s->core_first[core];
	uint32_t wpb = s->warps_per_block, cb, nitr;
	rd_concurrent_blocks(wpb, bsm, p->maxcb, p->maxcw, &cb, &nitr);
	uint32_t ns = p->schedulers ? p->schedulers : 1;
	const uint32_t *blocks = s->core_blocks + s->core_first[core];
	for (uint32_t it = 0; it < nitr; it++) {
		uint32_t b0 = it * cb, b1 = b0 + cb < bsm ? b0 + cb : bsm;
		uint64_t L = 0; /* the wave's most instructions of a warp */
		for (uint32_t k = b0; k < b1; k++)
			for (uint32_t j = 0; j < wpb; j++) {
				uint32_t w = blocks[k] * wpb + j;
				uint64_t n = co->warp_instr_first[w + 1] - co->warp_instr_first[w];
				if (n > L)
					L = n;
			}
		for (uint64_t j = 0; j < L; j++)
			for (uint32_t k = b0; k < b1; k++)
				for (uint32_t g = 0; g < wpb; g += ns) {
					rc.gn = 0;
					for (uint32_t x = g; x < g + ns && x < wpb; x++)
						if (group_add(&rc, blocks[k] * wpb + x, x - g, j) < 0)
							goto done;
					if (!rc.gn)
						continue;
					int r = group_run(&rc);
					if (r) {
						rcode = r < 0 ? RD_ENOMEM : r;
						goto done;
					}
				}
	}
	/* the fills still in flight land (their rows in the log) */
	if (pc_fills(&rc.pc, UINT64_MAX, core) < 0)
		goto done;
	if (sim_progress(in, rc.issued - rc.reported)) {
		rcode = RD_ECANCELED;
		goto done;
	}
	if (rc.t > out->time)
		out->time = rc.t;
	rcode = RD_OK;
done:
	pc_free(&rc.pc);
	free(rc.mset_of);
	free(rc.port_used);
	free(rc.port_step);
	free(rc.bank_left);
	free(rc.g);
	free(rc.stk);
	free(rc.stk2);
	free(rc.show);
	return rcode;
}
