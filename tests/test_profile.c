/*
 * Reuse profiles (seed 003, MLCRP): the fully associative curve, the
 * binomial set-associative estimate and the comparison statistics on the
 * notes' exact examples (seeds-003-004 §D.1 items 1 and 4, §D.2 items 6
 * and 7), and properties against direct computations.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "rdscope.h"

/* Table 1: a b c a a c b d a a -> RD -1 -1 -1 2 0 1 2 -1 3 0 */
static const uint64_t t1[] = {2, 1, 2, 1};
static const uint64_t t1_cold = 4;

static void test_table1_fully_associative(void **state)
{
	(void)state;
	static const uint64_t want[] = {8, 7, 5, 4, 4}; /* C = 1..5 */
	for (uint64_t c = 1; c <= 5; c++)
		assert_int_equal(rd_profile_fa_misses(t1, 4, t1_cold, c), want[c - 1]);
}

static void near(double got, double want, double tol)
{
	if (fabs(got - want) > tol)
		fail_msg("got %.10f, want %.10f", got, want);
}

static void test_table1_binomial(void **state)
{
	(void)state;
	near(rd_profile_estimate(t1, 4, t1_cold, 2, 4), 0.5, 1e-12);
	near(rd_profile_estimate(t1, 4, t1_cold, 1, 4), 0.4296875, 1e-12);
	near(rd_profile_estimate(t1, 4, t1_cold, 2, 2), 0.3, 1e-12);
	near(rd_profile_estimate(t1, 4, t1_cold, 4, 4), 0.6, 1e-12);
	near(rd_profile_estimate(t1, 4, t1_cold, 1, 1), 0.2, 1e-12);
	/* MLCRP's L1 (A = 8, B = 64): P_hit at one distance */
	static const struct {
		uint32_t d;
		double p;
	} one[] = {{63, 0.4622079}, {64, 0.4435583}, {100, 0.0575910}};
	for (int i = 0; i < 3; i++) {
		uint64_t h[101] = {0};
		h[one[i].d] = 1;
		near(rd_profile_estimate(h, one[i].d + 1, 0, 8, 64), one[i].p, 5e-8);
	}
}

/* The recurrence against the binomial sum written out, and one set (A =
 * B) against the fully associative curve, on seeded random profiles. */
static void test_binomial_properties(void **state)
{
	(void)state;
	uint64_t x = 12345;
	for (int iter = 0; iter < 200; iter++) {
		uint64_t h[300] = {0}, cold;
		uint32_t len = 1 + (uint32_t)(iter * 7 % 299);
		for (uint32_t d = 0; d < len; d++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			h[d] = (x >> 40) % 50;
		}
		cold = (x >> 20) % 100;
		uint32_t ways = 1 + (uint32_t)(iter % 16);
		uint64_t lines = ways * (1u << (iter % 6));
		/* direct: sum over a of C(d, a) p^a (1 - p)^(d - a) */
		double p = (double)ways / (double)lines, hits = 0, total = (double)cold;
		for (uint32_t d = 0; d < len; d++) {
			double ph = 0;
			for (uint32_t a = 0; a < ways && a <= d; a++)
				ph += exp(lgamma(d + 1.0) - lgamma(a + 1.0) - lgamma(d - a + 1.0) +
					  (a ? a * log(p) : 0) + (d - a ? (d - a) * log1p(-p) : 0));
			if (lines == ways)
				ph = d < ways;
			hits += (double)h[d] * ph;
			total += (double)h[d];
		}
		near(rd_profile_estimate(h, len, cold, ways, lines), total ? hits / total : 0, 1e-9);
		if (lines == ways)
			near(rd_profile_estimate(h, len, cold, ways, lines),
			     total ? 1.0 - (double)rd_profile_fa_misses(h, len, cold, lines) / total : 0,
			     1e-12);
	}
}

/* Table 6: Accel-Sim's ranks 1..10 against MLCRP's and PPT-GPU-Mem's */
static void test_spearman_table6(void **state)
{
	(void)state;
	double acc[10], ml[10] = {1, 2, 3, 5, 7, 4, 6, 8, 9, 10}, ppt[10] = {1, 2, 9, 3, 7, 4, 8, 10, 6, 5};
	for (int i = 0; i < 10; i++)
		acc[i] = i + 1;
	rd_stats s;
	assert_int_equal(rd_compare_stats(acc, ml, 10, &s), 0);
	near(s.spearman, 1.0 - 6.0 * 10 / 990, 1e-12); /* 0.93939... */
	assert_int_equal(rd_compare_stats(acc, ppt, 10, &s), 0);
	near(s.spearman, 1.0 - 6.0 * 84 / 990, 1e-12); /* 0.49090... */
	/* MAE and R^2 by hand; ties take average ranks */
	double y[4] = {0.1, 0.2, 0.3, 0.4}, e[4] = {0.1, 0.3, 0.3, 0.3};
	assert_int_equal(rd_compare_stats(y, e, 4, &s), 0);
	near(s.mae, 0.05, 1e-12);
	near(s.r2, 1.0 - 0.02 / 0.05, 1e-12);
	/* ranks of e: 1, 3, 3, 3 -> Pearson with 1..4: 0.7745966... */
	near(s.spearman, 0.7745966692414834, 1e-12);
}

static void test_peaks(void **state)
{
	(void)state;
	uint64_t h[64] = {0};
	assert_int_equal(rd_profile_peaks(h, 64), 0);
	h[0] = 10; /* one peak at 0 */
	assert_int_equal(rd_profile_peaks(h, 64), 1);
	h[40] = 30; /* bucket 6 (32-63): a second */
	assert_int_equal(rd_profile_peaks(h, 64), 2);
	h[0] = 1; /* below 5 % of the tallest: not a peak */
	assert_int_equal(rd_profile_peaks(h, 64), 1);
	/* Table 1: buckets 0:2, 1:1, 2-3:3 -> peaks at 0 and 2-3 */
	assert_int_equal(rd_profile_peaks(t1, 4), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table1_fully_associative),
		cmocka_unit_test(test_table1_binomial),
		cmocka_unit_test(test_binomial_properties),
		cmocka_unit_test(test_spearman_table6),
		cmocka_unit_test(test_peaks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
