/*
 * The SVG plot (see plot.h). Coordinates are in SVG user units (pixels at
 * 100%); every number is printed with one decimal so that output is
 * reproducible byte for byte.
 */
#include "plot.h"

#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "util/util.h"

/* What one bar needs. */
typedef struct plot_bar {
	unsigned long run;
	char *input, *kernel, *label;
	uint64_t requests, cls[RD_NCLASS];
	uint32_t ways;
	int has_hist;        /* first run of its input: histogram kept */
	uint64_t *hist;
	uint32_t hist_len;
	uint64_t hist_inf;
} plot_bar;

struct plot {
	plot_bar *bars;
	size_t n, cap;
};

/* Class colours (colour-blind safe "Tableau 10" hues), in enum order. */
static const char *const class_colour[RD_NCLASS] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
						     "#b07aa1"};
#define HIT_COLOUR "#59a14f"
#define MISS_COLOUR "#e15759"
#define COLD_COLOUR "#9c755f"

#define MARGIN 60.0
#define CHART_H 240.0
#define HIST_W 640.0
#define HIST_H 200.0

plot *plot_new(void)
{
	return calloc(1, sizeof(plot));
}

void plot_free(plot *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++) {
		free(p->bars[i].input);
		free(p->bars[i].kernel);
		free(p->bars[i].label);
		free(p->bars[i].hist);
	}
	free(p->bars);
	free(p);
}

static int input_seen(const plot *p, const char *input)
{
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->bars[i].input, input) == 0)
			return 1;
	return 0;
}

int plot_add(plot *p, unsigned long run, const char *input, const char *kernel,
	     const char *label, const rd_config *cfg, const rd_result *r)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 16;
		plot_bar *b = realloc(p->bars, cap * sizeof *b);
		if (!b)
			return -1;
		p->bars = b;
		p->cap = cap;
	}
	plot_bar *b = &p->bars[p->n];
	memset(b, 0, sizeof *b);
	b->run = run;
	b->requests = r->requests;
	memcpy(b->cls, r->cls, sizeof b->cls);
	b->ways = cfg->l1_ways;
	b->input = strdup(input);
	b->kernel = strdup(kernel);
	b->label = strdup(label ? label : "");
	int ok = b->input && b->kernel && b->label;
	if (ok && !input_seen(p, input)) {
		b->has_hist = 1;
		b->hist_len = r->hist_len;
		b->hist_inf = r->hist_inf;
		if (r->hist_len) {
			b->hist = malloc(r->hist_len * sizeof *b->hist);
			ok = b->hist != NULL;
			if (ok)
				memcpy(b->hist, r->hist, r->hist_len * sizeof *b->hist);
		}
	}
	if (!ok) {
		free(b->input);
		free(b->kernel);
		free(b->label);
		free(b->hist);
		return -1;
	}
	p->n++;
	return 0;
}

/* Text content or attribute value: XML-escaped, invalid UTF-8 as '?'. */
static void xml_text(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	while (*s) {
		size_t n = utf8_len(s);
		if (n == 0) {
			putc('?', f);
			s++;
		} else if (*s == '&') {
			fputs("&amp;", f), s++;
		} else if (*s == '<') {
			fputs("&lt;", f), s++;
		} else if (*s == '>') {
			fputs("&gt;", f), s++;
		} else if (*s == '"') {
			fputs("&quot;", f), s++;
		} else if (*s < 0x20) {
			putc(' ', f), s++; /* XML 1.0 forbids most control characters */
		} else {
			fwrite(s, 1, n, f);
			s += n;
		}
	}
}

/* The smallest of 1, 2, 2.5, 5 x 10^k at or above v (axis maxima). */
static double nice_ceil(double v)
{
	double base = 1;
	if (v <= 0)
		return 1;
	while (base * 10 < v)
		base *= 10;
	while (base > v)
		base /= 10;
	static const double steps[] = {1, 2, 2.5, 5, 10};
	for (int i = 0; i < 5; i++)
		if (base * steps[i] >= v)
			return base * steps[i];
	return base * 10;
}

static void rect(FILE *f, double x, double y, double w, double h, const char *fill)
{
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>", x, y,
		w, h, fill);
}

static void text(FILE *f, double x, double y, const char *anchor, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", x, y, anchor);
	xml_text(f, s);
	fputs("</text>\n", f);
}

/* Bar geometry: narrower bars when there are many, so the chart stays readable. */
static double bar_width(size_t n)
{
	return n <= 40 ? 16.0 : n <= 160 ? 6.0 : 3.0;
}

