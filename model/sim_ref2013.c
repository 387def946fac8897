/*
 * Stages 3-4 for the "reference-2013" profile: the 2013 reference code's
 * time loop (tue-es/gpu-cache-model, src/model/reusedistance.cpp),
 * re-stated event by event so that its counts and histograms come out the
 * same on any trace (tests/test_reference.c checks them against
 * its outputs). Quirks kept on purpose, each marked "quirk":
 * see rdscope-model(7), MODEL PROFILES, for what each one changes.
 *
 * What is not kept is its cost: the reference scans every set every time
 * step; here only due requests and in-flight warps are touched, and idle
 * steps are skipped when nothing is due.
 */
#include "internal.h"
#include "stack_ops.h"

#include <stdlib.h>
#include <string.h>

enum { LANE_SKEW = 16 };
#define NOT_ON UINT32_MAX

/* A step's landings: hits and misses apart, each in insertion order. */
typedef struct rbucket {
	uint32_t *v[2]; /* [0]: hits' lines, [1]: misses' lines */
	uint32_t n[2], cap[2];
} rbucket;

typedef struct ref_state {
	const sim_input *in;
	const sim_params *p;
	sim_counts *out;
	rd_stack st;           /* exact distances (case 0), or a window (below) */
	int exact;
	rd_stack fa;           /* sim_params.shadow: fully associative shadow */
	rd_rng rng;
	rd_halfnormal latdist;
	uint64_t *cur;         /* per thread: its next load's index */
	/* per load a, at a + LANE_SKEW * its thread: its line, or NOT_ON
	 * (coalesced away); the coalescing's (co->lane_acc) or, owned, its own */
	const uint32_t *acc;
	uint32_t *acc_own;
	int draw;              /* latencies are drawn (sigma > 0) */
	uint8_t *outst;        /* per line: in the unique outstanding set */
	uint32_t nout;         /* size of that set (the reference's M) */
	rbucket *wheel;
	uint64_t wmask, pending;
	uint32_t *fifo;
	uint64_t fhead, ftail, fcap;
	wheap wq;              /* in-flight warps, by (ready step, warp id) */
	uint64_t issued;
} ref_state;

static inline __attribute__((always_inline)) int req_push(ref_state *rs, uint64_t at, uint32_t line, int miss)
{
	rbucket *b = &rs->wheel[at & rs->wmask];
	if (b->n[miss] == b->cap[miss]) {
		uint32_t *v = vec_grow(b->v[miss], &b->cap[miss], sizeof *v, 8);
		if (!v)
			return -1;
		b->v[miss] = v;
	}
	b->v[miss][b->n[miss]++] = line;
	rs->pending++;
	return 0;
}

/*
 * Case 0 keeps exact distances: its histogram is reported. Of the other
 * cases' histograms classify_ref2013 reads only the accesses never seen
 * (hist_inf) and those at distances above the ways (their sum); their
 * stacks keep instead a window of ways + 1 (stack_hit_inline's, without a
 * tree), which tells the distances below the ways (a hit), equal to them
 * (the window's oldest line when it is full) and above them (outside),
 * and their histograms hold only what is read: every distance above the
 * ways counted at ways + 1.
 */
static inline __attribute__((always_inline)) void ref_update(ref_state *rs, uint32_t line,
							     const int exact)
{
	if (exact)
		stack_update_as(&rs->st, line, 1, 0, 0);
	else
		stack_update_as(&rs->st, line, 0, 1, 0);
}

/* The distance of line (-1: never seen), or in window mode 0 for any
 * distance below the ways, the ways, or the ways + 1 for any above. */
static inline __attribute__((always_inline)) int64_t ref_distance(const ref_state *rs,
								   uint32_t line, const int exact)
{
	if (exact)
		return stack_distance_inline(&rs->st, line);
	const rd_stack *st = &rs->st;
	uint32_t p = st->ln[line].stamp;
	if (!p)
		return -1;
	const rd_set *S = &st->set[st->ln[line].set];
	if (p < S->bound)
		return (int64_t)st->window;
	return p == S->bound && S->inwin == st->window ? (int64_t)st->window - 1 : 0;
}

/*
 * Land everything due at t, as the reference's per-set loop does: sets in
 * ascending order, within a set its hits before its misses (quirk: not
 * issue order), each list in insertion order. A set's stack is apart from
 * every other set's (its own stamps, marks and tree) and the outstanding
 * set's count is a sum, so only the order within a set tells: all hits,
 * then all misses, each in insertion order, is that order.
 */
