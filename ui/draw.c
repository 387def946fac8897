/* Shared text drawing (see draw.h). */
#include "draw.h"

#include <curses.h>
#include <stdio.h>

size_t draw_prefix_bytes(const char *s, int n)
{
	size_t b = 0;
	while (s[b] && n > 0) {
		b++;
		while ((s[b] & 0xC0) == 0x80)
			b++;
		n--;
	}
	return b;
}

int draw_width(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += (*s & 0xC0) != 0x80;
	return n;
}

int draw_put(int y, int x, int w, enum ui_elem e, const char *s)
{
	if (w <= 0)
		return 0;
	int n = draw_width(s);
	if (n > w)
		n = w;
	attrset(theme_attr(e));
	mvaddnstr(y, x, s, (int)draw_prefix_bytes(s, n));
	attrset(A_NORMAL);
	return n;
}

void draw_fill(int y, int x, int n, enum ui_elem e, const char *g)
{
	attrset(theme_attr(e));
	for (int i = 0; i < n; i++)
		mvaddstr(y, x + i, g);
	attrset(A_NORMAL);
}

void draw_blank(const rect *r)
{
	for (int i = 0; i < r->h; i++)
		draw_fill(r->y + i, r->x, r->w, E_NORMAL, " ");
}

void draw_frame(const rect *r, const char *title, int focused)
{
	const glyphs *g = theme_g();
	enum ui_elem e = focused ? E_FOCUS : E_BORDER;
	draw_blank(r);
	draw_fill(r->y, r->x + 1, r->w - 2, e, g->hline);
	draw_fill(r->y + r->h - 1, r->x + 1, r->w - 2, e, g->hline);
	for (int i = 1; i < r->h - 1; i++) {
		draw_put(r->y + i, r->x, 1, e, g->vline);
		draw_put(r->y + i, r->x + r->w - 1, 1, e, g->vline);
	}
	draw_put(r->y, r->x, 1, e, g->tl);
	draw_put(r->y, r->x + r->w - 1, 1, e, g->tr);
	draw_put(r->y + r->h - 1, r->x, 1, e, g->bl);
	draw_put(r->y + r->h - 1, r->x + r->w - 1, 1, e, g->br);
	char t[160];
	snprintf(t, sizeof t, " %s ", title);
	draw_put(r->y, r->x + 2, r->w - 4, e, t);
}

void draw_fmt_count(uint64_t v, char *buf, size_t len)
{
	if (v < 10000)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else if (v < 100000)
		snprintf(buf, len, "%.1fk", (double)v / 1e3);
	else if (v < 1000000)
		snprintf(buf, len, "%.0fk", (double)v / 1e3);
	else if (v < 100000000)
		snprintf(buf, len, "%.2gM", (double)v / 1e6);
	else
		snprintf(buf, len, "%.0fM", (double)v / 1e6);
}

double draw_pct(uint64_t n, uint64_t of)
{
	return of ? 100.0 * (double)n / (double)of : 0.0;
}
