/*
 * JSON results: one document per invocation, versioned header first, so a
 * script can check "format" and "version" before trusting anything else.
 * Numbers are written as JSON numbers (never with units); strings are
 * escaped and made valid UTF-8, since file names need not be.
 */
#include "output_fmt.h"
#include "sites.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* Non-finite rates (a kernel without loads) have no JSON number: null. */
static void json_double(FILE *f, double v, const char *fmt)
{
	if (isfinite(v))
		fprintf(f, fmt, v);
	else
		fputs("null", f);
}

void output_json_double(FILE *f, double v)
{
	json_double(f, v, "%.17g");
}

void output_json_stats(FILE *f, const rd_stats *st)
{
	fprintf(f, "\"n\":%zu,\"mae\":", st->n);
	output_json_double(f, st->n ? st->mae : NAN);
	fputs(",\"r2\":", f);
	output_json_double(f, st->n ? st->r2 : NAN);
	fputs(",\"spearman\":", f);
	output_json_double(f, st->n ? st->spearman : NAN);
}

static void json_u64(FILE *f, const char *name, uint64_t v, int first)
{
	fprintf(f, "%s\"%s\":%llu", first ? "" : ",", name, (unsigned long long)v);
}

/* Every key of the table, numeric types as numbers; l1.sets is derived. */
void output_json_config(FILE *f, const rd_config *c)
{
	char buf[128];
	putc('{', f);
	for (const rd_key *k = rd_keys; k->name; k++) {
		if (k != rd_keys)
			putc(',', f);
		output_json_quote(f, k->name);
		putc(':', f);
		output_config_value(c, k->name, buf, sizeof buf);
		int numeric = k->type == RD_KEY_UINT || k->type == RD_KEY_DOUBLE;
		if (k->type == RD_KEY_BOOL)
			fputs(strcmp(buf, "1") == 0 || strcmp(buf, "true") == 0 || strcmp(buf, "on") == 0
				      ? "1"
				      : "0",
			      f);
		else if (numeric && buf[0] && buf[output_json_number_len(buf)] == '\0')
			fputs(buf, f);
		else
			output_json_quote(f, buf);
	}
	if (!rd_key_find("l1.sets"))
		fprintf(f, ",\"l1.sets\":%u", rd_config_sets(c));
	for (uint32_t i = 0; i < c->mem_n; i++) { /* the placements, as -s takes them */
		snprintf(buf, sizeof buf, "mem.%s", c->mem[i].name);
		putc(',', f);
		output_json_quote(f, buf);
		putc(':', f);
		output_json_quote(f, rd_space_name(c->mem[i].space));
	}
	putc('}', f);
}

/* ,"spaces":{"global":{...},...},"eq3":{...}: memory spaces (seed 002)
 * and Eq. 3's change in issued instructions */
static void json_spaces(FILE *f, const rd_result *r)
{
	fputs(",\"spaces\":{", f);
	for (int sp = 0; sp < RD_NSPACES; sp++) {
		fprintf(f, "%s\"%s\":{", sp ? "," : "", rd_space_name((enum rd_space)sp));
		for (int i = 0; i < OUTPUT_NSPACE_FIELDS; i++)
			fprintf(f, "%s\"%s\":%llu", i ? "," : "", output_space_fields[i].name,
				(unsigned long long)output_space_value(&r->spaces[sp], i));
		putc('}', f);
	}
	fprintf(f, "},\"eq3\":{\"address_instructions\":%lld,\"replays\":%lld,\"issued\":%lld,"
		   "\"warps\":%llu,\"issued_per_warp\":%.6f}",
		(long long)r->delta_address, (long long)r->delta_replays, (long long)r->issued_delta,
		(unsigned long long)r->warps,
		r->warps ? (double)r->issued_delta / (double)r->warps : 0.0);
}

