/*
 * The worked examples of the papers, reproduced exactly through the event
 * log of the "paper" profile: seed 000 Tables 1-5, seed 001 Table 1 and
 * seed 003 Table 1. Each table is a small trace in samples/paper/ too, so
 * rdscope-model(7) can show the same runs on the command line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#include "testutil.h"
#include "trace_ocelot.h"

/* A shipped sample trace; the test fails if it does not load. */
static rd_kernel *sample(const char *name)
{
	char path[256], err[512];
	rd_kernel *k = NULL;
	snprintf(path, sizeof path, "samples/paper/%s", name);
	if (trace_ocelot_read(path, &k, err, sizeof err) != TRACE_OK)
		fail_msg("%s", err);
	return k;
}

#define INF -1

static void expect_distances(const tu_log *l, const int64_t *d, int n)
{
	int seen = 0;
	for (int i = 0; i < l->n; i++) {
		if (l->ev[i].outcome == RD_OUT_CANCEL)
			continue;
		assert_true(seen < n);
		if (l->ev[i].distance != d[seen])
			fail_msg("request %d: distance %lld, expected %lld", seen,
				 (long long)l->ev[i].distance, (long long)d[seen]);
		seen++;
	}
	assert_int_equal(seen, n);
}

/* Seed 000 Table 1: x[0] x[5] x[3] x[9] x[3] x[3] x[5], one thread. */
static void test_s000_table1(void **state)
{
	(void)state;
	rd_kernel *k = sample("table1.trc");
	rd_config c;
	tu_log log;
	rd_result r;
	/* address granularity: 4-byte "lines" */
	tu_toy_config(&c, 4, 16);
	assert_int_equal(tu_run_log(k, &c, &log, &r), RD_OK);
	int64_t da[] = {INF, INF, INF, INF, 1, 0, 2};
	expect_distances(&log, da, 7);
	rd_result_free(&r);
	/* cache-line granularity, 4 elements a line; a cache of 2 lines:
	 * 3 compulsory misses (42%) and 1 capacity miss (14%) */
	tu_toy_config(&c, 16, 2);
	assert_int_equal(tu_run_log(k, &c, &log, &r), RD_OK);
	int64_t dl[] = {INF, INF, 1, INF, 1, 0, 2};
	expect_distances(&log, dl, 7);
	assert_int_equal(r.requests, 7);
	assert_int_equal(r.cls[RD_CLASS_COMPULSORY], 3);
	assert_int_equal(r.misses - r.cls[RD_CLASS_COMPULSORY], 1);
	assert_int_equal(r.hist_inf, 3);
	assert_int_equal(r.hist[0], 1);
	assert_int_equal(r.hist[1], 2);
	assert_int_equal(r.hist[2], 1);
	rd_result_free(&r);
	rd_kernel_free(k);
}

/* The kernel of Tables 2-5: 4 threads, loads x[2t] and x[2t+1]. */
static rd_kernel *table2_kernel(void)
{
	return sample("table2.trc");
}

static void expect_order(const tu_log *l, const uint32_t *thread, const uint32_t *instr,
			 const uint64_t *time, int n)
{
	assert_int_equal(l->n, n);
	for (int i = 0; i < n; i++) {
		assert_int_equal(l->ev[i].thread, thread[i]);
		assert_int_equal(l->ev[i].instr, instr[i]);
		assert_int_equal(l->ev[i].time, time[i]);
	}
}

static void test_s000_table2(void **state)
{
	(void)state;
	rd_kernel *k = table2_kernel();
	rd_config c;
	tu_log log;
	rd_result r;
	tu_toy_config(&c, 16, 2);
	assert_int_equal(tu_run_log(k, &c, &log, &r), RD_OK);
	uint32_t th[] = {0, 1, 2, 3, 0, 1, 2, 3}, in[] = {0, 0, 0, 0, 1, 1, 1, 1};
	uint64_t tm[] = {0, 1, 2, 3, 4, 5, 6, 7};
	expect_order(&log, th, in, tm, 8);
	int64_t d[] = {INF, 0, INF, 0, 1, 0, 1, 0};
	expect_distances(&log, d, 8);
	uint64_t line[] = {0, 0, 1, 1, 0, 0, 1, 1};
	for (int i = 0; i < 8; i++)
		assert_int_equal(log.ev[i].line, line[i]);
	rd_result_free(&r);
	rd_kernel_free(k);
}

/* The set's stack each lookup of Table 2 saw, most recent line first,
 * written out by hand from the table's order (no latency). */
typedef struct stack_log {
	uint64_t s[8][4];
	uint32_t n[8];
	int k;
} stack_log;

