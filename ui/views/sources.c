/*
 * The sources view: which load causes the misses (issue 25). Beside the
 * parameters pane, the kernel's source sites (a description's load
 * references, a trace's PCs, or per-thread load numbers) sorted by
 * misses, each with a bar in the breakdown's colours; below, the selected
 * site's own breakdown and reuse distances (log2 bins), so a change of a
 * parameter can be judged load by load. Data: a JOB_SITES run of the
 * configuration on screen (the breakdown with rd_callbacks.by_site),
 * asked for while the view is on screen; the list re-sorts with every
 * result. May include and call the state (explorer/state.h), draw, info,
 * theme.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "explorer/state.h"
#include "info.h"
#include "theme.h"
#include "view.h"

/* The sites with requests, most misses first (ties: more requests, then
 * site order): their indices into res.sites, n of them (at most max). */
static size_t sorted_sites(const rd_result *R, uint32_t *idx, size_t max)
{
	size_t n = 0;
	for (uint32_t i = 0; i < R->nsites && n < max; i++)
		if (R->sites[i].requests)
			idx[n++] = i;
	/* insertion sort: a screenful of sites, re-sorted per result */
	for (size_t i = 1; i < n; i++) {
		uint32_t v = idx[i];
		const rd_site_result *a = &R->sites[v];
		size_t j = i;
		while (j > 0) {
			const rd_site_result *b = &R->sites[idx[j - 1]];
			if (b->misses > a->misses ||
			    (b->misses == a->misses && (b->requests > a->requests ||
							(b->requests == a->requests && idx[j - 1] < v))))
				break;
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = v;
	}
	return n;
}

/* One stacked bar of w columns: hits, then each miss class. */
static void site_bar(int y, int x0, int w, const rd_site_result *s)
{
	if (w <= 0 || !s->requests)
		return;
	const glyphs *g = theme_g();
	uint64_t part[RD_NCLASS + 1];
	part[0] = s->hits;
	for (int c = 0; c < RD_NCLASS; c++)
		part[c + 1] = s->cls[c];
	int cx = x0;
	uint64_t acc = 0;
	for (int i = 0; i <= RD_NCLASS; i++) {
		uint64_t before = acc * (uint64_t)w / s->requests;
		acc += part[i];
		int cells = (int)(acc * (uint64_t)w / s->requests - before);
		if (cells > 0)
			draw_fill(y, cx, cells, i ? E_CLASS(i - 1) : E_HIT, i ? g->cls[i - 1] : g->hit);
		cx += cells > 0 ? cells : 0;
	}
}

/* A bin's label: "  0", "  4-7", "  ∞" (b == RD_SITE_BINS). */
static void bin_label(int b, char *buf, size_t len)
{
	uint64_t lo = b == 0 ? 0 : 1ull << (b - 1), hi = b == 0 ? 0 : (1ull << b) - 1;
	if (b == RD_SITE_BINS)
		snprintf(buf, len, "  %s", theme_g()->inf);
	else if (lo == hi)
		snprintf(buf, len, "  %llu", (unsigned long long)lo);
	else
		snprintf(buf, len, "  %llu-%llu", (unsigned long long)lo, (unsigned long long)hi);
}

/* The selected site's breakdown and reuse distances. */
static void draw_detail(const explorer *x, const rd_site_result *s, const char *label, int y,
			int yend, int x0, int w)
{
	char line[256];
	snprintf(line, sizeof line, " %s: %llu requests, %llu misses (%.2f%%)", label,
		 (unsigned long long)s->requests, (unsigned long long)s->misses,
		 draw_pct(s->misses, s->requests));
	if (y < yend)
		draw_put(y++, x0, w, E_VALUE, line);
	for (int c = 0; c < RD_NCLASS && y < yend; c++) {
		if (!s->cls[c])
			continue;
		int col = 0;
		col += draw_put(y, x0 + col, w - col, E_CLASS(c), theme_g()->cls[c]);
		snprintf(line, sizeof line, " %-10s %10llu  %s", class_glosses[c + 1].name,
			 (unsigned long long)s->cls[c], class_glosses[c + 1].gloss);
		draw_put(y++, x0 + col, w - col, E_LABEL, line);
	}
	/* Distances in log2 bins, as bars of the rest of the width. */
	uint64_t max = s->hist_inf;
	for (int b = 0; b < RD_SITE_BINS; b++)
		if (s->hist[b] > max)
			max = s->hist[b];
	uint64_t cut = x->cur ? x->cur->cfg.l1_ways : 0;
	int col = 0; /* the widest label of a bin shown, and a blank */
	for (int b = 0; b <= RD_SITE_BINS; b++)
		if (b < RD_SITE_BINS ? s->hist[b] : s->hist_inf) {
			bin_label(b, line, sizeof line);
			if (draw_width(line) + 1 > col)
				col = draw_width(line) + 1;
		}
	if (y < yend)
		draw_put(y++, x0, w, E_LABEL, " reuse distance (log2 bins)");
	for (int b = 0; b <= RD_SITE_BINS && y < yend; b++) {
		uint64_t v = b < RD_SITE_BINS ? s->hist[b] : s->hist_inf;
		if (!v)
			continue;
		uint64_t hi = b == 0 ? 0 : (1ull << b) - 1;
		bin_label(b, line, sizeof line);
		draw_put(y, x0, w, E_DERIVED, line);
		char cnt[32];
		draw_fmt_count(v, cnt, sizeof cnt);
		int bw = w - col - 8;
		int len = bw > 0 && max ? (int)((double)v / (double)max * bw + 0.5) : 0;
		if (len == 0 && bw > 0)
			len = 1;
		/* left of the cut-off hits, right of it misses (paper profile) */
		enum ui_elem e = b == RD_SITE_BINS ? E_COLD : hi < cut ? E_HIT : E_CAPACITY;
		draw_fill(y, x0 + col, len, e, theme_g()->eighths[8]);
		snprintf(line, sizeof line, " %s", cnt);
		draw_put(y++, x0 + col + len, w - col - len, E_VALUE, line);
	}
}

static void draw(explorer *x, const rect *r, int flags)
{
	if (!(flags & (R_BARS | R_HIST)))
		return;
	const snap *s = x->sites;
	int fresh = s && rd_config_equal(&s->cfg, &x->cfg);
	draw_frame(r, fresh ? "Sources: misses by load site" : "Sources (running)", 0);
	int iw = r->w - 2, x0 = r->x + 1, y = r->y + 1, yend = r->y + r->h - 1;
	if (!s) {
		draw_put(y + 2, x0 + 1, iw - 1, E_PENDING, "modelling...");
		return;
	}
	if (s->status != RD_OK) {
		draw_put(y + 2, x0 + 1, iw - 1, E_ERROR, rd_strerror(s->status));
		return;
	}
	const rd_result *R = &s->res;
	static uint32_t idx[4096];
	size_t n = sorted_sites(R, idx, sizeof idx / sizeof idx[0]);
	if (!n) {
		draw_put(y + 2, x0 + 1, iw - 1, E_DERIVED, "no loads");
		return;
	}
	if (x->site_sel >= (int)n)
		x->site_sel = (int)n - 1;
	if (x->site_sel < 0)
		x->site_sel = 0;
	/* The list: half the pane at most, scrolled to keep the selection. */
	int rows = (yend - y) / 2 - 1;
	if (rows < 3)
		rows = 3;
	int top = x->site_sel >= rows ? x->site_sel - rows + 1 : 0;
	char line[256], label[160];
	snprintf(line, sizeof line, " %zu site%s, most misses first ([ ] select)", n,
		 n == 1 ? "" : "s");
	draw_put(y++, x0, iw, E_LABEL, line);
	int lw = iw / 2 - 2 > 12 ? iw / 2 - 2 : 12;
	for (int i = top; i < (int)n && i < top + rows && y < yend; i++, y++) {
		const rd_site_result *st = &R->sites[idx[i]];
		rd_kernel_site_label(x->k, idx[i], label, sizeof label);
		int sel = i == x->site_sel;
		int c = draw_put(y, x0, iw, sel ? E_FOCUS : E_NORMAL, sel ? theme_g()->sel : " ");
		snprintf(line, sizeof line, "%-*.*s", lw, lw, label);
		c += draw_put(y, x0 + c, iw - c, sel ? E_SELECTED : E_LABEL, line);
		snprintf(line, sizeof line, " %6.2f%% ", draw_pct(st->misses, st->requests));
		c += draw_put(y, x0 + c, iw - c, E_VALUE, line);
		site_bar(y, x0 + c, iw - c - 1, st);
	}
	if (y < yend)
		y++;
	const rd_site_result *st = &R->sites[idx[x->site_sel]];
	rd_kernel_site_label(x->k, idx[x->site_sel], label, sizeof label);
	draw_detail(x, st, label, y, yend, x0, iw);
}

static int key(explorer *x, enum key_id id)
{
	switch (id) {
	case K_SOURCES:
		return explorer_toggle_view(x, V_SOURCES);
	case K_SITE_PREV:
		if (x->view != V_SOURCES)
			return -1;
		if (x->site_sel > 0)
			x->site_sel--;
		return R_BARS | R_HIST;
	case K_SITE_NEXT:
		if (x->view != V_SOURCES)
			return -1;
		x->site_sel++; /* clamped when drawn */
		return R_BARS | R_HIST;
	default:
		return -1;
	}
}

static int fits(const explorer *x)
{
	return x->sites && rd_config_equal(&x->sites->cfg, &x->cfg);
}

static void request(explorer *x)
{
	if (x->cfg.model == RD_PROFILE_REF2013)
		return; /* no per-site breakdown (the 2013 code's totals) */
	if (!fits(x) && x->asked[JOB_SITES] != x->gen) {
		x->asked[JOB_SITES] = x->gen;
		worker_submit_job(x->w, JOB_SITES, x->gen, &x->cfg, "");
	}
}

static int result(explorer *x, snap *s)
{
	if (s->kind != JOB_SITES)
		return R_NONE;
	snap_unref(x->sites);
	x->sites = snap_ref(s);
	return x->view == V_SOURCES ? R_BARS | R_HIST : R_NONE;
}

static int ready(const explorer *x)
{
	return x->cfg.model == RD_PROFILE_REF2013 || fits(x);
}

static void drop(explorer *x)
{
	snap_unref(x->sites);
	x->sites = NULL;
	x->site_sel = 0;
}

static const char *hint(const explorer *x)
{
	(void)x;
	return "[ ] select a site  L back ";
}

const view_ops view_sources = {
	.name = "sources", .params_focus = 1,
	.draw = draw, .key = key, .request = request, .result = result, .ready = ready,
	.drop = drop, .hint = hint,
};
