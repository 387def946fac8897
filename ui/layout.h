/*
 * Screen layout: a pure function of the terminal size, unit-tested over
 * many sizes without curses. Two arrangements: wide (parameters on the
 * left, breakdown over histogram on the right) and stacked (one above the
 * other, for narrow but tall terminals); below both minimums the screen
 * says it is too small.
 */
#ifndef UI_LAYOUT_H
#define UI_LAYOUT_H

typedef struct rect {
	int y, x, h, w;
} rect;

typedef struct layout {
	int rows, cols;
	int too_small;
	int stacked;
	rect title;  /* top line */
	rect params; /* framed panes */
	rect bars;
	rect hist;
	rect side;   /* bars and hist together: where the heat map and curves go */
	rect body;   /* everything between title and status: the step-through */
	rect status; /* bottom line */
} layout;

/* Wide arrangement: at least this many columns and rows. */
#define LAYOUT_WIDE_COLS 76
#define LAYOUT_WIDE_ROWS 20
/* Stacked arrangement for narrower terminals. */
#define LAYOUT_STACK_COLS 44
#define LAYOUT_STACK_ROWS 32
/* Height of the breakdown pane (frame included). */
#define LAYOUT_BARS_H 11
/* Smallest panes: a parameters pane shows at least this many rows (it
 * scrolls), the histogram this many. */
#define LAYOUT_PARAMS_MIN_H 8
#define LAYOUT_HIST_MIN_H 7

/* params_rows: rows the parameters pane would like (frame included). */
void layout_compute(int rows, int cols, int params_rows, layout *l);

#endif
