/*
 * The SVG plot (see plot.h). Coordinates are in SVG user units (pixels at
 * 100%; the viewBox is the canvas); every number is printed with one
 * decimal so that output is reproducible byte for byte. Text widths are
 * estimated (0.6 em a character, generous for sans-serif); a label longer
 * than its room is fitted with textLength rather than cut.
 */
#include "plot.h"

#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "util/util.h"

/* One level's bar and histogram: the L1's, or the shared L2's. */
typedef struct plot_level {
	uint64_t requests, hits, cls[RD_NCLASS];
	uint32_t ways;      /* the histogram's cut-off */
	uint64_t *hist;
	uint32_t hist_len;
	uint64_t hist_inf;
} plot_level;

/* What one run needs: its L1, its L2 and DRAM when it has them. */
typedef struct plot_bar {
	unsigned long run;
	char *input, *kernel, *label;
	plot_level lv[2];   /* L1, L2 */
	int has_l2, has_dram;
	rd_dram dram;
	char *skipped;      /* a skipped sweep point: why (no counts); else NULL */
} plot_bar;

struct plot {
	plot_bar *bars;
	size_t n, cap;
	unsigned w, h;
	const char *hists; /* --plot-hist; NULL: all */
	int panels;        /* PLOT_L1 | PLOT_L2 | PLOT_DRAM; 0: what the runs have */
};

/* Okabe & Ito, "Color Universal Design" (2002): distinguishable with every
 * common colour-vision deficiency. Hits blue and capacity vermillion stay
 * apart for red-green colour blindness; the neutral classes are grey. The
 * explorer's theme (ui/theme.c) uses the same table. */
const char plot_hit_colour[] = "#0072b2";          /* blue */
const char *const plot_class_colour[RD_NCLASS] = {
	"#999999", /* compulsory: grey */
	"#d55e00", /* capacity: vermillion */
	"#e69f00", /* associativity: orange */
	"#56b4e9", /* latency: sky blue */
	"#cc79a7", /* mshr: reddish purple */
	"#009e73", /* write_evict: bluish green */
	"#f0e442", /* bypass: yellow */
	"#000000", /* sector: black */
};
const char plot_cold_colour[] = "#999999";         /* first touch: grey */
/* The histogram's misses (distance >= ways) are drawn like capacity misses,
 * as in the explorer. */
#define HIST_MISS_COLOUR (plot_class_colour[RD_CLASS_CAPACITY])
#define INK "#222222"
#define GRID "#cccccc"

int plot_size_parse(const char *s, unsigned *w, unsigned *h)
{
	unsigned long v[2];
	for (int i = 0; i < 2; i++) {
		if (*s < '0' || *s > '9')
			return -1;
		char *end;
		v[i] = strtoul(s, &end, 10);
		if (end - s > 5 || v[i] < PLOT_MIN_SIDE || v[i] > PLOT_MAX_SIDE)
			return -1;
		s = end;
		if (i == 0 && *s++ != 'x')
			return -1;
	}
	if (*s)
		return -1;
	*w = (unsigned)v[0];
	*h = (unsigned)v[1];
	return 0;
}

plot *plot_new(void)
{
	plot *p = calloc(1, sizeof(plot));
	if (p) {
		p->w = PLOT_DEFAULT_W;
		p->h = PLOT_DEFAULT_H;
	}
	return p;
}

void plot_set_size(plot *p, unsigned w, unsigned h)
{
	if (w && h) {
		p->w = w;
		p->h = h;
	}
}

/* Calls fn(run) for each run number of a list "N,N,..."; -1 if it is not
 * one (each number up to 9 digits). */
static int run_list(const char *s, int (*fn)(unsigned long run, unsigned long arg),
		    unsigned long arg)
{
	for (;;) {
		if (*s < '0' || *s > '9')
			return -1;
		char *end;
		unsigned long v = strtoul(s, &end, 10);
		if (end - s > 9)
			return -1;
		if (fn && fn(v, arg))
			return 1;
		s = end;
		if (!*s)
			return 0;
		if (*s++ != ',')
			return -1;
	}
}

static int same_run(unsigned long run, unsigned long arg)
{
	return run == arg;
}

int plot_hists_check(const char *spec)
{
	if (!strcmp(spec, "all") || !strcmp(spec, "none"))
		return 0;
	return run_list(spec, NULL, 0);
}

void plot_set_hists(plot *p, const char *spec)
{
	p->hists = spec;
}

/* Is the histogram of run drawn? */
static int hist_wanted(const plot *p, unsigned long run)
{
	if (!p->hists || !strcmp(p->hists, "all"))
		return 1;
	if (!strcmp(p->hists, "none"))
		return 0;
	return run_list(p->hists, same_run, run) == 1;
}

/* Context of missing_run: the plot, and the missing runs so far. */
typedef struct missing {
	const plot *p;
	char *buf;
	size_t len, n;
} missing;

static int missing_run(unsigned long run, unsigned long arg)
{
	missing *m = (missing *)(uintptr_t)arg;
	for (size_t i = 0; i < m->p->n; i++)
		if (m->p->bars[i].run == run && !m->p->bars[i].skipped)
			return 0;
	size_t l = strlen(m->buf);
	char num[24];
	snprintf(num, sizeof num, "%lu", run);
	if (m->n++ < 8) {
		if (l + strlen(num) + 3 < m->len)
			snprintf(m->buf + l, m->len - l, "%s%s", l ? ", " : "", num);
	} else if (m->n == 9 && l + 5 < m->len) {
		snprintf(m->buf + l, m->len - l, ", ...");
	}
	return 0;
}

size_t plot_hists_missing(const plot *p, char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	if (!p->hists || !strcmp(p->hists, "all") || !strcmp(p->hists, "none") || len < 32)
		return 0;
	missing m = {.p = p, .buf = buf, .len = len};
	run_list(p->hists, missing_run, (unsigned long)(uintptr_t)&m);
	return m.n;
}

void plot_runs(const plot *p, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < p->n && o + 24 < len; i++) {
		unsigned long r = p->bars[i].run;
		size_t j = i;
		while (j + 1 < p->n && p->bars[j + 1].run == p->bars[j].run + 1)
			j++;
		if (j >= i + 2) { /* three or more in a row */
			o += (size_t)snprintf(buf + o, len - o, "%s%lu to %lu", o ? ", " : "", r,
					      p->bars[j].run);
			i = j;
		} else {
			o += (size_t)snprintf(buf + o, len - o, "%s%lu", o ? ", " : "", r);
		}
		if (o + 24 >= len && i + 1 < p->n) {
			snprintf(buf + o, len - o, ", ...");
			break;
		}
	}
	if (!p->n)
		snprintf(buf, len, "none");
}

void plot_set_panels(plot *p, int panels)
{
	p->panels = panels;
}

static void bar_free(plot_bar *b)
{
	free(b->input);
	free(b->kernel);
	free(b->label);
	free(b->lv[0].hist);
	free(b->lv[1].hist);
	free(b->skipped);
}

