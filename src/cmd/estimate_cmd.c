/*
 * rdscope estimate (see estimate_cmd.h). Outputs are committed only when
 * every input succeeded.
 */
#include "estimate_cmd.h"
#include "batch.h"
#include "samefile.h"
#include "sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "progress.h"
#include "rprofile.h"
#include "readers/readers.h"
#include "util/util.h"
#include "writers/writers.h"

/* Weights files rdscope reads at most (MLCRP's 1024-128-32 is ~4 MB). */
#define MODEL_MAX_BYTES (64u << 20)

/* Read and parse a weights file: EXIT_OK with *m, else the exit status
 * with "PATH:LINE: why" in err. */
static int load_model(const char *path, rd_mlp **m, char *err, size_t errlen)
{
	char why[512];
	char *text;
	size_t n;
	int oom;
	*m = NULL;
	if (read_text_file(path, MODEL_MAX_BYTES, &text, &n, err, errlen, &oom, NULL, NULL) < 0)
		return oom ? EXIT_RUNTIME : EXIT_USAGE;
	int rc = rd_mlp_parse(text, n, m, why, sizeof why);
	free(text);
	if (rc < 0) {
		snprintf(err, errlen, "%s:%s%s", path, rc == -2 ? " " : "", why);
		return rc == -2 ? EXIT_RUNTIME : EXIT_USAGE;
	}
	return EXIT_OK;
}

int estimate_load_model(const char *path, rd_mlp **m)
{
	char err[1024];
	int rc = load_model(path, m, err, sizeof err);
	if (rc != EXIT_OK)
		msg_error("%s", err);
	return rc;
}

int estimate_load_quiet(const char *path, rd_mlp **m)
{
	char err[1024];
	return load_model(path, m, err, sizeof err) == EXIT_OK ? 0 : -1;
}

void estimate_profiles(const rp_counts *v, size_t n, uint32_t sets, uint32_t ways, uint32_t line,
		       const rd_mlp *m, estimate_values *e)
{
	memset(e, 0, sizeof *e);
	uint64_t lines = (uint64_t)sets * ways;
	double b = 0, fa = 0, lm = 0, lmerge = 0;
	for (size_t i = 0; i < n; i++) {
		const rp_counts *p = &v[i];
		if (p->interval >= 0)
			continue;
		double r = (double)p->requests;
		e->requests += p->requests;
		b += (1.0 - rd_profile_estimate(p->hist, p->len, p->cold, ways, lines)) * r;
		fa += (double)rd_profile_fa_misses(p->hist, p->len, p->cold, lines);
		if (m) {
			double x[RD_LEARN_NFEAT], y[RD_LEARN_NOUT];
			rd_learn_features(p->hist, p->len, p->cold, sets, ways, line, x);
			rd_mlp_predict(m, x, y);
			lm += y[0] * r;
			lmerge += y[1] * y[0] * r; /* merges over misses: weighted by misses */
		}
	}
	if (e->requests) {
		double r = (double)e->requests;
		e->binomial = b / r;
		e->fa = fa / r;
		e->learned = lm / r;
		e->merge = lm > 0 ? lmerge / lm : 0;
	}
}

static const char *const method_names[] = {"binomial", "fa", "learned"};

typedef struct ectx {
	const cli *c;
	output_doc *d;
	const rd_mlp *m;
	unsigned methods;
	const sweep_plan *plan; /* --vary's points, or NULL: one */
	const rd_config *one;
} ectx;

/* One point's estimates: output_doc_item's record. */
typedef struct est_rec {
	const char *spec, *kernel;
	const rd_config *cfg;
	const char *label; /* the point's --vary values, or NULL */
	const estimate_values *e;
	unsigned methods;
} est_rec;

