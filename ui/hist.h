/*
 * Binning the reuse-distance histogram for the screen (pure, unit-tested).
 * Bins are one distance each when they fit the width, otherwise powers of
 * two (0, 1, 2-3, 4-7, ...). The hit/miss cut-off is always a bin edge, so
 * no bin mixes hits and misses. Cold misses (infinite distance) are not a
 * bin: the pane draws them apart.
 */
#ifndef UI_HIST_H
#define UI_HIST_H

#include <stddef.h>
#include <stdint.h>

typedef struct hist_bin {
	uint64_t lo, hi; /* distances lo..hi, inclusive */
	uint64_t count;
	int miss;        /* 1: distances at or past the cut-off (misses) */
} hist_bin;

/*
 * Bin hist[0..len) into out (at most max bins). cut: the first distance
 * that misses (the associativity in the paper's model). The bins cover
 * 0 .. max(span, len, cut + 1) - 1, so the cut-off shows even when no
 * request reached it (span: to line up with another histogram). log_bins:
 * 0 linear, 1 powers of two. Returns the bins used (bins past max are
 * dropped).
 */
size_t hist_bin_make(const uint64_t *hist, uint32_t len, uint64_t span, uint64_t cut,
		     int log_bins, hist_bin *out, size_t max);

/* Count of distances lo..hi in hist (for a baseline binned the same way). */
uint64_t hist_range(const uint64_t *hist, uint32_t len, uint64_t lo, uint64_t hi);

/* "0", "12", "1k", "16k", "2M": at most 4 characters, for bin labels. */
void hist_label(uint64_t v, char *buf, size_t len);

#endif
