/* Reuse profiles as bars (see rpchart.h). Calls draw and theme. */
#include "rpchart.h"

#include <stdio.h>

#include "draw.h"
#include "theme.h"

void rpchart_label(int b, char *buf, int len)
{
	size_t n = (size_t)len;
	if (b == 0) {
		snprintf(buf, n, "%s", theme_g()->inf);
		return;
	}
	unsigned long long lo = b == 1 ? 0 : 1ull << (b - 2);
	if (lo >= (1u << 20) && lo % (1u << 20) == 0)
		snprintf(buf, n, "%lluM", lo >> 20);
	else if (lo >= 1024 && lo % 1024 == 0)
		snprintf(buf, n, "%lluK", lo >> 10);
	else
		snprintf(buf, n, "%llu", lo);
}

void rpchart_draw(const double *v, int nb, uint64_t lines, int y, int x0, int w, int h)
{
	const glyphs *g = theme_g();
	int cw = nb ? (w - 6) / nb : 2;
	if (cw > 5)
		cw = 5;
	if (cw < 2)
		cw = 2;
	double top = 0;
	for (int b = 0; b < nb; b++)
		if (v[b] > top)
			top = v[b];
	char lab[32];
	snprintf(lab, sizeof lab, "%3.0f%%", 100.0 * top);
	draw_put(y, x0, 5, E_DERIVED, lab);
	draw_put(y + h - 1, x0, 5, E_DERIVED, "  0%");
	for (int r = 0; r < h; r++)
		draw_put(y + r, x0 + 5, 1, E_BORDER, g->vline);
	/* a distance d hits a fully associative cache of `lines` lines iff
	 * d < lines: the buckets whose distances all are below it */
	int cut = -1;
	for (int b = 1; b < nb; b++) {
		uint64_t hi = b == 1 ? 1 : (uint64_t)1 << (b - 1); /* one past its last */
		if (hi <= lines)
			cut = b;
	}
	int free_x = 0; /* labels: each where the one before ended */
	for (int b = 0; b < nb && 6 + (b + 1) * cw <= w; b++) {
		int bx = x0 + 6 + b * cw;
		int units = top > 0 ? (int)(v[b] / top * h * 8 + 0.5) : 0;
		if (units == 0 && v[b] > 0)
			units = 1;
		enum ui_elem e = b == 0 ? E_COLD : b <= cut ? E_HIT : E_CAPACITY;
		for (int row = 0; row < h && units > 0; row++, units -= 8)
			draw_fill(y + h - 1 - row, bx, cw - 1, e, g->eighths[units > 8 ? 8 : units]);
		rpchart_label(b, lab, (int)sizeof lab);
		if (bx >= free_x && bx + draw_width(lab) <= x0 + w)
			free_x = bx + draw_put(y + h, bx, draw_width(lab), E_LABEL, lab) + 1;
		if (b == cut)
			for (int r = 0; r < h; r++)
				draw_put(y + r, bx + cw - 1, 1, E_CUTOFF, g->cut);
	}
}
