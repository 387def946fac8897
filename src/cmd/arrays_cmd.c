/*
 * rdscope arrays (see arrays_cmd.h): one table per kernel, in text, CSV
 * (a row per array and one for "global") or JSON
 * ({"format":"rdscope-arrays","version":1,"kernels":[...]}), written
 * through an outfile so a failure leaves nothing half-written.
 */
#include "arrays_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readers/readers.h"
#include "util/util.h"
#include "writers/writers.h"
#include "batch.h"
#include "samefile.h"

/* Where a kernel's arrays came from, as the outputs say it. */
static const char *const source_names[] = {"file", "description", "gaps"};
enum { SRC_FILE, SRC_DESC, SRC_GAPS };

/* One kernel's table: output_doc_item's record. */
typedef struct arrays_rec {
	const char *spec;
	const rd_kernel *k;
	const rd_arrays *as;
	const rd_array_counts *n;
	int src;
	uint64_t gap;
} arrays_rec;

static int write_text(output_doc *d, const void *rec)
{
	const arrays_rec *r = rec;
	FILE *f = d->f;
	const char *spec = r->spec;
	const rd_kernel *k = r->k;
	const rd_arrays *as = r->as;
	const rd_array_counts *n = r->n;
	int src = r->src;
	uint64_t gap = r->gap;
	fputs("input:   ", f);
	fputs_safe(spec, f);
	fputs("\nkernel:  ", f);
	fputs_safe(k->name, f);
	fprintf(f, ", %u array%s", as->n, as->n == 1 ? "" : "s");
	if (src == SRC_GAPS)
		fprintf(f, " (found: gaps of %llu bytes or more between them)\n",
			(unsigned long long)gap);
	else
		fprintf(f, " (%s)\n", src == SRC_FILE ? "from --arrays" : "from the description");
	fprintf(f, "  %-16s %18s %14s %5s %7s %12s %12s %12s\n", "name", "base", "bytes", "elem",
		"width", "accesses", "loads", "stores");
	for (uint32_t i = 0; i <= as->n; i++) {
		uint64_t l = n->loads[i], s = n->stores[i];
		if (i < as->n) {
			const rd_array *a = &as->a[i];
			char w[16] = "-";
			if (a->width)
				snprintf(w, sizeof w, "%u", a->width);
			fputs("  ", f);
			fputs_safe(a->name, f);
			for (size_t p = strlen(a->name); p < 16; p++)
				putc(' ', f);
			char b[24];
			snprintf(b, sizeof b, "0x%llx", (unsigned long long)a->base);
			fprintf(f, " %18s %14llu %5u %7s", b, (unsigned long long)a->bytes, a->elem, w);
		} else {
			fprintf(f, "  %-16s %18s %14s %5s %7s", "global", "-", "-", "-", "-");
		}
		fprintf(f, " %12llu %12llu %12llu\n", (unsigned long long)(l + s),
			(unsigned long long)l, (unsigned long long)s);
	}
	putc('\n', f);
	return 0;
}

static void csv_begin(output_doc *d, const void *head)
{
	(void)head;
	fputs("input,kernel,array,base,bytes,elem,width,accesses,loads,stores\n", d->f);
}

static int write_csv(output_doc *d, const void *rec)
{
	const arrays_rec *r = rec;
	FILE *f = d->f;
	const char *spec = r->spec;
	const rd_kernel *k = r->k;
	const rd_arrays *as = r->as;
	const rd_array_counts *n = r->n;
	for (uint32_t i = 0; i <= as->n; i++) {
		output_csv_field(f, spec);
		putc(',', f);
		output_csv_field(f, k->name);
		putc(',', f);
		if (i < as->n) {
			const rd_array *a = &as->a[i];
			output_csv_field(f, a->name);
			fprintf(f, ",%llu,%llu,%u,%u", (unsigned long long)a->base,
				(unsigned long long)a->bytes, a->elem, a->width);
		} else {
			fputs("global,,,,", f);
		}
		fprintf(f, ",%llu,%llu,%llu\n", (unsigned long long)(n->loads[i] + n->stores[i]),
			(unsigned long long)n->loads[i], (unsigned long long)n->stores[i]);
	}
	return 0;
}

static void json_begin(output_doc *d, const void *head)
{
	(void)head;
	output_doc_json_open(d, "rdscope-arrays");
	fputs("\"kernels\":[", d->f);
}

