/*
 * CSV writers: the results table (a header from the model's key table,
 * one row per run, numbers only so spreadsheets sum them) and the per-request event log.
 */
#include "output_fmt.h"
#include "sites.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/*
 * The configuration columns, in header order: every key of the model's
 * table (rd_keys[], so a new key gets its column as it gets its JSON
 * member), and the derived "l1.sets" after "l1.ways".
 */
#define CSV_SETS "l1.sets"

/* Column i's key, or NULL past the last. The memory-space keys are not
 * among them (see csv_spaces_header). */
static const char *csv_config_key(size_t i)
{
	size_t n = rd_key_count();
	const rd_key *w = rd_key_find("l1.ways");
	size_t at = w ? (size_t)(w - rd_keys) + 1 : n; /* where l1.sets goes */
	if (i == at)
		return CSV_SETS;
	if (i > at)
		i--;
	for (size_t j = 0; j < n; j++) {
		if (rd_keys[j].flags & RD_KEY_SPACES)
			continue;
		if (i-- == 0)
			return rd_keys[j].name;
	}
	return NULL;
}

/*
 * The memory spaces' columns, after the others (only when the output's
 * first run places arrays, so that every result without mem.* keeps its
 * columns): the spaces' keys, "mem" (the placements, NAME=SPACE joined by
 * ';'), and SPACE_FIELD per space (global_requests, ...; empty for a run
 * without placements).
 */
static void csv_spaces_header(FILE *f)
{
	for (const rd_key *k = rd_keys; k->name; k++)
		if (k->flags & RD_KEY_SPACES)
			fprintf(f, ",%s", k->name);
	fputs(",mem", f);
	for (int sp = 0; sp < RD_NSPACES; sp++)
		for (int i = 0; i < OUTPUT_NSPACE_FIELDS; i++)
			fprintf(f, ",%s_%s", rd_space_name((enum rd_space)sp),
				output_space_fields[i].name);
	fputs(",eq3_address_instructions,eq3_replays,eq3_issued,eq3_warps", f);
}

static void csv_spaces_row(FILE *f, const rd_config *c, const rd_result *r)
{
	char buf[64];
	for (const rd_key *k = rd_keys; k->name; k++)
		if (k->flags & RD_KEY_SPACES) {
			putc(',', f);
			output_csv_field(f, output_config_value(c, k->name, buf, sizeof buf));
		}
	putc(',', f);
	for (uint32_t i = 0; i < c->mem_n; i++) /* names and spaces need no quoting */
		fprintf(f, "%s%s=%s", i ? ";" : "", c->mem[i].name, rd_space_name(c->mem[i].space));
	for (int sp = 0; sp < RD_NSPACES; sp++)
		for (int i = 0; i < OUTPUT_NSPACE_FIELDS; i++) {
			putc(',', f);
			if (r && r->has_spaces)
				fprintf(f, "%llu",
					(unsigned long long)output_space_value(&r->spaces[sp], i));
		}
	if (r && r->has_spaces)
		fprintf(f, ",%lld,%lld,%lld,%llu", (long long)r->delta_address,
			(long long)r->delta_replays, (long long)r->issued_delta,
			(unsigned long long)r->warps);
	else
		fputs(",,,,", f);
}

int output_csv_has_column(const char *key)
{
	for (size_t i = 0; csv_config_key(i); i++)
		if (strcmp(csv_config_key(i), key) == 0)
			return 1;
	return 0;
}

/* The classes among the middle columns (compulsory ... bypass); the later
 * ones are appended at the end (sector). */
#define CSV_MID_CLASSES (RD_CLASS_BYPASS + 1)

/*
 * The columns after model_s (appended, so that every earlier column keeps
 * its place): the shared L2's, named as the L1's with "l2_" in front
 * (empty without an L2), and RDGC's six metrics with the L1's
 * reservation fails, merges and steps, named as JSON's "metrics" (the
 * L2's empty without an L2, the L1B pair without --l1b). One row each:
 * the header and every row are generated from this table.
 */
