/* Miss-rate curves: planning and filling (see curves.h). */
#include "curves.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params.h"

/* The explorer's configuration without latencies or MSHR limits. */
static void latency_free(const rd_config *c, rd_config *o)
{
	*o = *c;
	o->latency_hit = 0;
	o->latency_miss = 0;
	o->latency_stddev = 0;
	o->l1_mshrs = 0;
	o->l1_mshr_per_warp = 0;
}

/* A geometry the hash refuses (fermi: 32 or 64 sets) takes the hash the
 * parameters pane switches to (rd_config_hash_fallback), as Left/Right
 * does (issue 40 item 8): 1 when switched, 0 when c was valid, -1 when
 * neither. */
static int hash_fallback(rd_config *c)
{
	char err[256];
	if (rd_config_check(c, err, sizeof err) == 0)
		return 0;
	int fb = rd_config_hash_fallback(c);
	if (fb < 0)
		return -1;
	c->l1_hash = (enum rd_hash)fb;
	return 1;
}

int curves_point_config(const curves *cv, int wi, int si, rd_config *out)
{
	latency_free(&cv->cfg, out);
	uint32_t line = cv->cfg.l1_line;
	out->l1_size = cv->size[si];
	out->l1_ways = cv->ways[wi] ? cv->ways[wi] : cv->size[si] / line;
	if (out->l1_ways == 0 || hash_fallback(out) < 0)
		return -1;
	return 0;
}

void curves_run_config(const curves *cv, int r, rd_config *out)
{
	latency_free(&cv->cfg, out);
	out->l1_ways = 1;
	out->l1_size = cv->run_sets[r] * cv->cfg.l1_line;
	hash_fallback(out); /* the same set count as its points: the same hash */
}

/* ---------------------------------------------------------------- sweep */

/* Figure 12's parameters, varied by these factors (x4: quarter steps). */
static const char *const fig12_keys[] = {"l1.size", "l1.ways", "l1.line", "l1.mshrs"};
static const unsigned fig12_x4[] = {1, 2, 4, 8, 16};
static const char *const fig12_labels[] = {"0.25x", "0.5x", "1x", "2x", "4x"};

static void sweep_add(curves *cv, const char *label, const char *value)
{
	if (cv->nsweep >= SWEEP_MAX)
		return;
	int i = cv->nsweep++;
	snprintf(cv->label[i], sizeof cv->label[i], "%s", label);
	snprintf(cv->value[i], sizeof cv->value[i], "%s", value);
	rd_config c = cv->cfg;
	char err[256];
	int geo = !strcmp(cv->key, "l1.size") || !strcmp(cv->key, "l1.ways") ||
		  !strcmp(cv->key, "l1.line");
	if (rd_config_set(&c, cv->key, value, err, sizeof err) < 0 ||
	    (rd_config_check(&c, err, sizeof err) < 0 && (!geo || hash_fallback(&c) < 0)))
		snprintf(cv->sweep_err[i], sizeof cv->sweep_err[i], "%s", err);
	else if (c.l1_hash != cv->cfg.l1_hash)
		cv->sweep_hash[i] = 1;
	cv->sweep_cfg[i] = c;
	char now[64];
	rd_config_get(&cv->cfg, cv->key, now, sizeof now);
	if (strcmp(now, value) == 0)
		cv->sweep_cur = i;
}

static void plan_sweep(curves *cv, const char *key)
{
	cv->sweep_cur = -1;
	size_t f = 0;
	while (key && f < param_nfields && !(param_fields[f].key && !strcmp(param_fields[f].key, key)))
		f++;
	if (!key || f == param_nfields)
		return;
	snprintf(cv->key, sizeof cv->key, "%s", key);
	char now[64];
	rd_config_get(&cv->cfg, key, now, sizeof now);
	uint64_t v = strtoull(now, NULL, 10);
	for (size_t k = 0; k < sizeof fig12_keys / sizeof fig12_keys[0]; k++) {
		if (strcmp(key, fig12_keys[k]) != 0 || v == 0)
			continue;
		for (int i = 0; i < 5; i++) {
			uint64_t x4 = v * fig12_x4[i];
			char val[32];
			if (x4 % 4) /* not a whole value: say so rather than round */
				snprintf(val, sizeof val, "%g", (double)x4 / 4);
			else
				snprintf(val, sizeof val, "%llu", (unsigned long long)(x4 / 4));
			sweep_add(cv, fig12_labels[i], val);
		}
		return;
	}
	const rd_key *rk = rd_key_find(key);
	if (param_fields[f].step == STEP_CHOICE) {
		if (rk->type == RD_KEY_BOOL) {
			sweep_add(cv, "", "0");
			sweep_add(cv, "", "1");
			return;
		}
		for (const char *p = rk->choices; p && *p;) {
			size_t n = strcspn(p, "|");
			char val[32];
			snprintf(val, sizeof val, "%.*s", (int)n, p);
			if (strcmp(val, "smod:N") == 0)
				snprintf(val, sizeof val, "smod:%u",
					 cv->cfg.l1_hash == RD_HASH_SMOD ? cv->cfg.l1_hash_shift : 1);
			sweep_add(cv, "", val);
			p += n;
			if (*p == '|')
				p++;
		}
		return;
	}
	/* Two steps down and two up, as Left and Right would go. */
	rd_config lo[2], hi[2];
	int nlo = 0, nhi = 0;
	char msg[256];
	rd_config c = cv->cfg;
	while (nlo < 2 && param_step(&c, f, -1, msg, sizeof msg) == 0)
		lo[nlo++] = c;
	c = cv->cfg;
	while (nhi < 2 && param_step(&c, f, 1, msg, sizeof msg) == 0)
		hi[nhi++] = c;
	char val[64];
	for (int i = nlo - 1; i >= 0; i--) {
		rd_config_get(&lo[i], key, val, sizeof val);
		sweep_add(cv, "", val);
	}
	sweep_add(cv, "", now);
	for (int i = 0; i < nhi; i++) {
		rd_config_get(&hi[i], key, val, sizeof val);
		sweep_add(cv, "", val);
	}
}

