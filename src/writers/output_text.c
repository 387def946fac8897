/*
 * Text results, for people at a terminal: what was modelled, the miss
 * breakdown as counts and shares of all requests, both miss rates (the
 * hardware counters' view leaves latency misses out) and a short histogram.
 */
#include "output_fmt.h"
#include "sites.h"
#include "util/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The configuration on one line, in the units people size caches in. */
static void text_config(FILE *f, const rd_config *c)
{
	char v[14][64];
	static const char *const keys[] = {
		"model", "l1.size", "l1.line", "l1.ways", "l1.hash", "l1.mshrs",
		"l1.mshr_per_warp", "latency.hit", "latency.miss", "latency.stddev",
		"gpu.warp_size", "gpu.cores", "gpu.block_mapping", "gpu.max_threads",
	};
	for (int i = 0; i < 14; i++)
		output_config_value(c, keys[i], v[i], sizeof v[i]);
	uint32_t sets = rd_config_sets(c);
	fprintf(f, "config:  %s, %s B L1, %s B lines, %s way%s, %u set%s, hash %s, ", v[0], v[1],
		v[2], v[3], c->l1_ways == 1 ? "" : "s", sets, sets == 1 ? "" : "s", v[4]);
	if (c->l1_mshrs)
		fprintf(f, "%s MSHRs", v[5]);
	else
		fputs("unlimited MSHRs", f);
	if (c->l1_mshr_per_warp)
		fprintf(f, " (%s per warp)", v[6]);
	if (c->model == RD_PROFILE_RDGC) {
		/* RDGC's L1: banks, ports, merges, schedulers, its latency */
		fprintf(f, " x %u set%s, %u bank%s x ", c->l1_mshr_sets, c->l1_mshr_sets == 1 ? "" : "s",
			c->l1_banks, c->l1_banks == 1 ? "" : "s");
		if (c->l1_ports)
			fprintf(f, "%u port%s", c->l1_ports, c->l1_ports == 1 ? "" : "s");
		else
			fputs("unlimited ports", f);
		if (c->l1_max_merges)
			fprintf(f, ", %u merges", c->l1_max_merges);
		fprintf(f, ", %u schedulers", c->schedulers);
		if (c->latency_model == RD_LATENCY_ADAPTIVE)
			fprintf(f, ", latency adaptive K1 %g K2 %g", c->latency_k1, c->latency_k2);
		else
			fprintf(f, ", latency fixed %s", v[8]);
		fprintf(f, ", warp %s, cores %s, mapping %s", v[10], v[11], v[12]);
	} else {
		fprintf(f, ", latency hit %s miss %s+-%s, warp %s, cores %s, mapping %s%s", v[7], v[8],
			v[9], v[10], v[11], v[12],
			c->classes == RD_CLASSES_PER_ACCESS ? ", classes per access" : "");
	}
	/* the policies, when not the paper's */
	if (c->replacement != RD_REPL_LRU)
		fprintf(f, ", replacement %s", rd_replacement_name(c->replacement));
	if (c->stores != RD_STORES_IGNORE)
		fprintf(f, ", stores %s", rd_stores_name(c->stores));
	if (c->loads != RD_LOADS_CACHE)
		fprintf(f, ", loads %s", rd_loads_name(c->loads));
	putc('\n', f);
	/* Every key the model reads that is not at its profile's default,
	 * from the key table (so a new key is listed as it is added). */
	int any = 0;
	for (const rd_key *k = rd_keys; k->name; k++) {
		char now[64], why[64];
		const char *def = c->model == RD_PROFILE_RDGC && k->def_rdgc ? k->def_rdgc : k->def;
		if ((k->flags & RD_KEY_SPACES) || !rd_key_applies(c, k, why, sizeof why) ||
		    !strcmp(output_config_value(c, k->name, now, sizeof now), def))
			continue;
		if (k->unit && !strcmp(k->unit, "bits")) /* a mask: its bits show in hex */
			snprintf(now, sizeof now, "0x%llx", strtoull(now, NULL, 10));
		fprintf(f, "%s%s=%s", any ? ", " : "keys:    ", k->name, now);
		any = 1;
	}
	if (any)
		putc('\n', f);
}

static void text_count(FILE *f, const char *label, uint64_t n, uint64_t requests)
{
	fprintf(f, "  %-15s %12llu %7.2f%%\n", label, (unsigned long long)n,
		output_percent(n, requests));
}

/*
 * The histogram on one line. Few distinct distances are listed one by one;
 * many are summed into power-of-two ranges (0, 1, 2-3, 4-7, ...) so the
 * line stays readable while keeping the shape.
 */
