/*
 * The count view (seed 004, HayStack; rdscope count): for a kernel
 * description, the exact miss rate of fully associative LRU caches of
 * every size from 1 KiB to 16 MiB (and the configured l1.size), counted
 * without a trace with the configuration's line size, as a curve; below,
 * the references at the configured size, the ones with the most misses
 * first; and the problem size as a parameter: < and > halve and double
 * the selected parameter (P selects the next), counted again. Data: a
 * count run off the UI thread that the view asks the explorer for
 * (explorer.calls->count, explorer_opts.count), its result handed back
 * through the took op and kept in the view's private state. May include
 * and call the state (explorer/state.h), draw, theme.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "explorer/state.h"
#include "view.h"

/* The view's private state (view_ops.priv_size, explorer.priv). */
typedef struct count_priv {
	/* Its result (malloc'ed, with its refs), the -D settings it asks for
	 * (the problem size stepped), the parameter < and > step, and what
	 * was asked last (not asked again after a failure). */
	explorer_count *count;
	char count_def[EXPLORER_COUNT_PARAMS][48];
	int ncount_def, count_psel;
	char count_asked[1024];
	/* The last ask failed (failed), and why (explorer.call_err: "" when
	 * it was stopped): said in the pane until the next ask. */
	int failed;
	char why[1024];
} count_priv;

static count_priv *P(const explorer *x)
{
	return x->priv[V_COUNT];
}

#define CHART_H 8

/* The sizes counted: powers of two from 1 KiB (or a line) to 16 MiB, and
 * the configured size where it is none of them; sorted. */
static int sizes(const explorer *x, uint64_t *b)
{
	uint32_t line = x->cfg.l1_line;
	int n = 0;
	int have = 0;
	for (uint64_t s = line > 1024 ? line : 1024; s <= (16u << 20) && n < EXPLORER_COUNT_LEVELS - 1;
	     s *= 2) {
		if (s % line)
			continue;
		if (!have && x->cfg.l1_size < s && x->cfg.l1_size % line == 0 && x->cfg.l1_size) {
			b[n++] = x->cfg.l1_size;
			have = 1;
		}
		have |= s == x->cfg.l1_size;
		b[n++] = s;
	}
	if (!have && n < EXPLORER_COUNT_LEVELS && x->cfg.l1_size && x->cfg.l1_size % line == 0)
		b[n++] = x->cfg.l1_size;
	return n;
}

/* What the view asks to count: the input, the line, the -D settings. */
static void asked_key(const explorer *x, char *buf, size_t len)
{
	size_t o = (size_t)snprintf(buf, len, "%s|%u", x->input, x->cfg.l1_line);
	for (int i = 0; i < P(x)->ncount_def && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "|%s", P(x)->count_def[i]);
}

static int fits(const explorer *x)
{
	return P(x)->count && P(x)->count->line == x->cfg.l1_line;
}

static void request(explorer *x)
{
	char key[sizeof P(x)->count_asked];
	asked_key(x, key, sizeof key);
	if (x->busy || !strcmp(key, P(x)->count_asked))
		return;
	snprintf(P(x)->count_asked, sizeof P(x)->count_asked, "%s", key);
	P(x)->failed = 0;
	uint64_t b[EXPLORER_COUNT_LEVELS];
	int n = sizes(x, b);
	x->calls->count(x, (const char (*)[48])P(x)->count_def, P(x)->ncount_def, x->cfg.l1_line, b,
			n);
}

static void size_label(uint64_t b, char *buf, size_t len) /* len >= 24 */
{
	if (b >= (1u << 20) && b % (1u << 20) == 0)
		snprintf(buf, len, "%lluM", (unsigned long long)(b >> 20));
	else if (b >= 1024 && b % 1024 == 0)
		snprintf(buf, len, "%lluK", (unsigned long long)(b >> 10));
	else
		snprintf(buf, len, "%llu", (unsigned long long)b);
}

static double rate(const explorer_count *c, int k)
{
	return c->accesses ? (double)(c->compulsory + c->capacity[k]) / (double)c->accesses : 0;
}

