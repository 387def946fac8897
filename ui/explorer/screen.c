/*
 * The explorer's screen: the title and status lines, the parameters pane,
 * the help screen and the too-small screen, around the view on screen,
 * which draws itself through its ops (views/view.h); and the screen's
 * text for the script's dump-screen. Everything is drawn on stdscr at the
 * layout's rectangles from the explorer's state and its immutable result
 * snapshots; colours and glyphs come from theme.h. May call the state's
 * inline helpers, draw, keys, params, theme; never a view by name.
 */
#include "screen.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "draw.h"
#include "keys.h"
#include "params.h"
#include "rprof.h"
#include "info.h"
#include "theme.h"

/* ---------------------------------------------------------------- title */

static void draw_title(explorer *x)
{
	rect r = x->lay.title;
	draw_fill(r.y, r.x, r.w, E_TITLE, " ");
	char t[512];
	/* the stores, when the configuration models them */
	char st[48] = "";
	if (x->cfg.stores != RD_STORES_IGNORE)
		snprintf(st, sizeof st, ", %llu store%s", (unsigned long long)x->k->nstores,
			 x->k->nstores == 1 ? "" : "s");
	if (x->parts) /* a shape: its loads are never all in memory */
		snprintf(t, sizeof t, " rdscope %s %s %s (modelled SM by SM: past the load limit)",
			 RD_VERSION, theme_g()->sep, x->k->name);
	else
		snprintf(t, sizeof t, " rdscope %s %s %s (%u thread%s, %llu load%s%s)", RD_VERSION,
			 theme_g()->sep, x->k->name, x->k->nthreads, x->k->nthreads == 1 ? "" : "s",
			 (unsigned long long)x->k->nloads, x->k->nloads == 1 ? "" : "s", st);
	const char *right = x->base ? "compare: baseline pinned (c unpins)   ? help  q quit "
				    : "? help  q quit ";
	int rw = draw_width(right);
	if (rw > r.w / 2) {
		right = x->base ? "compare  ? help " : "? help ";
		rw = draw_width(right);
	}
	if (draw_width(t) > r.w - rw - 1)
		snprintf(t, sizeof t, " rdscope %s %s", theme_g()->sep, x->k->name);
	draw_put(r.y, r.x, r.w - rw - 1, E_TITLE, t);
	draw_put(r.y, r.x + r.w - rw, rw, E_TITLE, right);
}

/* ---------------------------------------------------------------- params */

#define LABEL_W 17

int screen_params_rows(void)
{
	/* the paper's rows (the pane scrolls through the others) */
	rd_config c;
	rd_config_default(&c);
	size_t v[PARAM_ROWS_MAX], n = param_visible(&c, 1, v, PARAM_ROWS_MAX), rows = 0;
	/* not the groups at the end (DRAM, threads, spaces: the pane scrolls
	 * to them) */
	for (size_t k = 0; k < n; k++)
		rows += param_groups[param_fields[v[k]].group].sized;
	return (int)rows + 3; /* frame, fields, help line */
}

