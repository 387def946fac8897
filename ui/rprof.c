/* The explorer's reuse profile (see rprof.h). Calls the model only. */
#include "rprof.h"

#include <stdlib.h>
#include <string.h>

/* The profile run's cache: this many lines (any number would do: the
 * distances do not depend on it). */
#define KEY_LINES 1024

void rprof_key(const rd_config *c, rd_config *key)
{
	rd_config_profile(c, key);
	key->l1_ways = KEY_LINES;
	key->l1_size = key->l1_line * KEY_LINES;
	/* what the latency-free order does not depend on */
	key->classes = RD_CLASSES_DIFFERENCE;
}

rprof *rprof_new(const rd_config *key)
{
	rprof *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->key = *key;
	p->every = 1;
	p->core = -1;
	return p;
}

void rprof_free(rprof *p)
{
	if (p) {
		free(p->hist);
		free(p);
	}
}

int rprof_bucket(int64_t d)
{
	if (d < 0)
		return 0;
	int b = 1;
	while (d) {
		b++;
		d >>= 1;
	}
	return b < RPROF_BUCKETS ? b : RPROF_BUCKETS - 1;
}

/* Halve the columns: neighbours merged, each interval twice as long. */
static void fold(rprof *p)
{
	for (int c = 0; c < RPROF_COLS / 2; c++)
		for (int b = 0; b < RPROF_BUCKETS; b++)
			p->col[c][b] = p->col[2 * c][b] + p->col[2 * c + 1][b];
	memset(p->col[RPROF_COLS / 2], 0, sizeof p->col[0] * (RPROF_COLS - RPROF_COLS / 2));
	p->every *= 2;
	p->ncols = (p->ncols + 1) / 2;
}

int rprof_add(rprof *p, uint32_t core, int64_t d)
{
	if ((long long)core != p->core) {
		p->core = core;
		p->core_req = 0;
	}
	uint64_t c = p->core_req++ / p->every;
	while (c >= RPROF_COLS) {
		fold(p);
		c = (p->core_req - 1) / p->every;
	}
	if ((int)c >= p->ncols)
		p->ncols = (int)c + 1;
	p->col[c][rprof_bucket(d)]++;
	p->requests++;
	if (d < 0) {
		p->cold++;
		return 0;
	}
	return rd_hist_add(&p->hist, &p->len, &p->cap, (uint64_t)d);
}

int rprof_nbuckets(const rprof *p)
{
	int n = 2;
	for (int b = 0; b < RPROF_BUCKETS; b++)
		if (rprof_bucket_count(p, b))
			n = b + 1 > n ? b + 1 : n;
	return n;
}

uint64_t rprof_bucket_count(const rprof *p, int b)
{
	uint64_t n = 0;
	for (int c = 0; c < p->ncols; c++)
		n += p->col[c][b];
	return n;
}

uint32_t rprof_max_rd(const rprof *p)
{
	return p->len ? p->len - 1 : 0;
}

uint32_t rprof_peaks(const rprof *p)
{
	return rd_profile_peaks(p->hist, p->len);
}

int rprof_estimate(const rprof *p, const rd_config *c, double *binomial, double *fa)
{
	if (!p->requests)
		return -1;
	uint32_t sets = rd_config_sets(c);
	uint64_t lines = (uint64_t)sets * c->l1_ways;
	if (!lines)
		return -1;
	*binomial = rd_profile_estimate(p->hist, p->len, p->cold, c->l1_ways, lines);
	*fa = 1.0 - (double)rd_profile_fa_misses(p->hist, p->len, p->cold, lines) /
			    (double)p->requests;
	return 0;
}

int rprof_learned(const rprof *p, const rd_config *c, const rd_mlp *m, double *miss, double *merge)
{
	uint32_t sets = rd_config_sets(c);
	if (!p->requests || !sets || !m)
		return -1;
	double x[RD_LEARN_NFEAT], y[RD_LEARN_NOUT];
	rd_learn_features(p->hist, p->len, p->cold, sets, c->l1_ways, c->l1_line, x);
	rd_mlp_predict(m, x, y);
	*miss = y[0];
	*merge = y[1];
	return 0;
}
