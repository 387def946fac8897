/* Fitting text and the cache grid to a width (see fit.h). */
#include "fit.h"

#include <stdio.h>
#include <string.h>

#include "draw.h"

int fit_items(char *out, size_t len, int width, const char *text, const char *ell,
	      const char *brk)
{
	if (!len)
		return 0;
	out[0] = '\0';
	if (width <= 0)
		return 0;
	if (draw_width(text) <= width) {
		snprintf(out, len, "%s", text);
		return draw_width(out);
	}
	int ew = draw_width(ell);
	/* The longest prefix before a blank that leaves room for the ellipsis. */
	size_t best = 0;
	int cols = 0;
	for (size_t b = 0; text[b];) {
		size_t n = draw_prefix_bytes(text + b, 1);
		if (text[b] == ' ' && cols + ew + 1 <= width &&
		    (!brk || (b && strchr(brk, text[b - 1]))))
			best = b;
		cols++;
		b += n;
		if (cols + ew > width)
			break;
	}
	while (best && strchr(" ,;:", text[best - 1]))
		best--;
	if (!best) {
		if (ew <= width)
			snprintf(out, len, "%s", ell);
		return draw_width(out);
	}
	snprintf(out, len, "%.*s %s", (int)best, text, ell);
	return draw_width(out);
}

void grid_layout(int width, int lead, unsigned ways, int tagw, int ellw, grid_fit *f)
{
	f->cellw = tagw + 2;
	f->more = 0;
	int room = width - lead;
	long fit = room > 0 ? room / f->cellw : 0;
	if (fit >= (long)ways) {
		f->shown = (int)ways;
	} else {
		f->more = 1;
		fit = room - ellw > 0 ? (room - ellw) / f->cellw : 0;
		f->shown = (int)fit;
	}
	f->used = lead + f->shown * f->cellw + (f->more ? ellw : 0);
}

int fit_hex_digits(unsigned long long v)
{
	int n = 1;
	while (v >>= 4)
		n++;
	return n;
}
