/*
 * CSV writers: the results table (a header from the model's key table,
 * one row per run, numbers only so spreadsheets sum them) and the per-request event log.
 */
#include "output_fmt.h"
#include "sites.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * The configuration columns, in header order: every key of the model's
 * table (rd_keys[], so a new key gets its column as it gets its JSON
 * member), and the derived "l1.sets" after "l1.ways".
 */
#define CSV_SETS "l1.sets"

/* Column i's key, or NULL past the last. */
static const char *csv_config_key(size_t i)
{
	size_t n = rd_key_count();
	const rd_key *w = rd_key_find("l1.ways");
	size_t at = w ? (size_t)(w - rd_keys) + 1 : n; /* where l1.sets goes */
	if (i == at)
		return CSV_SETS;
	if (i > at)
		i--;
	return i < n ? rd_keys[i].name : NULL;
}

int output_csv_has_column(const char *key)
{
	for (size_t i = 0; csv_config_key(i); i++)
		if (strcmp(csv_config_key(i), key) == 0)
			return 1;
	return 0;
}

/* Sweeps lead with the run (merge sorts by it) and point numbers. */
static void csv_header(output *o)
{
	FILE *f = o->f;
	fputs(o->sweep ? "run,point,input,kernel" : "input,kernel", f);
	if (o->by != OUTPUT_BY_NONE) /* --by: a row per site, its counts */
		fputs(",site,pc,line,load,reference,array", f);
	for (size_t i = 0; csv_config_key(i); i++)
		fprintf(f, ",%s", csv_config_key(i));
	fputs(",accesses,requests,hits,misses,compulsory,capacity,associativity,latency,mshr,"
	      "write_evict,bypass,stores,store_requests,store_hits,store_evictions,"
	      "miss_rate,miss_rate_all,model_s",
	      f);
	for (int i = 0; i < o->nextra; i++)
		fprintf(f, ",%s", o->extra_keys[i]);
	if (o->sweep_id)
		fputs(",sweep", f);
	fputc('\n', f);
}

/* One row: the run's counts, or with row its site's (--by). */
static void csv_row(output *o, const output_run *run, const site_row *row)
{
	FILE *f = o->f;
	const rd_result *r = run->result;
	char buf[64];
	if (o->sweep)
		fprintf(f, "%lu,%lu,", run->run, run->point);
	output_csv_field(f, run->input);
	putc(',', f);
	output_csv_field(f, run->kernel);
	if (o->by != OUTPUT_BY_NONE) {
		const rd_site *st = row ? row->site : NULL;
		putc(',', f);
		output_csv_field(f, row ? row->label : "");
		if (st && st->pc)
			fprintf(f, ",%llu", (unsigned long long)st->pc);
		else
			putc(',', f);
		if (st && st->line)
			fprintf(f, ",%u", st->line);
		else
			putc(',', f);
		if (row && row->load >= 0)
			fprintf(f, ",%ld", row->load);
		else
			putc(',', f);
		putc(',', f);
		output_csv_field(f, st && st->ref ? st->ref : "");
		putc(',', f);
		const char *arr = row ? (row->array ? row->array : st ? st->array : NULL) : NULL;
		output_csv_field(f, arr ? arr : "");
	}
	for (size_t i = 0; csv_config_key(i); i++) {
		const char *key = csv_config_key(i);
		putc(',', f);
		if (strcmp(key, CSV_SETS) == 0)
			fprintf(f, "%u", rd_config_sets(run->config));
		else
			output_csv_field(f, output_config_value(run->config, key, buf, sizeof buf));
	}
	if (!r) { /* a skipped point: no counts, no rates, no time */
		for (int i = 0; i < 4 + RD_NCLASS + 4 + 3; i++)
			putc(',', f);
		goto tail;
	}
	if (row) { /* a site's: its loads are not counted apart, only requests */
		const rd_site_result *q = &row->r;
		fprintf(f, ",,%llu,%llu,%llu", (unsigned long long)q->requests,
			(unsigned long long)q->hits, (unsigned long long)q->misses);
		for (int c = 0; c < RD_NCLASS; c++)
			fprintf(f, ",%llu", (unsigned long long)q->cls[c]);
		fputs(",,,,", f); /* stores are not counted per site */
		double all = q->requests ? (double)q->misses / (double)q->requests : 0.0;
		double hw = q->requests ? (double)(q->misses - q->cls[RD_CLASS_LATENCY]) /
						  (double)q->requests
					: 0.0;
		fprintf(f, ",%.6f,%.6f,", hw, all);
	} else {
		fprintf(f, ",%llu,%llu,%llu,%llu", (unsigned long long)r->accesses,
			(unsigned long long)r->requests, (unsigned long long)r->hits,
			(unsigned long long)r->misses);
		for (int c = 0; c < RD_NCLASS; c++)
			fprintf(f, ",%llu", (unsigned long long)r->cls[c]);
		fprintf(f, ",%llu,%llu,%llu,%llu", (unsigned long long)r->stores,
			(unsigned long long)r->store_requests, (unsigned long long)r->store_hits,
			(unsigned long long)r->store_evictions);
		/* A kernel without loads has no rate; 0 keeps the column numeric. */
		fprintf(f, ",%.6f,%.6f,", isfinite(r->miss_rate) ? r->miss_rate : 0.0,
			isfinite(r->miss_rate_all) ? r->miss_rate_all : 0.0);
	}
	if (!run->no_timing)
		fprintf(f, "%.6f", run->model_s);
tail:
	for (int i = 0; i < o->nextra; i++) {
		putc(',', f);
		output_csv_field(f, output_config_value(run->config, o->extra_keys[i], buf, sizeof buf));
	}
	if (o->sweep_id)
		fprintf(f, ",%s", o->sweep_id);
	fputc('\n', f);
}

static void csv_run(output *o, const output_run *run)
{
	size_t n = 0;
	int oom = 0;
	site_row *rows = o->by != OUTPUT_BY_NONE ? sites_rows(run, &n, &oom) : NULL;
	if (!rows || !n) { /* without --by, a skipped point, no loads, or no memory: the
			     * run's row (with empty site columns) */
		free(rows);
		csv_row(o, run, NULL);
		return;
	}
	for (size_t i = 0; i < n; i++)
		csv_row(o, run, &rows[i]);
	free(rows);
}

const struct output_ops output_csv_ops = {csv_header, csv_run, NULL};
