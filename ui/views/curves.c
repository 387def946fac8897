/*
 * The miss-rate curves: miss rate against cache size, one curve per
 * associativity, for the latency-free model (curves.h: one run per set
 * count gives every associativity), with the current configuration
 * marked; below, the full timing model at neighbouring values of the
 * parameter selected on the left, as bars (Nugteren et al., HPCA 2014, Figure 12). Data:
 * a JOB_CURVES run of the configuration on screen sweeping the selected
 * parameter, asked for while the view is on screen. May include and call
 * the state (explorer/state.h), curves, draw, params, theme.
 */
#include <stdio.h>
#include <string.h>

#include "curves.h"
#include "draw.h"
#include "explorer/state.h"
#include "params.h"
#include "view.h"

/* The view's private state (view_ops.priv_size, explorer.priv). */
typedef struct curves_priv {
	snap *curves;          /* JOB_CURVES result of cfg, or NULL */
	unsigned long asked;   /* the generation they were asked for in */
	char asked_key[32];    /* the parameter they were asked to sweep */
} curves_priv;

static curves_priv *P(const explorer *x)
{
	return x->priv[V_CURVES];
}

/* The chart's rows: at least CHART_H, more when the pane has them. */
#define CHART_H 7
#define CHART_H_MAX 40

/* "512", "16K", "2M": a cache size in at most 4 columns. */
static void size_label(uint32_t b, char *buf, size_t len)
{
	if (b >= (1u << 20) && b % (1u << 20) == 0)
		snprintf(buf, len, "%uM", b >> 20);
	else if (b >= 1024 && b % 1024 == 0)
		snprintf(buf, len, "%uK", b >> 10);
	else
		snprintf(buf, len, "%u", b);
}

/* A curve's mark: its ways as one base-36 digit (g = 16), F for full. */
static char way_glyph(uint32_t w)
{
	if (!w)
		return 'F';
	return w < 10 ? (char)('0' + w) : w < 36 ? (char)('a' + w - 10) : '+';
}

/* The chart's columns: at most this many. */
#define CHART_W_MAX 512

/* One cell of the chart: a curve's line (a glyph of the theme or a slash),
 * drawn before the points, which go on top. */
typedef struct chart_cell {
	const char *g; /* NULL: empty */
} chart_cell;

/* The row of rate p (0..1) in a chart of h rows (0 at the top: 100 %). */
static int rate_row(double p, int h)
{
	return (int)((1.0 - p) * (h - 1) + 0.5);
}

/* A curve's line from cell (c0, r0) to (c1, r1), c0 < c1 (Bresenham):
 * each cell's glyph follows the step to the next cell (- flat, / up, \
 * down, | within a column); cells another curve's line holds stay. */
static void chart_line(chart_cell (*grid)[CHART_W_MAX], int aw, int c0, int r0, int c1, int r1)
{
	const glyphs *g = theme_g();
	int pc[2 * CHART_W_MAX + 2 * CHART_H_MAX], pr[2 * CHART_W_MAX + 2 * CHART_H_MAX], n = 0;
	int dx = c1 - c0, dy = r1 > r0 ? r1 - r0 : r0 - r1, sy = r1 > r0 ? 1 : -1;
	int err = dx - dy, c = c0, r = r0;
	for (;;) {
		if (n < (int)(sizeof pc / sizeof pc[0]))
			pc[n] = c, pr[n++] = r;
		if (c == c1 && r == r1)
			break;
		int e2 = 2 * err;
		if (e2 > -dy) {
			err -= dy;
			c++;
		}
		if (e2 < dx) {
			err += dx;
			r += sy;
		}
	}
	/* the ends are the points' cells: only the cells between */
	for (int k = 1; k + 1 < n; k++) {
		if (pc[k] < 0 || pc[k] >= aw || grid[pr[k]][pc[k]].g)
			continue;
		int nc = pc[k + 1] - pc[k - 1], nr = pr[k + 1] - pr[k - 1];
		const char *gl = !nr ? g->hline : !nc ? g->vline
				 : nr < 0 ? "/" : "\\";
		grid[pr[k]][pc[k]].g = gl;
	}
}

