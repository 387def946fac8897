/*
 * The sources view: which load causes the misses (issue 25). Beside the
 * parameters pane, the kernel's source sites (a description's load
 * references, a trace's PCs, or per-thread load numbers) sorted by
 * misses, each with a bar in the breakdown's colours; below, the selected
 * site's own breakdown and reuse distances (log2 bins), so a change of a
 * parameter can be judged load by load. Data: a JOB_SITES run of the
 * configuration on screen (the breakdown with rd_callbacks.by_site),
 * asked for while the view is on screen; the list re-sorts with every
 * result; T's description text is read off the UI thread by the explorer
 * (explorer.calls->source) and handed back through the took op. May
 * include and call the state (explorer/state.h), draw, info, theme.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "fit.h"
#include "explorer/state.h"
#include "info.h"
#include "theme.h"
#include "view.h"

/* The view's private state (view_ops.priv_size, explorer.priv). */
typedef struct sources_priv {
	snap *sites;           /* JOB_SITES result, or NULL */
	unsigned long asked;   /* the generation it was asked for in */
	int site_sel;          /* the selected site, in the sorted list */
	int site_text;         /* the view shows the description's text */
	char *source;          /* that text (explorer.calls->source), or NULL */
} sources_priv;

static sources_priv *P(const explorer *x)
{
	return x->priv[V_SOURCES];
}

static const rd_result *sort_R; /* the UI thread's: what site_cmp compares */

static int site_cmp(const void *pa, const void *pb)
{
	uint32_t ia = *(const uint32_t *)pa, ib = *(const uint32_t *)pb;
	const rd_site_result *a = &sort_R->sites[ia], *b = &sort_R->sites[ib];
	if (a->misses != b->misses)
		return a->misses < b->misses ? 1 : -1;
	if (a->requests != b->requests)
		return a->requests < b->requests ? 1 : -1;
	return (ia > ib) - (ia < ib);
}

/* The sites with requests, most misses first (ties: more requests, then
 * site order): their indices into res.sites, n of them (at most max). */
static size_t sorted_sites(const rd_result *R, uint32_t *idx, size_t max)
{
	size_t n = 0;
	for (uint32_t i = 0; i < R->nsites && n < max; i++)
		if (R->sites[i].requests)
			idx[n++] = i;
	sort_R = R;
	qsort(idx, n, sizeof *idx, site_cmp);
	return n;
}

/* One stacked bar of w columns: hits, then each miss class, by share
 * (largest remainders, as the breakdown's bar: the cells fill w). */