static void text_histogram(FILE *f, const char *label, const uint64_t *hist, uint32_t len,
			   uint64_t inf)
{
	uint32_t nonzero = 0;
	for (uint32_t d = 0; d < len; d++)
		nonzero += hist[d] != 0;
	fputs(label, f);
	if (nonzero == 0 && inf == 0)
		fputs(" (empty)", f);
	if (nonzero <= 12) {
		for (uint32_t d = 0; d < len; d++)
			if (hist[d])
				fprintf(f, " %u:%llu", d, (unsigned long long)hist[d]);
	} else {
		for (uint64_t lo = 0; lo < len; lo = lo ? lo * 2 : 1) {
			uint64_t hi = lo ? lo * 2 - 1 : 0, sum = 0;
			for (uint64_t d = lo; d <= hi && d < len; d++)
				sum += hist[d];
			if (!sum)
				continue;
			if (hi == lo)
				fprintf(f, " %llu:%llu", (unsigned long long)lo, (unsigned long long)sum);
			else
				fprintf(f, " %llu-%llu:%llu", (unsigned long long)lo,
					(unsigned long long)hi, (unsigned long long)sum);
		}
	}
	if (inf)
		fprintf(f, " inf:%llu", (unsigned long long)inf);
	putc('\n', f);
}

/* Misses of each breakdown case that was run. */
static void text_cases(FILE *f, const rd_result *r)
{
	static const char *const names[RD_NCASES] = {"full", "fully-assoc", "no-latency",
						     "no-mshr"};
	if (!r->cases_run)
		return;
	fputs("cases:   misses", f);
	const char *sep = " ";
	for (int i = 0; i < RD_NCASES; i++) {
		if (r->cases_run & (1 << i)) {
			fprintf(f, "%s%s %llu", sep, names[i], (unsigned long long)r->case_misses[i]);
			sep = ", ";
		}
	}
	putc('\n', f);
}

/* The L2's configuration on one line. */
static void text_l2_config(FILE *f, const rd_config *c, const rd_level *l)
{
	char v[8][64];
	static const char *const keys[] = {"l2.size", "l2.line", "l2.ways", "l2.hash",
					   "l2.ports", "l2.mshrs", "l2.mshr_sets", "latency.l2"};
	for (int i = 0; i < 8; i++)
		output_config_value(c, keys[i], v[i], sizeof v[i]);
	fprintf(f, "L2:      %s B, %s B lines, %s way%s, %u partition%s x %u bank%s x %u set%s, hash %s",
		v[0], v[1], v[2], c->l2_ways == 1 ? "" : "s", l->partitions,
		l->partitions == 1 ? "" : "s", l->banks, l->banks == 1 ? "" : "s", l->sets,
		l->sets == 1 ? "" : "s", v[3]);
	if (c->l2_ports)
		fprintf(f, ", %s port%s", v[4], c->l2_ports == 1 ? "" : "s");
	else
		fputs(", unlimited ports", f);
	if (c->l2_mshrs)
		fprintf(f, ", %s MSHRs x %s set%s", v[5], v[6], c->l2_mshr_sets == 1 ? "" : "s");
	else
		fputs(", unlimited MSHRs", f);
	fprintf(f, ", latency %s", v[7]);
	if (c->l2_replacement != RD_REPL_LRU)
		fprintf(f, ", replacement %s", rd_replacement_name(c->l2_replacement));
	fprintf(f, ", stores %s\n", rd_stores_name(c->l2_stores));
}

/* Requests (and misses) of each bank, partition by partition; many banks
 * are summed up as the least and most loaded. */
static void text_l2_banks(FILE *f, const rd_level *l)
{
	size_t n = (size_t)l->partitions * l->banks;
	if (!l->bank_requests || !n)
		return;
	if (n <= 64) {
		fputs("L2 banks: requests/misses", f);
		for (uint32_t p = 0; p < l->partitions; p++) {
			fprintf(f, "%s p%u:", p ? " |" : "", p);
			for (uint32_t b = 0; b < l->banks; b++) {
				size_t i = (size_t)p * l->banks + b;
				fprintf(f, " %llu/%llu", (unsigned long long)l->bank_requests[i],
					l->bank_misses ? (unsigned long long)l->bank_misses[i] : 0ull);
			}
		}
		putc('\n', f);
		return;
	}
	size_t lo = 0, hi = 0;
	for (size_t i = 1; i < n; i++) {
		if (l->bank_requests[i] < l->bank_requests[lo])
			lo = i;
		if (l->bank_requests[i] > l->bank_requests[hi])
			hi = i;
	}
	fprintf(f, "L2 banks: %zu, requests per bank from %llu (p%zu b%zu) to %llu (p%zu b%zu)\n", n,
		(unsigned long long)l->bank_requests[lo], lo / l->banks, lo % l->banks,
		(unsigned long long)l->bank_requests[hi], hi / l->banks, hi % l->banks);
}

