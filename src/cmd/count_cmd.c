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

typedef struct totals {
	uint64_t accesses, compulsory, capacity[RD_COUNT_MAX_LEVELS], fast;
} totals;

static void write_text(FILE *f, const cli *c, trace_reader *r, const rd_count *cnt,
		       const kdesc_ref_info *info, const uint64_t *fast, const totals *t,
		       uint32_t line, const uint64_t *lv, int nlv, double secs)
{
	int nrefs = kdesc_nrefs(r);
	fprintf(f, "input:      %s", c->inputs[0]);
	int64_t v;
	const char *name;
	for (int i = 0; (name = kdesc_param(r, i, &v)); i++)
		fprintf(f, "%s%s = %lld", i ? ", " : " (", name, (long long)v);
	fprintf(f, "%s\n", kdesc_param(r, 0, &v) ? ")" : "");
	fprintf(f, "cache:      fully associative LRU, %u-byte lines, each level on the whole "
		   "stream%s\n", line, c->skip_stores ? "; stores skipped" : "");
	fprintf(f, "accesses    %llu\n", (unsigned long long)t->accesses);
	fprintf(f, "compulsory  %llu (%.4f%%)\n", (unsigned long long)t->compulsory,
		pct(t->compulsory, t->accesses));
	for (int k = 0; k < nlv; k++) {
		char sz[32];
		size_name(lv[k], sz, sizeof sz);
		fprintf(f, "capacity L%d (%s, %llu lines)  %llu (%.4f%%)\n", k + 1, sz,
			(unsigned long long)(lv[k] / line), (unsigned long long)t->capacity[k],
			pct(t->capacity[k], t->accesses));
	}
	fprintf(f, "lines       %llu distinct\n", (unsigned long long)rd_count_lines(cnt));
	if (!c->no_timing)
		fprintf(f, "time        %.3f s (%.0f%% of the accesses counted by loop repeats)\n",
			secs, pct(t->fast, t->accesses));
	fputs("\nper reference (shares of all accesses):\n", f);
	fprintf(f, "%5s  %-16s %12s %9s %9s", "line", "reference", "accesses", "share", "compuls.");
	for (int k = 0; k < nlv; k++)
		fprintf(f, "   capacity L%d", k + 1);
	fputs("  reuse\n", f);
	const rd_count_ref *R = rd_count_refs(cnt);
	for (int i = 0; i < nrefs; i++) {
		if (info[i].store && c->skip_stores)
			continue;
		char ref[160], reuse[256];
		snprintf(ref, sizeof ref, "%s%s", info[i].store ? "wr " : "", info[i].text);
		reuse_lines(cnt, info, nrefs, i, ",", reuse, sizeof reuse);
		fprintf(f, "%5u  %-16s %12llu %8.4f%% %8.4f%%", info[i].line, ref,
			(unsigned long long)R[i].accesses, pct(R[i].accesses, t->accesses),
			pct(R[i].compulsory, t->accesses));
		for (int k = 0; k < nlv; k++)
			fprintf(f, "     %8.4f%%", pct(R[i].capacity[k], t->accesses));
		fprintf(f, "  %s\n", reuse);
	}
	(void)fast;
}

static void write_csv(FILE *f, const cli *c, trace_reader *r, const rd_count *cnt,
		      const kdesc_ref_info *info, const uint64_t *fast, int nlv)
{
	fputs("input,line,reference,array,kind,accesses,compulsory", f);
	for (int k = 0; k < nlv; k++)
		fprintf(f, ",capacity_l%d", k + 1);
	fputs(",reuse,repeated\n", f);
	int nrefs = kdesc_nrefs(r);
	const rd_count_ref *R = rd_count_refs(cnt);
	for (int i = 0; i < nrefs; i++) {
		if (info[i].store && c->skip_stores)
			continue;
		char reuse[256];
		reuse_lines(cnt, info, nrefs, i, " ", reuse, sizeof reuse);
		output_csv_field(f, c->inputs[0]);
		fprintf(f, ",%u,", info[i].line);
		output_csv_field(f, info[i].text);
		putc(',', f);
		output_csv_field(f, info[i].array);
		fprintf(f, ",%s,%llu,%llu", info[i].store ? "store" : "load",
			(unsigned long long)R[i].accesses, (unsigned long long)R[i].compulsory);
		for (int k = 0; k < nlv; k++)
			fprintf(f, ",%llu", (unsigned long long)R[i].capacity[k]);
		fprintf(f, ",%s,%llu\n", strcmp(reuse, "-") ? reuse : "",
			(unsigned long long)fast[i]);
	}
}

