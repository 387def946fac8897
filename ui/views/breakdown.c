/*
 * The breakdown view, the explorer's first screen: beside the parameters
 * pane, the miss breakdown (a row and a bar per class, a stacked bar, the
 * miss rates) over the reuse-distance histogram (bins up to the cut-off
 * between hits and misses, then the cold misses apart), each against the
 * pinned baseline when there is one. Its keys scroll the histogram and
 * switch its scale; the breakdown itself is the state's own run. May
 * include and call the state (explorer/state.h), draw, hist, theme.
 */
#include <curses.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "explorer/state.h"
#include "hist.h"
#include "info.h"
#include "level.h"
#include "params.h"
#include "rprof.h"
#include "theme.h"
#include "view.h"

/* The view's private state (view_ops.priv_size, explorer.priv). */
typedef struct panes_priv {
	size_t hist_first;     /* first histogram bin shown */
	size_t hist_first_l2;  /* first bin of the L2's histogram shown */
	int hist_log;          /* counts on a log scale */
	int l1b_on;            /* the metrics line's L1B pair is asked for (B) */
	snap *l1b;             /* its JOB_L1B result of cfg, or NULL */
	unsigned long asked;   /* the generation l1b was asked for in */
} panes_priv;

static panes_priv *P(const explorer *x)
{
	return x->priv[V_PANES];
}

/* ---------------------------------------------------------------- panes */

/* One level's breakdown and histogram as drawn: where, what, against what.
 * The L2's (level 2) is its rd_level read as a result (level.h). */
typedef struct pane {
	int level;            /* 1 the L1, 2 the shared L2 */
	rect bars, hist;
	const snap *s;        /* the current result (NULL: modelling) */
	rd_result R, B;       /* the level's result, and the baseline's */
	int have_r, have_b;   /* R (a final or partial result with the level), B */
	rd_config cfg;        /* how to read R: the L2's ways, policy, stores */
	int partial;          /* a snapshot without classes (R's hits and misses only) */
	int focused;          /* the focused level (its histogram's keys) */
	int both;             /* both levels on screen */
	int metrics;          /* the metrics line goes in this pane's bars */
	size_t *first;        /* its histogram's first bin */
} pane;

/* ---------------------------------------------------------------- text */

/* A signed request delta: +1234, -56, 0. */
static void fmt_delta(int64_t d, char *buf, size_t len)
{
	if (d == 0)
		snprintf(buf, len, "0");
	else if (d > -1000000 && d < 1000000)
		snprintf(buf, len, "%+lld", (long long)d);
	else
		snprintf(buf, len, "%+.2fM", (double)d / 1e6);
}

/* ---------------------------------------------------------------- bars */

static uint64_t row_count(const rd_result *R, int row)
{
	return row == 0 ? R->hits : R->cls[row - 1];
}

static enum ui_elem row_elem(int row)
{
	return row == 0 ? E_HIT : E_CLASS(row - 1);
}

static const char *row_glyph(int row)
{
	return row == 0 ? theme_g()->hit : theme_g()->cls[row - 1];
}

/* One stacked bar of w columns: hits then each class, by share of the
 * requests (largest remainders, so the segments fill w exactly). */
static void stacked_bar(int y, int x0, int w, const rd_result *R, int partial)
{
	if (w <= 0)
		return;
	uint64_t part[RD_NCLASS + 1];
	int nparts = partial ? 2 : RD_NCLASS + 1;
	if (partial) {
		part[0] = R->hits;
		part[1] = R->misses;
	} else {
		for (int i = 0; i <= RD_NCLASS; i++)
			part[i] = row_count(R, i);
	}
	uint64_t tot = 0;
	for (int i = 0; i < nparts; i++)
		tot += part[i];
	if (!tot) {
		draw_fill(y, x0, w, E_PENDING, " ");
		return;
	}
	int cells[RD_NCLASS + 1], used = 0;
	double rem[RD_NCLASS + 1];
	for (int i = 0; i < nparts; i++) {
		double exact = (double)part[i] * w / (double)tot;
		cells[i] = (int)exact;
		rem[i] = exact - cells[i];
		used += cells[i];
	}
	while (used < w) {
		int best = 0;
		for (int i = 1; i < nparts; i++)
			if (rem[i] > rem[best])
				best = i;
		cells[best]++;
		rem[best] = -1;
		used++;
	}
	int cx = x0;
	for (int i = 0; i < nparts; i++) {
		if (partial && i == 1)
			draw_fill(y, cx, cells[i], E_PENDING, "?");
		else
			draw_fill(y, cx, cells[i], row_elem(i), row_glyph(i));
		cx += cells[i];
	}
}

/* The rows of the breakdown: the hits (0) and each class shown (1 + c),
 * into rows; how many. */
static int shown_rows(const rd_config *c, int level, int rows[RD_NCLASS + 1])
{
	int n = 0;
	rows[n++] = 0;
	for (int k = 0; k < RD_NCLASS; k++)
		if (level_class_shown(c, level, k))
			rows[n++] = 1 + k;
	return n;
}

