/*
 * The profile generator (seed 003, MLCRP): in place of the parameters
 * pane, a Gaussian mixture's rows (maxrd, cold share, length, seed, each
 * peak's position, ratio and sigma) and its target profile drawn with the
 * cache's lines marked; every step of a row generates the trace again
 * (Algorithm 2, as the rp: input does) and explores it, so the breakdown
 * and histogram panes beside it follow the peaks as they move. The trace
 * keeps the configuration on screen; the title names the mixture as an
 * rp: file's lines, to repeat it in batch. Data: ui/mix.h. May include and
 * call the state (explorer/state.h), draw, mix, rpchart, rprof, theme.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "explorer/state.h"
#include "mix.h"
#include "rpchart.h"
#include "rprof.h"
#include "view.h"

/* The view's private state (view_ops.priv_size, explorer.priv). */
typedef struct gen_priv {
	/* Its mixture, made at the first G; the row selected; the generated
	 * input's name (explorer.input points to it while the kernel on
	 * screen is the generator's). */
	mix mix;
	int mix_init, mix_sel;
	char mix_name[600];
} gen_priv;

static gen_priv *P(const explorer *x)
{
	return x->priv[V_GEN];
}

/* Generate the mixture's trace and explore it, keeping the configuration
 * (its lines at the configuration's line size). */
static int regenerate(explorer *x)
{
	uint64_t forced;
	rd_kernel *k = mix_kernel(&P(x)->mix, x->cfg.l1_line, &forced);
	if (!k) {
		explorer_message(x, 1, "generator: out of memory");
		return R_STATUS;
	}
	char text[sizeof P(x)->mix_name - 32];
	mix_text(&P(x)->mix, "; ", text, sizeof text);
	if (P(x)->mix.length != 10000 || P(x)->mix.seed != 1) /* rp:'s defaults */
		snprintf(P(x)->mix_name, sizeof P(x)->mix_name, "generated: %s (length %llu, seed %llu)", text,
			 (unsigned long long)P(x)->mix.length, (unsigned long long)P(x)->mix.seed);
	else
		snprintf(P(x)->mix_name, sizeof P(x)->mix_name, "generated: %s", text);
	rd_config c = x->cfg;
	if (explorer_switch(x, k, P(x)->mix_name, &c) < 0)
		return R_ALL;
	x->made = "the generated trace's loads";
	if (forced)
		explorer_message(x, 0, "generator: %llu cold fills forced beyond the cold share "
				       "(length x cold share is below the largest distance drawn + 1)",
				 (unsigned long long)forced);
	return R_ALL | R_RERUN;
}

/* Is the kernel on screen the generator's? */
static int generated(const explorer *x)
{
	return x->input == P(x)->mix_name;
}