void plot_free(plot *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		bar_free(&p->bars[i]);
	free(p->bars);
	free(p);
}

/* A level's counts and a copy of its histogram: 0, or -1 (no memory). */
static int level_copy(plot_level *l, uint64_t requests, uint64_t hits, const uint64_t *cls,
		      uint32_t ways, const uint64_t *hist, uint32_t len, uint64_t inf)
{
	l->requests = requests;
	l->hits = hits;
	memcpy(l->cls, cls, sizeof l->cls);
	l->ways = ways;
	l->hist_len = len;
	l->hist_inf = inf;
	if (!len || !hist) {
		l->hist_len = 0;
		return 0;
	}
	l->hist = malloc(len * sizeof *l->hist);
	if (!l->hist)
		return -1;
	memcpy(l->hist, hist, len * sizeof *l->hist);
	return 0;
}

/* Room for one more bar: 0, or -1 (no memory). */
static int bars_grow(plot *p)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 16;
		plot_bar *b = realloc(p->bars, cap * sizeof *b);
		if (!b)
			return -1;
		p->bars = b;
		p->cap = cap;
	}
	return 0;
}

/* The next bar, its names set (not yet counted in p->n), or NULL out of
 * memory (nothing left allocated). */
static plot_bar *bar_new(plot *p, unsigned long run, const char *input, const char *kernel,
			 const char *label)
{
	if (bars_grow(p) < 0)
		return NULL;
	plot_bar *b = &p->bars[p->n];
	memset(b, 0, sizeof *b);
	b->run = run;
	b->input = strdup(input);
	b->kernel = strdup(kernel);
	b->label = strdup(label ? label : "");
	if (b->input && b->kernel && b->label)
		return b;
	bar_free(b);
	return NULL;
}

int plot_add_skipped(plot *p, unsigned long run, const char *input, const char *label,
		     const char *why)
{
	plot_bar *b = bar_new(p, run, input, "", label);
	if (!b)
		return -1;
	b->skipped = strdup(why && *why ? why : "an invalid configuration");
	if (!b->skipped) {
		bar_free(b);
		return -1;
	}
	p->n++;
	return 0;
}

