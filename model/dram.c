/*
 * DRAM after the last cache level (seed 002, notes Part B §B2-B3.5; §B5's
 * "DRAM back-end after L2"). The stage reads the requests that leave the
 * last cache level (the L2's, or without an L2 the L1s' merged stream: see
 * l2.c) in time order and, per bank:
 *
 *  - address mapping: bank = the channel-mask bits then the bank-mask bits
 *    of the request's byte address (each packed from its lowest bit), row =
 *    the row-mask bits; the column bits decide nothing;
 *  - open-row buffer: a request to the open row is a row hit, to a bank
 *    with no row open (its first request, or one idle longer than
 *    dram.row_timeout) a row miss, to another row a row conflict; the
 *    request leaves its row open (an open-page policy);
 *  - service time, Eq. 8: the bank's hit, miss and conflict ratios times
 *    their latencies; cs = the service times' standard deviation / mean;
 *  - arrivals [ours, after §B3.4's "instructions between requests"]: the
 *    steps at which requests leave the cache, in ns (dram.ns_per_step). Over
 *    the stream's span T (first step to last, plus one step) bank i with
 *    n_i requests has lambda_i = n_i / T and tau_a = T / n_i; ca = the
 *    standard deviation of its gaps between consecutive requests / tau_a
 *    (0 with fewer than two gaps' worth of spread);
 *  - Kingman's G/G/1 wait (Eqs. 9-10, the standard form) at rho = tau_s /
 *    tau_a; rho >= 1 is saturated (no finite wait: NAN, counted);
 *  - Eq. 7: service time, wait and latency weighted by lambda_i.
 *
 * Pure C11; calls nothing above it.
 */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double rd_dram_service(double hit_ratio, double miss_ratio, double conflict_ratio,
		       double row_hit, double row_miss, double row_conflict)
{
	return row_miss * miss_ratio + row_conflict * conflict_ratio + row_hit * hit_ratio;
}

double rd_dram_weighted(const double *lambda, const double *lat, size_t n)
{
	double num = 0, den = 0;
	for (size_t i = 0; i < n; i++) {
		num += lambda[i] * lat[i];
		den += lambda[i];
	}
	return den > 0 ? num / den : 0.0;
}

/* rho = tau_s / tau_a when it is below 1 (a finite mean wait), else -1. */
static double utilisation(double tau_s, double tau_a)
{
	if (!(tau_a > 0) || !(tau_s >= 0) || !(tau_s / tau_a < 1))
		return -1;
	return tau_s / tau_a;
}

double rd_kingman(double ca, double cs, double tau_s, double tau_a)
{
	double rho = utilisation(tau_s, tau_a);
	return rho < 0 ? -1 : (ca * ca + cs * cs) / 2 * (rho / (1 - rho)) * tau_s;
}

double rd_kingman_printed(double ca, double cs, double tau_s, double tau_a)
{
	double rho = utilisation(tau_s, tau_a);
	return rho < 0 ? -1 : (ca + cs) / 2 * (rho / (1 - rho)) * tau_a;
}

double rd_amat(double dram_lat, double miss_ratio, double hit_lat, double shmem_lat,
	       double shmem_ratio)
{
	return dram_lat * miss_ratio + hit_lat + shmem_lat * shmem_ratio;
}