/* The shared L2: its configuration, reads and their classes, writes,
 * reservation fails, merges and steps, histograms and banks. */
static void text_l2(FILE *f, const rd_config *c, const rd_level *l)
{
	text_l2_config(f, c, l);
	/* (with l1.sector but not l2.sector a sector miss sends nothing) */
	fprintf(f, "L2 requests: %llu read%s (the L1s' %s and bypassed loads), %llu write%s\n",
		(unsigned long long)l->requests, l->requests == 1 ? "" : "s",
		c->l2_sector && c->l1_sector ? "misses, sector misses"
		: c->l1_sector		      ? "line misses"
					      : "misses",
		(unsigned long long)l->store_requests, l->store_requests == 1 ? "" : "s");
	text_count(f, "hits", l->hits, l->requests);
	text_count(f, "misses", l->misses, l->requests);
	for (int k = 0; k < RD_NCLASS; k++) {
		/* the classes an L2 can give, and any other that has misses */
		if (!l->cls[k] && !rd_l2_class_possible(c, (enum rd_class)k))
			continue;
		char label[32];
		snprintf(label, sizeof label, "  %s", rd_class_name((enum rd_class)k));
		text_count(f, label, l->cls[k], l->requests);
	}
	fprintf(f, "L2 miss rate %.2f%%; writes: %llu hit%s, %llu eviction%s; "
		   "reservation fails %llu, merges %llu, steps %llu\n",
		isfinite(l->miss_rate) ? 100.0 * l->miss_rate : 0.0,
		(unsigned long long)l->store_hits, l->store_hits == 1 ? "" : "s",
		(unsigned long long)l->store_evictions, l->store_evictions == 1 ? "" : "s",
		(unsigned long long)l->reservation_fails, (unsigned long long)l->merges,
		(unsigned long long)l->steps);
	if (c->l2_sector && l->sector_lookups)
		fprintf(f, "L2 sectors: %llu read sector lookups, %llu hits: %.2f%% (as Nsight Compute "
			   "counts lts__t_sectors_srcunit_tex_op_read_lookup_hit; %u-byte sectors)\n",
			(unsigned long long)l->sector_lookups, (unsigned long long)l->sector_hits,
			100.0 * rd_level_hit_rate(l), c->l2_sector);
	text_histogram(f, "L2 histogram:", l->hist, l->hist_len, l->hist_inf);
	if (l->store_requests)
		text_histogram(f, "L2 store histogram:", l->hist_w, l->hist_w_len, l->hist_w_inf);
	text_l2_banks(f, l);
}

/* DRAM after the last cache level (seed 002). */
static void text_dram(FILE *f, const rd_config *c, const rd_dram *d)
{
	fprintf(f, "DRAM: %llu request%s (%llu read%s, %llu write%s) to %llu of %llu banks\n",
		(unsigned long long)d->requests, d->requests == 1 ? "" : "s",
		(unsigned long long)d->reads, d->reads == 1 ? "" : "s",
		(unsigned long long)d->writes, d->writes == 1 ? "" : "s",
		(unsigned long long)d->banks_used, (unsigned long long)d->banks);
	text_count(f, "  row hits", d->row_hits, d->requests);
	text_count(f, "  row misses", d->row_misses, d->requests);
	text_count(f, "  row conflicts", d->row_conflicts, d->requests);
	fprintf(f, "  service time %.1f ns (Eq. 8, weighted by Eq. 7), utilisation up to %.3f at "
		   "%g ns/step\n",
		d->service_time, d->max_utilisation, c->dram_ns_per_step);
	if (d->saturated) {
		fprintf(f, "  saturated: %llu bank%s at utilisation >= 1 (requests arrive faster than "
			   "served): no finite queueing delay, latency or AMAT\n",
			(unsigned long long)d->saturated, d->saturated == 1 ? "" : "s");
		return;
	}
	fprintf(f, "  queueing delay %.1f ns (Kingman G/G/1), DRAM latency %.1f ns (Eq. 7)\n",
		d->queue_delay, d->latency);
	fprintf(f, "  AMAT %.1f ns = %.1f ns x miss ratio %.4f + hit %.1f ns", d->amat, d->latency,
		d->miss_ratio, c->dram_cache_hit);
	if (d->shmem_ratio > 0)
		fprintf(f, " + shared %.1f ns x %.4f", c->smem_latency, d->shmem_ratio);
	fputs(" (Eq. 5)\n", f);
}