static int write_text(output_doc *d, const void *rec)
{
	const est_rec *r = rec;
	FILE *f = d->f;
	const rd_config *cfg = r->cfg;
	const estimate_values *e = r->e;
	uint32_t sets = rd_config_sets(cfg);
	fputs("input:    ", f);
	fputs_safe(r->spec, f);
	fputs("\nkernel:   ", f);
	fputs_safe(r->kernel, f);
	fprintf(f, "\ncache:    %u B, %u set%s x %u ways, %u B lines", cfg->l1_size, sets,
		sets == 1 ? "" : "s", cfg->l1_ways, cfg->l1_line);
	if (r->label) {
		fputs(" (", f);
		fputs_safe(r->label, f);
		putc(')', f);
	}
	fprintf(f, "\nrequests: %llu\n", (unsigned long long)e->requests);
	if (r->methods & EST_BINOMIAL)
		fprintf(f, "  binomial (SDCM-style) miss rate  %.6f\n", e->binomial);
	if (r->methods & EST_FA)
		fprintf(f, "  fully associative miss rate      %.6f\n", e->fa);
	if (r->methods & EST_LEARNED)
		fprintf(f, "  learned miss rate                %.6f  (MSHR merge rate %.6f)\n",
			e->learned, e->merge);
	putc('\n', f);
	return 0;
}

static void csv_begin(output_doc *d, const void *head)
{
	(void)head;
	fputs("input,kernel,point,l1.size,l1.line,l1.ways,l1.sets,requests,method,"
	      "miss_rate,merge_rate\n", d->f);
}

/* A row per method. */
static int write_csv(output_doc *d, const void *rec)
{
	const est_rec *r = rec;
	FILE *f = d->f;
	const rd_config *cfg = r->cfg;
	const estimate_values *e = r->e;
	double v[3] = {e->binomial, e->fa, e->learned};
	for (int i = 0; i < 3; i++) {
		if (!(r->methods & (1u << i)))
			continue;
		output_csv_field(f, r->spec);
		putc(',', f);
		output_csv_field(f, r->kernel);
		putc(',', f);
		output_csv_field(f, r->label ? r->label : "");
		fprintf(f, ",%u,%u,%u,%u,%llu,%s,%.17g,", cfg->l1_size, cfg->l1_line, cfg->l1_ways,
			rd_config_sets(cfg), (unsigned long long)e->requests, method_names[i], v[i]);
		if (i == 2)
			fprintf(f, "%.17g", e->merge);
		putc('\n', f);
	}
	return 0;
}

/* head: the methods (JSON has one, estimate_check checks). */
static void json_begin(output_doc *d, const void *head)
{
	unsigned methods = *(const unsigned *)head;
	output_doc_json_open(d, "rdscope-results");
	fprintf(d->f, "\"estimate\":\"%s\",\"runs\":[",
		method_names[methods == EST_FA ? 1 : methods == EST_LEARNED ? 2 : 0]);
}

/* A run per method. */
static int write_json(output_doc *d, const void *rec)
{
	const est_rec *r = rec;
	FILE *f = d->f;
	const estimate_values *e = r->e;
	double v[3] = {e->binomial, e->fa, e->learned};
	for (int i = 0; i < 3; i++) {
		if (!(r->methods & (1u << i)))
			continue;
		output_doc_json_next(d);
		fputs("{\"input\":", f);
		output_json_quote(f, r->spec);
		fputs(",\"kernel\":", f);
		output_json_quote(f, r->kernel);
		fputs(",\"config\":", f);
		output_json_config(f, r->cfg);
		fprintf(f, ",\"method\":\"%s\",\"requests\":%llu,\"miss_rate\":%.17g", method_names[i],
			(unsigned long long)e->requests, v[i]);
		if (i == 2)
			fprintf(f, ",\"merge_rate\":%.17g", e->merge);
		putc('}', f);
	}
	return 0;
}

static const output_doc_ops text_ops = {.item = write_text};
static const output_doc_ops csv_ops = {.begin = csv_begin, .item = write_csv};
static const output_doc_ops json_ops = {.begin = json_begin, .item = write_json,
					.end = output_doc_json_list_end};
static const output_doc_formats estimate_formats = {&text_ops, &csv_ops, &json_ops};

