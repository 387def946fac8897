/*
 * Reuse profiles and what can be computed from them alone (seed 003,
 * MLCRP; notes seeds-003-004 Parts A, C, D): the fully associative LRU
 * curve (Mattson: hit iff 0 <= RD < lines), the statistical
 * set-associative estimate, the profile's peaks, and the comparison
 * statistics (MAE, R^2, Spearman's rho). Pure arithmetic over a
 * histogram; calls nothing above it.
 *
 * A profile is hist[d] accesses at reuse distance d (distinct lines
 * between two uses, MLCRP's RD) for 0 <= d < len, and cold first uses
 * (RD = -1) apart.
 */
#include "rdscope.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint64_t rd_profile_fa_misses(const uint64_t *hist, uint32_t len, uint64_t cold, uint64_t lines)
{
	uint64_t m = cold;
	for (uint32_t d = 0; d < len; d++)
		if (d >= lines)
			m += hist[d];
	return m;
}

/*
 * The binomial stack-distance estimate (SDCM-style; notes §C item 6): an
 * access at distance D hits a set of A ways among B lines (A / B = 1 /
 * sets) if fewer than A of the D distinct lines since its last use fell
 * into its set, each independently with p = A / B:
 *   P_hit(D) = P(Binomial(D, p) <= A - 1),  P_hit(-1) = 0.
 * Over the distances in order, with k = A - 1 fixed, the binomial's mass
 * at k follows pmf(D + 1) = pmf(D) (D + 1) / (D + 1 - k) (1 - p) and its
 * distribution function F(D + 1) = F(D) - p pmf(D), so the whole profile
 * costs one step per distance (in logarithms: (1 - p)^D underflows long
 * before the profile ends), not one per way.
 */
double rd_profile_estimate(const uint64_t *hist, uint32_t len, uint64_t cold, uint32_t ways,
			   uint64_t lines)
{
	uint64_t total = cold, hits = 0;
	for (uint32_t d = 0; d < len; d++)
		total += hist[d];
	if (!total)
		return 0.0;
	if (!ways || lines <= ways) { /* one set: fully associative, exactly */
		for (uint32_t d = 0; d < len && d < lines; d++)
			hits += hist[d];
		return (double)hits / (double)total;
	}
	double p = (double)ways / (double)lines, lq = log1p(-p), lp = log(p);
	uint64_t k = ways - 1;
	double sum = 0.0;
	/* D <= k: every line since could be in the set: a hit */
	for (uint32_t d = 0; d < len && d <= k; d++)
		sum += (double)hist[d];
	/* from D = k on: log pmf(k, k) = k log p, F(k) = 1 */
	double lpmf = (double)k * lp, F = 1.0;
	for (uint64_t d = k; d + 1 < len; d++) {
		F -= p * exp(lpmf);
		if (F < 0.0)
			F = 0.0;
		lpmf += log((double)(d + 1) / (double)(d + 1 - k)) + lq;
		sum += (double)hist[d + 1] * F;
	}
	return sum / (double)total;
}

/* Peaks: local maxima of the profile (RD >= 0) in log2 buckets (bucket 0
 * is d = 0, bucket b holds 2^(b-1) <= d < 2^b) holding at least 5 % of the
 * tallest bucket [ours]; a plateau counts once. */
uint32_t rd_profile_peaks(const uint64_t *hist, uint32_t len)
{
	uint64_t bucket[66] = {0};
	int nb = 0;
	for (uint32_t d = 0; d < len; d++) {
		int b = 0;
		while ((uint64_t)d >= (1ull << b) && b < 64)
			b++;
		bucket[b] += hist[d];
		if (b + 1 > nb)
			nb = b + 1;
	}
	uint64_t top = 0;
	for (int b = 0; b < nb; b++)
		if (bucket[b] > top)
			top = bucket[b];
	if (!top)
		return 0;
	uint32_t peaks = 0;
	for (int b = 0; b < nb; b++) {
		if (bucket[b] * 20 < top || (b && bucket[b - 1] >= bucket[b]))
			continue;
		int e = b; /* the plateau's end */
		while (e + 1 < nb && bucket[e + 1] == bucket[b])
			e++;
		if (e + 1 >= nb || bucket[e + 1] < bucket[b])
			peaks++;
		b = e;
	}
	return peaks;
}

int rd_ranks(const double *v, size_t n, double *r)
{
	size_t *o = malloc((n ? n : 1) * sizeof *o);
	if (!o)
		return -1;
	for (size_t i = 0; i < n; i++)
		o[i] = i;
	for (size_t i = 1; i < n; i++) { /* insertion sort: comparison sets are small */
		size_t x = o[i], j = i;
		while (j && v[o[j - 1]] > v[x]) {
			o[j] = o[j - 1];
			j--;
		}
		o[j] = x;
	}
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && v[o[j + 1]] == v[o[i]])
			j++;
		double avg = (double)(i + j) / 2.0 + 1.0;
		for (size_t t = i; t <= j; t++)
			r[o[t]] = avg;
		i = j + 1;
	}
	free(o);
	return 0;
}

static double pearson(const double *a, const double *b, size_t n)
{
	double ma = 0, mb = 0, sab = 0, saa = 0, sbb = 0;
	for (size_t i = 0; i < n; i++) {
		ma += a[i];
		mb += b[i];
	}
	ma /= (double)n;
	mb /= (double)n;
	for (size_t i = 0; i < n; i++) {
		sab += (a[i] - ma) * (b[i] - mb);
		saa += (a[i] - ma) * (a[i] - ma);
		sbb += (b[i] - mb) * (b[i] - mb);
	}
	return saa > 0 && sbb > 0 ? sab / sqrt(saa * sbb) : NAN;
}

int rd_compare_stats(const double *y, const double *yhat, size_t n, rd_stats *s)
{
	memset(s, 0, sizeof *s);
	s->n = n;
	if (!n) {
		s->mae = s->r2 = s->spearman = NAN;
		return 0;
	}
	double mean = 0, ssr = 0, sst = 0;
	for (size_t i = 0; i < n; i++) {
		s->mae += fabs(y[i] - yhat[i]);
		mean += y[i];
	}
	s->mae /= (double)n;
	mean /= (double)n;
	for (size_t i = 0; i < n; i++) {
		ssr += (y[i] - yhat[i]) * (y[i] - yhat[i]);
		sst += (y[i] - mean) * (y[i] - mean);
	}
	s->r2 = sst > 0 ? 1.0 - ssr / sst : NAN;
	double *ra = malloc((n ? n : 1) * sizeof *ra), *rb = malloc((n ? n : 1) * sizeof *rb);
	if (!ra || !rb || rd_ranks(y, n, ra) < 0 || rd_ranks(yhat, n, rb) < 0) {
		free(ra);
		free(rb);
		return -1;
	}
	s->spearman = pearson(ra, rb, n);
	free(ra);
	free(rb);
	return 0;
}

int rd_hist_add(uint64_t **hist, uint32_t *len, uint32_t *cap, uint64_t d)
{
	if (d >= *cap) {
		uint64_t nc = *cap ? *cap : 64;
		while (nc <= d)
			nc *= 2;
		if (nc > UINT32_MAX)
			return -1;
		uint64_t *h = realloc(*hist, nc * sizeof *h);
		if (!h)
			return -1;
		memset(h + *cap, 0, (nc - *cap) * sizeof *h);
		*hist = h;
		*cap = (uint32_t)nc;
	}
	(*hist)[d]++;
	if (d >= *len)
		*len = (uint32_t)d + 1;
	return 0;
}