/* Memory spaces (seed 002): the placements, then a row per space. */
static void text_spaces(FILE *f, const rd_config *c, const rd_result *r)
{
	fputs("spaces:", f);
	for (uint32_t i = 0; i < c->mem_n; i++)
		fprintf(f, " %s=%s", c->mem[i].name, rd_space_name(c->mem[i].space));
	fputs(" (other arrays global)\n", f);
	fprintf(f, "  %-10s", "space");
	for (int i = 0; i < OUTPUT_NSPACE_FIELDS; i++)
		fprintf(f, " %*s", i == OUTPUT_NSPACE_FIELDS - 1 ? 20 : 12,
			output_space_fields[i].name);
	putc('\n', f);
	for (int sp = 0; sp < RD_NSPACES; sp++) {
		fprintf(f, "  %-10s", rd_space_name((enum rd_space)sp));
		for (int i = 0; i < OUTPUT_NSPACE_FIELDS; i++)
			fprintf(f, " %*llu", i == OUTPUT_NSPACE_FIELDS - 1 ? 20 : 12,
				(unsigned long long)output_space_value(&r->spaces[sp], i));
		putc('\n', f);
	}
	fprintf(f, "  Eq. 3: issued instructions %+lld against every array global (addressing "
		   "%+lld, replays %+lld), %+.2f per warp over %llu warps\n",
		(long long)r->issued_delta, (long long)r->delta_address, (long long)r->delta_replays,
		r->warps ? (double)r->issued_delta / (double)r->warps : 0.0,
		(unsigned long long)r->warps);
}

/* RDGC's six metrics on one line ("-": not computed). */
static void text_metrics(FILE *f, const rd_result *r, const rd_result *l1b)
{
	rd_metrics m;
	rd_metrics_of(r, l1b, &m);
	fprintf(f, "metrics: L1_R_Hit %.4f, L1_R_Trans %llu", m.l1_r_hit,
		(unsigned long long)m.l1_r_trans);
	if (r->has_l2)
		fprintf(f, ", L2_Hit %.4f (L2_R_Hit %.4f), L2_Trans %llu", m.l2_hit, m.l2_r_hit,
			(unsigned long long)m.l2_trans);
	else
		fputs(", L2_Hit -, L2_Trans - (no L2)", f);
	if (m.have_l1b)
		fprintf(f, ", L2_Hit_L1B %.4f, L2_Trans_L1B %llu", m.l2_hit_l1b,
			(unsigned long long)m.l2_trans_l1b);
	else
		fputs(", L2_Hit_L1B -, L2_Trans_L1B -", f);
	putc('\n', f);
}

