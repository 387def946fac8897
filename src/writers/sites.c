/* Results by source (see sites.h). */
#include "sites.h"
#include "output_fmt.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static void add_into(rd_site_result *a, const rd_site_result *b)
{
	a->requests += b->requests;
	a->hits += b->hits;
	a->misses += b->misses;
	for (int i = 0; i < RD_NCLASS; i++)
		a->cls[i] += b->cls[i];
	for (int i = 0; i < RD_SITE_BINS; i++)
		a->hist[i] += b->hist[i];
	a->hist_inf += b->hist_inf;
}

static int by_misses(const void *x, const void *y)
{
	const site_row *a = x, *b = y;
	if (a->r.misses != b->r.misses)
		return a->r.misses < b->r.misses ? 1 : -1;
	if (a->r.requests != b->r.requests)
		return a->r.requests < b->r.requests ? 1 : -1;
	return (a->id > b->id) - (a->id < b->id); /* as the explorer: site order */
}

site_row *sites_rows(const output_run *run, size_t *n, int *oom)
{
	const rd_result *r = run->result;
	const rd_kernel *k = run->k;
	*n = 0;
	*oom = 0;
	if (run->by == OUTPUT_BY_NONE || !r || !r->sites)
		return NULL;
	site_row *rows = calloc(r->nsites ? r->nsites : 1, sizeof *rows);
	if (!rows) {
		*oom = 1;
		return NULL;
	}
	size_t m = 0;
	for (uint32_t i = 0; i < r->nsites; i++) {
		if (!r->sites[i].requests)
			continue; /* a site whose loads were all coalesced away or cut */
		const rd_site *s = k && k->sites && i < k->nsites ? &k->sites[i] : NULL;
		site_row row = {.site = s, .load = s ? -1 : (long)i, .id = i, .r = r->sites[i]};
		if (run->by == OUTPUT_BY_ARRAY) {
			const char *a = s && s->array ? s->array : "";
			size_t j = 0;
			while (j < m && strcmp(rows[j].array, a) != 0)
				j++;
			if (j < m) {
				add_into(&rows[j].r, &row.r);
				continue;
			}
			row.array = a;
			row.site = NULL;
			row.load = -1;
			snprintf(row.label, sizeof row.label, "%s", *a ? a : "(no array)");
		} else if (k) {
			rd_kernel_site_label(k, i, row.label, sizeof row.label);
		} else {
			snprintf(row.label, sizeof row.label, "site %u", i);
		}
		rows[m++] = row;
	}
	qsort(rows, m, sizeof *rows, by_misses);
	*n = m;
	return rows;
}

/* The class with the most misses of a row, or NULL without misses. */
static const char *dominant(const rd_site_result *r)
{
	int best = rd_site_main_class(r);
	return best < 0 ? NULL : rd_class_name((enum rd_class)best);
}

void sites_text(FILE *f, const output_run *run)
{
	size_t n;
	int oom;
	site_row *rows = sites_rows(run, &n, &oom);
	if (oom) {
		fputs("by site: out of memory\n", f);
		return;
	}
	if (!rows)
		return;
	size_t shown = run->top && run->top < n ? run->top : n;
	fprintf(f, "by %s: %zu %s%s, most misses first%s\n",
		run->by == OUTPUT_BY_ARRAY ? "array" : "site", n,
		run->by == OUTPUT_BY_ARRAY ? (n == 1 ? "array" : "arrays")
					   : (n == 1 ? "site" : "sites"),
		"", shown < n ? " (--top shows fewer)" : "");
	/* a heading over each class's column (the classes' order) */
	static const char *const heads[RD_NCLASS] = {"compuls.", "capacity", "assoc",  "latency",
						     "mshr",     "wr_evict", "bypass", "sector"};
	fprintf(f, "  %-28s %10s %10s %7s  %-13s", run->by == OUTPUT_BY_ARRAY ? "array" : "site",
		"requests", "misses", "rate", "mostly");
	for (int c = 0; c < RD_NCLASS; c++)
		fprintf(f, " %9s", heads[c]);
	putc('\n', f);
	for (size_t i = 0; i < shown; i++) {
		const site_row *s = &rows[i];
		const char *d = dominant(&s->r);
		char label[160];
		snprintf(label, sizeof label, "%s", s->label);
		str_make_safe(label);
		fprintf(f, "  %-28s %10llu %10llu %6.2f%%  %-13s", label,
			(unsigned long long)s->r.requests, (unsigned long long)s->r.misses,
			output_percent(s->r.misses, s->r.requests), d ? d : "-");
		for (int c = 0; c < RD_NCLASS; c++)
			fprintf(f, " %9llu", (unsigned long long)s->r.cls[c]);
		putc('\n', f);
	}
	free(rows);
}

void sites_json(FILE *f, const output_run *run)
{
	size_t n;
	int oom;
	site_row *rows = sites_rows(run, &n, &oom);
	if (!rows && !oom)
		return;
	fputs(",\"sites\":[", f);
	for (size_t i = 0; i < n; i++) {
		const site_row *s = &rows[i];
		fputs(i ? ",{\"site\":" : "{\"site\":", f);
		output_json_quote(f, s->label);
		if (s->site && s->site->pc)
			fprintf(f, ",\"pc\":%llu", (unsigned long long)s->site->pc);
		if (s->site && s->site->line)
			fprintf(f, ",\"line\":%u", s->site->line);
		if (s->load >= 0)
			fprintf(f, ",\"load\":%ld", s->load);
		if (s->site && s->site->ref) {
			fputs(",\"reference\":", f);
			output_json_quote(f, s->site->ref);
		}
		const char *arr = s->array ? s->array : s->site ? s->site->array : NULL;
		if (arr && *arr) {
			fputs(",\"array\":", f);
			output_json_quote(f, arr);
		}
		fprintf(f, ",\"counts\":{\"requests\":%llu,\"hits\":%llu,\"misses\":%llu",
			(unsigned long long)s->r.requests, (unsigned long long)s->r.hits,
			(unsigned long long)s->r.misses);
		for (int c = 0; c < RD_NCLASS; c++)
			fprintf(f, ",\"%s\":%llu", output_class_keys[c], (unsigned long long)s->r.cls[c]);
		fputs("},\"histogram\":[", f);
		int first = 1;
		for (int b = 0; b < RD_SITE_BINS; b++) {
			if (!s->r.hist[b])
				continue;
			unsigned long long lo = b ? 1ull << (b - 1) : 0;
			fprintf(f, "%s[%llu,%llu]", first ? "" : ",", lo,
				(unsigned long long)s->r.hist[b]);
			first = 0;
		}
		if (s->r.hist_inf)
			fprintf(f, "%s[\"inf\",%llu]", first ? "" : ",",
				(unsigned long long)s->r.hist_inf);
		fputs("]}", f);
	}
	fputs("]", f);
	free(rows);
}
