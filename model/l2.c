/*
 * The L2 stage: RDGC's L2 trace construction and L2 analysis (seed 001,
 * Algorithm 1; notes §A8), after every core's L1 has run.
 *
 *  1. merge: the cores' streams of requests leaving their L1 (step, core,
 *     L1 line, read or write) ordered by step, and within a step
 *     round-robin across the cores from core 0 (one request of each core
 *     with requests left at that step, in turn);
 *  2. to L2 lines: an L1 line larger than the L2's becomes one request per
 *     L2 line, in address order; a smaller one a request of its L2 line;
 *  3. placement: the byte address's stripe of l2.interleave bytes picks
 *     the partition (stripe mod partitions), then the bank within it
 *     ((stripe / partitions) mod banks); the line with the partition and
 *     bank digits taken out picks the set within the bank (l2.hash over
 *     the bank's sets); partition p uses MSHR set p * sets / partitions;
 *  4. the banks (pcache.c): each L2 step first admits the requests whose L1
 *     step is at most it, in the merged order; then each waiting request,
 *     oldest first, takes a free port of its bank and is tried; a
 *     reservation fail keeps waiting (with its port: it is older).
 *
 * Classes: compulsory, latency (merges), write_evict (l2.stores=evict),
 * and of the other misses those a run with each bank's sets made one
 * fully associative set would hit are associativity misses, the rest
 * capacity. Calls nothing above it.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Open addressing from L2 line address to a dense id. */
typedef struct lmap {
	uint64_t *key;
	uint32_t *val;
	uint64_t mask;
	uint32_t n;
} lmap;

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static int lmap_init(lmap *m, uint64_t expect)
{
	uint64_t cap = 64;
	while (cap < expect * 2)
		cap *= 2;
	m->key = malloc(cap * sizeof *m->key);
	m->val = malloc(cap * sizeof *m->val);
	m->mask = cap - 1;
	m->n = 0;
	if (!m->key || !m->val)
		return -1;
	memset(m->val, 0xff, cap * sizeof *m->val);
	return 0;
}

static uint32_t lmap_get(lmap *m, uint64_t k)
{
	uint64_t i = mix(k) & m->mask;
	while (m->val[i] != UINT32_MAX) {
		if (m->key[i] == k)
			return m->val[i];
		i = (i + 1) & m->mask;
	}
	m->key[i] = k;
	m->val[i] = m->n;
	return m->n++;
}

static void lmap_free(lmap *m)
{
	free(m->key);
	free(m->val);
}

/* The merged stream, as L2 requests. */
typedef struct l2stream {
	uint64_t n;
	uint64_t *t;
	uint32_t *line;  /* dense L2 line id */
	uint32_t *core;
	uint8_t *store;
	uint32_t nlines;
	uint64_t *line_addr; /* [nlines] L2 line address */
} l2stream;

static void stream_free(l2stream *s)
{
	free(s->t);
	free(s->line);
	free(s->core);
	free(s->store);
	free(s->line_addr);
	memset(s, 0, sizeof *s);
}

static int log2u64(uint64_t v)
{
	int n = 0;
	while (v > 1) {
		v >>= 1;
		n++;
	}
	return n;
}

