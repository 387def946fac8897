/*
 * Text results, for people at a terminal: what was modelled, the miss
 * breakdown as counts and shares of all requests, both miss rates (the
 * hardware counters' view leaves latency misses out) and a short histogram.
 */
#include "output_fmt.h"
#include "sites.h"
#include "util/util.h"

#include <math.h>
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
	fprintf(f, ", latency hit %s miss %s+-%s, warp %s, cores %s, mapping %s%s", v[7], v[8],
		v[9], v[10], v[11], v[12],
		c->classes == RD_CLASSES_PER_ACCESS ? ", classes per access" : "");
	/* the policies, when not the paper's */
	if (c->replacement != RD_REPL_LRU)
		fprintf(f, ", replacement %s", rd_replacement_name(c->replacement));
	if (c->stores != RD_STORES_IGNORE)
		fprintf(f, ", stores %s", rd_stores_name(c->stores));
	if (c->loads != RD_LOADS_CACHE)
		fprintf(f, ", loads %s", rd_loads_name(c->loads));
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
		/* the classes the policies cannot give are left out */
		if ((k == RD_CLASS_WRITE_EVICT && c->stores != RD_STORES_EVICT) ||
		    (k == RD_CLASS_BYPASS && c->loads != RD_LOADS_BYPASS))
			continue;
		char label[32];
		snprintf(label, sizeof label, "  %s", rd_class_name((enum rd_class)k));
		text_count(f, label, r->cls[k], r->requests);
	}
	/* The model's rates; a kernel without loads has none, shown as 0. */
	fprintf(f, "miss rate %.2f%% (hardware view, without latency misses), %.2f%% with them\n",
		isfinite(r->miss_rate) ? 100.0 * r->miss_rate : 0.0,
		isfinite(r->miss_rate_all) ? 100.0 * r->miss_rate_all : 0.0);
	if (r->cancels)
		fprintf(f, "cancels: %llu issue attempts blocked on MSHRs\n",
			(unsigned long long)r->cancels);
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
	text_cases(f, r);
	text_histogram(f, "histogram:", r->hist, r->hist_len, r->hist_inf);
	if (c->stores != RD_STORES_IGNORE)
		text_histogram(f, "store histogram:", r->hist_w, r->hist_w_len, r->hist_w_inf);
	sites_text(f, run);
	if (r->threads_modelled < r->threads_total)
		fprintf(f, "note: gpu.max_threads=%u kept %u of %u threads\n", c->max_threads,
			r->threads_modelled, r->threads_total);
}

const struct output_ops output_text_ops = {NULL, text_run, NULL};