static void draw_pane(explorer *x, const rect *r)
{
	draw_frame(r, "Profile generator", 1);
	int iw = r->w - 2, x0 = r->x + 1, y = r->y + 1, yend = r->y + r->h - 1;
	const glyphs *g = theme_g();
	int rows = mix_rows(&P(x)->mix);
	/* the rows, scrolled to keep the selected one in view, then the
	 * target chart (at least 4 rows + labels) and the keys' line */
	int room = yend - y - 8;
	if (room < 3)
		room = 3;
	int first = P(x)->mix_sel >= room ? P(x)->mix_sel - room + 1 : 0;
	for (int i = first; i < rows && i < first + room && y < yend; i++, y++) {
		char lab[32], val[48], line[128];
		mix_row(&P(x)->mix, i, lab, sizeof lab, val, sizeof val);
		int c = draw_put(y, x0, iw, i == P(x)->mix_sel ? E_FOCUS : E_NORMAL,
				 i == P(x)->mix_sel ? g->sel : " ");
		snprintf(line, sizeof line, " %-11s %s", lab, val);
		draw_put(y, x0 + c, iw - c, i == P(x)->mix_sel ? E_SELECTED : E_VALUE, line);
	}
	if (y < yend)
		y++;
	/* the target profile in log2 buckets */
	double *p = mix_profile(&P(x)->mix);
	int h = yend - y - 3;
	if (p && h >= 3) {
		double v[RPROF_BUCKETS] = {0};
		int nb = 2;
		v[0] = p[0];
		for (uint32_t d = 0; d <= P(x)->mix.maxrd; d++) {
			int b = rprof_bucket((int64_t)d);
			v[b] += p[1 + d];
			if (b + 1 > nb)
				nb = b + 1;
		}
		for (int b = 1; b < nb; b++) /* a Gaussian's far tails: nothing drawn */
			if (v[b] < 1e-6)
				v[b] = 0;
		if (h > 8)
			h = 8;
		draw_put(y++, x0, iw, E_LABEL, " target profile:");
		uint64_t lines = (uint64_t)rd_config_sets(&x->cfg) * x->cfg.l1_ways;
		rpchart_draw(v, nb, lines, y, x0, iw, h);
		y += h + 1;
	}
	free(p);
	if (y < yend) {
		char line[128];
		snprintf(line, sizeof line, " %s: the cache's %llu lines", g->cut,
			 (unsigned long long)rd_config_sets(&x->cfg) * x->cfg.l1_ways);
		draw_put(y++, x0, iw, E_DERIVED, line);
	}
	if (yend - 1 >= y)
		draw_put(yend - 1, x0, iw, E_DERIVED, " A: add a peak  x: remove it");
}

static void draw(explorer *x, const rect *r, int flags)
{
	/* the breakdown and histogram panes beside it, as ever */
	x->views[V_PANES]->draw(x, r, flags);
	draw_pane(x, &x->lay.params);
}

static int key(explorer *x, enum key_id id)
{
	if (id == K_GEN) {
		if (x->view == V_GEN)
			return explorer_toggle_view(x, V_GEN);
		if (!P(x)->mix_init) {
			mix_default(&P(x)->mix);
			P(x)->mix_init = 1;
		}
		x->view = V_GEN;
		return generated(x) ? R_ALL : regenerate(x);
	}
	if (x->view != V_GEN)
		return -1;
	int rows = mix_rows(&P(x)->mix), r;
	switch (id) {
	case K_GEN_UP:
		P(x)->mix_sel = P(x)->mix_sel > 0 ? P(x)->mix_sel - 1 : 0;
		return R_PARAMS;
	case K_GEN_DOWN:
		P(x)->mix_sel = P(x)->mix_sel + 1 < rows ? P(x)->mix_sel + 1 : rows - 1;
		return R_PARAMS;
	case K_GEN_DEC:
	case K_GEN_INC:
		if (!mix_step(&P(x)->mix, P(x)->mix_sel, id == K_GEN_INC ? 1 : -1)) {
			explorer_message(x, 0, "generator: at its limit");
			return R_STATUS;
		}
		return regenerate(x);
	case K_GEN_ADD:
		if ((r = mix_add(&P(x)->mix, P(x)->mix_sel)) < 0) {
			explorer_message(x, 1, "generator: at most %d peaks", MIX_PEAKS);
			return R_STATUS;
		}
		P(x)->mix_sel = r;
		return regenerate(x);
	case K_GEN_DEL:
		if ((r = mix_remove(&P(x)->mix, P(x)->mix_sel)) < 0) {
			explorer_message(x, 1, "generator: select a peak's row to remove it (one stays)");
			return R_STATUS;
		}
		P(x)->mix_sel = r;
		return regenerate(x);
	default:
		return -1;
	}
}

static const char *hint(const explorer *x)
{
	(void)x;
	return "arrows: move a peak  G or Esc: back ";
}

const view_ops view_gen = {
	.name = "generator", .scope = KS_GEN,
	.desc = "a synthetic trace generated from a reuse profile of Gaussian peaks (the rp: "
		"input), its rows in the parameters pane's place: every step generates it again",
	.priv_size = sizeof(gen_priv),
	.draw = draw, .key = key, .hint = hint,
};
