/* The L2 as the panes read it (see level.h). */
#include "level.h"

#include <stdio.h>
#include <string.h>

#include "info.h"

void level_as_result(const rd_result *r, rd_result *out)
{
	memset(out, 0, sizeof *out);
	if (!r->has_l2)
		return;
	const rd_level *l = &r->l2;
	out->requests = l->requests;
	out->hits = l->hits;
	out->misses = l->misses;
	memcpy(out->cls, l->cls, sizeof out->cls);
	out->store_requests = l->store_requests;
	out->store_hits = l->store_hits;
	out->store_evictions = l->store_evictions;
	out->reservation_fails = l->reservation_fails;
	out->time_steps = l->steps;
	uint64_t merged = l->cls[RD_CLASS_LATENCY] < l->misses ? l->cls[RD_CLASS_LATENCY] : l->misses;
	out->miss_rate = l->requests ? (double)(l->misses - merged) / (double)l->requests : 0;
	out->miss_rate_all = l->requests ? (double)l->misses / (double)l->requests : 0;
	out->hist = l->hist;
	out->hist_len = l->hist_len;
	out->hist_inf = l->hist_inf;
	out->hist_w = l->hist_w;
	out->hist_w_len = l->hist_w_len;
	out->hist_w_inf = l->hist_w_inf;
	out->sector_lookups = l->sector_lookups; /* l2.sector: the reads' */
	out->sector_hits = l->sector_hits;
}

void level_config(const rd_config *c, rd_config *out)
{
	*out = *c;
	out->model = c->model == RD_PROFILE_RDGC ? RD_PROFILE_RDGC : RD_PROFILE_PAPER;
	out->l1_ways = c->l2_ways;
	out->l1_line = c->l2_line;
	out->replacement = c->l2_replacement;
	/* Stores reach the L2 only when they leave the L1. */
	out->stores = c->stores == RD_STORES_IGNORE ? RD_STORES_IGNORE : c->l2_stores;
	out->loads = RD_LOADS_CACHE;
	out->l1_sector = c->l2_sector;
}

int level_class_shown(const rd_config *c, int level, int cls)
{
	if (level != 2)
		return info_class_shown(c, cls);
	return cls >= 0 && rd_l2_class_possible(c, (enum rd_class)cls);
}

void level_metrics_line(const rd_metrics *m, int l1b, int width, char *buf, size_t len)
{
	char pair[96], spair[64];
	if (l1b == L1B_DONE) {
		snprintf(pair, sizeof pair, "L2_Hit_L1B %.2f%%  L2_Trans_L1B %llu",
			 m->l2_hit_l1b * 100, (unsigned long long)m->l2_trans_l1b);
		snprintf(spair, sizeof spair, "L1B %.1f%% %llu", m->l2_hit_l1b * 100,
			 (unsigned long long)m->l2_trans_l1b);
	} else if (l1b == L1B_NONE) {
		snprintf(pair, sizeof pair, "L1B: no L2 in its run");
		snprintf(spair, sizeof spair, "L1B n/a");
	} else if (l1b == L1B_RUNNING) {
		snprintf(pair, sizeof pair, "L1B: running");
		snprintf(spair, sizeof spair, "L1B ...");
	} else {
		snprintf(pair, sizeof pair, "L1B: press B");
		snprintf(spair, sizeof spair, "L1B: B");
	}
	unsigned long long t1 = m->l1_r_trans, t2 = m->l2_trans;
	snprintf(buf, len, " L1_R_Hit %.2f%%  L1_R_Trans %llu  L2_Hit %.2f%% (reads %.2f%%)  "
		 "L2_Trans %llu  %s", m->l1_r_hit * 100, t1, m->l2_hit * 100, m->l2_r_hit * 100, t2,
		 pair);
	if ((int)strlen(buf) <= width)
		return;
	snprintf(buf, len, " L1_R_Hit %.2f%% L1_R_Trans %llu L2_Hit %.2f%% L2_Trans %llu %s",
		 m->l1_r_hit * 100, t1, m->l2_hit * 100, t2, spair);
	if ((int)strlen(buf) <= width)
		return;
	snprintf(buf, len, " L1_R_Hit %.1f%% (%llu) L2_Hit %.1f%% (%llu) %s", m->l1_r_hit * 100,
		 t1, m->l2_hit * 100, t2, spair);
	if ((int)strlen(buf) <= width)
		return;
	snprintf(buf, len, " L1 %.1f%% %llu L2 %.1f%% %llu %s", m->l1_r_hit * 100, t1,
		 m->l2_hit * 100, t2, spair);
	if ((int)strlen(buf) <= width)
		return;
	snprintf(buf, len, " L1 %.1f%% L2 %.1f%%", m->l1_r_hit * 100, m->l2_hit * 100);
}

double level_bank_imbalance(const rd_level *l, uint32_t *p, uint32_t *b)
{
	*p = *b = 0;
	uint32_t n = l->partitions * l->banks;
	if (!n || !l->bank_requests)
		return 0;
	uint64_t max = 0, sum = 0;
	for (uint32_t i = 0; i < n; i++) {
		sum += l->bank_requests[i];
		if (l->bank_requests[i] > max) {
			max = l->bank_requests[i];
			*p = i / l->banks;
			*b = i % l->banks;
		}
	}
	return sum ? (double)max * n / (double)sum : 0;
}
