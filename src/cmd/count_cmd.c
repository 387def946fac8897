/*
 * rdscope count (see count_cmd.h): HayStack's question (seed 004) for a
 * kernel description, answered by streaming its accesses into the model's
 * miss counter (rd_count) without a trace: the compulsory and capacity
 * misses of fully associative LRU caches of each --levels size, in total
 * and per reference, with the description lines whose accesses last
 * touched each reference's lines before ("reuse"). Lines are l1.line
 * bytes when -p or -s sets it, else HayStack's 64; the levels default to
 * HayStack's 32 KiB and 512 KiB. The output is committed only when the
 * count finished.
 */
#include "count_cmd.h"
#include "batch.h"
#include "samefile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kdesc/kdesc.h"
#include "progress.h"
#include "readers/readers.h"
#include "util/util.h"
#include "writers/writers.h"

#define COUNT_LINE 64 /* HayStack's default line, without -p or -s l1.line */

/* "32K,512K": sizes in bytes, each a whole number of lines. 0, or -1 with
 * the problem printed. */
static int parse_levels(const char *s, uint32_t line, uint64_t *bytes, int *n)
{
	*n = 0;
	for (const char *p = s;; p++) {
		char *end;
		errno = 0;
		unsigned long long v = *p >= '0' && *p <= '9' ? strtoull(p, &end, 10) : 0;
		if (*p < '0' || *p > '9' || errno)
			goto bad;
		p = end;
		unsigned long long mul = *p == 'K' || *p == 'k' ? 1024 : *p == 'M' || *p == 'm' ? 1 << 20 : 1;
		if (mul > 1)
			p++;
		if (*p && *p != ',')
			goto bad;
		if (!v || v > (1ull << 40) / mul || v * mul % line) {
			msg_error("--levels: %s: each size a whole number of %u-byte lines, up to 2^40 "
				  "bytes", s, line);
			return -1;
		}
		if (*n == RD_COUNT_MAX_LEVELS) {
			msg_error("--levels: %s: at most %d sizes", s, RD_COUNT_MAX_LEVELS);
			return -1;
		}
		bytes[(*n)++] = v * mul;
		if (!*p)
			return 0;
	}
bad:
	msg_error("--levels: expected sizes such as 32K,512K (bytes, K or M), got '%s'", s);
	return -1;
}

/* "32 KiB", "512 KiB", "1.5 MiB"-free: exact units only. */
static void size_name(uint64_t b, char *buf, size_t len)
{
	if (b >= (1u << 20) && b % (1u << 20) == 0)
		snprintf(buf, len, "%llu MiB", (unsigned long long)(b >> 20));
	else if (b >= 1024 && b % 1024 == 0)
		snprintf(buf, len, "%llu KiB", (unsigned long long)(b >> 10));
	else
		snprintf(buf, len, "%llu B", (unsigned long long)b);
}

typedef struct cctx {
	progress prog;
} cctx;

static int on_progress(void *ctx, double f)
{
	progress_update(&((cctx *)ctx)->prog, f);
	return 0;
}

static double pct(uint64_t n, uint64_t of)
{
	return of ? 100.0 * (double)n / (double)of : 0;
}

/* The reuse lines of reference r: the distinct lines of the references
 * whose accesses last touched r's lines before, ascending, into buf as
 * "11,14" (sep ","), or "-" for none. */
static void reuse_lines(const rd_count *c, const kdesc_ref_info *info, int nrefs, int r,
			const char *sep, char *buf, size_t len)
{
	unsigned prev = 0;
	size_t o = 0;
	buf[0] = '\0';
	for (;;) {
		unsigned next = 0;
		for (int q = 0; q < nrefs; q++)
			if (rd_count_reused(c, (uint32_t)r, (uint32_t)q) && info[q].line > prev &&
			    (!next || info[q].line < next))
				next = info[q].line;
		if (!next)
			break;
		o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%u", o ? sep : "", next);
		prev = next;
	}
	if (!buf[0])
		snprintf(buf, len, "-");
}