static void write_bars(const plot *p, FILE *f, double top)
{
	double bw = bar_width(p->n), gap = bw / 3, max = 0;
	for (size_t i = 0; i < p->n; i++) {
		uint64_t m = 0;
		for (int c = 0; c < RD_NCLASS; c++)
			m += p->bars[i].cls[c];
		double share = p->bars[i].requests ? 100.0 * (double)m / (double)p->bars[i].requests : 0;
		if (share > max)
			max = share;
	}
	max = nice_ceil(max > 100 ? 100 : max);
	double x0 = MARGIN, y0 = top + CHART_H;
	text(f, x0, top - 10, "start", "Misses per request by class, one bar per run");
	/* Axis with 0, half and full marks. */
	fprintf(f, "<g class=\"axis\" stroke=\"#444\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		   "y2=\"%.1f\"/><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/></g>\n",
		x0, top, x0, y0, x0, y0, x0 + (double)p->n * (bw + gap) + gap, y0);
	for (int t = 0; t <= 2; t++) {
		char lbl[32];
		snprintf(lbl, sizeof lbl, "%g%%", max * t / 2);
		text(f, x0 - 6, y0 - CHART_H * t / 2 + 4, "end", lbl);
	}
	const char *last_input = NULL;
	for (size_t i = 0; i < p->n; i++) {
		const plot_bar *b = &p->bars[i];
		double x = x0 + gap + (double)i * (bw + gap), y = y0;
		fprintf(f, "<g class=\"point\" data-run=\"%lu\"><title>run %lu: ", b->run, b->run);
		xml_text(f, b->kernel);
		if (b->label[0]) {
			fputs(", ", f);
			xml_text(f, b->label);
		}
		fputs("</title>", f);
		for (int c = 0; c < RD_NCLASS; c++) {
			double h = b->requests ? CHART_H * 100.0 * (double)b->cls[c] /
							 (double)b->requests / max
					       : 0;
			if (h <= 0)
				continue;
			y -= h;
			rect(f, x, y, bw, h, class_colour[c]);
		}
		fputs("</g>\n", f);
		/* Name each input under its first bar. */
		if (!last_input || strcmp(last_input, b->input) != 0) {
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>",
				x, y0, x, y0 + 8);
			text(f, x, y0 + 20, "start", b->kernel);
			last_input = b->input;
		}
	}
	/* Legend. */
	double lx = x0;
	for (int c = 0; c < RD_NCLASS; c++) {
		rect(f, lx, y0 + 32, 10, 10, class_colour[c]);
		text(f, lx + 14, y0 + 41, "start", rd_class_name((enum rd_class)c));
		lx += 110;
	}
}

/* Histogram bins: one per distance when few, else 0, 1, 2-3, 4-7, ... */
static uint32_t bin_count(uint32_t len, int linear)
{
	uint32_t n = 0;
	if (linear)
		return len;
	for (uint64_t lo = 0; lo < len; lo = lo ? lo * 2 : 1)
		n++;
	return n;
}

static void bin_range(uint32_t i, int linear, uint64_t *lo, uint64_t *hi)
{
	if (linear || i == 0) {
		*lo = *hi = i;
		return;
	}
	*lo = 1ull << (i - 1);
	*hi = (1ull << i) - 1;
}