static void draw_params(explorer *x)
{
	rect r = x->lay.params;
	int iw = r.w - 2, ih = r.h - 2;
	int help_line = ih >= 6;
	int vis = ih - help_line;
	if (vis < 1)
		vis = 1;
	/* The focused level's rows (params.h); the selection among them. */
	size_t rows[PARAM_ROWS_MAX];
	size_t n = param_visible(&x->cfg, x->level == 2 ? 2 : 1, rows, PARAM_ROWS_MAX);
	size_t at = n;
	for (size_t k = 0; k < n; k++)
		if (rows[k] == x->sel)
			at = k;
	if (at == n) { /* a row no longer shown (model=rdgc left): model's, or the first */
		at = 0;
		for (size_t k = 0; k < n; k++)
			if (param_fields[rows[k]].key && !strcmp(param_fields[rows[k]].key, "model"))
				at = k;
		while (at < n && !param_editable(rows[at]))
			at++;
		if (at == n)
			at = 0;
		x->sel = rows[at];
	}
	if (at < x->params_top)
		x->params_top = at;
	if (at >= x->params_top + (size_t)vis)
		x->params_top = at - (size_t)vis + 1;
	if (x->params_top + (size_t)vis > n)
		x->params_top = n > (size_t)vis ? n - (size_t)vis : 0;
	char title[64];
	const char *pt = x->level == 2 ? "L2 parameters (2: L1)" : "Parameters";
	if ((size_t)vis < n)
		snprintf(title, sizeof title, "%s %zu/%zu", pt, at + 1, n);
	else
		snprintf(title, sizeof title, "%s", pt);
	draw_frame(&r, title, x->focus == F_PARAMS);
	const glyphs *g = theme_g();
	for (int row = 0; row < vis; row++) {
		size_t k = x->params_top + (size_t)row;
		if (k >= n)
			break;
		size_t i = rows[k];
		int y = r.y + 1 + row, cx = r.x + 1;
		char val[64], extra[64], line[256], why[64];
		if (param_heading(i)) { /* a group: a rule with its name */
			draw_fill(y, cx, iw, E_BORDER, g->hline);
			snprintf(line, sizeof line, " %s ", param_label(i));
			draw_put(y, cx + 1, iw - 1, E_LABEL, line);
			continue;
		}
		param_format(&x->cfg, i, val, sizeof val, extra, sizeof extra);
		/* A row this profile keeps at its default, or the L2's while it
		 * is off: dimmed, why in place of the unit. */
		int applies = param_applies(&x->cfg, i, why, sizeof why);
		if (!applies)
			snprintf(extra, sizeof extra, "%s", why);
		int selected = i == x->sel;
		if (selected) {
			snprintf(line, sizeof line, "%s %-*s %s %s", g->sel, LABEL_W,
				 param_label(i), val, extra);
			draw_fill(y, cx, iw, E_SELECTED, " ");
			draw_put(y, cx, iw, E_SELECTED, line);
			continue;
		}
		snprintf(line, sizeof line, "  %-*s ", LABEL_W, param_label(i));
		int live = param_editable(i) && applies;
		int c = draw_put(y, cx, iw, live ? E_LABEL : E_DERIVED, line);
		c += draw_put(y, cx + c, iw - c, live ? E_VALUE : E_DERIVED, val);
		if (*extra) {
			c += draw_put(y, cx + c, iw - c, E_NORMAL, " ");
			draw_put(y, cx + c, iw - c, E_DERIVED, extra);
		}
	}
	if (help_line && x->sel < param_nfields) {
		const char *h = param_help(x->sel);
		char line[256];
		snprintf(line, sizeof line, " %s", h);
		draw_put(r.y + r.h - 2, r.x + 1, iw, E_DERIVED, line);
	}
}

/* ---------------------------------------------------------------- status */

