/*
 * The last pipeline stage: the five miss classes from the four case runs
 * (Nugteren et al., HPCA 2014, §6.1), for each profile.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static uint64_t clamp_sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/* Paper profile: compulsory and latency misses are known per request; the
 * rest is split by difference with the fully associative and the
 * unlimited-MSHR runs, clamped so the five classes add up to the total.
 * Per access (classes=per-access), associativity misses are the ones the
 * shadow fully associative cache would hit, counted per request; the
 * MSHR misses (a difference still) are taken from the capacity misses
 * first. */
void classify_paper(rd_result *r, const sim_counts cc[RD_NCASES], int cases, int per_access)
{
	const sim_counts *c0 = &cc[0];
	uint64_t rest0 = c0->misses - COUNTS_KNOWN(c0);
	uint64_t assoc = 0, mshr = 0;
	if (per_access)
		assoc = c0->assoc_access;
	else if (cases & (1 << RD_CASE_FULLY_ASSOC)) {
		uint64_t rest1 = cc[1].misses - COUNTS_KNOWN(&cc[1]);
		assoc = clamp_sub(rest0, rest1);
	}
	if (cases & (1 << RD_CASE_NO_MSHR)) {
		uint64_t rest3 = cc[3].misses - COUNTS_KNOWN(&cc[3]);
		mshr = clamp_sub(rest0, rest3);
		if (per_access) {
			/* from the capacity misses first, then associativity */
			if (mshr > rest0 - assoc)
				assoc = rest0 - mshr;
		} else if (mshr > rest0 - assoc) {
			mshr = rest0 - assoc;
		}
	}
	r->cls[RD_CLASS_COMPULSORY] = c0->compulsory;
	r->cls[RD_CLASS_LATENCY] = c0->latency;
	r->cls[RD_CLASS_WRITE_EVICT] = c0->write_evict;
	r->cls[RD_CLASS_BYPASS] = c0->bypass;
	r->cls[RD_CLASS_SECTOR] = c0->sector;
	r->cls[RD_CLASS_ASSOCIATIVITY] = assoc;
	r->cls[RD_CLASS_MSHR] = mshr;
	r->cls[RD_CLASS_CAPACITY] = rest0 - assoc - mshr;
	r->hits = c0->hits;
	r->misses = c0->misses;
}

/* Reference profile: its io.cpp arithmetic, defects and all (quirks: a
 * distance equal to the ways is reported as a hit; a negative residue is
 * added to a class instead of subtracted). */
void classify_ref2013(rd_result *r, const sim_counts cc[RD_NCASES], int cases,
			     uint32_t ways, uint32_t sets)
{
	int64_t comp[RD_NCASES], miss[RD_NCASES];
	for (int i = 0; i < RD_NCASES; i++) {
		if (!(cases & (1 << i))) {
			comp[i] = comp[0];
			miss[i] = miss[0];
			continue;
		}
		uint32_t w = i == RD_CASE_FULLY_ASSOC ? ways * sets : ways;
		uint64_t cap = 0;
		for (uint32_t d = w + 1; d < cc[i].hist_len; d++)
			cap += cc[i].hist[d];
		comp[i] = (int64_t)cc[i].hist_inf;
		miss[i] = comp[i] + (int64_t)cap;
	}
	int64_t assoc = miss[0] - miss[1], lat = comp[0] - comp[2], mshr = miss[0] - miss[3];
	int64_t compulsory = comp[2];
	int64_t rest = miss[0] - (compulsory + (lat > 0 ? lat : 0) + (assoc > 0 ? assoc : 0) +
				  (mshr > 0 ? mshr : 0));
	int64_t capacity = rest > 0 ? rest : 0;
	if (rest < 0) {
		int64_t a = -rest;
		if (mshr > a)
			mshr += a;
		else if (lat > a)
			lat += a;
		else
			assoc += a;
	}
	r->cls[RD_CLASS_COMPULSORY] = (uint64_t)(compulsory > 0 ? compulsory : 0);
	r->cls[RD_CLASS_CAPACITY] = (uint64_t)capacity;
	r->cls[RD_CLASS_ASSOCIATIVITY] = (uint64_t)(assoc > 0 ? assoc : 0);
	r->cls[RD_CLASS_LATENCY] = (uint64_t)(lat > 0 ? lat : 0);
	r->cls[RD_CLASS_MSHR] = (uint64_t)(mshr > 0 ? mshr : 0);
	r->misses = (uint64_t)miss[0];
	r->hits = cc[0].requests - r->misses;
	for (int i = 0; i < RD_NCASES; i++)
		if (cases & (1 << i))
			r->case_misses[i] = (uint64_t)miss[i];
}

/* A site and what its share's floor left over, for the largest-remainder
 * pass: sorted largest first (ties: the lower index). */
typedef struct remainder {
	long double r;
	uint32_t i;
} remainder;

static int rem_cmp(const void *a, const void *b)
{
	const remainder *x = a, *y = b;
	if (x->r != y->r)
		return x->r < y->r ? 1 : -1;
	return (x->i > y->i) - (x->i < y->i);
}

/* Share `target` among n sites: as much as fits min(weight, cap) in
 * proportion to it (largest remainders), then the rest wherever a cap
 * leaves room, in site order; each out[i] <= cap[i], and the sum is
 * min(target, sum of caps). */