static inline __attribute__((always_inline)) void requests_process(ref_state *rs, uint64_t t,
								   const int exact)
{
	rbucket *b = &rs->wheel[t & rs->wmask];
	uint32_t nh = b->n[0], nm = b->n[1];
	if (!(nh | nm))
		return;
	b->n[0] = b->n[1] = 0;
	rs->pending -= nh + nm;
	const uint32_t *h = b->v[0], *m = b->v[1];
	for (uint32_t i = 0; i < nh; i++)
		ref_update(rs, h[i], exact);
	for (uint32_t i = 0; i < nm; i++) {
		uint32_t l = m[i];
		if (rs->outst[l]) {
			/* quirk: the first landing of a line empties its slot even
			 * if a duplicate request for it is still in flight */
			rs->outst[l] = 0;
			rs->nout--;
		}
		ref_update(rs, l, exact);
	}
}

static void ref_event(ref_state *rs, uint64_t T, uint32_t w, uint32_t t, uint64_t a, uint32_t set,
		      int64_t d, enum rd_outcome o, uint32_t lat, uint64_t eff, int fa_hit, uint32_t used0)
{
	const rd_kernel *k = rs->in->k;
	const rd_coal *co = rs->in->co;
	int cls = -1;
	if (o == RD_OUT_MISS)
		cls = d < 0 ? RD_CLASS_COMPULSORY
			    : fa_hit ? RD_CLASS_ASSOCIATIVITY : RD_CLASS_CAPACITY;
	rd_event ev = {
		.time = T,
		.core = 0,
		.block = w / rs->in->s->warps_per_block,
		.warp = w,
		.thread = t,
		.nthreads = 1,
		.instr = (uint32_t)(a - k->thread_first[t]),
		.addr = k->addr[a],
		.line = co->line_addr[co->load_line[a]],
		.set = rs->p->set_ids ? rs->p->set_ids[set] : set,
		.distance = d,
		.outcome = o,
		.cls = cls,
		.latency = lat,
		.effect_at = eff,
		.mshrs_used = rs->nout,
		.mshrs_before = used0,
		.level = 1,
	};
	rs->in->cb->event(rs->in->cb->ctx, &ev);
}

static inline void fifo_push(ref_state *rs, uint32_t w)
{
	rs->fifo[rs->ftail] = w;
	if (++rs->ftail == rs->fcap)
		rs->ftail = 0;
}

static inline uint32_t fifo_pop(ref_state *rs)
{
	uint32_t w = rs->fifo[rs->fhead];
	if (++rs->fhead == rs->fcap)
		rs->fhead = 0;
	return w;
}

/*
 * One pop of warp w at step T (the body of the reference's time loop).
 * exact: case 0 (ref_update), the only case with events, the shadow and
 * per-set counts; a constant, so the other cases' copy tests none of them.
 */
