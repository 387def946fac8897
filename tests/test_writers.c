/*
 * The result writers' L2 and metrics fields (issue 18's outputs) on a
 * result made by hand, so that every number is known: JSON's runs[i].l2
 * and runs[i].metrics, the CSV's appended columns, the text's L2 section
 * and metrics line, and the event log's new columns and outcomes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rdscope.h"
#include "writers/output.h"

/* An L1 of 20 load requests (15 hits, 2 of the 5 misses merged), and an
 * L2 of 2 partitions x 2 banks x 4 sets: 10 reads (2 hits, 8 compulsory
 * misses), 4 writes (1 hit). */
static uint64_t hist[3] = {1, 0, 1}, bank_req[4] = {5, 3, 4, 2}, bank_miss[4] = {4, 3, 3, 1};

static void fake(rd_result *r, rd_config *c, int l2)
{
	memset(r, 0, sizeof *r);
	rd_config_default(c);
	c->model = RD_PROFILE_RDGC;
	r->threads_total = r->threads_modelled = 4;
	r->accesses = 40;
	r->requests = 20;
	r->hits = 15;
	r->misses = 5;
	r->cls[RD_CLASS_COMPULSORY] = 3;
	r->cls[RD_CLASS_LATENCY] = 2;
	r->reservation_fails = 6;
	r->time_steps = 9;
	r->miss_rate = 3.0 / 20;
	r->miss_rate_all = 5.0 / 20;
	if (!l2)
		return;
	c->l2_size = 2048;
	c->l2_line = 64;
	c->l2_ways = 2;
	c->l2_partitions = 2;
	c->l2_banks = 2;
	r->has_l2 = 1;
	rd_level *l = &r->l2;
	l->requests = 10;
	l->hits = 2;
	l->misses = 8;
	l->cls[RD_CLASS_COMPULSORY] = 8;
	l->store_requests = 4;
	l->store_hits = 1;
	l->reservation_fails = 7;
	l->merges = 0;
	l->steps = 5;
	l->miss_rate = 0.8;
	l->hist = hist;
	l->hist_len = 3;
	l->hist_inf = 8;
	l->partitions = 2;
	l->banks = 2;
	l->sets = 4;
	l->bank_requests = bank_req;
	l->bank_misses = bank_miss;
}

/* The L1B run's L2: 30 reads (6 hits), 10 writes (4 hits). */
static void fake_l1b(rd_result *r)
{
	memset(r, 0, sizeof *r);
	r->has_l2 = 1;
	r->l2.requests = 30;
	r->l2.hits = 6;
	r->l2.store_requests = 10;
	r->l2.store_hits = 4;
}

/* One run written in fmt into a string (free it). */
static char *write_one(enum output_format fmt, const rd_config *c, const rd_result *r,
		       const rd_result *l1b)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	output o;
	output_begin(&o, f, fmt);
	output_run run = {.input = "t.trc", .kernel = "t", .config = c, .result = r, .l1b = l1b,
			  .no_timing = 1};
	output_write_run(&o, &run);
	output_end(&o);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void has(const char *s, const char *what)
{
	if (!strstr(s, what))
		fail_msg("missing: %s\nin: %s", what, s);
}

