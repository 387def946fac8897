/* Seeded, reproducible random numbers (splitmix64): no global state. */
#include "internal.h"

#include <math.h>

void rng_seed(rd_rng *r, uint64_t seed, uint64_t stream)
{
	r->s = seed * 0x9E3779B97F4A7C15ULL ^ (stream + 0x632BE59BD9B4E019ULL) * 0xD1B54A32D192ED03ULL;
}

uint64_t rng_next(rd_rng *r)
{
	uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
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
