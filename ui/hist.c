/* Histogram binning (see hist.h). Calls info (the infinite distances). */
#include "hist.h"

#include <math.h>
#include <stdio.h>

#include "info.h"

uint64_t hist_range(const uint64_t *hist, uint32_t len, uint64_t lo, uint64_t hi)
{
	uint64_t s = 0;
	for (uint64_t d = lo; d <= hi && d < len; d++)
		s += hist[d];
	return s;
}

size_t hist_bin_make(const uint64_t *hist, uint32_t len, uint64_t span, uint64_t cut,
		     int log_bins, hist_bin *out, size_t max)
{
	if (span < len)
		span = len;
	if (span < cut + 1)
		span = cut + 1;
	size_t n = 0;
	uint64_t lo = 0;
	while (lo < span && n < max) {
		uint64_t hi;
		if (!log_bins) {
			hi = lo;
		} else {
			/* Up to the next power of two, but stop at the cut-off. */
			uint64_t p = 1;
			while (p <= lo)
				p <<= 1;
			hi = p - 1;
			if (lo < cut && hi >= cut)
				hi = cut - 1;
		}
		if (hi >= span)
			hi = span - 1;
		out[n].lo = lo;
		out[n].hi = hi;
		out[n].count = hist_range(hist, len, lo, hi);
		out[n].miss = lo >= cut;
		n++;
		lo = hi + 1;
	}
	return n;
}

void hist_label(uint64_t v, char *buf, size_t len)
{
	if (v < 1000)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else if (v < 1024ull * 1000 && v % 1024 == 0)
		snprintf(buf, len, "%lluk", (unsigned long long)(v / 1024));
	else if (v < 1000000)
		snprintf(buf, len, "%lluk", (unsigned long long)(v / 1000));
	else if (v % (1024ull * 1024) == 0 && v < 1024ull * 1024 * 1000)
		snprintf(buf, len, "%lluM", (unsigned long long)(v >> 20));
	else
		snprintf(buf, len, "%lluM", (unsigned long long)(v / 1000000));
}

uint64_t hist_cut(const rd_config *c)
{
	return c->model == RD_PROFILE_REF2013 ? (uint64_t)c->l1_ways + 1 : c->l1_ways;
}

void hist_plan_make(const rd_result *R, const rd_result *B, const rd_config *pc, int aw,
		    hist_plan *p)
{
	p->cut = hist_cut(pc);
	uint64_t span = R->hist_len;
	if (B && B->hist_len > span)
		span = B->hist_len;
	if (span < p->cut + 1)
		span = p->cut + 1;
	p->log_bins = span * 2 + 1 > (uint64_t)(aw > 0 ? aw : 0);
	size_t nb = hist_bin_make(R->hist, R->hist_len, span, p->cut, p->log_bins, p->bins,
				  HIST_PLAN_BINS);
	p->nb = nb;
	/* Bins widen with the terminal: up to 8 columns (4 for log2 bins,
	 * whose labels are wider than their bars). */
	p->colw = p->log_bins ? 4 : (aw - 1) / (int)nb;
	if (p->colw > 8)
		p->colw = 8;
	if (p->colw < 2)
		p->colw = 2;
	/* Values: counts, or deltas against the baseline. */
	double vmax = 0;
	for (size_t i = 0; i < nb; i++) {
		p->val[i] = (double)p->bins[i].count;
		if (B)
			p->val[i] -= (double)hist_range(B->hist, B->hist_len, p->bins[i].lo,
							p->bins[i].hi);
		if (fabs(p->val[i]) > vmax)
			vmax = fabs(p->val[i]);
	}
	/* The infinite distances apart: no use in the set (cold, and lines a
	 * store removed or loads sent past the L1), and in flight. */
	p->bc = p->bg = p->bf = 0;
	info_inf_split(R, &p->rc, &p->rg, &p->rf);
	if (B)
		info_inf_split(B, &p->bc, &p->bg, &p->bf);
	p->cold = (double)(p->rc + p->rg) - (double)(p->bc + p->bg);
	p->fly = (double)p->rf - (double)p->bf;
	if (fabs(p->cold) > vmax)
		vmax = fabs(p->cold);
	if (fabs(p->fly) > vmax)
		vmax = fabs(p->fly);
	p->vmax = vmax;
	/* Which bins fit from the first shown on (the cut-off takes a
	 * column). Under another replacement policy the distances stay LRU's
	 * but hits and misses are the policy's: no cut-off line, bins
	 * uncoloured. */
	p->lru = pc->replacement == RD_REPL_LRU && pc->loads != RD_LOADS_BYPASS;
	p->cut_bin = nb;
	for (size_t i = 0; i < nb && p->lru; i++)
		if (p->bins[i].miss) {
			p->cut_bin = i;
			break;
		}
	p->last_first = nb - 1;
	int wsum = 0;
	for (size_t i = nb; i-- > 0;) {
		wsum += p->colw + (i == p->cut_bin);
		if (wsum > aw)
			break;
		p->last_first = i;
	}
}