/* The miss rate of each size as a column, the configured size's marked. */
static void chart(const explorer *x, const explorer_count *c, int y, int x0, int w, int h)
{
	const glyphs *g = theme_g();
	int cw = (w - 6) / (c->nlevels ? c->nlevels : 1);
	if (cw > 5)
		cw = 5;
	if (cw < 2)
		cw = 2;
	/* scaled to the largest rate (the smallest cache's) */
	double top = 0;
	for (int k = 0; k < c->nlevels; k++)
		if (rate(c, k) > top)
			top = rate(c, k);
	if (top <= 0)
		top = 1;
	char tl[16];
	snprintf(tl, sizeof tl, top >= 0.1 ? "%3.0f%%" : "%4.1f%%", top * 100);
	draw_put(y, x0, 5, E_DERIVED, tl);
	draw_put(y + h - 1, x0, 5, E_DERIVED, "  0%");
	for (int r = 0; r < h; r++)
		draw_put(y + r, x0 + 5, 1, E_BORDER, g->vline);
	int free_x = 0;
	for (int k = 0; k < c->nlevels && 6 + (k + 1) * cw <= w; k++) {
		int bx = x0 + 6 + k * cw;
		int cur = c->bytes[k] == x->cfg.l1_size;
		int units = (int)(rate(c, k) / top * h * 8 + 0.5);
		if (!units && c->compulsory + c->capacity[k])
			units = 1;
		for (int row = 0; row < h && units > 0; row++, units -= 8)
			draw_fill(y + h - 1 - row, bx, cw - 1, cur ? E_SELECTED : E_CAPACITY,
				  g->eighths[units > 8 ? 8 : units]);
		char lab[24];
		size_label(c->bytes[k], lab, sizeof lab);
		if (bx >= free_x && bx + draw_width(lab) <= x0 + w)
			free_x = bx + draw_put(y + h, bx, draw_width(lab), cur ? E_FOCUS : E_LABEL, lab) + 1;
	}
}

/* Text from y on, w columns wide, wrapped at blanks (a word wider than w
 * cut), up to row yend; the row after it. */
static int wrapped(int y, int x0, int w, int yend, enum ui_elem e, const char *p)
{
	while (*p && y < yend && w > 8) {
		size_t n = draw_prefix_bytes(p, w);
		if (p[n]) { /* cut at the last blank that fits */
			size_t b = n;
			while (b > 0 && p[b] != ' ')
				b--;
			if (b > 0)
				n = b;
		}
		char line[1100];
		snprintf(line, sizeof line, "%.*s", (int)n, p);
		draw_put(y++, x0, w, e, line);
		p += n;
		while (*p == ' ')
			p++;
	}
	return y;
}

/* Why there is no count, in the pane at once (the status line's message
 * goes with the next key): the reader's reason, or that it was stopped,
 * and what to open instead. */
static void why(const explorer *x, int y, int x0, int w, int yend)
{
	char line[1200];
	if (P(x)->why[0])
		snprintf(line, sizeof line, "No count: %s", P(x)->why);
	else
		snprintf(line, sizeof line, "No count: stopped (Esc). H twice counts again.");
	y = wrapped(y, x0, w, yend, E_ERROR, line) + 1;
	wrapped(y, x0, w, yend, E_LABEL,
		"H counts a kernel description (.kdesc) as one serial program, without a "
		"trace. O opens one: sample:haystack/gemm, sample:haystack/stencil, "
		"sample:kernels/matmul (rdscope samples lists them).");
}

