/*
 * rdscope compare (see compare_cmd.h). Both files are rdscope's JSON
 * results (run or sweep: "format":"rdscope-results"); their runs are
 * matched by input, kernel and configuration (every key's value), and the
 * matched pairs' miss rates (the hardware view) compared: mean absolute
 * error, R^2 (A the reference) and Spearman's rho, with the ranking of the
 * configurations side by side. Runs without a match are counted, said,
 * and left out.
 */
#include "compare_cmd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readers/readers.h"
#include "util/util.h"
#include "writers/writers.h"

/* Result files rdscope reads at most (a sweep of 10^6 points is ~2 GB of
 * JSON with histograms; compare needs a fraction of that). */
#define COMPARE_MAX_BYTES (1ull << 30)

typedef struct crun {
	const char *input, *kernel;
	const json *config;
	double miss;
} crun;

typedef struct cfile {
	const char *path;
	char *text;
	json doc;
	crun *runs;
	size_t n;
} cfile;

static int read_file(cfile *f, char *err, size_t errlen)
{
	char *t;
	size_t n;
	int oom;
	if (read_text_file(f->path, COMPARE_MAX_BYTES, &t, &n, err, errlen, &oom, NULL, NULL) < 0)
		return oom ? EXIT_RUNTIME : EXIT_USAGE;
	f->text = t;
	char jerr[256];
	if (json_parse(t, n, &f->doc, jerr, sizeof jerr) < 0) {
		snprintf(err, errlen, "%s:%s", f->path, jerr + 5); /* "line N: ..." -> "N: ..." */
		return EXIT_USAGE;
	}
	const json *fmt = json_get(&f->doc, "format"), *runs = json_get(&f->doc, "runs");
	if (!fmt || fmt->kind != JSON_STR || strcmp(fmt->str, "rdscope-results") || !runs ||
	    runs->kind != JSON_ARR) {
		snprintf(err, errlen, "%s:1: not rdscope's JSON results (\"format\":\"rdscope-results\" "
				      "with \"runs\"; write them with -f json)", f->path);
		return EXIT_USAGE;
	}
	f->runs = calloc(runs->n ? runs->n : 1, sizeof *f->runs);
	if (!f->runs) {
		snprintf(err, errlen, "%s: out of memory", f->path);
		return EXIT_RUNTIME;
	}
	for (size_t i = 0; i < runs->n; i++) {
		const json *r = &runs->kids[i];
		const json *in = json_get(r, "input"), *k = json_get(r, "kernel"),
			   *cfg = json_get(r, "config"), *m = json_get(r, "miss_rate");
		if (!in || in->kind != JSON_STR || !k || k->kind != JSON_STR || !cfg ||
		    cfg->kind != JSON_OBJ) {
			snprintf(err, errlen, "%s:%u: a run without its input, kernel or config", f->path,
				 r->line);
			return EXIT_USAGE;
		}
		if (!m || m->kind != JSON_NUM)
			continue; /* a skipped sweep point: no result */
		f->runs[f->n++] = (crun){in->str, k->str, cfg, m->num};
	}
	return EXIT_OK;
}

static void file_free(cfile *f)
{
	json_free(&f->doc);
	free(f->text);
	free(f->runs);
}

/* Two values of a configuration's member alike? */
static int same_value(const json *a, const json *b)
{
	if (a->kind != b->kind)
		return 0;
	switch (a->kind) {
	case JSON_NUM:
		return a->num == b->num;
	case JSON_STR:
		return !strcmp(a->str, b->str);
	case JSON_BOOL:
		return a->b == b->b;
	case JSON_NULL:
		return 1;
	default:
		return 0; /* configurations hold no nested values */
	}
}

static int same_config(const json *a, const json *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++) {
		const json *v = json_get(b, a->keys[i]);
		if (!v || !same_value(&a->kids[i], v))
			return 0;
	}
	return 1;
}

static int same_run(const crun *a, const crun *b)
{
	return !strcmp(a->input, b->input) && !strcmp(a->kernel, b->kernel) &&
	       same_config(a->config, b->config);
}

/* A configuration value as text. */
static void value_text(const json *v, char *buf, size_t len)
{
	if (v->kind == JSON_STR)
		snprintf(buf, len, "%s", v->str);
	else if (v->kind == JSON_NUM)
		snprintf(buf, len, "%.17g", v->num);
	else
		snprintf(buf, len, "%s", v->kind == JSON_BOOL ? (v->b ? "true" : "false") : "null");
}

