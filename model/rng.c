/* Seeded, reproducible random numbers (splitmix64): no global state. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void rng_seed(rd_rng *r, uint64_t seed, uint64_t stream)
{
	r->s = seed * 0x9E3779B97F4A7C15ULL ^ (stream + 0x632BE59BD9B4E019ULL) * 0xD1B54A32D192ED03ULL;
}

static double unit_open(rd_rng *r)
{
	/* (0, 1]: never 0, so log() below is finite */
	return ((double)(rng_next(r) >> 11) + 1.0) / 9007199254740992.0;
}

uint32_t rng_halfnormal(rd_rng *r, double sigma)
{
	if (sigma <= 0)
		return 0;
	/* Box-Muller; one normal per call keeps the stream easy to reason
	 * about (draw i depends only on the seed and i). */
	double u1 = unit_open(r), u2 = unit_open(r);
	double z = sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
	double v = fabs(z) * sigma;
	/* Truncated at 8 sigma (probability < 1e-15) so that latencies have a
	 * known bound and the timing wheel a fixed size. */
	if (v > 8.0 * sigma)
		v = 8.0 * sigma;
	return (uint32_t)llround(v);
}

int halfnormal_init(rd_halfnormal *h, double sigma)
{
	memset(h, 0, sizeof *h);
	h->sigma = sigma;
	if (sigma <= 0)
		return 0;
	/* Values 0..K, K = round(8 sigma) (the truncation of rng_halfnormal);
	 * beyond about 2^20 values the table is not worth its memory. */
	double kmax = floor(8.0 * sigma + 0.5);
	if (kmax > (1 << 20))
		return 0;
	uint32_t n = (uint32_t)kmax + 1;
	double *p = malloc(n * sizeof *p);
	uint32_t *small = malloc(n * sizeof *small), *large = malloc(n * sizeof *large);
	h->thresh = malloc(n * sizeof *h->thresh);
	h->alias = malloc(n * sizeof *h->alias);
	if (!p || !small || !large || !h->thresh || !h->alias) {
		free(p);
		free(small);
		free(large);
		halfnormal_free(h);
		return -1;
	}
	/* P(round(|Z| sigma) = k): |Z| sigma in [k - 1/2, k + 1/2), the last
	 * value taking the truncated tail. */
	double s2 = sigma * sqrt(2.0), prev = 0;
	for (uint32_t k = 0; k < n; k++) {
		double c = k + 1 < n ? erf((k + 0.5) / s2) : 1.0;
		p[k] = (c - prev) * n;
		prev = c;
	}
	/* Vose's alias construction. */
	uint32_t ns = 0, nl = 0;
	for (uint32_t k = 0; k < n; k++)
		if (p[k] < 1.0)
			small[ns++] = k;
		else
			large[nl++] = k;
	while (ns && nl) {
		uint32_t s = small[--ns], l = large[nl - 1];
		h->thresh[s] = (uint32_t)(p[s] * 4294967296.0 > 4294967295.0 ? 4294967295.0
									: p[s] * 4294967296.0);
		h->alias[s] = l;
		p[l] -= 1.0 - p[s];
		if (p[l] < 1.0) {
			nl--;
			small[ns++] = l;
		}
	}
	/* what is left has probability 1 up to rounding: always keep it */
	while (nl) {
		uint32_t l = large[--nl];
		h->thresh[l] = UINT32_MAX;
		h->alias[l] = l;
	}
	while (ns) {
		uint32_t s = small[--ns];
		h->thresh[s] = UINT32_MAX;
		h->alias[s] = s;
	}
	free(p);
	free(small);
	free(large);
	h->n = n;
	return 0;
}

void halfnormal_free(rd_halfnormal *h)
{
	free(h->thresh);
	free(h->alias);
	h->thresh = h->alias = NULL;
	h->n = 0;
}