/* The count: output_doc_item's one record. */
typedef struct count_rec {
	const cli *c;
	const counted *k;
	uint32_t line;
	const uint64_t *lv;
	int nlv;
} count_rec;

static int write_text(output_doc *d, const void *rec)
{
	const count_rec *r = rec;
	FILE *f = d->f;
	const cli *c = r->c;
	const counted *k = r->k;
	uint32_t line = r->line;
	const uint64_t *lv = r->lv;
	int nlv = r->nlv;
	fprintf(f, "input:      %s", c->inputs[0]);
	int64_t v;
	const char *name;
	for (int i = 0; (name = kdesc_param(k->r, i, &v)); i++)
		fprintf(f, "%s%s = %lld", i ? ", " : " (", name, (long long)v);
	fprintf(f, "%s\n", kdesc_param(k->r, 0, &v) ? ")" : "");
	fprintf(f, "cache:      fully associative LRU, %u-byte lines, each level on the whole "
		   "stream%s\n", line, c->skip_stores ? "; stores skipped" : "");
	fprintf(f, "accesses    %llu\n", (unsigned long long)k->accesses);
	fprintf(f, "compulsory  %llu (%.4f%%)\n", (unsigned long long)k->compulsory,
		pct(k->compulsory, k->accesses));
	for (int j = 0; j < nlv; j++) {
		char sz[32];
		size_name(lv[j], sz, sizeof sz);
		fprintf(f, "capacity L%d (%s, %llu lines)  %llu (%.4f%%)\n", j + 1, sz,
			(unsigned long long)(lv[j] / line), (unsigned long long)k->capacity[j],
			pct(k->capacity[j], k->accesses));
	}
	fprintf(f, "lines       %llu distinct\n", (unsigned long long)rd_count_lines(k->cnt));
	if (k->flat.used)
		fprintf(f, "path        flat: loop %s (line %u), %llu of %llu iterations counted "
			   "access by access (periods of %llu), the rest proven equal to the "
			   "second period: %.4f%% of the accesses\n",
			k->flat.var, k->flat.line, (unsigned long long)k->flat.streamed,
			(unsigned long long)k->flat.iterations, (unsigned long long)k->flat.period,
			pct(k->flat_total, k->accesses));
	else
		fprintf(f, "path        streamed, every access generated (not the flat path: %s)\n",
			k->flat.why);
	if (!c->no_timing)
		fprintf(f, "time        %.3f s (of the accesses generated, %.0f%% counted by loop "
			   "repeats)\n",
			k->seconds, pct(k->repeated, k->accesses - k->flat_total));
	fputs("\nper reference (shares of all accesses):\n", f);
	fprintf(f, "%5s  %-16s %12s %9s %9s", "line", "reference", "accesses", "share", "compuls.");
	for (int j = 0; j < nlv; j++)
		fprintf(f, "   capacity L%d", j + 1);
	fputs("  reuse\n", f);
	const rd_count_ref *R = rd_count_refs(k->cnt);
	for (int i = 0; i < k->nrefs; i++) {
		if (k->info[i].store && c->skip_stores)
			continue;
		char ref[160], reuse[256];
		snprintf(ref, sizeof ref, "%s%s", k->info[i].store ? "wr " : "", k->info[i].text);
		reuse_lines(k->cnt, k->info, k->nrefs, i, ",", reuse, sizeof reuse);
		fprintf(f, "%5u  %-16s %12llu %8.4f%% %8.4f%%", k->info[i].line, ref,
			(unsigned long long)R[i].accesses, pct(R[i].accesses, k->accesses),
			pct(R[i].compulsory, k->accesses));
		for (int j = 0; j < nlv; j++)
			fprintf(f, "     %8.4f%%", pct(R[i].capacity[j], k->accesses));
		fprintf(f, "  %s\n", reuse);
	}
	return 0;
}

