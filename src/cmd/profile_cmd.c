/*
 * rdscope profile (see profile_cmd.h). The profile is measured by the
 * model itself, not by a second distance engine: its as-configured case
 * run on one fully associative set with no latency and unlimited MSHRs
 * (the latency-free order), whose events carry each load request's core
 * and distance (distinct lines since the line's last use; -1 for a first
 * use: MLCRP's RD). Each core's stream has its profile, and with
 * --interval N one per N requests of it too (distances over the whole
 * stream). Outputs are committed only when every input succeeded.
 */
#include "profile_cmd.h"
#include "batch.h"
#include "estimate_cmd.h"
#include "samefile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "progress.h"
#include "rprofile.h"
#include "readers/readers.h"
#include "util/util.h"
#include "writers/writers.h"

static uint32_t max_rd(const rp_counts *p)
{
	return p->len ? p->len - 1 : 0;
}

static void profile_text(FILE *f, const char *spec, const char *kernel, const rp_counts *p)
{
	fprintf(f, "input:    %s\nkernel:   %s\ncore:     %u", spec, kernel, p->core);
	if (p->interval >= 0)
		fprintf(f, ", interval %lld", p->interval);
	fprintf(f, "\nrequests: %llu\n", (unsigned long long)p->requests);
	if (p->requests) {
		fprintf(f, "  rd %12s %10s\n", "count", "fraction");
		fprintf(f, "  %-3s %11llu %10.6f\n", "-1", (unsigned long long)p->cold,
			(double)p->cold / (double)p->requests);
		for (uint32_t d = 0; d < p->len; d++)
			if (p->hist[d])
				fprintf(f, "  %-3u %11llu %10.6f\n", d, (unsigned long long)p->hist[d],
					(double)p->hist[d] / (double)p->requests);
	}
	fprintf(f, "max_rd %u, peaks %u\n\n", max_rd(p), rd_profile_peaks(p->hist, p->len));
}

static void profile_csv(FILE *f, const char *spec, const char *kernel, const rp_counts *p)
{
	for (int64_t d = -1; d < (int64_t)p->len; d++) {
		uint64_t n = d < 0 ? p->cold : p->hist[d];
		if (!n && d >= 0)
			continue;
		output_csv_field(f, spec);
		putc(',', f);
		output_csv_field(f, kernel);
		fprintf(f, ",%u,", p->core);
		if (p->interval >= 0)
			fprintf(f, "%lld", p->interval);
		fprintf(f, ",%llu,%lld,%llu,%.17g\n", (unsigned long long)p->requests, (long long)d,
			(unsigned long long)n, p->requests ? (double)n / (double)p->requests : 0.0);
	}
}

static void profile_json(output_doc *d, const char *spec, const char *kernel, const rp_counts *p)
{
	FILE *f = d->f;
	output_doc_json_next(d);
	fputs("{\"input\":", f);
	output_json_quote(f, spec);
	fputs(",\"kernel\":", f);
	output_json_quote(f, kernel);
	fprintf(f, ",\"core\":%u,\"interval\":", p->core);
	if (p->interval >= 0)
		fprintf(f, "%lld", p->interval);
	else
		fputs("null", f);
	fprintf(f, ",\"requests\":%llu", (unsigned long long)p->requests);
	for (int pass = 0; pass < 2; pass++) {
		fputs(pass ? ",\"counts\":[" : ",\"rp\":[", f);
		int any = 0;
		for (int64_t d = -1; d < (int64_t)p->len; d++) {
			uint64_t n = d < 0 ? p->cold : p->hist[d];
			if (!n && d >= 0) /* (the cold share always: 0 too) */
				continue;
			fprintf(f, "%s[%lld,", any ? "," : "", (long long)d);
			if (pass)
				fprintf(f, "%llu]", (unsigned long long)n);
			else
				fprintf(f, "%.17g]", p->requests ? (double)n / (double)p->requests : 0.0);
			any = 1;
		}
		putc(']', f);
	}
	fprintf(f, ",\"max_rd\":%u,\"peaks\":%u}", max_rd(p), rd_profile_peaks(p->hist, p->len));
}

/* --estimate: one kernel's estimates for the configured cache from its
 * cores' whole-stream profiles (weighted by their requests), beside the
 * detailed model's hit rate on the same latency-free stream. */
