/*
 * The rd_model object: caches each pipeline stage's output keyed by the
 * parameters it depends on, runs the model's cases (on several threads if
 * allowed), and hands their counts to the classify stage (classify.c).
 *
 *   schedule  <- gpu.warp_size, gpu.cores, gpu.max_threads,
 *                gpu.max_active_*, gpu.block_mapping (+ seed if random)
 *   coalesce  <- schedule, l1.line, the arrays outside global memory
 *   spaces    <- schedule, mem.*, tex.*, const.*, smem.*, l1.line (each run
 *                with placements; one pass over the loads)
 *   set index <- coalesce, l1.hash, sets, model (the Fermi variants)
 *   simulate  <- per case: everything else; a case whose parameters and
 *                stages are unchanged since its last run is reused
 */
#include "internal.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>

/* Results kept per case (each a histogram and, for case 0, per-set counts). */
#define MEMO_WAYS 4
/* Up to this many sets (or as many as the trace has lines) the sets keep
 * the configuration's numbering; beyond, the used ones are numbered densely. */
#define SETS_DENSE_MIN 65536u

struct rd_model {
	const rd_kernel *k;
	uint64_t stage_runs[RD_NSTAGES]; /* rd_model_stage_runs (L1: case_runs) */
	uint64_t case_runs[RD_NCASES];   /* each touched by its case's thread only */
	int have_sched;
	rd_config sched_key;
	rd_sched sched;
	int have_coal;
	rd_config coal_key;
	uint8_t *coal_skip;  /* [narrays] the coalesced arrays left out, or NULL */
	rd_coal coal;
	int have_sets;
	rd_config sets_key;
	uint32_t *set_of;   /* [nlines] dense set of each line (sim_params) */
	uint32_t nsets;     /* sets the lines use, densely numbered */
	uint32_t *set_ids;  /* [nsets] their indices, or NULL: the identity */
	uint32_t nsites;    /* rd_kernel_nsites, for per-site runs (0: not yet) */
	uint32_t *zeros; /* set index of every line in the fully associative case */
	uint32_t *set_cap;  /* [cores * sets]: sim_params.set_cap */
	uint32_t *core_cap; /* [cores]: the same for the fully associative case */
	/* model=rdgc with banks: each line's bank, and the fully associative
	 * case's caps per core and bank (its sets are the banks) */
	uint32_t *bank_of;
	uint32_t *bank_cap;
	uint32_t nbanks;
	/* The serial of case 0's counts (each run or kept result has its
	 * own), and the L2 stage's last result: rerun only when its keys or
	 * case 0's counts change */
	uint64_t serial, case0_serial;
	const sim_counts *case0_src; /* where case 0's stream is (a kept result), or NULL */
	int have_l2;
	rd_config l2_key;
	uint64_t l2_serial;
	rd_level l2;
	l2_cache *l2cache;  /* the L2's merged stream, kept */
	uint64_t l2_gen;    /* L2 runs so far (which one made dram_in) */
	/* DRAM: its input (what leaves the last cache level; l2s of dram_in,
	 * lines of dram_in_line bytes) and where it came from (1: case 0's
	 * stream of serial dram_in_src; 2: L2 run dram_in_src; 0: none),
	 * rebuilt generation dram_in_gen; and the stage's last result, kept
	 * while its keys and input are the same */
	sim_counts dram_in;
	uint32_t dram_in_line;
	int dram_in_from;
	uint64_t dram_in_src, dram_in_gen;
	int have_dram;
	rd_config dram_key;
	uint64_t dram_key_gen;
	rd_dram dram;
	int threads;     /* threads a run may use for its cases */
	int no_memo;     /* one run only (a part of rd_parts): keep no results */
	int spend;       /* k's accesses freed once coalesced (rd_parts_add_spent) */
	int spend_stream; /* run_report frees case 0's records once streamed (rd_parts_finish) */
	uint64_t spill_at; /* a part's: what leaves its L1s spilled past this (rd_parts_set_spill) */
	/* a part streamed (rd_parts_add_stream): its accesses' source and its
	 * lines' map (coal has the lines only), else NULL */
	const rd_access_src *src;
	linemap *src_map;
	const uint64_t *src_line_req; /* ... and each line's requests */
	/* Each case's last few results: a run whose case has the same
	 * parameters over the same stages reuses it (an edit changes 1-3 of 4
	 * cases; stepping a value back and forth, or the explorer's
	 * speculative runs, revisit recent ones). The generations count
	 * rebuilds of the stages a case reads. */
	uint64_t gen_coal, gen_sets;
	uint64_t memo_clock[RD_NCASES]; /* per case: cases run on their own threads */
	struct case_memo {
		int valid;
		sim_params key; /* pointers cleared */
		enum rd_profile model;
		uint64_t gen_coal, gen_sets;
		uint64_t used;  /* clock of the last hit or store: LRU */
		uint64_t serial;
		sim_counts counts;
	} memo[RD_NCASES][MEMO_WAYS];
};

static void level_free(rd_level *l);

rd_model *rd_model_new(const rd_kernel *k)
{
	rd_model *m = calloc(1, sizeof *m);
	if (m) {
		m->k = k;
		m->threads = 1;
	}
	return m;
}

void rd_model_free(rd_model *m)
{
	if (!m)
		return;
	if (m->have_sched)
		sched_free(&m->sched);
	if (m->have_coal)
		coal_free(&m->coal);
	free(m->coal_skip);
	for (int i = 0; i < RD_NCASES; i++)
		for (int j = 0; j < MEMO_WAYS; j++)
			counts_free(&m->memo[i][j].counts);
	free(m->set_of);
	free(m->set_ids);
	free(m->zeros);
	free(m->set_cap);
	free(m->core_cap);
	free(m->bank_of);
	free(m->bank_cap);
	level_free(&m->l2);
	l2_cache_free(m->l2cache);
	counts_free(&m->dram_in);
	free(m);
}

/*
 * What a stage reads of c: its keys are its rows' (rd_keys[].stages); a
 * stage that reads only part of a key's value sees c with the rest set
 * aside, so that an edit it cannot see keeps its result.
 */
static rd_config stage_view(const rd_config *c, enum rd_stage s)
{
	rd_config v = *c;
	switch (s) {
	case RD_STAGE_SCHED: /* the reference's order or not; the seed for random
			      * mapping; whether stores are scheduled */
	case RD_STAGE_COAL:
		v.model = c->model == RD_PROFILE_REF2013 ? RD_PROFILE_REF2013 : RD_PROFILE_PAPER;
		v.stores = c->stores == RD_STORES_IGNORE ? RD_STORES_IGNORE : RD_STORES_ALLOCATE;
		if (c->block_mapping != RD_MAP_RANDOM)
			v.seed = 0;
		if (s == RD_STAGE_COAL) /* (a coalescing with lanes serves both) */
			v.model = RD_PROFILE_PAPER;
		break;
	case RD_STAGE_SETS: /* banks split the sets under rdgc only */
		if (c->model != RD_PROFILE_RDGC)
			v.l1_banks = 1;
		break;
	case RD_STAGE_L2: /* the seed for random replacement */
		if (c->l2_replacement != RD_REPL_RANDOM)
			v.seed = 0;
		break;
	default:
		break;
	}
	return v;
}

/* Do a and b give stage s the same result over the same input? */
static int stage_same(const rd_config *a, const rd_config *b, enum rd_stage s)
{
	rd_config va = stage_view(a, s), vb = stage_view(b, s);
	return rd_config_same(&va, &vb, RD_STAGE_BIT(s));
}

/* Ask the caller's progress callback whether to stop (between stages). */
static int stage_cancelled(const rd_callbacks *cb)
{
	return cb && cb->progress && cb->progress(cb->ctx, 0.0);
}

/* Each request updates its set's stack once: the stacks are sized by the
 * requests each core sends each set (at most: a set with many more
 * requests than lines renumbers its stamps, stack_compact), counted up to
 * UINT32_MAX (a core's 4 G requests to one set would wrap a count, and
 * undersize its stack). A pass over all requests with a random lookup per
 * request, so done with the set index, not per run. */