static void draw_chart(const curves *cv, int y, int x0, int w, int h)
{
	int aw = w - 6;
	int cw = cv->nsizes ? aw / cv->nsizes : aw;
	if (cw < 3)
		cw = 3;
	if (aw > CHART_W_MAX)
		aw = CHART_W_MAX;
	const glyphs *g = theme_g();
	draw_put(y, x0, 5, E_DERIVED, "100%");
	draw_put(y + (h - 1) / 2, x0, 5, E_DERIVED, " 50%");
	draw_put(y + h - 1, x0, 5, E_DERIVED, "  0%");
	for (int r = 0; r < h; r++)
		draw_put(y + r, x0 + 5, 1, E_BORDER, g->vline);
	/* The lines first: each curve from point to point (issue 40 item 8:
	 * the marks alone read as scattered digits), dim; the points on
	 * top. */
	static chart_cell grid[CHART_H_MAX][CHART_W_MAX];
	memset(grid, 0, sizeof grid);
	for (int wi = 0; wi < cv->nways; wi++) {
		int pc = -1, pr = 0;
		for (int si = 0; si < cv->nsizes; si++) {
			double p = curves_rate(&cv->lf[wi][si]);
			if (p < 0)
				continue;
			int c = si * cw + (cw - 1) / 2, r = rate_row(p, h);
			if (pc >= 0)
				chart_line(grid, aw, pc, pr, c, r);
			pc = c, pr = r;
		}
	}
	for (int r = 0; r < h; r++)
		for (int c = 0; c < aw; c++)
			if (grid[r][c].g)
				draw_put(y + r, x0 + 6 + c, 1, E_DERIVED, grid[r][c].g);
	/* Each point's cell holds the marks of the curves that meet there
	 * side by side (as many as fit, one column kept between sizes),
	 * else *. */
	for (int si = 0; si < cv->nsizes; si++) {
		char cell[CHART_H_MAX][8];
		int marks[CHART_H_MAX];
		memset(marks, 0, sizeof marks);
		int cur_row = -1;
		int room = cw - 1 < 7 ? cw - 1 : 7;
		for (int wi = 0; wi < cv->nways; wi++) {
			double p = curves_rate(&cv->lf[wi][si]);
			if (p < 0)
				continue;
			int row = rate_row(p, h);
			if (marks[row] < 7)
				cell[row][marks[row]] = way_glyph(cv->ways[wi]);
			marks[row]++;
			if (cv->size[si] == cv->cfg.l1_size && cv->ways[wi] == cv->cfg.l1_ways)
				cur_row = row;
		}
		for (int row = 0; row < h; row++) {
			if (!marks[row])
				continue;
			char t[8];
			int n = marks[row] <= room ? marks[row] : 1;
			if (marks[row] <= room)
				memcpy(t, cell[row], (size_t)n);
			else
				t[0] = '*';
			t[n] = '\0';
			int cx = x0 + 6 + si * cw + (cw - 1 - n) / 2;
			draw_put(y + row, cx, n, row == cur_row ? E_SELECTED : E_VALUE, t);
		}
		char lab[16];
		size_label(cv->size[si], lab, sizeof lab);
		int lx = x0 + 6 + si * cw + (cw - draw_width(lab)) / 2;
		draw_put(y + h, lx, cw, cv->size[si] == cv->cfg.l1_size ? E_FOCUS : E_LABEL, lab);
	}
}