static int write_csv(output_doc *d, const void *rec)
{
	const count_rec *r = rec;
	FILE *f = d->f;
	const cli *c = r->c;
	const counted *k = r->k;
	int nlv = r->nlv;
	fputs("input,line,reference,array,kind,accesses,compulsory", f);
	for (int j = 0; j < nlv; j++)
		fprintf(f, ",capacity_l%d", j + 1);
	fputs(",reuse,repeated,flat\n", f);
	const rd_count_ref *R = rd_count_refs(k->cnt);
	for (int i = 0; i < k->nrefs; i++) {
		if (k->info[i].store && c->skip_stores)
			continue;
		char reuse[256];
		reuse_lines(k->cnt, k->info, k->nrefs, i, " ", reuse, sizeof reuse);
		output_csv_field(f, c->inputs[0]);
		fprintf(f, ",%u,", k->info[i].line);
		output_csv_field(f, k->info[i].text);
		putc(',', f);
		output_csv_field(f, k->info[i].array);
		fprintf(f, ",%s,%llu,%llu", k->info[i].store ? "store" : "load",
			(unsigned long long)R[i].accesses, (unsigned long long)R[i].compulsory);
		for (int j = 0; j < nlv; j++)
			fprintf(f, ",%llu", (unsigned long long)R[i].capacity[j]);
		fprintf(f, ",%s,%llu,%llu\n", strcmp(reuse, "-") ? reuse : "",
			(unsigned long long)k->fast[i], (unsigned long long)k->flat_acc[i]);
	}
	return 0;
}

static int write_json(output_doc *d, const void *rec)
{
	const count_rec *r = rec;
	FILE *f = d->f;
	const cli *c = r->c;
	const counted *k = r->k;
	uint32_t line = r->line;
	const uint64_t *lv = r->lv;
	int nlv = r->nlv;
	fputs("{\"format\":\"rdscope-count\",\"version\":1,\"input\":", f);
	output_json_quote(f, c->inputs[0]);
	fputs(",\"params\":{", f);
	int64_t v;
	const char *name;
	for (int i = 0; (name = kdesc_param(k->r, i, &v)); i++) {
		if (i)
			putc(',', f);
		output_json_quote(f, name);
		fprintf(f, ":%lld", (long long)v);
	}
	fprintf(f, "},\"line\":%u,\"stores\":\"%s\",\"levels\":[", line,
		c->skip_stores ? "skip" : "allocate");
	for (int j = 0; j < nlv; j++)
		fprintf(f, "%s{\"bytes\":%llu,\"lines\":%llu}", j ? "," : "",
			(unsigned long long)lv[j], (unsigned long long)(lv[j] / line));
	fprintf(f, "],\"accesses\":%llu,\"compulsory\":%llu,\"capacity\":[",
		(unsigned long long)k->accesses, (unsigned long long)k->compulsory);
	for (int j = 0; j < nlv; j++)
		fprintf(f, "%s%llu", j ? "," : "", (unsigned long long)k->capacity[j]);
	fprintf(f, "],\"distinct_lines\":%llu,\"repeated\":%llu", (unsigned long long)rd_count_lines(k->cnt),
		(unsigned long long)k->repeated);
	fprintf(f, ",\"path\":{\"flat\":%s", k->flat.used ? "true" : "false");
	if (k->flat.used) {
		fputs(",\"loop\":", f);
		output_json_quote(f, k->flat.var);
		fprintf(f, ",\"line\":%u,\"iterations\":%llu,\"streamed\":%llu,\"period\":%llu,"
			   "\"added\":%llu}",
			k->flat.line, (unsigned long long)k->flat.iterations,
			(unsigned long long)k->flat.streamed, (unsigned long long)k->flat.period,
			(unsigned long long)k->flat_total);
	} else {
		fputs(",\"why\":", f);
		output_json_quote(f, k->flat.why);
		putc('}', f);
	}
	if (!c->no_timing)
		fprintf(f, ",\"seconds\":%.6f", k->seconds);
	fputs(",\"references\":[", f);
	int first = 1;
	const rd_count_ref *R = rd_count_refs(k->cnt);
	for (int i = 0; i < k->nrefs; i++) {
		if (k->info[i].store && c->skip_stores)
			continue;
		fprintf(f, "%s\n{\"line\":%u,\"reference\":", first ? "" : ",", k->info[i].line);
		first = 0;
		output_json_quote(f, k->info[i].text);
		fputs(",\"array\":", f);
		output_json_quote(f, k->info[i].array);
		fprintf(f, ",\"kind\":\"%s\",\"accesses\":%llu,\"compulsory\":%llu,\"capacity\":[",
			k->info[i].store ? "store" : "load", (unsigned long long)R[i].accesses,
			(unsigned long long)R[i].compulsory);
		for (int j = 0; j < nlv; j++)
			fprintf(f, "%s%llu", j ? "," : "", (unsigned long long)R[i].capacity[j]);
		char reuse[256];
		reuse_lines(k->cnt, k->info, k->nrefs, i, ",", reuse, sizeof reuse);
		fprintf(f, "],\"reuse\":[%s],\"repeated\":%llu,\"flat\":%llu}",
			strcmp(reuse, "-") ? reuse : "", (unsigned long long)k->fast[i],
			(unsigned long long)k->flat_acc[i]);
	}
	fputs("\n]}\n", f);
	return 0;
}

