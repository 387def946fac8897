/*
 * Text drawing on stdscr shared by the panes and the teaching views: UTF-8
 * text clipped to a width, repeated glyphs, frames, compact numbers. Every
 * glyph the explorer draws is one column wide, so columns = code points.
 * UI thread only (curses).
 */
#ifndef UI_DRAW_H
#define UI_DRAW_H

#include <stddef.h>
#include <stdint.h>

#include "layout.h"
#include "theme.h"

/*
 * Text from inputs (kernel and file names, preset names, messages quoting
 * them) may hold any byte. s copied into dst (at most len bytes with the
 * NUL, cut at a character) with each control character (C0, DEL, C1
 * U+0080..U+009F) and each byte that is not UTF-8 replaced by one '?', as
 * src/util/msg.c does for rdscope's text output (ui/ may not include it:
 * this is the explorer's one copy of that rule). draw_put applies it to
 * everything drawn; the explorer's messages on standard error and the
 * kernel list use it too. Returns dst.
 */
char *draw_safe(char *dst, size_t len, const char *s);
/* Bytes of the first n characters (code points; a control character or a
 * byte that is not UTF-8 counts as one, its '?') of s. */
size_t draw_prefix_bytes(const char *s, int n);
/* Columns of s as drawn (made safe). */
int draw_width(const char *s);
/* Draw s (made safe: draw_safe) at (y, x), at most w columns, in element
 * e. Returns columns drawn. */
int draw_put(int y, int x, int w, enum ui_elem e, const char *s);
/* Repeat glyph g n times from (y, x). */
void draw_fill(int y, int x, int n, enum ui_elem e, const char *g);
void draw_blank(const rect *r);
/* A frame around r (cleared inside) with a title; focused: highlighted. */
void draw_frame(const rect *r, const char *title, int focused);
/* A count in at most 5 characters: 1234, 12.3k, 252k, 1.05M. */
void draw_fmt_count(uint64_t v, char *buf, size_t len);
/* 100 * n / of, 0 when of is 0. */
double draw_pct(uint64_t n, uint64_t of);

#endif