/* ---------------------------------------------------------------- plan */

void curves_plan(curves *cv, const rd_config *c, const char *key)
{
	memset(cv, 0, sizeof *cv);
	cv->cfg = *c;
	uint32_t line = c->l1_line ? c->l1_line : 1;
	for (int k = -3; k <= 3; k++) {
		uint64_t s = k < 0 ? (uint64_t)c->l1_size >> -k : (uint64_t)c->l1_size << k;
		if (s < line || s > (1ull << 31) || s % line)
			continue;
		cv->size[cv->nsizes++] = (uint32_t)s;
	}
	static const uint32_t base_ways[] = {1, 2, 4, 8, 16};
	int placed = 0;
	for (size_t i = 0; i < sizeof base_ways / sizeof base_ways[0]; i++) {
		if (!placed && c->l1_ways < base_ways[i]) {
			cv->ways[cv->nways++] = c->l1_ways;
			placed = 1;
		}
		if (c->l1_ways == base_ways[i])
			placed = 1;
		cv->ways[cv->nways++] = base_ways[i];
	}
	if (!placed)
		cv->ways[cv->nways++] = c->l1_ways;
	cv->ways[cv->nways++] = 0; /* fully associative */
	for (int wi = 0; wi < cv->nways; wi++)
		for (int si = 0; si < cv->nsizes; si++) {
			rd_config pc;
			if (curves_point_config(cv, wi, si, &pc) < 0)
				continue;
			if (pc.l1_hash != c->l1_hash)
				cv->lf_hash = 1;
			uint32_t sets = rd_config_sets(&pc);
			int r = 0;
			while (r < cv->nruns && cv->run_sets[r] != sets)
				r++;
			if (r == cv->nruns && cv->nruns < CURVE_RUNS_MAX)
				cv->run_sets[cv->nruns++] = sets;
		}
	plan_sweep(cv, key);
}

void curves_run_fill(curves *cv, int r, const rd_result *res)
{
	uint32_t line = cv->cfg.l1_line;
	int extra = cv->cfg.model == RD_PROFILE_REF2013; /* d == ways hits there */
	for (int wi = 0; wi < cv->nways; wi++)
		for (int si = 0; si < cv->nsizes; si++) {
			rd_config pc;
			if (curves_point_config(cv, wi, si, &pc) < 0 ||
			    rd_config_sets(&pc) != cv->run_sets[r])
				continue;
			uint64_t cut = (uint64_t)(cv->ways[wi] ? cv->ways[wi] : cv->size[si] / line) + extra;
			uint64_t m = res->hist_inf;
			for (uint64_t d = cut; d < res->hist_len; d++)
				m += res->hist[d];
			cv->lf[wi][si] = (curve_pt){1, res->requests, m};
		}
	cv->runs_done = r + 1;
}

double curves_rate(const curve_pt *p)
{
	if (!p->valid)
		return -1;
	return p->requests ? (double)p->misses / (double)p->requests : 0.0;
}

void curves_write_csv(const curves *cv, FILE *f)
{
	fprintf(f, "curve,key,value,l1.size,l1.ways,requests,misses,miss_rate,l1.hash\n");
	for (int wi = 0; wi < cv->nways; wi++)
		for (int si = 0; si < cv->nsizes; si++) {
			const curve_pt *p = &cv->lf[wi][si];
			rd_config pc;
			if (!p->valid || curves_point_config(cv, wi, si, &pc) < 0)
				continue;
			fprintf(f, "latency-free,,,%u,%u,%llu,%llu,%.6f,%s\n", pc.l1_size, pc.l1_ways,
				(unsigned long long)p->requests, (unsigned long long)p->misses,
				curves_rate(p), rd_hash_name(pc.l1_hash));
		}
	for (int i = 0; i < cv->nsweep; i++) {
		const curve_pt *p = &cv->sw[i];
		if (!p->valid)
			continue;
		fprintf(f, "timing,%s,%s,%u,%u,%llu,%llu,%.6f,%s\n", cv->key, cv->value[i],
			cv->sweep_cfg[i].l1_size, cv->sweep_cfg[i].l1_ways,
			(unsigned long long)p->requests, (unsigned long long)p->misses,
			curves_rate(p), rd_hash_name(cv->sweep_cfg[i].l1_hash));
	}
}