/* Steps 1 and 2. */
static int stream_build(l2stream *s, const sim_counts *c0, uint32_t ncores, uint32_t l1_line,
			uint32_t l2_line)
{
	memset(s, 0, sizeof *s);
	uint64_t n = c0->nl2s, per = l1_line > l2_line ? l1_line / l2_line : 1;
	const l2req *v = c0->l2s;
	/* each core's segment (cores one after the other), sorted by step */
	uint64_t *first = calloc((size_t)ncores + 1, sizeof *first);
	uint64_t *pos = calloc((size_t)ncores + 1, sizeof *pos);
	uint64_t *order = malloc((n ? n : 1) * sizeof *order);
	int rc = -1;
	lmap map = {0};
	if (!first || !pos || !order)
		goto out;
	for (uint64_t i = 0; i < n; i++)
		if (v[i].core < ncores)
			first[v[i].core + 1]++;
	for (uint32_t c = 0; c < ncores; c++)
		first[c + 1] += first[c];
	memcpy(pos, first, ((size_t)ncores + 1) * sizeof *pos);
	{
		uint64_t *slot = malloc(((size_t)ncores + 1) * sizeof *slot);
		if (!slot)
			goto out;
		memcpy(slot, first, ((size_t)ncores + 1) * sizeof *slot);
		uint64_t *byc = malloc((n ? n : 1) * sizeof *byc);
		if (!byc) {
			free(slot);
			goto out;
		}
		for (uint64_t i = 0; i < n; i++) /* stable: each core's issue order */
			if (v[i].core < ncores)
				byc[slot[v[i].core]++] = i;
		free(slot);
		/* round-robin by step */
		uint64_t k = 0;
		for (;;) {
			uint64_t tmin = UINT64_MAX;
			for (uint32_t c = 0; c < ncores; c++)
				if (pos[c] < first[c + 1] && v[byc[pos[c]]].t < tmin)
					tmin = v[byc[pos[c]]].t;
			if (tmin == UINT64_MAX)
				break;
			for (int any = 1; any;) {
				any = 0;
				for (uint32_t c = 0; c < ncores; c++)
					if (pos[c] < first[c + 1] && v[byc[pos[c]]].t <= tmin) {
						order[k++] = byc[pos[c]++];
						any = 1;
					}
			}
		}
		free(byc);
		n = k;
	}
	uint64_t total = n * per;
	s->t = malloc((total ? total : 1) * sizeof *s->t);
	s->line = malloc((total ? total : 1) * sizeof *s->line);
	s->core = malloc((total ? total : 1) * sizeof *s->core);
	s->store = malloc(total ? total : 1);
	if (!s->t || !s->line || !s->core || !s->store || lmap_init(&map, total) < 0)
		goto out;
	int sh1 = log2u64(l1_line), sh2 = log2u64(l2_line);
	for (uint64_t i = 0; i < n; i++) {
		const l2req *q = &v[order[i]];
		uint64_t byte = q->line << sh1;
		for (uint64_t j = 0; j < per; j++) {
			uint64_t a2 = (byte >> sh2) + j;
			s->t[s->n] = q->t;
			s->line[s->n] = lmap_get(&map, a2);
			s->core[s->n] = q->core;
			s->store[s->n] = (uint8_t)q->store;
			s->n++;
		}
	}
	s->nlines = map.n;
	s->line_addr = malloc((map.n ? map.n : 1) * sizeof *s->line_addr);
	if (!s->line_addr)
		goto out;
	for (uint64_t i = 0; i <= map.mask; i++)
		if (map.val[i] != UINT32_MAX)
			s->line_addr[map.val[i]] = map.key[i];
	rc = 0;
out:
	lmap_free(&map);
	free(first);
	free(pos);
	free(order);
	if (rc)
		stream_free(s);
	return rc;
}

/* Step 3: global bank, set (bank-major) and MSHR set of each line. */
typedef struct l2place {
	uint32_t *bank, *set, *mset;
	uint32_t nbanks, spb;
} l2place;

static int place(l2place *pl, const rd_config *c, const l2stream *s, int fully_assoc)
{
	uint32_t np = c->l2_partitions, nb = c->l2_banks, spb = rd_config_l2_sets(c);
	uint64_t il = rd_config_l2_interleave(c), per = il / c->l2_line;
	size_t n = s->nlines ? s->nlines : 1;
	pl->bank = malloc(n * sizeof *pl->bank);
	pl->set = malloc(n * sizeof *pl->set);
	pl->mset = malloc(n * sizeof *pl->mset);
	pl->nbanks = np * nb;
	pl->spb = fully_assoc ? 1 : spb;
	if (!pl->bank || !pl->set || !pl->mset)
		return -1;
	rd_config h = *c; /* the L1's hash function over the bank's sets */
	h.l1_hash = c->l2_hash;
	h.l1_hash_shift = c->l2_hash_shift;
	h.l1_line = c->l2_line;
	h.model = RD_PROFILE_PAPER;
	for (uint32_t l = 0; l < s->nlines; l++) {
		uint64_t a2 = s->line_addr[l];
		uint64_t stripe = a2 / per;
		uint32_t part = (uint32_t)(stripe % np);
		uint32_t bank = (uint32_t)((stripe / np) % nb);
		uint64_t local = (stripe / ((uint64_t)np * nb)) * per + a2 % per;
		uint32_t g = part * nb + bank;
		pl->bank[l] = g;
		pl->set[l] = g * pl->spb + (fully_assoc ? 0 : rd_set_index(&h, spb, local));
		pl->mset[l] = (uint32_t)((uint64_t)part * c->l2_mshr_sets / np);
	}
	return 0;
}