static void site_bar(int y, int x0, int w, const rd_site_result *s)
{
	if (w <= 0 || !s->requests)
		return;
	const glyphs *g = theme_g();
	uint64_t part[RD_NCLASS + 1];
	part[0] = s->hits;
	for (int c = 0; c < RD_NCLASS; c++)
		part[c + 1] = s->cls[c];
	int cells[RD_NCLASS + 1], used = 0;
	double rem[RD_NCLASS + 1];
	for (int i = 0; i <= RD_NCLASS; i++) {
		double exact = (double)part[i] * w / (double)s->requests;
		cells[i] = (int)exact;
		rem[i] = part[i] ? exact - cells[i] : -1;
		used += cells[i];
	}
	while (used < w) {
		int best = 0;
		for (int i = 1; i <= RD_NCLASS; i++)
			if (rem[i] > rem[best])
				best = i;
		if (rem[best] < 0)
			break;
		cells[best]++;
		rem[best] = -1;
		used++;
	}
	int cx = x0;
	for (int i = 0; i <= RD_NCLASS; i++) {
		if (cells[i] > 0)
			draw_fill(y, cx, cells[i], i ? E_CLASS(i - 1) : E_HIT, i ? g->cls[i - 1] : g->hit);
		cx += cells[i];
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
	char line[256], fit[256];
	snprintf(line, sizeof line, " %s: %llu request%s, %llu miss%s (%.2f%%)", label,
		 (unsigned long long)s->requests, s->requests == 1 ? "" : "s",
		 (unsigned long long)s->misses, s->misses == 1 ? "" : "es",
		 draw_pct(s->misses, s->requests));
	/* cut between words with an ellipsis, never inside a number */
	fit_items(fit, sizeof fit, w, line, theme_g()->ellipsis, NULL);
	if (y < yend)
		draw_put(y++, x0, w, E_VALUE, fit);
	for (int c = 0; c < RD_NCLASS && y < yend; c++) {
		if (!s->cls[c])
			continue;
		int col = 0;
		col += draw_put(y, x0 + col, w - col, E_CLASS(c), theme_g()->cls[c]);
		/* "write_evict" is one longer than the paper's names: the
		 * column widens only when it is there. */
		int nw = s->cls[RD_CLASS_WRITE_EVICT] ? 11 : 10;
		snprintf(line, sizeof line, " %-*s %10llu  %s", nw, class_glosses[c + 1].name,
			 (unsigned long long)s->cls[c], class_glosses[c + 1].gloss);
		fit_items(fit, sizeof fit, w - col, line, theme_g()->ellipsis, NULL);
		draw_put(y++, x0 + col, w - col, E_LABEL, fit);
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

/* The description's text, each load line annotated with its sites' miss
 * rates and main classes, scrolled to keep the selected site's line in
 * view (highlighted). */
static void draw_text(explorer *x, const rd_result *R, const uint32_t *idx, size_t n, int y,
		      int yend, int x0, int w)
{
	if (!P(x)->source) {
		draw_put(y + 1, x0 + 1, w - 1, E_PENDING, "reading the description...");
		return;
	}
	const rd_kernel *k = x->k;
	uint32_t sel_line = k->site && idx[P(x)->site_sel] < k->nsites
				    ? k->sites[idx[P(x)->site_sel]].line
				    : 0;
	uint32_t nlines = 1;
	for (const char *p = P(x)->source; *p; p++)
		nlines += *p == '\n';
	int rows = yend - y;
	uint32_t top = sel_line > (uint32_t)rows / 2 ? sel_line - (uint32_t)rows / 2 : 1;
	if (top + (uint32_t)rows > nlines + 1)
		top = nlines + 1 > (uint32_t)rows ? nlines + 1 - (uint32_t)rows : 1;
	const char *p = P(x)->source;
	for (uint32_t ln = 1; ln < top && *p; ln++) {
		p = strchr(p, '\n');
		p = p ? p + 1 : "";
	}
	for (uint32_t ln = top; y < yend && (*p || ln == top); ln++, y++) {
		size_t len = strcspn(p, "\n");
		/* the sites of this line, in the list's order (most misses first) */
		char note[256] = "";
		size_t o = 0;
		for (size_t i = 0; i < n && k->site; i++) {
			const rd_site *st = idx[i] < k->nsites ? &k->sites[idx[i]] : NULL;
			if (!st || st->line != ln || o + 40 > sizeof note)
				continue;
			const rd_site_result *s = &R->sites[idx[i]];
			int best = rd_site_main_class(s);
			o += (size_t)snprintf(note + o, sizeof note - o, "%s%s %.1f%%%s%s", o ? "; " : "",
					      st->ref ? st->ref : "", draw_pct(s->misses, s->requests),
					      best >= 0 ? " " : "",
					      best >= 0 ? class_glosses[best + 1].name : "");
		}
		char text[512];
		/* an annotated line keeps one blank of its indentation: room
		 * for the code beside its note */
		const char *q = p;
		size_t ql = len;
		if (*note)
			while (ql > 0 && (*q == ' ' || *q == '\t'))
				q++, ql--;
		snprintf(text, sizeof text, "%4u %s%.*s", ln, *note && q > p ? " " : "",
			 (int)(ql < 400 ? ql : 400), q);
		/* the note beside the code; the code keeps at least 18 columns
		 * (its line number and a start), the note is cut if need be */
		int nw = *note ? draw_width(note) + 2 : 0;
		if (nw && w - nw < 18)
			nw = w - 18 > 8 ? w - 18 : 0;
		int tw = w - nw;
		int sel = sel_line && ln == sel_line;
		draw_put(y, x0, tw, sel ? E_SELECTED : *note ? E_NORMAL : E_DERIVED, text);
		if (*note && tw < w)
			draw_put(y, x0 + tw + 1, nw - 1, sel ? E_FOCUS : E_VALUE, note);
		p += len;
		if (*p == '\n')
			p++;
		else
			break;
	}
}

static void draw(explorer *x, const rect *r, int flags)
{
	if (!(flags & (R_BARS | R_HIST)))
		return;
	const snap *s = P(x)->sites;
	int ref = x->cfg.model == RD_PROFILE_REF2013;
	int fresh = s && rd_config_equal(&s->cfg, &x->cfg);
	draw_frame(r, fresh || ref ? "Sources: misses by load site" : "Sources (running)", 0);
	int iw = r->w - 2, x0 = r->x + 1, y = r->y + 1, yend = r->y + r->h - 1;
	if (ref) {
		draw_put(y + 1, x0 + 1, iw - 1, E_DERIVED,
			 "the reference-2013 profile has no breakdown by source");
		draw_put(y + 2, x0 + 1, iw - 1, E_DERIVED,
			 "(it reproduces the 2013 code's totals): set model to paper");
		return;
	}
	if (!s) {
		draw_put(y + 2, x0 + 1, iw - 1, E_PENDING, "modelling...");
		return;
	}
	if (s->status != RD_OK) {
		draw_put(y + 2, x0 + 1, iw - 1, E_ERROR, rd_strerror(s->status));
		return;
	}
	const rd_result *R = &s->res;
	uint32_t *idx = malloc((R->nsites ? R->nsites : 1) * sizeof *idx);
	if (!idx) {
		draw_put(y + 2, x0 + 1, iw - 1, E_ERROR, "out of memory");
		return;
	}
	size_t n = sorted_sites(R, idx, R->nsites);
	if (!n) {
		free(idx);
		draw_put(y + 2, x0 + 1, iw - 1, E_DERIVED, "no loads");
		return;
	}
	if (P(x)->site_sel >= (int)n)
		P(x)->site_sel = (int)n - 1;
	if (P(x)->site_sel < 0)
		P(x)->site_sel = 0;
	if (P(x)->site_text) {
		char label[160];
		rd_kernel_site_label(x->k, idx[P(x)->site_sel], label, sizeof label);
		char line[256];
		snprintf(line, sizeof line, " the description, load lines annotated (T: the list); "
					    "[ ] select: %s", label);
		draw_put(y++, x0, iw, E_LABEL, line);
		draw_text(x, R, idx, n, y, yend, x0, iw);
		free(idx);
		return;
	}
	/* The list: half the pane at most, scrolled to keep the selection. */
	int rows = (yend - y) / 2 - 1;
	if (rows < 3)
		rows = 3;
	int top = P(x)->site_sel >= rows ? P(x)->site_sel - rows + 1 : 0;
	char line[256], label[160];
	snprintf(line, sizeof line, " %zu site%s, most misses first ([ ] select)", n,
		 n == 1 ? "" : "s");
	if (draw_width(line) > iw)
		snprintf(line, sizeof line, " %zu site%s by misses", n, n == 1 ? "" : "s");
	draw_put(y++, x0, iw, E_LABEL, line);
	int lw = iw / 2 - 2 > 12 ? iw / 2 - 2 : 12;
	for (int i = top; i < (int)n && i < top + rows && y < yend; i++, y++) {
		const rd_site_result *st = &R->sites[idx[i]];
		rd_kernel_site_label(x->k, idx[i], label, sizeof label);
		int sel = i == P(x)->site_sel;
		int c = draw_put(y, x0, iw, sel ? E_FOCUS : E_NORMAL, sel ? theme_g()->sel : " ");
		snprintf(line, sizeof line, "%-*.*s", lw, lw, label);
		c += draw_put(y, x0 + c, iw - c, sel ? E_SELECTED : E_LABEL, line);
		snprintf(line, sizeof line, " %6.2f%% ", draw_pct(st->misses, st->requests));
		c += draw_put(y, x0 + c, iw - c, E_VALUE, line);
		site_bar(y, x0 + c, iw - c - 1, st);
	}
	if (y < yend)
		y++;
	const rd_site_result *st = &R->sites[idx[P(x)->site_sel]];
	rd_kernel_site_label(x->k, idx[P(x)->site_sel], label, sizeof label);
	draw_detail(x, st, label, y, yend, x0, iw);
	free(idx);
}

static int key(explorer *x, enum key_id id)
{
	switch (id) {
	case K_SOURCES:
		return explorer_toggle_view(x, V_SOURCES);
	case K_SITE_PREV:
		if (x->view != V_SOURCES)
			return -1;
		if (P(x)->site_sel > 0)
			P(x)->site_sel--;
		return R_BARS | R_HIST;
	case K_SITE_NEXT:
		if (x->view != V_SOURCES)
			return -1;
		P(x)->site_sel++; /* clamped when drawn */
		return R_BARS | R_HIST;
	case K_SITE_TEXT:
		if (x->view != V_SOURCES)
			return -1;
		if (!P(x)->site_text && !(x->k->site && x->k->nsites && x->k->sites[0].line)) {
			explorer_message(x, 1, "sources: %s is no kernel description: no text to show",
					 x->input);
			return R_STATUS;
		}
		P(x)->site_text = !P(x)->site_text;
		if (P(x)->site_text && !P(x)->source)
			return x->calls->source(x) | R_BARS | R_HIST;
		return R_BARS | R_HIST;
	default:
		return -1;
	}
}

static int fits(const explorer *x)
{
	return P(x)->sites && rd_config_equal(&P(x)->sites->cfg, &x->cfg);
}

static void request(explorer *x)
{
	if (x->cfg.model == RD_PROFILE_REF2013)
		return; /* no per-site breakdown (the 2013 code's totals) */
	if (!fits(x) && P(x)->asked != x->gen) {
		P(x)->asked = x->gen;
		worker_submit_job(x->w, JOB_SITES, x->gen, &x->cfg, "");
	}
}

static int result(explorer *x, snap *s)
{
	if (s->kind != JOB_SITES)
		return R_NONE;
	snap_unref(P(x)->sites);
	P(x)->sites = snap_ref(s);
	return x->view == V_SOURCES ? R_BARS | R_HIST : R_NONE;
}

static int ready(const explorer *x)
{
	return x->cfg.model == RD_PROFILE_REF2013 || fits(x);
}

static void drop(explorer *x)
{
	snap_unref(P(x)->sites);
	P(x)->sites = NULL;
	P(x)->site_sel = 0;
	P(x)->site_text = 0;
	free(P(x)->source);
	P(x)->source = NULL;
}

/* The description's text asked for (explorer.calls->source) is in, or
 * not (NULL: it failed or was stopped: the list again). */
static int took(explorer *x, int kind, void **res)
{
	if (kind != P_SOURCE)
		return -1;
	if (!*res) {
		P(x)->site_text = 0;
		return R_NONE;
	}
	free(P(x)->source);
	P(x)->source = *res;
	*res = NULL;
	return R_BARS | R_HIST;
}

static const char *hint(const explorer *x)
{
	return P(x)->site_text ? "[ ] select  T list  L back " : "[ ] select  T text  L back ";
}

const view_ops view_sources = {
	.accesses = 1,
	.name = "sources", .params_focus = 1,
	.desc = "misses by source: the kernel's load sites (a description's references, a "
		"trace's PCs or load numbers) sorted by misses, with the selected one's breakdown "
		"and reuse distances, or the description's text",
	.priv_size = sizeof(sources_priv),
	.draw = draw, .key = key, .request = request, .result = result, .ready = ready,
	.drop = drop, .hint = hint, .took = took,
};