/* Does the breakdown have a line for the stores? */
static int stores_line(const rd_config *c)
{
	return c->stores != RD_STORES_IGNORE;
}

/* ... one for the measured hit rate (--measured: the L1's pane, a file
 * with this kernel)? *l1 the measured rate then. */
static int measured_line(const explorer *x, int level, double *l1)
{
	double l2;
	return level != 2 && x->opts && x->opts->measured && x->k && x->k->name &&
	       x->opts->measured(x->opts->ctx, x->k->name, l1, &l2) == 0;
}

/* ... and one for the level's sectors (l1.sector; the L2's pane reads
 * l2.sector there, level_config)? */
static int sectors_line(const rd_config *c, int level)
{
	(void)level;
	return c->l1_sector != 0;
}

/* Is there an L2 to show (configured: its result may still be coming)? */
static int with_l2(const explorer *x)
{
	return x->cfg.l2_size && x->cfg.model != RD_PROFILE_REF2013;
}

/* Both levels side by side: when each gets at least this many columns. */
#define BOTH_MIN_W 44

/*
 * The panes of a level: its breakdown over its histogram in the column
 * col of the layout's side. The layout's breakdown holds the hits and the
 * paper's five classes; a configuration with more rows (write_evict,
 * bypass, the stores line, the metrics line) takes them from the top of
 * the histogram, so the paper's screens keep their layout.
 */
static void pane_rects(const explorer *x, pane *p, rect col)
{
	int rows[RD_NCLASS + 1];
	int extra = shown_rows(&p->cfg, p->level, rows) - (1 + RD_CLASS_MSHR + 1) +
		    stores_line(&p->cfg) + sectors_line(&p->cfg, p->level) + p->metrics;
	double ml1;
	extra += measured_line(x, p->level, &ml1);
	rect bars = x->lay.bars, hist = x->lay.hist;
	bars.x = hist.x = col.x;
	bars.w = hist.w = col.w;
	if (extra > hist.h - 4) /* the histogram keeps its frame and a row */
		extra = hist.h - 4 > 0 ? hist.h - 4 : 0;
	if (extra > 0 && bars.y + bars.h == hist.y) {
		bars.h += extra;
		hist.y += extra;
		hist.h -= extra;
	}
	p->bars = bars;
	p->hist = hist;
}

/* The level's pane as the state has it. */
static void pane_make(explorer *x, int level, rect col, int both, pane *p)
{
	memset(p, 0, sizeof *p);
	p->level = level;
	p->s = x->cur;
	p->both = both;
	p->focused = !with_l2(x) || (x->level == 2) == (level == 2);
	p->first = level == 2 ? &P(x)->hist_first_l2 : &P(x)->hist_first;
	/* one metrics line: in the L2's pane, or the one level shown */
	p->metrics = with_l2(x) && (level == 2 || !both);
	const snap *s = x->cur;
	/* a kernel in parts' snapshot has the classes of its SMs done */
	p->partial = s && s->partial && !s->parts_total;
	if (level == 2) {
		level_config(s ? &s->cfg : &x->cfg, &p->cfg);
		if (s && s->status == RD_OK && s->res.has_l2) {
			level_as_result(&s->res, &p->R);
			p->have_r = 1;
		}
		if (x->base && x->base->res.has_l2) {
			level_as_result(&x->base->res, &p->B);
			p->have_b = 1;
		}
	} else {
		p->cfg = s ? s->cfg : x->cfg;
		if (s && s->status == RD_OK) {
			p->R = s->res;
			p->have_r = 1;
		}
		if (x->base) {
			p->B = x->base->res;
			p->have_b = 1;
		}
	}
	pane_rects(x, p, col);
}

/* The panes on screen: the focused level's, or both side by side when
 * there is an L2 and room; how many. */
static int panes_of(explorer *x, pane out[2])
{
	rect side = x->lay.side;
	if (!with_l2(x)) {
		pane_make(x, 1, side, 0, &out[0]);
		return 1;
	}
	if (side.w >= 2 * BOTH_MIN_W) {
		rect l = side, r = side;
		l.w = side.w / 2;
		r.x = side.x + l.w;
		r.w = side.w - l.w;
		pane_make(x, 1, l, 1, &out[0]);
		pane_make(x, 2, r, 1, &out[1]);
		return 2;
	}
	pane_make(x, x->level == 2 ? 2 : 1, side, 0, &out[0]);
	return 1;
}

/* The stores at the L1 in a line of at most w columns. */
static void fmt_stores(const rd_result *R, enum rd_stores st, int w, char *buf, size_t len)
{
	unsigned long long n = R->store_requests, h = R->store_hits, e = R->store_evictions;
	/* Under write-evict a store that hits removes its line (so hits and
	 * evictions differ by the fills a store cancelled); under allocate
	 * a store hits like a load and evicts nothing itself. */
	snprintf(buf, len, " stores: %llu requests, %llu hits, %llu evictions%s", n, h, e,
		 st == RD_STORES_EVICT ? " (write-evict)" : "");
	if (draw_width(buf) > w)
		snprintf(buf, len, " stores: %llu requests, %llu hits, %llu evictions", n, h, e);
	if (draw_width(buf) > w)
		snprintf(buf, len, " stores: %llu req, %llu hit, %llu evicted", n, h, e);
	if (draw_width(buf) > w)
		snprintf(buf, len, " st %llu/%llu/%llu", n, h, e);
}

