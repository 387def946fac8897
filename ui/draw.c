/* Shared text drawing (see draw.h). */
#include "draw.h"

#include <curses.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/*
 * The character at s, one column on screen: its bytes (1 for a byte that
 * is not UTF-8), and whether it may be shown as it is (valid UTF-8, not
 * C0, DEL or C1). The rule of src/util/msg.c's utf8_len and char_at, which
 * ui/ may not include: this function is the explorer's one copy of it.
 */
static size_t char_at(const unsigned char *s, int *safe)
{
	unsigned c = s[0];
	size_t n = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : (c & 0xF0) == 0xE0 ? 3
				 : c >= 0xF0 && c <= 0xF4		  ? 4
									  : 0;
	uint32_t cp = n == 1 ? c : c & (0xFF >> (n + 1));
	static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
	for (size_t i = 1; i < n && n; i++) { /* a NUL stops it: never past the end */
		if ((s[i] & 0xC0) != 0x80)
			n = 0;
		else
			cp = cp << 6 | (s[i] & 0x3F);
	}
	if (n > 1 && (cp < min[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)))
		n = 0;
	*safe = n && c >= 0x20 && c != 0x7f && !(c == 0xC2 && s[1] < 0xA0);
	return n ? n : 1;
}

/* The first nbytes of s made safe into dst (len bytes with the NUL). */
static char *safe_copy(char *dst, size_t len, const char *s, size_t nbytes)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + nbytes;
	size_t o = 0;
	if (!len)
		return dst;
	while (p < end && *p) {
		int safe;
		size_t n = char_at(p, &safe);
		size_t out = safe ? n : 1;
		if (o + out >= len)
			break;
		if (safe)
			memcpy(dst + o, p, n);
		else
			dst[o] = '?';
		o += out;
		p += n;
	}
	dst[o] = '\0';
	return dst;
}

char *draw_safe(char *dst, size_t len, const char *s)
{
	return safe_copy(dst, len, s, strlen(s));
}

size_t draw_prefix_bytes(const char *s, int n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t b = 0;
	int safe;
	for (; p[b] && n > 0; n--)
		b += char_at(p + b, &safe);
	return b;
}

int draw_width(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int n = 0, safe;
	for (; *p; n++)
		p += char_at(p, &safe);
	return n;
}

int draw_put(int y, int x, int w, enum ui_elem e, const char *s)
{
	if (w <= 0)
		return 0;
	int n = draw_width(s);
	if (n > w)
		n = w;
	char safe[4096];
	safe_copy(safe, sizeof safe, s, draw_prefix_bytes(s, n));
	attrset(theme_attr(e));
	mvaddstr(y, x, safe);
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
	else if (v < 10000000000ull)
		snprintf(buf, len, "%.0fM", (double)v / 1e6);
	else if (v < 10000000000000ull)
		snprintf(buf, len, "%.0fG", (double)v / 1e9);
	else
		snprintf(buf, len, "%.0fT", (double)v / 1e12);
}

double draw_pct(uint64_t n, uint64_t of)
{
	return of ? 100.0 * (double)n / (double)of : 0.0;
}
