/*
 * rdscope validate (see validate_cmd.h): each kernel of each INPUT
 * modelled and set beside its measured hit rates; outputs committed only
 * when everything succeeded.
 */
#include "validate_cmd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readers/readers.h"
#include "util/util.h"
#include "writers/writers.h"
#include "batch.h"
#include "samefile.h"

int vsel_begin(vsel *s, const cli *c, const char *spec)
{
	memset(s, 0, sizeof *s);
	s->index = -1;
	if (!c->kernel)
		return EXIT_OK;
	char err[1024];
	input_opts opts = cli_input_opts(c);
	int st = input_names(spec, &opts, &s->names, &s->n, err, sizeof err);
	if (st != INPUT_OK) {
		msg_error("%s", st == INPUT_ENOMEM ? "out of memory" : err);
		s->names = NULL;
		return st == INPUT_ENOMEM ? EXIT_RUNTIME : EXIT_USAGE;
	}
	const char *k = c->kernel;
	if (*k && strspn(k, "0123456789") == strlen(k) && strlen(k) < 10)
		s->index = strtol(k, NULL, 10);
	return EXIT_OK;
}

int vsel_match(vsel *s, measured_match *m, const char *name, const measured_row **row)
{
	if (s->names) {
		/* the kernels left out before this one take their turns */
		size_t to = s->at;
		if (s->index >= 0 && (size_t)s->index < s->n && !strcmp(s->names[s->index], name))
			to = (size_t)s->index;
		else
			while (to < s->n && strcmp(s->names[to], name))
				to++;
		if (to < s->n) {
			for (; s->at < to; s->at++)
				if (measured_match_skip(m, s->names[s->at]) < 0)
					return -2;
			s->at = to + 1;
		}
	}
	return measured_match_next(m, name, row);
}

void vsel_end(vsel *s)
{
	if (s->names)
		input_names_free(s->names, s->n);
	memset(s, 0, sizeof *s);
}

/* One modelled kernel. */
typedef struct vrow {
	const char *input;
	char *kernel;
	double l1, l2;             /* the model's hit rates (l2 NAN: no L2) */
	const measured_row *m;     /* its measurement, or NULL */
} vrow;

typedef struct vctx {
	const cli *c;
	const measured_set *ms;
	measured_match *match;  /* the inputs' kernels, in order, with the launches */
	vsel sel;               /* the input's kernels --kernel leaves out */
	vrow *rows;
	size_t n, cap;
} vctx;

static int one_kernel(void *ctx, const char *spec, const rd_kernel *k, const rd_result *rp)
{
	vctx *v = ctx;
	if (v->n == v->cap) {
		size_t nc = v->cap ? 2 * v->cap : 16;
		vrow *nr = realloc(v->rows, nc * sizeof *nr);
		if (!nr)
			return RD_ENOMEM;
		v->rows = nr;
		v->cap = nc;
	}
	vrow *w = &v->rows[v->n];
	/* the hardware view: latency misses are not misses (the paper's);
	 * with sectors (l1.sector, l2.sector), the reads' sector hit rates,
	 * as ncu counts them */
	w->input = spec;
	w->l1 = rd_result_l1_hit_rate(rp);
	w->l2 = rp->has_l2 ? rd_level_hit_rate(&rp->l2) : NAN;
	w->kernel = strdup(k->name ? k->name : "");
	w->m = NULL;
	if (!w->kernel || vsel_match(&v->sel, v->match, w->kernel, &w->m) < 0) {
		free(w->kernel);
		return RD_ENOMEM;
	}
	v->n++;
	return RD_OK;
}

/* The statistics of one level over the matched kernels (l2: the L2). */
static int level_stats(const vctx *v, int l2, rd_stats *st)
{
	double *y = malloc((v->n ? v->n : 1) * sizeof *y);
	double *yh = malloc((v->n ? v->n : 1) * sizeof *yh);
	size_t n = 0;
	int rc = -1;
	if (y && yh) {
		for (size_t i = 0; i < v->n; i++) {
			const vrow *w = &v->rows[i];
			double meas = !w->m ? NAN : l2 ? w->m->l2 : w->m->l1;
			double mod = l2 ? w->l2 : w->l1;
			if (isnan(meas) || isnan(mod))
				continue;
			y[n] = meas;
			yh[n++] = mod;
		}
		memset(st, 0, sizeof *st);
		rc = n ? rd_compare_stats(y, yh, n, st) : 0;
		st->n = n;
	}
	free(y);
	free(yh);
	return rc;
}

static void stats_text(FILE *f, const char *name, const rd_stats *st)
{
	if (!st->n) {
		fprintf(f, "%s: no kernel with both a measurement and a modelled rate\n", name);
		return;
	}
	fprintf(f, "%s: %zu kernel%s, mean absolute error %.2f points", name, st->n,
		st->n == 1 ? "" : "s", 100 * st->mae);
	output_text_stats_tail(f, st);
}