static void json_begin(output *o)
{
	fprintf(o->f, "{\"format\":\"rdscope-results\",\"version\":1,%s\"runs\":[",
		o->json_header ? o->json_header : "");
}

/* ,"name":[[d,count],...,["inf",count]]: the nonzero distances. */
static void json_hist(FILE *f, const char *name, const uint64_t *hist, uint32_t len, uint64_t inf)
{
	fprintf(f, ",\"%s\":[", name);
	int first = 1;
	for (uint32_t d = 0; d < len; d++) {
		if (hist[d]) {
			fprintf(f, "%s[%u,%llu]", first ? "" : ",", d, (unsigned long long)hist[d]);
			first = 0;
		}
	}
	if (inf)
		fprintf(f, "%s[\"inf\",%llu]", first ? "" : ",", (unsigned long long)inf);
	fputs("]", f);
}


/* ,"name":[[n,...] per partition]: a partition-major [partitions * banks]
 * array as one array of banks per partition. */
static void json_banks(FILE *f, const char *name, const uint64_t *v, uint32_t partitions,
		       uint32_t banks)
{
	fprintf(f, ",\"%s\":[", name);
	for (uint32_t p = 0; v && p < partitions; p++) {
		fputs(p ? ",[" : "[", f);
		for (uint32_t b = 0; b < banks; b++)
			fprintf(f, "%s%llu", b ? "," : "", (unsigned long long)v[(size_t)p * banks + b]);
		putc(']', f);
	}
	putc(']', f);
}

/* ,"sectors":{"lookups":N,"hits":N,"hit_rate":X}: a level's sectors (l1.sector,
 * l2.sector) as Nsight Compute counts them. */
static void json_sectors(FILE *f, uint64_t lookups, uint64_t hits, double rate)
{
	fputs(",\"sectors\":{", f);
	json_u64(f, "lookups", lookups, 1);
	json_u64(f, "hits", hits, 0);
	fputs(",\"hit_rate\":", f);
	json_double(f, rate, "%.17g");
	fputs("}", f);
}

/* ,"l2":{...}: the shared L2's counts, named as the L1's, its histograms
 * and its per-partition, per-bank requests and misses. */
static void json_l2(FILE *f, const rd_level *l)
{
	fputs(",\"l2\":{\"counts\":{", f);
	json_u64(f, "requests", l->requests, 1);
	json_u64(f, "hits", l->hits, 0);
	json_u64(f, "misses", l->misses, 0);
	for (int k = 0; k < RD_NCLASS; k++) /* (no sector class: its sectors are apart) */
		if (k != RD_CLASS_SECTOR)
			json_u64(f, output_class_keys[k], l->cls[k], 0);
	json_u64(f, "store_requests", l->store_requests, 0);
	json_u64(f, "store_hits", l->store_hits, 0);
	json_u64(f, "store_evictions", l->store_evictions, 0);
	json_u64(f, "reservation_fails", l->reservation_fails, 0);
	json_u64(f, "merges", l->merges, 0);
	putc('}', f);
	json_u64(f, "steps", l->steps, 0);
	fputs(",\"miss_rate\":", f);
	json_double(f, l->miss_rate, "%.17g");
	json_u64(f, "partitions", l->partitions, 0);
	json_u64(f, "banks", l->banks, 0);
	json_u64(f, "sets", l->sets, 0);
	if (l->sector_lookups) /* l2.sector: the reads' sectors, as ncu counts them */
		json_sectors(f, l->sector_lookups, l->sector_hits, rd_level_hit_rate(l));
	json_banks(f, "bank_requests", l->bank_requests, l->partitions, l->banks);
	json_banks(f, "bank_misses", l->bank_misses, l->partitions, l->banks);
	json_hist(f, "histogram", l->hist, l->hist_len, l->hist_inf);
	json_hist(f, "histogram_writes", l->hist_w, l->hist_w_len, l->hist_w_inf);
	putc('}', f);
}