static void draw_sweep(const curves *cv, int y, int yend, int x0, int w)
{
	char line[256];
	if (!cv->key[0]) {
		draw_put(y, x0, w, E_DERIVED, " select a parameter on the left to sweep it");
		return;
	}
	int switched = 0;
	for (int i = 0; i < cv->nsweep; i++)
		switched |= cv->sweep_hash[i];
	snprintf(line, sizeof line, " full model, %s%s:", cv->key,
		 switched ? " (l1.hash as Left/Right sets it)"
		 : cv->label[0][0] ? " (as Figure 12)" : "");
	draw_put(y++, x0, w, E_LABEL, line);
	const glyphs *g = theme_g();
	for (int i = 0; i < cv->nsweep && y < yend; i++, y++) {
		int c = 0;
		c += draw_put(y, x0 + c, w - c, i == cv->sweep_cur ? E_FOCUS : E_NORMAL,
			      i == cv->sweep_cur ? g->sel : " ");
		snprintf(line, sizeof line, "%-5s %6.6s ", cv->label[i], cv->value[i]);
		c += draw_put(y, x0 + c, w - c, E_LABEL, line);
		double p = curves_rate(&cv->sw[i]);
		if (cv->sweep_err[i][0]) {
			const char *m = strchr(cv->sweep_err[i], ':');
			snprintf(line, sizeof line, "n/a:%s", m ? m + 1 : cv->sweep_err[i]);
			draw_put(y, x0 + c, w - c, E_DERIVED, line);
			continue;
		}
		if (p < 0) {
			draw_put(y, x0 + c, w - c, E_PENDING, i < cv->sweep_done ? "failed" : "...");
			continue;
		}
		if (cv->sweep_hash[i]) /* switched as Left/Right would (issue 40 item 8) */
			c += draw_put(y, x0 + c, w - c, E_DERIVED,
				      rd_hash_name(cv->sweep_cfg[i].l1_hash)),
			c += draw_put(y, x0 + c, w - c, E_NORMAL, " ");
		int bw = w - c - 9;
		int len = (int)(p * bw + 0.5); /* of 100%, not of the largest */
		if (len > bw)
			len = bw;
		if (len < 0)
			len = 0;
		draw_fill(y, x0 + c, len, i == cv->sweep_cur ? E_FOCUS : E_CAPACITY, g->cls[1]);
		snprintf(line, sizeof line, "%7.2f%%", p * 100);
		draw_put(y, x0 + w - 8, 8, E_VALUE, line);
	}
}

/* The parameter the curves sweep: the one selected ("" for the derived
 * sets row). */
static const char *sweep_key(const explorer *x)
{
	const char *k = param_fields[x->sel].key;
	return k ? k : "";
}

static int curves_fit(const explorer *x)
{
	return P(x)->curves && rd_config_equal(&P(x)->curves->cfg, &x->cfg) &&
	       strcmp(P(x)->curves->key, sweep_key(x)) == 0;
}