static void draw_status(explorer *x)
{
	rect r = x->lay.status;
	draw_fill(r.y, r.x, r.w, E_STATUS, " ");
	if (x->prompt) {
		char line[sizeof x->pbuf + 200];
		if (x->prompt == P_CONFIRM)
			snprintf(line, sizeof line, " %s: %s exists; replace it? (y/n) ",
				 x->pconfirm == P_SVG ? "svg" : "export", x->pfile);
		else
			snprintf(line, sizeof line, " %s%s%s", x->plabel, x->pbuf,
				 x->pfull ? " [full: the rest was dropped]" : "");
		int n = draw_width(line);
		/* Keep the end of a long text (where the cursor is) in view. */
		const char *p = line;
		while (n > r.w - 2) {
			p += draw_prefix_bytes(p, 1);
			n--;
		}
		draw_put(r.y, r.x, r.w, E_STATUS, p);
		move(r.y, r.x + n);
		return;
	}
	const glyphs *g = theme_g();
	char info[512] = "", seg[160];
	size_t o = 0;
#define SEG(...) do { snprintf(seg, sizeof seg, __VA_ARGS__); \
		o += (size_t)snprintf(info + o, sizeof info - o, "%s%s", o ? " " : " ", seg); \
		if (o >= sizeof info) o = sizeof info - 1; } while (0)
	SEG("%s", x->input);
	const view_ops *v = x_view(x);
	char vs[sizeof seg] = "";
	if (v->status)
		v->status(x, vs, sizeof vs);
	if (*vs)
		SEG("%s", vs);
	const snap *s = x->cur;
	if (s && s->status == RD_OK)
		SEG("%s %llu requests", g->sep, (unsigned long long)s->res.requests);
	if (!x_settled(x))
		SEG("%s running %3.0f%%%s", g->sep, x->progress * 100,
		    s && s->partial && s->parts_total
			    ? " of the SMs, partial result: the L1 of those done, unscaled"
		    : s && s->partial ? ", partial result"
		    : x->parts	      ? " of the SMs"
				      : "");
	else if (x->no_timing)
		SEG("%s model done", g->sep);
	else
		SEG("%s model %.3f s", g->sep, x->last_seconds);
#undef SEG
	int c = draw_put(r.y, r.x, r.w, !x_settled(x) ? E_STATUS : E_STATUS, info);
	/* The view's own keys, where a lecturer looks for them. */
	const char *hint = v->hint ? v->hint(x) : NULL;
	/* The message, else what is being opened or exported. */
	const char *msg = *x->msg ? x->msg : x->busy ? x->busy_what : NULL;
	if (!msg && hint && c + 1 + draw_width(hint) <= r.w)
		draw_put(r.y, r.x + r.w - draw_width(hint), draw_width(hint), E_STATUS, hint);
	x->msg_rows = 0;
	if (msg && draw_width(msg) + 2 > r.w && r.w > 12 && r.y > 0) {
		/* Wider than the screen: wrapped at blanks onto the rows above
		 * the status line (the panes' last rows, until the next key),
		 * never cut. */
		enum ui_elem e = *x->msg && x->msg_err ? E_ERROR : E_STATUS;
		const char *starts[8];
		int n = 0, cw = r.w - 2;
		for (const char *p = msg; *p && n < 8;) {
			starts[n++] = p;
			size_t b = draw_prefix_bytes(p, cw);
			if (!p[b])
				break;
			/* At the last blank of the line's last third, else cut
			 * (a long path has none). */
			size_t k = b;
			while (k > b * 2 / 3 && p[k] != ' ')
				k--;
			p += p[k] == ' ' ? k + 1 : b;
		}
		if (n > r.y + 1)
			n = r.y + 1;
		for (int i = 0; i < n; i++) {
			size_t len = i + 1 < n ? (size_t)(starts[i + 1] - starts[i]) : strlen(starts[i]);
			char line[1100];
			snprintf(line, sizeof line, " %.*s", (int)len, starts[i]);
			int y = r.y - (n - 1 - i);
			draw_fill(y, r.x, r.w, e, " ");
			draw_put(y, r.x, r.w, e, line);
		}
		x->msg_rows = n;
		return;
	}
	if (msg) {
		x->msg_rows = 1;
		char m[1100];
		snprintf(m, sizeof m, " %s ", msg);
		int mw = draw_width(m);
		int at = r.w - mw;
		if (at < c + 1)
			at = c + 1;
		/* A long message wins over the information on its left. */
		if (at + mw > r.w) {
			at = 0;
			draw_fill(r.y, r.x, r.w, E_STATUS, " ");
		}
		draw_put(r.y, r.x + at, r.w - at, *x->msg && x->msg_err ? E_ERROR : E_STATUS, m);
	}
}

/* ---------------------------------------------------------------- help */

/* Lines the help and the info screens hold (the keys and the views are
 * about 215 lines at 80 columns, 490 at the narrowest, 44; more would be
 * cut off silently). */
#define HELP_LINES 800