static void test_json_l2(void **state)
{
	(void)state;
	rd_config c;
	rd_result r, b;
	fake(&r, &c, 1);
	fake_l1b(&b);
	char *s = write_one(OUTPUT_JSON, &c, &r, NULL);
	has(s, ",\"l2\":{\"counts\":{\"requests\":10,\"hits\":2,\"misses\":8,\"compulsory\":8,"
	       "\"capacity\":0,\"associativity\":0,\"latency\":0,\"mshr\":0,\"write_evict\":0,"
	       "\"bypass\":0,\"store_requests\":4,\"store_hits\":1,\"store_evictions\":0,"
	       "\"reservation_fails\":7,\"merges\":0},\"steps\":5,\"miss_rate\":0.80000000000000004,"
	       "\"partitions\":2,\"banks\":2,\"sets\":4,\"bank_requests\":[[5,3],[4,2]],"
	       "\"bank_misses\":[[4,3],[3,1]],\"histogram\":[[0,1],[2,1],[\"inf\",8]],"
	       "\"histogram_writes\":[]}");
	/* L2_Hit = (2 + 1) / (10 + 4) = 3/14; L1_R_Hit = 15/20 */
	char want[512];
	snprintf(want, sizeof want,
		 ",\"metrics\":{\"L1_R_Hit\":0.75,\"L1_R_Trans\":20,\"L2_Hit\":%.17g,"
		 "\"L2_R_Hit\":0.20000000000000001,\"L2_Trans\":14,\"L2_Hit_L1B\":null,"
		 "\"L2_Trans_L1B\":null,\"reservation_fails\":6,\"merges\":2,\"steps\":9,"
		 "\"merge_rate\":0.40000000000000002}",
		 3.0 / 14.0);
	has(s, want);
	free(s);
	/* --l1b: (6 + 4) / (30 + 10) */
	s = write_one(OUTPUT_JSON, &c, &r, &b);
	has(s, "\"L2_Hit_L1B\":0.25,\"L2_Trans_L1B\":40,");
	free(s);
	/* without an L2: no l2 member, the L2's metrics null */
	fake(&r, &c, 0);
	s = write_one(OUTPUT_JSON, &c, &r, NULL);
	assert_null(strstr(s, "\"l2\":{"));
	has(s, ",\"metrics\":{\"L1_R_Hit\":0.75,\"L1_R_Trans\":20,\"L2_Hit\":null,"
	       "\"L2_R_Hit\":null,\"L2_Trans\":null,\"L2_Hit_L1B\":null,\"L2_Trans_L1B\":null,"
	       "\"reservation_fails\":6,\"merges\":2,\"steps\":9,\"merge_rate\":0.40000000000000002}");
	free(s);
}

/* Field i of a CSV line without quotes (the test's lines have none). */
static void csv_split(char *line, char **fields, int *n, int max)
{
	*n = 0;
	for (char *p = line;; p++) {
		if (*n < max)
			fields[(*n)++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p = '\0';
	}
}

/* A two-line CSV into its header and row fields (in place). */
static void csv_parse(char *csv, char **hdr, char **row, int *n)
{
	char *nl = strchr(csv, '\n');
	assert_non_null(nl);
	*nl = '\0';
	char *nl2 = strchr(nl + 1, '\n');
	assert_non_null(nl2);
	*nl2 = '\0';
	int nr;
	csv_split(csv, hdr, n, 256);
	csv_split(nl + 1, row, &nr, 256);
	assert_int_equal(*n, nr);
}

/* The value of column name. */
static const char *csv_get(const char *name, char **hdr, char **row, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(hdr[i], name))
			return row[i];
	fail_msg("no column %s", name);
	return NULL;
}