static int write_json(output_doc *d, const void *rec)
{
	const arrays_rec *r = rec;
	FILE *f = d->f;
	const char *spec = r->spec;
	const rd_kernel *k = r->k;
	const rd_arrays *as = r->as;
	const rd_array_counts *n = r->n;
	int src = r->src;
	uint64_t gap = r->gap;
	output_doc_json_next(d);
	fputs("{\"input\":", f);
	output_json_quote(f, spec);
	fputs(",\"kernel\":", f);
	output_json_quote(f, k->name);
	fprintf(f, ",\"source\":\"%s\",\"gap\":", source_names[src]);
	if (src == SRC_GAPS)
		fprintf(f, "%llu", (unsigned long long)gap);
	else
		fputs("null", f);
	fputs(",\"arrays\":[", f);
	for (uint32_t i = 0; i < as->n; i++) {
		const rd_array *a = &as->a[i];
		fputs(i ? ",{\"name\":" : "{\"name\":", f);
		output_json_quote(f, a->name);
		fprintf(f, ",\"base\":%llu,\"bytes\":%llu,\"elem\":%u,\"width\":%u,\"accesses\":%llu,"
			   "\"loads\":%llu,\"stores\":%llu}",
			(unsigned long long)a->base, (unsigned long long)a->bytes, a->elem, a->width,
			(unsigned long long)(n->loads[i] + n->stores[i]),
			(unsigned long long)n->loads[i], (unsigned long long)n->stores[i]);
	}
	uint32_t g = as->n;
	fprintf(f, "],\"global\":{\"accesses\":%llu,\"loads\":%llu,\"stores\":%llu}}",
		(unsigned long long)(n->loads[g] + n->stores[g]), (unsigned long long)n->loads[g],
		(unsigned long long)n->stores[g]);
	return 0;
}

static const output_doc_ops text_ops = {.item = write_text};
static const output_doc_ops csv_ops = {.begin = csv_begin, .item = write_csv};
static const output_doc_ops json_ops = {.begin = json_begin, .item = write_json,
					.end = output_doc_json_list_end};
static const output_doc_formats arrays_formats = {&text_ops, &csv_ops, &json_ops};

/* Every kernel of one INPUT into f. */
static int arrays_input(const cli *c, const rd_arrays *file, const char *spec, output_doc *d)
{
	char err[1024];
	input_opts opts = cli_input_opts(c);
	input *in;
	uint64_t gap = c->gap ? c->gap : RD_ARRAYS_GAP_DEFAULT;
	int st = input_open(spec, &opts, &in, err, sizeof err);
	while (st == INPUT_OK) {
		rd_kernel *k;
		st = input_next(in, &k, err, sizeof err);
		if (st != INPUT_OK)
			break;
		const rd_arrays *as = file;
		rd_arrays *found = NULL;
		int src = SRC_FILE;
		if (!as && k->arrays) {
			as = k->arrays;
			src = SRC_DESC;
		} else if (!as) {
			as = found = rd_arrays_detect(k, gap);
			src = SRC_GAPS;
		}
		rd_array_counts n = {0};
		int rc = as && rd_arrays_count(as, k, &n) == 0 ? 0 : -1;
		if (rc == 0)
			output_doc_item(d, &(arrays_rec){spec, k, as, &n, src, gap});
		rd_array_counts_free(&n);
		rd_arrays_free(found);
		rd_kernel_free(k);
		if (rc) {
			msg_error("%s: out of memory", spec);
			input_close(in);
			return EXIT_RUNTIME;
		}
	}
	return batch_input_end(in, st, err);
}

int arrays_check(const cli *c)
{
	return c->ninputs ? 0 : cli_command_error(c, "%s: no INPUT given");
}

int arrays_run(const cli *c)
{
	if (samefile_check(c))
		return EXIT_USAGE;
	rd_arrays *file = NULL;
	if (c->arrays) {
		int rc = batch_read_arrays(c->arrays, &file);
		if (rc != EXIT_OK)
			return rc;
	}
	input_opts opts = cli_input_opts(c);
	int rc = batch_check_inputs(c, c->inputs, c->ninputs, &opts);
	if (rc != EXIT_OK) {
		rd_arrays_free(file);
		return rc;
	}
	outfile out;
	if (batch_output_begin(c, &out)) {
		rd_arrays_free(file);
		return EXIT_RUNTIME;
	}
	output_doc d;
	output_doc_begin(&d, out.f, c->format, &arrays_formats, NULL);
	for (int i = 0; i < c->ninputs && rc == EXIT_OK; i++)
		rc = arrays_input(c, file, c->inputs[i], &d);
	output_doc_end(&d, NULL);
	rd_arrays_free(file);
	return batch_output_end(&out, rc);
}
