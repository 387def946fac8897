/*
 * The per-set heat map: the as-configured run's requests and misses per
 * set (rd_result.set_requests / set_misses), one cell per set, darker or
 * hotter for more. A hash that spreads a kernel's lines evenly gives an
 * even map; one that folds them onto a few sets shows those sets hot and
 * the rest cold. With a pinned baseline (c) its misses are drawn below,
 * so two hash functions can be compared on one screen. With the L2 in
 * focus (2), the load of each of its partitions and banks instead
 * (rd_level.bank_requests / bank_misses): a row per partition, a cell per
 * bank, so stepping l2.banks or l2.interleave shows the load spread or
 * pile up. Data: the
 * breakdown's own result (no run of its own). May include and call the
 * state (explorer/state.h), addrbits, draw, theme.
 */
#include <stdio.h>
#include <string.h>

#include "addrbits.h"
#include "draw.h"
#include "explorer/state.h"
#include "level.h"
#include "view.h"

/* Level 0 (none) to 4 (at least three quarters of the largest). */
static int level(uint64_t v, uint64_t max)
{
	if (!v || !max)
		return 0;
	int l = (int)((4 * v + max - 1) / max);
	return l < 1 ? 1 : l > 4 ? 4 : l;
}

typedef struct grid_fmt {
	int cw;      /* columns per cell */
	int per_row; /* cells per row */
	int group;   /* sets per cell */
	int rows;
} grid_fmt;

/* Cells as wide as fit, up to 2 columns, in rows of a power of two. */
static grid_fmt grid_plan(uint32_t nsets, int w, int max_rows)
{
	grid_fmt g = {2, 1, 1, 1};
	int lw = 5; /* "  96 " */
	for (g.cw = 2; g.cw >= 1; g.cw--) {
		g.per_row = 1;
		while (g.per_row * 2 * g.cw <= w - lw && g.per_row * 2 <= 64)
			g.per_row *= 2;
		for (g.group = 1;; g.group *= 2) {
			uint32_t cells = (nsets + (uint32_t)g.group - 1) / (uint32_t)g.group;
			g.rows = (int)((cells + (uint32_t)g.per_row - 1) / (uint32_t)g.per_row);
			if (g.rows <= max_rows || g.group >= 1 << 20)
				break;
		}
		if (g.group == 1)
			break;
	}
	return g;
}

/* Entry i of a result's per-set counts is set set_id(R, i): all sets, or
 * only the used ones when the configuration has far more sets than lines. */
static uint32_t set_id(const rd_result *R, uint32_t i)
{
	return R->set_ids ? R->set_ids[i] : i;
}

/* One grid of the configuration's `sets` sets, levels relative to max
 * (shared by grids that are compared); v has R's entries. */
static void draw_grid(const rd_result *R, const uint64_t *v, uint32_t sets, uint64_t max,
		      const grid_fmt *g, int y, int x0, int w)
{
	const glyphs *gl = theme_g();
	uint32_t cells = (sets + (uint32_t)g->group - 1) / (uint32_t)g->group;
	uint32_t e = 0; /* next entry: entries ascend by set */
	for (int r = 0; r < g->rows; r++) {
		char lab[16];
		snprintf(lab, sizeof lab, "%4u ", (unsigned)r * (unsigned)g->per_row * (unsigned)g->group);
		draw_put(y + r, x0, w, E_DERIVED, lab);
		for (int c = 0; c < g->per_row; c++) {
			uint32_t cell = (uint32_t)(r * g->per_row + c);
			if (cell >= cells)
				break;
			uint64_t m = 0, end = (uint64_t)(cell + 1) * (uint32_t)g->group;
			for (; e < R->nsets && set_id(R, e) < end; e++)
				if (v[e] > m)
					m = v[e];
			int lv = level(m, max);
			enum ui_elem el = lv ? (enum ui_elem)(E_HEAT1 + lv - 1) : E_DERIVED;
			draw_fill(y + r, x0 + 5 + c * g->cw, g->cw, el, gl->heat[lv]);
		}
	}
}

