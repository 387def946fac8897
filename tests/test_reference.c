/*
 * The reference-2013 profile against the 2013 reference code's own outputs
 * (samples/reference/results.tsv): every (configuration, trace) row must
 * give the same requests, hits, misses, five classes, the three other
 * cases' totals and the same histogram.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdscope.h"
#include "trace_ocelot.h"

#define DIR "samples/reference/"

typedef struct row {
	char cfg[4], trace[64];
	unsigned line, size, ways, mshrs, latency;
	unsigned long long loads, accesses, misses, hits, comp, cap, assoc, lat, mshr, tot_a, tot_l,
		tot_m;
	char hist[1024];
} row;

static int row_parse(char *s, row *r)
{
	double rate, stddev;
	return sscanf(s,
		      "%3s %63s %u %u %u %u %u %lf %llu %llu %llu %llu %lf %llu %llu %llu %llu %llu "
		      "%llu %llu %llu %1023s",
		      r->cfg, r->trace, &r->line, &r->size, &r->ways, &r->mshrs, &r->latency,
		      &stddev, &r->loads, &r->accesses, &r->misses, &r->hits, &rate, &r->comp,
		      &r->cap, &r->assoc, &r->lat, &r->mshr, &r->tot_a, &r->tot_l, &r->tot_m,
		      r->hist) == 22;
}

/* Our histogram in the table's "d:count;...;inf:count" form. */
static void hist_format(const rd_result *res, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (uint32_t d = 0; d < res->hist_len; d++)
		if (res->hist[d])
			n += (size_t)snprintf(buf + n, len - n, "%s%u:%llu", n ? ";" : "", d,
					      (unsigned long long)res->hist[d]);
	if (res->hist_inf)
		snprintf(buf + n, len - n, "%sinf:%llu", n ? ";" : "",
			 (unsigned long long)res->hist_inf);
}

static void check_row(const row *r)
{
	char path[256], err[512];
	snprintf(path, sizeof path, DIR "%s.trc.gz", r->trace);
	rd_kernel *k = NULL;
	int rc = trace_ocelot_read(path, &k, err, sizeof err);
	if (rc != TRACE_OK)
		fail_msg("%s", err);
	rd_config c;
	rd_config_default(&c);
	char e[160];
	char v[32];
	assert_int_equal(rd_config_set(&c, "model", "reference-2013", e, sizeof e), 0);
	c.l1_line = r->line;
	c.l1_size = r->size;
	c.l1_ways = r->ways;
	c.l1_mshrs = r->mshrs;
	c.latency_miss = r->latency;
	c.latency_stddev = 0;
	c.l1_hash = RD_HASH_FERMI;
	snprintf(v, sizeof v, "%u", r->mshrs);
	assert_int_equal(rd_config_check(&c, e, sizeof e), 0);
	rd_model *m = rd_model_new(k);
	rd_result res;
	assert_int_equal(rd_model_run(m, &c, RD_ALL_CASES, NULL, &res), RD_OK);
	char got[4096];
	hist_format(&res, got, sizeof got);
	unsigned long long have[] = {res.accesses,
				     res.requests,
				     res.misses,
				     res.hits,
				     res.cls[RD_CLASS_COMPULSORY],
				     res.cls[RD_CLASS_CAPACITY],
				     res.cls[RD_CLASS_ASSOCIATIVITY],
				     res.cls[RD_CLASS_LATENCY],
				     res.cls[RD_CLASS_MSHR],
				     res.case_misses[RD_CASE_FULLY_ASSOC],
				     res.case_misses[RD_CASE_NO_LATENCY],
				     res.case_misses[RD_CASE_NO_MSHR]};
	unsigned long long want[] = {r->loads, r->accesses, r->misses, r->hits, r->comp,
				     r->cap,   r->assoc,    r->lat,    r->mshr, r->tot_a,
				     r->tot_l, r->tot_m};
	static const char *const what[] = {"loads", "accesses", "misses", "hits",
					   "compulsory", "capacity", "associativity", "latency",
					   "mshr", "tot_associativity", "tot_latency", "tot_mshr"};
	int bad = 0;
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		if (have[i] != want[i]) {
			print_error("%s/%s: %s = %llu, reference %llu\n", r->cfg, r->trace, what[i],
				    have[i], want[i]);
			bad = 1;
		}
	if (strcmp(got, r->hist) != 0) {
		print_error("%s/%s: histogram\n  got  %s\n  want %s\n", r->cfg, r->trace, got,
			    r->hist);
		bad = 1;
	}
	rd_result_free(&res);
	rd_model_free(m);
	rd_kernel_free(k);
	if (bad)
		fail_msg("%s/%s differs from the reference", r->cfg, r->trace);
}

/* One cmocka test per configuration, each over the 14 traces. */
static void check_config(const char *cfg)
{
	FILE *f = fopen(DIR "results.tsv", "r");
	assert_non_null(f);
	char line[4096];
	int rows = 0;
	assert_non_null(fgets(line, sizeof line, f)); /* header */
	while (fgets(line, sizeof line, f)) {
		row r;
		assert_true(row_parse(line, &r));
		if (strcmp(r.cfg, cfg) != 0)
			continue;
		check_row(&r);
		rows++;
	}
	fclose(f);
	assert_int_equal(rows, 14);
}

static void test_config_a(void **s) { (void)s; check_config("A"); }
static void test_config_b(void **s) { (void)s; check_config("B"); }
static void test_config_c(void **s) { (void)s; check_config("C"); }
static void test_config_d(void **s) { (void)s; check_config("D"); }
static void test_config_e(void **s) { (void)s; check_config("E"); }

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_a), cmocka_unit_test(test_config_b),
		cmocka_unit_test(test_config_c), cmocka_unit_test(test_config_d),
		cmocka_unit_test(test_config_e),
	};
	return cmocka_run_group_tests_name("reference-2013 profile", tests, NULL, NULL);
}