static void write_histogram(const plot_bar *b, FILE *f, double top)
{
	/* Show distances up to the cut-off even where none occurred. */
	uint32_t len = b->hist_len > b->ways + 1 ? b->hist_len : b->ways + 1;
	int linear = len <= 64;
	uint32_t nb = bin_count(len, linear);
	double bw = (HIST_W - 40) / (nb + 1), x0 = MARGIN, y0 = top + HIST_H, max = 0;
	uint64_t hits[64 + 1] = {0}, misses[64 + 1] = {0};
	for (uint32_t i = 0; i < nb && i < 64; i++) {
		uint64_t lo, hi;
		bin_range(i, linear, &lo, &hi);
		for (uint64_t d = lo; d <= hi && d < b->hist_len; d++)
			*(d < b->ways ? &hits[i] : &misses[i]) += b->hist[d];
		if ((double)(hits[i] + misses[i]) > max)
			max = (double)(hits[i] + misses[i]);
	}
	if ((double)b->hist_inf > max)
		max = (double)b->hist_inf;
	max = nice_ceil(max);
	char title[512];
	snprintf(title, sizeof title, "Reuse distances of %s (run %lu%s%s), %s", b->kernel,
		 b->run, b->label[0] ? ": " : "", b->label,
		 linear ? "one bar per distance" : "power-of-two bins");
	text(f, x0, top - 24, "start", title);
	fprintf(f, "<g class=\"histogram\" data-run=\"%lu\">\n", b->run);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>", x0, top,
		x0, y0);
	char lbl[48];
	snprintf(lbl, sizeof lbl, "%.0f", max);
	text(f, x0 - 6, top + 4, "end", lbl);
	text(f, x0 - 6, y0 + 4, "end", "0");
	for (uint32_t i = 0; i < nb && i < 64; i++) {
		double x = x0 + (double)i * bw, hh = HIST_H * (double)hits[i] / max;
		double hm = HIST_H * (double)misses[i] / max;
		if (hh > 0)
			rect(f, x + 1, y0 - hh, bw - 2, hh, HIT_COLOUR);
		if (hm > 0)
			rect(f, x + 1, y0 - hh - hm, bw - 2, hm, MISS_COLOUR);
		uint64_t lo, hi;
		bin_range(i, linear, &lo, &hi);
		/* Label a few bins only: the first, the last and powers of two. */
		if (!linear || i == 0 || i + 1 == nb || (i & (i - 1)) == 0) {
			if (lo == hi)
				snprintf(lbl, sizeof lbl, "%llu", (unsigned long long)lo);
			else
				snprintf(lbl, sizeof lbl, "%llu-", (unsigned long long)lo);
			text(f, x + bw / 2, y0 + 14, "middle", lbl);
		}
	}
	double xi = x0 + (double)nb * bw, hi_h = HIST_H * (double)b->hist_inf / max;
	if (hi_h > 0)
		rect(f, xi + 1, y0 - hi_h, bw - 2, hi_h, COLD_COLOUR);
	text(f, xi + bw / 2, y0 + 14, "middle", "inf");
	/* The cut-off: distances below the associativity hit. */
	double xc;
	if (linear) {
		xc = x0 + (double)b->ways * bw;
	} else {
		uint32_t i = 0;
		uint64_t lo = 0, hi = 0;
		while (i < nb && (bin_range(i, 0, &lo, &hi), hi < b->ways))
			i++;
		xc = x0 + ((double)i + (double)(b->ways - lo) / (double)(hi - lo + 1)) * bw;
	}
	fprintf(f, "<line class=\"cutoff\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		   "stroke=\"#000\" stroke-dasharray=\"4 3\"/>\n",
		xc, top - 4, xc, y0);
	snprintf(lbl, sizeof lbl, "ways = %u: hit | miss", b->ways);
	text(f, xc, top - 8, "middle", lbl);
	fputs("</g>\n", f);
	rect(f, x0, y0 + 24, 10, 10, HIT_COLOUR);
	text(f, x0 + 14, y0 + 33, "start", "hit (distance < ways)");
	rect(f, x0 + 180, y0 + 24, 10, 10, MISS_COLOUR);
	text(f, x0 + 194, y0 + 33, "start", "miss");
	rect(f, x0 + 260, y0 + 24, 10, 10, COLD_COLOUR);
	text(f, x0 + 274, y0 + 33, "start", "inf (first touch)");
}

void plot_write(const plot *p, FILE *f)
{
	size_t nhist = 0;
	for (size_t i = 0; i < p->n; i++)
		nhist += (size_t)p->bars[i].has_hist;
	double chart_w = MARGIN + (double)p->n * bar_width(p->n) * 4 / 3 + 40;
	double w = chart_w > HIST_W + MARGIN ? chart_w : HIST_W + MARGIN + 20;
	double bars_h = 40 + CHART_H + 60, hist_h = 50 + HIST_H + 50;
	double h = bars_h + (double)nhist * hist_h + 10;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
		   "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" "
		   "font-size=\"11\">\n",
		w, h, w, h);
	fprintf(f, "<title>rdscope %s: miss breakdown of %zu run%s</title>\n", RD_VERSION, p->n,
		p->n == 1 ? "" : "s");
	fputs("<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n", f);
	write_bars(p, f, 40);
	double top = bars_h + 50;
	for (size_t i = 0; i < p->n; i++) {
		if (!p->bars[i].has_hist)
			continue;
		write_histogram(&p->bars[i], f, top);
		top += hist_h;
	}
	fputs("</svg>\n", f);
}
