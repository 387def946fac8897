/*
 * Cutting text and tables to a width without cutting a number in two: a
 * list of items is cut at a blank between them, with an ellipsis where
 * something was left out; the step-through's cache grid shows the ways
 * that fit whole. Pure (no curses): unit-tested.
 */
#ifndef UI_FIT_H
#define UI_FIT_H

#include <stddef.h>

/*
 * text fitted to width columns into out (len bytes): text itself when it
 * fits; else its longest prefix that ends before a blank (with brk: a
 * blank after one of brk's characters, for items that hold blanks, as
 * "w1 t5, w0 t6" with brk ",") and leaves room for ell, without the
 * separators (",;:") it ends in, then ell; ell alone (or "" if even that
 * does not fit) when no item fits. Returns the columns of out.
 */
int fit_items(char *out, size_t len, int width, const char *text, const char *ell,
	      const char *brk);

/* The step-through's cache grid on a line of width columns: lead columns
 * of set label, then ways cells of tagw hex digits, a mark and a blank
 * each; where not all fit, as many as do and an ellipsis of ellw
 * columns. */
typedef struct grid_fit {
	int cellw;  /* columns of a cell with its blank */
	int shown;  /* ways shown, most recent first */
	int more;   /* ways left out: an ellipsis follows */
	int used;   /* columns of lead, cells and ellipsis */
} grid_fit;

void grid_layout(int width, int lead, unsigned ways, int tagw, int ellw, grid_fit *f);

/* Hexadecimal digits of v (1 for 0). */
int fit_hex_digits(unsigned long long v);

#endif