typedef struct help_lines {
	char text[HELP_LINES][160];
	enum ui_elem key_elem[HELP_LINES];
	int n, width;
} help_lines;

static void help_add(void *ctx, const char *key, const char *text)
{
	help_lines *h = ctx;
	int kw = 24;
	int tw = h->width - kw - 2;
	if (tw < 20)
		tw = 20;
	if (!key) {
		if (h->n < HELP_LINES) {
			snprintf(h->text[h->n], sizeof h->text[0], "%s", text);
			h->key_elem[h->n++] = E_FOCUS;
		}
		return;
	}
	/* A key list wider than its column gets a line of its own, so that
	 * it never runs into the text ("PageDown, Spacescroll"). */
	int first = 1;
	if ((int)strlen(key) > kw - 3) {
		if (h->n < HELP_LINES) {
			snprintf(h->text[h->n], sizeof h->text[0], "  %s", key);
			h->key_elem[h->n++] = E_KEY;
		}
		first = 0;
	}
	/* Wrap the text at blanks into lines of tw columns. */
	const char *p = text;
	while (*p && h->n < HELP_LINES) {
		int n = (int)strlen(p);
		if (n > tw) {
			n = tw;
			while (n > 0 && p[n] != ' ')
				n--;
			if (n == 0)
				n = tw;
		}
		snprintf(h->text[h->n], sizeof h->text[0], "  %-*s%.*s", kw - 2, first ? key : "",
			 n, p);
		h->key_elem[h->n++] = E_KEY;
		p += n;
		while (*p == ' ')
			p++;
		first = 0;
	}
}

/* An info paragraph: a heading line, or text wrapped at blanks. */
static void info_add(void *ctx, const char *heading, const char *text)
{
	help_lines *h = ctx;
	if (heading) {
		if (h->n && h->n < HELP_LINES) { /* a blank line before */
			h->text[h->n][0] = '\0';
			h->key_elem[h->n++] = E_NORMAL;
		}
		help_add(ctx, NULL, heading);
		return;
	}
	int tw = h->width - 3;
	if (tw > (int)sizeof h->text[0] - 4)
		tw = (int)sizeof h->text[0] - 4;
	if (tw < 20)
		tw = 20;
	const char *p = text;
	while (*p && h->n < HELP_LINES) {
		int n = (int)draw_prefix_bytes(p, tw);
		if (p[n]) { /* cut at the last blank that fits */
			int b = n;
			while (b > 0 && p[b] != ' ')
				b--;
			if (b > 0)
				n = b;
		}
		snprintf(h->text[h->n], sizeof h->text[0], "%.*s", n, p);
		h->key_elem[h->n++] = E_NORMAL;
		p += n;
		while (*p == ' ')
			p++;
	}
}

static void draw_help(explorer *x)
{
	rect r = {1, 0, x->lay.rows - 2, x->lay.cols};
	static help_lines h;
	h.n = 0;
	h.width = r.w - 2;
	if (x->help == 2) {
		/* the breakdown's estimate, when it shows one (views/breakdown.c) */
		double est = -1, bin, fa;
		rd_config k;
		rprof_key(&x->cfg, &k);
		if (x->prof && x->prof->status == RD_OK && x->prof->prof &&
		    rd_config_equal(&x->prof->cfg, &k) &&
		    rprof_estimate(x->prof->prof, &x->cfg, &bin, &fa) == 0)
			est = 1 - bin;
		info_paragraphs(x->cur ? &x->cur->cfg : &x->cfg,
				x->cur && x->cur->status == RD_OK && !x->cur->partial ? &x->cur->res
										: NULL,
				x->try_hint, x->level == 2 && x->cfg.l2_size ? 2 : 1, est, info_add, &h);
	}
	else
		views_help(x->views, help_add, &h);
	int ih = r.h - 2;
	if (x->help_top > h.n - ih)
		x->help_top = h.n - ih;
	if (x->help_top < 0)
		x->help_top = 0;
	char title[96];
	snprintf(title, sizeof title, "%s%s", x->help == 2 ? "What is on screen" : "Keys",
		 h.n > ih ? " (Up/Down scroll, other keys close)" : " (any key closes)");
	draw_frame(&r, title, 1);
	for (int i = 0; i < ih && x->help_top + i < h.n; i++) {
		const char *t = h.text[x->help_top + i];
		int y = r.y + 1 + i;
		if (h.key_elem[x->help_top + i] == E_FOCUS) {
			draw_put(y, r.x + 2, r.w - 3, E_FOCUS, t);
		} else if (h.key_elem[x->help_top + i] == E_NORMAL) {
			draw_put(y, r.x + 2, r.w - 3, E_NORMAL, t);
		} else {
			int kw = 24 < r.w - 3 ? 24 : r.w - 3;
			char k[64];
			snprintf(k, sizeof k, "%.*s", kw, t);
			draw_put(y, r.x + 1, kw, E_KEY, k);
			if ((int)strlen(t) > kw)
				draw_put(y, r.x + 1 + kw, r.w - 2 - kw, E_NORMAL, t + kw);
		}
	}
}

