/*
 * The last pipeline stage: the five miss classes from the four case runs
 * (Nugteren et al., HPCA 2014, §6.1), for each profile.
 */
#include "internal.h"

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
	uint64_t rest0 = c0->misses - c0->compulsory - c0->latency;
	uint64_t assoc = 0, mshr = 0;
	if (per_access)
		assoc = c0->assoc_access;
	else if (cases & (1 << RD_CASE_FULLY_ASSOC)) {
		uint64_t rest1 = cc[1].misses - cc[1].compulsory - cc[1].latency;
		assoc = clamp_sub(rest0, rest1);
	}
	if (cases & (1 << RD_CASE_NO_MSHR)) {
		uint64_t rest3 = cc[3].misses - cc[3].compulsory - cc[3].latency;
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