/* The frame's title of a level's pane: "Miss breakdown" as ever without
 * an L2; with one, which level, and the key to the other. */
static void pane_title(const explorer *x, const pane *p, const char *what, char *buf,
		       size_t len)
{
	if (!with_l2(x)) {
		snprintf(buf, len, "%s", what);
		return;
	}
	snprintf(buf, len, "L%d %c%s%s", p->level, what[0] + ('a' - 'A'), what + 1,
		 p->both ? "" : p->level == 2 ? " (2: L1)" : " (2: L2)");
}

/* RDGC's six metrics in a line of w columns. */
static void metrics_line(const explorer *x, int w, char *buf, size_t len)
{
	const snap *s = x->cur;
	if (!s || s->partial || s->status != RD_OK) {
		snprintf(buf, len, " metrics (pending)");
		return;
	}
	rd_metrics m;
	int l1b = L1B_OFF;
	const rd_result *lb = NULL;
	if (P(x)->l1b_on) {
		l1b = L1B_RUNNING;
		if (P(x)->l1b && P(x)->l1b->status == RD_OK && rd_config_equal(&P(x)->l1b->cfg, &s->cfg)) {
			lb = &P(x)->l1b->res;
			l1b = L1B_DONE;
		}
	}
	rd_metrics_of(&s->res, lb, &m);
	if (l1b == L1B_DONE && !m.have_l1b)
		l1b = L1B_NONE;
	level_metrics_line(&m, l1b, w, buf, len);
}

/* The L1's miss rate of the geometry on screen estimated from the reuse
 * profile held (views/profile.c measures it; binomial, SDCM-style) as
 * " est. 12.34% (R)", or "" while there is none. */
static void estimate_note(const explorer *x, const pane *p, char *buf, size_t len)
{
	buf[0] = '\0';
	if (p->level == 2 || !x->prof || x->prof->status != RD_OK || !x->prof->prof)
		return;
	rd_config k;
	rprof_key(&x->cfg, &k);
	double bin, fa;
	if (rd_config_equal(&x->prof->cfg, &k) && rprof_estimate(x->prof->prof, &x->cfg, &bin, &fa) == 0)
		snprintf(buf, len, " est. %.2f%% (R)", (1 - bin) * 100); /* i explains it */
}