static void test_csv_l2(void **state)
{
	(void)state;
	rd_config c;
	rd_result r, b;
	char *hdr[256], *row[256];
	int n;
	fake(&r, &c, 1);
	fake_l1b(&b);
	char *s = write_one(OUTPUT_CSV, &c, &r, &b);
	/* the existing columns first, unchanged; the new ones after model_s */
	has(s, ",miss_rate,miss_rate_all,model_s,l2_requests,l2_hits,l2_misses,l2_compulsory,"
	       "l2_capacity,l2_associativity,l2_latency,l2_mshr,l2_write_evict,l2_bypass,"
	       "l2_store_requests,l2_store_hits,l2_store_evictions,l2_reservation_fails,l2_merges,"
	       "l2_steps,l2_miss_rate,l2_partitions,l2_banks,l2_sets,L1_R_Hit,L1_R_Trans,L2_Hit,"
	       "L2_R_Hit,L2_Trans,L2_Hit_L1B,L2_Trans_L1B,reservation_fails,merges,steps,merge_rate,"
	       "dram_requests,dram_reads,dram_writes,dram_row_hits,dram_row_misses,"
	       "dram_row_conflicts,dram_banks,dram_banks_used,dram_saturated_banks,"
	       "dram_max_utilisation,dram_service_time,dram_queue_delay,dram_latency,"
	       "dram_miss_ratio,dram_shmem_ratio,dram_amat,sector_lookups,sector_hits,"
	       "sector_hit_rate,l2_sector_lookups,l2_sector_hits,l2_sector_hit_rate,sector\n");
	csv_parse(s, hdr, row, &n);
	static const char *const want[][2] = {
		{"l2_requests", "10"}, {"l2_hits", "2"},	   {"l2_compulsory", "8"},
		{"l2_store_requests", "4"}, {"l2_store_hits", "1"}, {"l2_reservation_fails", "7"},
		{"l2_steps", "5"},	    {"l2_miss_rate", "0.800000"}, {"l2_sets", "4"},
		{"L1_R_Hit", "0.750000"},   {"L1_R_Trans", "20"},   {"L2_Hit", "0.214286"},
		{"L2_R_Hit", "0.200000"},   {"L2_Trans", "14"},	    {"L2_Hit_L1B", "0.250000"},
		{"L2_Trans_L1B", "40"},	    {"reservation_fails", "6"}, {"merges", "2"},
		{"steps", "9"},		    {"requests", "20"},
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		const char *v = csv_get(want[i][0], hdr, row, n);
		if (strcmp(v, want[i][1]))
			fail_msg("%s: '%s', want '%s'", want[i][0], v, want[i][1]);
	}
	free(s);
	/* without an L2 (nor --l1b): the L2's columns empty, the L1's there */
	fake(&r, &c, 0);
	s = write_one(OUTPUT_CSV, &c, &r, NULL);
	csv_parse(s, hdr, row, &n);
	static const char *const want0[][2] = {
		{"l2_requests", ""}, {"l2_miss_rate", ""}, {"l2_sets", ""},	  {"L2_Hit", ""},
		{"L2_Trans", ""},    {"L2_Hit_L1B", ""},   {"L2_Trans_L1B", ""}, {"L1_R_Hit", "0.750000"},
		{"steps", "9"},	     {"sector_lookups", ""}, {"sector_hit_rate", ""},
	};
	for (size_t i = 0; i < sizeof want0 / sizeof *want0; i++) {
		const char *v = csv_get(want0[i][0], hdr, row, n);
		if (strcmp(v, want0[i][1]))
			fail_msg("%s: '%s', want '%s'", want0[i][0], v, want0[i][1]);
	}
	free(s);
	/* sectors (l1.sector): the loads' lookups, hits and their rate */
	fake(&r, &c, 0);
	r.sector_lookups = 8;
	r.sector_hits = 7;
	s = write_one(OUTPUT_CSV, &c, &r, NULL);
	csv_parse(s, hdr, row, &n);
	assert_string_equal(csv_get("sector_lookups", hdr, row, n), "8");
	assert_string_equal(csv_get("sector_hits", hdr, row, n), "7");
	assert_string_equal(csv_get("sector_hit_rate", hdr, row, n), "0.875000");
	assert_string_equal(csv_get("l2_sector_lookups", hdr, row, n), "");
	free(s);
	/* the L2's sectors (l2.sector): its reads' lookups, hits and rate */
	fake(&r, &c, 1);
	r.l2.sector_bytes = 32;
	r.l2.sector_lookups = 16;
	r.l2.sector_hits = 4;
	s = write_one(OUTPUT_CSV, &c, &r, NULL);
	csv_parse(s, hdr, row, &n);
	assert_string_equal(csv_get("l2_sector_lookups", hdr, row, n), "16");
	assert_string_equal(csv_get("l2_sector_hits", hdr, row, n), "4");
	assert_string_equal(csv_get("l2_sector_hit_rate", hdr, row, n), "0.250000");
	free(s);
}

