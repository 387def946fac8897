/*
 * The learned estimator (seed 003 §IV; model/learn.c): Algorithm 1's
 * random draws, the fixed features on Table 1's profile and at the
 * buckets' edges, the MLP's fit on a function it can learn, determinism,
 * and the weights file's round trip and refusals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdscope.h"

static void near(double got, double want, double tol)
{
	if (fabs(got - want) > tol)
		fail_msg("got %.10f, want %.10f", got, want);
}

static void test_random_profiles(void **state)
{
	(void)state;
	double p[4098], q[4098], pos[12], ratio[12], sigma[12], cold, pos2[12], r2[12], s2[12], c2;
	for (uint32_t n = 2; n <= 12; n += 5) {
		for (uint64_t stream = 0; stream < 20; stream++) {
			uint32_t maxrd = stream % 2 ? 4096 : 16;
			rd_rp_random(7, stream, n, maxrd, p, pos, ratio, sigma, &cold);
			double sum = 0, rs = cold;
			for (uint32_t i = 0; i < maxrd + 2; i++) {
				assert_true(p[i] >= 0);
				sum += p[i];
			}
			near(sum, 1.0, 1e-9);
			near(p[0], cold, 1e-15);
			for (uint32_t i = 0; i < n; i++) {
				assert_true(pos[i] >= 0 && pos[i] <= maxrd && pos[i] == floor(pos[i]));
				assert_true(sigma[i] > 0 && sigma[i] <= 2);
				rs += ratio[i];
			}
			near(rs, 1.0, 1e-12); /* ratios and the cold ratio normalised together */
			/* the same seed and stream: the same profile; another stream: another */
			rd_rp_random(7, stream, n, maxrd, q, pos2, r2, s2, &c2);
			assert_memory_equal(p, q, (maxrd + 2) * sizeof *p);
			rd_rp_random(7, stream + 100, n, maxrd, q, pos2, r2, s2, &c2);
			assert_true(c2 != cold || memcmp(pos, pos2, n * sizeof *pos));
		}
	}
}

static void test_features_table1(void **state)
{
	(void)state;
	/* Table 1: RD -1 x4, 0 x2, 1 x1, 2 x2, 3 x1 */
	static const uint64_t h[] = {2, 1, 2, 1};
	double x[RD_LEARN_NFEAT];
	rd_learn_features(h, 4, 4, 2, 2, 32, x);
	near(x[0], 0.4, 1e-15);  /* cold */
	near(x[1], 0.2, 1e-15);  /* 0 */
	near(x[2], 0.1, 1e-15);  /* 1 */
	near(x[3], 0.3, 1e-15);  /* 2-3 */
	for (int i = 4; i <= RD_LEARN_BUCKETS; i++)
		near(x[i], 0.0, 0);
	near(x[RD_LEARN_BUCKETS + 1], 1.0 / 16, 1e-15); /* 2 sets */
	near(x[RD_LEARN_BUCKETS + 2], 1.0 / 16, 1e-15); /* 2 ways */
	near(x[RD_LEARN_BUCKETS + 3], 5.0 / 16, 1e-15); /* 32-byte lines */
	near(x[RD_LEARN_BUCKETS + 4], 2.0 / 16, 1e-15); /* rdscope-model(7): peaks 2 */
	assert_string_equal(rd_learn_feature_name(0), "cold");
	assert_string_equal(rd_learn_feature_name(RD_LEARN_BUCKETS), "rd4096+");
	assert_null(rd_learn_feature_name(RD_LEARN_NFEAT));
}

static void test_features_edges(void **state)
{
	(void)state;
	/* the last closed bucket ends at 4095; 4096 and beyond share the open one */
	uint64_t *h = calloc(9000, sizeof *h);
	assert_non_null(h);
	h[2047] = 1; /* 1024-2047: x[12] */
	h[2048] = 2; /* 2048-4095: x[13] */
	h[4095] = 3;
	h[4096] = 4; /* 4096+: x[14] */
	h[8999] = 5;
	double x[RD_LEARN_NFEAT];
	rd_learn_features(h, 9000, 0, 1, 1, 128, x);
	near(x[12], 1.0 / 15, 1e-15);
	near(x[13], 5.0 / 15, 1e-15);
	near(x[14], 9.0 / 15, 1e-15);
	near(x[RD_LEARN_BUCKETS + 1], 0, 0);
	near(x[RD_LEARN_BUCKETS + 3], 7.0 / 16, 1e-15);
	/* an empty profile: shares 0, no division by zero */
	rd_learn_features(h, 0, 0, 32, 4, 128, x);
	for (int i = 0; i <= RD_LEARN_BUCKETS; i++)
		near(x[i], 0, 0);
	free(h);
}