static void draw_bars(explorer *x, const pane *p)
{
	rect r = p->bars;
	const snap *s = p->s;
	char title[160], t0[96], part[40] = "";
	if (s && s->partial && s->parts_total && p->level == 2)
		snprintf(part, sizeof part, " (when all SMs are done)");
	else if (s && s->partial && s->parts_total)
		snprintf(part, sizeof part, " (partial: %u/%u SMs)", s->parts_done, s->parts_total);
	else if (s && s->partial)
		snprintf(part, sizeof part, " (partial)");
	snprintf(t0, sizeof t0, "Miss breakdown%s%s", part, x->base ? " vs baseline" : "");
	pane_title(x, p, t0, title, sizeof title);
	draw_frame(&r, title, p->both && p->focused);
	int iw = r.w - 2, cx = r.x + 1, y0 = r.y + 1;
	char line[512], est[48];
	estimate_note(x, p, est, sizeof est);
	if (!s) {
		snprintf(line, sizeof line, "modelling%s... %3.0f%%", x->parts ? " SM by SM" : "",
			 x->progress * 100);
		draw_put(y0 + 3, cx + 1, iw - 1, E_PENDING, line);
		if (*est) {
			snprintf(line, sizeof line, "miss rate%s from the reuse profile (binomial)", est);
			draw_put(y0 + 5, cx + 1, iw - 1, E_VALUE, line);
		}
		return;
	}
	if (s->status != RD_OK) {
		snprintf(line, sizeof line, "model error: %.480s",
			 *s->err ? s->err : rd_strerror(s->status));
		draw_put(y0 + 3, cx + 1, iw - 1, E_ERROR, line);
		return;
	}
	if (!p->have_r) { /* the L2's: it runs after every L1 */
		draw_put(y0 + 3, cx + 1, iw - 1, E_PENDING,
			 s->partial && s->parts_total ? "the L2 merges every SM's requests in "
							"time: when all SMs are done"
			 : s->partial ? "the L2 runs after every L1: pending"
				      : "no L2 result (the model gave none)");
		if (p->metrics && y0 + 5 < r.y + r.h - 1) {
			metrics_line(x, iw, line, sizeof line);
			draw_put(y0 + 5, cx, iw, E_VALUE, line);
		}
		return;
	}
	const rd_result *R = &p->R;
	const rd_result *B = p->have_b ? &p->B : NULL;
	/* Columns: glyph, name, [count], share, then a bar, or the deltas. */
	int with_count = !B || iw >= 50;
	int rows[RD_NCLASS + 1], nrows = shown_rows(&p->cfg, p->level, rows), nw = 10;
	for (int k = 0; k < nrows; k++)
		if (draw_width(class_glosses[rows[k]].name) > nw)
			nw = draw_width(class_glosses[rows[k]].name);
	for (int k = 0; k < nrows; k++) {
		int row = rows[k], y = y0 + k, c = 0;
		c += draw_put(y, cx + c, iw - c, row_elem(row), row_glyph(row));
		snprintf(line, sizeof line, " %-*s", nw, class_glosses[row].name);
		c += draw_put(y, cx + c, iw - c, E_LABEL, line);
		if (p->partial && row > 0) {
			draw_put(y, cx + c, iw - c, E_PENDING, "       pending");
			continue;
		}
		uint64_t n = row_count(R, row);
		double p = draw_pct(n, R->requests);
		if (with_count) {
			snprintf(line, sizeof line, "%8llu", (unsigned long long)n);
			c += draw_put(y, cx + c, iw - c, E_VALUE, line);
		}
		snprintf(line, sizeof line, " %6.2f%%", p);
		c += draw_put(y, cx + c, iw - c, E_VALUE, line);
		if (B) {
			uint64_t bn = row_count(B, row);
			double dp = p - draw_pct(bn, B->requests);
			int64_t dn = (int64_t)(n - bn);
			/* Fewer misses or more hits is better. */
			int better = row == 0 ? dp > 0.005 : dp < -0.005;
			int worse = row == 0 ? dp < -0.005 : dp > 0.005;
			enum ui_elem e = better ? E_BETTER : worse ? E_WORSE : E_VALUE;
			char d[32];
			snprintf(line, sizeof line, " %+6.2fpp", fabs(dp) < 0.005 ? 0.0 : dp);
			c += draw_put(y, cx + c, iw - c, e, line);
			fmt_delta(dn, d, sizeof d);
			snprintf(line, sizeof line, " %7s", d);
			draw_put(y, cx + c, iw - c, e, line);
			continue;
		}
		int bw = iw - c - 1;
		/* A wide pane has room for what the class means, after its bar. */
		const char *gloss = class_glosses[row].gloss;
		int gw = draw_width(gloss) + 2;
		if (bw - gw >= 20) {
			bw -= gw;
			draw_put(y, cx + c + 1 + bw + 2, gw - 2, E_DERIVED, gloss);
		}
		if (bw > 0) {
			int len = (int)lround(p / 100.0 * bw);
			if (len == 0 && n > 0)
				len = 1;
			draw_fill(y, cx + c + 1, len, row_elem(row), row_glyph(row));
		}
	}
	/* The stacked bars: now (and the baseline). */
	int y = y0 + nrows + (B ? 0 : 1);
	if (B) {
		draw_put(y, cx, iw, E_LABEL, " now ");
		stacked_bar(y, cx + 6, iw - 7, R, p->partial);
		draw_put(y + 1, cx, iw, E_LABEL, " base");
		stacked_bar(y + 1, cx + 6, iw - 7, B, 0);
	} else {
		stacked_bar(y, cx + 1, iw - 2, R, p->partial);
	}
	/* The miss rates: without latency misses (the hardware's view) and with. */
	y = y0 + nrows + 2;
	char rate[96], all[64];
	if (p->partial)
		snprintf(rate, sizeof rate, "miss rate (pending)%s", est);
	else
		snprintf(rate, sizeof rate, "miss rate %.2f%%%s", R->miss_rate * 100, est);
	snprintf(all, sizeof all, "%.2f%%", R->miss_rate_all * 100);
	const char *dl = theme_g()->delta;
	if (B) {
		char d1[48], d2[48];
		snprintf(d1, sizeof d1, "%s%+.2fpp", dl, (R->miss_rate - B->miss_rate) * 100);
		snprintf(d2, sizeof d2, "%s%+.2fpp", dl, (R->miss_rate_all - B->miss_rate_all) * 100);
		snprintf(line, sizeof line, " %s %s  with latency %s %s", rate, p->partial ? "" : d1,
			 all, d2);
		if (draw_width(line) > iw)
			snprintf(line, sizeof line, " %s %s  all %s", rate, p->partial ? "" : d1, all);
		if (draw_width(line) > iw)
			snprintf(line, sizeof line, " %s %s", rate, p->partial ? "" : d1);
	} else {
		snprintf(line, sizeof line, " %s  with latency misses %s", rate, all);
		if (draw_width(line) > iw)
			snprintf(line, sizeof line, " %s  with latency %s", rate, all);
		if (draw_width(line) > iw)
			snprintf(line, sizeof line, " %s (w/ lat. %s)", rate, all);
	}
	draw_put(y, cx, iw, E_VALUE, line);
	/* The stores, under the miss rates (which are the loads'). */
	if (stores_line(&p->cfg)) {
		if (p->partial)
			snprintf(line, sizeof line, " stores (pending)");
		else if (x->k->nstores && !x->k->store_tid) /* a version 1 or 2 .rdt */
			snprintf(line, sizeof line, " stores: counted only (an old .rdt: convert again)");
		else
			fmt_stores(R, p->cfg.stores, iw, line, sizeof line);
		draw_put(++y, cx, iw, E_VALUE, line);
	}
	/* The loads' sectors, as the profiler counts them: the lesson of
	 * today's L1s (Figure 3 on an H100: 87.5 % per sector where the line
	 * view says 96.9 %) */
	if (sectors_line(&p->cfg, p->level)) {
		if (p->partial || !R->sector_lookups)
			snprintf(line, sizeof line, " sectors (pending)");
		else {
			double sh = rd_result_l1_hit_rate(R);
			/* per line: the sector misses' lines hit */
			double pl = 1 - R->miss_rate +
				    (double)R->cls[RD_CLASS_SECTOR] / (double)R->requests;
			snprintf(line, sizeof line, " sector hit rate %.2f%% (ncu's); per line %.2f%%",
				 sh * 100, pl * 100);
			if (draw_width(line) > iw)
				snprintf(line, sizeof line, " sector hits %.2f%%", sh * 100);
		}
		draw_put(++y, cx, iw, E_VALUE, line);
	}
	/* The measured hit rate beside the model's (--measured FILE): "model
	 * 96.88 %, H100 87.50 %" for a class */
	double ml1;
	if (measured_line(x, p->level, &ml1)) {
		const char *f = strrchr(x->opts->measured_name, '/');
		f = f ? f + 1 : x->opts->measured_name;
		double mh = rd_result_l1_hit_rate(R);
		if (p->partial || isnan(mh))
			snprintf(line, sizeof line, " measured L1 %.2f%% (%s)", ml1 * 100, f);
		else
			snprintf(line, sizeof line, " L1 hit rate: model %.2f%%, measured %.2f%% (%s)",
				 mh * 100, ml1 * 100, f);
		if (draw_width(line) > iw)
			snprintf(line, sizeof line, " model %.2f%%, measured %.2f%%", mh * 100, ml1 * 100);
		draw_put(++y, cx, iw, E_VALUE, line);
	}
	/* RDGC's six metrics, in one line (with an L2). */
	if (p->metrics) {
		metrics_line(x, iw, line, sizeof line);
		draw_put(++y, cx, iw, E_VALUE, line);
	}
}