static void test_text_l2(void **state)
{
	(void)state;
	rd_config c;
	rd_result r, b;
	fake(&r, &c, 1);
	fake_l1b(&b);
	char *s = write_one(OUTPUT_TEXT, &c, &r, &b);
	has(s, "\nreservation fails 6 (");
	has(s, "merges 2, steps 9\n");
	has(s, "\nL2:      2048 B, 64 B lines, 2 ways, 2 partitions x 2 banks x 4 sets");
	has(s, "\nL2 requests: 10 reads (the L1s' misses and bypassed loads), 4 writes\n");
	has(s, "\nL2 miss rate 80.00%; writes: 1 hit, 0 evictions; reservation fails 7, merges 0, "
	       "steps 5\n");
	has(s, "\nL2 histogram: 0:1 2:1 inf:8\n");
	has(s, "\nL2 banks: requests/misses p0: 5/4 3/3 | p1: 4/3 2/1\n");
	has(s, "\nmetrics: L1_R_Hit 0.7500, L1_R_Trans 20, L2_Hit 0.2143 (L2_R_Hit 0.2000), "
	       "L2_Trans 14, L2_Hit_L1B 0.2500, L2_Trans_L1B 40\n");
	free(s);
	/* the paper profile without an L2: neither section */
	fake(&r, &c, 0);
	c.model = RD_PROFILE_PAPER;
	s = write_one(OUTPUT_TEXT, &c, &r, NULL);
	assert_null(strstr(s, "L2"));
	assert_null(strstr(s, "metrics:"));
	assert_null(strstr(s, "reservation fails"));
	free(s);
}

static void test_eventlog(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	output_log_header(f);
	rd_event ev;
	memset(&ev, 0, sizeof ev);
	ev.time = 3;
	ev.line = 7;
	ev.distance = -1;
	ev.cls = -1;
	ev.outcome = RD_OUT_RF;
	ev.level = 2;
	ev.partition = 1;
	ev.bank = 3;
	ev.port = 0;
	ev.mshrs_free = 5;
	output_log_event(f, &ev);
	ev.outcome = RD_OUT_MERGE;
	ev.cls = RD_CLASS_LATENCY;
	output_log_event(f, &ev);
	ev.outcome = RD_OUT_FILL;
	ev.cls = -1;
	ev.store = 1;
	output_log_event(f, &ev);
	/* an engine of one level (level 0): the L1's; unlimited MSHRs: empty */
	ev.outcome = RD_OUT_HIT;
	ev.store = 0;
	ev.level = 0;
	ev.partition = ev.bank = 0;
	ev.mshrs_free = UINT32_MAX;
	output_log_event(f, &ev);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf, "time,core,block,warp,thread,nthreads,instr,addr,line,set,"
				 "distance,outcome,class,latency,effect_at,mshrs,access,level,"
				 "partition,bank,port,mshrs_free\n"
				 "3,0,0,0,0,0,0,0,7,0,inf,rf,,0,0,0,load,2,1,3,0,5\n"
				 "3,0,0,0,0,0,0,0,7,0,inf,merge,latency,0,0,0,load,2,1,3,0,5\n"
				 "3,0,0,0,0,0,0,0,7,0,inf,fill,,0,0,0,store,2,1,3,0,5\n"
				 "3,0,0,0,0,0,0,0,7,0,inf,hit,,0,0,0,load,1,0,0,0,\n");
	free(buf);
}

/* output_doc: a command's writers, one per format; each writes its name
 * and what it was given, so the picked writer and the order show. */
static void doc_begin(output_doc *d, const void *head)
{
	fprintf(d->f, "[%s:", (const char *)head);
}
static int text_item(output_doc *d, const void *rec)
{
	fprintf(d->f, "t%d", *(const int *)rec);
	return *(const int *)rec < 0 ? -1 : 0;
}
static int csv_item(output_doc *d, const void *rec)
{
	fprintf(d->f, "c%d", *(const int *)rec);
	return 0;
}
static int json_item(output_doc *d, const void *rec)
{
	output_doc_json_next(d);
	fprintf(d->f, "j%d", *(const int *)rec);
	return 0;
}
static void doc_end(output_doc *d, const void *tail)
{
	fprintf(d->f, ":%s]", (const char *)tail);
}