typedef struct estimate {
	char *input, *kernel;
	uint32_t sets, ways;
	uint64_t lines, requests;
	double binomial, fa, detailed;
} estimate;

static int estimate_kernel(const cli *c, rd_model *m, const rp_counts *pv, size_t n, estimate *e)
{
	const rd_config *cc = &c->config;
	e->sets = rd_config_sets(cc);
	e->ways = cc->l1_ways;
	e->lines = (uint64_t)e->sets * e->ways;
	estimate_values v;
	estimate_profiles(pv, n, e->sets, e->ways, cc->l1_line, NULL, &v);
	e->requests = v.requests;
	e->binomial = 1.0 - v.binomial;
	e->fa = 1.0 - v.fa;
	/* the detailed model: the configured cache, the latency-free order */
	rd_config d;
	rd_config_latency_free(cc, &d);
	rd_result r;
	rd_callbacks none = {0};
	int rc = rd_model_run(m, &d, 1 << RD_CASE_FULL, &none, &r);
	if (rc != RD_OK)
		return rc;
	e->detailed = r.requests ? (double)r.hits / (double)r.requests : 0;
	rd_result_free(&r);
	return RD_OK;
}

static void estimate_text(FILE *f, const estimate *e)
{
	fprintf(f, "estimate: %s, %s: %u set%s x %u ways (%llu lines), %llu requests\n", e->input,
		e->kernel, e->sets, e->sets == 1 ? "" : "s", e->ways, (unsigned long long)e->lines,
		(unsigned long long)e->requests);
	fprintf(f, "  binomial (SDCM-style) hit rate  %.6f  (|error| %.6f)\n", e->binomial,
		e->binomial > e->detailed ? e->binomial - e->detailed : e->detailed - e->binomial);
	fprintf(f, "  fully associative hit rate      %.6f\n", e->fa);
	fprintf(f, "  detailed model hit rate         %.6f  (latency-free, as configured)\n\n",
		e->detailed);
}

static void estimate_json(FILE *f, const estimate *e, int first)
{
	fputs(first ? "\n{\"input\":" : ",\n{\"input\":", f);
	output_json_quote(f, e->input);
	fputs(",\"kernel\":", f);
	output_json_quote(f, e->kernel);
	fprintf(f, ",\"sets\":%u,\"ways\":%u,\"lines\":%llu,\"requests\":%llu,"
		   "\"binomial_hit_rate\":%.17g,\"fa_hit_rate\":%.17g,\"detailed_hit_rate\":%.17g}",
		e->sets, e->ways, (unsigned long long)e->lines, (unsigned long long)e->requests,
		e->binomial, e->fa, e->detailed);
}

typedef struct estimates {
	estimate *v;
	size_t n, cap;
} estimates;

/* One kernel's profiles, and its estimate with --estimate (else NULL):
 * output_doc_item's record. */
typedef struct profile_rec {
	const char *spec, *kernel;
	const rp_counts *pv;
	size_t pn;
	const estimate *est;
} profile_rec;

static int write_text(output_doc *d, const void *rec)
{
	const profile_rec *r = rec;
	for (size_t i = 0; i < r->pn; i++)
		profile_text(d->f, r->spec, r->kernel, &r->pv[i]);
	if (r->est)
		estimate_text(d->f, r->est);
	return 0;
}

static void csv_begin(output_doc *d, const void *head)
{
	(void)head;
	fputs("input,kernel,core,interval,requests,rd,count,fraction\n", d->f);
}

/* (--estimate has no CSV: profile_check refuses it) */
static int write_csv(output_doc *d, const void *rec)
{
	const profile_rec *r = rec;
	for (size_t i = 0; i < r->pn; i++)
		profile_csv(d->f, r->spec, r->kernel, &r->pv[i]);
	return 0;
}

static void json_begin(output_doc *d, const void *head)
{
	(void)head;
	output_doc_json_open(d, "rdscope-profile");
	fputs("\"profiles\":[", d->f);
}

static int write_json(output_doc *d, const void *rec)
{
	const profile_rec *r = rec;
	for (size_t i = 0; i < r->pn; i++)
		profile_json(d, r->spec, r->kernel, &r->pv[i]);
	return 0;
}