static void write_json(FILE *f, const cli *c, trace_reader *r, const rd_count *cnt,
		       const kdesc_ref_info *info, const uint64_t *fast, const totals *t,
		       uint32_t line, const uint64_t *lv, int nlv, double secs)
{
	fputs("{\"format\":\"rdscope-count\",\"version\":1,\"input\":", f);
	output_json_quote(f, c->inputs[0]);
	fputs(",\"params\":{", f);
	int64_t v;
	const char *name;
	for (int i = 0; (name = kdesc_param(r, i, &v)); i++) {
		if (i)
			putc(',', f);
		output_json_quote(f, name);
		fprintf(f, ":%lld", (long long)v);
	}
	fprintf(f, "},\"line\":%u,\"stores\":\"%s\",\"levels\":[", line,
		c->skip_stores ? "skip" : "allocate");
	for (int k = 0; k < nlv; k++)
		fprintf(f, "%s{\"bytes\":%llu,\"lines\":%llu}", k ? "," : "",
			(unsigned long long)lv[k], (unsigned long long)(lv[k] / line));
	fprintf(f, "],\"accesses\":%llu,\"compulsory\":%llu,\"capacity\":[",
		(unsigned long long)t->accesses, (unsigned long long)t->compulsory);
	for (int k = 0; k < nlv; k++)
		fprintf(f, "%s%llu", k ? "," : "", (unsigned long long)t->capacity[k]);
	fprintf(f, "],\"distinct_lines\":%llu,\"repeated\":%llu", (unsigned long long)rd_count_lines(cnt),
		(unsigned long long)t->fast);
	if (!c->no_timing)
		fprintf(f, ",\"seconds\":%.6f", secs);
	fputs(",\"references\":[", f);
	int nrefs = kdesc_nrefs(r), first = 1;
	const rd_count_ref *R = rd_count_refs(cnt);
	for (int i = 0; i < nrefs; i++) {
		if (info[i].store && c->skip_stores)
			continue;
		fprintf(f, "%s\n{\"line\":%u,\"reference\":", first ? "" : ",", info[i].line);
		first = 0;
		output_json_quote(f, info[i].text);
		fputs(",\"array\":", f);
		output_json_quote(f, info[i].array);
		fprintf(f, ",\"kind\":\"%s\",\"accesses\":%llu,\"compulsory\":%llu,\"capacity\":[",
			info[i].store ? "store" : "load", (unsigned long long)R[i].accesses,
			(unsigned long long)R[i].compulsory);
		for (int k = 0; k < nlv; k++)
			fprintf(f, "%s%llu", k ? "," : "", (unsigned long long)R[i].capacity[k]);
		char reuse[256];
		reuse_lines(cnt, info, nrefs, i, ",", reuse, sizeof reuse);
		fprintf(f, "],\"reuse\":[%s],\"repeated\":%llu}", strcmp(reuse, "-") ? reuse : "",
			(unsigned long long)fast[i]);
	}
	fputs("\n]}\n", f);
}

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