/* ---------------------------------------------------------------- histogram */

#define YAXIS_W 6

static double scale(double v, double max, int logc)
{
	if (max <= 0)
		return 0;
	return logc ? log1p(v) / log1p(max) : v / max;
}

/* A vertical bar of value frac (0..1) of h rows, bottom at row yb. */
static void vbar(int yb, int x, int w, int h, double frac, enum ui_elem e, int nonzero)
{
	const glyphs *g = theme_g();
	int units = (int)lround(frac * h * 8);
	if (units == 0 && nonzero)
		units = 1;
	for (int row = 0; row < h && units > 0; row++, units -= 8)
		draw_fill(yb - row, x, w, e, g->eighths[units > 8 ? 8 : units]);
}

/* A delta bar: up from the axis row ya for d > 0, down for d < 0. */
static void dbar(int ya, int x, int w, int up, int down, double frac, enum ui_elem e)
{
	int h = frac > 0 ? up : down;
	int cells = (int)lround(fabs(frac) * h);
	if (cells == 0 && frac != 0)
		cells = 1;
	for (int i = 1; i <= cells; i++)
		draw_fill(frac > 0 ? ya - i : ya + i, x, w, e, theme_g()->eighths[8]);
}

/* v in at most w columns (w >= 4), the most digits that fit: 9999,
 * 21.5k, 21k, 1.2M, 12M, ... (a count cut to the width lost its unit:
 * "+21.0" for +21,000). */
static void fmt_axis(uint64_t v, int w, char *buf, size_t len)
{
	static const struct {
		const char *f;
		double div;
	} forms[] = {{"%.0f", 1}, {"%.1fk", 1e3}, {"%.0fk", 1e3}, {"%.1fM", 1e6}, {"%.0fM", 1e6},
		     {"%.1fG", 1e9}, {"%.0fG", 1e9}, {"%.1fT", 1e12}, {"%.0fT", 1e12}};
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		snprintf(buf, len, forms[i].f, (double)v / forms[i].div);
		if ((int)strlen(buf) <= w)
			return;
	}
}