static void draw(explorer *x, const rect *r, int flags)
{
	if (!(flags & (R_BARS | R_HIST)))
		return;
	const explorer_count *c = fits(x) ? P(x)->count : NULL;
	int failed = !c && P(x)->failed && !x->busy;
	draw_frame(r, c ? "Exact counts (HayStack), one serial program"
		   : failed ? "Exact counts (no count)"
			    : "Exact counts (counting)",
		   0);
	int iw = r->w - 2, x0 = r->x + 1, y = r->y + 1, yend = r->y + r->h - 1;
	char line[512];
	/* the parameters, the selected one marked */
	const explorer_count *p = P(x)->count;
	size_t o = (size_t)snprintf(line, sizeof line, " ");
	for (int i = 0; p && i < p->nparams && o < sizeof line; i++)
		o += (size_t)snprintf(line + o, sizeof line - o, "%s%s%s = %lld%s", i ? "  " : "",
				      i == P(x)->count_psel ? "[" : "", p->pname[i], p->pval[i],
				      i == P(x)->count_psel ? "]" : "");
	if (p && p->nparams && o < sizeof line)
		snprintf(line + o, sizeof line - o, "   < > halve, double; P next");
	if (failed) {
		why(x, y + 1, x0 + 1, iw - 2, yend);
		return;
	}
	draw_put(y++, x0, iw, E_VALUE, p ? line : " (the parameters once counted)");
	if (!c) {
		draw_put(y + 1, x0 + 1, iw - 1, E_PENDING,
			 x->busy ? "counting every access of the description, as rdscope count..."
				 : "no count (a kernel description is needed: see the message)");
		return;
	}
	char acc[32], lines[32];
	draw_fmt_count(c->accesses, acc, sizeof acc);
	draw_fmt_count(c->lines, lines, sizeof lines);
	char secs[32] = "";
	if (!x->no_timing) /* (screen tests' goldens have no times) */
		snprintf(secs, sizeof secs, ", counted in %.2f s", c->seconds);
	snprintf(line, sizeof line, " %s accesses, %s lines of %u bytes%s%s", acc, lines, c->line,
		 secs, x->busy ? " (counting again...)" : "");
	draw_put(y++, x0, iw, E_VALUE, line);
	snprintf(line, sizeof line, " %s", c->path);
	draw_put(y++, x0, iw, E_DERIVED, line);
	draw_put(y++, x0, iw, E_LABEL, " miss rate of a fully associative LRU cache of each size:");
	int h = CHART_H;
	if (y + h + 1 < yend) {
		chart(x, c, y, x0, iw, h);
		y += h + 1;
	}
	/* the configured size's level */
	int lv = -1;
	for (int k = 0; k < c->nlevels; k++)
		if (c->bytes[k] == x->cfg.l1_size)
			lv = k;
	if (lv < 0 || y + 2 >= yend)
		return;
	char sz[24];
	size_label(c->bytes[lv], sz, sizeof sz);
	snprintf(line, sizeof line, " at %s (l1.size): %.2f%% misses; by reference, most first:", sz,
		 rate(c, lv) * 100);
	draw_put(y++, x0, iw, E_LABEL, line);
	snprintf(line, sizeof line, " %5s %-18s %10s %10s %10s", "line", "reference", "accesses",
		 "compulsory", "capacity");
	draw_put(y++, x0, iw, E_DERIVED, line);
	/* the references by misses, most first (a small selection sort) */
	int n = c->nrefs, *ord = malloc((size_t)(n ? n : 1) * sizeof *ord);
	if (!ord)
		return;
	for (int i = 0; i < n; i++)
		ord[i] = i;
	for (int i = 0; i < n && y < yend; i++, y++) {
		int best = i;
		for (int j = i + 1; j < n; j++) {
			const explorer_count_ref *a = &c->refs[ord[j]], *b = &c->refs[ord[best]];
			if (a->compulsory + a->capacity[lv] > b->compulsory + b->capacity[lv])
				best = j;
		}
		int t = ord[i];
		ord[i] = ord[best];
		ord[best] = t;
		const explorer_count_ref *R = &c->refs[ord[i]];
		char ref[80], a[32], cm[32], cp[32];
		snprintf(ref, sizeof ref, "%s%s", R->store ? "wr " : "", R->text);
		draw_fmt_count(R->accesses, a, sizeof a);
		draw_fmt_count(R->compulsory, cm, sizeof cm);
		draw_fmt_count(R->capacity[lv], cp, sizeof cp);
		snprintf(line, sizeof line, " %5u %-18.18s %10s %10s %10s", R->line, ref, a, cm, cp);
		draw_put(y, x0, iw, E_VALUE, line);
	}
	free(ord);
}