/* The document's head (the files, the pairs' count), its records (a
 * pair: A's run, its varying keys' values, both rates and ranks) and its
 * tail (the statistics). */
typedef struct chead {
	const char *a, *b;
	size_t np;
} chead;
typedef struct cpair {
	const crun *a;
	const json *c0;             /* the first pair's configuration: the keys */
	const unsigned char *vary;  /* which of its keys differ among the pairs */
	double ya, yb, ra, rb;
} cpair;
typedef struct ctail {
	size_t np;
	const rd_stats *st;
} ctail;

static void json_begin(output_doc *d, const void *head)
{
	const chead *h = head;
	output_doc_json_open(d, "rdscope-compare");
	fputs("\"a\":", d->f);
	output_json_quote(d->f, h->a);
	fputs(",\"b\":", d->f);
	output_json_quote(d->f, h->b);
	fputs(",\"pairs\":[", d->f);
}

static int json_item(output_doc *d, const void *rec)
{
	const cpair *r = rec;
	FILE *o = d->f;
	char buf[128];
	output_doc_json_next(d);
	fputs("{\"input\":", o);
	output_json_quote(o, r->a->input);
	fputs(",\"kernel\":", o);
	output_json_quote(o, r->a->kernel);
	fputs(",\"config\":{", o);
	int first = 1;
	for (size_t k = 0; k < r->c0->n; k++) {
		if (!r->vary[k])
			continue;
		const json *v = json_get(r->a->config, r->c0->keys[k]);
		fputs(first ? "" : ",", o);
		output_json_quote(o, r->c0->keys[k]);
		putc(':', o);
		value_text(v, buf, sizeof buf);
		if (v->kind == JSON_STR)
			output_json_quote(o, buf);
		else
			fputs(buf, o);
		first = 0;
	}
	fprintf(o, "},\"miss_rate_a\":%.17g,\"miss_rate_b\":%.17g,\"rank_a\":%g,\"rank_b\":%g}",
		r->ya, r->yb, r->ra, r->rb);
	return 0;
}

static void json_end(output_doc *d, const void *tail)
{
	const ctail *t = tail;
	FILE *o = d->f;
	fprintf(o, "\n],\"n\":%zu", t->np);
	fputs(",\"mae\":", o);
	isfinite(t->st->mae) ? fprintf(o, "%.17g", t->st->mae) : fputs("null", o);
	fputs(",\"r2\":", o);
	isfinite(t->st->r2) ? fprintf(o, "%.17g", t->st->r2) : fputs("null", o);
	fputs(",\"spearman\":", o);
	isfinite(t->st->spearman) ? fprintf(o, "%.17g", t->st->spearman) : fputs("null", o);
	fputs("}\n", o);
}

static void text_begin(output_doc *d, const void *head)
{
	const chead *h = head;
	fprintf(d->f, "a: %s\nb: %s\n%zu matched runs (miss rates, the hardware view; ranks: 1 "
		      "the fewest misses)\n", h->a, h->b, h->np);
}

static int text_item(output_doc *d, const void *rec)
{
	const cpair *r = rec;
	FILE *o = d->f;
	char buf[128];
	fprintf(o, "  %s %s", r->a->input, r->a->kernel);
	for (size_t k = 0; k < r->c0->n; k++)
		if (r->vary[k]) {
			value_text(json_get(r->a->config, r->c0->keys[k]), buf, sizeof buf);
			fprintf(o, " %s=%s", r->c0->keys[k], buf);
		}
	fprintf(o, "  a %.4f%% (rank %g)  b %.4f%% (rank %g)\n", 100 * r->ya, r->ra, 100 * r->yb,
		r->rb);
	return 0;
}

static void text_end(output_doc *d, const void *tail)
{
	const ctail *t = tail;
	FILE *o = d->f;
	fprintf(o, "MAE %.6f", t->st->mae);
	if (isfinite(t->st->r2))
		fprintf(o, ", R^2 %.6f", t->st->r2);
	else
		fputs(", R^2 - (a's miss rates do not vary)", o);
	if (isfinite(t->st->spearman))
		fprintf(o, ", Spearman rho %.6f\n", t->st->spearman);
	else
		fputs(", Spearman rho - (no spread to rank)\n", o);
}

static const output_doc_ops text_ops = {text_begin, text_item, text_end};
static const output_doc_ops json_ops = {json_begin, json_item, json_end};
/* CSV: the text (a comparison is a summary, not a table) */
static const output_doc_formats compare_formats = {&text_ops, &text_ops, &json_ops};