static void distribute(uint64_t target, uint32_t n, const uint64_t *weight, const uint64_t *cap,
		       uint64_t *out)
{
	long double W = 0;
	uint64_t sum_w = 0, sum_cap = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t m = weight[i] < cap[i] ? weight[i] : cap[i];
		W += (long double)m;
		sum_w += m;
		sum_cap += cap[i];
		out[i] = 0;
	}
	if (target > sum_cap)
		target = sum_cap;
	uint64_t t1 = target < sum_w ? target : sum_w, given = 0;
	if (t1 && W > 0) {
		for (uint32_t i = 0; i < n; i++) {
			uint64_t m = weight[i] < cap[i] ? weight[i] : cap[i];
			uint64_t q = (uint64_t)((long double)m * (long double)t1 / W);
			out[i] = q < m ? q : m;
			given += out[i];
		}
		while (given > t1) /* rounding up in long double: take one back in turn */
			for (uint32_t i = 0; i < n && given > t1; i++)
				if (out[i])
					out[i]--, given--;
		/* the remainder, one each, to the sites furthest below their share
		 * (largest remainders: one sort, one pass; floors leave less than
		 * one unit a site, so a pass suffices but for rounding) */
		remainder *ord = given < t1 ? malloc((size_t)n * sizeof *ord) : NULL;
		if (ord) { /* without memory: in site order, still exact */
			for (uint32_t i = 0; i < n; i++) {
				uint64_t m = weight[i] < cap[i] ? weight[i] : cap[i];
				ord[i].i = i;
				ord[i].r = (long double)m * (long double)t1 / W - (long double)out[i];
			}
			qsort(ord, n, sizeof *ord, rem_cmp);
		}
		while (given < t1) {
			uint64_t before = given;
			for (uint32_t k = 0; k < n && given < t1; k++) {
				uint32_t i = ord ? ord[k].i : k;
				uint64_t m = weight[i] < cap[i] ? weight[i] : cap[i];
				if (out[i] < m)
					out[i]++, given++;
			}
			if (given == before)
				break;
		}
		free(ord);
	}
	for (uint32_t i = 0; i < n && given < target; i++) {
		uint64_t room = cap[i] - out[i], k = target - given < room ? target - given : room;
		out[i] += k;
		given += k;
	}
}

static uint64_t pos_diff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

int classify_sites(rd_result *r, const sim_counts cc[RD_NCASES], int cases, int per_access)
{
	const sim_counts *c0 = &cc[0];
	uint32_t n = c0->nsites;
	r->sites = calloc(n ? n : 1, sizeof *r->sites);
	uint64_t *rest = calloc((size_t)(n ? n : 1) * 5, sizeof *rest);
	if (!r->sites || !rest) {
		free(rest);
		free(r->sites);
		r->sites = NULL;
		return -1;
	}
	r->nsites = n;
	uint64_t *w = rest + n, *cap = rest + 2 * (size_t)n, *a = rest + 3 * (size_t)n,
		 *m = rest + 4 * (size_t)n;
	for (uint32_t i = 0; i < n; i++) {
		const site_counts *s = &c0->site[i];
		rest[i] = s->misses - COUNTS_KNOWN(s);
	}
	/* associativity */
	if (per_access) {
		for (uint32_t i = 0; i < n; i++)
			a[i] = c0->site[i].assoc_access;
	} else {
		for (uint32_t i = 0; i < n; i++) {
			const site_counts *s1 = (cases & (1 << RD_CASE_FULLY_ASSOC)) ? &cc[1].site[i] : NULL;
			w[i] = s1 ? pos_diff(rest[i], s1->misses - COUNTS_KNOWN(s1)) : 0;
			cap[i] = rest[i];
		}
		distribute(r->cls[RD_CLASS_ASSOCIATIVITY], n, w, cap, a);
	}
	/* MSHR: from capacity first (per access: then from associativity) */
	for (uint32_t i = 0; i < n; i++) {
		const site_counts *s3 = (cases & (1 << RD_CASE_NO_MSHR)) ? &cc[3].site[i] : NULL;
		w[i] = s3 ? pos_diff(rest[i], s3->misses - COUNTS_KNOWN(s3)) : 0;
		cap[i] = rest[i] - a[i];
	}
	uint64_t M = r->cls[RD_CLASS_MSHR];
	distribute(M, n, w, cap, m);
	uint64_t given = 0;
	for (uint32_t i = 0; i < n; i++)
		given += m[i];
	if (per_access && given < M) {
		uint64_t *m2 = cap; /* reused: the MSHR misses taken from associativity */
		distribute(M - given, n, w, a, m2);
		for (uint32_t i = 0; i < n; i++) {
			a[i] -= m2[i];
			m[i] += m2[i];
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		const site_counts *s = &c0->site[i];
		rd_site_result *o = &r->sites[i];
		o->requests = s->requests;
		o->hits = s->hits;
		o->misses = s->misses;
		o->cls[RD_CLASS_COMPULSORY] = s->compulsory;
		o->cls[RD_CLASS_LATENCY] = s->latency;
		o->cls[RD_CLASS_WRITE_EVICT] = s->write_evict;
		o->cls[RD_CLASS_BYPASS] = s->bypass;
		o->cls[RD_CLASS_SECTOR] = s->sector;
		o->cls[RD_CLASS_ASSOCIATIVITY] = a[i];
		o->cls[RD_CLASS_MSHR] = m[i];
		o->cls[RD_CLASS_CAPACITY] = rest[i] - a[i] - m[i];
		if (c0->site_hist) {
			const uint64_t *h = c0->site_hist + (size_t)i * (RD_SITE_BINS + 1);
			memcpy(o->hist, h, sizeof o->hist);
			o->hist_inf = h[RD_SITE_BINS];
		}
	}
	free(rest);
	return 0;
}

int rd_site_main_class(const rd_site_result *s)
{
	int best = -1;
	for (int i = 0; i < RD_NCLASS; i++)
		if (s->cls[i] && (best < 0 || s->cls[i] > s->cls[best]))
			best = i;
	return best;
}