static char *write_doc(enum output_format fmt, const int *recs, int n, int *rc)
{
	static const output_doc_ops text = {.item = text_item};
	static const output_doc_ops csv = {doc_begin, csv_item, doc_end};
	static const output_doc_ops json = {doc_begin, json_item, NULL};
	static const output_doc_formats w = {&text, &csv, &json};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	output_doc d;
	output_doc_begin(&d, f, fmt, &w, "head");
	if (fmt == OUTPUT_JSON)
		output_doc_json_open(&d, "rdscope-test");
	*rc = 0;
	for (int i = 0; i < n; i++)
		if (output_doc_item(&d, &recs[i]) < 0)
			*rc = -1;
	output_doc_end(&d, "tail");
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* The classes' JSON and CSV keys are the model's class names (two lists:
 * the formats' keys stay fixed if a name shown changes; today they agree,
 * and a class added to one list alone fails here). */
static void test_class_keys(void **state)
{
	(void)state;
	for (int c = 0; c < RD_NCLASS; c++) {
		assert_non_null(output_class_keys[c]);
		assert_string_equal(output_class_keys[c], rd_class_name((enum rd_class)c));
	}
	assert_string_equal(rd_class_name(RD_NCLASS), "?");
}

/* Which classes an L2 can give: one rule (the text's L2 section and the
 * explorer's L2 bars both ask it): write_evict only when stores reach an
 * evicting L2. */
static void test_l2_classes(void **state)
{
	(void)state;
	rd_config c;
	rd_config_default(&c);
	c.l2_stores = RD_STORES_EVICT;
	c.stores = RD_STORES_IGNORE;
	assert_false(rd_l2_class_possible(&c, RD_CLASS_WRITE_EVICT));
	c.stores = RD_STORES_ALLOCATE;
	assert_true(rd_l2_class_possible(&c, RD_CLASS_WRITE_EVICT));
	c.l2_stores = RD_STORES_ALLOCATE;
	assert_false(rd_l2_class_possible(&c, RD_CLASS_WRITE_EVICT));
	c.l1_sector = 32;
	c.loads = RD_LOADS_BYPASS;
	for (int k = 0; k < RD_NCLASS; k++)
		assert_int_equal(rd_l2_class_possible(&c, (enum rd_class)k),
				 k == RD_CLASS_COMPULSORY || k == RD_CLASS_CAPACITY ||
					 k == RD_CLASS_ASSOCIATIVITY || k == RD_CLASS_LATENCY);
}

static void test_doc(void **state)
{
	(void)state;
	int recs[3] = {1, 2, 3}, rc;
	char *s = write_doc(OUTPUT_TEXT, recs, 3, &rc);
	assert_string_equal(s, "t1t2t3"); /* no begin or end: nothing written */
	assert_int_equal(rc, 0);
	free(s);
	s = write_doc(OUTPUT_CSV, recs, 3, &rc);
	assert_string_equal(s, "[head:c1c2c3:tail]");
	free(s);
	s = write_doc(OUTPUT_JSON, recs, 3, &rc);
	assert_string_equal(s, "[head:{\"format\":\"rdscope-test\",\"version\":1,\nj1,\nj2,\nj3");
	free(s);
	s = write_doc(OUTPUT_JSON, recs, 0, &rc);
	assert_string_equal(s, "[head:{\"format\":\"rdscope-test\",\"version\":1,");
	free(s);
	/* a writer's out of memory comes back from output_doc_item */
	int bad[2] = {1, -1};
	s = write_doc(OUTPUT_TEXT, bad, 2, &rc);
	assert_string_equal(s, "t1t-1");
	assert_int_equal(rc, -1);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_l2),
		cmocka_unit_test(test_csv_l2),
		cmocka_unit_test(test_text_l2),
		cmocka_unit_test(test_eventlog),
		cmocka_unit_test(test_doc),
		cmocka_unit_test(test_class_keys),
		cmocka_unit_test(test_l2_classes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