int compare_check(const cli *c)
{
	if (c->ninputs != 2)
		return cli_command_error(c, "%s: two result files (A.json B.json) expected");
	return 0;
}

int compare_run(const cli *c)
{
	char err[1024];
	cfile f[2] = {{.path = c->inputs[0]}, {.path = c->inputs[1]}};
	outfile out = {0};
	int rc = EXIT_OK;
	for (int i = 0; i < 2 && rc == EXIT_OK; i++)
		rc = read_file(&f[i], err, sizeof err);
	if (rc != EXIT_OK) {
		msg_error("%s", err);
		file_free(&f[0]);
		file_free(&f[1]);
		return rc;
	}
	/* pairs: each run of A with the first unused run of B like it */
	size_t np = 0, *pb = calloc(f[0].n ? f[0].n : 1, sizeof *pb);
	size_t *pa = calloc(f[0].n ? f[0].n : 1, sizeof *pa);
	unsigned char *used = calloc(f[1].n ? f[1].n : 1, 1);
	double *ya = malloc((f[0].n ? f[0].n : 1) * sizeof *ya);
	double *yb = malloc((f[0].n ? f[0].n : 1) * sizeof *yb);
	double *ra = malloc((f[0].n ? f[0].n : 1) * sizeof *ra);
	double *rb = malloc((f[0].n ? f[0].n : 1) * sizeof *rb);
	if (!pa || !pb || !used || !ya || !yb || !ra || !rb) {
		msg_error("compare: out of memory");
		rc = EXIT_RUNTIME;
		goto done;
	}
	for (size_t i = 0; i < f[0].n; i++)
		for (size_t j = 0; j < f[1].n; j++)
			if (!used[j] && same_run(&f[0].runs[i], &f[1].runs[j])) {
				used[j] = 1;
				pa[np] = i;
				pb[np] = j;
				ya[np] = f[0].runs[i].miss;
				yb[np] = f[1].runs[j].miss;
				np++;
				break;
			}
	if (np < f[0].n || np < f[1].n)
		msg_error("note: %zu of %zu runs of %s and %zu of %zu of %s have no match (same input, "
			  "kernel and configuration): left out", f[0].n - np, f[0].n, f[0].path,
			  f[1].n - np, f[1].n, f[1].path);
	if (np == 0) {
		msg_error("compare: no run of %s matches one of %s", f[0].path, f[1].path);
		rc = EXIT_USAGE;
		goto done;
	}
	rd_stats st;
	if (rd_compare_stats(ya, yb, np, &st) < 0 || rd_ranks(ya, np, ra) < 0 ||
	    rd_ranks(yb, np, rb) < 0) {
		msg_error("compare: out of memory");
		rc = EXIT_RUNTIME;
		goto done;
	}
	if (outfile_open(&out, c->output ? c->output : "-", err, sizeof err) < 0) {
		msg_error("%s", err);
		rc = EXIT_RUNTIME;
		goto done;
	}
	/* the configuration keys that differ among the pairs name them */
	const json *c0 = f[0].runs[pa[0]].config;
	unsigned char *vary = calloc(c0->n ? c0->n : 1, 1);
	if (!vary) {
		outfile_abort(&out);
		rc = EXIT_RUNTIME;
		goto done;
	}
	for (size_t k = 0; k < c0->n; k++)
		for (size_t p = 1; p < np && !vary[k]; p++) {
			const json *v = json_get(f[0].runs[pa[p]].config, c0->keys[k]);
			vary[k] = !v || !same_value(v, &c0->kids[k]);
		}
	output_doc d;
	output_doc_begin(&d, out.f, c->format, &compare_formats,
			 &(chead){f[0].path, f[1].path, np});
	for (size_t p = 0; p < np; p++)
		output_doc_item(&d, &(cpair){&f[0].runs[pa[p]], c0, vary, ya[p], yb[p], ra[p],
					     rb[p]});
	output_doc_end(&d, &(ctail){np, &st});
	free(vary);
	if (outfile_commit(&out, err, sizeof err) < 0) {
		msg_error("cannot write results: %s", err);
		outfile_abort(&out);
		rc = EXIT_RUNTIME;
	}
done:
	free(pa);
	free(pb);
	free(used);
	free(ya);
	free(yb);
	free(ra);
	free(rb);
	file_free(&f[0]);
	file_free(&f[1]);
	return rc;
}