static void stats_json(FILE *f, const rd_stats *st)
{
	putc('{', f);
	output_json_stats(f, st);
	putc('}', f);
}

/* The document's head (the measurements) and tail (the statistics);
 * output_doc_item's records are the vrows. */
typedef struct vhead {
	const char *measured, *format; /* the file and its format */
} vhead;
typedef struct vtail {
	const rd_stats *s1, *s2;
} vtail;

static void json_begin(output_doc *d, const void *head)
{
	const vhead *h = head;
	FILE *f = d->f;
	output_doc_json_open(d, "rdscope-validate");
	fputs("\"measured\":", f);
	output_json_quote(f, h->measured);
	fputs(",\"measured_format\":", f);
	output_json_quote(f, h->format);
	fputs(",\"kernels\":[", f);
}

static int json_item(output_doc *d, const void *rec)
{
	const vrow *w = rec;
	FILE *f = d->f;
	output_doc_json_next(d);
	fputs("{\"input\":", f);
	output_json_quote(f, w->input);
	fputs(",\"kernel\":", f);
	output_json_quote(f, w->kernel);
	/* the measured row it matched: its name, launch and line */
	fputs(",\"measured_as\":", f);
	if (w->m) {
		fputs("{\"kernel\":", f);
		output_json_quote(f, w->m->kernel);
		fprintf(f, ",\"launch\":%u,\"line\":%u}", w->m->launch, w->m->line);
	} else {
		fputs("null", f);
	}
	for (int l = 0; l < 2; l++) {
		double mod = l ? w->l2 : w->l1;
		double meas = !w->m ? NAN : l ? w->m->l2 : w->m->l1;
		fprintf(f, ",\"%s\":{\"model\":", l ? "l2" : "l1");
		output_json_double(f, mod);
		fputs(",\"measured\":", f);
		output_json_double(f, meas);
		fputs(",\"error\":", f);
		output_json_double(f, fabs(mod - meas));
		putc('}', f);
	}
	putc('}', f);
	return 0;
}

static void json_end(output_doc *d, const void *tail)
{
	const vtail *t = tail;
	fputs("\n],\"l1\":", d->f);
	stats_json(d->f, t->s1);
	fputs(",\"l2\":", d->f);
	stats_json(d->f, t->s2);
	fputs("}\n", d->f);
}

static void csv_begin(output_doc *d, const void *head)
{
	(void)head;
	fputs("input,kernel,model_l1,measured_l1,error_l1,model_l2,measured_l2,error_l2\n", d->f);
}

static int csv_item(output_doc *d, const void *rec)
{
	const vrow *w = rec;
	FILE *f = d->f;
	output_csv_field(f, w->input);
	putc(',', f);
	output_csv_field(f, w->kernel);
	for (int l = 0; l < 2; l++) {
		double mod = l ? w->l2 : w->l1;
		double meas = !w->m ? NAN : l ? w->m->l2 : w->m->l1;
		double x[3] = {mod, meas, fabs(mod - meas)};
		for (int j = 0; j < 3; j++)
			isnan(x[j]) ? fputs(",", f) : fprintf(f, ",%.17g", x[j]);
	}
	putc('\n', f);
	return 0;
}

static void text_begin(output_doc *d, const void *head)
{
	const vhead *h = head;
	FILE *f = d->f;
	fputs("measured: ", f);
	fputs_safe(h->measured, f);
	fprintf(f, " (%s)", h->format);
	fputs("\nhit rates, the hardware view (latency misses are not misses, as the paper "
	      "counts them)\n\n",
	      f);
	fprintf(f, "%-36s %9s %9s %9s %9s %9s %9s\n", "kernel", "model L1", "measured", "error",
		"model L2", "measured", "error");
}

static int text_item(output_doc *d, const void *rec)
{
	const vrow *w = rec;
	FILE *f = d->f;
	char name[40];
	snprintf(name, sizeof name, "%.36s", w->kernel);
	fputs_safe(name, f);
	for (size_t q = strlen(name); q < 36; q++)
		putc(' ', f);
	for (int l = 0; l < 2; l++) {
		double mod = l ? w->l2 : w->l1;
		double meas = !w->m ? NAN : l ? w->m->l2 : w->m->l1;
		output_text_rate_cell(f, mod);
		output_text_rate_cell(f, meas);
		if (isnan(mod) || isnan(meas))
			fprintf(f, " %9s", "-");
		else
			fprintf(f, " %8.2f ", 100 * fabs(mod - meas));
	}
	fputs(w->m ? "\n" : "  (no measurement)\n", f);
	return 0;
}