static uint64_t max_of(const uint64_t *v, uint32_t n, uint32_t *at)
{
	uint64_t m = 0;
	*at = 0;
	for (uint32_t s = 0; s < n; s++)
		if (v[s] > m)
			m = v[s], *at = s;
	return m;
}

/* One grid of the L2's banks: a row per partition (wrapped when its banks
 * do not fit), levels relative to max. Returns the rows drawn. */
static int draw_banks_grid(const rd_level *l, const uint64_t *v, uint64_t max, int y, int yend,
			   int x0, int w)
{
	const glyphs *gl = theme_g();
	int lw = 6; /* "p12  " */
	int avail = w - lw;
	int cw = l->banks && avail / (int)l->banks >= 4 ? 4 : 2;
	int per_row = avail / cw > 0 ? avail / cw : 1;
	if ((uint32_t)per_row > l->banks)
		per_row = (int)l->banks;
	int rows = 0;
	if (cw == 4 && (uint32_t)per_row >= l->banks && y < yend) { /* the banks' numbers */
		for (uint32_t b = 0; b < l->banks; b++) {
			char lab[16];
			snprintf(lab, sizeof lab, "b%u", b);
			draw_put(y, x0 + lw + (int)b * cw, cw - 1, E_DERIVED, lab);
		}
		rows++;
	}
	for (uint32_t p = 0; p < l->partitions; p++)
		for (uint32_t b0 = 0; b0 < l->banks; b0 += (uint32_t)per_row) {
			if (y + rows >= yend)
				return rows;
			char lab[16];
			if (b0 == 0)
				snprintf(lab, sizeof lab, "p%-4u", p);
			else
				snprintf(lab, sizeof lab, "  b%-3u", b0);
			draw_put(y + rows, x0, lw, E_DERIVED, lab);
			for (uint32_t b = b0; b < l->banks && b < b0 + (uint32_t)per_row; b++) {
				int lv = level(v[p * l->banks + b], max);
				enum ui_elem el = lv ? (enum ui_elem)(E_HEAT1 + lv - 1) : E_DERIVED;
				draw_fill(y + rows, x0 + lw + (int)(b - b0) * cw, cw - 1, el, gl->heat[lv]);
			}
			rows++;
		}
	return rows;
}

static uint64_t max_n(const uint64_t *v, uint32_t n)
{
	uint64_t m = 0;
	for (uint32_t i = 0; i < n; i++)
		if (v[i] > m)
			m = v[i];
	return m;
}