/* Data the network can fit: y0 = the mean of the first inputs, y1 = the
 * share of one over two others (smooth, in (0, 1)). */
static void make_data(double *x, double *y, size_t n, uint64_t seed)
{
	double pos[1], ratio[1], sigma[1], cold, p[18];
	for (size_t s = 0; s < n; s++) {
		rd_rp_random(seed, s, 1, 16, p, pos, ratio, sigma, &cold); /* p: 18 numbers summing to 1 */
		for (int i = 0; i < RD_LEARN_NFEAT; i++)
			x[s * RD_LEARN_NFEAT + i] = i < 18 ? p[i] * 4 : (double)(s % 7) / 7;
		y[s * 2] = 0.2 + 0.6 * (x[s * RD_LEARN_NFEAT] / 4);
		y[s * 2 + 1] = 0.5 + 0.4 * sin(3 * x[s * RD_LEARN_NFEAT + 18]);
	}
}

static int count_epochs(void *ctx, uint32_t e, double tr, double va)
{
	(void)e, (void)tr, (void)va;
	(*(int *)ctx)++;
	return 0;
}

static void test_fit(void **state)
{
	(void)state;
	enum { N = 600, V = 150 };
	double *x = malloc(N * RD_LEARN_NFEAT * sizeof *x), *y = malloc(N * 2 * sizeof *y);
	double *vx = malloc(V * RD_LEARN_NFEAT * sizeof *vx), *vy = malloc(V * 2 * sizeof *vy);
	assert_true(x && y && vx && vy);
	make_data(x, y, N, 1);
	make_data(vx, vy, V, 2);
	uint32_t sizes[] = {RD_LEARN_NFEAT, 16, 8, RD_LEARN_NOUT};
	rd_mlp *m = rd_mlp_new(sizes, 4, 3), *m2 = rd_mlp_new(sizes, 4, 3);
	assert_true(m && m2);
	assert_int_equal(rd_mlp_params(m), 16 * 20 + 8 * 17 + 2 * 9);
	double before = rd_mlp_mse(m, vx, vy, V), tr, va;
	int epochs = 0;
	rd_mlp_fit o = {.epochs = 150, .batch = 32, .lr = 3e-3, .seed = 5, .epoch = count_epochs,
			.ctx = &epochs};
	assert_int_equal(rd_mlp_train(m, x, y, N, vx, vy, V, &o, &tr, &va), RD_OK);
	assert_int_equal(epochs, 150);
	near(va, rd_mlp_mse(m, vx, vy, V), 1e-12);
	if (!(va < before / 10))
		fail_msg("validation mse %g -> %g: did not fall tenfold", before, va);
	/* predictions are probabilities */
	for (size_t s = 0; s < V; s++) {
		double p[2];
		rd_mlp_predict(m, vx + s * RD_LEARN_NFEAT, p);
		assert_true(p[0] >= 0 && p[0] <= 1 && p[1] >= 0 && p[1] <= 1);
	}
	/* the same seeds: the same weights, to the bit */
	o.epoch = NULL;
	assert_int_equal(rd_mlp_train(m2, x, y, N, vx, vy, V, &o, NULL, NULL), RD_OK);
	char *a = rd_mlp_format(m, NULL), *b = rd_mlp_format(m2, NULL);
	assert_true(a && b);
	assert_string_equal(a, b);
	free(a);
	free(b);
	rd_mlp_free(m);
	rd_mlp_free(m2);
	free(x);
	free(y);
	free(vx);
	free(vy);
}

static void test_file_round_trip(void **state)
{
	(void)state;
	uint32_t sizes[] = {RD_LEARN_NFEAT, 5, 3, RD_LEARN_NOUT};
	rd_mlp *m = rd_mlp_new(sizes, 4, 11);
	char *a = rd_mlp_format(m, "one\ntwo");
	assert_non_null(a);
	assert_true(!strncmp(a, "rdscope-mlcrp 1\n# one\n# two\nfeatures 19 cold rd0 ", 48));
	rd_mlp *m2;
	char err[256];
	assert_int_equal(rd_mlp_parse(a, strlen(a), &m2, err, sizeof err), 0);
	uint32_t got[RD_MLP_MAX_LAYERS + 1];
	assert_int_equal(rd_mlp_layers(m2, got), 4);
	assert_memory_equal(got, sizes, sizeof sizes);
	char *b = rd_mlp_format(m2, "one\ntwo");
	assert_string_equal(a, b);
	double x[RD_LEARN_NFEAT], y1[2], y2[2];
	for (int i = 0; i < RD_LEARN_NFEAT; i++)
		x[i] = 0.05 * i;
	rd_mlp_predict(m, x, y1);
	rd_mlp_predict(m2, x, y2);
	assert_memory_equal(y1, y2, sizeof y1); /* %.17g: exact */
	free(a);
	free(b);
	rd_mlp_free(m);
	rd_mlp_free(m2);
}

