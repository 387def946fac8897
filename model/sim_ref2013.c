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

typedef struct req {
	uint32_t line, set;
	uint8_t miss;
} req;

typedef struct rbucket {
	req *v;
	uint32_t n, cap;
} rbucket;

typedef struct ref_state {
	const sim_input *in;
	const sim_params *p;
	sim_counts *out;
	rd_stack st;
	rd_stack fa;           /* sim_params.shadow: fully associative shadow */
	rd_rng rng;
	rd_halfnormal latdist;
	uint32_t *pc;          /* per thread: next load index */
	uint8_t *outst;        /* per line: in the unique outstanding set */
	uint32_t nout;         /* size of that set (the reference's M) */
	rbucket *wheel;
	uint64_t wmask, pending;
	uint64_t *sortbuf;     /* requests_process's order */
	uint32_t sortcap;
	uint32_t *fifo;
	uint64_t fhead, ftail, fcap;
	wheap wq;              /* in-flight warps, by (ready step, warp id) */
	uint64_t issued;
} ref_state;

static int req_push(ref_state *rs, uint64_t at, uint32_t line, uint32_t set, uint8_t miss)
{
	rbucket *b = &rs->wheel[at & rs->wmask];
	if (b->n == b->cap) {
		req *v = vec_grow(b->v, &b->cap, sizeof *v, 8);
		if (!v)
			return -1;
		b->v = v;
	}
	b->v[b->n++] = (req){line, set, miss};
	rs->pending++;
	return 0;
}

/*
 * Land everything due at t, as the reference's per-set loop does: sets in
 * ascending order, within a set its hits before its misses (quirk: not
 * issue order), each list in insertion order. The order is sorted as
 * 64-bit words, (set, miss) in the top 33 bits above the position (a
 * step's requests are fewer than 2^31): the position makes every word
 * distinct, so the sort is stable, and a word moves in one register (a
 * step's requests are a few dozen: insertion sort; more: qsort).
 */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static int requests_process(ref_state *rs, uint64_t t)
{
	rbucket *b = &rs->wheel[t & rs->wmask];
	uint32_t n = b->n;
	if (!n)
		return 0;
	if (n > rs->sortcap) {
		uint64_t *o = realloc(rs->sortbuf, n * sizeof *o);
		if (!o)
			return -1;
		rs->sortbuf = o;
		rs->sortcap = n;
	}
	uint64_t *o = rs->sortbuf;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t w = (((uint64_t)b->v[i].set << 1 | b->v[i].miss) << 31) | i;
		if (n > 64) {
			o[i] = w;
			continue;
		}
		uint32_t j = i;
		while (j && o[j - 1] > w) {
			o[j] = o[j - 1];
			j--;
		}
		o[j] = w;
	}
	if (n > 64)
		qsort(o, n, sizeof *o, cmp_u64);
	const req *v = b->v;
	b->n = 0;
	rs->pending -= n;
	for (uint32_t i = 0; i < n; i++) {
		const req *q = &v[o[i] & 0x7fffffff];
		if (q->miss && rs->outst[q->line]) {
			/* quirk: the first landing of a line empties its slot even
			 * if a duplicate request for it is still in flight */
			rs->outst[q->line] = 0;
			rs->nout--;
		}
		stack_update(&rs->st, q->line);
	}
	return 0;
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

/* One pop of warp w at step T (the body of the reference's time loop). */
static int warp_step(ref_state *rs, uint32_t w, uint64_t T, uint32_t M, int *retired)
{
	const rd_kernel *k = rs->in->k;
	const rd_sched *s = rs->in->s;
	const rd_coal *co = rs->in->co;
	const sim_params *p = rs->p;
	int events = p->record_events && rs->in->cb && rs->in->cb->event;
	uint32_t t0 = s->warp_t0[w], nt = s->warp_nt[w];
	uint64_t n0 = k->thread_first[t0 + 1] - k->thread_first[t0];
	/* quirk: lane 0's next access size sets the portions for all lanes */
	uint32_t bytes = rs->pc[t0] < n0 ? k->bytes[k->thread_first[t0] + rs->pc[t0]] : 1;
	uint32_t portions = bytes / 4 ? bytes / 4 : 1;
	if (portions > s->warp_size)
		portions = s->warp_size; /* keeps warp sizes below 32 from stalling */
	uint32_t chunk = s->warp_size / portions;
	uint32_t maxlat = 0, done = 0;
	for (uint32_t po = 0; po < portions; po++) {
		for (uint32_t lane = po * chunk; lane < (po + 1) * chunk && lane < nt; lane++) {
			uint32_t t = t0 + lane;
			uint64_t n = k->thread_first[t + 1] - k->thread_first[t];
			if (rs->pc[t] == n) {
				done++;
				continue;
			}
			uint64_t a = k->thread_first[t] + rs->pc[t]++;
			if (!co->load_on[a])
				continue;
			uint32_t l = co->load_line[a], set = p->set_of[l];
			int64_t d = stack_distance(&rs->st, l);
			int fa_hit = p->shadow && stack_hit_inline(&rs->fa, l);
			uint32_t used0 = rs->nout;
			if (d < 0 || d >= p->ways) {
				uint32_t lat = p->lat_miss + halfnormal_draw(&rs->latdist, &rs->rng);
				if (lat > maxlat)
					maxlat = lat;
				/* quirk: only lane 0 checks the MSHRs, against a count
				 * taken before the warp issued */
				if (p->mshrs && M >= p->mshrs && lane == 0) {
					rs->pc[t]--;
					maxlat = 0;
					rs->out->cancels++;
					if (events)
						ref_event(rs, T, w, t, a, set, d, RD_OUT_CANCEL, 0, 0, 0, used0);
					break;
				}
				if (req_push(rs, T + lat, l, set, 1) < 0)
					return -1;
				if (!rs->outst[l]) {
					rs->outst[l] = 1;
					rs->nout++;
				}
				rs->out->misses++;
				rs->out->assoc_access += d >= 0 && fa_hit;
				if (events)
					ref_event(rs, T, w, t, a, set, d, RD_OUT_MISS, lat, T + lat,
						  fa_hit, used0);
			} else {
				if (req_push(rs, T + p->lat_hit, l, set, 0) < 0)
					return -1;
				rs->out->hits++;
				if (events)
					ref_event(rs, T, w, t, a, set, d, RD_OUT_HIT, p->lat_hit,
						  T + p->lat_hit, 0, used0);
			}
			if (p->shadow)
				stack_update(&rs->fa, l);
			rs->out->requests++;
			if (rs->out->nsets) {
				rs->out->set_requests[set]++;
				rs->out->set_misses[set] += d < 0 || d >= p->ways;
			}
			rs->issued++;
			if (hist_add(rs->out, d) < 0)
				return -1;
		}
		if (requests_process(rs, T) < 0)
			return -1;
	}
	*retired = 0;
	if (done == nt) {
		*retired = 1; /* quirk: found finished one pop after its last load */
		return 0;
	}
	if (maxlat == 0) {
		rs->fifo[rs->ftail++ % rs->fcap] = w;
		return 0;
	}
	/* quirk: the countdown makes the warp re-enter at the end of step
	 * T + latency, one step later than the latency alone */
	return wheap_push(&rs->wq, T + maxlat, w, w);
}