static void place_free(l2place *pl)
{
	free(pl->bank);
	free(pl->set);
	free(pl->mset);
}

/* Step 4: one run of the banks. */
static int banks_run(const rd_config *c, const l2stream *s, const l2place *pl, int fully_assoc,
		     const rd_callbacks *cb, sim_counts *out, uint64_t *rf, uint64_t *steps,
		     uint64_t *bank_req, uint64_t *bank_miss)
{
	uint32_t nsets = pl->nbanks * pl->spb;
	uint32_t ways = fully_assoc ? rd_config_l2_sets(c) * c->l2_ways : c->l2_ways;
	uint32_t *cap = calloc(nsets ? nsets : 1, sizeof *cap);
	uint32_t *port_used = calloc(pl->nbanks, sizeof *port_used);
	uint64_t *wait = malloc((s->n ? s->n : 1) * sizeof *wait);
	pcache pc;
	int rc = RD_ENOMEM, inited = 0;
	if (!cap || !port_used || !wait)
		goto out;
	for (uint64_t i = 0; i < s->n; i++)
		cap[pl->set[s->line[i]]]++;
	if (pc_init(&pc, nsets, cap, s->nlines, pl->set, ways, c->l2_replacement, c->seed,
		    fully_assoc ? 7 : 6, c->l2_stores, !fully_assoc) != RD_OK)
		goto out;
	inited = 1;
	if (pc_msets(&pc, c->l2_mshr_sets, c->l2_mshrs, c->l2_max_merges, pl->mset) < 0)
		goto out;
	pc.lat = c->latency_l2;
	pc.out = out;
	int events = !fully_assoc && cb && cb->event;
	pc.cb = events ? cb : NULL;
	pc.line_addr = s->line_addr;
	pc.bank_of = pl->bank;
	pc.banks_per_part = c->l2_banks;
	pc.level = 2;
	uint64_t next = 0, nw = 0, t = 0, last = 0, since = 0;
	int any_step = 0;
	while (next < s->n || nw) {
		if (!nw && s->t[next] > t)
			t = s->t[next]; /* idle until the next arrival */
		while (next < s->n && s->t[next] <= t)
			wait[nw++] = next++;
		if (pc_fills(&pc, t, 0) < 0)
			goto out;
		memset(port_used, 0, pl->nbanks * sizeof *port_used);
		uint64_t kept = 0;
		int acted = 0;
		for (uint64_t i = 0; i < nw; i++) {
			uint64_t q = wait[i];
			uint32_t l = s->line[q], b = pl->bank[l];
			if (c->l2_ports && port_used[b] >= c->l2_ports) {
				wait[kept++] = q;
				continue;
			}
			uint32_t port = port_used[b]++;
			int st = s->store[q];
			int o;
			acted = 1;
			if (st && c->l2_stores == RD_STORES_IGNORE) {
				out->store_requests++;
				pc.d = -1;
				pc.cls = -1;
				pc.last_lat = 0;
				o = PC_PAST;
			} else if ((o = pc_access(&pc, l, st, t)) < 0) {
				goto out;
			}
			if (o == PC_RF)
				(*rf)++;
			else if (bank_req) {
				bank_req[b]++;
				bank_miss[b] += o != PC_HIT && o != PC_EVICT;
			}
			if (events) {
				static const int outc[] = {RD_OUT_HIT, RD_OUT_MISS, RD_OUT_MERGE,
							   RD_OUT_RF, RD_OUT_EVICT, RD_OUT_BYPASS};
				rd_event ev = {
					.time = t, .core = s->core[q], .store = st,
					.addr = s->line_addr[l] * c->l2_line, .line = s->line_addr[l],
					.set = pl->set[l] % pl->spb, .distance = pc.d, .outcome = outc[o],
					.cls = pc.cls, .latency = pc.last_lat,
					.effect_at = t + (pc.last_lat ? pc.last_lat - 1 : 0),
					.mshrs_used = pc.used, .level = 2, .partition = b / c->l2_banks,
					.bank = b % c->l2_banks, .port = port,
					.mshrs_free = pc_free_entries(&pc, l),
				};
				cb->event(cb->ctx, &ev);
			}
			if (o == PC_RF)
				wait[kept++] = q;
		}
		nw = kept;
		if (acted) {
			last = t;
			any_step = 1;
		}
		t++;
		if (++since >= 4096) {
			since = 0;
			if (cb && cb->progress && cb->progress(cb->ctx, 1.0)) {
				rc = RD_ECANCELED;
				goto out;
			}
		}
	}
	if (pc_fills(&pc, UINT64_MAX, 0) < 0)
		goto out;
	*steps = any_step ? last + 1 : 0;
	rc = RD_OK;
out:
	if (inited)
		pc_free(&pc);
	free(cap);
	free(port_used);
	free(wait);
	return rc;
}