/* ,"metrics":{...}: RDGC's six metrics (seed 001 §5), every run; those of
 * the L2 null without one, the L1B pair null unless computed (--l1b). */
static void json_metrics(FILE *f, const rd_result *r, const rd_result *l1b)
{
	rd_metrics m;
	rd_metrics_of(r, l1b, &m);
	fputs(",\"metrics\":{\"L1_R_Hit\":", f);
	json_double(f, m.l1_r_hit, "%.17g");
	json_u64(f, "L1_R_Trans", m.l1_r_trans, 0);
	fputs(",\"L2_Hit\":", f);
	if (r->has_l2)
		json_double(f, m.l2_hit, "%.17g");
	else
		fputs("null", f);
	fputs(",\"L2_R_Hit\":", f);
	if (r->has_l2)
		json_double(f, m.l2_r_hit, "%.17g");
	else
		fputs("null", f);
	if (r->has_l2)
		json_u64(f, "L2_Trans", m.l2_trans, 0);
	else
		fputs(",\"L2_Trans\":null", f);
	fputs(",\"L2_Hit_L1B\":", f);
	if (m.have_l1b)
		json_double(f, m.l2_hit_l1b, "%.17g");
	else
		fputs("null", f);
	if (m.have_l1b)
		json_u64(f, "L2_Trans_L1B", m.l2_trans_l1b, 0);
	else
		fputs(",\"L2_Trans_L1B\":null", f);
	json_u64(f, "reservation_fails", m.reservation_fails, 0);
	json_u64(f, "merges", m.merges, 0);
	json_u64(f, "steps", m.steps, 0);
	fputs(",\"merge_rate\":", f);
	json_double(f, m.merge_rate, "%.17g");
	putc('}', f);
}

/* ,"dram":{...}: DRAM after the last cache level (seed 002); the delays
 * null when a bank is saturated (no finite mean wait). */
static void json_dram(FILE *f, const rd_dram *d)
{
	fputs(",\"dram\":{", f);
	json_u64(f, "requests", d->requests, 1);
	json_u64(f, "reads", d->reads, 0);
	json_u64(f, "writes", d->writes, 0);
	json_u64(f, "row_hits", d->row_hits, 0);
	json_u64(f, "row_misses", d->row_misses, 0);
	json_u64(f, "row_conflicts", d->row_conflicts, 0);
	json_u64(f, "banks", d->banks, 0);
	json_u64(f, "banks_used", d->banks_used, 0);
	json_u64(f, "saturated_banks", d->saturated, 0);
	fprintf(f, ",\"saturated\":%s", d->saturated ? "true" : "false");
	static const struct {
		const char *name;
		size_t off;
	} v[] = {
		{"max_utilisation", offsetof(rd_dram, max_utilisation)},
		{"span", offsetof(rd_dram, span)},
		{"service_time", offsetof(rd_dram, service_time)},
		{"queue_delay", offsetof(rd_dram, queue_delay)},
		{"latency", offsetof(rd_dram, latency)},
		{"miss_ratio", offsetof(rd_dram, miss_ratio)},
		{"shmem_ratio", offsetof(rd_dram, shmem_ratio)},
		{"amat", offsetof(rd_dram, amat)},
	};
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		double x;
		memcpy(&x, (const char *)d + v[i].off, sizeof x);
		fprintf(f, ",\"%s\":", v[i].name);
		json_double(f, x, "%.17g");
	}
	putc('}', f);
}

