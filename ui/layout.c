/* Screen layout (see layout.h). */
#include "layout.h"

static rect mk(int y, int x, int h, int w)
{
	rect r = {y, x, h, w};
	return r;
}

void layout_compute(int rows, int cols, int params_rows, layout *l)
{
	*l = (layout){0};
	l->rows = rows;
	l->cols = cols;
	if (rows < 0)
		rows = 0;
	if (cols < 0)
		cols = 0;
	l->title = mk(0, 0, 1, cols);
	l->status = mk(rows - 1, 0, 1, cols);
	int body = rows - 2; /* between title and status */
	if (cols >= LAYOUT_WIDE_COLS && rows >= LAYOUT_WIDE_ROWS) {
		/* Parameters take two fifths, between 40 and 48 columns. */
		int pw = cols * 2 / 5;
		pw = pw < 40 ? 40 : pw > 48 ? 48 : pw;
		int rw = cols - pw;
		l->params = mk(1, 0, body, pw);
		l->bars = mk(1, pw, LAYOUT_BARS_H, rw);
		l->hist = mk(1 + LAYOUT_BARS_H, pw, body - LAYOUT_BARS_H, rw);
		l->side = mk(1, pw, body, rw);
		l->body = mk(1, 0, body, cols);
		return;
	}
	if (cols >= LAYOUT_STACK_COLS && rows >= LAYOUT_STACK_ROWS) {
		l->stacked = 1;
		int ph = body - LAYOUT_BARS_H - LAYOUT_HIST_MIN_H - 4;
		if (ph > params_rows)
			ph = params_rows;
		if (ph < LAYOUT_PARAMS_MIN_H)
			ph = LAYOUT_PARAMS_MIN_H;
		l->params = mk(1, 0, ph, cols);
		l->bars = mk(1 + ph, 0, LAYOUT_BARS_H, cols);
		l->hist = mk(1 + ph + LAYOUT_BARS_H, 0, body - ph - LAYOUT_BARS_H, cols);
		l->side = mk(1 + ph, 0, body - ph, cols);
		l->body = mk(1, 0, body, cols);
		return;
	}
	l->too_small = 1;
}