/* The L2's load per partition and bank, now (and the baseline's misses). */
static void draw_banks(explorer *x, const rect *r)
{
	draw_frame(r, x->base ? "L2 banks: now and baseline" : "L2 banks: requests and misses", 0);
	int iw = r->w - 2, x0 = r->x + 1, y = r->y + 1, yend = r->y + r->h - 1;
	const snap *s = x->cur;
	if (!s || s->partial) {
		draw_put(y + 2, x0 + 1, iw - 1, E_PENDING, "modelling...");
		return;
	}
	const rd_level *l = &s->res.l2;
	if (s->status != RD_OK || !s->res.has_l2 || !l->bank_requests || !l->partitions ||
	    !l->banks) {
		draw_put(y + 2, x0 + 1, iw - 1, E_ERROR, "no per-bank counts (no L2 result)");
		return;
	}
	const rd_level *bl = x->base && x->base->res.has_l2 && x->base->res.l2.bank_misses
				     ? &x->base->res.l2 : NULL;
	uint32_t n = l->partitions * l->banks;
	char line[256], cnt[16];
	snprintf(line, sizeof line, " %u partition%s x %u bank%s, %u sets each; stripes of %u B",
		 l->partitions, l->partitions == 1 ? "" : "s", l->banks, l->banks == 1 ? "" : "s",
		 l->sets ? l->sets : rd_config_l2_sets(&s->cfg), rd_config_l2_interleave(&s->cfg));
	draw_put(y++, x0, iw, E_VALUE, line);
	uint64_t mreq = max_n(l->bank_requests, n);
	draw_fmt_count(mreq, cnt, sizeof cnt);
	snprintf(line, sizeof line, " requests per bank (busiest %s)", cnt);
	draw_put(y++, x0, iw, E_LABEL, line);
	int ngrids = bl ? 3 : 2;
	int room = (yend - y - ngrids - 4) / ngrids;
	int yg = y + draw_banks_grid(l, l->bank_requests, mreq, y, y + (room > 0 ? room : 1), x0, iw);
	y = yg;
	uint64_t mmiss = max_n(l->bank_misses, n);
	uint64_t bmax = bl ? max_n(bl->bank_misses, bl->partitions * bl->banks) : 0;
	uint64_t scale = mmiss > bmax ? mmiss : bmax;
	draw_fmt_count(mmiss, cnt, sizeof cnt);
	snprintf(line, sizeof line, " misses per bank (busiest %s)", cnt);
	if (y < yend)
		draw_put(y++, x0, iw, E_LABEL, line);
	y += draw_banks_grid(l, l->bank_misses, scale, y, y + (room > 0 ? room : 1), x0, iw);
	if (bl && y < yend) {
		draw_fmt_count(bmax, cnt, sizeof cnt);
		snprintf(line, sizeof line, " baseline (%u x %u): misses (busiest %s)", bl->partitions,
			 bl->banks, cnt);
		draw_put(y++, x0, iw, E_LABEL, line);
		y += draw_banks_grid(bl, bl->bank_misses, scale, y, y + (room > 0 ? room : 1), x0, iw);
	}
	const glyphs *gl = theme_g();
	if (y < yend) {
		static const char *const lv[] = {" none ", " <1/4 ", " <1/2 ", " <3/4 ", " max"};
		int c = draw_put(y, x0, iw, E_DERIVED, " ");
		for (int i = 0; i < 5; i++) {
			c += draw_put(y, x0 + c, iw - c, i ? (enum ui_elem)(E_HEAT1 + i - 1) : E_DERIVED,
				      gl->heat[i]);
			c += draw_put(y, x0 + c, iw - c, E_DERIVED, lv[i]);
		}
		y++;
	}
	uint32_t bp, bb;
	double im = level_bank_imbalance(l, &bp, &bb);
	if (y < yend) {
		snprintf(line, sizeof line, " busiest: partition %u bank %u, %llu req, %llu misses", bp,
			 bb, (unsigned long long)l->bank_requests[bp * l->banks + bb],
			 (unsigned long long)l->bank_misses[bp * l->banks + bb]);
		draw_put(y++, x0, iw, E_VALUE, line);
	}
	if (y < yend) {
		snprintf(line, sizeof line, " busiest/mean %.2f; %llu reservation fails, %llu merges", im,
			 (unsigned long long)l->reservation_fails, (unsigned long long)l->merges);
		draw_put(y++, x0, iw, E_VALUE, line);
	}
	if (y < yend)
		draw_put(y++, x0, iw, E_DERIVED,
			 " a bank keeps its own stacks: distances count its lines");
}

