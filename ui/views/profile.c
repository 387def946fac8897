/*
 * The reuse profile (seed 003, MLCRP): the kernel's distances in a fully
 * associative LRU stack of lines, latency-free, as `rdscope profile`
 * measures them, drawn in log2 buckets with the current cache's lines
 * marked (a fully associative cache of that many lines hits exactly the
 * buckets left of the mark); below, the profile per interval of the run
 * as a heat map over time (phases a whole-trace profile hides, MLCRP
 * Figure 2); last, the estimates of the current geometry from the profile
 * alone beside the model's exact result. Data: a JOB_PROFILE run of the
 * configuration's rprof_key, kept while the key stays (a size, ways, hash,
 * latency or MSHR edit keeps it; a line size edit does not). The
 * breakdown pane shows the estimate too once the profile is in. May
 * include and call the state (explorer/state.h), draw, rpchart, rprof,
 * theme.
 */
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "explorer/state.h"
#include "rpchart.h"
#include "rprof.h"
#include "view.h"

#define CHART_H 6
#define CHART_H_MAX 14

/* The first of n texts that fits w columns (else the last, cut) at (y, x). */
static void put_fit(int y, int x, int w, enum ui_elem e, int n, char t[][160])
{
	int i = 0;
	while (i + 1 < n && draw_width(t[i]) > w)
		i++;
	draw_put(y, x, w, e, t[i]);
}

/* The profile's rows: the one measured for the configuration on screen,
 * or NULL while there is none. */
static const rprof *held(const explorer *x)
{
	if (!x->prof || x->prof->status != RD_OK || !x->prof->prof)
		return NULL;
	rd_config k;
	rprof_key(&x->cfg, &k);
	return rd_config_equal(&x->prof->prof->key, &k) ? x->prof->prof : NULL;
}

/* Each interval's share of each bucket, darker for more; rows from the
 * longest distances (top) to 0, cold last; adjacent intervals share a
 * column when there are more than fit. */
static void draw_heat(const rprof *p, int nb, int y, int x0, int w, int h)
{
	const glyphs *g = theme_g();
	int cols = w - 6 < p->ncols ? w - 6 : p->ncols;
	if (cols < 1 || h < 2)
		return;
	/* rows: buckets per row so that they fit */
	int per = (nb + h - 1) / h;
	int rows = (nb + per - 1) / per;
	for (int r = 0; r < rows; r++) {
		int b0 = (rows - 1 - r) * per; /* cold (0) at the bottom */
		int b1 = b0 + per < nb ? b0 + per : nb;
		char lab[32];
		if (b0 == 0 && per > 1)
			snprintf(lab, sizeof lab, "%s,0", theme_g()->inf); /* the cold and 0 */
		else
			rpchart_label(b0, lab, sizeof lab);
		draw_put(y + r, x0, 5, E_DERIVED, lab);
		draw_put(y + r, x0 + 5, 1, E_BORDER, g->vline);
		for (int c = 0; c < cols; c++) {
			int i0 = c * p->ncols / cols, i1 = (c + 1) * p->ncols / cols;
			uint64_t in = 0, all = 0;
			for (int i = i0; i < i1; i++)
				for (int b = 0; b < RPROF_BUCKETS; b++) {
					all += p->col[i][b];
					if (b >= b0 && b < b1)
						in += p->col[i][b];
				}
			double f = all ? (double)in / (double)all : 0;
			int lv = !in ? 0 : f < 0.05 ? 1 : f < 0.15 ? 2 : f < 0.35 ? 3 : 4;
			enum ui_elem el = lv ? (enum ui_elem)(E_HEAT1 + lv - 1) : E_DERIVED;
			draw_fill(y + r, x0 + 6 + c, 1, el, g->heat[lv]);
		}
	}
}