/* tail: the estimates, or NULL without --estimate. */
static void json_end(output_doc *d, const void *tail)
{
	const estimates *es = tail;
	fputs("\n]", d->f);
	if (es) {
		fputs(",\"estimates\":[", d->f);
		for (size_t i = 0; i < es->n; i++)
			estimate_json(d->f, &es->v[i], i == 0);
		fputs("\n]", d->f);
	}
	fputs("}\n", d->f);
}

static const output_doc_ops text_ops = {.item = write_text};
static const output_doc_ops csv_ops = {.begin = csv_begin, .item = write_csv};
static const output_doc_ops json_ops = {.begin = json_begin, .item = write_json, .end = json_end};
static const output_doc_formats profile_formats = {&text_ops, &csv_ops, &json_ops};

/* What profiling one kernel needs. */
typedef struct pinput {
	const cli *c;
	const rd_config *cfg;
	output_doc *d;
	estimates es;
} pinput;

/* Profile one kernel into x->f. */
static int profile_kernel(void *ctx, const char *spec, const rd_kernel *k, rd_model *m)
{
	pinput *x = ctx;
	const cli *c = x->c;
	estimates *es = &x->es;
	progress prog;
	progress_init(&prog, !c->quiet, k->name);
	rp_counts *pv = NULL;
	size_t pn = 0;
	int rc = rprofile_measure(m, x->cfg, c->interval, &prog, &pv, &pn);
	progress_done(&prog);
	if (rc == RD_OK && c->estimate) {
		estimate e = {0};
		rc = estimate_kernel(c, m, pv, pn, &e);
		if (rc == RD_OK && es->n == es->cap) {
			size_t nc = es->cap ? es->cap * 2 : 8;
			estimate *v = realloc(es->v, nc * sizeof *v);
			if (v) {
				es->v = v;
				es->cap = nc;
			}
		}
		if (rc == RD_OK && es->n < es->cap) {
			e.input = strdup(spec);
			e.kernel = strdup(k->name);
			if (!e.input || !e.kernel) {
				free(e.input);
				free(e.kernel);
				rc = RD_ENOMEM;
			} else {
				es->v[es->n++] = e;
			}
		} else if (rc == RD_OK) {
			rc = RD_ENOMEM;
		}
	}
	if (rc == RD_OK)
		output_doc_item(x->d, &(profile_rec){spec, k->name, pv, pn,
						     c->estimate ? &es->v[es->n - 1] : NULL});
	rp_counts_free(pv, pn);
	return rc;
}

int profile_check(const cli *c)
{
	if (c->ninputs == 0)
		return cli_command_error(c, "%s: no INPUT given");
	if (c->estimate && c->format == OUTPUT_CSV)
		return cli_usage_error("%s: text or JSON output (the CSV has a row per distance)",
				       "--estimate", NULL);
	return 0;
}

int profile_run(const cli *c)
{
	if (samefile_check(c))
		return EXIT_USAGE;
	char err[1024];
	outfile out;
	if (batch_output_begin(c, &out) != EXIT_OK)
		return EXIT_RUNTIME;
	input_opts opts = cli_input_opts(c);
	int rc = batch_check_inputs(c, c->inputs, c->ninputs, &opts);
	if (rc != EXIT_OK) {
		outfile_abort(&out);
		return rc;
	}
	rd_config cfg;
	rd_config_profile(&c->config, &cfg);
	if (rd_config_check(&cfg, err, sizeof err) < 0) {
		msg_error("profile: %s", err);
		outfile_abort(&out);
		return EXIT_USAGE;
	}
	output_doc d;
	output_doc_begin(&d, out.f, c->format, &profile_formats, NULL);
	pinput x = {.c = c, .cfg = &cfg, .d = &d};
	for (int i = 0; i < c->ninputs && rc == EXIT_OK; i++)
		rc = batch_each_kernel(c, c->inputs[i], profile_kernel, &x);
	estimates es = x.es;
	output_doc_end(&d, c->estimate ? &es : NULL);
	for (size_t i = 0; i < es.n; i++) {
		free(es.v[i].input);
		free(es.v[i].kernel);
	}
	free(es.v);
	return batch_output_end(&out, rc);
}