static int popcount64(uint64_t v)
{
	int n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

uint64_t rd_dram_banks(const rd_config *c)
{
	int bits = popcount64(c->dram_bank_mask | c->dram_channel_mask);
	return bits > 16 ? 0 : (uint64_t)1 << bits;
}

/* The bits of v under mask, packed from the lowest (x86's PEXT). */
static uint64_t pext(uint64_t v, uint64_t mask)
{
	uint64_t r = 0;
	int k = 0;
	for (; mask; mask &= mask - 1, k++)
		r |= ((v >> __builtin_ctzll(mask)) & 1) << k;
	return r;
}

uint32_t rd_dram_bank(const rd_config *c, uint64_t addr)
{
	int nb = popcount64(c->dram_bank_mask);
	return (uint32_t)(pext(addr, c->dram_channel_mask) << nb | pext(addr, c->dram_bank_mask));
}

uint64_t rd_dram_row(const rd_config *c, uint64_t addr)
{
	return pext(addr, c->dram_row_mask);
}

/* The mapping, precomputed: each mask as (shift, width) runs of set bits. */
typedef struct dmap {
	int nruns;
	struct {
		uint8_t shift, width, to;
	} run[64];
	uint64_t row_mask;
} dmap;

/* Runs of the bank index: the bank mask's bits low, the channel's above. */
static void dmap_init(dmap *d, const rd_config *c)
{
	memset(d, 0, sizeof *d);
	d->row_mask = c->dram_row_mask;
	int to = 0;
	uint64_t masks[2] = {c->dram_bank_mask, c->dram_channel_mask};
	for (int m = 0; m < 2; m++) {
		uint64_t v = masks[m];
		while (v) {
			int s = __builtin_ctzll(v), w = 0;
			while (s + w < 64 && (v >> (s + w) & 1))
				w++;
			d->run[d->nruns].shift = (uint8_t)s;
			d->run[d->nruns].width = (uint8_t)w;
			d->run[d->nruns].to = (uint8_t)to;
			d->nruns++;
			to += w;
			v &= ~((w >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1) << s);
		}
	}
}

static inline uint32_t dmap_bank(const dmap *d, uint64_t a)
{
	uint32_t b = 0;
	for (int i = 0; i < d->nruns; i++)
		b |= (uint32_t)((a >> d->run[i].shift) & (((uint64_t)1 << d->run[i].width) - 1))
		     << d->run[i].to;
	return b;
}

/* One bank's state and tallies. */
typedef struct dbank {
	uint64_t row;     /* the open row's bits (addr & row mask) */
	uint64_t last;    /* step of its last request */
	uint64_t n, hit, miss, conflict;
	double gsum, gsq; /* gaps between its requests, steps */
	int open;
} dbank;

static inline enum rd_row dbank_access(dbank *b, uint64_t row, uint64_t t, double timeout_steps)
{
	enum rd_row r;
	if (b->n) {
		uint64_t gap = t > b->last ? t - b->last : 0;
		b->gsum += (double)gap;
		b->gsq += (double)gap * (double)gap;
		if (b->open && timeout_steps > 0 && (double)gap > timeout_steps)
			b->open = 0;
	}
	if (!b->open) {
		r = RD_ROW_MISS;
		b->miss++;
	} else if (b->row == row) {
		r = RD_ROW_HIT;
		b->hit++;
	} else {
		r = RD_ROW_CONFLICT;
		b->conflict++;
	}
	b->open = 1;
	b->row = row;
	b->last = t > b->last || !b->n ? t : b->last;
	b->n++;
	return r;
}

static double timeout_in_steps(const rd_config *c)
{
	return c->dram_row_timeout > 0 && c->dram_ns_per_step > 0
		       ? c->dram_row_timeout / c->dram_ns_per_step
		       : 0.0;
}

int rd_dram_classify(const rd_config *c, const uint64_t *addr, const uint64_t *t, size_t n,
		     enum rd_row *out)
{
	uint64_t nb = rd_dram_banks(c);
	dbank *bk = nb ? calloc(nb, sizeof *bk) : NULL;
	if (!bk)
		return -1;
	dmap d;
	dmap_init(&d, c);
	double to = timeout_in_steps(c);
	for (size_t i = 0; i < n; i++)
		out[i] = dbank_access(&bk[dmap_bank(&d, addr[i])], addr[i] & d.row_mask,
				      t ? t[i] : 0, to);
	free(bk);
	return 0;
}

int dram_run(const rd_config *c, const l2req *v, uint64_t n, uint32_t line_bytes,
	     const rd_callbacks *cb, rd_dram *out)
{
	memset(out, 0, sizeof *out);
	uint64_t nb = rd_dram_banks(c);
	out->banks = nb;
	dbank *bk = calloc(nb ? nb : 1, sizeof *bk);
	if (!bk)
		return RD_ENOMEM;
	dmap d;
	dmap_init(&d, c);
	double to = timeout_in_steps(c);
	uint64_t tmin = n ? v[0].t : 0, tmax = tmin;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t a = v[i].line * line_bytes;
		dbank_access(&bk[dmap_bank(&d, a)], a & d.row_mask, v[i].t, to);
		out->writes += v[i].store != 0;
		if (v[i].t < tmin)
			tmin = v[i].t;
		if (v[i].t > tmax)
			tmax = v[i].t;
		if ((i & 0xffff) == 0xffff && cb && cb->progress && cb->progress(cb->ctx, 1.0)) {
			free(bk);
			return RD_ECANCELED;
		}
	}
	out->requests = n;
	out->reads = n - out->writes;
	double ns = c->dram_ns_per_step;
	double span = (double)(tmax - tmin + 1) * ns;
	out->span = n ? span : 0.0;
	uint64_t used = 0;
	for (uint64_t b = 0; b < nb; b++)
		used += bk[b].n != 0;
	out->banks_used = used;
	double *lam = malloc((used ? used : 1) * sizeof *lam);
	double *svc = malloc((used ? used : 1) * sizeof *svc);
	double *wq = malloc((used ? used : 1) * sizeof *wq);
	double *lat = malloc((used ? used : 1) * sizeof *lat);
	if (!lam || !svc || !wq || !lat) {
		free(bk);
		free(lam);
		free(svc);
		free(wq);
		free(lat);
		return RD_ENOMEM;
	}
	uint64_t k = 0;
	for (uint64_t b = 0; b < nb; b++) {
		const dbank *x = &bk[b];
		if (!x->n)
			continue;
		out->row_hits += x->hit;
		out->row_misses += x->miss;
		out->row_conflicts += x->conflict;
		double nn = (double)x->n;
		double ph = (double)x->hit / nn, pm = (double)x->miss / nn,
		       pc = (double)x->conflict / nn;
		double ts = rd_dram_service(ph, pm, pc, c->dram_row_hit, c->dram_row_miss,
					    c->dram_row_conflict);
		double d1 = c->dram_row_hit - ts, d2 = c->dram_row_miss - ts,
		       d3 = c->dram_row_conflict - ts;
		double vs = ph * d1 * d1 + pm * d2 * d2 + pc * d3 * d3;
		double cs = ts > 0 ? sqrt(vs > 0 ? vs : 0) / ts : 0.0;
		double ta = span / nn;
		double ca = 0.0;
		if (x->n >= 2) {
			double g = nn - 1, mean = x->gsum / g, var = x->gsq / g - mean * mean;
			ca = sqrt(var > 0 ? var : 0) * ns / ta;
		}
		double rho = ts / ta;
		if (rho > out->max_utilisation)
			out->max_utilisation = rho;
		double w = rd_kingman(ca, cs, ts, ta);
		if (w < 0) {
			out->saturated++;
			w = 0;
		}
		lam[k] = nn / span;
		svc[k] = ts;
		wq[k] = w;
		lat[k] = w + ts;
		k++;
	}
	out->service_time = rd_dram_weighted(lam, svc, k);
	out->queue_delay = rd_dram_weighted(lam, wq, k);
	out->latency = rd_dram_weighted(lam, lat, k);
	if (out->saturated)
		out->queue_delay = out->latency = NAN;
	out->amat = NAN; /* the caller's: it knows the miss ratio */
	free(bk);
	free(lam);
	free(svc);
	free(wq);
	free(lat);
	return RD_OK;
}