/* Estimate every point of x->plan (or x->one) for one kernel. */
static int estimate_kernel(void *ctx, const char *spec, const rd_kernel *k, rd_model *m)
{
	ectx *x = ctx;
	const sweep_plan *plan = x->plan;
	int rc = RD_OK;
	rp_counts *pv = NULL;
	size_t pn = 0;
	rd_config have; /* the profile configuration pv was measured under */
	int measured = 0;
	unsigned long npoints = plan ? plan->npoints : 1;
	for (unsigned long i = 0; i < npoints && rc == RD_OK; i++) {
		if (plan && plan->skip[i])
			continue;
		const rd_config *cfg = plan ? &plan->configs[i] : x->one;
		rd_config pc;
		rd_config_profile(cfg, &pc);
		if (!measured || !rd_config_equal(&pc, &have)) {
			rp_counts_free(pv, pn);
			pv = NULL;
			pn = 0;
			progress prog;
			progress_init(&prog, !x->c->quiet, k->name);
			rc = rprofile_measure(m, &pc, 0, &prog, &pv, &pn);
			progress_done(&prog);
			if (rc != RD_OK)
				break;
			have = pc;
			measured = 1;
		}
		estimate_values e;
		estimate_profiles(pv, pn, rd_config_sets(cfg), cfg->l1_ways, cfg->l1_line,
				  x->methods & EST_LEARNED ? x->m : NULL, &e);
		output_doc_item(x->d, &(est_rec){spec, k->name, cfg, plan ? plan->labels[i] : NULL,
						 &e, x->methods});
	}
	rp_counts_free(pv, pn);
	return rc;
}

int estimate_check(const cli *c)
{
	if (c->ninputs == 0)
		return cli_command_error(c, "%s: no INPUT given");
	if (c->format == OUTPUT_JSON && (c->methods == 0 || (c->methods & (c->methods - 1))))
		return cli_usage_error("%s: JSON has one miss rate per run (for compare): give "
				       "--method binomial, fa or learned", "-f json", NULL);
	return 0;
}

int estimate_run(const cli *c)
{
	if (samefile_check(c))
		return EXIT_USAGE;
	unsigned methods = c->methods ? c->methods : EST_ALL;
	rd_mlp *mlp = NULL;
	int rc = EXIT_OK;
	if (methods & EST_LEARNED) {
		char path[4096];
		const char *mp = c->model_file;
		if (!mp && samples_data_file(ESTIMATE_MODEL_FILE, path, sizeof path) == 0)
			mp = path;
		if (!mp) {
			msg_error("estimate: no learned estimator (samples/%s not found; give --model "
				  "FILE, or --method binomial|fa)", ESTIMATE_MODEL_FILE);
			return EXIT_USAGE;
		}
		if ((rc = estimate_load_model(mp, &mlp)) != EXIT_OK)
			return rc;
	}
	char err[16384];
	sweep_plan plan;
	int have_plan = 0;
	if (c->nvary) {
		if (sweep_plan_build(&plan, &c->config, c->vary, c->nvary, err, sizeof err) < 0) {
			cli_print_errors(err);
			rd_mlp_free(mlp);
			return EXIT_USAGE;
		}
		have_plan = 1;
		for (unsigned long p = 0; p < plan.npoints; p++)
			if (plan.skip[p])
				msg_error("warning: --vary: point %lu (%s) skipped: %s", p, plan.labels[p],
					  plan.skip[p]);
	}
	outfile out;
	if (batch_output_begin(c, &out) != EXIT_OK) {
		if (have_plan)
			sweep_plan_free(&plan);
		rd_mlp_free(mlp);
		return EXIT_RUNTIME;
	}
	input_opts opts = cli_input_opts(c);
	rc = batch_check_inputs(c, c->inputs, c->ninputs, &opts);
	output_doc d;
	ectx x = {.c = c, .d = &d, .m = mlp, .methods = methods,
		  .plan = have_plan ? &plan : NULL, .one = &c->config};
	if (rc == EXIT_OK) {
		output_doc_begin(&d, out.f, c->format, &estimate_formats, &methods);
		for (int i = 0; i < c->ninputs && rc == EXIT_OK; i++)
			rc = batch_each_kernel(c, c->inputs[i], estimate_kernel, &x);
		output_doc_end(&d, NULL);
	}
	if (have_plan)
		sweep_plan_free(&plan);
	rd_mlp_free(mlp);
	return batch_output_end(&out, rc);
}