static void draw(explorer *x, const rect *r, int flags)
{
	if (!(flags & (R_BARS | R_HIST)))
		return;
	const rprof *p = held(x);
	draw_frame(r, p ? "Reuse profile" : "Reuse profile (measuring)", 0);
	int iw = r->w - 2, x0 = r->x + 1, y = r->y + 1, yend = r->y + r->h - 1;
	char t[3][160];
	if (x->prof && x->prof->status != RD_OK && !p) {
		draw_put(y + 2, x0 + 1, iw - 1, E_ERROR, rd_strerror(x->prof->status));
		return;
	}
	if (!p) {
		draw_put(y + 2, x0 + 1, iw - 1, E_PENDING,
			 "measuring each request's distance, fully associative, no latency...");
		return;
	}
	uint32_t sets = rd_config_sets(&x->cfg);
	uint64_t lines = (uint64_t)sets * x->cfg.l1_ways;
	char req[16];
	draw_fmt_count(p->requests, req, sizeof req);
	snprintf(t[0], sizeof t[0], " %llu requests, cold %.1f%%, max distance %u, %u peak%s",
		 (unsigned long long)p->requests, draw_pct(p->cold, p->requests), rprof_max_rd(p),
		 rprof_peaks(p), rprof_peaks(p) == 1 ? "" : "s");
	snprintf(t[1], sizeof t[1], " %s req, cold %.1f%%, max RD %u, %u peak%s", req,
		 draw_pct(p->cold, p->requests), rprof_max_rd(p), rprof_peaks(p),
		 rprof_peaks(p) == 1 ? "" : "s");
	snprintf(t[2], sizeof t[2], " %s req, cold %.1f%%, %u peak%s", req,
		 draw_pct(p->cold, p->requests), rprof_peaks(p), rprof_peaks(p) == 1 ? "" : "s");
	put_fit(y++, x0, iw, E_VALUE, 3, t);
	int nb = rprof_nbuckets(p);
	/* rows: chart + labels + legend, the heat map's title and rows, the
	 * estimates (3) */
	int rest = yend - y;
	int h = rest - 2 - 1 - 4 - (nb < 8 ? nb : 8);
	if (h > CHART_H_MAX)
		h = CHART_H_MAX;
	if (h < CHART_H)
		h = CHART_H;
	if (y + h + 1 <= yend) {
		double v[RPROF_BUCKETS];
		for (int b = 0; b < nb; b++)
			v[b] = (double)rprof_bucket_count(p, b) / (double)p->requests;
		rpchart_draw(v, nb, lines, y, x0, iw, h);
		y += h + 1;
	}
	snprintf(t[0], sizeof t[0], " distance in %u-byte lines; left of %s: hits if fully "
		 "associative", x->cfg.l1_line, theme_g()->cut);
	snprintf(t[1], sizeof t[1], " distance in lines; %s: the cache's %llu", theme_g()->cut,
		 (unsigned long long)lines);
	snprintf(t[2], sizeof t[2], " %s: %llu lines", theme_g()->cut, (unsigned long long)lines);
	if (y < yend)
		put_fit(y++, x0, iw, E_DERIVED, 3, t);
	/* the estimates, at the bottom */
	int ey = yend - (x->opts->learned ? 4 : 3);
	int hh = ey - y - 1;
	if (hh >= 2) {
		snprintf(t[0], sizeof t[0], " over time: %d intervals of %llu requests of each core",
			 p->ncols, (unsigned long long)p->every);
		snprintf(t[1], sizeof t[1], " over time: %d x %llu requests", p->ncols,
			 (unsigned long long)p->every);
		put_fit(y++, x0, iw, E_LABEL, 2, t);
		draw_heat(p, nb, y, x0, iw, hh);
	}
	if (ey <= r->y)
		return;
	double bin, fa;
	snprintf(t[0], sizeof t[0], " estimates for %u set%s x %u ways (%llu lines), miss rate:",
		 sets, sets == 1 ? "" : "s", x->cfg.l1_ways, (unsigned long long)lines);
	snprintf(t[1], sizeof t[1], " miss rate of %u x %u ways:", sets, x->cfg.l1_ways);
	put_fit(ey++, x0, iw, E_LABEL, 2, t);
	if (rprof_estimate(p, &x->cfg, &bin, &fa) == 0) {
		snprintf(t[0], sizeof t[0], "   binomial (SDCM-style) %.2f%%   fully associative %.2f%%",
			 (1 - bin) * 100, (1 - fa) * 100);
		snprintf(t[1], sizeof t[1], "  binomial %.2f%%  fully assoc. %.2f%%", (1 - bin) * 100,
			 (1 - fa) * 100);
	} else {
		snprintf(t[0], sizeof t[0], "   n/a (no whole number of sets)");
		snprintf(t[1], sizeof t[1], "  n/a");
	}
	put_fit(ey++, x0, iw, E_VALUE, 2, t);
	double lm, lmerge;
	if (x->opts->learned && ey < yend - 1 &&
	    rprof_learned(p, &x->cfg, x->opts->learned, &lm, &lmerge) == 0) {
		snprintf(t[0], sizeof t[0], "   learned (MLCRP) %.2f%%, merge rate %.2f%%", lm * 100,
			 lmerge * 100);
		snprintf(t[1], sizeof t[1], "  learned %.2f%%", lm * 100);
		put_fit(ey++, x0, iw, E_VALUE, 2, t);
	}
	const snap *s = x->cur;
	if (s && s->status == RD_OK && !s->partial) {
		snprintf(t[0], sizeof t[0], "   exact: the model %.2f%% (with latency misses %.2f%%)",
			 s->res.miss_rate * 100, s->res.miss_rate_all * 100);
		snprintf(t[1], sizeof t[1], "  the model %.2f%% (w/ lat. %.2f%%)",
			 s->res.miss_rate * 100, s->res.miss_rate_all * 100);
	} else {
		snprintf(t[0], sizeof t[0], "   exact: the model is running");
		snprintf(t[1], sizeof t[1], "  the model: running");
	}
	put_fit(ey, x0, iw, E_VALUE, 2, t);
}

/* Ask for the profile of the configuration on screen unless it is held
 * or asked for already (explorer/state.h: explorer_want_profile). */
static void request(explorer *x)
{
	explorer_want_profile(x);
}

static int key(explorer *x, enum key_id id)
{
	return id == K_PROFILE ? explorer_toggle_view(x, V_PROFILE) : -1;
}

static int result(explorer *x, snap *s)
{
	if (s->kind != JOB_PROFILE)
		return R_NONE;
	rd_config k;
	rprof_key(&x->cfg, &k);
	if (!rd_config_equal(&s->cfg, &k))
		return R_NONE;
	snap_unref(x->prof);
	x->prof = snap_ref(s);
	if (s->status != RD_OK)
		explorer_message(x, 1, "profile: %s", rd_strerror(s->status));
	return R_BARS | R_HIST;
}

static int ready(const explorer *x)
{
	return held(x) || (x->prof && x->prof->status != RD_OK);
}

static void drop(explorer *x)
{
	snap_unref(x->prof);
	x->prof = NULL;
	x->prof_asked = 0;
}

static const char *hint(const explorer *x)
{
	(void)x;
	return "R or Esc: back ";
}

const view_ops view_profile = {
	.accesses = 1,
	.name = "profile", .params_focus = 1,
	.desc = "the reuse profile: each request's distance in a fully associative stack, "
		"latency-free, in log2 buckets and per interval over time, with the binomial and "
		"fully associative estimates of the geometry on screen beside the model's result",
	.draw = draw, .key = key, .request = request, .result = result, .ready = ready,
	.drop = drop, .hint = hint,
};