static const output_doc_ops text_ops = {.item = write_text};
static const output_doc_ops csv_ops = {.item = write_csv};
static const output_doc_ops json_ops = {.item = write_json};
static const output_doc_formats count_formats = {&text_ops, &csv_ops, &json_ops};

/* Was l1.line given (-p or -s)? */
static int line_given(const cli *c)
{
	if (c->preset)
		return 1;
	for (int i = 0; i < c->nsets; i++)
		if (!strncmp(c->sets[i], "l1.line=", 8))
			return 1;
	return 0;
}

int count_kdesc(const char *spec, const input_opts *opts, uint32_t line, const uint64_t *bytes,
		int nlv, int flags, int (*progress)(void *ctx, double f), void *ctx,
		counted *out, char *err, size_t errlen)
{
	int skip_stores = flags & COUNT_SKIP_STORES;
	memset(out, 0, sizeof *out);
	int st = input_open(spec, opts, &out->in, err, errlen);
	trace_reader *r = st == INPUT_OK ? input_reader(out->in) : NULL;
	if (st == INPUT_OK && !kdesc_is(r)) {
		snprintf(err, errlen, "%s: not a kernel description (count runs a description's "
				      "loops; a trace's misses: rdscope run)", spec);
		st = INPUT_EINPUT;
	}
	if (st != INPUT_OK) {
		counted_free(out);
		return st == INPUT_ENOMEM ? EXIT_RUNTIME : EXIT_USAGE;
	}
	out->r = r;
	out->nrefs = kdesc_nrefs(r);
	if (out->nrefs > RD_COUNT_MAX_REFS) {
		snprintf(err, errlen, "%s: %d references: count takes at most %d", spec, out->nrefs,
			 RD_COUNT_MAX_REFS);
		counted_free(out);
		return EXIT_USAGE;
	}
	uint64_t lines[RD_COUNT_MAX_LEVELS];
	for (int k = 0; k < nlv; k++)
		lines[k] = bytes[k] / line;
	/* a description without references still has a (zero) result */
	out->cnt = rd_count_new(line, lines, nlv, (uint32_t)(out->nrefs ? out->nrefs : 1));
	out->info = calloc((size_t)(out->nrefs ? out->nrefs : 1), sizeof *out->info);
	out->fast = calloc((size_t)(out->nrefs ? out->nrefs : 1), sizeof *out->fast);
	out->flat_acc = calloc((size_t)(out->nrefs ? out->nrefs : 1), sizeof *out->flat_acc);
	out->flat.off = (flags & COUNT_STREAM) != 0;
	out->flat.acc = out->flat_acc;
	if (!out->cnt || !out->info || !out->fast || !out->flat_acc) {
		snprintf(err, errlen, "out of memory");
		counted_free(out);
		return EXIT_RUNTIME;
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (out->nrefs && kdesc_count(r, out->cnt, line, skip_stores, progress, ctx, out->fast, &out->flat) < 0) {
		snprintf(err, errlen, "%s", r->err);
		int rc = r->oom ? EXIT_RUNTIME : EXIT_USAGE;
		counted_free(out);
		return rc;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	out->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	const rd_count_ref *R = rd_count_refs(out->cnt);
	for (int i = 0; i < out->nrefs; i++) {
		kdesc_ref(r, i, &out->info[i]);
		out->accesses += R[i].accesses;
		out->compulsory += R[i].compulsory;
		for (int k = 0; k < nlv; k++)
			out->capacity[k] += R[i].capacity[k];
		out->repeated += out->fast[i];
		out->flat_total += out->flat_acc[i];
	}
	if (!out->nrefs)
		snprintf(out->flat.why, sizeof out->flat.why, "no references");
	return EXIT_OK;
}

void counted_free(counted *c)
{
	rd_count_free(c->cnt);
	free(c->info);
	free(c->fast);
	free(c->flat_acc);
	if (c->in)
		input_close(c->in);
	memset(c, 0, sizeof *c);
}

int count_check(const cli *c)
{
	if (c->ninputs != 1)
		return cli_command_error(c, "%s: one KDESC[:VARIANT] expected");
	return 0;
}

/* count's caches are --levels, fully associative LRU: it reads only
 * l1.line (count_run says the other keys have no effect), so only l1.line
 * is checked, in a cache of one line (-s l1.size=5 was refused for the
 * l1.ways it made, 0). */
void count_config(const rd_config *config, rd_config *checked)
{
	rd_config_default(checked);
	checked->l1_line = config->l1_line;
	checked->l1_size = checked->l1_line;
	checked->l1_ways = 1;
	checked->l1_hash = RD_HASH_MOD;
}

int count_run(const cli *c)
{
	if (samefile_check(c))
		return EXIT_USAGE;
	uint32_t line = line_given(c) ? c->config.l1_line : COUNT_LINE;
	/* count's caches are --levels, fully associative: of the model's keys
	 * only the line size counts; a -s of another key is said */
	for (int i = 0; i < c->nsets; i++)
		if (strncmp(c->sets[i], "l1.line=", 8))
			msg_error("note: count uses only l1.line of the model's keys (its caches are "
				  "--levels, fully associative LRU): -s %.64s has no effect",
				  c->sets[i]);
	if (c->preset)
		msg_error("note: count takes only l1.line (%u bytes) from the preset", line);
	uint64_t lv[RD_COUNT_MAX_LEVELS];
	int nlv;
	if (parse_levels(c->levels ? c->levels : "32K,512K", line, lv, &nlv) < 0)
		return EXIT_USAGE;
	char err[1024];
	outfile out;
	if (batch_output_begin(c, &out))
		return EXIT_RUNTIME;
	input_opts opts = cli_input_opts(c);
	cctx x;
	progress_init(&x.prog, !c->quiet, c->inputs[0]);
	counted k;
	int rc = count_kdesc(c->inputs[0], &opts, line, lv, nlv,
			     (c->skip_stores ? COUNT_SKIP_STORES : 0) | (c->stream ? COUNT_STREAM : 0),
			     on_progress, &x, &k, err, sizeof err);
	progress_done(&x.prog);
	if (rc != EXIT_OK) {
		msg_error("%s", err);
		return batch_output_end(&out, rc);
	}
	output_doc d;
	output_doc_begin(&d, out.f, c->format, &count_formats, NULL);
	output_doc_item(&d, &(count_rec){c, &k, line, lv, nlv});
	output_doc_end(&d, NULL);
	counted_free(&k);
	return batch_output_end(&out, EXIT_OK);
}