/* ---------------------------------------------------------------- screens */

static void draw_too_small(explorer *x)
{
	erase();
	char l1[128], l2[128];
	snprintf(l1, sizeof l1, "terminal too small: %dx%d", x->lay.cols, x->lay.rows);
	snprintf(l2, sizeof l2, "needs %dx%d (or %dx%d); q quits", LAYOUT_WIDE_COLS,
		 LAYOUT_WIDE_ROWS, LAYOUT_STACK_COLS, LAYOUT_STACK_ROWS);
	int y = x->lay.rows / 2 - 1;
	if (y < 0)
		y = 0;
	const char *ls[2] = {l1, l2};
	for (int i = 0; i < 2 && y + i < x->lay.rows; i++) {
		int w = draw_width(ls[i]);
		int cxx = (x->lay.cols - w) / 2;
		if (cxx < 0)
			cxx = 0;
		draw_put(y + i, cxx, x->lay.cols - cxx, i ? E_NORMAL : E_ERROR, ls[i]);
	}
}

void screen_draw(explorer *x, int flags)
{
	curs_set(0);
	/* A message wrapped over the panes' last rows: redraw them whole. */
	if (x->msg_rows > 1)
		flags |= R_ALL;
	if (x->lay.too_small) {
		draw_too_small(x);
		refresh();
		return;
	}
	const view_ops *v = x_view(x);
	if (x->help) {
		draw_title(x);
		draw_help(x);
	} else if (v->body) {
		draw_title(x);
		v->draw(x, &x->lay.body, flags);
	} else {
		if (flags & R_TITLE)
			draw_title(x);
		if (flags & R_PARAMS)
			draw_params(x);
		v->draw(x, &x->lay.side, flags);
	}
	draw_status(x); /* last: a prompt puts the cursor there */
	if (x->prompt)
		curs_set(1);
	refresh();
}

void screen_dump(FILE *f)
{
	for (int y = 0; y < LINES; y++) {
		char line[4096];
		size_t o = 0, keep = 0;
		for (int xx = 0; xx < COLS && o + 8 < sizeof line; xx++) {
			cchar_t cc;
			wchar_t wc[CCHARW_MAX + 1] = {0};
			attr_t a;
			short pair;
			if (mvin_wch(y, xx, &cc) == ERR || getcchar(&cc, wc, &a, &pair, NULL) == ERR ||
			    !wc[0])
				wc[0] = L' ';
			mbstate_t st;
			memset(&st, 0, sizeof st);
			size_t n = wcrtomb(line + o, wc[0], &st);
			if (n == (size_t)-1) {
				line[o] = '?';
				n = 1;
			}
			o += n;
			if (wc[0] != L' ')
				keep = o;
		}
		fwrite(line, 1, keep, f);
		fputc('\n', f);
	}
}