static void json_run(output *o, const output_run *run)
{
	FILE *f = o->f;
	unsigned long index = o->nruns;
	int sweep = o->sweep;
	static const char *const case_names[RD_NCASES] = {"full", "fully_assoc", "no_latency",
							  "no_mshr"};
	const rd_result *r = run->result;
	fputs(index ? ",\n{" : "\n{", f);
	/* One run per line, the run number first: merge relies on both. */
	if (sweep)
		fprintf(f, "\"run\":%lu,\"point\":%lu,", run->run, run->point);
	fputs("\"input\":", f);
	output_json_quote(f, run->input);
	fputs(",\"kernel\":", f);
	output_json_quote(f, run->kernel);
	fputs(",\"config\":", f);
	output_json_config(f, run->config);
	if (!r) { /* a skipped point: why, instead of the counts */
		fputs(",\"skipped\":", f);
		output_json_quote(f, run->skipped ? run->skipped : "");
		fputs("}", f);
		return;
	}

	fputs(",\"counts\":{", f);
	json_u64(f, "accesses", r->accesses, 1);
	json_u64(f, "requests", r->requests, 0);
	json_u64(f, "hits", r->hits, 0);
	json_u64(f, "misses", r->misses, 0);
	for (int k = 0; k < RD_NCLASS; k++)
		json_u64(f, output_class_keys[k], r->cls[k], 0);
	json_u64(f, "stores", r->stores, 0);
	json_u64(f, "store_requests", r->store_requests, 0);
	json_u64(f, "store_hits", r->store_hits, 0);
	json_u64(f, "store_evictions", r->store_evictions, 0);
	json_u64(f, "cancels", r->cancels, 0);
	fputs("},\"threads\":{", f);
	json_u64(f, "total", r->threads_total, 1);
	json_u64(f, "modelled", r->threads_modelled, 0);
	json_u64(f, "blocks", r->blocks_modelled, 0);
	json_u64(f, "cores_used", r->cores_used, 0);
	if (run->k && run->k->launch_threads)
		json_u64(f, "launch", run->k->launch_threads, 0);
	if (r->cores_sampled) {
		fputs("},\"sampled\":{", f);
		json_u64(f, "cores", r->cores_sampled, 1);
		json_u64(f, "of", r->cores_used, 0);
		fputs(",\"miss_rate_min\":", f);
		json_double(f, r->core_miss_min, "%.17g");
		fputs(",\"miss_rate_max\":", f);
		json_double(f, r->core_miss_max, "%.17g");
		fputs(",\"miss_rate_sd\":", f);
		json_double(f, r->core_miss_sd, "%.17g");
	}
	fputs("},\"miss_rate\":", f);
	json_double(f, r->miss_rate, "%.17g");
	fputs(",\"miss_rate_all\":", f);
	json_double(f, r->miss_rate_all, "%.17g");
	if (r->sector_lookups) /* l1.sector: the loads' sectors, as ncu counts them */
		json_sectors(f, r->sector_lookups, r->sector_hits, rd_result_l1_hit_rate(r));

	fputs(",\"case_misses\":{", f);
	int first = 1;
	for (int i = 0; i < RD_NCASES; i++) {
		if (r->cases_run & (1 << i)) {
			json_u64(f, case_names[i], r->case_misses[i], first);
			first = 0;
		}
	}
	fputs("}", f);
	/* the loads' distances, and the stores' (RDGC's C1R and C1W) */
	json_hist(f, "histogram", r->hist, r->hist_len, r->hist_inf);
	json_hist(f, "histogram_writes", r->hist_w, r->hist_w_len, r->hist_w_inf);
	if (r->has_l2)
		json_l2(f, &r->l2);
	if (r->has_dram)
		json_dram(f, &r->dram);
	if (r->has_spaces)
		json_spaces(f, r);
	json_metrics(f, r, run->l1b);
	sites_json(f, run);
	if (!run->no_timing) {
		fputs(",\"timing\":{\"load_s\":", f);
		json_double(f, run->load_s, "%.6f");
		fputs(",\"model_s\":", f);
		json_double(f, run->model_s, "%.6f");
		fputs("}", f);
	}
	fputs("}", f);
}

static void json_end(output *o)
{
	FILE *f = o->f;
	fputs("\n]}\n", f);
}

const struct output_ops output_json_ops = {json_begin, json_run, json_end};