static int caps_build(rd_model *m)
{
	uint32_t sets = m->nsets ? m->nsets : 1;
	const rd_sched *s = &m->sched;
	const rd_coal *co = &m->coal;
	free(m->set_cap);
	free(m->core_cap);
	m->set_cap = calloc((size_t)s->ncores * sets, sizeof *m->set_cap);
	m->core_cap = calloc(s->ncores, sizeof *m->core_cap);
	free(m->bank_cap);
	m->bank_cap = m->bank_of ? calloc((size_t)s->ncores * m->nbanks, sizeof *m->bank_cap) : NULL;
	if (!m->set_cap || !m->core_cap || (m->bank_of && !m->bank_cap))
		return -1;
	if (m->src) { /* streamed: the part's requests per line, one core's */
		uint32_t core = 0;
		while (core + 1 < s->ncores && s->core_first[core] == s->core_first[core + 1])
			core++;
		uint32_t *cap = m->set_cap + (size_t)core * sets;
		for (uint32_t l = 0; l < m->coal.nlines; l++) {
			cap_add(&cap[m->set_of[l]], m->src_line_req[l]);
			if (m->bank_of)
				cap_add(&m->bank_cap[(size_t)core * m->nbanks + m->bank_of[l]],
					m->src_line_req[l]);
			cap_add(&m->core_cap[core], m->src_line_req[l]);
		}
		return 0;
	}
	/* One core with every block (a CPU's stream, a one-block kernel):
	 * its stacks are sized by their room (stack_init: STACK_ROOM times a
	 * set's lines and ways), which its counts could lower only for a set
	 * with fewer requests than that, by at most STACK_ROOM bits a line
	 * and a way and STACK_SLACK a set; so no pass over the requests,
	 * serial beside the cores' coalescing (paired medians
	 * of 7 without it: issue 23's stream 0.92x at 10 M and 0.86x at 1 M,
	 * the random 64 MiB stream 0.89x, the same peak memory). */
	uint32_t used = 0, only = 0;
	for (uint32_t core = 0; core < s->ncores; core++)
		if (s->core_first[core] < s->core_first[core + 1]) {
			used++;
			only = core;
		}
	int whole = used == 1 && !m->bank_of;
	if (whole)
		for (uint32_t i = 0; i < sets; i++)
			m->set_cap[(size_t)only * sets + i] = UINT32_MAX;
	for (uint32_t core = 0; core < s->ncores; core++) {
		uint32_t *cap = m->set_cap + (size_t)core * sets;
		for (uint32_t i = s->core_first[core]; i < s->core_first[core + 1]; i++)
			for (uint32_t j = 0; j < s->warps_per_block; j++) {
				uint32_t w = s->core_blocks[i] * s->warps_per_block + j;
				uint64_t r0 = coal_req_first(co, co->warp_instr_first[w]);
				uint64_t r1 = coal_req_first(co, co->warp_instr_first[w + 1]);
				for (uint64_t r = r0; r < r1 && !whole; r++)
					cap_add(&cap[m->set_of[co->req[r].line]], 1);
				if (m->bank_of)
					for (uint64_t r = r0; r < r1; r++)
						cap_add(&m->bank_cap[(size_t)core * m->nbanks +
								     m->bank_of[co->req[r].line]],
							1);
				cap_add(&m->core_cap[core], r1 - r0);
			}
	}
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* Number the sets the lines use densely when the configuration has many
 * more sets than there are lines (memory proportional to what the input
 * touches: a cache of 2^26 one-byte lines over an 8-access trace keeps 8
 * stacks). Otherwise the numbering stays the configuration's own: no
 * sort on the common path, and results are unchanged. 0 or -1 (memory). */
static int sets_compact(rd_model *m, uint32_t sets)
{
	uint32_t nl = m->coal.nlines;
	free(m->set_ids);
	m->set_ids = NULL;
	m->nsets = sets;
	if (sets <= SETS_DENSE_MIN || sets <= nl)
		return 0;
	uint32_t *ids = malloc((nl ? nl : 1) * sizeof *ids);
	if (!ids)
		return -1;
	memcpy(ids, m->set_of, (size_t)nl * sizeof *ids);
	qsort(ids, nl, sizeof *ids, cmp_u32);
	uint32_t n = 0;
	for (uint32_t i = 0; i < nl; i++)
		if (n == 0 || ids[n - 1] != ids[i])
			ids[n++] = ids[i];
	for (uint32_t l = 0; l < nl; l++) { /* the set's rank among the used */
		uint32_t lo = 0, hi = n;
		while (hi - lo > 1) {
			uint32_t mid = lo + (hi - lo) / 2;
			if (ids[mid] <= m->set_of[l])
				lo = mid;
			else
				hi = mid;
		}
		m->set_of[l] = lo;
	}
	uint32_t *fit = realloc(ids, (n ? n : 1) * sizeof *ids);
	m->set_ids = fit ? fit : ids;
	m->nsets = n;
	return 0;
}

/* Is skip (narrays entries, or NULL) the coalesce stage's? */
static int skip_same(const rd_model *m, const uint8_t *skip)
{
	uint32_t n = m->k->arrays ? m->k->arrays->n : 0;
	if (!skip || !m->coal_skip)
		return !skip && !m->coal_skip;
	return memcmp(skip, m->coal_skip, n) == 0;
}

/* skip: per array of the kernel, nonzero when its accesses are not the
 * L1's (a memory space other than global), or NULL for none. */
static int stages_prepare(rd_model *m, const rd_config *c, const uint8_t *skip,
			  const rd_callbacks *cb)
{
	int rc;
	if (!m->have_sched || !stage_same(&m->sched_key, c, RD_STAGE_SCHED)) {
		if (m->have_sched)
			sched_free(&m->sched);
		if (m->have_coal)
			coal_free(&m->coal);
		m->have_sched = m->have_coal = m->have_sets = 0;
		if ((rc = sched_build(&m->sched, m->k, c)))
			return rc;
		m->have_sched = 1;
		m->gen_coal++;
		m->sched_key = *c;
		m->stage_runs[RD_STAGE_SCHED]++;
	}
	int lanes = c->model == RD_PROFILE_REF2013;
	if (!m->have_coal || !stage_same(&m->coal_key, c, RD_STAGE_COAL) ||
	    (lanes && !m->coal.load_line) || !skip_same(m, skip)) {
		if (m->have_coal)
			coal_free(&m->coal);
		m->have_coal = m->have_sets = 0;
		free(m->coal_skip);
		m->coal_skip = NULL;
		if (stage_cancelled(cb))
			return RD_ECANCELED;
		coal_skip cs = {m->k->arrays, skip};
		if ((rc = coal_build_sect(&m->coal, m->k, &m->sched, c->l1_line, c->l1_sector, lanes,
					  c->stores != RD_STORES_IGNORE, skip ? &cs : NULL, cb,
					  m->threads, m->spend)))
			return rc;
		if (skip) {
			size_t n = m->k->arrays->n;
			if (!(m->coal_skip = malloc(n ? n : 1)))
				return RD_ENOMEM;
			memcpy(m->coal_skip, skip, n);
		}
		m->have_coal = 1;
		m->gen_coal++;
		m->coal_key = *c;
		m->stage_runs[RD_STAGE_COAL]++;
		free(m->zeros);
		m->zeros = calloc(m->coal.nlines ? m->coal.nlines : 1, sizeof *m->zeros);
		if (!m->zeros)
			return RD_ENOMEM;
	}
	if (stage_cancelled(cb))
		return RD_ECANCELED;
	uint32_t sets = rd_config_sets(c);
	uint32_t banks = c->model == RD_PROFILE_RDGC ? c->l1_banks : 1;
	if (!m->have_sets || !stage_same(&m->sets_key, c, RD_STAGE_SETS)) {
		free(m->set_of);
		free(m->bank_of);
		m->bank_of = NULL;
		m->nbanks = banks;
		m->set_of = calloc(m->coal.nlines ? m->coal.nlines : 1, sizeof *m->set_of);
		if (!m->set_of)
			return RD_ENOMEM;
		if (banks > 1) {
			/* bank = line mod banks; the set within it from the rest */
			uint32_t spb = sets / banks;
			uint32_t pr = c->l1_hash == RD_HASH_PRIME ? rd_hash_prime(spb) : 1;
			m->bank_of = malloc((m->coal.nlines ? m->coal.nlines : 1) * sizeof *m->bank_of);
			if (!m->bank_of)
				return RD_ENOMEM;
			for (uint32_t i = 0; i < m->coal.nlines; i++) {
				uint64_t a = m->coal.line_addr[i];
				m->bank_of[i] = (uint32_t)(a % banks);
				m->set_of[i] = m->bank_of[i] * spb + set_index_p(c, spb, pr, a / banks);
			}
		} else {
			uint32_t pr = c->l1_hash == RD_HASH_PRIME ? rd_hash_prime(sets) : 1;
			for (uint32_t i = 0; i < m->coal.nlines; i++)
				m->set_of[i] = set_index_p(c, sets, pr, m->coal.line_addr[i]);
		}
		if (sets_compact(m, sets) < 0 || caps_build(m) < 0)
			return RD_ENOMEM;
		m->have_sets = 1;
		m->gen_sets++;
		m->stage_runs[RD_STAGE_SETS]++;
		m->sets_key = *c;
	}
	return RD_OK;
}

void rd_model_stage_runs(const rd_model *m, uint64_t runs[RD_NSTAGES])
{
	for (int s = 0; s < RD_NSTAGES; s++)
		runs[s] = m->stage_runs[s];
	runs[RD_STAGE_L1] = 0;
	for (int i = 0; i < RD_NCASES; i++)
		runs[RD_STAGE_L1] += m->case_runs[i];
}

void rd_model_set_threads(rd_model *m, int n)
{
	m->threads = n < 1 ? 1 : n > RD_NCASES ? RD_NCASES : n;
}

static void params_for_case(sim_params *p, const rd_config *c, const rd_model *m, int cs,
			    int events)
{
	memset(p, 0, sizeof *p);
	p->sets = rd_config_sets(c);
	p->ways = c->l1_ways;
	p->nsets = m->nsets;
	p->set_ids = m->set_ids;
	p->set_of = m->set_of;
	p->set_cap = m->set_cap;
	p->lat_hit = c->latency_hit;
	p->lat_miss = c->latency_miss;
	p->sigma = c->latency_stddev;
	p->mshrs = c->l1_mshrs;
	p->per_warp = c->l1_mshr_per_warp;
	p->clip = c->latency_clip;
	p->divergence = c->divergence;
	p->seed = c->seed;
	p->record_events = cs == RD_CASE_FULL;
	p->repl = c->replacement;
	p->stores = c->stores;
	p->bypass = c->loads == RD_LOADS_BYPASS;
	p->alloc_miss = c->l1_allocate == RD_ALLOC_MISS;
	p->sector = c->l1_sector != 0 && cs == RD_CASE_FULL; /* (reported of case 0 only) */
	p->gto = c->scheduler_policy == RD_SCHED_GTO;
	p->case_id = cs;
	/* per-access labels: for the totals, or for the events' labels */
	p->shadow = cs == RD_CASE_FULL && (c->classes == RD_CLASSES_PER_ACCESS || events);
	if (p->shadow) {
		p->shadow_set_of = m->zeros;
		p->shadow_cap = m->core_cap;
		if (c->model == RD_PROFILE_RDGC && m->bank_of) { /* one shadow per bank */
			p->shadow_set_of = m->bank_of;
			p->shadow_cap = m->bank_cap;
		}
	}
	/* The paper profile classifies cases 1-3 by their miss counts only;
	 * the reference's arithmetic reads of cases 1-3's histograms the
	 * never-seen count and the distances past the ways, which
	 * sim_ref2013 keeps without exact distances (a window of ways + 1):
	 * need_hist asks it for them. */
	p->need_hist = cs == RD_CASE_FULL || c->model == RD_PROFILE_REF2013;
	p->emit = cs == RD_CASE_FULL && (c->l2_size > 0 || c->dram_enable);
	p->emit_sect = p->emit && c->l2_size > 0 && c->l2_sector != 0;
	if (c->model == RD_PROFILE_RDGC) {
		p->rdgc = 1;
		p->bank_of = m->bank_of;
		p->banks = m->nbanks;
		p->ports = c->l1_ports;
		p->mshr_sets = c->l1_mshr_sets;
		p->max_merges = c->l1_max_merges;
		p->schedulers = c->schedulers;
		p->maxcb = c->max_active_blocks;
		p->maxcw = c->max_active_threads / (c->warp_size ? c->warp_size : 1);
		p->line_bytes = c->l1_line;
		p->adaptive = c->latency_model == RD_LATENCY_ADAPTIVE;
		if (p->adaptive) { /* (only then in the key: an L2 edit keeps the L1's cases) */
			p->k1 = c->latency_k1;
			p->k2 = c->latency_k2;
			p->l2p = c->l2_partitions * c->l2_banks;
		}
		p->per_warp = 0;
		p->sigma = 0;
		p->clip = 0;
		p->divergence = 0;
		p->lat_hit = 0;
	}
	if (c->model == RD_PROFILE_REF2013) {
		p->per_warp = 0; /* quirk: the reference has no per-warp cap ... */
		p->clip = 0;     /* ... and no clipping */
	}
	switch (cs) {
	case RD_CASE_FULLY_ASSOC:
		p->ways = p->sets * p->ways;
		p->sets = p->nsets = 1;
		p->set_ids = NULL;
		p->set_of = m->zeros;
		p->set_cap = m->core_cap; /* one set per core */
		if (m->bank_of) { /* ... per bank: each bank one set */
			p->ways /= m->nbanks;
			p->sets = p->nsets = m->nbanks;
			p->set_of = m->bank_of;
			p->set_cap = m->bank_cap;
		}
		break;
	case RD_CASE_NO_LATENCY:
		p->lat_hit = p->lat_miss = 0;
		p->sigma = 0;
		p->adaptive = 0;
		break;
	case RD_CASE_NO_MSHR:
		p->mshrs = p->per_warp = 0;
		p->max_merges = 0;
		break;
	}
	p->warp_loads = c->l1_warp_limit == RD_WARP_LIMIT_LOADS && p->per_warp;
}

/* One case, all cores; counts into *out. */

/* Case i's kept result for this key, or NULL. (The fully associative case
 * does not read the set index, so only coalescing must be the same.) */
static struct case_memo *memo_find(rd_model *m, int i, const sim_params *key,
				   enum rd_profile model)
{
	for (int j = 0; j < MEMO_WAYS; j++) {
		struct case_memo *e = &m->memo[i][j];
		if (e->valid && e->model == model && e->gen_coal == m->gen_coal &&
		    (i == RD_CASE_FULLY_ASSOC || e->gen_sets == m->gen_sets) &&
		    memcmp(&e->key, key, sizeof *key) == 0) {
			e->used = ++m->memo_clock[i];
			return e;
		}
	}
	return NULL;
}

/* Where case i's new result goes: an empty way, else the least recent. */
static struct case_memo *memo_victim(rd_model *m, int i)
{
	struct case_memo *v = &m->memo[i][0];
	for (int j = 0; j < MEMO_WAYS; j++) {
		struct case_memo *e = &m->memo[i][j];
		if (!e->valid)
			return e;
		if (e->used < v->used)
			v = e;
	}
	return v;
}

/*
 * Would case i compute exactly what the as-configured case computes? Its
 * parameters equal case 0's once the ones that only choose what is
 * recorded are set aside (events, the histogram's exact distances, the
 * per-access labels, the stream to the L2); the random policy draws from
 * a stream per case, so its cases differ. Then its counts are case 0's:
 * the no-latency case when every latency is 0, the unlimited-MSHR case
 * when the MSHRs are unlimited, both for a plain LRU cache. (The fully
 * associative case reads other sets, so it is always run.)
 */
static int case_same_as_full(const rd_model *m, const rd_config *c, int i, int mshr_aside)
{
	if (i == RD_CASE_FULLY_ASSOC)
		return 0;
	sim_params a, b;
	params_for_case(&a, c, m, RD_CASE_FULL, 0);
	params_for_case(&b, c, m, i, 0);
	sim_params *both[2] = {&a, &b};
	for (int j = 0; j < 2; j++) {
		sim_params *p = both[j];
		p->record_events = p->need_hist = p->shadow = p->emit = p->emit_sect = p->sector = 0;
		p->shadow_set_of = p->shadow_cap = NULL;
		if (c->replacement != RD_REPL_RANDOM)
			p->case_id = 0;
		if (mshr_aside) {
			p->mshrs = p->per_warp = p->max_merges = 0;
			p->warp_loads = 0;
		}
	}
	/* (params_for_case cleared both whole: padding compares equal) */
	return memcmp(&a, &b, sizeof a) == 0;
}

/*
 * Would case i compute what case 0 computes, but for the MSHR cap? Then,
 * where case 0 was never refused an entry, it does: under the paper
 * profile the cap acts only by refusing a miss (sim_paper.c's mshr_full:
 * the refusal, and the shortcut that repeats one); a run in which it
 * refused nothing goes step for step as one without it. (RDGC's MSHR sets
 * and merge limits, and the reference's arithmetic, are left to run.)
 */
static int case_same_unrefused(const rd_model *m, const rd_config *c, int i)
{
	return c->model == RD_PROFILE_PAPER && case_same_as_full(m, c, i, 1);
}

/* One case, all cores; counts into *out. Only the calling thread touches
 * memo[i] and memo_clock[i] (each case runs on one thread). */
static int case_run(rd_model *m, const rd_config *c, int i, const sim_input *in, sim_counts *out)
{
	sim_params p, key;
	params_for_case(&p, c, m, i, i == RD_CASE_FULL && in->cb && in->cb->event);
	if (in->cb && in->cb->by_site) {
		p.by_site = 1;
		p.nsites = m->nsites;
	}
	memset(&key, 0, sizeof key); /* padding too: the key is compared whole */
	key = p;
	key.set_of = NULL;
	key.set_cap = NULL;
	key.set_ids = NULL;
	key.shadow_set_of = NULL;
	key.shadow_cap = NULL;
	key.bank_of = NULL;
	/* the as-configured case is rerun when events are wanted (snapshots
	 * are not: a replayed case is final at once) */
	const rd_callbacks *cb = in->cb;
	int replayable = !(i == RD_CASE_FULL && cb && cb->event);
	struct case_memo *hit = replayable ? memo_find(m, i, &key, c->model) : NULL;
	if (hit) {
		sim_counts view = hit->counts;
		if (i == RD_CASE_FULL) {
			m->case0_serial = hit->serial;
			m->case0_src = &hit->counts; /* the L2 reads the stream there */
			view.l2s = NULL;
			view.nl2s = 0;
			memset(&view.pk, 0, sizeof view.pk);
		}
		return counts_merge(out, &view) < 0 ? RD_ENOMEM : RD_OK;
	}
	int rc = RD_OK;
	if (i == RD_CASE_FULL) {
		m->case0_serial = ++m->serial;
		m->case0_src = NULL;
	}
	if (c->model == RD_PROFILE_REF2013) {
		rc = sim_ref2013(in, &p, out);
	} else {
		for (uint32_t core = 0; core < m->sched.ncores && rc == RD_OK; core++) {
			/* a core without blocks adds nothing (core 0 runs: the
			 * per-set counts' shape comes from it) */
			if (core && m->sched.core_first[core] == m->sched.core_first[core + 1])
				continue;
			sim_counts one = {0};
			/* (a part's: what leaves the L1 packed as it goes, 3 bytes
			 * a record kept, not 24) */
			if (m->no_memo && i == RD_CASE_FULL) {
				one.pack_every = 1u << 16;
				one.pk.spill_at = m->spill_at;
			}
			rc = p.rdgc ? sim_rdgc_core(in, core, &p, &one) : sim_paper_core(in, core, &p, &one);
			if (rc == RD_OK && counts_merge(out, &one) < 0)
				rc = RD_ENOMEM;
			if (rc == RD_ENOMEM && (one.pk.ioerr || out->pk.ioerr))
				rc = RD_EIO; /* (a spilled pack's file, not memory) */
			if (rc == RD_OK && i == RD_CASE_FULL && !out->ncore_rm) {
				out->core_rm = calloc((size_t)m->sched.ncores * 2, sizeof *out->core_rm);
				out->ncore_rm = out->core_rm ? m->sched.ncores : 0;
				rc = out->core_rm ? RD_OK : RD_ENOMEM;
			}
			if (rc == RD_OK && i == RD_CASE_FULL) {
				out->core_rm[2 * core] += one.requests;
				out->core_rm[2 * core + 1] += one.misses;
			}
			counts_free(&one);
		}
	}
	if (rc != RD_OK)
		return rc;
	m->case_runs[i]++;
	if (m->no_memo)
		return rc;
	struct case_memo *e = memo_find(m, i, &key, c->model); /* a rerun for events */
	if (!e)
		e = memo_victim(m, i);
	counts_free(&e->counts);
	e->valid = 0;
	if (counts_merge(&e->counts, out) == 0) {
		e->valid = 1;
		e->key = key;
		e->model = c->model;
		e->gen_coal = m->gen_coal;
		e->gen_sets = m->gen_sets;
		e->used = ++m->memo_clock[i];
		e->serial = i == RD_CASE_FULL ? m->case0_serial : 0;
		if (i == RD_CASE_FULL)
			m->case0_src = &e->counts;
	}
	return rc;
}

static int level_copy(rd_level *to, const rd_level *from)
{
	size_t nb = (size_t)from->partitions * from->banks;
	*to = *from;
	to->hist = to->hist_w = NULL;
	to->bank_requests = to->bank_misses = NULL;
	to->hist = malloc((from->hist_len ? from->hist_len : 1) * sizeof *to->hist);
	to->hist_w = malloc((from->hist_w_len ? from->hist_w_len : 1) * sizeof *to->hist_w);
	to->bank_requests = malloc((nb ? nb : 1) * sizeof *to->bank_requests);
	to->bank_misses = malloc((nb ? nb : 1) * sizeof *to->bank_misses);
	if (!to->hist || !to->hist_w || !to->bank_requests || !to->bank_misses) {
		level_free(to);
		return -1;
	}
	if (from->hist_len)
		memcpy(to->hist, from->hist, from->hist_len * sizeof *to->hist);
	if (from->hist_w_len)
		memcpy(to->hist_w, from->hist_w, from->hist_w_len * sizeof *to->hist_w);
	if (nb) {
		memcpy(to->bank_requests, from->bank_requests, nb * sizeof *to->bank_requests);
		memcpy(to->bank_misses, from->bank_misses, nb * sizeof *to->bank_misses);
	}
	return 0;
}

/* The L2 after every core's L1 (case 0's stream): kept while neither its
 * keys nor case 0's counts change, rerun for events. */
static int l2_stage(rd_model *m, const rd_config *c, const sim_counts *c0, const rd_callbacks *cb,
		    rd_level *out)
{
	int events = cb && cb->event;
	/* DRAM wants the stream this L2 run sends it */
	int stream = c->dram_enable && !(m->dram_in_from == 2 && m->dram_in_src == m->l2_gen);
	if (!events && !stream && m->have_l2 && m->l2_serial == m->case0_serial &&
	    stage_same(&m->l2_key, c, RD_STAGE_L2))
		return level_copy(out, &m->l2) < 0 ? RD_ENOMEM : RD_OK;
	sim_counts *ds = NULL;
	m->l2_gen++;
	if (c->dram_enable) {
		counts_free(&m->dram_in);
		memset(&m->dram_in, 0, sizeof m->dram_in);
		m->dram_in_from = 0;
		ds = &m->dram_in;
	}
	int rc = l2_run(c, c0, m->case0_serial, m->sched.ncores, cb, &m->l2cache, out, ds);
	if (rc != RD_OK)
		return rc;
	m->stage_runs[RD_STAGE_L2]++;
	if (ds) {
		m->dram_in_from = 2;
		m->dram_in_src = m->l2_gen;
		m->dram_in_line = c->l2_line;
		m->dram_in_gen++;
	}
	level_free(&m->l2);
	m->have_l2 = level_copy(&m->l2, out) == 0;
	m->l2_key = *c;
	m->l2_serial = m->case0_serial;
	return RD_OK;
}

/* DRAM after the last cache level: its input is the L2's stream (made by
 * l2_stage) or, without an L2, the L1s' merged stream (case 0's); the
 * stage reruns only when its keys or its input change, so a DRAM-only
 * edit costs one pass over the stream. The AMAT (Eq. 5) is the caller's. */
static int dram_stage(rd_model *m, const rd_config *c, const sim_counts *c0,
		      const rd_callbacks *cb, rd_dram *out)
{
	if (!c->l2_size &&
	    !(m->dram_in_from == 1 && m->dram_in_src == m->case0_serial &&
	      m->dram_in_line == c->l1_line)) {
		counts_free(&m->dram_in);
		memset(&m->dram_in, 0, sizeof m->dram_in);
		m->dram_in_from = 0;
		int rc = l1_stream(c, c0, m->case0_serial, m->sched.ncores, &m->l2cache, &m->dram_in);
		if (rc != RD_OK)
			return rc;
		m->dram_in_from = 1;
		m->dram_in_src = m->case0_serial;
		m->dram_in_line = c->l1_line;
		m->dram_in_gen++;
	}
	if (m->have_dram && m->dram_key_gen == m->dram_in_gen && stage_same(&m->dram_key, c, RD_STAGE_DRAM)) {
		*out = m->dram;
		return RD_OK;
	}
	int rc = dram_run(c, m->dram_in.l2s, m->dram_in.nl2s, m->dram_in_line, cb, out);
	if (rc != RD_OK)
		return rc;
	m->stage_runs[RD_STAGE_DRAM]++;
	m->dram = *out;
	m->dram_key = *c;
	m->dram_key_gen = m->dram_in_gen;
	m->have_dram = 1;
	return RD_OK;
}

/* Order of merged records: by core, then step, then where they were. */
typedef struct { l2req r; uint64_t i; } l2ord;
static int cmp_l2ord(const void *a, const void *b)
{
	const l2ord *x = a, *y = b;
	if (x->r.core != y->r.core)
		return x->r.core < y->r.core ? -1 : 1;
	if (x->r.t != y->r.t)
		return x->r.t < y->r.t ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * Case 0's stream leaving the L1s with the texture and constant misses
 * (offc, at each core's warp-instruction ordinal) put in: an ordinal o of
 * core k becomes step o * (case 0's steps) / (k's warp instructions) [ours:
 * the spaces stage has no time of its own], each core's records in step
 * order, the L1's first at a tie. NULL: out of memory.
 */
static l2req *offchip_merge(const sim_counts *c0, const sim_counts *offc,
			    const uint64_t *core_instr, uint32_t ncores)
{
	uint64_t n = c0->nl2s + offc->nl2s;
	l2ord *o = malloc((n ? n : 1) * sizeof *o);
	l2req *out = malloc((n ? n : 1) * sizeof *out);
	if (!o || !out) {
		free(o);
		free(out);
		return NULL;
	}
	for (uint64_t i = 0; i < c0->nl2s; i++)
		o[i] = (l2ord){c0->l2s[i], i};
	for (uint64_t j = 0; j < offc->nl2s; j++) {
		l2req q = offc->l2s[j];
		uint64_t total = q.core < ncores && core_instr[q.core] ? core_instr[q.core] : 1;
		q.t = (uint64_t)((double)q.t * (double)c0->time / (double)total);
		o[c0->nl2s + j] = (l2ord){q, c0->nl2s + j};
	}
	qsort(o, n, sizeof *o, cmp_l2ord);
	for (uint64_t i = 0; i < n; i++)
		out[i] = o[i].r;
	free(o);
	return out;
}

/* The cases other than 0, taken in turn by every thread that is free. */
typedef struct case_pool {
	rd_model *m;
	const rd_config *c;
	sim_input in;
	sim_counts *cc;
	int list[RD_NCASES], n;
	_Atomic int next;
	int rc[RD_NCASES];
} case_pool;

static void pool_drain(case_pool *pl, const sim_input *in)
{
	for (;;) {
		int j = atomic_fetch_add(&pl->next, 1);
		if (j >= pl->n || atomic_load(&in->sh->cancel))
			return;
		int i = pl->list[j];
		pl->rc[i] = case_run(pl->m, pl->c, i, in, &pl->cc[i]);
		if (pl->rc[i] != RD_OK)
			atomic_store(&in->sh->cancel, 1);
	}
}

/* POSIX threads rather than C11 <threads.h>: ThreadSanitizer (GCC 12)
 * does not see thrd_create, and TSan is how the hand-off is checked. */
static void *pool_worker(void *arg)
{
	case_pool *pl = arg;
	pool_drain(pl, &pl->in);
	return NULL;
}

/* The cases asked for (case 0 always) over m's stages, each case's counts
 * in cc (zeroed by the caller); a case provably case 0's is not run but
 * takes its counts (*samep says which). */
static int cases_run(rd_model *m, const rd_config *c, int cases, const rd_callbacks *cb,
		     sim_counts cc[RD_NCASES], int *samep)
{
	/* cases provably the as-configured one are not run again: they take
	 * case 0's counts (ref2013's arithmetic reads them all the same) */
	int same = 0, ncases = 0;
	int rc;
	for (int i = 1; i < RD_NCASES; i++)
		if ((cases & (1 << i)) && case_same_as_full(m, c, i, 0))
			same |= 1 << i;
	/* Cases that are case 0's unless it is refused an MSHR entry wait for
	 * it where it likely is not (no miss latency: an entry is freed as
	 * soon as it is taken; a corr_kernel SM then runs two cases, not
	 * three): case 0 refused nothing, they take its counts; else the
	 * caller runs them after the pool. */
	int defer = 0;
	if (c->latency_miss == 0 && c->latency_stddev == 0)
		for (int i = 1; i < RD_NCASES; i++)
			if ((cases & ~same & (1 << i)) && case_same_unrefused(m, c, i))
				defer |= 1 << i;
	for (int i = 0; i < RD_NCASES; i++)
		ncases += !!(cases & ~same & ~defer & (1 << i));
	sim_shared sh = {.total = m->coal.nreq * (uint64_t)ncases, .cb = cb};
	atomic_init(&sh.done, 0);
	atomic_init(&sh.cancel, 0);
	case_pool pl = {.m = m, .c = c, .cc = cc};
	pl.in = (sim_input){.k = m->k, .s = &m->sched, .co = &m->coal, .cb = cb, .sh = &sh,
			    .src = m->src, .map = m->src_map, .feed_line = c->l1_line,
			    .feed_sector = c->l1_sector, .feed_stores = c->stores != RD_STORES_IGNORE};
	atomic_init(&pl.next, 0);
	/* Longest first, so that the two threads end together: the fully
	 * associative case costs about what case 0 does, the unlimited-MSHR
	 * case about half, the no-latency case (no timing) least (Figure 3
	 * copy, 1 M requests: 44, 37, 18 and 11 ms; in this order two
	 * threads split them 55 / 55 ms, in case order 44 + 18 / 37 + 11). */
	static const int longest_first[] = {RD_CASE_FULLY_ASSOC, RD_CASE_NO_MSHR,
					    RD_CASE_NO_LATENCY};
	for (int j = 0; j < RD_NCASES - 1; j++)
		if (cases & ~same & ~defer & (1 << longest_first[j]))
			pl.list[pl.n++] = longest_first[j];
	/* (the reference profile's cases share their lanes' lines; another
	 * profile on the same coalescing has no use for them) */
	if (c->model == RD_PROFILE_REF2013 && m->coal.load_line &&
	    ref2013_lanes(&m->coal, m->k, m->sched.nthreads) < 0)
		return RD_ENOMEM;
	if (c->model != RD_PROFILE_REF2013) {
		free(m->coal.lane_acc);
		m->coal.lane_acc = NULL;
	}
	/* Cases 1-3 go to helper threads; the caller runs case 0 (the only
	 * one that reports events) and then helps with what is left. */
	pthread_t th[RD_NCASES];
	int nth = 0;
	for (int t = 1; t < m->threads && t <= pl.n; t++)
		if (pthread_create(&th[nth], NULL, pool_worker, &pl) == 0)
			nth++;
	sim_input mine = pl.in;
	mine.caller = 1;
	mine.acc = &cc[0];
	rc = case_run(m, c, RD_CASE_FULL, &mine, &cc[0]);
	if (rc != RD_OK) {
		atomic_store(&sh.cancel, 1);
	} else {
		if (defer && cc[0].cancels == 0) {
			same |= defer;
			defer = 0;
		}
		sh.total += m->coal.nreq * (uint64_t)__builtin_popcount((unsigned)defer);
		pool_drain(&pl, &mine);
		for (int i = 1; i < RD_NCASES; i++)
			if ((defer & (1 << i)) && !atomic_load(&sh.cancel) &&
			    (pl.rc[i] = case_run(m, c, i, &mine, &cc[i])) != RD_OK)
				atomic_store(&sh.cancel, 1);
	}
	for (int t = 0; t < nth; t++)
		pthread_join(th[t], NULL);
	/* a helper's failure (out of memory) stopped the others: it is the
	 * run's error, not the cancellation it caused */
	for (int i = 1; i < RD_NCASES && (rc == RD_OK || rc == RD_ECANCELED); i++)
		if (pl.rc[i] != RD_OK && pl.rc[i] != RD_ECANCELED)
			rc = pl.rc[i];
	for (int i = 1; i < RD_NCASES && rc == RD_OK; i++)
		if (pl.rc[i] != RD_OK)
			rc = pl.rc[i];
	if (rc == RD_OK && atomic_load(&sh.cancel))
		rc = RD_ECANCELED;
	sim_counts c0view = cc[0];
	c0view.l2s = NULL; /* (the stream to the L2 is case 0's alone) */
	c0view.nl2s = 0;
	memset(&c0view.pk, 0, sizeof c0view.pk);
	for (int i = 1; i < RD_NCASES && rc == RD_OK; i++)
		if ((same & (1 << i)) && counts_merge(&cc[i], &c0view) < 0)
			rc = RD_ENOMEM;
	*samep = same;
	return rc;
}

/* What the report takes of the kernel and its schedule beside the counts. */
typedef struct run_facts {
	uint32_t threads_total, threads_modelled, blocks, cores_used;
	uint32_t cores_sampled; /* gpu.sample_cores: of cores_used, or 0: all */
	uint64_t accesses, stores;
	const uint32_t *set_ids; /* case 0's dense sets' ids, or NULL */
} run_facts;

/* The L1's part of a result from the cases' counts and the run's facts:
 * counts, classes, the cases' misses and the miss rates (run_report's and
 * rd_parts_peek's; no per-site classes, no L2). */
static void result_l1(rd_result *r, const rd_config *c, const run_facts *f, int cases, int same,
		      sim_counts cc[RD_NCASES])
{
	if (c->model == RD_PROFILE_RDGC)
		r->reservation_fails = cc[0].cancels;
	r->threads_total = f->threads_total;
	r->threads_modelled = f->threads_modelled;
	r->blocks_modelled = f->blocks;
	r->cores_used = f->cores_used;
	r->accesses = f->accesses;
	r->stores = f->stores;
	r->store_requests = cc[0].store_requests;
	r->store_hits = cc[0].store_hits;
	r->store_evictions = cc[0].store_evictions;
	r->sector_lookups = cc[0].sect_lookups;
	r->sector_hits = cc[0].sect_hits;
	r->requests = cc[0].requests;
	r->cancels = cc[0].cancels;
	r->time_steps = cc[0].time;
	r->cases_run = cases;
	r->cases_same = same;
	if (c->model == RD_PROFILE_REF2013) {
		classify_ref2013(r, cc, cases, c->l1_ways, rd_config_sets(c));
	} else {
		classify_paper(r, cc, cases, c->classes == RD_CLASSES_PER_ACCESS);
		/* the helper cases track no sectors: theirs are line misses,
		 * whether run or taken from case 0 (whose own, the total,
		 * counts the sector misses) */
		for (int i = 0; i < RD_NCASES; i++)
			if (cases & (1 << i))
				r->case_misses[i] = cc[i].misses - (i ? cc[i].sector : 0);
	}
	if (r->requests) {
		r->miss_rate_all = (double)r->misses / (double)r->requests;
		r->miss_rate = (double)(r->misses - r->cls[RD_CLASS_LATENCY]) / (double)r->requests;
	}
}

/* Case 0's histograms handed to the result. */
static void result_take_hist(rd_result *r, sim_counts *c0)
{
	r->hist = c0->hist;
	r->hist_len = c0->hist_len;
	r->hist_inf = c0->hist_inf;
	c0->hist = NULL;
	r->hist_w = c0->hist_w;
	r->hist_w_len = c0->hist_w_len;
	r->hist_w_inf = c0->hist_w_inf;
	c0->hist_w = NULL;
}

/* From the cases' counts (case 0's stream to the L2 in cc[0] or kept in
 * m->case0_src) to the result: the texture and constant misses (offc, or
 * none) merged in, the L2, DRAM, the classes. Frees cc. */
static int run_report(rd_model *m, const rd_config *c, int cases, int same, sim_counts cc[RD_NCASES],
		      const sim_counts *offc, const uint64_t *core_instr, const run_facts *f,
		      const rd_callbacks *cb, rd_result *r, int rc)
{
	if (rc == RD_OK && f->cores_sampled) {
		/* the sampled cores' spread, then every count to all cores */
		const sim_counts *k0 = m->case0_src ? m->case0_src : &cc[0];
		double sum = 0, sum2 = 0, lo = 1, hi = 0;
		uint32_t n = 0;
		for (uint32_t k = 0; k < k0->ncore_rm; k++) {
			uint64_t q = k0->core_rm[2 * k], x = k0->core_rm[2 * k + 1];
			if (!q)
				continue;
			double v = (double)x / (double)q;
			sum += v;
			sum2 += v * v;
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
			n++;
		}
		if (n) {
			r->core_miss_min = lo;
			r->core_miss_max = hi;
			double var = sum2 / n - (sum / n) * (sum / n);
			r->core_miss_sd = var > 0 ? sqrt(var) : 0;
		}
		r->cores_sampled = f->cores_sampled;
		for (int i = 0; i < RD_NCASES; i++)
			counts_scale(&cc[i], f->cores_used, f->cores_sampled);
	}
	const sim_counts *c0 = m->case0_src ? m->case0_src : &cc[0];
	sim_counts merged;
	l2req *mv = NULL;
	if (rc == RD_OK && offc->nl2s && c0 == &cc[0] && l2pack_unpack(&cc[0]) < 0)
		rc = RD_ENOMEM; /* (parts have no spaces: not so far) */
	if (rc == RD_OK && offc->nl2s) {
		if (!(mv = offchip_merge(c0, offc, core_instr, m->sched.ncores)))
			rc = RD_ENOMEM;
		merged = *c0; /* shallow: only l2s is its own */
		merged.l2s = mv;
		merged.nl2s = merged.l2s_cap = c0->nl2s + offc->nl2s;
		c0 = &merged;
		/* a stream of its own: the kept L2 and DRAM inputs do not match */
		m->case0_serial = ++m->serial;
	}
	if (rc == RD_OK && m->spend_stream && c0 == &cc[0])
		rc = l2_stream_take(c, &cc[0], m->case0_serial, m->sched.ncores, &m->l2cache);
	if (rc == RD_OK && c->l2_size)
		rc = l2_stage(m, c, c0, cb, &r->l2);
	if (rc == RD_OK && c->dram_enable)
		rc = dram_stage(m, c, c0, cb, &r->dram);
	free(mv);
	if (rc == RD_OK) {
		m->stage_runs[RD_STAGE_REPORT]++;
		r->has_l2 = c->l2_size > 0;
		r->has_dram = c->dram_enable;
		result_l1(r, c, f, cases, same, cc);
		if (c->model != RD_PROFILE_REF2013 && cb && cb->by_site &&
		    classify_sites(r, cc, cases, c->classes == RD_CLASSES_PER_ACCESS) < 0)
			rc = RD_ENOMEM;
		if (r->has_spaces) { /* global's requests are the L1's */
			rd_space_stats *g = &r->spaces[RD_SPACE_GLOBAL];
			g->requests = r->requests;
			g->misses = r->misses;
			g->hits = r->hits;
		}
		if (r->has_dram) { /* Eq. 5 over the last cache level's read misses */
			rd_dram *d = &r->dram;
			d->miss_ratio = r->has_l2 ? r->l2.miss_rate : r->miss_rate_all;
			/* shmem_ratio: shared-memory requests among all the
			 * spaces' requests (0 without placements) */
			if (r->has_spaces) {
				uint64_t all = 0;
				for (int i = 0; i < RD_NSPACES; i++)
					all += r->spaces[i].requests;
				d->shmem_ratio = all ? (double)r->spaces[RD_SPACE_SHARED].requests /
							       (double)all
						     : 0;
			}
			d->amat = d->saturated ? NAN
					       : rd_amat(d->latency, d->miss_ratio, c->dram_cache_hit,
							 c->smem_latency, d->shmem_ratio);
		}
		result_take_hist(r, &cc[0]);
		r->nsets = cc[0].nsets;
		r->set_ids = NULL;
		if (f->set_ids && r->nsets) {
			r->set_ids = malloc((size_t)r->nsets * sizeof *r->set_ids);
			if (!r->set_ids)
				rc = RD_ENOMEM;
			else
				memcpy(r->set_ids, f->set_ids, (size_t)r->nsets * sizeof *r->set_ids);
		}
		r->set_requests = cc[0].set_requests;
		r->set_misses = cc[0].set_misses;
		cc[0].set_requests = cc[0].set_misses = NULL;
		cc[0].nsets = 0;
	}
	for (int i = 0; i < RD_NCASES; i++)
		counts_free(&cc[i]);
	return rc;
}

int rd_model_run(rd_model *m, const rd_config *c, int cases, const rd_callbacks *cb, rd_result *r)
{
	char err[160];
	memset(r, 0, sizeof *r);
	if (rd_config_check(c, err, sizeof err) < 0)
		return RD_EINVAL;
	cases |= 1 << RD_CASE_FULL;
	cases &= RD_ALL_CASES;
	if (cb && cb->by_site) {
		if (c->model == RD_PROFILE_REF2013)
			return RD_EINVAL; /* its totals are the 2013 code's arithmetic */
		if (!m->nsites)
			m->nsites = rd_kernel_nsites(m->k);
	}
	/* Memory spaces: each array's, and which leave the L1 */
	uint8_t *space_of = NULL, *skip = NULL;
	if (rd_config_has_spaces(c)) {
		uint32_t na = m->k->arrays ? m->k->arrays->n : 0;
		space_of = malloc(na ? na : 1);
		skip = calloc(na ? na : 1, 1);
		if (!space_of || !skip) {
			free(space_of);
			free(skip);
			return RD_ENOMEM;
		}
		int any = 0;
		if (rd_spaces_resolve(c, m->k, space_of, err, sizeof err) < 0) {
			free(space_of);
			free(skip);
			return RD_EINVAL;
		}
		for (uint32_t i = 0; i < na; i++)
			any |= skip[i] = space_of[i] != RD_SPACE_GLOBAL;
		if (!any) {
			free(skip);
			skip = NULL;
		}
	}
	int rc = stages_prepare(m, c, skip, cb);
	free(skip);
	/* texture and constant misses, on to the L2 or DRAM */
	sim_counts offc;
	memset(&offc, 0, sizeof offc);
	uint64_t *core_instr = NULL;
	int offchip = space_of && (c->l2_size || c->dram_enable);
	if (rc == RD_OK && offchip &&
	    !(core_instr = calloc(m->sched.ncores ? m->sched.ncores : 1, sizeof *core_instr)))
		rc = RD_ENOMEM;
	if (rc == RD_OK && space_of) {
		rc = spaces_run(m->k, &m->sched, c, space_of, r->spaces, offchip ? &offc : NULL,
				core_instr, cb);
		r->has_spaces = rc == RD_OK;
		m->stage_runs[RD_STAGE_SPACES]++;
		/* Eq. 3: against every array global (one more pass) */
		uint32_t na = m->k->arrays ? m->k->arrays->n : 0;
		rd_space_stats base[RD_NSPACES];
		memset(space_of, RD_SPACE_GLOBAL, na);
		if (rc == RD_OK)
			rc = spaces_run(m->k, &m->sched, c, space_of, base, NULL, NULL, cb);
		for (int sp = 0; rc == RD_OK && sp < RD_NSPACES; sp++) {
			r->delta_address += (int64_t)r->spaces[sp].address_instructions -
					    (int64_t)base[sp].address_instructions;
			r->delta_replays += (int64_t)r->spaces[sp].replays - (int64_t)base[sp].replays;
		}
		r->issued_delta = r->delta_address + r->delta_replays;
		for (uint32_t w = 0; w < m->sched.nwarps; w++)
			r->warps += m->sched.warp_nt[w] != 0;
	}
	free(space_of);
	if (rc) {
		counts_free(&offc);
		free(core_instr);
		return rc;
	}
	sim_counts cc[RD_NCASES];
	memset(cc, 0, sizeof cc);
	int same = 0;
	rc = cases_run(m, c, cases, cb, cc, &same);
	run_facts f = {.threads_modelled = m->sched.nthreads, .stores = m->k->nstores,
		       .set_ids = m->set_ids, .blocks = m->sched.nblocks,
		       .cores_used = m->sched.cores_active, .cores_sampled = m->sched.cores_sampled};
	const rd_kernel *k = m->k;
	f.threads_total = k->nthreads;
	if (c->stores != RD_STORES_IGNORE && k->store_threads > k->nthreads)
		f.threads_total = k->store_threads;
	for (uint32_t t = 0; t < m->sched.nthreads; t++)
		f.accesses += kernel_loads(k, t);
	rc = run_report(m, c, cases, same, cc, &offc, core_instr, &f, cb, r, rc);
	counts_free(&offc);
	free(core_instr);
	if (rc != RD_OK)
		rd_result_free(r); /* the contract: filled on RD_OK only */
	return rc;
}

/* ---------------------------------------------------------------- parts */

int rd_parts_possible(const rd_config *c, char *why, size_t len)
{
	const char *no = NULL;
	if (c->model == RD_PROFILE_REF2013)
		no = "the reference-2013 profile models its cores together";
	else if (c->block_mapping == RD_MAP_RANDOM)
		no = "gpu.block_mapping=random deals the blocks of the whole kernel";
	else if (rd_config_has_spaces(c))
		no = "memory spaces are placed over the whole kernel";
	else if (c->model == RD_PROFILE_RDGC && c->latency_model == RD_LATENCY_ADAPTIVE)
		no = "the adaptive latency counts the cores the whole kernel uses";
	else if (rd_config_sets(c) > SETS_DENSE_MIN)
		no = "more than 65536 sets are numbered by the lines the whole kernel uses";
	if (no && why)
		snprintf(why, len, "%s", no);
	return !no;
}

struct rd_parts {
	rd_config c;
	int cases, threads, nparts, same;
	pthread_mutex_t mu;
	sim_counts cc[RD_NCASES]; /* the parts' counts, case 0's stream aside */
	l2pack pk;                /* case 0's stream, the parts' in turn, packed */
	run_facts f;
	uint32_t sets_n;          /* the parts' per-set counts' length */
	int sets_differ;
	uint32_t sample_active;   /* rd_parts_set_sample, or 0 */
	uint32_t sample_threads, sample_blocks;
	rd_kernel_spare *spare;   /* the parts' (rd_kernel.spare), emptied at finish */
	uint64_t stream_keep;     /* rd_parts_set_stream_keep */
	uint64_t spill;           /* rd_parts_set_spill */
	rd_callbacks stop;        /* rd_parts_set_stop's, as a progress callback */
	int (*stop_fn)(void *ctx);
	void *stop_ctx;
};

/* rd_parts_set_stop's question, as a progress callback's */
static int parts_stop_asked(void *ctx, double fraction)
{
	(void)fraction;
	const rd_parts *p = ctx;
	return p->stop_fn(p->stop_ctx);
}

void rd_parts_set_stop(rd_parts *p, int (*stop)(void *ctx), void *ctx)
{
	memset(&p->stop, 0, sizeof p->stop);
	if (stop) {
		p->stop.progress = parts_stop_asked;
		p->stop.ctx = p;
	}
	p->stop_fn = stop;
	p->stop_ctx = ctx;
}

void rd_parts_set_sample(rd_parts *p, uint32_t active, uint32_t cores_sampled, uint32_t threads,
			 uint32_t blocks)
{
	p->sample_active = cores_sampled && cores_sampled < active ? active : 0;
	p->sample_threads = threads;
	p->sample_blocks = blocks;
}

rd_parts *rd_parts_new(const rd_config *c, int cases)
{
	char err[160];
	if (rd_config_check(c, err, sizeof err) < 0 || !rd_parts_possible(c, NULL, 0))
		return NULL;
	rd_parts *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	if (pthread_mutex_init(&p->mu, NULL) != 0) {
		free(p);
		return NULL;
	}
	p->c = *c;
	p->cases = (cases | 1 << RD_CASE_FULL) & RD_ALL_CASES;
	p->threads = 1;
	p->stream_keep = RD_STREAM_KEEP;
	rd_parts_set_spill(p, RD_SPILL_AT);
	return p;
}

void rd_parts_set_spill(rd_parts *p, uint64_t bytes)
{
	p->spill = bytes;
	p->pk.spill_at = bytes;
}

void rd_parts_set_stream_keep(rd_parts *p, uint64_t requests)
{
	p->stream_keep = requests;
}

void rd_parts_set_threads(rd_parts *p, int n)
{
	p->threads = n < 1 ? 1 : n > RD_NCASES ? RD_NCASES : n;
}

/* ---------------------------------------------------------------- a part built in chunks */

struct rd_part_builder {
	rd_config c;
	int threads;
	coal_lines lines;  /* the part's line ids */
	rd_coal co;        /* its requests so far (lines in `lines`) */
	uint64_t wcap, icap, rcap; /* room in co's arrays */
	uint32_t nwarps;   /* warps so far (warp_instr_first's) */
	int ident;         /* every instruction so far one request (co.instr_req_first unused) */
	uint32_t nblocks;  /* the part's blocks so far (the chunks' part_nblocks) */
	uint32_t block_size;
	/* the part's thread index and store threads so far */
	uint64_t *first, first_cap;
	uint32_t nthreads;
	uint64_t nloads, nstores;
	uint32_t *stid;    /* the threads with stores, ascending, once each */
	uint64_t nstid, stid_cap;
	uint32_t store_threads;
	int rc;            /* the first failure (later chunks are only freed) */
};

rd_part_builder *rd_part_builder_new(const rd_config *c, int threads)
{
	rd_part_builder *b = calloc(1, sizeof *b);
	if (!b)
		return NULL;
	b->c = *c;
	b->threads = threads < 1 ? 1 : threads;
	b->ident = 1;
	return b;
}

void rd_part_builder_free(rd_part_builder *b)
{
	if (!b)
		return;
	coal_lines_free(&b->lines);
	coal_free(&b->co);
	free(b->first);
	free(b->stid);
	free(b);
}

static int room_for(void **p, uint64_t *cap, uint64_t need, size_t size)
{
	return vec_room(p, cap, need, size, 1024);
}

/* The chunk's requests (co, over schedule s) after the part's (the first
 * chunk's arrays taken, not copied: a part of one chunk holds its
 * requests once). */
static int builder_append(rd_part_builder *b, const rd_sched *s, rd_coal *co)
{
	rd_coal *pc = &b->co;
	if (!pc->req && !pc->warp_instr_first && !pc->instr_req_first && co->req &&
	    co->warp_instr_first) {
		pc->req = co->req;
		b->rcap = co->nreq;
		pc->warp_instr_first = co->warp_instr_first;
		b->wcap = (uint64_t)s->nwarps + 1;
		pc->instr_req_first = co->instr_req_first;
		b->icap = co->instr_req_first ? co->ninstr + 1 : 0;
		b->ident = !co->instr_req_first;
		pc->ninstr = co->ninstr;
		pc->nreq = co->nreq;
		b->nwarps = s->nwarps;
		co->req = NULL;
		co->warp_instr_first = co->instr_req_first = NULL;
		return RD_OK;
	}
	uint64_t ni0 = pc->ninstr, nr0 = pc->nreq;
	if (room_for((void **)&pc->warp_instr_first, &b->wcap, (uint64_t)b->nwarps + s->nwarps + 1,
		     sizeof *pc->warp_instr_first) < 0 ||
	    room_for((void **)&pc->req, &b->rcap, nr0 + co->nreq, sizeof *pc->req) < 0)
		return RD_ENOMEM;
	if (co->instr_req_first || !b->ident) {
		if (room_for((void **)&pc->instr_req_first, &b->icap, ni0 + co->ninstr + 1,
			     sizeof *pc->instr_req_first) < 0)
			return RD_ENOMEM;
		if (b->ident) /* the first instruction of more than one request */
			for (uint64_t i = 0; i <= ni0; i++)
				pc->instr_req_first[i] = i;
		b->ident = 0;
		for (uint64_t i = 1; i <= co->ninstr; i++)
			pc->instr_req_first[ni0 + i] = nr0 + coal_req_first(co, i);
	}
	for (uint32_t w = 0; w < s->nwarps; w++)
		pc->warp_instr_first[b->nwarps + w] = ni0 + co->warp_instr_first[w];
	if (co->nreq)
		memcpy(pc->req + nr0, co->req, co->nreq * sizeof *co->req);
	pc->ninstr += co->ninstr;
	pc->nreq += co->nreq;
	b->nwarps += s->nwarps;
	return RD_OK;
}

/* The chunk's thread index and store threads after the part's (its
 * threads from off on). */
static int builder_index(rd_part_builder *b, const rd_kernel *k, uint64_t off)
{
	if (k->nthreads) {
		uint64_t end = off + k->nthreads;
		if (end > RD_MAX_THREAD_ID + 1ull)
			return RD_EINVAL;
		if (room_for((void **)&b->first, &b->first_cap, end + 1, sizeof *b->first) < 0)
			return RD_ENOMEM;
		for (uint64_t t = b->nthreads; t < off; t++) /* threads without loads */
			b->first[t] = b->nloads;
		for (uint32_t t = 0; t < k->nthreads; t++)
			b->first[off + t] = b->nloads + k->thread_first[t];
		b->nthreads = (uint32_t)end;
	}
	b->nloads += k->nloads;
	if (k->nstores && k->store_tid) {
		if (off + k->store_threads > RD_MAX_THREAD_ID + 1ull)
			return RD_EINVAL;
		/* (a thread once: what the schedule asks is whether a block
		 * has stores, and a thread may have millions) */
		for (uint64_t i = 0; i < k->nstores; i++) {
			uint32_t t = (uint32_t)(off + k->store_tid[i]);
			if (b->nstid && b->stid[b->nstid - 1] == t)
				continue;
			if (room_for((void **)&b->stid, &b->stid_cap, b->nstid + 1, sizeof *b->stid) < 0)
				return RD_ENOMEM;
			b->stid[b->nstid++] = t;
		}
		b->store_threads = (uint32_t)(off + k->store_threads);
	}
	b->nstores += k->nstores;
	return RD_OK;
}

int rd_part_builder_add(rd_part_builder *b, rd_kernel *chunk)
{
	int rc = b->rc;
	if (rc == RD_OK && (!chunk->block_size || (b->block_size && chunk->block_size != b->block_size) ||
			    chunk->release || !chunk->part_block))
		rc = RD_EINVAL;
	rd_sched s;
	rd_coal co;
	memset(&s, 0, sizeof s);
	memset(&co, 0, sizeof co);
	if (rc == RD_OK)
		rc = sched_build(&s, chunk, &b->c);
	if (rc == RD_OK)
		rc = coal_build_lines(&co, chunk, &s, b->c.l1_line, b->c.l1_sector, 0,
				      b->c.stores != RD_STORES_IGNORE, NULL, NULL, b->threads, 0,
				      &b->lines);
	if (rc == RD_OK)
		rc = builder_append(b, &s, &co);
	if (rc == RD_OK)
		rc = builder_index(b, chunk, (uint64_t)b->nblocks * chunk->block_size);
	if (rc == RD_OK) {
		b->block_size = chunk->block_size;
		b->nblocks += chunk->part_nblocks;
	}
	coal_free(&co);
	sched_free(&s);
	if (!chunk->release)
		kernel_spend_accesses(chunk);
	rd_kernel_free(chunk);
	b->rc = rc;
	return rc;
}

int rd_part_builder_shell(rd_part_builder *b, rd_kernel *k)
{
	if (b->rc != RD_OK)
		return b->rc;
	if (k->release || k->nloads || k->nstores || k->part_nblocks != b->nblocks ||
	    (b->nblocks && k->block_size != b->block_size))
		return RD_EINVAL;
	uint64_t *first = malloc(((uint64_t)b->nthreads + 1) * sizeof *first);
	if (!first)
		return RD_ENOMEM;
	if (b->nthreads)
		memcpy(first, b->first, (size_t)b->nthreads * sizeof *first);
	first[b->nthreads] = b->nloads;
	kernel_free_accesses(k);
	free(k->thread_first);
	k->thread_first = first;
	k->nthreads = b->nthreads;
	k->nloads = b->nloads;
	k->nstores = b->nstores;
	k->store_threads = b->nstores ? b->store_threads : 0;
	return RD_OK;
}

/* m's schedule over its shell kernel, whose threads with stores are
 * stid[0..nstid) (the schedule reads of the stores which threads have
 * some: each once, as if one store each), as stages_prepare's stage. */
static int part_sched(rd_model *m, const rd_config *c, const uint32_t *stid, uint64_t nstid)
{
	rd_kernel v = *m->k;
	v.store_tid = (uint32_t *)stid;
	v.nstores = nstid;
	int rc = sched_build(&m->sched, &v, c);
	if (rc)
		return rc;
	m->have_sched = 1;
	m->sched_key = *c;
	m->stage_runs[RD_STAGE_SCHED]++;
	return RD_OK;
}

/* m's coalescing (m->coal, set by the caller) taken as stages_prepare's
 * stage under c, with the fully associative case's set index. */
static int part_coal_done(rd_model *m, const rd_config *c)
{
	m->have_coal = 1;
	m->gen_coal++;
	m->coal_key = *c;
	m->stage_runs[RD_STAGE_COAL]++;
	m->zeros = calloc(m->coal.nlines ? m->coal.nlines : 1, sizeof *m->zeros);
	return m->zeros ? RD_OK : RD_ENOMEM;
}

/* m's schedule built over its (shell) kernel, and b's requests taken as
 * its coalescing, as stages_prepare would make them over the whole part. */
static int part_take(rd_model *m, const rd_config *c, rd_part_builder *b)
{
	int rc = part_sched(m, c, b->stid, b->nstid);
	if (rc)
		return rc;
	if (m->sched.nwarps != b->nwarps)
		return RD_EINVAL; /* (the chunks were not the part's blocks) */
	rd_coal *co = &b->co;
	if (room_for((void **)&co->warp_instr_first, &b->wcap, (uint64_t)b->nwarps + 1,
		     sizeof *co->warp_instr_first) < 0)
		return RD_ENOMEM;
	co->warp_instr_first[b->nwarps] = co->ninstr;
	coal_shrink(co, b->ident);
	if (!co->req && !(co->req = malloc(sizeof *co->req)))
		return RD_ENOMEM;
	co->line_addr = b->lines.line_addr;
	co->nlines = b->lines.nlines;
	b->lines.line_addr = NULL;
	coal_lines_free(&b->lines); /* (its map is not read again) */
	m->coal = *co;
	memset(co, 0, sizeof *co);
	b->wcap = b->icap = b->rcap = 0;
	return part_coal_done(m, c);
}

/* ---------------------------------------------------------------- a part streamed */

/* What reading a streamed part once gives: its lines named in the order
 * its warps meet them (as coalescing the part whole would), its requests
 * counted, and its threads' loads and stores. */
typedef struct stream_pre {
	coal_lines lines;
	uint64_t nreq;
	uint64_t *line_req, line_req_cap; /* [lines] each line's requests */
	uint64_t *loads, *stores; /* [part threads] */
	uint64_t nthreads;
	/* Up to keep_max requests the reading keeps them (co: requests and
	 * instruction index, wif: each warp's first instruction, warps of
	 * every block in order); past it they are read again by each case */
	uint64_t keep_max;
	int keep;
	rd_coal co;
	uint64_t rcap, icap;
	uint64_t *wif;
	const rd_callbacks *cb; /* asked between batches of warps (rd_parts_set_stop) */
	int threads;            /* >= 2: the reading may split in two (stream_split) */
	_Atomic int *halt;      /* a helper's reading: stop when set */
} stream_pre;

static void stream_pre_free(stream_pre *sp)
{
	coal_lines_free(&sp->lines);
	free(sp->loads);
	free(sp->stores);
	free(sp->line_req);
	free(sp->co.req);
	free(sp->co.instr_req_first);
	free(sp->wif);
	memset(sp, 0, sizeof *sp);
}

static int stream_warps(stream_pre *sp, const rd_config *c, uint32_t bs, const rd_access_src *src,
			uint64_t t0, uint64_t nt, uint64_t *wip);

/* A helper reading the second half of a part's threads (stream_split). */
typedef struct stream_half {
	stream_pre sp;
	const rd_config *c;
	uint32_t bs;
	const rd_access_src *src;
	uint64_t t0, t1;
	int rc;
	_Atomic int done;
} stream_half;

static void *stream_half_run(void *arg)
{
	stream_half *h = arg;
	uint64_t wi = 0;
	h->rc = stream_warps(&h->sp, h->c, h->bs, h->src, h->t0, h->t1, &wi);
	atomic_store(&h->done, 1);
	return NULL;
}

/*
 * The part's threads [t0, nt), not kept, read on two threads: a helper
 * reads the second half (from a warp's start) with its own lines, the
 * caller the first; then the helper's lines not met before are named
 * after the caller's, in the order it met them, and its counts added.
 * That is the order one reading meets them in: the same ids, counts and
 * result. The caller asks the stop question while it waits. A failure of
 * the first half is the reading's (the source keeps the first failing
 * thread's message). 1: not split (too few warps, or no thread).
 */
static int stream_split(stream_pre *sp, const rd_config *c, uint32_t bs, const rd_access_src *src,
			uint64_t t0, uint64_t nt, int *rcp)
{
	uint32_t ws = c->warp_size ? c->warp_size : 1;
	uint64_t mid = t0 + (nt - t0) / 2, blk = mid / bs * bs;
	mid = blk + (mid - blk) / ws * ws; /* a warp's first thread */
	if (mid <= t0 || mid >= nt)
		return 1;
	stream_half *h = calloc(1, sizeof *h);
	if (!h)
		return 1;
	_Atomic int halt;
	atomic_init(&halt, 0);
	atomic_init(&h->done, 0);
	h->c = c;
	h->bs = bs;
	h->src = src;
	h->t0 = mid;
	h->t1 = nt;
	h->sp.loads = sp->loads; /* (its threads' counts: apart from the caller's) */
	h->sp.stores = sp->stores;
	h->sp.nthreads = sp->nthreads;
	h->sp.halt = &halt;
	pthread_t th;
	if (linemap_init(&h->sp.lines.map, 1 << 14) < 0 ||
	    pthread_create(&th, NULL, stream_half_run, h) != 0) {
		coal_lines_free(&h->sp.lines);
		free(h);
		return 1;
	}
	uint64_t wi = 0;
	int threads = sp->threads;
	sp->threads = 1; /* (the first half is not split again) */
	int rc = stream_warps(sp, c, bs, src, t0, mid, &wi);
	sp->threads = threads;
	if (rc != RD_OK)
		atomic_store(&halt, 1);
	while (!atomic_load(&h->done)) {
		if (stage_cancelled(sp->cb)) {
			atomic_store(&halt, 1);
			if (rc == RD_OK)
				rc = RD_ECANCELED;
		}
		struct timespec ts = {0, 2000000};
		nanosleep(&ts, NULL);
	}
	pthread_join(th, NULL);
	if (rc == RD_OK)
		rc = h->rc;
	/* the helper's lines after the caller's */
	coal_lines *a = &sp->lines;
	const coal_lines *b = &h->sp.lines;
	for (uint32_t l = 0; rc == RD_OK && l < b->nlines; l++) {
		int64_t id = coal_lines_id(a, b->line_addr[l]);
		if (id < 0) {
			rc = RD_ENOMEM;
			break;
		}
		if (vec_room_zero((void **)&sp->line_req, &sp->line_req_cap, a->nlines,
				  sizeof *sp->line_req, 1024) < 0) {
			rc = RD_ENOMEM;
			break;
		}
		sp->line_req[id] += h->sp.line_req[l];
	}
	sp->nreq += h->sp.nreq;
	h->sp.loads = h->sp.stores = NULL;
	stream_pre_free(&h->sp);
	free(h);
	*rcp = rc;
	return 0;
}

/* The part's threads [t0, nt) read a warp at a time (stream_read's
 * loop; *wip counts the warps, for the kept requests' index). Once not
 * kept, the rest may be read on two threads (stream_split). */
static int stream_warps(stream_pre *sp, const rd_config *c, uint32_t bs, const rd_access_src *src,
			uint64_t t0, uint64_t nt, uint64_t *wip)
{
	uint32_t ws = c->warp_size ? c->warp_size : 1;
	rd_coal w;
	memset(&w, 0, sizeof w);
	uint64_t rcap = 0, icap = 0;
	int rc = RD_OK, tried = sp->halt != NULL;
	coal_feed *f = NULL; /* (one feed, moved from warp to warp) */
	for (; t0 < nt && rc == RD_OK; (*wip)++) {
		if (!tried && !sp->keep && sp->threads >= 2) {
			tried = 1;
			if (!stream_split(sp, c, bs, src, t0, nt, &rc))
				break;
		}
		uint32_t in_block = (uint32_t)(t0 % bs);
		uint32_t n = bs - in_block < ws ? bs - in_block : ws;
		if (n > nt - t0)
			n = (uint32_t)(nt - t0);
		if (f && coal_feed_reset(f, (uint32_t)t0, n) < 0) {
			rc = RD_EINVAL;
			break;
		}
		if (!f && !(f = coal_feed_new(src, (uint32_t)t0, n, ws, c->l1_line, c->l1_sector,
					      c->stores != RD_STORES_IGNORE))) {
			rc = RD_EINVAL;
			break;
		}
		if (sp->keep)
			sp->wif[*wip] = sp->co.ninstr;
		for (;;) {
			/* kept: appended to co; else into w, dropped */
			rd_coal *into = sp->keep ? &sp->co : &w;
			uint64_t *rc_ = sp->keep ? &sp->rcap : &rcap, *ic_ = sp->keep ? &sp->icap : &icap;
			if (!sp->keep)
				w.nreq = w.ninstr = 0;
			uint64_t r0 = into->nreq;
			into->line_addr = sp->lines.line_addr;
			into->nlines = sp->lines.nlines;
			int64_t k = coal_feed_more(f, into, rc_, ic_, &sp->lines.map, &sp->lines.cap,
						   4096);
			sp->lines.line_addr = into->line_addr;
			sp->lines.nlines = into->nlines;
			into->line_addr = NULL;
			if (k < 0)
				rc = (int)-k;
			if (k <= 0)
				break;
			if (stage_cancelled(sp->cb) || (sp->halt && atomic_load(sp->halt))) {
				rc = RD_ECANCELED;
				break;
			}
			sp->nreq += into->nreq - r0;
			if (vec_room_zero((void **)&sp->line_req, &sp->line_req_cap, sp->lines.nlines,
					  sizeof *sp->line_req, 1024) < 0) {
				rc = RD_ENOMEM;
				break;
			}
			for (uint64_t r = r0; r < into->nreq; r++)
				sp->line_req[into->req[r].line]++;
			if (sp->keep && sp->co.nreq > sp->keep_max) { /* too many: read again */
				sp->keep = 0;
				free(sp->co.req);
				free(sp->co.instr_req_first);
				free(sp->wif);
				memset(&sp->co, 0, sizeof sp->co);
				sp->wif = NULL;
				sp->rcap = sp->icap = 0;
			}
		}
		for (uint32_t i = 0; i < n; i++)
			coal_feed_counts(f, i, &sp->loads[t0 + i], &sp->stores[t0 + i]);
		t0 += n;
	}
	coal_feed_free(f);
	free(w.req);
	free(w.instr_req_first);
	return rc;
}

/* Every warp of the part's blocks in order (a block's threads that the
 * schedule drops, having no access, add nothing), coalesced and dropped. */
static int stream_read(stream_pre *sp, const rd_config *c, const rd_kernel *shape,
		       const rd_access_src *src)
{
	uint32_t bs = shape->block_size, ws = c->warp_size ? c->warp_size : 1;
	uint64_t nt = (uint64_t)shape->part_nblocks * bs;
	if (nt > RD_MAX_THREAD_ID + 1ull)
		return RD_EINVAL;
	/* (gpu.max_threads: the threads below it, in the launch's ids, as the
	 * schedule keeps them; those after are not read) */
	uint64_t all = nt;
	uint64_t below = c->max_threads ? rd_kernel_threads_below(shape, c->max_threads) : nt;
	if (below < nt)
		nt = below;
	sp->nthreads = all;
	sp->loads = calloc(all ? all : 1, sizeof *sp->loads);
	sp->stores = calloc(all ? all : 1, sizeof *sp->stores);
	if (!sp->loads || !sp->stores || linemap_init(&sp->lines.map, 1 << 14) < 0)
		return RD_ENOMEM;
	uint64_t nwarps = (uint64_t)shape->part_nblocks * ((bs + ws - 1) / ws);
	sp->keep = sp->keep_max > 0;
	if (sp->keep && !(sp->wif = malloc((nwarps + 1) * sizeof *sp->wif)))
		return RD_ENOMEM;
	uint64_t wi = 0;
	int rc = stream_warps(sp, c, bs, src, 0, nt, &wi);
	/* (the warps not read, past gpu.max_threads, have no instruction: the
	 * schedule's warps of a block it ends run to the block's end) */
	for (; rc == RD_OK && sp->keep && wi <= nwarps; wi++)
		sp->wif[wi] = sp->co.ninstr;
	/* the threads past gpu.max_threads counted only (the launch's threads,
	 * as a part built whole has them) */
	uint64_t a[64];
	uint16_t by[64];
	uint8_t st[64];
	for (uint64_t t = nt; t < all && rc == RD_OK; t++) {
		if (stage_cancelled(sp->cb)) {
			rc = RD_ECANCELED;
			break;
		}
		void *cur = src->open(src->ctx, (uint32_t)t);
		if (!cur) {
			rc = RD_EINVAL;
			break;
		}
		int64_t n;
		while ((n = src->next(cur, a, by, st, 64)) > 0)
			for (int64_t i = 0; i < n; i++) {
				sp->stores[t] += st[i] != 0;
				sp->loads[t] += st[i] == 0;
			}
		if (n < 0)
			rc = RD_EINVAL;
		src->close(cur);
	}
	return rc;
}

/* The part's thread index, counts and threads with stores (as the
 * builder's shell has them) into shape; its threads with stores, once
 * each, in *stid. */
static int stream_shell(const stream_pre *sp, rd_kernel *k, uint32_t **stid, uint64_t *nstid)
{
	uint64_t nt = 0, st = 0, nl = 0, ns = 0, nw = 0;
	for (uint64_t t = 0; t < sp->nthreads; t++) {
		if (sp->loads[t])
			nt = t + 1;
		if (sp->stores[t])
			st = t + 1, nw++;
		nl += sp->loads[t];
		ns += sp->stores[t];
	}
	uint64_t *first = malloc((nt + 1) * sizeof *first);
	*stid = malloc((nw ? nw : 1) * sizeof **stid);
	if (!first || !*stid) {
		free(first);
		return RD_ENOMEM;
	}
	uint64_t acc = 0;
	for (uint64_t t = 0; t < nt; t++) {
		first[t] = acc;
		acc += sp->loads[t];
	}
	first[nt] = acc;
	*nstid = 0;
	for (uint64_t t = 0; t < sp->nthreads; t++)
		if (sp->stores[t])
			(*stid)[(*nstid)++] = (uint32_t)t;
	kernel_free_accesses(k);
	free(k->thread_first);
	k->thread_first = first;
	k->nthreads = (uint32_t)nt;
	k->nloads = nl;
	k->nstores = ns;
	k->store_threads = ns ? (uint32_t)st : 0;
	return RD_OK;
}

/* m's schedule over its shell and its lines (no requests: each case reads
 * them as it runs). */
static int stream_take(rd_model *m, const rd_config *c, stream_pre *sp, const uint32_t *stid,
		       uint64_t nstid)
{
	int rc = part_sched(m, c, stid, nstid);
	if (rc)
		return rc;
	/* (the requests per set are counted for one core; the threads the
	 * lines were named over are those the schedule keeps, stream_read) */
	uint32_t cores = 0;
	for (uint32_t i = 0; i < m->sched.ncores; i++)
		cores += m->sched.core_first[i] != m->sched.core_first[i + 1];
	if (cores > 1)
		return RD_EINVAL;
	memset(&m->coal, 0, sizeof m->coal);
	if (sp->keep) { /* the requests kept: the part's coalescing, as built whole */
		const rd_sched *s = &m->sched;
		rd_coal *co = &m->coal;
		co->warp_instr_first = malloc(((uint64_t)s->nwarps + 1) * sizeof *co->warp_instr_first);
		if (!co->warp_instr_first)
			return RD_ENOMEM;
		for (uint32_t b = 0; b < s->nblocks; b++)
			for (uint32_t j = 0; j < s->warps_per_block; j++)
				co->warp_instr_first[b * s->warps_per_block + j] =
					sp->wif[(uint64_t)sched_block_id(s, b) * s->warps_per_block + j];
		co->warp_instr_first[s->nwarps] = sp->co.ninstr;
		co->req = sp->co.req;
		co->instr_req_first = sp->co.instr_req_first;
		co->ninstr = sp->co.ninstr;
		co->nreq = sp->co.nreq;
		memset(&sp->co, 0, sizeof sp->co);
		coal_shrink(co, co->ninstr == co->nreq);
		if (!co->req && !(co->req = malloc(sizeof *co->req)))
			return RD_ENOMEM;
	}
	m->coal.line_addr = sp->lines.line_addr;
	m->coal.nlines = sp->lines.nlines;
	m->coal.nreq = sp->nreq; /* (streamed: the progress's total; no requests here) */
	sp->lines.line_addr = NULL;
	return part_coal_done(m, c);
}

static int part_add(rd_parts *p, const rd_kernel *k, rd_kernel *spend, const rd_callbacks *cb,
		    void (*ready)(void *ctx), void *ctx, rd_part_builder *built,
		    stream_pre *sp, const rd_access_src *src)
{
	if (cb && (cb->by_site || cb->event)) {
		if (ready)
			ready(ctx);
		return RD_EINVAL;
	}
	if (!cb && p->stop_fn)
		cb = &p->stop;
	rd_model *m = rd_model_new(k);
	if (!m) {
		if (ready)
			ready(ctx);
		return RD_ENOMEM;
	}
	m->no_memo = 1;
	m->spend = spend != NULL;
	m->threads = p->threads;
	m->spill_at = p->spill;
	sim_counts cc[RD_NCASES];
	memset(cc, 0, sizeof cc);
	int same = 0;
	int rc = built ? part_take(m, &p->c, built) : RD_OK;
	if (sp) {
		uint32_t *stid = NULL;
		uint64_t nstid = 0;
		rc = stream_shell(sp, spend, &stid, &nstid);
		if (rc == RD_OK)
			rc = stream_take(m, &p->c, sp, stid, nstid);
		free(stid);
		if (!sp->keep) {
			m->src = src;
			m->src_map = &sp->lines.map;
			m->src_line_req = sp->line_req;
		}
	}
	if (rc == RD_OK)
		rc = stages_prepare(m, &p->c, NULL, cb);
	uint64_t accesses = 0; /* (counted before the thread index can go) */
	for (uint32_t t = 0; rc == RD_OK && t < m->sched.nthreads; t++)
		accesses += kernel_loads(k, t);
	if (spend)
		kernel_spend_accesses(spend);
	if (ready)
		ready(ctx);
	if (rc == RD_OK)
		rc = cases_run(m, &p->c, p->cases, cb, cc, &same);
	run_facts f = {.threads_modelled = m->sched.nthreads, .stores = k->nstores,
		       .blocks = m->sched.nblocks, .cores_used = m->sched.cores_active};
	f.threads_total = k->nthreads;
	if (p->c.stores != RD_STORES_IGNORE && k->store_threads > k->nthreads)
		f.threads_total = k->store_threads;
	if (k->part_block && f.threads_total) {
		/* a part numbered over its own blocks: the launch's ids, as
		 * sched_build counts them (gpu.max_threads in launch ids) */
		f.threads_total = (uint32_t)rd_kernel_launch_thread(k, f.threads_total - 1) + 1;
		f.threads_modelled = p->c.max_threads && f.threads_total > p->c.max_threads
					     ? p->c.max_threads
					     : f.threads_total;
	}
	f.accesses = accesses;
	pthread_mutex_lock(&p->mu);
	for (int i = 0; rc == RD_OK && i < RD_NCASES; i++) {
		sim_counts view = cc[i];
		view.l2s = NULL; /* (case 0's records: the parts' stream, below) */
		view.nl2s = 0;
		memset(&view.pk, 0, sizeof view.pk);
		if (cc[i].nsets && p->nparts && cc[i].nsets != p->sets_n)
			p->sets_differ = 1;
		if (counts_merge(&p->cc[i], &view) < 0)
			rc = RD_ENOMEM;
	}
	if (rc == RD_OK && cc[0].nsets)
		p->sets_n = cc[0].nsets;
	if (rc == RD_OK && ((cc[0].pk.n && l2pack_cat(&p->pk, &cc[0].pk) < 0) ||
			    (cc[0].nl2s && l2pack_add(&p->pk, cc[0].l2s, cc[0].nl2s) < 0)))
		rc = p->pk.ioerr || cc[0].pk.ioerr ? RD_EIO : RD_ENOMEM;
	if (spend && spend->spare)
		p->spare = spend->spare;
	if (rc == RD_OK) {
		p->same = p->nparts ? p->same & same : same;
		p->nparts++;
		if (f.threads_total > p->f.threads_total)
			p->f.threads_total = f.threads_total;
		if (f.threads_modelled > p->f.threads_modelled)
			p->f.threads_modelled = f.threads_modelled;
		p->f.accesses += f.accesses;
		p->f.blocks += f.blocks;
		p->f.cores_used += f.cores_used;
		p->f.stores += f.stores;
	}
	pthread_mutex_unlock(&p->mu);
	for (int i = 0; i < RD_NCASES; i++)
		counts_free(&cc[i]);
	rd_model_free(m);
	return rc;
}

int rd_parts_add(rd_parts *p, const rd_kernel *k, const rd_callbacks *cb)
{
	return part_add(p, k, NULL, cb, NULL, NULL, NULL, NULL, NULL);
}

int rd_parts_add_spent(rd_parts *p, rd_kernel *k, void (*ready)(void *ctx), void *ctx)
{
	return part_add(p, k, k, NULL, ready, ctx, NULL, NULL, NULL);
}

int rd_parts_add_built(rd_parts *p, rd_kernel *shape, rd_part_builder *b,
		       void (*ready)(void *ctx), void *ctx)
{
	return part_add(p, shape, shape, NULL, ready, ctx, b, NULL, NULL);
}

int rd_parts_add_stream(rd_parts *p, rd_kernel *shape, const rd_access_src *src,
			void (*ready)(void *ctx), void *ctx)
{
	stream_pre sp;
	memset(&sp, 0, sizeof sp);
	int rc = RD_OK;
	if (p->c.model != RD_PROFILE_PAPER || shape->release || shape->nloads || shape->nstores ||
	    !shape->block_size || !shape->part_block)
		rc = RD_EINVAL;
	sp.keep_max = p->stream_keep;
	sp.cb = p->stop_fn ? &p->stop : NULL;
	sp.threads = p->threads;
	if (rc == RD_OK)
		rc = stream_read(&sp, &p->c, shape, src);
	if (rc == RD_OK)
		rc = part_add(p, shape, shape, NULL, ready, ctx, NULL, &sp, src);
	else if (ready)
		ready(ctx);
	stream_pre_free(&sp);
	return rc;
}

int rd_parts_finish(rd_parts *p, const rd_kernel *shape, const rd_callbacks *cb, rd_result *r)
{
	memset(r, 0, sizeof *r);
	if (p->spare) { /* no part is built after (its memory is the L2's) */
		kernel_spare_empty(p->spare);
		p->spare = NULL;
	}
	if (!p->nparts || p->sets_differ || (cb && (cb->by_site || cb->event)))
		return RD_EINVAL;
	/* case 0's stream: the parts' records one part after another, each
	 * core's in one part and in their order, which is all the L2 and
	 * DRAM stages read of it (stream_build takes each core's records in
	 * order and merges the cores by step: the bytes of one run); packed
	 * (l2pack: about 3 bytes a record, l2req 24), read in place */
	if (p->pk.f && l2pack_flush(&p->pk) < 0) /* (all of it in the file: l2.c reads it there) */
		return RD_EIO;
	p->cc[0].pk = p->pk;
	memset(&p->pk, 0, sizeof p->pk);
	rd_model *tot = rd_model_new(shape);
	if (!tot)
		return RD_ENOMEM;
	tot->no_memo = 1;
	tot->spend_stream = 1;
	tot->sched.ncores = p->c.cores; /* (the L2 and DRAM stages read it) */
	sim_counts offc;
	memset(&offc, 0, sizeof offc);
	run_facts f = p->f;
	if (p->sample_active && p->sample_active > f.cores_used) {
		/* the parts are the sampled cores: their threads and loads are
		 * scaled with the counts (the estimate of the whole kernel's) */
		uint32_t sampled = f.cores_used;
		f.cores_used = p->sample_active;
		f.cores_sampled = sampled ? sampled : 1;
		f.accesses = (uint64_t)((long double)f.accesses * f.cores_used / f.cores_sampled + 0.5L);
		f.stores = (uint64_t)((long double)f.stores * f.cores_used / f.cores_sampled + 0.5L);
		f.threads_total = f.threads_modelled = p->sample_threads;
		f.blocks = p->sample_blocks;
	}
	int rc = run_report(tot, &p->c, p->cases, p->same, p->cc, &offc, NULL, &f, cb, r, RD_OK);
	memset(p->cc, 0, sizeof p->cc); /* (run_report freed them) */
	rd_model_free(tot);
	if (rc != RD_OK)
		rd_result_free(r);
	return rc;
}

/* The L1 counts of the parts added so far (rd_parts_peek): copied under
 * the mutex (the parts keep theirs), classified as rd_parts_finish
 * classifies them, unscaled, no L2 or DRAM (they need every part). */
int rd_parts_peek(rd_parts *p, rd_result *r, uint32_t *nparts)
{
	memset(r, 0, sizeof *r);
	sim_counts cc[RD_NCASES];
	memset(cc, 0, sizeof cc);
	int rc = RD_OK;
	pthread_mutex_lock(&p->mu);
	for (int i = 0; i < RD_NCASES && rc == RD_OK; i++)
		if (counts_merge(&cc[i], &p->cc[i]) < 0)
			rc = RD_ENOMEM;
	run_facts f = p->f;
	int same = p->same;
	if (nparts)
		*nparts = (uint32_t)p->nparts;
	pthread_mutex_unlock(&p->mu);
	if (rc == RD_OK) {
		r->partial = 1;
		result_l1(r, &p->c, &f, p->cases, same, cc);
		result_take_hist(r, &cc[0]);
	}
	for (int i = 0; i < RD_NCASES; i++)
		counts_free(&cc[i]);
	return rc;
}

void rd_parts_free(rd_parts *p)
{
	if (!p)
		return;
	if (p->spare) /* a run that failed or stopped before finishing */
		kernel_spare_empty(p->spare);
	for (int i = 0; i < RD_NCASES; i++)
		counts_free(&p->cc[i]);
	l2pack_free(&p->pk);
	pthread_mutex_destroy(&p->mu);
	free(p);
}

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

void rd_metrics_of(const rd_result *r, const rd_result *l1b, rd_metrics *m)
{
	memset(m, 0, sizeof *m);
	m->l1_r_trans = r->requests;
	m->l1_r_hit = ratio(r->hits, r->requests);
	m->reservation_fails = r->reservation_fails;
	m->merges = r->cls[RD_CLASS_LATENCY];
	m->steps = r->time_steps;
	m->merge_rate = ratio(m->merges, r->misses);
	if (r->has_l2) {
		const rd_level *l = &r->l2;
		m->l2_trans = l->requests + l->store_requests;
		m->l2_hit = ratio(l->hits + l->store_hits, m->l2_trans);
		m->l2_r_hit = ratio(l->hits, l->requests);
	}
	if (l1b && l1b->has_l2) {
		const rd_level *l = &l1b->l2;
		m->have_l1b = 1;
		m->l2_trans_l1b = l->requests + l->store_requests;
		m->l2_hit_l1b = ratio(l->hits + l->store_hits, m->l2_trans_l1b);
	}
}

static void level_free(rd_level *l)
{
	free(l->hist);
	free(l->hist_w);
	free(l->bank_requests);
	free(l->bank_misses);
	memset(l, 0, sizeof *l);
}

double rd_result_l1_hit_rate(const rd_result *r)
{
	if (r->sector_lookups)
		return (double)r->sector_hits / (double)r->sector_lookups;
	return r->requests ? 1.0 - r->miss_rate : NAN;
}

double rd_level_hit_rate(const rd_level *l)
{
	if (l->sector_bytes)
		return l->sector_lookups ? (double)l->sector_hits / (double)l->sector_lookups : NAN;
	return l->requests ? 1.0 - l->miss_rate : NAN;
}

void rd_result_free(rd_result *r)
{
	level_free(&r->l2);
	r->has_l2 = 0;
	r->has_dram = 0;
	free(r->hist);
	free(r->hist_w);
	r->hist_w = NULL;
	r->hist_w_len = 0;
	free(r->set_requests);
	free(r->set_misses);
	free(r->set_ids);
	free(r->sites);
	r->sites = NULL;
	r->nsites = 0;
	r->hist = NULL;
	r->set_requests = r->set_misses = NULL;
	r->set_ids = NULL;
	r->hist_len = r->nsets = 0;
}

const char *rd_class_name(enum rd_class c)
{
	static const char *const names[] = {"compulsory", "capacity", "associativity", "latency",
					    "mshr", "write_evict", "bypass", "sector"};
	return (unsigned)c < RD_NCLASS ? names[c] : "?";
}

int rd_class_possible(const rd_config *c, enum rd_class k)
{
	switch (k) {
	case RD_CLASS_WRITE_EVICT:
		return c->stores == RD_STORES_EVICT;
	case RD_CLASS_BYPASS:
		return c->loads == RD_LOADS_BYPASS;
	case RD_CLASS_SECTOR:
		return c->l1_sector != 0;
	default:
		return (unsigned)k < RD_NCLASS;
	}
}

int rd_l2_class_possible(const rd_config *c, enum rd_class k)
{
	switch (k) {
	case RD_CLASS_COMPULSORY:
	case RD_CLASS_CAPACITY:
	case RD_CLASS_ASSOCIATIVITY:
	case RD_CLASS_LATENCY:
		return 1;
	case RD_CLASS_WRITE_EVICT: /* stores reach the L2 unless the L1 ignores them */
		return c->stores != RD_STORES_IGNORE && c->l2_stores == RD_STORES_EVICT;
	default:
		return 0;
	}
}

const char *rd_strerror(int status)
{
	switch (status) {
	case RD_OK:
		return "ok";
	case RD_ECANCELED:
		return "cancelled";
	case RD_ENOMEM:
		return "out of memory";
	case RD_EINVAL:
		return "invalid configuration or kernel";
	case RD_EIO:
		return "a temporary file (in $TMPDIR, else /tmp) could not be made, written or read: "
		       "is it missing or full?";
	}
	return "unknown error";
}