int plot_add(plot *p, unsigned long run, const char *input, const char *kernel,
	     const char *label, const rd_config *cfg, const rd_result *r)
{
	plot_bar *b = bar_new(p, run, input, kernel, label);
	if (!b)
		return -1;
	int ok = level_copy(&b->lv[0], r->requests, r->hits, r->cls, cfg->l1_ways, r->hist,
			    r->hist_len, r->hist_inf) == 0;
	if (ok && r->has_l2) {
		b->has_l2 = 1;
		ok = level_copy(&b->lv[1], r->l2.requests, r->l2.hits, r->l2.cls, cfg->l2_ways,
				r->l2.hist, r->l2.hist_len, r->l2.hist_inf) == 0;
	}
	if (r->has_dram) {
		b->has_dram = 1;
		b->dram = r->dram;
	}
	if (!ok) {
		bar_free(b);
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

/* Characters (code points) of s, for width estimates. */
static size_t chars(const char *str)
{
	size_t n = 0;
	for (const unsigned char *s = (const unsigned char *)str; *s; n++) {
		size_t k = utf8_len(s);
		s += k ? k : 1;
	}
	return n;
}

/* Bold text is this much wider. */
#define BOLD 1.08

/* The estimated width of s at font size fs. */
static double text_w(const char *s, double fs)
{
	return 0.6 * fs * (double)chars(s);
}

static void rect(FILE *f, const char *cls, double x, double y, double w, double h,
		 const char *fill)
{
	fputs("<rect", f);
	if (cls)
		fprintf(f, " class=\"%s\"", cls);
	fprintf(f, " x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>", x, y, w,
		h, fill);
}

/* Text at font size fs; with fit > 0 it is squeezed into fit units when
 * it would be wider. cls and fill may be NULL; bold: font-weight. */
/* A text element's opening, up to its attributes after font-weight. */
static void text_open(FILE *f, const char *cls, double x, double y, const char *anchor, double fs,
		      int bold)
{
	fputs("<text", f);
	if (cls)
		fprintf(f, " class=\"%s\"", cls);
	fprintf(f, " x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\"", x, y, fs);
	if (strcmp(anchor, "start"))
		fprintf(f, " text-anchor=\"%s\"", anchor);
	if (bold)
		fputs(" font-weight=\"bold\"", f);
}

static void text(FILE *f, const char *cls, double x, double y, const char *anchor, double fs,
		 int bold, const char *fill, double fit, const char *s)
{
	text_open(f, cls, x, y, anchor, fs, bold);
	if (fill)
		fprintf(f, " fill=\"%s\"", fill);
	if (fit > 0 && text_w(s, fs) * (bold ? BOLD : 1) > fit)
		fprintf(f, " textLength=\"%.1f\" lengthAdjust=\"spacingAndGlyphs\"", fit);
	fputc('>', f);
	xml_text(f, s);
	fputs("</text>\n", f);
}

static void line(FILE *f, const char *cls, double x1, double y1, double x2, double y2,
		 const char *stroke, double width, const char *dash)
{
	fputs("<line", f);
	if (cls)
		fprintf(f, " class=\"%s\"", cls);
	fprintf(f, " x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		   "stroke-width=\"%.1f\"",
		x1, y1, x2, y2, stroke, width);
	if (dash)
		fprintf(f, " stroke-dasharray=\"%s\"", dash);
	fputs("/>\n", f);
}

/* Text on a fill: white on the dark colours (blue, vermillion), else ink. */
static const char *ink_on(const char *fill)
{
	return !strcmp(fill, plot_hit_colour) ||
			       !strcmp(fill, plot_class_colour[RD_CLASS_CAPACITY])
		       ? "#ffffff"
		       : INK;
}

/* A count in at most 5 characters: 987, 12345, 123k, 4.5M. */
static void compact(uint64_t v, char *buf, size_t len)
{
	if (v < 100000)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else if (v < 10000000)
		snprintf(buf, len, "%.0fk", (double)v / 1e3);
	else if (v < 1000000000)
		snprintf(buf, len, "%.1fM", (double)v / 1e6);
	else
		snprintf(buf, len, "%.1fG", (double)v / 1e9);
}

/* Sizes of one picture: font sizes, padding, the two panes. */
typedef struct geom {
	double big, fs;   /* headings; everything else */
	double pad, gap;
	double w, h;      /* canvas (h may grow) */
	double lx, lw;    /* bars pane */
	double rx, rw;    /* histograms pane */
	double top;       /* below headings and legends */
	int kernels;      /* several inputs: titles name their kernel */
	int title_lines;  /* of the histograms' titles: 1 or 2 */
} geom;


/* A legend item: a swatch and its name. Returns the x after it. */
static double legend_item(FILE *f, const geom *g, double x, double y, const char *fill,
			  const char *name)
{
	rect(f, "swatch", x, y - 0.8 * g->fs, 0.8 * g->fs, 0.8 * g->fs, fill);
	text(f, NULL, x + 1.1 * g->fs, y, "start", g->fs, 0, NULL, 0, name);
	return x + 1.1 * g->fs + text_w(name, g->fs) + g->fs;
}

/* Legend items flowing over lines within [x0, x0 + w]; draw 0 measures.
 * Returns the baseline of its last line. */
static double legend(FILE *f, const geom *g, double x0, double w, double y, int n,
		     const char *const *fills, const char *const *names, int draw)
{
	double x = x0;
	for (int i = 0; i < n; i++) {
		double iw = 1.1 * g->fs + text_w(names[i], g->fs);
		if (x > x0 && x + iw > x0 + w) {
			x = x0;
			y += 1.4 * g->fs;
		}
		if (draw)
			x = legend_item(f, g, x, y, fills[i], names[i]);
		else
			x += iw + g->fs;
	}
	return y;
}

/* ---------------------------------------------------------------- bars */

/* A bar's label: the sweep point's values, or its kernel; with several
 * inputs a sweep's points are grouped under a heading per input. */
static const char *bar_label(const plot_bar *b)
{
	return b->label[0] ? b->label : b->kernel;
}

static int several_inputs(const plot *p)
{
	for (size_t i = 1; i < p->n; i++)
		if (strcmp(p->bars[i].input, p->bars[0].input))
			return 1;
	return 0;
}

static int bar_headings(const plot *p)
{
	return p->n && p->bars[0].label[0] && several_inputs(p);
}

#define MAX_LINES 6

/* Break a text wider than w at font size fs (bold: BOLD wider) into lines
 * at spaces, each as long as fits (the last taking the rest): writes the
 * start of each line to starts and returns the number of lines (at most
 * max). */
static int text_wrap(const char *t, double fs, int bold, double w, size_t *starts, int max)
{
	double k = 0.6 * fs * (bold ? BOLD : 1);
	int n = 1;
	size_t start = 0, len = strlen(t);
	starts[0] = 0;
	while (n < max && k * (double)chars(t + start) > w) {
		/* The last space after which the line would be too wide. */
		size_t cut = 0, cw = 0;
		for (size_t i = start; i < len; i++) {
			if ((t[i] & 0xc0) != 0x80)
				cw++;
			if (t[i] == ' ' && i > start) {
				if (cut && k * (double)(cw - 1) > w)
					break;
				cut = i;
			}
		}
		if (!cut)
			break;
		start = cut + 1;
		starts[n++] = start;
	}
	return n;
}

/* Text in lines (text_wrap's starts) as one <text>, a <tspan> a line,
 * lh apart; a line still wider than fit is squeezed (textLength). */
static void text_lines(FILE *f, const char *cls, double x, double y, const char *anchor,
		       double fs, int bold, double lh, double fit, const char *t,
		       const size_t *starts, int n)
{
	if (n <= 1) {
		text(f, cls, x, y, anchor, fs, bold, NULL, fit, t);
		return;
	}
	text_open(f, cls, x, y, anchor, fs, bold);
	fputc('>', f);
	for (int l = 0; l < n; l++) {
		size_t end = l + 1 < n ? starts[l + 1] - 1 : strlen(t);
		char line[1024];
		snprintf(line, sizeof line, "%.*s", (int)(end - starts[l]), t + starts[l]);
		fprintf(f, "<tspan x=\"%.1f\" dy=\"%.1f\"", x, l ? lh : 0.0);
		if (fit > 0 && text_w(line, fs) * (bold ? BOLD : 1) > fit)
			fprintf(f, " textLength=\"%.1f\" lengthAdjust=\"spacingAndGlyphs\"", fit);
		fputc('>', f);
		xml_text(f, line);
		fputs("</tspan>", f);
	}
	fputs("</text>\n", f);
}

/* A run's DRAM panel in lines (at most 4): its requests and banks, the row
 * buffer, then the delays or why there are none. */
static int dram_lines(const rd_dram *d, char out[4][160])
{
	snprintf(out[0], 160, "DRAM: %llu requests to %llu of %llu banks",
		 (unsigned long long)d->requests, (unsigned long long)d->banks_used,
		 (unsigned long long)d->banks);
	snprintf(out[1], 160, "row hits %llu, misses %llu, conflicts %llu",
		 (unsigned long long)d->row_hits, (unsigned long long)d->row_misses,
		 (unsigned long long)d->row_conflicts);
	if (d->saturated) {
		snprintf(out[2], 160, "saturated: %llu banks at utilisation >= 1 (up to %.3f):",
			 (unsigned long long)d->saturated, d->max_utilisation);
		snprintf(out[3], 160, "no finite queueing delay, latency or AMAT");
		return 4;
	}
	snprintf(out[2], 160, "queueing delay %.1f ns, latency %.1f ns, AMAT %.1f ns",
		 d->queue_delay, d->latency, d->amat);
	return 3;
}

/* How the bars pane is laid out (bars_layout). */
typedef struct bars_geom {
	double x0, w;     /* the pane */
	double lab_w;     /* the label column (labels left of their bars); 0: above */
	double tag_w;     /* the level's column ("L1", "L2", "DRAM"); 0: none */
	double rate_w;    /* the miss rates */
	double rh;        /* a bar's row */
	double lh;        /* a line of text */
	int l2, dram;     /* the panels drawn */
	int headings;
} bars_geom;

/* Does run b have a row of level panel (1 the L1, 2 the L2, 3 the DRAM)? */
static int has_panel(const plot_bar *b, const bars_geom *bg, int panel)
{
	return panel == 1 || (panel == 2 && bg->l2 && b->has_l2) ||
	       (panel == 3 && bg->dram && b->has_dram);
}

/* The lines of text above a run's bars (its label, when labels are
 * above) and after them (its DRAM panel, wrapped), and its bar rows
 * (headings count as one). */
static void bars_count(const plot *p, const bars_geom *bg, const geom *g, double *lines,
		       double *rows)
{
	*lines = *rows = 0;
	const char *last = NULL;
	for (size_t i = 0; i < p->n; i++) {
		const plot_bar *b = &p->bars[i];
		size_t st[MAX_LINES];
		if (bg->headings && (!last || strcmp(last, b->input)))
			*rows += 1;
		last = b->input;
		if (!bg->lab_w)
			*lines += text_wrap(bar_label(b), g->fs, 0, bg->w, st, MAX_LINES);
		*rows += 1 + (!b->skipped && has_panel(b, bg, 2));
		if (!b->skipped && has_panel(b, bg, 3)) {
			char dl[4][160];
			int n = dram_lines(&b->dram, dl);
			for (int k = 0; k < n; k++)
				*lines += text_wrap(dl[k], g->fs, 0, bg->w - bg->tag_w, st, MAX_LINES);
		}
	}
}

/* One level's bar in [bx0, bx1] at row y (height rh): hits, then the
 * classes, each share printed inside its segment where it fits; the miss
 * rate after it. */
static void level_bar(FILE *f, const geom *g, const bars_geom *bg, const plot_level *lv,
		      double bx0, double bx1, double y)
{
	double bw = bx1 - bx0, bh = bg->rh * 0.72;
	double yb = y + (bg->rh - bh) / 2, ty = y + bg->rh / 2 + 0.35 * g->fs;
	double x = bx0;
	uint64_t misses = 0;
	for (int c = -1; c < RD_NCLASS; c++) {
		uint64_t v = c < 0 ? lv->hits : lv->cls[c];
		const char *fill = c < 0 ? plot_hit_colour : plot_class_colour[c];
		if (c >= 0)
			misses += v;
		double sw = lv->requests ? bw * (double)v / (double)lv->requests : 0;
		if (sw <= 0)
			continue;
		if (x + sw > bx1)
			sw = bx1 - x;
		rect(f, c < 0 ? "hit" : rd_class_name((enum rd_class)c), x, yb, sw, bh, fill);
		char pct[16];
		snprintf(pct, sizeof pct, "%.0f%%", 100.0 * (double)v / (double)lv->requests);
		if (bh >= g->fs && sw >= text_w(pct, g->fs) + 0.4 * g->fs)
			text(f, "share", x + sw / 2, ty, "middle", g->fs, 0, ink_on(fill), 0, pct);
		x += sw;
	}
	char rate[16];
	snprintf(rate, sizeof rate, "%.1f%%",
		 lv->requests ? 100.0 * (double)misses / (double)lv->requests : 0.0);
	text(f, "rate", bx1 + bg->rate_w, ty, "end", g->fs, 0, NULL, 0, rate);
}

/* Draw the bars from y = g->top; returns the y after the axis. */
static double write_bars(const plot *p, FILE *f, const geom *g, const bars_geom *bg)
{
	double lh = bg->lh, rh = bg->rh;
	double bx0 = bg->x0 + bg->lab_w + bg->tag_w, bx1 = bg->x0 + bg->w - bg->rate_w;
	double y = g->top;
	text(f, NULL, bx1 + bg->rate_w, y - 0.3 * g->fs, "end", g->fs, 0, NULL, 0, "misses");
	/* The axis first (0 to 100 % of requests), so that the DRAM's lines
	 * can hide its grid behind them. */
	double lines, rows, bw = bx1 - bx0;
	bars_count(p, bg, g, &lines, &rows);
	double yend = y + lines * lh + rows * rh;
	int every = bw / 4 < text_w("100%", g->fs) + g->fs ? 2 : 1; /* 0, 50, 100 % if narrow */
	for (int t = 0; t <= 4; t++) {
		double xt = bx0 + bw * t / 4;
		line(f, "grid", xt, g->top, xt, yend + 0.3 * g->fs, t ? GRID : INK, 1, NULL);
		if (t % every)
			continue;
		char lbl[16];
		snprintf(lbl, sizeof lbl, "%d%%", 25 * t);
		text(f, NULL, xt, yend + 1.4 * g->fs, t == 0 ? "start" : t == 4 ? "end" : "middle",
		     g->fs, 0, NULL, 0, lbl);
	}
	const char *last_input = NULL;
	for (size_t i = 0; i < p->n; i++) {
		const plot_bar *b = &p->bars[i];
		if (bg->headings && (!last_input || strcmp(last_input, b->input))) {
			/* the input, and its kernel's name (issue 40 item 10: the
			 * kernel's alone, "rows", did not say which sample) */
			const char *kn = b->kernel;
			for (size_t j = i; !*kn && j < p->n && !strcmp(p->bars[j].input, b->input); j++)
				kn = p->bars[j].kernel;
			char head[1024];
			snprintf(head, sizeof head, *kn && strcmp(kn, b->input) ? "%s (%s)" : "%s",
				 b->input, kn);
			text(f, "input", bg->x0, y + rh / 2 + 0.35 * g->fs, "start", g->fs, 1, NULL,
			     bg->w, head);
			y += rh;
		}
		last_input = b->input;
		fprintf(f, "<g class=\"point\" data-run=\"%lu\"><title>run %lu: ", b->run, b->run);
		xml_text(f, b->kernel);
		if (b->label[0]) {
			fputs(", ", f);
			xml_text(f, b->label);
		}
		if (b->skipped) {
			fputs(", skipped: ", f);
			xml_text(f, b->skipped);
		}
		fputs("</title>\n", f);
		double ty = y + rh / 2 + 0.35 * g->fs;
		if (bg->lab_w) {
			text(f, "bar-label", bx0 - bg->tag_w - 0.4 * g->fs, ty, "end", g->fs, 0, NULL,
			     bg->lab_w - 0.6 * g->fs, bar_label(b));
		} else { /* above its bars, in lines as wide as the pane */
			size_t st[MAX_LINES];
			int n = text_wrap(bar_label(b), g->fs, 0, bg->w, st, MAX_LINES);
			text_lines(f, "bar-label", bg->x0, y + 0.95 * lh, "start", g->fs, 0, lh, bg->w,
				   bar_label(b), st, n);
			y += n * lh;
			ty = y + rh / 2 + 0.35 * g->fs;
		}
		if (b->skipped) { /* said where its bar would be (was missing) */
			char why[600];
			snprintf(why, sizeof why, "skipped: %s", b->skipped);
			/* as much as fits, cut at a blank with an ellipsis (the
			 * whole reason is the group's title) */
			size_t fit = (size_t)((bx1 + bg->rate_w - bx0) / (0.6 * g->fs));
			if (chars(why) > fit && fit > 12) {
				size_t cut = 0, n = 0;
				for (size_t k = 0; why[k] && n + 1 < fit; k++) {
					if ((why[k] & 0xc0) != 0x80)
						n++;
					if (why[k] == ' ')
						cut = k;
				}
				if (cut)
					snprintf(why + cut, sizeof why - cut, " \u2026");
			}
			text(f, "skipped", bx0, ty, "start", g->fs, 0, "#666666", 0, why);
			fputs("</g>\n", f);
			y += rh;
			continue;
		}
		if (bg->tag_w)
			text(f, "level", bx0 - bg->tag_w, ty, "start", g->fs, 1, NULL, 0, "L1");
		level_bar(f, g, bg, &b->lv[0], bx0, bx1, y);
		fputs("</g>\n", f);
		y += rh;
		if (has_panel(b, bg, 2)) {
			fprintf(f, "<g class=\"level-l2\" data-run=\"%lu\"><title>run %lu: the L2</title>\n",
				b->run, b->run);
			ty = y + rh / 2 + 0.35 * g->fs;
			text(f, "level", bx0 - bg->tag_w, ty, "start", g->fs, 1, NULL, 0, "L2");
			level_bar(f, g, bg, &b->lv[1], bx0, bx1, y);
			fputs("</g>\n", f);
			y += rh;
		}
		if (has_panel(b, bg, 3)) {
			char dl[4][160];
			int n = dram_lines(&b->dram, dl);
			fprintf(f, "<g class=\"dram\" data-run=\"%lu\">", b->run);
			double dh = 0;
			for (int k = 0; k < n; k++) {
				size_t st[MAX_LINES];
				dh += text_wrap(k ? dl[k] : dl[k] + 6, g->fs, 0, bg->w - bg->tag_w, st,
						MAX_LINES) * lh;
			}
			rect(f, NULL, bx0 - 1, y + 0.1 * lh, bx1 - bx0 + bg->rate_w + 1, dh,
			     "#ffffff");
			text(f, "level", bx0 - bg->tag_w, y + 0.95 * lh, "start", g->fs, 1, NULL, 0,
			     "DRAM");
			for (int k = 0; k < n; k++) {
				size_t st[MAX_LINES];
				/* "DRAM: " is the tag's */
				const char *t = k ? dl[k] : dl[k] + 6;
				int nl = text_wrap(t, g->fs, 0, bg->w - bg->tag_w, st, MAX_LINES);
				text_lines(f, "dram-line", bx0, y + 0.95 * lh, "start", g->fs, 0, lh,
					   bg->w - bg->tag_w, t, st, nl);
				y += nl * lh;
			}
			fputs("</g>\n", f);
		}
	}
	return yend + 2.2 * g->fs;
}

/* The bars pane's layout in the pane [x0, x0 + w] between top and bottom
 * (at most rh_max a bar's row); *need: the height it needs at the
 * smallest legible rows. */
static void bars_layout(const plot *p, const geom *g, double x0, double w, double avail,
			double rh_max, int l2, int dram, bars_geom *bg, double *need)
{
	memset(bg, 0, sizeof *bg);
	bg->x0 = x0;
	bg->w = w;
	bg->l2 = l2;
	bg->dram = dram;
	bg->headings = bar_headings(p);
	bg->lh = 1.3 * g->fs;
	bg->rate_w = text_w("100.0%", g->fs) + 0.6 * g->fs;
	/* capitals are wider than 0.6 em: 0.8 em each */
	bg->tag_w = l2 || dram ? (dram ? 4 : 2) * 0.8 * g->fs + 0.6 * g->fs : 0;
	/* Labels left of their bars when the longest fits in 3/5 of the
	 * pane unsqueezed (renderers that ignore textLength would clip it at
	 * the page's edge), else above them. */
	double lab_w = 0;
	for (size_t i = 0; i < p->n; i++) {
		double tw = text_w(bar_label(&p->bars[i]), g->fs);
		if (tw > lab_w)
			lab_w = tw;
	}
	lab_w += 0.6 * g->fs;
	bg->lab_w = lab_w <= (w - bg->tag_w) * 0.6 - bg->rate_w ? lab_w : 0;
	double lines, rows;
	bars_count(p, bg, g, &lines, &rows);
	double axis_h = 2.2 * g->fs, fixed = lines * bg->lh + axis_h;
	bg->rh = rows ? (avail - fixed) / rows : rh_max;
	if (bg->rh > rh_max)
		bg->rh = rh_max;
	if (bg->rh < 1.3 * g->fs)
		bg->rh = 1.3 * g->fs;
	*need = fixed + rows * 1.3 * g->fs;
}

/* ----------------------------------------------------------- histograms */

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

#define MAX_BINS 64

/* A histogram's title: its kernel (with several inputs or no label) and
 * its point's values; "L1: " or "L2: " before it when the picture has
 * both levels (level 0: no level said). */
static void hist_title(const plot_bar *b, int kernels, int level, char *buf, size_t len)
{
	const char *lv = level == 1 ? "L1: " : level == 2 ? "L2: " : "";
	if (!b->label[0])
		snprintf(buf, len, "%s%s (run %lu)", lv, b->kernel, b->run);
	else if (kernels)
		snprintf(buf, len, "%s%s: %s", lv, b->kernel, b->label);
	else
		snprintf(buf, len, "%s%s", lv, b->label);
}

#define MAX_TITLE_LINES 4

/* A count's centre over its bin at cx, half as wide as lw, moved into
 * the cell [x, x + cw] where it would leave it. */
static double count_x(double cx, double lw, double x, double cw)
{
	if (cx - lw < x)
		cx = x + lw;
	if (cx + lw > x + cw)
		cx = x + cw - lw;
	return cx;
}

/* One histogram, of level l (0 the L1, 1 the L2; said in the title when
 * said), in the cell at (x, y), cw x ch. */
static void write_histogram(const plot_bar *b, int l, int said, FILE *f, const geom *g, double x,
			    double y, double cw, double ch)
{
	const plot_level *lv = &b->lv[l];
	double fs = g->fs;
	/* Show distances up to the cut-off even where none occurred. */
	uint32_t len = lv->hist_len > lv->ways + 1 ? lv->hist_len : lv->ways + 1;
	int linear = len <= MAX_BINS;
	uint32_t nb = bin_count(len, linear);
	if (nb > MAX_BINS)
		nb = MAX_BINS;
	uint64_t hits[MAX_BINS + 1] = {0}, misses[MAX_BINS + 1] = {0};
	double max = (double)lv->hist_inf;
	for (uint32_t i = 0; i < nb; i++) {
		uint64_t lo, hi;
		bin_range(i, linear, &lo, &hi);
		for (uint64_t d = lo; d <= hi && d < lv->hist_len; d++)
			*(d < lv->ways ? &hits[i] : &misses[i]) += lv->hist[d];
		if ((double)(hits[i] + misses[i]) > max)
			max = (double)(hits[i] + misses[i]);
	}
	if (max <= 0)
		max = 1;
	fprintf(f, "<g class=\"histogram%s\" data-run=\"%lu\">\n", l ? " l2" : "", b->run);
	/* Title: the bar's label, so a histogram is found by its bar; long
	 * ones wrapped (every cell has room for the most lines any needs). */
	char title[512];
	hist_title(b, g->kernels, said ? l + 1 : 0, title, sizeof title);
	double tw = cw - 1.5 * fs;
	size_t starts[MAX_TITLE_LINES];
	int nl = text_wrap(title, fs, 1, tw, starts, MAX_TITLE_LINES);
	if (nl > g->title_lines)
		nl = g->title_lines; /* cannot happen: the picture has the most lines */
	for (int k = nl - 1; k >= 0; k--) {
		if (k + 1 < nl)
			title[starts[k + 1] - 1] = '\0';
		text(f, "hist-title", x, y + fs + 1.2 * fs * k, "start", fs, 1, NULL, tw,
		     title + starts[k]);
	}
	/* Plot area: the cut-off's label on top, room for the counts of the
	 * tallest bins, the distances below. */
	double pt = y + (0.4 + 1.2 * g->title_lines) * fs, pb = y + ch - 1.8 * fs;
	double px = x, pw = cw - 1.5 * fs;
	double bars_top = pt + 2.6 * fs, bw = pw / (double)(nb + 1);
	double hscale = (pb - bars_top) / max;
	line(f, NULL, px, pb, px + pw, pb, INK, 1, NULL);
	double top_of[MAX_BINS + 1];
	for (uint32_t i = 0; i <= nb; i++) {
		double bx = px + (double)i * bw, gapw = bw > 6 ? 1 : 0;
		if (i == nb) { /* first touches */
			double hh = (double)lv->hist_inf * hscale;
			if (hh > 0)
				rect(f, "cold", bx + gapw, pb - hh, bw - 2 * gapw, hh, plot_cold_colour);
			top_of[i] = pb - hh;
			continue;
		}
		double hh = (double)hits[i] * hscale, hm = (double)misses[i] * hscale;
		if (hh > 0)
			rect(f, "hit", bx + gapw, pb - hh, bw - 2 * gapw, hh, plot_hit_colour);
		if (hm > 0)
			rect(f, "miss", bx + gapw, pb - hh - hm, bw - 2 * gapw, hm, HIST_MISS_COLOUR);
		top_of[i] = pb - hh - hm;
	}
	/* Distances under the bins: as many as fit side by side, the first,
	 * and the infinite bin always. */
	double next_free = px;
	char lbl[48];
	for (uint32_t i = 0; i <= nb; i++) {
		uint64_t lo = 0, hi = 0;
		if (i < nb)
			bin_range(i, linear, &lo, &hi);
		if (i == nb)
			snprintf(lbl, sizeof lbl, "\u221e");
		else if (lo == hi)
			snprintf(lbl, sizeof lbl, "%llu", (unsigned long long)lo);
		else
			snprintf(lbl, sizeof lbl, "%llu-", (unsigned long long)lo);
		double cx = px + ((double)i + 0.5) * bw, lw = text_w(lbl, fs);
		double inf_left = px + ((double)nb + 0.5) * bw - text_w("\u221e", fs) / 2 - 0.5 * fs;
		if (cx - lw / 2 < next_free || (i < nb && cx + lw / 2 > inf_left))
			continue;
		text(f, "distance", cx, pb + 1.3 * fs, "middle", fs, 0, NULL, 0, lbl);
		next_free = cx + lw / 2 + 0.5 * fs;
	}
	/* The tallest bins: their counts above them, up to three that do not
	 * overlap (nor leave the cell). */
	double taken_l[3], taken_r[3];
	int ntaken = 0;
	for (int k = 0; k < 3; k++) {
		int best = -1;
		uint64_t bestv = 0;
		for (uint32_t i = 0; i <= nb; i++) {
			uint64_t v = i == nb ? lv->hist_inf : hits[i] + misses[i];
			if (v <= bestv)
				continue;
			compact(v, lbl, sizeof lbl);
			double cx = px + ((double)i + 0.5) * bw, lw = text_w(lbl, fs) / 2 + 0.2 * fs;
			cx = count_x(cx, lw, x, cw);
			int clash = 0;
			for (int t = 0; t < ntaken; t++)
				clash |= cx + lw > taken_l[t] && cx - lw < taken_r[t];
			if (!clash) {
				best = (int)i;
				bestv = v;
			}
		}
		if (best < 0)
			break;
		compact(bestv, lbl, sizeof lbl);
		double cx = px + ((double)best + 0.5) * bw, lw = text_w(lbl, fs) / 2 + 0.2 * fs;
		cx = count_x(cx, lw, x, cw);
		taken_l[ntaken] = cx - lw;
		taken_r[ntaken++] = cx + lw;
		/* A white halo keeps it readable where it reaches over a
		 * neighbouring bar. */
		fprintf(f, "<g stroke=\"#ffffff\" stroke-width=\"%.1f\" paint-order=\"stroke\">",
			0.25 * fs);
		text(f, "count", cx, top_of[best] - 0.3 * fs, "middle", fs, 0, NULL, 0, lbl);
		fputs("</g>\n", f);
	}
	/* The cut-off: distances below the associativity hit. */
	double xc;
	if (linear) {
		xc = px + (double)lv->ways * bw;
	} else {
		uint32_t i = 0;
		uint64_t lo = 0, hi = 0;
		while (i < nb && (bin_range(i, 0, &lo, &hi), hi < lv->ways))
			i++;
		xc = px + ((double)i + (double)(lv->ways - lo) / (double)(hi - lo + 1)) * bw;
	}
	line(f, "cutoff", xc, pt, xc, pb, "#000000", 2, "8 5");
	snprintf(lbl, sizeof lbl, "ways = %u", lv->ways);
	int right = xc + 0.3 * fs + text_w(lbl, fs) <= px + pw;
	text(f, NULL, right ? xc + 0.3 * fs : xc - 0.3 * fs, pt + fs, right ? "start" : "end", fs, 0,
	     NULL, 0, lbl);
	fputs("</g>\n", f);
}

/* Columns of the histogram grid for n cells in w x h: the layout whose
 * cells are largest, at least min_w x min_h where it can. */
static size_t hist_cols(size_t n, double w, double h, double min_w, double min_h)
{
	size_t best = 1;
	double best_s = -1;
	for (size_t c = 1; c <= n; c++) {
		size_t r = (n + c - 1) / c;
		double cw = w / (double)c, ch = h / (double)r;
		if (cw < min_w && c > 1)
			break;
		double s = cw / 16 < ch / 9 ? cw / 16 : ch / 9; /* as 16:9 as it can be */
		if (ch < min_h)
			s = -1 + ch / min_h; /* too low: prefer fewer rows */
		if (s > best_s) {
			best_s = s;
			best = c;
		}
	}
	return best;
}

/* ------------------------------------------------------------- the page */

/* A histogram cell: run i's level l. */
typedef struct hcell {
	size_t i;
	int l;
} hcell;

void plot_write(const plot *p, FILE *f)
{
	geom g;
	memset(&g, 0, sizeof g);
	g.w = p->w;
	g.h = p->h;
	/* Text: 1/45 of the height (24 px at 1080, 16 at 720), 20 px at 1080. */
	g.big = g.h / 45;
	g.fs = g.big * 5 / 6 > 16 ? g.big * 5 / 6 : g.big < 16 ? g.big : 16;
	g.pad = g.big;
	g.gap = 2 * g.big;
	/* The panels: the L2 and the DRAM where asked for (the explorer: as
	 * on its screen) or, by default, where a run has them. */
	int any_l2 = 0, any_dram = 0;
	for (size_t i = 0; i < p->n; i++) {
		any_l2 |= p->bars[i].has_l2;
		any_dram |= p->bars[i].has_dram;
	}
	int panels = p->panels ? p->panels : PLOT_L1 | PLOT_L2 | PLOT_DRAM;
	int l2 = any_l2 && (panels & PLOT_L2), dram = any_dram && (panels & PLOT_DRAM);
	/* The histograms: each run's L1, and its L2 with the L2's panel. */
	hcell *cells = malloc((2 * p->n + 1) * sizeof *cells);
	size_t nh = 0;
	for (size_t i = 0; cells && i < p->n; i++) {
		if (!hist_wanted(p, p->bars[i].run) || p->bars[i].skipped)
			continue;
		cells[nh++] = (hcell){i, 0};
		if (l2 && p->bars[i].has_l2)
			cells[nh++] = (hcell){i, 1};
	}
	int hists = nh > 0;
	size_t nskipped = 0;
	for (size_t i = 0; i < p->n; i++)
		nskipped += p->bars[i].skipped != NULL;
	/* A few runs (the explorer's picture, run's): the bars across the
	 * page above the histograms, so that both fill it; many (a sweep):
	 * side by side. */
	int stacked = hists && p->n <= 3;
	g.lx = g.pad;
	g.lw = hists && !stacked ? (g.w - 2 * g.pad - g.gap) * 0.45 : g.w - 2 * g.pad;
	g.rx = stacked ? g.pad : g.lx + g.lw + g.gap;
	g.rw = g.w - g.pad - g.rx;
	g.kernels = several_inputs(p);
	const char *const hist_fills[] = {plot_hit_colour, plot_class_colour[1],
					  plot_cold_colour};
	static const char *const hist_names[] = {"hit (distance < ways)", "miss",
						 "\u221e first touch"};
	const char *bar_fills[RD_NCLASS + 1], *bar_names[RD_NCLASS + 1];
	bar_fills[0] = plot_hit_colour;
	bar_names[0] = "hit";
	int nleg = 1;
	for (int c = 0; c < RD_NCLASS; c++) {
		/* write_evict and bypass only where a run has them (l1.stores,
		 * l1.loads): the paper's plots keep their five classes. */
		uint64_t any = c < RD_CLASS_WRITE_EVICT;
		for (size_t i = 0; i < p->n && !any; i++)
			any = p->bars[i].lv[0].cls[c] || (l2 && p->bars[i].lv[1].cls[c]);
		if (!any)
			continue;
		bar_fills[nleg] = plot_class_colour[c];
		bar_names[nleg++] = rd_class_name((enum rd_class)c);
	}
	double head_y = g.pad + g.big, leg_y = head_y + 1.8 * g.fs;
	double l_end = legend(f, &g, g.lx, g.lw, leg_y, nleg, bar_fills, bar_names, 0);
	double r_end = hists && !stacked ? legend(f, &g, g.rx, g.rw, leg_y, 3, hist_fills,
						  hist_names, 0)
					 : 0;
	g.top = (l_end > r_end ? l_end : r_end) + 2.4 * g.fs;
	double min_cw = 12 * g.fs, min_ch = 7.5 * g.fs;
	/* The bars: stacked, their rows at most 3.2 em (as much of the page
	 * as they need); side by side, the pane's height. */
	bars_geom bg;
	double bars_need;
	double avail = g.h - g.pad - g.top;
	if (stacked)
		avail = (double)(p->n * (1 + l2)) * 3.2 * g.fs + 40 * g.fs; /* rows at most */
	bars_layout(p, &g, g.lx, g.lw, avail, stacked ? 3.2 * g.fs : 2.6 * g.fs, l2, dram, &bg,
		    &bars_need);
	double lines, rows;
	bars_count(p, &bg, &g, &lines, &rows);
	double bars_h = lines * bg.lh + rows * bg.rh + 2.2 * g.fs;
	/* The histograms' region: right of the bars, or below them. */
	double h_head_y = head_y, h_leg_y = leg_y, h_top = g.top;
	if (stacked) {
		h_head_y = g.top + bars_h + g.gap;
		h_leg_y = h_head_y + 1.8 * g.fs;
		h_top = legend(f, &g, g.rx, g.rw, h_leg_y, 3, hist_fills, hist_names, 0) + 2.4 * g.fs;
	}
	double need = stacked ? h_top + min_ch + g.pad : g.top + bars_need + g.pad;
	size_t cols = hists ? hist_cols(nh, g.rw, g.h - g.pad - h_top, min_cw, min_ch) : 1;
	size_t hrows = (nh + cols - 1) / cols;
	double cell_w = g.rw / (double)cols;
	g.title_lines = 1;
	for (size_t k = 0; k < nh; k++) {
		char title[512];
		size_t starts[MAX_TITLE_LINES];
		hist_title(&p->bars[cells[k].i], g.kernels, l2 ? cells[k].l + 1 : 0, title,
			   sizeof title);
		int nl = text_wrap(title, g.fs, 1, cell_w - 1.5 * g.fs, starts, MAX_TITLE_LINES);
		if (nl > g.title_lines)
			g.title_lines = nl;
	}
	min_ch += 1.2 * g.fs * (g.title_lines - 1);
	double cell_h = (g.h - g.pad - h_top) / (double)(hrows ? hrows : 1);
	if (hists && cell_h < min_ch) {
		cell_h = min_ch;
		if (h_top + (double)hrows * cell_h + g.pad > need)
			need = h_top + (double)hrows * cell_h + g.pad;
	}
	if (need > g.h)
		g.h = need;
	if (!stacked && !hists && g.top + bars_h + g.pad > g.h)
		g.h = g.top + bars_h + g.pad;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
		   "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" "
		   "font-size=\"%.1f\" fill=\"%s\">\n",
		g.w, g.h, g.w, g.h, g.fs, INK);
	fprintf(f, "<title>rdscope %s: hits, misses by class and reuse distances of %zu run%s</title>\n",
		RD_VERSION, p->n, p->n == 1 ? "" : "s");
	fputs("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n", f);
	text(f, "heading", g.lx, head_y, "start", g.big, 1, NULL, g.lw,
	     p->n == 1 ? (l2 ? "Hits and misses per request, L1 and L2"
			     : "Hits and misses per request")
		       : (l2 ? "Hits and misses per request, L1 and L2, by run"
			     : "Hits and misses per request, by run"));
	legend(f, &g, g.lx, g.lw, leg_y, nleg, bar_fills, bar_names, 1);
	if (!stacked) { /* the bars fill the pane's height, as before */
		bars_layout(p, &g, g.lx, g.lw, g.h - g.pad - g.top, 2.6 * g.fs, l2, dram, &bg,
			    &bars_need);
	}
	write_bars(p, f, &g, &bg);
	if (hists) {
		text(f, "heading", g.rx, h_head_y, "start", g.big, 1, NULL, g.rw,
		     nh == 1 ? "Reuse distances"
		     : l2 ? "Reuse distances of each run's L1 and L2"
		     : nh == p->n - nskipped ? "Reuse distances of each run"
				  : "Reuse distances of the runs chosen");
		legend(f, &g, g.rx, g.rw, h_leg_y, 3, hist_fills, hist_names, 1);
		for (size_t k = 0; k < nh; k++) {
			size_t r = k / cols, c = k % cols;
			write_histogram(&p->bars[cells[k].i], cells[k].l, l2, f, &g,
					g.rx + (double)c * cell_w, h_top - 1.2 * g.fs + (double)r * cell_h,
					cell_w, cell_h);
		}
	}
	free(cells);
	fputs("</svg>\n", f);
}

/* -------------------------------------------------- validate's scatter */

/* A label's box, to keep labels apart. */
typedef struct lbox {
	double x0, x1, y;
} lbox;

void plot_scatter_write(FILE *f, const plot_scatter_point *pts, size_t n, unsigned w, unsigned h,
			const char *title)
{
	double W = w ? w : PLOT_DEFAULT_W, H = h ? h : PLOT_DEFAULT_H;
	double big = H / 45;
	double fs = big * 5 / 6 > 16 ? big * 5 / 6 : big < 16 ? big : 16;
	double pad = big, head_y = pad + big;
	double top = head_y + 2.5 * fs, left = pad + 5.5 * fs, bottom = 4 * fs;
	double side = H - top - bottom - pad;
	if (side > W - left - pad - 14 * fs)
		side = W - left - pad - 14 * fs;
	if (side < 10 * fs)
		side = 10 * fs;
	double x0 = left, y1 = top + side; /* the plot's left, its bottom */
	int any_l2 = 0;
	for (size_t i = 0; i < n; i++)
		any_l2 |= pts[i].l2;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
		   "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" "
		   "font-size=\"%.1f\" fill=\"%s\">\n",
		W, H, W, H, fs, INK);
	fprintf(f, "<title>rdscope %s: model against measured hit rates, %zu point%s</title>\n",
		RD_VERSION, n, n == 1 ? "" : "s");
	fputs("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n", f);
	text(f, "heading", pad, head_y, "start", big, 1, NULL, W - 2 * pad, title);
	/* the grid, every 10%, labelled every 20% */
	for (int t = 0; t <= 10; t++) {
		double gx = x0 + side * t / 10, gy = y1 - side * t / 10;
		line(f, "grid", gx, top, gx, y1, GRID, 1, NULL);
		line(f, "grid", x0, gy, x0 + side, gy, GRID, 1, NULL);
		if (t % 2)
			continue;
		char lab[8];
		snprintf(lab, sizeof lab, "%d%%", 10 * t);
		text(f, "tick", gx, y1 + 1.3 * fs, "middle", fs, 0, NULL, 0, lab);
		text(f, "tick", x0 - 0.4 * fs, gy + 0.35 * fs, "end", fs, 0, NULL, 0, lab);
	}
	line(f, "axis", x0, y1, x0 + side, y1, INK, 1.5, NULL);
	line(f, "axis", x0, top, x0, y1, INK, 1.5, NULL);
	line(f, "diagonal", x0, y1, x0 + side, top, INK, 1.5, "8 6");
	text(f, "axis-label", x0 + side / 2, y1 + 2.9 * fs, "middle", fs, 1, NULL, 0,
	     "measured hit rate");
	double ay = top + side / 2, ax = pad + fs;
	fprintf(f, "<text class=\"axis-label\" x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" "
		   "text-anchor=\"middle\" font-weight=\"bold\" transform=\"rotate(-90 %.1f %.1f)\">",
		ax, ay, fs, ax, ay);
	xml_text(f, "model hit rate");
	fputs("</text>\n", f);
	/* the legend, right of the plot and its points' labels */
	double lfs = fs * 0.8, longest = 0;
	for (size_t i = 0; i < n; i++)
		if (text_w(pts[i].label, lfs) > longest)
			longest = text_w(pts[i].label, lfs);
	double lx = x0 + side + 2 * fs + longest, ly = top + fs, r = 0.4 * fs;
	if (lx > W - pad - 10 * fs)
		lx = W - pad - 10 * fs;
	fprintf(f, "<circle class=\"swatch\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"/>\n",
		lx + r, ly - r, r, plot_hit_colour);
	text(f, NULL, lx + 1.4 * fs, ly, "start", fs, 0, NULL, 0, "L1 hit rate");
	if (any_l2) {
		ly += 1.5 * fs;
		rect(f, "swatch", lx, ly - 2 * r, 2 * r, 2 * r, plot_class_colour[RD_CLASS_CAPACITY]);
		fputc('\n', f);
		text(f, NULL, lx + 1.4 * fs, ly, "start", fs, 0, NULL, 0, "L2 hit rate");
	}
	ly += 1.5 * fs;
	line(f, NULL, lx, ly - r, lx + 2 * r + 0.4 * fs, ly - r, INK, 1.5, "8 6");
	text(f, NULL, lx + 1.4 * fs + 0.4 * fs, ly, "start", fs, 0, NULL, 0, "model = measured");
	/* the points; labels moved up past earlier ones they would cover */
	lbox *placed = malloc((n ? n : 1) * sizeof *placed);
	size_t np = 0;
	for (size_t i = 0; i < n; i++) {
		const plot_scatter_point *p = &pts[i];
		double m = p->measured < 0 ? 0 : p->measured > 1 ? 1 : p->measured;
		double y = p->model < 0 ? 0 : p->model > 1 ? 1 : p->model;
		double px = x0 + side * m, py = y1 - side * y;
		const char *fill = p->l2 ? plot_class_colour[RD_CLASS_CAPACITY] : plot_hit_colour;
		fprintf(f, "<g class=\"point %s\">", p->l2 ? "l2" : "l1");
		fprintf(f, "<title>");
		char t[64];
		xml_text(f, p->label);
		snprintf(t, sizeof t, " %s: measured %.2f%%, model %.2f%%", p->l2 ? "L2" : "L1",
			 100 * p->measured, 100 * p->model);
		xml_text(f, t);
		fputs("</title>", f);
		if (p->l2)
			rect(f, NULL, px - r, py - r, 2 * r, 2 * r, fill);
		else
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"/>", px, py, r,
				fill);
		fputc('\n', f);
		double tw = text_w(p->label, lfs), lx0 = px + r + 0.3 * lfs, ty = py + 0.35 * lfs;
		if (placed) {
			for (int moved = 1, guard = 0; moved && guard < (int)n + 1; guard++) {
				moved = 0;
				for (size_t j = 0; j < np; j++)
					if (lx0 < placed[j].x1 && placed[j].x0 < lx0 + tw &&
					    ty > placed[j].y - 1.1 * lfs && ty < placed[j].y + 1.1 * lfs) {
						ty = placed[j].y - 1.1 * lfs;
						moved = 1;
					}
			}
			placed[np++] = (lbox){lx0, lx0 + tw, ty};
		}
		text(f, "point-label", lx0, ty, "start", lfs, 0, NULL, 0, p->label);
		fputs("</g>\n", f);
	}
	free(placed);
	fputs("</svg>\n", f);
}