static void text_run(output *o, const output_run *run)
{
	FILE *f = o->f;
	unsigned long index = o->nruns;
	int sweep = o->sweep;
	const rd_result *r = run->result;
	const rd_config *c = run->config;
	if (index)
		putc('\n', f);
	if (sweep)
		fprintf(f, "run:     %lu, point %lu: %s\n", run->run, run->point,
			run->point_label ? run->point_label : "");
	if (!r) { /* a skipped sweep point */
		fputs("input:   ", f);
		fputs_safe(run->input, f);
		fprintf(f, "\nskipped: %s\n", run->skipped ? run->skipped : "");
		return;
	}
	/* Names come from inputs: shown without their control characters. */
	fputs("input:   ", f);
	fputs_safe(run->input, f);
	fputs("\nkernel:  ", f);
	fputs_safe(run->kernel, f);
	static const char *const store_note[] = {"not cached", "write-evict", "cached"};
	fprintf(f, ", %u thread%s, %llu load%s, %llu store%s (%s)\n", r->threads_total,
		r->threads_total == 1 ? "" : "s", (unsigned long long)r->accesses,
		r->accesses == 1 ? "" : "s", (unsigned long long)r->stores, r->stores == 1 ? "" : "s",
		store_note[c->stores <= RD_STORES_ALLOCATE ? c->stores : 0]);
	text_config(f, c);
	fprintf(f, "requests: %llu coalesced from %llu loads\n", (unsigned long long)r->requests,
		(unsigned long long)r->accesses);
	text_count(f, "hits", r->hits, r->requests);
	text_count(f, "misses", r->misses, r->requests);
	for (int k = 0; k < RD_NCLASS; k++) {
		/* the classes the configuration cannot give are left out */
		if (!rd_class_possible(c, (enum rd_class)k))
			continue;
		char label[32];
		snprintf(label, sizeof label, "  %s", rd_class_name((enum rd_class)k));
		text_count(f, label, r->cls[k], r->requests);
	}
	/* The model's rates; a kernel without loads has none, shown as 0. */
	fprintf(f, "miss rate %.2f%% (hardware view, without latency misses), %.2f%% with them\n",
		isfinite(r->miss_rate) ? 100.0 * r->miss_rate : 0.0,
		isfinite(r->miss_rate_all) ? 100.0 * r->miss_rate_all : 0.0);
	if (c->model == RD_PROFILE_RDGC)
		fprintf(f, "reservation fails %llu (warps stalled for an MSHR entry or merge slot), "
			   "merges %llu, steps %llu\n",
			(unsigned long long)r->reservation_fails,
			(unsigned long long)r->cls[RD_CLASS_LATENCY], (unsigned long long)r->time_steps);
	else if (r->cancels)
		fprintf(f, "cancels: %llu issue attempts blocked on MSHRs%s\n",
			(unsigned long long)r->cancels,
			c->l1_allocate == RD_ALLOC_MISS ? " or on sets with every way reserved" : "");
	if (c->stores != RD_STORES_IGNORE) {
		fprintf(f, "stores:  %llu request%s coalesced from %llu store%s, %llu %s",
			(unsigned long long)r->store_requests, r->store_requests == 1 ? "" : "s",
			(unsigned long long)r->stores, r->stores == 1 ? "" : "s",
			(unsigned long long)r->store_hits,
			c->stores == RD_STORES_EVICT ? "hit and evicted their line"
			: r->store_hits == 1	     ? "hit"
						     : "hits");
		if (c->stores == RD_STORES_EVICT && r->store_evictions > r->store_hits)
			fprintf(f, ", %llu found their line in flight (its insertion cancelled)",
				(unsigned long long)(r->store_evictions - r->store_hits));
		putc('\n', f);
	}
	if (c->l1_sector && r->sector_lookups)
		fprintf(f, "sectors: %llu load sector lookups, %llu hits: %.2f%% (as Nsight Compute "
			   "counts l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate; %u-byte "
			   "sectors)\n",
			(unsigned long long)r->sector_lookups, (unsigned long long)r->sector_hits,
			100.0 * rd_result_l1_hit_rate(r), c->l1_sector);
	text_cases(f, r);
	text_histogram(f, "histogram:", r->hist, r->hist_len, r->hist_inf);
	if (c->stores != RD_STORES_IGNORE)
		text_histogram(f, "store histogram:", r->hist_w, r->hist_w_len, r->hist_w_inf);
	if (r->has_l2)
		text_l2(f, c, &r->l2);
	if (r->has_dram)
		text_dram(f, c, &r->dram);
	if (r->has_spaces)
		text_spaces(f, c, r);
	if (r->has_l2 || c->model == RD_PROFILE_RDGC)
		text_metrics(f, r, run->l1b);
	sites_text(f, run);
	if (r->threads_modelled < r->threads_total)
		fprintf(f, "note: gpu.max_threads=%u kept %u of %u threads\n", c->max_threads,
			r->threads_modelled, r->threads_total);
	if (run->k && run->k->launch_threads)
		fprintf(f, "note: the description's max_threads kept %u of the launch's %llu threads "
			   "(-s gpu.max_threads=0 models them all)\n",
			r->threads_total, (unsigned long long)run->k->launch_threads);
	if (c->cores > 1)
		fprintf(f, "modelled: %u thread%s in %u block%s on %u of %u cores\n",
			r->threads_modelled, r->threads_modelled == 1 ? "" : "s", r->blocks_modelled,
			r->blocks_modelled == 1 ? "" : "s", r->cores_used, c->cores);
	if (r->cores_sampled)
		fprintf(f, "sampled: %u of the %u cores with blocks (gpu.sample_cores), counts scaled "
			   "by %u/%u; the sampled cores' miss rates %.2f%% to %.2f%% (sd %.2f points)\n",
			r->cores_sampled, r->cores_used, r->cores_used, r->cores_sampled,
			100 * r->core_miss_min, 100 * r->core_miss_max, 100 * r->core_miss_sd);
}

const struct output_ops output_text_ops = {NULL, text_run, NULL};

void output_text_rate_cell(FILE *f, double x)
{
	if (isnan(x))
		fprintf(f, " %9s", "-");
	else
		fprintf(f, " %8.2f%%", 100 * x);
}

void output_text_stats_tail(FILE *f, const rd_stats *st)
{
	if (isfinite(st->r2))
		fprintf(f, ", R^2 %.4f", st->r2);
	if (isfinite(st->spearman))
		fprintf(f, ", Spearman rho %.4f", st->spearman);
	fputc('\n', f);
}