static inline __attribute__((always_inline)) int warp_step(ref_state *rs, uint32_t w, uint64_t T,
							    uint32_t M, int *retired,
							    const int exact)
{
	const rd_kernel *k = rs->in->k;
	const rd_sched *s = rs->in->s;
	const sim_params *p = rs->p;
	const uint64_t *first = k->thread_first;
	uint64_t *cur = rs->cur;
	const uint32_t *acc = rs->acc;
	int events = exact && p->record_events && rs->in->cb && rs->in->cb->event;
	int shadow = exact && p->shadow;
	int persets = exact && rs->out->nsets;
	uint32_t t0 = s->warp_t0[w], nt = s->warp_nt[w];
	/* quirk: lane 0's next access size sets the portions for all lanes */
	uint32_t bytes = cur[t0] < first[t0 + 1] ? k->bytes[cur[t0]] : 1;
	uint32_t portions = bytes / 4 ? bytes / 4 : 1;
	if (portions > s->warp_size)
		portions = s->warp_size; /* keeps warp sizes below 32 from stalling */
	uint32_t chunk = s->warp_size / portions;
	uint32_t maxlat = 0, done = 0;
	uint32_t ways = p->ways;
	/* the counts in registers while the lanes issue */
	uint64_t hits = 0, misses = 0, cancels = 0, assoc = 0;
	for (uint32_t po = 0; po < portions; po++) {
		uint32_t end = (po + 1) * chunk < nt ? (po + 1) * chunk : nt;
		for (uint32_t lane = po * chunk; lane < end; lane++) {
			uint32_t t = t0 + lane;
			uint64_t a = cur[t];
			if (a == first[t + 1]) {
				done++;
				continue;
			}
			cur[t] = a + 1;
			uint32_t l = acc[a + (uint64_t)t * LANE_SKEW];
			if (l == NOT_ON)
				continue;
			int64_t d = ref_distance(rs, l, exact);
			int fa_hit = shadow && stack_hit_inline(&rs->fa, l);
			uint32_t used0 = rs->nout;
			int miss = d < 0 || d >= ways;
			if (miss) {
				uint32_t lat = p->lat_miss;
				if (rs->draw) /* (no draw at all when sigma is 0) */
					lat += halfnormal_draw(&rs->latdist, &rs->rng);
				if (lat > maxlat)
					maxlat = lat;
				/* quirk: only lane 0 checks the MSHRs, against a count
				 * taken before the warp issued */
				if (p->mshrs && M >= p->mshrs && lane == 0) {
					cur[t] = a;
					maxlat = 0;
					cancels++;
					if (events)
						ref_event(rs, T, w, t, a, p->set_of[l], d, RD_OUT_CANCEL,
							  0, 0, 0, used0);
					break;
				}
				if (req_push(rs, T + lat, l, 1) < 0)
					return -1;
				if (!rs->outst[l]) {
					rs->outst[l] = 1;
					rs->nout++;
				}
				misses++;
				assoc += d >= 0 && fa_hit;
				if (events)
					ref_event(rs, T, w, t, a, p->set_of[l], d, RD_OUT_MISS, lat,
						  T + lat, fa_hit, used0);
			} else {
				if (req_push(rs, T + p->lat_hit, l, 0) < 0)
					return -1;
				hits++;
				if (events)
					ref_event(rs, T, w, t, a, p->set_of[l], d, RD_OUT_HIT,
						  p->lat_hit, T + p->lat_hit, 0, used0);
			}
			if (shadow)
				stack_update(&rs->fa, l);
			if (persets) {
				uint32_t set = p->set_of[l];
				rs->out->set_requests[set]++;
				rs->out->set_misses[set] += miss;
			}
			if ((exact || d < 0 || d > ways) && hist_add(rs->out, d) < 0)
				return -1;
		}
		requests_process(rs, T, exact);
	}
	rs->out->hits += hits;
	rs->out->misses += misses;
	rs->out->requests += hits + misses;
	rs->issued += hits + misses;
	rs->out->cancels += cancels;
	rs->out->assoc_access += assoc;
	*retired = 0;
	if (done == nt) {
		*retired = 1; /* quirk: found finished one pop after its last load */
		return 0;
	}
	if (maxlat == 0) {
		fifo_push(rs, w);
		return 0;
	}
	/* quirk: the countdown makes the warp re-enter at the end of step
	 * T + latency, one step later than the latency alone */
	return wheap_push(&rs->wq, T + maxlat, w, w);
}

/* The time loop over the groups of blocks: RD_OK, RD_ENOMEM or
 * RD_ECANCELED. */
static inline __attribute__((always_inline)) int ref_loop(ref_state *rs, const int exact)
{
	const rd_sched *s = rs->in->s;
	uint32_t b0 = s->core_first[0], nb = s->core_first[1] - b0;
	uint64_t T = 0, next_report = SIM_CHUNK, reported = 0;
	/* quirk: fixed consecutive groups of active blocks, each run to its
	 * end before the next starts; stack and time carry over */
	for (uint32_t g = 0; g < nb; g += s->active_blocks) {
		uint64_t size = 0, retired = 0;
		for (uint32_t i = g; i < g + s->active_blocks && i < nb; i++)
			for (uint32_t j = 0; j < s->warps_per_block; j++) {
				uint32_t w = s->core_blocks[b0 + i] * s->warps_per_block + j;
				if (!s->warp_nt[w])
					continue;
				fifo_push(rs, w);
				size++;
			}
		while (retired < size) {
			uint32_t M = rs->nout;
			if (rs->fhead != rs->ftail) {
				uint32_t w = fifo_pop(rs);
				int ret;
				if (warp_step(rs, w, T, M, &ret, exact) < 0)
					return RD_ENOMEM;
				retired += ret;
			} else if (!rs->pending && rs->wq.n && rs->wq.v[0].at > T) {
				T = rs->wq.v[0].at; /* nothing happens until then */
			}
			requests_process(rs, T, exact);
			while (wheap_due(&rs->wq, T))
				fifo_push(rs, wheap_pop(&rs->wq).w);
			T++;
			if (rs->issued >= next_report) {
				next_report += SIM_CHUNK;
				uint64_t delta = rs->issued - reported;
				reported = rs->issued;
				if (sim_progress(rs->in, delta))
					return RD_ECANCELED;
			}
		}
	}
	rs->out->time = T;
	return RD_OK;
}

/* Case 0's copy inlines the exact stack's operations: compiled per CPU
 * variant as the stack's own (HOT_CLONES). */
static HOT_CLONES int ref_loop_exact(ref_state *rs)
{
	return ref_loop(rs, 1);
}

static int ref_loop_window(ref_state *rs)
{
	return ref_loop(rs, 0);
}

/*
 * The lanes' lines in one array, each thread's run shifted by LANE_SKEW
 * entries (64 bytes) from the last: a warp's lanes read 32 threads' runs
 * at once, and runs of 1024 loads (4 KiB apart, as k's and co's arrays
 * have them) would all fall in one set of the CPU's L1 cache.
 */
