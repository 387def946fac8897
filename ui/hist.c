/* Histogram binning (see hist.h). */
#include "hist.h"

#include <stdio.h>

uint64_t hist_range(const uint64_t *hist, uint32_t len, uint64_t lo, uint64_t hi)
{
	uint64_t s = 0;
	for (uint64_t d = lo; d <= hi && d < len; d++)
		s += hist[d];
	return s;
}

size_t hist_bin_make(const uint64_t *hist, uint32_t len, uint64_t span, uint64_t cut,
		     int log_bins, hist_bin *out, size_t max)
{
	if (span < len)
		span = len;
	if (span < cut + 1)
		span = cut + 1;
	size_t n = 0;
	uint64_t lo = 0;
	while (lo < span && n < max) {
		uint64_t hi;
		if (!log_bins) {
			hi = lo;
		} else {
			/* Up to the next power of two, but stop at the cut-off. */
			uint64_t p = 1;
			while (p <= lo)
				p <<= 1;
			hi = p - 1;
			if (lo < cut && hi >= cut)
				hi = cut - 1;
		}
		if (hi >= span)
			hi = span - 1;
		out[n].lo = lo;
		out[n].hi = hi;
		out[n].count = hist_range(hist, len, lo, hi);
		out[n].miss = lo >= cut;
		n++;
		lo = hi + 1;
	}
	return n;
}

void hist_label(uint64_t v, char *buf, size_t len)
{
	if (v < 1000)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else if (v < 1024ull * 1000 && v % 1024 == 0)
		snprintf(buf, len, "%lluk", (unsigned long long)(v / 1024));
	else if (v < 1000000)
		snprintf(buf, len, "%lluk", (unsigned long long)(v / 1000));
	else if (v % (1024ull * 1024) == 0 && v < 1024ull * 1024 * 1000)
		snprintf(buf, len, "%lluM", (unsigned long long)(v >> 20));
	else
		snprintf(buf, len, "%lluM", (unsigned long long)(v / 1000000));
}