static void draw(explorer *x, const rect *r, int flags)
{
	if (!(flags & (R_BARS | R_HIST)))
		return; /* the panes it stands in for are not asked for */
	const snap *s = P(x)->curves;
	int running = !s || !s->curves || !s->curves->done ||
		      !rd_config_equal(&s->cfg, &x->cfg);
	draw_frame(r, running ? "Miss-rate curves (running)" : "Miss-rate curves", 0);
	int iw = r->w - 2, x0 = r->x + 1, y = r->y + 1, yend = r->y + r->h - 1;
	if (!s || !rd_config_equal(&s->cfg, &x->cfg)) {
		draw_put(y + 2, x0 + 1, iw - 1, E_PENDING, "modelling...");
		return;
	}
	if (s->status != RD_OK) {
		draw_put(y + 2, x0 + 1, iw - 1, E_ERROR, rd_strerror(s->status));
		return;
	}
	const curves *cv = s->curves;
	draw_put(y++, x0, iw, E_LABEL, " latency-free: no latency, no MSHR limit");
	/* The rows the rest needs: legend, now, a gap, the sweep's title and
	 * bars; the chart takes what is left. */
	int h = yend - y - 1 - (4 + cv->lf_hash + (cv->key[0] ? cv->nsweep : 1));
	if (h < CHART_H)
		h = CHART_H;
	if (h > CHART_H_MAX)
		h = CHART_H_MAX;
	if (y + h + 1 <= yend) {
		draw_chart(cv, y, x0, iw, h);
		y += h + 1;
	}
	/* Legend and the current configuration's point. */
	char line[256];
	size_t o = 0;
	o += (size_t)snprintf(line + o, sizeof line - o, " ways:");
	for (int wi = 0; wi < cv->nways && o + 12 < sizeof line; wi++) {
		char gch = way_glyph(cv->ways[wi]);
		if (cv->ways[wi] && cv->ways[wi] < 10)
			o += (size_t)snprintf(line + o, sizeof line - o, " %c", gch);
		else if (cv->ways[wi])
			o += (size_t)snprintf(line + o, sizeof line - o, " %c=%u", gch, cv->ways[wi]);
		else
			o += (size_t)snprintf(line + o, sizeof line - o, " F=full");
	}
	if (o + 12 < sizeof line)
		snprintf(line + o, sizeof line - o, " *=more");
	if (y < yend)
		draw_put(y++, x0, iw, E_DERIVED, line);
	if (cv->lf_hash && y < yend) {
		if (cv->cfg.l1_hash == RD_HASH_FERMI)
			snprintf(line, sizeof line, " fermi: 32 or 64 sets only; xor elsewhere (as Left/Right)");
		else
			snprintf(line, sizeof line, " %s where it takes the sets; else as Left/Right switches",
				 rd_hash_name(cv->cfg.l1_hash));
		draw_put(y++, x0, iw, E_DERIVED, line);
	}
	for (int wi = 0; wi < cv->nways; wi++)
		for (int si = 0; si < cv->nsizes; si++) {
			if (cv->size[si] != cv->cfg.l1_size || cv->ways[wi] != cv->cfg.l1_ways)
				continue;
			double p = curves_rate(&cv->lf[wi][si]);
			char lab[16];
			size_label(cv->size[si], lab, sizeof lab);
			if (p >= 0)
				snprintf(line, sizeof line, " now (%s, %u ways): %.2f%% latency-free", lab,
					 cv->ways[wi], p * 100);
			else
				snprintf(line, sizeof line, " now (%s, %u ways): %s", lab, cv->ways[wi],
					 cv->runs_done < cv->nruns ? "..." : "n/a");
			if (y < yend)
				draw_put(y++, x0, iw, E_VALUE, line);
		}
	if (y < yend)
		y++;
	if (y < yend)
		draw_sweep(cv, y, yend, x0, iw);
}

static int key(explorer *x, enum key_id id)
{
	return id == K_CURVES ? explorer_toggle_view(x, V_CURVES) : -1;
}

static void request(explorer *x)
{
	if (!curves_fit(x) &&
	    (P(x)->asked != x->gen || strcmp(P(x)->asked_key, sweep_key(x)) != 0)) {
		P(x)->asked = x->gen;
		snprintf(P(x)->asked_key, sizeof P(x)->asked_key, "%s", sweep_key(x));
		worker_submit_job(x->w, JOB_CURVES, x->gen, &x->cfg, P(x)->asked_key);
	}
}

static int result(explorer *x, snap *s)
{
	if (s->kind != JOB_CURVES || strcmp(s->key, sweep_key(x)) != 0)
		return R_NONE;
	snap_unref(P(x)->curves);
	P(x)->curves = snap_ref(s);
	if (s->status != RD_OK)
		explorer_message(x, 1, "curves: %s", rd_strerror(s->status));
	return x->view == V_CURVES ? R_BARS | R_HIST : R_NONE;
}

static int ready(const explorer *x)
{
	return curves_fit(x) && (P(x)->curves->status != RD_OK || P(x)->curves->curves->done);
}

static void drop(explorer *x)
{
	snap_unref(P(x)->curves);
	P(x)->curves = NULL;
}

/* The curves held as CSV (the script's dump-curves). */
static int csv(const explorer *x, FILE *f)
{
	if (!P(x)->curves)
		return -1;
	curves_write_csv(P(x)->curves->curves, f);
	return 0;
}

const view_ops view_curves = {
	.accesses = 1,
	.name = "curves", .params_focus = 1,
	.desc = "miss rate against cache size, one curve per associativity, latency-free; below, "
		"the full model at neighbouring values of the selected parameter (the paper's "
		"Figure 12)",
	.priv_size = sizeof(curves_priv),
	.draw = draw, .key = key, .request = request, .result = result, .ready = ready, .drop = drop,
	.csv = csv,
};