static uint32_t *acc_build(const rd_kernel *k, const rd_coal *co, uint32_t nthreads)
{
	uint64_t n = k->thread_first[nthreads] + (uint64_t)nthreads * LANE_SKEW;
	uint32_t *acc = malloc((n ? n : 1) * sizeof *acc);
	if (!acc)
		return NULL;
	for (uint32_t t = 0; t < nthreads; t++) {
		uint32_t *o = acc + (uint64_t)t * LANE_SKEW;
		for (uint64_t a = k->thread_first[t]; a < k->thread_first[t + 1]; a++)
			/* (without a branch: an off load's line, which may never
			 * have been written, is masked whole) */
			o[a] = co->load_line[a] | ((uint32_t)co->load_on[a] - 1);
	}
	return acc;
}

/* Built once, not per case: 4 bytes a load, a page fault every 1,024 of
 * them (the Figure 3 copy: four 4 MB arrays, a case each, 4,000 of its
 * 9,000 faults). */
int ref2013_lanes(rd_coal *co, const rd_kernel *k, uint32_t nthreads)
{
	if (!co->lane_acc)
		co->lane_acc = acc_build(k, co, nthreads);
	return co->lane_acc ? 0 : -1;
}

static void ref_free(ref_state *rs)
{
	stack_free(&rs->st);
	stack_free(&rs->fa);
	halfnormal_free(&rs->latdist);
	free(rs->cur);
	free(rs->acc_own);
	free(rs->outst);
	if (rs->wheel)
		for (uint64_t i = 0; i <= rs->wmask; i++) {
			free(rs->wheel[i].v[0]);
			free(rs->wheel[i].v[1]);
		}
	free(rs->wheel);
	free(rs->fifo);
	wheap_free(&rs->wq);
}

int sim_ref2013(const sim_input *in, const sim_params *p, sim_counts *out)
{
	const rd_kernel *k = in->k;
	const rd_sched *s = in->s;
	const rd_coal *co = in->co;
	ref_state rs = {.in = in, .p = p, .out = out};
	int rc = RD_ENOMEM;
	/* quirk: blocks are dealt to cores, but only core 0 is simulated.
	 * Each request updates its set's stack once, when it lands: core 0's
	 * row of set_cap (its requests per set, a request per leading lane
	 * here) sizes the stacks. */
	const uint32_t *cap = p->set_cap;
	rs.exact = p->case_id == RD_CASE_FULL;
	int src = stack_init(&rs.st, p->nsets, cap, co->nlines ? co->nlines : 1, p->set_of,
			     rs.exact ? 0 : p->ways + 1, rs.exact);
	uint32_t fa_cap = 0; /* the shadow's updates: every access the sets see */
	for (uint32_t i = 0; i < p->nsets; i++)
		cap_add(&fa_cap, cap[i]);
	if (!src && p->shadow)
		src = stack_init(&rs.fa, 1, &fa_cap, co->nlines ? co->nlines : 1, p->shadow_set_of,
				 p->sets * p->ways, 0);
	if (src)
		goto out;
	rs.cur = malloc((s->nthreads ? s->nthreads : 1) * sizeof *rs.cur);
	if (rs.cur)
		memcpy(rs.cur, k->thread_first, s->nthreads * sizeof *rs.cur);
	rs.draw = p->sigma > 0;
	rs.outst = calloc(co->nlines ? co->nlines : 1, 1);
	uint64_t maxlat = p->lat_miss + (uint64_t)(8.0 * p->sigma) + 2;
	if (p->lat_hit > maxlat)
		maxlat = p->lat_hit;
	uint64_t wn = 1;
	while (wn <= maxlat + 1)
		wn <<= 1;
	rs.wmask = wn - 1;
	rs.wheel = calloc(wn, sizeof *rs.wheel);
	rs.fcap = (uint64_t)s->active_blocks * s->warps_per_block + 1;
	rs.fifo = malloc(rs.fcap * sizeof *rs.fifo);
	if (co->lane_acc)
		rs.acc = co->lane_acc;
	else if (rs.cur && !(rs.acc = rs.acc_own = acc_build(k, co, s->nthreads)))
		goto out;
	if (!rs.cur || !rs.outst || !rs.wheel || !rs.fifo)
		goto out;
	if (p->record_events && counts_sets(out, p->nsets) < 0)
		goto out;
	rng_seed(&rs.rng, p->seed, 0);
	if (halfnormal_init(&rs.latdist, p->sigma) < 0)
		goto out;
	rc = rs.exact ? ref_loop_exact(&rs) : ref_loop_window(&rs);
out:
	ref_free(&rs);
	return rc;
}