static void text_end(output_doc *d, const void *tail)
{
	const vtail *t = tail;
	putc('\n', d->f);
	stats_text(d->f, "L1", t->s1);
	if (t->s2->n)
		stats_text(d->f, "L2", t->s2);
	putc('\n', d->f);
}

static const output_doc_ops text_ops = {text_begin, text_item, text_end};
static const output_doc_ops csv_ops = {.begin = csv_begin, .item = csv_item};
static const output_doc_ops json_ops = {json_begin, json_item, json_end};
static const output_doc_formats validate_formats = {&text_ops, &csv_ops, &json_ops};

static void write_out(FILE *f, const cli *c, const vctx *v, const rd_stats *s1,
		      const rd_stats *s2)
{
	output_doc d;
	output_doc_begin(&d, f, c->format, &validate_formats,
			 &(vhead){c->measured, v->ms->format});
	for (size_t i = 0; i < v->n; i++)
		output_doc_item(&d, &v->rows[i]);
	output_doc_end(&d, &(vtail){s1, s2});
}

/* --plot: the scatter of every kernel and level with both rates. */
static void write_plot(FILE *f, const cli *c, const vctx *v, const rd_stats *s1,
		       const rd_stats *s2)
{
	plot_scatter_point *pts = malloc((2 * v->n + 1) * sizeof *pts);
	size_t n = 0;
	for (size_t i = 0; pts && i < v->n; i++) {
		const vrow *w = &v->rows[i];
		for (int l = 0; l < 2 && w->m; l++) {
			double mod = l ? w->l2 : w->l1, meas = l ? w->m->l2 : w->m->l1;
			if (!isnan(mod) && !isnan(meas))
				pts[n++] = (plot_scatter_point){w->kernel, meas, mod, l};
		}
	}
	char title[256];
	int k = snprintf(title, sizeof title, "Model against measured hit rates (%s)",
			 v->ms->format);
	for (int l = 0; l < 2; l++) {
		const rd_stats *st = l ? s2 : s1;
		if (st->n && k > 0 && (size_t)k < sizeof title)
			k += snprintf(title + k, sizeof title - (size_t)k,
				      "%s L%d MAE %.2f points (%zu kernel%s)",
				      l && s1->n ? ";" : ":", l + 1, 100 * st->mae, st->n,
				      st->n == 1 ? "" : "s");
	}
	plot_scatter_write(f, pts ? pts : NULL, pts ? n : 0, c->plot_w, c->plot_h, title);
	free(pts);
}

int validate_check(const cli *c)
{
	if (!c->measured)
		return cli_command_error(c, "%s: --measured FILE expected");
	if (c->ninputs == 0)
		return cli_command_error(c, "%s: no INPUT given");
	return 0;
}

int validate_run(const cli *c)
{
	if (samefile_check(c))
		return EXIT_USAGE;
	measured_set ms;
	char err[1024];
	int r = measured_read(c->measured, &ms, err, sizeof err);
	if (r < 0) {
		msg_error("%s", r == -2 ? "out of memory" : err);
		return r == -2 ? EXIT_RUNTIME : EXIT_USAGE;
	}
	/* the picture's path is tried before the work (as run does) */
	outfile svg = {0};
	if (c->plot && (outfile_catch_signals(), outfile_open(&svg, c->plot, err, sizeof err) < 0)) {
		msg_error("%s", err);
		measured_free(&ms);
		return EXIT_RUNTIME;
	}
	input_opts opts = cli_input_opts(c);
	int rc = batch_check_inputs(c, c->inputs, c->ninputs, &opts);
	measured_match match;
	if (measured_match_init(&match, &ms) < 0) {
		msg_error("out of memory");
		rc = EXIT_RUNTIME;
	}
	vctx v = {.c = c, .ms = &ms, .match = &match};
	for (int i = 0; i < c->ninputs && rc == EXIT_OK; i++) {
		rc = vsel_begin(&v.sel, c, c->inputs[i]);
		if (rc == EXIT_OK)
			rc = batch_each_result(c, c->inputs[i], 1 << RD_CASE_FULL, one_kernel, &v);
		vsel_end(&v.sel);
	}
	/* a measurement compared twice (an input given twice) would weigh
	 * twice in the statistics */
	for (size_t i = 0; i < v.n && rc == EXIT_OK; i++)
		for (size_t j = i + 1; j < v.n && rc == EXIT_OK; j++)
			if (v.rows[i].m && v.rows[i].m == v.rows[j].m) {
				msg_error("kernel '%s' of %s and of %s match the same measurement "
					  "(%s:%u): give each kernel once", v.rows[j].kernel,
					  v.rows[i].input, v.rows[j].input, c->measured, v.rows[i].m->line);
				rc = EXIT_USAGE;
			}
	rd_stats s1 = {0}, s2 = {0};
	if (rc == EXIT_OK && (level_stats(&v, 0, &s1) < 0 || level_stats(&v, 1, &s2) < 0)) {
		msg_error("out of memory");
		rc = EXIT_RUNTIME;
	}
	/* values clamped, the L1 metric used, measured launches without a
	 * kernel and kernels without a launch: said, not fatal */
	if (rc == EXIT_OK)
		measured_match_notes(&match, c->measured, "validate");
	outfile out;
	if (rc == EXIT_OK && batch_output_begin(c, &out))
		rc = EXIT_RUNTIME;
	else if (rc == EXIT_OK) {
		write_out(out.f, c, &v, &s1, &s2);
		if (c->plot) {
			write_plot(svg.f, c, &v, &s1, &s2);
			if (outfile_commit(&svg, err, sizeof err) < 0) {
				msg_error("cannot write the plot: %s", err);
				rc = EXIT_RUNTIME;
			}
		}
		rc = batch_output_end(&out, rc);
	}
	/* nothing compared: the measurements do not name these kernels */
	if (rc == EXIT_OK && !s1.n && !s2.n) {
		msg_error("validate: no kernel of the inputs has a measurement in %s (kernels are "
			  "matched by name)", c->measured);
		rc = EXIT_USAGE;
	}
	outfile_abort(&svg);
	for (size_t i = 0; i < v.n; i++)
		free(v.rows[i].kernel);
	free(v.rows);
	measured_match_free(&match);
	measured_free(&ms);
	return rc;
}

