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

/* got rounded half up to 3 decimals is want (as the paper prints) */
static void near3(double got, double want)
{
	if (floor(got * 1000 + 0.5 + 1e-9) != floor(want * 1000 + 0.5))
		fail_msg("got %.6f, printed %.3f", got, want);
}

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

/* Seed 003 Table 3: L = 100, RP {0: .1, 1: .2, 2: .3, 3: .3, -1: .1}, draws
 * 2, 1, 0 injected and fresh addresses 40, 16, 25: idx 40 16 25 40 25 25,
 * RDs -1 -1 -1 2 1 0, and the profile after each step as printed
 * (notes §D.1 items 2-3; the exact values are counts over L - l). */
static void test_table3_generator(void **state)
{
	(void)state;
	double p[5] = {0.1, 0.1, 0.2, 0.3, 0.3}; /* -1, 0, 1, 2, 3 */
	rd_rpgen *g = rd_rpgen_new(p, 3, 100, 1);
	assert_non_null(g);
	static const uint64_t fresh[] = {40, 16, 25};
	rd_rpgen_fresh(g, fresh, 3);
	/* columns: rd 0, 1, 2, 3, -1 after l = 0..5 (3 decimals) */
	static const double col[6][5] = {
		{.101, .202, .303, .303, .091}, {.102, .204, .306, .306, .082},
		{.103, .206, .309, .309, .072}, {.104, .208, .302, .313, .073},
		{.105, .200, .305, .316, .074}, {.096, .202, .309, .319, .074},
	};
	static const int64_t draws[] = {2, 1, 0};
	static const uint64_t want_idx[] = {40, 16, 25, 40, 25, 25};
	static const int64_t want_rd[] = {-1, -1, -1, 2, 1, 0};
	near(rd_rpgen_freq(g, 3), 0.3, 1e-12);
	int di = 0;
	for (int l = 0; l < 6; l++) {
		uint64_t idx;
		int64_t rd;
		int used;
		assert_int_equal(rd_rpgen_next(g, di < 3 ? &draws[di] : NULL, &used, &idx, &rd), 0);
		di += used;
		assert_int_equal(idx, want_idx[l]);
		assert_int_equal(rd, want_rd[l]);
		for (int j = 0; j < 4; j++)
			near3(rd_rpgen_freq(g, j), col[l][j]);
		near3(rd_rpgen_freq(g, -1), col[l][4]);
	}
	assert_int_equal(di, 3);
	near(rd_rpgen_freq(g, 3), 30.0 / 94, 1e-12); /* exactly: counts over L - l */
	assert_int_equal(rd_rpgen_forced(g), 0);
	rd_rpgen_free(g);
}

/* Distinct indexes between each access and its index's last use (-1:
 * first), by brute force. */
static int64_t measured_rd(const uint64_t *idx, uint64_t i)
{
	for (uint64_t j = i; j-- > 0;)
		if (idx[j] == idx[i]) {
			int64_t d = 0;
			for (uint64_t k = j + 1; k < i; k++) {
				int seen = 0;
				for (uint64_t q = j + 1; q < k && !seen; q++)
					seen = idx[q] == idx[k];
				d += !seen;
			}
			return d;
		}
	return -1;
}

/* Algorithm 1's mixtures and Algorithm 2's traces: every reuse's measured
 * distance is the one drawn, and the realised profile is within 0.01 of
 * the target when the cold budget covers the fills (L x cold >= MaxRD + 1). */
static void test_generator_property(void **state)
{
	(void)state;
	uint64_t x = 99;
	for (int iter = 0; iter < 6; iter++) {
		enum { L = 3000, MAXRD = 32 };
		double pos[3], ratio[3], sig[3], p[MAXRD + 2];
		for (int i = 0; i < 3; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			pos[i] = (double)((x >> 33) % (MAXRD + 1));
			ratio[i] = 0.1 + (double)((x >> 20) % 100) / 100;
			sig[i] = 0.1 + (double)((x >> 10) % 190) / 100;
		}
		double cold = 0.05 + 0.05 * iter;
		rd_rp_mixture(pos, ratio, sig, 3, cold, MAXRD, p);
		double sum = 0;
		for (int j = 0; j < MAXRD + 2; j++)
			sum += p[j];
		near(sum, 1.0, 1e-12);
		near(p[0], cold, 1e-12);
		rd_rpgen *g = rd_rpgen_new(p, MAXRD, L, (uint64_t)iter + 1);
		static uint64_t idx[L];
		int64_t rd[L];
		uint64_t count[MAXRD + 2] = {0};
		for (int l = 0; l < L; l++) {
			int used;
			assert_int_equal(rd_rpgen_next(g, NULL, &used, &idx[l], &rd[l]), 0);
			count[rd[l] + 1]++;
		}
		for (int l = 0; l < L; l++)
			if (rd[l] >= 0 || l % 7 == 0) /* every reuse; some cold ones */
				assert_int_equal(measured_rd(idx, (uint64_t)l), rd[l]);
		double diff = 0;
		for (int j = 0; j < MAXRD + 2; j++)
			diff += fabs(p[j] - (double)count[j] / L);
		if (L * cold >= MAXRD + 1 && diff > 0.01)
			fail_msg("iteration %d: sum |target - realised| = %g", iter, diff);
		assert_int_equal(rd_rpgen_forced(g), 0);
		rd_rpgen_free(g);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table1_fully_associative),
		cmocka_unit_test(test_table1_binomial),
		cmocka_unit_test(test_binomial_properties),
		cmocka_unit_test(test_spearman_table6),
		cmocka_unit_test(test_peaks),
		cmocka_unit_test(test_table3_generator),
		cmocka_unit_test(test_generator_property),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