/* text with line `line` (1-based) replaced by repl (NULL: deleted) */
static char *edit_line(const char *text, int line, const char *repl)
{
	size_t n = strlen(text);
	char *out = malloc(n + (repl ? strlen(repl) : 0) + 2);
	const char *p = text;
	char *o = out;
	for (int l = 1; *p; l++) {
		const char *nl = strchr(p, '\n');
		size_t k = nl ? (size_t)(nl - p) + 1 : strlen(p);
		if (l != line) {
			memcpy(o, p, k);
			o += k;
		} else if (repl) {
			o += sprintf(o, "%s\n", repl);
		}
		p += k;
	}
	*o = '\0';
	return out;
}

static void refused(const char *text, const char *want)
{
	rd_mlp *m = (rd_mlp *)1;
	char err[256] = "";
	int rc = rd_mlp_parse(text, strlen(text), &m, err, sizeof err);
	if (rc != -1 || m || !strstr(err, want))
		fail_msg("rc %d, error '%s', wanted '%s'", rc, err, want);
}

static void test_file_refusals(void **state)
{
	(void)state;
	uint32_t sizes[] = {RD_LEARN_NFEAT, 2, RD_LEARN_NOUT};
	rd_mlp *m = rd_mlp_new(sizes, 3, 1);
	char *a = rd_mlp_format(m, NULL), *e;
	rd_mlp_free(m);
	/* lines: 1 magic, 2 features, 3 outputs, 4 layers, 5 "layer 1", 6-7
	 * rows, 8 "layer 2", 9-10 rows, 11 end */
	refused("", "1: not an rdscope learned-estimator file");
	refused((e = edit_line(a, 1, "rdscope-mlcrp 2")), "1: version 2");
	free(e);
	refused((e = edit_line(a, 2, "features 19 cold rd0 rd1 rd2-3 rd4-7 rd8-15 rd16-31 rd32-63 "
				     "rd64-127 rd128-255 rd256-511 rd512-1023 rd1024-2047 rd2048-4095 "
				     "rd4096+ log2sets/16 log2ways/16 log2line/16 peaks/8")),
		"2: the weights were fitted on other features");
	free(e);
	refused((e = edit_line(a, 4, "layers 3 18 2 2")), "4: layers: 19 inputs and 2 outputs");
	free(e);
	refused((e = edit_line(a, 4, "layers 3 19 2000 2")), "4: layers: 3 widths from 1 to 1024");
	free(e);
	refused((e = edit_line(a, 6, "0 1 2")), "6: layer 1 row 1: 20 numbers expected");
	free(e);
	refused((e = edit_line(a, 7, "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 nan")), "7: layer 1 row 2");
	free(e);
	refused((e = edit_line(a, 9, "0 0 0 0")), "9: layer 2 row 1: more than 3 numbers");
	free(e);
	refused((e = edit_line(a, 11, NULL)), "expected 'end'");
	free(e);
	refused((e = edit_line(a, 11, "end\nmore")), "12: text after 'end'");
	free(e);
	/* comments and blank lines are skipped; line numbers still count them */
	e = edit_line(a, 1, "rdscope-mlcrp 1\n\n# note");
	rd_mlp *ok;
	char err[256];
	assert_int_equal(rd_mlp_parse(e, strlen(e), &ok, err, sizeof err), 0);
	rd_mlp_free(ok);
	free(e);
	e = edit_line(a, 1, "rdscope-mlcrp 1\n# note\nfeatures 1 cold");
	refused(e, "3: the weights were fitted on other features");
	free(e);
	/* a NUL byte */
	char nul[] = "rdscope-mlcrp 1\n\0";
	rd_mlp *m2;
	assert_int_equal(rd_mlp_parse(nul, sizeof nul - 1, &m2, err, sizeof err), -1);
	assert_non_null(strstr(err, "NUL"));
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_profiles),
		cmocka_unit_test(test_features_table1),
		cmocka_unit_test(test_features_edges),
		cmocka_unit_test(test_fit),
		cmocka_unit_test(test_file_round_trip),
		cmocka_unit_test(test_file_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