enum csv_src {
	COL_L2_U64,     /* a uint64_t of rd_level at off */
	COL_L2_U32,     /* a uint32_t of rd_level at off */
	COL_L2_RATE,    /* a double of rd_level at off */
	COL_M_U64,      /* a uint64_t of rd_metrics at off */
	COL_M_RATE,     /* a double of rd_metrics at off */
	COL_M_L2_U64,   /* the same, empty without an L2 */
	COL_M_L2_RATE,
	COL_M_L1B_U64,  /* the same, empty without the L1B run */
	COL_M_L1B_RATE,
	COL_D_U64,      /* a uint64_t of rd_dram at off, empty without DRAM */
	COL_D_NS,       /* a double of rd_dram at off (ns or a ratio), empty without
			 * DRAM or when not finite (saturated) */
	COL_S_U64,      /* a uint64_t of rd_result at off, empty without sector lookups */
	COL_S_RATE,     /* the loads' sector hit rate, empty without sector lookups */
	COL_S2_U64,     /* a uint64_t of rd_level at off, empty without l2.sector */
	COL_S2_RATE,    /* the L2's reads' sector hit rate, empty without l2.sector */
	COL_SECTOR,     /* the sector misses (the class; a site's in its row), empty
			 * without l1.sector */
};
typedef struct csv_col {
	const char *name;
	enum csv_src src;
	size_t off;
} csv_col;
#define L2C(name, field) {name, COL_L2_U64, offsetof(rd_level, field)}
static const csv_col csv_cols[] = {
	L2C("l2_requests", requests),
	L2C("l2_hits", hits),
	L2C("l2_misses", misses),
	L2C("l2_compulsory", cls[RD_CLASS_COMPULSORY]),
	L2C("l2_capacity", cls[RD_CLASS_CAPACITY]),
	L2C("l2_associativity", cls[RD_CLASS_ASSOCIATIVITY]),
	L2C("l2_latency", cls[RD_CLASS_LATENCY]),
	L2C("l2_mshr", cls[RD_CLASS_MSHR]),
	L2C("l2_write_evict", cls[RD_CLASS_WRITE_EVICT]),
	L2C("l2_bypass", cls[RD_CLASS_BYPASS]),
	L2C("l2_store_requests", store_requests),
	L2C("l2_store_hits", store_hits),
	L2C("l2_store_evictions", store_evictions),
	L2C("l2_reservation_fails", reservation_fails),
	L2C("l2_merges", merges),
	L2C("l2_steps", steps),
	{"l2_miss_rate", COL_L2_RATE, offsetof(rd_level, miss_rate)},
	{"l2_partitions", COL_L2_U32, offsetof(rd_level, partitions)},
	{"l2_banks", COL_L2_U32, offsetof(rd_level, banks)},
	{"l2_sets", COL_L2_U32, offsetof(rd_level, sets)},
	{"L1_R_Hit", COL_M_RATE, offsetof(rd_metrics, l1_r_hit)},
	{"L1_R_Trans", COL_M_U64, offsetof(rd_metrics, l1_r_trans)},
	{"L2_Hit", COL_M_L2_RATE, offsetof(rd_metrics, l2_hit)},
	{"L2_R_Hit", COL_M_L2_RATE, offsetof(rd_metrics, l2_r_hit)},
	{"L2_Trans", COL_M_L2_U64, offsetof(rd_metrics, l2_trans)},
	{"L2_Hit_L1B", COL_M_L1B_RATE, offsetof(rd_metrics, l2_hit_l1b)},
	{"L2_Trans_L1B", COL_M_L1B_U64, offsetof(rd_metrics, l2_trans_l1b)},
	{"reservation_fails", COL_M_U64, offsetof(rd_metrics, reservation_fails)},
	{"merges", COL_M_U64, offsetof(rd_metrics, merges)},
	{"steps", COL_M_U64, offsetof(rd_metrics, steps)},
	{"merge_rate", COL_M_RATE, offsetof(rd_metrics, merge_rate)},
	/* DRAM (seed 002), JSON's "dram" */
	{"dram_requests", COL_D_U64, offsetof(rd_dram, requests)},
	{"dram_reads", COL_D_U64, offsetof(rd_dram, reads)},
	{"dram_writes", COL_D_U64, offsetof(rd_dram, writes)},
	{"dram_row_hits", COL_D_U64, offsetof(rd_dram, row_hits)},
	{"dram_row_misses", COL_D_U64, offsetof(rd_dram, row_misses)},
	{"dram_row_conflicts", COL_D_U64, offsetof(rd_dram, row_conflicts)},
	{"dram_banks", COL_D_U64, offsetof(rd_dram, banks)},
	{"dram_banks_used", COL_D_U64, offsetof(rd_dram, banks_used)},
	{"dram_saturated_banks", COL_D_U64, offsetof(rd_dram, saturated)},
	{"dram_max_utilisation", COL_D_NS, offsetof(rd_dram, max_utilisation)},
	{"dram_service_time", COL_D_NS, offsetof(rd_dram, service_time)},
	{"dram_queue_delay", COL_D_NS, offsetof(rd_dram, queue_delay)},
	{"dram_latency", COL_D_NS, offsetof(rd_dram, latency)},
	{"dram_miss_ratio", COL_D_NS, offsetof(rd_dram, miss_ratio)},
	{"dram_shmem_ratio", COL_D_NS, offsetof(rd_dram, shmem_ratio)},
	{"dram_amat", COL_D_NS, offsetof(rd_dram, amat)},
	/* l1.sector: the loads' sectors, as Nsight Compute counts them */
	{"sector_lookups", COL_S_U64, offsetof(rd_result, sector_lookups)},
	{"sector_hits", COL_S_U64, offsetof(rd_result, sector_hits)},
	{"sector_hit_rate", COL_S_RATE, 0},
	/* l2.sector: the L2's reads' sectors, as Nsight Compute counts them */
	{"l2_sector_lookups", COL_S2_U64, offsetof(rd_level, sector_lookups)},
	{"l2_sector_hits", COL_S2_U64, offsetof(rd_level, sector_hits)},
	{"l2_sector_hit_rate", COL_S2_RATE, 0},
	/* l1.sector: the loads whose line hit but a sector missed (their class,
	 * beside the others of the middle columns, which keep their places) */
	{"sector", COL_SECTOR, 0},
};
#undef L2C
#define NCOLS (sizeof csv_cols / sizeof *csv_cols)