/* The y axis's labels: the scale's top (and bottom, with a baseline). */
static void hist_axis(const hist_plan *hp, int have_b, int y0, int yb, int up, int cx)
{
	char lab[64], lab2[48];
	if (have_b) {
		/* the sign takes a column: the count keeps its unit in the rest */
		fmt_axis((uint64_t)hp->vmax, YAXIS_W - 2, lab2, sizeof lab2);
		snprintf(lab, sizeof lab, "+%.30s", lab2);
		draw_put(y0, cx, YAXIS_W - 1, E_DERIVED, lab);
		draw_put(y0 + up, cx, YAXIS_W - 1, E_DERIVED, "    0");
		snprintf(lab, sizeof lab, "-%.30s", lab2);
		draw_put(yb, cx, YAXIS_W - 1, E_DERIVED, lab);
	} else {
		draw_fmt_count((uint64_t)hp->vmax, lab, sizeof lab);
		snprintf(lab2, sizeof lab2, "%5.30s", lab);
		draw_put(y0, cx, YAXIS_W - 1, E_DERIVED, lab2);
		draw_put(yb, cx, YAXIS_W - 1, E_DERIVED, "    0");
	}
}

/* The line under the histogram: the cut-off and the infinite distances,
 * as long as fits iw columns. */
static void hist_caption(const hist_plan *hp, const rd_config *pc, int have_b, int iw, char *cap,
			 size_t len)
{
	const glyphs *g = theme_g();
	char cnt[32];
	unsigned long long uc = (unsigned long long)hp->cut;
	unsigned long long rc = hp->rc, rg = hp->rg, rf = hp->rf;
	if (have_b) {
		char cf[32];
		fmt_delta((int64_t)hp->rc - (int64_t)hp->bc, cnt, sizeof cnt);
		fmt_delta((int64_t)hp->rf - (int64_t)hp->bf, cf, sizeof cf);
		snprintf(cap, len,
			 " %s requests vs baseline; d<%llu hit %s d>=%llu miss; %s: cold %s, in flight %s",
			 g->delta, uc, g->cut, uc, g->inf, cnt, cf);
		if (draw_width(cap) > iw)
			snprintf(cap, len, " %s vs baseline; cut %llu; cold %s, flight %s", g->delta, uc,
				 cnt, cf);
		if (draw_width(cap) > iw)
			snprintf(cap, len, " %s vs baseline; cut %llu; cold %s", g->delta, uc, cnt);
	} else if (pc->loads == RD_LOADS_BYPASS) {
		snprintf(cap, len, " loads bypass the L1: every one misses; %s: bypassed %llu", g->inf,
			 rg);
	} else if (rg) {
		/* write-evict: the lines stores removed apart from the cold */
		if (!hp->lru)
			snprintf(cap, len,
				 " LRU distances; hits: %s; %s: cold %llu, store-evicted %llu, in "
				 "flight %llu", rd_replacement_name(pc->replacement), g->inf, rc, rg, rf);
		else
			snprintf(cap, len,
				 " d<%llu hit %s d>=%llu miss; %s: cold %llu, store-evicted %llu, in "
				 "flight %llu", uc, g->cut, uc, g->inf, rc, rg, rf);
		if (draw_width(cap) > iw && hp->lru)
			snprintf(cap, len, " d<%llu hit %s d>=%llu miss; %s: cold %llu, evicted %llu, "
				 "flight %llu", uc, g->cut, uc, g->inf, rc, rg, rf);
		if (draw_width(cap) > iw)
			snprintf(cap, len, " %s cold %llu, evicted %llu, in flight %llu", g->inf, rc, rg,
				 rf);
		if (draw_width(cap) > iw)
			snprintf(cap, len, " %s cold %llu+%llu+%llu", g->inf, rc, rg, rf);
	} else if (!hp->lru) {
		snprintf(cap, len, " LRU distances; hits and misses: %s; %s cold %llu+%llu",
			 rd_replacement_name(pc->replacement), g->inf, rc, rf);
		if (draw_width(cap) > iw)
			snprintf(cap, len, " LRU distances; hits: %s",
				 rd_replacement_name(pc->replacement));
	} else {
		snprintf(cap, len, " d<%llu hit %s d>=%llu miss; %s: cold %llu, in flight %llu (i explains)",
			 uc, g->cut, uc, g->inf, rc, rf);
		if (draw_width(cap) > iw)
			snprintf(cap, len, " d<%llu hit %s d>=%llu miss; %s cold %llu+%llu", uc, g->cut,
				 uc, g->inf, rc, rf);
		if (draw_width(cap) > iw)
			snprintf(cap, len, " d<%llu hit %s d>=%llu miss; cold %llu", uc, g->cut, uc, rc);
	}
}