static void ref_free(ref_state *rs)
{
	stack_free(&rs->st);
	stack_free(&rs->fa);
	halfnormal_free(&rs->latdist);
	free(rs->pc);
	free(rs->outst);
	if (rs->wheel)
		for (uint64_t i = 0; i <= rs->wmask; i++)
			free(rs->wheel[i].v);
	free(rs->wheel);
	free(rs->sortbuf);
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
	/* quirk: blocks are dealt to cores, but only core 0 is simulated */
	uint32_t b0 = s->core_first[0], nb = s->core_first[1] - b0;
	uint32_t *cap = calloc(p->nsets ? p->nsets : 1, sizeof *cap);
	if (!cap)
		goto out;
	for (uint32_t i = 0; i < nb; i++)
		for (uint32_t j = 0; j < s->warps_per_block; j++) {
			uint32_t w = s->core_blocks[b0 + i] * s->warps_per_block + j;
			for (uint32_t t = s->warp_t0[w]; t < s->warp_t0[w] + s->warp_nt[w]; t++)
				for (uint64_t a = k->thread_first[t]; a < k->thread_first[t + 1]; a++)
					if (co->load_on[a])
						cap[p->set_of[co->load_line[a]]]++;
		}
	int src = stack_init(&rs.st, p->nsets, cap, co->nlines ? co->nlines : 1, p->set_of, 0, 1);
	uint32_t fa_cap = 0; /* the shadow's updates: every access the sets see */
	for (uint32_t i = 0; i < p->nsets; i++)
		fa_cap += cap[i];
	if (!src && p->shadow)
		src = stack_init(&rs.fa, 1, &fa_cap, co->nlines ? co->nlines : 1, p->shadow_set_of,
				 p->sets * p->ways, 0);
	free(cap);
	if (src)
		goto out;
	rs.pc = calloc(s->nthreads ? s->nthreads : 1, sizeof *rs.pc);
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
	if (!rs.pc || !rs.outst || !rs.wheel || !rs.fifo)
		goto out;
	if (p->record_events && counts_sets(out, p->nsets) < 0)
		goto out;
	rng_seed(&rs.rng, p->seed, 0);
	if (halfnormal_init(&rs.latdist, p->sigma) < 0)
		goto out;

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
				rs.fifo[rs.ftail++ % rs.fcap] = w;
				size++;
			}
		while (retired < size) {
			uint32_t M = rs.nout;
			if (rs.fhead != rs.ftail) {
				uint32_t w = rs.fifo[rs.fhead++ % rs.fcap];
				int ret;
				if (warp_step(&rs, w, T, M, &ret) < 0)
					goto out;
				retired += ret;
			} else if (!rs.pending && rs.wq.n && rs.wq.v[0].at > T) {
				T = rs.wq.v[0].at; /* nothing happens until then */
			}
			if (requests_process(&rs, T) < 0)
				goto out;
			while (wheap_due(&rs.wq, T))
				rs.fifo[rs.ftail++ % rs.fcap] = wheap_pop(&rs.wq).w;
			T++;
			if (rs.issued >= next_report) {
				next_report += SIM_CHUNK;
				uint64_t delta = rs.issued - reported;
				reported = rs.issued;
				if (sim_progress(in, delta)) {
					rc = RD_ECANCELED;
					goto out;
				}
			}
		}
	}
	out->time = T;
	rc = RD_OK;
out:
	ref_free(&rs);
	return rc;
}