/* Column i's value for result r (NULL: every column empty but a site's
 * own, from site), m its metrics, cfg the run's configuration. */
static void csv_col_value(FILE *f, const csv_col *col, const rd_result *r, const rd_metrics *m,
			  const rd_site_result *site, const rd_config *cfg)
{
	if (col->src == COL_SECTOR) {
		const uint64_t *cls = site ? site->cls : r ? r->cls : NULL;
		if (cfg && cfg->l1_sector && cls)
			fprintf(f, "%llu", (unsigned long long)cls[RD_CLASS_SECTOR]);
		return;
	}
	if (!r)
		return;
	const char *l2 = (const char *)&r->l2, *mp = (const char *)m, *dr = (const char *)&r->dram;
	uint64_t u;
	uint32_t u32;
	double d;
	switch (col->src) {
	case COL_S_U64:
		if (!r->sector_lookups)
			return;
		memcpy(&u, (const char *)r + col->off, sizeof u);
		break;
	case COL_S_RATE:
		if (r->sector_lookups)
			fprintf(f, "%.6f", rd_result_l1_hit_rate(r));
		return;
	case COL_S2_U64:
		if (!r->has_l2 || !r->l2.sector_bytes)
			return;
		memcpy(&u, l2 + col->off, sizeof u);
		break;
	case COL_S2_RATE:
		if (r->has_l2 && r->l2.sector_bytes && r->l2.sector_lookups)
			fprintf(f, "%.6f", rd_level_hit_rate(&r->l2));
		return;
	case COL_D_U64:
		if (!r->has_dram)
			return;
		memcpy(&u, dr + col->off, sizeof u);
		break;
	case COL_D_NS:
		if (!r->has_dram)
			return;
		memcpy(&d, dr + col->off, sizeof d);
		if (isfinite(d))
			fprintf(f, "%.6f", d);
		return;
	case COL_L2_U64:
		if (!r->has_l2)
			return;
		memcpy(&u, l2 + col->off, sizeof u);
		break;
	case COL_L2_U32:
		if (!r->has_l2)
			return;
		memcpy(&u32, l2 + col->off, sizeof u32);
		u = u32;
		break;
	case COL_L2_RATE:
		if (!r->has_l2)
			return;
		memcpy(&d, l2 + col->off, sizeof d);
		fprintf(f, "%.6f", isfinite(d) ? d : 0.0);
		return;
	case COL_M_L2_U64:
	case COL_M_L1B_U64:
	case COL_M_U64:
		if ((col->src == COL_M_L2_U64 && !r->has_l2) ||
		    (col->src == COL_M_L1B_U64 && !m->have_l1b))
			return;
		memcpy(&u, mp + col->off, sizeof u);
		break;
	default: /* the metrics' ratios */
		if ((col->src == COL_M_L2_RATE && !r->has_l2) ||
		    (col->src == COL_M_L1B_RATE && !m->have_l1b))
			return;
		memcpy(&d, mp + col->off, sizeof d);
		fprintf(f, "%.6f", isfinite(d) ? d : 0.0);
		return;
	}
	fprintf(f, "%llu", (unsigned long long)u);
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
	for (size_t i = 0; i < NCOLS; i++)
		fprintf(f, ",%s", csv_cols[i].name);
	if (o->spaces)
		csv_spaces_header(f);
	for (int i = 0; i < o->nextra; i++)
		fprintf(f, ",%s", o->extra_keys[i]);
	if (o->sweep)
		fputs(",skipped", f); /* why a point has no counts, else empty */
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
		for (int i = 0; i < 4 + CSV_MID_CLASSES + 4 + 3; i++)
			putc(',', f);
		goto tail;
	}
	if (row) { /* a site's: its loads are not counted apart, only requests */
		const rd_site_result *q = &row->r;
		fprintf(f, ",,%llu,%llu,%llu", (unsigned long long)q->requests,
			(unsigned long long)q->hits, (unsigned long long)q->misses);
		for (int c = 0; c < CSV_MID_CLASSES; c++)
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
		for (int c = 0; c < CSV_MID_CLASSES; c++)
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
	/* the L2's and the metrics: a site's row and a skipped point's empty */
	{
		rd_metrics m = {0};
		const rd_result *of = row ? NULL : r;
		if (of)
			rd_metrics_of(of, run->l1b, &m);
		for (size_t i = 0; i < NCOLS; i++) {
			putc(',', f);
			csv_col_value(f, &csv_cols[i], of, &m, row ? &row->r : NULL, run->config);
		}
		if (o->spaces)
			csv_spaces_row(f, run->config, of);
	}
	for (int i = 0; i < o->nextra; i++) {
		putc(',', f);
		output_csv_field(f, output_config_value(run->config, o->extra_keys[i], buf, sizeof buf));
	}
	if (o->sweep) {
		putc(',', f);
		output_csv_field(f, run->skipped ? run->skipped : "");
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