static void log_stack(void *ctx, const rd_event *ev)
{
	stack_log *sl = ctx;
	if (sl->k < 8) {
		sl->n[sl->k] = ev->stack_len;
		for (uint32_t i = 0; i < ev->stack_len && i < 4; i++)
			sl->s[sl->k][i] = ev->stack[i];
	}
	sl->k++;
}

static void test_s000_table2_stacks(void **state)
{
	(void)state;
	rd_kernel *k = table2_kernel();
	rd_config c;
	tu_toy_config(&c, 16, 2);
	stack_log sl = {0};
	rd_callbacks cb = {.event = log_stack, .event_stacks = 1, .ctx = &sl};
	rd_model *m = rd_model_new(k);
	rd_result r;
	assert_int_equal(rd_model_run(m, &c, 1, &cb, &r), RD_OK);
	static const uint32_t n[8] = {0, 1, 1, 2, 2, 2, 2, 2};
	static const uint64_t top[8] = {0, 0, 0, 1, 1, 0, 0, 1};
	assert_int_equal(sl.k, 8);
	for (int i = 0; i < 8; i++) {
		assert_int_equal(sl.n[i], n[i]);
		if (n[i])
			assert_int_equal(sl.s[i][0], top[i]);
		if (n[i] == 2)
			assert_int_equal(sl.s[i][1], 1 - top[i]);
	}
	/* without asking, no stacks */
	sl.k = 0;
	cb.event_stacks = 0;
	rd_result_free(&r);
	assert_int_equal(rd_model_run(m, &c, 1, &cb, &r), RD_OK);
	assert_int_equal(sl.n[3], 0);
	rd_result_free(&r);
	rd_model_free(m);
	rd_kernel_free(k);
}

static void expect_outcomes(const tu_log *l, const char *hm, const uint32_t *lat,
			    const uint64_t *eff)
{
	for (int i = 0; hm[i]; i++) {
		enum rd_outcome o = hm[i] == 'h' ? RD_OUT_HIT : hm[i] == 'm' ? RD_OUT_MISS : RD_OUT_CANCEL;
		if (l->ev[i].outcome != o)
			fail_msg("request %d: outcome %d, expected %c", i, l->ev[i].outcome, hm[i]);
		if (o == RD_OUT_CANCEL)
			continue;
		if (l->ev[i].latency != lat[i] || l->ev[i].effect_at != eff[i])
			fail_msg("request %d: latency %u effect at %llu, expected %u and %llu", i,
				 l->ev[i].latency, (unsigned long long)l->ev[i].effect_at, lat[i],
				 (unsigned long long)eff[i]);
	}
}

/* Table 3: fixed latency 2 for hits and misses, a cache of 2 lines. */
static void test_s000_table3(void **state)
{
	(void)state;
	rd_kernel *k = table2_kernel();
	rd_config c;
	tu_log log;
	rd_result r;
	tu_toy_config(&c, 16, 2);
	c.latency_hit = c.latency_miss = 2;
	for (int div = 0; div < 2; div++) { /* the table holds either way */
		c.divergence = div;
		assert_int_equal(tu_run_log(k, &c, &log, &r), RD_OK);
		uint32_t th[] = {0, 1, 2, 3, 0, 1, 2, 3}, in[] = {0, 0, 0, 0, 1, 1, 1, 1};
		uint64_t tm[] = {0, 1, 2, 3, 4, 5, 6, 7};
		expect_order(&log, th, in, tm, 8);
		int64_t d[] = {INF, INF, INF, INF, 0, 1, 0, 1};
		expect_distances(&log, d, 8);
		uint32_t lat[] = {2, 2, 2, 2, 2, 2, 2, 2};
		uint64_t eff[] = {2, 3, 4, 5, 6, 7, 8, 9};
		expect_outcomes(&log, "mmmmhhhh", lat, eff);
		rd_result_free(&r);
	}
	rd_kernel_free(k);
}

/* Table 4: hit latency 0, miss latency 2 (conditional latencies). */
static void test_s000_table4(void **state)
{
	(void)state;
	rd_kernel *k = table2_kernel();
	rd_config c;
	tu_log log;
	rd_result r;
	tu_toy_config(&c, 16, 2);
	c.latency_miss = 2;
	assert_int_equal(tu_run_log(k, &c, &log, &r), RD_OK);
	int64_t d[] = {INF, INF, INF, INF, 0, 0, 1, 0};
	expect_distances(&log, d, 8);
	uint32_t lat[] = {2, 2, 2, 2, 0, 0, 0, 0};
	uint64_t eff[] = {2, 3, 4, 5, 4, 5, 6, 7};
	expect_outcomes(&log, "mmmmhhhh", lat, eff);
	rd_result_free(&r);
	/* With clipping, as the text says: "change the 'effect at' time of the
	 * request at time-stamp 1 in table 4 from 3 to 2" (and likewise 5 to 4
	 * at time 3); the distances do not change. */
	c.latency_clip = 1;
	assert_int_equal(tu_run_log(k, &c, &log, &r), RD_OK);
	expect_distances(&log, d, 8);
	uint32_t latc[] = {2, 1, 2, 1, 0, 0, 0, 0};
	uint64_t effc[] = {2, 2, 4, 4, 4, 5, 6, 7};
	expect_outcomes(&log, "mmmmhhhh", latc, effc);
	assert_int_equal(r.cls[RD_CLASS_LATENCY], 2);
	assert_int_equal(r.cls[RD_CLASS_COMPULSORY], 2);
	rd_result_free(&r);
	rd_kernel_free(k);
}