/* Set NAME=VALUE among the -D settings the view asks for. */
static void set_def(explorer *x, const char *name, long long v)
{
	size_t n = strlen(name);
	int i = 0;
	while (i < P(x)->ncount_def && !(strncmp(P(x)->count_def[i], name, n) == 0 && P(x)->count_def[i][n] == '='))
		i++;
	if (i == EXPLORER_COUNT_PARAMS)
		return;
	char d[80];
	snprintf(d, sizeof d, "%.30s=%lld", name, v);
	snprintf(P(x)->count_def[i], sizeof P(x)->count_def[i], "%.47s", d);
	if (i == P(x)->ncount_def)
		P(x)->ncount_def++;
}

static int key(explorer *x, enum key_id id)
{
	if (id == K_COUNT)
		return explorer_toggle_view(x, V_COUNT);
	if (id != K_COUNT_LESS && id != K_COUNT_MORE && id != K_COUNT_PARAM)
		return -1;
	if (x->view != V_COUNT)
		return -1;
	const explorer_count *c = P(x)->count;
	if (!c || !c->nparams) {
		explorer_message(x, 1, "count: no parameters to step (yet)");
		return R_STATUS;
	}
	if (P(x)->count_psel >= c->nparams)
		P(x)->count_psel = 0;
	if (id == K_COUNT_PARAM) {
		P(x)->count_psel = (P(x)->count_psel + 1) % c->nparams;
		return R_BARS | R_HIST;
	}
	long long v = c->pval[P(x)->count_psel];
	long long nv = id == K_COUNT_MORE ? (v > (1ll << 40) ? v : v * 2) : (v > 1 ? v / 2 : v);
	if (nv == v) {
		explorer_message(x, 0, "count: %s is at its limit", c->pname[P(x)->count_psel]);
		return R_STATUS;
	}
	set_def(x, c->pname[P(x)->count_psel], nv);
	explorer_message(x, 0, "count: %s = %lld (Esc stops a long count)", c->pname[P(x)->count_psel], nv);
	explorer_request(x);
	return R_BARS | R_HIST | R_STATUS;
}

static int ready(const explorer *x)
{
	char k[sizeof P(x)->count_asked];
	asked_key(x, k, sizeof k);
	return !x->busy && !strcmp(k, P(x)->count_asked);
}

/* Keep c (malloc'ed, with its refs) as the result, freeing the one
 * before; NULL: forget it. */
static void set_count(explorer *x, explorer_count *c)
{
	if (P(x)->count)
		free(P(x)->count->refs);
	free(P(x)->count);
	P(x)->count = c;
}

/* The count asked for (explorer.calls->count) is in. */
static int took(explorer *x, int kind, void **res)
{
	if (kind != P_COUNT)
		return -1;
	if (!*res) {
		P(x)->failed = 1;
		snprintf(P(x)->why, sizeof P(x)->why, "%s", x->call_err);
		if (!x->call_err[0]) /* stopped: H again asks again */
			P(x)->count_asked[0] = '\0';
		return R_BARS | R_HIST;
	}
	P(x)->failed = 0;
	set_count(x, *res);
	*res = NULL;
	return R_BARS | R_HIST;
}

static void drop(explorer *x)
{
	set_count(x, NULL);
	P(x)->ncount_def = 0;
	P(x)->count_psel = 0;
	P(x)->count_asked[0] = '\0';
	P(x)->failed = 0;
}

static const char *hint(const explorer *x)
{
	(void)x;
	return "< > size  H or Esc: back ";
}

const view_ops view_count = {
	.name = "count", .params_focus = 1,
	.desc = "exact counts (HayStack) of a kernel description run as one serial program: the "
		"miss rate of fully associative LRU caches of every size as a curve, and its "
		"references at the configured size",
	.priv_size = sizeof(count_priv),
	.draw = draw, .key = key, .request = request, .ready = ready, .drop = drop, .hint = hint,
	.took = took,
};