static void draw(explorer *x, const rect *r, int flags)
{
	if (!(flags & (R_BARS | R_HIST)))
		return; /* the panes it stands in for are not asked for */
	if (x->level == 2 && x->cfg.l2_size) {
		draw_banks(x, r);
		return;
	}
	draw_frame(r, x->base ? "Sets: now and baseline" : "Sets: requests and misses", 0);
	int iw = r->w - 2, x0 = r->x + 1, y = r->y + 1, yend = r->y + r->h - 1;
	const snap *s = x->cur;
	if (!s || s->partial) {
		draw_put(y + 2, x0 + 1, iw - 1, E_PENDING, "modelling...");
		return;
	}
	const rd_result *R = &s->res;
	if (s->status != RD_OK || !R->nsets || !R->set_requests) {
		draw_put(y + 2, x0 + 1, iw - 1, E_ERROR, "no per-set counts");
		return;
	}
	const rd_result *B = x->base && x->base->res.set_misses ? &x->base->res : NULL;
	char line[256], f[160], hn[32];
	uint32_t sets = rd_config_sets(&s->cfg);
	addr_bits_formula(&s->cfg, sets, f, sizeof f);
	rd_config_get(&s->cfg, "l1.hash", hn, sizeof hn);
	snprintf(line, sizeof line, " %s: %s", hn, f);
	draw_put(y++, x0, iw, E_VALUE, line);
	/* Rows for the grids: the rest after captions, legend and facts. */
	int ngrids = B ? 3 : 2;
	int avail = yend - y - ngrids - 3;
	grid_fmt g = grid_plan(sets, iw, avail / ngrids > 0 ? avail / ngrids : 1);
	uint32_t at;
	uint64_t mreq = max_of(R->set_requests, R->nsets, &at);
	char cnt[16];
	draw_fmt_count(mreq, cnt, sizeof cnt);
	snprintf(line, sizeof line, " requests per set (hottest %s)", cnt);
	draw_put(y++, x0, iw, E_LABEL, line);
	draw_grid(R, R->set_requests, sets, mreq, &g, y, x0, iw);
	y += g.rows;
	uint64_t mmiss = max_of(R->set_misses, R->nsets, &at);
	/* Now and baseline on one scale, so the colder one looks colder. */
	uint64_t bmax = B ? max_of(B->set_misses, B->nsets, &at) : 0;
	uint64_t scale = mmiss > bmax ? mmiss : bmax;
	draw_fmt_count(mmiss, cnt, sizeof cnt);
	snprintf(line, sizeof line, " misses per set (hottest %s)", cnt);
	draw_put(y++, x0, iw, E_LABEL, line);
	draw_grid(R, R->set_misses, sets, scale, &g, y, x0, iw);
	y += g.rows;
	if (B) {
		char bh[32];
		rd_config_get(&x->base->cfg, "l1.hash", bh, sizeof bh);
		uint32_t bsets = rd_config_sets(&x->base->cfg);
		grid_fmt gb = grid_plan(bsets, iw, g.rows);
		draw_fmt_count(bmax, cnt, sizeof cnt);
		snprintf(line, sizeof line, " baseline %s: misses (hottest %s)", bh, cnt);
		draw_put(y++, x0, iw, E_LABEL, line);
		draw_grid(B, B->set_misses, bsets, scale, &gb, y, x0, iw);
		y += gb.rows;
	}
	/* Legend: what each glyph means. */
	const glyphs *gl = theme_g();
	int c = 0;
	if (y < yend) {
		static const char *const lv[] = {" none ", " <1/4 ", " <1/2 ", " <3/4 ", " max"};
		c += draw_put(y, x0 + c, iw - c, E_DERIVED, " ");
		for (int i = 0; i < 5; i++) {
			c += draw_put(y, x0 + c, iw - c, i ? (enum ui_elem)(E_HEAT1 + i - 1) : E_DERIVED,
				      gl->heat[i]);
			c += draw_put(y, x0 + c, iw - c, E_DERIVED, lv[i]);
		}
		y++;
	}
	/* Facts: the hottest set and how uneven the spread is. */
	uint32_t used = 0;
	for (uint32_t i = 0; i < R->nsets; i++)
		used += R->set_requests[i] != 0;
	mmiss = max_of(R->set_misses, R->nsets, &at);
	double mean = sets ? (double)R->misses / sets : 0;
	if (y < yend) {
		snprintf(line, sizeof line, " hottest: set %u, %llu misses/%llu req", set_id(R, at),
			 (unsigned long long)R->set_misses[at],
			 (unsigned long long)R->set_requests[at]);
		draw_put(y++, x0, iw, E_VALUE, line);
	}
	if (y < yend) {
		snprintf(line, sizeof line, " %u of %u sets used; hottest/mean %.1f", used,
			 sets, mean > 0 ? (double)mmiss / mean : 0.0);
		draw_put(y++, x0, iw, E_VALUE, line);
	}
}

static int key(explorer *x, enum key_id id)
{
	return id == K_HEAT ? explorer_toggle_view(x, V_HEAT) : -1;
}

const view_ops view_heat = {
	.name = "heat map", .params_focus = 1,
	.desc = "per-set heat map of the requests and misses beside the parameters, to compare "
		"hash functions",
	.draw = draw, .key = key,
};