int count_run(const cli *c)
{
	if (samefile_check(c))
		return EXIT_USAGE;
	uint32_t line = line_given(c) ? c->config.l1_line : COUNT_LINE;
	uint64_t lv[RD_COUNT_MAX_LEVELS];
	int nlv;
	if (parse_levels(c->levels ? c->levels : "32K,512K", line, lv, &nlv) < 0)
		return EXIT_USAGE;
	char err[1024];
	outfile out = {0};
	outfile_catch_signals();
	if (outfile_open(&out, c->output ? c->output : "-", err, sizeof err) < 0) {
		msg_error("%s", err);
		return EXIT_RUNTIME;
	}
	input_opts opts = cli_input_opts(c);
	input *in;
	int st = input_open(c->inputs[0], &opts, &in, err, sizeof err);
	trace_reader *r = st == INPUT_OK ? input_reader(in) : NULL;
	if (st == INPUT_OK && !kdesc_is(r)) {
		snprintf(err, sizeof err, "%s: not a kernel description (count runs a description's "
					  "loops; a trace's misses: rdscope run)", c->inputs[0]);
		st = INPUT_EINPUT;
	}
	if (st != INPUT_OK) {
		msg_error("%s", err);
		if (st == INPUT_OK || in)
			input_close(in);
		outfile_abort(&out);
		return st == INPUT_ENOMEM ? EXIT_RUNTIME : EXIT_USAGE;
	}
	int nrefs = kdesc_nrefs(r);
	uint64_t lines[RD_COUNT_MAX_LEVELS];
	for (int k = 0; k < nlv; k++)
		lines[k] = lv[k] / line;
	rd_count *cnt = nrefs ? rd_count_new(line, lines, nlv, (uint32_t)nrefs) : NULL;
	kdesc_ref_info *info = calloc((size_t)(nrefs ? nrefs : 1), sizeof *info);
	uint64_t *fast = calloc((size_t)(nrefs ? nrefs : 1), sizeof *fast);
	int rc = EXIT_OK;
	if (nrefs > RD_COUNT_MAX_REFS) {
		msg_error("%s: %d references: count takes at most %d", c->inputs[0], nrefs,
			  RD_COUNT_MAX_REFS);
		rc = EXIT_USAGE;
	} else if ((nrefs && !cnt) || !info || !fast) {
		msg_error("out of memory");
		rc = EXIT_RUNTIME;
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (rc == EXIT_OK && nrefs) {
		cctx x;
		progress_init(&x.prog, !c->quiet, c->inputs[0]);
		if (kdesc_count(r, cnt, line, c->skip_stores, on_progress, &x, fast) < 0) {
			msg_error("%s", r->err);
			rc = r->oom ? EXIT_RUNTIME : EXIT_USAGE;
		}
		progress_done(&x.prog);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	if (rc == EXIT_OK) {
		totals t = {0};
		const rd_count_ref *R = nrefs ? rd_count_refs(cnt) : NULL;
		for (int i = 0; i < nrefs; i++) {
			kdesc_ref(r, i, &info[i]);
			t.accesses += R[i].accesses;
			t.compulsory += R[i].compulsory;
			for (int k = 0; k < nlv; k++)
				t.capacity[k] += R[i].capacity[k];
			t.fast += fast[i];
		}
		if (!nrefs)
			cnt = rd_count_new(line, lines, nlv, 1); /* no references: all zero */
		if (!cnt) {
			msg_error("out of memory");
			rc = EXIT_RUNTIME;
		} else if (c->format == OUTPUT_JSON) {
			write_json(out.f, c, r, cnt, info, fast, &t, line, lv, nlv, secs);
		} else if (c->format == OUTPUT_CSV) {
			write_csv(out.f, c, r, cnt, info, fast, nlv);
		} else {
			write_text(out.f, c, r, cnt, info, fast, &t, line, lv, nlv, secs);
		}
	}
	rd_count_free(cnt);
	free(info);
	free(fast);
	input_close(in);
	if (rc != EXIT_OK) {
		outfile_abort(&out);
		return rc;
	}
	if (outfile_commit(&out, err, sizeof err) < 0) {
		msg_error("cannot write results: %s", err);
		outfile_abort(&out);
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}