/* name without a description's launch tag ("k[t=0]"), NAME#K's launch, or
 * a signature's parameters: the function name ncu's -k matches */
static size_t ncu_base(const char *name)
{
	size_t n = strcspn(name, "[#(");
	while (n && name[n - 1] == ' ')
		n--;
	return n;
}

int validate_ncu_args(const cli *c)
{
	static const char *const metrics[] = {
		"l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct", /* the model's L1 rate */
		"lts__t_sector_hit_rate.pct",                               /* the L2's */
		"lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", /* ... for the L1s' reads */
		"lts__t_sectors_srcunit_tex_op_read.sum",
		"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
		"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
		"launch__shared_mem_config_size", /* -s l1.carveout */
	};
	input_opts opts = cli_input_opts(c);
	char err[1024], *pat = NULL;
	size_t patlen = 0, launches = 0;
	FILE *re = open_memstream(&pat, &patlen);
	if (!re) {
		msg_error("out of memory");
		return EXIT_RUNTIME;
	}
	int first = 1;
	for (int i = 0; i < c->ninputs; i++) {
		char **names;
		size_t n;
		int st = input_names(c->inputs[i], &opts, &names, &n, err, sizeof err);
		if (st != INPUT_OK) {
			fclose(re);
			free(pat);
			msg_error("%s", st == INPUT_ENOMEM ? "out of memory" : err);
			return st == INPUT_ENOMEM ? EXIT_RUNTIME : EXIT_USAGE;
		}
		for (size_t j = 0; j < n; j++) {
			size_t b = ncu_base(names[j]);
			int seen = 0; /* (each name once: a launch loop's kernel is one) */
			for (size_t q = 0; q < j && !seen; q++)
				seen = ncu_base(names[q]) == b && !strncmp(names[q], names[j], b);
			launches++;
			if (seen || !b)
				continue;
			fputs(first ? "" : "|", re);
			first = 0;
			for (size_t q = 0; q < b; q++) { /* regex and shell quoting */
				char ch = names[j][q];
				if (ch == '\'')
					fputs("'\\''", re);
				else if (strchr(".^$*+?()[]{}|\\", ch))
					fprintf(re, "\\%c", ch);
				else
					fputc(ch, re);
			}
		}
		input_names_free(names, n);
	}
	if (fclose(re) != 0) {
		free(pat);
		msg_error("out of memory");
		return EXIT_RUNTIME;
	}
	printf("# On the GPU's machine (Nsight Compute 2022 or later): the loads' L1\n"
	       "# sector hit rate (what the model's is compared with), the L2's, the\n"
	       "# loads' requests and sectors, and the carve-out (-s l1.carveout=BYTES)\n"
	       "ncu --csv --metrics ");
	for (size_t i = 0; i < sizeof metrics / sizeof *metrics; i++)
		printf("%s%s", i ? "," : "", metrics[i]);
	if (pat && *pat)
		printf(" -k regex:'^(%s)$' -c %zu", pat, launches);
	printf(" ./APP [ARGS] > measured.csv\n# then here:\nrdscope validate --measured measured.csv");
	for (int i = 0; i < c->ninputs; i++)
		printf(" %s", c->inputs[i]);
	printf(c->ninputs ? "\n" : " INPUT...\n");
	free(pat);
	return fflush(stdout) == 0 && !ferror(stdout) ? EXIT_OK : EXIT_RUNTIME;
}