int l2_run(const rd_config *c, const sim_counts *c0, uint32_t ncores, const rd_callbacks *cb,
	   rd_level *out)
{
	memset(out, 0, sizeof *out);
	l2stream s;
	l2place pl = {0}, fa = {0};
	sim_counts cnt = {0}, fcnt = {0};
	uint64_t rf = 0, frf = 0, steps = 0, fsteps = 0;
	int rc = RD_ENOMEM;
	if (stream_build(&s, c0, ncores, c->l1_line, c->l2_line) < 0)
		return RD_ENOMEM;
	uint32_t nb = c->l2_partitions * c->l2_banks;
	out->partitions = c->l2_partitions;
	out->banks = c->l2_banks;
	out->sets = rd_config_l2_sets(c);
	out->bank_requests = calloc(nb, sizeof *out->bank_requests);
	out->bank_misses = calloc(nb, sizeof *out->bank_misses);
	if (!out->bank_requests || !out->bank_misses)
		goto done;
	if (place(&pl, c, &s, 0) < 0 || place(&fa, c, &s, 1) < 0)
		goto done;
	if ((rc = banks_run(c, &s, &pl, 0, cb, &cnt, &rf, &steps, out->bank_requests,
			    out->bank_misses)) != RD_OK)
		goto done;
	if ((rc = banks_run(c, &s, &fa, 1, cb, &fcnt, &frf, &fsteps, NULL, NULL)) != RD_OK)
		goto done;
	out->requests = cnt.requests;
	out->hits = cnt.hits;
	out->misses = cnt.misses;
	out->cls[RD_CLASS_COMPULSORY] = cnt.compulsory;
	out->cls[RD_CLASS_LATENCY] = cnt.latency;
	out->cls[RD_CLASS_WRITE_EVICT] = cnt.write_evict;
	uint64_t rest = cnt.misses - COUNTS_KNOWN(&cnt);
	uint64_t frest = fcnt.misses - COUNTS_KNOWN(&fcnt);
	uint64_t assoc = rest > frest ? rest - frest : 0;
	out->cls[RD_CLASS_ASSOCIATIVITY] = assoc;
	out->cls[RD_CLASS_CAPACITY] = rest - assoc;
	out->store_requests = cnt.store_requests;
	out->store_hits = cnt.store_hits;
	out->store_evictions = cnt.store_evictions;
	out->reservation_fails = rf;
	out->merges = cnt.latency;
	out->steps = steps;
	out->miss_rate = cnt.requests ? (double)cnt.misses / (double)cnt.requests : 0.0;
	out->hist = cnt.hist;
	out->hist_len = cnt.hist_len;
	out->hist_inf = cnt.hist_inf;
	cnt.hist = NULL;
	out->hist_w = cnt.hist_w;
	out->hist_w_len = cnt.hist_w_len;
	out->hist_w_inf = cnt.hist_w_inf;
	cnt.hist_w = NULL;
	rc = RD_OK;
done:
	if (rc != RD_OK) {
		free(out->bank_requests);
		free(out->bank_misses);
		out->bank_requests = out->bank_misses = NULL;
	}
	counts_free(&cnt);
	counts_free(&fcnt);
	place_free(&pl);
	place_free(&fa);
	stream_free(&s);
	return rc;
}