/* Table 5: one MSHR; only threads 0 and 2 run. */
static void test_s000_table5(void **state)
{
	(void)state;
	rd_kernel *k = sample("table5.trc");
	rd_config c;
	tu_log log;
	rd_result r;
	tu_toy_config(&c, 16, 2);
	c.latency_miss = 2;
	c.l1_mshrs = 1;
	assert_int_equal(tu_run_log(k, &c, &log, &r), RD_OK);
	uint32_t th[] = {0, 2, 0, 2, 2}, in[] = {0, 0, 1, 0, 1};
	uint64_t tm[] = {0, 1, 2, 3, 4};
	expect_order(&log, th, in, tm, 5);
	int64_t d[] = {INF, 0, INF, INF}; /* cancelled request has none */
	expect_distances(&log, d, 4);
	uint32_t lat[] = {2, 0, 0, 2, 2};
	uint64_t eff[] = {2, 0, 2, 5, 6};
	expect_outcomes(&log, "mchmm", lat, eff);
	/* "MSHRs used" after each request: 1 - 0 1 1 */
	uint32_t used[] = {1, 1, 0, 1, 1};
	for (int i = 0; i < 5; i++)
		if (i != 1)
			assert_int_equal(log.ev[i].mshrs_used, used[i]);
	assert_int_equal(r.cancels, 1);
	rd_result_free(&r);
	rd_kernel_free(k);
}

/* Seed 001 Table 1: A B C D A A D C -> inf inf inf inf 3 0 1 2;
 * fully associative LRU hits 50 % with 4 blocks, 25 % with 2. */
static void test_s001_table1(void **state)
{
	(void)state;
	rd_kernel *k = sample("s001-table1.trc");
	rd_config c;
	tu_log log;
	rd_result r;
	tu_toy_config(&c, 64, 4);
	assert_int_equal(tu_run_log(k, &c, &log, &r), RD_OK);
	int64_t d[] = {INF, INF, INF, INF, 3, 0, 1, 2};
	expect_distances(&log, d, 8);
	assert_int_equal(r.hits, 4);
	rd_result_free(&r);
	tu_toy_config(&c, 64, 2);
	assert_int_equal(tu_run_log(k, &c, &log, &r), RD_OK);
	assert_int_equal(r.hits, 2);
	rd_result_free(&r);
	rd_kernel_free(k);
}

/* Seed 003 Table 1: a b c a a c b d a a -> -1 -1 -1 2 0 1 2 -1 3 0. */
static void test_s003_table1(void **state)
{
	(void)state;
	rd_kernel *k = sample("s003-table1.trc");
	rd_config c;
	tu_log log;
	rd_result r;
	tu_toy_config(&c, 32, 8);
	assert_int_equal(tu_run_log(k, &c, &log, &r), RD_OK);
	int64_t d[] = {INF, INF, INF, 2, 0, 1, 2, INF, 3, 0};
	expect_distances(&log, d, 10);
	rd_result_free(&r);
	/* seed 003 notes D.2: FA-LRU misses for C = 1..5 are 8, 7, 5, 4, 4 */
	uint64_t want[] = {8, 7, 5, 4, 4};
	for (uint32_t lines = 1; lines <= 5; lines++) {
		tu_toy_config(&c, 32, lines);
		assert_int_equal(tu_run_log(k, &c, &log, &r), RD_OK);
		assert_int_equal(r.misses, want[lines - 1]);
		rd_result_free(&r);
	}
	rd_kernel_free(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_s000_table1), cmocka_unit_test(test_s000_table2),
		cmocka_unit_test(test_s000_table2_stacks),
		cmocka_unit_test(test_s000_table3), cmocka_unit_test(test_s000_table4),
		cmocka_unit_test(test_s000_table5), cmocka_unit_test(test_s001_table1),
		cmocka_unit_test(test_s003_table1),
	};
	return cmocka_run_group_tests_name("paper tables", tests, NULL, NULL);
}