static void draw_hist(explorer *x, const pane *p)
{
	rect r = p->hist;
	const snap *s = p->s;
	const rd_result *B = p->have_b ? &p->B : NULL;
	const rd_config *pc = &p->cfg;
	char title[200], t0[160];
	int iw = r.w - 2, ih = r.h - 2, cx = r.x + 1, y0 = r.y + 1;
	int hfocus = x->focus == F_HIST && p->focused;
	if (!s || s->status != RD_OK || !p->have_r) {
		pane_title(x, p, "Reuse distance", title, sizeof title);
		draw_frame(&r, title, hfocus);
		if (!s || (s->status == RD_OK && s->partial))
			draw_put(y0 + ih / 2, cx + 1, iw - 1, E_PENDING,
				 s && s->parts_total ? "the L2: when all SMs are done" : "modelling...");
		return;
	}
	size_t *first = p->first;
	int coldw = 7; /* separator, gap, 2-column cold bar, gap, in-flight bar */
	int aw = iw - YAXIS_W - coldw;
	static hist_plan hp;
	hist_plan_make(&p->R, B, pc, aw, &hp);
	int hlog = P(x)->hist_log;
	/* Under stores the histogram stays the loads' (rd_result.hist_w, the
	 * stores', is not drawn): the title says so. */
	snprintf(t0, sizeof t0, "%s%s distance%s%s%s", B ? theme_g()->delta : "",
		 B ? " reuse" : "Reuse", pc->stores != RD_STORES_IGNORE ? " of loads" : "",
		 hp.log_bins ? ", log2 bins" : "", hlog ? ", log y" : "");
	if (with_l2(x) && B)
		snprintf(title, sizeof title, "L%d %s", p->level, t0);
	else
		pane_title(x, p, t0, title, sizeof title);
	draw_frame(&r, title, hfocus);
	if (ih < 4 || aw < 8)
		return;
	if (*first > hp.last_first)
		*first = hp.last_first;
	int bh = ih - 2;           /* bar rows */
	int yb = y0 + bh - 1;      /* bottom bar row */
	int ylab = y0 + bh;        /* labels */
	int x0 = cx + YAXIS_W;
	int up = (bh - 1) / 2, down = bh - 1 - up, yaxis = y0 + up;
	hist_axis(&hp, B != NULL, y0, yb, up, cx);
	if (B)
		draw_fill(yaxis, x0, aw, E_BORDER, theme_g()->hline);
	/* Bins. */
	const glyphs *g = theme_g();
	int px = x0, next_label = x0;
	int colw = hp.colw;
	char lab[64];
	size_t i;
	for (i = *first; i < hp.nb; i++) {
		const hist_bin *bn = &hp.bins[i];
		int need = colw + (i == hp.cut_bin);
		if (px + need > x0 + aw)
			break;
		if (i == hp.cut_bin) {
			for (int row = 0; row < bh; row++)
				draw_put(y0 + row, px, 1, E_CUTOFF, g->cut);
			px++;
		}
		enum ui_elem e = !hp.lru ? E_VALUE : bn->miss ? E_CAPACITY : E_HIT;
		double v = hp.val[i], f = scale(fabs(v), hp.vmax, hlog);
		if (B) {
			int worse = bn->miss ? v > 0 : v < 0;
			if (v != 0)
				dbar(yaxis, px, colw - 1, up, down, v > 0 ? f : -f,
				     worse ? E_WORSE : E_BETTER);
		} else {
			vbar(yb, px, colw - 1, bh, f, e, bn->count > 0);
		}
		hist_label(bn->lo, lab, sizeof lab);
		if (px >= next_label && px + draw_width(lab) <= x0 + aw) {
			draw_put(ylab, px, colw + 2, E_LABEL, lab);
			next_label = px + draw_width(lab) + 1;
		}
		px += colw;
	}
	if (*first > 0)
		draw_put(ylab, x0 - 1, 1, E_FOCUS, g->more_l);
	if (i < hp.nb)
		draw_put(ylab, x0 + aw - 1, 1, E_FOCUS, g->more_r);
	/* Infinite distances, apart: cold, then in flight. */
	int xc = cx + iw - coldw;
	for (int row = 0; row < bh; row++)
		draw_put(y0 + row, xc, 1, E_BORDER, g->vline);
	const double inf_v[2] = {hp.cold, hp.fly};
	const enum ui_elem inf_e[2] = {E_COLD, E_CLASS(RD_CLASS_LATENCY)};
	for (int k = 0; k < 2; k++) {
		int xb = xc + 2 + 3 * k;
		if (B) {
			if (inf_v[k] != 0)
				dbar(yaxis, xb, 2, up, down,
				     (inf_v[k] > 0 ? 1 : -1) * scale(fabs(inf_v[k]), hp.vmax, hlog),
				     inf_v[k] > 0 ? E_WORSE : E_BETTER);
		} else {
			vbar(yb, xb, 2, bh, scale(inf_v[k], hp.vmax, hlog), inf_e[k], inf_v[k] > 0);
		}
	}
	draw_put(ylab, xc + 3, 4, E_LABEL, g->inf);
	char cap[256];
	hist_caption(&hp, pc, B != NULL, iw, cap, sizeof cap);
	draw_put(ylab + 1, cx, iw, E_DERIVED, cap);
}


/* ---------------------------------------------------------------- view */

static void draw(explorer *x, const rect *r, int flags)
{
	(void)r; /* the layout's bars and hist, which make up r */
	pane p[2];
	int n = panes_of(x, p);
	for (int i = 0; i < n; i++) {
		/* the levels' panes share the rows: both drawn when either is */
		if (flags & (n > 1 ? R_BARS | R_HIST : R_BARS))
			draw_bars(x, &p[i]);
		if (flags & (n > 1 ? R_BARS | R_HIST : R_HIST))
			draw_hist(x, &p[i]);
	}
}

/* 2: the other level: its panes and its parameters (the L2's while there
 * is none yet: l2.size, to make one). */
static int key_level(explorer *x)
{
	if (x->cfg.model == RD_PROFILE_REF2013) {
		x->level = 1;
		explorer_message(x, 1, "no L2: the reference-2013 profile models the L1 only");
		return R_STATUS;
	}
	x->level = x->level == 2 ? 1 : 2;
	/* the selection: the level's first row (l2.size), or back to the L1's */
	size_t rows[PARAM_ROWS_MAX], n = param_visible(&x->cfg, x->level, rows, PARAM_ROWS_MAX);
	x->sel = 0;
	for (size_t k = 0; k < n; k++)
		if (param_editable(rows[k])) {
			x->sel = rows[k];
			break;
		}
	x->params_top = 0;
	explorer_speculate(x);
	if (x->level == 2 && !with_l2(x))
		explorer_message(x, 0, "the L2's parameters: l2.size > 0 adds a shared L2 (2: back)");
	else
		explorer_message(x, 0, "focus: the %s", x->level == 2 ? "L2 (2: back to the L1)" : "L1");
	return R_ALL;
}

/* B: the L1B pair on or off. */
static int key_l1b(explorer *x)
{
	if (x->parts) {
		explorer_message(x, 1, "this kernel is modelled SM by SM: the L1B pair is not (its "
				       "L1-off run would need the whole kernel's accesses at once)");
		return R_STATUS;
	}
	P(x)->l1b_on = !P(x)->l1b_on;
	if (!P(x)->l1b_on) {
		snap_unref(P(x)->l1b);
		P(x)->l1b = NULL;
		P(x)->asked = 0;
		explorer_message(x, 0, "L1B pair off");
	} else {
		explorer_message(x, 0, with_l2(x) ? "L1B pair: a second run with every L1 off"
						  : "L1B pair on: it needs an L2 (l2.size)");
	}
	return R_BARS | R_HIST | R_STATUS;
}

static int key(explorer *x, enum key_id id)
{
	size_t *first = x->level == 2 && with_l2(x) ? &P(x)->hist_first_l2 : &P(x)->hist_first;
	switch (id) {
	case K_YSCALE:
		P(x)->hist_log = !P(x)->hist_log;
		return R_HIST;
	case K_SCROLL_L:
		if (*first > 0)
			(*first)--;
		return R_HIST;
	case K_SCROLL_R:
		(*first)++; /* clamped when drawn */
		return R_HIST;
	case K_LEVEL:
		return key_level(x);
	case K_L1B:
		return key_l1b(x);
	default:
		return -1;
	}
}

/* The L1B run of the configuration on screen, when asked for (B); the
 * reuse profile of a long input. */
static void request(explorer *x)
{
	/* a long input's geometry edits are estimated at once (estimate_note) */
	if (x->k->nloads >= EXPLORER_PROFILE_AUTO_LOADS)
		explorer_want_profile(x);
	if (!P(x)->l1b_on || !with_l2(x) || P(x)->asked == x->gen)
		return;
	if (P(x)->l1b && rd_config_equal(&P(x)->l1b->cfg, &x->cfg))
		return;
	worker_submit_job(x->w, JOB_L1B, x->gen, &x->cfg, NULL);
	P(x)->asked = x->gen;
}

static int result(explorer *x, snap *s)
{
	if (s->kind != JOB_L1B)
		return R_NONE;
	snap_unref(P(x)->l1b);
	P(x)->l1b = snap_ref(s);
	return R_BARS | R_HIST;
}

static int ready(const explorer *x)
{
	return !P(x)->l1b_on || !with_l2(x) ||
	       (P(x)->l1b && rd_config_equal(&P(x)->l1b->cfg, &x->cfg));
}

/* A new kernel's histogram starts at its first bin. */
static void drop(explorer *x)
{
	P(x)->hist_first = P(x)->hist_first_l2 = 0;
	snap_unref(P(x)->l1b);
	P(x)->l1b = NULL;
	P(x)->asked = 0;
}

/* The first screen says what it shows and which key explains it. */
static const char *hint(const explorer *x)
{
	return x->lay.cols >= 100 ? "each request's hit or miss, and why: i explains "
				  : "i explains ";
}

const view_ops view_breakdown = {
	.name = "breakdown",
	.desc = "the panes: each level's misses by class as bars, and its reuse distances as a "
		"histogram with the hit/miss cut-off, beside the parameters",
	.priv_size = sizeof(panes_priv),
	.draw = draw, .key = key, .request = request, .result = result, .ready = ready,
	.drop = drop, .hint = hint,
};
